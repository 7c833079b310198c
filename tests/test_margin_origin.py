"""Where a system's bidding margin comes from, and the warning for an inherited one (variants/margin.py)."""

from __future__ import annotations

import json

import pytest

from simcore.variants import load_variant
from simcore.variants.loader import shipped_ids


def _file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def house(tmp_path) -> str:
    """Partnership auction bid from 250 with the bidder leading, its margin inherited (-0.1)."""
    return _file(
        tmp_path,
        "house.toml",
        'extends = "partnership-auction"\nid = "house"\n[auction]\nmin_bid = 250\n[play]\nlead = "bidder"\n',
    )


def test_a_file_changing_bidding_and_play_keys_is_warned_about_by_name(house):
    origin = load_variant(house).margin_origin
    assert origin.margin == -0.1 and origin.set_by == "partnership-auction" and origin.inherited
    assert origin.changed == ("auction.min_bid", "play.lead")
    assert origin.warning.startswith(f"pinochle: warning: {house} changes auction.min_bid, play.lead but keeps ")
    assert "\n" not in origin.warning and "--tune-margin" in origin.warning
    assert origin.describe() == (
        "margin -0.1, inherited from partnership-auction (tuned for its rules, not for auction.min_bid, play.lead)"
    )


def test_meld_changes_and_values_equal_to_the_parents_are_not_changes(tmp_path):
    meld = _file(tmp_path, "meld.toml", 'extends = "four-hand-150"\nid = "m"\n[meld]\ndouble_pinochle = 300\n')
    same = _file(tmp_path, "same.toml", 'extends = "partnership-auction"\nid = "s"\n[auction]\nmin_bid = 100\n')
    for path in (meld, same):
        origin = load_variant(path).margin_origin
        assert origin.inherited and origin.changed == () and origin.warning is None
    assert load_variant(meld).margin_origin.describe() == "margin 0.35, inherited from four-hand-150"


def test_a_file_that_sets_its_own_margin_or_a_set_margin_is_not_warned_about(tmp_path, house):
    own = _file(tmp_path, "own.toml", f'extends = "{house}"\nid = "own"\n[policy]\nmargin = 0.0\n')
    origin = load_variant(own).margin_origin
    assert origin.set_by == own and not origin.inherited and origin.warning is None
    assert origin.describe() == f"margin 0, set in {own}"
    origin = load_variant(house, ["policy.margin=0.2"]).margin_origin
    assert origin.set_by == "--set" and origin.warning is None and origin.describe() == "margin 0.2, set by --set"


def test_a_margin_two_files_down_counts_the_changes_of_both_files_above_it(tmp_path, house):
    top = _file(tmp_path, "top.toml", f'extends = "{house}"\nid = "top"\n[scoring]\nbid_added = true\n')
    origin = load_variant(top).margin_origin
    assert origin.set_by == "partnership-auction"
    assert "auction.min_bid" in origin.changed and "play.lead" in origin.changed


def test_set_changes_are_named_but_not_warned_about():
    origin = load_variant("four-hand-150", ["auction.min_bid=25"]).margin_origin
    assert origin.changed == ("auction.min_bid",) and origin.warning is None
    assert origin.describe() == "margin 0.35, tuned for four-hand-150 before --set auction.min_bid"


def test_a_file_inheriting_a_margin_is_warned_about_its_own_changes_only(tmp_path, house):
    meld = _file(tmp_path, "meld.toml", 'extends = "four-hand-150"\nid = "m"\n[meld]\ndouble_pinochle = 300\n')
    origin = load_variant(meld, ["auction.min_bid=25"]).margin_origin
    assert origin.changed == ("auction.min_bid",) and origin.by_set == ("auction.min_bid",)
    assert origin.warning is None
    assert "(tuned for its rules, not for auction.min_bid)" in origin.describe()
    origin = load_variant(house, ["scoring.bid_added=true"]).margin_origin
    assert "changes auction.min_bid, play.lead but keeps" in origin.warning


def test_no_shipped_system_is_warned_about():
    """Each shipped file that extends another and changes its bidding sets its own tuned margin."""
    for vid in shipped_ids():
        origin = load_variant(vid).margin_origin
        assert origin.warning is None, origin.warning
    assert load_variant("two-hand").margin_origin.describe() == "margin 0, the default (never tuned for these rules)"


def test_a_margin_tuned_now_replaces_the_inherited_one_and_says_how_it_was_found(house):
    from analyses.bid_tuning import tune_margin, with_tuned_margin
    from simcore.variants import NotForThisSystem

    variant = load_variant(house)
    tuned = with_tuned_margin(variant, seed=3, size=2_000)
    search = tune_margin(variant, 2_000, 3, 0.1)  # the same search, run again: the same answer
    assert tuned.get("policy.margin") == search.attrs["margin"]
    assert {k: v for k, v in tuned.values.items() if k != "policy.margin"} == {
        k: v for k, v in variant.values.items() if k != "policy.margin"
    }
    origin = tuned.margin_origin
    assert origin.set_by == "--tune-margin" and origin.warning is None and origin.file == house
    assert origin.describe().startswith(
        f"margin {search.attrs['margin']:g}, tuned now for these rules (from -0.1 in steps of 0.1, "
    )
    assert "2,000 deals a seating, seed 3, " in origin.describe()
    with pytest.raises(NotForThisSystem):  # no auction: nothing to tune
        with_tuned_margin(load_variant("two-hand"))


def _cli(capsys, *argv):
    from simcore.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bid_odds_warns_once_and_says_which_margin_it_used(capsys, house):
    code, out, err = _cli(
        capsys, "bid-odds", "--variant", house, "--hands", "2000", "--bid", "250", "--meld", "60", "--no-store"
    )
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert code == 0 and len(warnings) == 1 and warnings[0].startswith(f"pinochle: warning: {house} changes ")
    assert out.rstrip().endswith(
        "margin -0.1, inherited from partnership-auction (tuned for its rules, not for auction.min_bid, play.lead)"
    )


def test_tune_margin_tunes_before_the_answer_and_says_so(capsys, house):
    code, out, err = _cli(
        capsys,
        "bid-odds",
        "--variant",
        house,
        "--hands",
        "2000",
        "--bid",
        "250",
        "--meld",
        "60",
        "--no-store",
        "--tune-margin",
    )
    assert code == 0 and "warning" not in err and "tuning the bidding margin for house" in err
    assert ", tuned now for these rules (from -0.1 in steps of 0.1, " in out and " s)" in out


def test_compare_states_whether_a_and_b_share_a_margin(capsys, house):
    code, out, _ = _cli(capsys, "compare", "partnership-auction", house, "--hands", "500", "--no-store")
    assert code == 0
    assert out.splitlines()[1] == (
        "bidding: A and B bid with the same margin, -0.1 (A: margin -0.1, tuned for partnership-auction; B: margin "
        "-0.1, inherited from partnership-auction (tuned for its rules, not for auction.min_bid, play.lead)); "
        "--tune-margin tunes each for its own rules"
    )
    code, out, _ = _cli(
        capsys, "compare", "partnership-auction", house, "--hands", "500", "--no-store", "--tune-margin"
    )
    line = out.splitlines()[1]
    assert code == 0 and "(A: margin -0.1, tuned for partnership-auction; B: margin " in line
    assert "tuned now for these rules" in line and "--tune-margin tunes" not in line
    code, out, _ = _cli(capsys, "compare", "--question", "pass-3-vs-4", "--hands", "500", "--no-store", "--json")
    assert "before --set exchange.pass_cards" in json.loads(out)["margins"]["b"]


def test_tune_margin_is_refused_with_the_strong_play_page(capsys):
    code, _, err = _cli(capsys, "report", "--tune-margin", "--strong-play")
    assert code == 2 and "not with --strong-play" in err and len(err.strip().splitlines()) == 1
