"""Traces: what went over the wire in one case run, as JSON lines (``mtgconf run --trace``).

A ``Tape`` is handed to the engine session for a case; the client records on it every request
as sent and every response as received (or the failure of the call: a crash, a timeout, an
answer that is no response), the engine's stderr as it comes, each with the seconds since the
case began, and the runner marks the step each exchange belongs to. The plugin writes the tape
beside the results (``traces/``) for each result it keeps (``unexpected`` or ``all``) and the
record links it (``detail.trace``, relative to the results file's folder).

One line each, in order::

    {"trace": "mtg-conformance trace", "version": 1, "case_id": ..., "edition": ..., "engine": ...}
    {"t": 0.0, "run": 1}                              # each run of the case (--repeat)
    {"t": 0.0004, "step": 2, "kind": "do", "text": "step 2 (do play_land)", "line": 14}
    {"t": 0.0005, "send": {"id": 7, "command": "perform", "args": {...}}}
    {"t": 0.0009, "recv": {"id": 7, "result": {}}, "seconds": 0.0004}
    {"t": 0.0011, "stderr": "what the engine wrote"}
    {"t": 0.0012, "failed": "EngineCrashed: the engine exited with status 1"}
    {"t": 0.0020, "status": "fail", "message": "step 3 (expect): ..."}

Nothing is recorded without a tape: a run without ``--trace`` pays one ``is None`` per call.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from conformance import atomic

if TYPE_CHECKING:
    from conformance.case import Step
    from conformance.transports import Transport

FORMAT = "mtg-conformance trace"
VERSION = 1
FOLDER = "traces"
#: which results keep their trace: the unexpected ones, or every case run that ran
KEEP = ("unexpected", "all")
Keep = Literal["unexpected", "all"]
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def keep(value: str) -> str:
    """The ``--trace`` value (a converter for argparse and pytest's option parser)."""
    from conformance.settings import SettingError

    if value not in KEEP:
        raise SettingError(f"must be {' or '.join(KEEP)}, not {value!r}")
    return value


def _text(value: Any) -> Any:
    """A message as it is now: an in-process engine's answer may be its own object, changed
    by the next call."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=repr))


class Tape:
    """One case run's exchange with its engine, recorded as it happens."""

    def __init__(self, case_id: str, edition: str, engine: str) -> None:
        self.started = time.perf_counter()
        self.lines: list[dict[str, Any]] = [
            {"trace": FORMAT, "version": VERSION, "case_id": case_id, "edition": edition,
             "engine": engine}]
        self.runs = 0
        self._transport: Transport | None = None
        self._mark = 0

    def _add(self, **data: Any) -> None:
        self.lines.append({"t": round(time.perf_counter() - self.started, 6), **data})

    # ---- what the runner and the client say ----

    def run(self) -> None:
        self.runs += 1
        self._add(run=self.runs)

    def step(self, step: Step) -> None:
        self._add(step=step.index, kind=step.kind, text=step.describe(), line=step.line)

    def watch(self, transport: Transport) -> None:
        """Read the engine's stderr from here on (a new engine after a restart too)."""
        if transport is not self._transport:
            self._transport = transport
            self._mark = transport.stderr_mark()

    def sent(self, message: dict[str, Any]) -> None:
        self._add(send=_text(message))

    def received(self, message: dict[str, Any], seconds: float) -> None:
        self._read_stderr()
        self._add(recv=_text(message), seconds=round(seconds, 6))

    def failed(self, exc: Exception) -> None:
        self._read_stderr(settle=True)
        self._add(failed=f"{type(exc).__name__}: {exc}")

    def ended(self, status: str, message: str) -> None:
        self._read_stderr(settle=True)
        self._add(status=status, message=message)

    def _read_stderr(self, *, settle: bool = False) -> None:
        transport = self._transport
        if transport is None:
            return
        mark = transport.stderr_mark()
        if mark == self._mark and not settle:
            return
        text = transport.stderr_since(self._mark, settle=settle)
        self._mark = transport.stderr_mark()
        if text:
            self._add(stderr=text)

    # ---- the file ----

    def write(self, path: Path) -> None:
        atomic.write_text(path, "".join(json.dumps(line, ensure_ascii=False) + "\n"
                                        for line in self.lines))


def relative_path(case_id: str, edition: str, engine: str | None) -> str:
    """Where a case run's trace goes, relative to the results file's folder (``engine``: a
    run of several engines)."""
    parts = [FOLDER, *([safe(engine)] if engine else []), edition, f"{safe(case_id)}.jsonl"]
    return "/".join(parts)


def safe(text: str) -> str:
    """A file name for ``text`` (a case id is one already; an engine spec rarely is)."""
    return _UNSAFE.sub("-", text).strip("-.") or "-"


def clear(folder: Path) -> None:
    """Drop a previous run's traces (only the trace files, and the folders they leave empty):
    a trace left from another run would be read as this run's."""
    traces = folder / FOLDER
    if not traces.is_dir():
        return
    for path in sorted(traces.rglob("*.jsonl")):
        path.unlink(missing_ok=True)
    for path in sorted((p for p in traces.rglob("*") if p.is_dir()), reverse=True):
        if not any(path.iterdir()):
            path.rmdir()


def read(path: Path) -> list[dict[str, Any]] | None:
    """A trace's lines, or None when the file is missing or is no trace."""
    try:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    except (OSError, ValueError):
        return None
    if not lines or not isinstance(lines[0], dict) or lines[0].get("trace") != FORMAT:
        return None
    return [line for line in lines if isinstance(line, dict)]
