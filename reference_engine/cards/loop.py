"""Animate Dead and Worldgorger Dragon: an Aura that enchants a card in a graveyard, linked
exile-and-return abilities, and together the classic loop of mandatory actions (102.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import on_battlefield
from reference_engine.constants import BATTLEFIELD, GRAVEYARD
from reference_engine.objects import (
    PT_MODIFY,
    CardImpl,
    StaticSpec,
    TargetSpec,
    TriggerSpec,
    attached_to_source,
)

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _creature_card(game: CardAPI, _controller: str, obj: GameObject) -> bool:
    return "Creature" in game.chars(obj).types


ENCHANT_CREATURE_CARD_IN_GRAVEYARD = TargetSpec(
    "card_in_graveyard", _creature_card, "enchant creature card in a graveyard")


def _animate(game: CardAPI, item: StackItem) -> None:
    aura = on_battlefield(game, item.source)
    if aura is None or not isinstance(aura.attached_to, int):
        return  # "if it's on the battlefield"
    card = game.objects.get(aura.attached_to)
    if card is None or card.zone != GRAVEYARD:
        return
    creature = game.move(card, BATTLEFIELD, controller=aura.controller, cause="animate_dead")
    if creature is None:
        return
    # It loses "enchant creature card in a graveyard" and gains "enchant creature put onto
    # the battlefield with Animate Dead".
    target = creature.id
    aura.chosen["enchant"] = TargetSpec("creature", lambda g, c, o: o.id == target,
                                        "enchant creature put onto the battlefield with it")
    game.attach(aura, target)


def _sacrifice_animated(game: CardAPI, item: StackItem) -> None:
    old = item.data["event"].get("old")
    target = old.attached_to if old is not None else None
    creature = game.objects.get(target) if isinstance(target, int) else None
    if creature is not None and creature.zone == BATTLEFIELD:
        game.sacrifice(creature, creature.controller)  # "that creature's controller sacrifices it"


def _minus_one_power(game: CardAPI, aura: GameObject, obj: GameObject, chars: Chars) -> None:
    if chars.power is not None:
        chars.power -= 1


CARDS.add(CardImpl("Animate Dead", enchant=ENCHANT_CREATURE_CARD_IN_GRAVEYARD, triggers=(
    TriggerSpec("etb", _animate, "When Animate Dead enters, if it's on the battlefield, return "
                "enchanted creature card to the battlefield under your control and attach "
                "Animate Dead to it."),
    TriggerSpec("leaves", _sacrifice_animated, "When Animate Dead leaves the battlefield, that "
                "creature's controller sacrifices it."),
), statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _minus_one_power,
               "Enchanted creature gets -1/-0."),
)))


def _animate_2004(game: CardAPI, item: StackItem) -> None:
    enchantment = on_battlefield(game, item.source)
    for target in game.targeted_objects(item):
        creature = game.move(game.objects[target], BATTLEFIELD, controller=item.controller,
                             cause="animate_dead")
        if creature is not None and enchantment is not None:
            game.attach(enchantment, creature.id)  # "Animate Dead enchants that creature"


def _destroy_animated(game: CardAPI, item: StackItem) -> None:
    old = item.data["event"].get("old")
    target = old.attached_to if old is not None else None
    if isinstance(target, int):
        game.destroy(target, regenerate=False)


# The Oracle wording of 2004 (before the Ninth Edition rewrite made it an Aura): a global
# enchantment whose enters-play trigger targets a creature card in a graveyard.
CARDS.add(CardImpl("Animate Dead", triggers=(
    TriggerSpec("etb", _animate_2004, "When Animate Dead comes into play, return target "
                "creature card from a graveyard to play under your control. Animate Dead "
                "enchants that creature.",
                targets=(TargetSpec("card_in_graveyard", _creature_card,
                                    "target creature card in a graveyard"),)),
    TriggerSpec("leaves", _destroy_animated, "When Animate Dead leaves play, destroy that "
                "creature. It can't be regenerated."),
), statics=(
    StaticSpec(PT_MODIFY, attached_to_source, _minus_one_power,
               "That creature gets -1/-0."),
)), edition="cr2004")


def _exile_the_rest(game: CardAPI, item: StackItem) -> None:
    dragon = item.source
    if dragon is None:
        return
    for obj in [o for o in game.live() if o.controller == item.controller and o is not dragon]:
        game.exile_object(obj, cause="worldgorger", exiled_with=dragon.id)


def _return_the_rest(game: CardAPI, item: StackItem) -> None:
    old = item.data["event"].get("old")
    if old is None:
        return
    # Linked abilities: only the cards this Dragon exiled (406.6), under their owners' control.
    with game.together():  # "return the exiled cards": one event
        for card in [o for o in game.exile if o.exiled_with == old.id]:
            game.move(card, BATTLEFIELD, controller=card.owner, cause="worldgorger")


CARDS.add(CardImpl("Worldgorger Dragon", keywords=frozenset(("flying", "trample")), triggers=(
    TriggerSpec("etb", _exile_the_rest, "When Worldgorger Dragon enters, exile all other "
                "permanents you control."),
    TriggerSpec("leaves", _return_the_rest, "When Worldgorger Dragon leaves the battlefield, "
                "return the exiled cards to the battlefield under their owner's control."),
)))
