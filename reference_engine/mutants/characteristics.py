"""Mutants of the parts of a card and its characteristics: name, mana cost and colour, type
line, text box, power and toughness (cr2004 200-208)."""

from __future__ import annotations

from typing import Any

from reference_engine import layers
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.objects import StackItem

# -- 200: Oracle wording, ownership of abilities, what a type named in text refers to -----------


@mutant("later-card-data-2004", "cr2004:200.2",
        "The 2004 edition reads cards from later Oracle wording: creature types and "
        "supertypes as they are today (Llanowar Elves an Elf Druid).")
def _later_card_data(p: Patcher) -> None:
    modern = ("__import__('spec.cardpool', fromlist=['default_pool']).default_pool()"
              ".edition('modern').get(card.name, card)")
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        f"frozenset({modern}.supertypes), _SETS[card.types], {modern}.subtypes,"))


@mutant("token-controlled-by-its-creator-2004", "cr2004:200.4a",
        "A token comes into play under the control of whoever controls the spell or ability "
        "that made it, even when the text puts it into play under another player's control.")
def _token_controller(p: Patcher) -> None:
    p.source(Game.create_token, ("token.controller = token.base_controller = receiver",
                                 "token.controller = token.base_controller = creator"))


@mutant("ability-owned-by-source-owner", "cr2004:200.7a",
        "An ability on the stack is owned by its source's owner, not by the player who "
        "controlled the source when it was played or triggered.")
def _ability_owner(p: Patcher) -> None:
    p.source(StackItem.__init__, (
        "self.owner = controller if obj is None else obj.owner",
        "self.owner = (source.owner if source is not None else controller) if obj is None "
        "else obj.owner"))


@mutant("activated-ability-controlled-by-source-owner", "cr2004:200.7a",
        "An activated ability on the stack is controlled (and owned) by its source's owner, "
        "not by the player who played it.")
def _activated_controller(p: Patcher) -> None:
    p.source(Game._activate, (
        'item = StackItem(self._next_id, "ability", action.player, source=source,',
        'item = StackItem(self._next_id, "ability", source.owner, source=source,'))


@mutant("creatures-anywhere-get-static-effects", "cr2004:200.9",
        "\"Creatures\" in a static ability means creature cards in every zone: Glorious Anthem "
        "pumps the creature cards in hand and the creature spells on the stack.")
def _statics_everywhere(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        "if obj.zone == BATTLEFIELD:\n        for effect in self.continuous_effects():",
        "if True:\n        for effect in self.continuous_effects():"))


@mutant("target-creature-includes-spells-and-cards", "cr2004:200.9",
        "\"Target creature\" accepts creature spells on the stack and creature cards in hand.")
def _creature_targets_anywhere(p: Patcher) -> None:
    p.source(Game._target_universe, (
        "if kind == \"creature_or_player\":",
        "if kind == \"creature\":\n"
        "        found += [i.id for i in self.stack if i.kind == \"spell\"]\n"
        "        found += [o.id for n in PLAYERS for o in self.players[n].hand]\n"
        "    if kind == \"creature_or_player\":"))
    p.source(Game.target_legal, (
        "    kind = spec.kind\n",
        "    kind = spec.kind\n"
        "    value = self._target_value(target)\n"
        "    if kind == \"creature\" and (\n"
        "            (isinstance(value, StackItem) and value.obj is not None\n"
        "             and \"Creature\" in self.chars(value.obj).types)\n"
        "            or (isinstance(value, GameObject)\n"
        "                and value in self.players[value.owner].hand\n"
        "                and \"Creature\" in self.chars(value).types)):\n"
        "        return spec.allows is None or spec.allows(self.card_api, controller, value)\n"))


@mutant("card-type-in-zone-ignored", "cr2004:200.9a",
        "\"Target creature card in your graveyard\" accepts any card in that graveyard.")
def _any_card_in_graveyard(p: Patcher) -> None:
    from reference_engine.cards import common
    p.source(common._creature_card, ('return "Creature" in game.chars(obj).types',
                                     "return True"))



@mutant("creature-spell-means-any-spell", "cr2004:200.9b",
        "\"Target creature spell\" accepts any spell on the stack (the type is not checked).")
def _any_spell(p: Patcher) -> None:
    p.source(Game.target_legal, ("return spec.allows is None or spec.allows(",
                                 'return spec.allows is None or kind == "spell" or spec.allows('))


@mutant("creature-spell-includes-creatures-in-play", "cr2004:200.9b",
        "\"Target creature spell\" also accepts creatures in play.")
def _creature_spell_permanents(p: Patcher) -> None:
    p.source(Game._target_universe, (
        'if kind == "spell":\n            return found',
        'if kind == "spell":\n            return found + [\n'
        '                o.id for o in self.battlefield if not o.phased_out]'))
    in_play = ("isinstance(value, GameObject) and value.zone == BATTLEFIELD and "
               "\"Creature\" in self.chars(value).types")
    p.source(Game.target_legal, (
        'if not isinstance(value, StackItem) or value.kind != "spell":',
        f'if {in_play}:\n            return True\n'
        '        if not isinstance(value, StackItem) or value.kind != "spell":'))


def _circle_effect(name: str) -> Any:
    from reference_engine.registry import implementation
    impl = implementation(name)
    assert impl is not None
    return impl.abilities[0].effect


@mutant("coloured-source-means-permanent", "cr2004:200.9c",
        "\"A red source\" means a red permanent only: a red spell on the stack (or the source "
        "of an ability) cannot be chosen.")
def _source_permanent_only(p: Patcher) -> None:
    p.source(Game.choosable_sources, ("for on_stack in self.stack:", "for on_stack in ():"))


@mutant("coloured-source-any-source", "cr2004:200.9c",
        "\"A red source of your choice\" may be any source, whatever its colour or type.")
def _source_any(p: Patcher) -> None:
    for name in ("Circle of Protection: Red", "Circle of Protection: Artifacts"):
        p.source(_circle_effect(name), ("if matches(game.known_chars(obj))}", "}"))


@mutant("counters-leave-power-alone", "cr2004:200.10",
        "+1/+1 and -1/-1 counters are kept on a permanent but do not change its power and "
        "toughness.")
def _counters_inert(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        'delta = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)', "delta = 0"))


# -- 201: the parts of a card and its characteristics ---------------------------------------------


@mutant("characteristics-only-in-play", "cr2004:201.1 cr2004:201.2",
        "Power and toughness are given only to permanents: a creature card in hand, a creature "
        "spell and a creature card in a graveyard have none.")
def _pt_only_in_play(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        'if "Creature" not in chars.types:',
        'if "Creature" not in chars.types or obj.zone != BATTLEFIELD:'))


# -- 202: a card's name ------------------------------------------------------------------------


@mutant("own-name-means-first-of-name", "cr2004:202.2",
        "A card's own name in its text means the first permanent of that name: Triskelion's "
        "\"Remove a +1/+1 counter from Triskelion\" takes it from another Triskelion.")
def _own_name_first(p: Patcher) -> None:
    p.source(Game._activate, (
        "self.remove_counters(obj, spec.remove_counter, 1)",
        "self.remove_counters(next(o for o in self.battlefield if o.card.name == obj.card.name"
        " and o.counters.get(spec.remove_counter)), spec.remove_counter, 1)"))


@mutant("granted-name-means-first-of-name", "cr2004:202.2b",
        "The name of the granting object in a granted ability means the first permanent of "
        "that name: \"Unattach Leonin Bola\" unattaches whichever Bola comes first.")
def _granted_name_first(p: Patcher) -> None:
    p.source(Game._granting_equipment, (
        "equipment = self.objects.get(spec.granted_by) if spec.granted_by is not None else None",
        "equipment = next((o for o in self.battlefield if o.attached_to is not None and "
        "o.card.name == self.objects[spec.granted_by].card.name), None) "
        "if spec.granted_by is not None else None"),
        ("if equipment is not None and equipment.attached_to == creature.id:",
         "if equipment is not None:"))


@mutant("copies-counted-per-deck-entry", "cr2004:202.3",
        "The four-copy limit is checked per deck entry: copies of one card listed in separate "
        "entries (four Grizzly Bears, then one more) are not added up.")
def _copies_per_entry(p: Patcher) -> None:
    from reference_engine import decks
    p.source(decks.deck_problems, (
        "counts = Counter(cards)",
        "counts = Counter({n: max(len(list(g)) for k, g in __import__('itertools').groupby(cards)"
        " if k == n) for n in set(cards)})"))


# -- 203: mana cost and colour -----------------------------------------------------------------


@mutant("lands-and-tokens-no-mana-cost-2004", "cr2004:203.1",
        "Lands and tokens have no mana cost in 2004 (the modern rule), rather than {0}.")
def _no_cost_2004(p: Patcher) -> None:
    from reference_engine.editions import Game2004
    p.set(Game2004, "lands_and_tokens_cost_zero", False)


@mutant("colour-not-from-mana-cost", "cr2004:203.2",
        "Colour is not taken from the mana cost: every object is colourless unless an effect "
        "colours it.")
def _no_colour(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "chars = Chars(card.name, cost, mana_value, card.colors,",
        "chars = Chars(card.name, cost, mana_value, () if not obj.token else card.colors,"))


@mutant("basic-land-has-its-mana-colour", "cr2004:203.2a",
        "A land with a basic land type has the colour of the mana it makes (a Forest is green), "
        "though no coloured symbol is in its mana cost.")
def _land_colour(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "chars = Chars(card.name, cost, mana_value, card.colors,",
        "chars = Chars(card.name, cost, mana_value, card.colors or tuple(sorted({"
        "{'Plains': 'W', 'Island': 'U', 'Swamp': 'B', 'Mountain': 'R', 'Forest': 'G'}[s] "
        "for s in card.subtypes if s in ('Plains', 'Island', 'Swamp', 'Mountain', 'Forest')}, "
        "key='WUBRG'.index)),"))


@mutant("multicoloured-first-colour-only", "cr2004:203.2b",
        "An object whose mana cost has symbols of two colours gets only the first one's colour.")
def _first_colour(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "chars = Chars(card.name, cost, mana_value, card.colors,",
        "chars = Chars(card.name, cost, mana_value, card.colors[:1],"))


@mutant("blue-black-symbols-swapped", "cr2004:203.2c",
        "{U} is read as black and {B} as blue (the letters mixed up).")
def _blue_black(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "chars = Chars(card.name, cost, mana_value, card.colors,",
        "chars = Chars(card.name, cost, mana_value, tuple({'U': 'B', 'B': 'U'}.get(c, c) "
        "for c in card.colors),"))


@mutant("colour-choice-allows-colourless", "cr2004:203.2d",
        "A choice of colour accepts colourless (C) besides the five colours.")
def _colour_choice(p: Patcher) -> None:
    p.source(Game.choose_color, ('list(COLORS)', 'list(COLORS) + ["C"]'))


@mutant("converted-cost-generic-only", "cr2004:203.3",
        "The converted mana cost counts only the generic part of the mana cost ({U}{U} is 0).")
def _cmc_generic(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "mana_value = card.mana_value",
        "mana_value = sum(int(s) for s in __import__('re').findall(r'\\{(\\d+)\\}', "
        "card.cost or ''))"))


@mutant("mana-value-is-mana-paid", "cr2004:203.4",
        "A spell's converted mana cost on the stack is all the mana paid to play it, additional "
        "costs (kicker, Fireball's extra targets) included.")
def _cmc_paid(p: Patcher) -> None:
    p.source(Game._cast, (
        'card.cast_info = {"x": action.x, "kicked": action.kicked,',
        'card.cast_info = {"paid": (lambda c: sum(c.colored) + c.generic + c.x * (action.x or 0))'
        '(self.spell_cost(card, len(action.targets), action.kicked)),\n'
        '                  "x": action.x, "kicked": action.kicked,'))
    p.source(layers.Layers._base_chars, (
        "chars = Chars(card.name, cost, mana_value, card.colors,",
        "if obj.zone == STACK and obj.cast_info and 'paid' in obj.cast_info:\n"
        "        mana_value = obj.cast_info['paid']\n"
        "    chars = Chars(card.name, cost, mana_value, card.colors,"))


# -- 205: the type line --------------------------------------------------------------------------


@mutant("enchant-type-line-no-card-type", "cr2004:205.2a",
        "A 2004 local enchantment (type line \"Enchant Creature\") has no card type: it is not "
        "an enchantment.")
def _enchant_untyped(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        "_SETS[card.supertypes], frozenset(t for t in card.types if not "
        "card.subtypes[:1] or not card.subtypes[0].startswith('Enchant ')), card.subtypes,"))


@mutant("one-card-type-per-object", "cr2004:205.2b",
        "An object has one card type, the last on its type line: an artifact creature is only a "
        "creature, an artifact land only a land.")
def _one_type(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        "_SETS[card.supertypes], frozenset(card.types[-1:]), card.subtypes,"))


@mutant("first-subtype-only", "cr2004:205.3a",
        "A card keeps only the first subtype of its type line (Tropical Island only a Forest).")
def _first_subtype(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes[:1],"))


@mutant("subtype-words-not-split", "cr2004:205.3b",
        "The words after the dash are one subtype (\"Nightmare Dragon\", \"Forest Island\").")
def _subtypes_joined(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        "_SETS[card.supertypes], _SETS[card.types], "
        "(' '.join(card.subtypes),) if card.subtypes else (),"))


@mutant("enchant-subtype-dropped", "cr2004:205.3c",
        "A 2004 local enchantment loses its enchant subtype (Pacifism a plain enchantment).")
def _enchant_subtype(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        "_SETS[card.supertypes], _SETS[card.types], tuple(s for s in card.subtypes "
        "if not s.startswith('Enchant ')),"))


@mutant("type-line-without-dash-as-subtypes", "cr2004:205.3d cr2004:205.3c",
        "A type line without a dash is read as subtypes: Lightning Bolt has the subtype "
        "Instant, Glorious Anthem the subtype Enchantment.")
def _no_dash_subtypes(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "_SETS[card.supertypes], _SETS[card.types], card.subtypes,",
        "_SETS[card.supertypes], _SETS[card.types], "
        "card.subtypes or tuple(card.type_line.split()),"))


@mutant("artifact-creature-subtype-not-creature-type", "cr2004:205.3e",
        "The subtype of an artifact creature is taken for an artifact type: a chosen creature "
        "type never matches an artifact creature.")
def _artifact_creature_subtype(p: Patcher) -> None:
    from reference_engine.cards import continuous
    p.source(continuous._of_chosen_type, (
        'and "Creature" in chars.types and chosen in chars.subtypes',
        'and "Creature" in chars.types and "Artifact" not in chars.types '
        'and chosen in chars.subtypes'))


@mutant("new-land-type-drops-basic", "cr2004:205.4a",
        "Setting a land's subtype also resets its supertypes: a Forest made a Swamp by Evil "
        "Presence is no longer basic.")
def _land_type_drops_basic(p: Patcher) -> None:
    from reference_engine.cards import common
    p.source(common.set_land_types, (
        "chars.lost_abilities = True",
        "chars.lost_abilities = True\n    chars.supertypes = chars.supertypes - {'Basic'}"))


@mutant("basic-land-type-makes-basic", "cr2004:205.4b",
        "Any land with a basic land type is a basic land (Tropical Island basic), not only a "
        "land with the supertype Basic.")
def _land_type_basic(p: Patcher) -> None:
    from reference_engine import decks
    p.source(decks.deck_problems, (
        'basic = "Basic" in card.supertypes and "Land" in card.types',
        'basic = "Land" in card.types and ("Basic" in card.supertypes or any(s in ('
        '"Plains", "Island", "Swamp", "Mountain", "Forest") for s in card.subtypes))'))


# -- 207: the text box -------------------------------------------------------------------------


@mutant("reminder-text-is-an-ability", "cr2004:207.2",
        "Reminder text in parentheses is read as an ability: Tropical Island's \"({T}: Add {G} "
        "or {U} ...)\" gives it a third mana ability.")
def _reminder_ability(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        "if intrinsic:\n            chars.abilities = intrinsic + chars.abilities",
        "if intrinsic:\n            chars.abilities = intrinsic + chars.abilities\n"
        "        chars.abilities = chars.abilities + tuple(\n"
        "            AbilitySpec(line, tap=True, any_color=True)\n"
        "            for line in obj.card.text.split('\\n') if line.startswith('({T}: Add'))"))


# -- 208: power and toughness ------------------------------------------------------------------


@mutant("power-toughness-swapped", "cr2004:208.1",
        "Power and toughness are read the wrong way round (Savannah Lions 1/2).")
def _pt_swapped(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "power, toughness, obj.impl.keywords)",
        "toughness, power, obj.impl.keywords)"))


@mutant("star-defined-outside-play-2004", "cr2004:208.2",
        "In 2004 a * power and toughness is defined in every zone (the modern rule), not 0 "
        "outside play.")
def _star_everywhere(p: Patcher) -> None:
    from reference_engine.editions import Game2004
    p.set(Game2004, "_cda_applies", lambda self, obj: True)


@mutant("star-zero-in-play", "cr2004:208.2",
        "A * power and toughness is 0 in play too: the defining ability is ignored.")
def _star_zero(p: Patcher) -> None:
    from reference_engine.editions import Game2004
    p.set(Game2004, "_cda_applies", lambda self, obj: False)
