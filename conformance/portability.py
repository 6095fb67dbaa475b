"""How many cases an engine can run, and what keeps it from the rest (``mtgconf cases
portability``), computed from a declaration alone: an engine's ``hello``, a profile of
``conformance/profiles.yaml``, or capabilities and cards given on the command line.

Nothing is run: a case runs when ``runner.blockers`` finds nothing missing, the same test the
harness makes before it sends anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from conformance.case import Case
from conformance.errors import InputError, Problem
from conformance.protocol import VERSION, EngineInfo
from conformance.runner import blockers

PROFILES_PATH = Path(__file__).resolve().parent / "profiles.yaml"


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    summary: str
    engine: str | None = None  # take the declaration from this engine's hello
    editions: tuple[str, ...] = ()
    capabilities: frozenset[str] = frozenset()
    cards: frozenset[str] = frozenset()

    def info(self) -> EngineInfo:
        return EngineInfo(name=self.name, version="profile", protocol=VERSION,
                          editions=self.editions, capabilities=self.capabilities,
                          cards=self.cards, declared=self.capabilities)


@cache
def profiles() -> dict[str, Profile]:
    """The profiles of ``conformance/profiles.yaml``."""
    raw = yaml.safe_load(PROFILES_PATH.read_text(encoding="utf-8"))
    found = {}
    for name, item in raw["profiles"].items():
        found[name] = Profile(
            name=name, summary=" ".join(str(item["summary"]).split()),
            engine=item.get("engine"), editions=tuple(item.get("editions", ())),
            capabilities=frozenset(item.get("capabilities", ())),
            cards=frozenset(item.get("cards", ())))
    return found


def profile(name: str) -> Profile:
    found = profiles()
    if name not in found:
        raise InputError((Problem(str(PROFILES_PATH), f"no profile {name!r} (known: "
                                  f"{', '.join(found)})"),))
    return found[name]


@dataclass
class Report:
    """Which case runs an engine can make (a case once per edition it runs under)."""

    engine: str
    runs: list[tuple[str, str]] = field(default_factory=list)  # (case id, edition) that run
    blocked: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.runs) + len(self.blocked)

    @property
    def share(self) -> float:
        return len(self.runs) / self.total if self.total else 0.0

    def by_blocker(self) -> list[tuple[str, int, int]]:
        """Each blocker with how many runs it blocks, and how many it alone blocks (the runs
        that declaring it would win), most first."""
        every: Counter[str] = Counter()
        alone: Counter[str] = Counter()
        for reasons in self.blocked.values():
            every.update(reasons)
            if len(reasons) == 1:
                alone[reasons[0]] += 1
        return sorted(((b, n, alone[b]) for b, n in every.items()),
                      key=lambda row: (-row[1], -row[2], row[0]))

    def serializable(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "runs": len(self.runs),
            "total": self.total,
            "share": round(self.share, 4),
            "blockers": [{"blocker": b, "runs": n, "alone": a} for b, n, a in self.by_blocker()],
            "blocked": [{"case": c, "edition": e, "blockers": r}
                        for (c, e), r in sorted(self.blocked.items())],
        }


def report(cases: Iterable[Case], info: EngineInfo,
           editions: Sequence[str] | None = None) -> Report:
    """What ``info``'s engine can run of ``cases``, in ``editions`` (default: the editions it
    declared; a case under an edition it lacks counts as blocked by that edition)."""
    wanted = tuple(editions) if editions else info.editions
    result = Report(info.name)
    for case in cases:
        for edition in case.editions:
            if edition not in wanted:
                continue
            found = blockers(case, edition, info)
            if found:
                result.blocked[(case.id, edition)] = found
            else:
                result.runs.append((case.id, edition))
    return result


def markdown(reports: Sequence[tuple[str, Report]], *, blockers: int = 8) -> str:
    """A Markdown table of the reports (one row per engine or profile), then for each the
    blockers that keep the most runs out (``blockers`` of them)."""
    lines = ["| profile | case runs that run | share |", "|---|---|---|"]
    for name, report in reports:
        lines.append(f"| {name} | {len(report.runs)} of {report.total} | {report.share:.0%} |")
    for name, report in reports:
        rows = report.by_blocker()
        if not rows:
            continue
        lines += ["", f"**{name}**: what blocks the rest (runs blocked; blocked by it alone)",
                  ""]
        lines += [f"* {b}: {n} ({a})" for b, n, a in rows[:blockers]]
        if len(rows) > blockers:
            lines.append(f"* and {len(rows) - blockers} more")
    return "\n".join(lines)
