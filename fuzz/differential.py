"""Differential runs: the same game on two engines, compared step by step.

Both engines start the same seeded game with decks in a given order (``shuffle: false``), so
every card has the same handle on both; each action the engine under test performs is
performed, objects renamed through the handles, on the other engine (the reference). After
each step the two observations are normalised and compared:

- objects are named by handle (tokens and other objects without one by card name), so the
  engines' own ids never matter;
- hidden zones (libraries) are compared as counts, hands and graveyards by their cards,
  graveyards and the stack in order;
- fields are compared only where both engines show them (an engine that does not report
  damage is not wrong about damage);
- the legal actions are compared by kind, player and object (not targets or payment, which
  engines list in different shapes).

The first difference is reported as a ``Violation`` of the pseudo-invariant ``differential``,
with the rules of the part of the game that differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from fuzz import observations as ob
from fuzz.invariants import Violation

if TYPE_CHECKING:
    from fuzz.play import Play

INVARIANT = "differential"

#: the rules a difference in each part of the observation touches (the zone's own section in
#: each edition; life and poison: the rules that end the game on them)
RULES_OF = {
    "turn": ("cr2004:300.1", "cr2004:300.2"),
    "pending": ("cr2004:300.2",),
    "result": ("cr2004:102.1", "cr2004:102.3"),
    "life": ("cr2004:102.1",),
    "poison": ("cr2004:102.8",),
    "mana_pool": ("cr2004:300.3",),
    "library": ("cr2004:217.2a", "modern:401.1"),
    "hand": ("cr2004:217.3a", "modern:402.1"),
    "graveyard": ("cr2004:217.4a", "modern:404.1"),
    "battlefield": ("cr2004:217.5a", "modern:403.1"),
    "stack": ("cr2004:217.6a", "modern:405.1"),
    "exile": ("cr2004:217.7a", "modern:406.1"),
    "ante": ("modern:407.1",),
    "command": ("modern:408.1",),
    "legal_actions": ("cr2004:300.2",),
}
#: per permanent, the fields compared where both engines show them
PERMANENT_FIELDS = ("controller", "owner", "tapped", "damage", "counters", "power", "toughness",
                    "attacking", "blocking", "face_down", "token")


def diverges(observation: dict[str, Any], play: Play, other: Play,
             legal: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None
             ) -> list[Violation]:
    """The first difference between the two engines' states after the same step, if any
    (``legal``: both engines' legal actions, listed after the step, to compare too)."""
    mine = normalise(observation, play)
    theirs = normalise(other.observation, other)
    for part, (a, b) in _differences(mine, theirs):
        return [_violation(part, a, b, play, other)]
    if legal is not None:
        a_actions, b_actions = (action_keys(actions, p) for actions, p in
                                zip(legal, (play, other), strict=True))
        if a_actions != b_actions:
            extra, missing = sorted(a_actions - b_actions), sorted(b_actions - a_actions)
            return [Violation(INVARIANT, _rules_for("legal_actions", play.edition),
                              f"the legal actions differ: only the engine lists {extra or '-'};"
                              f" only the reference lists {missing or '-'}")]
    return []


def normalise(observation: dict[str, Any], play: Play) -> dict[str, Any]:
    """The observation as both engines can be compared on it: objects by handle."""
    def name(obj: dict[str, Any]) -> str:
        handle = play.handle_of.get(obj.get("id"))
        return handle if handle is not None else f"<{obj.get('card')}>"

    normal: dict[str, Any] = {
        "turn": {k: v for k, v in ob.turn(observation).items()
                 if k in ("number", "active", "step", "priority")},
        "pending": _pending(observation.get("pending")),
        "result": observation.get("result") or {"over": False},
    }
    for player in ob.PLAYERS:
        state = ob.player(observation, player)
        for key in ("life", "poison"):
            if key in state:
                normal[f"{key}.{player}"] = state[key]
        if "mana_pool" in state:
            normal[f"mana_pool.{player}"] = {k: v for k, v in state["mana_pool"].items() if v}
        normal[f"library.{player}"] = len(state.get("library") or ())
        normal[f"hand.{player}"] = Counter(name(o) for o in state.get("hand") or ())
        normal[f"graveyard.{player}"] = [name(o) for o in state.get("graveyard") or ()]
    normal["stack"] = [name(o) for o in observation.get("stack") or ()]
    for zone in ("exile", "ante", "command"):
        normal[zone] = Counter(name(o) for o in observation.get(zone) or ())
    normal["battlefield"] = {
        _unique(name(o), i): {k: o[k] for k in PERMANENT_FIELDS if k in o}
        for i, o in enumerate(sorted(observation.get("battlefield") or (), key=name))}
    return normal


def _unique(key: str, index: int) -> str:
    # Two tokens of one name are two permanents: keep both, by their place in name order.
    return f"{key}#{index}" if key.startswith("<") else key


def _pending(pending: Any) -> Any:
    if not isinstance(pending, dict):
        return None
    return {k: pending.get(k) for k in ("decision", "player")}


def _differences(mine: dict[str, Any], theirs: dict[str, Any]
                 ) -> Iterator[tuple[str, tuple[Any, Any]]]:
    for key, a in mine.items():
        if key not in theirs:
            continue
        b = theirs[key]
        if key == "battlefield":
            if set(a) != set(b):
                yield key, (sorted(a), sorted(b))
                continue
            for handle in sorted(a):
                shared = set(a[handle]) & set(b[handle])
                for field in sorted(shared):
                    if a[handle][field] != b[handle][field]:
                        yield f"battlefield.{handle}.{field}", (a[handle][field],
                                                                 b[handle][field])
        elif isinstance(a, dict) and isinstance(b, dict) and key in ("turn",):
            for field in sorted(set(a) & set(b)):
                if a[field] != b[field]:
                    yield f"turn.{field}", (a[field], b[field])
        elif a != b:
            yield key, (a, b)


def _violation(part: str, mine: Any, theirs: Any, play: Play, other: Play) -> Violation:
    zone = part.split(".", 1)[0]
    return Violation(INVARIANT, _rules_for(zone, play.edition),
                     f"{part}: {play.info.name} shows {_show(mine)}, {other.info.name} shows "
                     f"{_show(theirs)}")


def _rules_for(zone: str, edition: str) -> tuple[str, ...]:
    """The rules of that part of the game in the game's edition (those of the other edition
    where the seeds have none: turns, priority and life are 2004 sections only)."""
    rules = RULES_OF.get(zone, ())
    return tuple(r for r in rules if r.startswith(f"{edition}:")) or rules


def _show(value: Any) -> str:
    if isinstance(value, Counter):
        value = dict(sorted(value.items()))
    return repr(value)


def action_keys(actions: list[dict[str, Any]], play: Play) -> set[tuple[Any, ...]]:
    """Legal actions by kind, player and object (by handle); objects without a handle by
    card name. Targets, modes and payment are left out: engines list them in shapes the
    protocol allows to differ (one action per target, or a target kind)."""
    keys = set()
    for action in actions:
        if action.get("action") == "concede":
            continue
        obj = next((action[k] for k in ("card", "attacker", "source") if k in action), None)
        handle = play.handle_of.get(obj, obj) if obj is not None else None
        keys.add((action.get("action"), action.get("player"), handle))
    return keys
