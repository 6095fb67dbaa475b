"""A card moved between zones that no characteristic reads (board.UNWATCHED_ZONES: libraries,
hands, graveyards, the stack, exile) makes no new state version: drawing, casting, discarding
and a spell resolving into its owner's graveyard are most of a game's zone changes, and
everything the engine caches per version (characteristics, continuous effects, player rules,
ability tables, the lists of state-based actions and triggers) depends on the battlefield, the
command zone and effects, not on those zones. That holds only while no characteristic,
continuous effect or player rule reads them: this file checks every card's code for it, checks
that the check catches such a card, and plays a draw and a cast through the engine."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from types import CodeType, FunctionType, ModuleType
from typing import Any

import pytest

from reference_engine.cards import MODULES
from reference_engine.objects import CardImpl, PlayerRules, StaticSpec
from reference_engine.registry import REGISTRY
from tests.enginekit import h, table

#: names through which code reads a library, a hand, a graveyard, the stack or exile
UNWATCHED_NAMES = frozenset(("library", "hand", "graveyard", "stack", "exile",
                             "LIBRARY", "HAND", "GRAVEYARD", "STACK", "EXILE"))


def _codes(code: CodeType) -> Iterator[CodeType]:
    """``code`` and every code object nested in it (closures, lambdas, comprehensions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def unwatched_reads(func: Callable[..., Any], seen: set[int] | None = None) -> list[str]:
    """Where ``func``, or a function of its module or the engine's that it calls by name or
    holds in a closure, names a zone no characteristic may read: ``["module.function: hand",
    ...]``."""
    seen = set() if seen is None else seen
    if not isinstance(func, FunctionType) or id(func) in seen:
        return []
    seen.add(id(func))
    found = []
    for code in _codes(func.__code__):
        for name in sorted(UNWATCHED_NAMES.intersection(code.co_names)):
            found.append(f"{func.__module__}.{code.co_qualname}: {name}")
        for name in code.co_names:
            called = func.__globals__.get(name)
            if isinstance(called, FunctionType) and (
                    called.__module__ == func.__module__
                    or called.__module__.startswith("reference_engine")):
                found += unwatched_reads(called, seen)
    for cell in func.__closure__ or ():
        try:
            held = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        found += unwatched_reads(held, seen)
    return found


def characteristic_functions(impl: CardImpl) -> list[Callable[..., Any]]:
    """What a card runs while characteristics, continuous effects and player rules are worked
    out: its static abilities, player rules and characteristic-defining ability."""
    funcs: list[Callable[..., Any]] = []
    for static in impl.statics:
        funcs += [static.applies, static.modify]
    funcs += [rules.applies for rules in impl.player_rules]
    if impl.cda is not None:
        funcs.append(impl.cda)
    return funcs


def effect_closures(module: ModuleType) -> list[FunctionType]:
    """The functions of ``module`` that make continuous effects as they resolve: the
    ``applies`` and ``modify`` of such an effect are closures inside them."""
    return [f for _, f in inspect.getmembers(module, inspect.isfunction)
            if f.__module__ == module.__name__
            and any("ContinuousEffect" in c.co_names for c in _codes(f.__code__))]


def _card_impls() -> list[tuple[str, CardImpl]]:
    general = [(name, impl) for name, impl in REGISTRY.general.items()]
    special = [(f"{name} ({edition})", impl)
               for (edition, name), impl in REGISTRY.by_edition.items()]
    return sorted(general + special, key=lambda pair: pair[0])


def test_no_card_reads_an_unwatched_zone_while_characteristics_are_worked_out():
    problems = {name: reads for name, impl in _card_impls()
                for reads in [[r for f in characteristic_functions(impl)
                               for r in unwatched_reads(f)]] if reads}
    assert problems == {}, (
        "these cards' characteristics, static abilities or player rules read a zone in "
        "board.UNWATCHED_ZONES: a card moving between those zones would leave them stale "
        f"(take the zone out of UNWATCHED_ZONES, or read something else): {problems}")


def test_no_resolved_continuous_effect_reads_an_unwatched_zone():
    # The effect's applies() and modify() are nested in the function that resolves: checking
    # every nested function of it is stricter than needed (its other closures may read a
    # hand), and holds for every card today.
    modules = [*MODULES, importlib.import_module("reference_engine.board")]
    problems = {f"{f.__module__}.{f.__qualname__}": [
        r for code in list(_codes(f.__code__))[1:]
        for r in sorted(UNWATCHED_NAMES.intersection(code.co_names))]
        for module in modules for f in effect_closures(module)}
    assert {k: v for k, v in problems.items() if v} == {}
    assert problems, "no function making a continuous effect was found: the check finds nothing"


def _maro(game: Any, source: Any) -> tuple[int, int]:
    size = len(game.players[source.controller].hand)
    return size, size


def _library_counts(game: Any, source: Any, obj: Any, chars: Any) -> bool:
    return len(_top_cards(game, source)) > 3


def _top_cards(game: Any, source: Any) -> list[Any]:
    return game.players[source.controller].library[-3:]


@pytest.mark.parametrize(("impl", "where"), [
    (CardImpl("Maro", cda=_maro), "_maro: hand"),
    (CardImpl("Deep Reader", statics=(StaticSpec(1.0, _library_counts, lambda *a: None),)),
     "_top_cards: library"),
    (CardImpl("Lhurgoyf", cda=lambda game, source: (
        len(game.players["A"].graveyard), 1 + len(game.players["B"].graveyard))),
     "<lambda>: graveyard"),
    (CardImpl("Spellbook", player_rules=(PlayerRules(
        lambda game, source, name: not game.players[name].hand),)), "<lambda>: hand"),
])
def test_the_check_finds_a_card_that_reads_an_unwatched_zone(impl, where):
    # Directly, through a function it calls, and in a lambda: each is found.
    reads = [r for f in characteristic_functions(impl) for r in unwatched_reads(f)]
    assert any(r.endswith(where) for r in reads), reads


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
def test_a_drawn_card_is_listed_and_cast_though_no_new_version_came(edition):
    # A passes through the upkeep; the draw step's draw is the only change, and it makes no
    # new version; the Shock drawn is castable at once (the listing reads the hand itself).
    t = table(edition, "upkeep", a={"library": ["Shock", "Island", "Island"]},
              battlefield=[h("mountain", "Mountain", controller="A")])
    game = t.engine.game
    assert game is not None
    before = game.version
    t.pass_priority()
    t.pass_priority()
    assert t.obs()["turn"]["step"] == "draw"
    assert game.version == before
    shock = [o["id"] for o in t.obs("A")["players"]["A"]["hand"] if o["card"] == "Shock"]
    assert shock, "the Shock was drawn"
    casts = [a for a in t.legal() if a["action"] == "cast" and a.get("card") == shock[0]]
    assert casts, "a card drawn without a new version is listed"
    t.do("cast", "A", card=shock[0], targets=["B"], pay_with="auto")
    t.pass_priority()
    t.pass_priority()
    assert t.obs()["players"]["B"]["life"] == 18


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
def test_a_spell_resolved_into_the_graveyard_may_be_flashed_back(edition):
    # Think Twice goes hand -> stack -> graveyard, and draws a card from the library: zone
    # changes that make no new version. Its flashback is listed from the graveyard at once.
    t = table(edition, a={"hand": [h("think", "Think Twice")]},
              battlefield=[h(f"island-{n}", "Island", controller="A") for n in range(5)])
    game = t.engine.game
    assert game is not None
    before = game.version
    t.do("cast", "A", card="think", pay_with="auto")
    t.pass_priority()
    t.pass_priority()
    assert game.version == before
    graveyard = t.obs()["players"]["A"]["graveyard"]
    assert [o["card"] for o in graveyard] == ["Think Twice"]
    flashbacks = [a for a in t.legal()
                  if a["action"] == "cast" and a.get("card") == graveyard[0]["id"]]
    assert flashbacks, "the spell in the graveyard is listed for flashback"
    t.do("cast", "A", card=graveyard[0]["id"], pay_with="auto")
    t.pass_priority()
    t.pass_priority()
    assert [o["card"] for o in t.obs()["exile"]] == ["Think Twice"]
