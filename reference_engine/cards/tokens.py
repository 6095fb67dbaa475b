"""Tokens and counters: token makers, +1/+1 counters (entering with them, removing them as a
cost, kicker), poison counters and infect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import ANY_TARGET, damage, token_card
from reference_engine.mana import parse_cost
from reference_engine.objects import ABILITY, AbilitySpec, CardImpl, SpellSpec, StaticSpec

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, Resolution, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _tokens(count: int, name: str, colors: tuple[str, ...], subtypes: tuple[str, ...],
            *keywords: str) -> Resolution:
    def effect(game: CardAPI, item: StackItem) -> None:
        for _ in range(count):
            card = token_card(game, name, colors, ("Creature",), subtypes, 1, 1,
                              ", ".join(k.capitalize() for k in keywords))
            game.create_token(item.controller, item.controller, card,
                              CardImpl(name, keywords=frozenset(keywords)))
    return effect


CARDS.add(CardImpl("Raise the Alarm", spell=SpellSpec(
    (), _tokens(2, "Soldier", ("W",), ("Soldier",)))))
# A multi-word token name gives one creature type per word (216.1).
CARDS.add(CardImpl("Goblin Scouts", spell=SpellSpec(
    (), _tokens(3, "Goblin Scout", ("R",), ("Goblin", "Scout"), "mountainwalk"))))

CARDS.add(CardImpl("Triskelion", enters_with={"+1/+1": 3}, abilities=(
    AbilitySpec("Remove a +1/+1 counter from Triskelion: It deals 1 damage to any target.",
                remove_counter="+1/+1", targets=(ANY_TARGET,), effect=damage(1)),
)))


def _kicked(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return obj is src and bool(src.cast_info and src.cast_info.get("kicked"))


def _trample(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    chars.keywords = chars.keywords | {"trample"}


CARDS.add(CardImpl("Kavu Titan", kicker=parse_cost("{2}{G}"), kicked_counters={"+1/+1": 3},
                   statics=(StaticSpec(ABILITY, _kicked, _trample,
                                       "If Kavu Titan was kicked, it has trample."),)))
CARDS.add(CardImpl("Plague Stinger", keywords=frozenset(("flying", "infect"))))
