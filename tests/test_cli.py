"""The ``pinochle`` command: output of each subcommand, and bad input (one line, exit status 2)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simcore.cli import main
from simcore.variants import shipped_ids

SCRIPT = Path(sys.executable).parent / "pinochle"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_variants_lists_every_id_with_a_description(capsys):
    code, out, _ = run(capsys, "variants")
    assert code == 0 and len(out.splitlines()) == len(shipped_ids())
    assert any(line.startswith("four-hand-150 ") and "auction from 20" in line for line in out.splitlines())
    code, out, _ = run(capsys, "variants", "--json")
    assert {"id", "name", "description"} <= set(json.loads(out)[0])


def test_meld_shows_the_breakdown(capsys):
    code, out, _ = run(capsys, "meld", "AS 10S KS KS QS QS JS 9S 9S JD AH AD", "--trump", "S")
    assert code == 0
    assert "trump S: 25 points" in out and "run: 15" in out and "dix ×2: 2" in out
    assert "pinochle: 4" in out and "best S" in out


def test_meld_json_and_best_trump_by_default(capsys):
    code, out, _ = run(capsys, "meld", "A♦ T♦ K♦ Q♦ J♦ KC QC 9H 9H 10S 10S JS", "--json")
    data = json.loads(out)
    assert code == 0 and data["trump"] == "D" and data["best_trump"] == "D"
    assert data["total"] == 17 and data["by_trump"] == {"S": 4, "H": 6, "D": 17, "C": 6}
    assert {"meld": "run", "count": 1, "points": 15} in data["melds"]


def test_meld_with_override_and_user_file(capsys, tmp_path):
    hand = "QS QS JD JD AS AH AD AC 9S 9H 9D 9C"
    assert "pinochle ×2: 30" in run(capsys, "meld", hand, "--trump", "H")[1]
    assert "pinochle ×2: 3000" in run(capsys, "meld", hand, "--trump", "H", "--set", "meld.double_pinochle=3000")[1]
    house = tmp_path / "house.toml"
    house.write_text('extends = "four-hand-150"\nid = "house"\n[meld]\ndouble_pinochle = 500\n')
    code, out, _ = run(capsys, "meld", hand, "--trump", "H", "--variant", str(house))
    assert code == 0 and out.startswith("house:") and "pinochle ×2: 500" in out


def test_odds_json_has_the_documented_shape(capsys):
    code, out, _ = run(capsys, "odds", "double-pinochle", "meld>=20", "--hands", "40000", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["variant"] == "four-hand-150" and data["hands"] == 40000 and data["seed"] == 3
    dp, meld = data["events"]
    assert dp["event"] == "double-pinochle"
    for block in (dp["per_hand"], dp["per_deal"], meld["per_hand"]):
        assert set(block) == {"estimate", "ci95", "one_in", "exact"}
        assert block["ci95"][0] <= block["estimate"] <= block["ci95"][1]
    assert abs(dp["per_hand"]["exact"] - 0.0025439) < 1e-6
    assert abs(dp["per_deal"]["exact"] - 4 * dp["per_hand"]["exact"]) < 1e-12
    assert meld["per_deal"]["exact"] is None  # two hands can both hold 20 meld


def test_odds_table_and_list(capsys):
    code, out, _ = run(capsys, "odds", "five-nines", "redeal", "--hands", "20000")
    assert code == 0 and "five-nines" in out and "1 in 60" in out and "redeal" in out
    code, out, _ = run(capsys, "odds", "--list")
    assert code == 0 and "double-pinochle" in out and "meld>=X" in out and "roundhouse" in out


def test_simulate_prints_rates_means_and_bids(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--hands", "3000", "--variant", "double-deck")
    assert code == 0 and "made rate" in out and "mean side tricks" in out and "winning bids" in out
    code, out, _ = run(
        capsys,
        "simulate",
        "--hands",
        "3000",
        "--json",
        "--policy",
        "heuristic,random,heuristic,random",
        "--out",
        str(tmp_path / "h.parquet"),
    )
    data = json.loads(out)
    assert code == 0 and data["hands"] == 3000 and data["policies"][1] == "random"
    assert 0 < data["rates"]["made"]["estimate"] < 1 and data["bids"][0]["bid"] >= 20
    assert (tmp_path / "h.parquet").stat().st_size > 0


def test_bid_odds_prints_tables_and_writes_csv(capsys, tmp_path):
    import pandas as pd

    csv = tmp_path / "odds.csv"
    code, out, _ = run(capsys, "bid-odds", "--hands", "3000", "--csv", str(csv))
    assert code == 0 and "P(make) by bid" in out and "P(make) by trump length" in out
    assert "P(make B | bidder's meld as dealt)" in out and "P(make B | side's meld after the exchange)" in out
    frame = pd.read_csv(csv)  # the joint table's cells, long form
    assert set(frame["basis"]) == {"dealt", "after_exchange"} and frame["bid"].min() == 20
    code, out, _ = run(capsys, "bid-odds", "--hands", "2000", "--json", "--variant", "auction")
    assert code == 0 and json.loads(out)["tables"]["bid"][0]["bid"] >= 300


def test_playthrough_prints_one_hand(capsys):
    code, out, _ = run(capsys, "playthrough", "--seed", "7")
    assert code == 0 and out.startswith("four-hand-150: first hand of seed 7")
    assert out.count("trick ") == 12 and "score: bidder's side" in out


def test_playthrough_json_gives_the_moves_of_the_same_hand(capsys):
    text = run(capsys, "playthrough", "--seed", "7")[1]
    code, out, _ = run(capsys, "playthrough", "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0 and data["variant"] == "four-hand-150" and data["seed"] == 7 and data["dealer"] == 3
    moves = data["moves"]
    assert sum(m["move"] == "trick" for m in moves) == 12 and sum(m["move"] == "play" for m in moves) == 48
    assert sum(m["count"] for m in moves if m["move"] == "deal") == 48
    contract = next(m for m in moves if m["move"] == "contract")
    assert f"contract: seat {contract['seat']} at {contract['bid']}" in text
    assert text.rstrip().endswith(" ".join(f"{k}={v}" for k, v in data["record"].items()))
    assert moves[-1]["move"] == "score" and moves[-1]["side"] == data["record"]["side_score"]


def test_odds_table_heads_both_one_in_n_columns(capsys):
    code, out, _ = run(capsys, "odds", "five-nines", "--hands", "20000")
    header, row = out.splitlines()[1:3]
    assert code == 0 and header.count("1 in N") == 2
    assert row.split()[-3:] == ["1", "in", "15"]  # per deal: 1 - (1 - p)^4 of the exact per-hand 1 in 60


def test_every_hands_option_says_dealt_or_played(capsys):
    from simcore.cli import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if a.dest == "command").choices
    for name, sub in subs.items():
        for action in sub._actions:
            if action.dest in ("hands", "full_hands"):
                assert any(w in action.help for w in ("dealt", "to deal", "played", "to play")), (name, action.help)


def test_compare_help_lists_each_question_with_the_keys_it_changes():
    from simcore.answers.compare import QUESTIONS
    from simcore.cli import build_parser

    subs = next(a for a in build_parser()._actions if a.dest == "command").choices
    text = " ".join(next(a.help for a in subs["compare"]._actions if a.dest == "question").split())
    for name, q in QUESTIONS.items():
        assert name in text, name
        for key in q.keys:
            assert key in text, (name, key)


def test_a_games_question_runs_with_hands_and_a_hands_question_with_games(capsys):
    code, out, _ = run(capsys, "compare", "--question", "min-bid-25", "--hands", "500", "--json")
    data = json.loads(out)
    assert code == 0 and data["mode"] == "hands" and data["verdict"].startswith("bidding side makes")
    code, out, _ = run(capsys, "compare", "--question", "pass-3-vs-4", "--games", "50", "--json")
    data = json.loads(out)
    assert code == 0 and data["mode"] == "games" and data["measures"][0]["n"] == 50


def test_report_json_is_a_manifest_of_the_files_written(capsys, tmp_path, monkeypatch):
    import analyses.report

    def fake_write_report(out, variants, sizes, seed, say):
        files = [Path(out) / "index.md", Path(out) / "four-hand-150.png"]
        for f in files:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text("x" * 7)
        return files

    monkeypatch.setattr(analyses.report, "write_report", fake_write_report)
    code, out, _ = run(
        capsys, "report", "--variant", "four-hand-150", "--hands", "1000", "--out", str(tmp_path / "r"), "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["variants"] == ["four-hand-150"] and data["seed"] == 1
    assert data["index"].endswith("index.md") and data["sizes"]["played"] == 1000
    assert [(Path(f["path"]).name, f["kind"], f["bytes"]) for f in data["files"]] == [
        ("index.md", "md", 7),
        ("four-hand-150.png", "png", 7),
    ]


def test_export_json_says_what_it_wrote(capsys, tmp_path):
    store = str(tmp_path / "s.duckdb")
    assert run(capsys, "odds", "double-pinochle", "--hands", "4000", "--store", store)[0] == 0
    code, out, _ = run(capsys, "export", "--store", store, "--out", str(tmp_path / "t.csv"), "--json")
    data = json.loads(out)
    assert code == 0 and data["format"] == "csv" and data["rows"] == 3 and len(data["runs"]) == 1
    assert "value" in data["columns"] and data["bytes"] == (tmp_path / "t.csv").stat().st_size


def test_bench_reports_hands_per_second(capsys):
    code, out, _ = run(capsys, "bench", "--hands", "40000", "--full-hands", "4000", "--games", "500", "--json")
    rows = json.loads(out)
    pairs = ["four-hand-150", "double-deck"]
    full = pairs + ["six-hand-triple-pack", "five-hand-widow", "two-hand"]
    assert code == 0 and [r["variant"] for r in rows] == pairs + full + pairs
    assert rows[2]["kernel"] == "full hand, heuristic" and rows[7]["kernel"] == "whole game, heuristic"
    assert all(r["hands_per_s"] > 0 and r["threads"] >= 1 for r in rows[:7])
    assert all(r["given_cards"] == "QS JD" and r["given_hands_per_s"] > 0 for r in rows[:2])
    assert all(r["games_per_s"] > 0 and r["hands_per_game"] > 1 for r in rows[7:])


def test_bench_state_times_hands_through_the_python_game_state(capsys):
    code, out, _ = run(capsys, "bench", "--state", "3", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["variant"] for r in rows] == ["four-hand-150", "double-deck", "two-hand"]
    assert all(r["hands"] == 3 and r["decisions"] > 3 * 12 and r["ms_per_hand"] > 0 for r in rows)


def test_bench_sampling_times_the_sampling_players_decisions(capsys):
    code, out, _ = run(capsys, "bench", "--sampling", "2", "--samples", "2", "--solve-from", "3", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["variant"] for r in rows] == ["partnership-auction", "four-hand-150", "double-deck"]
    for r in rows:
        assert (r["hands"], r["samples"], r["solve_from"]) == (2, 2, 3)
        # it samples only choices among several cards in the last 3 tricks: at most 3 a seat a hand
        assert 0 < r["decisions"] <= 2 * 4 * 3 and r["ms_per_decision"] > 0 and r["s_per_hand"] > 0
    code, _, err = run(capsys, "bench", "--sampling", "0")
    assert code == 2 and "--sampling" in err


def test_games_prints_win_rates_and_lengths(capsys):
    code, out, _ = run(capsys, "games", "--variant", "double-deck", "--games", "300")
    assert code == 0 and "300 games to 500" in out and "team 0 (first dealer's left) wins" in out
    assert "game length in hands" in out
    code, out, _ = run(capsys, "games", "--variant", "double-deck", "--games", "300", "--json")
    data = json.loads(out)
    assert data["games"] == 300 and data["complete"] and "team 1 (first dealer's side) wins" in data["rates"]
    assert sum(r["games"] for r in data["length_distribution"]) == 300


def test_compare_prints_both_sides_the_difference_and_a_verdict(capsys):
    code, out, _ = run(capsys, "compare", "four-hand-150", "--set", "exchange.pass_cards=4", "--hands", "3000")
    assert code == 0 and "B - A [95% CI]" in out and "bidding side makes" in out and "Pairing" in out
    code, out, _ = run(capsys, "compare", "--question", "bidder-wins-ties", "--games", "500", "--json")
    data = json.loads(out)
    assert data["mode"] == "games" and data["question"].startswith("Bidding side wins")
    assert {"a", "b", "diff", "diff_lo", "diff_hi", "paired_half", "unpaired_half"} <= set(data["measures"][0])
    assert data["verdict"].startswith("first dealer's left wins")
    code, out, _ = run(capsys, "compare", "--list")
    assert code == 0 and "double-pinochle-3000" in out


BAD = [
    (["odds", "--variant", "four-hand-15"], "did you mean 'four-hand-150'"),
    (["odds", "doubel-pinochle"], "did you mean 'double-pinochle'"),
    (["odds", "--hands", "0"], "'0' must be a positive integer"),
    (["odds", "--hands", "-5"], "must be a positive integer"),
    (["odds", "--hands", "many"], "not a whole number"),
    (["odds", "--hands", "2.5"], "not a whole number"),
    (["odds", "--seed", "-1"], "integer ≥ 0"),
    (["odds", "--set", "meld.double_pinochel=3000"], "did you mean 'meld.double_pinochle'"),
    (["odds", "--set", "meld.run=fifteen"], "meld.run = 'fifteen': an integer"),
    (["odds", "--set", "deal.hand_size=13"], "players × hand_size + widow must equal"),
    (["meld", "AS AS AS KS QS JS 10S 9S 9S KH QH JH"], "3 × AS but the deck has only 2"),
    (["meld", "AS KS", "--variant", "four-hand-150"], "a hand in this variant holds 12"),
    (
        ["meld", "9S AS KS QS JS 10S AH KH QH JH 10H AD AD KD QD JD 10D AC KC QC", "--variant", "double-deck"],
        "9S but the deck has none",
    ),
    (["meld", "AS XX"], "'XX' is not a card"),
    (["meld", "AS", "--trump", "X"], "'X' is not a suit"),
    (["frobnicate"], "invalid choice"),
    (["odds", "--threads", "99"], "at most"),
    (["simulate", "--policy", "smart"], "'smart' is not a policy"),
    (["simulate", "--policy", "random,heuristic"], "2 policies given for 4 seats"),
    (["simulate", "--out", "hands.csv"], "ending in .parquet"),
    (["simulate", "--hands", "0"], "must be a positive integer"),
    (["simulate", "--set", "auction.all_pass=nobody"], "one of 'dealer_left_takes'"),
    (["bid-odds", "--variant", "partnership"], "no auction, so no bids"),
    (["simulate", "--variant", "partnership", "--set", "exchange.pass_cards=3"], "no bidder to pass to"),
    (["playthrough", "--policy", "random,random"], "2 policies given for 4 seats"),
    (["bid-odds", "--policy", "clever"], "'clever' is not a policy"),
    (["games", "--variant", "auction", "--set", "settlement.values=[[300, 3], [200, 1]]"], "bids rising"),
    (["games", "--variant", "auction", "--set", "settlement.people=2"], "at least the 3 players"),
    (["simulate", "--set", "settlement.values=[[20, 1]]"], "chips settle a bidder playing alone"),
    (
        ["games", "--variant", "two-hand", "--set", "deal.players=3", "--set", "deal.hand_size=8"],
        "declaring out settles a game between two score lines",
    ),
    (["simulate", "--variant", "two-hand", "--set", "auction.kind=open"], "the stock's turned card names trump"),
    (["games", "--games", "0"], "must be a positive integer"),
    (["games", "--policy", "random,random"], "2 policies given for 4 seats"),
    (["games", "--set", "game.target=0"], "game.target = 0: an integer from 1 to 1,000,000"),
    (["compare", "--question", "nope"], "'nope' is not a question"),
    (["compare", "four-hand-150"], "B is A unchanged"),
    (
        ["compare", "partnership-auction", "--set", "redeal.min_nines=0"],
        "B plays the same game as A (partnership-auction+redeal.min_nines=0 and partnership-auction",
    ),
    (["compare"], "give rule set A"),
    (["compare", "four-hand-150", "double-deck"], "different decks or tables"),
    (["compare", "four-hand-150", "--set", "meld.run=x"], "meld.run = 'x': an integer"),
    (["compare", "--question", "bidder-wins-ties", "--hands", "10"], "compares games only"),
    (["compare", "--question", "declare-out", "--hands", "10"], "give --games N"),
    (["compare", "four-hand-150", "--games", "5", "--hands", "5"], "not allowed with argument"),
    (["report", "--strong-play", "--deals", "-3"], "argument --deals: '-3' must be a positive integer"),
    (["report", "--strong-play", "--deals", "lots"], "not a whole number"),
    (["report", "--strong-play", "--limit", "0"], "must be a positive integer"),
    (["report", "--strong-play", "--workers", "0"], "must be a positive integer"),
    (["report", "--deals", "10"], "--deals: only with --strong-play"),
    (["report", "--strong-play", "--hands", "10"], "with --strong-play give --deals"),
    (["report", "--strong-play", "--variant", "two-hand"], "double-dummy make odds are not computed"),
    (["report", "--strong-play", "--variant", "four-hand-15"], "did you mean 'four-hand-150'"),
]


@pytest.mark.parametrize("argv, message", BAD)
def test_bad_input_is_one_line_with_exit_status_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
    assert "Traceback" not in err


def test_rules_without_hand_rules_are_dealt_but_not_played(capsys, tmp_path):
    # a user's file may stop at the deal and the meld: odds work, full hands say why they cannot
    from importlib import resources

    text = (resources.files("simcore.variants") / "rules" / "two-hand.toml").read_text(encoding="utf-8")
    bare = tmp_path / "bare.toml"
    bare.write_text(text[: text.index("[teams]")].replace("stock_play = true", ""), encoding="utf-8")
    assert run(capsys, "odds", "--variant", str(bare), "--hands", "1000", "--no-store")[0] == 0
    for argv in (["simulate", "--variant", str(bare)], ["games", "--variant", str(bare)]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "no [game] rules" in err or "not yet simulated" in err


def test_bad_rules_files_name_the_file(capsys, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('extends = "four-hand-150"\n[meld]\nrun = "fifteen"\n')
    code, _, err = run(capsys, "odds", "--variant", str(broken))
    assert code == 2 and str(broken) in err and "meld.run" in err and "'fifteen'" in err
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[deal\n")
    code, _, err = run(capsys, "meld", "AS", "--variant", str(bad_toml))
    assert code == 2 and "not valid TOML" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_console_script_end_to_end():
    ok = subprocess.run(
        [
            str(SCRIPT),
            "meld",
            "QS JD",
            "--variant",
            "four-hand-150",
            "--set",
            "deal.hand_size=2",
            "--set",
            "deal.widow=40",
            "--set",
            "deal.widow_kind=stock",
            "--set",
            "exchange.pass_cards=0",
        ],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "pinochle: 4" in ok.stdout
    bad = subprocess.run([str(SCRIPT), "odds", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_kernels_run_clean_under_numba_boundscheck():
    # numba silently accepts index -1; with bounds checking on, an out-of-range index raises
    code = (
        "import numpy as np\n"
        "from simcore.variants import load_variant\n"
        "from simcore.kernels.events import CATALOGUE, parse_event\n"
        "from simcore.answers.odds import simulate_odds\n"
        "from simcore.answers.bench import _run\n"
        "for vid in ('four-hand-150', 'double-deck', 'six-hand-triple-pack', 'auction'):\n"
        "    v = load_variant(vid)\n"
        "    ev = [parse_event(n, v) for n in list(CATALOGUE) + ['meld>=30']]\n"
        "    simulate_odds(v, ev, 2000 * v.players, seed=1, exact=False)\n"
        "    _run(v, 500, 1)\n"
        "from simcore.answers.simulate import simulate\n"
        "from simcore.kernels.policies import parse_policies\n"
        "from simcore.answers.game_results import play_games\n"
        "for vid in ('four-hand-150', 'double-deck', 'auction', 'partnership', 'two-hand'):\n"
        "    v = load_variant(vid)\n"
        "    for pol in ('heuristic', 'random'):\n"
        "        simulate(v, 300, 1, parse_policies(pol, v.players))\n"
        "play_games(load_variant('double-deck'), 20, 1, parse_policies('heuristic', 4))\n"
        "for pol in ('heuristic', 'random'):\n"
        "    play_games(load_variant('two-hand'), 20, 1, parse_policies(pol, 2))\n"
        "print('clean')\n"
    )
    env = dict(
        os.environ,
        NUMBA_BOUNDSCHECK="1",
        NUMBA_CACHE_DIR=os.path.join(os.environ.get("TMPDIR", "/tmp"), "pinochle-numba-boundscheck"),
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0 and "clean" in done.stdout, done.stderr[-2000:]


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_ctrl_c_prints_the_finished_chunks_as_a_partial_result():
    import signal
    import time

    run = subprocess.Popen(
        [str(SCRIPT), "odds", "double-pinochle", "--hands", "4000000000", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(10)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=120)
    data = json.loads(out)
    assert run.returncode == 130 and "Traceback" not in err
    assert data["complete"] is False and 0 < data["hands"] < 4_000_000_000
    assert data["hands"] % (32768 * 4) == 0  # whole chunks only
    assert abs(data["events"][0]["per_hand"]["estimate"] - 0.00254) < 0.001


def test_help_and_version_load_no_numerical_library():
    # `pinochle --help` must answer at once: nothing heavy is imported before the arguments are parsed
    code = (
        "import sys\nfrom simcore.cli import main\n"
        "for argv in (['--help'], ['--version']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "print(sorted(m for m in ('numpy', 'numba', 'pandas', 'dask', 'duckdb') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pinochle 0.1.0" in out and out.strip().splitlines()[-1] == "[]"
