"""Named engines: one registry of the engines ``--engine NAME`` selects.

A row names an engine by what the harness needs to run it in this process (``target``,
MODULE:CLASS, imported only when a game starts), what installs it, its mutant set (the module
that registers its mutants, for ``mtgconf mutants``: :mod:`conformance.mutation`) and its
expectations file (its known deviations, each with the rule it breaks), each by name. The rows
shipped here: ``reference`` (the bundled reference engine: the harness reaches it by name,
like any other, and imports no engine), ``phase`` and ``python-mtg`` (third-party engines,
pip extras of this project, each with its adapter in a package of its own here).

A distribution adds rows through the entry-point group ``mtgconf.engines``, as wptrunner's
products and Bowtie's connectables are found: the entry point's name is the engine's name and
it loads a :class:`NamedEngine` or a mapping of its fields (``target`` at least)::

    [project.entry-points."mtgconf.engines"]
    my-engine = "my_package.conformance:ENGINE"   # {"target": "my_package.engine:Engine"}

A row from a distribution overrides a shipped row of the same name. Importing this module
imports no engine; the entry points are read the first time a name is looked up.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

GROUP = "mtgconf.engines"
#: the reference engine, as a target (MODULE:CLASS)
REFERENCE_TARGET = "reference_engine.engine:ReferenceEngine"


@dataclass(frozen=True, slots=True)
class NamedEngine:
    """An engine selectable by name."""

    name: str
    target: str  # MODULE:CLASS of the engine (or of its adapter), run in this process
    requires: str | None = None  # the engine's top-level import name (None: always there)
    extra: str | None = None  # the pip extra of this project that installs it
    package: str | None = None  # the engine's distribution on PyPI
    mutants: str | None = None  # the module of its mutant set, loaded by name
    expectations: str | None = None  # its known deviations: PACKAGE:FILE, a resource
    source: str = "mtg-conformance"  # where the row comes from (a distribution's name)

    @property
    def install(self) -> str:
        """The command that installs the engine."""
        if self.extra is not None:
            return f"pip install -e '.[{self.extra}]'"
        return f"pip install {self.package}" if self.package else ""

    def installed(self) -> bool:
        return self.requires is None or importlib.util.find_spec(self.requires) is not None

    def expectations_file(self) -> Path | None:
        """Where the engine's expectations file is (imports its package, not the engine)."""
        if self.expectations is None:
            return None
        package, _, name = self.expectations.partition(":")
        return Path(str(importlib.resources.files(package).joinpath(name)))


BUILT_IN: dict[str, NamedEngine] = {
    engine.name: engine for engine in (
        NamedEngine("reference", REFERENCE_TARGET, mutants="reference_engine.mutants"),
        NamedEngine("phase", "conformance.engines.phase.adapter:PhaseEngine", "phase",
                    "phase", "phase-python",
                    expectations="conformance.engines.phase:expectations.yaml"),
        NamedEngine("python-mtg", "conformance.engines.python_mtg.adapter:PythonMtgEngine",
                    "mtg", "python-mtg", "python-mtg",
                    expectations="conformance.engines.python_mtg:expectations.yaml"),
    )
}

_FIELDS = frozenset(f.name for f in fields(NamedEngine)) - {"name", "source"}


@dataclass(frozen=True, slots=True)
class Registry:
    """Every named engine: the shipped rows, then the distributions' (which override)."""

    rows: Mapping[str, NamedEngine]
    #: names whose entry point could not be loaded, with why (an error when asked for)
    broken: Mapping[str, str]

    def get(self, name: str) -> NamedEngine | None:
        """The row named ``name``; ``None`` if there is none. Raises ``ValueError`` when a
        distribution's entry point of that name is broken."""
        if name in self.broken:
            raise ValueError(self.broken[name])
        return self.rows.get(name)


@cache
def registry() -> Registry:
    """The registry of this process (the entry points read once)."""
    rows = dict(BUILT_IN)
    broken: dict[str, str] = {}
    for entry in importlib.metadata.entry_points(group=GROUP):
        source = entry.dist.name if entry.dist is not None else entry.value
        where = f"entry point {entry.name} = {entry.value!r} of group {GROUP} ({source})"
        try:
            rows[entry.name] = _row(entry.name, entry.load(), source)
            broken.pop(entry.name, None)
        except Exception as exc:  # a third party's bug: reported when its name is used
            rows.pop(entry.name, None)
            broken[entry.name] = f"{where}: cannot be loaded: {type(exc).__name__}: {exc}"
    return Registry(rows, broken)


def _row(name: str, value: Any, source: str) -> NamedEngine:
    if isinstance(value, NamedEngine):
        return replace(value, name=name, source=source)
    if not isinstance(value, Mapping):
        raise TypeError(f"loads a {type(value).__name__}, not a NamedEngine or a mapping")
    unknown = sorted(set(value) - _FIELDS)
    if unknown:
        raise TypeError(f"unknown field(s) {', '.join(map(str, unknown))}; known: "
                        f"{', '.join(sorted(_FIELDS))}")
    if not isinstance(value.get("target"), str) or ":" not in value["target"]:
        raise TypeError("needs a target, MODULE:CLASS")
    return NamedEngine(name=name, source=source, **value)


def named(name: str) -> NamedEngine | None:
    """The engine named ``name`` (``None``: no such name). Raises ``ValueError`` when its
    entry point cannot be loaded."""
    return registry().get(name)
