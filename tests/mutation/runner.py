"""Run the conformance cases against mutants, and compare two such runs.

Each suite run is a child process of the existing CLI (``python -m conformance.cli run``)
with ``MTG_MUTANT`` set, so that every mutant patches a fresh interpreter. A case kills a
mutant when it ends as fail, error, crash or timeout under it; cases the harness reports as
"not run" (after an engine marked broken) kill nothing, since they checked nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.mutation.engines import ENV, UNMUTATED
from tests.mutation.mutants import MUTANTS

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "conformance" / "cases"
ENGINE = "py:tests.mutation.engines:Mutant"
KILLING = frozenset(("fail", "error", "crash", "timeout"))
FORMAT = "mtg-conformance-mutation"
VERSION = 1
# Engine restarts in a row before the harness gives up on the engine: high, so that a mutant
# that crashes often still has every case run.
MAX_RESTARTS = 10_000


@dataclass(frozen=True)
class Options:
    """Which cases to run, as ``mtgconf run`` takes them."""

    cases: tuple[Path, ...] = ()
    no_bundled: bool = False
    case_timeout: float = 5.0

    def cli_args(self) -> list[str]:
        args = [f"--case-timeout={self.case_timeout}"]
        for folder in self.cases:
            args += ["--cases", str(folder.resolve())]
        if self.no_bundled:
            args.append("--no-bundled")
        return args


@dataclass
class Outcome:
    """One suite run: the engine unmutated (the control) or one mutant."""

    mutant: str
    status: str  # "killed", "survived" or "error" (the run itself failed)
    runs: int = 0
    killed_by: list[str] = field(default_factory=list)  # "edition::case_id", sorted
    counts: dict[str, int] = field(default_factory=dict)
    not_run: int = 0
    message: str = ""
    seconds: float = 0.0


def run_suite(mutant_id: str, options: Options) -> Outcome:
    """Run the cases against one mutant (or ``none``) in a child process."""
    started = time.monotonic()
    env = dict(os.environ)
    env[ENV] = mutant_id
    # The child must import this checkout's packages, whatever is installed in the venv.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant_id}-") as tmp:
        command = [sys.executable, "-m", "conformance.cli", "run", "--engine", ENGINE,
                   "--out", tmp, "-n", "0", f"--max-restarts={MAX_RESTARTS}",
                   *options.cli_args()]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                              check=False)
        results_path = Path(tmp) / "results.json"
        seconds = time.monotonic() - started
        if done.returncode not in (0, 1) or not results_path.exists():
            tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
            return Outcome(mutant_id, "error", seconds=seconds,
                           message=f"exit {done.returncode}: " + " | ".join(tail))
        data = json.loads(results_path.read_text(encoding="utf-8"))
    return _outcome(mutant_id, data["results"], seconds)


def _outcome(mutant_id: str, results: list[dict[str, Any]], seconds: float) -> Outcome:
    counts: dict[str, int] = {}
    killed_by: set[str] = set()
    not_run = 0
    for result in results:
        status = result["status"]
        counts[status] = counts.get(status, 0) + 1
        if status in KILLING:
            if str(result.get("message", "")).startswith("not run"):
                not_run += 1
            else:
                killed_by.add(f"{result['edition']}::{result['case_id']}")
    return Outcome(mutant_id, "killed" if killed_by else "survived", runs=len(results),
                   killed_by=sorted(killed_by), counts=counts, not_run=not_run,
                   seconds=seconds)


def run_mutants(mutant_ids: Iterable[str], options: Options, jobs: int,
                progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run every mutant, ``jobs`` child processes at a time; outcomes in the given order."""
    ids = list(mutant_ids)
    outcomes: dict[str, Outcome] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_suite, mutant_id, options): mutant_id for mutant_id in ids}
        for future in as_completed(futures):
            outcome = future.result()
            outcomes[outcome.mutant] = outcome
            if progress is not None:
                progress(outcome)
    return [outcomes[mutant_id] for mutant_id in ids]


def control(options: Options) -> Outcome:
    """The unmutated engine through the same path; every case must pass (or skip)."""
    return run_suite(UNMUTATED, options)


def report(control_outcome: Outcome, outcomes: list[Outcome], options: Options,
           seconds: float) -> dict[str, Any]:
    """The JSON document of a run (``--json``): which cases kill which mutant."""
    mutants: dict[str, Any] = {}
    for outcome in outcomes:
        definition = MUTANTS[outcome.mutant]
        entry: dict[str, Any] = {
            "status": outcome.status,
            "rules": list(definition.rules),
            "description": definition.description,
            "killed_by": outcome.killed_by,
            # how the runs that did not pass ended: "error" alone often means a crash
            "results": {s: n for s, n in sorted(outcome.counts.items()) if s in KILLING},
        }
        if definition.audit:
            entry["audit"] = definition.audit
        if outcome.not_run:
            entry["not_run"] = outcome.not_run
        if outcome.message:
            entry["message"] = outcome.message
        mutants[outcome.mutant] = entry
    statuses = [o.status for o in outcomes]
    return {
        "format": FORMAT,
        "version": VERSION,
        "commit": _commit(),
        "cases": {"bundled": not options.no_bundled,
                  "folders": [_shown(folder) for folder in options.cases],
                  "sha256": cases_digest(options)},
        "control": {"runs": control_outcome.runs, "counts": control_outcome.counts},
        "summary": {"mutants": len(outcomes), "killed": statuses.count("killed"),
                    "survived": statuses.count("survived"), "error": statuses.count("error"),
                    "seconds": round(seconds, 1)},
        "mutants": mutants,
    }


def cases_digest(options: Options) -> str:
    """A digest of the case files run (names and contents), to tell runs of the same cases."""
    folders = [*([] if options.no_bundled else [BUNDLED]), *options.cases]
    digest = hashlib.sha256()
    for folder in folders:
        files = [folder] if folder.is_file() else sorted(
            p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml"))
        for path in files:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _shown(folder: Path) -> str:
    try:
        return str(folder.resolve().relative_to(ROOT))
    except ValueError:
        return str(folder)


def _commit() -> str | None:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a mutation run (format {data.get('format')!r})")
    return data


@dataclass
class Comparison:
    lost: list[str]  # killed before, not killed after: the new cases lost power
    gained: list[str]  # not killed before, killed after
    still_surviving: list[str]
    missing: list[str]  # killed before and not run after: nothing shows they are still caught


def compare(before: dict[str, Any], after: dict[str, Any]) -> Comparison:
    was, now = before["mutants"], after["mutants"]
    lost, gained, surviving, missing = [], [], [], []
    for mutant_id in list(was) + [m for m in now if m not in was]:
        killed_before = was.get(mutant_id, {}).get("status") == "killed"
        if mutant_id not in now:
            if killed_before:
                missing.append(mutant_id)
            continue
        killed_after = now[mutant_id]["status"] == "killed"
        if killed_before and not killed_after:
            lost.append(mutant_id)
        elif killed_after and not killed_before:
            gained.append(mutant_id)
        elif not killed_after:
            surviving.append(mutant_id)
    return Comparison(lost, gained, surviving, missing)
