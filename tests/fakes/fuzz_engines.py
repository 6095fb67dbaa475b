"""Engines that break the fuzzer's invariants: the reference engine with one bug each.

Each class is a thin wrapper around ``reference_engine.engine.ReferenceEngine``: either a
mutant of ``reference_engine.mutants`` (or a patch made the same way) applied around every call,
or one answer of ``new_game``/``perform``/``observe``/``legal_actions``/``events`` altered the
way an engine author could get it wrong. ``tests/test_fuzz_invariants.py`` shows that each
invariant of ``fuzz.invariants`` catches its fake; the fuzzer can drive any of them as
``--engine py:tests.fakes.fuzz_engines:TwoLands`` from the repository root.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any, ClassVar

from reference_engine import mutants
from reference_engine.engine import ReferenceEngine
from reference_engine.errors import IllegalActionError
from reference_engine.events import Draw, ZoneChange
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher

PLAYERS = ("A", "B")
#: the fields of an observed permanent beyond those of a card
PERMANENT_FIELDS = {"controller": None, "tapped": False, "sick": False, "damage": 0,
                    "counters": {}, "attached_to": None, "token": False, "attacking": False,
                    "blocking": None, "phased_out": False}


def _other(name: str) -> str:
    return "B" if name == "A" else "A"


class Fake(ReferenceEngine):
    """The reference engine, its answers copied through JSON by the harness like any
    in-process engine's (a fake edits them)."""

    answers_fresh_json = False

    def _zone_changes(self) -> list[ZoneChange]:
        """The game's zone changes not yet taken by ``events``."""
        assert self.game is not None
        return [e for e in self.game.peek_events() if isinstance(e, ZoneChange)]

    def _performed(self, action: dict[str, Any]) -> list[ZoneChange]:
        """Perform ``action``; the zone changes it made."""
        assert self.game is not None
        seen = len(self.game.peek_events())
        super().perform(action)
        return [e for e in self.game.peek_events()[seen:] if isinstance(e, ZoneChange)]


# ---- mutants (and patches like them), applied around every call ------------------------------


_MISSING = object()


class _Recorder(Patcher):
    """A patcher that remembers what it changed: each attribute set and each function's new
    code, to set again and undo cheaply around every call."""

    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.changes: list[tuple[Any, str, Any]] = []

    def set(self, owner: Any, name: str, value: Any) -> None:
        super().set(owner, name, value)
        self.changes.append((owner, name, value))

    def source(self, func: Callable[..., Any], *edits: tuple[str, str], count: int = 1) -> None:
        super().source(func, *edits, count=count)
        self.changes.append((func, "__code__", func.__code__))


_RECORDED: dict[type, list[tuple[Any, str, Any]]] = {}


class Patched(Fake):
    """The reference engine with a mutant (or a patch made the same way) in force while it
    answers each call, and undone in between, so that the rest of the process sees the
    correct engine."""

    MUTANT: ClassVar[str] = ""

    @classmethod
    def apply(cls, patcher: Patcher) -> None:
        mutants.get(cls.MUTANT).apply(patcher)

    @classmethod
    def _changes(cls) -> list[tuple[Any, str, Any]]:
        changes = _RECORDED.get(cls)
        if changes is None:
            recorder = _Recorder(f"fake {cls.__name__}")
            try:
                cls.apply(recorder)
            finally:
                recorder.undo()
            changes = _RECORDED[cls] = recorder.changes
        return changes

    def _under_patch(self, call: Callable[[], Any]) -> Any:
        undo = []
        try:
            for owner, name, value in self._changes():
                undo.append((owner, name, owner.__dict__.get(name, _MISSING)
                             if isinstance(owner, type) else getattr(owner, name)))
                setattr(owner, name, value)
            return call()
        finally:
            for owner, name, old in reversed(undo):
                if old is _MISSING:
                    delattr(owner, name)
                else:
                    setattr(owner, name, old)

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        return self._under_patch(lambda: super(Patched, self).new_game(edition, setup))

    def legal_actions(self) -> list[dict[str, Any]]:
        return self._under_patch(lambda: super(Patched, self).legal_actions())

    def perform(self, action: dict[str, Any]) -> None:
        self._under_patch(lambda: super(Patched, self).perform(action))

    def observe(self, player: str | None = None) -> dict[str, Any]:
        return self._under_patch(lambda: super(Patched, self).observe(player))

    def events(self) -> list[dict[str, Any]]:
        return self._under_patch(lambda: super(Patched, self).events())


class StartLife25(Patched):
    """Players start at 25 life."""

    MUTANT = "start-life-25"


class OpeningHandSix(Patched):
    """The opening hand has six cards."""

    MUTANT = "opening-hand-six"


class FirstPlayerDraws(Patched):
    """The starting player draws in the draw step of turn 1."""

    MUTANT = "first-player-draws"


class MulliganOffByOne(Patched):
    """A 2004 mulligan draws seven the first time (7 minus the mulligans before it)."""

    MUTANT = "mulligan-off-by-one"


class MulliganStopsAtOne(Patched):
    """A 2004 mulligan is not offered for a hand of one card."""

    MUTANT = "mulligan-stops-at-one"


class MulliganSeatOrder(Patched):
    """Player A decides on mulligans first, whoever starts."""

    MUTANT = "mulligan-seat-order"


class FiveCopiesAllowed(Patched):
    """A constructed deck may hold five copies of a card."""

    MUTANT = "copy-limit-unchecked"


class ZeroLifeSurvives(Patched):
    """A player loses only below 0 life."""

    MUTANT = "zero-life-survives"


class PoisonNeedsEleven(Patched):
    """Ten poison counters do not lose."""

    MUTANT = "poison-needs-eleven"


class DrawFromEmptyIgnored(Patched):
    """Drawing from an empty library does nothing."""

    MUTANT = "draw-from-empty-ignored"


class BothLoseFirstLoses(Patched):
    """When both players lose at once, only the first one checked loses."""

    MUTANT = "both-lose-first-loses"


class TokenSurvives(Patched):
    """A token that leaves the battlefield stays in its new zone. The engine marks tokens
    ``token: true`` in every zone (the protocol requires the field of permanents only, and
    lets an engine add it to any object)."""

    MUTANT = "token-survives-off-battlefield"

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        assert self.game is not None
        zones = [state[z] for state in seen["players"].values()
                 for z in ("hand", "library", "graveyard")] + [seen["exile"]]
        for obj in (o for zone in zones for o in zone):
            if getattr(self.game.objects.get(obj.get("id")), "token", False):
                obj["token"] = True
        return seen


class TokenSurvivesUnmarked(Patched):
    """A token that leaves the battlefield stays in its new zone, shown (as the protocol
    allows) without a ``token`` field there."""

    MUTANT = "token-survives-off-battlefield"


class GraveyardSorted(Patched):
    """A graveyard is kept sorted by card name."""

    MUTANT = "graveyard-kept-sorted"


class SickCreatureAttacks(Patched):
    """A summoning-sick creature may attack."""

    MUTANT = "sick-creature-attacks"


class TwoLands(Patched):
    """A player may play two lands a turn (the land count off by one)."""

    MUTANT = "two-lands-per-turn"


class ManaKeptThroughPhase(Patched):
    """Modern mana pools empty only at the end of a phase."""

    MUTANT = "mana-kept-through-phase-modern"


class NoManaBurn(Patched):
    """No mana burn in 2004."""

    MUTANT = "mana-burn-off"


class OpponentHandUncounted(Patched):
    """A player's view leaves the opponent's hand out instead of counting it."""

    MUTANT = "opponent-hand-not-counted"


class LethalDamageSpared(Patched):
    """The state-based action is off by one: a creature with damage equal to its toughness
    survives (only more damage than its toughness destroys it)."""

    @classmethod
    def apply(cls, patcher: Patcher) -> None:
        patcher.source(Game._sba_found, ("obj.damage >= c.toughness",
                                        "obj.damage > c.toughness"))


# ---- answers altered ------------------------------------------------------------------------


class GameOverKeepsPriority(Fake):
    """Ends the game but still shows the active player holding priority."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        if seen["result"]["over"]:
            seen["turn"]["priority"] = seen["turn"]["active"]
        return seen


class BothLoseNoDraw(Fake):
    """When both players lose, does not call the game a draw."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        result = seen["result"]
        if result["over"] and set(result.get("losers") or ()) == set(PLAYERS):
            result["draw"] = False
        return seen


class PlaysOnAfterTheEnd(Fake):
    """Once the game is over, accepts every action (and does nothing)."""

    def perform(self, action: dict[str, Any]) -> None:
        if self.game is not None and self.game.result.over:
            return
        super().perform(action)


class LandLeftInHand(Fake):
    """A land played still shows in its owner's hand, with its new id, as well as on the
    battlefield."""

    def __init__(self) -> None:
        super().__init__()
        self.ghosts: set[int] = set()

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self.ghosts = set()
        return super().new_game(edition, setup)

    def perform(self, action: dict[str, Any]) -> None:
        moved = self._performed(action)
        if action.get("action") == "play_land":
            self.ghosts |= {e.new_object for e in moved if e.to == "battlefield"}

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        for obj in seen["battlefield"]:
            if obj.get("id") in self.ghosts:
                ghost = {k: v for k, v in obj.items() if k not in PERMANENT_FIELDS}
                seen["players"][obj["owner"]]["hand"].append(ghost)
        return seen


class InstantsVanish(Fake):
    """An instant or sorcery that resolves is gone: it never reaches the graveyard."""

    def perform(self, action: dict[str, Any]) -> None:
        super().perform(action)
        assert self.game is not None
        for state in self.game.players.values():
            state.graveyard[:] = [o for o in state.graveyard
                                  if not {"Instant", "Sorcery"} & set(o.card.types)]


class KeepsIds(Fake):
    """An object keeps its id when it changes zones (in every answer: observations,
    events, legal actions; actions name objects by the ids shown)."""

    ID_KEYS = ("id", "object", "new_object", "card", "attacker", "blocker", "choice",
               "source", "attached_to", "blocking")
    ID_LISTS = ("order", "pay_with", "attackers")

    def __init__(self) -> None:
        super().__init__()
        self.shown: dict[int, int] = {}  # the engine's id -> the id shown
        self.real: dict[int, int] = {}  # the id shown -> the engine's id now

    def _follow(self) -> None:
        for event in self._zone_changes():
            old, new = event.object, event.new_object
            kept = self.shown.get(old, old)
            self.shown[new] = kept
            self.real[kept] = new

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self.shown, self.real = {}, {}
        answer = super().new_game(edition, setup)
        self._follow()
        return _renamed(answer, self.shown, self.ID_KEYS, self.ID_LISTS)

    def perform(self, action: dict[str, Any]) -> None:
        super().perform(_renamed(action, self.real, self.ID_KEYS, self.ID_LISTS))
        self._follow()

    def legal_actions(self) -> list[dict[str, Any]]:
        return _renamed(super().legal_actions(), self.shown, self.ID_KEYS, self.ID_LISTS)

    def observe(self, player: str | None = None) -> dict[str, Any]:
        return _renamed(super().observe(player), self.shown, self.ID_KEYS, self.ID_LISTS)

    def events(self) -> list[dict[str, Any]]:
        return _renamed(super().events(), self.shown, self.ID_KEYS, self.ID_LISTS)


def _renamed(value: Any, mapping: dict[int, int], keys: tuple[str, ...],
             lists: tuple[str, ...], key: str | None = None) -> Any:
    """``value`` with every object id (an int under one of ``keys``, or in a list under one
    of ``lists``) replaced through ``mapping``."""
    if isinstance(value, dict):
        if key == "handles":
            return {h: mapping.get(i, i) for h, i in value.items()}
        return {k: _renamed(v, mapping, keys, lists, k) for k, v in value.items()}
    if isinstance(value, list):
        if key in lists:
            return [mapping.get(i, i) if isinstance(i, int) else i for i in value]
        return [_renamed(v, mapping, keys, lists, key if key == "targets" else None)
                for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and key in keys:
        return mapping.get(value, value)
    return value


class ControllersGraveyard(Fake):
    """A permanent that dies goes to its controller's graveyard, not its owner's."""

    def perform(self, action: dict[str, Any]) -> None:
        assert self.game is not None
        controllers = {o.id: o.controller for o in self.game.battlefield}
        moved = self._performed(action)
        game = self.game
        for event in moved:
            old, new, source, to, owner = (event.object, event.new_object, event.from_zone,
                                           event.to, event.owner)
            controller = controllers.get(old)
            if source == "battlefield" and to == "graveyard" and controller not in (
                    None, owner) and new in game.objects:
                obj = game.objects[new]
                game.players[owner].graveyard.remove(obj)
                game.players[controller].graveyard.append(obj)


class InstantsStayInPlay(Fake):
    """An instant or sorcery that resolves is shown on the battlefield, under its owner's
    control, instead of in the graveyard."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        for name in PLAYERS:
            graveyard = seen["players"][name]["graveyard"]
            spells = [o for o in graveyard if {"Instant", "Sorcery"} & set(o["types"])]
            for obj in spells:
                graveyard.remove(obj)
                seen["battlefield"].append({**obj, **copy.deepcopy(PERMANENT_FIELDS),
                                            "controller": obj["owner"]})
        return seen


class DrawReordersLibrary(Fake):
    """A draw turns the rest of the library upside down (and says nothing of a shuffle)."""

    def perform(self, action: dict[str, Any]) -> None:
        assert self.game is not None
        seen = len(self.game.peek_events())
        super().perform(action)
        for event in self.game.peek_events()[seen:]:
            if isinstance(event, Draw):
                self.game.players[event.player].library.reverse()


class GraveyardBottom(Fake):
    """Cards put into a graveyard go to its bottom."""

    def perform(self, action: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        for event in self._performed(action):
            new, to, owner = event.new_object, event.to, event.owner
            if to == "graveyard" and new in game.objects:
                graveyard = game.players[owner].graveyard  # bottom first
                graveyard.remove(game.objects[new])
                graveyard.insert(0, game.objects[new])


class LandsWithoutController(Fake):
    """Shows no controller for lands (only cast permanents get one)."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        for obj in seen["battlefield"]:
            if "Land" in (obj.get("types") or ()):
                obj["controller"] = None
        return seen


class SpellsWithoutController(Fake):
    """Shows no controller for spells on the stack."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        for obj in seen["stack"]:
            obj["controller"] = None
        return seen


class StackAsQueue(Fake):
    """A spell cast while another waits goes under it: the stack is a queue."""

    def perform(self, action: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        before = {item.id for item in game.stack}
        super().perform(action)
        if len(game.stack) > 1 and game.stack[-1].id not in before:
            game.stack.insert(0, game.stack.pop())  # kept bottom first


class ShowsOpponentsHand(Fake):
    """A player's view shows the cards of the other player's hand."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        if player is not None:
            whole = super().observe()
            seen["players"][_other(player)]["hand"] = whole["players"][_other(player)]["hand"]
        return seen


class ShowsOwnLibrary(Fake):
    """A player's view shows the cards of their own library."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        if player is not None:
            seen["players"][player]["library"] = super().observe()["players"][player]["library"]
        return seen


class TurnsCountedInRounds(Fake):
    """The turn number counts rounds (a turn of each player), so B's first turn is still
    turn 1."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        seen["turn"]["number"] = (seen["turn"]["number"] + 1) // 2
        return seen


class PriorityDuringDecisions(Fake):
    """Shows the player who must make a decision as holding priority as well."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        if isinstance(seen.get("pending"), dict):
            seen["turn"]["priority"] = seen["pending"]["player"]
        return seen


class LandCountNeverResets(Fake):
    """The count of lands played is not reset when a turn begins."""

    def perform(self, action: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        turn = game.turn
        counts = {name: state.lands_played for name, state in game.players.items()}
        super().perform(action)
        if game.turn != turn:
            for name, state in game.players.items():
                state.lands_played += counts[name]


class ModernManaBurn(Fake):
    """Burns unused mana at the end of a phase in the modern edition too."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        answer = super().new_game(edition, setup)
        assert self.game is not None
        self.game.mana_burn = True  # type: ignore[misc]
        return answer


class NoCleanupDiscard(Fake):
    """The cleanup step never makes the active player discard (the maximum hand size shows,
    but nothing enforces it)."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        answer = super().new_game(edition, setup)
        assert self.game is not None
        for state in self.game.players.values():
            state.max_hand_size = None
        return answer

    def observe(self, player: str | None = None) -> dict[str, Any]:
        seen = super().observe(player)
        for name in PLAYERS:
            if seen["players"][name]["max_hand_size"] is None:
                seen["players"][name]["max_hand_size"] = 7
        return seen


class LandsEnterTapped(Fake):
    """A land played from the hand enters the battlefield tapped."""

    def perform(self, action: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        moved = self._performed(action)
        if action.get("action") == "play_land":
            for event in moved:
                if event.to == "battlefield" and event.new_object in game.objects:
                    game.objects[event.new_object].tapped = True


class CountsRejectedLandPlays(Fake):
    """Counts a land play before checking it: a rejected land play still counts."""

    def perform(self, action: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        try:
            super().perform(action)
        except IllegalActionError:
            if action.get("action") == "play_land" and action.get("player") in game.players:
                game.players[action["player"]].lands_played += 1
            raise


class ListsLandsAnyTime(Fake):
    """Lists a land play for each land in the hand of the player with priority, whatever
    the step (and rejects it where the rules forbid it)."""

    def legal_actions(self) -> list[dict[str, Any]]:
        listed = super().legal_actions()
        seen = super().observe()
        holder = seen["turn"]["priority"]
        if holder in PLAYERS and seen["pending"] is None:
            for obj in seen["players"][holder]["hand"]:
                play = {"action": "play_land", "player": holder, "card": obj["id"]}
                if "Land" in obj["types"] and play not in listed:
                    listed.append(play)
        return listed


class IgnoresWhoActs(Fake):
    """Never checks who sends an action: any player's action is taken as the action of the
    player who holds priority or must decide."""

    def perform(self, action: dict[str, Any]) -> None:
        decision = self.game.decision if self.game is not None else None
        if decision is not None and action.get("action") != "concede":
            action = {**action, "player": decision.player}
        super().perform(action)


class SharedShuffler(Fake):
    """Deals decks with one random generator for the whole process, seeded once: the same
    setup deals another game each time (and ``shuffle: false`` is not honoured)."""

    DEALER: ClassVar[random.Random] = random.Random(2004)

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        setup = copy.deepcopy(setup)
        for deck in (setup.get("decks") or {}).values():
            self.DEALER.shuffle(deck)
        return super().new_game(edition, setup)


class CrashesOnLandPlay(Fake):
    """Raises an exception of its own (an engine_error) once a land has been played."""

    def perform(self, action: dict[str, Any]) -> None:
        super().perform(action)
        if action.get("action") == "play_land":
            raise IndexError("list index out of range (lands_in_play)")


class CountsStarts(Fake):
    """No bug: counts how many times it was started (each start makes an instance)."""

    starts: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).starts += 1
