"""python-mtg (import ``mtg``) through the engine protocol: ``--engine python-mtg``.

python-mtg is a referee over a Datalog rules engine: ``mtg.engine.env.legal_actions(state)``
lists the moves of whoever decides now (the active player, or the defending player while
blockers are declared), ``env.step(state, move)`` applies one as a pure transition and then
advances the game by itself to the next point where a player has a real choice. The adapter
drives exactly that referee (what ``mtg.Game.push`` does) and translates:

* Set-up: a seeded start (``mtg.Game``'s own construction: decks, seeded shuffle, opening
  hands, the London mulligan, which the engine answers itself with "keep"; the first seat is
  the first player), with ``shuffle: false`` the dealt cards put in the deck's order before
  the first turn begins; or a given state, built from such a game by editing its state dict
  (as ``mtg.Game.from_state`` takes one). No given state departs from the defaults.
* Observation: the engine's relations, as they stand where it waits for a player. Ids are
  the engine's ids (``grizzly_bears_6``), which it keeps across zone changes, so objects carry
  an ``incarnation`` the adapter counts (``observe.incarnation``), and ``events`` reports each
  zone change it sees between two states.
* Priority: the player the engine waits for holds priority; nobody else ever does.
* Casting pays automatically (``pay.auto``): the engine taps what it chooses. A target the
  engine takes in the move (``{"target": id}``) is named there; a target it chooses through its
  choice seam while the spell resolves is given to the seam as the player's answer; a target
  it picks by itself (Lightning Bolt's "any target", an Aura's or Equipment's creature) is
  checked after the move on a copy of the state, and a move whose result is not the one asked
  for is refused as ``unsupported``: the adapter cannot make the engine choose it.
* Choices the engine makes inside a move (a discard in cleanup, a target chosen on
  resolution) are asked of the player the engine's own dispatcher gives them to (the active
  player, or the defender for blocks): the move is suspended there as a pending decision, and
  replayed with the answers once they are known (moves are pure and seeded, so the replay is
  exact).

The adapter never plays a rule itself: what the engine gets wrong shows up as a failure, and
what the engine cannot be asked is ``unsupported``. docs/engines/python-mtg.md has the rest.

The adapter is split by direction: ``actions.py`` (actions in: moves listed and performed),
``observations.py`` (observations and events out), both on ``game.py`` (the game and what they
share); ``PythonMtgEngine`` here adds the handshake and the game's set-up.
"""

from __future__ import annotations

import contextlib
import io
import random
from typing import Any

from conformance.engines.python_mtg import cards as card_check
from conformance.engines.python_mtg.actions import PythonMtgActions
from conformance.engines.python_mtg.game import (
    PLAYERS,
    STEPS,
    BadRequest,
    IllegalAction,
    State,
    Unsupported,
    _slug_of,
)

__all__ = ["BadRequest", "IllegalAction", "PythonMtgEngine", "Unsupported"]


# ---- helpers over the engine's state ----

def _deck_entry(entry: Any) -> tuple[str, int, str | None]:
    if isinstance(entry, str):
        return entry, 1, None
    if not isinstance(entry, dict) or not isinstance(entry.get("card"), str):
        raise BadRequest(f"a deck entry is a card name or an object with card: {entry!r}")
    name: str = entry["card"]
    count = entry.get("count", 1)
    if not isinstance(count, int) or count < 1:
        raise BadRequest(f"count must be a positive whole number: {entry!r}")
    handle = entry.get("handle")
    if handle is not None and count != 1:
        raise BadRequest(f"a deck entry with a handle has no count: {entry!r}")
    return name, count, handle


def _instance_of(state: State, player: str, name: str, taken: set[str]) -> str:
    """An instance of ``name`` in ``player``'s hand or library not named by a handle yet
    (shuffled decks: copies of one card are alike)."""
    from mtg._text import slug

    sid = slug(name)
    owned: list[str] = sorted(c for rel in ("in_hand", "in_library")
                   for (p, c) in state.get(rel, set()) if p == player)
    for obj in owned:
        if obj not in taken and _slug_of(state, obj) == sid:
            return obj
    raise BadRequest(f"no {name} in {player}'s deck for a handle")


def _stack_deck(state: State, player: str, deck: list[str]) -> list[str]:
    """Put ``player``'s cards in the deck's order (top first): the first seven in hand, the
    rest the library, top first. Returns the instance at each position."""
    hand_size = len([1 for (p, _c) in state.get("in_hand", set()) if p == player])
    taken: set[str] = set()
    ids = []
    for name in deck:
        obj = _instance_of(state, player, name, taken)
        taken.add(obj)
        ids.append(obj)
    state["in_hand"] = {(p, c) for (p, c) in state["in_hand"] if p != player} | \
        {(player, c) for c in ids[:hand_size]}
    state["in_library"] = {(p, c) for (p, c) in state["in_library"] if p != player} | \
        {(player, c) for c in ids[hand_size:]}
    state.setdefault("_lib_order", {})[player] = list(ids[hand_size:])
    return ids


class PythonMtgEngine(PythonMtgActions):
    """The protocol's in-process calls over python-mtg."""

    def hello(self, protocol: Any) -> dict[str, Any]:
        import mtg
        from mtg.engine import env

        supported, _ = card_check.supported()
        # Load the engine's rules and card data now, not in the first case's time.
        with contextlib.redirect_stdout(io.StringIO()):
            env.start(self._setup_state({"A": ["Forest"] * 8, "B": ["Forest"] * 8}, 0))
        return {
            "name": "python-mtg", "version": mtg.__version__, "protocol": 1.1,
            "editions": ["modern"],
            "capabilities": ["setup.start", "setup.deck_order", "setup.state", "pay.auto",
                             "observe.stack",
                             "observe.events", "observe.view", "observe.library",
                             "observe.incarnation"],
            "cards": {"modern": list(supported)},
        }

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        from mtg.engine import env

        if edition != "modern":
            raise Unsupported(f"python-mtg plays modern rules only, not {edition}")
        if setup.get("start") != "game":
            return self._given_state(setup)
        for key in ("sideboards", "ante", "format"):
            if setup.get(key):
                raise Unsupported(f"python-mtg has no {key}")
        seed = setup.get("seed", 0)
        if not isinstance(seed, int):
            raise BadRequest("seed must be a whole number")
        first = setup.get("first_player") or random.Random(seed).choice(PLAYERS)
        if first not in PLAYERS:
            raise BadRequest(f"first_player must be A or B, not {first!r}")
        decks = setup.get("decks") or {}
        lists: dict[str, list[str]] = {}
        handled: dict[str, list[tuple[int, str]]] = {}  # player -> [(position, handle)]
        supported = set(card_check.supported()[0])
        for player in PLAYERS:
            lists[player] = []
            handled[player] = []
            for entry in decks.get(player) or []:
                name, count, handle = _deck_entry(entry)
                if name not in supported:
                    raise Unsupported(f"python-mtg does not support the card {name!r}")
                if handle is not None:
                    handled[player].append((len(lists[player]), handle))
                lists[player].extend([name] * count)
        if not lists["A"] or not lists["B"]:
            raise BadRequest("each player needs a deck")
        second = "B" if first == "A" else "A"
        state = self._setup_state({first: lists[first], second: lists[second]}, seed)
        handles: dict[str, str] = {}
        if setup.get("shuffle", True) is False:
            for player in PLAYERS:
                ids = _stack_deck(state, player, lists[player])
                handles.update({h: ids[i] for i, h in handled[player]})
        else:
            for player in PLAYERS:
                for position, handle in handled[player]:
                    handles[handle] = _instance_of(state, player, lists[player][position],
                                                   taken=set(handles.values()))
        self._begin(state, lambda: env.start(state))
        return {"handles": handles}

    def _begin(self, state: State, start: Any) -> None:
        state["_policy"] = self._choose
        self._state = None
        self._suspended = None
        self._declared, self._declaring = [], None
        self._names = {}
        self._events = []
        self._cache = None
        self._reason = None
        self._run(state, None, start)
        # Objects start at incarnation 0 as the harness first sees them; no events before.
        self._zones, self._incarnation, self._graveyard_order = {}, {}, {}
        self._note_zones(self._visible(), initial=True)
        self._events = []

    def _given_state(self, setup: dict[str, Any]) -> dict[str, Any]:
        """A given state (setup.state), by python-mtg's own means: a game is built from the
        cards each player owns (``mtg.engine.game.new_game``), then its state dict is edited,
        as ``mtg.Game.from_state`` takes one: each card put in its zone, the turn, the step,
        the active player and the life totals set. Then the engine enters the step as its own
        referee does (``env._develop_if_main``: the active player's mana is counted from the
        untapped sources, for a main phase or an instant window), and the active player
        decides there."""
        from mtg.engine import env

        turn = setup.get("turn") or {}
        number, active, step = turn.get("number", 1), turn.get("active", "A"), turn.get("step")
        if active not in PLAYERS or step not in STEPS or not isinstance(number, int) \
                or number < 1:
            raise BadRequest("a given state needs turn.number (1 or more), turn.active (A or "
                             "B) and turn.step")
        if step in ("untap", "cleanup", "declare_attackers", "declare_blockers"):
            raise Unsupported(f"python-mtg gives no priority in the {step} step")
        for key in ("exile", "ante", "command", "phased_out", "first_player"):
            if setup.get(key):
                raise Unsupported(f"python-mtg adapter: no {key} in a given state")
        supported = set(card_check.supported()[0])
        placed: list[tuple[str, str, str, str | None]] = []  # (owner, zone, card, handle)
        players = setup.get("players") or {}
        for player, state in players.items():
            if player not in PLAYERS or not isinstance(state, dict):
                raise BadRequest(f"players has A and B only, not {player!r}")
            for key in ("graveyard", "sideboard", "poison", "lands_played"):
                if state.get(key):
                    raise Unsupported(f"python-mtg adapter: no {key} in a given state")
            if any((state.get("mana_pool") or {}).values()):
                raise Unsupported("python-mtg cannot hold mana in a pool in a given state")
            if "max_hand_size" in state:
                raise Unsupported("python-mtg adapter: no max_hand_size in a given state")
            for zone in ("hand", "library"):
                for entry in state.get(zone) or []:
                    name, count, handle = _deck_entry(entry)
                    placed += [(player, zone, name, handle)] * count
        for entry in setup.get("battlefield") or []:
            name, count, handle = _deck_entry(entry)
            owner = entry.get("owner") or entry.get("controller") if isinstance(entry, dict) \
                else None
            if owner not in PLAYERS:
                raise BadRequest(f"a permanent needs its controller (A or B): {entry!r}")
            if isinstance(entry, dict):
                if entry.get("controller", owner) != owner:
                    raise Unsupported("python-mtg adapter: no permanent controlled by a "
                                      "player who does not own it")
                for key in ("tapped", "sick", "damage", "token", "attached_to", "attacking",
                            "blocking"):
                    if entry.get(key):
                        raise Unsupported(f"python-mtg adapter: no {key} permanent in a "
                                          "given state")
                if any((entry.get("counters") or {}).values()):
                    raise Unsupported("python-mtg adapter: no counters in a given state")
            placed += [(owner, "battlefield", name, handle)] * count
        for _owner, _zone, name, _handle in placed:
            if name not in supported:
                raise Unsupported(f"python-mtg does not support the card {name!r}")
        decks = {p: [name for (owner, _z, name, _h) in placed if owner == p] for p in PLAYERS}
        state = self._setup_state({active: decks[active],
                                   "B" if active == "A" else "A": decks["B" if active == "A"
                                                                        else "A"]},
                                  setup.get("seed", 0) if isinstance(setup.get("seed"), int)
                                  else 0)
        taken: set[str] = set()
        zones: dict[str, dict[str, list[str]]] = {p: {"hand": [], "library": [],
                                                      "battlefield": []} for p in PLAYERS}
        handles: dict[str, str] = {}
        for owner, zone, name, handle in placed:
            obj = _instance_of(state, owner, name, taken)
            taken.add(obj)
            zones[owner][zone].append(obj)
            if handle is not None:
                handles[handle] = obj
        state["in_hand"] = {(p, c) for p in PLAYERS for c in zones[p]["hand"]}
        state["in_library"] = {(p, c) for p in PLAYERS for c in zones[p]["library"]}
        state["_lib_order"] = {p: list(zones[p]["library"]) for p in PLAYERS}
        state["on_battlefield"] = {(c,) for p in PLAYERS for c in zones[p]["battlefield"]}
        state["life"] = {(p, int((players.get(p) or {}).get("life", 20))) for p in PLAYERS}
        state["active_player"] = {(active,)}
        state["current_step"] = {(step,)}
        state["_turn"] = number - 1
        state["_sick"] = set()
        state["tapped"] = set()
        state["_land_played"] = set()

        def enter() -> State:
            env._develop_if_main(state)
            return state

        self._begin(state, enter)
        return {"handles": handles}

    def close(self) -> None:
        self._state = None
        self._suspended = None

    @staticmethod
    def _setup_state(decks: dict[str, list[str]], seed: int) -> State:
        """What ``mtg.Game(decks, seed=..., variant="two-player", explicit_lands=True,
        instant_speed=True)`` builds before it starts the game (``env.start``)."""
        from mtg.engine import game as setup

        with contextlib.redirect_stdout(io.StringIO()):
            state: State = setup.new_game(decks, variant="two-player", seed=seed)
        state["_explicit_lands"] = True  # land drops are the player's moves
        state["_instant_speed"] = True  # priority outside the main phases, for instants
        return state
