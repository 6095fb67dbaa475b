"""Observations out: phase-python's game as the protocol shows it (players, objects, the
stack, pending decisions, the result) and its events as protocol events."""

from __future__ import annotations

import re
from typing import Any

from conformance.engines.phase.game import NAME, PLAYERS, SEAT, BadRequest, PhaseGame, ProtocolError
from spec.cardpool import SUPERTYPES, TYPES

_STEP: dict[object, tuple[str, str]] = {  # phase's phase name -> (protocol phase, step)
    "Untap": ("beginning", "untap"), "Upkeep": ("beginning", "upkeep"),
    "Draw": ("beginning", "draw"), "PreCombatMain": ("precombat_main", "precombat_main"),
    "BeginCombat": ("combat", "beginning_of_combat"),
    "DeclareAttackers": ("combat", "declare_attackers"),
    "DeclareBlockers": ("combat", "declare_blockers"),
    "FirstStrikeDamage": ("combat", "combat_damage"),
    "CombatDamage": ("combat", "combat_damage"), "EndCombat": ("combat", "end_of_combat"),
    "PostCombatMain": ("postcombat_main", "postcombat_main"), "End": ("ending", "end"),
    "Cleanup": ("ending", "cleanup"),
}
_ZONE: dict[object, str] = {
    "Hand": "hand", "Library": "library", "Graveyard": "graveyard",
    "Battlefield": "battlefield", "Stack": "stack", "Exile": "exile",
    "Command": "command", "Sideboard": "outside"}
COLOR: dict[object, str] = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G"}
LETTER = {v: k for k, v in COLOR.items()}
_COUNTER = {"P1P1": "+1/+1", "M1M1": "-1/-1", "Plus1Plus1": "+1/+1", "Minus1Minus1": "-1/-1"}
#: phase-python's prompts -> protocol decisions (the rest: their names in snake case)
_DECISION = {
    "MulliganDecision": "mulligan", "DiscardToHandSize": "discard", "DiscardChoice": "discard",
    "DeclareAttackers": "declare_attackers", "DeclareBlockers": "declare_blockers",
    "AssignCombatDamage": "assign_combat_damage", "TriggerTargetSelection": "choose_targets",
    "TargetSelection": "choose_targets", "ChooseLegend": "legend_rule",
    "OptionalEffectChoice": "may", "OrderTriggers": "order_triggers",
    "ReturnAsAuraTarget": "choose_attachment", "DamageSourceChoice": "choose_source",
}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _mana_cost(cost: Any) -> tuple[str | None, int]:
    """phase's mana cost -> ("{1}{G}", mana value); (None, 0) for no cost."""
    if not isinstance(cost, dict) or cost.get("type") != "Cost":
        return None, 0
    shards = list(cost.get("shards") or [])
    generic = int(cost.get("generic") or 0)
    text, value = "", generic
    xs = [s for s in shards if s == "X"]
    text += "{X}" * len(xs)
    if generic or not shards:
        text += f"{{{generic}}}"
    for shard in shards:
        if shard == "X":
            continue
        text += "{" + _shard(shard) + "}"
        value += 1
    return text, value


def _shard(shard: Any) -> str:
    if isinstance(shard, str):
        if shard in COLOR:
            return COLOR[shard]
        if shard == "Colorless":
            return "C"
        parts = re.findall(r"White|Blue|Black|Red|Green|Colorless|Two|Phyrexian", shard)
        if parts:
            return "/".join({"Colorless": "C", "Two": "2", "Phyrexian": "P"}.get(p, COLOR.get(
                p, p)) for p in parts)
        return shard
    return str(shard)


def puts_on_top(waiting: dict[str, Any]) -> bool:
    data = waiting.get("data") or {}
    return waiting.get("type") == "EffectZoneChoice" \
        and data.get("effect_kind") == "PutAtLibraryPosition" \
        and (data.get("library_position") or {}).get("type") == "Top"


def _ordered(names: Any, order: tuple[str, ...]) -> list[str]:
    """Types in the suite's one order (phase lists them in the order effects added them:
    a Forest under Living Plane is ["Land", "Creature"]); unknown names last."""
    rank = {name: i for i, name in enumerate(order)}
    return sorted(names or [], key=lambda n: rank.get(n, len(rank)))


def _attached(value: Any) -> Any:
    """phase's attachment target ({"type": "Object", "data": id}) -> the object's id."""
    if isinstance(value, dict):
        return value.get("data") if value.get("type") == "Object" else None
    return value


class PhaseObservations(PhaseGame):
    """What goes out: phase-python's game as protocol observations, pending decisions,
    results and events."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        game = self._game()
        if player is not None and player not in PLAYERS:
            raise BadRequest(f"observe.player: {player!r} is not A or B")
        waiting = game.waiting_for()
        kind = waiting.get("type")
        phase_name, step = _STEP.get(game.phase, (None, None))
        priority = NAME.get(waiting["data"]["player"]) if kind == "Priority" else None
        turn = {"number": game.turn, "active": NAME[self._active_seat()], "phase": phase_name,
                "step": step, "priority": priority}
        players = {name: self._player(SEAT[name], player) for name in PLAYERS}
        battlefield = [self._permanent(o) for o in game.battlefield()]
        stack = [self._stack_object(e) for e in reversed(game.stack())]
        exile = [self._exiled(o, player) for o in game.exile()]
        command = [self._object(game.object(i))
                   for i in game.state()["state"].get("command_zone") or []]
        return {"turn": turn, "pending": self._pending(waiting), "players": players,
                "battlefield": battlefield, "stack": stack, "exile": exile,
                "ante": [], "command": command, "result": self._result(waiting)}

    def events(self) -> list[dict[str, Any]]:
        found, self._events = self._events, []
        return found

    def _pending(self, waiting: dict[str, Any]) -> dict[str, Any] | None:
        kind = waiting.get("type")
        data = waiting.get("data") or {}
        if kind in ("Priority", "GameOver"):
            return None
        actor = self._actor(waiting)
        if actor is None:
            return None
        if kind == "MulliganDecision":
            first = (data.get("pending") or [{}])[0]
            phase = first.get("phase") or {}
            if phase.get("type") == "BottomCards":
                self._sync_parts(waiting)
                return {"player": NAME[actor], "decision": "bottom",
                        "count": int(phase.get("count", 1)) - len(self._pending_parts)}
            return {"player": NAME[actor], "decision": "mulligan"}
        if puts_on_top(waiting):
            self._sync_parts(waiting)
            return {"player": NAME[actor], "decision": "put_on_top",
                    "count": int(data.get("count", 1)) - len(self._pending_parts)}
        if not isinstance(kind, str):
            raise ProtocolError(f"phase-python waits for {kind!r}, which names no prompt")
        decision = _DECISION.get(kind, _snake(kind))
        if kind == "NamedChoice":  # choice_type CreatureType, Color, ...
            decision = "choose_" + _snake(str(data.get("choice_type") or "option"))
        pending: dict[str, Any] = {"player": NAME[actor], "decision": decision}
        if kind in ("DiscardToHandSize", "DiscardChoice"):
            self._sync_parts(waiting)
            pending["count"] = int(data.get("count", 1)) - len(self._pending_parts)
        elif kind == "AssignCombatDamage":
            pending.update({
                "attacker": data.get("attacker_id"), "power": data.get("total_damage"),
                "blockers": [{"id": b["blocker_id"], "lethal": b.get("lethal_minimum")}
                             for b in data.get("blockers", [])],
                "trample": bool(data.get("trample")),
                "defender": NAME.get(data.get("defending_player"))})
        elif kind == "OrderTriggers":
            self._sync_parts(waiting)
            pending["triggers"] = [
                {"id": i, "source": t.get("source_id"), "card": t.get("source_name"),
                 "text": t.get("description")}
                for i, t in enumerate(data.get("triggers") or []) if i not in self._pending_parts]
        elif kind not in ("DeclareAttackers", "DeclareBlockers"):
            pending["engine_prompt"] = kind
        return pending

    def _result(self, waiting: dict[str, Any]) -> dict[str, Any]:
        if waiting.get("type") != "GameOver":
            return {"over": False, "winners": [], "losers": [], "draw": False, "reason": None}
        winner = (waiting.get("data") or {}).get("winner")
        if winner is None:
            return {"over": True, "winners": [], "losers": list(PLAYERS), "draw": True,
                    "reason": self._loss_reason(None)}
        loser = 1 - int(winner)
        return {"over": True, "winners": [NAME[int(winner)]], "losers": [NAME[loser]],
                "draw": False, "reason": self._loss_reason(loser)}

    def _loss_reason(self, loser: int | None) -> str | None:
        if self._conceded is not None:
            return "concede"
        seats = [loser] if loser is not None else [0, 1]
        for seat in seats:
            info = self.game.player(seat)
            if int(info.get("poison_counters", 0)) >= 10:
                return "poison"
            if int(info.get("life", 0)) <= 0:
                return "life"
            if info.get("drew_from_empty_library"):
                return "draw_empty_library"
        return None

    def _player(self, seat: int, viewer: str | None) -> dict[str, Any]:
        game = self.game
        info = game.player(seat)
        pool = dict.fromkeys(("W", "U", "B", "R", "G", "C"), 0)
        for unit in (info.get("mana_pool") or {}).get("mana", []):
            color = unit.get("color") if isinstance(unit, dict) else unit
            pool[COLOR.get(color, "C")] += 1
        own = viewer is None or viewer == NAME[seat]
        hand = [self._object(o) if own else {"hidden": True} for o in game.hand(seat)]
        if viewer is None:
            library = [self._object(game.object(i)) for i in info.get("library", [])]
        else:
            library = [{"hidden": True} for _ in info.get("library", [])]
        graveyard = [self._object(o) for o in reversed(game.graveyard(seat))]
        return {"life": int(info.get("life", 0)), "poison": int(info.get("poison_counters", 0)),
                "mana_pool": pool, "lands_played": int(info.get("lands_played_this_turn", 0)),
                "max_hand_size": self._max_hand_size(seat), "hand": hand, "library": library,
                "graveyard": graveyard}

    def _max_hand_size(self, seat: int) -> int | None:
        """Seven, or none while the player controls a permanent with phase's
        ``NoMaximumHandSize`` static (Spellbook): phase keeps no hand-size field."""
        for obj in self.game.battlefield():
            if obj.get("controller") != seat:
                continue
            for static in obj.get("static_definitions") or []:
                if "NoMaximumHandSize" in str(static.get("mode")):
                    return None
        return 7

    def _object(self, obj: dict[str, Any]) -> dict[str, Any]:
        types = obj.get("card_types") or {}
        cost, value = _mana_cost(obj.get("mana_cost"))
        creature = "Creature" in (types.get("core_types") or [])
        colors = [c for c in "WUBRG" if LETTER[c] in (obj.get("color") or [])]
        return {"id": obj["id"], "card": obj.get("name"), "owner": NAME[obj["owner"]],
                "types": _ordered(types.get("core_types"), TYPES),
                "supertypes": _ordered(types.get("supertypes"), SUPERTYPES),
                "subtypes": list(types.get("subtypes") or []),
                "colors": colors, "mana_cost": cost, "mana_value": value,
                "power": obj.get("power") if creature else None,
                "toughness": obj.get("toughness") if creature else None,
                "incarnation": int(obj.get("incarnation") or 0)}

    def _exiled(self, obj: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """A card phase exiled face down (``face_down``): hidden from both players (406.3);
        in a full observation, shown with no characteristics (406.3a)."""
        if not obj.get("face_down"):
            return self._object(obj)
        if viewer is not None:
            return {"hidden": True}
        out = self._object(obj)
        out.update({"types": [], "supertypes": [], "subtypes": [], "colors": [],
                    "mana_cost": None, "mana_value": 0, "power": None, "toughness": None})
        return out

    def _permanent(self, obj: dict[str, Any]) -> dict[str, Any]:
        out = self._object(obj)
        counters = {_COUNTER.get(k, k): v for k, v in (obj.get("counters") or {}).items() if v}
        out.update({"controller": NAME[obj["controller"]], "tapped": bool(obj.get("tapped")),
                    "sick": bool(obj.get("summoning_sick")),
                    "damage": int(obj.get("damage_marked") or 0), "counters": counters,
                    "attached_to": _attached(obj.get("attached_to")),
                    "token": bool(obj.get("is_token")),
                    "phased_out": (obj.get("phase_status") or {}).get("status") == "PhasedOut"})
        return out

    def _stack_object(self, entry: dict[str, Any]) -> dict[str, Any]:
        kind = entry.get("kind") or {}
        data = kind.get("data") or {}
        ability = data.get("ability") or {}
        source = entry.get("source_id")
        obj = self.game.object(source) if source is not None else None
        targets = [self._protocol_target(t) for t in ability.get("targets") or []]
        controller = NAME.get(entry.get("controller"), "A")
        base: dict[str, Any] = {
            "id": entry.get("id"), "kind": "spell" if kind.get("type") == "Spell" else
            "trigger" if kind.get("type") in ("TriggeredAbility", "Trigger") else "ability",
            "card": obj.get("name") if obj else None,
            "source": None if kind.get("type") == "Spell" else source,
            "controller": controller,
            "owner": NAME.get(obj.get("owner")) if obj else controller,
            "targets": targets, "x": data.get("x_value") if "x_value" in data else None,
            "engine_kind": kind.get("type")}
        if kind.get("type") == "Spell" and obj is not None:
            described = self._object(obj)
            for key in ("types", "supertypes", "subtypes", "colors", "mana_cost",
                        "mana_value", "power", "toughness", "incarnation"):
                base[key] = described[key]
        return base

    @staticmethod
    def _protocol_target(target: Any) -> dict[str, Any]:
        if isinstance(target, dict):
            if "Player" in target:
                return {"player": NAME[target["Player"]]}
            if "Object" in target:
                return {"object": target["Object"]}
        return {"object": target}

    def _record(self, events: Any) -> None:
        damaged: set[int] = set()
        for event in events or []:
            kind = event.get("type")
            data = event.get("data") or {}
            if kind == "ZoneChanged":
                record = data.get("record") or {}
                oid = data.get("object_id")
                incarnation = record.get("entered_incarnation")
                if incarnation is None:
                    try:
                        obj = self.game.object(oid)
                    except (ValueError, KeyError):
                        obj = None
                    incarnation = obj.get("incarnation") if obj else None
                out = {"type": "zone_change", "object": oid, "new_object": oid,
                       "card": record.get("name", ""),
                       "from": _ZONE.get(data.get("from"), str(data.get("from")).lower()),
                       "to": _ZONE.get(data.get("to"), str(data.get("to")).lower()),
                       "owner": NAME.get(record.get("owner"), "A")}
                if incarnation is not None:
                    out["incarnation"] = incarnation
                self._events.append(out)
            elif kind == "DamageDealt":
                target = self._protocol_target(data.get("target"))
                if "player" in target:
                    damaged.add(SEAT[target["player"]])
                damage: dict[str, Any] = {"type": "damage", "target": target,
                                          "amount": data.get("amount", 0),
                                          "combat": bool(data.get("is_combat"))}
                if data.get("source_id") is not None:
                    damage["source"] = data["source_id"]
                self._events.append(damage)
            elif kind == "LifeChanged":
                amount = int(data.get("amount", 0))
                seat = data.get("player_id")
                cause = "gain" if amount > 0 else "damage" if seat in damaged else "loss"
                self._events.append({"type": "life", "player": NAME.get(seat, "A"),
                                     "amount": amount, "cause": cause})
            elif kind == "CardDrawn":
                self._events.append({"type": "draw", "player": NAME.get(data.get("player_id"),
                                                                        "A"),
                                     "object": data.get("object_id")})
            elif kind == "PhaseChanged":
                phase_name, step = _STEP.get(data.get("phase"), (None, None))
                if step is not None:
                    self._events.append({"type": "step", "turn": self.game.turn,
                                         "phase": phase_name, "step": step})
            elif kind == "GameOver":
                result = self._result({"type": "GameOver", "data": data})
                self._events.append({"type": "game_over", "winners": result["winners"],
                                     "losers": result["losers"], "draw": result["draw"],
                                     "reason": result["reason"]})
