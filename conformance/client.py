"""The harness's side of one engine connection: numbered requests, typed results.

``EngineClient`` turns each call into a request envelope, hands it to the transport, checks
that the response answers that request, validates both under ``--validate-protocol``, and
raises ``EngineRejected`` for a typed error. Callers get plain results or a ``CallFailed``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from conformance import observed
from conformance.errors import EngineRejected, EngineTimedOut, InvalidResponse
from conformance.protocol import (
    Command,
    Events,
    LegalActions,
    NewGame,
    Observe,
    Perform,
)
from conformance.schemas import ProtocolValidator
from conformance.transports import Transport

if TYPE_CHECKING:
    from conformance.trace import Tape


class EngineClient:
    def __init__(self, transport: Transport, *, validate: bool = False) -> None:
        self.transport = transport
        self.validator = ProtocolValidator() if validate else None
        self.deadline: float | None = None  # time.monotonic() at which the case runs out
        self.budget: float | None = None
        self._next_id = 1
        #: seconds spent waiting on the transport, summed over calls (``mtgconf bench``'s
        #: harness overhead): one perf_counter pair per call is all it costs
        self.engine_seconds = 0.0
        #: protocol 1.2, observe.with_perform: each perform asks for the observation after it
        #: (and, with ``combine_events``, the events) in its answer, which the next observe
        #: (and events) then give without a call (set by the session after hello)
        self.combine = False
        self.combine_events = False
        self._after: dict[str, Any] | None = None  # the observation a perform answered with
        self._events: list[Any] = []  # events perform answers carried, not yet taken
        self._events_current = False  # nothing happened since the last answer's events
        # Asked for only while the caller takes them: a caller that performs action after
        # action without looking (``mtgconf bench``'s play) would pay for observations it
        # never reads. Asking again when it looks right after a perform.
        self._want_after = self._want_events = True
        self._just_performed = False
        #: the case's trace, when one is kept (``conformance.trace``)
        self.tape: Tape | None = None
        #: the last observation the engine gave (what a failed check shows beside its path)
        self.last_observation: dict[str, Any] | None = None

    def call(self, command: Command, *, timeout: float | None = None) -> dict[str, Any]:
        message = {"id": self._next_id, "command": command.name, "args": command.args()}
        self._next_id += 1
        if self.validator is not None:
            self.validator.check_request(message)
        limit = timeout if timeout is not None else self._remaining(command.name)
        tape = self.tape
        if tape is not None:
            tape.watch(self.transport)
            tape.sent(message)
        started = time.perf_counter()
        try:
            response = self.transport.exchange(message, limit)
        except Exception as exc:
            if tape is not None:
                tape.failed(exc)
            raise
        took = time.perf_counter() - started
        self.engine_seconds += took
        if tape is not None:
            tape.received(response, took)
        if response.get("id") != message["id"]:
            raise InvalidResponse(f"the response to {command.name} (id {message['id']}) has id "
                                  f"{response.get('id')!r}")
        if self.validator is not None:
            self.validator.check_response(command.name, response)
        if "error" in response:
            error = response["error"]
            if not isinstance(error, dict):
                raise InvalidResponse(f"the error answering {command.name} is not an object")
            raise EngineRejected(command.name, str(error.get("type")),
                                 str(error.get("message", "")), error.get("reason"))
        result = response.get("result")
        if not isinstance(result, dict):
            raise InvalidResponse(f"the response to {command.name} has neither a result object "
                                  "nor an error")
        return result

    def _remaining(self, command: str) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise EngineTimedOut(f"the case ran out of time before {command}",
                                 seconds=self.budget or 0.0)
        return left

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self._forget()
        handles = self.call(NewGame(edition, setup)).get("handles")
        if not isinstance(handles, dict):
            raise InvalidResponse("the new_game result has no handles object")
        return handles

    def legal_actions(self) -> list[dict[str, Any]]:
        return _list(self.call(LegalActions()), "actions", "legal_actions")

    def perform(self, action: dict[str, Any]) -> None:
        if not self.combine:
            self.call(Perform(action))
            return
        if self._after is not None:
            self._want_after = False  # the last one was not looked at
        if self._events_current:
            self._want_events = False
        self._after, self._events_current, self._just_performed = None, False, False
        observe = self._want_after or None
        events = (self.combine_events and self._want_events) or None
        result = self.call(Perform(action, observe=observe, events=events))
        self._just_performed = True
        # An answer without them is the engine's fault: the next calls ask instead.
        observation = result.get("observation") if observe else None
        if isinstance(observation, dict):
            self._after = observed.normalise(observation)
        if events:
            self._events.extend(_list(result, "events", "perform"))
            self._events_current = True

    def observe(self, player: str | None = None) -> dict[str, Any]:
        """The observation, with its type words spelt as the cards print them (the one place
        where observations enter the harness: the runner's checks and the fuzzer's invariants
        read one spelling, ``observed.normalise``). The one a perform answered with, if nothing
        happened since, is given once without a call."""
        if player is None:
            if self._after is not None:
                after, self._after = self._after, None
                self.last_observation = after
                return after
            if self._just_performed:
                self._want_after = True
        self._just_performed = False
        observation = self.call(Observe(player)).get("observation")
        if not isinstance(observation, dict):
            raise InvalidResponse("the observe result has no observation object")
        self.last_observation = observed.normalise(observation)
        return self.last_observation

    def events(self) -> list[dict[str, Any]]:
        """The events since the last call (those perform answers carried first)."""
        taken, self._events = self._events, []
        if self._events_current:
            self._events_current = False
            return taken
        if self._just_performed:
            self._want_events = True
        self._just_performed = False
        return taken + _list(self.call(Events()), "events", "events")

    def _forget(self) -> None:
        """A new game: what the last one's answers carried is of no use any more."""
        self._after, self._events, self._events_current = None, [], False
        self._just_performed = False


def _list(result: dict[str, Any], key: str, command: str) -> list[Any]:
    value = result.get(key)
    if not isinstance(value, list):
        raise InvalidResponse(f"the {command} result has no {key} list")
    return value
