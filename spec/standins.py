"""Stand-in classes (``spec/standins.yaml``): cards that a case uses only for their shape.

A case names a class as ``<vanilla-creature>`` wherever it would name a card (``<name:tag>``
for a second, different member of the same class); the harness replaces it with a member the
engine has in the edition. A class states the characteristics its members share (``fixes``,
named as in the observation), and nothing more: a member is any card with those
characteristics, preferably one of the class's ``cards`` (in order), then any other card of
the pool (``spec/cards.yaml``) or of the engine's declaration (protocol 1.2 ``card_data``). A
case may read only what the class fixes (``mtgconf cases lint`` checks it); what follows from
the choice (power, toughness, mana value) it reads through a ``$(...)`` reference
(``conformance.templating``).

>>> standins()["bear"].fixes["power"]
2
>>> parse_token("<bear>"), parse_token("<vanilla-creature:b>"), parse_token("Grizzly Bears")
('bear', 'vanilla-creature', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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
#: The properties whose value is a set of words (compared without order or letter case, as
#: the protocol compares type words: docs/protocol.md, Dialects).
WORD_SETS = ("types", "supertypes", "subtypes", "colors")
_TOKEN = re.compile(r"^<([a-z][a-z0-9-]*)(?::[a-z0-9-]+)?>$")
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class StandinError(SpecError):
    """The stand-in file is malformed, or a member does not share what its class fixes."""


def same_text(have: str, want: str, name: str = "") -> bool:
    """Whether two rules texts say the same, folding spacing and a card's own name (``name``,
    written ``CARDNAME`` in ``want`` or as itself): a renamed card has the same text."""
    def fold(text: str) -> str:
        if name:
            text = text.replace(name, "CARDNAME")
        return " ".join(text.split())
    return fold(have) == fold(want)


def fits(facts: Mapping[str, Any], fixes: Mapping[str, Any], name: str = "") -> bool:
    """Whether a card whose properties are ``facts`` (``card_property`` names; ``text`` may be
    missing when only ``has_text`` is known) has every property a class fixes."""
    for prop, want in fixes.items():
        if prop == "text":
            if "text" in facts:
                if not same_text(str(facts["text"]), str(want), name):
                    return False
            elif want != "" or facts.get("has_text", True):
                return False  # an unknown text matches no stated text
            continue
        if prop not in facts:
            return False
        have = facts[prop]
        if isinstance(want, dict):  # a bound: {at_least: 2}, {at_most: 3}
            if not isinstance(have, int) or isinstance(have, bool) or \
                    have < want.get("at_least", have) or have > want.get("at_most", have):
                return False
        elif prop in WORD_SETS:
            if {str(w).casefold() for w in have or ()} != {str(w).casefold() for w in want}:
                return False
        elif have != want:
            return False
    return True


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: members are cached
class StandinClass:
    name: str
    summary: str
    fixes: dict[str, Any]
    cards: tuple[str, ...]  # preferred members, in order; any other fitting card also serves

    @property
    def token(self) -> str:
        return f"<{self.name}>"

    def members(self, edition: str, pool: CardPool | None = None) -> tuple[str, ...]:
        """The pool's members in ``edition``: the preferred ones first, in order, then every
        other card of the pool that has what the class fixes."""
        if pool is None:
            return _members(self, edition)
        cards = pool.edition(edition)
        preferred = [name for name in self.cards if name in cards]
        others = [name for name, card in cards.items()
                  if name not in self.cards and fits(card_facts(card), self.fixes, name)]
        return (*preferred, *others)


def parse_token(value: object) -> str | None:
    """The class named by ``<name>`` or ``<name:tag>``, or None if ``value`` is no token."""
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


def card_facts(card: CardData) -> dict[str, Any]:
    """Every property a class may fix, of a card of the pool."""
    return {prop: card_property(card, prop) for prop in PROPERTIES}


def load(path: Path = STANDINS_PATH, pool: CardPool | None = None) -> dict[str, StandinClass]:
    """Read and check the classes: every listed member is a pool card sharing every fixed
    property, and every class has a member in the pool."""
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
        if not isinstance(name, str) or not _NAME.match(name):
            raise StandinError(f"{where}: a class name is lowercase words joined by '-'")
        if not isinstance(item, dict) or not {"summary", "fixes"} <= set(item) or \
                set(item) - {"summary", "fixes", "cards"}:
            raise StandinError(f"{where}: needs summary and fixes, and may list cards")
        fixes, cards = item["fixes"], item.get("cards", [])
        if not isinstance(fixes, dict) or not fixes or set(fixes) - set(PROPERTIES):
            raise StandinError(f"{where}: fixes must map some of {', '.join(PROPERTIES)}")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise StandinError(f"{where}: cards must list card names")
        for card_name in cards:
            found = [per[card_name] for per in pool.cards.values() if card_name in per]
            if not found:
                raise StandinError(f"{where}: {card_name} is not in the card pool")
            for card in found:
                for prop, want in fixes.items():
                    if not fits(card_facts(card), {prop: want}, card_name):
                        raise StandinError(f"{where}: {card_name} ({card.edition}) has {prop} "
                                           f"{card_property(card, prop)!r}, the class fixes "
                                           f"{want!r}")
        cls = StandinClass(name, " ".join(str(item["summary"]).split()), dict(fixes),
                           tuple(cards))
        if not any(cls.members(edition, pool) for edition in pool.cards):
            raise StandinError(f"{where}: no card of the pool has what the class fixes")
        classes[name] = cls
    return classes


@cache
def _members(cls: StandinClass, edition: str) -> tuple[str, ...]:
    return cls.members(edition, default_pool())


@cache
def standins() -> dict[str, StandinClass]:
    return load()
