"""What the engine skips on the way from one priority to the next (Game._sba_found's quiet
and idle versions, Triggers.unheard, the settling asked without a generator): the edges where
something must still happen though no new state version came.
Each test plays the edge through the engine; docs/reference-engine.md (Speed) says why each
skip is sound."""

from __future__ import annotations

import pytest

from reference_engine.game import Game
from reference_engine.objects import TargetSpec
from tests.enginekit import h, record_calls, resolve, table

EDITIONS = ("cr2004", "modern")


def count_aura_checks(game: Game) -> list[int]:
    """The ids of the Auras whose legality is worked out from now on, one entry a time."""
    return record_calls(game, "_aura_legal", lambda aura: aura.id)


def sba_versions(game: Game) -> list[int]:
    """The versions at which state-based actions are performed from now on."""
    return record_calls(game, "_perform_sbas", lambda _found: game.version)


# ---- the state-based actions of a quiet version ---------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_whose_legality_reads_nothing_live_is_checked_once_per_version(edition):
    # Holy Strength on the Elves: once every permanent was checked at a version and nothing
    # applied, tapping for mana and passing (no new version, no damage) check it no more.
    t = table(edition, battlefield=[h("elves", "Llanowar Elves", controller="A"),
                                    h("strength", "Holy Strength", controller="A",
                                      attached_to="elves")])
    game = t.game
    asked = count_aura_checks(game)
    game.changed()  # from outside: the next check is a full one
    t.do("activate", "A", card="elves", ability=0)
    assert asked == [t.id("strength")]
    t.do("pass", "A")
    t.do("pass", "B")  # the step ends; the next begins with the same version
    assert asked == [t.id("strength")]
    assert "Holy Strength" in t.cards(t.obs()["battlefield"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_of_a_card_in_a_graveyard_goes_when_the_card_leaves_without_a_new_version(
        edition):
    # An "enchant creature card in a graveyard" without a restriction of its own (Animate
    # Dead's has one): whether it is legal reads no `allows`, but the card can leave the
    # graveyard for a hand without a new version (Gravedigger), and then the Aura goes.
    t = table(edition, a={"hand": [h("gd", "Gravedigger")], "mana_pool": {"B": 4},
                          "graveyard": [h("bears", "Grizzly Bears")]},
              battlefield=[h("elves", "Llanowar Elves", controller="A"),
                           h("strength", "Holy Strength", controller="A",
                             attached_to="elves")])
    game = t.game
    aura = game.objects[t.id("strength")]
    aura.chosen["enchant"] = TargetSpec("card_in_graveyard", None, "enchant card in a graveyard")
    aura.attached_to = t.id("bears")
    game.changed()  # what set them from outside would have made a new version
    t.do("cast", "A", card="gd")
    resolve(t)  # Gravedigger enters; its trigger targets the Bears, the one creature card
    assert "Holy Strength" in t.cards(t.obs()["battlefield"])  # legal, checked at this version
    resolve(t)
    assert t.obs()["pending"]["decision"] == "may"
    performed = sba_versions(game)
    version = game.version
    t.do("choose", "A", choice=True)
    assert t.cards(t.player("A")["hand"]) == ["Grizzly Bears"]
    assert t.cards(t.player("A")["graveyard"]) == ["Holy Strength"]
    assert performed == [version]  # the Bears' move made no new version


@pytest.mark.parametrize("edition", EDITIONS)
def test_damage_in_a_quiet_version_is_seen_at_once(edition):
    # The first ping leaves the Bears alive and the version quiet; the second is damage in
    # the same version, and destroys them before anyone receives priority.
    t = table(edition, battlefield=[h("sorc-1", "Prodigal Sorcerer", controller="A"),
                                    h("sorc-2", "Prodigal Sorcerer", controller="A"),
                                    h("bears", "Grizzly Bears", controller="B")])
    game = t.game
    t.do("activate", "A", card="sorc-1", ability=0, targets=["bears"])
    resolve(t)
    version = game.version
    t.do("activate", "A", card="sorc-2", ability=0, targets=["bears"])
    assert game._sba_quiet == version == game.version  # checked, and nothing applied
    resolve(t)
    assert t.cards(t.player("B")["graveyard"]) == ["Grizzly Bears"]


# ---- what waits to go on the stack without a new version -------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trigger_of_a_mana_ability_goes_on_the_stack_before_priority(edition):
    # Tapping City of Brass for mana makes no new version and no state-based action applies,
    # but its trigger waits: it goes on the stack before A receives priority again.
    t = table(edition, battlefield=[h("city", "City of Brass", controller="A")])
    game = t.game
    version = game.version
    t.do("activate", "A", card="city", ability=0)
    assert t.obs()["pending"]["decision"] == "choose_color"
    t.do("choose", "A", choice="R")
    assert [s["card"] for s in t.obs()["stack"]] == ["City of Brass"]
    assert t.obs()["turn"]["priority"] == "A"
    assert game.version == version


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_delayed_trigger_fires_at_its_step_though_no_permanent_hears_steps(edition):
    # Sneak Attack's "sacrifice it at the beginning of the next end step" is the one thing
    # hearing the end step: no permanent's ability is indexed under steps.
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"R": 1}},
              battlefield=[h("sneak", "Sneak Attack", controller="A")])
    game = t.game
    t.do("activate", "A", card="sneak", ability=0)
    resolve(t)
    t.do("choose", "A", choice="bears")
    assert "Grizzly Bears" in t.cards(t.obs()["battlefield"])
    assert "step" not in game._trigger_sources()
    t.advance("end")
    # Its source is Sneak Attack, whose ability made it (modern 603.7e), not the Bears.
    assert [(s["kind"], s["card"]) for s in t.obs()["stack"]] == [("trigger", "Sneak Attack")]
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_event_after_a_new_version_is_fired_to_index_the_abilities_again(edition):
    # The index of the version before says nothing of this one: unheard() does not answer
    # from it, and fire() indexes the abilities again.
    t = table(edition, battlefield=[h("elves", "Llanowar Elves", controller="A")])
    game = t.game
    assert game.unheard("tapped")
    game.changed()
    assert not game.unheard("tapped")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_player_at_zero_life_in_a_quiet_version_loses(edition):
    # City of Brass deals its damage to a player, which makes no new version: the players
    # are looked at though nothing else is.
    t = table(edition, a={"life": 1}, battlefield=[h("city", "City of Brass", controller="A")])
    game = t.game
    t.do("activate", "A", card="city", ability=0)
    t.do("choose", "A", choice="R")
    version = game.version
    assert game._sba_idle == version  # nothing but the players to look at
    resolve(t)
    assert t.obs()["result"]["losers"] == ["A"]
    assert game.version == version


# ---- the end of a step ---------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_only_the_other_players_mana_empties_as_the_phase_ends(edition):
    # The pools are looked at only when one has mana: here only the player who is not active.
    t = table(edition, b={"mana_pool": {"R": 2}})
    t.advance("beginning_of_combat")
    assert not any(t.player("B")["mana_pool"].values())
    assert t.player("B")["life"] == (18 if edition == "cr2004" else 20)  # 2004 mana burn
    assert t.player("A")["life"] == 20
