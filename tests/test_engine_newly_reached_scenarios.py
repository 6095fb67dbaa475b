"""An independent rules review of the cards and mechanics added in f215a4b (Stone Giant,
Vanishing, Nurgle's Rot, Snapcaster Mage, Lightstall Inquisitor, Evolving Wilds with Future
Sight, Rest in Peace and Pull from Eternity), in tricky scenarios. Each test is one scenario,
checked against the Comprehensive Rules (modern: 2024-08-02; cr2004: 2004-06-01) and the Oracle
text in spec/cards.yaml. Where the engine is wrong the test says what the rules say and is a
strict xfail naming the rule."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.engine import ReferenceEngine
from tests.enginekit import Table, given, h, resolve, table

EDITIONS = ("cr2004", "modern")


def lands(card: str, count: int, controller: str = "A", prefix: str | None = None) -> list:
    prefix = prefix or f"{card.lower()}-{controller.lower()}"
    return [h(f"{prefix}-{i}", card, controller=controller) for i in range(1, count + 1)]


def choices(t: Table) -> list[Any]:
    return [a.get("choice") for a in t.legal() if a["action"] == "choose"]


def zone(t: Table, where: str, player: str | None = None) -> list[str]:
    o = t.obs()
    return sorted(t.cards(o["players"][player][where] if player else o[where]))


def casts(t: Table, player: str) -> set[Any]:
    return {a["card"] for a in t.legal() if a["action"] == "cast" and a["player"] == player}


def cast_targets(t: Table, card: str) -> set[Any]:
    return {tg.get("object", tg.get("player")) for a in t.legal()
            if a["action"] == "cast" and a["card"] == t.id(card) for tg in a.get("targets", [])}


def activate_targets(t: Table, card: str) -> set[Any]:
    return {tg.get("object", tg.get("player")) for a in t.legal()
            if a["action"] == "activate" and a["card"] == t.id(card)
            for tg in a.get("targets", [])}


def answer_graveyard_orders(t: Table) -> None:
    while (t.obs()["pending"] or {}).get("decision") == "order_graveyard":
        t.do("choose", t.obs()["pending"]["player"], choice=choices(t)[0])


def flying(t: Table, handle: str) -> bool:
    game = t.engine.game
    return game.has(game.objects[t.id(handle)], "flying")


def on_battlefield(t: Table) -> list[str]:
    """Cards on the battlefield and phased in."""
    return sorted(o["card"] for o in t.obs()["battlefield"] if not o.get("phased_out"))


# ==== Stone Giant ===============================================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_spares_a_creature_phased_out_at_the_end_step(edition):
    # Modern 702.26b: a phased-out permanent is treated as though it does not exist; the
    # delayed "destroy that creature" finds nothing to destroy (2004 217.8a/c: it is not in
    # play at all, in the phased-out zone). It phases in at A's next untap step, alive.
    t = table(edition, battlefield=[
        h("giant", "Stone Giant", controller="A"), h("elves", "Llanowar Elves", controller="A"),
        h("vanishing", "Vanishing", controller="A", attached_to="elves"), *lands("Island", 2)])
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    resolve(t)
    assert flying(t, "elves")
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-a-1", "island-a-2"])
    resolve(t)
    t.advance("end")
    while t.obs()["stack"]:
        resolve(t)
    t.advance("upkeep", turn=5)
    assert "Llanowar Elves" in on_battlefield(t)
    assert "Llanowar Elves" not in zone(t, "graveyard", "A")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_with_bonesplitter_may_target_itself(edition):
    # A 5/4 Giant: its own toughness 4 is less than its power 5, and it is a creature you
    # control; it flies, and is destroyed at the next end step.
    t = table(edition, battlefield=[
        h("giant", "Stone Giant", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="giant")])
    assert t.id("giant") in activate_targets(t, "giant")
    t.do("activate", "A", card="giant", ability=0, targets=["giant"])
    resolve(t)
    assert flying(t, "giant")
    t.advance("end")
    resolve(t)
    assert zone(t, "graveyard", "A") == ["Stone Giant"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_weakened_to_power_one_has_no_legal_target(edition):
    # Weakness makes the Giant 1/3: no creature has toughness less than 1 (Elves: 1, not less),
    # so the ability can't be activated (modern 601.2c/602.2b, 2004 409.1c: a target is needed).
    t = table(edition, battlefield=[
        h("giant", "Stone Giant", controller="A"),
        h("weak", "Weakness", controller="B", attached_to="giant"),
        h("elves", "Llanowar Elves", controller="A")])
    assert activate_targets(t, "giant") == set()
    t.illegal("activate", "A", card="giant", ability=0, targets=["elves"])


def test_stone_giant_gone_before_resolution_uses_its_last_known_power():
    # The Giant, pumped to 6/7, targets a 3/3 Hill Giant, then is Terrored in response. The
    # ability resolves without its source (modern 113.7a); the target check uses the source's
    # last known information (modern 608.2b with 608.2h): power 6, so 3 < 6 and the target is
    # still legal: the Hill Giant flies and dies at the end step. (Modern only: the June 2004
    # text of the LKI clause for target checks is not in the seeds.)
    t = table("modern", a={"hand": [h("growth", "Giant Growth"), h("terror", "Terror")]},
              battlefield=[h("giant", "Stone Giant", controller="A"),
                           h("hill", "Hill Giant", controller="A"),
                           *lands("Forest", 1), *lands("Swamp", 2)])
    t.do("cast", "A", card="growth", targets=["giant"], pay_with=["forest-a-1"])
    resolve(t)
    t.do("activate", "A", card="giant", ability=0, targets=["hill"])
    t.do("cast", "A", card="terror", targets=["giant"], pay_with=["swamp-a-1", "swamp-a-2"])
    resolve(t)
    assert "Stone Giant" in zone(t, "graveyard", "A")
    resolve(t)
    assert flying(t, "hill")
    t.advance("end")
    resolve(t)
    assert "Hill Giant" in zone(t, "graveyard", "A")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_target_phased_out_in_response_sets_up_no_destruction(edition):
    # Vanishing in response: the only target is gone (phased out), the ability does nothing
    # (modern 608.2b; 2004 413.2a), so no delayed trigger is created; the Elves come back and
    # live on through later end steps.
    t = table(edition, battlefield=[
        h("giant", "Stone Giant", controller="A"), h("elves", "Llanowar Elves", controller="A"),
        h("vanishing", "Vanishing", controller="A", attached_to="elves"), *lands("Island", 2)])
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-a-1", "island-a-2"])
    resolve(t)
    resolve(t)
    t.advance("end")
    assert not t.obs()["stack"]
    t.advance("end", turn=5)
    assert not t.obs()["stack"]
    assert "Llanowar Elves" in on_battlefield(t)
    assert not flying(t, "elves")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_destruction_can_be_regenerated(edition):
    # "Destroy that creature" can be replaced by regeneration (modern 701.19a/c, 2004 419.6b):
    # Drudge Skeletons regenerate in response to the trigger and stay, tapped; the flying ends
    # at cleanup with the turn.
    t = table(edition, battlefield=[h("giant", "Stone Giant", controller="A"),
                                    h("skel", "Drudge Skeletons", controller="A"),
                                    *lands("Swamp", 1)])
    t.do("activate", "A", card="giant", ability=0, targets=["skel"])
    resolve(t)
    t.advance("end")
    assert t.obs()["stack"]
    t.do("activate", "A", card="skel", ability=0, pay_with=["swamp-a-1"])
    resolve(t)  # the shield
    resolve(t)  # the delayed destruction: regenerated
    assert "Drudge Skeletons" in on_battlefield(t)
    assert t.find("skel")["tapped"] is True
    t.advance("upkeep", turn=4)
    assert not flying(t, "skel")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_on_the_opponents_turn_destroys_at_that_turns_end_step(edition):
    # Activated in B's turn: "the next end step" (2004 "end of turn") is B's end step this turn.
    t = table(edition, active="B", turn=4,
              battlefield=[h("giant", "Stone Giant", controller="A"),
                           h("elves", "Llanowar Elves", controller="A")])
    t.do("pass", "B")
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    resolve(t)
    t.advance("end", turn=4)
    assert t.obs()["stack"]
    resolve(t)
    assert "Llanowar Elves" in zone(t, "graveyard", "A")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_destroys_that_creature_after_its_control_changed(edition):
    # Activated in B's upkeep on A's Elves; B then takes the Elves with Control Magic. At B's
    # end step "that creature" is destroyed all the same, whoever controls it (2004 202.2a:
    # the object, not its characteristics); it goes to its owner's (A's) graveyard.
    t = table(edition, active="B", turn=4, step="upkeep",
              b={"hand": [h("magic", "Control Magic")]},
              battlefield=[h("giant", "Stone Giant", controller="A"),
                           h("elves", "Llanowar Elves", controller="A"),
                           *lands("Island", 4, "B")])
    t.do("pass", "B")
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    resolve(t)
    t.advance("precombat_main", turn=4)
    t.do("cast", "B", card="magic", targets=["elves"], pay_with="auto")
    resolve(t)
    assert t.find("elves")["controller"] == "B"
    t.advance("end", turn=4)
    resolve(t)
    assert zone(t, "graveyard", "A") == ["Llanowar Elves"]
    assert zone(t, "graveyard", "B") == ["Control Magic"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_cannot_target_your_creature_the_opponent_controls(edition):
    # "Target creature you control": A's own Elves under B's Control Magic are not a target;
    # B's Stone Giant (A's card, under B's Control Magic) may target B's Elves.
    t = table(edition, battlefield=[
        h("giant", "Stone Giant", controller="A"),
        h("elves", "Llanowar Elves", controller="B", owner="A"),
        h("magic", "Control Magic", controller="B", attached_to="elves"),
        h("cub", "Savannah Lions", controller="A")])
    assert activate_targets(t, "giant") == {t.id("cub")}
    assert t.illegal("activate", "A", card="giant", ability=0, targets=["elves"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_destroys_a_land_after_living_plane_leaves(edition):
    # Living Plane makes the Forest a 1/1 creature land; the Giant targets it; Living Plane
    # goes (Vindicate): the Forest is no creature but is still "that creature" (2004 202.2a).
    t = table(edition, a={"hand": [h("vindicate", "Vindicate")]},
              battlefield=[h("giant", "Stone Giant", controller="A"),
                           h("plane", "Living Plane", controller="B"),
                           h("target", "Forest", controller="A"),
                           *lands("Plains", 1), *lands("Swamp", 1), *lands("Mountain", 1)])
    t.do("activate", "A", card="giant", ability=0, targets=["target"])
    resolve(t)
    t.do("cast", "A", card="vindicate", targets=["plane"],
         pay_with=["plains-a-1", "swamp-a-1", "mountain-a-1"])
    resolve(t)
    assert "Creature" not in t.find("target")["types"]
    t.advance("end")
    resolve(t)
    assert zone(t, "graveyard", "A") == ["Forest", "Vindicate"]


# ==== Vanishing ================================================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_vanishing_in_response_to_a_bolt_the_bolt_is_countered_on_resolution(edition):
    # The only target is phased out (treated as though it does not exist): an illegal target,
    # the Bolt does nothing and goes to the graveyard (modern 608.2b, 2004 413.2a).
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("vanishing", "Vanishing", controller="B", attached_to="bears"),
                           *lands("Mountain", 1), *lands("Island", 2, "B")])
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-1"])
    t.do("pass", "A")
    t.do("activate", "B", card="vanishing", ability=0, pay_with=["island-b-1", "island-b-2"])
    resolve(t)
    resolve(t)
    assert zone(t, "graveyard", "A") == ["Lightning Bolt"]
    t.advance("upkeep", turn=4)
    assert {"Grizzly Bears", "Vanishing"} <= set(on_battlefield(t))
    assert t.find("bears")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_vanishing_phases_out_every_aura_on_the_creature_and_they_return_attached(edition):
    # Holy Strength, also on the Bears, phases out indirectly and phases in attached (modern
    # 702.26g; 2004 phasing the same): the Bears are 3/4 again.
    t = table(edition, battlefield=[
        h("bears", "Grizzly Bears", controller="A"),
        h("vanishing", "Vanishing", controller="A", attached_to="bears"),
        h("holy", "Holy Strength", controller="A", attached_to="bears"), *lands("Island", 2)])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-a-1", "island-a-2"])
    resolve(t)
    assert "Holy Strength" not in on_battlefield(t)
    t.advance("upkeep", turn=5)
    assert {"Grizzly Bears", "Holy Strength", "Vanishing"} <= set(on_battlefield(t))
    bears = t.find("bears")
    assert (bears["power"], bears["toughness"]) == (3, 4)
    assert t.find("holy")["attached_to"] == t.id("bears")


@pytest.mark.parametrize("edition", EDITIONS)
def test_phasing_in_is_not_entering_soul_warden_does_not_trigger(edition):
    # Phasing in is no zone change and triggers no "enters" ability (modern 702.26d; 2004
    # phasing: no comes-into-play trigger).
    t = table(edition, battlefield=[
        h("warden", "Soul Warden", controller="A"), h("bears", "Grizzly Bears", controller="A"),
        h("vanishing", "Vanishing", controller="A", attached_to="bears"), *lands("Island", 2)])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-a-1", "island-a-2"])
    resolve(t)
    t.advance("upkeep", turn=5)
    assert "Grizzly Bears" in on_battlefield(t)
    assert t.player("A")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_wrath_of_god_misses_a_phased_out_creature(edition):
    t = table(edition, a={"hand": [h("wrath", "Wrath of God")]},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("vanishing", "Vanishing", controller="B", attached_to="bears"),
                           h("cub", "Bear Cub", controller="A"),
                           *lands("Plains", 4), *lands("Island", 2, "B")])
    t.do("pass", "A")
    t.do("activate", "B", card="vanishing", ability=0, pay_with=["island-b-1", "island-b-2"])
    resolve(t)
    t.do("cast", "A", card="wrath", pay_with="auto")
    resolve(t)
    assert zone(t, "graveyard", "A") == ["Bear Cub", "Wrath of God"]
    t.advance("upkeep", turn=4)
    assert "Grizzly Bears" in on_battlefield(t)


# ==== Nurgle's Rot (modern 400.7f) ===============================================================


def test_nurgles_rot_owned_by_the_opponent_returns_to_its_owner_and_the_controller_gets_the_demon():
    # A controls a Rot that B owns, on B's Bears.
    # The Rot goes to its owner's (B's) graveyard, is found there (400.7f) and returns to B's
    # hand; "you" (the Rot's controller, A) create the Demon.
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("rot", "Nurgle's Rot", controller="A", owner="B",
                             attached_to="bears"), *lands("Mountain", 1)])
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-1"])
    resolve(t)
    assert "Nurgle's Rot" in zone(t, "graveyard", "B")
    resolve(t)
    assert zone(t, "hand", "B") == ["Nurgle's Rot"]
    demon = [o for o in t.obs()["battlefield"] if o["card"] == "Plaguebearer of Nurgle"]
    assert [d["controller"] for d in demon] == ["A"]


def test_nurgles_rot_on_a_token_that_dies_triggers():
    # A token dies (it is put into a graveyard from the battlefield) before it ceases to exist.
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("soldier", "Grizzly Bears", controller="B", token=True),
                           h("rot", "Nurgle's Rot", controller="A", attached_to="soldier"),
                           *lands("Mountain", 1)])
    t.do("cast", "A", card="bolt", targets=["soldier"], pay_with=["mountain-a-1"])
    resolve(t)
    resolve(t)
    assert zone(t, "hand", "A") == ["Nurgle's Rot"]
    assert "Plaguebearer of Nurgle" in on_battlefield(t)


def test_nurgles_rot_does_not_trigger_under_rest_in_peace():
    # The Bears are exiled instead of dying: no "dies" (modern 700.4), no trigger; the Rot is
    # then exiled too by the state-based action (704.5m) under Rest in Peace.
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("rot", "Nurgle's Rot", controller="A", attached_to="bears"),
                           h("rip", "Rest in Peace", controller="B"), *lands("Mountain", 1)])
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-1"])
    resolve(t)
    assert not t.obs()["stack"]
    assert zone(t, "exile") == ["Grizzly Bears", "Lightning Bolt", "Nurgle's Rot"]
    assert "Plaguebearer of Nurgle" not in on_battlefield(t)


def test_nurgles_rot_destroyed_first_does_not_trigger_on_a_later_death():
    t = table("modern", a={"hand": [h("vindicate", "Vindicate"), h("bolt", "Lightning Bolt")]},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("rot", "Nurgle's Rot", controller="A", attached_to="bears"),
                           *lands("Plains", 1), *lands("Swamp", 1), *lands("Mountain", 2)])
    t.do("cast", "A", card="vindicate", targets=["rot"],
         pay_with=["plains-a-1", "swamp-a-1", "mountain-a-1"])
    resolve(t)
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-2"])
    resolve(t)
    assert not t.obs()["stack"]
    assert "Nurgle's Rot" in zone(t, "graveyard", "A")


# ==== Snapcaster Mage (modern 400.7g, 702.34a) =================================================


def _snap(graveyard: list, hand: list = (), battlefield: list = (), **more: Any) -> Table:
    t = table("modern", a={"hand": [h("snap", "Snapcaster Mage"), *hand], "graveyard": graveyard},
              battlefield=[*lands("Island", 2), *battlefield], **more)
    t.do("cast", "A", card="snap", pay_with=["island-a-1", "island-a-2"])
    resolve(t)
    return t


def test_snapcaster_targets_only_instant_or_sorcery_cards_in_your_own_graveyard():
    # A land, a creature card, and B's Bolt are not targets: A's Shock and Mind Rot are.
    t = _snap([h("forest", "Forest"), h("bears", "Grizzly Bears"), h("shock", "Shock"),
               h("rot", "Mind Rot")],
              battlefield=[*lands("Mountain", 1), *lands("Mountain", 1, "B")],
              b={"graveyard": [h("bolt", "Lightning Bolt")]})
    assert t.obs()["pending"]["decision"] == "choose_targets"
    offered = {tg["object"] for a in t.legal() if a["action"] == "choose"
               for tg in a.get("targets", [])}
    assert offered == {t.id("shock"), t.id("rot")}
    t.do("choose", "A", targets=["shock"])
    resolve(t)
    assert t.id("shock") in casts(t, "A")
    assert t.id("forest") not in {a.get("card") for a in t.legal()}
    t.do("pass", "A")
    assert t.id("bolt") not in casts(t, "B")


def test_snapcaster_with_only_a_land_in_the_graveyard_grants_nothing():
    t = _snap([h("forest", "Forest")], battlefield=[*lands("Mountain", 1)])
    resolve(t)
    assert not t.obs()["stack"]
    assert not any(a.get("card") == t.id("forest") for a in t.legal())
    assert t.illegal("play_land", "A", card="forest")


def test_snapcaster_flashback_is_still_there_in_the_end_step_of_that_turn():
    # "Until end of turn" lasts until the cleanup step (modern 514.2): an instant with
    # flashback may still be cast during the end step.
    t = _snap([h("bolt", "Lightning Bolt")], battlefield=[*lands("Mountain", 1)])
    resolve(t)
    t.advance("end")
    assert t.id("bolt") in casts(t, "A")
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-a-1"])
    resolve(t)
    assert t.player("B")["life"] == 17
    assert zone(t, "exile") == ["Lightning Bolt"]


def test_snapcaster_flashback_spell_whose_target_goes_is_exiled_not_put_in_the_graveyard():
    # Countered on resolution for an illegal target (608.2b): it would leave the stack, so
    # flashback exiles it (702.34a).
    t = _snap([h("bolt", "Lightning Bolt")], hand=[h("unsummon", "Unsummon")],
              battlefield=[*lands("Mountain", 1), *lands("Island", 1, prefix="extra"),
                           h("bears", "Grizzly Bears", controller="B")])
    resolve(t)
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-1"])
    t.do("cast", "A", card="unsummon", targets=["bears"], pay_with=["extra-1"])
    resolve(t)
    resolve(t)
    assert zone(t, "exile") == ["Lightning Bolt"]
    assert zone(t, "graveyard", "A") == ["Unsummon"]


def test_snapcaster_flashback_fireball_pays_x_and_the_extra_target_cost():
    # The flashback cost is {X}{R}; Fireball's additional cost for a second target still
    # applies on top of it (modern 601.2f): X=2, two targets = {2}{R} + {1}.
    t = _snap([h("fireball", "Fireball")], battlefield=[*lands("Mountain", 4)])
    resolve(t)
    t.do("cast", "A", card="fireball", targets=["B", "A"], x=2,
         pay_with=["mountain-a-1", "mountain-a-2", "mountain-a-3", "mountain-a-4"])
    resolve(t)
    assert (t.player("A")["life"], t.player("B")["life"]) == (19, 19)
    assert zone(t, "exile") == ["Fireball"]


def test_snapcaster_flashback_fireball_cannot_skip_the_extra_target_cost():
    t = _snap([h("fireball", "Fireball")], battlefield=[*lands("Mountain", 3)])
    resolve(t)
    assert t.illegal("cast", "A", card="fireball", targets=["B", "A"], x=2,
                     pay_with=["mountain-a-1", "mountain-a-2", "mountain-a-3"])


def test_snapcaster_flashback_is_its_owners_only_the_opponent_cannot_cast_it():
    t = _snap([h("bolt", "Lightning Bolt")],
              battlefield=[*lands("Mountain", 1, "B")])
    resolve(t)
    t.do("pass", "A")
    assert t.id("bolt") not in casts(t, "B")
    assert t.illegal("cast", "B", card="bolt", targets=["A"], pay_with=["mountain-b-1"])


def test_flashed_back_think_twice_pulled_from_exile_keeps_only_its_printed_flashback():
    # Think Twice is flashed back with Snapcaster's cost ({1}{U}) and exiled; Pull from
    # Eternity puts it into the graveyard: a new object (400.7) with no granted flashback,
    # but its own printed Flashback {2}{U}.
    t = _snap([h("twice", "Think Twice")], hand=[h("pull", "Pull from Eternity")],
              battlefield=[*lands("Island", 3, prefix="more"), *lands("Plains", 1)])
    resolve(t)
    t.do("cast", "A", card="twice", pay_with=["more-1", "more-2"])
    resolve(t)
    assert zone(t, "exile") == ["Think Twice"]
    t.do("cast", "A", card="pull", targets=["twice"], pay_with=["plains-a-1"])
    resolve(t)
    assert "Think Twice" in zone(t, "graveyard", "A")
    assert t.illegal("cast", "A", card="twice", pay_with=["more-3"])  # {1}{U} no more
    # {2}{U} is more than the one Island left: it is not castable, but the card is its own
    assert t.id("twice") not in casts(t, "A")


def test_snapcaster_flashed_in_on_the_opponents_turn_flashes_back_a_counterspell():
    # Flash lets the Mage enter in B's turn; the granted flashback Counterspell, an instant,
    # counters B's spell, then is exiled (702.34a).
    t = table("modern", active="B", turn=4,
              a={"hand": [h("snap", "Snapcaster Mage")],
                 "graveyard": [h("counter", "Counterspell")]},
              b={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=[*lands("Island", 4), *lands("Forest", 2, "B")])
    t.do("cast", "B", card="bears", pay_with=["forest-b-1", "forest-b-2"])
    t.do("pass", "B")
    t.do("cast", "A", card="snap", pay_with=["island-a-1", "island-a-2"])
    resolve(t)  # the Mage resolves: its trigger goes on the stack
    resolve(t)  # the trigger
    t.do("pass", "B")
    t.do("cast", "A", card="counter", targets=["bears"], pay_with=["island-a-3", "island-a-4"])
    resolve(t)
    assert zone(t, "exile") == ["Counterspell"]
    assert zone(t, "graveyard", "B") == ["Grizzly Bears"]


# ==== Lightstall Inquisitor (modern 400.7h, 400.7i) ==============================================


def test_lightstall_a_card_cast_from_exile_and_exiled_again_by_rest_in_peace_is_not_playable():
    # The Bolt leaves exile when cast; under Rest in Peace it is exiled as it resolves: a new
    # object (400.7), no longer the card that "remains exiled": no permission, no rider.
    t = _inquisitor([h("bolt", "Lightning Bolt")],
                    battlefield=[h("rip", "Rest in Peace", controller="A"),
                                 *lands("Mountain", 4, "B")])
    t.do("pass", "A")
    t.do("cast", "B", card="bolt", targets=["A"], pay_with=["mountain-b-1", "mountain-b-2"])
    resolve(t)
    assert zone(t, "exile") == ["Lightning Bolt"]
    t.do("pass", "A")
    assert t.id("bolt") not in casts(t, "B")
    assert t.illegal("cast", "B", card="bolt", targets=["A"],
                     pay_with=["mountain-b-3", "mountain-b-4"])



def _inquisitor(b_hand: list, battlefield: list = (), **more: Any) -> Table:
    t = table("modern", a={"hand": [h("inquisitor", "Lightstall Inquisitor"),
                                     *more.pop("a_hand", [])]},
              b={"hand": b_hand}, battlefield=[*lands("Plains", 1), *battlefield], **more)
    t.do("cast", "A", card="inquisitor", pay_with=["plains-a-1"])
    resolve(t)
    resolve(t)
    return t


def test_lightstall_a_flash_creature_exiled_may_be_cast_in_the_other_players_turn_for_one_more():
    t = _inquisitor([h("kavu", "Raging Kavu")],
                    battlefield=[*lands("Mountain", 2, "B"), *lands("Forest", 2, "B")])
    assert zone(t, "exile") == ["Raging Kavu"]
    t.do("pass", "A")
    assert t.illegal("cast", "B", card="kavu",
                     pay_with=["mountain-b-1", "forest-b-1", "forest-b-2"])
    t.do("cast", "B", card="kavu",
         pay_with=["mountain-b-1", "mountain-b-2", "forest-b-1", "forest-b-2"])
    resolve(t)
    assert "Raging Kavu" in on_battlefield(t)
    assert t.find("kavu")["controller"] == "B"


def test_lightstall_permission_outlives_the_inquisitor_and_the_turn():
    # The permission lasts "for as long as it remains exiled", not while the Inquisitor stays.
    t = _inquisitor([h("bolt", "Lightning Bolt")], a_hand=[h("bolt-a", "Lightning Bolt")],
                    battlefield=[*lands("Mountain", 1), *lands("Mountain", 2, "B")])
    t.do("cast", "A", card="bolt-a", targets=["inquisitor"], pay_with=["mountain-a-1"])
    resolve(t)
    assert "Lightstall Inquisitor" in zone(t, "graveyard", "A")
    t.advance("precombat_main", turn=6)  # B's turn, two turns later
    assert t.id("bolt") in casts(t, "B")
    t.do("cast", "B", card="bolt", targets=["A"], pay_with=["mountain-b-1", "mountain-b-2"])
    resolve(t)
    assert t.player("A")["life"] == 17


def test_lightstall_only_the_spell_cast_that_way_costs_more_flashback_later_does_not():
    # Think Twice cast from exile costs {1}{U}+{1}; once in the graveyard it is a new object:
    # its flashback {2}{U} has no rider (400.7h is about the spell cast "this way" only).
    t = _inquisitor([h("twice", "Think Twice")], battlefield=[*lands("Island", 6, "B")])
    t.do("pass", "A")
    assert t.illegal("cast", "B", card="twice", pay_with=["island-b-1", "island-b-2"])
    t.do("cast", "B", card="twice", pay_with=["island-b-1", "island-b-2", "island-b-3"])
    resolve(t)
    assert zone(t, "graveyard", "B") == ["Think Twice"]
    t.do("pass", "A")
    t.do("cast", "B", card="twice", pay_with=["island-b-4", "island-b-5", "island-b-6"])
    resolve(t)
    assert zone(t, "exile") == ["Think Twice"]


def test_lightstall_a_land_from_exile_may_not_be_played_after_the_land_drop():
    t = _inquisitor([h("forest", "Forest"), h("mountain", "Mountain")])
    t.do("choose", "B", choice="forest")
    t.advance("precombat_main", turn=4)
    t.do("play_land", "B", card="mountain")
    assert t.find("mountain")["tapped"] is False  # from the hand: untapped, no rider
    assert t.illegal("play_land", "B", card="forest")


def test_lightstall_exiled_sorcery_keeps_sorcery_timing():
    t = _inquisitor([h("rot", "Mind Rot")], battlefield=[*lands("Swamp", 4, "B")])
    t.do("pass", "A")
    assert t.id("rot") not in casts(t, "B")
    t.advance("precombat_main", turn=4)
    assert t.illegal("cast", "B", card="rot", targets=["A"],
                     pay_with=["swamp-b-1", "swamp-b-2", "swamp-b-3"])
    t.do("cast", "B", card="rot", targets=["A"],
         pay_with=["swamp-b-1", "swamp-b-2", "swamp-b-3", "swamp-b-4"])
    resolve(t)
    assert zone(t, "graveyard", "B") == ["Mind Rot"]


# ==== Evolving Wilds and Future Sight (modern 401.6, 701.19) ====================================


def test_evolving_wilds_finds_a_snow_basic_but_not_a_nonbasic_dual():
    t = table("modern", a={"library": [h("trop", "Tropical Island"),
                                       h("snow", "Snow-Covered Forest")]},
              battlefield=[h("wilds", "Evolving Wilds", controller="A")])
    t.do("activate", "A", card="wilds", ability=0)
    resolve(t)
    offered = set(choices(t))
    assert t.id("snow") in offered and t.id("trop") not in offered
    t.do("choose", "A", choice="snow")
    assert t.find("snow")["tapped"] is True
    assert zone(t, "library", "A") == ["Tropical Island"]
    assert zone(t, "graveyard", "A") == ["Evolving Wilds"]


def test_evolving_wilds_with_no_basic_land_still_shuffles():
    t = table("modern", a={"library": [h("trop", "Tropical Island"), h("bears", "Grizzly Bears")]},
              battlefield=[h("wilds", "Evolving Wilds", controller="A")])
    t.do("activate", "A", card="wilds", ability=0)
    resolve(t)
    pending = t.obs()["pending"]
    if pending is not None:
        assert set(choices(t)) == {None}
        t.do("choose", "A", choice=None)
    assert any(e["type"] == "shuffle" for e in t.events)
    assert zone(t, "library", "A") == ["Grizzly Bears", "Tropical Island"]


def test_oust_second_from_the_top_leaves_the_revealed_top_card_the_same_object():
    # With Future Sight, Oust puts the Bears second from the top: the top card stays on top,
    # revealed all along: not hidden, so not a new object (401.6 needs it hidden).
    t = table("modern", a={"hand": [h("oust", "Oust")],
                           "library": [h("top", "Lightning Bolt"), "Island"]},
              battlefield=[h("fs", "Future Sight", controller="A"),
                           h("bears", "Grizzly Bears", controller="B"), *lands("Plains", 1)])
    top = t.id("top")
    t.do("cast", "A", card="oust", targets=["bears"], pay_with=["plains-a-1"])
    resolve(t)
    library = t.player("A")["library"]
    assert (library[0]["card"], library[0]["id"]) == ("Lightning Bolt", top)


def test_oust_on_your_own_creature_under_future_sight_keeps_the_top_card():
    # The same when the Bears go into the Future Sight player's own library, second from top.
    t = table("modern", a={"hand": [h("oust", "Oust")],
                           "library": [h("top", "Lightning Bolt"), "Island"]},
              battlefield=[h("fs", "Future Sight", controller="A"),
                           h("bears", "Grizzly Bears", controller="A"), *lands("Plains", 1)])
    top = t.id("top")
    t.do("cast", "A", card="oust", targets=["bears"], pay_with=["plains-a-1"])
    resolve(t)
    library = t.player("A")["library"]
    assert [c["card"] for c in library][:2] == ["Lightning Bolt", "Grizzly Bears"]
    assert library[0]["id"] == top


def test_plow_under_on_future_sight_top_card_renews_it():
    # Plow Under puts A's land on top of A's library: the revealed top card is covered, so
    # hidden, and a new object when revealed again (401.6).
    t = table("modern", b={"hand": [h("plow", "Plow Under")]}, active="B", turn=4,
              a={"library": [h("top", "Lightning Bolt"), "Island"]},
              battlefield=[h("fs", "Future Sight", controller="A"),
                           h("l1", "Plains", controller="A"), h("l2", "Plains", controller="A"),
                           *lands("Forest", 5, "B")])
    top = t.id("top")
    t.do("cast", "B", card="plow", targets=["l1", "l2"], pay_with="auto")
    resolve(t)
    while t.obs()["pending"]:
        t.do("choose", t.obs()["pending"]["player"], choice=choices(t)[0])
    library = t.player("A")["library"]
    bolt = [c for c in library if c["card"] == "Lightning Bolt"]
    assert len(bolt) == 1 and bolt[0]["id"] != top


# ==== Rest in Peace and Pull from Eternity (modern 614.1a, 400.8, 406.7) =======================


def test_rest_in_peace_tokens_are_exiled_and_cease_to_exist():
    # Wrath of God: the Soldier tokens would go to the graveyard, are exiled instead, and cease
    # to exist there as a state-based action (modern 704.5d, 111.7).
    t = table("modern", a={"hand": [h("wrath", "Wrath of God")]},
              battlefield=[h("rip", "Rest in Peace", controller="B"),
                           h("s1", "Grizzly Bears", controller="B", token=True),
                           h("s2", "Grizzly Bears", controller="B", token=True),
                           h("bears", "Bear Cub", controller="B"), *lands("Plains", 4)])
    t.do("cast", "A", card="wrath", pay_with="auto")
    resolve(t)
    answer_graveyard_orders(t)
    assert zone(t, "exile") == ["Bear Cub", "Wrath of God"]
    assert zone(t, "graveyard", "B") == [] and zone(t, "graveyard", "A") == []


def test_rest_in_peace_a_countered_spell_and_the_counterspell_are_exiled():
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt")]},
              b={"hand": [h("counter", "Counterspell")]},
              battlefield=[h("rip", "Rest in Peace", controller="A"), *lands("Mountain", 1),
                           *lands("Island", 2, "B")])
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-a-1"])
    t.do("pass", "A")
    t.do("cast", "B", card="counter", targets=["bolt"], pay_with=["island-b-1", "island-b-2"])
    resolve(t)
    assert zone(t, "exile") == ["Counterspell", "Lightning Bolt"]
    assert t.player("B")["life"] == 20


def test_rest_in_peace_discarded_cards_are_exiled():
    t = table("modern", a={"hand": [h("rot", "Mind Rot")]},
              b={"hand": [h("x", "Grizzly Bears"), h("y", "Think Twice")]},
              battlefield=[h("rip", "Rest in Peace", controller="B"), *lands("Swamp", 3)])
    t.do("cast", "A", card="rot", targets=["B"], pay_with="auto")
    resolve(t)
    while t.obs()["pending"]:
        t.do("choose", "B", choice=choices(t)[0])
    assert zone(t, "exile") == ["Grizzly Bears", "Mind Rot", "Think Twice"]
    assert zone(t, "graveyard", "B") == []
    t.do("pass", "A")
    assert t.id("y") not in casts(t, "B")  # no flashback from exile


def test_rest_in_peace_cleanup_discard_is_exiled():
    # "From anywhere": the discard to hand size in the cleanup step (514.1) is exiled too.
    t = table("modern", "end",
              a={"hand": [h(f"c{i}", "Grizzly Bears") for i in range(8)]},
              battlefield=[h("rip", "Rest in Peace", controller="B")])
    resolve(t)
    assert t.obs()["pending"]["decision"] == "discard"
    t.do("discard", "A", card="c0")
    assert len(t.player("A")["hand"]) == 7
    assert zone(t, "exile") == ["Grizzly Bears"]
    assert zone(t, "graveyard", "A") == []


def test_rest_in_peace_rancor_is_exiled_and_does_not_return():
    # Rancor's "put into a graveyard from the battlefield" never happens (614.6): no trigger.
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("rip", "Rest in Peace", controller="B"),
                           h("bears", "Grizzly Bears", controller="A"),
                           h("rancor", "Rancor", controller="A", attached_to="bears"),
                           *lands("Mountain", 1)])
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-1"])
    resolve(t)
    assert not t.obs()["stack"]
    assert "Rancor" in zone(t, "exile")
    assert zone(t, "hand", "A") == []


def test_rest_in_peace_destroyed_by_a_spell_is_exiled_and_the_spell_goes_to_the_graveyard():
    # Gatherer ruling (2012-10-01): "If Rest in Peace is destroyed by a spell, Rest in Peace
    # will be exiled and then the spell will be put into its owner's graveyard." It applies to
    # its own move (it is on the battlefield as the event is checked, 614.12 aside), not to the
    # spell's later one (608.2n).
    t = table("modern", a={"hand": [h("vindicate", "Vindicate")]},
              battlefield=[h("rip", "Rest in Peace", controller="B"),
                           *lands("Plains", 1), *lands("Swamp", 1), *lands("Mountain", 1)])
    t.do("cast", "A", card="vindicate", targets=["rip"], pay_with="auto")
    resolve(t)
    assert zone(t, "exile") == ["Rest in Peace"]
    assert zone(t, "graveyard", "A") == ["Vindicate"]


def test_rest_in_peace_destroyed_together_with_creatures_exiles_them_all():
    # Opalescence makes Rest in Peace a 2/2 creature; Wrath of God destroys it and the Bears at
    # once: Rest in Peace still exists as the event is checked, so it replaces all of it: both
    # are exiled. (Wrath then goes to the graveyard: Rest in Peace is gone by then, 608.2n.)
    t = table("modern", a={"hand": [h("wrath", "Wrath of God")]},
              battlefield=[h("opal", "Opalescence", controller="A"),
                           h("rip", "Rest in Peace", controller="A"),
                           h("bears", "Grizzly Bears", controller="B"),
                           h("cub", "Bear Cub", controller="A"), *lands("Plains", 4)])
    assert "Creature" in t.find("rip")["types"]
    t.do("cast", "A", card="wrath", pay_with="auto")
    resolve(t)
    answer_graveyard_orders(t)
    assert zone(t, "exile") == ["Bear Cub", "Grizzly Bears", "Rest in Peace"]
    assert zone(t, "graveyard", "B") == []
    assert zone(t, "graveyard", "A") == ["Wrath of God"]


def test_rest_in_peace_dying_to_damage_with_a_creature_exiles_both():
    # Fireball X=4 split between Rest in Peace (a 2/2 under Opalescence) and the Bears: both
    # are destroyed by the same state-based action check (704.5g), one event.
    t = table("modern", a={"hand": [h("fireball", "Fireball")]},
              battlefield=[h("opal", "Opalescence", controller="A"),
                           h("rip", "Rest in Peace", controller="A"),
                           h("bears", "Grizzly Bears", controller="B"), *lands("Mountain", 6)])
    t.do("cast", "A", card="fireball", targets=["rip", "bears"], x=4, pay_with="auto")
    resolve(t)
    answer_graveyard_orders(t)
    # Fireball itself was exiled as it resolved (Rest in Peace was still there, 608.2n).
    assert zone(t, "exile") == ["Fireball", "Grizzly Bears", "Rest in Peace"]
    assert zone(t, "graveyard", "B") == []


def test_rest_in_peace_phased_out_applies_no_more():
    # Opalescence makes Rest in Peace a creature; Vanishing phases it out: its ability does
    # not exist for the game (702.26b), so a Bolted creature dies into the graveyard.
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("opal", "Opalescence", controller="A"),
                           h("rip", "Rest in Peace", controller="A"),
                           h("vanishing", "Vanishing", controller="A", attached_to="rip"),
                           h("bears", "Grizzly Bears", controller="B"),
                           *lands("Island", 2), *lands("Mountain", 1)])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-a-1", "island-a-2"])
    resolve(t)
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-a-1"])
    resolve(t)
    assert zone(t, "graveyard", "B") == ["Grizzly Bears"]
    assert zone(t, "graveyard", "A") == ["Lightning Bolt"]


def test_rest_in_peace_evolving_wilds_sacrificed_is_exiled():
    t = table("modern", a={"library": [h("forest", "Forest")]},
              battlefield=[h("rip", "Rest in Peace", controller="B"),
                           h("wilds", "Evolving Wilds", controller="A")])
    t.do("activate", "A", card="wilds", ability=0)
    assert zone(t, "exile") == ["Evolving Wilds"]
    resolve(t)
    t.do("choose", "A", choice="forest")
    assert "Forest" in on_battlefield(t)


def test_rest_in_peace_bomat_courier_returns_only_what_it_exiled_not_the_discarded_hand():
    # Discarded as a cost, the hand is exiled instead (614.1a), but not "exiled with Bomat
    # Courier" (linked abilities, 607.2a): only the face-down card comes back.
    t = table("modern", a={"library": [h("top", "Lightning Bolt")],
                           "hand": [h("x", "Grizzly Bears")]},
              battlefield=[h("rip", "Rest in Peace", controller="B"),
                           h("bomat", "Bomat Courier", controller="A"), *lands("Mountain", 1)])
    t.attack("bomat")
    resolve(t)
    t.do("activate", "A", card="bomat", ability=0, pay_with=["mountain-a-1"])
    resolve(t)
    assert zone(t, "hand", "A") == ["Lightning Bolt"]
    assert zone(t, "exile") == ["Bomat Courier", "Grizzly Bears"]


def test_evolving_wilds_animated_by_living_plane_is_summoning_sick():
    # Living Plane makes the new Wilds a 1/1 creature: its {T} ability can't be activated the
    # turn it came under A's control (modern 302.6).
    t = table("modern", a={"hand": [h("wilds", "Evolving Wilds")], "library": ["Forest"]},
              battlefield=[h("plane", "Living Plane", controller="B")])
    t.do("play_land", "A", card="wilds")
    assert "Creature" in t.find("wilds")["types"]
    assert not any(a["action"] == "activate" and a["card"] == t.id("wilds") for a in t.legal())
    assert t.illegal("activate", "A", card="wilds", ability=0)


def test_pull_from_eternity_cannot_target_a_face_down_exiled_card():
    # Bomat Courier exiles the top card face down: not a "face-up exiled card".
    t = table("modern", a={"library": [h("top", "Lightning Bolt")]},
              b={"hand": [h("pull", "Pull from Eternity")]},
              battlefield=[h("bomat", "Bomat Courier", controller="A"),
                           *lands("Plains", 1, "B")],
              exile=[h("up", "Grizzly Bears", owner="A")])
    t.attack("bomat")
    resolve(t)  # the attack trigger
    exiled = [o for o in t.obs()["exile"] if o["id"] != t.id("up")]
    assert len(exiled) == 1
    t.do("pass", "A")
    assert cast_targets(t, "pull") == {t.id("up")}


# ==== Editions ==================================================================================


@pytest.mark.parametrize("card", ["Snapcaster Mage", "Lightstall Inquisitor", "Evolving Wilds",
                                  "Rest in Peace", "Pull from Eternity", "Nurgle's Rot"])
def test_cards_printed_after_june_2004_are_not_in_the_2004_game(card):
    # None of these existed by 2004-06-01 (Pull from Eternity: Time Spiral, 2006; the others
    # later): a 2004 game refuses them; Stone Giant and Vanishing are in both.
    with pytest.raises(Exception, match="not supported in cr2004"):
        ReferenceEngine().new_game("cr2004", given(players={"A": {"hand": [h("x", card)]}}))
    ReferenceEngine().new_game("modern", given(players={"A": {"hand": [h("x", card)]}}))
