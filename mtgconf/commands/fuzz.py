"""``mtgconf fuzz``: Hypothesis plays games against an engine and checks rule-tagged invariants
after every step (fuzz/). Failures shrink to small games, written as case files that replay."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from conformance import atomic
from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from mtgconf.commands.run import add_engine_option
from spec.editions import EDITIONS


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    from fuzz.campaign import PROFILES

    profiles = "; ".join(f"{p.name}: {p.description}" for p in PROFILES.values())
    fuzz = commands.add_parser(
        "fuzz", help="Fuzz an engine: random games, rule-tagged invariants, shrunk failures",
        description="Plays games drawn by Hypothesis against the engine (mostly legal actions, "
        "some the rules forbid), checks every invariant after every step, and with --against "
        "compares the engine with another one step by step. Each failure shrinks to a small "
        "game, written as a case file under OUT/cases/ (replay it with `mtgconf fuzz replay`), "
        "and the run writes OUT/fuzz-EDITION.json for `mtgconf report --fuzz`. Exit status: 0 "
        "nothing found, 1 findings, 2 bad input, 3 the engine could not be started, 4 the "
        f"engine cannot be fuzzed (it lacks setup.start or actions.legal). Profiles: {profiles}.")
    add_engine_option(fuzz)
    fuzz.add_argument("--against", metavar="ENGINE",
                      help="Differential: play the same games on this engine too (e.g. "
                      "reference) and report the first difference")
    fuzz.add_argument("--edition", choices=tuple(EDITIONS), action="append", default=[],
                      help="Fuzz this edition (repeatable; default: each the engine declares)")
    fuzz.add_argument("--profile", choices=sorted(PROFILES), default="dev",
                      help="How hard to look (default: dev)")
    fuzz.add_argument("--budget", type=float, metavar="SECONDS",
                      help="Seconds per edition (default: the profile's)")
    fuzz.add_argument("--seed", type=int,
                      help="The campaign's seed (default: 0 for the ci profile, else random): "
                      "the same seed, budget in rounds and engine give the same games")
    fuzz.add_argument("-n", "--jobs", type=int, default=1, metavar="K",
                      help="Processes per edition, each with its own seed (default: 1)")
    fuzz.add_argument("--out", type=Path, default=Path("fuzz-results"), metavar="DIR",
                      help="Where results and case files go (default: fuzz-results)")
    fuzz.add_argument("--database", metavar="WHERE",
                      help="Hypothesis's example database: a directory (default "
                      ".hypothesis/fuzz), a shared directory, redis://HOST:PORT, or none")
    fuzz.add_argument("--rules", action="append", default=[], metavar="GLOB",
                      help="Build decks mostly from the cards that serve these rules "
                      "(spec/card_rules.yaml), e.g. 'cr2004:212.4*' (repeatable)")
    fuzz.add_argument("--invariant", action="append", default=[], metavar="ID",
                      help="Check only this invariant (repeatable; see mtgconf fuzz list)")
    fuzz.add_argument("--shrink-seconds", type=float, metavar="S",
                      help="Seconds spent shrinking each failure (default: the profile's)")
    fuzz.add_argument("--quiet", action="store_true", help="No progress lines")
    fuzz.set_defaults(handler=_fuzz)
    sub = fuzz.add_subparsers(dest="fuzz_command", metavar="SUBCOMMAND", title="subcommands",
                              parser_class=type(fuzz))

    listing = sub.add_parser("list", help="The invariants and the rules each checks")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=_list)

    replay = sub.add_parser(
        "replay", help="Replay a case file the fuzzer wrote (or any case file)",
        description="Runs each case of FILE once through the harness (its verdict), with "
        "every invariant watching its game, whatever its setup. Exit status 0: it passes now; "
        "1: the engine still breaks it.")
    replay.add_argument("file", type=Path)
    add_engine_option(replay)
    replay.set_defaults(handler=_replay)


def _list(args: argparse.Namespace) -> int:
    from fuzz.invariants import INVARIANTS

    if args.json:
        print(json.dumps([{"id": i.id, "rules": list(i.rules), "description": i.description,
                           "needs": sorted(i.needs), "editions": list(i.editions)}
                          for i in INVARIANTS.values()], indent=2))
        return ExitCode.OK
    for item in INVARIANTS.values():
        rules = " ".join(item.rules) or "(protocol)"
        print(f"{item.id:36} {rules}")
        print(f"    {item.description}")
    tagged = sum(1 for i in INVARIANTS.values() if i.rules)
    print(f"\n{len(INVARIANTS)} invariants, {tagged} tagged with the rules they check")
    return ExitCode.OK


def _fuzz(args: argparse.Namespace) -> int:
    from conformance.transports import EngineSpec
    from fuzz.campaign import PROFILES, run_campaigns
    from fuzz.engines import FuzzEngines
    from fuzz.machine import FuzzConfig, check_config, invariants_named
    from mtgconf.commands.run import start_engine

    EngineSpec.parse(args.engine)
    if args.against:
        EngineSpec.parse(args.against)
    if args.jobs < 1:
        raise UsageError("-n must be at least 1")
    for name in ("budget", "shrink_seconds"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be a positive number of seconds")
    try:
        chosen = invariants_named(args.invariant) if args.invariant else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    profile = PROFILES[args.profile]
    session = start_engine(args.engine)  # a clear error (exit 3) if it cannot start
    with FuzzEngines() as engines:
        # The engine started once: the declaration checked and the games played on it.
        engines.adopt(args.engine, session)
        info = session.info
        editions = args.edition or [e for e in EDITIONS if e in info.editions]
        seed_value = args.seed if args.seed is not None else (
            0 if profile.derandomize else int(time.time()) % 1_000_000)
        configs = [FuzzConfig(args.engine, edition, against=args.against, invariants=chosen,
                              rules=tuple(args.rules))
                   for edition in editions]
        try:
            for config in configs:
                check_config(config, engines)
        except ValueError as exc:
            print(f"mtgconf: {exc}", file=sys.stderr)
            return ExitCode.UNTESTED
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--out {args.out}: cannot create it: {exc.strerror}") from None
        print(f"fuzz: {info.name} {info.version}, {', '.join(editions)}, profile "
              f"{profile.name}, seed {seed_value}"
              + (f", against {args.against}" if args.against else ""), file=sys.stderr)
        try:
            results = run_campaigns(configs, profile, budget=args.budget,
                                    seed_value=seed_value, database=args.database,
                                    out=args.out, jobs=args.jobs, progress=not args.quiet,
                                    shrink_seconds=args.shrink_seconds, engines=engines)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    found = 0
    for result in results:
        path = args.out / f"fuzz-{result['edition']}.json"
        atomic.write_text(path, json.dumps(result, indent=2) + "\n")
        findings = result["findings"]
        found += len(findings)
        rate = result["steps"] / result["seconds"] if result["seconds"] else 0
        print(f"{result['edition']}: {result['examples']} games, {result['steps']} steps in "
              f"{result['seconds']:.1f} s ({rate:.0f} steps/s), "
              f"{len(findings)} finding(s); results: {path}")
        for finding in findings:
            rules = ", ".join(finding["rules"]) or "protocol"
            print(f"  {finding['invariant']} ({rules}): {finding['message']}")
            if finding["case_file"]:
                print(f"    shrunk to {finding['steps']} steps: {finding['case_file']}")
    return ExitCode.UNEXPECTED if found else ExitCode.OK


def _replay(args: argparse.Namespace) -> int:
    from conformance import casefile
    from fuzz.replay import replay, rules_for
    from mtgconf.commands.run import start_engine

    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file")
    cases, problems = casefile.load_file(args.file)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        from conformance.errors import InputError

        raise InputError(tuple(errors))
    session = start_engine(args.engine)
    broken = 0
    try:
        for case in cases:
            for edition in case.editions:
                replayed = replay(case, edition, session)
                line = f"{case.id} [{edition}]: {replayed.verdict}"
                if replayed.message:
                    line += f": {replayed.message}"
                print(line)
                for violation in replayed.violations:
                    rules = ", ".join(rules_for(violation, edition, replayed.action))
                    print(f"  invariant broken: {violation.invariant} ({rules}): "
                          f"{violation.message}")
                broken += replayed.broken
    finally:
        session.close()
    return ExitCode.UNEXPECTED if broken else ExitCode.OK
