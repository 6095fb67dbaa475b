"""``conformance.atomic``: an output replaces the previous one whole, or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance import atomic


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_file_replaces_the_previous_one_and_leaves_nothing_beside_it(tmp_path):
    target = tmp_path / "out" / "results.json"
    atomic.write_json(target, {"a": "語"})
    assert target.read_text(encoding="utf-8") == '{\n "a": "語"\n}\n'
    atomic.write_text(target, "second\n")
    assert target.read_text(encoding="utf-8") == "second\n"
    assert _names(target.parent) == ["results.json"]


def test_a_write_that_fails_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "results.json"
    target.write_text("previous", encoding="utf-8")

    def broken(self: Path, other: Path) -> Path:
        raise OSError("disk full")

    monkeypatch.setattr(Path, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        atomic.write_text(target, "new")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "previous"
    assert _names(tmp_path) == ["results.json"]


def test_a_folder_is_swapped_in_whole_or_thrown_away(tmp_path):
    out = tmp_path / "report"
    with atomic.folder(out) as partial:
        (partial / "index.html").write_text("one", encoding="utf-8")
        assert not out.exists()  # nothing shows until the block ends
    assert _names(out) == ["index.html"]
    with pytest.raises(RuntimeError), atomic.folder(out) as partial:
        (partial / "index.html").write_text("two", encoding="utf-8")
        raise RuntimeError("a page failed")
    assert (out / "index.html").read_text(encoding="utf-8") == "one"
    with atomic.folder(out) as partial:
        (partial / "other.html").write_text("three", encoding="utf-8")
    assert _names(out) == ["other.html"]  # what the previous folder held is gone
    assert _names(tmp_path) == ["report"]
