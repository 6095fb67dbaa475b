"""What a pytest user expects of ``mtgconf run`` besides running: ``--list`` (what would run
and what would skip, and why, without running), ``-x``, ``--lf``/``--ff`` (the unexpected
results of the last run in ``--out``, from its results.jsonl), and a close match for a
misspelt ``--case``."""

from __future__ import annotations

import argparse
import fnmatch
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from mtgconf import UsageError

if TYPE_CHECKING:
    from conformance.case import Case
    from conformance.protocol import EngineInfo
    from conformance.settings import Settings


def add_options(run: argparse.ArgumentParser) -> None:
    run.add_argument("--list", action="store_true", dest="list_only",
                     help="List the selected case runs, each with run or skip (and what the "
                     "engine lacks), without running any (the engine is started for its "
                     "declaration)")
    run.add_argument("-x", "--exitfirst", action="store_true",
                     help="Stop at the first unexpected result")
    last = run.add_mutually_exclusive_group()
    last.add_argument("--lf", "--last-failed", action="store_true", dest="last_failed",
                      help="Run only the cases with an unexpected result in the last run in "
                      "--out (its results.jsonl)")
    last.add_argument("--ff", "--failed-first", action="store_true", dest="failed_first",
                      help="Run the case runs with an unexpected result in the last run in "
                      "--out first, then the rest")


def last_unexpected(out: Path) -> list[str]:
    """The case runs (``edition::id``) with an unexpected result in the last run that wrote
    to ``out``, read from its results.jsonl (what a run streams as its cases finish, so an
    interrupted run's too).

    :raises UsageError: no readable results.jsonl there.
    """
    from conformance.resultsfile import UNEXPECTED

    stream = out / "results.jsonl"
    try:
        lines = stream.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"--lf/--ff: no results of a last run in {out} ({stream}: "
                         f"{exc.strerror or exc}); run once without them first") from None
    found: list[str] = []
    for number, line in enumerate(lines, 1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                break  # a run killed while writing its last line
            raise UsageError(f"{stream}:{number}: not a JSON line") from None
        if isinstance(data, dict) and "case_id" in data and data.get("status") in UNEXPECTED:
            found.append(f"{data['edition']}::{data['case_id']}")
    return list(dict.fromkeys(found))


def narrowed(run: Settings, args: argparse.Namespace, out: Path) -> Settings:
    """The settings with ``--lf`` (only the last run's unexpected cases) or ``--ff`` (them
    first) applied; with ``--list``, writing nothing (not even a folder for the results)."""
    from dataclasses import replace

    if args.list_only:
        run = replace(run, results=None, junit=None)
    if not (args.last_failed or args.failed_first):
        return run
    failed = last_unexpected(out)
    if args.failed_first:
        print(f"failed first: {len(failed)} case runs of the last run in {out}")
        return replace(run, first=tuple(failed))
    if not failed:
        raise UsageError(f"--lf: the last run in {out} had no unexpected result; nothing to "
                         "run again")
    if run.case_ids:  # --case narrows the last failures further, as pytest's -k with --lf
        failed = [key for key in failed if any(
            fnmatch.fnmatchcase(key.partition("::")[2], glob) for glob in run.case_ids)]
        if not failed:
            raise UsageError(f"--lf: no unexpected result of the last run in {out} is a case "
                             f"--case selects ({', '.join(run.case_ids)})")
    ids = tuple(dict.fromkeys(key.partition("::")[2] for key in failed))
    print(f"last failed: {len(failed)} case runs of the last run in {out}")
    return replace(run, case_ids=ids, only=tuple(failed))


def listing(cases: Iterable[Case], run: Settings, info: EngineInfo,
            shown: Callable[[str], str] = str) -> list[str]:
    """A line per selected case run: ``run`` or ``skip`` with why, and where the case is
    (its file as ``shown`` shows a path)."""
    from conformance.runner import skip_reason

    lines = []
    for case in cases:
        for edition in (e for e in run.editions if e in case.editions and run.runs(case.id, e)):
            reason = skip_reason(case, edition, info)
            where = f"{shown(str(case.file))}:{case.line}"
            lines.append(f"run   {edition}::{case.id}  ({where})" if reason is None else
                         f"skip  {edition}::{case.id}: {reason}  ({where})")
    return lines


def no_case_hint(globs: Iterable[str], ids: Iterable[str]) -> str:
    """For each ``--case`` that matches no case, the closest case id: `` (--case turn.x: did
    you mean turn.y?)``, or nothing."""
    from conformance.expectations import suggestion

    known = sorted(ids)
    hints = [f"--case {glob}:{suggestion(glob, known).removesuffix(')').replace(' (', ' ')}"
             for glob in globs if not any(fnmatch.fnmatchcase(i, glob) for i in known)
             and suggestion(glob, known)]
    return f" ({'; '.join(hints)})" if hints else ""


def exit_first(args: argparse.Namespace) -> list[str]:
    return ["-x"] if args.exitfirst else []
