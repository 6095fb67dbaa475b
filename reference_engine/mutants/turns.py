"""Mutants of the turn structure: steps, mana emptying, durations, step triggers, extra turns
(cr2004 300 and its modern counterparts)."""

from __future__ import annotations

from reference_engine import combat, triggers
from reference_engine.editions import Game2004, GameModern
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant

# -- turn structure (300) ----------------------------------------------------------------------


@mutant("no-attackers-skips-end-of-combat", "cr2004:300.1 modern:508.8 cr2004:308.4",
        "With no attackers the combat phase ends at once, skipping the end of combat step.")
def _skip_end_combat(p: Patcher) -> None:
    p.source(Game._next_step, ("nxt = END_COMBAT\n", "nxt = END_COMBAT + 1\n"))


@mutant("passes-not-reset-by-actions", "cr2004:300.2 modern:405.5 modern:117.4 modern:500.2",
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


@mutant("mana-kept-through-phase-modern", "cr2004:300.3 modern:500.5 modern:703.4q",
        "Modern mana pools empty only at the end of a phase, as in 2004.")
def _pool_phase(p: Patcher) -> None:
    p.set(GameModern, "pool_empties_each_step", False)


@mutant("until-end-of-turn-ends-with-phase", "cr2004:300.4",
        "\"Until end of turn\" effects end as the phase they were made in ends.")
def _eot_phase(p: Patcher) -> None:
    p.source(Game._end_step, ("if ends_phase and PHASE_OF_STEP[step] == COMBAT:",
                              "if ends_phase:\n"
                              "        self._expire(\"turn\")\n"
                              "    if ends_phase and PHASE_OF_STEP[step] == COMBAT:"))


@mutant("until-end-of-turn-never-ends", "cr2004:300.4 modern:514.2 cr2004:314.2",
        "\"Until end of turn\" effects are never removed in the cleanup step.")
def _eot_never(p: Patcher) -> None:
    p.source(Game._cleanup, ('self._expire("turn")', "pass"))


@mutant("until-end-of-combat-never-ends", "cr2004:300.4",
        "\"Until end of combat\" effects never end.", audit="M22")
def _eoc_never(p: Patcher) -> None:
    p.source(combat.Combat._end_combat, ('self._expire("combat")', "pass"))


@mutant("your-upkeep-trigger-every-upkeep", "cr2004:300.5",
        "\"At the beginning of your upkeep\" triggers in every player's upkeep.")
def _upkeep_any(p: Patcher) -> None:
    p.source(triggers.Triggers._matches, (
        'if spec.whose == "controller" and self.active != source.controller:', "if False:"))


@mutant("each-step-trigger-only-yours", "cr2004:300.5",
        "\"At the beginning of each player's draw step\" triggers only in its controller's.")
def _each_mine(p: Patcher) -> None:
    p.source(triggers.Triggers._matches, (
        'if spec.whose == "controller" and', 'if spec.whose in ("controller", "each") and'))


@mutant("step-triggers-after-priority",
        "cr2004:300.5 modern:500.6 modern:503.1 cr2004:303.1",
        "Beginning-of-step abilities trigger as the step ends, after players had priority.")
def _step_late(p: Patcher) -> None:
    p.source(Game._run_step, (
        'if not self.unheard("step"):\n'
        '        self.fire("step", None, step=step)\n'
        '    yield from self._priority_round()',
        'yield from self._priority_round()\n    self.fire("step", None, step=step)'))


@mutant("extra-turns-oldest-first", "cr2004:300.6",
        "Extra turns are taken in the order they were created, not newest first.")
def _extra_fifo(p: Patcher) -> None:
    p.source(Game._next_step, ("self.extra_turns.pop()", "self.extra_turns.pop(0)"))


@mutant("extra-turn-shifts-turn-order", "cr2004:300.6",
        "After an extra turn the turn passes to the extra turn's player's opponent.")
def _extra_order(p: Patcher) -> None:
    p.source(Game._begin_turn, ("if not extra:", "if True:"))


# -- added for issue 12 (coverage of cr2004 300) -------------------------------------------------


@mutant("empty-upkeep-skipped", "cr2004:300.1 modern:503.1 cr2004:303.1",
        "An upkeep step in which nothing triggers is skipped: the turn goes from untap to draw "
        "without giving anyone priority in the upkeep.")
def _skip_upkeep(p: Patcher) -> None:
    p.source(Game._run_step, (
        'self.fire("step", None, step=step)\n    yield from self._priority_round()',
        'self.fire("step", None, step=step)\n'
        "    if step == UPKEEP and not self.triggered and not self.stack:\n"
        "        return\n"
        "    yield from self._priority_round()"))


@mutant("step-ends-when-stack-empties", "cr2004:300.2 modern:500.2",
        "A step ends as soon as the stack is emptied: after the last spell resolves, the step "
        "ends without the players passing again on the empty stack.")
def _ends_on_empty(p: Patcher) -> None:
    p.source(Game._priority_round, (
        "yield from self._resolve_top()\n            resolutions += 1\n",
        "yield from self._resolve_top()\n            resolutions += 1\n"
        "            yield from self._settle()\n"
        "            if not self.stack:\n"
        "                return\n"))


@mutant("until-end-of-combat-ends-as-end-of-combat-begins", "cr2004:300.4",
        "\"Until end of combat\" effects end as the end of combat step begins, not as the "
        "combat phase ends.")
def _eoc_early(p: Patcher) -> None:
    p.source(Game._run_step, (
        "self.step = step\n",
        "self.step = step\n"
        "    if step == END_COMBAT:\n"
        '        self._expire("combat")\n'))


@mutant("extra-turn-after-opponents-next-turn", "cr2004:300.6",
        "An extra turn is queued after the opponent's next turn: a player never takes two turns "
        "in a row.")
def _extra_late(p: Patcher) -> None:
    p.source(Game._next_step, ("if self.extra_turns:",
                               "if self.extra_turns and self.extra_turns[-1] != self.active:"))


@mutant("priority-to-the-active-player-after-an-action", "modern:117.3c cr2004:408.1c",
        "After a player casts a spell, activates an ability or plays a land, priority goes to "
        "the active player instead of back to that player.")
def _priority_to_active(p: Patcher) -> None:
    p.source(Game._priority_round, (
        "yield from self._take_action(action)\n",
        "yield from self._take_action(action)\n"
        "            player = self.active\n"))
