"""Recall (SPEC R): choosing the few memories worth showing for a query."""
