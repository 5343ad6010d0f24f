"""Extraction (SPEC E): turning the new messages of a session into saved memories."""
