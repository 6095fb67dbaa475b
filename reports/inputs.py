"""The report's inputs, read from files alone: results, coverage, mutants and fuzz findings.

Results files are read by the harness's one reader of them (``conformance.resultsfile``, the
results contract); the coverage, mutants and fuzz files here, each checked against its schema
under ``spec/schemas/`` (``conformance.schemas``). Nothing here imports an engine. A file that
is missing, not JSON or not of its format raises an ``InputError`` (``BadInput`` for the files
read here) naming the file and the field, which the command line turns into exit status 2.

>>> read_fuzz(Path("fuzz-results/fuzz-modern.json")).findings        # doctest: +SKIP
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance import schemas
from conformance.errors import InputError, Problem

MUTANTS_FORMATS = {"mtg-conformance mutants": (2,), "mtg-conformance-mutation": (1,)}
FUZZ_FORMAT = "mtg-conformance fuzz"
FUZZ_VERSIONS = (1,)


class BadInput(InputError):
    """An input file the report cannot use: missing, not JSON, or not of its format."""

    def __init__(self, path: Path | str, message: str, where: str = "") -> None:
        super().__init__((Problem(str(path), message, field=where or None),))
        self.path, self.message, self.where = str(path), message, where

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" + (f" (at {self.where})" if self.where else "")


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


def _check(path: Path, schema: str, data: Any, what: str) -> None:
    error = schemas.first_error(schema, data)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        raise BadInput(path, f"not a valid {what}: {error.message}", where)


def read_coverage(path: Path) -> CoverageInput:
    data = _load_json(path, "coverage file")
    _check(path, "coverage.json", data, "coverage file (mtgconf coverage --json)")
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
    _check(path, "mutants.json", data, "mutants file")
    return tuple(Mutant(id=key, status=m["status"], rules=tuple(m.get("rules", ())),
                        description=m.get("description", ""),
                        killed_by=tuple(m.get("killed_by", ())))
                 for key, m in data["mutants"].items())


def read_fuzz(path: Path) -> FuzzRun:
    """A fuzz run (format ``mtg-conformance fuzz`` version 1, schema
    ``spec/schemas/fuzz.json``). A finding's case is shown as YAML; when it gives only a
    ``case_file``, that file is read (relative to the fuzz file) if it is there."""
    data = _load_json(path, "fuzz results file")
    if not isinstance(data, dict) or data.get("format") != FUZZ_FORMAT:
        raise BadInput(path, f"not a fuzz results file (format is not {FUZZ_FORMAT!r})",
                       "format")
    if data.get("version") not in FUZZ_VERSIONS:
        raise BadInput(path, f"fuzz format version {data.get('version')!r} is not one this "
                       "report reads", "version")
    _check(path, "fuzz.json", data, "fuzz results file")
    engine = f"{data['engine']['name']} {data['engine']['version']}"
    findings = tuple(
        FuzzFinding(invariant=item["invariant"], rules=tuple(item["rules"]),
                    message=item["message"], steps=item["steps"], case_file=item["case_file"],
                    case=_case_text(path, item["case"], item["case_file"]),
                    trace=tuple(item["trace"]), engine=engine, edition=data["edition"],
                    seed=data["seed"],
                    replay=_replay(path, item["case_file"], data["engine"]))
        for item in data["findings"])
    return FuzzRun(path=path, engine=engine, against=data["against"], edition=data["edition"],
                   profile=data["profile"], seed=data["seed"], started=data["started"],
                   seconds=float(data["seconds"]), examples=data["examples"],
                   steps=data["steps"], invariants=tuple(data["invariants"]),
                   findings=findings)


def _case_path(path: Path, case_file: str) -> Path:
    """Where a finding's case file is: absolute, or relative to the fuzz file; a fuzz run
    given a relative --out wrote it relative to the folder it ran in (the fuzz file's
    folder already in it), so that path is taken if it alone names a file."""
    given = Path(case_file)
    beside = path.parent / given
    if given.is_absolute() or beside.exists() or not given.exists():
        return beside
    return given


def _replay(path: Path, case_file: str | None, engine: Mapping[str, Any]) -> str:
    """The command that replays a finding's case on the engine the fuzz run played: its
    ``--engine`` as the fuzz file records it (``engine.spec``); a file without one names
    ``ENGINE`` unless the engine is the reference engine."""
    if not case_file:
        return ""
    command = ["mtgconf", "fuzz", "replay", str(_case_path(path, case_file))]
    spec = engine.get("spec")
    if spec is None:
        reference = engine.get("name") == "mtg-conformance-reference"
        return shlex.join(command) + ("" if reference else " --engine ENGINE")
    return shlex.join(command + ([] if spec == "reference" else ["--engine", spec]))


def _case_text(path: Path, case: Mapping[str, Any] | None, case_file: str | None) -> str:
    """A shrunk case as the YAML of a case file (a list of one case)."""
    if case is not None:
        return yaml.safe_dump([case], allow_unicode=True, sort_keys=False, width=100,
                              default_flow_style=None)
    if case_file:
        shrunk = _case_path(path, case_file)
        try:
            return shrunk.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
    return ""
