"""The settings of a conformance run: one set of defaults and validators, shared by ``mtgconf
run`` and the pytest plugin.

``mtgconf run`` builds a ``Settings`` from its command line (its engine spec parsed once, at
the option) and hands the plugin in its own process that very object
(``conformance.plugin.RunContext``). The ``--mtg-*`` options (``Settings.pytest_args``) are
the one serialized form, for the xdist workers and for ``pytest`` run by hand: the plugin
reads them back (``Settings.from_options``) through the same validators, so that both ways of
running the suite mean the same thing by every option.

This module imports nothing heavy: the plugin loads it in every pytest session of a project
that merely has mtg-conformance installed.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import math
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.transports import EngineSpec
from spec import editions as spec_editions

if TYPE_CHECKING:
    from conformance.protocol import EngineInfo

BUNDLED_CASES = Path(__file__).resolve().parent / "cases"
EDITIONS = tuple(spec_editions.EDITIONS)  # the corpus's editions, in its order
CASE_SUFFIXES = (".yaml", ".yml")
DEFAULT_CASE_TIMEOUT = 10.0
DEFAULT_MAX_RESTARTS = 3


class SettingError(argparse.ArgumentTypeError):
    """A bad option value. Both argparse (the CLI) and pytest's option parser print its
    message after the option's name."""


def edition(value: str) -> str:
    if value not in (*EDITIONS, "all"):
        raise SettingError(f"must be {', '.join(EDITIONS)} or all, not {value!r}")
    return value


def seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number >= 0:  # also rejects nan
        raise SettingError(f"must be a number of seconds (0 for no limit), not {value!r}")
    return number


def count(value: str) -> int:
    if not value.isdigit():
        raise SettingError(f"must be a whole number, not {value!r}")
    return int(value)


def positive(value: str) -> int:
    number = count(value)
    if number < 1:
        raise SettingError(f"must be at least 1, not {value!r}")
    return number


@dataclass(frozen=True, slots=True)
class MinRun:
    """How many of the selected case runs must actually run (not be skipped) for the run to
    count as having tested the engine: a number, or a percentage.

    >>> MinRun.parse("60%").required(196), MinRun.parse("25").required(196)
    (118, 25)
    """

    amount: float
    percent: bool

    @classmethod
    def parse(cls, value: str) -> MinRun:
        text = value.strip()
        percent = text.endswith("%")
        try:
            amount = float(text.removesuffix("%"))
        except ValueError:
            amount = -1.0
        if not amount >= 0 or (percent and amount > 100) or (
                not percent and not amount.is_integer()):
            raise SettingError(f"must be a count (e.g. 50) or a percentage (e.g. 60%), not "
                               f"{value!r}")
        return cls(amount, percent)

    def required(self, selected: int) -> int:
        if self.percent:
            return math.ceil(selected * self.amount / 100 - 1e-9)
        return int(self.amount)

    def __str__(self) -> str:
        return f"{self.amount:g}%" if self.percent else f"{int(self.amount)}"


def matches_rules(rules: Iterable[str], globs: Iterable[str]) -> bool:
    """A case citing ``rules`` is selected by rule globs (``cr2004:101.*`` or ``101.*``)."""
    globs = tuple(globs)
    return not globs or any(
        fnmatch.fnmatchcase(ref, glob) or fnmatch.fnmatchcase(ref.partition(":")[2], glob)
        for ref in rules for glob in globs)


@dataclass(frozen=True)
class Settings:
    """What a conformance run runs and where it writes; every field checked (the engines
    parsed)."""

    engines: tuple[EngineSpec, ...] = field(
        default_factory=lambda: (EngineSpec.parse("reference"),))
    editions: tuple[str, ...] = EDITIONS
    rules: tuple[str, ...] = ()
    case_ids: tuple[str, ...] = ()
    case_dirs: tuple[Path, ...] = (BUNDLED_CASES,)
    expectations: Path | None = None
    case_timeout: float | None = DEFAULT_CASE_TIMEOUT
    results: Path | None = None
    junit: Path | None = None
    validate: bool = False
    max_restarts: int = DEFAULT_MAX_RESTARTS
    repeat: int = 1
    min_run: MinRun | None = None
    #: which case runs keep their trace (``conformance.trace``): ``unexpected``, ``all`` or
    #: none; written beside the results file
    trace: str | None = None
    #: case runs (``edition::id``) to run before the others (``mtgconf run --ff``)
    first: tuple[str, ...] = ()
    #: when given, only these case runs (``edition::id``) of the selected cases run, each in
    #: its own edition (``mtgconf run --lf``: a case that failed in one edition only)
    only: tuple[str, ...] = ()
    #: no edition was chosen: ``editions`` are to be those the engines declare, once known
    #: (``for_engines``); a modern-only engine is not measured against cr2004 by default
    engine_editions: bool = False

    def for_engines(self, infos: Iterable[EngineInfo]) -> Settings:
        """These settings once the engines declared themselves: without an edition chosen,
        the editions any of them declares (all, if they declare none the harness knows: their
        cases then skip, and the unknown edition fails the run)."""
        if not self.engine_editions:
            return self
        declared = {e for info in infos for e in info.editions}
        chosen = tuple(e for e in EDITIONS if e in declared) or self.editions
        return replace(self, editions=chosen, engine_editions=False)

    @property
    def stream(self) -> Path | None:
        """Where results go one JSON line at a time as cases finish."""
        return None if self.results is None else self.results.with_suffix(".jsonl")

    def selects(self, case_id: str, rules: Iterable[str]) -> bool:
        """The run runs this case: its id matches a --case glob and a rule a --rules glob."""
        return matches_rules(rules, self.rules) and (
            not self.case_ids or any(fnmatch.fnmatchcase(case_id, g) for g in self.case_ids))

    def runs(self, case_id: str, edition: str) -> bool:
        """The run runs this selected case in ``edition``."""
        return edition in self.editions and (
            not self.only or f"{edition}::{case_id}" in self.only)

    def options(self) -> dict[str, Any]:
        """The options as results.json records them."""
        return {
            "rules": list(self.rules),
            "cases": list(self.case_ids),
            "case_dirs": [str(d) for d in self.case_dirs],
            "bundled_case_dirs": [str(d) for d in self.case_dirs if d == BUNDLED_CASES],
            "expectations": str(self.expectations) if self.expectations else None,
            "case_timeout": self.case_timeout,
            "validate_protocol": self.validate,
            "repeat": self.repeat,
            "min_run": str(self.min_run) if self.min_run else None,
        }

    def pytest_args(self) -> list[str]:
        """The ``--mtg-*`` options that make the plugin read back these settings."""
        args = [f"--mtg-engine={e.text}" for e in self.engines]
        if not self.engine_editions:
            args += [f"--mtg-edition={e}" for e in self.editions]
        args += [f"--mtg-rules={g}" for g in self.rules]
        args += [f"--mtg-case={g}" for g in self.case_ids]
        args += [f"--mtg-cases={d}" for d in self.case_dirs if d != BUNDLED_CASES]
        if BUNDLED_CASES not in self.case_dirs:
            args.append("--mtg-no-bundled")
        if self.expectations is not None:
            args.append(f"--mtg-expectations={self.expectations}")
        args.append(f"--mtg-case-timeout={self.case_timeout or 0}")
        if self.results is not None:
            args.append(f"--mtg-results={self.results}")
        if self.junit is not None:
            args.append(f"--mtg-junit={self.junit}")
        if self.validate:
            args.append("--mtg-validate-protocol")
        args.append(f"--mtg-max-restarts={self.max_restarts}")
        if self.repeat != 1:
            args.append(f"--mtg-repeat={self.repeat}")
        if self.min_run is not None:
            args.append(f"--mtg-min-run={self.min_run}")
        if self.trace is not None:
            args.append(f"--mtg-trace={self.trace}")
        args += [f"--mtg-first={key}" for key in self.first]
        args += [f"--mtg-only={key}" for key in self.only]
        return args

    @classmethod
    def from_options(cls, option: Any, here: Path) -> Settings:
        """Settings from pytest's parsed ``--mtg-*`` options (paths relative to ``here``).

        :raises BadEngineSpec: an ``--mtg-engine`` value names no engine.
        """
        editions = [e for e in option.mtg_editions if e != "all"]
        if not editions or "all" in option.mtg_editions:
            editions = list(EDITIONS)  # narrowed to the engines' own if none was named
        timeout = option.mtg_case_timeout
        return cls(
            engines=tuple(dict.fromkeys(EngineSpec.parse(text)
                                        for text in option.mtg_engines or ["reference"])),
            editions=tuple(e for e in EDITIONS if e in editions),
            rules=tuple(option.mtg_rules),
            case_ids=tuple(option.mtg_case_ids),
            case_dirs=cls.case_dirs_of(option, here),
            expectations=(here / option.mtg_expectations).resolve()
            if option.mtg_expectations else None,
            case_timeout=DEFAULT_CASE_TIMEOUT if timeout is None else (timeout or None),
            results=(here / option.mtg_results).resolve() if option.mtg_results else None,
            junit=(here / option.mtg_junit).resolve() if option.mtg_junit else None,
            validate=bool(option.mtg_validate),
            max_restarts=DEFAULT_MAX_RESTARTS if option.mtg_max_restarts is None
            else option.mtg_max_restarts,
            repeat=option.mtg_repeat or 1,
            min_run=option.mtg_min_run,
            trace=option.mtg_trace,
            first=tuple(option.mtg_first),
            only=tuple(option.mtg_only),
            engine_editions=not option.mtg_editions,
        )

    @staticmethod
    def case_dirs_of(option: Any, here: Path) -> tuple[Path, ...]:
        """The case folders pytest's ``--mtg-*`` options name (what the plugin needs to know
        whether it is switched on, before anything else is read)."""
        case_dirs = tuple(dict.fromkeys((here / d).resolve() for d in option.mtg_case_dirs))
        return case_dirs if option.mtg_no_bundled else (BUNDLED_CASES, *case_dirs)

    def problems(self) -> list[str]:
        """What is wrong with the files and folders these settings name, before anything
        runs: a missing folder, a missing expectations file, an output that cannot be
        written (found now, not after every case ran)."""
        found = [f"no such case file or folder: {path}" for path in self.case_dirs
                 if not path.exists()]
        if not self.case_dirs:
            found.append("no case folder: without the bundled cases, name a folder of cases")
        if self.expectations is not None and not self.expectations.is_file():
            found.append(f"no such expectations file: {self.expectations}")
        if self.trace is not None and self.results is None:
            found.append("traces are written beside the results file: --mtg-trace needs "
                         "--mtg-results")
        unusable: set[Path] = set()  # output folders already reported: each said once
        for name, path in (("results", self.results), ("junit", self.junit)):
            if path is None or path.parent in unusable:
                continue
            reason = unwritable(path)
            if reason is None:
                continue
            if path.parent.is_dir():
                found.append(f"cannot write the {name} file {path}: {reason}")
            else:
                unusable.add(path.parent)
                found.append(f"cannot write the results to {path.parent}: {reason}")
        return found


def unwritable(path: Path) -> str | None:
    """Why a file cannot be written at ``path`` (its folder is created if missing), or None.
    The file itself is left as it is: a previous run's results stay until new ones replace
    them."""
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        return "it is a file, not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create the folder {folder}: {exc.strerror or exc}"
    if path.is_dir():
        return "it is a folder"
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(handle)
    with contextlib.suppress(OSError):
        Path(probe).unlink()
    return None
