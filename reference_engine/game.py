"""The reference game's loop: the turn structure, priority, casting, activating and
resolving, state-based actions, and the end of the game, for two players. What it is built on
is in the layers below (state.py lists them): the checks of an action in ``legality.py``, what
happens to objects and players in ``board.py``, combat in ``combat.py``; the editions'
differences are the hooks of ``state.py``, set in ``editions.py``.

The game runs as a coroutine (``_run``) that yields a :class:`Decision` whenever a player must
act (priority, or a decision such as a mulligan or declaring attackers) and receives the chosen
:class:`Action`. ``legal_actions()`` lists what the current decision accepts; ``perform()``
checks an action against it before anything changes, so a rejected action leaves the state
exactly as it was; ``apply()`` is the unchecked path for callers that took the action from
``legal_actions()`` (the self-play loop).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Generator
from typing import Any, NamedTuple

from reference_engine import events as ev
from reference_engine import mana
from reference_engine.actions import Action
from reference_engine.combat import Combat
from reference_engine.constants import (
    BATTLEFIELD,
    CLEANUP,
    COMBAT,
    COMBAT_DAMAGE,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    DRAW,
    END_COMBAT,
    GRAVEYARD,
    LIBRARY,
    MAIN1,
    PERMANENT_TYPES,
    PHASE_OF_STEP,
    PLAYERS,
    PRIORITY,
    STACK,
    UNTAP,
    UPKEEP,
    other,
)
from reference_engine.legality import Legality
from reference_engine.objects import (
    Chars,
    Decision,
    GameObject,
    Resolution,
    StackItem,
)
from reference_engine.state import GameOver
from reference_engine.targets import item_source

_BASIC_ONLY = frozenset(("Basic",))
#: what an Aura may enchant when whether it still may is decided by what it is attached to
#: and that permanent's characteristics alone (see Game._aura_legality_reads_live)
_VERSIONED_ENCHANT_KINDS = frozenset(("creature", "land", "permanent", "creature_or_player",
                                      "player"))
#: loop detection starts after this many resolutions with only passes in between, and
#: declares a draw when one game state has come back this many times, each time round changing
#: the life and poison totals by the same amounts and bringing no player nearer a loss (102.6)
LOOP_WATCH = 12
LOOP_REPEATS = 3


class _SBAs(NamedTuple):
    """The state-based actions found to apply (``Game._sba_found``): who loses, what goes to
    the graveyard, is destroyed, is unattached or loses counters, and the legendary and
    world permanents the legend and world rules look at."""

    losers: list[str]
    to_graveyard: list[GameObject]
    destroyed: list[GameObject]
    unattach: list[GameObject]
    counters: list[GameObject]
    legendary: list[GameObject]
    worlds: list[GameObject]


def _color_of(production: mana.Production) -> str:
    return ("W", "U", "B", "R", "G", "C")[production.index(1)]


class Game(Legality, Combat):
    """One two-player game of one edition. Build it with :mod:`reference_engine.setup`."""

    # -- public API ---------------------------------------------------------------------------

    def perform(self, action: Action) -> None:
        """Check ``action`` and apply it.

        :raises IllegalActionError: the action is not legal now; nothing has changed.
        """
        self.check(action)
        self.apply(self._canonical(action))

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it.

        .. warning:: only for actions taken from :meth:`legal_actions`; anything else may
           corrupt the game. Use :meth:`perform` for untrusted input.
        """
        if action.kind == "concede":
            self._concede(action.player)
            return
        assert self._flow is not None
        answered = self.decision
        if answered is not None and answered.kind != PRIORITY and len(answered.options or ()) > 1:
            self._optional_choice = True  # a loop through this choice is not mandatory
        self.decision = None
        try:
            self.decision = self._flow.send(action)
        except StopIteration:
            self.decision = None

    def start(self, *, begin_game: bool) -> None:
        """Run the game until the first decision. ``begin_game``: the start-of-game procedure
        (draw seven, mulligans) instead of a given state's current step."""
        self._flow = self._run(begin_game)
        try:
            self.decision = next(self._flow)
        except StopIteration:
            self.decision = None






    # -- the game coroutine -------------------------------------------------------------------

    def _run(self, begin_game: bool) -> Generator[Decision, Action, None]:
        try:
            if begin_game:
                yield from self._start_of_game()
                step, turn_based = UNTAP, True
                self._begin_turn(self.first_player, first=True)
            else:
                step, turn_based = self.step, False
            while True:
                yield from self._run_step(step, turn_based)
                turn_based = True
                step = self._next_step(step)
        except GameOver:
            self.priority = None
            return

    def _start_of_game(self) -> Generator[Decision, Action, None]:
        for name in self._turn_order():
            self.draw(name, 7)
        yield from self._mulligans()

    def _turn_order(self) -> tuple[str, str]:
        return self.first_player, other(self.first_player)

    def _hand_into_library(self, name: str) -> None:
        player = self.players[name]
        for obj in list(player.hand):
            self.move(obj, LIBRARY, cause="mulligan")
        self.shuffle(name)

    def _begin_turn(self, active: str, *, first: bool = False, extra: bool = False) -> None:
        if not first:
            self.turn += 1
        self.active = active
        if not extra:
            self.normal_next = other(active)
        self.players[active].last_turn = self.turn
        for player in self.players.values():
            player.lands_played = 0
        self._events.append(ev.Turn(self.turn, active))

    def _next_step(self, step: int) -> int:
        nxt = step + 1
        # The first player skips the whole draw step, priority in it too (modern 103.8a).
        if step == UPKEEP and self.turn == 1:
            nxt = MAIN1  # the player who goes first skips their first draw step (101.5)
        elif step == DECLARE_ATTACKERS and not (self.attackers_declared or any(
                o.attacking for o in self.battlefield)):
            # No creature was declared as an attacker: no blockers or combat damage steps. An
            # attacker removed from combat later does not skip them (modern 508.8, outside the
            # seeds; the 2004 seed is silent, and the modern rule is followed).
            nxt = END_COMBAT
        # The phases and steps in their fixed order (modern 500.1, 501.1, 506.1, 512.1; 2004
        # 301.1, 306.1, 312.1); after the cleanup step the next turn begins.
        ends_phase = nxt > CLEANUP or PHASE_OF_STEP[nxt] != PHASE_OF_STEP[step]
        self._end_step(step, ends_phase)
        if nxt > CLEANUP:
            if self.extra_turns:
                self._begin_turn(self.extra_turns.pop(), extra=True)
            else:
                self._begin_turn(self.normal_next)
            return UNTAP
        return nxt

    def _end_step(self, step: int, ends_phase: bool) -> None:
        # Mana empties as each step and phase ends (modern 500.5), as each phase ends in 2004
        # (300.3); combat's end removes every creature from combat (modern 511.3, 2004 311.1).
        if self.pool_empties_each_step or ends_phase:
            self._empty_pools(burn=self.mana_burn and ends_phase)
        if ends_phase and PHASE_OF_STEP[step] == COMBAT:
            self._end_combat()

    def _empty_pools(self, *, burn: bool) -> None:
        for _, player in self._player_items:
            if any(player.pool):
                break
        else:
            return  # no mana in any pool, as at the end of most steps
        for name in self.apnap_order():
            player = self.players[name]
            unused = sum(player.pool)
            if unused:
                player.pool = [0, 0, 0, 0, 0, 0]
                if burn:
                    # Mana burn is life loss, not damage (2004 rule 300.3).
                    self.lose_life(name, unused, "mana_burn")

    def _run_step(self, step: int, turn_based: bool) -> Generator[Decision, Action, None]:
        self.step = step
        self._events.append(ev.Step(self.turn, step))
        if step == CLEANUP:
            yield from self._cleanup()
            return
        if turn_based:
            yield from self._turn_based_actions(step)
        # Nobody gets priority in the untap step (modern 502.4, 2004 302.3).
        if step == UNTAP:
            return
        # What triggers as a step begins goes on the stack before the active player gets
        # priority in it (modern 500.6, 117.3a; 2004 408.1c).
        if not self.unheard("step"):
            self.fire("step", None, step=step)
        yield from self._priority_round()
        if step == COMBAT_DAMAGE and self.first_strikers is not None:
            yield from self._second_combat_damage_step()

    def _second_combat_damage_step(self) -> Generator[Decision, Action, None]:
        """The combat damage step that follows one in which only first and double strikers
        dealt damage (modern 510.4, 702.7b; 2004 502.2b, 310.1): the first one ends (the
        modern pools empty, 500.5), and in the second the creatures still in combat that had
        neither ability as the first began deal their damage, and so do those that have
        double strike now (modern 702.4c-d, 702.7c; 2004 502.2b-c)."""
        first, self.first_strikers = self.first_strikers, None
        assert first is not None
        self._end_step(COMBAT_DAMAGE, ends_phase=False)
        self._events.append(ev.Step(self.turn, COMBAT_DAMAGE))
        yield from self._combat_damage(self.second_strikers(first))
        if not self.unheard("step"):
            self.fire("step", None, step=COMBAT_DAMAGE)
        yield from self._priority_round()

    def _turn_based_actions(self, step: int) -> Generator[Decision, Action, None]:
        # Each step's turn-based action, before anyone gets priority: phasing, then untapping
        # (modern 502.1, 502.3; 2004 302.1, 302.2), the draw (504.1; 2004 304.1), the
        # declarations (508.1, 509.1; 2004 308.1, 309.1), combat damage (510.1, 510.2; 2004
        # 310.1).
        if step == UNTAP:
            self._phase_in_and_out()
            for obj in self.battlefield:
                if obj.controller == self.active and not obj.phased_out:
                    obj.tapped = False
        elif step == DRAW:
            self.draw(self.active, 1)
        elif step == DECLARE_ATTACKERS:
            yield from self._declare_attackers()
            self.attackers_declared = any(o.attacking for o in self.battlefield)
        elif step == DECLARE_BLOCKERS:
            yield from self._declare_blockers()
        elif step == COMBAT_DAMAGE:
            # A first or double striker in combat makes this the first of two combat damage
            # steps, in which only they deal damage (modern 510.4; 2004 502.2b).
            self.first_strikers = self.first_strike_step()
            yield from self._combat_damage(self.first_strikers)

    def _cleanup(self) -> Generator[Decision, Action, None]:
        # The discard to the maximum hand size (modern 514.1, 2004 314.1), then at once the
        # damage removed and the "until end of turn" effects ended (514.2, 2004 314.2).
        while True:
            maximum = self.player_rules(self.active)["max_hand_size"]
            hand = self.players[self.active].hand
            if maximum is not None and len(hand) > maximum:
                yield from self.discard(self.active, len(hand) - maximum)
            for obj in self.battlefield:
                obj.damage = 0
                obj.regen_shields = 0
            self.shields.clear()
            self._expire("turn")
            if self.permissions:
                self.permissions = {k: v for k, v in self.permissions.items()
                                    if not v.until_end_of_turn and k in self.objects}
            acted = False
            while (yield from self._state_based_actions()):
                acted = True
            if not (acted or self.triggered):
                return
            # State-based actions were performed or abilities triggered: players get priority,
            # then a new cleanup step (2004 314.3; modern 514.3a, outside the seeds). This one
            # ends first: modern, its unused mana empties (500.5, 703.4q); 2004, the phase
            # goes on and the mana stays (300.3).
            yield from self._priority_round()
            self._end_step(CLEANUP, ends_phase=False)
            self._events.append(ev.Step(self.turn, CLEANUP))

    # -- priority, state-based actions and the stack -----------------------------------------------

    def _priority_round(self) -> Generator[Decision, Action, None]:
        """Players act until both pass in succession with an empty stack (217.6d, 300.2;
        modern 500.2, 117.4). The active player receives priority first (modern 117.3a, 2004
        408.1c) and again after each resolution (117.3b); a player who acts keeps it (117.3c),
        one who passes hands it on (117.3d); the state-based actions and triggers are settled
        before anyone receives it (117.5)."""
        player = self.active
        passes = 0
        resolutions = 0  # resolved in a row with nothing but passes in between
        seen: dict[tuple[Any, ...], list[tuple[int, ...]]] = {}
        settled = -1  # the state version at which a pass left the game settled
        while True:
            if settled != self.version:
                # Asked first without a generator: almost every time nothing is to be done.
                # (``_settle`` brings control up to date again: applying the control effects
                # twice over changes nothing the first did not; finding the state-based
                # actions changes nothing.)
                self.refresh_control()
                if self._entry_choices or self.triggered or self._sba_found() is not None:
                    yield from self._settle()
            at = self.version
            if resolutions >= LOOP_WATCH and self.stack and passes == 0:
                # Once per resolution: as the active player receives priority after it.
                self._check_loop(seen)
            self.priority = player
            action = yield self._priority_decision[player]
            self.priority = None
            if action.kind == "pass":
                passes += 1
                if passes == 1:
                    player = other(player)
                    # Passing changes nothing: the state-based actions and triggers just
                    # settled still hold as the other player receives priority. (The version
                    # guards against a state changed from outside between decisions.)
                    settled = at
                    continue
                settled = -1
                passes = 0
                if not self.stack:
                    return
                yield from self._resolve_top()
                resolutions += 1
                player = self.active
            else:
                passes = 0
                resolutions = 0
                settled = -1
                seen.clear()
                yield from self._take_action(action)

    def _check_loop(self, seen: dict[tuple[Any, ...], list[tuple[int, ...]]]) -> None:
        """A loop of mandatory actions is a draw (2004 102.6; modern 104.4b): the same game
        state keeps coming back while the players only pass and the stack keeps resolving.

        "The same" leaves out the players' life and poison totals when they change by the same
        amounts each time round: a loop in which Soul Warden gains a life per Worldgorger
        Dragon repeats a sequence of events with no way to stop, so it is a draw. One that
        brings a player nearer a loss (life falling, poison rising) does stop, when that player
        loses, and goes on to that end.

        A loop in which a player made a choice that had other options (Animate Dead with a
        second creature card to return) contains an optional action and is no draw: the game
        goes on for as long as that player keeps choosing the same way, and stops as soon as
        they choose otherwise (or concede)."""
        if self._optional_choice:
            self._optional_choice = False
            seen.clear()
            return
        state, totals = self.fingerprint()
        history = seen.setdefault(state, [])
        history.append(totals)
        if len(history) < 2:
            return
        changes = [tuple(b - a for a, b in zip(before, after, strict=True))
                   for before, after in itertools.pairwise(history)]
        last = changes[-1]
        # totals are (life, poison) per player: a fall in life or a rise in poison ends it.
        if any(change < 0 for change in last[0::2]) or any(change > 0 for change in last[1::2]):
            del history[:-1]
            return
        if len(changes) >= LOOP_REPEATS - 1 and all(
                change == last for change in changes[-(LOOP_REPEATS - 1):]):
            self._draw_game("loop")

    def fingerprint(self) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """The game state up to object identity (a zone change makes new ids), without the
        players' life and poison totals, and those totals apart."""
        chars = self.chars
        players = tuple(
            (tuple(p.pool), len(p.library), len(p.hand), tuple(o.card.name for o in p.graveyard))
            for p in self.players.values())
        totals = tuple(n for p in self.players.values() for n in (p.life, p.poison))
        def attached(obj: Any) -> Any:
            # What it is attached to, by name and zone: an Animate Dead attached to a card in a
            # graveyard is the same each time round, though the card has a new id.
            host = self.objects.get(obj.attached_to) if obj.attached_to is not None else None
            return (host.card.name, host.zone) if host is not None else obj.attached_to

        # Sorted by repr: attached() gives None beside tuples, which do not compare.
        battlefield = tuple(sorted(
            ((o.card.name, o.controller, o.tapped, o.damage, tuple(sorted(o.counters.items())),
              attached(o), chars(o).power)
             for o in self.battlefield), key=repr))
        stack = tuple((s.kind, s.source_card, s.controller) for s in self.stack)
        exile = tuple(sorted(o.card.name for o in self.exile))
        return (self.turn, self.step, players, battlefield, stack, exile), totals

    def _settle(self) -> Generator[Decision, Action, None]:
        """Before a player receives priority: choices made as permanents entered, then
        state-based actions until none apply, then triggered abilities onto the stack."""
        while True:
            self.refresh_control()
            if self._entry_choices:
                yield from self._make_entry_choices()
                continue
            found = self._sba_found()
            if found is not None and (yield from self._perform_sbas(found)):
                continue
            if self.triggered:
                yield from self._put_triggers_on_stack()
                continue
            return

    def _make_entry_choices(self) -> Generator[Decision, Action, None]:
        while self._entry_choices:
            obj = self._entry_choices.pop(0)
            if obj.id not in self.objects or obj.zone != BATTLEFIELD:
                continue
            if obj.impl.enchant is not None and obj.attached_to is None:
                candidates = self.aura_candidates(obj, obj.controller)
                entered = self._entry_candidates.pop(obj.id, None)
                if entered is not None:
                    # The choice is made as it entered: among what was there then (and, of
                    # what was in a zone it left in the same event, nothing).
                    candidates = [c for c in candidates if c in entered]
                if candidates:
                    target = yield from self.choose(obj.controller, "choose_attachment",
                                                    candidates, {"object": obj.id})
                    self.attach(obj, target)
            if obj.impl.choose_on_entry == "creature_type":
                options = sorted(self.creature_types())
                chosen = yield from self.choose(obj.controller, "choose_creature_type",
                                                options, {"object": obj.id})
                obj.chosen["creature_type"] = chosen
                self.changed()

    def _state_based_actions(self) -> Generator[Decision, Action, bool]:
        """Perform every state-based action that applies, simultaneously; True if any did."""
        found = self._sba_found()
        if found is None:
            return False
        return (yield from self._perform_sbas(found))

    def _sba_found(self) -> _SBAs | None:
        """What the state-based actions would do now, or None if none applies: a plain call,
        no generator, as nothing applies almost every time it is asked. It changes nothing
        but what it remembers (see ``_sba_quiet``), so asking twice is asking once."""
        losers = []
        for name, p in self._player_items:  # a loop, not a comprehension: asked constantly
            if p.life <= 0 or p.drew_from_empty or p.poison >= 10:
                losers.append(name)
        version = self.version
        if self._sba_idle == version and not (losers or self._tokens_outside):
            return None  # quiet, with no Aura to check again and no legend or world rule
        if self._sba_version != version:
            self._sba_candidates()
        # The permanents' state-based actions read their characteristics, counters,
        # attachments, zones and phasing, all of which change only with a new state version,
        # and damage, which changes without one but clears ``_sba_quiet`` when it is dealt
        # (Board.deal_damage). So once every permanent has been checked and none found at
        # this version (quiet), only the Auras whose legality may read anything else
        # (``_sba_live``) need checking again.
        quiet = self._sba_quiet == version
        deathtouched = self._deathtouched
        to_graveyard: list[GameObject] = []
        destroyed: list[GameObject] = []
        unattach: list[GameObject] = []
        counters: list[GameObject] = []
        # The characteristics, ``c``, are those of this version; the candidates are those not
        # phased out at it (phasing makes a new version).
        for obj, c, more in self._sba_live if quiet else self._sba_checks:
            if c.toughness is not None:
                if c.toughness <= 0:
                    to_graveyard.append(obj)  # put into the graveyard, not destroyed
                    continue
                if obj.damage >= c.toughness and "indestructible" not in c.keywords:
                    destroyed.append(obj)
                    continue
                if deathtouched and obj.id in deathtouched and (
                        "indestructible" not in c.keywords):
                    # Dealt damage by a deathtouch source since the last check: destroyed
                    # (modern 704.5h, 702.2b), unless indestructible (702.12b).
                    destroyed.append(obj)
                    continue
                if not more:
                    continue  # nothing else applies to a mere creature
            if "Planeswalker" in c.types and obj.counters.get("loyalty", 0) <= 0:
                to_graveyard.append(obj)
            elif obj.impl.enchant is not None and not self._aura_legal(obj):
                to_graveyard.append(obj)  # 212.4f, 212.4g
            elif obj.attached_to is not None and "Equipment" in c.subtypes and (
                    not self._equipment_legal(obj)):
                unattach.append(obj)  # it stays in play (212.2i)
        if not quiet:
            for obj in self._sba_counted:
                if "+1/+1" in obj.counters and "-1/-1" in obj.counters:
                    counters.append(obj)
            if not (to_graveyard or destroyed or unattach or counters):
                self._sba_quiet = version
                self._sba_live = [check for check in self._sba_checks
                                  if self._aura_legality_reads_live(check[0])]
        legendary = self._sba_legendary
        worlds = self._sba_worlds
        if (self._sba_quiet == version and not self._sba_live and len(legendary) < 2
                and len(worlds) < 2):
            # Nothing but the players and the tokens can change the answer in this version.
            self._sba_idle = version
        if not (losers or to_graveyard or destroyed or unattach or counters
                or len(legendary) > 1 or len(worlds) > 1 or self._tokens_outside):
            # State-based actions were checked: deathtouch damage counts until then only
            # (a creature dealt it that was not destroyed, being indestructible, is not
            # destroyed by a later check). Asked again, this answers the same.
            deathtouched.clear()
            return None
        return _SBAs(losers, to_graveyard, destroyed, unattach, counters, legendary, worlds)

    def _aura_legality_reads_live(self, obj: GameObject) -> bool:
        """Whether ``obj`` is an Aura whose legality may change without a new state version:
        its "enchant" has a restriction of its own (``allows`` may read anything), or names
        a card in a zone a card leaves without a new version (graveyard, exile). Otherwise
        it reads what it is attached to and, of that permanent, its zone, phasing, control
        and characteristics, which all change only with a new version."""
        if obj.impl.enchant is None:
            return False
        spec = self.enchant_spec(obj)
        return spec.allows is not None or spec.kind not in _VERSIONED_ENCHANT_KINDS

    def _perform_sbas(self, found: _SBAs) -> Generator[Decision, Action, bool]:
        """Perform the state-based actions ``_sba_found`` found, all at once (with what the
        legend and world rules choose); True if any applied."""
        losers, to_graveyard, destroyed, unattach, counters, legendary, worlds = found
        self._deathtouched.clear()  # checked: the deathtouch damage so far is accounted for
        if len(legendary) > 1 or len(worlds) > 1:
            to_graveyard.extend((yield from self._rule_victims(legendary, worlds)))
        ceasing = self._tokens_ceasing() if self._tokens_outside else []
        if not (losers or to_graveyard or destroyed or unattach or ceasing or counters):
            return False
        for obj in unattach:
            obj.attached_to = None
            self.changed()
            self._events.append(ev.Unattach(obj.id))
        for obj in counters:
            both = min(obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0))
            self.remove_counters(obj, "+1/+1", both)
            self.remove_counters(obj, "-1/-1", both)
        if losers:
            # "If you would lose the game, instead ..." (a replacement, 217.1d, 400.6); where
            # it and another state-based action move the same object, its controller chooses.
            losers = yield from self._replace_losses(losers, destroyed, to_graveyard)
        # The state-based actions are performed at once, one event (modern 704.3): what
        # replaces a move to a graveyard is decided once, as it begins (modern 614.1a).
        with self.moving_together():
            if self.owners_order_rule_deaths:
                # Destroyed and put into graveyards at once: each owner orders their own
                # (404.3).
                dying = [o for o in destroyed if o.zone == BATTLEFIELD and not self.has(
                    o, "indestructible") and not self._regenerated(o)]
                causes = {o.id: "destroy" for o in dying}
                dying += [o for o in to_graveyard if o.id in self.objects and o not in dying]
                if dying:
                    yield from self.put_into_graveyards(dying, "state_based", causes)
            else:
                for obj in destroyed:
                    self.destroy(obj.id)
                dying = [o for o in to_graveyard if o.id in self.objects]
                if dying:
                    yield from self.put_into_graveyards(dying, "state_based", ordered=False)
        for obj in ceasing:
            self._cease_to_exist(obj)
        if losers:
            reasons = []
            for name in losers:
                player = self.players[name]
                reasons.append("life" if player.life <= 0 else
                               "empty_library" if player.drew_from_empty else "poison")
            self._end_game(losers, reasons[0] if len(set(reasons)) == 1 else "simultaneous")
        return True

    def _sba_candidates(self) -> None:
        """Sort out, once per state version, the permanents a state-based action could apply
        to, each list in battlefield order (the order of the events they make): those with a
        toughness or that are planeswalkers, Auras or Equipment (``_sba_checks``: with their
        characteristics, and whether they are any of the last three), the legendary and the
        world permanents, and those with counters that may annihilate. Which list a permanent
        is in depends on its characteristics and counters, which change only with a new
        version; damage changes without one, and ``_sba_found`` reads it (and loyalty and
        attachments) from the permanents themselves."""
        chars = self.chars
        annihilate = self.counters_annihilate
        checks = []
        legendary = []
        worlds = []
        counted = []
        for obj in self.battlefield:
            if obj.phased_out:
                continue
            c = chars(obj)
            # Worked out once per characteristics: a permanent's are the same object while
            # they are not recomputed, and its kinds depend on them and its card only.
            kinds = c.sba_kinds
            if kinds is None:
                kinds = c.sba_kinds = self._sba_kinds(obj, c)
            if kinds[0]:
                checks.append((obj, c, kinds[1]))
            if kinds[2]:
                legendary.append(obj)
            if kinds[3]:
                worlds.append(obj)
            if annihilate and obj.counters:
                counted.append(obj)
        self._sba_checks = checks
        self._sba_legendary = legendary
        self._sba_worlds = worlds
        self._sba_counted = counted
        self._sba_version = self.version

    def _sba_kinds(self, obj: GameObject, c: Chars) -> tuple[bool, bool, bool, bool]:
        """Which lists of _sba_candidates a permanent with characteristics ``c`` is in: the
        checks (with whether it is a planeswalker, an Aura or Equipment), the legendary, the
        world permanents."""
        more = ("Planeswalker" in c.types or obj.impl.enchant is not None
                or "Equipment" in c.subtypes)
        legend_subtype = self.legend_creature_type
        legendary = world = False
        if legend_subtype or not c.supertypes <= _BASIC_ONLY:
            legendary = "Legendary" in c.supertypes or (legend_subtype and "Legend" in c.subtypes)
            world = "World" in c.supertypes or "Enchant World" in c.subtypes
        elif "Enchant World" in c.subtypes:
            world = True
        return (more or c.toughness is not None, more, legendary, world)

    def _cease_to_exist(self, obj: GameObject) -> None:
        zone = self.zone_list(obj)
        if zone is not None and obj in zone:
            zone.remove(obj)
        self.objects.pop(obj.id, None)
        self.changed()
        self._events.append(ev.CeaseToExist(obj.id, obj.card.name))

    def _end_game(self, losers: list[str], reason: str) -> None:
        result = self.result
        result.over = True
        result.losers = sorted(losers)
        result.winners = [n for n in PLAYERS if n not in losers]
        result.draw = len(losers) == len(PLAYERS)  # both lose at once: a draw (102.4)
        result.reason = reason
        self.priority = None
        self._game_over_effects()
        self._events.append(ev.GameOver(tuple(result.winners), tuple(result.losers),
                                        result.draw, reason))
        raise GameOver

    def _game_over_effects(self) -> None:
        """When the game ends, the winner becomes the owner of every ante card (217.9b)."""
        ante = self.zones_extra.get("ante")
        if ante and len(self.result.winners) == 1:
            for obj in ante:
                obj.owner = self.result.winners[0]

    def _draw_game(self, reason: str) -> None:
        self._end_game(list(PLAYERS), reason)

    def _concede(self, name: str) -> None:
        with contextlib.suppress(GameOver):
            self._end_game([name], "concede")
        self.decision = None
        if self._flow is not None:
            self._flow.close()

    def _take_action(self, action: Action) -> Generator[Decision, Action, None]:
        if action.pay_with is not None:
            # The mana abilities are activated as the cost is paid, inside the casting or
            # activation: what they trigger waits until it is done (2004 409.1f; modern 601.2g).
            plan = self._payment_plan(action)
            assert plan is not None, "an action its sources cannot pay reached the game"
            for source, index, production in plan:
                color = _color_of(production) if self.abilities(source)[index].any_color \
                    else None
                yield from self._activate(Action("activate", action.player, card=source.id,
                                                 ability=index), color=color)
            action = action._replace(pay_with=None)
        kind = action.kind
        if kind == "play_land":
            obj = self.object_of(action)
            self.players[action.player].lands_played += 1
            permission = self.permissions.get(obj.id)
            # "Each land played this way enters tapped": the effect that let the land be
            # played finds the permanent it becomes (modern 400.7i).
            self.move(obj, BATTLEFIELD, controller=action.player, cause="play_land",
                      tapped=permission is not None and permission.enters_tapped)
        elif kind == "cast":
            yield from self._cast(action)
        elif kind == "activate":
            yield from self._activate(action)

    def _pay(self, action: Action, cost: mana.Cost) -> None:
        player = self.players[action.player]
        x = action.x or 0
        if action.payment is not None:
            spend = mana.check_payment(player.pool, cost, x, dict(action.payment))
        else:
            found = mana.default_payment(player.pool, cost, x)
            assert found is not None  # the action was checked: the pool pays
            spend = found
        pool = player.pool
        for slot in range(6):
            pool[slot] -= spend[slot]

    def _cast(self, action: Action) -> Generator[Decision, Action, None]:
        obj = self.object_of(action)
        from_graveyard = obj.zone == GRAVEYARD
        self._pay(action, self.spell_cost(obj, len(action.targets), action.kicked))
        card = self.move(obj, STACK, cause="cast")
        assert card is not None
        card.controller = action.player
        item = StackItem(card.id, "spell", action.player, obj=card, targets=action.targets,
                         x=action.x)
        card.cast_info = {"x": action.x, "kicked": action.kicked,
                          "flashback": from_graveyard}
        card._chars_version = -1  # its mana value on the stack counts X now
        self.stack.append(item)
        self._events.append(ev.Cast(action.player, card.id, card.card.name))
        yield from ()

    def _activate(self, action: Action, *, color: str | None = None
                  ) -> Generator[Decision, Action, None]:
        obj = self.object_of(action)
        spec = self.abilities(obj)[action.ability or 0]
        if spec.cost is not None:
            self._pay(action, spec.cost)
        if spec.tap:
            self.tap(obj)
        if spec.remove_counter is not None:
            self.remove_counters(obj, spec.remove_counter, 1)
        if spec.loyalty is not None:
            obj.loyalty_used = self.turn
            if spec.loyalty >= 0:
                self.add_counters(obj, "loyalty", spec.loyalty)
            else:
                self.remove_counters(obj, "loyalty", -spec.loyalty)
        source = obj
        if spec.unattach:
            equipment = self._granting_equipment(obj, spec)
            if equipment is not None:
                equipment.attached_to = None
                self.changed()
        if spec.discard_hand:
            for card in list(self.players[action.player].hand):
                self.move(card, GRAVEYARD, cause="discard")
        if spec.sacrifice:
            self.sacrifice(obj, action.player)
        if spec.produces is not None or spec.any_color:
            # A mana ability resolves at once, without the stack (405.6c).
            if spec.any_color:
                if color is None:
                    color = yield from self.choose_color(action.player)
                self.add_mana(action.player, (color,))
            else:
                self.add_mana(action.player, spec.produces or ())
            if spec.tap and not self.unheard("tapped_for_mana"):
                self.fire("tapped_for_mana", obj)
            return
        item = StackItem(self._next_id, "ability", action.player, source=source, ability=spec,
                         targets=action.targets, x=action.x)
        self._next_id += 1
        self.stack.append(item)
        self._events.append(ev.Activate(action.player, source.id, spec.text))

    def _resolve_top(self) -> Generator[Decision, Action, None]:
        item = self.stack[-1]
        if item.kind == "combat_damage":
            self.stack.pop()
            self._deal_combat_damage(item.assignments)
            return
        specs = self.target_specs(item)
        source = item_source(item)
        if item.targets and not any(
            self.target_legal(spec, item.controller, t, source)
            for spec, t in zip(specs, item.targets, strict=False)
        ):
            # Every target is illegal: countered on resolution.
            self.stack.remove(item)
            if item.obj is not None:
                self.move(item.obj, GRAVEYARD, cause="countered_on_resolution")
            self._events.append(ev.Fizzle(item.id))
            return
        if item.kind == "spell":
            obj = item.obj
            assert obj is not None
            if PERMANENT_TYPES.intersection(self.chars(obj).types):
                self.stack.remove(item)
                attach = item.targets[0] if obj.impl.enchant is not None else None
                self.move(obj, BATTLEFIELD, controller=item.controller, cause="resolve",
                          attach=attach)
                self._events.append(ev.Resolve(item.id))
                return
            spell = obj.impl.spell
            yield from self._run_effect(spell.effect if spell is not None else None, item)
            if obj.zone == STACK and obj.id in self.objects:
                self.move(obj, GRAVEYARD, cause="resolve")
        else:
            spec = item.ability
            if getattr(spec, "intervening", False) and item.source is not None and not (
                    spec.condition(self, item.source, item.data.get("event"))):
                # An intervening "if" that no longer holds: the ability does nothing (603.4).
                self.stack.remove(item)
                self._events.append(ev.Resolve(item.id))
                return
            if spec is not None and getattr(spec, "optional", False):
                yes = yield from self.choose(item.controller, "may", [True, False],
                                             {"card": item.source_card, "text": spec.text})
                if not yes:
                    self.stack.remove(item)
                    self._events.append(ev.Resolve(item.id))
                    return
            yield from self._run_effect(spec.effect if spec is not None else None, item)
        self._events.append(ev.Resolve(item.id))

    def _run_effect(self, effect: Resolution | None, item: StackItem
                    ) -> Generator[Decision, Action, None]:
        """Carry out a resolving item's effect (with any decisions it asks for), then take the
        item off the stack."""
        if effect is not None:
            outcome = effect(self.card_api, item)
            if outcome is not None:
                yield from outcome
        if item in self.stack:
            self.stack.remove(item)
