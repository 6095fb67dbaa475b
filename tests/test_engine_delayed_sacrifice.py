"""Sneak Attack's delayed "sacrifice the creature at the beginning of the next end step" where
other effects meet it (issue 26, defects 1, 2 and 4):

- the creature phased out when the ability resolves: treated as though it did not exist, it is
  not sacrificed (modern 702.26b; 2004: not in play, 217.8c), and it stays once it phases in
  (the delayed ability triggers only once, modern 603.7b);
- another player controls the creature: a player can't sacrifice a permanent they don't
  control, so nothing happens (modern 701.21a; 2004: the glossary's "Sacrifice", the
  Comprehensive Rules of 2003-07 to 2004);
- the delayed ability's source is Sneak Attack, the source of the ability that made it, not
  the creature (modern 603.7e; the 2004 rules say nothing of it, and the modern rule is
  followed).
"""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ["cr2004", "modern"]


def _sneak_in(t: Table, handle: str) -> None:
    """A activates Sneak Attack (paid with its Mountain) and puts ``handle`` onto the
    battlefield."""
    t.do("activate", "A", card="sneak", ability=0, pay_with=["mountain"])
    resolve(t)
    t.do("choose", "A", choice=t.id(handle))
    assert t.find(handle)["controller"] == "A"


def _efreet_sneaked_in(edition: str) -> Table:
    t = table(edition, a={"hand": [h("efreet", "Rainbow Efreet")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("island-1", "Island", controller="A"),
                           h("island-2", "Island", controller="A")])
    _sneak_in(t, "efreet")
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_creature_phased_out_by_its_own_ability_is_not_sacrificed(edition):
    t = _efreet_sneaked_in(edition)
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    t.advance("end")
    assert [s["kind"] for s in t.obs()["stack"]] == ["trigger"]  # it still triggers
    resolve(t)
    assert t.obs()["stack"] == []
    assert t.cards(t.player("A")["graveyard"]) == []
    # It phases in in A's next untap step and stays: the ability triggered once.
    t.advance("end", turn=5)
    assert t.obs()["stack"] == []
    efreet = t.find("efreet")
    assert efreet is not None and efreet in t.obs()["battlefield"]
    assert efreet.get("phased_out", False) is False


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_creature_phased_out_with_its_aura_is_not_sacrificed(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears"), h("vanishing", "Vanishing")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           *[h(f"island-{i}", "Island", controller="A") for i in (1, 2, 3)]])
    _sneak_in(t, "bears")
    t.do("cast", "A", card="vanishing", targets=["bears"], pay_with=["island-1"])
    resolve(t)
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-2", "island-3"])
    resolve(t)
    t.advance("end")
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == []
    t.advance("upkeep", turn=5)
    assert t.find("bears") in t.obs()["battlefield"]
    assert t.find("vanishing")["attached_to"] == t.id("bears")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_creature_another_player_controls_by_then_is_not_sacrificed(edition):
    # A plays Sneak Attack in B's upkeep; in B's main phase B takes the Giant with Control
    # Magic; at B's end step A's delayed ability resolves and A can't sacrifice B's creature.
    t = table(edition, "upkeep", active="B",
              a={"hand": [h("giant", "Hill Giant")]},
              b={"hand": [h("magic", "Control Magic")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           *[h(f"island-{i}", "Island", controller="B") for i in (1, 2, 3, 4)]])
    t.do("pass", "B")
    _sneak_in(t, "giant")
    t.advance("precombat_main")
    t.do("cast", "B", card="magic", targets=["giant"],
         pay_with=["island-1", "island-2", "island-3", "island-4"])
    resolve(t)
    assert t.find("giant")["controller"] == "B"
    t.advance("end")
    assert [(s["kind"], s["controller"]) for s in t.obs()["stack"]] == [("trigger", "A")]
    resolve(t)
    assert t.obs()["stack"] == []
    giant = t.find("giant")
    assert giant in t.obs()["battlefield"] and giant["controller"] == "B"
    assert t.cards(t.player("A")["graveyard"]) == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_delayed_ability_s_source_is_sneak_attack(edition):
    # modern 603.7e: a delayed triggered ability made by an activated ability has that
    # ability's source as its source (2004 is silent; the modern rule is followed).
    t = table(edition, a={"hand": [h("giant", "Hill Giant")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A")])
    _sneak_in(t, "giant")
    t.events.clear()
    t.advance("end")
    [item] = t.obs()["stack"]
    assert (item["kind"], item["card"], item["source"], item["controller"]) == (
        "trigger", "Sneak Attack", t.id("sneak"), "A")
    [event] = [e for e in t.events if e["type"] == "trigger"]
    assert (event["object"], event["player"]) == (t.id("sneak"), "A")
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Hill Giant"]  # it still does its work
