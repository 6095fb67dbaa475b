"""Hypothesis strategies: games an engine can play (only what it declared), and actions for it.

A game is a seeded start with two small decks drawn from the engine's declared cards of the
edition (basic lands and the rest, in the proportion of a real deck): in the order drawn with
``shuffle: false`` when the engine keeps deck order (every card then named by a handle, so a
failure replays on any engine), else shuffled with a seed. Actions are mostly drawn from the
engine's legal actions; some are deliberately illegal (``illegal_action``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from hypothesis import strategies as st

from conformance.protocol import EngineInfo
from fuzz import observations as ob

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
DECK_SIZES = (12, 30)  # smallest and largest deck: small decks end games (and examples) soon
#: an id no engine gives an object
NO_SUCH_ID = 987_654_321


@cache
def _ante_cards() -> frozenset[str]:
    from spec.cardpool import default_pool

    return frozenset(name for per_edition in default_pool().cards.values()
                     for name, card in per_edition.items()
                     if "playing for ante" in card.text)


def playable_cards(info: EngineInfo, edition: str) -> tuple[list[str], list[str]]:
    """The engine's declared cards of the edition a deck may hold: (basic lands, the rest).
    Ante cards are left out (a deck may hold them only in an ante game)."""
    declared = sorted(info.cards_for(edition) - _ante_cards())
    return [c for c in declared if c in BASICS], [c for c in declared if c not in BASICS]


def cards_for_rules(globs: Sequence[str]) -> frozenset[str]:
    """The pool's cards that serve rules matching any of ``globs`` (spec/card_rules.yaml):
    the cards a game needs to reach those rules."""
    from fnmatch import fnmatchcase

    from spec.coverage import card_rules

    return frozenset(card for card, rules in card_rules().items()
                     if any(fnmatchcase(rule, glob) for rule in rules for glob in globs))


@st.composite
def decks(draw: st.DrawFn, basics: Sequence[str], rest: Sequence[str],
          focus: Sequence[str] = ()) -> list[str]:
    """A deck: about two fifths basic lands (of one or two kinds), the rest other cards;
    with ``focus``, most of those from the focus cards (the cards of the rules fuzzed)."""
    size = draw(st.integers(*DECK_SIZES))
    lands = draw(st.lists(st.sampled_from(list(basics)), min_size=1, max_size=2, unique=True))
    if focus:
        spells = draw(st.lists(st.sampled_from(list(focus)), min_size=1, max_size=4,
                               unique=True))
        if rest:
            spells += draw(st.lists(st.sampled_from(list(rest)), max_size=2, unique=True))
    else:
        spells = draw(st.lists(st.sampled_from(list(rest)), min_size=1, max_size=6,
                               unique=True)) if rest else []
    land_count = size * 2 // 5 if spells else size
    cards = [lands[i % len(lands)] for i in range(land_count)]
    cards += [spells[i % len(spells)] for i in range(size - land_count)]
    return draw(st.permutations(cards))


@st.composite
def seeded_starts(draw: st.DrawFn, info: EngineInfo, edition: str,
                  focus: frozenset[str] = frozenset()) -> dict[str, Any]:
    basics, rest = playable_cards(info, edition)
    chosen = sorted(focus.intersection(rest))
    setup: dict[str, Any] = {
        "start": "game",
        "seed": draw(st.integers(0, 2**16)),
        "first_player": draw(st.sampled_from(ob.PLAYERS)),
        "decks": {name: draw(decks(basics, rest, chosen)) for name in ob.PLAYERS},
    }
    if "setup.deck_order" in info.capabilities:
        setup["shuffle"] = False
        setup["decks"] = {
            name: [{"card": card, "handle": f"{name.lower()}{i:02d}"}
                   for i, card in enumerate(deck, start=1)]
            for name, deck in setup["decks"].items()}
    return setup


def illegal_action(pick: int, legal: Sequence[dict[str, Any]], observation: dict[str, Any]
                   ) -> tuple[dict[str, Any], str]:
    """An action the rules forbid now, and why, chosen by ``pick``: a listed action by the
    other player, a land play of a card that is no land or not in the hand, an object that
    does not exist."""
    actor = ob.holds_priority(observation) or (observation.get("pending") or {}).get("player")
    other = "B" if actor == "A" else "A"
    kind, pick = pick % 3, pick // 3
    if kind == 0 and legal:
        action = dict(legal[pick % len(legal)])
        action["player"] = other
        return action, f"{other} acts while {actor} has priority or the pending decision"
    if kind == 1:
        library = ob.player(observation, other).get("library") or []
        hand = ob.player(observation, actor or "A").get("hand") or []
        candidates = [o for o in library if "id" in o] + [
            o for o in hand if "Land" not in (o.get("types") or ()) and "id" in o]
        if candidates:
            card = candidates[pick % len(candidates)]
            return ({"action": "play_land", "player": actor or "A", "card": card["id"]},
                    f"{card.get('card')} is not a land in {actor}'s hand")
    return ({"action": "play_land", "player": actor or "A", "card": NO_SUCH_ID},
            "no object has this id")
