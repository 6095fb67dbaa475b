"""The mutants (reference_engine/mutants, scored by conformance.mutation, ``mtgconf mutants``):
a well-formed registry, patches that apply and undo exactly, one mutant caught end to end while
the unmutated engine passes, and every shipped mutant killed by a failing bundled case."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest

from conformance import schemas
from conformance.mutation import MutantSet
from mtgconf import main
from reference_engine import mutants
from reference_engine.game import Game
from reference_engine.mutants import MUTANTS
from reference_engine.mutants.patching import Patcher, PatchError
from spec.corpus import Corpus

ROOT = Path(__file__).resolve().parents[1]
REFERENCE_MUTANTS = MutantSet.load("reference_engine.mutants", "reference")


def test_registry_is_well_formed():
    assert len(MUTANTS) >= 45
    corpus = Corpus.load()
    for mutant_id, mutant in MUTANTS.items():
        assert mutant.id == mutant_id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", mutant_id), mutant_id
        assert mutant.rules, mutant_id
        assert [r for r in mutant.rules if r not in corpus] == [], mutant_id
        assert mutant.description.strip() and "\n" not in mutant.description, mutant_id
    with pytest.raises(ValueError, match="registered twice"):
        mutants.mutant("two-lands-per-turn", "cr2004:212.6b", "again")(lambda p: None)
    with pytest.raises(ValueError, match="kebab-case"):
        mutants.mutant("Two_Lands", "cr2004:212.6b", "bad id")(lambda p: None)


def test_the_engine_imports_no_mutant_unless_asked():
    """The mutants live beside the engine and are loaded by name (conformance.mutation):
    importing the engine, as any harness does, leaves them out."""
    import subprocess

    script = ("import sys, reference_engine, reference_engine.engine, reference_engine.serve, "
              "conformance.mutation\n"
              "print(sorted(m for m in sys.modules if m.startswith('reference_engine.mutants')))")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
    loaded = MutantSet.load("reference_engine.mutants", "reference")
    assert set(loaded) == set(MUTANTS) and loaded.engine == "reference"
    with pytest.raises(ValueError, match="not a mutant set"):
        MutantSet.load("reference_engine.engine", "reference")


def _snapshot() -> dict[tuple[str, ...], Any]:
    """Every function and class attribute of the engine's modules, by identity (a function
    also by its code object, which source patches swap)."""
    found: dict[tuple[str, ...], Any] = {}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("reference_engine"):
            continue
        for name, value in vars(module).items():
            if isinstance(value, FunctionType):
                found[(module_name, name)] = (value, value.__code__)
            elif isinstance(value, type) and value.__module__ == module_name:
                for attr, member in vars(value).items():
                    code = member.__code__ if isinstance(member, FunctionType) else None
                    found[(module_name, name, attr)] = (member, code)
    from reference_engine.registry import REGISTRY

    for key, impl in [*REGISTRY.general.items(), *REGISTRY.by_edition.items()]:
        for path, func in _functions_in(impl, (f"card {key}",), set()):
            found[path] = (func, func.__code__)
    return found


def _functions_in(value: Any, path: tuple[str, ...], seen: set[int]
                  ) -> list[tuple[tuple[str, ...], FunctionType]]:
    """The functions (card effects, conditions: closures no module names) held by a card's
    implementation, at any depth of its specs: source patches swap their code too."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, FunctionType):
        return [(path, value)]
    if isinstance(value, list | tuple):
        items: Any = enumerate(value)
    elif isinstance(value, dict):
        items = value.items()
    elif hasattr(value, "__dataclass_fields__"):
        items = ((name, getattr(value, name)) for name in value.__dataclass_fields__)
    else:
        return []
    return [found for key, item in items for found in _functions_in(item, (*path, str(key)),
                                                                   seen)]


def _same(a: dict[tuple[str, ...], Any], b: dict[tuple[str, ...], Any]) -> bool:
    return a.keys() == b.keys() and all(
        x is y for key in a for x, y in zip(a[key], b[key], strict=True))


@pytest.mark.parametrize("mutant_id", list(MUTANTS))
def test_each_mutant_changes_the_engine_and_undoes_exactly(mutant_id):
    before = _snapshot()
    with mutants.applied(mutant_id) as patcher:
        assert len(patcher) > 0
        assert not _same(_snapshot(), before)
    assert _same(_snapshot(), before)


def test_a_patch_that_does_not_match_fails_and_leaves_nothing_applied():
    before = _snapshot()
    patcher = Patcher()
    patcher.source(Game.is_sick, ("controlled_since >=", "controlled_since >"))
    with pytest.raises(PatchError, match="occurs 0 times"):
        patcher.source(Game.land_play_refusal, ("no such text", "x"))
    with pytest.raises(PatchError, match="has no attribute"):
        patcher.set(Game, "no_such_attribute", 1)
    patcher.undo()
    assert _same(_snapshot(), before)


CASE = """\
- id: kit.one-land-per-turn
  rules: [cr2004:212.6b]
  editions: [cr2004, modern]
  quote: 玩家每回合只能使用一張地牌
  summary: A player may play only one land each turn.
  setup:
    turn: {number: 3, active: A, step: precombat_main}
    players:
      A: {hand: [{handle: forest-1, card: Forest}, {handle: forest-2, card: Forest}]}
  steps:
    - do: {action: play_land, player: A, card: forest-1}
    - expect_illegal: {action: play_land, player: A, card: forest-2}
"""


def test_a_mutant_is_killed_by_a_failing_case_and_the_control_comes_first(tmp_path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "lands.yaml").write_text(CASE, encoding="utf-8")
    out = tmp_path / "run.json"
    argv = ["mutants", "run", "--no-bundled", "--cases", str(cases), "--mutant",
            "two-lands-per-turn", "--mutant", "haste-ignored", "--every"]
    assert main([*argv, "--json", str(out)]) == 1  # haste-ignored survives these cases
    printed = capsys.readouterr().out
    assert "control: the unmutated engine passes all 2 case runs; 2 mutants" in printed
    assert "survived haste-ignored" in printed
    assert "1 of 2 mutants killed by a failing case" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert schemas.first_error("mutants.json", data) is None  # the writer keeps its schema
    assert data["summary"] == {**data["summary"], "mutants": 2, "killed": 1, "survived": 1}
    killed = data["mutants"]["two-lands-per-turn"]
    assert killed["status"] == "killed"
    assert killed["killed_by"] == ["cr2004::kit.one-land-per-turn",
                                   "modern::kit.one-land-per-turn"]
    assert data["mutants"]["haste-ignored"] == {**data["mutants"]["haste-ignored"],
                                                "status": "survived", "killed_by": []}

    # The control: a case the unmutated engine fails stops the run before any mutant.
    (cases / "lands.yaml").write_text(CASE.replace("expect_illegal", "do"), encoding="utf-8")
    assert main(argv) == 2
    assert "the unmutated engine does not pass 2 case runs" in capsys.readouterr().err


def test_an_error_or_crash_is_no_kill():
    from conformance.casefile import load
    from conformance.mutation import run_here, runs_of
    from conformance.settings import BUNDLED_CASES
    from reference_engine.engine import ReferenceEngine

    def breaks_new_game(patcher: Patcher) -> None:
        def new_game(self: Any, edition: str, setup: dict) -> dict:
            raise RuntimeError("broken")

        patcher.set(ReferenceEngine, "new_game", new_game)

    mutants.mutant("test-breaks-every-game", "cr2004:101.3", "Every new game fails.")(
        breaks_new_game)
    try:
        runs = runs_of(load([BUNDLED_CASES]).cases, ("cr2004",))[:4]
        result = run_here(REFERENCE_MUTANTS, "test-breaks-every-game", runs, every=True,
                          case_timeout=5)
    finally:
        del MUTANTS["test-breaks-every-game"]
    assert (result.status, result.killed_by, len(result.other)) == ("survived", (), 4)


def test_every_shipped_mutant_is_killed_by_a_failing_bundled_case():
    """No equivalent mutant: each one changes what some bundled case checks."""
    from conformance.casefile import load
    from conformance.mutation import run_mutants, runs_of
    from conformance.settings import BUNDLED_CASES

    runs = runs_of(load([BUNDLED_CASES]).cases, ("cr2004", "modern"))
    results = run_mutants(REFERENCE_MUTANTS, list(MUTANTS), runs, jobs=2)
    survivors = {r.mutant: r.other or r.message for r in results if r.status != "killed"}
    assert survivors == {}


@pytest.mark.parametrize("path", sorted((ROOT / "docs" / "mutants").glob("baseline-*.json")),
                         ids=lambda p: p.name)
def test_the_earlier_kits_files_keep_the_schema_the_report_reads(path):
    assert schemas.first_error("mutants.json", json.loads(path.read_text())) is None


def _results(**statuses: str) -> dict[str, Any]:
    return {"format": "mtg-conformance mutants", "version": 2, "mutants": {
        m: {"status": s, "killed_by": ["cr2004::case.a"] if s == "killed" else []}
        for m, s in statuses.items()}}


def test_compare_fails_when_a_killed_mutant_survives(tmp_path, capsys):
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps(_results(a="killed", b="survived", c="killed")))
    after.write_text(json.dumps(_results(a="survived", b="killed", c="killed")))
    assert main(["mutants", "compare", str(before), str(after)]) == 1
    out = capsys.readouterr().out
    assert "lost (killed before, not after): a" in out
    assert "gained: b" in out

    after.write_text(json.dumps(_results(a="killed", b="killed", c="killed")))
    assert main(["mutants", "compare", str(before), str(after)]) == 0
    assert "no mutant lost" in capsys.readouterr().out
    after.write_text(json.dumps(_results(a="killed")))  # c was killed and is gone
    assert main(["mutants", "compare", str(before), str(after)]) == 1
    assert "missing (killed before, not run after): c" in capsys.readouterr().out
    (tmp_path / "other.json").write_text('{"format": "x"}')
    assert main(["mutants", "compare", str(before), str(tmp_path / "other.json")]) == 2


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
def test_a_turn_1_draw_step_that_draws_nothing_fails_the_skipped_draw_case(edition):
    """turn.first-player-skips-draw checks that the step is skipped, not only that no card was
    drawn: an engine with priority in a turn-1 draw step fails it in each edition."""
    from conformance.casefile import load
    from conformance.mutation import run_here, runs_of
    from conformance.settings import BUNDLED_CASES

    cases = [c for c in load([BUNDLED_CASES]).cases if c.id == "turn.first-player-skips-draw"]
    result = run_here(REFERENCE_MUTANTS, "first-draw-step-without-a-draw",
                      runs_of(cases, (edition,)), every=True, case_timeout=10)
    assert result.killed_by == (f"{edition}::turn.first-player-skips-draw",)
