"""The things a game is made of: players, objects (cards and tokens in zones), stack items,
continuous effects, pending triggers, decisions, and computed characteristics.

Plain slotted classes: they are created and read on every step of the hot loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reference_engine.cardimpl import CardImpl, TriggerSpec
    from spec.cardpool import CardData


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

    __slots__ = ("abilities", "colors", "cost", "flags", "granted", "keywords",
                 "lost_abilities", "mana_value", "name", "power", "statics", "subtypes",
                 "supertypes", "toughness", "triggers", "types")

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
        self.triggers: tuple[Any, ...] = ()
        self.statics: tuple[Any, ...] = ()
        self.lost_abilities = False
        self.flags: frozenset[str] = frozenset()  # "cant_attack", "cant_block", ...


class GameObject:
    """A card or token in a zone. A zone change makes a new object with a new id."""

    __slots__ = (
        "_chars", "_chars_plain", "_chars_version", "_chars_zone", "attached_to", "attacking",
        "base_controller", "blocked", "blocking", "card", "cast_info", "chosen",
        "controlled_since", "controller", "counters", "damage", "exiled_with", "face_down", "id",
        "impl", "loyalty_used", "owner", "phased_out", "phased_with", "regen_shields",
        "successor", "tapped", "timestamp", "token", "zone",
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
        self._chars: Chars | None = None
        self._chars_version = -1
        #: the zone its characteristics were computed in if they depend on nothing else
        self._chars_zone = -1
        #: its characteristics were computed on the battlefield from the card alone: no
        #: continuous effect applied, no counters, no characteristic-defining ability
        self._chars_plain = False

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


class Effect:
    """A continuous effect from a resolved spell or ability, with a duration.

    ``applies(obj)`` decides which objects it affects; ``modify(chars)`` changes their
    characteristics; ``layer`` orders it among other effects, then ``timestamp``.
    """

    __slots__ = ("applies", "duration", "layer", "modify", "source", "target", "timestamp")

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

    def __init__(self, player: str, *, cost: Any = None, extra: int = 0,
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
