"""The reference engine with one mutant applied, for the existing CLI:

    MTG_MUTANT=two-lands-per-turn mtgconf run --engine py:tests.mutation.engines:Mutant

``MTG_MUTANT=none`` runs the engine unmutated through the same path (the runner's control).
The mutant is applied when the first engine is created and stays for the life of the
process: the harness creates a new engine after a crash, and one process runs one mutant.
"""

from __future__ import annotations

import os
from typing import Any

from reference_engine.engine import PROTOCOL_VERSION, ReferenceEngine
from tests.mutation.mutants import apply

ENV = "MTG_MUTANT"
UNMUTATED = "none"

_active: list[str] = []  # the mutant applied in this process, if any


def activate(mutant_id: str) -> None:
    """Apply ``mutant_id`` to this process, once; another mutant after it is an error."""
    if _active:
        if _active[0] != mutant_id:
            raise RuntimeError(f"mutant {_active[0]!r} is already applied in this process; "
                               f"run {mutant_id!r} in another")
        return
    if mutant_id != UNMUTATED:
        apply(mutant_id)
    _active.append(mutant_id)


class Mutant(ReferenceEngine):
    """The reference engine broken by the mutant named in ``$MTG_MUTANT``."""

    def __init__(self) -> None:
        mutant_id = os.environ.get(ENV, "").strip()
        if not mutant_id:
            raise RuntimeError(f"set {ENV} to a mutant id (or {UNMUTATED!r})")
        activate(mutant_id)
        self.mutant_id = mutant_id
        super().__init__()

    def hello(self, protocol: int = PROTOCOL_VERSION) -> dict[str, Any]:
        info = super().hello(protocol)
        info["name"] = f"{info['name']}+mutant:{self.mutant_id}"
        return info
