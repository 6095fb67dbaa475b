"""An adversarial review of action legality (reference_engine/legality.py), as scenarios.

The property test (tests/test_engine_legality.py) holds the legal-action list and the check of
one action to agreement on random states; these tests hold both to the rules, in situations
random play seldom reaches: flash and flashback timing, Future Sight, "any number of targets",
kicker and X, Auras and equip, the restrictions and costs of activated abilities, target kinds,
and payment. Each refusal is asserted by its exact reason code, and every refusal is checked to
leave the game untouched (every player's view, the legal actions, the event queue).

Where the engine is believed wrong by the rules the test asserts the rule and is marked
``xfail(strict=True)`` with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest

from reference_engine.actions import Action
from reference_engine.errors import BadRequestError, IllegalActionError
from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


# -- helpers -----------------------------------------------------------------------------------

def _snapshot(t: Table) -> dict[str, Any]:
    return {"views": {v: t.obs(v) for v in (None, "A", "B")}, "legal": t.legal()}


def refused(t: Table, kind: str, player: str, **fields: Any) -> str:
    """Perform an action that must be refused; return its reason. Every player's view, the
    legal actions and the event queue must be unchanged by the refusal."""
    t._follow()  # drain the events of what came before
    before = _snapshot(t)
    try:
        t.engine.perform(t.action(kind, player, **fields))
    except IllegalActionError as exc:
        assert _snapshot(t) == before, f"refusing {kind} {fields} changed the game"
        assert t.engine.events() == [], f"refusing {kind} {fields} emitted events"
        return exc.reason
    raise AssertionError(f"{kind} by {player} {fields} was accepted")


def refused_action(t: Table, action: Action) -> str:
    """:func:`refused` for an engine-level Action (fields the wire form cannot carry)."""
    t._follow()
    before = _snapshot(t)
    try:
        t.engine.game.perform(action)
    except IllegalActionError as exc:
        assert _snapshot(t) == before
        assert t.engine.events() == []
        return exc.reason
    raise AssertionError(f"{action} was accepted")


def lands(*names: str, controller: str = "A") -> list[dict[str, Any]]:
    return [h(f"{name.lower().replace(' ', '-')}-{i}", name, controller=controller)
            for i, name in enumerate(names, 1)]


def stack_cards(t: Table) -> list[str]:
    """The stack, bottom first (the observation lists it top first)."""
    return [item["card"] for item in reversed(t.obs()["stack"])]


def in_opponents_main(edition: str, **kw: Any) -> Table:
    """B's precombat main phase, B has passed: A holds priority with an empty stack."""
    t = table(edition, active="B", **kw)
    assert t.pass_priority() == "B"
    assert t.obs()["turn"]["priority"] == "A"
    return t


# -- timing: flash, and the three sorcery-speed reasons told apart ---------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_flash_creature_in_the_opponents_turn_is_accepted_a_sorcery_is_not_your_turn(edition):
    # Raging Kavu (flash; 2004: "any time you could play an instant") may be cast whenever its
    # controller has priority; a sorcery only in its controller's own main phase (2004 212.3a
    # for creatures without flash).
    t = in_opponents_main(edition, a={"hand": [h("kavu", "Raging Kavu"), h("axe", "Lava Axe")],
                                      "mana_pool": {"R": 5, "G": 1, "C": 2}})
    assert refused(t, "cast", "A", card="axe", targets=["B"]) == "not_your_turn"
    assert refused(t, "cast", "A", card="kavu", payment={"R": 1, "G": 1, "C": 0}) \
        == "bad_payment"
    t.do("cast", "A", card="kavu")
    assert stack_cards(t) == ["Raging Kavu"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("step", ["upkeep", "draw", "beginning_of_combat", "end"])
def test_a_sorcery_outside_a_main_phase_of_ones_own_turn_is_not_main_phase(edition, step):
    # Sorcery timing: own turn, main phase, empty stack. In one's own turn outside a main phase
    # the reason is the phase.
    t = table(edition, step, a={"hand": [h("axe", "Lava Axe"), h("kavu", "Raging Kavu")],
                                "mana_pool": {"R": 5, "G": 1, "C": 2}})
    assert t.obs()["turn"]["priority"] == "A"
    assert refused(t, "cast", "A", card="axe", targets=["B"]) == "not_main_phase"
    t.do("cast", "A", card="kavu")  # flash: any step with priority
    assert stack_cards(t) == ["Raging Kavu"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sorcery_over_a_non_empty_stack_is_stack_not_empty_a_flash_creature_is_fine(edition):
    # After casting a spell its caster receives priority again; a sorcery then waits for the
    # stack to empty, a flash creature does not.
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt"), h("axe", "Lava Axe"),
                                   h("kavu", "Raging Kavu")],
                          "mana_pool": {"R": 7, "G": 1}})
    t.do("cast", "A", card="bolt", targets=["B"])
    assert t.obs()["turn"]["priority"] == "A"
    assert refused(t, "cast", "A", card="axe", targets=["B"]) == "stack_not_empty"
    t.do("cast", "A", card="kavu")
    assert stack_cards(t) == ["Lightning Bolt", "Raging Kavu"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sorcery_in_the_second_main_phase_is_accepted(edition):
    t = table(edition, "postcombat_main", a={"hand": [h("axe", "Lava Axe")],
                                             "mana_pool": {"R": 5}})
    t.do("cast", "A", card="axe", targets=["B"])
    assert stack_cards(t) == ["Lava Axe"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_even_a_flash_spell_needs_priority(edition):
    # Flash changes when a spell may be cast, not who may act: B, without priority, may not.
    t = table(edition, b={"hand": [h("kavu", "Raging Kavu")], "mana_pool": {"R": 1, "G": 1,
                                                                          "C": 1}})
    assert refused(t, "cast", "B", card="kavu") == "not_your_priority"


# -- other zones: flashback, Future Sight, a card exiled with a permission --------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_flashback_is_paid_with_the_flashback_cost_not_the_mana_cost(edition):
    # Think Twice: {1}{U}, flashback {2}{U}. From the graveyard the flashback cost is paid.
    t = table(edition, a={"graveyard": [h("tt", "Think Twice")], "mana_pool": {"U": 1, "C": 1}})
    assert refused(t, "cast", "A", card="tt") == "cannot_pay"
    t = table(edition, a={"graveyard": [h("tt", "Think Twice")], "mana_pool": {"U": 1, "C": 2}})
    assert refused(t, "cast", "A", card="tt", payment={"U": 1, "C": 1}) == "bad_payment"
    t.do("cast", "A", card="tt", payment={"U": 1, "C": 2})
    assert stack_cards(t) == ["Think Twice"]
    assert sum(t.player("A")["mana_pool"].values()) == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_flashback_of_an_instant_follows_instant_timing(edition):
    # Flashback changes where the card is cast from, not when: an instant in the opponent's
    # turn, over a non-empty stack.
    t = in_opponents_main(edition, a={"graveyard": [h("tt", "Think Twice")],
                                      "hand": [h("bolt", "Lightning Bolt")],
                                      "mana_pool": {"U": 1, "C": 2, "R": 1}})
    t.do("cast", "A", card="bolt", targets=["B"])
    t.do("cast", "A", card="tt")
    assert stack_cards(t) == ["Lightning Bolt", "Think Twice"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_card_with_flashback_cast_from_hand_costs_its_mana_cost(edition):
    t = table(edition, a={"hand": [h("tt", "Think Twice")], "mana_pool": {"U": 1, "C": 1}})
    t.do("cast", "A", card="tt")
    assert stack_cards(t) == ["Think Twice"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_flashback_is_only_from_ones_own_graveyard(edition):
    # Flashback lets a card's owner cast it from their graveyard, not the opponent.
    t = table(edition, a={"mana_pool": {"U": 3}}, b={"graveyard": [h("tt", "Think Twice")]})
    assert refused(t, "cast", "A", card="tt") == "not_in_hand"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_land_in_the_graveyard_can_be_neither_played_nor_cast(edition):
    t = table(edition, a={"graveyard": [h("forest", "Forest")]})
    assert refused(t, "play_land", "A", card="forest") == "not_in_hand"
    assert refused(t, "cast", "A", card="forest") == "not_in_hand"


def _snapcaster_gave_flashback(active: str, pool: dict[str, int]) -> Table:
    """Modern: A casts Snapcaster Mage and gives Lava Axe (in A's graveyard, beside Think
    Twice) flashback; afterwards A holds priority with an empty stack."""
    t = table("modern", active=active,
              a={"hand": [h("snap", "Snapcaster Mage")], "mana_pool": pool,
                 "graveyard": [h("axe", "Lava Axe"), h("tt", "Think Twice")]})
    if active == "B":
        t.pass_priority()
    t.do("cast", "A", card="snap", payment={"U": 1, "C": 1})
    resolve(t)
    assert t.obs()["pending"]["decision"] == "choose_targets"
    t.do("choose", "A", targets=["axe"])
    resolve(t)
    if t.obs()["turn"]["priority"] != "A":
        t.pass_priority()
    assert t.obs()["stack"] == [] and t.obs()["turn"]["priority"] == "A"
    return t


def test_a_granted_flashback_keeps_the_sorcery_timing_of_the_card():
    # Snapcaster Mage (flash) in the opponent's turn gives Lava Axe flashback: it may be cast
    # from the graveyard, but only when a sorcery could be (timing of the card's type).
    t = _snapcaster_gave_flashback("B", {"U": 1, "C": 1, "R": 5})
    assert refused(t, "cast", "A", card="axe", targets=["B"]) == "not_your_turn"


def test_a_granted_flashback_costs_the_cards_mana_cost():
    # "The flashback cost is equal to its mana cost": {4}{R} for Lava Axe.
    t = _snapcaster_gave_flashback("A", {"U": 1, "C": 1, "R": 4})
    assert refused(t, "cast", "A", card="axe", targets=["B"]) == "cannot_pay"
    t = _snapcaster_gave_flashback("A", {"U": 1, "C": 1, "R": 5})
    t.do("cast", "A", card="axe", targets=["B"])
    assert stack_cards(t) == ["Lava Axe"]


def _future_sight(edition: str, top: dict[str, Any], *, active: str = "A",
                  controller: str = "A", **a: Any) -> Table:
    t = table(edition, active=active, a={"library": [top, h("second", "Lightning Bolt"),
                                                     *["Island"] * 4], **a},
              battlefield=[h("fs", "Future Sight", controller=controller)])
    if active == "B":
        t.pass_priority()
    return t


@pytest.mark.parametrize("edition", EDITIONS)
def test_future_sight_top_card_is_played_with_its_own_timing(edition):
    # "You may play the top card of your library": an instant or a flash creature in the
    # opponent's turn; a land only as a land play (own main phase, empty stack).
    t = _future_sight(edition, h("top", "Lightning Bolt"), active="B", mana_pool={"R": 2})
    assert refused(t, "cast", "A", card="second", targets=["B"]) == "not_in_hand"
    t.do("cast", "A", card="top", targets=["B"])
    assert stack_cards(t) == ["Lightning Bolt"]

    t = _future_sight(edition, h("top", "Raging Kavu"), active="B",
                      mana_pool={"R": 1, "G": 1, "C": 1})
    t.do("cast", "A", card="top")
    assert stack_cards(t) == ["Raging Kavu"]

    t = _future_sight(edition, h("top", "Forest"), active="B")
    assert refused(t, "play_land", "A", card="top") == "not_your_turn"
    t = _future_sight(edition, h("top", "Lava Axe"), active="B", mana_pool={"R": 5})
    assert refused(t, "cast", "A", card="top", targets=["B"]) == "not_your_turn"


@pytest.mark.parametrize("edition", EDITIONS)
def test_future_sight_top_land_uses_the_land_play(edition):
    t = _future_sight(edition, h("top", "Forest"), lands_played=1)
    assert refused(t, "play_land", "A", card="top") == "no_land_play_left"
    t = _future_sight(edition, h("top", "Forest"))
    t.do("play_land", "A", card="top")
    assert t.player("A")["lands_played"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_future_sight_helps_only_its_controller(edition):
    t = _future_sight(edition, h("top", "Lava Axe"), controller="B", mana_pool={"R": 5})
    assert refused(t, "cast", "A", card="top", targets=["B"]) == "not_in_hand"


def _inquisitor_exiled_bolt(b_pool: dict[str, int]) -> Table:
    """Modern: Lightstall Inquisitor makes B exile Lightning Bolt from hand; B may cast it for
    as long as it remains exiled, for {1} more. Afterwards B holds priority."""
    t = table("modern", a={"hand": [h("inq", "Lightstall Inquisitor")],
                           "mana_pool": {"W": 1, "R": 1}},
              b={"hand": [h("bolt", "Lightning Bolt"), h("forest", "Forest")],
                 "mana_pool": b_pool})
    t.do("cast", "A", card="inq")
    resolve(t)
    resolve(t)
    t.do("choose", "B", choice=t.id("bolt"))
    assert [o["card"] for o in t.obs()["exile"]] == ["Lightning Bolt"]
    return t


def test_a_card_exiled_with_a_permission_is_cast_by_its_owner_for_one_more():
    t = _inquisitor_exiled_bolt({"R": 1})
    assert refused(t, "cast", "A", card="bolt", targets=["B"]) == "not_in_hand"
    t.pass_priority()
    assert refused(t, "cast", "B", card="bolt", targets=["A"]) == "cannot_pay"
    t = _inquisitor_exiled_bolt({"R": 1, "C": 1})
    t.pass_priority()
    t.do("cast", "B", card="bolt", targets=["A"])  # an instant, in A's turn
    assert stack_cards(t) == ["Lightning Bolt"]


# -- "any number of targets": Fireball ---------------------------------------------------------

def _fireball(edition: str, pool: dict[str, int]) -> Table:
    return table(edition, a={"hand": [h("fb", "Fireball")], "mana_pool": pool},
                 battlefield=[h("bears", "Grizzly Bears", controller="B"),
                              h("giant", "Hill Giant", controller="B"),
                              h("forest", "Forest", controller="B")])


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_with_three_targets_pays_one_more_per_target_beyond_the_first(edition):
    # X=2 and three targets: {2}{R} plus {2} = five mana. Three targets is more than the list
    # shows (it abbreviates to two), and perform accepts it all the same.
    t = _fireball(edition, {"R": 5})
    t.do("cast", "A", card="fb", x=2, targets=["bears", "giant", "B"])
    (spell,) = t.obs()["stack"]
    assert spell["x"] == 2
    assert spell["targets"] == [{"object": t.id("bears")}, {"object": t.id("giant")},
                                {"player": "B"}]
    assert sum(t.player("A")["mana_pool"].values()) == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_with_more_targets_than_the_mana_pays_for_is_cannot_pay(edition):
    t = _fireball(edition, {"R": 4})
    assert refused(t, "cast", "A", card="fb", x=2, targets=["bears", "giant", "B"]) \
        == "cannot_pay"
    t.do("cast", "A", card="fb", x=1, targets=["bears", "giant", "B"])  # exactly four
    assert stack_cards(t) == ["Fireball"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_may_not_name_one_target_twice(edition):
    # One instance of the word "target" names each object or player at most once.
    t = _fireball(edition, {"R": 9})
    assert refused(t, "cast", "A", card="fb", x=1, targets=["bears", "giant", "bears"]) \
        == "duplicate_target"
    assert refused(t, "cast", "A", card="fb", x=1, targets=["B", "B"]) == "duplicate_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_with_one_illegal_target_among_many_is_refused(edition):
    t = _fireball(edition, {"R": 9})
    assert refused(t, "cast", "A", card="fb", x=1, targets=["bears", "forest", "B"]) \
        == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_with_zero_targets_is_refused_while_a_target_exists(edition):
    # "Any number" may be zero, but not when damage is divided among "any number" of players
    # and objects: then a nonzero number must be chosen if possible (modern 107.1c; the 2004
    # engine plays by the modern rule where the seed is silent).
    t = _fireball(edition, {"R": 3})
    assert refused(t, "cast", "A", card="fb", x=2, targets=[]) == "wrong_target_count"


@pytest.mark.parametrize("edition", EDITIONS)
def test_fireball_targets_in_another_order_are_the_same_action(edition):
    # The targets of "any number of targets" are a set: naming them in another order casts
    # the same spell, and matches the listed action.
    one, two = _fireball(edition, {"R": 5}), _fireball(edition, {"R": 5})
    one.do("cast", "A", card="fb", x=2, targets=["bears", "giant", "B"])
    two.do("cast", "A", card="fb", x=2, targets=["B", "giant", "bears"])
    assert one.obs() == two.obs()
    three = _fireball(edition, {"R": 5})
    listed = [a for a in three.legal() if a["action"] == "cast" and a.get("x") == 3
              and len(a.get("targets", ())) == 2
              and {"player": "B"} in a["targets"] and {"object": three.id("giant")}
              in a["targets"]]
    assert len(listed) == 1
    three.do("cast", "A", card="fb", x=3, targets=["B", "giant"])  # the reverse of the list
    assert three.obs()["stack"][0]["targets"] == listed[0]["targets"]


# -- kicker ------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_kicker_is_paid_on_top_of_the_mana_cost(edition):
    # Kavu Titan {1}{G}, kicker {2}{G}: kicked, {3}{G}{G}.
    t = table(edition, a={"hand": [h("kt", "Kavu Titan")], "mana_pool": {"G": 2, "C": 3}})
    assert refused(t, "cast", "A", card="kt", kicked=True, payment={"G": 1, "C": 1}) \
        == "bad_payment"
    t.do("cast", "A", card="kt", kicked=True)
    assert stack_cards(t) == ["Kavu Titan"]
    assert sum(t.player("A")["mana_pool"].values()) == 0


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("pool", [{"G": 2, "C": 2}, {"G": 1, "C": 4}])
def test_kicked_without_the_mana_for_the_kicker_is_cannot_pay(edition, pool):
    # Too little mana in all, or enough mana but only one green for two {G}.
    t = table(edition, a={"hand": [h("kt", "Kavu Titan")], "mana_pool": pool})
    assert refused(t, "cast", "A", card="kt", kicked=True) == "cannot_pay"
    if pool["G"] >= 1:
        t.do("cast", "A", card="kt")  # unkicked is still affordable
        assert stack_cards(t) == ["Kavu Titan"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_kicking_a_spell_without_kicker_is_no_kicker(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"G": 6}})
    assert refused(t, "cast", "A", card="bears", kicked=True) == "no_kicker"


@pytest.mark.parametrize("edition", EDITIONS)
def test_kicked_through_sources_pays_the_kicker_from_them(edition):
    t = table(edition, a={"hand": [h("kt", "Kavu Titan")]},
              battlefield=lands("Forest", "Forest", "Mountain", "Mountain"))
    assert refused(t, "cast", "A", card="kt", kicked=True, pay_with="auto") == "cannot_pay"
    t = table(edition, a={"hand": [h("kt", "Kavu Titan")]},
              battlefield=lands("Forest", "Forest", "Mountain", "Mountain", "Mountain"))
    t.do("cast", "A", card="kt", kicked=True, pay_with="auto")
    assert all(p["tapped"] for p in t.obs()["battlefield"])


# -- X -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_x_is_required_exactly_when_the_cost_has_x(edition):
    t = table(edition, a={"hand": [h("fb", "Fireball"), h("bolt", "Lightning Bolt"),
                                   h("bears", "Grizzly Bears")],
                          "mana_pool": {"R": 3, "G": 2}},
              battlefield=[h("sorcerer", "Prodigal Sorcerer", controller="A")])
    assert refused(t, "cast", "A", card="fb", targets=["B"]) == "x_required"
    assert refused(t, "cast", "A", card="bolt", targets=["B"], x=1) == "x_not_allowed"
    # X=0 is still a value for X: a spell without X takes none.
    assert refused(t, "cast", "A", card="bears", x=0) == "x_not_allowed"
    assert refused(t, "activate", "A", card="sorcerer", ability=0, targets=["B"], x=0) \
        == "x_not_allowed"


@pytest.mark.parametrize("edition", EDITIONS)
def test_x_larger_than_the_mana_is_cannot_pay_and_x_zero_is_fine(edition):
    t = table(edition, a={"hand": [h("fb", "Fireball")], "mana_pool": {"R": 3}})
    assert refused(t, "cast", "A", card="fb", targets=["B"], x=3) == "cannot_pay"
    t.do("cast", "A", card="fb", targets=["B"], x=0)
    assert t.obs()["stack"][0]["x"] == 0
    assert t.player("A")["mana_pool"]["R"] == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_x_larger_than_the_named_sources_pay_is_cannot_pay(edition):
    t = table(edition, a={"hand": [h("fb", "Fireball")]},
              battlefield=lands("Mountain", "Mountain", "Mountain"))
    assert refused(t, "cast", "A", card="fb", targets=["B"], x=3,
                   pay_with=["mountain-1", "mountain-2", "mountain-3"]) == "cannot_pay"
    assert refused(t, "cast", "A", card="fb", targets=["B"], pay_with="auto") == "x_required"
    t.do("cast", "A", card="fb", targets=["B"], x=2,
         pay_with=["mountain-1", "mountain-2", "mountain-3"])
    assert stack_cards(t) == ["Fireball"]


# -- Auras -------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_spell_targets_only_what_it_can_enchant(edition):
    # An Aura spell targets the object it will enchant (2004: local enchantments are
    # targeted); Pacifism enchants a creature, Evil Presence a land.
    t = table(edition, a={"hand": [h("pac", "Pacifism"), h("evil", "Evil Presence")],
                          "mana_pool": {"W": 2, "B": 1}},
              battlefield=[h("bears", "Grizzly Bears", controller="B"),
                           h("forest", "Forest", controller="B"),
                           h("anthem", "Glorious Anthem", controller="B")])
    for target in ("forest", "anthem", "B", "pac"):  # ... and not itself
        assert refused(t, "cast", "A", card="pac", targets=[target]) == "illegal_target"
    assert refused(t, "cast", "A", card="pac", targets=[]) == "wrong_target_count"
    assert refused(t, "cast", "A", card="pac", targets=["bears", "bears"]) \
        == "wrong_target_count"
    assert refused(t, "cast", "A", card="evil", targets=["bears"]) == "illegal_target"
    t.do("cast", "A", card="evil", targets=["forest"])
    assert stack_cards(t) == ["Evil Presence"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_target_is_judged_by_current_characteristics(edition):
    # With Living Plane, lands are creatures: Pacifism may enchant a Forest.
    t = table(edition, a={"hand": [h("pac", "Pacifism")], "mana_pool": {"W": 2}},
              battlefield=[h("forest", "Forest", controller="B"),
                           h("plane", "Living Plane", controller="B")])
    t.do("cast", "A", card="pac", targets=["forest"])
    assert stack_cards(t) == ["Pacifism"]


def test_nurgles_rot_enchants_only_an_opponents_creature():
    t = table("modern", a={"hand": [h("rot", "Nurgle's Rot")], "mana_pool": {"B": 1}},
              battlefield=[h("mine", "Grizzly Bears", controller="A"),
                           h("theirs", "Grizzly Bears", controller="B")])
    assert refused(t, "cast", "A", card="rot", targets=["mine"]) == "illegal_target"
    t.do("cast", "A", card="rot", targets=["theirs"])
    assert stack_cards(t) == ["Nurgle's Rot"]


def test_animate_dead_targets_a_creature_card_in_any_graveyard():
    # Modern Animate Dead: "Enchant creature card in a graveyard".
    t = table("modern", a={"hand": [h("ad", "Animate Dead")], "mana_pool": {"B": 2},
                           "graveyard": [h("bolt", "Lightning Bolt")]},
              b={"graveyard": [h("dead", "Hill Giant")]},
              battlefield=[h("alive", "Grizzly Bears", controller="B")])
    for target in ("alive", "bolt", "ad"):
        assert refused(t, "cast", "A", card="ad", targets=[target]) == "illegal_target"
    t.do("cast", "A", card="ad", targets=["dead"])
    assert stack_cards(t) == ["Animate Dead"]


# -- equip -------------------------------------------------------------------------------------

def _bonesplitter(edition: str, step: str = "precombat_main", **kw: Any) -> Table:
    return table(edition, step, a={"mana_pool": {"C": 2, "R": 1},
                                   "hand": [h("bolt", "Lightning Bolt")]},
                 battlefield=[h("bs", "Bonesplitter", controller="A"),
                              h("bears", "Grizzly Bears", controller="A"),
                              h("giant", "Hill Giant", controller="B")], **kw)


@pytest.mark.parametrize("edition", EDITIONS)
def test_equip_targets_only_a_creature_its_controller_controls(edition):
    # Equip: "Attach to target creature you control"; an Equipment that is not a creature is
    # no legal target for its own equip ability.
    t = _bonesplitter(edition)
    for target in ("giant", "bs", "A"):
        assert refused(t, "activate", "A", card="bs", ability=0, targets=[target]) \
            == "illegal_target"
    assert refused(t, "activate", "A", card="bs", ability=0, targets=[]) \
        == "wrong_target_count"
    t.do("activate", "A", card="bs", ability=0, targets=["bears"])
    assert stack_cards(t) == ["Bonesplitter"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_equip_follows_control_not_ownership(edition):
    t = table(edition, a={"mana_pool": {"C": 2}},
              battlefield=[h("bs", "Bonesplitter", controller="A"),
                           h("borrowed", "Grizzly Bears", controller="A", owner="B"),
                           h("lent", "Hill Giant", controller="B", owner="A")])
    assert refused(t, "activate", "A", card="bs", ability=0, targets=["lent"]) \
        == "illegal_target"
    t.do("activate", "A", card="bs", ability=0, targets=["borrowed"])
    assert stack_cards(t) == ["Bonesplitter"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_equip_is_sorcery_speed_with_each_timing_reason(edition):
    t = _bonesplitter(edition, active="B")
    t.pass_priority()
    assert refused(t, "activate", "A", card="bs", ability=0, targets=["bears"]) \
        == "not_your_turn"
    t = _bonesplitter(edition, "upkeep")
    assert refused(t, "activate", "A", card="bs", ability=0, targets=["bears"]) \
        == "not_main_phase"
    t = _bonesplitter(edition)
    t.do("cast", "A", card="bolt", targets=["B"])
    assert refused(t, "activate", "A", card="bs", ability=0, targets=["bears"]) \
        == "stack_not_empty"


# -- activated abilities: tapping, summoning sickness, haste -----------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_tap_ability_of_a_tapped_permanent_is_already_tapped(edition):
    t = table(edition, battlefield=[h("ps", "Prodigal Sorcerer", controller="A", tapped=True)])
    assert refused(t, "activate", "A", card="ps", ability=0, targets=["B"]) == "already_tapped"


@pytest.mark.parametrize("edition", EDITIONS)
def test_summoning_sickness_stops_a_creatures_tap_ability_not_an_artifacts(edition):
    # 2004 212.3d: a creature's {T} abilities need it under its controller's control since
    # their most recent turn began. A noncreature artifact is not affected.
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("ps", "Prodigal Sorcerer", controller="A", sick=True),
                           h("stone", "Mind Stone", controller="A", sick=True),
                           h("icy", "Icy Manipulator", controller="A", sick=True),
                           h("giant", "Hill Giant", controller="B")])
    assert refused(t, "activate", "A", card="ps", ability=0, targets=["B"]) == "summoning_sick"
    t.do("activate", "A", card="stone", ability=0)
    assert t.player("A")["mana_pool"]["C"] == 2
    t.do("activate", "A", card="icy", ability=0, targets=["giant"])
    assert stack_cards(t) == ["Icy Manipulator"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_haste_lets_a_new_creature_use_its_tap_ability(edition):
    # Concordant Crossroads: all creatures have haste (haste: 2004 502.5).
    t = table(edition, battlefield=[h("ps", "Prodigal Sorcerer", controller="A", sick=True),
                                    h("cc", "Concordant Crossroads", controller="B")])
    t.do("activate", "A", card="ps", ability=0, targets=["B"])
    assert stack_cards(t) == ["Prodigal Sorcerer"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_noncreature_that_becomes_a_creature_is_summoning_sick(edition):
    # Summoning sickness applies to whatever is a creature now: an artifact under March of
    # the Machines, a land under Living Plane; their mana abilities included.
    t = table(edition, battlefield=[h("stone", "Mind Stone", controller="A", sick=True),
                                    h("march", "March of the Machines", controller="B")])
    assert refused(t, "activate", "A", card="stone", ability=0) == "summoning_sick"
    t = table(edition, battlefield=[h("forest", "Forest", controller="A", sick=True),
                                    h("plane", "Living Plane", controller="B")])
    assert refused(t, "activate", "A", card="forest", ability=0) == "summoning_sick"


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_animated_factory_played_this_turn_cannot_tap(edition):
    # Mishra's Factory played this turn: its {1} animation has no {T} and is fine; once it is
    # a creature its {T} abilities wait, mana ability included.
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("mf", "Mishra's Factory", controller="A", sick=True)])
    t.do("activate", "A", card="mf", ability=1)
    resolve(t)
    assert "Creature" in t.find("mf")["types"]
    assert refused(t, "activate", "A", card="mf", ability=0) == "summoning_sick"
    assert refused(t, "activate", "A", card="mf", ability=2, targets=["mf"]) == "summoning_sick"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_creature_gained_this_turn_is_summoning_sick(edition):
    # Control Magic: the new controller has not controlled it since their turn began.
    t = table(edition, a={"hand": [h("cm", "Control Magic")], "mana_pool": {"U": 4}},
              battlefield=[h("ps", "Prodigal Sorcerer", controller="B")])
    t.do("cast", "A", card="cm", targets=["ps"])
    resolve(t)
    assert t.find("ps")["controller"] == "A"
    assert refused(t, "activate", "A", card="ps", ability=0, targets=["B"]) == "summoning_sick"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_creature_cast_in_ones_turn_stays_sick_through_the_opponents_turn(edition):
    # "Since their most recent turn began": in the opponent's turn, that is still the turn in
    # which the Elves arrived.
    t = table(edition, a={"hand": [h("elves", "Llanowar Elves")], "mana_pool": {"G": 1}})
    t.do("cast", "A", card="elves")
    resolve(t)
    t.advance("upkeep", turn=4)
    t.pass_priority()
    assert t.obs()["turn"] == {"number": 4, "active": "B", "phase": "beginning",
                               "step": "upkeep", "priority": "A"}
    assert refused(t, "activate", "A", card="elves", ability=0) == "summoning_sick"
    t.advance("upkeep", turn=5)
    t.do("activate", "A", card="elves", ability=0)
    assert t.player("A")["mana_pool"]["G"] == 1


# -- activated abilities: restrictions, control, indices --------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_an_ability_only_during_combat(edition):
    # Jade Statue: "Activate only during combat" (2004: "Play this ability only during
    # combat"): any step of the combat phase, either player's turn.
    t = table(edition, a={"mana_pool": {"C": 2}},
              battlefield=[h("statue", "Jade Statue", controller="A")])
    assert refused(t, "activate", "A", card="statue", ability=0) == "not_during_combat"
    t = in_opponents_main(edition, a={"mana_pool": {"C": 2}},
                          battlefield=[h("statue", "Jade Statue", controller="A")])
    assert refused(t, "activate", "A", card="statue", ability=0) == "not_during_combat"
    t = table(edition, "beginning_of_combat", a={"mana_pool": {"C": 2}},
              battlefield=[h("statue", "Jade Statue", controller="A")])
    t.do("activate", "A", card="statue", ability=0)
    assert stack_cards(t) == ["Jade Statue"]
    t = table(edition, "end_of_combat", active="B", a={"mana_pool": {"C": 2}},
              battlefield=[h("statue", "Jade Statue", controller="A")])
    t.pass_priority()
    t.do("activate", "A", card="statue", ability=0)
    assert stack_cards(t) == ["Jade Statue"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_only_the_controller_activates_a_permanents_abilities(edition):
    t = table(edition, active="B",
              battlefield=[h("ps", "Prodigal Sorcerer", controller="A", owner="B"),
                           h("theirs", "Prodigal Sorcerer", controller="B")])
    t.pass_priority()  # A has priority in B's turn: abilities are instant speed
    assert refused(t, "activate", "A", card="theirs", ability=0, targets=["B"]) \
        == "not_controller"
    # B owns the other Sorcerer but A controls it.
    t = table(edition, active="B",
              battlefield=[h("ps", "Prodigal Sorcerer", controller="A", owner="B")])
    assert refused(t, "activate", "B", card="ps", ability=0, targets=["A"]) \
        == "not_controller"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_granted_ability_belongs_to_the_creatures_controller(edition):
    # Hermetic Study (B's Aura) on A's creature: the creature has the ability, so A activates
    # it, and B, who controls only the Aura, cannot; the Aura itself has no ability.
    t = table(edition, active="B",
              battlefield=[h("bears", "Grizzly Bears", controller="A"),
                           h("study", "Hermetic Study", controller="B", attached_to="bears")])
    assert refused(t, "activate", "B", card="bears", ability=0, targets=["A"]) \
        == "not_controller"
    assert refused(t, "activate", "B", card="study", ability=0, targets=["A"]) \
        == "no_such_ability"
    t.pass_priority()
    t.do("activate", "A", card="bears", ability=0, targets=["B"])
    assert stack_cards(t) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_ability_indices_count_printed_then_granted_abilities(edition):
    t = table(edition, battlefield=[h("ps", "Prodigal Sorcerer", controller="A"),
                                    h("study", "Hermetic Study", controller="A",
                                      attached_to="ps")])
    assert refused(t, "activate", "A", card="ps", ability=2, targets=["B"]) == "no_such_ability"
    assert refused(t, "activate", "A", card="ps", ability=99, targets=["B"]) \
        == "no_such_ability"
    # In process an index may be negative (the wire refuses it): not Python's last ability.
    assert refused_action(t, Action("activate", "A", card=t.id("ps"), ability=-1,
                                    targets=("B",))) == "no_such_ability"
    t.do("activate", "A", card="ps", ability=1, targets=["B"])  # the granted one
    assert refused(t, "activate", "A", card="ps", ability=0, targets=["B"]) == "already_tapped"


@pytest.mark.parametrize("edition", EDITIONS)
def test_abilities_of_what_is_not_on_the_battlefield(edition):
    t = table(edition, a={"hand": [h("tri", "Triskelion")]},
              battlefield=[h("bare", "Triskelion", controller="A")])
    assert refused(t, "activate", "A", card="tri", ability=0, targets=["B"]) \
        == "not_on_battlefield"
    # Set up without its counters: "Remove a +1/+1 counter" cannot be paid.
    assert refused(t, "activate", "A", card="bare", ability=0, targets=["B"]) \
        == "no_counter_to_remove"


@pytest.mark.parametrize("edition", EDITIONS)
def test_targets_are_chosen_before_costs_are_paid(edition):
    # Mogg Fanatic may target itself: targets are chosen before its sacrifice is paid (modern
    # 601.2c before 601.2h; the 2004 steps of playing an ability come in the same order). Icy
    # Manipulator may target itself too.
    t = table(edition, battlefield=[h("mogg", "Mogg Fanatic", controller="A")])
    t.do("activate", "A", card="mogg", ability=0, targets=["mogg"])
    assert stack_cards(t) == ["Mogg Fanatic"]
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("icy", "Icy Manipulator", controller="A"),
                           h("anthem", "Glorious Anthem", controller="B")])
    assert refused(t, "activate", "A", card="icy", ability=0, targets=["anthem"]) \
        == "illegal_target"
    t.do("activate", "A", card="icy", ability=0, targets=["icy"])
    assert stack_cards(t) == ["Icy Manipulator"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_target_restrictions_read_current_power_and_toughness(edition):
    # Pendelhaven: target 1/1 creature; Glorious Anthem makes B's Raging Goblin a 2/2.
    t = table(edition, battlefield=[h("pen", "Pendelhaven", controller="A"),
                                    h("mine", "Raging Goblin", controller="A"),
                                    h("theirs", "Raging Goblin", controller="B"),
                                    h("anthem", "Glorious Anthem", controller="B")])
    assert refused(t, "activate", "A", card="pen", ability=1, targets=["theirs"]) \
        == "illegal_target"
    assert refused(t, "activate", "A", card="pen", ability=1, targets=["pen"]) \
        == "illegal_target"
    t.do("activate", "A", card="pen", ability=1, targets=["mine"])
    assert stack_cards(t) == ["Pendelhaven"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("target", "reason"), [
    ("orn", None), ("bears", None), ("giant", "illegal_target"), ("sg", "illegal_target"),
    ("theirs", "illegal_target")])
def test_stone_giant_targets_a_creature_you_control_smaller_than_its_power(edition, target,
                                                                          reason):
    # Stone Giant (3/4): "target creature you control with toughness less than Stone Giant's
    # power": Ornithopter (0/2) and Grizzly Bears (2/2) yes; Hill Giant (3/3), itself (x/4)
    # and an opponent's creature no.
    t = table(edition, battlefield=[h("sg", "Stone Giant", controller="A"),
                                    h("orn", "Ornithopter", controller="A"),
                                    h("bears", "Grizzly Bears", controller="A"),
                                    h("giant", "Hill Giant", controller="A"),
                                    h("theirs", "Ornithopter", controller="B")])
    if reason is None:
        t.do("activate", "A", card="sg", ability=0, targets=[target])
        assert stack_cards(t) == ["Stone Giant"]
    else:
        assert refused(t, "activate", "A", card="sg", ability=0, targets=[target]) == reason


@pytest.mark.parametrize("edition", EDITIONS)
def test_factory_pumps_an_assembly_worker_itself_included(edition):
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("mf", "Mishra's Factory", controller="A"),
                           h("bears", "Grizzly Bears", controller="A")])
    t.do("activate", "A", card="mf", ability=1)
    resolve(t)
    assert refused(t, "activate", "A", card="mf", ability=2, targets=["bears"]) \
        == "illegal_target"
    t.do("activate", "A", card="mf", ability=2, targets=["mf"])
    assert stack_cards(t) == ["Mishra's Factory"]


# -- loyalty abilities (modern) ----------------------------------------------------------------

def _elspeth(step: str = "precombat_main", loyalty: int = 4, **kw: Any) -> Table:
    kw.setdefault("battlefield", [])
    kw["battlefield"] = [h("el", "Elspeth, Knight-Errant", controller="A", sick=True,
                           counters={"loyalty": loyalty}),
                         h("bears", "Grizzly Bears", controller="A"), *kw["battlefield"]]
    return table("modern", step, **kw)


def test_one_loyalty_ability_per_planeswalker_per_turn():
    # Loyalty abilities: sorcery speed, once per turn per permanent; summoning sickness is no
    # matter (no {T}).
    t = _elspeth()
    t.do("activate", "A", card="el", ability=0)
    resolve(t)
    assert t.find("el")["counters"] == {"loyalty": 5}
    assert refused(t, "activate", "A", card="el", ability=1, targets=["bears"]) \
        == "loyalty_used"
    t.advance("precombat_main", turn=5)
    t.do("activate", "A", card="el", ability=1, targets=["bears"])
    assert stack_cards(t) == ["Elspeth, Knight-Errant"]


def test_a_minus_loyalty_ability_needs_the_counters_to_remove():
    t = _elspeth(loyalty=7)
    assert refused(t, "activate", "A", card="el", ability=2) == "not_enough_loyalty"
    t = _elspeth(loyalty=8)
    t.do("activate", "A", card="el", ability=2)
    assert stack_cards(t) == ["Elspeth, Knight-Errant"]


def test_loyalty_abilities_are_sorcery_speed_with_each_timing_reason():
    t = _elspeth(active="B")
    t.pass_priority()
    assert refused(t, "activate", "A", card="el", ability=0) == "not_your_turn"
    t = _elspeth("beginning_of_combat")
    assert refused(t, "activate", "A", card="el", ability=0) == "not_main_phase"
    t = _elspeth(a={"hand": [h("bolt", "Lightning Bolt")], "mana_pool": {"R": 1}})
    t.do("cast", "A", card="bolt", targets=["B"])
    assert refused(t, "activate", "A", card="el", ability=0) == "stack_not_empty"


def test_an_opponents_planeswalker_is_not_yours_to_activate():
    t = table("modern", battlefield=[h("el", "Elspeth, Knight-Errant", controller="B",
                                       counters={"loyalty": 4})])
    assert refused(t, "activate", "A", card="el", ability=0) == "not_controller"


# -- target kinds ----------------------------------------------------------------------------

def _targets_table(edition: str) -> Table:
    hand = [h("insp", "Inspiration"), h("growth", "Giant Growth"), h("cs", "Counterspell"),
            h("vin", "Vindicate"), h("terror", "Terror"), h("lace", "Purelace"),
            h("plow", "Plow Under"), h("div", "Divination" if edition == "modern"
                                       else "Brainstorm")]
    return table(edition, a={"hand": hand, "graveyard": [h("dead", "Grizzly Bears")],
                             "mana_pool": {"U": 6, "G": 3, "W": 2, "B": 2, "C": 4}},
                 b={"hand": [h("held", "Grizzly Bears")]},
                 battlefield=[h("giant", "Hill Giant", controller="B"),
                              h("forest", "Forest", controller="B"),
                              h("thopter", "Ornithopter", controller="B"),
                              h("skeletons", "Drudge Skeletons", controller="B"),
                              h("mine", "Forest", controller="A")])


@pytest.mark.parametrize("edition", EDITIONS)
def test_target_player_takes_no_object(edition):
    t = _targets_table(edition)
    assert refused(t, "cast", "A", card="insp", targets=["giant"]) == "illegal_target"
    assert refused(t, "cast", "A", card="insp", targets=["insp"]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("target", ["B", "forest", "dead", "held", 99999])
def test_target_creature_takes_only_a_creature_on_the_battlefield(edition, target):
    # Not a player, a land, a creature card in a graveyard or in a hand, or an id of nothing.
    t = _targets_table(edition)
    assert refused(t, "cast", "A", card="growth", targets=[target]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_target_creature_does_not_take_a_creature_spell(edition):
    t = table(edition, a={"hand": [h("kavu", "Raging Kavu"), h("growth", "Giant Growth")],
                          "mana_pool": {"R": 1, "G": 2, "C": 1}})
    t.do("cast", "A", card="kavu")
    assert refused(t, "cast", "A", card="growth", targets=["kavu"]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_phased_out_creature_cannot_be_targeted(edition):
    # Phased out, it is out of play (2004: the phased-out zone, 217.8) or treated as though it
    # does not exist (modern); nor may its controller activate its abilities.
    t = table(edition, active="B",
              a={"hand": [h("growth", "Giant Growth"), h("bolt", "Lightning Bolt")],
                 "mana_pool": {"G": 1, "R": 1}},
              b={"mana_pool": {"U": 4}},
              battlefield=[h("efreet", "Rainbow Efreet", controller="B")])
    t.do("activate", "B", card="efreet", ability=0)
    resolve(t)
    assert refused(t, "activate", "B", card="efreet", ability=0) == "not_on_battlefield"
    t.pass_priority()
    assert refused(t, "cast", "A", card="growth", targets=["efreet"]) == "illegal_target"
    assert refused(t, "cast", "A", card="bolt", targets=["efreet"]) == "illegal_target"


@pytest.mark.parametrize("edition", EDITIONS)
def test_target_spell_takes_neither_a_permanent_nor_a_player_nor_an_ability(edition):
    t = table(edition, a={"hand": [h("cs", "Counterspell"), h("soul", "Remove Soul"),
                                   h("lace", "Purelace"), h("bolt", "Lightning Bolt")],
                          "mana_pool": {"U": 4, "W": 1, "R": 1}},
              battlefield=[h("ps", "Prodigal Sorcerer", controller="A"),
                           h("giant", "Hill Giant", controller="B")])
    t.do("activate", "A", card="ps", ability=0, targets=["B"])
    ability = t.obs()["stack"][0]["id"]
    for target in ("giant", "B", ability, "soul"):
        assert refused(t, "cast", "A", card="cs", targets=[target]) == "illegal_target"
    assert refused(t, "cast", "A", card="lace", targets=[ability]) == "illegal_target"
    assert refused(t, "cast", "A", card="lace", targets=["B"]) == "illegal_target"
    t.do("cast", "A", card="bolt", targets=["B"])
    # Remove Soul: target creature spell.
    assert refused(t, "cast", "A", card="soul", targets=["bolt"]) == "illegal_target"
    t.do("cast", "A", card="cs", targets=["bolt"])  # one's own spell is a spell too
    assert stack_cards(t) == ["Prodigal Sorcerer", "Lightning Bolt", "Counterspell"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_more_target_kinds(edition):
    t = _targets_table(edition)
    # Vindicate: target permanent.
    assert refused(t, "cast", "A", card="vin", targets=["B"]) == "illegal_target"
    assert refused(t, "cast", "A", card="vin", targets=["dead"]) == "illegal_target"
    # Terror: nonartifact, nonblack creature.
    assert refused(t, "cast", "A", card="terror", targets=["thopter"]) == "illegal_target"
    assert refused(t, "cast", "A", card="terror", targets=["skeletons"]) == "illegal_target"
    # Plow Under: two target lands, two different ones.
    assert refused(t, "cast", "A", card="plow", targets=["forest", "forest"]) \
        == "duplicate_target"
    assert refused(t, "cast", "A", card="plow", targets=["forest"]) == "wrong_target_count"
    assert refused(t, "cast", "A", card="plow", targets=["forest", "giant"]) \
        == "illegal_target"
    # A spell without targets takes none.
    assert refused(t, "cast", "A", card="div", targets=["A"]) == "wrong_target_count"
    t.do("cast", "A", card="plow", targets=["forest", "mine"])
    assert stack_cards(t) == ["Plow Under"]


def test_any_target_includes_a_planeswalker_target_creature_does_not():
    # Modern "any target": a creature, a player or a planeswalker.
    t = table("modern", a={"hand": [h("bolt", "Lightning Bolt"), h("growth", "Giant Growth")],
                           "mana_pool": {"R": 1, "G": 1}},
              battlefield=[h("el", "Elspeth, Knight-Errant", controller="B",
                             counters={"loyalty": 4}),
                           h("ps", "Prodigal Sorcerer", controller="A")])
    assert refused(t, "cast", "A", card="growth", targets=["el"]) == "illegal_target"
    t.do("activate", "A", card="ps", ability=0, targets=["el"])
    t.do("cast", "A", card="bolt", targets=["el"])
    assert stack_cards(t) == ["Prodigal Sorcerer", "Lightning Bolt"]


def test_modern_lava_axe_may_target_a_planeswalker():
    # Found by this review: the modern Oracle's "target player or planeswalker" was
    # implemented with a player-only target.
    t = table("modern", a={"hand": [h("axe", "Lava Axe")], "mana_pool": {"R": 5}},
              battlefield=[h("el", "Elspeth, Knight-Errant", controller="B",
                             counters={"loyalty": 4})])
    t.do("cast", "A", card="axe", targets=["el"])
    assert stack_cards(t) == ["Lava Axe"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_ability_with_a_target_needs_one(edition):
    t = table(edition, battlefield=[h("ps", "Prodigal Sorcerer", controller="A"),
                                    h("stone", "Mind Stone", controller="A")])
    assert refused(t, "activate", "A", card="ps", ability=0, targets=[]) == "wrong_target_count"
    assert refused(t, "activate", "A", card="ps", ability=0, targets=["A", "B"]) \
        == "wrong_target_count"
    assert refused(t, "activate", "A", card="stone", ability=0, targets=["B"]) \
        == "wrong_target_count"


# -- payment -----------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_pay_with_auto_pays_from_the_sources(edition):
    t = table(edition, a={"hand": [h("vin", "Vindicate")]},
              battlefield=[*lands("Plains", "Swamp", "Forest"),
                           h("giant", "Hill Giant", controller="B")])
    t.do("cast", "A", card="vin", targets=["giant"], pay_with="auto")
    assert stack_cards(t) == ["Vindicate"]
    assert all(p["tapped"] for p in t.obs()["battlefield"] if p["card"] != "Hill Giant")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_land_tapped_to_pay_may_be_the_target(edition):
    # Targets are chosen before the cost is paid: Vindicate may target a land that pays for it.
    t = table(edition, a={"hand": [h("vin", "Vindicate")]},
              battlefield=lands("Plains", "Swamp", "Forest"))
    t.do("cast", "A", card="vin", targets=["forest-3"],
         pay_with=["plains-1", "swamp-2", "forest-3"])
    assert stack_cards(t) == ["Vindicate"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("source", ["theirs", "tapped", "elves", "bolt"])
def test_pay_with_names_only_the_players_usable_mana_sources(edition, source):
    # An opponent's land, a tapped land, a summoning-sick Llanowar Elves, a card in hand.
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears"), h("bolt", "Lightning Bolt")]},
              battlefield=[h("forest", "Forest", controller="A"),
                           h("tapped", "Forest", controller="A", tapped=True),
                           h("theirs", "Forest", controller="B"),
                           h("elves", "Llanowar Elves", controller="A", sick=True)])
    assert refused(t, "cast", "A", card="bears", pay_with=["forest", source]) \
        == "not_a_mana_source"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sick_land_creature_is_no_mana_source_a_sick_artifact_or_hasty_elf_is(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=[h("forest", "Forest", controller="A", sick=True),
                           h("mountain", "Mountain", controller="A"),
                           h("plane", "Living Plane", controller="B")])
    assert refused(t, "cast", "A", card="bears", pay_with=["forest", "mountain"]) \
        == "not_a_mana_source"
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=[h("forest", "Forest", controller="A"),
                           h("stone", "Mind Stone", controller="A", sick=True)])
    t.do("cast", "A", card="bears", pay_with=["forest", "stone"])
    assert stack_cards(t) == ["Grizzly Bears"]
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")]},
              battlefield=[h("forest", "Forest", controller="A"),
                           h("elves", "Llanowar Elves", controller="A", sick=True),
                           h("cc", "Concordant Crossroads", controller="B")])
    t.do("cast", "A", card="bears", pay_with=["forest", "elves"])
    assert stack_cards(t) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_source_cannot_tap_for_mana_and_for_its_own_ability(edition):
    # Mind Stone: {1}, {T}, sacrifice: draw. Its {T} is paid once: its mana can't pay the {1}.
    t = table(edition, battlefield=[h("stone", "Mind Stone", controller="A")])
    assert refused(t, "activate", "A", card="stone", ability=1, pay_with=["stone"]) \
        == "already_tapped"
    assert refused(t, "activate", "A", card="stone", ability=1, pay_with="auto") \
        == "cannot_pay"
    # Mishra's Factory: its {1} animation has no {T}, so its own mana may pay it; its {T}
    # pump may not be paid with its mana.
    t = table(edition, battlefield=[h("mf", "Mishra's Factory", controller="A")])
    t.do("activate", "A", card="mf", ability=1, pay_with=["mf"])
    resolve(t)
    assert t.find("mf")["tapped"] and "Creature" in t.find("mf")["types"]
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("mf", "Mishra's Factory", controller="A")])
    t.do("activate", "A", card="mf", ability=1)
    resolve(t)
    assert refused(t, "activate", "A", card="mf", ability=2, targets=["mf"],
                   pay_with=["mf"]) == "already_tapped"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_dual_land_pays_one_colour_at_a_time(edition):
    # Tropical Island taps for {G} or {U}, not both: with a Forest it can't pay {U}{U}.
    t = table(edition, a={"hand": [h("bolt", "Lightning Bolt"), h("cs", "Counterspell")],
                          "mana_pool": {"R": 1}},
              battlefield=[h("trop", "Tropical Island", controller="A"),
                           *lands("Forest", "Island")])
    t.do("cast", "A", card="bolt", targets=["B"])
    assert refused(t, "cast", "A", card="cs", targets=["bolt"],
                   pay_with=["trop", "forest-1"]) == "cannot_pay"
    t.do("cast", "A", card="cs", targets=["bolt"], pay_with=["trop", "island-2"])
    assert stack_cards(t) == ["Lightning Bolt", "Counterspell"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("payment", [{"R": 1, "G": 1}, {"G": 1}, {"G": 3}, {"Q": 2},
                                     {"G": 1, "C": 1}])
def test_a_payment_that_does_not_pay_the_cost_is_bad_payment(edition, payment):
    # {1}{G} from a pool of GG: another colour, too little, too much, no such mana, mana the
    # pool lacks.
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"G": 2}})
    assert refused(t, "cast", "A", card="bears", payment=payment) == "bad_payment"
    t.do("cast", "A", card="bears", payment={"G": 2})
    assert stack_cards(t) == ["Grizzly Bears"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_payment_with_sources_counts_their_mana(edition):
    t = table(edition, a={"hand": [h("bears", "Grizzly Bears")], "mana_pool": {"R": 1}},
              battlefield=lands("Forest"))
    assert refused(t, "cast", "A", card="bears", pay_with=["forest-1"], payment={"G": 2}) \
        == "bad_payment"
    t.do("cast", "A", card="bears", pay_with=["forest-1"], payment={"G": 1, "R": 1})
    assert sum(t.player("A")["mana_pool"].values()) == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_free_spell_takes_an_empty_payment_only(edition):
    t = table(edition, a={"hand": [h("thopter", "Ornithopter")], "mana_pool": {"C": 1}})
    assert refused(t, "cast", "A", card="thopter", payment={"C": 1}) == "bad_payment"
    t.do("cast", "A", card="thopter", payment={})
    assert t.player("A")["mana_pool"]["C"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_land_play_takes_no_payment(edition):
    # On the wire, play_land has no payment field at all: a malformed request. An engine-level
    # action that carries one is refused as unexpected_payment, pay_with likewise.
    t = table(edition, a={"hand": [h("land", "Forest")]}, battlefield=lands("Forest"))
    with pytest.raises(BadRequestError):
        t.engine.perform(t.action("play_land", "A", card="land", payment={"G": 1}))
    card = t.id("land")
    for action in (Action("play_land", "A", card=card, payment=(("G", 1),)),
                   Action("play_land", "A", card=card, payment=()),
                   Action("play_land", "A", card=card, pay_with=(t.id("forest-1"),)),
                   Action("play_land", "A", card=card, pay_with="auto"),
                   Action("pass", "A", payment=(("G", 1),))):
        assert refused_action(t, action) == "unexpected_payment"
    t.do("play_land", "A", card="land")
    assert t.player("A")["lands_played"] == 1


# -- a refusal changes nothing, not even what is hidden ---------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_a_run_of_refusals_leaves_no_trace(edition):
    # Twin games: one suffers many refusals (several of them work out a payment plan, which
    # lends the pool the sources' mana for a while), then both cast the same spell: the games
    # must stay identical, events included.
    def setup() -> Table:
        return table(edition, a={"hand": [h("bears", "Grizzly Bears"), h("fb", "Fireball"),
                                          h("kt", "Kavu Titan")],
                                 "graveyard": [h("tt", "Think Twice"), h("dead", "Forest")]},
                     b={"hand": [h("bolt", "Lightning Bolt")]},
                     battlefield=[*lands("Forest", "Mountain"),
                                  h("stone", "Mind Stone", controller="A"),
                                  h("theirs", "Forest", controller="B")])
    tried, clean = setup(), setup()
    assert tried.obs() == clean.obs()
    reasons = [
        refused(tried, "cast", "A", card="kt", kicked=True, pay_with="auto"),
        refused(tried, "cast", "A", card="fb", targets=["B", "A"], x=2,
                pay_with=["forest-1", "mountain-2", "stone"]),
        refused(tried, "cast", "A", card="bears", pay_with=["forest-1", "theirs"]),
        refused(tried, "cast", "A", card="bears", pay_with=["forest-1", "mountain-2"],
                payment={"G": 2}),
        refused(tried, "activate", "A", card="stone", ability=1, pay_with=["stone"]),
        refused(tried, "cast", "A", card="tt", pay_with=["forest-1", "mountain-2"]),
        refused(tried, "play_land", "A", card="dead"),
        refused(tried, "cast", "B", card="bolt", targets=["A"]),
        refused(tried, "cast", "A", card="fb", targets=["B", "B"], x=0),
    ]
    assert reasons == ["cannot_pay", "cannot_pay", "not_a_mana_source", "bad_payment",
                       "already_tapped", "cannot_pay", "not_in_hand", "not_your_priority",
                       "duplicate_target"]
    for t in (tried, clean):
        t.do("cast", "A", card="bears", pay_with="auto")
        resolve(t)
    assert tried.obs() == clean.obs()
    assert tried.events == clean.events
    assert tried.legal() == clean.legal()
