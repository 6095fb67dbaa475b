"""``mtgconf coverage``: which rules the cases cover, and which they only show or miss."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from spec.editions import EDITIONS

if TYPE_CHECKING:
    from spec.corpus import Corpus


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    coverage = commands.add_parser(
        "coverage", help="Rule coverage of the cases: covered, shown only, uncovered, waiting",
        description="For every rule an engine can break (testability engine or card-data): "
        "the cases citing it and those among them that are discriminating (their catches "
        "field says what wrong behaviour they fail). A rule is covered when it has both; a "
        "rule that waits (no card of the pool reaches it yet) is counted apart, with its "
        "reason. Exit status 1 if coverage is below --fail-under.",
    )
    coverage.add_argument("--edition", choices=tuple(EDITIONS), action="append",
                          default=[], help="Only this edition's rules (repeatable)")
    coverage.add_argument("--cases", action="append", default=[], metavar="DIR", type=Path,
                          help="Another folder of case files (repeatable)")
    coverage.add_argument("--no-bundled", action="store_true",
                          help="Only the cases of the --cases folders")
    coverage.add_argument("--rules", action="store_true",
                          help="List every testable rule with its status and cases")
    coverage.add_argument("--json", action="store_true", help="Print the coverage as JSON")
    coverage.add_argument("--fail-under", metavar="PERCENT", type=float, default=None,
                          help="Exit 1 if fewer than PERCENT of the rules that do not wait "
                          "are covered")
    coverage.set_defaults(handler=_coverage)


def _coverage(args: argparse.Namespace) -> int:
    from conformance.casefile import load
    from conformance.coverage import Coverage
    from conformance.settings import BUNDLED_CASES
    from spec.corpus import Corpus

    if args.no_bundled and not args.cases:
        raise UsageError("--no-bundled needs at least one --cases folder")
    for folder in args.cases:
        if not folder.exists():
            raise UsageError(f"--cases: no such file or directory: {folder}")
    dirs = [*([] if args.no_bundled else [BUNDLED_CASES]), *args.cases]
    cases = load(dirs)
    cases.raise_for_problems()
    corpus = Corpus.load()
    report = Coverage.of(cases.cases, corpus, args.edition or None)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    else:
        _print(report, corpus, listing=args.rules)
    if args.fail_under is not None and report.percent() < args.fail_under - 1e-9:
        print(f"mtgconf: coverage {report.percent():.1f}% is below --fail-under "
              f"{args.fail_under:g}%")
        return ExitCode.UNEXPECTED
    return ExitCode.OK


def _print(report: object, corpus: Corpus, *, listing: bool) -> None:
    from conformance.coverage import Coverage
    from conformance.resultsfile import section_title

    assert isinstance(report, Coverage)
    print(f"{'edition':<8}{'sect':<6}{'title':<42}{'rules':>6}{'cover':>7}{'shown':>7}"
          f"{'none':>6}{'wait':>6}")
    for edition, section, counts in report.by_section():
        title = section_title(corpus, edition, section)[:40]
        print(f"{edition:<8}{section:<6}{title:<42}{counts['rules']:>6}{counts['covered']:>7}"
              f"{counts['showing-only']:>7}{counts['uncovered']:>6}{counts['waits']:>6}")
    counts = report.counts()
    due = counts["rules"] - counts["waits"]
    print()
    print(f"{counts['rules']} rules an engine can break: {counts['covered']} covered (cited "
          f"by a case and by a discriminating one), {counts['showing-only']} only shown, "
          f"{counts['uncovered']} cited by no case, {counts['waits']} waiting for a card "
          f"({100 * counts['waits'] / max(counts['rules'], 1):.0f}%)")
    print(f"coverage: {counts['covered']} of {due} rules that do not wait "
          f"({report.percent():.1f}%)")
    if listing:
        print()
        for rule in report.testable:
            print(f"{rule.ref:<16}{rule.status:<13}{', '.join(rule.showing) or '-'}")
            if rule.discriminating and rule.discriminating != rule.showing:
                print(f"{'':<29}discriminating: {', '.join(rule.discriminating)}")
            if rule.waits:
                print(f"{'':<29}waits: {rule.waits}")
    else:
        missing = [r for r in report.testable if r.status in ("uncovered", "showing-only")]
        if missing:
            print()
            print(f"Not covered ({len(missing)}; --rules lists every rule):")
            for rule in missing:
                print(f"  {rule.ref:<16}{rule.status:<13}{rule.gist[:70]}")
    if report.unknown:
        print(f"\ncited but not in the corpus: {', '.join(report.unknown)}")
