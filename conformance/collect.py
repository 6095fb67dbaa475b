"""The plugin at work: case files as collectors, one item per case, engine and edition.

Node ids read ``cases/start.yaml::cr2004::start.life-twenty`` (with the engine between the
file and the edition when several engines run). Each process (each xdist worker) starts its
own engines, once, and reuses them for every case; the controller shakes hands with each
engine before anything runs (a failure ends the session with status 3) and, with
``--mtg-results``, gathers every result into one file.
"""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import results as kinds
from conformance.adapters import EngineSpec
from conformance.case import Case
from conformance.casefile import CaseSet
from conformance.errors import InputError, SetupError
from conformance.expectations import Expectations
from conformance.lint import load_checked
from conformance.plugin import Settings
from conformance.report import ResultsRecorder
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession


class MtgPlugin:
    def __init__(self, config: pytest.Config, settings: Settings, explicit: list[Path]) -> None:
        self.config = config
        self.settings = settings
        self.roots = (*settings.case_dirs, *(p for p in explicit if p.is_file()))
        try:
            self.engines = {s: EngineSpec.parse(s) for s in settings.engines}
        except SetupError as exc:
            raise pytest.UsageError(f"--mtg-engine {exc.message()} ({exc.hint})") from None
        self.is_worker = hasattr(config, "workerinput")
        self.options = RunOptions(case_timeout=settings.case_timeout)
        self.sessions: dict[str, EngineSession] = {}
        self._cases: CaseSet | None = None
        self.expectations: Expectations | None = None
        if settings.expectations is not None:
            try:
                self.expectations = Expectations.load(settings.expectations, self.cases.ids)
            except InputError as exc:
                raise pytest.UsageError(f"bad expectations file:\n{exc}") from None
        self.recorder: ResultsRecorder | None = None
        if settings.results is not None and not self.is_worker:
            self.recorder = ResultsRecorder(
                settings.results, editions=list(settings.editions), engines=list(self.engines),
                options={
                    "rules": list(settings.rules),
                    "case_dirs": [str(d) for d in self.roots],
                    "expectations": str(settings.expectations) if settings.expectations
                    else None,
                    "case_timeout": settings.case_timeout,
                    "validate_protocol": settings.validate,
                },
                case_node=self.case_of_node,
            )
            config.pluginmanager.register(self.recorder, "mtg-conformance-results")

    # ---- cases ----

    @property
    def cases(self) -> CaseSet:
        if self._cases is None:
            self._cases = load_checked(self.roots)
        return self._cases

    def selected(self, case: Case) -> bool:
        if not self.settings.rules:
            return True
        return any(fnmatch.fnmatchcase(ref, glob)
                   or fnmatch.fnmatchcase(ref.partition(":")[2], glob)
                   for ref in case.rules for glob in self.settings.rules)

    def case_of_node(self, nodeid: str) -> tuple[str, str, str, list[str]] | None:
        parts = nodeid.split("::")
        if len(parts) < 3:
            return None
        case = self.cases.get(parts[-1])
        if case is None or parts[-2] not in self.settings.editions:
            return None
        engine = parts[-3] if len(parts) >= 4 else self.settings.engines[0]
        return case.id, parts[-2], engine, list(case.rules)

    # ---- engines ----

    def session(self, spec: str) -> EngineSession:
        """This process's session of an engine, started on first use."""
        session = self.sessions.get(spec)
        if session is None:
            session = EngineSession(self.engines[spec], validate=self.settings.validate,
                                    max_restarts=self.settings.max_restarts)
            self.sessions[spec] = session
            try:
                session.start()
            except SetupError as exc:
                session.mark_broken(f"not run: the engine could not be started: {exc.message()}")
        return session

    # ---- hooks ----

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
            probe = EngineSession(engine, validate=self.settings.validate)
            try:
                info = probe.start()
            except SetupError as exc:
                pytest.exit(exc.render(), returncode=3)
            if self.recorder is not None:
                self.recorder.engines[spec] = info
            if _distributed(self.config):
                probe.close()
            else:
                self.sessions[spec] = probe

    def pytest_sessionfinish(self) -> None:
        for session in self.sessions.values():
            session.close()
        self.sessions.clear()
        if self.recorder is not None:
            self.recorder.write()

    def pytest_report_header(self) -> list[str]:
        return [f"mtg-conformance: engines {', '.join(self.engines)}; editions "
                f"{', '.join(self.settings.editions)}"]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.recorder is not None:
            found = kinds.UNEXPECTED & {r["status"] for r in self.recorder.results.values()}
            terminalreporter.write_line(
                f"mtg-conformance: {len(self.recorder.results)} results written to "
                f"{self.recorder.path}" + (" (unexpected results)" if found else ""))

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


class CaseFile(pytest.File):
    def collect(self) -> Iterator[pytest.Collector]:
        plugin: MtgPlugin = self.config.pluginmanager.get_plugin("mtg-conformance")
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

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
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
        plugin: MtgPlugin = self.config.pluginmanager.get_plugin("mtg-conformance")
        yield from editions(self, self.cases, self.name, plugin.settings.editions)


class EditionGroup(pytest.Collector):
    """The cases of one file under one edition."""

    def __init__(self, *, cases: list[Case], engine: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = cases
        self.engine = engine

    def collect(self) -> Iterator[pytest.Item]:
        for case in self.cases:
            if self.name in case.editions:
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
        plugin: MtgPlugin = self.config.pluginmanager.get_plugin("mtg-conformance")
        started = time.perf_counter()
        outcome = run_case(self.case, self.edition, plugin.session(self.engine), plugin.options)
        expectation = plugin.expectations.lookup(self.case.id, self.edition) \
            if plugin.expectations is not None else None
        result = kinds.apply(outcome, expectation)
        record = kinds.CaseResult(self.case.id, self.edition, self.case.rules, self.engine,
                                  result, time.perf_counter() - started, str(self.case.file),
                                  self.case.line)
        self.mtg_result = record.serializable()
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


def describe(record: kinds.CaseResult) -> str:
    """A failure as the user reads it: what, where, and what the engine said."""
    data = record.serializable()
    detail = data.get("detail", {})
    lines = [f"[{data['status']}] {data['message']}"]
    where = f"{record.file}:{record.line}" if record.line else record.file
    lines.append(f"  case {record.case_id} ({record.edition}) at {where}")
    if "line" in detail:
        lines.append(f"  step at line {detail['line']}")
    lines.append(f"  rules: {', '.join(record.rules)}")
    stderr = str(detail.get("stderr", "")).strip()
    if stderr:
        lines.append("  engine stderr (last lines):")
        lines.extend(f"    {line}" for line in stderr.splitlines()[-12:])
    return "\n".join(lines)
