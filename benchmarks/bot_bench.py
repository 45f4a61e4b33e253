"""The whole bot under load: many UNO tables played at once through the fake Discord.

The real bot (``bot.py``, in its own process, on a fresh SQLite database) is connected to the
fake Discord of ``tests/fakediscord``. The script opens ``--tables`` tables, one per text
channel (``/uno new``, a join by button, a join by ``/uno join``, Start), then plays all of
them at once for ``--seconds``: one "table driver" per table reads whose turn it is from the
public table message ("Turn: @someone", footer "version N"), and that player acts as a user
would: "Show my hand" on the table message (or ``/uno hand`` for ``--slash-share`` of the
moves), then a card from the select (and a colour button for a wild), or Draw, Pass, UNO!,
Challenge, or a start colour. Between two moves of a table a player thinks for a seeded
random 0..``--think-ms`` ms. A driver waits, like a player, until the table message shows the
move before the next player acts.

A match that ends is opened anew (``/uno new``, joins, Start), so the mix keeps its slash
commands; ``--points 50`` makes that frequent.

For every interaction it records the fake's ``InteractionResult.latency``: from the moment
the fake dispatches INTERACTION_CREATE on the gateway to the moment the bot's first
interaction callback (the answer or the deferral) reaches the fake. Both ends are stamped in
this process, so its own pauses would count against the bot: its cyclic garbage collector is
off during the window, and how late its event loop woke is reported. It prints, as JSON
lines on stdout:

* ``latency`` lines: count, interactions/s, p50/p90/p99/max in ms, for slash commands,
  clicks, selects and overall, for the setup phase and for the measured play window;
* ``completion`` lines: dispatch until the user sees the result (the deferred message filled
  in or the clicked message edited); informative;
* ``verb`` lines: the play-window first-answer latency per custom-id verb / command;
* ``event_loop`` line: the bot's own "event loop: longest stall X ms" reports
  (``MONITOR_EVENT_LOOP=1``) that lie inside the play window, and their maximum;
* ``health`` line: interactions not answered within 3 s, the fake's unknown routes and
  rejected requests, the bot's tracebacks/ERROR lines, driver anomalies;
* ``machine`` line: cores; the CPU seconds of this process (the fake Discord and all the
  drivers) and of the bot process during the window (both share the same cores); how busy
  each core was; how late this process's own event loop woke (its share of a latency); and,
  measured before the bot starts, the CPU time that busy processes really get
  (``effective_cores``) and how late an idle event loop wakes while one other process is
  busy. Some VMs pack their vCPUs onto one core at times: ``effective_cores`` ~1 and one
  core busy, the other idle. The figures of such a run are the machine's, not the bot's;
* ``summary`` line: the figures against the bars (p99 <= 100 ms, no stall over 20 ms).

Exit status: 0 when the bars are met and the run was clean, 1 when a bar is missed, 2 when
the run was not clean (an unanswered interaction, an unknown route, a rejected request, a
traceback, a stuck table).

    PYTHONPATH=. python benchmarks/bot_bench.py [--tables 100] [--seconds 60]
        [--think-ms 200] [--slash-share 0.1] [--points N] [--seed 1] [--no-calibrate]
        [--py-spy stacks.txt]

The default run takes about 80 s (4 s calibration, 5 s bot start and setup, 60 s window,
6 s for the bot's last stall report).

``--py-spy FILE`` records the bot process with py-spy during the window (``pip install
py-spy``; ``.txt`` gives collapsed stacks, anything else an SVG flame graph). It slows the bot
down a little; use it to find what dominates, not for the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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

from tests.fakediscord import (  # noqa: E402
    BotProcess,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

DEADLINE = 3.0  # Discord's: a first answer later than this is "This interaction failed"
FOLLOW_WITHIN = 15.0  # for the deferred message to be filled in / the message to be edited
TABLE_WITHIN = 15.0  # for the public table message to show a move
BAR_P99_MS = 100.0
BAR_STALL_MS = 20.0
STALL_REPORT_SECONDS = 5.0  # bot.watch_event_loop's report_every

VERSION = re.compile(r"version (\d+)")
MENTION = re.compile(r"<@!?(\d+)>")
STALL = re.compile(r"event loop: longest stall ([0-9.]+) ms")
COLLECTION = re.compile(r"longest garbage collection ([0-9.]+) ms")
HAND_NUMBER = re.compile(r"^UNO — hand (\d+)$")
HAND_TITLE = re.compile(r"^Your hand — \d+ cards?$")


# -- the fake Discord, with per-channel wake-ups ------------------------------------------------


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class BenchDiscord(FakeDiscord):
    """The fake Discord, plus a wake-up per channel.

    ``FakeDiscord.wait_for`` wakes every waiter on every change anywhere; with a hundred
    drivers that is a hundred wake-ups per request, which would load this process (and so
    the measured round trips) for nothing. Here a driver sleeps until something happens in
    its own channel: an interaction answered, a message created or edited. Nothing else of
    the fake changes; the latencies are the fake's own ``dispatched_at``/``responded_at``.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sleepers: dict[int, list[asyncio.Future[None]]] = {}

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
            return await super()._create_message(channel, *args, **kwargs)
        finally:
            self._poke(channel.id)

    async def _edit_message(self, msg: FakeMessage, payload: Any, files: Any) -> None:
        try:
            await super()._edit_message(msg, payload, files)
        finally:
            self._poke(msg.channel.id)

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
    if message is None:
        return -1
    for embed in message.embeds:
        found = VERSION.search((embed.get("footer") or {}).get("text", ""))
        if found:
            return int(found.group(1))
    return -1


def is_hand(message: FakeMessage | None) -> bool:
    return message is not None and any(
        HAND_TITLE.match(embed.get("title", "")) for embed in message.embeds
    )


def hand_number(message: FakeMessage) -> int | None:
    for embed in message.embeds:
        found = HAND_NUMBER.search(embed.get("title", ""))
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
    moves: int = 0  # actions that changed a table (play window)
    hands_dealt: int = 0  # new hands dealt in the play window (a hand ended)
    matches_finished: int = 0  # matches won in the play window (the table is opened anew)
    phase: str = "setup"

    def anomaly(self, what: str, detail: str) -> None:
        self.anomalies[what] = self.anomalies.get(what, 0) + 1
        if len(self.anomaly_examples) < 10:
            self.anomaly_examples.append(f"{what}: {detail}")


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
    ) -> None:
        self.bench = bench
        self.think = think
        self.slash_share = slash_share
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

    # -- interactions

    async def _record(self, result: InteractionResult, follow: Callable[[], bool]) -> None:
        """Wait for the first answer, then until the user sees the result; record both."""
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
            if message.embeds and not message.ephemeral:
                return message
        return None

    async def table_at_least(self, version: int) -> FakeMessage:
        """Wait until the table message shows ``version`` (or later)."""
        ok = await self.fake.until(
            self.channel,
            lambda: (m := self.find_table_message()) is not None and footer_version(m) >= version,
            TABLE_WITHIN,
        )
        message = self.find_table_message()
        if not ok or message is None:
            shown = footer_version(message)
            self.bench.anomaly(
                "table_message_behind", f"table {self.index}: wants v{version}, shows v{shown}"
            )
            raise StuckError(f"table {self.index} message shows v{shown}, not v{version}")
        self.table_msg = message
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
        await self.ask(third, "uno join")
        lobby = await self.table_at_least(version + 2)
        await self.press(host, lobby, f"uno:1:start:{self.table_id}")
        await self.table_at_least(version + 3)

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
                # The match is over (or the table closed): open a new one in the channel.
                self.bench.matches_finished += 1
                await self.open()
                hand = None
                continue
            found = MENTION.search(table.content or "")
            user = self.by_id.get(int(found.group(1))) if found else None
            if user is None:
                self.bench.anomaly("no_turn", f"table {self.index}: {table.content!r}")
                raise StuckError(f"table {self.index}: whose turn? {table.content!r}")
            version = footer_version(table)
            # The player looks at their hand, unless the one on screen is still current.
            if not (
                hand is not None
                and hand.ephemeral_for is not None
                and hand.ephemeral_for.id == user.id
                and footer_version(hand) == version
                and is_hand(hand)
            ):
                if self.rng.random() < self.slash_share:
                    hand = (await self.ask(user, "uno hand")).message
                else:
                    hand = (await self.press(user, table, hand_button)).message
            if hand is None or not is_hand(hand):
                self.bench.anomaly("not_a_hand", f"table {self.index}: {hand and hand.content!r}")
                raise StuckError(f"table {self.index}: no hand for {user.name}")
            hand = await self.move(user, hand)
            after = footer_version(hand)
            if after <= version:
                self.bench.anomaly(
                    "no_progress",
                    f"table {self.index}: v{version} -> v{after} {hand.all_text()[:200]!r}",
                )
                raise StuckError(f"table {self.index}: the move did not change the table")
            self.bench.moves += 1
            await self.table_at_least(after)
            await asyncio.sleep(self.rng.uniform(0.0, self.think))

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


async def run(args: argparse.Namespace) -> int:
    fake = BenchDiscord()
    guild = fake.add_guild("UNO bench")
    channels = [guild.add_text_channel(f"uno-{i:03d}") for i in range(args.tables)]
    players: list[list[FakeUser]] = []
    for i in range(args.tables):
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
        )
        for i in range(args.tables)
    ]
    cores = os.cpu_count() or 1
    calibration: dict[str, Any] = {}
    if args.calibrate:
        calibration = await calibrate(cores)
        note(f"machine: {cores} cores, measured {calibration}")
    workdir = Path(tempfile.mkdtemp(prefix="uno-bot-bench-"))
    stamped: list[tuple[float, str]] = []
    exit_code = 0
    await fake.start()
    try:
        async with BotProcess(
            fake,
            database_path=workdir / "uno.sqlite3",
            dev_guild=guild,
            log_level="INFO",
            env={"MONITOR_EVENT_LOOP": "1", "LOG_LEVEL": "INFO"},
            ready_timeout=60.0,
        ) as bot:
            stamper = asyncio.create_task(stamp_output(bot, stamped))
            note(f"bot ready (pid {bot.pid}); opening {args.tables} tables")

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
                note(f"table {index} did not open: {error!r}")
            live = [d for d, r in zip(drivers, opened, strict=True) if r is None]
            note(f"{len(live)} tables open in {setup_seconds:.1f}s; playing for {args.seconds}s")

            # -- the measured window: every table at once
            bench.phase = "play"
            profiler = None
            if args.py_spy:
                profiler = await start_py_spy(args.py_spy, bot.pid, args.seconds)
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
            times0 = cpu_times()
            until = window_start + args.seconds
            played = await asyncio.gather(*(d.play(until) for d in live), return_exceptions=True)
            window_end = time.monotonic()
            bot_cpu1, own_cpu1 = cpu_seconds_of(bot.pid), own_cpu_seconds()
            times1 = cpu_times()
            own_probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await own_probe
            stuck = [(d.index, r) for d, r in zip(live, played, strict=True) if r is not None]
            for index, error in stuck[:5]:
                note(f"table {index} stopped: {error!r}")
            if profiler is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(profiler.wait(), 30.0)
                note(f"py-spy wrote {args.py_spy}")
            # The bot reports its stalls every 5 s: wait for the report covering the end.
            await asyncio.sleep(STALL_REPORT_SECONDS + 0.5)
            stamper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stamper
            gc.enable()

            exit_code = report(
                args,
                bench,
                bot,
                stamped,
                setup_seconds=setup_seconds,
                window=(window_start, window_end),
                cpu=(
                    None if bot_cpu0 is None or bot_cpu1 is None else bot_cpu1 - bot_cpu0,
                    own_cpu1 - own_cpu0,
                    cpu_usage(times0, times1),
                ),
                failed_tables=len(failed) + len(stuck),
                tables=len(live),
                own_lateness=[late for _, late in own_lateness],
                calibration=calibration,
            )
    finally:
        await fake.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return exit_code


async def start_py_spy(path: str, pid: int | None, seconds: float) -> Any:
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    fmt = "raw" if path.endswith(".txt") else "flamegraph"
    return await asyncio.create_subprocess_exec(
        exe, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "200",
        "--format", fmt, "--output", path, "--threads", "--nonblocking",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip


def report(
    args: argparse.Namespace,
    bench: Bench,
    bot: BotProcess,
    stamped: list[tuple[float, str]],
    *,
    setup_seconds: float,
    window: tuple[float, float],
    cpu: tuple[float | None, float, dict[str, Any]],
    failed_tables: int,
    tables: int,
    own_lateness: list[float],
    calibration: dict[str, Any],
) -> int:
    start, end = window
    seconds = end - start
    fake = bench.fake

    # Latency by phase and kind.
    for phase, span in (("setup", setup_seconds), ("play", seconds)):
        samples = [s for s in bench.samples if s.phase == phase]
        for kind in ("slash", "click", "select", "overall"):
            chosen = [s for s in samples if kind == "overall" or s.kind == kind]
            emit(
                {
                    "group": "latency",
                    "phase": phase,
                    "kind": kind,
                    "what": "dispatch -> first interaction callback (ms)",
                    **latency_figures([s.latency for s in chosen], span),
                }
            )
    play = [s for s in bench.samples if s.phase == "play"]
    for kind in ("slash", "click", "select", "overall"):
        chosen = [s for s in play if kind == "overall" or s.kind == kind]
        figures = latency_figures([s.completion for s in chosen], None)
        figures.pop("unanswered_within_3s")
        emit(
            {
                "group": "completion",
                "phase": "play",
                "kind": kind,
                "what": "dispatch -> the user sees the result (ms)",
                **figures,
            }
        )
    for verb in sorted({s.verb for s in play}):
        chosen = [s for s in play if s.verb == verb]
        figures = latency_figures([s.latency for s in chosen], seconds)
        emit({"group": "verb", "phase": "play", "verb": verb, **figures})

    # The bot's event-loop stall reports: a line at time T covers (T - 5 s, T].
    reports = [
        (at, float(m.group(1))) for at, line in stamped if (m := STALL.search(line)) is not None
    ]
    inside = [
        ms for at, ms in reports if at - STALL_REPORT_SECONDS >= start - 0.25 and at <= end + 0.25
    ]
    overlapping = [ms for at, ms in reports if at > start and at - STALL_REPORT_SECONDS < end]
    stall_max = max(inside) if inside else None
    # The same reports name the longest garbage collection: a stall longer than it came from
    # elsewhere (blocking code, or the machine not giving the bot a core).
    collections = [
        float(m.group(1))
        for at, line in stamped
        if (m := COLLECTION.search(line)) is not None
        and at - STALL_REPORT_SECONDS >= start - 0.25
        and at <= end + 0.25
    ]
    emit(
        {
            "group": "event_loop",
            "what": "bot's longest event-loop stall per 5 s report (ms)",
            "reports_inside_window": len(inside),
            "stall_max_ms": stall_max,
            "stall_reports_ms": inside,
            "stall_max_overlapping_ms": max(overlapping) if overlapping else None,
            "reports_over_20ms": sum(1 for ms in inside if ms > BAR_STALL_MS),
            "gc_reports_ms": collections,
            "gc_max_ms": max(collections) if collections else None,
        }
    )

    # Health.
    unanswered = sum(1 for s in bench.samples if s.latency is None or s.latency > DEADLINE)
    tracebacks = bot.tracebacks()
    emit(
        {
            "group": "health",
            "interactions": len(bench.samples),
            "unanswered_within_3s": unanswered,
            "unknown_routes": [f"{r.method} {r.path}" for r in fake.unknown_routes][:20],
            "errors": [
                f"{r.status} {r.method} {r.route or r.path} {r.response}" for r in fake.errors
            ][:20],
            "error_count": len(fake.errors),
            "bot_tracebacks": tracebacks[:20],
            "network_violations": bot.network_violations[:5],
            "driver_anomalies": bench.anomalies,
            "anomaly_examples": bench.anomaly_examples,
            "tables_failed": failed_tables,
        }
    )

    bot_cpu, own_cpu, usage = cpu
    own_ms = sorted(late * 1000.0 for late in own_lateness)
    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    emit(
        {
            "group": "machine",
            "cpu_count": cores,
            "usable_cores": usable,
            "python": sys.version.split()[0],
            "note": "the fake Discord and all table drivers run in this process; the bot in "
            "another process, on the same cores",
            "window_s": round(seconds, 2),
            "bot_cpu_s": None if bot_cpu is None else round(bot_cpu, 2),
            "bot_cpu_share": None if bot_cpu is None else round(bot_cpu / seconds, 2),
            "client_cpu_s": round(own_cpu, 2),
            "client_cpu_share": round(own_cpu / seconds, 2),
            "client_max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            **usage,
            "client_loop_lateness_p99_ms": round(percentile(own_ms, 99), 1) if own_ms else None,
            "client_loop_lateness_max_ms": round(own_ms[-1], 1) if own_ms else None,
            **calibration,
        }
    )

    overall = latency_figures([s.latency for s in play], seconds)
    p99 = overall.get("p99_ms")
    p99_ok = p99 is not None and p99 <= BAR_P99_MS
    stall_ok = stall_max is not None and stall_max <= BAR_STALL_MS
    clean = (
        unanswered == 0
        and not fake.unknown_routes
        and not fake.errors
        and not tracebacks
        and not bot.network_violations
        and failed_tables == 0
        and not bench.anomalies
    )
    emit(
        {
            "group": "summary",
            "tables": tables,
            "seconds": round(seconds, 1),
            "think_ms": args.think_ms,
            "interactions": overall["count"],
            "interactions_per_s": overall.get("per_s"),
            "moves": bench.moves,
            "moves_per_s": round(bench.moves / seconds, 1) if seconds else None,
            "hands_dealt": bench.hands_dealt,
            "matches_finished": bench.matches_finished,
            "p50_ms": overall.get("p50_ms"),
            "p99_ms": p99,
            "max_ms": overall.get("max_ms"),
            "bar_p99_ms": BAR_P99_MS,
            "p99_ok": p99_ok,
            "stall_max_ms": stall_max,
            "bar_stall_ms": BAR_STALL_MS,
            "stall_ok": stall_ok,
            "clean": clean,
            "cpu_count": cores,
            "core_busy_share": usage.get("core_busy_share"),
            "effective_cores_before": calibration.get("effective_cores"),
            "verdict": "PASS" if (p99_ok and stall_ok and clean) else "FAIL",
        }
    )
    if not clean:
        return 2
    return 0 if (p99_ok and stall_ok) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once (100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window (60)")
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
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-calibrate",
        dest="calibrate",
        action="store_false",
        help="skip the 4 s measurement of the machine's real CPU capacity",
    )
    parser.add_argument("--py-spy", metavar="FILE", help="profile the bot during the window")
    args = parser.parse_args()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
