"""The real bot with one more extension, which fails to load (``test_safe_sync.py``).

Run as ``FAKE_DISCORD_BOT=tests.e2e.broken_bot``: the launcher calls :func:`main`.
"""

from __future__ import annotations

import bot


def main() -> int:
    bot.EXTENSIONS = (*bot.EXTENSIONS, "tests.e2e.broken_extension")
    return bot.main()
