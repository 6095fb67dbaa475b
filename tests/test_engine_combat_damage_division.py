"""Combat damage divided among blockers with no damage assignment order: the modern rules
since the Foundations update of 2024-11-08 (510.1c; the order of the former 509.2 is gone),
the 2004 rules always (310.2c). Trample alone asks for lethal damage (modern 702.19b, 2004
502.9b)."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, given, h

EDITIONS = ["cr2004", "modern"]


def _equipped_bears_blocked_by_two_bears(edition: str) -> Table:
    # Grizzly Bears with Bonesplitter: 4/2, no trample; B blocks with two 2/2 Bears.
    t = Table(edition, given("beginning_of_combat", battlefield=[
        h("bears", "Grizzly Bears", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="bears"),
        h("b-1", "Grizzly Bears", controller="B"),
        h("b-2", "Grizzly Bears", controller="B")]))
    t.attack("bears")
    t.block({"b-1": "bears", "b-2": "bears"})
    return t


def _division(t: Table, *pairs: tuple[str, int]) -> list[list]:
    return [[t.id(who), amount] for who, amount in pairs]


@pytest.mark.parametrize("edition", EDITIONS)
def test_nobody_orders_the_blockers_and_every_split_of_the_power_is_legal(edition):
    t = _equipped_bears_blocked_by_two_bears(edition)
    assert t.obs()["pending"] is None  # no order_blockers decision
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    assert pending["decision"] == "assign_combat_damage" and pending["power"] == 4
    assert [b["id"] for b in pending["blockers"]] == [t.id("b-1"), t.id("b-2")]  # as declared
    listed = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    assert listed == [_division(t, ("b-1", n), ("b-2", 4 - n)) for n in range(5)]
    # 1 to the first Bears declared and 3 to the second: illegal under a damage assignment
    # order (the first must have lethal damage before the second gets any), legal now.
    t.do("choose", "A", choice=_division(t, ("b-1", 1), ("b-2", 3)))
    t.advance("end_of_combat")
    assert t.find("b-1")["damage"] == 1
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_division_names_each_blocker_once_in_any_order_and_assigns_all_the_power(edition):
    t = _equipped_bears_blocked_by_two_bears(edition)
    t.advance("combat_damage")
    for wrong in [(("b-1", 2),), (("b-1", 2), ("b-1", 2)), (("b-1", 1), ("b-2", 2)),
                  (("b-1", 2), ("b-2", 2), ("B", 0)), (("b-1", 2), ("B", 2))]:
        assert t.illegal("choose", "A", choice=_division(t, *wrong)) == "not_an_option"
    t.do("choose", "A", choice=_division(t, ("b-2", 2), ("b-1", 2)))  # the other order
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears", "Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_order_blockers_action_is_never_legal(edition):
    # The protocol keeps order_blockers for engines of the rules before 2024-11-08; this engine
    # refuses it as an illegal action, whether a decision is pending or a player has priority.
    t = _equipped_bears_blocked_by_two_bears(edition)
    assert t.obs()["turn"]["priority"] == "A"
    assert t.illegal("order_blockers", "A", attacker="bears",
                     order=["b-1", "b-2"]) == "no_such_decision"
    t.advance("combat_damage")
    assert t.illegal("order_blockers", "A", attacker="bears",
                     order=["b-2", "b-1"]) == "not_an_option"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trampler_still_gives_every_blocker_lethal_damage_before_the_player(edition):
    # Bears with Rancor (4/2 trample) blocked by two Llanowar Elves (lethal 1 each): among the
    # blockers any split; to B only what is left once each Elf has 1.
    t = Table(edition, given("beginning_of_combat", battlefield=[
        h("bears", "Grizzly Bears", controller="A"),
        h("rancor", "Rancor", controller="A", attached_to="bears"),
        h("elf-1", "Llanowar Elves", controller="B"),
        h("elf-2", "Llanowar Elves", controller="B")]))
    t.attack("bears")
    t.block({"elf-1": "bears", "elf-2": "bears"})
    t.advance("combat_damage")
    listed = {tuple(amount for _, amount in a["choice"])
              for a in t.legal() if a["action"] == "choose"}
    assert listed == {(4, 0, 0), (3, 1, 0), (2, 2, 0), (1, 3, 0), (0, 4, 0),
                      (1, 1, 2), (2, 1, 1), (1, 2, 1)}
    assert t.illegal("choose", "A", choice=_division(t, ("elf-1", 0), ("elf-2", 1),
                                                     ("B", 3))) == "not_an_option"
    t.do("choose", "A", choice=_division(t, ("elf-1", 1), ("elf-2", 1), ("B", 2)))
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 18
