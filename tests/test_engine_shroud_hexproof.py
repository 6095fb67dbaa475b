"""Shroud and hexproof: who may target a permanent (outside the seeds).

Modern 702.18a (shroud: no spell or ability targets it) and 702.11b (hexproof: none its
controller's opponents control). 2004 had neither keyword; the cards said it: Crystalline
Sliver "All Slivers can't be the target of spells or abilities", Troll Ascetic "can't be the
target of spells or abilities your opponents control". Neither stops what doesn't target:
Wrath of God, an Aura put onto the battlefield without being cast (modern 303.4f).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, given, h, resolve

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any], *, hand_a=(), hand_b=(),
          graveyard_a=()) -> Table:
    players = {"A": {"hand": list(hand_a), "graveyard": list(graveyard_a),
                     "library": ["Island"] * 5},
               "B": {"hand": list(hand_b), "library": ["Island"] * 5}}
    return Table(edition, given("precombat_main", players=players, battlefield=battlefield))


def targeted(t: Table, card: str, player: str = "A") -> set[Any]:
    """The objects the listed casts or activations of ``card`` target."""
    return {tg.get("object") for a in t.legal()
            if a["action"] in ("cast", "activate") and a["player"] == player
            and a["card"] == t.id(card) for tg in a.get("targets", [])}


@pytest.mark.parametrize("edition", EDITIONS)
def test_shroud_keeps_every_spell_and_ability_from_targeting_it(edition):
    t = table(edition, [h("sliver", "Crystalline Sliver", controller="A"),
                        h("bears", "Grizzly Bears", controller="A"),
                        h("forest", "Forest", controller="A"),
                        h("mountain", "Mountain", controller="A"),
                        h("sorcerer", "Prodigal Sorcerer", controller="A")],
              hand_a=[h("growth", "Giant Growth"), h("bolt", "Lightning Bolt")])
    # Its own controller's spells and abilities too.
    for card in ("growth", "bolt", "sorcerer"):
        assert t.id("sliver") not in targeted(t, card), card
        assert t.id("bears") in targeted(t, card), card
    assert t.illegal("cast", "A", card="growth", targets=["sliver"],
                     pay_with=["forest"]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_hexproof_keeps_only_the_opponents_spells_and_abilities_away(edition):
    t = table(edition, [h("troll", "Troll Ascetic", controller="A"),
                        h("forest", "Forest", controller="A"),
                        h("mountain", "Mountain", controller="B"),
                        h("sorcerer", "Prodigal Sorcerer", controller="B")],
              hand_a=[h("growth", "Giant Growth")], hand_b=[h("bolt", "Lightning Bolt")])
    assert t.id("troll") in targeted(t, "growth")  # its controller may
    t.do("cast", "A", card="growth", targets=["troll"], pay_with=["forest"])
    t.do("pass", "A")
    # B, with priority, may target neither with a spell nor with an ability.
    assert t.id("troll") not in targeted(t, "bolt", "B")
    assert t.id("troll") not in targeted(t, "sorcerer", "B")
    assert t.illegal("cast", "B", card="bolt", targets=["troll"],
                     pay_with=["mountain"]) == "illegal_target"
    resolve(t)
    assert t.find("troll")["power"] == 6


@pytest.mark.parametrize("edition", EDITIONS)
def test_what_does_not_target_still_reaches_a_shrouded_permanent(edition):
    # Replenish returns Holy Strength, which enchants as it enters, without targeting: the
    # Sliver may be chosen (modern 303.4f; 2004 212.4e). Then Wrath of God destroys it.
    t = table(edition, [h("sliver", "Crystalline Sliver", controller="A")]
              + [h(f"plains-{i}", "Plains", controller="A") for i in range(8)],
              hand_a=[h("replenish", "Replenish"), h("wrath", "Wrath of God")],
              graveyard_a=[h("strength", "Holy Strength")])
    t.do("cast", "A", card="replenish", pay_with=[f"plains-{i}" for i in range(4)])
    resolve(t)
    assert t.find("strength")["attached_to"] == t.id("sliver")  # the only choice, not asked
    assert t.find("sliver")["toughness"] == 4
    t.do("cast", "A", card="wrath", pay_with=[f"plains-{i}" for i in range(4, 8)])
    resolve(t)
    assert "Crystalline Sliver" in t.cards(t.player("A")["graveyard"])
