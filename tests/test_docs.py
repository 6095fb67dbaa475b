"""The documents that describe code stay true to it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# "modern 603.4", "2004 rule 310.2c", "(modern 702.26g": an edition and a rule number.
_CITED = re.compile(r"\b(modern|2004)\s+(?:rule\s+)?([1-9]\d{2}\.\d+[a-z]?)")


def _in_corpus(edition: str, number: str) -> bool:
    section = int(number.split(".", maxsplit=1)[0])
    if edition == "modern":
        return 400 <= section <= 408
    return 100 <= section <= 217 or section == 300


def test_every_rule_the_engine_cites_outside_the_seeds_is_listed():
    listed = (ROOT / "docs" / "rules-outside-the-seeds.md").read_text(encoding="utf-8")
    table = set()
    # A row names an edition and one or more rules: "| modern 510.1a, 510.1c, 510.1d |".
    for row in re.findall(r"^\| ((?:modern|2004) [^|]+)\|", listed, re.M):
        edition = row.split()[0]
        table |= {(edition, n) for n in re.findall(r"\d{3}\.\d+[a-z]?", row)}
    cited = set()
    for path in sorted((ROOT / "reference_engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8").replace("\n", " ").replace("#", " ")
        cited |= {(e, n) for e, n in _CITED.findall(text) if not _in_corpus(e, n)}
    assert sorted(cited - table) == []
