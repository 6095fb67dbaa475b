"""Scoring the fuzzer against a mutant set (as ``conformance.mutation`` scores the cases): fuzz
each mutant of the reference engine (reference_engine/mutants) for a few seconds and count
those it kills (any finding: the unmutated engine has none).

    python -m fuzz.mutation [--seconds 30] [--sample N] [--seed S] [-j 2] [--json FILE]
                           [--differential]

With ``--differential`` each game is also played on the unmutated engine in a process of its
own (``cmd:python -m reference_engine.serve``) and the two compared step by step.

Each mutant runs in a forked process of its own (the patch never leaks), on the edition of the
rules it breaks (both when it names rules of both).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from conformance import atomic

UNMUTATED = "cmd:python -m reference_engine.serve"


def _mutants() -> Any:
    """The reference engine's mutant set, by the name its row of the registry gives."""
    from conformance.engines import named
    from conformance.mutation import MutantSet

    row = named("reference")
    assert row is not None and row.mutants is not None
    return MutantSet.load(row.mutants, row.name)


def fuzz_mutant(args: tuple[str, float, int, bool]) -> dict[str, Any]:
    from fuzz.campaign import PROFILES, Campaign
    from fuzz.machine import FuzzConfig

    mutant_id, seconds, seed_value, differential = args
    mutants = _mutants()
    mutant = mutants[mutant_id]
    editions = sorted({rule.split(":", 1)[0] for rule in mutant.rules})
    begin = time.monotonic()
    found: list[dict[str, Any]] = []
    with mutants.applied(mutant_id):
        for edition in editions:
            # Directed by the mutant's rules, as `mtgconf fuzz --rules` would be: the decks
            # hold the cards that serve them. Nothing else of the mutant is known.
            config = FuzzConfig(mutants.engine, edition,
                                against=UNMUTATED if differential else None,
                                rules=mutant.rules)
            campaign = Campaign(config, PROFILES["dev"],
                                seconds / len(editions), seed_value, database="none")
            campaign.run()
            found += [{"edition": edition, "invariant": key, "steps": f.steps,
                       "message": f.violation.message[:200]}
                      for key, f in campaign.findings.by_key.items()]
            if found:
                break
    return {"mutant": mutant_id, "rules": list(mutant.rules), "killed": bool(found),
            "findings": found, "seconds": round(time.monotonic() - begin, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.mutation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--sample", type=int, help="A random sample of this many mutants")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--differential", action="store_true",
                        help="Compare with the unmutated engine too")
    args = parser.parse_args(argv)
    chosen = sorted(_mutants())
    if args.sample:
        chosen = sorted(random.Random(args.seed).sample(chosen, min(args.sample, len(chosen))))
    context = multiprocessing.get_context("fork")
    results = []
    with ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
        for result in pool.map(fuzz_mutant, [(m, args.seconds, args.seed, args.differential)
                                                 for m in chosen]):
            results.append(result)
            mark = "killed  " if result["killed"] else "survived"
            how = result["findings"][0]["invariant"] if result["findings"] else ""
            print(f"{mark} {result['mutant']:48} {result['seconds']:6.1f}s {how}", flush=True)
    killed = sum(r["killed"] for r in results)
    print(f"\n{killed} of {len(results)} mutants killed by fuzzing alone "
          f"({100 * killed / max(1, len(results)):.0f}%), {args.seconds:.0f} s each"
          + (", differential" if args.differential else ""))
    if args.json:
        atomic.write_text(args.json, json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
