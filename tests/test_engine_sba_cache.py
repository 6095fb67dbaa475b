"""The state-based actions and triggered abilities read what the engine worked out once per
state version (Game._sba_candidates, Triggers._trigger_sources). What changes without a new
version (damage, tapping, what an Aura's "enchant" reads) must still count, and what enters or
changes characteristics with one must be seen. Each test plays the edge through the engine
and, where the point is that no new version came, checks that none did."""

from __future__ import annotations

import pytest

from reference_engine.game import Game
from reference_engine.objects import TargetSpec
from tests.enginekit import h, record_calls, resolve, table

EDITIONS = ("cr2004", "modern")


def sba_builds(game: Game) -> list[int]:
    """The versions at which the state-based action lists are made from now on."""
    return record_calls(game, "_sba_candidates", lambda: game.version)


def trigger_builds(game: Game) -> list[int]:
    """The versions at which the triggered abilities are indexed from now on."""
    return record_calls(game, "_trigger_sources", lambda: game.version)


# ---- damage, which is dealt without a new version ------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_damage_that_adds_up_in_one_version_destroys(edition):
    # Two pings on a 2/2: the first leaves it alive and the state as it was (damage makes no
    # new version), so the second is checked against the lists made before either.
    t = table(edition, battlefield=[h("sorc-1", "Prodigal Sorcerer", controller="A"),
                                    h("sorc-2", "Prodigal Sorcerer", controller="A"),
                                    h("bears", "Grizzly Bears", controller="B")])
    game = t.game
    builds = sba_builds(game)
    t.do("activate", "A", card="sorc-1", ability=0, targets=["bears"])
    resolve(t)
    assert t.find("bears")["damage"] == 1
    version = game.version
    t.do("activate", "A", card="sorc-2", ability=0, targets=["bears"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert version not in builds  # destroyed by the lists of the version before the damage


def test_lethal_damage_on_an_indestructible_creature_stays_and_a_mortal_one_goes():
    # Elspeth's emblem makes A's creatures indestructible (modern only): lethal damage on
    # A's Bears stays on them, and the same lists then see lethal damage on B's.
    t = table("modern", battlefield=[h("elspeth", "Elspeth, Knight-Errant", controller="A",
                                       counters={"loyalty": 9}),
                                     h("sorc-1", "Prodigal Sorcerer", controller="B"),
                                     h("sorc-2", "Prodigal Sorcerer", controller="B"),
                                     h("mine", "Grizzly Bears", controller="A", damage=1),
                                     h("theirs", "Grizzly Bears", controller="B", damage=1)])
    t.do("activate", "A", card="elspeth", ability=2)
    resolve(t)
    game = t.game
    builds = sba_builds(game)
    version = game.version
    t.do("pass", "A")
    t.do("activate", "B", card="sorc-1", ability=0, targets=["mine"])
    resolve(t)
    assert t.find("mine")["damage"] == 2  # lethal, and indestructible
    t.do("pass", "A")
    t.do("activate", "B", card="sorc-2", ability=0, targets=["theirs"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]
    assert t.cards(t.obs()["battlefield"]).count("Grizzly Bears") == 1
    assert version not in builds


@pytest.mark.parametrize("edition", EDITIONS)
def test_combat_damage_destroys_the_blocker_and_the_attacker(edition):
    t = table(edition, "beginning_of_combat",
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("elves", "Llanowar Elves", controller="B")])
    t.attack("bears")
    t.block({"elves": "bears"})
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves"]
    assert t.find("bears")["damage"] == 1


def test_loyalty_removed_by_damage_puts_the_planeswalker_into_the_graveyard():
    t = table("modern", battlefield=[h("elspeth", "Elspeth, Knight-Errant", controller="B",
                                       counters={"loyalty": 2}),
                                     h("sorc-1", "Prodigal Sorcerer", controller="A"),
                                     h("sorc-2", "Prodigal Sorcerer", controller="A")])
    t.do("activate", "A", card="sorc-1", ability=0, targets=["elspeth"])
    resolve(t)
    assert t.find("elspeth")["counters"] == {"loyalty": 1}
    t.do("activate", "A", card="sorc-2", ability=0, targets=["elspeth"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Elspeth, Knight-Errant"]


# ---- characteristics and attachments ------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_whose_enchant_turns_false_without_a_new_version_goes(edition):
    # No pool Aura's "enchant" reads what changes without a new version; Animate Dead's
    # effect sets one as this does, here one that reads whether the creature is tapped, and
    # tapping the Elves for mana makes none.
    t = table(edition, battlefield=[h("elves", "Llanowar Elves", controller="A"),
                                    h("strength", "Holy Strength", controller="A",
                                      attached_to="elves")])
    game = t.game
    aura = game.objects[t.id("strength")]
    aura.chosen["enchant"] = TargetSpec("creature", lambda _g, _c, o: not o.tapped,
                                        "enchant untapped creature")
    game.changed()  # the effect that set it would have made a new version
    t.do("pass", "A")
    t.do("pass", "B")  # the step ends; A has priority in the next with the Aura still on
    assert "Holy Strength" in t.cards(t.obs()["battlefield"])
    builds = sba_builds(game)
    version = game.version
    t.do("activate", "A", card="elves", ability=0)
    assert t.cards(t.player("A")["graveyard"]) == ["Holy Strength"]
    assert version not in builds  # tapping for mana made no new version


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_makes_a_creature_toughness_zero_and_it_goes_once_it_is_cast(edition):
    t = table(edition, a={"hand": [h("weakness", "Weakness")]},
              battlefield=[h("elves", "Llanowar Elves", controller="B"),
                           h("swamp", "Swamp", controller="A")])
    t.do("cast", "A", card="weakness", targets=["elves"], pay_with=["swamp"])
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Llanowar Elves"]
    assert t.cards(t.player("A")["graveyard"]) == ["Weakness"]  # attached to nothing


# ---- triggered abilities -------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trigger_source_that_entered_sees_the_next_creature(edition):
    t = table(edition, a={"hand": [h("warden", "Soul Warden"), h("bears", "Grizzly Bears")]},
              battlefield=[h("plains", "Plains", controller="A"),
                           *(h(f"forest-{i}", "Forest", controller="A") for i in (1, 2))])
    t.do("cast", "A", card="warden", pay_with=["plains"])
    resolve(t)
    assert t.obs()["stack"] == []  # the Warden does not see itself enter
    t.do("cast", "A", card="bears", pay_with=["forest-1", "forest-2"])
    resolve(t)
    assert [s["card"] for s in t.obs()["stack"]] == ["Soul Warden"]
    resolve(t)
    assert t.player("A")["life"] == 21


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_events_in_one_version_each_trigger_once(edition):
    # Both Cities become tapped as the Bears are paid for, in one version: each "becomes
    # tapped" is looked up in the same index, and triggers its own City's ability only.
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=[h("city-1", "City of Brass", controller="A"),
                           h("city-2", "City of Brass", controller="A")])
    game = t.game
    builds = trigger_builds(game)
    t.do("cast", "A", card="bears", pay_with=["city-1", "city-2"])
    assert len(builds) <= 1  # one index for both
    pending = t.obs()["pending"]
    assert pending["decision"] == "order_triggers"
    assert [o["source"] for o in pending["triggers"]] == [t.id("city-1"), t.id("city-2")]
    t.do("choose", "A", choice=pending["triggers"][0]["id"])
    resolve(t)
    resolve(t)
    assert t.player("A")["life"] == 18


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_source_that_lost_its_abilities_does_not_trigger(edition):
    # Evil Presence makes City of Brass a Swamp without its rules text: the index is made
    # from characteristics, not from the card.
    t = table(edition, a={"hand": [h("presence", "Evil Presence")], "mana_pool": {"B": 1}},
              battlefield=[h("city", "City of Brass", controller="A")])
    t.do("cast", "A", card="presence", targets=["city"])
    resolve(t)
    t.do("activate", "A", card="city", ability=0)  # now the Swamp's "{T}: Add {B}."
    assert t.find("city")["tapped"] is True
    assert t.obs()["stack"] == []  # A has priority again, and nothing triggered
