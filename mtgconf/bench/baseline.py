"""A fixed pure-Python workload, timed in the same run as every figure.

The machines are shared and noisy, and a figure alone says little about an engine when the
machine is half as fast today. The baseline is work of the same flavour as an engine's
(attribute, dictionary and list work on a little object model), never changed, so that a
figure divided by it compares across machines and commits better than the figure does.
"""

from __future__ import annotations

import random
import time

#: the baseline's rate is given in these units of its loop (one loop step is too small a unit
#: for a readable ratio: an engine's action costs hundreds of them)
UNITS_PER_KILO = 1000
DEFAULT_UNITS = 200_000


def baseline(units: int = DEFAULT_UNITS) -> float:
    """Units of fixed work per second: a little object model walked and updated."""

    class Thing:
        __slots__ = ("a", "b", "tags")

        def __init__(self, a: int) -> None:
            self.a = a
            self.b = 0
            self.tags = {"x": a}

    rng = random.Random(0)
    things = [Thing(rng.randrange(100)) for _ in range(64)]
    started = time.perf_counter()
    total = 0
    for step in range(units):
        thing = things[step & 63]
        thing.b += thing.a
        total += thing.tags["x"] + len([t for t in things[:4] if t.a > 50])
    elapsed = time.perf_counter() - started
    assert total >= 0
    return units / elapsed


def kilo_units_per_second(units: int = DEFAULT_UNITS) -> float:
    """The baseline in thousands of units per second (the unit of every figure's ratio)."""
    return baseline(units) / UNITS_PER_KILO
