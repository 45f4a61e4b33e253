"""Command line: ``python -m engine simulate …`` and ``python -m engine replay FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .errors import EngineError, SnapshotError
from .rules import MAX_SEATS, PRESETS, Rules
from .serialize import GameRecord, ReplayError, replay, to_dict
from .simulate import simulate


def _option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of ``--set``: a whole number, true/false, none, or a word."""
    name, eq, value = text.partition("=")
    if not eq or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    word = value.strip().lower()
    parsed: Any = value.strip()
    if word in ("true", "false"):
        parsed = word == "true"
    elif word == "none":
        parsed = None
    elif word.lstrip("-").isdigit():
        parsed = int(word)
    return name.strip(), parsed


def _simulate(args: argparse.Namespace) -> int:
    try:
        rules = Rules.from_preset(args.preset, **dict(args.set))
        if rules.players is not None and rules.players != args.players:
            raise EngineError(f"the {args.preset} preset seats exactly {rules.players} players")
        if args.players > rules.max_players:
            raise EngineError(f"these rules seat at most {rules.max_players} players")
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = simulate(
        rules,
        preset=args.preset,
        players=args.players,
        hands=args.hands,
        seed=args.seed,
        check=args.check,
        keep_record=args.record is not None,
    )
    for problem in report.problems[:20]:
        print(f"violation: {problem}", file=sys.stderr)
    if args.record is not None and report.record is not None:
        with open(args.record, "w", encoding="utf-8") as out:
            json.dump(report.record.to_dict(), out, indent=1)
    print(json.dumps(report.summary()))
    return 1 if report.violations else 0


def _replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as src:
            data = json.load(src)
        record = GameRecord.from_dict(data)
        final = replay(record)
    except ReplayError as exc:
        print(f"error: {exc.describe()}", file=sys.stderr)
        return 2
    except (OSError, json.JSONDecodeError, SnapshotError) as exc:
        print(f"error: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(to_dict(final), indent=1))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play seeded random hands")
    sim.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--hands", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--check", action="store_true", help="validate the state after every step")
    sim.add_argument("--record", metavar="FILE", help="write the first match's record here")
    sim.add_argument(
        "--set",
        action="append",
        default=[],
        type=_option,
        metavar="NAME=VALUE",
        help="override a rule option of the preset, e.g. --set zero_spell=swap (repeatable)",
    )
    sim.set_defaults(run=_simulate)
    rep = commands.add_parser("replay", help="replay a record and print the final snapshot")
    rep.add_argument("file")
    rep.set_defaults(run=_replay)
    args = parser.parse_args(argv)
    if args.command == "simulate" and not 2 <= args.players <= MAX_SEATS:
        parser.error(f"--players must be between 2 and {MAX_SEATS}")
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
