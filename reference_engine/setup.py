"""Build a game from a protocol setup (docs/protocol.md): a seeded start or a given state.

Errors name the field: ``setup.players.A.hand[2]: ...``. A card the engine does not know, or
that does not exist in the edition, is :class:`UnsupportedError`; a malformed setup is
:class:`BadRequestError`.
"""

from __future__ import annotations

from typing import Any

from reference_engine.constants import (
    BATTLEFIELD,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    NO_PRIORITY_STEPS,
    OUTSIDE,
    PERMANENT_TYPES,
    PLAYERS,
    STEP_BY_NAME,
    ZONE_BY_NAME,
    other,
)
from reference_engine.decks import FORMATS, deck_problems
from reference_engine.editions import EDITION_GAMES
from reference_engine.errors import BadRequestError, IllegalSetupError, UnsupportedError
from reference_engine.events import ZoneChange
from reference_engine.game import Game
from reference_engine.mana import pool_from_json
from reference_engine.objects import CardImpl, GameObject
from reference_engine.registry import implementation
from spec.cardpool import CardData, default_pool

_START_KEYS = {"start", "seed", "first_player", "decks", "sideboards", "ante", "format",
               "shuffle"}
_STATE_KEYS = {"seed", "turn", "players", "battlefield", "exile", "ante", "command",
               "phased_out", "first_player"}
_PLAYER_KEYS = {"life", "poison", "mana_pool", "lands_played", "max_hand_size", "hand",
                "library", "graveyard", "sideboard"}
_PERMANENT_KEYS = {"handle", "card", "controller", "owner", "tapped", "sick", "damage",
                   "counters", "attached_to", "token", "attacking", "blocking", "count"}
_CARD_KEYS = {"handle", "card", "count", "owner"}

#: per edition, the cards setups have named, with their data and behaviour, and the edition's
#: card data they were read from: every game names the same few dozen cards again
_PLAYABLE: dict[str, tuple[dict[str, CardData], dict[str, tuple[CardData, CardImpl]]]] = {}


def new_game(edition: object, setup: object) -> tuple[Game, dict[str, int]]:
    """Create and start a game; return it with the engine id of every setup handle."""
    game_class = EDITION_GAMES.get(edition) if isinstance(edition, str) else None
    if game_class is None:
        raise UnsupportedError(f"edition {edition!r} is not supported "
                               f"({', '.join(EDITION_GAMES)})")
    if not isinstance(setup, dict):
        raise BadRequestError("setup: must be an object")
    builder = _Builder(game_class, game_class.edition, setup)
    if setup.get("start") is not None:
        if setup["start"] != "game":
            raise BadRequestError(f"setup.start: {setup['start']!r} (only 'game' is known)")
        builder.seeded_start()
    else:
        builder.given_state()
    return builder.game, _current(builder.game, builder.handles)


def _current(game: Game, handles: dict[str, int]) -> dict[str, int]:
    """The handles as the game now stands: a card of a deck named by a handle may have been
    drawn into an opening hand (a new object) during the start of the game."""
    if not handles:
        return {}
    current = dict(handles)
    by_id = {oid: handle for handle, oid in handles.items()}
    for event in game.peek_events():
        if isinstance(event, ZoneChange) and event.object in by_id:
            handle = by_id.pop(event.object)
            current[handle] = event.new_object
            by_id[event.new_object] = handle
    return current


class _Builder:
    def __init__(self, game_class: type[Game], edition: str, setup: dict[str, Any]) -> None:
        seed = setup.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadRequestError(f"setup.seed: {seed!r} is not an integer")
        self.setup = setup
        self.edition = edition
        self.cards = default_pool().edition(edition)
        known = _PLAYABLE.get(edition)
        if known is None or known[0] is not self.cards:
            known = _PLAYABLE[edition] = (self.cards, {})
        self.playable = known[1]
        self.game = game_class(seed)
        self.handles: dict[str, int] = {}
        self.pending_links: list[tuple[str, GameObject, str, str]] = []

    # -- cards --------------------------------------------------------------------------------

    def card(self, name: object, where: str) -> tuple[CardData, CardImpl]:
        """A card's data and behaviour in the edition."""
        if not isinstance(name, str):
            raise BadRequestError(f"{where}: a card must be named by a string, got {name!r}")
        found = self.playable.get(name)
        if found is None:
            data = self.cards.get(name)
            impl = implementation(name, self.edition) if data is not None else None
            if data is None or impl is None:
                raise UnsupportedError(
                    f"{where}: card {name!r} is not supported in {self.edition}")
            found = self.playable[name] = (data, impl)
        return found

    def objects(self, value: object, where: str, keys: set[str], owner: str, zone: int
                ) -> list[GameObject]:
        """Make the objects of a zone list (see :meth:`entries`), in order."""
        if type(value) is list:
            # The usual list, names of cards named before: nothing in it can be wrong, so
            # neither its entries nor their places (for error messages) are worked out.
            playable = self.playable
            found = []
            for raw in value:
                known = playable.get(raw) if type(raw) is str else None
                if known is None:
                    break
                found.append(known)
            else:
                new_object = self.game.new_object
                return [new_object(data, impl, owner, zone) for data, impl in found]
        return [self.make(item, here, owner, zone)
                for item, here in self.entries(value, where, keys)]

    def entries(self, value: object, where: str, keys: set[str]
                ) -> list[tuple[dict[str, Any], str]]:
        """Expand a zone list: names, {card, count}, {handle, card, ...}."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise BadRequestError(f"{where}: must be a list of cards")
        out: list[tuple[dict[str, Any], str]] = []
        for index, raw in enumerate(value):
            here = f"{where}[{index}]"
            item = {"card": raw} if isinstance(raw, str) else raw
            if not isinstance(item, dict):
                raise BadRequestError(f"{here}: must be a card name or an object")
            extra = set(item) - keys
            if extra:
                raise BadRequestError(f"{here}: unknown field(s) {', '.join(sorted(extra))}")
            count = item.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise BadRequestError(f"{here}.count: must be a positive integer")
            if count > 1 and "handle" in item:
                raise BadRequestError(f"{here}: a handle names one card; drop count or handle")
            out.extend((item, here) for _ in range(count))
        return out

    def make(self, item: dict[str, Any], where: str, owner: str, zone: int) -> GameObject:
        data, impl = self.card(item.get("card"), f"{where}.card")
        owner = item.get("owner", owner)
        if owner not in PLAYERS:
            raise BadRequestError(f"{where}.owner: {owner!r} is not A or B")
        obj = self.game.new_object(data, impl, owner, zone)
        handle = item.get("handle")
        if handle is not None:
            if not isinstance(handle, str) or not handle:
                raise BadRequestError(f"{where}.handle: must be a non-empty string")
            if handle in self.handles:
                raise BadRequestError(f"{where}.handle: {handle!r} is used twice")
            self.handles[handle] = obj.id
        return obj

    # -- a seeded start -----------------------------------------------------------------------

    def seeded_start(self) -> None:
        setup, game = self.setup, self.game
        _no_extra(setup, _START_KEYS, "setup")
        decks = setup.get("decks")
        if not isinstance(decks, dict) or set(decks) != set(PLAYERS):
            raise BadRequestError("setup.decks: must give a deck for A and for B")
        for name in PLAYERS:
            player = game.players[name]
            deck, side = f"setup.decks.{name}", f"setup.sideboards.{name}"
            player.library.extend(self.objects(decks[name], deck, _CARD_KEYS, name, LIBRARY))
            sideboards = setup.get("sideboards") or {}
            player.sideboard.extend(
                self.objects(sideboards.get(name), side, _CARD_KEYS, name, OUTSIDE))
        ante = setup.get("ante", False)
        if not isinstance(ante, bool):
            raise BadRequestError("setup.ante: must be true or false")
        fmt = setup.get("format")
        if fmt is not None and fmt not in FORMATS:
            raise BadRequestError(f"setup.format: {fmt!r} is not constructed or limited")
        for name in PLAYERS:
            names = [o.card.name for o in game.players[name].library]
            problems = deck_problems(names, fmt or "limited", self.edition, ante=ante)
            if fmt is None:
                problems = [p for p in problems if "ante card" in p]
            if problems:
                raise IllegalSetupError(f"setup.decks.{name}: illegal deck: "
                                        f"{'; '.join(problems)}")
        _no_ante_cards(game, ante, "setup.sideboards")
        first = setup.get("first_player")
        if first is not None and first not in PLAYERS:
            raise BadRequestError(f"setup.first_player: {first!r} is not A or B")
        shuffle = setup.get("shuffle", True)
        if not isinstance(shuffle, bool):
            raise BadRequestError("setup.shuffle: must be true or false")
        for name in PLAYERS:
            if shuffle:
                game.shuffle(name)
            else:
                game.players[name].library.reverse()  # given top first; the top is kept last
        game.first_player = first if first is not None else game.rng.choice(PLAYERS)
        if ante:
            # Each player antes a card at random from their library (217.9b, 407.2).
            game.playing_for_ante = True
            for name in (game.first_player, other(game.first_player)):
                library = game.players[name].library
                if library:
                    game.ante_object(library[game.rng.randrange(len(library))])
        game.active = game.first_player
        game.turn = 1
        game.start(begin_game=True)

    # -- a given state ------------------------------------------------------------------------

    def given_state(self) -> None:
        setup, game = self.setup, self.game
        _no_extra(setup, _STATE_KEYS, "setup")
        turn = setup.get("turn") or {}
        if not isinstance(turn, dict):
            raise BadRequestError("setup.turn: must be an object")
        _no_extra(turn, {"number", "active", "step"}, "setup.turn")
        number = turn.get("number", 1)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise BadRequestError("setup.turn.number: must be a positive integer")
        active = turn.get("active", "A")
        if active not in PLAYERS:
            raise BadRequestError(f"setup.turn.active: {active!r} is not A or B")
        step_name = turn.get("step", "precombat_main")
        step = STEP_BY_NAME.get(step_name) if isinstance(step_name, str) else None
        if step is None or step in NO_PRIORITY_STEPS:
            raise BadRequestError(
                f"setup.turn.step: {step_name!r} is not a step in which players get priority"
            )
        game.turn, game.active, game.step = number, active, step
        game.normal_next = other(active)
        first = setup.get("first_player", active if number % 2 else other(active))
        if first not in PLAYERS:
            raise BadRequestError(f"setup.first_player: {first!r} is not A or B")
        game.first_player = first
        game.players[active].last_turn = number
        game.players[other(active)].last_turn = number - 1
        players = setup.get("players") or {}
        if not isinstance(players, dict) or set(players) - set(PLAYERS):
            raise BadRequestError("setup.players: must map A and/or B to a player state")
        for name in PLAYERS:
            self.player_state(name, players.get(name) or {})
        for item, where in self.entries(setup.get("battlefield"), "setup.battlefield",
                                        _PERMANENT_KEYS):
            self.permanent(item, where)
        game.playing_for_ante = bool(setup.get("ante"))
        _no_ante_cards(game, game.playing_for_ante, "setup.players")
        for zone_name in ("exile", "ante", "command", "phased_out"):
            value = setup.get(zone_name)
            if value is None:
                continue
            if zone_name != "exile" and zone_name not in game.zones_extra:
                raise BadRequestError(f"setup.{zone_name}: the {self.edition} edition has no "
                                      f"{zone_name} zone")
            zone = EXILE if zone_name == "exile" else ZONE_BY_NAME[zone_name]
            target = game.exile if zone_name == "exile" else game.zones_extra[zone_name]
            for item, where in self.entries(value, f"setup.{zone_name}", _CARD_KEYS):
                target.append(self.make(item, where, item.get("owner", "A"), zone))
        self.link()
        self.base_controllers()
        game.start(begin_game=False)

    def player_state(self, name: str, state: object) -> None:
        where = f"setup.players.{name}"
        if not isinstance(state, dict):
            raise BadRequestError(f"{where}: must be an object")
        _no_extra(state, _PLAYER_KEYS, where)
        player = self.game.players[name]
        for key in ("life", "poison", "lands_played"):
            if key in state:
                value = state[key]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise BadRequestError(f"{where}.{key}: must be an integer")
                if key != "life" and value < 0:
                    raise BadRequestError(f"{where}.{key}: must not be negative")
                setattr(player, key, value)
        if "max_hand_size" in state:
            size = state["max_hand_size"]
            if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
                raise BadRequestError(f"{where}.max_hand_size: an integer or null")
            player.max_hand_size = size
        if "mana_pool" in state:
            try:
                player.pool = pool_from_json(state["mana_pool"] or {})
            except (ValueError, AttributeError) as exc:
                raise BadRequestError(f"{where}.mana_pool: {exc}") from None
        for key, zone in (("hand", HAND), ("library", LIBRARY), ("graveyard", GRAVEYARD)):
            objects = self.objects(state.get(key), f"{where}.{key}", _CARD_KEYS - {"owner"},
                                   name, zone)
            if zone != HAND:
                objects.reverse()  # given top first; kept with the top at the end
            getattr(player, key).extend(objects)
        player.sideboard.extend(self.objects(state.get("sideboard"), f"{where}.sideboard",
                                             _CARD_KEYS - {"owner"}, name, OUTSIDE))

    def permanent(self, item: dict[str, Any], where: str) -> None:
        game = self.game
        controller = item.get("controller", item.get("owner", "A"))
        if controller not in PLAYERS:
            raise BadRequestError(f"{where}.controller: {controller!r} is not A or B")
        obj = self.make(item, where, item.get("owner", controller), BATTLEFIELD)
        if not PERMANENT_TYPES & set(obj.card.types):
            raise BadRequestError(f"{where}: {obj.card.name} is not a permanent card")
        obj.controller = controller
        for key in ("tapped", "token", "attacking"):
            value = item.get(key, False)
            if not isinstance(value, bool):
                raise BadRequestError(f"{where}.{key}: must be true or false")
            setattr(obj, key, value)
        sick = item.get("sick", False)
        if not isinstance(sick, bool):
            raise BadRequestError(f"{where}.sick: must be true or false")
        obj.controlled_since = game.turn if sick else -1
        damage = item.get("damage", 0)
        if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
            raise BadRequestError(f"{where}.damage: must be a whole number")
        obj.damage = damage
        counters = item.get("counters") or {}
        if not isinstance(counters, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in counters.items()
        ):
            raise BadRequestError(f"{where}.counters: must map counter names to counts")
        obj.counters = {k: v for k, v in counters.items() if v}
        for key in ("attached_to", "blocking"):
            if item.get(key) is not None:
                self.pending_links.append((key, obj, item[key], f"{where}.{key}"))
        game.battlefield.append(obj)

    def base_controllers(self) -> None:
        """A given permanent controlled by a player who does not own it is that player's by
        default, as one put onto the battlefield under their control is (2004 200.6a; modern
        110.2), unless the given state's control effects give it to them (Control Magic on
        it): then it goes back to its owner when they end."""
        game = self.game
        effects = game.control_effects()
        for obj in game.battlefield:
            if obj.controller == obj.owner:
                continue
            if game.controller_under(effects, obj, obj.owner) != obj.controller:
                obj.base_controller = obj.controller

    def link(self) -> None:
        for key, obj, handle, where in self.pending_links:
            target = self.handles.get(handle)
            if target is None:
                raise BadRequestError(f"{where}: no object has the handle {handle!r}")
            if key == "attached_to":
                obj.attached_to = target
            else:
                attacker = self.game.objects[target]
                if not attacker.attacking:
                    raise BadRequestError(f"{where}: {handle!r} is not attacking")
                obj.blocking = target
                attacker.blocked = True
                order = self.game.block_order.get(target, ())
                self.game.block_order[target] = (*order, obj.id)


def _no_ante_cards(game: Game, ante: bool, where: str) -> None:
    """Not playing for ante, an ante card may be neither in a deck nor in a sideboard (modern
    407.3; the 2004 seed is silent on sideboards, and the modern rule is followed)."""
    if ante:
        return
    for name in PLAYERS:
        for obj in game.players[name].sideboard:
            if obj.impl.ante_card:
                raise IllegalSetupError(f"{where}: {name}'s sideboard holds {obj.card.name}, an "
                                        "ante card: only in games played for ante (407.3)")


def _no_extra(value: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = set(value) - allowed
    if extra:
        raise BadRequestError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
