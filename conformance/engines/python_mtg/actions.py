"""Actions in: the protocol's actions listed from the referee's moves and performed as moves
(land plays, casting and activating with their targets, declarations collected part by part,
answers to the choices the engine makes inside a move)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

from conformance.engines.python_mtg.game import (
    PLAYERS,
    Answer,
    BadRequest,
    IllegalAction,
    Move,
    Row,
    State,
    Unsupported,
    _Decision,
    _NotAnOption,
    _slug_of,
    _Suspended,
)
from conformance.engines.python_mtg.observations import (
    DECISIONS,
    PythonMtgObservations,
    _active,
    _life,
    _owners,
    _step,
)

#: Effects whose target the engine picks itself while the spell or ability resolves.
SELF_TARGETED = ("any_target", "target_player", "target_player_or_planeswalker",
                 "target_creature", "target_spell")


def _dispatch(state: State, key: str) -> str:
    """The player python-mtg's policy dispatcher gives a choice to (mtg.engine.game
    ``_policy_dispatch``): the defending player for blocks, the active player otherwise."""
    active = _active(state)
    if key == "blocks":
        return "B" if active == "A" else "A"
    return active


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


def _show(value: Any) -> str:
    return repr(value)


class PythonMtgActions(PythonMtgObservations):
    """What comes in: protocol actions listed and performed as the referee's moves."""

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
