"""``mtgconf smoke``: the handshake and one short game, with every message validated.

For an engine author's first contact with the suite: it prints what the engine declared,
plays two identical short games on the harness's game driver (passing priority, keeping hands,
declaring nothing, answering every other decision as a player who wants nothing would) to the
third turn, and reports any error, protocol violation or difference between the two games.
"""

from __future__ import annotations

import argparse
from typing import Any

from conformance.driver import ANSWER, GameDriver, Played, Rejected, Started, Unreached
from conformance.errors import CallFailed
from conformance.exitcodes import ExitCode
from mtgconf import Parser
from mtgconf.commands.run import add_engine_option, start_engine
from spec.editions import EDITIONS

BASICS = ("Forest", "Island", "Mountain", "Plains", "Swamp")
MAX_ACTIONS = 400
#: the game is played to this turn
TURNS = 3


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    smoke = commands.add_parser(
        "smoke", help="Shake hands with an engine and play one short game",
        description="Shake hands with an engine, print what it declared, and play a short "
        "game twice from the same setup (every message checked against its schema). Exit "
        "status: 0 fine, 1 problems in the game, 2 bad engine spec, 3 the engine could not "
        "start or failed the handshake.",
    )
    add_engine_option(smoke)
    smoke.add_argument("--edition", default=None, metavar="EDITION",
                       help="Play under this edition (default: the first one declared)")
    smoke.set_defaults(handler=_smoke)


def _smoke(args: argparse.Namespace) -> int:
    from conformance.protocol import CAPABILITIES

    session = start_engine(args.engine, validate=True)
    info = session.info
    try:
        print(f"engine:       {info.name} {info.version}")
        print(f"protocol:     {info.protocol}")
        print(f"editions:     {', '.join(info.editions) or '(none)'}")
        unknown = sorted(info.declared - set(CAPABILITIES))
        print(f"capabilities: {', '.join(sorted(info.declared)) or '(none)'}"
              + (f" (unknown to this harness: {', '.join(unknown)})" if unknown else ""))
        implied = sorted(info.capabilities - info.declared)
        if implied:
            print(f"implied by {info.protocol}: {', '.join(implied)}")
        cards = sorted(info.cards)
        shown = ", ".join(cards[:12]) + (f", ... ({len(cards)} in all)" if len(cards) > 12
                                         else "")
        print(f"cards:        {shown or '(none)'}")
        problems = _play_twice(session, info, args.edition)
    finally:
        session.close()
    for problem in problems:
        print(f"problem: {problem}")
    print("smoke: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return ExitCode.UNEXPECTED if problems else ExitCode.OK


def _setup(info: Any) -> dict[str, Any] | None:
    card = next((b for b in BASICS if b in info.cards), min(info.cards, default=None))
    if card is None:
        return None
    if "setup.start" in info.capabilities:
        deck = [{"card": card, "count": 20}]
        return {"start": "game", "seed": 1, "first_player": "A", "decks": {"A": deck, "B": deck}}
    if "setup.state" in info.capabilities:
        library = [{"card": card, "count": 10}]
        return {"seed": 1, "turn": {"number": 1, "active": "A", "step": "upkeep"},
                "players": {"A": {"library": library}, "B": {"library": library}}}
    return None


def _play_twice(session: Any, info: Any, edition: str | None) -> list[str]:
    from conformance.runner import _difference

    edition = edition or next((e for e in info.editions if e in EDITIONS), None)
    if edition is None or edition not in info.editions:
        return [f"the engine does not declare edition {edition or ' or '.join(EDITIONS)}"]
    setup = _setup(info)
    if setup is None:
        return ["cannot start a game: the engine declares neither setup.start nor setup.state "
                "(or no card)"]
    first, problems, actions = _play(session, info, edition, setup)
    if problems:
        return problems
    turn = first.get("turn", {})
    print(f"game:         {edition}, {'seeded start' if 'start' in setup else 'given state'}; "
          f"{actions} actions to turn {turn.get('number')} {turn.get('step')}"
          + (f"; over ({first['result'].get('reason')})" if first["result"].get("over") else ""))
    second, problems, _ = _play(session, info, edition, setup)
    if problems:
        return problems
    if second != first:
        where, old, new = _difference(first, second)
        return [f"nondeterministic: two games from the same setup differ at {where} "
                f"({old!r} then {new!r})"]
    print("determinism:  two games from the same setup ended the same")
    return []


class _PassesListed:
    """Watches a smoke game: every pass performed must have been listed by
    ``legal_actions`` (when the engine declares ``actions.legal``)."""

    views_every = 4
    wants_legal = True

    def __init__(self) -> None:
        self.problems: list[str] = []

    def started(self, start: Started) -> None:
        pass

    def played(self, step: Played) -> None:
        action = step.action
        if action.get("action") == "pass" and step.legal is not None and \
                action not in step.legal and not self.problems:
            self.problems.append(f"legal_actions lacks the pass of {action.get('player')}, "
                                 "who has priority")

    def failed(self, action: dict[str, Any] | None, error: CallFailed) -> None:
        pass


def _play(session: Any, info: Any, edition: str,
          setup: dict[str, Any]) -> tuple[dict[str, Any], list[str], int]:
    """One game to the third turn (or its end), a player who wants nothing answering every
    decision, every call's answer checked; the game at the end, the problems, the actions."""
    client = session.begin(30.0)
    watch = _PassesListed()
    game = GameDriver(client, info, edition, observer=watch)
    unusable = False
    actions = 0
    try:
        game.start(setup, keep=False)  # the opening decisions are answered as the rest
        try:
            actions = game.advance({"turn": TURNS}, decisions=ANSWER, limit=MAX_ACTIONS)
        except Unreached as exc:
            if exc.kind != "over":
                return game.observation, [str(exc)], game.steps
            actions = game.steps
        except Rejected as exc:
            return game.observation, [exc.describe("the engine rejected {action}")], \
                game.steps
        observation = game.observe()
    except CallFailed as exc:
        unusable = True
        return game.observation, [str(exc)], game.steps
    finally:
        session.end(unusable=unusable)
    return observation, watch.problems, actions
