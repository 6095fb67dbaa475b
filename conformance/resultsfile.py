"""``results.json``: what a conformance run gave, as a file other tools read; the one results
contract of the house.

``Record`` is a result as the file holds it (one case, in an edition, against an engine), built
once from the runner's ``Result`` (``Record.judged``); ``Results`` is a whole run and the one
reader and writer of the format (schema ``spec/schemas/results.json``). ``mtgconf run`` and the
pytest plugin write it; ``mtgconf expectations generate``, the run's console summary, the
verdict and the reports (``reports`` imports this module) read it. What a result means beyond
its record is worked out here once too: the statuses and their counts, the rules a result
counts for and the roll-up per rule (``by_rule``), the order of rule ids, and the command that
runs one case again (``rerun_command``, which the console and the report both print).

>>> results = Results.from_file(path)                      # doctest: +SKIP
>>> [r.case_id for r in results.records if r.unexpected]   # doctest: +SKIP

Versions: 2 added ``interrupted``, ``selected`` and the ``flaky`` status; 3 added
``options.bundled_case_dirs`` (which case folders were the suite's own). A version 1 file is
read as a complete run (not interrupted, every case run selected); in a version 1 or 2 file
the bundled case folder is recognised by its path.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance import atomic, schemas
from conformance.errors import InputError, Problem
from conformance.outcomes import STATUSES, UNEXPECTED, Result, outcome_of
from conformance.protocol import HARNESS, EngineInfo
from conformance.settings import BUNDLED_CASES, DEFAULT_CASE_TIMEOUT

if TYPE_CHECKING:
    from spec.corpus import Corpus

__all__ = ["FORMAT", "READS", "STATUSES", "UNEXPECTED", "VERSION", "Record", "Results",
           "by_rule", "counts", "from_here", "now", "rerun_command", "rerun_out",
           "rule_sort_key", "section_title", "shown_path"]

FORMAT = "mtg-conformance results"
VERSION = 3
READS = (1, 2, 3)


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

    @property
    def own_rules(self) -> tuple[str, ...]:
        """The rules this result counts for: those it cites in its own edition (a case run in
        modern that cites a 2004 rule says nothing of how the engine does on that rule)."""
        return tuple(r for r in self.rules if r.partition(":")[0] == self.edition)

    @classmethod
    def judged(cls, *, case_id: str, edition: str, rules: Sequence[str], engine: str,
               result: Result, duration: float, file: str | None = None,
               line: int | None = None) -> Record:
        """The record of a case run the runner judged: the status after expectations, the
        engine's own outcome before them, the message and the structured detail."""
        return cls(case_id=case_id, edition=edition, rules=tuple(rules), engine=engine,
                   status=result.status, outcome=outcome_of(result), message=result.message,
                   duration=duration, file=file or None, line=line, detail=result.detail())

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
    #: the file it was read from (None: made in this process, or read from data)
    path: Path | None = field(default=None, compare=False)

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
        except FileNotFoundError:
            raise InputError((Problem(where, "no such results file"),)) from None
        except OSError as exc:
            raise InputError((Problem(where, f"cannot read: {exc.strerror}"),)) from None
        except ValueError as exc:
            raise InputError((Problem(where, f"not a results file (not JSON: {exc})"),)) \
                from None
        return cls.from_dict(data, where, path=path)

    @classmethod
    def from_dict(cls, data: Any, where: str = "results", *, path: Path | None = None
                  ) -> Results:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError((Problem(where, f"not a results file (format is not {FORMAT!r})",
                                      field="format"),))
        if data.get("version") not in READS:
            raise InputError((Problem(where, f"results format version {data.get('version')!r}"
                                      f" is not one this harness reads "
                                      f"({', '.join(map(str, READS))})", field="version"),))
        data = _current(data)
        error = schemas.first_error("results.json", data)
        if error is not None:
            raise InputError((Problem(where, f"not a valid results file: {error.message}",
                                      field=schemas.location(error) if error.absolute_path
                                      else None),))
        engines = {e["spec"]: EngineInfo.from_result(e["info"]) if e["info"] else None
                   for e in data["engines"]}
        return cls(
            engines=engines, editions=tuple(data["editions"]),
            records=tuple(Record.from_dict(r) for r in data["results"]),
            started=data["started"], finished=data["finished"], options=data["options"],
            selected=data["selected"], interrupted=data["interrupted"],
            interrupted_by=data.get("interrupted_by"), harness=data["harness"], path=path)

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

    # ---- its selection ----

    def selects(self, record: Record) -> bool:
        """This run's selection (its editions, and the ``--rules`` and ``--case`` globs its
        options record) takes in the case run of ``record``: a run of this selection would
        have run it, or said why not. (Case folders are left out: a baseline made on another
        machine names its folders by that machine's paths.)"""
        import fnmatch

        from conformance.settings import matches_rules

        options = self.options
        globs = options.get("cases") or []
        return record.edition in self.editions \
            and matches_rules(record.rules, options.get("rules") or []) \
            and (not globs or any(fnmatch.fnmatchcase(record.case_id, g) for g in globs))

    @property
    def selection(self) -> str:
        """The selection as the options that made it (``all cases``: none narrowed it)."""
        parts = [f"--rules {g}" for g in self.options.get("rules") or []]
        parts += [f"--case {g}" for g in self.options.get("cases") or []]
        parts.append(f"editions {', '.join(self.editions)}")
        return "; ".join(parts) if len(parts) > 1 else f"all cases, {parts[0]}"

    def rollup(self) -> list[dict[str, Any]]:
        """Per rule and engine, how the results counting for the rule ended (``by_rule``), in
        the order of rule ids; a rule outside the seeds is marked ``outside``."""
        from spec.corpus import Corpus

        corpus = Corpus.load()
        grouped = by_rule(self.records)
        return [
            {"rule": rule, "engine": engine,
             **({"outside": True} if rule in corpus and corpus.get(rule).outside else {}),
             "total": len(records), "unexpected": sum(r.unexpected for r in records),
             "counts": counts(r.status for r in records)}
            for (engine, rule), records in sorted(
                grouped.items(), key=lambda kv: (rule_sort_key(kv[0][1]), kv[0][0]))
        ]

    def sections(self, corpus: Corpus) -> list[dict[str, Any]]:
        """Results per rule section (edition and section number), for the run's console
        summary. A result counts under the sections of the rules it counts for."""
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        titles: dict[tuple[str, str], str] = {}
        for record in self.records:
            keys = set()
            for ref in record.own_rules:
                if ref not in corpus:
                    continue
                rule = corpus.get(ref)
                keys.add((record.edition, rule.section))
                titles[(record.edition, rule.section)] = section_title(corpus, record.edition,
                                                                       rule.section)
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
        atomic.write_json(path, self.to_dict())


def _current(data: dict[str, Any]) -> dict[str, Any]:
    """A file of an earlier version in the current version's shape."""
    if data["version"] == 1:
        data = {**data, "version": 2, "interrupted": False,
                "selected": len(data.get("results", []))}
    if data["version"] == 2:
        options = data.get("options")
        if isinstance(options, dict) and "bundled_case_dirs" not in options:
            options = {**options, "bundled_case_dirs": [
                d for d in options.get("case_dirs") or [] if _bundled_by_path(d)]}
        data = {**data, "version": 3, "options": options}
    return data


def _bundled_by_path(folder: Any) -> bool:
    """Whether a case folder a version 1 or 2 file names is the suite's bundled one (those
    files do not say): this installation's, or any installation's by its place in the
    package."""
    if not isinstance(folder, str):
        return False
    path = Path(folder)
    return path == BUNDLED_CASES or path.parts[-2:] == BUNDLED_CASES.parts[-2:]


def by_rule(records: Iterable[Record]) -> dict[tuple[str, str], list[Record]]:
    """The roll-up: for each (engine, rule), the records counting for the rule (those citing
    it in its own edition, ``Record.own_rules``). results.json's ``rules`` and every rule's
    cell in the report are made from it."""
    found: dict[tuple[str, str], list[Record]] = {}
    for record in records:
        for ref in record.own_rules:
            found.setdefault((record.engine, ref), []).append(record)
    return found


def rule_sort_key(ref: str) -> tuple[Any, ...]:
    """Rule ids in the order of their documents: by edition, then number by number and letter
    by letter (``cr2004:101.2`` before ``cr2004:101.10``, ``212.6a`` before ``212.6b``)."""
    edition, _, number = ref.partition(":")
    parts = [(int(x), "") if x.isdigit() else (0, x) for x in re.findall(r"\d+|[a-z]+", number)]
    return (edition, parts)


def from_here(path: Path | str) -> str:
    """``path`` relative to the current folder when it is inside it (what a command printed
    for copying names), else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


def shown_path(path: Path | str) -> str:
    """A case file as the console and the report show it: a bundled one by its place in the
    package (``conformance/cases/combat.yaml``, the same on every machine), any other
    relative to the current folder when inside it. The results file keeps the full path."""
    try:
        inner = Path(path).resolve().relative_to(BUNDLED_CASES)
    except ValueError:
        return from_here(path)
    return str(Path(*BUNDLED_CASES.parts[-2:], inner))


def rerun_out(results_folder: Path | str, case_id: str) -> str:
    """Where a rerun of one case writes: a folder of its own inside the run's, so that the
    rerun never replaces the whole run's results and report."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", case_id).strip("-.") or "case"
    return str(Path(results_folder) / f"rerun-{name}")


def rerun_command(record: Record, options: Mapping[str, Any],
                  results_folder: Path | str | None = None) -> str:
    """The command that runs this one case again, as its run ran it, from the options its
    results file recorded: what the console prints after a run and the report shows on the
    result's page. With the run's ``results_folder``, the rerun writes to a folder of its own
    in it (``rerun_out``)."""
    parts = ["mtgconf", "run"]
    if record.engine != "reference":
        parts += ["--engine", record.engine]
    parts += ["--edition", record.edition, "--case", record.case_id]
    folders = [str(d) for d in options.get("case_dirs") or []]
    bundled = {str(d) for d in options.get("bundled_case_dirs") or []}
    for folder in folders:
        if folder not in bundled:
            parts += ["--cases", from_here(folder)]
    if folders and not bundled & set(folders):
        parts.append("--no-bundled")
    if options.get("expectations"):
        parts += ["--expectations", str(options["expectations"])]
    timeout = options.get("case_timeout", DEFAULT_CASE_TIMEOUT)
    if timeout != DEFAULT_CASE_TIMEOUT:
        parts += ["--case-timeout", f"{timeout or 0:g}"]
    if options.get("validate_protocol"):
        parts.append("--validate-protocol")
    if options.get("repeat", 1) != 1:
        parts += ["--repeat", str(options["repeat"])]
    if results_folder is not None:
        parts += ["--out", rerun_out(results_folder, record.case_id)]
    return shlex.join(parts)


def section_title(corpus: Corpus, edition: str, section: str) -> str:
    """The English title of a section, from its gist."""
    gist = corpus.get(f"{edition}:{section}").gist.removeprefix("Section heading: ")
    return gist.split(" (")[0].rstrip(".")
