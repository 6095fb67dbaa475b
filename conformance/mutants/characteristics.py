"""Mutants of the parts of a card and its characteristics: name, mana cost and colour, type
line, text box, power and toughness (cr2004 200-208)."""

from __future__ import annotations
