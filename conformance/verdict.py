"""What a run's results mean for a CI that gates on them: one exit status and the reasons.

A run can fail an engine (unexpected results), but it can also fail to test it: no case ran
(every one skipped), too few ran for the ``--min-run`` threshold, or the engine declared a
capability or edition the harness does not know (a typo that would quietly skip its cases).
Neither is a success. A bug of the harness is its own status, never the engine's fault, and
an interrupted run says so whatever it holds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from conformance.exitcodes import ExitCode
from conformance.resultsfile import Results
from conformance.settings import MinRun


@dataclass(frozen=True)
class Verdict:
    code: ExitCode
    reasons: tuple[str, ...] = ()


def judge(results: Results, min_run: MinRun | None = None) -> Verdict:
    """The exit status of a run and why: interrupted, then harness errors, then unexpected
    results, then too little tested."""
    reasons: list[str] = []
    untested = _untested(results, min_run)
    internal = [r for r in results.records if r.internal]
    if results.interrupted:
        reasons.append(f"the run was interrupted ({results.interrupted_by or 'SIGINT'}): "
                       f"{len(results.records)} of {results.selected} case runs finished")
        code = ExitCode.TERMINATED if results.interrupted_by == "SIGTERM" \
            else ExitCode.INTERRUPTED
    elif internal:
        code = ExitCode.HARNESS
    elif results.unexpected:
        code = ExitCode.UNEXPECTED
    elif untested:
        code = ExitCode.UNTESTED
    else:
        code = ExitCode.OK
    if internal:
        reasons.append(f"{len(internal)} case run{'s' * (len(internal) != 1)} hit an internal "
                       f"error of mtg-conformance (a bug of the harness, not of the engine; "
                       f"please report it with the traceback in results.json)")
    reasons.extend(untested)
    return Verdict(code, tuple(reasons))


def _untested(results: Results, min_run: MinRun | None) -> list[str]:
    found = []
    for spec, info in results.engines.items():
        if info is not None and info.unknown():
            found.append(f"{spec} declared what the harness does not know: "
                         f"{'; '.join(info.unknown())}")
    ran = results.ran
    # --min-run measures the engine against what it claims: the case runs of an edition it
    # does not declare (--edition all on a one-edition engine) are not counted.
    other = sum(not _declares(results, r.engine, r.edition) for r in results.records)
    selected = max((results.selected or 0) - other, 0)
    among = " in the editions the engine declares" if other else ""
    if results.records and ran == 0:
        found.append(f"no case ran: all {len(results.records)} case runs were skipped. "
                     + declared_and_needed(results))
    elif min_run is not None and ran < min_run.required(selected):
        found.append(f"too few cases ran: {ran} of {selected} case runs{among} "
                     f"({_percent(ran, selected)}), --min-run asks for {min_run} "
                     f"({min_run.required(selected)}). " + declared_and_needed(results))
    return found


def _declares(results: Results, engine: str, edition: str) -> bool:
    info = results.engines.get(engine)
    return info is None or edition in info.editions


def declared_and_needed(results: Results) -> str:
    """What the engines declared against what the skipped cases needed, most needed first."""
    declared = []
    for spec, info in results.engines.items():
        if info is None:
            continue
        declared.append(f"{spec} declared editions {', '.join(info.editions) or 'none'}; "
                        f"capabilities {', '.join(sorted(info.declared)) or 'none'}; "
                        f"{len(info.cards)} cards")
    needed = blocker_counts(results)
    top = ", ".join(f"{blocker} ({n})" for blocker, n in needed.most_common(6))
    more = f" and {len(needed) - 6} more" if len(needed) > 6 else ""
    return f"{'. '.join(declared)}. The skipped cases need: {top or 'nothing known'}{more}."


def blocker_counts(results: Results) -> Counter[str]:
    """How many skipped case runs each missing thing blocked."""
    found: Counter[str] = Counter()
    for record in results.records:
        if record.status == "skip":
            found.update(record.detail.get("blockers") or [record.message])
    return found


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"
