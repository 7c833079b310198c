"""Rare melds and meld distributions (analyses/rare_melds.py, analyses/meld_distribution.py)."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from analyses import meld_distribution as md
from analyses import rare_melds as rm
from analyses.section import Section, Sizes
from simcore.cards import N_SUITS
from simcore.kernels.deal import deal_hands
from simcore.kernels.rng import chunk_states
from simcore.reference.meld import reference_total
from simcore.variants import load_variant

HANDS = 40_000
SEED = 7


@pytest.fixture(scope="module")
def four_hand():
    return load_variant("four-hand-150")


def _inside(frame, est, lo, hi, exact):
    """(rows with an exact value, rows whose interval holds it, largest distance in standard errors)."""
    known = frame[frame[exact].notna()]
    inside = (known[lo] <= known[exact]) & (known[exact] <= known[hi])
    se = ((known[hi] - known[lo]) / (2 * 1.96)).clip(lower=1e-12)
    return len(known), int(inside.sum()), float(((known[est] - known[exact]).abs() / se).max())


# --- rare melds -------------------------------------------------------------------------------


def test_rare_meld_table_has_every_column_and_honest_intervals(four_hand):
    table = rm.rare_meld_table(four_hand, HANDS, SEED)
    assert list(table.columns) == list(rm.COLUMNS)
    assert {"double-pinochle", "five-nines", "redeal", "double-run"} <= set(table["event"])
    assert ((table["per_hand_lo"] <= table["per_hand"]) & (table["per_hand"] <= table["per_hand_hi"])).all()
    for scope in ("per_hand", "per_deal"):
        known, inside, worst = _inside(table, scope, f"{scope}_lo", f"{scope}_hi", f"{scope}_exact")
        assert known >= 4
        assert inside >= 0.8 * known and worst < 4, (scope, known, inside, worst)
    # "1 in N" is the exact odds where known, the simulated ones otherwise
    row = table.set_index("event").loc["double-pinochle"]
    assert row["one_in_hand"] == pytest.approx(1 / row["per_hand_exact"])
    assert row["one_in_deal"] == pytest.approx(1 / row["per_deal_exact"])
    run = table.set_index("event").loc["run"]
    assert math.isnan(run["per_deal_exact"])  # two hands can share it, and it has 20 card types
    assert run["one_in_deal"] == pytest.approx(1 / run["per_deal"])


def test_events_that_cannot_happen_under_the_rules_are_left_out():
    partnership = rm.rare_meld_table(load_variant("partnership"), 4_000, SEED)
    assert "redeal" not in set(partnership["event"]) and "five-nines" in set(partnership["event"])
    no_nines = rm.rare_meld_table(load_variant("double-deck"), 4_000, SEED)
    assert not {"redeal", "five-nines"} & set(no_nines["event"])
    assert "double-pinochle" in set(no_nines["event"])
    # two hands can both hold double pinochle from four copies: the per-deal count is exact all the same
    assert no_nines["per_deal_exact"].notna().loc[no_nines["event"] == "double-pinochle"].all()


def test_all_systems_table_stacks_the_systems():
    table = rm.all_systems_table(4_000, SEED, variants=["four-hand-150", "double-deck"])
    assert list(table.columns) == ["variant", *rm.COLUMNS]
    assert list(table["variant"].unique()) == ["four-hand-150", "double-deck"]


def test_rare_melds_section_answers_the_double_pinochle_question(four_hand):
    sec = rm.section(four_hand, Sizes(dealt=HANDS), seed=SEED)
    assert isinstance(sec, Section) and sec.title == "Rare melds"
    assert sec.figures and all(isinstance(f, Figure) for f in sec.figures.values())
    odds = math.comb(48, 12) / math.comb(44, 8)  # hands with both Q♠ and both J♦: C(44, 8) of C(48, 12)
    assert "double pinochle" in sec.text and f"1 in {odds:,.0f} hands exactly" in sec.text
    for fig in sec.figures.values():
        plt.close(fig)


# --- meld distribution ------------------------------------------------------------------------


def test_own_hand_distribution_matches_the_exact_one(four_hand):
    own = md.own_hand_distribution(four_hand, HANDS, SEED)
    assert list(own.columns) == [
        "meld",
        "share_best",
        "share_best_lo",
        "share_best_hi",
        "exact_best",
        "share_fixed",
        "share_fixed_lo",
        "share_fixed_hi",
        "exact_fixed",
    ]
    for col in ("share_best", "exact_best", "share_fixed", "exact_fixed"):
        assert own[col].sum() == pytest.approx(1.0)
    for key in ("best", "fixed"):
        rows = own[own[f"exact_{key}"] > 0.001]
        known, inside, worst = _inside(rows, f"share_{key}", f"share_{key}_lo", f"share_{key}_hi", f"exact_{key}")
        assert known >= 15
        assert inside >= 0.85 * known and worst < 4.5, (key, known, inside, worst)
        # the bulk of the distribution, in total variation distance
        assert 0.5 * (own[f"share_{key}"] - own[f"exact_{key}"]).abs().sum() < 0.02
    # impossible values are never dealt
    assert (own.loc[own["exact_best"] == 0, "share_best"] == 0).all()
    assert (own.loc[own["exact_fixed"] == 0, "share_fixed"] == 0).all()


def test_summary_means_hold_the_exact_means_and_partners_meld_more(four_hand):
    stats = md.summary(four_hand, HANDS, SEED).set_index("measure")
    assert list(stats.columns) == [
        "count",
        "mean",
        "mean_lo",
        "mean_hi",
        "mean_exact",
        "q10",
        "q25",
        "q50",
        "q75",
        "q90",
    ]
    best, fixed, pair = (stats.loc[m] for m in md.MEASURES)
    for row in (best, fixed):
        assert row["mean_lo"] <= row["mean_exact"] <= row["mean_hi"]
    assert fixed["mean"] < best["mean"]
    # every hand is in one partnership, and the pair's best trump gives each hand at most its own
    # best and the pair at least the better hand's best: so these hold exactly, not just on average
    assert best["mean"] <= pair["mean"] <= 2 * best["mean"]
    assert pair["count"] == best["count"] / 2 and math.isnan(pair["mean_exact"])
    assert (np.diff(stats.loc[:, ["q10", "q25", "q50", "q75", "q90"]].to_numpy(), axis=1) >= 0).all()


def test_tallies_agree_with_the_reference_scorer_hand_by_hand(four_hand):
    """The kernel's histograms against the pure-Python scorer on the same seeded deals (one chunk)."""
    hands = 2_000
    own = md.own_hand_distribution(four_hand, hands, SEED, exact=False)
    pair = md.partnership_distribution(four_hand, hands, SEED)
    deals = deal_hands(four_hand.deck_cards, 4, four_hand.hand_size, chunk_states(SEED, [0])[0], hands // 4)
    best, fixed, pairs = [], [], []
    for deal in deals:
        melds = [[reference_total(deal[p], t, four_hand) for t in range(N_SUITS)] for p in range(4)]
        best += [max(m) for m in melds]
        fixed += [m[md.FIXED_TRUMP] for m in melds]
        pairs += [max(melds[s][t] + melds[s + 2][t] for t in range(N_SUITS)) for s in range(2)]
    for values, frame, col in ((best, own, "share_best"), (fixed, own, "share_fixed"), (pairs, pair, "share")):
        counted = dict(zip(frame["meld"], np.rint(frame[col] * len(values)).astype(int)))
        expected = {m: values.count(m) for m in set(values)}
        assert {m: n for m, n in counted.items() if n} == expected, col


def test_partnership_distribution_columns_and_seats(four_hand):
    pair = md.partnership_distribution(four_hand, HANDS, SEED)
    assert list(pair.columns) == ["meld", "share", "share_lo", "share_hi"]
    assert pair["share"].sum() == pytest.approx(1.0)
    assert ((pair["share_lo"] <= pair["share"]) & (pair["share"] <= pair["share_hi"])).all()
    with pytest.raises(ValueError, match="pair off"):
        md.partnership_distribution(load_variant("five-hand-cutthroat"), 1_000, SEED)


@pytest.mark.parametrize("variant_id", ["four-hand-150", "five-hand-cutthroat"])
def test_meld_distribution_section(variant_id):
    sec = md.section(load_variant(variant_id), Sizes(dealt=20_000), seed=SEED)
    assert isinstance(sec, Section) and sec.title == "Meld distribution"
    assert sec.figures and all(isinstance(f, Figure) for f in sec.figures.values())
    assert ("meld_partnership" in sec.tables) == (variant_id == "four-hand-150")
    assert "best trump" in sec.text and "exact" in sec.text
    for fig in sec.figures.values():
        plt.close(fig)
