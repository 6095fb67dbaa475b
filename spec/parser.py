"""Parse a seed document of the Comprehensive Rules into one entry per numbered line.

The two seeds have different layouts (see ``../shared/seeds/README.md``):

* ``cr2004``: front matter, a contents list whose lines repeat the body headings, then the
  body. Rule ids end with a period (``100.1.``), sub-rule ids usually do not (``104.3a``),
  long rules wrap onto continuation lines, and examples start with ``例：``.
* ``modern``: every rule on one line starting ``- `` with no period after the id
  (``- 400.4a ...``); section headings have no dash.

Printed numbers are kept as printed; a sub-rule printed under the wrong rule, or with a
letter already used, gets a canonical id derived from its position, and the irregularity
is recorded as an anomaly. Nothing in a source is silently dropped: every line is a
heading, an entry, an example or a continuation of one of them, or front matter.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from spec.editions import Edition
from spec.errors import SourceError

_CHAPTER = re.compile(r"^(\d)\. (\S.*)$")
_SECTION = re.compile(r"^(\d{3})\. (\S.*)$")
# cr2004: "100.1. text", "104.3a text", "205.2b. text", "217.1b除非", "212.1 一般規則"
_CR2004_ENTRY = re.compile(r"^(\d{3})\.(\d+)([a-z]?)(\.?)( ?)(.*)$")
# modern: "- 400.4a text"
_MODERN_ENTRY = re.compile(r"^- (\d{3})\.(\d+)([a-z]?) (.*)$")
_EXAMPLE = "例："
# Text that only closes a bracket cannot be a rule: it is a wrapped tail such as "217.1c）".
_ONLY_PUNCTUATION = re.compile(r"^[\s)）」』〕。．.,，、]*$")
# A heading-only entry ("212.5 瞬間") has no sentence punctuation at all.
_SENTENCE_MARK = re.compile(r"[。，、；：！？（）()「」.,;:!?]")
_STRAY_SPACE = re.compile(r"(?<=[^\x00-\x7f]) +(?=[^\x00-\x7f])")
_CR2004_REF = re.compile(r"規則\s*(\d{1,3}(?:\.\d+[a-z]?)?)|(\d{3}\.\d+[a-z]?)規則")
_CR2004_CHAPTER_REF = re.compile(r"第([一二三四五六七八九])章")
_CR2004_GLOSSARY_REF = "名詞解釋"
_MODERN_REF = re.compile(r"rule\s+(\d{1,3}(?:\.\d+[a-z]?)?)(?:-([a-z]))?")
_CHINESE_DIGITS = {c: str(i) for i, c in enumerate("〇一二三四五六七八九")}


@dataclass(slots=True)
class Reference:
    """A cross-reference written in a rule's text."""

    text: str
    target: str
    kind: str  # "rule", "section", "chapter" or "glossary"
    status: str = "absent"  # "present" or "absent" (from the corpus of the same edition)
    ref: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "text": self.text,
            "target": self.target,
            "kind": self.kind,
            "status": self.status,
            "ref": self.ref,
        }


@dataclass(slots=True)
class Anomaly:
    """Something irregular in a source, tied to the line where it occurs."""

    kind: str
    line: int
    printed_id: str | None
    canonical_id: str | None
    why: str

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "line": self.line,
            "printed_id": self.printed_id,
            "canonical_id": self.canonical_id,
            "why": self.why,
        }


@dataclass(slots=True)
class Example:
    line: int
    text: str

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "text": self.text}


@dataclass(slots=True)
class Entry:
    """One numbered line of a source (a section heading or a rule), with what belongs to it."""

    edition: str
    id: str
    printed_id: str
    line: int
    kind: str  # "section", "rule" or "heading" (a numbered rule with only a title)
    parent: str | None
    depth: int
    section: str
    section_title: str
    chapter: str
    text: str
    raw_lines: list[str]
    end_line: int
    examples: list[Example] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)

    @property
    def ref(self) -> str:
        return f"{self.edition}:{self.id}"

    @property
    def raw_text(self) -> str:
        return "\n".join(self.raw_lines)


def read_source(path: Path, expected_sha256: str | None = None) -> list[str]:
    """Return the lines of a seed file, decoded as strict UTF-8.

    The last line need not end with a newline (both seeds end without one), and it is kept.

    :raises SourceError: the file is missing, not UTF-8, contains carriage returns or NUL
        bytes, or (when ``expected_sha256`` is given) differs from the recorded copy.
    """
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(name, None, f"cannot read source: {exc.strerror}") from None
    if expected_sha256 is not None:
        digest = hashlib.sha256(data).hexdigest()
        if digest != expected_sha256:
            _check_decodable(name, data)
            raise SourceError(
                name,
                data.count(b"\n") + 1,
                f"sha256 is {digest}, expected {expected_sha256}: the file was modified or "
                f"truncated ({len(data)} bytes, last line shown); restore it byte for byte "
                "from ../shared/seeds/",
            )
    _check_decodable(name, data)
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        raise SourceError(name, 1, "starts with a byte-order mark; the seeds are plain UTF-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if "\r" in line:
            raise SourceError(name, number, "carriage return found; the seeds use LF line ends")
        if "\x00" in line:
            raise SourceError(name, number, "NUL character found; this is not a text file")
    return lines


def _check_decodable(name: str, data: bytes) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        hint = (
            "the file ends inside a character: it was truncated"
            if exc.end >= len(data) and exc.reason == "unexpected end of data"
            else "the file is not UTF-8 (wrong encoding?)"
        )
        raise SourceError(
            name, line, f"invalid UTF-8 at column {column} (byte 0x{bad}): {hint}"
        ) from None


def parse(edition: Edition, lines: list[str] | None = None) -> list[Entry]:
    """Parse one edition's source into entries, in source order."""
    name = f"spec/sources/{edition.source}"
    if lines is None:
        lines = read_source(edition.source_path, edition.sha256)
    parser = _Cr2004Parser if edition.layout == "cr2004" else _ModernParser
    entries = parser(edition.key, name, lines).run()
    _resolve_references(entries)
    return entries


def _normalise(text: str) -> str:
    return _STRAY_SPACE.sub("", text).strip()


def _join(head: str, tail: str) -> str:
    """Join a wrapped line: a space only between two ASCII letters."""
    if head and tail and _is_ascii_letter(head[-1]) and _is_ascii_letter(tail[0]):
        return f"{head} {tail}"
    return head + tail


def _is_ascii_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _letter_after(letter: str) -> str:
    nxt = chr(ord(letter) + 1)
    # The Comprehensive Rules never use "l" or "o" as sub-rule letters.
    while nxt in "lo":
        nxt = chr(ord(nxt) + 1)
    return nxt


class _BaseParser:
    def __init__(self, edition: str, name: str, lines: list[str]) -> None:
        self.edition = edition
        self.name = name
        self.lines = lines
        self.entries: list[Entry] = []
        self.chapter = ""
        self.section: Entry | None = None
        self.rule: Entry | None = None  # the current NNN.N entry, parent of sub-rules
        self.last_example: Example | None = None
        self.used: dict[str, set[str]] = {}  # canonical letters used per parent

    def fail(self, line: int, message: str) -> SourceError:
        return SourceError(self.name, line, message)

    def add_section(self, number: int, section: str, title: str, raw: str) -> None:
        entry = Entry(
            edition=self.edition,
            id=section,
            printed_id=section,
            line=number,
            kind="section",
            parent=None,
            depth=0,
            section=section,
            section_title=_normalise(title),
            chapter=self.chapter,
            text=_normalise(title),
            raw_lines=[raw],
            end_line=number,
        )
        if self.entries and self.entries[-1].section >= section:
            raise self.fail(number, f"section {section} is out of order")
        self.entries.append(entry)
        self.section = entry
        self.rule = None
        self.last_example = None

    def add_entry(self, number: int, raw: str, base: str, rule_no: str, letter: str,
                  text: str) -> Entry:
        if self.section is None:
            raise self.fail(number, f"rule {base}.{rule_no}{letter} appears before any section")
        printed = f"{base}.{rule_no}{letter}"
        anomalies: list[Anomaly] = []
        if not letter:
            canonical = printed
            parent = self.section.id
            depth = 1
            if base != self.section.id:
                raise self.fail(
                    number, f"rule {printed} printed under section {self.section.id}"
                )
        else:
            if self.rule is None:
                raise self.fail(number, f"sub-rule {printed} has no rule above it")
            parent = self.rule.id
            depth = 2
            canonical_letter = letter
            if f"{base}.{rule_no}" != parent:
                anomalies.append(Anomaly(
                    "numbering", number, printed, f"{parent}{letter}",
                    f"sub-rule printed as {printed} but it sits under {parent} "
                    f"({self.rule.text}); renumbered into its parent",
                ))
            used = self.used.setdefault(parent, set())
            if canonical_letter in used:
                previous = max(used)
                canonical_letter = _letter_after(previous)
                later = self._later_letters(number, parent)
                if canonical_letter in used or canonical_letter in later:
                    raise self.fail(
                        number,
                        f"sub-rule {printed} repeats a letter and no free slot follows "
                        f"{parent}{previous}",
                    )
                if anomalies:
                    anomalies[-1].canonical_id = f"{parent}{canonical_letter}"
                else:
                    anomalies.append(Anomaly(
                        "numbering", number, printed, f"{parent}{canonical_letter}",
                        f"{printed} is printed more than once under {parent}; this one "
                        f"fills the missing slot {parent}{canonical_letter}",
                    ))
            used.add(canonical_letter)
            canonical = f"{parent}{canonical_letter}"
        entry = Entry(
            edition=self.edition,
            id=canonical,
            printed_id=printed,
            line=number,
            kind="rule",
            parent=parent,
            depth=depth,
            section=self.section.id,
            section_title=self.section.text,
            chapter=self.chapter,
            text=text,
            raw_lines=[raw],
            end_line=number,
            anomalies=anomalies,
        )
        self.entries.append(entry)
        if not letter:
            self.rule = entry
        self.last_example = None
        return entry

    def _later_letters(self, after_line: int, parent: str) -> set[str]:
        """Letters printed for ``parent``'s sub-rules further down (lookahead for free slots)."""
        return set()

    def add_example(self, number: int, raw: str) -> None:
        owner = self.current(number, "example")
        example = Example(number, _normalise(raw[len(_EXAMPLE):]))
        owner.examples.append(example)
        owner.raw_lines.append(raw)
        owner.end_line = number
        self.last_example = example

    def add_continuation(self, number: int, raw: str) -> None:
        owner = self.current(number, "continuation line")
        tail = _normalise(raw)
        if self.last_example is not None:
            self.last_example.text = _join(self.last_example.text, tail)
        else:
            owner.text = _join(owner.text, tail)
        owner.raw_lines.append(raw)
        owner.end_line = number

    def current(self, number: int, what: str) -> Entry:
        if not self.entries or self.entries[-1].kind == "section":
            raise self.fail(number, f"{what} does not belong to any rule")
        return self.entries[-1]

    def finish(self) -> list[Entry]:
        if not self.entries:
            raise self.fail(len(self.lines), "no rules found: the file is empty or truncated")
        for entry in self.entries:
            if entry.kind == "section":
                continue
            entry.text = _normalise(entry.text)
            if not entry.text:
                raise self.fail(entry.line, f"rule {entry.printed_id} has no text")
            children = any(e.parent == entry.id for e in self.entries)
            if children and not _SENTENCE_MARK.search(entry.text):
                entry.kind = "heading"
        return self.entries


class _Cr2004Parser(_BaseParser):
    def run(self) -> list[Entry]:
        body = self._body_start()
        self._lookahead: dict[int, tuple[str, str]] = {}
        for number in range(body, len(self.lines) + 1):
            self._line(number, self.lines[number - 1])
        return self.finish()

    def _body_start(self) -> int:
        """The body starts where the contents list (目次) starts repeating itself."""
        try:
            toc = self.lines.index("目次") + 1
        except ValueError:
            raise self.fail(1, "no contents list (目次) found: is this the 2004 seed?") from None
        if toc >= len(self.lines):
            raise self.fail(toc, "the file ends at the contents list: it is truncated")
        first = self.lines[toc]
        for number in range(toc + 2, len(self.lines) + 1):
            if self.lines[number - 1] == first:
                return number
        raise self.fail(
            toc + 1, f"the contents list is never followed by the body (no second {first!r})"
        )

    def _line(self, number: int, raw: str) -> None:
        line = raw.rstrip()
        if not line:
            return
        if match := _CHAPTER.match(line):
            self.chapter = match.group(1)
            self.rule = None
            return
        if match := _SECTION.match(line):
            self.add_section(number, match.group(1), match.group(2), raw)
            return
        if line.startswith(_EXAMPLE):
            self.add_example(number, raw)
            return
        if match := _CR2004_ENTRY.match(line):
            base, rule_no, letter, period, space, text = match.groups()
            if _ONLY_PUNCTUATION.match(text):
                owner = self.current(number, "wrapped line")
                self.add_continuation(number, raw)
                owner.anomalies.append(Anomaly(
                    "not-a-rule", number, f"{base}.{rule_no}{letter}", None,
                    f"line {number} reads {line!r}: the wrapped tail of a cross-reference in "
                    f"{owner.id}, not a rule; joined to {owner.id}",
                ))
                return
            entry = self.add_entry(number, raw, base, rule_no, letter, text)
            if letter and period:
                entry.anomalies.append(Anomaly(
                    "format", number, entry.printed_id, entry.id,
                    "sub-rule id printed with a trailing period",
                ))
            if not space and text:
                entry.anomalies.append(Anomaly(
                    "format", number, entry.printed_id, entry.id,
                    "no space between the id and the text",
                ))
            return
        self.add_continuation(number, raw)

    def _later_letters(self, after_line: int, parent: str) -> set[str]:
        base, rule_no = parent.split(".")
        letters: set[str] = set()
        for raw in self.lines[after_line:]:
            match = _CR2004_ENTRY.match(raw)
            if match is None:
                continue
            if match.group(1) != base or match.group(2) != rule_no:
                if not match.group(3):
                    break
                continue
            if match.group(3) and not _ONLY_PUNCTUATION.match(match.group(6)):
                letters.add(match.group(3))
        return letters


class _ModernParser(_BaseParser):
    def run(self) -> list[Entry]:
        for number, raw in enumerate(self.lines, start=1):
            self._line(number, raw)
        return self.finish()

    def _line(self, number: int, raw: str) -> None:
        line = raw.rstrip()
        if not line:
            return
        if match := _CHAPTER.match(line):
            self.chapter = match.group(1)
            self.rule = None
            return
        if match := _SECTION.match(line):
            self.add_section(number, match.group(1), match.group(2), raw)
            return
        if line.startswith(_EXAMPLE):
            self.add_example(number, raw)
            self._stray_spaces(number, self.entries[-1], raw)
            return
        if match := _MODERN_ENTRY.match(line):
            base, rule_no, letter, text = match.groups()
            entry = self.add_entry(number, raw, base, rule_no, letter, text)
            self._stray_spaces(number, entry, text)
            return
        if line.startswith("- "):
            raise self.fail(number, f"malformed rule line {line[:40]!r}")
        if not self.entries:
            return  # the page title before the first heading
        self.add_continuation(number, raw)


    @staticmethod
    def _stray_spaces(number: int, entry: Entry, text: str) -> None:
        stray = len(_STRAY_SPACE.findall(text))
        if stray:
            entry.anomalies.append(Anomaly(
                "format", number, entry.printed_id, entry.id,
                f"{stray} stray space(s) between Japanese characters removed",
            ))


def _references(edition: str, text: str) -> list[Reference]:
    refs: list[Reference] = []
    if edition == "cr2004":
        for match in _CR2004_REF.finditer(text):
            target = match.group(1) or match.group(2)
            refs.append(Reference(match.group(0), target, _target_kind(target)))
        for match in _CR2004_CHAPTER_REF.finditer(text):
            refs.append(Reference(match.group(0), _CHINESE_DIGITS[match.group(1)], "chapter"))
        if _CR2004_GLOSSARY_REF in text:
            refs.append(Reference(_CR2004_GLOSSARY_REF, "glossary", "glossary"))
    else:
        for match in _MODERN_REF.finditer(text):
            first, last = match.group(1), match.group(2)
            if last:
                start = first[-1]
                stem = first[:-1]
                targets = [stem + chr(c) for c in range(ord(start), ord(last) + 1)]
            else:
                targets = [first]
            refs.extend(Reference(match.group(0), t, _target_kind(t)) for t in targets)
    return refs


def _target_kind(target: str) -> str:
    if "." in target:
        return "rule"
    return "section" if len(target) == 3 else "chapter"


def _resolve_references(entries: list[Entry]) -> None:
    """Resolve every reference against the same edition only, never the other one."""
    known = {e.id for e in entries}
    chapters = {e.chapter for e in entries}
    for entry in entries:
        entry.references = _references(entry.edition, entry.text)
        for ref in entry.references:
            present = (
                ref.target in chapters if ref.kind == "chapter"
                else ref.kind != "glossary" and ref.target in known
            )
            if present:
                ref.status = "present"
                ref.ref = f"{entry.edition}:{ref.target}" if ref.kind != "chapter" else None
