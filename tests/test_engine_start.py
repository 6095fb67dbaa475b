"""Game start: seeded shuffle, first player, life, opening hands, mulligans, the first draw."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.protocol import CAPABILITIES
from reference_engine.engine import ReferenceEngine
from tests.enginekit import Table

EDITIONS = ["cr2004", "modern"]
DECK_A = ["Forest"] * 20 + ["Grizzly Bears"] * 10 + ["Giant Growth"] * 10
DECK_B = ["Mountain"] * 20 + ["Lightning Bolt"] * 10 + ["Hill Giant"] * 10


def start(edition: str, seed: int = 5, first: str | None = "A") -> Table:
    setup = {"start": "game", "seed": seed, "decks": {"A": DECK_A, "B": DECK_B}}
    if first:
        setup["first_player"] = first
    return Table(edition, setup)


@pytest.mark.parametrize("edition", EDITIONS)
def test_twenty_life_and_seven_cards(edition):
    table = start(edition)
    o = table.obs()
    for name, deck in (("A", DECK_A), ("B", DECK_B)):
        player = o["players"][name]
        assert player["life"] == 20
        assert len(player["hand"]) == 7
        assert len(player["library"]) == 33
        everything = table.cards(player["hand"]) + table.cards(player["library"])
        assert Counter(everything) == Counter(deck)  # the deck became the library (101.1)
    assert o["battlefield"] == [] and o["stack"] == []
    assert o["pending"] == {"player": "A", "decision": "mulligan"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_same_seed_same_shuffle_other_seed_differs(edition):
    first = start(edition, seed=11).obs()["players"]["A"]["library"]
    again = start(edition, seed=11).obs()["players"]["A"]["library"]
    other = start(edition, seed=12).obs()["players"]["A"]["library"]
    assert [c["card"] for c in first] == [c["card"] for c in again]
    assert [c["card"] for c in first] != [c["card"] for c in other]


def test_first_player_drawn_from_the_seed_when_not_given():
    chosen = {start("cr2004", seed=s, first=None).obs()["turn"]["active"] for s in range(12)}
    assert chosen == {"A", "B"}


def test_2004_mulligan_draws_one_fewer_and_first_player_decides_fully_first():
    table = start("cr2004", first="B")
    assert table.obs()["pending"]["player"] == "B"
    table.do("mulligan", "B")
    assert len(table.player("B")["hand"]) == 6
    assert len(table.player("B")["library"]) == 34
    assert table.obs()["pending"] == {"player": "B", "decision": "mulligan"}  # B again
    table.do("mulligan", "B")
    assert len(table.player("B")["hand"]) == 5
    assert table.illegal("keep", "A") == "not_your_decision"
    table.do("keep", "B")
    assert table.obs()["pending"] == {"player": "A", "decision": "mulligan"}
    table.do("keep", "A")
    assert table.illegal("mulligan", "B") != ""  # a kept hand is final
    assert len(table.player("B")["hand"]) == 5
    assert len(table.player("A")["hand"]) == 7


def test_2004_mulligan_down_to_zero_then_the_hand_is_kept():
    table = start("cr2004")
    for size in range(6, -1, -1):
        table.do("mulligan", "A")
        assert len(table.player("A")["hand"]) == size
    assert table.obs()["pending"] == {"player": "B", "decision": "mulligan"}
    assert len(table.player("A")["library"]) == 40


def test_modern_mulligan_draws_seven_then_bottoms_one_per_mulligan():
    table = start("modern")
    table.do("mulligan", "A")
    # Decisions go round in turn order before anyone draws again.
    assert table.obs()["pending"] == {"player": "B", "decision": "mulligan"}
    table.do("keep", "B")
    assert len(table.player("A")["hand"]) == 7
    table.do("mulligan", "A")
    assert len(table.player("A")["hand"]) == 7
    table.do("keep", "A")
    pending = table.obs()["pending"]
    assert pending == {"player": "A", "decision": "bottom", "count": 2}
    hand = table.player("A")["hand"]
    table.do("choose", "A", choice=hand[0]["id"])
    table.do("choose", "A", choice=hand[1]["id"])
    library = table.player("A")["library"]
    assert [c["card"] for c in library[-2:]] == [hand[0]["card"], hand[1]["card"]]
    assert len(table.player("A")["hand"]) == 5
    assert table.obs()["turn"]["priority"] == "A"


@pytest.mark.parametrize("edition", EDITIONS)
def test_first_player_skips_the_first_draw(edition):
    table = start(edition)
    table.do("keep", "A")
    table.do("keep", "B")
    table.events.clear()  # the opening hands' draws
    o = table.obs()
    assert (o["turn"]["number"], o["turn"]["step"]) == (1, "upkeep")
    table.pass_priority()
    table.pass_priority()
    assert table.obs()["turn"]["step"] == "precombat_main"
    assert len(table.player("A")["hand"]) == 7
    assert not any(e["type"] == "draw" for e in table.events)
    table.advance("draw", turn=2)
    assert len(table.player("B")["hand"]) == 8  # the second player draws on their first turn


def test_engine_hello_declares_editions_capabilities_and_cards():
    info = ReferenceEngine().hello(1.2)
    assert info["protocol"] == 1.2
    assert set(info["editions"]) == {"cr2004", "modern"}
    assert set(info["capabilities"]) == set(CAPABILITIES) - {"observe.incarnation"}
    assert {"Forest", "Lightning Bolt", "Fireball"} <= set(info["cards"]["cr2004"])
    assert "Murder" in info["cards"]["modern"] and "Murder" not in info["cards"]["cr2004"]
