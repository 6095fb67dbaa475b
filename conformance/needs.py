"""What a case needs of an engine, derived from its setup and steps (docs/protocol.md lists
the capabilities). Authors do not list these by hand: the lint rejects a ``requires`` entry
that this module derives, so that a case asks for no more than it uses and never for less.

* the setup: a seeded start (``setup.start``; ``shuffle: false`` adds ``setup.deck_order``;
  ``ante``, sideboards) or a given state (``setup.state``) and each departure from a given
  state's defaults: mana in a pool, poison, graveyard or exile contents, a library of
  different cards (its order then matters), lands played, tapped, sick, damaged, countered,
  attached, stolen or token permanents;
* the steps: a player's view (``observe.view``), the stack (``observe.stack``), the cards of
  a library beyond its count (``observe.library``), mulligans, paying from the pool
  (``pay.pool``), leaving the sources to the engine (``pay_with: auto``, ``pay.auto``);
* payment: an action that names its mana sources (``pay_with``) runs on any engine that can
  pay from them in one of the protocol's forms (``Payment``).

``observe.events`` (a handle followed across zones) and ``actions.legal`` cannot be told from
the case's shape: a case lists them in ``requires`` (``conformance.following`` finds a case
that follows a handle without saying so).

Activating a mana ability as an action and conceding are rules, not capabilities
(``protocol.RETIRED``): a case that does either runs on every engine, and one that cannot do
them fails it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance import paths
from spec.cardpool import CardData, activated_abilities, default_pool
from spec.standins import parse_token, standins

#: Capabilities this module derives: a case may not list them in ``requires``.
DERIVED = frozenset({
    "setup.start", "setup.deck_order", "setup.ante", "setup.legality", "setup.state",
    "setup.library_order",
    "setup.mana_pool", "setup.poison", "setup.graveyard", "setup.exile", "setup.zones",
    "setup.sideboard", "setup.tapped", "setup.sick", "setup.damage", "setup.counters",
    "setup.attachments", "setup.controller", "setup.tokens", "setup.combat",
    "setup.lands_played",
    "setup.hand_size", "pay.pool", "pay.auto", "actions.mulligan",
    "observe.stack", "observe.view", "observe.library",
})
_MULLIGAN_WORDS = ("mulligan", "bottom")


@dataclass(frozen=True, slots=True)
class Payment:
    """How a case pays for what it casts from named sources (``pay_with``), and the forms of
    the protocol that can carry it.

    ``sources``: the engine activates the named sources' mana abilities as it pays;
    ``pool``: the harness activates them as actions first (a rule every engine follows), then
    casts from the pool (not when
    an ``expect_illegal`` step names sources: the activations would stay done after the
    rejection; nor when a named source triggers as it is tapped for mana, Forbidden Orchard:
    activated first, its trigger would be on the stack before the spell is cast, 2004 409.1f
    and modern 605.4a); ``auto``: the engine chooses its sources.
    """

    illegal: bool  # an expect_illegal step names sources
    triggering: bool = False  # a named source triggers when tapped for mana

    @property
    def forms(self) -> tuple[str, ...]:
        if self.illegal or self.triggering:
            return ("sources", "auto")
        return ("sources", "pool", "auto")

    def form_for(self, capabilities: frozenset[str]) -> str | None:
        """The form to use with an engine, or None if it has none of them."""
        for form in self.forms:
            if f"pay.{form}" in capabilities:
                return form
        return None

    def describe(self) -> str:
        parts = {"sources": "pay.sources", "auto": "pay.auto", "pool": "pay.pool"}
        return "a way to pay from named sources: " + " or ".join(parts[f] for f in self.forms)


@dataclass(frozen=True, slots=True)
class Needs:
    capabilities: frozenset[str]
    payment: Payment | None  # set when some action names its mana sources


def derive(setup: Mapping[str, Any], steps: Iterable[Any],
           handle_cards: Mapping[str, str]) -> Needs:
    """What a case with this setup and these steps (``conformance.case.Step``) needs;
    ``handle_cards`` maps the setup's handles to card names (or stand-in tokens)."""
    found = set(_setup_needs(setup))
    payment: Payment | None = None
    pool_in_setup = "setup.mana_pool" in found
    for step in steps:
        if step.view:
            found.add("observe.view")
        for check in step.checks:
            found.update(_check_needs(check.path, check.expected))
        if step.kind == "expect_illegal_setup":
            found.add("setup.legality")
        if step.kind not in ("do", "expect_illegal"):
            continue
        action = step.value
        kind = action.get("action")
        if kind in ("keep", "mulligan"):
            found.add("actions.mulligan")
        elif kind in ("cast", "activate"):
            card = card_of(action.get("card"), handle_cards)
            if kind == "activate" and is_mana_ability(card, action.get("ability")):
                continue  # a rule every engine follows (protocol.RETIRED): it needs nothing
            if action.get("pay_with") == "auto":
                found.add("pay.auto")  # the engine chooses: no sources to pay in another form
            elif action.get("pay_with") is not None:
                illegal = step.kind == "expect_illegal" or (payment is not None
                                                           and payment.illegal)
                triggering = any(_triggers_for_mana(card_of(source, handle_cards))
                                 for source in _sources(action["pay_with"])) or (
                                     payment is not None and payment.triggering)
                payment = Payment(illegal, triggering)
            elif "payment" in action or pool_in_setup or costs_mana(card, action):
                found.add("pay.pool")
    return Needs(frozenset(found), payment)


def _setup_needs(setup: Mapping[str, Any]) -> Iterable[str]:
    if "start" in setup:
        yield "setup.start"
        if setup.get("shuffle") is False:
            yield "setup.deck_order"
        if setup.get("ante"):
            yield "setup.ante"
        if setup.get("format"):
            yield "setup.legality"
        if any(setup.get("sideboards", {}).values()):
            yield "setup.sideboard"
        return
    yield "setup.state"
    for state in (setup.get("players") or {}).values():
        if not isinstance(state, Mapping):
            continue
        if any((state.get("mana_pool") or {}).values()):
            yield "setup.mana_pool"
        if state.get("poison"):
            yield "setup.poison"
        if state.get("graveyard"):
            yield "setup.graveyard"
        if state.get("sideboard"):
            yield "setup.sideboard"
        if state.get("lands_played"):
            yield "setup.lands_played"
        if "max_hand_size" in state:
            yield "setup.hand_size"
        if _ordered(state.get("library") or []):
            yield "setup.library_order"
    if setup.get("exile"):
        yield "setup.exile"
    if any(setup.get(zone) for zone in ("ante", "command", "phased_out")):
        yield "setup.zones"
    for entry in setup.get("battlefield") or []:
        if not isinstance(entry, Mapping):
            continue
        for key, capability in (("tapped", "setup.tapped"), ("sick", "setup.sick"),
                                ("damage", "setup.damage"), ("token", "setup.tokens"),
                                ("attached_to", "setup.attachments"),
                                ("attacking", "setup.combat"), ("blocking", "setup.combat")):
            if entry.get(key):
                yield capability
        if any((entry.get("counters") or {}).values()):
            yield "setup.counters"
        owner, controller = entry.get("owner"), entry.get("controller")
        if owner is not None and controller is not None and owner != controller:
            yield "setup.controller"


def _ordered(library: list[Any]) -> bool:
    """A library's order matters when it holds different cards or names one by handle."""
    names = set()
    for entry in library:
        if isinstance(entry, Mapping):
            if "handle" in entry:
                return True
            names.add(entry.get("card"))
        else:
            names.add(entry)
    return len(names) > 1


def _check_needs(path: paths.Path, expected: Any) -> Iterable[str]:
    if path.root == "stack":
        yield "observe.stack"
    if path.root == "pending" and _mentions(expected, _MULLIGAN_WORDS):
        yield "actions.mulligan"
    if _reads_library_cards(path, expected):
        yield "observe.library"


def _reads_library_cards(path: paths.Path, expected: Any) -> bool:
    """Whether a check needs the cards of a library, not just how many there are."""
    keys = [segment.key for segment in path.segments]
    if keys[:1] != ["players"]:
        return False
    if len(keys) < 3:  # players or players.A matched as a whole
        return _mentions_key(expected, "library")
    if keys[2] != "library":
        return False
    library = path.segments[2]
    if library.selectors:
        return True
    if len(keys) > 3:
        return keys[3] != "count"
    return not (paths.is_helper(expected) and set(expected) <= {"count"})


def _mentions(value: Any, words: tuple[str, ...]) -> bool:
    if isinstance(value, str):
        return value in words
    if isinstance(value, Mapping):
        return any(_mentions(v, words) for v in value.values())
    if isinstance(value, list):
        return any(_mentions(v, words) for v in value)
    return False


def _mentions_key(value: Any, key: str) -> bool:
    return isinstance(value, Mapping) and key in value


def rule_action(action: Mapping[str, Any], handle_cards: Mapping[str, str]) -> str | None:
    """The retired capability (``protocol.RETIRED``) an action of a case is, now a rule every
    engine follows: a concession, or a mana ability activated as an action; else None."""
    kind = action.get("action")
    if kind == "concede":
        return "actions.concede"
    if kind == "activate" and is_mana_ability(card_of(action.get("card"), handle_cards),
                                              action.get("ability", 0)):
        return "actions.mana"
    return None


def card_of(ref: Any, handle_cards: Mapping[str, str],
            editions: Sequence[str] = ()) -> CardData | None:
    """The card data of an action's object (a handle or a card name): of the first of
    ``editions`` that has the card, else of any edition."""
    name = handle_cards.get(ref, ref) if isinstance(ref, str) else None
    if name is None:
        return None
    token = parse_token(name)
    if token is not None:
        # A stand-in is judged by its first member: every member has what its class fixes,
        # and a class that leaves costs or abilities open is not read for them.
        cls = standins().get(token)
        members = [m for edition in (*editions, *default_pool().cards)
                   for m in cls.members(edition)] if cls is not None else []
        name = members[0] if members else None
    pool = default_pool().cards
    for edition in (*editions, *pool):
        cards = pool.get(edition, {})
        if name in cards:
            return cards[name]
    return None


def _sources(pay_with: Any) -> list[Any]:
    if not isinstance(pay_with, list):
        return []
    return [s.get("card") if isinstance(s, Mapping) else s for s in pay_with]


def _triggers_for_mana(card: CardData | None) -> bool:
    """A card with an ability that triggers when it is tapped for mana."""
    text = card.text.lower() if card is not None else ""
    return "whenever" in text and "for mana" in text


def is_mana_ability(card: CardData | None, index: Any) -> bool:
    if card is None or not isinstance(index, int):
        return False
    abilities = activated_abilities(card)
    return 0 <= index < len(abilities) and abilities[index].mana


def costs_mana(card: CardData | None, action: Mapping[str, Any]) -> bool:
    """Whether paying for the action takes mana (unknown cards are taken to cost some)."""
    if card is None:
        return True
    if action.get("action") == "cast":
        return bool(card.mana_value) or bool(action.get("x")) or bool(action.get("kicked"))
    index = action.get("ability")
    abilities = activated_abilities(card)
    if not isinstance(index, int) or not 0 <= index < len(abilities):
        # Granted by another object (an Aura, Equipment): its text is not the card's. Such an
        # activation that costs mana must name its sources.
        return False
    return abilities[index].mana_cost
