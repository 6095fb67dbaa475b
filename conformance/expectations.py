"""Expectations files: an engine author's list of the cases their engine is known to fail.

```yaml
engine: my-engine
expectations:
  turn.first-player-skips-draw: {status: fail, reason: we draw on turn one, link: https://...}
  modern::start.life-twenty: {status: crash}      # one edition only
```

Strict: a case expected to ``fail`` that crashes is unexpected, and so is one that passes
(``xpass``). An id that names no case is an input error, so that a renamed or mistyped entry
cannot silently hide a failure. Every problem of the file names its line. The format, for
engine authors: docs/expectations.md.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from conformance import casefile, schemas
from conformance.errors import InputError, Problem
from conformance.outcomes import FAILURE_KINDS, Expectation
from conformance.resultsfile import Record

#: the reason ``update`` gives a new failure: the author is to replace it with the why
TO_FILL_IN = "FILL IN why this fails"


@dataclass(frozen=True)
class Expectations:
    path: Path
    entries: dict[str, Expectation]
    engine: str | None = None

    @classmethod
    def load(cls, path: Path, known_ids: Collection[str] | None = None) -> Expectations:
        """Read and check an expectations file; raises ``InputError`` naming the entry."""
        where = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError((Problem(where, f"cannot read the expectations file: {exc}"),)) \
                from None
        try:
            data, lines, duplicates = casefile.parse_with_lines(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise InputError((Problem(where, f"not valid YAML: {getattr(exc, 'problem', exc)}",
                                      mark.line + 1 if mark else None),)) from None
        problems = [Problem(where, f"duplicate key {key!r}", line, field=_dotted((*at, key)))
                    for at, key, line in duplicates]
        for error in schemas.iter_errors("expectations.json", data):
            at = tuple(error.absolute_path)
            if "propertyNames" in error.schema_path and isinstance(error.instance, str):
                at = (*at, error.instance)  # the key that is not a case id, not its mapping
            problems.append(Problem(where, error.message, casefile.line_at(lines, at),
                                    field=_dotted(at) or schemas.location(error)))
        if problems:
            raise InputError(tuple(problems))
        entries = {
            key: Expectation(value["status"], value.get("reason", ""), value.get("link", ""))
            for key, value in data["expectations"].items()
        }
        if known_ids is not None:
            unknown = [k for k in entries if k.rpartition("::")[2] not in known_ids]
            if unknown:
                raise InputError(tuple(
                    Problem(where, "no case has this id"
                            + suggestion(k.rpartition("::")[2], known_ids),
                            casefile.line_at(lines, ("expectations", k)),
                            field=f"expectations.{k}")
                    for k in unknown))
        return cls(path, entries, data.get("engine"))

    def lookup(self, case_id: str, edition: str) -> Expectation | None:
        return self.entries.get(f"{edition}::{case_id}") or self.entries.get(case_id)


def suggestion(wrong: str, known: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the closest of ``known`` to a misspelt id, or nothing."""
    close = difflib.get_close_matches(wrong, list(known), n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def _dotted(at: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in at)


def generate(records: Iterable[Record], engine: str | None = None) -> str:
    """An expectations file (YAML) listing every failure of a results file, as it is now."""
    return _render(_entries_of(records), engine, "generate")


def _entries_of(records: Iterable[Record]) -> dict[str, dict[str, str]]:
    """An entry per failing case: by its id alone when it fails the same way in every
    edition it ran under, else one per failing edition (``edition::id``)."""
    by_case: dict[str, dict[str, Record]] = defaultdict(dict)
    for record in records:
        by_case[record.case_id][record.edition] = record
    entries: dict[str, dict[str, str]] = {}
    for case_id in sorted(by_case):
        editions = by_case[case_id]
        failing = {e: r for e, r in editions.items() if r.outcome in FAILURE_KINDS}
        kinds = {r.outcome for r in failing.values()}
        if failing and len(failing) == len(editions) and len(kinds) == 1:
            entries[case_id] = _entry(next(iter(failing.values())))
        else:
            for edition in sorted(failing):
                entries[f"{edition}::{case_id}"] = _entry(failing[edition])
    return entries


@dataclass(frozen=True)
class Update:
    """What ``update`` did to an expectations file: the new text and the keys it dropped
    (now passing), changed (another failure kind now) and added (new failures, whose reason
    is ``TO_FILL_IN``)."""

    text: str
    dropped: tuple[str, ...]
    changed: tuple[str, ...]
    added: tuple[str, ...]


def update(current: Expectations, records: Iterable[Record]) -> Update:
    """``current`` brought up to date with a run's results: an entry whose case now passes is
    dropped, one whose case now ends another way takes that status (its reason and link
    kept), a failure no entry expects is added with a reason to fill in. An entry of a case
    the run did not run (or skipped) is kept as it is: a narrower run says nothing of it."""
    ran: dict[str, dict[str, Record]] = defaultdict(dict)
    for record in records:
        if record.outcome != "skip":
            ran[record.case_id][record.edition] = record
    entries: dict[str, dict[str, str]] = {}
    dropped: list[str] = []
    changed: list[str] = []
    for key, expectation in current.entries.items():
        edition, _, case_id = key.rpartition("::")
        results = {e: r for e, r in ran.get(case_id, {}).items() if e == edition or not edition}
        if not results:
            entries[key] = _fields(expectation)
            continue
        failing = {e: r.outcome for e, r in results.items() if r.outcome in FAILURE_KINDS}
        if not failing:
            dropped.append(key)
            continue
        if edition or (len(failing) == len(results) and len(set(failing.values())) == 1):
            status = next(iter(failing.values()))
            entries[key] = _fields(replace(expectation, status=status))
            if status != expectation.status:
                changed.append(key)
        else:  # the entry covered every edition; now some pass or fail differently
            changed.append(key)
            for each, status in sorted(failing.items()):
                entries[f"{each}::{case_id}"] = _fields(replace(expectation, status=status))
    fresh: dict[str, dict[str, str]] = {}
    for case_id, editions in ran.items():
        new = [r for r in editions.values()
               if r.outcome in FAILURE_KINDS and current.lookup(case_id, r.edition) is None]
        if not new:
            continue
        if any(current.lookup(case_id, e) is not None for e in editions):
            # Another edition of the case has its entry: the new one is for its edition only.
            fresh.update({f"{r.edition}::{case_id}": _entry(r) for r in new})
        else:
            fresh.update(_entries_of(editions.values()))
    added: list[str] = []
    for key, entry in fresh.items():
        entries[key] = {**entry, "reason": f"{TO_FILL_IN} (the run said: {entry['reason']})"}
        added.append(key)
    ordered = dict(sorted(entries.items(), key=lambda item: _order(item[0])))
    return Update(_render(ordered, current.engine, "update"), tuple(dropped),
                  tuple(changed), tuple(added))


def _order(key: str) -> tuple[str, str]:
    edition, _, case_id = key.rpartition("::")
    return case_id, edition


def _fields(expectation: Expectation) -> dict[str, str]:
    entry = {"status": expectation.status}
    if expectation.reason:
        entry["reason"] = expectation.reason
    if expectation.link:
        entry["link"] = expectation.link
    return entry


def _render(entries: dict[str, dict[str, str]], engine: str | None, command: str) -> str:
    header = ("# Expected results of an engine under mtg-conformance (strict: any other result "
              f"is unexpected).\n# Written by `mtgconf expectations {command}`; keep the "
              "reasons and links up to date (docs/expectations.md).\n")
    document: dict[str, Any] = {}
    if engine:
        document["engine"] = engine
    document["expectations"] = entries
    body = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=100)
    return header + body


def _entry(record: Record) -> dict[str, str]:
    reason = " ".join(record.message.split())
    return {"status": record.outcome, "reason": reason[:200]}
