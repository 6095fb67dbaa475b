"""Mutants of the keyword abilities, rules outside the seeds (modern 702, cr2004 502): first
strike and double strike, flying and reach, haste, landwalk, protection, trample, phasing,
vigilance, defender, deathtouch, lifelink, indestructible, shroud, hexproof, flash, flashback,
menace. Each breaks its rule the way an engine most likely would: the ability ignored, or
applied to the wrong thing. The cases that kill them are in
conformance/cases/beyond_keywords.yaml."""

from __future__ import annotations

from reference_engine import combat, legality, targets
from reference_engine.board import Board
from reference_engine.cards import choices, evergreen
from reference_engine.editions import Game2004, GameModern
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant

# -- first strike and double strike ------------------------------------------------------------


@mutant("first-strike-ignored", "modern:702.7b cr2004:502.2b",
        "First strike makes no first combat damage step: every creature deals its combat "
        "damage at once.")
def _first_strike_ignored(p: Patcher) -> None:
    p.source(combat.Combat.first_strike_step, ("return found or None", "return None"))


@mutant("second-step-by-first-strike-now", "modern:702.7c cr2004:502.2c",
        "Who deals damage in the second combat damage step is read from first strike as that "
        "step begins: a creature that gained first strike after the first step deals none.")
def _second_step_now(p: Patcher) -> None:
    p.source(combat.Combat.second_strikers, (
        "and (o.id not in first or", 'and (not self.has(o, "first strike") or'))


@mutant("first-strike-twice-is-double-strike", "cr2004:502.2d",
        "First strike gained again by a creature that has it adds up to double strike.")
def _first_strike_twice(p: Patcher) -> None:
    p.source(evergreen._gains_first_strike, (
        'keywords=frozenset(("first strike",)))',
        'keywords=frozenset(("double strike" if game.has(knight, "first strike") '
        'else "first strike",)))'))


@mutant("double-strike-is-first-strike", "modern:702.4b cr2004:502.28b",
        "Double strike is taken for first strike: the creature deals combat damage in the "
        "first combat damage step only.")
def _double_strike_once(p: Patcher) -> None:
    p.source(combat.Combat.second_strikers, (
        'or self.has(o, "double strike"))', "or False)"))


@mutant("double-strike-lost-still-strikes", "modern:702.4c",
        "Who deals damage in the second combat damage step is asked whether it has first "
        "strike now, not double strike: a creature that lost double strike in the first step "
        "deals its damage again.")
def _lost_double_strike(p: Patcher) -> None:
    p.source(combat.Combat.second_strikers, (
        'or self.has(o, "double strike"))',
        'or self.has(o, "double strike") or not self.has(o, "first strike"))'))


@mutant("double-strike-given-to-a-first-striker-ignored", "modern:702.4d",
        "A creature with first strike of its own deals no damage in the second combat damage "
        "step, double strike given or not.")
def _given_double_strike(p: Patcher) -> None:
    p.source(combat.Combat.second_strikers, (
        'or self.has(o, "double strike"))',
        'or self.has(o, "double strike") and not self.has(o, "first strike"))'))


# -- evasion and blocking ---------------------------------------------------------------------


@mutant("flying-not-evasion", "modern:702.9b cr2004:502.4b",
        "Flying is not checked as blockers are declared: a creature without flying or reach "
        "blocks a flyer.")
def _flying_ignored(p: Patcher) -> None:
    p.source(combat.Combat.can_block, (
        'if "flying" in keywords and not', 'if False and not'))


@mutant("reach-ignored", "modern:702.17b cr2004:502.4b",
        "Reach (2004: \"can block as though it had flying\") is not read: only a flyer blocks "
        "a flyer.")
def _reach_ignored(p: Patcher) -> None:
    p.source(combat.Combat.can_block, ('{"flying", "reach"} & chars.keywords',
                                       '{"flying"} & chars.keywords'))


@mutant("haste-lets-attack-not-tap", "modern:702.10c cr2004:502.5a",
        "Haste lifts summoning sickness for attacking only: a creature with haste can't use "
        "its {T} abilities in the turn it came under its controller's control.")
def _haste_tap(p: Patcher) -> None:
    p.source(legality.Legality.ability_refusal, (
        'if sick and not self.has(obj, "haste"):', "if sick:"))


@mutant("haste-lets-tap-not-attack", "modern:702.10b cr2004:502.5a",
        "Haste lifts summoning sickness for {T} abilities only: a creature with haste can't "
        "attack in the turn it came under its controller's control.")
def _haste_attack(p: Patcher) -> None:
    p.source(combat.Combat.can_attack, ('return "haste" in chars.keywords or not',
                                        "return not"))


@mutant("landwalk-ignored", "modern:702.14c cr2004:502.6a",
        "Landwalk is not checked as blockers are declared: a mountainwalker is blocked though "
        "the defending player controls a Mountain.")
def _landwalk_ignored(p: Patcher) -> None:
    p.source(combat.Combat.can_block, ("if keyword in keywords and any(",
                                       "if False and any("))


@mutant("menace-ignored", "modern:702.111b",
        "Menace is not checked: one creature alone may block a creature with menace.")
def _menace_ignored(p: Patcher) -> None:
    p.source(combat.Combat._declare_blockers, (
        'menace = [a.id for a in attackers if self.has(a, "menace")]', "menace = []"))


@mutant("vigilance-ignored", "modern:702.20b",
        "Vigilance does nothing: attacking taps the creature.")
def _vigilance_ignored(p: Patcher) -> None:
    p.source(combat.Combat._declare_attackers, ('if not self.has(obj, "vigilance"):',
                                                "if True:"))


@mutant("defender-ignored", "modern:702.3b",
        "Defender is not checked as attackers are declared: a creature with defender attacks.")
def _defender_ignored(p: Patcher) -> None:
    p.source(combat.Combat.can_attack, ('or "defender" in chars.keywords:', ":"))


# -- trample ----------------------------------------------------------------------------------


@mutant("trample-needs-no-lethal-damage", "modern:702.19b cr2004:502.9b",
        "Trample lets its controller assign damage to the player without lethal damage to "
        "every blocker first.")
def _trample_no_lethal(p: Patcher) -> None:
    p.source(combat.damage_divisions, ("elif trample and lethal_so_far:", "elif trample:"))


@mutant("trample-without-blockers-deals-nothing", "modern:702.19d cr2004:502.9c",
        "A blocked trampler whose blockers have all left combat assigns no damage, like any "
        "blocked creature.")
def _trample_no_blockers(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, (
        'trample = self.has(attacker, "trample")',
        'trample = self.has(attacker, "trample") and bool(blockers)'))


# -- protection, shroud and hexproof ----------------------------------------------------------


@mutant("protection-targets-ignored", "modern:702.16b cr2004:502.7a",
        "Protection does not stop targeting: a spell of the colour targets the permanent.")
def _protection_targets(p: Patcher) -> None:
    p.source(targets.Targets._guarded, ("if found.colors and source is not None:",
                                        "if found.colors and enchanting:"))


@mutant("protection-auras-ignored", "modern:702.16c cr2004:502.7a",
        "Protection does not stop enchanting: an Aura of the colour stays on the permanent "
        "that gains protection from it.")
def _protection_auras(p: Patcher) -> None:
    p.source(targets.Targets._guarded, ("if found.colors and source is not None:",
                                        "if found.colors and not enchanting:"))


@mutant("protection-equipment-ignored", "modern:702.16d",
        "Protection does not stop equipping: an Equipment of the colour stays attached.")
def _protection_equipment(p: Patcher) -> None:
    p.source(targets.Targets._equipment_legal, (
        "if protected_from(self.chars(target).keywords, self.chars(equipment).colors):",
        "if False:"))


@mutant("protection-damage-ignored", "modern:702.16e cr2004:502.7a",
        "Protection does not prevent damage: a source of the colour deals its damage.")
def _protection_damage(p: Patcher) -> None:
    p.source(Board._damage, (
        "if known is not None and protected_from(chars.keywords, known.colors):",
        "if False:"))


@mutant("protection-blocks-ignored", "modern:702.16f cr2004:502.7a",
        "Protection does not stop blocks: a creature of the colour blocks the protected "
        "attacker.")
def _protection_blocks(p: Patcher) -> None:
    p.source(combat.Combat.can_block, ("if protected_from(keywords, chars.colors):",
                                       "if False:"))


@mutant("shroud-spares-its-controller", "modern:702.18a",
        "Shroud is taken for hexproof: its controller's own spells and abilities target it.")
def _shroud_as_hexproof(p: Patcher) -> None:
    p.source(targets.Targets._guarded, ("found.shroud or (found.hexproof",
                                        "((found.shroud or found.hexproof)"))


@mutant("hexproof-ignored", "modern:702.11b",
        "Hexproof is not read: an opponent's spell targets the permanent.")
def _hexproof_ignored(p: Patcher) -> None:
    p.source(targets.Targets._guarded, ("found.shroud or (found.hexproof",
                                        "found.shroud or (False"))


# -- deathtouch, lifelink, indestructible ------------------------------------------------------


@mutant("deathtouch-ignored", "modern:702.2b",
        "Deathtouch does nothing: a creature dealt damage by it dies of lethal damage only.")
def _deathtouch_ignored(p: Patcher) -> None:
    p.source(Board._damage, ('if known is not None and "deathtouch" in known.keywords and',
                             'if False and'))


@mutant("deathtouch-lethal-is-toughness", "modern:702.2c",
        "A damage assignment ignores deathtouch: lethal damage to a blocker is its toughness, "
        "so a deathtouch trampler must assign that much before any to the player.")
def _deathtouch_lethal(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, ('if self.has(attacker, "deathtouch"):',
                                            "if False:"))


@mutant("deathtouch-forgets-a-gone-source", "modern:702.2e",
        "Deathtouch is read from the source only while it is still on the battlefield: an "
        "ability's damage from a creature that has left has none.")
def _deathtouch_gone(p: Patcher) -> None:
    p.source(Board._damage, ('if known is not None and "deathtouch" in known.keywords and',
                             'if source.id in self.objects and known is not None and '
                             '"deathtouch" in known.keywords and'))


@mutant("lifelink-ignored", "modern:702.15b",
        "Lifelink does nothing: damage from the source gains its controller no life.")
def _lifelink_ignored(p: Patcher) -> None:
    p.source(Board._damage_dealt, ('if "lifelink" in self.known_chars(source).keywords:',
                                   "if False:"))


@mutant("lifelink-gains-added-up", "modern:702.15e",
        "The combat damage dealt at once is counted as the first source's: two creatures with "
        "lifelink make one life gain of their total.")
def _lifelink_added_up(p: Patcher) -> None:
    p.source(combat.Combat._deal_combat_damage, (
        "before = dealt.get(source.id)\n            dealt[source.id] =",
        "source = next(iter(dealt.values()), (source,))[0]\n"
        "            before = dealt.get(source.id)\n            dealt[source.id] ="))


@mutant("lifelink-gains-per-recipient", "modern:702.15e",
        "Each recipient of a source's combat damage makes a life gain of its own: a lifelink "
        "trampler's damage to a blocker and the player is two life gains.")
def _lifelink_per_recipient(p: Patcher) -> None:
    p.source(combat.Combat._deal_combat_damage, (
        "if done:\n            before = dealt.get(source.id)",
        "if done:\n            self._damage_dealt(source, done)\n"
        "            continue\n            before = dealt.get(source.id)"))


@mutant("lifelink-forgets-a-gone-source", "modern:702.15c",
        "Lifelink is read from the source only while it is still on the battlefield: an "
        "ability's damage from a creature that has left gains no life.")
def _lifelink_gone(p: Patcher) -> None:
    p.source(Board._damage_dealt, (
        'if "lifelink" in self.known_chars(source).keywords:',
        'if source.id in self.objects and "lifelink" in self.known_chars(source).keywords:'))


@mutant("indestructible-ignored", "modern:702.12b",
        "Indestructible does nothing: lethal damage and destroy effects destroy the "
        "permanent.")
def _indestructible_ignored(p: Patcher) -> None:
    p.source(Game._sba_found, (
        'if obj.damage >= c.toughness and "indestructible" not in c.keywords:',
        "if obj.damage >= c.toughness:"))
    p.source(Game._perform_sbas, ('o, "indestructible") and not self._regenerated(o)]',
                                  'o, "no keyword") and not self._regenerated(o)]'))
    p.source(Board.destroy, ('if self.has(obj, "indestructible"):', "if False:"))
    p.source(choices._wrath, ('and not game.has(o, "indestructible")]', "]"))


# -- phasing -----------------------------------------------------------------------------------


@mutant("phased-out-never-phases-in", "modern:702.26a cr2004:502.15a",
        "A permanent that phased out stays phased out: no untap step phases it back in.")
def _never_phase_in(p: Patcher) -> None:
    p.source(GameModern._phase_in_and_out, (
        "phased = [o for o in self.battlefield if o.phased_out]", "phased = []"))
    p.source(Game2004._phase_in_and_out, ('zone = self.zones_extra["phased_out"]',
                                          "zone = []"))


@mutant("phased-out-creature-destroyed", "modern:702.26b",
        "A phased-out creature is still found by \"destroy all creatures\": Wrath of God "
        "destroys it.")
def _phased_out_destroyed(p: Patcher) -> None:
    p.source(choices._wrath, ("creatures = [o for o in game.live()",
                              "creatures = [o for o in game.battlefield"))


@mutant("aura-does-not-phase-with-its-creature", "modern:702.26g cr2004:502.15a",
        "What is attached to a permanent does not phase out with it: its Aura stays on the "
        "battlefield (and, enchanting a creature that is not there, goes to the graveyard).")
def _attachments_stay(p: Patcher) -> None:
    p.source(GameModern.phase_out, ("for item in _with_attachments(self.battlefield, obj):",
                                    "for item in (obj,):"))
    p.source(Game2004.phase_out, ("for item in _with_attachments(self.battlefield, obj):",
                                  "for item in (obj,):"))


# -- timing: flash and flashback ---------------------------------------------------------------


@mutant("flash-ignored", "modern:702.8a",
        "Flash is not read: a creature card with flash is cast only at sorcery timing.")
def _flash_ignored(p: Patcher) -> None:
    p.source(legality.cast_speed, ('if "Instant" in types or "flash" in chars.keywords:',
                                   'if "Instant" in types:'))


@mutant("flashback-spell-to-graveyard", "modern:702.34a",
        "A spell cast with flashback goes to its owner's graveyard as it resolves, not to "
        "exile: it can be cast from there again.")
def _flashback_graveyard(p: Patcher) -> None:
    p.source(Board.move, ('and obj.cast_info.get("flashback"):',
                          'and obj.cast_info.get("flashback") and False:'))
