"""The replay command of a fuzz finding, as the report shows it, runs as written: it names the
case file where the fuzz run wrote it (a run given a relative ``--out`` recorded the path from
the folder it ran in: it must not be joined to the fuzz file's folder a second time) and the
engine the run played, which the fuzz file records (``engine.spec``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from reports.inputs import read_fuzz

GOLDEN = Path(__file__).resolve().parent / "golden" / "fuzz" / "TwoLands-modern-0"
# The one case file the golden run wrote (its name ends in a digest of its content).
CASE = next((GOLDEN / "cases").glob("fuzz.one-land-per-turn.modern-*.yaml")).name
SPEC = "py:tests.fakes.fuzz_engines:TwoLands"


def _fuzz_file(folder: Path, case_file: str, **engine: str) -> Path:
    (folder / "cases").mkdir(parents=True)
    shutil.copy(GOLDEN / "cases" / CASE, folder / "cases" / CASE)
    data = json.loads((GOLDEN / "results.json").read_text(encoding="utf-8"))
    # The golden file leaves out what changes from run to run.
    data.update({"started": "2026-01-01T00:00:00Z", "seconds": 1.0})
    data["engine"] = {"name": "mtg-conformance-reference", "version": "0.1.0", **engine}
    for finding in data["findings"]:
        finding["case_file"] = case_file
    path = folder / "fuzz-modern.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_relative_out_does_not_double_the_folder_and_the_engine_is_filled_in(tmp_path,
                                                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _fuzz_file(Path("fuzz-results"), f"fuzz-results/cases/{CASE}", spec=SPEC)
    (finding,) = read_fuzz(path).findings
    assert finding.replay == f"mtgconf fuzz replay fuzz-results/cases/{CASE} --engine {SPEC}"
    assert "fuzz-results/fuzz-results" not in finding.replay
    assert finding.case  # the case file was found, and read


def test_a_path_relative_to_the_fuzz_file_and_the_reference_engine(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _fuzz_file(tmp_path / "elsewhere", f"cases/{CASE}", spec="reference")
    (finding,) = read_fuzz(path).findings
    assert finding.replay == f"mtgconf fuzz replay {tmp_path / 'elsewhere' / 'cases' / CASE}"


def test_a_fuzz_file_that_does_not_know_its_engine_says_engine(tmp_path):
    path = _fuzz_file(tmp_path, f"cases/{CASE}", name="my-engine")
    (finding,) = read_fuzz(path).findings
    assert finding.replay.endswith(" --engine ENGINE")
