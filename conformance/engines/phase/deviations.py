"""Raw phase-python calls that show each deviation docs/engines/phase.md lists.

``python -m conformance.engines.phase.deviations [NAME ...]`` prints, for each, what the
engine answers. The game is set up with ``state.given_state`` (which only edits an exported
state, as the adapter does for a case's given state); everything after that is a raw engine
call, with no adapter in between.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from conformance.engines.phase.carddata import card_database
from conformance.engines.phase.state import given_state

PASS = {"type": "PassPriority"}
MAIN = {"number": 3, "active": "A", "step": "precombat_main"}


class Table:
    def __init__(self, setup: dict[str, Any]) -> None:
        import phase

        self.phase = phase
        engine = phase.Engine.from_path(str(card_database().path))
        self.game, self.h = given_state(engine, setup)

    def act(self, seat: int, action: dict[str, Any]) -> list[str]:
        result = self.game.apply(seat, self.phase.GameAction.from_dict(action))
        return [e["type"] for e in result.events]

    def cast(self, seat: int, handle: str, *targets: dict[str, Any]) -> None:
        oid = self.h[handle]
        self.act(seat, {"type": "CastSpell", "data": {"object_id": oid, "card_id": oid,
                                                      "targets": [],
                                                      "payment_mode": {"type": "Auto"}}})
        for target in targets:
            self.act(seat, {"type": "ChooseTarget", "data": {"target": target}})

    def where(self) -> str:
        return f"turn {self.game.turn} {self.game.phase}, waiting for " + \
            json.dumps(self.game.waiting_for())[:140]

    def names(self, objects: list[dict[str, Any]]) -> list[str]:
        return [o["name"] for o in objects]


def mind_rot() -> None:
    """608.2n, then 117.3b."""
    t = Table({"turn": MAIN,
               "players": {"A": {"hand": [{"handle": "rot", "card": "Mind Rot"}]},
                           "B": {"hand": [{"handle": "i", "card": "Island"},
                                          {"handle": "s", "card": "Swamp"}, "Forest"]}},
               "battlefield": [{"card": "Swamp", "controller": "A", "count": 3}]})
    t.cast(0, "rot", {"Player": 1})
    t.act(0, PASS)
    t.act(1, PASS)
    print("608.2n:", t.where())
    print("  A's graveyard:", t.names(t.game.graveyard(0)), "stack:", t.game.stack())
    t.act(1, {"type": "SelectCards", "data": {"cards": [t.h["i"], t.h["s"]]}})
    print("117.3b:", t.where(), "- active player:",
          t.game.state()["state"]["active_player"])


def no_attackers() -> None:
    """508.2, 508.8."""
    t = Table({"turn": {"number": 3, "active": "A", "step": "beginning_of_combat"},
               "players": {"A": {"library": ["Forest"]}, "B": {"library": ["Forest"]}},
               "battlefield": [{"handle": "bears", "card": "Grizzly Bears", "controller": "A"}]})
    t.act(0, PASS)
    t.act(1, PASS)
    print("508.2:", t.where())
    print("  DeclareAttackers with none:",
          t.act(0, {"type": "DeclareAttackers", "data": {"attacks": [], "bands": []}}))
    print("  then:", t.where())


def cleanup() -> None:
    """514.3a."""
    t = Table({"turn": MAIN,
               "players": {"A": {"hand": [{"handle": "strength", "card": "Holy Strength"}],
                                 "library": ["Island"] * 3},
                           "B": {"library": ["Island"] * 3}},
               "battlefield": [{"handle": "factory", "card": "Mishra's Factory",
                                "controller": "A"},
                               {"card": "Forest", "controller": "A"},
                               {"card": "Plains", "controller": "A"}]})
    t.act(0, {"type": "ActivateAbility", "data": {"source_id": t.h["factory"],
                                                  "ability_index": 1}})
    t.act(0, PASS)
    t.act(1, PASS)
    t.cast(0, "strength")
    t.act(0, PASS)
    t.act(1, PASS)
    seen = []
    while t.game.turn == 3:
        seen.append(t.game.phase)
        t.act(t.game.waiting_for()["data"]["player"], PASS)
    print("514.3a: steps with priority in turn 3 after the Aura resolved:", sorted(set(seen)))
    print("  now:", t.where(), "- A's graveyard:", t.names(t.game.graveyard(0)))


def wrath() -> None:
    """404.3."""
    t = Table({"turn": {"number": 4, "active": "B", "step": "precombat_main"},
               "players": {"B": {"hand": [{"handle": "wrath", "card": "Wrath of God"}]}},
               "battlefield": [{"card": "Llanowar Elves", "controller": "A"},
                               {"card": "Grizzly Bears", "owner": "A", "controller": "B"},
                               {"card": "Plains", "controller": "B", "count": 4}]})
    t.cast(1, "wrath")
    t.act(1, PASS)
    t.act(0, PASS)
    print("404.3:", t.where())
    print("  A's graveyard, bottom first:", t.names(t.game.graveyard(0)))


def worlds() -> None:
    """704.5k."""
    t = Table({"turn": MAIN,
               "players": {"A": {"hand": [{"handle": "replenish", "card": "Replenish"}],
                                 "graveyard": ["Living Plane", "Concordant Crossroads"]}},
               "battlefield": [{"card": "Plains", "controller": "A", "count": 4}]})
    t.cast(0, "replenish")
    t.act(0, PASS)
    t.act(1, PASS)
    print("704.5k: battlefield:", t.names(t.game.battlefield()))
    print("  A's graveyard, bottom first:", t.names(t.game.graveyard(0)))


def circle() -> None:
    """609.7a."""
    t = Table({"turn": MAIN,
               "battlefield": [{"handle": "fanatic", "card": "Mogg Fanatic", "controller": "A"},
                               {"handle": "cop", "card": "Circle of Protection: Red",
                                "controller": "B"},
                               {"card": "Island", "controller": "B"}]})
    t.act(0, {"type": "ActivateAbility", "data": {"source_id": t.h["fanatic"],
                                                  "ability_index": 0}})
    t.act(0, {"type": "ChooseTarget", "data": {"target": {"Player": 1}}})
    t.act(0, PASS)
    t.act(1, {"type": "ActivateAbility", "data": {"source_id": t.h["cop"], "ability_index": 0}})
    t.act(1, PASS)
    print("609.7a: the Circle resolves:", t.act(0, PASS), "-", t.where())
    t.act(0, PASS)
    print("  the Fanatic's ability resolves:", t.act(1, PASS), "- B's life:",
          t.game.player(1)["life"])


def plow_under() -> None:
    """601.2c."""
    t = Table({"turn": MAIN,
               "players": {"A": {"hand": [{"handle": "plow", "card": "Plow Under"}]},
                           "B": {"library": ["Plains", "Plains"]}},
               "battlefield": [{"card": "Forest", "controller": "A", "count": 5},
                               {"handle": "island", "card": "Island", "controller": "B"},
                               {"handle": "mountain", "card": "Mountain", "controller": "B"}]})
    t.cast(0, "plow", {"Object": t.h["island"]})
    top = t.game.stack()[-1]["kind"]["data"]["ability"]
    print("601.2c: after one target:", t.where())
    print("  targets on the stack:", top["targets"])


def leonin_bola() -> None:
    """602.2b, 601.2h."""
    t = Table({"turn": {"number": 3, "active": "B", "step": "precombat_main"},
               "battlefield": [{"handle": "bears", "card": "Grizzly Bears", "controller": "B"},
                               {"handle": "bola", "card": "Leonin Bola", "controller": "B"},
                               {"card": "Plains", "controller": "B"},
                               {"card": "Raging Goblin", "controller": "A"}]})
    t.act(1, {"type": "ActivateAbility", "data": {"source_id": t.h["bola"], "ability_index": 0}})
    t.act(1, PASS)
    t.act(0, PASS)
    print("602.2b: the Bola is attached to", t.game.object(t.h["bola"])["attached_to"])
    try:
        t.act(1, {"type": "ActivateAbility", "data": {"source_id": t.h["bears"],
                                                      "ability_index": 0}})
    except ValueError as exc:
        print("  the granted ability:", exc)


DEVIATIONS: dict[str, Callable[[], None]] = {
    "mind-rot": mind_rot, "no-attackers": no_attackers, "cleanup": cleanup, "wrath": wrath,
    "worlds": worlds, "circle": circle, "plow-under": plow_under, "leonin-bola": leonin_bola,
}


def main(argv: list[str] | None = None) -> int:
    chosen = (argv if argv is not None else sys.argv[1:]) or list(DEVIATIONS)
    for name in chosen:
        if name not in DEVIATIONS:
            print(f"unknown: {name} (one of {', '.join(DEVIATIONS)})", file=sys.stderr)
            return 2
        print(f"== {name}")
        DEVIATIONS[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
