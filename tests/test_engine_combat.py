"""Combat: who may attack and block, damage, and the 2004 combat-damage stack."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, given, h, resolve

EDITIONS = ["cr2004", "modern"]



def table(edition: str, battlefield: list, *, step: str = "beginning_of_combat",
          hand_a=(), hand_b=(), pool_a=None, pool_b=None, life_b: int = 20) -> Table:
    players = {"A": {"hand": list(hand_a), "mana_pool": pool_a or {},
                     "library": ["Island"] * 5},
               "B": {"hand": list(hand_b), "mana_pool": pool_b or {},
                     "library": ["Island"] * 5, "life": life_b}}
    return Table(edition, given(step, players=players, battlefield=battlefield))


def to_attackers(t: Table) -> None:
    t.pass_priority()
    t.pass_priority()
    assert t.obs()["pending"]["decision"] == "declare_attackers"


@pytest.mark.parametrize("edition", EDITIONS)
def test_only_untapped_unsick_creatures_attack_haste_ignores_sickness(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("new", "Hill Giant", controller="A", sick=True),
                        h("tapped", "Savannah Lions", controller="A", tapped=True),
                        h("gob", "Raging Goblin", controller="A", sick=True),
                        h("theirs", "Grizzly Bears", controller="B")])
    to_attackers(t)
    attackers = {a["card"] for a in t.legal() if a["action"] == "attack"}
    assert attackers == {t.id("bears"), t.id("gob")}
    assert t.illegal("attack", "A", card="new") == "not_an_option"


@pytest.mark.parametrize("edition", EDITIONS)
def test_attacking_taps_and_unblocked_damage_equals_power(edition):
    t = table(edition, [h("giant", "Hill Giant", controller="A"),
                        h("lions", "Savannah Lions", controller="A")])
    to_attackers(t)
    t.do("attack", "A", card="giant")
    t.do("attack", "A", card="lions")
    t.do("done", "A")
    assert t.find("giant")["tapped"] and t.find("giant")["attacking"]
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 15


@pytest.mark.parametrize("edition", EDITIONS)
def test_flying_attacker_can_be_blocked_only_by_flying(edition):
    t = table(edition, [h("thopter", "Ornithopter", controller="A"),
                        h("bears", "Grizzly Bears", controller="A"),
                        h("wall", "Hill Giant", controller="B"),
                        h("bird", "Ornithopter", controller="B")])
    to_attackers(t)
    t.do("attack", "A", card="thopter")
    t.do("attack", "A", card="bears")
    t.do("done", "A")
    t.pass_priority()
    t.pass_priority()
    blocks = {(a["card"], a["attacker"]) for a in t.legal() if a["action"] == "block"}
    assert blocks == {(t.id("wall"), t.id("bears")), (t.id("bird"), t.id("thopter")),
                      (t.id("bird"), t.id("bears"))}


@pytest.mark.parametrize("edition", EDITIONS)
def test_blocked_creatures_deal_damage_to_each_other(edition):
    t = table(edition, [h("giant", "Hill Giant", controller="A"),
                        h("bears", "Grizzly Bears", controller="B")])
    to_attackers(t)
    t.attack("giant")
    t.block({"bears": "giant"})
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert t.find("giant")["damage"] == 2
    assert t.player("B")["life"] == 20


def _giant_blocked_by_lions_and_bears(edition: str) -> Table:
    t = table(edition, [h("giant", "Hill Giant", controller="A"),
                        h("lions", "Savannah Lions", controller="B"),
                        h("bears", "Grizzly Bears", controller="B")])
    t.attack("giant")
    t.advance("declare_blockers")
    t.do("block", "B", card="lions", attacker="giant")
    t.do("block", "B", card="bears", attacker="giant")
    t.do("done", "B")
    return t


@pytest.mark.parametrize("edition", ["modern"])
def test_two_blockers_each_given_lethal_damage_die_together(edition):
    # No damage assignment order (modern 510.1c since 2024-11-08): nobody orders the
    # blockers, and A divides the 3 damage as A chooses.
    t = _giant_blocked_by_lions_and_bears(edition)
    assert t.obs()["pending"] is None
    t.advance("combat_damage")
    assert t.obs()["pending"]["decision"] == "assign_combat_damage"
    t.do("choose", "A", choice=_division(t, ("bears", 2), ("lions", 1)))
    if edition == "modern":
        # Both of B's creatures die at once: B orders them into B's graveyard (404.3).
        assert t.obs()["pending"] == {"player": "B", "decision": "order_graveyard", "count": 2}
        t.do("choose", "B", choice="bears")
        assert t.cards(t.player("B")["graveyard"]) == ["Savannah Lions", "Grizzly Bears"]
    t.advance("end_of_combat")
    assert sorted(t.cards(t.player("B")["graveyard"])) == ["Grizzly Bears", "Savannah Lions"]
    assert t.cards(t.player("A")["graveyard"]) == ["Hill Giant"]  # 2 + 2 damage


def test_2004_rule_deaths_at_once_are_not_ordered_by_their_owner():
    # 2004 217.4c lets the owner order cards an *effect* puts into a graveyard at once;
    # creatures destroyed by lethal damage (a rule) go in without a choice.
    t = _giant_blocked_by_lions_and_bears("cr2004")
    assert t.obs()["pending"] is None  # 2004: no damage assignment order (310.2c)
    t.advance("combat_damage")
    t.do("choose", "A", choice=_division(t, ("lions", 1), ("bears", 2)))
    t.advance("end_of_combat")
    assert sorted(t.cards(t.player("B")["graveyard"])) == ["Grizzly Bears", "Savannah Lions"]


def test_2004_combat_damage_goes_on_the_stack_and_players_get_priority():
    t = table("cr2004", [h("bears", "Grizzly Bears", controller="A"),
                         h("giant", "Hill Giant", controller="B")],
              hand_a=[h("growth", "Giant Growth")], pool_a={"G": 1})
    to_attackers(t)
    t.attack("bears")
    t.block({"giant": "bears"})
    t.advance("combat_damage")
    o = t.obs()
    assert [s["kind"] for s in o["stack"]] == ["combat_damage"]
    assert o["turn"]["priority"] == "A"
    assert t.find("giant")["damage"] == 0  # assigned, not yet dealt
    # Pumping now does not change the damage already assigned (2 to the Giant).
    t.do("cast", "A", card="growth", targets=["bears"])
    t.do("pass", "A")
    t.do("pass", "B")
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.find("giant")["damage"] == 2
    assert t.find("bears")["damage"] == 3
    assert t.find("bears")["toughness"] == 5


def test_2004_combat_damage_is_dealt_even_if_the_source_leaves_play():
    t = table("cr2004", [h("giant", "Hill Giant", controller="A")],
              hand_b=[h("un", "Unsummon")], pool_b={"U": 1})
    t.attack("giant")
    t.advance("combat_damage")
    t.do("pass", "A")
    t.do("cast", "B", card="un", targets=["giant"])
    t.do("pass", "B")
    t.do("pass", "A")
    assert t.cards(t.player("A")["hand"]) == ["Hill Giant"]
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.player("B")["life"] == 17


def test_modern_combat_damage_is_dealt_at_once_without_the_stack():
    t = table("modern", [h("bears", "Grizzly Bears", controller="A")])
    t.attack("bears")
    t.advance("combat_damage")
    o = t.obs()
    assert o["stack"] == []
    assert o["players"]["B"]["life"] == 18
    assert o["turn"]["priority"] == "A"


@pytest.mark.parametrize("edition", EDITIONS)
def test_combat_status_ends_with_the_combat_phase(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A")])
    t.attack("bears")
    t.advance("postcombat_main")
    bears = t.find("bears")
    assert bears["attacking"] is False and bears["tapped"] is True


@pytest.mark.parametrize("edition", EDITIONS)
def test_lethal_combat_damage_ends_the_game(edition):
    t = table(edition, [h("giant", "Hill Giant", controller="A")], life_b=3)
    t.attack("giant")
    for _ in range(6):
        if t.obs()["result"]["over"]:
            break
        t.pass_priority()
    assert t.obs()["result"] == {"over": True, "winners": ["A"], "losers": ["B"],
                                 "draw": False, "reason": "life"}
    assert t.legal() == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_negative_power_deals_no_damage(edition):
    t = table(edition, [h("giant", "Hill Giant", controller="A"),
                        h("bears", "Grizzly Bears", controller="B")])
    # A -5/-0 effect (the reference engine's own primitive; Weakness-style cards come later).
    t.engine.game.pump_until_end_of_turn(t.id("giant"), -5, 0)
    assert t.find("giant")["power"] == -2
    to_attackers(t)
    t.attack("giant")
    t.block({"bears": "giant"})
    t.advance("end_of_combat")
    assert t.find("bears")["damage"] == 0
    assert t.find("giant")["damage"] == 2


# -- creatures removed from combat (regeneration, phasing) -----------------------------------
# Modern 506.4 (outside the seeds): a creature that regenerates, phases out, leaves the
# battlefield or changes control is removed from combat; 510.1c-d: a blocked creature with no
# creature blocking it assigns no combat damage (all of it to the player with trample), and a
# blocker whose attacker is gone assigns none. The 2004 rules agree (306.2, 310.2c-d, 502.9c,
# outside the seed; a phased-out permanent is out of play, 217.8c).

_CARDS = {"skel": "Drudge Skeletons", "giant": "Hill Giant", "bears": "Grizzly Bears"}


def _regenerated_in_combat(edition: str, attacker: str, blocker: str, *,
                           rancor: bool = False) -> Table:
    """A's ``attacker`` blocked by B's ``blocker``, one of them "skel", a Drudge Skeletons: its
    controller gives it a shield, then the other player's Lightning Bolt destroys it:
    regenerated, it is removed from combat in the declare blockers step."""
    skel_side = "A" if attacker == "skel" else "B"
    bolt_side = "B" if skel_side == "A" else "A"
    battlefield = [h(attacker, _CARDS[attacker], controller="A"),
                   h(blocker, _CARDS[blocker], controller="B"),
                   h("swamp", "Swamp", controller=skel_side),
                   h("mountain", "Mountain", controller=bolt_side)]
    if rancor:
        battlefield.append(h("rancor", "Rancor", controller="A", attached_to=attacker))
    bolt = [h("bolt", "Lightning Bolt")]
    t = table(edition, battlefield, hand_a=bolt if bolt_side == "A" else (),
              hand_b=bolt if bolt_side == "B" else ())
    t.attack(attacker)
    t.block({blocker: attacker})
    if skel_side == "B":
        t.do("pass", "A")
    t.do("activate", skel_side, card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    if bolt_side == "B":
        t.do("pass", "A")
    t.do("cast", bolt_side, card="bolt", targets=["skel"], pay_with=["mountain"])
    resolve(t)
    skel = t.find("skel")
    assert skel["damage"] == 0 and skel["tapped"] and skel["attacking"] is False
    assert skel["blocking"] is None and t.obs()["turn"]["step"] == "declare_blockers"
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_regenerated_attacker_is_dealt_no_combat_damage(edition):
    t = _regenerated_in_combat(edition, "skel", "giant")
    t.advance("end_of_combat")
    assert t.find("skel") in t.obs()["battlefield"]  # the Giant's 3 damage is not dealt
    assert t.find("giant")["damage"] == 0 and t.player("B")["life"] == 20
    assert not any(e["type"] == "damage" and e["combat"] for e in t.events)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_regenerated_blocker_is_assigned_no_damage_and_the_attacker_deals_none(edition):
    t = _regenerated_in_combat(edition, "giant", "skel")
    t.advance("end_of_combat")
    # The Giant stays blocked with no creature blocking it: it assigns no combat damage.
    assert t.find("skel") in t.obs()["battlefield"]
    assert t.player("B")["life"] == 20 and t.find("giant")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trampler_whose_blocker_regenerated_assigns_all_its_damage_to_the_player(edition):
    t = _regenerated_in_combat(edition, "bears", "skel", rancor=True)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 16  # all 4 (Bears with Rancor), none to the Skeletons
    assert t.find("skel") in t.obs()["battlefield"]


def _efreet_table(edition: str, *, efreet_side: str) -> Table:
    islands = [h("island-1", "Island", controller=efreet_side),
               h("island-2", "Island", controller=efreet_side)]
    if efreet_side == "A":
        return table(edition, [h("efreet", "Rainbow Efreet", controller="A"), *islands])
    return table(edition, [h("bears", "Grizzly Bears", controller="A"),
                           h("rancor", "Rancor", controller="A", attached_to="bears"),
                           h("efreet", "Rainbow Efreet", controller="B"), *islands])


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_phased_out_attacker_deals_no_combat_damage(edition):
    t = _efreet_table(edition, efreet_side="A")
    t.attack("efreet")
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20
    # Back in A's next turn, it is not attacking: with no attacker declared, no damage.
    t.advance("postcombat_main", turn=5)
    assert t.player("B")["life"] == 20
    assert t.find("efreet")["attacking"] is False


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_phased_out_blocker_neither_absorbs_trample_damage_nor_deals_damage(edition):
    t = _efreet_table(edition, efreet_side="B")
    t.attack("bears")
    t.block({"efreet": "bears"})
    t.do("pass", "A")
    t.do("activate", "B", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 16  # all 4 trample damage to B
    assert t.find("bears")["damage"] == 0 and t.cards(t.player("A")["graveyard"]) == []
    t.advance("upkeep", turn=4)  # the Efreet phases in during B's untap step
    assert t.find("efreet")["blocking"] is None


def test_2004_damage_on_the_stack_is_dealt_after_its_creatures_leave_combat():
    # 2004: combat damage assigned and put on the stack is dealt as it resolves (217.6e), even
    # by and to a creature removed from combat meanwhile (here by regenerating).
    t = table("cr2004", [h("giant", "Hill Giant", controller="A"),
                         h("mountain", "Mountain", controller="A"),
                         h("skel", "Drudge Skeletons", controller="B"),
                         h("swamp-1", "Swamp", controller="B"),
                         h("swamp-2", "Swamp", controller="B")],
              hand_a=[h("bolt", "Lightning Bolt")])
    t.attack("giant")
    t.block({"skel": "giant"})
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp-1"])
    resolve(t)
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp-2"])
    resolve(t)
    t.do("cast", "A", card="bolt", targets=["skel"], pay_with=["mountain"])
    resolve(t)
    assert t.find("skel")["blocking"] is None  # regenerated: out of combat
    resolve(t)  # the combat damage
    assert t.obs()["stack"] == []
    assert t.find("giant")["damage"] == 1  # the Skeletons' damage, still dealt
    assert sum(e["type"] == "regenerate" for e in t.events) == 2  # the Giant's 3 too
    assert t.find("skel") in t.obs()["battlefield"]


# -- the attacking player divides combat damage (no damage assignment order) -----------------
# Modern 510.1c and 702.19b (since the Foundations update of 2024-11-08); the 2004 combat rules
# (310.2c, 502.9b, outside the seed) are the same: any division among the blockers, and with
# trample damage to the player only once every blocker has lethal damage.


def _bears_blocked_by_two_elves(edition: str) -> Table:
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("elf-1", "Llanowar Elves", controller="B"),
                        h("elf-2", "Llanowar Elves", controller="B")])
    t.attack("bears")
    t.block({"elf-1": "bears", "elf-2": "bears"})
    t.advance("combat_damage")
    return t


def _division(t: Table, *pairs: tuple[str, int]) -> list[list]:
    return [[t.id(who), amount] for who, amount in pairs]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_attacking_player_divides_damage_freely_among_blockers(edition):
    t = _bears_blocked_by_two_elves(edition)
    assert t.obs()["pending"] == {
        "player": "A", "decision": "assign_combat_damage", "attacker": t.id("bears"),
        "power": 2, "blockers": [{"id": t.id("elf-1"), "lethal": 1},
                                 {"id": t.id("elf-2"), "lethal": 1}],
        "trample": False, "defender": "B"}
    listed = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    assert listed == [_division(t, ("elf-1", n), ("elf-2", 2 - n)) for n in (0, 1, 2)]
    # All the power, no more, to the blockers only, each named once.
    for wrong in [(("elf-1", 1), ("elf-2", 0)), (("elf-1", 2), ("elf-2", 1)),
                  (("elf-1", 2),), (("elf-1", 1), ("elf-1", 1)),
                  (("elf-1", 0), ("elf-2", 1), ("B", 1))]:
        assert t.illegal("choose", "A", choice=_division(t, *wrong)) == "not_an_option"
    assert t.illegal("choose", "B", choice=_division(t, ("elf-1", 2), ("elf-2", 0)))
    # The pairs may come in any order: a division is a set.
    t.do("choose", "A", choice=_division(t, ("elf-2", 2), ("elf-1", 0)))
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves"]
    assert t.find("elf-1") in t.obs()["battlefield"] and t.find("elf-1")["damage"] == 0
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]  # 1 + 1 damage


@pytest.mark.parametrize("edition", EDITIONS)
def test_damage_is_divided_as_the_combat_damage_step_begins(edition):
    t = _bears_blocked_by_two_elves(edition)
    assert t.obs()["turn"]["priority"] is None and t.obs()["stack"] == []
    t.do("choose", "A", choice=_division(t, ("elf-1", 1), ("elf-2", 1)))
    o = t.obs()
    if edition == "cr2004":  # assigned as it goes on the stack, dealt when it resolves
        assert [s["kind"] for s in o["stack"]] == ["combat_damage"]
        assert t.find("elf-1")["damage"] == 0
        resolve(t)
    else:  # dealt at once, before anyone gets priority
        assert o["stack"] == [] and o["turn"]["priority"] == "A"
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves", "Llanowar Elves"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trampler_divides_its_damage_between_blocker_and_player(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("rancor", "Rancor", controller="A", attached_to="bears"),
                        h("elf", "Llanowar Elves", controller="B")])
    t.attack("bears")
    t.block({"elf": "bears"})
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    assert pending["decision"] == "assign_combat_damage" and pending["trample"] is True
    listed = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    assert listed == [_division(t, ("elf", n), ("B", 4 - n)) for n in (1, 2, 3, 4)]
    assert t.illegal("choose", "A", choice=_division(t, ("elf", 0), ("B", 4)))
    t.do("choose", "A", choice=_division(t, ("elf", 2), ("B", 2)))
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 18
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_division_with_one_possible_answer_is_not_asked(edition):
    # Rancor on an Ornithopter (2/2 trample) blocked by an Ornithopter (lethal 2): all 2 damage
    # must go to the blocker. A 1-power attacker blocked by one 0/2: all to it.
    t = table(edition, [h("thopter", "Ornithopter", controller="A"),
                        h("rancor", "Rancor", controller="A", attached_to="thopter"),
                        h("elf", "Llanowar Elves", controller="A"),
                        h("bird-1", "Ornithopter", controller="B"),
                        h("bird-2", "Ornithopter", controller="B")])
    t.attack("thopter", "elf")
    t.block({"bird-1": "thopter", "bird-2": "elf"})
    t.advance("combat_damage")
    assert t.obs()["pending"] is None
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Ornithopter"]  # bird-1
    assert t.find("bird-2")["damage"] == 1
    assert t.player("B")["life"] == 20


def test_damage_divisions_respect_lethal_damage_only_with_trample():
    from reference_engine.combat import damage_divisions

    # Two 1/1 blockers of a 2-power attacker: any division, (0, 2) too (modern 510.1c).
    assert damage_divisions(2, [1, 1], False) == [(0, 2), (1, 1), (2, 0)]
    # Trample: the player's share (last) only once every blocker has lethal damage.
    assert damage_divisions(4, [1], True) == [(1, 3), (2, 2), (3, 1), (4, 0)]
    assert damage_divisions(3, [2, 2], True) == [(0, 3, 0), (1, 2, 0), (2, 1, 0), (3, 0, 0)]
    assert damage_divisions(3, [0], True) == [(0, 3), (1, 2), (2, 1), (3, 0)]  # lethal 0
    # No blocker left: nothing, or everything to the player with trample.
    assert damage_divisions(3, [], False) == [] and damage_divisions(3, [], True) == [(3,)]
    assert damage_divisions(0, [1], True) == [] and damage_divisions(-2, [1], False) == []
    # 6 trample damage, three 1/1s: 20 with each blocker at least 1 (the other 3 anywhere
    # among four recipients), 18 with some blocker below lethal (all 6 among the blockers).
    assert len(damage_divisions(6, [1, 1, 1], True)) == 20 + 18


@pytest.mark.parametrize("edition", EDITIONS)
def test_without_a_damage_assignment_order_damage_is_divided_freely(edition):
    # The 2004 rule (310.2c, outside the seed), and the modern one since 2024-11-08 (510.1c):
    # no order, any division.
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("elf-1", "Llanowar Elves", controller="B"),
                        h("elf-2", "Llanowar Elves", controller="B")])
    t.attack("bears")
    t.block({"elf-1": "bears", "elf-2": "bears"})
    assert t.obs()["pending"] is None  # no order to choose
    t.advance("combat_damage")
    listed = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    assert listed == [_division(t, ("elf-1", n), ("elf-2", 2 - n)) for n in (0, 1, 2)]
    t.do("choose", "A", choice=_division(t, ("elf-1", 0), ("elf-2", 2)))
    t.advance("end_of_combat")
    assert t.find("elf-1") in t.obs()["battlefield"]
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves"]
