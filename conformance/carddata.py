"""Protocol 1.2: the characteristics an engine declares for its cards in ``hello``, and what
the harness does with them.

``card_data`` maps each edition to its cards, each card to some of ``types``, ``subtypes``,
``supertypes``, ``colors``, ``mana_cost``, ``power``, ``toughness``, ``has_text`` (whether it
has rules text) and ``text`` (its Oracle rules text); ``standins`` maps a stand-in class of
``spec/standins.yaml`` to the engine's own members of it. With them an engine whose cards bear
other names than the suite's still runs its cases: a stand-in class takes any card with what
the class fixes, and a card a case names is met by an engine card with every characteristic
the same (its name aside: the same card under another name).

The harness holds an engine to what it declared: a card declared a vanilla 2/2 that the
engine shows as a 3/3 fails the case (``mismatches``), as the engine's own fault.

>>> facts({"types": ["Creature"], "mana_cost": "{1}{G}", "power": 2, "toughness": 2,
...        "has_text": False})["mana_value"]
2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spec.cardpool import CardData, cost_colors, cost_mana_value
from spec.standins import WORD_SETS, card_facts, fits

#: What a declaration may say of a card (docs/protocol.md, Card characteristics).
FIELDS = ("types", "subtypes", "supertypes", "colors", "mana_cost", "power", "toughness",
          "has_text", "text")


def facts(declared: Mapping[str, Any]) -> dict[str, Any]:
    """A declared card's characteristics as a class compares them: with its mana value (and
    colours, when only the mana cost is given) worked out, and ``has_text`` from its text."""
    found = dict(declared)
    # What a declaration leaves out, the card lacks (no mana cost, no power): a card is
    # declared whole or not at all. Rules text unknown is rules text present.
    for prop in ("mana_cost", "power", "toughness"):
        found.setdefault(prop, None)
    found.setdefault("mana_value", cost_mana_value(found["mana_cost"]))
    found.setdefault("colors", list(cost_colors(found["mana_cost"])))
    for prop in WORD_SETS:
        found.setdefault(prop, [])
    if "text" in found:
        found["has_text"] = bool(str(found["text"]).strip())
    found.setdefault("has_text", True)
    return found


def read_card_data(raw: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """``hello``'s ``card_data``; raises TypeError when it is malformed."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise TypeError("card_data must map editions to cards")
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for edition, cards in raw.items():
        if not isinstance(cards, dict):
            raise TypeError(f"card_data.{edition} must map card names to characteristics")
        found[edition] = {}
        for name, item in cards.items():
            # mana_value: worked out from mana_cost, as a worker process receives it back
            if not isinstance(item, dict) or set(item) - {*FIELDS, "mana_value"}:
                raise TypeError(f"card_data.{edition}.{name} must map some of "
                                f"{', '.join(FIELDS)}")
            for prop in WORD_SETS:
                if prop in item and not (isinstance(item[prop], list) and
                                         all(isinstance(w, str) for w in item[prop])):
                    raise TypeError(f"card_data.{edition}.{name}.{prop} must list words")
            found[edition][name] = facts(item)
    return found


def read_standins(raw: Any) -> dict[str, tuple[str, ...]]:
    """``hello``'s ``standins``; raises TypeError when it is malformed."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
            isinstance(v, list) and all(isinstance(c, str) for c in v) for v in raw.values()):
        raise TypeError("standins must map stand-in classes to lists of card names")
    return {str(k): tuple(v) for k, v in raw.items()}


def same_card(card: CardData, declared: Mapping[str, Any], name: str) -> bool:
    """Whether the engine's card ``name``, as declared, is ``card`` under another name: every
    characteristic the same, its rules text too (read with each card's own name folded), or
    neither with any rules text when the engine says only that its card has none."""
    want = card_facts(card)
    want["text"] = want["text"].replace(card.name, "CARDNAME")
    return fits(declared, want, name)


def mismatches(declared: Mapping[str, Any], shown: Mapping[str, Any]) -> list[str]:
    """What an object on the battlefield shows other than its card's declaration (types,
    colours, power and toughness), as ``key declared X, shown Y``."""
    found = []
    for prop in ("types", "subtypes", "supertypes", "colors", "power", "toughness"):
        if prop not in declared or prop not in shown:
            continue
        want, have = declared[prop], shown[prop]
        if prop in WORD_SETS:
            same = {str(w).casefold() for w in want or ()} == \
                {str(w).casefold() for w in have or ()}
        else:
            same = want == have
        if not same:
            found.append(f"{prop} declared {want!r}, shown {have!r}")
    return found
