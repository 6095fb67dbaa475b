"""Mutants of the game rules: starting the game, winning and losing, the golden rules,
numbers and symbols (cr2004 100-104 and their modern counterparts)."""

from __future__ import annotations

import functools
from collections.abc import Generator

from reference_engine import combat, decks, legality, mana
from reference_engine.actions import Action
from reference_engine.cards import choices, common, core
from reference_engine.constants import BATTLEFIELD, HAND, PERMANENT_TYPES
from reference_engine.editions import Game2004
from reference_engine.game import Game
from reference_engine.mana import cost_of
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.objects import Decision
from reference_engine.setup import _Builder


def _fresh_payment_memo(p: Patcher) -> None:
    """A mutant of the mana checks gets a memo of payment plans of its own: the unmutated
    engine's answers (mana._plan is memoised, and a mutant's process is forked from one that
    ran the cases unmutated) would otherwise hide the mutation from every cast paid from
    named sources."""
    p.set(mana, "_plan", functools.lru_cache(maxsize=8192)(mana._plan.__wrapped__))


# -- 100: general (deck rules, conceding) -------------------------------------------------------


@mutant("deck-size-unchecked", "cr2004:100.2 cr2004:100.3",
        "No minimum deck size: a constructed deck of 59 cards (a limited one of 39) is legal.")
def _deck_size_unchecked(p: Patcher) -> None:
    p.source(decks.deck_problems, ("if len(cards) < minimum:", "if False:"))


@mutant("limited-minimum-unchecked", "cr2004:100.3",
        "A limited deck has no minimum size: a limited deck of 39 cards is legal.")
def _limited_unchecked(p: Patcher) -> None:
    p.source(decks.deck_problems, ("if len(cards) < minimum:",
                                   'if fmt == "constructed" and len(cards) < minimum:'))


@mutant("only-first-deck-checked", "cr2004:100.2 cr2004:100.3",
        "Only player A's deck is checked against the format; B may bring any deck.")
def _first_deck(p: Patcher) -> None:
    p.source(_Builder.seeded_start, (
        "problems = deck_problems(names, fmt or \"limited\", self.edition, ante=ante)",
        "problems = deck_problems(names, fmt or \"limited\", self.edition, ante=ante) "
        "if name == \"A\" or fmt is None else []"))


@mutant("copy-limit-unchecked", "cr2004:100.2",
        "No four-copy limit in constructed: five Lightning Bolts are legal.")
def _copies_unchecked(p: Patcher) -> None:
    p.source(decks.deck_problems, ('if fmt == "constructed" and count > MAX_COPIES and not basic:',
                                   "if False:"))


@mutant("deck-size-capped", "cr2004:100.4",
        "Decks have a maximum size: a deck of more than 250 cards is refused.")
def _deck_capped(p: Patcher) -> None:
    p.source(decks.deck_problems, (
        "if len(cards) < minimum:",
        "if len(cards) > 250:\n        problems.append(f\"{len(cards)} cards: at most 250\")\n"
        "    if len(cards) < minimum:"))


# -- 101: starting the game ---------------------------------------------------------------------


@mutant("decks-not-shuffled", "cr2004:101.1 modern:103.3",
        "The decks are not shuffled before the game: each library keeps the order the deck was "
        "given in.")
def _no_shuffle(p: Patcher) -> None:
    p.source(_Builder.seeded_start, ("game.shuffle(name)",
                                     "game.players[name].library.reverse()"))


@mutant("decks-swapped", "cr2004:101.1 modern:401.1",
        "Each player's deck becomes the opponent's library (the seats mixed up).")
def _swapped(p: Patcher) -> None:
    p.source(_Builder.seeded_start, (
        "player.library.extend(self.objects(decks[name], deck, _CARD_KEYS, name, LIBRARY))",
        "game.players[other(name)].library.extend(self.objects(decks[name], deck, _CARD_KEYS, "
        "other(name), LIBRARY))"))


@mutant("start-life-25", "cr2004:101.3 modern:103.4",
        "Players start the game at 25 life instead of 20.")
def _start_life(p: Patcher) -> None:
    original = Game._start_of_game

    def _start_of_game(self: Game) -> Generator[Decision, Action, None]:
        for player in self.players.values():
            player.life = 25
        yield from original(self)

    p.set(Game, "_start_of_game", _start_of_game)


@mutant("opening-hand-six", "cr2004:101.3 modern:402.1",
        "The opening hand has six cards.")
def _opening_hand(p: Patcher) -> None:
    p.source(Game._start_of_game, ("self.draw(name, 7)", "self.draw(name, 6)"))


@mutant("first-player-draws", "cr2004:101.5",
        "The player who goes first draws in their first draw step.")
def _first_draw(p: Patcher) -> None:
    p.source(Game._next_step, ("if step == UPKEEP and self.turn == 1:", "if False:"))


@mutant("first-draw-step-without-a-draw", "cr2004:101.5",
        "The player who goes first has a draw step in turn 1, with priority, but draws no card "
        "in it.")
def _first_draw_step(p: Patcher) -> None:
    p.source(Game._next_step, ("if step == UPKEEP and self.turn == 1:", "if False:"))
    p.source(Game._turn_based_actions, ("self.draw(self.active, 1)",
                                        "self.draw(self.active, 1 if self.turn > 1 else 0)"))


@mutant("both-skip-first-draw", "cr2004:101.5",
        "Both players skip the draw of their first turn (turns 1 and 2).")
def _both_skip(p: Patcher) -> None:
    p.source(Game._next_step, ("self.turn == 1:", "self.turn <= 2:"))


@mutant("mulligan-no-fewer", "cr2004:101.4",
        "A 2004 mulligan draws as many cards as the hand had (no card fewer).")
def _mulligan_same(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("size = len(player.hand) - 1", "size = len(player.hand)"))


@mutant("mulligan-off-by-one", "cr2004:101.4",
        "A 2004 mulligan draws 7 minus the mulligans taken before this one (7, 6, 5, ...).")
def _mulligan_off(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("size = len(player.hand) - 1", "size = 7 - player.mulligans"))


@mutant("mulligan-seat-order", "cr2004:101.4",
        "Player A makes the mulligan decisions first, whoever starts the game.")
def _mulligan_seats(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("for name in self._turn_order():", "for name in PLAYERS:"))


@mutant("mulligan-kept-hand-not-final", "cr2004:101.4",
        "Mulligans go in rounds until nobody mulligans, and a player who kept is asked again.")
def _mulligan_rounds(p: Patcher) -> None:
    original = Game2004._mulligans

    def _mulligans(self: Game2004) -> Generator[Decision, Action, None]:
        while True:
            before = [player.mulligans for player in self.players.values()]
            yield from original(self)
            if [player.mulligans for player in self.players.values()] == before:
                return

    p.set(Game2004, "_mulligans", _mulligans)


@mutant("mulligan-stops-at-one", "cr2004:101.4",
        "A 2004 mulligan is not offered once the hand has one card (not down to zero).")
def _mulligan_floor(p: Patcher) -> None:
    p.source(Game2004._mulligans, ("while player.hand:", "while len(player.hand) > 1:"))


# -- 102: winning and losing ------------------------------------------------------------------


@mutant("zero-life-survives", "cr2004:102.1 cr2004:420.5a modern:704.5a",
        "A player loses only below 0 life, not at exactly 0.")
def _zero_life(p: Patcher) -> None:
    p.source(Game._sba_found, ("if p.life <= 0", "if p.life < 0"))


@mutant("draw-from-empty-ignored", "cr2004:102.2 cr2004:420.5g modern:704.5b",
        "Drawing from an empty library does nothing: the player does not lose.")
def _empty_draw(p: Patcher) -> None:
    p.source(Game.draw, ("player.drew_from_empty = True", "pass"))


@mutant("short-draw-draws-nothing", "cr2004:102.2",
        "Told to draw more cards than the library holds, a player draws none (and loses).")
def _short_draw(p: Patcher) -> None:
    p.source(Game.draw, ("for _ in range(count):",
                         "if len(player.library) < count:\n"
                         "        player.drew_from_empty = True\n"
                         "        count = 0\n"
                         "    for _ in range(count):"))


@mutant("poison-needs-eleven", "cr2004:102.8 cr2004:420.5h modern:704.5c",
        "A player loses with more than ten poison counters, not with ten.")
def _poison(p: Patcher) -> None:
    p.source(Game._sba_found, ("p.poison >= 10", "p.poison > 10"))


@mutant("both-lose-first-loses", "cr2004:102.4 cr2004:420.3 modern:704.3",
        "When both players would lose at once, only the first one checked loses.")
def _both_lose(p: Patcher) -> None:
    p.source(Game._perform_sbas, (
        'self._end_game(losers, reasons[0] if len(set(reasons)) == 1 else "simultaneous")',
        "self._end_game(losers[:1], reasons[0])"))


@mutant("concede-as-zero-life", "cr2004:102.7 cr2004:102.3 cr2004:100.6 modern:405.6g",
        "Conceding sets the player's life to 0: the game ends only at the next check.")
def _concede_life(p: Patcher) -> None:
    def _concede(self: Game, name: str) -> None:
        self.players[name].life = 0
        self.changed()

    p.set(Game, "_concede", _concede)


@mutant("concede-needs-priority", "cr2004:102.7 cr2004:100.6 modern:405.6g",
        "Only the player who holds priority (or must decide) may concede.")
def _concede_priority(p: Patcher) -> None:
    p.source(Game.legal_actions,
             ("+ self._concede_actions", '+ [Action("concede", decision.player)]'), count=2)
    p.source(Game.refusal, ('if action.kind == "concede":',
                            'if action.kind == "concede" and decision is not None and '
                            'action.player == decision.player:'))


@mutant("loop-not-a-draw", "cr2004:102.6 modern:104.4b",
        "A loop of mandatory actions is not detected: the game goes on forever.")
def _loop_forever(p: Patcher) -> None:
    p.source(Game._check_loop, ('self._draw_game("loop")', "pass"))


@mutant("loop-with-choice-is-a-draw", "cr2004:102.6 modern:104.4b",
        "A loop is a draw even when a player chooses, each time round, to go on with it.")
def _loop_choice(p: Patcher) -> None:
    p.source(Game._check_loop, ("if self._optional_choice:", "if False:"))


# -- 103: the golden rules ---------------------------------------------------------------------


@mutant("hand-size-ignores-card-text", "cr2004:103.1",
        "The cleanup step discards down to the printed maximum hand size, ignoring Spellbook.")
def _hand_size_text(p: Patcher) -> None:
    p.source(Game._cleanup, ('maximum = self.player_rules(self.active)["max_hand_size"]',
                             "maximum = self.players[self.active].max_hand_size"))


@mutant("instant-timing-text-ignored", "cr2004:103.1",
        "A card's \"you may play it any time you could play an instant\" (Raging Kavu) is "
        "ignored: creature cards are played only as sorceries.")
def _flash_ignored(p: Patcher) -> None:
    p.source(legality.cast_speed, ('"Instant" in types or "flash" in chars.keywords:',
                               '"Instant" in types:'))


@mutant("extra-land-plays-ignored", "cr2004:103.1 cr2004:212.6b",
        "A player may play one land a turn whatever effects (Exploration) say.")
def _extra_lands(p: Patcher) -> None:
    p.source(Game.land_play_refusal, ('lands_played >= rules["land_plays"]', "lands_played >= 1"))


@mutant("extra-play-beats-cant", "cr2004:103.2 cr2004:212.6b",
        "An effect granting extra land plays overrides a \"can't play lands\" effect.")
def _cant_can(p: Patcher) -> None:
    p.source(Game.land_play_refusal, ('if rules["cant_play_lands"]:',
                                      'if rules["cant_play_lands"] and rules["land_plays"] <= 1:'))


@mutant("short-discard-skipped", "cr2004:103.3",
        "Told to discard more cards than the hand holds, a player discards none.")
def _short_discard(p: Patcher) -> None:
    p.source(Game.discard, ("for obj in list(player.hand):", "for obj in []:"))


@mutant("apnap-seat-order", "cr2004:103.4",
        "Simultaneous choices (Innocent Blood) are made by A then B, not active player first.")
def _apnap_seats(p: Patcher) -> None:
    p.source(choices._innocent_blood, ("for name in game.apnap_order():",
                                       'for name in ("A", "B"):'))


@mutant("apnap-act-before-all-choose", "cr2004:103.4",
        "Each player sacrifices as they choose, before the other player has chosen.")
def _apnap_early(p: Patcher) -> None:
    p.source(choices._innocent_blood, ("chosen.append(game.objects[pick])",
                                       "game.sacrifice(game.objects[pick], name)"))


# -- 104: numbers and symbols -------------------------------------------------------------------


@mutant("divided-damage-rounds-up", "cr2004:104.1",
        "Fireball's damage divided among its targets is rounded up, not down.")
def _round_up(p: Patcher) -> None:
    p.source(core._fireball, ("share = (item.x or 0) // len(item.targets)",
                              "share = -(-(item.x or 0) // len(item.targets))"))


@mutant("negative-damage-heals", "cr2004:104.2",
        "Negative power is dealt as negative damage (the player gains life).")
def _negative_damage(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage,
             ("power = max(0, chars(attacker).power or 0)", "power = chars(attacker).power or 0"))
    p.source(Game.deal_damage, ("amount = max(0, amount)", "amount = amount"))


@mutant("negative-power-floored-early", "cr2004:104.2",
        "Power is floored at 0 after each modification, so a later +3 counts from 0.")
def _negative_floor(p: Patcher) -> None:
    p.source(common.modify_pt, ("chars.power += power",
                                "chars.power = max(0, chars.power + power)"))


@mutant("coloured-cost-any-colour", "cr2004:104.3a",
        "Coloured mana symbols are checked only as an amount: any colour pays {G}.")
def _colour_any(p: Patcher) -> None:
    _fresh_payment_memo(p)
    p.source(mana.can_pay, ("if (pool[0] < c[0]", "if False and (pool[0] < c[0]"))
    p.source(mana.max_x, ("if (pool[0] < c[0]", "if False and (pool[0] < c[0]"))


@mutant("generic-needs-colourless", "cr2004:104.3b",
        "Generic mana ({1}) can be paid only with colourless mana.")
def _generic_colourless(p: Patcher) -> None:
    _fresh_payment_memo(p)
    p.source(mana.can_pay, ("return sum(pool) - sum(cost.colored) >=",
                            "return pool[5] - cost.colored[5] >="))
    p.source(mana.max_x, ("spare = sum(pool) - sum(cost.colored) - cost.generic",
                          "spare = pool[5] - cost.colored[5] - cost.generic"))
    p.source(mana.default_payment, ("for slot in GENERIC_ORDER:", "for slot in (5,):"))


@mutant("colourless-cannot-pay-generic", "cr2004:104.3b cr2004:104.3d",
        "Colourless mana (Mind Stone's) can't pay generic costs; only coloured mana can.")
def _colourless_generic(p: Patcher) -> None:
    _fresh_payment_memo(p)
    p.source(mana.can_pay, ("return sum(pool) - sum(cost.colored) >=",
                            "return sum(pool[:5]) - sum(cost.colored[:5]) >="))
    p.source(mana.max_x, ("spare = sum(pool) - sum(cost.colored) - cost.generic",
                          "spare = sum(pool[:5]) - sum(cost.colored[:5]) - cost.generic"))
    p.source(mana.default_payment, ("for slot in GENERIC_ORDER:",
                                    "for slot in GENERIC_ORDER[1:]:"))


@mutant("x-not-paid", "cr2004:104.3c",
        "The value chosen for X is used by the effect but not added to the cost paid.")
def _x_free(p: Patcher) -> None:
    _fresh_payment_memo(p)
    p.source(mana.can_pay, ("cost.generic + cost.x * x", "cost.generic"))
    p.source(mana.default_payment, ("generic = cost.generic + cost.x * x",
                                    "generic = cost.generic"))
    p.source(mana.check_payment, ("due = total_due(cost, x)", "due = total_due(cost, 0)"))


@mutant("zero-cost-skips-stack", "cr2004:104.3e",
        "A permanent spell costing {0} goes straight onto the battlefield, without the stack.")
def _free_spell(p: Patcher) -> None:
    original = Game._cast

    def _cast(self: Game, action: Action) -> Generator[Decision, Action, None]:
        assert action.card is not None  # a cast names its card
        obj = self.objects[action.card]
        if obj.zone == HAND and cost_of(obj.card.cost).is_free and (
                PERMANENT_TYPES & set(obj.card.types)):
            self.move(obj, BATTLEFIELD, controller=action.player, cause="cast")
            return
        yield from original(self, action)

    p.set(Game, "_cast", _cast)
