"""Pure renders: engine views to PNG bytes with Pillow (no discord import). See issue #3.

- :func:`render_hand` draws one player's hand from a :class:`~engine.views.PlayerView`;
- :func:`render_table` draws the table from a :class:`~engine.views.TableView`, which holds no
  hand, so a table image can never show a card that is not public;
- :func:`render_card_emoji` draws one card face as a square emoji picture, and
  :func:`emoji_set` lists every emoji the bot needs with its Discord name and a digest of its
  bytes (:mod:`renders.emoji`);
- :func:`render_leaderboard`, :func:`render_standings` and :func:`render_stats` draw the boards
  from plain, already worded strings (the caller translates), never from storage objects.

All return PNG bytes (palette PNGs, no metadata: the same view gives the same bytes). They
are safe to call from several worker threads at once (``asyncio.to_thread``): there is no
global lock, so renders use every core (see :mod:`renders.assets`). Nothing is built at
import time: fonts, card art and the palette are made on first use and cached.

To skip a render whose picture would not change, :func:`hand_key` and :func:`table_key` give
a short stable key of what the picture shows (:mod:`renders.scenes`): equal keys, equal
bytes. Names may be in any script, with emoji (:mod:`renders.text`).
"""

from .boards import LeaderRow, render_leaderboard, render_standings
from .emoji import EmojiArt, emoji_name, emoji_set, render_card_emoji
from .hand import hand_layout, render_hand
from .scenes import ART_VERSION, hand_key, playable_cards, table_key
from .stats import render_stats
from .table import render_table

__all__ = [
    "ART_VERSION",
    "EmojiArt",
    "LeaderRow",
    "emoji_name",
    "emoji_set",
    "hand_key",
    "hand_layout",
    "playable_cards",
    "render_card_emoji",
    "render_hand",
    "render_leaderboard",
    "render_standings",
    "render_stats",
    "render_table",
    "table_key",
]
