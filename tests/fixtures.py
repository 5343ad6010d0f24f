"""Shared fixtures: personas, repositories, services."""
