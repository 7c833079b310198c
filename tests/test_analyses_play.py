"""The play analyses: how high to bid (analyses/bid_strategy.py) and what partner's pass is worth
(analyses/partner.py). Small, seeded runs."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analyses import bid_strategy as bs
from analyses import partner as pt
from analyses.section import Section, Sizes
from simcore.kernels import hand_record as h
from simcore.run.stats import wilson
from simcore.variants import load_variant

MAKE_COLUMNS = ["hands", "made", "p_make", "lo", "hi"]


@pytest.fixture(scope="module")
def four_hand_records():
    v = load_variant("four-hand-150")
    return v, bs.records_for(v, 20_000, seed=3)


def _records(rows: list[dict]) -> np.ndarray:
    out = np.zeros((len(rows), h.N_FIELDS), dtype=np.int64)
    for i, row in enumerate(rows):
        for name, value in row.items():
            out[i, h.FIELDS.index(name)] = value
    return out


def test_make_table_has_its_columns_intervals_and_every_hand(four_hand_records):
    v, rec = four_hand_records
    for by in [("side_meld", "trump_len"), ("aces",), ("bid",), ("bidder_meld", "aces")]:
        table = bs.make_table(rec, v, by)
        assert list(table.columns) == [*by, *MAKE_COLUMNS]
        assert (table["lo"] <= table["p_make"]).all() and (table["p_make"] <= table["hi"]).all()
        assert (table["made"] <= table["hands"]).all() and (table["hands"] > 0).all()
        # every hand with a bidder lands in exactly one group, and the made counts add up
        assert table["hands"].sum() == (rec[:, h.F_BIDDER] >= 0).sum()
        assert table["made"].sum() == (rec[:, h.F_MADE] == 1).sum()
    assert bs.make_table(rec, v).attrs["bin_widths"] == {"side_meld": 1, "trump_len": 1}


def test_meld_bins_follow_the_scale_of_each_system():
    assert bs.point_bin_width(load_variant("four-hand-150")) == 1  # 25 trick points
    assert bs.point_bin_width(load_variant("partnership-auction")) == 10  # 250, meld in tens
    v = load_variant("double-deck")
    rec = bs.records_for(v, 3_000, seed=5)
    table = bs.make_table(rec, v, ("side_meld",))
    assert (table["side_meld"] % bs.point_bin_width(v) == 0).all()
    lost = ((rec[:, h.F_BIDDER] >= 0) & (rec[:, h.F_OUTCOME] == h.NO_TRUMP_MARRIAGE)).sum()
    assert table["hands"].sum() == (rec[:, h.F_BIDDER] >= 0).sum() - lost  # no meld recorded: left out


def test_make_rate_rises_with_meld(four_hand_records):
    v, rec = four_hand_records
    table = bs.make_table(rec, v, ("side_meld",))
    solid = table[table["hands"] >= 100]
    assert solid["side_meld"].max() - solid["side_meld"].min() >= 15  # a wide enough spread to judge
    rho = solid["side_meld"].rank().corr(solid["p_make"].rank())
    assert rho > 0.9
    low, high = (
        solid[solid["side_meld"] <= solid["side_meld"].quantile(0.25)],
        solid[solid["side_meld"] >= solid["side_meld"].quantile(0.75)],
    )
    p_low = wilson(int(low["made"].sum()), int(low["hands"].sum()))
    p_high = wilson(int(high["made"].sum()), int(high["hands"].sum()))
    assert p_low.hi < p_high.lo


def test_side_total_reproduces_every_played_outcome():
    for vid in ("four-hand-150", "partnership-auction", "double-deck", "auction"):
        v = load_variant(vid)
        # auction's opener forfeits most compulsory 300s unseen: four times the hands for as many played
        rec = bs.records_for(v, 12_000 if vid == "auction" else 3_000, seed=7)
        played = rec[(rec[:, h.F_BIDDER] >= 0) & (rec[:, h.F_OUTCOME] == h.PLAYED)]
        assert len(played) > 1_000
        made = bs.side_total(played, v) >= played[:, h.F_BID]
        assert (made == (played[:, h.F_MADE] == 1)).all(), vid


def test_highest_bid_counts_totals_and_hands_given_up():
    v = load_variant("four-hand-150")  # minimum bid 20, steps of one
    rows = [
        {"bidder": 0, "bid": 30, "outcome": h.PLAYED, "bidder_meld": 5, "side_meld": 10, "side_tricks": 10 + k % 10}
        for k in range(100)
    ]  # side totals 20..29, ten hands each
    table = bs.highest_bid_table(_records(rows), v, odds=(0.5, 0.75), min_hands=10)
    row = table.iloc[0]
    assert row["bidder_meld"] == 5 and row["hands"] == 100 and row["given_up"] == 0
    assert row["bid_50"] == 25 and row["p_50"] == pytest.approx(0.5)  # P(total >= 25) = 5/10
    assert row["bid_75"] == 22 and row["p_75"] == pytest.approx(0.8)  # P(total >= 23) = 0.7 < 0.75
    assert row["bid_50_lo"] <= row["bid_50"] <= row["bid_50_hi"]
    # twenty hands given up at 24: failures at 24 and above, unknown (left out) below
    rows += [{"bidder": 0, "bid": 24, "outcome": h.CONCEDED, "bidder_meld": 5, "side_meld": 10}] * 20
    row = bs.highest_bid_table(_records(rows), v, min_hands=10).iloc[0]
    assert row["given_up"] == 20
    assert row["bid_50"] == 24 and row["p_50"] == pytest.approx(60 / 120)
    assert row["bid_75"] == 22 and row["p_75"] == pytest.approx(0.8)


def test_highest_bid_and_rule_of_thumb_rise_with_meld(four_hand_records):
    v, rec = four_hand_records
    table = bs.highest_bid_table(rec, v)
    for q in ("50", "75"):
        assert {f"bid_{q}", f"bid_{q}_lo", f"bid_{q}_hi", f"p_{q}", f"line_{q}"} <= set(table.columns)
        ok = table[table[f"bid_{q}"].notna()]
        assert (ok[f"bid_{q}_lo"] <= ok[f"bid_{q}"]).all() and (ok[f"bid_{q}"] <= ok[f"bid_{q}_hi"]).all()
        assert (ok[f"p_{q}"] >= int(q) / 100).all()
    both = table.dropna(subset=["bid_50", "bid_75"])
    assert (both["bid_75"] <= both["bid_50"]).all()
    rule = bs.bid_rule_of_thumb(rec, v, table)
    assert set(rule) >= {"a", "b", "line_rmse", "hand_spread"}
    assert rule["b"] > 0.3  # every point of meld is worth bidding for
    assert 0 < rule["line_rmse"] < rule["hand_spread"]  # single hands scatter more than the bin medians
    central = bs.central_rows(table, 1)
    assert central["bid_50"].iloc[-1] - central["bid_50"].iloc[0] >= 10


def test_no_auction_is_refused():
    with pytest.raises(ValueError, match="no auction"):
        bs.records_for(load_variant("partnership"), 100, seed=1)
    with pytest.raises(ValueError, match="no auction"):
        pt.partner_contribution(load_variant("partnership"), 100, seed=1)


def test_the_pass_adds_meld_in_four_hand_150():
    table = pt.partner_contribution(load_variant("four-hand-150"), 3_000, seed=11)
    assert list(table.columns) == pt.COLUMNS
    rows = table.set_index("measure")
    assert (table["lo"] <= table["mean"]).all() and (table["mean"] <= table["hi"]).all()
    meld = rows.loc["bidding side meld"]
    assert meld["part"] == "pass" and meld["n"] == 3_000 and meld["lo"] > 0
    assert meld["mean"] == pytest.approx(meld["with_pass"] - meld["without_pass"])
    assert rows.loc["partner's meld (side meld − bidder's)", "lo"] > 0
    assert rows.loc["exchange's gain to the bidder's meld", "lo"] > 0  # he is passed cards that meld
    side = rows.loc["bidding side's meld", "mean"]
    parts = rows.loc[["bidder's meld after the exchange", "partner's meld (side meld − bidder's)"], "mean"]
    assert side == pytest.approx(parts.sum())


def test_no_pass_comparison_without_a_pass_or_a_partner():
    table = pt.partner_contribution(load_variant("double-deck"), 2_000, seed=11)
    passed = table[table["part"] == "pass"]
    assert len(passed) == len(pt.PASS_MEASURES) and passed["mean"].isna().all()
    assert (passed["note"] == "partners pass no cards in double-deck").all()  # a player's words, not a rules key
    holding = table[table["part"] == "holding"].set_index("measure")
    assert holding["mean"].notna().all()
    assert holding.loc["exchange's gain to the bidder's meld", "mean"] == 0  # nothing is exchanged

    alone = pt.partner_contribution(load_variant("auction"), 2_000, seed=11).set_index("measure")
    assert math.isnan(alone.loc["partner's meld (side meld − bidder's)", "mean"])
    assert "no partner" in alone.loc["partner's meld (side meld − bidder's)", "note"]
    assert alone.loc[[m for m, _ in pt.PASS_MEASURES], "mean"].isna().all()
    assert not pt.has_pass(load_variant("auction")) and pt.has_pass(load_variant("four-hand-150"))


@pytest.mark.parametrize(
    "module, variant", [(bs, "four-hand-150"), (bs, "auction"), (pt, "four-hand-150"), (pt, "double-deck")]
)
def test_section_returns_text_tables_and_figures(module, variant):
    sec = module.section(load_variant(variant), Sizes.small(), seed=2)
    try:
        assert isinstance(sec, Section) and sec.title and variant in sec.text
        assert sec.tables and all(isinstance(t, pd.DataFrame) and len(t) for t in sec.tables.values())
        assert sec.figures and all(isinstance(f, Figure) for f in sec.figures.values())
        assert all(f.axes[0].get_xlabel() for f in sec.figures.values())
        assert "nan" not in sec.text.lower()
    finally:
        for f in sec.figures.values():
            plt.close(f)


def test_a_partner_chart_without_a_pass_has_no_empty_panel():
    table = pt.partner_contribution(load_variant("double-deck"), 2_000, seed=11)
    fig = pt.plot_partner(table)
    try:
        assert len(fig.axes) == 1  # what the bidding side holds; nothing drawn for a pass there is not
        assert "partners pass no cards in double-deck" in fig._suptitle.get_text()
        assert "pass_cards" not in fig._suptitle.get_text()
    finally:
        plt.close(fig)


@pytest.mark.parametrize("vid, no_ace_line", [("four-hand-150", True), ("double-deck", False)])
def test_make_by_aces_reads_in_percent_with_its_no_ace_line_or_why_not(vid, no_ace_line):
    from pathlib import Path

    table = pd.read_csv(Path(__file__).parent.parent / "reports" / f"{vid}-make_by_meld_and_aces.csv")
    table.attrs.update(variant=vid, bin_widths={"side_meld": bs.point_bin_width(load_variant(vid)), "aces": 1})
    fig = bs.plot_make_by_aces(table)
    try:
        ax = fig.axes[0]
        assert "(%)" in ax.get_ylabel() and ax.get_ylim()[1] > 100
        label = ax.get_xlabel()  # the side's meld, told apart from the card's in plain words
        assert "both partners together" in label and "not the bidding card's meld" in label
        assert "(the card:" not in label
        drawn = [line for line in ax.get_lines() if len(line.get_xdata())]
        assert max(max(line.get_ydata()) for line in drawn) > 90  # percentages, not shares of one
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any(label.startswith("0 aces (") for label in labels) == no_ace_line
        assert any(label.startswith("no aces: no line") for label in labels) != no_ace_line
    finally:
        plt.close(fig)
