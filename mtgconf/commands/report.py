"""``mtgconf report``: the HTML report of one or more results files (``reports``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    report = commands.add_parser(
        "report", help="Write the HTML report of results files (one or several engines)",
        description="Write a static HTML site from results files alone: a summary per engine "
        "and edition, the rule tree of each edition with a status per engine (a matrix when "
        "several are given), a page per rule and per result that did not pass, fuzz findings "
        "and the anomalies of the rules' sources; beside it summary.md (also appended to "
        "$GITHUB_STEP_SUMMARY when set) and badge.json (a shields.io endpoint badge). It "
        "needs no network and no JavaScript. Exit status 2 for an unreadable or malformed "
        "input, a --baseline of a narrower selection (fewer editions, --rules or --case "
        "globs) than the results, or an output folder that holds something other than a "
        "report.",
    )
    report.add_argument("results", nargs="+", type=Path, metavar="RESULTS",
                        help="results.json files, one per engine (or several per engine, "
                        "one per edition)")
    report.add_argument("-o", "--out", type=Path, required=True, metavar="DIR",
                        help="The folder to write the site into (a previous report there is "
                        "replaced)")
    report.add_argument("--coverage", type=Path, metavar="FILE",
                        help="The suite's coverage (mtgconf coverage --json; default: the "
                        "coverage.json mtgconf run wrote beside the first results file)")
    report.add_argument("--mutants", type=Path, metavar="FILE",
                        help="A mutants run (mtgconf mutants run --json): a mutation score "
                        "per rule")
    report.add_argument("--fuzz", type=Path, action="append", default=[], metavar="FILE",
                        help="Fuzz findings (format mtg-conformance fuzz; repeatable)")
    report.add_argument("--baseline", type=Path, metavar="RESULTS",
                        help="An earlier results file: what changed since, on the summary, "
                        "in summary.md and printed. Refused if it is of a narrower selection "
                        "(editions, --rules, --case) than the results; of a wider one, only "
                        "the case runs both select are compared (with a warning)")
    report.add_argument("--title", metavar="TEXT", help="The report's title")
    report.set_defaults(handler=_report)


def _report(args: argparse.Namespace) -> int:
    import reports
    from conformance.errors import InputError

    coverage = args.coverage or reports.coverage_beside(args.results)
    try:
        written = reports.build(args.results, args.out, coverage=coverage,
                                mutants=args.mutants, fuzz=args.fuzz, baseline=args.baseline,
                                title=args.title)
    except (InputError, reports.OutputError) as exc:
        raise UsageError(str(exc)) from None
    for warning in written.warnings:
        print(f"mtgconf: warning: {warning}", file=sys.stderr)
    if written.changes is not None:
        print("What changed against the baseline:")
        print("\n".join(written.changes))
    publish_summary(written.markdown)
    print(f"report: {written.index} ({written.pages} pages)")
    return ExitCode.OK


def publish_summary(markdown: str) -> None:
    """Append the Markdown summary to ``$GITHUB_STEP_SUMMARY`` when it is set (GitHub
    Actions shows it on the job's page)."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with Path(target).open("a", encoding="utf-8") as out:
            out.write(markdown + "\n")
    except OSError as exc:
        print(f"mtgconf: warning: cannot append to $GITHUB_STEP_SUMMARY ({target}): "
              f"{exc.strerror}", file=sys.stderr)
