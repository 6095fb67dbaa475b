"""How fast the reference engine plays, against a baseline measured in the same run.

    python benchmarks/engine_speed.py [--seconds 3] [--repeats 3] [--json]

Superseded by ``mtgconf bench`` (mtgconf/bench/), which this script runs with
``--only selfplay,play``: the reference engine's in-process self-play over the whole card pool
and random legal play through the protocol, in each edition, each figure with its spread over
the repeats and its ratio to a fixed pure-Python baseline (``mtgconf.bench.baseline``).
The machines are shared and noisy: compare ratios across machines and commits, not rates.
"""

from __future__ import annotations

import sys

from mtgconf import main

if __name__ == "__main__":
    raise SystemExit(main(["bench", "--only", "selfplay,play", *sys.argv[1:]]))
