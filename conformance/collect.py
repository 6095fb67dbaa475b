"""The plugin at work: case files as collectors, one item per case, engine and edition.

Node ids read ``cases/start.yaml::cr2004::start.life-twenty`` (with the engine between the
file and the edition when several engines run). Each process (each xdist worker) starts its
own engines, once, and reuses them for every case; the controller shakes hands with each
engine before anything runs (a failure ends the session with status 3) and, with
``--mtg-results``, gathers every result into one file.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance import outcomes as kinds
from conformance.case import Case
from conformance.casefile import CaseSet
from conformance.errors import InputError, SetupError
from conformance.exitcodes import ExitCode
from conformance.expectations import Expectations
from conformance.lint import load_checked
from conformance.plugin import RunContext
from conformance.protocol import EngineInfo
from conformance.reaper import Reaper
from conformance.recorder import ResultsRecorder
from conformance.resultsfile import Record, Results
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession
from conformance.settings import Settings
from conformance.trace import Tape

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr, TracebackStyle

#: The signals that end a run cleanly (what a terminal's Ctrl-C, ``timeout`` and CI job
#: limits send).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stop(KeyboardInterrupt):
    """A stop signal, as pytest's own Ctrl-C handling sees it. (pytest prints its message
    instead of a traceback to wherever the signal happened to land.)"""


class MtgPlugin:
    def __init__(self, config: pytest.Config, settings: Settings, explicit: list[Path],
                 context: RunContext) -> None:
        self.config = config
        self.settings = settings
        self.roots = (*settings.case_dirs, *(p for p in explicit if p.is_file()))
        self.engines = {spec.text: spec for spec in settings.engines}  # parsed, by the text
        # What the xdist controller handed this worker (pytest_configure_node); None when this
        # process is no xdist worker.
        workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
        self.is_worker = workerinput is not None
        self.context = context
        self.options = RunOptions(case_timeout=settings.case_timeout)
        self.sessions: dict[str, EngineSession] = {}
        self.known: dict[str, EngineInfo] = {}
        if workerinput is not None:
            self.known = {spec: EngineInfo.from_result(info) for spec, info in
                          workerinput.get("mtg_engine_info", {}).items()}
            # The editions the controller chose from the same declarations.
            self.settings = settings.for_engines(self.known.values())
        # The cases and expectations ``mtgconf run`` loaded for these very settings, else
        # loaded here, once (the cases when first needed).
        self._cases = context.cases if context.from_cli or not explicit else None
        self.expectations: Expectations | None = context.expectations
        if self.expectations is None and settings.expectations is not None:
            try:
                self.expectations = Expectations.load(settings.expectations, self.cases.ids)
            except InputError as exc:
                raise pytest.UsageError(f"bad expectations file:\n{exc}") from None
        self.recorder: ResultsRecorder | None = None
        self.reasons: tuple[str, ...] = ()  # why the run failed to test the engine, if so
        self.reaper: Reaper | None = None
        self._signals: dict[int, Any] = {}
        if not self.is_worker:
            self.reaper = Reaper()
            self.reaper.start()
            # Always: the run is judged from its results (conformance.verdict), written to
            # files or not.
            self.recorder = ResultsRecorder(settings, case_node=self.case_of_node)
            config.pluginmanager.register(self.recorder, "mtg-conformance-results")
            self._catch_signals()
        else:
            from conformance import reaper

            reaper.register("worker", os.getpid())

    # ---- cases ----

    @property
    def cases(self) -> CaseSet:
        if self._cases is None:
            self._cases = load_checked(self.roots)
        return self._cases

    def selected(self, case: Case) -> bool:
        return self.settings.selects(case.id, case.rules)

    def case_of_node(self, nodeid: str) -> tuple[str, str, str, list[str], str, int | None] \
            | None:
        parts = nodeid.split("::")
        if len(parts) < 3:
            return None
        case = self.cases.get(parts[-1])
        if case is None or parts[-2] not in self.settings.editions:
            return None
        engine = parts[-3] if len(parts) >= 4 else self.settings.engines[0].text
        return case.id, parts[-2], engine, list(case.rules), str(case.file), case.line

    def keep_trace(self, tape: Tape, record: Record) -> Record:
        """Write the case run's trace beside the results file; the record, linking it."""
        from dataclasses import replace

        from conformance import trace

        results = self.settings.results
        if results is None:
            return record
        relative = trace.relative_path(record.case_id, record.edition,
                                       record.engine if len(self.engines) > 1 else None)
        tape.ended(record.status, record.message)
        tape.write(results.parent / relative)
        return replace(record, detail={**record.detail, "trace": relative})

    # ---- engines ----

    def session(self, spec: str) -> EngineSession:
        """This process's session of an engine, started on first use."""
        session = self.sessions.get(spec)
        if session is None:
            session = EngineSession(self.engines[spec], validate=self.settings.validate,
                                    max_restarts=self.settings.max_restarts,
                                    info=self.known.get(spec))
            self.sessions[spec] = session
            try:
                session.start()
            except SetupError as exc:
                session.mark_broken(f"not run: the engine could not be started: {exc.message()}")
        return session

    # ---- signals ----

    def _catch_signals(self) -> None:
        """SIGTERM ends the run as Ctrl-C does: pytest stops, the results so far are written,
        marked interrupted, and no engine is left behind."""
        def stop(signum: int, frame: object) -> None:
            if self.context.interrupted_by is None:
                self.context.interrupted_by = signal.Signals(signum).name
                if self.recorder is not None:
                    self.recorder.interrupted_by = self.context.interrupted_by
                if self.reaper is not None:
                    self.reaper.interrupt_workers()
                raise Stop(f"{self.context.interrupted_by} received; the results of the "
                           f"cases that finished are kept")
            # A second signal while the run winds down is ignored: the results are being
            # written (SIGKILL still ends everything at once).

        try:
            for signum in STOP_SIGNALS:
                self._signals[signum] = signal.signal(signum, stop)
        except ValueError:
            pass  # not the main thread: leave signals to whoever owns them

    def _restore_signals(self) -> None:
        for signum, handler in self._signals.items():
            signal.signal(signum, handler)
        self._signals.clear()

    # ---- hooks ----

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        # In every process alike (xdist wants the workers' collections to be the same).
        if self.settings.first:
            first = set(self.settings.first)
            items.sort(key=lambda item: not isinstance(item, CaseItem)
                       or f"{item.edition}::{item.case.id}" not in first)

    def pytest_collect_file(self, file_path: Path, parent: pytest.Collector) -> Any:
        if file_path.suffix in (".yaml", ".yml") and any(
                file_path == root or root in file_path.parents for root in self.roots):
            return CaseFile.from_parent(parent, path=file_path)
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if self.is_worker:
            return
        for spec, engine in self.engines.items():
            probe = self.context.sessions.pop(spec, None)
            if probe is not None and probe.validate != self.settings.validate:
                probe.close()
                probe = None
            if probe is not None:
                probe.max_restarts = self.settings.max_restarts
            if probe is None or probe.info is None:
                probe = EngineSession(engine, validate=self.settings.validate,
                                      max_restarts=self.settings.max_restarts)
                try:
                    probe.start()
                except SetupError as exc:
                    self.context.engine_failure = exc
                    pytest.exit(exc.render(), returncode=3)
            assert probe.info is not None
            self.known[spec] = probe.info
            if self.recorder is not None:
                self.recorder.engines[spec] = probe.info
            if _distributed(self.config):
                probe.close()
            else:
                self.sessions[spec] = probe
        # Before collection: without an edition chosen, the engines' own.
        self.settings = self.settings.for_engines(self.known.values())
        if self.recorder is not None:
            self.recorder.settings = self.settings
            self.recorder.open_stream()
        if self.settings.results is not None:
            from conformance import trace

            trace.clear(self.settings.results.parent)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        # The workers learn what each engine declared, so that a worker whose engine will
        # not start still skips what the engine could not have run.
        node.workerinput["mtg_engine_info"] = {
            spec: info.serializable(whole=True) for spec, info in self.known.items()}

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        # First of all the session's finishers: the results are written before xdist waits
        # for its workers to come down.
        for engine_session in self.sessions.values():
            engine_session.close()
        self.sessions.clear()
        if self.recorder is not None:
            interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
            self.context.results = self.recorder.finish(interrupted=interrupted)
            if not self.context.from_cli and not interrupted:
                self._judge(session, self.context.results)

    def _judge(self, session: pytest.Session, results: Results) -> None:
        """The exit status ``mtgconf run`` would give, for ``pytest`` run by hand: a run
        that tested nothing (every case skipped, fewer than --mtg-min-run, a capability the
        harness does not know) must not pass because nothing failed."""
        from conformance.verdict import judge

        verdict = judge(results, self.settings.min_run)
        self.reasons = verdict.reasons
        if verdict.code != ExitCode.OK and session.exitstatus in (
                pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            session.exitstatus = int(verdict.code)

    def pytest_unconfigure(self) -> None:
        self._restore_signals()
        if self.reaper is not None:
            self.reaper.finish()
        elif self.is_worker:
            from conformance import reaper

            reaper.unregister("worker", os.getpid())

    def pytest_report_header(self) -> list[str]:
        return [f"mtg-conformance: engines {', '.join(self.engines)}; editions "
                f"{', '.join(self.settings.editions)}"]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for reason in self.reasons:
            terminalreporter.write_line(f"mtg-conformance: {reason}", red=True)
        if self.recorder is not None and self.recorder.results is not None \
                and self.settings.results is not None and not self.context.from_cli:
            results = self.recorder.results
            terminalreporter.write_line(
                f"mtg-conformance: {len(results.records)} results written to "
                f"{self.settings.results}" + (" (unexpected results)" if results.unexpected
                                              else ""))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: Any) -> Any:
        report = yield
        result = getattr(item, "mtg_result", None)
        if result is not None and report.when == "call":
            # Travels with the report to the xdist controller (TestReport keeps extra attrs).
            report.mtg_result = result
        return report


def _distributed(config: pytest.Config) -> bool:
    return bool(getattr(config.option, "numprocesses", None)) and \
        getattr(config.option, "dist", "no") != "no"


class CaseFailure(Exception):
    """An unexpected result of a case (raised to make pytest count it; never shown as a
    traceback)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _plugin(config: pytest.Config) -> MtgPlugin:
    """The run's plugin, which ``conformance.plugin`` registers before collection."""
    plugin = config.pluginmanager.get_plugin("mtg-conformance")
    if not isinstance(plugin, MtgPlugin):
        raise RuntimeError(f"the mtg-conformance plugin is not registered (found {plugin!r})")
    return plugin


class CaseFile(pytest.File):
    def collect(self) -> Iterator[pytest.Collector]:
        plugin = _plugin(self.config)
        problems = [p for p in plugin.cases.problems_for(self.path) if p.severity == "error"]
        if problems:
            raise InputError(tuple(problems))
        cases = [c for c in plugin.cases.by_file(self.path) if plugin.selected(c)]
        engines = list(plugin.engines)
        if len(engines) > 1:
            for engine in engines:
                yield EngineGroup.from_parent(self, name=engine, cases=cases)
        else:
            yield from editions(self, cases, engines[0], plugin.settings.editions)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        # ``style``: pytest's signature for any node; a collector's failure has no style.
        if isinstance(excinfo.value, InputError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


def editions(parent: pytest.Collector, cases: list[Case], engine: str,
             selected: tuple[str, ...]) -> Iterator[EditionGroup]:
    for edition in selected:
        if any(edition in c.editions for c in cases):
            yield EditionGroup.from_parent(parent, name=edition, cases=cases, engine=engine)


class EngineGroup(pytest.Collector):
    """The cases of one file for one engine, when a run has several engines."""

    def __init__(self, *, cases: list[Case], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = cases

    def collect(self) -> Iterator[pytest.Collector]:
        plugin = _plugin(self.config)
        yield from editions(self, self.cases, self.name, plugin.settings.editions)


class EditionGroup(pytest.Collector):
    """The cases of one file under one edition."""

    def __init__(self, *, cases: list[Case], engine: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = cases
        self.engine = engine

    def collect(self) -> Iterator[pytest.Item]:
        settings = _plugin(self.config).settings
        for case in self.cases:
            if self.name in case.editions and settings.runs(case.id, self.name):
                yield CaseItem.from_parent(self, name=case.id, case=case, edition=self.name,
                                           engine=self.engine)


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, edition: str, engine: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.edition = edition
        self.engine = engine
        self.mtg_result: dict[str, Any] | None = None
        for rule in case.rules:
            # ref= as well, so that -m "rule(ref='cr2004:101.5')" selects by rule.
            self.add_marker(pytest.mark.rule(rule, ref=rule))

    def runtest(self) -> None:
        plugin = _plugin(self.config)
        started = time.perf_counter()
        session = plugin.session(self.engine)
        tape = Tape(self.case.id, self.edition, self.engine) if plugin.settings.trace else None
        outcomes = [run_case(self.case, self.edition, session, plugin.options, tape=tape)]
        while len(outcomes) < plugin.settings.repeat and outcomes[0].status != "skip":
            outcomes.append(run_case(self.case, self.edition, session, plugin.options,
                                     tape=tape))
        outcome = kinds.repeated(outcomes)
        expectation = plugin.expectations.lookup(self.case.id, self.edition) \
            if plugin.expectations is not None else None
        result = kinds.apply(outcome, expectation)
        record = Record.judged(case_id=self.case.id, edition=self.edition,
                               rules=self.case.rules, engine=self.engine, result=result,
                               duration=time.perf_counter() - started, file=str(self.case.file),
                               line=self.case.line)
        if tape is not None and tape.runs and (
                plugin.settings.trace == "all" or kinds.is_unexpected(result)):
            record = plugin.keep_trace(tape, record)
        # The record's JSON form: what travels with the report (from an xdist worker too).
        self.mtg_result = record.to_dict()
        if result.status == "skip":
            # Reported at the case's own file and line, not at this line.
            raise pytest.skip.Exception(result.message, _use_item_location=True)
        if result.status == "xfail":
            pytest.xfail(result.message)
        if kinds.is_unexpected(result):
            raise CaseFailure(describe(record))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailure):
            return excinfo.value.text
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.case.line - 1 if self.case.line else None
        # Not "edition::id": pytest would show a domain that ends the node id with its dots
        # turned into "::" (turn::first-player-skips-draw).
        return self.path, line, f"{self.case.id} [{self.edition}]"


def describe(record: Record) -> str:
    """A failure as the user reads it: what, where, and what the engine said."""
    detail = record.detail
    lines = [f"[{record.status}] {record.message}"]
    where = f"{record.file}:{record.line}" if record.line else (record.file or "")
    lines.append(f"  case {record.case_id} ({record.edition}) at {where}")
    if "line" in detail:
        lines.append(f"  step at line {detail['line']}")
    lines.append(f"  rules: {', '.join(record.rules)}")
    if "trace" in detail:
        lines.append(f"  trace: {detail['trace']} (beside the results file)")
    stderr = str(detail.get("stderr", "")).strip()
    if stderr:
        lines.append("  engine stderr (last lines):")
        lines.extend(f"    {line}" for line in stderr.splitlines()[-12:])
    return "\n".join(lines)
