"""Target specifications and effect builders shared by the card modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from reference_engine import events as ev
from reference_engine.constants import BATTLEFIELD
from reference_engine.objects import Resolution, TargetSpec
from spec.cardpool import CardData

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, StackItem

ANY_TARGET = TargetSpec("creature_or_player", text="any target")
CREATURE = TargetSpec("creature", text="target creature")
PLAYER = TargetSpec("player", text="target player")
PERMANENT = TargetSpec("permanent", text="target permanent")
LAND = TargetSpec("land", text="target land")
SPELL = TargetSpec("spell", text="target spell")
CREATURE_SPELL = TargetSpec(
    "spell", lambda game, _controller, item: item.obj is not None
    and "Creature" in game.chars(item.obj).types, "target creature spell",
)
PLAYER_OR_PLANESWALKER = TargetSpec(
    "creature_or_player", lambda game, _controller, value: isinstance(value, str)
    or "Planeswalker" in game.chars(value).types, "target player or planeswalker",
)
OPPONENT = TargetSpec("player", lambda _game, controller, player: player != controller,
                      "target opponent")


def _yours(game: CardAPI, controller: str, obj: GameObject) -> bool:
    return obj.controller == controller


CREATURE_YOU_CONTROL = TargetSpec("creature", _yours, "target creature you control")


def _creature_card(game: CardAPI, controller: str, obj: GameObject) -> bool:
    return "Creature" in game.chars(obj).types


def creature_card_in_your_graveyard() -> TargetSpec:
    def allows(game: CardAPI, controller: str, obj: GameObject) -> bool:
        return obj.owner == controller and _creature_card(game, controller, obj)
    return TargetSpec("card_in_graveyard", allows, "target creature card in your graveyard")


def source(item: StackItem) -> GameObject | None:
    """The object a spell or ability resolves from (the spell itself, or the ability's
    source as it last existed)."""
    return item.obj if item.obj is not None else item.source


def on_battlefield(game: CardAPI, obj: GameObject | None) -> GameObject | None:
    """``obj`` if it is still the same object on the battlefield, and phased in, else None: a
    phased-out permanent is treated as though it did not exist, and nothing affects it (modern
    702.26b; in 2004 it is not on the battlefield at all, 217.8c)."""
    if obj is None:
        return None
    current = game.objects.get(obj.id)
    if current is None or current.zone != BATTLEFIELD or current.phased_out:
        return None
    return current


def regenerate_source(game: CardAPI, item: StackItem) -> None:
    """"Regenerate [this]": a regeneration shield for the ability's source, if it is still
    on the battlefield."""
    creature = item.source
    if creature is not None and creature.id in game.objects and creature.zone == BATTLEFIELD:
        creature.regen_shields += 1
        game.emit(ev.RegenerationShield(creature.id))


def damage(amount: int) -> Resolution:
    def effect(game: CardAPI, item: StackItem) -> None:
        for target in game.legal_targets_of(item):
            game.deal_damage(source(item), target, amount)
    return effect


def draw(amount: int, *, targeted: bool = False) -> Resolution:
    def effect(game: CardAPI, item: StackItem) -> None:
        players = game.targeted_players(item) if targeted else [item.controller]
        for player in players:
            game.draw(player, amount)
    return effect


def pump(power: int, toughness: int) -> Resolution:
    def effect(game: CardAPI, item: StackItem) -> None:
        for target in game.targeted_objects(item):
            game.pump_until_end_of_turn(target, power, toughness)
    return effect


def destroy(*, regenerate: bool = True) -> Resolution:
    def effect(game: CardAPI, item: StackItem) -> None:
        for target in game.targeted_objects(item):
            game.destroy(target, regenerate=regenerate)
    return effect


def counter_target(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.counter(target)


def bounce(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.return_to_hand(target)


def discard(amount: int) -> Resolution:
    def effect(game: CardAPI, item: StackItem) -> Iterator[Any]:
        for player in game.targeted_players(item):
            yield from game.discard(player, amount)
    return effect


LAND_TYPES = frozenset(("Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Lair",
                        "Locus", "Mine", "Power-Plant", "Tower", "Urza's", "Gate"))


def add_types(chars: Chars, *types: str, subtypes: tuple[str, ...] = ()) -> None:
    """An effect that keeps the old types ("still a land", "in addition to its types"):
    every old type and subtype stays (212.1c)."""
    chars.types = chars.types | frozenset(types)
    chars.subtypes = chars.subtypes + tuple(s for s in subtypes if s not in chars.subtypes)


def set_land_types(chars: Chars, *land_types: str) -> None:
    """Setting a land's subtype replaces its land types (212.1b); the land loses its rules
    text and gets the new basic types' mana abilities (212.6e), keeping other types,
    supertypes and granted abilities."""
    chars.subtypes = tuple(s for s in chars.subtypes if s not in LAND_TYPES) + land_types
    chars.lost_abilities = True


def set_pt(chars: Chars, power: int, toughness: int) -> None:
    chars.power = power
    chars.toughness = toughness


def modify_pt(chars: Chars, power: int, toughness: int) -> None:
    if chars.power is not None:
        chars.power += power
        chars.toughness = (chars.toughness or 0) + toughness


def token_card(game: CardAPI, name: str, colors: tuple[str, ...], types: tuple[str, ...],
               subtypes: tuple[str, ...], power: int | None, toughness: int | None,
               text: str = "") -> CardData:
    """The characteristics a spell or ability gives a token (216.1); named by its creature
    types when unnamed, and a multi-word name gives one creature type per word."""
    type_line = " ".join(types) + (" — " + " ".join(subtypes) if subtypes else "")
    return CardData(name=name, edition=game.edition, cost=None, type_line=type_line,
                    supertypes=(), types=types, subtypes=subtypes, power=power,
                    toughness=toughness, text=text, colors=colors, mana_value=0)
