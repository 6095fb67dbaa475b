"""Zones of the editions: phasing, the top card revealed, face-down exile with linked
abilities, cards outside the game, ante, the command zone, extra turns, and a sacrifice in
response to combat damage."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import (
    ANY_TARGET,
    CREATURE,
    PLAYER,
    damage,
    on_battlefield,
    token_card,
)
from reference_engine.constants import GRAVEYARD, HAND, LIBRARY
from reference_engine.mana import parse_cost
from reference_engine.objects import (
    AbilitySpec,
    CardImpl,
    PlayerRules,
    SpellSpec,
    StaticSpec,
    TriggerSpec,
)
from spec.cardpool import CardData

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _phase_out(game: CardAPI, item: StackItem) -> None:
    efreet = on_battlefield(game, item.source)
    if efreet is not None:
        game.phase_out(efreet)


CARDS.add(CardImpl("Rainbow Efreet", keywords=frozenset(("flying",)), abilities=(
    AbilitySpec("{U}{U}: Rainbow Efreet phases out.", cost=parse_cost("{U}{U}"),
                effect=_phase_out),
)))


def _controller_of(game: CardAPI, src: GameObject, player: str) -> bool:
    return src.controller == player


CARDS.add(CardImpl("Future Sight", player_rules=(
    PlayerRules(_controller_of, top_card_revealed=True, play_top_card=True),
)))


def _exile_top_face_down(game: CardAPI, item: StackItem) -> None:
    library = game.players[item.controller].library
    if library and item.source is not None:
        game.exile_object(library[-1], cause="bomat_courier", exiled_with=item.source.id,
                          face_down=True)


def _bomat_return(game: CardAPI, item: StackItem) -> None:
    courier = item.source
    if courier is None:
        return
    # Linked abilities: only the cards exiled with this Courier (406.6).
    for card in [o for o in game.exile if o.exiled_with == courier.id]:
        game.move(card, HAND, cause="bomat_courier")


CARDS.add(CardImpl("Bomat Courier", keywords=frozenset(("haste",)), abilities=(
    AbilitySpec("{R}, Discard your hand, Sacrifice Bomat Courier: Put all cards exiled with "
                "Bomat Courier into their owner's hand.", cost=parse_cost("{R}"),
                sacrifice=True, discard_hand=True, effect=_bomat_return),
), triggers=(
    TriggerSpec("attacks", _exile_top_face_down, "Whenever Bomat Courier attacks, exile the "
                "top card of your library face down."),
)))


def _burning_wish(game: CardAPI, item: StackItem) -> Iterator[Any]:
    name = item.controller
    sorceries = [o.id for o in game.cards_outside_the_game(name)
                 if "Sorcery" in game.chars(o).types]
    if sorceries:
        chosen = yield from game.choose(name, "choose_card", [*sorceries, None],
                                        {"from": "outside the game", "what": "a sorcery"})
        if chosen is not None:
            game.move(game.objects[chosen], HAND, cause="wish")
    if item.obj is not None and item.obj.id in game.objects:
        game.stack.remove(item)
        game.exile_object(item.obj, cause="burning_wish")


CARDS.add(CardImpl("Burning Wish", spell=SpellSpec((), _burning_wish)))


def _contract_from_below(game: CardAPI, item: StackItem) -> None:
    name = item.controller
    player = game.players[name]
    for card in list(player.hand):
        game.move(card, GRAVEYARD, cause="discard")
    if player.library:
        game.ante_object(player.library[-1])
    game.draw(name, 7)


CARDS.add(CardImpl("Contract from Below", ante_card=True,
                   spell=SpellSpec((), _contract_from_below)))


def _extra_turns(count: int, *, targeted: bool) -> Any:
    def effect(game: CardAPI, item: StackItem) -> None:
        players = game.targeted_players(item) if targeted else [item.controller]
        for player in players:
            game.extra_turns_for(player, count)
    return effect


CARDS.add(CardImpl("Time Stretch", spell=SpellSpec((PLAYER,), _extra_turns(2, targeted=True))))
CARDS.add(CardImpl("Temporal Manipulation",
                   spell=SpellSpec((), _extra_turns(1, targeted=False))))
CARDS.add(CardImpl("Time Walk", spell=SpellSpec((), _extra_turns(1, targeted=False))))

CARDS.add(CardImpl("Mogg Fanatic", abilities=(
    AbilitySpec("Sacrifice Mogg Fanatic: It deals 1 damage to any target.", sacrifice=True,
                targets=(ANY_TARGET,), effect=damage(1)),
)))

# -- a planeswalker and its emblem in the command zone --------------------------------------------


def _soldier(game: CardAPI, item: StackItem) -> None:
    card = token_card(game, "Soldier", ("W",), ("Creature",), ("Soldier",), 1, 1)
    game.create_token(item.controller, item.controller, card, CardImpl("Soldier"))


def _plus_three_flying(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.grant_until(target, "turn", keywords=frozenset(("flying",)), power=3,
                         toughness=3)


def _your_permanents_indestructible(game: CardAPI, src: GameObject, obj: GameObject,
                                    chars: Chars) -> bool:
    return obj.controller == src.owner and bool(
        {"Artifact", "Creature", "Enchantment", "Land"} & chars.types)


def _indestructible(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    chars.keywords = chars.keywords | {"indestructible"}


_EMBLEM = CardImpl("Elspeth, Knight-Errant emblem", statics=(
    StaticSpec(6, _your_permanents_indestructible, _indestructible,
               "Artifacts, creatures, enchantments, and lands you control have "
               "indestructible."),
))


def _emblem(game: CardAPI, item: StackItem) -> None:
    card = CardData(name="Elspeth, Knight-Errant emblem", edition=game.edition, cost=None,
                    type_line="Emblem", supertypes=(), types=(), subtypes=(), power=None,
                    toughness=None, text=_EMBLEM.statics[0].text, colors=(),
                    mana_value=0)
    game.new_emblem(item.controller, card, _EMBLEM)


CARDS.add(CardImpl("Elspeth, Knight-Errant", loyalty=4, abilities=(
    AbilitySpec("+1: Create a 1/1 white Soldier creature token.", loyalty=1, effect=_soldier),
    AbilitySpec("+1: Target creature gets +3/+3 and gains flying until end of turn.",
                loyalty=1, targets=(CREATURE,), effect=_plus_three_flying),
    AbilitySpec('-8: You get an emblem with "Artifacts, creatures, enchantments, and lands '
                'you control have indestructible."', loyalty=-8, effect=_emblem),
)))


def _oust(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        creature = game.objects[target]
        controller = creature.controller
        # "Second from the top"; with too few cards, the bottom (401.7).
        game.move(creature, LIBRARY, from_top=2, cause="oust")
        game.gain_life(controller, 3)


CARDS.add(CardImpl("Oust", spell=SpellSpec((CREATURE,), _oust)))
