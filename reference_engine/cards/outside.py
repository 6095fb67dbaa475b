"""Cards that reach rules outside the seeds no earlier card of the pool reached: a creature
that attacks each combat if able (Juggernaut, modern 508.1d), an Equipment that gives double
strike and an instant that destroys it mid-combat (Fireshrieker and Shatter, modern 702.4c),
an instant that gives double strike (Temur Battle Rage, modern 702.4d), and a creature that
triggers on each life gain (Ajani's Pridemate, modern 702.15e).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reference_engine.cardimpl import Cards
from reference_engine.cards.common import CREATURE, destroy, on_battlefield
from reference_engine.cards.continuous import equip_ability
from reference_engine.objects import (
    ABILITY,
    CardImpl,
    SpellSpec,
    StaticSpec,
    TargetSpec,
    TriggerSpec,
    attached_to_source,
)

if TYPE_CHECKING:
    from reference_engine.objects import CardAPI, Chars, GameObject, StackItem

#: the cards this module defines, each checked as it is defined
CARDS = Cards()


def _itself(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> bool:
    return obj is src


def _juggernaut(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    chars.flags = chars.flags | {"attacks_if_able", "unblockable_by_walls"}


# 2004: "Juggernaut attacks each turn if able." A turn has one combat in the pool, so the two
# wordings ask the same.
CARDS.add(CardImpl("Juggernaut", statics=(
    StaticSpec(ABILITY, _itself, _juggernaut,
               "Juggernaut attacks each combat if able. Juggernaut can't be blocked by Walls."),
)))


def _double_strike(game: CardAPI, src: GameObject, obj: GameObject, chars: Chars) -> None:
    chars.keywords = chars.keywords | {"double strike"}


CARDS.add(CardImpl("Fireshrieker", abilities=(equip_ability("{2}"),), statics=(
    StaticSpec(ABILITY, attached_to_source, _double_strike,
               "Equipped creature has double strike."),
)))


def _artifact(game: CardAPI, _controller: str, obj: GameObject) -> bool:
    return "Artifact" in game.chars(obj).types


CARDS.add(CardImpl("Shatter", spell=SpellSpec(
    (TargetSpec("permanent", _artifact, "target artifact"),), destroy()),
))


def _battle_rage(game: CardAPI, item: StackItem) -> None:
    for target in game.targeted_objects(item):
        game.grant_until(target, "turn", keywords=frozenset(("double strike",)))
        # Ferocious: asked as the spell resolves, after the double strike.
        ferocious = any(o.controller == item.controller and "Creature" in game.chars(o).types
                        and (game.chars(o).power or 0) >= 4 for o in game.live())
        if ferocious:
            game.grant_until(target, "turn", keywords=frozenset(("trample",)))


CARDS.add(CardImpl("Temur Battle Rage", spell=SpellSpec((CREATURE,), _battle_rage)))


def _you_gained(game: CardAPI, source: GameObject, event: dict[str, Any]) -> bool:
    return bool(event["player"] == source.controller)


def _pridemate_grows(game: CardAPI, item: StackItem) -> None:
    pridemate = on_battlefield(game, item.source)
    if pridemate is not None:
        game.add_counters(pridemate, "+1/+1", 1)


CARDS.add(CardImpl("Ajani's Pridemate", triggers=(
    TriggerSpec("gains_life", _pridemate_grows, "Whenever you gain life, put a +1/+1 counter "
                "on Ajani's Pridemate.", condition=_you_gained),
)))
