"""The house rules, declared once (cogs/uno/_house.py): every option of ``Rules`` is a house
rule's or fixed for a reason; each rule's choices make tables; the editor, the slash options
and the words come from the declaration; ``/uno`` stays under 3,000 characters."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
from discord.ext import commands

import cogs.uno
from cogs.uno._editor import editor_payload
from cogs.uno._house import (
    BY_KEY,
    FIXED_FIELDS,
    HOUSE_RULES,
    PAGE_NAMES,
    SLASH_RULES,
    changes_for,
    controls,
    differences,
    explain,
)
from cogs.uno._i18n import (
    DISCORD_LOCALES,
    LANGUAGES,
    CatalogueTranslator,
    catalogue,
    speaking,
)
from cogs.uno._present import rules_help
from engine import Rules, RulesError
from storage import GameRepository
from tests.tables.tables import lobby

#: /uno's characters in any one locale, at most (what Discord counts, each field at its longest
#: localization, is checked against its 8,000 in test_catalogues.py).
UNO_BUDGET = 3000


def test_every_rules_field_is_a_house_rule_or_fixed_for_a_reason() -> None:
    fields = {field.name for field in dataclasses.fields(Rules)}
    covered = {option for rule in HOUSE_RULES for option in rule.options}
    assert covered <= fields
    assert not covered & set(FIXED_FIELDS)
    assert fields == covered | set(FIXED_FIELDS)
    assert all(reason for reason in FIXED_FIELDS.values())


#: The reasons a choice alone may be refused: it needs another rule chosen with it.
NEEDS = (
    "_needs_two_decks",
    "_needs_teams",
    "_needs_blank_cards",
    "_needs_time_limit",
    "_needs_flip",
)


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: f"{rule.rule}-{rule.key}")
def test_each_choice_makes_a_table_or_names_what_it_needs(rule: Any) -> None:
    for choice in rule.choices:
        if rule.switch:
            chosen = [rule.key] if choice.value == "on" else []
            assert changes_for(f"on-{rule.page}", chosen)[rule.key] == choice.sets[rule.key]
        else:
            assert changes_for(rule.key, [choice.value]) == dict(choice.sets)
        refused = None
        try:
            rules = Rules(**choice.sets)
        except RulesError as exc:
            refused = exc.code
        if refused is not None:
            assert refused.endswith(NEEDS), refused  # e.g. twenty seats need two decks
            continue
        assert rule.current(rules) == choice


def test_every_house_rule_is_worded_in_both_languages() -> None:
    for language in LANGUAGES:
        words = catalogue(language)
        for rule in HOUSE_RULES:
            assert f"house.{rule.key}" in words, rule.key
            for choice in rule.choices:
                key = f"house.{choice.value}" if rule.switch else f"house.{rule.key}.{choice.value}"
                assert key in words, key


async def test_the_editor_shows_every_house_rule_within_discords_limits() -> None:
    # async: discord.py 2.6 (the floor) makes a View only inside a running event loop
    table = lobby(3, table_id="z" * 13)
    shown: set[str] = set()
    for page in PAGE_NAMES:
        payload = editor_payload(table, page)
        rows = len(payload.view.children)
        assert len(controls(page)) <= 4  # four selects and the row of page buttons
        assert rows <= 25
        for item in payload.view.children:
            if isinstance(item, discord.ui.Select):
                shown |= (
                    {o.value for o in item.options}
                    if item.custom_id.endswith(f"on-{page}")
                    else {item.custom_id.rsplit(":", 1)[1]}
                )
    assert {rule.key for rule in HOUSE_RULES} <= shown


def test_r_alt_choices_in_the_editor_are_saved_and_listed() -> None:
    changes = changes_for("zero_spell", ["swap"]) | changes_for("on-variants", ["seven_swap"])
    rules = Rules.from_preset("classic", **changes)
    with speaking("en"):
        listed = differences(rules, "classic")
        assert "The 0: swap hands" in listed
        assert "7: swap hands: on" in listed
        assert any("R-ALT-2" in line for line in explain(rules))
        assert any("R-ALT-3" in line for line in explain(rules))
    with pytest.raises(KeyError):
        changes_for("on-variants", ["jump_in"])  # a switch of another page
    with pytest.raises(KeyError):
        changes_for("zero_spell", ["sideways"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_rules_help_explains_every_chosen_house_rule(language: str) -> None:
    chosen = Rules.from_preset(
        "classic",
        two_decks=True,
        max_players=20,
        zero_spell="rotate",
        skip_variant="all_draw",
        blank_cards=2,
        blank_effect="refill",
        time_limit=30,
        jump_in=True,
    )
    with speaking(language):
        text = "\n".join(rules_help("classic", chosen))
    for rule_id in ("R-ALT-1", "R-ALT-2", "R-ALT-4", "R-ALT-6", "R-ALT-8", "R-DECK-5"):
        assert rule_id in text
    assert "{" not in text


@pytest.fixture
async def tree() -> Any:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    repo = await GameRepository.open(":memory:")
    bot.repo = repo  # type: ignore[attr-defined]
    await cogs.uno.setup(bot)
    yield bot.tree
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await repo.close()


async def test_the_slash_options_are_the_declared_house_rules(tree: Any) -> None:
    new = tree.get_command("uno").get_command("new")
    settings = tree.get_command("uno-admin").get_command("settings")
    fixed_new = ["preset", "points", "turn_seconds", "hands", "tournament"]
    fixed_settings = ["preset", "points", "turn_seconds", "turn_ping", "language", "reset_rules"]
    house = [rule.key for rule in SLASH_RULES]
    assert [p.name for p in new.parameters] == fixed_new + house
    assert [p.name for p in settings.parameters] == fixed_settings + house
    for parameter in new.parameters[len(fixed_new) :]:
        rule = BY_KEY[parameter.name]
        if rule.switch:
            assert parameter.type is discord.AppCommandOptionType.boolean
        else:
            assert [c.value for c in parameter.choices] == [c.value for c in rule.choices]


def registration_size(payload: dict[str, Any], locale: str) -> int:
    """The characters Discord counts against a command's limit in ``locale``: the name,
    description and value of the command, of every option, subcommand and group below it, and
    of every choice — each in that locale where it has a translation."""

    def local(node: dict[str, Any], key: str) -> str:
        return str((node.get(f"{key}_localizations") or {}).get(locale) or node.get(key) or "")

    total = len(local(payload, "name")) + len(local(payload, "description"))
    for choice in payload.get("choices", []):
        total += len(local(choice, "name")) + len(str(choice.get("value", "")))
    for option in payload.get("options", []):
        total += registration_size(option, locale)
    return total


@pytest.mark.parametrize("locale", sorted(DISCORD_LOCALES))
async def test_uno_stays_under_three_thousand_characters_in_every_language(
    tree: Any, locale: str
) -> None:
    translator = CatalogueTranslator()
    payloads = {
        c.name: await c.get_translated_payload(tree, translator) for c in tree.get_commands()
    }
    assert registration_size(payloads["uno"], locale) <= UNO_BUDGET
    assert registration_size(payloads["uno-admin"], locale) <= UNO_BUDGET
