"""What each card does. Card *data* (names, costs, types, text) lives in spec/cards.yaml; this
module gives each card its behaviour: keywords, spell effect and targets, activated abilities.

An effect is a function ``effect(game, item)`` run when the spell or ability resolves. If it
needs a player's decision it returns a generator that yields a
:class:`~reference_engine.objects.Decision` and receives the chosen action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reference_engine.mana import Cost, parse_cost

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.objects import GameObject, StackItem

Effect = Callable[["Game", "StackItem"], Iterator[Any] | None]


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """One target of a spell or ability.

    ``kind`` says where candidates come from: ``creature_or_player``, ``creature``,
    ``player``, ``permanent``, ``spell``. ``allows`` further restricts candidates.
    """

    kind: str
    allows: Callable[[Game, str, Any], bool] | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    """An activated ability: its cost, targets and effect. ``produces`` marks a mana ability
    (resolves at once, no stack) and says which mana it adds."""

    text: str
    cost: Cost | None = None
    tap: bool = False
    sacrifice: bool = False
    targets: tuple[TargetSpec, ...] = ()
    effect: Effect | None = None
    produces: tuple[str, ...] | None = None
    sorcery_speed: bool = False


@dataclass(frozen=True, slots=True)
class SpellSpec:
    """What a spell targets and does on resolution.

    ``max_targets`` > len(targets) means "any number of targets" of ``targets[0]``'s kind,
    with ``extra_target_cost`` generic mana for each target beyond the first (Fireball).
    """

    targets: tuple[TargetSpec, ...] = ()
    effect: Effect | None = None
    max_targets: int = 0
    extra_target_cost: int = 0


@dataclass(frozen=True, slots=True)
class CardImpl:
    name: str
    keywords: frozenset[str] = frozenset()
    spell: SpellSpec | None = None
    abilities: tuple[AbilitySpec, ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)


REGISTRY: dict[str, CardImpl] = {}
VANILLA = CardImpl("")


def register(impl: CardImpl) -> CardImpl:
    REGISTRY[impl.name] = impl
    return impl


def implementation(name: str) -> CardImpl | None:
    """The behaviour of a card, or None if the engine does not implement it."""
    return REGISTRY.get(name)


# Target specs ------------------------------------------------------------------------------

ANY_TARGET = TargetSpec("creature_or_player", text="any target (creature or player)")
CREATURE = TargetSpec("creature", text="target creature")
PLAYER = TargetSpec("player", text="target player")
PERMANENT = TargetSpec("permanent", text="target permanent")
SPELL = TargetSpec("spell", text="target spell")
CREATURE_SPELL = TargetSpec(
    "spell", lambda game, _controller, item: item.obj is not None
    and "Creature" in game.chars(item.obj).types, "target creature spell",
)


def _nonartifact_nonblack(game: Game, _controller: str, obj: GameObject) -> bool:
    chars = game.chars(obj)
    return "Artifact" not in chars.types and "B" not in chars.colors


NONARTIFACT_NONBLACK_CREATURE = TargetSpec(
    "creature", _nonartifact_nonblack, "target nonartifact, nonblack creature"
)


# Effects -----------------------------------------------------------------------------------

def damage(amount: int) -> Effect:
    def effect(game: Game, item: StackItem) -> None:
        for target in game.legal_targets_of(item):
            game.deal_damage(item.obj or item.source, target, amount)
    return effect


def draw(amount: int, *, targeted: bool = False) -> Effect:
    def effect(game: Game, item: StackItem) -> None:
        players = game.legal_targets_of(item) if targeted else [item.controller]
        for player in players:
            game.draw(player, amount)
    return effect


def _giant_growth(game: Game, item: StackItem) -> None:
    for target in game.legal_targets_of(item):
        game.pump_until_end_of_turn(target, 3, 3)


def _counter(game: Game, item: StackItem) -> None:
    for target in game.legal_targets_of(item):
        game.counter(target)


def _destroy(game: Game, item: StackItem) -> None:
    for target in game.legal_targets_of(item):
        game.destroy(target)


def _terror(game: Game, item: StackItem) -> None:
    for target in game.legal_targets_of(item):
        game.destroy(target, regenerate=False)


def _unsummon(game: Game, item: StackItem) -> None:
    for target in game.legal_targets_of(item):
        game.return_to_hand(target)


def _mind_rot(game: Game, item: StackItem) -> Iterator[Any]:
    for player in game.legal_targets_of(item):
        yield from game.discard(player, 2)


def _fireball(game: Game, item: StackItem) -> None:
    targets = game.legal_targets_of(item)
    chosen = len(item.targets)
    # Divided evenly among the targets chosen, rounded down (2004 rule 104.1).
    share = (item.x or 0) // chosen if chosen else 0
    for target in targets:
        game.deal_damage(item.obj, target, share)


def _mind_stone_draw(game: Game, item: StackItem) -> None:
    game.draw(item.controller, 1)


def _ping(game: Game, item: StackItem) -> None:
    for target in game.legal_targets_of(item):
        game.deal_damage(item.source, target, 1)


# The pool ----------------------------------------------------------------------------------

def _vanilla(name: str, *keywords: str) -> None:
    register(CardImpl(name, keywords=frozenset(keywords)))


for _name in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Snow-Covered Forest",
              "Tropical Island", "Grizzly Bears", "Savannah Lions", "Hill Giant"):
    _vanilla(_name)
_vanilla("Raging Goblin", "haste")
_vanilla("Ornithopter", "flying")

register(CardImpl("Seat of the Synod", abilities=(
    AbilitySpec("{T}: Add {U}.", tap=True, produces=("U",)),
)))
register(CardImpl("Llanowar Elves", abilities=(
    AbilitySpec("{T}: Add {G}.", tap=True, produces=("G",)),
)))
register(CardImpl("Mind Stone", abilities=(
    AbilitySpec("{T}: Add {C}.", tap=True, produces=("C",)),
    AbilitySpec("{1}, {T}, Sacrifice Mind Stone: Draw a card.", cost=parse_cost("{1}"),
                tap=True, sacrifice=True, effect=_mind_stone_draw),
)))
register(CardImpl("Prodigal Sorcerer", abilities=(
    AbilitySpec("{T}: Prodigal Sorcerer deals 1 damage to any target.", tap=True,
                targets=(ANY_TARGET,), effect=_ping),
)))
register(CardImpl("Lightning Bolt", spell=SpellSpec((ANY_TARGET,), damage(3))))
register(CardImpl("Shock", spell=SpellSpec((ANY_TARGET,), damage(2))))
register(CardImpl("Giant Growth", spell=SpellSpec((CREATURE,), _giant_growth)))
register(CardImpl("Counterspell", spell=SpellSpec((SPELL,), _counter)))
register(CardImpl("Remove Soul", spell=SpellSpec((CREATURE_SPELL,), _counter)))
register(CardImpl("Terror", spell=SpellSpec((NONARTIFACT_NONBLACK_CREATURE,), _terror)))
register(CardImpl("Unsummon", spell=SpellSpec((CREATURE,), _unsummon)))
register(CardImpl("Inspiration", spell=SpellSpec((PLAYER,), draw(2, targeted=True))))
register(CardImpl("Divination", spell=SpellSpec((), draw(2))))
register(CardImpl("Mind Rot", spell=SpellSpec((PLAYER,), _mind_rot)))
register(CardImpl("Lava Axe", spell=SpellSpec((PLAYER,), damage(5))))
register(CardImpl("Fireball", spell=SpellSpec((ANY_TARGET,), _fireball, max_targets=99,
                                              extra_target_cost=1)))
register(CardImpl("Vindicate", spell=SpellSpec((PERMANENT,), _destroy)))
