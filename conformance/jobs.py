"""How many worker processes ``mtgconf run`` starts when ``-n`` is not given: measured.

A worker is a fresh Python process that imports pytest and the harness, loads and checks every
case file and starts its own engine before it runs a case: about as long as the bundled suite
takes in one process with the bundled engine. So workers pay only when the case runs are slow,
whatever kind of engine runs them, and the only way to know is to time a few. ``probe`` times
a handful of the run's own case runs on the engine the run started already (a run in one
process then gets a fresh engine), and ``workers`` weighs the suite's time in one process
against the workers' start-up plus their share of it. The probe's case runs are real runs:
their outcomes are kept (``Probe.runs``), so that a fault the engine shows only there (a
crash in its first game) is reported and judged, not lost.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from conformance.case import Case
from conformance.outcomes import Outcome
from conformance.runner import RunOptions, blockers, run_case
from conformance.session import EngineSession

#: a worker's start before it loads the cases: interpreter, pytest, xdist, the harness
WORKER_START = 1.0
#: workers must be estimated to take at most this share of the time in one process: the
#: estimate is rough, and the default must never be slower than one process
WORTH_IT = 0.75
#: case runs timed: at least MIN_RUNS (the first of an edition loads its cards, so the
#: median of a few is taken), then more until PROBE_SECONDS are spent or MAX_RUNS done
MIN_RUNS, MAX_RUNS, PROBE_SECONDS = 3, 9, 0.5
#: a probe run's time limit: one slower than this says enough
PROBE_TIMEOUT = 2.0


@dataclass(frozen=True, slots=True)
class Probe:
    """What timing a few case runs found."""

    seconds_per_run: float
    timed: int  # case runs timed
    runs: tuple[tuple[Case, str, Outcome], ...] = ()  # each timed run: case, edition, outcome


def probe(session: EngineSession, cases: list[Case], editions: tuple[str, ...]) -> Probe | None:
    """The median time of a few of these case runs (a seeded sample of those the engine can
    run), or None if it can run none of them."""
    assert session.info is not None
    runs = [(c, e) for c in cases for e in c.editions
            if e in editions and not blockers(c, e, session.info)]
    if not runs:
        return None
    random.Random(0).shuffle(runs)
    options = RunOptions(case_timeout=PROBE_TIMEOUT)
    times: list[float] = []
    done: list[tuple[Case, str, Outcome]] = []
    began = time.perf_counter()
    for case, edition in runs[:MAX_RUNS]:
        started = time.perf_counter()
        outcome = run_case(case, edition, session, options)
        times.append(time.perf_counter() - started)
        done.append((case, edition, outcome))
        if outcome.status in ("crash", "timeout") or session.client is None:
            break  # what it took is all the more reason for workers
        if len(times) >= MIN_RUNS and time.perf_counter() - began >= PROBE_SECONDS:
            break
    return Probe(statistics.median(times), len(times), tuple(done))


def workers(*, cpus: int, runs: int, seconds_per_run: float, start_up: float) -> int:
    """Worker processes for ``runs`` case runs of ``seconds_per_run`` each, when starting a
    worker takes ``start_up`` seconds: one per CPU if that is estimated to take at most
    ``WORTH_IT`` of the time in one process, else 0 (this process). (Fewer workers would
    gain less for the same start-up: they start side by side.)

    >>> workers(cpus=2, runs=500, seconds_per_run=0.005, start_up=2.5)  # the bundled suite
    0
    >>> workers(cpus=2, runs=500, seconds_per_run=0.1, start_up=2.5)
    2
    >>> workers(cpus=8, runs=5, seconds_per_run=2.0, start_up=2.5)
    5
    """
    alone = runs * seconds_per_run
    n = min(cpus, runs)
    if n < 2 or start_up + alone / n > WORTH_IT * alone:
        return 0
    return n
