"""The golden outputs of ``tests/golden`` (see its ``__init__``): the ci profile's campaigns
against fake engines find the same and write the same case files byte for byte, the given-state
findings are written the same, and every recorded finding replays as recorded. A difference is
either a regression or a change to make deliberately: ``python -m tests.golden`` writes them
again, and the diff shows what changed. (The suite's results under ``-n 0`` and ``-n 2``:
``test_suite_reference.py``.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import golden

FUZZ = golden.HERE / "fuzz"
GIVEN = golden.HERE / "given"
REPLAYS = golden.HERE / "replays.yaml"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("run", golden.FUZZ_RUNS, ids=lambda r: r.name)
def test_the_campaign_finds_the_same_and_writes_the_same_case_files(run, tmp_path):
    expected = FUZZ / run.name
    results = golden.fuzz(run, tmp_path)
    assert json.loads(golden.normalised(results)) == json.loads(
        (expected / "results.json").read_text(encoding="utf-8"))
    assert _files(tmp_path / "cases") == _files(expected / "cases")
    assert results["findings"], f"{run.fake} no longer gives a finding: choose another run"


@pytest.mark.parametrize("run", golden.GIVEN_RUNS, ids=lambda r: r.fake)
def test_a_finding_from_a_given_state_is_written_the_same(run, tmp_path):
    written = golden.given(run, tmp_path)
    assert written.read_bytes() == (GIVEN / written.name).read_bytes()


def test_every_finding_replays_as_recorded():
    recorded = golden.load_replays(REPLAYS)
    names = {r["case"] for r in recorded}
    on_disk = {p.relative_to(golden.HERE).as_posix()
               for p in [*FUZZ.glob("*/cases/*.yaml"), *GIVEN.glob("*.yaml")]}
    assert names == on_disk
    now = golden.replays(FUZZ, GIVEN)
    assert [(r["case"], r["engine"]) for r in now] == [(r["case"], r["engine"]) for r in recorded]
    for was, replayed in zip(recorded, now, strict=True):
        assert replayed == was, f"{was['case']} on {was['engine']}"
