"""The engine's boundary under junk: malformed setups and actions raise only the protocol's
typed errors (bad_request, unsupported, illegal_action), never a bare Python exception, and a
rejected action leaves the observation unchanged."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_engine.engine import ReferenceEngine
from reference_engine.errors import EngineError, IllegalActionError

SCALARS = st.sampled_from([
    None, True, 0, -1, 3, 2.5, "", "A", "B", "C", "h", "Forest", "Grizzly Bears", "Pacifism",
    "Bonesplitter", "precombat_main", "untap", "constructed",
])
PERMANENT_KEYS = ["handle", "card", "controller", "owner", "tapped", "sick", "damage",
                  "counters", "attached_to", "token", "attacking", "blocking", "count"]
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from([*PERMANENT_KEYS, "G", "+1/+1", "card"]), inner,
                      max_size=3),
    max_leaves=6,
)
PLAYER = st.dictionaries(
    st.sampled_from(["life", "poison", "mana_pool", "lands_played", "max_hand_size", "hand",
                     "library", "graveyard", "sideboard"]), JUNK, max_size=4)
SETUP = st.fixed_dictionaries({}, optional={
    "seed": JUNK,
    "start": st.sampled_from(["game", "nope", None]),
    "turn": st.dictionaries(st.sampled_from(["number", "active", "step", "extra"]), JUNK,
                            max_size=3),
    "players": st.dictionaries(st.sampled_from(["A", "B", "C"]), PLAYER, max_size=2),
    "battlefield": st.lists(st.dictionaries(st.sampled_from(PERMANENT_KEYS), JUNK,
                                            min_size=1, max_size=4), max_size=3),
    "decks": st.one_of(JUNK, st.fixed_dictionaries({"A": JUNK, "B": JUNK})),
    "exile": JUNK, "ante": JUNK, "command": JUNK, "phased_out": JUNK, "format": JUNK,
    "first_player": JUNK,
})
FIELDS = st.sampled_from(["card", "targets", "x", "choice", "ability", "payment", "kicked",
                          "order", "attacker", "player", "action"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edition=st.sampled_from(["cr2004", "modern"]), setup=SETUP,
       edits=st.lists(st.tuples(st.integers(0, 50), FIELDS, JUNK), max_size=6))
def test_junk_setups_and_actions_raise_only_protocol_errors(edition, setup, edits):
    engine = ReferenceEngine()
    try:
        engine.new_game(edition, setup)
    except EngineError:
        return
    for pick, field, value in edits:
        actions = engine.legal_actions()
        if not actions:
            return
        action = dict(actions[pick % len(actions)])
        action[field] = value
        before = engine.observe()
        try:
            engine.perform(action)
        except IllegalActionError:
            assert engine.observe() == before
        except EngineError:
            assert engine.observe() == before
        engine.observe("A")
        engine.events()
