"""Legend and world rules, replacement and prevention, player decisions, hidden information,
the zones of each edition, extra turns, combat damage on the 2004 stack, decks."""

from __future__ import annotations

import pytest

from reference_engine.constants import EXILE
from reference_engine.decks import deck_problems
from reference_engine.errors import IllegalSetupError
from reference_engine.registry import implementation
from spec.cardpool import default_pool
from tests.enginekit import Table, h, resolve, table

EDITIONS = ["cr2004", "modern"]





# -- legend and world rules ------------------------------------------------------------------

def test_2004_legend_rule_keeps_the_one_in_play_longest_whoever_controls_it():
    t = table("cr2004", battlefield=[h("old", "Pendelhaven", controller="B"),
                                     h("new", "Pendelhaven", controller="A")])
    assert [o["id"] for o in t.obs()["battlefield"]] == [t.id("old")]
    assert t.cards(t.player("A")["graveyard"]) == ["Pendelhaven"]


def test_modern_legend_rule_is_per_controller_who_chooses():
    t = table("modern", battlefield=[h("b1", "Pendelhaven", controller="B"),
                                     h("a1", "Pendelhaven", controller="A")])
    assert len(t.obs()["battlefield"]) == 2  # one each: no problem
    t = table("modern", battlefield=[h("a1", "Pendelhaven", controller="A"),
                                     h("a2", "Pendelhaven", controller="A")])
    assert t.obs()["pending"]["decision"] == "legend_rule"
    t.do("choose", "A", choice=t.id("a2"))
    assert [o["id"] for o in t.obs()["battlefield"]] == [t.id("a2")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_world_rule_keeps_the_newest_world_enchantment(edition):
    t = table(edition, a={"hand": [h("cross", "Concordant Crossroads")], "mana_pool": {"G": 1}},
              battlefield=[h("plane", "Living Plane", controller="B")])
    t.do("cast", "A", card="cross")
    resolve(t)
    assert [o["card"] for o in t.obs()["battlefield"]] == ["Concordant Crossroads"]
    assert t.cards(t.player("B")["graveyard"]) == ["Living Plane"]


# -- replacement and prevention --------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_regeneration_replaces_destruction_once(edition):
    t = table(edition, a={"hand": [h("s1", "Shock"), h("s2", "Shock")], "mana_pool": {"R": 2}},
              b={"mana_pool": {"B": 1}},
              battlefield=[h("skel", "Drudge Skeletons", controller="B")])
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0)
    resolve(t)
    t.do("cast", "A", card="s1", targets=["skel"])
    resolve(t)
    skel = t.find("skel")
    assert skel is not None and skel["tapped"] and skel["damage"] == 0  # regenerated
    assert any(e["type"] == "regenerate" for e in t.events)
    t.do("cast", "A", card="s2", targets=["skel"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Drudge Skeletons"]  # the shield is used


@pytest.mark.parametrize("edition", EDITIONS)
def test_prevention_from_a_chosen_red_source(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt"), h("shock", "Shock")],
                          "mana_pool": {"R": 2}},
              b={"mana_pool": {"C": 1}},
              battlefield=[h("cop", "Circle of Protection: Red", controller="B")])
    t.do("cast", "A", card="bolt", targets=["B"])
    t.do("cast", "A", card="shock", targets=["B"])
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0)
    t.pass_priority()
    t.pass_priority()
    assert t.obs()["pending"]["decision"] == "choose_source"
    t.do("choose", "B", choice=t.id("bolt"))
    while t.obs()["stack"]:
        t.pass_priority()
    assert t.player("B")["life"] == 18  # the Bolt was prevented, the Shock was not


@pytest.mark.parametrize("edition", EDITIONS)
def test_flashback_card_is_removed_instead_of_going_anywhere_else(edition):
    t = table(edition, a={"mana_pool": {"U": 1, "C": 2},
                          "graveyard": [h("tt", "Think Twice")]})
    t.do("cast", "A", card="tt", payment={"U": 1, "C": 2})
    resolve(t)
    assert t.player("A")["graveyard"] == []
    assert [o["card"] for o in t.obs()["exile"]] == ["Think Twice"]
    assert len(t.player("A")["hand"]) == 1


# -- player decisions ------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_apnap_the_active_player_chooses_first_then_both_sacrifice_at_once(edition):
    t = table(edition, "precombat_main", active="B",
              b={"hand": [h("blood", "Innocent Blood")], "mana_pool": {"B": 1}},
              battlefield=[h("a1", "Grizzly Bears", controller="A"),
                           h("a2", "Hill Giant", controller="A"),
                           h("b1", "Savannah Lions", controller="B"),
                           h("b2", "Raging Goblin", controller="B")])
    t.do("cast", "B", card="blood")
    resolve(t)
    assert t.obs()["pending"]["player"] == "B"  # the active player first (103.4)
    t.do("choose", "B", choice=t.id("b2"))
    assert t.obs()["pending"]["player"] == "A"
    assert t.find("b2") is not None and t.find("b2") in t.obs()["battlefield"]  # not yet
    t.do("choose", "A", choice=t.id("a1"))
    names = {o["card"] for o in t.obs()["battlefield"]}
    assert names == {"Hill Giant", "Savannah Lions"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_brainstorm_puts_two_back_in_the_chosen_order(edition):
    library = [h(f"l{i}", n) for i, n in enumerate(["Forest", "Island", "Mountain", "Swamp"])]
    t = table(edition, "upkeep", a={"hand": [h("bs", "Brainstorm"), h("bolt", "Lightning Bolt")],
                                    "library": library, "mana_pool": {"U": 1}})
    t.do("cast", "A", card="bs")
    resolve(t)
    assert t.obs()["pending"]["decision"] == "put_on_top"
    t.do("choose", "A", choice=t.id("bolt"))
    t.do("choose", "A", choice=t.id("l0"))
    a = t.player("A")
    assert t.cards(a["library"]) == ["Forest", "Lightning Bolt", "Swamp"]
    assert sorted(t.cards(a["hand"])) == ["Island", "Mountain"]
    view = t.obs("B")["players"]["A"]["library"]
    assert view[0] == {"hidden": True}  # the order is not shown to the opponent


@pytest.mark.parametrize("edition", EDITIONS)
def test_wrath_puts_creatures_into_graveyards_in_the_owners_order(edition):
    t = table(edition, a={"hand": [h("wrath", "Wrath of God")], "mana_pool": {"W": 4}},
              b={"mana_pool": {"B": 1}},
              battlefield=[h("g", "Hill Giant", controller="A"),
                           h("l", "Savannah Lions", controller="A"),
                           h("skel", "Drudge Skeletons", controller="B")])
    t.do("cast", "A", card="wrath")
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0)
    resolve(t)  # the regeneration shield
    resolve(t)  # Wrath of God
    assert t.obs()["pending"] == {"player": "A", "decision": "order_graveyard", "count": 2}
    t.do("choose", "A", choice=t.id("l"))  # the Lions first: the Giant ends on top
    assert t.cards(t.player("A")["graveyard"]) == ["Wrath of God", "Hill Giant",
                                                   "Savannah Lions"]
    assert t.cards(t.player("B")["graveyard"]) == ["Drudge Skeletons"]  # no regeneration


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_colour_choice_offers_exactly_the_five_colours(edition):
    t = table(edition, battlefield=[h("city", "City of Brass", controller="A")])
    t.do("activate", "A", card="city", ability=0)
    assert t.obs()["pending"]["decision"] == "choose_color"
    assert sorted(a["choice"] for a in t.legal() if a["action"] == "choose") == [
        "B", "G", "R", "U", "W"]
    t.do("choose", "A", choice="G")
    assert t.player("A")["mana_pool"]["G"] == 1
    resolve(t)  # the City's "becomes tapped" trigger
    assert t.player("A")["life"] == 19


# -- hidden information ----------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_future_sight_reveals_the_top_card_and_lets_it_be_played(edition):
    library = [h("top", "Forest"), h("next", "Lightning Bolt")]
    t = table(edition, a={"library": library},
              battlefield=[h("fs", "Future Sight", controller="A")])
    assert {"action": "play_land", "player": "A", "card": t.id("top")} in t.legal()
    for viewer in ("A", "B"):  # revealed to both players, the rest stays hidden
        library = t.obs(viewer)["players"]["A"]["library"]
        assert library[0]["card"] == "Forest" and library[1] == {"hidden": True}
    t.do("play_land", "A", card="top")
    assert t.obs("B")["players"]["A"]["library"][0]["card"] == "Lightning Bolt"
    assert t.find("top")["controller"] == "A"
    assert t.cards(t.player("A")["library"]) == ["Lightning Bolt"]


def test_face_down_exile_is_hidden_and_linked_to_its_exiler():
    t = table("modern", "beginning_of_combat", a={"mana_pool": {"R": 1},
                                                  "library": [h("secret", "Fireball")]},
              battlefield=[h("courier", "Bomat Courier", controller="A")])
    t.attack("courier")
    resolve(t)
    for viewer in ("A", "B"):
        assert t.obs(viewer)["exile"] == [{"hidden": True}]  # nobody may look (406.3)
    t.advance("postcombat_main")
    t.engine.game.players["A"].pool[3] = 1
    t.do("activate", "A", card="courier", ability=0)
    resolve(t)
    assert t.cards(t.player("A")["hand"]) == ["Fireball"]


# -- zones of the editions -------------------------------------------------------------------

def test_2004_phasing_uses_the_phased_out_zone_and_keeps_the_object():
    t = table("cr2004", a={"mana_pool": {"U": 2}},
              battlefield=[h("efreet", "Rainbow Efreet", controller="A", tapped=True)])
    old = t.id("efreet")
    t.do("activate", "A", card="efreet", ability=0)
    resolve(t)
    o = t.obs()
    assert o["battlefield"] == [] and [x["id"] for x in o["phased_out"]] == [old]
    t.advance("upkeep", turn=5)
    efreet = t.obs()["battlefield"][0]
    assert efreet["id"] == old  # the same object (217.8c)
    assert efreet["tapped"] is False  # it phased in, then untapped in A's untap step


def test_modern_phasing_is_a_status_on_the_battlefield():
    t = table("modern", a={"mana_pool": {"U": 2}},
              b={"hand": [h("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}},
              battlefield=[h("efreet", "Rainbow Efreet", controller="A")])
    t.do("activate", "A", card="efreet", ability=0)
    resolve(t)
    assert "phased_out" not in t.obs()
    assert t.engine.game.objects[t.id("efreet")].phased_out is True
    t.do("pass", "A")
    targets = [a["targets"] for a in t.legal() if a["action"] == "cast"]
    assert {"object": t.id("efreet")} not in [x for ts in targets for x in ts]


@pytest.mark.parametrize(("edition", "fetched"), [("cr2004", ["Lava Axe", "Mind Rot"]),
                                                  ("modern", ["Mind Rot"])])
def test_burning_wish_reaches_outside_the_game(edition, fetched):
    t = table(edition, a={"hand": [h("wish", "Burning Wish")], "mana_pool": {"R": 2},
                          "sideboard": [h("rot", "Mind Rot"), h("bolt", "Lightning Bolt")]},
              battlefield=[])
    game = t.engine.game
    # A removed-from-the-game (exiled) sorcery: in 2004 it is outside the game (217.1e); in
    # the modern edition it is in the game (400.11).
    card = default_pool().edition(edition)["Lava Axe"]
    game.exile.append(game.new_object(card, implementation("Lava Axe"), "A", EXILE))
    t.do("cast", "A", card="wish")
    resolve(t)
    options = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    names = sorted(game.objects[c].card.name for c in options if c is not None)
    assert names == fetched
    assert None in options  # "you may"
    t.do("choose", "A", choice=t.id("rot"))
    assert t.cards(t.player("A")["hand"]) == ["Mind Rot"]
    assert "Burning Wish" in [o["card"] for o in t.obs()["exile"]]


@pytest.mark.parametrize("edition", EDITIONS)
def test_ante_is_off_unless_asked_and_the_winner_owns_the_ante(edition):
    decks = {"A": ["Forest"] * 30, "B": ["Island"] * 30}
    plain = Table(edition, {"start": "game", "seed": 2, "first_player": "A", "decks": decks})
    assert plain.obs()["ante"] == []
    t = Table(edition, {"start": "game", "seed": 2, "first_player": "A", "decks": decks,
                        "ante": True})
    ante = t.obs()["ante"]
    assert sorted(o["card"] for o in ante) == ["Forest", "Island"]
    assert len(t.player("A")["library"]) + len(t.player("A")["hand"]) == 29
    t.do("concede", "B")
    assert {o["owner"] for o in t.obs()["ante"]} == {"A"}  # 217.9b, 407.2


@pytest.mark.parametrize("edition", EDITIONS)
def test_ante_cards_only_in_ante_games(edition):
    decks = {"A": ["Forest"] * 30 + ["Contract from Below"], "B": ["Island"] * 30}
    with pytest.raises(IllegalSetupError, match="ante card"):
        Table(edition, {"start": "game", "seed": 2, "decks": decks})
    Table(edition, {"start": "game", "seed": 2, "decks": decks, "ante": True})


def test_emblem_in_the_command_zone_is_not_a_permanent():
    t = table("modern", a={"mana_pool": {"W": 4}, "hand": [h("wrath", "Wrath of God")]},
              battlefield=[h("elspeth", "Elspeth, Knight-Errant", controller="A",
                             counters={"loyalty": 8}),
                           h("bears", "Grizzly Bears", controller="A")])
    t.do("activate", "A", card="elspeth", ability=2)
    resolve(t)
    command = t.obs()["command"]
    assert [o["card"] for o in command] == ["Elspeth, Knight-Errant emblem"]
    assert t.cards(t.player("A")["graveyard"]) == ["Elspeth, Knight-Errant"]  # 0 loyalty
    t.do("cast", "A", card="wrath")
    resolve(t)
    assert [o["card"] for o in t.obs()["battlefield"]] == ["Grizzly Bears"]  # indestructible
    assert [o["card"] for o in t.obs()["command"]] == ["Elspeth, Knight-Errant emblem"]


# -- extra turns, combat damage on the stack -------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_extra_turns_most_recent_first(edition):
    t = table(edition, a={"hand": [h("stretch", "Time Stretch"), h("manip",
                                                                   "Temporal Manipulation")],
                          "mana_pool": {"U": 10}})
    t.do("cast", "A", card="stretch", targets=["B"], payment={"U": 10})
    resolve(t)
    t.advance("upkeep", turn=4)
    assert t.obs()["turn"]["active"] == "B"
    t.advance("upkeep", turn=5)
    assert t.obs()["turn"]["active"] == "B"
    t.advance("upkeep", turn=6)
    assert t.obs()["turn"]["active"] == "B"  # after A's turn 3 came B's normal turn anyway
    t.advance("upkeep", turn=7)
    assert t.obs()["turn"]["active"] == "A"
    turns = [(e["turn"], e["active"]) for e in t.events if e["type"] == "turn"]
    assert turns == [(4, "B"), (5, "B"), (6, "B"), (7, "A")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_extra_turn_created_during_extra_turns_comes_first(edition):
    t = table(edition, a={"hand": [h("stretch", "Time Stretch"),
                                   h("manip", "Temporal Manipulation")],
                          "mana_pool": {"U": 10}, "library": ["Island"] * 8})
    t.do("cast", "A", card="stretch", targets=["A"], payment={"U": 10})
    resolve(t)
    t.advance("precombat_main", turn=4)  # A's first extra turn
    t.engine.game.players["A"].pool[1] = 5
    t.do("cast", "A", card="manip", payment={"U": 5})
    resolve(t)
    assert t.engine.game.extra_turns == ["A", "A"]
    t.advance("upkeep", turn=6)
    t.advance("upkeep", turn=7)
    turns = [(e["turn"], e["active"]) for e in t.events if e["type"] == "turn"]
    # Turn 3 (A), extra 4 (A); then Temporal Manipulation's turn 5 and Time Stretch's
    # second turn 6 (most recent first, 300.6), then B's normal turn 7.
    assert turns == [(4, "A"), (5, "A"), (6, "A"), (7, "B")]


def test_2004_sacrifice_in_response_to_combat_damage():
    t = table("cr2004", "beginning_of_combat",
              battlefield=[h("fanatic", "Mogg Fanatic", controller="A"),
                           h("bears", "Grizzly Bears", controller="B")])
    t.attack("fanatic")
    t.block({"bears": "fanatic"})
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    t.do("activate", "A", card="fanatic", ability=0, targets=["bears"])  # sacrificed now
    while t.obs()["stack"]:
        t.pass_priority()
    # The Fanatic's combat damage (1) and its ability (1) both hit the Bears.
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert t.cards(t.player("A")["graveyard"]) == ["Mogg Fanatic"]


def test_modern_has_no_window_between_assigning_and_dealing_combat_damage():
    t = table("modern", "beginning_of_combat",
              battlefield=[h("fanatic", "Mogg Fanatic", controller="A"),
                           h("bears", "Grizzly Bears", controller="B")])
    t.attack("fanatic")
    t.block({"bears": "fanatic"})
    t.advance("combat_damage")
    assert t.obs()["stack"] == []
    assert t.cards(t.player("A")["graveyard"]) == ["Mogg Fanatic"]  # already dead
    assert t.find("bears")["damage"] == 1


# -- decks -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_deck_validation(edition):
    bears = ["Grizzly Bears"] * 4
    assert deck_problems(["Forest"] * 56 + bears, "constructed", edition) == []
    assert "at least 60" in deck_problems(["Forest"] * 55 + bears, "constructed", edition)[0]
    five = deck_problems(["Forest"] * 55 + ["Grizzly Bears"] * 5, "constructed", edition)
    assert five == ["5 copies of Grizzly Bears: at most 4 (basic lands excepted)"]
    assert deck_problems(["Forest"] * 300, "constructed", edition) == []  # no maximum
    assert deck_problems(["Forest"] * 34 + ["Grizzly Bears"] * 6, "limited", edition) == []
    assert deck_problems(["Forest"] * 39, "limited", edition) != []
    assert deck_problems(["Snow-Covered Forest"] * 60, "constructed", edition) == []


# -- loops -------------------------------------------------------------------------------------

def _gorger_loop(edition: str, hand: tuple = (), graveyard_b: tuple | list = ()) -> Table:
    t = table(edition, a={"hand": [h("ad", "Animate Dead"), *hand], "mana_pool": {"B": 2},
                          "graveyard": [h("dragon", "Worldgorger Dragon")]},
              b={"graveyard": list(graveyard_b)},
              battlefield=[h("swamp", "Swamp", controller="A")])
    # 2004 Animate Dead is a global enchantment whose enters trigger targets the card;
    # the modern one is an Aura cast targeting it.
    t.do("cast", "A", card="ad", targets=[] if edition == "cr2004" else ["dragon"])
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_loop_of_mandatory_actions_is_a_draw(edition):
    t = _gorger_loop(edition)
    for _ in range(200):
        if t.obs()["result"]["over"]:
            break
        t.pass_priority()
    assert t.obs()["result"] == {"over": True, "winners": [], "losers": ["A", "B"],
                                 "draw": True, "reason": "loop"}
    kinds = [e["type"] for e in t.events]
    assert kinds.count("trigger") > 6  # it went round several times first


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_loop_a_player_could_leave_is_no_draw(edition):
    # With a second creature card in a graveyard, each time round Animate Dead may return it
    # instead of the Dragon: an optional action, so no draw however long A keeps choosing the
    # Dragon (102.6); choosing the Bears ends the loop.
    t = _gorger_loop(edition, graveyard_b=[h("bears", "Grizzly Bears")])
    choices = 0
    for _ in range(300):
        o = t.obs()
        assert not o["result"]["over"]
        pending = o["pending"]
        if pending is not None and pending["decision"] in ("choose_targets",
                                                           "choose_attachment"):
            options = [a for a in t.legal() if a["action"] == "choose"]
            assert len(options) == 2
            choices += 1
            dragon = next(a for a in options if _names_dragon(t, a))
            t.engine.perform(dragon)
            t._follow()
            continue
        t.pass_priority()
    assert choices > 6 and not t.obs()["result"]["over"]


def _names_dragon(t: Table, action: dict) -> bool:
    chosen = action.get("choice", (action.get("targets") or [{}])[0].get("object"))
    found = t.engine.game.objects.get(chosen)
    return found is not None and found.card.name == "Worldgorger Dragon"


def test_animate_dead_returns_the_creature_and_it_dies_when_animate_dead_leaves():
    for edition, cast_targets, ends in (("cr2004", [], "destroyed"),
                                        ("modern", ["giant"], "sacrificed")):
        t = table(edition, a={"hand": [h("ad", "Animate Dead"), h("vin", "Vindicate")],
                              "mana_pool": {"B": 3, "W": 1, "C": 1},
                              "graveyard": [h("giant", "Hill Giant")]})
        t.do("cast", "A", card="ad", targets=cast_targets, payment={"B": 1, "C": 1})
        resolve(t)  # Animate Dead enters
        resolve(t)  # its enters trigger returns the Giant
        giant = t.find("giant")
        assert giant in t.obs()["battlefield"], edition
        assert (giant["controller"], giant["power"]) == ("A", 2)  # -1/-0
        assert t.find("ad")["attached_to"] == t.id("giant")
        t.do("cast", "A", card="vin", targets=["ad"])
        resolve(t)
        resolve(t)  # the leaves trigger: the Giant is destroyed (2004) or sacrificed
        assert sorted(t.cards(t.player("A")["graveyard"])) == [
            "Animate Dead", "Hill Giant", "Vindicate"], (edition, ends)


@pytest.mark.parametrize("where", ["graveyard", "exile"])
def test_conflicting_replacement_and_state_based_action_the_controller_chooses(where):
    # The example of modern 400.6: a player at 5 life and their Exquisite Archangel are each
    # dealt 5 damage; the life total becomes the starting one and the player chooses whether
    # the Archangel goes to the graveyard (lethal damage) or to exile (its replacement).
    t = table("modern", a={"life": 5}, b={"hand": [h("fb", "Fireball")], "mana_pool": {"R": 12}},
              battlefield=[h("angel", "Exquisite Archangel", controller="A", damage=0)],
              active="B")
    t.do("cast", "B", card="fb", targets=["angel", "A"], x=10, payment={"R": 12})
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_replacement"
    t.do("choose", "A", choice=where)
    o = t.obs()
    assert o["result"]["over"] is False and o["players"]["A"]["life"] == 20
    zone = o["players"]["A"]["graveyard"] if where == "graveyard" else o["exile"]
    assert "Exquisite Archangel" in [c["card"] for c in zone]


def test_loss_replacement_without_conflict_just_exiles():
    t = table("modern", a={"life": 2}, b={"hand": [h("bolt", "Lightning Bolt")],
                                        "mana_pool": {"R": 1}},
              battlefield=[h("angel", "Exquisite Archangel", controller="A")], active="B")
    t.do("cast", "B", card="bolt", targets=["A"])
    resolve(t)
    o = t.obs()
    assert (o["result"]["over"], o["players"]["A"]["life"]) == (False, 20)
    assert [c["card"] for c in o["exile"]] == ["Exquisite Archangel"]


# -- durations, spells changed on the stack, Nth from the top -------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_jade_statue_is_a_creature_until_end_of_combat_only_during_combat(edition):
    t = table(edition, a={"mana_pool": {"C": 2}},
              battlefield=[h("statue", "Jade Statue", controller="A")])
    reason = t.illegal("activate", "A", card="statue", ability=0)
    assert reason == "not_during_combat"
    t.advance("beginning_of_combat")
    t.engine.game.players["A"].pool[5] = 2
    t.do("activate", "A", card="statue", ability=0)
    resolve(t)
    statue = t.find("statue")
    assert statue["types"] == ["Artifact", "Creature"] and statue["subtypes"] == ["Golem"]
    assert (statue["power"], statue["toughness"]) == (3, 6)
    t.advance("end_of_combat")
    assert t.find("statue")["power"] == 3  # still, during the end-of-combat step (300.4)
    t.advance("postcombat_main")
    assert t.find("statue")["types"] == ["Artifact"]  # gone as the combat phase ended


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_change_to_a_spell_carries_over_to_the_permanent(edition):
    t = table(edition, a={"hand": [h("gd", "Gravedigger")], "mana_pool": {"B": 4}},
              b={"hand": [h("lace", "Purelace")], "mana_pool": {"W": 1}})
    t.do("cast", "A", card="gd")
    t.do("pass", "A")
    t.do("cast", "B", card="lace", targets=["gd"])
    assert t.find("gd")["colors"] == ["B"]
    resolve(t)
    assert t.find("gd")["colors"] == ["W"]  # the spell is white now
    resolve(t)
    permanent = t.find("gd")
    assert permanent in t.obs()["battlefield"]
    assert permanent["colors"] == ["W"]  # and so is the permanent (213.5, 400.7a)


@pytest.mark.parametrize(("library", "position"), [(3, 1), (1, 1), (0, 0)])
def test_nth_from_the_top_of_a_short_library_is_the_bottom(library, position):
    t = table("modern", a={"hand": [h("oust", "Oust")], "mana_pool": {"W": 1}},
              b={"library": ["Island"] * library},
              battlefield=[h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="oust", targets=["bears"])
    resolve(t)
    cards = t.cards(t.player("B")["library"])
    assert cards.index("Grizzly Bears") == position  # second from the top, or the bottom
    assert t.player("B")["life"] == 23


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_seeded_start_checks_decks_against_a_format(edition):
    legal = {"A": ["Forest"] * 56 + ["Grizzly Bears"] * 4, "B": ["Island"] * 60}
    Table(edition, {"start": "game", "seed": 1, "decks": legal, "format": "constructed"})
    short = {"A": ["Forest"] * 59, "B": ["Island"] * 60}
    with pytest.raises(IllegalSetupError, match=r"setup\.decks\.A: illegal deck: 59 cards"):
        Table(edition, {"start": "game", "seed": 1, "decks": short, "format": "constructed"})
    Table(edition, {"start": "game", "seed": 1, "decks": {"A": ["Forest"] * 40,
                                                          "B": ["Island"] * 40},
                    "format": "limited"})


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_card_playable_any_time_you_could_play_an_instant_needs_only_priority(edition):
    t = table(edition, "upkeep", active="B", a={"hand": [h("kavu", "Raging Kavu")],
                                                "mana_pool": {"R": 1, "G": 1, "C": 1}})
    t.do("pass", "B")
    t.do("cast", "A", card="kavu")  # in the opponent's upkeep (212.5e)
    resolve(t)
    assert t.find("kavu")["controller"] == "A"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_source_named_by_a_type_is_a_source_of_that_type(edition):
    t = table(edition, "beginning_of_combat", active="B", a={"mana_pool": {"C": 2}},
              battlefield=[h("cop", "Circle of Protection: Artifacts", controller="A"),
                           h("thopter", "Ornithopter", controller="B"),
                           h("march", "March of the Machines", controller="B"),
                           h("stone", "Mind Stone", controller="B"),
                           h("bears", "Grizzly Bears", controller="B")])
    t.do("pass", "B")
    t.do("activate", "A", card="cop", ability=0)
    resolve(t)
    choices = {a["choice"] for a in t.legal() if a["action"] == "choose"}
    # Artifact sources only (200.9c): the Thopter and the animated Mind Stone, not the Bears.
    assert choices == {t.id("thopter"), t.id("stone")}
    t.do("choose", "A", choice=t.id("stone"))
    t.advance("declare_attackers")
    t.do("attack", "B", card="stone")
    t.do("attack", "B", card="bears")
    t.do("done", "B")
    t.advance("end_of_combat")
    assert t.player("A")["life"] == 18  # the Stone's 2 prevented, the Bears' 2 dealt
