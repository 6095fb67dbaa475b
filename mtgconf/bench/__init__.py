"""``mtgconf bench``: how fast an engine, the suite, the harness and the fuzzer are.

* ``play``: an engine's actions per second in random legal play through the protocol (any
  engine, so engines compare), and ``selfplay``: the reference engine's own in-process loop;
* ``suite``: the bundled suite's case runs per second through the harness's runner;
* ``overhead``: the suite's wall time over the time inside engine calls, in process and over
  the wire, with and without protocol validation (and each variant's ``slowdown``);
* ``fuzz``: the fuzzer's steps per second.

Each figure is measured once per repeat, with its spread, and as a ratio to a fixed
pure-Python baseline timed in the same repeat (``baseline``): the machines are shared and
noisy. ``measure.Bench`` runs a ``measure.Plan``; ``render`` prints the report.
"""

from mtgconf.bench.baseline import baseline
from mtgconf.bench.measure import FIGURES, Bench, Plan, Report

__all__ = ["FIGURES", "Bench", "Plan", "Report", "baseline"]
