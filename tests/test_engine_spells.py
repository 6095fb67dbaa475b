"""Mana, casting, timing, targets, the stack, countering and lands."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, given, h

EDITIONS = ["cr2004", "modern"]


def table(edition: str, step: str = "precombat_main", *, hand_a=(), hand_b=(), pool_a=None,
          pool_b=None, battlefield=(), active: str = "A", **extra) -> Table:
    players = {
        "A": {"hand": list(hand_a), "mana_pool": pool_a or {}, "library": ["Island"] * 5},
        "B": {"hand": list(hand_b), "mana_pool": pool_b or {}, "library": ["Island"] * 5},
    }
    return Table(edition, given(step, active=active, players=players,
                                battlefield=list(battlefield), **extra))



# -- mana ------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_basic_lands_have_their_intrinsic_mana_ability(edition):
    t = table(edition, battlefield=[h(n, n, controller="A") for n in
                                    ("Plains", "Island", "Swamp", "Mountain", "Forest")])
    for land in ("Plains", "Island", "Swamp", "Mountain", "Forest"):
        t.do("activate", "A", card=land, ability=0)
    assert t.player("A")["mana_pool"] == {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1, "C": 0}
    assert t.obs()["stack"] == []  # mana abilities do not use the stack
    assert t.illegal("activate", "A", card="Forest", ability=0) == "already_tapped"


@pytest.mark.parametrize("edition", EDITIONS)
def test_dual_land_has_both_abilities_and_artifact_land_its_own(edition):
    t = table(edition, battlefield=[h("trop", "Tropical Island", controller="A"),
                                    h("seat", "Seat of the Synod", controller="A")])
    abilities = {(a["card"], a["ability"]) for a in t.legal() if a["action"] == "activate"}
    assert abilities == {(t.id("trop"), 0), (t.id("trop"), 1), (t.id("seat"), 0)}
    t.do("activate", "A", card="trop", ability=1)
    t.do("activate", "A", card="seat", ability=0)
    assert t.player("A")["mana_pool"]["U"] == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_summoning_sick_elves_cannot_tap_for_mana(edition):
    t = table(edition, battlefield=[h("elf", "Llanowar Elves", controller="A", sick=True),
                                    h("old", "Llanowar Elves", controller="A")])
    assert t.illegal("activate", "A", card="elf", ability=0) == "summoning_sick"
    t.do("activate", "A", card="old", ability=0)
    assert t.player("A")["mana_pool"]["G"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_mind_stone_makes_colourless_mana_that_cannot_pay_green(edition):
    t = table(edition, hand_a=[h("bears", "Grizzly Bears")],
              battlefield=[h("stone", "Mind Stone", controller="A")], pool_a={"G": 0})
    t.do("activate", "A", card="stone", ability=0)
    assert t.player("A")["mana_pool"]["C"] == 1
    assert t.illegal("cast", "A", card="bears") == "cannot_pay"


@pytest.mark.parametrize("edition", EDITIONS)
def test_generic_is_paid_by_any_mana_and_coloured_only_by_its_colour(edition):
    t = table(edition, hand_a=[h("bears", "Grizzly Bears"), h("bolt", "Lightning Bolt")],
              pool_a={"R": 2})
    assert t.illegal("cast", "A", card="bears") == "cannot_pay"  # {1}{G} with R R
    t = table(edition, hand_a=[h("bears", "Grizzly Bears")], pool_a={"R": 1, "G": 1})
    t.do("cast", "A", card="bears")
    assert sum(t.player("A")["mana_pool"].values()) == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_explicit_payment_and_the_deterministic_default(edition):
    t = table(edition, hand_a=[h("bears", "Grizzly Bears")], pool_a={"G": 2, "C": 1})
    t.do("cast", "A", card="bears")
    # Default: {G} with green, the generic {1} with colourless first.
    assert t.player("A")["mana_pool"] == {"W": 0, "U": 0, "B": 0, "R": 0, "G": 1, "C": 0}
    t = table(edition, hand_a=[h("bears", "Grizzly Bears")], pool_a={"G": 2, "C": 1})
    t.do("cast", "A", card="bears", payment={"G": 2})
    assert t.player("A")["mana_pool"]["C"] == 1
    t = table(edition, hand_a=[h("bears", "Grizzly Bears")], pool_a={"G": 2, "C": 1})
    assert t.illegal("cast", "A", card="bears", payment={"C": 1, "G": 0}) == "bad_payment"


@pytest.mark.parametrize("edition", EDITIONS)
def test_x_spell_pays_x_and_deals_x(edition):
    t = table(edition, hand_a=[h("fb", "Fireball")], pool_a={"R": 4})
    xs = sorted(a["x"] for a in t.legal() if a["action"] == "cast"
                and a["targets"] == [{"player": "B"}])
    assert xs == [0, 1, 2, 3]
    assert t.illegal("cast", "A", card="fb", targets=["B"]) == "x_required"
    assert t.illegal("cast", "A", card="fb", targets=["B"], x=4) == "cannot_pay"
    t.do("cast", "A", card="fb", targets=["B"], x=3)
    assert t.obs()["stack"][0]["x"] == 3
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.player("B")["life"] == 17


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_divides_evenly_rounding_down_and_costs_more_per_extra_target(edition):
    t = table(edition, hand_a=[h("fb", "Fireball")], pool_a={"R": 7},
              battlefield=[h("giant", "Hill Giant", controller="B")])
    # X=5 among two targets costs {5}{R} + {1}: 7 mana. 5 // 2 = 2 each.
    assert t.illegal("cast", "A", card="fb", targets=["B", "giant"], x=6) == "cannot_pay"
    t.do("cast", "A", card="fb", targets=["B", "giant"], x=5)
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.player("B")["life"] == 18
    assert t.find("giant")["damage"] == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_zero_cost_spell_still_uses_the_stack_and_can_be_countered(edition):
    t = table(edition, hand_a=[h("thopter", "Ornithopter")],
              hand_b=[h("cs", "Counterspell")], pool_b={"U": 2})
    t.do("cast", "A", card="thopter")
    assert [s["card"] for s in t.obs()["stack"]] == ["Ornithopter"]
    t.do("pass", "A")
    t.do("cast", "B", card="cs", targets=["thopter"])
    t.do("pass", "B")
    t.do("pass", "A")
    assert t.obs()["stack"] == []
    assert t.cards(t.player("A")["graveyard"]) == ["Ornithopter"]
    assert t.cards(t.player("B")["graveyard"]) == ["Counterspell"]
    assert t.obs()["battlefield"] == []


# -- timing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("card", ["Grizzly Bears", "Mind Rot", "Mind Stone"])
def test_sorcery_speed_cards_need_own_main_phase_and_empty_stack(edition, card):
    pool = {"G": 1, "B": 3, "C": 2}
    t = table(edition, "upkeep", hand_a=[h("c", card)], pool_a=pool)
    assert t.illegal("cast", "A", card="c", targets=["B"] if card == "Mind Rot" else []) == (
        "not_main_phase")
    t = table(edition, hand_b=[h("c", card)], pool_b=pool)
    t.do("pass", "A")
    reason = t.illegal("cast", "B", card="c", targets=["A"] if card == "Mind Rot" else [])
    assert reason == "not_your_turn"


@pytest.mark.parametrize("edition", EDITIONS)
def test_sorcery_rejected_while_the_stack_is_not_empty(edition):
    t = table(edition, hand_a=[h("rot", "Mind Rot"), h("bolt", "Lightning Bolt")],
              pool_a={"B": 3, "R": 1})
    t.do("cast", "A", card="bolt", targets=["B"])
    assert t.illegal("cast", "A", card="rot", targets=["B"]) == "stack_not_empty"


@pytest.mark.parametrize("edition", EDITIONS)
def test_instant_in_opponents_upkeep_and_in_response(edition):
    t = table(edition, "upkeep", active="B", hand_a=[h("bolt", "Lightning Bolt"),
                                                     h("shock", "Shock")], pool_a={"R": 2})
    t.do("pass", "B")
    t.do("cast", "A", card="bolt", targets=["B"])
    t.do("cast", "A", card="shock", targets=["B"])  # in response to its own spell
    assert [s["card"] for s in t.obs()["stack"]] == ["Shock", "Lightning Bolt"]


# -- resolution, targets, countering ---------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_last_in_first_out(edition):
    t = table(edition, hand_a=[h("growth", "Giant Growth")], hand_b=[h("bolt", "Lightning Bolt")],
              pool_a={"G": 1}, pool_b={"R": 1},
              battlefield=[h("bears", "Grizzly Bears", controller="A")])
    t.do("cast", "A", card="growth", targets=["bears"])
    t.do("pass", "A")
    t.do("cast", "B", card="bolt", targets=["bears"])
    t.do("pass", "B")
    t.do("pass", "A")  # Bolt resolves first: the Bears die before the Growth resolves
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]
    t.do("pass", "A")
    t.do("pass", "B")  # Giant Growth: its only target is gone, so it is countered
    assert t.cards(t.player("A")["graveyard"]) == ["Giant Growth", "Grizzly Bears"]
    assert any(e["type"] == "fizzle" for e in t.events)


@pytest.mark.parametrize("edition", EDITIONS)
def test_resolved_instant_and_sorcery_go_to_the_owners_graveyard(edition):
    t = table(edition, hand_a=[h("bolt", "Lightning Bolt"), h("rot", "Mind Rot")],
              hand_b=["Island", "Forest", "Mountain"], pool_a={"R": 1, "B": 3})
    t.do("cast", "A", card="bolt", targets=["B"])
    t.do("pass", "A")
    t.do("pass", "B")
    t.do("cast", "A", card="rot", targets=["B"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.obs()["pending"] == {"player": "B", "decision": "discard", "count": 2}
    hand = t.player("B")["hand"]
    t.do("discard", "B", card=hand[2]["id"])
    t.do("discard", "B", card=hand[0]["id"])
    assert t.cards(t.player("B")["hand"]) == ["Forest"]
    assert t.cards(t.player("A")["graveyard"]) == ["Mind Rot", "Lightning Bolt"]
    assert t.cards(t.player("B")["graveyard"]) == ["Island", "Mountain"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_impossible_part_of_an_instruction_is_skipped(edition):
    t = table(edition, hand_a=[h("rot", "Mind Rot")], hand_b=["Island"], pool_a={"B": 3})
    t.do("cast", "A", card="rot", targets=["B"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.player("B")["hand"] == []
    assert t.obs()["pending"] is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_remove_soul_targets_only_creature_spells(edition):
    t = table(edition, hand_a=[h("bears", "Grizzly Bears"), h("bolt", "Lightning Bolt")],
              hand_b=[h("soul", "Remove Soul")], pool_a={"G": 2, "R": 1}, pool_b={"U": 2},
              battlefield=[h("giant", "Hill Giant", controller="A")])
    t.do("cast", "A", card="bears", payment={"G": 2})
    t.do("cast", "A", card="bolt", targets=["B"])
    t.do("pass", "A")
    targets = [a["targets"] for a in t.legal() if a["action"] == "cast"]
    assert targets == [[{"object": t.id("bears")}]]  # not the Bolt, not the Giant in play


@pytest.mark.parametrize("edition", EDITIONS)
def test_terror_cannot_target_artifact_or_black_creatures(edition):
    t = table(edition, hand_a=[h("terror", "Terror")], pool_a={"B": 2},
              battlefield=[h("thopter", "Ornithopter", controller="B"),
                           h("bears", "Grizzly Bears", controller="B")])
    assert t.illegal("cast", "A", card="terror", targets=["thopter"]) == "illegal_target"
    t.do("cast", "A", card="terror", targets=["bears"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_vindicate_unsummon_and_activated_abilities(edition):
    t = table(edition, hand_a=[h("vin", "Vindicate"), h("un", "Unsummon")],
              pool_a={"W": 1, "B": 1, "G": 1, "U": 1},
              battlefield=[h("seat", "Seat of the Synod", controller="B"),
                           h("bears", "Grizzly Bears", controller="B"),
                           h("sorc", "Prodigal Sorcerer", controller="A")])
    t.do("cast", "A", card="vin", targets=["seat"], payment={"W": 1, "B": 1, "G": 1})
    t.do("pass", "A")
    t.do("pass", "B")
    t.do("cast", "A", card="un", targets=["bears"])
    t.do("activate", "A", card="sorc", ability=0, targets=["B"])
    assert [s["kind"] for s in t.obs()["stack"]] == ["ability", "spell"]
    assert t.obs()["stack"][0]["source"] == t.id("sorc")
    t.do("pass", "A")
    t.do("pass", "B")
    t.do("pass", "A")
    t.do("pass", "B")
    b = t.player("B")
    assert b["life"] == 19
    assert t.cards(b["hand"]) == ["Grizzly Bears"]
    assert t.cards(b["graveyard"]) == ["Seat of the Synod"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_mind_stone_sacrifice_draws(edition):
    t = table(edition, pool_a={"G": 1}, battlefield=[h("stone", "Mind Stone", controller="A")])
    t.do("activate", "A", card="stone", ability=1)
    assert t.cards(t.player("A")["graveyard"]) == ["Mind Stone"]  # sacrificed as a cost
    t.do("pass", "A")
    t.do("pass", "B")
    assert len(t.player("A")["hand"]) == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_inspiration_and_divination(edition):
    t = table(edition, "upkeep", hand_a=[h("insp", "Inspiration")], pool_a={"U": 4})
    t.do("cast", "A", card="insp", targets=["A"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert len(t.player("A")["hand"]) == 2
    if edition == "modern":
        t = table(edition, hand_a=[h("div", "Divination")], pool_a={"U": 3})
        t.do("cast", "A", card="div")
        t.do("pass", "A")
        t.do("pass", "B")
        assert len(t.player("A")["hand"]) == 2


def test_divination_does_not_exist_in_2004():
    from reference_engine.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match="Divination"):
        table("cr2004", hand_a=["Divination"])


# -- lands -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_one_land_per_turn_in_own_main_phase_without_the_stack(edition):
    t = table(edition, hand_a=[h("f1", "Forest"), h("f2", "Forest"),
                               h("bolt", "Lightning Bolt")], pool_a={"R": 1})
    t.do("play_land", "A", card="f1")
    assert t.obs()["stack"] == []
    assert t.obs()["turn"]["priority"] == "A"
    assert t.find("f1")["controller"] == "A"
    assert t.player("A")["lands_played"] == 1
    assert t.illegal("play_land", "A", card="f2") == "no_land_play_left"


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_land_in_combat_in_response_or_on_the_opponents_turn(edition):
    t = table(edition, "beginning_of_combat", hand_a=[h("f", "Forest")])
    assert t.illegal("play_land", "A", card="f") == "not_main_phase"
    t = table(edition, hand_a=[h("f", "Forest"), h("bolt", "Lightning Bolt")], pool_a={"R": 1})
    t.do("cast", "A", card="bolt", targets=["B"])
    assert t.illegal("play_land", "A", card="f") == "stack_not_empty"
    t = table(edition, hand_b=[h("f", "Forest")])
    t.do("pass", "A")
    assert t.illegal("play_land", "B", card="f") == "not_your_turn"


@pytest.mark.parametrize("edition", EDITIONS)
def test_artifact_land_is_played_never_cast(edition):
    t = table(edition, hand_a=[h("seat", "Seat of the Synod")], pool_a={"C": 5})
    assert t.illegal("cast", "A", card="seat") == "land_not_cast"
    t.do("play_land", "A", card="seat")
    assert t.find("seat")["types"] == ["Artifact", "Land"]
