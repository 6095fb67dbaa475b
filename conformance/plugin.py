"""The pytest plugin of mtg-conformance (entry point ``mtg``): conformance cases as test items.

It does nothing unless asked: cases are collected only when an ``--mtg-*`` option is given,
or when case files (or a case folder) are named on the command line, so that ``pytest`` on a
project that merely has the plugin installed runs that project's tests as before. This
module holds only the options, the switch and what ``mtgconf run`` hands over
(``RunContext``); the collectors, items and engines live in ``conformance.collect`` and are
imported only when the plugin is switched on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance import settings as checked
from conformance.errors import SetupError
from conformance.settings import (
    CASE_SUFFIXES,
    DEFAULT_CASE_TIMEOUT,
    DEFAULT_MAX_RESTARTS,
    MinRun,
    Settings,
)

if TYPE_CHECKING:
    from conformance.casefile import CaseSet
    from conformance.expectations import Expectations
    from conformance.resultsfile import Results
    from conformance.session import EngineSession


@dataclass(eq=False)  # a pytest plugin object: hashable by identity
class RunContext:
    """What ``mtgconf run`` hands the plugin in its own process, and reads back when pytest
    returns. The settings, the cases and the expectations are the command's own objects,
    already checked: the plugin in this process neither reads them back from the ``--mtg-*``
    options nor loads the files again (the xdist workers, other processes, do, once each).
    The sessions are the engines the command shook hands with."""

    settings: Settings | None = None
    cases: CaseSet | None = None
    expectations: Expectations | None = None
    sessions: dict[str, EngineSession] = field(default_factory=dict)
    engine_failure: SetupError | None = None
    results: Results | None = None
    interrupted_by: str | None = None

    @property
    def from_cli(self) -> bool:
        return self.settings is not None


def pytest_addoption(parser: pytest.Parser) -> None:
    # Help style: capitalised, no full stop after a single phrase, the default in brackets.
    group = parser.getgroup("mtg", "Magic: The Gathering rules conformance (mtg-conformance)")
    group.addoption(
        "--mtg-engine", action="append", dest="mtg_engines", default=[], metavar="ENGINE",
        help="Engine under test: reference, a named engine (phase, python-mtg), "
             "py:MODULE:CLASS or cmd:COMMAND (repeatable) [reference]")
    group.addoption(
        "--mtg-edition", action="append", dest="mtg_editions", default=[], metavar="EDITION",
        type=checked.edition,
        help=f"Edition to run cases under: {', '.join(checked.EDITIONS)} or all (repeatable) "
             "[the editions the engine declares]")
    group.addoption(
        "--mtg-rules", action="append", dest="mtg_rules", default=[], metavar="GLOB",
        help="Only cases citing a rule matching GLOB, e.g. cr2004:101.* or 217.* (repeatable)")
    group.addoption(
        "--mtg-case", action="append", dest="mtg_case_ids", default=[], metavar="GLOB",
        help="Only the cases whose id matches GLOB, e.g. turn.* (repeatable)")
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
        type=checked.seconds, help=f"Seconds a case may take before it is a timeout; 0 for no "
                                   f"limit [{DEFAULT_CASE_TIMEOUT:g}]")
    group.addoption(
        "--mtg-results", dest="mtg_results", default=None, metavar="FILE",
        help="Write every result (from every xdist worker) to FILE as results.json, and as "
             "they come to FILE with the suffix .jsonl")
    group.addoption(
        "--mtg-junit", dest="mtg_junit", default=None, metavar="FILE",
        help="Write the results as JUnit XML to FILE: a testsuite per engine and edition, "
             "errors apart from failures, the case's file and line")
    group.addoption(
        "--mtg-validate-protocol", action="store_true", dest="mtg_validate", default=False,
        help="Check every message both ways against its JSON Schema; a violation is an error")
    group.addoption(
        "--mtg-max-restarts", dest="mtg_max_restarts", default=None, metavar="N",
        type=checked.count, help=f"Failed restarts of a crashed or hung engine in a row (it "
                                 f"did not start or answer hello) before its remaining cases "
                                 f"are reported as not run [{DEFAULT_MAX_RESTARTS}]")
    group.addoption(
        "--mtg-repeat", dest="mtg_repeat", default=None, metavar="N", type=checked.positive,
        help="Run each case N times, in fresh games; a case whose runs end differently is "
             "flaky [1]")
    group.addoption(
        "--mtg-trace", dest="mtg_trace", default=None, metavar="KEEP", nargs="?",
        const="unexpected", type=_trace_keep,
        help="Keep each case run's exchange with the engine (requests, responses, stderr, "
             "timings) as JSON lines in traces/ beside --mtg-results: of every unexpected "
             "result, or of all that ran [unexpected]")
    group.addoption(
        "--mtg-min-run", dest="mtg_min_run", default=None, metavar="N|P%", type=MinRun.parse,
        help="Fail the session unless at least N case runs (or P%% of those selected) ran "
             "rather than being skipped")
    group.addoption(
        "--mtg-first", action="append", dest="mtg_first", default=[], metavar="EDITION::ID",
        help="Run this case run before the others (repeatable; mtgconf run --ff)")
    group.addoption(
        "--mtg-only", action="append", dest="mtg_only", default=[], metavar="EDITION::ID",
        help="Run only this case run of the selected cases (repeatable; mtgconf run --lf)")


def _trace_keep(value: str) -> str:
    from conformance.trace import keep

    return keep(value)


def _active(option: Any) -> bool:
    """Some --mtg-* option was given."""
    return any(value not in (None, False, []) for name, value in vars(option).items()
               if name.startswith("mtg_"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(ref): the rule a conformance case verifies; select with "
                   "-m \"rule(ref='cr2004:101.5')\"")
    context = next((p for p in config.pluginmanager.get_plugins()
                    if isinstance(p, RunContext)), RunContext())
    here = config.invocation_params.dir
    case_dirs = context.settings.case_dirs if context.settings is not None \
        else Settings.case_dirs_of(config.option, here)
    explicit = _explicit_case_paths(config, case_dirs)
    active = context.from_cli or _active(config.option)
    if not active and not explicit:
        return  # switched off: not even the engine spec is parsed (nor an entry point read)
    settings = context.settings
    if settings is None:
        try:
            settings = Settings.from_options(config.option, here)
        except SetupError as exc:  # a bad --mtg-engine
            raise pytest.UsageError(f"--mtg-engine {exc.message()} ({exc.hint})") from None
    problems = settings.problems()
    if problems:
        raise pytest.UsageError("\n".join(problems))
    if active:
        _select_cases(config, settings)
    from conformance.collect import MtgPlugin

    plugin = MtgPlugin(config, settings, explicit, context)
    config.stash[PLUGIN] = plugin
    config.pluginmanager.register(plugin, "mtg-conformance")


PLUGIN = pytest.StashKey[Any]()


def _arg_paths(config: pytest.Config) -> list[Path]:
    here = config.invocation_params.dir
    return [(here / arg.split("::")[0]).resolve() for arg in config.args]


def _within(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _explicit_case_paths(config: pytest.Config, case_dirs: tuple[Path, ...]) -> list[Path]:
    """Case files named on the command line, and case folders (or files in them)."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return []
    return [path for path in _arg_paths(config)
            if path.suffix in CASE_SUFFIXES or _within(path, case_dirs)]


def _select_cases(config: pytest.Config, settings: Settings) -> None:
    # With an --mtg-* option and no paths, collect the cases instead of the testpaths; with
    # paths that name no cases, collect the cases too.
    case_args = [str(d) for d in settings.case_dirs]
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = case_args
    elif not _explicit_case_paths(config, settings.case_dirs):
        config.args = [*config.args, *case_args]
