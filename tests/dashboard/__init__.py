"""The dashboard, through the Django test client against real repositories."""
