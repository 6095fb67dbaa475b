"""The conformance harness: engine protocol and adapters, cases, pytest plugin and CLI."""
