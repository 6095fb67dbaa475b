"""``mtgconf bench``: how fast an engine plays, the suite runs, the harness costs and the
fuzzer steps, each figure with its spread over repeats and its ratio to a baseline timed in
the same run (``mtgconf.bench``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from conformance import atomic
from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from mtgconf.commands.run import add_engine_option
from spec.editions import EDITIONS


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    from mtgconf.bench import FIGURES

    bench = commands.add_parser(
        "bench", help="Measure an engine's, the suite's, the harness's and the fuzzer's speed",
        description="Measures, for an engine (default: the reference engine): its actions per "
        "second in random legal play through the protocol (and the reference engine's own "
        "in-process self-play), the bundled suite's case runs per second, the harness's "
        "overhead (wall time over time inside engine calls, in process and over the wire, with "
        "and without --validate-protocol) and the fuzzer's steps per second. Each figure is "
        "measured once per repeat and given with its median, min and max, and as a ratio to a "
        "fixed pure-Python baseline timed in the same repeat. Exit status: 0 every figure "
        "measured, 1 the engine failed during a figure (the figure says how), 2 bad input, 3 "
        "the engine could not be started, 4 nothing could be measured.")
    add_engine_option(bench)
    bench.add_argument("--edition", choices=(*EDITIONS, "all"), default="all",
                       help="The edition to measure (default: each the engine declares)")
    bench.add_argument("--seconds", type=_seconds, default=3.0, metavar="S",
                       help="Seconds per figure and repeat (default: 3)")
    bench.add_argument("--repeats", type=_positive, default=3, metavar="R",
                       help="Measurements of each figure, for its spread (default: 3)")
    bench.add_argument("--only", type=_figures, default=FIGURES, metavar="FIGURE,...",
                       help=f"Measure only these figures, of: {', '.join(FIGURES)} (default: "
                       "all)")
    bench.add_argument("--json", action="store_true",
                       help="Print one JSON document: every figure and run, the machine, the "
                       "engine and the command")
    bench.add_argument("--markdown", type=Path, metavar="FILE",
                       help="Also write the figures as a Markdown page (docs/benchmarks.md)")
    bench.add_argument("--note", metavar="TEXT",
                       help="A sentence about the machine for the --markdown page")
    bench.set_defaults(handler=_bench)


def _seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not number > 0:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {value!r}")
    return number


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {value!r}")
    return int(value)


def _figures(value: str) -> tuple[str, ...]:
    from mtgconf.bench import FIGURES

    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in FIGURES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{', '.join(unknown) or value!r} is not a figure; "
                                         f"the figures are {', '.join(FIGURES)}")
    return tuple(n for n in FIGURES if n in names)


def command_of(args: argparse.Namespace) -> str:
    """The command line that measures the same figures the same way."""
    from mtgconf.bench import FIGURES

    parts = ["mtgconf", "bench"]
    if args.engine != "reference":
        parts += ["--engine", args.engine]
    if args.edition != "all":
        parts += ["--edition", args.edition]
    parts += ["--seconds", f"{args.seconds:g}", "--repeats", str(args.repeats)]
    if args.only != FIGURES:
        parts += ["--only", ",".join(args.only)]
    if args.json:
        parts.append("--json")
    if args.markdown is not None:
        parts += ["--markdown", str(args.markdown)]
    if args.note:
        parts += ["--note", args.note]
    return shlex.join(parts)


def _bench(args: argparse.Namespace) -> int:
    from conformance.errors import BadEngineSpec
    from conformance.transports import EngineSpec
    from mtgconf.bench import Bench, Plan
    from mtgconf.bench.render import markdown, table
    from mtgconf.commands.run import start_engine

    try:
        EngineSpec.parse(args.engine)
    except BadEngineSpec as exc:
        # One line, as every other bad option of this command (``mtgconf run`` adds a hint).
        raise UsageError(f"--engine {exc.engine}: {exc.summary()} ({exc.detail}); an engine "
                         "is reference, phase, python-mtg, py:MODULE:CLASS or "
                         "cmd:COMMAND") from None
    if args.note and args.markdown is None:
        raise UsageError("--note goes with --markdown")
    if args.markdown is not None and not args.markdown.resolve().parent.is_dir():
        # Found out now, not after minutes of measuring.
        raise UsageError(f"--markdown {args.markdown}: no such folder "
                         f"{args.markdown.resolve().parent}")
    session = start_engine(args.engine)  # exit 3 if it cannot start
    try:
        info = session.info
        declared = [e for e in EDITIONS if e in info.editions]
        if args.edition != "all" and args.edition not in info.editions:
            raise UsageError(f"{args.engine} does not support edition {args.edition} (it "
                             f"declares {', '.join(info.editions) or 'none'})")
        editions = declared if args.edition == "all" else [args.edition]
        if not editions:
            raise UsageError(f"{args.engine} declares no edition the harness knows "
                             f"({', '.join(info.editions) or 'none'})")
        plan = Plan(args.engine, tuple(editions), args.seconds, args.repeats, args.only)
        progress = _progress if sys.stderr.isatty() else None
        report = Bench(plan, session, command_of(args), progress).run()
    finally:
        session.close()
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(table(report))
    if args.markdown is not None:
        atomic.write_text(args.markdown, markdown(report, args.note))
        print(f"bench: wrote {args.markdown}", file=sys.stderr)
    for figure in report.errors:
        print(f"mtgconf: {figure.id}: {figure.error}", file=sys.stderr)
    if report.errors:
        return ExitCode.UNEXPECTED
    return ExitCode.OK if report.measured else ExitCode.UNTESTED


def _progress(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)
