"""Hypothesis strategies: games an engine can play (only what it declared), and actions for it.

A game (``starts``) is most often a seeded start with two small decks drawn from the engine's
declared cards of the edition (basic lands and the rest, in the proportion of a real deck): in
the order drawn with ``shuffle: false`` when the engine keeps deck order (every card then named
by a handle, so a failure replays on any engine), else shuffled with a seed; with a plan of
mulligans for each player (engines that take mulligans). Now and then, as the engine's
capabilities allow, it is instead:

- a seeded start that names a format (60 cards constructed, 40 limited), often with a
  deliberate flaw the deck rules forbid (``Flaw``: a card too few, a fifth copy, an ante card
  outside an ante game), which the engine must refuse;
- a game played for ante;
- a given state: some turn's main phase (or upkeep, or end step) with lands and permanents on
  the battlefield, cards in hand, a library, a graveyard, which reaches the cards' interactions
  without the turns it takes to draw and pay for them.

Actions are mostly drawn from the engine's legal actions; some are deliberately illegal
(``illegal_action``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from hypothesis import strategies as st

from conformance.protocol import EngineInfo
from fuzz import observations as ob

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
#: a deck's smallest size per format (cr2004 100.2 and 100.3) and the copies constructed allows
FORMAT_MINIMUM = {"constructed": 60, "limited": 40}
MAX_COPIES = 4
#: mulligans planned for a player: mostly none; seven empties a 2004 hand (cr2004 101.4)
MULLIGAN_PLANS = (0,) * 20 + (1, 2, 7)
#: the steps a given state starts in (each one where players get priority)
GIVEN_STEPS = ("precombat_main", "precombat_main", "upkeep", "postcombat_main", "end")
PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land"})


@dataclass(frozen=True)
class Flaw:
    """What makes a drawn setup illegal on purpose: the engine must refuse it as
    illegal_setup."""

    rules: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Start:
    """A game to play: the setup sent to ``new_game``; how many times each player
    mulligans before keeping (decided as steps of the game); the flaw, if the setup is
    deliberately illegal."""

    setup: dict[str, Any]
    mulligans: Mapping[str, int] = field(default_factory=dict)
    flaw: Flaw | None = None

    def __repr__(self) -> str:  # what Hypothesis prints for a failing example
        extra = "".join(f", {k}={v!r}" for k, v in (("mulligans", dict(self.mulligans)),
                                                    ("flaw", self.flaw)) if v)
        return f"Start({self.setup!r}{extra})"
DECK_SIZES = (12, 30)  # smallest and largest deck: small decks end games (and examples) soon
#: an id no engine gives an object
NO_SUCH_ID = 987_654_321


@cache
def _card(edition: str, name: str) -> Any:
    from spec.cardpool import default_pool

    return default_pool().edition(edition).get(name)


def _basic(edition: str, name: str) -> bool:
    data = _card(edition, name)
    return data is not None and "Basic" in data.supertypes


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

    from spec.rule_servers import card_rules

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
    return _in_order(setup, info)


def _in_order(setup: dict[str, Any], info: EngineInfo) -> dict[str, Any]:
    """The decks top first, every card named by a handle, when the engine keeps deck order."""
    if "setup.deck_order" in info.capabilities:
        setup["shuffle"] = False
        setup["decks"] = {
            name: [{"card": card, "handle": f"{name.lower()}{i:02d}"}
                   for i, card in enumerate(deck, start=1)]
            for name, deck in setup["decks"].items()}
    return setup


#: the rules of the start of a game that are no card's: a game directed at them (``--rules``)
#: is more often of the kind that reaches them
TOPIC_RULES = {
    "deck": ("cr2004:100.1", "cr2004:100.2", "cr2004:100.3", "cr2004:100.4", "modern:407.3"),
    "ante": ("cr2004:217.9a", "cr2004:217.9b", "cr2004:217.9c", "modern:407.1", "modern:407.2",
             "modern:407.3"),
    "mulligan": ("cr2004:101.4",),
}


def topics_for(globs: Sequence[str]) -> frozenset[str]:
    """The start topics (``TOPIC_RULES``) that rule id globs touch."""
    from fnmatch import fnmatchcase

    return frozenset(topic for topic, rules in TOPIC_RULES.items()
                     if any(fnmatchcase(rule, glob) for rule in rules for glob in globs))


@st.composite
def starts(draw: st.DrawFn, info: EngineInfo, edition: str,
           focus: frozenset[str] = frozenset(), topics: frozenset[str] = frozenset()
           ) -> Start:
    """A game to play, of a kind the engine declared it can start (shrinking toward a plain
    seeded start with every hand kept); ``topics`` (``topics_for``) make the kinds that
    reach them the most frequent."""
    caps = info.capabilities
    # Half plain seeded starts; then an ante game, formatted starts (cheap: a refused
    # setup takes no step) and given states.
    kind = draw(st.integers(0, 15))
    if "deck" in topics and kind < 12:
        kind = 9 + kind % 4
    if kind >= 13 and "setup.state" in caps:
        return Start(draw(given_states(info, edition, focus)))
    if kind >= 9 and "setup.legality" in caps:
        setup, flaw = draw(formatted_starts(info, edition, focus, ante_likely="ante" in topics))
        return Start(setup, flaw=flaw)
    setup = draw(seeded_starts(info, edition, focus))
    if "setup.ante" in caps and (kind == 8 or ("ante" in topics and kind % 2)):
        setup["ante"] = True
    mulligans: dict[str, int] = {}
    if "actions.mulligan" in caps:
        plans = (0, 1, 2, 7) if "mulligan" in topics else MULLIGAN_PLANS
        mulligans = {name: draw(st.sampled_from(plans)) for name in ob.PLAYERS}
    return Start(setup, {k: v for k, v in mulligans.items() if v})


@st.composite
def formatted_starts(draw: st.DrawFn, info: EngineInfo, edition: str,
                     focus: frozenset[str] = frozenset(), *, ante_likely: bool = False
                     ) -> tuple[dict[str, Any], Flaw | None]:
    """A seeded start naming a format, both decks of its size; one of them, more often than
    not, with a flaw the deck rules forbid (an ante card outside an ante game the more
    often with ``ante_likely``)."""
    basics, rest = playable_cards(info, edition)
    fmt = draw(st.sampled_from(sorted(FORMAT_MINIMUM)))
    ante = "setup.ante" in info.capabilities and draw(st.integers(0, 3)) == 3
    ante_cards = sorted(_ante_cards() & info.cards_for(edition))
    chosen = sorted(focus.intersection(rest)) or list(rest)
    # Any number of a basic land is legal (Snow-Covered Forest is one): a fifth copy is of
    # another card.
    limited_copies = [c for c in chosen if not _basic(edition, c)]
    flaws = ["short", "ante card", "ante card in the sideboard"] if not ante else ["short"]
    if fmt == "constructed" and limited_copies:
        flaws.append("fifth copy")
    if not ante_cards:
        flaws = [f for f in flaws if "ante" not in f]
    if "setup.sideboard" not in info.capabilities:
        flaws = [f for f in flaws if "sideboard" not in f]
    if ante_likely:
        flaws += [f for f in flaws if "ante" in f]
    flaw = draw(st.sampled_from([None, *flaws]))
    flawed = draw(st.sampled_from(ob.PLAYERS))
    if ante and ante_cards:
        chosen = sorted({*chosen, *ante_cards})
    minimum = FORMAT_MINIMUM[fmt]
    setup: dict[str, Any] = {
        "start": "game",
        "seed": draw(st.integers(0, 2**16)),
        "first_player": draw(st.sampled_from(ob.PLAYERS)),
        "format": fmt,
        "decks": {},
    }
    if ante:
        setup["ante"] = True
    for name in ob.PLAYERS:
        spells = draw(st.lists(st.sampled_from(chosen), max_size=6, unique=True)) \
            if chosen else []
        copies = MAX_COPIES if fmt == "constructed" else 6
        cards = [card for card in spells for _ in range(copies)]
        size = minimum + draw(st.integers(0, 2))
        if name == flawed and flaw == "fifth copy":
            fifth = next((c for c in spells if c in limited_copies), limited_copies[0])
            cards += [fifth] * (MAX_COPIES + 1 - cards.count(fifth))
        if name == flawed and flaw == "ante card":
            cards.append(draw(st.sampled_from(ante_cards)))
        if name == flawed and flaw == "short":
            size = minimum - 1
        lands = draw(st.lists(st.sampled_from(list(basics)), min_size=1, max_size=2,
                              unique=True))
        cards += [lands[i % len(lands)] for i in range(max(0, size - len(cards)))]
        setup["decks"][name] = draw(st.permutations(cards))
    if flaw == "ante card in the sideboard":
        setup["sideboards"] = {flawed: [draw(st.sampled_from(ante_cards))]}
    setup = _in_order(setup, info)
    return setup, _flaw(flaw, flawed, fmt, edition)


def _flaw(flaw: str | None, player: str, fmt: str, edition: str) -> Flaw | None:
    if flaw is None:
        return None
    minimum = FORMAT_MINIMUM[fmt]
    # 2004: the deck rules are 100.2-100.3, and an ante card says so itself (103.1: a card's
    # text over the rules); modern: 407.3 (its seeds hold no deck rules: 100.2a is outside).
    ante_rules = ("modern:407.3",) if edition == "modern" else ("cr2004:103.1",)
    size_rules = ("cr2004:100.2",) if fmt == "constructed" else ("cr2004:100.3",)
    return {
        "short": Flaw(size_rules, f"{player}'s {fmt} deck of {minimum - 1} cards"),
        "fifth copy": Flaw(("cr2004:100.2",),
                           f"{player}'s constructed deck with five copies of a card"),
        "ante card": Flaw(ante_rules, f"an ante card in {player}'s deck, not playing for ante"),
        "ante card in the sideboard": Flaw(ante_rules, f"an ante card in {player}'s "
                                           "sideboard, not playing for ante"),
    }[flaw]


@st.composite
def given_states(draw: st.DrawFn, info: EngineInfo, edition: str,
                 focus: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A game in progress: for each player lands and a few permanents on the battlefield,
    cards in hand, a library and a graveyard, in a step where the active player has priority.
    Only what the engine declared: a graveyard with setup.graveyard, a library of several
    names with setup.library_order. Auras are left off the battlefield (they would need an
    attachment)."""
    basics, rest = playable_cards(info, edition)
    chosen = sorted(focus.intersection(rest)) or list(rest)
    caps = info.capabilities
    counter = iter(range(1, 1000))

    def entry(card: str) -> dict[str, Any]:
        return {"card": card, "handle": f"g{next(counter):02d}"}

    def permanent(card: str) -> bool:
        data = _card(edition, card)
        return data is not None and bool(PERMANENT_TYPES & set(data.types)) and \
            "Aura" not in data.subtypes

    on_battlefield = [c for c in chosen if permanent(c)] or \
        [c for c in rest if permanent(c)]
    number = draw(st.integers(2, 6))
    active = draw(st.sampled_from(ob.PLAYERS))
    setup: dict[str, Any] = {
        "seed": draw(st.integers(0, 2**16)),
        "turn": {"number": number, "active": active,
                 "step": draw(st.sampled_from(GIVEN_STEPS))},
        "players": {},
        "battlefield": [],
    }
    for name in ob.PLAYERS:
        lands = draw(st.lists(st.sampled_from(list(basics)), min_size=1, max_size=2,
                              unique=True))
        land_count = draw(st.integers(1, 6))
        for i in range(land_count):
            setup["battlefield"].append({**entry(lands[i % len(lands)]), "owner": name})
        if on_battlefield:
            for card in draw(st.lists(st.sampled_from(on_battlefield), max_size=3)):
                setup["battlefield"].append({**entry(card), "owner": name})
        hand = draw(st.lists(st.sampled_from(chosen), min_size=1, max_size=5)) \
            if chosen else []
        hand += draw(st.lists(st.sampled_from(lands), max_size=1))
        library_cards = draw(st.lists(st.sampled_from(list(basics) + list(chosen)),
                                      min_size=3, max_size=10))
        state: dict[str, Any] = {
            "life": draw(st.sampled_from((20, 20, 12, 5, 2))),
            "hand": [entry(c) for c in hand],
            # A library in a known order names each card; else it is of one name.
            "library": [entry(c) for c in library_cards]
            if "setup.library_order" in caps else [lands[0]] * len(library_cards),
        }
        if "setup.graveyard" in caps and chosen:
            graveyard = draw(st.lists(st.sampled_from(chosen), max_size=2))
            if graveyard:
                state["graveyard"] = [entry(c) for c in graveyard]
        setup["players"][name] = state
    return setup


def illegal_action(pick: int, legal: Sequence[dict[str, Any]], observation: dict[str, Any]
                   ) -> tuple[dict[str, Any], str]:
    """An action the rules forbid now, and why, chosen by ``pick``: a listed action by the
    other player; a land play of a card that is no land or not in the hand; a listed action
    with its targets left out; a land play at the wrong time (not the player's main phase
    with an empty stack); an object that does not exist. A kind that the moment does not
    allow (no listed action has targets, it is the player's main phase) gives way to the
    last."""
    actor = ob.holds_priority(observation) or (observation.get("pending") or {}).get("player")
    other = "B" if actor == "A" else "A"
    kind, pick = pick % 5, pick // 5
    if kind == 0 and legal:
        action = dict(legal[pick % len(legal)])
        action["player"] = other
        return action, f"{other} acts while {actor} has priority or the pending decision"
    if kind == 1:
        library = ob.player(observation, other).get("library") or []
        hand = ob.player(observation, actor or "A").get("hand") or []
        candidates = [o for o in library if "id" in o] + [
            o for o in hand if not ob.has_type(o, "Land") and "id" in o]
        if candidates:
            card = candidates[pick % len(candidates)]
            return ({"action": "play_land", "player": actor or "A", "card": card["id"]},
                    f"{card.get('card')} is not a land in {actor}'s hand")
    if kind == 2:
        untargeted = {_object_key(a) for a in legal if not a.get("targets")}
        targeted = [a for a in legal if a.get("targets") and _object_key(a) not in untargeted]
        if targeted:
            action = {k: v for k, v in targeted[pick % len(targeted)].items()
                      if k != "targets"}
            return action, f"{action.get('action')} without the targets it needs"
    if kind == 3 and actor is not None and not _sorcery_time(observation, actor):
        lands = [o for o in ob.player(observation, actor).get("hand") or ()
                 if ob.has_type(o, "Land") and "id" in o]
        if lands:
            card = lands[pick % len(lands)]
            return ({"action": "play_land", "player": actor, "card": card["id"]},
                    f"{actor} plays a land outside their main phase with an empty stack")
    return ({"action": "play_land", "player": actor or "A", "card": NO_SUCH_ID},
            "no object has this id")


def _object_key(action: dict[str, Any]) -> tuple[Any, ...]:
    return (action.get("action"), action.get("player"), action.get("card"),
            action.get("ability"))


def _sorcery_time(observation: dict[str, Any], player: str) -> bool:
    """The player's own main phase, the stack empty, nothing pending (cr2004 212.6b)."""
    turn = ob.turn(observation)
    return (turn.get("active") == player and not observation.get("stack")
            and turn.get("step") in ("precombat_main", "postcombat_main")
            and observation.get("pending") is None)
