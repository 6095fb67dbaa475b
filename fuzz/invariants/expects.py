"""What a correct engine shows after a step that broke an invariant, as the checks of a case's
final ``expect`` (``Violation.checks``), or why no check can say it (``Violation.unchecked``).

A finding's case must fail on the engine that broke the invariant and pass on a correct one:
each invariant that reports a bare message gets its checks here, worked out again from the
step (``Transition``), kept apart from the invariants themselves so that checking every step
stays as cheap as it is. Every check reads only what a case can name: paths of the
observation (docs/cases.md, Paths and values), by card name, never by an engine's ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from fuzz import observations as ob
from fuzz.invariants.framework import Transition, Violation
from fuzz.observations import PLAYERS

#: (checks, unchecked, the player whose view they read); one of the first two is empty
Expected = tuple[dict[str, Any], str, str | None]
Writer = Callable[[Transition, Violation], Expected]
WRITERS: dict[str, Writer] = {}

#: why a listing cannot be checked: a case names actions, not what legal_actions says
NOT_A_LISTING = ("a case performs actions and cannot check what legal_actions lists: the "
                 "action a correct engine leaves unlisted it rejects, so a case that does it "
                 "fails there too")


def expects(invariant_id: str) -> Callable[[Writer], Writer]:
    def register(writer: Writer) -> Writer:
        WRITERS[invariant_id] = writer
        return writer
    return register


def completed(violation: Violation, transition: Transition) -> Violation:
    """``violation`` with the checks (or the reason there are none) its case needs: as it is
    when it has them already, or expects an action rejected."""
    writer = WRITERS.get(violation.invariant)
    if violation.checks or violation.forbidden or violation.unchecked or writer is None:
        return violation
    checks, unchecked, view = writer(transition, violation)
    if not checks and not unchecked:
        unchecked = "what a correct engine shows here is more than the invariant can tell"
    return replace(violation, checks=checks, unchecked=unchecked, view=view)


def _none(why: str) -> Expected:
    return {}, why, None


def _checks(checks: dict[str, Any], view: str | None = None) -> Expected:
    return checks, "", view


def _where(zone: str, owner: str | None) -> str:
    return f"players.{owner}.{zone}" if owner is not None else zone


def _names(observation: ob.Observation, owner: str | None, zone: str) -> list[Any]:
    found = observation.get(zone) if owner is None else ob.player(observation, owner).get(zone)
    return [o.get("card") for o in found or ()]


# ---- the start of the game ---------------------------------------------------------------------


@expects("mulligan-one-card-fewer")
def _mulligan(t: Transition, v: Violation) -> Expected:
    active = ob.turn(t.after).get("active")
    if t.before is None:
        return _checks({"pending": {"decision": "mulligan", "player": active}})
    who = (t.before.get("pending") or {}).get("player")
    had = len(ob.player(t.before, who).get("hand") or ())
    if t.action is None or t.action.get("action") != "mulligan" or t.rejected is not None:
        return _none(NOT_A_LISTING)
    now = len(ob.player(t.after, who).get("hand") or ())
    if now != had - 1:
        return _checks({f"players.{who}.hand": {"count": had - 1}})
    return _checks({"pending": {"decision": "mulligan", "player": who}})


@expects("first-player-skips-draw")
def _first_draw(t: Transition, v: Violation) -> Expected:
    assert t.before is not None
    active = ob.turn(t.after).get("active")
    return _checks({f"players.{active}.hand": {
        "count": len(ob.player(t.before, active).get("hand") or ())}})


# ---- winning and losing ------------------------------------------------------------------------


@expects("empty-library-draw-loses")
def _empty_draw(t: Transition, v: Violation) -> Expected:
    active = ob.turn(t.after).get("active")
    return _checks({"result.over": True, "result.losers": {"contains": [active]}})


@expects("game-over-is-final")
def _game_over(t: Transition, v: Violation) -> Expected:
    result = t.after.get("result") or {}
    if not result.get("over"):
        return _checks({"result.winners": [], "result.losers": []})
    if ob.turn(t.after).get("priority") in PLAYERS or t.after.get("pending") is not None:
        return _checks({"turn.priority": None, "pending": None})
    if result.get("draw") and result.get("winners"):
        return _checks({"result.winners": []})
    return _none("a player both wins and loses: which of the two is wrong, the invariant "
                 "cannot tell")


# ---- zones and objects -------------------------------------------------------------------------


def _count_without(t: Transition, wrong: Callable[[str, str | None, dict[str, Any]], bool]
                   ) -> dict[str, Any]:
    """Per zone holding an object that should not be there, the count of its card there
    once it is gone: ``{"players.B.graveyard[card=Grizzly Bears]": {"count": 0}}``."""
    shown: Counter[tuple[str, str | None, Any]] = Counter()
    extra: Counter[tuple[str, str | None, Any]] = Counter()
    for zone, owner, obj in t.after_objects:
        key = (zone, owner, obj.get("card"))
        shown[key] += 1
        if wrong(zone, owner, obj):
            extra[key] += 1
    return {f"{_where(zone, owner)}[card={card}]": {"count": shown[key] - n}
            for key, n in extra.items() for zone, owner, card in [key] if isinstance(card, str)}


@expects("one-zone-per-object")
def _one_zone(t: Transition, v: Violation) -> Expected:
    if t.before is None:
        return _none("an object shows twice as the game starts: which zone holds it, the "
                     "invariant cannot tell")
    # The zone an object shown twice was in before the step, or (shown with a new id) the
    # zone the step's object came from: it should be gone from there.
    was = {o.get("id"): (zone, owner) for zone, owner, o in ob.objects(t.before)}
    moved = was.get(t.action.get("card")) if t.action is not None else None
    seen = Counter(o.get("id") for _, _, o in t.after_objects if "id" in o)
    twice = {i for i, n in seen.items() if n > 1}
    return _checks(_count_without(t, lambda zone, owner, o: o.get("id") in twice
                                  and was.get(o.get("id"), moved) == (zone, owner)))


@expects("tokens-only-on-battlefield")
def _tokens(t: Transition, v: Violation) -> Expected:
    return _checks(_count_without(t, lambda zone, _, o: zone != "battlefield"
                                  and bool(o.get("token"))))


@expects("no-instant-or-sorcery-in-play")
def _no_instants(t: Transition, v: Violation) -> Expected:
    return _checks(_count_without(t, lambda zone, _, o: zone == "battlefield" and (
        ob.has_type(o, "Instant") or ob.has_type(o, "Sorcery"))))


@expects("owners-zones")
def _owners(t: Transition, v: Violation) -> Expected:
    return _checks(_count_without(t, lambda zone, owner, o: owner is not None
                                  and o.get("owner") not in (None, owner)
                                  and not o.get("hidden")))


@expects("lethal-damage-destroys")
def _lethal(t: Transition, v: Violation) -> Expected:
    def lethal(zone: str, _: str | None, o: dict[str, Any]) -> bool:
        toughness = o.get("toughness")
        return zone == "battlefield" and ob.has_type(o, "Creature") and isinstance(
            toughness, int) and (toughness <= 0 or (o.get("damage") or 0) >= toughness)
    return _checks(_count_without(t, lethal))


@expects("cards-conserved")
def _conserved(t: Transition, v: Violation) -> Expected:
    """A spell that left the stack and vanished: its owner's graveyard holds it (what a
    resolved or countered instant or sorcery does). Any other card: where it belongs, the
    invariant cannot tell."""
    assert t.before is not None
    def owned(observation: ob.Observation) -> Counter[tuple[Any, Any]]:
        return Counter((o.get("owner"), o.get("card")) for zone, _, o in ob.objects(observation)
                       if not o.get("token") and not o.get("hidden") and zone != "command")
    gone = owned(t.before) - owned(t.after)
    spells = {(o.get("owner"), o.get("card")) for o in t.before.get("stack") or ()}
    if not gone or not set(gone) <= spells:
        return _none("a card appeared, or vanished from a zone other than the stack: where "
                     "it belongs, the invariant cannot tell")
    checks: dict[str, Any] = {}
    for (owner, card), missing in gone.items():
        there = _names(t.before, owner, "graveyard").count(card)
        checks[f"players.{owner}.graveyard"] = {"contains": [card] * (there + missing)}
    return _checks(checks)


@expects("new-object-on-zone-change")
def _new_object(t: Transition, v: Violation) -> Expected:
    return _none("a case names objects by handle, whatever their ids: an id kept across a "
                 "zone change is not something a case can check")


def _ordered(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[Any] | None:
    """The card names of a zone kept in order whose new objects went on top: what stayed in
    its order, below what came (None if more than one card came, in no order the rules give,
    or came to a zone only drawn from)."""
    was = [o.get("id") for o in before]
    new = [o for o in after if o.get("id") not in was]
    if len({o.get("card") for o in new}) > 1:
        return None
    now = {o.get("id") for o in after}
    return [o.get("card") for o in new] + [o.get("card") for o in before if o.get("id") in now]


def _order_checks(t: Transition, zone: str) -> Expected:
    assert t.before is not None
    checks: dict[str, Any] = {}
    for name in PLAYERS:
        before = ob.player(t.before, name).get(zone) or []
        after = ob.player(t.after, name).get(zone) or []
        expected = _ordered(before, after)
        if expected is None:
            return _none(f"several cards came to {name}'s {zone}: their order, the invariant "
                         "cannot tell")
        if expected != [o.get("card") for o in after]:
            checks[f"players.{name}.{zone}"] = {"cards": expected}
    return _checks(checks)


@expects("library-order-kept")
def _library_order(t: Transition, v: Violation) -> Expected:
    return _order_checks(t, "library")


@expects("graveyard-order-kept")
def _graveyard_order(t: Transition, v: Violation) -> Expected:
    return _order_checks(t, "graveyard")


@expects("graveyard-grows-on-top")
def _graveyard_top(t: Transition, v: Violation) -> Expected:
    return _order_checks(t, "graveyard")


@expects("stack-last-in-first-out")
def _stack(t: Transition, v: Violation) -> Expected:
    assert t.before is not None
    before, after = t.before.get("stack") or [], t.after.get("stack") or []
    if {o.get("id") for o in before} - {o.get("id") for o in after}:
        return _none("an object left the stack: which one should have, the invariant cannot "
                     "tell a resolution from a removal")
    expected = _ordered(before, after)
    if expected is None:
        return _none("several objects went on the stack at once: their order, the invariant "
                     "cannot tell")
    if expected == [o.get("card") for o in after]:
        return _none("the objects out of order are of the same card: a case tells stack "
                     "objects apart by card name only")
    return _checks({"stack": {"cards": expected}})


def _sole(observation: ob.Observation, zone: str, card: Any) -> bool:
    return isinstance(card, str) and _names(observation, None, zone).count(card) == 1


@expects("permanents-have-controllers")
def _controllers(t: Transition, v: Violation) -> Expected:
    """A permanent that just came under no controller: the player who played or cast it."""
    before = set(ob.ids(t.before)) if t.before is not None else set()
    checks: dict[str, Any] = {}
    for obj in t.after.get("battlefield") or ():
        card = obj.get("card")
        if obj.get("phased_out") or obj.get("controller") in PLAYERS:
            continue
        if t.action is None or obj.get("id") in before or not _sole(t.after, "battlefield",
                                                                     card):
            return _none("a permanent shows no controller: who controls it, the invariant "
                         "cannot tell")
        checks[f"battlefield[card={card}].controller"] = t.action.get("player")
    return _checks(checks)


@expects("spells-have-controllers")
def _stack_controllers(t: Transition, v: Violation) -> Expected:
    """A spell just cast: its caster controls it."""
    checks: dict[str, Any] = {}
    for obj in t.after.get("stack") or ():
        card = obj.get("card")
        if obj.get("controller") in PLAYERS:
            continue
        if t.action is None or t.action.get("action") != "cast" or not _sole(
                t.after, "stack", card):
            return _none("an object on the stack shows no controller: who controls it, the "
                         "invariant cannot tell")
        checks[f"stack[card={card}].controller"] = t.action.get("player")
    return _checks(checks)


@expects("hands-are-hidden")
def _hands_hidden(t: Transition, v: Violation) -> Expected:
    for name, view in (t.views or {}).items():
        other = "B" if name == "A" else "A"
        full = ob.player(t.after, other).get("hand") or []
        hand = ob.player(view, other).get("hand") or []
        if len(hand) != len(full) or any(not o.get("hidden") for o in hand):
            return _checks({f"players.{other}.hand": {"hidden": len(full)}}, name)
    return _none("no view shows the hand")


@expects("libraries-are-hidden")
def _libraries_hidden(t: Transition, v: Violation) -> Expected:
    for name, view in (t.views or {}).items():
        for owner in PLAYERS:
            library = ob.player(view, owner).get("library") or []
            shown = [i for i, o in enumerate(library) if i and not o.get("hidden")]
            if shown:
                return _checks({f"players.{owner}.library[{shown[0]}].hidden": True}, name)
    return _none("no view shows the library")


# ---- turns, priority, mana ---------------------------------------------------------------------


@expects("time-moves-forward")
def _forward(t: Transition, v: Violation) -> Expected:
    assert t.before is not None
    before, after = ob.turn(t.before), ob.turn(t.after)
    if after.get("active") != before.get("active") and isinstance(before.get("number"), int):
        return _checks({"turn.number": before["number"] + 1})
    return _none("the step went back within a turn: where a correct engine is, the invariant "
                 "cannot tell")


@expects("priority-or-decision")
def _priority(t: Transition, v: Violation) -> Expected:
    if t.after.get("pending") is not None:
        return _checks({"turn.priority": None})
    return _none("nobody has priority and nothing is pending: which of the two a correct "
                 "engine shows, the invariant cannot tell")


@expects("lands-played-counted")
def _lands(t: Transition, v: Violation) -> Expected:
    assert t.before is not None
    new_turn = ob.turn(t.after).get("number") != ob.turn(t.before).get("number")
    checks: dict[str, Any] = {}
    for name in PLAYERS:
        before = ob.player(t.before, name).get("lands_played")
        if not isinstance(before, int):
            continue
        played = (t.action is not None and t.rejected is None
                  and t.action.get("action") == "play_land" and t.action.get("player") == name)
        expected = (0 if new_turn else before) + (1 if played and not new_turn else 0)
        if ob.player(t.after, name).get("lands_played") != expected:
            checks[f"players.{name}.lands_played"] = expected
    return _checks(checks)


@expects("mana-burn-2004")
def _mana_burn(t: Transition, v: Violation) -> Expected:
    assert t.before is not None
    checks: dict[str, Any] = {}
    for name in PLAYERS:
        left, life = ob.mana(t.before, name), ob.player(t.before, name).get("life")
        if left and isinstance(life, int) and ob.player(t.after, name).get("life") != life - left:
            checks[f"players.{name}.life"] = life - left
    return _checks(checks)


@expects("no-mana-burn-modern")
def _no_burn(t: Transition, v: Violation) -> Expected:
    checks: dict[str, Any] = {}
    for event in t.events:
        if event.get("type") == "life" and event.get("cause") == "mana_burn":
            name = event.get("player")
            life = ob.player(t.after, name).get("life")
            if isinstance(life, int) and isinstance(event.get("amount"), int):
                checks[f"players.{name}.life"] = life - event["amount"]
    return _checks(checks)


@expects("hand-size-after-cleanup")
def _hand_size(t: Transition, v: Violation) -> Expected:
    """The step that ended the turn: a correct engine stops in the cleanup step, asking the
    player to discard."""
    assert t.before is not None
    name = ob.turn(t.before).get("active")
    return _checks({"pending": {"decision": "discard", "player": name}})


@expects("permanents-enter-untapped")
def _untapped(t: Transition, v: Violation) -> Expected:
    assert t.before is not None
    card = next((o.get("card") for o in t.after.get("battlefield") or ()
                 if o.get("id") not in set(ob.ids(t.before)) and o.get("tapped")), None)
    if not _sole(t.after, "battlefield", card):
        return _none("several permanents of that card are on the battlefield: a case names "
                     "the new one only by its card")
    return _checks({f"battlefield[card={card}].tapped": False})


@expects("listed-actions-are-legal")
def _listed(t: Transition, v: Violation) -> Expected:
    return _none(NOT_A_LISTING)
