"""``mtgconf expectations``: write an engine's expectations file from a results file, or
bring one up to date with a later run (docs/expectations.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from conformance import atomic
from conformance.exitcodes import ExitCode
from mtgconf import Parser

if TYPE_CHECKING:
    from conformance.resultsfile import Results


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    expectations = commands.add_parser(
        "expectations", help="Write an expectations file (known failures) from results",
        description="Expectations files belong to an engine's author: they list the cases "
        "the engine is known to fail, so that CI fails only on new failures.",
    )
    sub = expectations.add_subparsers(dest="expectations_command", metavar="SUBCOMMAND",
                                      title="subcommands", parser_class=type(expectations))
    expectations.set_defaults(handler=lambda args: _usage(expectations))
    generate = sub.add_parser(
        "generate", help="List every failure of a results file as expected",
        description="Read a results.json and write an expectations file listing each case "
        "that failed, errored, crashed or timed out, with its message as the reason.",
    )
    generate.add_argument("results", type=Path, metavar="RESULTS", help="A results.json file")
    generate.add_argument("-o", "--output", type=Path, metavar="FILE",
                          help="Write to FILE instead of standard output")
    generate.set_defaults(handler=_generate)
    update = sub.add_parser(
        "update", help="Bring an expectations file up to date with a run's results",
        description="Drop the entries whose case now passes, give an entry whose case now "
        "ends another way that status (its reason and link kept), and add each new failure "
        "with a reason that starts FILL IN (and quotes the run's message), to replace with "
        "the why. "
        "Entries of cases the run did not run are kept. Comments are not kept.",
    )
    update.add_argument("expectations", type=Path, metavar="FILE",
                        help="The expectations file, rewritten in place unless -o")
    update.add_argument("results", type=Path, metavar="RESULTS", help="A results.json file")
    update.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="Write to FILE instead of rewriting the expectations file")
    update.set_defaults(handler=_update)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return ExitCode.USAGE


def _generate(args: argparse.Namespace) -> int:
    from conformance.expectations import generate

    results = _complete_results(args.results)
    engines = [info.name for info in results.engines.values() if info is not None]
    text = generate(results.records, engines[0] if len(engines) == 1 else None)
    if args.output is None:
        sys.stdout.write(text)
    else:
        atomic.write_text(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    return ExitCode.OK


def _update(args: argparse.Namespace) -> int:
    from conformance.expectations import TO_FILL_IN, Expectations, update

    current = Expectations.load(args.expectations)
    results = _complete_results(args.results)
    done = update(current, results.records)
    output = args.output or args.expectations
    atomic.write_text(output, done.text)
    print(f"wrote {output}: {len(done.dropped)} dropped (now passing), {len(done.changed)} "
          f"changed, {len(done.added)} added", file=sys.stderr)
    for key in done.dropped:
        print(f"  dropped {key}", file=sys.stderr)
    for key in done.changed:
        print(f"  changed {key}", file=sys.stderr)
    for key in done.added:
        print(f"  added   {key}: give it a reason (replace '{TO_FILL_IN}')", file=sys.stderr)
    return ExitCode.OK


def _complete_results(path: Path) -> Results:
    """A results file that can say what an engine fails: not an interrupted run (it would
    miss the failures of the rest), no flaky case (it cannot be expected, only fixed).

    :raises UsageError:"""
    from conformance.resultsfile import Results
    from mtgconf import UsageError

    results = Results.from_file(path)
    if results.interrupted:
        raise UsageError(f"{path}: the run was interrupted "
                         f"({len(results.records)} of {results.selected} case runs finished); "
                         "expectations written from it would miss the failures of the rest")
    flaky = [r for r in results.records if r.status == "flaky"]
    if flaky:
        raise UsageError(f"{path}: {len(flaky)} case runs are flaky (e.g. "
                         f"{flaky[0].edition}::{flaky[0].case_id}); a flaky case cannot be "
                         "expected, only fixed")
    return results
