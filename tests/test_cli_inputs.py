"""Bad paths, a multi-line --set, help texts and impossible events: one line and exit status 2, or the
right words; nothing written, nothing created."""

from __future__ import annotations

import pytest

from simcore.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["simulate", "--hands", "10", "--out", "/nonexistent/dir/x.parquet"],
            "--out /nonexistent/dir/x.parquet: there is no directory /nonexistent/dir",
        ),
        (
            ["bid-odds", "--hands", "10", "--csv", "/nonexistent/x.csv"],
            "--csv /nonexistent/x.csv: there is no directory",
        ),
        (["report", "--out", "/proc/nope"], "--out /proc/nope: cannot create the directory"),
        # a folder that exists but takes no files, though permission bits say yes to root
        (["report", "--out", "/proc"], "--out /proc: the directory cannot be written (it takes no new files)"),
        (["report", "--variant", "two-hand", "--out", "/proc"], "--out /proc: the directory cannot be written"),
        (["bid-odds", "--hands", "10", "--csv", "/proc/x.csv"], "--csv /proc/x.csv: the directory /proc cannot be"),
        (["odds", "--set", "meld.dix=10\nmeld.pinochle=999"], "spans lines; give one KEY=VALUE per --set"),
        (["compare", "four-hand-150", "--set", "meld.dix=10\rmeld.pinochle=999"], "spans lines"),
    ],
)
def test_unwritable_outputs_and_multi_line_set_are_refused(capsys, argv, message):
    _one_line(capsys, argv, message)


def test_output_paths_that_are_the_wrong_kind_are_refused(capsys, tmp_path):
    existing = tmp_path / "notes.txt"
    existing.write_text("mine")
    _one_line(capsys, ["report", "--out", str(existing)], "is a file, not a directory")
    assert existing.read_text() == "mine"
    _one_line(capsys, ["bid-odds", "--hands", "10", "--csv", str(tmp_path)], "is a directory; give a file path")


def test_a_store_in_a_missing_directory_is_refused_and_not_created(capsys, tmp_path):
    missing = tmp_path / "no" / "such"
    _one_line(
        capsys,
        ["odds", "--hands", "10", "--store", str(missing / "r.duckdb")],
        f"--store {missing / 'r.duckdb'}: there is no directory {missing}",
    )
    assert not (tmp_path / "no").exists()


def test_a_store_in_an_existing_directory_is_created(capsys, tmp_path):
    store = tmp_path / "r.duckdb"
    code, _, _ = run(capsys, "odds", "pinochle", "--hands", "1000", "--store", str(store))
    assert code == 0 and store.is_file()


@pytest.mark.parametrize("command", ["duel", "advise", "endgame"])
def test_help_prints_percent_signs_once(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


def test_an_event_the_deck_cannot_hold_is_impossible_not_unseen(capsys):
    code, out, _ = run(capsys, "odds", "five-nines", "pinochle", "--variant", "double-deck", "--hands", "1000")
    five = next(line for line in out.splitlines() if line.startswith("five-nines"))
    assert code == 0 and five.count("impossible in this deck") == 2 and "never seen" not in five
    header, pinochle = out.splitlines()[1], next(line for line in out.splitlines() if line.startswith("pinochle"))
    assert header.index("per deal") == pinochle.index("1 in ") + len("impossible in this deck  ")  # columns align
