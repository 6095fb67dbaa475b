"""Build the committed rules index from the seed sources, our annotations and our records of
the rules outside the seeds.

    python -m spec.build           # rewrite spec/index/*.json
    python -m spec.build --check   # exit 1 if the committed index is stale

Each edition has two index files: ``<edition>.json`` (the seed's rules: parsed from the seed,
with our annotations) and ``<edition>-outside.json`` (the rules outside the seed: compiled from
``spec/outside/<edition>.yaml``, see ``spec/outside.py``). The index is committed so that
reading the corpus never re-parses the seeds; a test proves that regenerating it changes
nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from spec import annotations as spec_annotations
from spec import outside, parser
from spec.editions import EDITIONS, Edition
from spec.errors import AnnotationError, SpecError

INDEX_FORMAT = 1


def build_records(
    edition: Edition, annotations_path: Path | None = None
) -> list[dict[str, Any]]:
    """Parse ``edition`` and merge its annotations into JSON-ready records."""
    entries = parser.parse(edition)
    path = annotations_path or edition.annotations_path
    display = f"spec/annotations/{path.name}" if annotations_path is None else str(path)
    notes = spec_annotations.load(path, display)
    by_id = {e.id: e for e in entries}
    missing = [e.id for e in entries if e.id not in notes]
    if missing:
        raise AnnotationError(
            display, None, f"no annotation for {len(missing)} record(s): {', '.join(missing)}"
        )
    orphans = [key for key in notes if key not in by_id]
    if orphans:
        raise AnnotationError(
            display, orphans[0], f"annotates no rule of {edition.key} (also: {orphans[1:]})"
        )
    records = []
    for entry in entries:
        note = notes[entry.id]
        testability = _testability(edition, display, entry, note, by_id, notes)
        anomalies = [a.to_json() for a in entry.anomalies]
        if note.erratum:
            anomalies.append(parser.Anomaly(
                "translation", entry.line, entry.printed_id, entry.id, note.erratum
            ).to_json())
        records.append({
            "edition": entry.edition,
            "id": entry.id,
            "ref": entry.ref,
            "printed_id": entry.printed_id,
            "line": entry.line,
            "end_line": entry.end_line,
            "kind": entry.kind,
            "parent": entry.parent,
            "depth": entry.depth,
            "chapter": entry.chapter,
            "section": entry.section,
            "section_title": entry.section_title,
            "text": entry.text,
            "raw_text": entry.raw_text,
            "examples": [x.to_json() for x in entry.examples],
            "references": [r.to_json() for r in entry.references],
            "gist": note.gist,
            "testability": testability,
            "anomalies": anomalies,
            "outside": False,
        })
    return records


def _testability(
    edition: Edition,
    display: str,
    entry: parser.Entry,
    note: spec_annotations.Annotation,
    by_id: dict[str, parser.Entry],
    notes: dict[str, spec_annotations.Annotation],
) -> dict[str, Any]:
    value = dict(note.testability)
    is_heading = entry.kind in ("section", "heading")
    if is_heading != (value.get("reason") == "heading"):
        want = "not-testable with reason heading" if is_heading else "not a heading"
        raise AnnotationError(display, entry.id, f"testability: a {entry.kind} must be {want}")
    if "exercised_by" in value:
        refs = []
        for item in value["exercised_by"]:
            target = str(item)
            if target not in by_id:
                raise AnnotationError(
                    display, entry.id, f"testability.exercised_by: {target} is not a rule of "
                    f"{edition.key}"
                )
            if notes[target].testability["class"] not in ("engine", "card-data"):
                raise AnnotationError(
                    display, entry.id, f"testability.exercised_by: {target} is not itself "
                    "testable (engine or card-data)"
                )
            refs.append(f"{edition.key}:{target}")
        value["exercised_by"] = refs
    order = ("class", "reason", "exercised_by", "note", "waits")
    return {k: value[k] for k in order if k in value}


def render_index(edition: Edition, records: list[dict[str, Any]] | None = None) -> str:
    """The exact text of ``spec/index/<edition>.json`` (``records``: already built)."""
    records = build_records(edition) if records is None else records
    lines = parser.read_source(edition.source_path, edition.sha256)
    document = {
        "format": INDEX_FORMAT,
        "edition": edition.key,
        "title": edition.title,
        "language": edition.language,
        "effective": edition.effective,
        "source": {
            "file": f"spec/sources/{edition.source}",
            "sha256": edition.sha256,
            "lines": len(lines),
        },
        "records": records,
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def render_outside_index(edition: Edition, seed: list[dict[str, Any]] | None = None) -> str:
    """The exact text of ``spec/index/<edition>-outside.json`` (``seed``: the seed's records,
    already built)."""
    return outside.render_index(edition, build_records(edition) if seed is None else seed)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(
        prog="python -m spec.build", description="Regenerate the committed rules index."
    )
    args.add_argument(
        "--check", action="store_true", help="Report a stale index instead of rewriting it"
    )
    options = args.parse_args(argv)
    stale = []
    for edition in EDITIONS.values():
        try:
            seed = build_records(edition)
            texts = {edition.index_path: render_index(edition, seed),
                     outside.index_path(edition): render_outside_index(edition, seed)}
        except SpecError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        for path, text in texts.items():
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current == text:
                continue
            stale.append(path.name)
            if not options.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    if options.check and stale:
        print(f"stale index: {', '.join(stale)}; run python -m spec.build", file=sys.stderr)
        return 1
    verb = "would rewrite" if options.check else "rewrote"
    print(f"{verb} {', '.join(stale)}" if stale else "index up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
