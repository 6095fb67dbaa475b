"""What a benchmark reports: figures, each measured once per repeat, with its spread.

A measurement returns a ``Sample`` (the value and what it counted), or raises ``Unmeasurable``
(the engine failed mid-benchmark: crashed, hung, answered with an error) or ``NotApplicable``
(the engine cannot be measured this way: it lacks a capability, it is not the reference
engine). Neither reaches the user as a traceback: the figure carries the message.
"""

from __future__ import annotations

import os
import platform
import statistics
from dataclasses import dataclass, field
from typing import Any

#: a figure's unit when it is a ratio of two times (no baseline ratio: the machine cancels out)
TIMES = "x"


class Unmeasurable(Exception):
    """The engine failed during a measurement; the message says how and when."""


class NotApplicable(Exception):
    """The figure does not apply to this engine; the message says why."""


@dataclass(frozen=True)
class Sample:
    """One repeat's value of a figure, and what it counted (actions, games, case runs...)."""

    value: float
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Figure:
    id: str
    title: str
    unit: str
    samples: list[Sample] = field(default_factory=list)
    #: per sample, the value over the baseline of the same repeat (rates only)
    ratios: list[float] = field(default_factory=list)
    error: str | None = None
    not_applicable: str | None = None
    #: what went wrong without spoiling the figure (case runs an engine crashed in)
    notes: list[str] = field(default_factory=list)

    @property
    def is_rate(self) -> bool:
        return self.unit != TIMES

    @property
    def measured(self) -> bool:
        return bool(self.samples) and self.error is None

    def add(self, sample: Sample, baseline: float | None) -> None:
        self.samples.append(sample)
        if self.is_rate and baseline:
            self.ratios.append(sample.value / baseline)

    def spread(self) -> dict[str, float] | None:
        return spread([s.value for s in self.samples])

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "unit": self.unit,
            **(self.spread() or {"median": None, "min": None, "max": None}),
            "ratio": spread(self.ratios),
            "runs": [{"value": _round(s.value),
                      **({"ratio": _round(r)} if r is not None else {}), **s.detail}
                     for s, r in zip(self.samples, _padded(self.ratios, len(self.samples)),
                                     strict=True)],
            "error": self.error,
            "not_applicable": self.not_applicable,
            "notes": self.notes,
        }


def spread(values: list[float]) -> dict[str, float] | None:
    """Median, min and max, or None without a value."""
    if not values:
        return None
    return {"median": _round(statistics.median(values)), "min": _round(min(values)),
            "max": _round(max(values))}


def _padded(values: list[float], length: int) -> list[float | None]:
    return [*values, *([None] * (length - len(values)))]


def _round(value: float) -> float:
    """Four significant digits: more is noise on a shared machine."""
    return float(f"{value:.4g}")


def machine() -> dict[str, Any]:
    """The machine the figures come from, and how busy it was."""
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not every platform has one
        load = None
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpus": os.cpu_count(),
        "load_average": load,
    }
