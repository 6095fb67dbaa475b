"""The suite's speed and the harness's overhead: the bundled case runs, timed.

What is timed is the harness's own runner, ``conformance.runner.run_case``: what each pytest
item of ``mtgconf run`` calls, with the same default case timeout, on a session started the
same way. pytest is left out (its collection and reporting, and the one-off start-up of a run:
loading and linting the case files, writing results), so the figure is the per-case cost of
the harness and the engine together, the part that grows with the suite, and it fits any time
budget: the case runs the engine can run (what it lacks is skipped before anything is sent,
so skips are left out) go in a seeded random order, cycled until the budget is spent. A short
budget thus times an unbiased sample of the suite, the same sample for every variant.

Each variant is one way of running the same engine: as given (in process for ``reference``
and ``py:`` engines), with ``--validate-protocol``, and for the reference engine over the wire
too (``python -m reference_engine.serve``). Its overhead is the wall time over the time spent
inside engine calls (``EngineSession.engine_seconds``: the time the client waits on the
transport, so over the wire it includes the pipes and the engine process's JSON work).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass

from conformance.case import Case
from conformance.protocol import EngineInfo
from conformance.runner import RunOptions, blockers, run_case
from conformance.session import EngineSession
from mtgconf.bench.figures import Sample, Unmeasurable

#: case runs done untimed on a fresh session: the first validated message compiles its
#: validator, the first case of an edition loads its card implementations
WARM_UP = 5
SEED = 0
#: statuses that mean the engine, not the case, went wrong (noted beside the figure)
ENGINE_TROUBLE = ("crash", "timeout", "error")


@dataclass(frozen=True, slots=True)
class CaseRun:
    case: Case
    edition: str


def case_runs(info: EngineInfo, editions: tuple[str, ...]) -> tuple[list[CaseRun], int]:
    """The bundled case runs of ``editions`` the engine can run, in a seeded order, and the
    number it cannot (it lacks a capability, a card, the edition)."""
    from conformance.lint import load_checked
    from conformance.settings import BUNDLED_CASES

    cases = load_checked((BUNDLED_CASES,))
    cases.raise_for_problems()
    runs = [CaseRun(c, e) for c in cases.cases for e in c.editions if e in editions]
    runnable = [r for r in runs if not blockers(r.case, r.edition, info)]
    random.Random(SEED).shuffle(runnable)
    return runnable, len(runs) - len(runnable)


def warm_up(session: EngineSession, runs: list[CaseRun]) -> None:
    for run in runs[:WARM_UP]:
        run_case(run.case, run.edition, session, RunOptions())


def time_suite(session: EngineSession, runs: list[CaseRun], seconds: float) -> Sample:
    """Case runs per second until ``seconds`` are spent (at least one case run); the detail
    has the wall and engine seconds, whose ratio is the harness's overhead."""
    if not runs:
        raise Unmeasurable("the engine can run none of the bundled cases")
    options = RunOptions()
    statuses: Counter[str] = Counter()
    engine_before = session.engine_seconds
    done = 0
    begin = time.perf_counter()
    while True:
        run = runs[done % len(runs)]
        statuses[run_case(run.case, run.edition, session, options).status] += 1
        done += 1
        if session.broken is not None:
            raise Unmeasurable(f"after {done} case runs: {session.broken}")
        if time.perf_counter() - begin >= seconds:
            break
    wall = time.perf_counter() - begin
    inside = session.engine_seconds - engine_before
    return Sample(done / wall, {
        "case_runs": done, "seconds": round(wall, 3), "engine_seconds": round(inside, 3),
        "overhead": round(wall / inside, 3) if inside > 0 else None,
        "statuses": dict(sorted(statuses.items())), "restarts": session.restarts})


def trouble(samples: list[Sample]) -> str | None:
    """A note on the case runs the engine crashed, hung or errored in, over every repeat."""
    statuses: Counter[str] = Counter()
    for sample in samples:
        statuses.update(sample.detail["statuses"])
    bad = [f"{statuses[s]} {s}" for s in ENGINE_TROUBLE if statuses[s]]
    if not bad:
        return None
    return f"{', '.join(bad)} of {sum(statuses.values())} case runs"
