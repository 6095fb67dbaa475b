"""Cards added for rules that waited for one (issue 12): a delayed destruction of "that
creature" after it stops being a creature (Stone Giant, 2004 202.2a), an Aura that phases out
a token (Vanishing, 2004 217.8d), an Aura found in the graveyard by its own trigger (Nurgle's
Rot, modern 400.7f), a granted flashback (Snapcaster Mage, 400.7g), a permission to play a
card from exile with riders on the spell or land it becomes (Lightstall Inquisitor, 400.7h
and 400.7i), a library shuffled while its top card is revealed (Evolving Wilds, 401.6), and an
exiled card exiled again (Pull from Eternity under Rest in Peace, 400.8 and 406.7)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import on_battlefield, token_card
from reference_engine.cards.continuous import ENCHANT_CREATURE
from reference_engine.constants import BATTLEFIELD, END, EXILE, GRAVEYARD, HAND, other
from reference_engine.mana import parse_cost
from reference_engine.objects import (
    AbilitySpec,
    CardImpl,
    PlayPermission,
    SpellSpec,
    TargetSpec,
    TriggerSpec,
)

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()

# -- Stone Giant: "destroy that creature", whatever it has become (2004 202.2a) -------------


def _smaller_than_giant(giant: GameObject) -> TargetSpec:
    """"Target creature you control with toughness less than Stone Giant's power": the power
    of this Stone Giant (its name means itself, 202.2), checked as the ability is activated
    and again as it resolves."""
    def allows(game: CardAPI, controller: str, obj: GameObject) -> bool:
        if obj.controller != controller:
            return False
        toughness = game.chars(obj).toughness
        # Its power as it is, or as it last existed on the battlefield once it has left.
        power = game.known_chars(giant).power
        return toughness is not None and power is not None and toughness < power
    return TargetSpec("creature", allows, "target creature you control with toughness less "
                      "than Stone Giant's power")


def _destroy_that(creature: GameObject) -> Any:
    def effect(game: CardAPI, item: StackItem) -> None:
        # "That creature" is the object the ability targeted, creature or not by now (2004
        # 202.2a); a new object it has become (it left the battlefield) is not it. Phased
        # out, it is treated as though it did not exist: CardAPI.destroy leaves it alone (modern
        # 702.26b).
        if game.objects.get(creature.id) is creature and creature.zone == BATTLEFIELD:
            game.destroy(creature.id)
    return effect


def _stone_giant(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.grant_until(target, "turn", keywords=frozenset(("flying",)))
        # A delayed trigger, made as the ability resolves: one made during an end step waits
        # for the next turn's (modern 513.2; the 2004 "at end of turn" works the same).
        spec = TriggerSpec("step", _destroy_that(game.objects[target]),
                           "Destroy that creature at the beginning of the next end step.",
                           step=END, whose="each", refers_to=(game.objects[target],))
        assert item.source is not None
        game.add_delayed("step", spec, item.controller, item.source, step=END)


_GIANT = AbilitySpec(
    "{T}: Target creature you control with toughness less than Stone Giant's power gains "
    "flying until end of turn. Destroy that creature at the beginning of the next end step.",
    tap=True, targets=(TargetSpec("creature", text="target creature you control with toughness "
                                  "less than Stone Giant's power"),),
    effect=_stone_giant,
    bind=lambda spec, giant: replace(spec, targets=(_smaller_than_giant(giant),), bind=None),
)
CARDS.add(CardImpl("Stone Giant", abilities=(_GIANT,)))

# -- Vanishing: an Aura that phases out what it enchants (2004 217.8d with a token) --------------


def _enchanted_phases_out(game: CardAPI, item: StackItem) -> None:
    aura = on_battlefield(game, item.source)
    if aura is None or not isinstance(aura.attached_to, int):
        return
    creature = game.objects.get(aura.attached_to)
    if creature is not None and creature.zone == BATTLEFIELD and not creature.phased_out:
        game.phase_out(creature)  # the Aura goes with it, attached to it


CARDS.add(CardImpl("Vanishing", enchant=ENCHANT_CREATURE, abilities=(
    AbilitySpec("{U}{U}: Enchanted creature phases out.", cost=parse_cost("{U}{U}"),
                effect=_enchanted_phases_out),
)))

# -- Nurgle's Rot: its trigger finds the Aura in the graveyard (modern 400.7f) --------------------


def _opponents(game: CardAPI, controller: str, obj: GameObject) -> bool:
    return obj.controller != controller


ENCHANT_OPPONENTS_CREATURE = TargetSpec("creature", _opponents,
                                        "enchant creature an opponent controls")


def _nurgles_rot(game: CardAPI, item: StackItem) -> None:
    aura = item.source  # as it last existed on the battlefield
    # The creature died; the Aura followed it to its owner's graveyard by the state-based
    # action for an Aura attached to nothing (modern 704.5m): the trigger finds the new
    # object it became there (400.7f), and only there.
    found = aura.successor if aura is not None else None
    if found is not None and game.objects.get(found.id) is found and found.zone == GRAVEYARD:
        game.move(found, HAND, cause="return")
    card = token_card(game, "Plaguebearer of Nurgle", ("B",), ("Creature",), ("Demon",), 1, 3)
    game.create_token(item.controller, item.controller, card, CardImpl("Plaguebearer of Nurgle"))


CARDS.add(CardImpl("Nurgle's Rot", enchant=ENCHANT_OPPONENTS_CREATURE, triggers=(
    TriggerSpec("enchanted_dies", _nurgles_rot, "When enchanted creature dies, return Nurgle's "
                "Rot to its owner's hand and you create a 1/3 black Demon creature token named "
                "Plaguebearer of Nurgle."),
)))

# -- Snapcaster Mage: a granted flashback (modern 400.7g) --------------------------------------


def _instant_or_sorcery_of_yours(game: CardAPI, controller: str, obj: GameObject) -> bool:
    return obj.owner == controller and bool({"Instant", "Sorcery"} & game.chars(obj).types)


def _grant_flashback(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        card = game.objects[target]
        if card.card.cost is None:
            continue  # "equal to its mana cost": a card without one gets no cost to pay
        # Flashback (modern 702.34a): its owner may cast it from the graveyard for the
        # flashback cost, and the spell is exiled whenever it would leave the stack; the
        # granted ability applies to the spell the card becomes (400.7g).
        game.permissions[target] = PlayPermission(card.owner, cost=parse_cost(card.card.cost),
                                                  until_end_of_turn=True)
        game.changed()


CARDS.add(CardImpl("Snapcaster Mage", keywords=frozenset(("flash",)), triggers=(
    TriggerSpec("etb", _grant_flashback, "When this creature enters, target instant or sorcery "
                "card in your graveyard gains flashback until end of turn. The flashback cost "
                "is equal to its mana cost.",
                targets=(TargetSpec("card_in_graveyard", _instant_or_sorcery_of_yours,
                                    "target instant or sorcery card in your graveyard"),)),
)))

# -- Lightstall Inquisitor: riders on the spell or land played from exile (400.7h, 400.7i) -------


def _exile_and_permit(game: CardAPI, item: StackItem) -> Iterator[Any]:
    opponent = other(item.controller)  # "each opponent": two players
    hand = game.players[opponent].hand
    if not hand:
        return
    pick = yield from game.choose(opponent, "choose_card", [o.id for o in hand],
                                  {"from": "hand", "what": "a card to exile"})
    exiled = game.exile_object(game.objects[pick], cause="lightstall_inquisitor")
    if exiled is not None and exiled.zone == EXILE:
        # "... may play that card for as long as it remains exiled. Each spell cast this way
        # costs {1} more to cast. Each land played this way enters tapped."
        game.permissions[exiled.id] = PlayPermission(opponent, extra=1, enters_tapped=True)
        game.changed()


CARDS.add(CardImpl("Lightstall Inquisitor", keywords=frozenset(("vigilance",)), triggers=(
    TriggerSpec("etb", _exile_and_permit, "When this creature enters, each opponent exiles a "
                "card from their hand and may play that card for as long as it remains exiled. "
                "Each spell cast this way costs {1} more to cast. Each land played this way "
                "enters tapped."),
)))

# -- Evolving Wilds: a shuffle while the top card is revealed (modern 401.6) ----------------------


def _basic_land_card(obj: GameObject) -> bool:
    return "Basic" in obj.card.supertypes and "Land" in obj.card.types


def _fetch_basic(game: CardAPI, item: StackItem) -> Iterator[Any]:
    name = item.controller
    basics = [o.id for o in game.players[name].library if _basic_land_card(o)]
    if basics:
        # A search of a hidden zone for a card of a stated quality may find none (modern
        # 701.23b).
        chosen = yield from game.choose(name, "choose_card", [*basics, None],
                                        {"from": "library", "what": "a basic land card, or none"})
        if chosen is not None:
            game.move(game.objects[chosen], BATTLEFIELD, controller=name, cause="search",
                      tapped=True)
    game.shuffle(name)


CARDS.add(CardImpl("Evolving Wilds", abilities=(
    AbilitySpec("{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put "
                "it onto the battlefield tapped, then shuffle.", tap=True, sacrifice=True,
                effect=_fetch_basic),
)))

# -- Rest in Peace and Pull from Eternity: an exiled card exiled again (modern 400.8, 406.7) -----


def _exile_all_graveyards(game: CardAPI, item: StackItem) -> None:
    for name in game.apnap_order():
        for card in list(game.players[name].graveyard):
            game.exile_object(card, cause="rest_in_peace")


CARDS.add(CardImpl("Rest in Peace", exile_instead_of_graveyard=True, triggers=(
    TriggerSpec("etb", _exile_all_graveyards, "When Rest in Peace enters, exile all "
                "graveyards."),
)))


def _to_owners_graveyard(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        # With Rest in Peace the card is exiled instead: a new object in the same zone.
        game.move(game.objects[target], GRAVEYARD, cause="pull_from_eternity")


FACE_UP_EXILED_CARD = TargetSpec("card_in_exile", lambda game, _c, obj: not obj.face_down,
                                 "target face-up exiled card")
CARDS.add(CardImpl("Pull from Eternity", spell=SpellSpec((FACE_UP_EXILED_CARD,),
                                                        _to_owners_graveyard)))
