"""Who may attack and who may block: vigilance, defender and Walls, flying and reach, menace
(outside the seeds).

Modern 508.1f and 702.20b (vigilance), 508.1c and 702.3b (defender), 509.1b, 702.9b and
702.17b (flying and reach), 702.111b (menace); 2004: the cards' own text for vigilance
(Serra Angel: "attacking doesn't cause Serra Angel to tap", 308.2c) and reach (Giant Spider:
"can block as though it had flying", 502.4b), and 308.2a for Walls (no defender then).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.enginekit import Table, given, h

EDITIONS = ["cr2004", "modern"]


def table(edition: str, battlefield: list[Any]) -> Table:
    players = {"A": {"library": ["Island"] * 5}, "B": {"library": ["Island"] * 5}}
    return Table(edition, given("beginning_of_combat", players=players,
                                battlefield=battlefield))


def to_attackers(t: Table) -> None:
    t.advance("declare_attackers")
    assert t.obs()["pending"]["decision"] == "declare_attackers"


def attack_options(t: Table) -> set[Any]:
    return {a["card"] for a in t.legal() if a["action"] == "attack"}


def block_options(t: Table) -> set[tuple[Any, Any]]:
    return {(a["card"], a["attacker"]) for a in t.legal() if a["action"] == "block"}


def can_end(t: Table) -> bool:
    return any(a["action"] == "done" for a in t.legal())


@pytest.mark.parametrize("edition", EDITIONS)
def test_vigilance_attacks_without_tapping(edition):
    t = table(edition, [h("angel", "Serra Angel", controller="A"),
                        h("bears", "Grizzly Bears", controller="A")])
    t.attack("angel", "bears")
    angel, bears = t.find("angel"), t.find("bears")
    assert angel["attacking"] and not angel["tapped"]
    assert bears["attacking"] and bears["tapped"]  # attacking taps the others (508.1f)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_wall_cannot_attack_but_blocks(edition):
    # Modern: Wall of Spears has defender (702.3b). 2004: it has no defender; no Wall may
    # attack (308.2a).
    t = table(edition, [h("wall", "Wall of Spears", controller="A"),
                        h("bears", "Grizzly Bears", controller="A"),
                        h("their-wall", "Wall of Spears", controller="B")])
    to_attackers(t)
    assert attack_options(t) == {t.id("bears")}
    assert t.illegal("attack", "A", card="wall") == "not_an_option"
    t.do("attack", "A", card="bears")
    t.do("done", "A")
    t.advance("declare_blockers")
    assert block_options(t) == {(t.id("their-wall"), t.id("bears"))}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_flyer_is_blocked_only_by_flying_or_reach(edition):
    t = table(edition, [h("angel", "Serra Angel", controller="A"),
                        h("bears", "Grizzly Bears", controller="A"),
                        h("spider", "Giant Spider", controller="B"),
                        h("thopter", "Ornithopter", controller="B"),
                        h("lions", "Savannah Lions", controller="B")])
    t.attack("angel", "bears")
    t.advance("declare_blockers")
    assert block_options(t) == {(t.id("spider"), t.id("angel")),
                                (t.id("thopter"), t.id("angel"))} | {
        (t.id(b), t.id("bears")) for b in ("spider", "thopter", "lions")}
    assert t.illegal("block", "B", card="lions", attacker="angel") == "not_an_option"
    t.do("block", "B", card="spider", attacker="angel")
    t.do("done", "B")
    t.advance("end_of_combat")
    assert t.cards(t.player("B")["graveyard"]) == ["Giant Spider"]  # 4 damage from the Angel
    assert t.find("angel")["damage"] == 2


def test_modern_menace_needs_two_blockers():
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("lions", "Savannah Lions", controller="B")])
    t.attack("brute")
    t.advance("declare_blockers")
    assert block_options(t) == {(t.id("bears"), t.id("brute")), (t.id("lions"), t.id("brute"))}
    assert can_end(t)  # no blocker at all is legal
    t.do("block", "B", card="bears", attacker="brute")
    # One blocker: the declaration can't end there (702.111b, 509.1b).
    assert not can_end(t)
    assert t.illegal("done", "B") == "not_an_option"
    assert block_options(t) == {(t.id("lions"), t.id("brute"))}
    t.do("block", "B", card="lions", attacker="brute")
    assert can_end(t)
    t.do("done", "B")
    assert t.find("brute")["attacking"] and t.find("bears")["blocking"] == t.id("brute")


def test_modern_menace_cannot_be_blocked_by_a_lone_creature():
    # One creature that could block: no block of the menace attacker is offered at all, and
    # the declaration is skipped (nothing could be declared).
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("bears", "Grizzly Bears", controller="B")])
    t.attack("brute")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 17
    assert not any(e["type"] == "blockers" for e in t.events)


def test_modern_menace_blocks_offered_only_while_a_second_blocker_remains():
    # Two possible blockers and two attackers, one with menace: once one creature blocks the
    # Brute, the other may not block the Bears instead (the Brute would end with one).
    t = table("modern", [h("brute", "Boggart Brute", controller="A"),
                         h("giant", "Hill Giant", controller="A"),
                         h("bears", "Grizzly Bears", controller="B"),
                         h("lions", "Savannah Lions", controller="B")])
    t.attack("brute", "giant")
    t.advance("declare_blockers")
    t.do("block", "B", card="bears", attacker="brute")
    assert block_options(t) == {(t.id("lions"), t.id("brute"))}
    assert t.illegal("block", "B", card="lions", attacker="giant") == "not_an_option"


@pytest.mark.parametrize("edition", EDITIONS)
def test_reach_and_flying_block_ground_creatures_too(edition):
    t = table(edition, [h("bears", "Grizzly Bears", controller="A"),
                        h("spider", "Giant Spider", controller="B"),
                        h("angel", "Serra Angel", controller="B")])
    t.attack("bears")
    t.advance("declare_blockers")
    assert block_options(t) == {(t.id("spider"), t.id("bears")),
                                (t.id("angel"), t.id("bears"))}
