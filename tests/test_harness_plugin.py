"""The pytest plugin: switched off unless asked, one item per case and edition, readable ids,
results gathered from every xdist worker, clean failures."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

# Imported here, before any in-process run: pytester forgets the modules a run imports, and
# PyYAML's C loader cannot be imported twice into one interpreter.
import conformance.collect  # noqa: F401

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
CORRECT = "--mtg-engine=py:tests.fakes.miniatures:Correct"
BROKEN = "--mtg-engine=py:tests.fakes.miniatures:PlaysLandsAnyTime"
# The frozen copy of the first bundled cases (the bundled suite keeps growing).
FROZEN = ("--mtg-no-bundled", f"--mtg-cases={Path(__file__).parent / 'fakes' / 'cases'}")
CASE = """\
- id: mine.life
  rules: [cr2004:101.3]
  editions: [cr2004, modern]
  quote: 每位玩家擁有20點的總生命值
  summary: Life is 20.
  setup: {turn: {number: 3, active: A, step: precombat_main}}
  steps:
    - expect: {players.A.life: 20}
"""


def run(pytester, *args):
    """An in-process run, without what would make it slow (hypothesis's plugin, assertion
    rewriting of every module the run imports afresh)."""
    return pytester.runpytest_inprocess(*args, "-p", "no:hypothesispytest", "-p",
                                        "no:cacheprovider", "--assert=plain")


@pytest.fixture
def cases(pytester):
    folder = pytester.mkdir("mycases")
    (folder / "mine.yaml").write_text(CASE, encoding="utf-8")
    return folder


def test_switched_off_without_options(pytester, cases):
    pytester.makepyfile(test_plain="def test_one():\n    pass\n")
    result = run(pytester, ".")
    result.assert_outcomes(passed=1)
    assert "mtg-conformance: engines" not in result.stdout.str()


def test_switched_off_it_parses_no_engine_spec(pytester, monkeypatch):
    # A broken engine registry (a distribution's bad entry point) must not break the tests of a
    # project that merely has the plugin installed.
    from conformance.transports import EngineSpec

    def refuse(cls: type, text: str) -> None:
        raise AssertionError(f"the switched-off plugin parsed {text!r}")

    monkeypatch.setattr(EngineSpec, "parse", classmethod(refuse))
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    run(pytester).assert_outcomes(passed=1)


def test_case_files_named_on_the_command_line_are_collected(pytester, cases):
    result = run(pytester, "mycases/mine.yaml", CORRECT, "--co", "-q")
    assert "mycases/mine.yaml::cr2004::mine.life" in result.stdout.str()
    assert "mycases/mine.yaml::modern::mine.life" in result.stdout.str()


def test_an_option_selects_the_bundled_cases_instead_of_the_tests(pytester):
    pytester.makepyfile(test_plain="def test_one():\n    pass\n")
    result = run(pytester, CORRECT, "--mtg-rules=cr2004:212.6*", "--co", "-q")
    out = result.stdout.str()
    assert "test_plain" not in out
    ids = [line.split("::", 1)[1] for line in out.splitlines() if "lands.yaml::" in line]
    assert ids == [f"{e}::land.{c}" for e in ("cr2004", "modern")
                   for c in ("one-per-turn", "only-in-main-phase", "not-in-opponents-turn")]
    assert "start.yaml" not in out


def test_results_and_markers(pytester, cases):
    result = run(
        pytester, CORRECT, "--mtg-cases=mycases", "--mtg-edition=cr2004", "-m",
        "rule(ref='cr2004:101.3')", "--mtg-results=out/results.json")
    result.assert_outcomes(passed=3)  # mine.life, start.life-twenty, start.opening-hand-seven
    data = json.loads((pytester.path / "out" / "results.json").read_text())
    assert data["editions"] == ["cr2004"]
    assert data["engines"][0]["info"]["name"] == "toy"
    assert {r["case_id"] for r in data["results"]} == {
        "mine.life", "start.life-twenty", "start.opening-hand-seven"}
    assert data["summary"] == {"total": 3, "unexpected": 0, "counts": {"pass": 3}}
    assert data["rules"][0] == {"rule": "cr2004:101.3", "engine": CORRECT.split("=")[1],
                                "total": 3, "unexpected": 0, "counts": {"pass": 3}}


def test_failures_are_reported_as_data_not_tracebacks(pytester):
    result = run(pytester, BROKEN, *FROZEN, "--mtg-rules=cr2004:212.6a",
                 "--mtg-edition=cr2004")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert "[fail] step 1 (expect_illegal play_land): the engine accepted" in out
    assert "lands.yaml" in out and "step at line 30" in out
    assert "Traceback" not in out and "conformance/runner.py" not in out


def test_expectations_make_xfail_and_xpass(pytester):
    pytester.makefile(".yaml", expected=textwrap.dedent("""\
        expectations:
          land.only-in-main-phase: {status: fail, reason: known}
          cr2004::land.one-per-turn: {status: fail}
          land.not-in-opponents-turn: {status: crash}
        """))
    result = run(
        pytester, BROKEN, *FROZEN, "--mtg-rules=cr2004:212.6*", "--mtg-edition=cr2004",
        "--mtg-expectations=expected.yaml", "--mtg-results=r.json", "-rxX")
    result.assert_outcomes(xfailed=1, failed=2)
    statuses = {r["case_id"]: (r["status"], r["outcome"])
                for r in json.loads((pytester.path / "r.json").read_text())["results"]}
    assert statuses == {"land.only-in-main-phase": ("xfail", "fail"),
                        "land.one-per-turn": ("xpass", "pass"),
                        "land.not-in-opponents-turn": ("fail", "fail")}
    assert "expected crash, got fail" in result.stdout.str()


def test_skips_name_what_is_missing(pytester):
    result = run(
        pytester, "--mtg-engine=py:tests.fakes.miniatures:OnlyCr2004", "--mtg-rules=cr2004:101.3",
        "--mtg-edition=all", "-rs")
    result.assert_outcomes(passed=2, skipped=2)
    assert "the engine does not support edition modern" in result.stdout.str()


def test_a_malformed_case_file_is_a_clean_collection_error(pytester, cases):
    (cases / "bad.yaml").write_text(CASE.replace("mine.life", "mine.bad").replace(
        "players.A.life: 20", "players.A.life: 20}}"), encoding="utf-8")
    result = run(pytester, CORRECT, "--mtg-cases=mycases")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    out = result.stdout.str()
    assert "mycases/bad.yaml:8: not valid YAML" in out
    assert "Traceback" not in out


def test_bad_options_are_usage_errors(pytester):
    for option, words in [("--mtg-edition=cr1999", "--mtg-edition: must be cr2004, modern or"),
                          ("--mtg-case-timeout=soon", "--mtg-case-timeout: must be a number"),
                          ("--mtg-engine=java", "--mtg-engine java: not an engine"),
                          ("--mtg-cases=nowhere", "no such case file or folder: "),
                          ("--mtg-repeat=0", "--mtg-repeat: must be at least 1"),
                          ("--mtg-min-run=lots", "--mtg-min-run: must be a count")]:
        result = run(pytester, option)
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        assert words in result.stderr.str()


def test_an_engine_that_cannot_start_ends_the_session_with_status_3(pytester):
    result = run(pytester, "--mtg-engine=py:tests.fakes.miniatures:FailsToStart")
    assert result.ret == 3
    assert "error[engine-startup-failed]" in result.stdout.str() + result.stderr.str()


def test_under_xdist_misbehaving_processes_cost_their_cases_and_results_are_gathered(
        pytester, cases, monkeypatch):
    for what in ("crash", "hang", "garble"):
        (cases / f"{what}.yaml").write_text(CASE.replace("mine.life", f"fake.{what}").replace(
            "setup: {turn: {number: 3, active: A, step: precombat_main}}",
            "setup: {turn: {number: 3, active: A, step: precombat_main}, players: {A: {hand: "
            f"[{{handle: fake-{what}-on-observe, card: Forest}}]}}}}}}"), encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess(
        f"--mtg-engine=cmd:{sys.executable} {ROOT / 'tests' / 'fakes' / 'scriptable.py'}",
        "--mtg-cases=mycases", "--mtg-rules=cr2004:101.3", "--mtg-results=r.json",
        "--mtg-case-timeout=0.5", "-n", "2",
        "-p", "no:hypothesispytest", "-p", "no:cacheprovider")
    data = json.loads((pytester.path / "r.json").read_text())
    statuses = {(r["case_id"], r["edition"]): r["status"] for r in data["results"]}
    assert len(statuses) == data["summary"]["total"] == 12
    fakes = {k: v for k, v in statuses.items() if k[0].startswith("fake.")}
    assert fakes == {(f"fake.{w}", e): s for w, s in [("crash", "crash"), ("hang", "timeout"),
                                                       ("garble", "error")]
                     for e in ("cr2004", "modern")}
    assert {v for k, v in statuses.items() if k not in fakes} == {"pass"}
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=6, failed=6)


def test_several_engines_get_their_own_items(pytester):
    result = run(pytester, CORRECT, "--mtg-engine=py:tests.fakes.miniatures:OnlyCr2004",
                 "--mtg-rules=cr2004:101.5", "-v")
    out = result.stdout.str()
    for engine, edition, outcome in [("Correct", "cr2004", "PASSED"), ("Correct", "modern",
                                      "PASSED"), ("OnlyCr2004", "modern", "SKIPPED")]:
        assert (f"turn.yaml::py:tests.fakes.miniatures:{engine}::{edition}::"
                f"turn.first-player-skips-draw {outcome}") in out


def test_the_options_the_workers_read_say_what_the_settings_say(pytester, tmp_path):
    # The --mtg-* options are the one serialized form of a run's settings (an xdist worker
    # reads them back): read back, they are the settings they were made from, field by field.
    from conformance.settings import MinRun, Settings
    from conformance.transports import EngineSpec

    settings = Settings(
        engines=(EngineSpec.parse("reference"), EngineSpec.parse(CORRECT.split("=", 1)[1])),
        editions=("modern",), rules=("cr2004:101.*",), case_ids=("turn.*",),
        case_dirs=(tmp_path / "mine",), expectations=tmp_path / "expected.yaml",
        case_timeout=None, results=tmp_path / "out" / "results.json",
        junit=tmp_path / "out" / "junit.xml", validate=True, max_restarts=0, repeat=3,
        min_run=MinRun.parse("60%"))
    config = pytester.parseconfig(*settings.pytest_args())
    assert Settings.from_options(config.option, config.invocation_params.dir) == settings


# ---- judged as mtgconf run judges ----

def test_the_pytest_route_exits_4_when_every_case_skipped(pytester):
    result = run(pytester, "--mtg-engine=py:tests.fakes.miniatures:DeclaresNothing", *FROZEN)
    assert result.ret == 4
    result.assert_outcomes(skipped=24)
    out = result.stdout.str()
    assert "mtg-conformance: no case ran: all 24 case runs were skipped." in out
    assert "The skipped cases need: capability setup.state (" in out


def test_the_pytest_route_exits_4_for_a_misspelt_capability(pytester):
    result = run(pytester, "--mtg-engine=py:tests.fakes.miniatures:MisspellsACapability",
                 *FROZEN)
    assert result.ret == 4
    assert "capability setup.stat (did you mean setup.state?)" in result.stdout.str()


@pytest.mark.parametrize(("threshold", "code"), [("4", 0), ("5", 4), ("100%", 0)])
def test_the_pytest_route_keeps_to_min_run(pytester, threshold, code):
    result = run(pytester, CORRECT, *FROZEN, "--mtg-rules=cr2004:101.3",
                 f"--mtg-min-run={threshold}")
    result.assert_outcomes(passed=4)
    assert result.ret == code
    if code:
        assert "mtg-conformance: too few cases ran: 4 of 4 case runs (100%), --min-run asks " \
               "for 5 (5)." in result.stdout.str()


def test_the_pytest_route_runs_the_editions_the_engine_declares(pytester):
    result = run(pytester, "--mtg-engine=py:tests.fakes.miniatures:OnlyCr2004",
                 "--mtg-rules=cr2004:101.3", "-v")
    result.assert_outcomes(passed=2)
    assert result.ret == 0
    assert "::modern::" not in result.stdout.str()
    assert "editions cr2004" in result.stdout.str()
