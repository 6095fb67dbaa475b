"""Mana made in a cleanup step that repeats (issue 26, defect 3). When players get priority in
the cleanup step, another cleanup step follows (modern 514.3a; 2004 314.3). Modern: unused mana
empties as each step ends (500.5, a turn-based action, 703.4q), so the first cleanup step's mana
is gone in the second. 2004: mana empties only as a phase ends (300.3), so it stays through the
ending phase and burns as it ends."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table


def _two_cleanup_steps(edition: str) -> Table:
    """Rancor on Mishra's Factory (a creature until end of turn): in the cleanup step the
    Factory is no creature, Rancor goes to the graveyard and its trigger gives A priority; A
    taps a Forest for {G}; Rancor returns to A's hand of seven, so the next cleanup step begins
    with a discard."""
    t = table(edition, a={"hand": [h("rancor", "Rancor"),
                                   *[h(f"card-{i}", "Island") for i in range(7)]]},
              battlefield=[h("factory", "Mishra's Factory", controller="A"),
                           *[h(f"forest-{i}", "Forest", controller="A") for i in (1, 2, 3)]])
    t.do("activate", "A", card="factory", ability=1, pay_with=["forest-1"])
    resolve(t)
    t.do("cast", "A", card="rancor", targets=["factory"], pay_with=["forest-2"])
    resolve(t)
    t.advance("cleanup")
    o = t.obs()
    assert o["turn"]["priority"] == "A" and [s["card"] for s in o["stack"]] == ["Rancor"]
    t.do("activate", "A", card="forest-3", ability=0)
    assert t.player("A")["mana_pool"]["G"] == 1
    resolve(t)  # Rancor returns to A's hand: eight cards
    assert len(t.player("A")["hand"]) == 8 and t.obs()["stack"] == []
    t.do("pass", "A")
    t.do("pass", "B")
    o = t.obs()
    assert o["turn"]["step"] == "cleanup" and o["turn"]["number"] == 3
    assert o["pending"] == {"player": "A", "decision": "discard", "count": 1}
    return t


def test_modern_mana_empties_as_a_cleanup_step_ends_before_the_next_begins():
    t = _two_cleanup_steps("modern")
    assert t.player("A")["mana_pool"]["G"] == 0
    step_events = [e for e in t.events if e["type"] == "step" and e["step"] == "cleanup"]
    assert len(step_events) == 2  # another cleanup step began
    t.do("discard", "A", card="card-0")
    t.advance("upkeep", turn=4)
    assert t.player("A")["life"] == 20


def test_2004_mana_stays_through_the_repeated_cleanup_steps_and_burns_as_the_phase_ends():
    t = _two_cleanup_steps("cr2004")
    assert t.player("A")["mana_pool"]["G"] == 1
    t.do("discard", "A", card="card-0")
    t.advance("upkeep", turn=4)
    assert t.player("A")["life"] == 19  # mana burn (300.3)


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
def test_a_cleanup_step_that_gives_no_priority_ends_the_turn(edition):
    # The ordinary cleanup step: nothing happens, nobody gets priority, the turn ends.
    t = table(edition, battlefield=[h("bears", "Grizzly Bears", controller="A")])
    t.events.clear()
    t.advance("upkeep", turn=4)
    cleanups = [e for e in t.events if e["type"] == "step" and e["step"] == "cleanup"]
    assert len(cleanups) == 1
