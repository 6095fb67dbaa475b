"""Rule coverage: which cases cite each rule of the corpus, and whether any of them is
discriminating (declares, with ``catches``, the wrong behaviour it fails).

A rule an engine can break (testability ``engine`` or ``card-data``) is *covered* when a case
cites it and a case citing it is discriminating; a rule that *waits* (no card of the pool can
reach it yet; the corpus says why) is counted apart. Definition rules are linked to the cases
of the rules that exercise them; not-testable rules keep their reason.

The corpus has two parts, and so does its coverage: the seed rules and the rules outside the
seeds (``Rule.outside``, our records of the rest of each edition's rules). Each part is counted
on its own (:class:`Part`), so that neither figure hides the other: ``mtgconf coverage`` says
both, and gates on each with its own floor.

>>> report = Coverage.of(casefile.load().cases)           # doctest: +SKIP
>>> report.rule("cr2004:300.3").discriminating            # doctest: +SKIP
>>> report.seed.percent(), report.outside.percent()       # doctest: +SKIP
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
    outside: bool = False  # a rule outside the seeds

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
                               "outside": self.outside,
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
class Part:
    """The coverage of one part of the corpus: the seed rules, or the rules outside them."""

    outside: bool
    rules: tuple[RuleCoverage, ...]

    @property
    def name(self) -> str:
        return "the rules outside the seeds" if self.outside else "the seed rules"

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
        """Covered rules, of the testable rules that do not wait (100 when none is due)."""
        counts = self.counts()
        due = counts["rules"] - counts["waits"]
        return 100.0 * counts["covered"] / due if due else 100.0

    def by_section(self) -> list[tuple[str, str, dict[str, int]]]:
        groups: dict[tuple[str, str], list[RuleCoverage]] = defaultdict(list)
        for rule in self.testable:
            groups[(rule.edition, rule.section)].append(rule)
        return [(edition, section, self.counts(rules))
                for (edition, section), rules in sorted(groups.items(), key=_section_key)]

    def summary(self) -> dict[str, Any]:
        return {**self.counts(), "percent": round(self.percent(), 1)}


@dataclass(frozen=True)
class Coverage:
    #: the seed rules
    seed: Part
    #: the rules outside the seeds, counted apart
    outside: Part
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

        def part(outside: bool) -> Part:
            return Part(outside, tuple(
                _rule(rule, showing, catching) for rule in corpus.records(outside=outside)
                if wanted is None or rule.edition in wanted))

        return cls(part(False), part(True), tuple(sorted(unknown)))

    @property
    def parts(self) -> tuple[Part, Part]:
        return (self.seed, self.outside)

    @property
    def rules(self) -> tuple[RuleCoverage, ...]:
        """Every rule of both parts: the seed rules, then the rules outside the seeds."""
        return self.seed.rules + self.outside.rules

    def rule(self, ref: str) -> RuleCoverage:
        """The coverage of one rule of either part.

        :raises KeyError: no such rule among those counted (another edition, or no rule).
        """
        found = next((r for r in self.rules if r.ref == ref), None)
        if found is None:
            raise KeyError(f"{ref} is not among the rules counted")
        return found

    def to_json(self) -> dict[str, Any]:
        """``summary``: the seed rules; ``summary_outside``: the rules outside the seeds; a
        section and a rule say which part it is of (``outside``)."""
        return {"summary": self.seed.summary(),
                "summary_outside": self.outside.summary(),
                "sections": [{"edition": e, "section": s, "outside": part.outside, **c}
                             for part in self.parts for e, s, c in part.by_section()],
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
        outside=rule.outside,
    )


def _section_key(item: tuple[tuple[str, str], Any]) -> tuple[str, int]:
    (edition, section), _ = item
    return (edition, int(section) if section.isdigit() else 0)
