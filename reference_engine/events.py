"""The events the engine records: one small frozen record per kind, with one JSON form.

The game appends records to ``Game._events``; the protocol's ``events`` call sends their JSON
(``Event.to_json``), which ``spec/schemas/protocol/event.json`` documents kind by kind
(docs/protocol.md, Events). Inside the engine an object id is an ``int`` and a player is
``"A"`` or ``"B"``; a damage target is either (``{"object": id}`` or ``{"player": "A"}`` on the
wire, as in actions).

The JSON of a record is driven by its fields: each field is a JSON field of the same name, a
tuple becomes a list, and a field's metadata may rename it (``json``), leave it out when it is
None (``optional``, written last) or convert its value (``convert``). Only ``Step`` writes its
own JSON (its step number becomes the names of the step and its phase).

>>> ZoneChange(17, 31, "Island", "hand", "battlefield", "A", None).to_json()["from"]
'hand'
>>> Damage(12, "B", 3, False).to_json()
{'type': 'damage', 'target': {'player': 'B'}, 'amount': 3, 'combat': False, 'source': 12}
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from reference_engine.constants import PHASE_NAMES, PHASE_OF_STEP, STEP_NAMES


def _target(value: int | str) -> dict[str, int | str]:
    """A damage target on the wire: a player or an object."""
    return {"player": value} if isinstance(value, str) else {"object": value}


def _blocks(value: tuple[tuple[int, int], ...]) -> list[dict[str, int]]:
    return [{"blocker": blocker, "attacker": attacker} for blocker, attacker in value]


#: field metadata: a field left out of the JSON when it is None
OPTIONAL = {"optional": True}


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the game. ``type`` names the kind (the JSON ``type``)."""

    type: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        later: dict[str, Any] = {}  # optional fields go last (as the JSON always had them)
        for name, key, optional, convert in _plan(type(self)):
            value = getattr(self, name)
            if optional:
                if value is not None:
                    later[key] = value
                continue
            if convert is not None:
                value = convert(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[key] = value
        out.update(later)
        return out


#: per kind of event, how each field goes into the JSON: (attribute, JSON key, left out when
#: None, conversion); worked out once per kind, not on every event
_PLANS: dict[type[Event], tuple[tuple[str, str, bool, Any], ...]] = {}


def _plan(kind: type[Event]) -> tuple[tuple[str, str, bool, Any], ...]:
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _PLANS[kind] = tuple(
            (f.name, f.metadata.get("json", f.name), bool(f.metadata.get("optional")),
             f.metadata.get("convert")) for f in fields(kind))
    return plan


# -- objects and zones ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZoneChange(Event):
    """``object`` moved from one zone to another and is now ``new_object`` (400.7)."""

    type: ClassVar[str] = "zone_change"
    object: int
    new_object: int
    card: str
    from_zone: str = field(metadata={"json": "from"})
    to: str
    owner: str
    cause: str | None = field(metadata=OPTIONAL)  # draw, cast, destroy, sacrifice, ...


@dataclass(frozen=True, slots=True)
class NewObject(Event):
    """The same card became a new object where it is, without a zone change (modern 401.6: a
    revealed top card of a library was hidden)."""

    type: ClassVar[str] = "new_object"
    object: int
    new_object: int
    card: str
    zone: str
    cause: str


@dataclass(frozen=True, slots=True)
class CeaseToExist(Event):
    """A token outside the battlefield (or phased out in 2004) ceased to exist."""

    type: ClassVar[str] = "cease_to_exist"
    object: int
    card: str


@dataclass(frozen=True, slots=True)
class Token(Event):
    """A token was created on the battlefield under ``controller``'s control."""

    type: ClassVar[str] = "token"
    object: int
    card: str
    controller: str


@dataclass(frozen=True, slots=True)
class Emblem(Event):
    """An emblem was created in ``owner``'s command zone."""

    type: ClassVar[str] = "emblem"
    object: int
    card: str
    owner: str


@dataclass(frozen=True, slots=True)
class Shuffle(Event):
    type: ClassVar[str] = "shuffle"
    player: str


@dataclass(frozen=True, slots=True)
class Draw(Event):
    """``player`` drew a card, now ``object`` in their hand."""

    type: ClassVar[str] = "draw"
    player: str
    object: int | None


@dataclass(frozen=True, slots=True)
class DrawEmpty(Event):
    """``player`` had to draw from an empty library."""

    type: ClassVar[str] = "draw_empty"
    player: str


# -- permanents --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counters(Event):
    """``amount`` counters of kind ``counter`` were put on ``object`` (negative: removed)."""

    type: ClassVar[str] = "counters"
    object: int
    counter: str
    amount: int


@dataclass(frozen=True, slots=True)
class Attach(Event):
    """``object`` (an Aura, Equipment, ...) became attached to an object or a player."""

    type: ClassVar[str] = "attach"
    object: int
    attached_to: int | str


@dataclass(frozen=True, slots=True)
class Unattach(Event):
    """``object`` became unattached (a state-based action)."""

    type: ClassVar[str] = "unattach"
    object: int


@dataclass(frozen=True, slots=True)
class Control(Event):
    """``object`` came under ``controller``'s control."""

    type: ClassVar[str] = "control"
    object: int
    controller: str


@dataclass(frozen=True, slots=True)
class PhaseOut(Event):
    type: ClassVar[str] = "phase_out"
    object: int


@dataclass(frozen=True, slots=True)
class PhaseIn(Event):
    type: ClassVar[str] = "phase_in"
    object: int


@dataclass(frozen=True, slots=True)
class RegenerationShield(Event):
    """``object`` got a regeneration shield."""

    type: ClassVar[str] = "regeneration_shield"
    object: int


@dataclass(frozen=True, slots=True)
class Regenerate(Event):
    """A regeneration shield replaced ``object``'s destruction."""

    type: ClassVar[str] = "regenerate"
    object: int


# -- damage and life ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Damage(Event):
    type: ClassVar[str] = "damage"
    source: int | None = field(metadata=OPTIONAL)
    target: int | str = field(metadata={"convert": _target})
    amount: int
    combat: bool


@dataclass(frozen=True, slots=True)
class Shield(Event):
    """The next damage ``source`` would deal to ``player`` will be prevented."""

    type: ClassVar[str] = "shield"
    player: str
    source: int


@dataclass(frozen=True, slots=True)
class Prevent(Event):
    """A shield prevented the ``amount`` of damage ``source`` would have dealt to ``target``."""

    type: ClassVar[str] = "prevent"
    source: int | None = field(metadata=OPTIONAL)
    target: int | str = field(metadata={"convert": _target})
    amount: int


@dataclass(frozen=True, slots=True)
class Life(Event):
    """``player``'s life total changed by ``amount``; ``cause``: damage, loss, gain, mana_burn."""

    type: ClassVar[str] = "life"
    player: str
    amount: int
    cause: str


@dataclass(frozen=True, slots=True)
class Poison(Event):
    """``player`` got ``amount`` poison counters."""

    type: ClassVar[str] = "poison"
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Mana(Event):
    """Mana was added to ``player``'s pool: one symbol (W, U, B, R, G, C) per mana."""

    type: ClassVar[str] = "mana"
    player: str
    mana: tuple[str, ...]


# -- turns -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn(Event):
    type: ClassVar[str] = "turn"
    turn: int
    active: str


@dataclass(frozen=True, slots=True)
class Step(Event):
    """A step began (``step`` is the engine's step number; the JSON names it and its phase)."""

    type: ClassVar[str] = "step"
    turn: int
    step: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "turn": self.turn,
                "phase": PHASE_NAMES[PHASE_OF_STEP[self.step]], "step": STEP_NAMES[self.step]}


@dataclass(frozen=True, slots=True)
class ExtraTurns(Event):
    """``player`` will take ``amount`` extra turns."""

    type: ClassVar[str] = "extra_turns"
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class LossReplaced(Event):
    """``player`` would have lost the game; ``source``'s replacement effect applied instead."""

    type: ClassVar[str] = "loss_replaced"
    player: str
    source: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    type: ClassVar[str] = "game_over"
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    draw: bool
    reason: str


# -- the stack ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cast(Event):
    """``player`` cast the spell ``object`` (``what``: its card's name)."""

    type: ClassVar[str] = "cast"
    player: str
    object: int
    what: str


@dataclass(frozen=True, slots=True)
class Activate(Event):
    """``player`` activated an ability of ``object`` (``what``: the ability's text)."""

    type: ClassVar[str] = "activate"
    player: str
    object: int
    what: str


@dataclass(frozen=True, slots=True)
class Trigger(Event):
    """A triggered ability of ``object`` (``what``: its text) was put on the stack."""

    type: ClassVar[str] = "trigger"
    player: str
    object: int
    what: str


@dataclass(frozen=True, slots=True)
class TriggerRemoved(Event):
    """A triggered ability of ``object`` had no legal target: it was removed."""

    type: ClassVar[str] = "trigger_removed"
    player: str
    object: int
    what: str


@dataclass(frozen=True, slots=True)
class Resolve(Event):
    """The stack object ``object`` resolved."""

    type: ClassVar[str] = "resolve"
    object: int


@dataclass(frozen=True, slots=True)
class Fizzle(Event):
    """The stack object ``object`` was countered on resolution: its targets were illegal."""

    type: ClassVar[str] = "fizzle"
    object: int


@dataclass(frozen=True, slots=True)
class Countered(Event):
    """The stack object ``object`` was countered."""

    type: ClassVar[str] = "countered"
    object: int


# -- combat ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attackers(Event):
    type: ClassVar[str] = "attackers"
    attackers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Blockers(Event):
    """The blocks declared: (blocker, attacker) pairs."""

    type: ClassVar[str] = "blockers"
    blocks: tuple[tuple[int, int], ...] = field(metadata={"convert": _blocks})


@dataclass(frozen=True, slots=True)
class CombatDamageOnStack(Event):
    """2004: combat damage went on the stack as the stack object ``object``."""

    type: ClassVar[str] = "combat_damage_on_stack"
    object: int


#: every kind of event, by its type
EVENT_TYPES: dict[str, type[Event]] = {cls.type: cls for cls in (
    ZoneChange, NewObject, CeaseToExist, Token, Emblem, Shuffle, Draw, DrawEmpty,
    Counters, Attach, Unattach, Control, PhaseOut, PhaseIn, RegenerationShield, Regenerate,
    Damage, Shield, Prevent, Life, Poison, Mana,
    Turn, Step, ExtraTurns, LossReplaced, GameOver,
    Cast, Activate, Trigger, TriggerRemoved, Resolve, Fizzle, Countered,
    Attackers, Blockers, CombatDamageOnStack,
)}
