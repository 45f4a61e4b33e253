"""The PostgreSQL runs of the storage tests: skipped in one line without a server, never
skipped in CI (``.ci/run`` sets the URL and ``REQUIRE_POSTGRES=1``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fakediscord.patience import PROCESS_PATIENCE
from tests.databases import EXAMPLE_URL, REQUIRE_VARIABLE, SKIP_REASON, URL_VARIABLE

ROOT = Path(__file__).resolve().parent.parent
ONE_TEST = "tests/storage/test_repository.py::test_committed_state_survives_reopening"


def run_pytest(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in (URL_VARIABLE, REQUIRE_VARIABLE)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", ONE_TEST],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )


def test_without_a_url_the_postgresql_runs_skip_with_one_line_saying_how() -> None:
    done = run_pytest()
    assert done.returncode == 0, done.stdout
    assert "1 passed, 1 skipped" in done.stdout
    assert done.stdout.count(SKIP_REASON) == 1
    assert f"{URL_VARIABLE}={EXAMPLE_URL}" in SKIP_REASON


def test_required_postgresql_runs_fail_instead_of_skipping() -> None:
    done = run_pytest(**{REQUIRE_VARIABLE: "1"})
    assert done.returncode != 0
    assert "1 passed, 1 error" in done.stdout  # the fixture fails: the test cannot run
    assert f"{REQUIRE_VARIABLE} is set but {URL_VARIABLE} is not" in done.stdout
    unreachable = run_pytest(**{URL_VARIABLE: "postgresql://postgres@127.0.0.1:9/test"})
    assert unreachable.returncode != 0
    assert "cannot reach the server" in unreachable.stdout


def test_ci_sets_the_url_and_requires_the_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {URL_VARIABLE}={EXAMPLE_URL}\n" in ci
    assert f"export {REQUIRE_VARIABLE}=1\n" in ci
    assert ci.index(f"export {REQUIRE_VARIABLE}") < ci.index('bash -c "$TEST_COMMAND"')
