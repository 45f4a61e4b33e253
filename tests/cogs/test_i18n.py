"""Italian and English: complete catalogues, localised slash commands, the right language."""

from __future__ import annotations

import asyncio
import re
import string
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import cogs.uno
from cogs.uno._i18n import (
    LANGUAGES,
    CatalogueTranslator,
    catalogue,
    command_key,
    current_language,
    language_of_locale,
    set_language,
    speaking,
    t,
)
from cogs.uno._present import card_name, rules_help, rules_summary
from cogs.uno._slash import LEVEL_CHOICES, new_command
from engine import PRESETS, CardFace, Rules
from engine.cards import Kind
from engine.rules import Scoring, Stacking
from storage import GameRepository

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord: lowercase letters, digits, - and _


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_catalogues_have_the_same_keys_and_fields() -> None:
    english, italian = catalogue("en"), catalogue("it")
    # A plural message has a key per plural category: Italian adds "many" (1000000 di carte).
    many = {key for key in italian if key.endswith(".many")}
    assert set(english) == set(italian) - many
    assert len(english) > 200
    for key in english:
        assert italian[key].strip(), key
        assert fields(english[key]) == fields(italian[key]), key
    for key in many:
        assert fields(italian[key]) == fields(english[key.replace(".many", ".other")]), key


def test_every_enum_driven_key_exists_in_both_languages() -> None:
    for language in LANGUAGES:
        messages = catalogue(language)
        for scoring in Scoring:
            assert f"scoring.{scoring.value}" in messages
        for stacking in Stacking:
            if stacking is not Stacking.OFF:
                assert f"summary.stacking.{stacking.value}" in messages
                assert f"help.house.stacking.{stacking.value}" in messages
        for preset in PRESETS:
            assert f"preset.{preset}" in messages
        for kind in Kind:  # every card has a name, the R-DECK-5 blank card too
            assert f"card.{'number' if kind is Kind.NUMBER else kind.value}" in messages


@pytest.mark.parametrize(
    ("notation", "italian", "english"),
    [
        ("R7", "Rosso 7", "Red 7"),
        ("BS", "Blu Salta", "Blue Skip"),
        ("GR", "Verde Inverti", "Green Reverse"),
        ("YD2", "Giallo Pesca Due", "Yellow Draw Two"),
        ("W", "Jolly", "Wild"),
        ("W4", "Jolly Pesca Quattro", "Wild Draw Four"),
        ("WX", "Carta bianca", "Blank card"),
    ],
)
def test_cards_are_named_as_the_seeds_name_them(notation: str, italian: str, english: str) -> None:
    face = CardFace.parse(notation)
    with speaking("it"):
        assert card_name(face) == italian
    with speaking("en"):
        assert card_name(face) == english


def test_rules_help_speaks_both_languages() -> None:
    rules = Rules.from_preset("party")
    with speaking("it"):
        italian = rules_help("party", rules)
        assert italian[0] == "**festa**"
        assert "Rilancio (cumulativo)" in "\n".join(italian)
        assert "non contesta mai" in "\n".join(italian)
        assert rules_summary(rules).startswith("il vincitore prende i punti")
    with speaking("en"):
        assert "Stacking (cumulative)" in "\n".join(rules_help("party", rules))


@pytest.mark.parametrize(
    ("locale", "language"),
    [("it", "it"), ("en-US", "en"), ("en-GB", "en"), ("fr", None), (None, None)],
)
def test_discord_locales_map_to_our_languages(locale: str | None, language: str | None) -> None:
    assert language_of_locale(locale) == language


async def test_each_task_speaks_its_own_language() -> None:
    # Two users act at once: asyncio gives each handler its own copy of the context.
    async def answer(language: str) -> str:
        set_language(language)
        await asyncio.sleep(0.01)
        return t("error.not_seated")

    italian, english = await asyncio.gather(answer("it"), answer("en"))
    assert italian == "Non stai giocando a questo tavolo."
    assert english == "You are not playing at this table."
    assert current_language() == "en"


def test_an_unknown_language_falls_back_to_english() -> None:
    with speaking("xx"):
        assert t("ok.done") == "Done."


# -- slash commands ----------------------------------------------------------------------------


@pytest.fixture
async def tree() -> Any:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    repo = await GameRepository.open(":memory:")
    bot.repo = repo  # type: ignore[attr-defined]  # what bot.py's UnoBot carries
    await cogs.uno.setup(bot)
    yield bot.tree
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await cogs.uno.teardown(bot)
    await repo.close()


async def test_every_command_and_option_has_an_italian_name_and_description(tree: Any) -> None:
    translator = CatalogueTranslator()
    payload = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    assert [p["name"] for p in payload] == ["uno", "uno-admin"]
    group, admin = payload
    assert group["description_localizations"]["it"] == "Gioca a UNO in questo canale"
    assert admin["description_localizations"]["it"] == "Gestisci UNO su questo server"

    def check(options: list[dict[str, Any]]) -> list[str]:
        """Every option, subcommand and subgroup below, recursively; their Italian names."""
        names = []
        for option in options:
            italian = option["name_localizations"]["it"]
            assert NAME.match(italian), italian
            assert italian == italian.lower(), italian
            assert 1 <= len(option["description_localizations"]["it"]) <= 100
            for choice in option.get("choices", []):
                assert choice["name_localizations"]["it"]
            names.append(italian)
            inner = check(option.get("options", []))
            assert len(set(inner)) == len(inner), inner  # no two siblings share a name
        return names

    seen = check(group["options"])
    assert {"nuovo", "gioca", "pesca", "mano", "sfida", "cogli", "classifica"} <= set(seen)
    assert len(set(seen)) == len(seen)  # no two commands share an Italian name
    managing = check(admin["options"])
    assert {"impostazioni", "stagione", "torneo", "chiudi", "espelli"} <= set(managing)


async def test_the_english_catalogue_matches_the_source_of_every_command(tree: Any) -> None:
    # English names and descriptions live in the decorators; the catalogue must not drift.
    english = catalogue("en")
    for group in tree.get_commands():
        check_group_against_catalogue(english, group)


def check_group_against_catalogue(english: Any, group: app_commands.Group) -> None:
    where = app_commands.TranslationContextLocation
    assert english[command_key(where.group_name, group)] == group.name
    assert english[command_key(where.group_description, group)] == group.description
    for command in group.walk_commands():
        if isinstance(command, app_commands.Group):
            assert english[command_key(where.group_name, command)] == command.name
            assert english[command_key(where.group_description, command)] == command.description
            continue
        assert english[command_key(where.command_name, command)] == command.name
        assert english[command_key(where.command_description, command)] == command.description
        for parameter in command.parameters:
            assert english[command_key(where.parameter_name, parameter)] == parameter.name
            desc = command_key(where.parameter_description, parameter)
            assert english[desc] == parameter.description


class _NoPresets:
    """Stands in for the Play cog: ``new_command`` only wires its preset autocomplete."""

    async def presets(self, interaction: Any, current: str) -> list[app_commands.Choice[str]]:
        return []


def test_choices_name_their_catalogue_keys() -> None:
    command = new_command(_NoPresets())  # type: ignore[arg-type]
    house = [choice for parameter in command.parameters for choice in parameter.choices]
    for choice in [*LEVEL_CHOICES, *house]:
        key = choice._locale_name.extras["key"] if choice._locale_name else None
        assert key is not None
        assert key in catalogue("it")


def test_r_flip_rules_help_explains_both_sides_in_both_languages() -> None:
    rules = Rules.from_preset("flip")
    with speaking("en"):
        text = "\n".join(rules_help("flip", rules))
        assert "Skip Everyone" in text
        assert "Wild Draw Colour" in text
        assert t("help.w4") not in text  # Flip has no Wild Draw Four of its own
    with speaking("it"):
        text = "\n".join(rules_help("flip", rules))
        assert "Salta Tutti" in text
        assert "Jolly Pesca Colore" in text


@pytest.mark.parametrize(
    ("notation", "italian", "english"),
    [
        ("RD1", "Rosso Pesca Uno", "Red Draw One"),
        ("BF", "Blu Flip", "Blue Flip"),
        ("PD5", "Rosa Pesca Cinque", "Pink Draw Five"),
        ("TSE", "Turchese Salta Tutti", "Teal Skip Everyone"),
        ("W2", "Jolly Pesca Due", "Wild Draw Two"),
        ("WC", "Jolly Pesca Colore", "Wild Draw Colour"),
        ("V7", "Viola 7", "Purple 7"),
    ],
)
def test_r_flip_cards_have_names_in_both_languages(
    notation: str, italian: str, english: str
) -> None:
    face = CardFace.parse(notation)
    with speaking("it"):
        assert card_name(face) == italian
    with speaking("en"):
        assert card_name(face) == english
