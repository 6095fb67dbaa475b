"""The adapter for python-mtg (``pip install python-mtg``, import ``mtg``), a python-chess-style
API over a Datalog rules engine: ``--engine python-mtg``.

``adapter.PythonMtgEngine`` speaks the protocol (docs/protocol.md) in-process (actions in:
``actions``, observations out: ``observations``, on ``game``); ``cards`` holds
the cards it declares, each checked against the engine's own card data when the adapter starts;
``expectations.yaml`` lists the engine's known deviations. docs/engines/python-mtg.md has the
results and every deviation with its rule and a reproduction.
"""
