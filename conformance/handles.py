"""Handles: the names a case gives objects, mapped to the engine's ids and followed across
zones; and the translation of a case's actions into protocol actions.

In a case's action, ``card``, ``attacker``, ``order`` and ``targets`` name objects by handle
(``bolt``) or by card name (``Forest``: the first such card where the action looks for it:
the actor's hand to play, cast or discard, the battlefield otherwise); in ``targets``, ``A``
and ``B`` are the players; a ``choice`` that is a handle names that object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.protocol import PLAYERS

FROM_HAND = frozenset({"play_land", "cast", "discard"})
OBJECT_FIELDS = ("card", "attacker")


class UnknownReference(Exception):
    """An action names an object that the harness cannot find (a ``fail``: the object is not
    where the case says it is)."""


class Handles:
    """Handle -> current engine id, updated from ``zone_change`` events."""

    def __init__(self, ids: dict[str, Any]) -> None:
        self.current = dict(ids)
        self._handle_of = {_key(v): k for k, v in ids.items()}

    def id(self, handle: str) -> Any:
        return self.current[handle]

    def __contains__(self, handle: object) -> bool:
        return handle in self.current

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


def _key(value: Any) -> Any:
    # Ids are opaque integers or strings; keep 1 and "1" apart.
    return (type(value).__name__, value)


def translate(action: dict[str, Any], handles: Handles,
              observe: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The protocol action for a case's action. ``observe`` is called (once, lazily) only
    when an object is named by card name.

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
            out[name] = _object(action[name], handles, observation, player, zone)
    if "order" in action:
        out["order"] = [_object(x, handles, observation, player, "battlefield")
                        for x in action["order"]]
    if "choice" in action:
        out["choice"] = _choice(action["choice"], handles)
    if "targets" in action:
        out["targets"] = [
            {"player": t} if t in PLAYERS and t not in handles
            else {"object": _object(t, handles, observation, player, "any")}
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
            player: str | None, zone: str) -> Any:
    if ref in handles:
        return handles.id(ref)
    state = observation()
    if zone == "hand":
        places = [("hand of " + str(player), _zone(state, "players", player, "hand"))]
    elif zone == "battlefield":
        places = [("battlefield", state.get("battlefield") or [])]
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
