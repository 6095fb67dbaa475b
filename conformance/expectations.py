"""Expectations files: an engine author's list of the cases their engine is known to fail.

```yaml
engine: my-engine
expectations:
  turn.first-player-skips-draw: {status: fail, reason: we draw on turn one, link: https://...}
  modern::start.life-twenty: {status: crash}      # one edition only
```

Strict: a case expected to ``fail`` that crashes is unexpected, and so is one that passes
(``xpass``). An id that names no case is an input error, so that a renamed or mistyped entry
cannot silently hide a failure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance import schemas
from conformance.errors import InputError, Problem
from conformance.outcomes import FAILURE_KINDS, Expectation
from conformance.resultsfile import Record


@dataclass(frozen=True)
class Expectations:
    path: Path
    entries: dict[str, Expectation]

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
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise InputError((Problem(where, f"not valid YAML: {getattr(exc, 'problem', exc)}",
                                      mark.line + 1 if mark else None),)) from None
        problems = [
            Problem(where, error.message, field=schemas.location(error))
            for error in schemas.iter_errors("expectations.json", data)
        ]
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
                    Problem(where, "no case has this id", field=f"expectations.{k}")
                    for k in unknown))
        return cls(path, entries)

    def lookup(self, case_id: str, edition: str) -> Expectation | None:
        return self.entries.get(f"{edition}::{case_id}") or self.entries.get(case_id)


def generate(records: Iterable[Record], engine: str | None = None) -> str:
    """An expectations file (YAML) listing every failure of a results file, as it is now."""
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
    header = ("# Expected results of an engine under mtg-conformance (strict: any other result "
              "is unexpected).\n# Written by `mtgconf expectations generate`; keep the reasons "
              "and links up to date.\n")
    document: dict[str, Any] = {}
    if engine:
        document["engine"] = engine
    document["expectations"] = entries
    body = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=100)
    return header + body


def _entry(record: Record) -> dict[str, str]:
    reason = " ".join(record.message.split())
    return {"status": record.outcome, "reason": reason[:200]}
