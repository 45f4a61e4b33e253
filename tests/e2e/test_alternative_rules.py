"""End to end: the rulebooks' alternative rules (RULES.md §13) at a real table — a timed match
with the 0 as a spell, the Skip that gives and four blank cards (R-ALT-1, R-ALT-2, R-ALT-4,
R-ALT-6, R-DECK-5), a pairs match with a partner's gift (R-ALT-5), and a server's house
preset saved, explained, used and forgotten."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from engine.cards import Kind
from engine.events import CardsGiven, GiveCause, HandEnded, HandsSwapped, Termination
from engine.state import Phase
from fakediscord.commands import CommandError
from playtest.harness import (
    World,
    caught_up,
    choose,
    click,
    description,
    find_id,
    load,
    make_world,
    select_values,
    slash,
    stack,
    table_id_of,
    table_message,
    wait_for_table,
    write_behind,
)
from tables import Table


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """Computer players that think for 50 ms."""
    async with make_world(tmp_path, {"COMPUTER_PAUSE_SECONDS": "0.05"}) as made:
        yield made


def turn_of(seat: int, phase: Phase = Phase.PLAY) -> Callable[[Table], bool]:
    def ready(table: Table) -> bool:
        hand = table.match.hand if table.match is not None else None
        return hand is not None and hand.current == seat and hand.phase is phase

    return ready


async def set_rules(world: World, user: Any, table_id: str, choices: dict[str, str]) -> Any:
    """The host sets house rules in the lobby's editor, page by page."""
    editor = (await click(world, user, table_message(world), f"uno:1:rules:{table_id}")).message
    for control, value in choices.items():
        page = "variants" if control in ("zero_spell", "skip_variant", "on-variants") else "extras"
        shown = await click(world, user, editor, f"uno:1:ruleset:{table_id}:{page}")
        editor = shown.message
        editor = (
            await choose(world, user, editor, f"uno:1:rule:{table_id}:{control}", value)
        ).message
    return editor


async def move_match_clock(world: World, table_id: str, ends_in: float) -> None:
    """As if the match had run for most of its time: it ends ``ends_in`` seconds from now (the
    next saved move arms the bot's clock for it, as every move does)."""

    def moved(table: Table) -> Table:
        started = world.fake.clock.now() + ends_in - table.rules.time_limit * 60
        return dataclasses.replace(table, started_at=started)

    await write_behind(world, table_id, moved)


async def test_r_alt_1_r_alt_2_r_alt_4_r_alt_6_a_timed_match_of_spells_gifts_and_blanks(
    world: World,
) -> None:
    await slash(world, world.alice, "uno new")
    table_id = table_id_of(world)
    await slash(world, world.bruno, "uno join")
    await slash(world, world.alice, "uno addbot", level="normal")
    editor = await set_rules(
        world,
        world.alice,
        table_id,
        {
            "zero_spell": "swap",
            "skip_variant": "give",
            "blank_cards": "4",
            "blank_effect": "take_two",
            "time_limit": "15",
        },
    )
    assert "Changed from the preset:" in description(editor)
    table = await load(world, table_id)
    assert dict(table.options) == {
        "zero_spell": "swap",
        "skip_variant": "give",
        "blank_cards": 4,
        "blank_effect": "take_two",
        "time_limit": 15,
    }
    # R-DECK-5: the deck holds four blank cards.
    assert sum(face.kind is Kind.BLANK for face in table.rules.deck().sides[0]) == 4
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    table = await load(world, table_id)
    assert table.started_at is not None
    ends = int(table.started_at + 15 * 60)
    await caught_up(world)
    assert f"The match ends <t:{ends}:R>" in description(table_message(world))

    await stack(
        world,
        table_id,
        [
            ["R0", "RS", "WX", "G5", "B1"],
            ["Y2", "B7", "G6", "Y9", "R3"],
            ["R7", "G2", "G3"],
        ],
        "R9",
        ["B2", "B3", "B4", "B6", "B8", "G1", "G4", "G7", "Y1", "Y3"],
        dealer=2,
    )
    # R-ALT-2: Alice's 0 asks whom to swap hands with; she picks Bruno.
    played = await slash(world, world.alice, "uno play", card="R0")
    exchange = find_id(played.message, f"uno:1:exchange:{table_id}:")
    assert select_values(played.message, "uno:1:exchange") == ["1", "2"]
    await choose(world, world.alice, played.message, exchange, "1")
    table = await load(world, table_id)
    assert table.match is not None
    hand = table.match.hand
    assert [len(cards) for cards in hand.hands] == [5, 4, 3]
    assert any(isinstance(e, HandsSwapped) and (e.seat, e.target) == (0, 1) for e in table.recent)
    await caught_up(world)
    assert "alice swapped hands with bruno." in description(table_message(world))

    # R-ALT-4: Bruno's Skip does not skip: he gives a card of his choice to an opponent.
    played = await slash(world, world.bruno, "uno play", card="RS")
    give = find_id(played.message, f"uno:1:give:{table_id}:")
    assert sorted(select_values(played.message, "uno:1:give")) == ["B1", "G5", "WX"]
    to_whom = (await choose(world, world.bruno, played.message, give, "G5")).message
    giveto = find_id(to_whom, f"uno:1:giveto:{table_id}:")
    assert select_values(to_whom, "uno:1:giveto") == ["0", "2"]
    await choose(world, world.bruno, to_whom, giveto, "2")
    table = await load(world, table_id)
    given = [e for e in table.recent if isinstance(e, CardsGiven)]
    assert given
    assert (given[-1].cause, given[-1].seat, given[-1].target) == (GiveCause.GIVE, 1, 2)
    await caught_up(world)
    public = description(table_message(world))
    assert "bruno gave 1 card to" in public
    assert "Green 5" not in public  # which card went is the two players' business

    # The computer plays on (its only red is the 7); Alice follows with her Red 3.
    table = await wait_for_table(world, table_id, turn_of(0), "Alice's turn")
    await slash(world, world.alice, "uno play", card="R3")
    table = await wait_for_table(world, table_id, turn_of(1), "Bruno's turn")
    # R-ALT-1: the match's time is nearly up (as if fifteen minutes had passed).
    await move_match_clock(world, table_id, ends_in=4.0)
    # R-ALT-6 take_two: Bruno's blank card is a wild; then he takes two cards from the
    # opponent who holds the most (Alice, four cards against the computer's three).
    before = await load(world, table_id)
    assert before.match is not None
    assert [len(cards) for cards in before.match.hand.hands] == [4, 2, 3]
    await slash(world, world.bruno, "uno play", card="WX", colour="B")
    table = await load(world, table_id)
    assert table.match is not None
    took = [e for e in table.recent if isinstance(e, CardsGiven) and e.cause is GiveCause.TAKE]
    assert [(e.seat, e.target, e.count) for e in took] == [(0, 1, 2)]
    assert table.match.hand.colour is not None
    assert table.match.hand.colour.value == "B"

    # Time runs out: the hand ends at once, won by the fewest cards, and the match with it.
    table = await wait_for_table(
        world, table_id, lambda t: t.status == "finished", "the match's time to run out"
    )
    assert table.match is not None
    ended = [e for e in table.recent if isinstance(e, HandEnded)]
    assert ended
    assert ended[-1].termination is Termination.TIME_LIMIT
    counts = [len(cards) for cards in table.match.hand.hands]
    assert counts[ended[-1].ranking[0]] == min(counts)
    assert table.match.ranking
    await caught_up(world)
    public = description(table_message(world))
    assert "Time's up: the match is over" in public
    assert "The match ends" not in public


async def test_r_alt_5_a_pairs_match_where_partners_give_each_other_a_card(world: World) -> None:
    await slash(world, world.alice, "uno new", teams="2", hands=1)
    table_id = table_id_of(world)
    await slash(world, world.bruno, "uno join")
    for _ in range(2):
        await slash(world, world.alice, "uno addbot", level="normal")
    for user in (world.alice, world.bruno):
        await choose(world, user, table_message(world), f"uno:1:team:{table_id}", "0")
    await set_rules(world, world.alice, table_id, {"on-variants": "partner_gift"})
    table = await load(world, table_id)
    assert table.rules.partner_gift
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    table = await load(world, table_id)
    assert [p.name for p in table.players][::2] == ["alice", "bruno"]
    await stack(
        world,
        table_id,
        [["R1", "R5", "G7", "Y5"], ["R2", "G3", "G6"], ["Y9"], ["B3", "B4", "B5", "Y8"]],
        "R9",
        ["B1", "B2", "B6", "B7", "B8", "B9", "G2", "G4", "G6", "G8"],
        dealer=3,
    )
    await slash(world, world.alice, "uno play", card="R1")
    # The computer plays its Red 2; Bruno's Yellow 9 cannot follow, so his partner Alice is
    # asked for a gift before he draws.
    await wait_for_table(world, table_id, turn_of(0, Phase.GIFT), "Alice's gift")
    hand = (await slash(world, world.alice, "uno hand")).message
    assert "Your partner bruno cannot play: give them a card, or not." in description(hand)
    assert sorted(select_values(hand, "uno:1:gift")) == ["G7", "R5", "Y5"]
    await choose(world, world.alice, hand, find_id(hand, f"uno:1:gift:{table_id}:"), "R5")
    table = await load(world, table_id)
    assert table.match is not None
    gifts = [e for e in table.recent if isinstance(e, CardsGiven)]
    assert [(e.cause, e.seat, e.target) for e in gifts] == [(GiveCause.GIFT, 0, 2)]
    assert table.match.hand.current == 2
    await caught_up(world)
    public = description(table_message(world))
    assert "alice gave their partner bruno a card." in public
    assert "Red 5" not in public  # only the partners know which card
    # Bruno plays the gift (and calls UNO); the computer team's turn comes round.
    await slash(world, world.bruno, "uno play", card="R5", uno=True)
    await wait_for_table(world, table_id, turn_of(0), "Alice's turn")
    await slash(world, world.alice, "uno play", card="Y5", uno=True)
    # The computer at seat 1 cannot follow the Yellow 5; its partner gives it the one card
    # it can play (the Yellow 8), which it plays; Bruno's Yellow 9 then goes out.
    await wait_for_table(world, table_id, turn_of(2), "Bruno's last turn")
    table = await load(world, table_id)
    gifts = [e for e in table.recent if isinstance(e, CardsGiven)]
    assert (GiveCause.GIFT, 3, 1) in [(e.cause, e.seat, e.target) for e in gifts]
    await slash(world, world.bruno, "uno play", card="Y9")
    table = await wait_for_table(world, table_id, lambda t: t.status == "finished", "the end")
    assert table.match is not None
    assert table.match.team_scores()[0] > 0  # the team of Alice and Bruno won the hand


async def test_a_house_preset_is_saved_explained_used_and_forgotten(world: World) -> None:
    await slash(world, world.dario, "uno new")
    table_id = table_id_of(world)
    await set_rules(
        world, world.dario, table_id, {"zero_spell": "swap", "blank_cards": "2", "time_limit": "30"}
    )
    # Only a server manager may keep a preset (Discord's client hides /uno-admin from others).
    with pytest.raises(CommandError, match="permissions"):
        await slash(world, world.alice, "uno-admin preset save", name="Venerdì")
    saved = await slash(world, world.dario, "uno-admin preset save", name="Venerdì")
    assert saved.message.content.startswith("Saved the house preset **Venerdì**: classic with")
    # A built-in preset's name is taken.
    taken = await slash(world, world.dario, "uno-admin preset save", name="classic")
    assert "built-in preset" in taken.message.content
    await slash(world, world.dario, "uno-admin end")
    # /uno new preset: offers the server's presets beside the built-in ones.
    offered = await world.fake.autocomplete(
        world.alice, world.channel, "uno new", focused="preset", preset="ven"
    )
    assert offered.values == ["Venerdì"]
    # /uno rules preset: offers them too (one autocomplete serves both commands).
    for_rules = await world.fake.autocomplete(
        world.alice, world.channel, "uno rules", focused="preset", preset="ven"
    )
    assert for_rules.values == ["Venerdì"]
    everything = await world.fake.autocomplete(
        world.alice, world.channel, "uno new", focused="preset", preset=""
    )
    assert "classic" in everything.values
    assert "Venerdì" in everything.values
    explained = await slash(world, world.alice, "uno rules", preset="Venerdì")
    assert "House preset Venerdì (classic)" in str(explained.message.embeds[0]["title"])
    await slash(world, world.alice, "uno new", preset="venerdì")  # any case
    table = await load(world, table_id_of(world))
    assert table.preset == "classic"
    assert dict(table.options) == {"zero_spell": "swap", "blank_cards": 2, "time_limit": 30}
    assert table.host_id == world.alice.id
    # Forgotten, it opens nothing, and says so politely.
    await slash(world, world.dario, "uno-admin end")
    forgot = await slash(world, world.dario, "uno-admin preset delete", name="Venerdì")
    assert "Forgot the house preset **Venerdì**." in forgot.message.content
    again = await slash(world, world.bruno, "uno new", preset="Venerdì")
    assert again.ephemeral
    assert "Venerdì" in again.message.content
