"""The report's inputs, read from files alone: results, coverage, mutants and fuzz findings.

Nothing here imports the harness or an engine. A results file is checked against
``spec/schemas/results.json`` (data, not harness code); the others against the few fields the
report reads. A file that is missing, not JSON or not of its format raises ``BadInput``
naming the file (and the field), which the command line turns into exit status 2.

>>> runs = [read_results(Path("conformance-results/results.json"))]   # doctest: +SKIP
>>> runs[0].records[0].status                                          # doctest: +SKIP
'pass'
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from spec.editions import SPEC_DIR

RESULTS_FORMAT = "mtg-conformance results"
RESULTS_VERSIONS = (1, 2)
MUTANTS_FORMATS = {"mtg-conformance mutants": (2,), "mtg-conformance-mutation": (1,)}
FUZZ_FORMAT = "mtg-conformance fuzz"
FUZZ_VERSIONS = (1,)
SCHEMAS = Path(__file__).resolve().parent / "schemas"


class BadInput(Exception):
    """An input file the report cannot use: missing, not JSON, or not of its format."""

    def __init__(self, path: Path | str, message: str, where: str = "") -> None:
        self.path, self.message, self.where = str(path), message, where
        super().__init__(f"{path}: {message}" + (f" (at {where})" if where else ""))


@dataclass(frozen=True, slots=True)
class Record:
    """One case run of a results file: a case, in an edition, against an engine."""

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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        return cls(case_id=data["case_id"], edition=data["edition"], rules=tuple(data["rules"]),
                   engine=data["engine"], status=data["status"], outcome=data["outcome"],
                   message=data["message"], duration=float(data["duration"]),
                   file=data.get("file"), line=data.get("line"),
                   detail=dict(data.get("detail") or {}))

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.engine, self.case_id, self.edition)


@dataclass(frozen=True)
class Run:
    """One results file: the engines it ran, as they declared themselves, and its records."""

    path: Path
    engines: dict[str, dict[str, Any] | None]  # spec -> hello declaration (None: no handshake)
    editions: tuple[str, ...]
    records: tuple[Record, ...]
    started: str
    finished: str
    options: Mapping[str, Any]
    selected: int
    interrupted: bool
    harness: str


@dataclass(frozen=True)
class CoverageInput:
    """What ``mtgconf coverage --json`` writes (``mtgconf run`` writes it as coverage.json),
    optionally with ``cases``: each case's summary, file, line, and quote and catches per
    rule."""

    path: Path
    summary: Mapping[str, Any]  # the seed rules
    rules: dict[str, Mapping[str, Any]]  # ref -> {status, cases, discriminating, ...}
    cases: dict[str, Mapping[str, Any]]  # case id -> {base_id, summary, quotes, catches, ...}
    #: the rules outside the seeds, counted apart (None: a file written before they were)
    summary_outside: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Mutant:
    id: str
    status: str  # killed, survived, error
    rules: tuple[str, ...]
    description: str
    killed_by: tuple[str, ...]


@dataclass(frozen=True)
class FuzzFinding:
    """An invariant that did not hold in a fuzz run, with the shrunk game that shows it."""

    invariant: str
    rules: tuple[str, ...]
    message: str
    steps: int
    case_file: str | None
    case: str  # the shrunk case as the YAML of a case file ("" when neither given nor readable)
    trace: tuple[str, ...]
    engine: str  # the run's engine, "name version"
    edition: str
    seed: int
    replay: str = ""  # the command that replays the shrunk case ("" without a case file)


@dataclass(frozen=True)
class FuzzRun:
    """One fuzz results file: an engine fuzzed in one edition, alone or against the reference
    engine."""

    path: Path
    engine: str  # "name version", as the engine declared itself
    against: str | None  # None: invariants only; "reference": differential
    edition: str
    profile: str
    seed: int
    started: str
    seconds: float
    examples: int
    steps: int
    invariants: tuple[Mapping[str, Any], ...]  # {id, rules, checked}
    findings: tuple[FuzzFinding, ...]

    @property
    def checked(self) -> int:
        """Invariant checks made in all."""
        return sum(int(i["checked"]) for i in self.invariants)


def _load_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(path, f"no such {what}") from None
    except OSError as exc:
        raise BadInput(path, f"cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise BadInput(path, f"not a {what} (not JSON: {exc})") from None


@cache
def _validator(path: Path) -> Draft202012Validator:
    return Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def _check(path: Path, schema: Path, data: Any, what: str) -> None:
    error = best_match(_validator(schema).iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        raise BadInput(path, f"not a valid {what}: {error.message}", where)


def read_results(path: Path) -> Run:
    """Read and check a results file (format version 1 or 2)."""
    data = _load_json(path, "results file")
    if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
        raise BadInput(path, f"not a results file (format is not {RESULTS_FORMAT!r})", "format")
    if data.get("version") not in RESULTS_VERSIONS:
        raise BadInput(path, f"results format version {data.get('version')!r} is not one this "
                       f"report reads ({', '.join(map(str, RESULTS_VERSIONS))})", "version")
    if data["version"] == 1:  # read as a complete run, as the harness does
        data = {**data, "version": 2, "interrupted": False,
                "selected": len(data.get("results", []))}
    _check(path, SPEC_DIR / "schemas" / "results.json", data, "results file")
    return Run(path=path, engines={e["spec"]: e["info"] for e in data["engines"]},
               editions=tuple(data["editions"]),
               records=tuple(Record.from_json(r) for r in data["results"]),
               started=data["started"], finished=data["finished"], options=data["options"],
               selected=data["selected"], interrupted=data["interrupted"],
               harness=data["harness"])


def read_coverage(path: Path) -> CoverageInput:
    data = _load_json(path, "coverage file")
    _check(path, SCHEMAS / "coverage.json", data, "coverage file (mtgconf coverage --json)")
    return CoverageInput(path=path, summary=data["summary"],
                         rules={r["rule"]: r for r in data["rules"]},
                         cases=dict(data.get("cases") or {}),
                         summary_outside=data.get("summary_outside"))


def read_mutants(path: Path) -> tuple[Mutant, ...]:
    """A mutants run (``mtgconf mutants run --json``, or the earlier mutation kit's file)."""
    data = _load_json(path, "mutants file")
    if not isinstance(data, dict) or data.get("format") not in MUTANTS_FORMATS:
        raise BadInput(path, "not a mutants file (format is not one of "
                       f"{', '.join(map(repr, MUTANTS_FORMATS))})", "format")
    if data.get("version") not in MUTANTS_FORMATS[data["format"]]:
        raise BadInput(path, f"mutants format version {data.get('version')!r} is not one this "
                       "report reads", "version")
    _check(path, SCHEMAS / "mutants.json", data, "mutants file")
    return tuple(Mutant(id=key, status=m["status"], rules=tuple(m.get("rules", ())),
                        description=m.get("description", ""),
                        killed_by=tuple(m.get("killed_by", ())))
                 for key, m in data["mutants"].items())


def read_fuzz(path: Path) -> FuzzRun:
    """A fuzz run (format ``mtg-conformance fuzz`` version 1, schema
    ``reports/schemas/fuzz.json``). A finding's case is shown as YAML; when it gives only a
    ``case_file``, that file is read (relative to the fuzz file) if it is there."""
    data = _load_json(path, "fuzz results file")
    if not isinstance(data, dict) or data.get("format") != FUZZ_FORMAT:
        raise BadInput(path, f"not a fuzz results file (format is not {FUZZ_FORMAT!r})",
                       "format")
    if data.get("version") not in FUZZ_VERSIONS:
        raise BadInput(path, f"fuzz format version {data.get('version')!r} is not one this "
                       "report reads", "version")
    _check(path, SCHEMAS / "fuzz.json", data, "fuzz results file")
    engine = f"{data['engine']['name']} {data['engine']['version']}"
    findings = tuple(
        FuzzFinding(invariant=item["invariant"], rules=tuple(item["rules"]),
                    message=item["message"], steps=item["steps"], case_file=item["case_file"],
                    case=_case_text(path, item["case"], item["case_file"]),
                    trace=tuple(item["trace"]), engine=engine, edition=data["edition"],
                    seed=data["seed"],
                    replay=shlex.join(["mtgconf", "fuzz", "replay",
                                       str(path.parent / item["case_file"])])
                    if item["case_file"] else "")
        for item in data["findings"])
    return FuzzRun(path=path, engine=engine, against=data["against"], edition=data["edition"],
                   profile=data["profile"], seed=data["seed"], started=data["started"],
                   seconds=float(data["seconds"]), examples=data["examples"],
                   steps=data["steps"], invariants=tuple(data["invariants"]),
                   findings=findings)


def _case_text(path: Path, case: Mapping[str, Any] | None, case_file: str | None) -> str:
    """A shrunk case as the YAML of a case file (a list of one case)."""
    if case is not None:
        return yaml.safe_dump([case], allow_unicode=True, sort_keys=False, width=100,
                              default_flow_style=None)
    if case_file:
        shrunk = path.parent / case_file
        try:
            return shrunk.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
    return ""
