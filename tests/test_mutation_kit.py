"""The mutation kit (tests/mutation): a well-formed registry, patches that apply and undo
exactly, and one mutant caught end to end by the runner while the unmutated engine passes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest

from reference_engine.game import Game
from spec.corpus import Corpus
from tests.mutation import mutants
from tests.mutation.__main__ import main
from tests.mutation.mutants import MUTANTS
from tests.mutation.patching import Patcher, PatchError

ROOT = Path(__file__).resolve().parents[1]


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
    return found


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
        patcher.source(Game.can_play_land, ("no such text", "x"))
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


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.mutation", *argv], cwd=ROOT,
                          capture_output=True, text=True, check=False, timeout=120)


def test_the_runner_kills_a_mutant_with_a_tiny_case(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "lands.yaml").write_text(CASE, encoding="utf-8")
    out = tmp_path / "run.json"
    done = _run("run", "--no-bundled", "--cases", str(cases), "--mutant",
                "two-lands-per-turn", "--mutant", "haste-ignored", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "control: unmutated engine, 2 results (2 pass)" in done.stdout
    assert "SURVIVED haste-ignored (audit M13)" in done.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"] == {**data["summary"], "mutants": 2, "killed": 1, "survived": 1}
    killed = data["mutants"]["two-lands-per-turn"]
    assert killed["status"] == "killed"
    assert killed["killed_by"] == ["cr2004::kit.one-land-per-turn",
                                   "modern::kit.one-land-per-turn"]
    assert data["mutants"]["haste-ignored"] == {**data["mutants"]["haste-ignored"],
                                                "status": "survived", "killed_by": []}

    # The control: a case the unmutated engine fails stops the run before any mutant.
    (cases / "lands.yaml").write_text(CASE.replace("expect_illegal", "do"), encoding="utf-8")
    done = _run("run", "--no-bundled", "--cases", str(cases), "--mutant",
                "two-lands-per-turn")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not passing: cr2004::kit.one-land-per-turn" in done.stdout


def _results(**statuses: str) -> dict[str, Any]:
    return {"format": "mtg-conformance-mutation", "version": 1, "mutants": {
        m: {"status": s, "killed_by": ["cr2004::case.a"] if s == "killed" else []}
        for m, s in statuses.items()}}


def test_compare_fails_when_a_killed_mutant_survives(tmp_path, capsys):
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps(_results(a="killed", b="survived", c="killed")))
    after.write_text(json.dumps(_results(a="survived", b="killed", c="killed")))
    assert main(["compare", str(before), str(after)]) == 1
    out = capsys.readouterr().out
    assert "LOST     a: survived now; killed before by case.a [cr2004]" in out
    assert "gained   b: killed now by case.a [cr2004]" in out
    assert "killed: 2 before, 2 after; 1 lost, 0 missing, 1 gained" in out

    after.write_text(json.dumps(_results(a="killed", b="killed", c="killed")))
    assert main(["compare", str(before), str(after)]) == 0
    after.write_text(json.dumps(_results(a="killed")))  # c was killed and is gone
    assert main(["compare", str(before), str(after)]) == 1
    assert "MISSING  c" in capsys.readouterr().out
    (tmp_path / "other.json").write_text('{"format": "x"}')
    assert main(["compare", str(before), str(tmp_path / "other.json")]) == 2
