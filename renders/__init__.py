"""Pure renders: engine views to PNG bytes with Pillow (no discord import). See issue #3.

- :func:`render_hand` draws one player's hand from a :class:`~engine.views.PlayerView`;
- :func:`render_table` draws the table from a :class:`~engine.views.TableView`, which holds no
  hand, so a table image can never show a card that is not public;
- :func:`render_leaderboard`, :func:`render_standings` and :func:`render_stats` draw the boards
  from plain, already worded strings (the caller translates), never from storage objects.

All return PNG bytes (palette PNGs, no metadata: the same view gives the same bytes) and are
safe to call from a worker thread (``asyncio.to_thread``). Nothing is built at import time:
fonts, card art and the palette are made on first use and cached.
"""

from .boards import LeaderRow, render_leaderboard, render_standings
from .hand import hand_layout, playable_cards, render_hand
from .stats import render_stats
from .table import render_table

__all__ = [
    "LeaderRow",
    "hand_layout",
    "playable_cards",
    "render_hand",
    "render_leaderboard",
    "render_standings",
    "render_stats",
    "render_table",
]
