"""Turn structure, priority, the cleanup step, and mana emptying per edition."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, given

EDITIONS = ["cr2004", "modern"]
LIBRARY = ["Island"] * 10


def table(edition: str, step: str = "upkeep", **state) -> Table:
    players = state.pop("players", {})
    for name in ("A", "B"):
        players.setdefault(name, {}).setdefault("library", LIBRARY)
    return Table(edition, given(step, players=players, **state))


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_empty_turn_goes_through_every_step_in_order(edition):
    t = table(edition)
    t.advance("upkeep", turn=4)
    steps = [(e["turn"], e["step"]) for e in t.events if e["type"] == "step"]
    assert [s for n, s in steps if n == 3] == [
        "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
        "end_of_combat", "postcombat_main", "end", "cleanup",
    ]  # no attackers: the blockers and damage steps are skipped
    assert [s for n, s in steps if n == 4][:2] == ["untap", "upkeep"]
    assert t.obs()["turn"]["active"] == "B"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_step_ends_only_when_both_pass_in_succession(edition):
    t = table(edition, "precombat_main",
              players={"A": {"mana_pool": {"U": 1}, "hand": ["Unsummon"]}},
              battlefield=[{"handle": "bears", "card": "Grizzly Bears", "controller": "B"}])
    t.do("pass", "A")
    assert t.obs()["turn"] == {"number": 3, "active": "A", "phase": "precombat_main",
                               "step": "precombat_main", "priority": "B"}
    t.do("pass", "B")
    assert t.obs()["turn"]["step"] == "beginning_of_combat"
    assert t.obs()["turn"]["priority"] == "A"


@pytest.mark.parametrize("edition", EDITIONS)
def test_after_resolution_the_active_player_gets_priority_in_the_same_step(edition):
    t = table(edition, "precombat_main",
              players={"B": {"mana_pool": {"R": 1}, "hand": [{"handle": "bolt",
                                                               "card": "Lightning Bolt"}]}})
    t.do("pass", "A")
    t.do("cast", "B", card="bolt", targets=["A"])
    t.do("pass", "B")
    t.do("pass", "A")
    o = t.obs()
    assert o["players"]["A"]["life"] == 17
    assert (o["turn"]["step"], o["turn"]["priority"]) == ("precombat_main", "A")


@pytest.mark.parametrize("edition", EDITIONS)
def test_nobody_gets_priority_in_untap_and_the_stack_stays_empty(edition):
    t = table(edition, "end", active="B")
    t.advance("upkeep", turn=4)
    assert not [e for e in t.events if e["type"] in ("cast", "activate")]
    untaps = [e for e in t.events if e["type"] == "step" and e["step"] == "untap"]
    assert len(untaps) == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_untap_step_untaps_the_active_players_permanents_only(edition):
    t = table(edition, "end", active="B", battlefield=[
        {"handle": "mine", "card": "Forest", "controller": "A", "tapped": True},
        {"handle": "theirs", "card": "Mountain", "controller": "B", "tapped": True},
    ])
    t.advance("upkeep", turn=4)
    assert t.find("mine")["tapped"] is False
    assert t.find("theirs")["tapped"] is True


@pytest.mark.parametrize("edition", EDITIONS)
def test_cleanup_discards_down_to_seven_by_choice(edition):
    hand = [{"handle": f"c{i}", "card": "Forest"} for i in range(9)]
    t = table(edition, "end", players={"A": {"hand": hand}})
    t.pass_priority()
    t.pass_priority()
    o = t.obs()
    assert o["turn"]["step"] == "cleanup"
    assert o["pending"] == {"player": "A", "decision": "discard", "count": 2}
    assert t.illegal("pass", "A") == "not_an_option"
    t.do("discard", "A", card="c4")
    t.do("discard", "A", card="c7")
    a = t.player("A")
    assert len(a["hand"]) == 7
    assert [c["id"] for c in a["graveyard"]] == [t.id("c7"), t.id("c4")]  # top first
    assert t.obs()["turn"]["active"] == "B"


@pytest.mark.parametrize("edition", EDITIONS)
def test_max_hand_size_can_be_lifted(edition):
    t = table(edition, "end", players={"A": {"hand": ["Forest"] * 9, "max_hand_size": None}})
    t.advance("upkeep", turn=4)
    assert len(t.player("A")["hand"]) == 9


@pytest.mark.parametrize("edition", EDITIONS)
def test_damage_wears_off_and_until_end_of_turn_effects_end_in_cleanup(edition):
    t = table(edition, "precombat_main",
              players={"A": {"mana_pool": {"G": 1, "R": 1},
                             "hand": [{"handle": "growth", "card": "Giant Growth"},
                                      {"handle": "shock", "card": "Shock"}]}},
              battlefield=[{"handle": "giant", "card": "Hill Giant", "controller": "A"}])
    t.do("cast", "A", card="growth", targets=["giant"])
    t.do("pass", "A")
    t.do("pass", "B")
    t.do("cast", "A", card="shock", targets=["giant"])
    t.do("pass", "A")
    t.do("pass", "B")
    giant = t.find("giant")
    assert (giant["power"], giant["toughness"], giant["damage"]) == (6, 6, 2)
    t.advance("upkeep", turn=4)
    giant = t.find("giant")
    assert (giant["power"], giant["toughness"], giant["damage"]) == (3, 3, 0)


def test_2004_mana_empties_at_end_of_phase_with_mana_burn():
    t = table("cr2004", "upkeep", battlefield=[
        {"handle": "f", "card": "Forest", "controller": "A"},
        {"handle": "m", "card": "Mountain", "controller": "A"}])
    t.do("activate", "A", card="f", ability=0)
    t.advance("draw")
    # Upkeep and draw are steps of the same phase: the mana is still there.
    assert t.player("A")["mana_pool"]["G"] == 1
    assert t.player("A")["life"] == 20
    t.do("activate", "A", card="m", ability=0)
    t.advance("precombat_main")
    a = t.player("A")
    assert sum(a["mana_pool"].values()) == 0
    assert a["life"] == 18  # one life per unused mana (300.3)
    burn = [e for e in t.events if e["type"] == "life"]
    assert burn == [{"type": "life", "player": "A", "amount": -2, "cause": "mana_burn"}]


def test_modern_mana_empties_at_end_of_each_step_without_burn():
    t = table("modern", "upkeep", battlefield=[{"handle": "f", "card": "Forest",
                                                "controller": "A"}])
    t.do("activate", "A", card="f", ability=0)
    assert t.player("A")["mana_pool"]["G"] == 1
    t.advance("draw")
    a = t.player("A")
    assert a["mana_pool"]["G"] == 0
    assert a["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_priority_passes_are_reset_by_an_action(edition):
    t = table(edition, "precombat_main", battlefield=[{"handle": "f", "card": "Forest",
                                                       "controller": "B"}])
    t.do("pass", "A")
    t.do("activate", "B", card="f", ability=0)  # an action between the passes
    t.do("pass", "B")
    assert t.obs()["turn"]["step"] == "precombat_main"
    assert t.obs()["turn"]["priority"] == "A"
