"""Mutants of the rules outside the seeds on timing, priority, casting and resolving (modern
117, 601-608 and the rules of 107-305 they lean on; 2004 408-413): the ways an engine most
often gets them wrong. The existing mutants that break these rules too cite them beside their
seed rules (zones.py, modern_zones.py, card_types.py, turns.py)."""

from __future__ import annotations

from typing import Any

from reference_engine.actions import Action
from reference_engine.constants import BATTLEFIELD
from reference_engine.editions import GameModern
from reference_engine.game import Game
from reference_engine.layers import Layers
from reference_engine.legality import Legality
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.targets import Targets
from reference_engine.triggers import Triggers

# -- 117 timing and priority ------------------------------------------------------------------


@mutant("priority-after-cast-to-active-player",
        "modern:117.3c modern:601.2i cr2004:408.1c",
        "After a player casts a spell or activates an ability, priority goes to the active "
        "player, not back to the player who acted (the non-active caster loses it).")
def _priority_to_active(p: Patcher) -> None:
    p.source(Game._priority_round, (
        "yield from self._take_action(action)\n",
        "yield from self._take_action(action)\n            player = self.active\n"))


@mutant("pass-keeps-priority", "modern:117.3d",
        "A player who passes keeps priority instead of handing it to the next player: two "
        "passes by the same player resolve the top object.")
def _pass_keeps_priority(p: Patcher) -> None:
    p.source(Game._priority_round, ("if passes == 1:\n                player = other(player)",
                                    "if passes == 1:\n                pass"))


@mutant("actions-without-priority", "modern:117.1",
        "A player who does not hold priority may still cast a spell or activate an ability.")
def _acts_without_priority(p: Patcher) -> None:
    p.source(Legality.refusal, (
        'if action.player != decision.player:\n        return "not_your_priority"',
        'if action.player != decision.player and action.kind not in ("cast", "activate"):\n'
        '        return "not_your_priority"'))


@mutant("first-priority-to-nonactive-player", "modern:117.3a",
        "At the start of a step or phase the non-active player receives priority first.")
def _first_priority_nonactive(p: Patcher) -> None:
    p.source(Game._priority_round, ("player = self.active\n    passes = 0",
                                    "player = other(self.active)\n    passes = 0"))


@mutant("activated-abilities-at-sorcery-speed", "modern:117.1b",
        "Every activated ability other than a mana ability may be activated only when its "
        "controller could cast a sorcery.")
def _abilities_sorcery_speed(p: Patcher) -> None:
    p.source(Legality.ability_refusal, (
        "if (spec.sorcery_speed or spec.equip or spec.loyalty is not None) and not sorcery_ok:",
        "if (spec.produces is None and not spec.any_color) and not sorcery_ok:"))


@mutant("triggers-wait-for-an-empty-stack", "modern:117.2a modern:603.3",
        "Triggered abilities are put on the stack only once the stack is empty, not the next "
        "time a player would receive priority.")
def _triggers_wait(p: Patcher) -> None:
    p.source(Game._settle, ("if self.triggered:", "if self.triggered and not self.stack:"))


# -- mana abilities (117.1d, 601.2g, 605.3a; 2004 409.1f) ------------------------------------------


@mutant("mana-ability-needs-an-empty-stack", "modern:117.1d modern:605.3a",
        "A mana ability activated by itself is refused while the stack is not empty (as if it "
        "were a land play).")
def _mana_ability_empty_stack(p: Patcher) -> None:
    p.source(Legality._activation_refusal, (
        "spec = abilities[action.ability]\n",
        "spec = abilities[action.ability]\n"
        "    if (spec.produces is not None or spec.any_color) and self.stack:\n"
        '        return "stack_not_empty"\n'))


@mutant("no-mana-abilities-while-paying",
        "modern:601.2g modern:117.1d modern:605.3a cr2004:409.1f",
        "Mana abilities cannot be activated while a cost is paid: a spell or ability named "
        "with its mana sources is refused unless the mana is in the pool already.")
def _no_mana_while_paying(p: Patcher) -> None:
    p.source(Legality._check_paying, ("player.pool[slot] += amount", "pass"))


# -- 601 casting ------------------------------------------------------------------------------


@mutant("illegal-cast-not-rewound", "modern:601.2 cr2004:409.1",
        "A cast found illegal is not rewound: the mana sources named to pay for it stay "
        "tapped.")
def _cast_not_rewound(p: Patcher) -> None:
    perform = Game.perform

    def partly(self: Game, action: Action) -> None:
        try:
            perform(self, action)
        except Exception:
            if action.kind == "cast" and isinstance(action.pay_with, list | tuple):
                for ident in action.pay_with:
                    obj = self.objects.get(ident)
                    if obj is not None and not obj.tapped:
                        obj.tapped = True
                        self.changed()
            raise

    p.set(Game, "perform", partly)


@mutant("kicker-announcement-forgotten", "modern:601.2b cr2004:409.1b",
        "A spell cast with its kicker paid is not kicked: the announcement is lost as it "
        "moves to the stack (Kavu Titan enters without its counters).")
def _kicker_forgotten(p: Patcher) -> None:
    p.source(Game._cast, ('card.cast_info = {"x": action.x, "kicked": action.kicked,',
                          'card.cast_info = {"x": action.x, "kicked": False,'))


@mutant("duplicate-targets-allowed", "modern:601.2c cr2004:409.1c",
        "A spell may name the same object or player twice for one word \"target\" (Fireball "
        "at B and B).")
def _duplicate_targets(p: Patcher) -> None:
    p.source(Legality._spell_refusal, ("if len(set(targets)) != len(targets):",
                                       "if False:"))


@mutant("extra-target-cost-ignored", "modern:601.2f",
        "A cost increase is left out of the total cost: Fireball costs no {1} more for each "
        "target beyond the first.")
def _extra_target_cost(p: Patcher) -> None:
    p.source(Legality.spell_cost, (
        "if spell is not None and spell.extra_target_cost and targets > 1:", "if False:"))


@mutant("x-is-zero-on-the-stack", "modern:202.3e",
        "The X of a spell counts as 0 in its mana value on the stack too.")
def _x_zero_on_stack(p: Patcher) -> None:
    p.source(Layers._base_chars, (
        'if obj.zone == STACK and obj.cast_info and obj.cast_info.get("x") and cost:',
        "if False:"))


# -- 603 triggered abilities ------------------------------------------------------------------


@mutant("ability-triggers-once-a-turn", "modern:603.2",
        "A triggered ability triggers on the first occurrence of its event in a turn only, not "
        "on each one: Soul Warden gains 1 life for the first creature to enter.")
def _once_a_turn(p: Patcher) -> None:
    queue = Triggers._queue

    def once(self: Any, spec: Any, source: Any, controller: str, event: Any) -> None:
        fired = self.__dict__.setdefault("_mutant_fired", set())
        key = (id(spec), source.id, self.turn)
        if key not in fired:
            fired.add(key)
            queue(self, spec, source, controller, event)

    p.set(Triggers, "_queue", once)


@mutant("own-enters-ability-missed", "modern:603.6a",
        "Only the permanents already on the battlefield are checked for enters triggers: a "
        "permanent's own \"when this enters\" ability never triggers (Gravedigger).")
def _own_etb_missed(p: Patcher) -> None:
    p.source(Triggers._matches, (
        "if kind != wanted or subject is not source:",
        'if kind != wanted or subject is not source or kind == "etb":'))


@mutant("leaves-triggers-do-not-look-back", "modern:603.10",
        "Leaves-the-battlefield abilities are checked with the permanents there after the "
        "event: the object that left no longer triggers (Rancor stays in the graveyard).")
def _no_look_back(p: Patcher) -> None:
    p.source(Triggers.fire, ("if old is not None:\n", "if False:\n"))


@mutant("intervening-if-not-rechecked", "modern:603.4 cr2004:410.10",
        "An intervening \"if\" is checked only as the ability triggers, not again as it "
        "resolves (Howling Mine tapped in response still gives its card).")
def _intervening_once(p: Patcher) -> None:
    p.source(Game._resolve_top, ('if getattr(spec, "intervening", False) and',
                                 "if False and"))


@mutant("delayed-trigger-at-once", "modern:603.7",
        "A delayed triggered ability triggers as soon as it is created, not at its later "
        "event (Stone Giant's creature is destroyed at once, not at the end step).")
def _delayed_at_once(p: Patcher) -> None:
    add_delayed = Triggers.add_delayed

    def at_once(self: Any, event: str, spec: Any, controller: str, *args: Any,
                **kwargs: Any) -> None:
        add_delayed(self, event, spec, controller, *args, **kwargs)
        delayed = self.delayed.pop()
        self._queue(delayed.spec, delayed.source, delayed.controller,
                    {"kind": event, "subject": None})

    p.set(Triggers, "add_delayed", at_once)


# -- 604 static abilities ---------------------------------------------------------------------


@mutant("cda-only-on-the-battlefield-modern", "modern:604.3",
        "Modern: a characteristic-defining ability works only on the battlefield (the 2004 "
        "reading of *): Nightmare in a hand is 0/0.")
def _cda_battlefield_only(p: Patcher) -> None:
    p.set(GameModern, "_cda_applies", lambda self, obj: obj.zone == BATTLEFIELD)


# -- 608 resolving ----------------------------------------------------------------------------


@mutant("targets-checked-only-for-their-zone", "modern:608.2b cr2004:413.2a",
        "As a spell or ability resolves, a target is illegal only if it has left its zone: "
        "one that gained protection stays legal (Giant Growth pumps a creature that gained "
        "protection from green).")
def _targets_by_zone(p: Patcher) -> None:
    def still_there(self: Any, item: Any) -> list[int | str]:
        return [t for t in item.targets if isinstance(t, str) or t in self.objects]

    p.set(Targets, "legal_targets_of", still_there)
    p.source(Game._resolve_top, (
        "self.target_legal(spec, item.controller, t, source)",
        "(isinstance(t, str) or t in self.objects)"))


@mutant("aura-spell-skips-its-target-check", "modern:608.3",
        "An Aura spell does not check its target as it resolves: it enters attached to a "
        "creature that has gained protection from it (and goes to the graveyard from the "
        "battlefield, so Rancor returns to its owner's hand).")
def _aura_no_target_check(p: Patcher) -> None:
    p.source(Game._resolve_top, (
        "if item.targets and not any(",
        "if item.targets and not (item.obj is not None and item.obj.impl.enchant is not None)"
        " and not any("))


@mutant("resolved-spell-to-bottom-of-graveyard", "modern:608.2n modern:404.1",
        "A resolved instant or sorcery is put at the bottom of its owner's graveyard, not on "
        "top.")
def _resolved_to_bottom(p: Patcher) -> None:
    p.source(Game._resolve_top, ('self.move(obj, GRAVEYARD, cause="resolve")',
                                 'self.move(obj, GRAVEYARD, cause="resolve", bottom=True)'))


@mutant("cost-paid-in-part", "modern:601.2h",
        "A spell whose cost the mana pool covers only in part is cast anyway: its coloured "
        "mana is checked, and the whole pool goes towards the rest.")
def _cost_in_part(p: Patcher) -> None:
    p.source(Legality._spell_refusal, (
        "if not mana.can_pay(self.players[action.player].pool, cost, action.x or 0):",
        "if not mana.can_pay(self.players[action.player].pool, cost._replace(generic=0), 0):"))
    p.source(Game._pay, (
        "assert found is not None  # the action was checked: the pool pays\n"
        "        spend = found",
        "spend = found if found is not None else list(player.pool)"))


@mutant("gone-source-read-as-it-is-now", "modern:608.2h",
        "An ability whose source has left the battlefield reads the source as it is now, not "
        "as it last existed there: Stone Giant returned to its owner's hand has lost the power "
        "Holy Strength gave it.")
def _no_last_known(p: Patcher) -> None:
    p.source(Layers.known_chars, (
        "if obj.last_chars is not None:\n",
        "if obj.id not in self.objects and obj.successor is not None:\n"
        "        return self.chars(obj.successor)\n"
        "    if obj.last_chars is not None:\n"))
