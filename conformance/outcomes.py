"""What running one case against one engine in one edition gave: a closed set of frozen values.

A failure inside a case is data, not an exception. The runner returns an ``Outcome``
(``Passed``, ``Failed``, ``Errored``, ``Crashed``, ``TimedOut``, ``Skipped``); an expectations
file then turns an expected failure into ``XFailed`` and an unexpected pass into ``XPassed``.
Each value knows its status word, its one-line message and its structured detail (the
step, the path, expected and observed, the engine's stderr); ``conformance.resultsfile.Record``
adds what the result is about, as a line of ``results.json`` holds it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

STATUSES = ("pass", "fail", "error", "crash", "timeout", "skip", "xfail", "xpass", "flaky")
UNEXPECTED = frozenset({"fail", "error", "crash", "timeout", "xpass", "flaky"})
FAILURE_KINDS = ("fail", "error", "crash", "timeout")


@dataclass(frozen=True, slots=True)
class Passed:
    """Every step held."""

    status: ClassVar[str] = "pass"

    @property
    def message(self) -> str:
        return ""

    def detail(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True)
class Failed:
    """The engine behaved against the case: a step's check did not hold."""

    step: int
    step_kind: str
    message_text: str
    path: str | None = None
    expected: Any = None
    observed: Any = None
    line: int | None = None
    stderr: str = ""
    #: the last observation the engine gave before the check failed (the whole game there)
    observation: Any = None
    status: ClassVar[str] = "fail"

    @property
    def message(self) -> str:
        return self.message_text

    def detail(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "step_kind": self.step_kind}
        if self.line is not None:
            out["line"] = self.line
        if self.path is not None:
            out.update(path=self.path, expected=self.expected, observed=self.observed)
        if self.stderr:
            out["stderr"] = self.stderr
        if self.observation is not None:
            out["observation"] = self.observation
        return out


@dataclass(frozen=True, slots=True)
class Errored:
    """The adapter or the engine raised: an error answer, an invalid or schema-breaking
    message, or an engine out of the run (``not run``). ``internal``: the harness itself
    failed (a bug of mtg-conformance, never counted against the engine); ``traceback`` then
    says where."""

    message_text: str
    stderr: str = ""
    step: int | None = None
    internal: bool = False
    traceback: str = ""
    status: ClassVar[str] = "error"

    @property
    def message(self) -> str:
        return self.message_text

    def detail(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.step is not None:
            out["step"] = self.step
        if self.stderr:
            out["stderr"] = self.stderr
        if self.internal:
            out["internal"] = True
            out["traceback"] = self.traceback
        return out


@dataclass(frozen=True, slots=True)
class Crashed:
    """The engine's process died during the case."""

    message_text: str
    stderr: str = ""
    step: int | None = None
    status: ClassVar[str] = "crash"

    @property
    def message(self) -> str:
        return self.message_text

    def detail(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stderr": self.stderr} if self.stderr else {}
        if self.step is not None:
            out["step"] = self.step
        return out


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The engine did not answer within the case's time."""

    seconds: float
    message_text: str = ""
    stderr: str = ""
    step: int | None = None
    status: ClassVar[str] = "timeout"

    @property
    def message(self) -> str:
        return self.message_text or f"timed out after {self.seconds:g}s"

    def detail(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seconds": self.seconds}
        if self.stderr:
            out["stderr"] = self.stderr
        if self.step is not None:
            out["step"] = self.step
        return out


@dataclass(frozen=True, slots=True)
class Skipped:
    """The case was not run: the engine lacks an edition, a capability or a card, or
    answered ``unsupported``."""

    reason: str
    #: Each thing that kept the case from running ("capability setup.state", "edition
    #: cr2004", "card Time Walk", "unsupported answer"), for grouping skips by cause.
    blockers: tuple[str, ...] = ()
    status: ClassVar[str] = "skip"

    @property
    def message(self) -> str:
        return self.reason

    def detail(self) -> dict[str, Any]:
        return {"blockers": list(self.blockers)} if self.blockers else {}


Outcome = Passed | Failed | Errored | Crashed | TimedOut | Skipped


def same(a: Outcome, b: Outcome) -> bool:
    """Two runs of a case ended the same way (what a run reached, not how long it took)."""
    if a.status != b.status:
        return False
    if isinstance(a, Failed) and isinstance(b, Failed):
        return (a.step, a.path, a.expected, a.observed) == (b.step, b.path, b.expected,
                                                             b.observed)
    if isinstance(a, TimedOut | Crashed | Errored) and isinstance(b, type(a)):
        return a.step == b.step
    return True


@dataclass(frozen=True, slots=True)
class Flaky:
    """Runs of the same case (``--repeat``) ended differently: the engine is not
    deterministic, which is a finding whatever the expectations say."""

    outcomes: tuple[Outcome, ...]
    status: ClassVar[str] = "flaky"

    @property
    def message(self) -> str:
        seen = Counter(o.status for o in self.outcomes)
        first = next(o for o in self.outcomes if not same(o, self.outcomes[0]))
        return (f"{len(self.outcomes)} runs ended differently "
                f"({', '.join(f'{n} {s}' for s, n in seen.items())}): run 1 "
                f"{_said(self.outcomes[0])}; run {self.outcomes.index(first) + 1} "
                f"{_said(first)}")

    def detail(self) -> dict[str, Any]:
        return {"outcomes": [{"status": o.status, "message": o.message, **o.detail()}
                             for o in self.outcomes]}


def _said(outcome: Outcome) -> str:
    return f"{outcome.status}: {outcome.message}" if outcome.message else outcome.status


def repeated(outcomes: list[Outcome]) -> Outcome | Flaky:
    """The result of several runs of a case: the first if all ended the same way."""
    if all(same(o, outcomes[0]) for o in outcomes[1:]):
        return outcomes[0]
    return Flaky(tuple(outcomes))


@dataclass(frozen=True, slots=True)
class Expectation:
    """An engine author's word on a case: it is expected to end with ``status``."""

    status: str
    reason: str = ""
    link: str = ""

    def describe(self) -> str:
        text = f"expected {self.status}"
        if self.reason:
            text += f": {self.reason}"
        if self.link:
            text += f" ({self.link})"
        return text


@dataclass(frozen=True, slots=True)
class XFailed:
    """The case ended the way its expectation said it would."""

    outcome: Outcome
    expectation: Expectation
    status: ClassVar[str] = "xfail"

    @property
    def message(self) -> str:
        return f"{self.expectation.describe()}; {self.outcome.message}"

    def detail(self) -> dict[str, Any]:
        return {**self.outcome.detail(), **_expected(self.expectation)}


@dataclass(frozen=True, slots=True)
class XPassed:
    """The case passed although its expectation said it would not."""

    expectation: Expectation
    status: ClassVar[str] = "xpass"

    @property
    def message(self) -> str:
        return f"passed, but {self.expectation.describe()}"

    def detail(self) -> dict[str, Any]:
        return _expected(self.expectation)


@dataclass(frozen=True, slots=True)
class Unexpected:
    """A failure of another kind than the expectation said (strict: it counts as unexpected,
    with its own status)."""

    outcome: Outcome
    expectation: Expectation

    @property
    def status(self) -> str:
        return self.outcome.status

    @property
    def message(self) -> str:
        return f"{self.outcome.message} ({self.expectation.describe()}, got {self.status})"

    def detail(self) -> dict[str, Any]:
        return {**self.outcome.detail(), **_expected(self.expectation)}


Result = Outcome | Flaky | XFailed | XPassed | Unexpected


def _expected(expectation: Expectation) -> dict[str, Any]:
    # Not "expected": that is the value a failed check expected, which stays beside it.
    out = {"expected_status": expectation.status}
    if expectation.reason:
        out["expected_reason"] = expectation.reason
    if expectation.link:
        out["expected_link"] = expectation.link
    return out


def outcome_of(result: Result) -> str:
    """The status the engine itself earned, before expectations (for ``generate``)."""
    if isinstance(result, XFailed | Unexpected):
        return result.outcome.status
    if isinstance(result, XPassed):
        return "pass"
    return result.status


def is_unexpected(result: Result) -> bool:
    return result.status in UNEXPECTED


def apply(outcome: Outcome | Flaky, expectation: Expectation | None) -> Result:
    """Judge an outcome against the engine author's expectation (strict). A flaky case stays
    flaky: no expectation can make nondeterminism expected."""
    if expectation is None or isinstance(outcome, Skipped | Flaky):
        return outcome
    if isinstance(outcome, Passed):
        return XPassed(expectation)
    if outcome.status == expectation.status:
        return XFailed(outcome, expectation)
    return Unexpected(outcome, expectation)
