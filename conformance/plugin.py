"""The pytest plugin of mtg-conformance (entry point ``mtg``): conformance cases as test items.

It does nothing unless asked: cases are collected only when an ``--mtg-*`` option is given,
or when case files (or a case folder) are named on the command line, so that ``pytest`` on a
project that merely has the plugin installed runs that project's tests as before. This
module holds only the options and the switch; the collectors, items and engines live in
``conformance.collect`` and are imported only when the plugin is switched on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

BUNDLED_CASES = Path(__file__).resolve().parent / "cases"
EDITIONS = ("cr2004", "modern")
CASE_SUFFIXES = (".yaml", ".yml")
DEFAULT_CASE_TIMEOUT = 10.0
DEFAULT_MAX_RESTARTS = 3


def pytest_addoption(parser: pytest.Parser) -> None:
    # Help style: capitalised, no full stop after a single phrase, the default in brackets.
    group = parser.getgroup("mtg", "Magic: The Gathering rules conformance (mtg-conformance)")
    group.addoption(
        "--mtg-engine", action="append", dest="mtg_engines", default=[], metavar="ENGINE",
        help="Engine under test: reference, py:MODULE:CLASS or cmd:COMMAND (repeatable) "
             "[reference]")
    group.addoption(
        "--mtg-edition", action="append", dest="mtg_editions", default=[], metavar="EDITION",
        type=_edition, help="Edition to run cases under: cr2004, modern or all (repeatable) "
                            "[all]")
    group.addoption(
        "--mtg-rules", action="append", dest="mtg_rules", default=[], metavar="GLOB",
        help="Only cases citing a rule matching GLOB, e.g. cr2004:101.* or 217.* (repeatable)")
    group.addoption(
        "--mtg-cases", action="append", dest="mtg_case_dirs", default=[], metavar="DIR",
        help="Another folder of case files, besides the bundled ones (repeatable)")
    group.addoption(
        "--mtg-no-bundled", action="store_true", dest="mtg_no_bundled", default=False,
        help="Run only the cases of the --mtg-cases folders, not the bundled ones")
    group.addoption(
        "--mtg-expectations", dest="mtg_expectations", default=None, metavar="FILE",
        help="The engine's expectations file: case id to expected status (strict)")
    group.addoption(
        "--mtg-case-timeout", dest="mtg_case_timeout", default=None, metavar="SECONDS",
        type=_seconds, help=f"Seconds a case may take before it is a timeout; 0 for no limit "
                            f"[{DEFAULT_CASE_TIMEOUT:g}]")
    group.addoption(
        "--mtg-results", dest="mtg_results", default=None, metavar="FILE",
        help="Write every result (from every xdist worker) to FILE as results.json")
    group.addoption(
        "--mtg-validate-protocol", action="store_true", dest="mtg_validate", default=False,
        help="Check every message both ways against its JSON Schema; a violation is an error")
    group.addoption(
        "--mtg-max-restarts", dest="mtg_max_restarts", default=None, metavar="N",
        type=_count, help=f"Restarts of a crashed or hung engine in a row before its remaining "
                          f"cases are reported as not run [{DEFAULT_MAX_RESTARTS}]")


def _edition(value: str) -> str:
    if value not in (*EDITIONS, "all"):
        raise pytest.UsageError(f"--mtg-edition must be cr2004, modern or all, not {value!r}")
    return value


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise pytest.UsageError(f"--mtg-case-timeout must be a number of seconds (0 for no "
                                f"limit), not {value!r}")
    return seconds


def _count(value: str) -> int:
    if not value.isdigit():
        raise pytest.UsageError(f"--mtg-max-restarts must be a whole number, not {value!r}")
    return int(value)


@dataclass(frozen=True)
class Settings:
    """The plugin's options, checked."""

    engines: tuple[str, ...]
    editions: tuple[str, ...]
    rules: tuple[str, ...]
    case_dirs: tuple[Path, ...]
    expectations: Path | None
    case_timeout: float | None
    results: Path | None
    validate: bool
    max_restarts: int
    active: bool  # some --mtg-* option was given

    @classmethod
    def from_config(cls, config: pytest.Config) -> Settings:
        option = config.option
        here = config.invocation_params.dir
        editions = [e for e in option.mtg_editions if e != "all"]
        if not editions or "all" in option.mtg_editions:
            editions = list(EDITIONS)
        timeout = option.mtg_case_timeout
        case_dirs = [(here / d).resolve() for d in option.mtg_case_dirs]
        for path in case_dirs:
            if not path.exists():
                raise pytest.UsageError(f"--mtg-cases: no such file or directory: {path}")
        if option.mtg_no_bundled and not case_dirs:
            raise pytest.UsageError("--mtg-no-bundled needs at least one --mtg-cases folder")
        if option.mtg_expectations and not (here / option.mtg_expectations).is_file():
            raise pytest.UsageError(f"--mtg-expectations: no such file: "
                                    f"{here / option.mtg_expectations}")
        active = any((option.mtg_engines, option.mtg_editions, option.mtg_rules,
                      option.mtg_case_dirs, option.mtg_no_bundled, option.mtg_expectations,
                      timeout is not None,
                      option.mtg_results, option.mtg_validate,
                      option.mtg_max_restarts is not None))
        return cls(
            engines=tuple(dict.fromkeys(option.mtg_engines or ["reference"])),
            editions=tuple(e for e in EDITIONS if e in editions),
            rules=tuple(option.mtg_rules),
            case_dirs=tuple(case_dirs) if option.mtg_no_bundled else (BUNDLED_CASES,
                                                                      *case_dirs),
            expectations=(here / option.mtg_expectations) if option.mtg_expectations else None,
            case_timeout=DEFAULT_CASE_TIMEOUT if timeout is None else (timeout or None),
            results=(here / option.mtg_results) if option.mtg_results else None,
            validate=bool(option.mtg_validate),
            max_restarts=(DEFAULT_MAX_RESTARTS if option.mtg_max_restarts is None
                          else option.mtg_max_restarts),
            active=active,
        )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(ref): the rule a conformance case verifies; select with "
                   "-m \"rule(ref='cr2004:101.5')\"")
    settings = Settings.from_config(config)
    explicit = _explicit_case_paths(config, settings)
    if not settings.active and not explicit:
        return
    if settings.active:
        _select_cases(config, settings)
    from conformance.collect import MtgPlugin

    plugin = MtgPlugin(config, settings, explicit)
    config.stash[PLUGIN] = plugin
    config.pluginmanager.register(plugin, "mtg-conformance")


PLUGIN = pytest.StashKey[Any]()


def _arg_paths(config: pytest.Config) -> list[Path]:
    here = config.invocation_params.dir
    return [(here / arg.split("::")[0]).resolve() for arg in config.args]


def _within(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _explicit_case_paths(config: pytest.Config, settings: Settings) -> list[Path]:
    """Case files named on the command line, and case folders (or files in them)."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return []
    return [path for path in _arg_paths(config)
            if path.suffix in CASE_SUFFIXES or _within(path, settings.case_dirs)]


def _select_cases(config: pytest.Config, settings: Settings) -> None:
    # With an --mtg-* option and no paths, collect the cases instead of the testpaths; with
    # paths that name no cases, collect the cases too.
    case_args = [str(d) for d in settings.case_dirs]
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = case_args
    elif not _explicit_case_paths(config, settings):
        config.args = [*config.args, *case_args]
