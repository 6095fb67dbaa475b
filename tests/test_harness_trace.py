"""Traces (``mtgconf run --trace``, ``--mtg-trace``) and unexpected results grouped by
symptom, on the console and as data."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance import trace
from conformance.resultsfile import Record, Results
from conformance.symptoms import group, masked, symptom_of
from mtgconf import main

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fakes"
FROZEN = FAKES / "cases"
BROKEN = "py:tests.fakes.miniatures:PlaysLandsAnyTime"
CORRECT = "py:tests.fakes.miniatures:Correct"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run(capsys, out: Path, engine: str, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "run", "--engine", engine, "--rules", "cr2004:212.6*", "-n", "0",
               "--no-bundled", "--cases", str(FROZEN), "--out", str(out), "--no-report",
               *extra)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ---- traces ----

def test_trace_keeps_each_unexpected_results_exchange_in_process(tmp_path, capsys):
    out = tmp_path / "out"
    code, printed, err = run(capsys, out, BROKEN, "--trace")
    assert code == 1, err
    results = Results.from_file(out / "results.json")
    unexpected = results.unexpected
    assert unexpected
    for record in results.records:
        # Only the unexpected results keep theirs (passes and skips do not).
        assert ("trace" in record.detail) == record.unexpected, record.case_id
    record = next(r for r in unexpected if r.case_id == "land.only-in-main-phase"
                  and r.edition == "cr2004")
    relative = record.detail["trace"]
    assert relative == "traces/cr2004/land.only-in-main-phase.jsonl"
    assert f"trace: {out / relative}" in printed  # linked from the console line
    found = lines(out / relative)
    assert found[0] == {"trace": trace.FORMAT, "version": 1, "case_id": record.case_id,
                        "edition": "cr2004", "engine": BROKEN}
    sent = [line["send"]["command"] for line in found if "send" in line]
    assert sent[0] == "new_game" and "perform" in sent
    performed = next(line for line in found if "send" in line
                     and line["send"]["command"] == "perform")
    assert performed["send"]["args"]["action"]["action"] == "play_land"
    answers = [line for line in found if "recv" in line]
    assert len(answers) == len(sent) and all(line["seconds"] >= 0 for line in answers)
    ids = [line["send"]["id"] for line in found if "send" in line]
    assert [line["recv"]["id"] for line in answers] == ids  # each answer after its request
    steps = [line["step"] for line in found if "step" in line]
    assert steps == [1]  # the failing step is the first: no step after it ran
    assert found[-1] == {"t": found[-1]["t"], "status": "fail", "message": record.message}
    times = [line["t"] for line in found[1:]]
    assert times == sorted(times)


def test_trace_all_keeps_every_case_run_that_ran_under_xdist(tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run(capsys, out, CORRECT, "--trace", "all", "-n", "2")
    assert code == 0, err
    results = Results.from_file(out / "results.json")
    ran = [r for r in results.records if r.status != "skip"]
    assert ran and all((out / r.detail["trace"]).is_file() for r in ran)
    assert len(list((out / "traces").rglob("*.jsonl"))) == len(ran)
    # A later run without --trace leaves no trace of this one behind.
    code, _, err = run(capsys, out, CORRECT)
    assert code == 0, err
    assert list((out / "traces").rglob("*.jsonl")) == []


def test_trace_over_stdio_records_stderr_a_crash_and_the_restarts_hello(tmp_path, capsys):
    engine = f"cmd:{sys.executable} {FAKES / 'breaker.py'} crashes_on_new_game"
    out = tmp_path / "out"
    code, _, err = run(capsys, out, engine, "--trace", "--edition", "cr2004", "--repeat", "2")
    assert code == 1, err
    results = Results.from_file(out / "results.json")
    crashed = [r for r in results.records if r.status == "crash"]
    assert crashed
    found = lines(out / crashed[0].detail["trace"])
    runs = [i for i, line in enumerate(found) if "run" in line]
    assert len(runs) == 2  # both runs of the case (--repeat 2), one after the other
    for first, last in ((runs[0], runs[1]), (runs[1], len(found))):
        part = found[first:last]
        assert any("send" in line and line["send"]["command"] == "new_game" for line in part)
        assert any("failed" in line and "EngineCrashed" in line["failed"] for line in part)
        assert "breaker: crashed in new_game" in "".join(line.get("stderr", "")
                                                         for line in part)
    # The second run starts a fresh engine: its hello is in the trace, before its new_game.
    second = [line["send"]["command"] for line in found[runs[1]:] if "send" in line]
    assert second[:2] == ["hello", "new_game"]


def test_the_trace_option_is_checked(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        run(capsys, tmp_path / "out", CORRECT, "--trace", "some")
    assert stopped.value.code == 2 and "invalid choice: 'some'" in capsys.readouterr().err


def test_the_plugin_traces_beside_its_results(pytester):
    args = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "--assert=plain",
            f"--mtg-engine={BROKEN}", "--mtg-no-bundled", f"--mtg-cases={FROZEN}",
            "--mtg-rules=cr2004:212.6a", "--mtg-edition=cr2004")
    result = pytester.runpytest_inprocess(*args, "--mtg-trace")
    assert "--mtg-trace needs --mtg-results" in result.stderr.str()
    result = pytester.runpytest_inprocess(*args, "--mtg-trace", "--mtg-results=out/r.json")
    result.assert_outcomes(failed=2)
    assert "trace: traces/cr2004/land.only-in-main-phase.jsonl" in result.stdout.str()
    data = json.loads((pytester.path / "out" / "r.json").read_text())
    kept = [r["detail"]["trace"] for r in data["results"] if r["status"] == "fail"]
    assert len(kept) == 2 and all((pytester.path / "out" / k).is_file() for k in kept)
    result = pytester.runpytest_inprocess(*args, "--mtg-trace=often",
                                          "--mtg-results=out/r.json")
    assert "must be unexpected or all, not 'often'" in result.stderr.str()


def test_a_run_without_a_tape_records_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    code, printed, _ = run(capsys, out, BROKEN)
    assert code == 1
    assert not (out / "traces").exists() and "trace:" not in printed
    assert all("trace" not in r.detail for r in Results.from_file(out / "results.json").records)


# ---- symptoms ----

def record(case_id: str, message: str, *, rules: tuple[str, ...] = ("cr2004:101.1",),
           status: str = "fail", **detail: object) -> Record:
    return Record(case_id=case_id, edition="cr2004", rules=rules, engine="e", status=status,
                  outcome=status, message=message, duration=0.0, detail=detail)


def test_unexpected_results_are_grouped_by_symptom_the_largest_group_first():
    pending = [record(f"c{i}", f"step {i} (expect): pending: expected {{\"decision\": "
                      f"\"d{i}\"}}, observed null", rules=(f"modern:40{i}.1",), step=i,
                      step_kind="expect", path="pending", expected={"decision": f"d{i}"},
                      observed=None) for i in range(3)]
    rejected = [record(f"r{i}", f"step 2 (do cast): the engine rejected {{\"action\": "
                       f"\"cast\", \"card\": {i}}} as illegal (illegal_target): chose "
                       f"[{{'Object': {i + 7}}}]", step=2, step_kind="do")
                for i in range(2)]
    other = record("o", "step 5 (expect): players.A.life: expected 19, observed 20", step=5,
                   step_kind="expect", path="players.A.life", expected=19, observed=20)
    groups = group([other, *rejected, *pending])
    assert [len(g) for g in groups] == [3, 2, 1]
    assert groups[0].symptom.text == "[fail] expect: pending observed null"
    assert groups[0].rules == ["modern:400.1", "modern:401.1", "modern:402.1"]
    assert groups[1].symptom.text == ("[fail] do: the engine rejected … as illegal "
                                      "(illegal_target): chose …")
    assert groups[2].symptom.text == "[fail] expect: players.A.life observed a number"
    # Another shape is another symptom: observing a list is not observing nothing.
    listed = record("l", "step 3 (expect): pending: expected {}, observed []",
                    step_kind="expect", path="pending", expected={}, observed=[])
    assert symptom_of(listed) != groups[0].symptom


def test_a_check_of_a_mapping_groups_with_a_check_of_its_member():
    whole = record("a", 'step 4 (expect): turn.step: expected "declare_attackers", observed '
                   '"end_of_combat"', path="turn", expected={"step": "x"}, observed="y")
    member = record("b", 'step 7 (expect): turn.step: expected "declare_attackers", observed '
                    '"end_of_combat"', path="turn.step", expected="x", observed="y")
    assert symptom_of(whole) == symptom_of(member)


def test_masking_keeps_the_words_and_drops_the_particulars():
    assert masked("the game is at turn 4, past turn 3, step cleanup") == \
        "the game is at turn N, past turn N, step cleanup"
    assert masked('observe did not return within 0.0876s') == "observe did not return within Ns"
    assert masked("rejected {\"a\": {\"b\": [1]}} as 'x'") == "rejected … as '…'"


def test_the_console_groups_unexpected_results_and_shows_their_rules(tmp_path, capsys):
    code, printed, _ = run(capsys, tmp_path / "out", BROKEN)
    assert code == 1
    assert "Unexpected results (4), by symptom, the largest group first (1 group):" in printed
    assert ("  4 × [fail] expect_illegal: the engine accepted …; it must be rejected as "
            "illegal_action") in printed
    assert "    rules cited: cr2004:212.6a" in printed
    assert printed.count("        rules: cr2004:212.6a") == 4  # each failure line's rules
    rerun = f"--out {tmp_path / 'out' / 'rerun-land.only-in-main-phase'}"
    assert rerun in printed
