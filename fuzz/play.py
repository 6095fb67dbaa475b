"""One game against one engine, through the protocol: what the fuzzer does and sees.

``Play`` starts a game from a setup, lists the legal actions, performs an action (accepted or
rejected), and turns each step into an invariants ``Transition`` (observation before and after,
events, each player's view). It keeps a ``Trace`` of what it did, and the handle of every
object whose card it can follow from the setup's decks (``shuffle: false`` decks name each
card: their ids come back from ``new_game`` and zone changes carry them on), so that a trace
can be written as a case file that names objects by handle.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.client import EngineClient
from conformance.driver import GameDriver, Rejected
from conformance.errors import CallFailed, EngineRejected
from conformance.needs import Payment
from conformance.protocol import ILLEGAL_SETUP, EngineInfo, copy_json
from fuzz import observations as ob
from fuzz.invariants import Transition

#: action fields that name one object, and those that name several
OBJECT_FIELDS = ("card", "attacker", "choice", "source")
OBJECT_LISTS = ("order",)
#: players' views are observed (and their invariants checked) every this many steps: the
#: whole observation, needed every step, costs as much as the engine's step itself
VIEWS_EVERY = 4
#: the first of the legal actions: the simplest ones, toward which examples shrink
_SIMPLE_FIRST: dict[str | None, int] = {"pass": 0, "done": 1, "keep": 2}


@dataclass
class TraceStep:
    action: dict[str, Any]
    rejected: str | None  # the error type and reason, if rejected
    listed: bool  # drawn from legal_actions
    #: the action with objects named by handle (None: an object had no handle)
    named: dict[str, Any] | None = None
    #: objects that appeared without a handle after this step (a token, or any object of an
    #: engine that does not report zone changes), each named by a path that selects it
    binds: dict[str, str] = field(default_factory=dict)
    #: where the game is after the step (``moment``): what an ``advance`` step stops at
    moment: dict[str, Any] | None = None


@dataclass
class Trace:
    edition: str
    setup: dict[str, Any]
    steps: list[TraceStep] = field(default_factory=list)
    #: objects without a handle at the start (a shuffled deck), named by path
    binds: dict[str, str] = field(default_factory=dict)
    #: where the game is once started (``moment``)
    start: dict[str, Any] | None = None


def moment(observation: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where a game is, in the fields an ``advance`` step can name (turn, step, active
    player); None when the game is over or the turn does not say."""
    turn = observation.get("turn")
    if not isinstance(turn, dict) or (observation.get("result") or {}).get("over"):
        return None
    found = {"turn": turn.get("number"), "step": turn.get("step"), "active": turn.get("active")}
    return found if None not in found.values() else None


class Play:
    """One game as the fuzzer plays it, on the harness's game driver (watching every step)."""

    def __init__(self, client: EngineClient, info: EngineInfo, edition: str, *,
                 views: bool = True, views_every: int = VIEWS_EVERY) -> None:
        self.info = info
        self.edition = edition
        self.capabilities = frozenset(info.capabilities)
        self.game = GameDriver(client, info, edition, watch=True,
                               views_every=max(1, views_every) if views else 0)
        self.trace: Trace | None = None
        self._bound = 0  # handles given by bind paths so far
        self._legal: list[dict[str, Any]] | None = None  # listed since the last step
        self.trigger_of: dict[Any, str] = {}  # pending trigger id -> handle
        self.seeded = True

    @property
    def observation(self) -> dict[str, Any]:
        """The game as the last step left it."""
        return self.game.observation

    @property
    def handle_of(self) -> Mapping[Any, str]:
        """Engine id -> the handle that names its object now."""
        return self.game.handles.by_id

    @property
    def steps(self) -> int:
        """Actions performed, accepted or not."""
        return self.game.steps

    # ---- starting ----

    def start(self, setup: dict[str, Any], *, keep: bool = True) -> Transition:
        """Start the game (``EngineRejected`` if the engine refuses the setup); with ``keep``
        every opening hand is kept, else the opening decisions are the game's first steps."""
        self.trace = Trace(self.edition, copy.deepcopy(setup))
        self._legal = None
        self.seeded = "start" in setup
        try:
            started = self.game.start(setup, keep=keep)
        except Rejected as exc:
            raise exc.error from None  # keeping a hand rejected: the engine's error
        self.trace.binds = self._bind_new()
        self.trace.start = moment(self.observation)
        return Transition(self.edition, self.capabilities, self.observation,
                          events=started.events, views=started.views, seeded=self.seeded,
                          setup=setup)

    def begin(self, setup: dict[str, Any], *, keep: bool = True, flaw: Any = None
              ) -> Transition:
        """``start``, or when the engine refuses the setup as illegal_setup a Transition that
        says so (only the setup's invariants apply to it); ``flaw``: why the setup is
        deliberately illegal, if it is (a ``strategies.Flaw``)."""
        try:
            transition = self.start(setup, keep=keep)
        except EngineRejected as exc:
            if exc.type != ILLEGAL_SETUP:
                raise
            transition = Transition(self.edition, self.capabilities, {}, setup=setup,
                                    refused=exc.reason or exc.detail or ILLEGAL_SETUP)
        return replace(transition, flaw=flaw)

    # ---- playing ----

    def legal(self) -> list[dict[str, Any]]:
        """The listed legal actions but concessions, the simplest first."""
        if self._legal is None:
            actions = [a for a in self.game.legal() if a.get("action") != "concede"]
            self._legal = sorted(actions, key=lambda a: _SIMPLE_FIRST.get(a.get("action"), 9))
        return self._legal

    def act(self, action: dict[str, Any], *, listed: bool,
            legal: list[dict[str, Any]] | None = None) -> Transition:
        self._legal = None
        named = self.name(action)
        assert self.trace is not None
        try:
            played = self.game.act(copy_json(action), listed=listed, legal=legal)
        except EngineRejected as exc:
            self.trace.steps.append(TraceStep(action, str(exc), listed, named))
            raise
        except CallFailed as exc:
            # The engine crashed, hung or broke the protocol on this action: it belongs to
            # the trace (the replay case ends with it).
            self.trace.steps.append(TraceStep(action, f"{type(exc).__name__}", listed, named))
            raise
        before = played.before or {}
        refusal = played.rejected
        rejected = None if refusal is None else \
            f"{refusal.type}: {refusal.reason or refusal.detail}"
        if named is not None and "pay_with" in named:
            if named["pay_with"] == "auto":
                sources = self.tapped_sources(before, action.get("player", ""))
                if sources is not None and self._taps_itself(before, action):
                    # An ability whose cost taps its own permanent (Icy Manipulator): that
                    # tap is the cost, not a payment of mana.
                    sources = [h for h in sources if h != named.get("card")]
                # The sources it tapped, which any engine can pay from; none it can name (its
                # pool paid, or a source without a handle): auto, the form it was driven in.
                named["pay_with"] = sources or "auto"
            else:
                handles = [self.handle_of.get(i) for i in named["pay_with"]]
                named = None if None in handles else {**named, "pay_with": handles}
        self.trace.steps.append(TraceStep(action, rejected, listed, named, self._bind_new(),
                                          moment(self.observation)))
        return Transition(self.edition, self.capabilities, self.observation, played.before,
                          action, rejected, played.events, legal, played.views, self.seeded,
                          listed)

    def redo(self, named: dict[str, Any], *, listed: bool, rejected: bool = False
             ) -> Transition:
        """Perform an action as a case writes it (objects by handle, ``pay_with`` naming the
        sources), paid in a form this engine declared: with ``pay.pool`` alone, the sources'
        mana abilities are activated first, as actions (not for an action that was
        ``rejected``: the activations would stay done)."""
        action = self.unname(named)
        if isinstance(action.get("pay_with"), list):
            form = Payment(illegal=rejected).form_for(self.capabilities)
            try:
                action = self.game.pay(action, form)
            except Rejected as exc:
                raise exc.error from None
        return self.act(action, listed=listed)

    def views(self) -> dict[str, dict[str, Any]]:
        """What each player sees now."""
        return self.game.views()

    # ---- handles ----

    def _bind_new(self) -> dict[str, str]:
        """Give each shown object without a handle one, named by a path that selects it in
        this observation: ``battlefield[card=Soldier][1]``."""
        binds: dict[str, str] = {}
        handles = self.game.handles
        for zone, owner, shown in ob.zones(self.observation):
            for position, obj in enumerate(shown):
                if obj.get("id") is None or handles.handle_for(obj) is not None:
                    continue  # nearly every object, every step: nothing more is asked of it
                # Its place among the zone's objects of its card that have an id.
                card = obj.get("card")
                index = sum(1 for other in shown[:position]
                            if other.get("id") is not None and other.get("card") == card)
                self._bound += 1
                handle = f"x{self._bound:02d}"
                where = f"players.{owner}.{zone}" if owner is not None else zone
                binds[handle] = f"{where}[card={card}][{index}]"
                handles.bind(handle, obj)
        # Triggered abilities waiting to be put on the stack in an order: ids of the engine's
        # own, in no object's namespace; named afresh at each such decision.
        self.trigger_of = {}
        pending = self.observation.get("pending") or {}
        counted: dict[Any, int] = {}
        for trigger in pending.get("triggers") or () if isinstance(pending, dict) else ():
            card = trigger.get("card")
            index = counted.get(card, 0)
            counted[card] = index + 1
            if trigger.get("id") is None:
                continue
            self._bound += 1
            handle = f"t{self._bound:02d}"
            binds[handle] = f"pending.triggers[card={card}][{index}]"
            self.trigger_of[trigger["id"]] = handle
            handles.bind(handle, {"id": trigger["id"]}, follow=False)
        return binds

    def name(self, action: dict[str, Any]) -> dict[str, Any] | None:
        """The action as a case writes it: objects named by handle, targets as handles or
        players; None if an object has no handle. ``pay_with: auto`` stays for ``act`` to
        replace with the sources the engine tapped."""
        named: dict[str, Any] = copy_json(action)
        for key in (*OBJECT_FIELDS, *OBJECT_LISTS):
            if key in named and key != "choice":
                named[key] = self._named(named[key])
        if "choice" in named:
            # What a choice names depends on the decision: an object, a trigger, or a
            # division of combat damage ([recipient, amount] pairs, amounts no ids).
            choice = named["choice"]
            decision = (self.observation.get("pending") or {}).get("decision")
            if decision == "order_triggers":
                if choice not in self.trigger_of:
                    return None
                named["choice"] = self.trigger_of[choice]
            elif decision == "assign_combat_damage" and isinstance(choice, list):
                named["choice"] = [[self._named(pair[0]), *pair[1:]] if isinstance(
                    pair, list) and pair else pair for pair in choice]
            else:
                named["choice"] = self._named(choice)
        if "targets" in named:
            targets = []
            for target in named["targets"] or ():
                if isinstance(target, dict) and "player" in target:
                    targets.append(target["player"])
                    continue
                handle = self.handle_of.get(target.get("object")) if isinstance(
                    target, dict) else None
                if handle is None:
                    return None
                targets.append(handle)
            named["targets"] = targets
        return named

    def _named(self, value: Any) -> Any:
        """An object id as its handle (every object shown has one: ``_bind_new``); any other
        value (a player, a colour, a number, true) as it is; lists element by element."""
        if isinstance(value, list):
            return [self._named(v) for v in value]
        if isinstance(value, int | str) and not isinstance(value, bool) and \
                value in self.handle_of and value not in ob.PLAYERS:
            return self.handle_of[value]
        return value

    def unname(self, named: dict[str, Any]) -> dict[str, Any]:
        """A case's action (objects by handle) in this engine's ids, as the harness translates
        it (an id that is no handle kept as it is); its ``pay_with`` still names sources
        (``redo`` pays)."""
        return self.game.translate(copy_json(named), self.observation, keep_ids=True)

    def _taps_itself(self, before: dict[str, Any], action: dict[str, Any]) -> bool:
        """An activation whose cost (as its card's text shows it) holds {T}."""
        from spec.cardpool import activated_abilities, default_pool

        if action.get("action") != "activate" or not isinstance(action.get("ability"), int):
            return False
        name = next((o.get("card") for o in before.get("battlefield") or ()
                     if o.get("id") == action.get("card")), None)
        card = default_pool().edition(self.edition).get(name) if name else None
        abilities = activated_abilities(card) if card is not None else ()
        index = action["ability"]
        return 0 <= index < len(abilities) and \
            "{T}" in abilities[index].text.split(":", 1)[0]

    def tapped_sources(self, before: dict[str, Any], player: str) -> list[str] | None:
        """The handles of the permanents of ``player`` that became tapped in the last step
        (the sources an engine paying by itself chose)."""
        was = {o.get("id"): o.get("tapped") for o in before.get("battlefield") or ()}
        found = []
        for obj in self.observation.get("battlefield") or ():
            if obj.get("controller") == player and obj.get("tapped") and \
                    was.get(obj.get("id")) is False:
                handle = self.handle_of.get(obj.get("id"))
                if handle is None:
                    return None
                found.append(handle)
        return found


def opens_with_decisions(steps: Iterable[Any]) -> bool:
    """The opening hands are decided by the steps (keep or mulligan), not kept at once."""
    return any(_action_of(step).get("action") in ("keep", "mulligan") for step in steps)


def _action_of(step: Any) -> dict[str, Any]:
    if isinstance(step, TraceStep):
        return step.action
    return next((step[k] for k in ("do", "expect_illegal") if isinstance(step, dict) and
                 isinstance(step.get(k), dict)), {})
