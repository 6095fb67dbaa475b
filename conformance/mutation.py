"""Scoring cases against a mutant set: which case runs fail under each mutant.

A *mutant set* belongs to an engine (its row of ``conformance.engines`` names it, e.g. the
reference engine's ``reference_engine.mutants``) and is loaded by name, like the engine: the
harness imports no engine. It is a module with ``MUTANTS`` (id -> a mutant with ``id``,
``rules``, ``description`` and ``audit``) and ``applied(id)``, a context manager that breaks
the engine in this process for its duration.

Each mutant runs in a process of its own, forked from this one (spawned where fork is not
available): the mutant patches that process's engine, which runs the cases in process, and
nothing of it reaches the next mutant. A mutant is *killed* when a case run ends as ``fail``
under it: a check that held on the unmutated engine does not hold. Errors,
crashes and timeouts also show that the mutant changed something, but not that a case checks
the rule, so they are reported apart and kill nothing. By default a mutant's runs stop at its
first killing failure, trying first the cases that cite the rules it breaks; ``every`` runs
them all (which cases kill which mutant).
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any, Protocol, cast

from conformance.case import Case
from conformance.runner import RunOptions, run_case

UNMUTATED = "none"
FORMAT = "mtg-conformance mutants"
VERSION = 2
#: how long one mutant may take in all, at most, before it is reported as an error
MUTANT_TIMEOUT = 300.0
OTHER_KILLS = frozenset(("error", "crash", "timeout"))

Run = tuple[Case, str]  # a case and the edition it runs under


class Mutant(Protocol):
    """One mutant of a set, as the harness reads it."""

    @property
    def id(self) -> str: ...
    @property
    def rules(self) -> tuple[str, ...]: ...  # the rules it breaks, as cases cite them
    @property
    def description(self) -> str: ...
    @property
    def audit(self) -> str | None: ...


@dataclass(frozen=True)
class MutantSet:
    """An engine's mutants, loaded by the name of the module that registers them."""

    name: str  # the module, e.g. reference_engine.mutants
    engine: str  # the --engine value of the engine they break, run in this process
    mutants: Mapping[str, Mutant]
    applied: Callable[[str], AbstractContextManager[object]]

    @classmethod
    def load(cls, name: str, engine: str) -> MutantSet:
        """Import the module ``name`` (``MUTANTS`` and ``applied``, see the module doc)."""
        module = importlib.import_module(name)
        try:
            mutants, applied = module.MUTANTS, module.applied
        except AttributeError as exc:
            raise ValueError(f"{name} is not a mutant set: it has no {exc.name}") from None
        return cls(name, engine, cast("Mapping[str, Mutant]", mutants),
                   cast("Callable[[str], AbstractContextManager[object]]", applied))

    def __contains__(self, mutant_id: object) -> bool:
        return mutant_id in self.mutants

    def __getitem__(self, mutant_id: str) -> Mutant:
        return self.mutants[mutant_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self.mutants)

    def mutated(self, mutant_id: str) -> AbstractContextManager[object]:
        """The engine broken by this mutant (``none``: as it is)."""
        if mutant_id == UNMUTATED:
            return contextlib.nullcontext()
        return self.applied(mutant_id)

    def result(self, mutant_id: str, status: str, **fields: Any) -> MutantResult:
        """A result of this set's mutant, carrying what it breaks and says of itself."""
        return self.described(MutantResult(mutant_id, status, **fields))

    def described(self, result: MutantResult) -> MutantResult:
        """``result`` with what its mutant breaks and says of itself (none: not of the set)."""
        definition = self.mutants.get(result.mutant)
        if definition is None:
            return result
        return replace(result, rules=definition.rules, description=definition.description,
                       audit=definition.audit)


@dataclass(frozen=True)
class MutantResult:
    mutant: str
    status: str  # killed, survived (nothing failed), error (the mutant could not be run)
    killed_by: tuple[str, ...] = ()  # edition::case_id ending as fail
    other: tuple[str, ...] = ()  # edition::case_id ending as error, crash or timeout
    runs: int = 0
    seconds: float = 0.0
    message: str = ""
    rules: tuple[str, ...] = ()  # the rules the mutant breaks (none: not of the set)
    description: str | None = None
    audit: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "rules": list(self.rules),
                               "killed_by": list(self.killed_by), "runs": self.runs,
                               "seconds": round(self.seconds, 2)}
        if self.description is not None:
            out["description"] = self.description
            if self.audit:
                out["audit"] = self.audit
        if self.other:
            out["other"] = list(self.other)
        if self.message:
            out["message"] = self.message
        return out


def runs_of(cases: Iterable[Case], editions: Sequence[str]) -> list[Run]:
    return [(case, edition) for case in cases for edition in case.editions
            if edition in editions]


def ordered_for(mutants: MutantSet, mutant_id: str, runs: Sequence[Run]) -> list[Run]:
    """The runs, those citing a rule the mutant breaks first: they are the likeliest to kill
    it."""
    rules = set(mutants[mutant_id].rules) if mutant_id in mutants else set()
    return sorted(runs, key=lambda run: not rules & set(run[0].rules))


def run_here(mutants: MutantSet, mutant_id: str, runs: Sequence[Run], *, every: bool,
             case_timeout: float) -> MutantResult:
    """Run ``runs`` in this process with the mutant applied (``none``: unmutated)."""
    from conformance.session import EngineSession
    from conformance.transports import EngineSpec

    started = time.monotonic()
    killed: list[str] = []
    other: list[str] = []
    done = 0
    options = RunOptions(case_timeout=case_timeout or None)
    with mutants.mutated(mutant_id):
        # Restarts are free: a mutant that crashes the engine still has every case run.
        session = EngineSession(EngineSpec.parse(mutants.engine), max_restarts=1_000_000)
        session.start()
        try:
            for case, edition in ordered_for(mutants, mutant_id, runs):
                outcome = run_case(case, edition, session, options)
                done += 1
                where = f"{edition}::{case.id}"
                if outcome.status == "fail":
                    killed.append(where)
                    if not every:
                        break
                elif outcome.status in OTHER_KILLS:
                    other.append(where)
        finally:
            session.close()
    return mutants.result(mutant_id, "killed" if killed else "survived",
                          killed_by=tuple(sorted(killed)), other=tuple(sorted(other)),
                          runs=done, seconds=time.monotonic() - started)


# ---- one process per mutant ----

_RUNS: list[Run] = []  # what forked children run (inherited, not pickled)


def _child(set_name: str, engine: str, mutant_id: str, runs: list[Run] | None, every: bool,
           case_timeout: float, conn: Connection) -> None:
    try:
        mutants = MutantSet.load(set_name, engine)  # forked: imported already
        conn.send(run_here(mutants, mutant_id, runs if runs is not None else _RUNS,
                           every=every, case_timeout=case_timeout))
    except BaseException as exc:  # the child reports whatever stopped it
        conn.send(MutantResult(mutant_id, "error",
                               message=f"{type(exc).__name__}: {exc}"[:500]))
    finally:
        conn.close()


def run_mutants(mutants: MutantSet, mutant_ids: Sequence[str], runs: Sequence[Run], *,
                jobs: int = 2, every: bool = False, case_timeout: float = 5.0,
                progress: Callable[[MutantResult], None] | None = None) -> list[MutantResult]:
    """Each mutant in a process of its own, ``jobs`` at a time; results in the given order."""
    methods = multiprocessing.get_all_start_methods()
    context = (multiprocessing.get_context("fork") if "fork" in methods
               else multiprocessing.get_context("spawn"))
    forked = context.get_start_method() == "fork"
    _RUNS[:] = runs
    pending = list(mutant_ids)
    active: dict[str, tuple[Any, Connection, float]] = {}
    results: dict[str, MutantResult] = {}

    def finish(mutant_id: str, result: MutantResult) -> None:
        result = mutants.described(result)
        results[mutant_id] = result
        if progress is not None:
            progress(result)

    while pending or active:
        while pending and len(active) < max(1, jobs):
            mutant_id = pending.pop(0)
            parent, child = context.Pipe(duplex=False)
            process = context.Process(
                target=_child, args=(mutants.name, mutants.engine, mutant_id,
                                     None if forked else list(runs), every, case_timeout,
                                     child), daemon=True)
            process.start()
            child.close()
            active[mutant_id] = (process, parent, time.monotonic())
        for mutant_id, (process, conn, started) in list(active.items()):
            result = None
            if conn.poll(0.02):
                try:
                    result = conn.recv()
                except EOFError:
                    result = mutants.result(mutant_id, "error", message=_died(process))
            elif not process.is_alive():
                result = mutants.result(mutant_id, "error", message=_died(process))
            elif time.monotonic() - started > MUTANT_TIMEOUT:
                process.kill()
                result = mutants.result(mutant_id, "error",
                                        message=f"took more than {MUTANT_TIMEOUT:g}s")
            if result is not None:
                process.join(timeout=5)
                conn.close()
                del active[mutant_id]
                finish(mutant_id, result)
    return [results[m] for m in mutant_ids]


def _died(process: Any) -> str:
    process.join(timeout=1)
    return f"the process running it died (exit status {process.exitcode})"


# ---- reports ----

@dataclass
class Summary:
    results: list[MutantResult]
    control_runs: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        statuses = [r.status for r in self.results]
        return {"mutants": len(statuses), "killed": statuses.count("killed"),
                "survived": statuses.count("survived"), "error": statuses.count("error")}

    def by_rule(self) -> dict[str, list[MutantResult]]:
        """Each rule a mutant breaks, with the mutants breaking it."""
        found: dict[str, list[MutantResult]] = {}
        for result in self.results:
            for rule in result.rules:
                found.setdefault(rule, []).append(result)
        return dict(sorted(found.items()))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION,
                "summary": {**self.counts(), "seconds": round(self.seconds, 1),
                            "control_runs": self.control_runs},
                **self.extra,
                "mutants": {r.mutant: r.to_json() for r in self.results}}


@dataclass
class Comparison:
    lost: list[str]  # killed before, not killed after: the new cases lost power
    gained: list[str]  # not killed before, killed after
    still_surviving: list[str]
    missing: list[str]  # killed before and not run after: nothing shows they are still caught


def compare(before: dict[str, Any], after: dict[str, Any]) -> Comparison:
    """Two runs' JSON documents (this format, or the earlier mutation kit's)."""
    was, now = before["mutants"], after["mutants"]
    lost, gained, surviving, missing = [], [], [], []
    for mutant_id in [*was, *(m for m in now if m not in was)]:
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
