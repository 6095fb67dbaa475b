"""The reference engine's one home for legality (reference_engine/legality.py), held to its
promise over many random states of random games over the whole card pool, both editions:

- every listed action is accepted (``check`` raises nothing, and the action chosen to go on
  with is performed through ``perform``, never ``apply``);
- an action is accepted exactly when it is listed, save the abbreviation the protocol allows
  (more targets for "any number of targets"), which gets an oracle of its own;
- every refusal's reason names a check that really fails, judged by predicates written here
  independently of the engine's checks;
- checking changes nothing;
- the targets listed for a target specification are exactly those ``target_legal`` accepts.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from reference_engine.actions import Action
from reference_engine.constants import (
    BATTLEFIELD,
    COMBAT,
    HAND,
    MAIN_STEPS,
    PHASE_OF_STEP,
    PLAYERS,
)
from reference_engine.engine import supported_cards
from reference_engine.errors import IllegalActionError
from reference_engine.game import Game
from reference_engine.legality import DECISION_KINDS, LISTED_TARGETS, MESSAGES, stray_fields
from reference_engine.mana import can_pay, total_due
from reference_engine.objects import GameObject
from reference_engine.registry import implementation
from reference_engine.selfplay import random_deck
from reference_engine.setup import new_game
from spec.cardpool import default_pool

EDITIONS = ("cr2004", "modern")
GAMES = 12
STATES_PER_GAME = 40
VARIANTS_PER_STATE = 60


def _refusal(game: Game, action: Action) -> str | None:
    try:
        game.check(action)
    except IllegalActionError as exc:
        return exc.reason
    return None


def _sorcery_ok(game: Game, name: str) -> bool:
    return game.active == name and game.step in MAIN_STEPS and not game.stack


def _obj(game: Game, action: Action) -> GameObject | None:
    return game.objects.get(action.card) if action.card is not None else None


def _spell_specs(obj: GameObject, count: int) -> tuple[Any, ...] | None:
    impl = obj.impl
    if impl.enchant is not None:
        return (impl.enchant,)
    spell = impl.spell
    if spell is None:
        return ()
    if spell.max_targets:
        return (spell.targets[0],) * count if 1 <= count <= spell.max_targets else None
    return spell.targets


def _targets_fail(game: Game, obj: GameObject, specs: tuple[Any, ...], action: Action,
                  *, equip: bool = False) -> bool:
    """Some target is not among the candidates the listing draws from (or is the object
    itself where that is forbidden)."""
    for spec, target in zip(specs, action.targets, strict=False):
        if target not in game.target_candidates(spec, action.player, obj):
            return True
        if (equip or obj.impl.enchant is not None) and target == obj.id:
            return True
    return False


def _ability(game: Game, action: Action) -> Any:
    obj = _obj(game, action)
    assert obj is not None and action.ability is not None
    return game.abilities(obj)[action.ability]


def _timing_holds(game: Game, code: str, name: str) -> bool:
    if code == "not_your_turn":
        return game.active != name
    if code == "not_main_phase":
        return game.active == name and game.step not in MAIN_STEPS
    return game.active == name and game.step in MAIN_STEPS and bool(game.stack)


def _reason_holds(game: Game, action: Action, code: str) -> bool:
    """Whether the check ``code`` names really fails for ``action`` (its own predicate)."""
    decision = game.decision
    name = action.player
    obj = _obj(game, action)
    if code == "not_your_priority":
        return decision is not None and decision.kind == "priority" and decision.player != name
    if code == "not_your_decision":
        return decision is not None and decision.kind != "priority" and (
            decision.player != name)
    if code == "no_such_decision":
        return decision is not None and decision.kind == "priority" and (
            action.kind in DECISION_KINDS)
    if code == "not_an_option":
        return decision is not None and decision.kind != "priority" and (
            action not in (decision.options or ()))
    if code in ("unexpected_field", "unexpected_payment"):
        return bool(stray_fields(action))
    if code == "not_in_hand":
        player = game.players[name]
        return obj is None or (obj not in player.hand and obj not in game.castable_zones(name)
                               ) or (action.kind == "play_land" and obj in player.graveyard)
    if code == "not_a_land":
        return obj is not None and "Land" not in game.chars(obj).types
    if code == "land_not_cast":
        return obj is not None and "Land" in game.chars(obj).types
    if code in ("not_your_turn", "not_main_phase", "stack_not_empty"):
        if action.kind == "cast":
            assert obj is not None
            if "Instant" in game.chars(obj).types or game.has(obj, "flash"):
                return False
        if action.kind == "activate":
            spec = _ability(game, action)
            if not (spec.sorcery_speed or spec.equip or spec.loyalty is not None):
                return False
        return _timing_holds(game, code, name)
    if code == "cant_play_lands":
        return bool(game.player_rules(name)["cant_play_lands"])
    if code == "no_land_play_left":
        return game.players[name].lands_played >= game.player_rules(name)["land_plays"]
    if code == "no_kicker":
        return action.kicked and obj is not None and obj.impl.kicker is None
    if code in ("x_required", "x_not_allowed", "cannot_pay", "wrong_target_count",
                "duplicate_target", "illegal_target") and action.kind == "cast":
        assert obj is not None
        cost = game.spell_cost(obj, len(action.targets), action.kicked)
        if code == "x_required":
            return bool(cost.x) and action.x is None
        if code == "x_not_allowed":
            return not cost.x and action.x is not None
        if code == "cannot_pay":
            return not can_pay(game.players[name].pool, cost, action.x or 0)
        specs = _spell_specs(obj, len(action.targets))
        if code == "wrong_target_count":
            return specs is None or len(specs) != len(action.targets)
        if code == "duplicate_target":
            return len(set(action.targets)) != len(action.targets)
        return specs is not None and _targets_fail(game, obj, specs, action)
    if code == "not_on_battlefield":
        return obj is None or obj.zone != BATTLEFIELD or obj.phased_out
    if code == "not_controller":
        return obj is not None and obj.controller != name
    if code == "no_such_ability":
        return obj is not None and (action.ability is None
                                    or action.ability >= len(game.abilities(obj)))
    if action.kind != "activate" or obj is None:
        return False
    spec = _ability(game, action)
    if code == "already_tapped":
        return spec.tap and obj.tapped
    if code == "summoning_sick":
        return spec.tap and game.is_sick(obj) and "Creature" in game.chars(obj).types and (
            not game.has(obj, "haste"))
    if code == "not_during_combat":
        return spec.during_combat and PHASE_OF_STEP[game.step] != COMBAT
    if code == "loyalty_used":
        return spec.loyalty is not None and obj.loyalty_used == game.turn
    if code == "not_enough_loyalty":
        return spec.loyalty is not None and obj.counters.get("loyalty", 0) < -spec.loyalty
    if code == "no_counter_to_remove":
        return spec.remove_counter is not None and not obj.counters.get(spec.remove_counter)
    if code == "not_attached":
        return spec.unattach
    if code == "x_required":
        return spec.cost is not None and bool(spec.cost.x) and action.x is None
    if code == "x_not_allowed":
        return (spec.cost is None or not spec.cost.x) and action.x is not None
    if code == "cannot_pay":
        return spec.cost is not None and not can_pay(game.players[name].pool, spec.cost,
                                                     action.x or 0)
    if code == "wrong_target_count":
        return len(action.targets) != len(spec.targets)
    if code == "duplicate_target":
        return len(set(action.targets)) != len(action.targets)
    if code == "illegal_target":
        return _targets_fail(game, obj, spec.targets, action, equip=spec.equip)
    return False


def _many_targets_legal(game: Game, action: Action, listed: set[Action]) -> bool | None:
    """The oracle for a cast with more targets than the list shows ("any number of
    targets"), or None if ``action`` is not one."""
    obj = _obj(game, action)
    if action.kind != "cast" or obj is None or obj.impl.spell is None or (
            not obj.impl.spell.max_targets) or len(action.targets) <= LISTED_TARGETS:
        return None
    if len(set(action.targets)) != len(action.targets) or (
            len(action.targets) > obj.impl.spell.max_targets):
        return False
    cost = game.spell_cost(obj, len(action.targets), action.kicked)
    if (action.x is None) != (not cost.x):
        return False
    singles = {a.targets[0] for a in listed if a.kind == "cast" and a.card == action.card
               and len(a.targets) == 1 and a.kicked == action.kicked}
    return set(action.targets) <= singles and can_pay(
        game.players[action.player].pool, cost, action.x or 0)


def _universe(game: Game) -> list[int | str]:
    # A spell's stack item shares its card's id.
    return list(dict.fromkeys([*game.objects, *(item.id for item in game.stack), *PLAYERS]))


def _variants(game: Game, listed: list[Action], rng: random.Random) -> list[Action]:
    """Actions near the listed ones and far from them: other targets, cards, abilities,
    players, X values, kicks, stray fields, and every kind of action."""
    universe = _universe(game)
    ids = list(game.objects) or [1]
    out: list[Action] = []
    bases = [a._replace(pay_with=None) for a in listed if a.kind != "concede"] or [
        Action("pass", "A")]
    decision = game.decision
    actor = decision.player if decision is not None else "A"
    hand = [o.id for o in game.players[actor].hand]
    for _ in range(VARIANTS_PER_STATE):
        base = rng.choice(bases)
        roll = rng.choice((0, 0, 1, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 13, 13,
                           14, 14, 15, 15))
        if roll == 0:
            variant = base._replace(targets=tuple(rng.sample(universe, min(
                len(universe), rng.randrange(1, 4)))))
        elif roll == 1 and base.targets:
            targets = list(base.targets)
            targets[rng.randrange(len(targets))] = rng.choice(universe)
            variant = base._replace(targets=tuple(targets))
        elif roll == 2:
            variant = base._replace(card=rng.choice(ids))
        elif roll == 3:
            variant = base._replace(x=rng.choice((None, 0, 1, 2, 3, 7)))
        elif roll == 4:
            variant = base._replace(kicked=not base.kicked)
        elif roll == 5:
            variant = base._replace(player="B" if base.player == "A" else "A")
        elif roll == 6:
            variant = base._replace(ability=rng.choice((None, 0, 1, 2, 3)))
        elif roll == 7:
            variant = base._replace(targets=base.targets + base.targets[:1])
        elif roll == 8:
            variant = base._replace(targets=base.targets[:-1])
        elif roll == 9:
            kind = rng.choice(("play_land", "cast", "activate", "pass", "attack", "keep"))
            variant = Action(kind, rng.choice(PLAYERS), card=rng.choice(ids),
                             ability=0 if kind == "activate" else None)
        elif roll == 10:
            variant = base._replace(attacker=rng.choice(ids))
        elif roll == 12 and hand:
            variant = Action("cast", actor, card=rng.choice(hand), targets=tuple(rng.sample(
                universe, min(len(universe), rng.randrange(3)))), x=rng.choice((None, 0, 2)))
        elif roll == 13 and hand:
            variant = Action("play_land", actor, card=rng.choice(hand))
        elif roll == 14:
            # Someone else's permanent, by the player who must act.
            obj = game.objects[rng.choice(ids)]
            variant = Action("activate", actor, card=obj.id, ability=rng.randrange(2),
                             targets=tuple(rng.sample(universe, rng.randrange(2))))
        elif roll == 15 and len(base.targets) > 1:
            targets = list(base.targets)
            targets[-1] = targets[0]
            variant = base._replace(targets=tuple(targets))
        else:
            obj = game.objects[rng.choice(ids)]
            variant = Action("activate", obj.controller, card=obj.id,
                             ability=rng.randrange(3), targets=tuple(rng.sample(
                                 universe, min(len(universe), rng.randrange(2)))))
        out.append(variant)
    return out


def _judge_state(game: Game, rng: random.Random, seen: Counter[str]) -> None:
    listed = game.legal_actions()
    core = {a for a in listed if a.pay_with is None}
    before = game.fingerprint()
    for action in listed:
        code = _refusal(game, action)
        assert code is None, f"listed {action} refused: {code}"
    for action in _variants(game, listed, rng):
        code = _refusal(game, action)
        if action.kind == "concede":
            continue
        many = _many_targets_legal(game, action, core)
        canonical = game._canonical(action)
        if many is not None:
            assert (code is None) == many, f"{action}: refused {code}, oracle says {many}"
        else:
            assert (code is None) == (canonical in core), (
                f"{action}: listed {canonical in core}, refused {code}")
        if code is not None:
            seen[code] += 1
            assert _reason_holds(game, action, code), f"{action} refused as {code}"
    assert game.fingerprint() == before, "checking an action changed the game"


def _judge_targets(game: Game) -> None:
    universe = _universe(game)
    # Each target specification with the object whose spell or ability it is (what protection
    # asks about), and without one; an Aura's also as it enchants without targeting.
    specs: dict[tuple[int, int | None, bool], tuple[Any, GameObject | None, bool]] = {}

    def add(spec: Any, obj: GameObject, enchanting: bool = False) -> None:
        specs.setdefault((id(spec), obj.id, enchanting), (spec, obj, enchanting))
        specs.setdefault((id(spec), None, False), (spec, None, False))

    for obj in list(game.objects.values()):
        impl = obj.impl
        if impl.enchant is not None:
            add(impl.enchant, obj)
            add(impl.enchant, obj, enchanting=True)
        if impl.spell is not None:
            for spec in impl.spell.targets:
                add(spec, obj)
        for ability in game.abilities(obj) if obj.zone == BATTLEFIELD else impl.abilities:
            for spec in ability.targets:
                add(spec, obj)
    for spec, source, enchanting in specs.values():
        for name in PLAYERS:
            listed = game.target_candidates(spec, name, source, enchanting=enchanting)
            legal = [t for t in universe
                     if game.target_legal(spec, name, t, source, enchanting=enchanting)]
            assert sorted(map(str, listed)) == sorted(map(str, legal)), spec


@pytest.mark.parametrize("edition", EDITIONS)
def test_listing_and_checking_agree_over_random_states(edition: str) -> None:
    seen: Counter[str] = Counter()
    states = 0
    for index in range(GAMES):
        rng = random.Random(f"{edition}-{index}")
        setup = {"start": "game", "seed": index,
                 "decks": {name: random_deck(rng, edition, decks="pool") for name in PLAYERS}}
        game, _ = new_game(edition, setup)
        judged = 0
        steps = 0
        while not game.result.over and judged < STATES_PER_GAME and steps < 3000:
            steps += 1
            listed = game.legal_actions()
            if rng.random() < 0.08:
                _judge_state(game, rng, seen)
                if judged % 5 == 0:
                    _judge_targets(game)
                judged += 1
                states += 1
            game.perform(rng.choice(listed[:-2]))
    assert states >= GAMES * 10
    # The variants reach the common refusals; a reason never seen would mean they do not.
    for code in ("not_your_priority", "not_in_hand", "illegal_target", "cannot_pay",
                 "not_on_battlefield", "wrong_target_count", "unexpected_field", "not_a_land",
                 "not_controller", "already_tapped", "x_not_allowed"):
        assert seen[code], f"no variant was refused as {code}: {dict(seen)}"



def _judge_paid_by_sources(game: Game) -> int:
    """Every cast and activation that the mana sources would pay for (listed core actions
    with the pool as if each source had added the most it can, made ``pay_with: "auto"``) is
    listed so exactly when check() accepts it: the listing finds the payable ones without a
    search when every source adds one thing, check() always searches."""
    name = game.decision.player if game.decision is not None else None
    if name is None or game.decision.kind != "priority":
        return 0
    listed = set(game.legal_actions())
    sources = game.mana_sources(name)
    if not sources:
        return 0
    player = game.players[name]
    real = player.pool
    richer = list(real)
    for _, options in sources:
        for slot in range(6):
            richer[slot] += max(made[slot] for _, _, made in options)
    player.pool = richer
    try:
        candidates = [a for a in game.legal_actions()
                      if a.kind in ("cast", "activate") and a.pay_with is None]
    finally:
        player.pool = real
    judged = 0
    for action in candidates:
        if action in listed:
            continue  # the pool pays for it as it is
        paid = action._replace(pay_with="auto")
        accepted = _refusal(game, paid) is None
        assert accepted == (paid in listed), (
            f"{paid}: accepted {accepted}, listed {paid in listed}")
        judged += 1
    return judged


@pytest.mark.parametrize("edition", EDITIONS)
def test_actions_paid_by_mana_abilities_are_listed_exactly(edition: str) -> None:
    judged = 0
    for index in range(GAMES):
        rng = random.Random(f"paid-{edition}-{index}")
        setup = {"start": "game", "seed": index,
                 "decks": {name: random_deck(rng, edition, decks="pool") for name in PLAYERS}}
        game, _ = new_game(edition, setup)
        steps = 0
        while not game.result.over and steps < 1500:
            steps += 1
            listed = game.legal_actions()
            if rng.random() < 0.3:
                judged += _judge_paid_by_sources(game)
            game.perform(rng.choice(listed[:-2]))
    assert judged >= GAMES * 4, judged


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_card_cast_from_hand_costs_at_least_its_mana_value(edition: str) -> None:
    # The listing skips a card in hand whose mana value is more than all the mana its player
    # could have (costs_more_than): sound while no card cast from a hand, with any number of
    # targets, kicked or not, costs less than its mana value.
    setup = {"start": "game", "seed": 1,
             "decks": {name: random_deck(random.Random(1), edition, decks="pool")
                       for name in PLAYERS}}
    game, _ = new_game(edition, setup)
    cards = default_pool().edition(edition)
    checked = 0
    for name in supported_cards()[edition]:
        impl = implementation(name, edition)
        if impl is None or "Land" in cards[name].types:
            continue
        obj = game.new_object(cards[name], impl, "A", HAND)
        game.players["A"].hand.append(obj)
        for targets, kicked in itertools.product((1, 2, 3), (False, True)):
            cost = game.spell_cost(obj, targets, kicked)
            assert total_due(cost, 0) >= obj.card.mana_value, (name, targets, kicked)
        assert not game.costs_more_than(obj, obj.card.mana_value)
        assert game.costs_more_than(obj, obj.card.mana_value - 1)
        checked += 1
    assert checked > 60


def test_every_reason_code_is_documented_and_no_other():
    # The codes are MESSAGES' keys and the payment checks' two; docs/reference-engine.md's
    # table explains each (a code added without a word there, or a row left over, fails).
    text = (Path(__file__).parents[1] / "docs" / "reference-engine.md").read_text()
    table = text.split("## Legality", 1)[1].split("\n## ", 1)[0]
    documented = {code for row in table.splitlines() if row.startswith("| `")
                  for code in re.findall(r"`([a-z_]+)`", row.split("|")[1])}
    assert documented == set(MESSAGES) | {"bad_payment", "not_a_mana_source"}
