"""An independent review of the keyword abilities (issue 27): scenarios where two or three of
them, or a keyword and another rule, meet. Each says the rule that decides it (outside the
seeds: modern 702, 2004 502 and their neighbours); the topic files (test_engine_first_strike,
_protection, _lifelink, _deathtouch, _evasion, _indestructible, _shroud_hexproof) hold each
ability on its own.

In both editions where the cards and the ability existed in June 2004; Vampire Nighthawk
(deathtouch, lifelink) and Boggart Brute (menace) are modern cards only.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, given, h, resolve
from tests.test_engine_first_strike import change_keywords, deal_pending_damage, steps

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any], *, step: str = "beginning_of_combat",
          hand_a=(), hand_b=(), grave_a=(), grave_b=(), life_a: int = 20,
          active: str = "A") -> Table:
    players = {"A": {"hand": list(hand_a), "graveyard": list(grave_a), "life": life_a,
                     "library": ["Island"] * 5},
               "B": {"hand": list(hand_b), "graveyard": list(grave_b),
                     "library": ["Island"] * 5}}
    return Table(edition, given(step, active=active, players=players,
                                battlefield=battlefield))


def graveyard(t: Table, player: str) -> list[str]:
    return t.cards(t.player(player)["graveyard"])


def targets_of(t: Table, kind: str, card: str) -> set[Any]:
    """The objects the listed ``kind`` actions (cast, activate) of ``card`` may target."""
    return {tg.get("object") for a in t.legal() if a["action"] == kind
            and a["card"] == t.id(card) for tg in a.get("targets", [])}


def mother(t: Table, target: str, color: str, *, player: str = "A") -> None:
    """Mother of Runes (handle ``mother``) gives ``target`` protection from ``color``."""
    t.do("activate", player, card="mother", ability=0, targets=[target])
    resolve(t)
    t.do("choose", player, choice=color)


def blocks_offered(t: Table) -> set[tuple[Any, Any]]:
    return {(a["card"], a["attacker"]) for a in t.legal() if a["action"] == "block"}


# -- first strike and double strike with other abilities ---------------------------------------


def test_modern_first_strike_and_deathtouch_kill_a_bigger_blocker_before_it_strikes():
    # Nighthawk given first strike, blocked by Serra Angel (4/4): 2 deathtouch damage in the
    # first step destroys the Angel (702.2b, 704.5h), which never deals its damage (510.4).
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("angel", "Serra Angel", controller="B")])
    change_keywords(t, "hawk", add=frozenset(("first strike",)))
    t.attack("hawk")
    t.block({"angel": "hawk"})
    t.advance("end_of_combat")
    assert graveyard(t, "B") == ["Serra Angel"]
    assert t.find("hawk")["damage"] == 0
    assert t.player("A")["life"] == 22  # lifelink, in the first step only


@pytest.mark.parametrize("edition", EDITIONS)
def test_double_strike_trample_and_lifelink_gain_in_both_steps(edition):
    # Ridgetop Raptor with Loxodon Warhammer: 5/1 double strike, trample, lifelink (2004: the
    # granted trigger). Blocked by Grizzly Bears: first step 2 to the Bears and 3 to B; the
    # Bears are destroyed; second step all 5 to B, no blocker left (modern 702.19e, 2004
    # 502.9c). Life: 5 then 5 (modern 702.15b, 702.4b; 2004 one trigger per damage event).
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A"),
                        h("hammer", "Loxodon Warhammer", controller="A", attached_to="raptor"),
                        h("bears", "Grizzly Bears", controller="B")])
    t.attack("raptor")
    t.block({"bears": "raptor"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=[[t.id("bears"), 2], ["B", 3]])
    t.advance("end_of_combat")
    assert graveyard(t, "B") == ["Grizzly Bears"]
    assert t.player("B")["life"] == 12
    assert t.player("A")["life"] == 30
    assert steps(t).count("combat_damage") == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_double_striker_tramples_over_an_indestructible_blocker_already_dealt_lethal(edition):
    # Raptor with Warhammer blocked by Darksteel Myr (0/1, indestructible): first step at
    # least 1 to the Myr; it survives with lethal damage marked, so in the second step lethal
    # damage for it is 0 and all 5 may go to B (modern 702.19b "already marked"; 2004 502.9b).
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A"),
                        h("hammer", "Loxodon Warhammer", controller="A", attached_to="raptor"),
                        h("myr", "Darksteel Myr", controller="B")])
    t.attack("raptor")
    t.block({"myr": "raptor"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=[[t.id("myr"), 1], ["B", 4]])
    deal_pending_damage(t)
    while t.obs()["stack"]:
        resolve(t)  # 2004: the Warhammer's trigger
    t.pass_priority()
    t.pass_priority()
    pending = t.obs()["pending"]
    assert pending["decision"] == "assign_combat_damage"
    assert pending["blockers"] == [{"id": t.id("myr"), "lethal": 0}]
    t.do("choose", "A", choice=[[t.id("myr"), 0], ["B", 5]])
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 11
    assert t.find("myr") in t.obs()["battlefield"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_first_strikers_deal_damage_at_once_colourless_damage_is_not_prevented(edition):
    # White Knight (protection from black) attacks into Wall of Spears (colourless, first
    # strike): both strike in the first step, at once; the Wall's colourless damage is dealt
    # (protection from a colour says nothing of a colourless source: modern 702.16a, 105.2c;
    # 2004 502.7a, 203.1).
    t = table(edition, [h("knight", "White Knight", controller="A"),
                        h("wall", "Wall of Spears", controller="B")])
    t.attack("knight")
    t.block({"wall": "knight"})
    t.advance("end_of_combat")
    assert graveyard(t, "A") == ["White Knight"]
    assert t.find("wall")["damage"] == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_regenerated_blocker_is_out_of_combat_and_deals_no_regular_damage(edition):
    # Knight of Stromgald, given first strike, destroys the blocking Drudge Skeletons in the
    # first step; they regenerate, leave combat (modern 701.19c, 506.4; 2004 419.6b, 306.2)
    # and deal no damage in the second step.
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("swamp", "Swamp", controller="A"),
                        h("skel", "Drudge Skeletons", controller="B"),
                        h("swamp-b", "Swamp", controller="B")])
    t.attack("knight")
    t.block({"skel": "knight"})
    t.do("activate", "A", card="knight", ability=0, pay_with=["swamp"])
    resolve(t)
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp-b"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.find("skel")["blocking"] is None and t.find("skel")["tapped"]
    assert t.find("knight")["damage"] == 0
    assert t.player("B")["life"] == 20  # the Knight stays blocked


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_double_striker_blocked_by_a_first_striker(edition):
    # Raptor (2/1, double strike) blocked by White Knight (2/2, first strike): both deal
    # damage in the first step and both die; no second damage from either.
    t = table(edition, [h("raptor", "Ridgetop Raptor", controller="A"),
                        h("knight", "White Knight", controller="B")])
    t.attack("raptor")
    t.block({"knight": "raptor"})
    t.advance("end_of_combat")
    assert graveyard(t, "A") == ["Ridgetop Raptor"]
    assert graveyard(t, "B") == ["White Knight"]
    assert len([e for e in t.events if e["type"] == "damage"]) == 2


def test_2004_first_strike_damage_on_the_stack_is_dealt_after_its_source_left_play():
    # 2004: White Knight's first-strike damage is on the stack; it is returned to its owner's
    # hand; the damage is still dealt (310.4a); in the second step the blocking Bears, whose
    # attacker left combat, deal none (310.2d).
    t = table("cr2004", [h("knight", "White Knight", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("island", "Island", controller="A")],
              hand_a=[h("unsummon", "Unsummon")])
    bears, knight = t.id("bears"), t.id("knight")
    t.attack("knight")
    t.block({"bears": "knight"})
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    t.do("cast", "A", card="unsummon", targets=["knight"], pay_with=["island"])
    resolve(t)  # Unsummon
    assert "White Knight" in t.cards(t.player("A")["hand"])
    resolve(t)  # the damage
    assert graveyard(t, "B") == ["Grizzly Bears"]
    t.advance("end_of_combat")
    assert [(e["source"], e["target"]) for e in t.events if e["type"] == "damage"] == [
        (knight, {"object": bears})]


def test_2004_protection_gained_with_damage_on_the_stack_prevents_it():
    # 2004: combat damage is assigned as it goes on the stack; Mother of Runes then gives the
    # blocked Bears protection from red: the Giant's damage, on the stack, is prevented as it
    # resolves (502.7a: damage from a red source), the Bears' own is dealt.
    t = table("cr2004", [h("bears", "Grizzly Bears", controller="A"),
                         h("mother", "Mother of Runes", controller="A"),
                         h("giant", "Hill Giant", controller="B")])
    t.attack("bears")
    t.block({"giant": "bears"})
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    mother(t, "bears", "R")
    resolve(t)
    assert t.find("bears")["damage"] == 0 and t.find("giant")["damage"] == 2
    assert graveyard(t, "A") == []


def test_modern_protection_gained_after_damage_prevents_nothing_already_dealt():
    # Modern: combat damage is dealt as the step begins (510.2); protection given in the
    # step comes too late: the Bears die before anyone has priority.
    t = table("modern", [h("bears", "Grizzly Bears", controller="A"),
                         h("mother", "Mother of Runes", controller="A"),
                         h("giant", "Hill Giant", controller="B")])
    t.attack("bears")
    t.block({"giant": "bears"})
    t.advance("combat_damage")
    assert graveyard(t, "A") == ["Grizzly Bears"]


# -- lifelink and the state-based actions --------------------------------------------------------


def _lifelink_race(edition: str) -> Table:
    # A at 3 life; B's Hill Giant is unblocked and B's Bears are blocked by A's Savannah Lions
    # with Loxodon Warhammer (5/1, lifelink in modern, the 2004 trigger otherwise).
    t = table(edition, [h("lions", "Savannah Lions", controller="A"),
                        h("hammer", "Loxodon Warhammer", controller="A", attached_to="lions"),
                        h("giant", "Hill Giant", controller="B"),
                        h("bears", "Grizzly Bears", controller="B")],
              life_a=3, active="B")
    t.attack("giant", "bears")
    t.block({"lions": "bears"})
    t.advance("combat_damage")
    deal_pending_damage(t)
    return t


def test_modern_lifelink_life_comes_with_the_damage_before_state_based_actions():
    # Modern 702.15b: the life is gained as the damage is dealt, so A is at 3 - 3 + 5 = 5
    # when state-based actions are checked, and lives.
    t = _lifelink_race("modern")
    assert not t.obs()["result"]["over"]
    assert t.player("A")["life"] == 5


def test_2004_the_warhammer_trigger_comes_too_late_for_a_player_at_0_life():
    # 2004: the Warhammer's ability triggers on the damage and waits for the stack; the
    # state-based actions see A at 0 life first (420.5a) and A loses.
    t = _lifelink_race("cr2004")
    result = t.obs()["result"]
    assert result["over"] and result["losers"] == ["A"]


def test_2004_the_warhammer_trigger_resolves_after_its_creature_died():
    # 2004: Savannah Lions with the Warhammer (5/1) blocked by a Hill Giant: both die; the
    # trigger, already triggered, still gains A 5: once triggered, an ability exists apart
    # from its source (modern 113.7a; 2004 the same, outside the seed).
    t = table("cr2004", [h("lions", "Savannah Lions", controller="A"),
                         h("hammer", "Loxodon Warhammer", controller="A", attached_to="lions"),
                         h("giant", "Hill Giant", controller="B")])
    t.attack("lions")
    t.block({"giant": "lions"})
    t.advance("combat_damage")
    t.do("choose", "A", choice=[[t.id("giant"), 3], ["B", 2]])  # trample
    resolve(t)  # the damage; the creatures die; the trigger goes on the stack
    assert graveyard(t, "A") == ["Savannah Lions"]
    assert [s["kind"] for s in t.obs()["stack"]] == ["trigger"]
    resolve(t)
    assert t.player("A")["life"] == 25


def test_modern_lifelink_deathtouch_through_a_granted_ping():
    # Hermetic Study on Vampire Nighthawk: the granted ability's source is the Nighthawk, so
    # its 1 damage has deathtouch and lifelink (702.2b, 702.15b: any damage it deals).
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("study", "Hermetic Study", controller="A", attached_to="hawk"),
                         h("giant", "Hill Giant", controller="B")], step="precombat_main")
    t.do("activate", "A", card="hawk", ability=0, targets=["giant"])
    resolve(t)
    assert graveyard(t, "B") == ["Hill Giant"]
    assert t.player("A")["life"] == 21


def test_modern_lifelink_double_strike_one_strike_prevented_by_a_circle():
    # Circle of Protection: Red prevents the next damage the Raptor (with the Warhammer) would
    # deal B: the first strike's 5; the second's 5 is dealt. Life for the dealt damage only
    # (702.15b counts damage dealt; 615.1).
    t = table("modern", [h("raptor", "Ridgetop Raptor", controller="A"),
                         h("hammer", "Loxodon Warhammer", controller="A", attached_to="raptor"),
                         h("cop", "Circle of Protection: Red", controller="B"),
                         h("plains", "Plains", controller="B")])
    t.attack("raptor")
    t.advance("declare_blockers")
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["plains"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 15
    assert t.player("A")["life"] == 25


# -- deathtouch with other rules -------------------------------------------------------------


def test_modern_deathtouch_divides_one_damage_to_each_of_two_blockers():
    # Nighthawk blocked by Giant Spider and Serra Angel: 1 to each is lethal (702.2c): both
    # destroyed.
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("spider", "Giant Spider", controller="B"),
                         h("angel", "Serra Angel", controller="B")])
    t.attack("hawk")
    t.block({"spider": "hawk", "angel": "hawk"})
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    if pending is not None and pending["decision"] == "assign_combat_damage":
        t.do("choose", "A", choice=[[t.id("spider"), 1], [t.id("angel"), 1]])
    if t.obs()["pending"] == {"player": "B", "decision": "order_graveyard", "count": 2}:
        t.do("choose", "B", choice="spider")  # modern 404.3: B orders its two cards
    assert sorted(graveyard(t, "B")) == ["Giant Spider", "Serra Angel"]
    assert graveyard(t, "A") == ["Vampire Nighthawk"]


def test_modern_deathtouch_with_0_power_deals_no_damage_and_destroys_nothing():
    # Weakness makes Nighthawk 0/2: it assigns no combat damage (510.1a), so deathtouch has
    # nothing to act on; the Angel lives.
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("weak", "Weakness", controller="B", attached_to="hawk"),
                         h("angel", "Serra Angel", controller="B")])
    t.attack("hawk")
    t.block({"angel": "hawk"})
    t.advance("end_of_combat")
    assert t.find("angel") in t.obs()["battlefield"]
    assert graveyard(t, "A") == ["Vampire Nighthawk"]


def test_modern_deathtouch_damage_to_a_protected_blocker_is_prevented_with_its_lifelink():
    # Giant Spider blocks the Nighthawk and gains protection from black: the damage is
    # prevented, so no deathtouch and no lifelink (702.16e: not dealt).
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("spider", "Giant Spider", controller="B"),
                         h("mother", "Mother of Runes", controller="B")])
    t.attack("hawk")
    t.block({"spider": "hawk"})
    t.do("pass", "A")
    mother(t, "spider", "B", player="B")
    t.advance("end_of_combat")
    assert t.find("spider") in t.obs()["battlefield"] and t.find("spider")["damage"] == 0
    assert t.player("A")["life"] == 20


def test_modern_deathtouch_blocker_kills_a_double_striker_in_the_second_step():
    # Raptor (2/1 double strike) blocked by Nighthawk (2/3): 2 in the first step (the
    # Nighthawk lives), then both deal damage in the second: both die.
    t = table("modern", [h("raptor", "Ridgetop Raptor", controller="A"),
                         h("hawk", "Vampire Nighthawk", controller="B")])
    t.attack("raptor")
    t.block({"hawk": "raptor"})
    t.advance("end_of_combat")
    assert graveyard(t, "A") == ["Ridgetop Raptor"]
    assert graveyard(t, "B") == ["Vampire Nighthawk"]
    assert t.player("B")["life"] == 22


# -- indestructible -----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_indestructible_survives_wrath_but_not_a_sacrifice(edition):
    # Wrath of God destroys: nothing happens to Darksteel Myr (modern 702.12b; 2004: the
    # card's own "is indestructible", no keyword rule yet); Innocent Blood makes its controller
    # sacrifice it, which is not destruction.
    t = table(edition, [h("myr", "Darksteel Myr", controller="B"),
                        h("bears", "Grizzly Bears", controller="A"),
                        *[h(f"land-{i}", "Plains", controller="A") for i in range(4)],
                        h("swamp", "Swamp", controller="A")],
              step="precombat_main", hand_a=[h("wrath", "Wrath of God"),
                                             h("blood", "Innocent Blood")])
    t.do("cast", "A", card="wrath", pay_with=[f"land-{i}" for i in range(4)])
    resolve(t)
    # Top first: the Wrath goes to the graveyard last, as it finishes resolving.
    assert graveyard(t, "A") == ["Wrath of God", "Grizzly Bears"] and graveyard(t, "B") == []
    t.do("cast", "A", card="blood", pay_with=["swamp"])
    resolve(t)
    assert graveyard(t, "B") == ["Darksteel Myr"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_terror_cannot_target_the_artifact_myr_vindicate_does_nothing_to_it(edition):
    t = table(edition, [h("myr", "Darksteel Myr", controller="B"),
                        h("plains", "Plains", controller="A"), h("swamp", "Swamp", controller="A"),
                        h("swamp-2", "Swamp", controller="A")],
              step="precombat_main", hand_a=[h("terror", "Terror"), h("vindicate", "Vindicate")])
    assert t.id("myr") not in targets_of(t, "cast", "terror")
    t.do("cast", "A", card="vindicate", targets=["myr"],
         pay_with=["plains", "swamp", "swamp-2"])
    resolve(t)
    assert t.find("myr") in t.obs()["battlefield"]


def test_modern_indestructible_blocks_a_deathtouch_attacker_and_stays():
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("myr", "Darksteel Myr", controller="B"),
                         h("spider", "Giant Spider", controller="B")])
    t.attack("hawk")
    t.advance("declare_blockers")
    # The Myr has neither flying nor reach: it can't block the Nighthawk at all.
    assert (t.id("myr"), t.id("hawk")) not in blocks_offered(t)
    assert (t.id("spider"), t.id("hawk")) in blocks_offered(t)


# -- evasion: vigilance, defender, Walls, reach, menace, protection in blocks -------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_vigilance_does_not_overcome_summoning_sickness(edition):
    # Serra Angel that came under A's control this turn can't attack (modern 302.6; 2004
    # 212.3d): vigilance only keeps attacking from tapping it.
    t = table(edition, [h("angel", "Serra Angel", controller="A", sick=True)])
    t.advance("declare_attackers")
    pending = t.obs()["pending"]
    assert pending is None or not any(a["action"] == "attack" for a in t.legal())


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_vigilant_attacker_can_tap_for_an_ability_in_combat(edition):
    # Serra Angel attacks untapped, and its Hermetic Study ability ({T}) can be activated
    # while it attacks; it stays attacking.
    t = table(edition, [h("angel", "Serra Angel", controller="A"),
                        h("study", "Hermetic Study", controller="A", attached_to="angel")])
    t.attack("angel")
    assert not t.find("angel")["tapped"]
    t.do("activate", "A", card="angel", ability=0, targets=["B"])
    resolve(t)
    assert t.find("angel")["tapped"] and t.find("angel")["attacking"]
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 15


@pytest.mark.parametrize("edition", EDITIONS)
def test_vigilance_does_not_let_a_tapped_or_pacified_creature_attack(edition):
    t = table(edition, [h("angel", "Serra Angel", controller="A", tapped=True),
                        h("angel-2", "Serra Angel", controller="A"),
                        h("pacifism", "Pacifism", controller="B", attached_to="angel-2")])
    t.advance("declare_attackers")
    assert not any(a["action"] == "attack" for a in t.legal())


@pytest.mark.parametrize("edition", EDITIONS)
def test_haste_does_not_let_a_wall_attack(edition):
    # Concordant Crossroads gives Wall of Spears haste: defender (modern 702.3b) or, in 2004,
    # being a Wall (308.2a) still keeps it from attacking.
    t = table(edition, [h("wall", "Wall of Spears", controller="A", sick=True),
                        h("cross", "Concordant Crossroads", controller="A")])
    t.advance("declare_attackers")
    assert not any(a["action"] == "attack" and a["card"] == t.id("wall") for a in t.legal())


@pytest.mark.parametrize("edition", EDITIONS)
def test_reach_blocks_a_flyer_but_gives_no_evasion(edition):
    # Giant Spider (reach) blocks Nightmare (flying); attacking, the Spider can be blocked by
    # a ground creature (reach is not flying: modern 702.17b; 2004 the card's text).
    t = table(edition, [h("nightmare", "Nightmare", controller="A"),
                        *[h(f"swamp-{i}", "Swamp", controller="A") for i in range(3)],
                        h("spider", "Giant Spider", controller="B"),
                        h("bears", "Grizzly Bears", controller="B")])
    t.attack("nightmare")
    t.advance("declare_blockers")
    offered = blocks_offered(t)
    assert (t.id("spider"), t.id("nightmare")) in offered
    assert (t.id("bears"), t.id("nightmare")) not in offered


@pytest.mark.parametrize("edition", EDITIONS)
def test_protection_from_white_keeps_a_white_and_blue_blocker_away(edition):
    # Knight of Stromgald (protection from white) can't be blocked by Crystalline Sliver,
    # white and blue (a creature that is white has the quality: modern 702.16f, 105.2;
    # 2004 502.7a).
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("sliver", "Crystalline Sliver", controller="B"),
                        h("bears", "Grizzly Bears", controller="B")])
    t.attack("knight")
    t.advance("declare_blockers")
    assert blocks_offered(t) == {(t.id("bears"), t.id("knight"))}


def test_modern_menace_with_one_untapped_creature_offers_no_block():
    # B has two creatures, one tapped: no legal block of the Brute exists (702.111b), so no
    # block of it is offered, and the other attacker may be blocked.
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("bears-a", "Grizzly Bears", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("lions", "Savannah Lions", controller="B", tapped=True)])
    t.attack("brute", "bears-a")
    t.advance("declare_blockers")
    assert blocks_offered(t) == {(t.id("bears"), t.id("bears-a"))}


def test_modern_menace_counts_only_creatures_that_could_block_it():
    # B's two creatures: Bears and a Pacifism'd Giant. The Giant can't block: the Brute has no
    # legal block.
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("giant", "Hill Giant", controller="B"),
                         h("pacifism", "Pacifism", controller="A", attached_to="giant")])
    t.attack("brute")
    t.advance("declare_blockers")
    assert blocks_offered(t) == set()


def test_modern_menace_blocked_by_two_one_of_them_dies_the_brute_stays_blocked():
    # Brute (3/2) blocked by Bears and Lions; before damage, the Lions are Shocked: the
    # Brute is still blocked (509.1h) and deals its damage to the Bears only, not to B.
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("mountain", "Mountain", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("lions", "Savannah Lions", controller="B")],
              hand_a=[h("shock", "Shock")])
    t.attack("brute")
    t.block({"bears": "brute", "lions": "brute"})
    t.do("cast", "A", card="shock", targets=["lions"], pay_with=["mountain"])
    resolve(t)
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    if pending is not None and pending["decision"] == "assign_combat_damage":
        t.do("choose", "A", choice=[[t.id("bears"), 3]])
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20
    assert "Grizzly Bears" in graveyard(t, "B")


# -- protection, shroud and hexproof: targets, Auras, Equipment ------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_protection_from_white_keeps_its_own_controllers_white_abilities_away(edition):
    # Mother of Runes (white) can't target its controller's Knight of Stromgald (protection
    # from white: any white source, its controller's too); colourless Icy Manipulator can.
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("mother", "Mother of Runes", controller="A"),
                        h("icy", "Icy Manipulator", controller="A"),
                        h("island", "Island", controller="A")],
              step="precombat_main")
    assert t.id("knight") not in targets_of(t, "activate", "mother")
    assert t.id("knight") in targets_of(t, "activate", "icy")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_multicoloured_spell_with_the_colour_cannot_target(edition):
    # Vindicate (white and black) can't target White Knight (protection from black).
    t = table(edition, [h("knight", "White Knight", controller="B"),
                        h("bears", "Grizzly Bears", controller="B"),
                        h("plains", "Plains", controller="A"), h("swamp", "Swamp", controller="A"),
                        h("swamp-2", "Swamp", controller="A")],
              step="precombat_main", hand_a=[h("vindicate", "Vindicate")])
    offered = targets_of(t, "cast", "vindicate")
    assert t.id("knight") not in offered and t.id("bears") in offered


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_spell_made_white_on_the_stack_is_countered_by_protection(edition):
    # Lightning Bolt targets Knight of Stromgald; Purelace makes the Bolt white: on
    # resolution its only target is illegal (protection from white: modern 702.16b, 608.2b;
    # 2004 502.7a, 413.2a) and it is countered.
    t = table(edition, [h("knight", "Knight of Stromgald", controller="B"),
                        h("mountain", "Mountain", controller="A"),
                        h("plains", "Plains", controller="A")],
              step="precombat_main", hand_a=[h("bolt", "Lightning Bolt"),
                                             h("purelace", "Purelace")])
    t.do("cast", "A", card="bolt", targets=["knight"], pay_with=["mountain"])
    t.do("cast", "A", card="purelace", targets=["bolt"], pay_with=["plains"])
    resolve(t)  # Purelace
    resolve(t)  # the Bolt
    assert t.find("knight") in t.obs()["battlefield"] and t.find("knight")["damage"] == 0
    assert any(e["type"] == "fizzle" for e in t.events)


@pytest.mark.parametrize("edition", EDITIONS)
def test_wrath_destroys_a_creature_with_protection_from_white(edition):
    # Protection stops damage, enchanting/equipping, blocking and targeting only (modern
    # 702.16a-f; 2004 502.7a): Wrath of God, white, destroys Knight of Stromgald.
    t = table(edition, [h("knight", "Knight of Stromgald", controller="B"),
                        *[h(f"land-{i}", "Plains", controller="A") for i in range(4)]],
              step="precombat_main", hand_a=[h("wrath", "Wrath of God")])
    t.do("cast", "A", card="wrath", pay_with=[f"land-{i}" for i in range(4)])
    resolve(t)
    assert graveyard(t, "B") == ["Knight of Stromgald"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_replenish_puts_an_aura_on_a_shrouded_creature_but_not_a_protected_one(edition):
    # An Aura put onto the battlefield without being cast targets nothing: shroud does not
    # keep it away (modern 303.4f, 702.18a; 2004: the Sliver's text says "target"), protection
    # does (modern 702.16c; 2004 502.7a, no enchantments of the quality).
    t = table(edition, [h("sliver", "Crystalline Sliver", controller="A"),
                        *[h(f"land-{i}", "Plains", controller="A") for i in range(4)]],
              step="precombat_main", hand_a=[h("replenish", "Replenish")],
              grave_a=[h("strength", "Holy Strength")])
    t.do("cast", "A", card="replenish", pay_with=[f"land-{i}" for i in range(4)])
    resolve(t)
    pending = t.obs()["pending"]
    if pending is not None:
        t.do("choose", "A", choice=t.id("sliver"))
    assert t.find("strength")["attached_to"] == t.id("sliver")

    u = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        *[h(f"land-{i}", "Plains", controller="A") for i in range(4)]],
              step="precombat_main", hand_a=[h("replenish", "Replenish")],
              grave_a=[h("strength", "Holy Strength")])
    u.do("cast", "A", card="replenish", pay_with=[f"land-{i}" for i in range(4)])
    resolve(u)
    assert u.obs()["pending"] is None
    assert sorted(graveyard(u, "A")) == ["Holy Strength", "Replenish"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_shroud_keeps_its_controllers_equip_away_hexproof_does_not(edition):
    # Equip targets (modern 702.6a; 2004 502.33a): not Crystalline Sliver (shroud), but
    # Troll Ascetic, hexproof against opponents only.
    t = table(edition, [h("sliver", "Crystalline Sliver", controller="A"),
                        h("troll", "Troll Ascetic", controller="A"),
                        h("splitter", "Bonesplitter", controller="A"),
                        h("island", "Island", controller="A")], step="precombat_main")
    offered = targets_of(t, "activate", "splitter")
    assert t.id("troll") in offered and t.id("sliver") not in offered


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_equip_ability_of_a_white_equipment_cannot_target_a_protected_creature(edition):
    # Bonesplitter made white by Purelace: its equip ability's source is white, so it can't
    # target Knight of Stromgald (protection from white: modern 702.16b, 2004 502.7a).
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("bears", "Grizzly Bears", controller="A"),
                        h("splitter", "Bonesplitter", controller="A"),
                        h("plains", "Plains", controller="A"),
                        h("island", "Island", controller="A")],
              step="precombat_main", hand_a=[h("purelace", "Purelace")])
    assert t.id("knight") in targets_of(t, "activate", "splitter")
    t.do("cast", "A", card="purelace", targets=["splitter"], pay_with=["plains"])
    resolve(t)
    offered = targets_of(t, "activate", "splitter")
    assert t.id("knight") not in offered and t.id("bears") in offered


@pytest.mark.parametrize("edition", EDITIONS)
def test_hexproof_stops_an_opponents_control_magic_not_its_controllers_aura(edition):
    t = table(edition, [h("troll", "Troll Ascetic", controller="B"),
                        h("bears", "Grizzly Bears", controller="B"),
                        *[h(f"island-{i}", "Island", controller="A") for i in range(4)]],
              step="precombat_main", hand_a=[h("magic", "Control Magic")])
    offered = targets_of(t, "cast", "magic")
    assert t.id("troll") not in offered and t.id("bears") in offered
    u = table(edition, [h("troll", "Troll Ascetic", controller="A"),
                        h("plains", "Plains", controller="A")],
              step="precombat_main", hand_a=[h("strength", "Holy Strength")])
    assert u.id("troll") in targets_of(u, "cast", "strength")


@pytest.mark.parametrize("edition", EDITIONS)
def test_hexproof_troll_regenerates_from_lethal_damage_in_combat(edition):
    # Troll Ascetic's controller targets nothing to regenerate it: its shield replaces the
    # destruction by lethal damage (modern 701.19a; 2004 419.6b).
    t = table(edition, [h("troll", "Troll Ascetic", controller="A"),
                        h("forest", "Forest", controller="A"),
                        h("forest-2", "Forest", controller="A"),
                        h("giant", "Hill Giant", controller="B")])
    t.attack("troll")
    t.block({"giant": "troll"})
    t.do("activate", "A", card="troll", ability=0, pay_with=["forest", "forest-2"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.find("troll") in t.obs()["battlefield"] and t.find("troll")["tapped"]
    assert graveyard(t, "B") == ["Hill Giant"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_mother_of_runes_can_protect_herself_from_white_and_the_ability_still_resolves(
        edition):
    # The colour is chosen as the ability resolves, after its target was checked: Mother of
    # Runes gives herself protection from white.
    t = table(edition, [h("mother", "Mother of Runes", controller="A")], step="precombat_main")
    mother(t, "mother", "W")
    assert "protection from W" in t.game.chars(t.game.objects[t.id("mother")]).keywords


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_that_becomes_the_colour_stays_blocking_and_its_damage_is_prevented(edition):
    # Grizzly Bears block Knight of Stromgald (protection from white); Purelace then makes the
    # Bears white. Protection is checked as blockers are declared, so the block stands
    # (modern 509.1b, 702.16f; 2004 502.7a), and the Bears' damage is prevented (702.16e).
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("plains", "Plains", controller="A"),
                        h("bears", "Grizzly Bears", controller="B")],
              hand_a=[h("purelace", "Purelace")])
    t.attack("knight")
    t.block({"bears": "knight"})
    t.do("cast", "A", card="purelace", targets=["bears"], pay_with=["plains"])
    resolve(t)
    assert t.find("bears")["blocking"] == t.id("knight")
    t.advance("end_of_combat")
    assert graveyard(t, "B") == ["Grizzly Bears"]
    assert t.find("knight")["damage"] == 0
    assert t.player("B")["life"] == 20


def test_modern_lifelink_and_infect_damage_gains_life_for_poison_damage():
    # Plague Stinger with Loxodon Warhammer (4/1 flying, infect, trample, lifelink): damage to
    # B is dealt as poison counters (702.90b) and is still damage dealt, so A gains 4
    # (702.15b).
    t = table("modern", [h("stinger", "Plague Stinger", controller="A"),
                         h("hammer", "Loxodon Warhammer", controller="A",
                           attached_to="stinger")])
    t.attack("stinger")
    t.advance("end_of_combat")
    assert t.player("B")["poison"] == 4 and t.player("B")["life"] == 20
    assert t.player("A")["life"] == 24


def test_modern_two_menace_attackers_two_blockers_block_one_of_them_only():
    # B's two creatures may both block one Brute; splitting them would leave each Brute with
    # one blocker (702.111b): once one Brute has a blocker, the other blocker is offered only
    # for that Brute.
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("brute-2", "Boggart Brute", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("lions", "Savannah Lions", controller="B")])
    t.attack("brute", "brute-2")
    t.advance("declare_blockers")
    t.do("block", "B", card="bears", attacker="brute")
    assert blocks_offered(t) == {(t.id("lions"), t.id("brute"))}
    assert not any(a["action"] == "done" for a in t.legal())
    t.do("block", "B", card="lions", attacker="brute")
    t.do("done", "B")
    t.advance("combat_damage")
    t.do("choose", "A", choice=[[t.id("bears"), 3], [t.id("lions"), 0]])
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 17


def test_modern_deathtouch_and_lifelink_of_an_ability_whose_source_left():
    # Hermetic Study's ping from Vampire Nighthawk, which is returned to its owner's hand in
    # response: the source as it last existed had deathtouch and lifelink (702.2e, 702.15c),
    # so the Giant is destroyed by 1 damage and A gains 1.
    t = table("modern", [h("hawk", "Vampire Nighthawk", controller="A"),
                         h("study", "Hermetic Study", controller="A", attached_to="hawk"),
                         h("island", "Island", controller="A"),
                         h("giant", "Hill Giant", controller="B")],
              step="precombat_main", hand_a=[h("unsummon", "Unsummon")])
    t.do("activate", "A", card="hawk", ability=0, targets=["giant"])
    t.do("cast", "A", card="unsummon", targets=["hawk"], pay_with=["island"])
    resolve(t)  # Unsummon
    assert "Vampire Nighthawk" in t.cards(t.player("A")["hand"])
    resolve(t)  # the ability
    assert graveyard(t, "B") == ["Hill Giant"]
    assert t.player("A")["life"] == 21
