"""How cards are described to the engine. Card *data* (names, costs, types, Oracle text) lives
in spec/cards.yaml; a :class:`CardImpl` gives a card its behaviour: keywords, what its spell
does, its activated, triggered and static abilities, and special rules (auras, equipment,
kicker, flashback, counters it enters with, characteristic-defining power and toughness).

The implementations themselves are in :mod:`reference_engine.cards`, one module per family of
mechanics. An effect is a function ``effect(game, item)`` run on resolution; when it needs a
player's decision it returns a generator that yields a Decision and receives the action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reference_engine.mana import Cost

if TYPE_CHECKING:
    from reference_engine.game import Game
    from reference_engine.objects import Chars, GameObject, StackItem

Effect = Callable[["Game", "StackItem"], Iterator[Any] | None]

# Layers of continuous effects (modern rule 613; the 2004 rules order them the same way).
CONTROL, TYPE, COLOR, ABILITY, PT_CDA, PT_SET, PT_MODIFY = 2, 4, 5, 6, 7.1, 7.2, 7.3


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """One target. ``kind`` says where candidates come from: ``creature_or_player``
    (also planeswalkers in the modern edition), ``creature``, ``player``, ``permanent``,
    ``spell``, ``spell_or_permanent``, ``land``, ``card_in_graveyard``, ``card_in_exile``.
    ``allows(game, controller, candidate)`` restricts further."""

    kind: str
    allows: Callable[[Game, str, Any], bool] | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    """An activated ability: its costs, targets and effect. ``produces`` marks a mana ability
    (it resolves at once, without the stack) and lists the mana it adds; ``any_color`` makes
    it add one mana of a colour its controller chooses."""

    text: str
    cost: Cost | None = None
    tap: bool = False
    sacrifice: bool = False
    remove_counter: str | None = None  # "Remove a +1/+1 counter from this": a cost
    unattach: bool = False  # "Unattach this Equipment": a cost (Leonin Bola)
    discard_hand: bool = False  # "Discard your hand": a cost (Bomat Courier)
    loyalty: int | None = None  # a planeswalker's loyalty ability: + or - counters
    targets: tuple[TargetSpec, ...] = ()
    effect: Effect | None = None
    produces: tuple[str, ...] | None = None
    any_color: bool = False
    sorcery_speed: bool = False
    during_combat: bool = False  # "Activate only during combat"
    equip: bool = False  # an equip ability: attach to target creature you control
    #: the object whose static ability grants this ability (its name in the text means it)
    granted_by: int | None = None
    #: an ability whose text names its own object ("less than Stone Giant's power"): gives the
    #: ability as that object has it (202.2), so its targets can be checked against it
    bind: Callable[[AbilitySpec, GameObject], AbilitySpec] | None = None


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """A triggered ability. ``event`` is one of ``etb`` (this enters), ``creature_etb`` (a
    creature enters), ``dies`` (this is put into a graveyard from the battlefield),
    ``leaves`` (this leaves the battlefield), ``step`` (the beginning of ``step``; ``whose``
    says of which player's turn: ``controller`` or ``each``), ``tapped`` (this becomes
    tapped), ``tapped_for_mana`` (it is tapped for mana), ``attacks`` (this attacks),
    ``unblocked`` (this attacks and isn't blocked), ``enchanted_dies`` (the permanent this is
    attached to is put into a graveyard from the battlefield).
    ``condition(game, source, event)`` filters; with ``intervening`` it is an intervening
    "if" clause ("..., if Howling Mine is untapped, ..."), checked again as the ability
    resolves, which then does nothing if it no longer holds (modern 603.4; 2004 410.10 says
    the same, outside the seed); ``optional`` is a "may"."""

    event: str
    effect: Effect
    text: str
    targets: tuple[TargetSpec, ...] = ()
    condition: Callable[[Game, GameObject, Any], bool] | None = None
    intervening: bool = False
    optional: bool = False
    step: int | None = None
    whose: str = "controller"


@dataclass(frozen=True, slots=True)
class StaticSpec:
    """A static ability generating a continuous effect in ``layer`` on each object for which
    ``applies(game, source, obj, chars)`` holds; ``modify(game, source, obj, chars)`` edits the
    characteristics being computed. Layer 2 effects return the new controller instead."""

    layer: float
    applies: Callable[[Game, GameObject, GameObject, Chars], bool]
    modify: Callable[[Game, GameObject, GameObject, Chars], Any]
    text: str = ""


@dataclass(frozen=True, slots=True)
class PlayerRules:
    """A static ability that changes rules for a player: ``applies(game, source, player)``;
    the fields say how."""

    applies: Callable[[Game, GameObject, str], bool]
    extra_land_plays: int = 0
    no_max_hand_size: bool = False
    top_card_revealed: bool = False
    play_top_card: bool = False


@dataclass(frozen=True, slots=True)
class SpellSpec:
    """What a spell targets and does on resolution. ``max_targets`` > len(targets) means "any
    number of targets" of ``targets[0]``'s kind, each beyond the first costing
    ``extra_target_cost`` more generic mana (Fireball)."""

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
    triggers: tuple[TriggerSpec, ...] = ()
    statics: tuple[StaticSpec, ...] = ()
    player_rules: tuple[PlayerRules, ...] = ()
    #: an Aura (2004: a local enchantment) and what it may enchant
    enchant: TargetSpec | None = None
    #: counters the permanent enters the battlefield with
    enters_with: dict[str, int] = field(default_factory=dict)
    kicker: Cost | None = None
    #: extra counters it enters with if it was kicked (Kavu Titan)
    kicked_counters: dict[str, int] = field(default_factory=dict)
    flashback: Cost | None = None
    #: characteristic-defining power and toughness: (game, obj) -> (power, toughness)
    cda: Callable[[Game, GameObject], tuple[int, int]] | None = None
    #: "As this enters, choose a creature type" (Engineered Plague)
    choose_on_entry: str | None = None
    loyalty: int | None = None
    #: "Remove this card from your deck before playing if you're not playing for ante."
    ante_card: bool = False
    #: "If you would lose the game, instead exile this and your life total becomes your
    #: starting life total" (Exquisite Archangel)
    loss_replacement: bool = False
    #: "If a card or token would be put into a graveyard from anywhere, exile it instead"
    #: (Rest in Peace)
    exile_instead_of_graveyard: bool = False


REGISTRY: dict[str, CardImpl] = {}
#: behaviour that differs in one edition (the card's Oracle wording of that time)
EDITION_REGISTRY: dict[tuple[str, str], CardImpl] = {}


def register(impl: CardImpl, edition: str | None = None) -> CardImpl:
    key = impl.name if edition is None else (edition, impl.name)
    registry: dict[Any, CardImpl] = REGISTRY if edition is None else EDITION_REGISTRY
    if key in registry:
        raise ValueError(f"card {impl.name!r} is implemented twice")
    registry[key] = impl
    return impl


def implementation(name: str, edition: str | None = None) -> CardImpl | None:
    """The behaviour of a card (in an edition), or None if the engine does not implement it."""
    import reference_engine.cards  # noqa: F401  (importing registers every card, once)

    if edition is not None:
        special = EDITION_REGISTRY.get((edition, name))
        if special is not None:
            return special
    return REGISTRY.get(name)


def implemented() -> dict[str, CardImpl]:
    implementation("")
    return dict(REGISTRY)
