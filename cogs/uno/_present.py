"""Words for what the engine and the table say: card names, event lines, errors, help.

Pure functions of engine values and table data; no Discord objects here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Action, CardFace, Colour, Rules
from engine.actions import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from engine.cards import Kind
from engine.rules import ChallengeGuilty, ChallengeReveal, Scoring, Stacking, UnoPenalty

from ._strings import t
from ._table import TableError

_KIND_KEYS = {Kind.SKIP: "card.S", Kind.REVERSE: "card.R", Kind.DRAW_TWO: "card.D2"}
_WILD_KEYS = {Kind.WILD: "card.W", Kind.WILD_DRAW_FOUR: "card.W4", Kind.SWAP_HANDS: "card.WH"}


def colour_name(colour: Colour | str) -> str:
    """``Red``, ``Yellow``, ``Green`` or ``Blue``."""
    letter = colour.value if isinstance(colour, Colour) else colour
    return t(f"colour.{letter}")


def card_name(face: CardFace | str) -> str:
    """``Red 7``, ``Blue Skip``, ``Green Reverse``, ``Yellow Draw Two``, ``Wild``, …"""
    if isinstance(face, str):
        face = CardFace.parse(face)
    if face.colour is None:
        return t(_WILD_KEYS[face.kind])
    colour = colour_name(face.colour)
    if face.kind is Kind.NUMBER:
        return t("card.number", colour=colour, number=face.number)
    return t(_KIND_KEYS[face.kind], colour=colour)


def action_name(action: Action, names: Sequence[str]) -> str:
    """A short label for an action (used in selects and help)."""
    if isinstance(action, Play):
        label = card_name(action.face)
        if action.colour is not None:
            label += f" → {colour_name(action.colour)}"
        if action.target is not None:
            label += f" ⇄ {_name(names, action.target)}"
        return label
    if isinstance(action, Draw):
        return t("button.draw")
    if isinstance(action, Pass):
        return t("button.pass")
    if isinstance(action, ChooseColour):
        return colour_name(action.colour)
    if isinstance(action, Challenge):
        return t("button.challenge")
    if isinstance(action, CallUno):
        return t("button.uno")
    assert isinstance(action, CatchUno)
    return t("button.catch", name=_name(names, action.target))


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"#{seat}"


def cards_word(count: int) -> str:
    """``card`` or ``cards``."""
    return t("table.cards.one") if count == 1 else t("table.cards.many")


def describe(record: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One sentence for a public event record (see ``_events.public_record``)."""
    kind = record.get("e")

    def who(key: str) -> str:
        return _name(names, record.get(key))

    if kind == "HandStarted":
        return t(
            "event.HandStarted",
            dealer=who("dealer"),
            start=card_name(record["start"]),
            first=who("first"),
        )
    if kind == "CardPlayed":
        card = card_name(record["face"])
        if record.get("jump_in"):
            return t("event.CardPlayed.jump", seat=who("seat"), card=card)
        if record.get("colour"):
            return t(
                "event.CardPlayed.wild",
                seat=who("seat"),
                card=card,
                colour=colour_name(record["colour"]),
            )
        return t("event.CardPlayed", seat=who("seat"), card=card)
    if kind == "ColourChosen":
        return t("event.ColourChosen", seat=who("seat"), colour=colour_name(record["colour"]))
    if kind == "CardsDrawn":
        cause = record.get("cause", "draw")
        count = int(record.get("count", 0))
        key = "event.CardsDrawn" if cause == "draw" else f"event.CardsDrawn.{cause}"
        return t(key, seat=who("seat"), count=count, cards=cards_word(count))
    if kind == "ChallengeResolved":
        key = "guilty" if record.get("guilty") else "innocent"
        return t(
            f"event.ChallengeResolved.{key}",
            challenger=who("challenger"),
            challenged=who("challenged"),
        )
    if kind == "UnoCalled":
        key = "event.UnoCalled.false" if record.get("false_call") else "event.UnoCalled"
        return t(key, seat=who("seat"))
    if kind == "UnoCaught":
        key = "event.UnoCaught.false" if record.get("false_catch") else "event.UnoCaught"
        return t(key, catcher=who("catcher"), target=who("target"))
    if kind == "HandsSwapped":
        return t("event.HandsSwapped", seat=who("seat"), target=who("target"))
    if kind == "HandEnded":
        ranking = record.get("ranking") or []
        return t("event.HandEnded", winner=_name(names, ranking[0] if ranking else None))
    if kind == "HandScored":
        gains = record.get("gains") or []
        winner = record.get("winner")
        points = gains[winner] if isinstance(winner, int) and winner < len(gains) else 0
        return t("event.HandScored", winner=who("winner"), points=points)
    if kind == "MatchEnded":
        ranking = record.get("ranking") or []
        return t("event.MatchEnded", winner=_name(names, ranking[0] if ranking else None))
    if kind == "DealerChosen":
        return t("event.DealerChosen", dealer=who("dealer"))
    if kind == "DirectionReversed":
        return t("event.DirectionReversed")
    if kind in ("PileReshuffled", "StartCardReturned"):
        return t(f"event.{kind}")
    if kind in (
        "DrawSkipped",
        "TurnSkipped",
        "Passed",
        "UnoPenalised",
        "PlayerWentOut",
        "PlayerLeft",
        "PlayerEliminated",
        "PlayerRetired",
    ):
        return t(f"event.{kind}", seat=who("seat"))
    return None


def error_text(error: TableError) -> str:
    """The polite sentence for a refused table operation."""
    if error.code == "illegal":
        return t(f"error.illegal.{error.params.get('reason', 'wrong_phase')}")
    return t(f"error.{error.code}", **error.params)


def rules_summary(rules: Rules) -> str:
    """The main options in one line."""
    parts = []
    scoring = {
        Scoring.WINNER_TAKES: "winner takes the points",
        Scoring.PENALTY: "penalty points, lowest wins",
        Scoring.ELIMINATION: "elimination",
        Scoring.PLACEMENT: "placement points",
    }[rules.scoring]
    if rules.target is not None:
        parts.append(f"{scoring}, to {rules.target}")
    else:
        parts.append(scoring)
    if rules.hands is not None:
        parts.append(f"{rules.hands} hands")
    if rules.stacking is not Stacking.OFF:
        parts.append(f"stacking: {rules.stacking.value}")
    if rules.jump_in:
        parts.append("jump-in")
    if rules.turn_seconds:
        parts.append(f"{rules.turn_seconds}s turns")
    return "; ".join(parts)


def rules_help(preset: str, rules: Rules) -> list[str]:
    """The table's rules in plain words, one line each."""
    lines = [
        "Match the top card by colour, number or symbol, or play a wild. "
        "Instead of playing you may draw one card; a playable drawn card may be played at once.",
    ]
    if rules.draw_only_if_stuck:
        lines.append("You may draw only when you have no playable card.")
    if rules.draw_until_playable:
        lines.append("When you draw, you keep drawing until a playable card comes.")
    lines.append(
        "Skip: the next player loses the turn. Reverse: the direction changes (with two "
        "players it acts as a Skip). Draw Two: the next player draws 2 and loses the turn."
    )
    lines.append(
        "Wild Draw Four: only legal with no card of the current colour — the next player may "
        "challenge: if you were bluffing you draw 4, if not the challenger draws 6."
        + (
            " The challenged hand is shown to the challenger."
            if rules.challenge_reveal is ChallengeReveal.CHALLENGER
            else " Nobody sees the challenged hand; the bot checks it."
        )
        + (
            " A bluffer also takes the card back."
            if rules.challenge_guilty is ChallengeGuilty.RETRACT
            else ""
        )
    )
    if rules.stacking is Stacking.DEFLECT:
        lines.append("Stacking (deflect): answer a Draw Two with a Draw Two to pass it on.")
    elif rules.stacking is Stacking.CUMULATIVE:
        lines.append(
            "Stacking (cumulative): answer a Draw Two or Wild Draw Four with another; the "
            "total grows until someone takes it all."
        )
    if rules.jump_in:
        lines.append("Jump-in: anyone holding the identical card may play it out of turn.")
    if rules.uno_penalty is UnoPenalty.AUTOMATIC:
        lines.append(
            "Call UNO when you play your second-to-last card, or you draw 2 automatically."
        )
    else:
        lines.append(
            "Call UNO when you play your second-to-last card; until the next player acts, "
            "anyone may catch you and you draw 2."
        )
    if rules.false_call_penalty:
        lines.append("A false UNO call or a wrong catch costs 2 cards.")
    if rules.no_action_finish:
        lines.append("Your last card may not be an action or wild card.")
    if rules.play_to_last:
        lines.append("When someone goes out, the others play on until one is left.")
    lines.append(f"Scoring: {rules_summary(rules)}.")
    return [f"**{preset}**", *lines]
