"""Effects that resolve for a permanent that has phased out (issue 26, defects 6 and 7). A
phased-out permanent is treated as though it does not exist and is affected by nothing (modern
702.26b, with 403.2: abilities affect only what is on the battlefield; 2004 217.5b, 217.8c: it
is out of play). What phased out with it phases in with it (modern 702.26g, 2004 217.8c)."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ["cr2004", "modern"]


def _equipped_efreet(edition: str) -> Table:
    t = table(edition, battlefield=[
        h("efreet", "Rainbow Efreet", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="efreet"),
        h("bears", "Grizzly Bears", controller="A"),
        h("mountain", "Mountain", controller="A"),
        *[h(f"island-{i}", "Island", controller="A") for i in (1, 2, 3, 4)]])
    assert t.find("efreet")["power"] == 5
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_equip_ability_resolving_after_its_equipment_phased_out_does_nothing(edition):
    # A equips the Bonesplitter to the Bears, then, in response, phases out the Efreet it
    # equips (the Bonesplitter with it). The equip ability resolves for nothing: the
    # Bonesplitter phases in with the Efreet, still attached to it.
    t = _equipped_efreet(edition)
    t.do("activate", "A", card="splitter", ability=0, targets=["bears"], pay_with=["mountain"])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)  # the Efreet phases out, the Bonesplitter too
    resolve(t)  # the equip ability
    assert t.obs()["stack"] == []
    assert not [e for e in t.events if e["type"] == "attach"]
    assert t.find("bears")["power"] == 2
    t.advance("upkeep", turn=5)
    efreet, splitter = t.find("efreet"), t.find("splitter")
    assert splitter["attached_to"] == t.id("efreet") and efreet["power"] == 5
    assert t.find("bears")["power"] == 2


def test_modern_a_second_phase_out_of_a_phased_out_permanent_emits_nothing():
    # Two activations of the Efreet's ability: the second resolves for a permanent already
    # phased out, which nothing affects (702.26b): no second phase_out event, and the
    # Bonesplitter, which phased out with it, still phases in only with it (702.26g).
    t = _equipped_efreet("modern")
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-3", "island-4"])
    t.events.clear()
    resolve(t)
    resolve(t)
    assert t.obs()["stack"] == []
    phased = [e["object"] for e in t.events if e["type"] == "phase_out"]
    assert sorted(phased) == sorted([t.id("efreet"), t.id("splitter")])
    game = t.engine.game
    assert game.objects[t.id("splitter")].phased_with == t.id("efreet")
    t.events.clear()
    t.advance("upkeep", turn=5)
    assert sorted(e["object"] for e in t.events if e["type"] == "phase_in") == sorted(
        [t.id("efreet"), t.id("splitter")])
    assert t.find("splitter")["attached_to"] == t.id("efreet")


def test_modern_phasing_out_a_creature_leaves_what_phased_out_on_its_own_as_it_was():
    # The Bonesplitter phased out by itself (as a direct phase-out would) stays so when the
    # creature it is attached to phases out later: it is not swept along indirectly.
    t = _equipped_efreet("modern")
    game = t.engine.game
    splitter = game.objects[t.id("splitter")]
    game.phase_out(splitter)
    game.phase_out(game.objects[t.id("efreet")])
    assert splitter.phased_with is None
