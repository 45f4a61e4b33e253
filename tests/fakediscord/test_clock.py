"""The fake clock: moved by the test, shared with the bot process, never backwards."""

from __future__ import annotations

import asyncio
import json
import math
import struct
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakediscord import REPO_ROOT, FakeClock

from .test_fake_discord import World, _world


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


def test_the_clock_moves_forward_only_and_keeps_its_offset_in_the_file() -> None:
    clock = FakeClock()
    try:
        assert abs(clock.now() - time.time()) < 0.5
        assert clock.advance(10) == 10
        assert abs(clock.now() - (time.time() + 10)) < 0.5
        assert abs(clock.monotonic() - (time.monotonic() + 10)) < 0.5
        for wrong in (-1.0, math.nan, math.inf):
            with pytest.raises(ValueError, match="forward"):
                clock.advance(wrong)
        assert clock.offset == 10
        clock.advance(0.5)
        (stored,) = struct.unpack("d", Path(clock.path).read_bytes())
        assert stored == clock.offset == 10.5
    finally:
        clock.close()
    assert not Path(clock.path).exists()


async def test_a_sleep_on_the_clock_ends_when_the_test_advances_it() -> None:
    clock = FakeClock()
    try:
        sleeper = asyncio.create_task(clock.sleep(600))
        await asyncio.sleep(0.1)
        assert not sleeper.done()
        clock.advance(599)
        await asyncio.sleep(0.1)
        assert not sleeper.done()
        clock.advance(1)
        await asyncio.wait_for(sleeper, 1.0)
    finally:
        clock.close()


def test_the_launcher_shifts_time_and_wakes_a_sleeping_loop() -> None:
    """In a process on the fake clock, time.time/monotonic and asyncio follow the offset,
    perf_counter does not, and a loop asleep for 1000 s wakes when the test advances by
    1000 s although nothing else happens in it (the launcher's clock thread pokes it)."""
    clock = FakeClock()
    child = (
        "import asyncio, json, sys, time\n"
        "from fakediscord import launch\n"
        "real_time, real_mono, perf = time.time, time.monotonic, time.perf_counter\n"
        f"launch.install_clock({clock.path!r})\n"
        "async def main():\n"
        "    loop = asyncio.get_running_loop()\n"
        "    start = real_mono()\n"
        "    woken = loop.create_future()\n"
        "    loop.call_later(1000, woken.set_result, None)  # armed before the test advances\n"
        "    print('asleep', flush=True)\n"
        "    await woken\n"
        "    print(json.dumps({'real': real_mono() - start,\n"
        "        'time': time.time() - real_time(), 'monotonic': time.monotonic() - real_mono(),\n"
        "        'loop': loop.time() - real_mono(),\n"
        "        'ns': time.monotonic_ns() / 1e9 - real_mono(),\n"
        "        'perf_counter_kept': time.perf_counter is perf}), flush=True)\n"
        "asyncio.run(main())\n"
    )
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", child], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "asleep"
        clock.advance(1000)
        out, _ = proc.communicate(timeout=20)
        readings = json.loads(out)
    finally:
        clock.close()
    assert readings["real"] < 5  # woke within seconds, not after 1000 s
    for key in ("time", "monotonic", "loop", "ns"):
        assert abs(readings[key] - 1000) < 0.5, (key, readings)
    assert readings["perf_counter_kept"]


async def _clock_readings(world: World) -> dict[str, float]:
    result = await world.fake.slash(world.alice, world.general, "demo clock")
    readings: dict[str, float] = json.loads(result.content)
    return readings


async def test_the_bot_process_runs_on_the_fake_clock(world: World) -> None:
    fake = world.fake
    await fake.pass_time(1000)
    readings = await _clock_readings(world)
    assert abs(readings["time"] - fake.clock.now()) < 1.0
    assert abs(readings["loop"] - readings["monotonic"]) < 1.0
    # perf_counter and monotonic read the same clock on Linux: only monotonic moved.
    assert abs(readings["monotonic"] - readings["perf_counter"] - 1000) < 1.0
    assert abs(readings["datetime"] - time.time()) < 5.0  # datetime stays on real time
    world.fake.assert_clean()
    world.bot.assert_healthy()


async def test_a_bot_timer_fires_when_time_passes_and_the_gateway_stays_up(world: World) -> None:
    fake = world.fake
    later = await fake.slash(world.alice, world.general, "demo later", seconds=600, text="done")
    assert later.content == "Waiting 600.0s"
    await later.done()  # the bot is asleep on its timer before time passes
    resumes, identifies = fake.resume_count, fake.identify_count
    started = time.monotonic()
    await fake.pass_time(600)
    await world.bot.wait_for_output("later: edited")
    assert time.monotonic() - started < 10
    assert later.content == "done"
    assert later.message is not None
    waiting, edited = later.message.history
    assert edited.at - waiting.at >= 600
    # pass_time kept the gateway fed: no reconnect for the ten minutes.
    assert (fake.resume_count, fake.identify_count) == (resumes, identifies)
    fake.assert_clean()
    world.bot.assert_healthy()


async def test_a_jump_past_the_receive_timeout_makes_discord_py_resume(world: World) -> None:
    """What clock.py warns about: discord.py's gateway receive times out on the loop clock."""
    fake = world.fake
    # An answer first: the bot has read READY (a jump before that finds no session to resume).
    (await fake.slash(world.alice, world.general, "demo secret")).assert_answered_within(3.0)
    resumes = fake.resume_count
    fake.clock.advance(120)
    await fake.wait_for(lambda: fake.resume_count > resumes and fake.connected, within=10)
    assert fake.identify_count == 1  # a RESUME, not a new session
    result = await fake.slash(world.alice, world.general, "demo secret")
    result.assert_answered_within(3.0)
    fake.assert_clean()
    world.bot.assert_healthy()
