"""Reading protocol observations (spec/schemas/protocol/observation.json) the way invariants
need: every object with the zone it is in, counts per owner, orders, steps in turn order.

>>> [z for z, _, _ in objects({"players": {"A": {"hand": [{"id": 1}]}}, "battlefield": []})]
['hand']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

PLAYERS = ("A", "B")
#: the zones every player has, in an observation's players.X
PLAYER_ZONES = ("hand", "library", "graveyard")
#: the shared zones, at the observation's top level
SHARED_ZONES = ("battlefield", "stack", "exile", "ante", "phased_out", "command")
#: steps in turn order (modern names; 2004 uses the same words)
STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
         "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat",
         "postcombat_main", "end", "cleanup")
PHASES = ("beginning", "precombat_main", "combat", "postcombat_main", "ending")

Observation = dict[str, Any]


def objects(observation: Observation) -> Iterator[tuple[str, str | None, dict[str, Any]]]:
    """Every object shown, as (zone, player whose zone it is or None, object)."""
    for zone, player, shown in zones(observation):
        for obj in shown:
            yield zone, player, obj


def zones(observation: Observation) -> Iterator[tuple[str, str | None, list[dict[str, Any]]]]:
    """Every zone shown, as (zone, player whose zone it is or None, its objects), in the
    order of ``objects``."""
    for player, state in (observation.get("players") or {}).items():
        for zone in PLAYER_ZONES:
            shown = state.get(zone)
            if shown:
                yield zone, player, shown
    for zone in SHARED_ZONES:
        shown = observation.get(zone)
        if shown:
            yield zone, None, shown


def ids(observation: Observation) -> list[Any]:
    return [obj["id"] for _, _, obj in objects(observation) if "id" in obj]


def zone_ids(observation: Observation, player: str | None, zone: str) -> list[Any]:
    """The ids of one zone, in the observation's order (top first for libraries,
    graveyards and the stack)."""
    if player is None:
        found = observation.get(zone) or ()
    else:
        found = ((observation.get("players") or {}).get(player) or {}).get(zone) or ()
    return [o.get("id") for o in found]


def player(observation: Observation, name: str | None) -> dict[str, Any]:
    """A player's state; empty for a player the observation does not show (or no player:
    ``name`` often comes straight from an observation's ``active`` or ``pending.player``)."""
    return (observation.get("players") or {}).get(name) or {}


def over(observation: Observation) -> bool:
    return bool((observation.get("result") or {}).get("over"))


def turn(observation: Observation) -> dict[str, Any]:
    return observation.get("turn") or {}


def step_index(observation: Observation) -> int:
    """The current step's place in turn order (-1 if unknown)."""
    step = turn(observation).get("step")
    return STEPS.index(step) if step in STEPS else -1


def moment(observation: Observation) -> tuple[int, int]:
    """Turn number and step index: a point in time that never goes back."""
    number = turn(observation).get("number")
    return (number if isinstance(number, int) else 0, step_index(observation))


def holds_priority(observation: Observation) -> str | None:
    """The player who holds priority with nothing pending, or None."""
    who = turn(observation).get("priority")
    if isinstance(who, str) and who in PLAYERS and observation.get("pending") is None \
            and not over(observation):
        return who
    return None


def mana(observation: Observation, name: str) -> int:
    return sum(int(v) for v in (player(observation, name).get("mana_pool") or {}).values()
               if isinstance(v, int))


def cards_by_owner(observation: Observation,
                   shown: list[tuple[str, str | None, dict[str, Any]]] | None = None
                   ) -> dict[str, int]:
    """Non-token cards each player owns, in every zone shown (a stack object counts when it
    is a spell: a card)."""
    counts = dict.fromkeys(PLAYERS, 0)
    for zone, _, obj in shown if shown is not None else objects(observation):
        if obj.get("token") or obj.get("hidden"):
            continue
        if zone == "stack" and obj.get("kind") not in (None, "spell"):
            continue
        if zone == "command":
            continue  # emblems: no card (a game with commanders is no game of these rules)
        owner = obj.get("owner")
        if owner in counts:
            counts[owner] += 1
    return counts


def hidden_count(observation: Observation) -> int:
    return sum(1 for _, _, obj in objects(observation) if obj.get("hidden"))


def has_type(obj: dict[str, Any], word: str) -> bool:
    """The object shows the card type ``word`` (``Land``), in whatever letter case the engine
    writes type words (docs/protocol.md, Dialects: ``land`` and ``Land`` alike)."""
    return word.lower() in {str(t).lower() for t in obj.get("types") or ()}
