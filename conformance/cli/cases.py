"""``mtgconf cases``: list and lint the conformance cases."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.cli import ExitCode


def register(commands: argparse._SubParsersAction) -> None:
    cases = commands.add_parser(
        "cases", help="List and lint the conformance cases",
        description="The conformance cases: the bundled ones and any folder given.",
    )
    sub = cases.add_subparsers(dest="cases_command", metavar="SUBCOMMAND", title="subcommands",
                               parser_class=type(cases))
    cases.set_defaults(handler=lambda args: _usage(cases))

    lint = sub.add_parser(
        "lint", help="Check case files: schema, rule ids, quotes, ids, capabilities, handles",
        description="Check every case file: the schema, unknown rule ids, quotes not found in "
        "the cited rule, duplicate ids, unknown capabilities and handles. Exit status 2 if "
        "there are errors (warnings alone exit 0).",
    )
    _paths(lint)
    lint.add_argument("--json", action="store_true", help="Print the problems as JSON")
    lint.set_defaults(handler=_lint)

    listing = sub.add_parser("list", help="List the cases: id, editions, rules, summary")
    _paths(listing)
    listing.add_argument("--json", action="store_true", help="Print JSON")
    listing.set_defaults(handler=_list)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return ExitCode.USAGE


def _paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="Case files or folders (default: the bundled cases)")
    parser.add_argument("--no-bundled", action="store_true",
                        help="Leave out the bundled cases when PATHs are given")


def _dirs(args: argparse.Namespace) -> list[Path]:
    from conformance.casefile import CASES_DIR

    if args.paths and args.no_bundled:
        return list(args.paths)
    return [CASES_DIR, *args.paths]


def _lint(args: argparse.Namespace) -> int:
    from conformance import casefile, lint

    cases = casefile.load(_dirs(args))
    problems = [*cases.problems, *lint.lint(cases)]
    errors = [p for p in problems if p.severity == "error"]
    if args.json:
        json.dump([{"file": p.path, "line": p.line, "case": p.case, "field": p.field,
                    "severity": p.severity, "message": p.message} for p in problems],
                  sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for problem in problems:
            print(problem)
        warnings = len(problems) - len(errors)
        print(f"{len(cases.files)} files, {len(cases.cases)} cases: {len(errors)} errors, "
              f"{warnings} warnings")
    return ExitCode.USAGE if errors else ExitCode.OK


def _list(args: argparse.Namespace) -> int:
    from conformance import lint

    cases = lint.load_checked(_dirs(args))
    cases.raise_for_problems()
    if args.json:
        json.dump([{"id": c.id, "editions": list(c.editions), "rules": list(c.rules),
                    "requires": sorted(c.needs), "summary": c.summary, "file": str(c.file),
                    "line": c.line} for c in cases.cases], sys.stdout, ensure_ascii=False,
                  indent=1)
        sys.stdout.write("\n")
        return ExitCode.OK
    for case in cases.cases:
        print(f"{case.id:<44} {','.join(case.editions):<14} {' '.join(case.rules)}")
    return ExitCode.OK
