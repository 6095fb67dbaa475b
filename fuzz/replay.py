"""Failures as case files, and replaying them.

A shrunk failing game becomes a case in the bundled format (docs/cases.md): the seeded start
it began with (decks in order, every card named by a handle when the engine keeps deck
order), each action as a ``do`` step (an action drawn as illegal as ``expect_illegal``),
``bind`` steps for objects that appeared without a handle (tokens), and, where the broken
invariant can say what a correct engine shows, a last ``expect``. It cites the invariant's
rules, so it is ready to promote into ``conformance/cases/`` once a person has read it.

``replay`` runs such a file twice over: through the harness like any case (the verdict an
engine's CI would see) and step by step with every invariant checked (which finds the
violation even where the case has no last ``expect``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance.errors import CallFailed, EngineRejected
from conformance.protocol import ILLEGAL_SETUP
from fuzz import observations as ob
from fuzz.invariants import INVARIANTS, Violation, check_all
from fuzz.play import Play, Trace, opens_with_decisions

PROTOCOL_RULES = {
    # A protocol invariant cites no rule of its own: its case cites the rule of the step it
    # exercises (priority for passing, the land rule for land plays, casting for the rest).
    "cr2004": ("cr2004:300.2",),
    "modern": ("modern:405.5",),
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


def rules_for(violation: Violation, edition: str) -> list[str]:
    """The rules the case cites: the invariant's rules of the game's edition, else those of
    the other edition with their counterparts here (the concordance), else all of them."""
    from spec.corpus import Corpus

    own = [r for r in violation.rules if r.startswith(f"{edition}:")]
    if own:
        return own
    if not violation.rules:
        return list(PROTOCOL_RULES[edition])
    corpus = Corpus.load()
    mapped = [r for rule in violation.rules for r in _concordance().get(rule, ())
              if r.startswith(f"{edition}:") and r in corpus]
    return sorted(set(mapped)) or list(violation.rules)


def _concordance() -> dict[str, list[str]]:
    from spec.terms import load_concordance

    return {f"cr2004:{pair.cr2004}": [f"modern:{m}" for m in pair.modern]
            for pair in load_concordance()}


def _quote(rule: str) -> str:
    from spec.corpus import Corpus

    text = Corpus.load().get(rule).text.strip()
    return text[:24].strip() or text


def case_from(violation: Violation, trace: Trace, engine: str) -> dict[str, Any]:
    """The failing game as a case (a mapping ready for YAML)."""
    invariant = INVARIANTS.get(violation.invariant)
    rules = rules_for(violation, trace.edition)
    used = _handles_used(trace)
    steps: list[dict[str, Any]] = []
    start_binds = {h: p for h, p in trace.binds.items() if h in used}
    if start_binds:
        steps.append({"bind": start_binds})
    last = len(trace.steps) - 1
    for index, step in enumerate(trace.steps):
        action = step.named if step.named is not None else step.action
        if index != last and step.rejected is not None and _names_no_object(action):
            continue  # rejected, it changed nothing: an id no object has cannot be written
        forbidden = not step.listed or (index == last and violation.forbidden)
        steps.append({"expect_illegal" if forbidden else "do": action})
        binds = {h: p for h, p in step.binds.items() if h in used}
        if binds:
            steps.append({"bind": binds})
    if violation.invariant == "deck-rules" and violation.forbidden:
        steps = [{"expect_illegal_setup": violation.message.split(" was accepted")[0]}]
    if violation.checks:
        steps.append({"expect": dict(violation.checks)})
    if not steps:
        # Broken at the start, with nothing the invariant can state: the replay finds it.
        steps.append({"expect": {"result.over": False}})
    what = invariant.description if invariant is not None else PSEUDO_DESCRIPTIONS.get(
        violation.invariant, "")
    return {
        "id": case_id(violation.invariant, trace),
        "rules": rules,
        "editions": [trace.edition],
        "quote": {rule: _quote(rule) for rule in rules},
        "summary": f"Found by mtgconf fuzz on {engine}: {what} Broken: {violation.message}",
        "catches": violation.message,
        "setup": trace.setup,
        "steps": steps,
    }


def _handles_used(trace: Trace) -> set[str]:
    text = json.dumps([s.named for s in trace.steps if s.named is not None])
    bound = set(trace.binds) | {h for s in trace.steps for h in s.binds}
    return {h for h in bound if json.dumps(h) in text}


class _Dumper(yaml.SafeDumper):
    pass


def _flow_actions(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
    # An action, a bind or a deck entry reads best on one line.
    flow = "action" in data or "card" in data or all(isinstance(v, str) for v in data.values())
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

    @property
    def broken(self) -> bool:
        return self.verdict not in ("pass", "skip") or bool(self.violations)


#: actions an ``advance`` step may take before it gives up (as the case runner)
ADVANCE_LIMIT = 500


def _advance(play: Play, target: dict[str, Any]) -> list[Violation]:
    """Pass priority and answer declarations with ``done`` until ``target`` holds, checking
    the invariants after each action (the case runner reports a target never reached)."""
    for _ in range(ADVANCE_LIMIT):
        observation = play.observation
        if target.get("over") and ob.over(observation):
            return []
        turn = ob.turn(observation)
        if not target.get("over") and all(
                turn.get("number" if key == "turn" else key) == value
                for key, value in target.items()):
            return []
        if ob.over(observation):
            return []
        pending = observation.get("pending") or {}
        who = ob.holds_priority(observation)
        action: dict[str, Any]
        if who is not None:
            action = {"action": "pass", "player": who}
        elif pending.get("decision") in ("attack", "block", "declare_attackers",
                                         "declare_blockers"):
            action = {"action": "done", "player": pending.get("player")}
        else:
            return []  # another decision: the case runner says so
        found = check_all(play.act(action, listed=True))
        if found:
            return found
    return []


def recheck(raw: dict[str, Any], edition: str, client: Any, info: Any) -> list[Violation]:
    """Play a case's steps on an engine with every invariant checked after each; the
    violations of the first step that breaks one."""
    from conformance import paths

    play = Play(client, info, edition)
    refusal = next((step["expect_illegal_setup"] for step in raw.get("steps") or ()
                    if "expect_illegal_setup" in step), None)
    try:
        found = check_all(play.start(raw["setup"], keep=not opens_with_decisions(
            raw.get("steps") or ())))
    except EngineRejected as exc:
        if exc.type != ILLEGAL_SETUP:
            raise
        return []  # refused: whether it should have been is the harness's verdict
    if refusal is not None:
        return [Violation("deck-rules", tuple(raw.get("rules") or ()),
                          f"the setup was accepted; the rules forbid it: {refusal}",
                          forbidden=True)]
    if found:
        return found
    for step in raw.get("steps") or ():
        if "advance" in step:
            found = _advance(play, step["advance"])
            if found:
                return found
        if "bind" in step:
            for handle, text in step["bind"].items():
                selected = paths.resolve(paths.parse(text), play.observation,
                                         lambda h, o: play.id_of.get(h) == o.get("id"),
                                         full=True)
                if isinstance(selected, list) and len(selected) == 1:
                    play.id_of[handle] = selected[0].get("id")
                    play.handle_of[selected[0].get("id")] = handle
        for kind in ("do", "expect_illegal"):
            if kind in step:
                try:
                    legal = play.legal()
                    transition = play.act(play.unname(step[kind]), listed=kind == "do",
                                          legal=legal)
                except CallFailed as exc:
                    return [Violation("engine-error", (), f"{type(exc).__name__}: {exc}")]
                found = check_all(transition)
                if found:
                    return found
        if ob.over(play.observation):
            break
    return []
