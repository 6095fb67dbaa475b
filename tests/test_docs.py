"""The documents that describe code stay true to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spec.corpus import Corpus

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE_DOC = ROOT / "docs" / "rules-outside-the-seeds.md"
# "modern 603.4", "2004 rule 310.2c", "(modern 702.26g": an edition and a rule number.
_CITED = re.compile(r"\b(modern|2004)\s+(?:rule\s+)?([1-9]\d{2}\.\d+[a-z]?)")
_EDITION = {"modern": "modern", "2004": "cr2004"}


def _engine_citations() -> dict[str, list[str]]:
    """Every rule the reference engine's code cites, with its edition: ref -> files."""
    cited: dict[str, list[str]] = {}
    for path in sorted((ROOT / "reference_engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8").replace("\n", " ").replace("#", " ")
        for edition, number in _CITED.findall(text):
            cited.setdefault(f"{_EDITION[edition]}:{number}", []).append(
                path.relative_to(ROOT).as_posix())
    return cited


def _doc_table() -> set[str]:
    """The rules the doc's table lists: a row names an edition and one or more rules,
    "| modern 510.1a, 510.1c, 510.1d |"."""
    listed = OUTSIDE_DOC.read_text(encoding="utf-8")
    table = set()
    for row in re.findall(r"^\| ((?:modern|2004) [^|]+)\|", listed, re.M):
        edition = _EDITION[row.split()[0]]
        table |= {f"{edition}:{n}" for n in re.findall(r"\d{3}\.\d+[a-z]?", row)}
    return table


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.load()


def test_every_rule_the_engine_cites_is_a_record_of_the_corpus(corpus):
    # The corpus is the authority: a rule the code cites is a seed rule or one of our records of
    # the rules outside the seeds (spec/outside/<edition>.yaml), with its edition.
    missing = {ref: files for ref, files in _engine_citations().items() if ref not in corpus}
    assert missing == {}


def test_every_rule_the_engine_cites_outside_the_seeds_is_listed(corpus):
    outside = {ref for ref in _engine_citations() if ref in corpus and corpus.get(ref).outside}
    assert sorted(outside - _doc_table()) == []


def test_the_docs_table_lists_only_records_outside_the_seeds(corpus):
    # The doc is checked against the records (not generated from them): its second column says
    # what the engine does, which is the engine's, not the rule's.
    wrong = sorted(ref for ref in _doc_table()
                   if ref not in corpus or not corpus.get(ref).outside)
    assert wrong == []


def test_the_reports_page_says_the_rule_pages_need_cjk_fonts():
    text = " ".join((ROOT / "docs" / "reports.md").read_text(encoding="utf-8").split())
    assert "fonts-noto-cjk" in text and "CJK fonts" in text
