"""Mutants of combat outside the seeds: the combat steps and who gets priority in them, who may
attack and block, evasion, removal from combat and combat damage (sections 506 to 511 of the
modern rules; 306 to 311, 500 and 501 of the 2004 rules). The keyword abilities have their own
module; only the first-strike combat damage step (modern 510.4) is here. Each mutant names the
rules it breaks."""

from __future__ import annotations

from reference_engine import combat
from reference_engine.board import Board
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.targets import Targets

# -- the steps of combat and priority in them ------------------------------------------------


@mutant("beginning-of-combat-step-skipped",
        "modern:506.1 modern:507.2 cr2004:306.1 cr2004:307.1",
        "The combat phase begins with the declare attackers step: there is no beginning of "
        "combat step, and nobody gets priority before attackers are declared.")
def _no_beginning_of_combat(p: Patcher) -> None:
    p.source(Game._next_step, ("nxt = step + 1\n",
                               "nxt = step + 1\n"
                               "    if nxt == DECLARE_ATTACKERS - 1:\n"
                               "        nxt = DECLARE_ATTACKERS\n"))


@mutant("attackers-declared-after-priority", "modern:508.1 cr2004:308.1",
        "The players get priority in the declare attackers step before the attackers are "
        "declared, not only after.")
def _attack_after_priority(p: Patcher) -> None:
    p.source(Game._run_step, ("if turn_based:\n",
                              "if turn_based and step == DECLARE_ATTACKERS:\n"
                              "        yield from self._priority_round()\n"
                              "    if turn_based:\n"))


@mutant("no-priority-after-attackers", "modern:508.2 cr2004:308.1",
        "Nobody gets priority in the declare attackers step: once attackers are declared the "
        "game goes on to the declare blockers step.")
def _no_priority_attackers(p: Patcher) -> None:
    p.source(Game._run_step, ("if step == UNTAP:\n", "if step in (UNTAP, DECLARE_ATTACKERS):\n"))


@mutant("blockers-declared-after-priority", "modern:509.1 cr2004:309.1",
        "The players get priority in the declare blockers step before the blockers are "
        "declared, not only after.")
def _block_after_priority(p: Patcher) -> None:
    p.source(Game._run_step, ("if turn_based:\n",
                              "if turn_based and step == DECLARE_BLOCKERS:\n"
                              "        yield from self._priority_round()\n"
                              "    if turn_based:\n"))


@mutant("no-priority-after-blockers", "modern:509.2 cr2004:309.1",
        "Nobody gets priority in the declare blockers step: once blockers are declared the "
        "game goes on to combat damage.")
def _no_priority_blockers(p: Patcher) -> None:
    p.source(Game._run_step, ("if step == UNTAP:\n", "if step in (UNTAP, DECLARE_BLOCKERS):\n"))


@mutant("no-priority-after-combat-damage", "modern:510.3",
        "Modern: the combat damage step ends as soon as its damage is dealt, with no priority "
        "in it.")
def _no_priority_damage(p: Patcher) -> None:
    p.source(Game._run_step, ("if step == UNTAP:\n",
                              "if step == UNTAP or (step == COMBAT_DAMAGE and not "
                              "self.combat_damage_uses_stack and self.first_strikers is None):\n"))


@mutant("combat-damage-resolution-ends-the-step-2004", "cr2004:310.4",
        "2004: once the combat damage on the stack resolves the combat damage step ends: the "
        "active player does not receive priority after it.")
def _damage_ends_step(p: Patcher) -> None:
    p.source(Game._priority_round, (
        "yield from self._resolve_top()\n",
        "was_damage = self.stack[-1].kind == \"combat_damage\"\n"
        "            yield from self._resolve_top()\n"
        "            if was_damage and not self.stack:\n"
        "                return\n"))


@mutant("no-priority-in-end-of-combat", "modern:511.1 cr2004:311.1",
        "Nobody gets priority in the end of combat step.")
def _no_priority_end_combat(p: Patcher) -> None:
    p.source(Game._run_step, ("if step == UNTAP:\n", "if step in (UNTAP, END_COMBAT):\n"))


@mutant("combat-status-kept-after-combat", "modern:511.3 cr2004:311.1",
        "Creatures are not removed from combat as combat ends: an attacker blocked in one "
        "combat is still blocked when it attacks in the next.")
def _status_kept(p: Patcher) -> None:
    p.source(combat.Combat._end_combat, (
        "obj.attacking = False\n        obj.blocking = None\n        obj.blocked = False\n",
        "pass\n"))


@mutant("no-attackers-still-declare-blockers", "modern:508.8 modern:506.1 cr2004:308.4 "
        "cr2004:306.1",
        "With no creature declared as an attacker, the declare blockers and combat damage "
        "steps still happen.")
def _no_skip(p: Patcher) -> None:
    p.source(Game._next_step, ("nxt = END_COMBAT\n", "nxt = DECLARE_BLOCKERS\n"))


@mutant("first-strike-step-skipped", "modern:510.4 cr2004:306.1",
        "Only one combat damage step, whatever the creatures in combat: first strikers deal "
        "their damage at the same time as the others.")
def _no_first_strike_step(p: Patcher) -> None:
    p.source(combat.Combat.first_strike_step, ("return found or None", "return None"))


# -- who may attack and block, and evasion --------------------------------------------------


@mutant("tapped-creature-attacks", "modern:508.1 modern:508.1a cr2004:308.2 cr2004:308.2a",
        "A tapped creature may be declared as an attacker.")
def _tapped_attacks(p: Patcher) -> None:
    p.source(combat.Combat.can_attack, (
        "if obj.controller != self.active or obj.tapped or obj.phased_out:",
        "if obj.controller != self.active or obj.phased_out:"))


@mutant("opponents-creature-attacks", "modern:506.2 modern:508.1a cr2004:306.3 cr2004:308.2a",
        "The active player may declare a creature the defending player controls as an "
        "attacker.")
def _opponent_attacks(p: Patcher) -> None:
    p.source(combat.Combat.can_attack, (
        "if obj.controller != self.active or obj.tapped or obj.phased_out:",
        "if obj.tapped or obj.phased_out:"))


@mutant("noncreature-attacks", "modern:506.3 cr2004:308.2a",
        "A permanent that is not a creature (an artifact) may be declared as an attacker.")
def _noncreature_attacks(p: Patcher) -> None:
    p.source(combat.Combat.can_attack, (
        'if "Creature" not in chars.types or "defender" in chars.keywords:',
        'if "defender" in chars.keywords:'))


@mutant("attack-restriction-ignored", "modern:508.1c cr2004:500.1 cr2004:308.2a",
        "An effect saying a creature can't attack (Pacifism) is not checked as attackers are "
        "declared.")
def _restriction_ignored(p: Patcher) -> None:
    p.source(combat.Combat.can_attack, ('if "cant_attack" in chars.flags:', "if False:"))


@mutant("attack-requirement-ignored", "modern:508.1d",
        "A requirement to attack (Juggernaut's \"attacks each combat if able\") is not checked: "
        "the declaration may end without the creature.")
def _requirement_ignored(p: Patcher) -> None:
    p.source(combat.Combat._attack_requirements_met, ("return not any(", "return True or any("))


@mutant("walls-block-juggernaut", "modern:509.1b cr2004:309.2a",
        "\"Can't be blocked by Walls\" is not checked as blockers are declared.")
def _walls_block(p: Patcher) -> None:
    p.source(combat.Combat.can_block, ('if "unblockable_by_walls" in attacking.flags',
                                       'if False'))


@mutant("attack-restriction-removes-from-combat", "cr2004:306.2a modern:508.1k",
        "An effect saying a creature can't attack, arriving after it was declared as an "
        "attacker, removes it from combat.")
def _restriction_removes(p: Patcher) -> None:
    p.source(combat.Combat.in_combat, (
        'not obj.phased_out) and "Creature" in self.chars(obj).types',
        'not obj.phased_out) and "Creature" in self.chars(obj).types and not ('
        'obj.attacking and "cant_attack" in self.chars(obj).flags)'))


@mutant("tapped-creature-blocks", "modern:509.1 modern:509.1a cr2004:309.2 cr2004:309.2a",
        "A tapped creature may be declared as a blocker.")
def _tapped_blocks(p: Patcher) -> None:
    p.source(combat.Combat.can_block, (
        "if blocker.tapped or blocker.controller == self.active or blocker.phased_out:",
        "if blocker.controller == self.active or blocker.phased_out:"))


@mutant("blocker-declared-twice", "modern:509.1a cr2004:309.2a",
        "A creature already declared as a blocker may be declared again, to block another "
        "attacker as well.")
def _block_twice(p: Patcher) -> None:
    p.source(combat.Combat._declare_blockers, (
        "for b in self.battlefield if b.id not in blocks\n", "for b in self.battlefield\n"))


@mutant("blocker-blocks-the-first-attacker", "modern:509.1g cr2004:309.2a",
        "A blocker blocks the first attacker it could block, not the one chosen for it.")
def _block_first(p: Patcher) -> None:
    p.source(combat.Combat._declare_blockers, (
        "blocks[action.card] = action.attacker\n",
        "blocks[action.card] = next(a.id for a in attackers if self.can_block("
        "self.objects[action.card], a))\n"))


@mutant("ground-creature-blocks-flyer", "modern:509.1b cr2004:309.2a cr2004:501.1",
        "A creature with neither flying nor reach may block a creature with flying.")
def _ground_blocks_flyer(p: Patcher) -> None:
    p.source(combat.Combat.can_block, (
        'if "flying" in keywords and not {"flying", "reach"} & chars.keywords:', "if False:"))


@mutant("evasion-rechecked-after-blocks", "modern:509.1b modern:509.1h cr2004:501.1",
        "A block is checked again as combat damage is assigned: an attacker that gained flying "
        "after blocks drops its ground blocker and, with none left, is unblocked.")
def _evasion_rechecked(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, (
        "plans: list[_Plan] = []\n",
        "plans: list[_Plan] = []\n"
        "    for b in self.battlefield:\n"
        "        a = self.objects.get(b.blocking) if b.blocking is not None else None\n"
        "        if a is not None and 'flying' in chars(a).keywords and not (\n"
        "                {'flying', 'reach'} & chars(b).keywords):\n"
        "            b.blocking = None\n"
        "            if not any(o.blocking == a.id for o in self.battlefield):\n"
        "                a.blocked = False\n"))


@mutant("attackers-stay-untapped", "modern:508.1f cr2004:308.2c",
        "Declaring a creature as an attacker does not tap it.")
def _attackers_untapped(p: Patcher) -> None:
    p.source(combat.Combat._declare_attackers,
             ('if not self.has(obj, "vigilance"):', "if False:"))


# -- removal from combat ----------------------------------------------------------------------


@mutant("regenerated-creature-stays-in-combat", "modern:506.4 cr2004:306.2",
        "A creature that regenerates stays in combat, still attacking or blocking.")
def _regen_stays(p: Patcher) -> None:
    p.source(Board._regenerated, ("obj.attacking = False\n    obj.blocking = None\n    ", ""))


@mutant("tapped-blocker-leaves-combat", "modern:506.4b modern:509.1g cr2004:306.2b",
        "A blocker that becomes tapped (Icy Manipulator) is removed from combat.")
def _tapped_blocker_leaves(p: Patcher) -> None:
    p.source(combat.Combat.in_combat, (
        'not obj.phased_out) and "Creature" in self.chars(obj).types',
        'not obj.phased_out) and "Creature" in self.chars(obj).types and not ('
        "obj.blocking is not None and obj.tapped)"))


# -- combat damage ----------------------------------------------------------------------------


@mutant("damage-assigned-by-defending-player", "modern:510.1 cr2004:310.1",
        "The defending player, not the attacking player, divides a blocked attacker's combat "
        "damage among its blockers.")
def _defender_divides(p: Patcher) -> None:
    p.source(combat.Combat._divide_combat_damage, (
        'Action("choose", self.active,', 'Action("choose", other(self.active),'), (
        'Decision("assign_combat_damage", self.active,',
        'Decision("assign_combat_damage", other(self.active),'))


@mutant("combat-damage-from-printed-power", "modern:510.1a cr2004:310.2a",
        "An attacker assigns combat damage equal to its printed power, not its power now "
        "(Giant Growth does not add to it).")
def _printed_power(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, (
        "power = max(0, chars(attacker).power or 0)  # negative power deals 0 (104.2)",
        "power = max(0, attacker.card.power or 0)"))


@mutant("one-unblocked-attacker-hits-the-player", "modern:510.1b cr2004:310.2b",
        "The combat damage of several unblocked attackers to the defending player is kept per "
        "recipient, the last overwriting the others: only one attacker's damage is dealt.")
def _overwrite(p: Patcher) -> None:
    p.source(combat.Combat._assign_combat_damage, (
        "assignments.extend(blocker_damage)\n",
        "assignments.extend(blocker_damage)\n"
        "    last = {a[1]: a for a in assignments if isinstance(a[1], str)}\n"
        "    assignments = [a for a in assignments if not isinstance(a[1], str)] + list(\n"
        "        last.values())\n"))


@mutant("blocked-attacker-hits-the-player", "modern:510.1c cr2004:310.2c",
        "A blocked creature deals its combat damage to the defending player, as if unblocked.")
def _blocked_hits(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, ("if not attacker.blocked:\n", "if True:\n"))


@mutant("attacker-without-blockers-hits-the-player",
        "modern:509.1h modern:510.1c cr2004:310.2c",
        "A blocked creature whose blockers have all left combat deals its damage to the "
        "defending player, as if it were unblocked.")
def _unblocked_again(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, (
        "blockers = self.blockers_in_combat(attacker)\n",
        "blockers = self.blockers_in_combat(attacker)\n"
        "        if not blockers:\n"
        "            plans.append(_Plan(attacker, [], [], power, False, "
        "[((defender, power),)]))\n"
        "            continue\n"))


@mutant("blocker-damages-a-removed-attacker", "modern:510.1d cr2004:310.2d",
        "A blocker deals its combat damage to the attacker it blocked even after that attacker "
        "was removed from combat (it regenerated).")
def _blocker_damages_removed(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, (
        "if blocked is None or not blocked.attacking or not self.in_combat(blocked):",
        "if blocked is None:"))


@mutant("partial-damage-division-accepted", "modern:510.1e cr2004:310.2",
        "A division of a blocked creature's damage that leaves some of its power unassigned "
        "is accepted.")
def _partial_division(p: Patcher) -> None:
    p.source(combat.damage_divisions, ("if left == 0:\n", "if left == 0 or not trample:\n"))


@mutant("combat-damage-one-creature-at-a-time", "modern:510.2 cr2004:310.4",
        "Combat damage is dealt attackers first: a blocker dealt lethal damage by them deals "
        "none of its own.")
def _one_at_a_time(p: Patcher) -> None:
    p.source(combat.Combat._deal_combat_damage, (
        "for source, target, amount in assignments:\n",
        "for source, target, amount in assignments:\n"
        "        if source.blocking is not None and source.zone == BATTLEFIELD and (\n"
        "                source.damage >= (self.chars(source).toughness or 0)):\n"
        "            continue\n"))


@mutant("combat-damage-can-be-countered-2004", "cr2004:310.3",
        "2004: combat damage on the stack can be the target of a spell that counters a spell "
        "(Counterspell).")
def _counter_damage(p: Patcher) -> None:
    p.source(Targets._target_universe, (
        'found = [item.id for item in self.stack if item.kind == "spell"]',
        'found = [item.id for item in self.stack if item.kind in ("spell", "combat_damage")]'))
    p.source(Targets.target_legal, (
        'if not isinstance(value, StackItem) or value.kind != "spell":',
        'if not isinstance(value, StackItem) or value.kind not in ("spell", "combat_damage"):'))


@mutant("combat-damage-of-a-departed-source-lost-2004", "cr2004:310.4a",
        "2004: combat damage on the stack whose source has left play by the time it resolves "
        "is not dealt.")
def _departed_source(p: Patcher) -> None:
    p.source(combat.Combat._deal_combat_damage, (
        "for source, target, amount in assignments:\n",
        "for source, target, amount in assignments:\n"
        "        if source.id not in self.objects or source.zone != BATTLEFIELD:\n"
        "            continue\n"))


@mutant("combat-damage-source-as-assigned-2004", "cr2004:310.4b",
        "2004: combat damage on the stack comes from its source as it was when the damage was "
        "assigned, not as it is when the damage resolves (a source made white since still "
        "gets through protection from white).")
def _source_as_assigned(p: Patcher) -> None:
    p.source(combat.Combat._assign_combat_damage, (
        "item.assignments = assignments\n",
        "item.assignments = assignments\n"
        "        item.data['as_assigned'] = {a[0].id: self.chars(a[0]) for a in assignments}\n"))
    p.source(Game._resolve_top, (
        "self._deal_combat_damage(item.assignments)\n",
        "saved = {}\n"
        "        for source in {a[0] for a in item.assignments}:\n"
        "            saved[source.id] = (source._chars, source._chars_version)\n"
        "            source._chars = item.data['as_assigned'][source.id]\n"
        "            source._chars_version = self.version\n"
        "        self._deal_combat_damage(item.assignments)\n"
        "        for source in {a[0] for a in item.assignments}:\n"
        "            source._chars, source._chars_version = saved[source.id]\n"))


@mutant("combat-damage-to-a-departed-creature-hits-the-player-2004", "cr2004:310.4c",
        "2004: combat damage assigned to a creature that has left play by the time it resolves "
        "goes to the opponent of its source's controller instead of being lost.")
def _departed_recipient(p: Patcher) -> None:
    p.source(combat.Combat._deal_combat_damage, (
        "for source, target, amount in assignments:\n",
        "for source, target, amount in assignments:\n"
        "        if not isinstance(target, str):\n"
        "            recipient = self.objects.get(target)\n"
        "            if recipient is None or recipient.zone != BATTLEFIELD:\n"
        "                target = other(source.controller)\n"))
