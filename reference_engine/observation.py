"""The canonical observation of a game (docs/protocol.md), whole or as one player sees it."""

from __future__ import annotations

import copy
from typing import Any

from reference_engine.constants import PHASE_NAMES, PHASE_OF_STEP, PLAYERS, PRIORITY, STEP_NAMES
from reference_engine.game import Game
from reference_engine.mana import pool_json
from reference_engine.objects import GameObject, StackItem
from spec.cardpool import SUPERTYPES, TYPES

_TYPE_ORDER = {t: i for i, t in enumerate(TYPES)}
_SUPERTYPE_ORDER = {t: i for i, t in enumerate(SUPERTYPES)}


class _InOrder(dict[frozenset[str], tuple[str, ...]]):
    """Each set of (super)types in the order the protocol lists them, sorted once: the few
    sets a game's objects have are shared by its objects (reference_engine.layers)."""

    def __init__(self, order: dict[str, int]) -> None:
        super().__init__()
        self.order = order

    def __missing__(self, words: frozenset[str]) -> tuple[str, ...]:
        found = self[words] = tuple(sorted(words, key=self.order.__getitem__))
        return found


_TYPES_IN_ORDER = _InOrder(_TYPE_ORDER)
_SUPERTYPES_IN_ORDER = _InOrder(_SUPERTYPE_ORDER)


def _hidden() -> dict[str, Any]:
    return {"hidden": True}  # a new one each time: an observation shares nothing


def observe(game: Game, viewer: str | None = None) -> dict[str, Any]:
    """The whole observation, or what ``viewer`` ("A"/"B") may see: libraries, the other
    player's hand and face-down cards are replaced by ``{"hidden": true}``."""
    decision = game.decision
    pending: dict[str, Any] | None = None
    if decision is not None and decision.kind != PRIORITY and not game.result.over:
        pending = {"player": decision.player, "decision": decision.kind}
        if decision.count is not None:
            pending["count"] = decision.count
        if decision.data:
            pending.update(copy.deepcopy(decision.data))
    players = {}
    for name in PLAYERS:
        player = game.players[name]
        sees_hand = viewer is None or viewer == name
        players[name] = {
            "life": player.life,
            "poison": player.poison,
            "mana_pool": pool_json(player.pool),
            "lands_played": player.lands_played,
            "max_hand_size": game.player_rules(name)["max_hand_size"],
            "hand": [card(game, o) if sees_hand else _hidden() for o in player.hand],
            "library": _library(game, name, viewer),
            "graveyard": [card(game, o) for o in reversed(player.graveyard)],
        }
    observation: dict[str, Any] = {
        "turn": {
            "number": game.turn,
            "active": game.active,
            "phase": PHASE_NAMES[PHASE_OF_STEP[game.step]],
            "step": STEP_NAMES[game.step],
            "priority": game.priority if not game.result.over else None,
        },
        "pending": pending,
        "players": players,
        "battlefield": [permanent(game, o, viewer) for o in game.battlefield],
        "stack": [stack_object(game, item) for item in reversed(game.stack)],
        "exile": [_visible(game, o, viewer) for o in game.exile],
    }
    for zone, objects in game.zones_extra.items():
        observation[zone] = [_visible(game, o, viewer) for o in objects]
    observation["result"] = game.result.to_json()
    return observation


def _library(game: Game, name: str, viewer: str | None) -> list[dict[str, Any]]:
    """A library, top first: hidden from every player, except a top card played revealed
    (Future Sight: 217.2e, 401.5)."""
    library = game.players[name].library
    if viewer is None:
        return [card(game, o) for o in reversed(library)]
    shown = [_hidden() for _ in library]
    if library and game.player_rules(name)["top_card_revealed"]:
        shown[0] = card(game, library[-1])
    return shown


def _visible(game: Game, obj: GameObject, viewer: str | None) -> dict[str, Any]:
    if obj.face_down and viewer is not None:
        return _hidden()
    return card(game, obj)


def card(game: Game, obj: GameObject) -> dict[str, Any]:
    chars = game.chars(obj)
    out = {
        "id": obj.id,
        "card": obj.card.name,
        "owner": obj.owner,
        "types": list(_TYPES_IN_ORDER[chars.types]),  # a new list: the caller may change it
        "supertypes": list(_SUPERTYPES_IN_ORDER[chars.supertypes]),
        "subtypes": list(chars.subtypes),
        "colors": list(chars.colors),
        "mana_cost": chars.cost,
        "mana_value": chars.mana_value,
        "power": chars.power,
        "toughness": chars.toughness,
    }
    if obj.token:
        out["token"] = True  # a token that left the battlefield, until it ceases to exist
    return out


def permanent(game: Game, obj: GameObject, viewer: str | None = None) -> dict[str, Any]:
    if obj.face_down and viewer is not None and viewer != obj.controller:
        base: dict[str, Any] = {"id": obj.id, "hidden": True}
    else:
        base = card(game, obj)
    base.update({
        "controller": obj.controller,
        "tapped": obj.tapped,
        "sick": game.is_sick(obj),
        "damage": obj.damage,
        "counters": dict(obj.counters),
        "attached_to": obj.attached_to,
        "token": obj.token,
        "attacking": obj.attacking,
        "blocking": obj.blocking,
        "phased_out": obj.phased_out,
    })
    return base


def stack_object(game: Game, item: StackItem) -> dict[str, Any]:
    out = {
        "id": item.id,
        "kind": item.kind,
        "card": item.source_card,
        "source": (item.source.id if item.source is not None else None),
        "controller": item.controller,
        "owner": item.owner,
        "targets": [{"player": t} if isinstance(t, str) else {"object": t}
                    for t in item.targets],
        "x": item.x,
    }
    if item.obj is not None:
        # A spell has the characteristics of its card, as effects leave them (217.6c, 405.4).
        described = card(game, item.obj)
        for key in ("types", "supertypes", "subtypes", "colors", "mana_cost", "mana_value",
                    "power", "toughness"):
            out[key] = described[key]
    return out

