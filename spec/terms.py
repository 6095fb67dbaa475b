"""The glossary of key terms and the 2004-to-modern zone concordance, checked against the corpus.

* ``spec/glossary.yaml``: a list of ``{english, cr2004, modern, rules, note}``: the term as each
  seed writes it (null where that seed never uses it) and rules that use it.
* ``spec/concordance.yaml``: a list of ``{cr2004, modern, note}``: every record of the 2004 zone
  section (217) with its modern counterparts among 400-408 (possibly none) and what changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spec.corpus import Corpus
from spec.editions import SPEC_DIR
from spec.errors import AnnotationError

GLOSSARY_PATH = SPEC_DIR / "glossary.yaml"
CONCORDANCE_PATH = SPEC_DIR / "concordance.yaml"


@dataclass(frozen=True, slots=True)
class Term:
    english: str
    cr2004: str | None
    modern: str | None
    rules: tuple[str, ...]
    note: str | None


@dataclass(frozen=True, slots=True)
class Correspondence:
    cr2004: str
    modern: tuple[str, ...]
    note: str


def _read_list(path: Path) -> list[dict[str, Any]]:
    display = f"spec/{path.name}"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise AnnotationError(display, None, f"unreadable: {exc}") from None
    if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
        raise AnnotationError(display, None, "must be a list of mappings")
    return data


def load_glossary(corpus: Corpus | None = None, path: Path = GLOSSARY_PATH) -> list[Term]:
    """Read the glossary; every term must occur in its seed and every rule must exist."""
    corpus = corpus or Corpus.load()
    display = f"spec/{path.name}"
    texts = {
        key: "\n".join(r.raw_text for r in corpus.edition(key)) for key in corpus.editions
    }
    terms = []
    for number, item in enumerate(_read_list(path), start=1):
        english = item.get("english")
        if not isinstance(english, str) or not english:
            raise AnnotationError(display, f"entry {number}", "english: missing")
        for key in corpus.editions:
            term = item.get(key)
            if term is not None and term not in texts[key]:
                raise AnnotationError(
                    display, english, f"{key}: {term!r} does not occur in the {key} source"
                )
        rules = tuple(item.get("rules") or ())
        if not rules:
            raise AnnotationError(display, english, "rules: name at least one rule")
        for ref in rules:
            corpus.get(ref)
        terms.append(Term(english, item.get("cr2004"), item.get("modern"), rules,
                          item.get("note")))
    return terms


def load_concordance(
    corpus: Corpus | None = None, path: Path = CONCORDANCE_PATH
) -> list[Correspondence]:
    """Read the concordance; it must cover every 2004 zone record exactly once."""
    corpus = corpus or Corpus.load()
    display = f"spec/{path.name}"
    pairs = []
    for item in _read_list(path):
        old = str(item.get("cr2004"))
        rule = corpus.get(f"cr2004:{old}")
        if rule.section != "217":
            raise AnnotationError(display, old, "is not a 2004 zone rule (section 217)")
        modern = tuple(str(x) for x in item.get("modern") or ())
        for new in modern:
            corpus.get(f"modern:{new}")
        note = item.get("note")
        if not isinstance(note, str) or not note.strip():
            raise AnnotationError(display, old, "note: say what changed between the editions")
        pairs.append(Correspondence(old, modern, note))
    covered = [p.cr2004 for p in pairs]
    wanted = [r.id for r in corpus.edition("cr2004") if r.section == "217"]
    if sorted(covered) != sorted(wanted):
        missing = sorted(set(wanted) - set(covered))
        extra = sorted({x for x in covered if covered.count(x) > 1})
        raise AnnotationError(
            display, None, f"must list every 217 record once (missing {missing}, twice {extra})"
        )
    return pairs
