"""Checks of cases against the rules corpus (``mtgconf cases lint``; also run before a run).

Errors: a rule id the corpus does not have (with the canonical id when a printed one was
used), a quote that does not occur in the cited rule. Warnings: a cited rule that is not
testable, a cited rule of an edition the case does not run under, a quote keyed by a rule the
case does not cite. Structural problems (schema, duplicate ids, unknown capabilities,
unknown handles) are found when the files are loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from conformance import casefile
from conformance.case import Case
from conformance.casefile import CaseSet
from conformance.errors import Problem
from spec.corpus import Corpus
from spec.errors import SpecError


def lint(cases: CaseSet, corpus: Corpus | None = None) -> list[Problem]:
    corpus = corpus or Corpus.load()
    problems: list[Problem] = []
    checked: set[str] = set()
    for case in cases.cases:
        # Expansions of one case share rules and quote: check them once.
        if case.base_id in checked:
            continue
        checked.add(case.base_id)
        problems.extend(lint_case(case, corpus))
    return problems


def lint_case(case: Case, corpus: Corpus) -> list[Problem]:
    problems: list[Problem] = []

    def report(message: str, field: str, severity: str = "error") -> None:
        problems.append(Problem(str(case.file), message, case.line, case.base_id, field,
                                severity))

    for ref in case.rules:
        if ref not in corpus:
            report(_unknown(ref, corpus), "rules")
            continue
        rule = corpus.get(ref)
        quote = case.quote_for(ref)
        if not quote:
            report(f"no quote for {ref}", "quote")
        elif not rule.quotes(quote):
            report(f"{quote!r} does not occur in {ref}: {rule.text}", "quote")
        if not rule.is_testable:
            why = rule.testability.get("reason") or rule.testability_class
            report(f"{ref} is not testable by an engine ({why})", "rules", "warning")
        if rule.edition not in case.editions:
            report(f"{ref} is a rule of {rule.edition}, which the case does not run under",
                   "editions", "warning")
    if isinstance(case.quote, dict):
        for ref in sorted(set(case.quote) - set(case.rules)):
            report(f"the quote for {ref} belongs to no cited rule", "quote", "warning")
    return problems


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
