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
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from conformance.engines.python_mtg import cards as card_check

#: python-mtg's game state, as its referee keeps it: relations (name -> set of rows, such as
#: ``in_hand: {("A", "forest_2"), ...}``) and its own bookkeeping (``_turn``, ``_policy``, ...).
#: The engine is untyped: its values are what it makes them.
State = dict[str, Any]
#: A row of one of the engine's relations, such as ``("grizzly_bears_14", "creature")``.
Row = tuple[Any, ...]
#: A move of the engine's referee: ``("pass",)``, ``("play", player, card)``, ``("cast",
#: player, card, choices)``, ``("activate", player, ability row, choices)``, ``("attack",
#: attackers)``, ``("block", pairs)``.
Move = tuple[Any, ...]
#: An answer to a choice the engine makes inside a move: (its choice-seam key, the value).
Answer = tuple[str, Any]

PLAYERS = ("A", "B")
STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
         "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end", "cleanup")
PHASE_OF = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
            "precombat_main": "precombat_main", "beginning_of_combat": "combat",
            "declare_attackers": "combat", "declare_blockers": "combat",
            "combat_damage": "combat", "end_of_combat": "combat",
            "postcombat_main": "postcombat_main", "end": "ending", "cleanup": "ending"}
COLOUR = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
MANA = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "C"}
#: The engine's choice-seam keys the adapter asks the players, as protocol decisions.
DECISIONS = {"cleanup_discard": "discard", "discard": "discard", "target": "choose_targets",
             "sacrifice": "choose_sacrifice"}
#: Effects whose target the engine picks itself while the spell or ability resolves.
SELF_TARGETED = ("any_target", "target_player", "target_player_or_planeswalker",
                 "target_creature", "target_spell")


class IllegalAction(Exception):
    protocol_error = "illegal_action"

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason.replace("_", " "))
        self.reason = reason


class Unsupported(Exception):
    protocol_error = "unsupported"


class BadRequest(Exception):
    protocol_error = "bad_request"


class _Decision(BaseException):
    """Raised from the engine's choice seam to suspend a move at a choice the protocol makes a
    pending decision. A BaseException, so that no ``except Exception`` in the engine eats it."""

    def __init__(self, key: str, options: list[Any], state: State) -> None:
        super().__init__(key)
        self.key = key
        self.options = options
        self.state = state


class _NotAnOption(BaseException):
    """An answer given in advance (a target an action named) is not among the engine's options."""

    def __init__(self, key: str, value: Any, options: list[Any]) -> None:
        super().__init__(key)
        self.key, self.value, self.options = key, value, options


@dataclass
class _Suspended:
    """A move waiting for the answers to the choices the engine makes inside it."""

    base: State  # the state before the move
    move: Move | None  # the engine move (None: the start of the game)
    answers: list[Answer]
    decision: _Decision
    player: str  # who the engine's dispatcher gives the choice to


class PythonMtgEngine:
    """The protocol's in-process calls over python-mtg."""

    def __init__(self) -> None:
        self._state: State | None = None
        self._suspended: _Suspended | None = None
        self._answers: list[Answer] = []
        self._answer_at = 0
        self._declared: list[Any] = []  # attackers, or (blocker, attacker) pairs, so far
        self._declaring: tuple[int, str] | None = None  # (turn, step) of that declaration
        self._names: dict[str, str] = {}
        self._zones: dict[str, str] = {}
        self._incarnation: dict[str, int] = {}
        self._graveyard_order: dict[str, list[str]] = {}
        self._events: list[dict[str, Any]] = []
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._reason: str | None = None
        self._trial_decision: _Decision | None = None

    # ---- the protocol ----

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

    def legal_actions(self) -> list[dict[str, Any]]:
        from mtg.engine import env

        if self._state is None:
            return []
        if self._suspended is not None:
            return self._decision_actions(self._suspended)
        state = self._state
        if env.is_terminal(state):
            return []
        out: list[dict[str, Any]] = []
        step = _step(state)
        moves = env.legal_actions(state)
        if step == "declare_attackers":
            ap = _active(state)
            options = [set(m[1]) for m in moves if m[0] == "attack"]
            declared = set(self._current_declaration())
            for creature in sorted(set().union(*options) - declared):
                if any(declared | {creature} <= o for o in options):
                    out.append({"action": "attack", "player": ap, "card": creature})
            if any(o == declared for o in options):
                out.append({"action": "done", "player": ap})
            return out
        if step == "declare_blockers":
            defender = env.to_move(state)
            options = [set(m[1]) for m in moves if m[0] == "block"]
            declared = set(self._current_declaration())
            for blocker, attacker in sorted(set().union(*options) - declared):
                if any(declared | {(blocker, attacker)} <= o for o in options):
                    out.append({"action": "block", "player": defender, "card": blocker,
                                "attacker": attacker})
            if any(o == declared for o in options):
                out.append({"action": "done", "player": defender})
            return out
        for move in moves:
            if move[0] == "pass":
                out.append({"action": "pass", "player": env.to_move(state)})
            elif move[0] == "play":
                out.append({"action": "play_land", "player": move[1], "card": move[2]})
            elif move[0] == "cast" and set(move[3]) <= {"target"}:
                action = {"action": "cast", "player": move[1], "card": move[2],
                          "targets": [], "pay_with": "auto"}
                if "target" in move[3]:
                    action["targets"] = [{"object": move[3]["target"]}]
                elif _self_targeted(state, move[2]):
                    continue  # its target is the engine's own pick: no target to name
                out.append(action)
            elif move[0] == "activate" and set(move[3]) <= {"target"}:
                index = _ability_index(state, move[2])
                if index is None or _self_targeted_ability(move[2]):
                    continue
                action = {"action": "activate", "player": move[1], "card": move[2][1],
                          "ability": index, "targets": [], "pay_with": "auto"}
                if "target" in move[3]:
                    action["targets"] = [{"object": move[3]["target"]}]
                out.append(action)
        return out

    def perform(self, action: dict[str, Any]) -> None:
        from mtg.engine import env

        if self._state is None:
            raise BadRequest("no game: call new_game first")
        if not isinstance(action, dict):
            raise BadRequest("an action is an object")
        kind, player = action.get("action"), action.get("player")
        if player not in PLAYERS:
            raise BadRequest(f"player must be A or B, not {player!r}")
        if kind == "concede":
            raise Unsupported("python-mtg has no concession")
        if self._suspended is not None:
            self._answer(self._suspended, action)
            return
        state = self._state
        if env.is_terminal(state):
            raise IllegalAction("game_over", "the game is over")
        if kind in ("keep", "mulligan"):
            raise IllegalAction("no_mulligan_decision", "no opening-hand decision is pending "
                                "(python-mtg keeps the opening hands itself)")
        step = _step(state)
        decider = env.to_move(state)
        if step in ("declare_attackers", "declare_blockers"):
            self._declare(state, step, decider, action)
            return
        if kind in ("attack", "block", "done", "order_blockers", "discard", "choose"):
            raise IllegalAction("no_pending_decision", f"no decision for {kind} is pending")
        if player != decider:
            raise IllegalAction("not_your_priority", f"{decider} has priority, not {player}")
        if kind == "pass":
            self._move(("pass",))
        elif kind == "play_land":
            self._play_land(state, player, action)
        elif kind == "cast":
            self._cast(state, player, action)
        elif kind == "activate":
            self._activate(state, player, action)
        else:
            raise BadRequest(f"unknown action {kind!r}")

    def observe(self, player: str | None = None) -> dict[str, Any]:
        if self._state is None:
            raise BadRequest("no game: call new_game first")
        if player is not None and player not in PLAYERS:
            raise BadRequest(f"player must be A or B, not {player!r}")
        full = self._observation()
        return full if player is None else self._view(full, player)

    def events(self) -> list[dict[str, Any]]:
        found, self._events = self._events, []
        return found

    def close(self) -> None:
        self._state = None
        self._suspended = None

    def _current(self) -> State:
        """The state the game is at: the moves and the observations need a game."""
        if self._state is None:
            raise BadRequest("no game: call new_game first")
        return self._state

    # ---- set-up ----

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

    # ---- moves ----

    def _choose(self, state: State, key: str, options: Any, default: Any) -> Any:
        """The engine's choice seam (``state["_policy"]``): the answers the players gave (or
        the target an action named), in order, then a suspension at the first choice not
        answered yet. A choice with a single option is not asked."""
        if key in ("attackers", "blocks", "mulligan", "bottom"):
            return default  # combat declarations come forced with their move
        choices = list(options) if options is not None else None
        if self._answer_at < len(self._answers) and self._answers[self._answer_at][0] == key:
            value = self._answers[self._answer_at][1]
            self._answer_at += 1
            if choices is not None and value not in choices:
                raise _NotAnOption(key, value, choices)
            return value
        if choices is not None and len(choices) <= 1:
            return choices[0] if choices else default
        from mtg import driver

        raise _Decision(key, choices or [], driver.clone_state(state))

    def _move(self, move: Move, answers: list[Answer] | None = None) -> None:
        from mtg.engine import env

        state = self._current()
        self._run(state, move, lambda: env.step(state, move), answers)

    def _run(self, base: State, move: Move | None, call: Callable[[], State],
             answers: list[Answer] | None = None) -> None:
        self._answers = list(answers or [])
        self._answer_at = 0
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                new = call()
        except _Decision as decision:
            if decision.key not in DECISIONS:
                raise Unsupported(f"python-mtg makes a choice the adapter cannot ask "
                                  f"({decision.key}: {decision.options[:6]})") from None
            player = _dispatch(decision.state, decision.key)
            self._suspended = _Suspended(base, move, list(self._answers), decision, player)
            self._visible_changed(decision.state)
            return
        except _NotAnOption as refused:
            raise IllegalAction("illegal_target" if refused.key == "target" else "not_an_option",
                                f"{_show(refused.value)} is not among python-mtg's options "
                                f"{_show(refused.options)}") from None
        finally:
            self._answers, self._answer_at = [], 0
        self._suspended = None
        self._state = new
        if new.get("_loser") and self._reason is None:
            self._reason = _reason(new)
        self._visible_changed(new)

    def _trial(self, move: Move, answers: list[Answer]) -> tuple[State, bool]:
        """The state after ``move`` on a copy (or at its first choice not answered), and
        whether the engine asked for every answer given."""
        from mtg.engine import env

        self._answers, self._answer_at = list(answers), 0
        self._trial_decision = None
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                after = env.step(self._state, move)
        except _Decision as decision:
            after = decision.state
            self._trial_decision = decision
        except _NotAnOption as refused:
            raise IllegalAction("illegal_target" if refused.key == "target" else "not_an_option",
                                f"{_show(refused.value)} is not among python-mtg's options "
                                f"{_show(refused.options)}") from None
        finally:
            used = self._answer_at >= len(answers)
            self._answers, self._answer_at = [], 0
        return after, used

    def _play_land(self, state: State, player: str, action: dict[str, Any]) -> None:
        from mtg.engine import env

        card = action.get("card")
        move = ("play", player, card)
        if move in env.legal_actions(state):
            self._move(move)
            return
        raise IllegalAction(*self._why_not(state, player, card, land=True))

    def _why_not(self, state: State, player: str, card: Any, land: bool) -> tuple[str, str]:
        from mtg import driver

        if (player, card) not in state.get("in_hand", set()):
            return "not_in_hand", f"{card} is not in {player}'s hand"
        is_land = (card, "land") in state.get("spell_type", set())
        if land and not is_land:
            return "not_a_land", f"{card} is not a land"
        if not land and is_land:
            return "is_a_land", f"{card} is a land: it is played, not cast"
        step = _step(state)
        if land:
            if _active(state) != player:
                return "not_your_turn", "lands are played only in their player's turn"
            if step not in ("precombat_main", "postcombat_main"):
                return "not_main_phase", f"lands are played only in a main phase, not in {step}"
            if driver._land_drops_remaining(state, player) <= 0:
                return "land_already_played", f"{player} has no land play left this turn"
        return "not_legal_now", (f"python-mtg does not offer {card} now ({step}, "
                                 f"{_active(state)}'s turn)")

    def _cast(self, state: State, player: str, action: dict[str, Any]) -> None:
        from mtg.engine import env

        self._payment(action)
        if action.get("x") is not None or action.get("kicked"):
            raise Unsupported("python-mtg chooses X and kicker itself")
        card = action.get("card")
        moves = [m for m in env.legal_actions(state)
                 if m[0] == "cast" and m[1] == player and m[2] == card]
        if not moves:
            raise IllegalAction(*self._why_not(state, player, card, land=False))
        card = moves[0][2]  # the card asked for: the engine's id of it
        effects = self._spell_effects(state, card)
        if (card, "aura") in state.get("printed_subtype", set()):
            # An Aura spell targets what it will enchant (303.4a); python-mtg attaches it on
            # resolution to the creature it picks (driver._attach_aura).
            effects = [("attach", "-", "enchant"), *effects]
        self._targeted(moves, action, effects, card)

    def _activate(self, state: State, player: str, action: dict[str, Any]) -> None:
        from mtg.engine import env

        self._payment(action)
        if action.get("x") is not None:
            raise Unsupported("python-mtg chooses X itself")
        card, index = action.get("card"), action.get("ability")
        moves = [m for m in env.legal_actions(state) if m[0] == "activate" and m[1] == player
                 and m[2][1] == card and _ability_index(state, m[2]) == index]
        if not moves:
            raise IllegalAction("not_activatable", f"python-mtg does not offer ability {index} "
                                f"of {card} to {player} now")
        row = moves[0][2]
        card = row[1]  # the card asked for: the engine's id of it
        effects = [(row[4], str(row[5]), str(row[6]))]
        if row[4] == "equip":
            effects = [("equip", "-", "target_creature_you_control")]
        self._targeted(moves, action, effects, card)

    @staticmethod
    def _payment(action: dict[str, Any]) -> None:
        paying = action.get("pay_with")
        if paying is not None and paying != "auto":
            raise BadRequest("python-mtg pays automatically: pay_with must be \"auto\" "
                             "(pay.auto)")

    def _targeted(self, moves: list[Move], action: dict[str, Any],
                  effects: list[tuple[str, str, str]], card: str) -> None:
        """Perform the move ``action`` asks for, with its targets: named in the move when the
        engine asks for them, else checked after the move (the engine picks them itself)."""
        wanted = action.get("targets") or []
        if not isinstance(wanted, list):
            raise BadRequest("targets is a list")
        seam = [m for m in moves if "target" in m[3]]
        plain = [m for m in moves if not m[3]]
        if any(set(m[3]) - {"target"} for m in moves) and not seam and not plain:
            raise Unsupported(f"python-mtg asks for a mode or a name for {card}")
        if seam:
            if len(wanted) != 1 or "object" not in wanted[0]:
                raise Unsupported(f"python-mtg asks for one target object for {card}, not "
                                  f"{_show(wanted)}")
            for move in seam:
                if move[3]["target"] == wanted[0]["object"]:
                    self._move(move)
                    return
            raise IllegalAction("illegal_target", f"{wanted[0]['object']} is not a legal "
                                f"target for {card} (python-mtg offers "
                                f"{sorted(m[3]['target'] for m in seam)})")
        if not plain:
            raise Unsupported(f"python-mtg offers {card} only with choices the adapter cannot "
                              "name")
        move = plain[0]
        if not wanted:
            # No target named: the engine casts it as it does (picking a target itself if the
            # spell has one): what it then does is its answer.
            self._move(move)
            return
        targeted = [e for e in effects if e[2] in SELF_TARGETED or e[0] in ("equip", "attach")]
        if not targeted:
            raise Unsupported(f"{card} has no target in python-mtg: the targets "
                              f"{_show(wanted)} cannot be given to it")
        # The engine picks this target while the move resolves: through its choice seam (then
        # the target asked for is the answer given to it), or by itself (then the result is
        # checked: it must be the one asked for).
        answers = [("target", wanted[0]["object"])] \
            if len(wanted) == 1 and "object" in wanted[0] else []
        if answers:
            after, used = self._trial(move, answers)
            if used:
                self._move(move, answers)
                return
        else:
            after, _ = self._trial(move, [])
        why = _missed(self._current(), after, action["player"], card, targeted, wanted,
                      self._trial_decision)
        if why is not None:
            raise Unsupported(f"python-mtg picks the target of {card} itself and did not pick "
                              f"{_show(wanted)}: {why}")
        self._move(move)

    def _spell_effects(self, state: State, card: str) -> list[tuple[str, str, str]]:
        slug = dict(state.get("instance_of", set())).get(card)
        return [(r[3], str(r[4]), str(r[5])) for r in state.get("card_effect", set())
                if r[0] == slug]

    # ---- combat declarations ----

    def _current_declaration(self) -> list[Any]:
        state = self._current()
        key = (state.get("_turn", 0), _step(state))
        if self._declaring != key:
            self._declared, self._declaring = [], key
        return self._declared

    def _declare(self, state: State, step: str, decider: str, action: dict[str, Any]) -> None:
        from mtg.engine import env

        kind, player = action.get("action"), action.get("player")
        want = "attack" if step == "declare_attackers" else "block"
        if kind not in (want, "done"):
            raise IllegalAction("declaration_pending", f"{decider} must declare "
                                f"{'attackers' if want == 'attack' else 'blockers'} (then done)")
        if player != decider:
            raise IllegalAction("not_your_decision", f"{decider} declares, not {player}")
        options = [set(m[1]) for m in env.legal_actions(state) if m[0] == want]
        declared = self._current_declaration()
        if kind == "done":
            chosen = frozenset(declared)
            if chosen not in [frozenset(o) for o in options]:
                raise IllegalAction("illegal_declaration", f"python-mtg does not offer the "
                                    f"declaration {sorted(chosen)}")
            self._move((want, chosen))
            self._declared = []
            return
        item = action.get("card") if want == "attack" else (action.get("card"),
                                                            action.get("attacker"))
        if item in declared:
            raise IllegalAction("already_declared", f"{_show(item)} is already declared")
        if not any(set(declared) | {item} <= o for o in options):
            raise IllegalAction("cannot_attack" if want == "attack" else "cannot_block",
                                f"python-mtg offers no {want} declaration with {_show(item)}")
        declared.append(item)

    # ---- decisions inside a move ----

    @staticmethod
    def _decision_actions(suspended: _Suspended) -> list[dict[str, Any]]:
        decision, player = suspended.decision, suspended.player
        if DECISIONS[decision.key] == "discard":
            return [{"action": "discard", "player": player, "card": c} for c in decision.options]
        if DECISIONS[decision.key] == "choose_targets":
            return [{"action": "choose", "player": player, "targets": [{"object": c}]}
                    for c in decision.options]
        return [{"action": "choose", "player": player, "choice": c} for c in decision.options]

    def _answer(self, suspended: _Suspended, action: dict[str, Any]) -> None:
        decision = suspended.decision
        kind = DECISIONS[decision.key]
        if action.get("player") != suspended.player:
            raise IllegalAction("not_your_decision", f"{suspended.player} decides "
                                f"{kind}, not {action.get('player')}")
        if kind == "discard":
            if action.get("action") != "discard":
                raise IllegalAction("discard_pending", f"{suspended.player} must discard")
            value = action.get("card")
        elif action.get("action") != "choose":
            raise IllegalAction("decision_pending", f"{suspended.player} must decide {kind}")
        elif kind == "choose_targets":
            targets = action.get("targets") or []
            value = targets[0].get("object") if len(targets) == 1 else None
        else:
            value = action.get("choice")
        if value not in decision.options:
            raise IllegalAction("not_an_option", f"{_show(value)} is not one of "
                                f"{_show(decision.options)}")
        from mtg.engine import env

        answers = [*suspended.answers, (decision.key, value)]
        base, move = suspended.base, suspended.move
        if move is None:
            self._run(base, None, lambda: env.start(base), answers)
        else:
            self._run(base, move, lambda: env.step(base, move), answers)

    # ---- observation ----

    def _visible(self) -> State:
        return self._suspended.decision.state if self._suspended is not None else self._current()

    def _note_zones(self, state: State, initial: bool = False) -> list[dict[str, Any]]:
        """Compare every object's zone with the last state seen: a changed zone is a new
        incarnation and a zone_change event. Graveyard arrivals go on top, in the order seen."""
        zones = _zones(state)
        events = []
        for obj, zone in zones.items():
            self._names.setdefault(obj, _name(state, obj))
            before = self._zones.get(obj)
            if initial or before is None:
                self._incarnation.setdefault(obj, 0)
            elif before != zone:
                self._incarnation[obj] = self._incarnation.get(obj, 0) + 1
                events.append({"type": "zone_change", "object": obj, "new_object": obj,
                               "incarnation": self._incarnation[obj], "card": self._names[obj],
                               "from": before, "to": zone, "owner": _owner(state, obj)})
        owners = _owners(state)
        for player in PLAYERS:
            order = self._graveyard_order.get(player, [])
            now = {c for (c,) in state.get("graveyard", set()) if owners.get(c) == player}
            order = [c for c in order if c in now and self._zones.get(c) == "graveyard"]
            order = sorted(now - set(order)) + order  # arrivals of one move: by id
            self._graveyard_order[player] = order
        self._zones = zones
        return events

    def _visible_changed(self, state: State) -> None:
        self._events.extend(self._note_zones(state))
        self._cache = None

    def _observation(self) -> dict[str, Any]:
        state = self._visible()
        if self._cache is not None and self._cache[0] == id(state):
            return self._cache[1]
        observation = _observe(state, self)
        self._cache = (id(state), observation)
        return observation

    def _view(self, full: dict[str, Any], player: str) -> dict[str, Any]:
        """What ``player`` may see: the engine's own redacted view (``mtg.engine.observe``)
        says which cards of the hidden zones the player knows; a library card shows only when
        the player knows its position (the engine keeps no other library order for a seat)."""
        from mtg.engine import observe as engine_observe

        state = self._visible()
        view = engine_observe.observe(state, player)
        hands = {c for (_p, c) in view.get("in_hand", set())}
        top = {c for (_i, c) in view.get("library_top", set())}
        out = dict(full)
        out["players"] = {}
        for who, zones in full["players"].items():
            seen = dict(zones)
            seen["hand"] = [o if o["id"] in hands else {"hidden": True} for o in zones["hand"]]
            seen["library"] = [o if o["id"] in top else {"hidden": True}
                               for o in zones["library"]]
            out["players"][who] = seen
        return out


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


def _slug_of(state: State, obj: str) -> str | None:
    return dict(state.get("instance_of", set())).get(obj)


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


def _step(state: State) -> str:
    step: str = next(iter(state.get("current_step", {("",)})))[0]
    return step


def _active(state: State) -> str:
    player: str = next(iter(state.get("active_player", {("",)})))[0]
    return player


def _dispatch(state: State, key: str) -> str:
    """The player python-mtg's policy dispatcher gives a choice to (mtg.engine.game
    ``_policy_dispatch``): the defending player for blocks, the active player otherwise."""
    active = _active(state)
    if key == "blocks":
        return "B" if active == "A" else "A"
    return active


def _owners(state: State) -> dict[str, str]:
    return {c: p for (p, c) in state.get("printed_control", set())}


def _owner(state: State, obj: str) -> str | None:
    return _owners(state).get(obj)


def _name(state: State, obj: str) -> str:
    from mtg.game import _name_from_slug

    if (obj,) in state.get("is_token", set()):
        subtypes = sorted({s for (c, s) in state.get("printed_subtype", set()) if c == obj})
        return " ".join(s.capitalize() for s in subtypes) or obj
    slug = _slug_of(state, obj)
    return _name_from_slug(slug) if slug else obj


def _zones(state: State) -> dict[str, str]:
    zones: dict[str, str] = {}
    for (c,) in state.get("on_battlefield", set()):
        zones[c] = "battlefield"
    for (_p, c) in state.get("in_hand", set()):
        zones[c] = "hand"
    for (_p, c) in state.get("in_library", set()):
        zones[c] = "library"
    for (c,) in state.get("graveyard", set()):
        zones[c] = "graveyard"
    for row in state.get("exile", set()):
        zones[row[-1]] = "exile"
    for (_p, c) in state.get("command_zone", set()):
        zones[c] = "command"
    for (c, _pos) in state.get("on_stack", set()):
        zones[c] = "stack"
    return zones


def _self_targeted(state: State, card: str) -> bool:
    slug = _slug_of(state, card)
    return any(r[0] == slug and str(r[5]) in SELF_TARGETED for r in state.get("card_effect", set()))


def _self_targeted_ability(row: Row) -> bool:
    return row[4] == "equip" or str(row[6]) in SELF_TARGETED


def _ability_index(state: State, row: Row) -> int | None:
    """The protocol's index of an activated ability: a land's basic land types' mana abilities
    first, then the object's own, in the order of the engine's ability ids."""
    src = row[1]
    own = sorted(r[0] for r in state.get("activated_ability", set()) if r[1] == src)
    if row[0] not in own:
        return None
    basics = 0
    if (src, "land") in state.get("printed_type", set()):
        basics = len({s for (c, s) in state.get("printed_subtype", set())
                      if c == src and s in ("plains", "island", "swamp", "mountain", "forest")})
    return basics + own.index(row[0])


def _reason(state: State) -> str | None:
    """Why the game ended. python-mtg records only the loser (``_loser``; its narration of the
    reason goes to a stream it discards), so the reason is read off the state: a life total at
    0 or less, ten poison counters, or else an empty library (a draw from it is the only other
    way to lose with the adapter's cards)."""
    loser = state.get("_loser")
    if loser is not None and _life(state).get(loser, 1) <= 0:
        return "life"
    if any(p == loser and int(n) >= 10 for (p, n) in state.get("poison", set())):
        return "poison"
    if not any(p == loser for (p, _c) in state.get("in_library", set())):
        return "draw_empty_library"
    return None


def _life(state: State) -> dict[str, int]:
    return {p: int(v) for (p, v) in state.get("life", set())}


def _missed(before: State, after: State, caster: str, card: str,
            effects: list[tuple[str, str, str]], wanted: list[dict[str, Any]],
            decision: _Decision | None = None) -> str | None:
    """Why the move that ``after`` followed did not do its effect to the targets ``wanted``
    (None: it did). ``decision``: the choice the move stopped at, if it did (``after`` is the
    state there). Only the effects of the adapter's cards are known: any other is refused."""
    if len(wanted) != 1:
        return f"python-mtg picks one target for {card}"
    target = wanted[0]
    if decision is not None and decision.key == "discard" and effects[0][0] == "discard":
        # The move stopped at the choice of the cards to discard: whose hand they come from
        # says which player the engine made discard.
        hands = {c: p for (p, c) in after.get("in_hand", set())}
        whose = {hands.get(c) for c in decision.options}
        if "player" not in target or whose != {target["player"]}:
            return f"the discarding player was {sorted(p for p in whose if p)}"
        return None
    on_before = {c for (c,) in before.get("on_battlefield", set())}
    on_after = {c for (c,) in after.get("on_battlefield", set())}
    gone = on_before - on_after
    life_before, life_after = _life(before), _life(after)
    hurt = {p for p in PLAYERS if life_after.get(p, 0) < life_before.get(p, 0)}
    verb, _amount, _cls = effects[0]
    if verb == "deal_damage":
        creatures_gone = {c for c in gone if (c, "creature") in before.get("printed_type", set())}
        if "player" in target:
            if hurt != {target["player"]} or creatures_gone:
                return f"it dealt its damage elsewhere (players hurt {sorted(hurt)}, " \
                       f"creatures destroyed {sorted(creatures_gone)})"
            return None
        if target.get("object") not in gone or hurt:
            return "it did not deal its damage to that creature"
        return None
    if verb == "discard":
        owners = _owners(before)
        hand = {c for (p, c) in before.get("in_hand", set())}
        grave_new = {c for (c,) in after.get("graveyard", set())} - \
            {c for (c,) in before.get("graveyard", set())}
        types = before.get("spell_type", set())
        if any((c, "instant") in types for c in grave_new & hand if c != card):
            # An instant that left a hand for the graveyard may have been cast in response
            # (python-mtg answers spells by itself): the discard cannot be told from it.
            return "an instant went from a hand to a graveyard during the move"
        discarders = {owners.get(c) for c in grave_new & hand if c != card}
        if "player" not in target or discarders != {target["player"]}:
            return f"the discarding player was {sorted(p for p in discarders if p)}"
        return None
    if verb == "destroy":
        if "object" not in target or gone - {card} != {target["object"]}:
            return f"it destroyed {sorted(gone)}"
        return None
    if verb in ("equip", "attach"):
        attached = dict(after.get("attached_to", set())).get(card)
        if "object" not in target or attached != target["object"]:
            return f"it attached {card} to {attached}"
        return None
    return f"the adapter cannot check the target of {verb}"


class _Objects(TypedDict):
    """What an observation reads about the objects of one state, gathered once for all."""

    corpus: dict[str, dict[str, Any]]  # the engine's Oracle records by name
    zone: dict[str, str]
    owners: dict[str, str]
    controller: dict[str, str]
    creatures: set[str]
    power: dict[str, int]
    toughness: dict[str, int]
    types: dict[str, set[str]]
    subtypes: dict[str, set[str]]
    supertypes: dict[str, set[str]]
    colors: dict[str, set[str]]
    mana_value: dict[str, int]
    printed_power: dict[str, int]
    printed_toughness: dict[str, int]


def _card_view(state: State, obj: str, engine: PythonMtgEngine, ctx: _Objects
               ) -> dict[str, Any]:
    record = ctx["corpus"].get(engine._names.get(obj) or _name(state, obj), {})
    types = sorted(ctx["types"].get(obj, ()))
    printed_subtypes = record.get("subtypes") or []
    lower = {s.lower(): s for s in printed_subtypes}
    subtypes = sorted(ctx["subtypes"].get(obj, ()), key=lambda s: (
        [x.lower() for x in printed_subtypes].index(s) if s in lower else 99, s))
    creature = obj in ctx["creatures"] if ctx["zone"].get(obj) == "battlefield" \
        else "creature" in types
    if ctx["zone"].get(obj) == "battlefield":
        power = ctx["power"].get(obj) if creature else None
        toughness = ctx["toughness"].get(obj) if creature else None
    else:
        power = ctx["printed_power"].get(obj) if creature else None
        toughness = ctx["printed_toughness"].get(obj) if creature else None
    cost = record.get("manaCost") or None
    return {
        "id": obj,
        "card": engine._names.get(obj) or _name(state, obj),
        "owner": ctx["owners"].get(obj),
        # The engine's relations spell types and supertypes in lower case ("artifact",
        # "basic"); the protocol spells them as printed on the type line ("Artifact").
        "types": [t.capitalize() for t in types],
        "supertypes": sorted(s.capitalize() for s in ctx["supertypes"].get(obj, ())),
        "subtypes": [lower.get(s, s.capitalize()) for s in subtypes],
        "colors": [COLOUR[c] for c in ("white", "blue", "black", "red", "green")
                   if c in ctx["colors"].get(obj, ()) and "land" not in types],
        "mana_cost": cost,
        "mana_value": int(ctx["mana_value"].get(obj, 0)),
        "power": power,
        "toughness": toughness,
        "incarnation": engine._incarnation.get(obj, 0),
    }


def _observe(state: State, engine: PythonMtgEngine) -> dict[str, Any]:
    from mtg import driver
    from mtg.engine import env

    def group(rows: set[Row]) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for row in rows:
            found.setdefault(row[0], set()).add(row[1])
        return found

    with contextlib.redirect_stdout(io.StringIO()):
        derived = driver.run(state, ["controls", "creature", "power", "eff_toughness"])
    zones = _zones(state)
    ctx: _Objects = {
        "corpus": {},
        "zone": zones,
        "owners": _owners(state),
        "controller": {c: p for (p, c) in derived["controls"]},
        "creatures": {c for (c,) in derived["creature"]},
        "power": {c: int(n) for (c, n) in derived["power"]},
        "toughness": {c: int(n) for (c, n) in derived["eff_toughness"]},
        "types": group(state.get("printed_type", set())),
        "subtypes": group(state.get("printed_subtype", set())),
        "supertypes": group(state.get("has_supertype", set())),
        "colors": group(state.get("printed_color", set())),
        "mana_value": dict(state.get("mana_cost", set())),
        "printed_power": {c: int(n) for (c, n) in state.get("printed_power", set())
                          if str(n).lstrip("-").isdigit()},
        "printed_toughness": {c: int(n) for (c, n) in state.get("printed_toughness", set())
                              if str(n).lstrip("-").isdigit()},
    }
    ctx["corpus"] = _corpus_by_name()
    tapped = {c for (c,) in state.get("tapped", set())}
    sick = {c for (c,) in state.get("_sick", set())}
    attached = dict(state.get("attached_to", set()))
    counters: dict[str, dict[str, int]] = {}
    for row in state.get("counter", set()):
        if len(row) == 3 and str(row[2]).lstrip("-").isdigit():
            counters.setdefault(row[0], {})[str(row[1])] = int(row[2])
    attacking = {a for (a, _d) in state.get("attacks", set())}
    blocking = dict(state.get("blocks", set()))
    tokens = {c for (c,) in state.get("is_token", set())}

    def card(obj: str) -> dict[str, Any]:
        return _card_view(state, obj, engine, ctx)

    battlefield = []
    for obj in sorted(c for c, z in zones.items() if z == "battlefield"):
        view = card(obj)
        view.update({
            "controller": ctx["controller"].get(obj, view["owner"]),
            "tapped": obj in tapped,
            "sick": obj in sick,
            "damage": 0,
            "counters": counters.get(obj, {}),
            "attached_to": attached.get(obj),
            "token": obj in tokens,
        })
        if attacking or blocking:
            view["attacking"] = obj in attacking
            view["blocking"] = blocking.get(obj)
        battlefield.append(view)
    stack = []
    for obj, _pos in sorted(state.get("on_stack", set()), key=lambda r: -r[1]):
        controller = state.get("_stack_info", {}).get(obj)
        item = {"id": obj, "kind": "spell", "card": engine._names.get(obj) or _name(state, obj),
                "source": None, "controller": controller, "owner": ctx["owners"].get(obj,
                                                                                   controller),
                "targets": [], "x": None}
        if obj in zones and obj in ctx["owners"]:
            item.update({k: v for k, v in card(obj).items() if k not in ("id", "card", "owner")})
        stack.append(item)
    floating: dict[str, dict[str, int]] = {p: {} for p in PLAYERS}
    for (p, colour, n) in state.get("floating_mana", set()):
        if p in floating and colour in MANA:
            floating[p][MANA[colour]] = floating[p].get(MANA[colour], 0) + int(n)
    life = _life(state)
    poison = {p: int(n) for (p, n) in state.get("poison", set())}
    extra_used = state.get("_extra_lands_used", {})
    players = {}
    for p in PLAYERS:
        order = list(state.get("_lib_order", {}).get(p, []))
        library = [c for c in order if (p, c) in state.get("in_library", set())]
        library += sorted(c for (q, c) in state.get("in_library", set())
                          if q == p and c not in set(library))
        with contextlib.redirect_stdout(io.StringIO()):
            max_hand = driver._max_hand_size(state, p)
        players[p] = {
            "life": life.get(p, 0),
            "poison": poison.get(p, 0),
            "mana_pool": {m: floating[p].get(m, 0) for m in ("W", "U", "B", "R", "G", "C")},
            "lands_played": (1 if (p,) in state.get("_land_played", set()) else 0)
                            + int(extra_used.get(p, 0)),
            "max_hand_size": max_hand,
            "hand": [card(c) for c in sorted(c for (q, c) in state.get("in_hand", set())
                                             if q == p)],
            "library": [card(c) for c in library],
            "graveyard": [card(c) for c in engine._graveyard_order.get(p, [])],
        }
    over = env.is_terminal(state)
    loser = state.get("_loser")
    winner = env.winner(state) if over else None
    suspended = engine._suspended
    pending: dict[str, Any] | None = None
    priority = None
    step = _step(state)
    if not over:
        if suspended is not None:
            decision = suspended.decision
            pending = {"player": suspended.player, "decision": DECISIONS[decision.key]}
            if decision.key == "cleanup_discard":
                with contextlib.redirect_stdout(io.StringIO()):
                    limit = driver._max_hand_size(decision.state, suspended.player) or 0
                hand = [c for (q, c) in decision.state.get("in_hand", set())
                        if q == suspended.player]
                pending["count"] = max(len(hand) - limit, 0)
        elif step == "declare_attackers":
            pending = {"player": _active(state), "decision": "declare_attackers"}
        elif step == "declare_blockers":
            pending = {"player": env.to_move(state), "decision": "declare_blockers"}
        else:
            priority = env.to_move(state)
    return {
        "turn": {"number": int(state.get("_turn", 0)) + 1, "active": _active(state),
                 "phase": PHASE_OF.get(step), "step": step if step in STEPS else None,
                 "priority": priority},
        "pending": pending,
        "players": players,
        "battlefield": battlefield,
        "stack": stack,
        "exile": [card(c) for c in sorted(c for c, z in zones.items() if z == "exile")],
        "ante": [],
        "command": [card(c) for c in sorted(c for c, z in zones.items() if z == "command")],
        "result": {"over": over, "winners": [winner] if winner else [],
                   "losers": [loser] if loser else [], "draw": over and not winner and not loser,
                   "reason": engine._reason if over else None},
    }


_CORPUS: dict[str, dict[str, Any]] = {}


def _corpus_by_name() -> dict[str, dict[str, Any]]:
    """The engine's card corpus (MTGJSON Oracle records) by name, loaded once."""
    if not _CORPUS:
        from mtg import _corpus

        _CORPUS.update({c["name"]: c for c in _corpus.load_cards()})
    return _CORPUS


def _show(value: Any) -> str:
    return repr(value)
