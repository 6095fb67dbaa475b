"""Combat: who may attack and block, damage, and the 2004 combat-damage stack."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, given, h

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


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_blockers_are_ordered_and_lethal_damage_goes_first(edition):
    t = _giant_blocked_by_lions_and_bears(edition)
    assert t.obs()["pending"] == {"player": "A", "decision": "order_blockers",
                                  "attacker": t.id("giant"), "so_far": []}
    t.do("order_blockers", "A", attacker="giant", order=["bears", "lions"])
    if edition == "modern":
        # Both of B's creatures die at once: B orders them into B's graveyard (404.3).
        t.advance("combat_damage")
        assert t.obs()["pending"] == {"player": "B", "decision": "order_graveyard", "count": 2}
        t.do("choose", "B", choice="bears")
        assert t.cards(t.player("B")["graveyard"]) == ["Savannah Lions", "Grizzly Bears"]
    t.advance("end_of_combat")
    # 3 damage: 2 (lethal) to the Bears first, the remaining 1 to the Lions (toughness 1).
    assert sorted(t.cards(t.player("B")["graveyard"])) == ["Grizzly Bears", "Savannah Lions"]
    assert t.cards(t.player("A")["graveyard"]) == ["Hill Giant"]  # 2 + 2 damage


def test_2004_rule_deaths_at_once_are_not_ordered_by_their_owner():
    # 2004 217.4c lets the owner order cards an *effect* puts into a graveyard at once;
    # creatures destroyed by lethal damage (a rule) go in without a choice.
    t = _giant_blocked_by_lions_and_bears("cr2004")
    t.do("order_blockers", "A", attacker="giant", order=["bears", "lions"])
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
