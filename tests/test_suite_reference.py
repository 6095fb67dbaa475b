"""The bundled suite against the reference engine: every case passes, in-process and over the
wire (``python -m reference_engine.serve``), with the same results, and the lint is clean."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from mtgconf import main

SERVE = f"cmd:{sys.executable} -m reference_engine.serve"


def _run(tmp_path: Path, name: str, *extra: str) -> tuple[int, dict]:
    out = tmp_path / name
    code = main(["run", "-n", "2", "--out", str(out), *extra])
    return code, json.loads((out / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("suite")
    return {
        "folder": tmp,
        "in-process": _run(tmp, "in-process"),
        "serial": _run(tmp, "serial", "-n", "0"),
        "wire": _run(tmp, "wire", "--engine", SERVE, "--validate-protocol"),
    }


def test_every_case_passes_in_process(runs):
    code, results = runs["in-process"]
    failing = [(r["case_id"], r["edition"], r["message"]) for r in results["results"]
               if r["status"] != "pass"]
    assert failing == []
    assert code == 0
    assert len({r["case_id"] for r in results["results"]}) >= 40


def test_wire_results_equal_in_process_results(runs):
    (_, local), (code, wire) = runs["in-process"], runs["wire"]
    def key(results: dict) -> list:
        return sorted((r["case_id"], r["edition"], r["status"]) for r in results["results"])
    assert key(wire) == key(local)
    assert code == 0


def _timeless(results: dict) -> dict:
    """A results file without what differs from run to run: when it ran and how long each
    case took."""
    out = {k: v for k, v in results.items() if k not in ("started", "finished")}
    out["results"] = [{k: v for k, v in r.items() if k != "duration"}
                      for r in results["results"]]
    return out


def _timeless_junit(path: Path) -> str:
    return re.sub(r' (time|timestamp)="[^"]*"', "", path.read_text(encoding="utf-8"))


def test_results_are_the_same_whatever_the_number_of_workers(runs, tmp_path_factory):
    """The whole results file and the JUnit file, not only the verdicts: a golden test of the
    run's outputs under -n 2 against -n 0 (the same folders, the same order, the same
    messages and details)."""
    (_, workers), (_, serial) = runs["in-process"], runs["serial"]
    assert _timeless(workers) == _timeless(serial)
    assert workers["selected"] == serial["selected"] == len(serial["results"])
    base = runs["folder"]
    assert _timeless_junit(base / "in-process" / "junit.xml") == \
        _timeless_junit(base / "serial" / "junit.xml")


def test_the_bundled_cases_lint_clean(capsys):
    assert main(["cases", "lint"]) == 0
    _, err = capsys.readouterr()
    assert "error" not in err.lower()


@pytest.mark.parametrize(("engine", "name"), [
    ("py:tests.fakes.profiles:GivenZonesAutoPay", "given-zones-auto-pay"),
    ("py:tests.fakes.profiles:SeededStartOnly", "seeded-start-only"),
])
def test_what_a_profile_can_run_it_runs_and_passes(tmp_path, engine, name):
    """The portability report's count for a profile is what an engine of that profile (the
    reference engine cut down to it, refusing anything it did not declare) really runs, and
    every one of those runs passes."""
    from conformance import casefile, portability

    code, results = _run(tmp_path, name, "--engine", engine)
    ran = sorted((r["case_id"], r["edition"]) for r in results["results"]
                 if r["status"] != "skip")
    failing = [(r["case_id"], r["message"]) for r in results["results"]
               if r["status"] not in ("pass", "skip")]
    assert failing == []
    assert code == 0
    chosen = portability.profile(name)
    report = portability.report(casefile.load().cases, chosen.info(), chosen.editions)
    assert ran == sorted(report.runs)


@pytest.mark.parametrize("fake", ["PoolOnly", "SourcesOnly", "AutoPayOnly"])
def test_every_case_an_engine_can_pay_for_passes_in_its_form_of_payment(tmp_path, fake):
    """The bundled cases name the lands that pay; each form of payment the harness turns
    that into (activating them first, naming them, leaving them to the engine) plays every
    case it runs the same, correct way."""
    code, results = _run(tmp_path, fake, "--engine", f"py:tests.fakes.portable:{fake}")
    failing = [(r["case_id"], r["edition"], r["message"]) for r in results["results"]
               if r["status"] not in ("pass", "skip")]
    assert failing == []
    assert code == 0
    assert sum(r["status"] == "pass" for r in results["results"]) >= 150
