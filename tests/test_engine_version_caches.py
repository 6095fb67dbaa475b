"""What the engine works out once per state version and reuses across versions (docs/
reference-engine.md, Speed) must agree with working it out afresh. Two kinds of tests: edges
played through the engine (an effect starting to apply to one object that had none: an
Equipment moved, an Aura entering attached, a spell's effect on one creature), each observed
before and after so that the cached answer is the one asked; and an oracle over random games
of the whole pool in both editions, which after every few actions compares every cache with
what a game with every cache dropped works out."""

from __future__ import annotations

import dataclasses
import dis
import random
from types import CodeType
from typing import Any

import pytest

from reference_engine.constants import PLAYERS
from reference_engine.game import Game
from reference_engine.layers import _ANY
from reference_engine.objects import (
    ABILITY,
    CONTROL,
    CardImpl,
    Chars,
    GameObject,
    StackItem,
    StaticSpec,
    attached_to_source,
)
from reference_engine.registry import REGISTRY
from reference_engine.selfplay import random_deck
from reference_engine.setup import new_game
from reference_engine.state import GameState
from tests.enginekit import Table, h, resolve, table

EDITIONS = ("cr2004", "modern")


def pt(t: Table, handle: str) -> tuple[int, int]:
    found = t.find(handle)
    assert found is not None
    return found["power"], found["toughness"]


# ---- an effect that applies to one object only --------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_equipment_moved_to_another_creature_leaves_the_first_and_pumps_the_second(edition):
    # Both Bears' characteristics are worked out before the move (observed): the second's
    # were computed with no effect applying, and the Equipment's effect must reach it.
    t = table(edition, a={"mana_pool": {"C": 1}},
              battlefield=[h("split", "Bonesplitter", controller="A", attached_to="first"),
                           h("first", "Grizzly Bears", controller="A"),
                           h("second", "Grizzly Bears", controller="A")])
    assert (pt(t, "first"), pt(t, "second")) == ((4, 2), (2, 2))
    t.do("activate", "A", card="split", ability=0, targets=["second"])
    resolve(t)
    assert (pt(t, "first"), pt(t, "second")) == ((2, 2), (4, 2))


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_aura_entering_attached_applies_to_a_creature_that_had_no_effect(edition):
    t = table(edition, a={"hand": [h("hs", "Holy Strength")], "mana_pool": {"W": 1}},
              battlefield=[h("lions", "Savannah Lions", controller="A"),
                           h("bears", "Grizzly Bears", controller="A")])
    assert pt(t, "lions") == (2, 1)
    t.do("cast", "A", card="hs", targets=["lions"])
    resolve(t)
    assert (pt(t, "lions"), pt(t, "bears")) == ((3, 3), (2, 2))


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_spell_on_one_creature_applies_to_it_until_the_turn_ends(edition):
    t = table(edition, a={"hand": [h("gg", "Giant Growth")], "mana_pool": {"G": 1}},
              battlefield=[h("lions", "Savannah Lions", controller="A"),
                           h("bears", "Grizzly Bears", controller="B")])
    assert (pt(t, "lions"), pt(t, "bears")) == ((2, 1), (2, 2))
    t.do("cast", "A", card="gg", targets=["bears"])
    resolve(t)
    assert (pt(t, "lions"), pt(t, "bears")) == ((2, 1), (5, 5))
    t.advance("upkeep", turn=4)
    assert pt(t, "bears") == (2, 2)


def test_mishras_factory_animated_again_on_a_later_turn():
    # The Factory names itself by target; animated, then back to a land, then animated
    # again, each time from characteristics worked out with no effect applying.
    t = table("modern", battlefield=[h("factory", "Mishra's Factory", controller="A"),
                                     h("forest", "Forest", controller="A")])
    assert t.find("factory")["power"] is None
    t.do("activate", "A", card="factory", ability=1, pay_with=["forest"])
    resolve(t)
    assert pt(t, "factory") == (2, 2)
    t.advance("precombat_main", turn=5)
    assert t.find("factory")["power"] is None
    t.do("activate", "A", card="factory", ability=1, pay_with=["forest"])
    resolve(t)
    assert pt(t, "factory") == (2, 2)


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_equipped_creature_sees_an_effect_on_every_creature_begin(edition):
    # The Bears' characteristics, from the Equipment's effect alone, are kept across versions
    # until an effect that may apply to any creature is in force.
    t = table(edition, a={"hand": [h("anthem", "Glorious Anthem")], "mana_pool": {"W": 3}},
              battlefield=[h("split", "Bonesplitter", controller="A", attached_to="bears"),
                           h("bears", "Grizzly Bears", controller="A"),
                           h("forest", "Forest", controller="A")])
    assert pt(t, "bears") == (4, 2)
    t.game.changed()
    assert pt(t, "bears") == (4, 2)
    t.do("cast", "A", card="anthem")
    resolve(t)
    assert pt(t, "bears") == (5, 3)


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_equipped_creature_is_asked_about_an_earlier_layer_as_that_layer_sees_it(edition):
    # An effect of layer 6 on creatures with power 2 applies to 2/2 Bears with Bonesplitter:
    # +2/+0 comes in layer 7. Their characteristics, 4/2, do not say so: worked out again.
    t = table(edition, battlefield=[h("split", "Bonesplitter", controller="A",
                                      attached_to="bears"),
                                    h("bears", "Grizzly Bears", controller="A"),
                                    h("anthem", "Glorious Anthem", controller="B")])
    game = t.game
    anthem = game.objects[t.id("anthem")]
    anthem.impl = dataclasses.replace(anthem.impl, statics=())
    game.changed()
    assert pt(t, "bears") == (4, 2)
    game.changed()
    assert pt(t, "bears") == (4, 2)  # from the Equipment's effect alone, kept

    def flying(_game: Any, _src: Any, _obj: Any, chars: Chars) -> None:
        chars.keywords = chars.keywords | {"flying"}

    anthem.impl = dataclasses.replace(anthem.impl, statics=(
        StaticSpec(ABILITY, lambda _g, _s, _o, c: c.power == 2, flying),))
    game.changed()  # as the effect that gave it would have
    assert game.has(game.objects[t.id("bears")], "flying")


@pytest.mark.parametrize("edition", EDITIONS)
def test_one_of_two_effects_on_an_equipped_creature_ends(edition):
    t = table(edition, a={"hand": [h("gg", "Giant Growth")], "mana_pool": {"G": 1}},
              battlefield=[h("split", "Bonesplitter", controller="A", attached_to="bears"),
                           h("bears", "Grizzly Bears", controller="A")])
    t.do("cast", "A", card="gg", targets=["bears"])
    resolve(t)
    assert pt(t, "bears") == (7, 5)
    t.advance("upkeep", turn=4)
    assert pt(t, "bears") == (4, 2)


# ---- what an effect on one object may read ---------------------------------------------------


def _loads(code: CodeType) -> list[tuple[str, Any, Any]]:
    """Each instruction of ``code`` and the nested code: (opcode name, argument, next one's
    argument)."""
    found = []
    for nested in _codes(code):
        instructions = list(dis.get_instructions(nested))
        for here, after in zip(instructions, [*instructions[1:], None], strict=True):
            found.append((here.opname, here.argval, after.argval if after else None))
    return found


def _codes(code: CodeType) -> list[CodeType]:
    return [code, *(c for const in code.co_consts if isinstance(const, CodeType)
                    for c in _codes(const))]


def modify_reads_beyond_chars(modify: Any) -> list[str]:
    """What the ``modify(game, source, obj, chars)`` of a static ability on one object reads
    besides the characteristics and its source's id: its effect is kept while the attachment
    stays (Layers._same_again), so it may change the characteristics by nothing else."""
    code = modify.__code__
    game, source, obj = code.co_varnames[:3]
    found = []
    for op, arg, after in _loads(code):
        if op.startswith("LOAD_FAST") and arg in (game, obj):
            found.append(arg)
        elif op.startswith("LOAD_FAST") and arg == source and after != "id":
            found.append(f"{source}.{after}")
    for cell in modify.__closure__ or ():
        if isinstance(cell.cell_contents, GameObject | GameState | StackItem):
            found.append(repr(cell.cell_contents))
    return found


def resolved_modify_reads_beyond_chars(modify: Any) -> list[str]:
    """What the ``modify(chars)`` of a resolved effect holds besides values: a game, an
    object or a stack item it could read (its effect is kept while its target stays)."""
    return [repr(cell.cell_contents) for cell in modify.__closure__ or ()
            if isinstance(cell.cell_contents, GameObject | GameState | StackItem)]


def all_impls() -> list[tuple[str, CardImpl]]:
    return [*REGISTRY.general.items(),
            *((f"{name} ({edition})", impl) for (edition, name), impl in
              REGISTRY.by_edition.items())]


def test_the_statics_on_what_their_source_is_attached_to_change_the_characteristics_only():
    statics = [(name, spec) for name, impl in all_impls() for spec in impl.statics
               if spec.applies is attached_to_source and spec.layer != CONTROL]
    assert len(statics) >= 10
    for name, spec in statics:
        assert modify_reads_beyond_chars(spec.modify) == [], name


def test_the_check_finds_a_static_that_reads_the_game():
    def per_forest(game: Any, src: Any, obj: Any, chars: Any) -> None:
        chars.power += len(game.battlefield)

    def tapped(game: Any, src: Any, obj: Any, chars: Any) -> None:
        if not src.tapped:
            chars.power += 1

    assert modify_reads_beyond_chars(per_forest) == ["game"]
    assert modify_reads_beyond_chars(tapped) == ["src.tapped"]


# ---- the state-based actions' lists ---------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_land_made_a_creature_is_checked_for_lethal_damage(edition):
    # What state-based actions a permanent may be subject to is kept with its
    # characteristics: the Factory's, a land's, are checked for nothing; animated, they are
    # a creature's, and lethal damage destroys it.
    t = table(edition, b={"hand": [h("shock", "Shock")], "mana_pool": {"R": 1}},
              battlefield=[h("factory", "Mishra's Factory", controller="A"),
                           h("forest", "Forest", controller="A")])
    game = t.game
    assert [o.id for o, *_ in game._sba_checks] == []
    t.do("activate", "A", card="factory", ability=1, pay_with=["forest"])
    resolve(t)
    assert [o.id for o, *_ in game._sba_checks] == [t.id("factory")]
    t.do("pass", "A")
    t.do("cast", "B", card="shock", targets=["factory"])
    resolve(t)
    assert t.cards(t.player("A")["graveyard"]) == ["Mishra's Factory"]


# ---- the ability and mana tables -------------------------------------------------------------


def listed(t: Table, kind: str, handle: str) -> list[dict[str, Any]]:
    return [a for a in t.legal() if a["action"] == kind and a.get("card") == t.id(handle)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_permanent_whose_abilities_change_is_listed_with_its_new_ones(edition):
    # Evil Presence makes City of Brass a Swamp: it no longer adds {U}, so Unsummon is no
    # longer listed as paid for by it; the City's one ability now adds {B}.
    t = table(edition, a={"hand": [h("presence", "Evil Presence"), h("unsummon", "Unsummon")],
                          "mana_pool": {"B": 1}},
              battlefield=[h("city", "City of Brass", controller="A"),
                           h("bears", "Grizzly Bears", controller="B")])
    assert [a["pay_with"] for a in listed(t, "cast", "unsummon")] == ["auto"]
    t.do("cast", "A", card="presence", targets=["city"])
    resolve(t)
    assert listed(t, "cast", "unsummon") == []
    game = t.game
    assert [spec.text for obj, _, spec, _ in game._ability_table("A")
            if obj.id == t.id("city")] == ["{T}: Add {B}."]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_permanent_that_changed_control_is_listed_for_its_new_controller(edition):
    t = table(edition, a={"hand": [h("magic", "Control Magic")], "mana_pool": {"U": 4}},
              battlefield=[h("sorcerer", "Prodigal Sorcerer", controller="B")])
    game = t.game
    assert [o.id for o, *_ in game._ability_table("B")] == [t.id("sorcerer")]
    t.do("cast", "A", card="magic", targets=["sorcerer"])
    resolve(t)
    t.do("pass", "A")
    assert listed(t, "activate", "sorcerer") == []  # B has priority, and not the Sorcerer
    assert [o.id for o, *_ in game._ability_table("A")] == [t.id("sorcerer")]
    assert game._ability_table("B") == []


# ---- player rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_rule_source_entering_and_leaving_changes_its_controllers_rules_only(edition):
    t = table(edition, a={"hand": [h("expl", "Exploration"), h("vindicate", "Vindicate"),
                                   h("f1", "Forest"), h("f2", "Forest"), h("f3", "Forest")],
                          "mana_pool": {"G": 1, "W": 1, "B": 1, "C": 1}})
    t.do("play_land", "A", card="f1")
    assert t.illegal("play_land", "A", card="f2") == "no_land_play_left"
    t.do("cast", "A", card="expl")
    resolve(t)
    t.do("play_land", "A", card="f2")  # the rules of the version it entered in see it
    assert t.game.player_rules("B")["land_plays"] == 1  # not B's
    t.do("cast", "A", card="vindicate", targets=["expl"])
    resolve(t)
    assert t.illegal("play_land", "A", card="f3") == "no_land_play_left"


@pytest.mark.parametrize("edition", EDITIONS)
def test_both_players_rules_in_one_version_each_from_their_own_permanents(edition):
    t = table(edition, battlefield=[h("book", "Spellbook", controller="B")])
    game = t.game
    version = game.version
    sizes = {name: p["max_hand_size"] for name, p in t.obs()["players"].items()}
    assert sizes == {"A": 7, "B": None}
    assert game.version == version  # both asked in one version


# ---- the oracle: every cache against a game with none ---------------------------------------


def _key(value: Any) -> Any:
    """``value`` compared by what it is: a function by its code (an ability bound to its
    object, Stone Giant's, is made anew with each computation), a spec by its fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value), tuple(_key(getattr(value, f.name))
                                   for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return tuple(_key(v) for v in value)
    code = getattr(value, "__code__", None)
    return value if code is None else code


def _chars_key(c: Chars) -> tuple[Any, ...]:
    return (c.name, c.cost, c.mana_value, c.colors, c.supertypes, c.types, c.subtypes,
            c.power, c.toughness, c.keywords, _key(c.abilities), _key(c.granted),
            c.triggers, c.statics, c.lost_abilities, c.flags)


def cached_answers(game: Game) -> dict[str, Any]:
    """Everything the engine caches per state version, as it answers now."""
    objects = list(game.objects.values())
    answers: dict[str, Any] = {
        "chars": {o.id: _chars_key(game.chars(o)) for o in objects},
        "abilities": {n: [(o.id, i, _key(spec), free)
                          for o, i, spec, free in game._ability_table(n)] for n in PLAYERS},
        "mana": {n: list(game._mana_tables[n]) for n in PLAYERS},
        "rules": {n: dict(game.player_rules(n)) for n in PLAYERS},
    }
    if game._sba_version != game.version:
        game._sba_candidates()
    answers["sba"] = ([(o.id, _chars_key(c), more) for o, c, more in game._sba_checks],
                      [o.id for o in game._sba_legendary], [o.id for o in game._sba_worlds],
                      [o.id for o in game._sba_counted])
    index = (game._trigger_index if game._trigger_version == game.version
             else game._trigger_sources())
    answers["triggers"] = {kind: [(o.id, spec) for o, spec in found]
                           for kind, found in index.items()}
    return answers


def drop_every_cache(game: Game) -> None:
    """Forget everything worked out: the next questions are answered from scratch."""
    for obj in game.objects.values():
        obj._chars = None
        obj._chars_version = -1
        obj._chars_zone = -1
        obj._chars_one = None
        obj._statics_made = None
        obj._table_entries = None
    for effect in game.effects:
        effect._made = None
    game._player_rules.clear()
    # Each cache emptied and marked as made at no version, so that one whose invalidation
    # is broken cannot answer the fresh questions either.
    game._effects_cache, game._effects_open, game._effects_one = [], [], {}
    game._rule_sources = []
    game._ability_tables, game._mana_tables = {}, {}
    game._sba_checks, game._sba_legendary, game._sba_worlds, game._sba_counted = [], [], [], []
    game._trigger_index = {}
    for name in ("_effects_version", "_control_version", "_tables_version", "_sba_version",
                 "_trigger_version", "_rule_sources_version"):
        setattr(game, name, -1)
    game.changed()


def one_object_effects_hold_to_their_object(game: Game) -> None:
    """An effect the layers index by one object (``Continuous.one``: its target, or what its
    source is attached to, by ``attached_to_source``) applies to no other permanent: the
    contract that lets _none_applies ask no other about it."""
    for resolved in game.effects:
        assert resolved_modify_reads_beyond_chars(resolved.modify) == [], resolved
    for effect in game.continuous_effects():
        if effect.one is _ANY:
            continue
        for obj in game.battlefield:
            if obj.id != effect.one:
                assert not effect.applies(game, effect.source, obj, game.chars(obj)), (
                    effect.source, obj)


def random_game_checks(edition: str, seed: int, every: int, limit: int) -> int:
    """Play one random game of the whole pool, comparing the caches with fresh answers after
    every ``every`` actions (at most ``limit`` actions); the number of comparisons."""
    rng = random.Random(seed)
    setup = {"start": "game", "seed": seed,
             "decks": {name: random_deck(rng, edition, decks="pool") for name in PLAYERS}}
    game, _ = new_game(edition, setup)
    checks = 0
    for count in range(limit):
        if game.result.over:
            break
        game.apply(rng.choice(game.legal_actions()[:-2]))
        if count % every:
            continue
        one_object_effects_hold_to_their_object(game)
        cached = cached_answers(game)
        drop_every_cache(game)
        fresh = cached_answers(game)
        for key in cached:
            assert cached[key] == fresh[key], (key, game.turn, count)
        checks += 1
    return checks


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_every_cache_agrees_with_a_fresh_answer_in_random_games(edition, seed):
    assert random_game_checks(edition, seed, every=3, limit=1500) > 20
