"""The named engines (``conformance.engines``): one registry of the shipped rows (reference, phase,
python-mtg, each with its mutant set and expectations by name) and of the rows distributions add
through the entry-point group ``mtgconf.engines``, which override shipped ones; shown with a
distribution built in a temporary folder (its dist-info and module on ``sys.path``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.engines import BUILT_IN, GROUP, NamedEngine, named, registry
from conformance.errors import BadEngineSpec
from conformance.expectations import Expectations
from conformance.lint import load_checked
from conformance.settings import BUNDLED_CASES
from conformance.transports import EngineSpec
from mtgconf import main

#: the module of the fake distribution: a row as a mapping, one as a NamedEngine that
#: overrides the shipped reference row, one that breaks, and a mutant set of one mutant
MODULE = '''
import contextlib

from conformance.engines import NamedEngine

ROW = {"target": "tests.fakes.profiles:SeededStartOnly", "package": "third-party-engine",
       "mutants": "third_party_mutants"}
OVERRIDE = NamedEngine("ignored", "tests.fakes.profiles:GivenZonesAutoPay")
NOT_A_ROW = 42
'''
MUTANTS = '''
import contextlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    id: str
    rules: tuple
    description: str
    audit: object = None


MUTANTS = {"no-op": Mutant("no-op", ("cr2004:101.3",), "Changes nothing at all.")}


def applied(mutant_id):
    return contextlib.nullcontext()
'''
ENTRY_POINTS = f"""[{GROUP}]
third = third_party:ROW
reference = third_party:OVERRIDE
broken = third_party:NOT_A_ROW
missing = no_such_module:ROW
"""


@pytest.fixture
def distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A distribution ``third-party-engine`` installed on ``sys.path``, and the registry read
    again with it (and once more, without it, afterwards)."""
    (tmp_path / "third_party.py").write_text(MODULE, encoding="utf-8")
    (tmp_path / "third_party_mutants.py").write_text(MUTANTS, encoding="utf-8")
    info = tmp_path / "third_party_engine-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: third-party-engine\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.cache_clear()
    yield tmp_path
    registry.cache_clear()
    for module in ("third_party", "third_party_mutants"):
        sys.modules.pop(module, None)


def test_the_shipped_rows_name_their_engine_mutants_and_expectations():
    assert list(BUILT_IN) == ["reference", "phase", "python-mtg"]
    reference = BUILT_IN["reference"]
    assert EngineSpec.parse("reference").target == reference.target
    assert reference.mutants == "reference_engine.mutants" and reference.installed()
    assert reference.expectations_file() is None  # it has no known deviation
    cases = load_checked([BUNDLED_CASES])
    for name in ("phase", "python-mtg"):
        row = BUILT_IN[name]
        assert row.mutants is None and row.install == f"pip install -e '.[{row.extra}]'"
        path = row.expectations_file()
        assert path is not None and path.is_file(), name
        assert Expectations.load(path, cases.ids).entries, name
    assert named("no-such-engine") is None


def test_a_distribution_adds_a_row_and_overrides_a_shipped_one(distribution: Path):
    rows = registry().rows
    assert rows["third"] == NamedEngine("third", "tests.fakes.profiles:SeededStartOnly",
                                        package="third-party-engine",
                                        mutants="third_party_mutants",
                                        source="third-party-engine")
    assert EngineSpec.parse("third").target == "tests.fakes.profiles:SeededStartOnly"
    # External rows override the shipped ones, under the entry point's name.
    assert rows["reference"].target == "tests.fakes.profiles:GivenZonesAutoPay"
    assert rows["reference"].name == "reference"
    assert rows["phase"] == BUILT_IN["phase"]


def test_a_broken_entry_point_is_an_error_only_when_its_name_is_used(distribution: Path):
    assert EngineSpec.parse("phase").target == BUILT_IN["phase"].target
    for name, why in (("broken", "loads a int"), ("missing", "ModuleNotFoundError")):
        with pytest.raises(BadEngineSpec) as raised:
            EngineSpec.parse(name)
        message = raised.value.render()
        assert f"entry point {name} = " in message and GROUP in message, message
        assert why in message, message


def test_a_distributions_engine_runs_and_its_mutant_set_is_found(distribution: Path,
                                                                 tmp_path: Path, capsys):
    out = tmp_path / "out"
    code = main(["run", "--engine", "third", "-n", "0", "--case", "turn.*", "--no-report",
                 "--out", str(out)])
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert code == 0, capsys.readouterr()
    assert {r["engine"] for r in results["results"]} == {"third"}
    assert {r["status"] for r in results["results"]} >= {"pass"}
    capsys.readouterr()
    assert main(["mutants", "list", "--engine", "third"]) == 0
    assert "no-op" in capsys.readouterr().out
    assert main(["mutants", "list", "--engine", "phase"]) == 2
    assert "the engine has no mutant set" in capsys.readouterr().err
