"""Cases that follow a handle across a zone change without requiring ``observe.events``
(``mtgconf cases lint --run``).

A handle names the object its setup gave it. With ``observe.events`` the harness follows it
through each ``zone_change`` into the object's new zone; without, it keeps the id ``new_game``
gave, which after the move names nothing (new ids) or the object's old incarnation (kept ids).
A case that names a handle after its object moved therefore runs right only on an engine with
events, and must say so (``requires: [observe.events]``), or, better, re-name the object after
the move: a ``bind`` step, or its card name.

Which cases do cannot be read from their shape without over-deriving (a land played from the
hand and never named again moved too, harmlessly), so this is found by running: each case
twice on one engine that reports events (the reference engine), once as the harness drives
such an engine and once as it drives an engine without events. The two runs send the same
requests unless a handle was followed (a followed id sent in an action); a check that read a
followed handle fails in the second. Either way the case depends on the events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from conformance.case import Case
from conformance.errors import Problem
from conformance.outcomes import Outcome
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession

EVENTS = "observe.events"


@dataclass(frozen=True, slots=True)
class _Run:
    outcome: Outcome
    requests: list[tuple[str, Any]]  # every request but events, without its id
    moved: list[str]  # handles whose object changed zones (from the events answered)


def followed_handles(cases: Iterable[Case], session: EngineSession,
                     options: RunOptions | None = None) -> list[Problem]:
    """A problem for each case (one edition) that names a handle after its object changed
    zones and does not require observe.events. ``session`` is a started engine that declares
    observe.events (the reference engine); a case it cannot run or that fails on it is not
    judged here."""
    info = session.info
    if info is None or EVENTS not in info.capabilities:
        raise ValueError("the engine must be started and declare observe.events")
    blind = replace(info, capabilities=info.capabilities - {EVENTS})
    options = options or RunOptions(case_timeout=30)
    problems: list[Problem] = []
    checked: set[str] = set()
    for case in cases:
        if EVENTS in case.requires or not case.handles or case.id in checked:
            continue
        checked.add(case.id)
        edition = next((e for e in case.editions if e in info.editions), None)
        if edition is None:
            continue
        following = _recorded(case, edition, session, options)
        if following.outcome.status != "pass":
            continue
        session.info = blind
        try:
            blindly = _recorded(case, edition, session, options)
        finally:
            session.info = info
        if blindly.outcome.status == "pass" and blindly.requests == following.requests:
            continue
        if blindly.outcome.status != "pass":
            how = f"fails there: {blindly.outcome.message}"
        else:
            how = "is sent other actions (the ids the handles had before they moved)"
        moved = f" (moved: {', '.join(following.moved)})" if following.moved else ""
        problems.append(Problem(
            str(case.file), f"[{edition}] names a handle after its object changed zones"
            f"{moved}, but does not require observe.events: an engine without events "
            f"{how}. Re-name the object after the move (a bind step, or its card name), or "
            "list observe.events in requires where following it is the rule", case.line,
            case.base_id, "steps"))
    return problems


def _recorded(case: Case, edition: str, session: EngineSession, options: RunOptions) -> _Run:
    """Run ``case`` and record what the harness sent and which handles moved."""
    if session.client is None:
        session.start()
    assert session.client is not None
    transport = session.client.transport
    sent: list[tuple[str, Any]] = []
    answers: list[tuple[str, dict[str, Any]]] = []
    exchange = transport.exchange

    def recording(message: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        response = exchange(message, timeout)
        if message["command"] != "events":
            sent.append((message["command"], message["args"]))
        answers.append((message["command"], response))
        return response

    transport.exchange = recording  # type: ignore[method-assign]
    try:
        outcome = run_case(case, edition, session, options)
    finally:
        transport.exchange = exchange  # type: ignore[method-assign]
    return _Run(outcome, sent, _moved(answers))


def _moved(answers: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The handles of new_game's answer whose object a zone_change of the events moved."""
    current: dict[str, Any] = {}
    moved: list[str] = []
    for command, response in answers:
        result = response.get("result")
        if not isinstance(result, dict):
            continue
        if command == "new_game" and isinstance(result.get("handles"), dict):
            current = dict(result["handles"])
        elif command == "events":
            for event in result.get("events") or ():
                if not isinstance(event, dict) or event.get("type") != "zone_change":
                    continue
                for handle, now in current.items():
                    if now == event.get("object"):
                        current[handle] = event.get("new_object")
                        if handle not in moved:
                            moved.append(handle)
    return moved
