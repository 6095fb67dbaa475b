"""HypoFuzz runs the fuzz targets as documented (docs/fuzz.md, "Campaigns with HypoFuzz"):
``hypothesis fuzz -- fuzz/targets.py`` against the reference engine, with the directory
database ``MTGCONF_FUZZ_DATABASE`` names, fuzzes both editions' tests and saves what it ran
there, under the very key ``mtgconf fuzz --database`` of the same engine and edition replays
first (so a failure HypoFuzz finds comes back as a case file from the next ``mtgconf fuzz``)."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ROOT / "fuzz" / "targets.py"
PATIENCE = 180.0  # seconds for the first examples, on a loaded machine

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("hypofuzz") is None and not os.environ.get(
        "MTGCONF_REQUIRE_HYPOFUZZ"),
    reason="hypofuzz is not installed (pip install -e '.[hypofuzz]'); MTGCONF_REQUIRE_HYPOFUZZ "
           "makes this a failure")


def _reports(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """HypoFuzz's reports in a directory database, by test node id."""
    from hypothesis.database import DirectoryBasedExampleDatabase

    database = DirectoryBasedExampleDatabase(folder)
    found: dict[str, list[dict[str, Any]]] = {}
    for key in database.fetch(b"hypofuzz.test_keys"):
        for raw in database.fetch(key + b".hypofuzz.reports"):
            report = json.loads(raw)
            found.setdefault(report["nodeid"], []).append(report)
    return found


def _ran(reports: list[dict[str, Any]]) -> int:
    """Examples run to the end (Hypothesis's VALID status, 2) as the latest report counts."""
    return max((int(r["status_counts"].get("2", 0)) for r in reports), default=0)


def _mtgconf_fuzz_key(edition: str) -> bytes:
    """The example-database key ``mtgconf fuzz --engine reference`` gives its games of
    ``edition`` (``fuzz.campaign`` runs the machine with ``run_state_machine_as_test``)."""
    from hypothesis.internal.reflection import function_digest
    from hypothesis.stateful import get_state_machine_test

    from fuzz.engines import FuzzEngines
    from fuzz.machine import FuzzConfig, fuzz_machine

    engines = FuzzEngines()
    try:
        machine = fuzz_machine(FuzzConfig("reference", edition), engines)
        test = get_state_machine_test(machine)
        return function_digest(test.hypothesis.inner_test)
    finally:
        engines.close()


def test_hypofuzz_fuzzes_the_targets_and_saves_examples_where_mtgconf_fuzz_finds_them(tmp_path):
    database = tmp_path / "examples"
    env = {**os.environ, "MTGCONF_FUZZ_DATABASE": str(database), "PYTHONPATH": str(ROOT)}
    command = [str(Path(sys.executable).parent / "hypothesis"), "fuzz", "-n", "1",
               "--no-dashboard", "--", str(TARGETS), "-p", "no:cacheprovider"]
    log = (tmp_path / "hypofuzz.log").open("w+", encoding="utf-8")
    fuzzing = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + PATIENCE
        reports: dict[str, list[dict[str, Any]]] = {}
        while time.monotonic() < deadline and fuzzing.poll() is None:
            reports = _reports(database) if database.exists() else {}
            if any(_ran(r) for r in reports.values()):
                break
            time.sleep(1)
    finally:
        if fuzzing.poll() is None:
            os.killpg(fuzzing.pid, signal.SIGINT)
            try:
                fuzzing.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(fuzzing.pid, signal.SIGKILL)
                fuzzing.wait()
    log.seek(0)
    output = log.read()
    assert "using 1 process to fuzz 2 tests" in output, output[-3000:]
    ran = {nodeid: _ran(r) for nodeid, r in reports.items()}
    assert any(ran.values()), (ran, output[-3000:])
    (nodeid, report), *_ = [(n, r) for n, r in reports.items() if _ran(r)]
    assert nodeid in ("fuzz/targets.py::TestFuzz_cr2004::runTest",
                      "fuzz/targets.py::TestFuzz_modern::runTest"), nodeid
    edition = nodeid.split("TestFuzz_")[1].split("::")[0]
    key = base64.b64decode(report[0]["database_key"])
    assert key == _mtgconf_fuzz_key(edition)
