"""An independent rules review of recently changed mechanics, in both editions (cr2004: the
Comprehensive Rules of 2004-06-01; modern: those of 2024-08-02). Each test is a scenario of
the review. The review's suspected engine bugs (written as strict xfails naming the rule) are
fixed: an Aura entering at once with other permanents chooses among what was there before
(modern 303.4f, 2004 212.4e), a phased-out stolen permanent keeps its controller (modern
702.26a), any creature type the pool can give may be named (2004 212.1e), and a mandatory loop
that only gains life is a draw (modern 104.4b, 2004 102.6)."""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.engine import ReferenceEngine
from reference_engine.errors import IllegalSetupError
from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


def lands(card: str, count: int, controller: str = "A", prefix: str | None = None) -> list:
    prefix = prefix or f"{card.lower()}-{controller.lower()}"
    return [h(f"{prefix}-{i}", card, controller=controller) for i in range(1, count + 1)]


def choices(t: Table) -> list[Any]:
    return [a.get("choice") for a in t.legal() if a["action"] == "choose"]


def names(zone: list[dict]) -> list[str]:
    return sorted(o["card"] for o in zone)


def phased_in(t: Table) -> set[str]:
    return {o["card"] for o in t.obs()["battlefield"] if not o.get("phased_out")}


def answer_graveyard_orders(t: Table) -> None:
    """Answer any order_graveyard decisions with the first listed option."""
    while (t.obs()["pending"] or {}).get("decision") == "order_graveyard":
        t.do("choose", t.obs()["pending"]["player"], choice=choices(t)[0])


# ==== 1. the world rule and the legend rules ==================================================


def test_2004_legend_rule_a_newer_legend_goes_even_under_another_controller():
    # 2004 420.5e: all but the legendary permanent in play longest go, whoever controls them.
    t = table("cr2004", a={"hand": [h("mine", "Pendelhaven")]},
              battlefield=[h("theirs", "Pendelhaven", controller="B")])
    t.do("play_land", "A", card="mine")
    t.do("pass", "A")
    assert t.obs()["pending"] is None  # no choice in 2004
    assert t.cards(t.player("A")["graveyard"]) == ["Pendelhaven"]
    assert t.find("theirs")["controller"] == "B"


def test_modern_legend_rule_is_per_controller_two_players_keep_theirs():
    t = table("modern", a={"hand": [h("mine", "Pendelhaven")]},
              battlefield=[h("theirs", "Pendelhaven", controller="B")])
    t.do("play_land", "A", card="mine")
    t.do("pass", "A")
    assert names(t.obs()["battlefield"]) == ["Pendelhaven", "Pendelhaven"]


def test_modern_legend_rule_the_controller_may_keep_the_new_one():
    t = table("modern", a={"hand": [h("new", "Pendelhaven")]},
              battlefield=[h("old", "Pendelhaven", controller="A")])
    t.do("play_land", "A", card="new")  # state-based actions before A gets priority
    pending = t.obs()["pending"]
    assert pending["decision"] == "legend_rule" and pending["player"] == "A"
    assert set(choices(t)) == {t.id("old"), t.id("new")}
    t.do("choose", "A", choice="new")
    assert t.find("new") in t.obs()["battlefield"]
    assert t.cards(t.player("A")["graveyard"]) == ["Pendelhaven"]


def test_modern_legend_rule_applies_to_a_stolen_legend_under_one_controller():
    # Living Plane makes Pendelhaven a 1/1 creature; A's Control Magic steals B's: A controls
    # two and keeps one of them; the other goes to its owner's graveyard (704.5j).
    t = table("modern", a={"hand": [h("magic", "Control Magic")]},
              battlefield=[h("plane", "Living Plane", controller="B"),
                           h("mine", "Pendelhaven", controller="A"),
                           h("theirs", "Pendelhaven", controller="B"),
                           *lands("Island", 4)])
    t.do("cast", "A", card="magic", targets=["theirs"], pay_with="auto")
    resolve(t)
    pending = t.obs()["pending"]
    assert pending is not None and pending["decision"] == "legend_rule"
    t.do("choose", "A", choice="mine")
    assert t.cards(t.player("B")["graveyard"]) == ["Pendelhaven"]
    assert t.find("mine")["controller"] == "A"


def test_2004_legend_rule_ignores_a_control_change():
    # 2004: the one in play longest stays; taking control of it changes nothing.
    t = table("cr2004", a={"hand": [h("magic", "Control Magic")]},
              battlefield=[h("plane", "Living Plane", controller="B"),
                           h("theirs", "Pendelhaven", controller="B"),
                           *lands("Island", 4)])
    t.do("cast", "A", card="magic", targets=["theirs"], pay_with="auto")
    resolve(t)
    assert t.find("theirs")["controller"] == "A"
    assert "Pendelhaven" in t.cards(t.obs()["battlefield"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_world_rule_a_world_entering_alone_beats_one_already_there_of_the_same_player(edition):
    t = table(edition, a={"hand": [h("plane", "Living Plane")]},
              battlefield=[h("cross", "Concordant Crossroads", controller="A"),
                           *lands("Forest", 4)])
    t.do("cast", "A", card="plane", pay_with="auto")
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Concordant Crossroads"]
    assert "Living Plane" in t.cards(t.obs()["battlefield"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_world_rule_replenish_returning_one_world_beats_the_older_one(edition):
    t = table(edition, a={"hand": [h("rep", "Replenish")],
                          "graveyard": [h("cross", "Concordant Crossroads")]},
              battlefield=[h("plane", "Living Plane", controller="B"), *lands("Plains", 4)])
    t.do("cast", "A", card="rep", pay_with="auto")
    resolve(t)
    assert "Concordant Crossroads" in t.cards(t.obs()["battlefield"])
    assert t.cards(t.player("B")["graveyard"]) == ["Living Plane"]


# ==== 2. permanents entering at once see each other ===========================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_replenish_with_opalescence_the_anthem_enters_as_a_creature_for_soul_warden(edition):
    # 603.6a/603.6d: after the event, with the continuous effects that exist then, Glorious
    # Anthem is a 3/3 creature (Opalescence, returned at the same time): Soul Warden sees a
    # creature enter. The Anthem pumps itself: 4/4.
    t = table(edition, a={"hand": [h("rep", "Replenish")],
                          "graveyard": [h("opal", "Opalescence"), h("anthem", "Glorious Anthem")]},
              battlefield=[h("warden", "Soul Warden", controller="A"), *lands("Plains", 4)])
    t.do("cast", "A", card="rep", pay_with="auto")
    resolve(t)
    assert [s["card"] for s in t.obs()["stack"]] == ["Soul Warden"]
    resolve(t)
    assert t.player("A")["life"] == 21
    anthem = t.find("anthem")
    assert (anthem["power"], anthem["toughness"]) == (4, 4)
    assert "Creature" not in t.find("opal")["types"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_opalescence_already_there_makes_returned_enchantments_creatures(edition):
    t = table(edition, a={"hand": [h("rep", "Replenish")],
                          "graveyard": [h("anthem", "Glorious Anthem")]},
              battlefield=[h("opal", "Opalescence", controller="A"),
                           h("warden", "Soul Warden", controller="B"), *lands("Plains", 4)])
    t.do("cast", "A", card="rep", pay_with="auto")
    resolve(t)
    assert [s["card"] for s in t.obs()["stack"]] == ["Soul Warden"]
    resolve(t)
    assert t.player("B")["life"] == 21  # B's Warden: "another creature" need not be B's


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_returned_by_worldgorger_cannot_enchant_a_creature_returning_with_it(edition):
    # Holy Strength on A's Bears; the Dragon exiles both; when it leaves, both come back at
    # once. The Aura's player chooses what it enchants as it enters: the Bears, entering at
    # the same time, are not a choice; B's Lions are the only one.
    t = table(edition, a={"hand": [h("dragon", "Worldgorger Dragon")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("strength", "Holy Strength", controller="A", attached_to="bears"),
                           h("lions", "Savannah Lions", controller="B"),
                           *lands("Mountain", 5)])
    t.do("cast", "A", card="dragon", pay_with="auto")
    resolve(t)
    resolve(t)  # the Dragon's enters trigger: the Bears, the Aura and the lands are exiled
    assert "Holy Strength" in t.cards(t.obs()["exile"])
    game = t.engine.game
    dragon = next(o for o in game.battlefield if o.card.name == "Worldgorger Dragon")
    game.destroy(dragon.id)
    resolve(t)  # its leaves trigger: everything comes back at once
    pending = t.obs()["pending"]
    if pending is not None and pending["decision"] == "choose_attachment":
        assert t.id("bears") not in choices(t)
        t.do("choose", "A", choice="lions")
    assert t.find("strength")["attached_to"] == t.id("lions")


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_with_only_its_returning_creature_to_enchant_stays_in_exile(edition):
    t = table(edition, a={"hand": [h("dragon", "Worldgorger Dragon")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("strength", "Holy Strength", controller="A", attached_to="bears"),
                           *lands("Mountain", 5)])
    t.do("cast", "A", card="dragon", pay_with="auto")
    resolve(t)
    resolve(t)
    game = t.engine.game
    dragon = next(o for o in game.battlefield if o.card.name == "Worldgorger Dragon")
    game.destroy(dragon.id)
    resolve(t)
    assert (t.obs()["pending"] or {}).get("decision") != "choose_attachment"
    assert "Holy Strength" in t.cards(t.obs()["exile"])
    assert "Holy Strength" not in t.cards(t.obs()["battlefield"])
    assert "Grizzly Bears" in t.cards(t.obs()["battlefield"])


def test_modern_replenish_aura_cannot_enchant_an_enchantment_animated_as_it_returns():
    # Opalescence and Glorious Anthem return with Holy Strength. The Anthem is a creature only
    # once all of them are on the battlefield; Holy Strength chooses as it enters, among the
    # creatures already there: Soul Warden only.
    t = table("modern", a={"hand": [h("rep", "Replenish")],
                           "graveyard": [h("opal", "Opalescence"),
                                         h("anthem", "Glorious Anthem"),
                                         h("strength", "Holy Strength")]},
              battlefield=[h("warden", "Soul Warden", controller="A"), *lands("Plains", 4)])
    t.do("cast", "A", card="rep", pay_with="auto")
    resolve(t)
    pending = t.obs()["pending"]
    if pending is not None and pending["decision"] == "choose_attachment":
        assert t.id("anthem") not in choices(t)
        t.do("choose", "A", choice="warden")
    assert t.find("strength")["attached_to"] == t.id("warden")


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_returned_at_once_may_enchant_a_creature_already_there(edition):
    t = table(edition, a={"hand": [h("rep", "Replenish")],
                          "graveyard": [h("strength", "Holy Strength"),
                                        h("anthem", "Glorious Anthem")]},
              battlefield=[h("lions", "Savannah Lions", controller="B"), *lands("Plains", 4)])
    t.do("cast", "A", card="rep", pay_with="auto")
    resolve(t)
    assert t.find("strength")["attached_to"] == t.id("lions")
    assert t.find("strength")["controller"] == "A"
    lions = t.find("lions")
    assert (lions["power"], lions["toughness"]) == (3, 3)  # B's Lions: not A's Anthem


def test_2004_replenish_with_opalescence_an_animated_aura_falls_off():
    # 2004 Opalescence animates local enchantments as well: Holy Strength comes back a 1/1
    # creature and can't enchant a creature (212.4g).
    t = table("cr2004", a={"hand": [h("rep", "Replenish")],
                           "graveyard": [h("opal", "Opalescence"),
                                         h("strength", "Holy Strength")]},
              battlefield=[h("lions", "Savannah Lions", controller="B"), *lands("Plains", 4)])
    t.do("cast", "A", card="rep", pay_with="auto")
    resolve(t)
    answer_graveyard_orders(t)
    assert "Holy Strength" in t.cards(t.player("A")["graveyard"])
    assert (t.find("lions")["power"], t.find("lions")["toughness"]) == (2, 1)


# ==== 3. an intervening "if" ====================================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_howling_mine_tapped_before_the_draw_step_does_not_trigger(edition):
    t = table(edition, "upkeep", active="B",
              battlefield=[h("mine", "Howling Mine", controller="B"),
                           h("icy", "Icy Manipulator", controller="A"),
                           h("island", "Island", controller="A")])
    t.do("pass", "B")
    t.do("activate", "A", card="icy", ability=0, targets=["mine"], pay_with=["island"])
    resolve(t)
    assert t.find("mine")["tapped"] is True
    hand = len(t.player("B")["hand"])
    t.advance("draw")
    assert t.obs()["stack"] == []  # 603.4: it does not even trigger
    t.advance("precombat_main")
    assert len(t.player("B")["hand"]) == hand + 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_howling_mine_destroyed_in_response_still_gives_its_card(edition):
    # March of the Machines makes the Mine a 2/2 artifact creature; A Shocks it in response.
    # The "if" is checked on resolution with the Mine's last known information: untapped.
    t = table(edition, "upkeep", active="B",
              battlefield=[h("mine", "Howling Mine", controller="B"),
                           h("march", "March of the Machines", controller="B"),
                           h("mountain", "Mountain", controller="A")],
              a={"hand": [h("shock", "Shock")]})
    hand = len(t.player("B")["hand"])
    t.advance("draw")
    assert [s["card"] for s in t.obs()["stack"]] == ["Howling Mine"]
    t.do("pass", "B")
    t.do("cast", "A", card="shock", targets=["mine"], pay_with=["mountain"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Howling Mine"]
    resolve(t)
    assert len(t.player("B")["hand"]) == hand + 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_howling_mine_gives_the_card_to_the_player_whose_draw_step_it_is(edition):
    t = table(edition, "upkeep", active="A",
              battlefield=[h("mine", "Howling Mine", controller="B")])
    a_hand, b_hand = len(t.player("A")["hand"]), len(t.player("B")["hand"])
    t.advance("draw")
    trigger = t.obs()["stack"][0]
    assert trigger["controller"] == "B"
    resolve(t)
    assert (len(t.player("A")["hand"]), len(t.player("B")["hand"])) == (a_hand + 2, b_hand)


# ==== 4. phasing with attachments ===============================================================


def _efreet(edition: str, *more: dict, efreet_side: str = "A", **kw: Any) -> Table:
    return table(edition, battlefield=[h("efreet", "Rainbow Efreet", controller=efreet_side),
                                       *lands("Island", 2, efreet_side, prefix="island"),
                                       *more], **kw)


def _phase_out_efreet(t: Table, player: str = "A") -> None:
    if t.obs()["turn"]["priority"] != player:
        t.do("pass", t.obs()["turn"]["priority"])
    t.do("activate", player, card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)


@pytest.mark.parametrize("edition", EDITIONS)
def test_equipment_phases_out_and_in_with_its_creature(edition):
    t = _efreet(edition, h("split", "Bonesplitter", controller="A", attached_to="efreet"))
    assert t.find("efreet")["power"] == 5
    _phase_out_efreet(t)
    assert not {"Rainbow Efreet", "Bonesplitter"} & phased_in(t)
    t.advance("upkeep", turn=4)
    assert not {"Rainbow Efreet", "Bonesplitter"} & phased_in(t)
    t.advance("upkeep", turn=5)
    assert {"Rainbow Efreet", "Bonesplitter"} <= phased_in(t)
    assert t.find("split")["attached_to"] == t.id("efreet")
    assert t.find("efreet")["power"] == 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_phased_out_creature_cannot_be_targeted_and_its_aura_does_not_apply(edition):
    t = _efreet(edition, h("anthem", "Glorious Anthem", controller="A"),
                h("mountain", "Mountain", controller="B"),
                b={"hand": [h("bolt", "Lightning Bolt")]})
    _phase_out_efreet(t)
    t.do("pass", "A")
    bolts = [a for a in t.legal() if a["action"] == "cast"]
    assert all(x.get("object") != t.id("efreet") for a in bolts for x in a["targets"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_tapped_attacker_that_phased_out_phases_in_and_untaps_in_the_same_untap_step(edition):
    t = _efreet(edition)
    t.attack("efreet")
    assert t.find("efreet")["tapped"] is True
    _phase_out_efreet(t)
    t.advance("upkeep", turn=5)
    efreet = t.find("efreet")
    assert "Rainbow Efreet" in phased_in(t)
    assert efreet["tapped"] is False and efreet["attacking"] is False


@pytest.mark.parametrize("edition", EDITIONS)
def test_phasing_in_does_not_trigger_soul_warden(edition):
    t = _efreet(edition, h("warden", "Soul Warden", controller="B"))
    _phase_out_efreet(t)
    t.advance("upkeep", turn=5)
    assert "Rainbow Efreet" in phased_in(t)
    assert t.obs()["stack"] == [] and t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_unblocked_attacker_that_phases_out_deals_no_damage(edition):
    t = _efreet(edition)
    t.attack("efreet")
    t.advance("declare_blockers")
    _phase_out_efreet(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocker_whose_attacker_phased_out_deals_no_combat_damage(edition):
    t = _efreet(edition, h("thopter", "Ornithopter", controller="B"),
                h("anthem", "Glorious Anthem", controller="B"))
    t.attack("efreet")
    t.block({"thopter": "efreet"})
    _phase_out_efreet(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20
    t.advance("upkeep", turn=5)
    assert t.find("efreet")["damage"] == 0 and "Rainbow Efreet" in phased_in(t)


def test_modern_a_stolen_creature_phases_in_on_its_controllers_untap_step():
    # B controls A's Efreet with Control Magic and phases it out in A's turn 3 (the Aura goes
    # with it). It phased out under B's control: it and the Aura phase in as B's untap step
    # (turn 4) begins, and B still controls it.
    t = table("modern", battlefield=[h("efreet", "Rainbow Efreet", controller="A"),
                                     h("magic", "Control Magic", controller="B",
                                       attached_to="efreet"),
                                     *lands("Island", 2, "B", prefix="island")])
    assert t.find("efreet")["controller"] == "B"
    _phase_out_efreet(t, "B")
    assert not {"Rainbow Efreet", "Control Magic"} & phased_in(t)
    t.advance("upkeep", turn=4)
    assert {"Rainbow Efreet", "Control Magic"} <= phased_in(t)
    assert t.find("efreet")["controller"] == "B"


def test_2004_a_stolen_creature_phases_in_on_its_controllers_untap_step():
    t = table("cr2004", battlefield=[h("efreet", "Rainbow Efreet", controller="A"),
                                     h("magic", "Control Magic", controller="B",
                                       attached_to="efreet"),
                                     *lands("Island", 2, "B", prefix="island")])
    _phase_out_efreet(t, "B")
    assert not {"Rainbow Efreet", "Control Magic"} & phased_in(t)
    t.advance("upkeep", turn=4)
    assert {"Rainbow Efreet", "Control Magic"} <= phased_in(t)
    assert t.find("efreet")["controller"] == "B"


def _phase_out_a_token_with_an_aura(edition: str) -> Table:
    # No pool card phases out a token: the engine's phase_out, as Rainbow Efreet's ability
    # would do it, on a Soldier token wearing Holy Strength.
    t = table(edition, a={"hand": [h("alarm", "Raise the Alarm"), h("hs", "Holy Strength")]},
              battlefield=lands("Plains", 3))
    t.do("cast", "A", card="alarm", pay_with=["plains-a-1", "plains-a-2"])
    resolve(t)
    soldier = next(o for o in t.obs()["battlefield"] if o["card"] == "Soldier")
    t.handles["soldier"] = soldier["id"]
    t.do("cast", "A", card="hs", targets=["soldier"], pay_with=["plains-a-3"])
    resolve(t)
    game = t.engine.game
    game.phase_out(game.objects[t.id("soldier")])
    return t


def test_2004_a_token_that_phases_out_ceases_to_exist_its_aura_stays_phased_out():
    t = _phase_out_a_token_with_an_aura("cr2004")
    t.do("pass", "A")  # state-based actions: the token ceases to exist (217.8d)
    o = t.obs()
    assert [x["card"] for x in o["phased_out"]] == ["Holy Strength"]
    t.advance("upkeep", turn=5)
    t.advance("upkeep", turn=7)
    o = t.obs()
    assert [x["card"] for x in o["phased_out"]] == ["Holy Strength"]
    assert "Holy Strength" not in t.cards(o["battlefield"])
    assert t.cards(t.player("A")["graveyard"]) == ["Raise the Alarm"]


def test_modern_a_token_phases_out_and_back_in_with_its_aura():
    t = _phase_out_a_token_with_an_aura("modern")
    t.advance("upkeep", turn=5)
    assert {"Soldier", "Holy Strength"} <= phased_in(t)
    assert t.find("hs")["attached_to"] == t.id("soldier")


def test_modern_damage_on_a_phased_out_creature_wears_off_in_cleanup():
    # 514.2: damage marked on permanents, phased-out ones included, is removed.
    t = table("modern", battlefield=[h("efreet", "Rainbow Efreet", controller="A"),
                                     h("hs", "Holy Strength", controller="A",
                                       attached_to="efreet"),
                                     *lands("Island", 2, "A", prefix="island"),
                                     h("mountain", "Mountain", controller="A")],
              a={"hand": [h("shock", "Shock")]})
    t.do("cast", "A", card="shock", targets=["efreet"], pay_with=["mountain"])
    resolve(t)
    assert t.find("efreet")["damage"] == 2
    _phase_out_efreet(t)
    t.advance("upkeep", turn=4)
    assert t.find("efreet")["damage"] == 0


# ==== 5. cleanup ==================================================================================


def _lions_dying_in_cleanup(edition: str, extra_hand: int, *more_hand: dict,
                            more: tuple = ()) -> Table:
    """A's Savannah Lions with Rancor, Giant Growth, then Weakness: 3/3 until the cleanup step,
    then 2/0. ``extra_hand`` Islands stay in A's hand."""
    hand = [h("growth", "Giant Growth"), h("weak", "Weakness"), *more_hand,
            *[h(f"card-{i}", "Island") for i in range(extra_hand)]]
    t = table(edition, a={"hand": hand},
              battlefield=[h("lions", "Savannah Lions", controller="A"),
                           h("rancor", "Rancor", controller="A", attached_to="lions"),
                           h("forest", "Forest", controller="A"),
                           h("swamp", "Swamp", controller="A"), *more])
    t.do("cast", "A", card="growth", targets=["lions"], pay_with=["forest"])
    resolve(t)
    t.do("cast", "A", card="weak", targets=["lions"], pay_with=["swamp"])
    resolve(t)
    lions = t.find("lions")
    assert (lions["power"], lions["toughness"]) == (5, 3)
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_cleanup_a_creature_dying_as_its_pump_ends_gives_priority_and_rancor_returns(edition):
    # "Until end of turn" ends: the Lions are 2/0 and die, Weakness and Rancor go, Rancor's
    # trigger returns it to A's hand: players get priority in the cleanup step (514.3a,
    # 2004 314.3); the next cleanup step has nothing to do.
    t = _lions_dying_in_cleanup(edition, 6)
    assert len(t.player("A")["hand"]) == 6
    t.advance("cleanup")
    answer_graveyard_orders(t)
    o = t.obs()
    assert o["turn"]["step"] == "cleanup" and o["turn"]["priority"] == "A"
    assert "Savannah Lions" in t.cards(t.player("A")["graveyard"])
    assert [s["card"] for s in o["stack"]] == ["Rancor"]
    resolve(t)
    assert "Rancor" in t.cards(t.player("A")["hand"]) and len(t.player("A")["hand"]) == 7
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.obs()["pending"] is None and t.obs()["turn"]["number"] == 4


@pytest.mark.parametrize("edition", EDITIONS)
def test_cleanup_a_returned_card_over_the_hand_size_is_discarded_in_the_next_cleanup(edition):
    t = _lions_dying_in_cleanup(edition, 8)
    t.advance("cleanup")
    # First the discard (8 cards: one goes), then the pump ends and the Lions die.
    assert t.obs()["pending"]["decision"] == "discard"
    t.do("discard", "A", card="card-0")
    answer_graveyard_orders(t)
    assert len(t.player("A")["hand"]) == 7
    assert [s["card"] for s in t.obs()["stack"]] == ["Rancor"]
    resolve(t)
    assert len(t.player("A")["hand"]) == 8
    t.do("pass", "A")
    t.do("pass", "B")
    pending = t.obs()["pending"]
    assert pending is not None and pending["decision"] == "discard"
    assert t.obs()["turn"]["step"] == "cleanup" and t.obs()["turn"]["number"] == 3
    t.do("discard", "A", card="rancor")
    t.advance("upkeep", turn=4)
    assert len(t.player("A")["hand"]) == 7


@pytest.mark.parametrize("edition", EDITIONS)
def test_cleanup_priority_lets_a_player_cast_and_a_new_cleanup_ends_that_effect(edition):
    t = _lions_dying_in_cleanup(edition, 0, h("growth2", "Giant Growth"),
                                more=(h("bears", "Grizzly Bears", controller="A"),
                                      h("forest-2", "Forest", controller="A")))
    t.advance("cleanup")
    answer_graveyard_orders(t)
    assert t.obs()["turn"]["priority"] == "A"
    t.do("cast", "A", card="growth2", targets=["bears"], pay_with=["forest-2"])
    resolve(t)
    assert t.find("bears")["power"] == 5
    resolve(t)  # Rancor's trigger
    t.do("pass", "A")
    t.do("pass", "B")  # a new cleanup step: the second Giant Growth ends
    assert t.find("bears")["power"] == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_cleanup_damage_and_the_pump_end_together_so_the_creature_lives(edition):
    t = table(edition, a={"hand": [h("growth", "Giant Growth")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("forest", "Forest", controller="A"),
                           h("mountain", "Mountain", controller="A")],
              b={"hand": [h("bolt", "Lightning Bolt")]})
    t.do("cast", "A", card="growth", targets=["bears"], pay_with=["forest"])
    resolve(t)
    t.engine.game.deal_damage(None, t.id("bears"), 4)  # 4 damage on a 5/5
    t.advance("upkeep", turn=4)
    assert t.find("bears") in t.obs()["battlefield"]
    assert t.find("bears")["damage"] == 0


def test_2004_mana_burn_is_not_dealt_in_a_repeated_cleanup_step_before_the_phase_ends():
    # 2004 300.3: mana empties (with burn) only as a phase ends; cleanup steps repeating
    # inside the end phase burn once, for the mana left when the phase ends.
    t = _lions_dying_in_cleanup("cr2004", 0, more=(h("island", "Island", controller="A"),))
    t.advance("cleanup")
    answer_graveyard_orders(t)
    t.do("activate", "A", card="island", ability=0)
    assert t.player("A")["life"] == 20
    resolve(t)  # Rancor's trigger
    t.do("pass", "A")
    t.do("pass", "B")
    t.advance("upkeep", turn=4)
    assert t.player("A")["life"] == 19


# ==== 6. a source of one's choice ===============================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_circle_may_choose_a_red_spell_on_the_stack_but_not_a_whitened_permanent(edition):
    # Purelace makes A's Raging Goblin white; then A's Lightning Bolt at B. B's Circle: the
    # red sources are the Bolt (a spell) and the Mogg Fanatic, not the white Goblin nor
    # anything in a graveyard.
    t = table(edition, a={"hand": [h("lace", "Purelace"), h("bolt", "Lightning Bolt")],
                          "graveyard": [h("shock", "Shock")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("fanatic", "Mogg Fanatic", controller="A"),
                           h("plains", "Plains", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("cop", "Circle of Protection: Red", controller="B"),
                           h("island", "Island", controller="B")])
    t.do("cast", "A", card="lace", targets=["goblin"], pay_with=["plains"])
    resolve(t)
    assert t.find("goblin")["colors"] == ["W"]
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain"])
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["island"])
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_source"
    assert set(choices(t)) == {t.id("bolt"), t.id("fanatic")}
    t.do("choose", "B", choice="bolt")
    resolve(t)
    assert t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_circle_may_not_choose_a_red_spell_made_white(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              b={"hand": [h("lace", "Purelace")]},
              battlefield=[h("fanatic", "Mogg Fanatic", controller="A"),
                           h("goblin", "Raging Goblin", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("cop", "Circle of Protection: Red", controller="B"),
                           h("island", "Island", controller="B"),
                           h("plains", "Plains", controller="B")])
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain"])
    t.do("pass", "A")
    t.do("cast", "B", card="lace", targets=["bolt"], pay_with=["plains"])
    resolve(t)
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["island"])
    resolve(t)
    assert set(choices(t)) == {t.id("fanatic"), t.id("goblin")}


def test_2004_circle_may_choose_an_attacker_gone_whose_damage_is_on_the_stack():
    # 2004: Raging Goblin's combat damage is on the stack; A returns the Goblin with Unsummon.
    # The damage is still dealt (310.4a) and its source may be chosen (the object the combat
    # damage on the stack refers to).
    t = table("cr2004", a={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("fanatic", "Mogg Fanatic", controller="A"),
                           h("island-a", "Island", controller="A"),
                           h("cop", "Circle of Protection: Red", controller="B"),
                           h("island", "Island", controller="B")])
    goblin = t.id("goblin")
    t.attack("goblin")
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    t.do("cast", "A", card="unsummon", targets=["goblin"], pay_with=["island-a"])
    resolve(t)
    assert t.cards(t.player("A")["hand"]) == ["Raging Goblin"]
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["island"])
    resolve(t)
    assert set(choices(t)) == {goblin, t.id("fanatic")}
    t.do("choose", "B", choice=goblin)
    resolve(t)
    assert t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_circle_of_protection_artifacts_may_choose_a_triskelion_gone_from_its_ability(edition):
    # Triskelion's ability is on the stack; B returns Triskelion with Unsummon. The ability
    # refers to it, so it may be chosen (as it last existed: an artifact), and its damage
    # is prevented.
    t = table(edition, b={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("trisk", "Triskelion", controller="A",
                             counters={"+1/+1": 3}),
                           h("thopter", "Ornithopter", controller="A"),
                           h("cop", "Circle of Protection: Artifacts", controller="B"),
                           *lands("Island", 3, "B")])
    trisk = t.id("trisk")
    t.do("activate", "A", card="trisk", ability=0, targets=["B"])
    t.do("pass", "A")
    t.do("cast", "B", card="unsummon", targets=["trisk"], pay_with=["island-b-1"])
    resolve(t)
    assert t.cards(t.player("A")["hand"]) == ["Triskelion"]
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["island-b-2", "island-b-3"])
    resolve(t)
    assert set(choices(t)) == {trisk, t.id("thopter")}
    t.do("choose", "B", choice=trisk)
    resolve(t)
    assert t.player("B")["life"] == 20


# ==== 7. X in a spell's mana value =============================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireballs_extra_target_cost_is_not_part_of_its_mana_value(edition):
    t = table(edition, a={"hand": [h("fireball", "Fireball")], "mana_pool": {"R": 4}},
              battlefield=[h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="fireball", x=2, targets=["bears", "B"])
    assert t.obs()["stack"][0]["mana_value"] == 3  # X + {R}; the {1} per target is no cost
    assert t.obs()["stack"][0]["mana_cost"] == "{X}{R}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_with_x_zero_and_a_countered_fireball(edition):
    t = table(edition, a={"hand": [h("fireball", "Fireball")], "mana_pool": {"R": 4}},
              b={"hand": [h("cs", "Counterspell")], "mana_pool": {"U": 2}})
    t.do("cast", "A", card="fireball", x=3, targets=["B"])
    assert t.obs()["stack"][0]["mana_value"] == 4
    t.do("pass", "A")
    t.do("cast", "B", card="cs", targets=["fireball"])
    resolve(t)
    assert t.player("A")["graveyard"][0]["mana_value"] == 1


# ==== 8. ante cards outside ante games ==========================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_ante_card_in_a_deck_is_refused_outside_an_ante_game(edition):
    engine = ReferenceEngine()
    decks = {"A": ["Forest"] * 39 + ["Contract from Below"], "B": ["Forest"] * 40}
    with pytest.raises(IllegalSetupError, match="ante"):
        engine.new_game(edition, {"start": "game", "seed": 1, "decks": decks})
    engine.new_game(edition, {"start": "game", "seed": 1, "decks": decks, "ante": True})


@pytest.mark.parametrize("edition", EDITIONS)
def test_in_an_ante_game_a_wish_may_bring_in_an_ante_card(edition):
    t = table(edition, a={"hand": [h("wish", "Burning Wish")],
                          "sideboard": [h("contract", "Contract from Below")]},
              battlefield=lands("Mountain", 2), ante=[{"card": "Forest", "owner": "B"}])
    t.do("cast", "A", card="wish", pay_with="auto")
    resolve(t)
    assert t.id("contract") in choices(t)
    t.do("choose", "A", choice="contract")
    assert t.cards(t.player("A")["hand"]) == ["Contract from Below"]


def test_2004_a_removed_ante_card_is_not_brought_in_outside_an_ante_game():
    # 2004: removed-from-the-game cards are outside the game (217.1e); an ante card among them
    # still may not be brought in when not playing for ante (the engine follows modern 407.3).
    t = table("cr2004", a={"hand": [h("wish", "Burning Wish")]},
              battlefield=lands("Mountain", 2),
              exile=[{"handle": "contract", "card": "Contract from Below", "owner": "A"},
                     {"handle": "axe", "card": "Lava Axe", "owner": "A"}])
    t.do("cast", "A", card="wish", pay_with="auto")
    resolve(t)
    assert set(choices(t)) == {t.id("axe"), None}


@pytest.mark.parametrize("edition", EDITIONS)
def test_contract_from_below_antes_nothing_outside_an_ante_game(edition):
    # A given state may hold it in a hand; not playing for ante, nothing is anted.
    t = table(edition, a={"hand": [h("contract", "Contract from Below")]},
              battlefield=lands("Swamp", 1))
    t.do("cast", "A", card="contract", pay_with="auto")
    resolve(t)
    assert t.obs()["ante"] == [] and len(t.player("A")["hand"]) == 7


# ==== 9. combat ==================================================================================


def _division(t: Table, *pairs: tuple[str, int]) -> list[list]:
    return [[t.id(who), amount] for who, amount in pairs]


def _divisions(t: Table) -> set[tuple]:
    return {tuple(amount for _, amount in choice) for choice in choices(t)}


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_attacker_regenerated_in_the_declare_attackers_step_keeps_the_combat_steps(edition):
    # Declared as an attacker, then removed from combat by regenerating before blockers: the
    # declare blockers and combat damage steps still happen (508.8); it deals no damage.
    t = table(edition, a={"hand": []},
              b={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("skel", "Drudge Skeletons", controller="A"),
                           h("swamp", "Swamp", controller="A"),
                           h("mountain", "Mountain", controller="B")])
    t.attack("skel")
    t.do("activate", "A", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    t.do("pass", "A")
    t.do("cast", "B", card="bolt", targets=["skel"], pay_with=["mountain"])
    resolve(t)
    assert t.find("skel")["attacking"] is False
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.obs()["turn"]["step"] == "declare_blockers"
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trampler_whose_blocker_was_unsummoned_deals_all_its_damage_to_the_player(edition):
    t = table(edition, a={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("rancor", "Rancor", controller="A", attached_to="bears"),
                           h("giant", "Hill Giant", controller="B"),
                           h("island", "Island", controller="A")])
    t.attack("bears")
    t.block({"giant": "bears"})
    t.do("cast", "A", card="unsummon", targets=["giant"], pay_with=["island"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 16


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_blocked_creature_without_trample_whose_blocker_left_deals_no_damage(edition):
    t = table(edition, a={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("giant", "Hill Giant", controller="A"),
                           h("bears", "Grizzly Bears", controller="B"),
                           h("island", "Island", controller="A")])
    t.attack("giant")
    t.block({"bears": "giant"})
    t.do("cast", "A", card="unsummon", targets=["bears"], pay_with=["island"])
    resolve(t)
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_trample_lethal_damage_counts_damage_already_marked(edition):
    # Bears with Rancor (4/2 trample) blocked by a Hill Giant that was Shocked (lethal 1).
    t = table(edition, a={"hand": [h("shock", "Shock")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("rancor", "Rancor", controller="A", attached_to="bears"),
                           h("giant", "Hill Giant", controller="B"),
                           h("mountain", "Mountain", controller="A")])
    t.attack("bears")
    t.block({"giant": "bears"})
    t.do("cast", "A", card="shock", targets=["giant"], pay_with=["mountain"])
    resolve(t)
    t.advance("combat_damage")
    assert t.obs()["pending"]["blockers"] == [{"id": t.id("giant"), "lethal": 1}]
    assert _divisions(t) == {(1, 3), (2, 2), (3, 1), (4, 0)}
    t.do("choose", "A", choice=_division(t, ("giant", 1), ("B", 3)))
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 17
    assert t.cards(t.player("B")["graveyard"]) == ["Hill Giant"]


def _trampler_and_two_elves(edition: str) -> Table:
    t = table(edition, battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                    h("rancor", "Rancor", controller="A", attached_to="bears"),
                                    h("elf-1", "Llanowar Elves", controller="B"),
                                    h("elf-2", "Llanowar Elves", controller="B")])
    t.attack("bears")
    t.block({"elf-1": "bears", "elf-2": "bears"})
    t.advance("combat_damage")
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_trample_two_blockers_divided_freely_the_player_only_after_lethal_to_all(edition):
    # 2004 502.9b, modern 702.19b: lethal damage to all the blockers before any goes to the
    # player; among the blockers the damage is divided freely (2004 310.2c; modern 510.1c
    # since 2024-11-08, when the damage assignment order went), no order.
    t = _trampler_and_two_elves(edition)
    assert _divisions(t) == {(4, 0, 0), (3, 1, 0), (2, 2, 0), (1, 3, 0), (0, 4, 0),
                             (1, 1, 2), (1, 2, 1), (2, 1, 1)}
    assert t.illegal("choose", "A", choice=_division(t, ("elf-1", 0), ("elf-2", 2), ("B", 2)))
    t.do("choose", "A", choice=_division(t, ("elf-1", 0), ("elf-2", 4), ("B", 0)))
    resolve(t)
    assert t.find("elf-1") in t.obs()["battlefield"]
    assert t.player("B")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_attacker_that_stops_being_a_creature_is_removed_from_combat(edition):
    # Opalescence makes Living Plane a 4/4 creature; Living Plane makes A's Forest a 1/1
    # creature, which attacks and is blocked. B returns Living Plane with Unsummon: the Forest
    # is no creature, so it is removed from combat; it and its blocker deal no combat damage.
    t = table(edition, b={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("opal", "Opalescence", controller="B"),
                           h("plane", "Living Plane", controller="B"),
                           h("forest", "Forest", controller="A"),
                           h("elves", "Llanowar Elves", controller="B"),
                           h("island", "Island", controller="B")])
    assert t.find("plane")["power"] == 4 and t.find("forest")["power"] == 1
    t.attack("forest")
    t.block({"elves": "forest"})
    t.do("pass", "A")
    t.do("cast", "B", card="unsummon", targets=["plane"], pay_with=["island"])
    resolve(t)
    assert "Creature" not in t.find("forest")["types"]
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20
    assert t.find("elves")["damage"] == 0 and t.find("forest")["damage"] == 0


def test_2004_a_blocker_sacrificed_with_its_damage_on_the_stack_still_deals_it():
    # The classic 2004 trick: Mogg Fanatic's combat damage is on the stack; B sacrifices it to
    # deal 1 more. The Bears are dealt 1 + 1 and die.
    t = table("cr2004", battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                     h("fanatic", "Mogg Fanatic", controller="B")])
    t.attack("bears")
    t.block({"fanatic": "bears"})
    t.advance("combat_damage")
    t.do("pass", "A")
    t.do("activate", "B", card="fanatic", ability=0, targets=["bears"])
    resolve(t)
    assert t.find("bears")["damage"] == 1
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]


def test_modern_a_blocker_sacrificed_after_combat_damage_has_dealt_it_already():
    t = table("modern", battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                     h("fanatic", "Mogg Fanatic", controller="B")])
    t.attack("bears")
    t.block({"fanatic": "bears"})
    t.advance("combat_damage")
    assert t.cards(t.player("B")["graveyard"]) == ["Mogg Fanatic"]
    assert t.find("bears")["damage"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_regenerated_blocker_of_two_leaves_all_the_damage_to_the_other(edition):
    # Hill Giant blocked by Drudge Skeletons and Llanowar Elves; the Skeletons regenerate
    # (removed from combat): the Giant's 3 damage all goes to the Elves, none to the
    # Skeletons, and the Skeletons deal none.
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("giant", "Hill Giant", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("skel", "Drudge Skeletons", controller="B"),
                           h("elves", "Llanowar Elves", controller="B"),
                           h("swamp", "Swamp", controller="B")])
    t.attack("giant")
    t.block({"skel": "giant", "elves": "giant"})
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0, pay_with=["swamp"])
    resolve(t)
    t.do("cast", "A", card="bolt", targets=["skel"], pay_with=["mountain"])
    resolve(t)
    assert t.find("skel")["blocking"] is None
    t.advance("combat_damage")
    assert t.obs()["pending"] is None  # one blocker left: all to it
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves"]
    assert t.find("skel")["damage"] == 0 and t.find("giant")["damage"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_attacker_whose_control_changes_back_is_removed_from_combat(edition):
    # B attacks with A's Hill Giant, stolen with Control Magic; A blocks with Grizzly Bears.
    # Control Magic then leaves the battlefield (the engine's destroy stands in for an
    # instant-speed removal, which the pool lacks): the Giant is A's again and removed from
    # combat; neither it nor the Bears deal combat damage (modern 506.4).
    t = table(edition, active="B",
              battlefield=[h("giant", "Hill Giant", owner="A", controller="B"),
                           h("magic", "Control Magic", controller="B", attached_to="giant"),
                           h("bears", "Grizzly Bears", controller="A")])
    t.attack("giant")
    t.block({"bears": "giant"})
    t.engine.game.destroy(t.id("magic"))
    t.do("pass", "B")
    assert t.find("giant")["controller"] == "A" and t.find("giant")["attacking"] is False
    t.advance("end_of_combat")
    assert t.find("bears")["damage"] == 0 and t.find("giant")["damage"] == 0
    assert t.player("A")["life"] == 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_attacker_blocked_by_a_creature_that_phased_out_deals_no_damage(edition):
    t = table(edition, battlefield=[h("giant", "Hill Giant", controller="A"),
                                    h("efreet", "Rainbow Efreet", controller="B"),
                                    *lands("Island", 2, "B", prefix="island")])
    t.attack("giant")
    t.block({"efreet": "giant"})
    _phase_out_efreet(t, "B")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 20 and t.find("giant")["damage"] == 0


def test_2004_a_blocker_phasing_out_with_damage_on_the_stack_still_deals_its_damage():
    # 2004: damage on the stack is dealt even though its source left play (310.4a), but not
    # to a creature no longer in play (310.4c): the Efreet phases out and survives, the Giant
    # is dealt 3 and dies.
    t = table("cr2004", battlefield=[h("giant", "Hill Giant", controller="A"),
                                     h("efreet", "Rainbow Efreet", controller="B"),
                                     *lands("Island", 2, "B", prefix="island")])
    t.attack("giant")
    t.block({"efreet": "giant"})
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    _phase_out_efreet(t, "B")
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Hill Giant"]
    assert [o["card"] for o in t.obs()["phased_out"]] == ["Rainbow Efreet"]
    t.advance("upkeep", turn=4)
    assert t.find("efreet")["damage"] == 0


# ==== 10. "Legend" as a creature type ===========================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_engineered_plague_may_name_existing_creature_types_not_on_creature_cards(edition):
    # Soldier (Raise the Alarm's tokens) and Assembly-Worker (Mishra's Factory) are creature
    # types in both editions' lists.
    t = table(edition, a={"hand": [h("plague", "Engineered Plague")]},
              battlefield=lands("Swamp", 3))
    t.do("cast", "A", card="plague", pay_with="auto")
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_creature_type"
    assert {"Soldier", "Assembly-Worker"} <= set(choices(t))


def test_2004_legend_named_by_engineered_plague_does_not_touch_a_legendary_land_creature():
    # 215.2: Pendelhaven animated by Living Plane is legendary, but no creature of type Legend.
    t = table("cr2004", a={"hand": [h("plague", "Engineered Plague")]},
              battlefield=[h("plane", "Living Plane", controller="B"),
                           h("pendel", "Pendelhaven", controller="B"),
                           *lands("Swamp", 3)])
    t.do("cast", "A", card="plague", pay_with="auto")
    resolve(t)
    t.do("choose", "A", choice="Legend")
    assert t.find("pendel")["power"] == 1 and t.find("pendel")["subtypes"] == []


# ==== 11. loops ===================================================================================


def _gorger_loop(edition: str, battlefield: list, graveyard_b: list | None = None) -> Table:
    t = table(edition, a={"hand": [h("ad", "Animate Dead")], "mana_pool": {"B": 2},
                          "graveyard": [h("dragon", "Worldgorger Dragon")]},
              b={"graveyard": graveyard_b or []},
              battlefield=[h("swamp", "Swamp", controller="A"), *battlefield])
    t.do("cast", "A", card="ad", targets=[] if edition == "cr2004" else ["dragon"])
    return t


def _run_loop(t: Table, passes: int) -> int:
    """Pass priority (answering forced decisions by their first option) up to ``passes``
    times; return how many decisions with more than one option were met."""
    several = 0
    for _ in range(passes):
        o = t.obs()
        if o["result"]["over"]:
            break
        if o["pending"] is not None:
            listed = [a for a in t.legal() if a["action"] not in ("concede",)]
            several += len(listed) > 1
            t.engine.perform(listed[0])
            t._follow()
            continue
        t.pass_priority()
    return several


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_gorger_loop_with_a_land_of_each_player_is_still_a_draw(edition):
    t = _gorger_loop(edition, [h("island", "Island", controller="B")])
    assert _run_loop(t, 400) == 0
    assert t.obs()["result"]["draw"] is True


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mandatory_loop_that_gains_life_each_time_round_is_still_a_draw(edition):
    # B's Soul Warden sees the Dragon enter each time round: nobody has any choice, nobody can
    # stop the loop; only B's life total keeps growing.
    t = _gorger_loop(edition, [h("warden", "Soul Warden", controller="B")])
    assert _run_loop(t, 600) == 0  # no decision with a choice in it
    # It went round (twice at least: the engine calls a draw once the same changes come back
    # twice; the rules set no number).
    assert t.player("B")["life"] > 22
    assert t.obs()["result"]["draw"] is True


# ==== 12. cards put into a graveyard at once ======================================================


def _fireball_four(edition: str) -> Table:
    t = table(edition, a={"hand": [h("fireball", "Fireball")], "mana_pool": {"R": 12}},
              battlefield=[h("lions-b", "Savannah Lions", controller="B"),
                           h("bears-b", "Grizzly Bears", controller="B"),
                           h("elves-a", "Llanowar Elves", controller="A"),
                           h("lions-a", "Savannah Lions", controller="A")])
    t.do("cast", "A", card="fireball", x=8,
         targets=["lions-b", "bears-b", "elves-a", "lions-a"])
    resolve(t)
    return t


def test_modern_lethal_damage_deaths_at_once_each_owner_orders_active_player_first():
    t = _fireball_four("modern")
    pending = t.obs()["pending"]
    assert (pending["decision"], pending["player"]) == ("order_graveyard", "A")
    t.do("choose", "A", choice="lions-a")  # the last one chosen ends on top
    pending = t.obs()["pending"]
    assert (pending["decision"], pending["player"]) == ("order_graveyard", "B")
    t.do("choose", "B", choice="bears-b")
    assert [c["card"] for c in t.player("A")["graveyard"]] == [
        "Llanowar Elves", "Savannah Lions", "Fireball"]  # top first
    assert [c["card"] for c in t.player("B")["graveyard"]] == [
        "Savannah Lions", "Grizzly Bears"]


def test_2004_lethal_damage_deaths_at_once_are_not_ordered():
    t = _fireball_four("cr2004")
    assert t.obs()["pending"] is None
    assert sorted(t.cards(t.player("B")["graveyard"])) == ["Grizzly Bears", "Savannah Lions"]
    assert sorted(t.cards(t.player("A")["graveyard"])) == [
        "Fireball", "Llanowar Elves", "Savannah Lions"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_wrath_deaths_at_once_are_ordered_by_each_owner(edition):
    # An effect: both editions (2004 217.4c, modern 404.3).
    t = table(edition, a={"hand": [h("wrath", "Wrath of God")], "mana_pool": {"W": 4}},
              battlefield=[h("lions-b", "Savannah Lions", controller="B"),
                           h("bears-b", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="wrath")
    resolve(t)
    pending = t.obs()["pending"]
    assert (pending["decision"], pending["player"]) == ("order_graveyard", "B")


# ==== 13. mana abilities activated while paying ===================================================


@pytest.mark.parametrize("edition", EDITIONS)
def test_city_of_brass_paying_for_a_spell_triggers_above_it(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("city", "City of Brass", controller="A")])
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["city"])
    stack = t.obs()["stack"]
    assert [(s["kind"], s["card"]) for s in stack] == [("trigger", "City of Brass"),
                                                       ("spell", "Lightning Bolt")]
    assert t.obs()["turn"]["priority"] == "A"
    resolve(t)
    assert t.player("A")["life"] == 19 and t.player("B")["life"] == 20
    resolve(t)
    assert t.player("B")["life"] == 17


@pytest.mark.parametrize("edition", EDITIONS)
def test_city_of_brass_paying_for_an_ability_triggers_above_it(edition):
    t = table(edition, battlefield=[h("city", "City of Brass", controller="A"),
                                    h("icy", "Icy Manipulator", controller="A"),
                                    h("bears", "Grizzly Bears", controller="B")])
    t.do("activate", "A", card="icy", ability=0, targets=["bears"], pay_with=["city"])
    assert [(s["kind"], s["card"]) for s in t.obs()["stack"]] == [
        ("trigger", "City of Brass"), ("ability", "Icy Manipulator")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_city_of_brass_tapped_for_mana_first_triggers_below_the_spell(edition):
    # Activated as an action before casting: its trigger goes on the stack before A next
    # gets priority, so the spell cast afterwards is above it.
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("city", "City of Brass", controller="A")])
    t.do("activate", "A", card="city", ability=0)
    pending = t.obs()["pending"]
    if pending is not None and pending["decision"] == "choose_color":
        t.do("choose", "A", choice="R")
    assert [s["card"] for s in t.obs()["stack"]] == ["City of Brass"]
    t.do("cast", "A", card="bolt", targets=["B"])
    assert [s["card"] for s in t.obs()["stack"]] == ["Lightning Bolt", "City of Brass"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_forbidden_orchard_paying_gives_the_token_before_the_spell_resolves(edition):
    t = table(edition, a={"hand": [h("shock", "Shock")]},
              battlefield=[h("orchard", "Forbidden Orchard", controller="A")])
    t.do("cast", "A", card="shock", targets=["B"], pay_with=["orchard"])
    assert [s["card"] for s in t.obs()["stack"]] == ["Forbidden Orchard", "Shock"]
    resolve(t)
    spirit = [o for o in t.obs()["battlefield"] if o["card"] == "Spirit"]
    assert len(spirit) == 1 and spirit[0]["controller"] == "B"
    assert [s["card"] for s in t.obs()["stack"]] == ["Shock"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_summoning_sick_llanowar_elves_cannot_pay(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=[h("elves", "Llanowar Elves", controller="A", sick=True),
                           h("forest", "Forest", controller="A")])
    t.illegal("cast", "A", card="bears", pay_with=["elves", "forest"])


@pytest.mark.parametrize(("edition", "life"), [("cr2004", 19), ("modern", 20)])
def test_mana_beyond_the_cost_stays_in_the_pool_and_burns_only_in_2004(edition, life):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=lands("Mountain", 2))
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-a-1", "mountain-a-2"])
    assert t.player("A")["mana_pool"]["R"] == 1
    resolve(t)
    t.advance("beginning_of_combat")
    assert t.player("A")["life"] == life
