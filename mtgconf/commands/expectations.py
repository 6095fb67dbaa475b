"""``mtgconf expectations``: write an engine's expectations file from a results file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance import atomic
from conformance.exitcodes import ExitCode
from mtgconf import Parser


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


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return ExitCode.USAGE


def _generate(args: argparse.Namespace) -> int:
    from conformance.expectations import generate
    from conformance.resultsfile import Results
    from mtgconf import UsageError

    results = Results.from_file(args.results)
    if results.interrupted:
        raise UsageError(f"{args.results}: the run was interrupted "
                         f"({len(results.records)} of {results.selected} case runs finished); "
                         "expectations written from it would miss the failures of the rest")
    flaky = [r for r in results.records if r.status == "flaky"]
    if flaky:
        raise UsageError(f"{args.results}: {len(flaky)} case runs are flaky (e.g. "
                         f"{flaky[0].edition}::{flaky[0].case_id}); a flaky case cannot be "
                         "expected, only fixed")
    engines = [info.name for info in results.engines.values() if info is not None]
    text = generate(results.records, engines[0] if len(engines) == 1 else None)
    if args.output is None:
        sys.stdout.write(text)
    else:
        atomic.write_text(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    return ExitCode.OK
