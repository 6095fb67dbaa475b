"""A rejection names the check that failed (issue 15): the reasons `perform` gives agree with
what `legal_actions` allows."""

from __future__ import annotations

import pytest

from tests.enginekit import h, table

EDITIONS = ["cr2004", "modern"]


def _equipped(creature: str, edition: str):
    return table(edition, battlefield=[
        h("crt", creature, controller="A", sick=True),
        h("bola", "Leonin Bola", controller="A", attached_to="crt"),
        h("forest", "Forest", controller="B")])


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_hasty_creature_given_an_illegal_target_is_refused_for_the_target(edition):
    # Raging Goblin has haste: a tap ability Leonin Bola grants it may be activated at once
    # (cr2004 212.3d; haste: cr2004 502.5), so a Forest as the target is what is wrong.
    t = _equipped("Raging Goblin", edition)
    listed = [a for a in t.legal() if a["action"] == "activate" and a["card"] == t.id("crt")]
    assert listed, "the granted ability is listed for the hasty creature"
    reason = t.illegal("activate", "A", card="crt", ability=0, targets=["forest"])
    assert reason == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_summoning_sick_creature_is_refused_for_its_sickness(edition):
    t = _equipped("Grizzly Bears", edition)
    assert not [a for a in t.legal() if a["action"] == "activate" and
                a["card"] == t.id("crt")]
    reason = t.illegal("activate", "A", card="crt", ability=0, targets=["forest"])
    assert reason == "summoning_sick"
