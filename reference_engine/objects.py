"""The things a game is made of, and how cards are described to the engine.

Players, objects (cards and tokens in zones), stack items, continuous effects, pending triggers,
decisions and computed characteristics: plain slotted classes, created and read on every step
of the hot loop. Then a card's behaviour (:class:`CardImpl` and its specs; the card *data*,
names, costs, types and Oracle text, is in spec/cards.yaml), and :class:`CardAPI`: the game as
a card's behaviour sees it, every member a card may use, and nothing else. The two halves refer
to each other (an object carries its card's behaviour; the behaviour acts on objects), so they
are one module.

A card's :data:`Resolution` is a function ``effect(game, item)`` run as its spell or ability
resolves; when it needs a player's decision it returns a generator that yields a Decision and
receives the action.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from reference_engine import events as ev
from reference_engine.actions import Action
from reference_engine.mana import Cost

if TYPE_CHECKING:
    from spec.cardpool import CardData

Resolution = Callable[["CardAPI", "StackItem"], Iterator[Any] | None]

class Player:
    __slots__ = (
        "cant_play_lands_turn", "drew_from_empty", "graveyard", "hand", "land_plays",
        "lands_played", "last_turn", "library", "life", "max_hand_size", "mulligans", "name",
        "poison", "pool", "sideboard",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.life = 20
        self.poison = 0
        self.pool = [0, 0, 0, 0, 0, 0]
        self.library: list[GameObject] = []  # the top is the END of the list
        self.hand: list[GameObject] = []
        self.graveyard: list[GameObject] = []  # the top is the END of the list
        self.sideboard: list[GameObject] = []  # outside the game
        self.lands_played = 0
        self.land_plays = 1
        self.max_hand_size: int | None = 7
        self.drew_from_empty = False
        self.last_turn = 0  # number of this player's most recent turn
        self.mulligans = 0
        self.cant_play_lands_turn = 0  # "can't play lands this turn" (Turf Wound)


class Chars:
    """Characteristics of an object after continuous effects (2004 rule 201.2), plus what
    effects say about its abilities and restrictions."""

    __slots__ = ("abilities", "applied", "colors", "cost", "flags", "granted",
                 "granted_triggers", "keywords", "lost_abilities", "mana_value", "name",
                 "power", "sba_kinds", "speed", "statics", "subtypes", "supertypes",
                 "toughness", "triggers", "types")

    def __init__(self, name: str, cost: str | None, mana_value: int, colors: tuple[str, ...],
                 supertypes: frozenset[str], types: frozenset[str], subtypes: tuple[str, ...],
                 power: int | None, toughness: int | None, keywords: frozenset[str]) -> None:
        self.name = name
        self.cost = cost
        self.mana_value = mana_value
        self.colors = colors
        self.supertypes = supertypes
        self.types = types
        self.subtypes = subtypes
        self.power = power
        self.toughness = toughness
        self.keywords = keywords
        self.abilities: tuple[Any, ...] = ()
        self.granted: list[Any] = []
        #: triggered abilities an effect gives it (2004 Loxodon Warhammer's "Whenever this
        #: creature deals damage, ..."): StaticSpec.grants_triggers marks the effects that may
        self.granted_triggers: list[Any] = []
        self.triggers: tuple[Any, ...] = ()
        self.statics: tuple[Any, ...] = ()
        self.lost_abilities = False
        self.flags: frozenset[str] = frozenset()  # "cant_attack", "cant_block", ...
        #: when a card with these characteristics may be cast, once worked out
        #: (legality.cast_speed): characteristics are not changed once computed
        self.speed: str | None = None
        #: the continuous effects that applied, on the battlefield (Layers._compute_chars)
        self.applied: tuple[Any, ...] = ()
        #: which state-based actions may apply to a permanent with these characteristics,
        #: worked out once for them (Game._sba_kinds)
        self.sba_kinds: tuple[bool, bool, bool, bool] | None = None


class GameObject:
    """A card or token in a zone. A zone change makes a new object with a new id."""

    __slots__ = (
        "_chars", "_chars_one", "_chars_version", "_chars_zone", "_statics_made",
        "_table_entries", "attached_to", "attacking",
        "base_controller", "blocked", "blocking", "card", "cast_info", "chosen",
        "controlled_since", "controller", "counters", "damage", "exiled_with", "face_down", "id",
        "impl", "last_chars", "loyalty_used", "owner", "phased_out", "phased_with",
        "regen_shields", "successor", "tapped", "timestamp", "token", "zone",
    )

    def __init__(self, oid: int, card: CardData, impl: CardImpl, owner: str, zone: int,
                 timestamp: int) -> None:
        self.id = oid
        self.card = card
        self.impl = impl
        self.owner = owner
        self.controller = owner
        self.base_controller = owner
        self.zone = zone
        self.timestamp = timestamp
        self.tapped = False
        self.damage = 0
        self.counters: dict[str, int] = {}
        self.attached_to: int | str | None = None
        self.token = False
        self.face_down = False
        self.phased_out = False  # the modern phasing status (2004: the phased-out zone)
        #: phased out indirectly, with the permanent of this id it is attached to
        self.phased_with: int | None = None
        self.controlled_since = 0
        self.attacking = False
        self.blocking: int | None = None
        self.blocked = False
        self.regen_shields = 0
        self.loyalty_used = 0  # turn number of the last loyalty ability
        self.cast_info: dict[str, Any] | None = None
        self.chosen: dict[str, Any] = {}  # choices made as it entered (a creature type)
        self.exiled_with: int | None = None  # linked abilities: which object exiled it
        #: the new object this one became (a zone change, or a card hidden and revealed again):
        #: only the few abilities the rules let follow an object look here (modern 400.7f)
        self.successor: GameObject | None = None
        #: its characteristics as it last existed on the battlefield, taken as it left it (or,
        #: 2004, phased out): its last known information (Layers.known_chars)
        self.last_chars: Chars | None = None
        self._chars: Chars | None = None
        self._chars_version = -1
        #: the zone its characteristics were computed in if they depend on nothing else
        self._chars_zone = -1
        #: its characteristics were computed on the battlefield from the card and these
        #: continuous effects, each on it alone (Layers.chars: no counters, no
        #: characteristic-defining ability); None: from more than that
        self._chars_one: tuple[Any, ...] | None = None
        #: its static abilities' continuous effects, with the abilities, timestamp and
        #: attachment they were made for (layers._static_effects)
        self._statics_made: Any = None
        #: its entries in its controller's ability and mana tables (Legality._build_tables)
        self._table_entries: Any = None

    def __repr__(self) -> str:
        return f"<{self.card.name} #{self.id}>"


class StackItem:
    """A spell, an activated or triggered ability, or (2004) combat damage on the stack."""

    __slots__ = ("ability", "assignments", "controller", "data", "id", "kind", "obj",
                 "owner", "source", "source_card", "targets", "x")

    def __init__(self, sid: int, kind: str, controller: str, *, obj: GameObject | None = None,
                 source: GameObject | None = None, ability: Any = None,
                 targets: tuple[Any, ...] = (), x: int | None = None) -> None:
        self.id = sid
        self.kind = kind  # "spell", "ability", "trigger" or "combat_damage"
        self.controller = controller
        self.owner = controller if obj is None else obj.owner
        self.obj = obj
        self.source = source
        carrier = obj or source
        self.source_card = carrier.card.name if carrier is not None else None
        self.ability = ability
        self.targets = targets
        self.x = x
        self.assignments: list[tuple[GameObject, Any, int]] = []
        self.data: dict[str, Any] = {}  # what the trigger saw (the event), kicker, ...


class ContinuousEffect:
    """A continuous effect from a resolved spell or ability, with a duration.

    ``applies(obj)`` decides which objects it affects; ``modify(chars)`` changes their
    characteristics; ``layer`` orders it among other effects, then ``timestamp``.
    """

    __slots__ = ("_made", "applies", "duration", "layer", "modify", "source", "target",
                 "timestamp")

    def __init__(self, layer: float, timestamp: int, applies: Callable[[GameObject], bool] | None,
                 modify: Callable[[Chars], None], duration: str, source: int | None = None,
                 target: int | None = None) -> None:
        self.layer = layer
        self.timestamp = timestamp
        # An effect on one object names it by ``target``; a spell's target follows it onto
        # the battlefield (2004 213.5, modern 400.7a).
        self.applies = applies if applies is not None else self._on_target
        self.modify = modify
        self.duration = duration  # "turn", "combat", or "object" (while it stays that object)
        self.source = source
        self.target = target
        #: the effect as the layers apply it, with the target it was made for
        #: (layers._resolved_effect)
        self._made: Any = None

    def _on_target(self, obj: GameObject) -> bool:
        return obj.id == self.target


class PlayPermission:
    """A permission to play one card from outside its owner's hand, given by an effect (a
    flashback granted to a card in a graveyard, a card exiled that "may be played for as long
    as it remains exiled"), with the rest of that effect: a cost paid instead of the mana cost
    (``cost``), a generic increase of the spell's cost (``extra``), a land entering tapped
    (``enters_tapped``); ``until_end_of_turn`` ends it in the cleanup step. Kept by the card's
    object id, so it ends once the card changes zones; what it says of the spell or the land
    the card becomes is applied as the card is cast or played (modern 400.7g-i)."""

    __slots__ = ("cost", "enters_tapped", "extra", "player", "until_end_of_turn")

    def __init__(self, player: str, *, cost: Cost | None = None, extra: int = 0,
                 enters_tapped: bool = False, until_end_of_turn: bool = False) -> None:
        self.player = player
        self.cost = cost
        self.extra = extra
        self.enters_tapped = enters_tapped
        self.until_end_of_turn = until_end_of_turn


class PendingTrigger:
    """A triggered ability waiting to be put on the stack the next time a player would
    receive priority."""

    __slots__ = ("controller", "event", "key", "source", "spec")

    def __init__(self, key: int, spec: TriggerSpec, source: GameObject, controller: str,
                 event: Any) -> None:
        self.key = key
        self.spec = spec
        self.source = source
        self.controller = controller  # who controlled the source when it triggered
        self.event = event


class Decision:
    """What the game waits for: a player's priority, or a decision with listed options."""

    __slots__ = ("count", "data", "kind", "options", "player")

    def __init__(self, kind: str, player: str, options: list[Any] | None = None,
                 count: int | None = None, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.player = player
        self.options = options
        self.count = count
        self.data = data


# Layers of continuous effects (modern rule 613; the 2004 rules order them the same way).
CONTROL, TYPE, COLOR, ABILITY, PT_CDA, PT_SET, PT_MODIFY = 2, 4, 5, 6, 7.1, 7.2, 7.3


@dataclass(frozen=True, slots=True)
class TargetSpec:
    """One target. ``kind`` says where candidates come from: ``creature_or_player``
    (also planeswalkers in the modern edition), ``creature``, ``player``, ``permanent``,
    ``spell``, ``spell_or_permanent``, ``land``, ``card_in_graveyard``, ``card_in_exile``.
    ``allows(game, controller, candidate)`` restricts further."""

    kind: str
    allows: Callable[[CardAPI, str, Any], bool] | None = None
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
    effect: Resolution | None = None
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
    attached to is put into a graveyard from the battlefield), ``deals_damage`` (this deals
    damage: the event's ``amount`` is all it dealt at once, to every recipient),
    ``gains_life`` (a player gains life: the event's ``player`` and ``amount``).
    ``condition(game, source, event)`` filters; with ``intervening`` it is an intervening
    "if" clause ("..., if Howling Mine is untapped, ..."), checked again as the ability
    resolves, which then does nothing if it no longer holds (modern 603.4; 2004 410.10 says
    the same, outside the seed); ``optional`` is a "may"."""

    event: str
    effect: Resolution
    text: str
    targets: tuple[TargetSpec, ...] = ()
    condition: Callable[[CardAPI, GameObject, Any], bool] | None = None
    intervening: bool = False
    optional: bool = False
    step: int | None = None
    whose: str = "controller"
    #: a delayed triggered ability's objects it refers to ("the creature"), which a player may
    #: choose as a source of damage while it waits to trigger (modern 609.7a)
    refers_to: tuple[GameObject, ...] = ()


@dataclass(frozen=True, slots=True)
class StaticSpec:
    """A static ability generating a continuous effect in ``layer`` on each object for which
    ``applies(game, source, obj, chars)`` holds; ``modify(game, source, obj, chars)`` edits the
    characteristics being computed. Layer 2 effects return the new controller instead."""

    layer: float
    applies: Callable[[CardAPI, GameObject, GameObject, Chars], bool]
    modify: Callable[[CardAPI, GameObject, GameObject, Chars], Any]
    text: str = ""
    #: its ``modify`` gives triggered abilities (``chars.granted_triggers``): the triggers'
    #: index then looks at permanents whose own card has none
    grants_triggers: bool = False


def attached_to_source(game: CardAPI, source: GameObject, obj: GameObject,
                       chars: Chars | None) -> bool:
    """A static ability's ``applies`` for "enchanted ..." and "equipped ...": the object its
    source is attached to, and no other. The layers know this function by identity and ask
    it of no other object (Layers.continuous_effects indexes the effect by
    ``source.attached_to``, and keep what it makes while the attachment stays): it must
    stay exactly this test (tests/test_engine_version_caches.py holds it to that)."""
    return source.attached_to == obj.id


@dataclass(frozen=True, slots=True)
class PlayerRules:
    """A static ability that changes rules for a player: ``applies(game, source, player)``;
    the fields say how."""

    applies: Callable[[CardAPI, GameObject, str], bool]
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
    effect: Resolution | None = None
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
    cda: Callable[[CardAPI, GameObject], tuple[int, int]] | None = None
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


class CardAPI(Protocol):
    """The game as a card sees it: what a card's behaviour (its effects, conditions, target
    filters and static abilities) may read and do. The reference game implements it
    (reference_engine/board.py and the layers below); a card that needs more adds a member here
    first, so that this stays the whole of what cards depend on (docs/reference-engine.md)."""

    objects: dict[int, GameObject]
    players: dict[str, Player]
    stack: list[StackItem]
    exile: list[GameObject]
    permissions: dict[int, PlayPermission]
    active: str
    turn: int

    @property
    def edition(self) -> str: ...

    # -- reading the game
    def chars(self, obj: GameObject) -> Chars: ...
    def known_chars(self, obj: GameObject) -> Chars: ...
    def has(self, obj: GameObject, keyword: str) -> bool: ...
    def live(self) -> list[GameObject]: ...
    def legal_targets_of(self, item: StackItem) -> list[int | str]: ...
    def targeted_objects(self, item: StackItem) -> list[int]: ...
    def targeted_players(self, item: StackItem) -> list[str]: ...
    def find_moved(self, event: dict[str, Any]) -> GameObject | None: ...
    def choosable_sources(self, item: StackItem) -> list[GameObject]: ...
    def apnap_order(self) -> tuple[str, str]: ...
    def cards_outside_the_game(self, name: str) -> list[GameObject]: ...
    def next_timestamp(self) -> int: ...

    # -- changing it
    def changed(self) -> None: ...
    def emit(self, event: ev.Event) -> None: ...
    def move(self, obj: GameObject, to: int, *, controller: str | None = None,
             bottom: bool = False, cause: str | None = None, attach: int | str | None = None,
             exiled_with: int | None = None, face_down: bool = False,
             from_top: int | None = None, tapped: bool = False) -> GameObject | None: ...
    def together(self) -> AbstractContextManager[None]: ...
    def exile_object(self, obj: GameObject, *, cause: str, exiled_with: int | None = None,
                     face_down: bool = False) -> GameObject | None: ...
    def put_into_graveyards(self, objs: list[GameObject], cause: str,
                            causes: dict[int, str] | None = None, *, ordered: bool = True
                            ) -> Generator[Decision, Action, None]: ...
    def draw(self, name: str, count: int) -> None: ...
    def shuffle(self, name: str) -> None: ...
    def discard(self, name: str, count: int) -> Generator[Decision, Action, None]: ...
    def deal_damage(self, source: GameObject | None, target: int | str, amount: int,
                    *, combat: bool = False) -> None: ...
    def gain_life(self, name: str, amount: int) -> None: ...
    def lose_life(self, name: str, amount: int, cause: str) -> None: ...
    def destroy(self, target: int, *, regenerate: bool = True) -> None: ...
    def sacrifice(self, obj: GameObject, player: str) -> None: ...
    def return_to_hand(self, target: int) -> None: ...
    def counter(self, target: int) -> None: ...
    def tap(self, obj: GameObject) -> None: ...
    def attach(self, obj: GameObject, target: int | str) -> None: ...
    def phase_out(self, obj: GameObject) -> None: ...
    def ante_object(self, obj: GameObject) -> GameObject | None: ...
    def create_token(self, creator: str, receiver: str, card: CardData, impl: CardImpl
                     ) -> GameObject: ...
    def new_emblem(self, owner: str, card: CardData, impl: CardImpl) -> GameObject | None: ...
    def add_effect(self, effect: ContinuousEffect) -> None: ...
    def grant_until(self, target: int, duration: str, *, keywords: frozenset[str] = frozenset(),
                    power: int = 0, toughness: int = 0) -> None: ...
    def pump_until_end_of_turn(self, target: int, power: int, toughness: int) -> None: ...
    def add_counters(self, obj: GameObject, kind: str, amount: int) -> None: ...
    def add_delayed(self, event: str, spec: TriggerSpec, controller: str,
                    source: GameObject, step: int | None = None) -> None: ...
    def extra_turns_for(self, name: str, count: int) -> None: ...
    def shield_from(self, player: str, chosen: GameObject,
                    matches: Callable[[Chars], bool] | None = None) -> None: ...
    def choose(self, name: str, kind: str, values: list[Any], data: dict[str, Any] | None = None
               ) -> Generator[Decision, Action, Any]: ...
