"""Stand-ins at run time: a case that names ``<bear>`` runs with the first member of the class
(``spec/standins.yaml``) that the engine supports in the edition, and every mention of the
token, in the setup, the actions and the expectations, becomes that card's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from conformance import paths
from conformance.case import Case, Check
from conformance.protocol import EngineInfo
from spec.standins import StandinClass, parse_token, standins


def tokens(case: Case) -> dict[str, StandinClass]:
    """The stand-in classes a case uses, by token (``<bear>``)."""
    classes = standins()
    found = {}
    for card in case.cards:
        name = parse_token(card)
        if name is not None and name in classes:
            found[card] = classes[name]
    return found


def choose(case: Case, edition: str, info: EngineInfo) -> tuple[dict[str, str], list[str]]:
    """The card each stand-in token of the case becomes for this engine and edition, and the
    tokens none of whose members the engine supports."""
    supported = info.cards_for(edition)
    chosen: dict[str, str] = {}
    missing: list[str] = []
    for token, cls in sorted(tokens(case).items()):
        member = next((c for c in cls.members(edition) if c in supported), None)
        if member is None:
            missing.append(token)
        else:
            chosen[token] = member
    return chosen, missing


def resolve(case: Case, chosen: Mapping[str, str]) -> Case:
    """The case with every stand-in token replaced by its chosen card."""
    if not chosen:
        return case

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return chosen.get(value, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    steps = tuple(
        replace(step, value=swap(step.value),
                checks=tuple(Check(_path(check.path, chosen), swap(check.expected))
                             for check in step.checks))
        for step in case.steps
    )
    return replace(case, setup=swap(case.setup), steps=steps,
                   cards=frozenset(swap(c) for c in case.cards),
                   handle_cards={h: swap(c) for h, c in case.handle_cards.items()})


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

