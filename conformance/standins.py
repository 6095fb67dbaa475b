"""Stand-ins at run time: the card each stand-in token of a case (``<vanilla-creature>``)
becomes on this engine, and each card the case names that the engine knows under another name
(protocol 1.2); then every mention of them, in the setup, the actions and the expectations,
becomes the engine's card, and every ``$(...)`` reference its number.

A token becomes, in order of preference: a member the engine named for the class itself
(``standins`` in its ``hello``), a member of the class in the suite's pool that the engine
supports, then any card the engine declared with what the class fixes. A named card the
engine lacks becomes the engine's card declared with every characteristic the same. Within a
case the choices are different cards, none of them a card the case names: two tokens stand
for two cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from conformance import paths, templating
from conformance.carddata import same_card
from conformance.case import Case, Check
from conformance.protocol import EngineInfo
from spec.cardpool import default_pool
from spec.standins import StandinClass, card_facts, fits, parse_token, standins

#: Keys whose values are words of a card (its types) or a decision's answer, never card names.
WORDS = frozenset({"types", "subtypes", "supertypes", "colors", "choice"})


def tokens(case: Case) -> dict[str, StandinClass]:
    """The stand-in classes a case uses, by token (``<bear>``)."""
    classes = standins()
    found = {}
    for card in case.cards:
        name = parse_token(card)
        if name is not None and name in classes:
            found[card] = classes[name]
    return found


def candidates(cls: StandinClass, edition: str, info: EngineInfo) -> list[str]:
    """The engine's cards that may stand for the class in ``edition``, best first."""
    supported = info.cards_for(edition)
    declared_facts = info.card_data.get(edition, {})
    # A member the engine names must be one of its cards, and fit what it declared of it.
    named = [c for c in info.standin_members.get(cls.name, ()) if c in supported and
             (c not in declared_facts or fits(declared_facts[c], cls.fixes, c))]
    pooled = [c for c in cls.members(edition) if c in supported]
    declared = [c for c, facts in sorted(info.card_data.get(edition, {}).items())
                if c in supported and fits(facts, cls.fixes, c)]
    return list(dict.fromkeys([*named, *pooled, *declared]))


def renamed(card: str, edition: str, info: EngineInfo) -> list[str]:
    """The engine's cards declared the same as the pool's ``card`` under another name."""
    data = default_pool().cards.get(edition, {}).get(card)
    if data is None:
        return []
    supported = info.cards_for(edition)
    return [c for c, facts in sorted(info.card_data.get(edition, {}).items())
            if c in supported and same_card(data, facts, c)]


def choose(case: Case, edition: str, info: EngineInfo) -> tuple[dict[str, str], list[str]]:
    """The card each stand-in token (and each card the engine knows under another name)
    becomes for this engine and edition, and the tokens and cards left without one."""
    supported = info.cards_for(edition)
    taken = {c for c in case.cards if parse_token(c) is None and c in supported}
    chosen: dict[str, str] = {}
    missing: list[str] = []
    wanted: list[tuple[str, list[str]]] = []
    for card in sorted(case.cards):
        if parse_token(card) is None and card not in supported:
            wanted.append((card, renamed(card, edition, info)))
    for token, cls in sorted(tokens(case).items()):
        wanted.append((token, candidates(cls, edition, info)))
    # The fewest choices first, so that a card many could take goes to one that needs it.
    for key, options in sorted(wanted, key=lambda item: (len(item[1]), item[0])):
        member = next((c for c in options if c not in taken), None)
        if member is None:
            missing.append(key)
        else:
            chosen[key] = member
            taken.add(member)
    return chosen, sorted(missing)


def numbers(edition: str, info: EngineInfo, chosen: Mapping[str, str]
            ) -> Callable[[str, str], Any]:
    """The lookup a ``$(...)`` reference reads: a chosen card's number as the engine declared
    it, else as the pool has it."""
    pool = default_pool().cards.get(edition, {})

    def lookup(token: str, prop: str) -> Any:
        card = chosen.get(token, token)
        declared = info.facts(edition, card)
        if declared is not None and prop in declared:
            return declared[prop]
        if card in pool:
            return card_facts(pool[card])[prop]
        raise templating.TemplateError(f"no {prop} known for {token} ({card})")
    return lookup


def resolve(case: Case, chosen: Mapping[str, str], edition: str = "",
            info: EngineInfo | None = None) -> Case:
    """The case with every stand-in token (and renamed card) replaced by its chosen card, and
    every ``$(...)`` reference by its number."""
    templated = any(templating.find(case.setup)) or any(
        any(templating.find(step.value)) or any(templating.find(c.expected) for c in step.checks)
        for step in case.steps)
    lookup = numbers(edition, info, chosen) if info is not None and templated else None
    if not chosen and lookup is None:
        return case

    # A renamed card's name is swapped where a card is named, not where a word is: Forest
    # the card becomes the engine's, Forest the land type read from subtypes stays.
    tokens_only = {k: v for k, v in chosen.items() if parse_token(k) is not None}

    def swap(value: Any, names: Mapping[str, str] = chosen) -> Any:
        if isinstance(value, str):
            if lookup is not None and templating.is_template(value):
                return templating.evaluate(value, lookup)
            return names.get(value, value)
        if isinstance(value, list):
            return [swap(v, names) for v in value]
        if isinstance(value, dict):
            return {k: swap(v, tokens_only if k in WORDS else names) for k, v in value.items()}
        return value

    def expected(check: Check) -> Any:
        last = check.path.segments[-1].key if check.path.segments else None
        return swap(check.expected, tokens_only if last in WORDS else chosen)

    steps = tuple(
        replace(step, value=swap(step.value),
                checks=tuple(Check(_path(check.path, chosen), expected(check))
                             for check in step.checks))
        for step in case.steps
    )
    return replace(case, setup=swap(case.setup), steps=steps,
                   cards=frozenset(chosen.get(c, c) for c in case.cards),
                   handle_cards={h: chosen.get(c, c) for h, c in case.handle_cards.items()})


def _path(path: paths.Path, chosen: Mapping[str, str]) -> paths.Path:
    if not any(s.kind == "card" and s.value in chosen for seg in path.segments
               for s in seg.selectors):
        return path
    segments = tuple(
        replace(seg, selectors=tuple(
            paths.Selector("card", chosen[str(s.value)]) if s.kind == "card"
            and s.value in chosen else s for s in seg.selectors))
        for seg in path.segments)
    text = path.text
    for token, card in chosen.items():
        text = text.replace(f"[card={token}]", f"[card={card}]")
    return paths.Path(text, segments)
