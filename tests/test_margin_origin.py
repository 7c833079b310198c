"""Where a system's bidding margin comes from, and the warning for an inherited one (variants/margin.py)."""

from __future__ import annotations

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
    return _file(tmp_path, "house.toml", 'extends = "partnership-auction"\nid = "house"\n'
                 "[auction]\nmin_bid = 250\n[play]\nlead = \"bidder\"\n")


def test_a_file_changing_bidding_and_play_keys_is_warned_about_by_name(house):
    origin = load_variant(house).margin_origin
    assert origin.margin == -0.1 and origin.set_by == "partnership-auction" and origin.inherited
    assert origin.changed == ("auction.min_bid", "play.lead")
    assert origin.warning.startswith(f"pinochle: warning: {house} changes auction.min_bid, play.lead but keeps ")
    assert "\n" not in origin.warning and "--tune-margin" in origin.warning
    assert origin.describe() == ("margin -0.1, inherited from partnership-auction (tuned for its rules, not "
                                 "for auction.min_bid, play.lead)")


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


def test_no_shipped_system_is_warned_about():
    """Each shipped file that extends another and changes its bidding sets its own tuned margin."""
    for vid in shipped_ids():
        origin = load_variant(vid).margin_origin
        assert origin.warning is None, origin.warning
    assert load_variant("two-hand").margin_origin.describe() == "margin 0, the default (never tuned for these rules)"


def test_a_margin_tuned_now_replaces_the_inherited_one_and_says_how_it_was_found(house):
    from analyses.bid_tuning import DuelError, tune_margin, with_tuned_margin

    variant = load_variant(house)
    tuned = with_tuned_margin(variant, seed=3, size=2_000)
    search = tune_margin(variant, 2_000, 3, 0.1)  # the same search, run again: the same answer
    assert tuned.get("policy.margin") == search.attrs["margin"]
    assert {k: v for k, v in tuned.values.items() if k != "policy.margin"} == \
        {k: v for k, v in variant.values.items() if k != "policy.margin"}
    origin = tuned.margin_origin
    assert origin.set_by == "--tune-margin" and origin.warning is None and origin.file == house
    assert origin.describe().startswith(f"margin {search.attrs['margin']:g}, tuned now for these rules (from -0.1 "
                                        "in steps of 0.1, ")
    assert "2,000 deals a seating, seed 3, " in origin.describe()
    with pytest.raises(DuelError):
        with_tuned_margin(load_variant("two-hand"))
