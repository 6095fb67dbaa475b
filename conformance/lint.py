"""Checks of cases against the rules corpus (``mtgconf cases lint``; also run before a run).

Errors: a rule id the corpus does not have (with the canonical id when a printed one was
used), a quote that does not occur in the cited rule, a check that reads a property of a
stand-in (``<bear>``) that its class does not fix exactly, a ``$(...)`` reference that is
malformed or names no stand-in of the case, a case whose summary or catches say a step
is skipped but whose expects never read the step or who has priority (a count of cards cannot
tell a skipped step from one in which nothing happened). Warnings: a cited rule that is not
testable, a cited rule of an edition the case does not run under, a quote keyed by a rule the
case does not cite, an ``expect_illegal`` cast that nothing could pay for (a wrong engine
passes it by rejecting it for want of mana), ``shuffle: false`` where no deck's order
matters. Structural problems (schema, duplicate ids, unknown capabilities, derived
capabilities listed in ``requires``, unknown handles) are found when the files are loaded.

A rule outside the seeds (``Rule.outside``) has no text in the corpus to quote, only our gist:
a case citing one names one or more of the rule's key terms (``terms:``, each a key term of
the record, which the build holds to words of the gist) instead of a quote. Errors: no terms
for it, a term that is not one of its key terms, a quote keyed by it, terms keyed by a seed
rule. Key terms rather than words of the gist: the gist is ours and may be reworded, the terms
are a short vocabulary chosen per rule to tell it from its neighbours (508.1a "untapped",
"haste"), so a case citing the wrong outside rule fails the lint as a wrong quote does.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from conformance import casefile, templating
from conformance.case import Case, Step
from conformance.casefile import CaseSet
from conformance.errors import Problem
from conformance.needs import card_of, costs_mana, is_mana_ability
from conformance.paths import HELPERS
from spec.corpus import Corpus, Rule
from spec.errors import SpecError
from spec.standins import parse_token, standins

#: Observation keys that are properties of the card (a stand-in class may fix them).
CARD_PROPERTIES = frozenset({"types", "supertypes", "subtypes", "colors", "mana_cost",
                             "mana_value", "power", "toughness"})


def lint(cases: CaseSet, corpus: Corpus | None = None) -> list[Problem]:
    corpus = corpus or Corpus.load()
    problems: list[Problem] = []
    expansions: dict[str, list[Case]] = {}
    for case in cases.cases:
        expansions.setdefault(case.base_id, []).append(case)
    for group in expansions.values():
        # Each expansion is linted with its own editions, setup and steps (a params entry
        # may restrict the editions and change the cards); the rules and quotes they share
        # are reported once. A rule is of an edition the case does not run under only if no
        # expansion runs under it.
        editions = tuple(dict.fromkeys(e for case in group for e in case.editions))
        seen: set[tuple[str, str | None, str]] = set()
        for case in group:
            for problem in lint_case(case, corpus, editions):
                key = (problem.message, problem.field, problem.severity)
                if key not in seen:
                    seen.add(key)
                    problems.append(problem)
    return problems


def lint_case(case: Case, corpus: Corpus,
              case_editions: tuple[str, ...] | None = None) -> list[Problem]:
    """The problems of one case (one expansion of a params case); ``case_editions``: the
    editions any expansion of it runs under (default: this one's)."""
    problems: list[Problem] = []

    def report(message: str, field: str, severity: str = "error") -> None:
        problems.append(Problem(str(case.file), message, case.line, case.base_id, field,
                                severity))

    for ref in case.rules:
        if ref not in corpus:
            report(_unknown(ref, corpus), "rules")
            continue
        rule = corpus.get(ref)
        if rule.outside:
            for message in _outside_terms(case, rule):
                report(message, "terms")
        else:
            quote = case.quote_for(ref)
            if not quote:
                report(f"no quote for {ref}", "quote")
            elif not rule.quotes(quote):
                report(f"{quote!r} does not occur in {ref}: {rule.text}", "quote")
            if isinstance(case.terms, dict) and ref in case.terms:
                report(f"terms are for rules outside the seeds; {ref} is a seed rule: quote its "
                       "text instead", "terms")
        if not rule.is_testable:
            why = rule.testability.get("reason") or rule.testability_class
            report(f"{ref} is not testable by an engine ({why})", "rules", "warning")
        if rule.edition not in (case_editions or case.editions):
            report(f"{ref} is a rule of {rule.edition}, which the case does not run under",
                   "editions", "warning")
    if isinstance(case.quote, dict):
        for ref in sorted(set(case.quote) - set(case.rules)):
            report(f"the quote for {ref} belongs to no cited rule", "quote", "warning")
    if isinstance(case.terms, dict):
        for ref in sorted(set(case.terms) - set(case.rules)):
            report(f"the terms for {ref} belong to no cited rule", "terms", "warning")
    if isinstance(case.catches, dict):
        for ref in sorted(set(case.catches) - set(case.rules)):
            report(f"catches names {ref}, which the case does not cite", "catches")
    for message, field in _standin_reads(case):
        report(message, field)
    for step, message in _misspelt_helpers(case):
        problems.append(Problem(str(case.file), message, step.line or case.line, case.base_id,
                                f"steps[{step.index - 1}]"))
    for message, field in _template_problems(case):
        report(message, field)
    for message, field in _unpayable_illegal(case):
        report(message, field, "warning")
    if _says_a_step_is_skipped(case) and not _reads_the_turn(case):
        report("the summary or catches say a step is skipped, but no expect reads the step or "
               "who has priority (turn.step, turn.priority): counting cards cannot tell a "
               "skipped step from one in which nothing was drawn; expect the step that comes "
               "instead once the players pass", "steps")
    if case.setup.get("shuffle") is False and not _order_matters(case.setup):
        report("shuffle: false is not needed (every deck has one card name or at most seven "
               "cards): drop it, engines without setup.deck_order then run the case", "setup",
               "warning")
    return problems


#: "skips the draw step", "the untap step is skipped", "skip their first draw step"
_SKIPPED_STEP = re.compile(r"\bskip(s|ped|ping)?\b[^.;:]*\bstep|\bstep\b[^.;:]*\bskipped\b",
                           re.IGNORECASE)
_TURN_FIELDS = frozenset({"step", "phase", "priority"})


def _says_a_step_is_skipped(case: Case) -> bool:
    catches = case.catches.values() if isinstance(case.catches, dict) else [case.catches or ""]
    return any(_SKIPPED_STEP.search(text) for text in (case.summary, *catches))


def _reads_the_turn(case: Case) -> bool:
    """Whether an expect checks the step, the phase or who has priority."""
    for step in case.steps:
        for check in step.checks if step.kind == "expect" else ():
            path = check.path.text
            if path in ("turn.step", "turn.phase", "turn.priority"):
                return True
            if path == "turn" and isinstance(check.expected, dict) and \
                    _TURN_FIELDS & set(check.expected):
                return True
    return False


def _outside_terms(case: Case, rule: Rule) -> list[str]:
    """What is wrong with how ``case`` cites ``rule``, a rule outside the seeds: by key terms."""
    problems = []
    if not rule.terms:
        return [f"{rule.ref} is a {rule.kind} outside the seeds, with no key terms to name: "
                "cite one of the rules under it"]
    known = ", ".join(repr(t) for t in rule.terms)
    if isinstance(case.quote, dict) and rule.ref in case.quote:
        problems.append(f"{rule.ref} is outside the seeds: the corpus has no text of it to quote; "
                        f"name its key terms with terms: instead (one or more of {known})")
    terms = case.terms_for(rule.ref)
    if not terms:
        problems.append(f"no terms for {rule.ref}: a rule outside the seeds is cited by one or "
                        f"more of its key terms ({known})")
    for term in terms:
        if rule.key_term(term) is None:
            problems.append(f"{term!r} is not a key term of {rule.ref} (its key terms: {known}; "
                            f"its gist: {rule.gist})")
    return problems


def _misspelt_helpers(case: Case) -> list[tuple[Step, str]]:
    """Expected mappings with a key that is no observation field but nearly a helper
    (``{cnt: 7}``): read as a literal mapping, it would fail on every engine, or pass on none
    for the reason meant."""
    found = []
    vocabulary = observation_keys()
    for step in case.steps:
        for check in step.checks:
            for key in _mapping_keys(check.expected):
                if key in HELPERS or key in vocabulary:
                    continue
                close = difflib.get_close_matches(key, sorted(HELPERS), n=1, cutoff=0.75)
                if close:
                    found.append((step, f"step {step.index}: {check.path.text}: {key!r} is no "
                                  f"helper nor observation field (did you mean {close[0]}?)"))
    return found


def _mapping_keys(expected: Any) -> list[str]:
    if isinstance(expected, dict):
        return [str(k) for k in expected] + [k for v in expected.values()
                                             for k in _mapping_keys(v)]
    if isinstance(expected, list):
        return [k for item in expected for k in _mapping_keys(item)]
    return []


@cache
def observation_keys() -> frozenset[str]:
    """Every property name of the protocol's observation schema (and the schemas it refers
    to): the fields an expected mapping may name besides the helpers."""
    from conformance.schemas import SCHEMA_DIR

    names: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("properties", "patternProperties"):
                if isinstance(node.get(key), dict):
                    names.update(node[key])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for item in node:
                visit(item)

    for path in sorted((SCHEMA_DIR / "protocol").glob("*.json")):
        visit(json.loads(path.read_text(encoding="utf-8")))
    return frozenset(names)


def _standin_reads(case: Case) -> list[tuple[str, str]]:
    """Checks that read a card property of a stand-in object that its class leaves open."""
    found = []
    classes = standins()
    for step in case.steps:
        for check in step.checks:
            segments = check.path.segments
            for i, segment in enumerate(segments):
                for selector in segment.selectors:
                    token = (case.handle_cards.get(str(selector.value))
                             if selector.kind == "handle" else str(selector.value))
                    name = parse_token(token)
                    if name is None or name not in classes:
                        continue
                    if templating.is_template(check.expected):
                        read = set()  # a $(...) reference follows the chosen member
                    elif i + 1 < len(segments):
                        read = {segments[i + 1].key}
                    elif isinstance(check.expected, dict):
                        read = set(check.expected)
                    else:
                        read = set()
                    exact = {k for k, v in classes[name].fixes.items() if not isinstance(v, dict)}
                    for key in sorted((read & CARD_PROPERTIES) - exact):
                        fixed = ", ".join(classes[name].fixes)
                        found.append((f"step {step.index}: {check.path.text} reads {key} of "
                                      f"{token}, which its class does not fix "
                                      f"(spec/standins.yaml fixes {fixed})",
                                      f"steps[{step.index - 1}]"))
    return found


def _template_problems(case: Case) -> list[tuple[str, str]]:
    """``$(...)`` references that cannot be read, or name no stand-in of the case."""
    found = []
    used = {c for c in case.cards if parse_token(c) is not None}
    places: list[tuple[str, Any]] = [("setup", case.setup)]
    for step in case.steps:
        places.append((f"steps[{step.index - 1}]", step.value))
        places += [(f"steps[{step.index - 1}]", check.expected) for check in step.checks]
    for field, value in places:
        for text in templating.find(value):
            try:
                refs = templating.references(text)
            except templating.TemplateError as exc:
                found.append((str(exc), field))
                continue
            for token, _ in refs:
                if token not in used:
                    found.append((f"{text!r} reads {token}, which is no stand-in of the case's "
                                  f"setup (its stand-ins: {', '.join(sorted(used)) or 'none'})",
                                  field))
    return found


def _unpayable_illegal(case: Case) -> list[tuple[str, str]]:
    """``expect_illegal`` casts and activations that cost mana with none to pay them."""
    players = case.setup.get("players") or {}
    pools = {name: any((state or {}).get("mana_pool", {}).values())
             for name, state in players.items() if isinstance(state, dict)}
    found = []
    for step in case.steps:
        action = step.value if step.kind in ("do", "expect_illegal") else None
        if not isinstance(action, dict) or action.get("action") not in ("cast", "activate"):
            continue
        card = card_of(action.get("card"), case.handle_cards, case.editions)
        if action["action"] == "activate" and is_mana_ability(card, action.get("ability")):
            pools[action.get("player")] = True
            continue
        if step.kind == "expect_illegal" and action.get("pay_with") is None and \
                not pools.get(action.get("player")) and costs_mana(card, action):
            found.append((f"step {step.index}: nothing pays for this {action['action']} (no "
                          "pay_with, no mana in the pool): an engine may reject it for want of "
                          "mana whatever the rule; name its sources", f"steps[{step.index - 1}]"))
    return found


def _order_matters(setup: dict[str, Any]) -> bool:
    for deck in (setup.get("decks") or {}).values():
        names, size = set(), 0
        for entry in deck or ():
            item = entry if isinstance(entry, dict) else {"card": entry}
            names.add(item.get("card"))
            size += int(item.get("count", 1))
        if size > 7 and len(names) > 1:
            return True
    return False


def _unknown(ref: str, corpus: Corpus) -> str:
    edition, _, number = ref.partition(":")
    try:
        found = corpus.find(f"{edition}:{number}")
    except SpecError:
        return f"no rule {ref} in the corpus"
    refs = ", ".join(r.ref for r in found)
    return f"no rule {ref} in the corpus; it is printed {number}, canonically {refs}"


def load_checked(paths: Sequence[Path]) -> CaseSet:
    """Load case files and lint them: a file with an error (of either kind) yields no cases,
    and its problems are in ``problems``."""
    cases = casefile.load(paths)
    errors = [p for p in lint(cases) if p.severity == "error"]
    if errors:
        bad = {p.path for p in errors}
        cases.cases = [c for c in cases.cases if str(c.file) not in bad]
        cases.problems.extend(errors)
    return cases
