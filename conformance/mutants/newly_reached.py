"""Mutants of the rules that waited for a card, reached by the cards added for them."""

from __future__ import annotations
