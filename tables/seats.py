"""Who sits in a seat: a person, a computer player, or a computer holding a person's seat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

#: At most this many players sit at a table (R-SETUP-1).
#: The most seats any table may have (R-ALT-8: twenty with two decks; R-SETUP-1: ten).
MAX_PLAYERS = 20
COMPUTER_NAMES = ("Ada", "Turing", "Hopper", "Lovelace", "Knuth", "Dijkstra", "Liskov", "Ritchie")


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant: a Discord user, or a computer player (``level`` set).

    A computer player added in the lobby has a negative ``user_id``. A person whose seat a
    computer holds after repeated timeouts (R-TIME-3) keeps their id and gets a ``level``:
    the computer plays for them until they come back.
    """

    user_id: int
    name: str
    level: str | None = None
    team_role: int | None = None  # at a tournament table: the role of the player's team
    team: int | None = None  # with teams (R-TEAM-2): the team picked in the lobby, 0-based

    @property
    def is_computer(self) -> bool:
        """Added as a computer player (never a Discord user)."""
        return self.user_id < 0

    @property
    def is_automatic(self) -> bool:
        """The computer plays this seat now."""
        return self.level is not None

    @property
    def is_held(self) -> bool:
        """A person's seat that a computer plays until they come back (R-TIME-3)."""
        return self.level is not None and not self.is_computer

    @property
    def mention(self) -> str | None:
        """The Discord mention of a person; ``None`` for a computer player."""
        return None if self.is_computer else f"<@{self.user_id}>"


def computer_player(level: str, taken: Iterable[int]) -> Player:
    """A new computer player of ``level`` with a free negative id and a robot's name."""
    used = set(taken)
    user_id = next(i for i in range(-1, -MAX_PLAYERS - 2, -1) if i not in used)
    name = f"🤖 {COMPUTER_NAMES[(-user_id - 1) % len(COMPUTER_NAMES)]}"
    return Player(user_id, name, level)


def seat_teams(players: tuple[Player, ...], teams: int) -> tuple[Player, ...] | None:
    """Seat ``players`` for ``teams`` teams (R-TEAM-2): partners sit alternately, so seat ``i``
    belongs to team ``i % teams``, as the engine counts.

    Players keep the team they picked; the others fill the smallest teams, in joining order.
    Every player gets their team. ``None`` when the picks cannot be balanced (a team holds
    more than its share) or the players cannot form equal teams.
    """
    if teams < 2 or len(players) % teams:
        return None
    share = len(players) // teams
    members: list[list[Player]] = [[] for _ in range(teams)]
    for player in players:
        if player.team is not None and 0 <= player.team < teams:
            members[player.team].append(player)
    if any(len(team) > share for team in members):
        return None
    for player in players:
        if player.team is None or not 0 <= player.team < teams:
            smallest = min(range(teams), key=lambda t: (len(members[t]), t))
            members[smallest].append(player)
    return tuple(
        replace(members[seat % teams][seat // teams], team=seat % teams)
        for seat in range(len(players))
    )
