"""The documents for engine authors name, at their top, the rules each edition is pinned to."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.editions import EDITIONS

ROOT = Path(__file__).resolve().parents[1]
#: how far down a page its top reaches: its title and opening paragraphs, or first section
TOP_LINES = 40


def test_every_edition_has_a_pinned_date():
    for edition in EDITIONS.values():
        year, month, day = edition.pinned.split("-")
        assert len(year) == 4 and len(month) == 2 and len(day) == 2, edition.key
        assert edition.pinned in edition.plays_by, edition.key


@pytest.mark.parametrize("page", ["protocol.md", "reference-engine.md",
                                  "rules-outside-the-seeds.md"])
def test_each_page_names_each_editions_pin_at_its_top(page):
    top = "\n".join((ROOT / "docs" / page).read_text(encoding="utf-8").splitlines()[:TOP_LINES])
    for edition in EDITIONS.values():
        assert edition.key in top and edition.pinned in top, (page, edition.key)
