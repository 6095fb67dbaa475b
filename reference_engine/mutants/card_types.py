"""Mutants of types and permanents: summoning sickness, lands, timing, resolving permanents,
Auras and Equipment, type-changing effects, tokens and legends (cr2004 200-216)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from reference_engine import combat, editions, layers, legality
from reference_engine.actions import Action
from reference_engine.cards import choices, common
from reference_engine.constants import BATTLEFIELD, GRAVEYARD, MAIN_STEPS, STACK
from reference_engine.editions import Game2004, GameModern
from reference_engine.events import Cast
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.objects import AbilitySpec, Decision, GameObject, StackItem

# The condition of sorcery timing, as Game.cast_timing_refusals spells it for spells and
# Game.land_play_refusal for lands; the timing mutants replace it in one place only (spells,
# or lands) with one of its three parts left out.
_SORCERY_LINE = 'if speed == "sorcery" and not sorcery_ok:'
# What legality.cast_speed says may be cast any time an instant could be.
_INSTANT_LINE = 'if "Instant" in types or "flash" in chars.keywords:'
_LAND_LINE = "if not sorcery_ok:"

def _also_activated_by(p: Patcher, may: Callable[[Game, GameObject, AbilitySpec, str], bool]
                       ) -> None:
    """Let a player activate the abilities of permanents they do not control that ``may``
    allows, as though they controlled them: listed, and accepted when performed (one broken
    rule, broken consistently)."""
    listing = Game._priority_actions
    refusal = Game._activation_refusal

    def _priority_actions(self: Game, name: str) -> list[Action]:
        actions = listing(self, name)
        pool = self.players[name].pool
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        for obj in self.battlefield:
            if obj.controller == name or obj.phased_out:
                continue
            for index, spec in enumerate(self.abilities(obj)):
                if may(self, obj, spec, name):
                    controller, obj.controller = obj.controller, name
                    try:
                        self._ability_actions(actions, [], name, obj, index, spec, sorcery_ok,
                                              pool, pool)
                    finally:
                        obj.controller = controller
        return actions

    def _activation_refusal(self: Game, action: Action, obj: GameObject | None) -> str | None:
        if obj is not None and obj.zone == BATTLEFIELD and obj.controller != action.player:
            abilities = self.abilities(obj)
            index = action.ability
            if index is not None and index < len(abilities) and may(
                    self, obj, abilities[index], action.player):
                controller, obj.controller = obj.controller, action.player
                try:
                    return refusal(self, action, obj)
                finally:
                    obj.controller = controller
        return refusal(self, action, obj)

    p.set(Game, "_priority_actions", _priority_actions)
    p.set(Game, "_activation_refusal", _activation_refusal)


def _granter(game: Game, spec: AbilitySpec) -> GameObject | None:
    return game.objects.get(spec.granted_by) if spec.granted_by else None


def _attached_to_yours(game: Game, obj: GameObject, name: str) -> bool:
    host = game.objects.get(obj.attached_to) if isinstance(obj.attached_to, int) else None
    return host is not None and host.controller == name


# -- {T} and summoning sickness (104.4, 212.3d) --------------------------------------------------


@mutant("tap-while-tapped", "cr2004:104.4",
        "A {T} ability can be activated while its permanent is already tapped.")
def _tap_tapped(p: Patcher) -> None:
    p.source(Game.ability_refusal, ('if obj.tapped:\n            return "already_tapped"',
                                    'if False:\n            return "already_tapped"'))
    p.source(Game._priority_actions, ("if spec.tap and obj.tapped:", "if False:"))


@mutant("sick-creature-taps", "cr2004:212.3d cr2004:104.4 modern:302.6 modern:602.5a modern:602.5",
        "A summoning-sick creature may use its {T} abilities.")
def _sick_taps(p: Patcher) -> None:
    p.source(Game.ability_refusal, ('sick = "Creature" in chars.types and', "sick = False and"))


@mutant("sickness-for-noncreatures", "cr2004:104.4",
        "Summoning sickness applies to {T} abilities of every permanent, not only creatures.")
def _sick_all(p: Patcher) -> None:
    p.source(Game.ability_refusal, ('"Creature" in chars.types and self.is_sick(obj)',
                                    "True and self.is_sick(obj)"))


@mutant("sick-creature-attacks", "cr2004:212.3d modern:302.6 modern:508.1a cr2004:308.2a",
        "A summoning-sick creature may attack.")
def _sick_attacks(p: Patcher) -> None:
    p.source(combat.Combat.can_attack,
             ('return "haste" in chars.keywords or not self.is_sick(obj)', "return True"))


@mutant("haste-ignored", "cr2004:212.3d modern:508.1a cr2004:308.2a",
        "Haste does nothing: a creature with haste is summoning sick like any other.",
        audit="M13")
def _haste(p: Patcher) -> None:
    p.source(combat.Combat.can_attack,
             ('return "haste" in chars.keywords or not self.is_sick(obj)',
              "return not self.is_sick(obj)"))
    p.source(Game.ability_refusal, ('if sick and not self.has(obj, "haste"):', "if sick:"))


@mutant("control-change-keeps-sickness-clock", "cr2004:212.3d",
        "A creature that changes control is not summoning sick for its new controller.",
        audit="M12")
def _control_sick(p: Patcher) -> None:
    p.source(layers.Layers.refresh_control, ("obj.controlled_since = self.turn", "pass"))


@mutant("sickness-only-in-entry-turn", "cr2004:212.3d",
        "A creature is summoning sick only during the turn it came under control (so it taps "
        "in the opponent's next turn).")
def _sick_turn(p: Patcher) -> None:
    p.source(Game.is_sick, ("return obj.controlled_since >= self.players[obj.controller]"
                            ".last_turn", "return obj.controlled_since == self.turn"))


# -- lands (212.6, 212.2f) ---------------------------------------------------------------------


@mutant("two-lands-per-turn", "cr2004:212.6b modern:505.6b",
        "The land count is off by one: a player may play two lands a turn.")
def _two_lands(p: Patcher) -> None:
    p.source(Game.land_play_refusal, ('lands_played >= rules["land_plays"]',
                                      'lands_played > rules["land_plays"]'))


@mutant("land-any-step", "cr2004:212.6a modern:505.6b",
        "A land may be played in any step of its player's turn, not only in a main phase.")
def _land_step(p: Patcher) -> None:
    p.source(Game.land_play_refusal, (
        _LAND_LINE, "if not (self.active == name and not self.stack):"))


@mutant("land-in-opponents-turn", "cr2004:212.6a modern:505.6b",
        "A land may be played in the opponent's main phase.")
def _land_turn(p: Patcher) -> None:
    p.source(Game.land_play_refusal, (
        _LAND_LINE, "if not (self.step in MAIN_STEPS and not self.stack):"))


@mutant("land-with-stack", "cr2004:212.6a",
        "A land may be played while the stack is not empty.")
def _land_stack(p: Patcher) -> None:
    p.source(Game.land_play_refusal, (
        _LAND_LINE, "if not (self.active == name and self.step in MAIN_STEPS):"))


@mutant("land-uses-stack", "cr2004:212.6a",
        "A played land goes on the stack like a spell and enters when it resolves.")
def _land_on_stack(p: Patcher) -> None:
    original = Game._take_action

    def _take_action(self: Game, action: Action) -> Generator[Decision, Action, None]:
        if action.kind != "play_land":
            yield from original(self, action)
            return
        assert action.card is not None  # a land play names its card
        obj = self.objects[action.card]
        self.players[action.player].lands_played += 1
        card = self.move(obj, STACK, cause="play_land")
        assert card is not None
        card.controller = action.player
        self.stack.append(StackItem(card.id, "spell", action.player, obj=card))
        self._events.append(Cast(action.player, card.id, card.card.name))

    p.set(Game, "_take_action", _take_action)


@mutant("artifact-land-castable", "cr2004:212.6g cr2004:212.2f",
        "An artifact land may also be cast as an artifact spell.")
def _artifact_land(p: Patcher) -> None:
    p.source(legality.cast_speed, ('if "Land" in types:\n',
                               'if "Land" in types and "Artifact" not in types:\n'))


# -- sorcery timing (212.2a, 212.3a, 212.4a, 212.7a, 212.7e) ------------------------------------


@mutant("sorcery-speed-in-combat",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a modern:505.6a",
        "Sorcery-speed spells check 'from the first to the second main phase', so combat too.")
def _sorcery_combat(p: Patcher) -> None:
    p.source(Game.cast_timing_refusals, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok",
        "not (self.active == name and 1 <= PHASE_OF_STEP[self.step] <= 3 "
        "and not self.stack)")))


@mutant("sorcery-speed-in-opponents-turn",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a modern:505.6a",
        "Sorcery-speed spells may be cast in the opponent's main phase.")
def _sorcery_turn(p: Patcher) -> None:
    p.source(Game.cast_timing_refusals, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok", "not (self.step in MAIN_STEPS and not self.stack)")))


@mutant("sorcery-speed-with-stack",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a modern:117.1a modern:505.6a",
        "Sorcery-speed spells may be cast while the stack is not empty.")
def _sorcery_stack(p: Patcher) -> None:
    p.source(Game.cast_timing_refusals, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok", "not (self.active == name and self.step in MAIN_STEPS)")))


@mutant("equip-any-time", "cr2004:212.7e cr2004:212.2h cr2004:502.33a",
        "Equip may be activated any time its controller has priority (instant speed).")
def _equip_timing(p: Patcher) -> None:
    p.source(Game.ability_refusal, ("(spec.sorcery_speed or spec.equip or",
                                    "(spec.sorcery_speed or"))


# -- resolving permanents (212.2b, 212.3b, 212.4b) -----------------------------------------------


@mutant("resolves-under-active-player", "cr2004:212.2b cr2004:212.3b cr2004:212.4b modern:608.3a",
        "A permanent spell resolves under the active player's control, not its caster's.",
        audit="M3")
def _resolve_active(p: Patcher) -> None:
    p.source(Game._resolve_top, ("controller=item.controller, cause=\"resolve\"",
                                 "controller=self.active, cause=\"resolve\""))


@mutant("spell-to-graveyard-before-effect",
        "cr2004:212.7b cr2004:212.5b modern:404.1 modern:608.2 cr2004:413.2",
        "An instant or sorcery goes to the graveyard as it starts resolving, before its effect.")
def _graveyard_early(p: Patcher) -> None:
    p.source(Game._resolve_top, ("spell = obj.impl.spell\n",
                                 "spell = obj.impl.spell\n"
                                 "        self.move(obj, GRAVEYARD, cause=\"resolve\")\n"))


# -- Auras and Equipment (212.4, 212.2g-k) --------------------------------------------------------


@mutant("aura-any-permanent", "cr2004:212.4d",
        "An Aura spell may target any permanent, whatever it may enchant.")
def _aura_target(p: Patcher) -> None:
    # TargetSpec("permanent"), spelled so that legality.py's names suffice.
    anything = 'type(impl.enchant)("permanent")'
    p.source(Game._spell_actions, (
        "for target in self.target_candidates(impl.enchant, name, obj):",
        f"for target in self.target_candidates({anything}, name, obj):"))
    p.source(Game._spell_refusal, ("specs = (impl.enchant,)", f"specs = ({anything},)"))


@mutant("aura-stays-when-illegal", "cr2004:212.4f cr2004:420.5d modern:704.5m",
        "An Aura whose enchanted permanent is gone or illegal stays on the battlefield.")
def _aura_stays(p: Patcher) -> None:
    p.source(Game._sba_found, (
        "elif obj.impl.enchant is not None and not self._aura_legal(obj):", "elif False:"))


@mutant("aura-to-controllers-graveyard", "cr2004:212.4f cr2004:420.5d modern:704.5m",
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


@mutant("equipment-dies-with-creature", "cr2004:212.2i modern:704.5n",
        "Equipment attached to an illegal or vanished creature goes to the graveyard.")
def _equipment_dies(p: Patcher) -> None:
    p.source(Game._sba_found, ("unattach.append(obj)", "to_graveyard.append(obj)"))


@mutant("equipment-stays-attached", "cr2004:212.2i modern:704.5n",
        "Equipment stays attached to a creature that has left the battlefield.")
def _equipment_stays(p: Patcher) -> None:
    p.source(Game._sba_found, (
        'elif obj.attached_to is not None and "Equipment" in c.subtypes and (',
        "elif False and ("))


@mutant("equip-any-creature", "cr2004:212.2h cr2004:502.33a",
        "Equip may target any creature, not only one its controller controls.")
def _equip_any(p: Patcher) -> None:
    p.source(common._yours, ("return obj.controller == controller", "return True"))


@mutant("equipment-ability-for-equipment-controller", "cr2004:212.2k",
        "An ability granted by Equipment can be activated by the Equipment's controller too.")
def _equip_granted(p: Patcher) -> None:
    def may(game: Game, obj: GameObject, spec: AbilitySpec, name: str) -> bool:
        granter = _granter(game, spec)
        return granter is not None and granter.controller == name

    _also_activated_by(p, may)


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


@mutant("token-survives-off-battlefield", "cr2004:216.3 cr2004:420.5f modern:704.5d",
        "A token that leaves the battlefield stays in its new zone.")
def _token_stays(p: Patcher) -> None:
    p.source(Game._perform_sbas, (
        "ceasing = self._tokens_ceasing() if self._tokens_outside else []", "ceasing = []"))


@mutant("legend-rule-off", "cr2004:215.1 cr2004:420.5e modern:704.5j",
        "No legend rule: any number of same-named legendary permanents stay.", audit="M20")
def _legend(p: Patcher) -> None:
    p.source(Game._perform_sbas, ("if len(legendary) > 1 or len(worlds) > 1:",
                                         "if len(worlds) > 1:"))


@mutant("legend-rule-per-controller-2004", "cr2004:215.1 cr2004:420.5e",
        "The 2004 legend rule looks at each player's permanents apart (the modern rule): two "
        "players may each keep a legendary permanent of the same name.")
def _legend_per_controller(p: Patcher) -> None:
    p.source(Game2004._rule_victims, (
        "by_name.setdefault(self.chars(obj).name, []).append(obj)",
        "by_name.setdefault((obj.controller, self.chars(obj).name), []).append(obj)"))


@mutant("legend-rule-keeps-newest-2004", "cr2004:215.1 cr2004:420.5e",
        "The 2004 legend rule keeps the newest legendary permanent of a name, not the one in "
        "play longest.")
def _legend_newest(p: Patcher) -> None:
    p.source(Game2004._rule_victims, ("oldest = min(o.timestamp for o in group)",
                                      "oldest = max(o.timestamp for o in group)"))


@mutant("token-controller-is-creator", "cr2004:216.1 cr2004:214.4",
        "A token is controlled by the controller of the spell or ability that made it, not by "
        "the player who put it into play (Forbidden Orchard's Spirit stays with its tapper).")
def _token_controller(p: Patcher) -> None:
    p.source(Game.create_token, ("token.controller = token.base_controller = receiver",
                                 "token.controller = token.base_controller = creator"))


@mutant("token-name-one-creature-type", "cr2004:216.1",
        "A multi-word token name gives a single creature type, its last word (a Goblin Scout "
        "token is only a Scout).")
def _token_one_type(p: Patcher) -> None:
    p.source(common.token_card, ('type_line = " ".join(types)',
                                 'subtypes = subtypes[-1:]\n    type_line = " ".join(types)'))


@mutant("token-named-type-token", "cr2004:216.1",
        "A token is named for its creature types with \"Token\" added (Raise the Alarm makes "
        "\"Soldier Token\"s), not named exactly as its creature type or as the effect says.")
def _token_name(p: Patcher) -> None:
    p.source(common.token_card, ("return CardData(name=name,",
                                 "return CardData(name=name + \" Token\","))


@mutant("token-without-creature-types", "cr2004:214.2",
        "A token gets the name its spell gives it but no creature type: a token's types are "
        "not set by the effect that made it.")
def _token_no_types(p: Patcher) -> None:
    p.source(common.token_card, ('type_line = " ".join(types)',
                                 'subtypes = ()\n    type_line = " ".join(types)'))


@mutant("effects-skip-tokens", "cr2004:216.2",
        "Continuous effects that affect permanents (Glorious Anthem) leave tokens alone.")
def _effects_skip_tokens(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        "if obj.zone == BATTLEFIELD:\n        for effect in self.continuous_effects():",
        "if obj.zone == BATTLEFIELD and not obj.token:\n"
        "        for effect in self.continuous_effects():"))


@mutant("destroy-all-spares-tokens", "cr2004:216.2",
        "\"Destroy all creatures\" (Wrath of God) destroys creature cards only, not tokens.")
def _wrath_tokens(p: Patcher) -> None:
    p.source(choices._wrath, ('and not game.has(o, "indestructible")',
                              'and not game.has(o, "indestructible") and not o.token'))


@mutant("zone-change-keeps-tapped", "cr2004:214.3",
        "A permanent that leaves play and comes back keeps the tapped status it had: it does "
        "not come into play untapped.")
def _keeps_tapped(p: Patcher) -> None:
    original = Game.move

    def move(self: Game, obj: GameObject, to: int, *args: Any, **kwargs: Any
             ) -> GameObject | None:
        new = original(self, obj, to, *args, **kwargs)
        if new is not None and obj.tapped:
            new.tapped = True
        return new

    p.set(Game, "move", move)


# -- spells (213.2, 213.4, 213.5) -----------------------------------------------------------------


@mutant("spell-without-card-types", "cr2004:213.2",
        "A spell on the stack has no card types of its own: a creature card cast is no "
        "\"creature spell\" (it still resolves into play by its card's types).")
def _spell_untyped(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        '    if "Creature" not in chars.types:\n        chars.power',
        '    if obj.zone == STACK:\n        chars.types = frozenset()\n'
        '    if "Creature" not in chars.types:\n        chars.power'))
    p.source(Game._resolve_top, ("if PERMANENT_TYPES.intersection(self.chars(obj).types):",
                                 "if PERMANENT_TYPES.intersection(obj.card.types):"))


@mutant("spell-change-lost-in-play", "cr2004:213.5",
        "An effect that changed a spell (Purelace made it white) stops applying once the spell "
        "has become a permanent.")
def _spell_change_lost(p: Patcher) -> None:
    p.source(Game.move, ("if effect.target == obj.id:\n                effect.target = new.id",
                         "pass"))


@mutant("spell-controlled-by-active-player", "cr2004:213.4 modern:601.2a cr2004:409.1a",
        "A spell is controlled by the active player, not by the player who cast it.")
def _spell_active(p: Patcher) -> None:
    p.source(Game._cast, ("card.controller = action.player", "card.controller = self.active"),
             ('StackItem(card.id, "spell", action.player,',
              'StackItem(card.id, "spell", self.active,'))


# -- card data: subtypes and supertypes (212.2c, 212.3c, 212.4c, 212.5c, 212.6c, 212.6f, 212.7c) --

_BASE_TYPES = "_SETS[card.supertypes], _SETS[card.types], card.subtypes,"


@mutant("artifact-subtypes-dropped", "cr2004:212.2c",
        "A noncreature artifact has no subtype: its artifact types (Equipment) are not read.")
def _artifact_subtypes(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (_BASE_TYPES, _BASE_TYPES.replace(
        "card.subtypes,", '(() if card.types == ("Artifact",) else card.subtypes),')))


@mutant("subtypes-first-word-only", "cr2004:212.3c cr2004:212.6c",
        "Only the first of several subtypes is read (Worldgorger Dragon only a Nightmare, "
        "Tropical Island only a Forest).")
def _first_subtype(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (_BASE_TYPES, _BASE_TYPES.replace(
        "card.subtypes,", "card.subtypes[:1],")))


@mutant("local-enchantment-subtype-aura", "cr2004:212.4c",
        "A 2004 local enchantment has the modern subtype Aura, not \"Enchant\" and what it may "
        "enchant.")
def _aura_subtype(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (_BASE_TYPES, _BASE_TYPES.replace(
        "card.subtypes,", '(("Aura",) if obj.impl.enchant is not None else card.subtypes),')))


@mutant("spell-type-as-subtype", "cr2004:212.5c cr2004:212.7c",
        "Instants and sorceries have their card type as subtype too (a type line read as "
        "\"Instant — Instant\").")
def _spell_subtype(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (_BASE_TYPES, _BASE_TYPES.replace(
        "card.subtypes,",
        '(card.subtypes or tuple(t for t in card.types if t in ("Instant", "Sorcery"))),')))


@mutant("basic-by-land-type", "cr2004:212.6f",
        "A land with a basic land type is basic (Tropical Island a basic land), whatever its "
        "supertypes.")
def _basic_by_type(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (_BASE_TYPES, _BASE_TYPES.replace(
        "_SETS[card.supertypes],",
        '(_SETS[card.supertypes] | ({"Basic"} if set(card.subtypes) & {"Plains", "Island", '
        '"Swamp", "Mountain", "Forest"} else set())),')))


@mutant("intrinsic-mana-basic-lands-only", "cr2004:212.6d modern:305.6",
        "Only basic lands have the mana abilities of their land types: a nonbasic land with "
        "basic land types and no rules text (Tropical Island) makes no mana.")
def _intrinsic_basic(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        'if "Land" in chars.types:\n        intrinsic',
        'if "Land" in chars.types and "Basic" in chars.supertypes:\n        intrinsic'))


# -- artifacts (212.2d, 212.2e) and Equipment (212.2g, 212.2i) ------------------------------------


@mutant("artifacts-always-colourless", "cr2004:212.2d",
        "An artifact is colourless whatever effects say: an effect cannot make it white.")
def _artifact_colourless(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        '    if "Creature" not in chars.types:\n        chars.power',
        '    if "Artifact" in chars.types:\n        chars.colors = ()\n'
        '    if "Creature" not in chars.types:\n        chars.power'))


@mutant("artifact-creature-not-an-artifact", "cr2004:212.2e",
        "An artifact creature card is a creature only: its artifact type is lost (Terror may "
        "target Ornithopter).")
def _artifact_creature(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (_BASE_TYPES, _BASE_TYPES.replace(
        "_SETS[card.types],",
        '(_SETS[card.types] - {"Artifact"} if "Creature" in card.types '
        'else _SETS[card.types]),')))


_EQUIP_TEXT = "target creature you control"


@mutant("equip-any-permanent", "cr2004:212.2g",
        "Equip may target any permanent its controller controls, a land too, not only a "
        "creature.")
def _equip_permanent(p: Patcher) -> None:
    p.source(Game.target_legal, ('if kind == "creature" and "Creature" not in types:',
                                 'if kind == "creature" and "Creature" not in types and '
                                 f'spec.text != "{_EQUIP_TEXT}":'))


@mutant("equipment-stays-on-noncreature", "cr2004:212.2g modern:704.5n",
        "Equipment stays attached to a permanent that is no longer a creature.")
def _equipment_noncreature(p: Patcher) -> None:
    p.source(Game._equipment_legal, ('return "Creature" in self.chars(target).types',
                                     "return True"))


@mutant("equipment-creature-stays-attached", "cr2004:212.2i modern:704.5n modern:704.5p",
        "An Equipment that becomes a creature stays attached to the creature it equips.")
def _equipment_creature(p: Patcher) -> None:
    p.source(Game._equipment_legal, (
        "return False  # an Equipment that is a creature can't equip (212.2i)", "pass"))


@mutant("equipment-falls-off-on-control-change", "cr2004:212.2h",
        "Equipment must stay on a creature its controller controls: it comes off a creature "
        "whose control changes (the check is made all the time, not only as equip is played "
        "and resolves).")
def _equipment_control_check(p: Patcher) -> None:
    p.source(Game._equipment_legal, (
        'return "Creature" in self.chars(target).types',
        'return "Creature" in self.chars(target).types and '
        "target.controller == equipment.controller"))


@mutant("equipment-control-follows-control-change", "cr2004:212.2k",
        "A control change of an equipped creature takes its Equipment along: the creature's "
        "new controller controls the Equipment too.")
def _equipment_control_change(p: Patcher) -> None:
    p.source(layers.Layers.refresh_control, (
        "            obj.controller = desired\n"
        "            obj.controlled_since = self.turn\n",
        "            obj.controller = desired\n"
        "            obj.controlled_since = self.turn\n"
        "            for item in self.battlefield:\n"
        "                if item.attached_to == obj.id and "
        "\"Equipment\" in self.chars(item).subtypes:\n"
        "                    item.controller = item.base_controller = desired\n"))


@mutant("equipment-ability-for-creature-controller", "cr2004:212.2k",
        "An Equipment's own abilities (equip) can be played by the equipped creature's "
        "controller too, not only by the Equipment's controller.")
def _equipment_own_ability(p: Patcher) -> None:
    def may(game: Game, obj: GameObject, spec: AbilitySpec, name: str) -> bool:
        return spec.granted_by is None and "Equipment" in game.chars(obj).subtypes and (
            _attached_to_yours(game, obj, name))

    _also_activated_by(p, may)


# -- local and world enchantments (212.4b, 212.4e, 212.4g, 212.4i, 212.4j) ------------------------


@mutant("aura-enters-with-nothing-to-enchant", "cr2004:212.4e modern:303.4g",
        "A local enchantment put into play with nothing it could enchant comes into play "
        "anyway (and is then put into the graveyard from play).")
def _aura_nothing(p: Patcher) -> None:
    p.source(Game.move, ("if not candidates:\n            return None",
                         "if not candidates:\n            pass"))


@mutant("creature-aura-may-enchant-creature", "cr2004:212.4g",
        "A local enchantment that is also a creature may go on enchanting a creature.")
def _creature_aura(p: Patcher) -> None:
    p.source(Game._aura_legal, (
        "return False  # an Aura that is a creature can't enchant a creature (212.4g)", "pass"))


@mutant("aura-controller-follows-enchanted", "cr2004:212.4i cr2004:212.4b",
        "A local enchantment is controlled by the controller of the permanent it enchants, not "
        "by the player who put it into play.")
def _aura_follows(p: Patcher) -> None:
    original = Game.move

    def follow(game: Game, obj: GameObject) -> None:
        if obj.impl.enchant is not None and isinstance(obj.attached_to, int):
            enchanted = game.objects.get(obj.attached_to)
            if enchanted is not None:
                obj.controller = obj.base_controller = enchanted.controller

    def move(self: Game, obj: GameObject, to: int, *args: Any, **kwargs: Any
             ) -> GameObject | None:
        new = original(self, obj, to, *args, **kwargs)
        if new is not None and to == BATTLEFIELD:
            follow(self, new)
        return new

    original_attach = Game.attach

    def attach(self: Game, obj: GameObject, target: int | str) -> None:
        original_attach(self, obj, target)
        follow(self, obj)

    p.set(Game, "move", move)
    p.set(Game, "attach", attach)


@mutant("aura-ability-for-aura-controller", "cr2004:212.4i",
        "An ability granted by a local enchantment can be played by the enchantment's "
        "controller too, not only by the enchanted permanent's.")
def _aura_granted(p: Patcher) -> None:
    def may(game: Game, obj: GameObject, spec: AbilitySpec, name: str) -> bool:
        granter = _granter(game, spec)
        return granter is not None and granter.controller == name and (
            granter.impl.enchant is not None)

    _also_activated_by(p, may)


@mutant("aura-entry-choice-ignores-enchant", "cr2004:212.4e modern:303.4f",
        "A local enchantment put into play without being cast may be put on any permanent "
        "its player chooses, one it could not legally enchant too.")
def _aura_entry_any(p: Patcher) -> None:
    p.source(Game.aura_candidates, (
        "return [t for t in self.target_candidates(spec, controller, aura, enchanting=True)\n"
        "            if t != aura.id]",
        "return [o.id for o in self.battlefield if o.id != aura.id]"))


@mutant("aura-ability-for-enchanted-controller", "cr2004:212.4i",
        "A local enchantment's own ability can be played by the enchanted permanent's "
        "controller too, not only by the enchantment's controller.")
def _aura_own_ability(p: Patcher) -> None:
    def may(game: Game, obj: GameObject, spec: AbilitySpec, name: str) -> bool:
        return spec.granted_by is None and obj.impl.enchant is not None and (
            _attached_to_yours(game, obj, name))

    _also_activated_by(p, may)


@mutant("aura-control-follows-control-change", "cr2004:212.4i",
        "A control change of an enchanted permanent takes the local enchantments on it along: "
        "the new controller controls them too.")
def _aura_control_change(p: Patcher) -> None:
    p.source(layers.Layers.refresh_control, (
        "            obj.controller = desired\n"
        "            obj.controlled_since = self.turn\n",
        "            obj.controller = desired\n"
        "            obj.controlled_since = self.turn\n"
        "            for aura in self.battlefield:\n"
        "                if aura.attached_to == obj.id and aura.impl.enchant is not None:\n"
        "                    aura.controller = aura.base_controller = desired\n"))


@mutant("world-rule-keeps-oldest", "cr2004:212.4j cr2004:420.5i modern:704.5k",
        "Of two world enchantments the one in play longest stays, not the newest.")
def _world_oldest(p: Patcher) -> None:
    p.source(editions._all_but_newest, ("newest = max(o.timestamp for o in worlds)",
                                        "newest = min(o.timestamp for o in worlds)"))


@mutant("world-tie-keeps-one", "cr2004:212.4j cr2004:420.5i modern:704.5k",
        "World enchantments that came into play at once: one of them stays (no tie rule).")
def _world_tie(p: Patcher) -> None:
    p.source(editions._all_but_newest, ("if len(stays) > 1 or o is not stays[0]",
                                        "if o is not stays[0]"))


# -- timing (212.5a, 212.5e), resolving permanents (212.2b-212.4b), creature types (212.1e, 215.2) -


@mutant("instants-at-sorcery-speed", "cr2004:212.5a modern:117.1a",
        "Instants may be cast only when sorceries may (main phase, own turn, empty stack).")
def _instant_timing(p: Patcher) -> None:
    p.source(legality.cast_speed, (_INSTANT_LINE, 'if "flash" in chars.keywords:'))


@mutant("instant-timing-permission-ignored", "cr2004:212.5e",
        "\"Any time you could play an instant\" (flash) is ignored on a non-instant card: "
        "Raging Kavu only at sorcery timing.")
def _flash_ignored(p: Patcher) -> None:
    p.source(legality.cast_speed, (_INSTANT_LINE, 'if "Instant" in types:'))


@mutant("resolves-under-last-passer", "cr2004:212.2b cr2004:212.3b cr2004:212.4b",
        "A permanent spell resolves under the control of the player who passed last (the "
        "caster's opponent when the caster passed first), not its caster's.")
def _resolve_last_passer(p: Patcher) -> None:
    p.source(Game._priority_round, ("yield from self._resolve_top()",
                                    "self.last_passer = player\n"
                                    "            yield from self._resolve_top()"))
    p.source(Game._resolve_top, ('controller=item.controller, cause="resolve"',
                                 'controller=getattr(self, "last_passer", item.controller), '
                                 'cause="resolve"'))


@mutant("creature-type-choice-takes-land-types", "cr2004:212.1e modern:205.3m",
        "A choice of creature type accepts any subtype, a land type (Forest) too.")
def _choice_any_subtype(p: Patcher) -> None:
    p.source(Game._make_entry_choices, (
        "options = sorted(self.creature_types())",
        'options = sorted(self.creature_types() | {"Plains", "Island", "Swamp", "Mountain", '
        '"Forest"})'))


@mutant("legend-no-creature-type-2004", "cr2004:215.2",
        "Legend is no creature type under the 2004 rules (as in modern): it cannot be named.")
def _legend_type_2004(p: Patcher) -> None:
    p.set(Game2004, "legend_creature_type", False)


@mutant("legend-creature-type-modern", "cr2004:215.2",
        "Legend is still a creature type under the modern rules (it was dropped in 2007).")
def _legend_type_modern(p: Patcher) -> None:
    p.set(GameModern, "legend_creature_type", True)


@mutant("legendary-creature-is-a-legend", "cr2004:215.2",
        "A legendary permanent that becomes a creature gets the creature type Legend.")
def _legendary_legend(p: Patcher) -> None:
    p.source(common.add_types, (
        "chars.types = chars.types | frozenset(types)",
        "chars.types = chars.types | frozenset(types)\n"
        '    if "Creature" in types and "Legendary" in chars.supertypes:\n'
        '        chars.subtypes = chars.subtypes + ("Legend",)'))


@mutant("resolved-spell-to-active-players-graveyard", "cr2004:212.5b cr2004:212.7b",
        "A resolved instant or sorcery goes to the active player's graveyard, not its owner's.")
def _spell_active_graveyard(p: Patcher) -> None:
    p.source(Game._resolve_top, (
        'if obj.zone == STACK and obj.id in self.objects:\n'
        '            self.move(obj, GRAVEYARD, cause="resolve")',
        'if obj.zone == STACK and obj.id in self.objects:\n'
        '            obj.owner = self.active\n'
        '            self.move(obj, GRAVEYARD, cause="resolve")'))


# -- the other edition's rule: an engine playing the 2004 rule in modern ------------------------


@mutant("legend-rule-2004-in-modern", "cr2004:215.1 modern:704.5j",
        "The modern game plays the June 2004 legend rule: the legendary permanent in play "
        "longest stays, whoever controls it, with no choice.")
def _legend_2004_modern(p: Patcher) -> None:
    p.set(GameModern, "_rule_victims", Game2004._rule_victims)


@mutant("token-owner-2004-in-modern", "cr2004:216.1 modern:111.2",
        "The modern game plays the 2004 token ownership: a token is owned by the controller of "
        "the spell or ability that made it, not by the player who creates it.")
def _token_owner_modern(p: Patcher) -> None:
    p.set(GameModern, "_token_owner", Game2004._token_owner)


@mutant("legend-rule-modern-in-2004", "cr2004:215.1 cr2004:420.5e",
        "The 2004 game plays the modern legend rule: each player keeps one legendary "
        "permanent of a name, of their choice.")
def _legend_modern_2004(p: Patcher) -> None:
    p.set(Game2004, "_rule_victims", GameModern._rule_victims)
