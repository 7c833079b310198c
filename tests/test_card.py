"""The player's card and the numbers it prints: every bidding row, a bid that never goes down as meld
goes up (pooled neighbours, marked), odds worded for people near certainty, and a rule of thumb whose
digits do not depend on the machine. Hands and tables worked out by hand; no simulation."""

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analyses import bid_strategy as bs
from analyses import card, rare_melds
from simcore.kernels import hand_record as h
from simcore.variants import load_variant


def test_pooling_merges_only_the_rows_that_go_down():
    # values 30, 28, 33: the first two are pooled; read together (say) they give 29
    calls = []

    def pool(a, b):
        calls.append((a, b))
        return 29.0

    assert bs.pooled_blocks([30.0, 28.0, 33.0], pool) == [(0, 1), (2, 2)]
    assert calls == [(0, 1)]
    # already monotone: nothing pooled, pool never asked
    assert bs.pooled_blocks([1.0, 1.0, 2.0], lambda a, b: pytest.fail("pooled")) == [(0, 0), (1, 1), (2, 2)]


def test_pooling_cascades_backwards_and_pass_counts_as_lowest():
    values = {(1, 2): 20.0, (0, 2): 21.0}  # 25 | 30 20 -> 25 | 20 (pooled) -> pool all three

    assert bs.pooled_blocks([25.0, 30.0, 20.0], lambda a, b: values[(a, b)]) == [(0, 2)]
    # a "pass" (NaN) after a bid goes down: pooled; before one it does not
    assert bs.pooled_blocks([math.nan, 20.0], lambda a, b: pytest.fail("pooled")) == [(0, 0), (1, 1)]
    assert bs.pooled_blocks([20.0, math.nan], lambda a, b: 20.0) == [(0, 1)]


def _records(rows):
    out = np.zeros((len(rows), h.N_FIELDS), dtype=np.int64)
    for i, row in enumerate(rows):
        for name, value in row.items():
            out[i, h.FIELDS.index(name)] = value
    return out


def test_pooled_bid_is_read_from_the_pooled_hands():
    v = load_variant("four-hand-150")  # minimum bid 20, steps of one, bins of one point
    # meld 5: side totals 20..29 (ten hands each): 50% line 25. Meld 6: totals 20..27: 50% line 24.
    # Pooled: 180 hands, P(total >= 24) = (60 + 40) / 180 >= 0.5, P(>= 25) = (50 + 30) / 180 < 0.5: 24.
    rows = [
        {"bidder": 0, "bid": 30, "outcome": h.PLAYED, "bidder_meld": 5, "side_meld": 10, "side_tricks": 10 + k % 10}
        for k in range(100)
    ]
    rows += [
        {"bidder": 0, "bid": 30, "outcome": h.PLAYED, "bidder_meld": 6, "side_meld": 10, "side_tricks": 10 + k % 8}
        for k in range(80)
    ]
    table = bs.highest_bid_table(_records(rows), v, odds=(0.5,), min_hands=10)
    assert list(table["bid_50"]) == [25, 24]
    assert list(table["bid_50_pooled"]) == [24, 24] and list(table["pool_50"]) == [5, 5]
    cells = [
        r["bid made 50% of the time"]
        for r in bs.bidding_card(table.assign(bid_75=math.nan, bid_75_lo=math.nan, bid_75_hi=math.nan))
    ]
    assert all(c.startswith("24") and c.endswith(bs.POOLED_MARK) for c in cells)


def test_split_rows_keeps_every_row_in_order():
    rows = [{"meld": i} for i in range(51)]
    parts = card.split_rows(rows, 18)
    assert len(parts) == 3 and [len(p) for p in parts] == [17, 17, 17]
    assert [r for p in parts for r in p] == rows
    assert card.split_rows(rows[:18], 18) == [rows[:18]]
    assert [len(p) for p in card.split_rows(rows[:30], 18)] == [15, 15]


def test_odds_near_certainty_read_as_shares():
    assert rare_melds.odds_cell(0.98535, 0.98, 0.99, 0.985349) == "almost always (98.5%)"
    assert rare_melds.odds_cell(0.997, 0.996, 0.998, math.nan) == "≈ almost always (99.7% [99.6–99.8%])"
    assert rare_melds.odds_cell(0.99996, 0.9999, 1.0, 0.99996) == "almost always (99.996%)"
    assert rare_melds.odds_cell(0.589, 0.588, 0.590, 0.58906) == "59%"
    assert rare_melds.odds_cell(1 / 393, 1 / 400, 1 / 380, 1 / 393.2) == "1 in 393"
    assert rare_melds.odds_cell(0.0, 0.0, 1e-6, math.nan).startswith("≈ never seen")


def test_a_rare_deal_is_the_exact_hand_odds_times_the_players():
    # double run in four-hand-150: 1 in 24,775,439 hands exactly, never seen in a simulation of deals
    row = SimpleNamespace(
        per_deal=0.0, per_deal_lo=0.0, per_deal_hi=3.8e-6, per_deal_exact=math.nan, per_hand_exact=1 / 24_775_439
    )
    assert rare_melds.deal_cell(row, 4) == "1 in 6,193,860" + rare_melds.FROM_HAND_MARK
    # a common event with no exact per-deal value stays simulated
    row = SimpleNamespace(
        per_deal=0.143, per_deal_lo=0.142, per_deal_hi=0.144, per_deal_exact=math.nan, per_hand_exact=0.0383
    )
    assert rare_melds.deal_cell(row, 4).startswith("≈ 1 in 6.99")


def test_rule_of_thumb_line_matches_least_squares_and_is_rounded():
    rng = np.random.default_rng(5)
    x = np.arange(1.0, 31.0) + rng.random(30) / 3
    y = 25.7 + 0.8 * x + rng.normal(0, 1, 30)
    w = rng.integers(50, 20_000, 30).astype(float)
    a, b = bs.weighted_line(x, y, w)
    design = np.column_stack([np.ones_like(x), x]) * np.sqrt(w)[:, None]
    (a_ls, b_ls), *_ = np.linalg.lstsq(design, y * np.sqrt(w), rcond=None)
    assert a == pytest.approx(a_ls, abs=1e-6) and b == pytest.approx(b_ls, abs=1e-6)
    assert a == round(a, bs.FIT_DIGITS) and b == round(b, bs.FIT_DIGITS)
    # the exact line through three points
    assert bs.weighted_line(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0]), np.ones(3)) == (1.0, 2.0)


def test_bidding_notes_explain_pass_and_pooling():
    v = load_variant("double-deck")
    table = pd.DataFrame({"bidder_meld": [8], "hands": [100]})
    table.attrs.update(bin_width=2, bidders=200)
    rows = [
        {
            "your meld as dealt": "8–9",
            "bid made 50% of the time": "pass",
            "bid made 75% of the time": "55*",
            "hands": "100",
        }
    ]
    notes = " ".join(card.bidding_notes(v, {"highest_bid": table}, rows))
    assert "every meld from 8 to 9 points in steps of 2" in notes and "50% of bidders" in notes
    assert '"pass": even the minimum bid (50)' in notes
    assert bs.POOLED_NOTE in notes


def _committed_tables(vid: str) -> dict[str, pd.DataFrame]:
    from pathlib import Path

    reports = Path(__file__).parent.parent / "reports"
    tables = {k: pd.read_csv(reports / f"{vid}-{k}.csv") for k in ("highest_bid", "rare_melds", "rule_of_thumb")}
    tables["highest_bid"].attrs.update(bin_width=bs.point_bin_width(load_variant(vid)), odds=(0.5, 0.75))
    tables["rare_melds"].attrs.update(players=load_variant(vid).players)
    return tables


@pytest.mark.parametrize("vid", ["double-deck", "four-hand-150"])
def test_the_printed_card_draws_every_bidding_row(vid):
    from matplotlib.table import Table

    from analyses.section import Section

    v = load_variant(vid)
    tables = _committed_tables(vid)
    fig = card.plot_card(v, [Section("t", "", tables)], "played by")
    drawn = [
        c.get_text().get_text()
        for ax in fig.axes
        for child in ax.get_children()
        if isinstance(child, Table)
        for (i, j), c in child.get_celld().items()
        if j == 0 and i > 0
    ]
    rows = bs.bidding_card(tables["highest_bid"])
    assert len(rows) > 22  # more than the old card's one-page cut
    for r in rows:
        assert r["your meld as dealt"] in drawn


@pytest.mark.parametrize("rows", [12, 30])
def test_the_bid_chart_sits_on_the_page_beside_one_or_two_columns_of_rows(rows):
    """A card of few meld rows (one column, as a small on-demand card often has) draws its chart beside
    that column, on the page, as one of two columns does."""
    from analyses.section import Section

    v = load_variant("four-hand-150")
    tables = _committed_tables("four-hand-150")
    highest = tables["highest_bid"]
    kept = highest[highest["bidder_meld"] <= rows]
    kept.attrs.update(highest.attrs)
    tables["highest_bid"] = kept
    assert len(card.split_rows(bs.bidding_card(kept))) == (1 if rows <= card.ROWS_PER_COLUMN else 2)
    fig = card.plot_card(v, [Section("t", "", tables)], "played by")
    chart = next(ax for ax in fig.axes if ax.get_ylabel() == "highest bid (points)")
    box = chart.get_position()
    assert 0.5 < box.x0 and box.x1 <= 1 and 0 <= box.y0 < box.y1 <= 1


def test_a_card_links_its_files_as_the_committed_card_does_and_one_made_on_demand_links_none():
    from pathlib import Path

    from analyses.section import Section, Sizes

    v = load_variant("four-hand-150")
    sections = [Section("t", "", _committed_tables("four-hand-150"))]
    committed = (Path(__file__).parent.parent / "reports" / "four-hand-150-card.md").read_text(encoding="utf-8")
    linked = card.card_markdown(
        v, sections, "four-hand-150.md", "four-hand-150-card.png", "four-hand-150-card.pdf", "x"
    )
    assert linked.splitlines()[2] == committed.splitlines()[2]  # "`id` · description. Printable: [PNG](...) ..."
    assert "![bidding card](four-hand-150-card.png)" in linked
    note = card.on_demand_note(Sizes.small(), 1)
    made = card.card_markdown(v, sections, None, None, None, "x", made=note)
    assert made.splitlines()[2] == f"`four-hand-150` · {v.description}." and f"*{note}*" in made
    assert "](" not in made  # no link, no image
    assert "40,000 hands dealt" in note and "4,000 played out" in note


def test_bid_axis_ticks_are_legal_bids_and_not_crowded():
    from matplotlib.figure import Figure

    from analyses.strong_play import legal_ticks

    ax = Figure().subplots()
    ax.set_ylim(58.5, 74.5)  # double-deck: steps of 1 to 60, then of 5
    ladder = set(bs.bid_ladder(load_variant("double-deck"), 80).tolist())
    ticks = legal_ticks(ax, load_variant("double-deck"))
    assert set(ticks.tolist()) <= ladder and list(ticks) == [60, 65, 70]
    ax.set_ylim(95, 430)  # partnership-auction: steps of 10 from 100
    assert list(legal_ticks(ax, load_variant("partnership-auction"))) == [100, 150, 200, 250, 300, 350, 400]


def test_an_event_seen_in_every_simulated_deal_reads_as_how_close_to_always():
    assert rare_melds.odds_cell(1.0, 0.99996, 1.0, math.nan) == "≈ almost always (over 99.996%)"


def test_saved_charts_carry_no_varying_metadata_and_repeat_byte_for_byte(tmp_path):
    from analyses import style

    def draw():
        fig, ax = style.new_figure()
        ax.plot([0, 1], [1, 0], label="a line")
        ax.legend()
        return fig

    for suffix in (".png", ".pdf"):
        first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
        style.save(draw(), first)
        style.save(draw(), second)
        data = first.read_bytes()
        assert data == second.read_bytes()
        assert b"matplotlib" not in data.lower() and b"CreationDate" not in data
