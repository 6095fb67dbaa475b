"""The default number of workers of ``mtgconf run``: a few case runs timed, then weighed
against what starting workers costs (conformance.jobs)."""

from __future__ import annotations

import re

import pytest

from conformance import casefile, jobs
from conformance.session import EngineSession
from conformance.transports import EngineSpec
from mtgconf.commands import run as cli_run
from tests.test_harness_runner import CASES_DIR

CASES = casefile.load([CASES_DIR]).cases
EDITIONS = ("cr2004", "modern")


def started(name: str) -> EngineSession:
    session = EngineSession(EngineSpec.parse(f"py:tests.fakes.miniatures:{name}"))
    session.start()
    return session


@pytest.mark.parametrize(("cpus", "runs", "each", "expected"), [
    (2, 500, 0.005, 0),  # the bundled suite on the bundled engine: 2.5 s in one process
    (64, 500, 0.005, 0),  # however many CPUs: the start-up alone costs as much
    (2, 500, 0.1, 2),  # 50 s in one process
    (1, 500, 1.0, 0),  # one CPU
    (8, 3, 5.0, 3),  # no more workers than case runs
    (2, 1000, 0.011, 2), (2, 1000, 0.008, 0),  # 11 s: worth two workers; 8 s: not
])
def test_workers_pay_only_for_slow_case_runs(cpus, runs, each, expected):
    assert jobs.workers(cpus=cpus, runs=runs, seconds_per_run=each, start_up=2.5) == expected


def test_a_probe_times_a_few_case_runs():
    session = started("Correct")
    found = jobs.probe(session, CASES, EDITIONS)
    assert found is not None
    assert jobs.MIN_RUNS <= found.timed <= jobs.MAX_RUNS
    assert 0 < found.seconds_per_run < jobs.PROBE_TIMEOUT
    session.close()


def test_a_probe_of_an_engine_that_runs_nothing_finds_nothing():
    session = started("DeclaresNothing")
    assert jobs.probe(session, CASES, EDITIONS) is None
    session.close()


def test_a_run_in_this_process_gets_a_fresh_engine_after_the_timing(monkeypatch, capsys):
    monkeypatch.setattr(jobs, "PROBE_TIMEOUT", 0.2)
    monkeypatch.setattr(cli_run.os, "cpu_count", lambda: 2)
    session = started("HangsOnObserve")
    jobs_text, fresh, _ = cli_run.default_jobs(session, CASES, EDITIONS, 20, start_up=1.0)
    # 20 runs of 0.2 s (it hung until the probe's time limit, once): 4 s in one process, and
    # two workers that take 2 s to start would not finish in 3
    assert jobs_text == "0"
    assert re.search(r"^workers: none, all in this process \(2\d\d ms a case run, 20 runs",
                     capsys.readouterr().out, re.MULTILINE)
    assert fresh is not session and fresh.client is not None and fresh.restarts == 0
    assert session.client is None  # the timed one is closed
    fresh.close()


def test_slow_case_runs_get_a_worker_per_cpu(monkeypatch, capsys):
    monkeypatch.setattr(jobs, "PROBE_TIMEOUT", 0.2)
    monkeypatch.setattr(cli_run.os, "cpu_count", lambda: 4)
    session = started("HangsOnObserve")
    jobs_text, handed, _ = cli_run.default_jobs(session, CASES, EDITIONS, 200, start_up=1.0)
    assert jobs_text == "4"  # 40 s in one process; about 12 s with four workers
    assert handed is session  # for what it declared: the workers start their own engines
    assert "workers: 4 (2" in capsys.readouterr().out
    session.close()


def test_few_case_runs_or_one_cpu_are_never_timed(monkeypatch):
    def unexpected(*args, **kwargs):
        raise AssertionError("timed")

    monkeypatch.setattr(jobs, "probe", unexpected)
    session = started("Correct")
    assert cli_run.default_jobs(session, CASES, EDITIONS, cli_run.FEW_RUNS - 1,
                                start_up=1.0) == ("0", session, ())
    monkeypatch.setattr(cli_run.os, "cpu_count", lambda: 1)
    assert cli_run.default_jobs(session, CASES, EDITIONS, 1000, start_up=1.0) == \
        ("0", session, ())
    session.close()


def test_a_crash_during_the_timing_is_reported_and_judged(tmp_path, monkeypatch, capsys):
    """The engine crashes in its first game, which the timing plays: the run's own results
    all pass, but the run says what the timing saw and exits 1 (issue 25)."""
    import sys

    from conformance.exitcodes import ExitCode
    from mtgconf import main
    from tests.test_cli_verdicts import FAKES, FROZEN, results_of

    monkeypatch.setattr(cli_run.os, "cpu_count", lambda: 2)
    engine = f"cmd:{sys.executable} {FAKES / 'crashes_once.py'} {tmp_path / 'crashed'}"
    code = main(["run", "--engine", engine, "--no-bundled", "--cases", str(FROZEN),
                 "--out", str(tmp_path / "out"), "--no-report"])
    out, err = capsys.readouterr()
    assert "workers: " in out  # the timing ran
    assert (tmp_path / "crashed").exists()
    assert {r["status"] for r in results_of(tmp_path)["results"]} == {"pass"}
    assert code == ExitCode.UNEXPECTED, err
    assert re.search(r"mtgconf: \[crash\] \S+ during the timing of a few case runs \(to choose "
                     r"the workers\): .*; the run's own run of it: pass", err)
