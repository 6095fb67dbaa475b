"""Lifelink (outside the seeds). Modern 702.15b: damage dealt by a source with lifelink makes its
controller gain that much life, as part of the damage event (no trigger, no stack); 702.15c:
the source as it last existed; 702.15e: one life gain for all a source deals at once. 2004 had
no lifelink: Loxodon Warhammer gave "Whenever this creature deals damage, you gain that much
life", a triggered ability that goes on the stack. Prevented damage is not dealt: no life.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, given, h, resolve

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any], *, step: str = "beginning_of_combat",
          hand_b=()) -> Table:
    players = {"A": {"library": ["Island"] * 5},
               "B": {"hand": list(hand_b), "library": ["Island"] * 5}}
    return Table(edition, given(step, players=players, battlefield=battlefield))


def gains(t: Table, player: str = "A") -> list[int]:
    return [e["amount"] for e in t.events
            if e["type"] == "life" and e["player"] == player and e["cause"] == "gain"]


def warhammer_on(handle: str) -> list[dict[str, Any]]:
    return [h("hammer", "Loxodon Warhammer", controller="A", attached_to=handle)]


def test_modern_lifelink_gains_life_as_the_damage_is_dealt():
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A")])
    t.attack("hawk")
    t.advance("combat_damage")
    # Dealt and gained at once, as the step begins: nothing went on the stack.
    assert t.player("B")["life"] == 18 and t.player("A")["life"] == 22
    assert t.obs()["stack"] == [] and gains(t) == [2]
    assert not any(e["type"] == "trigger" for e in t.events)


def test_modern_warhammer_gives_lifelink():
    t = table("modern", [h("bears", "Grizzly Bears", controller="A"), *warhammer_on("bears")])
    t.attack("bears")
    t.advance("combat_damage")
    assert t.player("B")["life"] == 15 and t.player("A")["life"] == 25
    assert t.obs()["stack"] == []


def test_2004_warhammer_gives_a_triggered_ability_that_uses_the_stack():
    t = table("cr2004", [h("bears", "Grizzly Bears", controller="A"), *warhammer_on("bears")])
    t.attack("bears")
    t.advance("combat_damage")
    resolve(t)  # the combat damage
    assert t.player("B")["life"] == 15 and t.player("A")["life"] == 20
    assert [s["kind"] for s in t.obs()["stack"]] == ["trigger"]
    assert t.obs()["stack"][0]["source"] == t.id("bears")  # the creature's own ability
    resolve(t)
    assert t.player("A")["life"] == 25 and gains(t) == [5]


@pytest.mark.parametrize("edition", EDITIONS)
def test_one_life_gain_for_all_the_damage_a_source_deals_at_once(edition):
    # 5/2 trample, lifelink: 1 to the Lions, 4 to B, dealt at once: one gain of 5 (modern
    # 702.15e); 2004: the ability triggers once, the creature dealt damage once.
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"), *warhammer_on("bears"),
                        h("lions", "Savannah Lions", controller="B")])
    t.attack("bears")
    t.block({"lions": "bears"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=[[t.id("lions"), 1], ["B", 4]])
    t.advance("end_of_combat")
    assert gains(t) == [5] and t.player("A")["life"] == 25


@pytest.mark.parametrize("edition", EDITIONS)
def test_all_the_damage_dealt_counts_however_much_toughness_the_creature_had(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"), *warhammer_on("bears"),
                        h("lions", "Savannah Lions", controller="B")])
    t.attack("bears")
    t.block({"lions": "bears"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=[[t.id("lions"), 5], ["B", 0]])
    t.advance("end_of_combat")
    assert t.player("A")["life"] == 25  # 5 damage to a 2/1


@pytest.mark.parametrize("edition", EDITIONS)
def test_lifelink_with_double_strike_gains_life_twice(edition):
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A"),
                        *warhammer_on("raptor")])
    t.attack("raptor")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 10 and gains(t) == [5, 5]


@pytest.mark.parametrize("edition", EDITIONS)
def test_lifelink_damage_outside_combat(edition):
    # Prodigal Sorcerer with the Warhammer pings B: 1 life (modern at once; 2004 by trigger).
    t = table(edition, [h("sorcerer", "Prodigal Sorcerer", controller="A"),
                        *warhammer_on("sorcerer")], step="precombat_main")
    t.do("activate", "A", card="sorcerer", ability=0, targets=["B"])
    resolve(t)
    if edition == "cr2004":
        assert [s["kind"] for s in t.obs()["stack"]] == ["trigger"]
        resolve(t)
    assert t.player("B")["life"] == 19 and t.player("A")["life"] == 21


def test_modern_lifelink_of_a_source_that_left_uses_its_last_known_information():
    # Mogg Fanatic with the Warhammer is sacrificed for its ability: it had lifelink as it last
    # existed, so its damage gains its controller life (702.15c).
    t = table("modern", [h("fanatic", "Mogg Fanatic", controller="A"),
                         *warhammer_on("fanatic")], step="precombat_main")
    t.do("activate", "A", card="fanatic", ability=0, targets=["B"])
    resolve(t)
    assert t.player("B")["life"] == 19 and t.player("A")["life"] == 21


@pytest.mark.parametrize("edition", EDITIONS)
def test_prevented_damage_gains_no_life(edition):
    # Hill Giant (red) with the Warhammer attacks; B's Circle of Protection: Red prevents its
    # damage: none is dealt, no life is gained.
    t = table(edition, [h("giant", "Hill Giant", controller="A"), *warhammer_on("giant"),
                        h("circle", "Circle of Protection: Red", controller="B"),
                        h("plains", "Plains", controller="B")])
    t.attack("giant")
    t.advance("declare_blockers")
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["plains"])
    resolve(t)  # the Giant is the only red source: chosen without asking
    assert any(e["type"] == "shield" for e in t.events)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20 and t.player("A")["life"] == 20
    assert gains(t) == [] and any(e["type"] == "prevent" for e in t.events)
