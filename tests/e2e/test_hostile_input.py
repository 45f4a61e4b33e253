"""End to end: hostile input. Interactions a real (or modified) client can send and Discord
should never pass on — values out of range or of the wrong type, names that are not options,
commands in DMs, members who are not in the server, forged and mangled component ids, select
values no message offered, components of the wrong type — each gets a polite ephemeral
answer, never the generic "something went wrong", and nothing in the database changes."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from cogs.uno._i18n import catalogue
from fakediscord.world import ChannelType, FakeChannel
from playtest.harness import World, load, open_table, stack, table_message

Forge = Callable[[], Awaitable[Any]]
GENERIC = {catalogue(lang)["error.generic"] for lang in ("en", "it")}


def snapshot(world: World) -> list[tuple[Any, ...]]:
    """Everything the bot stores that an interaction could change."""
    with sqlite3.connect(world.database) as db:
        rows: list[tuple[Any, ...]] = []
        for table in (
            "tables",
            "table_seats",
            "actions",
            "match_results",
            "player_stats",
            "guild_settings",
            "tournaments",
            "seasons",
        ):
            rows += [(table, *row) for row in db.execute(f"SELECT * FROM {table} ORDER BY 1")]
        return rows


def command_id(world: World, name: str) -> str:
    for command in world.fake.commands.get(world.guild.id, []):
        if command["name"] == name:
            return str(command["id"])
    raise AssertionError(f"/{name} is not registered")


def slash_forger(world: World, interaction_type: int = 2) -> Callable[..., Forge]:
    """``forge(user, "uno", "new", [options], channel=..., resolved=...)``: a raw command
    (``interaction_type`` 4: an autocomplete request)."""

    def forge(
        user: Any,
        root: str,
        path: str,
        options: list[dict[str, Any]],
        *,
        channel: Any = None,
        resolved: dict[str, Any] | None = None,
    ) -> Forge:
        async def send() -> Any:
            where = channel or world.channel
            inner: list[dict[str, Any]] = options
            for name in reversed(path.split()):
                kind = 1 if inner is options else 2
                inner = [{"type": kind, "name": name, "options": inner}]
            data: dict[str, Any] = {
                "id": command_id(world, root),
                "name": root,
                "type": 1,
                "options": inner,
            }
            if where.guild is not None:
                data["guild_id"] = str(where.guild.id)
            if resolved:
                data["resolved"] = resolved
            result = world.fake._new_interaction(
                interaction_type, user, where, data, name=f"{root} {path}"
            )
            await world.fake._send_interaction(result)
            return result

        return send

    return forge


def option(name: str, kind: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


INT, STR, BOOL, USER = 4, 3, 5, 6


async def test_hostile_interactions_are_answered_politely_and_change_nothing(
    world: World,
) -> None:
    table_id = await open_table(world)
    await stack(world, table_id, [["R1", "G2"], ["B3", "B4"], ["Y5", "Y6"]], "R9", dealer=2)
    table = await load(world, table_id)
    world.carla.locale = "it"
    outsider = world.fake.add_user("zed")
    resolved = {"users": {str(outsider.id): outsider.payload()}}
    dm = direct_messages(world, world.alice)
    forge = slash_forger(world)
    message = table_message(world)
    v = table.version
    forged: list[Forge] = []
    people = [world.alice, world.bruno, world.carla, world.dario]

    bad_new = [
        [option("points", INT, 49)],
        [option("points", INT, 5001)],
        [option("points", INT, 10**20)],
        [option("points", INT, -1)],
        [option("points", STR, "lots")],
        [option("turn_seconds", INT, 601)],
        [option("turn_seconds", INT, -5)],
        [option("preset", STR, "")],
        [option("preset", STR, "nonsense")],
        [option("preset", STR, "classic'; DROP TABLE tables;--")],
        [option("hands", INT, 0)],
        [option("hands", INT, 21)],
        [option("teams", STR, "7")],
        [option("stacking", STR, "sideways")],
        [option("challenge", STR, "everyone-dies")],
        [option("scoring", STR, "golf")],
        [option("uno_penalty", STR, "jail")],
        [option("jump_in", STR, "maybe")],
        [option("tournament", STR, "x" * 2000)],
        [option("no_such_option", INT, 1)],
    ]
    bad_play = [
        [option("card", STR, "")],
        [option("card", STR, "x" * 5000)],
        [option("card", STR, "Q9")],
        [option("card", STR, "B3")],  # another player's card
        [option("card", STR, "R1"), option("colour", STR, "B")],  # a colour on a number
        [option("card", STR, "W"), option("colour", STR, "Z")],
        [option("card", STR, "W"), option("colour", STR, "P")],  # a dark colour, classic deck
        [option("card", STR, "R1"), option("uno", STR, "yes")],
        [option("card", STR, "R1"), option("swap_with", USER, str(outsider.id))],
    ]
    for user, options in itertools.product(people, bad_new):
        forged.append(forge(user, "uno", "new", options))
    for user, options in itertools.product(people, bad_play):
        forged.append(forge(user, "uno", "play", options, resolved=resolved))
    for user in people:
        forged += [
            forge(
                user, "uno", "catch", [option("player", USER, str(outsider.id))], resolved=resolved
            ),
            forge(
                user, "uno", "kick", [option("player", USER, str(outsider.id))], resolved=resolved
            ),
            forge(
                user, "uno", "stats", [option("player", USER, str(outsider.id))], resolved=resolved
            ),
            forge(user, "uno", "leaderboard", [option("page", INT, 0)]),
            forge(user, "uno", "leaderboard", [option("season", INT, -1)]),
            forge(user, "uno", "leaderboard", [option("sort", STR, "shoe size")]),
            forge(user, "uno", "colour", [option("colour", STR, "Z")]),
            forge(user, "uno", "fly", []),
            forge(user, "uno", "rules", [option("preset", STR, "nonsense")]),
            forge(user, "uno", "tournament standings", [option("name", STR, "y" * 500)]),
            forge(user, "uno-admin", "settings", [option("points", INT, 1)]),
            forge(user, "uno-admin", "settings", [option("preset", STR, "nope")]),
            forge(user, "uno-admin", "settings", [option("language", STR, "klingon")]),
            forge(user, "uno-admin", "tournament new", [option("name", STR, "z" * 300)]),
            forge(
                user,
                "uno-admin",
                "kick",
                [option("player", USER, str(outsider.id))],
                resolved=resolved,
            ),
        ]
    forged.append(forge(world.alice, "uno", "new", [], channel=dm))
    # Values of the wrong shape where the command takes a user, and autocomplete asked of
    # options that have none (or of an option that does not exist).
    complete = slash_forger(world, interaction_type=4)
    for user in people:
        forged += [
            forge(user, "uno", "kick", [option("player", USER, "not-a-user-id")]),
            forge(user, "uno", "kick", [option("player", USER, 12)]),
            forge(user, "uno", "catch", [option("player", USER, "-5")]),
            forge(user, "uno", "new", [option("points", INT, True)]),
            complete(user, "uno", "new", [{**option("points", INT, 1), "focused": True}]),
            complete(user, "uno", "kick", [{**option("player", STR, "a"), "focused": True}]),
            complete(user, "uno", "play", [{**option("nope", STR, "R"), "focused": True}]),
        ]

    ids = [
        "uno:1:draw:zz:1",
        f"uno:1:draw:{table_id}:{v + 7}",
        "uno:1:hand:nonexistent0",
        f"uno:1:catch:{table_id}:{v}:9",
        f"uno:1:catch:{table_id}:{v}:1",
        f"uno:1:choose:{table_id}:{v}:R",
        f"uno:1:colour:{table_id}:{v}:W4=B",
        f"uno:1:page:{table_id}:{v}:99",
        f"uno:1:next:{table_id}",
        f"uno:1:again:{table_id}",
        f"uno:1:rules:{table_id}",
        f"uno:1:ruleset:{table_id}:reset",
        f"uno:1:forget:{'1' * 13}:yes",
        f"uno:2:draw:{table_id}:{v}",
        f"uno:1:draw:{table_id}:{v}:extra",
        "uno:1:" + "x" * 90,
        "uno:\n",
        "not-ours-at-all",
    ]
    selects = [
        (f"uno:1:pick:{table_id}:{v}:0", ["Q9"]),
        (f"uno:1:pick:{table_id}:{v}:0", ["B3"]),
        (f"uno:1:pick:{table_id}:{v}:0", ["R1" * 40]),
        (f"uno:1:pick:{table_id}:{v}:0", []),
        (f"uno:1:swap:{table_id}:{v}:WH=R", ["9"]),
        (f"uno:1:rule:{table_id}:switches", ["nope"]),
        (f"uno:1:rule:{table_id}:stacking", ["sideways"]),
        (f"uno:1:team:{table_id}", ["9"]),
        (f"uno:1:draw:{table_id}:{v}", ["R1"]),  # a select's data for a button's id
        (f"uno:1:hand:{table_id}", ["R1"]),  # ... for a button that is on the message
    ]
    for user in people:
        for custom_id in ids:
            forged.append(_click(world, user, message, custom_id))
        for custom_id, values in selects:
            forged.append(_select(world, user, message, custom_id, values))

    rounds = 1 + 500 // len(forged)
    everything = forged * rounds
    assert len(everything) >= 500
    before = snapshot(world)
    results: list[Any] = []
    for start in range(0, len(everything), 20):
        sent = await asyncio.gather(*(send() for send in everything[start : start + 20]))
        await asyncio.gather(*(r.done(quiet=0.05) for r in sent if r is not None))
        results += sent
    unanswered = [r.name for r in results if r is not None and not r.responded]
    assert unanswered == []
    late = [(r.name, r.latency) for r in results if r is not None and r.latency > 3.0]
    assert late == []
    generic = [r.name for r in results if r is not None and r.content in GENERIC]
    assert generic == []
    for r in results:
        if r is not None and r.message is not None:
            assert r.ephemeral, r.name
    assert snapshot(world) == before
    assert table_message(world) is message  # no repost, no new table


def direct_messages(world: World, user: Any) -> FakeChannel:
    """A DM channel between the bot and ``user`` (where a forged /uno new might arrive)."""
    channel = FakeChannel(
        id=world.fake.ids(), name=user.name, type=ChannelType.DM, guild=None, member_ids={user.id}
    )
    channel._fake = world.fake
    world.fake.channels[channel.id] = channel
    return channel


def _click(world: World, user: Any, message: Any, custom_id: str) -> Forge:
    async def send() -> Any:
        return await world.fake.click(user, message, custom_id, force=True, wait=False)

    return send


def _select(world: World, user: Any, message: Any, custom_id: str, values: list[str]) -> Forge:
    async def send() -> Any:
        return await world.fake.select(user, message, custom_id, values, force=True, wait=False)

    return send
