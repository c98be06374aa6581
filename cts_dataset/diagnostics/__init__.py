"""Diagnostics of a run."""
