"""Invariants of winning and losing: life, poison, drawing from an empty library, the end of
the game (cr2004 102)."""

from __future__ import annotations

from collections.abc import Iterator

from fuzz import observations as ob
from fuzz.invariants.framework import (
    Transition,
    Violation,
    invariant,
    losers,
)
from fuzz.observations import PLAYERS


@invariant("zero-life-loses", "cr2004:102.1 modern:704.5a",
           "A player at 0 or less life has lost by the time a player would get priority.")
def _zero_life(t: Transition) -> Iterator[Violation]:
    winners = set((t.after.get("result") or {}).get("winners") or ())
    for name in winners:
        # Nobody wins at 0 life or with ten poison counters: they lost first (a loss that
        # cannot wait for priority: the game may end at once).
        state = ob.player(t.after, name)
        life, poison = state.get("life"), state.get("poison")
        if (isinstance(life, int) and life <= 0) or (isinstance(poison, int) and poison >= 10):
            yield Violation("zero-life-loses", ("cr2004:102.1", "modern:704.5a"),
                            f"{name} won at {life} life and {poison or 0} poison",
                            {"result.winners": {"not_contains": [name]}})
    if not t.priority_given:
        return
    for name in PLAYERS:
        life = ob.player(t.after, name).get("life")
        if isinstance(life, int) and life <= 0 and name not in losers(t.after):
            yield Violation("zero-life-loses", ("cr2004:102.1", "modern:704.5a"),
                            f"{name} is at {life} life and has not lost",
                            {"result.over": True, "result.losers": {"contains": [name]}})


@invariant("ten-poison-loses", "cr2004:102.8 modern:704.5c",
           "A player with ten or more poison counters has lost by the time a player would get "
           "priority.")
def _poison(t: Transition) -> Iterator[Violation]:
    if not t.priority_given:
        return
    for name in PLAYERS:
        poison = ob.player(t.after, name).get("poison")
        if isinstance(poison, int) and poison >= 10 and name not in losers(t.after):
            yield Violation("ten-poison-loses", ("cr2004:102.8", "modern:704.5c"),
                            f"{name} has {poison} poison counters and has not lost",
                            {"result.over": True, "result.losers": {"contains": [name]}})


@invariant("empty-library-draw-loses", "cr2004:102.2 modern:704.5b",
           "A player whose draw step began with an empty library has lost by the time a "
           "player gets priority in it.")
def _empty_draw(t: Transition) -> Iterator[str]:
    if t.before is None or ob.over(t.before):
        return
    before_turn, after_turn = ob.turn(t.before), ob.turn(t.after)
    active = after_turn.get("active")
    draw = ob.STEPS.index("draw")
    entered = (after_turn.get("number") == before_turn.get("number")
               and ob.step_index(t.before) < draw == ob.step_index(t.after))
    first = after_turn.get("number") == 1 and t.seeded
    if not entered or first or after_turn.get("priority") not in PLAYERS:
        return
    library = ob.player(t.before, active).get("library")
    if library == [] and active not in losers(t.after):
        yield f"{active} began the draw step with an empty library and has not lost"


@invariant("game-over-is-final", "cr2004:102.3",
           "Once the game is over nobody has priority, no decision is pending, no action is "
           "legal, and the result names its winners and losers consistently.")
def _game_over(t: Transition) -> Iterator[str]:
    result = t.after.get("result") or {}
    if not result.get("over"):
        if result.get("winners") or result.get("losers"):
            yield "the result names winners or losers but the game is not over"
        return
    winners, losers = set(result.get("winners") or ()), set(result.get("losers") or ())
    if winners & losers:
        yield f"players both win and lose: {sorted(winners & losers)}"
    if ob.turn(t.after).get("priority") in PLAYERS or t.after.get("pending") is not None:
        yield "the game is over but a player has priority or a decision is pending"
    if result.get("draw") and winners:
        yield f"a draw with winners {sorted(winners)}"


@invariant("both-lose-draw", "cr2004:102.4",
           "When both players lose at once the game is a draw and nobody wins.")
def _both_lose(t: Transition) -> Iterator[Violation]:
    result = t.after.get("result") or {}
    both = result.get("over") and set(result.get("losers") or ()) == set(PLAYERS)
    if both and (not result.get("draw") or result.get("winners")):
        yield Violation("both-lose-draw", ("cr2004:102.4",),
                            "both players lost but the game is not a draw",
                            {"result.draw": True, "result.winners": []})


@invariant("game-ends-at-a-result", "cr2004:102.3",
           "Nothing happens in a game after it is over: an action after the end is rejected.")
def _after_end(t: Transition) -> Iterator[str]:
    if t.before is not None and ob.over(t.before) and t.action is not None and \
            t.rejected is None and t.action.get("action") != "concede":
        yield f"{t.action.get('action')} was accepted after the game was over"
