"""What the report says, worked out in plain Python: statuses per rule and engine, the
headline figures, the changes against a baseline and the readable diff of a failed check. The
templates only lay these out. What a result is (its statuses, their counts, the roll-up per
rule, the command that reruns it) is the harness's results contract,
``conformance.resultsfile``, which this module uses as it is.

>>> cell([passed, failed])          # doctest: +SKIP
Cell(status='fail', ran=2, passed=1, skipped=0)
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.resultsfile import UNEXPECTED, Record, Results, counts

#: a results file's statuses, worst first: a rule's cell shows the worst of its results
WORST_FIRST = ("fail", "crash", "timeout", "error", "flaky", "xpass", "xfail", "pass", "skip")
#: outcomes (before expectations) that show the engine did not do what the rule says
BAD_OUTCOMES = frozenset({"fail", "error", "crash", "timeout", "flaky"})
#: how each status is shown: a symbol and a word, never a colour alone
SYMBOLS = {"pass": "✓", "xpass": "✓", "fail": "✗", "xfail": "✗", "error": "!", "crash": "!",
           "timeout": "!", "flaky": "≈", "skip": "–", "none": "·"}
WORDS = {"xfail": "known fail", "xpass": "unexpected pass", "none": "no case"}
TESTABLE = ("engine", "card-data")
STDERR_LINES = 40
STDERR_CHARS = 4000


def word(status: str) -> str:
    return WORDS.get(status, status)


def slug(text: str, limit: int = 60) -> str:
    """A file name for ``text``: kept as it is when it is safe, otherwise cleaned and given a
    short hash so that two texts never share a name."""
    clean = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:limit]
    if clean == text:
        return clean
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{clean}-{digest}" if clean else digest


# ---- a rule's results ----

@dataclass(frozen=True)
class Cell:
    """How an engine did on a rule: the worst status of the results citing it in its own
    edition (``none``: no result cites it; ``skip``: every one was skipped)."""

    status: str
    ran: int = 0
    passed: int = 0
    skipped: int = 0

    @property
    def symbol(self) -> str:
        return SYMBOLS[self.status]

    @property
    def word(self) -> str:
        return word(self.status)

    @property
    def conforms(self) -> bool:
        """Every result that ran passed (the engine's own outcome), and one ran."""
        return self.ran > 0 and self.passed == self.ran

    @property
    def label(self) -> str:
        if self.status in ("none", "skip"):
            return self.word
        return f"{self.word} {self.passed}/{self.ran}"


def cell(records: Sequence[Record]) -> Cell:
    if not records:
        return Cell("none")
    ran = [r for r in records if r.status != "skip"]
    if not ran:
        return Cell("skip", skipped=len(records))
    status = next(s for s in WORST_FIRST if any(r.status == s for r in ran))
    return Cell(status, ran=len(ran), passed=sum(r.outcome == "pass" for r in ran),
                skipped=len(records) - len(ran))


@dataclass(frozen=True)
class Headline:
    """An engine's figures in one edition (or all its editions)."""

    counts: Mapping[str, int]
    total: int
    unexpected: int
    rules_due: int  # testable rules of the edition that do not wait for a card
    rules_tested: int  # of those, cited by a result that ran
    rules_passed: int  # of those, every result that ran passed

    @property
    def rules_failed(self) -> int:
        """Tested rules of which a result that ran did not pass."""
        return self.rules_tested - self.rules_passed

    @property
    def rules_untested(self) -> int:
        """Rules no result that ran cites: neither passed nor failed."""
        return self.rules_due - self.rules_tested

    @property
    def figures(self) -> str:
        """The headline: rules passed, failed and untested, apart (a share of all the
        testable rules would mix an untested rule with a failed one)."""
        return (f"{self.rules_passed} passed, {self.rules_failed} failed, "
                f"{self.rules_untested} untested")

    @property
    def percent(self) -> float:
        """Rules passed, of the testable rules that do not wait: the headline figure."""
        return 100.0 * self.rules_passed / self.rules_due if self.rules_due else 0.0

    @property
    def tested_percent(self) -> float:
        return 100.0 * self.rules_tested / self.rules_due if self.rules_due else 0.0


def due_rules(corpus: Any, editions: Iterable[str], *, outside: bool = False) -> list[Any]:
    """The testable rules of ``editions`` that do not wait for a card, of one part of the
    corpus (the seed rules, or with ``outside`` the rules outside the seeds): the
    denominator."""
    wanted = set(editions)
    return [r for r in corpus.records(outside=outside) if r.edition in wanted
            and r.testability["class"] in TESTABLE and not r.testability.get("waits")]


def headline(engine: str, records: Sequence[Record], rule_records: Mapping[tuple[str, str],
             list[Record]], corpus: Any, editions: Iterable[str], *,
             outside: bool = False) -> Headline:
    """The engine's figures over one part of the corpus (``outside``: the rules outside the
    seeds; the results counted are the same, the rules passed are the part's)."""
    due = due_rules(corpus, editions, outside=outside)
    cells = [cell(rule_records.get((engine, r.ref), [])) for r in due]
    return Headline(counts=counts(r.status for r in records), total=len(records),
                    unexpected=sum(r.status in UNEXPECTED for r in records),
                    rules_due=len(due), rules_tested=sum(c.ran > 0 for c in cells),
                    rules_passed=sum(c.conforms for c in cells))


def mutation_score(mutants: Iterable[Any]) -> tuple[int, int]:
    """Killed, and killed plus survived (mutants that could not be run do not count)."""
    chosen = [m for m in mutants if m.status in ("killed", "survived")]
    return sum(m.status == "killed" for m in chosen), len(chosen)


# ---- what changed against a baseline ----

@dataclass(frozen=True)
class Change:
    engine: str
    case_id: str
    edition: str
    before: str | None  # the status before (None: the case run is new)
    after: str | None  # the status now (None: the case run is gone)
    kind: str  # regression, fixed, now-skipped, now-runs, changed, new, gone

    @property
    def text(self) -> str:
        before, after = self.before or "absent", self.after or "absent"
        return f"{self.edition}::{self.case_id}: {before} → {after}"


CHANGE_ORDER = ("regression", "fixed", "new", "changed", "now-skipped", "now-runs", "gone")
CHANGE_TITLES = {"regression": "newly failing", "fixed": "newly passing",
                 "new": "new case runs failing", "changed": "failing differently",
                 "now-skipped": "now skipped", "now-runs": "now run", "gone": "no longer run"}


def _kind(before: Record, after: Record) -> str | None:
    if before.status == after.status and before.outcome == after.outcome:
        return None
    was, now = before.outcome, after.outcome
    if now == "skip":
        return "now-skipped" if was != "skip" else None
    if was == "skip":
        return "now-runs" if now == "pass" else "regression"
    if now in BAD_OUTCOMES and was not in BAD_OUTCOMES:
        return "regression"
    if was in BAD_OUTCOMES and now not in BAD_OUTCOMES:
        return "fixed"
    return "changed"


def changes(current: Sequence[Record], baseline: Sequence[Record],
            baseline_engines: Sequence[str]) -> list[Change]:
    """Case runs whose result changed. Records are matched by engine, case and edition; an
    engine the baseline does not know is compared with the baseline's only engine, if it has
    just one (the same engine given another way)."""
    before = {r.key: r for r in baseline}
    engines = {r.engine for r in current}
    alias = {e: e for e in engines}
    if len(baseline_engines) == 1:
        alias.update({e: baseline_engines[0] for e in engines if e not in baseline_engines})
    found = []
    seen = set()
    for record in current:
        key = (alias[record.engine], record.case_id, record.edition)
        seen.add(key)
        old = before.get(key)
        if old is None:
            if record.outcome in BAD_OUTCOMES:
                found.append(Change(record.engine, record.case_id, record.edition, None,
                                    record.status, "new"))
            continue
        kind = _kind(old, record)
        if kind is not None:
            found.append(Change(record.engine, record.case_id, record.edition, old.status,
                                record.status, kind))
    compared = set(alias.values())
    for key, old in before.items():
        if key not in seen and old.engine in compared:
            found.append(Change(old.engine, old.case_id, old.edition, old.status, None, "gone"))
    return sorted(found, key=lambda c: (CHANGE_ORDER.index(c.kind), c.engine, c.case_id,
                                        c.edition))


# ---- a failed result ----

@dataclass(frozen=True)
class DiffLine:
    kind: str  # same, expected (only in what was expected), observed (only in what was seen)
    text: str

    @property
    def mark(self) -> str:
        return {"same": " ", "expected": "-", "observed": "+"}[self.kind]


def _lines(value: Any) -> list[str]:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True).splitlines()


def diff(expected: Any, observed: Any) -> list[DiffLine]:
    """Expected against observed, line by line of their JSON: ``-`` expected, ``+``
    observed."""
    old, new = _lines(expected), _lines(observed)
    out: list[DiffLine] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new,
                                                      autojunk=False).get_opcodes():
        if tag == "equal":
            out += [DiffLine("same", line) for line in old[i1:i2]]
            continue
        out += [DiffLine("expected", line) for line in old[i1:i2]]
        out += [DiffLine("observed", line) for line in new[j1:j2]]
    return out


def tail(text: str, lines: int = STDERR_LINES, chars: int = STDERR_CHARS) -> tuple[str, bool]:
    """The end of ``text`` (an engine's stderr), and whether anything was cut."""
    kept = "\n".join(text.rstrip("\n").splitlines()[-lines:])[-chars:]
    return kept, len(kept) < len(text.rstrip("\n"))


def engine_label(spec: str, info: Mapping[str, Any] | None) -> str:
    """How an engine is named: its declared name and version, or its spec."""
    if info:
        return f"{info['name']} {info['version']}"
    return spec


def run_of(runs: Sequence[Results], engine: str) -> Results:
    return next(r for r in runs if engine in r.engines)
