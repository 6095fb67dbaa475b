"""The two editions of the Comprehensive Rules that the corpus is built from.

An edition is a namespace: a rule is addressed as ``cr2004:217.2b`` or ``modern:401.2``, because
the two editions number the same topics differently and reuse numbers for other topics.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SPEC_DIR = Path(__file__).resolve().parent
SOURCES_DIR = SPEC_DIR / "sources"
INDEX_DIR = SPEC_DIR / "index"
ANNOTATIONS_DIR = SPEC_DIR / "annotations"

Layout = Literal["cr2004", "modern"]


@dataclass(frozen=True, slots=True)
class Edition:
    key: str
    title: str
    language: str
    effective: str
    source: str
    sha256: str
    layout: Layout
    #: the rules the reference engine plays by beyond the seed (the seed holds one part)
    plays_by: str = ""
    #: the effective date of the Comprehensive Rules those rules are pinned to (the docs for
    #: engine authors name it at their top)
    pinned: str = ""

    @property
    def source_path(self) -> Path:
        return SOURCES_DIR / self.source

    @property
    def index_path(self) -> Path:
        return INDEX_DIR / f"{self.key}.json"

    @property
    def annotations_path(self) -> Path:
        return ANNOTATIONS_DIR / f"{self.key}.yaml"


CR2004 = Edition(
    key="cr2004",
    title="Comprehensive Rules effective 2004-06-01 (Traditional Chinese translation)",
    language="zh-Hant",
    effective="2004-06-01",
    source="000_66d859e2d7deb66e.txt",
    sha256="e1a0a7c7b7432afa1da1e94c7122bec3f245e1ea008890a4b1cb889b369ec399",
    layout="cr2004",
    pinned="2004-06-01",
    plays_by="the Comprehensive Rules effective 2004-06-01, the document the seed is part of; "
             "where no June-2004 text settles a question, the modern rules below",
)

MODERN = Edition(
    key="modern",
    title="Comprehensive Rules, modern edition, section 4 Zones (Japanese)",
    language="ja",
    effective="2022 or later",
    source="001_79523f1f5ae4d972.txt",
    sha256="cbc54c9aaada6d6e1b720db53bcc1953e6594fe97b769fc151c05405c2eb96d7",
    layout="modern",
    # Pinned to the latest Comprehensive Rules whose text could be read from a public copy
    # (MagicCompRules 20260925.txt; docs/rules-outside-the-seeds.md names where). The seed's
    # section 4 is older (it has 400.7m, stickers, in the rules since 2022-10); the engine plays
    # the rest of the game by the pinned text. Between the former pin (2024-08-02) and this one
    # the Foundations update (2024-11-08) removed the damage assignment order (509.2-3, 510.1c-d):
    # the attacking player divides an attacker's combat damage freely among its blockers.
    pinned="2026-09-25",
    plays_by="the Comprehensive Rules effective 2026-09-25: no damage assignment order since "
             "the Foundations update of 2024-11-08 (the attacking player divides a blocked "
             "creature's combat damage freely among its blockers; trample still needs lethal "
             "damage on every blocker first)",
)

EDITIONS: dict[str, Edition] = {e.key: e for e in (CR2004, MODERN)}
