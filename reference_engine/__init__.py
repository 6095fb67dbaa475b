"""The reference rules engine: a correct, fast, deterministic two-player game for both
editions of the corpus (``cr2004`` and ``modern``)."""

__version__ = "0.1.0"
