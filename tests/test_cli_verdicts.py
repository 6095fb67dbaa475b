"""Runs a CI can trust: an engine that was never tested does not pass, a harness bug is not the
engine's fault, results survive interruptions and bad output folders, and a nondeterministic
engine is caught by ``--repeat``. Real signals are sent to real runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conformance.exitcodes import ExitCode
from mtgconf import main

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fakes"
FROZEN = FAKES / "cases"  # the first bundled cases, frozen
CORRECT = "py:tests.fakes.miniatures:Correct"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def frozen_run(capsys, tmp_path: Path, engine: str, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "run", "--engine", engine, "-n", "0", "--no-bundled", "--cases",
               str(FROZEN), "--out", str(tmp_path / "out"), *extra)


def results_of(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))


# ---- nothing tested is not a success ----

def test_an_engine_declaring_no_capability_exits_4_saying_what_the_cases_need(tmp_path, capsys):
    code, out, err = frozen_run(capsys, tmp_path, "py:tests.fakes.miniatures:DeclaresNothing")
    assert code == ExitCode.UNTESTED
    assert "mtgconf: no case ran: all 24 case runs were skipped." in err
    assert "declared editions cr2004, modern; capabilities none" in err
    assert "The skipped cases need: capability setup.state (" in err
    assert "Skipped (24 case runs), by what the engine lacks" in out
    assert results_of(tmp_path)["summary"]["counts"] == {"skip": 24}


def test_a_misspelt_capability_or_edition_is_not_a_success(tmp_path, capsys):
    code, _, err = frozen_run(capsys, tmp_path,
                              "py:tests.fakes.miniatures:MisspellsACapability")
    assert code == ExitCode.UNTESTED
    assert "capability setup.stat (did you mean setup.state?)" in err
    assert "edition modrn (did you mean modern?)" in err


@pytest.mark.parametrize(("threshold", "code"), [
    ("1", ExitCode.OK), ("50%", ExitCode.OK), ("100%", ExitCode.OK),
    ("1000", ExitCode.UNTESTED)])
def test_min_run_counts_only_the_editions_the_engine_declares(tmp_path, capsys, threshold,
                                                              code):
    # Declaring one edition of two, the engine skips half the case runs of --edition all:
    # those are not its editions, and --min-run 100% asks only that every case run of cr2004
    # ran.
    got, _, err = frozen_run(capsys, tmp_path, "py:tests.fakes.miniatures:OnlyCr2004",
                             "--edition", "all", "--min-run", threshold)
    data = results_of(tmp_path)
    ran = sum(r["status"] != "skip" for r in data["results"])
    own = sum(r["edition"] == "cr2004" for r in data["results"])
    assert 0 < ran == own < data["selected"], "the premise: the cr2004 runs ran, no other"
    assert got == code, err
    if code == ExitCode.UNTESTED:
        assert (f"too few cases ran: {ran} of {own} case runs in the editions the engine "
                f"declares (100%), --min-run asks for 1000") in err
    assert data["options"]["min_run"] == threshold


def test_min_run_counts_the_skips_of_the_engines_own_editions(tmp_path, capsys):
    code, _, err = frozen_run(capsys, tmp_path, "py:tests.fakes.miniatures:WithoutBolt",
                              "--min-run", "100%")
    data = results_of(tmp_path)
    ran = sum(r["status"] != "skip" for r in data["results"])
    assert 0 < ran < data["selected"]
    assert code == ExitCode.UNTESTED, err
    assert f"too few cases ran: {ran} of {data['selected']} case runs (" in err


def test_the_default_editions_are_those_the_engine_declares(tmp_path, capsys):
    code, out, err = frozen_run(capsys, tmp_path, "py:tests.fakes.miniatures:OnlyCr2004")
    data = results_of(tmp_path)
    assert code == ExitCode.OK, err
    assert {r["edition"] for r in data["results"]} == {"cr2004"}
    assert data["editions"] == ["cr2004"] and data["selected"] == len(data["results"])
    assert "; editions cr2004\n" in out


def test_a_bad_min_run_is_a_usage_error(capsys):
    code, _, err = cli(capsys, "run", "--min-run", "most")
    assert code == ExitCode.USAGE
    assert "argument --min-run: must be a count (e.g. 50) or a percentage" in err


# ---- harness errors are the harness's ----

def test_a_harness_bug_exits_5_and_never_marks_the_engine_broken(tmp_path, capsys,
                                                                 monkeypatch):
    from conformance import runner

    def bug(self):
        raise ZeroDivisionError("a bug of ours")

    monkeypatch.setattr(runner._CaseRun, "run", bug)
    code, _, err = frozen_run(capsys, tmp_path, CORRECT, "--max-restarts", "1")
    assert code == ExitCode.HARNESS
    errors = [r for r in results_of(tmp_path)["results"] if r["status"] == "error"]
    assert len(errors) > 3
    # Every case hit the bug itself: none was "not run" because the engine was marked broken.
    assert all(r["detail"]["internal"] and "internal error of the harness: ZeroDivisionError"
               in r["message"] for r in errors)
    assert "ZeroDivisionError" in errors[0]["detail"]["traceback"]
    assert "internal error of mtg-conformance (a bug of the harness, not of the engine" in err


def test_an_internal_error_of_pytest_is_exit_5_not_an_engine_failure(tmp_path, capsys,
                                                                     monkeypatch):
    from conformance.recorder import ResultsRecorder

    def bug(self):
        raise RuntimeError("recorder bug")

    monkeypatch.setattr(ResultsRecorder, "open_stream", bug)
    code, _, err = frozen_run(capsys, tmp_path, CORRECT)
    assert code == ExitCode.HARNESS
    assert "internal error" in err and "bug of mtg-conformance" in err


def test_a_broken_engine_still_skips_what_it_could_not_have_run(tmp_path, capsys):
    engine = f"cmd:{sys.executable} {FAKES / 'breaker.py'} cr2004_only_crashes_on_new_game"
    code, _, _ = frozen_run(capsys, tmp_path, engine, "--max-restarts", "0", "--edition", "all")
    assert code == ExitCode.UNEXPECTED
    by_edition: dict[str, list[str]] = {}
    for result in results_of(tmp_path)["results"]:
        by_edition.setdefault(result["edition"], []).append(result["message"])
    assert "during new_game" in by_edition["cr2004"][3]  # the first case it can run
    assert by_edition["cr2004"][8].startswith("not run:")  # the next
    # After the engine is out of the run, a case it never declared it could run is a skip.
    assert all(m == "the engine does not support edition modern" for m in by_edition["modern"])


# ---- results are never lost ----

def test_an_unwritable_out_folder_is_found_before_any_case_runs(tmp_path, capsys):
    blocker = tmp_path / "out"
    blocker.write_text("a file where the folder should be")
    code, out, err = cli(capsys, "run", "--engine", CORRECT, "--out", str(blocker))
    assert code == ExitCode.USAGE
    assert f"cannot write the results to {blocker}: it is a file, not a folder" in err
    assert err.count(str(blocker)) == 1  # once, not once per file of the run
    assert "engine:" not in out  # nothing started

    (tmp_path / "out2" / "results.json").mkdir(parents=True)
    code, _, err = cli(capsys, "run", "--engine", CORRECT, "--out", str(tmp_path / "out2"))
    assert code == ExitCode.USAGE
    assert "results.json: it is a folder" in err


def test_the_plugin_checks_its_results_file_too(pytester):
    pytester.makefile(".txt", blocker="x")
    result = pytester.runpytest_subprocess("--mtg-engine", CORRECT,
                                           "--mtg-results=blocker.txt/results.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "cannot write the results to" in result.stderr.str()
    assert "it is a file, not a folder" in result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()


def test_previous_results_stay_until_new_ones_are_whole(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_text("previous")
    engine = f"cmd:{sys.executable} {FAKES / 'breaker.py'} exits_at_start"
    code, _, _ = cli(capsys, "run", "--engine", engine, "--out", str(out))
    assert code == ExitCode.ENGINE
    assert (out / "results.json").read_text() == "previous"


def _spawn_slow_run(tmp_path: Path, jobs: str) -> tuple[subprocess.Popen[bytes], str]:
    marker = uuid.uuid4().hex  # names this test's engine processes, whatever else runs
    engine = f"cmd:{sys.executable} -m tests.fakes.slow 0.25 {marker}"
    process = subprocess.Popen(
        [sys.executable, "-m", "mtgconf", "run", "--engine", engine, "-n", jobs,
         "--out", str(tmp_path / "out")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return process, marker


def _wait_for_results(stream: Path, count: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if stream.exists() and len(stream.read_text().splitlines()) > count:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    pytest.fail("the run produced no results")


def _engines_left(marker: str) -> list[int]:
    left = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                left.append(int(entry.name))
    return left


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks for engine processes in /proc")
@pytest.mark.parametrize(("signum", "jobs", "code"), [
    (signal.SIGTERM, "2", ExitCode.TERMINATED),
    (signal.SIGINT, "0", ExitCode.INTERRUPTED),
])
def test_a_signal_ends_the_run_keeping_every_finished_case(tmp_path, signum, jobs, code):
    process, marker = _spawn_slow_run(tmp_path, jobs)
    stream = tmp_path / "out" / "results.jsonl"
    try:
        _wait_for_results(stream, 3, process)
        assert _engines_left(marker), "the premise: engines are running"
        process.send_signal(signum)
        sent = time.monotonic()
        _, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == code, err.decode()
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["interrupted"] is True
    assert data["interrupted_by"] == signal.Signals(signum).name
    streamed = [json.loads(line) for line in stream.read_text().splitlines()[1:]]
    finished = {(r["case_id"], r["edition"]) for r in streamed if "case_id" in r}
    assert {(r["case_id"], r["edition"]) for r in data["results"]} == finished
    assert 3 <= len(finished) < data["selected"]
    # it stopped instead of finishing: the cases left would have taken at least one 0.25 s
    # engine call each, spread over the workers (a bound that holds on a loaded machine too)
    left = data["selected"] - len(finished)
    assert took < left * 0.25 / max(int(jobs), 1), f"the run took {took:.1f}s to stop"
    junit = (tmp_path / "out" / "junit.xml").read_text()
    assert 'name="(run interrupted)"' in junit and 'type="interrupted"' in junit
    assert f"the run was interrupted ({signal.Signals(signum).name})" in err.decode()
    assert "Traceback" not in err.decode()
    time.sleep(0.2)
    assert _engines_left(marker) == []


# ---- nondeterminism is a finding ----

FLAKY = "py:tests.fakes.miniatures:DiffersEveryOtherGame"


def test_repeat_reports_a_nondeterministic_engine_as_flaky(tmp_path, capsys):
    code, out, _ = frozen_run(capsys, tmp_path, FLAKY, "--repeat", "3", "--case",
                              "start.life-twenty", "--edition", "cr2004")
    assert code == ExitCode.UNEXPECTED
    (flaky,) = [r for r in results_of(tmp_path)["results"] if r["status"] == "flaky"]
    assert flaky["outcome"] == "flaky"
    statuses = [o["status"] for o in flaky["detail"]["outcomes"]]
    assert len(statuses) == 3 and {"pass", "fail"} <= set(statuses)
    assert "3 runs ended differently" in flaky["message"]
    assert "--repeat 3" in out  # the rerun command repeats too


def test_repeat_on_a_deterministic_engine_changes_nothing(tmp_path, capsys):
    code, _, _ = frozen_run(capsys, tmp_path, CORRECT, "--repeat", "2")
    assert code == ExitCode.OK
    assert "flaky" not in results_of(tmp_path)["summary"]["counts"]


def test_flaky_results_cannot_become_expectations(tmp_path, capsys):
    frozen_run(capsys, tmp_path, FLAKY, "--repeat", "3", "--case", "start.life-twenty")
    code, _, err = cli(capsys, "expectations", "generate",
                       str(tmp_path / "out" / "results.json"))
    assert code == ExitCode.USAGE
    assert "a flaky case cannot be expected, only fixed" in err


def test_interrupted_results_cannot_become_expectations(tmp_path, capsys):
    frozen_run(capsys, tmp_path, CORRECT)
    path = tmp_path / "out" / "results.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "interrupted": True, "interrupted_by": "SIGTERM"}))
    code, _, err = cli(capsys, "expectations", "generate", str(path))
    assert code == ExitCode.USAGE
    assert "the run was interrupted" in err


def test_environment_is_left_as_it_was(tmp_path, capsys):
    from conformance import reaper

    before = os.environ.get(reaper.ENV)
    frozen_run(capsys, tmp_path, CORRECT)
    assert os.environ.get(reaper.ENV) == before


def test_a_bug_of_any_command_is_exit_5_with_its_traceback(capsys, monkeypatch):
    from mtgconf.commands import rules

    def bug(args):
        raise KeyError("a bug of ours")

    monkeypatch.setattr(rules, "_list", bug, raising=False)
    code, _, err = cli(capsys, "rules", "list")
    assert code == ExitCode.HARNESS
    assert "Traceback" in err and "KeyError: 'a bug of ours'" in err
    assert "internal error: a bug of mtg-conformance" in err
