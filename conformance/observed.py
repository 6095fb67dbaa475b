"""What an observation holds (``spec/schemas/protocol/observation.json``), for checking that a
case's paths name real fields: ``players.C.life`` or ``turn.stepp`` is a case author's typo,
which must be an input error, never an engine's failure.

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
from functools import cache
from typing import Any

from conformance.paths import Path, parse
from conformance.protocol import PLAYERS
from conformance.schemas import PROTOCOL_DIR

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
