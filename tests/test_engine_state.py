"""State-based actions, winning and losing, zones, characteristics, views, determinism."""

from __future__ import annotations

import pytest

from reference_engine.engine import ReferenceEngine
from reference_engine.errors import BadRequestError, IllegalActionError, UnsupportedError
from reference_engine.selfplay import run
from tests.enginekit import given, h, table

EDITIONS = ["cr2004", "modern"]




# -- winning and losing ----------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_zero_life_loses_when_a_player_would_receive_priority(edition):
    t = table(edition, b={"life": 0})
    result = t.obs()["result"]
    assert result == {"over": True, "winners": ["A"], "losers": ["B"], "draw": False,
                      "reason": "life"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_drawing_from_an_empty_library_loses_at_the_next_check(edition):
    t = table(edition, a={"library": [], "hand": [h("insp", "Inspiration")],
                          "mana_pool": {"U": 4}}, b={"library": ["Island"]})
    t.do("cast", "A", card="insp", targets=["B"])
    t.do("pass", "A")
    t.do("pass", "B")
    result = t.obs()["result"]
    assert (result["losers"], result["reason"]) == (["B"], "empty_library")
    assert len(t.player("B")["hand"]) == 1  # drew what was there


@pytest.mark.parametrize("edition", EDITIONS)
def test_ten_poison_counters_lose_nine_do_not(edition):
    assert table(edition, a={"poison": 9}).obs()["result"]["over"] is False
    result = table(edition, a={"poison": 10}).obs()["result"]
    assert (result["losers"], result["reason"]) == (["A"], "poison")


@pytest.mark.parametrize("edition", EDITIONS)
def test_both_players_losing_at_once_is_a_draw(edition):
    result = table(edition, a={"life": 0}, b={"life": -2}).obs()["result"]
    assert result["draw"] is True and result["winners"] == []
    assert result["losers"] == ["A", "B"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_concede_at_any_time_even_without_priority(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}})
    t.do("cast", "A", card="bolt", targets=["B"])
    assert {"action": "concede", "player": "B"} in t.legal()
    t.do("concede", "B")
    o = t.obs()
    assert o["result"] == {"over": True, "winners": ["A"], "losers": ["B"], "draw": False,
                           "reason": "concede"}
    assert o["players"]["B"]["life"] == 20  # the game ended at once: the Bolt never resolved
    with pytest.raises(IllegalActionError) as info:
        t.engine.perform({"action": "pass", "player": "A"})
    assert info.value.reason == "game_over"


@pytest.mark.parametrize("edition", EDITIONS)
def test_lethal_damage_destroys_a_creature(edition):
    t = table(edition, a={"hand": [h("shock", "Shock")], "mana_pool": {"R": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="shock", targets=["bears"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert t.obs()["battlefield"] == []


# -- zones -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_zone_change_makes_a_new_object(edition):
    t = table(edition, a={"hand": [h("un", "Unsummon"), h("growth", "Giant Growth")],
                          "mana_pool": {"U": 1, "G": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="A")])
    old = t.id("bears")
    t.do("cast", "A", card="growth", targets=["bears"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.find("bears")["power"] == 5
    t.do("cast", "A", card="un", targets=["bears"])
    t.do("pass", "A")
    t.do("pass", "B")
    card = t.find("bears")
    assert card["id"] != old and card in t.player("A")["hand"]
    assert card["power"] == 2  # the pump applied to the old object only


@pytest.mark.parametrize("edition", EDITIONS)
def test_objects_go_to_their_owners_zones(edition):
    t = table(edition, a={"hand": [h("terror", "Terror"), h("un", "Unsummon")],
                          "mana_pool": {"B": 2, "U": 1}},
              battlefield=[h("bears", "Grizzly Bears", owner="A", controller="B"),
                           h("lions", "Savannah Lions", owner="A", controller="B")])
    t.do("cast", "A", card="terror", targets=["bears"], payment={"B": 2})
    t.do("pass", "A")
    t.do("pass", "B")
    t.do("cast", "A", card="un", targets=["lions"])
    t.do("pass", "A")
    t.do("pass", "B")
    assert t.cards(t.player("A")["graveyard"]) == ["Unsummon", "Terror", "Grizzly Bears"]
    assert t.cards(t.player("A")["hand"]) == ["Savannah Lions"]
    assert t.player("B")["graveyard"] == [] and t.player("B")["hand"] == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_instant_or_sorcery_that_would_enter_play_stays_where_it_was(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]})
    game = t.engine.game
    bolt = game.objects[t.id("bolt")]
    assert game.move(bolt, 3) is None  # 3: the battlefield
    assert t.find("bolt") in t.player("A")["hand"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_library_and_graveyard_order_is_kept(edition):
    library = [h(f"l{i}", name) for i, name in enumerate(["Forest", "Island", "Mountain"])]
    graveyard = [h("g0", "Shock"), h("g1", "Terror")]
    t = table(edition, a={"library": library, "graveyard": graveyard})
    a = t.player("A")
    assert t.cards(a["library"]) == ["Forest", "Island", "Mountain"]  # top first
    assert t.cards(a["graveyard"]) == ["Shock", "Terror"]
    t.advance("draw", turn=5)
    assert t.cards(t.player("A")["hand"]) == ["Forest"]  # the top card was drawn


@pytest.mark.parametrize(("edition", "zones"), [
    ("cr2004", {"battlefield", "stack", "exile", "ante", "phased_out"}),
    ("modern", {"battlefield", "stack", "exile", "ante", "command"}),
])
def test_zones_per_edition(edition, zones):
    o = table(edition).obs()
    shared = {"turn", "pending", "players", "result"}
    assert set(o) - shared == zones


# -- characteristics -------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "colors", "value", "types", "subtypes"), [
    ("Grizzly Bears", ["G"], 2, ["Creature"], ["Bear"]),
    ("Vindicate", ["W", "B"], 3, ["Sorcery"], []),
    ("Ornithopter", [], 0, ["Artifact", "Creature"], ["Thopter"]),
    ("Counterspell", ["U"], 2, ["Instant"], []),
    ("Fireball", ["R"], 1, ["Sorcery"], []),
    ("Tropical Island", [], 0, ["Land"], ["Forest", "Island"]),
])
def test_characteristics_from_card_data(card, colors, value, types, subtypes):
    o = table("modern", a={"hand": [card]}).obs()
    obj = o["players"]["A"]["hand"][0]
    assert (obj["colors"], obj["mana_value"], obj["types"], obj["subtypes"]) == (
        colors, value, types, subtypes)


def test_edition_specific_card_data():
    elves_2004 = table("cr2004", a={"hand": ["Llanowar Elves"]}).obs()
    elves_now = table("modern", a={"hand": ["Llanowar Elves"]}).obs()
    assert elves_2004["players"]["A"]["hand"][0]["subtypes"] == ["Elf"]
    assert elves_now["players"]["A"]["hand"][0]["subtypes"] == ["Elf", "Druid"]
    snow_2004 = table("cr2004", a={"hand": ["Snow-Covered Forest"]}).obs()
    snow_now = table("modern", a={"hand": ["Snow-Covered Forest"]}).obs()
    assert snow_2004["players"]["A"]["hand"][0]["supertypes"] == ["Basic"]
    assert snow_now["players"]["A"]["hand"][0]["supertypes"] == ["Basic", "Snow"]


# -- views, illegal actions, determinism -----------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_players_view_hides_libraries_and_the_other_hand(edition):
    t = table(edition, a={"hand": ["Forest", "Shock"]}, b={"hand": ["Island"]})
    view = t.obs("A")
    assert [c["card"] for c in view["players"]["A"]["hand"]] == ["Forest", "Shock"]
    assert view["players"]["B"]["hand"] == [{"hidden": True}]
    assert view["players"]["A"]["library"] == [{"hidden": True}] * 8
    assert len(view["players"]["B"]["library"]) == 8  # sizes stay visible


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_illegal_action_leaves_the_state_unchanged(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears"), h("f", "Forest")]},
              battlefield=[h("tapped", "Forest", controller="A", tapped=True)])
    attempts = [
        ("cast", "A", {"card": "bears"}),
        ("pass", "B", {}),
        ("activate", "A", {"card": "tapped", "ability": 0}),
        ("activate", "A", {"card": "tapped", "ability": 5}),
        ("play_land", "A", {"card": "bears"}),
        ("attack", "A", {"card": "bears"}),
        ("discard", "A", {"card": "f"}),
    ]
    for kind, player, fields in attempts:
        assert t.illegal(kind, player, **fields)


def test_malformed_input_is_a_bad_request_naming_the_field():
    engine = ReferenceEngine()
    with pytest.raises(BadRequestError, match=r"setup\.players\.A\.life"):
        engine.new_game("cr2004", given(players={"A": {"life": "lots"}}))
    with pytest.raises(UnsupportedError, match="Black Lotus"):
        engine.new_game("cr2004", given(players={"A": {"hand": ["Black Lotus"]}}))
    with pytest.raises(BadRequestError, match=r"setup\.turn\.step"):
        engine.new_game("cr2004", given("untap"))
    engine.new_game("cr2004", given())
    with pytest.raises(BadRequestError, match="targets"):
        engine.perform({"action": "cast", "player": "A", "card": 1, "targets": ["B"]})


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_same_seed_replays_the_same_games(edition):
    first = run(3, 7, edition)
    again = run(3, 7, edition)
    other = run(3, 8, edition)
    assert first["errors"] == [] and other["errors"] == []
    assert first["trace_sha256"] == again["trace_sha256"]
    assert first["actions"] == again["actions"]
    assert first["trace_sha256"] != other["trace_sha256"]
