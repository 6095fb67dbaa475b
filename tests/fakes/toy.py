"""A toy engine: just enough of Magic, played correctly, to drive the harness end to end.

Five cards (Forest, Mountain, Island, Grizzly Bears, Lightning Bolt), both editions, every
capability of the protocol. Not a rules engine: no mana burn, no triggered abilities, combat
damage without the stack. The fakes of the harness's self-tests are this engine with one
misbehaviour each (``tests/fakes/miniatures.py``) or behind a process
(``tests/fakes/scriptable.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

STEPS = (
    ("beginning", "untap"), ("beginning", "upkeep"), ("beginning", "draw"),
    ("precombat_main", "precombat_main"),
    ("combat", "beginning_of_combat"), ("combat", "declare_attackers"),
    ("combat", "declare_blockers"), ("combat", "combat_damage"), ("combat", "end_of_combat"),
    ("postcombat_main", "postcombat_main"),
    ("ending", "end"), ("ending", "cleanup"),
)
STEP_NAMES = [s for _, s in STEPS]
MAIN = ("precombat_main", "postcombat_main")
COLOURS = "WUBRGC"

CARDS: dict[str, dict[str, Any]] = {
    "Forest": {"types": ["land"], "supertypes": ["basic"], "subtypes": ["Forest"],
               "colors": [], "mana_cost": None, "mana_value": 0, "produces": "G"},
    "Mountain": {"types": ["land"], "supertypes": ["basic"], "subtypes": ["Mountain"],
                 "colors": [], "mana_cost": None, "mana_value": 0, "produces": "R"},
    "Island": {"types": ["land"], "supertypes": ["basic"], "subtypes": ["Island"],
               "colors": [], "mana_cost": None, "mana_value": 0, "produces": "U"},
    "Grizzly Bears": {"types": ["creature"], "supertypes": [], "subtypes": ["Bear"],
                      "colors": ["G"], "mana_cost": "{1}{G}", "mana_value": 2, "power": 2,
                      "toughness": 2, "cost": {"G": 1, "generic": 1}},
    "Lightning Bolt": {"types": ["instant"], "supertypes": [], "subtypes": [],
                       "colors": ["R"], "mana_cost": "{R}", "mana_value": 1,
                       "cost": {"R": 1}, "damage": 3},
}


class IllegalAction(Exception):
    protocol_error = "illegal_action"

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason.replace("_", " "))
        self.reason = reason


class Unsupported(Exception):
    protocol_error = "unsupported"


@dataclass
class Obj:
    id: int
    card: str
    owner: str
    controller: str
    tapped: bool = False
    sick: bool = False
    damage: int = 0
    targets: list[dict[str, Any]] = field(default_factory=list)

    @property
    def data(self) -> dict[str, Any]:
        return CARDS[self.card]

    def is_(self, kind: str) -> bool:
        return kind in self.data["types"]


def other(player: str) -> str:
    return "B" if player == "A" else "A"


class ToyEngine:
    name = "toy"
    version = "1.0"
    protocol = 1
    editions = ("cr2004", "modern")
    capabilities = ("setup.start", "setup.state", "setup.library_order", "actions.legal",
                    "observe.stack", "observe.events", "observe.view")

    def __init__(self) -> None:
        self.edition = "cr2004"
        self._reset()

    def _reset(self) -> None:
        self.next_id = 1
        self.objects: dict[int, Obj] = {}
        self.zones: dict[tuple[str, str], list[int]] = {
            (p, z): [] for p in "AB" for z in ("hand", "library", "graveyard")}
        self.battlefield: list[int] = []
        self.stack: list[int] = []
        self.exile: list[int] = []
        self.life = {"A": 20, "B": 20}
        self.pool = {p: dict.fromkeys(COLOURS, 0) for p in "AB"}
        self.lands_played = {"A": 0, "B": 0}
        self.turn, self.active, self.step = 0, "A", None
        self.first_player = "A"
        self.priority: str | None = None
        self.passes = 0
        self.pending: dict[str, Any] | None = None
        self.attackers: list[int] = []
        self.blocks: dict[int, int] = {}  # blocker -> attacker
        self.result = {"over": False, "winners": [], "losers": [], "draw": False,
                       "reason": None}
        self.log: list[dict[str, Any]] = []

    # ---- protocol ----

    def hello(self, protocol: int) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "protocol": self.protocol,
                "editions": list(self.editions), "capabilities": list(self.capabilities),
                "cards": sorted(CARDS)}

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self._reset()
        self.edition = edition
        handles: dict[str, int] = {}
        if setup.get("start") == "game":
            rng = random.Random(setup["seed"])
            for player in "AB":
                deck = [c for entry in setup["decks"][player] for c in self._entries(entry)]
                rng.shuffle(deck)
                for card in deck:
                    self._put(card, player, (player, "library"))
            self.first_player = setup.get("first_player") or rng.choice("AB")
            self.active = self.first_player
            for player in "AB":
                for _ in range(7):
                    self._draw(player)
            self.pending = {"player": self.first_player, "decision": "mulligan"}
            self.log.clear()
            return {"handles": {}}
        turn = setup.get("turn", {})
        self.turn = turn.get("number", 1)
        self.active = turn.get("active", "A")
        self.step = turn.get("step", "precombat_main")
        self.first_player = self.active if self.turn == 1 else "A"
        for player, state in setup.get("players", {}).items():
            self.life[player] = state.get("life", 20)
            self.pool[player].update(state.get("mana_pool", {}))
            self.lands_played[player] = state.get("lands_played", 0)
            for zone in ("hand", "library", "graveyard"):
                for entry in state.get(zone, []):
                    self._place(entry, player, (player, zone), handles)
        for entry in setup.get("battlefield", []):
            owner = entry.get("owner") or entry.get("controller") or "A" \
                if isinstance(entry, dict) else "A"
            self._place(entry, owner, "battlefield", handles)
        self.priority = self.active
        return {"handles": handles}

    def legal_actions(self) -> list[dict[str, Any]]:
        candidates: list[dict[str, Any]] = []
        for player in "AB":
            candidates += [{"action": a, "player": player}
                           for a in ("pass", "keep", "mulligan", "done", "concede")]
            for oid in self.zones[(player, "hand")]:
                candidates.append({"action": "play_land", "player": player, "card": oid})
                candidates.append({"action": "discard", "player": player, "card": oid})
                if self.objects[oid].card == "Lightning Bolt":
                    candidates += [{"action": "cast", "player": player, "card": oid,
                                    "targets": [t]} for t in self._bolt_targets()]
                else:
                    candidates.append({"action": "cast", "player": player, "card": oid})
            for oid in self.battlefield:
                candidates.append({"action": "activate", "player": player, "card": oid,
                                   "ability": 0})
                candidates.append({"action": "attack", "player": player, "card": oid})
                candidates += [{"action": "block", "player": player, "card": oid,
                                "attacker": a} for a in self.attackers]
        return [a for a in candidates if self._why_illegal(a) is None]

    def perform(self, action: dict[str, Any]) -> None:
        reason = self._why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        getattr(self, "_" + action["action"])(action)

    def observe(self, player: str | None = None) -> dict[str, Any]:
        def zone(ids: list[int], hidden: bool = False) -> list[dict[str, Any]]:
            return [{"hidden": True} if hidden else self._object(i) for i in ids]

        phase = next((ph for ph, st in STEPS if st == self.step), None)
        observation: dict[str, Any] = {
            "turn": {"number": self.turn, "active": self.active, "phase": phase,
                     "step": self.step, "priority": self.priority},
            "pending": dict(self.pending) if self.pending else None,
            "players": {p: {
                "life": self.life[p], "poison": 0, "mana_pool": dict(self.pool[p]),
                "lands_played": self.lands_played[p], "max_hand_size": 7,
                "hand": zone(self.zones[(p, "hand")], player is not None and player != p),
                "library": zone(self.zones[(p, "library")], player is not None),
                "graveyard": zone(self.zones[(p, "graveyard")]),
            } for p in "AB"},
            "battlefield": [self._object(i, permanent=True) for i in self.battlefield],
            "stack": [self._stack_object(i) for i in self.stack],
            "exile": zone(self.exile),
            "ante": [],
            "result": dict(self.result),
        }
        observation["phased_out" if self.edition == "cr2004" else "command"] = []
        return observation

    def events(self) -> list[dict[str, Any]]:
        events, self.log = self.log, []
        return events

    def close(self) -> None:
        pass

    # ---- legality ----

    def _why_illegal(self, action: dict[str, Any]) -> str | None:
        kind, player = action.get("action"), action.get("player")
        if player not in ("A", "B"):
            return "no_such_player"
        if self.result["over"]:
            return "game_over"
        if kind == "concede":
            return None
        pending = self.pending
        if pending is not None:
            if pending["player"] != player:
                return "not_your_decision"
            allowed = {"mulligan": ("keep", "mulligan"), "declare_attackers": ("attack", "done"),
                       "declare_blockers": ("block", "done"), "discard": ("discard",)}
            if kind not in allowed.get(pending["decision"], ()):
                return "decision_pending"
            if kind in ("attack", "block", "discard"):
                return self._why_not_declare(action)
            return None
        if self.priority != player:
            return "no_priority"
        if kind == "pass":
            return None
        card = self.objects.get(action.get("card"))  # type: ignore[arg-type]
        if kind == "play_land":
            if card is None or action["card"] not in self.zones[(player, "hand")]:
                return "not_in_hand"
            if not card.is_("land"):
                return "not_a_land"
            if self.active != player or self.step not in MAIN or self.stack:
                return "not_main_phase"
            if self.lands_played[player] >= 1:
                return "land_already_played"
            return None
        if kind == "activate":
            if card is None or action["card"] not in self.battlefield \
                    or card.controller != player:
                return "not_your_permanent"
            if not card.is_("land") or action.get("ability") != 0:
                return "no_such_ability"
            return "tapped" if card.tapped else None
        if kind == "cast":
            if card is None or action["card"] not in self.zones[(player, "hand")]:
                return "not_in_hand"
            if card.is_("land"):
                return "lands_are_not_cast"
            if not card.is_("instant") and (self.active != player or self.step not in MAIN
                                            or self.stack):
                return "sorcery_timing"
            if card.card == "Lightning Bolt":
                targets = action.get("targets") or []
                if len(targets) != 1 or targets[0] not in self._bolt_targets():
                    return "illegal_target"
            if not self._can_pay(player, card.data["cost"]):
                return "cannot_pay"
            return None
        return "not_now"

    def _why_not_declare(self, action: dict[str, Any]) -> str | None:
        card = self.objects.get(action.get("card"))  # type: ignore[arg-type]
        player = action["player"]
        if action["action"] == "discard":
            return None if action.get("card") in self.zones[(player, "hand")] else "not_in_hand"
        if card is None or action["card"] not in self.battlefield or card.controller != player \
                or not card.is_("creature"):
            return "not_your_creature"
        if card.tapped:
            return "tapped"
        if action["action"] == "attack":
            if card.sick:
                return "summoning_sick"
            return "already_attacking" if card.id in self.attackers else None
        if action.get("attacker") not in self.attackers:
            return "not_an_attacker"
        return "already_blocking" if card.id in self.blocks else None

    def _bolt_targets(self) -> list[dict[str, Any]]:
        return [{"player": "A"}, {"player": "B"}] + [
            {"object": i} for i in self.battlefield if self.objects[i].is_("creature")]

    def _can_pay(self, player: str, cost: dict[str, int]) -> bool:
        pool = dict(self.pool[player])
        for colour, n in cost.items():
            if colour != "generic":
                if pool[colour] < n:
                    return False
                pool[colour] -= n
        return sum(pool.values()) >= cost.get("generic", 0)

    def _pay(self, player: str, cost: dict[str, int]) -> None:
        pool = self.pool[player]
        for colour, n in cost.items():
            if colour != "generic":
                pool[colour] -= n
        generic = cost.get("generic", 0)
        for colour in "CWUBRG":
            used = min(generic, pool[colour])
            pool[colour] -= used
            generic -= used

    # ---- actions ----

    def _pass(self, action: dict[str, Any]) -> None:
        self.passes += 1
        if self.passes < 2:
            self.priority = other(action["player"])
            return
        self.passes = 0
        if self.stack:
            self._resolve()
        else:
            self._next_step()

    def _concede(self, action: dict[str, Any]) -> None:
        self._lose([action["player"]], "concede")

    def _keep(self, action: dict[str, Any]) -> None:
        self._decided(action["player"])

    def _mulligan(self, action: dict[str, Any]) -> None:
        player = action["player"]
        hand = self.zones[(player, "hand")]
        size = len(hand) - 1
        while hand:
            self._move(hand[0], (player, "library"))
        rng = random.Random(len(self.zones[(player, "library")]))
        rng.shuffle(self.zones[(player, "library")])
        for _ in range(max(size, 0)):
            self._draw(player)
        if size <= 0:
            self._decided(player)

    def _decided(self, player: str) -> None:
        if player == self.first_player:
            self.pending = {"player": other(player), "decision": "mulligan"}
            return
        self.pending = None
        self.turn, self.active, self.step = 1, self.first_player, None
        self._next_step()

    def _play_land(self, action: dict[str, Any]) -> None:
        self.lands_played[action["player"]] += 1
        self._move(action["card"], "battlefield")
        self.passes = 0

    def _activate(self, action: dict[str, Any]) -> None:
        card = self.objects[action["card"]]
        card.tapped = True
        self.pool[action["player"]][card.data["produces"]] += 1

    def _cast(self, action: dict[str, Any]) -> None:
        card = self.objects[action["card"]]
        self._pay(action["player"], card.data["cost"])
        new = self._move(card.id, "stack")
        self.objects[new].targets = list(action.get("targets") or [])
        self.passes = 0
        self.priority = action["player"]

    def _attack(self, action: dict[str, Any]) -> None:
        self.attackers.append(action["card"])
        self.objects[action["card"]].tapped = True

    def _block(self, action: dict[str, Any]) -> None:
        self.blocks[action["card"]] = action["attacker"]

    def _done(self, action: dict[str, Any]) -> None:
        assert self.pending is not None
        decision = self.pending["decision"]
        self.pending = None
        if decision == "declare_attackers" and not self.attackers:
            self.step = "combat_damage"  # no attackers: skip blockers and damage
            self._next_step()
            return
        self.priority, self.passes = self.active, 0

    def _discard(self, action: dict[str, Any]) -> None:
        self._move(action["card"], (action["player"], "graveyard"))
        assert self.pending is not None
        self.pending["count"] -= 1
        if self.pending["count"] == 0:
            self.pending = None
            self._next_step()

    # ---- the game ----

    def _next_step(self) -> None:
        for player in "AB":
            self.pool[player] = dict.fromkeys(COLOURS, 0)
        index = STEP_NAMES.index(self.step) + 1 if self.step else 0
        if index == len(STEP_NAMES):
            self._begin_turn()
            return
        self.step = STEP_NAMES[index]
        self.passes = 0
        self.priority = self.active
        self.log.append({"type": "step", "turn": self.turn,
                         "phase": next(ph for ph, st in STEPS if st == self.step),
                         "step": self.step})
        if self.step == "untap":
            for oid in self.battlefield:
                obj = self.objects[oid]
                if obj.controller == self.active:
                    obj.tapped = obj.sick = False
            self._next_step()
        elif self.step == "draw" and self.turn == 1 and self.active == self.first_player:
            # the first player skips the draw of the game's first turn: the whole step, with
            # its priority (cr2004 101.5, modern 103.8a)
            self._next_step()
        elif self.step == "draw":
            self._draw(self.active)
        elif self.step == "declare_attackers":
            self.priority = None
            self.pending = {"player": self.active, "decision": "declare_attackers"}
        elif self.step == "declare_blockers":
            self.priority = None
            self.pending = {"player": other(self.active), "decision": "declare_blockers"}
        elif self.step == "combat_damage":
            self._combat_damage()
        elif self.step == "end_of_combat":
            self.attackers, self.blocks = [], {}
        elif self.step == "cleanup":
            self.priority = None
            for oid in self.battlefield:
                self.objects[oid].damage = 0
            excess = len(self.zones[(self.active, "hand")]) - 7
            if excess > 0:
                self.pending = {"player": self.active, "decision": "discard", "count": excess}
            else:
                self._next_step()

    def _begin_turn(self) -> None:
        self.turn += 1
        self.active = other(self.active)
        self.lands_played = {"A": 0, "B": 0}
        self.step = None
        self._next_step()

    def _combat_damage(self) -> None:
        defender = other(self.active)
        for attacker in self.attackers:
            blockers = [b for b, a in self.blocks.items() if a == attacker]
            power = self.objects[attacker].data["power"]
            if not blockers:
                self._damage(attacker, {"player": defender}, power, combat=True)
            else:
                self._damage(attacker, {"object": blockers[0]}, power, combat=True)
                for blocker in blockers:
                    self._damage(blocker, {"object": attacker},
                                 self.objects[blocker].data["power"], combat=True)
        self._state_based_actions()

    def _resolve(self) -> None:
        oid = self.stack[0]
        spell = self.objects[oid]
        if spell.is_("creature"):
            new = self._move(oid, "battlefield")
            self.objects[new].sick = True
            self.objects[new].controller = spell.controller
        else:
            target = spell.targets[0] if spell.targets else None
            legal = target is not None and (
                "player" in target or target.get("object") in self.battlefield)
            if legal:
                self._damage(oid, target, spell.data["damage"], combat=False)
            self._move(oid, (spell.owner, "graveyard"))
        self.priority, self.passes = self.active, 0
        self._state_based_actions()

    def _damage(self, source: int, target: dict[str, Any], amount: int, combat: bool) -> None:
        self.log.append({"type": "damage", "source": source, "target": target,
                         "amount": amount, "combat": combat})
        if "player" in target:
            self.life[target["player"]] -= amount
            self.log.append({"type": "life", "player": target["player"], "amount": -amount,
                             "cause": "damage"})
        else:
            self.objects[target["object"]].damage += amount

    def _state_based_actions(self) -> None:
        losers = [p for p in "AB" if self.life[p] <= 0]
        if losers:
            self._lose(losers, "life")
            return
        for oid in list(self.battlefield):
            obj = self.objects[oid]
            if obj.is_("creature") and obj.damage >= obj.data["toughness"]:
                self._move(oid, (obj.owner, "graveyard"))

    def _lose(self, losers: list[str], reason: str) -> None:
        winners = [p for p in "AB" if p not in losers]
        self.result = {"over": True, "winners": winners, "losers": losers,
                       "draw": not winners, "reason": reason}
        self.priority = self.pending = None
        self.log.append({"type": "game_over", **self.result})

    # ---- objects and zones ----

    def _entries(self, entry: Any) -> list[str]:
        if isinstance(entry, str):
            return [self._known(entry)]
        return [self._known(entry["card"])] * entry.get("count", 1)

    def _known(self, card: str) -> str:
        if card not in CARDS:
            raise Unsupported(f"unknown card {card}")
        return card

    def _place(self, entry: Any, owner: str, zone: Any, handles: dict[str, int]) -> None:
        spec = {"card": entry} if isinstance(entry, str) else entry
        for _ in range(spec.get("count", 1)):
            oid = self._put(self._known(spec["card"]), spec.get("owner", owner), zone)
            obj = self.objects[oid]
            obj.controller = spec.get("controller", obj.owner)
            obj.tapped = spec.get("tapped", False)
            obj.sick = spec.get("sick", False)
            obj.damage = spec.get("damage", 0)
            if "handle" in spec:
                handles[spec["handle"]] = oid

    def _put(self, card: str, owner: str, zone: Any) -> int:
        oid = self.next_id
        self.next_id += 1
        self.objects[oid] = Obj(oid, card, owner, owner)
        self._zone(zone).append(oid)
        return oid

    def _zone(self, zone: Any) -> list[int]:
        if zone == "battlefield":
            return self.battlefield
        if zone == "stack":
            return self.stack
        return self.zones[zone]

    def _where(self, oid: int) -> tuple[Any, str]:
        for key, ids in self.zones.items():
            if oid in ids:
                return key, key[1]
        if oid in self.battlefield:
            return "battlefield", "battlefield"
        return "stack", "stack"

    def _move(self, oid: int, to: Any) -> int:
        """Move an object; it becomes a new object (new id), put on top of ordered zones."""
        old = self.objects[oid]
        key, name = self._where(oid)
        self._zone(key).remove(oid)
        new = self.next_id
        self.next_id += 1
        self.objects[new] = Obj(new, old.card, old.owner, old.controller)
        target = self._zone(to)
        if to == "battlefield":
            target.append(new)
        else:
            target.insert(0, new)
        to_name = to if isinstance(to, str) else to[1]
        self.log.append({"type": "zone_change", "object": oid, "new_object": new,
                         "card": old.card, "from": name, "to": to_name, "owner": old.owner})
        return new

    def _draw(self, player: str) -> None:
        library = self.zones[(player, "library")]
        if not library:
            self._lose([player], "draw_empty_library")
            return
        oid = library[0]
        new = self._move(oid, (player, "hand"))
        self.log.append({"type": "draw", "player": player, "object": new})

    def _object(self, oid: int, permanent: bool = False) -> dict[str, Any]:
        obj = self.objects[oid]
        data = obj.data
        out = {"id": oid, "card": obj.card, "owner": obj.owner, "types": list(data["types"]),
               "supertypes": list(data["supertypes"]), "subtypes": list(data["subtypes"]),
               "colors": list(data["colors"]), "mana_cost": data["mana_cost"],
               "mana_value": data["mana_value"], "power": data.get("power"),
               "toughness": data.get("toughness")}
        if permanent:
            out.update(controller=obj.controller, tapped=obj.tapped, sick=obj.sick,
                       damage=obj.damage, counters={}, attached_to=None, token=False)
        return out

    def _stack_object(self, oid: int) -> dict[str, Any]:
        obj = self.objects[oid]
        return {"id": oid, "kind": "spell", "card": obj.card, "source": None,
                "controller": obj.controller, "owner": obj.owner,
                "targets": list(obj.targets), "x": None}
