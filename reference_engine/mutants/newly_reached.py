"""Mutants of the rules that waited for a card, reached by the cards added for them: Stone
Giant (cr2004 202.2a), Vanishing (cr2004 217.8d), Nurgle's Rot (modern 400.7f), Snapcaster Mage
(400.7g), Lightstall Inquisitor (400.7h, 400.7i), Evolving Wilds with Future Sight (401.6)."""

from __future__ import annotations

from reference_engine.cards import newly_reached as cards
from reference_engine.editions import Game2004
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant


@mutant("delayed-destroy-needs-a-creature", "cr2004:202.2a",
        "A delayed \"destroy that creature\" destroys the object only if it is still a "
        "creature.")
def _that_creature_still_creature(p: Patcher) -> None:
    p.source(cards._destroy_that, (
        "and creature.zone == BATTLEFIELD:",
        'and creature.zone == BATTLEFIELD and "Creature" in game.chars(creature).types:'))


@mutant("phased-out-token-lingers", "cr2004:217.8d cr2004:420.5f",
        "A token in the phased-out zone does not cease to exist: it phases back in with its "
        "Aura.")
def _phased_out_token_lingers(p: Patcher) -> None:
    p.source(Game2004._tokens_ceasing, (
        'found.extend(o for o in self.zones_extra["phased_out"] if o.token)', "pass"))


@mutant("aura-trigger-loses-its-aura", "modern:400.7f",
        "A trigger on the death of what an Aura enchanted looks for the Aura that was on the "
        "battlefield, not the new object it became in the graveyard: it finds nothing.")
def _aura_not_found(p: Patcher) -> None:
    p.source(cards._nurgles_rot, (
        "found = aura.successor if aura is not None else None",
        "found = aura"))


@mutant("granted-flashback-ends-on-the-stack", "modern:400.7g",
        "A flashback granted to a card in the graveyard does not apply to the spell it "
        "becomes: the spell goes to the graveyard, not exile.")
def _granted_flashback_forgotten(p: Patcher) -> None:
    p.source(Game._cast, ('"flashback": from_graveyard}',
                          '"flashback": from_graveyard and obj.impl.flashback is not None}'))


@mutant("cast-from-exile-without-the-rider", "modern:400.7h",
        "A spell cast under a permission to play the card from exile is not the effect's "
        "concern: it costs no {1} more.")
def _cost_rider_ignored(p: Patcher) -> None:
    p.source(Game.spell_cost, ("if permission is not None and permission.extra:", "if False:"))


@mutant("land-played-from-exile-enters-untapped", "modern:400.7i",
        "A land played under a permission to play it from exile is not found on the "
        "battlefield by the rest of the effect: it enters untapped.")
def _land_rider_ignored(p: Patcher) -> None:
    p.source(Game._take_action, (
        "tapped=permission is not None and permission.enters_tapped)", "tapped=False)"))


@mutant("shuffle-keeps-the-revealed-top-card", "modern:401.6",
        "A library shuffled while its top card is revealed keeps that card's identity: the "
        "same card on top again is the same object.")
def _shuffle_keeps_identity(p: Patcher) -> None:
    p.source(Game.shuffle, ('self._renew(revealed, "shuffle")', "pass"))


@mutant("exiled-again-same-object", "modern:400.8 modern:406.7",
        "An object exiled while already in exile stays where it is as the same object, so "
        "what referred to it still does.")
def _exiled_again_same(p: Patcher) -> None:
    p.source(Game.move, ("source = self.zone_list(obj)\n",
                         "if obj.zone == EXILE and to == EXILE:\n"
                         "        return obj\n"
                         "    source = self.zone_list(obj)\n"))
