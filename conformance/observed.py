"""What an observation holds (``spec/schemas/protocol/observation.json``): the fields a case's
paths may name, and the freedoms the protocol leaves an engine in writing one (docs/protocol.md,
Dialects), taken out once here so that every check gives the same verdict however a correct
engine wrote it.

* ``problems``: a path that names no field (``players.C.life``, ``turn.stepp``) is a case
  author's typo, which must be an input error, never an engine's failure.
* ``normalise``: every type word as the cards print it (``creature`` and ``CREATURE`` are
  ``Creature``), applied to each observation as it arrives (``EngineClient.observe``), so
  that the runner's checks and the fuzzer's invariants read one spelling.
* ``canonical``: an observation with every list the protocol leaves unordered in one order,
  for comparing two observations of one state (the state a rejected action left unchanged).
* ``one_answer``: whether a pending decision has only one possible answer, which the protocol
  forbids an engine to ask.

>>> problems("players.C.life")
['players.C: no player C (A or B)']
>>> problems("turn.stepp")
['turn.stepp: no field stepp in turn (did you mean step?)']
>>> problems("battlefield[bears].power"), problems("pending.attacker")
([], [])
"""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from typing import Any

from conformance.paths import UNORDERED_WORDS, Path, parse
from conformance.protocol import PLAYERS
from conformance.schemas import PROTOCOL_DIR
from spec.cardpool import SUPERTYPES, TYPES, default_pool

#: Keys a path may read on a list besides an object's fields.
_LIST_KEYS = frozenset({"count"})


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        (PROTOCOL_DIR / "observation.json").read_text(encoding="utf-8"))
    return schema


def _fields(definition: str) -> frozenset[str]:
    return frozenset(_schema()["$defs"][definition].get("properties", {}))


@cache
def _shapes() -> dict[str, frozenset[str] | None]:
    """Each kind of value a path walks through and the fields it may have (None: any)."""
    objects = _fields("card_object") | _fields("permanent") | _fields("stack_object") | {
        "hidden"}
    return {
        "observation": frozenset(_schema()["properties"]),
        "turn": _fields("turn"),
        "pending": None,  # a decision's fields depend on its kind, and engines may add some
        "players": frozenset(PLAYERS),
        "player": _fields("player"),
        "mana_pool": _fields("mana_pool"),
        "object": frozenset(objects),
        "result": _fields("result"),
        "counters": None,
        "value": None,
        # A list of objects: its count, or (when a selector leaves one) an object's field.
        "list": frozenset(objects) | _LIST_KEYS,
    }


# What the value under a field of a shape is (the shape of the next segment).
_NEXT = {
    ("observation", "turn"): "turn", ("observation", "pending"): "pending",
    ("observation", "players"): "players", ("observation", "result"): "result",
    ("player", "mana_pool"): "mana_pool", ("object", "counters"): "counters",
}
_ZONES_OF_OBJECTS = frozenset({"battlefield", "stack", "exile", "ante", "phased_out",
                               "command", "hand", "library", "graveyard"})


def problems(path: Path | str) -> list[str]:
    """Why a path cannot name a field of an observation (empty: it can)."""
    parsed = parse(path) if isinstance(path, str) else path
    shapes = _shapes()
    shape = "observation"
    walked = ""
    for segment in parsed.segments:
        key = segment.key
        fields = shapes[shape]
        here = f"{walked}.{key}" if walked else key
        if shape == "players" and key not in PLAYERS:
            return [f"{here}: no player {key} (A or B)"]
        if fields is not None and key not in fields:
            close = difflib.get_close_matches(key, sorted(fields), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            where = walked or "the observation"
            return [f"{here}: no field {key} in {where}{hint}"]
        walked = here + "".join(str(s) for s in segment.selectors)
        if shape == "players":
            shape = "player"
        elif key in _ZONES_OF_OBJECTS and shape in ("observation", "player"):
            shape = "object" if segment.selectors else "list"
        else:
            shape = _NEXT.get((shape, key), "value")
    return []


# ---- the freedoms of an engine's observation ------------------------------------------------

#: The keys of an object that hold type words (any letter case, compared case-insensitively).
TYPE_KEYS = ("types", "supertypes", "subtypes")
#: Zones the protocol leaves unordered (libraries, graveyards and the stack are top first).
UNORDERED_ZONES = ("battlefield", "exile", "ante", "command", "phased_out")
_PLAYER_ZONES = ("hand", "library", "graveyard")
# Capitalised words before "creature" in a card's text name the creature types of the tokens
# and animated permanents it makes ("a 1/1 white Soldier creature token").
_TEXT_CREATURE_TYPES = re.compile(
    r"(?<=[a-z0-9/] )((?:[A-Z][a-z]+(?:-[A-Z][a-z]+)* )+)(?:artifact )?creature")


@cache
def _spellings() -> tuple[frozenset[str], dict[str, str]]:
    """The type words as the cards print them, and each one by its case-folded form: the card
    types and supertypes, and every subtype of the pool (its cards' and those its texts
    make)."""
    words = set(TYPES) | set(SUPERTYPES)
    for cards in default_pool().cards.values():
        for card in cards.values():
            words.update(card.types, card.supertypes, card.subtypes)
            for found in _TEXT_CREATURE_TYPES.findall(card.text):
                words.update(found.split())
    return frozenset(words), {word.casefold(): word for word in words}


def _objects(observation: dict[str, Any]) -> list[Any]:
    """Every object of an observation, the stack's too (hidden cards included)."""
    found: list[Any] = []
    for zone in (*UNORDERED_ZONES, "stack"):
        objects = observation.get(zone)
        if isinstance(objects, list):
            found.extend(objects)
    players = observation.get("players")
    for state in players.values() if isinstance(players, dict) else ():
        if isinstance(state, dict):
            for zone in _PLAYER_ZONES:
                objects = state.get(zone)
                if isinstance(objects, list):
                    found.extend(objects)
    return found


def normalise(observation: dict[str, Any]) -> dict[str, Any]:
    """``observation`` (changed in place) with every type word spelt as the cards print it:
    the letter case of a type word carries no meaning (docs/protocol.md, Dialects). A word the
    pool does not know is left as it is."""
    printed, by_folded = _spellings()
    for obj in _objects(observation):
        if type(obj) is not dict:
            continue
        for key in TYPE_KEYS:
            words = obj.get(key)
            if type(words) is not list or not words:
                continue
            # Called on every observation: the usual case (printed words) costs one set test
            # in C; a word that is no string (unhashable, or not printed) takes the long way.
            try:
                if printed.issuperset(words):
                    continue
            except TypeError:
                pass
            if not printed.issuperset(w for w in words if type(w) is str):
                obj[key] = [by_folded.get(w.casefold(), w) if type(w) is str else w
                            for w in words]
    return observation


def _sorted(items: list[Any]) -> list[Any]:
    return sorted(items, key=lambda item: json.dumps(item, sort_keys=True, default=repr))


def _canonical_object(obj: Any) -> Any:
    if not isinstance(obj, dict):
        return obj
    return {key: _sorted(value) if key in UNORDERED_WORDS and isinstance(value, list)
            else value for key, value in obj.items()}


def canonical(observation: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``observation`` in which every list the protocol leaves unordered is in one
    order (docs/protocol.md, Dialects): hands and the unordered zones, each object's types,
    supertypes, subtypes and colours, the result's winners and losers, a decision's triggers.
    Two observations of one state are equal in this form whatever order each listed them in;
    libraries, graveyards and the stack keep theirs (top first)."""
    out = dict(observation)
    for zone in UNORDERED_ZONES:
        if isinstance(out.get(zone), list):
            out[zone] = _sorted([_canonical_object(o) for o in out[zone]])
    if isinstance(out.get("stack"), list):
        out["stack"] = [_canonical_object(o) for o in out["stack"]]
    if isinstance(out.get("players"), dict):
        players = {}
        for name, given in out["players"].items():
            state = dict(given) if isinstance(given, dict) else given
            if isinstance(state, dict):
                for zone in _PLAYER_ZONES:
                    if isinstance(state.get(zone), list):
                        objects = [_canonical_object(o) for o in state[zone]]
                        state[zone] = _sorted(objects) if zone == "hand" else objects
            players[name] = state
        out["players"] = players
    if isinstance(out.get("result"), dict):
        out["result"] = {key: _sorted(value) if key in ("winners", "losers")
                         and isinstance(value, list) else value
                         for key, value in out["result"].items()}
    pending = out.get("pending")
    if isinstance(pending, dict) and isinstance(pending.get("triggers"), list):
        out["pending"] = {**pending, "triggers": _sorted(pending["triggers"])}
    return out


#: Decisions made of several actions (a declaration ends with done): never one-answer
#: decisions, even when the only option is to declare nothing.
_DECLARATIONS = frozenset({"declare_attackers", "declare_blockers"})


#: Decisions that place cards one at a time in an order: with one card left (``count: 1``) the
#: only answer is that card.
_ORDERS = frozenset({"order_graveyard", "put_on_top"})
_NEVER_ASKED = ("an engine never asks one, it takes it itself (docs/protocol.md, Dialects, "
                "One-answer decisions)")


def one_answer(pending: Any, listed: list[Any] | None) -> str | None:
    """Why the pending decision has only one possible answer, or None: judged from the
    decision itself (an order with one card left to place) or from the engine's own listing of
    legal actions (``listed``, None when the engine does not declare ``actions.legal``). An
    engine never asks such a decision (docs/protocol.md, Dialects): it takes it itself. A
    concession is always legal and no answer to a decision."""
    if not isinstance(pending, dict) or pending.get("decision") in _DECLARATIONS:
        return None
    asked = f"player {pending.get('player')} is asked {pending.get('decision')}"
    if pending.get("decision") in _ORDERS and pending.get("count") == 1:
        return f"{asked} with one card left to place, a decision with one possible answer: " \
            + _NEVER_ASKED
    answers = [a for a in listed or () if isinstance(a, dict) and a.get("player") ==
               pending.get("player") and a.get("action") != "concede"]
    if len(answers) != 1:
        return None
    return (f"{asked}, a decision with one possible answer "
            f"({json.dumps(answers[0], ensure_ascii=False)}, the only one its legal actions "
            f"list): {_NEVER_ASKED}")
