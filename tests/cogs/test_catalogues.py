"""The catalogue checks, for every language: every key, the same fields, plurals by the
language's own rule, every message within what Discord takes where it is shown, names valid
for Discord, and ``/uno`` and ``/uno-admin`` within Discord's size for a command — with a
margin. Adding a language adds it to every test here (README, "Languages")."""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import pytest_asyncio

from cogs.uno._house import HOUSE_RULES
from cogs.uno._i18n import (
    DISCORD_LOCALES,
    LANGUAGES,
    LOCALES,
    catalogue,
    plural_categories,
    speaking,
    t,
    t_plural,
)
from cogs.uno._present import card_name, colour_name, preset_name, rules_help
from engine import PRESETS, CardFace, Rules, classic_deck
from fakediscord.validate import COMMAND_CHARACTERS, check_commands, command_size
from renders.stats import LABEL_PX, LABEL_WIDTH
from renders.text import measure, shape
from tools.command_sizes import registration

ENGLISH = catalogue("en")
#: Grammatical forms a language may add to a key of English's (``own_form``): French names a
#: feminine card's colour in the feminine (``Inversion verte``).
FORMS = ("feminine",)
#: The field a grammatical form stands for.
FORM_FIELDS = {"colour_feminine": "colour"}
#: ``/uno`` and ``/uno-admin`` may use this share of Discord's 8,000 characters, at most: the
#: rest is room for commands and languages to come.
SIZE_BUDGET = 0.75


def plural_bases(keys: Any) -> set[str]:
    """The plural messages: a key per plural category (``count.cards.one``, ``.other``)."""
    return {key.rsplit(".", 1)[0] for key in keys if key.endswith(".other")}


PLURALS = plural_bases(ENGLISH)


def english_of(key: str) -> str:
    """The English a key translates (a plural form: English's ``other``; a grammatical form:
    its base key)."""
    base, _, last = key.rpartition(".")
    if base in PLURALS:
        return ENGLISH[f"{base}.other"]
    if last in FORMS:
        return ENGLISH[base]
    return ENGLISH[key]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def every_face() -> set[CardFace]:
    """Every face of every deck a preset (or the modern deck, or blank cards) plays with."""
    decks = [
        classic_deck(modern_deck=True, blank_cards=1),
        *(Rules.from_preset(p).deck() for p in PRESETS),
    ]
    return {face for deck in decks for side in deck.sides for face in side}


FACES = sorted(every_face(), key=lambda face: face.notation)
COLOURS = sorted({face.colour for face in FACES if face.colour is not None}, key=str)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalogue_names_a_key_twice(language: str) -> None:
    # Babel keeps one of two entries silently: a second msgid once hid a sentence.
    text = (LOCALES / language / "LC_MESSAGES" / "uno.po").read_text(encoding="utf-8")
    keys = Counter(re.findall(r'^msgid "(.+)"$', text, re.MULTILINE))
    assert [key for key, n in keys.items() if n > 1] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key(language: str) -> None:
    messages = catalogue(language)
    expected = {key for key in ENGLISH if key.rsplit(".", 1)[0] not in PLURALS}
    expected |= {f"{b}.{c}" for b in PLURALS for c in plural_categories(language)}
    forms = {
        key
        for key in messages
        if key.rsplit(".", 1)[1] in FORMS and key.rsplit(".", 1)[0] in ENGLISH
    }
    assert set(messages) - forms == expected
    assert all(text.strip() for text in messages.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_has_the_fields_of_its_english(language: str) -> None:
    for key, text in catalogue(language).items():
        own = {FORM_FIELDS.get(name, name) for name in fields(text)}
        assert own == fields(english_of(key)), (language, key, text)
        text.format(**dict.fromkeys(fields(text), "x"))  # no stray brace


@pytest.mark.parametrize(
    ("language", "count", "words"),
    [
        ("en", 0, "0 cards"),
        ("en", 1, "1 card"),
        ("de", 0, "0 Karten"),
        ("de", 1, "1 Karte"),
        ("es-ES", 1, "1 carta"),
        ("es-ES", 2, "2 cartas"),
        ("es-ES", 1_000_000, "1000000 de cartas"),
        ("fr", 0, "0 carte"),  # French counts 0 as one
        ("fr", 2, "2 cartes"),
        ("pt-BR", 0, "0 carta"),  # so does Brazilian Portuguese
        ("pt-BR", 5, "5 cartas"),
        ("it", 1, "1 carta"),
        ("it", 3, "3 carte"),
    ],
)
def test_plurals_follow_each_languages_own_rule(language: str, count: int, words: str) -> None:
    with speaking(language):
        assert t_plural("count.cards", count) == words


def test_every_plural_message_has_a_form_for_each_category_of_its_language() -> None:
    for language in LANGUAGES:
        messages = catalogue(language)
        for base in PLURALS:
            present = {k.rsplit(".", 1)[1] for k in messages if k.rsplit(".", 1)[0] == base}
            assert present == plural_categories(language), (language, base)


# -- Discord's limits where each message is shown -----------------------------------------------

#: Where a message is shown and the most characters Discord takes there; the first pattern
#: that matches a key wins. Command names and descriptions are checked on the registration
#: itself (below).
LIMITS = [
    (r"ping\.turn", 2000),  # a message, unlike the other ping.* (choices)
    (r"(button\..*|editor\.(play|match|variants|extras|reset)|forget\.(yes|no))", 80),
    (r"(colour\.[A-Z](\.feminine)?|card\..*)", 80),  # colour and card buttons
    (r"(select\..*|editor\.switches)", 150),  # select placeholders
    (r"(team\.name|select\.play_and_uno)", 100),  # select options
    (r"(level|sort|language|ping)\.[^.]+", 100),  # choice names (ping.turn: above)
    (
        r"(table\.title\..*|hand\.title|hand\.asleep\.title|rules\.(house_)?title"
        r"|(board|stats|tournament|editor)\.title|table\.(final_standings|hand_scoring))",
        256,
    ),  # embed titles
    (r"(table|hand|board)\.footer", 2048),
    (r".*", 2000),  # a message's content (embed descriptions take more)
]
#: Some fields are longer where one message is used (a tournament's name: 60).
LONGER = {"tournament.title": {"name": "T" * 60}, "rules.house_title": {"name": "H" * 40}}


def longest_values(language: str) -> dict[str, str]:
    """The longest value each field of a message may take in ``language``."""
    with speaking(language):
        card = max((card_name(face) for face in FACES), key=len) + " ×2"
        colour = max((colour_name(c) for c in COLOURS), key=len)
        feminine = max((colour_name(c, feminine=True) for c in COLOURS), key=len)
        preset = max([*(preset_name(p) for p in PRESETS), "P" * 40], key=len)
        sort = max((t(f"sort.{s}") for s in ("rating", "wins", "points", "games")), key=len)
        cards = max((t_plural("count.cards", n) for n in (0, 1, 2, 216)), key=len)
        players = max((t_plural("count.players", n) for n in (0, 1, 2, 999)), key=len)
    name = "N" * 32  # Discord display names have 32 characters at most
    return {
        "card": card,
        "colour": colour,
        "colour_feminine": feminine,
        "preset": preset,
        "sort": sort,
        "cards": cards,
        "players": players,
        "mention": "<@" + "9" * 20 + ">",
        "id": "z" * 13,
        "version": "9" * 10,
        "letter": "E",
        **dict.fromkeys(("count", "number", "page", "pages", "hand", "season", "seats"), "999"),
        **dict.fromkeys(("name", "seat", "target", "catcher", "winner", "dealer"), name),
    }


def limit_of(key: str) -> int:
    return next(limit for pattern, limit in LIMITS if re.fullmatch(pattern, key))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_fits_where_discord_shows_it(language: str) -> None:
    values = longest_values(language)
    for key, text in catalogue(language).items():
        if key.startswith(("cmd.", "opt.")):
            continue
        filled = {name: values.get(name, "x" * 100) for name in fields(text)}
        filled.update(LONGER.get(key, {}))
        shown = text.format(**filled)
        assert len(shown) <= limit_of(key), (language, key, len(shown), shown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_house_rules_fit_the_editor_and_the_slash_choices(language: str) -> None:
    """A rule's name is a select's placeholder (150) and starts each option: "name: choice"
    (100); a switch's name is an option (100); a choice is a slash choice's name (100)."""
    with speaking(language):
        for rule in HOUSE_RULES:
            assert len(rule.label) <= 100, (language, rule.key)
            for choice in rule.choices:
                option = f"{rule.label}: {rule.choice_label(choice)}"
                assert len(option) <= 100, (language, option)


def long_rules() -> Iterator[tuple[str, Rules]]:
    """Every preset, and a classic table with every house rule that adds a line of help."""
    for preset in PRESETS:
        yield preset, Rules.from_preset(preset)
    yield (
        "classic",
        Rules.from_preset(
            "classic",
            two_decks=True,
            max_players=20,
            zero_spell="discard_colour",
            seven_swap=True,
            skip_variant="give",
            partner_gift=True,
            teams=2,
            blank_cards=4,
            blank_effect="action_dump",
            time_limit=120,
            jump_in=True,
            turn_seconds=120,
        ),
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_explained_fit_one_embed(language: str) -> None:
    # /uno rules joins the lines into one embed description (4,096 characters).
    with speaking(language):
        for preset, rules in long_rules():
            text = "\n\n".join(rules_help(preset, rules))
            assert len(text) <= 4096, (language, preset, len(text))
            assert "{" not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_has_its_own_name(language: str) -> None:
    with speaking(language):
        names = {face.notation: card_name(face) for face in FACES}
    assert len(set(names.values())) == len(names), names
    assert all(name == name.strip() and "{" not in name for name in names.values())


def test_a_typed_card_name_means_one_card_in_every_language() -> None:
    # /uno play takes a card's name in any of our languages: no name may mean two cards.
    meant: dict[str, set[str]] = {}
    for language in LANGUAGES:
        with speaking(language):
            for face in FACES:
                meant.setdefault(card_name(face).lower(), set()).add(face.notation)
            for colour in COLOURS:
                meant.setdefault(colour_name(colour).lower(), set()).add(colour.value)
    assert {name: m for name, m in meant.items() if len(m) > 1} == {}


def command_names(language: str) -> tuple[dict[tuple[str, ...], str], dict[str, str]]:
    """A language's command names: path (``("uno", "new")``) → name; and option names,
    ``"uno new preset"`` → name."""
    messages = catalogue(language)
    commands = {
        tuple(key.split(".")[1:]): text
        for key, text in messages.items()
        if key.startswith("cmd.") and not key.endswith(".desc")
    }
    options = {
        " ".join(key.split(".")[1:]): text
        for key, text in messages.items()
        if key.startswith("opt.") and not key.endswith(".desc")
    }
    return commands, options


@pytest.mark.parametrize("language", LANGUAGES)
def test_commands_named_in_messages_are_the_ones_discord_shows_that_reader(
    language: str,
) -> None:
    """ "Open one with `/uno new`" names the command as the reader's Discord shows it: its
    subcommand and option names in the reader's language (an option's value stays a value)."""
    commands, options = command_names(language)
    mentioned = 0
    for key, text in catalogue(language).items():
        for found in re.finditer(r"/(uno-admin|uno)\b((?: [^\s`]+)*)", text):
            path: tuple[str, ...] = (found.group(1),)
            words = [word.rstrip(').,;!?»“”"') for word in found.group(2).split()]
            while words:  # the (sub)command, as long as the words name one
                child = next(
                    (p for p, n in commands.items() if p[:-1] == path and n == words[0]), None
                )
                if child is None:
                    break
                path, words = child, words[1:]
            assert len(path) > 1, (language, key, found.group(0))
            for word in words:
                if ":" not in word:
                    break  # the sentence goes on
                name = word.split(":", 1)[0]
                local = {options[o] for o in options if o.startswith(" ".join(path) + " ")}
                assert name in local, (language, key, found.group(0))
            mentioned += 1
    assert mentioned >= 10


#: The words the pictures draw (renders/ draws only what the cogs give it).
PICTURE_WORDS = (
    "board.rank",
    "board.name",
    "board.col.rating",
    "board.col.wins",
    "board.col.points",
    "board.col.games",
    "tournament.team",
    "tournament.points",
    "tournament.games",
    "table.final_standings",
    "table.col.hand",
    "table.col.total",
)
STATS_LABELS = (
    "stats.matches",
    "stats.win_rate",
    "stats.hands",
    "stats.points",
    "stats.rating",
    "stats.uno_calls",
    "stats.catches",
    "stats.challenges",
    "stats.cards_drawn",
    "stats.streak",
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pictures_words_are_drawn_whole(language: str) -> None:
    messages = catalogue(language)
    for key in (*PICTURE_WORDS, *STATS_LABELS, "stats.card_title", "table.hand_scoring"):
        assert shape(messages[key], LABEL_PX).missing == (), (language, key)
    for key in STATS_LABELS:  # a stats tile's label is cut beyond its width
        assert measure(messages[key], LABEL_PX) <= LABEL_WIDTH, (language, messages[key])


# -- the slash commands' localisations ------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def payloads() -> Any:
    """The registration discord.py sends: both commands, translated into every locale (as
    tools/command_sizes.py reads it)."""
    return await registration()


def valid_name(name: str) -> bool:
    """Discord's rule for a chat command's or option's name: 1 to 32 of ``-``, ``_``, letters
    and digits (``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``), in lower case."""
    allowed = all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    return 1 <= len(name) <= 32 and allowed and name == name.lower()


def walk(options: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Every list of sibling options, subcommands and groups, depth first."""
    yield options
    for option in options:
        yield from walk(option.get("options") or [])


TRANSLATED = sorted(code for code, language in DISCORD_LOCALES.items() if language != "en")


@pytest.mark.parametrize("locale", TRANSLATED)
async def test_every_command_option_and_choice_speaks_each_locale(
    payloads: Any, locale: str
) -> None:
    for siblings in walk(payloads):
        names = []
        for node in siblings:
            name = node["name_localizations"][locale]
            assert valid_name(name), (locale, name)
            assert 1 <= len(node["description_localizations"][locale]) <= 100
            for choice in node.get("choices") or []:
                assert 1 <= len(choice["name_localizations"][locale]) <= 100
            names.append(name)
        assert len(set(names)) == len(names), (locale, names)  # siblings apart


def test_the_registration_conforms_to_discord(payloads: Any) -> None:
    assert check_commands(payloads) == []


def test_latin_american_spanish_reads_spains(payloads: Any) -> None:
    for siblings in walk(payloads):
        for node in siblings:
            for field in ("name_localizations", "description_localizations"):
                assert node[field]["es-419"] == node[field]["es-ES"]


def test_each_command_stays_within_discords_size_with_a_margin(
    payloads: Any, record_property: Any
) -> None:
    # Discord counts every name, description and value at its longest localization; the
    # sizes are in the JUnit report, and tools/command_sizes.py prints them.
    sizes = {payload["name"]: command_size(payload) for payload in payloads}
    assert set(sizes) == {"uno", "uno-admin"}
    for name, size in sizes.items():
        record_property(f"{name}_characters", size)
        assert size <= COMMAND_CHARACTERS * SIZE_BUDGET, (name, size)
