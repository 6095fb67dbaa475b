"""Mutation testing of the conformance cases.

    python -m tests.mutation run [--cases DIR ...] [--no-bundled] [--mutant ID ...]
                                 [--jobs N] [--json OUT] [--case-timeout S] [-v]
    python -m tests.mutation compare BEFORE.json AFTER.json
    python -m tests.mutation list

``run`` first checks that the unmutated engine passes every case given (else it stops, exit
2), then runs the cases against each mutant and prints which cases kill it. ``compare`` exits
1 when a mutant killed in BEFORE is not killed in AFTER: the cases lost discriminating power.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tests.mutation import runner
from tests.mutation.mutants import MUTANTS

SHOWN_KILLERS = 4


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="Run the cases against the mutants")
    run.add_argument("--cases", action="append", default=[], type=Path, metavar="DIR",
                     help="A folder of case files, besides the bundled ones (repeatable)")
    run.add_argument("--no-bundled", action="store_true",
                     help="Only the cases of the --cases folders")
    run.add_argument("--mutant", action="append", default=[], metavar="ID",
                     help="Only this mutant (repeatable; default: every mutant)")
    run.add_argument("--jobs", "-j", type=int, default=2, metavar="N",
                     help="Suite runs at a time, one process each (default: 2)")
    run.add_argument("--json", type=Path, metavar="OUT", help="Write the results here")
    run.add_argument("--case-timeout", type=float, default=5.0, metavar="S",
                     help="Seconds a case may take under a mutant (default: 5)")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="List every killing case, not only the first few")
    compare = commands.add_parser("compare", help="Compare two runs (old cases, new cases)")
    compare.add_argument("before", type=Path)
    compare.add_argument("after", type=Path)
    commands.add_parser("list", help="List the mutants")
    args = parser.parse_args(argv)
    if args.command == "run":
        return _run(args)
    if args.command == "compare":
        return _compare(args.before, args.after)
    for mutant in MUTANTS.values():
        audit = f" (audit {mutant.audit})" if mutant.audit else ""
        print(f"{mutant.id:<44} {' '.join(mutant.rules)}{audit}\n    {mutant.description}")
    return 0


def _run(args: argparse.Namespace) -> int:
    unknown = [m for m in args.mutant if m not in MUTANTS]
    if unknown:
        print(f"unknown mutant(s): {', '.join(unknown)} (see: python -m tests.mutation list)",
              file=sys.stderr)
        return 2
    if args.no_bundled and not args.cases:
        print("--no-bundled needs at least one --cases folder", file=sys.stderr)
        return 2
    options = runner.Options(tuple(args.cases), args.no_bundled, args.case_timeout)
    started = time.monotonic()
    baseline = runner.control(options)
    if baseline.status != "survived" or not baseline.runs:
        print("control: the unmutated engine does not pass the cases; fix that first:")
        if baseline.message:
            print(f"  {baseline.message}")
        for case in baseline.killed_by:
            print(f"  not passing: {case}")
        return 2
    counts = ", ".join(f"{n} {s}" for s, n in sorted(baseline.counts.items()))
    print(f"control: unmutated engine, {baseline.runs} results ({counts}), "
          f"{baseline.seconds:.1f}s")
    ids = args.mutant or list(MUTANTS)
    done = 0

    def progress(outcome: runner.Outcome) -> None:
        nonlocal done
        done += 1
        print(f"[{done:>3}/{len(ids)}] {outcome.status:<8} {outcome.mutant} "
              f"({len(outcome.killed_by)} killing, {outcome.seconds:.1f}s)", flush=True)

    outcomes = runner.run_mutants(ids, options, args.jobs, progress)
    seconds = time.monotonic() - started
    data = runner.report(baseline, outcomes, options, seconds)
    print()
    for outcome in outcomes:
        print(_line(outcome, args.verbose))
    summary = data["summary"]
    survivors = [o.mutant for o in outcomes if o.status == "survived"]
    print(f"\n{summary['mutants']} mutants: {summary['killed']} killed, "
          f"{summary['survived']} survived, {summary['error']} error ({seconds:.0f}s)")
    if survivors:
        print(f"survived: {', '.join(survivors)}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
        print(f"results: {args.json}")
    return 3 if summary["error"] else 0


def _line(outcome: runner.Outcome, verbose: bool) -> str:
    audit = MUTANTS[outcome.mutant].audit
    note = f" (audit {audit})" if audit else ""
    if outcome.status == "error":
        return f"ERROR    {outcome.mutant}: {outcome.message}"
    if outcome.status == "survived":
        return f"SURVIVED {outcome.mutant}{note}"
    killers = _grouped(outcome.killed_by)
    shown = killers if verbose else killers[:SHOWN_KILLERS]
    more = f", +{len(killers) - len(shown)} more" if len(killers) > len(shown) else ""
    return f"killed   {outcome.mutant}{note} by {', '.join(shown)}{more}"


def _grouped(killed_by: list[str]) -> list[str]:
    """``case [cr2004, modern]`` for the editions a case killed in."""
    editions: dict[str, list[str]] = {}
    for entry in killed_by:
        edition, _, case = entry.partition("::")
        editions.setdefault(case, []).append(edition)
    return [f"{case} [{', '.join(e)}]" for case, e in sorted(editions.items())]


def _compare(before_path: Path, after_path: Path) -> int:
    try:
        before, after = runner.load(before_path), runner.load(after_path)
    except (OSError, ValueError) as exc:
        print(f"compare: {exc}", file=sys.stderr)
        return 2
    result = runner.compare(before, after)
    for mutant_id in result.lost:
        was = _grouped(before["mutants"][mutant_id]["killed_by"])
        print(f"LOST     {mutant_id}: {after['mutants'][mutant_id]['status']} now; "
              f"killed before by {', '.join(was)}")
    for mutant_id in result.missing:
        print(f"MISSING  {mutant_id}: killed before, not run in {after_path}")
    for mutant_id in result.gained:
        print(f"gained   {mutant_id}: killed now by "
              f"{', '.join(_grouped(after['mutants'][mutant_id]['killed_by']))}")
    killed = [sum(d["mutants"][m]["status"] == "killed" for m in d["mutants"])
              for d in (before, after)]
    print(f"killed: {killed[0]} before, {killed[1]} after; {len(result.lost)} lost, "
          f"{len(result.missing)} missing, {len(result.gained)} gained, "
          f"{len(result.still_surviving)} still surviving")
    return 1 if result.lost or result.missing else 0


if __name__ == "__main__":
    sys.exit(main())
