"""How fast the fuzzer drives an engine, against baselines measured in the same run.

    python benchmarks/fuzz_speed.py [--engine reference] [--seconds 10] [--repeats 3] [--json]

Superseded by ``mtgconf bench`` (mtgconf/bench/), which this script runs with
``--only play,fuzz``: per edition, the fuzzer's steps per second (a campaign of the ci
profile, every invariant) and the same engine's raw rate through the protocol client (random
legal play, nothing checked); their ratio says what the fuzzer's own work costs. ``--rounds``
is taken for ``--repeats``, as this script used to call it.
"""

from __future__ import annotations

import sys

from mtgconf import main

if __name__ == "__main__":
    argv = ["--repeats" if arg == "--rounds" else arg for arg in sys.argv[1:]]
    raise SystemExit(main(["bench", "--only", "play,fuzz", *argv]))
