"""Fake engines for the harness's self-tests, in the tiers of docs/protocol.md's adapters:
in-process miniatures with one misbehaviour each (``miniatures``), a scriptable process fake
that follows instructions written into a case (``scriptable``), and one-step breakers that
fail the handshake in one way each (``breaker``). All are built on ``toy.ToyEngine``."""
