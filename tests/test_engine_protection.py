"""Protection from a colour (outside the seeds): damage, enchanting and equipping, blocking,
targeting (modern 702.16b-f; 2004 502.7a, which names the same four parts).

White Knight has protection from black, Knight of Stromgald from white; Mother of Runes gives
protection from the colour of its controller's choice until end of turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, given, h, resolve

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any], *, step: str = "precombat_main",
          hand_a=(), hand_b=(), active: str = "A") -> Table:
    players = {"A": {"hand": list(hand_a), "library": ["Island"] * 5},
               "B": {"hand": list(hand_b), "library": ["Island"] * 5}}
    return Table(edition, given(step, active=active, players=players,
                                battlefield=battlefield))


def casts_targeting(t: Table, card: str) -> set[Any]:
    """The objects the listed casts of ``card`` target."""
    return {tg.get("object") for a in t.legal() if a["action"] == "cast"
            and a["card"] == t.id(card) for tg in a["targets"]}


def activations_targeting(t: Table, card: str) -> set[Any]:
    return {tg.get("object") for a in t.legal() if a["action"] == "activate"
            and a["card"] == t.id(card) for tg in a.get("targets", [])}


def mother(t: Table, target: str, color: str, *, player: str = "A") -> None:
    """Mother of Runes gives ``target`` protection from ``color``."""
    t.do("activate", player, card="mother", ability=0, targets=[target])
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_color"
    t.do("choose", player, choice=color)


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_spell_of_the_colour_targets_it(edition):
    t = table(edition, [h("knight", "White Knight", controller="B"),
                        h("bears", "Grizzly Bears", controller="B"),
                        h("swamp-1", "Swamp", controller="A"),
                        h("swamp-2", "Swamp", controller="A"),
                        h("mountain", "Mountain", controller="A")],
              hand_a=[h("terror", "Terror"), h("bolt", "Lightning Bolt"),
                      h("weakness", "Weakness")])
    # Black Terror and black Weakness (an Aura spell targets what it will enchant) can't
    # target it; red Lightning Bolt can.
    assert casts_targeting(t, "terror") == {t.id("bears")}
    assert casts_targeting(t, "weakness") == {t.id("bears")}
    assert t.id("knight") in casts_targeting(t, "bolt")
    assert t.illegal("cast", "A", card="terror", targets=["knight"],
                     pay_with=["swamp-1", "swamp-2"]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_ability_of_a_source_of_the_colour_targets_it(edition):
    # Hermetic Study (blue) gives black Drudge Skeletons a pinging ability: its source is the
    # Skeletons, black, so it can't target White Knight; Prodigal Sorcerer (blue) can.
    t = table(edition, [h("knight", "White Knight", controller="B"),
                        h("skel", "Drudge Skeletons", controller="A"),
                        h("study", "Hermetic Study", controller="A", attached_to="skel"),
                        h("sorcerer", "Prodigal Sorcerer", controller="A")])
    pinged = activations_targeting(t, "skel")
    assert t.id("sorcerer") in pinged and t.id("knight") not in pinged
    assert t.id("knight") in activations_targeting(t, "sorcerer")
    assert t.illegal("activate", "A", card="skel", ability=1,
                     targets=["knight"]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_damage_from_a_source_of_the_colour_is_prevented(edition):
    # Drudge Skeletons (black) attack; White Knight blocks: the Skeletons' damage is
    # prevented, the Knight's first-strike damage is dealt.
    t = table(edition, [h("skel", "Drudge Skeletons", controller="A"),
                        h("knight", "White Knight", controller="B")],
              step="beginning_of_combat")
    t.attack("skel")
    t.block({"knight": "skel"})
    t.advance("end_of_combat")
    assert t.cards(t.player("A")["graveyard"]) == ["Drudge Skeletons"]
    assert t.find("knight")["damage"] == 0
    # The Knight's damage killed the Skeletons in the first step: they dealt none.
    assert not any(e["type"] == "damage" and e["source"] != t.id("knight") for e in t.events)


@pytest.mark.parametrize("edition", EDITIONS)
def test_protection_prevents_damage_the_blocker_would_deal(edition):
    # A Hill Giant (red) blocks Grizzly Bears, which then gain protection from red: the
    # Giant's damage to them is prevented; theirs to the Giant is dealt.
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("mother", "Mother of Runes", controller="A"),
                        h("giant", "Hill Giant", controller="B")],
              step="beginning_of_combat")
    t.attack("bears")
    t.block({"giant": "bears"})
    mother(t, "bears", "R")
    # Gaining an evasion ability after blocks changes no block (modern 509.1b): still blocked.
    assert t.find("giant")["blocking"] == t.id("bears")
    t.advance("end_of_combat")
    assert t.find("bears")["damage"] == 0 and t.find("giant")["damage"] == 2
    assert t.player("B")["life"] == 20
    prevented = [e for e in t.events if e["type"] == "prevent"]
    assert prevented == [{"type": "prevent", "source": t.id("giant"),
                          "target": {"object": t.id("bears")}, "amount": 3}]


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_creature_of_the_colour_blocks_it(edition):
    t = table(edition, [h("knight", "White Knight", controller="A"),
                        h("skel", "Drudge Skeletons", controller="B"),
                        h("bears", "Grizzly Bears", controller="B")],
              step="beginning_of_combat")
    t.attack("knight")
    t.advance("declare_blockers")
    blocks = {(a["card"], a["attacker"]) for a in t.legal() if a["action"] == "block"}
    assert blocks == {(t.id("bears"), t.id("knight"))}
    assert t.illegal("block", "B", card="skel", attacker="knight") == "not_an_option"


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_of_the_colour_falls_off_as_protection_begins(edition):
    # Pacifism (white) on Grizzly Bears; protection from white makes it an illegal
    # attachment: a state-based action puts it into its owner's graveyard (modern 702.16c,
    # 704.5m; 2004 502.7a, 420.5d).
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("pacifism", "Pacifism", controller="B", attached_to="bears"),
                        h("mother", "Mother of Runes", controller="A")])
    mother(t, "bears", "W")
    assert t.cards(t.player("B")["graveyard"]) == ["Pacifism"]
    assert t.find("bears")["attached_to"] is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_of_another_colour_stays(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("pacifism", "Pacifism", controller="B", attached_to="bears"),
                        h("mother", "Mother of Runes", controller="A")])
    mother(t, "bears", "R")
    assert t.find("pacifism")["attached_to"] == t.id("bears")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_spell_whose_target_gains_protection_is_countered_on_resolution(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("mother", "Mother of Runes", controller="A"),
                        h("mountain", "Mountain", controller="B")],
              hand_b=[h("bolt", "Lightning Bolt")])
    t.do("pass", "A")
    t.do("cast", "B", card="bolt", targets=["bears"], pay_with=["mountain"])
    t.do("pass", "B")
    t.do("activate", "A", card="mother", ability=0, targets=["bears"])
    resolve(t)
    t.do("choose", "A", choice="R")
    resolve(t)
    assert any(e["type"] == "fizzle" for e in t.events)
    assert t.find("bears")["damage"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_trampler_still_assigns_lethal_damage_to_a_protected_blocker(edition):
    # Grizzly Bears with Rancor (4/2 trample) blocked by a Hill Giant that then gains
    # protection from green: lethal damage (3) must go to the Giant before any to the player,
    # though it will be prevented (modern 702.19b's example; 2004 502.9b).
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("rancor", "Rancor", controller="A", attached_to="bears"),
                        h("giant", "Hill Giant", controller="B"),
                        h("mother", "Mother of Runes", controller="B")],
              step="beginning_of_combat")
    t.attack("bears")
    t.block({"giant": "bears"})
    t.do("pass", "A")
    mother(t, "giant", "G", player="B")
    t.advance("combat_damage")
    pending = t.obs()["pending"]
    assert pending["decision"] == "assign_combat_damage"
    assert pending["blockers"] == [{"id": t.id("giant"), "lethal": 3}]
    options = [a["choice"] for a in t.legal() if a["action"] == "choose"]
    assert [[t.id("giant"), 2], ["B", 2]] not in options
    assert [[t.id("giant"), 3], ["B", 1]] in options
    t.do("choose", "A", choice=[[t.id("giant"), 3], ["B", 1]])
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 19
    assert t.find("giant")["damage"] == 0
    assert t.cards(t.player("A")["graveyard"]) == ["Grizzly Bears"]  # Rancor went home


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_equipment_of_the_colour_becomes_unattached(edition):
    # Purelace makes Bonesplitter white; Knight of Stromgald has protection from white: the
    # Equipment comes off and stays on the battlefield (modern 702.16d, 704.5n; the 2004
    # protection rule is not known to name Equipment, and the modern one is followed).
    t = table(edition, [h("knight", "Knight of Stromgald", controller="A"),
                        h("splitter", "Bonesplitter", controller="A", attached_to="knight"),
                        h("plains", "Plains", controller="A")],
              hand_a=[h("purelace", "Purelace")])
    assert t.find("knight")["power"] == 4
    t.do("cast", "A", card="purelace", targets=["splitter"], pay_with=["plains"])
    resolve(t)
    assert t.find("splitter")["attached_to"] is None
    assert t.find("knight")["power"] == 2
    assert any(e["type"] == "unattach" for e in t.events)
