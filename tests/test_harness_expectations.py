"""Expectations files as an engine's author keeps them: every error names its line (and a close
case id for a misspelt one), ``update`` brings a file up to date with a later run, keeping the
reasons, and docs/expectations.md documents every field the loader accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance.errors import InputError
from conformance.expectations import TO_FILL_IN, Expectations, update
from conformance.outcomes import Expectation
from conformance.resultsfile import Record, Results
from mtgconf import main

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "expectations.md"
KNOWN = {"land.one-per-turn", "start.life-twenty", "turn.first-player-skips-draw"}


def record(case_id: str, edition: str, outcome: str, message: str = "") -> Record:
    return Record(case_id, edition, ("cr2004:101.3",), "toy", outcome, outcome, message, 0.0)


def problems_of(tmp_path: Path, text: str, known: set[str] | None = None) -> list[str]:
    path = tmp_path / "expected.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Expectations.load(path, known)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(("text", "line", "words"), [
    ("engine: toy\nexpectations:\n  land.one-per-turn: {status: fail}\n"
     "  start.life-twenty: {status: flaky}\n", 4, "'flaky' is not one of"),
    ("expectations:\n  land.one-per-turn: {status: fail}\n\n"
     "  start.life-twenty: {status: fail, reson: typo}\n", 4, "'reson' was unexpected"),
    ("expectations:\n  land.one-per-turn: {status: fail}\n  Not An Id: {status: fail}\n", 3,
     "does not match"),
    ("expectations:\n  land.one-per-turn: {status: fail}\n  land.one-per-turn: {status: crash}"
     "\n", 3, "duplicate key 'land.one-per-turn'"),
    ("expectations:\n  land.one-per-turn: {status: fail\n", 3, "not valid YAML"),
])
def test_every_problem_of_an_expectations_file_names_its_line(tmp_path, text, line, words):
    (problem,) = problems_of(tmp_path, text)
    assert problem.startswith(f"{tmp_path / 'expected.yaml'}:{line}: "), problem
    assert words in problem


def test_an_unknown_case_id_names_its_line_and_the_closest_case(tmp_path):
    (problem,) = problems_of(tmp_path, "expectations:\n  land.one-per-turn: {status: fail}\n"
                             "  modern::start.life-twnety: {status: crash}\n", KNOWN)
    assert ":3: expectations.modern::start.life-twnety: no case has this id (did you mean "\
        "start.life-twenty?)" in problem
    (far,) = problems_of(tmp_path, "expectations:\n  zzz.nothing-like-it: {status: fail}\n",
                         KNOWN)
    assert far.endswith("no case has this id")


def test_update_drops_what_passes_keeps_reasons_and_adds_new_failures_to_fill_in(tmp_path):
    path = tmp_path / "expected.yaml"
    path.write_text(
        "engine: toy\nexpectations:\n"
        "  land.one-per-turn: {status: fail, reason: we allow two, link: https://x/1}\n"
        "  start.life-twenty: {status: crash, reason: dies at start}\n"
        "  modern::turn.first-player-skips-draw: {status: fail, reason: draws}\n"
        "  cr2004::combat.not-run: {status: timeout, reason: kept}\n", encoding="utf-8")
    current = Expectations.load(path)
    done = update(current, [
        record("land.one-per-turn", "cr2004", "fail", "two lands"),
        record("land.one-per-turn", "modern", "pass"),       # passes now in one edition
        record("start.life-twenty", "cr2004", "fail", "life 19"),  # fails another way
        record("start.life-twenty", "modern", "fail", "life 19"),
        record("turn.first-player-skips-draw", "modern", "pass"),  # fixed
        record("turn.first-player-skips-draw", "cr2004", "error", "bad answer"),  # new
        record("combat.not-run", "cr2004", "skip", "lacks combat"),
        record("zone.new-failure", "cr2004", "crash", "died\n  at step 3"),
        record("zone.new-failure", "modern", "crash", "died\n  at step 3"),
    ])
    assert done.dropped == ("modern::turn.first-player-skips-draw",)
    assert set(done.changed) == {"land.one-per-turn", "start.life-twenty"}
    assert done.added == ("cr2004::turn.first-player-skips-draw", "zone.new-failure")
    path.write_text(done.text, encoding="utf-8")
    loaded = Expectations.load(path)
    assert loaded.engine == "toy"
    assert loaded.entries == {
        "cr2004::combat.not-run": Expectation("timeout", "kept"),
        "cr2004::land.one-per-turn": Expectation("fail", "we allow two", "https://x/1"),
        "start.life-twenty": Expectation("fail", "dies at start"),
        "cr2004::turn.first-player-skips-draw": Expectation(
            "error", f"{TO_FILL_IN} (the run said: bad answer)"),
        "zone.new-failure": Expectation("crash", f"{TO_FILL_IN} (the run said: died at step 3)"),
    }


def test_an_updated_file_is_one_update_from_itself(tmp_path):
    path = tmp_path / "expected.yaml"
    path.write_text("expectations:\n  land.one-per-turn: {status: fail, reason: r}\n",
                    encoding="utf-8")
    rows = [record("land.one-per-turn", "cr2004", "fail", "x"),
            record("start.life-twenty", "modern", "crash", "y")]
    first = update(Expectations.load(path), rows)
    path.write_text(first.text, encoding="utf-8")
    second = update(Expectations.load(path), rows)
    assert second.text == first.text
    assert (second.dropped, second.changed, second.added) == ((), (), ())


def test_the_update_command_rewrites_the_file_and_says_what_to_fill_in(tmp_path, capsys):
    expected = tmp_path / "conformance" / "expectations.yaml"
    expected.parent.mkdir()
    expected.write_text("expectations:\n  land.one-per-turn: {status: fail, reason: r}\n",
                        encoding="utf-8")
    results = tmp_path / "results.json"
    Results({"reference": None}, ("cr2004",), (
        record("land.one-per-turn", "cr2004", "pass"),
        record("start.life-twenty", "cr2004", "fail", "life 19")),
        "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z").write(results)
    assert main(["expectations", "update", str(expected), str(results)]) == 0
    err = capsys.readouterr().err
    assert "1 dropped (now passing), 0 changed, 1 added" in err
    assert f"added   start.life-twenty: give it a reason (replace '{TO_FILL_IN}')" in err
    assert Expectations.load(expected).entries == {
        "start.life-twenty": Expectation("fail", f"{TO_FILL_IN} (the run said: life 19)")}


def test_generate_creates_the_folders_of_its_output(tmp_path, capsys):
    results = tmp_path / "results.json"
    Results({"reference": None}, ("cr2004",), (record("start.life-twenty", "cr2004", "fail",
                                                      "life 19"),),
            "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z").write(results)
    output = tmp_path / "conformance" / "deeper" / "expectations.yaml"
    assert main(["expectations", "generate", str(results), "-o", str(output)]) == 0
    assert Expectations.load(output).entries["start.life-twenty"].status == "fail"


def test_the_format_page_documents_every_field_and_status_the_loader_accepts():
    text = DOC.read_text(encoding="utf-8")
    schema = json.loads((ROOT / "spec" / "schemas" / "expectations.json").read_text("utf-8"))
    entry = schema["properties"]["expectations"]["additionalProperties"]
    for name in [*schema["properties"], *entry["properties"]]:
        assert f"`{name}`" in text, name
    for status in entry["properties"]["status"]["enum"]:
        assert f"`{status}`" in text, status
    editions = re.search(r"\^\(\((.*?)\)::\)", schema["properties"]["expectations"]
                         ["propertyNames"]["pattern"]).group(1).split("|")
    for edition in editions:
        assert f"`{edition}::" in text, edition
    assert "mtgconf expectations update" in text and "mtgconf expectations generate" in text
