"""Differential runs: the same game on two engines, compared step by step.

Both engines start the same game (a seeded start with decks in a given order, ``shuffle:
false``, or a given state), so every card has the same handle on both; each action the engine
under test performs is performed, objects renamed through the handles, on the other engine (the
reference). At the start and after each step the two are normalised and compared:

- objects are named by handle (objects that appeared without one by the handle their path
  bound), so the engines' own ids never matter, in every field that holds one too (an
  attachment, a source, a target);
- every field of every object is compared where both engines show it (an engine that does not
  report damage is not wrong about damage): characteristics in every zone, a permanent's
  status, a stack object's controller and targets;
- libraries are compared as counts (engines shuffle differently), hands and the shared zones
  as sets, graveyards and the stack in order;
- each player's view, when observed, the same way, its hidden objects counted per zone;
- the legal actions by kind, player and object (not targets or payment, which engines list
  in different shapes).

The first difference is reported as a ``Violation`` of the pseudo-invariant ``differential``,
with the rules of the field (or else the part of the game) that differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from conformance.paths import UNORDERED_WORDS
from fuzz import observations as ob
from fuzz.invariants import Violation

if TYPE_CHECKING:
    from fuzz.play import Play

INVARIANT = "differential"

#: the rules a difference in each part of the observation touches, in each edition: the
#: zone's own section, and for the rest the rules outside the seeds (spec/outside) where the
#: seeds of an edition have none (turns, priority and life are 2004 seed sections only)
RULES_OF = {
    "turn": ("cr2004:300.1", "cr2004:300.2", "modern:500.1", "modern:500.2"),
    "pending": ("cr2004:408.1c", "modern:117.3a"),
    "result": ("cr2004:102.1", "cr2004:102.3", "modern:704.5a"),
    "life": ("cr2004:102.1", "modern:704.5a"),
    "poison": ("cr2004:102.8", "modern:704.5c"),
    "mana_pool": ("cr2004:300.3", "modern:500.5"),
    "library": ("cr2004:217.2a", "modern:401.1"),
    "hand": ("cr2004:217.3a", "modern:402.1"),
    "graveyard": ("cr2004:217.4a", "modern:404.1"),
    "battlefield": ("cr2004:217.5a", "modern:403.1"),
    "stack": ("cr2004:217.6a", "modern:405.1"),
    "exile": ("cr2004:217.7a", "modern:406.1"),
    "ante": ("modern:407.1",),
    "command": ("modern:408.1",),
    # what a player may do while holding priority
    "legal_actions": ("cr2004:408.1b", "modern:117.1a"),
    # a listing of mana abilities: when they may be activated
    "mana_abilities": ("cr2004:406.1", "modern:605.3a"),
}
#: the rules a difference in one field of an object touches (else its zone's, in an edition
#: for which none is listed here)
FIELD_RULES = {
    "card": ("cr2004:200.1", "cr2004:216.1"),
    "mana_cost": ("cr2004:203.1",),
    "mana_value": ("cr2004:203.1",),
    "colors": ("cr2004:203.2",),
    "types": ("cr2004:205.1", "cr2004:217.6c", "modern:405.4"),
    "supertypes": ("cr2004:205.1",),
    "subtypes": ("cr2004:205.1",),
    "power": ("cr2004:208.1",),
    "toughness": ("cr2004:208.1",),
    "controller": ("cr2004:214.4", "cr2004:213.4", "modern:405.4"),
    "owner": ("cr2004:217.1a", "modern:400.3"),
    "tapped": ("cr2004:214.3",),
    "counters": ("cr2004:200.10",),
    "phased_out": ("cr2004:217.8a",),
}
#: what a player's view hides (a difference in it: the rules of hidden and public zones)
VIEW_RULES = ("modern:400.2", "modern:402.3", "cr2004:217.2c", "cr2004:217.2e", "modern:401.5")
#: object fields that hold another object's id (compared by handle)
ID_FIELDS = ("attached_to", "source", "blocking")
#: the zones whose objects are compared in order (top first), and those compared as sets
ORDERED_ZONES = ("graveyard", "stack")
#: a player's fields compared where both engines show them
PLAYER_FIELDS = ("life", "poison", "lands_played", "max_hand_size")


def diverges(observation: dict[str, Any], play: Play, other: Play,
             legal: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None,
             views: tuple[dict[str, Any], dict[str, Any]] | None = None,
             known: frozenset[str] = frozenset()) -> list[Violation]:
    """The first difference between the two engines' states after the same step, if any:
    the whole observations, then (``views``: each engine's players' views) what each player
    sees, then (``legal``: both engines' legal actions, listed after the step) the actions.
    A difference in a part of the game in ``known`` (``Violation.part``: found already) is
    passed over."""
    mine = normalise(observation, play)
    theirs = normalise(other.observation, other)
    for part, (a, b) in _differences(mine, theirs):
        if _area(part) not in known:
            return [_violation(part, a, b, play, other)]
    if views is not None and "view" not in known:
        for viewer in ob.PLAYERS:
            if viewer not in views[0] or viewer not in views[1]:
                continue
            seen = (normalise(views[0][viewer], play, view=True),
                    normalise(views[1][viewer], other, view=True))
            for part, (a, b) in _differences(*seen):
                return [Violation(INVARIANT, _edition_rules(VIEW_RULES, play.edition),
                                  f"what {viewer} sees: {part}: {play.info.name} shows "
                                  f"{_show(a)}, {other.info.name} shows {_show(b)}",
                                  part="view")]
    if legal is not None:
        a_actions, b_actions = (action_keys(actions, p) for actions, p in
                                zip(legal, (play, other), strict=True))
        if not any(key[0] == MANA for key in a_actions):
            # An engine that pays by itself (pay.auto) or lists no mana abilities among its
            # actions: the protocol lets it (docs/protocol.md), so the reference's listing of
            # them is no difference.
            b_actions = {key for key in b_actions if key[0] != MANA}
        if _payments(play) != _payments(other):
            # Engines paying in different forms list what can be paid in their own forms (a
            # pay.pool-only engine lists a spell once its mana is in the pool): what costs
            # mana is not compared.
            a_actions, b_actions = (_free(a_actions), _free(b_actions))
        if a_actions != b_actions:
            extra, missing = sorted(a_actions - b_actions), sorted(b_actions - a_actions)
            part = "mana_abilities" if all(k[0] == MANA for k in (*extra, *missing)) \
                else "legal_actions"
            if part not in known:
                return [Violation(INVARIANT, _rules_for(part, play.edition),
                                  f"the legal actions differ: only the engine lists "
                                  f"{extra or '-'}; only the reference lists {missing or '-'}",
                                  part=part)]
    return []


def _payments(play: Play) -> frozenset[str]:
    return frozenset(c for c in play.capabilities if c.startswith("pay."))


def _free(keys: set[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    """The listed actions but casting and activating (what a payment form decides)."""
    return {key for key in keys if key[0] not in ("cast", "activate")}


def _area(part: str) -> str:
    """The part of the game a difference is in: ``battlefield.x01.tapped`` is in
    ``battlefield``, ``life.A`` in ``life``."""
    return part.split(".", 1)[0]


def normalise(observation: dict[str, Any], play: Play, *, view: bool = False
              ) -> dict[str, Any]:
    """The observation as both engines can be compared on it: every object by handle with
    every field it shows (ids in fields by handle too). Libraries are compared as counts (two
    engines shuffle differently), and in a player's view by how many cards are shown."""
    def name(value: Any) -> Any:
        handle = play.handle_of.get(value)
        return handle if handle is not None else value

    def described(objects: Any) -> list[tuple[str, dict[str, Any]]]:
        # An object without a handle is keyed by what it shows and how many such came before
        # it (not by its place among the others: engines order a zone differently).
        out, seen = [], Counter[str]()
        for obj in objects or ():
            handle = play.handle_of.get(obj.get("id"))
            if handle is None:
                kind = "<hidden>" if obj.get("hidden") else f"<{obj.get('card')}>"
                handle = f"{kind}#{seen[kind]}"
                seen[kind] += 1
            out.append((handle, {} if obj.get("hidden") else _fields(obj, name)))
        return out

    normal: dict[str, Any] = {
        "turn": {k: v for k, v in ob.turn(observation).items()
                 if k in ("number", "active", "step", "priority")},
        "pending": _pending(observation.get("pending")),
        "result": observation.get("result") or {"over": False},
    }
    for player in ob.PLAYERS:
        state = ob.player(observation, player)
        for key in PLAYER_FIELDS:
            if key in state:
                normal[f"{key}.{player}"] = state[key]
        if "mana_pool" in state:
            normal[f"mana_pool.{player}"] = {k: v for k, v in state["mana_pool"].items() if v}
        library = state.get("library") or ()
        normal[f"library.{player}"] = (
            {"count": len(library), "shown": sum(1 for o in library if not o.get("hidden"))}
            if view else len(library))
        normal[f"hand.{player}"] = dict(described(state.get("hand")))
        normal[f"graveyard.{player}"] = described(state.get("graveyard"))
    normal["stack"] = described(observation.get("stack"))
    for zone in ("battlefield", *(z for z in ob.SHARED_ZONES if z not in ("battlefield",
                                                                          "stack"))):
        if zone in observation or zone == "battlefield":
            normal[zone] = dict(described(observation.get(zone)))
    return normal


def _fields(obj: dict[str, Any], name: Any) -> dict[str, Any]:
    fields = {}
    for key, value in obj.items():
        if key == "id":
            continue
        if key in ID_FIELDS and value is not None and not isinstance(value, bool):
            fields[key] = name(value)
        elif key in UNORDERED_WORDS and isinstance(value, list):
            # A set of words (docs/protocol.md, Dialects: any order, any letter case).
            fields[key] = sorted(str(word).lower() for word in value)
        elif key == "targets" and isinstance(value, list):
            fields[key] = [{"object": name(t["object"])} if isinstance(t, dict) and
                           "object" in t else t for t in value]
        else:
            fields[key] = value
    return fields


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
        zone = key.split(".", 1)[0]
        if zone in ORDERED_ZONES:
            if [k for k, _ in a] != [k for k, _ in b]:
                yield key, ([k for k, _ in a], [k for k, _ in b])
                continue
            yield from _field_differences(key, list(zip(a, b, strict=True)))
        elif zone in ob.SHARED_ZONES or zone == "hand":
            if set(a) != set(b):
                yield key, (sorted(a), sorted(b))
                continue
            yield from _field_differences(key, [((k, a[k]), (k, b[k])) for k in sorted(a)])
        elif isinstance(a, dict) and isinstance(b, dict) and key == "turn":
            for field in sorted(set(a) & set(b)):
                if a[field] != b[field]:
                    yield f"turn.{field}", (a[field], b[field])
        elif a != b:
            yield key, (a, b)


def _field_differences(zone: str, pairs: list[tuple[tuple[str, dict[str, Any]],
                                                     tuple[str, dict[str, Any]]]]
                       ) -> Iterator[tuple[str, tuple[Any, Any]]]:
    """Per object, the fields both engines show and differ on."""
    for (handle, a), (_, b) in pairs:
        for field in sorted(set(a) & set(b)):
            if a[field] != b[field]:
                yield f"{zone}.{handle}.{field}", (a[field], b[field])


def _violation(part: str, mine: Any, theirs: Any, play: Play, other: Play) -> Violation:
    zone, *rest = part.split(".")
    field = rest[-1] if len(rest) >= 2 else None
    rules = (_edition_rules(FIELD_RULES[field], play.edition, zone) if field in FIELD_RULES
             else _rules_for(zone, play.edition))
    return Violation(INVARIANT, rules,
                     f"{part}: {play.info.name} shows {_show(mine)}, {other.info.name} shows "
                     f"{_show(theirs)}", part=_area(part))


def _rules_for(zone: str, edition: str) -> tuple[str, ...]:
    """The rules of that part of the game in the game's edition, never the other edition's."""
    return _edition_rules(RULES_OF.get(zone, ()), edition)


def _edition_rules(rules: tuple[str, ...], edition: str, zone: str | None = None
                   ) -> tuple[str, ...]:
    """The game's edition's rules among ``rules``; where it has none, those of ``zone``."""
    own = tuple(r for r in rules if r.startswith(f"{edition}:"))
    return own or (_rules_for(zone, edition) if zone is not None else ())


def _show(value: Any) -> str:
    if isinstance(value, dict):
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
        kind = MANA if _activates_mana(action, play) else action.get("action")
        keys.add((kind, action.get("player"), handle))
    return keys


#: the kind ``action_keys`` gives the activation of a mana ability
MANA = "activate (mana)"


def _activates_mana(action: dict[str, Any], play: Play) -> bool:
    from conformance.needs import is_mana_ability
    from spec.cardpool import default_pool

    if action.get("action") != "activate":
        return False
    name = next((o.get("card") for _, _, o in ob.objects(play.observation)
                 if o.get("id") == action.get("card")), None)
    card = default_pool().edition(play.edition).get(name) if name else None
    return is_mana_ability(card, action.get("ability"))
