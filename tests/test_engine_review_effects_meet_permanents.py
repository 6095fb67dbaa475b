"""An independent rules review of the issue-26 changes where effects meet (issue 26's review
habit): a sacrifice takes the player who sacrifices (modern 701.21a; 2004: the glossary's
"Sacrifice"), a delayed triggered ability's source is that of the ability that made it (modern
603.7e, followed in 2004), and a phased-out permanent is treated as though it did not exist
(modern 702.26b, 702.26g; 2004 217.8c: out of play), meeting a change of control (Control Magic,
Animate Dead), an object that left and came back, a source that left, Innocent Blood, equip
abilities and Auras phasing with what they enchant. Each test is one scenario, in both editions
where the cards exist in both; the modern rules are those of 2026-09-25, the 2004 ones those of
2004-06-01."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


def graveyard(t: Table, player: str) -> list[str]:
    return sorted(t.cards(t.player(player)["graveyard"]))


def phased_in(t: Table) -> set[str]:
    return {o["card"] for o in t.obs()["battlefield"] if not o.get("phased_out")}


def islands(player: str, count: int, prefix: str = "island") -> list[dict]:
    return [h(f"{prefix}-{i}", "Island", controller=player) for i in range(1, count + 1)]


def sneak_in(t: Table, handle: str) -> None:
    """A activates Sneak Attack (with its Mountain) and puts ``handle`` onto the battlefield."""
    t.do("activate", "A", card="sneak", ability=0, pay_with=["mountain"])
    resolve(t)
    t.do("choose", "A", choice=t.id(handle))
    assert t.find(handle)["controller"] == "A"


def choices(t: Table) -> list:
    return [a["choice"] for a in t.legal() if a["action"] == "choose"]


# ---- Sneak Attack's delayed sacrifice and control ------------------------------------------------


def _giant_sneaked_in_and_stolen() -> dict:
    """The setup of a Hill Giant A puts onto the battlefield in B's upkeep (turn 4), which B
    takes with Control Magic in its main phase."""
    return {"step": "upkeep", "active": "B", "turn": 4,
            "a": {"hand": [h("giant", "Hill Giant")]},
            "b": {"hand": [h("magic", "Control Magic")]},
            "battlefield": [h("sneak", "Sneak Attack", controller="A"),
                            h("mountain", "Mountain", controller="A"), *islands("B", 4)]}


def _steal(t: Table) -> None:
    t.do("pass", "B")
    sneak_in(t, "giant")
    t.advance("precombat_main")
    t.do("cast", "B", card="magic", targets=["giant"],
         pay_with=["island-1", "island-2", "island-3", "island-4"])
    resolve(t)
    assert t.find("giant")["controller"] == "B"


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("when", ["before_the_end_step", "with_the_trigger_on_the_stack"])
def test_a_sneaked_creature_stolen_and_given_back_is_sacrificed(edition, when):
    # B takes the Giant with Control Magic; Control Magic then leaves the battlefield (the
    # engine's destroy stands in for an instant-speed removal the pool lacks), before the end
    # step or while the delayed ability waits on the stack. A controls the Giant again as the
    # ability resolves: A sacrifices it (modern 701.21a: control is what counts, as the
    # instruction is carried out; 2004: the glossary's "Sacrifice").
    t = table(edition, **_giant_sneaked_in_and_stolen())
    _steal(t)
    if when == "before_the_end_step":
        t.game.destroy(t.id("magic"))
        t.advance("end")
        assert t.find("giant")["controller"] == "A"
        assert [(s["card"], s["controller"]) for s in t.obs()["stack"]] == [
            ("Sneak Attack", "A")]
        resolve(t)
    else:
        t.advance("end")
        assert [(s["card"], s["controller"]) for s in t.obs()["stack"]] == [
            ("Sneak Attack", "A")]
        t.game.destroy(t.id("magic"))
        t.do("pass", "B")  # the active player passes; A receives priority, control is A's
        assert t.find("giant")["controller"] == "A"
        t.do("pass", "A")
    assert graveyard(t, "A") == ["Hill Giant"]
    assert graveyard(t, "B") == ["Control Magic"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sneaked_creature_bounced_and_cast_again_is_a_new_object_and_stays(edition):
    # A puts Raging Goblin in with Sneak Attack, returns it with Unsummon and casts it again:
    # a new object (modern 400.7; 2004 217.5c), which the delayed "sacrifice the creature" does
    # not refer to. The ability still triggers, and does nothing.
    t = table(edition, a={"hand": [h("goblin", "Raging Goblin"), h("unsummon", "Unsummon")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("mountain-2", "Mountain", controller="A"),
                           h("island", "Island", controller="A")])
    sneak_in(t, "goblin")
    t.do("cast", "A", card="unsummon", targets=["goblin"], pay_with=["island"])
    resolve(t)
    t.do("cast", "A", card="goblin", pay_with=["mountain-2"])
    resolve(t)
    t.advance("end")
    assert [s["card"] for s in t.obs()["stack"]] == ["Sneak Attack"]
    resolve(t)
    assert t.find("goblin") in t.obs()["battlefield"]
    assert graveyard(t, "A") == ["Unsummon"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_sneak_attack_destroyed_its_delayed_ability_still_sacrifices(edition):
    # A Vindicates its own Sneak Attack after the Giant came in. The delayed ability exists on
    # its own (modern 603.7c: it triggers at its time whatever became of its source; 113.7a):
    # it triggers, its source still Sneak Attack as it last existed (603.7e), and the Giant
    # is sacrificed.
    t = table(edition, a={"hand": [h("giant", "Hill Giant"), h("vindicate", "Vindicate")],
                          "mana_pool": {"W": 1, "B": 1, "C": 1}},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A")])
    sneak = t.id("sneak")
    sneak_in(t, "giant")
    t.do("cast", "A", card="vindicate", targets=["sneak"], payment={"W": 1, "B": 1, "C": 1})
    resolve(t)
    assert "Sneak Attack" in graveyard(t, "A")
    t.advance("end")
    [item] = t.obs()["stack"]
    assert (item["card"], item["source"], item["controller"]) == ("Sneak Attack", sneak, "A")
    resolve(t)
    assert graveyard(t, "A") == ["Hill Giant", "Sneak Attack", "Vindicate"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sneaked_efreet_with_vanishing_phased_out_by_either_is_spared(edition):
    # The Efreet, put in with Sneak Attack, wears A's Vanishing. A activates Vanishing, then in
    # response the Efreet's own ability: the Efreet phases out (Vanishing with it, indirectly,
    # modern 702.26g; 2004 217.8d's attachments); Vanishing's ability then resolves for an Aura
    # treated as though it did not exist and does nothing. The delayed sacrifice finds nothing
    # (702.26b), and both phase in together in A's next untap step.
    t = table(edition, a={"hand": [h("efreet", "Rainbow Efreet"), h("vanishing", "Vanishing")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"), *islands("A", 5)])
    sneak_in(t, "efreet")
    t.do("cast", "A", card="vanishing", targets=["efreet"], pay_with=["island-1"])
    resolve(t)
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-2", "island-3"])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-4", "island-5"])
    t.events.clear()
    resolve(t)  # the Efreet's: both phase out
    resolve(t)  # Vanishing's: nothing
    assert sorted(e["object"] for e in t.events if e["type"] == "phase_out") == sorted(
        [t.id("efreet"), t.id("vanishing")])
    assert not {"Rainbow Efreet", "Vanishing"} & phased_in(t)
    t.advance("end")
    resolve(t)
    assert graveyard(t, "A") == []
    t.advance("upkeep", turn=5)
    assert {"Rainbow Efreet", "Vanishing"} <= phased_in(t)
    assert t.find("vanishing")["attached_to"] == t.id("efreet")


# ---- sacrifice by the player who controls the permanent ------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_innocent_blood_a_phased_out_creature_is_no_choice(edition):
    # B's only creature, Rainbow Efreet, phases out in response to Innocent Blood: B controls
    # no creature it could sacrifice (modern 702.26b; 2004: out of play) and sacrifices none; A
    # sacrifices its Bears.
    t = table(edition, a={"hand": [h("blood", "Innocent Blood")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("swamp", "Swamp", controller="A"),
                           h("efreet", "Rainbow Efreet", controller="B"), *islands("B", 2)])
    t.do("cast", "A", card="blood", pay_with=["swamp"])
    t.do("pass", "A")
    t.do("activate", "B", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    resolve(t)
    assert graveyard(t, "A") == ["Grizzly Bears", "Innocent Blood"]
    assert graveyard(t, "B") == []
    t.advance("upkeep", turn=4)
    assert "Rainbow Efreet" in phased_in(t)


@pytest.mark.parametrize("edition", EDITIONS)
def test_innocent_blood_a_stolen_creature_is_its_controllers_to_sacrifice(edition):
    # A controls B's Hill Giant with Control Magic, and its own Bears; B controls Llanowar
    # Elves. Each player sacrifices a creature they control (modern 701.21a, 101.4): A chooses
    # between the Bears and the Giant, B has only the Elves. The Giant goes to its owner's
    # graveyard, and Control Magic follows it there by a state-based action.
    t = table(edition, a={"hand": [h("blood", "Innocent Blood")]},
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("giant", "Hill Giant", owner="B", controller="A"),
                           h("magic", "Control Magic", controller="A", attached_to="giant"),
                           h("swamp", "Swamp", controller="A"),
                           h("elves", "Llanowar Elves", controller="B"),
                           h("b-bears", "Grizzly Bears", owner="A", controller="B")])
    t.do("cast", "A", card="blood", pay_with=["swamp"])
    resolve(t)
    pending = t.obs()["pending"]
    assert (pending["player"], pending["decision"]) == ("A", "choose_sacrifice")
    assert sorted(choices(t)) == sorted([t.id("bears"), t.id("giant")])
    t.do("choose", "A", choice=t.id("giant"))
    pending = t.obs()["pending"]
    assert (pending["player"], pending["decision"]) == ("B", "choose_sacrifice")
    # B's own Elves and the Bears it controls (owned by A), not the Giant it owns.
    assert sorted(choices(t)) == sorted([t.id("elves"), t.id("b-bears")])
    t.do("choose", "B", choice=t.id("b-bears"))
    while t.obs()["pending"] is not None:  # graveyards ordered (modern)
        t.do("choose", t.obs()["pending"]["player"], choice=choices(t)[0])
    t.do("pass", "A")
    assert graveyard(t, "A") == ["Control Magic", "Grizzly Bears", "Innocent Blood"]
    assert graveyard(t, "B") == ["Hill Giant"]
    assert t.find("bears") in t.obs()["battlefield"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_stolen_mogg_fanatic_is_sacrificed_by_its_controller_into_its_owners_graveyard(
        edition):
    # B controls A's Mogg Fanatic with Control Magic: only B may activate it (sacrificing it as
    # the cost: modern 701.21a, 602.2), its owner may not; it goes to A's graveyard.
    t = table(edition, battlefield=[
        h("fanatic", "Mogg Fanatic", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="fanatic")])
    t.do("pass", "A")
    assert t.illegal("activate", "A", card="fanatic", ability=0, targets=["B"]) in (
        "not_your_priority", "not_controller")
    t.do("activate", "B", card="fanatic", ability=0, targets=["A"])
    assert graveyard(t, "A") == ["Mogg Fanatic"]
    resolve(t)
    assert t.player("A")["life"] == 19
    assert graveyard(t, "B") == ["Control Magic"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_owner_cannot_sacrifice_its_mogg_fanatic_another_player_controls(edition):
    # The same Fanatic with A holding priority: A's activation is refused as A does not
    # control it (a cost it can't pay, modern 701.21a: a player can't sacrifice a permanent
    # they don't control).
    t = table(edition, battlefield=[
        h("fanatic", "Mogg Fanatic", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="fanatic")])
    assert t.illegal("activate", "A", card="fanatic", ability=0, targets=["B"]) == (
        "not_controller")
    assert t.find("fanatic") in t.obs()["battlefield"]


def _animate_giant_for_a(edition: str) -> Table:
    """A returns B's Hill Giant with Animate Dead in turn 3 (A's Giant now, 2/3); turn 4, B's
    turn, begins."""
    t = table(edition, a={"hand": [h("ad", "Animate Dead")], "mana_pool": {"B": 1, "C": 1}},
              b={"graveyard": [h("giant", "Hill Giant")],
                 "hand": [h("magic", "Control Magic"), h("vindicate", "Vindicate")]},
              battlefield=[*islands("B", 4), h("plains", "Plains", controller="B"),
                           h("swamp", "Swamp", controller="B"),
                           h("mountain", "Mountain", controller="B")])
    t.do("cast", "A", card="ad", targets=[] if edition == "cr2004" else ["giant"],
         payment={"B": 1, "C": 1})
    resolve(t)
    resolve(t)
    giant = t.find("giant")
    assert (giant["controller"], giant["power"]) == ("A", 2)
    t.advance("precombat_main", turn=4)
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_animate_dead_leaving_after_its_creature_was_stolen(edition):
    # B takes the animated Giant with Control Magic, then Vindicates Animate Dead. Modern: "that
    # creature's controller sacrifices it": B controls it, B sacrifices it (701.21a). 2004:
    # "destroy that creature. It can't be regenerated": whoever controls it. Either way it goes
    # to B's graveyard, its owner's, and Control Magic follows.
    t = _animate_giant_for_a(edition)
    t.do("cast", "B", card="magic", targets=["giant"],
         pay_with=["island-1", "island-2", "island-3", "island-4"])
    resolve(t)
    giant = t.find("giant")
    assert (giant["controller"], giant["power"]) == ("B", 2)  # still -1/-0
    t.do("cast", "B", card="vindicate", targets=["ad"],
         pay_with=["plains", "swamp", "mountain"])
    resolve(t)
    [item] = t.obs()["stack"]
    assert (item["card"], item["controller"]) == ("Animate Dead", "A")
    resolve(t)
    assert graveyard(t, "B") == ["Control Magic", "Hill Giant", "Vindicate"]
    assert graveyard(t, "A") == ["Animate Dead"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_animated_creature_phasing_out_and_in_keeps_animate_dead(edition):
    # A animates its Rainbow Efreet (2/1 with Animate Dead's -1/-0) and phases it out: Animate
    # Dead goes with it (modern 702.26g indirectly; 2004 to the phased-out zone with it) and
    # neither leaves the battlefield (702.26d): no leaves trigger, nothing sacrificed; in A's next
    # untap step both phase in, still attached, the Efreet still 2/1.
    t = table(edition, a={"hand": [h("ad", "Animate Dead")], "mana_pool": {"B": 1, "C": 1},
                          "graveyard": [h("efreet", "Rainbow Efreet")]},
              battlefield=islands("A", 2))
    t.do("cast", "A", card="ad", targets=[] if edition == "cr2004" else ["efreet"],
         payment={"B": 1, "C": 1})
    resolve(t)
    resolve(t)
    assert t.find("efreet")["power"] == 2
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    assert not {"Rainbow Efreet", "Animate Dead"} & phased_in(t)
    assert t.obs()["stack"] == []
    t.advance("upkeep", turn=5)
    assert t.obs()["stack"] == []
    assert {"Rainbow Efreet", "Animate Dead"} <= phased_in(t)
    efreet = t.find("efreet")
    assert (efreet["power"], efreet["controller"]) == (2, "A")
    assert t.find("ad")["attached_to"] == t.id("efreet")
    assert graveyard(t, "A") == []


def test_modern_bomat_courier_stolen_returns_the_cards_it_exiled_to_their_owner():
    # A's Bomat Courier exiled A's top card as it attacked; B takes it with Control Magic and
    # activates it ({R}, discard B's hand, sacrifice it): the cards exiled with it (linked
    # abilities, 607.2a, whoever controls it) go to their owner's hand, A's; the Courier to
    # A's graveyard.
    t = table("modern", battlefield=[h("courier", "Bomat Courier", controller="A"),
                                     *islands("B", 4), h("mountain", "Mountain", controller="B")],
              b={"hand": [h("magic", "Control Magic"), h("bolt", "Lightning Bolt")]})
    t.attack("courier")
    resolve(t)  # the attack trigger: A's top card exiled face down
    exiled = list(t.obs()["exile"])
    assert len(exiled) == 1
    t.advance("precombat_main", turn=4)
    hand_a = len(t.player("A")["hand"])
    t.do("cast", "B", card="magic", targets=["courier"],
         pay_with=["island-1", "island-2", "island-3", "island-4"])
    resolve(t)
    assert t.find("courier")["controller"] == "B"
    t.do("activate", "B", card="courier", ability=0, pay_with=["mountain"])
    assert graveyard(t, "A") == ["Bomat Courier"]
    assert "Lightning Bolt" in graveyard(t, "B")
    resolve(t)
    assert len(t.player("A")["hand"]) == hand_a + 1
    assert t.obs()["exile"] == []
    assert t.player("B")["hand"] == []


# ---- equip abilities and phasing -----------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_equip_ability_whose_creature_phased_out_does_nothing(edition):
    # A equips Leonin Bola (on its Bears) to Rainbow Efreet, which wears Bonesplitter; in
    # response the Efreet phases out, Bonesplitter with it. The equip ability's only target is
    # gone (treated as though it did not exist, 702.26b): it does nothing, the Bola stays on the
    # Bears; the Efreet phases in with Bonesplitter alone.
    t = table(edition, battlefield=[
        h("efreet", "Rainbow Efreet", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="efreet"),
        h("bears", "Grizzly Bears", controller="A"),
        h("bola", "Leonin Bola", controller="A", attached_to="bears"),
        h("mountain", "Mountain", controller="A"), *islands("A", 2)])
    t.do("activate", "A", card="bola", ability=0, targets=["efreet"], pay_with=["mountain"])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    t.events.clear()
    resolve(t)
    assert not [e for e in t.events if e["type"] == "attach"]
    assert t.find("bola")["attached_to"] == t.id("bears")
    t.advance("upkeep", turn=5)
    assert t.find("splitter")["attached_to"] == t.id("efreet")
    assert t.find("bola")["attached_to"] == t.id("bears")
    assert t.find("efreet")["power"] == 5


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_phased_out_equipment_cannot_be_activated(edition):
    # Bonesplitter phased out with the Efreet it equips: its equip ability can't be activated
    # (modern 702.26b: treated as though it did not exist; 2004: not in play), and no creature
    # A controls can be equipped by it.
    t = table(edition, battlefield=[
        h("efreet", "Rainbow Efreet", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="efreet"),
        h("bears", "Grizzly Bears", controller="A"),
        h("mountain", "Mountain", controller="A"), *islands("A", 2)])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    assert t.illegal("activate", "A", card="splitter", ability=0, targets=["bears"],
                     pay_with=["mountain"]) == "not_on_battlefield"
    assert not [a for a in t.legal() if a.get("card") == t.id("splitter")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_equipping_a_creature_whose_other_equipment_is_phased_out_with_another_creature(edition):
    # Bonesplitter is on the Efreet, which phases out; A equips Leonin Bola to its Bears, which
    # is fine: only the phased-out Bonesplitter and Efreet are out of reach. The Bears get the
    # Bola's ability, the Efreet keeps Bonesplitter when it phases in.
    t = table(edition, battlefield=[
        h("efreet", "Rainbow Efreet", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="efreet"),
        h("bears", "Grizzly Bears", controller="A"),
        h("bola", "Leonin Bola", controller="A"),
        h("mountain", "Mountain", controller="A"), *islands("A", 2)])
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    targets = {tg["object"] for a in t.legal() if a.get("card") == t.id("bola")
               for tg in a.get("targets", [])}
    assert targets == {t.id("bears")}
    t.do("activate", "A", card="bola", ability=0, targets=["bears"], pay_with=["mountain"])
    resolve(t)
    assert t.find("bola")["attached_to"] == t.id("bears")
    t.advance("upkeep", turn=5)
    assert t.find("splitter")["attached_to"] == t.id("efreet")
    assert t.find("bola")["attached_to"] == t.id("bears")


# ---- phasing and control -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_vanishing_phases_out_a_stolen_creature_which_phases_in_under_its_controller(edition):
    # B controls A's Bears with Control Magic; A's Vanishing is on them too. A activates
    # Vanishing in its turn: the Bears phase out under B's control, both Auras with them
    # indirectly. They phase in in B's untap step (modern 702.26a: what phased out under that
    # player's control; 2004 302.1), A's Vanishing with them (it does not wait for A's), and B
    # still controls the Bears.
    t = table(edition, battlefield=[
        h("bears", "Grizzly Bears", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="bears"),
        h("vanishing", "Vanishing", controller="A", attached_to="bears"), *islands("A", 2)])
    assert t.find("bears")["controller"] == "B"
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    assert not {"Grizzly Bears", "Control Magic", "Vanishing"} & phased_in(t)
    t.advance("upkeep", turn=4)
    assert {"Grizzly Bears", "Control Magic", "Vanishing"} <= phased_in(t)
    bears = t.find("bears")
    assert bears["controller"] == "B"
    assert t.find("vanishing")["attached_to"] == t.id("bears")
    assert t.find("vanishing")["controller"] == "A"


def test_modern_a_phased_out_stolen_creature_is_still_its_controllers():
    # Modern: phasing changes neither zone nor control (702.26d). While B's stolen Bears are
    # phased out (with Control Magic), the observation still shows B as their controller.
    t = table("modern", battlefield=[
        h("bears", "Grizzly Bears", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="bears"),
        h("vanishing", "Vanishing", controller="A", attached_to="bears"), *islands("A", 2)])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    bears = t.find("bears")
    assert bears["phased_out"] is True and bears["controller"] == "B"
    # Nor can A, its owner, equip, target or sacrifice it meanwhile: nothing lists it.
    assert not [a for a in t.legal() if t.id("bears") in (
        a.get("card"), *[tg.get("object") for tg in a.get("targets", [])])]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_given_permanent_of_a_player_who_does_not_own_it_stays_theirs(edition):
    # A given state: B controls A's Bears, with no effect to say so (as if B had put them onto
    # the battlefield under its control), and A controls B's Giant with Control Magic. The
    # Bears stay B's when control is worked out (modern 110.2, 2004 200.6a: by default the
    # player who put it onto the battlefield controls it); the Giant goes back to B only when
    # Control Magic leaves. (They used to go back to A as soon as any control effect was in
    # the game.)
    t = table(edition, battlefield=[
        h("bears", "Grizzly Bears", owner="A", controller="B"),
        h("giant", "Hill Giant", owner="B", controller="A"),
        h("magic", "Control Magic", controller="A", attached_to="giant")])
    t.do("pass", "A")
    assert (t.find("bears")["controller"], t.find("giant")["controller"]) == ("B", "A")
    t.game.destroy(t.id("magic"))
    t.do("pass", "B")
    assert (t.find("bears")["controller"], t.find("giant")["controller"]) == ("B", "B")


# ---- a source phased out: as it last existed -----------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_stone_giant_phased_out_in_response_checks_its_target_against_its_last_known_power(
        edition):
    # Stone Giant with Bonesplitter (5/4) targets A's Hill Giant (toughness 3 < 5); in response
    # A phases the Stone Giant out with Vanishing, Bonesplitter with it. As the ability resolves
    # its source is treated as though it did not exist (modern 702.26b) and is known by its
    # last known information (608.2b, 608.2h): power 5, so the target is still legal and the
    # Hill Giant dies at the end step. (It used to read the phased-out Giant as it was without
    # its phased-out Bonesplitter, or, 2004, by its card: power 3, and the ability did nothing.
    # 2004: out of play, 217.8c; the 2004 text of the clause on a gone source's information is
    # not in the seeds, and the modern rule is followed.)
    t = table(edition, battlefield=[
        h("giant", "Stone Giant", controller="A"),
        h("splitter", "Bonesplitter", controller="A", attached_to="giant"),
        h("vanishing", "Vanishing", controller="A", attached_to="giant"),
        h("hill", "Hill Giant", controller="A"), *islands("A", 2)])
    assert t.find("giant")["power"] == 5
    t.do("activate", "A", card="giant", ability=0, targets=["hill"])
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)  # Vanishing's: the Stone Giant, Bonesplitter and Vanishing phase out
    assert not {"Stone Giant", "Bonesplitter", "Vanishing"} & phased_in(t)
    t.events.clear()
    resolve(t)  # the Stone Giant's
    assert not [e for e in t.events if e["type"] == "fizzle"]
    game = t.game
    assert game.has(game.objects[t.id("hill")], "flying")
    t.advance("end")
    assert [s["card"] for s in t.obs()["stack"]] == ["Stone Giant"]
    resolve(t)
    assert graveyard(t, "A") == ["Hill Giant"]


# ---- more delayed sacrifice: timing and phasing --------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_creature_sneaked_in_during_the_end_step_stays_through_the_next_turn(edition):
    # A uses Sneak Attack in its own end step: "the next end step" (modern 513.2; 2004 313.2:
    # an "at end of turn" ability made during the end of turn step waits for the next turn's)
    # is B's. The Giant blocks in B's turn and is
    # sacrificed at B's end step.
    t = table(edition, a={"hand": [h("giant", "Hill Giant")]},
              b={"hand": []},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("bears", "Grizzly Bears", controller="B")])
    t.advance("end")
    sneak_in(t, "giant")
    t.advance("upkeep", turn=4)
    assert t.find("giant") in t.obs()["battlefield"]
    t.attack("bears")
    t.block({"giant": "bears"})
    t.advance("end", turn=4)
    assert [s["card"] for s in t.obs()["stack"]] == ["Sneak Attack"]
    resolve(t)
    assert graveyard(t, "A") == ["Hill Giant"]
    assert graveyard(t, "B") == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sneaked_efreet_phasing_out_with_the_sacrifice_on_the_stack_is_spared(edition):
    # The delayed ability has triggered and waits on the stack; in response the Efreet phases
    # itself out. As the ability resolves the Efreet is treated as though it did not exist
    # (modern 702.26b; 2004: out of play, 217.8c): nothing is sacrificed, and it has triggered
    # for good (modern 603.7b).
    t = table(edition, a={"hand": [h("efreet", "Rainbow Efreet")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"), *islands("A", 2)])
    sneak_in(t, "efreet")
    t.advance("end")
    assert [s["card"] for s in t.obs()["stack"]] == ["Sneak Attack"]
    t.do("activate", "A", card="efreet", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)  # the Efreet phases out
    resolve(t)  # the delayed ability: nothing
    assert graveyard(t, "A") == []
    t.advance("end", turn=5)
    assert t.obs()["stack"] == []
    assert "Rainbow Efreet" in phased_in(t)


# ---- equipment and a change of control -----------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_equipment_on_a_stolen_creature_stays_its_controllers_to_move(edition):
    # B's Control Magic takes A's Bears, which wear A's Bonesplitter: the Equipment stays A's
    # (2004 212.2k; modern 301.5d) and keeps equipping the Bears, now B's (4/2). A may move it
    # to a creature A controls, not to the Bears (equip: "target creature you control").
    t = table(edition, battlefield=[
        h("bears", "Grizzly Bears", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="bears"),
        h("splitter", "Bonesplitter", controller="A", attached_to="bears"),
        h("giant", "Hill Giant", controller="A"), h("mountain", "Mountain", controller="A")])
    bears = t.find("bears")
    assert (bears["controller"], bears["power"]) == ("B", 4)
    targets = {tg["object"] for a in t.legal() if a.get("card") == t.id("splitter")
               for tg in a.get("targets", [])}
    assert targets == {t.id("giant")}
    assert t.illegal("activate", "A", card="splitter", ability=0, targets=["bears"],
                     pay_with=["mountain"]) == "illegal_target"
    t.do("activate", "A", card="splitter", ability=0, targets=["giant"], pay_with=["mountain"])
    resolve(t)
    assert (t.find("giant")["power"], t.find("bears")["power"]) == (5, 2)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_stolen_creatures_granted_bola_ability_is_its_controllers_and_unattaches_the_bola(
        edition):
    # A's Leonin Bola equips A's Bears, which B controls with Control Magic. The ability the
    # Bola grants is the Bears' and only their controller, B, may activate it (2004 212.2k;
    # modern 301.5d): B taps the Bears and unattaches A's Bola to tap A's Hill Giant. The Bola
    # stays on the battlefield, A's, attached to nothing.
    t = table(edition, active="B", battlefield=[
        h("bears", "Grizzly Bears", owner="A", controller="B"),
        h("magic", "Control Magic", controller="B", attached_to="bears"),
        h("bola", "Leonin Bola", controller="A", attached_to="bears"),
        h("giant", "Hill Giant", controller="A")])
    t.do("activate", "B", card="bears", ability=0, targets=["giant"])
    bola = t.find("bola")
    assert bola["attached_to"] is None and bola["controller"] == "A"
    assert t.find("bears")["tapped"] is True
    resolve(t)
    assert t.find("giant")["tapped"] is True
