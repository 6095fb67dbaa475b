"""Triggered abilities: beginning of steps, enters and dies, controllers, APNAP order, delayed
triggers, leaves-play triggers finding the card."""

from __future__ import annotations

import pytest

from tests.enginekit import h, table

EDITIONS = ["cr2004", "modern"]




def resolve_all(t) -> None:
    while t.obs()["stack"]:
        t.pass_priority()


@pytest.mark.parametrize("edition", EDITIONS)
def test_howling_mine_triggers_at_each_draw_step_while_untapped(edition):
    t = table(edition, "end", active="B", battlefield=[h("mine", "Howling Mine",
                                                         controller="B")])
    t.advance("draw", turn=4)
    o = t.obs()
    assert [s["card"] for s in o["stack"]] == ["Howling Mine"]  # after the normal draw
    assert len(o["players"]["A"]["hand"]) == 1
    resolve_all(t)
    assert len(t.player("A")["hand"]) == 2  # "each player's draw step": A's too
    t.advance("upkeep", turn=5)
    t.engine.game.objects[t.id("mine")].tapped = True
    t.advance("draw", turn=5)
    assert t.obs()["stack"] == []  # the "if untapped" condition


@pytest.mark.parametrize("edition", EDITIONS)
def test_phyrexian_arena_at_its_controllers_upkeep_only(edition):
    t = table(edition, "end", active="B", battlefield=[h("arena", "Phyrexian Arena",
                                                         controller="A")])
    t.advance("upkeep", turn=4)
    assert t.obs()["stack"][0]["controller"] == "A"
    resolve_all(t)
    a = t.player("A")
    assert (a["life"], len(a["hand"])) == (19, 1)
    t.advance("upkeep", turn=5)
    assert t.obs()["stack"] == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_gravedigger_returns_a_chosen_creature_card_may(edition):
    t = table(edition, a={"hand": [h("gd", "Gravedigger")], "mana_pool": {"B": 4},
                          "graveyard": [h("bears", "Grizzly Bears"), h("bolt", "Lightning Bolt"),
                                        h("giant", "Hill Giant")]},
              b={"graveyard": ["Savannah Lions"]})
    t.do("cast", "A", card="gd")
    t.pass_priority()
    t.pass_priority()
    pending = t.obs()["pending"]
    assert pending["decision"] == "choose_targets"
    choices = {tuple(x["object"] for x in a["targets"]) for a in t.legal()
               if a["action"] == "choose"}
    assert choices == {(t.id("bears"),), (t.id("giant"),)}  # creature cards in *your* yard
    t.do("choose", "A", targets=["giant"])
    t.pass_priority()
    t.pass_priority()
    assert t.obs()["pending"]["decision"] == "may"
    t.do("choose", "A", choice=True)
    assert t.cards(t.player("A")["hand"]) == ["Hill Giant"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_trigger_controller_is_the_sources_controller(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"G": 2}},
              battlefield=[h("warden", "Soul Warden", controller="B", owner="A")])
    t.do("cast", "A", card="bears")
    t.pass_priority()
    t.pass_priority()
    (trigger,) = t.obs()["stack"]
    assert trigger["controller"] == "B"  # controlled by B, though A owns the Warden
    resolve_all(t)
    assert (t.player("A")["life"], t.player("B")["life"]) == (20, 21)


@pytest.mark.parametrize("edition", EDITIONS)
def test_simultaneous_triggers_go_on_the_stack_in_apnap_order(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"G": 2}},
              battlefield=[h("wa", "Soul Warden", controller="A"),
                           h("wb", "Soul Warden", controller="B")])
    t.do("cast", "A", card="bears")
    t.pass_priority()
    t.pass_priority()
    stack = t.obs()["stack"]  # top first
    assert [s["controller"] for s in stack] == ["B", "A"]  # A's went on first, resolves last
    t.pass_priority()
    t.pass_priority()
    assert (t.player("A")["life"], t.player("B")["life"]) == (20, 21)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_player_orders_their_own_simultaneous_triggers(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"G": 2}},
              battlefield=[h("w1", "Soul Warden", controller="A"),
                           h("w2", "Soul Warden", controller="A")])
    t.do("cast", "A", card="bears")
    t.pass_priority()
    t.pass_priority()
    pending = t.obs()["pending"]
    assert pending["decision"] == "order_triggers"
    key_of = {x["source"]: x["id"] for x in pending["triggers"]}
    assert set(key_of) == {t.id("w1"), t.id("w2")}
    t.do("choose", "A", choice=key_of[t.id("w2")])  # w2's trigger goes on the stack first
    assert [s["source"] for s in t.obs()["stack"]] == [t.id("w1"), t.id("w2")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_sneak_attack_creature_has_haste_and_is_sacrificed_by_a_delayed_trigger(edition):
    t = table(edition, a={"hand": [h("giant", "Hill Giant")], "mana_pool": {"R": 1}},
              battlefield=[h("sneak", "Sneak Attack", controller="A")])
    t.do("activate", "A", card="sneak", ability=0)
    t.pass_priority()
    t.pass_priority()
    t.do("choose", "A", choice=t.id("giant"))
    giant = t.find("giant")
    assert giant["sick"] is True
    t.advance("declare_attackers")
    assert {"action": "attack", "player": "A", "card": t.id("giant")} in t.legal()  # haste
    t.do("done", "A")
    t.advance("end")
    # The delayed trigger's source is Sneak Attack, the source of the ability that made it,
    # not the creature (modern 603.7e; followed in 2004, whose rules are silent).
    assert [s["card"] for s in t.obs()["stack"]] == ["Sneak Attack"]
    resolve_all(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Hill Giant"]
    t.advance("end", turn=5)
    assert t.obs()["stack"] == []  # it triggered once


@pytest.mark.parametrize("edition", EDITIONS)
def test_rancor_returns_to_hand_when_put_into_a_graveyard_from_play(edition):
    t = table(edition, a={"hand": [h("rancor", "Rancor")], "mana_pool": {"G": 1, "B": 2}},
              b={"hand": [h("terror", "Terror")], "mana_pool": {"B": 2}},
              battlefield=[h("bears", "Grizzly Bears", controller="A")])
    t.do("cast", "A", card="rancor", targets=["bears"])
    t.pass_priority()
    t.pass_priority()
    bears = t.find("bears")
    assert (bears["power"], bears["toughness"]) == (4, 2)
    t.do("pass", "A")
    t.do("cast", "B", card="terror", targets=["bears"])
    t.pass_priority()
    t.pass_priority()
    # The Aura went to the graveyard as a state-based action, and its trigger found it there.
    assert [s["card"] for s in t.obs()["stack"]] == ["Rancor"]
    resolve_all(t)
    assert t.cards(t.player("A")["hand"]) == ["Rancor"]


def test_leaves_play_trigger_finds_the_card_in_a_hidden_zone_only_in_2004():
    for edition, found in (("cr2004", True), ("modern", False)):
        t = table(edition, a={"hand": ["Forest"]})
        game = t.engine.game
        card = game.players["A"].hand[0]
        assert (game.find_moved({"subject": card}) is card) is found
