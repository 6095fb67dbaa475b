"""Creatures with the keyword abilities of combat and targeting: first strike and double
strike, vigilance, reach, defender, deathtouch, lifelink, menace, protection, shroud,
hexproof and indestructible (the engine plays them in combat.py, board.py and targets.py;
reference_engine/keywords.py says how each is named). Loxodon Warhammer, an Equipment, is in
continuous.py.

Where the 2004 Oracle spells out what is a keyword now (Serra Angel, Giant Spider, Troll
Ascetic, Crystalline Sliver, Darksteel Myr), the card has the keyword here in both editions:
the ability is the same, only its name is new. Wall of Spears differs: in 2004 it has no
defender, and the rules keep a Wall from attacking (2004 308.2a, the ``walls_cant_attack``
hook).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import (
    CREATURE_YOU_CONTROL,
    on_battlefield,
    regenerate_source,
)
from reference_engine.constants import COLORS
from reference_engine.keywords import protection_from
from reference_engine.mana import parse_cost
from reference_engine.objects import ABILITY, AbilitySpec, CardImpl, StaticSpec

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _creature(name: str, *keywords: str, edition: str | None = None) -> None:
    CARDS.add(CardImpl(name, keywords=frozenset(keywords)), edition=edition)


_creature("White Knight", "first strike", protection_from("B"))
_creature("Ridgetop Raptor", "double strike")
_creature("Serra Angel", "flying", "vigilance")  # 2004: "attacking doesn't cause it to tap"
_creature("Giant Spider", "reach")  # 2004: "can block as though it had flying"
_creature("Wall of Spears", "defender", "first strike")
_creature("Wall of Spears", "first strike", edition="cr2004")  # a Wall: 2004 308.2a
_creature("Vampire Nighthawk", "flying", "deathtouch", "lifelink")
_creature("Boggart Brute", "menace")
_creature("Darksteel Myr", "indestructible")  # 2004: "Darksteel Myr is indestructible."


def _gains_first_strike(game: CardAPI, item: StackItem) -> None:
    knight = on_battlefield(game, item.source)
    if knight is not None:
        game.grant_until(knight.id, "turn", keywords=frozenset(("first strike",)))


def _gets_one_power(game: CardAPI, item: StackItem) -> None:
    knight = on_battlefield(game, item.source)
    if knight is not None:
        game.pump_until_end_of_turn(knight.id, 1, 0)


CARDS.add(CardImpl("Knight of Stromgald", keywords=frozenset((protection_from("W"),)),
                   abilities=(
    AbilitySpec("{B}: Knight of Stromgald gains first strike until end of turn.",
                cost=parse_cost("{B}"), effect=_gains_first_strike),
    AbilitySpec("{B}{B}: Knight of Stromgald gets +1/+0 until end of turn.",
                cost=parse_cost("{B}{B}"), effect=_gets_one_power),
)))


def _protection_of_your_choice(game: CardAPI, item: StackItem) -> Iterator[Any]:
    # The colour is chosen as the ability resolves, for a target still legal then.
    for target in game.targeted_objects(item):
        color = yield from game.choose(item.controller, "choose_color", list(COLORS))
        game.grant_until(target, "turn", keywords=frozenset((protection_from(color),)))


CARDS.add(CardImpl("Mother of Runes", abilities=(
    AbilitySpec("{T}: Target creature you control gains protection from the color of your "
                "choice until end of turn.", tap=True, targets=(CREATURE_YOU_CONTROL,),
                effect=_protection_of_your_choice),
)))

# 2004: "can't be the target of spells or abilities your opponents control": hexproof, before
# the keyword (2011).
CARDS.add(CardImpl("Troll Ascetic", keywords=frozenset(("hexproof",)), abilities=(
    AbilitySpec("{1}{G}: Regenerate Troll Ascetic.", cost=parse_cost("{1}{G}"),
                effect=regenerate_source),
)))


def _slivers(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return "Creature" in chars.types and "Sliver" in chars.subtypes


def _shroud(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    chars.keywords = chars.keywords | {"shroud"}


# 2004: "All Slivers can't be the target of spells or abilities": shroud, before the keyword.
CARDS.add(CardImpl("Crystalline Sliver", statics=(
    StaticSpec(ABILITY, _slivers, _shroud, "All Slivers have shroud."),
)))
