"""The conformance harness: the engine protocol, transports and sessions, the named engines'
registry and adapters, cases and their runner, outcomes, the results contract, the pytest
plugin, and the scoring of cases against a mutant set. It imports only ``spec``: the command
line that drives it is ``mtgconf`` (docs/architecture.md)."""

__version__ = "0.1.0"
