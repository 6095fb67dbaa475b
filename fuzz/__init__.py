"""The fuzzer: Hypothesis plays games against an engine through the protocol, mostly legal
actions and some deliberately illegal ones, and checks invariants tagged with the rules they
check after every step; differentially, it compares the engine with the reference engine step
by step. A failure shrinks to a small game and is written as a case file that replays.

``mtgconf fuzz`` runs it; ``fuzz.machine.fuzz_machine`` gives a Hypothesis state machine that
pytest (and HypoFuzz) can run like any other.
"""
