"""A fuzz campaign: rounds of the Hypothesis state machine until a time budget is spent.

Each round runs a few examples (games) with a seed of its own, so a campaign stops close to
its budget, and a campaign with the same seed and budget in examples runs the same games.
When an invariant breaks, Hypothesis shrinks the game; the campaign keeps the smallest game
per invariant, writes it as a case file, leaves that invariant out of the next rounds and goes
on looking for other bugs. ``-n K`` runs K such campaigns in processes of their own, with
seeds apart, and merges what they found.

The example database (Hypothesis's own) makes a campaign start with the games that failed
before: a local directory by default, a directory shared by several machines, or Redis.

A campaign plays on the engines it is given (``fuzz.engines.FuzzEngines``, owned by its
caller), or on its own, started when it runs and closed when it ends.

Hypothesis has no setting for two things a campaign needs (a bound on the time spent
shrinking, draws that ignore the constants of the modules imported), so the campaign sets
private attributes of Hypothesis for the duration of a round: ``HYPOTHESIS_PRIVATES`` lists
them, a campaign fails with ``HypothesisMoved`` (naming the attribute) if one is missing, and
``tests/test_fuzz.py`` fails on the installed Hypothesis if one moved.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Verbosity, seed, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.errors import Flaky
from hypothesis.stateful import run_state_machine_as_test

from conformance.protocol import EngineInfo
from fuzz.engines import FuzzEngines
from fuzz.invariants import INVARIANTS
from fuzz.machine import (
    DIFFERENTIAL,
    ENGINE_ERROR,
    PSEUDO_INVARIANTS,
    Failure,
    Finding,
    Findings,
    FuzzConfig,
    check_config,
    fuzz_machine,
)
from fuzz.replay import NO_CASE, case_from, cited, write_case

FORMAT = "mtg-conformance fuzz"
VERSION = 1


@dataclass(frozen=True)
class Profile:
    """How hard to look: seconds per edition, games per round, steps per game."""

    name: str
    budget: float
    #: rounds per edition when set (a fixed amount of work, the same on a fast or slow
    #: machine); else rounds until the budget is spent
    rounds: int | None
    examples_per_round: int
    steps: int
    derandomize: bool  # the same games every run (CI), whatever the seed
    description: str
    #: seconds Hypothesis may spend shrinking one failure (its own limit is 300: a game
    #: replayed thousands of times)
    shrink_seconds: float = 30.0


PROFILES = {
    "ci": Profile("ci", 60.0, 4, 10, 120, True,
                  "short and deterministic: the same games on every run", 20.0),
    "dev": Profile("dev", 60.0, None, 5, 200, False,
                   "a minute per edition, new games each run, failures remembered"),
    "deep": Profile("deep", 600.0, None, 10, 400, False,
                    "ten minutes per edition, longer games", 120.0),
}


@dataclass
class Campaign:
    config: FuzzConfig
    profile: Profile
    budget: float
    seed: int
    rounds_wanted: int | None = None  # stop after this many rounds (or the budget)
    database: str | None = None  # a directory, "redis://host:port", "none"; None: default
    out: Path | None = None
    progress: Callable[[str], None] | None = None
    findings: Findings = field(default_factory=Findings)
    #: the engines to play on (the caller's, not closed here); None: the campaign's own
    engines: FuzzEngines | None = None
    rounds: int = 0
    seconds: float = 0.0
    started: str = ""
    #: what the engine declared, once the campaign has run
    info: EngineInfo | None = None
    #: per finding, what its case does on the engine and on the reference engine
    #: (``_check_cases``): kind confirmed, deviation, unconfirmed, unwritable or unchecked
    checked_cases: dict[str, dict[str, Any]] = field(default_factory=dict)

    def run(self) -> Findings:
        """Play rounds until the budget (or the rounds wanted) is spent; the findings."""
        if self.engines is not None:
            return self._run(self.engines)
        with FuzzEngines() as engines:
            return self._run(engines)

    def _run(self, engines: FuzzEngines) -> Findings:
        self.started = datetime.now(UTC).isoformat(timespec="seconds")
        self.info = check_config(self.config, engines)
        begin = time.monotonic()
        found: set[str] = set()
        last_report = begin
        database = open_database(self.database)
        while time.monotonic() - begin < self.budget and (
                self.rounds_wanted is None or self.rounds < self.rounds_wanted):
            # The differential is found one part of the game at a time (a difference in the
            # listed mana abilities at the first step hides no difference elsewhere).
            remaining = tuple(i for i in (*INVARIANTS, *PSEUDO_INVARIANTS) if i not in found)
            if self.config.invariants is not None:
                remaining = tuple(i for i in remaining if i in self.config.invariants)
            parts = tuple(sorted(k.split(" ", 1)[1] for k in found
                                 if k.startswith(f"{DIFFERENTIAL} ")))
            config = replace(self.config, invariants=remaining, known_differences=parts)
            machine = fuzz_machine(config, engines, self.findings)
            round_seed = self.seed * 1_000_003 + self.rounds
            machine = seed(round_seed)(machine)
            chosen = settings(
                max_examples=self.profile.examples_per_round,
                stateful_step_count=self.profile.steps, deadline=None, derandomize=False,
                database=database, verbosity=Verbosity.quiet,
                suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
            try:
                with shrinking_bounded(self.profile.shrink_seconds), own_randomness():
                    run_state_machine_as_test(machine, settings=chosen)
            except Failure:
                pass
            except Flaky as exc:
                # A game that failed once and not when replayed: the engine is not
                # deterministic. That is a finding in itself.
                self._note_flaky(str(exc))
            # Every invariant broken so far is left out of the next rounds, and only those:
            # the others go on being checked (one broken at the first step of every game
            # must not hide the rest).
            found |= set(self.findings.by_key)
            self.rounds += 1
            crash = self.findings.by_key.get(ENGINE_ERROR)
            if crash is not None and not crash.trace.steps:
                break  # an engine that fails as a game starts would fail every game
            now = time.monotonic()
            if self.progress is not None and now - last_report >= 10:
                last_report = now
                self.progress(self.status(now - begin))
        self.seconds = time.monotonic() - begin
        self._check_cases(engines)
        return self.findings

    def _check_cases(self, engines: FuzzEngines) -> None:
        """Run each finding's case, as it will be written, on the engine that broke it and on
        the reference engine, before anyone reads it: a case that fails on the reference
        engine too is a deviation of the two engines (or of the case), not a confirmation of
        the invariant; one that passes on the engine says its last ``expect`` does not catch
        the bug (the invariant's watch does, in ``mtgconf fuzz replay``)."""
        import tempfile

        from conformance.casefile import load_file
        from conformance.errors import SetupError
        from fuzz.replay import replay

        for key, finding in self.findings.by_key.items():
            if not finding.trace.setup or not self.info:
                continue
            case = case_from(finding.violation, finding.trace, self.info.name)
            if case is None:
                self.checked_cases[key] = {"kind": "no case", "problems": [NO_CASE]}
                continue
            with tempfile.TemporaryDirectory() as folder:
                cases, problems = load_file(write_case(case, Path(folder) / "case.yaml"))
            if problems or not cases:
                self.checked_cases[key] = {"kind": "unwritable", "problems": [
                    p.message for p in problems]}
                continue
            edition = finding.trace.edition
            try:
                mine = replay(cases[0], edition, engines.session(self.config.engine))
                theirs = replay(cases[0], edition, engines.session("reference", "against"))
            except SetupError as exc:  # an engine that will not start: the finding stays
                self.checked_cases[key] = {"kind": "unchecked",
                                           "problems": [f"{type(exc).__name__}: {exc}"]}
                continue
            kind = ("deviation" if theirs.broken else
                    "confirmed" if mine.broken else "unconfirmed")
            self.checked_cases[key] = {
                "kind": kind,
                "engine": {"verdict": mine.verdict, "message": mine.message,
                           "invariants": [v.invariant for v in mine.violations]},
                "reference": {"verdict": theirs.verdict, "message": theirs.message,
                              "invariants": [v.invariant for v in theirs.violations]},
            }

    def _note_flaky(self, message: str) -> None:
        from fuzz.invariants import Violation
        from fuzz.play import Trace

        key = "same-game-same-trace"
        if key not in self.findings.by_key:
            self.findings.by_key[key] = Finding(
                Violation(key, (), f"a game failed once and passed when replayed: {message}"),
                Trace(self.config.edition, {}), 0)

    def status(self, elapsed: float) -> str:
        return (f"fuzz {self.config.engine} {self.config.edition}: {elapsed:.0f} s, "
                f"{self.findings.games} games, {self.findings.steps} steps, "
                f"{len(self.findings.by_key)} finding(s)")

    # ---- results ----

    def results(self) -> dict[str, Any]:
        """The campaign's results file (``fuzz-EDITION.json``), its case files written
        under ``out``; once it has run."""
        info = self.info
        if info is None:
            raise RuntimeError("Campaign.results() before the campaign has run")
        records = []
        for key, finding in sorted(self.findings.by_key.items()):
            case = case_from(finding.violation, finding.trace, info.name) \
                if finding.trace.setup else None
            case_file = None
            if case is not None and self.out is not None:
                path = self.out / "cases" / f"{case['id']}.yaml"
                write_case(case, path, header=_header(self, finding))
                case_file = str(path)
            records.append({
                "invariant": finding.violation.invariant,
                "rules": cited(finding.violation, finding.trace),
                "message": finding.violation.message,
                "steps": finding.steps,
                "case_file": case_file,
                "case": case,
                "trace": [json.dumps(s.action, sort_keys=True) for s in finding.trace.steps],
                **({"checked": self.checked_cases[key]} if key in self.checked_cases else {}),
            })
        return {
            "format": FORMAT,
            "version": VERSION,
            "engine": {"name": info.name, "version": info.version},
            "against": self.config.against,
            "edition": self.config.edition,
            "profile": self.profile.name,
            "seed": self.seed,
            "started": self.started,
            "seconds": round(self.seconds, 2),
            "examples": self.findings.games,
            "steps": self.findings.steps,
            "invariants": [{"id": i.id, "rules": list(i.rules),
                            "checked": self.findings.checked.get(i.id, 0)}
                           for i in INVARIANTS.values()],
            "findings": records,
        }


def _header(campaign: Campaign, finding: Finding) -> str:
    config = campaign.config
    against = f" --against {config.against}" if config.against else ""
    rules = ", ".join(cited(finding.violation, finding.trace))
    checked = campaign.checked_cases.get(finding.violation.key, {})
    note = ""
    if checked.get("kind") == "deviation":
        reference = checked["reference"]
        why = reference["message"] or ", ".join(reference["invariants"])
        note = (f"DEVIATION, not a confirmation: the reference engine breaks this case too "
                f"({reference['verdict']}: {why})\n")
    elif checked.get("kind") == "unconfirmed":
        note = ("UNCONFIRMED: the case passes on the engine that broke the invariant (the game "
                "does not repeat the finding)\n")
    if finding.violation.unchecked:
        note += (f"NO EXPECT: the case passes on the engine that broke the invariant "
                 f"({finding.violation.unchecked}); mtgconf fuzz replay, which watches the "
                 "invariant, fails it\n")
    return note + (f"Found by: mtgconf fuzz --engine {config.engine!r}{against} --edition "
            f"{config.edition} --profile {campaign.profile.name} --seed {campaign.seed}\n"
            f"Broken: {finding.violation.invariant} ({rules}): {finding.violation.message}\n"
            f"Replay: mtgconf fuzz replay THIS_FILE --engine {config.engine!r}\n"
            "To promote it into conformance/cases/: read it, give it a meaningful id and "
            "summary,\ncheck the quote, and list it in the engine's expectations file if the "
            "engine keeps failing it.")


#: the private attributes of Hypothesis a campaign sets, as (module, attribute): Hypothesis
#: offers no setting for them
HYPOTHESIS_PRIVATES = (
    # the time one failure may be shrunk (a module constant, 300 s)
    ("hypothesis.internal.conjecture.engine", "MAX_SHRINKING_SECONDS"),
    # the constants of the modules imported so far, mixed into the draws
    ("hypothesis.internal.conjecture.providers", "_get_local_constants"),
    ("hypothesis.internal.conjecture.providers", "CONSTANTS_CACHE"),
    ("hypothesis.internal.constants_ast", "Constants"),
    # a seed forced on the whole process (--hypothesis-seed, pytest-xdist's workers)
    ("hypothesis.core", "global_force_seed"),
)


class HypothesisMoved(RuntimeError):
    """A private attribute of Hypothesis the campaign sets is gone from the installed
    version: the campaign would silently shrink without bound or draw other games."""

    def __init__(self, module: str, name: str) -> None:
        import hypothesis

        super().__init__(
            f"fuzz.campaign sets {module}.{name}, which Hypothesis {hypothesis.__version__} "
            "no longer has: install the Hypothesis version pyproject.toml was tested with, "
            "or update fuzz.campaign.HYPOTHESIS_PRIVATES and the code that sets it")


def hypothesis_private(module: str, name: str) -> Any:
    """The module holding one of ``HYPOTHESIS_PRIVATES``, checked to hold it.

    :raises HypothesisMoved: the module or the attribute is gone.
    """
    import importlib

    if (module, name) not in HYPOTHESIS_PRIVATES:
        raise ValueError(f"{module}.{name} is not listed in HYPOTHESIS_PRIVATES")
    try:
        holder = importlib.import_module(module)
    except ImportError:
        raise HypothesisMoved(module, name) from None
    if not hasattr(holder, name):
        raise HypothesisMoved(module, name)
    return holder


@contextlib.contextmanager
def shrinking_bounded(seconds: float) -> Iterator[None]:
    """Bound the time Hypothesis spends shrinking one failure, for the duration of a round.

    :raises HypothesisMoved: the module constant moved.
    """
    engine = hypothesis_private("hypothesis.internal.conjecture.engine",
                                "MAX_SHRINKING_SECONDS")
    old = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = seconds
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = old


@contextlib.contextmanager
def own_randomness() -> Iterator[None]:
    """The games depend on the round's seed alone. Hypothesis mixes into its draws
    constants it finds in the project's modules imported so far, so the games would depend on
    what else the process imported (a test run before, a literal edited anywhere); the
    fuzzer's draws are indices, which no constant helps: off.

    :raises HypothesisMoved: one of the attributes this sets moved.
    """
    providers = hypothesis_private("hypothesis.internal.conjecture.providers",
                                   "_get_local_constants")
    hypothesis_private("hypothesis.internal.conjecture.providers", "CONSTANTS_CACHE")
    constants = hypothesis_private("hypothesis.internal.constants_ast", "Constants")
    core = hypothesis_private("hypothesis.core", "global_force_seed")
    old, cache = providers._get_local_constants, providers.CONSTANTS_CACHE
    # The campaign seeds each round itself: a seed forced on the whole process (pytest's
    # --hypothesis-seed, or pytest-xdist's workers) would also turn the example database off.
    forced = core.global_force_seed
    core.global_force_seed = None
    providers._get_local_constants = constants.Constants
    providers.CONSTANTS_CACHE = type(cache)(cache.max_size)
    try:
        yield
    finally:
        providers._get_local_constants = old
        providers.CONSTANTS_CACHE = cache
        core.global_force_seed = forced


def open_database(spec: str | None) -> ExampleDatabase | None:
    """The example database: ``none``; ``redis://host:port[/db]`` (Hypothesis's Redis
    database, needs the ``redis`` package); a directory (default ``.hypothesis/fuzz``)."""
    if spec == "none":
        return None
    if spec is not None and spec.startswith("redis://"):
        try:
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        except ImportError:
            raise ValueError("a Redis example database needs the redis package: pip install "
                             "'mtg-conformance[redis]'") from None
        try:
            client = redis.Redis.from_url(spec, socket_connect_timeout=5)
            client.ping()
        except (ValueError, redis.RedisError) as exc:
            raise ValueError(f"--database {spec}: no Redis there ({exc})") from None
        return RedisExampleDatabase(client, key_prefix=b"mtgconf-fuzz:")
    return DirectoryBasedExampleDatabase(spec or Path(".hypothesis") / "fuzz")


def run_campaigns(configs: list[FuzzConfig], profile: Profile, *, budget: float | None,
                  seed_value: int, database: str | None, out: Path | None, jobs: int = 1,
                  progress: bool = False, shrink_seconds: float | None = None,
                  engines: FuzzEngines | None = None) -> list[dict[str, Any]]:
    """One campaign per config (edition), each in ``jobs`` processes; the results files.
    ``engines``: the caller's, played on in this process (``jobs`` 1); a process of its own
    starts its own engines."""
    if shrink_seconds is not None:
        profile = replace(profile, shrink_seconds=shrink_seconds)
    results = []
    for config in configs:
        if jobs <= 1:
            campaign = Campaign(config, profile, budget or profile.budget, seed_value,
                                None if budget else profile.rounds, database, out,
                                _printer if progress else None, engines=engines)
            campaign.run()
            results.append(campaign.results())
        else:
            results.append(_parallel(config, profile, budget, seed_value, database, out, jobs,
                                     progress))
    return results


def _printer(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _worker(args: tuple[Any, ...]) -> dict[str, Any]:
    config, profile, budget, seed_value, database, out, progress = args
    campaign = Campaign(config, profile, budget or profile.budget, seed_value,
                        None if budget else profile.rounds, database, out,
                        _printer if progress else None)
    with contextlib.suppress(KeyboardInterrupt):
        campaign.run()
    return campaign.results()


def _parallel(config: FuzzConfig, profile: Profile, budget: float | None, seed_value: int,
              database: str | None, out: Path | None, jobs: int, progress: bool
              ) -> dict[str, Any]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    work = [(config, profile, budget, seed_value + 7919 * k, database, out, progress)
            for k in range(jobs)]
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        parts = list(pool.map(_worker, work))
    return merge(parts)


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Results of several processes of one campaign as one: counts added, the smallest
    finding kept per invariant."""
    merged = dict(parts[0])
    merged["seconds"] = max(p["seconds"] for p in parts)
    merged["examples"] = sum(p["examples"] for p in parts)
    merged["steps"] = sum(p["steps"] for p in parts)
    checked: Counter[str] = Counter()
    for part in parts:
        for item in part["invariants"]:
            checked[item["id"]] += item["checked"]
    merged["invariants"] = [{**item, "checked": checked[item["id"]]}
                            for item in parts[0]["invariants"]]
    best: dict[str, dict[str, Any]] = {}
    for part in parts:
        for finding in part["findings"]:
            known = best.get(finding["invariant"])
            if known is None or finding["steps"] < known["steps"]:
                best[finding["invariant"]] = finding
    merged["findings"] = [best[k] for k in sorted(best)]
    return merged
