"""Invariants of turns, priority and mana: time moves forward, priority, land plays, summoning
sickness, mana emptying and mana burn, hand size, permanents entering untapped, lethal
damage (cr2004 212, 214, 300; modern 405)."""

from __future__ import annotations

from collections.abc import Iterator

from fuzz import observations as ob
from fuzz.invariants.framework import (
    Transition,
    Violation,
    card_of,
    cards_saying,
    invariant,
)
from fuzz.observations import PLAYERS


@invariant("time-moves-forward", "cr2004:300.1 modern:500.1",
           "Turns and steps go forward: the turn number never decreases, grows by at most one "
           "a step, and within a turn the steps follow their order.")
def _forward(t: Transition) -> Iterator[str]:
    if t.before is None or ob.over(t.after):
        return
    (turn_before, step_before), (turn_after, step_after) = ob.moment(t.before), ob.moment(
        t.after)
    if turn_after < turn_before or turn_after > turn_before + 1:
        yield f"the turn went from {turn_before} to {turn_after} in one step"
    elif turn_after == turn_before and step_after < step_before:
        yield (f"turn {turn_after} went back from {ob.STEPS[step_before]} to "
               f"{ob.STEPS[step_after]}")


@invariant("priority-or-decision", "cr2004:300.2 modern:405.5",
           "While the game goes on, either one player holds priority or a decision is pending "
           "for one player, never both; the legal actions are that player's (and concessions).",
           needs=("actions.legal",))
def _priority(t: Transition) -> Iterator[str]:
    if ob.over(t.after):
        return
    holder = ob.turn(t.after).get("priority")
    pending = t.after.get("pending")
    if holder in PLAYERS and pending is not None:
        yield f"{holder} holds priority while a decision is pending: {pending}"
    if holder not in PLAYERS and not isinstance(pending, dict):
        yield "nobody holds priority and no decision is pending"


@invariant("lands-played-counted", "cr2004:212.6b modern:505.6b",
           "Each land played counts once; the count starts again at 0 each turn.")
def _lands(t: Transition) -> Iterator[str]:
    if t.before is None:
        return
    new_turn = ob.turn(t.after).get("number") != ob.turn(t.before).get("number")
    for name in PLAYERS:
        before = ob.player(t.before, name).get("lands_played")
        after = ob.player(t.after, name).get("lands_played")
        if not isinstance(before, int) or not isinstance(after, int):
            continue
        played = (t.action is not None and t.rejected is None
                  and t.action.get("action") == "play_land" and t.action.get("player") == name)
        expected = (0 if new_turn else before) + (1 if played and not new_turn else 0)
        if after != expected:
            yield f"{name} has {after} lands played this turn, {expected} expected"


@invariant("one-land-per-turn", "cr2004:212.6b modern:505.6b",
           "A player plays one land a turn unless an effect allows more: a second land play is "
           "rejected when no permanent on the battlefield allows additional ones.")
def _one_land(t: Transition) -> Iterator[Violation]:
    if t.before is None or t.action is None or t.rejected is not None:
        return
    if t.action.get("action") != "play_land":
        return
    name = t.action.get("player")
    played = ob.player(t.before, name).get("lands_played")
    extra = cards_saying("additional land")
    allowed = any(o.get("card") in extra for o in t.before.get("battlefield") or ())
    if isinstance(played, int) and played >= 1 and not allowed:
        yield Violation("one-land-per-turn", ("cr2004:212.6b", "modern:505.6b"),
                        f"{name} played a second land this turn ({t.action.get('card')})",
                        forbidden=True)


@invariant("summoning-sick-cannot-attack", "cr2004:212.3d modern:302.6",
           "A creature its controller has not controlled since their turn began cannot attack "
           "(unless it has haste).")
def _sick_attack(t: Transition) -> Iterator[Violation]:
    if t.before is None or t.action is None or t.rejected is not None:
        return
    if t.action.get("action") != "attack":
        return
    hasty = cards_saying("haste")
    if any(o.get("card") in hasty for o in t.before.get("battlefield") or ()):
        return  # a creature may have haste, or be given it
    for obj in t.before.get("battlefield") or ():
        if obj.get("id") == t.action.get("card") and obj.get("sick"):
            yield Violation("summoning-sick-cannot-attack", ("cr2004:212.3d", "modern:302.6"),
                            f"{obj.get('card')}, summoning sick, was declared as an attacker",
                            forbidden=True)


@invariant("mana-empties", "cr2004:300.3 modern:500.5",
           "Unused mana empties from the pools at the end of each step (modern) or each phase "
           "(2004).")
def _mana_empties(t: Transition) -> Iterator[Violation]:
    if t.before is None or ob.over(t.after):
        return
    before, after = ob.turn(t.before), ob.turn(t.after)
    key = "step" if t.edition == "modern" else "phase"
    moved = after.get("number") != before.get("number") or after.get(key) != before.get(key)
    if not moved:
        return
    for name in PLAYERS:
        if ob.mana(t.after, name):
            yield Violation("mana-empties", ("cr2004:300.3", "modern:500.5"),
                            f"{name}'s pool still holds mana after the {key} ended",
                            {f"players.{name}.mana_pool": {"W": 0, "U": 0, "B": 0, "R": 0,
                                                           "G": 0, "C": 0}})


@invariant("mana-burn-2004", "cr2004:300.3",
           "In 2004, mana left in a pool at the end of a phase costs its player 1 life each.",
           needs=("observe.events",), editions=("cr2004",))
def _mana_burn(t: Transition) -> Iterator[str]:
    if t.before is None or ob.over(t.after):
        return
    before, after = ob.turn(t.before), ob.turn(t.after)
    if after.get("number") == before.get("number") and after.get("phase") == before.get(
            "phase"):
        return
    for name in PLAYERS:
        left = ob.mana(t.before, name)
        burned = -sum(e.get("amount", 0) for e in t.events
                      if e.get("type") == "life" and e.get("cause") == "mana_burn"
                      and e.get("player") == name)
        # Life events are informative (docs/protocol.md): an engine may report none, so the
        # life total's fall counts as well.
        life_before = ob.player(t.before, name).get("life")
        life_after = ob.player(t.after, name).get("life")
        if isinstance(life_before, int) and isinstance(life_after, int):
            burned = max(burned, life_before - life_after)
        if left and burned < left and t.action is not None and t.action.get("action") == "pass":
            yield f"{name} had {left} mana at the end of a phase and burned {burned}"


@invariant("no-mana-burn-modern", "modern:500.5",
           "The modern rules have no mana burn (the 2004 rule 300.3 is the one that has it).",
           needs=("observe.events",), editions=("modern",))
def _no_burn(t: Transition) -> Iterator[str]:
    for event in t.events:
        if event.get("type") == "life" and event.get("cause") == "mana_burn":
            yield f"{event.get('player')} lost life to mana burn"


@invariant("hand-size-after-cleanup", "cr2004:217.3b modern:402.2",
           "A player ends their turn with no more cards in hand than their maximum hand size.")
def _hand_size(t: Transition) -> Iterator[str]:
    if t.before is None or ob.over(t.after):
        return
    before, after = ob.turn(t.before), ob.turn(t.after)
    if after.get("number") == before.get("number"):
        return
    name = before.get("active")
    state = ob.player(t.after, name)
    maximum = state.get("max_hand_size")
    hand = state.get("hand") or []
    if isinstance(maximum, int) and len(hand) > maximum and name != after.get("active"):
        yield f"{name} ended the turn with {len(hand)} cards, more than {maximum}"


@invariant("permanents-enter-untapped", "cr2004:214.3",
           "A permanent comes into play untapped unless an effect says otherwise; a land "
           "played from the hand is never tapped.")
def _untapped(t: Transition) -> Iterator[str]:
    if t.before is None or t.rejected is not None or t.action is None:
        return
    if t.action.get("action") != "play_land":
        return
    hand = ob.zone_ids(t.before, t.action.get("player"), "hand")
    if t.action.get("card") not in hand:
        return  # played from elsewhere: the effect that allows it may say "enters tapped"
    entering_tapped = cards_saying("enters the battlefield tapped") | cards_saying(
        "comes into play tapped")
    if card_of(t.before, t.action.get("card")) in entering_tapped:
        return  # a land that says it enters tapped
    before = set(ob.ids(t.before))
    for obj in t.after.get("battlefield") or ():
        if obj.get("id") not in before and ob.has_type(obj, "Land") and \
                obj.get("tapped"):
            yield f"{obj.get('card')} was played and entered tapped"


@invariant("lethal-damage-destroys", "cr2004:420.5c modern:704.5g",
           "State-based actions are performed before a player gets priority: no creature with "
           "0 toughness or lethal damage is left on the battlefield then.")
def _lethal(t: Transition) -> Iterator[str]:
    if ob.holds_priority(t.after) is None:
        return
    sturdy = cards_saying("indestructible")
    if any(str(o.get("card")).removesuffix(" emblem") in sturdy
           for zone in ("battlefield", "command") for o in t.after.get(zone) or ()):
        return  # a creature may be indestructible (lethal damage then destroys nothing)
    for obj in t.after.get("battlefield") or ():
        if obj.get("phased_out") or not ob.has_type(obj, "Creature"):
            continue
        toughness, damage = obj.get("toughness"), obj.get("damage") or 0
        if isinstance(toughness, int) and toughness <= 0:
            yield f"{obj.get('card')} has toughness {toughness} and is still on the battlefield"
        elif isinstance(toughness, int) and damage >= toughness > 0:
            yield (f"{obj.get('card')} has {damage} damage with toughness {toughness} and is "
                   "still on the battlefield")
