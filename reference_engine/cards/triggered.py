"""Triggered abilities: beginning-of-step triggers, enters and leaves triggers, attack
triggers, a "becomes tapped" trigger, and a delayed trigger."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from reference_engine import events as ev
from reference_engine.cardimpl import Cards
from reference_engine.cards.common import (
    OPPONENT,
    creature_card_in_your_graveyard,
    on_battlefield,
    token_card,
)
from reference_engine.constants import BATTLEFIELD, DRAW, END, HAND, UPKEEP, other
from reference_engine.mana import parse_cost
from reference_engine.objects import AbilitySpec, CardImpl, TriggerSpec

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _untapped(game: CardAPI, source: GameObject, event: dict[str, Any]) -> bool:
    return not source.tapped


def _howling_mine(game: CardAPI, item: StackItem) -> None:
    game.draw(game.active, 1)  # "that player": the player whose draw step it is


CARDS.add(CardImpl("Howling Mine", triggers=(
    TriggerSpec("step", _howling_mine, "At the beginning of each player's draw step, if "
                "Howling Mine is untapped, that player draws an additional card.",
                condition=_untapped, intervening=True, step=DRAW, whose="each"),
)))


def _phyrexian_arena(game: CardAPI, item: StackItem) -> None:
    game.draw(item.controller, 1)
    game.lose_life(item.controller, 1, "loss")


CARDS.add(CardImpl("Phyrexian Arena", triggers=(
    TriggerSpec("step", _phyrexian_arena, "At the beginning of your upkeep, you draw a card and "
                "you lose 1 life.", step=UPKEEP),
)))


def _gravedigger(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.move(game.objects[target], HAND, cause="return")


CARDS.add(CardImpl("Gravedigger", triggers=(
    TriggerSpec("etb", _gravedigger, "When Gravedigger enters, you may return target creature "
                "card from your graveyard to your hand.",
                targets=(creature_card_in_your_graveyard(),), optional=True),
)))


def _another_creature(game: CardAPI, source: GameObject, event: dict[str, Any]) -> bool:
    return event["subject"] is not source


def _gain_one(game: CardAPI, item: StackItem) -> None:
    game.gain_life(item.controller, 1)


CARDS.add(CardImpl("Soul Warden", triggers=(
    TriggerSpec("creature_etb", _gain_one, "Whenever another creature enters, you gain 1 life.",
                condition=_another_creature),
)))


def _poison_defender(game: CardAPI, item: StackItem) -> None:
    defender = other(game.active)
    game.players[defender].poison += 1
    game.emit(ev.Poison(defender, 1))


CARDS.add(CardImpl("Swamp Mosquito", keywords=frozenset(("flying",)), triggers=(
    TriggerSpec("unblocked", _poison_defender, "Whenever Swamp Mosquito attacks and isn't "
                "blocked, defending player gets a poison counter."),
)))


def _city_of_brass(game: CardAPI, item: StackItem) -> None:
    assert item.source is not None
    game.deal_damage(item.source, item.controller, 1)


CARDS.add(CardImpl("City of Brass", abilities=(
    AbilitySpec("{T}: Add one mana of any color.", tap=True, any_color=True),
), triggers=(
    TriggerSpec("tapped", _city_of_brass, "Whenever City of Brass becomes tapped, it deals 1 "
                "damage to you."),
)))


def _spirit_for_opponent(game: CardAPI, item: StackItem) -> None:
    for opponent in game.targeted_players(item):
        card = token_card(game, "Spirit", (), ("Creature",), ("Spirit",), 1, 1)
        game.create_token(item.controller, opponent, card, CardImpl("Spirit"))


CARDS.add(CardImpl("Forbidden Orchard", abilities=(
    AbilitySpec("{T}: Add one mana of any color.", tap=True, any_color=True),
), triggers=(
    TriggerSpec("tapped_for_mana", _spirit_for_opponent, "Whenever you tap Forbidden Orchard "
                "for mana, target opponent creates a 1/1 colorless Spirit creature token.",
                targets=(OPPONENT,)),
)))


# -- a delayed trigger ---------------------------------------------------------------------------

def _sacrifice_that(creature: GameObject) -> Any:
    def effect(game: CardAPI, item: StackItem) -> None:
        # The creature it refers to, if it is still the same object on the battlefield (and
        # phased in: modern 702.26b); sacrificed by the delayed ability's controller, who can
        # sacrifice only what they control (modern 701.21a; 2004 glossary "Sacrifice").
        found = on_battlefield(game, creature)
        if found is creature:
            game.sacrifice(creature, item.controller)
    return effect


def _sneak_attack(game: CardAPI, item: StackItem) -> Iterator[Any]:
    player = game.players[item.controller]
    cards = [o.id for o in player.hand if "Creature" in game.chars(o).types]
    if not cards:
        return
    chosen = yield from game.choose(item.controller, "choose_card", [*cards, None],
                                    {"from": "hand", "what": "a creature card, or none"})
    if chosen is None:
        return
    creature = game.move(game.objects[chosen], BATTLEFIELD, controller=item.controller,
                         cause="sneak_attack")
    if creature is None:
        return
    game.grant_until(creature.id, "object", keywords=frozenset(("haste",)))
    # "Sacrifice the creature at the beginning of the next end step": a delayed trigger. Its
    # source is Sneak Attack, the source of the ability that made it, and its controller that
    # ability's (modern 603.7e; the 2004 rules say nothing of its source, and the modern rule
    # is followed). It refers to the creature, which is not its source.
    spec = TriggerSpec("step", _sacrifice_that(creature), "Sacrifice the creature at the "
                       "beginning of the next end step.", step=END, whose="each",
                       refers_to=(creature,))
    assert item.source is not None
    game.add_delayed("step", spec, item.controller, item.source, step=END)


CARDS.add(CardImpl("Sneak Attack", abilities=(
    AbilitySpec("{R}: You may put a creature card from your hand onto the battlefield. That "
                "creature gains haste. Sacrifice the creature at the beginning of the next end "
                "step.", cost=parse_cost("{R}"), effect=_sneak_attack),
)))
