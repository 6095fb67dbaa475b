"""The reference engine with every card under another name: an engine whose pool shares no
card name with the suite's, and that declares its cards' characteristics instead (protocol 1.2,
``card_data``). Its Forest is "Ersatz Forest", its Grizzly Bears "Ersatz Grizzly Bears".

* ``RenamedPool`` declares each card whole (types, colours, mana cost, power, toughness and
  Oracle text): the harness meets every card a case names with its renamed twin.
* ``RenamedPoolTextless`` says of its cards only whether they have rules text: only the
  vanilla cards and basic lands are known for what they are, and a stand-in class that leaves
  the text open takes any of them.
* ``MisdeclaredBears`` has no Bears but declares its Hill Giant a vanilla 2/2 Bear: the
  harness takes it for one, holds it to its declaration once it shows a 3/3, and fails the
  cases that play it (the engine's fault, said as such).

Use as ``--engine py:tests.fakes.renamed:RenamedPool`` from the repository root.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from spec.cardpool import default_pool
from tests.fakes.dialects import Shim

PREFIX = "Ersatz "


def rename(name: str) -> str:
    return PREFIX + name


def _real(value: Any) -> Any:
    """A setup or action with the engine's names turned back into the suite's."""
    if isinstance(value, str):
        return value[len(PREFIX):] if value.startswith(PREFIX) else value
    if isinstance(value, list):
        return [_real(v) for v in value]
    if isinstance(value, dict):
        return {k: _real(v) for k, v in value.items()}
    return value


def _renamed(value: Any) -> Any:
    """An observation or event with every card's name (a ``card`` naming a card of the pool;
    a token's name is its own) renamed."""
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    if isinstance(value, dict):
        return {k: rename(v) if k == "card" and v in _names() else _renamed(v)
                for k, v in value.items()}
    return value


@cache
def _names() -> frozenset[str]:
    return frozenset(default_pool().names())


class RenamedPool(Shim):
    """Every card renamed; each declared with all its characteristics."""

    #: what of each card is declared (``text`` or only ``has_text``)
    WHOLE: ClassVar[bool] = True

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        pool = default_pool()
        cards = info["cards"]
        info["protocol"] = 1.2
        info["cards"] = {e: sorted(rename(c) for c in names) for e, names in cards.items()}
        info["card_data"] = {e: {rename(c): self.characteristics(pool.edition(e)[c])
                                 for c in names} for e, names in cards.items()}
        return info

    def characteristics(self, card: Any) -> dict[str, Any]:
        found: dict[str, Any] = {
            "types": list(card.types), "subtypes": list(card.subtypes),
            "supertypes": list(card.supertypes), "colors": list(card.colors),
            "mana_cost": card.cost, "power": card.power, "toughness": card.toughness}
        if self.WHOLE:
            found["text"] = card.text.replace(card.name, rename(card.name))
        else:
            found["has_text"] = bool(card.text)
        return found

    def setup_in(self, setup: dict[str, Any]) -> dict[str, Any]:
        return _real(setup)

    def action_in(self, action: dict[str, Any]) -> dict[str, Any]:
        return _real(action)

    def actions_out(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return actions  # objects are ids here, never names

    def observation_out(self, observation: dict[str, Any], player: str | None
                        ) -> dict[str, Any]:
        return _renamed(observation)

    def events_out(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return _renamed(events)


class RenamedPoolTextless(RenamedPool):
    """Every card renamed; each declared without its text, saying only whether it has one."""

    WHOLE = False


class MisdeclaredBears(RenamedPool):
    """Every card renamed; no Bears in its pool, and its Hill Giant (a red 3/3) declared a
    vanilla green 2/2 Bear for {1}{G}: the cases that take it for a Bear must fail."""

    BEARS = frozenset({"Grizzly Bears", "Balduvian Bears", "Bear Cub", "Forest Bear",
                       "Runeclaw Bear"})

    def declare(self, info: dict[str, Any]) -> dict[str, Any]:
        info["cards"] = {e: [c for c in names if c not in self.BEARS]
                         for e, names in info["cards"].items()}
        return super().declare(info)

    def characteristics(self, card: Any) -> dict[str, Any]:
        found = super().characteristics(card)
        if card.name == "Hill Giant":
            found.update(subtypes=["Bear"], colors=["G"], mana_cost="{1}{G}", power=2,
                         toughness=2)
        return found
