"""Triggered abilities: noticing events, and putting the abilities on the stack.

An event (a permanent entering or leaving, a step beginning, a permanent becoming tapped, an
attack) is checked against the triggered abilities of the permanents on the battlefield, and,
for leaving, of the object that left ("looking back in time"). Triggered abilities wait until
a player would next receive priority; then the active player puts all of theirs on the stack
in the order they choose, then the other player (APNAP, modern 405.3). Targets are chosen as
each goes on the stack; one with no legal target is removed.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator
from typing import Any

from reference_engine import events as ev
from reference_engine.actions import Action
from reference_engine.constants import BATTLEFIELD, other
from reference_engine.objects import Decision, GameObject, PendingTrigger, StackItem, TriggerSpec
from reference_engine.state import GameState
from reference_engine.targets import Targets


class Delayed:
    """A delayed triggered ability: created by an effect, triggers once on its event."""

    __slots__ = ("controller", "event", "source", "spec", "step")

    def __init__(self, event: str, spec: TriggerSpec, controller: str, source: GameObject,
                 step: int | None = None) -> None:
        self.event = event
        self.spec = spec
        self.controller = controller
        self.source = source
        self.step = step


#: the kinds of event on which a triggered ability with this ``event`` may trigger, where they
#: are not just that kind: everything ``_matches`` accepts, by kind alone
_HEARS: dict[str, tuple[str, ...]] = {
    "creature_etb": ("etb",),
    "enchanted_dies": ("dies",),
    "leaves": ("dies", "leaves"),  # dying is leaving the battlefield too
}


class Triggers(Targets):
    def fire(self, kind: str, subject: GameObject | None = None, **data: Any) -> None:
        """An event happened: queue every triggered ability it triggers."""
        index = (self._trigger_index if self._trigger_version == self.version
                 else self._trigger_sources())
        listeners = index.get(kind)
        old = data.get("old") if kind in ("dies", "leaves") and subject is not None else None
        if listeners is None and old is None and not self.delayed:
            return  # nothing could trigger (most events: tapping a land for mana)
        event = {"kind": kind, "subject": subject, **data}
        if listeners is not None:
            for source, spec in listeners:
                if self._matches(spec, source, event):
                    self._queue(spec, source, source.controller, event)
        if old is not None:
            # The object that left looks back in time: its own leaves-play triggers trigger.
            for spec in old.impl.triggers:
                if spec.event in ("dies", "leaves") and self._matches(spec, old, event):
                    self._queue(spec, old, old.controller, event)
        if self.delayed:
            for delayed in list(self.delayed):
                if delayed.event == kind and (delayed.step is None or
                                              delayed.step == data.get("step")):
                    self.delayed.remove(delayed)
                    self._queue(delayed.spec, delayed.source, delayed.controller, event)

    def unheard(self, kind: str) -> bool:
        """Whether an event of ``kind``, of no object leaving the battlefield, would trigger
        nothing (``fire`` would queue nothing): the abilities are indexed for this version
        and none hears ``kind``, and no delayed ability waits. Asked before the events fired
        most often (a step beginning, a permanent tapped, for mana too) to spare the call."""
        return (self._trigger_version == self.version and kind not in self._trigger_index
                and not self.delayed)

    def _trigger_sources(self) -> dict[str, list[tuple[GameObject, TriggerSpec]]]:
        """The triggered abilities of the permanents, by the kinds of event each may trigger
        on (see ``_HEARS``), for this state version: what ``fire`` asks ``_matches`` about.
        Each kind's list keeps the order of the permanents, then of their abilities, so the
        abilities an event triggers are queued in the order a scan of them all would."""
        index: dict[str, list[tuple[GameObject, TriggerSpec]]] = {}
        chars = self.chars
        granting: bool | None = None  # whether an effect may give triggered abilities
        for source in self.battlefield:
            # A permanent's triggered abilities are its card's or none (when it has lost its
            # abilities), and those an effect gives it: one whose card has none needs no
            # characteristics worked out here unless such an effect is in force.
            if source.phased_out:
                continue
            if not source.impl.triggers:
                if granting is None:
                    granting = self.granting_triggers()
                if not granting:
                    continue
            for spec in chars(source).triggers:
                for kind in _HEARS.get(spec.event, (spec.event,)):
                    index.setdefault(kind, []).append((source, spec))
        self._trigger_index = index
        self._trigger_version = self.version
        return index

    def _matches(self, spec: TriggerSpec, source: GameObject, event: dict[str, Any]) -> bool:
        # fire() asks only about the abilities indexed under the event's kind: what this
        # accepts by kind alone must stay what _HEARS says.
        kind = event["kind"]
        subject = event["subject"]
        wanted = spec.event
        if wanted == "step":
            if kind != "step" or event["step"] != spec.step:
                return False
            if spec.whose == "controller" and self.active != source.controller:
                return False
        elif wanted == "creature_etb":
            if kind != "etb" or subject is None or "Creature" not in self.chars(subject).types:
                return False
        elif wanted in ("etb", "tapped", "tapped_for_mana", "attacks", "unblocked",
                        "deals_damage"):
            if kind != wanted or subject is not source:
                return False
        elif wanted == "enchanted_dies":
            # The permanent this (an Aura) is attached to was put into a graveyard from the
            # battlefield: the Aura is still there as it dies, and follows it by a state-based
            # action. (No pool card moves an Aura at once with what it enchants, which would
            # need the Aura to look back in time.)
            old = event.get("old")
            if kind != "dies" or old is None or source.attached_to != old.id:
                return False
        elif wanted in ("dies", "leaves"):
            old = event.get("old")
            if kind not in ("dies", "leaves") or old is not source:
                return False
            if wanted == "dies" and kind != "dies":
                return False
        elif wanted != kind:
            return False
        return spec.condition is None or spec.condition(self.card_api, source, event)

    def _queue(self, spec: TriggerSpec, source: GameObject, controller: str,
               event: dict[str, Any]) -> None:
        self._trigger_key += 1
        self.triggered.append(PendingTrigger(self._trigger_key, spec, source, controller,
                                             event))

    def _put_triggers_on_stack(self) -> Generator[Decision, Action, None]:
        while self.triggered:
            pending, self.triggered = self.triggered, []
            for name in (self.active, other(self.active)):
                mine = [p for p in pending if p.controller == name]
                while mine:
                    if len(mine) == 1:
                        chosen = mine[0]
                    else:
                        options = [Action("choose", name, choice=p.key) for p in mine]
                        data = {"triggers": [{"id": p.key, "source": p.source.id,
                                              "card": p.source.card.name, "text": p.spec.text}
                                             for p in mine]}
                        action = yield Decision("order_triggers", name, options, data=data)
                        chosen = next(p for p in mine if p.key == action.choice)
                    mine.remove(chosen)
                    yield from self._trigger_to_stack(chosen)

    def _trigger_to_stack(self, pending: PendingTrigger) -> Generator[Decision, Action, None]:
        spec = pending.spec
        targets: tuple[Any, ...] = ()
        if spec.targets:
            pools = [self.target_candidates(t, pending.controller, pending.source)
                     for t in spec.targets]
            combos = [c for c in itertools.product(*pools) if len(set(c)) == len(c)]
            if not combos:
                self._events.append(ev.TriggerRemoved(pending.controller, pending.source.id,
                                                     spec.text))
                return  # no legal target: removed from the stack
            if len(combos) == 1:
                targets = combos[0]
            else:
                options = [Action("choose", pending.controller, targets=c) for c in combos]
                data = {"source": pending.source.id, "card": pending.source.card.name,
                        "text": spec.text}
                action = yield Decision("choose_targets", pending.controller, options,
                                        data=data)
                targets = action.targets
        item = StackItem(self._next_id, "trigger", pending.controller, source=pending.source,
                         ability=spec, targets=targets)
        self._next_id += 1
        item.data["event"] = pending.event
        self.stack.append(item)
        self._events.append(ev.Trigger(pending.controller, pending.source.id, spec.text))

    def add_delayed(self, event: str, spec: TriggerSpec, controller: str,
                    source: GameObject, step: int | None = None) -> None:
        self.delayed.append(Delayed(event, spec, controller, source, step))


def on_battlefield(game: GameState, obj: GameObject) -> bool:
    return obj.zone == BATTLEFIELD and obj.id in game.objects
