"""The rules outside the seeds: our own records of the Comprehensive Rules the seeds lack.

The seeds hold the 2004 rules 100-217 and 300.1-300.6 and the modern section 4 (zones). A game
needs more (priority, the steps of a turn, combat, casting, triggers, state-based actions,
keywords), and the reference engine and the cases rely on it. ``spec/outside/<edition>.yaml``
holds a record of each such rule, written by us and keyed by canonical id (the format:
``spec/schemas/outside.json``)::

    "508":
      title: Declare Attackers Step
      gist: "Section heading: Declare attackers step."
    "508.1a":
      gist: The active player picks which of their creatures attack. Each must be untapped ...
      testability: {class: engine}
      terms: [untapped, haste, since the turn began]
      see: ["702.10b"]            # its own cross-references (records of the corpus)
      connects: []                # the seed rules it connects to (none)
      unsure: ...                 # cr2004 only: what June 2004 cannot be pinned down, and why

A record never holds the rules' text: the gist says the rule's content in our own words, and
the key terms (each of which occurs in the gist) are what a case citing the rule names in place
of a quote. Each record follows its edition's pinned Comprehensive Rules (``Edition.pinned``,
one place). ``python -m spec.build`` compiles the records into
``spec/index/<edition>-outside.json``; :class:`spec.corpus.Corpus` serves them with the seed
rules, each marked ``outside``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from spec import annotations as spec_annotations
from spec import parser
from spec.corpus import fold
from spec.editions import INDEX_DIR, SPEC_DIR, Edition
from spec.errors import AnnotationError, OutsideError

SOURCE_DIR = SPEC_DIR / "outside"
SCHEMA_PATH = SPEC_DIR / "schemas" / "outside.json"
INDEX_FORMAT = 1

_ID = re.compile(r"^(\d{3})(?:\.(\d+)([a-z]?))?$")
_TOC_SECTION = re.compile(r"^(\d{3})\. (\S.*)$")
#: Sub-rule letters skip l and o (the Comprehensive Rules' own convention).
_SKIPPED_LETTERS = frozenset("lo")
_SECTION_FIELDS = frozenset({"title", "gist", "testability"})

LinePath = tuple[str | int, ...]


def source_path(edition: Edition) -> Path:
    return SOURCE_DIR / f"{edition.key}.yaml"


def index_path(edition: Edition) -> Path:
    return INDEX_DIR / f"{edition.key}-outside.json"


def display_name(path: Path) -> str:
    """``spec/outside/cr2004.yaml`` for the committed files, the path itself otherwise."""
    try:
        return path.resolve().relative_to(SPEC_DIR.parent).as_posix()
    except ValueError:
        return str(path)


@dataclass(frozen=True, slots=True)
class Source:
    """An outside file read and checked against its schema: entries in file order."""

    path: Path
    display: str
    text: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    line: int
    end_line: int
    value: dict[str, Any]


def read(path: Path, display: str | None = None) -> Source:
    """Read an outside file and check its shape against ``spec/schemas/outside.json``.

    :raises OutsideError: unreadable, not YAML, a duplicate id, or a schema violation (named
        by its line and rule id).
    """
    display = display or display_name(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise OutsideError(display, None, None, f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise OutsideError(display, None, None, "not UTF-8 text") from None
    raw, lines, ends = _load_yaml(text, display)
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(raw), key=lambda e: _line_of(lines, tuple(e.path)))
    if errors:
        error = errors[0]
        at = tuple(error.path)
        if _bad_id(error):    # a malformed id: name its own line
            at = (str(error.instance),)
        key = str(at[0]) if at else None
        field = ".".join(str(p) for p in at[1:])
        message = _schema_message(error)
        raise OutsideError(display, _line_of(lines, at), key,
                           f"{field}: {message}" if field else message)
    entries = tuple(Entry(str(k), lines[(str(k),)], ends[(str(k),)], dict(v))
                    for k, v in raw.items())
    return Source(path, display, text, entries)


def _bad_id(error: jsonschema.ValidationError) -> bool:
    return "propertyNames" in (error.validator, *error.schema_path)


def _schema_message(error: jsonschema.ValidationError) -> str:
    if _bad_id(error):
        return "not a rule id (expected NNN for a section, NNN.N or NNN.Nx for a rule)"
    return error.message


def _load_yaml(text: str, display: str
               ) -> tuple[Any, dict[LinePath, int], dict[LinePath, int]]:
    """The document, the 1-based line of every node (by path) and each top-level entry's last
    line. A key given twice in one mapping is an error (YAML would keep the last silently)."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise OutsideError(display, None, None, "is empty: expected a mapping of rule id to "
                               "record")
        value = loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise OutsideError(display, line, None, f"not valid YAML: {problem}") from None
    finally:
        loader.dispose()
    lines: dict[LinePath, int] = {}
    ends: dict[LinePath, int] = {}

    def walk(current: yaml.Node, path: LinePath) -> None:
        lines[path] = current.start_mark.line + 1
        if isinstance(current, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in current.value:
                key = str(key_node.value)
                if key in seen:
                    where = f"{'.'.join(str(p) for p in path)}: " if path else ""
                    raise OutsideError(display, key_node.start_mark.line + 1, key,
                                       f"{where}given twice")
                seen.add(key)
                walk(value_node, (*path, key))
                lines[(*path, key)] = key_node.start_mark.line + 1
                if not path:
                    end = value_node.end_mark
                    ends[(key,)] = end.line if end.column == 0 else end.line + 1
        elif isinstance(current, yaml.SequenceNode):
            for index, item in enumerate(current.value):
                walk(item, (*path, index))

    walk(node, ())
    if not isinstance(value, dict):
        raise OutsideError(display, 1, None, "must be a mapping of rule id to record")
    return value, lines, ends


def _line_of(lines: dict[LinePath, int], path: LinePath) -> int:
    """The line of ``path``, or of its nearest ancestor that has one."""
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 1)


def sort_key(rule_id: str) -> tuple[int, int, str]:
    match = _ID.match(rule_id)
    if match is None:
        raise ValueError(rule_id)
    section, number, letter = match.groups()
    return (int(section), int(number) if number else -1, letter or "")


def parent_of(rule_id: str) -> str | None:
    match = _ID.match(rule_id)
    assert match is not None, rule_id
    section, number, letter = match.groups()
    if number is None:
        return None
    return f"{section}.{number}" if letter else section


def contents(edition: Edition) -> dict[str, str]:
    """cr2004: the section titles of the seed's own contents list (目次), as printed. The list
    ends where the body begins repeating it (its first section again)."""
    lines = parser.read_source(edition.source_path, edition.sha256)
    titles: dict[str, str] = {}
    for line in lines[lines.index("目次") + 1:]:
        match = _TOC_SECTION.match(line)
        if match is None:
            continue
        if match.group(1) in titles:
            break
        titles[match.group(1)] = match.group(2)
    return titles


def build_records(edition: Edition, seed: list[dict[str, Any]],
                  path: Path | None = None) -> list[dict[str, Any]]:
    """Our records of ``edition``'s rules outside the seed, as JSON-ready corpus records.

    :raises OutsideError: a record that the schema allows but the corpus refuses: an id the seed
        has, a missing parent, out of order, a key term the gist lacks, a connection to no seed
        rule, a cross-reference to no record, an inconsistent testability, ``unsure`` in an
        edition whose pin was read.
    """
    source = read(path or source_path(edition))
    if not edition.pinned:
        raise OutsideError(source.display, None, None,
                           f"edition {edition.key} has no pinned date (spec/editions.py): the "
                           "records follow its pin")
    return list(_Compiler(edition, source, seed).records())


class _Compiler:
    def __init__(self, edition: Edition, source: Source, seed: list[dict[str, Any]]) -> None:
        self.edition = edition
        self.source = source
        self.seed = {r["id"]: r for r in seed}
        self.entries = {e.id: e for e in source.entries}
        self.toc = contents(edition) if edition.layout == "cr2004" else {}

    def fail(self, entry: Entry, message: str) -> OutsideError:
        return OutsideError(self.source.display, entry.line, entry.id, message)

    def records(self) -> Iterator[dict[str, Any]]:
        previous: Entry | None = None
        for entry in self.source.entries:
            self._check_place(entry, previous)
            previous = entry
        for entry in self.source.entries:
            yield self._record(entry)

    def _check_place(self, entry: Entry, previous: Entry | None) -> None:
        if entry.id in self.seed:
            raise self.fail(entry, f"is a rule of the {self.edition.key} seed "
                            f"(spec/sources/{self.edition.source}); only rules outside it "
                            "belong here")
        letter = _ID.match(entry.id).group(3)  # type: ignore[union-attr]
        if letter in _SKIPPED_LETTERS:
            raise self.fail(entry, f"sub-rule letters skip l and o: no rule is numbered "
                            f"{entry.id}")
        if previous is not None and sort_key(previous.id) >= sort_key(entry.id):
            raise self.fail(entry, f"out of order: it comes after {previous.id} in the file; "
                            "keep the records in rule order")
        parent = parent_of(entry.id)
        if parent is not None and parent not in self.entries and parent not in self.seed:
            raise self.fail(entry, f"its parent {parent} is neither a record here nor a rule of "
                            "the seed")

    def _section(self, entry: Entry) -> Entry | dict[str, Any]:
        section = entry.id.split(".")[0]
        if section in self.entries:
            return self.entries[section]
        return self.seed[section]

    def _record(self, entry: Entry) -> dict[str, Any]:
        value = entry.value
        is_section = "." not in entry.id
        extra = sorted(set(value) - _SECTION_FIELDS) if is_section else []
        if extra:
            raise self.fail(entry, f"a section has a title, a gist and nothing else (not "
                            f"{', '.join(extra)})")
        if is_section and "title" not in value:
            raise self.fail(entry, "title: missing (a section's title as printed)")
        if not is_section and "title" in value:
            raise self.fail(entry, "title: only a section has one (a heading-only rule is kind: "
                            "heading, its title in the gist)")
        if is_section and not value["gist"].startswith("Section heading: "):
            raise self.fail(entry, "gist: a section's gist starts \"Section heading: \"")
        kind = "section" if is_section else value.get("kind", "rule")
        section_id = entry.id.split(".")[0]
        if is_section:
            title = value["title"]
            if self.toc and self.toc.get(section_id) != title:
                printed = self.toc.get(section_id)
                want = (f"the seed's contents list prints {printed!r}" if printed else
                        "the seed's contents list has no such section")
                raise self.fail(entry, f"title: {title!r}, but {want}")
        else:
            section = self._section(entry)
            title = (section.value["title"] if isinstance(section, Entry)
                     else section["section_title"])
        gist = " ".join(value["gist"].split())
        if not gist.isascii():
            raise self.fail(entry, "gist: must be English (ASCII only)")
        testability = self._testability(entry, kind)
        terms = self._terms(entry, kind, gist)
        connects = self._connects(entry)
        references = self._references(entry)
        unsure = value.get("unsure")
        if unsure is not None and self.edition.layout != "cr2004":
            raise self.fail(entry, "unsure: only for cr2004 (the modern records follow a pin "
                            "whose whole text was read)")
        depth = 0 if is_section else (2 if _ID.match(entry.id).group(3) else 1)  # type: ignore[union-attr]
        return {
            "edition": self.edition.key,
            "id": entry.id,
            "ref": f"{self.edition.key}:{entry.id}",
            "printed_id": entry.id,
            "line": entry.line,
            "end_line": entry.end_line,
            "kind": kind,
            "parent": parent_of(entry.id),
            "depth": depth,
            "chapter": section_id[0],
            "section": section_id,
            "section_title": title,
            "text": "",
            "raw_text": "",
            "examples": [],
            "references": references,
            "gist": gist,
            "testability": testability,
            "anomalies": [],
            "outside": True,
            "version": self.edition.pinned,
            "terms": terms,
            "connects": connects,
            "unsure": " ".join(unsure.split()) if unsure else None,
        }

    def _testability(self, entry: Entry, kind: str) -> dict[str, Any]:
        heading = {"class": "not-testable", "reason": "heading"}
        given = entry.value.get("testability")
        if kind in ("section", "heading"):
            if given is not None and given != heading:
                raise self.fail(entry, f"testability: a {kind} is not-testable (heading); "
                                "drop the field or say so")
            return heading
        if given is None:
            raise self.fail(entry, "testability: missing (a mapping with class)")
        try:
            value = dict(spec_annotations.check_testability(self.source.display, entry.id, given))
        except AnnotationError as exc:
            raise self.fail(entry, exc.message) from None
        if value.get("reason") == "heading":
            raise self.fail(entry, "testability.reason: heading is for sections and headings "
                            "(kind: heading)")
        if "exercised_by" in value:
            refs = []
            for target in value["exercised_by"]:
                record = self._target(target)
                if record is None:
                    raise self.fail(entry, f"testability.exercised_by: {target} is no rule of "
                                    f"{self.edition.key} (seed or outside)")
                cls = (record.value["testability"]["class"] if isinstance(record, Entry)
                       and "testability" in record.value else
                       record["testability"]["class"] if isinstance(record, dict) else None)
                if cls not in ("engine", "card-data"):
                    raise self.fail(entry, f"testability.exercised_by: {target} is not itself "
                                    "testable (engine or card-data)")
                refs.append(f"{self.edition.key}:{target}")
            value["exercised_by"] = refs
        order = ("class", "reason", "exercised_by", "note", "waits")
        return {k: value[k] for k in order if k in value}

    def _target(self, rule_id: str) -> Entry | dict[str, Any] | None:
        return self.entries.get(rule_id) or self.seed.get(rule_id)

    def _terms(self, entry: Entry, kind: str, gist: str) -> list[str]:
        terms = list(entry.value.get("terms", ()))
        if kind != "rule":
            if terms:
                raise self.fail(entry, f"terms: a {kind} has no key terms")
            return []
        if not terms:
            raise self.fail(entry, "terms: missing: the key terms a case citing this rule "
                            "names (each occurring in the gist)")
        folded = fold(gist)
        for term in terms:
            # a whole word or phrase of the gist: "tapped" is not a term of "untapped"
            if re.search(rf"(?<!\w){re.escape(fold(term))}(?!\w)", folded) is None:
                raise self.fail(entry, f"terms: {term!r} does not occur in the gist (a key term "
                                "is words of our gist)")
        return terms

    def _connects(self, entry: Entry) -> list[str]:
        refs = []
        for target in entry.value.get("connects", ()):
            if target not in self.seed:
                hint = (" (it is a record outside the seed: list it under see)"
                        if target in self.entries else "")
                raise self.fail(entry, f"connects: {target} is no rule of the "
                                f"{self.edition.key} seed{hint}")
            refs.append(f"{self.edition.key}:{target}")
        return refs

    def _references(self, entry: Entry) -> list[dict[str, Any]]:
        out = []
        for target in entry.value.get("see", ()):
            if target == entry.id:
                raise self.fail(entry, "see: a rule does not refer to itself")
            if self._target(target) is None:
                raise self.fail(entry, f"see: {target} is no record of {self.edition.key} "
                                "(seed or outside)")
            out.append({"text": target, "target": target,
                        "kind": "section" if "." not in target else "rule",
                        "status": "present", "ref": f"{self.edition.key}:{target}"})
        return out


def render_index(edition: Edition, seed: list[dict[str, Any]]) -> str:
    """The exact text of ``spec/index/<edition>-outside.json``."""
    path = source_path(edition)
    records = build_records(edition, seed, path)
    data = path.read_bytes()
    document = {
        "format": INDEX_FORMAT,
        "edition": edition.key,
        "part": "outside",
        "version": edition.pinned,
        "source": {
            "file": display_name(path),
            "sha256": hashlib.sha256(data).hexdigest(),
            "lines": data.count(b"\n"),
        },
        "records": records,
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
