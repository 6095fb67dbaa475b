"""A small driver for engine tests: set up a table, act by handle, advance, observe."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reference_engine.engine import ReferenceEngine
from reference_engine.errors import IllegalActionError
from reference_engine.game import Game


def given(step: str = "precombat_main", *, active: str = "A", turn: int = 3,
          **state: Any) -> dict[str, Any]:
    """A given-state setup: ``given(players={...}, battlefield=[...])``."""
    return {"seed": 1, "turn": {"number": turn, "active": active, "step": step}, **state}


def h(handle: str, card: str, **more: Any) -> dict[str, Any]:
    """A card with a handle, for a setup: ``h("bears", "Grizzly Bears", controller="B")``."""
    return {"handle": handle, "card": card, **more}


def table(edition: str, step: str = "precombat_main", *, a: dict | None = None,
          b: dict | None = None, battlefield: Any = (), active: str = "A", turn: int = 3,
          **extra: Any) -> Table:
    """A given state with eight-card libraries: ``table("cr2004", a={"hand": [...]})``."""
    players = {"A": {"library": ["Island"] * 8, **(a or {})},
               "B": {"library": ["Island"] * 8, **(b or {})}}
    return Table(edition, given(step, active=active, turn=turn, players=players,
                                battlefield=list(battlefield), **extra))


def record_calls(game: Game, method: str, note: Callable[..., Any]) -> list[Any]:
    """From now on, what ``note`` makes of the arguments of each call of ``game``'s
    ``method``, noted before the call, which is still made: ``record_calls(game,
    "_sba_candidates", lambda: game.version)`` gives the versions its lists are made at."""
    seen: list[Any] = []
    real = getattr(game, method)

    def spy(*args: Any) -> Any:
        seen.append(note(*args))
        return real(*args)

    setattr(game, method, spy)
    return seen


def resolve(t: Table) -> None:
    """Both players pass: the top of the stack resolves (or the step ends)."""
    t.pass_priority()
    t.pass_priority()


class Table:
    def __init__(self, edition: str, setup: dict[str, Any]) -> None:
        self.edition = edition
        self.engine = ReferenceEngine()
        self.handles = dict(self.engine.new_game(edition, setup)["handles"])
        self.events: list[dict[str, Any]] = []

    @property
    def game(self) -> Game:
        """The engine's game itself, for tests that look inside it."""
        game = self.engine.game
        assert game is not None
        return game

    # handles ---------------------------------------------------------------------------------
    def id(self, handle: Any) -> Any:
        if isinstance(handle, str) and handle in self.handles:
            return self.handles[handle]
        return handle

    def _target(self, value: Any) -> dict[str, Any]:
        if value in ("A", "B"):
            return {"player": value}
        return {"object": self.id(value)}

    def action(self, kind: str, player: str, **fields: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"action": kind, "player": player}
        for key, value in fields.items():
            if key in ("card", "attacker"):
                out[key] = self.id(value)
            elif key == "targets":
                out[key] = [self._target(t) for t in value]
            elif key == "order" or (key == "pay_with" and isinstance(value, list)):
                out[key] = [self.id(v) for v in value]
            elif key == "choice":
                out[key] = self.id(value)
            else:
                out[key] = value
        return out

    # acting ------------------------------------------------------------------------------------
    def do(self, kind: str, player: str, **fields: Any) -> None:
        self.engine.perform(self.action(kind, player, **fields))
        self._follow()

    def illegal(self, kind: str, player: str, **fields: Any) -> str:
        """Perform an action that must be rejected; return the reason. Checks the state
        is unchanged."""
        before = self.engine.observe()
        try:
            self.engine.perform(self.action(kind, player, **fields))
        except IllegalActionError as exc:
            assert self.engine.observe() == before, "a rejected action changed the state"
            return exc.reason
        raise AssertionError(f"{kind} by {player} {fields} was accepted")

    def legal(self) -> list[dict[str, Any]]:
        return self.engine.legal_actions()

    def _follow(self) -> None:
        for event in self.engine.events():
            self.events.append(event)
            if event["type"] == "zone_change":
                for handle, oid in self.handles.items():
                    if oid == event["object"]:
                        self.handles[handle] = event["new_object"]

    def pass_priority(self) -> str:
        who = self.obs()["turn"]["priority"]
        assert who is not None, f"nobody has priority: {self.obs()['pending']}"
        self.do("pass", who)
        return who

    def advance(self, step: str, *, turn: int | None = None, limit: int = 400) -> None:
        """Pass priority (and declare nothing) until ``step`` (of ``turn``) begins."""
        for _ in range(limit):
            o = self.obs()
            if o["result"]["over"]:
                raise AssertionError(f"game ended while advancing to {step}")
            here = o["turn"]
            if here["step"] == step and (turn is None or here["number"] == turn) and (
                here["priority"] is not None or o["pending"] is not None):
                return
            pending = o["pending"]
            if pending is not None:
                if pending["decision"] in ("declare_attackers", "declare_blockers"):
                    self.do("done", pending["player"])
                    continue
                raise AssertionError(f"advance blocked by {pending}")
            self.pass_priority()
        raise AssertionError(f"did not reach {step} within {limit} actions")

    def attack(self, *handles: str) -> None:
        """Go on to the active player's declaration of attackers and declare ``handles``."""
        self.advance("declare_attackers")
        player = self.obs()["turn"]["active"]
        for handle in handles:
            self.do("attack", player, card=handle)
        self.do("done", player)

    def block(self, blocks: dict[str, str]) -> None:
        """Go on to the declaration of blockers and declare ``{blocker: attacker}``."""
        self.advance("declare_blockers")
        player = self.obs()["pending"]["player"]
        for blocker, attacker in blocks.items():
            self.do("block", player, card=blocker, attacker=attacker)
        self.do("done", player)

    # observing ------------------------------------------------------------------------------------
    def obs(self, player: str | None = None) -> dict[str, Any]:
        return self.engine.observe(player)

    def find(self, handle: str) -> dict[str, Any] | None:
        """The observed object with this handle, wherever it is."""
        oid = self.id(handle)
        o = self.obs()
        zones = [o["battlefield"], o["stack"], o.get("exile", [])]
        for p in o["players"].values():
            zones += [p["hand"], p["library"], p["graveyard"]]
        for zone in zones:
            for item in zone:
                if item.get("id") == oid:
                    return item
        return None

    def cards(self, zone: list[dict[str, Any]]) -> list[str]:
        return [c["card"] for c in zone]

    def player(self, name: str) -> dict[str, Any]:
        return self.obs()["players"][name]
