"""Handles: the names a case gives objects, mapped to the engine's ids and followed across
zones; and the translation of a case's actions into protocol actions.

In a case's action, ``card``, ``attacker``, ``order`` and ``targets`` name objects by handle
(``bolt``) or by card name (``Forest``: the first such card where the action looks for it:
the actor's hand to play, cast or discard, the battlefield otherwise); in ``targets``, ``A``
and ``B`` are the players; a ``choice`` that is a handle names that object; ``pay_with``
names mana sources (a card name: the actor's first untapped one not named already), and
comes out as ``[{"card": id, "ability"?, "choice"?}]`` for the runner to put in the form the
engine takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from conformance.protocol import PLAYERS

FROM_HAND = frozenset({"play_land", "cast", "discard"})
OBJECT_FIELDS = ("card", "attacker")


class UnknownReference(Exception):
    """An action names an object that the harness cannot find (a ``fail``: the object is not
    where the case says it is)."""


class Handles:
    """Handle -> current engine id, updated from ``zone_change`` events.

    With an engine that keeps ids across zone changes (``observe.incarnation``), a handle names
    an id *and* an incarnation: ``note_incarnations`` records them from the first observation,
    and an object is the handle's only if both match.
    """

    def __init__(self, ids: dict[str, Any]) -> None:
        self.current = dict(ids)
        self._handle_of = {_key(v): k for k, v in ids.items()}
        self.incarnation: dict[str, Any] = {}

    def id(self, handle: str) -> Any:
        return self.current[handle]

    def __contains__(self, handle: object) -> bool:
        return handle in self.current

    def matches(self, handle: str, obj: Any) -> bool:
        """Whether an observed object is the one ``handle`` names now."""
        if not isinstance(obj, dict) or obj.get("id") != self.current[handle]:
            return False
        known = self.incarnation.get(handle, _UNKNOWN)
        return known is _UNKNOWN or obj.get("incarnation") == known

    def bind(self, handle: str, obj: dict[str, Any], *, follow: bool = True) -> None:
        """Name an observed object (a ``bind`` step). ``follow=False`` names what is no object
        (a trigger waiting to be put on the stack: its id is the engine's own, in no object's
        namespace), so that it is never taken for the object that has the same id."""
        self.current[handle] = obj["id"]
        if follow:
            self._handle_of[_key(obj["id"])] = handle
        if "incarnation" in obj:
            self.incarnation[handle] = obj["incarnation"]

    def handle_for(self, obj: dict[str, Any]) -> str | None:
        """The handle that names this observed object now, if one does."""
        # ``matches`` inlined: the fuzzer asks this of every object it sees, every step.
        object_id = obj.get("id")
        handle = self._handle_of.get(_key(object_id))
        if handle is None or self.current[handle] != object_id:
            return None
        known = self.incarnation.get(handle, _UNKNOWN)
        return handle if known is _UNKNOWN or obj.get("incarnation") == known else None

    @property
    def by_id(self) -> Mapping[Any, str]:
        """Engine id -> the handle that names the object with that id now."""
        return _ById(self._handle_of)

    def note_incarnations(self, observation: dict[str, Any]) -> None:
        """Record the incarnation of every handled object found in ``observation``."""
        by_id = {_key(v): k for k, v in self.current.items()}
        for obj in _objects(observation):
            handle = by_id.get(_key(obj.get("id")))
            if handle is not None and handle not in self.incarnation:
                self.incarnation[handle] = obj.get("incarnation")

    def follow(self, events: list[Any]) -> None:
        for event in events:
            if not isinstance(event, dict) or event.get("type") != "zone_change":
                continue
            old, new = event.get("object"), event.get("new_object")
            if not isinstance(old, int | str) or not isinstance(new, int | str):
                continue
            handle = self._handle_of.pop(_key(old), None)
            if handle is not None:
                self.current[handle] = new
                self._handle_of[_key(new)] = handle
                if handle in self.incarnation:
                    self.incarnation[handle] = event.get("incarnation")


_UNKNOWN: Any = object()


class _ById(Mapping[Any, str]):
    """A read-only view of a ``Handles``' reverse map, by the engine's ids as they are."""

    def __init__(self, by_key: dict[Any, str]) -> None:
        self._by_key = by_key

    def __getitem__(self, object_id: Any) -> str:
        return self._by_key[_key(object_id)]

    def __iter__(self) -> Iterator[Any]:
        return (value for _, value in self._by_key)

    def __len__(self) -> int:
        return len(self._by_key)


def _objects(observation: Any) -> list[dict[str, Any]]:
    """Every object of an observation, in every zone."""
    found: list[dict[str, Any]] = []
    zones = [observation.get(z) for z in ("battlefield", "stack", "exile", "ante", "command",
                                          "phased_out")]
    for state in (observation.get("players") or {}).values():
        if isinstance(state, dict):
            zones.extend(state.get(z) for z in ("hand", "library", "graveyard"))
    for zone in zones:
        if isinstance(zone, list):
            found.extend(o for o in zone if isinstance(o, dict) and "id" in o)
    return found


def _key(value: Any) -> Any:
    # Ids are opaque integers or strings; keep 1 and "1" apart (by type: its name costs an
    # attribute lookup more, on every object the fuzzer sees).
    return (type(value), value)


def translate(action: dict[str, Any], handles: Handles,
              observe: Callable[[], dict[str, Any]], *, keep_ids: bool = False
              ) -> dict[str, Any]:
    """The protocol action for a case's action. ``observe`` is called (once, lazily) only
    when an object is named by card name. With ``keep_ids`` a reference that is no handle is
    an engine id, kept as it is (the fuzzer's own actions name objects by handle or by id,
    never by card name). A ``pay_with`` that is no list (``"auto"``) is left as it is.

    :raises UnknownReference: no object of that name where the action looks.
    """
    seen: list[dict[str, Any]] = []

    def observation() -> dict[str, Any]:
        if not seen:
            seen.append(observe())
        return seen[0]

    player = action.get("player")
    out = dict(action)
    for name in OBJECT_FIELDS:
        if name in action:
            zone = "hand" if name == "card" and action.get("action") in FROM_HAND else "battlefield"
            out[name] = _object(action[name], handles, observation, player, zone,
                                keep_ids=keep_ids)
    if "order" in action:
        out["order"] = [_object(x, handles, observation, player, "battlefield",
                                keep_ids=keep_ids) for x in action["order"]]
    if "choice" in action:
        out["choice"] = _choice(action["choice"], handles)
    if isinstance(action.get("pay_with"), list):
        chosen: list[Any] = []
        out["pay_with"] = []
        for entry in action["pay_with"]:
            source = dict(entry) if isinstance(entry, dict) else {"card": entry}
            source["card"] = _object(source["card"], handles, observation, player,
                                     "sources", exclude=chosen, keep_ids=keep_ids)
            chosen.append(source["card"])
            out["pay_with"].append(source)
    if "targets" in action:
        out["targets"] = [
            {"player": t} if t in PLAYERS and t not in handles
            else {"object": _object(t, handles, observation, player, "any", keep_ids=keep_ids)}
            for t in action["targets"]
        ]
    return out


def _choice(value: Any, handles: Handles) -> Any:
    """A decision's choice may name objects by handle (a card to order, a source, a
    legendary permanent to keep); other values (colours, true, a creature type) pass as
    they are."""
    if isinstance(value, list):
        return [_choice(v, handles) for v in value]
    if isinstance(value, str) and value in handles:
        return handles.id(value)
    return value


def _object(ref: str, handles: Handles, observation: Callable[[], dict[str, Any]],
            player: str | None, zone: str, exclude: list[Any] | None = None, *,
            keep_ids: bool = False) -> Any:
    if ref in handles:
        return handles.id(ref)
    if keep_ids:
        return ref
    state = observation()
    if zone == "hand":
        places = [("hand of " + str(player), _zone(state, "players", player, "hand"))]
    elif zone == "battlefield":
        places = [("battlefield", state.get("battlefield") or [])]
    elif zone == "sources":
        # Untapped permanents of the payer first: a name may be listed once per source.
        mine = [o for o in state.get("battlefield") or []
                if isinstance(o, dict) and o.get("controller") == player
                and o.get("id") not in (exclude or ())]
        places = [(f"untapped permanents of {player}", [o for o in mine if not o.get("tapped")])]
    else:
        places = [("battlefield", state.get("battlefield") or []),
                  ("stack", state.get("stack") or [])]
        places += [(f"{z} of {p}", _zone(state, "players", p, z))
                   for p in PLAYERS for z in ("graveyard", "hand")]
    for _, objects in places:
        for obj in objects:
            if isinstance(obj, dict) and obj.get("card") == ref and "id" in obj:
                return obj["id"]
    where = " or ".join(p for p, _ in places)
    raise UnknownReference(f"no {ref} in the {where}")


def _zone(state: dict[str, Any], key: str, player: str | None, zone: str) -> list[Any]:
    players = state.get(key)
    if not isinstance(players, dict):
        return []
    mine = players.get(player)
    value = mine.get(zone) if isinstance(mine, dict) else None
    return value if isinstance(value, list) else []
