"""Enum members as module constants, for the transition's hot paths.

On CPython 3.11 reading a member as a class attribute (``Phase.PLAY``) goes through the
slow lookup hook that ``EnumType.__getattr__`` installs: about 140 ns, some fourteen times
the read of a global. A transition reads a dozen of them, so :mod:`engine.step` and
:mod:`engine.game` read these instead (the very same objects).

>>> PHASE_PLAY is Phase.PLAY and CAUSE_DRAW is DrawCause.DRAW
True
"""

from __future__ import annotations

from .cards import Kind
from .events import DrawCause, Termination
from .rules import ChallengeGuilty, ChallengeReveal, SkipVariant, Stacking, UnoPenalty
from .state import Phase

PHASE_PLAY = Phase.PLAY
PHASE_CHOOSE_COLOUR = Phase.CHOOSE_COLOUR
PHASE_DRAWN = Phase.DRAWN
PHASE_PENALTY = Phase.PENALTY
PHASE_CHALLENGE = Phase.CHALLENGE
PHASE_HAND_OVER = Phase.HAND_OVER
PHASE_SWAP = Phase.SWAP
PHASE_GIVE = Phase.GIVE
PHASE_GIFT = Phase.GIFT
PHASE_CHAIN = Phase.CHAIN
PHASE_COLOUR_ROUND = Phase.COLOUR_ROUND

KIND_NUMBER = Kind.NUMBER
KIND_SKIP = Kind.SKIP
KIND_REVERSE = Kind.REVERSE
KIND_DRAW_TWO = Kind.DRAW_TWO
KIND_WILD = Kind.WILD
KIND_WILD_DRAW_FOUR = Kind.WILD_DRAW_FOUR
KIND_SWAP_HANDS = Kind.SWAP_HANDS
KIND_BLANK = Kind.BLANK
KIND_DRAW_ONE = Kind.DRAW_ONE
KIND_FLIP = Kind.FLIP
KIND_WILD_DRAW_TWO = Kind.WILD_DRAW_TWO
KIND_DRAW_FIVE = Kind.DRAW_FIVE
KIND_SKIP_EVERYONE = Kind.SKIP_EVERYONE
KIND_WILD_DRAW_COLOUR = Kind.WILD_DRAW_COLOUR

STACKING_OFF = Stacking.OFF
STACKING_CUMULATIVE = Stacking.CUMULATIVE
UNO_PENALTY_AUTOMATIC = UnoPenalty.AUTOMATIC
GUILTY_RETRACT = ChallengeGuilty.RETRACT
REVEAL_CHALLENGER = ChallengeReveal.CHALLENGER
SKIP_VARIANT_OFF = SkipVariant.OFF

CAUSE_DRAW = DrawCause.DRAW
CAUSE_PENALTY = DrawCause.PENALTY
CAUSE_UNO = DrawCause.UNO
CAUSE_CHALLENGE = DrawCause.CHALLENGE
CAUSE_FALSE_CALL = DrawCause.FALSE_CALL
CAUSE_EFFECT = DrawCause.EFFECT

END_WENT_OUT = Termination.WENT_OUT
END_BLOCKED = Termination.BLOCKED
END_ABANDONED = Termination.ABANDONED
END_TIME_LIMIT = Termination.TIME_LIMIT
