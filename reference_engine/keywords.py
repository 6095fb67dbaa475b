"""The keyword abilities the engine knows by name, and what a permanent's keywords say about
targeting, enchanting, blocking and damage: protection, shroud and hexproof (its guards).

A keyword is a string in ``Chars.keywords``. Protection from a colour is one keyword per
colour, ``"protection from W"`` (:func:`protection_from`): what it guards against is asked of
each source by its colours (modern 702.16b, 2004 502.7a; the pool's protection is from colours
only). The 2004 cards whose Oracle text spells an ability out where a modern card has its
keyword (Serra Angel's "attacking doesn't cause Serra Angel to tap", Giant Spider's "can block
as though it had flying", Troll Ascetic's "can't be the target of spells or abilities your
opponents control", Darksteel Myr's "is indestructible") carry that keyword here: the engine
plays the ability, whatever the text calls it; the cards' data in spec/cards.yaml keep each
edition's wording.
"""

from __future__ import annotations

from typing import NamedTuple

#: the prefix of a protection keyword; a colour symbol follows ("protection from B")
PROTECTION = "protection from "
_COLORS = ("W", "U", "B", "R", "G")

#: every keyword a card's definition may name (cardimpl.card_problems checks them)
KEYWORDS = frozenset((
    "deathtouch", "defender", "double strike", "first strike", "flash", "flying", "haste",
    "hexproof", "indestructible", "infect", "lifelink", "menace", "reach", "shroud",
    "trample", "vigilance", "plainswalk", "islandwalk", "swampwalk", "mountainwalk",
    "forestwalk", *(PROTECTION + color for color in _COLORS),
))


def protection_from(color: str) -> str:
    """The keyword of protection from ``color`` (a colour symbol)."""
    return PROTECTION + color


class Guards(NamedTuple):
    """What a permanent's keywords keep away: the colours it has protection from, shroud (no
    spell or ability targets it) and hexproof (no spell or ability of an opponent does)."""

    colors: frozenset[str]
    shroud: bool
    hexproof: bool


NO_GUARDS = Guards(frozenset(), False, False)
#: by set of keywords: a permanent's keyword set is shared while its characteristics are
#: not recomputed, and equal sets find the same entry
_GUARDS: dict[frozenset[str], Guards] = {}


def guards(keywords: frozenset[str]) -> Guards:
    """The guards of a permanent with these keywords (NO_GUARDS when it has none)."""
    found = _GUARDS.get(keywords)
    if found is None:
        colors = frozenset(k[len(PROTECTION):] for k in keywords if k.startswith(PROTECTION))
        shroud = "shroud" in keywords
        hexproof = "hexproof" in keywords
        found = Guards(colors, shroud, hexproof) if colors or shroud or hexproof else NO_GUARDS
        if len(_GUARDS) > 4096:
            _GUARDS.clear()  # sets made by effects long gone: keep the memo small
        _GUARDS[keywords] = found
    return found


def protected_from(keywords: frozenset[str], colors: tuple[str, ...]) -> bool:
    """Whether a permanent with ``keywords`` has protection from a source of ``colors``."""
    if not keywords or not colors:
        return False
    protected = guards(keywords).colors
    return bool(protected) and not protected.isdisjoint(colors)
