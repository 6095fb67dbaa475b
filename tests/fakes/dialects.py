"""The protocol's dialects and the capability ablations, each one class in front of the
reference engine, named for what it does (docs/protocol.md, Dialects).

* A **dialect** speaks one variation the protocol allows a correct engine: type words in lower
  case, ids kept across zone changes, lists the protocol leaves unordered in another order,
  one form of payment only, ... (``DIALECTS``).
* An **ablation** withdraws one capability the reference engine declares, and behaves as an
  engine without it would: it refuses what it no longer declares (a ``bad_request``: the
  harness must never send it), omits the stack without ``observe.stack``, hides library cards
  without ``observe.library``, keeps opening hands itself without ``actions.mulligan``
  (``ABLATIONS``, one per capability, named ``Without`` and the capability).
* A **forbidden** dialect breaks a rule of the protocol on purpose: the suite must not pass it
  (``FORBIDDEN``).

The whole bundled suite gives only pass or skip under every dialect and every ablation
(``tests/test_dialects.py``): a case needs only what it declares and passes however the
protocol is spoken. Use one as ``--engine py:tests.fakes.dialects:LowerCaseTypes`` (or
``py:tests.fakes.dialects:WithoutObserveEvents``) from the repository root.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar

from conformance.needs import card_of, costs_mana, is_mana_ability
from conformance.protocol import PLAYERS
from conformance.schemas import PROTOCOL_DIR
from reference_engine.engine import CAPABILITIES, ReferenceEngine
from reference_engine.errors import BadRequestError, IllegalActionError, UnsupportedError
from spec.cardpool import activated_abilities

# ---- the wrapper ------------------------------------------------------------------------------


class Shim:
    """An engine in front of another (``INNER``, the reference engine by default): each call
    passes through one hook, which a dialect overrides."""

    INNER: ClassVar[Callable[[], Any]] = ReferenceEngine
    #: Every answer is built from the inner engine's fresh JSON values and shares nothing:
    #: the in-process harness takes it as it is (the reference engine says the same).
    answers_fresh_json = True

    def __init__(self) -> None:
        self.inner = self.INNER()

    def hello(self, protocol: float = 1.1) -> dict[str, Any]:
        return self.declare(self.inner.hello(protocol))

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        return self.started(self.inner.new_game(edition, self.setup_in(setup)), setup)

    def legal_actions(self) -> list[dict[str, Any]]:
        return self.actions_out(self.inner.legal_actions())

    def perform(self, action: dict[str, Any]) -> None:
        self.act(self.action_in(action))

    def observe(self, player: str | None = None) -> dict[str, Any]:
        return self.observation_out(self.inner.observe(player), player)

    def events(self) -> list[dict[str, Any]]:
        return self.events_out(self.inner.events())

    def close(self) -> None:
        self.inner.close()

    # ---- hooks: each the identity here ----

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        return info

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        return setup

    def started(self, result: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        return result

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return actions

    def action_in(self, action: dict[str, Any]) -> dict[str, Any]:
        return action

    def act(self, action: dict[str, Any]) -> None:
        self.inner.perform(action)

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        return observation

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return events

    # ---- what the wrappers read of the inner engine (through the protocol) ----

    def pending(self) -> dict[str, Any] | None:
        pending = self.inner.observe().get("pending")
        return pending if isinstance(pending, dict) else None

    def decision(self) -> str | None:
        pending = self.pending()
        return pending.get("decision") if pending else None


# ---- walking JSON values ----------------------------------------------------------------------

#: keys whose whole-number or string value is an object id (``card`` only in actions: it is a
#: card name, a string, elsewhere, and a name is never taken for an id)
_ID_KEYS = frozenset({"id", "object", "new_object", "attached_to", "source", "attacker",
                      "blocker", "blocking", "card"})
#: keys holding a list of object ids
_ID_LISTS = frozenset({"attackers", "so_far", "order", "pay_with"})


def map_ids(value: Any, change: Callable[[Any], Any], decision: str | None = None) -> Any:
    """``value`` with every object id replaced by ``change(id)``. A ``choose``'s ``choice`` is
    read by ``decision`` (the pending decision's kind): a trigger key of ``order_triggers`` is
    no object id (nor are the ``id``s of a pending decision's ``triggers``), a combat damage
    division pairs recipients with amounts."""
    kind = type(value)
    if kind is list:
        return [map_ids(v, change, decision) if type(v) in _CONTAINERS else v for v in value]
    if kind is not dict:
        return value
    if type(value.get("decision")) is str:
        decision = value["decision"]
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key in _ID_KEYS:
            out[key] = _id(item, change)
        elif key == "choice":
            out[key] = _choice(item, change, decision)
        elif type(item) not in _CONTAINERS or key in _NO_IDS:
            out[key] = item
        elif key == "triggers":
            out[key] = [{**t, "source": _id(t.get("source"), change)} if type(t) is dict
                        and "source" in t else t for t in item]
        elif key in _ID_LISTS:
            out[key] = [map_ids(v, change) if type(v) is dict else _id(v, change)
                        for v in item]
        else:
            out[key] = map_ids(item, change, decision)
    return out


_CONTAINERS = (dict, list)
#: keys whose values never hold an id: not walked (most of an observation's objects)
_NO_IDS = frozenset({"types", "supertypes", "subtypes", "colors", "counters", "mana_pool",
                     "mana", "result"})


def _id(value: Any, change: Callable[[Any], Any]) -> Any:
    # bool is an int in Python, never an id
    return change(value) if type(value) in (int, str) else value


def _choice(value: Any, change: Callable[[Any], Any], decision: str | None) -> Any:
    if decision == "order_triggers":
        return value
    if decision == "assign_combat_damage" and isinstance(value, list):
        return [[_id(pair[0], change), *pair[1:]] if isinstance(pair, list) and pair else pair
                for pair in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return change(value)
    if isinstance(value, str):
        return change(value)
    return value


def objects_of(observation: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object of an observation with an id, in every zone, the stack too."""
    zones = [observation.get(z) for z in ("battlefield", "stack", "exile", "ante", "command",
                                          "phased_out")]
    for state in observation["players"].values():
        zones += [state["hand"], state["library"], state["graveyard"]]
    return [o for zone in zones if isinstance(zone, list) for o in zone
            if isinstance(o, dict) and "id" in o]


def card_objects(observation: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object of an observation that shows characteristics (types and the rest)."""
    return [o for o in objects_of(observation) if "types" in o]


# ---- dialects ---------------------------------------------------------------------------------


class LowerCaseTypes(Shim):
    """Writes every type, supertype and subtype in lower case (the schema's own examples)."""

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        for obj in card_objects(observation):
            for key in ("types", "supertypes", "subtypes"):
                obj[key] = [word.lower() for word in obj[key]]
        return observation

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.decision() == "choose_creature_type":
            for action in actions:
                if isinstance(action.get("choice"), str):
                    action["choice"] = action["choice"].lower()
        return actions

    def action_in(self, action: dict[str, Any]) -> dict[str, Any]:
        # A creature type chosen in any letter case is the type of that name.
        choice = action.get("choice")
        if action.get("action") == "choose" and isinstance(choice, str) \
                and self.decision() == "choose_creature_type":
            for option in self.inner.legal_actions():
                listed = option.get("choice")
                if isinstance(listed, str) and listed.lower() == choice.lower():
                    return {**action, "choice": listed}
        return action


class StringIds(Shim):
    """Names every object by a string id (``"obj-17"``): ids are opaque."""

    PREFIX = "obj-"

    def _out(self, value: Any) -> Any:
        return f"{self.PREFIX}{value}" if isinstance(value, int) else value

    def _in(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith(self.PREFIX):
            return int(value.removeprefix(self.PREFIX))
        return value

    def started(self, result: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        return {"handles": {h: self._out(i) for h, i in result["handles"].items()}}

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        decision = self.decision() if any(a.get("action") == "choose" for a in actions) \
            else None
        return [map_ids(a, self._out, decision) for a in actions]

    def action_in(self, action: dict[str, Any]) -> dict[str, Any]:
        decision = self.decision() if action.get("action") == "choose" else None
        mapped: dict[str, Any] = map_ids(action, self._in, decision)
        return mapped

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        mapped: dict[str, Any] = map_ids(observation, self._out)
        return mapped

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [map_ids(e, self._out) for e in events]


class KeptIds(Shim):
    """Keeps an object's id across zone changes and counts its incarnations instead
    (``observe.incarnation``); its zone_change events name the same id twice."""

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        info["capabilities"] = [*info["capabilities"], "observe.incarnation"]
        return info

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        self.stable: dict[Any, Any] = {}  # the inner engine's id -> ours (its first id)
        self.current: dict[Any, Any] = {}  # ours -> the inner engine's id now
        self.incarnation: dict[Any, int] = {}
        self.queued: list[dict[str, Any]] = []
        return setup

    def started(self, result: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        self._track(self.inner.events())
        return {"handles": {h: self._out(i) for h, i in result["handles"].items()}}

    def _out(self, value: Any) -> Any:
        return self.stable.get(value, value)

    def _in(self, value: Any) -> Any:
        return self.current.get(value, value)

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        decision = self.decision() if any(a.get("action") == "choose" for a in actions) \
            else None
        return [map_ids(a, self._out, decision) for a in actions]

    def action_in(self, action: dict[str, Any]) -> dict[str, Any]:
        decision = self.decision() if action.get("action") == "choose" else None
        mapped: dict[str, Any] = map_ids(action, self._in, decision)
        return mapped

    def act(self, action: dict[str, Any]) -> None:
        try:
            self.inner.perform(action)
        finally:
            self._track(self.inner.events())

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        mapped: dict[str, Any] = map_ids(observation, self._out)
        for obj in objects_of(mapped):
            obj["incarnation"] = self.incarnation.get(obj["id"], 0)
        return mapped

    def events(self) -> list[dict[str, Any]]:
        self._track(self.inner.events())
        events, self.queued = self.queued, []
        return events

    def _track(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event.get("type") not in ("zone_change", "new_object"):
                self.queued.append(map_ids(event, self._out))
                continue
            ours = self.stable.get(event["object"], event["object"])
            self.stable[event["new_object"]] = ours
            self.current[ours] = event["new_object"]
            self.incarnation[ours] = self.incarnation.get(ours, 0) + 1
            self.queued.append(map_ids({**event, "object": ours, "new_object": ours,
                                        "incarnation": self.incarnation[ours]}, self._out))


class TurnZeroBeforeGame(Shim):
    """Reports turn 0, with no phase, step or priority, while the opening hands are decided."""

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        pending = observation.get("pending")
        if isinstance(pending, dict) and pending.get("decision") in ("mulligan", "bottom"):
            observation["turn"].update(number=0, phase=None, step=None, priority=None)
        return observation


#: The lists of an observation that the protocol leaves unordered (libraries, graveyards and
#: the stack are top first; a pending decision's blockers and so_far are in damage order).
_UNORDERED_ZONES = ("battlefield", "exile", "ante", "command", "phased_out")
_UNORDERED_WORDS = ("colors", "types", "supertypes", "subtypes")


class _Reorders(Shim):
    """Puts every list the protocol leaves unordered in the order ``reorder`` gives."""

    def reorder(self, items: list[Any]) -> list[Any]:
        raise NotImplementedError

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        self.random = random.Random(json.dumps(setup, sort_keys=True))
        return setup

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        for zone in _UNORDERED_ZONES:
            if isinstance(observation.get(zone), list):
                observation[zone] = self.reorder(observation[zone])
        for state in observation["players"].values():
            state["hand"] = self.reorder(state["hand"])
        for obj in card_objects(observation):
            for key in _UNORDERED_WORDS:
                obj[key] = self.reorder(obj[key])
        result = observation["result"]
        for key in ("winners", "losers"):
            result[key] = self.reorder(result[key])
        pending = observation.get("pending")
        if isinstance(pending, dict) and isinstance(pending.get("triggers"), list):
            pending["triggers"] = self.reorder(pending["triggers"])
        return observation

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self.reorder(actions)

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for event in events:
            for key in ("attackers", "blocks", "mana"):
                if isinstance(event.get(key), list):
                    event[key] = self.reorder(event[key])
        return events


class ShuffledLists(_Reorders):
    """Lists every unordered list (hands, battlefield, exile, types, colours, legal actions,
    ...) in a fresh random order each time it is asked."""

    def reorder(self, items: list[Any]) -> list[Any]:
        return self.random.sample(items, len(items))


class ReversedLists(_Reorders):
    """Lists every unordered list in the reverse of the reference engine's order, the same
    way every time."""

    def reorder(self, items: list[Any]) -> list[Any]:
        return items[::-1]


@cache
def _optional_event_fields() -> dict[str, frozenset[str]]:
    """Per event type of spec/schemas/protocol/event.json, its fields that may be left out."""
    schema = json.loads((PROTOCOL_DIR / "event.json").read_text(encoding="utf-8"))
    found: dict[str, frozenset[str]] = {}
    for clause in schema.get("allOf", []):
        kind = clause.get("if", {}).get("properties", {}).get("type", {}).get("const")
        then = clause.get("then", {})
        if kind is not None:
            found[kind] = frozenset(then.get("properties", {})) - set(then.get("required", []))
    return found


class OmitsOptionalFields(Shim):
    """Leaves out every optional field: attacking, blocking and phased_out when they do not
    hold, token off the battlefield, the optional fields of events, and shuffle events."""

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        for obj in observation["battlefield"]:
            for key, default in (("attacking", False), ("blocking", None),
                                 ("phased_out", False)):
                if key in obj and obj[key] == default:
                    del obj[key]
        battlefield = {id(o) for o in observation["battlefield"]}
        for obj in objects_of(observation):
            if id(obj) not in battlefield:
                obj.pop("token", None)
        return observation

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        optional = _optional_event_fields()
        return [{k: v for k, v in e.items() if k not in optional.get(e["type"], ())}
                for e in events if e["type"] != "shuffle"]


class ZoneChangesOnly(Shim):
    """Reports zone_change events only: every other type is informative."""

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] == "zone_change"]


class AddsOwnFields(Shim):
    """Adds fields of its own to objects, stack objects, pending decisions and events, and an
    event type of its own."""

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        for obj in objects_of(observation):
            obj["x_engine_ref"] = f"ref:{obj['id']}"
        if isinstance(observation.get("pending"), dict):
            observation["pending"]["x_prompt"] = "decide"
        return observation

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"type": "x_batch", "size": len(events)},
                *({**e, "x_engine_seq": i} for i, e in enumerate(events))]


class OwnWords(Shim):
    """Words its rejections (reason and message), the game's end (result.reason) and its
    abilities' text (a trigger's text, an event's what) in its own vocabulary."""

    def act(self, action: dict[str, Any]) -> None:
        try:
            self.inner.perform(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"x-{exc.reason}", f"refused: {action['action']}") from None

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        result = observation["result"]
        if result["reason"] is not None:
            result["reason"] = f"game ended ({result['reason']})"
        pending = observation.get("pending")
        for trigger in (pending or {}).get("triggers") or ():
            trigger["text"] = f"[{trigger['text']}]"
        return observation

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for event in events:
            if event["type"] in ("activate", "trigger", "trigger_removed"):
                event["what"] = f"[{event['what']}]"
        return events


class ReseededRandomness(Shim):
    """Shuffles, picks the first player and makes random choices its own way: the same seed
    gives another game than the reference engine's."""

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        if "seed" not in setup:
            return setup
        return {**setup, "seed": (setup["seed"] * 7919 + 104729) % 2_147_483_647}


class BareHandles(Shim):
    """Returns from new_game the mapping of handles itself (an in-process engine may)."""

    def started(self, result: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        handles: dict[str, Any] = result["handles"]
        return handles


class FullListings(Shim):
    """Lists a spell with "any number of targets" (Fireball) with every number of targets, not
    only up to two: each set of three or more of the targets the listing offers one at a time,
    with each X the extra {1} per target beyond the first leaves payable."""

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        casts = [a for a in actions if a["action"] == "cast" and len(a.get("targets", ())) == 2]
        if not casts:
            return actions
        names = {o["id"]: o["card"] for o in objects_of(self.inner.observe())}
        groups: dict[str, list[dict[str, Any]]] = {}
        for action in actions:
            if action["action"] == "cast" and _any_number_of_targets(names.get(action["card"])):
                key = json.dumps({k: v for k, v in action.items() if k not in ("targets", "x")},
                                 sort_keys=True)
                groups.setdefault(key, []).append(action)
        more: list[dict[str, Any]] = []
        for listed in groups.values():
            singles: list[Any] = []
            for action in listed:
                if len(action["targets"]) == 1 and action["targets"][0] not in singles:
                    singles.append(action["targets"][0])
            # X for two targets, payable with the listing's own sources: one less per target.
            pairs = [a.get("x", 0) for a in listed if len(a["targets"]) == 2]
            if not pairs:
                continue
            for count in range(3, len(singles) + 1):
                most = max(pairs) - (count - 2)
                for targets in itertools.combinations(singles, count):
                    more += [{**listed[0], "targets": list(targets), "x": x}
                             for x in range(most + 1)]
        return actions + more


class PayAuto(Shim):
    """Chooses its own mana sources for ``pay_with: auto`` another way than the reference
    engine: the fewest it can, the last listed first."""

    def act(self, action: dict[str, Any]) -> None:
        if action.get("pay_with") != "auto":
            self.inner.perform(action)
            return
        for sources in itertools.islice(self._choices(action["player"]), 64):
            try:
                self.inner.perform({**action, "pay_with": sources})
                return
            except IllegalActionError:
                continue
        self.inner.perform(action)  # none fits: the inner engine's own verdict

    def _choices(self, player: str) -> Any:
        battlefield = self.inner.observe()["battlefield"]
        sources = [o["id"] for o in reversed(battlefield)
                   if o["controller"] == player and not o["tapped"] and _makes_mana(o["card"])]
        for size in range(len(sources) + 1):
            for chosen in itertools.combinations(sources, size):
                yield list(chosen)


def _any_number_of_targets(name: str | None) -> bool:
    card = card_of(name, {}) if name is not None else None
    return card is not None and "any number of target" in card.text


def _makes_mana(name: str) -> bool:
    card = card_of(name, {})
    return card is not None and any(a.mana for a in activated_abilities(card))


class HarnessKeepsHands(Shim):
    """Asks for opening-hand decisions without declaring actions.mulligan: the harness keeps
    every hand it is asked about."""

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        info["capabilities"] = [c for c in info["capabilities"] if c != "actions.mulligan"]
        return info

    def act(self, action: dict[str, Any]) -> None:
        if action.get("action") == "mulligan":
            raise BadRequestError("mulligan: actions.mulligan was not declared")
        self.inner.perform(action)


#: What protocol 1.0 engines declared (the other 1.0 features are implied, LEGACY_IMPLIED).
_PROTOCOL_1_0 = ("setup.start", "setup.state", "setup.library_order", "setup.ante",
                 "actions.legal", "observe.stack", "observe.events", "observe.view")


class Protocol10(Shim):
    """Speaks protocol 1.0: declares 1.0's capabilities, lists its cards once, and knows
    neither pay_with nor unshuffled decks."""

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        cards = sorted(set().union(*info["cards"].values()))
        return {**info, "protocol": 1, "capabilities": list(_PROTOCOL_1_0), "cards": cards}

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        if setup.get("shuffle") is False:
            raise BadRequestError("setup.shuffle: protocol 1.0 has no unshuffled decks")
        return setup

    def act(self, action: dict[str, Any]) -> None:
        if "pay_with" in action:
            raise BadRequestError(f"{action['action']}: unexpected field pay_with")
        self.inner.perform(action)


# ---- capability ablations ---------------------------------------------------------------------


def setup_departures(setup: dict[str, Any]) -> set[str]:
    """The setup capabilities a setup departs with, read from docs/protocol.md's table (on
    purpose not by conformance.needs, which the ablations check)."""
    if "start" in setup:
        found = {"setup.start"}
        for key, capability in (("ante", "setup.ante"), ("format", "setup.legality"),
                                ("sideboards", "setup.sideboard")):
            if setup.get(key):
                found.add(capability)
        if setup.get("shuffle") is False:
            found.add("setup.deck_order")
        return found
    found = {"setup.state"}
    for state in (setup.get("players") or {}).values():
        for key, capability in (("poison", "setup.poison"), ("graveyard", "setup.graveyard"),
                                ("sideboard", "setup.sideboard"),
                                ("lands_played", "setup.lands_played")):
            if state.get(key):
                found.add(capability)
        if any((state.get("mana_pool") or {}).values()):
            found.add("setup.mana_pool")
        if "max_hand_size" in state:
            found.add("setup.hand_size")
    if setup.get("exile"):
        found.add("setup.exile")
    if any(setup.get(zone) for zone in ("ante", "command", "phased_out")):
        found.add("setup.zones")
    for entry in setup.get("battlefield") or []:
        if not isinstance(entry, dict):
            continue
        for key, capability in (("tapped", "setup.tapped"), ("sick", "setup.sick"),
                                ("damage", "setup.damage"), ("token", "setup.tokens"),
                                ("attached_to", "setup.attachments"),
                                ("attacking", "setup.combat"), ("blocking", "setup.combat")):
            if entry.get(key):
                found.add(capability)
        if any((entry.get("counters") or {}).values()):
            found.add("setup.counters")
        owner, controller = entry.get("owner"), entry.get("controller")
        if owner is not None and controller is not None and owner != controller:
            found.add("setup.controller")
    return found


class Withdrawn(Shim):
    """The inner engine without the capabilities ``WITHDRAWN``, behaving as an engine that
    lacks them: what it no longer declares it refuses (a bad_request), what it can no longer
    show it does not show."""

    WITHDRAWN: ClassVar[frozenset[str]] = frozenset()

    def lacks(self, capability: str) -> bool:
        return capability in self.WITHDRAWN

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        info["capabilities"] = [c for c in info["capabilities"] if not self.lacks(c)]
        return info

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        refused = sorted(c for c in setup_departures(setup) if self.lacks(c)
                         and c != "setup.library_order")
        if refused:
            raise BadRequestError(f"setup: needs {', '.join(refused)}, not declared")
        if self.lacks("setup.library_order") and "start" not in setup:
            # Library contents are a given state's; their order is not kept without it.
            players = {name: {**state, "library": list(reversed(state.get("library") or []))}
                       for name, state in (setup.get("players") or {}).items()}
            setup = {**setup, "players": players}
        return setup

    def started(self, result: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
        if self.lacks("actions.mulligan") and "start" in setup:
            # Without it the engine keeps every opening hand itself.
            for _ in range(2 * len(PLAYERS)):
                pending = self.pending()
                if not pending or pending.get("decision") != "mulligan":
                    break
                self.inner.perform({"action": "keep", "player": pending["player"]})
        return result

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.lacks("actions.legal"):
            raise UnsupportedError("legal_actions: actions.legal was not declared")
        return super().legal_actions()

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not self.lacks("pay.pool"):
            return [a for a in actions if self._refusal(a) is None]
        names = self._card_names()
        if not self.lacks("pay.auto"):
            # What the pool pays for, an engine that pays by itself lists as its own choice
            # (its choice takes the pool's mana first, as the reference engine's does).
            actions = [{**a, "pay_with": "auto"} if self._from_pool(a, names) else a
                       for a in actions]
            actions = [a for i, a in enumerate(actions) if a not in actions[:i]]
        return [a for a in actions if self._refusal(a, names) is None]

    def act(self, action: dict[str, Any]) -> None:
        refusal = self._refusal(action)
        if refusal is not None:
            raise BadRequestError(refusal)
        self.inner.perform(action)

    def _card_names(self) -> dict[Any, str]:
        return {o["id"]: o["card"] for o in objects_of(self.inner.observe()) if "card" in o}

    def _from_pool(self, action: dict[str, Any], names: dict[Any, str]) -> bool:
        """A cast or activation that costs mana and names no sources: the pool pays for it
        (pay.pool)."""
        if action.get("action") not in ("cast", "activate") or "pay_with" in action:
            return False
        return costs_mana(card_of(names.get(action.get("card")), {}), action)

    def _refusal(self, action: dict[str, Any], names: dict[Any, str] | None = None
                 ) -> str | None:
        """Why an engine without the withdrawn capabilities would not take ``action`` (asked
        before it is performed: a refused action changes nothing)."""
        kind = action.get("action")
        pay_with = action.get("pay_with")
        if self.lacks("pay.pool") and self._from_pool(
                action, self._card_names() if names is None else names):
            return f"{kind} names no sources, paid from the pool: pay.pool was not declared"
        if isinstance(pay_with, list) and self.lacks("pay.sources"):
            return "pay_with names sources: pay.sources was not declared"
        if pay_with == "auto" and self.lacks("pay.auto"):
            return "pay_with: auto, but pay.auto was not declared"
        if "payment" in action and self.lacks("pay.pool"):
            return "payment: pay.pool was not declared"
        if kind in ("keep", "mulligan") and self.lacks("actions.mulligan"):
            return f"{kind}: actions.mulligan was not declared"
        return None

    def observe(self, player: str | None = None) -> dict[str, Any]:
        if player is not None and self.lacks("observe.view"):
            raise UnsupportedError("observe with a player: observe.view was not declared")
        return super().observe(player)

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        if self.lacks("observe.stack"):
            del observation["stack"]
        if self.lacks("observe.library"):
            for state in observation["players"].values():
                state["library"] = [{"hidden": True} for _ in state["library"]]
        return observation

    def events(self) -> list[dict[str, Any]]:
        if self.lacks("observe.events"):
            raise UnsupportedError("events: observe.events was not declared")
        return super().events()


def _class_name(capability: str) -> str:
    return "Without" + "".join(part.capitalize() for part in capability.replace("_", ".")
                               .split("."))


def _ablation(capability: str) -> type[Withdrawn]:
    return type(_class_name(capability), (Withdrawn,), {
        "__doc__": f"The reference engine without {capability}.",
        "WITHDRAWN": frozenset({capability}), "__module__": __name__})


#: One ablation per capability the reference engine declares, by capability.
ABLATIONS: dict[str, type[Withdrawn]] = {c: _ablation(c) for c in CAPABILITIES}
globals().update({cls.__name__: cls for cls in ABLATIONS.values()})


class PayPoolOnly(Withdrawn):
    """Pays from the pool only (pay.pool): the harness activates the mana abilities first, as
    any engine lets a player do."""

    WITHDRAWN = frozenset({"pay.sources", "pay.auto"})


class PaySourcesOnly(Withdrawn):
    """Pays from named sources only (pay.sources): no payment from the pool."""

    WITHDRAWN = frozenset({"pay.pool", "pay.auto"})


class PayAutoOnly(Withdrawn):
    """Chooses its own mana sources only (pay.auto): no payment from the pool."""

    WITHDRAWN = frozenset({"pay.pool", "pay.sources"})


class PayAutoOnlyItsOwnWay(PayAutoOnly):
    """Pays only automatically, choosing its sources another way than the reference engine
    (PayAuto)."""

    INNER = PayAuto


class KeptIdsWithoutEvents(Withdrawn):
    """Keeps ids across zone changes (KeptIds) and has no events, as phase.rs's shape."""

    INNER = KeptIds
    WITHDRAWN = frozenset({"observe.events"})


# ---- forbidden dialects -----------------------------------------------------------------------


class AsksOneAnswerDecisions(Shim):
    """Asks the last choice of an order of two (a graveyard order, cards put on top of a
    library), which has one possible answer: the protocol says the engine takes it. (No game
    of either pinned edition has a blocker order left to ask.)"""

    ORDERS = ("order_graveyard", "put_on_top")

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        self.asked: dict[str, Any] | None = None  # the pending one-answer decision
        return setup

    def act(self, action: dict[str, Any]) -> None:
        if self.asked is not None:
            answer = self.asked["answer"]
            if {k: action.get(k) for k in answer} != answer:
                raise IllegalActionError("decision_pending", "a decision is pending")
            self.asked = None
            return
        pending = self.pending()
        kind = pending.get("decision") if pending else None
        listed = self.inner.legal_actions() if kind in self.ORDERS else []
        mine = [o for o in listed if o["action"] == "choose"]
        self.inner.perform(action)
        now = self.pending()
        # An order of two, chosen one at a time: the second choice is the only answer left.
        if pending is None or len(mine) != 2 or action not in mine or (
                now is not None and now.get("decision") == kind):
            return
        answer = next(o for o in mine if o != action)
        asked = {**pending, "count": 1} if "count" in pending else dict(pending)
        self.asked = {"pending": asked, "answer": answer}

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.asked is not None:
            return [dict(self.asked["answer"])]
        return super().legal_actions()

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        if self.asked is not None:
            observation["pending"] = dict(self.asked["pending"])
            observation["turn"]["priority"] = None
        return observation


class ReversedEvents(Shim):
    """Reports each batch of events in the reverse of the order they happened."""

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return events[::-1]


class CannotActivateManaAbilities(Shim):
    """Answers ``unsupported`` to a mana ability activated as an action, and lists none: once a
    capability (actions.mana), now a rule every engine follows (docs/protocol.md, Versions)."""

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [a for a in actions if not self._mana_ability(a)]

    def act(self, action: dict[str, Any]) -> None:
        if self._mana_ability(action):
            raise UnsupportedError("mana abilities are not actions here")
        self.inner.perform(action)

    def _mana_ability(self, action: dict[str, Any]) -> bool:
        if action.get("action") != "activate":
            return False
        found = [o for o in self.inner.observe()["battlefield"] if o.get("id") == action["card"]]
        card = card_of(found[0]["card"], {}) if found and "card" in found[0] else None
        return is_mana_ability(card, action.get("ability", 0))


class CannotConcede(Shim):
    """Answers ``unsupported`` to a concession, and lists none: once a capability
    (actions.concede), now a rule every engine follows."""

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [a for a in actions if a["action"] != "concede"]

    def act(self, action: dict[str, Any]) -> None:
        if action.get("action") == "concede":
            raise UnsupportedError("no concession here")
        self.inner.perform(action)


# ---- the registries ---------------------------------------------------------------------------

#: Every allowed dialect, by class name.
DIALECTS: dict[str, type[Shim]] = {cls.__name__: cls for cls in (
    LowerCaseTypes, StringIds, KeptIds, KeptIdsWithoutEvents, TurnZeroBeforeGame,
    ShuffledLists, ReversedLists, OmitsOptionalFields, ZoneChangesOnly, AddsOwnFields,
    OwnWords, ReseededRandomness, BareHandles, FullListings, PayPoolOnly, PaySourcesOnly,
    PayAutoOnly, PayAutoOnlyItsOwnWay, HarnessKeepsHands, Protocol10)}

#: Dialects the protocol forbids: the suite must not pass them.
FORBIDDEN: dict[str, type[Shim]] = {cls.__name__: cls for cls in (
    AsksOneAnswerDecisions, ReversedEvents, CannotActivateManaAbilities, CannotConcede)}

