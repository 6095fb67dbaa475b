"""``mtgconf rules``: output, JSON shape and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mtgconf import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; argparse usage errors exit, which counts as returning."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_holds_every_record(capsys):
    code, out, _ = run(capsys, "rules", "--json")
    assert code == 0
    records = json.loads(out)
    assert len(records) == 234 + 87
    assert {r["ref"] for r in records} >= {"cr2004:300.6", "modern:408.3", "cr2004:212.7e"}
    assert set(records[0]) >= {
        "edition", "id", "printed_id", "line", "kind", "parent", "section", "section_title",
        "text", "raw_text", "examples", "references", "gist", "testability",
    }


def test_list_filters(capsys):
    code, out, _ = run(capsys, "rules", "--edition", "cr2004", "--section", "217", "--json")
    assert code == 0
    records = json.loads(out)
    assert {r["section"] for r in records} == {"217"}
    assert len(records) == 46
    code, out, _ = run(capsys, "rules", "list", "--testability", "not-testable", "--kind",
                       "heading")
    assert code == 0
    assert len(out.splitlines()) == 18


def test_show_with_and_without_prefix(capsys):
    code, out, _ = run(capsys, "rules", "show", "101.5")
    assert code == 0
    assert out.startswith("cr2004:101.5")
    assert "先手的玩家略過他第一個回合的抽牌步驟" in out
    code, prefixed, _ = run(capsys, "rules", "show", "cr2004:101.5")
    assert prefixed == out


def test_show_ambiguous_printed_id_lists_all(capsys):
    code, out, _ = run(capsys, "rules", "show", "212.6b")
    assert code == 0
    assert "212.6b names 3 records" in out
    for ref in ("cr2004:212.6b", "cr2004:212.6c", "cr2004:212.6f"):
        assert ref in out
    code, out, _ = run(capsys, "rules", "show", "212.6b", "--json")
    assert [r["line"] for r in json.loads(out)] == [269, 270, 275]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rules", "show", "999.9"], "no rule 999.9 in any edition"),
        (["rules", "show", "modern:101.5"], "no rule 101.5 in edition modern"),
        (["rules", "show", "xyz:101.5"], "unknown edition 'xyz'"),
        (["rules", "show", "hello"], "is not a rule id"),
        (["rules", "--edition", "cr1999"], "invalid choice: 'cr1999'"),
        (["rules", "--section", "999"], "no rules in section '999'"),
        (["rules", "lint", "--kind", "nonsense"], "invalid choice"),
        (["rules", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_lint_reports_the_numbering_anomalies(capsys):
    code, out, _ = run(capsys, "rules", "lint", "--kind", "numbering")
    assert code == 0
    rows = out.splitlines()
    assert rows[-1] == "5 anomalies (5 numbering)"
    for line, ids in [(263, "212.2b -> 212.5b"), (264, "212.2c -> 212.5c"),
                      (270, "212.6b -> 212.6c"), (275, "212.6b -> 212.6f"),
                      (282, "212.5e -> 212.7e")]:
        assert any(
            r.startswith(f"spec/sources/000_66d859e2d7deb66e.txt:{line}: numbering: {ids}:")
            for r in rows
        ), line


def test_lint_all_kinds_json(capsys):
    code, out, _ = run(capsys, "rules", "lint", "--json")
    assert code == 0
    rows = json.loads(out)
    kinds = {r["kind"] for r in rows}
    assert kinds == {"numbering", "translation", "not-a-rule", "format"}
    (slip,) = [r for r in rows if r["kind"] == "translation"]
    assert (slip["line"], slip["printed_id"]) == (294, "214.4")
    assert set(rows[0]) == {"file", "line", "edition", "printed_id", "canonical_id", "record",
                            "kind", "why"}


def test_stats(capsys):
    code, out, _ = run(capsys, "rules", "stats", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["cr2004"]["rules"] == 210 and data["cr2004"]["sections"] == 24
    assert data["modern"]["rules"] == 78 and data["modern"]["sections"] == 9
    assert sum(data["cr2004"]["testability"].values()) == 210
    code, text, _ = run(capsys, "rules", "stats")
    assert "210 numbered rules (18 heading-only) in 24 sections" in text


def test_search(capsys):
    code, out, _ = run(capsys, "rules", "search", "mana", "burn")
    assert code == 0
    assert "cr2004:300.3" in out
    code, out, err = run(capsys, "rules", "search", "zzzzqqq")
    assert code == 0 and out == "" and "no rule mentions" in err


def test_glossary_and_concordance(capsys):
    code, out, _ = run(capsys, "rules", "glossary", "battlefield", "--json")
    assert code == 0
    assert any(t["modern"] == "戦場" for t in json.loads(out))
    code, out, _ = run(capsys, "rules", "concordance")
    assert code == 0
    assert "cr2004:217.1a" in out


def test_no_command_is_a_usage_error(capsys):
    code, _, err = run(capsys)
    assert code == 2
    assert "usage: mtgconf" in err


def test_console_entry_point_runs():
    done = subprocess.run(
        [sys.executable, "-m", "mtgconf", "rules", "show", "cr2004:300.6"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "cr2004:300.6" in done.stdout
