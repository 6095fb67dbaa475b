"""The committed index: fresh, schema-valid, complete, and looked up correctly."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from spec import annotations, build
from spec.corpus import Corpus
from spec.editions import CR2004, EDITIONS, SPEC_DIR
from spec.errors import AnnotationError, UnknownRule
from spec.terms import load_concordance, load_glossary


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.load()


@pytest.mark.parametrize("edition", EDITIONS.values(), ids=EDITIONS)
def test_regenerating_the_index_changes_nothing(edition):
    assert build.render_index(edition) == edition.index_path.read_text(encoding="utf-8")


def test_records_match_the_schema(corpus):
    schema = json.loads((SPEC_DIR / "schemas" / "rule.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for rule in corpus:
        errors = list(validator.iter_errors(rule.to_json()))
        assert not errors, (rule.ref, errors[0].message)


def test_every_numbered_line_once_with_gist_and_class(corpus):
    refs = Counter(r.ref for r in corpus)
    assert max(refs.values()) == 1
    per_edition = Counter((r.edition, r.kind == "section") for r in corpus)
    assert per_edition == {
        ("cr2004", False): 210, ("cr2004", True): 24, ("modern", False): 78, ("modern", True): 9
    }
    for rule in corpus:
        assert rule.gist and rule.gist.isascii(), rule.ref
        assert rule.testability_class in annotations.CLASSES, rule.ref


def test_testability_is_consistent(corpus):
    for rule in corpus:
        value = rule.testability
        if rule.kind in ("section", "heading"):
            assert value == {"class": "not-testable", "reason": "heading"}, rule.ref
        if value["class"] == "definition":
            for ref in value["exercised_by"]:
                target = corpus.get(ref)
                assert target.edition == rule.edition and target.is_testable, (rule.ref, ref)


def test_translation_slip_in_214_4(corpus):
    rule = corpus.get("cr2004:214.4")
    (slip,) = [a for a in rule.anomalies if a["kind"] == "translation"]
    assert slip["line"] == 294
    assert "permanent" in slip["why"]
    assert "每個咒語" in rule.text  # the text is kept as printed


def test_find_printed_id_used_three_times(corpus):
    assert [r.ref for r in corpus.find("212.6b")] == [
        "cr2004:212.6b", "cr2004:212.6c", "cr2004:212.6f"
    ]
    assert [r.line for r in corpus.find("212.2b")] == [232, 263]
    assert [r.ref for r in corpus.find("cr2004:212.5e")] == ["cr2004:212.5e", "cr2004:212.7e"]
    assert [r.ref for r in corpus.find("212.5b")] == ["cr2004:212.5b"]
    assert [r.ref for r in corpus.find("modern:400.7")] == ["modern:400.7"]


@pytest.mark.parametrize("query", ["999.9", "cr2004:400.1", "modern:101.5", "abc", "212.5z"])
def test_find_unknown(corpus, query):
    with pytest.raises(UnknownRule):
        corpus.find(query)


def test_quotes_fold_width_and_spacing(corpus):
    rule = corpus.get("modern:400.7a")
    assert rule.quotes("パーマネント 呪文の特性")
    assert corpus.get("cr2004:101.5").quotes("先手的玩家略過他第一個回合的抽牌步驟")
    assert not corpus.get("cr2004:101.5").quotes("先手的玩家抽牌")


def test_search_gist_and_original(corpus):
    assert "cr2004:300.3" in [r.ref for r in corpus.search("魔法力灼傷")]
    assert "cr2004:300.3" in [r.ref for r in corpus.search("mana burn")]
    assert [r.edition for r in corpus.search("exile", "modern")] == ["modern"] * len(
        corpus.search("exile", "modern")
    )


def test_glossary_terms_occur_in_their_seeds(corpus):
    terms = load_glossary(corpus)
    english = {t.english for t in terms}
    assert {"permanent", "spell", "stack", "token", "library"} <= english
    assert len(terms) >= 40
    assert any(t.cr2004 == "場上" for t in terms)
    assert any(t.modern == "戦場" for t in terms)


def test_concordance_covers_every_2004_zone_rule(corpus):
    pairs = load_concordance(corpus)
    assert len(pairs) == len([r for r in corpus.edition("cr2004") if r.section == "217"])
    by_old = {p.cr2004: p for p in pairs}
    assert "400.3" in by_old["217.1a"].modern
    assert by_old["217.8a"].modern == ()  # no phased-out zone in the modern edition


def _annotations_without(tmp_path: Path, drop: str) -> Path:
    source = CR2004.annotations_path.read_text(encoding="utf-8")
    lines = source.split("\n")
    start = lines.index(f'"{drop}":')
    end = start + 1
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    path = tmp_path / "cr2004.yaml"
    path.write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    return path


def test_missing_annotation_names_file_and_rule(tmp_path):
    path = _annotations_without(tmp_path, "101.5")
    with pytest.raises(AnnotationError, match=r"cr2004\.yaml.*no annotation.*101\.5"):
        build.build_records(CR2004, path)


def test_bad_testability_names_the_rule(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text('"101.5":\n  gist: x\n  testability: {class: maybe}\n', encoding="utf-8")
    with pytest.raises(AnnotationError, match=r"bad\.yaml: 101\.5: testability\.class"):
        annotations.load(path, str(path))
