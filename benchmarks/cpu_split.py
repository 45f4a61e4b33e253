"""Where a bot's CPU goes: each thread's CPU time, split by what its py-spy samples were doing.

``benchmarks/bot_bench.py --py-spy stacks.txt`` records the bot with py-spy (raw collapsed
stacks, one line per distinct stack: ``thread (TID): NAME;frame;frame… COUNT``) and reads
the CPU time of each of the process's threads from ``/proc/PID/task/TID/stat`` at the start
and the end of the measured window. py-spy alone cannot give CPU shares on a busy machine:
it samples every thread that is not idle, so a thread that waits for a core (or for the GIL,
right after a wait: a worker thread woken by a queue, the event loop back from its selector)
counts as much as one that runs. So the CPU comes from ``/proc``, thread by thread, and only
the split *within* a thread comes from its samples: a thread's CPU is shared among the
parts below in proportion to its samples in each, leaving out the samples still at a wait
(:data:`WAITS`). Two threads belong to one part whole: aiosqlite's (the database) and the
test launcher's fake clock (the rest; the floor bot has it too).

A sample belongs to the part of the innermost frame that names one (a ``json.dumps`` called
by discord.py is Discord I/O, one called by storage is the database):

* **pictures**: ``renders/`` and Pillow — drawing and encoding (in worker threads);
* **database**: ``storage/``, aiosqlite and its thread, sqlite3, asyncpg;
* **Discord I/O**: discord.py, aiohttp, yarl, multidict, ssl, asyncio's socket transports —
  what the floor bot pays too: building payloads, JSON, HTTP, the gateway;
* **engine**: ``engine/`` and ``players/`` — the rules and computer players;
* **event loop**: asyncio's own machinery (tasks, callbacks, waking the loop from other
  threads), thread pools;
* **the bot's code**: ``cogs/``, ``tables/``, ``hosting/``, ``bot.py``;
* **the rest**: anything else (the test launcher's fake clock thread, logging, gc, …).

    python benchmarks/cpu_split.py RUN.json STACKS.txt   # a run record of bot_bench

prints the split as a Markdown table (ms of CPU per interaction and share).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REST = "the rest"
#: The parts, in the order they are printed, and the frames that belong to each: a path
#: prefix, and optionally the start of the function's name.
PARTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("pictures", (("renders/", ""), ("PIL/", ""))),
    ("database", (("storage/", ""), ("aiosqlite/", ""), ("sqlite3/", ""), ("asyncpg/", ""))),
    (
        "Discord I/O",
        (
            ("discord/", ""),
            ("aiohttp/", ""),
            ("yarl/", ""),
            ("multidict/", ""),
            ("ssl.py", ""),
            ("asyncio/selector_events.py", "_SelectorSocketTransport"),
            ("asyncio/sslproto.py", ""),
        ),
    ),
    ("engine", (("engine/", ""), ("players/", ""))),
    (REST, (("tests/", ""),)),
    ("event loop", (("asyncio/", ""), ("concurrent/", ""), ("threading.py", ""))),
    ("the bot's code", (("cogs/", ""), ("tables/", ""), ("hosting/", ""), ("bot.py", ""))),
)
ORDER = (*dict.fromkeys(name for name, _ in PARTS if name != REST), REST)
#: Innermost frames where a thread waits (py-spy samples it when the wait ends and it waits
#: for the GIL): a thread pool's worker waiting for work, the event loop in its selector.
WAITS = (("concurrent/futures/thread.py", "_worker"), ("selectors.py", ""))
#: Threads that belong to one part whole, by the start of their name.
WHOLE_THREADS = (("fake-discord-clock", REST), ("Thread-", "database"))
WAITING = "waiting"
THREAD = re.compile(r"^thread \((\d+)\): ?(.*)$")
FRAME = re.compile(r"^(?P<function>.*?) \((?P<path>[^():]+)(?::\d+)?\)$")


def _matches(frame: str, rules: tuple[tuple[str, str], ...]) -> bool:
    found = FRAME.match(frame)
    path, function = (found.group("path"), found.group("function")) if found else (frame, "")
    return any(path.startswith(p) and function.startswith(f) for p, f in rules)


def part_of(frames: list[str]) -> str:
    """The part a sample belongs to: that of its innermost frame that names one
    (:data:`WAITING` for a sample still at a wait)."""
    if frames and _matches(frames[-1], WAITS):
        return WAITING
    for frame in reversed(frames):
        for name, rules in PARTS:
            if _matches(frame, rules):
                return name
    return REST


def whole_part(thread_name: str) -> str | None:
    """The part a whole thread belongs to, if it is one of :data:`WHOLE_THREADS`
    (``Thread-1 (_connection_worker_thread)`` is aiosqlite's)."""
    for start, part in WHOLE_THREADS:
        if thread_name.startswith(start) and (
            part != "database" or "_connection_worker_thread" in thread_name
        ):
            return part
    return None


def read_stacks(path: str | Path) -> dict[int, tuple[str, Counter[str]]]:
    """py-spy's raw output: per thread id, its name and its samples per part."""
    threads: dict[int, tuple[str, Counter[str]]] = {}
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        head, *frames = stack.split(";")
        found = THREAD.match(head)
        if found is None:
            continue
        tid, name = int(found.group(1)), found.group(2).strip()
        threads.setdefault(tid, (name, Counter()))[1][part_of(frames)] += int(count)
    return threads


def thread_cpu(pid: int | None) -> dict[int, float]:
    """CPU seconds (user + system) of each thread of ``pid`` so far, by thread id; empty
    where there is no ``/proc``."""
    if pid is None:
        return {}
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[int, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(tid)] = (int(fields[11]) + int(fields[12])) / ticks
    return out


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> dict[str, float]:
    """CPU seconds each thread used between two :func:`thread_cpu` readings (JSON keys)."""
    return {str(tid): round(cpu - before.get(tid, 0.0), 3) for tid, cpu in after.items()}


def split(
    stacks: dict[int, tuple[str, Counter[str]]], cpu: dict[str, float], interactions: int
) -> dict[str, Any]:
    """ms of CPU per interaction in each part, and each thread's share of the CPU: each
    thread's CPU (from ``/proc``) shared among the parts as its samples are. A thread with CPU
    but no sample (py-spy missed it) counts under the rest."""
    per_part: Counter[str] = Counter()
    per_thread: dict[str, float] = {}
    for tid_text, seconds in cpu.items():
        if seconds <= 0:
            continue
        name, samples = stacks.get(int(tid_text), (f"thread {tid_text}", Counter()))
        label = re.sub(r"_\d+$", "_N", name.split(" (")[0])  # asyncio_0 .. asyncio_5 together
        per_thread[label] = per_thread.get(label, 0.0) + seconds
        whole = whole_part(name)
        working = {p: c for p, c in samples.items() if p != WAITING}
        total = sum(working.values())
        if whole is not None or not total:
            per_part[whole or REST] += seconds
            continue
        for part, count in working.items():
            per_part[part] += seconds * count / total
    everything = sum(per_part.values())
    n = max(interactions, 1)
    return {
        "cpu_ms_per_interaction": round(everything * 1000 / n, 3),
        "parts_ms_per_interaction": {p: round(per_part[p] * 1000 / n, 3) for p in ORDER},
        "parts_share": {
            p: round(per_part[p] / everything, 3) if everything else 0.0 for p in ORDER
        },
        "threads_ms_per_interaction": {
            t: round(s * 1000 / n, 3) for t, s in sorted(per_thread.items(), key=lambda x: -x[1])
        },
    }


def table(splits: dict[str, dict[str, Any]]) -> str:
    """The splits (by bot: before, after …) as one Markdown table."""
    kinds = list(splits)
    head = "| part | " + " | ".join(f"{k}: ms / interaction (share)" for k in kinds) + " |"
    rows = [head, "| --- |" + " --- |" * len(kinds)]
    for part in ORDER:
        cells = [
            f"{s['parts_ms_per_interaction'][part]:.2f} ({s['parts_share'][part]:.0%})"
            for s in splits.values()
        ]
        rows.append(f"| {part} | " + " | ".join(cells) + " |")
    total = [f"**{s['cpu_ms_per_interaction']:.2f}**" for s in splits.values()]
    rows.append("| **all** | " + " | ".join(total) + " |")
    return "\n".join(rows)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        print("usage: cpu_split.py RUN.json STACKS.txt", file=sys.stderr)
        return 2
    record = json.loads(Path(sys.argv[1]).read_text())
    result = split(read_stacks(sys.argv[2]), record["threads_cpu_s"], record["interactions"])
    print(json.dumps(result, indent=1))
    print(table({record.get("bot", "bot"): result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
