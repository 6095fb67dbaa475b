"""``mtgconf cases``: list and lint the conformance cases."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.case import Case
    from conformance.errors import Problem
    from conformance.portability import Report

from conformance.exitcodes import ExitCode
from mtgconf import Parser
from spec.editions import EDITIONS


def register(commands: argparse._SubParsersAction[Parser]) -> None:
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
    lint.add_argument("--run", action="store_true",
                      help="Also run every case twice on the reference engine, following its "
                      "handles through the events and not, and report a case that names a "
                      "handle after its object changed zones without requiring observe.events "
                      "(a few seconds for the bundled suite)")
    lint.set_defaults(handler=_lint)

    portability = sub.add_parser(
        "portability", help="How many cases an engine can run, and what blocks the rest",
        description="For a declaration (an engine's hello, a profile, or capabilities and cards "
        "given here), count the case runs (a case once per edition) the engine can make, and "
        "group the rest by what blocks them: a capability, a way to pay, a card or stand-in, an "
        "edition. 'alone' counts the runs that declaring that one thing would win. Nothing is "
        "run. Profiles: conformance/profiles.yaml.",
    )
    _paths(portability)
    source = portability.add_mutually_exclusive_group()
    source.add_argument("--profile", action="append", default=[], metavar="NAME",
                        help="A profile of conformance/profiles.yaml (repeatable)")
    source.add_argument("--engine", metavar="ENGINE",
                        help="Take the declaration from this engine's hello (reference, "
                        "py:MODULE:CLASS or cmd:COMMAND)")
    source.add_argument("--capabilities", metavar="LIST",
                        help="Capabilities, comma-separated (with --cards)")
    portability.add_argument("--cards", metavar="LIST",
                             help="Card names, comma-separated, or @FILE with one per line")
    portability.add_argument("--edition", action="append", default=[], metavar="EDITION",
                             help="Count only this edition's runs (repeatable; default: the "
                             "declared editions)")
    portability.add_argument("--cases-blocked", action="store_true",
                             help="List the blocked case runs under each blocker")
    output = portability.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="Print JSON")
    output.add_argument("--markdown", action="store_true",
                        help="Print a Markdown table (one row per profile)")
    portability.set_defaults(handler=_portability)

    listing = sub.add_parser("list", help="List the cases: id, editions, rules, summary")
    _paths(listing)
    listing.add_argument("--rules", action="append", default=[], metavar="GLOB",
                         help="Only cases citing a rule matching GLOB, e.g. cr2004:101.* or "
                         "217.* (repeatable; as mtgconf run --rules)")
    listing.add_argument("--engine", metavar="ENGINE",
                         help="Only the cases this engine can run in an edition it declares "
                         "(from its hello; nothing is run)")
    listing.add_argument("--json", action="store_true", help="Print JSON")
    listing.set_defaults(handler=_list)

    show = sub.add_parser("show", help="Show one case: its file, rules and quotes, needs, "
                          "steps", description="Print a case as its file has it, with what "
                          "it cites (each rule's text or gist) and what an engine needs to "
                          "run it.")
    show.add_argument("case_id", metavar="ID", help="The case id (mtgconf cases list)")
    show.add_argument("--cases", action="append", default=[], metavar="DIR", type=Path,
                      help="Another folder of case files, besides the bundled ones "
                      "(repeatable)")
    show.set_defaults(handler=_show)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return ExitCode.USAGE


def _paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="Case files or folders (default: the bundled cases)")
    parser.add_argument("--bundled", action="store_true",
                        help="With PATHs, the bundled cases too (ids must then be unique "
                        "across both, as in a run with --cases)")
    parser.add_argument("--no-bundled", action="store_true",
                        help="Only the PATHs (the default when PATHs are given; kept for "
                        "older scripts)")


def _dirs(args: argparse.Namespace) -> list[Path]:
    """The PATHs alone; the bundled cases without PATHs, or with ``--bundled``."""
    from conformance.casefile import CASES_DIR
    from mtgconf import UsageError

    if args.bundled and args.no_bundled:
        raise UsageError("--bundled and --no-bundled contradict each other")
    if args.paths and not args.bundled:
        return list(args.paths)
    return [CASES_DIR, *args.paths]


def _lint(args: argparse.Namespace) -> int:
    from conformance import casefile, lint

    cases = casefile.load(_dirs(args))
    problems = [*cases.problems, *lint.lint(cases)]
    if args.run:
        problems += _followed_handles(cases.cases)
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


def _followed_handles(cases: list[Case]) -> list[Problem]:
    from conformance.following import followed_handles
    from mtgconf.commands.run import start_engine

    session = start_engine("reference")
    try:
        return followed_handles(cases, session)
    finally:
        session.close()


def _list(args: argparse.Namespace) -> int:
    from conformance import lint
    from conformance.settings import matches_rules

    cases = lint.load_checked(_dirs(args))
    cases.raise_for_problems()
    chosen = [c for c in cases.cases if matches_rules(c.rules, args.rules)]
    if args.engine is not None:
        runnable = _engine_report(args.engine, chosen, []).runs
        chosen = [c for c in chosen if any(case == c.id for case, _ in runnable)]
    if args.json:
        json.dump([{"id": c.id, "editions": list(c.editions), "rules": list(c.rules),
                    "requires": sorted(c.needs), "summary": c.summary, "file": str(c.file),
                    "line": c.line} for c in chosen], sys.stdout, ensure_ascii=False,
                  indent=1)
        sys.stdout.write("\n")
        return ExitCode.OK
    for case in chosen:
        print(f"{case.id:<44} {','.join(case.editions):<14} {' '.join(case.rules)}")
    return ExitCode.OK


def _show(args: argparse.Namespace) -> int:
    from conformance import lint
    from conformance.casefile import CASES_DIR
    from conformance.citation import citations_of
    from conformance.expectations import suggestion
    from mtgconf import UsageError
    from spec.corpus import Corpus

    cases = lint.load_checked([CASES_DIR, *args.cases])
    cases.raise_for_problems()
    case = cases.get(args.case_id)
    if case is None:
        raise UsageError(f"no case {args.case_id!r}{suggestion(args.case_id, cases.ids)}")
    corpus = Corpus.load()
    print(f"{case.id}  ({case.file}:{case.line})")
    print(f"  {case.summary}")
    print(f"  editions: {', '.join(case.editions)}")
    print(f"  needs: {', '.join(sorted(case.needs)) or 'nothing beyond the protocol'}"
          + (f"; cards {', '.join(sorted(case.cards))}" if case.cards else ""))
    cited = citations_of(case, corpus)
    print("  rules:")
    for ref in case.rules:
        rule = corpus.get(ref) if ref in corpus else None
        print(f"    {ref}: {rule.gist if rule is not None else '(not in the corpus)'}")
        if ref in cited["quotes"]:
            print(f"      quote: {cited['quotes'][ref]}")
        if ref in cited["terms"]:
            print(f"      terms: {', '.join(cited['terms'][ref])}")
        catches = case.catches_for(ref)
        if catches:
            print(f"      catches: {catches}")
    print()
    print(_source_of(case))
    return ExitCode.OK


def _source_of(case: Case) -> str:
    """The case's own lines of its file: from its ``- id:`` line to the next case's."""
    lines = Path(case.file).read_text(encoding="utf-8").splitlines()
    start = (case.line or 1) - 1
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("- ")),
               len(lines))
    return "\n".join(lines[start:end]).rstrip()


def _portability(args: argparse.Namespace) -> int:
    from conformance import lint, portability
    from conformance.protocol import CAPABILITIES, VERSION, EngineInfo
    from mtgconf import UsageError

    cases = lint.load_checked(_dirs(args))
    cases.raise_for_problems()
    reports: list[tuple[str, portability.Report]] = []
    if args.capabilities is not None:
        if args.cards is None:
            raise UsageError("--capabilities needs --cards (a list, or @FILE)")
        capabilities = frozenset(c.strip() for c in args.capabilities.split(",") if c.strip())
        unknown = sorted(capabilities - set(CAPABILITIES))
        if unknown:
            raise UsageError(f"--capabilities: unknown capability {', '.join(unknown)}")
        editions = tuple(args.edition) or tuple(EDITIONS)
        info = EngineInfo("given", "", VERSION, editions, capabilities, _cards(args.cards),
                          declared=capabilities)
        reports.append(("given", portability.report(cases.cases, info, args.edition)))
    elif args.engine is not None:
        reports.append((args.engine, _engine_report(args.engine, cases.cases, args.edition)))
    else:
        names = args.profile or list(portability.profiles())
        for name in names:
            chosen = portability.profile(name)
            if chosen.engine is not None:
                report = _engine_report(chosen.engine, cases.cases, args.edition)
            else:
                report = portability.report(cases.cases, chosen.info(),
                                            args.edition or chosen.editions)
            reports.append((name, report))
    if args.json:
        json.dump({name: r.serializable() for name, r in reports}, sys.stdout, indent=1,
                  ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.markdown:
        print(portability.markdown(reports))
    else:
        for name, report in reports:
            _print_report(name, report, args.cases_blocked)
    return ExitCode.OK


def _engine_report(engine: str, cases: list[Case], editions: list[str]) -> Report:
    from conformance import portability
    from mtgconf.commands.run import start_engine

    session = start_engine(engine)
    try:
        return portability.report(cases, session.info, editions)
    finally:
        session.close()


def _cards(value: str) -> frozenset[str]:
    if value.startswith("@"):
        path = Path(value[1:])
        lines = path.read_text(encoding="utf-8").splitlines()
        return frozenset(x.strip() for x in lines if x.strip() and not x.startswith("#"))
    return frozenset(x.strip() for x in value.split(",") if x.strip())


def _print_report(name: str, report: Report, show_cases: bool) -> None:
    print(f"{name}: {len(report.runs)} of {report.total} case runs "
          f"({report.share:.0%}) can run")
    rows = report.by_blocker()
    if rows:
        width = max(len(b) for b, _, _ in rows)
        print(f"  {'blocked by':<{width}}  runs  alone")
        for blocker, count, alone in rows:
            print(f"  {blocker:<{width}}  {count:>4}  {alone:>5}")
            if show_cases:
                for (case, edition), reasons in sorted(report.blocked.items()):
                    if blocker in reasons:
                        print(f"      {edition}::{case}")
    print()
