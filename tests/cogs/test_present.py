"""Words: card names, event sentences, refusals, rules help, and what the table never says."""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import cogs.uno
import tables
from cogs.uno._desk import notes_for
from cogs.uno._i18n import LANGUAGES, catalogue, speaking, t
from cogs.uno._messages import hand_payload
from cogs.uno._present import (
    card_name,
    colour_name,
    describe,
    error_text,
    rules_help,
    rules_summary,
)
from cogs.uno._table_view import table_layout
from engine import PRESETS, CardFace, Colour, Reason, Rules, classic_deck, parse_action
from engine import events as engine_events
from engine import match as engine_match
from engine import rules as engine_rules
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    DrawCause,
    DrawSkipped,
    Event,
    UnoCalled,
    UnoCaught,
)
from engine.match import HandScored, Match
from engine.simulate import random_step
from tables.records import TABLE_EVENT_TYPES, Reclaimed, is_public_record, records_from_data
from tables.table import Player, Table, TableError
from tests.cogs.layouts import layout_text
from tests.tables.tables import NAMES, act, stacked, user

ENGLISH = catalogue("en")
PACKAGES = (Path(cogs.uno.__file__).parent, Path(tables.__file__).parent)
PRIVATE = {"CardsReceived", "CardsDealt", "HandRevealed", "GivenCards"}


# -- card names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "name"),
    [
        ("R7", "Red 7"),
        ("Y0", "Yellow 0"),
        ("G9", "Green 9"),
        ("BS", "Blue Skip"),
        ("GR", "Green Reverse"),
        ("YD2", "Yellow Draw Two"),
        ("RD2", "Red Draw Two"),
        ("W", "Wild"),
        ("W4", "Wild Draw Four"),
        ("WH", "Swap Hands"),
    ],
)
def test_english_card_names(notation: str, name: str) -> None:
    assert card_name(notation) == name
    assert card_name(CardFace.parse(notation)) == name


def test_every_face_of_every_deck_has_a_distinct_name() -> None:
    faces = set(classic_deck(modern_deck=True).sides[0]) | set(
        classic_deck(two_decks=True).sides[0]
    )
    names = {face.notation: card_name(face) for face in faces}
    assert len(set(names.values())) == len(names)
    for name in names.values():
        assert "{" not in name
        assert name.strip() == name


def test_colour_names() -> None:
    assert [colour_name(c) for c in Colour] == ["Red", "Yellow", "Green", "Blue"]
    assert colour_name("B") == "Blue"


# -- event sentences --------------------------------------------------------------------------


NOISE = {"DealerDraw"}  # public, but too noisy for the table's log


def event_classes() -> set[type[Event]]:
    """Every event the engine defines (hand and match events)."""
    found: set[type[Event]] = set()
    for module in (engine_events, engine_match):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Event) and value is not Event:
                found.add(value)
    return found


def simulated_events() -> Iterator[tuple[int, Event]]:
    """Seeded random matches of every preset, some with a player leaving (R-TIME-2)."""
    for preset in PRESETS:
        for seed in range(4):
            players = 4 if preset == "tournament" else 2 + seed % 4
            rules = Rules.from_preset(preset, modern_deck=seed % 2 == 1)
            rnd = random.Random(seed)
            step = Match.new(rules, players, seed=seed)
            match = step.match
            yield from ((players, e) for e in step.events)
            steps = 0
            while not match.is_over and steps < 1500:
                if match.hand.is_over:
                    step = match.next_hand()
                elif steps == 30 and seed % 2 == 0:
                    step = match.remove_player(match.hand.current)
                else:
                    seat, action = random_step(match.hand, rnd)
                    step = match.apply(seat, action)
                match = step.match
                yield from ((players, e) for e in step.events)
                steps += 1


@pytest.fixture(scope="module")
def events() -> list[tuple[int, Event]]:
    """``(players, event)``; what random play rarely reaches (an empty pile) is added by hand."""
    sample = {"seat": 1, "seconds": 42}
    table_events = [
        (3, cls(**{name: sample[name] for name in cls.__slots__}))
        for cls in TABLE_EVENT_TYPES.values()
    ]
    # The alternative rules' events (R-ALT-2, R-ALT-4 to R-ALT-6), which the presets never
    # play: one of each, as the engine makes them.
    alternative = [
        (3, engine_events.HandsRotated(1, clockwise=True)),
        (3, engine_events.HandsRedealt(2)),
        (
            3,
            engine_events.CardsPutDown(
                0, (3, 9), (CardFace.parse("R3"), CardFace.parse("RS")), True
            ),
        ),
        *(
            (4, engine_events.CardsGiven(0, 2, 1 if cause.value != "take" else 2, cause))
            for cause in engine_events.GiveCause
        ),
        (4, engine_events.GivenCards(0, 2, (17,))),
        (3, engine_events.CardsDrawn(1, 3, engine_events.DrawCause.EFFECT)),
    ]
    return [*simulated_events(), (2, DrawSkipped(1)), *alternative, *table_events]


def test_the_events_cover_every_public_event_type(events: list[tuple[int, Event]]) -> None:
    seen = {type(e) for _, e in events}
    missing = {cls.__name__ for cls in event_classes() - seen}
    assert missing == set()


def test_private_events_never_become_records(events: list[tuple[int, Event]]) -> None:
    for _, event in events:
        if type(event).__name__ in PRIVATE:
            assert not is_public_record(event)
            assert event.audience is not None


def test_every_public_event_has_a_sentence(events: list[tuple[int, Event]]) -> None:
    described: set[str] = set()
    for players, event in events:
        names = list(NAMES[:players])
        kind = type(event).__name__
        if not is_public_record(event):
            assert kind in PRIVATE | NOISE
            continue
        sentence = describe(event, names)
        assert sentence is not None, event
        assert "{" not in sentence, sentence
        assert "}" not in sentence, sentence
        assert "None" not in sentence, sentence
        assert not re.search(r"#\d", sentence), sentence  # every seat got its name
        described.add(kind)
    public = {cls.__name__ for cls in event_classes()} - PRIVATE - NOISE
    assert described == public | set(TABLE_EVENT_TYPES)


def test_sentences_for_the_variants_of_an_event() -> None:
    names = ["Ann", "Bob", "Cid"]
    face = CardFace.parse
    assert describe(CardPlayed(0, 3, face("R7"), None), names) == "Ann played Red 7."
    assert (
        describe(CardPlayed(1, 104, face("W4"), Colour.BLUE), names)
        == "Bob played Wild Draw Four and chose Blue."
    )
    assert (
        describe(CardPlayed(2, 55, face("G3"), None, jump_in=True), names)
        == "Cid jumped in with Green 3!"
    )
    for cause, text in (
        (DrawCause.DRAW, "Ann drew 1 card."),
        (DrawCause.PENALTY, "Ann took +1."),
        (DrawCause.UNO, "Ann drew 1 for not calling UNO."),
        (DrawCause.FALSE_CALL, "Ann drew 1 for a false call."),
        (DrawCause.CHALLENGE, "Ann drew 1 after the challenge."),
    ):
        assert describe(CardsDrawn(0, 1, cause), names) == text
    assert describe(CardsDrawn(0, 3, DrawCause.DRAW), names) == "Ann drew 3 cards."
    guilty = ChallengeResolved(challenger=1, challenged=0, guilty=True)
    assert describe(guilty, names) == "Bob challenged Ann: guilty!"
    innocent = ChallengeResolved(challenger=1, challenged=0, guilty=False)
    assert describe(innocent, names) == "Bob challenged Ann: innocent."
    assert describe(UnoCalled(2, false_call=True), names) == (
        "Cid called UNO with more than one card."
    )
    assert describe(UnoCaught(0, 2), names) == "Ann caught Cid without UNO!"
    assert describe(UnoCaught(0, 2, false_catch=True), names) == "Ann wrongly accused Cid."
    scored = HandScored(number=1, winner=1, gains=(0, 37, 0), totals=(0, 37, 0))
    assert describe(scored, names) == "Bob scores 37."
    assert describe(Reclaimed(1), names) == "👋 Bob is back and plays their own seat again."


def test_a_stored_log_reads_back_into_the_same_sentences() -> None:
    """Tables saved before events were typed kept dicts without a schema: they still read."""
    old = [
        {"e": "CardPlayed", "seat": 0, "card": 3, "face": "R7", "colour": None, "jump_in": False},
        {"e": "TimedOut", "seat": 1},
        {"e": "LobbyExpired"},
    ]
    names = ["Ann", "Bob"]
    assert [describe(e, names) for e in records_from_data(old)] == [
        "Ann played Red 7.",
        "⏱ Bob ran out of time; the bot played for them.",
        "The lobby closed: nobody started the game within 15 minutes.",
    ]


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", list(Reason), ids=lambda r: r.value)
def test_every_engine_reason_has_a_sentence(reason: Reason) -> None:
    assert f"error.illegal.{reason.value}" in ENGLISH
    text = error_text(TableError("illegal", reason=reason.value, detail="x"))
    assert text == ENGLISH[f"error.illegal.{reason.value}"]
    assert "{" not in text


def table_error_raises() -> list[tuple[str, str, frozenset[str]]]:
    """``(module, code, keyword names)`` of every ``TableError(...)`` built in tables/ and
    cogs/uno."""
    found = []
    for path in sorted(p for package in PACKAGES for p in package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "TableError"):
                continue
            first = node.args[0]
            codes: list[str] = []
            if isinstance(first, ast.Constant):
                codes = [first.value]
            elif isinstance(first, ast.IfExp):  # "a" if ... else "b"
                codes = [first.body.value, first.orelse.value]  # type: ignore[attr-defined]
            assert codes, f"{path.name}:{node.lineno}: a TableError code must be a literal"
            keywords = frozenset(k.arg for k in node.keywords if k.arg)
            found += [(path.name, code, keywords) for code in codes]
    return found


def test_the_scan_finds_the_table_errors() -> None:
    codes = {code for _, code, _ in table_error_raises()}
    assert {"channel_busy", "bad_rules", "table_full", "illegal", "unknown_table"} <= codes
    assert len(codes) >= 15


@pytest.mark.parametrize(
    ("module", "code", "keywords"),
    table_error_raises(),
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_every_table_error_raised_has_a_sentence(
    module: str, code: str, keywords: frozenset[str]
) -> None:
    if code == "illegal":
        assert "reason" in keywords
        return
    if code == "bad_rules":  # the engine's reason: a rules_error sentence (tested below)
        assert "rule" in keywords
        return
    key = f"error.{code}"
    assert key in ENGLISH
    needed = {name for _, name, _, _ in string.Formatter().parse(ENGLISH[key]) if name}
    assert needed <= keywords, f"{module}: {code} needs {needed - keywords}"
    text = error_text(TableError(code, **dict.fromkeys(keywords, "7")))
    assert "{" not in text


def rules_error_raises() -> list[tuple[str, frozenset[str]]]:
    """``(code, parameter names)`` of every ``RulesError(...)`` the engine raises."""
    found = []
    source = (Path(engine_rules.__file__)).read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
            assert len(node.args) == 2, f"line {node.lineno}: a RulesError needs its code"
            code = node.args[1]
            assert isinstance(code, ast.Constant), node.lineno
            found.append((code.value, frozenset(k.arg for k in node.keywords if k.arg)))
    return found


def test_the_scan_finds_the_rules_errors() -> None:
    assert {"teams_uneven", "placement_needs_play_to_last", "unknown_preset"} <= {
        code for code, _ in rules_error_raises()
    }


def _case_id(value: object) -> str:
    """A test id that is the same in every process (a frozenset's order is not)."""
    if isinstance(value, frozenset):
        return "+".join(sorted(value)) or "no-params"
    return str(value)


@pytest.mark.parametrize(("code", "params"), rules_error_raises(), ids=_case_id)
def test_every_rules_error_is_said_in_both_languages(code: str, params: frozenset[str]) -> None:
    """Contradictory options are refused with the engine's reason, in the reader's words."""
    for language in LANGUAGES:
        messages = catalogue(language)
        key = f"rules_error.{code}"
        assert key in messages, (language, key)
        needed = {name for _, name, _, _ in string.Formatter().parse(messages[key]) if name}
        assert needed <= params, (language, code, needed - params)
        with speaking(language):
            text = error_text(TableError("bad_rules", rule=code, **dict.fromkeys(params, "7")))
            reason = t(f"rules_error.{code}", **dict.fromkeys(params, "7"))
            assert text == t("error.bad_rules", detail=reason)
        assert "{" not in text


def test_a_contradiction_is_refused_in_italian_with_the_reason() -> None:
    with pytest.raises(TableError) as excinfo:
        Table.open(
            table_id="x",
            guild_id=1,
            channel_id=2,
            host=Player(1, "Ann"),
            preset="classic",
            options={"scoring": "placement"},
            seed=1,
            now=0.0,
        )
    with speaking("it"):
        text = error_text(excinfo.value)
    assert text == (
        "Queste opzioni non vanno d'accordo: il punteggio per piazzamento ordina i giocatori "
        "secondo chi finisce prima, quindi si gioca fino all'ultima carta."
    )


def string_keys(function: str = "t") -> list[tuple[str, int, str]]:
    """Every literal ``t("key")`` (or ``t_plural("key", n)``) in cogs/uno."""
    found = []
    for path in sorted(p for package in PACKAGES for p in package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == function
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.append((path.name, node.lineno, node.args[0].value))
    return found


def test_every_literal_string_key_exists() -> None:
    keys = string_keys()
    assert len(keys) > 40
    missing = [f"{m}:{line} {key}" for m, line, key in keys if key not in ENGLISH]
    assert missing == []


def test_every_literal_plural_key_exists() -> None:
    # A plural message is a key per plural category; English has "one" and "other".
    keys = string_keys("t_plural")
    assert len(keys) >= 8
    missing = [
        f"{m}:{line} {key}"
        for m, line, key in keys
        if {f"{key}.one", f"{key}.other"} - set(ENGLISH)
    ]
    assert missing == []


def test_every_dynamic_string_key_exists() -> None:
    for verb in ("join", "leave", "start"):
        assert f"button.{verb}" in ENGLISH
    for status in ("lobby", "playing", "finished", "closed"):
        assert f"table.title.{status}" in ENGLISH
    for colour in Colour:
        assert f"colour.{colour.value}" in ENGLISH


def test_t_formats_and_refuses_unknown_keys() -> None:
    assert t("error.table_full", seats=4) == "The table is full (4 seats)."
    with pytest.raises(KeyError):
        t("no.such.key")


# -- rules help -------------------------------------------------------------------------------


def help_text(preset: str, **options: object) -> str:
    return "\n".join(rules_help(preset, Rules.from_preset(preset, **options)))


def test_rules_help_for_every_preset() -> None:
    for preset in PRESETS:
        lines = rules_help(preset, Rules.from_preset(preset))
        assert lines[0] == f"**{preset}**"
        assert all(line.strip() for line in lines)
        assert all("{" not in line for line in lines)
        assert len("\n\n".join(lines)) <= 4096  # one embed description
        assert lines[-1] == f"Scoring: {rules_summary(Rules.from_preset(preset))}."


def test_rules_help_describes_the_computer_levels() -> None:
    for preset in PRESETS:
        text = help_text(preset)
        for level in ("**easy**", "**normal**", "**hard**"):
            assert level in text
        assert "never challenges" in text
        assert "forgets to call UNO" in text


def test_r_act_6_party_help_mentions_stacking_and_jump_in() -> None:
    text = help_text("party")
    assert "Stacking (cumulative)" in text
    assert "Jump-in" in text
    assert "keep drawing until a playable card" in text
    assert "Stacking" not in help_text("classic")
    assert "Jump-in" not in help_text("classic")
    assert "Stacking (deflect)" in help_text("classic", stacking="deflect")


def test_r_uno_3_online_help_mentions_the_automatic_penalty_and_hidden_challenge() -> None:
    text = help_text("online")
    assert "you draw 2 automatically" in text
    assert "Nobody sees the challenged hand" in text
    classic = help_text("classic")
    assert "anyone may catch you" in classic
    assert "The challenged hand is shown to the challenger." in classic


def test_tournament_and_elimination_help() -> None:
    tournament = help_text("tournament")
    assert "play on until one is left" in tournament
    assert "placement points" in tournament
    assert "5 hands" in tournament
    assert "elimination, to 500" in help_text("elimination")
    assert "A bluffer also takes the card back." in help_text("classic", challenge_guilty="retract")
    assert "Your last card may not be" in help_text("classic", no_action_finish=True)


def test_rules_summary() -> None:
    assert rules_summary(Rules()) == "winner takes the points, to 500"
    assert (
        rules_summary(Rules.from_preset("online")) == "winner takes the points, to 500; 30s turns"
    )
    assert rules_summary(Rules.from_preset("party")) == (
        "winner takes the points, to 500; stacking: cumulative; jump-in"
    )


# -- hidden information -----------------------------------------------------------------------

# Hands share no card name with each other or with what is public (the start card R9 and the
# card played, R5), and no name is part of another ("Wild" would be part of "Wild Draw Four").
HANDS = [["R5", "G1", "G2", "Y3", "W"], ["B4", "B6", "Y7", "WH"], ["G8", "Y2", "B1"]]
PUBLIC = {"Red 9", "Red 5"}


def hidden_table() -> Table:
    table = stacked(HANDS, "R9", modern_deck=True)
    return act(table, 0, "R5")


def hand_names(table: Table, seat: int) -> set[str]:
    assert table.match is not None
    return {card_name(f) for f in table.match.hand.hand_faces(seat)}


def test_the_hidden_hands_share_no_names() -> None:
    table = hidden_table()
    names = [hand_names(table, seat) for seat in range(3)]
    every = set().union(*names)
    assert sum(len(n) for n in names) == len(every)
    assert not every & PUBLIC
    for one in every:
        assert not any(one in other for other in every | PUBLIC if other != one)


async def test_the_table_message_shows_no_card_of_any_hand() -> None:
    table = hidden_table()
    payload = await table_layout(table)
    texts = {
        "text": layout_text(payload.view),  # type: ignore[arg-type]
        "thumbnail": " ".join(
            str(c.description)
            for c in payload.view.walk_children()
            if isinstance(c, discord.ui.Thumbnail)
        ),
        "alt": payload.alt,
    }
    assert "Red 5" in texts["text"]  # the play is public and is shown
    for seat in range(3):
        for name in hand_names(table, seat):
            for where, text in texts.items():
                assert name not in text, f"{name} (seat {seat}) in the table {where}"


async def test_a_hand_message_shows_only_its_own_cards() -> None:
    table = hidden_table()
    for seat in range(3):
        payload = await hand_payload(table, seat)
        text = "\n".join(
            [payload.embed.description or "", payload.alt, payload.embed.title or ""]
            + [getattr(c, "label", "") or "" for c in payload.view.children]
        )
        for name in hand_names(table, seat):
            assert name in text
        for other in set(range(3)) - {seat}:
            for name in hand_names(table, other):
                assert name not in text, f"seat {other}'s {name} in seat {seat}'s hand"


async def test_r_chal_2_a_revealed_hand_reaches_only_the_challenger() -> None:
    table = stacked([["W4", "G1", "G2", "R3"], ["Y3", "Y4"], ["B3", "B4"]], "R9")
    table = act(table, 0, "W4=B")  # guilty: seat 0 holds a Red card
    change = table.act(user(1), parse_action("challenge"), now=200.0)
    challenger = notes_for(1, change, change.table)
    assert len(challenger) == 1
    prefix = "Ann's hand was: "
    assert challenger[0].startswith(prefix)
    assert sorted(challenger[0][len(prefix) :].split(", ")) == ["Green 1", "Green 2", "Red 3"]
    assert notes_for(2, change, change.table) == []
    drawn = notes_for(0, change, change.table)  # the bluffer's penalty cards, for them only
    assert len(drawn) == 1
    assert drawn[0].startswith("🂠 ")
    payload = await table_layout(change.table)
    text = layout_text(payload.view)  # type: ignore[arg-type]
    assert "Green 1" not in text
    assert "Bob challenged Ann: guilty!" in text
    for record in change.table.recent:
        assert type(record).__name__ not in PRIVATE


def test_drawn_cards_are_noted_only_for_the_drawer() -> None:
    table = stacked([["G1", "G2"], ["Y3", "Y4"]], "R9", ["B7"])
    change = table.act(user(0), parse_action("draw"), now=200.0)
    assert notes_for(0, change, change.table) == ["🂠 Blue 7"]
    assert notes_for(1, change, change.table) == []
