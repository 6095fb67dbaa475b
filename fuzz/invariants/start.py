"""Invariants of the start of the game: decks, starting life, opening hands, mulligans, the
first draw (cr2004 100-101, modern 103)."""

from __future__ import annotations

from collections.abc import Iterator

from fuzz import observations as ob
from fuzz.invariants.framework import (
    Transition,
    Violation,
    invariant,
)
from fuzz.observations import PLAYERS


@invariant("deck-rules", "cr2004:100.2 cr2004:100.3 modern:407.3",
           "A seeded start whose deck its format forbids (too few cards, a fifth copy) or that "
           "holds an ante card outside an ante game is refused as illegal_setup; one the "
           "rules allow starts.", needs=("setup.legality",), of_setup=True)
def _deck_rules(t: Transition) -> Iterator[Violation]:
    if t.before is not None or t.setup is None or "start" not in t.setup:
        return
    if t.flaw is not None and t.refused is None:
        yield Violation("deck-rules", t.flaw.rules, f"{t.flaw.why} was accepted: the game "
                        "started", forbidden=True)
    elif t.flaw is None and t.refused is not None:
        fmt = t.setup.get("format")
        by_format: dict[str | None, tuple[str, ...]] = {
            "constructed": ("cr2004:100.2",), "limited": ("cr2004:100.3",)}
        rules = by_format.get(fmt, ("cr2004:100.2", "cr2004:100.3"))
        yield Violation("deck-rules", rules, "a setup the deck rules allow "
                        f"({fmt or 'no format'}, {'ante' if t.setup.get('ante') else 'no ante'})"
                        f" was refused: {t.refused}")



@invariant("starting-life", "cr2004:101.3 modern:103.4",
           "A seeded game begins with each player at 20 life.")
def _starting_life(t: Transition) -> Iterator[Violation]:
    if t.before is None and t.seeded:
        for name in PLAYERS:
            life = ob.player(t.after, name).get("life")
            if life != 20:
                yield Violation("starting-life", ("cr2004:101.3", "modern:103.4"),
                                f"{name} begins the game with {life} life",
                                {f"players.{name}.life": 20})


@invariant("opening-hand-seven", "cr2004:101.3 cr2004:217.3a modern:103.5 modern:402.1",
           "Each player's opening hand in a seeded game has seven cards.")
def _opening_hand(t: Transition) -> Iterator[Violation]:
    if t.before is None and t.seeded:
        for name in PLAYERS:
            hand = ob.player(t.after, name).get("hand") or []
            if len(hand) != 7:
                yield Violation("opening-hand-seven",
                                ("cr2004:101.3", "cr2004:217.3a", "modern:103.5", "modern:402.1"),
                                f"{name}'s opening hand has {len(hand)} cards",
                                {f"players.{name}.hand": {"count": 7}})


@invariant("mulligan-one-card-fewer", "cr2004:101.4",
           "The 2004 mulligan: the starting player decides first; each mulligan shuffles the "
           "hand away and draws one card fewer than it held; a player may go on down to an "
           "empty hand.", needs=("actions.mulligan",), editions=("cr2004",))
def _paris_mulligan(t: Transition) -> Iterator[str]:
    if t.before is None:
        pending = t.after.get("pending") or {}
        active = ob.turn(t.after).get("active")
        if pending.get("decision") == "mulligan" and pending.get("player") != active:
            yield f"{pending.get('player')} decides on a mulligan before {active}, who starts"
        return
    pending = t.before.get("pending") or {}
    if pending.get("decision") != "mulligan":
        return
    who = pending.get("player")
    had = len(ob.player(t.before, who).get("hand") or ())
    if t.legal is not None and had and not any(
            a.get("action") == "mulligan" and a.get("player") == who for a in t.legal):
        yield f"{who} may not mulligan a hand of {had} card(s)"
    if t.action is not None and t.action.get("action") == "mulligan" and t.rejected is None:
        now = len(ob.player(t.after, who).get("hand") or ())
        if now != had - 1:
            yield f"{who} mulliganed a hand of {had} into {now} cards, not {had - 1}"
        after = t.after.get("pending") or {}
        if now and (after.get("decision"), after.get("player")) != ("mulligan", who):
            yield f"{who}, with {now} card(s) after a mulligan, is not asked again"


@invariant("first-player-skips-draw", "cr2004:101.5 modern:103.8a",
           "The player who starts does not draw in the draw step of the first turn.",
           needs=("observe.events",))
def _first_draw(t: Transition) -> Iterator[str]:
    if not t.seeded or t.before is None or ob.turn(t.after).get("number") != 1:
        return
    active = ob.turn(t.after).get("active")
    if ob.step_index(t.before) < ob.STEPS.index("draw") <= ob.step_index(t.after):
        for event in t.events:
            if event.get("type") == "draw" and event.get("player") == active:
                yield f"{active}, the starting player, drew in the draw step of turn 1"
