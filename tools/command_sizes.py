"""Print how many characters ``/uno`` and ``/uno-admin`` weigh, as Discord counts them.

    .venv/bin/python tools/command_sizes.py

Discord refuses a chat command whose name, description and values — its own and those of every
option, subcommand, group and choice below it — add up to more than 8,000 characters, each
field counted at its longest localization (the English source included). This builds the
registration discord.py sends (every language of the catalogues, through
``CatalogueTranslator``), counts it as Discord does (``fakediscord.validate``, which the
fake Discord enforces too), and prints it beside what each locale alone would weigh.
tests/cogs/test_catalogues.py keeps each command under 75 % of the limit.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, like the other tools

import discord  # noqa: E402
from discord.ext import commands  # noqa: E402

import cogs.uno  # noqa: E402
from cogs.uno._i18n import DISCORD_LOCALES, CatalogueTranslator  # noqa: E402
from fakediscord.validate import COMMAND_CHARACTERS, command_size  # noqa: E402
from storage import GameRepository  # noqa: E402


def in_locale(node: dict[str, Any], locale: str) -> int:
    """The characters of ``node`` read in ``locale`` alone (English where it has no text)."""

    def text(where: dict[str, Any], field: str) -> str:
        localized = where.get(f"{field}_localizations") or {}
        return str(localized.get(locale) or where.get(field) or "")

    total = len(text(node, "name")) + len(text(node, "description"))
    for choice in node.get("choices") or []:
        total += len(text(choice, "name")) + len(str(choice.get("value", "")))
    return total + sum(in_locale(option, locale) for option in node.get("options") or [])


async def registration() -> list[dict[str, Any]]:
    """The payloads discord.py would send for the bot's commands, translated."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    repo = await GameRepository.open(":memory:")
    bot.repo = repo  # type: ignore[attr-defined]
    await cogs.uno.setup(bot)
    translator = CatalogueTranslator()
    made = [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await repo.close()
    return made


def main() -> None:
    logging.disable(logging.WARNING)  # the cog's "emojis not ready" note: no bot is running
    for payload in asyncio.run(registration()):
        size = command_size(payload)
        share = size / COMMAND_CHARACTERS
        sys.stdout.write(f"/{payload['name']}: {size} of {COMMAND_CHARACTERS} ({share:.0%})\n")
        alone = ", ".join(f"{locale} {in_locale(payload, locale)}" for locale in DISCORD_LOCALES)
        sys.stdout.write(f"    each locale alone: {alone}\n")


if __name__ == "__main__":
    main()
