"""``mtgconf run``: run the conformance suite against an engine, through pytest and xdist.

Before pytest starts, the run checks its input (the engine spec, every case file, the
expectations file) and shakes hands with the engine, so that bad input exits 2 and an engine
that cannot start exits 3, each with one clear message. Then pytest runs the cases (in
``-n`` workers), the plugin gathers every result into ``results.json`` beside a JUnit XML
file, and the run prints what went wrong and a summary per rule section.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import conformance
from conformance import settings
from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from mtgconf.commands import run_selection
from spec.editions import EDITIONS

if TYPE_CHECKING:
    from conformance.transports import EngineSpec

CONFORMANCE_DIR = Path(conformance.__file__).resolve().parent
RUN_INI = CONFORMANCE_DIR / "run.ini"
EDITION_CHOICES = (*EDITIONS, "all")
SKIPS_SHOWN = 12
FEW_RUNS = 12  # fewer case runs than this run in one process whatever the engine


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    run = commands.add_parser(
        "run", help="Run the conformance cases against an engine",
        description="Run the conformance cases against an engine (default: the reference "
        "engine) through pytest with xdist. Streams each result to results.jsonl as it "
        "finishes and writes results.json and junit.xml to --out at the end (also when "
        "interrupted). Exit status: 0 every result as expected, 1 unexpected results, 2 bad "
        "input, 3 the engine could not be started or failed the handshake, 4 nothing tested "
        "(no case ran, fewer than --min-run, or the engine declared an unknown capability or "
        "edition), 5 an internal error of the harness, 130 interrupted (SIGINT), 143 "
        "terminated (SIGTERM).",
    )
    add_engine_option(run, parse=True)
    run.add_argument("--edition", choices=EDITION_CHOICES, default=None,
                     help="Run the cases under this edition only, or all: both, also one the "
                     "engine does not declare (its cases then skip) (default: the editions "
                     "the engine declares)")
    run.add_argument("--rules", action="append", default=[], metavar="GLOB",
                     help="Only cases citing a rule matching GLOB, e.g. cr2004:101.* or 217.* "
                     "(repeatable)")
    run.add_argument("--case", action="append", default=[], metavar="GLOB", dest="case_ids",
                     help="Only the cases whose id matches GLOB, e.g. turn.* (repeatable)")
    run.add_argument("--cases", action="append", default=[], metavar="DIR", type=Path,
                     help="Another folder of case files, besides the bundled ones (repeatable)")
    run.add_argument("--no-bundled", action="store_true",
                     help="Run only the cases of the --cases folders, not the bundled ones")
    run.add_argument("--expectations", metavar="FILE", type=Path,
                     help="The engine's expectations file (known failures, strict)")
    run.add_argument("--case-timeout", metavar="SECONDS", type=settings.seconds,
                     default=None, help="Seconds a case may take before it is a timeout "
                     f"(default: {settings.DEFAULT_CASE_TIMEOUT:g}; 0: none)")
    run.add_argument("-n", "--jobs", dest="jobs", default=None, metavar="N", type=_jobs,
                     help="Worker processes (pytest-xdist): a number, or auto for one per CPU; "
                     "0 runs in this process (default: one per CPU if a few case runs, timed "
                     "first, say that the workers' start-up pays; else in this process)")
    run.add_argument("--out", metavar="DIR", type=Path, default=Path("conformance-results"),
                     help="Where to write results.json, results.jsonl and junit.xml "
                     "(default: ./conformance-results)")
    run.add_argument("--validate-protocol", action="store_true",
                     help="Check every message both ways against its JSON Schema; a violation "
                     "is an error of that case")
    run.add_argument("--max-restarts", metavar="N", type=settings.count, default=None,
                     help="Failed restarts of a crashed or hung engine in a row (it did not "
                     "start or answer hello) before its remaining cases are reported as not "
                     f"run (default: {settings.DEFAULT_MAX_RESTARTS})")
    run.add_argument("--repeat", metavar="N", type=settings.positive, default=1,
                     help="Run each case N times, each in a fresh game; a case whose runs end "
                     "differently is reported as flaky (default: 1)")
    run.add_argument("--min-run", metavar="N|P%", type=settings.MinRun.parse, default=None,
                     help="Exit 4 unless at least N case runs (or P%% of those selected) ran "
                     "rather than being skipped; without it, only a run in which nothing ran "
                     "exits 4")
    run.add_argument("--trace", nargs="?", const="unexpected", default=None,
                     choices=("unexpected", "all"),
                     help="Keep each case run's exchange with the engine (requests, responses, "
                     "stderr, timings) as JSON lines in traces/ under --out: of every "
                     "unexpected result (the default with --trace), or of all that ran")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="One line per case instead of a progress bar")
    run.add_argument("--no-report", action="store_true",
                     help="Write no HTML report (by default the run writes the report to "
                     "report/ and the suite's coverage to coverage.json, beside results.json)")
    run_selection.add_options(run)
    run.set_defaults(handler=_run)


def add_engine_option(parser: argparse.ArgumentParser, *, parse: bool = False) -> None:
    """The ``--engine`` option. With ``parse``, its value is the parsed ``EngineSpec`` (a bad
    one raises ``BadEngineSpec`` out of the command line's parsing: exit 2), carried from
    there to every use; without, its text (the commands that still parse it themselves)."""
    from conformance.transports import EngineSpec

    parser.add_argument(
        "--engine", default="reference", metavar="ENGINE",
        type=EngineSpec.parse if parse else str,
        help="The engine: reference (the bundled one, default), a named third-party engine "
        "(phase, python-mtg: installed with pip extras; or one a package names through the "
        "entry-point group mtgconf.engines), py:MODULE:CLASS (a Python engine in this "
        "process) or cmd:COMMAND (a process speaking the protocol on stdio)")


def _jobs(value: str) -> str:
    if value != "auto" and not value.isdigit():
        raise argparse.ArgumentTypeError(f"must be a number or auto, not {value!r}")
    return value


class Workers(NamedTuple):
    """What ``default_jobs`` chose: the ``-n`` value, the session to hand to the run, and the
    case runs the timing played (real runs: ``probe_faults`` judges them with the run)."""

    jobs: str
    session: Any
    probed: tuple[tuple[Any, str, Any], ...] = ()


def default_jobs(session: Any, cases: list[Any], editions: tuple[str, ...], runs: int, *,
                 start_up: float) -> Workers:
    """Worker processes when ``-n`` is not given (never slower than one process, as far as a
    few timed case runs tell: ``conformance.jobs``), and the session to hand to the run.
    ``start_up`` is what this process took to load the cases and start the engine, which
    every worker does again. A run in this process gets a fresh engine after the timing:
    its results must not depend on the games the timing played."""
    from conformance import jobs

    cpus = os.cpu_count() or 1
    if cpus < 2 or runs < FEW_RUNS:
        return Workers("0", session)
    probe = jobs.probe(session, cases, editions)
    if probe is None:
        return Workers("0", session)
    n = jobs.workers(cpus=cpus, runs=runs, seconds_per_run=probe.seconds_per_run,
                     start_up=jobs.WORKER_START + start_up)
    each = f"{probe.seconds_per_run * 1000:.3g} ms a case run, {runs} runs"
    print(f"workers: {n} ({each}; -n N to choose)" if n else
          f"workers: none, all in this process ({each}; -n N to choose)")
    if n:
        return Workers(str(n), session, probe.runs)  # the workers start their own engines
    session.close()
    return Workers("0", start_engine(session.spec, validate=session.validate), probe.runs)


def probe_faults(probed: tuple[tuple[Any, str, Any], ...], results: Any,
                 expectations: Any) -> list[str]:
    """The timing's case runs that ended unexpectedly in a way the run's own run of the case
    did not repeat (an engine that crashed once, in its first game): a fault of the engine
    all the same, reported and judged with the run. A probe's timeout is left out: the probe
    has a shorter time limit than the run's (``jobs.PROBE_TIMEOUT``)."""
    from conformance import outcomes as kinds

    ran = {(r.case_id, r.edition): r.status for r in results.records}
    found = []
    for case, edition, outcome in probed:
        expectation = expectations.lookup(case.id, edition) if expectations is not None \
            else None
        result = kinds.apply(outcome, expectation)
        if result.status == "timeout" or not kinds.is_unexpected(result):
            continue
        again = ran.get((case.id, edition))
        if again == result.status:
            continue  # reported with the run's own results
        found.append(f"[{result.status}] {edition}::{case.id} during the timing of a few case "
                     f"runs (to choose the workers): {result.message}; the run's own run of "
                     f"it: {again or 'not run'}")
    return found


def start_engine(engine: EngineSpec | str, *, validate: bool = False) -> Any:
    """Start an engine and shake hands; returns the started session. A text is parsed first
    (the commands whose ``--engine`` is text).

    :raises BadEngineSpec: (exit 2) :raises SetupError: (exit 3)
    """
    from conformance.session import EngineSession
    from conformance.transports import EngineSpec

    spec = EngineSpec.parse(engine) if isinstance(engine, str) else engine
    session = EngineSession(spec, validate=validate)
    session.start()
    return session


def settings_of(args: argparse.Namespace) -> settings.Settings:
    """The run's settings from the command line: the object the plugin in this process uses
    (its ``--mtg-*`` options, ``Settings.pytest_args``, are for the xdist workers)."""
    out: Path = args.out.resolve()
    return settings.Settings(
        engines=(args.engine,),
        editions=settings.EDITIONS if args.edition in ("all", None) else (args.edition,),
        engine_editions=args.edition is None,
        rules=tuple(args.rules),
        case_ids=tuple(args.case_ids),
        case_dirs=(*(() if args.no_bundled else (settings.BUNDLED_CASES,)),
                   *(d.resolve() for d in args.cases)),
        expectations=args.expectations.resolve() if args.expectations else None,
        case_timeout=settings.DEFAULT_CASE_TIMEOUT if args.case_timeout is None
        else (args.case_timeout or None),
        results=out / "results.json",
        junit=out / "junit.xml",
        validate=args.validate_protocol,
        max_restarts=settings.DEFAULT_MAX_RESTARTS if args.max_restarts is None
        else args.max_restarts,
        repeat=args.repeat,
        min_run=args.min_run,
        trace=args.trace,
    )


def _run(args: argparse.Namespace) -> int:
    import pytest

    from conformance.expectations import Expectations
    from conformance.lint import load_checked
    from conformance.plugin import RunContext
    from conformance.slowcases import SlowCases
    from conformance.xdiststatus import XdistStatusOnce

    if args.no_bundled and not args.cases:
        raise UsageError("--no-bundled needs at least one --cases folder")
    run = run_selection.narrowed(settings_of(args), args, args.out)
    problems = run.problems()
    if problems:
        raise UsageError("; ".join(problems))
    began = time.perf_counter()
    cases = load_checked(run.case_dirs)
    cases.raise_for_problems()
    loading = time.perf_counter() - began
    expectations = Expectations.load(run.expectations, cases.ids) \
        if run.expectations is not None else None
    if not _selected(cases.cases, run):
        raise UsageError("no case matches --rules/--case/--edition "
                         f"({', '.join([*run.rules, *run.case_ids]) or 'any case'}, "
                         f"{args.edition or 'all'})"
                         + run_selection.no_case_hint(run.case_ids, cases.ids))

    began = time.perf_counter()
    session = start_engine(args.engine, validate=run.validate)
    starting = time.perf_counter() - began
    info = session.info
    print(f"engine: {info.name} {info.version} (protocol {info.protocol}); editions "
          f"{', '.join(info.editions)}; {len(info.capabilities)} capabilities; "
          f"{len(info.cards)} cards")
    run = run.for_engines([info])
    selected = _selected(cases.cases, run)
    if not selected:
        session.close()
        print(f"mtgconf: nothing to test: no selected case runs under the editions "
              f"{args.engine.text} declares ({', '.join(run.editions)}); --edition all runs "
              f"the others' cases (as skips)", file=sys.stderr)
        return ExitCode.UNTESTED
    runs = sum(run.runs(c.id, e) for c in selected for e in c.editions)
    print(f"cases: {len(selected)} selected of {len(cases.cases)} ({runs} case runs); "
          f"editions {', '.join(run.editions)}")
    for problem in info.unknown():
        print(f"warning: {args.engine.text} declared {problem}: the harness does not know it",
              file=sys.stderr)
    if args.list_only:
        from conformance.resultsfile import shown_path

        session.close()
        print("\n".join(run_selection.listing(selected, run, info, shown_path)))
        return ExitCode.OK
    sys.stdout.flush()

    jobs: str | None = args.jobs
    probed: tuple[tuple[Any, str, Any], ...] = ()
    if jobs is None:
        jobs, session, probed = default_jobs(session, selected, run.editions,
                                             runs * args.repeat, start_up=loading + starting)
    sys.stdout.flush()
    argv = [
        *(str(d) for d in run.case_dirs),
        "-c", str(RUN_INI), f"--rootdir={CONFORMANCE_DIR}", "-p", "no:cacheprovider",
        "--no-header", "--no-summary", "-rN", "--assert=plain", "-p", "no:hypothesispytest",
        "-v" if args.verbose else "-q",
        *run.pytest_args(), *run_selection.exit_first(args),
    ]
    if jobs != "0":
        argv += ["-n", jobs]
    # The plugin in this process takes these objects as they are; the workers read the
    # settings back from argv and load the cases and expectations, once each.
    context = RunContext(settings=run, cases=cases, expectations=expectations,
                         sessions={args.engine.text: session})
    try:
        code = pytest.main(argv, plugins=[context, SlowCases(case_timeout=run.case_timeout),
                                          XdistStatusOnce()])
    finally:
        session.close()  # if the plugin did not take it over
    if context.engine_failure is not None:
        print(f"mtgconf: {context.engine_failure.render()}", file=sys.stderr)
        return ExitCode.ENGINE
    if context.results is None:
        if code == pytest.ExitCode.INTERRUPTED:
            print("mtgconf: interrupted before any case ran", file=sys.stderr)
            return ExitCode.TERMINATED if context.interrupted_by == "SIGTERM" \
                else ExitCode.INTERRUPTED
        print(f"mtgconf: internal error: the run did not complete (pytest exit status "
              f"{int(code)}); this is a bug of mtg-conformance", file=sys.stderr)
        return ExitCode.HARNESS
    code = summarise(context.results, run)
    faults = probe_faults(probed, context.results, expectations)
    for fault in faults:
        print(f"mtgconf: {fault}", file=sys.stderr)
    if faults and code in (ExitCode.OK, ExitCode.UNTESTED):
        code = ExitCode.UNEXPECTED
    if context.interrupted_by is not None:
        # A signal asks for a prompt stop (a CI job limit sends SIGTERM, then SIGKILL): the
        # results are written; the report, the slow part, can be written from them later.
        if not args.no_report:
            results = _results_file(run)
            print(f"report:  not written (interrupted); write it with: mtgconf report "
                  f"{results} -o {results.with_name('report')}", file=sys.stderr)
    elif not args.no_report:
        write_report(cases.cases, run)
    return code


def _selected(cases: Any, run: settings.Settings) -> list[Any]:
    return [c for c in cases if set(c.editions) & set(run.editions)
            and run.selects(c.id, c.rules)]


def write_report(cases: Any, run: settings.Settings) -> None:
    """Beside results.json: coverage.json (the suite's coverage, with each case's quotes) and
    the HTML report (``reports``, built from those two files alone); print where it is."""
    import reports
    from conformance import atomic
    from mtgconf.commands.report import publish_summary

    results = _results_file(run)
    coverage = results.with_name(reports.COVERAGE_FILE)
    atomic.write_json(coverage, coverage_document(cases))
    try:
        written = reports.build([results], results.with_name("report"), coverage=coverage)
    except reports.OutputError as exc:
        print(f"mtgconf: warning: no report written: {exc}", file=sys.stderr)
        return
    publish_summary(written.markdown)
    print(f"report:  {written.index}")


def _results_file(run: settings.Settings) -> Path:
    """Where the run writes results.json (``settings_of`` always says)."""
    if run.results is None:
        raise ValueError("the run's settings name no results file")
    return run.results


def coverage_document(cases: Any) -> dict[str, Any]:
    """What ``mtgconf coverage --json`` prints, plus ``cases``: each case (by the id its
    results carry) with its summary, file, line, and per rule its quote (a seed rule) or key
    terms (a rule outside the seeds) and what it catches."""
    from conformance.citation import citations_of
    from conformance.coverage import Coverage

    document = Coverage.of(cases).to_json()
    document["cases"] = {
        case.id: {"base_id": case.base_id, "summary": case.summary, "file": str(case.file),
                  "line": case.line, "editions": list(case.editions),
                  "rules": list(case.rules), **citations_of(case),
                  "catches": {ref: case.catches_for(ref) for ref in case.rules
                              if case.catches_for(ref)},
                  "steps": [_step_entry(step) for step in case.steps]}
        for case in cases}
    return document


def _step_entry(step: Any) -> dict[str, Any]:
    """A case's step as a failure page lists it: what it does, as written."""
    import json

    value = json.loads(json.dumps(step.value, ensure_ascii=False, default=str))
    return {"index": step.index, "kind": step.kind, "text": step.describe(),
            "line": step.line, "value": value}


def summarise(results: Any, run: settings.Settings) -> int:
    """Print what went wrong (each with the command that reruns it), what blocked the
    skipped cases, the results per section and the verdict; the run's exit status."""
    from conformance.symptoms import group
    from conformance.verdict import blocker_counts, judge
    from spec.corpus import Corpus

    print()
    unexpected = results.unexpected
    if unexpected:
        groups = group(unexpected)
        print(f"Unexpected results ({len(unexpected)}), by symptom, the largest group first "
              f"({len(groups)} group{'s' * (len(groups) != 1)}):")
        for found in groups:
            print(f"  {len(found)} × {found.symptom.text}")
            print(f"    rules cited: {', '.join(found.rules)}")
            for record in found.records:
                _print_unexpected(record, results.options, _results_file(run).parent)
        print()
    blocked = blocker_counts(results)
    if blocked:
        skipped = results.counts.get("skip", 0)
        print(f"Skipped ({skipped} case runs), by what the engine lacks (a case run may "
              f"lack several):")
        for blocker, n in blocked.most_common(SKIPS_SHOWN):
            print(f"  {n:>4}  {blocker}")
        if len(blocked) > SKIPS_SHOWN:
            print(f"        and {len(blocked) - SKIPS_SHOWN} more (every skip's reason is in "
                  f"{run.results})")
        print()
    rows = results.sections(Corpus.load())
    if rows:
        print("By section:")
        width = min(max(len(r["title"]) for r in rows), 50)
        for row in rows:
            counts = ", ".join(f"{n} {status}" for status, n in row["counts"].items())
            print(f"  {row['edition']:<7}{row['section']:<5}{row['title'][:50]:<{width}}  "
                  f"{counts}")
        print()
    verdict = judge(results, run.min_run)
    counts = ", ".join(f"{n} {status}" for status, n in results.counts.items())
    state = f"{len(unexpected)} unexpected" if unexpected else "all as expected"
    print(f"{len(results.records)} results: {counts or 'none'} ({state})")
    for reason in verdict.reasons:
        print(f"mtgconf: {reason}", file=sys.stderr)
    print(f"results: {run.results}\njunit:   {run.junit}")
    return verdict.code


def _print_unexpected(record: Any, options: Any, out: Path) -> None:
    """One unexpected result: where, the rules it cites, how to rerun it, its trace."""
    from conformance.resultsfile import from_here, rerun_command, shown_path

    where = f" ({shown_path(record.file)}:{record.line})" if record.file else ""
    print(f"    [{record.status}] {record.edition}::{record.case_id}{where}: {record.message}")
    print(f"        rules: {', '.join(record.rules)}")
    print(f"        rerun: {rerun_command(record, options, from_here(out))}")
    if "trace" in record.detail:
        print(f"        trace: {from_here(out / record.detail['trace'])}")

