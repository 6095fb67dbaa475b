"""Auras, Equipment, control change, tokens and counters."""

from __future__ import annotations

import pytest

from tests.enginekit import h, resolve, table

EDITIONS = ["cr2004", "modern"]





# -- Auras -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_aura_targets_what_it_can_enchant_and_attaches_on_resolution(edition):
    t = table(edition, a={"hand": [h("pac", "Pacifism"), h("ep", "Evil Presence")],
                          "mana_pool": {"W": 2, "B": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("forest", "Forest", controller="B")])
    targets = {tuple(x["object"] for x in a["targets"]) for a in t.legal()
               if a["action"] == "cast" and a["card"] == t.id("pac")}
    assert targets == {(t.id("bears"),)}
    assert t.illegal("cast", "A", card="pac", targets=["forest"]) == "illegal_target"
    t.do("cast", "A", card="pac", targets=["bears"])
    resolve(t)
    assert t.find("pac")["attached_to"] == t.id("bears")
    assert t.find("pac")["controller"] == "A"
    t.advance("declare_attackers", turn=4)
    assert not [a for a in t.legal() if a["action"] == "attack"]  # can't attack


@pytest.mark.parametrize("edition", EDITIONS)
def test_aura_goes_to_its_owners_graveyard_when_the_creature_leaves(edition):
    t = table(edition, a={"hand": [h("un", "Unsummon")], "mana_pool": {"U": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("hs", "Holy Strength", controller="B", owner="A",
                             attached_to="bears")])
    t.do("cast", "A", card="un", targets=["bears"])
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Holy Strength", "Unsummon"]  # 212.4f


@pytest.mark.parametrize("edition", EDITIONS)
def test_aura_put_into_play_without_being_cast_chooses_or_stays(edition):
    t = table(edition, a={"hand": [h("rep", "Replenish")], "mana_pool": {"W": 4},
                          "graveyard": [h("pac", "Pacifism"), h("anthem", "Glorious Anthem")]})
    t.do("cast", "A", card="rep")
    resolve(t)
    # No creature in play: Pacifism stays in the graveyard; the Anthem returns (212.4e).
    assert t.cards(t.player("A")["graveyard"]) == ["Replenish", "Pacifism"]
    assert [o["card"] for o in t.obs()["battlefield"]] == ["Glorious Anthem"]
    t = table(edition, a={"hand": [h("rep", "Replenish")], "mana_pool": {"W": 4},
                          "graveyard": [h("pac", "Pacifism")]},
              battlefield=[h("b1", "Grizzly Bears", controller="B"),
                           h("b2", "Hill Giant", controller="B")])
    t.do("cast", "A", card="rep")
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_attachment"
    t.do("choose", "A", choice=t.id("b2"))
    assert t.find("pac")["attached_to"] == t.id("b2")


def test_2004_local_enchantment_that_becomes_a_creature_falls_off():
    t = table("cr2004", battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                     h("hs", "Holy Strength", controller="A",
                                       attached_to="bears"),
                                     h("opal", "Opalescence", controller="A")])
    # 2004 Opalescence animates local enchantments too; a local enchantment that is a
    # creature can't enchant a creature (212.4g).
    assert t.cards(t.player("A")["graveyard"]) == ["Holy Strength"]
    t = table("modern", battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                     h("hs", "Holy Strength", controller="A",
                                       attached_to="bears"),
                                     h("opal", "Opalescence", controller="A")])
    assert t.find("hs")["attached_to"] == t.id("bears")  # modern Opalescence skips Auras


@pytest.mark.parametrize("edition", EDITIONS)
def test_granted_ability_is_used_by_the_enchanted_creatures_controller(edition):
    t = table(edition, battlefield=[h("bears", "Grizzly Bears", controller="B"),
                                    h("study", "Hermetic Study", controller="A",
                                      attached_to="bears")])
    assert not [a for a in t.legal() if a["action"] == "activate"]  # not A's to use
    t.do("pass", "A")
    t.do("activate", "B", card="bears", ability=0, targets=["A"])
    resolve(t)
    assert t.player("A")["life"] == 19


# -- Equipment -------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_equip_at_sorcery_speed_and_unattach_when_the_creature_leaves(edition):
    t = table(edition, a={"mana_pool": {"C": 3}, "hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("split", "Bonesplitter", controller="A"),
                           h("bears", "Grizzly Bears", controller="A"),
                           h("theirs", "Hill Giant", controller="B")])
    equips = {tuple(x["object"] for x in a["targets"]) for a in t.legal()
              if a["action"] == "activate" and a["card"] == t.id("split")}
    assert equips == {(t.id("bears"),)}  # only creatures you control (212.2g)
    t.do("activate", "A", card="split", ability=0, targets=["bears"])
    resolve(t)
    assert (t.find("bears")["power"], t.find("split")["attached_to"]) == (4, t.id("bears"))
    t.advance("beginning_of_combat")
    reason = t.illegal("activate", "A", card="split", ability=0, targets=["bears"])
    assert reason == "not_main_phase"  # sorcery speed (212.7e)
    t.engine.game.destroy(t.id("bears"))
    t.pass_priority()
    assert t.find("split")["attached_to"] is None  # stays in play, unattached (212.2i)


@pytest.mark.parametrize("edition", EDITIONS)
def test_equipment_control_is_independent_of_the_creatures(edition):
    t = table(edition, a={"hand": [h("magic", "Control Magic")], "mana_pool": {"U": 4}},
              battlefield=[h("bola", "Leonin Bola", controller="B", attached_to="lions"),
                           h("lions", "Savannah Lions", controller="B"),
                           h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="magic", targets=["lions"])
    resolve(t)
    assert t.find("lions")["controller"] == "A"
    assert t.find("bola")["controller"] == "B" and t.find("bola")["attached_to"] == t.id(
        "lions")
    assert t.find("lions")["sick"] is True  # a new controller: summoning sick (212.3d)
    # The granted tap ability belongs to the creature's controller, A (212.2k) - but it
    # needs {T} and the Lions just changed control.
    t.advance("upkeep", turn=5)
    t.do("activate", "A", card="lions", ability=0, targets=["bears"])
    resolve(t)
    assert t.find("bears")["tapped"] is True
    assert t.find("bola")["attached_to"] is None  # unattached as a cost


@pytest.mark.parametrize("edition", EDITIONS)
def test_stolen_creature_goes_to_its_owners_graveyard(edition):
    t = table(edition, a={"hand": [h("magic", "Control Magic")], "mana_pool": {"U": 4}},
              b={"hand": [h("shock", "Shock")], "mana_pool": {"R": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="magic", targets=["bears"])
    resolve(t)
    t.do("pass", "A")
    t.do("cast", "B", card="shock", targets=["bears"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears", "Shock"]
    assert t.cards(t.player("A")["graveyard"]) == ["Control Magic"]


# -- tokens ----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_token_makers_name_type_and_characteristics(edition):
    t = table(edition, a={"hand": [h("alarm", "Raise the Alarm"), h("scouts", "Goblin Scouts")],
                          "mana_pool": {"W": 2, "R": 5}})
    t.do("cast", "A", card="alarm", payment={"W": 2})
    resolve(t)
    t.do("cast", "A", card="scouts", payment={"R": 5})
    resolve(t)
    tokens = t.obs()["battlefield"]
    assert [(o["card"], o["subtypes"], o["colors"], o["token"]) for o in tokens] == (
        [("Soldier", ["Soldier"], ["W"], True)] * 2
        + [("Goblin Scout", ["Goblin", "Scout"], ["R"], True)] * 3)
    assert all(o["mana_value"] == 0 for o in tokens)


@pytest.mark.parametrize(("edition", "owner"), [("cr2004", "A"), ("modern", "B")])
def test_token_owner_per_edition(edition, owner):
    t = table(edition, battlefield=[h("orchard", "Forbidden Orchard", controller="A")])
    t.do("activate", "A", card="orchard", ability=0)
    t.do("choose", "A", choice="G")
    resolve(t)
    (spirit,) = [o for o in t.obs()["battlefield"] if o["token"]]
    assert spirit["controller"] == "B"
    # 2004: owned by the controller of the ability that made it (200.4a); modern: by the
    # player who created it (111.2, outside the seeds).
    assert spirit["owner"] == owner


@pytest.mark.parametrize("edition", EDITIONS)
def test_token_outside_play_ceases_to_exist_and_never_returns(edition):
    t = table(edition, a={"hand": [h("alarm", "Raise the Alarm"), h("un", "Unsummon")],
                          "mana_pool": {"W": 2, "U": 1}})
    t.do("cast", "A", card="alarm", payment={"W": 2})
    resolve(t)
    token = t.obs()["battlefield"][0]["id"]
    t.do("cast", "A", card="un", targets=[token])
    resolve(t)
    assert t.player("A")["hand"] == []  # it went to the hand, then ceased to exist (216.3)
    kinds = [e["type"] for e in t.events]
    assert "cease_to_exist" in kinds
    assert len([o for o in t.obs()["battlefield"] if o["token"]]) == 1


# -- counters --------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_triskelion_enters_with_counters_and_removes_them_as_a_cost(edition):
    t = table(edition, a={"mana_pool": {"C": 6}, "hand": [h("trisk", "Triskelion")]})
    t.do("cast", "A", card="trisk")
    resolve(t)
    trisk = t.find("trisk")
    assert (trisk["counters"], trisk["power"], trisk["toughness"]) == ({"+1/+1": 3}, 4, 4)
    t.do("activate", "A", card="trisk", ability=0, targets=["B"])
    assert t.find("trisk")["power"] == 3  # the counter is gone before the ability resolves
    resolve(t)
    assert t.player("B")["life"] == 19


@pytest.mark.parametrize("edition", EDITIONS)
def test_kicker_is_remembered_by_the_permanent(edition):
    t = table(edition, a={"mana_pool": {"G": 7}, "hand": [h("k1", "Kavu Titan"),
                                                        h("k2", "Kavu Titan")]})
    t.do("cast", "A", card="k1", kicked=True)
    resolve(t)
    kicked = t.find("k1")
    assert (kicked["power"], kicked["counters"]) == (5, {"+1/+1": 3})
    t.do("cast", "A", card="k2")
    resolve(t)
    assert (t.find("k2")["power"], t.find("k2")["counters"]) == (2, {})
    game = t.engine.game
    assert game.has(game.objects[t.id("k1")], "trample")
    assert not game.has(game.objects[t.id("k2")], "trample")


def test_poison_counters_from_swamp_mosquito_and_from_infect():
    t = table("cr2004", "beginning_of_combat", b={"poison": 9},
              battlefield=[h("mosq", "Swamp Mosquito", controller="A")])
    t.attack("mosq")
    t.advance("declare_blockers")
    while not t.obs()["result"]["over"]:
        t.pass_priority()
    assert (t.obs()["result"]["losers"], t.obs()["result"]["reason"]) == (["B"], "poison")
    t = table("modern", "beginning_of_combat",
              battlefield=[h("stinger", "Plague Stinger", controller="A"),
                           h("bears", "Grizzly Bears", controller="B")])
    t.attack("stinger")
    t.advance("end_of_combat")
    assert (t.player("B")["poison"], t.player("B")["life"]) == (1, 20)


def test_modern_plus_one_and_minus_one_counters_cancel_out():
    for edition, left in (("cr2004", {"+1/+1": 1, "-1/-1": 1}), ("modern", {})):
        t = table(edition, battlefield=[h("bears", "Grizzly Bears", controller="A",
                                          counters={"+1/+1": 1, "-1/-1": 1})])
        assert t.find("bears")["counters"] == left


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_granted_ability_naming_its_granter_means_that_object(edition):
    # Two Leonin Bolas on one creature: each grants "{T}, Unattach Leonin Bola: ..."; using
    # the second one's ability unattaches that Bola, not the other (202.2b).
    t = table(edition, battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                    h("b1", "Leonin Bola", controller="A", attached_to="bears"),
                                    h("b2", "Leonin Bola", controller="A", attached_to="bears"),
                                    h("x", "Hill Giant", controller="B")])
    t.do("activate", "A", card="bears", ability=1, targets=["x"])
    assert (t.find("b1")["attached_to"], t.find("b2")["attached_to"]) == (t.id("bears"), None)


@pytest.mark.parametrize(("edition", "life"), [("cr2004", 19), ("modern", 20)])
def test_prevention_on_a_creature_spell_and_the_creature_it_becomes(edition, life):
    # Modern 400.7c: prevention applied to a permanent spell's damage applies to the
    # permanent; in 2004 the spell and the permanent are different objects (217.1c).
    t = table(edition, a={"hand": [h("gob", "Raging Goblin")], "mana_pool": {"R": 1}},
              b={"mana_pool": {"C": 1}},
              battlefield=[h("cop", "Circle of Protection: Red", controller="B")])
    t.do("cast", "A", card="gob")
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0)
    resolve(t)  # the Circle's ability: its source is the Goblin spell
    assert t.obs()["pending"] is None  # the Goblin spell is the only red source
    resolve(t)  # the Goblin enters
    t.advance("declare_attackers")
    t.do("attack", "A", card="gob")
    t.do("done", "A")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == life
