"""The fuzzer as a Hypothesis state machine: each example plays one game against the engine.

``fuzz_machine(config, engines)`` returns a ``RuleBasedStateMachine`` class for one engine and
edition, played on the sessions of ``engines`` (``fuzz.engines``: its caller owns them): it
starts a game drawn from the engine's declared cards, then each step performs an action drawn
from the engine's legal actions (or, now and then, one the rules forbid) and checks every
invariant; with ``against`` (differential mode) it plays the same actions on the reference
engine and compares the two step by step. A broken invariant raises ``Failure``,
which Hypothesis shrinks to a small game; ``Findings`` keeps the last (smallest) failing trace
of each kind for the replay file.

The machine class is an ordinary Hypothesis test: ``Machine.TestCase`` runs under pytest.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from conformance.errors import CallFailed, EngineRejected
from conformance.protocol import EngineInfo
from fuzz import observations as ob
from fuzz.engines import FuzzEngines
from fuzz.invariants import INVARIANTS, Invariant, Transition, Violation, check_all
from fuzz.play import Play, Trace, opens_with_decisions
from fuzz.strategies import Start, cards_for_rules, illegal_action, starts, topics_for

#: one step in ILLEGAL_ONE_IN is a deliberately illegal action
ILLEGAL_ONE_IN = 8
#: the largest number a step draws (its action is picked from it by remainders)
PICK_MAX = 2**20 - 1
#: one game in REPLAY_ONE_IN is played again to check that it is the same game
REPLAY_ONE_IN = 8
#: the pseudo-invariant of an engine that crashed, hung or broke the protocol
ENGINE_ERROR = "engine-error"
#: the pseudo-invariant of two engines that differ on the same game
DIFFERENTIAL = "differential"
PSEUDO_INVARIANTS = (DIFFERENTIAL, ENGINE_ERROR)
CALL_TIMEOUT = 10.0


@dataclass(frozen=True)
class FuzzConfig:
    engine: str
    edition: str
    against: str | None = None  # differential: the engine to compare with ("reference")
    invariants: tuple[str, ...] | None = None  # None: every invariant
    views: bool = True
    #: in a differential run, compare the legal actions too (by kind, player and object)
    compare_legal: bool = True
    #: rule id globs: decks are built mostly from the cards that serve those rules
    rules: tuple[str, ...] = ()
    #: in a differential run, the parts of the game found to differ already (not compared
    #: again: the campaign goes on comparing the others)
    known_differences: tuple[str, ...] = ()

    def chosen(self) -> list[Invariant]:
        if self.invariants is None:
            return list(INVARIANTS.values())
        return [INVARIANTS[i] for i in self.invariants if i in INVARIANTS]

    @property
    def differential(self) -> bool:
        """Compare with the other engine (a differential run not told to stop comparing)."""
        return self.against is not None and (self.invariants is None or
                                             DIFFERENTIAL in self.invariants)


class Failure(AssertionError):
    """An invariant broke (or the engines diverged): Hypothesis shrinks the game."""

    def __init__(self, violations: list[Violation], trace: Trace) -> None:
        super().__init__("; ".join(v.describe() for v in violations))
        self.violations = violations
        self.trace = trace


@dataclass
class Finding:
    """The smallest failing game seen for one invariant (or divergence)."""

    violation: Violation
    trace: Trace
    steps: int = 0


@dataclass
class Findings:
    """What a run found and did: the smallest failure per invariant, games, steps, and per
    invariant the steps it was checked on."""

    by_key: dict[str, Finding] = field(default_factory=dict)
    games: int = 0
    steps: int = 0
    checked: Counter[str] = field(default_factory=Counter)

    def note(self, failure: Failure) -> None:
        """Keep, per invariant the failing step broke (each of them, not only the one
        Hypothesis shrinks for), its first violation in the smallest game seen."""
        steps = len(failure.trace.steps)
        seen: set[str] = set()
        for violation in failure.violations:
            key = violation.key
            if key in seen:
                continue
            seen.add(key)
            known = self.by_key.get(key)
            if known is None or steps <= known.steps:
                self.by_key[key] = Finding(violation, copy.deepcopy(failure.trace), steps)


def check_config(config: FuzzConfig, engines: FuzzEngines) -> EngineInfo:
    """The engine's declaration, if it can be fuzzed in that edition; raises SetupError (or
    ValueError naming what is missing) otherwise."""
    info = engines.info(config.engine)
    missing = [c for c in ("setup.start", "actions.legal") if c not in info.capabilities]
    if config.edition not in info.editions:
        missing.append(f"edition {config.edition}")
    if config.against is not None:
        other = engines.info(config.against, "against")
        missing += [f"{c} (for the differential run)" for c in ("setup.deck_order",
                    "observe.events") if c not in info.capabilities or
                    c not in other.capabilities]
    if missing:
        raise ValueError(f"{config.engine} cannot be fuzzed: it lacks {', '.join(missing)}")
    return info


_FAILURES: dict[str, type[Failure]] = {}


def failure_for(invariant: str) -> type[Failure]:
    """A ``Failure`` class of this invariant's own: Hypothesis tells bugs apart by exception
    type, so each broken invariant shrinks to its own example."""
    cls = _FAILURES.get(invariant)
    if cls is None:
        cls = type(f"Failure_{_safe(invariant)}", (Failure,), {})
        _FAILURES[invariant] = cls
    return cls


def replays_the_same(play: Play) -> list[Violation]:
    """Play ``play``'s game again from its setup on the same engine: the same observation
    at the end, objects named by handle."""
    from fuzz.differential import _differences, normalise

    trace = play.trace
    assert trace is not None
    again = Play(play.game.client, play.info, play.edition, views=False)
    again.start(copy.deepcopy(trace.setup), keep=not opens_with_decisions(trace.steps))
    for step in trace.steps:
        if step.named is None:
            return []  # an object without a handle: cannot be named in the second game
        again.redo(step.named, listed=step.listed, rejected=step.rejected is not None)
    first, second = normalise(play.observation, play), normalise(again.observation, again)
    # A replay leaves the engine in the second game: the first one is over either way.
    for part, (a, b) in _differences(first, second):
        return [Violation("same-game-same-trace", (), f"played again from the same setup "
                          f"with the same {len(trace.steps)} actions, the game differs in "
                          f"{part}: {a!r} the first time, {b!r} the second")]
    return []


def fuzz_machine(config: FuzzConfig, engines: FuzzEngines, findings: Findings | None = None,
                 *, replay_games: bool = True) -> type[RuleBasedStateMachine]:
    """The state machine of ``config``'s games, played on ``engines`` (which its caller owns
    and closes); ``findings``: where the smallest failures are kept."""
    info = check_config(config, engines)
    chosen = tuple(config.chosen())  # a tuple: check_all works out once what applies
    shared = _shared_cards(config, info, engines)
    focus = cards_for_rules(config.rules) if config.rules else frozenset()
    topics = topics_for(config.rules)
    # A name of its own: the methods below would see the parameter as still optional.
    noted: Findings = findings if findings is not None else Findings()

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.play: Play | None = None
            self.other: Play | None = None
            self.plan: dict[str, int] = {}
            self.over = False
            self.diverged = False

        @initialize(start=starts(shared, config.edition, focus, topics))
        def start(self, start: Start) -> None:
            session = engines.session(config.engine)
            assert session.client is not None
            self.play = Play(session.client, info, config.edition, views=config.views)
            self.plan = dict(start.mulligans)
            keep = not self.plan  # a plan of mulligans: the opening decisions are steps
            noted.games += 1
            transition = self._guard(lambda: self.play.begin(
                copy.deepcopy(start.setup), keep=keep, flaw=start.flaw))
            found = check_all(transition, chosen, noted.checked)
            self.over = transition.refused is not None
            if config.against is not None:
                other = engines.session(config.against, "against")
                assert other.client is not None and other.info is not None
                self.other = Play(other.client, other.info, config.edition, views=False)
                mirrored = self.other.begin(copy.deepcopy(start.setup), keep=keep,
                                             flaw=start.flaw)
                if found or not config.differential:
                    pass
                elif (mirrored.refused is None) != (transition.refused is None):
                    found = [Violation(DIFFERENTIAL, start.flaw.rules if start.flaw else (),
                                       f"{info.name} {_refusal(transition.refused)}, "
                                       f"{config.against} {_refusal(mirrored.refused)}",
                                       part="setup")]
                elif transition.refused is None:
                    found = self._guard(lambda: self._diverges(transition))
            self._check(found)

        # One integer per step, drawn by the rule itself: the cheapest draw Hypothesis has
        # (a step costs less than a millisecond), and it shrinks toward 0, the first legal
        # action (passing).
        @rule(pick=st.integers(0, PICK_MAX))
        def step(self, pick: int) -> None:
            assert self.play is not None
            if self.over:
                return
            legal = self.play.legal()
            noted.steps += 1
            planned = self._planned(legal)
            if planned is not None:
                action = planned
                transition = self._guard(lambda: self.play.act(
                    action, listed=True, legal=legal))
                found = check_all(transition, chosen, noted.checked)
                if self.other is not None and config.differential and not found:
                    found = self._guard(lambda: self._compare(transition))
            elif pick % ILLEGAL_ONE_IN == ILLEGAL_ONE_IN - 1 or not legal:
                action, why = illegal_action(pick // ILLEGAL_ONE_IN, legal,
                                             self.play.observation)
                transition = self._guard(lambda: replace(self.play.act(
                    action, listed=False, legal=legal), why_illegal=why))
                found = check_all(transition, chosen, noted.checked)
            else:
                action = legal[(pick // ILLEGAL_ONE_IN) % len(legal)]
                transition = self._guard(lambda: self.play.act(
                    action, listed=True, legal=legal))
                found = check_all(transition, chosen, noted.checked)
                if self.other is not None and config.differential and not found:
                    found = self._guard(lambda: self._compare(transition))
            self.over = ob.over(transition.after)
            self._check(found)

        def _planned(self, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
            """The opening decision the start's plan makes (a mulligan while the player has
            mulligans left and may take one, else keep), or None."""
            assert self.play is not None
            pending = self.play.observation.get("pending") or {}
            if not self.plan or pending.get("decision") != "mulligan":
                return None
            player = pending.get("player")
            options = {a.get("action"): a for a in legal if a.get("player") == player}
            if isinstance(player, str) and self.plan.get(player, 0) > 0 \
                    and "mulligan" in options:
                self.plan[player] -= 1
                return options["mulligan"]
            return options.get("keep")

        def _compare(self, transition: Transition) -> list[Violation]:
            """Mirror the step just taken on the other engine and compare the two."""
            from fuzz.differential import INVARIANT

            assert self.play is not None and self.other is not None
            assert self.play.trace is not None
            last = self.play.trace.steps[-1]
            if last.named is None or last.rejected is not None:
                # An object without a handle (a token): the game cannot be mirrored further.
                self.other = None
                return []
            theirs = self.other.redo(last.named, listed=False)
            if theirs.rejected is not None:
                return [Violation(INVARIANT, (), f"{config.against} rejects {last.named} "
                                  f"({theirs.rejected}), which {info.name} accepted",
                                  part="rejection")]
            return self._diverges(transition)

        def _diverges(self, transition: Transition) -> list[Violation]:
            """The two engines compared after the same step (or start): observations, the
            players' views when the engine's were observed, legal actions."""
            from fuzz.differential import diverges

            assert self.play is not None and self.other is not None
            legal = (self.play.legal(), self.other.legal()) if config.compare_legal \
                else None
            views = None
            if transition.views and "observe.view" in self.other.capabilities:
                views = (transition.views, self.other.views())
            return diverges(transition.after, self.play, self.other, legal, views,
                            known=frozenset(config.known_differences))

        def teardown(self) -> None:
            if self.play is None or self.play.trace is None or not replay_games:
                return
            trace = self.play.trace
            # One game in REPLAY_ONE_IN (by its seed: the same games every run) is played
            # again from its setup: the same actions must give the same game.
            if trace.steps and trace.setup.get("seed", 0) % REPLAY_ONE_IN == 0:
                self._check(self._guard(lambda: replays_the_same(self.play)))

        def _guard(self, call: Any) -> Any:
            """Run one call to the engine; an engine that crashes, hangs or breaks the
            protocol is a finding too (it shrinks like any other)."""
            try:
                return call()
            except Failure:
                raise
            except (CallFailed, EngineRejected) as exc:
                assert self.play is not None
                if self.play.trace is None:
                    self.play.trace = Trace(config.edition, {})
                self._check([Violation(ENGINE_ERROR, (), f"{type(exc).__name__}: {exc}")])

        def _check(self, found: list[Violation]) -> None:
            if found:
                assert self.play is not None and self.play.trace is not None
                failure = failure_for(found[0].key)(found, self.play.trace)
                noted.note(failure)
                raise failure

    GameMachine.__name__ = f"Fuzz_{config.edition}_{_safe(config.engine)}"
    # The example database keys a machine's failures by its digest: one per engine, edition,
    # directing rules and invariants checked. A campaign's later rounds, which leave out the
    # invariants already broken, then replay (and would delete as passing) none of the
    # failures saved by its first round; the next campaign of that configuration replays them.
    GameMachine._hypothesis_internal_add_digest = hashlib.sha256(json.dumps(
        [config.engine, config.edition, config.against, sorted(config.rules),
         sorted(i.id for i in chosen), sorted(config.known_differences)]).encode()).digest()
    return GameMachine


def _shared_cards(config: FuzzConfig, info: EngineInfo, engines: FuzzEngines) -> EngineInfo:
    """The declaration whose cards the games draw from: in a differential run, the cards both
    engines declared."""
    if config.against is None:
        return info
    other = engines.info(config.against, "against")
    common = info.cards_for(config.edition) & other.cards_for(config.edition)
    return EngineInfo(info.name, info.version, info.protocol, info.editions,
                      info.capabilities & other.capabilities, common,
                      {config.edition: common}, info.declared)


def _refusal(reason: str | None) -> str:
    return "accepts the setup" if reason is None else f"refuses the setup ({reason})"


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text)[:40]


def invariants_named(ids: Iterable[str]) -> tuple[str, ...]:
    """The invariants to check, by id, with the pseudo-invariants (an engine error always
    counts; differences count in a differential run)."""
    ids = tuple(ids)
    unknown = [i for i in ids if i not in INVARIANTS and i not in PSEUDO_INVARIANTS]
    if unknown:
        raise ValueError(f"no invariant {', '.join(unknown)} (see mtgconf fuzz list)")
    return (*ids, *(p for p in PSEUDO_INVARIANTS if p not in ids))
