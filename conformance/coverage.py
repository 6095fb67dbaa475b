"""Rule coverage: which cases cite each rule of the corpus, and whether any of them is
discriminating (declares, with ``catches``, the wrong behaviour it fails).

A rule an engine can break (testability ``engine`` or ``card-data``) is *covered* when a case
cites it and a case citing it is discriminating; a rule that *waits* (no card of the pool can
reach it yet; the corpus says why) is counted apart. Definition rules are linked to the cases
of the rules that exercise them; not-testable rules keep their reason.

>>> report = Coverage.of(casefile.load().cases)           # doctest: +SKIP
>>> report.rule("cr2004:300.3").discriminating            # doctest: +SKIP
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from conformance.case import Case
from spec.corpus import Corpus, Rule

TESTABLE = ("engine", "card-data")


@dataclass(frozen=True)
class RuleCoverage:
    ref: str
    edition: str
    section: str
    testability: str  # engine, card-data, definition, not-testable
    gist: str
    showing: tuple[str, ...] = ()  # ids of the cases citing it
    discriminating: tuple[str, ...] = ()  # ids of those that say what they catch
    waits: str = ""  # why its cases must wait, if they must
    reason: str = ""  # a not-testable rule's reason
    exercised_by: tuple[str, ...] = ()  # a definition rule's rules
    via: tuple[str, ...] = ()  # a definition rule's cases (through those rules)

    @property
    def testable(self) -> bool:
        return self.testability in TESTABLE

    @property
    def status(self) -> str:
        """covered, showing-only, uncovered, waits; or the class of an untestable rule."""
        if not self.testable:
            return self.testability
        if self.showing and self.discriminating:
            return "covered"
        if self.waits:
            return "waits"
        return "showing-only" if self.showing else "uncovered"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.ref, "section": self.section,
                               "testability": self.testability, "status": self.status,
                               "cases": list(self.showing),
                               "discriminating": list(self.discriminating)}
        if self.waits:
            out["waits"] = self.waits
        if self.reason:
            out["reason"] = self.reason
        if self.exercised_by:
            out["exercised_by"] = list(self.exercised_by)
            out["via_cases"] = list(self.via)
        return out


@dataclass(frozen=True)
class Coverage:
    rules: tuple[RuleCoverage, ...]
    #: cited rules the corpus does not have (a lint error elsewhere; listed, not counted)
    unknown: tuple[str, ...] = field(default=())

    @classmethod
    def of(cls, cases: Iterable[Case], corpus: Corpus | None = None,
           editions: Iterable[str] | None = None) -> Coverage:
        corpus = corpus or Corpus.load()
        wanted = set(editions) if editions is not None else None
        showing: dict[str, set[str]] = defaultdict(set)
        catching: dict[str, set[str]] = defaultdict(set)
        unknown = set()
        for case in cases:
            for ref in case.rules:
                if ref not in corpus:
                    unknown.add(ref)
                    continue
                showing[ref].add(case.base_id)
                if case.catches_for(ref):
                    catching[ref].add(case.base_id)
        found = []
        for rule in corpus.rules:
            if wanted is not None and rule.edition not in wanted:
                continue
            found.append(_rule(rule, showing, catching))
        return cls(tuple(found), tuple(sorted(unknown)))

    def rule(self, ref: str) -> RuleCoverage:
        return next(r for r in self.rules if r.ref == ref)

    @property
    def testable(self) -> list[RuleCoverage]:
        return [r for r in self.rules if r.testable]

    def counts(self, rules: Iterable[RuleCoverage] | None = None) -> dict[str, int]:
        chosen = list(self.testable if rules is None else rules)
        out = {"rules": len(chosen), "cited": sum(bool(r.showing) for r in chosen),
               "covered": 0, "showing-only": 0, "uncovered": 0, "waits": 0}
        for rule in chosen:
            out[rule.status] += 1
        return out

    def percent(self) -> float:
        """Covered rules, of the testable rules that do not wait."""
        counts = self.counts()
        due = counts["rules"] - counts["waits"]
        return 100.0 * counts["covered"] / due if due else 100.0

    def by_section(self) -> list[tuple[str, str, dict[str, int]]]:
        groups: dict[tuple[str, str], list[RuleCoverage]] = defaultdict(list)
        for rule in self.testable:
            groups[(rule.edition, rule.section)].append(rule)
        return [(edition, section, self.counts(rules))
                for (edition, section), rules in sorted(groups.items(), key=_section_key)]

    def to_json(self) -> dict[str, Any]:
        return {"summary": {**self.counts(), "percent": round(self.percent(), 1)},
                "sections": [{"edition": e, "section": s, **c} for e, s, c in self.by_section()],
                "rules": [r.to_json() for r in self.rules],
                "unknown": list(self.unknown)}


def _rule(rule: Rule, showing: dict[str, set[str]], catching: dict[str, set[str]]
          ) -> RuleCoverage:
    testability = rule.testability
    exercised = tuple(testability.get("exercised_by", ()))
    return RuleCoverage(
        ref=rule.ref, edition=rule.edition, section=rule.section,
        testability=rule.testability_class, gist=rule.gist,
        showing=tuple(sorted(showing.get(rule.ref, ()))),
        discriminating=tuple(sorted(catching.get(rule.ref, ()))),
        waits=str(testability.get("waits") or ""),
        reason=str(testability.get("reason") or "") if rule.testability_class == "not-testable"
        else "",
        exercised_by=exercised,
        via=tuple(sorted({c for ref in exercised for c in showing.get(ref, ())})),
    )


def _section_key(item: tuple[tuple[str, str], Any]) -> tuple[str, int]:
    (edition, section), _ = item
    return (edition, int(section) if section.isdigit() else 0)
