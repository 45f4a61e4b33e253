"""Words for what the engine and the table say: card names, event lines, errors, help.

Pure functions of engine values and table data; no Discord objects here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engine import CardFace, Colour, Rules
from engine.cards import Kind
from engine.events import (
    CardPlayed,
    CardsDrawn,
    CardsFlipped,
    CardsGiven,
    CardsPutDown,
    ChallengeResolved,
    ColourChosen,
    DirectionReversed,
    DrawSkipped,
    Event,
    HandEnded,
    HandsRedealt,
    HandsRotated,
    HandsSwapped,
    HandStarted,
    Passed,
    PileReshuffled,
    PlayerLeft,
    PlayerWentOut,
    StartCardReturned,
    Termination,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoPenalised,
)
from engine.match import DealerChosen, HandScored, MatchEnded, PlayerEliminated, PlayerRetired
from engine.rules import Stacking
from tables.records import (
    ClockPaused,
    LobbyExpired,
    NoHumansLeft,
    Reclaimed,
    Replaced,
    TableIdle,
    TimedOut,
)
from tables.table import TableError

from ._house import explain
from ._i18n import own_form, t, t_plural


# Coloured action kinds and wild kinds: the catalogue key is "card.<notation suffix>"
# ("card.S" for Skip, "card.D5" for UNO Flip's Draw Five, "card.WC" for Wild Draw Colour, …).
def _card_key(kind: Kind) -> str:
    return f"card.{kind.value}"


def colour_name(colour: Colour | str, *, feminine: bool = False) -> str:
    """``Red``, ``Yellow``, ``Green`` or ``Blue``; ``feminine``: the form a feminine card's
    name takes, in a language that has one (French ``Inversion verte``)."""
    letter = colour.value if isinstance(colour, Colour) else colour
    if feminine:
        return own_form(f"colour.{letter}.feminine") or t(f"colour.{letter}")
    return t(f"colour.{letter}")


def card_name(face: CardFace | str) -> str:
    """``Red 7``, ``Blue Skip``, ``Green Reverse``, ``Yellow Draw Two``, ``Wild``, …"""
    if isinstance(face, str):
        face = CardFace.parse(face)
    if face.colour is None:
        return t(_card_key(face.kind))
    colours = {
        "colour": colour_name(face.colour),
        "colour_feminine": colour_name(face.colour, feminine=True),
    }
    if face.kind is Kind.NUMBER:
        return t("card.number", number=face.number, **colours)
    return t(_card_key(face.kind), **colours)


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat}"


def team_name(team: int) -> str:
    """``Team A``, ``Team B``, … (R-TEAM-2)."""
    return t("team.name", letter="ABCDE"[team] if 0 <= team < 5 else str(team + 1))


def cards_count(count: int) -> str:
    """``1 card``, ``3 cards`` — by the current language's plural rule."""
    return t_plural("count.cards", count)


def describe(event: Event, names: Sequence[str]) -> str | None:
    """One sentence for a public event of the table's log (see ``tables.records``)."""
    who = partial(_name, names)
    for words in (_card_words, _call_words, _hand_words, _seat_words):
        text = words(event, who)
        if text is not None:
            return text
    return None


def _card_words(event: Event, who: Callable[[Any], str]) -> str | None:
    """What was played, drawn, given or turned over."""
    match event:
        case HandStarted():
            return t(
                "event.HandStarted",
                dealer=who(event.dealer),
                start=card_name(event.start),
                first=who(event.first),
            )
        case CardPlayed(jump_in=True):
            return t("event.CardPlayed.jump", seat=who(event.seat), card=card_name(event.face))
        case CardPlayed(colour=Colour() as colour):
            return t(
                "event.CardPlayed.wild",
                seat=who(event.seat),
                card=card_name(event.face),
                colour=colour_name(colour),
            )
        case CardPlayed():
            return t("event.CardPlayed", seat=who(event.seat), card=card_name(event.face))
        case ColourChosen():
            return t("event.ColourChosen", seat=who(event.seat), colour=colour_name(event.colour))
        case CardsDrawn():
            cause = event.cause.value
            key = "event.CardsDrawn" if cause == "draw" else f"event.CardsDrawn.{cause}"
            return t(key, seat=who(event.seat), count=event.count, cards=cards_count(event.count))
        case CardsPutDown():  # R-ALT-2 discard_colour, R-ALT-6
            cards = ", ".join(card_name(face) for face in event.faces)
            return t("event.CardsPutDown", seat=who(event.seat), cards=cards)
        case CardsGiven():  # R-ALT-4 give, R-ALT-5 gift, R-ALT-6 take_two
            return t(
                f"event.CardsGiven.{event.cause.value}",
                seat=who(event.seat),
                target=who(event.target),
                cards=cards_count(event.count),
            )
        case CardsFlipped():  # R-FLIP-4
            side = t("side.dark" if event.side else "side.light")
            return t("event.SideFlipped", side=side)
        case DirectionReversed():
            return t("event.DirectionReversed")
        case PileReshuffled() | StartCardReturned():
            return t(f"event.{type(event).__name__}")
    return None


def _call_words(event: Event, who: Callable[[Any], str]) -> str | None:
    """Calls, catches and challenges; hands that change owners."""
    match event:
        case ChallengeResolved():
            key = "guilty" if event.guilty else "innocent"
            return t(
                f"event.ChallengeResolved.{key}",
                challenger=who(event.challenger),
                challenged=who(event.challenged),
            )
        case UnoCalled():
            key = "event.UnoCalled.false" if event.false_call else "event.UnoCalled"
            return t(key, seat=who(event.seat))
        case UnoCaught():
            key = "event.UnoCaught.false" if event.false_catch else "event.UnoCaught"
            return t(key, catcher=who(event.catcher), target=who(event.target))
        case HandsSwapped():
            return t("event.HandsSwapped", seat=who(event.seat), target=who(event.target))
        case HandsRotated() | HandsRedealt():  # R-ALT-2 rotate, R-ALT-6 redeal
            return t(f"event.{type(event).__name__}", seat=who(event.seat))
    return None


def _hand_words(event: Event, who: Callable[[Any], str]) -> str | None:
    """How hands and the match begin and end."""
    match event:
        case HandEnded(termination=Termination.TIME_LIMIT):  # R-ALT-1
            return t("event.HandEnded.time_limit", winner=who(_first(event.ranking)))
        case HandEnded():
            return t("event.HandEnded", winner=who(_first(event.ranking)))
        case HandScored():
            gains = event.gains
            points = gains[event.winner] if 0 <= event.winner < len(gains) else 0
            return t_plural("event.HandScored", points, winner=who(event.winner))
        case MatchEnded():
            return t("event.MatchEnded", winner=who(_first(event.ranking)))
        case DealerChosen():
            return t("event.DealerChosen", dealer=who(event.dealer))
    return None


def _seat_words(event: Event, who: Callable[[Any], str]) -> str | None:
    """What happened to one seat (skipped, out, timed out, …), and the table's own notes."""
    match event:
        case (
            DrawSkipped()
            | TurnSkipped()
            | Passed()
            | UnoPenalised()
            | PlayerWentOut()
            | PlayerLeft()
            | PlayerEliminated()
            | PlayerRetired()
            | TimedOut()
            | Replaced()
            | Reclaimed()
        ):
            return t(f"event.{type(event).__name__}", seat=who(event.seat))
        case ClockPaused():
            return t("event.ClockPaused", seat=who(event.seat), seconds=event.seconds)
        case LobbyExpired() | TableIdle() | NoHumansLeft():
            return t(f"event.{type(event).__name__}")
    return None


def _first(ranking: Sequence[int]) -> int | None:
    return ranking[0] if ranking else None


def error_text(error: TableError) -> str:
    """The polite sentence for a refused table operation."""
    if error.code == "illegal":
        return t(f"error.illegal.{error.params.get('reason', 'wrong_phase')}")
    if error.code == "bad_rules":
        # The engine's reason, in the reader's language (its code names the sentence).
        params = {k: v for k, v in error.params.items() if k not in ("rule", "detail")}
        reason = t(f"rules_error.{error.params.get('rule', 'invalid')}", **params)
        return t("error.bad_rules", detail=reason)
    return t(f"error.{error.code}", **error.params)


def preset_name(preset: str) -> str:
    """A preset's name in the current language (presets added later fall back to the id)."""
    try:
        return t(f"preset.{preset}")
    except KeyError:
        return preset


def rules_summary(rules: Rules) -> str:
    """The main options in one line."""
    scoring = t(f"scoring.{rules.scoring.value}")
    parts = [
        t("summary.target", scoring=scoring, target=rules.target)
        if rules.target is not None
        else scoring
    ]
    if rules.hands is not None:
        parts.append(t_plural("summary.hands", rules.hands))
    if rules.stacking is not Stacking.OFF:
        parts.append(t(f"summary.stacking.{rules.stacking.value}"))
    if rules.jump_in:
        parts.append(t("summary.jump_in"))
    if rules.turn_seconds:
        parts.append(t("summary.turn_seconds", seconds=rules.turn_seconds))
    return "; ".join(parts)


def rules_help(preset: str, rules: Rules) -> list[str]:
    """The table's rules in plain words, one line each: how a hand goes, then a line for
    every house rule that changes it (from the declaration: ``_house.explain``)."""
    lines = [t("help.basic")]
    if rules.flip:  # R-FLIP
        lines.append(t("help.flip"))
        lines.append(t("help.flip.light"))
        lines.append(t("help.flip.dark"))
        if not rules.flip_score_light:
            lines.append(t("help.flip.score"))
    else:
        lines.append(t("help.actions"))
        lines.append(t("help.w4"))  # UNO Flip has no Wild Draw Four
    lines.extend(explain(rules))
    lines.append(t("help.computers"))
    lines.append(t("help.scoring", summary=rules_summary(rules)))
    return [f"**{preset_name(preset)}**", *lines]
