"""Mutants of types and permanents: summoning sickness, lands, timing, resolving permanents,
Auras and Equipment, type-changing effects, tokens and legends (cr2004 200-216)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from conformance.mutants.patching import Patcher
from conformance.mutants.registry import mutant
from reference_engine import combat, layers
from reference_engine.actions import Action
from reference_engine.cards import common
from reference_engine.constants import BATTLEFIELD, GRAVEYARD, MAIN_STEPS, STACK
from reference_engine.editions import Game2004
from reference_engine.game import Game
from reference_engine.objects import Decision, GameObject, StackItem

# The condition of sorcery timing, as Game._pool_actions spells it; the timing mutants
# replace it in one place only (spells, or lands) with one of its three parts left out.
_SORCERY_LINE = 'if not sorcery_ok and "Instant" not in types and not self.has(obj, "flash"):'
_LAND_LINE = "if sorcery_ok and not costly and self.can_play_land(name):"

# -- {T} and summoning sickness (104.4, 212.3d) --------------------------------------------------


@mutant("tap-while-tapped", "cr2004:104.4",
        "A {T} ability can be activated while its permanent is already tapped.")
def _tap_tapped(p: Patcher) -> None:
    p.source(Game.can_use_ability, ("(obj.tapped or (self.is_sick(obj)",
                                    "(False or (self.is_sick(obj)"))


@mutant("sick-creature-taps", "cr2004:212.3d cr2004:104.4",
        "A summoning-sick creature may use its {T} abilities.")
def _sick_taps(p: Patcher) -> None:
    p.source(Game.can_use_ability, ("(obj.tapped or (self.is_sick(obj) and",
                                    "(obj.tapped or (False and"))


@mutant("sickness-for-noncreatures", "cr2004:104.4",
        "Summoning sickness applies to {T} abilities of every permanent, not only creatures.")
def _sick_all(p: Patcher) -> None:
    p.source(Game.can_use_ability, ('self.is_sick(obj) and "Creature" in self.chars(obj).types',
                                    "self.is_sick(obj) and True"))


@mutant("sick-creature-attacks", "cr2004:212.3d",
        "A summoning-sick creature may attack.")
def _sick_attacks(p: Patcher) -> None:
    p.source(combat.CombatMixin.can_attack,
             ('return "haste" in chars.keywords or not self.is_sick(obj)', "return True"))


@mutant("haste-ignored", "cr2004:212.3d",
        "Haste does nothing: a creature with haste is summoning sick like any other.",
        audit="M13")
def _haste(p: Patcher) -> None:
    p.source(combat.CombatMixin.can_attack,
             ('return "haste" in chars.keywords or not self.is_sick(obj)',
              "return not self.is_sick(obj)"))
    p.source(Game.can_use_ability, ('and not self.has(obj, "haste"))):', ")):"))


@mutant("control-change-keeps-sickness-clock", "cr2004:212.3d",
        "A creature that changes control is not summoning sick for its new controller.",
        audit="M12")
def _control_sick(p: Patcher) -> None:
    p.source(layers.LayersMixin.refresh_control, ("obj.controlled_since = self.turn", "pass"))


@mutant("sickness-only-in-entry-turn", "cr2004:212.3d",
        "A creature is summoning sick only during the turn it came under control (so it taps "
        "in the opponent's next turn).")
def _sick_turn(p: Patcher) -> None:
    p.source(Game.is_sick, ("return obj.controlled_since >= self.players[obj.controller]"
                            ".last_turn", "return obj.controlled_since == self.turn"))


# -- lands (212.6, 212.2f) ---------------------------------------------------------------------


@mutant("two-lands-per-turn", "cr2004:212.6b",
        "The land count is off by one: a player may play two lands a turn.")
def _two_lands(p: Patcher) -> None:
    p.source(Game.can_play_land, ('lands_played < rules["land_plays"]',
                                  'lands_played <= rules["land_plays"]'))


@mutant("land-any-step", "cr2004:212.6a",
        "A land may be played in any step of its player's turn, not only in a main phase.")
def _land_step(p: Patcher) -> None:
    p.source(Game._pool_actions, (
        _LAND_LINE, "if self.active == name and not self.stack and not costly and "
        "self.can_play_land(name):"))


@mutant("land-in-opponents-turn", "cr2004:212.6a",
        "A land may be played in the opponent's main phase.")
def _land_turn(p: Patcher) -> None:
    p.source(Game._pool_actions, (
        _LAND_LINE, "if self.step in MAIN_STEPS and not self.stack and not costly and "
        "self.can_play_land(name):"))


@mutant("land-with-stack", "cr2004:212.6a",
        "A land may be played while the stack is not empty.")
def _land_stack(p: Patcher) -> None:
    p.source(Game._pool_actions, (
        _LAND_LINE,
        "if self.active == name and self.step in MAIN_STEPS and not costly and "
        "self.can_play_land(name):"))


@mutant("land-uses-stack", "cr2004:212.6a",
        "A played land goes on the stack like a spell and enters when it resolves.")
def _land_on_stack(p: Patcher) -> None:
    original = Game._take_action

    def _take_action(self: Game, action: Action) -> Generator[Decision, Action, None]:
        if action.kind != "play_land":
            yield from original(self, action)
            return
        obj = self.objects[action.card]
        self.players[action.player].lands_played += 1
        card = self.move(obj, STACK, cause="play_land")
        assert card is not None
        card.controller = action.player
        self.stack.append(StackItem(card.id, "spell", action.player, obj=card))
        self._events.append(("cast", action.player, card.id, card.card.name))

    p.set(Game, "_take_action", _take_action)


@mutant("artifact-land-castable", "cr2004:212.6g cr2004:212.2f",
        "An artifact land may also be cast as an artifact spell.")
def _artifact_land(p: Patcher) -> None:
    p.source(Game._pool_actions, ('if "Land" in types:\n',
                                      'if "Land" in types and "Artifact" not in types:\n'))


# -- sorcery timing (212.2a, 212.3a, 212.4a, 212.7a, 212.7e) ------------------------------------


@mutant("sorcery-speed-in-combat",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a",
        "Sorcery-speed spells check 'from the first to the second main phase', so combat too.")
def _sorcery_combat(p: Patcher) -> None:
    p.source(Game._pool_actions, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok",
        "not (self.active == name and MAIN1 <= self.step <= max(MAIN_STEPS) "
        "and not self.stack)")))


@mutant("sorcery-speed-in-opponents-turn",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a",
        "Sorcery-speed spells may be cast in the opponent's main phase.")
def _sorcery_turn(p: Patcher) -> None:
    p.source(Game._pool_actions, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok", "not (self.step in MAIN_STEPS and not self.stack)")))


@mutant("sorcery-speed-with-stack",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a",
        "Sorcery-speed spells may be cast while the stack is not empty.")
def _sorcery_stack(p: Patcher) -> None:
    p.source(Game._pool_actions, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok", "not (self.active == name and self.step in MAIN_STEPS)")))


@mutant("equip-any-time", "cr2004:212.7e cr2004:212.2h",
        "Equip may be activated any time its controller has priority (instant speed).")
def _equip_timing(p: Patcher) -> None:
    p.source(Game.can_use_ability, ("(spec.sorcery_speed or spec.equip or",
                                    "(spec.sorcery_speed or"))


# -- resolving permanents (212.2b, 212.3b, 212.4b) -----------------------------------------------


@mutant("resolves-under-active-player", "cr2004:212.2b cr2004:212.3b cr2004:212.4b",
        "A permanent spell resolves under the active player's control, not its caster's.",
        audit="M3")
def _resolve_active(p: Patcher) -> None:
    p.source(Game._resolve_top, ("controller=item.controller, cause=\"resolve\"",
                                 "controller=self.active, cause=\"resolve\""))


@mutant("spell-to-graveyard-before-effect", "cr2004:212.7b cr2004:212.5b modern:404.1",
        "An instant or sorcery goes to the graveyard as it starts resolving, before its effect.")
def _graveyard_early(p: Patcher) -> None:
    p.source(Game._resolve_top, ("spell = obj.impl.spell\n",
                                 "spell = obj.impl.spell\n"
                                 "        self.move(obj, GRAVEYARD, cause=\"resolve\")\n"))


# -- Auras and Equipment (212.4, 212.2g-k) --------------------------------------------------------


@mutant("aura-any-permanent", "cr2004:212.4d",
        "An Aura spell may target any permanent, whatever it may enchant.")
def _aura_target(p: Patcher) -> None:
    p.source(Game._spell_actions, ("for target in self.target_candidates(impl.enchant, name):",
                                   "for target in [o.id for o in self.live()]:"))


@mutant("aura-stays-when-illegal", "cr2004:212.4f",
        "An Aura whose enchanted permanent is gone or illegal stays on the battlefield.")
def _aura_stays(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        "elif obj.impl.enchant is not None and not self._aura_legal(obj):", "elif False:"))


@mutant("aura-to-controllers-graveyard", "cr2004:212.4f",
        "An Aura leaving the battlefield goes to its controller's graveyard, not its owner's.",
        audit="section 3 #7-#8")
def _aura_controller(p: Patcher) -> None:
    original = Game.move

    def move(self: Game, obj: GameObject, to: int, *args: Any, **kwargs: Any
             ) -> GameObject | None:
        if to == GRAVEYARD and obj.zone == BATTLEFIELD and obj.impl.enchant is not None:
            obj.owner = obj.controller
        return original(self, obj, to, *args, **kwargs)

    p.set(Game, "move", move)


@mutant("equipment-dies-with-creature", "cr2004:212.2i",
        "Equipment attached to an illegal or vanished creature goes to the graveyard.")
def _equipment_dies(p: Patcher) -> None:
    p.source(Game._state_based_actions, ("unattach.append(obj)", "to_graveyard.append(obj)"))


@mutant("equipment-stays-attached", "cr2004:212.2i",
        "Equipment stays attached to a creature that has left the battlefield.")
def _equipment_stays(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        'elif obj.attached_to is not None and "Equipment" in c.subtypes and (',
        "elif False and ("))


@mutant("equip-any-creature", "cr2004:212.2h",
        "Equip may target any creature, not only one its controller controls.")
def _equip_any(p: Patcher) -> None:
    p.source(common._yours, ("return obj.controller == controller", "return True"))


@mutant("equipment-ability-for-equipment-controller", "cr2004:212.2k",
        "An ability granted by Equipment can be activated by the Equipment's controller too.")
def _equip_granted(p: Patcher) -> None:
    original = Game._pool_actions

    def _pool_actions(self: Game, name: str) -> list[Action]:
        actions = original(self, name)
        player = self.players[name]
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        for obj in self.battlefield:
            if obj.controller == name or obj.phased_out:
                continue
            for index, spec in enumerate(self.abilities(obj)):
                granter = self.objects.get(spec.granted_by) if spec.granted_by else None
                if granter is not None and granter.controller == name:
                    self._ability_actions(actions, player, obj, index, spec, sorcery_ok)
        return actions

    p.set(Game, "_pool_actions", _pool_actions)


# -- type-changing effects (212.1b-d, 212.6e) ---------------------------------------------------


@mutant("land-type-added-not-replaced", "cr2004:212.1b cr2004:212.6e",
        "Setting a land's type adds the new land type to the old ones instead of replacing them.",
        audit="M4")
def _land_type_add(p: Patcher) -> None:
    p.source(common.set_land_types, (
        "chars.subtypes = tuple(s for s in chars.subtypes if s not in LAND_TYPES) + land_types",
        "chars.subtypes = chars.subtypes + land_types"))


@mutant("land-type-keeps-rules-text", "cr2004:212.6e",
        "A land whose type is set to a basic land type keeps its rules text.")
def _land_type_text(p: Patcher) -> None:
    p.source(common.set_land_types, ("chars.lost_abilities = True", "pass"))


@mutant("type-change-replaces-all-types", "cr2004:212.1c",
        "\"Still a land\" is ignored: a type-changing effect replaces every old type.")
def _types_replaced(p: Patcher) -> None:
    p.source(common.add_types, ("chars.types = chars.types | frozenset(types)",
                                "chars.types = frozenset(types)"))


@mutant("type-change-drops-supertypes", "cr2004:212.1d",
        "A type-changing effect clears the object's supertypes (legendary, basic).")
def _supertypes_dropped(p: Patcher) -> None:
    p.source(common.add_types, ("chars.types = chars.types | frozenset(types)",
                                "chars.types = chars.types | frozenset(types)\n"
                                "    chars.supertypes = frozenset()"))


# -- tokens and the legend rule (200.4a, 215.1, 216.3) -----------------------------------------


@mutant("token-owner-is-controller-2004", "cr2004:200.4a cr2004:216.1",
        "In 2004 a token's owner is the player who gets it, not the controller of what made it.",
        audit="M21")
def _token_owner(p: Patcher) -> None:
    p.source(Game2004._token_owner, ("return creator", "return receiver"))


@mutant("token-survives-off-battlefield", "cr2004:216.3",
        "A token that leaves the battlefield stays in its new zone.")
def _token_stays(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        "ceasing = self._tokens_ceasing() if self._tokens_outside else []", "ceasing = []"))


@mutant("legend-rule-off", "cr2004:215.1",
        "No legend rule: any number of same-named legendary permanents stay.", audit="M20")
def _legend(p: Patcher) -> None:
    p.source(Game._state_based_actions, ("if len(legendary) > 1 or len(worlds) > 1:",
                                         "if len(worlds) > 1:"))
