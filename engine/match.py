"""A match: a series of hands with dealer selection and rotation (R-SETUP-2), scoring
(R-SCORE-1 … R-SCORE-7) and teams (R-TEAM-2, R-TEAM-3).

>>> from engine import Rules
>>> match = Match.new(Rules.from_preset("classic"), 3, seed=7).match
>>> match.hand.seats, match.scores
(3, (0, 0, 0))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from . import rng
from .actions import Action
from .cards import Kind
from .errors import EngineError, IllegalActionError, Reason
from .events import Event, Termination
from .game import end_by_time, new_hand, remove_seat
from .rules import Rules, Scoring
from .state import GameState, HandOutcome

# Counters of the seed's random streams that are not deck shuffles.
_DEALER_STREAM = 1_000_000
_HAND_SEED_STREAM = 2_000_000

#: R-SCORE-7 victory points by final place, for one winner and for pairs.
VICTORY_POINTS = (12, 6, 2, 0)
VICTORY_POINTS_PAIRS = (10, 6, 4, 0)
#: R-TEAM-3 points for the teams' places across tables.
TEAM_AWARDS = (5, 3, 2, 1)


@dataclass(slots=True, unsafe_hash=True)  # an event (see engine.events)
class DealerDraw(Event):
    """R-SETUP-2: ``seat`` drew ``face`` in round ``round`` of choosing the dealer."""

    round: int
    seat: int
    face: str


@dataclass(slots=True, unsafe_hash=True)  # an event (see engine.events)
class DealerChosen(Event):
    """The first dealer, by the highest number drawn (or at random with ``random_dealer``)."""

    dealer: int
    at_random: bool


@dataclass(slots=True, unsafe_hash=True)  # an event (see engine.events)
class HandScored(Event):
    """Hand ``number`` (1-based) is scored: ``gains`` per seat and the new ``totals``."""

    number: int
    winner: int
    gains: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(slots=True, unsafe_hash=True)  # an event (see engine.events)
class PlayerEliminated(Event):
    """R-SCORE-3: ``seat`` reached the target and leaves the match."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)  # an event (see engine.events)
class PlayerRetired(Event):
    """R-TIME-2: ``seat`` left the match (or was removed) and loses it."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)  # an event (see engine.events)
class MatchEnded(Event):
    """The match is over; ``ranking`` lists seats from first to last."""

    ranking: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """What a finished hand contributed to the match."""

    dealer: int
    winner: int
    ranking: tuple[int, ...]
    gains: tuple[int, ...]
    cards_left: tuple[int, ...]
    last_drawer: int | None


@dataclass(frozen=True, slots=True)
class MatchTransition:
    """The result of a match step: the new match and what happened."""

    match: Match
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final (or running) standings."""

    place: int
    seat: int
    score: int
    hands_won: int
    victory_points: int | None = None
    game_points: int | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """A match in progress or over. ``hand`` is the current (or last) hand."""

    rules: Rules
    players: int
    seed: int
    dealer: int
    hand: GameState
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    eliminated: tuple[int, ...] = ()  # in order of elimination (R-SCORE-3)
    left: tuple[int, ...] = ()  # players who left, in order: they lose the match (R-TIME-2)
    history: tuple[HandRecord, ...] = ()
    ranking: tuple[int, ...] = ()  # set when the match is over
    version: int = 0

    # -- creation --------------------------------------------------------------------------

    @classmethod
    def new(
        cls, rules: Rules, players: int, *, seed: int, dealer: int | None = None
    ) -> MatchTransition:
        """Seat ``players``, choose the first dealer (unless given) and deal the first hand."""
        if not 2 <= players <= rules.max_players:
            raise EngineError(
                f"a match seats 2 to {rules.max_players} players (R-SETUP-1, R-ALT-8)"
            )
        if rules.players is not None and players != rules.players:
            raise EngineError(f"these rules seat exactly {rules.players} players")
        if rules.teams and players % rules.teams:
            raise EngineError(f"{players} players cannot form {rules.teams} equal teams")
        events: list[Event] = []
        if dealer is None:
            dealer = choose_dealer(rules, players, seed, events)
        elif not 0 <= dealer < players:
            raise EngineError(f"no seat {dealer} to deal")
        hand = new_hand(rules, players, dealer=dealer, seed=_hand_seed(seed, 0), playing=None)
        events.extend(hand.events)
        match = cls(
            rules=rules,
            players=players,
            seed=seed,
            dealer=dealer,
            hand=hand.state,
            scores=(0,) * players,
            hands_won=(0,) * players,
        )
        return MatchTransition(match, tuple(events))

    # -- reading ---------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the match has a final ranking."""
        return bool(self.ranking)

    @property
    def hand_number(self) -> int:
        """1-based number of the current (or last) hand."""
        return len(self.history) + (0 if self.hand.is_over else 1)

    def team_of(self, seat: int) -> int:
        """The team of ``seat``: partners sit alternately (R-TEAM-2); no teams, own seat."""
        return seat % self.rules.teams if self.rules.teams else seat

    def team_scores(self) -> dict[int, int]:
        """Total points per team (per seat without teams)."""
        totals: dict[int, int] = {}
        for seat, score in enumerate(self.scores):
            team = self.team_of(seat)
            totals[team] = totals.get(team, 0) + score
        return totals

    def standings(self) -> tuple[Standing, ...]:
        """Seats ranked now (final once the match is over), with the R-SCORE-6 tie-breaks."""
        ranking = self.ranking or self._rank()
        vps = _victory_points(self.rules, len(ranking)) if self.rules.victory_points else None
        placement = self.rules.scoring is Scoring.PLACEMENT
        return tuple(
            Standing(
                place=i + 1,
                seat=seat,
                score=self.scores[seat],
                hands_won=self.hands_won[seat],
                victory_points=vps[i] if vps is not None else None,
                game_points=len(ranking) - i if placement else None,
            )
            for i, seat in enumerate(ranking)
        )

    # -- playing ---------------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> MatchTransition:
        """Apply an action to the current hand; score the hand if it ends."""
        if self.is_over:
            raise IllegalActionError(Reason.MATCH_OVER)
        hand, hand_events = self.hand.apply(seat, action)
        match = replace(self, hand=hand, version=self.version + 1)
        if hand.termination is None:  # the hand goes on: nothing to score
            return MatchTransition(match, hand_events)
        events = list(hand_events)
        outcome = hand.outcome()
        assert outcome is not None
        return MatchTransition(match._score(outcome, events), tuple(events))

    def active_seats(self) -> tuple[int, ...]:
        """Seats still in the match: neither eliminated nor gone."""
        return tuple(
            s for s in range(self.players) if s not in self.eliminated and s not in self.left
        )

    def remove_player(self, seat: int) -> MatchTransition:
        """R-TIME-2: ``seat`` leaves (or times out for good) and loses the match.

        Their cards go under the draw pile and the hand goes on without them (see
        :func:`engine.game.remove_seat`); with one player left, the match is over.
        """
        if self.is_over:
            raise IllegalActionError(Reason.MATCH_OVER)
        if seat not in self.active_seats():
            raise IllegalActionError(Reason.NOT_PLAYING, f"seat {seat} is not in the match")
        events: list[Event] = [PlayerRetired(seat)]
        match = replace(self, left=(*self.left, seat), version=self.version + 1)
        if not self.hand.is_over and self.hand.playing[seat]:
            step = remove_seat(self.hand, seat)
            events.extend(step.events)
            match = replace(match, hand=step.state)
            outcome = step.state.outcome()
            if outcome is not None:
                match = match._score(outcome, events)
        if not match.is_over and len(match.active_seats()) <= 1:
            ranking = match._rank()
            events.append(MatchEnded(ranking))
            match = replace(match, ranking=ranking)
        return MatchTransition(match, tuple(events))

    def time_up(self) -> MatchTransition:
        """R-ALT-1: the match time ran out. The hand in progress ends at once, won by the
        player with the fewest cards (``time_limit_winner = fewest_points``: the fewest
        points in hand), ties as R-SCORE-6, and is scored as if that player had gone out;
        then the match ends with the standings it has.

        The engine reads no clock: the table calls this when the ``time_limit`` (minutes)
        has passed since the match began. Refused once the match is over.
        """
        if self.ranking:
            raise IllegalActionError(Reason.MATCH_OVER)
        events: list[Event] = []
        match = replace(self, version=self.version + 1)
        if not self.hand.is_over:
            ended = end_by_time(self.hand)
            events.extend(ended.events)
            match = replace(match, hand=ended.state)
            outcome = ended.state.outcome()
            assert outcome is not None
            match = match._score(outcome, events)
        if not match.is_over:
            ranking = match._rank()
            events.append(MatchEnded(ranking))
            match = replace(match, ranking=ranking)
        return MatchTransition(match, tuple(events))

    def next_hand(self) -> MatchTransition:
        """Deal the next hand; the deal passes to the next seat still playing (R-SETUP-2)."""
        if self.is_over:
            raise IllegalActionError(Reason.MATCH_OVER)
        if not self.hand.is_over:
            raise IllegalActionError(Reason.HAND_NOT_OVER)
        active = self.active_seats()
        playing = [seat in active for seat in range(self.players)]
        step = 1 if self.rules.clockwise else -1
        dealer = self.dealer
        for _ in range(self.players):
            dealer = (dealer + step) % self.players
            if playing[dealer]:
                break
        number = len(self.history)
        hand = new_hand(
            self.rules,
            self.players,
            dealer=dealer,
            seed=_hand_seed(self.seed, number),
            playing=playing,
        )
        match = replace(self, hand=hand.state, dealer=dealer, version=self.version + 1)
        return MatchTransition(match, hand.events)

    # -- scoring ---------------------------------------------------------------------------

    def _score(self, outcome: HandOutcome, events: list[Event]) -> Match:
        rules = self.rules
        if outcome.termination is Termination.TIME_LIMIT:
            # R-ALT-1: scored as if the winner had gone out, their cards counting nothing.
            points = list(outcome.points)
            points[outcome.winner] = 0
            outcome = replace(outcome, points=tuple(points))
        gains = hand_gains(rules, outcome, [self.team_of(s) for s in range(self.players)])
        scores = tuple(a + b for a, b in zip(self.scores, gains, strict=True))
        won = list(self.hands_won)
        won[outcome.winner] += 1
        record = HandRecord(
            dealer=self.dealer,
            winner=outcome.winner,
            ranking=outcome.ranking,
            gains=gains,
            cards_left=outcome.cards,
            last_drawer=self.hand.last_drawer,
        )
        events.append(HandScored(len(self.history) + 1, outcome.winner, gains, scores))
        match = replace(self, scores=scores, hands_won=tuple(won), history=(*self.history, record))
        if rules.scoring is Scoring.ELIMINATION:
            match = match._eliminate(events)
        if match._is_finished():
            ranking = match._rank()
            events.append(MatchEnded(ranking))
            match = replace(match, ranking=ranking)
        return match

    def _eliminate(self, events: list[Event]) -> Match:
        target = self.rules.target
        assert target is not None
        alive = list(self.active_seats())
        over = [s for s in alive if self.scores[s] >= target]
        if len(over) == len(alive):  # nobody would be left: the lowest score survives
            over.remove(min(over, key=lambda s: (self.scores[s], s)))
        # Those over the target leave, the highest score first (it ranks lowest).
        over.sort(key=lambda s: (-self.scores[s], s))
        events.extend(PlayerEliminated(s) for s in over)
        return replace(self, eliminated=(*self.eliminated, *over))

    def _is_finished(self) -> bool:
        rules = self.rules
        if len(self.active_seats()) <= 1:
            return True
        if rules.scoring is Scoring.ELIMINATION:
            return False
        if rules.hands is not None and len(self.history) >= rules.hands:
            return True
        if rules.target is None:
            return False
        return max(self.team_scores().values()) >= rules.target

    def _rank(self) -> tuple[int, ...]:
        """Order seats by the scoring method, then the R-SCORE-6 tie-breaks."""
        last = self.history[-1] if self.history else None
        cards = last.cards_left if last else (0,) * self.players
        drew_last = last.last_drawer if last else None
        team_totals = self.team_scores()
        lowest_wins = self.rules.scoring in (Scoring.PENALTY, Scoring.ELIMINATION)

        def key(seat: int) -> tuple[int, int, int, int, int]:
            total = team_totals[self.team_of(seat)]
            return (
                total if lowest_wins else -total,
                -self.hands_won[seat],  # more hands won
                cards[seat],  # fewer cards in hand
                1 if seat == drew_last else 0,  # the player who drew last loses
                seat,
            )

        gone = tuple(reversed(self.left))  # whoever left ranks last, the first to leave lowest
        if self.rules.scoring is Scoring.ELIMINATION:
            return (*sorted(self.active_seats(), key=key), *reversed(self.eliminated), *gone)
        stayed = [s for s in range(self.players) if s not in self.left]
        return (*sorted(stayed, key=key), *gone)


def hand_gains(rules: Rules, outcome: HandOutcome, teams: Sequence[int]) -> tuple[int, ...]:
    """Points each seat earns from one hand (R-SCORE-1 … R-SCORE-4, R-TEAM-2).

    ``teams[seat]`` is the seat's team (its own number without teams).
    """
    seats = len(outcome.points)
    gains = [0] * seats
    scoring = rules.scoring
    if scoring is Scoring.WINNER_TAKES:
        winner = outcome.winner
        gains[winner] = sum(outcome.points[s] for s in range(seats) if teams[s] != teams[winner])
    elif scoring is Scoring.PLACEMENT:
        places = len(outcome.ranking)
        for i, seat in enumerate(outcome.ranking):
            gains[seat] = places - i
    else:  # PENALTY, ELIMINATION: everyone keeps what is left in their hand
        for seat in outcome.ranking:
            gains[seat] = outcome.points[seat]
    return tuple(gains)


def choose_dealer(rules: Rules, players: int, seed: int, events: list[Event]) -> int:
    """R-SETUP-2: highest number draws deal; action cards count as no number; ties redraw."""
    if rules.random_dealer:
        dealer = int(rng.stream(seed, _DEALER_STREAM).random() * players)
        events.append(DealerChosen(dealer, at_random=True))
        return dealer
    deck = rules.deck()
    counter = _DEALER_STREAM
    pile = rng.shuffled(range(deck.size), seed=seed, counter=counter)
    contenders = list(range(players))
    round_number = 0
    while True:
        round_number += 1
        drawn: dict[int, int] = {}
        for seat in contenders:
            if not pile:
                counter += 1
                pile = rng.shuffled(range(deck.size), seed=seed, counter=counter)
            face = deck.face(pile.pop())
            events.append(DealerDraw(round_number, seat, face.notation))
            drawn[seat] = (
                face.number if face.kind is Kind.NUMBER and face.number is not None else -1
            )
        best = max(drawn.values())
        contenders = [s for s in contenders if drawn[s] == best]
        if len(contenders) == 1:
            events.append(DealerChosen(contenders[0], at_random=False))
            return contenders[0]


def _hand_seed(seed: int, number: int) -> int:
    return int(rng.stream(seed, _HAND_SEED_STREAM + number).random() * 2**53)


def _victory_points(rules: Rules, places: int) -> tuple[int, ...]:
    """R-SCORE-7 for a 4-player table; other sizes keep the table's head and give 0 below."""
    table = VICTORY_POINTS_PAIRS if rules.teams == 2 else VICTORY_POINTS
    head = table[: max(places - 1, 1)]
    return (*head, *(0,) * (places - len(head)))


def team_standings(points: Mapping[str, int]) -> list[tuple[str, int, int]]:
    """R-TEAM-3: rank teams by the sum of their players' points and award 5, 3, 2, 1.

    Returns ``(team, points, award)`` from first to last; teams level on points share the
    higher award (beyond the fourth place the award is 0).

    >>> team_standings({"blue": 20, "red": 31, "green": 20})
    [('red', 31, 5), ('blue', 20, 3), ('green', 20, 3)]
    """
    ordered = sorted(points.items(), key=lambda item: (-item[1], item[0]))
    result: list[tuple[str, int, int]] = []
    for i, (team, total) in enumerate(ordered):
        if i and total == ordered[i - 1][1]:
            award = result[-1][2]
        else:
            award = TEAM_AWARDS[i] if i < len(TEAM_AWARDS) else 0
        result.append((team, total, award))
    return result
