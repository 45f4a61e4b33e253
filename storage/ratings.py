"""Skill ratings: OpenSkill's Plackett–Luce model behind three small functions.

Only this module imports ``openskill``, so the model (or the library) can change in one place.
A rating is ``(mu, sigma)``: the estimated skill and its uncertainty. Players see one
conservative number, :func:`display`: ``1000 + 20 × (mu − 3·sigma)``. A new player shows 1000
(OpenSkill's defaults make ``mu − 3·sigma`` zero) and climbs as the model becomes sure of them;
the factor 20 spreads the usual ordinal range (about −5 to 35) over roughly 900–1700, which
reads like the Elo numbers people know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 20.0
_MODEL = PlackettLuce()  # OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate: 99.7 % of the belief lies above it."""
        return self.mu - 3.0 * self.sigma


# New players, and every computer player in every match, start here.
DEFAULT = Rating(_MODEL.mu, _MODEL.sigma)


def display(rating: Rating) -> float:
    """The number shown on the boards (round it for display)."""
    return DISPLAY_BASE + DISPLAY_SCALE * rating.ordinal


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[float]) -> list[list[Rating]]:
    """The ratings after one match: ``teams[i]`` finished with ``ranks[i]`` (lower is better).

    A lone player is a team of one; equal ranks are ties. The result has the shape of
    ``teams``.
    """
    if len(teams) != len(ranks):
        raise ValueError("one rank per team")
    if len(teams) < 2:
        # Nobody to compare with (everyone else left before the end): nothing to learn.
        return [list(team) for team in teams]
    model_teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    rated = _MODEL.rate(model_teams, ranks=[float(rank) for rank in ranks])
    return [[Rating(r.mu, r.sigma) for r in team] for team in rated]
