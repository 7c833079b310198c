"""``pinochle bid-odds``'s joint table P(make B | meld M): the tally on hand-made records, its agreement
with the one-way tables and the records of a real run, and the command's filters, JSON, CSV and refusals."""

import io
import json

import numpy as np
import pandas as pd
import pytest

from simcore.answers.bidodds import (
    BASES,
    MELD_BINS,
    TOTAL_BINS,
    bid_odds,
    highest_bid,
    is_bid,
    joint_cells,
    joint_params,
    joint_tally,
    side_totals,
)
from simcore.answers.simulate import hand_records
from simcore.cli import main
from simcore.kernels import hand_record as h
from simcore.kernels.policies import parse_policies
from simcore.variants import layout as lay
from simcore.variants import load_variant

# lowest 100, bids by 10, meld by 10; meld saved by a trick; no minimum meld, bid not added; set
# without play when short by more than 100; no throw-in; four heuristic seats
PARAMS = (100, 10, 10, lay.SAVE_TRICK, 0, 0, 0, 100, 0, -1, 1, 1, 1, 1)


def records(*rows: dict) -> np.ndarray:
    out = np.zeros((len(rows), h.N_FIELDS), dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, h.F_BIDDER] = 0
        for name, value in row.items():
            out[i, h.FIELDS.index(name)] = value
    return out


HANDS = records(
    # made 250 with 80 meld and 190 in tricks: total 270, exact from the score
    dict(bid=250, made=1, bidder_meld=60, side_meld=80, side_tricks=190, side_score=270),
    # set at 200: 90 meld saved (it took trick points) + 70 = 160
    dict(bid=200, made=0, bidder_meld=60, side_meld=90, side_tricks=70, side_score=-200),
    # set at 150 without a trick point: the 40 meld is lost, total 0 (below every bid)
    dict(bid=150, made=0, bidder_meld=60, side_meld=40, side_tricks=0, side_score=-150),
    # set at 300: 200 + 150 would be 350, but it did not reach 300: capped at 299
    dict(bid=300, made=0, bidder_meld=60, side_meld=200, side_tricks=150, side_score=-300),
    # set without play at 300 with 50 meld (short by 250 > 100): at 151 or more it stops again;
    # below, the rules would have let it play (unknown)
    dict(bid=300, made=0, outcome=h.SET_WITHOUT_PLAY, bidder_meld=60, side_meld=50, side_score=-300),
    # nobody bid: not in the table
    dict(bidder=-1, bid=0, made=-1, bidder_meld=60, side_meld=60, side_tricks=120),
)
BIDS = [100, 150, 160, 250, 260, 270, 280, 290, 300]


def joint_of(params, rec):
    return joint_tally(params, rec).reshape(len(BASES), 2, MELD_BINS, TOTAL_BINS)


def test_side_totals_by_hand():
    rec = HANDS[HANDS[:, h.F_BIDDER] >= 0]
    played, total, stop = side_totals(PARAMS, rec)
    assert played.tolist() == [True, True, True, True, False]
    assert total[:4].tolist() == [270, 160, 0, 299]
    assert stop[4] == 50 + 100 + 1


def test_joint_tally_counts_hand_worked_cells():
    cells = joint_cells(joint_of(PARAMS, HANDS), 100, 10, BIDS)
    dealt = {key: cells[key][0, 6].tolist() for key in cells}  # bidder's meld 60: bin 6
    assert dealt["n"] == [5] * len(BIDS)  # five hands with a bidder, at every bid
    assert dealt["made"] == [3, 3, 3, 2, 2, 2, 1, 1, 0]  # totals 270, 160, 0, 299 (and the unplayed)
    assert dealt["unknown"] == [1, 1, 0, 0, 0, 0, 0, 0, 0]  # the set-without-play hand below 151
    assert cells["n"][0].sum(axis=0).tolist() == [5] * len(BIDS)  # no hand in another dealt bin
    after = {m: (cells["n"][1, m // 10, 0], cells["made"][1, m // 10].tolist()) for m in (80, 90, 40, 200, 50)}
    assert after[80] == (1, [1, 1, 1, 1, 1, 1, 0, 0, 0])
    assert after[90] == (1, [1, 1, 1, 0, 0, 0, 0, 0, 0])
    assert after[40] == (1, [0] * 9)
    assert after[200] == (1, [1] * 8 + [0])
    assert after[50] == (1, [0] * 9)
    assert cells["unknown"][1, 5].tolist() == [1, 1] + [0] * 7


def test_scoring_rules_change_the_rebuilt_total():
    set_hand = records(
        dict(bid=300, made=0, side_meld=30, side_tricks=0, side_score=-300),
        dict(bid=300, made=0, side_meld=30, side_tricks=20, side_score=-300),
        dict(bid=30, made=1, side_meld=30, side_tricks=20, side_score=80),
    )
    # a made hand's total is its score (less the bid where the bid is added), whatever the rules
    assert side_totals(PARAMS, set_hand)[1].tolist() == [0, 50, 80]
    saved_by_points = (100, 10, 10, lay.SAVE_POINTS, 30, 0, 0, 0, 0, -1, 1)
    assert side_totals(saved_by_points, set_hand)[1].tolist() == [0, 20, 80]
    always = (100, 10, 10, lay.SAVE_NOTHING, 0, 40, 1, 0, 0, -1, 1)  # meld under 40 does not count; bid added
    assert side_totals(always, set_hand)[1].tolist() == [0, 20, 80 - 30]


def test_unplayed_hands_stop_at_every_bid_or_from_their_threshold():
    rec = records(
        dict(bid=60, outcome=h.NO_TRUMP_MARRIAGE),
        dict(bid=70, outcome=h.SET_WITHOUT_PLAY, side_meld=10),  # under the minimum to play
        dict(bid=90, outcome=h.CONCEDED, side_meld=20),
        dict(bid=90, bidder=1, outcome=h.CONCEDED, side_meld=20),
    )  # a random seat never concedes
    # lowest 50 by 1; play needs 15 meld; a heuristic seat concedes when short by 46 or more
    params = (50, 1, 1, lay.SAVE_NOTHING, 0, 0, 0, 0, 15, 46, 1, 0)
    played, _, stop = side_totals(params, rec)
    assert not played.any()
    assert stop[0] < 50 and stop[1] < 50 and stop[2] == 20 + 46 and stop[3] == 90
    cells = joint_cells(joint_of(params, rec), 50, 1, [50, 65, 66, 89, 90])
    assert cells["made"][0].sum(axis=0).tolist() == [0] * 5
    assert cells["unknown"][0].sum(axis=0).tolist() == [2, 2, 1, 1, 0]


@pytest.fixture(scope="module")
def run():
    v = load_variant("double-deck")  # has throw-ins and hands without a trump marriage
    policies = parse_policies("heuristic", v.players)
    return v, policies, bid_odds(v, 6000, 5, policies), hand_records(v, 6000, 5, policies)


def test_joint_margins_agree_with_the_one_way_tables(run):
    v, _, result, _ = run
    for basis, table in zip(BASES, ("bidder_meld", "side_meld")):
        one_way = result.table(table).set_index(table)["hands"]
        joint = result.joint_table(basis)
        for bid, cells in joint.groupby("bid"):
            # every hand with a bidder is in every bid's cells, in the by-meld table's bin
            assert cells.set_index("meld")["n"].to_dict() == one_way.to_dict(), (basis, bid)
        made = joint.pivot(index="meld", columns="bid", values="made")
        assert (made.diff(axis=1).fillna(0) <= 0).all().all()  # no bid is made more often than a lower one


def test_joint_table_matches_the_records(run):
    v, policies, result, rec = run
    rec = rec[rec[:, h.F_BIDDER] >= 0]
    _, total, _ = side_totals(joint_params(v, policies), rec)
    # at its own bid, a hand's total decides exactly what the kernel scored
    assert ((total >= rec[:, h.F_BID]) == (rec[:, h.F_MADE] == 1)).all()
    joint = result.joint_table("dealt").set_index(["bid", "meld"])
    for bid in (50, 55, 60, 70):
        for meld in (10, 20, 30):
            here = rec[:, h.F_BIDDER_MELD] == meld
            assert joint.loc[(bid, meld), "n"] == here.sum()
            assert joint.loc[(bid, meld), "made"] == (here & (total >= bid)).sum()
    by_bid = result.table("bid").set_index("bid")["made"]
    for bid, made in by_bid.items():  # the by-bid table: hands bid at B whose total reaches B
        assert made == ((rec[:, h.F_BID] == bid) & (total >= bid)).sum()


def test_the_bid_grid():
    v = load_variant("double-deck")  # 50, 51, ... 60, then by 5
    assert is_bid(v, 50) and is_bid(v, 57) and is_bid(v, 65) and not is_bid(v, 63) and not is_bid(v, 49)
    assert highest_bid(v) == 50 + TOTAL_BINS - 2
    v = load_variant("partnership-auction")
    assert is_bid(v, 250) and not is_bid(v, 255) and not is_bid(v, 90)


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bid_and_meld_print_one_line(capsys):
    code, out, err = cli(
        capsys,
        "bid-odds",
        "--variant",
        "partnership-auction",
        "--bid",
        "250",
        "--meld",
        "60",
        "--hands",
        "3000",
        "--no-store",
    )
    assert code == 0 and len(out.splitlines()) == 1, out
    line = out.strip()
    assert line.startswith("P(make 250 | bidder's meld as dealt 60) = ") and " over " in line
    assert "3,000 hands of partnership-auction, seed 1, policy heuristic, margin " in line
    code, out, _ = cli(
        capsys,
        "bid-odds",
        "--variant",
        "partnership-auction",
        "--bid",
        "250",
        "--meld",
        "65",
        "--basis",
        "after_exchange",
        "--hands",
        "3000",
        "--no-store",
    )
    assert code == 0 and "side's meld after the exchange 60 (the bin of meld 65" in out


SCALE = "four-hand-150 counts in single points: 25 trick points a hand, bids from 20 by 1, a game to 150"


def _played_range(capsys, argv) -> tuple[int, int, int, int]:
    """(lowest and highest contract, lowest and highest bidder's meld as dealt) of the same run, by --json."""
    code, out, _ = cli(capsys, "bid-odds", *argv, "--json")
    tables = json.loads(out)["tables"]
    bids, melds = [r["bid"] for r in tables["bid"]], [r["bidder_meld"] for r in tables["bidder_meld"]]
    return min(bids), max(bids), min(melds), max(melds)


def test_a_bid_and_meld_of_another_scale_say_how_the_system_counts(capsys):
    # a newcomer's partnership-auction numbers on the default system: no hand holds 60 meld as dealt, none
    # is bid near 250; the line says the system's scale and where its hands lie, and is still an answer
    run = ["--hands", "3000", "--no-store"]
    code, out, err = cli(capsys, "bid-odds", "--bid", "250", "--meld", "60", *run)
    assert code == 0 and len(out.splitlines()) == 1, out + err
    low, high, meld_low, meld_high = _played_range(capsys, run)
    assert high < 250 and meld_high < 60
    assert out.startswith(
        f"P(make 250 | bidder's meld as dealt 60): no hand had it ({SCALE}; these hands were bid from {low} to "
        f"{high}, the bidders' meld as dealt from {meld_low} to {meld_high}); 3,000 hands of four-hand-150"
    ), out
    # a meld the hands have, a bid above every contract: 0% is the answer, and the line says why
    code, out, _ = cli(capsys, "bid-odds", "--bid", "100", "--meld", "20", *run)
    assert code == 0 and out.startswith("P(make 100 | bidder's meld as dealt 20) = 0.0% [0.0%, ")
    assert f"(0 made; {SCALE}; these hands were bid from {low} to {high}," in out
    # a bid within the contracts played: no note
    code, out, _ = cli(capsys, "bid-odds", "--bid", str(high), "--meld", "20", *run)
    assert code == 0 and " = " in out and "counts in" not in out


def test_json_has_the_documented_shape(capsys):
    code, out, _ = cli(
        capsys, "bid-odds", "--variant", "partnership-auction", "--hands", "2000", "--json", "--no-store"
    )
    data = json.loads(out)
    assert code == 0 and {"variant", "seed", "hands", "policy", "cells"} <= set(data)
    assert data["variant"] == "partnership-auction" and data["hands"] == 2000 and data["policy"] == "heuristic"
    cell = data["cells"][0]
    assert {"bid", "meld", "basis", "make"} <= set(cell) and {"estimate", "ci95", "n"} <= set(cell["make"])
    assert {c["basis"] for c in data["cells"]} == {"dealt", "after_exchange"}
    assert all(c["make"]["ci95"][0] <= c["make"]["estimate"] <= c["make"]["ci95"][1] for c in data["cells"])
    # a meld nobody held: one cell per basis, no estimate (null, not NaN)
    code, out, _ = cli(
        capsys,
        "bid-odds",
        "--variant",
        "partnership-auction",
        "--hands",
        "2000",
        "--json",
        "--bid",
        "250",
        "--meld",
        "2000",
        "--no-store",
    )
    assert "NaN" not in out
    cells = json.loads(out)["cells"]
    assert len(cells) == 2 and all(
        c["make"] == {"estimate": None, "ci95": [0.0, 1.0], "n": 0, "made": 0, "unknown": 0} for c in cells
    )


def test_csv_gives_the_cells_in_long_form(capsys, tmp_path):
    code, out, _ = cli(
        capsys,
        "bid-odds",
        "--variant",
        "partnership-auction",
        "--hands",
        "2000",
        "--csv",
        "--meld",
        "60",
        "--basis",
        "dealt",
        "--no-store",
    )
    frame = pd.read_csv(io.StringIO(out))
    assert code == 0 and list(frame.columns) == [
        "variant",
        "basis",
        "bid",
        "meld",
        "meld_bin",
        "n",
        "made",
        "unknown",
        "estimate",
        "lo",
        "hi",
    ]
    assert set(frame["basis"]) == {"dealt"} and set(frame["meld"]) == {60} and frame["bid"].is_monotonic_increasing
    path = tmp_path / "cells.csv"
    code, out, _ = cli(
        capsys,
        "bid-odds",
        "--variant",
        "partnership-auction",
        "--hands",
        "2000",
        "--csv",
        str(path),
        "--json",
        "--no-store",
    )
    assert code == 0 and len(pd.read_csv(path)) == len(json.loads(out)["cells"])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bid", "90"], "--bid 90: below the lowest contract in partnership-auction (bids go 100, 110"),
        (["--bid", "255"], "--bid 255: not a bid in partnership-auction"),
        (["--bid", "99990"], "the table answers bids up to"),
        (["--bid", "two"], "invalid int value"),
        (["--meld", "-10"], "meld is never negative"),
        (["--meld", "lots"], "'lots' is not a whole number"),
        (["--basis", "after"], "invalid choice"),
        (["--json", "--csv"], "--json and --csv without a FILE both print"),
        (["--variant", "partnership", "--bid", "250"], "no auction, so no bids"),
    ],
)
def test_bad_input_is_one_line_with_exit_status_2(capsys, argv, message):
    if "--variant" not in argv:
        argv = ["--variant", "partnership-auction"] + argv
    code, out, err = cli(capsys, "bid-odds", "--hands", "1000", "--no-store", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err
