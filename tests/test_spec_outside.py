"""The rules outside the seeds: the records, their index, the corpus serving them apart from
the seed rules, the refusal of bad records (file, line, rule id), and the lint of cases that
cite them by key terms."""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from conformance import casefile, lint
from spec import build, outside
from spec.corpus import Corpus, fold
from spec.editions import CR2004, EDITIONS, MODERN, SPEC_DIR
from spec.errors import OutsideError


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.load()


@pytest.fixture(scope="module")
def seeds() -> dict[str, list[dict]]:
    return {key: build.build_records(edition) for key, edition in EDITIONS.items()}


# --- the records and their index ----------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS.values(), ids=EDITIONS)
def test_regenerating_the_outside_index_changes_nothing(edition, seeds):
    assert build.render_outside_index(edition, seeds[edition.key]) == \
        outside.index_path(edition).read_text(encoding="utf-8")


def test_every_record_of_both_parts_matches_the_rule_schema(corpus):
    schema = json.loads((SPEC_DIR / "schemas" / "rule.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for rule in corpus.all_rules:
        errors = list(validator.iter_errors(rule.to_json()))
        assert not errors, (rule.ref, errors[0].message)


def test_the_schema_tells_the_parts_apart(corpus):
    schema = json.loads((SPEC_DIR / "schemas" / "rule.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    seed = corpus.get("cr2004:101.5").to_json()
    assert not validator.is_valid({**seed, "text": ""})           # a seed rule has its text
    assert not validator.is_valid({**seed, "terms": ["first"]})   # and no outside fields
    record = corpus.get("modern:508.1a").to_json()
    assert not validator.is_valid({**record, "text": "words of the rules"})  # never its text
    del record["version"]
    assert not validator.is_valid(record)


def test_at_least_a_hundred_rules_with_gist_class_terms_and_the_pin(corpus):
    numbered = [r for r in corpus.outside_rules if r.kind != "section"]
    assert len(numbered) >= 100
    assert {r.edition for r in numbered} == {"cr2004", "modern"}
    for rule in corpus.outside_rules:
        assert rule.outside and rule.gist and rule.testability_class
        assert rule.version == EDITIONS[rule.edition].pinned, rule.ref
        assert rule.text == "" and rule.raw_text == "" and not rule.examples, rule.ref
        if rule.kind == "rule":
            assert rule.terms and all(fold(t) in fold(rule.gist) for t in rule.terms), rule.ref
        else:
            assert rule.testability == {"class": "not-testable", "reason": "heading"}, rule.ref


def test_ids_are_unique_across_both_parts_and_sections_are_records(corpus):
    assert max(Counter(r.ref for r in corpus.all_rules).values()) == 1
    for rule in corpus.outside_rules:
        section = corpus.get(f"{rule.edition}:{rule.section}")
        assert section.kind == "section" and section.section_title == rule.section_title
        if rule.parent is not None:
            assert f"{rule.edition}:{rule.parent}" in corpus, rule.ref


def test_the_2004_section_titles_are_the_seeds_contents_list(corpus):
    titles = outside.contents(CR2004)
    assert titles["310"] == "戰鬥傷害步驟" and titles["502"] == "關鍵字異能" and len(titles) == 69
    for rule in corpus.records("cr2004", outside=True):
        assert rule.section_title == titles[rule.section], rule.ref


def test_unsure_only_in_2004_and_always_with_why(corpus):
    assert all(r.unsure is None for r in corpus.records("modern", outside=True))
    unsure = [r for r in corpus.records("cr2004", outside=True) if r.unsure]
    assert unsure and all(len(r.unsure.split()) >= 8 for r in unsure)


def test_connections_and_cross_references_resolve(corpus):
    assert corpus.get("cr2004:310.1").connects == ("cr2004:217.6e", "cr2004:200.8")
    assert corpus.get("modern:514.2").connects == ()     # damage wears off: nothing in section 4
    for rule in corpus.outside_rules:
        for ref in rule.connects:
            target = corpus.get(ref)
            assert not target.outside and target.edition == rule.edition, (rule.ref, ref)
        for reference in rule.references:
            assert reference["status"] == "present" and reference["ref"] in corpus, rule.ref


def test_every_rule_the_doc_lists_and_the_briefs_examples_are_records(corpus):
    for ref in ("modern:103.5", "modern:103.8a", "modern:117.3c", "modern:508.1a",
                "modern:509.1b", "modern:702.9b", "modern:514.2", "modern:702.26b",
                "modern:608.2n", "modern:510.1c", "cr2004:502.4b", "cr2004:314.2",
                "cr2004:310.2c", "cr2004:420.5e", "cr2004:502.2b", "cr2004:502.28b"):
        assert corpus.get(ref).outside, ref


# --- the corpus serves them apart ---------------------------------------------------------

def test_lookups_know_both_parts_and_going_through_gives_the_seeds(corpus):
    rule = corpus.get("modern:508.1a")
    assert rule.outside and "modern:508.1a" in corpus
    assert [r.ref for r in corpus.find("508.1a")] == ["modern:508.1a"]
    assert not any(r.outside for r in corpus) and len(corpus) == len(corpus.rules)
    assert not any(r.outside for r in corpus.edition("modern"))
    assert all(r.outside for r in corpus.records(outside=True))
    assert len(corpus.records(outside=None)) == len(corpus.all_rules) == \
        len(corpus.rules) + len(corpus.outside_rules)
    assert [r.ref for r in corpus.records("cr2004", outside=True)][:2] == ["cr2004:301",
                                                                            "cr2004:301.1"]


def test_children_search_and_source_follow_the_part(corpus):
    assert [c.id for c in corpus.children(corpus.get("modern:510.1"))] == [
        "510.1a", "510.1b", "510.1c", "510.1d", "510.1e"]
    assert not any(r.outside for r in corpus.search("vigilance"))
    found = [r.ref for r in corpus.search("vigilance tap", outside=True)]
    assert found == ["modern:508.1f", "modern:702.20b"]
    assert corpus.source_of(corpus.get("modern:508.1a")) == "spec/outside/modern.yaml"
    assert corpus.source_of(corpus.get("modern:400.1")).startswith("spec/sources/")
    assert corpus.editions["cr2004"].outside["version"] == "2004-06-01"


# --- bad records are refused, named by file and line ---------------------------------------

GOOD_MODERN = """\
"508":
  title: Declare Attackers Step
  gist: "Section heading: Declare attackers step."
"508.1":
  gist: The active player declares attackers as the step begins.
  testability: {class: engine}
  terms: [declares attackers]
"508.1a":
  gist: Each attacker must be untapped and have haste or have been controlled since the turn began.
  testability: {class: engine}
  terms: [untapped, haste]
  see: ["508.1"]
  connects: ["403.1"]
"""


def compile_modern(tmp_path: Path, text: str, seeds: dict[str, list[dict]]) -> list[dict]:
    path = tmp_path / "modern.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return outside.build_records(MODERN, seeds["modern"], path)


def test_a_good_file_compiles(tmp_path, seeds):
    records = compile_modern(tmp_path, GOOD_MODERN, seeds)
    assert [(r["id"], r["line"], r["end_line"], r["parent"], r["depth"]) for r in records] == [
        ("508", 1, 3, None, 0), ("508.1", 4, 7, "508", 1), ("508.1a", 8, 13, "508.1", 2)]
    assert records[2]["connects"] == ["modern:403.1"]
    assert records[2]["references"][0]["ref"] == "modern:508.1"
    assert records[2]["section_title"] == "Declare Attackers Step"


@pytest.mark.parametrize(("edit", "line", "words"), [
    (("  terms: [untapped, haste]\n", "  terms: [untapped, haste]\n  text: copied\n"), 8,
     "508.1a: Additional properties are not allowed ('text' was unexpected)"),
    (("  testability: {class: engine}\n  terms: [declares", "  testability: {class: maybe}\n"
      "  terms: [declares"), 6, "508.1: testability.class: 'maybe' is not one of"),
    (('"508.1a":', '"5o8.1a":'), 8, "5o8.1a: not a rule id"),
    (("  title: Declare Attackers Step\n", ""), 1, "508: title: missing"),
    (("  title: Declare Attackers Step\n", "  title: Declare Attackers Step\n  terms: [x1]\n"),
     1, "a section has a title, a gist and nothing else (not terms)"),
    (("  gist: The active player", "  title: Attackers\n  gist: The active player"), 4,
     "title: only a section has one"),
    (('"508.1a":', '"508.1":'), 8, "508.1: given twice"),
    (('"508.1a":', '"400.1":'), 8, "400.1: is a rule of the modern seed"),
    (('"508.1a":', '"508.2a":'), 8, "its parent 508.2 is neither a record here nor a rule"),
    (('"508.1a":', '"508.0":'), 8, "out of order: it comes after 508.1"),
    (('"508.1a":', '"508.1l":'), 8, "sub-rule letters skip l and o"),
    (("terms: [untapped, haste]", "terms: [untapped, flying]"), 8,
     "'flying' does not occur in the gist"),
    (('connects: ["403.1"]', 'connects: ["508.1"]'), 8,
     "connects: 508.1 is no rule of the modern seed (it is a record outside the seed"),
    (('see: ["508.1"]', 'see: ["702.9b"]'), 8, "see: 702.9b is no record of modern"),
    (("  terms: [untapped, haste]\n", "  terms: [untapped, haste]\n  unsure: we cannot tell "
      "about this one at all\n"), 8, "unsure: only for cr2004"),
    (("  testability: {class: engine}\n  terms: [untapped", "  terms: [untapped"), 8,
     "testability: missing"),
    (("  gist: The active player", "  kind: heading\n  gist: The active player"), 4,
     "testability: a heading is not-testable (heading)"),
    (("  gist: The active player declares attackers as the step begins.\n"
      "  testability: {class: engine}\n", "  kind: heading\n  gist: Lead-in.\n"), 4,
     "terms: a heading has no key terms"),
    (("gist: Each attacker must be untapped", "gist: Each attacker must be ready"), 8,
     "'untapped' does not occur in the gist"),
    (("gist: The active player declares", "gist: The active player déclare"), 4,
     "gist: must be English"),
    (('  see: ["508.1"]\n', '  see: ["508.1"\n'), 13, "not valid YAML"),
])
def test_a_bad_record_is_refused_naming_file_line_and_rule(tmp_path, seeds, edit, line, words):
    text = GOOD_MODERN.replace(*edit)
    assert text != GOOD_MODERN, edit
    with pytest.raises(OutsideError) as caught:
        compile_modern(tmp_path, text, seeds)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'modern.yaml'}:{line}: "), message
    assert words in message, message
    assert "Traceback" not in message


def test_a_2004_title_must_be_the_seeds(tmp_path, seeds):
    path = tmp_path / "cr2004.yaml"
    path.write_text('"310":\n  title: Combat Damage Step\n  gist: "Section heading: Combat '
                    'damage step."\n', encoding="utf-8")
    with pytest.raises(OutsideError, match="the seed's contents list prints '戰鬥傷害步驟'"):
        outside.build_records(CR2004, seeds["cr2004"], path)


def test_an_empty_or_unreadable_file_is_refused(tmp_path, seeds):
    empty = tmp_path / "modern.yaml"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(OutsideError, match="is empty"):
        outside.build_records(MODERN, seeds["modern"], empty)
    with pytest.raises(OutsideError, match="cannot read"):
        outside.build_records(MODERN, seeds["modern"], tmp_path / "absent.yaml")


def test_the_build_reports_a_bad_record_without_a_traceback(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "outside"
    bad.mkdir()
    for edition in EDITIONS.values():
        (bad / f"{edition.key}.yaml").write_text(
            outside.source_path(edition).read_text(encoding="utf-8"), encoding="utf-8")
    text = (bad / "modern.yaml").read_text(encoding="utf-8")
    (bad / "modern.yaml").write_text(text.replace("terms: [untapped, haste, continuously",
                                                  "terms: [tapped, haste, continuously"),
                                     encoding="utf-8")
    monkeypatch.setattr(outside, "SOURCE_DIR", bad)
    assert build.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "508.1a: terms: 'tapped' does not occur" in err
    assert "Traceback" not in err


# --- the lint of cases citing outside rules --------------------------------------------------

CASE = """\
- id: test.outside
  rules: [modern:508.1a]
  editions: [modern]
  terms: [untapped]
  summary: A tapped creature cannot be declared as an attacker.
  setup:
    players:
      A: {hand: [{handle: bolt, card: Lightning Bolt}]}
  steps:
    - expect: {players.A.life: 20}
"""


def lint_of(tmp_path: Path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "cases.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    cases = casefile.load([tmp_path])
    assert cases.problems == [], cases.problems
    return [(p.severity, p.message) for p in lint.lint(cases)]


def test_a_case_citing_an_outside_rule_by_its_key_terms_lints_clean(tmp_path):
    assert lint_of(tmp_path, CASE) == []
    assert lint_of(tmp_path, CASE.replace("terms: [untapped]",
                                          "terms: {modern:508.1a: [Untapped, HASTE]}")) == []
    mixed = CASE.replace("rules: [modern:508.1a]", "rules: [modern:508.1a, modern:402.2]") \
        .replace("terms: [untapped]", "terms: [untapped]\n  quote: {modern:402.2: 手札の上限}")
    assert lint_of(tmp_path, mixed) == []


@pytest.mark.parametrize(("edit", "severity", "words"), [
    (("terms: [untapped]", "terms: [flying]"), "error",
     "'flying' is not a key term of modern:508.1a (its key terms: 'untapped', 'haste'"),
    (("terms: [untapped]", "quote: {modern:508.1a: untapped}"), "error",
     "no terms for modern:508.1a"),
    (("terms: [untapped]", "terms: [untapped]\n  quote: {modern:508.1a: untapped}"), "error",
     "modern:508.1a is outside the seeds: the corpus has no text of it to quote"),
    (("terms: [untapped]", "terms: {modern:508.1a: untapped, modern:509.1a: blocks}"),
     "warning", "the terms for modern:509.1a belong to no cited rule"),
    (("rules: [modern:508.1a]\n  editions: [modern]\n  terms: [untapped]",
      "rules: [modern:402.2]\n  editions: [modern]\n  quote: 手札の上限\n"
      "  terms: {modern:402.2: hand}"), "error", "modern:402.2 is a seed rule: quote its text"),
    (("rules: [modern:508.1a]", "rules: [modern:508]"), "warning",
     "modern:508 is not testable by an engine (heading)"),
])
def test_the_lint_holds_a_case_to_the_outside_rules_key_terms(tmp_path, edit, severity, words):
    problems = lint_of(tmp_path, CASE.replace(*edit))
    assert [s for s, m in problems if words in m] == [severity], problems


def test_a_case_needs_a_quote_or_terms(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text(CASE.replace("  terms: [untapped]\n", ""), encoding="utf-8")
    cases = casefile.load([tmp_path])
    assert cases.cases == [] and "is not valid under any of the given schemas" in \
        cases.problems[0].message
