"""Stand-in classes (``spec/standins.yaml``): cards that a case uses only for their shape.

A case names a class as ``<bear>`` wherever it would name a card; the harness replaces it with
the first member the engine supports in the edition. A class fixes the properties all its
members share, and a case may rely on those alone (``mtgconf cases lint`` checks it).

>>> standins()["bear"].fixes["power"]
2
>>> parse_token("<bear>"), parse_token("Grizzly Bears")
('bear', None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from spec.cardpool import CardData, CardPool, default_pool
from spec.editions import SPEC_DIR
from spec.errors import SpecError

STANDINS_PATH = SPEC_DIR / "standins.yaml"
#: The card properties a class may fix, as the observation names them.
PROPERTIES = ("types", "supertypes", "subtypes", "colors", "mana_cost", "mana_value", "power",
              "toughness", "text")
_TOKEN = re.compile(r"^<([a-z][a-z0-9-]*)>$")


class StandinError(SpecError):
    """The stand-in file is malformed, or a member does not share what its class fixes."""


@dataclass(frozen=True, slots=True)
class StandinClass:
    name: str
    summary: str
    fixes: dict[str, Any]
    cards: tuple[str, ...]

    @property
    def token(self) -> str:
        return f"<{self.name}>"

    def members(self, edition: str, pool: CardPool | None = None) -> tuple[str, ...]:
        """The members that exist in ``edition``, in order of preference."""
        cards = (pool or default_pool()).edition(edition)
        return tuple(name for name in self.cards if name in cards)


def parse_token(value: object) -> str | None:
    """The class named by ``<name>``, or None if ``value`` is not a stand-in token."""
    if not isinstance(value, str):
        return None
    match = _TOKEN.match(value)
    return match.group(1) if match else None


def card_property(card: CardData, name: str) -> Any:
    """A card's property as the observation shows it (what a class may fix)."""
    if name == "mana_cost":
        return card.cost
    if name == "text":
        return card.text
    value = getattr(card, name)
    return list(value) if isinstance(value, tuple) else value


def load(path: Path = STANDINS_PATH, pool: CardPool | None = None) -> dict[str, StandinClass]:
    """Read and check the classes: every member is a pool card sharing every fixed property."""
    display = f"spec/{path.name}" if path == STANDINS_PATH else str(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise StandinError(f"{display}: unreadable: {exc}") from None
    if not isinstance(raw, dict):
        raise StandinError(f"{display}: must map class names to classes")
    pool = pool or default_pool()
    classes: dict[str, StandinClass] = {}
    for name, item in raw.items():
        where = f"{display}: {name}"
        if not isinstance(name, str) or not _TOKEN.match(f"<{name}>"):
            raise StandinError(f"{where}: a class name is lowercase words joined by '-'")
        if not isinstance(item, dict) or set(item) != {"summary", "fixes", "cards"}:
            raise StandinError(f"{where}: needs exactly summary, fixes and cards")
        fixes, cards = item["fixes"], item["cards"]
        if not isinstance(fixes, dict) or not fixes or set(fixes) - set(PROPERTIES):
            raise StandinError(f"{where}: fixes must map some of {', '.join(PROPERTIES)}")
        if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
            raise StandinError(f"{where}: cards must list card names")
        for card_name in cards:
            found = [per[card_name] for per in pool.cards.values() if card_name in per]
            if not found:
                raise StandinError(f"{where}: {card_name} is not in the card pool")
            for card in found:
                for prop, want in fixes.items():
                    have = card_property(card, prop)
                    if have != want:
                        raise StandinError(f"{where}: {card_name} ({card.edition}) has {prop} "
                                           f"{have!r}, the class fixes {want!r}")
        classes[name] = StandinClass(name, str(item["summary"]), dict(fixes), tuple(cards))
    return classes


@cache
def standins() -> dict[str, StandinClass]:
    return load()
