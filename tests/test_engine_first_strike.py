"""First strike and double strike: the first-strike combat damage step (outside the seeds).

Modern 510.4, 702.7b-c, 702.4b-d: if an attacking or blocking creature has first strike or
double strike as the combat damage step begins, only those creatures deal combat damage in it,
and a second combat damage step follows for the creatures still in combat that had neither
ability as the first step began, and those that have double strike then. 2004 502.2b-c and
502.28b: the same two steps, each with its combat damage on the stack (310.1) and priority
before it is dealt.
"""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.objects import ABILITY, ContinuousEffect
from tests.enginekit import Table, given, h, resolve

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any], *, hand_a=(), pool_a=None,
          step: str = "beginning_of_combat") -> Table:
    players = {"A": {"hand": list(hand_a), "mana_pool": pool_a or {},
                     "library": ["Island"] * 5},
               "B": {"library": ["Island"] * 5}}
    return Table(edition, given(step, players=players, battlefield=battlefield))


def steps(t: Table) -> list[str]:
    return [e["step"] for e in t.events if e["type"] == "step"]


def damage_events(t: Table) -> list[tuple[Any, Any, int]]:
    return [(e["source"], e["target"], e["amount"]) for e in t.events
            if e["type"] == "damage"]


def deal_pending_damage(t: Table) -> None:
    """2004: the combat damage on the stack resolves (both players pass); modern: nothing to
    do, it was dealt as the step began."""
    if t.obs()["stack"]:
        resolve(t)


def change_keywords(t: Table, handle: str, *, add: frozenset[str] = frozenset(),
                    remove: frozenset[str] = frozenset()) -> None:
    """An effect from outside the game (no pool card removes first strike or gives double
    strike): the creature gains or loses keywords until end of turn."""
    game = t.game

    def modify(chars: Any) -> None:
        chars.keywords = (chars.keywords - remove) | add

    game.add_effect(ContinuousEffect(ABILITY, game.next_timestamp(), None, modify, "turn",
                                     target=t.id(handle)))


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_first_striker_kills_its_blocker_before_the_blocker_deals_damage(edition):
    t = table(edition, [h("knight", "White Knight", controller="A"),
                        h("bears", "Grizzly Bears", controller="B")])
    bears = t.id("bears")  # the handle follows the Bears into the graveyard
    t.attack("knight")
    t.block({"bears": "knight"})
    t.advance("combat_damage")
    if edition == "cr2004":
        # The first step's damage is on the stack, and players get priority (2004 310.1).
        assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
        assert t.obs()["turn"]["priority"] == "A"
        assert t.find("bears")["damage"] == 0
        resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    t.advance("end_of_combat")
    # Two combat damage steps; the Bears died in the first and dealt nothing.
    assert steps(t).count("combat_damage") == 2
    assert damage_events(t) == [(t.id("knight"), {"object": bears}, 2)]
    assert t.find("knight")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_first_strike_blocker_kills_the_attacker_first(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("wall", "Wall of Spears", controller="B")])
    t.attack("bears")
    t.block({"wall": "bears"})
    t.advance("end_of_combat")
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]
    assert t.find("wall")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_without_a_first_striker_there_is_one_combat_damage_step(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("lions", "Savannah Lions", controller="B")])
    t.attack("bears")
    t.block({"lions": "bears"})
    t.advance("end_of_combat")
    assert steps(t).count("combat_damage") == 1
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]  # both die at once
    assert t.cards(t.player("B")["graveyard"]) == ["Savannah Lions"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_creatures_without_first_strike_deal_their_damage_in_the_second_step(edition):
    # White Knight kills the Lions first; the Bears and the Hill Giant fight in the second step.
    t = table(edition, [h("knight", "White Knight", controller="A"),
                        h("bears", "Grizzly Bears", controller="A"),
                        h("lions", "Savannah Lions", controller="B"),
                        h("giant", "Hill Giant", controller="B")])
    t.attack("knight", "bears")
    t.block({"lions": "knight", "giant": "bears"})
    t.advance("combat_damage")
    deal_pending_damage(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Savannah Lions"]
    assert t.find("giant")["damage"] == 0 and t.find("bears")["damage"] == 0
    t.pass_priority()
    t.pass_priority()  # the first step ends
    deal_pending_damage(t)
    assert t.find("giant")["damage"] == 2
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_double_strike_deals_combat_damage_in_both_steps(edition):
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A")])
    t.attack("raptor")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 16
    assert damage_events(t) == [(t.id("raptor"), {"player": "B"}, 2)] * 2


def test_2004_each_combat_damage_step_puts_its_damage_on_the_stack():
    t = table("cr2004", [h("raptor", "Ridgetop Raptor", controller="A")])
    t.attack("raptor")
    t.advance("combat_damage")
    for life in (18, 16):
        assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
        assert t.obs()["turn"]["priority"] == "A"
        resolve(t)
        assert t.player("B")["life"] == life and t.obs()["stack"] == []
        t.pass_priority()
        t.pass_priority()
    assert t.obs()["turn"]["step"] == "end_of_combat"
    assert sum(e["type"] == "combat_damage_on_stack" for e in t.events) == 2


def test_modern_combat_damage_is_dealt_as_each_step_begins():
    t = table("modern", [h("raptor", "Ridgetop Raptor", controller="A")])
    t.attack("raptor")
    t.advance("combat_damage")
    assert t.player("B")["life"] == 18 and t.obs()["stack"] == []
    assert t.obs()["turn"]["priority"] == "A"
    t.pass_priority()
    t.pass_priority()
    assert t.obs()["turn"]["step"] == "combat_damage" and t.player("B")["life"] == 16


@pytest.mark.parametrize("edition", EDITIONS)
def test_double_strike_with_trample_assigns_all_to_the_player_once_the_blocker_died(edition):
    # 4/1 double strike, trample (Rancor): 2 to the Bears (lethal) and 2 to B first; in the
    # second step no creature blocks it any longer: all 4 to B (modern 702.19d, 2004 502.9c).
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A"),
                        h("rancor", "Rancor", controller="A", attached_to="raptor"),
                        h("bears", "Grizzly Bears", controller="B")])
    t.attack("raptor")
    t.block({"bears": "raptor"})
    t.advance("combat_damage")
    assert t.obs()["pending"]["decision"] == "assign_combat_damage"
    t.do("choose", "A", choice=[[t.id("bears"), 2], ["B", 2]])
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 14
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert t.find("raptor")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_gaining_first_strike_before_damage_makes_a_first_strike_step(edition):
    # Knight of Stromgald (2/1) blocked by Grizzly Bears: without first strike both die; given
    # it in the declare blockers step, it kills the Bears first.
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("swamp", "Swamp", controller="A"),
                        h("bears", "Grizzly Bears", controller="B")])
    t.attack("knight")
    t.block({"bears": "knight"})
    t.do("activate", "A", card="knight", ability=0, pay_with=["swamp"])
    resolve(t)
    t.advance("end_of_combat")
    assert steps(t).count("combat_damage") == 2
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert t.find("knight") in t.obs()["battlefield"] and t.find("knight")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_first_strike_gained_after_the_first_step_does_not_stop_its_regular_damage(edition):
    # White Knight makes a first step; Knight of Stromgald, without first strike as it began,
    # gains it during that step and still deals its damage in the second (modern 702.7c;
    # 2004 502.2c: it did not assign combat damage in the first step, 502.2b).
    t = table(edition, [h("white", "White Knight", controller="A"),
                        h("knight", "Knight of Stromgald", controller="A"),
                        h("swamp", "Swamp", controller="A"),
                        h("giant", "Hill Giant", controller="B")])
    t.attack("white", "knight")
    t.block({"giant": "knight"})
    t.advance("combat_damage")
    deal_pending_damage(t)
    assert t.player("B")["life"] == 18  # the White Knight, in the first step
    t.do("activate", "A", card="knight", ability=0, pay_with=["swamp"])
    resolve(t)
    t.pass_priority()
    t.pass_priority()  # the first step ends
    deal_pending_damage(t)
    assert t.find("giant")["damage"] == 2
    assert t.cards(t.player("A")["graveyard"]) == ["Knight of Stromgald"]
    assert t.player("B")["life"] == 18  # the White Knight deals no second damage


@pytest.mark.parametrize("edition", EDITIONS)
def test_first_strike_lost_after_the_first_step_gives_no_second_damage(edition):
    # A first striker that lost first strike after dealing damage in the first step does not
    # deal damage again (modern 702.7c; 2004 502.2c).
    t = table(edition, [h("knight", "White Knight", controller="A")])
    t.attack("knight")
    t.advance("combat_damage")
    deal_pending_damage(t)
    change_keywords(t, "knight", remove=frozenset(("first strike",)))
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 18


@pytest.mark.parametrize("edition", EDITIONS)
def test_double_strike_gained_after_the_first_step_deals_damage_again(edition):
    # Modern 702.4d; 2004 502.2b ("plus any creatures with double strike").
    t = table(edition, [h("knight", "White Knight", controller="A")])
    t.attack("knight")
    t.advance("combat_damage")
    deal_pending_damage(t)
    change_keywords(t, "knight", add=frozenset(("double strike",)))
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 16


@pytest.mark.parametrize("edition", EDITIONS)
def test_double_strike_lost_during_the_first_step_gives_no_second_damage(edition):
    # Modern 702.4c; 2004: it assigned combat damage in the first step and has no double
    # strike in the second (502.2b).
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A")])
    t.attack("raptor")
    t.advance("combat_damage")
    change_keywords(t, "raptor", remove=frozenset(("double strike",)))
    deal_pending_damage(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 18


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_removed_from_combat_between_the_steps_leaves_the_attacker_blocked(edition):
    # The Raptor's first-strike damage would destroy the Skeletons: they regenerate and leave
    # combat (modern 506.4, 701.19; 2004 306.2). In the second step the Raptor is still
    # blocked, by no creature: it deals no damage (modern 510.1c, 509.1h; 2004 310.2c), and the
    # Skeletons, out of combat, deal none either.
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A"),
                        h("skel", "Drudge Skeletons", controller="B"),
                        h("swamp", "Swamp", controller="B")])
    t.attack("raptor")
    t.block({"skel": "raptor"})
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    t.advance("combat_damage")
    deal_pending_damage(t)
    skel = t.find("skel")
    assert skel is not None and skel["blocking"] is None and skel["tapped"]
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20
    assert t.find("raptor")["damage"] == 0
    assert damage_events(t) == [(t.id("raptor"), {"object": t.id("skel")}, 2)]


def test_modern_unused_mana_empties_between_the_two_combat_damage_steps():
    # Each combat damage step is a step: the modern pools empty as each ends (500.5); in 2004
    # they empty only as the combat phase ends (300.3, with mana burn then).
    for edition, left in (("modern", 0), ("cr2004", 1)):
        t = table(edition, [h("knight", "White Knight", controller="A"),
                            h("swamp", "Swamp", controller="A")])
        t.attack("knight")
        t.advance("combat_damage")
        deal_pending_damage(t)
        t.do("activate", "A", card="swamp", ability=0)
        assert t.player("A")["mana_pool"]["B"] == 1
        t.pass_priority()
        t.pass_priority()
        deal_pending_damage(t)
        assert t.obs()["turn"]["step"] == "combat_damage"
        assert t.player("A")["mana_pool"]["B"] == left, edition
