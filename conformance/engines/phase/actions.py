"""Actions in: the protocol's actions listed from phase-python's and performed as its own
(casting and activating atomically, declarations collected part by part, choices)."""

from __future__ import annotations

import json
import re
from typing import Any

from conformance.engines.phase.game import NAME, PLAYERS, SEAT, BadRequest, IllegalAction
from conformance.engines.phase.observations import COLOR, LETTER, PhaseObservations, puts_on_top
from spec.cardpool import activated_abilities, default_pool


def _reason(message: str) -> str:
    """A short machine-readable reason from the engine's message."""
    text = message.lower()
    for needle, reason in (("wrong player", "not_your_decision"),
                           ("maximum lands", "no_land_play_left"),
                           ("mana", "cannot_pay"), ("target", "illegal_target"),
                           ("not allowed", "not_allowed")):
        if needle in text:
            return reason
    return "illegal"


class PhaseActions(PhaseObservations):
    """What comes in: protocol actions listed and performed as phase-python actions."""

    def legal_actions(self) -> list[dict[str, Any]]:
        game = self._game()
        waiting = game.waiting_for()
        kind = waiting.get("type")
        if kind == "GameOver":
            return []
        actor = self._actor(waiting)
        found: list[dict[str, Any]] = []
        if kind == "Priority":
            for action in game.actions():
                found.extend(self._listed(actor, action))
        elif kind == "MulliganDecision":
            found = self._mulligan_options(waiting)
        elif kind == "DeclareAttackers":
            chosen = {a for a, _ in self._pending_parts}
            found = [{"action": "attack", "player": NAME[actor], "card": oid}
                     for oid in waiting["data"].get("valid_attacker_ids", []) if oid not in chosen]
            found.append({"action": "done", "player": NAME[actor]})
        elif kind == "DeclareBlockers":
            used = {b for b, _ in self._pending_parts}
            targets = waiting["data"].get("valid_block_targets", {})
            found = [{"action": "block", "player": NAME[actor], "card": int(b), "attacker": a}
                     for b, attackers in targets.items() if int(b) not in used
                     for a in attackers]
            found.append({"action": "done", "player": NAME[actor]})
        elif kind in ("DiscardToHandSize", "DiscardChoice"):
            found = [{"action": "discard", "player": NAME[actor], "card": oid}
                     for oid in waiting["data"].get("cards", [])
                     if oid not in self._pending_parts]
        else:
            for option in self._choices(waiting):
                found.append({"action": "choose", "player": NAME[actor], **option})
        if actor is not None or kind == "MulliganDecision":
            found += [{"action": "concede", "player": p} for p in PLAYERS]
        return found

    def perform(self, action: dict[str, Any]) -> None:
        game = self._game()
        if not isinstance(action, dict):
            raise BadRequest("action: must be an object")
        kind = action.get("action")
        player = action.get("player")
        if player not in PLAYERS:
            raise BadRequest(f"action.player: {player!r} is not A or B")
        seat = SEAT[player]
        pay_with = action.get("pay_with")
        if kind in ("cast", "activate") and pay_with not in (None, "auto"):
            raise BadRequest("phase-python pays for spells itself: pay_with must be \"auto\" "
                             "(pay.auto; pay.sources was not declared)")
        waiting = game.waiting_for()
        if waiting.get("type") == "GameOver":
            raise IllegalAction("game_over", "the game is over")
        if kind == "concede":
            # Known before the engine's GameOver event is turned into ours (its reason).
            self._conceded = player
            try:
                self._apply(seat, {"type": "Concede", "data": {"player_id": seat}})
            except Exception:
                self._conceded = None
                raise
        elif kind == "pass":
            self._apply(seat, {"type": "PassPriority"})
        elif kind in ("keep", "mulligan"):
            self._mulligan(seat, kind, waiting)
        elif kind == "play_land":
            card = self._object_id(action)
            self._apply(seat, {"type": "PlayLand", "data": {"object_id": card,
                                                            "card_id": self._card_id(card)}})
        elif kind == "cast":
            self._cast(seat, action)
        elif kind == "activate":
            self._activate(seat, action)
        elif kind in ("attack", "block", "done"):
            self._declare(seat, kind, action, waiting)
        elif kind == "discard":
            self._discard(seat, action, waiting)
        elif kind == "choose":
            self._choose(seat, action, waiting)
        elif kind == "order_blockers":
            raise IllegalAction("no_such_decision", "phase-python never asks for a damage "
                                "assignment order (modern rules since 2024-11)")
        else:
            raise BadRequest(f"action.action: {kind!r} is not an action")

    def _apply(self, seat: int, action: Any) -> Any:
        """Apply one engine action as ``seat``; an engine refusal is an illegal action."""
        if isinstance(action, dict):
            action = self._phase.GameAction.from_dict(action)
        try:
            result = self.game.apply(seat, action)
        except ValueError as exc:
            message = str(exc)
            raise IllegalAction(_reason(message), f"phase-python: {message}") from None
        self._record(result.events)
        self._take_only_answer()
        return result

    def _take_only_answer(self) -> None:
        """docs/protocol.md: a decision with only one possible answer is not asked, the engine
        takes it. phase asks for a damage source (Circle of Protection) even when one source
        fits; the adapter gives phase that one answer, as phase lists it."""
        for _ in range(8):
            waiting = self.game.waiting_for()
            if waiting.get("type") != "DamageSourceChoice":
                return
            listed = [a for a in self.game.actions() if a.kind == "ChooseDamageSource"]
            if len(listed) != 1 or len((waiting.get("data") or {}).get("options") or []) != 1:
                return
            actor = self._actor(waiting)
            self._record(self.game.apply(actor, listed[0]).events)

    def _cast(self, seat: int, action: dict[str, Any]) -> None:
        card = self._object_id(action)
        self._atomic(seat, {"type": "CastSpell", "data": {
            "object_id": card, "card_id": self._card_id(card), "targets": [],
            "payment_mode": {"type": "Auto"}}}, action)

    def _activate(self, seat: int, action: dict[str, Any]) -> None:
        card = self._object_id(action)
        index = action.get("ability", 0)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise BadRequest("action.ability: must be a whole number")
        self._atomic(seat, {"type": "ActivateAbility", "data": {
            "source_id": card, "ability_index": self._engine_ability(card, index)}}, action)

    def _ability_orders(self, name: str) -> list[int]:
        """For a card, the engine's index of each printed activated ability in protocol order
        (docs/protocol.md: a basic land type's mana ability first, in type-line order; phase
        lists Tropical Island's blue ability before its green one)."""
        if name in self._orders:
            return self._orders[name]
        order: list[int] = []
        card = default_pool().edition("modern").get(name)
        face = self._faces().get(name.lower()) if card is not None else None
        if card is not None and face is not None:
            printed = activated_abilities(card)
            engine = [a for a in face.get("abilities", []) if a.get("kind") == "Activated"]
            free = list(range(len(engine)))
            for ability in printed:
                letter = re.fullmatch(r"\{T\}: Add \{([WUBRG])\}\.", ability.text)
                pick = None
                if letter:
                    color = LETTER[letter.group(1)]
                    pick = next((i for i in free if engine[i].get("effect", {}).get(
                        "produced", {}).get("colors") == [color]), None)
                if pick is None and free:
                    pick = free[0]
                if pick is None:
                    break
                free.remove(pick)
                order.append(pick)
        self._orders[name] = order
        return order

    def _faces(self) -> dict[str, Any]:
        if self._face_data is None:
            self._face_data = json.loads(self._database.path.read_text(encoding="utf-8"))
        return self._face_data

    def _engine_ability(self, card: int, index: int) -> int:
        """The engine's ability index for the protocol's: printed abilities through the
        card's order, granted ones (after the printed ones in both) as they are."""
        try:
            name = self.game.object(card).get("name")
        except ValueError:
            return index
        order = self._ability_orders(name) if isinstance(name, str) else []
        if index < len(order):
            return order[index]
        return index

    def _protocol_ability(self, card: int, index: int) -> int:
        try:
            name = self.game.object(card).get("name")
        except ValueError:
            return index
        order = self._ability_orders(name) if isinstance(name, str) else []
        return order.index(index) if index in order else index

    def _atomic(self, seat: int, first: dict[str, Any], action: dict[str, Any]) -> None:
        """Cast or activate, then answer the engine's announcement prompts (X, kicker,
        targets) from the action; if the engine refuses any part, asks something the action
        does not answer, or ends with other targets than the action's, nothing happened.
        (phase chooses a target itself when only one is legal, and divides "evenly" damage
        itself: the one division it lists is taken.)"""
        snapshot = self._snapshot()
        mark = len(self._events)
        wanted = [self._target(t) for t in action.get("targets") or []]
        targets = list(wanted)
        before = {e.get("id") for e in self.game.stack()}
        answered: set[str] = set()
        try:
            self._apply(seat, first)
            for _ in range(64):
                waiting = self.game.waiting_for()
                kind = waiting.get("type")
                if self._actor(waiting) != seat:
                    break
                if kind in ("TargetSelection", "MultiTargetSelection"):
                    if targets:
                        self._apply(seat, {"type": "ChooseTarget",
                                           "data": {"target": targets.pop(0)}})
                        continue
                    done = [a for a in self.game.actions() if a.kind == "ChooseTarget"
                            and (a.data or {}).get("target") is None]
                    if not done:
                        raise IllegalAction("missing_target", "phase-python asks for a "
                                            "target the action does not give")
                    self._apply(seat, done[0])
                elif kind == "ChooseXValue" and "x" not in answered:
                    if not isinstance(action.get("x"), int):
                        raise IllegalAction("missing_x", "phase-python asks for X")
                    answered.add("x")
                    self._apply(seat, {"type": "ChooseX", "data": {"value": action["x"]}})
                elif kind == "OptionalCostChoice" and "kicked" not in answered:
                    answered.add("kicked")
                    self._apply(seat, {"type": "DecideOptionalCost",
                                       "data": {"pay": bool(action.get("kicked", False))}})
                elif kind == "DistributeAmong":
                    options = [a for a in self.game.actions() if a.kind == "DistributeAmong"]
                    if len(options) != 1:
                        raise IllegalAction("division", "phase-python asks for a division "
                                            "of damage the protocol cannot express")
                    self._apply(seat, options[0])
                else:
                    break
            waiting = self.game.waiting_for()
            if waiting.get("type") in ("TargetSelection", "MultiTargetSelection",
                                       "ChooseXValue", "OptionalCostChoice", "DistributeAmong",
                                       "ManaPayment"):
                raise IllegalAction("incomplete", f"phase-python still waits for "
                                    f"{waiting.get('type')} after the action")
            chosen = self._new_targets(before, first=first)
            if chosen is None and targets:
                raise IllegalAction("illegal_target", "phase-python took fewer targets than "
                                    "the action gives")
            if chosen is not None and chosen != wanted:
                raise IllegalAction("illegal_target", "phase-python chose other targets than "
                                    f"the action's: {chosen}")
        except BaseException:
            self._restore(snapshot, mark)
            raise

    def _new_targets(self, before: set[Any], game: Any = None,
                     first: Any = None) -> list[Any] | None:
        """The targets of the spell or ability the action ``first`` put on the stack (None:
        none was). A trigger the payment set off (Forbidden Orchard's) may be above it: it
        is not the action's."""
        game = game or self.game
        data = (first.to_dict() if hasattr(first, "to_dict") else first or {}).get("data") or {}
        source = data.get("object_id", data.get("source_id"))
        new = [e for e in reversed(game.stack()) if e.get("id") not in before]
        own = [e for e in new if source is not None and e.get("source_id") == source
               and (e.get("kind") or {}).get("type") in ("Spell", "ActivatedAbility")]
        for entry in own or new:
            ability = ((entry.get("kind") or {}).get("data") or {}).get("ability") or {}
            # An ability whose first effect targets nothing ("choose a color", then "target
            # creature ... gains protection from it": Mother of Runes) keeps its targets on
            # the sub-ability that uses them.
            found: list[Any] = []
            while ability and not found:
                found = list(ability.get("targets") or [])
                ability = ability.get("sub_ability") or {}
            return found
        return None

    def _declare(self, seat: int, kind: str, action: dict[str, Any],
                 waiting: dict[str, Any]) -> None:
        prompt = waiting.get("type")
        data = waiting.get("data") or {}
        if prompt not in ("DeclareAttackers", "DeclareBlockers") or data.get("player") != seat:
            raise IllegalAction("no_declaration", f"no {kind} decision of this player now")
        self._sync_parts(waiting)
        if prompt == "DeclareAttackers":
            if kind == "block":
                raise IllegalAction("not_declaring_blockers", "attackers are being declared")
            if kind == "attack":
                card = self._object_id(action)
                if card in {a for a, _ in self._pending_parts}:
                    raise IllegalAction("already_attacking", "that creature already attacks")
                if card not in (data.get("valid_attacker_ids") or []):
                    raise IllegalAction("cannot_attack", "phase-python does not list this "
                                        "creature among those that can attack")
                targets = (data.get("valid_attack_targets_by_attacker") or {}).get(str(card)) \
                    or data.get("valid_attack_targets") or []
                defender = next((t for t in targets if t.get("type") == "Player"), None)
                if defender is None:
                    raise IllegalAction("cannot_attack", "phase-python lists no player this "
                                        "creature can attack")
                self._pending_parts.append((card, defender))
                return
            attacks = [[card, target] for card, target in self._pending_parts]
            self._apply(seat, {"type": "DeclareAttackers",
                               "data": {"attacks": attacks, "bands": []}})
        else:
            if kind == "attack":
                raise IllegalAction("not_declaring_attackers", "blockers are being declared")
            if kind == "block":
                card = self._object_id(action)
                attacker = action.get("attacker")
                if not isinstance(attacker, int):
                    raise BadRequest("action.attacker: the attacking creature's id")
                if card in {b for b, _ in self._pending_parts}:
                    raise IllegalAction("already_blocking", "that creature already blocks")
                allowed = (data.get("valid_block_targets") or {}).get(str(card)) or []
                if attacker not in allowed:
                    raise IllegalAction("cannot_block", "phase-python does not list this "
                                        "block among the legal ones")
                self._pending_parts.append((card, attacker))
                return
            assignments = [[b, a] for b, a in self._pending_parts]
            self._apply(seat, {"type": "DeclareBlockers", "data": {"assignments": assignments}})
        self._pending_parts = []
        self._pending_key = None

    def _discard(self, seat: int, action: dict[str, Any], waiting: dict[str, Any]) -> None:
        data = waiting.get("data") or {}
        if waiting.get("type") not in ("DiscardToHandSize", "DiscardChoice") \
                or data.get("player") != seat:
            raise IllegalAction("no_discard", "no discard decision of this player now")
        self._sync_parts(waiting)
        card = self._object_id(action)
        if card not in data.get("cards", []) or card in self._pending_parts:
            raise IllegalAction("cannot_discard", "that card cannot be discarded now")
        chosen = [*self._pending_parts, card]
        if len(chosen) < int(data.get("count", 1)):
            self._pending_parts = chosen
            return
        self._apply(seat, {"type": "SelectCards", "data": {"cards": chosen}})
        self._pending_parts = []
        self._pending_key = None

    def _mulligan(self, seat: int, kind: str, waiting: dict[str, Any]) -> None:
        if waiting.get("type") != "MulliganDecision":
            raise IllegalAction("no_mulligan", "no opening-hand decision now")
        pending = (waiting.get("data") or {}).get("pending") or []
        mine = [p for p in pending if p.get("player") == seat]
        if not mine or (mine[0].get("phase") or {}).get("type") != "Declare":
            raise IllegalAction("no_mulligan", "this player has no keep or mulligan decision")
        choice = "Keep" if kind == "keep" else "Mulligan"
        self._apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": choice}}})

    def _choose(self, seat: int, action: dict[str, Any], waiting: dict[str, Any]) -> None:
        kind = waiting.get("type")
        if self._actor(waiting) != seat:
            raise IllegalAction("not_your_decision", "the game waits for the other player")
        if kind == "MulliganDecision":  # London mulligan: a card to put on the bottom
            self._bottom(seat, action, waiting)
            return
        if kind == "AssignCombatDamage":
            self._assign_damage(seat, action, waiting)
            return
        if puts_on_top(waiting):
            self._put_on_top(seat, action, waiting)
            return
        if kind == "OrderTriggers":
            self._order_triggers(seat, action, waiting)
            return
        if kind in ("TriggerTargetSelection", "TargetSelection"):
            targets = action.get("targets") or []
            mark, snapshot = len(self._events), self._snapshot()
            try:
                for target in targets:
                    self._apply(seat, {"type": "ChooseTarget",
                                       "data": {"target": self._target(target)}})
            except IllegalAction:
                self._restore(snapshot, mark)
                raise
            return
        choice = action.get("choice")
        for option, engine_action in self._choice_actions(waiting):
            if option == choice:
                self._apply(seat, engine_action)
                return
        raise IllegalAction("not_an_option", f"{choice!r} is not an option of {kind}")

    def _order_triggers(self, seat: int, action: dict[str, Any],
                        waiting: dict[str, Any]) -> None:
        """The protocol names the trigger to put on the stack next (an index of phase's
        list); phase takes the whole order at once, bottom of the stack first."""
        count = len((waiting.get("data") or {}).get("triggers") or [])
        self._sync_parts(waiting)
        choice = action.get("choice")
        if (isinstance(choice, bool) or not isinstance(choice, int)
                or not 0 <= choice < count or choice in self._pending_parts):
            raise IllegalAction("not_an_option", f"{choice!r} is not a trigger to order")
        chosen = [*self._pending_parts, choice]
        if len(chosen) < count - 1:
            self._pending_parts = chosen
            return
        order = chosen + [i for i in range(count) if i not in chosen]
        self._apply(seat, {"type": "OrderTriggers", "data": {"order": order}})
        self._pending_parts = []
        self._pending_key = None

    def _bottom(self, seat: int, action: dict[str, Any], waiting: dict[str, Any]) -> None:
        pending = [p for p in (waiting.get("data") or {}).get("pending") or []
                   if p.get("player") == seat]
        phase = (pending[0].get("phase") or {}) if pending else {}
        if phase.get("type") != "BottomCards":
            raise IllegalAction("no_bottom", "no card to put on the bottom now")
        self._sync_parts(waiting)
        card = action.get("choice")
        hand = self.game.player(seat)["hand"]
        if card not in hand or card in self._pending_parts:
            raise IllegalAction("not_an_option", f"{card!r} is not a card of the hand")
        chosen = [*self._pending_parts, card]
        if len(chosen) < int(phase.get("count", 1)):
            self._pending_parts = chosen
            return
        self._apply(seat, {"type": "SelectCards", "data": {"cards": chosen}})
        self._pending_parts = []
        self._pending_key = None

    def _put_on_top(self, seat: int, action: dict[str, Any], waiting: dict[str, Any]) -> None:
        """Brainstorm-like choices: the protocol names one card at a time, the last one ends
        on top; phase takes them at once, the first listed ending on top."""
        data = waiting.get("data") or {}
        self._sync_parts(waiting)
        card = action.get("choice")
        if card not in data.get("cards", []) or card in self._pending_parts:
            raise IllegalAction("not_an_option", f"{card!r} is not a card to put on top")
        chosen = [*self._pending_parts, card]
        if len(chosen) < int(data.get("count", 1)):
            self._pending_parts = chosen
            return
        self._apply(seat, {"type": "SelectCards", "data": {"cards": list(reversed(chosen))}})
        self._pending_parts = []
        self._pending_key = None

    def _assign_damage(self, seat: int, action: dict[str, Any], waiting: dict[str, Any]) -> None:
        data = waiting.get("data") or {}
        choice = action.get("choice")
        if not isinstance(choice, list):
            raise BadRequest("choose: assign_combat_damage takes a list of [recipient, amount]")
        assignments: list[list[int]] = []
        to_player = 0
        for pair in choice:
            if not isinstance(pair, list) or len(pair) != 2:
                raise BadRequest("choose: each assignment is [recipient, amount]")
            recipient, amount = pair
            if recipient in PLAYERS:
                to_player += int(amount)
            else:
                assignments.append([recipient, int(amount)])
        mode = (data.get("assignment_modes") or ["Normal"])[0]
        self._apply(seat, {"type": "AssignCombatDamage", "data": {
            "mode": mode, "assignments": assignments, "trample_damage": to_player,
            "controller_damage": 0}})

    def _listed(self, actor: int | None, action: Any) -> list[dict[str, Any]]:
        kind = action.kind
        data = action.data or {}
        player = NAME.get(actor)
        if actor is None or player is None:
            return []
        if kind == "PassPriority":
            return [{"action": "pass", "player": player}]
        if kind == "PlayLand":
            return [{"action": "play_land", "player": player, "card": data["object_id"]}]
        if kind in ("CastSpell", "ActivateAbility"):
            base: dict[str, Any]
            if kind == "CastSpell":
                base = {"action": "cast", "player": player, "card": data["object_id"]}
            else:
                base = {"action": "activate", "player": player, "card": data["source_id"],
                        "ability": self._protocol_ability(data["source_id"],
                                                          data.get("ability_index", 0))}
            return [{**base, **extra, "pay_with": "auto"}
                    for extra in self._announcements(actor, action)]
        return []

    def _announcements(self, seat: int, action: Any) -> list[dict[str, Any]]:
        """The announcements (targets, X, kicker) a cast or activation can take: the engine's
        own prompts, answered in every way it lists, on copies of the game. Where more targets
        are optional ("any number of targets") the lists stop at one target (docs/protocol.md
        allows listing such a spell with up to two). A copy is made from the state before the
        action and the answers so far are replayed: phase cannot always load a state exported
        in the middle of a cast."""
        before = {e.get("id") for e in self.game.stack()}
        root = json.dumps(self.game.state())
        try:
            copy_game = self._engine.load_game(root)
            copy_game.apply(seat, action)
        except ValueError:
            return []
        return self._explore(copy_game, seat, before, {}, [action], root)

    def _explore(self, game: Any, seat: int, before: set[Any], made: dict[str, Any],
                 path: list[Any], root: Any) -> list[dict[str, Any]]:
        waiting = game.waiting_for()
        kind = waiting.get("type")
        if kind == "Priority" or len(path) > 8:
            announced = dict(made)
            chosen = self._new_targets(before, game, path[0] if path else None) or []
            if chosen and "targets" not in announced:
                announced["targets"] = [self._protocol_target(t) for t in chosen]
            return [announced]
        options: list[tuple[Any, dict[str, Any] | None]] = []
        listed = game.actions()
        so_far = made.get("targets", [])
        optional = any(a.kind == "ChooseTarget" and (a.data or {}).get("target") is None
                       for a in listed)
        for option in listed:
            data = option.data or {}
            if option.kind == "ChooseTarget":
                target = data.get("target")
                if target is None:
                    options.append((option, {"targets": so_far}))
                elif not (optional and so_far):
                    options.append((option, {"targets": [*so_far, self._protocol_target(
                        target)]}))
            elif option.kind == "ChooseX":
                options.append((option, {"x": data.get("value")}))
            elif option.kind == "DecideOptionalCost":
                options.append((option, {"kicked": bool(data.get("pay"))}))
            elif option.kind == "DistributeAmong":
                options.append((option, None))
        if kind == "DistributeAmong" and len(options) != 1:
            return []  # a division the protocol cannot express
        found: list[dict[str, Any]] = []
        for index, (option, update) in enumerate(options):
            if index == len(options) - 1:
                branch = game
            else:
                try:
                    branch = self._engine.load_game(root)
                    for step in path:
                        branch.apply(seat, step)
                except ValueError:
                    continue
            try:
                branch.apply(seat, option)
            except ValueError:
                continue
            found.extend(self._explore(branch, seat, before, {**made, **(update or {})},
                                       [*path, option], root))
        return found

    def _mulligan_options(self, waiting: dict[str, Any]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        pending = (waiting.get("data") or {}).get("pending") or []
        if not pending:
            return found
        first = pending[0]
        player = NAME[first["player"]]
        phase = first.get("phase") or {}
        if phase.get("type") == "Declare":
            found = [{"action": "keep", "player": player},
                     {"action": "mulligan", "player": player}]
        elif phase.get("type") == "BottomCards":
            chosen = self._pending_parts
            found = [{"action": "choose", "player": player, "choice": oid}
                     for oid in self.game.player(first["player"])["hand"] if oid not in chosen]
        return found

    def _choice_actions(self, waiting: dict[str, Any]) -> list[tuple[Any, Any]]:
        """(protocol choice, engine action) for a prompt's options."""
        found: list[tuple[Any, Any]] = []
        for action in self.game.actions():
            data = action.data or {}
            kind = action.kind
            if kind == "ChooseLegend":
                found.append((data.get("keep"), action))
            elif kind in ("DecideOptionalEffect", "DecideOptionalCost"):
                found.append((bool(data.get("accept", data.get("pay"))), action))
            elif kind == "SelectCards":
                cards = data.get("cards") or []
                found.append((cards[0] if len(cards) == 1 else cards, action))
            elif kind == "ChooseManaColor":
                color = data.get("color")
                found.append((COLOR.get(color, color), action))
            elif kind == "ChooseOption":
                option = data.get("choice", data.get("index"))
                if (waiting.get("data") or {}).get("choice_type") == "Color":
                    option = COLOR.get(option, option)  # the protocol's colour symbols
                found.append((option, action))
            elif kind == "ChooseDamageSource":  # choose_source: the source's object id
                found.append((data.get("source"), action))
            elif kind == "ChooseTarget":  # an object or player chosen, not targeted
                target = data.get("target")
                if isinstance(target, dict) and "Object" in target:
                    found.append((target["Object"], action))
                elif isinstance(target, dict) and "Player" in target:
                    found.append((NAME.get(target["Player"]), action))
                else:
                    found.append((action.to_dict(), action))
            else:
                found.append((action.to_dict(), action))
        return found

    def _choices(self, waiting: dict[str, Any]) -> list[dict[str, Any]]:
        kind = waiting.get("type")
        if kind == "OrderTriggers":
            self._sync_parts(waiting)
            count = len((waiting.get("data") or {}).get("triggers") or [])
            return [{"choice": i} for i in range(count) if i not in self._pending_parts]
        if puts_on_top(waiting):
            self._sync_parts(waiting)
            return [{"choice": card} for card in (waiting.get("data") or {}).get("cards", [])
                    if card not in self._pending_parts]
        if kind in ("TriggerTargetSelection", "TargetSelection"):
            return [{"targets": [self._protocol_target(a.data["target"])]}
                    for a in self.game.actions() if a.kind == "ChooseTarget"]
        if kind == "AssignCombatDamage":
            found = []
            for action in self.game.actions():
                data = action.data or {}
                choice = [[b, n] for b, n in data.get("assignments", [])]
                if data.get("trample_damage"):
                    defender = (waiting.get("data") or {}).get("defending_player")
                    choice.append([NAME.get(defender, "B"), data["trample_damage"]])
                found.append({"choice": choice})
            return found
        return [{"choice": choice} for choice, _ in self._choice_actions(waiting)]

    @staticmethod
    def _target(target: Any) -> dict[str, Any]:
        if not isinstance(target, dict):
            raise BadRequest("a target is {\"object\": id} or {\"player\": \"A\"}")
        if "player" in target:
            if target["player"] not in PLAYERS:
                raise BadRequest(f"target player {target['player']!r} is not A or B")
            return {"Player": SEAT[target["player"]]}
        if "object" in target:
            return {"Object": target["object"]}
        raise BadRequest("a target is {\"object\": id} or {\"player\": \"A\"}")

    def _object_id(self, action: dict[str, Any]) -> int:
        card = action.get("card")
        if isinstance(card, bool) or not isinstance(card, int):
            raise BadRequest("action.card: an object id")
        return card

    def _card_id(self, object_id: int) -> int:
        try:
            obj = self.game.object(object_id)
        except (ValueError, KeyError):
            obj = None
        if not obj:
            raise IllegalAction("no_such_object", f"no object {object_id}")
        return int(obj.get("card_id", object_id))
