"""End-to-end fixtures: see harness.py."""

from .harness import world

__all__ = ["world"]
