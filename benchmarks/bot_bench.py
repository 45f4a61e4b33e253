"""The whole bot under load: many UNO tables played at once through the fake Discord.

The real bot (``bot.py``, in its own process, on a fresh SQLite database) is connected to the
fake Discord of ``fakediscord/``. The script opens ``--tables`` tables, one per text
channel (``/uno new``, a join by button, a join by ``/uno join``, Start), then plays all of
them at once for ``--seconds``: one "table driver" per table reads whose turn it is from the
public table message ("Turn: @someone", footer "version N"), and that player acts as a user
would: "Show my hand" on the table message (or ``/uno hand`` for ``--slash-share`` of the
moves), then a card from the select (and a colour button for a wild), or Draw, Pass, UNO!,
Challenge, or a start colour. Between two moves of a table a player thinks for a seeded
random 0..``--think-ms`` ms. A driver waits, like a player, until the table message shows the
move before the next player acts.

With ``--keep-hands`` players behave as the hand message invites them to ("this message
updates when it comes"): each opens their hand as the game starts and keeps it, acts from it
when the bot has brought it to their turn, and opens a new one (as above) only when it does
not follow within a few seconds; the floor's hands then follow the turn too (one edit a
move, as the bot's). Without it, every move begins with a new hand message.

Between two hands the table message offers "Next hand" instead of "Show my hand": the
players wait for the table to deal the next hand (its pause), as people do. A match that
ends is opened anew (``/uno new``, joins, Start), so the mix keeps its slash commands;
``--points 50`` makes that frequent.

One run measures, in one go, for each number of tables in ``--tables`` (10, 100, 300): the
UNO bot, and the floor — ``benchmarks/floor_bot.py``, a minimal discord.py bot that answers
the same interactions on the wire the same way (the same deferrals, answer edits and table
message posts and edits) with no game, pictures or database behind them. Floor and bot
runs alternate (ABBA over the sizes), each a fresh process on a fresh fake Discord, so a
drift of the machine's load falls on both. For every run it prints a ``run`` JSON line:

* ``cpu_ms_per_interaction``: the CPU time of the bot's process (utime + stime from
  /proc) during the window, divided by the interactions answered in it — CPU time, so the
  figure holds on a busy machine;
* ``first_*``: first answer, from the fake's dispatch of INTERACTION_CREATE to the bot's
  first callback (the deferral), p50/p99/max in ms; ``final_*``: the final answer, until the
  user sees the result (the deferred message filled in, or the clicked message edited);
* ``gc_max_ms`` / ``gc_max_cpu_ms``: the longest garbage collection of the bot's process in
  the window (its ``gc.callbacks`` hook, ``MONITOR_EVENT_LOOP=1``), wall and thread CPU
  time; ``stall_max_ms``: the longest event-loop stall;
* ``rss_mb`` / ``peak_rss_mb``: the process's memory at the end of the window;
* ``moves``: the interactions in the window that changed a table — one per decision of a
  player that the table message then showed as a newer version: a card (a wild with its
  colour), Draw, Pass, UNO!, Challenge, a start colour, and in a table opened anew each join
  and the start; not showing a hand, nor ``/uno new``, nor the table dealing by itself
  (``Driver.moved``);
* what the process sent Discord per move, from the fake's recorded requests in the window
  (``traffic_per_move``): ``calls_per_move`` (REST requests, whatever their answer),
  ``uploads_per_move`` (pictures) and ``upload_kb_per_move`` (their bytes, kB of 1,000), in
  all and apart for ``table_*`` (posts and edits of the public table message, by whatever
  route, with their uploads), ``hands_*`` (every other request on the interaction routes:
  callbacks, and the webhook's posts and edits of the ephemeral hands and other answers)
  and ``other_*`` (turn pings and their deletions, deleting a retired table message, ...);
* ``health``: unanswered interactions, the fake's unknown routes and rejected requests,
  tracebacks, stuck tables.

The card emojis a bot uploads after its first start are not a move's traffic: each bot's
window opens once it reports them ready.

Then a ``summary`` line per size — the bot's figures, the floor's, and
``cpu_ratio_bot_to_floor`` (medians when ``--repeats`` > 1) — and two Markdown tables on
stderr (the latencies; the traffic per move beside CPU per interaction). Targets: CPU per
interaction <= 2x the floor (stretch 1.5x); at the largest size, first answer p99 <= 100
ms, final answer p99 <= 500 ms, no collection over 20 ms.

The answers' latencies are stamped in this process (the fake and the drivers), so its own
pauses would count against the bot: its cyclic garbage collector is off during the window.
Exit status: 0 when the targets are met and every run was clean, 1 when a target is
missed, 2 when a run was not clean.

    PYTHONPATH=. python benchmarks/bot_bench.py [--tables 10,100,300] [--seconds 20]
        [--repeats 1] [--only bot|floor|before] [--before-root DIR] [--think-ms 200]
        [--slash-share 0.1] [--points N] [--seed 1] [--no-calibrate] [--py-spy stacks.txt]
        [--keep-hands]

``--before-root DIR`` also runs the bot of another checkout (``git worktree add --detach
/tmp/before main``) in the same run, alternated with the floor and this bot (floor, before,
bot, then bot, before, floor, ...): before and after, each with its ratio to the floor,
from one run on one machine.

``--py-spy FILE`` records the bot process with py-spy during the window (``pip install
py-spy``; ``.txt`` gives collapsed stacks, anything else an SVG flame graph; with
``--before-root`` the before bot too, in ``FILE``'s name with ``.before``). It slows the bot
down a little; use it to find what dominates, not for the figures. With ``.txt``, each run
also reports where its CPU went (``cpu_split``, and a table at the end): every thread's CPU
time in the window (``threads_cpu_s``, from ``/proc``) split by what that thread's samples
were doing — pictures, database, Discord I/O, engine, event loop, the bot's code, the rest
(``benchmarks/cpu_split.py``).

Issue 26's targets are checked too (a table at the end, and the exit status): CPU per
interaction <= 2x the floor, and per move at most 0.5 hand pictures, 8 kB uploaded and 4 REST
calls (``hands_uploads_per_move``, ``upload_kb_per_move``, ``calls_per_move``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import gc
import json
import math
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cpu_split import cpu_delta, read_stacks, split, thread_cpu  # noqa: E402
from benchmarks.cpu_split import table as split_table  # noqa: E402
from fakediscord import (  # noqa: E402
    BotProcess,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
    RecordedRequest,
)
from tables.table import NEXT_HAND_SECONDS  # noqa: E402

DEADLINE = 3.0  # Discord's: a first answer later than this is "This interaction failed"
FOLLOW_WITHIN = 15.0  # for the deferred message to be filled in / the message to be edited
TABLE_WITHIN = 15.0  # for the public table message to show a move
HAND_FOLLOWS = 3.0  # --keep-hands: for a player's own hand message to show their turn
BAR_P99_MS = 100.0  # first answer p99, at the largest number of tables
BAR_FINAL_P99_MS = 500.0  # final answer p99, at the largest number of tables
BAR_STALL_MS = 20.0  # the longest garbage collection of the bot
TARGET_CPU_RATIO = 2.0  # CPU per interaction, bot / floor, in the same run
STRETCH_CPU_RATIO = 1.5
#: What a move may send Discord (issue 26): hand pictures, kB uploaded, REST calls.
TARGET_HAND_PICTURES = 0.5
TARGET_UPLOAD_KB = 8.0
TARGET_CALLS = 4.0
STALL_REPORT_SECONDS = 5.0  # bot.watch_event_loop's report_every

VERSION = re.compile(r"version (\d+)")
MENTION = re.compile(r"<@!?(\d+)>")
STALL = re.compile(r"event loop: longest stall ([0-9.]+) ms")
COLLECTION = re.compile(r"longest garbage collection ([0-9.]+) ms")
COLLECTION_CPU = re.compile(r"longest garbage collection [0-9.]+ ms, ([0-9.]+) ms of CPU")
COLLECTIONS = re.compile(r"; ([0-9]+) collections, ([0-9.]+) ms of CPU in all")
COLLECTION_GENERATION = re.compile(
    r"longest garbage collection ([0-9.]+) ms, .*generation (-?[0-9])"
)
HAND_NUMBER = re.compile(r"UNO — hand (\d+)")
HAND_TITLE = re.compile(r"^Your hand — \d+ cards?$")


# -- the fake Discord, with per-channel wake-ups ------------------------------------------------


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


#: The messages the REST request being handled created or edited (the fake handles each
#: request in its own task, so each has its own list).
_TOUCHED: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "bot_bench_touched", default=None
)


class BenchDiscord(FakeDiscord):
    """The fake Discord, plus a wake-up per channel, and which messages each request touched.

    ``FakeDiscord.wait_for`` wakes every waiter on every change anywhere; with a hundred
    drivers that is a hundred wake-ups per request, which would load this process (and so
    the measured round trips) for nothing. Here a driver sleeps until something happens in
    its own channel: an interaction answered, a message created or edited. Nothing else of
    the fake changes; the latencies are the fake's own ``dispatched_at``/``responded_at``.

    ``touched`` maps each recorded request (by ``id``) to the ids of the messages it created
    or edited, whatever the route — a channel post or edit, an interaction callback that
    updates the clicked message, an edit through the interaction's webhook — so the traffic
    can be told apart by the message it went to (see ``traffic_of``).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sleepers: dict[int, list[asyncio.Future[None]]] = {}
        self.touched: dict[int, tuple[int, ...]] = {}

    async def _rest(self, request: Any) -> Any:
        mark = _TOUCHED.set([])
        try:
            return await super()._rest(request)
        finally:
            _TOUCHED.reset(mark)

    def _record(self, record: RecordedRequest, response: Any, result: Any) -> None:
        touched = _TOUCHED.get()
        if touched:
            self.touched[id(record)] = tuple(touched)
        super()._record(record, response, result)

    @staticmethod
    def _touch(message: FakeMessage) -> None:
        touched = _TOUCHED.get()
        if touched is not None:
            touched.append(message.id)

    def _poke(self, channel_id: int) -> None:
        for future in self._sleepers.pop(channel_id, ()):
            _wake(future)

    async def _callback(self, call: Any, interaction_id: str, token: str) -> Any:
        try:
            return await super()._callback(call, interaction_id, token)
        finally:
            result = self._tokens.get(token)
            if result is not None:
                self._poke(result.channel.id)

    async def _create_message(self, channel: FakeChannel, *args: Any, **kwargs: Any) -> Any:
        try:
            message = await super()._create_message(channel, *args, **kwargs)
            self._touch(message)
            return message
        finally:
            self._poke(channel.id)

    async def _edit_message(self, msg: FakeMessage, payload: Any, files: Any) -> None:
        try:
            await super()._edit_message(msg, payload, files)
            self._touch(msg)
        finally:
            self._poke(msg.channel.id)

    async def until_true(self, predicate: Callable[[], Any], within: float) -> bool:
        """Wait until ``predicate()`` holds, checking every 0.1 s (outside any channel)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + within
        while not predicate():
            if loop.time() >= end:
                return False
            await asyncio.sleep(0.1)
        return True

    async def until(
        self, channel: FakeChannel, predicate: Callable[[], Any], within: float
    ) -> bool:
        """Wait until ``predicate()`` holds, waking only on changes in ``channel``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + within
        while not predicate():
            remaining = end - loop.time()
            if remaining <= 0:
                return False
            future: asyncio.Future[None] = loop.create_future()
            self._sleepers.setdefault(channel.id, []).append(future)
            timer = loop.call_later(remaining, _wake, future)
            try:
                await future
            finally:
                timer.cancel()
        return True


# -- what users see ---------------------------------------------------------------------------


def first_id(message: FakeMessage, prefix: str) -> str | None:
    return next((c for c in message.custom_ids if c.startswith(prefix)), None)


def ids_with(message: FakeMessage, prefix: str) -> list[str]:
    return [c for c in message.custom_ids if c.startswith(prefix)]


def footer_version(message: FakeMessage | None) -> int:
    """The version a table message's footer names: an embed's, or a Components V2 message's
    small print."""
    if message is None:
        return -1
    footers = [(embed.get("footer") or {}).get("text", "") for embed in message.embeds]
    for text in footers + [t for t in message.texts() if t.startswith("-# ")]:
        found = VERSION.search(text)
        if found:
            return int(found.group(1))
    return -1


def turn_text(message: FakeMessage) -> str:
    """Where a table message names whose turn it is: its content, or its V2 text."""
    return message.content or "\n".join(message.texts())


def hand_version(message: FakeMessage) -> int:
    """The table version a hand message offers its moves at: its footer's (the floor bot),
    or the version its versioned component ids carry (the UNO bot's hand has no version in
    its footer); -1 when it offers none."""
    shown = footer_version(message)
    if shown >= 0:
        return shown
    versions = [
        int(parts[4])
        for cid in message.custom_ids
        if len(parts := cid.split(":")) > 4 and parts[4].isdigit()
    ]
    return max(versions, default=-1)


def is_hand(message: FakeMessage | None) -> bool:
    return message is not None and any(
        HAND_TITLE.match(embed.get("title", "")) for embed in message.embeds
    )


def hand_number(message: FakeMessage) -> int | None:
    titles = [embed.get("title", "") for embed in message.embeds] + message.texts()
    for title in titles:
        found = HAND_NUMBER.search(title)
        if found:
            return int(found.group(1))
    return None


def select_values(message: FakeMessage, custom_id: str) -> list[str]:
    component = message.component(custom_id) or {}
    return [option["value"] for option in component.get("options") or []]


def kind_of(result: InteractionResult) -> str:
    if result.type == 2:
        return "slash"
    if result.type == 3:
        return (
            "click" if (result.payload.get("data") or {}).get("component_type") == 2 else "select"
        )
    return {4: "autocomplete", 5: "modal"}.get(result.type, str(result.type))


def verb_of(result: InteractionResult) -> str:
    if result.type == 2:
        return "/" + result.name
    parts = result.name.split(":")
    return parts[2] if len(parts) > 2 else result.name


# -- the figures ------------------------------------------------------------------------------


@dataclass
class Sample:
    phase: str
    kind: str
    verb: str
    latency: float | None  # first answer; None: never answered in time
    completion: float | None  # until the user sees the result
    dispatched_at: float


@dataclass
class Bench:
    fake: BenchDiscord
    samples: list[Sample] = field(default_factory=list)
    anomalies: dict[str, int] = field(default_factory=dict)
    anomaly_examples: list[str] = field(default_factory=list)
    moves: int = 0  # interactions that changed a table, in the play window (see Driver.moved)
    hands_dealt: int = 0  # new hands dealt in the play window (a hand ended)
    matches_finished: int = 0  # matches won in the play window (the table is opened anew)
    phase: str = "setup"
    table_messages: set[int] = field(default_factory=set)  # every message read as a table's

    def anomaly(self, what: str, detail: str) -> None:
        self.anomalies[what] = self.anomalies.get(what, 0) + 1
        if len(self.anomaly_examples) < 10:
            self.anomaly_examples.append(f"{what}: {detail}")


#: Where a REST request went (``traffic_of``), in the order the figures are printed.
TRAFFIC = ("table", "hands", "other")
#: The routes of an interaction's answer: its callback and its webhook (followups and edits).
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
#: The keys of ``traffic_per_move``.
TRAFFIC_KEYS = tuple(
    f"{prefix}{what}_per_move"
    for prefix in ("", *(f"{name}_" for name in TRAFFIC))
    for what in ("calls", "uploads", "upload_kb")
)


def traffic_of(record: RecordedRequest, touched: tuple[int, ...], tables: set[int]) -> str:
    """``table``: the request posted or edited a message a driver read as a table's (by any
    route: a channel post or edit, a callback updating the clicked table, a webhook edit);
    ``hands``: any other request on the interaction routes — callbacks and their webhook's
    posts and edits, which carry the ephemeral hands (and the other answers to a player);
    ``other``: the rest — turn pings and their deletions, deleting a retired table message,
    reads, emojis."""
    if any(message in tables for message in touched):
        return "table"
    if (record.route or record.path).startswith(INTERACTION_ROUTES):
        return "hands"
    return "other"


def uploads_of(record: RecordedRequest) -> tuple[int, int]:
    """How many pictures the request uploaded, and their bytes: the files of a multipart
    body, and an image sent inline as a data URI (an emoji's, which Discord takes base64 in
    JSON: counted as its decoded size)."""
    files, size = len(record.file_sizes), sum(record.file_sizes)
    image = record.body.get("image") if isinstance(record.body, dict) else None
    if isinstance(image, str) and image.startswith("data:"):
        files, size = files + 1, size + len(image.partition(",")[2]) * 3 // 4
    return files, size


def traffic_per_move(
    sent: list[RecordedRequest], fake: BenchDiscord, tables: set[int], moves: int
) -> dict[str, float | None]:
    """REST calls, uploaded pictures and uploaded kB (1,000 bytes) per move, in all
    (``calls_per_move``, ...) and for each of ``TRAFFIC`` (``table_calls_per_move``, ...).
    Every request counts, whatever its answer (a refused one was sent too)."""
    totals = {name: [0, 0, 0] for name in TRAFFIC}
    for record in sent:
        counts = totals[traffic_of(record, fake.touched.get(id(record), ()), tables)]
        files, size = uploads_of(record)
        counts[0] += 1
        counts[1] += files
        counts[2] += size
    out: dict[str, float | None] = {}
    every = [sum(c[i] for c in totals.values()) for i in range(3)]
    for prefix, (calls, files, size) in (("", every), *((f"{n}_", totals[n]) for n in TRAFFIC)):
        out[f"{prefix}calls_per_move"] = round(calls / moves, 2) if moves else None
        out[f"{prefix}uploads_per_move"] = round(files / moves, 2) if moves else None
        out[f"{prefix}upload_kb_per_move"] = round(size / 1000 / moves, 2) if moves else None
    return out


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(p / 100.0 * len(sorted_values)))
    return sorted_values[rank - 1]


def latency_figures(values: list[float | None], seconds: float | None) -> dict[str, Any]:
    answered = sorted(v for v in values if v is not None)
    out: dict[str, Any] = {"count": len(values)}
    if seconds:
        out["per_s"] = round(len(values) / seconds, 1)
    if answered:
        ms = [v * 1000.0 for v in answered]
        out.update(
            p50_ms=round(percentile(ms, 50), 1),
            p90_ms=round(percentile(ms, 90), 1),
            p99_ms=round(percentile(ms, 99), 1),
            max_ms=round(ms[-1], 1),
            mean_ms=round(sum(ms) / len(ms), 1),
        )
    out["unanswered_within_3s"] = sum(1 for v in values if v is None or v > DEADLINE)
    return out


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def note(text: str) -> None:
    print(f"[bot_bench] {text}", file=sys.stderr, flush=True)


# -- one table --------------------------------------------------------------------------------


class UnansweredError(Exception):
    """An interaction got no first answer within Discord's deadline."""


class StuckError(Exception):
    """The table stopped following the game; the driver gives up."""


class Driver:
    """One table: its channel, its three players, and the moves they make."""

    def __init__(
        self,
        bench: Bench,
        index: int,
        channel: FakeChannel,
        users: list[FakeUser],
        *,
        seed: int,
        think: float,
        slash_share: float,
        points: int | None,
        keep_hands: bool = False,
    ) -> None:
        self.bench = bench
        self.think = think
        self.slash_share = slash_share
        self.keep_hands = keep_hands
        self.hands: dict[int, FakeMessage] = {}  # keep_hands: each player's own hand message
        self.fake = bench.fake
        self.index = index
        self.channel = channel
        self.users = users
        self.by_id = {u.id: u for u in users}
        self.rng = random.Random(f"{seed}:{index}")
        self.table_id: str | None = None
        self.table_msg: FakeMessage | None = None
        self.hand_number: int | None = None
        self.points = points
        self.last_action = "nothing"  # the last interaction's verb, for the anomaly reports

    # -- interactions

    async def _record(self, result: InteractionResult, follow: Callable[[], bool]) -> None:
        """Wait for the first answer, then until the user sees the result; record both."""
        self.last_action = verb_of(result)
        answered = await self.fake.until(self.channel, lambda: result.responded, DEADLINE + 0.5)
        completion = None
        if answered:
            if await self.fake.until(self.channel, follow, FOLLOW_WITHIN):
                completion = time.monotonic() - (result.dispatched_at or 0.0)
            else:
                self.bench.anomaly("not_followed_up", f"{result!r}")
        self.bench.samples.append(
            Sample(
                self.bench.phase,
                kind_of(result),
                verb_of(result),
                result.latency if answered else None,
                completion,
                result.dispatched_at or 0.0,
            )
        )
        if not answered:
            raise UnansweredError(repr(result))

    async def ask(self, user: FakeUser, command: str, **options: Any) -> InteractionResult:
        """A slash command whose answer is a deferred ("thinking") message filled in later."""
        result = await self.fake.slash(user, self.channel, command, _wait=False, **options)
        await self._record(result, lambda: _filled(result))
        return result

    async def press(
        self, user: FakeUser, message: FakeMessage, custom_id: str
    ) -> InteractionResult:
        before = len(message.history)
        result = await self.fake.click(user, message, custom_id, wait=False)
        await self._record(result, lambda: _followed(result, message, before))
        return result

    async def choose(
        self, user: FakeUser, message: FakeMessage, custom_id: str, value: str
    ) -> InteractionResult:
        before = len(message.history)
        result = await self.fake.select(user, message, custom_id, [value], wait=False)
        await self._record(result, lambda: _followed(result, message, before))
        return result

    # -- the public table message

    def find_table_message(self) -> FakeMessage | None:
        for message in reversed(self.fake.channel_messages(self.channel)):
            if (message.embeds or message.is_components_v2) and not message.ephemeral:
                return message
        return None

    async def table_at_least(self, version: int, within: float = TABLE_WITHIN) -> FakeMessage:
        """Wait until the table message shows ``version`` (or later)."""
        ok = await self.fake.until(
            self.channel,
            lambda: (m := self.find_table_message()) is not None and footer_version(m) >= version,
            within,
        )
        message = self.find_table_message()
        if not ok or message is None:
            shown = footer_version(message)
            ids = message.custom_ids if message is not None else []
            verbs = sorted({c.split(":")[2] for c in ids if c.count(":") > 2})
            self.bench.anomaly(
                "table_message_behind",
                f"table {self.index}: wants v{version}, shows v{shown} with {verbs}"
                f" after {self.last_action}",
            )
            raise StuckError(f"table {self.index} message shows v{shown}, not v{version}")
        self.table_msg = message
        self.bench.table_messages.add(message.id)
        hand = hand_number(message)
        if hand is not None:
            if (
                self.hand_number is not None
                and hand > self.hand_number
                and self.bench.phase == "play"
            ):
                self.bench.hands_dealt += hand - self.hand_number
            self.hand_number = hand
        return message

    # -- setup

    async def open(self) -> None:
        """Host opens with /uno new, the second joins by button, the third by /uno join."""
        host, second, third = self.users[:3]
        options: dict[str, Any] = {"preset": "classic"}
        if self.points is not None:
            options["points"] = self.points
        self.hand_number = None
        await self.ask(host, "uno new", **options)
        lobby = await self.table_at_least(0)
        join = first_id(lobby, "uno:1:join:")
        if join is None:
            raise StuckError(f"table {self.index}: no Join button on {lobby.custom_ids}")
        self.table_id = join.rsplit(":", 1)[1]
        version = footer_version(lobby)
        await self.press(second, lobby, join)
        lobby = await self.table_at_least(version + 1)
        self.moved()
        await self.ask(third, "uno join")
        lobby = await self.table_at_least(version + 2)
        self.moved()
        await self.press(host, lobby, f"uno:1:start:{self.table_id}")
        started = await self.table_at_least(version + 3)
        self.moved()
        self.hands = {}
        if self.keep_hands:  # as the game starts, each player opens their hand and keeps it
            for user in (host, second, third):
                self.hands[user.id] = await self.show_hand(user, started)

    def moved(self) -> None:
        """Count a move: one interaction of a player — the last one of a decision — after
        which the public table message showed a newer version. In the play loop: a card (a
        wild with its colour: the colour button is the interaction that moves), Draw, Pass,
        UNO!, Challenge, a start colour; in a table opened anew in the window: each join and
        the start. Not moves: showing a hand, picking a wild before its colour, ``/uno new``
        (a new lobby), and what the table does by itself (dealing the next hand after its
        pause). Moves are counted in the measured window only."""
        if self.bench.phase == "play":
            self.bench.moves += 1

    # -- play

    async def play(self, until: float) -> None:
        """Move after move until the window closes (a started move is always finished)."""
        await asyncio.sleep(self.rng.uniform(0.0, self.think))
        hand: FakeMessage | None = None
        while time.monotonic() < until:
            table = self.table_msg
            assert table is not None
            hand_button = f"uno:1:hand:{self.table_id}"
            if table.component(hand_button) is None:
                if table.component(f"uno:1:next:{self.table_id}") is not None:
                    # Between two hands: the match goes on. The table deals the next hand
                    # after its pause; the players wait for it like people do. The wait
                    # counts from here, a little after the pause began: its whole length,
                    # and then as long as for any move (TABLE_WITHIN alone, as long as the
                    # pause itself, lets a deal that comes a little late look stuck).
                    await self.table_at_least(
                        footer_version(table) + 1, NEXT_HAND_SECONDS + TABLE_WITHIN
                    )
                    hand = None
                    continue
                # The match is over (or the table closed): open a new one in the channel.
                self.bench.matches_finished += 1
                await self.open()
                hand = None
                continue
            found = MENTION.search(turn_text(table))
            user = self.by_id.get(int(found.group(1))) if found else None
            if user is None:
                self.bench.anomaly("no_turn", f"table {self.index}: {table.content!r}")
                raise StuckError(f"table {self.index}: whose turn? {table.content!r}")
            version = footer_version(table)
            if self.keep_hands:
                # The player's own hand message, which the bot brings to each turn; a new one
                # only if theirs does not follow.
                hand = self.hands.get(user.id)
                if hand is None or not await self.follows(hand, version):
                    hand = self.hands[user.id] = await self.show_hand(user, table)
            # The player looks at their hand, unless the one on screen is still current.
            elif not (
                hand is not None
                and hand.ephemeral_for is not None
                and hand.ephemeral_for.id == user.id
                and hand_version(hand) == version
                and is_hand(hand)
            ):
                hand = await self.show_hand(user, table)
            if hand is None or not is_hand(hand):
                self.bench.anomaly("not_a_hand", f"table {self.index}: {hand and hand.content!r}")
                raise StuckError(f"table {self.index}: no hand for {user.name}")
            hand = await self.move(user, hand)
            # The move shows on the table message (a refused move never does: the table is
            # then reported behind and stuck).
            await self.table_at_least(version + 1)
            self.moved()
            await asyncio.sleep(self.rng.uniform(0.0, self.think))

    async def show_hand(self, user: FakeUser, table: FakeMessage) -> FakeMessage | None:
        """A new hand message: "Show my hand" on the table message, or ``/uno hand``."""
        if self.rng.random() < self.slash_share:
            return (await self.ask(user, "uno hand")).message
        return (await self.press(user, table, f"uno:1:hand:{self.table_id}")).message

    async def follows(self, hand: FakeMessage, version: int) -> bool:
        """``--keep-hands``: whether the player's hand message shows ``version`` within
        :data:`HAND_FOLLOWS` s (the bot edits it when the turn comes, next to the table)."""
        return await self.fake.until(
            self.channel, lambda: is_hand(hand) and hand_version(hand) >= version, HAND_FOLLOWS
        )

    async def move(self, user: FakeUser, hand: FakeMessage) -> FakeMessage:
        """One decision on ``hand``; returns the hand message after it."""
        rng = self.rng
        choose = ids_with(hand, "uno:1:choose:")
        if choose:  # a Wild turned up: the dealer's left names the colour
            await self.press(user, hand, rng.choice(choose))
            return hand
        call = first_id(hand, "uno:1:uno:")
        if call is not None and rng.random() < 0.7:
            await self.press(user, hand, call)
            return hand
        challenge = first_id(hand, "uno:1:challenge:")
        if challenge is not None and rng.random() < 0.3:
            await self.press(user, hand, challenge)
            return hand
        pick = first_id(hand, "uno:1:pick:")
        draw = first_id(hand, "uno:1:draw:")
        cards = ids_with(hand, "uno:1:play:") + ids_with(hand, "uno:1:colour:")
        if cards and (draw is None or rng.random() < 0.9):  # one click a card
            await self.press(user, hand, rng.choice(cards))
            return hand
        if pick is not None and (draw is None or rng.random() < 0.9):
            value = rng.choice(select_values(hand, pick))
            await self.choose(user, hand, pick, value)
            colours = ids_with(hand, "uno:1:colour:")
            if colours:  # a wild: name a colour
                await self.press(user, hand, rng.choice(colours))
            return hand
        passing = first_id(hand, "uno:1:pass:")
        if passing is not None:
            await self.press(user, hand, passing)
            return hand
        if draw is not None:
            await self.press(user, hand, draw)
            return hand
        self.bench.anomaly("no_action", f"table {self.index}: {hand.custom_ids}")
        raise StuckError(f"table {self.index}: nothing to do on {hand.custom_ids}")


def _filled(result: InteractionResult) -> bool:
    """A deferred "thinking" answer has been filled in (or the answer was a message)."""
    if result.response_type == 5:
        return result.original is not None and not result.original.loading
    return result.responded


def _followed(result: InteractionResult, message: FakeMessage, before: int) -> bool:
    """The clicked message was edited (a deferred update followed), or a message answered."""
    if result.response_type in (6, 7):
        return len(message.history) > before
    return _filled(result)


# -- the bot's output -------------------------------------------------------------------------


async def stamp_output(bot: BotProcess, stamped: list[tuple[float, str]]) -> None:
    """Timestamp each line of the bot's output as it arrives (BotProcess keeps the text)."""
    seen = 0
    while True:
        lines = bot.output
        if len(lines) > seen:
            now = time.monotonic()
            stamped.extend((now, line) for line in lines[seen:])
            seen = len(lines)
        await asyncio.sleep(0.05)


async def watch_own_loop(lateness: list[tuple[float, float]], period: float = 0.005) -> None:
    """The same probe as the bot's watch_event_loop, in this process: how late a 5 ms sleep
    wakes here bounds how much this process (the fake and the drivers) adds to a latency."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(period)
        now = loop.time()
        lateness.append((now, now - before - period))


BUSY = (
    "import time\n"
    "end = time.time() + {seconds}\n"
    "while time.time() < end: pass\n"
    "print(time.process_time())"
)


async def calibrate(cores: int) -> dict[str, Any]:
    """What this machine really gives: CPU time of ``cores`` busy processes in 1 s, and how
    late an idle event loop wakes while one other process is busy."""

    async def busy(seconds: float) -> float:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", BUSY.format(seconds=seconds), stdout=asyncio.subprocess.PIPE
        )
        out, _ = await proc.communicate()
        return float(out.decode().strip() or 0.0)

    # Interpreter start-up is not in process_time's busy second, so the sum is the busy part.
    used = await asyncio.gather(*(busy(1.5) for _ in range(cores)))
    effective = sum(used) / 1.5
    lateness: list[tuple[float, float]] = []
    hog = asyncio.create_task(busy(2.5))
    await asyncio.sleep(0.3)  # let the busy process start
    probe = asyncio.create_task(watch_own_loop(lateness))
    await asyncio.sleep(2.0)
    probe.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await probe
    await hog
    worst = max((late for _, late in lateness), default=0.0)
    return {
        "effective_cores": round(effective, 2),
        "idle_loop_stall_max_ms_one_busy_process": round(worst * 1000.0, 1),
    }


def cpu_seconds_of(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def cpu_times() -> dict[str, list[int]]:
    """The /proc/stat lines ``cpu`` and ``cpuN``: user nice system idle iowait irq softirq
    steal ... in clock ticks (empty where there is no /proc)."""
    try:
        with open("/proc/stat") as stat:
            lines = [line.split() for line in stat if line.startswith("cpu")]
    except OSError:
        return {}
    return {fields[0]: [int(v) for v in fields[1:9]] for fields in lines if len(fields) >= 9}


def cpu_usage(before: dict[str, list[int]], after: dict[str, list[int]]) -> dict[str, Any]:
    """Busy share of each core and the hypervisor's steal over an interval.

    Both processes share the cores; on a VM whose vCPUs the host packs onto one core (this
    one does it at times), one core is busy and the other idle even under full load.
    """
    busy: dict[str, float] = {}
    steal = None
    for name in sorted(after):
        if name not in before:
            continue
        delta = [a - b for a, b in zip(after[name], before[name], strict=True)]
        total = sum(delta)
        if name == "cpu":
            steal = delta[7] / os.sysconf("SC_CLK_TCK")
            continue
        idle = delta[3] + delta[4]
        busy[name] = round((total - idle) / total, 2) if total else 0.0
    return {"core_busy_share": busy, "hypervisor_steal_s": steal}


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- the run ----------------------------------------------------------------------------------


def memory_mb(pid: int | None) -> dict[str, float | None]:
    """The process's resident set now (VmRSS) and at its peak (VmHWM), in MB."""
    found: dict[str, float | None] = {"rss_mb": None, "peak_rss_mb": None}
    if pid is None:
        return found
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            key = "rss_mb" if name == "VmRSS" else "peak_rss_mb"
            found[key] = round(int(value.split()[0]) / 1024, 1)
    return found


def ms(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


async def one_run(
    args: argparse.Namespace, kind: str, tables: int, calibration: dict[str, Any]
) -> dict[str, Any]:
    """One process (the UNO bot, or the floor bot), ``tables`` tables, one measured window."""
    fake = BenchDiscord()
    guild = fake.add_guild("UNO bench")
    channels = [guild.add_text_channel(f"uno-{i:03d}") for i in range(tables)]
    players: list[list[FakeUser]] = []
    for i in range(tables):
        seat_users = [fake.add_user(f"p{i:03d}{c}") for c in "abc"]
        for user in seat_users:
            guild.add_member(user)
        players.append(seat_users)
    bench = Bench(fake)
    drivers = [
        Driver(
            bench,
            i,
            channels[i],
            players[i],
            seed=args.seed,
            think=args.think_ms / 1000.0,
            slash_share=args.slash_share,
            points=args.points,
            keep_hands=args.keep_hands,
        )
        for i in range(tables)
    ]
    workdir = Path(tempfile.mkdtemp(prefix="uno-bot-bench-"))
    stamped: list[tuple[float, str]] = []
    await fake.start()
    try:
        env = {"MONITOR_EVENT_LOOP": "1", "LOG_LEVEL": "INFO"}
        if args.keep_hands:
            env["FLOOR_OPEN_HANDS"] = "1"  # the floor's hands follow the turn too
        root = ROOT
        if kind == "before":  # the same bot from another checkout (an older commit)
            root = Path(args.before_root)  # resolved in main()
            # Its own packages first; then this checkout's, for the launcher (fakediscord/),
            # which an older checkout may not have.
            env["PYTHONPATH"] = os.pathsep.join((str(root), str(ROOT)))
        async with BotProcess(
            fake,
            database_path=workdir / "uno.sqlite3",
            dev_guild=guild,
            module="benchmarks.floor_bot" if kind == "floor" else args.bot_module,
            log_level="INFO",
            env=env,
            cwd=root,
            ready_timeout=60.0,
        ) as bot:
            stamper = asyncio.create_task(stamp_output(bot, stamped))
            if kind != "floor":
                # The card emojis are uploaded once, in the background after a first start:
                # not a move's traffic, so not in the window.
                await fake.until_true(
                    lambda: any("Card emojis ready" in line for line in bot.output), 120.0
                )
            note(f"{kind}: ready (pid {bot.pid}); opening {tables} tables")

            # -- setup: open every table (a few at a time, as a server's evening starts)
            bench.phase = "setup"
            gate = asyncio.Semaphore(args.setup_concurrency)
            setup_started = time.monotonic()

            async def open_one(driver: Driver) -> None:
                async with gate:
                    await driver.open()

            opened = await asyncio.gather(*(open_one(d) for d in drivers), return_exceptions=True)
            setup_seconds = time.monotonic() - setup_started
            failed = [(d.index, r) for d, r in zip(drivers, opened, strict=True) if r is not None]
            for index, error in failed[:5]:
                note(f"{kind}: table {index} did not open: {error!r}")
            live = [d for d, r in zip(drivers, opened, strict=True) if r is None]
            note(
                f"{kind}: {len(live)} tables open in {setup_seconds:.1f}s; playing {args.seconds}s"
            )

            # -- the measured window: every table at once
            bench.phase = "play"
            profiler = None
            stacks = stacks_path(args, kind)
            if stacks is not None:
                profiler = await start_py_spy(stacks, bot.pid, args.seconds)
            # This process's cyclic GC would pause the fake for up to hundreds of ms as the
            # fake's records grow, and a pause between dispatch and the answer's arrival
            # counts against the bot. Memory is plenty for a window: no GC in it.
            gc.collect()
            gc.freeze()
            gc.disable()
            own_lateness: list[tuple[float, float]] = []
            own_probe = asyncio.create_task(watch_own_loop(own_lateness))
            window_start = time.monotonic()
            bot_cpu0, own_cpu0 = cpu_seconds_of(bot.pid), own_cpu_seconds()
            times0, threads0 = cpu_times(), thread_cpu(bot.pid)
            until = window_start + args.seconds
            played = await asyncio.gather(*(d.play(until) for d in live), return_exceptions=True)
            window_end = time.monotonic()
            bot_cpu1, own_cpu1 = cpu_seconds_of(bot.pid), own_cpu_seconds()
            times1, threads1 = cpu_times(), thread_cpu(bot.pid)
            memory = memory_mb(bot.pid)
            own_probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await own_probe
            stuck = [(d.index, r) for d, r in zip(live, played, strict=True) if r is not None]
            for index, error in stuck[:5]:
                note(f"{kind}: table {index} stopped: {error!r}")
            if profiler is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(profiler.wait(), 30.0)
                note(f"py-spy wrote {stacks}")
            # The bot reports its stalls every 5 s: wait for the report covering the end.
            await asyncio.sleep(STALL_REPORT_SECONDS + 0.5)
            stamper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stamper
            gc.enable()
            gc.unfreeze()
            record = figures_of(
                kind,
                bench,
                bot,
                stamped,
                window=(window_start, window_end),
                cpu=(
                    None if bot_cpu0 is None or bot_cpu1 is None else bot_cpu1 - bot_cpu0,
                    own_cpu1 - own_cpu0,
                    cpu_usage(times0, times1),
                ),
                memory=memory,
                failed_tables=len(failed) + len(stuck),
                tables=len(live),
                own_lateness=[late for _, late in own_lateness],
            )
            record["threads_cpu_s"] = cpu_delta(threads0, threads1)
            if stacks is not None and stacks.endswith(".txt"):
                with contextlib.suppress(OSError):
                    record["cpu_split"] = split(
                        read_stacks(stacks), record["threads_cpu_s"], record["interactions"]
                    )
            return record
    finally:
        await fake.close()
        shutil.rmtree(workdir, ignore_errors=True)


def stacks_path(args: argparse.Namespace, kind: str) -> str | None:
    """Where py-spy writes this run's stacks: ``--py-spy`` for the bot, and with
    ``--before-root`` the before bot's beside it (``stacks.before.txt``); None: no profile."""
    if not args.py_spy or kind == "floor":
        return None
    if kind == "bot":
        return str(args.py_spy)
    path = Path(args.py_spy)
    return str(path.with_name(f"{path.stem}.{kind}{path.suffix}"))


async def start_py_spy(path: str, pid: int | None, seconds: float) -> Any:
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    fmt = "raw" if path.endswith(".txt") else "flamegraph"
    return await asyncio.create_subprocess_exec(
        exe, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "200",
        "--format", fmt, "--output", path, "--threads", "--nonblocking",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip


def figures_of(
    kind: str,
    bench: Bench,
    bot: BotProcess,
    stamped: list[tuple[float, str]],
    *,
    window: tuple[float, float],
    cpu: tuple[float | None, float, dict[str, Any]],
    memory: dict[str, float | None],
    failed_tables: int,
    tables: int,
    own_lateness: list[float],
) -> dict[str, Any]:
    """Everything one run measured, as one JSON-able record."""
    start, end = window
    seconds = end - start
    fake = bench.fake
    play = [s for s in bench.samples if s.phase == "play"]
    first = latency_figures([s.latency for s in play], seconds)
    final = latency_figures([s.completion for s in play], None)
    by_kind = {}
    for kind_name in ("slash", "click", "select"):
        chosen = [s for s in play if s.kind == kind_name]
        answered = latency_figures([s.latency for s in chosen], None)
        done = latency_figures([s.completion for s in chosen], None)
        by_kind[kind_name] = {
            "count": len(chosen),
            "first_p50_ms": answered.get("p50_ms"),
            "first_p99_ms": answered.get("p99_ms"),
            "final_p50_ms": done.get("p50_ms"),
            "final_p99_ms": done.get("p99_ms"),
        }

    # The process's event-loop reports: a line at time T covers (T - 5 s, T].
    def inside(pattern: re.Pattern[str]) -> list[float]:
        return [
            float(m.group(1))
            for at, line in stamped
            if (m := pattern.search(line)) is not None
            and at - STALL_REPORT_SECONDS >= start - 0.25
            and at <= end + 0.25
        ]

    stalls, collections, collection_cpu = inside(STALL), inside(COLLECTION), inside(COLLECTION_CPU)
    gc_totals = [
        (int(m.group(1)), float(m.group(2)))
        for at, line in stamped
        if (m := COLLECTIONS.search(line)) is not None
        and at - STALL_REPORT_SECONDS >= start - 0.25
        and at <= end + 0.25
    ]
    gc_cpu_all = sum(ms for _, ms in gc_totals)
    generations = [
        (float(m.group(1)), int(m.group(2)))
        for at, line in stamped
        if (m := COLLECTION_GENERATION.search(line)) is not None
        and at - STALL_REPORT_SECONDS >= start - 0.25
        and at <= end + 0.25
    ]
    unanswered = sum(1 for s in bench.samples if s.latency is None or s.latency > DEADLINE)
    tracebacks = bot.tracebacks()
    bot_cpu, own_cpu, usage = cpu
    interactions = len(play)
    own_ms = sorted(late * 1000.0 for late in own_lateness)
    clean = (
        unanswered == 0
        and not fake.unknown_routes
        and not fake.errors
        and not tracebacks
        and not bot.network_violations
        and failed_tables == 0
        and not bench.anomalies
    )
    # What the process sent Discord in the window: requests and uploaded files.
    sent = [r for r in fake.requests if start <= r.at <= end]
    return {
        "group": "run",
        "bot": kind,
        "tables": tables,
        "window_s": round(seconds, 1),
        "interactions": interactions,
        "interactions_per_s": first.get("per_s"),
        "moves": bench.moves,
        "hands_dealt": bench.hands_dealt,
        "matches_finished": bench.matches_finished,
        "cpu_s": None if bot_cpu is None else round(bot_cpu, 2),
        "cpu_ms_per_interaction": (
            None if bot_cpu is None or not interactions else round(bot_cpu * 1000 / interactions, 3)
        ),
        "requests_per_interaction": round(len(sent) / interactions, 2) if interactions else None,
        "uploads_per_interaction": (
            round(sum(len(r.files) for r in sent) / interactions, 2) if interactions else None
        ),
        **traffic_per_move(sent, fake, bench.table_messages, bench.moves),
        "first_p50_ms": first.get("p50_ms"),
        "first_p99_ms": first.get("p99_ms"),
        "first_max_ms": first.get("max_ms"),
        "final_p50_ms": final.get("p50_ms"),
        "final_p99_ms": final.get("p99_ms"),
        "final_max_ms": final.get("max_ms"),
        "gc_max_ms": max(collections) if collections else None,
        "gc_max_cpu_ms": max(collection_cpu) if collection_cpu else None,
        "gc_max_generation": max(generations)[1] if generations else None,
        # All collections in the reports inside the window: how many, and their CPU share.
        "gc_collections": sum(n for n, _ in gc_totals) if gc_totals else None,
        "gc_cpu_share": (
            round(gc_cpu_all / (len(gc_totals) * STALL_REPORT_SECONDS * 1000), 4)
            if gc_totals
            else None
        ),
        "stall_max_ms": max(stalls) if stalls else None,
        "stall_reports": len(stalls),
        **memory,
        "by_kind": by_kind,
        "client_cpu_s": round(own_cpu, 2),
        "client_loop_lateness_max_ms": ms(own_ms[-1]) if own_ms else None,
        **usage,
        "health": {
            "clean": clean,
            "unanswered_within_3s": unanswered,
            "unknown_routes": [f"{r.method} {r.path}" for r in fake.unknown_routes][:5],
            "errors": [
                f"{r.status} {r.method} {r.route or r.path} {r.response}" for r in fake.errors
            ][:5],
            "tracebacks": tracebacks[:5],
            "tables_failed": failed_tables,
            "anomalies": bench.anomalies,
            "anomaly_examples": bench.anomaly_examples[:5],
        },
    }


def schedule(
    sizes: list[int], repeats: int, only: str | None, before: bool = False
) -> list[tuple[str, int]]:
    """Floor and bot runs alternated, ABBA: floor-bot, bot-floor, ... so a drift of the
    machine's load over the run falls on both (with ``before``: floor-before-bot,
    bot-before-floor, ...)."""
    if only is not None:
        return [(only, n) for _ in range(repeats) for n in sizes]
    kinds = ("floor", "before", "bot") if before else ("floor", "bot")
    order: list[tuple[str, int]] = []
    flip = False
    for _ in range(repeats):
        for n in sizes:
            order.extend((kind, n) for kind in (kinds[::-1] if flip else kinds))
            flip = not flip
    return order


def summarise(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Per number of tables: the bot's figures, the floor's, and their ratio (medians of the
    runs at that size when repeated); whether the targets are met."""
    sizes = sorted({r["tables_asked"] for r in results})
    lines: list[dict[str, Any]] = []
    ok = True
    largest = max(sizes) if sizes else 0

    def median(values: list[float]) -> float | None:
        values = sorted(v for v in values if v is not None)
        if not values:
            return None
        mid = len(values) // 2
        return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2

    for n in sizes:
        line: dict[str, Any] = {"group": "summary", "tables": n}
        for kind in ("floor", "before", "bot"):
            runs = [r for r in results if r["tables_asked"] == n and r["bot"] == kind]
            if not runs:
                continue
            for key in (
                "cpu_ms_per_interaction",
                "first_p50_ms",
                "first_p99_ms",
                "final_p50_ms",
                "final_p99_ms",
                "gc_max_ms",
                "gc_max_cpu_ms",
                "gc_cpu_share",
                "requests_per_interaction",
                "uploads_per_interaction",
                "stall_max_ms",
                "rss_mb",
                "interactions_per_s",
                "moves",
                *TRAFFIC_KEYS,
            ):
                value = median([r[key] for r in runs])
                line[f"{kind}_{key}"] = None if value is None else round(value, 3)
            line[f"{kind}_clean"] = all(r["health"]["clean"] for r in runs)
        bot_cpu, floor_cpu = (
            line.get("bot_cpu_ms_per_interaction"),
            line.get("floor_cpu_ms_per_interaction"),
        )
        before_cpu = line.get("before_cpu_ms_per_interaction")
        if before_cpu and floor_cpu:
            line["cpu_ratio_before_to_floor"] = round(before_cpu / floor_cpu, 2)
        if bot_cpu and floor_cpu:
            line["cpu_ratio_bot_to_floor"] = round(bot_cpu / floor_cpu, 2)
            line["cpu_ratio_ok_2x"] = bot_cpu / floor_cpu <= TARGET_CPU_RATIO
            line["cpu_ratio_ok_stretch_1_5x"] = bot_cpu / floor_cpu <= STRETCH_CPU_RATIO
            ok = ok and line["cpu_ratio_ok_2x"]
        traffic = {
            "hand_pictures_ok": ("bot_hands_uploads_per_move", TARGET_HAND_PICTURES),
            "upload_kb_ok": ("bot_upload_kb_per_move", TARGET_UPLOAD_KB),
            "calls_ok": ("bot_calls_per_move", TARGET_CALLS),
        }
        for check, (key, bar) in traffic.items():
            if line.get(key) is not None:
                line[check] = line[key] <= bar
                ok = ok and line[check]
        if n == largest and "bot_first_p99_ms" in line:
            checks = {
                "first_p99_ok": (line["bot_first_p99_ms"] or 1e9) <= BAR_P99_MS,
                "final_p99_ok": (line["bot_final_p99_ms"] or 1e9) <= BAR_FINAL_P99_MS,
                "gc_ok": line["bot_gc_max_ms"] is not None
                and line["bot_gc_max_ms"] <= BAR_STALL_MS,
            }
            line.update(checks)
            ok = ok and all(checks.values())
        lines.append(line)
    return lines, ok


def table_text(lines: list[dict[str, Any]]) -> str:
    """The summary as Markdown tables (for docs/performance.md): one row per size and kind;
    the latencies and the collector, what was sent to Discord per move, and the targets."""
    return "\n\n".join((latency_table(lines), traffic_table(lines), targets_table(lines)))


def targets_table(lines: list[dict[str, Any]]) -> str:
    """Issue 26's targets, for each bot at each size: CPU per interaction against the floor
    of the same run, hand pictures, kB uploaded and REST calls per move."""
    rows = [
        f"| tables | bot | CPU / interaction × floor (≤ {TARGET_CPU_RATIO:g}, stretch "
        f"{STRETCH_CPU_RATIO:g}) | hand pictures / move (≤ {TARGET_HAND_PICTURES:g}) "
        f"| uploaded kB / move (≤ {TARGET_UPLOAD_KB:g}) | REST calls / move (≤ {TARGET_CALLS:g}) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for line in lines:
        for kind in ("before", "bot"):
            if f"{kind}_cpu_ms_per_interaction" not in line:
                continue

            def mark(key: str, bar: float, line: dict[str, Any] = line, kind: str = kind) -> str:
                value = line.get(key if key.startswith("cpu_ratio") else f"{kind}_{key}")
                if value is None:
                    return "–"
                return f"{value:g} {'✔' if value <= bar else '✘'}"

            rows.append(
                f"| {line['tables']} | {kind} "
                f"| {mark(f'cpu_ratio_{kind}_to_floor', TARGET_CPU_RATIO)} "
                f"| {mark('hands_uploads_per_move', TARGET_HAND_PICTURES)} "
                f"| {mark('upload_kb_per_move', TARGET_UPLOAD_KB)} "
                f"| {mark('calls_per_move', TARGET_CALLS)} |"
            )
    return "\n".join(rows)


def _cell(line: dict[str, Any], kind: str, key: str) -> str:
    value = line.get(f"{kind}_{key}" if key != "ratio" else f"cpu_ratio_{kind}_to_floor")
    return "–" if value is None else f"{value:g}"


def traffic_table(lines: list[dict[str, Any]]) -> str:
    """REST calls, uploaded pictures and kB per move — in all, then the table message, the
    hands and the rest — beside CPU per interaction and its ratio to the floor."""
    rows = [
        "| tables | bot | moves | CPU / interaction (ms) | × floor "
        "| REST calls / move: all (table, hands, other) "
        "| uploaded kB / move: all (table, hands, other) "
        "| pictures / move: all (table, hands, other) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for line in lines:
        for kind in ("floor", "before", "bot"):
            if f"{kind}_cpu_ms_per_interaction" not in line:
                continue

            def split(what: str, line: dict[str, Any] = line, kind: str = kind) -> str:
                parts = ", ".join(_cell(line, kind, f"{n}_{what}_per_move") for n in TRAFFIC)
                return f"{_cell(line, kind, f'{what}_per_move')} ({parts})"

            rows.append(
                f"| {line['tables']} | {kind} | {_cell(line, kind, 'moves')} "
                f"| {_cell(line, kind, 'cpu_ms_per_interaction')} | {_cell(line, kind, 'ratio')} "
                f"| {split('calls')} | {split('upload_kb')} | {split('uploads')} |"
            )
    return "\n".join(rows)


def latency_table(lines: list[dict[str, Any]]) -> str:
    """CPU per interaction, the answers' latencies, the collector and memory."""
    rows = [
        "| tables | bot | CPU / interaction (ms) | × floor | first answer p50 / p99 (ms) "
        "| final answer p50 / p99 (ms) | longest GC, wall (CPU) (ms) | GC CPU share "
        "| RSS (MB) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for line in lines:
        for kind in ("floor", "before", "bot"):
            if f"{kind}_cpu_ms_per_interaction" not in line:
                continue

            def g(key: str, line: dict[str, Any] = line, kind: str = kind) -> str:
                return _cell(line, kind, key)

            rows.append(
                f"| {line['tables']} | {kind} | {g('cpu_ms_per_interaction')} | {g('ratio')} "
                f"| {g('first_p50_ms')} / {g('first_p99_ms')} "
                f"| {g('final_p50_ms')} / {g('final_p99_ms')} "
                f"| {g('gc_max_ms')} ({g('gc_max_cpu_ms')}) | {g('gc_cpu_share')} "
                f"| {g('rss_mb')} |"
            )
    return "\n".join(rows)


async def run(args: argparse.Namespace) -> int:
    sizes = [int(n) for n in str(args.tables).split(",") if n.strip()]
    cores = os.cpu_count() or 1
    calibration: dict[str, Any] = {}
    if args.calibrate:
        calibration = await calibrate(cores)
        note(f"machine: {cores} cores, measured {calibration}")
        emit({"group": "machine", "cpu_count": cores, **calibration})
    results: list[dict[str, Any]] = []
    if args.only == "before" and not args.before_root:
        raise SystemExit("--only before needs --before-root")
    for kind, n in schedule(sizes, args.repeats, args.only, before=bool(args.before_root)):
        record = await one_run(args, kind, n, calibration)
        record["tables_asked"] = n
        results.append(record)
        emit(record)
    lines, ok = summarise(results)
    for line in lines:
        emit(line)
    print(table_text(lines), file=sys.stderr, flush=True)
    splits = {
        f"{r['bot']} ({r['tables']} tables)": r["cpu_split"] for r in results if "cpu_split" in r
    }
    if splits:
        note("where the CPU went (each thread's CPU from /proc, split by its py-spy samples)")
        print(split_table(splits), file=sys.stderr, flush=True)
    if not all(r["health"]["clean"] for r in results):
        return 2
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", default="10,100,300", help="tables played at once, per run (10,100,300)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window (20)")
    parser.add_argument(
        "--think-ms", type=float, default=200.0, help="think time, uniform 0..N ms (200)"
    )
    parser.add_argument(
        "--slash-share",
        type=float,
        default=0.1,
        help="share of hand views by /uno hand instead of the button (0.1)",
    )
    parser.add_argument(
        "--setup-concurrency", type=int, default=20, help="tables opened at a time (20)"
    )
    parser.add_argument(
        "--points", type=int, help="points to win a match (default: the preset's, 500)"
    )
    parser.add_argument("--repeats", type=int, default=1, help="floor/bot pairs per size (1)")
    parser.add_argument(
        "--only", choices=("bot", "floor", "before"), help="run only one kind (no ratio)"
    )
    parser.add_argument(
        "--before-root",
        metavar="DIR",
        help="also run the bot of another checkout (e.g. a worktree of main) in the same run, "
        "alternated with the floor and this bot: before and after from one run",
    )
    parser.add_argument(
        "--keep-hands",
        action="store_true",
        help="players keep their own hand message, which the bot brings to each turn, and open "
        "a new one only when it does not follow (the floor's hands follow the turn too)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-calibrate",
        dest="calibrate",
        action="store_false",
        help="skip the 4 s measurement of the machine's real CPU capacity",
    )
    parser.add_argument("--py-spy", metavar="FILE", help="profile the bot during its windows")
    parser.add_argument(
        "--bot-module",
        default="bot",
        help="the module whose main() runs the bot (bot); e.g. a wrapper that profiles it",
    )
    args = parser.parse_args()
    if args.before_root:
        args.before_root = str(Path(args.before_root).resolve())
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
