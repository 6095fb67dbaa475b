"""Deathtouch, a modern keyword (2004 had none): any damage from its source is lethal (702.2b, a
state-based action, 704.5h, that regeneration can replace and indestructible ignores), and for
a trampler's assignment 1 damage counts as lethal (702.2c, 702.19b). Vampire Nighthawk has
flying, deathtouch and lifelink.
"""

from __future__ import annotations

from typing import Any

from tests.enginekit import Table, given, h, resolve


def table(battlefield: list[Any], *, active: str = "A") -> Table:
    players = {"A": {"library": ["Island"] * 5}, "B": {"library": ["Island"] * 5}}
    return Table("modern", given("beginning_of_combat", active=active, players=players,
                                 battlefield=battlefield))


def test_any_damage_from_a_deathtouch_source_destroys_the_creature():
    # Nighthawk (2/3) blocked by Giant Spider (2/4, reach): 2 damage is enough.
    t = table([h("hawk", "Vampire Nighthawk", controller="A"),
               h("spider", "Giant Spider", controller="B")])
    t.attack("hawk")
    t.block({"spider": "hawk"})
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Giant Spider"]
    assert t.find("hawk")["damage"] == 2 and t.player("A")["life"] == 22


def test_deathtouch_with_trample_needs_only_1_damage_on_each_blocker():
    t = table([h("hawk", "Vampire Nighthawk", controller="A"),
               h("rancor", "Rancor", controller="A", attached_to="hawk"),
               h("spider", "Giant Spider", controller="B")])
    t.attack("hawk")
    t.block({"spider": "hawk"})
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    assert pending["blockers"] == [{"id": t.id("spider"), "lethal": 1}]
    options = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    assert [[t.id("spider"), 1], ["B", 3]] in options
    assert [[t.id("spider"), 0], ["B", 4]] not in options
    t.do("choose", "A", choice=[[t.id("spider"), 1], ["B", 3]])
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 17
    assert t.cards(t.player("B")["graveyard"]) == ["Giant Spider"]  # 1 damage, destroyed
    assert t.player("A")["life"] == 24  # lifelink: all 4 dealt


def test_indestructible_ignores_deathtouch():
    # Darksteel Myr attacks into the Nighthawk: 2 deathtouch damage, not destroyed (702.12b).
    t = table([h("myr", "Darksteel Myr", controller="A"),
               h("hawk", "Vampire Nighthawk", controller="B")])
    t.attack("myr")
    t.block({"hawk": "myr"})
    t.advance("end_of_combat")
    assert t.find("myr") in t.obs()["battlefield"] and t.find("myr")["damage"] == 2


def test_regeneration_replaces_destruction_by_deathtouch():
    t = table([h("skel", "Drudge Skeletons", controller="A"),
               h("swamp", "Swamp", controller="A"),
               h("hawk", "Vampire Nighthawk", controller="B")])
    t.attack("skel")
    t.block({"hawk": "skel"})
    t.do("activate", "A", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.find("skel") in t.obs()["battlefield"]
    assert sum(e["type"] == "regenerate" for e in t.events) == 1


def test_prevented_deathtouch_damage_destroys_nothing():
    # Mother of Runes gives the blocking Giant Spider protection from black after blocks: the
    # Nighthawk's damage is prevented, so it neither destroys the Spider nor gains life.
    t = table([h("hawk", "Vampire Nighthawk", controller="A"),
               h("spider", "Giant Spider", controller="B"),
               h("mother", "Mother of Runes", controller="B")])
    t.attack("hawk")
    t.block({"spider": "hawk"})
    t.do("pass", "A")
    t.do("activate", "B", card="mother", ability=0, targets=["spider"])
    resolve(t)
    t.do("choose", "B", choice="B")
    t.advance("end_of_combat")
    assert t.find("spider") in t.obs()["battlefield"]
    assert t.player("A")["life"] == 20
