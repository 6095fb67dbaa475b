"""``mtgconf run``, ``smoke``, ``cases`` and ``expectations``: output and exit statuses."""

from __future__ import annotations

import json
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conformance.resultsfile import from_here
from mtgconf import main

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fakes"
CORRECT = "py:tests.fakes.miniatures:Correct"
BROKEN = "py:tests.fakes.miniatures:PlaysLandsAnyTime"
FROZEN = Path(__file__).parent / "fakes" / "cases"  # the first bundled cases, frozen


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def breaker(mode: str) -> str:
    return f"cmd:{sys.executable} {FAKES / 'breaker.py'} {mode}"


def test_run_exit_statuses_and_an_expectations_round_trip(tmp_path, capsys):
    def run(*extra: str) -> tuple[int, str, str]:
        # In this process (pytest runs inside pytest, as pytester does): quicker than a child.
        return cli(capsys, "run", "--engine", BROKEN, "--rules", "cr2004:212.6*", "-n", "0",
                   "--no-bundled", "--cases", str(FROZEN), "--out", str(tmp_path / "out"),
                   *extra)

    code, out, err = run()
    assert code == 1, err
    assert "engine: toy 1.0 (protocol 1)" in out
    assert "Unexpected results (4), by symptom, the largest group first (1 group):" in out
    assert "[fail] cr2004::land.only-in-main-phase (tests/fakes/cases/lands.yaml:" in out
    assert ": step 1 (expect_illegal play_land)" in out
    assert (f"rerun: mtgconf run --engine {BROKEN} --edition cr2004 --case "
            f"land.only-in-main-phase --cases {from_here(FROZEN)} --no-bundled") in out
    assert "cr2004 212  Types, supertypes and subtypes" in out
    assert "Traceback" not in out + err
    junit = (tmp_path / "out" / "junit.xml").read_text()
    assert 'tests="6"' in junit and 'failures="4"' in junit

    code, out, _ = cli(capsys, "expectations", "generate", str(tmp_path / "out" /
                                                                "results.json"))
    assert code == 0
    assert "land.only-in-main-phase:\n    status: fail" in out
    (tmp_path / "expected.yaml").write_text(out)

    code, out, err = run("--expectations", str(tmp_path / "expected.yaml"))
    assert code == 0, out + err
    assert "6 results: 2 pass, 4 xfail (all as expected)" in out
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["options"]["expectations"] == str(tmp_path / "expected.yaml")
    assert data["options"]["case_dirs"] == [str(FROZEN)]
    assert data["options"]["bundled_case_dirs"] == []  # --no-bundled


def test_the_run_parses_its_engine_once_and_loads_its_inputs_once(tmp_path, capsys,
                                                                   monkeypatch):
    # In this process: the engine spec is parsed at the option; the plugin takes the command's
    # own settings, cases and expectations (nothing read back from argv, no file read twice).
    from conformance import collect, lint
    from conformance.expectations import Expectations
    from conformance.settings import Settings
    from conformance.transports import EngineSpec

    calls: Counter[str] = Counter()

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    for owner, name in [(EngineSpec, "parse"), (Expectations, "load"), (Settings, "from_options")]:
        monkeypatch.setattr(owner, name, counted(name, getattr(owner, name)))
    for module in (lint, collect):
        monkeypatch.setattr(module, "load_checked", counted("load_checked", lint.load_checked))
    expected = tmp_path / "expected.yaml"
    expected.write_text("engine: toy\nexpectations: {}\n")
    code, out, err = cli(capsys, "run", "--engine", CORRECT, "--rules", "cr2004:212.6*", "-n",
                         "0", "--no-bundled", "--cases", str(FROZEN), "--expectations",
                         str(expected), "--no-report", "--out", str(tmp_path / "out"))
    assert code == 0, out + err
    assert "6 results: 6 pass" in out
    assert calls == {"parse": 1, "load": 1, "load_checked": 1}


@pytest.mark.parametrize(("argv", "words"), [
    (["--engine", "java"], "error[bad-engine-spec]: java: not an engine"),
    (["--cases", "nowhere"], "no such case file or folder: "),
    (["--rules", "cr2004:999.*"], "no case matches --rules/--case/--edition (cr2004:999.*, "
                                  "all)"),
    (["--case-timeout", "soon"], "argument --case-timeout: must be a number of seconds"),
    (["-n", "many"], "argument -n/--jobs: must be a number or auto"),
    (["--no-bundled"], "--no-bundled needs at least one --cases folder"),
])
def test_run_usage_errors_exit_2(capsys, argv, words):
    code, _, err = cli(capsys, "run", "--engine", CORRECT, *argv)
    assert code == 2
    assert words in err
    assert "Traceback" not in err


def test_run_with_a_malformed_case_file_names_it(tmp_path, capsys):
    (tmp_path / "broken.yaml").write_text(textwrap.dedent("""\
        - id: mine.broken
          rules: [cr2004:101.3]
          editions: [cr2004]
          quote: 每位玩家擁有20點
          summary: x
          setup: {}
          steps:
            - expect: {players.A.life: twenty
        """))
    code, _, err = cli(capsys, "run", "--engine", CORRECT, "--cases", str(tmp_path))
    assert code == 2
    assert f"{tmp_path / 'broken.yaml'}:9: not valid YAML" in err


def test_run_with_a_bad_expectations_file(tmp_path, capsys):
    path = tmp_path / "expected.yaml"
    path.write_text("expectations:\n  no.such-case: {status: fail}\n")
    code, _, err = cli(capsys, "run", "--engine", CORRECT, "--expectations", str(path))
    assert code == 2
    assert f"{path}:2: expectations.no.such-case: no case has this id" in err


@pytest.mark.parametrize(("engine", "code_words"), [
    ("py:tests.fakes.miniatures:FailsToStart", "error[engine-startup-failed]"),
    (breaker("wrong_version"), "error[version-mismatch]"),
    (breaker("exits_at_start"), "cannot open card database"),
])
def test_run_and_smoke_exit_3_when_the_engine_cannot_start(capsys, engine, code_words):
    for command in ("run", "smoke"):
        code, _, err = cli(capsys, command, "--engine", engine)
        assert code == 3
        assert code_words in err
        assert "hint:" in err


def test_smoke_prints_the_declaration_and_plays(capsys):
    code, out, _ = cli(capsys, "smoke", "--engine", CORRECT)
    assert code == 0
    assert "engine:       toy 1.0" in out
    assert "capabilities: actions.legal, observe.events" in out
    assert "implied by 1: actions.mulligan" in out
    assert "cr2004, seeded start;" in out and "to turn 3" in out
    assert out.rstrip().endswith("smoke: ok")


@pytest.mark.parametrize(("engine", "words"), [
    ("Nondeterministic", "problem: nondeterministic: two games from the same setup differ at "
                         "players.A.life"),
    ("BreaksTheSchema", "problem: protocol violation in the observe response"),
    ("ListsNoPass", "problem: legal_actions lacks the pass of A, who has priority"),
])
def test_smoke_reports_problems(capsys, engine, words):
    code, out, _ = cli(capsys, "smoke", "--engine", f"py:tests.fakes.miniatures:{engine}")
    assert code == 1
    assert words in out


def test_cases_lint_and_list(tmp_path, capsys):
    code, out, _ = cli(capsys, "cases", "lint")
    assert code == 0
    assert out.strip().endswith("0 errors, 0 warnings")
    (tmp_path / "bad.yaml").write_text(textwrap.dedent("""\
        - id: mine.bad
          rules: [cr2004:101.99]
          editions: [cr2004]
          quote: nothing
          summary: x
          requires: [observe.everything]
          setup: {}
          steps:
            - expect: {players.A.life: 20}
        """))
    code, out, _ = cli(capsys, "cases", "lint", str(tmp_path), "--no-bundled")
    assert code == 2
    assert f"{tmp_path / 'bad.yaml'}:6: case mine.bad: requires: unknown capability" in out
    code, out, _ = cli(capsys, "cases", "lint", str(tmp_path), "--no-bundled", "--json")
    assert code == 2
    assert json.loads(out)[0]["field"] == "requires"
    code, out, _ = cli(capsys, "cases", "list", "--json")
    assert code == 0
    listed = {c["id"]: c for c in json.loads(out)}
    assert listed["zone.destroyed-to-owners-graveyard"]["requires"] == [
        "observe.events", "setup.controller", "setup.state"]


def test_expectations_generate_rejects_what_is_not_a_results_file(tmp_path, capsys):
    path = tmp_path / "results.json"
    path.write_text('{"results": []}')
    code, _, err = cli(capsys, "expectations", "generate", str(path))
    assert code == 2
    assert f"{path}: format: not a results file (format is not 'mtg-conformance results')" \
        in err
    path.write_text('{"format": "mtg-conformance results", "version": 3}')
    code, _, err = cli(capsys, "expectations", "generate", str(path))
    assert code == 2
    assert f"{path}: not a valid results file: 'harness' is a required property" in err


def test_the_portability_document_holds_the_current_table():
    from conformance import casefile, portability
    from conformance.protocol import EngineInfo
    from reference_engine.engine import ReferenceEngine

    cases = casefile.load().cases
    reports = []
    for name, chosen in portability.profiles().items():
        if chosen.engine is not None:
            info = EngineInfo.from_result(ReferenceEngine().hello(1.1))
            reports.append((name, portability.report(cases, info)))
        else:
            reports.append((name, portability.report(cases, chosen.info(), chosen.editions)))
    table = portability.markdown(reports)
    text = (Path(__file__).resolve().parents[1] / "docs" / "portability.md").read_text()
    generated = text.split("tests keep it current -->\n", 1)[1].split(
        "\n<!-- end of generated table -->", 1)[0]
    assert generated == table, "docs/portability.md is stale: paste in the output of " \
        "`mtgconf cases portability --markdown`"
