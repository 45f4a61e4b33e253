"""An extension as a bad deploy leaves it: importing it fails (see ``broken_bot.py``)."""

from __future__ import annotations

raise ImportError("cannot import name 'Table' from 'tables' (a half-copied deploy)")
