"""phase-python (``import phase``) behind the protocol: ``adapter.PhaseEngine`` (``--engine
phase``; actions in: ``actions``, observations out: ``observations``, both on ``game``), its card
data generated from our pool (``carddata``), game set-up through the engine's state export and
import (``state``), raw reproductions of its deviations (``deviations``) and its known failures
(``expectations.yaml``). docs/engines/phase.md has the results."""
