"""Render speed and size: hands of 7, 25 and 60 cards, tables of 4 and 10 seats, and the boards.

The views come from real engine states, dealt exactly with ``engine.game.deal``. Each case is
rendered once to warm the caches (fonts, card art, palette, laid-out text), then ``--runs``
times; one JSON line per case gives the median and 95th-percentile wall milliseconds, the
median CPU milliseconds (``time.process_time``) and the PNG size in bytes. The boards are a
15-line leaderboard (with long names and the reader's line appended), also with its text
caches emptied before each run, a 12-player tournament standings, a 3-player hand score and
a 12-fact stats card. UNO Flip (``flip-*``): hands of 7 and 25 cards and tables of 4 and 10
seats on the dark side (seats fanning their light faces), and a 4-seat table on the light
side. ``names-*``: a table and a leaderboard of names in every script, with emoji.
``emoji-set``: every card emoji the bot needs (issue 20), drawn from empty caches, as at
start-up; its "bytes" are those of all the PNGs together. Cases a tree does not have (the
emojis before issue 20) are left out of ``--vs``.
Targets: a 7-card hand ≤ 5 ms, a 25-card hand, a table and each board ≤ 15 ms, each ≤ 30 KB
(the 60-card hand and the emoji set have no bar).

``--phone`` prints, for hands of 7 to 60 cards, how a 360-px phone column shows them: the
scale, and the narrowest part of a card left visible by its neighbour, in CSS pixels.

    python benchmarks/render_bench.py [--runs 200] [--save DIR]
    python benchmarks/render_bench.py --vs OLD_ROOT [--runs 100]   # before/after, one process
    python benchmarks/render_bench.py --png [--runs 30]            # PNG settings, measured
    python benchmarks/render_bench.py --workers [--vs OLD_ROOT]    # throughput, 1 vs 2 threads
    python benchmarks/render_bench.py --gil                         # what threads can overlap
    python benchmarks/render_bench.py --phone [--vs OLD_ROOT]       # hands in a phone column

``--vs OLD_ROOT`` loads a second copy of ``renders`` from another checkout (for example
``git archive main renders engine | tar -x -C /tmp/before``) under another module name and
times both in the same process, in alternating blocks of ten renders, on CPU time, so a busy
machine slows both alike; the JSON lines then carry both figures and their ratio.

``--png`` takes the palette image each case encodes and times only the PNG encoding, for every
zlib level and strategy, on CPU time, with the bytes it gives.

``--workers`` renders a mixed batch (every case but the cold-cache one) with a pool of 1 and
then 2 threads, in alternating trials, and prints renders per second (wall clock: that is
what parallel work buys) and the CPU used; with ``--processes`` also with pools of 1 and 2
processes. With ``--vs``, the old tree's renders are measured the same way in the same run.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import random
import statistics
import sys
import time
import types
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import renders  # noqa: E402
from engine import Colour, GameState, Rules  # noqa: E402
from engine.cards import classic_deck, flip_deck  # noqa: E402
from engine.game import deal  # noqa: E402

Case = Callable[[], bytes]


def load_tree(root: Path, alias: str) -> types.ModuleType:
    """The ``renders`` package of the checkout at ``root``, imported as ``alias`` (once: a
    forked worker finds its parent's copy)."""
    if alias in sys.modules:
        return sys.modules[alias]
    init = root / "renders" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        alias, init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None, root
    assert spec.loader is not None, root
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


def dealt(counts: list[int], seed: int) -> GameState:
    """Seats holding ``counts`` cards each, faces drawn from a seeded shuffle; seat 0 plays."""
    pool = [face.notation for face in classic_deck().sides[0]]
    pool.remove("R5")
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for n in counts:
        hands.append(pool[at : at + n])
        at += n
    return deal(Rules(), hands=hands, start="R5", draw=[], dealer=len(counts) - 1).state


def flip_dealt(counts: list[int], seed: int, *, dark: bool = True) -> GameState:
    """An UNO Flip deal like :func:`dealt`; seat 0 also holds a red Flip and, with ``dark``,
    plays it, so the dark side is in play (seat 0 then holds ``counts[0]`` cards)."""
    pool = [face.notation for face in flip_deck().sides[0]]
    pool.remove("R5")
    pool.remove("RF")
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for seat, n in enumerate(counts):
        hands.append((["RF"] if seat == 0 else []) + pool[at : at + n])
        at += n
    state = deal(Rules(flip=True), hands=hands, start="R5", draw=[], dealer=len(counts) - 1).state
    return state.apply(0, "RF").state if dark else state


#: Names in every script the fonts cover, with emoji sequences (issue 13).
WORLD_NAMES = [
    "🤖 Ada",
    "Ζωή Łukasz 李小龍",
    "محمد بن عبد الله",
    "שָׁלוֹם עֲלֵיכֶם",
    "क्षत्रिय हिन्दी",
    "👩‍👩‍👧‍👦 👍🏽 🇮🇹",
    "한국어 日本語 ひらがな",
    "𝓐𝓭𝓪 ★ Привет",
    "ภาษาไทย 🐸🎲",
    "Dave the Magnificent Card Shark",
]


def clear_text_caches(r: types.ModuleType) -> None:
    """Empty the caches of measured and rasterized text, in either version of renders."""
    r.grid.prepare.cache_clear()
    for owner, name in ((r.grid, "glyphs"), (getattr(r, "text", None), "shape")):
        cache = getattr(owner, name, None)
        if cache is not None:
            cache.cache_clear()
    text = getattr(r, "text", None)
    if text is not None:
        text.fit_text.cache_clear()


def cases(r: types.ModuleType = renders) -> dict[str, Case]:
    """The renders to time, by name, drawn by the renders package ``r``."""
    seven = dealt([7, 7, 7, 7], seed=1).view_for(0)
    twenty_five = dealt([25, 6], seed=2).view_for(0)
    sixty = dealt([60, 3], seed=3).view_for(0)
    four = dealt([7, 5, 2, 11], seed=4).public_view()
    ten = dealt([7, 1, 3, 8, 9, 2, 6, 7, 4, 5], seed=5).public_view()
    four_names = ["Alice", "Bob 🐸", "Carol", "Dave the Magnificent Card Shark"]
    ten_names = [f"Player {i + 1}" for i in range(10)]
    flip_seven = flip_dealt([7, 7, 7, 7], seed=1).view_for(0)
    flip_twenty_five = flip_dealt([25, 6], seed=2).view_for(0)
    flip_light = flip_dealt([7, 5, 2, 11], seed=4, dark=False).public_view()
    flip_four = flip_dealt([7, 5, 2, 11], seed=4).public_view()
    flip_ten = flip_dealt([7, 1, 3, 8, 9, 2, 6, 7, 4, 5], seed=5).public_view()

    names = [f"Player {i + 1}" for i in range(15)]
    names[2], names[5] = "Dave the Magnificent Card Shark of the North", "Bob 🐸🎲 Ζωή"
    heads = ["#", "Player", "Rating", "Wins", "Matches", "Points"]
    rows = [
        r.LeaderRow(i + 1, names[i], (str(1500 - 17 * i), str(40 - i), str(80 - 2 * i), "12.345"))
        for i in range(15)
    ]
    world_rows = [
        r.LeaderRow(i + 1, WORLD_NAMES[i % 10], (str(1500 - 17 * i), str(40 - i), "7", "1.5"))
        for i in range(15)
    ]
    mine = r.LeaderRow(42, "Me", ("1210", "3", "9", "400"))
    players = [
        (str(i + 1), names[i], "Red Dragons" if i % 2 else "—", str(300 - 10 * i), "9")
        for i in range(12)
    ]
    hand = [("Alice", "+86", "312"), ("Bob", "0", "120"), ("Carol", "0", "77")]
    facts = [(f"Label {i}", f"{i * 137:,}") for i in range(12)]

    def leaderboard() -> bytes:
        return bytes(
            r.render_leaderboard(
                "Leaderboard — season 3", heads, rows, 42, "Page 1/5 · 47 players", mine
            )
        )

    def uncached() -> bytes:
        # Every string new: each cell is measured and rasterized again (the worst case).
        clear_text_caches(r)
        return leaderboard()

    def emoji_set() -> bytes:
        # From empty caches, as the bot's start-up builds them.
        r.emoji._emoji_png.cache_clear()
        r.emoji.emoji_set.cache_clear()
        return b"".join(art.png for art in r.emoji_set())

    emojis = {"emoji-set": emoji_set} if hasattr(r, "emoji_set") else {}
    return {
        **emojis,
        "hand-7": lambda: r.render_hand(seven),
        "hand-25": lambda: r.render_hand(twenty_five),
        "hand-60": lambda: r.render_hand(sixty),
        "table-4": lambda: r.render_table(four, four_names),
        "table-10": lambda: r.render_table(ten, ten_names),
        "names-table-10": lambda: r.render_table(ten, WORLD_NAMES),
        "flip-hand-7-dark": lambda: r.render_hand(flip_seven),
        "flip-hand-25-dark": lambda: r.render_hand(flip_twenty_five),
        "flip-table-4-light": lambda: r.render_table(flip_light, four_names),
        "flip-table-4-dark": lambda: r.render_table(flip_four, four_names),
        "flip-table-10-dark": lambda: r.render_table(flip_ten, ten_names),
        "leaderboard-15": leaderboard,
        "leaderboard-15-uncached": uncached,
        "names-leaderboard-15": lambda: r.render_leaderboard(
            "Leaderboard", heads, world_rows, 3, "Page 1/1", None
        ),
        "standings-12": lambda: r.render_standings(
            "Spring Cup", ["#", "Player", "Team", "Points", "Games"], players, 2
        ),
        "hand-score-3": lambda: r.render_standings("Hand 4", ["Player", "Hand", "Total"], hand),
        "stats-12": lambda: r.render_stats("Season 3", names[2], facts, Colour.GREEN),
    }


#: Cases with a size bar of 30 KB (the 60-card hand and the emoji set have none).
BARRED = frozenset(
    name for name in cases() if name not in ("hand-60", "leaderboard-15-uncached", "emoji-set")
)
#: The width of the column Discord gives a picture on a phone, in CSS pixels (issue 20).
PHONE = 360


def phone(r: types.ModuleType, count: int) -> dict[str, float]:
    """How a 360-px phone column shows a hand of ``count`` cards drawn by ``r``: the scale,
    and the narrowest part of a card its right-hand neighbour leaves visible, in CSS px."""
    width, height, positions = r.hand_layout(count)
    card = r.theme.HAND_CARD_W
    visible = float(card)
    for (x0, y0), (x1, y1) in itertools.pairwise(positions):
        if y0 == y1:
            visible = min(visible, x1 - x0)
    scale = min(1.0, PHONE / width)
    return {
        "scale": round(scale, 3),
        "card_css_px": round(card * scale, 1),
        "narrowest_visible_css_px": round(min(card, visible) * scale, 1),
        "height_css_px": round(height * scale),
    }


def phone_report(old_root: Path | None) -> None:
    trees = {"new": renders}
    if old_root is not None:
        trees = {"old": load_tree(old_root, "renders_old"), **trees}
    for count in (7, 13, 25, 40, 60):
        for label, r in trees.items():
            print(json.dumps({"hand": count, "tree": label, **phone(r, count)}))


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def measure(render: Case, runs: int) -> dict[str, float | int]:
    """Warm up, then time ``runs`` renders (wall and CPU)."""
    started = time.perf_counter()
    png = render()
    cold = (time.perf_counter() - started) * 1000
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        render()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    return {
        "median_ms": round(statistics.median(walls), 2),
        "p95_ms": round(_percentile(walls, 0.95), 2),
        "cpu_ms": round(statistics.median(cpus), 2),
        "cold_ms": round(cold, 1),
        "bytes": len(png),
    }


def key_costs(runs: int) -> dict[str, float]:
    """CPU microseconds of a cache key (no picture drawn): a 25-card hand, a 10-seat table."""
    hand = dealt([25, 6], seed=2).view_for(0)
    table = dealt([7, 1, 3, 8, 9, 2, 6, 7, 4, 5], seed=5).public_view()
    names = WORLD_NAMES
    out = {}
    for label, key in (
        ("hand_key_25_us", lambda: renders.hand_key(hand)),
        ("table_key_10_us", lambda: renders.table_key(table, names)),
    ):
        key()
        cpus = []
        for _ in range(runs):
            cpu = time.process_time()
            key()
            cpus.append((time.process_time() - cpu) * 1e6)
        out[label] = round(statistics.median(cpus), 1)
    return out


def compare(new: Case, old: Case, runs: int, block: int = 10) -> dict[str, float | int]:
    """CPU milliseconds per render of ``new`` and ``old``, alternating blocks of ``block``."""
    new_png, old_png = new(), old()
    times: dict[str, list[float]] = {"new": [], "old": []}
    for _ in range(max(1, runs // block)):
        for label, render in (("old", old), ("new", new)):
            for _ in range(block):
                cpu = time.process_time()
                render()
                times[label].append((time.process_time() - cpu) * 1000)
    new_ms, old_ms = statistics.median(times["new"]), statistics.median(times["old"])
    return {
        "old_cpu_ms": round(old_ms, 2),
        "new_cpu_ms": round(new_ms, 2),
        "speedup": round(old_ms / new_ms, 2),
        "old_bytes": len(old_png),
        "new_bytes": len(new_png),
        "bytes_ratio": round(len(new_png) / len(old_png), 3),
    }


# -- PNG settings ------------------------------------------------------------------------------

LEVELS = range(1, 10)
#: zlib strategies Pillow passes on (``compress_type``): default, filtered, RLE, fixed.
STRATEGIES = {0: "default", 1: "filtered", 3: "rle", 4: "fixed"}


def palette_images() -> dict[str, Any]:
    """The palette image each case hands to the PNG encoder."""
    from renders import assets

    captured: dict[str, Any] = {}
    original = assets.quantize

    def capture(image: Any, *, flip: bool = False) -> Any:
        result = original(image, flip=flip)
        captured["last"] = result
        return result

    assets.quantize = capture  # type: ignore[assignment]
    try:
        out = {}
        for name, render in cases().items():
            if name == "emoji-set":  # RGBA PNGs, not palette images
                continue
            render()
            out[name] = captured["last"]
        return out
    finally:
        assets.quantize = original  # type: ignore[assignment]


def png_sweep(runs: int) -> None:
    """Print, per zlib level and strategy, the encoding CPU time and bytes of every case."""
    from renders.assets import png_bytes

    images = palette_images()
    summary = []
    for level in LEVELS:
        for strategy, label in STRATEGIES.items():
            per_case = {}
            for name, image in images.items():
                size = len(png_bytes(image, level, strategy))
                cpus = []
                for _ in range(runs):
                    cpu = time.process_time()
                    png_bytes(image, level, strategy)
                    cpus.append((time.process_time() - cpu) * 1000)
                per_case[name] = (statistics.median(cpus), size)
            barred = [v for k, v in per_case.items() if k in BARRED]
            row = {
                "level": level,
                "strategy": label,
                "encode_cpu_ms_sum": round(sum(ms for ms, _ in per_case.values()), 2),
                "bytes_sum": sum(size for _, size in per_case.values()),
                "largest_barred_bytes": max(size for _, size in barred),
                "cases": {k: [round(ms, 2), size] for k, (ms, size) in per_case.items()},
            }
            summary.append(row)
            print(json.dumps(row), flush=True)
    base = next(r for r in summary if r["level"] == 6 and r["strategy"] == "default")
    print("# level strategy  encode CPU (sum, vs level 6)  bytes (sum, vs level 6)  largest barred")
    for row in summary:
        cpu, size = row["encode_cpu_ms_sum"], row["bytes_sum"]
        print(
            f"# {row['level']:>5} {row['strategy']:<9} "
            f"{cpu:>8.2f} ms {cpu / base['encode_cpu_ms_sum']:>5.2f}x"
            f"  {size:>8} {size / base['bytes_sum']:>6.3f}x"
            f"  {row['largest_barred_bytes']:>7}"
        )


# -- throughput --------------------------------------------------------------------------------

#: Pillow calls that release the GIL while they work (``ImagingSectionEnter`` in its C code).
_GIL_FREE = ("'encode' of 'ImagingEncoder'", "of 'ImagingCore'")
_GIL_FREE_METHODS = ("'convert'", "'paste'", "'copy'", "'crop'", "'resize'", "'encode'")


def gil_share(rounds: int) -> None:
    """How much of a render runs without the GIL: a bound on what threads can overlap.

    cProfile's own time per Pillow call that releases the GIL (encoding, palette
    conversion, pasting, copying, cropping, resizing), over everything profiled, for the
    mixed batch of :func:`throughput`. The profiler slows the Python parts only, so the share
    is a lower bound, and ``1 / (1 - share / 2)`` the most two threads could gain.
    """
    import cProfile
    import pstats

    named = cases()
    work = _batch(named, 1)
    for name in work:
        named[name]()
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(rounds):
        for name in work:
            named[name]()
    profile.disable()
    stats = pstats.Stats(profile)
    free = sum(
        row[2]
        for (file, _, func), row in stats.stats.items()  # type: ignore[attr-defined]
        if file == "~"
        and any(k in func for k in _GIL_FREE)
        and any(m in func for m in _GIL_FREE_METHODS)
    )
    total = stats.total_tt  # type: ignore[attr-defined]
    share = free / total
    print(
        json.dumps(
            {
                "renders": len(work) * rounds,
                "gil_free_share_at_least": round(share, 3),
                "two_threads_at_most": round(1 / (1 - share / 2), 2),
            }
        )
    )


_WORKER_CASES: dict[str, Case] = {}


def _worker_init(root: str | None) -> None:
    r = load_tree(Path(root), "renders_old") if root else renders
    _WORKER_CASES.update(cases(r))
    for render in _WORKER_CASES.values():
        render()  # warm this process's caches


def _worker_render(name: str) -> int:
    return len(_WORKER_CASES[name]())


def _batch(named: dict[str, Case], repeat: int) -> list[str]:
    # Not the cold cases: the uncached leaderboard, and the emoji set (made once, at start-up).
    names = [n for n in named if n not in ("leaderboard-15-uncached", "emoji-set")]
    return names * repeat


def _trial(pool: Executor, work: list[str], render: Callable[[str], int]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    total = sum(pool.map(render, work))
    assert total > 0
    return time.perf_counter() - wall, time.process_time() - cpu


def throughput(trials: int, repeat: int, old_root: Path | None, processes: bool) -> None:
    """Renders per second with 1 and 2 workers, alternating, for each tree."""
    trees: dict[str, types.ModuleType] = {"new": renders}
    if old_root is not None:
        trees["old"] = load_tree(old_root, "renders_old")
    named = {label: cases(r) for label, r in trees.items()}
    for table in named.values():
        for render in table.values():
            render()  # warm the caches once, before any timing
    results: dict[tuple[str, str, int], list[tuple[float, float]]] = {}
    pools: dict[tuple[str, str, int], Executor] = {}
    for label in trees:
        for workers in (1, 2):
            pools[(label, "threads", workers)] = ThreadPoolExecutor(workers)
            if processes:
                root = str(old_root) if label == "old" else None
                pools[(label, "processes", workers)] = ProcessPoolExecutor(
                    workers, initializer=_worker_init, initargs=(root,)
                )
    work = _batch(named["new"], repeat)
    for key, pool in pools.items():  # start every worker before timing
        label, kind, _ = key
        render = _worker_render if kind == "processes" else _render_in(named[label])
        list(pool.map(render, work[: 2 * len(named[label])]))
    keys = list(pools)
    for trial in range(trials):
        # ABBA order: the machine's drift during a trial weighs on both pool sizes alike.
        for key in keys if trial % 2 == 0 else reversed(keys):
            label, kind, _ = key
            render = _worker_render if kind == "processes" else _render_in(named[label])
            results.setdefault(key, []).append(_trial(pool=pools[key], work=work, render=render))
    for pool in pools.values():
        pool.shutdown()
    print(json.dumps({"machine_2_vs_1_processes_pure_python": round(machine_parallelism(), 2)}))
    for (label, kind, workers), runs in sorted(results.items()):
        walls = [w for w, _ in runs]
        rate = len(work) / statistics.median(walls)
        one = results[(label, kind, 1)]
        # Paired: each trial's 1-worker time over its 2-worker time, then the median.
        ratio = statistics.median(a / b for (a, _), (b, _) in zip(one, runs, strict=True))
        cpu = statistics.median(c for _, c in runs) / len(work) * 1000
        cores = statistics.median(c / w for w, c in runs)
        row = {
            "tree": label,
            "pool": kind,
            "workers": workers,
            "renders": len(work),
            "trials": trials,
            "renders_per_s": round(rate, 1),
            "vs_1_worker": round(ratio, 2),  # median of the paired per-trial ratios
            "parent_cpu_ms_per_render": round(cpu, 2),
            # CPU seconds per wall second of this process: the cores its threads kept busy
            # (processes' work is not counted here).
            "cores_busy": round(cores, 2),
        }
        print(json.dumps(row), flush=True)


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def machine_parallelism(trials: int = 5) -> float:
    """How much faster 2 processes run a pure-Python loop than 1 (paired, median): what
    the machine can give right now. Near 1.0, no second core is free and no pool can scale."""
    ratios = []
    with ProcessPoolExecutor(1) as one, ProcessPoolExecutor(2) as two:
        for pool in (one, two):
            list(pool.map(_spin, [1000] * 2))
        for _ in range(trials):
            walls = []
            for pool in (one, two):
                started = time.perf_counter()
                list(pool.map(_spin, [3_000_000] * 4))
                walls.append(time.perf_counter() - started)
            ratios.append(walls[0] / walls[1])
    return statistics.median(ratios)


def _render_in(named: dict[str, Case]) -> Callable[[str], int]:
    def render(name: str) -> int:
        return len(named[name]())

    return render


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--save", type=Path, help="also write each PNG into this folder")
    parser.add_argument("--vs", type=Path, help="a checkout whose renders to compare with")
    parser.add_argument("--png", action="store_true", help="measure the PNG settings")
    parser.add_argument("--workers", action="store_true", help="throughput, 1 vs 2 workers")
    parser.add_argument("--processes", action="store_true", help="with --workers: also pools")
    parser.add_argument("--gil", action="store_true", help="the share of a render without GIL")
    parser.add_argument("--phone", action="store_true", help="hands in a 360-px phone column")
    parser.add_argument("--trials", type=int, default=7, help="with --workers")
    parser.add_argument("--repeat", type=int, default=4, help="with --workers: batch size")
    args = parser.parse_args()
    if args.png:
        png_sweep(args.runs)
        return
    if args.workers:
        throughput(args.trials, args.repeat, args.vs, args.processes)
        return
    if args.gil:
        gil_share(10)
        return
    if args.phone:
        phone_report(args.vs)
        return
    old = cases(load_tree(args.vs, "renders_old")) if args.vs else None
    for name, render in cases().items():
        if old is not None:
            if name not in old:
                continue
            result = compare(render, old[name], args.runs)
        else:
            result = measure(render, args.runs)
        line = {"case": name, "runs": args.runs, **result}
        line["bar_ok"] = name not in BARRED or line.get("bytes", line.get("new_bytes", 0)) <= 30_000
        print(json.dumps(line), flush=True)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{name}.png").write_bytes(render())
    print(json.dumps({"case": "cache keys", "runs": args.runs, **key_costs(args.runs)}))


if __name__ == "__main__":
    main()
