"""Defects found by a rules review of the reference engine (issue 9), each shown in both
editions where it applies: the world and 2004 legend rules on a tie, simultaneous entering,
intervening "if" clauses, phasing with attachments, state-based actions in cleanup, choosing
a source the stack refers to, X in a spell's mana value, ante cards outside an ante game,
combat steps after the only attacker left, and "Legend" as a 2004 creature type."""

from __future__ import annotations

import contextlib

import pytest

from reference_engine.constants import BATTLEFIELD
from reference_engine.engine import ReferenceEngine
from reference_engine.errors import IllegalSetupError
from reference_engine.state import GameOver
from tests.enginekit import h, resolve, table

EDITIONS = ("cr2004", "modern")


def lands(card: str, count: int, controller: str = "A", prefix: str | None = None) -> list:
    prefix = prefix or card.lower()
    return [h(f"{prefix}-{i}", card, controller=controller) for i in range(1, count + 1)]


# ---- 2: the world rule (and the 2004 legend rule) on a tie ---------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_world_enchantments_entering_at_once_all_go(edition):
    t = table(edition, a={"hand": [h("replenish", "Replenish")],
                          "graveyard": ["Living Plane", "Concordant Crossroads"]},
              battlefield=lands("Plains", 4))
    t.do("cast", "A", card="replenish", pay_with="auto")
    resolve(t)
    if edition == "modern":  # put into the graveyard at once: their owner orders them
        assert t.obs()["pending"]["decision"] == "order_graveyard"
        t.do("choose", "A", choice=next(a["choice"] for a in t.legal()
                                        if a["action"] == "choose"))
    assert t.cards(t.obs()["battlefield"]).count("Living Plane") == 0
    assert sorted(t.cards(t.player("A")["graveyard"])) == [
        "Concordant Crossroads", "Living Plane", "Replenish"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_newer_world_enchantment_replaces_the_older(edition):
    t = table(edition, a={"hand": [h("crossroads", "Concordant Crossroads")]},
              battlefield=[h("plane", "Living Plane", controller="B"),
                           h("forest", "Forest", controller="A")])
    t.do("cast", "A", card="crossroads", pay_with=["forest"])
    resolve(t)
    assert "Concordant Crossroads" in t.cards(t.obs()["battlefield"])
    assert t.cards(t.player("B")["graveyard"]) == ["Living Plane"]


@pytest.mark.parametrize(("edition", "kept"), [("cr2004", 0), ("modern", 1)])
def test_legends_entering_at_once(edition, kept):
    # No pool effect puts two same-named legends onto the battlefield at once: move them as
    # one event directly. 2004 keeps the one in play longest, none on a tie (420.5e); modern
    # lets the controller keep one (704.5j).
    t = table(edition, a={"hand": [h("p1", "Pendelhaven"), h("p2", "Pendelhaven")]})
    game = t.engine.game
    assert game is not None
    with game.together():
        for handle in ("p1", "p2"):
            game.move(game.objects[t.id(handle)], BATTLEFIELD, controller="A")
    t.do("pass", "A")  # state-based actions happen before B gets priority
    pending = t.obs()["pending"]
    if pending is not None:
        assert pending["decision"] == "legend_rule"
        t.do("choose", "A", choice=next(a["choice"] for a in t.legal()
                                        if a["action"] == "choose"))
    names = t.cards(t.obs()["battlefield"])
    assert names.count("Pendelhaven") == kept
    assert t.cards(t.player("A")["graveyard"]).count("Pendelhaven") == 2 - kept


# ---- 3: permanents entering at once see each other ------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_creatures_returned_with_soul_warden_are_seen_by_it(edition):
    # Worldgorger Dragon exiles A's other permanents; when it leaves, Soul Warden and two
    # other creatures come back together: the Warden sees both of them enter (603.6a).
    t = table(edition, a={"hand": [h("dragon", "Worldgorger Dragon")]},
              battlefield=[h("warden", "Soul Warden", controller="A"),
                           h("bears", "Grizzly Bears", controller="A"),
                           h("elves", "Llanowar Elves", controller="A"),
                           *lands("Mountain", 5)])
    t.do("cast", "A", card="dragon", pay_with="auto")
    resolve(t)
    pending = t.obs()["pending"]
    assert pending["decision"] == "order_triggers"
    warden = next(o["id"] for o in pending["triggers"] if o["card"] == "Soul Warden")
    t.do("choose", "A", choice=warden)  # the Warden's trigger first: at the bottom
    resolve(t)  # the Dragon's: every other permanent of A's is exiled
    resolve(t)  # the Warden's: A gains 1
    assert t.player("A")["life"] == 21
    assert t.cards(t.obs()["battlefield"]) == ["Worldgorger Dragon"]
    game = t.engine.game
    assert game is not None
    dragon = next(o for o in game.battlefield if o.card.name == "Worldgorger Dragon")
    game.destroy(dragon.id)  # (no pool card at hand kills it cheaply here)
    resolve(t)  # the Dragon's leaves trigger resolves: all come back at once
    pending = t.obs()["pending"]
    assert pending["decision"] == "order_triggers"
    assert [o["card"] for o in pending["triggers"]] == ["Soul Warden", "Soul Warden"]
    t.do("choose", "A", choice=pending["triggers"][0]["id"])
    resolve(t)
    resolve(t)
    assert t.player("A")["life"] == 23


# ---- 4: an intervening "if" is checked again on resolution -----------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_howling_mine_tapped_in_response_draws_nothing(edition):
    t = table(edition, "upkeep", active="B",
              battlefield=[h("mine", "Howling Mine", controller="B"),
                           h("icy", "Icy Manipulator", controller="A"),
                           h("island", "Island", controller="A")])
    hand = len(t.player("B")["hand"])
    t.advance("draw")
    assert [s["card"] for s in t.obs()["stack"]] == ["Howling Mine"]
    t.do("pass", "B")
    t.do("activate", "A", card="icy", ability=0, targets=["mine"], pay_with=["island"])
    resolve(t)  # the Manipulator's ability: the Mine is tapped
    assert t.find("mine")["tapped"] is True
    resolve(t)  # the Mine's trigger: its "if" no longer holds
    assert len(t.player("B")["hand"]) == hand + 1  # the normal draw only


@pytest.mark.parametrize("edition", EDITIONS)
def test_howling_mine_untapped_gives_its_card(edition):
    t = table(edition, "upkeep", active="B",
              battlefield=[h("mine", "Howling Mine", controller="B")])
    hand = len(t.player("B")["hand"])
    t.advance("draw")
    resolve(t)
    assert len(t.player("B")["hand"]) == hand + 2


# ---- 5: an Aura phases in with its permanent, never by itself --------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_phases_in_only_with_its_permanent(edition):
    t = table(edition, battlefield=[h("efreet", "Rainbow Efreet", controller="A"),
                                    h("strength", "Holy Strength", controller="B",
                                      attached_to="efreet"),
                                    *lands("Island", 2)])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)

    def phased_in() -> set[str]:  # 2004: the phased-out zone; modern: a status
        return {o["card"] for o in t.obs()["battlefield"] if not o.get("phased_out")}

    assert not {"Rainbow Efreet", "Holy Strength"} & phased_in()
    t.advance("upkeep", turn=4)  # B's untap step: B's Aura does not phase in by itself
    assert not {"Rainbow Efreet", "Holy Strength"} & phased_in()
    t.advance("upkeep", turn=5)  # A's: the Efreet phases in, the Aura with it
    assert {"Rainbow Efreet", "Holy Strength"} <= phased_in()
    assert t.find("efreet")["power"] == 4  # 3/3 with +1/+2


# ---- 6: cleanup performs every state-based action ---------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_on_a_land_that_stops_being_a_creature_in_cleanup_goes(edition):
    t = table(edition, battlefield=[h("factory", "Mishra's Factory", controller="A"),
                                    h("plains", "Plains", controller="A"),
                                    h("forest", "Forest", controller="A")],
              a={"hand": [h("strength", "Holy Strength")]})
    t.do("activate", "A", card="factory", ability=1, pay_with=["forest"])
    resolve(t)
    t.do("cast", "A", card="strength", targets=["factory"], pay_with=["plains"])
    resolve(t)
    assert t.find("factory")["power"] == 3
    t.advance("cleanup")
    # "Until end of turn" ends: the Factory is no creature, Holy Strength is put into the
    # graveyard, and the players get priority in this cleanup step.
    o = t.obs()
    assert o["turn"]["step"] == "cleanup" and o["turn"]["priority"] == "A"
    assert t.cards(t.player("A")["graveyard"]) == ["Holy Strength"]
    t.advance("upkeep", turn=4)
    assert "Holy Strength" not in t.cards(t.obs()["battlefield"])


# ---- 7: a source of your choice may be an object the stack refers to -------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_circle_may_choose_a_creature_sacrificed_for_its_ability(edition):
    t = table(edition, battlefield=[h("fanatic", "Mogg Fanatic", controller="A"),
                                    h("goblin", "Raging Goblin", controller="A"),
                                    h("cop", "Circle of Protection: Red", controller="B"),
                                    h("island", "Island", controller="B")])
    fanatic = t.id("fanatic")
    t.do("activate", "A", card="fanatic", ability=0, targets=["B"])
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["island"])
    resolve(t)
    pending = t.obs()["pending"]
    assert pending is not None and pending["decision"] == "choose_source"
    options = {a["choice"] for a in t.legal() if a["action"] == "choose"}
    assert options == {fanatic, t.id("goblin")}  # the sacrificed Fanatic among them
    t.do("choose", "B", choice=fanatic)
    resolve(t)  # the Fanatic's ability: its damage is prevented
    assert t.player("B")["life"] == 20


# ---- 8: X counts in a spell's mana value on the stack ------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_fireballs_mana_value_on_the_stack_counts_x(edition):
    t = table(edition, a={"hand": [h("fireball", "Fireball")]}, battlefield=lands("Mountain", 4))
    assert t.player("A")["hand"][0]["mana_value"] == 1
    t.do("cast", "A", card="fireball", x=3, targets=["B"], pay_with="auto")
    assert t.obs()["stack"][0]["mana_value"] == 4
    resolve(t)
    assert t.player("A")["graveyard"][0]["mana_value"] == 1


# ---- 9: ante cards stay out of a game not played for ante -------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_wish_does_not_offer_an_ante_card_outside_an_ante_game(edition):
    t = table(edition, a={"hand": [h("wish", "Burning Wish")],
                          "sideboard": ["Lava Axe"]},
              battlefield=lands("Mountain", 2))
    t.do("cast", "A", card="wish", pay_with="auto")
    resolve(t)
    choices = [a.get("choice") for a in t.legal() if a["action"] == "choose"]
    assert t.cards(t.player("A")["hand"]) == [] and choices  # Lava Axe offered
    game = t.engine.game
    assert game is not None
    outside = [o.card.name for o in game.cards_outside_the_game("A")]
    assert outside == ["Lava Axe"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_ante_card_may_not_be_in_a_sideboard_outside_an_ante_game(edition):
    engine = ReferenceEngine()
    decks = {"A": ["Forest"] * 40, "B": ["Forest"] * 40}
    with pytest.raises(IllegalSetupError, match="Contract from Below, an ante card"):
        engine.new_game(edition, {"start": "game", "seed": 1, "decks": decks,
                                  "sideboards": {"A": ["Contract from Below"]}})
    with pytest.raises(IllegalSetupError, match="an ante card"):
        engine.new_game(edition, {"players": {"A": {"sideboard": ["Contract from Below"]}}})
    engine.new_game(edition, {"start": "game", "seed": 1, "decks": decks, "ante": True,
                              "sideboards": {"A": ["Contract from Below"]}})


# ---- 10: combat goes on after the only attacker left --------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_combat_steps_follow_a_declaration_even_if_the_attacker_is_gone(edition):
    t = table(edition, battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                    h("island", "Island", controller="B")],
              b={"hand": [h("unsummon", "Unsummon")]})
    t.attack("bears")
    t.do("pass", "A")
    t.do("cast", "B", card="unsummon", targets=["bears"], pay_with=["island"])
    resolve(t)
    t.do("pass", "A")
    t.do("pass", "B")
    # Declared as an attacker, so the declare blockers step happens (508.8).
    assert t.obs()["turn"]["step"] == "declare_blockers"


# ---- 11: "Legend" is a creature type in 2004 -----------------------------------------------------


@pytest.mark.parametrize(("edition", "named"), [("cr2004", True), ("modern", False)])
def test_legend_may_be_named_as_a_creature_type_in_2004_only(edition, named):
    t = table(edition, a={"hand": [h("plague", "Engineered Plague")]},
              battlefield=lands("Swamp", 3))
    t.do("cast", "A", card="plague", pay_with="auto")
    resolve(t)
    pending = t.obs()["pending"]
    assert pending is not None and pending["decision"] == "choose_creature_type"
    options = {a["choice"] for a in t.legal() if a["action"] == "choose"}
    assert ("Legend" in options) is named
    assert "Bear" in options


@pytest.mark.parametrize(("lives", "draw"), [
    ([20, 20, 20, 20], True),  # the same state comes back: a draw (2004 102.6)
    ([20, 21, 22, 23], True),  # a life gained each time round, for ever (modern 104.4b)
    ([20, 19, 18, 17], False),  # a life lost each time round: the loop ends when B loses
    ([20, 21, 23, 26], False),  # no repeating sequence of events
])
def test_a_loop_is_a_draw_only_if_it_can_never_end(monkeypatch, lives, draw):
    # No pool card makes a mandatory loop that drains a life total: the detector is fed the
    # states such loops would go through, one per time round.
    t = table("modern")
    game = t.engine.game
    rounds = iter([(("the same board",), (20, 0, life, 0)) for life in lives])
    monkeypatch.setattr(game, "fingerprint", lambda: next(rounds))
    seen: dict = {}
    with contextlib.suppress(GameOver):
        for _ in lives:
            game._check_loop(seen)
    assert (game.result.over, game.result.draw) == (draw, draw)
