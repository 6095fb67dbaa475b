"""What a failure page shows of the whole case: its steps, the one the result reached marked,
and, from the case run's trace (``mtgconf run --trace``), what went over the wire at each step.

The steps come from the coverage file (``coverage.json``'s ``cases``, which ``mtgconf run``
writes with each case's steps); the trace from the file its record links (``detail.trace``,
beside its results file), which the report copies beside the page so that the report stays
whole on its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import trace

MESSAGE_CHARS = 3000  # of one message shown on the page (the trace file has it whole)


@dataclass(frozen=True)
class Exchange:
    """One line of a trace, as the page shows it."""

    kind: str  # send, recv, stderr, failed, status
    t: float
    text: str
    cut: bool = False
    seconds: float | None = None

    @property
    def arrow(self) -> str:
        return {"send": "→", "recv": "←", "stderr": "stderr", "failed": "✗",
                "status": "="}[self.kind]


@dataclass
class StepView:
    """A step of the case, its state in the result, and its exchange."""

    index: int
    kind: str
    text: str
    line: int | None
    value: str
    state: str  # passed, reached, not-reached, unknown
    exchange: list[Exchange] = field(default_factory=list)


def _shown(value: Any) -> tuple[str, bool]:
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    return (text, False) if len(text) <= MESSAGE_CHARS else (text[:MESSAGE_CHARS] + "…", True)


def exchanges(lines: Sequence[Mapping[str, Any]]) -> dict[int, list[Exchange]]:
    """The first run's exchange, by step (0: before the first step: new_game, a restart's
    hello)."""
    found: dict[int, list[Exchange]] = {0: []}
    step, runs = 0, 0
    for line in lines[1:]:
        if "run" in line:
            runs += 1
            if runs > 1:
                break
            continue
        if "step" in line:
            step = int(line["step"])
            found.setdefault(step, [])
            continue
        t = float(line.get("t", 0.0))
        if "send" in line:
            text, cut = _shown(line["send"])
            found[step].append(Exchange("send", t, text, cut))
        elif "recv" in line:
            text, cut = _shown(line["recv"])
            found[step].append(Exchange("recv", t, text, cut, line.get("seconds")))
        elif "stderr" in line:
            found[step].append(Exchange("stderr", t, str(line["stderr"]).rstrip("\n")))
        elif "failed" in line:
            found[step].append(Exchange("failed", t, str(line["failed"])))
        elif "status" in line:
            found[step].append(Exchange("status", t, f"{line['status']}: "
                                        f"{line.get('message', '')}"))
    return found


def steps(case: Mapping[str, Any], detail: Mapping[str, Any], status: str,
          lines: Sequence[Mapping[str, Any]] | None) -> tuple[list[StepView], list[Exchange]]:
    """The case's steps marked as the result reached them, each with its exchange; and the
    exchange before the first step."""
    reached = detail.get("step")
    passed_all = status in ("pass", "xpass")
    by_step = exchanges(lines) if lines else {0: []}
    out = []
    # Without the coverage file the case's steps are known from the trace's own marks.
    entries = case.get("steps") or _marked_steps(lines or [])
    for entry in entries:
        index = int(entry["index"])
        if passed_all:
            state = "passed"
        elif not isinstance(reached, int):
            state = "unknown"
        else:
            state = "passed" if index < reached else "reached" if index == reached \
                else "not-reached"
        value = entry.get("value")
        out.append(StepView(index, str(entry["kind"]), str(entry["text"]), entry.get("line"),
                            json.dumps(value, ensure_ascii=False) if value is not None else "",
                            state, by_step.get(index, [])))
    return out, by_step.get(0, [])


def _marked_steps(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The steps a trace marks (those its first run reached), without their values."""
    found: dict[int, dict[str, Any]] = {}
    runs = 0
    for line in lines[1:]:
        if "run" in line:
            runs += 1
            if runs > 1:
                break
        elif "step" in line:
            found.setdefault(int(line["step"]), {"index": line["step"], "kind": line.get("kind"),
                                                 "text": line.get("text"),
                                                 "line": line.get("line"), "value": None})
    return list(found.values())


def trace_source(results_folder: Path | None, detail: Mapping[str, Any]) -> Path | None:
    """The trace file a record links, when it is there to be read."""
    relative = detail.get("trace")
    if results_folder is None or not isinstance(relative, str):
        return None
    path = results_folder / relative
    return path if path.is_file() else None


def read_trace(path: Path | None) -> list[dict[str, Any]] | None:
    return trace.read(path) if path is not None else None
