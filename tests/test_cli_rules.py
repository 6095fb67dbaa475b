"""``mtgconf rules``: output, JSON shape and exit codes."""

from __future__ import annotations

import json
import re
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
    assert code == 0 and out == "" and err == "no seed rule mentions 'zzzzqqq'\n"


# ---- the rules outside the seeds ----

def test_show_a_rule_outside_the_seeds_shows_our_record(capsys):
    code, out, _ = run(capsys, "rules", "show", "508.1a")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("modern:508.1a  [rule, outside the seeds]  "
                               "spec/outside/modern.yaml lines ")
    assert not any(line.startswith("  Text:") for line in lines)  # no text: our record
    assert "  Record:      ours, following the Comprehensive Rules effective 2026-09-25; " \
        "the corpus holds no text of the rule" in lines
    assert any(line.startswith("  Parent:      508.1 As the step begins") for line in lines)
    assert any(line.startswith("  Key terms:   untapped, haste, ") for line in lines)
    assert "  References:  302.6 (outside the seeds), 702.10b (outside the seeds)" in lines
    code, out, _ = run(capsys, "rules", "show", "cr2004:303.1")
    assert "  Unsure:      The upkeep step's rules were not found" in out
    code, out, _ = run(capsys, "rules", "show", "modern:505.6b")
    assert "  Connects:    modern:405.6d (seed rules)" in out
    code, out, _ = run(capsys, "rules", "show", "508.1a", "--json")
    (record,) = json.loads(out)
    assert record["outside"] is True and record["version"] == "2026-09-25"
    assert record["terms"][:2] == ["untapped", "haste"]
    code, out, _ = run(capsys, "rules", "show", "101.5")  # a seed rule: as it was
    assert "[rule]  spec/sources/" in out.splitlines()[0] and "  Text:        " in out
    # its reference to 304, absent from the seed, is a record outside it
    assert "  References:  304 (outside the seeds)" in out
    code, out, _ = run(capsys, "rules", "show", "cr2004:103.2")
    assert "  References:  407 (not in the corpus)" in out


def test_list_and_search_take_one_part_at_a_time(capsys):
    corpus_outside = json.loads(run(capsys, "rules", "list", "--outside", "--json")[1])
    assert len(corpus_outside) > 100 and {r["outside"] for r in corpus_outside} == {True}
    code, out, _ = run(capsys, "rules", "--outside", "--edition", "modern", "--section", "508")
    assert code == 0 and out.splitlines()[0].startswith("modern:508 ")
    assert all(line.startswith("modern:508") for line in out.splitlines())
    code, _, err = run(capsys, "rules", "list", "--section", "508")
    assert code == 2 and "(it is a section outside the seeds: add --outside)" in err
    code, _, err = run(capsys, "rules", "list", "--outside", "--section", "217")
    assert code == 2 and "(it is a section of the seeds: drop --outside)" in err
    code, out, err = run(capsys, "rules", "search", "haste")
    assert "cr2004:212.3d" in out and "modern:508.1a" not in out
    assert re.fullmatch(r"\d+ rules outside the seeds mention it: add --outside\n", err)
    code, out, err = run(capsys, "rules", "search", "--outside", "haste")
    assert "modern:508.1a" in out and "cr2004:212.3d" not in out
    assert err == "1 seed rule mentions it: drop --outside\n"
    code, out, err = run(capsys, "rules", "search", "--outside", "--edition", "modern",
                         "continuously since the turn began")  # a key term
    assert "modern:508.1a" in out


def test_stats_counts_both_parts_apart(capsys):
    code, out, _ = run(capsys, "rules", "stats", "--json")
    data = json.loads(out)
    assert code == 0 and data["cr2004"]["rules"] == 210  # the seed rules, as before
    outside = data["cr2004"]["outside"]
    assert outside["version"] == "2004-06-01" and outside["file"] == "spec/outside/cr2004.yaml"
    assert outside["unsure"] > 0 and "anomalies" not in outside
    assert sum(outside["testability"].values()) == outside["rules"]
    assert data["modern"]["outside"]["unsure"] == 0
    code, only, _ = run(capsys, "rules", "stats", "--outside", "--json")
    assert code == 0 and json.loads(only) == {key: part["outside"] for key, part in data.items()}
    _, text, _ = run(capsys, "rules", "stats", "--edition", "modern")
    assert "78 numbered rules (" in text
    assert re.search(r"outside the seeds: \d+ numbered rules \(\d+ heading-only\) in \d+ "
                     r"sections, our records in spec/outside/modern.yaml following the "
                     r"Comprehensive Rules effective 2026-09-25\n", text)


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
