"""The README's figures of the fuzzer are the fuzzer's: how many invariants it checks and how
many of them are tagged with rules."""

from __future__ import annotations

import re
from pathlib import Path

from fuzz.invariants import INVARIANTS

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_counts_the_invariants_there_are():
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"checks (\d+) invariants \((\d+) tagged with the rules they check\)", text)
    assert found, "README: the sentence counting the fuzzer's invariants is gone"
    tagged = sum(1 for invariant in INVARIANTS.values() if invariant.rules)
    assert (int(found.group(1)), int(found.group(2))) == (len(INVARIANTS), tagged)
