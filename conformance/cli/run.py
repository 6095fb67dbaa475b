"""``mtgconf run``: run the conformance suite against an engine, through pytest and xdist.

Before pytest starts, the run checks its input (the engine spec, every case file, the
expectations file) and shakes hands with the engine, so that bad input exits 2 and an engine
that cannot start exits 3, each with one clear message. Then pytest runs the cases (in
``-n`` workers), the plugin gathers every result into ``results.json`` beside a JUnit XML
file, and the run prints what went wrong and a summary per rule section.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from pathlib import Path
from typing import Any

from conformance.cli import ExitCode, UsageError

CONFORMANCE_DIR = Path(__file__).resolve().parents[1]
RUN_INI = CONFORMANCE_DIR / "run.ini"
EDITION_CHOICES = ("cr2004", "modern", "all")


def register(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser(
        "run", help="Run the conformance cases against an engine",
        description="Run the conformance cases against an engine (default: the reference "
        "engine) through pytest with xdist. Writes results.json and junit.xml to --out. Exit "
        "status: 0 every result as expected, 1 unexpected results, 2 bad input, 3 the engine "
        "could not be started or failed the handshake.",
    )
    add_engine_option(run)
    run.add_argument("--edition", choices=EDITION_CHOICES, default="all",
                     help="Run the cases under this edition only (default: all)")
    run.add_argument("--rules", action="append", default=[], metavar="GLOB",
                     help="Only cases citing a rule matching GLOB, e.g. cr2004:101.* or 217.* "
                     "(repeatable)")
    run.add_argument("--cases", action="append", default=[], metavar="DIR", type=Path,
                     help="Another folder of case files, besides the bundled ones (repeatable)")
    run.add_argument("--no-bundled", action="store_true",
                     help="Run only the cases of the --cases folders, not the bundled ones")
    run.add_argument("--expectations", metavar="FILE", type=Path,
                     help="The engine's expectations file (known failures, strict)")
    run.add_argument("--case-timeout", metavar="SECONDS", type=_seconds, default=None,
                     help="Seconds a case may take before it is a timeout (default: 10; 0: none)")
    run.add_argument("-n", "--jobs", dest="jobs", default="auto", metavar="N", type=_jobs,
                     help="Worker processes (pytest-xdist): a number, or auto for one per CPU; "
                     "0 runs in this process (default: auto)")
    run.add_argument("--out", metavar="DIR", type=Path, default=Path("conformance-results"),
                     help="Where to write results.json and junit.xml "
                     "(default: ./conformance-results)")
    run.add_argument("--validate-protocol", action="store_true",
                     help="Check every message both ways against its JSON Schema; a violation "
                     "is an error of that case")
    run.add_argument("--max-restarts", metavar="N", type=int, default=None,
                     help="Restarts of a crashed or hung engine in a row before its remaining "
                     "cases are reported as not run (default: 3)")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="One line per case instead of a progress bar")
    run.set_defaults(handler=_run)


def add_engine_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine", default="reference", metavar="ENGINE",
        help="The engine: reference (the bundled one, default), py:MODULE:CLASS (a Python "
        "engine in this process) or cmd:COMMAND (a process speaking the protocol on stdio)")


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {value!r}")
    return seconds


def _jobs(value: str) -> str:
    if value != "auto" and not value.isdigit():
        raise argparse.ArgumentTypeError(f"must be a number or auto, not {value!r}")
    return value


def start_engine(text: str, *, validate: bool = False) -> Any:
    """Parse an engine spec and shake hands; returns the started session.

    :raises BadEngineSpec: (exit 2) :raises SetupError: (exit 3)
    """
    from conformance.adapters import EngineSpec
    from conformance.session import EngineSession

    session = EngineSession(EngineSpec.parse(text), validate=validate)
    session.start()
    return session


def _run(args: argparse.Namespace) -> int:
    import pytest

    from conformance.adapters import EngineSpec
    from conformance.expectations import Expectations
    from conformance.lint import load_checked
    from conformance.plugin import BUNDLED_CASES

    EngineSpec.parse(args.engine)  # a bad spec is a usage error, before anything else
    for folder in args.cases:
        if not folder.exists():
            raise UsageError(f"--cases: no such file or directory: {folder}")
    if args.no_bundled and not args.cases:
        raise UsageError("--no-bundled needs at least one --cases folder")
    dirs = [*([] if args.no_bundled else [BUNDLED_CASES]), *(d.resolve() for d in args.cases)]
    cases = load_checked(dirs)
    cases.raise_for_problems()
    if args.expectations is not None:
        Expectations.load(args.expectations, cases.ids)
    editions = ["cr2004", "modern"] if args.edition == "all" else [args.edition]
    selected = [c for c in cases.cases if set(c.editions) & set(editions) and _matches(
        c.rules, args.rules)]
    if not selected:
        raise UsageError("no case matches --rules/--edition "
                         f"({', '.join(args.rules) or 'any rule'}, {args.edition})")

    session = start_engine(args.engine)
    info = session.info
    session.close()
    print(f"engine: {info.name} {info.version} (protocol {info.protocol}); editions "
          f"{', '.join(info.editions)}; {len(info.capabilities)} capabilities; "
          f"{len(info.cards)} cards")
    print(f"cases: {len(selected)} selected of {len(cases.cases)}; editions {', '.join(editions)}")
    sys.stdout.flush()

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    results_path = (out / "results.json").resolve()
    results_path.unlink(missing_ok=True)
    argv = [
        *(str(d) for d in dirs),
        "-c", str(RUN_INI), f"--rootdir={CONFORMANCE_DIR}", "-p", "no:cacheprovider",
        "--no-header", "--no-summary", "-rN", "--assert=plain", "-p", "no:hypothesispytest",
        f"--mtg-engine={args.engine}", f"--mtg-results={results_path}",
        f"--junitxml={(out / 'junit.xml').resolve()}",
        "-v" if args.verbose else "-q",
        *(f"--mtg-edition={e}" for e in editions),
        *(f"--mtg-rules={g}" for g in args.rules),
        *(f"--mtg-cases={d.resolve()}" for d in args.cases),
        *(["--mtg-no-bundled"] if args.no_bundled else []),
    ]
    if args.expectations is not None:
        argv.append(f"--mtg-expectations={args.expectations.resolve()}")
    if args.case_timeout is not None:
        argv.append(f"--mtg-case-timeout={args.case_timeout}")
    if args.validate_protocol:
        argv.append("--mtg-validate-protocol")
    if args.max_restarts is not None:
        argv.append(f"--mtg-max-restarts={args.max_restarts}")
    if args.jobs != "0":
        argv += ["-n", args.jobs]
    code = pytest.main(argv)
    if code in (pytest.ExitCode.USAGE_ERROR, pytest.ExitCode.INTERRUPTED) \
            or not results_path.exists():
        if code == 3:
            return ExitCode.ENGINE
        print(f"mtgconf: the run did not complete (pytest exit status {int(code)})",
              file=sys.stderr)
        return ExitCode.USAGE if code != pytest.ExitCode.INTERRUPTED else 130
    return summarise(results_path, out)


def _matches(rules: tuple[str, ...], globs: list[str]) -> bool:
    return not globs or any(
        fnmatch.fnmatchcase(ref, g) or fnmatch.fnmatchcase(ref.partition(":")[2], g)
        for ref in rules for g in globs)


def summarise(results_path: Path, out: Path) -> int:
    """Print what went wrong and the results per section; the run's exit status."""
    from conformance.expectations import read_results
    from conformance.report import sections
    from spec.corpus import Corpus

    data = read_results(results_path)
    unexpected = [r for r in data["results"] if r["status"] in
                  ("fail", "error", "crash", "timeout", "xpass")]
    print()
    if unexpected:
        print(f"Unexpected results ({len(unexpected)}):")
        for result in unexpected:
            print(f"  [{result['status']}] {result['edition']}::{result['case_id']}: "
                  f"{result['message']}")
        print()
    rows = sections(data, Corpus.load())
    if rows:
        print("By section:")
        width = min(max(len(r["title"]) for r in rows), 50)
        for row in rows:
            counts = ", ".join(f"{n} {status}" for status, n in row["counts"].items())
            print(f"  {row['edition']:<7}{row['section']:<5}{row['title'][:50]:<{width}}  "
                  f"{counts}")
        print()
    summary = data["summary"]
    counts = ", ".join(f"{n} {status}" for status, n in summary["counts"].items())
    verdict = f"{summary['unexpected']} unexpected" if summary["unexpected"] else "all as expected"
    print(f"{summary['total']} results: {counts or 'none'} ({verdict})")
    print(f"results: {results_path}\njunit:   {(out / 'junit.xml').resolve()}")
    return ExitCode.UNEXPECTED if summary["unexpected"] else ExitCode.OK
