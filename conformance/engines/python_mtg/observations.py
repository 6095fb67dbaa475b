"""Observations out: python-mtg's relations, where it waits for a player, as the protocol
shows them (players, objects with the incarnations the adapter counts, the stack, the pending
decision, the result), and the zone changes between two states as events."""

from __future__ import annotations

import contextlib
import io
from typing import Any, TypedDict

from conformance.engines.python_mtg.game import (
    PLAYERS,
    STEPS,
    BadRequest,
    PythonMtgGame,
    Row,
    State,
    _slug_of,
)

PHASE_OF = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
            "precombat_main": "precombat_main", "beginning_of_combat": "combat",
            "declare_attackers": "combat", "declare_blockers": "combat",
            "combat_damage": "combat", "end_of_combat": "combat",
            "postcombat_main": "postcombat_main", "end": "ending", "cleanup": "ending"}
COLOUR = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
MANA = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "C"}
#: The engine's choice-seam keys the adapter asks the players, as protocol decisions.
DECISIONS = {"cleanup_discard": "discard", "discard": "discard", "target": "choose_targets",
             "sacrifice": "choose_sacrifice"}


def _step(state: State) -> str:
    step: str = next(iter(state.get("current_step", {("",)})))[0]
    return step


def _active(state: State) -> str:
    player: str = next(iter(state.get("active_player", {("",)})))[0]
    return player


def _owners(state: State) -> dict[str, str]:
    return {c: p for (p, c) in state.get("printed_control", set())}


def _owner(state: State, obj: str) -> str | None:
    return _owners(state).get(obj)


def _name(state: State, obj: str) -> str:
    from mtg.game import _name_from_slug

    if (obj,) in state.get("is_token", set()):
        subtypes = sorted({s for (c, s) in state.get("printed_subtype", set()) if c == obj})
        return " ".join(s.capitalize() for s in subtypes) or obj
    slug = _slug_of(state, obj)
    return _name_from_slug(slug) if slug else obj


def _zones(state: State) -> dict[str, str]:
    zones: dict[str, str] = {}
    for (c,) in state.get("on_battlefield", set()):
        zones[c] = "battlefield"
    for (_p, c) in state.get("in_hand", set()):
        zones[c] = "hand"
    for (_p, c) in state.get("in_library", set()):
        zones[c] = "library"
    for (c,) in state.get("graveyard", set()):
        zones[c] = "graveyard"
    for row in state.get("exile", set()):
        zones[row[-1]] = "exile"
    for (_p, c) in state.get("command_zone", set()):
        zones[c] = "command"
    for (c, _pos) in state.get("on_stack", set()):
        zones[c] = "stack"
    return zones


def _life(state: State) -> dict[str, int]:
    return {p: int(v) for (p, v) in state.get("life", set())}


class _Objects(TypedDict):
    """What an observation reads about the objects of one state, gathered once for all."""

    corpus: dict[str, dict[str, Any]]  # the engine's Oracle records by name
    zone: dict[str, str]
    owners: dict[str, str]
    controller: dict[str, str]
    creatures: set[str]
    power: dict[str, int]
    toughness: dict[str, int]
    types: dict[str, set[str]]
    subtypes: dict[str, set[str]]
    supertypes: dict[str, set[str]]
    colors: dict[str, set[str]]
    mana_value: dict[str, int]
    printed_power: dict[str, int]
    printed_toughness: dict[str, int]


def _card_view(state: State, obj: str, engine: PythonMtgGame, ctx: _Objects
               ) -> dict[str, Any]:
    record = ctx["corpus"].get(engine._names.get(obj) or _name(state, obj), {})
    types = sorted(ctx["types"].get(obj, ()))
    printed_subtypes = record.get("subtypes") or []
    lower = {s.lower(): s for s in printed_subtypes}
    subtypes = sorted(ctx["subtypes"].get(obj, ()), key=lambda s: (
        [x.lower() for x in printed_subtypes].index(s) if s in lower else 99, s))
    creature = obj in ctx["creatures"] if ctx["zone"].get(obj) == "battlefield" \
        else "creature" in types
    if ctx["zone"].get(obj) == "battlefield":
        power = ctx["power"].get(obj) if creature else None
        toughness = ctx["toughness"].get(obj) if creature else None
    else:
        power = ctx["printed_power"].get(obj) if creature else None
        toughness = ctx["printed_toughness"].get(obj) if creature else None
    cost = record.get("manaCost") or None
    return {
        "id": obj,
        "card": engine._names.get(obj) or _name(state, obj),
        "owner": ctx["owners"].get(obj),
        # The engine's relations spell types and supertypes in lower case ("artifact",
        # "basic"); the protocol spells them as printed on the type line ("Artifact").
        "types": [t.capitalize() for t in types],
        "supertypes": sorted(s.capitalize() for s in ctx["supertypes"].get(obj, ())),
        "subtypes": [lower.get(s, s.capitalize()) for s in subtypes],
        "colors": [COLOUR[c] for c in ("white", "blue", "black", "red", "green")
                   if c in ctx["colors"].get(obj, ()) and "land" not in types],
        "mana_cost": cost,
        "mana_value": int(ctx["mana_value"].get(obj, 0)),
        "power": power,
        "toughness": toughness,
        "incarnation": engine._incarnation.get(obj, 0),
    }


def _observe(state: State, engine: PythonMtgGame) -> dict[str, Any]:
    from mtg import driver
    from mtg.engine import env

    def group(rows: set[Row]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for row in rows:
            found.setdefault(row[0], set()).add(row[1])
        return found

    with contextlib.redirect_stdout(io.StringIO()):
        derived = driver.run(state, ["controls", "creature", "power", "eff_toughness"])
    zones = _zones(state)
    ctx: _Objects = {
        "corpus": {},
        "zone": zones,
        "owners": _owners(state),
        "controller": {c: p for (p, c) in derived["controls"]},
        "creatures": {c for (c,) in derived["creature"]},
        "power": {c: int(n) for (c, n) in derived["power"]},
        "toughness": {c: int(n) for (c, n) in derived["eff_toughness"]},
        "types": group(state.get("printed_type", set())),
        "subtypes": group(state.get("printed_subtype", set())),
        "supertypes": group(state.get("has_supertype", set())),
        "colors": group(state.get("printed_color", set())),
        "mana_value": dict(state.get("mana_cost", set())),
        "printed_power": {c: int(n) for (c, n) in state.get("printed_power", set())
                          if str(n).lstrip("-").isdigit()},
        "printed_toughness": {c: int(n) for (c, n) in state.get("printed_toughness", set())
                              if str(n).lstrip("-").isdigit()},
    }
    ctx["corpus"] = _corpus_by_name()
    tapped = {c for (c,) in state.get("tapped", set())}
    sick = {c for (c,) in state.get("_sick", set())}
    attached = dict(state.get("attached_to", set()))
    counters: dict[str, dict[str, int]] = {}
    for row in state.get("counter", set()):
        if len(row) == 3 and str(row[2]).lstrip("-").isdigit():
            counters.setdefault(row[0], {})[str(row[1])] = int(row[2])
    attacking = {a for (a, _d) in state.get("attacks", set())}
    blocking = dict(state.get("blocks", set()))
    tokens = {c for (c,) in state.get("is_token", set())}

    def card(obj: str) -> dict[str, Any]:
        return _card_view(state, obj, engine, ctx)

    battlefield = []
    for obj in sorted(c for c, z in zones.items() if z == "battlefield"):
        view = card(obj)
        view.update({
            "controller": ctx["controller"].get(obj, view["owner"]),
            "tapped": obj in tapped,
            "sick": obj in sick,
            "damage": 0,
            "counters": counters.get(obj, {}),
            "attached_to": attached.get(obj),
            "token": obj in tokens,
        })
        if attacking or blocking:
            view["attacking"] = obj in attacking
            view["blocking"] = blocking.get(obj)
        battlefield.append(view)
    stack = []
    for obj, _pos in sorted(state.get("on_stack", set()), key=lambda r: -r[1]):
        controller = state.get("_stack_info", {}).get(obj)
        item = {"id": obj, "kind": "spell", "card": engine._names.get(obj) or _name(state, obj),
                "source": None, "controller": controller, "owner": ctx["owners"].get(obj,
                                                                                   controller),
                "targets": [], "x": None}
        if obj in zones and obj in ctx["owners"]:
            item.update({k: v for k, v in card(obj).items() if k not in ("id", "card", "owner")})
        stack.append(item)
    floating: dict[str, dict[str, int]] = {p: {} for p in PLAYERS}
    for (p, colour, n) in state.get("floating_mana", set()):
        if p in floating and colour in MANA:
            floating[p][MANA[colour]] = floating[p].get(MANA[colour], 0) + int(n)
    life = _life(state)
    poison = {p: int(n) for (p, n) in state.get("poison", set())}
    extra_used = state.get("_extra_lands_used", {})
    players = {}
    for p in PLAYERS:
        order = list(state.get("_lib_order", {}).get(p, []))
        library = [c for c in order if (p, c) in state.get("in_library", set())]
        library += sorted(c for (q, c) in state.get("in_library", set())
                          if q == p and c not in set(library))
        with contextlib.redirect_stdout(io.StringIO()):
            max_hand = driver._max_hand_size(state, p)
        players[p] = {
            "life": life.get(p, 0),
            "poison": poison.get(p, 0),
            "mana_pool": {m: floating[p].get(m, 0) for m in ("W", "U", "B", "R", "G", "C")},
            "lands_played": (1 if (p,) in state.get("_land_played", set()) else 0)
                            + int(extra_used.get(p, 0)),
            "max_hand_size": max_hand,
            "hand": [card(c) for c in sorted(c for (q, c) in state.get("in_hand", set())
                                             if q == p)],
            "library": [card(c) for c in library],
            "graveyard": [card(c) for c in engine._graveyard_order.get(p, [])],
        }
    over = env.is_terminal(state)
    loser = state.get("_loser")
    winner = env.winner(state) if over else None
    suspended = engine._suspended
    pending: dict[str, Any] | None = None
    priority = None
    step = _step(state)
    if not over:
        if suspended is not None:
            decision = suspended.decision
            pending = {"player": suspended.player, "decision": DECISIONS[decision.key]}
            if decision.key == "cleanup_discard":
                with contextlib.redirect_stdout(io.StringIO()):
                    limit = driver._max_hand_size(decision.state, suspended.player) or 0
                hand = [c for (q, c) in decision.state.get("in_hand", set())
                        if q == suspended.player]
                pending["count"] = max(len(hand) - limit, 0)
        elif step == "declare_attackers":
            pending = {"player": _active(state), "decision": "declare_attackers"}
        elif step == "declare_blockers":
            pending = {"player": env.to_move(state), "decision": "declare_blockers"}
        else:
            priority = env.to_move(state)
    return {
        "turn": {"number": int(state.get("_turn", 0)) + 1, "active": _active(state),
                 "phase": PHASE_OF.get(step), "step": step if step in STEPS else None,
                 "priority": priority},
        "pending": pending,
        "players": players,
        "battlefield": battlefield,
        "stack": stack,
        "exile": [card(c) for c in sorted(c for c, z in zones.items() if z == "exile")],
        "ante": [],
        "command": [card(c) for c in sorted(c for c, z in zones.items() if z == "command")],
        "result": {"over": over, "winners": [winner] if winner else [],
                   "losers": [loser] if loser else [], "draw": over and not winner and not loser,
                   "reason": engine._reason if over else None},
    }


_CORPUS: dict[str, dict[str, Any]] = {}


def _corpus_by_name() -> dict[str, dict[str, Any]]:
    """The engine's card corpus (MTGJSON Oracle records) by name, loaded once."""
    if not _CORPUS:
        from mtg import _corpus

        _CORPUS.update({c["name"]: c for c in _corpus.load_cards()})
    return _CORPUS


class PythonMtgObservations(PythonMtgGame):
    """What goes out: the engine's relations as protocol observations and its zone
    changes as events."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        if self._state is None:
            raise BadRequest("no game: call new_game first")
        if player is not None and player not in PLAYERS:
            raise BadRequest(f"player must be A or B, not {player!r}")
        full = self._observation()
        return full if player is None else self._view(full, player)

    def events(self) -> list[dict[str, Any]]:
        found, self._events = self._events, []
        return found

    def _visible(self) -> State:
        return self._suspended.decision.state if self._suspended is not None else self._current()

    def _note_zones(self, state: State, initial: bool = False) -> list[dict[str, Any]]:
        """Compare every object's zone with the last state seen: a changed zone is a new
        incarnation and a zone_change event. Graveyard arrivals go on top, in the order seen."""
        zones = _zones(state)
        events = []
        for obj, zone in zones.items():
            self._names.setdefault(obj, _name(state, obj))
            before = self._zones.get(obj)
            if initial or before is None:
                self._incarnation.setdefault(obj, 0)
            elif before != zone:
                self._incarnation[obj] = self._incarnation.get(obj, 0) + 1
                events.append({"type": "zone_change", "object": obj, "new_object": obj,
                               "incarnation": self._incarnation[obj], "card": self._names[obj],
                               "from": before, "to": zone, "owner": _owner(state, obj)})
        owners = _owners(state)
        for player in PLAYERS:
            order = self._graveyard_order.get(player, [])
            now = {c for (c,) in state.get("graveyard", set()) if owners.get(c) == player}
            order = [c for c in order if c in now and self._zones.get(c) == "graveyard"]
            order = sorted(now - set(order)) + order  # arrivals of one move: by id
            self._graveyard_order[player] = order
        self._zones = zones
        return events

    def _visible_changed(self, state: State) -> None:
        self._events.extend(self._note_zones(state))
        self._cache = None

    def _observation(self) -> dict[str, Any]:
        state = self._visible()
        if self._cache is not None and self._cache[0] == id(state):
            return self._cache[1]
        observation = _observe(state, self)
        self._cache = (id(state), observation)
        return observation

    def _view(self, full: dict[str, Any], player: str) -> dict[str, Any]:
        """What ``player`` may see: the engine's own redacted view (``mtg.engine.observe``)
        says which cards of the hidden zones the player knows; a library card shows only when
        the player knows its position (the engine keeps no other library order for a seat)."""
        from mtg.engine import observe as engine_observe

        state = self._visible()
        view = engine_observe.observe(state, player)
        hands = {c for (_p, c) in view.get("in_hand", set())}
        top = {c for (_i, c) in view.get("library_top", set())}
        out = dict(full)
        out["players"] = {}
        for who, zones in full["players"].items():
            seen = dict(zones)
            seen["hand"] = [o if o["id"] in hands else {"hidden": True} for o in zones["hand"]]
            seen["library"] = [o if o["id"] in top else {"hidden": True}
                               for o in zones["library"]]
            out["players"][who] = seen
        return out
