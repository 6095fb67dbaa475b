"""Combat: declaring attackers and blockers, and combat damage.

Declarations are decisions made one creature at a time (``attack``/``block``, then ``done``);
when no creature could attack or block there is nothing to decide. 2004 puts combat damage on
the stack as an object (217.6e); the modern edition deals it at once (405.6e).

Only creatures still in combat assign or are assigned combat damage. A creature is removed from
combat when it regenerates, leaves the battlefield (2004: leaves play, phasing out included),
phases out or changes control (modern 506.4, 2004 306.2; outside the seeds). Regeneration and a
change of control clear ``attacking``/``blocking``; a creature phased out (modern: a status
that leaves its flags as they were) or no longer on the battlefield is out of combat here
whatever its flags say, and the end of combat clears the flags of every permanent, phased out
or not.

The attacking player divides a blocked creature's damage among its blockers (the
``assign_combat_damage`` decision) as they choose: there is no damage assignment order (modern
510.1c since the Foundations update of 2024-11-08; 2004 310.2c). Only trample asks for lethal
damage: the player may be assigned damage once every blocker is assigned lethal damage
(modern 702.19b, 2004 502.9b). The blockers are listed in the order they were declared, an
order that decides nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from typing import Any, NamedTuple

from reference_engine import events as ev
from reference_engine.actions import Action
from reference_engine.board import Board
from reference_engine.constants import BATTLEFIELD, other
from reference_engine.keywords import protected_from
from reference_engine.objects import Decision, GameObject, StackItem

_LANDWALK = {"plainswalk": "Plains", "islandwalk": "Island", "swampwalk": "Swamp",
             "mountainwalk": "Mountain", "forestwalk": "Forest"}


class _Plan(NamedTuple):
    """How one attacker's combat damage may be assigned: its legal divisions, each a tuple of
    (recipient, amount) pairs (every blocker as declared, then the player with trample)."""

    attacker: GameObject
    blockers: list[GameObject]
    lethal: list[int]
    power: int
    trample: bool
    divisions: list[tuple[tuple[Any, int], ...]]


def damage_divisions(power: int, lethal: Sequence[int], trample: bool
                     ) -> list[tuple[int, ...]]:
    """Every legal division of a blocked creature's ``power`` among its blockers (``lethal``:
    the damage each needs to be destroyed), as a tuple of amounts in the blockers' order, then,
    with ``trample``, the amount for the player.

    All the power is assigned (510.1a), divided among the blockers as the attacking player
    chooses (modern 510.1c, 2004 310.2c: any division, lethal damage or not). The player may be
    assigned damage only with trample and once every blocker is assigned lethal damage (modern
    702.19b, 2004 502.9b); with no blocker left, a trampler assigns everything to the player and
    any other creature nothing (modern 702.19d, 510.1c; 2004 502.9c, 310.2c). There are
    C(power + n, n) compositions at most for n recipients, a few dozen for the pool's
    creatures."""
    count = len(lethal)
    divisions: list[tuple[int, ...]] = []

    def extend(index: int, left: int, lethal_so_far: bool, amounts: tuple[int, ...]) -> None:
        if index == count:
            if left == 0:
                divisions.append((*amounts, 0) if trample else amounts)
            elif trample and lethal_so_far:
                divisions.append((*amounts, left))
            return
        for amount in range(left + 1):
            extend(index + 1, left - amount, lethal_so_far and amount >= lethal[index],
                   (*amounts, amount))

    if power > 0:
        extend(0, power, True, ())
    return divisions


class Combat(Board):

    def can_attack(self, obj: GameObject) -> bool:
        if obj.controller != self.active or obj.tapped or obj.phased_out:
            return False
        chars = self.chars(obj)
        if "Creature" not in chars.types or "defender" in chars.keywords:
            return False  # defender (modern 702.3b, 508.1c)
        if "cant_attack" in chars.flags:
            return False
        if self.walls_cant_attack and "Wall" in chars.subtypes:
            return False  # 2004 308.2a: a Wall can't attack (defender came in 2004-10)
        return "haste" in chars.keywords or not self.is_sick(obj)

    def can_block(self, blocker: GameObject, attacker: GameObject) -> bool:
        if blocker.tapped or blocker.controller == self.active or blocker.phased_out:
            return False
        chars = self.chars(blocker)
        if "Creature" not in chars.types or "cant_block" in chars.flags:
            return False
        attacking = self.chars(attacker)
        if "unblockable_by_walls" in attacking.flags and "Wall" in chars.subtypes:
            return False  # "can't be blocked by Walls" (Juggernaut): a restriction, 509.1b
        keywords = attacking.keywords
        if not keywords:
            return True  # no evasion ability: most attackers
        if "flying" in keywords and not {"flying", "reach"} & chars.keywords:
            # A flyer is blocked only by flying or reach (modern 509.1b, 702.9b, 702.17b;
            # 2004 502.4b: by flying, or "as though it had flying", Giant Spider's text then)
            return False
        if protected_from(keywords, chars.colors):
            return False  # protection: no blocker of the quality (modern 702.16f, 2004 502.7a)
        for keyword, land_type in _LANDWALK.items():
            if keyword in keywords and any(
                o.controller == blocker.controller and land_type in self.chars(o).subtypes
                for o in self.battlefield if not o.phased_out
            ):
                return False  # landwalk: unblockable while the defender controls such a land
        return True

    def _declare_attackers(self) -> Generator[Decision, Action, None]:
        active = self.active
        declared: list[GameObject] = []
        while True:
            options = [Action("attack", active, card=o.id) for o in self.battlefield
                       if o not in declared and self.can_attack(o)]
            if not options and not declared:
                return  # no creature can attack: nothing to decide
            if not self._attack_requirements_met(options):
                action = yield Decision("declare_attackers", active, options)
                declared.append(self.object_of(action))
                continue
            options.append(Action("done", active))
            action = yield Decision("declare_attackers", active, options)
            if action.kind == "done":
                break
            declared.append(self.object_of(action))
        for obj in declared:
            obj.attacking = True
            if not self.has(obj, "vigilance"):
                self.tap(obj)
        self._events.append(ev.Attackers(tuple(o.id for o in declared)))
        for obj in declared:
            self.fire("attacks", obj)

    def _attack_requirements_met(self, undeclared: list[Action]) -> bool:
        """Whether the declaration may end: no creature that attacks if able (Juggernaut) is
        among those that could still attack. The pool restricts creatures one by one and
        puts no cost on attacking, so obeying every requirement is always the most that can
        be obeyed (modern 508.1d; 2004 308.2a leaves requirements to the cards' text, and
        the modern rule is followed)."""
        return not any("attacks_if_able" in self.chars(self.objects[a.card]).flags
                       for a in undeclared if a.card is not None)

    def _declare_blockers(self) -> Generator[Decision, Action, None]:
        defender = other(self.active)
        attackers = [o for o in self.battlefield if o.attacking]
        blocks: dict[int, int] = {}
        # A creature with menace can't be blocked except by two or more creatures (modern
        # 702.111b, 509.1b): the declaration ends only with none or two of them on each such
        # attacker, and a block is offered only if the declaration can still end legally.
        menace = [a.id for a in attackers if self.has(a, "menace")]
        while True:
            options = [
                Action("block", defender, card=b.id, attacker=a.id)
                for b in self.battlefield if b.id not in blocks
                for a in attackers if self.can_block(b, a)
            ]
            if menace:
                options = [o for o in options if self._menace_can_end(
                    {**blocks, o.card: o.attacker}, menace)]  # type: ignore[dict-item]
            if not options and not blocks:
                break
            if not menace or self._menace_satisfied(blocks, menace):
                options.append(Action("done", defender))
            action = yield Decision("declare_blockers", defender, options)
            if action.kind == "done":
                break
            assert action.card is not None and action.attacker is not None  # a block option
            blocks[action.card] = action.attacker
        for blocker_id, attacker_id in blocks.items():
            self.objects[blocker_id].blocking = attacker_id
            self.objects[attacker_id].blocked = True
        if blocks:
            self._events.append(ev.Blockers(tuple(blocks.items())))
        for attacker in attackers:
            if not attacker.blocked:
                self.fire("unblocked", attacker)
        for attacker in attackers:
            # No damage assignment order (modern 510.1c, since 2024-11-08; 2004 310.2c): the
            # blockers are kept as declared, and nobody is asked to order them.
            self.block_order[attacker.id] = tuple(b for b, a in blocks.items()
                                                  if a == attacker.id)

    def _menace_satisfied(self, blocks: dict[int, int], menace: list[int]) -> bool:
        """No attacker with menace is blocked by exactly one creature."""
        counts = Counter(blocks.values())
        return all(counts[a] != 1 for a in menace)

    def _menace_can_end(self, blocks: dict[int, int], menace: list[int]) -> bool:
        """Whether blockers not yet declared can give a second blocker to every attacker
        with menace that has one: a distinct free creature that can block each (a matching;
        a handful of creatures at most)."""
        counts = Counter(blocks.values())
        short = [a for a in menace if counts[a] == 1]
        if not short:
            return True
        defender = other(self.active)
        free = [b for b in self.battlefield if b.controller == defender and b.id not in blocks]
        able = [[b.id for b in free if self.can_block(b, self.objects[a])] for a in short]

        def match(index: int, used: frozenset[int]) -> bool:
            if index == len(able):
                return True
            return any(match(index + 1, used | {b}) for b in able[index] if b not in used)

        return match(0, frozenset())

    def first_strike_step(self) -> frozenset[int] | None:
        """The creatures in combat with first strike or double strike as the combat damage
        step begins, or None if there are none: then the step is the only one (modern
        510.4, 2004 502.2b)."""
        found = frozenset(o.id for o in self.battlefield
                          if (o.attacking or o.blocking is not None) and self.in_combat(o)
                          and (self.has(o, "first strike") or self.has(o, "double strike")))
        return found or None

    def second_strikers(self, first: frozenset[int]) -> frozenset[int]:
        """Who assigns combat damage in the second combat damage step: the creatures still
        in combat that had neither first strike nor double strike as the first step began,
        and those that have double strike now (modern 510.4, 702.4c-d, 702.7c). 2004 502.2b
        says those that didn't assign combat damage in the first step, and those with double
        strike; 502.2c: adding or removing first strike after the first step changes
        neither. The two differ only for a first striker that assigned nothing in the first
        step: with no blocker left (none in the second either), or with 0 power (what 2004
        says of it is unsure, and the modern rule is followed)."""
        return frozenset(o.id for o in self.battlefield
                         if (o.attacking or o.blocking is not None) and self.in_combat(o)
                         and (o.id not in first or self.has(o, "double strike")))

    def in_combat(self, obj: GameObject) -> bool:
        """Still attacking or blocking: on the battlefield, not phased out (treated as though
        it does not exist, modern 702.26b; 2004: in the phased-out zone, 217.8c), still a
        creature, and not removed from combat (its flags, cleared by regeneration and control
        change; modern 506.4, 2004 306.2)."""
        return (obj.attacking or obj.blocking is not None) and obj.zone == BATTLEFIELD and (
            not obj.phased_out) and "Creature" in self.chars(obj).types  # 506.4; 2004 306.2

    def blockers_in_combat(self, attacker: GameObject) -> list[GameObject]:
        """The creatures still blocking ``attacker``, in the order they were declared."""
        blockers = []
        for blocker_id in self.block_order.get(attacker.id, ()):
            blocker = self.objects.get(blocker_id)
            if blocker is not None and blocker.blocking == attacker.id and self.in_combat(
                    blocker):
                blockers.append(blocker)
        return blockers

    def _combat_damage(self, strikers: frozenset[int] | None = None) -> Iterator[Decision]:
        """Combat damage is assigned by and to the creatures still in combat, then put on the
        stack (2004: assigned as it goes on the stack, 217.6e) or dealt at once (modern: a
        turn-based action as the combat damage step begins, 405.6e). With ``strikers``, only
        those creatures assign damage (one of two combat damage steps, modern 510.4, 2004
        502.2b); every creature still in combat may be assigned some.

        Returns the attacking player's ``assign_combat_damage`` decisions, one per attacker
        whose damage can be divided more than one way; the caller runs them (``yield from``)
        and the damage is assigned after the last one. With nothing to decide the damage has
        already been assigned when this returns, and the iterator is empty."""
        defender = other(self.active)
        chars = self.chars
        plans: list[_Plan] = []
        for attacker in self.battlefield:
            if not attacker.attacking or not self.in_combat(attacker):
                continue
            if strikers is not None and attacker.id not in strikers:
                continue
            power = max(0, chars(attacker).power or 0)  # negative power deals 0 (104.2)
            if power == 0:
                continue
            if not attacker.blocked:
                plans.append(_Plan(attacker, [], [], power, False, [((defender, power),)]))
                continue
            # Blocked: among the blockers still in combat (none: no damage, or all of it to
            # the player with trample; modern 510.1c, 702.19d; 2004 310.2c, 502.9c).
            blockers = self.blockers_in_combat(attacker)
            trample = self.has(attacker, "trample")
            # Lethal damage: toughness less the damage already marked; from a deathtouch
            # source any damage at all (modern 702.2c, 702.19b). A blocker blocks one attacker
            # here, so no other creature assigns it damage in the same step (the other term
            # of modern 702.19b).
            lethal = [max(0, (chars(b).toughness or 0) - b.damage) for b in blockers]
            if self.has(attacker, "deathtouch"):
                lethal = [min(1, need) for need in lethal]
            recipients = [b.id for b in blockers] + ([defender] if trample else [])
            divisions = [tuple(zip(recipients, amounts, strict=True)) for amounts in
                         damage_divisions(power, lethal, trample)]
            plans.append(_Plan(attacker, blockers, lethal, power, trample, divisions))
        blocker_damage: list[tuple[GameObject, int, int]] = []
        for blocker in self.battlefield:
            if blocker.blocking is None or not self.in_combat(blocker):
                continue
            if strikers is not None and blocker.id not in strikers:
                continue
            # A blocker whose attacker left combat assigns no damage (510.1d, 2004 310.2d).
            blocked = self.objects.get(blocker.blocking)
            if blocked is None or not blocked.attacking or not self.in_combat(blocked):
                continue
            power = max(0, chars(blocker).power or 0)
            if power:
                blocker_damage.append((blocker, blocked.id, power))
        if all(len(plan.divisions) <= 1 for plan in plans):
            self._assign_combat_damage(
                [(plan.attacker, plan.divisions[0] if plan.divisions else ()) for plan in plans],
                blocker_damage)
            return iter(())
        return self._divide_combat_damage(plans, blocker_damage)

    def _divide_combat_damage(self, plans: list[_Plan],
                              blocker_damage: list[tuple[GameObject, int, int]]
                              ) -> Generator[Decision, Action, None]:
        """The attacking player chooses each division that has more than one legal answer
        (a list of ``[recipient, amount]``: every blocker, in the order they were declared,
        then the player with trample), attacker by attacker; then the damage is assigned."""
        chosen: list[tuple[GameObject, tuple[Any, ...]]] = []
        for plan in plans:
            if len(plan.divisions) <= 1:
                chosen.append((plan.attacker, plan.divisions[0] if plan.divisions else ()))
                continue
            options = [Action("choose", self.active, choice=d) for d in plan.divisions]
            data = {"attacker": plan.attacker.id, "power": plan.power,
                    "blockers": [{"id": b.id, "lethal": lethal}
                                 for b, lethal in zip(plan.blockers, plan.lethal, strict=True)],
                    "trample": plan.trample, "defender": other(self.active)}
            action = yield Decision("assign_combat_damage", self.active, options, data=data)
            chosen.append((plan.attacker, action.choice))
        self._assign_combat_damage(chosen, blocker_damage)

    def _assign_combat_damage(self, chosen: list[tuple[GameObject, tuple[Any, ...]]],
                              blocker_damage: list[tuple[GameObject, int, int]]) -> None:
        assignments: list[tuple[GameObject, Any, int]] = [
            (attacker, recipient, amount)
            for attacker, division in chosen for recipient, amount in division if amount]
        assignments.extend(blocker_damage)
        if not assignments:
            return
        if self.combat_damage_uses_stack:
            item = StackItem(self._next_id, "combat_damage", self.active)
            self._next_id += 1
            item.assignments = assignments
            self.stack.append(item)
            self._events.append(ev.CombatDamageOnStack(item.id))
        else:
            self._deal_combat_damage(assignments)

    def _deal_combat_damage(self, assignments: list[tuple[GameObject, Any, int]]) -> None:
        # 2004: damage on the stack is dealt as assigned even if its source has left play or
        # either creature has left combat since (310.4a, outside the seed), but not to a
        # creature no longer in play (310.4c; _damage checks the battlefield). All of it is
        # dealt at once (modern 510.2, 2004 310.4): what each source dealt then counts as one
        # event for lifelink and for what triggers on it (modern 702.15e).
        dealt: dict[int, tuple[GameObject, int]] = {}
        for source, target, amount in assignments:
            done = self._damage(source, target, amount, True)
            if done:
                before = dealt.get(source.id)
                dealt[source.id] = (source, done + (before[1] if before else 0))
        for source, total in dealt.values():
            self._damage_dealt(source, total)

    def _end_combat(self) -> None:
        # Everything leaves combat, a 2004 permanent in the phased-out zone too: it phases in
        # out of combat (it left combat as it left play, 217.8c; 2004 306.2, outside the seed).
        for obj in [*self.battlefield, *self.zones_extra.get("phased_out", ())]:
            obj.attacking = False
            obj.blocking = None
            obj.blocked = False
        self.block_order.clear()
        self.first_strikers = None
        self._expire("combat")
