"""Indestructible (outside the seeds): nothing destroys it, neither lethal damage nor an effect
that says "destroy"; it can still be sacrificed, and it dies with toughness 0 (modern 702.12b,
704.5g; 2004: no keyword, Darksteel Myr "is indestructible", a term of the glossary since
Darksteel with the same meaning, 420.5c passing it over, 420.5b not).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, given, h, resolve

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any], hand_a=()) -> Table:
    players = {"A": {"hand": list(hand_a), "library": ["Island"] * 5},
               "B": {"library": ["Island"] * 5}}
    return Table(edition, given("precombat_main", players=players, battlefield=battlefield))


def lands(kind: str, count: int) -> list[dict[str, Any]]:
    return [h(f"{kind.lower()}-{i}", kind, controller="A") for i in range(count)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_lethal_damage_does_not_destroy_it_and_stays_marked(edition):
    t = table(edition, [h("myr", "Darksteel Myr", controller="B"), *lands("Mountain", 1)],
              hand_a=[h("bolt", "Lightning Bolt")])
    t.do("cast", "A", card="bolt", targets=["myr"], pay_with=["mountain-0"])
    resolve(t)
    assert t.find("myr") in t.obs()["battlefield"] and t.find("myr")["damage"] == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_destroy_effects_do_nothing_to_it(edition):
    t = table(edition, [h("myr", "Darksteel Myr", controller="B"), *lands("Plains", 5),
                        *lands("Swamp", 2)],
              hand_a=[h("wrath", "Wrath of God"), h("vindicate", "Vindicate")])
    t.do("cast", "A", card="vindicate", targets=["myr"],
         pay_with=["plains-0", "swamp-0", "swamp-1"])
    resolve(t)
    assert t.find("myr") in t.obs()["battlefield"]
    t.do("cast", "A", card="wrath", pay_with=[f"plains-{i}" for i in range(1, 5)])
    resolve(t)
    assert t.find("myr") in t.obs()["battlefield"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_dies_with_toughness_0(edition):
    t = table(edition, [h("myr", "Darksteel Myr", controller="B"), *lands("Swamp", 1)],
              hand_a=[h("weakness", "Weakness")])
    t.do("cast", "A", card="weakness", targets=["myr"], pay_with=["swamp-0"])
    resolve(t)  # -2/-1: toughness 0, put into the graveyard (not destroyed)
    assert t.cards(t.player("B")["graveyard"]) == ["Darksteel Myr"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_it_is_sacrificed_like_any_other(edition):
    t = table(edition, [h("myr", "Darksteel Myr", controller="B"), *lands("Swamp", 1)],
              hand_a=[h("blood", "Innocent Blood")])
    t.do("cast", "A", card="blood", pay_with=["swamp-0"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Darksteel Myr"]
