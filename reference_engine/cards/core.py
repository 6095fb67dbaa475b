"""The core pool: lands, vanilla creatures, mana creatures and artifacts, burn, pump,
counterspells, removal, card draw and discard (the cards of "Reference engine I")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import (
    ANY_TARGET,
    CREATURE,
    CREATURE_SPELL,
    PERMANENT,
    PLAYER,
    PLAYER_OR_PLANESWALKER,
    SPELL,
    bounce,
    counter_target,
    damage,
    destroy,
    discard,
    draw,
    pump,
    source,
)
from reference_engine.mana import parse_cost
from reference_engine.objects import AbilitySpec, CardImpl, SpellSpec, TargetSpec

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, GameObject, StackItem


#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _vanilla(name: str, *keywords: str) -> None:
    CARDS.add(CardImpl(name, keywords=frozenset(keywords)))


for _name in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Snow-Covered Forest",
              "Tropical Island", "Grizzly Bears", "Balduvian Bears", "Bear Cub", "Forest Bear",
              "Runeclaw Bear", "Savannah Lions", "Hill Giant"):
    _vanilla(_name)
_vanilla("Raging Goblin", "haste")
_vanilla("Raging Kavu", "haste", "flash")  # 2004: "any time you could play an instant"
_vanilla("Ornithopter", "flying")


def _nonartifact_nonblack(game: CardAPI, _controller: str, obj: GameObject) -> bool:
    chars = game.chars(obj)
    return "Artifact" not in chars.types and "B" not in chars.colors


NONARTIFACT_NONBLACK_CREATURE = TargetSpec(
    "creature", _nonartifact_nonblack, "target nonartifact, nonblack creature"
)


def _mind_stone_draw(game: CardAPI, item: StackItem) -> None:
    game.draw(item.controller, 1)


def _fireball(game: CardAPI, item: StackItem) -> None:
    # X damage divided evenly among the targets chosen, rounded down (2004 rule 104.1).
    share = (item.x or 0) // len(item.targets) if item.targets else 0
    for target in game.legal_targets_of(item):
        game.deal_damage(source(item), target, share)


CARDS.add(CardImpl("Seat of the Synod", abilities=(
    AbilitySpec("{T}: Add {U}.", tap=True, produces=("U",)),
)))
CARDS.add(CardImpl("Llanowar Elves", abilities=(
    AbilitySpec("{T}: Add {G}.", tap=True, produces=("G",)),
)))
CARDS.add(CardImpl("Mind Stone", abilities=(
    AbilitySpec("{T}: Add {C}.", tap=True, produces=("C",)),
    AbilitySpec("{1}, {T}, Sacrifice Mind Stone: Draw a card.", cost=parse_cost("{1}"),
                tap=True, sacrifice=True, effect=_mind_stone_draw),
)))
CARDS.add(CardImpl("Prodigal Sorcerer", abilities=(
    AbilitySpec("{T}: Prodigal Sorcerer deals 1 damage to any target.", tap=True,
                targets=(ANY_TARGET,), effect=damage(1)),
)))
CARDS.add(CardImpl("Lightning Bolt", spell=SpellSpec((ANY_TARGET,), damage(3))))
CARDS.add(CardImpl("Shock", spell=SpellSpec((ANY_TARGET,), damage(2))))
CARDS.add(CardImpl("Giant Growth", spell=SpellSpec((CREATURE,), pump(3, 3))))
CARDS.add(CardImpl("Counterspell", spell=SpellSpec((SPELL,), counter_target)))
CARDS.add(CardImpl("Remove Soul", spell=SpellSpec((CREATURE_SPELL,), counter_target)))
CARDS.add(CardImpl("Terror", spell=SpellSpec((NONARTIFACT_NONBLACK_CREATURE,),
                                             destroy(regenerate=False))))
CARDS.add(CardImpl("Murder", spell=SpellSpec((CREATURE,), destroy())))
CARDS.add(CardImpl("Unsummon", spell=SpellSpec((CREATURE,), bounce)))
CARDS.add(CardImpl("Inspiration", spell=SpellSpec((PLAYER,), draw(2, targeted=True))))
CARDS.add(CardImpl("Divination", spell=SpellSpec((), draw(2))))
CARDS.add(CardImpl("Mind Rot", spell=SpellSpec((PLAYER,), discard(2))))
CARDS.add(CardImpl("Lava Axe", spell=SpellSpec((PLAYER,), damage(5))))
# The modern Oracle: "target player or planeswalker" (a creature is not a legal target).
CARDS.add(CardImpl("Lava Axe", spell=SpellSpec((PLAYER_OR_PLANESWALKER,), damage(5))),
          edition="modern")
CARDS.add(CardImpl("Fireball", spell=SpellSpec((ANY_TARGET,), _fireball, max_targets=99,
                                               extra_target_cost=1)))
CARDS.add(CardImpl("Vindicate", spell=SpellSpec((PERMANENT,), destroy())))

#: the cards of the core game (self-play's default deck pool)
CORE = frozenset(impl.name for impl in CARDS)
