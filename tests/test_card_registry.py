"""The card registry (reference_engine.registry) and the checks each card passes as it is
defined (reference_engine.cardimpl.Cards): a badly formed card fails when its module is
imported, with an error naming it, not when a game first uses it."""

from __future__ import annotations

from types import ModuleType

import pytest

from reference_engine.cardimpl import CardDefinitionError, Cards
from reference_engine.cards import MODULES
from reference_engine.constants import DRAW
from reference_engine.mana import parse_cost
from reference_engine.objects import (
    ABILITY,
    PT_MODIFY,
    AbilitySpec,
    CardImpl,
    SpellSpec,
    StaticSpec,
    TargetSpec,
    TriggerSpec,
)
from reference_engine.registry import REGISTRY, build_registry, implementation, implemented
from spec.cardpool import default_pool


def _effect(game, item):
    return None


def _condition(game, source, event):
    return True


def _applies(game, source, obj, chars):
    return True


CREATURE = TargetSpec("creature", text="target creature")
PLAYER = TargetSpec("player", text="target player")
BAD_KIND = TargetSpec("creatur", text="target creature (misspelt)")


def _fails(impl: CardImpl, match: str, edition: str | None = None) -> None:
    with pytest.raises(CardDefinitionError, match=match) as info:
        Cards().add(impl, edition)
    assert repr(impl.name) in str(info.value)  # the error names the card


BAD = [
    # targets: a kind Game.target_candidates knows, wherever a target is
    pytest.param(CardImpl("Bad Bolt", spell=SpellSpec((BAD_KIND,), _effect)),
                 "unknown target kind 'creatur'", id="spell-target-kind"),
    pytest.param(CardImpl("Bad Pinger", abilities=(
        AbilitySpec("{T}: ping", tap=True, targets=(BAD_KIND,), effect=_effect),)),
        "unknown target kind", id="ability-target-kind"),
    pytest.param(CardImpl("Bad Digger", triggers=(
        TriggerSpec("etb", _effect, "When ...", targets=(BAD_KIND,)),)),
        "unknown target kind", id="trigger-target-kind"),
    pytest.param(CardImpl("Bad Aura", enchant=BAD_KIND), "enchant: unknown target kind",
                 id="enchant-kind"),
    pytest.param(CardImpl("Bad Bolt", spell=SpellSpec(("creature",), _effect)),
                 "not a TargetSpec", id="target-not-a-spec"),
    # spells
    pytest.param(CardImpl("Bad Fireball", spell=SpellSpec((CREATURE, PLAYER), _effect,
                                                          max_targets=5)),
                 "exactly one target spec, not 2", id="max-targets-two-specs"),
    pytest.param(CardImpl("Bad Fireball", spell=SpellSpec((), _effect, max_targets=5)),
                 "exactly one target spec, not 0", id="max-targets-no-spec"),
    pytest.param(CardImpl("Bad Fireball", spell=SpellSpec((CREATURE,), _effect,
                                                          max_targets=-1)),
                 "max_targets must be at least 1", id="max-targets-negative"),
    pytest.param(CardImpl("Bad Fireball", spell=SpellSpec((CREATURE,), _effect,
                                                          extra_target_cost=1)),
                 "extra_target_cost only with max_targets", id="extra-cost-alone"),
    pytest.param(CardImpl("Bad Bolt", spell=SpellSpec((CREATURE,))),
                 "a spell with targets needs an effect", id="targets-without-effect"),
    pytest.param(CardImpl("Bad Sorcery", spell=SpellSpec(())), "no effect",
                 id="spell-without-effect"),
    # activated abilities
    pytest.param(CardImpl("Bad Rock", abilities=(AbilitySpec("{T}: nothing", tap=True),)),
                 "does nothing", id="ability-does-nothing"),
    pytest.param(CardImpl("Bad Elves", abilities=(
        AbilitySpec("{T}: Add {G}.", tap=True, produces=("G",), targets=(PLAYER,)),)),
        "a mana ability can't have targets", id="mana-ability-targets"),
    pytest.param(CardImpl("Bad Elves", abilities=(
        AbilitySpec("{T}: Add {G}.", tap=True, produces=("G",), effect=_effect),)),
        "effect would never run", id="mana-ability-effect"),
    pytest.param(CardImpl("Bad Elves", abilities=(
        AbilitySpec("{T}: Add {G}.", tap=True, produces=("Green",)),)),
        "produces must list mana", id="mana-ability-symbol"),
    pytest.param(CardImpl("Bad Elves", abilities=(
        AbilitySpec("{T}: Add {G}.", tap=True, produces=("G",), any_color=True),)),
        "both produces and any_color", id="mana-ability-both"),
    pytest.param(CardImpl("Bad Sword", abilities=(
        AbilitySpec("Equip {1}", cost=parse_cost("{1}"), equip=True, effect=_effect),)),
        "an equip ability has exactly one target, not 0", id="equip-no-target"),
    pytest.param(CardImpl("Bad Sword", abilities=(
        AbilitySpec("Equip {1}", cost=parse_cost("{1}"), equip=True,
                    targets=(CREATURE, CREATURE), effect=_effect),)),
        "exactly one target, not 2", id="equip-two-targets"),
    pytest.param(CardImpl("Bad Walker", loyalty=3, abilities=(
        AbilitySpec("+1, {T}: draw", loyalty=1, tap=True, effect=_effect),)),
        r"a loyalty ability has no \{T\}", id="loyalty-tap"),
    pytest.param(CardImpl("Bad Walker", abilities=(
        AbilitySpec("+1: draw", loyalty=1, effect=_effect),)),
        "a loyalty ability on a card without loyalty", id="loyalty-without-loyalty"),
    pytest.param(CardImpl("Bad Walker", loyalty=3, abilities=(
        AbilitySpec("+1: Add {G}.", loyalty=1, produces=("G",)),)),
        "a loyalty ability is not a mana ability", id="loyalty-mana"),
    # triggered abilities
    pytest.param(CardImpl("Bad Mine", triggers=(TriggerSpec("draw_step", _effect, "At ..."),)),
                 "unknown event 'draw_step'", id="trigger-event"),
    pytest.param(CardImpl("Bad Mine", triggers=(TriggerSpec("step", _effect, "At ..."),)),
                 "a step trigger needs its step", id="step-without-step"),
    pytest.param(CardImpl("Bad Mine", triggers=(TriggerSpec("step", _effect, "At ...",
                                                            step=99),)),
                 "unknown step 99", id="step-unknown"),
    pytest.param(CardImpl("Bad Warden", triggers=(TriggerSpec("etb", _effect, "When ...",
                                                              step=DRAW),)),
                 "step is given only with event 'step'", id="step-without-step-event"),
    pytest.param(CardImpl("Bad Mine", triggers=(TriggerSpec("step", _effect, "At ...",
                                                            step=DRAW, whose="opponent"),)),
                 "whose must be one of controller, each", id="whose-unknown"),
    pytest.param(CardImpl("Bad Warden", triggers=(TriggerSpec("etb", _effect, "When ...",
                                                              whose="each"),)),
                 "whose is given only with event 'step'", id="whose-without-step"),
    pytest.param(CardImpl("Bad Mine", triggers=(TriggerSpec("step", _effect, "At ...",
                                                            step=DRAW, intervening=True),)),
                 "an intervening 'if' clause needs a condition", id="intervening-alone"),
    pytest.param(CardImpl("Bad Mine", triggers=(TriggerSpec("step", None, "At ...",
                                                            step=DRAW),)),
                 "no effect", id="trigger-without-effect"),
    # static abilities
    pytest.param(CardImpl("Bad Anthem", statics=(StaticSpec(7, _applies, _applies, "+1/+1"),)),
                 "unknown layer 7", id="static-layer"),
    # counters and kicker
    pytest.param(CardImpl("Bad Titan", kicked_counters={"+1/+1": 3}),
                 "kicked_counters without a kicker", id="kicked-counters-without-kicker"),
    pytest.param(CardImpl("Bad Titan", kicker=parse_cost("{2}"), kicked_counters={"+1/+1": 0}),
                 "kicked_counters: 0", id="kicked-counters-zero"),
    pytest.param(CardImpl("Bad Triskelion", enters_with={"+1/+1": -3}),
                 "enters_with: -3", id="enters-with-negative"),
    pytest.param(CardImpl("Bad Triskelion", enters_with={"+1/+1": "3"}),
                 "an amount must be a positive int", id="enters-with-not-an-int"),
    # the card itself
    pytest.param(CardImpl("Bad Bear", keywords=frozenset("flying")),
                 "keywords must be a set of keywords", id="keywords-a-string"),
]


@pytest.mark.parametrize(("impl", "match"), BAD)
def test_a_badly_formed_card_fails_as_it_is_defined_naming_the_card(impl, match):
    _fails(impl, match)


def test_a_module_defining_a_bad_card_fails_to_import(tmp_path, monkeypatch):
    (tmp_path / "fake_card_module.py").write_text(
        "from reference_engine.cardimpl import CardImpl, Cards, SpellSpec, TargetSpec\n"
        "CARDS = Cards()\n"
        "CARDS.add(CardImpl('Typo Bolt', spell=SpellSpec((TargetSpec('any'),), print)))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(CardDefinitionError, match="'Typo Bolt': spell target 1: unknown"):
        __import__("fake_card_module")


def test_the_error_is_a_value_error_and_lists_every_problem():
    impl = CardImpl("Bad Everything", spell=SpellSpec((BAD_KIND,)),
                    kicked_counters={"+1/+1": 1})
    with pytest.raises(ValueError, match="Bad Everything") as info:
        Cards().add(impl)
    message = str(info.value)
    assert "unknown target kind" in message
    assert "needs an effect" in message
    assert "kicked_counters without a kicker" in message


def test_an_edition_specific_definition_is_named_with_its_edition():
    with pytest.raises(CardDefinitionError, match=r"'Bad Bolt' \(cr2004\)"):
        Cards().add(CardImpl("Bad Bolt", spell=SpellSpec((BAD_KIND,), _effect)), "cr2004")


def test_a_name_defined_twice_in_the_same_edition_is_refused():
    cards = Cards()
    cards.add(CardImpl("Twice"))
    with pytest.raises(CardDefinitionError, match="'Twice': defined twice"):
        cards.add(CardImpl("Twice"))
    cards.add(CardImpl("Twice"), edition="cr2004")  # another edition's behaviour: fine
    with pytest.raises(CardDefinitionError, match=r"'Twice' \(cr2004\): defined twice"):
        cards.add(CardImpl("Twice"), edition="cr2004")
    assert len(cards) == 2


def test_well_formed_cards_are_kept_in_order_and_add_returns_them():
    cards = Cards()
    bolt = CardImpl("Good Bolt", spell=SpellSpec((TargetSpec("creature_or_player"),), _effect))
    fireball = CardImpl("Good Fireball", spell=SpellSpec(
        (TargetSpec("creature_or_player"),), _effect, max_targets=99, extra_target_cost=1))
    mine = CardImpl("Good Mine", triggers=(
        TriggerSpec("step", _effect, "At ...", condition=_condition, intervening=True,
                    step=DRAW, whose="each"),))
    titan = CardImpl("Good Titan", kicker=parse_cost("{2}{G}"), kicked_counters={"+1/+1": 3},
                     statics=(StaticSpec(ABILITY, _applies, _applies, "trample"),))
    anthem = CardImpl("Good Anthem", statics=(StaticSpec(PT_MODIFY, _applies, _applies),))
    for impl in (bolt, fireball, mine, titan, anthem):
        assert cards.add(impl) is impl
    assert list(cards) == [bolt, fireball, mine, titan, anthem]
    assert cards.entries()[0] == (None, bolt)


def test_every_shipped_card_is_registered_once():
    defined = [(edition, impl) for module in MODULES for edition, impl in module.CARDS.entries()]
    keys = [(edition, impl.name) for edition, impl in defined]
    assert len(keys) == len(set(keys))
    assert len(REGISTRY.general) + len(REGISTRY.by_edition) == len(defined)
    for edition, impl in defined:
        if edition is None:
            assert REGISTRY.general[impl.name] is impl
        else:
            assert REGISTRY.by_edition[(edition, impl.name)] is impl
    # each card's behaviours live in one module
    homes: dict[str, set[str]] = {}
    for module in MODULES:
        for impl in module.CARDS:
            homes.setdefault(impl.name, set()).add(module.__name__)
    assert all(len(found) == 1 for found in homes.values())
    assert set(implemented()) == set(default_pool().names())


def test_core_is_the_names_core_defines():
    from reference_engine.cards import core

    assert {impl.name for impl in core.CARDS} == core.CORE
    assert {"Lightning Bolt", "Forest", "Fireball"} <= core.CORE
    assert "Animate Dead" not in core.CORE


def _module(name: str, *entries: tuple[CardImpl, str | None]) -> ModuleType:
    module = ModuleType(name)
    module.CARDS = Cards()
    for impl, edition in entries:
        module.CARDS.add(impl, edition)
    return module


def test_the_registry_refuses_a_card_not_in_the_pool():
    fake = _module("fake_cards", (CardImpl("Forest"), None), (CardImpl("No Such Card"), None))
    with pytest.raises(CardDefinitionError, match=r"'No Such Card' \(fake_cards\): not a card"):
        build_registry([fake])


def test_the_registry_refuses_an_edition_specific_card_not_in_that_editions_pool():
    # Divination is a card of the modern pool only
    fake = _module("fake_cards", (CardImpl("Divination", spell=SpellSpec((), _effect)),
                                  "cr2004"))
    with pytest.raises(CardDefinitionError, match="not a card of the cr2004 pool"):
        build_registry([fake])
    unknown = _module("fake_cards", (CardImpl("Forest"), "cr1999"))
    with pytest.raises(CardDefinitionError, match="unknown edition 'cr1999'"):
        build_registry([unknown])


def test_the_registry_refuses_a_card_defined_in_two_modules():
    one = _module("fake_one", (CardImpl("Forest"), None))
    two = _module("fake_two", (CardImpl("Forest"), "modern"))
    with pytest.raises(CardDefinitionError,
                       match=r"'Forest' .*defined in two modules, fake_one and fake_two"):
        build_registry([one, two])


def test_the_registry_refuses_a_module_without_cards():
    with pytest.raises(CardDefinitionError, match="fake_empty: no CARDS"):
        build_registry([ModuleType("fake_empty")])


def test_a_fake_registry_gives_edition_specific_behaviour_first():
    general = CardImpl("Forest")
    special = CardImpl("Forest", keywords=frozenset(("flying",)))
    registry = build_registry([_module("fake_cards", (general, None), (special, "cr2004"))])
    assert registry.implementation("Forest") is general
    assert registry.implementation("Forest", "modern") is general
    assert registry.implementation("Forest", "cr2004") is special
    assert registry.implementation("Island", "cr2004") is None


def test_implementation_gives_the_edition_specific_behaviour_where_there_is_one():
    assert implementation("Animate Dead", "cr2004").enchant is None  # 2004: not an Aura
    assert implementation("Animate Dead", "modern").enchant is not None  # an Aura
    assert implementation("Animate Dead") is implementation("Animate Dead", "modern")
    assert implementation("Lightning Bolt", "cr2004") is implementation("Lightning Bolt")
    assert implementation("No Such Card") is None
    assert implementation("No Such Card", "modern") is None


def test_cardimpl_holds_no_registry_and_imports_no_cards():
    import inspect

    from reference_engine import cardimpl

    for gone in ("REGISTRY", "EDITION_REGISTRY", "register", "implementation", "implemented"):
        assert not hasattr(cardimpl, gone), gone
    source = inspect.getsource(cardimpl)
    assert "reference_engine.cards" not in source.replace(":mod:`reference_engine.cards`", "")
    assert "import reference_engine.registry" not in source
    assert "from reference_engine.registry" not in source
