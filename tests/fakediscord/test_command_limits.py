"""Discord's limits on a command registration, as the fake enforces them: localized names,
descriptions and choices, locales Discord has, and the 8,000 characters of a command counted
at each field's longest localization."""

from __future__ import annotations

from typing import Any

from fakediscord.validate import COMMAND_CHARACTERS, check_commands, command_size


def command(**extra: Any) -> dict[str, Any]:
    return {"name": "uno", "description": "Play UNO", "type": 1, **extra}


def messages(problems: list[Any]) -> list[str]:
    return [problem[1] for problem in problems]


def test_a_plain_command_passes() -> None:
    assert check_commands([command()]) == []


def test_localized_names_follow_the_name_rule() -> None:
    ok = command(name_localizations={"de": "uno", "pt-BR": "uno"})
    assert check_commands([ok]) == []
    upper = command(name_localizations={"de": "Uno"})
    assert messages(check_commands([upper])) == ["invalid command name 'Uno'"]
    spaced = command(
        options=[
            {
                "type": 1,
                "name": "new",
                "description": "x",
                "name_localizations": {"fr": "nouvelle table"},
            }
        ]
    )
    assert messages(check_commands([spaced])) == ["invalid command name 'nouvelle table'"]


def test_localizations_need_discords_locales_and_lengths() -> None:
    assert messages(check_commands([command(name_localizations={"es": "uno"})])) == [
        "invalid locale 'es'"  # Discord has es-ES and es-419, not es
    ]
    long = command(description_localizations={"fr": "x" * 101})
    assert messages(check_commands([long])) == ["must be between 1 and 100 in length"]
    choice = {"name": "red", "value": "R", "name_localizations": {"it": "r" * 101}}
    option = {"type": 3, "name": "colour", "description": "x", "choices": [choice]}
    assert messages(
        check_commands(
            [
                command(
                    options=[{"type": 1, "name": "play", "description": "x", "options": [option]}]
                )
            ]
        )
    ) == ["must be between 1 and 100 in length"]


def test_the_size_counts_each_fields_longest_localization() -> None:
    option = {
        "type": 1,
        "name": "new",
        "description": "x" * 10,
        "description_localizations": {"de": "y" * 90},
    }
    cmd = command(options=[option])
    # uno (3) + "Play UNO" (8) + new (3) + the German description (90), not the English (10)
    assert command_size(cmd) == 3 + 8 + 3 + 90


def test_a_command_over_eight_thousand_characters_is_refused() -> None:
    def options(description: str) -> list[dict[str, Any]]:
        return [
            {
                "type": 1,
                "name": f"c{i}",
                "description": "x",
                "description_localizations": {"de": description},
            }
            for i in range(25)
        ]

    fits = command(
        options=[
            {"type": 2, "name": f"g{g}", "description": "x", "options": options("d" * 10)}
            for g in range(25)
        ]
    )
    assert command_size(fits) <= COMMAND_CHARACTERS
    assert check_commands([fits]) == []
    heavy = command(
        options=[
            {"type": 2, "name": f"g{g}", "description": "x", "options": options("d" * 20)}
            for g in range(25)
        ]
    )
    assert command_size(heavy) > COMMAND_CHARACTERS  # only in German: English is small
    assert "Command exceeds maximum size (8000)" in messages(check_commands([heavy]))
