"""The mutants: copies of the reference engine that each break one rule, the way an engine
author would most likely get it wrong (an off-by-one, the wrong player, the controller for the
owner, a check left out).

Each mutant patches the engine in this process (see :mod:`tests.mutation.patching`); the
runner applies one mutant per process. ``audit`` names the mutant or finding of the rules
judge's case audit (shared/research/case-audit.md) that the mutant reproduces: those are
known weaknesses of the cases at commit c56e2d4, expected to survive there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from reference_engine import combat, layers, mana, observation, triggers
from reference_engine.actions import Action
from reference_engine.cards import choices, common, core
from reference_engine.constants import BATTLEFIELD, GRAVEYARD, HAND, MAIN_STEPS, STACK
from reference_engine.editions import Game2004, GameModern
from reference_engine.game import PERMANENT_TYPES, Game, cost_of
from reference_engine.objects import Decision, GameObject, StackItem
from tests.mutation.patching import Patcher

Apply = Callable[[Patcher], None]
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Mutant:
    id: str
    rules: tuple[str, ...]  # the rules it breaks, as cited by cases: "cr2004:300.3"
    description: str
    apply: Apply
    audit: str | None = None  # the audit's name for it, when the audit tried it


MUTANTS: dict[str, Mutant] = {}


def mutant(mutant_id: str, rules: str, description: str, *, audit: str | None = None
           ) -> Callable[[Apply], Apply]:
    """Register the decorated patch function as a mutant; ``rules`` is space-separated."""
    def register(apply: Apply) -> Apply:
        if not _ID.match(mutant_id):
            raise ValueError(f"mutant id {mutant_id!r} is not kebab-case")
        if mutant_id in MUTANTS:
            raise ValueError(f"mutant {mutant_id!r} is registered twice")
        MUTANTS[mutant_id] = Mutant(mutant_id, tuple(rules.split()), description, apply, audit)
        return apply
    return register


def get(mutant_id: str) -> Mutant:
    try:
        return MUTANTS[mutant_id]
    except KeyError:
        raise KeyError(f"no mutant {mutant_id!r} (see python -m tests.mutation list)") from None


def apply(mutant_id: str) -> Patcher:
    """Apply a mutant; the returned patcher undoes it."""
    patcher = Patcher(f"mutant {mutant_id}")
    try:
        get(mutant_id).apply(patcher)
    except BaseException:
        patcher.undo()
        raise
    return patcher


@contextmanager
def applied(mutant_id: str) -> Iterator[Patcher]:
    patcher = apply(mutant_id)
    try:
        yield patcher
    finally:
        patcher.undo()


# The condition of sorcery timing, as Game._pool_actions spells it; the timing mutants
# replace it in one place only (spells, or lands) with one of its three parts left out.
_SORCERY_LINE = 'if not sorcery_ok and "Instant" not in types and not self.has(obj, "flash"):'
_LAND_LINE = "if sorcery_ok and not costly and self.can_play_land(name):"

# -- 101: starting the game ---------------------------------------------------------------------


@mutant("start-life-25", "cr2004:101.3",
        "Players start the game at 25 life instead of 20.")
def _start_life(p: Patcher) -> None:
    original = Game._start_of_game

    def _start_of_game(self: Game) -> Generator[Decision, Action, None]:
        for player in self.players.values():
            player.life = 25
        yield from original(self)

    p.set(Game, "_start_of_game", _start_of_game)


@mutant("opening-hand-six", "cr2004:101.3 modern:402.1",
        "The opening hand has six cards.")
def _opening_hand(p: Patcher) -> None:
    p.source(Game._start_of_game, ("self.draw(name, 7)", "self.draw(name, 6)"))


@mutant("first-player-draws", "cr2004:101.5",
        "The player who goes first draws in their first draw step.")
def _first_draw(p: Patcher) -> None:
    p.source(Game._next_step, ("if step == UPKEEP and self.turn == 1:", "if False:"))


@mutant("both-skip-first-draw", "cr2004:101.5",
        "Both players skip the draw of their first turn (turns 1 and 2).")
def _both_skip(p: Patcher) -> None:
    p.source(Game._next_step, ("self.turn == 1:", "self.turn <= 2:"))


@mutant("mulligan-no-fewer", "cr2004:101.4",
        "A 2004 mulligan draws as many cards as the hand had (no card fewer).")
def _mulligan_same(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("size = len(player.hand) - 1", "size = len(player.hand)"))


@mutant("mulligan-off-by-one", "cr2004:101.4",
        "A 2004 mulligan draws 7 minus the mulligans taken before this one (7, 6, 5, ...).")
def _mulligan_off(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("size = len(player.hand) - 1", "size = 7 - player.mulligans"))


@mutant("mulligan-seat-order", "cr2004:101.4",
        "Player A makes the mulligan decisions first, whoever starts the game.")
def _mulligan_seats(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("for name in self._turn_order():", "for name in PLAYERS:"))


@mutant("mulligan-kept-hand-not-final", "cr2004:101.4",
        "Mulligans go in rounds until nobody mulligans, and a player who kept is asked again.")
def _mulligan_rounds(p: Patcher) -> None:
    original = Game2004._mulligans

    def _mulligans(self: Game2004) -> Generator[Decision, Action, None]:
        while True:
            before = [player.mulligans for player in self.players.values()]
            yield from original(self)
            if [player.mulligans for player in self.players.values()] == before:
                return

    p.set(Game2004, "_mulligans", _mulligans)


@mutant("mulligan-stops-at-one", "cr2004:101.4",
        "A 2004 mulligan is not offered once the hand has one card (not down to zero).")
def _mulligan_floor(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("while player.hand:", "while len(player.hand) > 1:"))


# -- 102: winning and losing ------------------------------------------------------------------


@mutant("zero-life-survives", "cr2004:102.1",
        "A player loses only below 0 life, not at exactly 0.")
def _zero_life(p: Patcher) -> None:
    p.source(Game._state_based_actions, ("if p.life <= 0", "if p.life < 0"))


@mutant("draw-from-empty-ignored", "cr2004:102.2",
        "Drawing from an empty library does nothing: the player does not lose.")
def _empty_draw(p: Patcher) -> None:
    p.source(Game.draw, ("player.drew_from_empty = True", "pass"))


@mutant("short-draw-draws-nothing", "cr2004:102.2",
        "Told to draw more cards than the library holds, a player draws none (and loses).")
def _short_draw(p: Patcher) -> None:
    p.source(Game.draw, ("for _ in range(count):",
                         "if len(player.library) < count:\n"
                         "        player.drew_from_empty = True\n"
                         "        count = 0\n"
                         "    for _ in range(count):"))


@mutant("poison-needs-eleven", "cr2004:102.8",
        "A player loses with more than ten poison counters, not with ten.")
def _poison(p: Patcher) -> None:
    p.source(Game._state_based_actions, ("p.poison >= 10", "p.poison > 10"))


@mutant("both-lose-first-loses", "cr2004:102.4",
        "When both players would lose at once, only the first one checked loses.")
def _both_lose(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        'self._end_game(losers, reasons[0] if len(set(reasons)) == 1 else "simultaneous")',
        "self._end_game(losers[:1], reasons[0])"))


@mutant("concede-as-zero-life", "cr2004:102.7 cr2004:102.3 modern:405.6g",
        "Conceding sets the player's life to 0: the game ends only at the next check.")
def _concede_life(p: Patcher) -> None:
    def _concede(self: Game, name: str) -> None:
        self.players[name].life = 0
        self.changed()

    p.set(Game, "_concede", _concede)


@mutant("concede-needs-priority", "cr2004:102.7 modern:405.6g",
        "Only the player who holds priority (or must decide) may concede.")
def _concede_priority(p: Patcher) -> None:
    p.source(Game.legal_actions,
             ("+ self._concede_actions", '+ [Action("concede", decision.player)]'), count=2)
    p.source(Game.perform, ('if action.kind != "concede" and action.core() not in',
                            "if action.core() not in"))


# -- 103: the golden rules ---------------------------------------------------------------------


@mutant("hand-size-ignores-card-text", "cr2004:103.1",
        "The cleanup step discards down to the printed maximum hand size, ignoring Spellbook.")
def _hand_size_text(p: Patcher) -> None:
    p.source(Game._cleanup, ('maximum = self.player_rules(self.active)["max_hand_size"]',
                             "maximum = self.players[self.active].max_hand_size"))


@mutant("extra-land-plays-ignored", "cr2004:103.1 cr2004:212.6b",
        "A player may play one land a turn whatever effects (Exploration) say.")
def _extra_lands(p: Patcher) -> None:
    p.source(Game.can_play_land, ('lands_played < rules["land_plays"]', "lands_played < 1"))


@mutant("extra-play-beats-cant", "cr2004:103.2 cr2004:212.6b",
        "An effect granting extra land plays overrides a \"can't play lands\" effect.")
def _cant_can(p: Patcher) -> None:
    p.source(Game.can_play_land, ('return not rules["cant_play_lands"] and (',
                                  'return (not rules["cant_play_lands"] or '
                                  'rules["land_plays"] > 1) and ('))


@mutant("short-discard-skipped", "cr2004:103.3",
        "Told to discard more cards than the hand holds, a player discards none.")
def _short_discard(p: Patcher) -> None:
    p.source(Game.discard, ("for obj in list(player.hand):", "for obj in []:"))


@mutant("apnap-seat-order", "cr2004:103.4",
        "Simultaneous choices (Innocent Blood) are made by A then B, not active player first.")
def _apnap_seats(p: Patcher) -> None:
    p.source(choices._innocent_blood, ("for name in game._turn_order_from_active():",
                                       'for name in ("A", "B"):'))


@mutant("apnap-act-before-all-choose", "cr2004:103.4",
        "Each player sacrifices as they choose, before the other player has chosen.")
def _apnap_early(p: Patcher) -> None:
    p.source(choices._innocent_blood, ("chosen.append(game.objects[pick])",
                                       "game.sacrifice(game.objects[pick])"))


# -- 104: numbers and symbols -------------------------------------------------------------------


@mutant("divided-damage-rounds-up", "cr2004:104.1",
        "Fireball's damage divided among its targets is rounded up, not down.")
def _round_up(p: Patcher) -> None:
    p.source(core._fireball, ("share = (item.x or 0) // len(item.targets)",
                              "share = -(-(item.x or 0) // len(item.targets))"))


@mutant("negative-damage-heals", "cr2004:104.2",
        "Negative power is dealt as negative damage (the player gains life).")
def _negative_damage(p: Patcher) -> None:
    p.source(combat.CombatMixin._combat_damage,
             ("power = max(0, chars(attacker).power or 0)", "power = chars(attacker).power or 0"))
    p.source(Game.deal_damage, ("amount = max(0, amount)", "amount = amount"))


@mutant("negative-power-floored-early", "cr2004:104.2",
        "Power is floored at 0 after each modification, so a later +3 counts from 0.")
def _negative_floor(p: Patcher) -> None:
    p.source(common.modify_pt, ("chars.power += power",
                                "chars.power = max(0, chars.power + power)"))


@mutant("coloured-cost-any-colour", "cr2004:104.3a",
        "Coloured mana symbols are checked only as an amount: any colour pays {G}.")
def _colour_any(p: Patcher) -> None:
    p.source(mana.can_pay, ("if have < need:", "if False:"))
    p.source(mana.max_x, ("if have < need:", "if False:"))


@mutant("generic-needs-colourless", "cr2004:104.3b",
        "Generic mana ({1}) can be paid only with colourless mana.")
def _generic_colourless(p: Patcher) -> None:
    p.source(mana.can_pay, ("return sum(pool) - sum(cost.colored) >=",
                            "return pool[5] - cost.colored[5] >="))
    p.source(mana.max_x, ("spare = sum(pool) - sum(cost.colored) - cost.generic",
                          "spare = pool[5] - cost.colored[5] - cost.generic"))
    p.source(mana.default_payment, ("for slot in GENERIC_ORDER:", "for slot in (5,):"))


@mutant("colourless-cannot-pay-generic", "cr2004:104.3b cr2004:104.3d",
        "Colourless mana (Mind Stone's) can't pay generic costs; only coloured mana can.")
def _colourless_generic(p: Patcher) -> None:
    p.source(mana.can_pay, ("return sum(pool) - sum(cost.colored) >=",
                            "return sum(pool[:5]) - sum(cost.colored[:5]) >="))
    p.source(mana.max_x, ("spare = sum(pool) - sum(cost.colored) - cost.generic",
                          "spare = sum(pool[:5]) - sum(cost.colored[:5]) - cost.generic"))
    p.source(mana.default_payment, ("for slot in GENERIC_ORDER:",
                                    "for slot in GENERIC_ORDER[1:]:"))


@mutant("x-not-paid", "cr2004:104.3c",
        "The value chosen for X is used by the effect but not added to the cost paid.")
def _x_free(p: Patcher) -> None:
    p.source(mana.can_pay, ("cost.generic + cost.x * x", "cost.generic"))
    p.source(mana.default_payment, ("generic = cost.generic + cost.x * x",
                                    "generic = cost.generic"))
    p.source(mana.check_payment, ("due = total_due(cost, x)", "due = total_due(cost, 0)"))


@mutant("zero-cost-skips-stack", "cr2004:104.3e",
        "A permanent spell costing {0} goes straight onto the battlefield, without the stack.")
def _free_spell(p: Patcher) -> None:
    original = Game._cast

    def _cast(self: Game, action: Action) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        if obj.zone == HAND and cost_of(obj.card.cost).is_free and (
                PERMANENT_TYPES & set(obj.card.types)):
            self.move(obj, BATTLEFIELD, controller=action.player, cause="cast")
            return
        yield from original(self, action)

    p.set(Game, "_cast", _cast)


# -- {T} and summoning sickness (104.4, 212.3d) --------------------------------------------------


@mutant("tap-while-tapped", "cr2004:104.4",
        "A {T} ability can be activated while its permanent is already tapped.")
def _tap_tapped(p: Patcher) -> None:
    p.source(Game.can_use_ability, ("(obj.tapped or (self.is_sick(obj)",
                                    "(False or (self.is_sick(obj)"))


@mutant("sick-creature-taps", "cr2004:212.3d cr2004:104.4",
        "A summoning-sick creature may use its {T} abilities.")
def _sick_taps(p: Patcher) -> None:
    p.source(Game.can_use_ability, ("(obj.tapped or (self.is_sick(obj) and",
                                    "(obj.tapped or (False and"))


@mutant("sickness-for-noncreatures", "cr2004:104.4",
        "Summoning sickness applies to {T} abilities of every permanent, not only creatures.")
def _sick_all(p: Patcher) -> None:
    p.source(Game.can_use_ability, ('self.is_sick(obj) and "Creature" in self.chars(obj).types',
                                    "self.is_sick(obj) and True"))


@mutant("sick-creature-attacks", "cr2004:212.3d",
        "A summoning-sick creature may attack.")
def _sick_attacks(p: Patcher) -> None:
    p.source(combat.CombatMixin.can_attack,
             ('return "haste" in chars.keywords or not self.is_sick(obj)', "return True"))


@mutant("haste-ignored", "cr2004:212.3d",
        "Haste does nothing: a creature with haste is summoning sick like any other.",
        audit="M13")
def _haste(p: Patcher) -> None:
    p.source(combat.CombatMixin.can_attack,
             ('return "haste" in chars.keywords or not self.is_sick(obj)',
              "return not self.is_sick(obj)"))
    p.source(Game.can_use_ability, ('and not self.has(obj, "haste"))):', ")):"))


@mutant("control-change-keeps-sickness-clock", "cr2004:212.3d",
        "A creature that changes control is not summoning sick for its new controller.",
        audit="M12")
def _control_sick(p: Patcher) -> None:
    p.source(layers.LayersMixin.refresh_control, ("obj.controlled_since = self.turn", "pass"))


@mutant("sickness-only-in-entry-turn", "cr2004:212.3d",
        "A creature is summoning sick only during the turn it came under control (so it taps "
        "in the opponent's next turn).")
def _sick_turn(p: Patcher) -> None:
    p.source(Game.is_sick, ("return obj.controlled_since >= self.players[obj.controller]"
                            ".last_turn", "return obj.controlled_since == self.turn"))


# -- lands (212.6, 212.2f) ---------------------------------------------------------------------


@mutant("two-lands-per-turn", "cr2004:212.6b",
        "The land count is off by one: a player may play two lands a turn.")
def _two_lands(p: Patcher) -> None:
    p.source(Game.can_play_land, ('lands_played < rules["land_plays"]',
                                  'lands_played <= rules["land_plays"]'))


@mutant("land-any-step", "cr2004:212.6a",
        "A land may be played in any step of its player's turn, not only in a main phase.")
def _land_step(p: Patcher) -> None:
    p.source(Game._pool_actions, (
        _LAND_LINE, "if self.active == name and not self.stack and not costly and "
        "self.can_play_land(name):"))


@mutant("land-in-opponents-turn", "cr2004:212.6a",
        "A land may be played in the opponent's main phase.")
def _land_turn(p: Patcher) -> None:
    p.source(Game._pool_actions, (
        _LAND_LINE, "if self.step in MAIN_STEPS and not self.stack and not costly and "
        "self.can_play_land(name):"))


@mutant("land-with-stack", "cr2004:212.6a",
        "A land may be played while the stack is not empty.")
def _land_stack(p: Patcher) -> None:
    p.source(Game._pool_actions, (
        _LAND_LINE,
        "if self.active == name and self.step in MAIN_STEPS and not costly and "
        "self.can_play_land(name):"))


@mutant("land-uses-stack", "cr2004:212.6a",
        "A played land goes on the stack like a spell and enters when it resolves.")
def _land_on_stack(p: Patcher) -> None:
    original = Game._take_action

    def _take_action(self: Game, action: Action) -> Generator[Decision, Action, None]:
        if action.kind != "play_land":
            yield from original(self, action)
            return
        obj = self.objects[action.card]
        self.players[action.player].lands_played += 1
        card = self.move(obj, STACK, cause="play_land")
        assert card is not None
        card.controller = action.player
        self.stack.append(StackItem(card.id, "spell", action.player, obj=card))
        self._events.append(("cast", action.player, card.id, card.card.name))

    p.set(Game, "_take_action", _take_action)


@mutant("artifact-land-castable", "cr2004:212.6g cr2004:212.2f",
        "An artifact land may also be cast as an artifact spell.")
def _artifact_land(p: Patcher) -> None:
    p.source(Game._pool_actions, ('if "Land" in types:\n',
                                      'if "Land" in types and "Artifact" not in types:\n'))


# -- sorcery timing (212.2a, 212.3a, 212.4a, 212.7a, 212.7e) ------------------------------------


@mutant("sorcery-speed-in-combat",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a",
        "Sorcery-speed spells check 'from the first to the second main phase', so combat too.")
def _sorcery_combat(p: Patcher) -> None:
    p.source(Game._pool_actions, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok",
        "not (self.active == name and MAIN1 <= self.step <= max(MAIN_STEPS) "
        "and not self.stack)")))


@mutant("sorcery-speed-in-opponents-turn",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a",
        "Sorcery-speed spells may be cast in the opponent's main phase.")
def _sorcery_turn(p: Patcher) -> None:
    p.source(Game._pool_actions, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok", "not (self.step in MAIN_STEPS and not self.stack)")))


@mutant("sorcery-speed-with-stack",
        "cr2004:212.2a cr2004:212.3a cr2004:212.4a cr2004:212.7a",
        "Sorcery-speed spells may be cast while the stack is not empty.")
def _sorcery_stack(p: Patcher) -> None:
    p.source(Game._pool_actions, (_SORCERY_LINE, _SORCERY_LINE.replace(
        "not sorcery_ok", "not (self.active == name and self.step in MAIN_STEPS)")))


@mutant("equip-any-time", "cr2004:212.7e cr2004:212.2h",
        "Equip may be activated any time its controller has priority (instant speed).")
def _equip_timing(p: Patcher) -> None:
    p.source(Game.can_use_ability, ("(spec.sorcery_speed or spec.equip or",
                                    "(spec.sorcery_speed or"))


# -- resolving permanents (212.2b, 212.3b, 212.4b) -----------------------------------------------


@mutant("resolves-under-active-player", "cr2004:212.2b cr2004:212.3b cr2004:212.4b",
        "A permanent spell resolves under the active player's control, not its caster's.",
        audit="M3")
def _resolve_active(p: Patcher) -> None:
    p.source(Game._resolve_top, ("controller=item.controller, cause=\"resolve\"",
                                 "controller=self.active, cause=\"resolve\""))


@mutant("resolves-under-owner", "cr2004:212.2b cr2004:212.3b cr2004:212.4b",
        "A permanent spell resolves under its owner's control, not its caster's.",
        audit="M3b")
def _resolve_owner(p: Patcher) -> None:
    p.source(Game._resolve_top, ("controller=item.controller, cause=\"resolve\"",
                                 "controller=obj.owner, cause=\"resolve\""))


@mutant("spell-to-graveyard-before-effect", "cr2004:212.7b cr2004:212.5b modern:404.1",
        "An instant or sorcery goes to the graveyard as it starts resolving, before its effect.")
def _graveyard_early(p: Patcher) -> None:
    p.source(Game._resolve_top, ("spell = obj.impl.spell\n",
                                 "spell = obj.impl.spell\n"
                                 "        self.move(obj, GRAVEYARD, cause=\"resolve\")\n"))


# -- Auras and Equipment (212.4, 212.2g-k) --------------------------------------------------------


@mutant("aura-any-permanent", "cr2004:212.4d",
        "An Aura spell may target any permanent, whatever it may enchant.")
def _aura_target(p: Patcher) -> None:
    p.source(Game._spell_actions, ("for target in self.target_candidates(impl.enchant, name):",
                                   "for target in [o.id for o in self.live()]:"))


@mutant("aura-stays-when-illegal", "cr2004:212.4f",
        "An Aura whose enchanted permanent is gone or illegal stays on the battlefield.")
def _aura_stays(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        "elif obj.impl.enchant is not None and not self._aura_legal(obj):", "elif False:"))


@mutant("aura-to-controllers-graveyard", "cr2004:212.4f",
        "An Aura leaving the battlefield goes to its controller's graveyard, not its owner's.",
        audit="section 3 #7-#8")
def _aura_controller(p: Patcher) -> None:
    original = Game.move

    def move(self: Game, obj: GameObject, to: int, *args: Any, **kwargs: Any
             ) -> GameObject | None:
        if to == GRAVEYARD and obj.zone == BATTLEFIELD and obj.impl.enchant is not None:
            obj.owner = obj.controller
        return original(self, obj, to, *args, **kwargs)

    p.set(Game, "move", move)


@mutant("equipment-dies-with-creature", "cr2004:212.2i",
        "Equipment attached to an illegal or vanished creature goes to the graveyard.")
def _equipment_dies(p: Patcher) -> None:
    p.source(Game._state_based_actions, ("unattach.append(obj)", "to_graveyard.append(obj)"))


@mutant("equipment-stays-attached", "cr2004:212.2i",
        "Equipment stays attached to a creature that has left the battlefield.")
def _equipment_stays(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        'elif obj.attached_to is not None and "Equipment" in c.subtypes and (',
        "elif False and ("))


@mutant("equip-any-creature", "cr2004:212.2h",
        "Equip may target any creature, not only one its controller controls.")
def _equip_any(p: Patcher) -> None:
    p.source(common._yours, ("return obj.controller == controller", "return True"))


@mutant("equipment-ability-for-equipment-controller", "cr2004:212.2k",
        "An ability granted by Equipment can be activated by the Equipment's controller too.")
def _equip_granted(p: Patcher) -> None:
    original = Game._pool_actions

    def _pool_actions(self: Game, name: str) -> list[Action]:
        actions = original(self, name)
        player = self.players[name]
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        for obj in self.battlefield:
            if obj.controller == name or obj.phased_out:
                continue
            for index, spec in enumerate(self.abilities(obj)):
                granter = self.objects.get(spec.granted_by) if spec.granted_by else None
                if granter is not None and granter.controller == name:
                    self._ability_actions(actions, player, obj, index, spec, sorcery_ok)
        return actions

    p.set(Game, "_pool_actions", _pool_actions)


# -- type-changing effects (212.1b-d, 212.6e) ---------------------------------------------------


@mutant("land-type-added-not-replaced", "cr2004:212.1b cr2004:212.6e",
        "Setting a land's type adds the new land type to the old ones instead of replacing them.",
        audit="M4")
def _land_type_add(p: Patcher) -> None:
    p.source(common.set_land_types, (
        "chars.subtypes = tuple(s for s in chars.subtypes if s not in LAND_TYPES) + land_types",
        "chars.subtypes = chars.subtypes + land_types"))


@mutant("land-type-keeps-rules-text", "cr2004:212.6e",
        "A land whose type is set to a basic land type keeps its rules text.")
def _land_type_text(p: Patcher) -> None:
    p.source(common.set_land_types, ("chars.lost_abilities = True", "pass"))


@mutant("type-change-replaces-all-types", "cr2004:212.1c",
        "\"Still a land\" is ignored: a type-changing effect replaces every old type.")
def _types_replaced(p: Patcher) -> None:
    p.source(common.add_types, ("chars.types = chars.types | frozenset(types)",
                                "chars.types = frozenset(types)"))


@mutant("type-change-drops-supertypes", "cr2004:212.1d",
        "A type-changing effect clears the object's supertypes (legendary, basic).")
def _supertypes_dropped(p: Patcher) -> None:
    p.source(common.add_types, ("chars.types = chars.types | frozenset(types)",
                                "chars.types = chars.types | frozenset(types)\n"
                                "    chars.supertypes = frozenset()"))


# -- turn structure (300) ----------------------------------------------------------------------


@mutant("no-attackers-skips-end-of-combat", "cr2004:300.1",
        "With no attackers the combat phase ends at once, skipping the end of combat step.")
def _skip_end_combat(p: Patcher) -> None:
    p.source(Game._next_step, ("nxt = END_COMBAT\n", "nxt = END_COMBAT + 1\n"))


@mutant("passes-not-reset-by-actions", "cr2004:300.2 modern:405.5",
        "A pass still counts after the other player acts: two passes need not be in succession.")
def _passes(p: Patcher) -> None:
    p.source(Game._priority_round, ("passes = 0\n            resolutions = 0",
                                    "resolutions = 0"))


@mutant("mana-burn-off", "cr2004:300.3",
        "No mana burn in 2004: unused mana empties without loss of life.")
def _no_burn(p: Patcher) -> None:
    p.set(Game2004, "mana_burn", False)


@mutant("mana-empties-each-step-2004", "cr2004:300.3",
        "In 2004 mana empties at the end of every step, as in the modern rules.")
def _pool_step(p: Patcher) -> None:
    p.set(Game2004, "pool_empties_each_step", True)


@mutant("mana-kept-through-phase-modern", "cr2004:300.3",
        "Modern mana pools empty only at the end of a phase, as in 2004 (modern 500.4 is "
        "outside the corpus).")
def _pool_phase(p: Patcher) -> None:
    p.set(GameModern, "pool_empties_each_step", False)


@mutant("until-end-of-turn-ends-with-phase", "cr2004:300.4",
        "\"Until end of turn\" effects end as the phase they were made in ends.")
def _eot_phase(p: Patcher) -> None:
    p.source(Game._end_step, ("if ends_phase and PHASE_OF_STEP[step] == COMBAT:",
                              "if ends_phase:\n"
                              "        self._expire(\"turn\")\n"
                              "    if ends_phase and PHASE_OF_STEP[step] == COMBAT:"))


@mutant("until-end-of-turn-never-ends", "cr2004:300.4",
        "\"Until end of turn\" effects are never removed in the cleanup step.")
def _eot_never(p: Patcher) -> None:
    p.source(Game._cleanup, ('self._expire("turn")', "pass"))


@mutant("until-end-of-combat-never-ends", "cr2004:300.4",
        "\"Until end of combat\" effects never end.", audit="M22")
def _eoc_never(p: Patcher) -> None:
    p.source(combat.CombatMixin._end_combat, ('self._expire("combat")', "pass"))


@mutant("your-upkeep-trigger-every-upkeep", "cr2004:300.5",
        "\"At the beginning of your upkeep\" triggers in every player's upkeep.")
def _upkeep_any(p: Patcher) -> None:
    p.source(triggers.TriggersMixin._matches, (
        'if spec.whose == "controller" and self.active != source.controller:', "if False:"))


@mutant("each-step-trigger-only-yours", "cr2004:300.5",
        "\"At the beginning of each player's draw step\" triggers only in its controller's.")
def _each_mine(p: Patcher) -> None:
    p.source(triggers.TriggersMixin._matches, (
        'if spec.whose == "controller" and', 'if spec.whose in ("controller", "each") and'))


@mutant("step-triggers-after-priority", "cr2004:300.5",
        "Beginning-of-step abilities trigger as the step ends, after players had priority.")
def _step_late(p: Patcher) -> None:
    p.source(Game._run_step, (
        'self.fire("step", None, step=step)\n    yield from self._priority_round()',
        'yield from self._priority_round()\n    self.fire("step", None, step=step)'))


@mutant("extra-turns-oldest-first", "cr2004:300.6",
        "Extra turns are taken in the order they were created, not newest first.")
def _extra_fifo(p: Patcher) -> None:
    p.source(Game._next_step, ("self.extra_turns.pop()", "self.extra_turns.pop(0)"))


@mutant("extra-turn-shifts-turn-order", "cr2004:300.6",
        "After an extra turn the turn passes to the extra turn's player's opponent.")
def _extra_order(p: Patcher) -> None:
    p.source(Game._begin_turn, ("if not extra:", "if True:"))


# -- tokens and the legend rule (200.4a, 215.1, 216.3) -----------------------------------------


@mutant("token-owner-is-controller-2004", "cr2004:200.4a cr2004:216.1",
        "In 2004 a token's owner is the player who gets it, not the controller of what made it.",
        audit="M21")
def _token_owner(p: Patcher) -> None:
    p.source(Game2004._token_owner, ("return creator", "return receiver"))


@mutant("token-survives-off-battlefield", "cr2004:216.3",
        "A token that leaves the battlefield stays in its new zone.")
def _token_stays(p: Patcher) -> None:
    p.source(Game._state_based_actions, (
        "ceasing = self._tokens_ceasing() if self._tokens_outside else []", "ceasing = []"))


@mutant("legend-rule-off", "cr2004:215.1",
        "No legend rule: any number of same-named legendary permanents stay.", audit="M20")
def _legend(p: Patcher) -> None:
    p.source(Game._state_based_actions, ("if len(legendary) > 1 or len(worlds) > 1:",
                                         "if len(worlds) > 1:"))


# -- zones (217, 400-405) ------------------------------------------------------------------------


@mutant("graveyard-of-controller", "cr2004:217.1a cr2004:217.4a modern:400.3 modern:404.1",
        "A card leaving the battlefield or the stack goes to its controller's zone, not its "
        "owner's.")
def _controller_zone(p: Patcher) -> None:
    p.source(Game.move, (
        "new = self.new_object(obj.card, obj.impl, obj.owner, to)",
        "new = self.new_object(obj.card, obj.impl, obj.owner if to in (BATTLEFIELD, STACK) "
        "else obj.controller, to)"))


@mutant("instant-can-enter-battlefield", "cr2004:217.1a cr2004:212.5d modern:400.4a",
        "Nothing stops an instant or sorcery card from being put onto the battlefield.",
        audit="M1")
def _instant_battlefield(p: Patcher) -> None:
    p.source(Game.move, ("if to == BATTLEFIELD and not PERMANENT_TYPES.intersection("
                         "obj.card.types):", "if False:"))


@mutant("zone-change-keeps-memory", "cr2004:217.1c cr2004:217.5c modern:400.7 modern:403.4",
        "An object keeps its tapped status and the effects on it when it changes zones.")
def _zone_memory(p: Patcher) -> None:
    original = Game.move

    def move(self: Game, obj: GameObject, to: int, *args: Any, **kwargs: Any
             ) -> GameObject | None:
        tapped = obj.tapped
        new = original(self, obj, to, *args, **kwargs)
        if new is not None:
            new.tapped = tapped
            for effect in self.effects:
                if effect.target == obj.id:
                    effect.target = new.id
            self.changed()
        return new

    p.set(Game, "move", move)


@mutant("leaves-trigger-loses-track", "cr2004:217.1c modern:400.7e",
        "A zone-change trigger cannot find the object in its new zone (Rancor stays put).")
def _lost_track(p: Patcher) -> None:
    p.source(Game.find_moved, ("return new if self._may_find_in(new.zone) else None",
                               "return None"))


@mutant("draw-from-bottom", "cr2004:217.1b modern:400.5",
        "A player draws the bottom card of the library.")
def _draw_bottom(p: Patcher) -> None:
    p.source(Game.draw, ("player.library[-1]", "player.library[0]"))


@mutant("graveyard-top-is-bottom", "cr2004:217.1b cr2004:217.4a modern:404.1",
        "A card put into a graveyard goes to the bottom of the pile, not on top.")
def _graveyard_bottom(p: Patcher) -> None:
    p.source(Game.move, ("elif bottom:", "elif bottom or to == GRAVEYARD:"))


@mutant("hand-visible-to-opponent", "cr2004:217.3c modern:402.3",
        "A player's view shows the opponent's hand.")
def _hand_visible(p: Patcher) -> None:
    p.source(observation.observe, ("sees_hand = viewer is None or viewer == name",
                                   "sees_hand = True"))


@mutant("graveyard-order-chosen-by-controller", "cr2004:217.4c modern:404.3",
        "Cards put into a graveyard at once are ordered by their controller, not their owner.")
def _graveyard_order(p: Patcher) -> None:
    p.source(Game.put_into_graveyards, ("if o.owner == name and", "if o.controller == name and"))


@mutant("cleanup-discard-both-players", "cr2004:217.3b modern:402.2",
        "In the cleanup step both players discard down to their maximum hand size.")
def _cleanup_both(p: Patcher) -> None:
    old = ('maximum = self.player_rules(self.active)["max_hand_size"]\n'
           "        hand = self.players[self.active].hand\n"
           "        if maximum is not None and len(hand) > maximum:\n"
           "            yield from self.discard(self.active, len(hand) - maximum)\n")
    new = ("for who in PLAYERS:\n"
           '            maximum = self.player_rules(who)["max_hand_size"]\n'
           "            hand = self.players[who].hand\n"
           "            if maximum is not None and len(hand) > maximum:\n"
           "                yield from self.discard(who, len(hand) - maximum)\n")
    p.source(Game._cleanup, (old, new))


@mutant("hand-size-off-by-one", "cr2004:217.3b modern:402.2",
        "The cleanup step discards only above eight cards.")
def _hand_eight(p: Patcher) -> None:
    p.source(Game._cleanup, ("len(hand) > maximum:", "len(hand) > maximum + 1:"))


@mutant("stack-resolves-bottom-first", "cr2004:217.6b modern:405.2",
        "The stack resolves first in, first out.")
def _fifo(p: Patcher) -> None:
    p.source(Game._resolve_top, ("item = self.stack[-1]", "item = self.stack[0]"))


@mutant("pass-pass-resolves-whole-stack", "cr2004:217.6d modern:405.5",
        "Two passes in succession resolve everything on the stack, not only the top object.")
def _resolve_all(p: Patcher) -> None:
    p.source(Game._priority_round, ("yield from self._resolve_top()\n",
                                    "while self.stack:\n"
                                    "                yield from self._resolve_top()\n"))


@mutant("priority-after-resolution-to-last-passer", "cr2004:217.6d modern:405.5",
        "After a resolution priority goes to the player who passed last, not the active player.")
def _priority_last(p: Patcher) -> None:
    p.source(Game._priority_round, ("resolutions += 1\n            player = self.active",
                                    "resolutions += 1"))


@mutant("trigger-controlled-by-owner", "cr2004:217.6c modern:405.4",
        "A triggered ability is controlled by its source's owner, not its controller.")
def _trigger_owner(p: Patcher) -> None:
    p.source(triggers.TriggersMixin.fire, ("self._queue(spec, source, source.controller, event)",
                                           "self._queue(spec, source, source.owner, event)"))


@mutant("triggers-nonactive-first", "modern:405.3",
        "Simultaneous triggers go on the stack non-active player's first (APNAP reversed).")
def _triggers_nap(p: Patcher) -> None:
    p.source(triggers.TriggersMixin._put_triggers_on_stack, (
        "for name in (self.active, other(self.active)):",
        "for name in (other(self.active), self.active):"))


@mutant("triggers-seat-order", "modern:405.3",
        "Simultaneous triggers go on the stack A's first, then B's, whoever is active.")
def _triggers_seats(p: Patcher) -> None:
    p.source(triggers.TriggersMixin._put_triggers_on_stack, (
        "for name in (self.active, other(self.active)):", 'for name in ("A", "B"):'))


@mutant("mana-ability-uses-stack", "modern:405.6c",
        "A mana ability goes on the stack and adds its mana only when it resolves.")
def _mana_stack(p: Patcher) -> None:
    original = Game._activate

    def _activate(self: Game, action: Action) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        spec = self.abilities(obj)[action.ability or 0]
        produces = spec.produces
        if produces is None or spec.cost is not None or spec.sacrifice:
            yield from original(self, action)
            return

        def add(game: Game, item: StackItem) -> None:
            game.add_mana(item.controller, produces)

        if spec.tap:
            self.tap(obj)
        item = StackItem(self._next_id, "ability", action.player, source=obj,
                         ability=replace(spec, effect=add))
        self._next_id += 1
        self.stack.append(item)
        self._events.append(("activate", action.player, obj.id, spec.text))

    p.set(Game, "_activate", _activate)


@mutant("combat-damage-without-stack-2004", "cr2004:217.6e",
        "2004 combat damage is dealt at once, without using the stack.")
def _damage_no_stack(p: Patcher) -> None:
    p.set(Game2004, "combat_damage_uses_stack", False)


@mutant("combat-damage-on-stack-modern", "modern:405.6e",
        "Modern combat damage goes on the stack, as in 2004.")
def _damage_stack(p: Patcher) -> None:
    p.set(GameModern, "combat_damage_uses_stack", True)


@mutant("sba-only-with-empty-stack", "modern:405.6f",
        "State-based actions are checked only when the stack is empty.")
def _sba_late(p: Patcher) -> None:
    p.source(Game._settle, ("if (yield from self._state_based_actions()):",
                            "if not self.stack and (yield from self._state_based_actions()):"))


@mutant("removed-zone-in-game-2004", "cr2004:217.1e",
        "In 2004 the removed-from-the-game zone is treated as in the game (the modern exile "
        "rule), so Burning Wish cannot fetch from it.")
def _removed_in_game(p: Patcher) -> None:
    p.set(Game2004, "cards_outside_the_game", Game.cards_outside_the_game)


@mutant("exile-outside-game-modern", "modern:400.11 modern:400.11a",
        "Modern exile is treated as outside the game (the 2004 rule), so a wish fetches from it.")
def _exile_outside(p: Patcher) -> None:
    def cards_outside_the_game(self: Game, name: str) -> list[GameObject]:
        return list(self.players[name].sideboard) + [
            o for o in self.exile if o.owner == name and not o.token]

    p.set(GameModern, "cards_outside_the_game", cards_outside_the_game)


@mutant("phasing-in-makes-new-permanent", "cr2004:217.8c",
        "A permanent that phases in is summoning sick, like one that just came into play.")
def _phase_sick(p: Patcher) -> None:
    p.source(Game2004._phase_in_and_out, ("obj.zone = BATTLEFIELD",
                                          "obj.zone = BATTLEFIELD\n"
                                          "        obj.controlled_since = self.turn"))


@mutant("phasing-leaves-attachments", "cr2004:217.8a cr2004:217.8c",
        "A permanent phases out alone; what is attached to it stays in play.")
def _phase_alone(p: Patcher) -> None:
    p.source(Game2004.phase_out, ("for item in _with_attachments(self.battlefield, obj):",
                                  "for item in [obj]:"))


@mutant("phase-in-every-untap", "cr2004:217.8a cr2004:217.8c",
        "Phased-out permanents phase in during every untap step, not their controller's.")
def _phase_any(p: Patcher) -> None:
    p.source(Game2004._phase_in_and_out, ("and o.controller == self.active]", "]"))
