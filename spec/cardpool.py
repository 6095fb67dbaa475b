"""The card pool: every card the project uses, as data, per edition.

``spec/cards.yaml`` holds each card once: its English Oracle name, mana cost, type line,
power/toughness and Oracle text, the editions it exists in, and per-edition overrides where
the 2004 Oracle wording or creature types differ from the modern ones. Everything else in the
project (the reference engine, the case linter, the card index) reads cards from here; which
rules each card serves is spec/card_rules.yaml (:mod:`spec.rule_servers`).

Type lines use an em dash between types and subtypes ("Creature — Elf Druid"). A 2004 type
line "Enchant Creature" is an enchantment whose subtype is the whole phrase (2004 rule 205.3c).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from spec.editions import EDITIONS, SPEC_DIR
from spec.errors import SpecError

CARDS_PATH = SPEC_DIR / "cards.yaml"

SUPERTYPES = ("Basic", "Legendary", "Snow", "World")
TYPES = ("Artifact", "Creature", "Enchantment", "Instant", "Land", "Sorcery", "Planeswalker")
_FIELDS = {"name", "cost", "type_line", "power", "toughness", "text", "editions", "notes"}
_EDITION_FIELDS = {"cost", "type_line", "power", "toughness", "text"}
_SYMBOL = re.compile(r"\{([^{}]+)\}")
_COST = re.compile(r"(\{[0-9WUBRGCXYZ/]+\})+")


class CardDataError(SpecError):
    """The card pool file is malformed; the message names the card and field."""


@dataclass(frozen=True, slots=True)
class CardData:
    """One card as it reads in one edition."""

    name: str
    edition: str
    cost: str | None  # None: no mana cost (lands); "" never occurs
    type_line: str
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: int | str | None  # "*" for characteristic-defining values
    toughness: int | str | None
    text: str
    colors: tuple[str, ...]  # from the mana cost, in WUBRG order (2004 rule 203.2)
    mana_value: int  # converted mana cost, X counting 0 (2004 rule 203.3)


def cost_colors(cost: str | None) -> tuple[str, ...]:
    """The colours of a mana cost's symbols, in WUBRG order."""
    found = {c for symbol in _SYMBOL.findall(cost or "") for c in symbol.split("/")
             if c in "WUBRG"}
    return tuple(c for c in "WUBRG" if c in found)


def cost_mana_value(cost: str | None) -> int:
    """The total amount of mana in a cost, an X counting 0."""
    total = 0
    for symbol in _SYMBOL.findall(cost or ""):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol not in ("X", "Y", "Z"):
            total += 1
    return total


def parse_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Split a type line into (supertypes, types, subtypes).

    >>> parse_type_line("Basic Snow Land — Forest")
    (('Basic', 'Snow'), ('Land',), ('Forest',))
    >>> parse_type_line("Enchant Creature")
    ((), ('Enchantment',), ('Enchant Creature',))
    """
    left, _, right = type_line.partition(" — ")
    words = left.split()
    if words[:1] == ["Enchant"] and len(words) > 1:
        return (), ("Enchantment",), (left,)
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w in TYPES)
    unknown = [w for w in words if w not in SUPERTYPES and w not in TYPES]
    if unknown or not types:
        raise ValueError(f"unknown type word(s) {unknown or words} in {type_line!r}")
    return supertypes, types, tuple(right.split())


_BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_ACTIVATED = re.compile(r'^(?P<cost>[^:"]+): (?P<effect>.*)$')
_MANA_SYMBOL = re.compile(r"\{(?![TQ]\})[^{}]+\}")


@dataclass(frozen=True, slots=True)
class Ability:
    """An activated ability as the card's text shows it: enough for a harness to tell a mana
    ability, and a cost that takes mana, without knowing the card's behaviour."""

    text: str
    mana: bool  # a mana ability: its effect adds mana
    mana_cost: bool  # paying it takes mana ({1}, {R}, Equip {1}, ...)


def activated_abilities(card: CardData) -> tuple[Ability, ...]:
    """A card's activated abilities in protocol order (docs/protocol.md: ``activate``'s
    ``ability`` index): one mana ability per basic land type, in the order of its type line
    (2004 rule 212.6d), then those printed in its text. Reminder text, abilities in quotes
    (granted to another object) and keywords other than Equip are not activated abilities of
    the card.

    >>> pool = default_pool().edition("modern")
    >>> [a.mana for a in activated_abilities(pool["Mind Stone"])]
    [True, False]
    >>> [a.text for a in activated_abilities(pool["Tropical Island"])]
    ['{T}: Add {G}.', '{T}: Add {U}.']
    """
    found = [Ability(f"{{T}}: Add {{{_BASIC_MANA[land_type]}}}.", True, False)
             for land_type in card.subtypes if land_type in _BASIC_MANA]
    for raw in card.text.split("\n"):
        line = raw.strip()
        if not line or line.startswith("("):
            continue
        if re.match(r"^Equip \{", line):
            found.append(Ability(line, False, bool(_MANA_SYMBOL.search(line))))
            continue
        match = _ACTIVATED.match(line)
        if match:
            cost = match.group("cost")
            found.append(Ability(line, match.group("effect").startswith("Add "),
                                 bool(_MANA_SYMBOL.search(cost))))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class CardPool:
    cards: dict[str, dict[str, CardData]]  # edition -> name -> card

    def edition(self, key: str) -> dict[str, CardData]:
        return self.cards[key]

    def names(self) -> list[str]:
        return sorted({name for per in self.cards.values() for name in per})


def load(path: Path = CARDS_PATH) -> CardPool:
    """Read and check the pool. Errors name the file, the card and the field."""
    display = f"spec/{path.name}" if path == CARDS_PATH else str(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CardDataError(f"{display}: unreadable: {exc}") from None
    if not isinstance(raw, list):
        raise CardDataError(f"{display}: must be a list of cards")
    cards: dict[str, dict[str, CardData]] = {key: {} for key in EDITIONS}
    seen: set[str] = set()
    for index, item in enumerate(raw, start=1):
        _check_card(display, index, item, seen)
        for key, override in _editions(display, item).items():
            fields = {**{k: item.get(k) for k in _EDITION_FIELDS}, **override}
            where = f"{display}: {item['name']} ({key})"
            try:
                supertypes, types, subtypes = parse_type_line(fields["type_line"])
            except ValueError as exc:
                raise CardDataError(f"{where}: type_line: {exc}") from None
            if "Creature" in types and (fields["power"] is None or fields["toughness"] is None):
                raise CardDataError(f"{where}: a creature needs power and toughness")
            cards[key][item["name"]] = CardData(
                name=item["name"], edition=key, cost=fields["cost"],
                type_line=fields["type_line"], supertypes=supertypes, types=types,
                subtypes=subtypes, power=fields["power"], toughness=fields["toughness"],
                text=fields["text"] or "", colors=cost_colors(fields["cost"]),
                mana_value=cost_mana_value(fields["cost"]),
            )
    return CardPool(cards)


def _check_card(display: str, index: int, item: object, seen: set[str]) -> None:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise CardDataError(f"{display}: card {index}: needs a name")
    name = item["name"]
    if name in seen:
        raise CardDataError(f"{display}: {name}: listed twice")
    seen.add(name)
    unknown = set(item) - _FIELDS
    if unknown:
        raise CardDataError(f"{display}: {name}: unknown field(s) {sorted(unknown)}")
    if not isinstance(item.get("type_line"), str):
        raise CardDataError(f"{display}: {name}: type_line is required")
    cost = item.get("cost")
    if cost is not None and (not isinstance(cost, str) or not _COST.fullmatch(cost)):
        raise CardDataError(f"{display}: {name}: cost must be like '{{1}}{{G}}'")


def _editions(display: str, item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    editions = item.get("editions")
    name = item["name"]
    if isinstance(editions, list):
        editions = dict.fromkeys(editions)
    if not isinstance(editions, dict) or not editions:
        raise CardDataError(f"{display}: {name}: editions must list cr2004 and/or modern")
    result = {}
    for key, value in editions.items():
        if key not in EDITIONS:
            raise CardDataError(f"{display}: {name}: unknown edition {key!r}")
        override = value or {}
        unknown = set(override) - _EDITION_FIELDS
        if unknown:
            raise CardDataError(f"{display}: {name}: {key}: unknown field(s) {sorted(unknown)}")
        result[key] = override
    return result


@cache
def default_pool() -> CardPool:
    return load()
