"""Combat: declaring attackers and blockers, ordering blockers, and combat damage.

Declarations are decisions made one creature at a time (``attack``/``block``, then ``done``);
when no creature could attack or block there is nothing to decide. 2004 puts combat damage on
the stack as an object (217.6e); the modern edition deals it at once (405.6e).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from reference_engine.actions import Action
from reference_engine.constants import BATTLEFIELD, other
from reference_engine.objects import Decision, GameObject, StackItem

if TYPE_CHECKING:
    from reference_engine.game import Game

_LANDWALK = {"plainswalk": "Plains", "islandwalk": "Island", "swampwalk": "Swamp",
             "mountainwalk": "Mountain", "forestwalk": "Forest"}


class CombatMixin:
    def can_attack(self: Game, obj: GameObject) -> bool:
        if obj.controller != self.active or obj.tapped or obj.phased_out:
            return False
        chars = self.chars(obj)
        if "Creature" not in chars.types or "defender" in chars.keywords:
            return False
        if "cant_attack" in chars.flags:
            return False
        return "haste" in chars.keywords or not self.is_sick(obj)

    def can_block(self: Game, blocker: GameObject, attacker: GameObject) -> bool:
        if blocker.tapped or blocker.controller == self.active or blocker.phased_out:
            return False
        chars = self.chars(blocker)
        if "Creature" not in chars.types or "cant_block" in chars.flags:
            return False
        attacking = self.chars(attacker)
        if "flying" in attacking.keywords and not {"flying", "reach"} & chars.keywords:
            return False
        for keyword, land_type in _LANDWALK.items():
            if keyword in attacking.keywords and any(
                o.controller == blocker.controller and land_type in self.chars(o).subtypes
                for o in self.battlefield if not o.phased_out
            ):
                return False  # landwalk: unblockable while the defender controls such a land
        return True

    def _declare_attackers(self: Game) -> Generator[Decision, Action, None]:
        active = self.active
        declared: list[GameObject] = []
        while True:
            options = [Action("attack", active, card=o.id) for o in self.battlefield
                       if o not in declared and self.can_attack(o)]
            if not options and not declared:
                return  # no creature can attack: nothing to decide
            options.append(Action("done", active))
            action = yield Decision("declare_attackers", active, options)
            if action.kind == "done":
                break
            declared.append(self.objects[action.card])
        for obj in declared:
            obj.attacking = True
            if not self.has(obj, "vigilance"):
                self.tap(obj)
        self._events.append(("attackers", tuple(o.id for o in declared)))
        for obj in declared:
            self.fire("attacks", obj)

    def _declare_blockers(self: Game) -> Generator[Decision, Action, None]:
        defender = other(self.active)
        attackers = [o for o in self.battlefield if o.attacking]
        blocks: dict[int, int] = {}
        while True:
            options = [
                Action("block", defender, card=b.id, attacker=a.id)
                for b in self.battlefield if b.id not in blocks
                for a in attackers if self.can_block(b, a)
            ]
            if not options and not blocks:
                break
            options.append(Action("done", defender))
            action = yield Decision("declare_blockers", defender, options)
            if action.kind == "done":
                break
            blocks[action.card] = action.attacker
        for blocker_id, attacker_id in blocks.items():
            self.objects[blocker_id].blocking = attacker_id
            self.objects[attacker_id].blocked = True
        if blocks:
            self._events.append(("blockers", tuple(blocks.items())))
        for attacker in attackers:
            if not attacker.blocked:
                self.fire("unblocked", attacker)
        for attacker in attackers:
            blockers = [b for b, a in blocks.items() if a == attacker.id]
            order: tuple[int, ...] = ()
            # The attacking player orders the blockers one at a time (there are n! orders);
            # an action giving the whole order at once is accepted too.
            while len(order) < len(blockers) - 1:
                options = [Action("order_blockers", self.active, attacker=attacker.id,
                                  order=(*order, b)) for b in blockers if b not in order]
                action = yield Decision("order_blockers", self.active, options,
                                        data={"attacker": attacker.id, "so_far": list(order)})
                order = action.order
            order += tuple(b for b in blockers if b not in order)
            self.block_order[attacker.id] = order

    def _combat_damage(self: Game) -> None:
        defender = other(self.active)
        assignments: list[tuple[GameObject, Any, int]] = []
        chars = self.chars
        for attacker in self.battlefield:
            if not attacker.attacking:
                continue
            power = max(0, chars(attacker).power or 0)  # negative power deals 0 (104.2)
            if power == 0:
                continue
            trample = self.has(attacker, "trample")
            if not attacker.blocked:
                assignments.append((attacker, defender, power))
                continue
            blockers = [self.objects[b] for b in self.block_order.get(attacker.id, ())
                        if b in self.objects and self.objects[b].zone == BATTLEFIELD]
            if not blockers:
                if trample:
                    assignments.append((attacker, defender, power))
                continue
            remaining = power
            for index, blocker in enumerate(blockers):
                last = index == len(blockers) - 1
                lethal = max(0, (chars(blocker).toughness or 0) - blocker.damage)
                amount = remaining if last and not trample else min(remaining, lethal)
                if amount:
                    assignments.append((attacker, blocker.id, amount))
                remaining -= amount
            if trample and remaining:
                assignments.append((attacker, defender, remaining))
        for blocker in self.battlefield:
            if blocker.blocking is None:
                continue
            attacker = self.objects.get(blocker.blocking)
            if attacker is None or attacker.zone != BATTLEFIELD:
                continue
            power = max(0, chars(blocker).power or 0)
            if power:
                assignments.append((blocker, attacker.id, power))
        if not assignments:
            return
        if self.combat_damage_uses_stack:
            item = StackItem(self._next_id, "combat_damage", self.active)
            self._next_id += 1
            item.assignments = assignments
            self.stack.append(item)
            self._events.append(("combat_damage_on_stack", item.id))
        else:
            self._deal_combat_damage(assignments)

    def _deal_combat_damage(self: Game, assignments: list[tuple[GameObject, Any, int]]) -> None:
        for source, target, amount in assignments:
            self.deal_damage(source, target, amount, combat=True)

    def _end_combat(self: Game) -> None:
        for obj in self.battlefield:
            obj.attacking = False
            obj.blocking = None
            obj.blocked = False
        self.block_order.clear()
        self._expire("combat")
