"""A benchmark run: every figure asked for, once per repeat, each repeat after its baseline.

Repeats go round the figures (baseline, then each figure once, then again), so that a figure's
ratio compares it with the baseline timed just before it, and a burst of load on a shared
machine spreads over all figures instead of spoiling one. Every measurement of a figure plays
the same games and case runs: repeats differ by the machine's noise alone.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from conformance.errors import SetupError
from conformance.session import EngineSession
from conformance.transports import REFERENCE, EngineSpec
from mtgconf.bench import fuzzing, play, suite
from mtgconf.bench.baseline import kilo_units_per_second
from mtgconf.bench.figures import (
    TIMES,
    Figure,
    NotApplicable,
    Sample,
    Unmeasurable,
    machine,
)

#: the figures one can ask for (``--only``), in the order they are measured
FIGURES = ("play", "selfplay", "suite", "overhead", "fuzz")
FORMAT = "mtg-conformance bench"
VERSION = 1


@dataclass(frozen=True)
class Plan:
    engine: str
    editions: tuple[str, ...]
    seconds: float
    repeats: int
    only: tuple[str, ...] = FIGURES


@dataclass
class Variant:
    """One way of running the engine for the suite's figures."""

    name: str
    engine: str
    validate: bool
    session: EngineSession | None = None
    owned: bool = True  # started here (closed here)
    warm: bool = False


def is_reference(engine: str) -> bool:
    return EngineSpec.parse(engine).target == REFERENCE.removeprefix("py:")


def wire_twin(engine: str) -> str | None:
    """The same engine over the wire, if there is one: the reference engine's server."""
    if EngineSpec.parse(engine).kind != "py" or not is_reference(engine):
        return None
    return f"cmd:{shlex.quote(sys.executable)} -m reference_engine.serve"


@dataclass
class Report:
    plan: Plan
    command: str
    engine: dict[str, Any]
    machine: dict[str, Any]
    started: str
    baseline: Figure
    figures: dict[str, Figure]
    load_after: list[float] | None = None

    @property
    def errors(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.error is not None]

    @property
    def measured(self) -> list[Figure]:
        return [f for f in self.figures.values() if f.measured]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "command": self.command,
            "started": self.started,
            "engine": self.engine,
            "machine": {**self.machine, "load_average_after": self.load_after},
            "settings": {"editions": list(self.plan.editions), "seconds": self.plan.seconds,
                         "repeats": self.plan.repeats, "figures": list(self.plan.only)},
            "baseline": self.baseline.to_json(),
            "figures": {key: figure.to_json() for key, figure in self.figures.items()},
        }


class Bench:
    def __init__(self, plan: Plan, session: EngineSession, command: str,
                 progress: Callable[[str], None] | None = None) -> None:
        assert session.info is not None
        self.plan = plan
        self.session = session
        self.info = session.info
        self.progress = progress
        self.baseline = Figure("baseline", "fixed pure-Python work (the ratios' unit)",
                               "k-units/s")
        self.figures: dict[str, Figure] = {}
        self.variants = self._variants()
        self._runs: tuple[list[suite.CaseRun], int] | None = None
        self.report = Report(plan, command, {
            "spec": plan.engine, "name": self.info.name, "version": self.info.version,
            "protocol": self.info.protocol, "wire": wire_twin(plan.engine)}, machine(),
            datetime.now(UTC).isoformat(timespec="seconds"), self.baseline, self.figures)

    def _variants(self) -> list[Variant]:
        wanted = set(self.plan.only)
        if not wanted & {"suite", "overhead"}:
            return []
        own = "in-process" if EngineSpec.parse(self.plan.engine).kind == "py" else "wire"
        variants = [Variant(own, self.plan.engine, False, self.session, owned=False)]
        if "overhead" in wanted:
            variants.append(Variant(f"{own}+validate", self.plan.engine, True))
            twin = wire_twin(self.plan.engine)
            if twin is not None:
                variants += [Variant("wire", twin, False), Variant("wire+validate", twin, True)]
        return variants

    def run(self) -> Report:
        try:
            for repeat in range(1, self.plan.repeats + 1):
                self._say(f"repeat {repeat}/{self.plan.repeats}: baseline")
                baseline = kilo_units_per_second()
                self.baseline.add(Sample(baseline), None)
                self._repeat(baseline)
        finally:
            for variant in self.variants:
                if variant.owned and variant.session is not None:
                    variant.session.close()
        for variant in self.variants:
            figure = self.figures.get(f"suite.{variant.name}")
            note = suite.trouble(figure.samples) if figure is not None else None
            if figure is not None and note is not None:
                figure.notes.append(note)
        self.report.load_after = machine()["load_average"]
        return self.report

    def _repeat(self, baseline: float) -> None:
        seconds = self.plan.seconds
        played: dict[str, Sample | None] = {}
        for edition in self.plan.editions:
            if "play" in self.plan.only:
                played[edition] = self._measure(
                    f"play.{edition}", f"engine actions/s, random legal play through the "
                    f"protocol ({edition})", "actions/s", baseline,
                    partial(play.protocol_play, self.session, edition, seconds))
            if "selfplay" in self.plan.only:
                selfplay = self._measure(f"selfplay.{edition}", f"reference engine's "
                                         f"in-process self-play, --decks pool ({edition})",
                                         "actions/s", baseline,
                                         partial(self._selfplay, edition, seconds))
                self._ratio(f"layer.play/selfplay.{edition}", "protocol play / the engine's "
                            f"self-play, same repeat ({edition})", played.get(edition),
                            selfplay)
        base: Sample | None = None
        for variant in self.variants:
            sample = self._measure(f"suite.{variant.name}", f"suite case runs/s, "
                                   f"{variant.name}", "case runs/s", baseline,
                                   partial(self._suite, variant, seconds))
            if sample is None or "overhead" not in self.plan.only:
                continue
            overhead = sample.detail["overhead"]
            if overhead is not None:
                self._derived(f"overhead.{variant.name}", "harness overhead: wall time / "
                              f"time inside engine calls, {variant.name}", Sample(overhead))
            if variant is self.variants[0]:
                base = sample
            elif base is not None:
                self._derived(f"slowdown.{variant.name}", f"time per case run, {variant.name} "
                              f"/ {self.variants[0].name}", Sample(base.value / sample.value))
        if "fuzz" in self.plan.only:
            for edition in self.plan.editions:
                fuzzed = self._measure(f"fuzz.{edition}", f"fuzzer steps/s, ci profile, "
                                       f"every invariant ({edition})", "steps/s", baseline,
                                       partial(fuzzing.fuzz_rate, self.plan.engine, edition,
                                               seconds))
                self._ratio(f"layer.fuzz/play.{edition}", "fuzzer steps / protocol play "
                            f"actions, same repeat ({edition})", fuzzed, played.get(edition))

    def _selfplay(self, edition: str, seconds: float) -> Sample:
        if not is_reference(self.plan.engine):
            raise NotApplicable("only the reference engine plays itself in process")
        return play.reference_selfplay(edition, seconds)

    def _suite(self, variant: Variant, seconds: float) -> Sample:
        if self._runs is None:
            self._runs = suite.case_runs(self.info, self.plan.editions)
        runs, unrunnable = self._runs
        if variant.session is None:
            session = EngineSession(EngineSpec.parse(variant.engine), validate=variant.validate)
            try:
                session.start()
            except SetupError as exc:
                raise Unmeasurable(f"{variant.engine} could not be started: "
                                   f"{exc.message()}") from None
            variant.session = session
        if not variant.warm:
            variant.warm = True
            suite.warm_up(variant.session, runs)
        sample = suite.time_suite(variant.session, runs, seconds)
        return Sample(sample.value, {**sample.detail, "suite_case_runs": len(runs),
                                     "skipped": unrunnable})

    def _measure(self, key: str, title: str, unit: str, baseline: float,
                 measure: Callable[[], Sample]) -> Sample | None:
        figure = self.figures.setdefault(key, Figure(key, title, unit))
        if figure.error is not None or figure.not_applicable is not None:
            return None  # a figure that failed once fails again: not worth the time
        self._say(f"{key}")
        try:
            sample = measure()
        except NotApplicable as exc:
            figure.not_applicable = str(exc)
            return None
        except Unmeasurable as exc:
            figure.error = str(exc)
            return None
        figure.add(sample, baseline)
        return sample

    def _ratio(self, key: str, title: str, over: Sample | None, under: Sample | None) -> None:
        """One layer's rate over the one below it, both of this repeat (the issue's targets
        are such ratios: the machine's speed cancels out)."""
        if over is not None and under is not None and under.value > 0:
            self._derived(key, title, Sample(over.value / under.value))

    def _derived(self, key: str, title: str, sample: Sample) -> None:
        self.figures.setdefault(key, Figure(key, title, TIMES)).add(sample, None)

    def _say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)
