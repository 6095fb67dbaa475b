"""Adapters for third-party engines, selectable by name (``--engine phase``), each in a package
of its own: the engine's protocol adapter, what it needs (card data), and its expectations
file (its known deviations, each with the rule it breaks). The engines themselves are pip
extras of this project (``pip install -e '.[phase]'``); importing this module imports none.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class NamedEngine:
    """A third-party engine the project ships an adapter for."""

    name: str
    target: str  # MODULE:CLASS of the adapter
    requires: str  # the engine's top-level import name
    extra: str  # the pip extra that installs it
    package: str  # the engine's distribution on PyPI

    @property
    def install(self) -> str:
        return f"pip install -e '.[{self.extra}]'"

    def installed(self) -> bool:
        return importlib.util.find_spec(self.requires) is not None

    @property
    def expectations(self) -> Path:
        """The engine's known deviations (an expectations file for ``mtgconf run``)."""
        return HERE / self.target.split(":")[0].split(".")[-2] / "expectations.yaml"


NAMED: dict[str, NamedEngine] = {
    engine.name: engine for engine in (
        NamedEngine("phase", "conformance.engines.phase.adapter:PhaseEngine", "phase",
                    "phase", "phase-python"),
        NamedEngine("python-mtg", "conformance.engines.python_mtg.adapter:PythonMtgEngine",
                    "mtg", "python-mtg", "python-mtg"),
    )
}
