"""End-to-end fixtures: see harness.py."""

from playtest.harness import world

__all__ = ["world"]
