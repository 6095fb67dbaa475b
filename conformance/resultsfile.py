"""``results.json``: what a conformance run gave, as a file other tools read.

``Results`` is the one reader and writer of the format (schema
``spec/schemas/results.json``): ``mtgconf run`` and the pytest plugin write it, ``mtgconf
expectations generate``, the run's summary and the reports read it.

>>> results = Results.from_file(path)                      # doctest: +SKIP
>>> [r.case_id for r in results.records if r.unexpected]   # doctest: +SKIP

Versions: 2 added ``interrupted``, ``selected`` and the ``flaky`` status; a version 1 file is
read as a complete run (not interrupted, every case run selected).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance import schemas
from conformance.errors import InputError, Problem
from conformance.outcomes import STATUSES, UNEXPECTED
from conformance.protocol import HARNESS, EngineInfo

if TYPE_CHECKING:
    from spec.corpus import Corpus

FORMAT = "mtg-conformance results"
VERSION = 2
READS = (1, 2)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def counts(statuses: Iterable[str]) -> dict[str, int]:
    """How many of each status, in the order of ``STATUSES``."""
    found = Counter(statuses)
    return {s: found[s] for s in STATUSES if found[s]}


@dataclass(frozen=True, slots=True)
class Record:
    """One case run: a case, in an edition, against an engine."""

    case_id: str
    edition: str
    rules: tuple[str, ...]
    engine: str
    status: str
    outcome: str
    message: str
    duration: float
    file: str | None = None
    line: int | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def unexpected(self) -> bool:
        return self.status in UNEXPECTED

    @property
    def internal(self) -> bool:
        """An error of the harness itself, not of the engine."""
        return bool(self.detail.get("internal"))

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.engine, self.case_id, self.edition)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Record:
        return cls(
            case_id=data["case_id"], edition=data["edition"], rules=tuple(data["rules"]),
            engine=data["engine"], status=data["status"], outcome=data["outcome"],
            message=data["message"], duration=float(data["duration"]), file=data.get("file"),
            line=data.get("line"), detail=dict(data.get("detail", {})))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "case_id": self.case_id, "edition": self.edition, "rules": list(self.rules),
            "engine": self.engine, "status": self.status, "outcome": self.outcome,
            "message": self.message, "duration": round(self.duration, 6),
        }
        if self.file:
            out["file"] = self.file
        if self.line is not None:
            out["line"] = self.line
        if self.detail:
            out["detail"] = dict(self.detail)
        return out


@dataclass(frozen=True)
class Results:
    """A whole run: its engines as they declared themselves, its options, every record."""

    engines: dict[str, EngineInfo | None]
    editions: tuple[str, ...]
    records: tuple[Record, ...]
    started: str
    finished: str
    options: Mapping[str, Any] = field(default_factory=dict)
    selected: int | None = None
    interrupted: bool = False
    interrupted_by: str | None = None
    harness: str = HARNESS

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.records, key=lambda r: r.key))
        object.__setattr__(self, "records", ordered)
        if self.selected is None:
            object.__setattr__(self, "selected", len(ordered))

    # ---- reading ----

    @classmethod
    def from_file(cls, path: Path) -> Results:
        """Read and check a results file; raises ``InputError`` naming the file and field."""
        where = str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise InputError((Problem(where, f"cannot read: {exc.strerror}"),)) from None
        except ValueError as exc:
            raise InputError((Problem(where, f"not a results file (not JSON: {exc})"),)) \
                from None
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "results") -> Results:
        if isinstance(data, dict) and data.get("format") == FORMAT and \
                data.get("version") not in READS:
            raise InputError((Problem(where, f"results format version {data.get('version')!r}"
                                      f" is not one this harness reads "
                                      f"({', '.join(map(str, READS))})", field="version"),))
        if isinstance(data, dict) and data.get("version") == 1:
            data = {**data, "version": VERSION, "interrupted": False,
                    "selected": len(data.get("results", []))}
        error = schemas.first_error("results.json", data)
        if error is not None:
            raise InputError((Problem(where, f"not a valid results file: {error.message}",
                                      field=schemas.location(error)),))
        engines = {e["spec"]: EngineInfo.from_result(e["info"]) if e["info"] else None
                   for e in data["engines"]}
        return cls(
            engines=engines, editions=tuple(data["editions"]),
            records=tuple(Record.from_dict(r) for r in data["results"]),
            started=data["started"], finished=data["finished"], options=data["options"],
            selected=data["selected"], interrupted=data["interrupted"],
            interrupted_by=data.get("interrupted_by"), harness=data["harness"])

    # ---- what it says ----

    @property
    def unexpected(self) -> list[Record]:
        return [r for r in self.records if r.unexpected]

    @property
    def counts(self) -> dict[str, int]:
        return counts(r.status for r in self.records)

    @property
    def ran(self) -> int:
        """Case runs that ran (were not skipped)."""
        return sum(r.status != "skip" for r in self.records)

    def rollup(self) -> list[dict[str, Any]]:
        """Per rule and engine, the results citing the rule in the rule's own edition; a rule
        outside the seeds is marked ``outside``."""
        from spec.corpus import Corpus

        corpus = Corpus.load()
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        for record in self.records:
            for rule in record.rules:
                if rule.partition(":")[0] == record.edition:
                    groups[(rule, record.engine)].append(record.status)
        return [
            {"rule": rule, "engine": engine,
             **({"outside": True} if rule in corpus and corpus.get(rule).outside else {}),
             "total": len(statuses),
             "unexpected": sum(s in UNEXPECTED for s in statuses), "counts": counts(statuses)}
            for (rule, engine), statuses in sorted(groups.items(),
                                                   key=lambda kv: _rule_key(kv[0]))
        ]

    def sections(self, corpus: Corpus) -> list[dict[str, Any]]:
        """Results per rule section (edition and section number), for the run's console
        summary. A result counts under the sections of the rules it cites in its own
        edition."""
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        titles: dict[tuple[str, str], str] = {}
        for record in self.records:
            keys = set()
            for ref in record.rules:
                edition = ref.partition(":")[0]
                if edition != record.edition or ref not in corpus:
                    continue
                rule = corpus.get(ref)
                keys.add((edition, rule.section))
                titles[(edition, rule.section)] = section_title(corpus, edition, rule.section)
            if not keys:
                keys.add((record.edition, "-"))
                titles[(record.edition, "-")] = "(cases citing another edition's rules only)"
            for key in keys:
                groups[key].append(record.status)
        return [{"edition": e, "section": s, "title": titles[(e, s)], "counts": counts(st),
                 "unexpected": sum(x in UNEXPECTED for x in st)}
                for (e, s), st in sorted(groups.items())]

    # ---- writing ----

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "harness": self.harness,
            "engines": [{"spec": spec, "info": info.serializable() if info else None}
                        for spec, info in self.engines.items()],
            "editions": list(self.editions),
            "started": self.started,
            "finished": self.finished,
            "interrupted": self.interrupted,
            "selected": self.selected,
            "options": dict(self.options),
            "summary": {
                "total": len(self.records),
                "unexpected": len(self.unexpected),
                "counts": self.counts,
            },
            "results": [r.to_dict() for r in self.records],
            "rules": self.rollup(),
        }
        if self.interrupted_by:
            out["interrupted_by"] = self.interrupted_by
        return out

    def write(self, path: Path) -> None:
        write_json(path, self.to_dict())


def section_title(corpus: Corpus, edition: str, section: str) -> str:
    """The English title of a section, from its gist."""
    gist = corpus.get(f"{edition}:{section}").gist.removeprefix("Section heading: ")
    return gist.split(" (")[0].rstrip(".")


def _rule_key(key: tuple[str, str]) -> tuple[Any, ...]:
    rule, engine = key
    edition, _, number = rule.partition(":")
    parts = [(int(x), "") if x.isdigit() else (0, x) for x in re.findall(r"\d+|[a-z]+", number)]
    return (edition, parts, engine)


def write_json(path: Path, data: Any) -> None:
    """Write atomically: a reader never sees half a file, and the previous file stays until
    the new one is whole."""
    write_text(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
