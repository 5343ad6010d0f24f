"""The dashboard's views, one module per area; ``dashboard.urls`` names them all."""
