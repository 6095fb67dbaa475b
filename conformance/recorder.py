"""Recording a run's results as they come: a pytest plugin object on the controller.

Each result is appended to the stream file (``results.jsonl``: a header line, then one line
per case run, flushed as it arrives) the moment the case finishes, from whichever xdist
worker ran it. At the end of the session ``results.json`` (and the JUnit XML file) is written
whole and atomically, marked ``interrupted`` when the run was cut short: the previous run's
files stay in place until then, and a killed run still leaves its stream.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

from conformance import atomic
from conformance.protocol import HARNESS, EngineInfo
from conformance.resultsfile import FORMAT, VERSION, Record, Results, now
from conformance.settings import Settings

#: nodeid -> (case_id, edition, engine, rules, file, line), or None for a node of no case.
CaseOfNode = Callable[[str], tuple[str, str, str, list[str], str, int | None] | None]


class ResultsRecorder:
    def __init__(self, settings: Settings, *, case_node: CaseOfNode) -> None:
        self.settings = settings
        self.engines: dict[str, EngineInfo | None] = dict.fromkeys(
            e.text for e in settings.engines)
        self.records: dict[str, Record] = {}
        self.started = now()
        self.selected: int | None = None
        self.interrupted_by: str | None = None
        self.results: Results | None = None  # once written
        self._case_node = case_node
        self._stream: IO[str] | None = None

    # ---- the stream ----

    def open_stream(self) -> None:
        path = self.settings.stream
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self._stream = path.open("w", encoding="utf-8")
        self._line({"format": f"{FORMAT} stream", "version": VERSION, "harness": HARNESS,
                    "started": self.started, "engines": list(self.engines),
                    "editions": list(self.settings.editions)})

    def _line(self, data: dict[str, Any]) -> None:
        if self._stream is not None:
            self._stream.write(json.dumps(data, ensure_ascii=False) + "\n")
            self._stream.flush()

    def add(self, nodeid: str, record: Record) -> None:
        self.records[nodeid] = record
        self._line(record.to_dict())

    # ---- hooks ----

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        data = getattr(report, "mtg_result", None)
        if data is not None:
            self.add(report.nodeid, Record.from_dict(data))
        elif report.failed and report.nodeid not in self.records:
            # No result came back: the worker running the case died (an in-process engine
            # that killed its interpreter). The case is a crash, and the run goes on.
            found = self._case_node(report.nodeid)
            if found is not None:
                case_id, edition, engine, rules, file, line = found
                self.add(report.nodeid, Record(
                    case_id=case_id, edition=edition, rules=tuple(rules), engine=engine,
                    status="crash", outcome="crash", file=file, line=line,
                    message="the test process died while running the case",
                    duration=float(getattr(report, "duration", 0.0) or 0.0)))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.items:  # under xdist the controller collects nothing
            self.selected = len(session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.selected = max(self.selected or 0, len(ids))

    # ---- the end ----

    def finish(self, *, interrupted: bool) -> Results:
        """Write results.json (and junit.xml), whole, marked interrupted if it was."""
        results = Results(
            engines=self.engines, editions=self.settings.editions,
            records=tuple(self.records.values()), started=self.started, finished=now(),
            options=self.settings.options(), selected=self.selected,
            interrupted=interrupted,
            interrupted_by=(self.interrupted_by or "SIGINT") if interrupted else None)
        document = results.to_dict()  # the one JSON form of both files
        if self.settings.results is not None:
            atomic.write_json(self.settings.results, document)
        if self.settings.junit is not None:
            from conformance import junit

            junit.write(document, self.settings.junit, relative_to=Path.cwd())
        if self._stream is not None:
            self._line({"finished": results.finished, "interrupted": interrupted})
            self._stream.close()
            self._stream = None
        self.results = results
        return results
