"""Continuous effects: static P/T changes, durations, "can't" beats "can", card text over a
rule, */* power and toughness, and type-changing effects."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ["cr2004", "modern"]





def pt(t: Table, handle: str) -> tuple:
    obj = t.find(handle)
    return obj["power"], obj["toughness"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_glorious_anthem_pumps_only_its_controllers_creatures(edition):
    t = table(edition, battlefield=[h("anthem", "Glorious Anthem", controller="A"),
                                    h("mine", "Grizzly Bears", controller="A"),
                                    h("theirs", "Grizzly Bears", controller="B")])
    assert pt(t, "mine") == (3, 3)
    assert pt(t, "theirs") == (2, 2)


@pytest.mark.parametrize("edition", EDITIONS)
def test_weakness_makes_power_negative_and_a_negative_power_deals_no_damage(edition):
    t = table(edition, a={"hand": [h("w1", "Weakness"), h("w2", "Weakness"),
                                   h("growth", "Giant Growth")], "mana_pool": {"B": 2, "G": 1}},
              battlefield=[h("giant", "Hill Giant", controller="B")])
    for aura in ("w1", "w2"):
        t.do("cast", "A", card=aura, targets=["giant"])
        resolve(t)
    assert pt(t, "giant") == (-1, 1)  # 3/3 with -2/-1 twice
    t.do("cast", "A", card="growth", targets=["giant"])
    resolve(t)
    assert pt(t, "giant") == (2, 4)  # -1 + 3, not 0 + 3 (104.2: only treated as 0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_holy_strength_and_until_end_of_turn_ends_in_cleanup(edition):
    t = table(edition, a={"hand": [h("hs", "Holy Strength"), h("gg", "Giant Growth")],
                          "mana_pool": {"W": 1, "G": 1}},
              battlefield=[h("lions", "Savannah Lions", controller="A")])
    t.do("cast", "A", card="hs", targets=["lions"])
    resolve(t)
    t.do("cast", "A", card="gg", targets=["lions"])
    resolve(t)
    assert pt(t, "lions") == (6, 6)
    t.advance("upkeep", turn=4)
    assert pt(t, "lions") == (3, 3)


@pytest.mark.parametrize("edition", EDITIONS)
def test_cant_beats_can_exploration_with_turf_wound(edition):
    t = table(edition, a={"hand": [h("f1", "Forest"), h("f2", "Forest"), h("f3", "Forest")]},
              b={"hand": [h("wound", "Turf Wound")], "mana_pool": {"R": 3}},
              battlefield=[h("expl", "Exploration", controller="A")])
    t.do("play_land", "A", card="f1")
    t.do("play_land", "A", card="f2")  # a second land, thanks to Exploration
    assert t.illegal("play_land", "A", card="f3") == "no_land_play_left"
    t = table(edition, a={"hand": [h("f1", "Forest")]},
              b={"hand": [h("wound", "Turf Wound")], "mana_pool": {"R": 3}},
              battlefield=[h("expl", "Exploration", controller="A")])
    t.do("pass", "A")
    t.do("cast", "B", card="wound", targets=["A"])
    resolve(t)
    assert t.illegal("play_land", "A", card="f1") == "cant_play_lands"  # 103.2


@pytest.mark.parametrize("edition", EDITIONS)
def test_card_text_beats_the_maximum_hand_size_rule(edition):
    t = table(edition, "end", a={"hand": ["Island"] * 10},
              battlefield=[h("book", "Spellbook", controller="A")])
    t.advance("upkeep", turn=4)
    assert len(t.player("A")["hand"]) == 10
    assert t.player("A")["max_hand_size"] is None
    assert t.player("B")["max_hand_size"] == 7


@pytest.mark.parametrize(("edition", "in_hand"), [("cr2004", (0, 0)), ("modern", (2, 2))])
def test_star_power_and_toughness_in_play_and_outside(edition, in_hand):
    t = table(edition, a={"hand": [h("night", "Nightmare")]},
              battlefield=[h("s1", "Swamp", controller="A"), h("s2", "Swamp", controller="A"),
                           h("s3", "Swamp", controller="B")])
    # Outside play: 2004 rule 208.2 makes * 0; a modern characteristic-defining ability
    # works everywhere (604.3, outside the seeds).
    assert pt(t, "night") == in_hand
    t.engine.game.players["A"].pool[2] = 6
    t.do("cast", "A", card="night")
    resolve(t)
    assert pt(t, "night") == (2, 2)


# -- type-changing effects --------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_living_plane_makes_lands_creatures_that_are_still_lands(edition):
    t = table(edition, battlefield=[h("plane", "Living Plane", controller="A"),
                                    h("seat", "Seat of the Synod", controller="A"),
                                    h("haven", "Pendelhaven", controller="B")])
    seat = t.find("seat")
    assert seat["types"] == ["Artifact", "Creature", "Land"]  # every old type kept (212.1c)
    assert (seat["power"], seat["toughness"]) == (1, 1)
    haven = t.find("haven")
    assert haven["supertypes"] == ["Legendary"]  # supertypes unchanged (212.1d)
    assert "Legend" not in haven["subtypes"]  # legendary, not the creature type (215.2)
    assert haven["types"] == ["Creature", "Land"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_march_of_the_machines_and_equipment_falling_off(edition):
    t = table(edition, battlefield=[h("march", "March of the Machines", controller="A"),
                                    h("stone", "Mind Stone", controller="A"),
                                    h("thopter", "Ornithopter", controller="A"),
                                    h("bears", "Grizzly Bears", controller="A"),
                                    h("split", "Bonesplitter", controller="A",
                                      attached_to="bears")])
    stone = t.find("stone")
    assert stone["types"] == ["Artifact", "Creature"] and (stone["power"], stone["toughness"]) \
        == (2, 2)
    assert pt(t, "thopter") == (0, 2)  # already a creature: unchanged
    # Bonesplitter became a creature: it can't stay attached (212.2i); it is a 1/1 now.
    assert t.find("split")["attached_to"] is None
    assert pt(t, "bears") == (2, 2)
    assert pt(t, "split") == (1, 1)


@pytest.mark.parametrize("edition", EDITIONS)
def test_evil_presence_replaces_land_types_and_rules_text(edition):
    t = table(edition, a={"hand": [h("ep", "Evil Presence")], "mana_pool": {"B": 1}},
              battlefield=[h("city", "City of Brass", controller="A"),
                           h("trop", "Tropical Island", controller="A")])
    t.do("cast", "A", card="ep", targets=["city"])
    resolve(t)
    city = t.find("city")
    assert city["subtypes"] == ["Swamp"] and city["supertypes"] == []  # still nonbasic
    abilities = [a for a in t.legal() if a["action"] == "activate" and a["card"] == t.id("city")]
    assert len(abilities) == 1  # only the Swamp's {T}: Add {B} (212.6e)
    t.do("activate", "A", card="city", ability=0)
    assert t.player("A")["mana_pool"]["B"] == 1
    assert t.player("A")["life"] == 20  # the damage trigger is gone with its rules text


@pytest.mark.parametrize("edition", EDITIONS)
def test_mishras_factory_animates_until_end_of_turn(edition):
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("factory", "Mishra's Factory", controller="A"),
                           h("other", "Mishra's Factory", controller="A")])
    assert t.find("factory")["types"] == ["Land"]
    t.do("activate", "A", card="factory", ability=1)
    resolve(t)
    factory = t.find("factory")
    assert factory["types"] == ["Artifact", "Creature", "Land"]
    assert factory["subtypes"] == ["Assembly-Worker"] and pt(t, "factory") == (2, 2)
    t.do("activate", "A", card="other", ability=2, targets=["factory"])
    resolve(t)
    assert pt(t, "factory") == (3, 3)
    t.advance("upkeep", turn=4)
    assert t.find("factory")["types"] == ["Land"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_engineered_plague_weakens_the_chosen_creature_type(edition):
    t = table(edition, a={"hand": [h("plague", "Engineered Plague")], "mana_pool": {"B": 3}},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("lions", "Savannah Lions", controller="B")])
    t.do("cast", "A", card="plague")
    resolve(t)
    pending = t.obs()["pending"]
    assert pending["decision"] == "choose_creature_type"
    choices = {a["choice"] for a in t.legal() if a["action"] == "choose"}
    assert {"Bear", "Cat"} <= choices
    assert not {"Bear Cat", "Swamp", "Artifact"} & choices  # 212.1e
    # Legend is a creature type in 2004 (215.2), a supertype in the modern rules.
    assert ("Legend" in choices) == (edition == "cr2004")
    t.do("choose", "A", choice="Cat")
    assert t.cards(t.player("B")["graveyard"]) == ["Savannah Lions"]  # 2/1 -> 1/0
    assert pt(t, "bears") == (2, 2)


@pytest.mark.parametrize("edition", EDITIONS)
def test_until_end_of_combat_ends_with_the_combat_phase(edition):
    # No card of the pool lasts "until end of combat": the engine's own effect stands in.
    from reference_engine.objects import ContinuousEffect

    t = table(edition, "beginning_of_combat",
              battlefield=[h("bears", "Grizzly Bears", controller="A")])
    game = t.engine.game
    target = t.id("bears")

    def grow(chars):
        chars.power += 2

    game.add_effect(ContinuousEffect(7.3, game.next_timestamp(), lambda o: o.id == target, grow,
                                     "combat"))
    assert pt(t, "bears") == (4, 2)
    t.advance("end_of_combat")
    assert pt(t, "bears") == (4, 2)  # not at the start of the end-of-combat step (300.4)
    t.advance("postcombat_main")
    assert pt(t, "bears") == (2, 2)  # but as the combat phase ends
