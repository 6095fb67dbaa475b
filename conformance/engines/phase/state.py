"""Setting up phase-python games: seeded starts and given states.

phase-python starts games only from decks (``Engine.new_game``), and resumes them from an
exported state (``Game.state()`` -> ``Engine.load_game``): that round trip is its supported way
to set a game up (its own tests and its WASM host edit states this way). A given state is made
so: a game is started with every card of the setup in its owner's deck (the engine creates the
card objects, with their parsed abilities), then the exported state is edited, before any turn
has begun, to put each object in its zone, set turn, step, active player, priority, life,
poison and the permanents' status, and is loaded back. Nothing is played by the adapter.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

PLAYERS = ("A", "B")
SEAT = {"A": 0, "B": 1}

#: protocol step -> phase-python's phase name
PHASE_OF_STEP = {
    "untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "precombat_main": "PreCombatMain",
    "beginning_of_combat": "BeginCombat", "declare_attackers": "DeclareAttackers",
    "declare_blockers": "DeclareBlockers", "combat_damage": "CombatDamage",
    "end_of_combat": "EndCombat", "postcombat_main": "PostCombatMain", "end": "End",
    "cleanup": "Cleanup",
}
_STEP_ORDER = list(PHASE_OF_STEP.values())
PRIORITY_STEPS = {"upkeep", "draw", "precombat_main", "beginning_of_combat",
                  "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat",
                  "postcombat_main", "end"}
_COUNTER_KINDS = {"+1/+1": "P1P1", "-1/-1": "M1M1"}


class SetupError(Exception):
    """A setup this adapter cannot build (the message says why)."""

    def __init__(self, message: str, kind: str = "bad_request") -> None:
        super().__init__(message)
        self.kind = kind


def expand(entries: Any, where: str) -> list[dict[str, Any]]:
    """A zone's or deck's entries as one dict per card (``count`` expanded)."""
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise SetupError(f"{where}: must be a list")
    out: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        item = {"card": entry} if isinstance(entry, str) else entry
        if not isinstance(item, dict) or not isinstance(item.get("card"), str):
            raise SetupError(f"{where}[{index}]: a card name or an object with card")
        count = item.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise SetupError(f"{where}[{index}].count: must be a positive integer")
        for _ in range(count):
            one = {k: v for k, v in item.items() if k != "count"}
            out.append(one)
    return out


class _Objects:
    """The card objects phase created for each owner, handed out by name."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.free: dict[tuple[int, str], list[str]] = defaultdict(list)
        for key in sorted(state["objects"], key=int):
            obj = state["objects"][key]
            self.free[(obj["owner"], obj["name"])].append(key)

    def take(self, seat: int, name: str) -> str:
        keys = self.free.get((seat, name))
        if not keys:
            raise SetupError(f"the engine created no {name} for seat {seat}", "engine_error")
        return keys.pop(0)


def given_state(engine: Any, setup: dict[str, Any]) -> tuple[Any, dict[str, int]]:
    """Start a game and edit its state into ``setup`` (a protocol given state).

    Returns the game and the id of every handled object.
    """
    turn = setup.get("turn") or {}
    number = turn.get("number", 1)
    active = turn.get("active", "A")
    step = turn.get("step", "precombat_main")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise SetupError("setup.turn.number: must be a positive integer")
    if active not in PLAYERS:
        raise SetupError(f"setup.turn.active: {active!r} is not A or B")
    if step not in PRIORITY_STEPS:
        raise SetupError(f"setup.turn.step: {step!r} is not a step in which players get "
                         "priority")
    first = setup.get("first_player", active if number % 2 else _other(active))
    if first not in PLAYERS:
        raise SetupError(f"setup.first_player: {first!r} is not A or B")
    players = setup.get("players") or {}
    for key in ("ante", "command", "phased_out"):
        if setup.get(key):
            raise SetupError(f"setup.{key}: not supported", "unsupported")
    if setup.get("mana_pool") is not None:
        raise SetupError("setup.mana_pool: not supported", "unsupported")

    # Where each card goes: (owner, zone, entry).
    placed: list[tuple[str, str, dict[str, Any]]] = []
    for name in PLAYERS:
        state = players.get(name) or {}
        for key in ("mana_pool", "sideboard"):
            if state.get(key):
                raise SetupError(f"setup.players.{name}.{key}: not supported", "unsupported")
        for zone in ("hand", "library", "graveyard"):
            for item in expand(state.get(zone), f"setup.players.{name}.{zone}"):
                placed.append((name, zone, item))
    for item in expand(setup.get("battlefield"), "setup.battlefield"):
        controller = item.get("controller", item.get("owner", "A"))
        owner = item.get("owner", controller)
        if item.get("attacking") or item.get("blocking"):
            raise SetupError("setup.battlefield: attacking and blocking creatures are not "
                             "supported", "unsupported")
        placed.append((owner, "battlefield", item))
    for item in expand(setup.get("exile"), "setup.exile"):
        placed.append((item.get("owner", "A"), "exile", item))
    for owner, _, _ in placed:
        if owner not in PLAYERS:
            raise SetupError(f"setup: owner {owner!r} is not A or B")

    decks: dict[str, list[str]] = {p: [] for p in PLAYERS}
    for owner, _, item in placed:
        decks[owner].append(item["card"])
    # The engine refuses a seat with an empty deck: such a seat gets one card, removed below.
    filler = {p: not decks[p] for p in PLAYERS}
    for p in PLAYERS:
        if filler[p]:
            decks[p].append("Plains")
    game = engine.new_game(player=decks["A"], opponent=decks["B"],
                           seed=int(setup.get("seed", 0)) % (1 << 63), first_player=SEAT[first])
    exported = game.state()
    state = exported["state"]
    objects = _Objects(state)
    handles: dict[str, int] = {}
    hands: dict[str, list[int]] = {p: [] for p in PLAYERS}
    libraries: dict[str, list[int]] = {p: [] for p in PLAYERS}
    graveyards: dict[str, list[int]] = {p: [] for p in PLAYERS}
    battlefield: list[int] = []
    exile: list[int] = []
    timestamp = int(state.get("next_timestamp", 1))
    by_handle: dict[str, dict[str, Any]] = {}
    links: list[tuple[dict[str, Any], str]] = []
    for owner, zone, item in placed:
        key = objects.take(SEAT[owner], item["card"])
        obj = state["objects"][key]
        oid = obj["id"]
        if "handle" in item:
            handles[item["handle"]] = oid
            by_handle[item["handle"]] = obj
        obj["zone"] = {"hand": "Hand", "library": "Library", "graveyard": "Graveyard",
                       "battlefield": "Battlefield", "exile": "Exile"}[zone]
        if zone == "hand":
            hands[owner].append(oid)
        elif zone == "library":
            libraries[owner].append(oid)
        elif zone == "graveyard":
            graveyards[owner].append(oid)
        elif zone == "exile":
            exile.append(oid)
        else:
            controller = item.get("controller", owner)
            obj["controller"] = SEAT[controller]
            obj["base_controller"] = SEAT[controller]
            obj["tapped"] = bool(item.get("tapped", False))
            sick = bool(item.get("sick", False))
            obj["entered_battlefield_turn"] = number if sick else max(number - 1, 0)
            obj["has_summoning_sickness"] = sick
            obj["summoning_sick"] = sick
            obj["damage_marked"] = int(item.get("damage", 0))
            counters = item.get("counters") or {}
            obj["counters"] = {_COUNTER_KINDS.get(k, k): v for k, v in counters.items() if v}
            obj["timestamp"] = timestamp
            if item.get("token"):
                obj["is_token"] = True  # the engine's own token flag: it ceases to exist
            timestamp += 1
            if item.get("attached_to") is not None:
                links.append((obj, item["attached_to"]))
            battlefield.append(oid)
    for obj, target in links:
        other = by_handle.get(target)
        if other is None:
            raise SetupError(f"setup.battlefield: no object has the handle {target!r}")
        obj["attached_to"] = {"type": "Object", "data": other["id"]}
        other.setdefault("attachments", []).append(obj["id"])
    state["next_timestamp"] = timestamp
    for p in PLAYERS:
        if filler[p]:
            for key in objects.free.get((SEAT[p], "Plains"), [])[:1]:
                del state["objects"][key]

    for name in PLAYERS:
        seat = SEAT[name]
        player = state["players"][seat]
        given = players.get(name) or {}
        player["hand"] = hands[name]
        player["library"] = libraries[name]
        # phase keeps a graveyard bottom first (a card put there is appended)
        player["graveyard"] = list(reversed(graveyards[name]))
        player["life"] = int(given.get("life", 20))
        player["poison_counters"] = int(given.get("poison", 0))
        player["lands_played_this_turn"] = int(given.get("lands_played", 0))
        player["has_drawn_this_turn"] = False
        player["cards_drawn_this_turn"] = 0
        player["cards_drawn_this_step"] = 0
        player["turns_taken"] = (number + 1) // 2 if name == first else number // 2
        player["mana_pool"] = {"mana": []}
    state["battlefield"] = battlefield
    state["exile"] = exile
    state["turn_number"] = number
    state["active_player"] = SEAT[active]
    state["priority_player"] = SEAT[active]
    state["current_starting_player"] = SEAT[first]
    state["phase"] = PHASE_OF_STEP[step]
    state["waiting_for"] = {"type": "Priority", "data": {"player": SEAT[active]}}
    state["priority_passes"] = []
    state["priority_pass_count"] = 0
    state["lands_played_this_turn"] = int((players.get(active) or {}).get("lands_played", 0))
    stop = _STEP_ORDER.index(PHASE_OF_STEP[step])
    state["steps_started_this_turn"] = {name: 1 for name in _STEP_ORDER[1:stop + 1]
                                        if name != "Draw" or number != 1}
    state["zone_changes_this_turn"] = []
    state["zone_change_library_knowledge_stamps"] = []
    if "max_hand_size" in (players.get("A") or {}) or "max_hand_size" in (players.get("B") or {}):
        raise SetupError("setup.players.max_hand_size: not supported", "unsupported")
    return engine.load_game(exported), handles


def deck_order(game: Any, engine: Any,
               cards: dict[str, list[dict[str, Any]]]) -> tuple[Any, dict[str, int]]:
    """A seeded start without shuffling (``shuffle: false``): each deck, top first, becomes
    its library, and the opening hand is its top seven cards. phase shuffles every new game,
    so the dealt game's state is edited before anything else happens: each player's cards are
    put back in the given order (copies of a card are alike, so a card already in the zone it
    must be in keeps its place there), then the state is loaded back. Returns the game and
    the ids of handled deck cards."""
    exported = game.state()
    state = exported["state"]
    handles: dict[str, int] = {}
    for name in PLAYERS:
        seat = SEAT[name]
        player = state["players"][seat]
        in_hand = list(player["hand"])
        in_library = list(player["library"])
        hand_size = len(in_hand)
        wanted = cards[name]
        zone_of = dict.fromkeys(in_hand, "Hand") | dict.fromkeys(in_library, "Library")
        free: dict[tuple[str, str], list[int]] = defaultdict(list)
        for oid in [*in_hand, *in_library]:
            free[(state["objects"][str(oid)]["name"], zone_of[oid])].append(oid)
        order: list[int] = []
        for index, item in enumerate(wanted):
            zone = "Hand" if index < hand_size else "Library"
            other = "Library" if zone == "Hand" else "Hand"
            pool = free[(item["card"], zone)] or free[(item["card"], other)]
            if not pool:
                raise SetupError(f"the engine dealt no {item['card']} to {name}", "engine_error")
            oid = pool.pop(0)
            if zone_of[oid] != zone:
                obj = state["objects"][str(oid)]
                obj["zone"] = zone
                if zone == "Hand":
                    obj["incarnation"] = 1
                else:
                    obj.pop("incarnation", None)
            order.append(oid)
            if "handle" in item:
                handles[item["handle"]] = oid
        player["hand"] = order[:hand_size]
        player["library"] = order[hand_size:]
    state["zone_change_library_knowledge_stamps"] = []
    return engine.load_game(exported), handles


def _other(player: str) -> str:
    return "B" if player == "A" else "A"
