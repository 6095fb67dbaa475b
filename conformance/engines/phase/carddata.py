"""phase-python's card database, generated offline from our own card pool.

phase-python ships no card database: its ``phase-gen`` reads MTGJSON's AtomicCards file and
runs the engine's own Oracle-text parser on every card (``phase.build_oracle_face``), writing a
``card-data.json`` that ``phase.Engine.from_path`` loads. We never download anything: the
AtomicCards document is written from ``spec/cards.yaml`` (the modern Oracle text of our pool),
then each card goes through the generator's own per-card step (``phase.gen.process_group``), so
that a card the generator rejects costs that card only. The result is cached outside the
repository (``$MTGCONF_CACHE_DIR``, else ``$XDG_CACHE_HOME/mtg-conformance``, else
``~/.cache/mtg-conformance``), keyed by a hash of the pool, phase's version and this
generator's version, and written atomically (several workers may race to write it).

A card is left out of the engine's declared cards when the generator rejects it, or when the
parser could not read part of its text (an ``Unimplemented`` effect, trigger, static or cost
anywhere in the face: the engine would silently do nothing for that text).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from conformance import atomic
from spec.cardpool import CardData, default_pool

#: Bump when the AtomicCards translation below changes.
GENERATOR_VERSION = 1
EDITION = "modern"

_COLOR = {"W": "W", "U": "U", "B": "B", "R": "R", "G": "G"}
#: Keyword abilities MTGJSON lists in ``keywords`` when a line of the text is made of them.
_LIST_KEYWORDS = {"flying", "haste", "trample", "flash", "infect", "vigilance", "reach",
                  "defender", "first strike", "double strike", "deathtouch", "lifelink",
                  "menace", "hexproof", "indestructible", "shroud", "fear", "intimidate"}
#: Keywords MTGJSON lists when a line starts with them (they take a cost or an object).
_LEADING_KEYWORDS = ("Enchant", "Equip", "Kicker", "Flashback")


@dataclass(frozen=True, slots=True)
class CardDatabase:
    """The generated ``card-data.json`` and what it leaves out, and why."""

    path: Path
    cards: tuple[str, ...]  # the pool's cards the engine got, by English name
    excluded: dict[str, str]  # card name -> why it was left out


def phase_version() -> str:
    try:
        return metadata.version("phase-python")
    except metadata.PackageNotFoundError:  # pragma: no cover - an unusual install
        return "unknown"


def cache_dir() -> Path:
    explicit = os.environ.get("MTGCONF_CACHE_DIR")
    if explicit:
        return Path(explicit) / "phase"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mtg-conformance" / "phase"


def keywords(card: CardData) -> list[str]:
    """The card's keywords as MTGJSON lists them: keyword lines, and keywords that open a line
    (Enchant, Equip, Kicker, Flashback). Keywords an effect grants to another object
    (Rancor's trample, Goblin Scouts' tokens' mountainwalk) are not the card's own."""
    found: list[str] = []
    for raw in card.text.split("\n"):
        line = raw.strip()
        parts = [p.strip() for p in line.split(",")]
        if parts and all(p.lower() in _LIST_KEYWORDS for p in parts):
            found += [p[0].upper() + p[1:].lower() for p in parts]
            continue
        for word in _LEADING_KEYWORDS:
            if line.startswith(word + " ") and word not in found:
                found.append(word)
    return found


def atomic_card(card: CardData) -> dict[str, Any]:
    """One card in MTGJSON's AtomicCards shape (the fields phase's generator reads)."""
    entry: dict[str, Any] = {
        "name": card.name,
        "manaValue": card.mana_value,
        "type": card.type_line,
        "types": list(card.types),
        "subtypes": list(card.subtypes),
        "supertypes": list(card.supertypes),
        "text": card.text,
        "layout": "normal",
        "colors": [_COLOR[c] for c in card.colors],
        "colorIdentity": [_COLOR[c] for c in card.colors],
        "keywords": keywords(card),
        "legalities": {},
        "identifiers": {},
    }
    if card.cost is not None:
        entry["manaCost"] = card.cost
    if card.power is not None:
        entry["power"] = str(card.power)
        entry["toughness"] = str(card.toughness)
    return entry


def atomic_cards(cards: dict[str, CardData]) -> dict[str, Any]:
    """The AtomicCards document for a pool (an edition's cards)."""
    return {"meta": {"version": f"mtg-conformance/{GENERATOR_VERSION}"},
            "data": {name: [atomic_card(card)] for name, card in sorted(cards.items())}}


def _unparsed(value: Any, path: str = "") -> str | None:
    """Where the parser gave up on part of a card's text (an ``Unimplemented`` node)."""
    if isinstance(value, dict):
        if value.get("type") == "Unimplemented":
            what = value.get("description") or value.get("name") or "?"
            return f"{path or 'face'}: {what}"
        for key, item in value.items():
            found = _unparsed(item, f"{path}.{key}" if path else str(key))
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _unparsed(item, f"{path}[{index}]")
            if found:
                return found
    return None


def generate(cards: dict[str, CardData]) -> tuple[dict[str, Any], dict[str, str]]:
    """Run phase's generator on the pool: (card-data.json document, excluded cards)."""
    from phase import gen

    document = atomic_cards(cards)
    faces: dict[str, Any] = {}
    excluded: dict[str, str] = {}
    for name, group in document["data"].items():
        found: dict[str, Any] = {}
        try:
            with contextlib.redirect_stdout(sys.stderr):
                gen.process_group(group, found)
        except Exception as exc:  # the generator's own per-card failure
            excluded[name] = f"the generator rejected it: {exc}"
            continue
        face = found.get(name.lower())
        if face is None:
            excluded[name] = "the generator produced no face"
            continue
        where = _unparsed(face)
        if where is not None:
            excluded[name] = f"the Oracle-text parser left text unimplemented ({where})"
            continue
        faces.update(found)
    return faces, excluded


def _pool_hash(cards: dict[str, CardData]) -> str:
    digest = hashlib.sha256()
    digest.update(f"{GENERATOR_VERSION}|{phase_version()}|".encode())
    digest.update(json.dumps(atomic_cards(cards), sort_keys=True).encode())
    return digest.hexdigest()[:16]


@cache
def card_database() -> CardDatabase:
    """The engine's card database for the modern pool, generated at first use and cached."""
    cards = default_pool().edition(EDITION)
    key = _pool_hash(cards)
    folder = cache_dir()
    data_path = folder / f"card-data-{key}.json"
    meta_path = folder / f"card-data-{key}.meta.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if not data_path.exists():
            raise FileNotFoundError(data_path)
    except (OSError, ValueError):
        faces, excluded = generate(cards)
        meta = {"phase": phase_version(), "generator": GENERATOR_VERSION,
                "cards": sorted(n for n in cards if n not in excluded), "excluded": excluded}
        atomic.write_text(data_path, json.dumps(faces, ensure_ascii=False, sort_keys=True))
        atomic.write_text(meta_path, json.dumps(meta, ensure_ascii=False, indent=1,
                                                sort_keys=True))
    return CardDatabase(data_path, tuple(meta["cards"]), dict(meta["excluded"]))


def main() -> None:
    """``python -m conformance.engines.phase.carddata``: generate, and say what was left out."""
    database = card_database()
    print(f"{database.path}: {len(database.cards)} cards")
    for name, reason in sorted(database.excluded.items()):
        print(f"left out: {name}: {reason}")


if __name__ == "__main__":
    main()
