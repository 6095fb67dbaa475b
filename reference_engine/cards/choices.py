"""Player decisions and replacement effects: APNAP choices, ordering cards into a library or
graveyard, regeneration, prevention with a chosen source, flashback, and Auras returning to
the battlefield without being cast."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import LAND, draw, regenerate_source
from reference_engine.constants import BATTLEFIELD, LIBRARY
from reference_engine.mana import parse_cost
from reference_engine.objects import AbilitySpec, CardImpl, SpellSpec

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _innocent_blood(game: CardAPI, item: StackItem) -> Iterator[Any]:
    # APNAP (103.4): the active player chooses first, then the other; then all at once.
    chosen = []
    for name in game.apnap_order():
        creatures = [o.id for o in game.live() if o.controller == name
                     and "Creature" in game.chars(o).types]
        if creatures:
            pick = yield from game.choose(name, "choose_sacrifice", creatures)
            chosen.append(game.objects[pick])
    yield from game.put_into_graveyards(chosen, "sacrifice")


CARDS.add(CardImpl("Innocent Blood", spell=SpellSpec((), _innocent_blood)))


def _brainstorm(game: CardAPI, item: StackItem) -> Iterator[Any]:
    name = item.controller
    game.draw(name, 3)
    hand = game.players[name].hand
    # Two cards on top in the order the player chooses: the second chosen ends on top.
    for remaining in (2, 1):
        if not hand:
            return
        pick = yield from game.choose(name, "put_on_top", [o.id for o in hand],
                                      {"count": remaining})
        game.move(game.objects[pick], LIBRARY, cause="brainstorm")


CARDS.add(CardImpl("Brainstorm", spell=SpellSpec((), _brainstorm)))


def _plow_under(game: CardAPI, item: StackItem) -> Iterator[Any]:
    lands = [game.objects[t] for t in game.legal_targets_of(item) if isinstance(t, int)]
    # Cards put into a library at once: each owner orders their own, the active player first
    # (2004 rule 217.2d; modern 401.4; 103.4 for the order of the choices).
    for name in game.apnap_order():
        mine = [o for o in lands if o.owner == name]
        while mine:
            if len({o.card.name for o in mine}) > 1:
                pick = yield from game.choose(name, "put_on_top", [o.id for o in mine],
                                              {"count": len(mine)})
                chosen = game.objects[pick]
            else:
                chosen = mine[0]
            mine.remove(chosen)
            game.move(chosen, LIBRARY, cause="plow_under")


CARDS.add(CardImpl("Plow Under", spell=SpellSpec((LAND, LAND), _plow_under)))


def _wrath(game: CardAPI, item: StackItem) -> Iterator[Any]:
    creatures = [o for o in game.live() if "Creature" in game.chars(o).types
                 and not game.has(o, "indestructible")]
    # Destroyed at once, no regeneration; each owner orders their cards (217.4c).
    yield from game.put_into_graveyards(creatures, "destroy")


CARDS.add(CardImpl("Wrath of God", spell=SpellSpec((), _wrath)))


CARDS.add(CardImpl("Drudge Skeletons", abilities=(
    AbilitySpec("{B}: Regenerate Drudge Skeletons.", cost=parse_cost("{B}"),
                effect=regenerate_source),
)))


def _circle_of_protection(quality: str) -> Any:
    """"The next time a [quality] source of your choice would deal damage to you this turn,
    prevent that damage": the source is chosen on resolution, not targeted; a source is any
    object with that colour (or, named with a type, of that type: 200.9c)."""
    def matches(chars: Any) -> bool:
        return quality in chars.colors or quality in chars.types

    def effect(game: CardAPI, item: StackItem) -> Iterator[Any]:
        # A source may be a permanent, a spell, or an object something on the stack or an
        # effect waiting to apply refers to, even if it has left its zone (a Mogg Fanatic
        # sacrificed for its ability), as it last existed (modern 609.7a).
        sources = {obj.id: obj for obj in game.choosable_sources(item)
                   if matches(game.known_chars(obj))}
        if not sources:
            return
        chosen = yield from game.choose(item.controller, "choose_source", list(sources),
                                        {"quality": quality})
        # The shield is for a source with that quality: it is checked again as the damage
        # would be dealt (modern 609.7b, 615.9).
        game.shield_from(item.controller, sources[chosen], matches)
    return effect


CARDS.add(CardImpl("Circle of Protection: Red", abilities=(
    AbilitySpec("{1}: The next time a red source of your choice would deal damage to you this "
                "turn, prevent that damage.", cost=parse_cost("{1}"),
                effect=_circle_of_protection("R")),
)))
CARDS.add(CardImpl("Circle of Protection: Artifacts", abilities=(
    AbilitySpec("{2}: The next time an artifact source of your choice would deal damage to you "
                "this turn, prevent that damage.", cost=parse_cost("{2}"),
                effect=_circle_of_protection("Artifact")),
)))

CARDS.add(CardImpl("Think Twice", spell=SpellSpec((), draw(1)),
                   flashback=parse_cost("{2}{U}")))


def _replenish(game: CardAPI, item: StackItem) -> None:
    player = game.players[item.controller]
    cards = [o for o in player.graveyard if "Enchantment" in game.chars(o).types]
    with game.together():  # "Return all ...": one event
        for card in cards:
            # An Aura with nothing to enchant stays in the graveyard (212.4e).
            game.move(card, BATTLEFIELD, controller=item.controller, cause="replenish")


CARDS.add(CardImpl("Replenish", spell=SpellSpec((), _replenish)))

CARDS.add(CardImpl("Exquisite Archangel", keywords=frozenset(("flying",)),
                   loss_replacement=True))
