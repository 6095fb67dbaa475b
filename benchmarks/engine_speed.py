"""How fast the reference engine plays, against a baseline measured in the same run.

    python benchmarks/engine_speed.py [--games 100] [--rounds 3]

The machines are shared and noisy, so an absolute figure alone says little. Each round times
self-play (legal-action enumeration at every step included) and, right before it, a fixed
pure-Python workload of the same flavour (dictionary, list and attribute work). The report
gives actions per second and the ratio to the baseline; compare ratios across machines and
commits, and take the best round (the least disturbed one).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from reference_engine.selfplay import run


def baseline(units: int = 200_000) -> float:
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    report = {}
    for edition in ("cr2004", "modern"):
        for decks in ("core", "pool"):
            best = None
            for round_number in range(args.rounds):
                units = baseline()
                summary = run(args.games, round_number + 1, edition, decks)
                if summary["errors"]:
                    raise SystemExit(f"engine errors: {summary['errors'][:1]}")
                ratio = summary["actions_per_second"] / units
                if best is None or ratio > best["ratio"]:
                    best = {"actions_per_second": summary["actions_per_second"],
                            "baseline_units_per_second": round(units),
                            "ratio": round(ratio, 4)}
            report[f"{edition}/{decks}"] = best
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
