"""Actions: what a player does. Immutable, hashable, with an exact JSON form.

Inside the engine an object id is an ``int`` and a player is ``"A"`` or ``"B"``; a target is
either. On the wire a target is ``{"object": id}`` or ``{"player": "A"}`` (docs/protocol.md).

>>> Action("cast", "A", card=12, targets=("B",)).to_json()
{'action': 'cast', 'player': 'A', 'card': 12, 'targets': [{'player': 'B'}]}
"""

from __future__ import annotations

from typing import Any, NamedTuple

from reference_engine.constants import PLAYERS
from reference_engine.errors import BadRequestError

Target = int | str

#: the protocol's action kinds (``order_blockers`` too, though no game of the engine asks it: it
#: is refused as an illegal action, not as a malformed request)
KINDS = frozenset((
    "pass", "concede", "keep", "mulligan", "play_land", "cast", "activate", "attack", "block",
    "done", "order_blockers", "discard", "choose",
))
_FIELDS = {
    "pass": (), "concede": (), "keep": (), "mulligan": (), "done": (),
    "play_land": ("card",),
    "cast": ("card", "targets", "x", "kicked", "payment", "pay_with"),
    "activate": ("card", "ability", "targets", "x", "payment", "pay_with"),
    "attack": ("card",),
    "block": ("card", "attacker"),
    "order_blockers": ("attacker", "order"),
    "discard": ("card",),
    "choose": ("choice", "targets"),
}
_REQUIRED = {"play_land": ("card",), "cast": ("card",), "activate": ("card", "ability"),
             "attack": ("card",), "block": ("card", "attacker"),
             "order_blockers": ("attacker", "order"), "discard": ("card",)}


class Action(NamedTuple):
    kind: str
    player: str
    card: int | None = None
    ability: int | None = None
    targets: tuple[Target, ...] = ()
    x: int | None = None
    attacker: int | None = None
    order: tuple[int, ...] = ()
    choice: Any = None
    kicked: bool = False
    payment: tuple[tuple[str, int], ...] | None = None
    #: the mana sources activated while paying: their ids, or "auto" (the engine chooses)
    pay_with: tuple[int, ...] | str | None = None

    def core(self) -> Action:
        """The action without its payment instructions (legality does not depend on them)."""
        return self if self.payment is None else self._replace(payment=None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind, "player": self.player}
        if self.card is not None:
            out["card"] = self.card
        if self.ability is not None:
            out["ability"] = self.ability
        if self.targets:
            out["targets"] = [
                {"player": t} if isinstance(t, str) else {"object": t} for t in self.targets
            ]
        if self.x is not None:
            out["x"] = self.x
        if self.attacker is not None:
            out["attacker"] = self.attacker
        if self.order:
            out["order"] = list(self.order)
        if self.kind == "choose" and not self.targets:
            out["choice"] = _thaw(self.choice)  # null is a choice too: "none"
        if self.kicked:
            out["kicked"] = True
        if self.payment is not None:
            out["payment"] = dict(self.payment)
        if self.pay_with is not None:
            out["pay_with"] = self.pay_with if isinstance(self.pay_with, str) else list(
                self.pay_with)
        return out

    @classmethod
    def from_json(cls, value: object) -> Action:
        """Parse a wire action; :raises BadRequestError: naming the bad field."""
        if not isinstance(value, dict):
            raise BadRequestError("an action must be a JSON object")
        kind = value.get("action")
        if not isinstance(kind, str) or kind not in KINDS:
            raise BadRequestError(f"action: unknown kind {kind!r}")
        player = value.get("player")
        if player not in PLAYERS:
            raise BadRequestError(f"player: {player!r} is not A or B")
        allowed = set(_FIELDS[kind]) | {"action", "player"}
        extra = set(value) - allowed
        if extra:
            raise BadRequestError(f"{kind}: unexpected field(s) {', '.join(sorted(extra))}")
        for name in _REQUIRED.get(kind, ()):
            if value.get(name) is None:
                raise BadRequestError(f"{kind}: missing field {name!r}")
        fields: dict[str, Any] = {}
        for name in ("card", "attacker"):
            if name in value:
                fields[name] = _object_id(value[name], name)
        if "ability" in value:
            fields["ability"] = _whole(value["ability"], "ability")
        if "x" in value and value["x"] is not None:
            fields["x"] = _whole(value["x"], "x")
        if "targets" in value:
            fields["targets"] = _targets(value["targets"])
        if "order" in value:
            order = value["order"]
            if not isinstance(order, list):
                raise BadRequestError("order: must be a list of object ids")
            fields["order"] = tuple(_object_id(o, "order") for o in order)
        if "choice" in value:
            fields["choice"] = _freeze(value["choice"])
        if kind == "choose" and ("choice" in value) == ("targets" in value):
            raise BadRequestError("choose: give exactly one of 'choice' and 'targets'")
        if "kicked" in value:
            if not isinstance(value["kicked"], bool):
                raise BadRequestError("kicked: must be true or false")
            fields["kicked"] = value["kicked"]
        if value.get("payment") is not None:
            payment = value["payment"]
            if not isinstance(payment, dict):
                raise BadRequestError("payment: must be an object such as {\"R\": 1}")
            fields["payment"] = tuple(sorted(payment.items()))
        if value.get("pay_with") is not None:
            fields["pay_with"] = _pay_with(value["pay_with"])
        return cls(kind, player, **fields)


def _object_id(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequestError(f"{field}: {value!r} is not an object id of this engine")
    return value


def _pay_with(value: object) -> tuple[int, ...] | str:
    if value == "auto":
        return "auto"
    if not isinstance(value, list):
        raise BadRequestError('pay_with: must be "auto" or a list of object ids')
    ids = tuple(_object_id(v, "pay_with") for v in value)
    if len(set(ids)) != len(ids):
        raise BadRequestError("pay_with: names a source twice")
    return ids


def _whole(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadRequestError(f"{field}: {value!r} is not a whole number")
    return value


def _targets(value: object) -> tuple[Target, ...]:
    if not isinstance(value, list):
        raise BadRequestError("targets: must be a list")
    out: list[Target] = []
    for item in value:
        if isinstance(item, dict) and set(item) == {"player"} and item["player"] in PLAYERS:
            out.append(item["player"])
        elif isinstance(item, dict) and set(item) == {"object"}:
            out.append(_object_id(item["object"], "targets"))
        else:
            raise BadRequestError(
                f"targets: {item!r} must be {{\"object\": id}} or {{\"player\": \"A\"}}"
            )
    return tuple(out)


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        raise BadRequestError("choice: must be a value or a list of values, not an object")
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value
