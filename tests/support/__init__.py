"""Test support shared across the suite: the scripted Messages API, worker processes."""
