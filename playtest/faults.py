"""Tools for the end-to-end tests of a Discord that fails: a lag meter, a player who plays
through failures, and the fault mixes of issue 19.

The lag meter samples, every 0.1 s, the version the database holds and the version the
channel's live table message shows (its footer), and keeps the longest time the message
showed an older version than one already stored. A player who acts does so by slash command,
as a person would, and tries again — as a person would — when Discord says the interaction
failed (a callback that hung past Discord's 3 seconds cannot be answered by anyone).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import players
from engine import Action, CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from fakediscord import FakeDiscord
from playtest.harness import TABLE_FOOTER, World, load, shown_turn, stored_version

#: The table message names whose turn it is: "Turn: <@123>".
TURN = re.compile(r"<@(\d+)>")

#: Every route a table's display uses, and the faults each gets in the soak (issue 19: 12-20 %
#: of table edits failing; 503/500/502, 12-second hangs, 429s).
TABLE_EDIT = "/channels/{channel_id}/messages/{message_id}"
TABLE_POST = "/channels/{channel_id}/messages"
HAND_EDIT = "/webhooks/{app_id}/{token}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"


def fail_fifteen_percent(fake: FakeDiscord, *, seed: int) -> None:
    """About 15 % of table edits, hand edits, posts and callbacks fail: 5xx (some carried out
    before the error), 12-second hangs, 429s. Callbacks never hang: a callback later than 3 s
    cannot be answered by any bot."""
    rng = random.Random(seed)
    for route, method in ((TABLE_EDIT, "PATCH"), (HAND_EDIT, "PATCH"), (TABLE_POST, "POST")):
        fake.fault(method, route, status=503, probability=0.05, seed=rng.randrange(1 << 30))
        fake.fault(method, route, status=500, probability=0.03, seed=rng.randrange(1 << 30))
        fake.fault(
            method,
            route,
            status=502,
            carried_out=True,
            probability=0.02,
            seed=rng.randrange(1 << 30),
        )
        fake.fault(
            method, route, status=None, hang=12, probability=0.02, seed=rng.randrange(1 << 30)
        )
        fake.rate_limit(
            method, route, probability=0.03, seed=rng.randrange(1 << 30), retry_after=0.4
        )
    fake.fault(
        "POST",
        CALLBACK,
        status=500,
        carried_out=True,
        probability=0.08,
        seed=rng.randrange(1 << 30),
    )
    fake.fault("POST", CALLBACK, status=503, probability=0.07, seed=rng.randrange(1 << 30))


@dataclass
class LagMeter:
    """The longest time the table message showed an older version than the stored one."""

    world: World
    table_id: str
    longest: float = 0.0
    behind_since: float | None = None
    behind_version: int = -1
    samples: int = 0
    episodes: list[tuple[int, float]] = field(default_factory=list)  # (version, seconds)

    def shown(self) -> int | None:
        for message in reversed(self.world.fake.channel_messages(self.world.channel)):
            footers = [(e.get("footer") or {}).get("text", "") for e in message.embeds]
            for text in footers + message.texts():
                found = TABLE_FOOTER.search(text)
                if found and found.group(1) == self.table_id:
                    return int(found.group(2))
        return None

    async def sample(self) -> None:
        stored = await stored_version(self.world.database, self.table_id)
        shown = self.shown()
        now = time.monotonic()
        self.samples += 1
        if stored is None or shown is None or shown >= stored:
            if self.behind_since is not None:
                self.episodes.append((self.behind_version, now - self.behind_since))
            self.behind_since = None
            return
        if self.behind_since is None:
            self.behind_since, self.behind_version = now, stored
        self.longest = max(self.longest, now - self.behind_since)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[LagMeter]:
        async def loop() -> None:
            while True:
                await self.sample()
                await asyncio.sleep(0.1)

        task = asyncio.create_task(loop())
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def named_player(message: Any) -> int | None:
    """The user id the table message names as the one to play, if any."""
    found = TURN.search(shown_turn(message))
    return int(found.group(1)) if found else None


@dataclass
class Tally:
    """What happened to the interactions of a run."""

    sent: int = 0
    answered: int = 0
    unanswered: list[str] = field(default_factory=list)
    undelivered: int = 0


async def act(world: World, user: Any, command: str, tally: Tally, **options: Any) -> Any:
    """One slash command, answered or not; a person retries what Discord said failed."""
    for _ in range(4):
        tally.sent += 1
        result = await world.fake.slash(user, world.channel, command, **options)
        try:
            await result.done(quiet=0.4)
        except TimeoutError:  # "thinking…" forever: never answered
            tally.unanswered.append(f"{command} {options}")
            continue
        if result.responded and not (result.deferred and not result.messages):
            tally.answered += 1
            return result
        tally.unanswered.append(f"{command} {options}")
        await asyncio.sleep(0.5)
    return None


def choose(table: Any, seat: int, rng: random.Random) -> Action | None:
    """What the seat plays (the normal computer's choice: hands end in reasonable time)."""
    hand = table.match.hand
    return players.decide("normal", hand.view_for(seat), rng)


async def play_for(world: World, user: Any, table_id: str, seat: int, tally: Tally) -> bool:
    """If it is ``seat``'s turn, play it by slash command (as the normal computer would)."""
    table = await load(world, table_id)
    if table.status != "playing" or table.match is None:
        return False
    hand = table.match.hand
    if hand.is_over or hand.current != seat:
        return False
    action = choose(table, seat, random.Random(f"{table.version}:{seat}"))
    if isinstance(action, Play):
        options: dict[str, Any] = {"card": action.face.notation}
        if action.colour is not None:
            options["colour"] = action.colour.value
        if len(hand.hands[seat]) == 2:
            options["uno"] = True
        await act(world, user, "uno play", tally, **options)
    elif isinstance(action, Draw):
        await act(world, user, "uno draw", tally)
    elif isinstance(action, Pass):
        await act(world, user, "uno pass", tally)
    elif isinstance(action, ChooseColour):
        await act(world, user, "uno colour", tally, colour=action.colour.value)
    elif isinstance(action, Challenge):
        await act(world, user, "uno challenge", tally)
    elif isinstance(action, CallUno):
        await act(world, user, "uno uno", tally)
    elif isinstance(action, CatchUno):
        await act(world, user, "uno catch", tally)
    return True
