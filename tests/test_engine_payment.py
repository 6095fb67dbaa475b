"""Paying as the cost is paid (protocol 1.1, ``pay_with``): named mana sources, every one of
them, or sources the engine picks; mana abilities activated while paying (2004 rule 409.1f,
modern 601.2g); a rejected action changes nothing. And seeded starts without shuffling."""

from __future__ import annotations

import pytest

from reference_engine.engine import ReferenceEngine
from tests.enginekit import h, resolve, table

EDITIONS = ("cr2004", "modern")


def lands(*names: str, controller: str = "A") -> list[dict]:
    return [h(f"{name.lower()}-{i}", name, controller=controller) for i, name in
            enumerate(names, 1)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_named_sources_pay_and_are_tapped(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=lands("Forest", "Forest", "Mountain"))
    t.do("cast", "A", card="bears", pay_with=["forest-1", "mountain-3"])
    o = t.obs()
    assert t.cards(o["stack"]) == ["Grizzly Bears"]
    tapped = {t.cards([b])[0] + str(b["tapped"]) for b in o["battlefield"]}
    assert tapped == {"ForestTrue", "ForestFalse", "MountainTrue"}
    assert sum(o["players"]["A"]["mana_pool"].values()) == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_named_source_is_activated_and_what_is_left_stays_in_the_pool(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=lands("Mountain", "Forest"))
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain-1", "forest-2"])
    assert t.player("A")["mana_pool"]["G"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_sources_that_cannot_pay_are_rejected_and_nothing_changes(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=lands("Mountain", "Mountain", "Forest"))
    assert t.illegal("cast", "A", card="bears", pay_with=["mountain-1", "mountain-2"]) \
        == "cannot_pay"
    assert t.illegal("cast", "A", card="bears", pay_with=["forest-3"]) == "cannot_pay"
    assert t.illegal("cast", "A", card="bears", pay_with=["bears"]) == "not_a_mana_source"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_timing_rule_is_the_reason_even_when_the_sources_could_pay(edition):
    t = table(edition, "upkeep", a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=lands("Forest", "Forest"))
    assert t.illegal("cast", "A", card="bears", pay_with=["forest-1", "forest-2"]) \
        == "not_main_phase"
    assert t.illegal("cast", "A", card="bears", pay_with="auto") == "not_main_phase"


@pytest.mark.parametrize("edition", EDITIONS)
def test_auto_picks_as_few_sources_as_it_can_and_the_pool_first(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt"), h("growth", "Giant Growth")],
                          "mana_pool": {"R": 1}},
              battlefield=[*lands("Mountain", "Forest"), h("bears", "Grizzly Bears")])
    t.do("cast", "A", card="bolt", targets=["B"], pay_with="auto")
    assert not any(b["tapped"] for b in t.obs()["battlefield"])  # the floating R paid
    t.do("cast", "A", card="growth", targets=["bears"], pay_with="auto")
    tapped = [b["card"] for b in t.obs()["battlefield"] if b["tapped"]]
    assert tapped == ["Forest"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_auto_answers_a_colour_choice_with_the_colour_the_cost_needs(edition):
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt")]},
              battlefield=[h("city", "City of Brass", controller="A")])
    t.do("cast", "A", card="bolt", targets=["B"], pay_with="auto")
    assert t.obs()["pending"] is None
    # City of Brass was tapped while the Bolt was cast: its trigger waits for the cast to end,
    # so it goes on the stack above the Bolt and resolves first.
    assert [o["kind"] for o in t.obs()["stack"]] == ["trigger", "spell"]
    resolve(t)
    assert (t.player("A")["life"], t.player("B")["life"]) == (19, 20)
    resolve(t)
    assert t.player("B")["life"] == 17


@pytest.mark.parametrize("edition", EDITIONS)
def test_legal_actions_list_casts_that_lands_would_pay_for_with_auto(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears"), h("axe", "Lava Axe")]},
              battlefield=lands("Forest", "Forest"))
    casts = [a for a in t.legal() if a["action"] == "cast"]
    assert casts == [{"action": "cast", "player": "A", "card": t.id("bears"),
                      "pay_with": "auto"}]
    t.do("cast", "A", card="bears", pay_with="auto")
    assert t.cards(t.obs()["stack"]) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mana_source_cannot_also_pay_the_tap_of_its_own_ability(edition):
    t = table(edition, battlefield=[h("stone", "Mind Stone", controller="A"),
                                    *lands("Island")])
    # Mind Stone's {1}, {T}, sacrifice: draw. Its own {T} mana can't pay the {1}.
    assert t.illegal("activate", "A", card="stone", ability=1, pay_with=["stone"]) \
        == "already_tapped"
    t.do("activate", "A", card="stone", ability=1, pay_with="auto")
    assert t.cards(t.obs()["stack"]) == ["Mind Stone"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_seeded_start_without_shuffling_keeps_each_deck_in_order(edition):
    engine = ReferenceEngine()
    deck = ["Mountain", {"handle": "bolt", "card": "Lightning Bolt"}, *["Forest"] * 5,
            "Island", "Swamp"]
    handles = engine.new_game(edition, {"start": "game", "seed": 3, "first_player": "A",
                                        "shuffle": False,
                                        "decks": {"A": deck, "B": ["Plains"] * 9}})["handles"]
    o = engine.observe()
    hand = o["players"]["A"]["hand"]
    assert sorted(c["card"] for c in hand) == sorted(["Mountain", "Lightning Bolt"]
                                                     + ["Forest"] * 5)
    assert handles["bolt"] in {c["id"] for c in hand}
    assert [c["card"] for c in o["players"]["A"]["library"]] == ["Island", "Swamp"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("pay_with", ["auto", ["mountain-1", "mountain-2", "mountain-3"]])
def test_any_number_of_targets_in_any_order_when_sources_pay(edition, pay_with):
    t = table(edition, a={"hand": [h("fireball", "Fireball")]},
              battlefield=[*lands("Mountain", "Mountain", "Mountain"),
                           h("giant", "Hill Giant", controller="B")])
    t.do("cast", "A", card="fireball", x=1, targets=["B", "giant"], pay_with=pay_with)
    assert t.cards(t.obs()["stack"]) == ["Fireball"]
