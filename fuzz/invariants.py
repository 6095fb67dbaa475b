"""Invariants: what must hold after every step of any game, each naming the rules it checks.

An invariant sees one ``Transition``: the observation before a step and after it, the action
(if any) and whether the engine rejected it, the events the step produced, the legal actions
listed before it, and each player's view after it. It yields a ``Violation`` for each way the
engine broke it. An invariant that needs a capability (``observe.events``) is skipped on an
engine that does not declare it.

Protocol invariants (an illegal action changes nothing; a listed action is accepted) check the
promises of the protocol rather than a numbered rule: their ``rules`` are empty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from fuzz import observations as ob
from fuzz.observations import PLAYERS, Observation
from spec import editions as spec_editions

EDITIONS = tuple(spec_editions.EDITIONS)


@dataclass(frozen=True)
class Transition:
    """One step of a game, as the invariants see it."""

    edition: str
    capabilities: frozenset[str]
    after: Observation
    before: Observation | None = None  # None: the first observation of the game
    action: dict[str, Any] | None = None
    rejected: str | None = None  # the illegal_action reason, if the action was rejected
    events: list[dict[str, Any]] = field(default_factory=list)
    legal: list[dict[str, Any]] | None = None  # listed before the action
    views: dict[str, Observation] | None = None  # each player's view after
    seeded: bool = True  # the game began with a seeded start (not a given state)
    #: the action was listed as legal before it was performed
    listed: bool = False
    #: at the start of a game: its setup; why the engine refused it (illegal_setup), if it
    #: did (``after`` is then empty and only the setup's invariants apply); the deliberate
    #: flaw that makes the setup illegal, if any (a ``strategies.Flaw``)
    setup: dict[str, Any] | None = None
    refused: str | None = None
    flaw: Any = None

    # Read by many invariants: computed once a step.
    @cached_property
    def after_objects(self) -> list[tuple[str, str | None, dict[str, Any]]]:
        return list(ob.objects(self.after))

    @cached_property
    def priority_given(self) -> bool:
        """A player holds priority after the step (so state-based actions were checked)."""
        return ob.turn(self.after).get("priority") in PLAYERS


@dataclass(frozen=True)
class Violation:
    invariant: str
    rules: tuple[str, ...]
    message: str
    #: paths of the observation after the step and the values a correct engine shows there,
    #: when the invariant can say (they become the replay case's final expect)
    checks: dict[str, Any] = field(default_factory=dict)
    #: the step's action is one a correct engine rejects (its replay case expects that)
    forbidden: bool = False

    def describe(self) -> str:
        rules = f" ({', '.join(self.rules)})" if self.rules else " (protocol)"
        return f"{self.invariant}{rules}: {self.message}"


Check = Callable[[Transition], Iterable[Violation | str]]


@dataclass(frozen=True)
class Invariant:
    id: str
    rules: tuple[str, ...]
    description: str
    check: Check
    needs: frozenset[str] = frozenset()
    editions: tuple[str, ...] = EDITIONS
    #: checked once per game by the fuzzer (replaying it), not after each step
    whole_game: bool = False
    #: checks the setup itself: applies to a refused setup too (no other invariant does)
    of_setup: bool = False

    def applies(self, transition: Transition) -> bool:
        return (not self.whole_game and transition.edition in self.editions
                and self.needs <= transition.capabilities
                and (self.of_setup or transition.refused is None))

    def violations(self, transition: Transition) -> list[Violation]:
        found = []
        for item in self.check(transition):
            found.append(Violation(self.id, self.rules, item) if isinstance(item, str)
                         else item)
        return found


INVARIANTS: dict[str, Invariant] = {}


def invariant(invariant_id: str, rules: str, description: str, *, needs: Iterable[str] = (),
              editions: Iterable[str] = EDITIONS, whole_game: bool = False,
              of_setup: bool = False) -> Callable[[Check], Check]:
    """Register the decorated check; ``rules`` is space-separated ("" for the protocol)."""
    def register(check: Check) -> Check:
        if invariant_id in INVARIANTS:
            raise ValueError(f"invariant {invariant_id!r} is registered twice")
        INVARIANTS[invariant_id] = Invariant(invariant_id, tuple(rules.split()), description,
                                             check, frozenset(needs), tuple(editions),
                                             whole_game, of_setup)
        return check
    return register


def check_all(transition: Transition, chosen: Iterable[Invariant] | None = None,
              checked: Counter[str] | None = None) -> list[Violation]:
    """Every violation of the chosen invariants (default: all) in one step; ``checked``
    counts, per invariant, the steps it applied to."""
    found: list[Violation] = []
    for item in chosen if chosen is not None else INVARIANTS.values():
        if item.applies(transition):
            if checked is not None:
                checked[item.id] += 1
            found.extend(item.violations(transition))
    return found


# ---- the start of the game --------------------------------------------------------------------


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



@invariant("starting-life", "cr2004:101.3",
           "A seeded game begins with each player at 20 life.")
def _starting_life(t: Transition) -> Iterator[Violation]:
    if t.before is None and t.seeded:
        for name in PLAYERS:
            life = ob.player(t.after, name).get("life")
            if life != 20:
                yield Violation("starting-life", ("cr2004:101.3",),
                                f"{name} begins the game with {life} life",
                                {f"players.{name}.life": 20})


@invariant("opening-hand-seven", "cr2004:101.3 cr2004:217.3a modern:402.1",
           "Each player's opening hand in a seeded game has seven cards.")
def _opening_hand(t: Transition) -> Iterator[Violation]:
    if t.before is None and t.seeded:
        for name in PLAYERS:
            hand = ob.player(t.after, name).get("hand") or []
            if len(hand) != 7:
                yield Violation("opening-hand-seven",
                                ("cr2004:101.3", "cr2004:217.3a", "modern:402.1"),
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


@invariant("first-player-skips-draw", "cr2004:101.5",
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


# ---- winning and losing ---------------------------------------------------------------------


@invariant("zero-life-loses", "cr2004:102.1",
           "A player at 0 or less life has lost by the time a player would get priority.")
def _zero_life(t: Transition) -> Iterator[Violation]:
    winners = set((t.after.get("result") or {}).get("winners") or ())
    for name in winners:
        # Nobody wins at 0 life or with ten poison counters: they lost first (a loss that
        # cannot wait for priority: the game may end at once).
        state = ob.player(t.after, name)
        life, poison = state.get("life"), state.get("poison")
        if (isinstance(life, int) and life <= 0) or (isinstance(poison, int) and poison >= 10):
            yield Violation("zero-life-loses", ("cr2004:102.1",),
                            f"{name} won at {life} life and {poison or 0} poison",
                            {"result.winners": {"not_contains": [name]}})
    if not t.priority_given:
        return
    for name in PLAYERS:
        life = ob.player(t.after, name).get("life")
        if isinstance(life, int) and life <= 0 and name not in _losers(t.after):
            yield Violation("zero-life-loses", ("cr2004:102.1",),
                            f"{name} is at {life} life and has not lost",
                            {"result.over": True, "result.losers": {"contains": [name]}})


@invariant("ten-poison-loses", "cr2004:102.8",
           "A player with ten or more poison counters has lost by the time a player would get "
           "priority.")
def _poison(t: Transition) -> Iterator[Violation]:
    if not t.priority_given:
        return
    for name in PLAYERS:
        poison = ob.player(t.after, name).get("poison")
        if isinstance(poison, int) and poison >= 10 and name not in _losers(t.after):
            yield Violation("ten-poison-loses", ("cr2004:102.8",),
                            f"{name} has {poison} poison counters and has not lost",
                            {"result.over": True, "result.losers": {"contains": [name]}})


@invariant("empty-library-draw-loses", "cr2004:102.2",
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
    if library == [] and active not in _losers(t.after):
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


# ---- zones and objects ------------------------------------------------------------------------


@invariant("one-zone-per-object", "cr2004:217.1 modern:400.1",
           "Every object is in exactly one zone: no id shows twice.")
def _one_zone(t: Transition) -> Iterator[str]:
    seen = Counter([o['id'] for _, _, o in t.after_objects if 'id' in o])
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
    before = ob.cards_by_owner(t.before)
    after = ob.cards_by_owner(t.after, t.after_objects)
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


@invariant("tokens-only-on-battlefield", "cr2004:216.3 cr2004:217.8d",
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
        if {"Instant", "Sorcery"} & set(obj.get("types") or ()):
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
    assert t.before is not None
    if t.action is not None and t.action.get("action") == "mulligan":
        return True  # the hand is shuffled into the library (cr2004 101.4; modern 103.5)
    shufflers = _cards_saying("shuffle")
    if not shufflers:
        return False
    acting = t.action.get("card") if t.action else None
    for zone in ("stack", "battlefield"):
        for obj in t.before.get(zone) or ():
            if obj.get("card") in shufflers and (zone == "stack" or obj.get("id") == acting):
                return True
    if t.before.get("pending") is not None:
        # A choice while something resolves: an engine may already have taken the ability
        # off the stack, its source is anywhere public.
        public = [o for zone, _, o in ob.objects(t.before)
                  if zone in ("graveyard", "exile", "battlefield", "stack")]
        if any(o.get("card") in shufflers for o in public):
            return True
    return any(e.get("card") in shufflers for e in t.events)


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


@invariant("hands-are-hidden", "modern:402.3",
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


# ---- turns, priority, mana --------------------------------------------------------------------


@invariant("time-moves-forward", "cr2004:300.1",
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


@invariant("lands-played-counted", "cr2004:212.6b",
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


@invariant("one-land-per-turn", "cr2004:212.6b",
           "A player plays one land a turn unless an effect allows more: a second land play is "
           "rejected when no permanent on the battlefield allows additional ones.")
def _one_land(t: Transition) -> Iterator[Violation]:
    if t.before is None or t.action is None or t.rejected is not None:
        return
    if t.action.get("action") != "play_land":
        return
    name = t.action.get("player")
    played = ob.player(t.before, name).get("lands_played")
    extra = _cards_saying("additional land")
    allowed = any(o.get("card") in extra for o in t.before.get("battlefield") or ())
    if isinstance(played, int) and played >= 1 and not allowed:
        yield Violation("one-land-per-turn", ("cr2004:212.6b",),
                        f"{name} played a second land this turn ({t.action.get('card')})",
                        forbidden=True)


@invariant("summoning-sick-cannot-attack", "cr2004:212.3d",
           "A creature its controller has not controlled since their turn began cannot attack "
           "(unless it has haste).")
def _sick_attack(t: Transition) -> Iterator[Violation]:
    if t.before is None or t.action is None or t.rejected is not None:
        return
    if t.action.get("action") != "attack":
        return
    hasty = _cards_saying("haste")
    if any(o.get("card") in hasty for o in t.before.get("battlefield") or ()):
        return  # a creature may have haste, or be given it
    for obj in t.before.get("battlefield") or ():
        if obj.get("id") == t.action.get("card") and obj.get("sick"):
            yield Violation("summoning-sick-cannot-attack", ("cr2004:212.3d",),
                            f"{obj.get('card')}, summoning sick, was declared as an attacker",
                            forbidden=True)


@invariant("mana-empties", "cr2004:300.3",
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
            yield Violation("mana-empties", ("cr2004:300.3",),
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
        if left and burned < left and t.action is not None and t.action.get("action") == "pass":
            yield f"{name} had {left} mana at the end of a phase and burned {burned}"


@invariant("no-mana-burn-modern", "cr2004:300.3",
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
    entering_tapped = _cards_saying("enters the battlefield tapped") | _cards_saying(
        "comes into play tapped")
    if _card_of(t.before, t.action.get("card")) in entering_tapped:
        return  # a land that says it enters tapped
    before = set(ob.ids(t.before))
    for obj in t.after.get("battlefield") or ():
        if obj.get("id") not in before and "Land" in (obj.get("types") or ()) and \
                obj.get("tapped"):
            yield f"{obj.get('card')} was played and entered tapped"


@invariant("lethal-damage-destroys", "modern:405.6f",
           "State-based actions are performed before a player gets priority: no creature with "
           "0 toughness or lethal damage is left on the battlefield then.")
def _lethal(t: Transition) -> Iterator[str]:
    if ob.holds_priority(t.after) is None:
        return
    sturdy = _cards_saying("indestructible")
    if any(str(o.get("card")).removesuffix(" emblem") in sturdy
           for zone in ("battlefield", "command") for o in t.after.get(zone) or ()):
        return  # a creature may be indestructible (lethal damage then destroys nothing)
    for obj in t.after.get("battlefield") or ():
        if obj.get("phased_out") or "Creature" not in (obj.get("types") or ()):
            continue
        toughness, damage = obj.get("toughness"), obj.get("damage") or 0
        if isinstance(toughness, int) and toughness <= 0:
            yield f"{obj.get('card')} has toughness {toughness} and is still on the battlefield"
        elif isinstance(toughness, int) and damage >= toughness > 0:
            yield (f"{obj.get('card')} has {damage} damage with toughness {toughness} and is "
                   "still on the battlefield")


# ---- the protocol's promises ------------------------------------------------------------------


@invariant("illegal-action-changes-nothing", "",
           "An action rejected as illegal leaves the game exactly as it was.")
def _unchanged(t: Transition) -> Iterator[str]:
    if t.rejected is not None and t.before is not None and t.after != t.before:
        yield f"{t.action} was rejected ({t.rejected}) but the observation changed"


@invariant("listed-actions-are-legal", "",
           "An action legal_actions listed is accepted.", needs=("actions.legal",))
def _listed(t: Transition) -> Iterator[str]:
    if t.listed and t.rejected is not None:
        yield f"{t.action} was listed as legal but rejected ({t.rejected})"


@invariant("illegal-action-rejected", "",
           "An action the rules forbid (another player's, an object that does not exist, a "
           "land play of a card that is no land in the hand) is rejected.")
def _rejected(t: Transition) -> Iterator[Violation]:
    if t.action is not None and not t.listed and t.legal is not None and t.rejected is None:
        yield Violation("illegal-action-rejected", (), f"{t.action} was accepted",
                        forbidden=True)


@invariant("same-game-same-trace", "",
           "The same setup and actions give the same game: the fuzzer plays a game again "
           "from its setup and compares the end.", whole_game=True)
def _same_game(t: Transition) -> Iterator[str]:
    return iter(())  # checked by fuzz.machine, which replays whole games


def _card_of(observation: Observation, object_id: Any) -> str | None:
    for _, _, obj in ob.objects(observation):
        if obj.get("id") == object_id:
            return obj.get("card")
    return None


@cache
def _cards_saying(words: str) -> frozenset[str]:
    """The names of the pool's cards whose text says ``words`` (any case, any edition)."""
    from spec.cardpool import default_pool

    return frozenset(name for per_edition in default_pool().cards.values()
                     for name, card in per_edition.items() if words in card.text.lower())


def _losers(observation: Observation) -> set[str]:
    result = observation.get("result") or {}
    return set(result.get("losers") or ()) if result.get("over") else set()


def rule_tagged() -> list[Invariant]:
    """The invariants that check numbered rules (not only the protocol)."""
    return [i for i in INVARIANTS.values() if i.rules]
