"""An independent rules review of the issue-26 changes where effects meet (issue 26's review
habit): a prevention shield for a source with a property rechecks it as the damage would be
dealt (modern 609.7b, 615.9; followed in 2004), meeting a creature spell that becomes a
permanent, a source that left the battlefield (its last known information), a source that
came back as a new object, combat damage on the 2004 stack (310.4b), and a source chosen by
its type; and repeated cleanup steps (modern 514.3a, 500.5; 2004 314.3, 300.3), meeting mana
made in the end step and in each cleanup step, mana burn, damage and "until end of turn"
effects made in a cleanup step. Each test is one scenario, in both editions where the cards
exist in both; the modern rules are those of 2026-09-25, the 2004 ones those of 2004-06-01."""

from __future__ import annotations

import pytest

from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


def choices(t: Table) -> list:
    return [a["choice"] for a in t.legal() if a["action"] == "choose"]


def graveyard(t: Table, player: str) -> list[str]:
    return sorted(t.cards(t.player(player)["graveyard"]))


def circle(t: Table, source: str, land: str = "plains") -> None:
    """B activates Circle of Protection: Red (paid with ``land``), it resolves, and B chooses
    ``source`` (when asked: with one red source the engine may not ask)."""
    if t.obs()["turn"]["priority"] != "B":
        t.do("pass", t.obs()["turn"]["priority"])
    t.do("activate", "B", card="circle", ability=0, pay_with=[land])
    resolve(t)
    if t.obs()["pending"] is not None:
        assert t.id(source) in choices(t)
        t.do("choose", "B", choice=t.id(source))
    assert [e["source"] for e in t.events if e["type"] == "shield"][-1] == t.id(source)


def prevented(t: Table) -> list:
    return [e["source"] for e in t.events if e["type"] == "prevent"]


# ---- prevention: the source's colour as the damage is dealt --------------------------------------


@pytest.mark.parametrize("purelace", [False, True])
def test_modern_a_shield_for_a_red_creature_spell_follows_the_permanent_and_rechecks(purelace):
    # B's Circle chooses A's Raging Goblin while it is a spell: the shield applies to the
    # permanent it becomes (modern 609.7a). A then makes the Goblin white with Purelace (or
    # not); it attacks at once (haste). White, its damage is dealt and the shield stays unused
    # (609.7b); red, the damage is prevented.
    t = table("modern", a={"hand": [h("goblin", "Raging Goblin"), h("lace", "Purelace")]},
              battlefield=[h("mountain", "Mountain", controller="A"),
                           h("plains-a", "Plains", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B")])
    t.do("cast", "A", card="goblin", pay_with=["mountain"])
    circle(t, "goblin")
    resolve(t)  # the Goblin resolves
    assert t.find("goblin") in t.obs()["battlefield"]
    if purelace:
        t.do("cast", "A", card="lace", targets=["goblin"], pay_with=["plains-a"])
        resolve(t)
    t.attack("goblin")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == (19 if purelace else 20)
    assert len(t.game.shields) == (1 if purelace else 0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_red_spell_chosen_then_made_white_deals_its_damage(edition):
    # A's Lightning Bolt at B; B's Circle chooses the Bolt (red); then A makes the Bolt white
    # with Purelace. As the Bolt deals its damage it is no longer red: not prevented (modern
    # 609.7b; followed in 2004), and the shield is not used up.
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt"), h("lace", "Purelace")]},
              battlefield=[h("mountain", "Mountain", controller="A"),
                           h("plains-a", "Plains", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B")])
    t.do("cast", "A", card="bolt", targets=["B"], pay_with=["mountain"])
    circle(t, "bolt")
    t.do("cast", "A", card="lace", targets=["bolt"], pay_with=["plains-a"])
    resolve(t)  # Purelace: the Bolt is white
    resolve(t)  # the Bolt
    assert t.player("B")["life"] == 17
    assert prevented(t) == [] and len(t.game.shields) == 1


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("purelace", [False, True])
def test_a_chosen_fanatic_sacrificed_for_its_ability_is_judged_as_it_last_existed(edition,
                                                                                  purelace):
    # B's Circle chooses A's Mogg Fanatic (red); A makes it white with Purelace, or not, then
    # sacrifices it to deal 1 to B. The source has left the battlefield: its last known
    # information decides (modern 608.2h, 609.7b): red, prevented; white, dealt, and the shield
    # stays unused.
    t = table(edition, a={"hand": [h("lace", "Purelace")]},
              battlefield=[h("fanatic", "Mogg Fanatic", controller="A"),
                           h("plains-a", "Plains", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B")])
    fanatic = t.id("fanatic")
    circle(t, "fanatic")
    if purelace:
        t.do("cast", "A", card="lace", targets=["fanatic"], pay_with=["plains-a"])
        resolve(t)
    t.do("activate", "A", card="fanatic", ability=0, targets=["B"])
    resolve(t)
    assert t.player("B")["life"] == (19 if purelace else 20)
    assert prevented(t) == ([] if purelace else [fanatic])


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_shield_for_a_creature_that_left_and_came_back_misses_the_new_object(edition):
    # B's Circle chooses A's Raging Goblin; A returns it with Unsummon and casts it again: a
    # new object (modern 400.7; 2004 217.5c), not the chosen source. It attacks (haste) and
    # its damage is dealt; the shield waits, unused, for the old Goblin.
    t = table(edition, a={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("island", "Island", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B")])
    circle(t, "goblin")
    t.do("cast", "A", card="unsummon", targets=["goblin"], pay_with=["island"])
    resolve(t)
    t.do("cast", "A", card="goblin", pay_with=["mountain"])
    resolve(t)
    t.attack("goblin")
    t.advance("end_of_combat")
    assert t.player("B")["life"] == 19
    assert len(t.game.shields) == 1


@pytest.mark.parametrize("gone", [False, True])
def test_2004_a_chosen_attacker_made_white_with_its_damage_on_the_stack(gone):
    # 2004: Raging Goblin's combat damage is on the stack; B's Circle chooses it; A makes it
    # white with Purelace (and maybe returns it to hand). The damage's source is the creature as
    # it is, or as it last existed (310.4b): white either way, so the damage is dealt (the modern
    # 609.7b, followed in 2004).
    t = table("cr2004", a={"hand": [h("lace", "Purelace"), h("unsummon", "Unsummon")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("plains-a", "Plains", controller="A"),
                           h("island", "Island", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B")])
    t.attack("goblin")
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    circle(t, "goblin")
    t.do("cast", "A", card="lace", targets=["goblin"], pay_with=["plains-a"])
    resolve(t)
    if gone:
        t.do("cast", "A", card="unsummon", targets=["goblin"], pay_with=["island"])
        resolve(t)
        assert t.cards(t.player("A")["hand"]) == ["Raging Goblin"]
    resolve(t)  # the combat damage
    assert t.player("B")["life"] == 19
    assert prevented(t) == []


def test_2004_an_animated_factory_gone_with_its_damage_on_the_stack_is_still_an_artifact():
    # 2004: A's Mishra's Factory, an artifact creature until end of turn, attacks; its damage is
    # on the stack when A returns it to hand with Unsummon (a land card again, in A's hand).
    # B's Circle of Protection: Artifacts may still choose it (the object the combat damage
    # refers to, as it last existed: an artifact creature, 310.4b) and prevents its damage.
    t = table("cr2004", a={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("factory", "Mishra's Factory", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("island", "Island", controller="A"),
                           h("circle", "Circle of Protection: Artifacts", controller="B"),
                           *[h(f"plains-{i}", "Plains", controller="B") for i in (1, 2)]],
              step="beginning_of_combat")
    factory = t.id("factory")
    t.do("activate", "A", card="factory", ability=1, pay_with=["mountain"])
    resolve(t)
    t.attack("factory")
    t.advance("combat_damage")
    t.do("cast", "A", card="unsummon", targets=["factory"], pay_with=["island"])
    resolve(t)
    assert t.cards(t.player("A")["hand"]) == ["Mishra's Factory"]
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["plains-1", "plains-2"])
    resolve(t)
    if t.obs()["pending"] is not None:
        assert choices(t) == [factory]
        t.do("choose", "B", choice=factory)
    resolve(t)  # the combat damage
    assert t.player("B")["life"] == 20
    assert prevented(t) == [factory]


# ---- repeated cleanup steps and the mana pool ----------------------------------------------------


def _lions_die_in_cleanup(edition: str, extra_hand: int = 0, *, more: tuple = (),
                          more_hand: tuple = (), b_hand: tuple = ()) -> Table:
    """A's Savannah Lions with Rancor, Giant Growth, then Weakness: 5/3 until the cleanup step,
    then 2/0, so they die there and Rancor's trigger gives the players priority."""
    t = table(edition, a={"hand": [h("growth", "Giant Growth"), h("weak", "Weakness"),
                                   *more_hand,
                                   *[h(f"card-{i}", "Island") for i in range(extra_hand)]]},
              b={"hand": list(b_hand)},
              battlefield=[h("lions", "Savannah Lions", controller="A"),
                           h("rancor", "Rancor", controller="A", attached_to="lions"),
                           h("forest", "Forest", controller="A"),
                           h("swamp", "Swamp", controller="A"), *more])
    t.do("cast", "A", card="growth", targets=["lions"], pay_with=["forest"])
    resolve(t)
    t.do("cast", "A", card="weak", targets=["lions"], pay_with=["swamp"])
    resolve(t)
    return t


def _to_cleanup_priority(t: Table) -> None:
    t.advance("cleanup")
    while (t.obs()["pending"] or {}).get("decision") == "order_graveyard":
        t.do("choose", "A", choice=choices(t)[0])
    o = t.obs()
    assert o["turn"]["step"] == "cleanup" and o["turn"]["priority"] == "A"
    assert [s["card"] for s in o["stack"]] == ["Rancor"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_mana_made_in_the_end_step_and_in_two_cleanup_steps(edition):
    # A taps an Island in the end step and another in the first cleanup step (which gives
    # priority: the Lions die, Rancor triggers); Rancor returns to a hand of seven, so a second
    # cleanup step begins with a discard. Modern: each step's mana empties as it ends (500.5),
    # none is left by the discard, and nothing burns. 2004: the end phase (end of turn step and
    # cleanup steps) keeps the mana (300.3): both are still there at the discard, and burn once,
    # 2 life, as the phase ends.
    t = _lions_die_in_cleanup(edition, 7, more=(h("island-1", "Island", controller="A"),
                                                h("island-2", "Island", controller="A")))
    t.advance("end")
    t.do("activate", "A", card="island-1", ability=0)
    _to_cleanup_priority(t)
    assert t.player("A")["mana_pool"]["U"] == (1 if edition == "cr2004" else 0)
    t.do("activate", "A", card="island-2", ability=0)
    resolve(t)  # Rancor returns: eight cards
    t.do("pass", "A")
    t.do("pass", "B")
    o = t.obs()
    assert o["turn"]["step"] == "cleanup" and o["pending"]["decision"] == "discard"
    assert t.player("A")["mana_pool"]["U"] == (2 if edition == "cr2004" else 0)
    assert t.player("A")["life"] == 20
    t.do("discard", "A", card="card-0")
    t.advance("upkeep", turn=4)
    assert t.player("A")["life"] == (18 if edition == "cr2004" else 20)
    assert t.player("A")["mana_pool"]["U"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_pump_and_damage_made_in_a_cleanup_step_end_together_in_the_next(edition):
    # In the first cleanup step's priority A gives its Bears Giant Growth and B Bolts them (3
    # damage on a 5/5). The next cleanup step removes the damage and ends the pump at once
    # (modern 514.2; 2004 314.2): the Bears live.
    t = _lions_die_in_cleanup(edition, more=(h("bears", "Grizzly Bears", controller="A"),
                                             h("forest-2", "Forest", controller="A"),
                                             h("mountain", "Mountain", controller="B")),
                              more_hand=(h("growth-2", "Giant Growth"),),
                              b_hand=(h("bolt", "Lightning Bolt"),))
    _to_cleanup_priority(t)
    t.do("cast", "A", card="growth-2", targets=["bears"], pay_with=["forest-2"])
    resolve(t)
    t.do("pass", "A")
    t.do("cast", "B", card="bolt", targets=["bears"], pay_with=["mountain"])
    resolve(t)
    assert (t.find("bears")["toughness"], t.find("bears")["damage"]) == (5, 3)
    resolve(t)  # Rancor's trigger
    t.do("pass", "A")
    t.do("pass", "B")
    bears = t.find("bears")
    assert bears in t.obs()["battlefield"]
    assert (bears["toughness"], bears["damage"]) == (2, 0)



# ---- a source not on the battlefield: as it last existed there --------------------------------


def _white_goblin_phased_out_with_its_damage_on_the_stack() -> Table:
    """2004: A's Raging Goblin, wearing A's Vanishing, attacks; its combat damage is on the
    stack; B's Circle chooses it; A makes it white with Purelace, then phases it out with
    Vanishing (into the phased-out zone, out of play: 217.8c)."""
    t = table("cr2004", a={"hand": [h("lace", "Purelace")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("vanishing", "Vanishing", controller="A", attached_to="goblin"),
                           h("fanatic", "Mogg Fanatic", controller="A"),
                           h("plains-a", "Plains", controller="A"),
                           *[h(f"island-{i}", "Island", controller="A") for i in (1, 2)],
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B"),
                           h("plains-2", "Plains", controller="B")])
    t.attack("goblin")
    t.advance("combat_damage")
    assert [s["kind"] for s in t.obs()["stack"]] == ["combat_damage"]
    circle(t, "goblin")
    t.do("cast", "A", card="lace", targets=["goblin"], pay_with=["plains-a"])
    resolve(t)
    t.do("activate", "A", card="vanishing", ability=0, pay_with=["island-1", "island-2"])
    resolve(t)
    assert [o["card"] for o in t.obs()["phased_out"]] == ["Raging Goblin", "Vanishing"]
    return t


def test_2004_a_chosen_attacker_made_white_then_phased_out_deals_its_damage_on_the_stack():
    # The damage's source is out of play: it is the creature as it last existed in play (2004
    # 310.4b), white, so the Circle's shield for a red source does not prevent it (the modern
    # 609.7b, followed in 2004) and stays unused.
    t = _white_goblin_phased_out_with_its_damage_on_the_stack()
    resolve(t)  # the combat damage
    assert t.player("B")["life"] == 19
    assert prevented(t) == [] and len(t.game.shields) == 1


def test_2004_a_white_creature_phased_out_is_no_red_source_for_a_circle():
    # The same white Goblin, out of play with its damage on the stack, as a Circle's choice:
    # a source is judged as it last existed (310.4b; modern 609.7a): not red, not a choice;
    # the Mogg Fanatic is the only red source.
    t = _white_goblin_phased_out_with_its_damage_on_the_stack()
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["plains-2"])
    resolve(t)
    pending = t.obs()["pending"]
    assert pending is None or choices(t) == [t.id("fanatic")]
    assert [e["source"] for e in t.events if e["type"] == "shield"][-1] == t.id("fanatic")


# ---- a source of one's choice: what waiting effects refer to (modern 609.7a) ---------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_circle_may_choose_a_creature_a_waiting_delayed_trigger_refers_to(edition):
    # A puts Hill Giant (red) onto the battlefield with Sneak Attack, then returns it to hand
    # with Unsummon. Sneak Attack's delayed "sacrifice the creature" still waits to trigger and
    # refers to the Giant: a source of one's choice may be an object a delayed triggered ability
    # waiting to trigger refers to, even one no longer where it was (modern 609.7a; followed in
    # 2004). B's Circle may choose it, or the red Sneak Attack.
    t = table(edition, a={"hand": [h("giant", "Hill Giant"), h("unsummon", "Unsummon")]},
              battlefield=[h("sneak", "Sneak Attack", controller="A"),
                           h("mountain", "Mountain", controller="A"),
                           h("island", "Island", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B")])
    t.do("activate", "A", card="sneak", ability=0, pay_with=["mountain"])
    resolve(t)
    t.do("choose", "A", choice=t.id("giant"))
    giant = t.id("giant")
    t.do("cast", "A", card="unsummon", targets=["giant"], pay_with=["island"])
    resolve(t)
    assert t.cards(t.player("A")["hand"]) == ["Hill Giant"]
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["plains"])
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_source"
    assert sorted(choices(t)) == sorted([t.id("sneak"), giant])


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_circle_may_choose_the_creature_a_waiting_shield_is_for(edition):
    # B's Circle chose A's Raging Goblin; A returns it to hand. The shield still waits to
    # apply and refers to the Goblin: a second activation may choose it again (modern 609.7a:
    # an object a prevention effect waiting to apply refers to), or the Mogg Fanatic.
    t = table(edition, a={"hand": [h("unsummon", "Unsummon")]},
              battlefield=[h("goblin", "Raging Goblin", controller="A"),
                           h("fanatic", "Mogg Fanatic", controller="A"),
                           h("island", "Island", controller="A"),
                           h("circle", "Circle of Protection: Red", controller="B"),
                           h("plains", "Plains", controller="B"),
                           h("plains-2", "Plains", controller="B")])
    goblin = t.id("goblin")
    circle(t, "goblin")
    t.do("cast", "A", card="unsummon", targets=["goblin"], pay_with=["island"])
    resolve(t)
    t.do("pass", "A")
    t.do("activate", "B", card="circle", ability=0, pay_with=["plains-2"])
    resolve(t)
    assert sorted(choices(t)) == sorted([t.id("fanatic"), goblin])


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_mana_ability_with_a_trigger_in_a_cleanup_step(edition):
    # In the first cleanup step's priority A taps Forbidden Orchard for mana: its trigger gives
    # B a Spirit, players get priority again; then another cleanup step. Modern: the mana
    # empties as the step ends (500.5), no loss; 2004: kept to the end of the phase and burnt,
    # 1 life (300.3).
    t = _lions_die_in_cleanup(edition, more=(h("orchard", "Forbidden Orchard", controller="A"),))
    _to_cleanup_priority(t)
    t.do("activate", "A", card="orchard", ability=0)
    if (t.obs()["pending"] or {}).get("decision") == "choose_color":
        t.do("choose", "A", choice="G")
    assert t.player("A")["mana_pool"]["G"] == 1
    assert [s["card"] for s in t.obs()["stack"]] == ["Forbidden Orchard", "Rancor"]
    resolve(t)  # B's Spirit
    resolve(t)  # Rancor returns
    t.advance("upkeep", turn=4)
    assert "Spirit" in t.cards(t.obs()["battlefield"])
    assert t.player("A")["life"] == (19 if edition == "cr2004" else 20)


@pytest.mark.parametrize("edition", EDITIONS)
def test_mana_burn_at_the_end_of_a_repeated_cleanup_takes_the_last_life(edition):
    # A at 1 life taps an Island in the cleanup step's priority. 2004: the mana burns as the
    # end phase ends, after the last cleanup step (300.3): A is at 0 and loses when the
    # state-based actions are next checked (B's upkeep). Modern: no mana burn; A lives.
    t = _lions_die_in_cleanup(edition, more=(h("island", "Island", controller="A"),))
    t.game.players["A"].life = 1
    _to_cleanup_priority(t)
    t.do("activate", "A", card="island", ability=0)
    resolve(t)  # Rancor returns
    assert t.player("A")["life"] == 1
    t.do("pass", "A")
    t.do("pass", "B")
    o = t.obs()
    if edition == "cr2004":
        assert o["result"]["over"] is True and o["result"]["losers"] == ["A"]
        assert t.player("A")["life"] == 0
    else:
        assert o["result"]["over"] is False and t.player("A")["life"] == 1
