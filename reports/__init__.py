"""Rule coverage reports: a static HTML site an engine's author reads, from results files alone.

The site (``reports.pages`` builds it as data, ``reports.render`` writes it with Jinja2) has a
summary per engine and edition, the rule tree of each edition with a status per engine, a page
per rule and per result that did not pass, the fuzz findings and the anomalies of the rules'
sources; beside it ``summary.md`` (for a CI step summary) and ``badge.json`` (a shields.io
endpoint badge). It needs no network and no JavaScript to be read.

The report never imports an engine, nor the harness beyond its results contract
(``conformance.resultsfile``, the one reader of results.json files, with the statuses, the
roll-up per rule and the rerun command): it reads results files (and, when given, the
coverage, mutants and fuzz files) and the rules corpus (``spec``).

>>> written = build([Path("conformance-results/results.json")],
...                 Path("conformance-results/report"))            # doctest: +SKIP
>>> written.index                                                  # doctest: +SKIP
PosixPath('conformance-results/report/index.html')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reports.inputs import BadInput
from reports.render import OutputError, Written

if TYPE_CHECKING:
    from conformance.resultsfile import Results

__all__ = ["BadInput", "OutputError", "Written", "build", "coverage_beside"]

COVERAGE_FILE = "coverage.json"


def coverage_beside(results: Sequence[Path]) -> Path | None:
    """The coverage.json ``mtgconf run`` wrote beside the first results file that has one."""
    return next((p.parent / COVERAGE_FILE for p in results
                 if (p.parent / COVERAGE_FILE).is_file()), None)


def build(results: Sequence[Path], out: Path, *, coverage: Path | None = None,
          mutants: Path | None = None, fuzz: Sequence[Path] = (),
          baseline: Path | None = None, title: str | None = None) -> Written:
    """Read the inputs and write the site into ``out`` (replacing a previous report there).

    :raises InputError: an input file is missing, not JSON, or not of its format (for a
        coverage, mutants or fuzz file, a ``BadInput``).
    :raises OutputError: ``out`` is a file, or a folder that holds something else.
    """
    from conformance.resultsfile import Results
    from reports.inputs import read_coverage, read_fuzz, read_mutants
    from reports.pages import Inputs, Site
    from reports.render import write
    from spec.corpus import Corpus

    if not results:
        raise BadInput("results", "give at least one results file")
    inputs = Inputs(
        runs=tuple(Results.from_file(p) for p in results),
        coverage=read_coverage(coverage) if coverage else None,
        mutants=read_mutants(mutants) if mutants else None,
        fuzz=tuple(read_fuzz(p) for p in fuzz),
        baseline=Results.from_file(baseline) if baseline else None,
        **({"title": title} if title else {}),
    )
    if not any(run.engines for run in inputs.runs):
        raise BadInput(results[0], "names no engine")
    if inputs.baseline is not None:
        refuse_narrower_baseline(inputs.baseline, inputs.runs)
    return write(Site(inputs, Corpus.load()), out)


def refuse_narrower_baseline(baseline: Results, runs: Sequence[Results]) -> None:
    """A baseline of a narrower selection than the results compared with it (a rerun of one
    case, say) would call every other case run new: refused, naming both selections. (A
    baseline of a wider selection is compared on what both select: ``Site.changes``.)"""
    for run in runs:
        outside = [r for r in run.records if not baseline.selects(r)]
        if outside:
            example = outside[0]
            raise BadInput(baseline.path or "baseline", f"a narrower selection "
                           f"({baseline.selection}) than {run.path} ({run.selection}): it "
                           f"does not select {len(outside)} of the {len(run.records)} case "
                           f"runs compared with it (e.g. {example.edition}::"
                           f"{example.case_id}); give as --baseline the results of a run of "
                           f"the same selection")
