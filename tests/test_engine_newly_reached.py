"""The cards added for rules that waited for one (issue 12), in tricky scenarios: Stone Giant
(2004 202.2a), Vanishing (2004 217.8d), Nurgle's Rot (modern 400.7f), Snapcaster Mage
(400.7g), Lightstall Inquisitor (400.7h, 400.7i) and Evolving Wilds with Future Sight
(401.6)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


def lands(card: str, count: int, controller: str = "A", prefix: str | None = None) -> list:
    prefix = prefix or card.lower()
    return [h(f"{prefix}-{i}", card, controller=controller) for i in range(1, count + 1)]


def choices(t: Table) -> list[Any]:
    return [a.get("choice") for a in t.legal() if a["action"] == "choose"]


def zone(t: Table, where: str, player: str | None = None) -> list[str]:
    o = t.obs()
    return t.cards(o["players"][player][where] if player else o[where])


def casts(t: Table, player: str) -> set[Any]:
    return {a["card"] for a in t.legal() if a["action"] == "cast" and a["player"] == player}


# ==== Stone Giant: "destroy that creature" (2004 202.2a) ========================================


def flying(t: Table, handle: str) -> bool:
    game = t.engine.game
    return game.has(game.objects[t.id(handle)], "flying")


def _giant_table(edition: str, step: str = "precombat_main", **more: Any) -> Table:
    return table(edition, step, a=more.pop("a", None), battlefield=[
        h("giant", "Stone Giant", controller="A"), *more.pop("battlefield", [])], **more)


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_destroys_an_animated_enchantment_that_is_no_creature_any_more(edition):
    # Opalescence makes Exploration a 1/1 creature; the Giant throws it; Opalescence is
    # destroyed, so Exploration is an enchantment again: still "that creature" (202.2a).
    t = _giant_table(edition, a={"hand": [h("vindicate", "Vindicate")]}, battlefield=[
        h("opal", "Opalescence", controller="A"), h("exploration", "Exploration", controller="A"),
        h("plains", "Plains", controller="A"), h("swamp", "Swamp", controller="A"),
        h("forest", "Forest", controller="A")])
    assert t.find("exploration")["toughness"] == 1
    t.do("activate", "A", card="giant", ability=0, targets=["exploration"])
    resolve(t)
    assert flying(t, "exploration")
    t.do("cast", "A", card="vindicate", targets=["opal"],
         pay_with=["plains", "swamp", "forest"])
    resolve(t)
    assert "Creature" not in t.find("exploration")["types"]
    t.advance("end")
    assert "Exploration" in zone(t, "battlefield")  # the trigger is on the stack
    resolve(t)
    assert "Exploration" not in zone(t, "battlefield")
    assert "Exploration" in zone(t, "graveyard", "A")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_targets_only_your_creatures_smaller_than_its_power(edition):
    t = _giant_table(edition, a={"hand": [h("growth", "Giant Growth")]}, battlefield=[
        h("hill", "Hill Giant", controller="A"), h("elves", "Llanowar Elves", controller="A"),
        h("bears", "Grizzly Bears", controller="B"), h("forest", "Forest", controller="A")])
    targets = {a["targets"][0]["object"] for a in t.legal()
               if a["action"] == "activate" and a["card"] == t.id("giant")}
    assert targets == {t.id("elves")}  # not the 3/3 (3 is not less than 3), not B's Bears
    assert t.illegal("activate", "A", card="giant", ability=0, targets=["hill"])
    t.do("cast", "A", card="growth", targets=["giant"], pay_with=["forest"])
    resolve(t)  # the Giant is 6/7: its own toughness is still not less than its power
    targets = {a["targets"][0]["object"] for a in t.legal()
               if a["action"] == "activate" and a["card"] == t.id("giant")}
    assert targets == {t.id("elves"), t.id("hill")}


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_target_checked_again_against_the_giants_power(edition):
    # Giant Growth in response makes the Elves 4/4: toughness 4 is no longer less than the
    # Giant's power, so the ability does nothing: no flying, nothing destroyed.
    t = _giant_table(edition, a={"hand": [h("growth", "Giant Growth")]}, battlefield=[
        h("elves", "Llanowar Elves", controller="A"), h("forest", "Forest", controller="A")])
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    t.do("cast", "A", card="growth", targets=["elves"], pay_with=["forest"])
    resolve(t)
    assert t.find("elves")["toughness"] == 4
    resolve(t)
    assert not flying(t, "elves")
    t.advance("end")
    assert not t.obs()["stack"]
    t.advance("upkeep", turn=4)
    assert "Llanowar Elves" in zone(t, "battlefield")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_in_the_end_step_waits_for_the_next_end_step(edition):
    t = _giant_table(edition, "end", battlefield=[h("elves", "Llanowar Elves", controller="A")])
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    resolve(t)
    t.advance("upkeep", turn=4)
    assert "Llanowar Elves" in zone(t, "battlefield")
    t.advance("end", turn=4)
    resolve(t)
    assert "Llanowar Elves" in zone(t, "graveyard", "A")


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_spares_a_new_object_and_the_giant_itself_may_leave(edition):
    # Unsummon returns the Elves, which are cast again: a new object, not "that creature".
    # The Giant leaving play does not stop the delayed destruction of the other target.
    t = _giant_table(edition, a={"hand": [h("unsummon", "Unsummon"), h("bolt", "Lightning Bolt"),
                                          h("bolt2", "Lightning Bolt")]},
                     battlefield=[h("elves", "Llanowar Elves", controller="A"),
                                  h("cub", "Bear Cub", controller="A"),
                                  *lands("Island", 1), *lands("Forest", 1),
                                  *lands("Mountain", 2)])
    t.do("activate", "A", card="giant", ability=0, targets=["elves"])
    resolve(t)
    t.do("cast", "A", card="unsummon", targets=["elves"], pay_with=["island-1"])
    resolve(t)
    t.do("cast", "A", card="elves", pay_with=["forest-1"])
    resolve(t)
    t.do("cast", "A", card="bolt", targets=["giant"], pay_with=["mountain-1"])
    resolve(t)
    t.do("cast", "A", card="bolt2", targets=["giant"], pay_with=["mountain-2"])
    resolve(t)
    assert "Stone Giant" in zone(t, "graveyard", "A")
    t.advance("end")
    resolve(t)
    assert "Llanowar Elves" in zone(t, "battlefield")


# ==== Vanishing: phasing out a token (2004 217.8d) ==============================================


def _vanish_a_soldier(edition: str) -> Table:
    t = table(edition, a={"hand": [h("alarm", "Raise the Alarm"), h("vanishing", "Vanishing")]},
              battlefield=[*lands("Plains", 2), *lands("Island", 3)])
    t.do("cast", "A", card="alarm", pay_with=["plains-1", "plains-2"])
    resolve(t)
    soldier = next(o for o in t.obs()["battlefield"] if o["card"] == "Soldier")
    t.handles["soldier"] = soldier["id"]
    t.do("cast", "A", card="vanishing", targets=["soldier"], pay_with=["island-1"])
    resolve(t)
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-2", "island-3"])
    resolve(t)
    return t


def test_2004_vanishing_a_token_it_ceases_to_exist_and_the_aura_stays_phased_out():
    t = _vanish_a_soldier("cr2004")
    o = t.obs()
    assert t.cards(o["phased_out"]) == ["Vanishing"]  # the Soldier ceased to exist
    assert [c for c in zone(t, "battlefield") if c == "Soldier"] == ["Soldier"]
    for turn in (5, 7):  # A's untap steps: nothing phases in
        t.advance("upkeep", turn=turn)
        assert t.cards(t.obs()["phased_out"]) == ["Vanishing"]
        assert "Vanishing" not in zone(t, "battlefield")


def test_modern_vanishing_a_token_it_phases_in_with_its_aura():
    t = _vanish_a_soldier("modern")
    assert t.find("soldier")["phased_out"] is True
    t.advance("upkeep", turn=5)
    assert t.find("soldier")["phased_out"] is False
    assert t.find("vanishing")["attached_to"] == t.id("soldier")


def test_2004_vanishing_a_card_it_phases_in_with_the_aura_in_its_controllers_untap_step():
    t = table("cr2004", battlefield=[h("bears", "Grizzly Bears", controller="B"),
                                     h("vanishing", "Vanishing", controller="A",
                                       attached_to="bears"),
                                     *lands("Island", 2)])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    assert sorted(t.cards(t.obs()["phased_out"])) == ["Grizzly Bears", "Vanishing"]
    t.advance("upkeep", turn=4)  # B's untap step: the Bears are B's
    assert {"Grizzly Bears", "Vanishing"} <= set(zone(t, "battlefield"))


def test_only_the_auras_controller_activates_vanishing():
    t = table("modern", "precombat_main", battlefield=[
        h("bears", "Grizzly Bears", controller="A"),
        h("vanishing", "Vanishing", controller="B", attached_to="bears"), *lands("Island", 2)])
    assert not any(a["action"] == "activate" and a["card"] == t.id("vanishing")
                   for a in t.legal())


# ==== Nurgle's Rot: the trigger finds the Aura in the graveyard (modern 400.7f) ===================


def _rot_on_bears(**more: Any) -> Table:
    t = table("modern", a={"hand": [h("rot", "Nurgle's Rot"), *more.pop("hand", [])]},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("mine", "Bear Cub", controller="A"), *lands("Swamp", 1),
                           *more.pop("battlefield", [])])
    assert {a["targets"][0]["object"] for a in t.legal()
            if a["action"] == "cast" and a["card"] == t.id("rot")} == {t.id("bears")}
    t.do("cast", "A", card="rot", targets=["bears"], pay_with=["swamp-1"])
    resolve(t)
    return t


def test_nurgles_rot_returns_from_the_graveyard_and_makes_a_demon():
    t = _rot_on_bears(hand=[h("bolt", "Lightning Bolt")], battlefield=lands("Mountain", 1))
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-1"])
    resolve(t)  # the Bears die; the Rot goes to the graveyard; its trigger goes on the stack
    assert t.cards(t.player("A")["graveyard"]) == ["Nurgle's Rot", "Lightning Bolt"]
    assert t.cards(t.obs()["stack"]) == ["Nurgle's Rot"]
    resolve(t)
    assert t.cards(t.player("A")["hand"]) == ["Nurgle's Rot"]
    assert t.cards(t.player("A")["graveyard"]) == ["Lightning Bolt"]
    demon = next(o for o in t.obs()["battlefield"] if o["card"] == "Plaguebearer of Nurgle")
    assert (demon["controller"], demon["power"], demon["toughness"]) == ("A", 1, 3)
    assert demon["colors"] == ["B"] and demon["subtypes"] == ["Demon"]


def test_nurgles_rot_does_not_trigger_when_the_creature_leaves_otherwise():
    t = _rot_on_bears(hand=[h("unsummon", "Unsummon")], battlefield=lands("Island", 1))
    t.do("cast", "A", card="unsummon", targets=["bears"], pay_with=["island-1"])
    resolve(t)
    assert not t.obs()["stack"]
    assert t.cards(t.player("A")["graveyard"]) == ["Nurgle's Rot", "Unsummon"]


def test_nurgles_rot_falls_off_a_creature_its_controller_gains():
    t = _rot_on_bears(hand=[h("magic", "Control Magic")], battlefield=lands("Island", 4))
    t.do("cast", "A", card="magic", targets=["bears"], pay_with="auto")
    resolve(t)  # A controls the Bears: the Rot is attached illegally, and no creature died
    assert "Nurgle's Rot" in t.cards(t.player("A")["graveyard"])
    assert not t.obs()["stack"]


# ==== Snapcaster Mage: a granted flashback (modern 400.7g) =======================================


def _snap_bolt(**more: Any) -> Table:
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt"), h("snap", "Snapcaster Mage"),
                                     *more.pop("hand", [])]},
              battlefield=[*lands("Mountain", 2), *lands("Island", 2),
                           *more.pop("battlefield", [])],
              **more)
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-1"])
    resolve(t)
    assert t.id("bolt") not in casts(t, "A")  # no flashback of its own
    t.do("cast", "A", card="snap", pay_with=["island-1", "island-2"])
    resolve(t)
    resolve(t)  # the trigger, with its only target
    return t


def test_snapcaster_flashback_exiles_the_spell_as_it_leaves_the_stack():
    t = _snap_bolt()
    assert t.id("bolt") in casts(t, "A")
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-2"])  # {R}: its cost
    resolve(t)
    assert t.player("B")["life"] == 14
    assert "Lightning Bolt" not in zone(t, "graveyard", "A")
    assert zone(t, "exile") == ["Lightning Bolt"]


def test_snapcaster_flashback_spell_countered_is_exiled_too():
    t = _snap_bolt(b={"hand": [h("counter", "Counterspell")]},
                   battlefield=lands("Island", 2, "B", prefix="b-island"))
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-2"])
    t.do("pass", "A")
    t.do("cast", "B", card="counter", targets=["bolt"], pay_with=["b-island-1", "b-island-2"])
    resolve(t)
    assert zone(t, "exile") == ["Lightning Bolt"]
    assert t.player("B")["life"] == 17


def test_snapcaster_flashback_lasts_until_end_of_turn():
    t = _snap_bolt()
    t.advance("upkeep", turn=4)
    t.advance("precombat_main", turn=5)
    assert t.id("bolt") not in casts(t, "A")
    assert t.illegal("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-2"]) in (
        "not_in_hand", "cannot_pay")


def test_snapcaster_on_a_card_with_flashback_uses_the_granted_cost():
    t = table("modern", "precombat_main",
              a={"hand": [h("snap", "Snapcaster Mage")],
                 "graveyard": [h("twice", "Think Twice"), h("div", "Divination")]},
              battlefield=[*lands("Island", 6)])
    t.do("cast", "A", card="snap", pay_with=["island-1", "island-2"])
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_targets"
    t.do("choose", "A", targets=["twice"])
    resolve(t)
    t.do("cast", "A", card="twice", pay_with=["island-3", "island-4"])  # {1}{U}, not {2}{U}
    resolve(t)
    assert zone(t, "exile") == ["Think Twice"]
    assert t.id("div") not in casts(t, "A")  # the other card got nothing


def test_snapcaster_flashback_keeps_a_sorcerys_timing():
    t = table("modern", "precombat_main",
              a={"hand": [h("snap", "Snapcaster Mage")], "graveyard": [h("div", "Divination")]},
              battlefield=[*lands("Island", 5)])
    t.do("cast", "A", card="snap", pay_with=["island-1", "island-2"])
    resolve(t)
    t.do("pass", "A")  # the trigger is on the stack: resolve it
    t.do("pass", "B")
    t.advance("end")
    assert t.id("div") not in casts(t, "A")
    assert t.illegal("cast", "A", card="div", pay_with=["island-3", "island-4", "island-5"])


# ==== Lightstall Inquisitor: riders on the spell and the land (modern 400.7h, 400.7i) ===========


def _inquisitor(b_hand: list, **more: Any) -> Table:
    t = table("modern", a={"hand": [h("inquisitor", "Lightstall Inquisitor")]},
              b={"hand": b_hand}, battlefield=[*lands("Plains", 1),
                                               *more.pop("battlefield", [])], **more)
    t.do("cast", "A", card="inquisitor", pay_with=["plains-1"])
    resolve(t)
    return t


def test_lightstall_a_spell_cast_from_exile_costs_one_more():
    t = _inquisitor([h("bolt", "Lightning Bolt")],
                    battlefield=[*lands("Mountain", 2, "B", prefix="b-mountain")])
    resolve(t)  # the trigger: B's only card is exiled
    assert zone(t, "exile") == ["Lightning Bolt"]
    t.do("pass", "A")
    assert t.illegal("cast", "B", card="bolt", targets=["A"], pay_with=["b-mountain-1"])
    t.do("cast", "B", card="bolt", targets=["A"], pay_with=["b-mountain-1", "b-mountain-2"])
    resolve(t)
    assert t.player("A")["life"] == 17
    assert zone(t, "graveyard", "B") == ["Lightning Bolt"]  # no exile rider: its graveyard


def test_lightstall_a_land_played_from_exile_enters_tapped_and_is_the_land_play():
    t = _inquisitor([h("forest", "Forest"), h("mountain", "Mountain")])
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_card"
    t.do("choose", "B", choice="forest")
    t.advance("precombat_main", turn=4)
    t.do("play_land", "B", card="forest")
    assert t.find("forest")["tapped"] is True
    assert t.illegal("play_land", "B", card="mountain") == "no_land_play_left"


def test_lightstall_the_owner_plays_it_by_the_usual_timing_and_no_one_else():
    t = _inquisitor([h("bears", "Grizzly Bears")],
                    battlefield=[*lands("Forest", 3, "B", prefix="b-forest")])
    resolve(t)
    t.do("pass", "A")
    assert t.id("bears") not in casts(t, "B")  # a creature: not in A's turn
    assert t.id("bears") not in casts(t, "A")
    t.do("pass", "B")
    t.advance("precombat_main", turn=4)
    assert t.illegal("cast", "B", card="bears", pay_with=["b-forest-1", "b-forest-2"])
    t.do("cast", "B", card="bears", pay_with=["b-forest-1", "b-forest-2", "b-forest-3"])
    resolve(t)
    assert "Grizzly Bears" in zone(t, "battlefield")


def test_lightstall_with_an_empty_hand_does_nothing():
    t = _inquisitor([])
    resolve(t)
    assert zone(t, "exile") == []


# ==== Evolving Wilds with Future Sight: the revealed top card (modern 401.6) ======================


def _wilds(library: list, **more: Any) -> Table:
    return table("modern", a={"library": library, **more.pop("a", {})},
                 battlefield=[h("wilds", "Evolving Wilds", controller="A"),
                              *more.pop("battlefield", [])], **more)


def test_evolving_wilds_shuffle_makes_the_revealed_top_card_a_new_object():
    t = _wilds([h("top", "Island"), h("forest", "Forest")],
               battlefield=[h("fs", "Future Sight", controller="A")])
    top = t.id("top")
    t.do("activate", "A", card="wilds", ability=0)
    resolve(t)
    t.do("choose", "A", choice="forest")
    assert t.find("forest")["tapped"] is True
    library = t.player("A")["library"]
    assert [c["card"] for c in library] == ["Island"]
    assert library[0]["id"] != top  # the same card, hidden for a moment: a new object
    assert t.find("top") is None


def test_evolving_wilds_without_future_sight_keeps_hidden_cards_as_they_were():
    t = _wilds([h("top", "Island"), h("forest", "Forest")])
    t.do("activate", "A", card="wilds", ability=0)
    resolve(t)
    t.do("choose", "A", choice="forest")
    assert t.player("A")["library"][0]["id"] == t.id("top")


def test_evolving_wilds_may_find_nothing_and_still_shuffles():
    t = _wilds([h("top", "Island"), h("forest", "Forest")],
               battlefield=[h("fs", "Future Sight", controller="A")])
    t.do("activate", "A", card="wilds", ability=0)
    resolve(t)
    assert None in choices(t)
    t.do("choose", "A", choice=None)
    assert sorted(zone(t, "library", "A")) == ["Forest", "Island"]
    assert "Evolving Wilds" in zone(t, "graveyard", "A")
    assert any(e["type"] == "shuffle" for e in t.events)


def test_a_card_put_on_the_revealed_top_card_hides_it():
    # Brainstorm draws the three Swamps: the Island is revealed on top; putting two cards back
    # on top covers it, so it is a new object when it is revealed again (401.6).
    t = table("modern", a={"hand": [h("storm", "Brainstorm"), h("x", "Mountain")],
                           "library": ["Swamp", "Swamp", "Swamp", h("top", "Island")]},
              battlefield=[h("fs", "Future Sight", controller="A"), *lands("Island", 1)])
    t.do("cast", "A", card="storm", pay_with=["island-1"])
    resolve(t)
    assert t.player("A")["library"][0]["id"] == t.id("top")  # revealed now, the same object
    t.do("choose", "A", choice="x")
    t.do("choose", "A", choice=choices(t)[0])
    library = t.player("A")["library"]
    assert [c["card"] for c in library][2] == "Island"
    assert t.find("top") is None


# ==== Rest in Peace and Pull from Eternity: exiled again (modern 400.8, 406.7) ===================


def _pull_exiled_bolt() -> Table:
    t = table("modern", a={"hand": [h("inquisitor", "Lightstall Inquisitor"),
                                     h("pull", "Pull from Eternity")]},
              b={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("rip", "Rest in Peace", controller="A"), *lands("Plains", 2),
                           *lands("Mountain", 2, "B", prefix="b-mountain")])
    t.do("cast", "A", card="inquisitor", pay_with=["plains-1"])
    resolve(t)
    resolve(t)  # B exiles the Bolt, which B may cast from exile
    old = t.id("bolt")
    t.do("cast", "A", card="pull", targets=["bolt"], pay_with=["plains-2"])
    resolve(t)
    assert t.id("bolt") != old  # followed through the zone change from exile to exile
    return t


def test_an_exiled_card_exiled_again_is_a_new_object_without_the_permission():
    t = _pull_exiled_bolt()
    assert zone(t, "exile") == ["Lightning Bolt", "Pull from Eternity"]  # RIP: both exiled
    assert zone(t, "graveyard", "A") == [] and zone(t, "graveyard", "B") == []
    exile_events = [e for e in t.events if e["type"] == "zone_change"
                    and e["from"] == "exile" and e["to"] == "exile"]
    assert [e["card"] for e in exile_events] == ["Lightning Bolt"]
    t.do("pass", "A")
    assert t.id("bolt") not in casts(t, "B")
    assert t.illegal("cast", "B", card="bolt", targets=["A"],
                     pay_with=["b-mountain-1", "b-mountain-2"])


def test_rest_in_peace_exiles_graveyards_and_what_would_go_there():
    t = table("modern", a={"hand": [h("rip", "Rest in Peace"), h("bolt", "Lightning Bolt")],
                           "graveyard": [h("old", "Grizzly Bears")]},
              b={"graveyard": [h("old-b", "Shock")]},
              battlefield=[*lands("Plains", 2), *lands("Mountain", 1),
                           h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="rip", pay_with=["plains-1", "plains-2"])
    resolve(t)
    resolve(t)  # the enter trigger
    assert sorted(zone(t, "exile")) == ["Grizzly Bears", "Shock"]
    t.do("cast", "A", card="bolt", targets=["bears"], pay_with=["mountain-1"])
    resolve(t)
    assert sorted(zone(t, "exile")) == ["Grizzly Bears", "Grizzly Bears", "Lightning Bolt",
                                        "Shock"]
    assert zone(t, "graveyard", "A") == [] and zone(t, "graveyard", "B") == []


def test_pull_from_eternity_without_rest_in_peace_puts_the_card_in_the_graveyard():
    t = table("modern", a={"hand": [h("pull", "Pull from Eternity")]},
              exile=[h("exiled", "Lightning Bolt", owner="B")],
              battlefield=lands("Plains", 1))
    t.do("cast", "A", card="pull", targets=["exiled"], pay_with=["plains-1"])
    resolve(t)
    assert zone(t, "graveyard", "B") == ["Lightning Bolt"]
    assert zone(t, "exile") == []
