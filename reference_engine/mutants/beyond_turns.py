"""Mutants of the start of the game and the turn structure outside the seeds (issue 27): the
first turn and the London mulligan (modern 103), the steps of the turn and what happens in
each (modern 500-505, 512-514, 703.4q; 2004 301-305, 312-314)."""

from __future__ import annotations

from reference_engine.editions import Game2004, GameModern
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.triggers import Triggers

# -- starting the game (modern 103) -------------------------------------------------------------


@mutant("first-turn-to-player-a", "modern:103.1 modern:103.8",
        "Player A takes the first turn whoever was chosen to start the game.")
def _first_turn_a(p: Patcher) -> None:
    p.source(Game._run, ("self._begin_turn(self.first_player, first=True)",
                         'self._begin_turn("A", first=True)'))


@mutant("paris-mulligan-in-modern", "modern:103.5",
        "Modern games use the 2004 mulligan: one card fewer each time, nothing put on the "
        "bottom, instead of the London mulligan.")
def _paris_modern(p: Patcher) -> None:
    p.set(GameModern, "_mulligans", Game2004._mulligans)


@mutant("london-mulligan-keeps-seven", "modern:103.5",
        "A London mulligan draws seven new cards but puts none on the bottom of the library.")
def _london_no_bottom(p: Patcher) -> None:
    p.source(GameModern._mulligans, ("for remaining in range(player.mulligans, 0, -1):",
                                     "for remaining in range(0):"))


@mutant("turn-1-draw-step-with-priority", "modern:103.8a modern:500.11",
        "The starting player's first draw step is not skipped, only its draw: the players get "
        "priority in the draw step of turn 1.")
def _turn1_draw_step(p: Patcher) -> None:
    p.source(Game._next_step, (
        "nxt = MAIN1  # the player who goes first skips their first draw step (101.5)",
        "pass"))
    p.source(Game._turn_based_actions, ("self.draw(self.active, 1)",
                                        "if self.turn != 1:\n            "
                                        "self.draw(self.active, 1)"))


# -- turn structure (modern 500, 2004 300's sections) -------------------------------------------


@mutant("combat-phase-skipped-without-creatures", "modern:500.1",
        "A combat phase is skipped when the active player controls no creature: the turn goes "
        "from the precombat to the postcombat main phase.")
def _no_combat(p: Patcher) -> None:
    p.source(Game._next_step, (
        "nxt = step + 1\n",
        "nxt = step + 1\n"
        "    if step == MAIN1 and not any(o.controller == self.active and \"Creature\" in "
        "self.chars(o).types for o in self.battlefield):\n"
        "        nxt = END_COMBAT + 1\n"))


@mutant("priority-in-untap-step", "modern:500.3 modern:502.4 cr2004:302.3",
        "Players get priority in the untap step, as in the other steps.")
def _untap_priority(p: Patcher) -> None:
    p.source(Game._run_step, ("if step == UNTAP:\n        return\n", "pass\n"))


@mutant("priority-in-every-cleanup-step", "modern:500.3 modern:514.3 cr2004:314.3",
        "Players get priority in every cleanup step, also when no state-based action applies "
        "and nothing triggers.")
def _cleanup_priority(p: Patcher) -> None:
    p.source(Game._cleanup, ("if not (acted or self.triggered):\n            return",
                             "if not (acted or self.triggered):\n"
                             "            yield from self._priority_round()\n"
                             "            return"))


@mutant("mana-burn-in-modern", "modern:500.5",
        "Modern games keep the 2004 mana burn: unused mana costs its player 1 life each as a "
        "phase ends.")
def _modern_burn(p: Patcher) -> None:
    p.set(GameModern, "mana_burn", True)


# -- the beginning phase (modern 501-504, 2004 301-304) ------------------------------------------


@mutant("draw-in-upkeep", "modern:501.1 cr2004:301.1",
        "The active player draws as the upkeep begins, before the upkeep's priority, instead of "
        "in the draw step that follows it.")
def _draw_in_upkeep(p: Patcher) -> None:
    p.source(Game._turn_based_actions, ("elif step == DRAW:",
                                        "elif step == UPKEEP and self.turn != 1:"))


@mutant("draw-after-priority-in-draw-step", "modern:504.1 modern:504.2 cr2004:304.1",
        "The draw step's card is drawn as the step ends, after the players had priority in it.")
def _draw_late(p: Patcher) -> None:
    p.source(Game._turn_based_actions, ("self.draw(self.active, 1)", "pass"))
    p.source(Game._run_step, ("yield from self._priority_round()\n    if step == COMBAT_DAMAGE",
                              "yield from self._priority_round()\n"
                              "    if step == DRAW and turn_based:\n"
                              "        self.draw(self.active, 1)\n"
                              "    if step == COMBAT_DAMAGE"))


@mutant("untap-step-untaps-both-players", "modern:502.3 cr2004:302.2",
        "The untap step untaps every permanent, the non-active player's too.")
def _untap_both(p: Patcher) -> None:
    p.source(Game._turn_based_actions, ("if obj.controller == self.active and not obj.phased_out:",
                                        "if not obj.phased_out:"))


@mutant("phase-in-every-untap-modern", "modern:502.1",
        "Modern: phased-out permanents phase in during every untap step, not only their "
        "controller's.")
def _phase_any_modern(p: Patcher) -> None:
    p.source(GameModern._phase_in_and_out, ("and o.controller == self.active]", "]"))


# -- the main phase (modern 505, 2004 305) ------------------------------------------------------


@mutant("no-postcombat-main-phase", "modern:505.1 cr2004:305.1",
        "The turn has one main phase: after combat it goes straight to the end step.")
def _one_main(p: Patcher) -> None:
    p.source(Game._next_step, ("nxt = step + 1\n",
                               "nxt = step + (2 if step == END_COMBAT else 1)\n"))


@mutant("main-phase-priority-to-non-active-player", "modern:505.6",
        "In a main phase the non-active player receives priority first.")
def _main_priority(p: Patcher) -> None:
    p.source(Game._priority_round, (
        "player = self.active\n    passes = 0",
        "player = other(self.active) if self.step in (MAIN1, MAIN1 + 6) else self.active\n"
        "    passes = 0"))


# -- the ending phase (modern 512-514, 2004 312-314) --------------------------------------------


@mutant("end-step-skipped", "modern:512.1 modern:513.1 cr2004:312.1",
        "The ending phase has no end step when nothing triggers in it: the postcombat main "
        "phase is followed by the cleanup step.")
def _no_end_step(p: Patcher) -> None:
    p.source(Game._next_step, ("nxt = step + 1\n",
                               "nxt = step + (2 if step == MAIN1 + 6 and not self.delayed "
                               "else 1)\n"))


@mutant("delayed-end-step-trigger-in-this-end-step", "modern:513.2 cr2004:313.1",
        "A delayed \"at the beginning of the next end step\" ability created during an end "
        "step triggers at once, in that end step, not in the next turn's.")
def _delayed_now(p: Patcher) -> None:
    p.source(Triggers.add_delayed, (
        "self.delayed.append(Delayed(event, spec, controller, source, step))",
        "if event == \"step\" and step == self.step:\n"
        "        self._queue(spec, source, controller,\n"
        "                    {\"kind\": \"step\", \"subject\": None, \"step\": step})\n"
        "        return\n"
        "    self.delayed.append(Delayed(event, spec, controller, source, step))"))


@mutant("damage-kept-after-cleanup", "modern:514.2 cr2004:314.2",
        "Damage marked on permanents is not removed in the cleanup step: it stays until the "
        "creature dies.")
def _damage_kept(p: Patcher) -> None:
    p.source(Game._cleanup, ("obj.damage = 0\n", "pass\n"))


@mutant("cleanup-sbas-without-priority", "modern:514.3a cr2004:314.3",
        "State-based actions in the cleanup step are performed but nobody gets priority there: "
        "the triggered abilities wait for the next turn.")
def _cleanup_no_priority(p: Patcher) -> None:
    p.source(Game._cleanup, ("yield from self._priority_round()\n", "return\n"))


@mutant("no-second-cleanup-step", "modern:514.3a cr2004:314.3",
        "After the players had priority in a cleanup step the turn ends: no new cleanup step "
        "follows, so its discard never comes.")
def _one_cleanup(p: Patcher) -> None:
    p.source(Game._cleanup, ("self._end_step(CLEANUP, ends_phase=False)\n"
                             "        self._events.append(ev.Step(self.turn, CLEANUP))",
                             "return"))
