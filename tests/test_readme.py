"""The README serves a server admin first, and what it says is true.

Its first lines are the two commands a new user needs (CI runs the test one exactly), then
where the token comes from and the invite; every link it (or a page in docs/) makes leads
somewhere inside the repository; the engine's presets are the engine's. The steps
themselves run in ``tests/e2e/test_readme_steps.py``; the settings table is checked in
``tests/test_settings_files.py``, the service's commands in ``tests/test_deploy.py``; the
permissions table here, against what ``uno-bot invite`` prints.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules import PRESETS
from hosting import cli
from hosting.invite import NEEDED
from tests.conftest import STDLIB_ONLY
from tests.test_architecture import FLOORS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ENGLISH = (ROOT / "cogs/uno/locales/en/LC_MESSAGES/uno.po").read_text(encoding="utf-8")
#: ``invite`` needs no bot: nothing here runs or syncs.
RUNNERS = cli.Runners(run=lambda _: cli.EXIT_FAILED, sync=lambda _, __: cli.EXIT_FAILED)


def readme() -> str:
    return README.read_text(encoding="utf-8")


def first_screen() -> str:
    """The part before the first rule: what a visitor reads before scrolling."""
    return readme().split("\n---\n", 1)[0]


def readme_commands() -> list[str]:
    return re.findall(r"```\n(.+?)\n```", first_screen(), flags=re.S)


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith("bot.py")
    assert "pytest" in commands[1]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    match = re.search(r"^TEST_COMMAND='(.+)'$", ci, flags=re.M)
    assert match is not None
    assert match.group(1) == readme_commands()[1]
    assert 'bash -c "$TEST_COMMAND"' in ci


def test_ci_runs_every_test_on_the_floors_in_two_halves() -> None:
    """.ci/run splits the floors suite by the e2e marker: the halves are complements but for
    the tests of code that no dependency reaches (``stdlib_only``)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    floors = ci[ci.index("-c constraints/floors.txt") :]
    halves = re.findall(r'"\$\{floors\[@\]\}" -m (e2e|"[^"]+") ', floors)
    assert halves == ["e2e", '"not e2e and not stdlib_only"']
    assert "floors=(.venv-floors/bin/python -m pytest -p no:cacheprovider)" in floors


def test_the_floors_skip_only_tests_of_code_no_dependency_reaches() -> None:
    """Each package whose tests the floors skip imports no third-party module, nor does any
    package it imports (the floors of tests/test_architecture.py)."""
    for folder in STDLIB_ONLY:
        package = folder.removeprefix("tests/").rstrip("/")
        own, third_party = FLOORS[package]
        assert third_party == set(), package
        assert all(FLOORS[name][1] == set() for name in own), package


def test_the_first_screen_tells_an_admin_what_to_do() -> None:
    """What the bot is (pictures of the table and a hand), the two commands, where the token
    comes from and that no privileged intent is needed, and the invite."""
    head = first_screen()
    assert len(head.splitlines()) <= 45
    pictures = re.findall(r"!\[[^\]]+\]\((docs/pictures/[a-z]+\.png)\)", head)
    assert pictures == ["docs/pictures/table.png", "docs/pictures/hand.png"]
    for picture in pictures:
        assert (ROOT / picture).stat().st_size < 100_000  # small: the first thing loaded
    assert "https://discord.com/developers/applications" in head
    assert "Reset Token" in head
    assert "no privileged intent" in head
    assert "uno-bot invite" in head
    assert "#running-it-for-months" in head


def test_sections_come_in_the_order_an_admin_needs_them() -> None:
    top = re.findall(r"^## (.+)$", readme(), flags=re.M)
    assert top == ["Playing", "Running it for months", "Development"]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M)
    return {_slug(h) for h in headings}


PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_inside_the_repository(page: Path) -> None:
    """Links to ../shared/... pointed outside the repository: a reader of a clone, or of the
    repository's web page, found nothing there."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:, file: links go where they say
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        assert where.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert where.exists(), f"{page.name}: {target} does not exist"
        if anchor and where.suffix == ".md":
            assert anchor in _anchors(where), f"{page.name}: no heading for #{anchor}"


def test_the_engine_section_lists_every_preset() -> None:
    section = readme().split("\n### The engine\n", 1)[1]
    line = next(line for line in section.splitlines() if line.startswith("- Presets:"))
    assert re.findall(r"`([a-z]+)`", line.split(";", 1)[0]) == list(PRESETS)


def _section(heading: str) -> str:
    """The README's text from ``heading`` to the next heading of any level."""
    text = readme().split(heading, 1)[1]
    return re.split(r"^#+ ", text, maxsplit=1, flags=re.M)[0]


def test_the_permissions_table_is_what_uno_bot_invite_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each permission and its reason as ``uno-bot invite`` prints them, in its order, and
    the same number: an admin reading either reads the same thing."""
    assert cli.main(["invite", "--client-id", "42424242424242424"], RUNNERS) == cli.EXIT_OK
    printed = capsys.readouterr().out
    number = re.search(
        r"^Scopes: bot, applications\.commands\. Permissions \((\d+)\):$", printed, re.M
    )
    assert number is not None
    listed = re.findall(r"^  ([^:]+): (.+)$", printed, flags=re.M)
    section = _section("### Inviting the bot")
    assert f"exactly these permissions, **{number.group(1)}**:" in section
    rows = re.findall(r"^\| (?!permission |---)(.+?) \| (.+?) \|$", section, flags=re.M)
    assert rows == listed
    assert [label for label, _ in rows] == [label for _, label, _ in NEEDED]


def _english(key: str) -> str:
    """The English catalogue's text for ``key``."""
    found = re.search(rf'^msgid "{re.escape(key)}"\nmsgstr "(.*)"$', ENGLISH, flags=re.M)
    assert found is not None, key
    return found.group(1)


def test_calling_uno_fairly_quotes_the_hands_buttons_as_they_read() -> None:
    """At two cards the hand offers each play with the call only (its buttons:
    tests/cogs/test_custom_ids.py); the README quotes their labels from the catalogue."""
    section = readme().split("**Calling UNO fairly.**", 1)[1].split("\n\n", 1)[0]
    card = _english("button.play_and_uno").format(card="Red 7")
    wild = _english("button.wild").format(card=_english("card.W"), colour="Red")
    assert f'"{card}"' in section
    assert f'"{wild}"' in section
    assert f"**{_english('button.uno')}**" in section
    assert "twice" not in section  # the old menu offered each play twice: it is gone
    assert "and call UNO!" not in readme()
