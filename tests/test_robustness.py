"""The bad inputs the fuzzer once found, one by one: each ends in one line and exit status 2, or in a
result that says what does not apply, never in a traceback, a hang or a NaN."""

import json
from importlib import resources

import pytest

from simcore.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv) -> str:
    code, _, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    return err


def test_a_rules_file_that_is_not_utf8_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'id = "\xff"\n')
    assert "not UTF-8" in refused(capsys, "odds", "--variant", str(bad))


def test_deeply_nested_toml_is_refused(capsys, tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 1000 + "]" * 1000 + "\n")
    assert "nested too deeply" in refused(capsys, "odds", "--variant", str(deep))
    assert "nested too deeply" in refused(capsys, "odds", "--set", "meld.run=" + "[" * 2000 + "]" * 2000)


def test_an_extends_chain_that_names_itself_by_a_longer_path_is_a_loop(capsys, tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "r.toml").write_text('extends = "../d/r.toml"\n')
    assert "loop" in refused(capsys, "odds", "--variant", str(tmp_path / "d" / "r.toml"))


def test_extends_naming_an_unknown_id_names_the_file_and_the_key(capsys, tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('extends = "no-such-variant"\n')
    err = refused(capsys, "odds", "--variant", str(f))
    assert str(f) in err and "extends = 'no-such-variant'" in err and "--variant" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "--set", "meld.pinochle=9223372036854775808"],
        ["simulate", "--set", "auction.step=9223372036854775808"],
        ["simulate", "--variant", "double-pack", "--set", "meld.queens_around=9007199254740992"],
        ["games", "--variant", "five-hand-widow-96", "--set", "meld.run_extra_king=9007199254740992"],
        ["simulate", "--set", "meld.marriage=1000000"],
    ],
)
def test_values_beyond_their_range_are_refused_before_anything_runs(capsys, argv):
    # "meld.run_extra_king = 9007199254740992" once made the auction step towards an unreachable limit
    assert "from 0 to 10,000" in refused(capsys, *argv) or "from 1 to 10,000" in refused(capsys, *argv)


def test_an_auction_cannot_open_at_zero(capsys):
    # "the next bid after 0 is 0, so the auction never rises"
    assert "at least 1" in refused(capsys, "simulate", "--hands", "1", "--set", "auction.min_bid=0")
    assert "at least 1" in refused(capsys, "games", "--games", "1", "--set", "auction.min_bid=0")


def test_a_missing_key_takes_its_schema_default(capsys, tmp_path):
    text = (resources.files("simcore.variants") / "rules" / "four-hand-150.toml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("pass_cards")]
    f = tmp_path / "nopass.toml"
    f.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "simulate", "--variant", str(f), "--hands", "64")
    assert code == 0 and "made rate" in out


def test_a_missing_key_the_file_must_set_names_itself(capsys, tmp_path):
    text = (resources.files("simcore.variants") / "rules" / "four-hand-150.toml").read_text(encoding="utf-8")
    f = tmp_path / "nolead.toml"
    f.write_text("\n".join(line for line in text.splitlines() if not line.startswith("lead ")) + "\n")
    err = refused(capsys, "odds", "--variant", str(f))
    assert "play.lead" in err and "missing" in err


def test_bids_beyond_the_table_are_shown_as_or_more(capsys):
    # "a mean bid of 2.007e+06, and then 'most frequent winning bids: 531 (100.0%)'"
    code, out, _ = run(capsys, "simulate", "--hands", "64", "--set", "meld.marriage=10000")
    assert code == 0 and "531 or more" in out


@pytest.mark.parametrize(
    "event",
    ["meld>=9223372036854775808", "meld>=" + "9" * 5000, "meld>=٣٠", "meld>=２０", "meld>=30\n", "double-pinochle\n"],
)
def test_odd_event_expressions_are_refused_in_one_line(capsys, event):
    refused(capsys, "odds", event, "--hands", "1000")


def test_set_cannot_change_which_rules_are_loaded(capsys):
    assert "not a rule" in refused(capsys, "odds", "--set", "extends=no-such-variant")
    assert "not a rule" in refused(capsys, "odds", "--set", "id=other")


def test_rates_that_do_not_apply_say_so_and_json_gives_null(capsys):
    code, out, _ = run(capsys, "simulate", "--variant", "two-hand", "--hands", "64")
    assert code == 0 and "made rate                  does not apply (no bidder in this system)" in out
    assert "nan" not in out.lower()
    code, out, _ = run(capsys, "simulate", "--variant", "two-hand", "--hands", "64", "--json")
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert data["rates"]["made"]["estimate"] is None
    code, out, _ = run(capsys, "games", "--games", "3")
    assert "nan" not in out.lower()


def test_deleting_any_key_of_a_shipped_file_gives_a_result_or_one_line(capsys, tmp_path):
    text = (resources.files("simcore.variants") / "rules" / "four-hand-150.toml").read_text(encoding="utf-8")
    lines = text.splitlines()
    keyed = [i for i, line in enumerate(lines) if "=" in line and not line.startswith((" ", "#", '"'))]
    assert len(keyed) > 50
    outcomes = set()
    for n, i in enumerate(keyed):
        f = tmp_path / f"without-{i}.toml"
        f.write_text("\n".join(lines[:i] + lines[i + 1 :]) + "\n")
        # every key under simulate, every other key under games too: both read the whole rules record
        for argv in (["simulate", "--hands", "16"], ["games", "--games", "1"])[: 1 + n % 2]:
            code, out, err = run(capsys, *argv, "--variant", str(f))
            assert code in (0, 2), (lines[i], err)
            assert code == 0 or len(err.strip().splitlines()) == 1, (lines[i], err)
            assert "nan" not in out.lower(), (lines[i], out)
            outcomes.add(code)
    assert outcomes == {0, 2}
