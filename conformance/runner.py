"""Running one case against one engine in one edition, to an ``Outcome``.

The runner never raises for anything an engine does: a check that does not hold is
``Failed`` (with the step, the path, expected and observed), an error answer or a broken
message is ``Errored``, a dead process ``Crashed``, a slow one ``TimedOut``, and what the
engine did not declare is ``Skipped`` before anything is sent.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NoReturn

from conformance import carddata, needs, observed, paths, standins
from conformance.case import Case, Step
from conformance.client import EngineClient
from conformance.driver import (
    FAIL,
    MAX_ADVANCE,
    GameDriver,
    Observer,
    Rejected,
    UnknownHandles,
    Unreached,
    show,
)
from conformance.errors import (
    CallFailed,
    EngineCrashed,
    EngineRejected,
    EngineTimedOut,
    InvalidResponse,
)
from conformance.handles import UnknownReference
from conformance.outcomes import (
    Crashed,
    Errored,
    Failed,
    Outcome,
    Passed,
    Skipped,
    TimedOut,
)
from conformance.protocol import ILLEGAL_ACTION, ILLEGAL_SETUP, RETIRED, UNSUPPORTED, EngineInfo
from conformance.session import EngineBroken, EngineSession
from conformance.settings import DEFAULT_CASE_TIMEOUT
from spec.standins import StandinClass

if TYPE_CHECKING:
    from conformance.trace import Tape

# A call that exists only because the engine declared a capability: answering it
# `unsupported` contradicts the declaration (an error, not a skip).
_DECLARED_BY = {"events": "observe.events", "legal_actions": "actions.legal"}


@dataclass(frozen=True, slots=True)
class RunOptions:
    case_timeout: float | None = DEFAULT_CASE_TIMEOUT
    max_advance: int = MAX_ADVANCE


class _Stop(Exception):
    """Ends a case early with an outcome."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome


def blockers(case: Case, edition: str, info: EngineInfo) -> list[str]:
    """Everything that keeps the engine from running this case (empty: it can run it): an
    edition, capabilities, a way to pay, cards and stand-in classes it did not declare."""
    if edition not in info.editions:
        return [f"edition {edition}"]
    found = [f"capability {c}" for c in sorted(case.needs - info.capabilities)]
    if case.payment is not None and case.payment.form_for(info.capabilities) is None:
        found.append(case.payment.describe())
    _, missing = standins.choose(case, edition, info)
    classes = standins.tokens(case)
    found += [f"card {c}" for c in missing if c not in classes]
    found += [f"stand-in {t} (any of {_members(classes[t], edition)})"
              for t in missing if t in classes]
    return found


def _members(cls: StandinClass, edition: str, shown: int = 3) -> str:
    members = cls.members(edition)
    more = ", or another with what it fixes" if len(members) > shown else ""
    return ", ".join(members[:shown]) + more


def skip_reason(case: Case, edition: str, info: EngineInfo) -> str | None:
    """Why the engine cannot run this case, or None: what it did not declare is never sent."""
    missing = blockers(case, edition, info)
    return describe_blockers(missing) if missing else None


def describe_blockers(missing: list[str]) -> str:
    if missing[0].startswith("edition "):
        return f"the engine does not support {missing[0]}"
    return f"the engine lacks {'; '.join(missing)}"


def run_case(case: Case, edition: str, session: EngineSession,
             options: RunOptions | None = None, *, observer: Observer | None = None,
             tape: Tape | None = None) -> Outcome:
    """The case's outcome on the engine; ``observer`` watches its game (``mtgconf fuzz
    replay``'s invariants: conformance.driver); ``tape`` records what goes over the wire
    (``conformance.trace``)."""
    options = options or RunOptions()
    session.tape = tape
    try:
        return _run_case(case, edition, session, options, observer, tape)
    finally:
        session.tape = None
        if session.client is not None:
            session.client.tape = None


def _run_case(case: Case, edition: str, session: EngineSession, options: RunOptions,
              observer: Observer | None, tape: Tape | None) -> Outcome:
    if session.info is None:
        return Errored(session.broken or "not run: the engine was not started")
    # What the engine cannot run is a skip even once the engine is out of the run.
    missing = blockers(case, edition, session.info)
    if missing:
        return Skipped(describe_blockers(missing), tuple(missing))
    if session.broken is not None:
        return Errored(session.broken)
    chosen, _ = standins.choose(case, edition, session.info)
    case = standins.resolve(case, chosen, edition, session.info)
    if tape is not None:
        tape.run()
    try:
        client = session.begin(options.case_timeout)
    except EngineBroken as exc:
        return Errored(str(exc))
    except EngineCrashed as exc:
        return Crashed(str(exc), exc.stderr)
    mark = client.transport.stderr_mark()
    case_run = _CaseRun(case, edition, client, session.info, options, observer)
    unusable = harness_failed = slipped = False
    try:
        case_run.run()
        outcome: Outcome = Passed()
    except _Stop as stop:
        outcome = stop.outcome
    except CallFailed as exc:
        outcome, unusable = case_run.call_failed(exc)
        # A protocol slip (an answer that is no response) costs its case and a restart, but
        # not a restart in a row: the engine answered, and the next hello shows it healthy.
        # Only crashes, hangs and failed restarts mark an engine broken.
        slipped = isinstance(exc, InvalidResponse)
    except Exception as exc:
        # A bug of the harness must not take the run down, nor count against the engine:
        # it is reported as the harness's own error, with its traceback.
        outcome = Errored(f"{case_run.where()}internal error of the harness: "
                          f"{type(exc).__name__}: {exc}", internal=True,
                          traceback="".join(traceback.format_exception(exc)[-12:]))
        harness_failed = True
    if not isinstance(outcome, Passed | Skipped):
        outcome = _with_stderr(outcome, client.transport.stderr_since(mark))
    # After a harness error the connection may be mid-conversation: start afresh, without
    # counting it as the engine's restart.
    session.end(unusable=unusable or harness_failed, blame=not harness_failed, slipped=slipped)
    return outcome


def _with_stderr(outcome: Outcome, stderr: str) -> Outcome:
    if not stderr or not isinstance(outcome, Failed | Errored | Crashed | TimedOut) \
            or outcome.stderr:
        return outcome
    return replace(outcome, stderr=stderr)


class _CaseRun:
    """One case run against an engine under one edition: its game, step by step, played on
    the game driver (``conformance.driver``)."""

    def __init__(self, case: Case, edition: str, client: EngineClient, info: EngineInfo,
                 options: RunOptions, observer: Observer | None = None) -> None:
        self.case = case
        self.edition = edition
        self.info = info
        self.options = options
        self.step: Step | None = None
        self.game = GameDriver(client, info, edition, observer=observer)
        self.pay_form = (case.payment.form_for(info.capabilities)
                         if case.payment is not None else None)

    def where(self) -> str:
        return f"{self.step.describe()}: " if self.step is not None else "new_game: "

    def run(self) -> None:
        if self.case.steps[0].kind == "expect_illegal_setup":
            self._expect_illegal_setup(self.case.steps[0])
            return
        # A case that is not about mulligans keeps every opening hand the engine offers.
        keep = "actions.mulligan" not in self.case.needs
        try:
            self.game.start(self.case.setup, keep=keep, named=self.case.handles)
        except EngineRejected as exc:
            if exc.type != ILLEGAL_SETUP or "setup.legality" not in self.case.needs:
                raise
            # The setup names a format and the rules allow it: refusing it is the engine's
            # judgment of the rules, and a wrong one (a deck of 300 cards refused).
            raise _Stop(Failed(0, "new_game", "new_game: the engine refused a setup the "
                               f"rules allow, as illegal_setup: {exc.detail}", None,
                               None, None, self.case.line)) from None
        except UnknownHandles as exc:
            raise _Stop(Errored(f"new_game: {exc}")) from None
        except Rejected as exc:
            raise _Stop(Failed(0, "do", exc.describe(
                "new_game: the engine rejected {action} for its pending mulligan "
                "decision"))) from None
        tape = self.game.client.tape
        self._as_declared()
        for step in self.case.steps:
            self.step = step
            if tape is not None:
                tape.step(step)
            getattr(self, f"_{step.kind}")(step)

    def _as_declared(self) -> None:
        """Hold the engine to its cards' declared characteristics (protocol 1.2): on a
        battlefield of cards all declared without rules text (nothing there changes another),
        each object shows what its card was declared to be, or the case fails as the
        engine's own fault."""
        if not self.info.card_data or not self.case.setup.get("battlefield"):
            return
        everything = self.game.observe().get("battlefield") or []
        declared = {id(o): self.info.facts(self.edition, str(o.get("card"))) for o in everything}
        if any(d is None or d.get("has_text", True) for d in declared.values()):
            return
        # Counters change power and toughness, as rules, not as the card's characteristics.
        for obj in everything:
            facts = declared[id(obj)]
            if facts is None or obj.get("counters"):
                continue
            wrong = carddata.mismatches(facts, obj)
            if wrong:
                raise _Stop(Failed(0, "new_game", f"new_game: the engine declared {obj['card']} "
                                   f"(card_data) otherwise than it shows it on the battlefield: "
                                   f"{'; '.join(wrong)}: its declaration or its game is wrong",
                                   None, None, None, self.case.line))

    # ---- steps ----

    def _do(self, step: Step) -> None:
        action = self._pay(step, self._translate(step, step.value))
        self._accepted(step, action, "the engine rejected {action} as illegal",
                       needs.rule_action(step.value, self.case.handle_cards))
        self.game.follow()

    def _pay(self, step: Step, action: dict[str, Any]) -> dict[str, Any]:
        """The action with its named sources (``pay_with``) in the engine's form: ids
        (``pay.sources``), ``"auto"`` (``pay.auto``), or activated first and paid from the pool
        (``pay.pool``: the driver activates each source's mana ability as an action; an
        activation answered ``unsupported`` fails the case, mana abilities being a rule)."""
        try:
            return self.game.pay(action, self.pay_form)
        except Rejected as exc:
            self._fail(step, exc.describe("paying from the pool, the engine rejected {action}"))
        except EngineRejected as exc:
            sent = self.game.last_action
            if sent is not None and sent.get("action") == "activate":
                self._rule_unsupported(step, sent, exc, "actions.mana")
            raise

    def _expect_illegal(self, step: Step) -> None:
        before = self.game.observe()
        action = self._pay(step, self._translate(step, step.value, before))
        try:
            played = self.game.act(action, listed=False)
        except EngineRejected as exc:
            self._rule_unsupported(step, action, exc,
                                   needs.rule_action(step.value, self.case.handle_cards))
            raise
        if played.rejected is None:
            self._fail(step, f"the engine accepted {show(action)}; it must be rejected as "
                       "illegal_action")
        if played.rejected.type != ILLEGAL_ACTION:
            raise played.rejected
        # The same state, whatever order the engine lists its unordered lists in this time.
        before, after = observed.canonical(before), observed.canonical(self.game.observe())
        if after != before:
            where, old, new = _difference(before, after)
            self._fail(step, f"the engine rejected the action but changed the state at "
                       f"{where}: before {show(old)}, after {show(new)}", where, old, new)
        self.game.follow()

    def _expect_illegal_setup(self, step: Step) -> None:
        """new_game must refuse the setup: the rules forbid it (the step says why)."""
        self.step = step
        if self.game.client.tape is not None:
            self.game.client.tape.step(step)
        try:
            self.game.start(self.case.setup, keep=False, named=frozenset())
        except EngineRejected as exc:
            if exc.type != ILLEGAL_SETUP:
                raise
            return
        self._fail(step, f"the engine started a game the rules forbid ({step.value}); "
                   "new_game must refuse it as illegal_setup")

    def _expect(self, step: Step) -> None:
        observation = self.game.observe(step.view)
        full = step.view is None
        for check in step.checks:
            try:
                value = paths.resolve(check.path, observation, self.game.handles.matches,
                                      full=full)
                paths.check(check.path, check.expected, value, full=full)
            except paths.Mismatch as exc:
                self._no_one_answer_decision(step, observation)
                message = str(exc)
                if check.path.handles and not self.game.follows and \
                        not isinstance(exc, paths.HiddenCards):
                    message += (" (the engine does not declare observe.events, so handles are "
                                "not followed across zones)")
                self._fail(step, message, check.path.text, _plain(exc.expected),
                           _plain(exc.observed))

    def _bind(self, step: Step) -> None:
        """Name objects that play created or moved: each path must select one object."""
        observation = self.game.observe()
        for check in step.checks:
            try:
                found = paths.resolve(check.path, observation, self.game.handles.matches,
                                      full=True)
            except paths.Mismatch as exc:
                self._fail(step, str(exc), check.path.text)
            objects = found if isinstance(found, list) else [found]
            objects = [o for o in objects if isinstance(o, dict) and "id" in o]
            if len(objects) != 1:
                self._fail(step, f"{check.path.text} selects {len(objects)} objects; a bind "
                           "needs exactly one", check.path.text, 1, len(objects))
            # A trigger waiting to be ordered is no object: its id is the engine's own.
            self.game.handles.bind(str(check.expected), objects[0],
                                   follow=not check.path.text.startswith("pending."))

    def _advance(self, step: Step) -> None:
        try:
            self.game.advance(step.value, decisions=FAIL, limit=self.options.max_advance)
        except Unreached as exc:
            if exc.kind == "decision":
                self._no_one_answer_decision(step, self.game.observe())
            self._fail(step, str(exc))
        except Rejected as exc:
            self._fail(step, exc.describe("the engine rejected {action} while advancing"))

    def _accepted(self, step: Step, action: dict[str, Any], rejected: str,
                  rule: str | None = None) -> None:
        """Perform an action the case needs the engine to accept: an ``illegal_action``
        answer fails the case, with ``rejected`` (naming ``{action}``), the reason and
        the engine's message. An action that is a rule every engine follows (``rule``, a
        retired capability) fails it when answered ``unsupported`` too, rather than skip."""
        try:
            self.game.perform(action)
        except Rejected as exc:
            self._fail(step, exc.describe(rejected))
        except EngineRejected as exc:
            self._rule_unsupported(step, action, exc, rule)
            raise

    # ---- helpers ----

    def _rule_unsupported(self, step: Step, action: dict[str, Any], exc: EngineRejected,
                          rule: str | None) -> None:
        """An ``unsupported`` answer to an action every engine must take (``rule``, a name of
        ``protocol.RETIRED``) fails the case: the engine lacks a rule, not a capability."""
        if exc.type == UNSUPPORTED and rule is not None:
            self._fail(step, f"the engine answered {show(action)} unsupported ({exc.detail}); "
                       f"{RETIRED[rule]}, is no capability an engine may lack "
                       "(docs/protocol.md, Versions)")

    def _no_one_answer_decision(self, step: Step, observation: dict[str, Any]) -> None:
        """A case stopped by a pending decision that has only one possible answer meets a
        broken protocol, not a broken rule: an error (seen from the decision itself, or from
        the engine's own listing with ``actions.legal``)."""
        pending = observation.get("pending")
        if not isinstance(pending, dict):
            return
        why = observed.one_answer(pending, None)
        if why is None and "actions.legal" in self.info.capabilities:
            why = observed.one_answer(pending, self.game.legal())
        if why is not None:
            raise _Stop(Errored(f"{step.describe()}: the engine broke the protocol: {why}",
                                step=step.index))

    def _translate(self, step: Step, action: dict[str, Any],
                   observation: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            return self.game.translate(action, observation)
        except UnknownReference as exc:
            self._fail(step, str(exc))

    def _fail(self, step: Step, message: str, path: str | None = None, expected: Any = None,
              observed: Any = None) -> NoReturn:
        raise _Stop(Failed(step.index, step.kind, f"{step.describe()}: {message}", path,
                           expected, observed, step.line,
                           observation=self.game.client.last_observation))

    def call_failed(self, exc: CallFailed) -> tuple[Outcome, bool]:
        """The outcome of a call that failed, and whether the engine is unusable now."""
        where = self.where()
        index = self.step.index if self.step is not None else None
        if isinstance(exc, EngineCrashed):
            return Crashed(f"{where}{exc}", exc.stderr, index), True
        if isinstance(exc, EngineTimedOut):
            return TimedOut(exc.seconds, f"{where}{exc}", exc.stderr, index), True
        if isinstance(exc, EngineRejected) and exc.type == UNSUPPORTED:
            capability = _DECLARED_BY.get(exc.command)
            if exc.command == "observe" and self.step is not None and self.step.view:
                capability = "observe.view"
            if capability is None:
                return Skipped(f"the engine answered unsupported: {exc.detail}",
                               ("unsupported answer",)), False
            return Errored(f"{where}the engine declared {capability} but answered {exc}",
                           step=index), False
        return Errored(f"{where}{exc}", exc.stderr, index), isinstance(exc, InvalidResponse)


def _difference(before: Any, after: Any, where: str = "") -> tuple[str, Any, Any]:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            if before.get(key, paths.MISSING) != after.get(key, paths.MISSING):
                return _difference(before.get(key, paths.MISSING), after.get(key, paths.MISSING),
                                   f"{where}.{key}" if where else key)
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new:
                return _difference(old, new, f"{where}[{i}]")
    return where or "(top level)", _plain(before), _plain(after)


def _plain(value: Any) -> Any:
    return None if value is paths.MISSING else value
