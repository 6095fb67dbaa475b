"""A prevention shield for a source of a player's choice with a property (Circle of Protection:
Red's "the next time a red source of your choice would deal damage to you this turn") checks
the property again when the damage would be dealt: if the source is no longer red, the damage
is not prevented and the shield is not used up (modern 609.7b, 615.9; issue 26, defect 5).
The 2004 rules (419.7c: the source is chosen as the ability resolves) do not say whether the
colour is checked again; the modern rule is followed."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ["cr2004", "modern"]


def _circle_on_a_goblin(edition: str, *, purelace: bool) -> Table:
    """B's Circle chooses A's Raging Goblin (red) before combat; then, maybe, A's Purelace makes
    the Goblin white; the Goblin attacks unblocked."""
    t = table(edition, "beginning_of_combat",
              a={"hand": [h("purelace", "Purelace")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("plains", "Plains", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("island", "Island", controller="B")])
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["island"])
    t.do("pass", "B")
    t.do("pass", "A")
    if t.obs()["pending"] is not None:  # the Goblin is the only red source: not asked
        t.do("choose", "B", choice=t.id("goblin"))
    assert [e for e in t.events if e["type"] == "shield"] == [
        {"type": "shield", "player": "B", "source": t.id("goblin")}]
    if purelace:
        t.do("cast", "A", card="purelace", targets=["goblin"], pay_with=["plains"])
        resolve(t)
        assert t.find("goblin")["colors"] == ["W"]
    t.attack("goblin")
    t.advance("end_of_combat")
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_chosen_source_made_white_is_not_prevented(edition):
    t = _circle_on_a_goblin(edition, purelace=True)
    assert t.player("B")["life"] == 19
    assert not [e for e in t.events if e["type"] == "prevent"]
    # The shield was not used up: it still waits for the Goblin this turn.
    assert len(t.engine.game.shields) == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_chosen_source_still_red_is_prevented(edition):
    t = _circle_on_a_goblin(edition, purelace=False)
    assert t.player("B")["life"] == 20
    assert [e["source"] for e in t.events if e["type"] == "prevent"] == [t.id("goblin")]
    assert t.engine.game.shields == []
