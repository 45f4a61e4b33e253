"""End to end: ``/uno settings``, a player's own settings (issue 28, point 3).

Each player chooses, for every server at once, when their turn pings them, the language of
the answers only they see, and whether their hand comes as a picture. The real bot runs
against the fake Discord; the waits of turn pings are read from the fake clock.
"""

from __future__ import annotations

from typing import Any

from playtest.harness import (
    World,
    click,
    custom_ids,
    description,
    find_id,
    is_hand,
    load,
    open_table,
    play_card,
    slash,
    stack,
    table_message,
    title,
    wait_for_table,
    world,
)
from storage import GameRepository, PlayerSettings

from .test_hostile_input import option, slash_forger

__all__ = ["world"]

#: The default wait before a ping (``cogs.uno._replies.DEFAULT_TURN_PING``): longer waits with
#: no ping prove a player's "never".
PAST_THE_DEFAULT = 40


async def stored_settings(world: World, user: Any) -> PlayerSettings:
    repo = await GameRepository.open(str(world.database))
    try:
        return await repo.player_settings.get(user.id)
    finally:
        await repo.close()


async def turn_of(world: World, table_id: str, seat: int) -> Any:
    """The stored table once it is ``seat``'s turn (a computer's pause passes on the clock)."""
    await world.fake.pass_time(2)
    return await wait_for_table(
        world,
        table_id,
        lambda t: t.match is not None and t.match.hand.current == seat,
        f"seat {seat}'s turn",
    )


def pings_of(world: World, user: Any) -> list[Any]:
    return world.fake.notifications(user)


def pings_since(world: World, user: Any, moment: float) -> list[Any]:
    """The user's pings posted at ``moment`` or later (fake clock)."""
    return [m for m in pings_of(world, user) if m.history[0].at >= moment]


async def test_settings_with_no_option_show_the_defaults_then_what_was_chosen(
    world: World,
) -> None:
    shown = await slash(world, world.alice, "uno settings")
    assert shown.ephemeral
    assert shown.message.content.splitlines() == [
        "Your settings, the same on every server:",
        "🔔 Turn alerts: after the server's delay (default)",
        "🌐 Language of your private answers: Discord's (default)",
        "🖼️ Hand picture: on (default)",
    ]
    saved = await slash(world, world.alice, "uno settings", alerts="never", hand_picture="off")
    assert saved.message.content.splitlines()[0].startswith("✅ Saved.")
    again = await slash(world, world.alice, "uno settings")
    assert again.message.content.splitlines()[1:] == [
        "🔔 Turn alerts: never",
        "🌐 Language of your private answers: Discord's (default)",
        "🖼️ Hand picture: off: text and emojis",
    ]
    assert await stored_settings(world, world.alice) == PlayerSettings(
        alerts="never", hand_picture=False
    )
    assert await stored_settings(world, world.bruno) == PlayerSettings()  # only hers
    # One option at a time: the others stay as they were.
    await slash(world, world.alice, "uno settings", alerts="delay")
    assert await stored_settings(world, world.alice) == PlayerSettings(hand_picture=False)


async def test_alerts_at_once_ping_at_once_never_never_and_a_quiet_server_stays_quiet(
    world: World,
) -> None:
    """Bruno chose never: his turn passes the server's 25 s and no ping comes. Alice chose at
    once: her ping comes the moment her turn begins (no time passes on the fake clock). Once
    the server turns pings off, Alice's "at once" is not pinged either."""
    await slash(world, world.alice, "uno settings", alerts="now")
    await slash(world, world.bruno, "uno settings", alerts="never")
    await slash(world, world.alice, "uno new")
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    await slash(world, world.bruno, "uno join")
    await slash(world, world.alice, "uno addbot", level="easy")
    await slash(world, world.alice, "uno start")
    hands = [["R1", "R2", "B9"], ["R3", "R4", "G5"], ["R6", "Y7", "G8"]]
    # Bruno, the computer, Alice; the computer's draw later is a card it cannot play.
    await stack(world, table_id, hands, "R5", ["B1", "B2"], dealer=0)
    brunos = await load(world, table_id)
    assert brunos.match is not None
    assert brunos.match.hand.current == 1
    # The deal before the stacked one may have begun with Alice's turn, and her ping: only
    # the pings posted from a moment on count.
    await world.fake.pass_time(PAST_THE_DEFAULT)
    await slash(world, world.bruno, "uno play", card="R3")
    began = await turn_of(world, table_id, 0)
    await world.fake.wait_for(
        lambda: pings_since(world, world.alice, began.updated_at), what="Alice's ping"
    )
    [ping] = pings_since(world, world.alice, began.updated_at)
    assert ping.notified == [world.alice.id]
    assert ping.history[0].at - began.updated_at < 1.0  # at once, on the fake clock
    assert pings_of(world, world.bruno) == []  # his turn passed the server's 25 s
    await slash(world, world.alice, "uno play", card="R1")
    await world.fake.wait_for(lambda: ping.deleted, what="the ping going away")
    # The server turns pings off: nobody is pinged, whatever they chose.
    await slash(world, world.dario, "uno-admin settings", turn_ping=-1)
    quiet = world.fake.clock.now()
    # Bruno calls UNO: nobody may catch him, so the computer draws the stacked B1, which it
    # cannot play, and the turn comes to Alice (a catch would give Bruno B1 and B2, and the
    # computer a random card that could skip her).
    await slash(world, world.bruno, "uno play", card="R4", uno=True)
    await turn_of(world, table_id, 0)
    await world.fake.pass_time(PAST_THE_DEFAULT)
    await slash(world, world.alice, "uno hand")  # one more round trip through the bot
    assert pings_since(world, world.alice, quiet) == []
    assert pings_of(world, world.bruno) == []


async def test_a_hand_without_its_picture_uploads_nothing_and_plays_by_its_buttons(
    world: World,
) -> None:
    await slash(world, world.alice, "uno settings", hand_picture="off")
    table_id = await open_table(world)
    await stack(world, table_id, [["R1", "R2", "B9"], ["B3", "B4"], ["Y5", "Y6"]], "R9", dealer=2)
    shown = await slash(world, world.alice, "uno hand")
    hand = shown.message
    assert is_hand(hand)
    text = description(hand)
    assert "Red 1" in text
    assert "Red 2" in text
    assert "Blue 9" in text
    assert not any(embed.get("image") for embed in hand.embeds)
    played = await play_card(world, world.alice, hand, "R1")
    assert "Next: bruno" in played.all_text()
    after = await load(world, table_id)
    assert after.match is not None
    assert after.match.hand.current == 1
    versions = [v for v in hand.history if v.shown and is_hand(v)]
    assert len(versions) >= 2
    assert all(v.attachments == [] for v in versions)
    assert all(not e.get("image") for v in versions for e in v.embeds)
    assert any(c.startswith(f"uno:1:play:{table_id}:") for c in custom_ids(versions[0]))
    # Bruno keeps the default: his hand is a picture.
    brunos = await slash(world, world.bruno, "uno hand")
    assert [a.filename for a in brunos.message.attachments] == ["hand.png"]


async def test_a_chosen_language_wins_over_discords_for_private_answers_only(
    world: World,
) -> None:
    world.bruno.locale = "it"  # Bruno's Discord speaks Italian; he reads German
    chosen = await slash(world, world.bruno, "uno impostazioni", lingua="de")
    assert chosen.message.content.splitlines()[0] == (
        "✅ Gespeichert. Deine Einstellungen, auf jedem Server gleich:"
    )
    assert "🌐 Sprache deiner privaten Antworten: Deutsch" in chosen.message.content
    await slash(world, world.alice, "uno settings", language="fr")
    table_id = await open_table(world)
    await stack(world, table_id, [["R1", "R2"], ["B3", "B4", "G5"], ["Y5"]], "R9", dealer=2)
    brunos = await slash(world, world.bruno, "uno mano")
    assert title(brunos.message) == "Deine Hand — 3 Karten"
    alices = await slash(world, world.alice, "uno hand")
    assert title(alices.message) == "Ta main — 2 cartes"
    # Alice's answer speaks French; the public table, the server's language (English).
    played = await slash(world, world.alice, "uno play", card="R1")
    assert title(played.message).startswith("Ta main")
    public = description(table_message(world))
    assert "alice played Red 1." in public
    assert "Rouge" not in public
    # Back to Discord's: Italian again.
    await slash(world, world.bruno, "uno impostazioni", lingua="discord")
    again = await slash(world, world.bruno, "uno mano")
    assert title(again.message) == "La tua mano — 3 carte"


async def test_nonsense_gets_a_polite_answer_in_the_players_language_and_changes_nothing(
    world: World,
) -> None:
    world.carla.locale = "it"
    await slash(world, world.carla, "uno impostazioni", avvisi="now")
    forge = slash_forger(world)
    for options in (
        [option("alerts", 3, "sometimes")],
        [option("language", 3, "klingon")],
        [option("hand_picture", 3, "maybe")],
        [option("hand_picture", 5, True)],
    ):
        result = await forge(world.carla, "uno", "settings", options)()
        await result.done()
        assert result.message.ephemeral
        assert "non è un valore che questa opzione accetta" in result.message.content
    assert await stored_settings(world, world.carla) == PlayerSettings(alerts="now")


async def test_forget_me_deletes_a_players_settings(world: World) -> None:
    await slash(world, world.bruno, "uno settings", alerts="never", language="pt-BR")
    await slash(world, world.alice, "uno settings", hand_picture="off")
    asked = await slash(world, world.bruno, "uno forget-me")
    yes = find_id(asked.message, "uno:1:forget:")
    done = await click(world, world.bruno, asked.message, yes)
    assert done.message.content.startswith("Pronto")  # still his chosen language, once
    assert await stored_settings(world, world.bruno) == PlayerSettings()
    assert await stored_settings(world, world.alice) == PlayerSettings(hand_picture=False)
    shown = await slash(world, world.bruno, "uno settings")
    assert shown.message.content.splitlines()[1:] == [
        "🔔 Turn alerts: after the server's delay (default)",
        "🌐 Language of your private answers: Discord's (default)",
        "🖼️ Hand picture: on (default)",
    ]
