"""Deck validation (2004 rules 100.2-100.4 and 202.3; modern 407.3 for ante cards).

Constructed: at least 60 cards and at most four cards of any one English name, basic lands
excepted. Limited: at least 40 cards, no limit on copies. No format has a maximum size. Cards
are the same card when their English names match, whatever else is printed on them (202.3).
Ante cards are only allowed when playing for ante (217.9c, 407.3).
"""

from __future__ import annotations

from collections import Counter

from reference_engine.registry import implementation
from spec.cardpool import default_pool

FORMATS = {"constructed": 60, "limited": 40}
MAX_COPIES = 4


def deck_problems(cards: list[str], fmt: str, edition: str, *, ante: bool = False
                  ) -> list[str]:
    """Everything wrong with a deck, in words; an empty list means it is legal."""
    if fmt not in FORMATS:
        return [f"unknown format {fmt!r} (constructed or limited)"]
    pool = default_pool().edition(edition)
    problems = []
    minimum = FORMATS[fmt]
    if len(cards) < minimum:
        problems.append(f"{len(cards)} cards: a {fmt} deck needs at least {minimum}")
    counts = Counter(cards)
    for name, count in sorted(counts.items()):
        card = pool.get(name)
        if card is None:
            problems.append(f"{name!r} is not a card of the {edition} pool")
            continue
        basic = "Basic" in card.supertypes and "Land" in card.types
        if fmt == "constructed" and count > MAX_COPIES and not basic:
            problems.append(f"{count} copies of {name}: at most {MAX_COPIES} (basic lands "
                            "excepted)")
        impl = implementation(name, edition)
        if impl is not None and impl.ante_card and not ante:
            problems.append(f"{name} is an ante card: only in games played for ante")
    return problems
