"""What the caches behind building and observing a game must leave as it was: objects of one
card share their type sets but each keeps its own characteristics, an observation shares no
list, a setup is checked whole and named field by field as before, and a card's behaviour is
the edition's own where it has one."""

from __future__ import annotations

import pytest

from reference_engine.engine import ReferenceEngine
from reference_engine.errors import BadRequestError, UnsupportedError
from reference_engine.registry import REGISTRY, implementation
from spec.cardpool import default_pool
from tests.enginekit import h, resolve, table

EDITIONS = ("cr2004", "modern")
DECK = ["Forest"] * 40


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_type_change_to_one_object_leaves_the_others_of_its_card_alone(edition):
    t = table(edition, a={"mana_pool": {"C": 1}, "hand": [h("in_hand", "Mishra's Factory")]},
              battlefield=[h("factory", "Mishra's Factory", controller="A"),
                           h("other", "Mishra's Factory", controller="A")])
    t.do("activate", "A", card="factory", ability=1)
    resolve(t)
    animated = t.find("factory")
    assert (animated["types"], animated["subtypes"]) == (["Artifact", "Creature", "Land"],
                                                         ["Assembly-Worker"])
    for handle in ("other", "in_hand"):
        seen = t.find(handle)
        assert (seen["types"], seen["subtypes"], seen["power"]) == (["Land"], [], None)
    t.advance("upkeep", turn=4)
    assert t.find("factory")["types"] == ["Land"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_pump_to_one_creature_leaves_another_of_its_card_alone(edition):
    t = table(edition, a={"hand": [h("growth", "Giant Growth")], "mana_pool": {"G": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("twin", "Grizzly Bears", controller="A")])
    t.do("cast", "A", card="growth", targets=["bears"])
    resolve(t)
    pumped, twin = t.find("bears"), t.find("twin")
    assert (pumped["power"], pumped["toughness"]) == (5, 5)
    assert (twin["power"], twin["toughness"], twin["types"]) == (2, 2, ["Creature"])


def test_an_observation_shares_no_list_with_another_object_or_observation():
    t = table("cr2004", battlefield=[h("bears", "Grizzly Bears", controller="A"),
                                     h("twin", "Grizzly Bears", controller="A")])
    first = t.obs()
    bears, twin = first["battlefield"]
    assert bears["types"] == twin["types"] == ["Creature"]
    assert bears["types"] is not twin["types"]
    library = first["players"]["A"]["library"]
    assert library[0]["supertypes"] == ["Basic"] and library[0]["types"] == ["Land"]
    assert library[0]["supertypes"] is not library[1]["supertypes"]
    bears["types"].append("Land")
    library[0]["supertypes"].clear()
    library[0]["types"].append("Creature")
    again = t.obs()
    assert [o["types"] for o in again["battlefield"]] == [["Creature"], ["Creature"]]
    assert all((o["supertypes"], o["types"]) == (["Basic"], ["Land"])
               for o in again["players"]["A"]["library"])


def test_a_deck_is_checked_whole_before_its_cards_are_looked_up():
    engine = ReferenceEngine()
    engine.new_game("cr2004", {"start": "game", "decks": {"A": DECK, "B": DECK}})
    unknown_then_malformed = ["Forest", "No Such Card", {"card": "Forest", "colour": "G"}]
    with pytest.raises(BadRequestError, match=r"^setup\.decks\.B\[2\]: unknown field\(s\) "
                                              r"colour$"):
        engine.new_game("cr2004", {"start": "game", "decks": {
            "A": DECK, "B": unknown_then_malformed + DECK}})
    with pytest.raises(UnsupportedError, match=r"^setup\.decks\.A\[1\]\.card: card "
                                               r"'No Such Card' is not supported in cr2004$"):
        engine.new_game("cr2004", {"start": "game", "decks": {
            "A": ["Forest", "No Such Card", *DECK], "B": DECK}})
    with pytest.raises(BadRequestError, match=r"^setup\.decks\.A\[0\]\.card: a card must be "
                                              r"named by a string, got 7$"):
        engine.new_game("cr2004", {"start": "game", "decks": {"A": [{"card": 7}], "B": DECK}})


def test_a_card_named_in_one_edition_is_still_refused_in_another_without_it():
    engine = ReferenceEngine()
    modern_only = "Runeclaw Bear"
    assert modern_only not in default_pool().edition("cr2004")
    engine.new_game("modern", {"start": "game", "decks": {"A": [modern_only, *DECK], "B": DECK}})
    with pytest.raises(UnsupportedError, match=r"^setup\.decks\.A\[0\]\.card: card "
                                               r"'Runeclaw Bear' is not supported in cr2004$"):
        engine.new_game("cr2004", {"start": "game", "decks": {
            "A": [modern_only, *DECK], "B": DECK}})


def test_handles_and_counts_in_a_deck_of_names_seen_before():
    engine = ReferenceEngine()
    engine.new_game("cr2004", {"start": "game", "decks": {"A": DECK, "B": DECK}})
    deck = [*DECK[:38], {"card": "Grizzly Bears", "count": 2},
            {"handle": "bolt", "card": "Lightning Bolt", "owner": "B"}]
    handles = engine.new_game("cr2004", {"start": "game", "shuffle": False,
                                         "decks": {"A": deck, "B": DECK}})["handles"]
    seen = engine.observe()
    cards = {o["id"]: o for p in seen["players"].values() for o in [*p["hand"], *p["library"]]}
    assert cards[handles["bolt"]]["card"] == "Lightning Bolt"
    assert cards[handles["bolt"]]["owner"] == "B"
    names = [o["card"] for p in seen["players"].values() for o in [*p["hand"], *p["library"]]]
    assert names.count("Grizzly Bears") == 2 and len(names) == 81


@pytest.mark.parametrize("edition", [*EDITIONS, None, "no-such-edition"])
def test_implementation_answers_as_the_registry_for_every_card(edition):
    for name in [*default_pool().names(), "No Such Card"]:
        assert implementation(name, edition) is REGISTRY.implementation(name, edition), name
