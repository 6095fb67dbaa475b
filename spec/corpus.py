"""The rules corpus: every numbered rule of both editions, read from the committed index.

It has two parts: the seed rules (the rules the two seed documents hold, with their original
text) and the rules outside the seeds (our records of the rest of each edition's Comprehensive
Rules, with a gist but no original text: ``spec/outside.py``). Every record says which part it
is in (``Rule.outside``).

Looking a rule up (``ref in corpus``, :meth:`Corpus.get`, :meth:`Corpus.find`,
:meth:`Corpus.children`) knows both parts. Going through rules (``corpus.rules``, iterating the
corpus, ``len``, :meth:`Corpus.edition`, :meth:`Corpus.search`, :meth:`Corpus.anomalies`) gives
the seed rules unless asked otherwise, so that what counts the seed rules today goes on counting
only them; :meth:`Corpus.records` chooses the part: ``outside=False`` the seed rules, ``True``
the rules outside the seeds, ``None`` both.

>>> corpus = Corpus.load()
>>> corpus.get("cr2004:101.5").gist
'...'
>>> [r.ref for r in corpus.find("212.6b")]    # a printed id that occurs three times
['cr2004:212.6b', 'cr2004:212.6c', 'cr2004:212.6f']
>>> corpus.get("modern:508.1a").outside
True
>>> len(corpus.records(outside=True)) > 100
True
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Required, TypedDict

from spec.editions import EDITIONS, INDEX_DIR
from spec.errors import SpecError, UnknownRule

_REF = re.compile(r"^(?:(?P<edition>[a-z0-9]+):)?(?P<id>\d{1,3}(?:\.\d+[a-z]?)?)$")
# Variant characters of the 2004 translation, folded for matching only.
_VARIANTS = str.maketrans({"爲": "為", "麽": "麼", "∼": "~"})

#: A rule's testability as the index records it (checked by spec.annotations on build).
Testability = TypedDict("Testability", {
    "class": Required[str],
    "reason": str,
    "exercised_by": list[str],
    "note": str,
    "waits": str,
}, total=False)


def fold(text: str) -> str:
    """Normalise text for matching: width, case, variant characters and spacing."""
    text = unicodedata.normalize("NFKC", text).translate(_VARIANTS).casefold()
    return re.sub(r"(?<=[^\x00-\x7f])\s+(?=[^\x00-\x7f])", "", " ".join(text.split()))


@dataclass(frozen=True, slots=True)
class Rule:
    """One record of the corpus: a section heading or a numbered rule of one edition."""

    edition: str
    id: str
    ref: str
    printed_id: str
    line: int
    end_line: int
    kind: str
    parent: str | None
    depth: int
    chapter: str
    section: str
    section_title: str
    text: str
    raw_text: str
    examples: tuple[dict[str, Any], ...]
    references: tuple[dict[str, Any], ...]
    gist: str
    testability: Testability
    anomalies: tuple[dict[str, Any], ...]
    #: a rule outside the seeds: our record of it, with a gist and key terms but no text
    outside: bool = False
    #: outside the seeds: the date of the Comprehensive Rules the record follows (the pin)
    version: str | None = None
    #: outside the seeds: the key terms a case citing the rule names in place of a quote
    terms: tuple[str, ...] = ()
    #: outside the seeds: the seed rules it connects to (refs)
    connects: tuple[str, ...] = ()
    #: cr2004 outside the seeds: what about the June-2004 rule is unsure, and why
    unsure: str | None = None
    _folded: str = field(default="", repr=False, compare=False)

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> Rule:
        values = dict(record)
        for key in ("examples", "references", "anomalies", "terms", "connects"):
            if key in values:
                values[key] = tuple(values[key])
        haystack = " ".join([
            record["text"], record["gist"], *(x["text"] for x in record["examples"]),
            *record.get("terms", ()),
        ])
        return cls(**values, _folded=fold(haystack))

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "id": self.id,
            "ref": self.ref,
            "printed_id": self.printed_id,
            "line": self.line,
            "end_line": self.end_line,
            "kind": self.kind,
            "parent": self.parent,
            "depth": self.depth,
            "chapter": self.chapter,
            "section": self.section,
            "section_title": self.section_title,
            "text": self.text,
            "raw_text": self.raw_text,
            "examples": list(self.examples),
            "references": list(self.references),
            "gist": self.gist,
            "testability": self.testability,
            "anomalies": list(self.anomalies),
            "outside": self.outside,
            **({"version": self.version, "terms": list(self.terms),
                "connects": list(self.connects), "unsure": self.unsure}
               if self.outside else {}),
        }

    @property
    def testability_class(self) -> str:
        return self.testability["class"]

    @property
    def is_testable(self) -> bool:
        return self.testability["class"] in ("engine", "card-data")

    def quotes(self, quote: str) -> bool:
        """Whether ``quote`` occurs in the rule's text or examples (spacing and width folded)."""
        return fold(quote) in self._folded

    def key_term(self, term: str) -> str | None:
        """The key term of this rule that ``term`` names (width, case and spacing folded)."""
        wanted = fold(term)
        return next((t for t in self.terms if fold(t) == wanted), None)


class UnknownEdition(SpecError):
    """An edition key that the corpus does not have."""


@dataclass(frozen=True, slots=True)
class EditionInfo:
    key: str
    title: str
    language: str
    effective: str
    source: dict[str, Any]
    #: the records outside the seed: their source file and the pin they follow (empty if none)
    outside: dict[str, Any] = field(default_factory=dict)


class Corpus:
    """Every rule of every edition, in source order, with lookups by id and text."""

    def __init__(self, editions: list[EditionInfo], rules: list[Rule]) -> None:
        self.editions = {e.key: e for e in editions}
        #: every record, both parts, each edition's seed rules then its rules outside the seeds
        self.all_rules = tuple(rules)
        #: the seed rules (what iterating the corpus gives)
        self.rules = tuple(r for r in self.all_rules if not r.outside)
        #: the rules outside the seeds
        self.outside_rules = tuple(r for r in self.all_rules if r.outside)
        self._by_ref = {r.ref: r for r in self.all_rules}
        self._by_id: dict[str, list[Rule]] = {}
        for rule in self.all_rules:
            self._by_id.setdefault(rule.id, []).append(rule)
            if rule.printed_id != rule.id:
                self._by_id.setdefault(rule.printed_id, []).append(rule)

    @classmethod
    def load(cls, index_dir: Path | None = None) -> Corpus:
        """Load the committed index (cached when reading the default location)."""
        if index_dir is None:
            return _default_corpus()
        return cls._read(index_dir)

    @classmethod
    def _read(cls, index_dir: Path) -> Corpus:
        editions: list[EditionInfo] = []
        rules: list[Rule] = []
        for key in EDITIONS:
            document = _read_index(index_dir / f"{key}.json")
            outside = _read_index(index_dir / f"{key}-outside.json")
            editions.append(EditionInfo(
                document["edition"], document["title"], document["language"],
                document["effective"], document["source"],
                {"version": outside["version"], **outside["source"]},
            ))
            rules.extend(Rule.from_json(r) for r in document["records"])
            rules.extend(Rule.from_json(r) for r in outside["records"])
        return cls(editions, rules)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __contains__(self, ref: object) -> bool:
        return ref in self._by_ref

    def check_edition(self, key: str) -> str:
        if key not in self.editions:
            known = ", ".join(self.editions)
            raise UnknownEdition(f"unknown edition {key!r} (known: {known})")
        return key

    def records(self, edition: str | None = None, *, outside: bool | None = False
                ) -> list[Rule]:
        """The rules of one edition (or all), of one part: ``outside=False`` the seed rules,
        ``True`` the rules outside the seeds, ``None`` both (each edition's seed rules first)."""
        if edition is not None:
            self.check_edition(edition)
        return [r for r in self.all_rules if edition in (None, r.edition)
                and outside in (None, r.outside)]

    def edition(self, key: str, *, outside: bool | None = False) -> list[Rule]:
        """The seed rules of one edition (``outside``: as for :meth:`records`)."""
        return self.records(key, outside=outside)

    def source_of(self, rule: Rule) -> str:
        """The file whose lines ``rule.line`` and ``rule.end_line`` count: the seed, or for a
        rule outside the seeds its record's file (spec/outside/<edition>.yaml)."""
        info = self.editions[rule.edition]
        return str((info.outside if rule.outside else info.source)["file"])

    def get(self, ref: str) -> Rule:
        """The rule with this exact canonical reference, such as ``cr2004:212.5b``."""
        try:
            return self._by_ref[ref]
        except KeyError:
            raise UnknownRule(f"no rule {ref!r} in the corpus") from None

    def find(self, query: str) -> list[Rule]:
        """Every rule a user may mean by ``query``: a canonical or printed id, with or
        without an edition prefix. A printed id that occurs more than once gives them all.

        :raises UnknownRule: the query is malformed or matches nothing.
        :raises UnknownEdition: the prefix names no edition.
        """
        match = _REF.match(query.strip())
        if match is None:
            raise UnknownRule(
                f"{query!r} is not a rule id (expected e.g. 101.5, 217.2b or cr2004:217.2b)"
            )
        edition, number = match.group("edition"), match.group("id")
        if edition is not None:
            self.check_edition(edition)
        found = [r for r in self._by_id.get(number, []) if edition in (None, r.edition)]
        if not found:
            where = f"edition {edition}" if edition else "any edition"
            raise UnknownRule(f"no rule {number} in {where}")
        return sorted(found, key=lambda r: (r.edition != "cr2004", r.outside, r.line))

    def children(self, rule: Rule) -> list[Rule]:
        """The records whose parent is ``rule``, of either part."""
        return [r for r in self.all_rules if r.edition == rule.edition and r.parent == rule.id]

    def search(self, text: str, edition: str | None = None, *, outside: bool | None = False
               ) -> list[Rule]:
        """Rules whose gist, text, examples or key terms contain every word of ``text``
        (``outside``: as for :meth:`records`)."""
        words = [fold(w) for w in text.split() if w.strip()]
        return [r for r in self.records(edition, outside=outside)
                if all(w in r._folded for w in words)]

    def anomalies(self, edition: str | None = None) -> list[tuple[Rule, dict[str, Any]]]:
        if edition is not None:
            self.check_edition(edition)
        return [
            (r, a) for r in self.rules if edition in (None, r.edition) for a in r.anomalies
        ]


def _read_index(path: Path) -> dict[str, Any]:
    try:
        document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(f"{path}: cannot read the rules index: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise SpecError(f"{path}:{exc.lineno}: the rules index is not valid JSON; "
                        "regenerate it with python -m spec.build") from None
    return document


@cache
def _default_corpus() -> Corpus:
    return Corpus._read(INDEX_DIR)
