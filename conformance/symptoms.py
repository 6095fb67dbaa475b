"""Unexpected results grouped by symptom: what to fix first.

Eight failures of one missing decision kind are one bug, not eight: results whose step kind,
check path and observed shape are the same (or, for a result with no failed check, whose
message is the same once the particulars of the case are masked: numbers, quoted values,
the objects it shows) are one group. Groups come largest first, each with the rules its cases
cite. The console summary of ``mtgconf run``, the CI summary and the report all show these
groups (``group``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from conformance.resultsfile import Record, rule_sort_key

_STEP = re.compile(r"^(?:step \d+ \((?P<step>[^)]*)\)|(?P<setup>new_game)): ")
_OBJECT = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


@dataclass(frozen=True, order=True)
class Symptom:
    """What several unexpected results have in common."""

    status: str
    step: str  # the step's kind (``do``, ``expect``, ``advance``, ``new_game``), or ""
    path: str  # the check's path, or "" for a result without a failed check
    shape: str  # the observed value's shape, or the masked message

    @property
    def text(self) -> str:
        where = f"{self.step}: " if self.step else ""
        if self.path:
            return f"[{self.status}] {where}{self.path} observed {self.shape}"
        return f"[{self.status}] {where}{self.shape}"


@dataclass(frozen=True)
class Group:
    symptom: Symptom
    records: tuple[Record, ...]

    @property
    def rules(self) -> list[str]:
        """The rules the group's cases cite, in the order of rule ids."""
        return sorted({r for record in self.records for r in record.rules}, key=rule_sort_key)

    def __len__(self) -> int:
        return len(self.records)


def shape(value: Any, *, present: bool = True) -> str:
    """A value's kind: what two failures of the same bug observe alike."""
    if not present:
        return "nothing (absent)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an empty list" if not value else "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def masked(message: str) -> str:
    """A message with the particulars of one case masked (the objects and lists it shows,
    quoted values, numbers), so that one bug met by several cases reads the same."""
    text = message
    for _ in range(4):  # nested objects, innermost first
        text, found = _OBJECT.subn("…", text)
        if not found:
            break
    return _NUMBER.sub("N", _QUOTED.sub("'…'", text))


def symptom_of(record: Record) -> Symptom:
    detail = record.detail
    message = record.message
    found = _STEP.match(message)
    step = ""
    if found:
        # The kind alone (``do``, not ``do cast``): one bug answers every action alike.
        step = (found.group("step") or found.group("setup")).split()[0]
        message = message[found.end():]
    elif detail.get("step_kind"):
        step = str(detail["step_kind"])
    path = detail.get("path")
    if isinstance(path, str) and path:
        # The message names the very value that differed (``turn.step`` of a check of
        # ``turn: {step: ...}``): two cases checking it either way meet one bug.
        said = message.split(": expected ", 1)[0] if ": expected " in message else ""
        if said.startswith(path) and "(" not in said:
            path = said
        return Symptom(record.status, step, _NUMBER.sub("N", path),
                       shape(detail.get("observed"), present="observed" in detail))
    return Symptom(record.status, step, "", masked(message))


def group(records: Iterable[Record]) -> list[Group]:
    """The records grouped by symptom, largest group first (then by symptom)."""
    found: dict[Symptom, list[Record]] = {}
    for record in records:
        found.setdefault(symptom_of(record), []).append(record)
    return [Group(s, tuple(rs)) for s, rs in sorted(found.items(),
                                                     key=lambda kv: (-len(kv[1]), kv[0]))]
