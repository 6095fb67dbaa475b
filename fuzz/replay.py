"""Failures as case files, and replaying them.

A shrunk failing game becomes a case in the bundled format (docs/cases.md): the seeded start
it began with (decks in order, every card named by a handle when the engine keeps deck
order), each action as a ``do`` step (an action drawn as illegal as ``expect_illegal``, a run
of passes as an ``advance`` to where it ended, payments in the form the engine was driven in),
``bind`` steps for objects that appeared without a handle (tokens), and, where the broken
invariant can say what a correct engine shows, a last ``expect``. It cites the invariant's
rules, so it is ready to promote into ``conformance/cases/`` once a person has read it.

``replay`` runs such a case once, through the case runner like any case (the verdict an
engine's CI would see), with every invariant watching the game the runner plays (``Watch``,
an observer of the harness's game driver), which finds the violation even where the case has
no last ``expect``, whatever its setup.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance.case import Case
from conformance.citation import fields_for
from conformance.driver import Played, Started
from conformance.errors import CallFailed
from conformance.runner import run_case
from conformance.session import EngineSession
from fuzz.invariants import INVARIANTS, Transition, Violation, check_all
from fuzz.machine import ENGINE_ERROR
from fuzz.play import VIEWS_EVERY, Trace, TraceStep

#: A protocol invariant cites no rule of its own: its case cites the rule of the step it
#: exercises, in the game's edition (the rules outside the seeds where the seeds have none):
#: passing (a step ends, or the stack resolves), a land play, casting, activating (a mana
#: ability apart); any other step, such as a declaration or a decision, the rule that gives
#: players priority.
STEP_RULES = {
    "cr2004": {"pass": ("cr2004:300.2",), "play_land": ("cr2004:212.6a",),
               "cast": ("cr2004:409.1",), "activate": ("cr2004:409.1",),
               "mana": ("cr2004:406.1",), None: ("cr2004:408.1c",)},
    "modern": {"pass": ("modern:117.4",), "play_land": ("modern:505.6b",),
               "cast": ("modern:601.2",), "activate": ("modern:602.2",),
               "mana": ("modern:605.3a",), None: ("modern:117.3a",)},
}


PSEUDO_DESCRIPTIONS = {
    "differential": "The engine and the other engine show the same game after the same actions.",
    "engine-error": "The engine answers every call without crashing, hanging or breaking the "
                    "protocol.",
}


def _names_no_object(action: dict[str, Any]) -> bool:
    """An action whose object is a raw id (no handle): one that names no object at all."""
    return any(isinstance(action.get(key), int) and not isinstance(action.get(key), bool)
               for key in ("card", "attacker", "source"))


def case_id(invariant: str, trace: Trace) -> str:
    digest = hashlib.sha1(json.dumps([trace.setup, [s.action for s in trace.steps]],
                                     sort_keys=True, default=str).encode()).hexdigest()[:8]
    return f"fuzz.{invariant}.{trace.edition}-{digest}"


def rules_for(violation: Violation, edition: str, action: dict[str, Any] | None = None,
              card: Any = None) -> list[str]:
    """The rules a finding cites, always of the game's edition: the invariant's rules of
    that edition, else the counterparts of its other rules there (the concordance), else, as
    for a protocol invariant, the rule of the step it broke at (``action``, ``card``: the
    acting object's card data, which tells a mana ability). Never the other edition's: a
    modern game's steps are not cr2004:300.1."""
    from spec.corpus import Corpus

    own = [r for r in violation.rules if r.startswith(f"{edition}:")]
    if own:
        return own
    corpus = Corpus.load()
    mapped = [r for rule in violation.rules for r in _concordance().get(rule, ())
              if r.startswith(f"{edition}:") and r in corpus]
    return sorted(set(mapped)) or list(step_rules(edition, action, card))


def step_rules(edition: str, action: dict[str, Any] | None, card: Any = None
               ) -> tuple[str, ...]:
    """The rule of the game's edition a step of this kind exercises (``STEP_RULES``)."""
    from conformance.needs import is_mana_ability

    kind = (action or {}).get("action")
    if kind == "activate" and is_mana_ability(card, (action or {}).get("ability")):
        kind = "mana"
    table = STEP_RULES[edition]
    return table.get(kind, table[None])


def cited(violation: Violation, trace: Trace) -> list[str]:
    """The rules a finding in this game cites (``rules_for`` at its last step)."""
    last = trace.steps[-1].action if trace.steps else None
    return rules_for(violation, trace.edition, last, _card_acting(trace, last))


def _card_acting(trace: Trace, action: dict[str, Any] | None) -> Any:
    """The card data of the object an activation names, as far as the trace's named action
    tells (its handle's card in the setup); None if it cannot."""
    from spec.cardpool import default_pool

    if not trace.steps or action is None or action.get("action") != "activate":
        return None
    named = trace.steps[-1].named or {}
    handle = named.get("card")
    pool = default_pool().edition(trace.edition)
    for name in _cards_by_handle(trace.setup).get(str(handle), ()):
        return pool.get(name)
    return None


def _cards_by_handle(setup: dict[str, Any]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("handle"), str) and isinstance(value.get("card"), str):
                found.setdefault(value["handle"], []).append(value["card"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(setup)
    return found


def _concordance() -> dict[str, list[str]]:
    from spec.terms import load_concordance

    return {f"cr2004:{pair.cr2004}": [f"modern:{m}" for m in pair.modern]
            for pair in load_concordance()}


#: why a finding has no case (``case_from`` gives None)
NO_CASE = ("broken as the game starts, with nothing the invariant can state as a check: no "
           "case would fail on the engine (mtgconf fuzz replays the trace with the invariant "
           "watching)")


def case_from(violation: Violation, trace: Trace, engine: str) -> dict[str, Any] | None:
    """The failing game as a case (a mapping ready for YAML), or None when no case can check
    what broke (``NO_CASE``)."""
    invariant = INVARIANTS.get(violation.invariant)
    rules = cited(violation, trace)
    used = _handles_used(trace)
    steps: list[dict[str, Any]] = []
    start_binds = {h: p for h, p in trace.binds.items() if h in used}
    if start_binds:
        steps.append({"bind": start_binds})
    last = len(trace.steps) - 1
    passes: list[TraceStep] = []  # a run of passes, not yet written
    where = trace.start  # where the game was before the run
    for index, step in enumerate(trace.steps):
        action = step.named if step.named is not None else step.action
        if index != last and step.rejected is not None and _names_no_object(action):
            continue  # rejected, it changed nothing: an id no object has cannot be written
        forbidden = not step.listed or (index == last and violation.forbidden)
        binds = {h: p for h, p in step.binds.items() if h in used}
        # The step that broke the invariant is a step of its own: its moment is the broken
        # engine's, which a correct engine may never stop at (turn 1's draw step).
        if index != last and not forbidden and step.rejected is None and \
                action.get("action") == "pass":
            passes.append(step)
            if not binds:
                continue
            steps += _passing(passes, where)  # a bind names what the game shows right then
        else:
            steps += _passing(passes, where)
            steps.append({"expect_illegal" if forbidden else "do": action})
        passes, where = [], step.moment
        if binds:
            steps.append({"bind": binds})
    steps += _passing(passes, where)
    if violation.invariant == "deck-rules" and violation.forbidden:
        steps = [{"expect_illegal_setup": violation.message.split(" was accepted")[0]}]
    if violation.checks:
        steps.append({"expect": dict(violation.checks),
                      **({"as": violation.view} if violation.view else {})})
    if not steps:
        # Broken at the start, with nothing the invariant can state as a check: a case of
        # nothing but `expect: {result.over: false}` would pass on the engine that broke it.
        return None
    what = invariant.description if invariant is not None else PSEUDO_DESCRIPTIONS.get(
        violation.invariant, "")
    return {
        "id": case_id(violation.invariant, trace),
        "rules": rules,
        "editions": [trace.edition],
        **fields_for(rules),
        "summary": f"Found by mtgconf fuzz on {engine}: {what} Broken: {violation.message}"
                   + (f" No expect can check it: {violation.unchecked} (mtgconf fuzz replay "
                      "watches the invariant)." if violation.unchecked else ""),
        "catches": violation.message,
        "setup": trace.setup,
        "steps": steps,
    }


def _passing(passes: list[TraceStep], where: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A run of passes as a case writes it: an ``advance`` to where the run ends, as far as
    an advance goes (it stops where the game first gets there: a pass or more after that,
    in the same step, stay ``do`` steps), from ``where`` the game was before the run."""
    done = [{"do": step.named if step.named is not None else step.action} for step in passes]
    end = passes[-1].moment if passes else None
    if end is None or where == end:
        return done
    first = next(i for i, step in enumerate(passes) if step.moment == end)
    if first < 1:
        return done  # one pass: a do says it more plainly
    return [{"advance": dict(end)}, *done[first + 1:]]


def _handles_used(trace: Trace) -> set[str]:
    text = json.dumps([s.named for s in trace.steps if s.named is not None])
    bound = set(trace.binds) | {h for s in trace.steps for h in s.binds}
    return {h for h in bound if json.dumps(h) in text}


class _Dumper(yaml.SafeDumper):
    pass


def _flow_actions(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
    # An action, a bind, an advance or a deck entry reads best on one line.
    flow = "action" in data or "card" in data or all(
        isinstance(v, str | int) for v in data.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


_Dumper.add_representer(dict, _flow_actions)


def write_case(case: dict[str, Any], path: Path, header: str = "") -> Path:
    """Write ``case`` as a case file of one case (a comment header first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.dump([case], Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    comment = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    path.write_text(comment + text, encoding="utf-8")
    return path


@dataclass
class Replayed:
    """What replaying one case found."""

    case_id: str
    edition: str
    verdict: str  # the harness's: pass, fail, error, skip...
    message: str = ""
    violations: list[Violation] = field(default_factory=list)
    #: the action of the step that broke them (None: the start), for the rules they cite
    action: dict[str, Any] | None = None

    @property
    def broken(self) -> bool:
        return self.verdict not in ("pass", "skip") or bool(self.violations)


class Watch:
    """Every invariant watching a case's game as the case runner plays it (an ``Observer`` of
    the game driver, conformance.driver): the violations of the first step that breaks one,
    whatever the case's setup (a seeded start, a given state, a refused setup)."""

    views_every = VIEWS_EVERY
    wants_legal = True

    def __init__(self, edition: str, capabilities: frozenset[str], rules: tuple[str, ...],
                 refusal: str | None = None) -> None:
        self.edition = edition
        self.capabilities = capabilities
        self.rules = rules
        self.refusal = refusal  # the case expects the setup refused, for this reason
        self.seeded = True
        self.found: list[Violation] = []
        self.action: dict[str, Any] | None = None  # of the step that broke them

    def started(self, start: Started) -> None:
        self.seeded = "start" in start.setup
        if start.refused is not None:
            return  # refused: whether it should have been is the harness's verdict
        if self.refusal is not None:
            self._note([Violation("deck-rules", self.rules, "the setup was accepted; the "
                                  f"rules forbid it: {self.refusal}", forbidden=True)])
            return
        self._note(check_all(Transition(
            self.edition, self.capabilities, start.after or {}, events=start.events,
            views=start.views, seeded=self.seeded, setup=start.setup)))

    def played(self, step: Played) -> None:
        exc = step.rejected
        rejected = f"{exc.type}: {exc.reason or exc.detail}" if exc is not None else None
        self._note(check_all(Transition(
            self.edition, self.capabilities, step.after or {}, step.before, step.action,
            rejected, step.events, step.legal, step.views, self.seeded, step.listed)),
            step.action)

    def failed(self, action: dict[str, Any] | None, error: CallFailed) -> None:
        self._note([Violation(ENGINE_ERROR, (), f"{type(error).__name__}: {error}")], action)

    def _note(self, found: list[Violation], action: dict[str, Any] | None = None) -> None:
        if found and not self.found:
            self.found = found
            self.action = action


def replay(case: Case, edition: str, session: EngineSession) -> Replayed:
    """Run a case once through the harness (the verdict an engine's CI would see) with every
    invariant watching its game (which finds the violation even where the case has no last
    ``expect``)."""
    refusal = next((str(step.value) for step in case.steps
                    if step.kind == "expect_illegal_setup"), None)
    capabilities = frozenset(session.info.capabilities) if session.info else frozenset()
    watch = Watch(edition, capabilities, case.rules, refusal)
    outcome = run_case(case, edition, session, observer=watch)
    return Replayed(case.id, edition, outcome.status, outcome.message, watch.found,
                    watch.action)
