"""A benchmark report as people read it: an aligned table, or the Markdown page of docs/."""

from __future__ import annotations

import shlex
import sys

from mtgconf.bench.figures import Figure, spread
from mtgconf.bench.measure import Report

#: what each kind of figure is, for the Markdown page (by the figure id's first part)
MEANINGS = {
    "baseline": "a fixed pure-Python loop (attribute, dictionary and list work), in thousands "
                "of steps per second, timed at the start of each repeat; every rate's ratio "
                "is the rate over the baseline of its own repeat, which compares across "
                "machines and days better than the rate does",
    "play": "accepted engine actions per second in random legal play through the protocol: "
            "seeded starts with two-colour 40-card decks from the engine's declared cards, "
            "then `legal_actions` and `perform` of one chosen uniformly (never a concession) "
            "until the game ends or 2000 steps; nothing observed or checked",
    "selfplay": "the reference engine's own self-play loop, in process and without the "
                "protocol (`python -m reference_engine.selfplay --decks pool`)",
    "suite": "the bundled suite's case runs per second through the harness's runner "
             "(`conformance.runner.run_case`, what each `mtgconf run` item calls) without "
             "pytest's collection, reporting and start-up; the case runs the engine can run, in "
             "a seeded order, cycled until the time is spent",
    "overhead": "the suite's wall time over the time spent inside engine calls (the time the "
                "client waits on the transport; over the wire that includes the pipes and "
                "the engine process's JSON work)",
    "slowdown": "time per case run relative to the engine run as given, without validation "
                "(the project's targets: at most 2 with `--validate-protocol`, at most 1.5 "
                "over the wire)",
    "fuzz": "fuzzer steps per second: a campaign of the ci profile, every invariant checked, "
            "no example database",
    "layer": "one layer's rate over the rate of the layer below it, both of the same repeat "
             "(the targets of issue 30: `play/selfplay` at least 0.6, `fuzz/play` at least "
             "0.5)",
}


def number(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1000:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _row(figure: Figure) -> list[str]:
    values = figure.spread() or {}
    ratio = spread(figure.ratios)
    cells = [figure.id, number(values.get("median")), number(values.get("min")),
             number(values.get("max")), figure.unit, number(ratio["median"]) if ratio else "-"]
    if figure.error is not None:
        what = f"ERROR: {figure.error}"
    elif figure.not_applicable is not None:
        what = f"not measured: {figure.not_applicable}"
    else:
        what = figure.title + "".join(f" [{note}]" for note in figure.notes)
    return [*cells, what]


def _figures(report: Report) -> list[Figure]:
    return [report.baseline, *report.figures.values()]


def table(report: Report) -> str:
    """The figures as an aligned table, under the engine and the machine."""
    header = ["figure", "median", "min", "max", "unit", "ratio", "what"]
    rows = [header, *(_row(f) for f in _figures(report))]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header) - 1)]
    lines = [_heading(report), ""]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:4], widths[1:4], strict=True)]
        cells += [row[4].ljust(widths[4]), row[5].rjust(widths[5]), row[6]]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def _heading(report: Report) -> str:
    engine, plan, host = report.engine, report.plan, report.machine
    return (f"engine:  {engine['name']} {engine['version']} ({engine['spec']}); editions "
            f"{', '.join(plan.editions)}; {plan.seconds:g} s per figure x "
            f"{_repeats(plan.repeats)}\nmachine: {host['platform']}, {host['implementation']} "
            f"{host['python']}, {host['cpus']} CPUs, load average {_load(host['load_average'])}")


def _repeats(count: int) -> str:
    return f"{count} repeat{'s' if count != 1 else ''}"


def _load(load: list[float] | None) -> str:
    return " ".join(f"{x:g}" for x in load) if load else "unknown"


def _portable(engine: str) -> str:
    """An engine spec as anyone can type it: this interpreter's path as ``python``."""
    return engine.replace(shlex.quote(sys.executable), "python", 1)


def markdown(report: Report, note: str | None = None) -> str:
    """The page docs/benchmarks.md: the machine, the exact command, the table, what each
    figure is. Written by the command, never by hand."""
    host = report.machine
    cpus = host["cpus"] or 1
    load = host["load_average"]
    busy = load is not None and load[0] >= cpus / 2
    lines = [
        "# Benchmarks",
        "",
        "<!-- Generated by `mtgconf bench --markdown`; do not edit: run the command again. -->",
        "",
        "Measured by:",
        "",
        "```sh",
        report.command,
        "```",
        "",
        f"- engine: {report.engine['name']} {report.engine['version']} "
        f"(`{report.engine['spec']}`, protocol {report.engine['protocol']})",
        *([f"- over the wire: the same engine as `{_portable(report.engine['wire'])}`"]
          if report.engine.get("wire") else []),
        f"- machine: {host['platform']}, {host['implementation']} {host['python']}, "
        f"{host['cpus']} CPUs; load average (1, 5, 15 min) {_load(load)} at the start, "
        f"{_load(report.load_after)} at the end",
        f"- started {report.started}; {report.plan.seconds:g} s per figure and repeat, "
        f"{_repeats(report.plan.repeats)}",
        "",
    ]
    if note:
        lines += [note, ""]
    lines += [
        ("The machine was busy with other work while this ran (its load average was near or "
         "above half its CPUs), so the rates are lower and more spread than on an idle "
         "machine: compare ratios to the baseline rather than rates." if busy else
         "Figures from another machine differ: compare ratios to the baseline rather than "
         "rates."),
        "",
        "| figure | median | min | max | unit | ratio to baseline | what |",
        "|---|---:|---:|---:|---|---:|---|",
    ]
    for figure in _figures(report):
        cells = _row(figure)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", "## What the figures are", ""]
    kinds = dict.fromkeys(f.id.split(".")[0] for f in _figures(report))
    lines += [f"- **{kind}**: {MEANINGS[kind]}." for kind in kinds if kind in MEANINGS]
    lines += [
        "",
        "Each figure is measured once per repeat, on the same games and case runs each time "
        "(the repeats differ by the machine's noise alone); the table gives the median, the "
        "smallest and the largest, and the median of the per-repeat ratios. "
        "`mtgconf bench --json` gives every run with what it counted.",
        "",
    ]
    return "\n".join(lines)
