"""Static abilities and continuous effects: power/toughness changes, type-changing effects,
Auras (2004: local enchantments), Equipment, control change, rule-changing permanents and
characteristic-defining power and toughness."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import (
    ANY_TARGET,
    CREATURE,
    CREATURE_YOU_CONTROL,
    PLAYER,
    add_types,
    damage,
    modify_pt,
    on_battlefield,
    pump,
    set_land_types,
    set_pt,
)
from reference_engine.constants import BATTLEFIELD, HAND
from reference_engine.mana import parse_cost
from reference_engine.objects import (
    ABILITY,
    COLOR,
    CONTROL,
    PT_MODIFY,
    PT_SET,
    TYPE,
    AbilitySpec,
    CardImpl,
    ContinuousEffect,
    PlayerRules,
    SpellSpec,
    StaticSpec,
    TargetSpec,
    TriggerSpec,
    attached_to_source,
)

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _yours_and_creature(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return obj.controller == src.controller and "Creature" in chars.types


def _pt(power: int, toughness: int) -> Any:
    return lambda game, src, obj, chars: modify_pt(chars, power, toughness)


def _keywords(*words: str) -> Any:
    def modify(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
        chars.keywords = chars.keywords | frozenset(words)
    return modify


def _flags(*flags: str) -> Any:
    def modify(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
        chars.flags = chars.flags | frozenset(flags)
    return modify


def _grant_ability(spec: AbilitySpec) -> Any:
    def modify(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
        # The granted ability's text names its granter: it means that object only (202.2b).
        chars.granted.append(replace(spec, granted_by=src.id))
    return modify


ENCHANT_CREATURE = TargetSpec("creature", text="enchant creature")
ENCHANT_LAND = TargetSpec("land", text="enchant land")

# -- power and toughness ------------------------------------------------------------------------

CARDS.add(CardImpl("Glorious Anthem", statics=(
    StaticSpec(PT_MODIFY, _yours_and_creature, _pt(1, 1), "Creatures you control get +1/+1."),
)))
CARDS.add(CardImpl("Holy Strength", enchant=ENCHANT_CREATURE, statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _pt(1, 2), "Enchanted creature gets +1/+2."),
)))
CARDS.add(CardImpl("Weakness", enchant=ENCHANT_CREATURE, statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _pt(-2, -1), "Enchanted creature gets -2/-1."),
)))
CARDS.add(CardImpl("Pacifism", enchant=ENCHANT_CREATURE, statics=(
    StaticSpec(ABILITY, attached_to_source, _flags("cant_attack", "cant_block"),
               "Enchanted creature can't attack or block."),
)))


def _rancor_returns(game: CardAPI, item: StackItem) -> None:
    card = game.find_moved(item.data["event"])
    if card is not None and card.zone != BATTLEFIELD:
        game.move(card, HAND, cause="return")


CARDS.add(CardImpl("Rancor", enchant=ENCHANT_CREATURE, statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _pt(2, 0), "Enchanted creature gets +2/+0."),
    StaticSpec(ABILITY, attached_to_source, _keywords("trample"),
               "Enchanted creature has trample."),
), triggers=(
    TriggerSpec("dies", _rancor_returns,
                "When Rancor is put into a graveyard from the battlefield, return Rancor to its "
                "owner's hand."),
)))


def _control_magic(game: CardAPI, aura: GameObject, obj: GameObject, chars: Any) -> str:
    return aura.controller


CARDS.add(CardImpl("Control Magic", enchant=ENCHANT_CREATURE, statics=(
    StaticSpec(CONTROL, attached_to_source, _control_magic, "You control enchanted creature."),
)))

_STUDY_PING = AbilitySpec("{T}: This creature deals 1 damage to any target.", tap=True,
                          targets=(ANY_TARGET,), effect=damage(1))
CARDS.add(CardImpl("Hermetic Study", enchant=ENCHANT_CREATURE, statics=(
    StaticSpec(ABILITY, attached_to_source, _grant_ability(_STUDY_PING),
               'Enchanted creature has "{T}: This creature deals 1 damage to any target."'),
)))

# -- equipment ---------------------------------------------------------------------------------


def _equip(game: CardAPI, item: StackItem) -> None:
    # The Equipment moves only if it is still the same object on the battlefield and phased
    # in: a phased-out one (modern 702.26b, with 403.2) or one out of play (2004 217.5b,
    # 217.8c) is affected by nothing, and phases in attached to what it was attached to.
    equipment = on_battlefield(game, item.source)
    if equipment is None:
        return
    for target in game.targeted_objects(item):
        # Control of the creature is checked again on resolution (212.2h).
        creature = game.objects[target]
        if creature.controller == item.controller and not game.chars(equipment).types & {
                "Creature"}:
            game.attach(equipment, target)


def equip_ability(cost: str) -> AbilitySpec:
    return AbilitySpec(f"Equip {cost}", cost=parse_cost(cost), equip=True,
                       targets=(CREATURE_YOU_CONTROL,), effect=_equip)


def _tap_target(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.tap(game.objects[target])


def _artifact_creature_or_land(game: CardAPI, _controller: str, obj: Any) -> bool:
    return bool({"Artifact", "Creature", "Land"} & game.chars(obj).types)


CARDS.add(CardImpl("Icy Manipulator", abilities=(
    AbilitySpec("{1}, {T}: Tap target artifact, creature, or land.", cost=parse_cost("{1}"),
                tap=True, targets=(TargetSpec("permanent", _artifact_creature_or_land,
                                              "target artifact, creature, or land"),),
                effect=_tap_target),
)))

_BOLA_TAP = AbilitySpec("{T}, Unattach Leonin Bola: Tap target creature.", tap=True,
                        unattach=True, targets=(CREATURE,), effect=_tap_target)

CARDS.add(CardImpl("Bonesplitter", abilities=(equip_ability("{1}"),), statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _pt(2, 0),
               "Equipped creature gets +2/+0."),
)))
CARDS.add(CardImpl("Leonin Bola", abilities=(equip_ability("{1}"),), statics=(
    StaticSpec(ABILITY, attached_to_source, _grant_ability(_BOLA_TAP),
               'Equipped creature has "{T}, Unattach Leonin Bola: Tap target creature."'),
)))

CARDS.add(CardImpl("Loxodon Warhammer", abilities=(equip_ability("{3}"),), statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _pt(3, 0), "Equipped creature gets +3/+0."),
    StaticSpec(ABILITY, attached_to_source, _keywords("trample", "lifelink"),
               "Equipped creature has trample and lifelink."),
)))


def _gain_what_it_dealt(game: CardAPI, item: StackItem) -> None:
    game.gain_life(item.controller, item.data["event"]["amount"])


_WARHAMMER_LIFE = TriggerSpec("deals_damage", _gain_what_it_dealt,
                              "Whenever this creature deals damage, you gain that much life.")


def _grant_trigger(spec: TriggerSpec) -> Any:
    def modify(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
        chars.granted_triggers.append(spec)
    return modify


# The 2004 Oracle: no lifelink keyword (Future Sight, 2007), but the triggered ability it
# replaced, the equipped creature's own (its controller gains the life).
CARDS.add(CardImpl("Loxodon Warhammer", abilities=(equip_ability("{3}"),), statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _pt(3, 0), "Equipped creature gets +3/+0."),
    StaticSpec(ABILITY, attached_to_source, _keywords("trample"),
               "Equipped creature has trample."),
    StaticSpec(ABILITY, attached_to_source, _grant_trigger(_WARHAMMER_LIFE),
               'Equipped creature has "Whenever this creature deals damage, you gain that '
               'much life."', grants_triggers=True),
)), edition="cr2004")

# -- type-changing effects ---------------------------------------------------------------------


def _lands(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return "Land" in chars.types


def _living_plane_types(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    add_types(chars, "Creature")  # "that are still lands" (212.1c)


def _one_one(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    set_pt(chars, 1, 1)


CARDS.add(CardImpl("Living Plane", statics=(
    StaticSpec(TYPE, _lands, _living_plane_types, "All lands are creatures, still lands."),
    StaticSpec(PT_SET, _lands, _one_one, "All lands are 1/1."),
)))


def _noncreature_artifact(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return "Artifact" in chars.types and "Creature" not in chars.types


def _march_types(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    add_types(chars, "Creature")
    # The power/toughness part applies to the artifacts this effect animated (layer 7b).
    chars.flags = chars.flags | {f"animated_by_{src.id}"}


def _animated_by_source(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return f"animated_by_{src.id}" in chars.flags


def _value_pt(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    set_pt(chars, chars.mana_value, chars.mana_value)


CARDS.add(CardImpl("March of the Machines", statics=(
    StaticSpec(TYPE, _noncreature_artifact, _march_types,
               "Each noncreature artifact is an artifact creature."),
    StaticSpec(PT_SET, _animated_by_source, _value_pt,
               "... with power and toughness each equal to its mana value."),
)))


def _other_enchantment(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return obj is not src and "Enchantment" in chars.types


def _other_non_aura_enchantment(game: CardAPI, src: GameObject, obj: GameObject,
                                chars: Chars) -> bool:
    return _other_enchantment(game, src, obj, chars) and obj.impl.enchant is None


def _opalescence_types(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    _march_types(game, src, obj, chars)


def _opalescence(animates: Callable[[CardAPI, GameObject, GameObject, Chars], bool],
                 text: str) -> CardImpl:
    return CardImpl("Opalescence", statics=(
        StaticSpec(TYPE, animates, _opalescence_types, text),
        StaticSpec(PT_SET, _animated_by_source, _value_pt,
                   "... with power and toughness each equal to its mana value."),
    ))


# The modern Oracle excludes Auras; the 2004 Oracle animates every other enchantment, local
# ones included (so 212.4g applies to them).
CARDS.add(_opalescence(_other_non_aura_enchantment,
                       "Each other non-Aura enchantment is a creature, still an enchantment."))
CARDS.add(_opalescence(_other_enchantment,
                       "Each other enchantment is a creature, still an enchantment."),
          edition="cr2004")


def _evil_presence(game: CardAPI, aura: GameObject, obj: GameObject, chars: Chars) -> None:
    set_land_types(chars, "Swamp")


CARDS.add(CardImpl("Evil Presence", enchant=ENCHANT_LAND, statics=(
    StaticSpec(TYPE, attached_to_source, _evil_presence, "Enchanted land is a Swamp."),
)))


def _factory_animate(game: CardAPI, item: StackItem) -> None:
    factory = item.source
    if factory is None or factory.id not in game.objects:
        return
    def types(chars: Chars) -> None:
        add_types(chars, "Artifact", "Creature", subtypes=("Assembly-Worker",))

    def pt(chars: Chars) -> None:
        set_pt(chars, 2, 2)

    game.add_effect(ContinuousEffect(TYPE, game.next_timestamp(), None, types, "turn",
                                     target=factory.id))
    game.add_effect(ContinuousEffect(PT_SET, game.next_timestamp(), None, pt, "turn",
                                     target=factory.id))


def _assembly_worker(game: CardAPI, _controller: str, obj: GameObject) -> bool:
    return "Assembly-Worker" in game.chars(obj).subtypes


CARDS.add(CardImpl("Mishra's Factory", abilities=(
    AbilitySpec("{T}: Add {C}.", tap=True, produces=("C",)),
    AbilitySpec("{1}: Mishra's Factory becomes a 2/2 Assembly-Worker artifact creature until "
                "end of turn. It's still a land.", cost=parse_cost("{1}"),
                effect=_factory_animate),
    AbilitySpec("{T}: Target Assembly-Worker creature gets +1/+1 until end of turn.", tap=True,
                targets=(TargetSpec("creature", _assembly_worker,
                                    "target Assembly-Worker creature"),),
                effect=pump(1, 1)),
)))


def _one_one_creature(game: CardAPI, _controller: str, obj: GameObject) -> bool:
    chars = game.chars(obj)
    return chars.power == 1 and chars.toughness == 1


CARDS.add(CardImpl("Pendelhaven", abilities=(
    AbilitySpec("{T}: Add {G}.", tap=True, produces=("G",)),
    AbilitySpec("{T}: Target 1/1 creature gets +1/+2 until end of turn.", tap=True,
                targets=(TargetSpec("creature", _one_one_creature, "target 1/1 creature"),),
                effect=pump(1, 2)),
)))

# -- world enchantments -------------------------------------------------------------------------

CARDS.add(CardImpl("Concordant Crossroads", statics=(
    StaticSpec(ABILITY, lambda g, s, o, c: "Creature" in c.types, _keywords("haste"),
               "All creatures have haste."),
)))

# -- a chosen creature type ---------------------------------------------------------------------


def _of_chosen_type(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    chosen = src.chosen.get("creature_type")
    return chosen is not None and "Creature" in chars.types and chosen in chars.subtypes


CARDS.add(CardImpl("Engineered Plague", choose_on_entry="creature_type", statics=(
    StaticSpec(PT_MODIFY, _of_chosen_type, _pt(-1, -1),
               "All creatures of the chosen type get -1/-1."),
)))

# -- card text overriding a rule; "can't" beats "can" --------------------------------------


def _controller_of(game: CardAPI, src: GameObject, player: str) -> bool:
    return src.controller == player


CARDS.add(CardImpl("Exploration", player_rules=(
    PlayerRules(_controller_of, extra_land_plays=1),
)))
CARDS.add(CardImpl("Spellbook", player_rules=(
    PlayerRules(_controller_of, no_max_hand_size=True),
)))


def _turf_wound(game: CardAPI, item: StackItem) -> None:
    for player in game.targeted_players(item):
        game.players[player].cant_play_lands_turn = game.turn
        game.changed()
    game.draw(item.controller, 1)


CARDS.add(CardImpl("Turf Wound", spell=SpellSpec((PLAYER,), _turf_wound)))

# -- characteristic-defining power and toughness -------------------------------------------------


def _swamps_you_control(game: CardAPI, obj: GameObject) -> tuple[int, int]:
    # "You" is the controller, or outside the battlefield the owner.
    you = obj.controller if obj.zone == BATTLEFIELD else obj.owner
    count = sum(1 for o in game.live() if o.controller == you and o is not obj
                and "Swamp" in game.chars(o).subtypes)
    return count, count


CARDS.add(CardImpl("Nightmare", keywords=frozenset(("flying",)), cda=_swamps_you_control))


# -- durations: until end of combat (300.4) ------------------------------------------------------


def _jade_statue(game: CardAPI, item: StackItem) -> None:
    statue = item.source
    if statue is None or statue.id not in game.objects:
        return

    def types(chars: Chars) -> None:
        add_types(chars, "Artifact", "Creature", subtypes=("Golem",))

    def pt(chars: Chars) -> None:
        set_pt(chars, 3, 6)

    game.add_effect(ContinuousEffect(TYPE, game.next_timestamp(), None,
                                     types, "combat", target=statue.id))
    game.add_effect(ContinuousEffect(PT_SET, game.next_timestamp(), None,
                                     pt, "combat", target=statue.id))


CARDS.add(CardImpl("Jade Statue", abilities=(
    AbilitySpec("{2}: Jade Statue becomes a 3/6 Golem artifact creature until end of combat. "
                "Activate only during combat.", cost=parse_cost("{2}"), during_combat=True,
                effect=_jade_statue),
)))

# -- a change made to a spell carries over to the permanent (213.5, 400.7a) ----------------


def _purelace(game: CardAPI, item: StackItem) -> None:
    def white(chars: Chars) -> None:
        chars.colors = ("W",)

    for target in game.targeted_objects(item):
        game.add_effect(ContinuousEffect(COLOR, game.next_timestamp(), None,
                                         white, "object", target=target))


CARDS.add(CardImpl("Purelace", spell=SpellSpec(
    (TargetSpec("spell_or_permanent", text="target spell or permanent"),), _purelace)))
