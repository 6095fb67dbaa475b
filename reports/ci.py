"""What a CI job shows: a Markdown summary (for ``$GITHUB_STEP_SUMMARY``), a badge (the JSON a
shields.io endpoint badge reads) and the short list of what changed against a baseline.

Markdown is not escaped the way HTML is: an engine's name or a case id could carry markup
that a step summary would render (it allows some HTML), so every text an engine supplies goes
through ``md`` first.
"""

from __future__ import annotations

import re
from typing import Any

from conformance.resultsfile import STATUSES
from reports import model
from reports.pages import Site

CHANGES_SHOWN = 20
GROUPS_SHOWN = 12
CASES_SHOWN = 6
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|<>&~])")


def md(text: str) -> str:
    """Text safe inside Markdown (and the HTML GitHub allows in it): one line, specials
    escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def code(text: str) -> str:
    """Text for inside a Markdown code span (which shows backslashes as they are)."""
    return " ".join(str(text).replace("`", "'").split())


def markdown(site: Site, report_path: str | None = None) -> str:
    lines = [f"## {md(site.inputs.title)}", ""]
    statuses = [s for s in STATUSES if any(r.status == s for r in site.records)]
    lines.append("| engine | edition | " + " | ".join(statuses)
                 + " | rules passed | failed | untested |")
    lines.append("|---|---|" + "---:|" * len(statuses) + "---:|---:|---:|")
    for engine in site.engines:
        for edition in engine.editions:
            head = site.headline(engine, [edition])
            cells = " | ".join(str(head.counts.get(s, 0)) for s in statuses)
            lines.append(f"| {md(engine.label)} | {edition} | {cells} | {head.rules_passed} "
                         f"| {head.rules_failed} | {head.rules_untested} |")
    lines.append("")
    for engine in site.engines:
        head = site.headline(engine)
        state = f"{head.unexpected} unexpected" if head.unexpected else "all as expected"
        beyond = site.headline(engine, outside=True)
        lines.append(f"- **{md(engine.label)}**: of {head.rules_due} testable rules, "
                     f"{head.figures}; {head.total} results, {state}. Beyond the seeds "
                     f"(counted apart): {beyond.rules_passed} of {beyond.rules_due} rules "
                     f"passed, {beyond.rules_failed} failed.")
    groups = symptom_lines(site)
    if groups:
        lines += ["", "### Unexpected results by symptom (the largest group first)", "",
                  *groups]
    changed = change_lines(site)
    if changed is not None:
        lines += ["", "### What changed against the baseline", "", *changed]
    if report_path:
        lines += ["", f"Report: `{code(report_path)}`"]
    return "\n".join(lines) + "\n"


def symptom_lines(site: Site, shown: int = GROUPS_SHOWN) -> list[str]:
    """The unexpected results grouped by symptom, in Markdown: each group's size, symptom,
    the rules it cites and its cases."""
    lines = []
    groups = site.symptom_groups()
    for found in groups[:shown]:
        cases = ", ".join(md(f"{r.edition}::{r.case_id}") for r in found.records[:CASES_SHOWN])
        more = f" and {len(found) - CASES_SHOWN} more" if len(found) > CASES_SHOWN else ""
        lines.append(f"- **{len(found)}** × {md(found.symptom.text)} (rules "
                     f"{md(', '.join(found.rules))}): {cases}{more}")
    if len(groups) > shown:
        lines.append(f"- and {len(groups) - shown} more groups (see the report)")
    return lines


def change_lines(site: Site, shown: int = CHANGES_SHOWN) -> list[str] | None:
    """The short "what changed" list, in Markdown (None without a baseline)."""
    changes = site.changes()
    if changes is None:
        return None
    before = site.baseline_headlines()
    lines = []
    for engine in site.engines:
        if engine.spec in before:
            old, new = before[engine.spec], site.headline(engine)
            lines.append(f"- {md(engine.label)}: rules passed {old.rules_passed} → "
                         f"{new.rules_passed} of {new.rules_due}")
    if not changes:
        return [*lines, "- no case run changed"]
    several = len(site.engines) > 1
    for change in changes[:shown]:
        who = f"{md(change.engine)}: " if several else ""
        lines.append(f"- {model.CHANGE_TITLES[change.kind]}: {who}{md(change.text)}")
    if len(changes) > shown:
        lines.append(f"- and {len(changes) - shown} more (see the report)")
    return lines


def badge(site: Site, engine: Any) -> dict[str, Any]:
    """A shields.io endpoint badge: the testable rules the engine passed, failed and left
    untested (its colour: the share passed)."""
    head = site.headline(engine)
    message = f"{head.figures} of {head.rules_due} rules"
    if head.unexpected:
        message += f", {head.unexpected} unexpected"
        color = "red"
    elif head.percent >= 90:
        color = "brightgreen"
    elif head.percent >= 75:
        color = "green"
    elif head.percent >= 50:
        color = "yellow"
    else:
        color = "orange"
    return {"schemaVersion": 1, "label": "MTG rules", "message": message, "color": color}
