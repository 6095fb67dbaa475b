"""``mtgconf coverage``: which rules the cases cover, and which they only show or miss.

The two parts of the corpus are counted apart, and each has its own floor: ``--fail-under``
for the seed rules, ``--fail-under-outside`` for the rules outside the seeds (whose cases are
still being written: CI holds that part to what exists, and the wave writing its cases raises
the floor to 100).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from spec.editions import EDITIONS

if TYPE_CHECKING:
    from conformance.coverage import Coverage, Part
    from spec.corpus import Corpus

#: not-covered rules listed per part without --rules
MISSING_SHOWN = 30


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    coverage = commands.add_parser(
        "coverage", help="Rule coverage of the cases: covered, shown only, uncovered, waiting",
        description="For every rule an engine can break (testability engine or card-data): "
        "the cases citing it and those among them that are discriminating (their catches "
        "field says what wrong behaviour they fail). A rule is covered when it has both; a "
        "rule that waits (no card of the pool reaches it yet) is counted apart, with its "
        "reason. The seed rules and the rules outside the seeds are counted apart, each with "
        "its own floor. Exit status 1 if a part's coverage is below its floor.",
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
    coverage.add_argument("--fail-under", metavar="PERCENT", type=_percent, default=None,
                          help="Exit 1 if fewer than PERCENT of the seed rules that do not "
                          "wait are covered")
    coverage.add_argument("--fail-under-outside", metavar="PERCENT", type=_percent,
                          default=None,
                          help="Exit 1 if fewer than PERCENT of the rules outside the seeds "
                          "that do not wait are covered")
    coverage.set_defaults(handler=_coverage)


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a percentage from 0 to 100, not {text}")
    return value


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
    below = [(part, floor, option) for part, floor, option in (
        (report.seed, args.fail_under, "--fail-under"),
        (report.outside, args.fail_under_outside, "--fail-under-outside"))
        if floor is not None and part.percent() < floor - 1e-9]
    for part, floor, option in below:
        print(f"mtgconf: coverage of {part.name} {part.percent():.1f}% is below {option} "
              f"{floor:g}%")
    return ExitCode.UNEXPECTED if below else ExitCode.OK


def _print(report: Coverage, corpus: Corpus, *, listing: bool) -> None:
    for number, part in enumerate(report.parts):
        if number:
            print()
        _print_part(part, corpus, listing=listing)
    if report.unknown:
        print(f"\ncited but not in the corpus: {', '.join(report.unknown)}")


def _print_part(part: Part, corpus: Corpus, *, listing: bool) -> None:
    from conformance.resultsfile import section_title

    print(f"{part.name.capitalize()}:")
    print(f"{'edition':<8}{'sect':<6}{'title':<42}{'rules':>6}{'cover':>7}{'shown':>7}"
          f"{'none':>6}{'wait':>6}")
    for edition, section, counts in part.by_section():
        title = section_title(corpus, edition, section)[:40]
        print(f"{edition:<8}{section:<6}{title:<42}{counts['rules']:>6}{counts['covered']:>7}"
              f"{counts['showing-only']:>7}{counts['uncovered']:>6}{counts['waits']:>6}")
    counts = part.counts()
    due = counts["rules"] - counts["waits"]
    print()
    print(f"{counts['rules']} rules an engine can break: {counts['covered']} covered (cited "
          f"by a case and by a discriminating one), {counts['showing-only']} only shown, "
          f"{counts['uncovered']} cited by no case, {counts['waits']} waiting for a card "
          f"({100 * counts['waits'] / max(counts['rules'], 1):.0f}%)")
    where = "outside the seeds" if part.outside else "of the seeds"
    print(f"coverage {where}: {counts['covered']} of {due} rules that do not wait "
          f"({part.percent():.1f}%)")
    if listing:
        print()
        for rule in part.testable:
            print(f"{rule.ref:<16}{rule.status:<13}{', '.join(rule.showing) or '-'}")
            if rule.discriminating and rule.discriminating != rule.showing:
                print(f"{'':<29}discriminating: {', '.join(rule.discriminating)}")
            if rule.waits:
                print(f"{'':<29}waits: {rule.waits}")
        return
    missing = [r for r in part.testable if r.status in ("uncovered", "showing-only")]
    if missing:
        print()
        print(f"Not covered ({len(missing)}; --rules lists every rule):")
        for rule in missing[:MISSING_SHOWN]:
            print(f"  {rule.ref:<16}{rule.status:<13}{rule.gist[:70]}")
        if len(missing) > MISSING_SHOWN:
            print(f"  and {len(missing) - MISSING_SHOWN} more")
