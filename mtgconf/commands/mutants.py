"""``mtgconf mutants``: what the cases catch. The cases run against deliberately broken copies of
the reference engine (each breaking one rule); a mutant no case fails is a rule the cases do
not really check."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from conformance import atomic
from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from spec.editions import EDITIONS

if TYPE_CHECKING:
    from conformance.mutation import MutantResult, MutantSet, Summary

SHOWN_KILLERS = 3


def _mutants(engine: str) -> MutantSet:
    """The mutant set of a named engine (its row of ``conformance.engines``)."""
    from conformance.engines import named
    from conformance.mutation import MutantSet

    try:
        row = named(engine)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if row is None:
        raise UsageError(f"--engine {engine}: no named engine of that name")
    if row.mutants is None:
        raise UsageError(f"--engine {engine}: the engine has no mutant set")
    return MutantSet.load(row.mutants, row.name)


def _add_engine(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="reference", metavar="NAME",
                        help="A named engine with a mutant set (default: reference, the "
                        "reference engine's)")


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    mutants = commands.add_parser(
        "mutants", help="Run the cases against engines broken one rule at a time",
        description="A case is worth what it catches. The reference engine ships with "
        "mutants, each breaking one rule the way an engine author most likely would; a mutant "
        "is killed when a case run ends as a failure under it (an error, crash or timeout "
        "shows a change, not a check, and kills nothing). Exit status of run: 0 every mutant "
        "killed, 1 some survived, 2 the unmutated engine does not pass the cases.",
    )
    sub = mutants.add_subparsers(dest="mutants_command", metavar="SUBCOMMAND",
                                 title="subcommands", parser_class=type(mutants))
    mutants.set_defaults(handler=lambda args: _usage(mutants))

    listing = sub.add_parser("list", help="The mutants and the rules they break")
    listing.add_argument("--rules", action="append", default=[], metavar="GLOB",
                         help="Only mutants breaking a rule matching GLOB (repeatable)")
    _add_engine(listing)
    listing.set_defaults(handler=_list)

    run = sub.add_parser(
        "run", help="Run the cases against the mutants; per rule, which survive",
        description="First the unmutated engine must pass every case run (else exit 2); then "
        "each mutant runs in a process of its own. By default a mutant stops at its first "
        "killing failure (the cases citing its rules are tried first); --every runs every case "
        "against every mutant, to see which cases kill which.")
    run.add_argument("--mutant", action="append", default=[], metavar="ID",
                     help="Only this mutant (repeatable; default: all)")
    run.add_argument("--rules", action="append", default=[], metavar="GLOB",
                     help="Only mutants breaking a rule matching GLOB, e.g. cr2004:212.* "
                     "(repeatable)")
    run.add_argument("--cases", action="append", default=[], metavar="DIR", type=Path,
                     help="Another folder of case files, besides the bundled ones (repeatable)")
    run.add_argument("--no-bundled", action="store_true",
                     help="Only the cases of the --cases folders")
    run.add_argument("--edition", choices=tuple(EDITIONS), action="append", default=[],
                     help="Only case runs under this edition (repeatable; default: both)")
    run.add_argument("--every", action="store_true",
                     help="Run every case against every mutant, not only until the first kill")
    run.add_argument("-j", "--jobs", type=int, default=2, metavar="N",
                     help="Mutants at a time, one process each (default: 2)")
    run.add_argument("--case-timeout", type=float, default=5.0, metavar="SECONDS",
                     help="Seconds a case may take under a mutant (default: 5)")
    run.add_argument("--json", type=Path, metavar="FILE", help="Write the results as JSON")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="Every mutant, killed or not, with its killing cases")
    _add_engine(run)
    run.set_defaults(handler=_run)

    compare = sub.add_parser(
        "compare", help="Compare two runs (--json) of old and new cases",
        description="Exit 1 if a mutant killed in BEFORE is not killed in AFTER: the new cases "
        "lost discriminating power.")
    compare.add_argument("before", type=Path)
    compare.add_argument("after", type=Path)
    compare.set_defaults(handler=_compare)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return ExitCode.USAGE


def _selected(mutants: MutantSet, ids: list[str], globs: list[str]) -> list[str]:
    from conformance.settings import matches_rules

    unknown = [m for m in ids if m not in mutants]
    if unknown:
        raise UsageError(f"no mutant {', '.join(unknown)} (see mtgconf mutants list)")
    chosen = ids or list(mutants)
    chosen = [m for m in chosen if matches_rules(mutants[m].rules, globs)]
    if not chosen:
        raise UsageError(f"no mutant breaks a rule matching {', '.join(globs)}")
    return chosen


def _list(args: argparse.Namespace) -> int:
    mutants = _mutants(args.engine)
    for mutant_id in _selected(mutants, [], args.rules):
        mutant = mutants[mutant_id]
        audit = f" (audit {mutant.audit})" if mutant.audit else ""
        print(f"{mutant.id:<44} {' '.join(mutant.rules)}{audit}\n    {mutant.description}")
    return ExitCode.OK


def _run(args: argparse.Namespace) -> int:
    from conformance.casefile import load
    from conformance.mutation import UNMUTATED, Summary, run_here, run_mutants, runs_of
    from conformance.settings import BUNDLED_CASES

    mutants = _mutants(args.engine)
    chosen = _selected(mutants, args.mutant, args.rules)
    if args.no_bundled and not args.cases:
        raise UsageError("--no-bundled needs at least one --cases folder")
    for folder in args.cases:
        if not folder.exists():
            raise UsageError(f"--cases: no such file or directory: {folder}")
    cases = load([*([] if args.no_bundled else [BUNDLED_CASES]), *args.cases])
    cases.raise_for_problems()
    runs = runs_of(cases.cases, args.edition or tuple(EDITIONS))
    started = time.monotonic()
    control = run_here(mutants, UNMUTATED, runs, every=True, case_timeout=args.case_timeout)
    failing = [*control.killed_by, *control.other]
    if failing:
        print(f"mtgconf: the unmutated engine does not pass {len(failing)} case runs; fix "
              f"that first: {', '.join(failing[:5])}", file=sys.stderr)
        return ExitCode.USAGE
    print(f"control: the unmutated engine passes all {control.runs} case runs; "
          f"{len(chosen)} mutants, {args.jobs} at a time")

    def progress(result: MutantResult) -> None:
        if args.verbose:
            _show(result)

    results = run_mutants(mutants, chosen, runs, jobs=args.jobs, every=args.every,
                          case_timeout=args.case_timeout, progress=progress)
    summary = Summary(results, control.runs, time.monotonic() - started,
                      {"every": args.every, "cases": {
                          "bundled": not args.no_bundled,
                          "folders": [str(f) for f in args.cases]}})
    _report(summary, verbose=args.verbose)
    if args.json is not None:
        atomic.write_text(args.json, json.dumps(summary.to_json(), indent=1) + "\n")
        print(f"written: {args.json}")
    counts = summary.counts()
    return ExitCode.OK if counts["killed"] == counts["mutants"] else ExitCode.UNEXPECTED


def _show(result: MutantResult) -> None:
    killers = ", ".join(result.killed_by[:SHOWN_KILLERS])
    more = f" and {len(result.killed_by) - SHOWN_KILLERS} more" \
        if len(result.killed_by) > SHOWN_KILLERS else ""
    line = f"  {result.status:<9}{result.mutant:<44}"
    if result.status == "killed":
        line += f"by {killers}{more}"
    elif result.other:
        line += f"(only errors, crashes or timeouts: {', '.join(result.other[:2])})"
    elif result.message:
        line += result.message
    print(line)


def _report(summary: Summary, *, verbose: bool) -> None:
    not_killed = [r for r in summary.results if r.status != "killed"]
    if not_killed and not verbose:
        print("Not killed:")
        for result in not_killed:
            _show(result)
            print(f"           {' '.join(result.rules)}: {result.description}")
    by_rule = summary.by_rule()
    surviving_rules = {rule: [r.mutant for r in results if r.status != "killed"]
                       for rule, results in by_rule.items()}
    surviving_rules = {k: v for k, v in surviving_rules.items() if v}
    counts = summary.counts()
    print(f"\n{counts['killed']} of {counts['mutants']} mutants killed by a failing case "
          f"({counts['survived']} survived, {counts['error']} could not be run) in "
          f"{summary.seconds:.1f}s; rules with a surviving mutant: {len(surviving_rules)} of "
          f"{len(by_rule)}")
    for rule, mutant_ids in surviving_rules.items():
        print(f"  {rule:<16}{', '.join(mutant_ids)}")


def _compare(args: argparse.Namespace) -> int:
    from conformance.mutation import FORMAT, compare

    documents = []
    for path in (args.before, args.after):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UsageError(f"{path}: cannot read a mutants run: {exc}") from None
        if data.get("format") not in (FORMAT, "mtg-conformance-mutation"):
            raise UsageError(f"{path}: not a mutants run (format {data.get('format')!r})")
        documents.append(data)
    result = compare(*documents)
    for title, ids in (("lost (killed before, not after)", result.lost),
                       ("missing (killed before, not run after)", result.missing),
                       ("gained", result.gained), ("still surviving", result.still_surviving)):
        if ids:
            print(f"{title}: {', '.join(ids)}")
    if not (result.lost or result.missing):
        print("no mutant lost")
    return ExitCode.UNEXPECTED if result.lost or result.missing else ExitCode.OK

