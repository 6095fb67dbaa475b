"""Mutants of the rules of effects outside the seeds (each mutant names the rules it breaks):
the layers of continuous effects, replacement and prevention effects, two keyword actions
(sacrifice, search) and the state-based actions, of both editions.

The state-based actions that the seed rules also describe (a player at 0 life, the legend and
world rules, an illegal Aura, ...) are broken by older mutants, which cite these rules too."""

from __future__ import annotations

from reference_engine.board import Board
from reference_engine.cards import newly_reached as reached
from reference_engine.editions import GameModern
from reference_engine.game import Game
from reference_engine.layers import Layers
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant

# -- continuous effects: layers, sublayers, timestamps ------------------------------------------


@mutant("layers-ignored-timestamp-only", "modern:613.1 cr2004:418.5",
        "Continuous effects apply in timestamp order alone, not layer by layer: an earlier "
        "Glorious Anthem misses the enchantment a later Opalescence makes a creature.")
def _timestamp_only(p: Patcher) -> None:
    p.source(Layers.continuous_effects, (
        "found.sort(key=lambda e: (e.layer, e.timestamp))",
        "found.sort(key=lambda e: (e.layer if e.layer == 2 else 3, e.timestamp))"))


@mutant("power-modified-before-set", "modern:613.4 cr2004:418.5",
        "Effects that modify power and toughness apply before those that set it (7c before "
        "7b): Opalescence's base 3/3 wipes out Glorious Anthem's +1/+1.")
def _modify_before_set(p: Patcher) -> None:
    p.source(Layers.continuous_effects, (
        "found.sort(key=lambda e: (e.layer, e.timestamp))",
        "found.sort(key=lambda e: (7.15 if e.layer == 7.3 else e.layer, e.timestamp))"))


@mutant("counters-before-setting-effects", "modern:613.4 cr2004:418.5",
        "+1/+1 counters are added before the effects that set power and toughness, which then "
        "overwrite them: a land with a counter under Living Plane is 1/1.")
def _counters_first(p: Patcher) -> None:
    p.source(Layers._compute_chars, (
        "    applied: list[Continuous] = []\n",
        "    applied: list[Continuous] = []\n"
        "    if obj.zone == BATTLEFIELD and obj.counters and chars.power is not None:\n"
        "        delta = obj.counters.get(\"+1/+1\", 0) - obj.counters.get(\"-1/-1\", 0)\n"
        "        chars.power += delta\n"
        "        chars.toughness = (chars.toughness or 0) + delta\n"),
        ("        if obj.counters and chars.power is not None:\n",
         "        if False:\n"))


@mutant("later-timestamp-applies-first", "modern:613.7 cr2004:418.5",
        "Within a layer the newest effect applies first, so the oldest wins: Mishra's Factory "
        "animated under Living Plane stays a 1/1.")
def _newest_first(p: Patcher) -> None:
    p.source(Layers.continuous_effects, (
        "found.sort(key=lambda e: (e.layer, e.timestamp))",
        "found.sort(key=lambda e: (e.layer, -e.timestamp))"))


# -- replacement and prevention ------------------------------------------------------------------


@mutant("replacement-checked-per-object", "modern:614.1a",
        "A replacement effect is looked for as each object of one event moves, not as the "
        "event begins: Rest in Peace destroyed with creatures exiles only those moved before it.")
def _replacement_per_object(p: Patcher) -> None:
    p.source(Board.move, (
        "(self._graveyards_replaced() if exiled is None else exiled)",
        "self._graveyards_replaced()"))


@mutant("replaced-event-still-triggers", "modern:614.6",
        "A creature exiled instead of dying (Rest in Peace) still triggers what watches for it "
        "to die: the replaced event is treated as having happened.")
def _replaced_event_triggers(p: Patcher) -> None:
    p.source(Board.move, (
        'self.fire("dies" if to == GRAVEYARD else "leaves", new, old=obj, to=to)',
        'self.fire("dies" if to == GRAVEYARD or cause == "exiled_instead" else "leaves", new, '
        'old=obj, to=to)'))


@mutant("prevention-shield-for-any-source", "modern:615.1 cr2004:419.1",
        "A prevention shield for a chosen source prevents the next damage from any source of "
        "its quality: it stops a second red spell's damage instead of the chosen one's.")
def _shield_any_source(p: Patcher) -> None:
    p.source(Board._damage, (
        "if shield.player == target and shield.source == source_id and (",
        "if shield.player == target and ("))


@mutant("damage-source-only-a-permanent", "modern:609.7a cr2004:419.8",
        "A source of one's choice can only be a permanent: Circle of Protection: Red cannot "
        "choose a Lightning Bolt on the stack.")
def _source_only_permanents(p: Patcher) -> None:
    # Every "source of your choice" is offered by Board.choosable_sources: only the
    # permanents are left of what it finds.
    p.source(Board.choosable_sources, ("return list(distinct.values())",
                                       "return list(self.live())"))


@mutant("regeneration-shield-lasts-the-turn", "cr2004:419.6b",
        "A regeneration shield is not used up: it replaces every destruction of the permanent "
        "that turn, not only the next one.")
def _shield_not_used(p: Patcher) -> None:
    p.source(Board._regenerated, ("obj.regen_shields -= 1\n", "pass\n"))


# -- keyword actions: sacrifice, search ----------------------------------------------------------


@mutant("sacrifice-is-destruction", "modern:701.21a",
        "Sacrifice is treated as destruction: an indestructible permanent is not sacrificed, "
        "and a regeneration shield saves a sacrificed creature.")
def _sacrifice_destroys(p: Patcher) -> None:
    p.source(Board.sacrifice, ('self.move(obj, GRAVEYARD, cause="sacrifice")',
                               "self.destroy(obj.id)"))
    # Innocent Blood's sacrifices, made at once, go through put_into_graveyards.
    p.source(Board.put_into_graveyards, (
        "mine = [o for o in objs if o.owner == name and o.id in self.objects]",
        "mine = [o for o in objs if o.owner == name and o.id in self.objects and not (\n"
        "                cause == \"sacrifice\" and self.has(o, \"indestructible\"))]"))


@mutant("search-must-find", "modern:701.23b",
        "A search for a card of a stated quality must find one when the library holds one: "
        "Evolving Wilds offers no choice of none.")
def _search_must_find(p: Patcher) -> None:
    p.source(reached._fetch_basic, ("[*basics, None]", "basics"))


# -- state-based actions ------------------------------------------------------------------------


@mutant("sba-checked-once", "modern:704.3 cr2004:420.3",
        "The state-based actions are performed once before a player gets priority, not again "
        "until none applies: an Aura whose creature just died stays until the next check.")
def _sba_once(p: Patcher) -> None:
    p.source(Game._settle, (
        "        if found is not None and (yield from self._perform_sbas(found)):\n"
        "            continue\n",
        "        if found is not None and (yield from self._perform_sbas(found)):\n"
        "            return\n"))


@mutant("toughness-zero-is-destruction", "modern:704.5f cr2004:420.5b",
        "Toughness 0 is treated as destruction: an indestructible creature with toughness 0 "
        "stays on the battlefield.")
def _toughness_zero_destroyed(p: Patcher) -> None:
    p.source(Game._sba_found, (
        "if c.toughness <= 0:",
        'if c.toughness <= 0 and "indestructible" not in c.keywords:'))


@mutant("lethal-damage-off-by-one", "modern:704.5g cr2004:420.5c",
        "Damage destroys a creature only when it exceeds its toughness, not when it equals it.")
def _lethal_off_by_one(p: Patcher) -> None:
    p.source(Game._sba_found, ("if obj.damage >= c.toughness and",
                               "if obj.damage > c.toughness and"))


@mutant("lethal-damage-not-destruction", "modern:704.5g cr2004:420.5c cr2004:419.6b",
        "A creature with lethal damage is put into the graveyard, not destroyed: regeneration "
        "cannot save it.")
def _lethal_not_destroyed(p: Patcher) -> None:
    p.source(Game._sba_found, (
        "if obj.damage >= c.toughness and \"indestructible\" not in c.keywords:\n"
        "                destroyed.append(obj)\n",
        "if obj.damage >= c.toughness and \"indestructible\" not in c.keywords:\n"
        "                to_graveyard.append(obj)\n"))


@mutant("deathtouch-damage-not-checked", "modern:704.5h",
        "The state-based actions ignore deathtouch: a creature dealt 1 damage by a deathtouch "
        "source survives when the damage is not lethal.")
def _deathtouch_ignored(p: Patcher) -> None:
    p.source(Game._sba_found, ("if deathtouched and obj.id in deathtouched and (",
                               "if False and ("))


@mutant("planeswalker-survives-zero-loyalty", "modern:704.5i",
        "A planeswalker stays on the battlefield with 0 loyalty counters; only a negative "
        "loyalty would remove it.")
def _planeswalker_zero(p: Patcher) -> None:
    p.source(Game._sba_found, ('obj.counters.get("loyalty", 0) <= 0',
                               'obj.counters.get("loyalty", 0) < 0'))


@mutant("counters-never-cancel", "modern:704.5q",
        "+1/+1 and -1/-1 counters on a permanent stay side by side (the 2004 way): none are "
        "removed in pairs.")
def _counters_stay(p: Patcher) -> None:
    p.set(GameModern, "counters_annihilate", False)
