"""Invariants of zones and objects: one zone per object, cards conserved, new objects on zone
changes, owners' zones, tokens, order of libraries and graveyards, controllers, the stack,
hidden zones (cr2004 213-217, modern 400-405)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from fuzz import observations as ob
from fuzz.invariants.framework import (
    Transition,
    cards_saying,
    invariant,
    known_cards,
)
from fuzz.observations import PLAYERS


@invariant("one-zone-per-object", "cr2004:217.1 modern:400.1",
           "Every object is in exactly one zone: no id shows twice.")
def _one_zone(t: Transition) -> Iterator[str]:
    shown = [o['id'] for _, _, o in t.after_objects if 'id' in o]
    if len(set(shown)) == len(shown):
        return  # the usual case, told apart by a set (no count per id)
    seen = Counter(shown)
    for object_id, times in seen.items():
        if times > 1:
            zones = [z for z, _, o in t.after_objects if o.get("id") == object_id]
            yield f"object {object_id} shows {times} times ({', '.join(zones)})"


@invariant("cards-conserved", "cr2004:217.1 modern:400.1 modern:400.11b",
           "Cards neither appear nor vanish: each player owns as many cards in the game as "
           "before, unless one came from outside the game.")
def _conserved(t: Transition) -> Iterator[str]:
    if t.before is None:
        return
    before, after = t.cards_before, t.cards_after
    assert before is not None
    outside: Counter[str | None] = Counter()  # by owner, as the events name them
    for event in t.events:
        if event.get("type") == "zone_change":
            if event.get("from") in ("outside", "sideboard"):
                outside[event.get("owner")] += 1
            if event.get("to") in ("outside", "sideboard"):
                outside[event.get("owner")] -= 1
    for name in PLAYERS:
        if after[name] - before[name] != outside[name]:
            yield (f"{name} owned {before[name]} cards in the game before the step and "
                   f"{after[name]} after")


@invariant("new-object-on-zone-change", "cr2004:217.1c modern:400.7",
           "An object that changes zones becomes a new object: a new id, or with "
           "observe.incarnation a new incarnation.", needs=("observe.events",))
def _new_object(t: Transition) -> Iterator[str]:
    incarnations = "observe.incarnation" in t.capabilities
    for event in t.events:
        if event.get("type") != "zone_change":
            continue
        if event.get("object") == event.get("new_object") and not incarnations:
            yield (f"{event.get('card')} moved from {event.get('from')} to {event.get('to')} "
                   f"keeping id {event.get('object')}")


@invariant("owners-zones", "cr2004:217.1a modern:400.3",
           "A card in a player's hand, library or graveyard is that player's own.")
def _owners(t: Transition) -> Iterator[str]:
    for zone, name, obj in t.after_objects:
        if name is not None and obj.get("owner") not in (None, name) and not obj.get("hidden"):
            yield f"{obj.get('card')} owned by {obj.get('owner')} is in {name}'s {zone}"


@invariant("tokens-only-on-battlefield", "cr2004:216.3 cr2004:217.8d modern:704.5d",
           "A token anywhere but on the battlefield ceases to exist before a player gets "
           "priority.")
def _tokens(t: Transition) -> Iterator[str]:
    if not t.priority_given:
        return
    for zone, _, obj in t.after_objects:
        if zone != "battlefield" and obj.get("token"):
            yield f"a token ({obj.get('card')}) is in {zone}"


@invariant("no-instant-or-sorcery-in-play", "cr2004:212.5d cr2004:212.7d modern:400.4a",
           "No instant or sorcery is ever on the battlefield.")
def _no_instants(t: Transition) -> Iterator[str]:
    for obj in t.after.get("battlefield") or ():
        if ob.has_type(obj, "Instant") or ob.has_type(obj, "Sorcery"):
            yield f"{obj.get('card')}, an instant or sorcery, is on the battlefield"


@invariant("library-order-kept", "cr2004:217.1b modern:400.5 modern:401.2",
           "A library's cards keep their order: only what is drawn, put in or shuffled "
           "changes it.", needs=("observe.events", "observe.library"))
def _library_order(t: Transition) -> Iterator[str]:
    if t.before is None:
        return
    shuffled = {e.get("player") for e in t.events if e.get("type") == "shuffle"}
    if not shuffled and _may_shuffle(t):
        # An engine need not report shuffles (the event is optional in the protocol): a
        # step where a card that shuffles is at work proves nothing.
        return
    for name in PLAYERS:
        if name not in shuffled:
            yield from _order_kept(t, name, "library")


def _may_shuffle(t: Transition) -> bool:
    """A card at work in this step may shuffle a library: one whose text says so, or one the
    card pool does not know (an engine's own card: what it does cannot be read, so the
    invariant skips the step rather than guess)."""
    assert t.before is not None
    if t.action is not None and t.action.get("action") == "mulligan":
        return True  # the hand is shuffled into the library (cr2004 101.4; modern 103.5)
    shufflers = cards_saying("shuffle")
    known = known_cards(t.edition)

    def may(card: Any) -> bool:
        return isinstance(card, str) and (card in shufflers or card not in known)

    acting = t.action.get("card") if t.action else None
    for zone in ("stack", "battlefield"):
        for obj in t.before.get(zone) or ():
            if may(obj.get("card")) and (zone == "stack" or obj.get("id") == acting):
                return True
    if t.before.get("pending") is not None:
        # A choice while something resolves: an engine may already have taken the ability
        # off the stack, its source is anywhere public.
        public = [o for zone, _, o in ob.objects(t.before)
                  if zone in ("graveyard", "exile", "battlefield", "stack")]
        if any(may(o.get("card")) for o in public):
            return True
    return any(may(e.get("card")) for e in t.events)


@invariant("graveyard-order-kept", "cr2004:217.1b cr2004:217.4b modern:404.2",
           "A graveyard's cards keep their order: cards are only put on top or taken out.")
def _graveyard_order(t: Transition) -> Iterator[str]:
    if t.before is not None:
        for name in PLAYERS:
            yield from _order_kept(t, name, "graveyard")


def _order_kept(t: Transition, name: str, zone: str) -> Iterator[str]:
    assert t.before is not None
    before = ob.zone_ids(t.before, name, zone)
    after = ob.zone_ids(t.after, name, zone)
    if before == after:
        return  # the usual step: the zone did not change
    kept = set(before) & set(after)
    if [i for i in before if i in kept] != [i for i in after if i in kept]:
        yield f"{name}'s {zone} changed order: {before} became {after}"


@invariant("graveyard-grows-on-top", "cr2004:217.4a modern:404.1",
           "Cards put into a graveyard go on top of it (the top is listed first).")
def _graveyard_top(t: Transition) -> Iterator[str]:
    if t.before is None:
        return
    for name in PLAYERS:
        before = set(ob.zone_ids(t.before, name, "graveyard"))
        after = ob.zone_ids(t.after, name, "graveyard")
        new = [i for i in after if i not in before]
        if new and after[:len(new)] != new:
            yield f"cards newly put into {name}'s graveyard are not on top: {after}"


@invariant("permanents-have-controllers", "cr2004:214.4",
           "Every permanent has a controller and is tapped or untapped.")
def _controllers(t: Transition) -> Iterator[str]:
    for obj in t.after.get("battlefield") or ():
        if obj.get("phased_out"):
            continue
        if obj.get("controller") not in PLAYERS or not isinstance(obj.get("tapped"), bool):
            yield f"{obj.get('card')} has controller {obj.get('controller')!r}, tapped " \
                  f"{obj.get('tapped')!r}"


@invariant("spells-have-controllers", "cr2004:213.4 modern:405.4",
           "Every spell or ability on the stack has a controller.",
           needs=("observe.stack",))
def _stack_controllers(t: Transition) -> Iterator[str]:
    for obj in t.after.get("stack") or ():
        if obj.get("controller") not in PLAYERS:
            yield f"{obj.get('card')} on the stack has controller {obj.get('controller')!r}"


@invariant("stack-last-in-first-out", "cr2004:217.6b cr2004:217.6d modern:405.2 modern:405.5",
           "The stack grows on top and resolves from the top: objects that stay keep their "
           "order below the new ones, and a resolution takes the top one.",
           needs=("observe.stack",))
def _stack(t: Transition) -> Iterator[str]:
    if t.before is None:
        return
    before = ob.zone_ids(t.before, None, "stack")  # top first
    after = ob.zone_ids(t.after, None, "stack")
    kept = [i for i in before if i in set(after)]
    if [i for i in after if i in set(kept)] != kept:
        yield f"the stack changed order: {before} became {after}"
    new = [i for i in after if i not in set(before)]
    if new and after[:len(new)] != new:
        yield f"objects put on the stack are not on top: {after}"
    gone = [i for i in before if i not in set(after)]
    passed = t.action is not None and t.action.get("action") == "pass" and t.rejected is None
    if passed and gone and before[0] not in gone:
        yield f"{gone} left the stack but the top object {before[0]} did not resolve"


@invariant("hands-are-hidden", "cr2004:217.3c modern:402.3",
           "A player cannot see the cards of the other player's hand, only how many there are.",
           needs=("observe.view",))
def _hands_hidden(t: Transition) -> Iterator[str]:
    for name, view in (t.views or {}).items():
        other = "B" if name == "A" else "A"
        hand = ob.player(view, other).get("hand") or []
        shown = [o.get("card") for o in hand if not o.get("hidden")]
        if shown:
            yield f"{name} sees {other}'s hand: {shown}"
        full = ob.player(t.after, other).get("hand") or []
        if len(hand) != len(full):
            yield f"{name} counts {len(hand)} cards in {other}'s hand, which holds {len(full)}"


@invariant("libraries-are-hidden", "modern:401.2 cr2004:217.2c",
           "Nobody sees the cards of a library (its top card may be revealed by an effect).",
           needs=("observe.view",))
def _libraries_hidden(t: Transition) -> Iterator[str]:
    for name, view in (t.views or {}).items():
        for owner in PLAYERS:
            library = ob.player(view, owner).get("library") or []
            shown = [o.get("card") for o in library[1:] if not o.get("hidden")]
            if shown:
                yield f"{name} sees cards of {owner}'s library below the top: {shown}"
