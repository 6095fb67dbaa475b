"""A conformance case, as loaded from its YAML file (``conformance.casefile``), ready to run.

Everything that can be worked out before running is worked out once here: parsed paths, the
capabilities the case needs, the cards it uses, the handles its setup names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from conformance import paths

StepKind = Literal["do", "expect", "expect_illegal", "advance"]


@dataclass(frozen=True, slots=True)
class Check:
    """One line of an ``expect`` step: a path and what it must hold."""

    path: paths.Path
    expected: Any


@dataclass(frozen=True, slots=True)
class Step:
    index: int  # 1-based
    kind: StepKind
    value: Any  # the action, the advance target, or the expect mapping
    line: int | None = None
    view: str | None = None  # expect: whose view (``as: A``)
    checks: tuple[Check, ...] = ()

    def describe(self) -> str:
        if self.kind in ("do", "expect_illegal"):
            return f"step {self.index} ({self.kind} {self.value.get('action')})"
        if self.kind == "advance":
            target = ", ".join(f"{k} {v}" for k, v in self.value.items())
            return f"step {self.index} (advance to {target})"
        view = f" as {self.view}" if self.view else ""
        return f"step {self.index} (expect{view})"


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    rules: tuple[str, ...]
    editions: tuple[str, ...]
    quote: str | dict[str, str]
    summary: str
    requires: frozenset[str]
    setup: dict[str, Any]
    steps: tuple[Step, ...]
    file: Path
    line: int | None = None
    base_id: str = ""
    params: dict[str, Any] | None = None
    needs: frozenset[str] = field(default=frozenset())
    cards: frozenset[str] = field(default=frozenset())
    handles: frozenset[str] = field(default=frozenset())

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else str(self.file)

    def quote_for(self, rule: str) -> str:
        return self.quote if isinstance(self.quote, str) else self.quote.get(rule, "")


def setup_cards(setup: dict[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The card names a setup uses, and the handles it names."""
    cards: set[str] = set()
    handles: set[str] = set()

    def visit(entries: Any) -> None:
        for entry in entries or ():
            if isinstance(entry, str):
                cards.add(entry)
            elif isinstance(entry, dict) and isinstance(entry.get("card"), str):
                cards.add(entry["card"])
                if isinstance(entry.get("handle"), str):
                    handles.add(entry["handle"])

    for group in ("decks", "sideboards", "players"):
        for player in (setup.get(group) or {}).values():
            if group == "players" and isinstance(player, dict):
                for zone in ("hand", "library", "graveyard", "sideboard"):
                    visit(player.get(zone))
            else:
                visit(player)
    for zone in ("battlefield", "exile"):
        visit(setup.get(zone))
    return frozenset(cards), frozenset(handles)


def implied_needs(setup: dict[str, Any], steps: tuple[Step, ...]) -> frozenset[str]:
    """Capabilities a case needs by its very shape, whether or not it lists them."""
    needs = {"setup.start" if "start" in setup else "setup.state"}
    if setup.get("ante"):
        needs.add("setup.ante")
    for step in steps:
        if step.view:
            needs.add("observe.view")
        if any(check.path.root == "stack" for check in step.checks):
            needs.add("observe.stack")
    return frozenset(needs)
