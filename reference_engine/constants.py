"""Names the engine and the protocol share: players, steps, phases, zones, colours.

Steps are plain ints in the hot path; their protocol names are looked up in tables built once.
"""

from __future__ import annotations

PLAYERS = ("A", "B")


def other(player: str) -> str:
    return "B" if player == "A" else "A"


# Steps, in turn order. A main phase is a phase with a single step of the same name.
UNTAP, UPKEEP, DRAW, MAIN1, BEGIN_COMBAT, DECLARE_ATTACKERS, DECLARE_BLOCKERS, \
    COMBAT_DAMAGE, END_COMBAT, MAIN2, END, CLEANUP = range(12)

STEP_NAMES = (
    "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
    "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end", "cleanup",
)
STEP_BY_NAME = {name: step for step, name in enumerate(STEP_NAMES)}

BEGINNING, PRECOMBAT_MAIN, COMBAT, POSTCOMBAT_MAIN, ENDING = range(5)
PHASE_NAMES = ("beginning", "precombat_main", "combat", "postcombat_main", "ending")
PHASE_OF_STEP = (
    BEGINNING, BEGINNING, BEGINNING, PRECOMBAT_MAIN, COMBAT, COMBAT, COMBAT, COMBAT, COMBAT,
    POSTCOMBAT_MAIN, ENDING, ENDING,
)
MAIN_STEPS = frozenset((MAIN1, MAIN2))
# Players receive priority in every step but these (cleanup only when something happens).
NO_PRIORITY_STEPS = frozenset((UNTAP, CLEANUP))

# Zones. Editions name some of them differently and have different sets (see editions.py).
# OUTSIDE is not a zone: a sideboard card is outside the game (400.11a).
LIBRARY, HAND, GRAVEYARD, BATTLEFIELD, STACK, EXILE, ANTE, COMMAND, PHASED_OUT, OUTSIDE = \
    range(10)
ZONE_NAMES = (
    "library", "hand", "graveyard", "battlefield", "stack", "exile", "ante", "command",
    "phased_out", "outside",
)
ZONE_BY_NAME = {name: zone for zone, name in enumerate(ZONE_NAMES)}
PLAYER_ZONES = frozenset((LIBRARY, HAND, GRAVEYARD))

COLORS = ("W", "U", "B", "R", "G")
MANA_TYPES = ("W", "U", "B", "R", "G", "C")

#: the decision of the player who holds priority (any other is a choice such as a mulligan)
PRIORITY = "priority"
#: the card types of permanents: a card of none of them cannot be on the battlefield
PERMANENT_TYPES = frozenset(("Artifact", "Creature", "Enchantment", "Land", "Planeswalker"))
