"""Words for what the engine and the table say: card names, event lines, errors, help.

Pure functions of engine values and table data; no Discord objects here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Action, CardFace, Colour, Rules
from engine.actions import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from engine.cards import Kind
from engine.rules import ChallengeGuilty, ChallengeReveal, Stacking, UnoPenalty
from tables.table import TableError

from ._i18n import t


# Coloured action kinds and wild kinds: the catalogue key is "card.<notation suffix>"
# ("card.S" for Skip, "card.D5" for UNO Flip's Draw Five, "card.WC" for Wild Draw Colour, …).
def _card_key(kind: Kind) -> str:
    return f"card.{kind.value}"


def colour_name(colour: Colour | str) -> str:
    """``Red``, ``Yellow``, ``Green`` or ``Blue``."""
    letter = colour.value if isinstance(colour, Colour) else colour
    return t(f"colour.{letter}")


def card_name(face: CardFace | str) -> str:
    """``Red 7``, ``Blue Skip``, ``Green Reverse``, ``Yellow Draw Two``, ``Wild``, …"""
    if isinstance(face, str):
        face = CardFace.parse(face)
    if face.colour is None:
        return t(_card_key(face.kind))
    colour = colour_name(face.colour)
    if face.kind is Kind.NUMBER:
        return t("card.number", colour=colour, number=face.number)
    return t(_card_key(face.kind), colour=colour)


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
    if kind == "CardsFlipped":  # R-FLIP-4
        side = t("side.dark" if record.get("side") else "side.light")
        return t("event.SideFlipped", side=side)
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
        "TimedOut",
        "Replaced",
        "ComputerJoined",
    ):
        return t(f"event.{kind}", seat=who("seat"))
    if kind in ("LobbyExpired", "TableIdle", "NoHumansLeft"):
        return t(f"event.{kind}")
    return None


def error_text(error: TableError) -> str:
    """The polite sentence for a refused table operation."""
    if error.code == "illegal":
        return t(f"error.illegal.{error.params.get('reason', 'wrong_phase')}")
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
        parts.append(t("summary.hands", hands=rules.hands))
    if rules.stacking is not Stacking.OFF:
        parts.append(t(f"summary.stacking.{rules.stacking.value}"))
    if rules.jump_in:
        parts.append(t("summary.jump_in"))
    if rules.turn_seconds:
        parts.append(t("summary.turn_seconds", seconds=rules.turn_seconds))
    return "; ".join(parts)


def rules_help(preset: str, rules: Rules) -> list[str]:
    """The table's rules in plain words, one line each."""
    lines = [t("help.basic")]
    if rules.flip:  # R-FLIP
        lines.append(t("help.flip"))
        lines.append(t("help.flip.light"))
        lines.append(t("help.flip.dark"))
        lines.append(t("help.flip.score_light" if rules.flip_score_light else "help.flip.score"))
    if rules.draw_only_if_stuck:
        lines.append(t("help.draw_only_if_stuck"))
    if rules.draw_until_playable:
        lines.append(t("help.draw_until_playable"))
    if not rules.flip:
        lines.append(t("help.actions"))
    reveal = (
        "help.w4.reveal_challenger"
        if rules.challenge_reveal is ChallengeReveal.CHALLENGER
        else "help.w4.reveal_nobody"
    )
    # UNO Flip has no Wild Draw Four; its challenged wilds reveal the hand the same way.
    w4 = [t(reveal)] if rules.flip else [t("help.w4"), t(reveal)]
    if rules.challenge_guilty is ChallengeGuilty.RETRACT:
        w4.append(t("help.w4.retract"))
    lines.append(" ".join(w4))
    if rules.stacking is not Stacking.OFF:
        lines.append(t(f"help.stack.{rules.stacking.value}"))
    if rules.jump_in:
        lines.append(t("help.jump_in"))
    automatic = rules.uno_penalty is UnoPenalty.AUTOMATIC
    lines.append(t("help.uno.automatic" if automatic else "help.uno.catch"))
    if rules.false_call_penalty:
        lines.append(t("help.false_call"))
    if rules.no_action_finish:
        lines.append(t("help.no_action_finish"))
    if rules.play_to_last:
        lines.append(t("help.play_to_last"))
    lines.append(t("help.scoring", summary=rules_summary(rules)))
    return [f"**{preset_name(preset)}**", *lines]
