"""The conformance harness: engine protocol and adapters, cases, pytest plugin and CLI."""

__version__ = "0.1.0"
