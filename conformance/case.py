"""A conformance case, as loaded from its YAML file (``conformance.casefile``), ready to run.

Everything that can be worked out before running is worked out once here: parsed paths, the
capabilities the case needs, the cards it uses, the handles its setup names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from conformance import paths
from conformance.needs import Payment

StepKind = Literal["do", "expect", "expect_illegal", "advance", "bind", "expect_illegal_setup"]


@dataclass(frozen=True, slots=True)
class Check:
    """One line of an ``expect`` step: a path and what it must hold."""

    path: paths.Path
    expected: Any


@dataclass(frozen=True, slots=True)
class Step:
    index: int  # 1-based
    kind: StepKind
    value: Any  # the action, the advance target, the expect mapping, or handle -> path
    line: int | None = None
    view: str | None = None  # expect: whose view (``as: A``)
    checks: tuple[Check, ...] = ()  # expect: path and value; bind: path and the handle

    def describe(self) -> str:
        if self.kind in ("do", "expect_illegal"):
            return f"step {self.index} ({self.kind} {self.value.get('action')})"
        if self.kind == "expect_illegal_setup":
            return f"step {self.index} (expect_illegal_setup)"
        if self.kind == "advance":
            target = ", ".join(f"{k} {v}" for k, v in self.value.items())
            return f"step {self.index} (advance to {target})"
        if self.kind == "bind":
            return f"step {self.index} (bind {', '.join(self.value)})"
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
    #: set when an action names its mana sources: the forms of payment that can carry it
    payment: Payment | None = None
    #: card names and stand-in tokens (``<bear>``) of the setup
    cards: frozenset[str] = field(default=frozenset())
    handles: frozenset[str] = field(default=frozenset())
    #: the card (or stand-in token) each handle names
    handle_cards: dict[str, str] = field(default_factory=dict)
    #: the wrong behaviour the case fails, for all its rules or per rule (discriminating)
    catches: str | dict[str, str] | None = None
    #: key terms of the cited rules outside the seeds, for all of them or per rule (in place
    #: of a quote: the corpus holds no text of those rules)
    terms: tuple[str, ...] | dict[str, tuple[str, ...]] | None = None

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else str(self.file)

    def quote_for(self, rule: str) -> str:
        return self.quote if isinstance(self.quote, str) else self.quote.get(rule, "")

    def terms_for(self, rule: str) -> tuple[str, ...]:
        """The key terms the case names for ``rule`` (a rule outside the seeds)."""
        if self.terms is None:
            return ()
        return self.terms if isinstance(self.terms, tuple) else self.terms.get(rule, ())

    def catches_for(self, rule: str) -> str:
        """What wrong behaviour of ``rule`` this case fails ("": it only shows the rule)."""
        if self.catches is None:
            return ""
        return self.catches if isinstance(self.catches, str) else self.catches.get(rule, "")


def setup_cards(setup: dict[str, Any]) -> tuple[frozenset[str], dict[str, str]]:
    """The card names a setup uses, and the card each of its handles names."""
    cards: set[str] = set()
    handles: dict[str, str] = {}

    def visit(entries: Any) -> None:
        if not isinstance(entries, list):
            return
        for entry in entries:
            if isinstance(entry, str):
                cards.add(entry)
            elif isinstance(entry, dict) and isinstance(entry.get("card"), str):
                cards.add(entry["card"])
                if isinstance(entry.get("handle"), str):
                    handles[entry["handle"]] = entry["card"]

    for group in ("decks", "sideboards", "players"):
        for player in (setup.get(group) or {}).values():
            if group == "players" and isinstance(player, dict):
                for zone in ("hand", "library", "graveyard", "sideboard"):
                    visit(player.get(zone))
            else:
                visit(player)
    for zone in ("battlefield", "exile", "ante", "command", "phased_out"):
        visit(setup.get(zone))
    return frozenset(cards), handles
