"""The component registry and its custom_id grammar (DESIGN.md §6.7): round-trips, limits,
disjoint templates, uniqueness on every message — for every verb the registry lists."""

from __future__ import annotations

import re
from dataclasses import replace

import discord
import pytest

from cogs.uno._components import COMPONENT_TYPES, button, routed, select
from cogs.uno._editor import editor_payload
from cogs.uno._house import CONTROLS, PAGE_NAMES
from cogs.uno._messages import SELECT_PAGE, HandState, _hand_components, hand_payload
from cogs.uno._table_view import table_layout
from cogs.uno._verbs import (
    BY_NAME,
    SCHEME,
    VERBS,
    CustomId,
    Kind,
    actions_of,
    decode,
    template,
    verb_for,
)
from engine import CardFace, Play, Rules, classic_deck, parse_action
from engine.actions import CALL_UNO, CHALLENGE, DRAW, PASS, CatchUno, ChooseColour
from engine.cards import Colour
from tests.cogs.layouts import check_layout
from tests.tables.tables import act, lobby, stacked, started, user

LONGEST_TABLE = "z" * 13
SHORTEST_TABLE = "0"
LONGEST_VERSION = 999_999_999
DISCORD_LIMIT = 100

#: Every argument form of each verb that takes one (the registry's patterns must admit them).
ARGS: dict[str, tuple[str, ...]] = {
    "catch": tuple(str(seat) for seat in range(10)),
    "play": tuple(
        f"{face.notation}{uno}"
        for deck in (classic_deck(modern_deck=True), Rules.from_preset("flip").deck())
        for side in deck.sides
        for face in set(side)
        if not face.is_wild
        for uno in ("", "+uno")
    ),
    "colour": tuple(
        f"{wild}={c}{uno}"
        for wild in ("W", "W4", "WH", "W2", "WC", "WX")
        for c in "RYGBPTOV"
        for uno in ("", "+uno")
    ),
    "rule": CONTROLS,
    "ruleset": (*PAGE_NAMES, "reset"),
    "forget": ("yes", "no"),
    "giveto": ("R7", "YS", "GD2", "B0", "RR"),
    "choose": tuple("RYGBPTOV"),
    "page": tuple(str(page) for page in range(100)),
    "pick": tuple(str(page) for page in range(100)),
    "swap": tuple(f"WH={c}" for c in "RYGB"),
}
COMPILED = {
    "button": re.compile(template(Kind.BUTTON)),
    "select": re.compile(template(Kind.SELECT)),
}


def every_custom_id(
    tables: tuple[str, ...] = (SHORTEST_TABLE, "3k9z2m", LONGEST_TABLE),
    versions: tuple[int, ...] = (0, 57, LONGEST_VERSION),
) -> list[CustomId]:
    """Every verb of the registry with every argument form, at the extremes of table id and
    version."""
    ids = []
    for verb in VERBS:
        args: tuple[str | None, ...] = ARGS[verb.name] if verb.arg is not None else (None,)
        for table in tables:
            for version in versions if verb.versioned else (None,):
                ids += [CustomId(verb.name, table, version, arg) for arg in args]
    return ids


def matching(custom_id: str) -> list[str]:
    """The names of the kinds' templates that fullmatch ``custom_id``."""
    return [name for name, pattern in COMPILED.items() if pattern.fullmatch(custom_id)]


def routes(custom_id: str) -> dict[str, CustomId | None]:
    """Where a click on ``custom_id`` goes, clicked as a button and as a select."""
    return {
        kind.value: routed({"custom_id": custom_id, "component_type": COMPONENT_TYPES[kind]})[0]
        for kind in Kind
    }


def test_every_verb_with_an_argument_has_argument_forms_here() -> None:
    assert {v.name for v in VERBS if v.arg is not None} == set(ARGS)
    assert len(BY_NAME) == len(VERBS)  # unique names


@pytest.mark.parametrize("verb", [v.name for v in VERBS])
def test_decode_encode_round_trip(verb: str) -> None:
    ids = [cid for cid in every_custom_id() if cid.verb == verb]
    assert ids
    for cid in ids:
        text = cid.encode()
        assert text.startswith(f"{SCHEME}:{cid.verb}:{cid.table}")
        assert decode(text) == cid, text


def test_every_id_matches_exactly_one_template_its_own() -> None:
    for cid in every_custom_id():
        text = cid.encode()
        assert matching(text) == [BY_NAME[cid.verb].kind.value], text


def test_a_click_routes_to_its_verb_only_from_its_own_kind_of_component() -> None:
    for cid in every_custom_id():
        kind = BY_NAME[cid.verb].kind
        other = Kind.SELECT if kind is Kind.BUTTON else Kind.BUTTON
        assert routes(cid.encode()) == {kind.value: cid, other.value: None}


def test_a_select_click_carries_its_chosen_values() -> None:
    data = {"custom_id": "uno:1:pick:abc:5:0", "component_type": 3, "values": ["R7", "uno"]}
    assert routed(data) == (CustomId("pick", "abc", 5, "0"), ("R7", "uno"))
    assert routed({"custom_id": "uno:1:draw:abc:5", "component_type": 2})[1] == ()


@pytest.mark.parametrize(
    ("action", "verb", "arg"),
    [
        (DRAW, "draw", None),
        (PASS, "pass", None),
        (CALL_UNO, "uno", None),
        (CHALLENGE, "challenge", None),
        (CatchUno(3), "catch", "3"),
        (ChooseColour(Colour.GREEN), "choose", "G"),
        (Play(CardFace.parse("W4"), Colour.BLUE), "colour", "W4=B"),
    ],
    ids=str,
)
def test_every_button_action_is_written_into_its_id_and_read_back(
    action: object, verb: str, arg: str | None
) -> None:
    found = verb_for(action)  # type: ignore[arg-type]
    assert found is not None
    assert found.name == verb
    assert found.action is not None
    encoded = found.action.encode(action)  # type: ignore[arg-type]
    assert encoded == arg
    cid = CustomId(verb, "abc", 7, encoded)
    assert decode(cid.encode()) == cid
    assert actions_of(cid) == (action,)


def test_select_actions_travel_in_the_chosen_value() -> None:
    red7 = Play(CardFace.parse("R7"))
    assert verb_for(red7) is BY_NAME["pick"]
    assert actions_of(CustomId("pick", "abc", 7, "0"), ["R7"]) == (red7,)
    assert actions_of(CustomId("pick", "abc", 7, "0"), ["W4"]) == ()  # its colour comes next
    swap = Play(CardFace.parse("WH"), Colour.RED, 2)
    assert verb_for(swap) is BY_NAME["swap"]
    assert actions_of(CustomId("swap", "abc", 7, "WH=R"), ["2"]) == (swap,)
    assert actions_of(CustomId("swap", "abc", 7, "WH=R"), ["x"]) == ()
    assert actions_of(CustomId("colour", "abc", 7, "WH=R")) == ()  # the opponent comes next
    assert actions_of(CustomId("hand", "abc")) == ()  # not an action
    with pytest.raises(ValueError, match="Q9"):
        actions_of(CustomId("pick", "abc", 7, "0"), ["Q9"])  # never offered


def test_r_uno_1_a_play_and_its_uno_call_travel_together() -> None:
    red7 = Play(CardFace.parse("R7"))
    assert actions_of(CustomId("pick", "abc", 7, "0"), ["R7+uno"]) == (red7, CALL_UNO)
    assert actions_of(CustomId("pick", "abc", 7, "0"), ["W4+uno"]) == ()  # colour first
    wild = CustomId("colour", "abc", 7, "W4=B+uno")
    assert decode(wild.encode()) == wild
    assert actions_of(wild) == (Play(CardFace.parse("W4"), Colour.BLUE), CALL_UNO)


def test_the_builders_refuse_a_verb_of_another_kind_or_outside_the_grammar() -> None:
    with pytest.raises(ValueError, match="select"):
        button("pick", "abc", 1, "0", label="x")
    with pytest.raises(ValueError, match="button"):
        select("draw", "abc", 1, None, placeholder="x", options=[])
    with pytest.raises(ValueError, match="not a valid custom_id"):
        button("catch", "abc", 1, "12", label="x")
    with pytest.raises(KeyError):
        button("fly", "abc", 1, label="x")


def test_the_longest_possible_id_fits_discord_limit() -> None:
    longest = max(
        (cid.encode() for cid in every_custom_id((LONGEST_TABLE,), (LONGEST_VERSION,))), key=len
    )
    # The template itself bounds every part: 13-char table, 9-digit version, the argument.
    assert len(longest) == len(f"uno:1:colour:{LONGEST_TABLE}:{LONGEST_VERSION}:W4=R+uno")
    assert len(longest) <= DISCORD_LIMIT
    assert all(len(cid.encode()) <= DISCORD_LIMIT for cid in every_custom_id())


@pytest.mark.parametrize(
    "cid",
    [
        CustomId("hand", "abc", 5),  # a table verb takes no version
        CustomId("draw", "abc"),  # a turn verb needs one
        CustomId("draw", "abc", 5, "R7"),  # and no argument
        CustomId("catch", "abc", 5),  # an argument verb needs its argument
        CustomId("catch", "abc", 5, "W4=B"),
        CustomId("catch", "abc", 5, "10"),
        CustomId("colour", "abc", 5, "R7=B"),
        CustomId("swap", "abc", 5, "W4=B"),
        CustomId("choose", "abc", 5, "X"),
        CustomId("page", "abc", 5, "100"),
        CustomId("pick", "abc", 5, "-1"),
        CustomId("fly", "abc", 5),
        CustomId("hand", "ABC"),
        CustomId("hand", "a" * 14),
        CustomId("hand", ""),
        CustomId("draw", "abc", 1_000_000_000),
        CustomId("draw", "abc", -1),
    ],
    ids=repr,
)
def test_encode_refuses_an_id_outside_the_grammar(cid: CustomId) -> None:
    with pytest.raises(ValueError, match="not a valid custom_id"):
        cid.encode()


MALFORMED = [
    "uno:",
    "uno:1",
    "uno:1:",
    "uno:0:hand:abc",  # another scheme
    "uno:2:draw:abc:5",
    "uno:1:HAND:abc",  # bad verbs
    "uno:1:fly:abc",
    "uno:1::abc",
    "uno:1:catch:abc:5:W4=B",  # an argument of another verb
    "uno:1:catch:abc:5:R",
    "uno:1:catch:abc:5:10",
    "uno:1:colour:abc:5:3",
    "uno:1:colour:abc:5:R7=B",
    "uno:1:colour:abc:5:W4=X",
    "uno:1:colour:abc:5:W4",
    "uno:1:choose:abc:5:W=R",
    "uno:1:choose:abc:5:X",  # P is pink on the dark side of UNO Flip
    "uno:1:page:abc:5:R",
    "uno:1:page:abc:5:100",
    "uno:1:pick:abc:5:W4=B",
    "uno:1:swap:abc:5:W=B",
    "uno:1:swap:abc:5:3",
    "uno:1:hand:ABC",  # uppercase table
    "uno:1:hand:Abc",
    "uno:1:hand:ab-c",
    "uno:1:hand:" + "a" * 14,  # too long
    "uno:1:draw:abc:" + "1" * 10,
    "uno:1:draw:abc:-1",
    "uno:1:hand:abc:5",  # extra parts
    "uno:1:join:abc:5:R",
    "uno:1:draw:abc:5:R7",
    "uno:1:colour:abc:5:W=R:extra",
    "uno:1:catch:abc:5:3:4",
    "uno:1:hand:abc:",
    "uno:1:draw:abc",  # missing parts
    "uno:1:catch:abc:5",
    "uno:1:pick:abc:5",
    "uno:1:hand",
    "uno:1:hand:abc ",  # stray characters
    "uno:1:hand:abc\t",
    "uno:1:hand:abc\u00e9",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_a_malformed_id_decodes_to_none_and_routes_to_the_refusal(text: str) -> None:
    assert decode(text) is None
    assert matching(text) == []
    assert routes(text) == {"button": None, "select": None}


@pytest.mark.parametrize(
    "text", ["", "uno", "UNO:1:hand:abc", "xuno:1:hand:abc", "join:abc", "1:hand:abc"]
)
def test_an_id_that_is_not_ours_matches_nothing(text: str) -> None:
    assert decode(text) is None
    assert matching(text) == []
    assert routes(text) == {"button": None, "select": None}


def test_an_id_with_a_line_break_routes_to_the_refusal() -> None:
    # A line break can only reach us in an id the bot never made.
    for text in ("uno:1:hand:abc\n", "uno:1:hand:\nabc", "uno:\n"):
        assert decode(text) is None
        assert routes(text) == {"button": None, "select": None}, repr(text)


# -- uniqueness and limits on rendered messages ----------------------------------------------


def check_view(view: discord.ui.View) -> list[str]:
    """Discord's limits and ours on one message; returns the custom_ids."""
    children = list(view.walk_children())
    assert len(children) <= 25
    rows = view.to_components()
    assert len(rows) <= 5
    ids = []
    for row in rows:
        widths = [5 if c["type"] != 2 else 1 for c in row["components"]]
        assert sum(widths) <= 5
    for child in children:
        assert isinstance(child, discord.ui.Button | discord.ui.Select)
        text = child.custom_id
        assert text is not None
        ids.append(text)
        assert len(text) <= DISCORD_LIMIT
        name = "select" if isinstance(child, discord.ui.Select) else "button"
        assert matching(text) == [name], text
        assert decode(text) is not None
        if isinstance(child, discord.ui.Select):
            assert 1 <= len(child.options) <= SELECT_PAGE
            values = [o.value for o in child.options]
            assert len(set(values)) == len(values)
    assert len(set(ids)) == len(ids), ids
    return ids


async def test_lobby_table_message_ids_are_unique() -> None:
    table = lobby(3, table_id=LONGEST_TABLE)
    ids = check_layout((await table_layout(table)).view)  # type: ignore[arg-type]
    assert ids == [
        f"uno:1:{verb}:{LONGEST_TABLE}" for verb in ("join", "leave", "start", "addbot", "rules")
    ]
    for custom_id in ids:
        assert matching(custom_id) == ["button"]


async def test_a_lobby_with_teams_offers_the_team_select() -> None:
    table = lobby(4, table_id=LONGEST_TABLE, teams=2)
    payload = await table_layout(table)
    ids = check_layout(payload.view)  # type: ignore[arg-type]
    assert ids[-1] == f"uno:1:team:{LONGEST_TABLE}"
    selects = [c for c in payload.view.walk_children() if isinstance(c, discord.ui.Select)]
    options = selects[-1].options
    assert [o.value for o in options] == ["0", "1"]
    assert [o.label for o in options] == ["Team A", "Team B"]


@pytest.mark.parametrize("page", [*PAGE_NAMES, "reset"])
async def test_the_rules_editor_pages_stay_within_discord_limits(page: str) -> None:
    table = lobby(3, table_id=LONGEST_TABLE, jump_in=True, seven_swap=True)
    payload = editor_payload(table, page)
    ids = check_view(payload.view)
    pages = (*PAGE_NAMES, "reset")
    assert ids[-len(pages) :] == [f"uno:1:ruleset:{LONGEST_TABLE}:{p}" for p in pages]
    switches = payload.view.children[0]
    on = {o.value for o in switches.options if o.default}
    wanted = {"play": {"jump_in"}, "variants": {"seven_swap"}}
    if page in wanted or page == "reset":
        assert on == wanted.get(page, wanted["play"])


async def test_r_uno_1_two_cards_offer_each_play_with_its_uno_call() -> None:
    table = stacked([["R1", "W4"], ["Y3", "Y4"]], "R9")
    payload = await hand_payload(table, 0)
    ids = check_view(payload.view)
    v = table.version
    # One click plays a card and calls UNO; a wild, with its colour, too.
    assert ids[:5] == [
        f"uno:1:play:{table.id}:{v}:R1+uno",
        *(f"uno:1:colour:{table.id}:{v}:W4={c}+uno" for c in "RYGB"),
    ]
    labels = [getattr(c, "label", "") for c in payload.view.children]
    assert labels[0] == "Red 1 + UNO!"
    assert labels[1] == "Wild Draw Four → Red"
    colours = check_view((await hand_payload(table, 0, ui=HandState(wild="W4", uno=True))).view)
    assert colours[0] == f"uno:1:colour:{table.id}:{table.version}:W4=R+uno"


async def test_playing_table_message_has_the_show_hand_and_picture_buttons() -> None:
    table = started(4)
    ids = check_layout((await table_layout(table)).view)  # type: ignore[arg-type]
    assert ids == [f"uno:1:hand:{table.id}", f"uno:1:picture:{table.id}"]


async def test_a_closed_table_has_no_buttons_and_a_finished_one_offers_a_rematch() -> None:
    closed = lobby(2).end(by=user(0), is_admin=False, now=9.0).table
    assert check_layout((await table_layout(closed)).view) == []  # type: ignore[arg-type]
    finished = act(stacked([["R1"], ["B2"]], "R9", target=1), 0, "R1")
    assert finished.status == "finished"
    ids = check_layout((await table_layout(finished)).view)  # type: ignore[arg-type]
    assert ids == [f"uno:1:again:{finished.id}"]


def catch_window_table():
    """Seat 2 played down to one card without calling; seat 0 holds duplicates and wilds."""
    table = stacked(
        [
            ["R1", "R1", "R2", "W", "W", "W4", "W4", "G1", "G1", "B5"],
            ["Y3", "Y4", "Y5"],
            ["R3", "R4"],
        ],
        "R9",
        dealer=1,
    )
    table = act(table, 2, "R3")
    assert table.match is not None
    hand = table.match.hand
    assert (hand.current, hand.uno_seat, hand.uno_called) == (0, 2, False)
    return table


async def test_hand_with_duplicates_wilds_and_a_catch_window_has_unique_ids() -> None:
    table = catch_window_table()
    payload = await hand_payload(table, 0)
    ids = check_view(payload.view)
    v = table.version
    # One button per distinct face (R1 held twice: once), a wild one per colour.
    plays = [i for i in ids if ":play:" in i]
    wilds = [i for i in ids if ":colour:" in i]
    assert sorted(plays) == [f"uno:1:play:{table.id}:{v}:{n}" for n in ("R1", "R2")]
    assert sorted(wilds) == sorted(
        f"uno:1:colour:{table.id}:{v}:{w}={c}" for w in ("W", "W4") for c in "RYGB"
    )
    assert ids[-2:] == [f"uno:1:draw:{table.id}:{v}", f"uno:1:catch:{table.id}:{v}:2"]
    labels = {c.custom_id.rsplit(":", 1)[1]: c.label for c in payload.view.children}
    assert labels["R1"] == "Red 1 ×2"
    assert labels["W4=B"] == "Wild Draw Four → Blue"
    assert labels["R2"] == "Red 2"


async def test_the_other_players_hands_in_a_catch_window_have_unique_ids() -> None:
    table = catch_window_table()
    for seat in (1, 2):
        check_view((await hand_payload(table, seat)).view)


@pytest.mark.parametrize("wild", ["W", "W4", "WH"])
async def test_colour_step_of_a_wild_has_four_unique_ids(wild: str) -> None:
    table = catch_window_table()
    ids = check_view((await hand_payload(table, 0, ui=HandState(wild=wild))).view)
    assert ids == [f"uno:1:colour:{table.id}:{table.version}:{wild}={c}" for c in "RYGB"]


async def test_swap_step_lists_each_opponent_once() -> None:
    table = stacked([["WH", "R1"], ["Y3", "Y4"], ["B3", "B4"]], "R9", modern_deck=True)
    payload = await hand_payload(table, 0, ui=HandState(swap_colour="G"))
    ids = check_view(payload.view)
    assert ids == [f"uno:1:swap:{table.id}:{table.version}:WH=G"]
    select = payload.view.children[0]
    assert [o.value for o in select.options] == ["1", "2"]


async def test_start_wild_colour_choice_has_four_unique_ids() -> None:
    table = stacked([["R1", "R2"], ["Y3", "Y4"]], "W", dealer=1)
    ids = check_view((await hand_payload(table, 0)).view)
    assert ids == [f"uno:1:choose:{table.id}:{table.version}:{c}" for c in "RYGB"]


async def test_challenge_and_drawn_phases_have_unique_ids() -> None:
    table = stacked([["W4", "G1", "G2"], ["Y3", "Y4"], ["B3", "B4"]], "R9")
    challenged = act(table, 0, "W4=B")
    ids = check_view((await hand_payload(challenged, 1)).view)
    assert f"uno:1:challenge:{table.id}:{challenged.version}" in ids
    assert f"uno:1:draw:{table.id}:{challenged.version}" in ids
    drawn = act(stacked([["G1", "G2"], ["Y3", "Y4"]], "R9", ["R5"]), 0, "draw")
    ids = check_view((await hand_payload(drawn, 0)).view)
    assert ids == [
        f"uno:1:play:{drawn.id}:{drawn.version}:R5",
        f"uno:1:pass:{drawn.id}:{drawn.version}",
    ]


def sixty_cards() -> list[str]:
    deck = classic_deck(two_decks=True)
    faces = sorted({f.notation for f in deck.sides[0]})
    return (faces * 2)[:60]


async def test_a_sixty_card_hand_stays_within_discord_limits() -> None:
    hand = sixty_cards()
    table = stacked([hand, ["Y3", "Y4"]], "R9", two_decks=True)
    assert table.match is not None
    assert len(table.match.hand.hands[0]) == 60
    payload = await hand_payload(table, 0)
    ids = check_view(payload.view)
    assert ids[0] == f"uno:1:pick:{table.id}:{table.version}:0"
    assert payload.embed.description is not None
    assert len(payload.embed.description) <= 4096


async def test_more_than_one_page_of_playable_faces_gets_page_buttons() -> None:
    # No classic hand has more than 25 playable faces at once, so give the view more.
    table = stacked([sixty_cards(), ["Y3", "Y4"]], "R9", two_decks=True)
    assert table.match is not None
    view = table.match.hand.view_for(0)
    faces = sorted({face for _, face in view.hand}, key=lambda f: f.notation)
    plays = tuple(Play(f, Colour.RED if f.is_wild else None) for f in faces)
    wide = replace(view, legal=(*plays, *view.legal))
    assert len(faces) > 2 * SELECT_PAGE
    pages = []
    for page in range(3):
        components = _hand_components(table, wide, table.names(), HandState(page=page))
        ids = check_view(components)
        pages.append(ids)
        options = components.children[0].options
        assert len(options) <= SELECT_PAGE
    version = table.version
    assert f"uno:1:page:{table.id}:{version}:1" in pages[0]
    assert f"uno:1:page:{table.id}:{version}:0" in pages[1]
    assert f"uno:1:page:{table.id}:{version}:2" in pages[1]
    assert f"uno:1:page:{table.id}:{version}:1" in pages[2]
    # Every face is offered exactly once across the pages.
    offered = [
        o.value
        for page in range(3)
        for o in _hand_components(table, wide, table.names(), HandState(page=page))
        .children[0]
        .options
    ]
    assert sorted(offered) == sorted(f.notation for f in faces)
    beyond = _hand_components(table, wide, table.names(), HandState(page=99))
    assert beyond.children[0].custom_id == f"uno:1:pick:{table.id}:{version}:2"


def test_no_card_face_is_mistaken_for_a_page() -> None:
    for face in classic_deck(modern_deck=True).sides[0]:
        assert isinstance(face, CardFace)
        assert not re.fullmatch(r"[0-9]{1,2}", face.notation)


async def test_r_alt_2_the_spell_of_a_zero_asks_for_the_opponent() -> None:
    table = stacked([["R0", "G1", "B2"], ["Y3", "Y4"], ["B3", "B4", "B5"]], "R9", zero_spell="swap")
    played = act(table, 0, "R0")
    payload = await hand_payload(played, 0)
    ids = check_view(payload.view)
    assert ids == [f"uno:1:exchange:{table.id}:{played.version}"]
    options = payload.view.children[0].options
    assert [o.value for o in options] == ["1", "2"]
    assert options[0].label == "Bob — 2 cards"
    assert actions_of(decode(ids[0]), ["2"]) == (parse_action("swap@2"),)  # type: ignore[arg-type]


async def test_r_alt_4_a_skip_gives_a_card_in_two_steps() -> None:
    table = stacked(
        [["RS", "G1", "B2"], ["Y3", "Y4"], ["B3", "B4", "B5"]], "R9", skip_variant="give"
    )
    played = act(table, 0, "RS")
    v = played.version
    first = check_view((await hand_payload(played, 0)).view)
    assert first == [f"uno:1:give:{table.id}:{v}"]
    step = await hand_payload(played, 0, ui=HandState(give="G1"))
    second = check_view(step.view)
    assert second == [f"uno:1:giveto:{table.id}:{v}:G1"]
    assert [o.value for o in step.view.children[0].options] == ["1", "2"]
    assert actions_of(decode(second[0]), ["1"]) == (parse_action("give=G1@1"),)  # type: ignore[arg-type]


async def test_r_alt_5_a_partner_may_give_a_card_or_not() -> None:
    hands = [["Y1", "Y2"], ["B3", "R5", "G6"], ["B1", "B2"], ["G3", "G4"]]
    table = stacked(hands, "R9", teams=2, partner_gift=True)
    assert table.match is not None
    hand = table.match.hand
    assert hand.phase.value == "gift"  # seat 0 cannot play: seat 2, the partner, may give
    giver = hand.current
    ids = check_view((await hand_payload(table, giver)).view)
    assert ids == [
        f"uno:1:gift:{table.id}:{table.version}",
        f"uno:1:nogift:{table.id}:{table.version}",
    ]
