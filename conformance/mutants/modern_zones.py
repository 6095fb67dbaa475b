"""Mutants of the modern zones beyond the library: hand, battlefield, graveyard, stack, exile,
ante and command (modern 402-408)."""

from __future__ import annotations
