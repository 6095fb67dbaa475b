"""What a pytest user expects of a test runner, on ``mtgconf run`` and ``mtgconf cases``:
``--list``, ``-x``, ``--lf``/``--ff``, ``cases show``, ``cases list --engine/--rules``, a close
match for a misspelt id, a line naming a case that has been running for seconds, and
``cases lint PATH`` linting PATH alone (a misspelt expectation helper among its errors)."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

from conformance.slowcases import SlowCases
from mtgconf import main

FROZEN = Path(__file__).parent / "fakes" / "cases"  # the first bundled cases, frozen
BROKEN = "py:tests.fakes.miniatures:PlaysLandsAnyTime"  # fails the land cases
LANDS = ["land.not-in-opponents-turn", "land.one-per-turn", "land.only-in-main-phase"]


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def frozen_run(capsys, out: Path, engine: str, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "run", "--engine", engine, "-n", "0", "--no-bundled", "--cases",
               str(FROZEN), "--out", str(out), "--no-report", *extra)


def streamed(out: Path) -> list[str]:
    """The case runs of results.jsonl, in the order they finished."""
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return [f"{d['edition']}::{d['case_id']}:{d['status']}" for d in lines if "case_id" in d]


def test_list_says_what_would_run_and_what_would_skip_without_running(tmp_path, capsys):
    engine = "py:tests.fakes.miniatures:LacksCapabilities"
    out = tmp_path / "out"
    code, stdout, _ = frozen_run(capsys, out, engine, "--edition", "cr2004", "--list")
    assert code == 0
    assert not out.exists()  # nothing ran, nothing written
    listed = {line.split()[1].rstrip(":"): line.split()[0] for line in stdout.splitlines()
              if line.startswith(("run ", "skip "))}
    assert ("skip  cr2004::start.life-twenty: the engine lacks capability setup.start  "
            "(tests/fakes/cases/start.yaml:3)") in stdout
    # What the run then does, case run by case run.
    frozen_run(capsys, out, engine, "--edition", "cr2004")
    ran = {r.rpartition(":")[0]: "skip" if r.endswith(":skip") else "run"
           for r in streamed(out)}
    assert listed == ran
    assert set(listed.values()) == {"run", "skip"}


def test_exitfirst_stops_at_the_first_unexpected_result(tmp_path, capsys):
    out = tmp_path / "out"
    code, _, _ = frozen_run(capsys, out, BROKEN, "--edition", "cr2004", "-x")
    assert code == 1
    ran = streamed(out)
    assert [r for r in ran if not r.endswith(":pass")] == [ran[-1]]  # the last one ran
    assert len(ran) < 12


def test_last_failed_runs_again_only_the_unexpected_results_of_the_last_run(tmp_path, capsys):
    out = tmp_path / "out"
    assert frozen_run(capsys, out, BROKEN, "--edition", "cr2004")[0] == 1
    failed = sorted(r.rpartition(":")[0] for r in streamed(out) if r.endswith((":fail",
                                                                                ":error")))
    assert failed
    code, stdout, _ = frozen_run(capsys, out, BROKEN, "--edition", "cr2004", "--lf")
    assert code == 1
    assert f"last failed: {len(failed)} case runs of the last run in {out}" in stdout
    assert sorted(r.rpartition(":")[0] for r in streamed(out)) == failed
    # The correct engine passes them: the next --lf has nothing to run, and says so.
    assert frozen_run(capsys, out, "py:tests.fakes.miniatures:Correct", "--lf")[0] == 0
    code, _, err = frozen_run(capsys, out, BROKEN, "--lf")
    assert code == 2 and "had no unexpected result; nothing to run again" in err


def test_last_failed_runs_each_failure_in_its_own_edition_and_within_case(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    # A last run in which one case failed under one edition only.
    lines = [{"case_id": case_id, "edition": edition, "status": status}
             for case_id, edition, status in [("land.one-per-turn", "cr2004", "pass"),
                                               ("land.one-per-turn", "modern", "fail"),
                                               ("land.only-in-main-phase", "cr2004", "error")]]
    (out / "results.jsonl").write_text("".join(json.dumps(d) + "\n" for d in lines))
    correct = "py:tests.fakes.miniatures:Correct"
    code, stdout, _ = frozen_run(capsys, out, correct, "--lf", "--case", "land.one-*")
    assert code == 0, stdout
    assert "last failed: 1 case runs" in stdout
    assert streamed(out) == ["modern::land.one-per-turn:pass"]
    # A --case that none of the last failures matches says so rather than running nothing.
    (out / "results.jsonl").write_text("".join(json.dumps(d) + "\n" for d in lines))
    code, _, err = frozen_run(capsys, out, correct, "--lf", "--case", "start.*")
    assert code == 2 and "no unexpected result of the last run" in err and "start.*" in err


def test_failed_first_runs_the_last_failures_before_the_rest(tmp_path, capsys):
    out = tmp_path / "out"
    frozen_run(capsys, out, BROKEN, "--edition", "cr2004")
    failed = {r.rpartition(":")[0] for r in streamed(out) if r.endswith((":fail", ":error"))}
    assert failed
    assert streamed(out)[0].rpartition(":")[0] not in failed  # not first by themselves
    code, _, _ = frozen_run(capsys, out, BROKEN, "--edition", "cr2004", "--ff")
    assert code == 1
    ran = [r.rpartition(":")[0] for r in streamed(out)]
    assert len(ran) == 12
    assert set(ran[:len(failed)]) == failed


def test_last_failed_without_a_last_run_is_a_usage_error(tmp_path, capsys):
    code, _, err = frozen_run(capsys, tmp_path / "nothing", BROKEN, "--lf")
    assert code == 2
    assert "no results of a last run in" in err and "run once without them first" in err


def test_a_misspelt_case_is_answered_with_the_closest_id(tmp_path, capsys):
    code, _, err = frozen_run(capsys, tmp_path / "out", BROKEN, "--case",
                              "land.one-per-trun")
    assert code == 2
    assert "(--case land.one-per-trun: did you mean land.one-per-turn?)" in err
    code, _, err = cli(capsys, "cases", "show", "turn.first-player-skip-draw")
    assert code == 2 and "did you mean turn.first-player-skips-draw?" in err


def test_a_case_running_for_seconds_is_named_and_a_fast_one_is_not():
    stream = io.StringIO()
    watch = SlowCases(after=5, every=10, stream=stream, case_timeout=10)
    watch.pytest_runtest_logstart("lands.yaml::cr2004::land.one-per-turn")
    watch.pytest_runtest_logstart("start.yaml::modern::start.life-twenty")
    assert watch.check(0.0 + watch._running["lands.yaml::cr2004::land.one-per-turn"][0]) == []
    watch.pytest_runtest_logfinish("start.yaml::modern::start.life-twenty")  # a fast one
    started = watch._running["lands.yaml::cr2004::land.one-per-turn"][0]
    assert watch.check(started + 5.2) == [
        "mtgconf: still running after 5 s: cr2004::land.one-per-turn (its limit: "
        "--case-timeout 10 s)"]
    assert watch.check(started + 6) == []  # once, then every 10 s
    assert watch.check(started + 15.1) == [
        "mtgconf: still running after 15 s: cr2004::land.one-per-turn (its limit: "
        "--case-timeout 10 s)"]
    watch.pytest_runtest_logfinish("lands.yaml::cr2004::land.one-per-turn")
    assert watch.check(started + 60) == []


def test_a_hanging_engine_is_named_while_it_hangs(tmp_path, capsys):
    code, stdout, err = frozen_run(capsys, tmp_path / "out",
                                   "py:tests.fakes.miniatures:HangsOnObserve", "--case",
                                   "land.one-per-turn", "--edition", "cr2004",
                                   "--case-timeout", "6")
    assert code == 1
    assert ("mtgconf: still running after 5 s: cr2004::land.one-per-turn (its limit: "
            "--case-timeout 6 s)\n") in err
    assert "[timeout] cr2004::land.one-per-turn" in stdout


def test_a_fast_run_prints_no_still_running_line(tmp_path, capsys):
    _, _, err = frozen_run(capsys, tmp_path / "out", BROKEN, "--edition", "cr2004")
    assert "still running" not in err


def test_cases_show_prints_the_case_its_rules_and_its_needs(capsys):
    code, out, _ = cli(capsys, "cases", "show", "turn.first-player-skips-draw")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("turn.first-player-skips-draw  (") and "turn.yaml:" in first
    assert "  needs: setup.start; cards Forest, Island" in out
    assert "    cr2004:101.5: Once neither player wants to mulligan" in out
    assert "      quote: 先手的玩家略過他第一個回合的抽牌步驟" in out
    assert "\n- id: turn.first-player-skips-draw\n" in out
    assert "  steps:\n" in out and "\n- id: " not in out.split("- id: turn.first-player-skips"
                                                             "-draw", 1)[1]


def test_cases_list_filters_by_rule_and_by_what_an_engine_can_run(capsys):
    code, out, _ = cli(capsys, "cases", "list", str(FROZEN), "--rules", "cr2004:212.6*",
                       "--json")
    assert code == 0
    assert sorted(c["id"] for c in json.loads(out)) == LANDS
    code, out, _ = cli(capsys, "cases", "list", str(FROZEN), "--engine",
                       "py:tests.fakes.miniatures:LacksCapabilities", "--json")
    assert code == 0
    runnable = [c["id"] for c in json.loads(out)]
    # As --list shows it: the cases needing setup.start, observe.stack or events are left out.
    assert sorted(runnable) == [
        "creature.summoning-sick-cannot-attack", "land.one-per-turn", "land.only-in-main-phase",
        "sba.zero-life-loses.below-zero", "sba.zero-life-loses.exactly-zero",
        "sba.zero-life-loses.one-left"]
    code, out, _ = cli(capsys, "cases", "list", str(FROZEN), "--json")
    assert len(json.loads(out)) == 12 > len(runnable)


BAD_HELPER = textwrap.dedent("""\
    - id: mine.bad-helper
      rules: [cr2004:101.5]
      editions: [cr2004]
      quote: 先手的玩家略過他第一個回合的抽牌步驟
      summary: A misspelt helper.
      setup:
        start: game
        seed: 1
        first_player: A
        decks: {A: [{card: Forest, count: 40}], B: [{card: Forest, count: 40}]}
      steps:
        - expect: {players.A.hand: {count: 7}}
        - expect:
            players.A.hand: {cnt: 7}
    """)


def test_lint_of_a_path_lints_that_path_alone_and_rejects_a_misspelt_helper(tmp_path, capsys):
    (tmp_path / "mine.yaml").write_text(BAD_HELPER, encoding="utf-8")
    code, out, _ = cli(capsys, "cases", "lint", str(tmp_path))
    assert code == 2
    assert out.strip().endswith("1 files, 1 cases: 1 errors, 0 warnings"), out
    assert (f"{tmp_path / 'mine.yaml'}:13: case mine.bad-helper: steps[1]: step 2: "
            "players.A.hand: 'cnt' is no helper nor observation field (did you mean count?)"
            in out)
    code, out, _ = cli(capsys, "cases", "lint", str(tmp_path), "--bundled")
    assert code == 2
    assert " cases: 1 errors, 0 warnings" in out and "1 files, 1 cases" not in out
    (tmp_path / "mine.yaml").write_text(BAD_HELPER.replace("cnt", "count"), encoding="utf-8")
    assert cli(capsys, "cases", "lint", str(tmp_path))[0] == 0


def test_xdist_says_bringing_up_nodes_once(tmp_path, capsys):
    code, out, _ = frozen_run(capsys, tmp_path / "out", "py:tests.fakes.miniatures:Correct",
                              "-n", "2")
    assert code == 0
    assert out.count("bringing up nodes...") == 1, out
