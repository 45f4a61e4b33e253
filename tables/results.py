"""What a finished match leaves on the board: per-seat tallies and the result to record.

Tallies grow with every engine event of the match (calls, catches, challenges, cards drawn,
colours played) and are stored with the table, so a restart loses none. When the match ends,
:func:`match_result` turns the table into the :class:`storage.MatchResult` that is written in
the same transaction as the finishing save — exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    Event,
    UnoCalled,
    UnoCaught,
)
from engine.match import Match
from storage import MatchResult, PlayerResult

Tally = Mapping[str, int]
COUNTERS = (
    "uno_calls",
    "catches_made",
    "catches_suffered",
    "challenges_won",
    "challenges_lost",
    "cards_drawn",
)
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


def tally(tallies: Sequence[Tally], seats: int, events: Iterable[Event]) -> tuple[Tally, ...]:
    """``tallies`` (one per seat) after ``events``."""
    rows = [dict(tallies[s]) if s < len(tallies) else {} for s in range(seats)]

    def add(seat: int, key: str, amount: int = 1) -> None:
        rows[seat][key] = rows[seat].get(key, 0) + amount

    for event in events:
        if isinstance(event, UnoCalled) and not event.false_call:
            add(event.seat, "uno_calls")
        elif isinstance(event, UnoCaught) and not event.false_catch:
            add(event.catcher, "catches_made")
            add(event.target, "catches_suffered")
        elif isinstance(event, ChallengeResolved):
            # The challenger wins when the Wild Draw Four was played illegally (R-CHAL).
            add(event.challenger, "challenges_won" if event.guilty else "challenges_lost")
        elif isinstance(event, CardsDrawn):
            add(event.seat, "cards_drawn", event.count)
        elif isinstance(event, CardPlayed):
            colour = event.colour if event.face.is_wild else event.face.colour
            if colour is not None:
                add(event.seat, f"colour:{COLOUR_NAMES.get(colour.value, colour.value)}")
        elif isinstance(event, ColourChosen):
            add(event.seat, f"colour:{COLOUR_NAMES.get(event.colour.value, event.colour.value)}")
    return tuple(rows)


def match_result(
    *,
    table_id: str,
    guild_id: int,
    preset: str,
    finished_at: float,
    match: Match,
    seats: Sequence[Any],
    tallies: Sequence[Tally],
    tournament: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> MatchResult:
    """The record of a finished ``match``; ``seats`` are the table's players by seat.

    With teams (R-TEAM-2) every partner of the first-placed player wins.
    """
    standings = {standing.seat: standing for standing in match.standings()}
    heads_up = match.players == 2
    winning_team = match.team_of(match.ranking[0]) if match.ranking else None
    players = []
    for seat, player in enumerate(seats):
        standing = standings[seat]
        left = seat in match.left
        counters = tallies[seat] if seat < len(tallies) else {}
        won = not left and (
            match.team_of(seat) == winning_team if match.rules.teams else standing.place == 1
        )
        if left:
            match_points = -1  # R-TIME-2
        elif heads_up and match.left:
            match_points = 1  # R-TIME-2: the opponent of one who left a two-player game
        else:
            match_points = standing.victory_points or (1 if won else 0)
        players.append(
            PlayerResult(
                user_id=player.user_id,
                name=player.name,
                is_bot=player.is_computer,
                place=standing.place,
                team=match.team_of(seat) if match.rules.teams else None,
                points=standing.score,
                won=won,
                left=left,
                match_points=match_points,
                hands_played=len(match.history),
                hands_won=match.hands_won[seat],
                colours_played={
                    key.partition(":")[2]: value
                    for key, value in counters.items()
                    if key.startswith("colour:")
                },
                team_role=getattr(player, "team_role", None),
                **{key: counters.get(key, 0) for key in COUNTERS},
            )
        )
    return MatchResult(
        table_id=table_id,
        guild_id=guild_id,
        preset=preset,
        finished_at=finished_at,
        players=tuple(players),
        tournament=tournament,
        options=dict(options or {}),
    )
