"""The seed parser: every numbered line exactly once, anomalies, joins, references, errors."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from spec import parser
from spec.editions import CR2004, EDITIONS, MODERN
from spec.errors import SourceError

SHARED_SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.fixture(scope="module")
def cr2004() -> dict[str, parser.Entry]:
    return {e.id: e for e in parser.parse(CR2004)}


@pytest.fixture(scope="module")
def modern() -> dict[str, parser.Entry]:
    return {e.id: e for e in parser.parse(MODERN)}


@pytest.mark.parametrize("edition", EDITIONS.values(), ids=EDITIONS)
def test_sources_are_byte_copies_of_the_seeds(edition):
    data = edition.source_path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == edition.sha256
    seed = SHARED_SEEDS / edition.source
    if seed.exists():
        assert seed.read_bytes() == data


@pytest.mark.parametrize(
    ("edition", "rules", "sections", "headings"),
    [(CR2004, 210, 24, 18), (MODERN, 78, 9, 0)],
    ids=["cr2004", "modern"],
)
def test_counts_per_edition(edition, rules, sections, headings):
    kinds = Counter(e.kind for e in parser.parse(edition))
    assert kinds["section"] == sections
    assert kinds["rule"] + kinds["heading"] == rules
    assert kinds["heading"] == headings


@pytest.mark.parametrize("edition", EDITIONS.values(), ids=EDITIONS)
def test_every_line_is_accounted_for_once(edition):
    """Each line after the front matter belongs to exactly one record or is a chapter line."""
    lines = parser.read_source(edition.source_path)
    entries = parser.parse(edition)
    owner: dict[int, str] = {}
    for entry in entries:
        for number in range(entry.line, entry.end_line + 1):
            assert number not in owner, f"line {number} claimed twice"
            owner[number] = entry.id
        assert entry.raw_text.split("\n")[0] == lines[entry.line - 1]
    first = min(owner)
    chapters = [n for n in range(first, len(lines) + 1) if n not in owner]
    assert all(parser._CHAPTER.match(lines[n - 1]) for n in chapters), chapters
    assert max(owner) == len(lines)


def test_front_matter_and_contents_are_not_rules(cr2004):
    lines = {e.line for e in cr2004.values()}
    assert min(lines) == 98  # "100. 一般規則" after the contents list and "1. 遊戲"
    assert len([e for e in cr2004.values() if e.id == "100"]) == 1


def test_last_line_without_newline_is_a_rule(cr2004):
    assert not CR2004.source_path.read_bytes().endswith(b"\n")
    last = cr2004["300.6"]
    assert last.line == 357
    assert last.text.endswith("由最新產生的額外回合先開始。")


def test_wrapped_cross_reference_is_not_a_rule(cr2004):
    entry = cr2004["217.5c"]
    assert entry.text.endswith("（見規則217.1c）")
    assert (entry.line, entry.end_line) == (326, 327)
    assert [e.line for e in cr2004.values() if e.printed_id == "217.1c"] == [306]
    (anomaly,) = [a for a in entry.anomalies if a.kind == "not-a-rule"]
    assert anomaly.line == 327


@pytest.mark.parametrize(
    ("line", "printed", "canonical"),
    [
        (263, "212.2b", "212.5b"),
        (264, "212.2c", "212.5c"),
        (270, "212.6b", "212.6c"),
        (275, "212.6b", "212.6f"),
        (282, "212.5e", "212.7e"),
    ],
)
def test_numbering_anomalies(cr2004, line, printed, canonical):
    entry = cr2004[canonical]
    assert (entry.line, entry.printed_id) == (line, printed)
    assert entry.parent == canonical[:-1]
    (anomaly,) = [a for a in entry.anomalies if a.kind == "numbering"]
    assert (anomaly.line, anomaly.printed_id, anomaly.canonical_id) == (line, printed, canonical)


def test_exactly_five_numbering_anomalies():
    found = [a for e in parser.parse(CR2004) for a in e.anomalies if a.kind == "numbering"]
    assert len(found) == 5
    assert not [a for e in parser.parse(MODERN) for a in e.anomalies if a.kind == "numbering"]


def test_canonical_ids_fill_the_letter_sequences(cr2004):
    for parent, letters in {"212.5": "abcde", "212.6": "abcdefg", "212.7": "abcde"}.items():
        children = [e.id for e in cr2004.values() if e.parent == parent]
        assert children == [parent + x for x in letters]


def test_joined_continuations(cr2004):
    assert cr2004["203.2c"].text.endswith("{紅}是紅色，{綠}則是綠色。")
    assert "（Enchant World）" in cr2004["212.4j"].text
    assert "（set aside）" in cr2004["217.7a"].text
    assert "衍生物並不是牌" in cr2004["200.1"].text
    assert "。且此地的文字欄" in cr2004["212.6d"].text
    (note,) = cr2004["205.4b"].examples
    assert "覆雪山脈（Snow-Covered Mountain）" in note.text
    assert cr2004["203.2c"].raw_text.split("\n")[1] == "{綠}則是綠色。"


def test_ids_are_stripped_of_periods_and_spacing(cr2004):
    assert cr2004["217.1b"].text.startswith("除非任何效應允許")
    assert cr2004["205.2b"].text.startswith("有些物件具有多種類別")
    assert cr2004["100.1"].text.startswith("這些魔法風雲會規則")
    assert cr2004["212.5"].kind == "heading"
    assert cr2004["212.5"].text == "瞬間"


def test_examples_belong_to_the_rule_above(cr2004, modern):
    owners = {x.line: e.id for e in cr2004.values() for x in e.examples}
    assert owners == {
        125: "103.4", 129: "104.2", 130: "104.2", 167: "202.2a", 169: "202.2b",
        178: "203.2c", 181: "203.3", 193: "205.3b", 200: "205.4b", 224: "212.1c",
        225: "212.1c", 227: "212.1d", 229: "212.1e", 246: "212.3c", 253: "212.4d",
        271: "212.6c", 289: "213.5",
    }
    assert [x.line for x in modern["400.6"].examples] == [12]
    assert "例" not in cr2004["104.2"].text


def test_modern_stray_spaces_removed(modern):
    assert "パーマネント呪文" in modern["400.7a"].text
    assert "rule 611.3d 参照" in modern["400.7b"].text  # spaces next to ASCII stay
    texts = [e.text for e in modern.values()] + [
        x.text for e in modern.values() for x in e.examples
    ]
    assert not any(parser._STRAY_SPACE.search(t) for t in texts)
    removed = [a.why for e in modern.values() for a in e.anomalies if "stray" in a.why]
    assert sum(int(why.split()[0]) for why in removed) == 34


def test_modern_sub_rules_skip_l(modern):
    assert [e.id for e in modern.values() if e.parent == "400.7"][-2:] == ["400.7k", "400.7m"]


def test_cross_references_2004(cr2004):
    refs = [(e.id, r) for e in cr2004.values() for r in e.references]
    numbered = [r for _, r in refs if r.kind in ("rule", "section")]
    assert len(numbered) == 47
    present = {r.target for r in numbered if r.status == "present"}
    assert present == {
        "101", "102.7", "200.2", "212", "212.3d", "212.4", "213", "214", "215", "216",
        "217", "217.1c",
    }
    assert all(r.ref == f"cr2004:{r.target}" for r in numbered if r.status == "present")
    # 406 exists in the modern edition (exile) but must never resolve there.
    (mana,) = [r for i, r in refs if i == "212.6d"]
    assert (mana.target, mana.status, mana.ref) == ("406", "absent", None)
    kinds = Counter(r.kind for _, r in refs)
    assert kinds["chapter"] == 1 and kinds["glossary"] == 1
    assert [r.target for i, r in refs if i == "212.1e"] == ["200.2", "glossary"]
    assert [r.target for i, r in refs if i == "217.8c"] == ["502.15", "217.1c"]


def test_cross_references_modern(modern):
    refs = [r for e in modern.values() for r in e.references]
    assert [r.target for r in refs if r.status == "present"] == ["400.7"]
    # A range is expanded; 101.4 exists only in cr2004 (the mulligan) and stays absent here.
    assert [r.target for r in modern["405.4"].references] == ["603.7d", "603.7e", "603.7f"]
    assert [(r.target, r.status) for r in modern["405.3"].references] == [("101.4", "absent")]
    assert [r.kind for r in modern["408.3"].references] == ["chapter"]


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "seed.txt"
    path.write_bytes(data)
    return path


def test_truncated_inside_a_character_names_file_and_line(tmp_path):
    data = CR2004.source_path.read_bytes()
    cut = data.index("區域即為".encode()) + 1  # inside the first character of line 303
    path = _write(tmp_path, data[:cut])
    with pytest.raises(SourceError) as info:
        parser.read_source(path)
    assert info.value.line == 303
    assert str(path) in str(info.value)
    assert "truncated" in str(info.value)


def test_wrong_encoding_names_file_and_line(tmp_path):
    text = CR2004.source_path.read_text(encoding="utf-8")
    path = _write(tmp_path, text.encode("big5", errors="replace"))
    with pytest.raises(SourceError) as info:
        parser.read_source(path)
    assert info.value.line == 1
    assert "not UTF-8" in str(info.value)


def test_modified_source_fails_the_checksum(tmp_path):
    data = MODERN.source_path.read_bytes()
    path = _write(tmp_path, data[: data.rindex(b"\n")])  # last line lost
    with pytest.raises(SourceError) as info:
        parser.read_source(path, MODERN.sha256)
    assert "sha256" in str(info.value) and str(path) in str(info.value)


def test_truncated_before_the_body_is_reported(tmp_path):
    lines = parser.read_source(CR2004.source_path)[:40]
    with pytest.raises(SourceError, match=r":20: the contents list is never followed"):
        parser.parse(CR2004, lines)


def test_malformed_modern_rule_line_is_reported():
    lines = parser.read_source(MODERN.source_path)
    lines[5] = "- 400.x broken"
    with pytest.raises(SourceError, match=r":6: malformed rule line"):
        parser.parse(MODERN, lines)


def test_crlf_source_is_rejected(tmp_path):
    path = _write(tmp_path, MODERN.source_path.read_bytes().replace(b"\n", b"\r\n"))
    with pytest.raises(SourceError, match=r":1: carriage return"):
        parser.read_source(path)
