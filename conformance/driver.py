"""One game against one engine, through the protocol: the one driver that the case runner, the
fuzzer, ``mtgconf fuzz replay`` and ``mtgconf smoke`` play games on.

``GameDriver`` starts a game (``new_game``, then every opening hand the engine asks about
kept, unless the game is about them), names objects and follows them (``Handles``: the ids
``new_game`` and ``bind`` give, followed through ``zone_change`` events, incarnations
included), translates an action written with handles and card names into the protocol's, pays
it in the form the engine declared, performs it, advances by passing, and observes.

**Watching.** A driver made with ``watch=True`` observes after every action it performs (the
events read at once, each player's view every ``views_every`` actions) and returns each step
as a ``Played``: before, action, after, events, views. An ``Observer`` given to a driver (it
watches then) is told of the start, of every step and of every call that failed: the fuzzer's
invariants watch a game so, whoever plays it (the fuzzer's ``Play``, or the case runner under
``mtgconf fuzz replay``). A driver that does not watch makes no call its caller did not need:
the events are read when the caller follows the handles, the game is observed when asked.

**Advancing** passes priority and ends declarations with ``done`` until a target (a turn, a
step, the end of the game) holds. What it does at any other pending decision is the caller's
explicit choice: ``FAIL`` (the case runner: a case says what a player decides) or ``ANSWER``
(``mtgconf smoke``: the driver answers as a player who wants nothing would).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from conformance.client import EngineClient
from conformance.errors import CallFailed, EngineRejected
from conformance.handles import Handles, translate
from conformance.protocol import BAD_REQUEST, ILLEGAL_ACTION, ILLEGAL_SETUP, PLAYERS, EngineInfo

Action = dict[str, Any]
Observation = dict[str, Any]

#: actions an advance takes before it gives up
MAX_ADVANCE = 500
#: the pending decisions at which an advance fails (the case runner) or answers (smoke)
FAIL: Literal["fail"] = "fail"
ANSWER: Literal["answer"] = "answer"
Decisions = Literal["fail", "answer"]
#: opening-hand decisions the driver keeps when the game is not about them
_OPENING = ("mulligan",)
#: decisions an advance ends with ``done``: no attacker, no blocker declared
_DECLARATIONS = ("declare_attackers", "declare_blockers")
#: an engine rejects an action it takes for illegal, or malformed (an object that does not
#: exist); either way it must leave the game as it was
_REJECTIONS = (ILLEGAL_ACTION, BAD_REQUEST)


@dataclass(frozen=True)
class Started:
    """A game's start: the setup, the ids ``new_game`` gave, or its refusal; when watching,
    the game as it stands once the opening hands are kept, with the events so far."""

    setup: dict[str, Any]
    handles: dict[str, Any]
    refused: EngineRejected | None = None  # illegal_setup
    after: Observation | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    views: dict[str, Observation] | None = None


@dataclass(frozen=True)
class Played:
    """One action performed: as the engine received it, whether it came from ``legal_actions``
    (``listed``) and what they were (``legal``: when the caller or the observer listed them
    first), and the engine's rejection if it rejected it (``illegal_action`` or
    ``bad_request``); when watching, the game before and after, the events and the views."""

    action: Action
    listed: bool
    legal: list[Action] | None = None
    rejected: EngineRejected | None = None
    before: Observation | None = None
    after: Observation | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    views: dict[str, Observation] | None = None


class Observer(Protocol):
    """What watches a game through a driver (the fuzzer's invariants under replay, smoke)."""

    #: each player's view is observed every this many actions (0: never)
    views_every: int
    #: the legal actions are listed before each action, for the observer to see
    wants_legal: bool

    def started(self, start: Started) -> None: ...

    def played(self, step: Played) -> None: ...

    def failed(self, action: Action | None, error: CallFailed) -> None:
        """A call failed (the action being performed, None at the start); it is raised next."""


class Rejected(Exception):
    """An action the game needed accepted was rejected as ``illegal_action``: an opening hand
    kept, a pass or a ``done`` while advancing, a source's mana ability activated to pay from
    the pool."""

    def __init__(self, action: Action, error: EngineRejected) -> None:
        super().__init__(f"{show(action)} ({error.reason}): {error.detail}")
        self.action = action
        self.error = error

    def describe(self, template: str) -> str:
        """``template`` (naming ``{action}``) with the engine's reason and message."""
        return f"{template.format(action=show(self.action))} ({self.error.reason}): " \
            f"{self.error.detail}"


class Unreached(Exception):
    """An advance stopped short of its target: the game ended (``over``), went past it
    (``past``), waits for a decision the advance does not answer (``decision``), or nobody
    has priority (``stuck``); or the actions ran out (``limit``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class UnknownHandles(Exception):
    """``new_game`` gave no id for handles the game names."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(f"the engine returned no id for handle {', '.join(missing)}")
        self.missing = missing


class GameDriver:
    """One engine connection's current game, played through the protocol."""

    def __init__(self, client: EngineClient, info: EngineInfo, edition: str, *,
                 watch: bool = False, views_every: int = 0,
                 observer: Observer | None = None) -> None:
        self.client = client
        self.info = info
        self.edition = edition
        self.capabilities = frozenset(info.capabilities)
        self.observer = observer
        self.watch = watch or observer is not None
        every = observer.views_every if observer is not None else views_every
        self.views_every = every if "observe.view" in self.capabilities else 0
        self.listing = observer is not None and observer.wants_legal and \
            "actions.legal" in self.capabilities
        self.follows = "observe.events" in self.capabilities
        self.handles = Handles({})
        #: when watching: the game as the last action left it
        self.observation: Observation = {}
        #: actions performed in this game, accepted or not
        self.steps = 0
        #: the last action sent to the engine, answered or not (what a failed call was about)
        self.last_action: Action | None = None
        self._unread = False  # actions performed since the events were last read

    # ---- starting ----

    def start(self, setup: dict[str, Any], *, keep: bool = True,
              named: frozenset[str] | None = None) -> Started:
        """Start a game. ``keep``: keep every opening hand the engine asks about (a game
        that is not about mulligans); ``named``: the handles to follow (default: every one
        ``new_game`` gave).

        :raises EngineRejected: the engine refused the setup (``illegal_setup``: the
            observer is told first) or answered another error.
        :raises UnknownHandles: ``new_game`` gave no id for a handle in ``named``.
        :raises Rejected: the engine rejected the keeping of a hand.
        """
        self.steps = 0
        self.last_action = None
        self.observation = {}
        self._unread = False
        self.handles = Handles({})
        try:
            ids = self.client.new_game(self.edition, setup)
        except EngineRejected as exc:
            if exc.type == ILLEGAL_SETUP:
                if self.observer is not None:
                    self.observer.started(Started(setup, {}, exc))
            else:
                self._failed(None, exc)
            raise
        except CallFailed as exc:
            self._failed(None, exc)
            raise
        wanted = set(ids) if named is None else set(named)
        missing = sorted(wanted - set(ids))
        if missing:
            raise UnknownHandles(missing)
        self.handles = Handles({h: ids[h] for h in sorted(wanted)})
        try:
            if self.handles.current and "observe.incarnation" in self.capabilities:
                self.handles.note_incarnations(self.client.observe())
            if keep and "start" in setup:
                self._keep_opening_hands()
            if not self.watch:
                return Started(setup, ids)
            events = self._read_events()
            self.observation = self.client.observe()
            views = self._views()
        except CallFailed as exc:
            self._failed(None, exc)
            raise
        started = Started(setup, ids, None, self.observation, events, views)
        if self.observer is not None:
            self.observer.started(started)
        return started

    def _keep_opening_hands(self) -> None:
        for _ in range(2 * len(PLAYERS)):
            pending = self.client.observe().get("pending")
            if not isinstance(pending, dict) or pending.get("decision") not in _OPENING:
                return
            keep = {"action": "keep", "player": pending.get("player")}
            self.last_action = keep
            try:
                self.client.perform(keep)
            except EngineRejected as exc:
                if exc.type != ILLEGAL_ACTION:
                    raise
                raise Rejected(keep, exc) from None
            self._unread = True

    # ---- actions ----

    def translate(self, action: Action, observation: Observation | None = None, *,
                  keep_ids: bool = False) -> Action:
        """An action written with handles and card names, in the protocol's terms (its
        ``pay_with`` as sources for ``pay``); ``observation``: the game now, if the caller has
        it (else it is observed when a card name needs it). ``keep_ids``: a reference that
        is no handle is an engine id.

        :raises UnknownReference: no object of that name where the action looks.
        """
        return translate(action, self.handles,
                         (lambda: observation) if observation else self.client.observe,
                         keep_ids=keep_ids)

    def pay(self, action: Action, form: str | None) -> Action:
        """The action with its named sources (``pay_with`` as ``translate`` gives it) in the
        engine's form: their ids (``sources``), ``"auto"`` (``auto``), or else (``pool``)
        each source's mana ability activated first, as an action, and the action paid from
        the pool. A ``pay_with`` already in the protocol's form (``"auto"``) is left as is.

        :raises Rejected: the engine rejected the activation of a source.
        """
        if not isinstance(action.get("pay_with"), list):
            return action
        sources = action.pop("pay_with")
        if form == "sources":
            action["pay_with"] = [s["card"] for s in sources]
        elif form == "auto":
            action["pay_with"] = "auto"
        else:
            for source in sources:
                self._activate(action["player"], source)
        return action

    def _activate(self, player: str, source: dict[str, Any]) -> None:
        activate = {"action": "activate", "player": player, "card": source["card"],
                    "ability": source.get("ability", 0)}
        self.perform(activate)
        if "choice" in source:
            self.perform({"action": "choose", "player": player, "choice": source["choice"]})

    def act(self, action: Action, *, listed: bool = True,
            legal: list[Action] | None = None) -> Played:
        """Perform an action in the protocol's form. A rejection (``illegal_action``, or
        ``bad_request``) is the step's ``rejected``; ``legal``: the actions listed just
        before, if the caller listed them (else the driver lists them when its observer
        wants them).

        :raises CallFailed: any other error answer, a crash, a timeout, a broken message
            (the observer is told first).
        """
        before = self.observation if self.watch else None
        rejected: EngineRejected | None = None
        try:
            if legal is None and self.listing:
                legal = self.client.legal_actions()
            self.steps += 1
            self.last_action = action
            try:
                self.client.perform(action)
            except EngineRejected as exc:
                if exc.type not in _REJECTIONS:
                    raise
                rejected = exc
            self._unread = True
            if not self.watch:
                return Played(action, listed, legal, rejected)
            events = self._read_events()
            self.observation = self.client.observe()
            views = self._views()
        except CallFailed as exc:
            self._failed(action, exc)
            raise
        played = Played(action, listed, legal, rejected, before, self.observation, events,
                        views)
        if self.observer is not None:
            self.observer.played(played)
        return played

    def perform(self, action: Action, *, listed: bool = True,
                legal: list[Action] | None = None) -> Played:
        """``act`` for an action the game needs accepted.

        :raises Rejected: the engine rejected it as ``illegal_action``.
        :raises EngineRejected: it answered ``bad_request`` (or any ``CallFailed``).
        """
        played = self.act(action, listed=listed, legal=legal)
        if played.rejected is not None:
            if played.rejected.type != ILLEGAL_ACTION:
                raise played.rejected
            raise Rejected(action, played.rejected)
        return played

    # ---- advancing ----

    def advance(self, target: dict[str, Any], *, decisions: Decisions = FAIL,
                limit: int = MAX_ADVANCE) -> int:
        """Pass priority and end declarations with ``done`` until ``target`` holds:
        ``{"over": true}`` (the game ended), or ``turn``, ``step``, ``phase``, ``active``,
        ``priority`` values of the observation's turn (all of them). At another pending
        decision, ``decisions`` says: ``FAIL`` stops there, ``ANSWER`` answers it. The handles
        are followed once a turn target is reached. Returns the actions taken.

        :raises Unreached: the target cannot be reached (``Unreached.kind`` says why).
        :raises Rejected: the engine rejected a pass or a ``done``.
        """
        wanted = "the end of the game" if "over" in target else ", ".join(
            f"{k} {v}" for k, v in target.items())
        for taken in range(limit):
            observation = self.observation if self.watch else self.client.observe()
            raw_turn = observation.get("turn")
            turn: dict[str, Any] = raw_turn if isinstance(raw_turn, dict) else {}
            result = observation.get("result") or {}
            over = isinstance(result, dict) and bool(result.get("over"))
            if target == {"over": True} and over:
                return taken
            if "over" not in target and all(
                    turn.get("number" if k == "turn" else k) == v for k, v in target.items()):
                self.follow()
                return taken
            if over:
                raise Unreached("over", f"the game ended ({result.get('reason')}) before "
                                f"reaching {wanted}")
            if "turn" in target and isinstance(turn.get("number"), int) \
                    and turn["number"] > target["turn"]:
                raise Unreached("past", f"the game is at turn {turn['number']}, past {wanted}")
            self.perform(self._next(observation, turn, wanted, decisions))
        raise Unreached("limit", f"did not reach {wanted} within {limit} actions")

    def _next(self, observation: Observation, turn: dict[str, Any], wanted: str,
              decisions: Decisions) -> Action:
        """The pass, ``done`` or (``ANSWER``) answer that advances the game from here."""
        where = f"turn {turn.get('number')} {turn.get('step')}"
        pending = observation.get("pending")
        if isinstance(pending, dict):
            decision, player = pending.get("decision"), pending.get("player")
            if decision in _DECLARATIONS:
                return {"action": "done", "player": player}
            answer = _answer(observation, pending) if decisions == ANSWER else None
            if answer is None:
                raise Unreached("decision", f"stopped at {where}: player {player} must "
                                f"decide {decision} before reaching {wanted}")
            return answer
        if turn.get("priority") in PLAYERS:
            return {"action": "pass", "player": turn["priority"]}
        raise Unreached("stuck", f"stopped at {where}: nobody has priority and no decision "
                        "is pending")

    # ---- observing ----

    def observe(self, player: str | None = None) -> Observation:
        """The game now (``player``: what that player may see), observed afresh."""
        return self.client.observe(player)

    def views(self) -> dict[str, Observation]:
        """What each player sees now."""
        return {name: self.client.observe(name) for name in PLAYERS}

    def legal(self) -> list[Action]:
        return self.client.legal_actions()

    def follow(self) -> None:
        """Follow the handles through the events of the actions performed since the last
        look (when the engine reports events and something has a handle)."""
        if self._unread and self.follows and self.handles.current:
            self._read_events()

    def _read_events(self) -> list[dict[str, Any]]:
        self._unread = False
        if not self.follows:
            return []
        events = self.client.events()
        self.handles.follow(events)
        return events

    def _views(self) -> dict[str, Observation] | None:
        if not self.views_every or self.steps % self.views_every:
            return None
        return self.views()

    def _failed(self, action: Action | None, error: CallFailed) -> None:
        if self.observer is not None:
            self.observer.failed(action, error)


def _answer(observation: Observation, pending: dict[str, Any]) -> Action | None:
    """What a player who wants nothing answers: keep a hand, discard the first card, take
    the first option a decision shows; None where it cannot tell."""
    player, decision = pending.get("player"), pending.get("decision")
    if decision in _OPENING:
        return {"action": "keep", "player": player}
    if decision == "discard":
        players = observation.get("players")
        state = players.get(player) if isinstance(players, dict) else None
        hand = state.get("hand") if isinstance(state, dict) else None
        first = hand[0] if isinstance(hand, list) and hand else None
        if isinstance(first, dict) and "id" in first:
            return {"action": "discard", "player": player, "card": first["id"]}
        return None
    options = pending.get("options")
    if isinstance(options, list) and options:
        return {"action": "choose", "player": player, "choice": options[0]}
    return None


def show(value: Any) -> str:
    """A value in a message: JSON, cut at 200 characters."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 200 else text[:200] + "..."
