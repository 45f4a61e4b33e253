"""``RequestRule``: which REST requests a test-made misbehaviour of the fake applies to.

Both the 429 rules (``ratelimits.py``) and the fault rules (``faults.py``) pick their requests
the same way: a method (``"*"``: any), a route pattern of the fake (``"*"``: any route) and
some of the route's parameters (``channel_id=table.id``). Of the matching requests the rule
fires on every ``every``-th; with ``probability`` it then fires on that fraction of those, drawn
from a ``random.Random(seed)`` of its own, so a soak test is the same run after run. ``limit``
caps how many times it fires; ``.off()`` stops it. ``seen`` counts the matching requests,
``answered`` the ones it fired on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["ANY", "RequestRule"]

#: Matches any method or any route.
ANY = "*"


@dataclass(eq=False)
class RequestRule:
    """Pick matching requests (see the module docstring); subclasses say what to answer."""

    method: str
    route: str  # a route pattern of the fake, e.g. "/channels/{channel_id}/messages", or "*"
    every: int = 1
    probability: float | None = None  # fire on this fraction of the every-th matching requests
    seed: int = 0  # of the rule's own random.Random, used only with probability
    limit: int | None = None  # fire at most this many times (None: no cap)
    params: dict[str, str] = field(default_factory=dict)  # the route's parameters to match
    active: bool = True
    seen: int = 0  # matching requests so far
    answered: int = 0  # requests the rule fired on so far
    _random: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ValueError("every must be at least 1")
        if self.probability is not None and not 0.0 <= self.probability <= 1.0:
            raise ValueError("probability must be between 0 and 1")
        if self.limit is not None and self.limit < 0:
            raise ValueError("limit must not be negative")
        self._random = random.Random(self.seed)

    def matches(self, method: str, route: str, params: dict[str, str]) -> bool:
        return (
            self.active
            and self.method in (ANY, method)
            and self.route in (ANY, route)
            and all(params.get(key) == value for key, value in self.params.items())
        )

    def hit(self) -> bool:
        """Count one matching request; True when the rule fires on it."""
        self.seen += 1
        if self.limit is not None and self.answered >= self.limit:
            return False
        if self.seen % self.every:
            return False
        if self.probability is not None and self._random.random() >= self.probability:
            return False
        self.answered += 1
        return True

    def off(self) -> None:
        """Stop firing (the counts stay for the test to read)."""
        self.active = False
