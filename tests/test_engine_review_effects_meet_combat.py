"""An independent rules review of the issue-26 changes where effects meet (issue 26's review
habit): combat damage divided with no damage assignment order (modern 510.1c since the
Foundations update of 2024-11-08; 2004 310.2c), trample (modern 702.19b, 702.19d; 2004 502.9b),
meeting a blocker made bigger, removed, regenerated, phased out or taken back by its owner, a
blocker with damage marked, two divided attackers, combat damage on the 2004 stack, infect, and
Circle of Protection: Red on a trampler. Each test is one scenario, in both editions where the
cards exist in both; the modern rules are those of 2026-09-25, the 2004 ones those of
2004-06-01 (310 and 502 as the rulings summary of 2004-01-15 quotes them)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


def division(t: Table, *pairs: tuple[str, int]) -> list[list[Any]]:
    return [[t.id(who), amount] for who, amount in pairs]


def divisions(t: Table) -> set[tuple[int, ...]]:
    """The amounts of every listed division, in the order the decision lists recipients."""
    return {tuple(amount for _, amount in a["choice"]) for a in t.legal()
            if a["action"] == "choose"}


def recipients(t: Table) -> list[Any]:
    [first, *_] = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    return [who for who, _ in first]


def trampler(*blockers: dict, more: tuple = (), **kw: Any) -> list[dict]:
    """A's Grizzly Bears with Rancor (4/2 trample), with B's ``blockers``."""
    return [h("bears", "Grizzly Bears", controller="A"),
            h("rancor", "Rancor", controller="A", attached_to="bears"), *blockers, *more]


def graveyard(t: Table, player: str) -> list[str]:
    return sorted(t.cards(t.player(player)["graveyard"]))


def answer_graveyard_orders(t: Table) -> None:
    """Cards put into a graveyard at once (modern: their owner orders them): the first order."""
    while (t.obs()["pending"] or {}).get("decision") == "order_graveyard":
        t.do("choose", t.obs()["pending"]["player"],
             choice=next(a["choice"] for a in t.legal() if a["action"] == "choose"))


def finish_combat(t: Table) -> None:
    """On to the end of combat (2004: resolving the combat damage on the stack)."""
    for _ in range(20):
        answer_graveyard_orders(t)
        o = t.obs()
        if o["turn"]["step"] == "end_of_combat" and o["pending"] is None:
            return
        if o["pending"] is None:
            t.pass_priority()
    raise AssertionError("combat did not end")


# ---- a blocker changed before damage ----------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_given_toughness_before_damage_leaves_no_excess_for_the_player(edition):
    # Llanowar Elves and Grizzly Bears block the 4/2 trampler; B's Giant Growth makes the Bears
    # 5/5. Lethal damage is judged as the damage is assigned: 1 and 5, more than 4, so nothing
    # can go to B (modern 702.19b, 2004 502.9b); among the blockers any split (510.1c, 310.2c).
    t = table(edition, battlefield=trampler(h("elves", "Llanowar Elves", controller="B"),
                                            h("b-bears", "Grizzly Bears", controller="B"),
                                            h("forest", "Forest", controller="B")),
              b={"hand": [h("growth", "Giant Growth")]})
    t.attack("bears")
    t.block({"elves": "bears", "b-bears": "bears"})
    t.do("pass", "A")
    t.do("cast", "B", card="growth", targets=["b-bears"], pay_with=["forest"])
    resolve(t)
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    assert pending["blockers"] == [{"id": t.id("elves"), "lethal": 1},
                                   {"id": t.id("b-bears"), "lethal": 5}]
    assert divisions(t) == {(n, 4 - n, 0) for n in range(5)}
    assert t.illegal("choose", "A", choice=division(t, ("elves", 1), ("b-bears", 2),
                                                    ("B", 1))) == "not_an_option"
    t.do("choose", "A", choice=division(t, ("elves", 1), ("b-bears", 3), ("B", 0)))
    finish_combat(t)
    assert t.player("B")["life"] == 20
    assert graveyard(t, "B") == ["Giant Growth", "Llanowar Elves"]
    assert t.find("b-bears")["damage"] == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_of_two_unsummoned_leaves_one_to_kill_and_the_rest_for_the_player(edition):
    # Hill Giant and Llanowar Elves block the trampler; A returns the Giant with Unsummon. One
    # blocker is left (lethal 1): the rest may go to B, and a division naming the Giant is
    # refused.
    t = table(edition, battlefield=trampler(h("giant", "Hill Giant", controller="B"),
                                            h("elves", "Llanowar Elves", controller="B"),
                                            h("island", "Island", controller="A")),
              a={"hand": [h("unsummon", "Unsummon")]})
    giant = t.id("giant")
    t.attack("bears")
    t.block({"giant": "bears", "elves": "bears"})
    t.do("cast", "A", card="unsummon", targets=["giant"], pay_with=["island"])
    resolve(t)
    t.advance("combat_damage")
    assert recipients(t) == [t.id("elves"), "B"]
    assert divisions(t) == {(1, 3), (2, 2), (3, 1), (4, 0)}
    assert t.illegal("choose", "A", choice=[[giant, 3], [t.id("elves"), 1], ["B", 0]]) == (
        "not_an_option")
    t.do("choose", "A", choice=division(t, ("elves", 1), ("B", 3)))
    finish_combat(t)
    assert t.player("B")["life"] == 17
    assert graveyard(t, "B") == ["Llanowar Elves"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trampler_whose_blockers_phased_out_and_died_assigns_all_to_the_player(edition):
    # Rainbow Efreet and Llanowar Elves block; B phases the Efreet out and A Shocks the Elves:
    # blocked, with no blocker left, the trampler's damage all goes to B (modern 702.19d, 2004
    # 502.9c), and the Efreet, treated as though it did not exist, is dealt none.
    t = table(edition, battlefield=trampler(
        h("efreet", "Rainbow Efreet", controller="B"), h("elves", "Llanowar Elves", controller="B"),
        h("island-1", "Island", controller="B"), h("island-2", "Island", controller="B"),
        h("mountain", "Mountain", controller="A")), a={"hand": [h("shock", "Shock")]})
    t.attack("bears")
    t.block({"efreet": "bears", "elves": "bears"})
    t.do("cast", "A", card="shock", targets=["elves"], pay_with=["mountain"])
    resolve(t)
    t.do("pass", "A")
    t.do("activate", "B", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    t.advance("combat_damage")
    assert t.obs()["pending"] is None  # one way only: all of it to B
    finish_combat(t)
    assert t.player("B")["life"] == 16
    t.advance("upkeep", turn=4)  # B's untap step: the Efreet phases in, undamaged
    efreet = t.find("efreet")
    assert efreet in t.obs()["battlefield"] and efreet["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_trample_lethal_counts_damage_marked_on_one_of_two_blockers(edition):
    # Hill Giant (Shocked: 2 damage marked, lethal 1) and Grizzly Bears (lethal 2) block the
    # 4/2 trampler: lethal damage to both takes 3, so B may be dealt 1 and only by (1, 2, 1)
    # (modern 702.19b: damage already marked counts; 2004 502.9b).
    t = table(edition, battlefield=trampler(h("giant", "Hill Giant", controller="B"),
                                            h("b-bears", "Grizzly Bears", controller="B"),
                                            h("mountain", "Mountain", controller="A")),
              a={"hand": [h("shock", "Shock")]})
    t.attack("bears")
    t.block({"giant": "bears", "b-bears": "bears"})
    t.do("cast", "A", card="shock", targets=["giant"], pay_with=["mountain"])
    resolve(t)
    t.advance("combat_damage")
    assert [b["lethal"] for b in t.obs()["pending"]["blockers"]] == [1, 2]
    assert {d for d in divisions(t) if d[2]} == {(1, 2, 1)}
    assert len(divisions(t)) == 5 + 1  # every split between the blockers, and that one
    t.do("choose", "A", choice=division(t, ("giant", 1), ("b-bears", 2), ("B", 1)))
    finish_combat(t)
    assert t.player("B")["life"] == 19
    assert graveyard(t, "B") == ["Grizzly Bears", "Hill Giant"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_non_trampler_may_give_a_damaged_blocker_more_than_lethal_and_the_other_less(edition):
    # Hill Giant with Bonesplitter (5/3) blocked by two Hill Giants, one Shocked (lethal 1):
    # without trample lethal damage plays no part (modern 510.1c, 2004 310.2c): 4 to the
    # damaged one and 1 to the other is as legal as any split; the decision still shows it.
    t = table(edition, battlefield=[
        h("giant", "Hill Giant", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="giant"),
        h("g-1", "Hill Giant", controller="B"), h("g-2", "Hill Giant", controller="B"),
        h("mountain", "Mountain", controller="A")], a={"hand": [h("shock", "Shock")]})
    t.attack("giant")
    t.block({"g-1": "giant", "g-2": "giant"})
    t.do("cast", "A", card="shock", targets=["g-1"], pay_with=["mountain"])
    resolve(t)
    t.advance("combat_damage")
    assert t.obs()["pending"]["blockers"] == [{"id": t.id("g-1"), "lethal": 1},
                                              {"id": t.id("g-2"), "lethal": 3}]
    assert divisions(t) == {(n, 5 - n) for n in range(6)}
    t.do("choose", "A", choice=division(t, ("g-1", 4), ("g-2", 1)))
    finish_combat(t)
    assert graveyard(t, "B") == ["Hill Giant"]
    assert t.find("g-2")["damage"] == 1


# ---- a blocker removed from combat ------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_regenerated_blocker_of_two_is_no_longer_owed_lethal_damage(edition):
    # Drudge Skeletons and Llanowar Elves block the trampler; the Skeletons regenerate from
    # A's Shock and are removed from combat (modern 701.19a, 506.4; 2004 306.2): only the
    # Elves need lethal damage before B is dealt the rest.
    t = table(edition, battlefield=trampler(h("skel", "Drudge Skeletons", controller="B"),
                                            h("elves", "Llanowar Elves", controller="B"),
                                            h("swamp", "Swamp", controller="B"),
                                            h("mountain", "Mountain", controller="A")),
              a={"hand": [h("shock", "Shock")]})
    t.attack("bears")
    t.block({"skel": "bears", "elves": "bears"})
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    t.do("cast", "A", card="shock", targets=["skel"], pay_with=["mountain"])
    resolve(t)
    skel = t.find("skel")
    assert skel["blocking"] is None and skel["tapped"] is True
    t.advance("combat_damage")
    assert recipients(t) == [t.id("elves"), "B"]
    assert divisions(t) == {(1, 3), (2, 2), (3, 1), (4, 0)}
    t.do("choose", "A", choice=division(t, ("elves", 1), ("B", 3)))
    finish_combat(t)
    assert t.player("B")["life"] == 17
    # The Skeletons, out of combat, deal none: the Bears are dealt the Elves' 1 only.
    assert t.find("skel")["damage"] == 0 and t.find("bears")["damage"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_regeneration_shield_does_not_raise_the_lethal_damage_a_trampler_owes(edition):
    # Drudge Skeletons with a regeneration shield block the trampler alone: lethal damage is
    # still 1 (modern 702.19b: effects that change what is dealt are not considered; a shield
    # changes nothing dealt anyway), so 3 may go to B; the Skeletons regenerate.
    t = table(edition, battlefield=trampler(h("skel", "Drudge Skeletons", controller="B"),
                                            h("swamp", "Swamp", controller="B")))
    t.attack("bears")
    t.block({"skel": "bears"})
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    t.advance("combat_damage")
    assert t.obs()["pending"]["blockers"] == [{"id": t.id("skel"), "lethal": 1}]
    t.do("choose", "A", choice=division(t, ("skel", 1), ("B", 3)))
    finish_combat(t)
    assert t.player("B")["life"] == 17
    skel = t.find("skel")
    assert skel in t.obs()["battlefield"] and skel["tapped"] is True and skel["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_of_two_that_phases_out_leaves_all_the_damage_to_the_other(edition):
    # Hill Giant (no trample) blocked by Rainbow Efreet and Grizzly Bears; the Efreet phases
    # out: one blocker is left, which is assigned all the damage (modern 510.1c, 2004 310.2c);
    # nobody is asked, and the Efreet deals and is dealt nothing.
    t = table(edition, battlefield=[
        h("giant", "Hill Giant", controller="A"), h("efreet", "Rainbow Efreet", controller="B"),
        h("b-bears", "Grizzly Bears", controller="B"),
        h("island-1", "Island", controller="B"), h("island-2", "Island", controller="B")])
    t.attack("giant")
    t.block({"efreet": "giant", "b-bears": "giant"})
    t.do("pass", "A")
    t.do("activate", "B", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    t.advance("combat_damage")
    assert t.obs()["pending"] is None
    finish_combat(t)
    assert graveyard(t, "B") == ["Grizzly Bears"]
    assert t.find("giant")["damage"] == 2  # from the Bears only
    t.advance("upkeep", turn=4)
    assert t.find("efreet")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_stolen_blocker_whose_control_reverts_leaves_combat_and_the_division(edition):
    # B blocks A's trampler with A's own Hill Giant (B's Control Magic) and Llanowar Elves.
    # Control Magic leaves the battlefield (the engine's destroy stands in for an instant-speed
    # removal, which the pool lacks): the Giant is A's again and removed from combat (modern
    # 506.4; 2004 306.2): only the Elves are owed lethal damage, and the Giant deals none.
    t = table(edition, battlefield=trampler(
        h("giant", "Hill Giant", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="giant"),
        h("elves", "Llanowar Elves", controller="B")))
    t.attack("bears")
    t.block({"giant": "bears", "elves": "bears"})
    t.game.destroy(t.id("magic"))
    t.do("pass", "A")
    giant = t.find("giant")
    assert giant["controller"] == "A" and giant["blocking"] is None
    t.do("pass", "B")
    t.advance("combat_damage")
    assert recipients(t) == [t.id("elves"), "B"]
    t.do("choose", "A", choice=division(t, ("elves", 1), ("B", 3)))
    finish_combat(t)
    assert t.player("B")["life"] == 17
    assert t.find("bears")["damage"] == 1 and t.find("giant")["damage"] == 0


# ---- two divisions, and the stack of 2004 --------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_attackers_divided_one_after_the_other_deal_their_damage_at_once(edition):
    # A's Bears with Bonesplitter (4/2) are blocked by two Grizzly Bears, A's Hill Giant by two
    # Llanowar Elves: two decisions, and nothing is dealt before the second is made (modern
    # 510.1e, 510.2: the whole assignment, then all of it at once; 2004 310.1: one object on
    # the stack).
    t = table(edition, battlefield=[
        h("bears", "Grizzly Bears", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="bears"),
        h("giant", "Hill Giant", controller="A"),
        h("b-1", "Grizzly Bears", controller="B"), h("b-2", "Grizzly Bears", controller="B"),
        h("elf-1", "Llanowar Elves", controller="B"),
        h("elf-2", "Llanowar Elves", controller="B")])
    t.attack("bears", "giant")
    t.block({"b-1": "bears", "b-2": "bears", "elf-1": "giant", "elf-2": "giant"})
    t.advance("combat_damage")
    first = t.obs()["pending"]
    assert first["decision"] == "assign_combat_damage"
    t.events.clear()
    if first["attacker"] == t.id("bears"):
        t.do("choose", "A", choice=division(t, ("b-1", 2), ("b-2", 2)))
        second = division(t, ("elf-1", 3), ("elf-2", 0))
    else:
        t.do("choose", "A", choice=division(t, ("elf-1", 3), ("elf-2", 0)))
        second = division(t, ("b-1", 2), ("b-2", 2))
    assert t.obs()["pending"]["decision"] == "assign_combat_damage"
    assert not [e for e in t.events if e["type"] in ("damage", "combat_damage_on_stack")]
    t.do("choose", "A", choice=second)
    if edition == "cr2004":
        assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    finish_combat(t)
    assert graveyard(t, "B") == ["Grizzly Bears", "Grizzly Bears", "Llanowar Elves"]
    assert t.find("elf-2") in t.obs()["battlefield"]
    assert graveyard(t, "A") == ["Grizzly Bears"]  # dealt 2 by the Bears blocking it


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_pumped_after_the_division_lives_only_where_damage_waits_on_the_stack(edition):
    # The Bears with Bonesplitter (4/2) divide 2 and 2 between two Grizzly Bears. 2004: the
    # damage is on the stack (310.1) and B's Giant Growth saves one Bears, dealt 2 as assigned
    # (310.4a). Modern: the damage is dealt as it is assigned (510.2): no one gets priority in
    # between, and both Bears die.
    t = table(edition, battlefield=[
        h("bears", "Grizzly Bears", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="bears"),
        h("b-1", "Grizzly Bears", controller="B"), h("b-2", "Grizzly Bears", controller="B"),
        h("forest", "Forest", controller="B")], b={"hand": [h("growth", "Giant Growth")]})
    t.attack("bears")
    t.block({"b-1": "bears", "b-2": "bears"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=division(t, ("b-1", 2), ("b-2", 2)))
    if edition == "cr2004":
        t.do("pass", "A")
        t.do("cast", "B", card="growth", targets=["b-1"], pay_with=["forest"])
        resolve(t)  # Giant Growth
        resolve(t)  # the combat damage
        assert graveyard(t, "B") == ["Giant Growth", "Grizzly Bears"]
        assert t.find("b-1")["damage"] == 2
    else:
        assert t.obs()["stack"] == []
        assert graveyard(t, "B") == ["Grizzly Bears", "Grizzly Bears"]


def test_2004_a_blocker_bounced_with_trample_damage_on_the_stack_takes_the_excess_with_it():
    # 2004: the trampler's 3 to Hill Giant and 1 to B are on the stack; B returns the Giant with
    # Unsummon. The damage assigned to it is not dealt (310.4c) and nothing is assigned again:
    # B is dealt the 1 (modern, with no stack, would have the Giant leave before the assignment
    # and all 4 go to B: 702.19d).
    t = table("cr2004", battlefield=trampler(h("giant", "Hill Giant", controller="B"),
                                             h("island", "Island", controller="B")),
              b={"hand": [h("unsummon", "Unsummon")]})
    t.attack("bears")
    t.block({"giant": "bears"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=division(t, ("giant", 3), ("B", 1)))
    t.do("pass", "A")
    t.do("cast", "B", card="unsummon", targets=["giant"], pay_with=["island"])
    resolve(t)
    resolve(t)
    assert t.player("B")["life"] == 19
    assert t.cards(t.player("B")["hand"]) == ["Hill Giant"]
    # The Giant's own 3 is dealt though it left play (310.4a): the Bears die, Rancor returns.
    assert graveyard(t, "A") == ["Grizzly Bears", "Rancor"]
    assert [s["card"] for s in t.obs()["stack"]] == ["Rancor"]


# ---- prevention and infect -----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_circle_prevents_a_red_tramplers_damage_to_the_player_not_to_its_blocker(edition):
    # Raging Kavu (red and green) with Rancor, 5/1 trample, blocked by Llanowar Elves, assigns
    # 1 to the Elves and 4 to B. B's Circle of Protection: Red chose the Kavu: the damage to B
    # is prevented ("to you"), the Elves are dealt theirs, and the shield is used up.
    t = table(edition, battlefield=[
        h("kavu", "Raging Kavu", controller="A"),
        h("rancor", "Rancor", controller="A", attached_to="kavu"),
        h("elves", "Llanowar Elves", controller="B"),
        h("circle", "Circle of Protection: Red", controller="B"),
        h("plains", "Plains", controller="B")])
    t.attack("kavu")
    t.block({"elves": "kavu"})
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["plains"])
    resolve(t)
    if t.obs()["pending"] is not None:  # the Kavu is the only red source: maybe not asked
        t.do("choose", "B", choice=t.id("kavu"))
    t.advance("combat_damage")
    t.do("choose", "A", choice=division(t, ("elves", 1), ("B", 4)))
    finish_combat(t)
    assert t.player("B")["life"] == 20
    assert graveyard(t, "B") == ["Llanowar Elves"]
    assert t.game.shields == []


def test_modern_a_trampler_with_infect_gives_its_excess_as_poison():
    # Plague Stinger with Rancor (3/1 flying, trample, infect) blocked by Ornithopter (0/2):
    # lethal damage is 2 as for any source (702.19b), dealt as -1/-1 counters (702.90c), and
    # the excess is B's poison counter.
    t = table("modern", battlefield=[
        h("stinger", "Plague Stinger", controller="A"),
        h("rancor", "Rancor", controller="A", attached_to="stinger"),
        h("thopter", "Ornithopter", controller="B")])
    t.attack("stinger")
    t.block({"thopter": "stinger"})
    t.advance("combat_damage")
    assert t.obs()["pending"]["blockers"] == [{"id": t.id("thopter"), "lethal": 2}]
    assert divisions(t) == {(2, 1), (3, 0)}
    t.do("choose", "A", choice=division(t, ("thopter", 2), ("B", 1)))
    finish_combat(t)
    assert t.player("B")["poison"] == 1 and t.player("B")["life"] == 20
    assert graveyard(t, "B") == ["Ornithopter"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_three_blockers_of_a_trampler_every_division_listed_and_any_pair_order_taken(edition):
    # Bears with Rancor and Bonesplitter (6/2 trample) blocked by three Llanowar Elves: every
    # split of 6 among the Elves, and, once each has its 1 (modern 702.19b, 2004 502.9b), the
    # rest to B as A chooses: 28 + 10 divisions. A division's pairs may come in any order.
    t = table(edition, battlefield=trampler(
        *[h(f"elf-{i}", "Llanowar Elves", controller="B") for i in (1, 2, 3)],
        more=(h("splitter", "Bonesplitter", controller="A", attached_to="bears"),)))
    t.attack("bears")
    t.block({f"elf-{i}": "bears" for i in (1, 2, 3)})
    t.advance("combat_damage")
    assert recipients(t) == [t.id("elf-1"), t.id("elf-2"), t.id("elf-3"), "B"]
    expected = {(a, b, c, 6 - a - b - c) for a in range(7) for b in range(7) for c in range(7)
                if a + b + c <= 6 and (a + b + c == 6 or min(a, b, c) >= 1)}
    assert len(expected) == 38 and divisions(t) == expected
    t.do("choose", "A", choice=division(t, ("B", 3), ("elf-3", 1), ("elf-1", 1), ("elf-2", 1)))
    finish_combat(t)
    assert t.player("B")["life"] == 17
    assert graveyard(t, "B") == ["Llanowar Elves"] * 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_animated_until_end_of_combat_is_owed_its_whole_toughness(edition):
    # B animates Jade Statue (3/6 until end of combat) in the declare attackers step and blocks
    # the 4/2 trampler with it: lethal damage is 6, more than 4, so nothing tramples over and
    # nobody is asked (modern 702.19b, 2004 502.9b); the Statue survives and kills the Bears.
    t = table(edition, battlefield=trampler(h("statue", "Jade Statue", controller="B"),
                                            h("plains-1", "Plains", controller="B"),
                                            h("plains-2", "Plains", controller="B")))
    t.attack("bears")
    t.do("pass", "A")
    t.do("activate", "B", card="statue", ability=0, pay_with=["plains-1", "plains-2"])
    resolve(t)
    assert t.find("statue")["toughness"] == 6
    t.block({"statue": "bears"})
    t.advance("combat_damage")
    assert t.obs()["pending"] is None
    finish_combat(t)
    assert t.player("B")["life"] == 20
    assert t.find("statue")["damage"] == 4
    assert graveyard(t, "A") == ["Grizzly Bears"]  # Rancor went back to A's hand
    assert t.cards(t.player("A")["hand"]) == ["Rancor"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_regenerating_from_its_combat_damage(edition):
    # Hill Giant blocked by Drudge Skeletons, whose regeneration shield B makes: 2004 after the
    # combat damage is on the stack (310.4a: dealt as assigned), modern before it is dealt.
    # Both deal their damage at once; the Skeletons are destroyed and regenerate (tapped, damage
    # removed), and the Giant keeps the 1 the Skeletons dealt it.
    t = table(edition, battlefield=[h("giant", "Hill Giant", controller="A"),
                                    h("skel", "Drudge Skeletons", controller="B"),
                                    h("swamp", "Swamp", controller="B")])
    t.attack("giant")
    t.block({"skel": "giant"})
    if edition == "cr2004":
        t.advance("combat_damage")
        assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    finish_combat(t)
    skel = t.find("skel")
    assert skel in t.obs()["battlefield"] and skel["tapped"] is True and skel["damage"] == 0
    assert t.find("giant")["damage"] == 1
    assert [e["object"] for e in t.events if e["type"] == "regenerate"] == [t.id("skel")]
