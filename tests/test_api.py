"""The notebook API (``simcore.api``): each function's frame, the CLI's numbers for the same arguments,
a cheap ``import simcore``, and the Parquet file's metadata."""

import doctest
import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import simcore
from simcore import api
from simcore.cli import main
from simcore.variants import load_variant

RUN = ["variant", "seed", "estimate", "lo", "hi", "one_in"]


def cli_json(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def close(a, b) -> bool:
    return (a is None and (b is None or math.isnan(b))) or math.isclose(a, b, rel_tol=1e-12, abs_tol=0)


def test_import_simcore_loads_no_numerical_library_and_reexports_lazily():
    code = (
        "import sys, simcore\n"
        "print(sorted(m for m in ('numpy', 'numba', 'pandas', 'simcore.api') if m in sys.modules))\n"
        "from simcore import odds, simulate\n"
        "import simcore.api\n"
        "print(odds is simcore.api.odds, simulate.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "True simcore.api"]
    assert set(simcore.API) <= set(dir(simcore))
    # the package's lazy list is the API's own, less the rules package: a name added to one is added to both
    assert set(simcore.API) == set(api.__all__) - {"variants"}
    assert simcore.advise is api.advise
    with pytest.raises(AttributeError):
        simcore.solve_everything  # noqa: B018


def test_the_docstring_examples_run():
    failed, tried = doctest.testmod(api, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried >= 16 and failed == 0


def test_variants_lists_every_shipped_system():
    from simcore.variants import shipped_ids

    v = api.variants()
    assert list(v["id"]) == shipped_ids()
    assert v.set_index("id").loc["partnership", "plays_games"] in (True, False)
    assert {"id", "name", "description", "players", "cards", "plays_hands", "plays_games"} == set(v.columns)


def test_meld_matches_the_cli(capsys):
    hand = "A♦ T♦ K♦ Q♦ J♦ KC QC 9H 9H 10S 10S JS"
    data = cli_json(capsys, "meld", hand)
    m = api.meld(hand)
    assert m.groupby("trump", observed=True)["total"].first().to_dict() == data["by_trump"]
    best = m[m.best]
    assert set(best["trump"]) == {data["best_trump"]} and best["points"].sum() == data["total"]
    assert best[["meld", "count", "points"]].astype({"meld": str}).to_dict("records") == data["melds"]
    assert isinstance(m["trump"].dtype, pd.CategoricalDtype) and list(m["trump"].cat.categories) == list("SHDC")
    only = api.meld(hand, trump="h")
    assert set(only["trump"]) == {"H"} and only["points"].sum() == 6
    with pytest.raises(ValueError, match="not a suit"):
        api.meld(hand, trump="X")


def test_meld_takes_an_id_a_path_or_a_variant_with_overrides(tmp_path):
    hand = "QS QS JD JD AS AH AD AC 9S 9H 9D 9C"

    def pinochles(m):
        return int(m.loc[(m.trump == "H") & (m.meld == "pinochle"), "points"].iloc[0])

    assert pinochles(api.meld(hand, "four-hand-150")) == 30
    assert pinochles(api.meld(hand, overrides=["meld.double_pinochle=3000"])) == 3000
    house = tmp_path / "house.toml"
    house.write_text('extends = "four-hand-150"\nid = "house"\n[meld]\ndouble_pinochle = 500\n')
    assert pinochles(api.meld(hand, house)) == 500 and api.meld(hand, str(house))["variant"].iloc[0] == "house"
    v = load_variant("four-hand-150", ["meld.double_pinochle=300"])
    assert pinochles(api.meld(hand, v)) == 300
    with pytest.raises(ValueError, match="not a Variant"):
        api.meld(hand, v, overrides=["meld.run=16"])


def test_odds_matches_the_cli_json(capsys):
    data = cli_json(capsys, "odds", "double-pinochle", "meld>=20", "--hands", "40000", "--seed", "3")
    o = api.odds(["double-pinochle", "meld>=20"], hands=40_000, seed=3)
    assert list(o.columns[:6]) == ["variant", "seed", "hands", "deals", "event", "per"]
    assert set(RUN) <= set(o.columns) and len(o) == 4
    assert list(o["per"].cat.categories) == ["hand", "deal"] and list(o["event"].cat.categories) == [
        "double-pinochle",
        "meld>=20",
    ]
    rows = o.set_index(["event", "per"])
    for e in data["events"]:
        for per in ("hand", "deal"):
            block, r = e[f"per_{per}"], rows.loc[(e["event"], per)]
            assert close(block["estimate"], r.estimate) and close(block["one_in"], r.one_in)
            assert close(block["ci95"][0], r.lo) and close(block["ci95"][1], r.hi)
            assert close(block["exact"], r.exact)
    assert (o["hands"] == data["hands"]).all() and (o["seed"] == 3).all()


def test_hold_odds_matches_the_cli_json(capsys):
    hand = "AS AS 10S KS QS QS JS JD JD KH QH 9S"
    data = cli_json(capsys, "odds", "pinochle", "run", "--hold", hand, "--hands", "20000", "--seed", "2")
    h = api.hold_odds(hand, ["pinochle", "run"], hands=20_000, seed=2)
    assert list(h["place"].cat.categories) == ["me", "partner", "left", "right", "any_other", "table"]
    rows = h.set_index(["event", "place"])
    assert len(h) == sum(len(e["given"]) for e in data["events"])
    for e in data["events"]:
        for place, block in e["given"].items():
            r = rows.loc[(e["event"], place)]
            assert close(block["estimate"], r.estimate) and close(block["exact"], r.exact)
            assert close(block["ci95"][0], r.lo) and close(block["ci95"][1], r.hi)
    assert (h["deals"] == data["deals"]).all()


def test_advise_names_the_bids_made_half_and_three_quarters_of_the_time(capsys):
    hand = "AS AS 10S KS QS JS 9S AH KH QH AD JD"
    data = cli_json(capsys, "advise", hand, "--variant", "auction", "--hands", "2000")
    a = api.advise(hand, "auction", hands=2_000)
    assert a.attrs["highest"] == [
        {"share": h["share"], "bid": h["bid"], "lo": h["ci95"][0], "hi": h["ci95"][1]} for h in data["highest_bid"]
    ]
    made = a.loc[a.estimate >= 0.5, "bid"]
    assert a.attrs["highest"][0]["bid"] == made.max()


def test_simulate_matches_the_cli_json_and_defaults_to_the_heuristic(capsys):
    data = cli_json(capsys, "simulate", "--hands", "3000", "--variant", "double-deck", "--seed", "2")
    s = api.simulate("double-deck", hands=3000, seed=2)
    assert set(RUN + ["hands", "policies", "kind", "measure"]) == set(s.columns)
    assert s["policies"].iloc[0] == ",".join(data["policies"]) == ",".join(["heuristic"] * 4)
    rows = s.set_index(["kind", "measure"])
    for kind, block in (("rate", data["rates"]), ("mean", data["means"])):
        for name, iv in block.items():
            r = rows.loc[(kind, name)]
            assert close(iv["estimate"], r.estimate) and close(iv["ci95"][0], r.lo) and close(iv["ci95"][1], r.hi)
    assert rows.loc[("mean", "bid"), "one_in"] != rows.loc[("mean", "bid"), "one_in"]  # NaN for a mean
    # the answers layer takes no policies too: the heuristic at every seat
    from simcore.answers.simulate import simulate

    assert simulate(load_variant("double-deck"), 3000, 2).policies == ("heuristic",) * 4


def test_simulate_per_seat_policies_as_a_list_or_a_string():
    a = api.simulate(hands=500, policy=["heuristic", "random", "heuristic", "random"])
    b = api.simulate(hands=500, policy="heuristic,random,heuristic,random")
    pd.testing.assert_frame_equal(a, b)
    assert a["policies"].iloc[0] == "heuristic,random,heuristic,random"


def test_hand_records_name_their_columns_and_match_the_summary():
    from simcore.kernels import hand_record as h

    r = api.hand_records("four-hand-150", hands=2000, seed=1)
    assert list(r.columns) == ["variant", "seed", "hand", *h.FIELDS] and len(r) == 2000
    assert list(r["outcome"].cat.categories) == list(h.OUTCOMES)
    assert list(r["trump"].cat.categories) == list("SHDC")
    s = api.simulate("four-hand-150", hands=2000, seed=1).set_index("measure")
    assert r["bid"].mean() == pytest.approx(s.loc["bid", "estimate"])
    assert (r["outcome"] == "played").mean() == pytest.approx(s.loc["played", "estimate"])


def test_parquet_out_carries_the_run_in_its_metadata(tmp_path):
    import pyarrow.parquet as pq

    from simcore.kernels import hand_record as h
    from simcore.run.store import code_version

    out = tmp_path / "hands.parquet"
    api.simulate("double-deck", hands=1500, seed=4, policy="heuristic,random,heuristic,random", out=out)
    frame = pd.read_parquet(out)
    assert list(frame.columns) == list(h.FIELDS) and len(frame) == 1500
    v = load_variant("double-deck")
    meta = frame.attrs
    assert meta["variant"] == "double-deck" and meta["rules_hash"] == v.content_hash and meta["seed"] == 4
    assert meta["policies"] == ["heuristic", "random", "heuristic", "random"] and meta["hands"] == 1500
    assert meta["code_version"] == code_version() and meta["codes"]["outcome"] == list(h.OUTCOMES)
    assert json.loads(pq.read_schema(out).metadata[b"pinochle"]) == meta
    # the rows are the records hand_records gives
    named = api.hand_records("double-deck", hands=1500, seed=4, policy="heuristic,random,heuristic,random")
    assert np.array_equal(named["side_score"].to_numpy(), frame["side_score"].to_numpy())
    assert list(named["outcome"].cat.codes) == list(frame["outcome"])


def test_bid_odds_matches_the_cli_json(capsys):
    data = cli_json(capsys, "bid-odds", "--hands", "3000", "--seed", "5")
    b = api.bid_odds(hands=3000, seed=5)
    assert {"variant", "seed", "policies", "by", "value", "hands", "made", "estimate", "lo", "hi", "one_in"} == set(
        b.columns
    )
    for name, rows in data["tables"].items():
        got = b[b.by == name]
        assert list(got["value"]) == [r[name] for r in rows] and list(got["hands"]) == [r["hands"] for r in rows]
        assert np.allclose(got["estimate"], [r["p_make"] for r in rows], rtol=1e-12, atol=0)
        assert np.allclose(got["lo"], [r["lo"] for r in rows]) and np.allclose(got["hi"], [r["hi"] for r in rows])
    with pytest.raises(ValueError, match="no auction"):
        api.bid_odds("partnership", hands=100)


def test_games_matches_the_cli_json(capsys):
    data = cli_json(capsys, "games", "--variant", "double-deck", "--games", "200", "--seed", "3")
    g = api.games("double-deck", games=200, seed=3)
    assert (g["games"] == 200).all() and set(g["kind"]) == {"rate", "mean"}
    rows = g.set_index(["kind", "measure"])
    for kind, block in (("rate", data["rates"]), ("mean", data["means"])):
        for name, iv in block.items():
            r = rows.loc[(kind, name)]
            assert close(iv["estimate"], r.estimate) and close(iv["ci95"][0], r.lo) and close(iv["ci95"][1], r.hi)


def test_games_settles_auction_deals_in_chips():
    g = api.games("auction", games=200).set_index("measure")
    assert g.loc["the bidder", "kind"] == "mean" and g.loc["bidder collects", "kind"] == "rate"
    rates = [
        "bidder collects",
        "opponents concede (bidder collects)",
        "single bete (conceded)",
        "forfeit unseen (kitty only)",
        "double bete (set)",
    ]
    assert g.loc[rates, "estimate"].sum() == pytest.approx(1)


def test_compare_matches_the_cli_json(capsys):
    data = cli_json(capsys, "compare", "four-hand-150", "--set", "exchange.pass_cards=4", "--hands", "1500")
    c = api.compare("four-hand-150", overrides=["exchange.pass_cards=4"], hands=1500)
    assert c.attrs["verdict"] == data["verdict"]
    assert (c["variant_a"] == data["a"]).all() and (c["variant_b"] == data["b"]).all()
    rows = c.set_index("measure")
    for m in data["measures"]:
        r = rows.loc[m["measure"]]
        assert r.n == m["n"] and close(m["diff"], r.estimate) and close(m["diff_lo"], r.lo)
        assert close(m["diff_hi"], r.hi) and close(m["a"], r.a) and close(m["b_hi"], r.b_hi)
        assert r.detectable == (m["diff_lo"] > 0 or m["diff_hi"] < 0)
    head = rows.loc["bidding side makes"]
    assert head["size"] == data["size"] and head.threshold == data["threshold"]
    assert list(c["size"].cat.categories) == ["negligible", "small", "large", "unsettled"]


def test_compare_a_named_question_in_either_mode():
    c = api.compare(question="min-bid-25", hands=500)
    assert (c["mode"] == "hands").all() and c["question"].iloc[0].startswith("Minimum bid 20")
    assert c.attrs["verdict"].startswith("bidding side makes")
    with pytest.raises(ValueError, match="games only"):
        api.compare(question="bidder-wins-ties", hands=100)
    with pytest.raises(ValueError, match="not a question"):
        api.compare(question="nope")
    with pytest.raises(ValueError, match="not both"):
        api.compare("four-hand-150", question="min-bid-25")
    with pytest.raises(ValueError, match="B is A unchanged"):
        api.compare("four-hand-150", hands=10)
    with pytest.raises(ValueError, match="B plays the same game as A"):
        api.compare("partnership-auction", overrides=["redeal.min_nines=0"], hands=10)


def test_a_question_is_refused_where_it_changes_nothing_and_names_where_it_applies():
    from simcore.answers.compare import applies_to, question_rules
    from simcore.variants import NotForThisSystem, rule_differences

    with pytest.raises(NotForThisSystem, match="redeal.min_nines = 0 already") as refused:
        question_rules("five-nines-redeal", "partnership-auction")
    assert str(refused.value).endswith("it applies to four-hand-150")
    assert applies_to("five-nines-redeal") == ["four-hand-150"]
    a, b = question_rules("five-nines-redeal")  # its own system: A and B differ in the redeal only
    assert rule_differences(a, b) == ["redeal.min_nines"]
    # every question applies to its own system, and to each system it names as applying
    from simcore.answers.questions import QUESTIONS

    for name, q in QUESTIONS.items():
        assert q.variant in applies_to(name), name


HAND = "AS 10S KS QS JS AH KH QH AD JD 9C 9C"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: api.odds("pinochle", hands=0), "hands=0: give a whole number of at least 1"),
        (lambda: api.odds("pinochle", hands=-5), "hands=-5: give a whole number of at least 1"),
        (lambda: api.simulate(hands=0), "hands=0: give a whole number of at least 1"),
        (lambda: api.hold_odds(HAND, hands=0), "hands=0: give a whole number"),
        (lambda: api.hand_records(hands=0), "hands=0: give a whole number"),
        (lambda: api.games(games=0), "games=0: give a whole number"),
        (lambda: api.compare("four-hand-150", overrides=["exchange.pass_cards=4"], hands=-1), "hands=-1"),
        (lambda: api.odds("pinochle", hands=100, seed=-1), "seed=-1: give a whole number of at least 0"),
        (lambda: api.new_hand(seed="x"), "seed='x': give a whole number of at least 0"),
        (lambda: api.solve(at_least=-5), "at_least=-5: give a whole number of at least 0"),
        (lambda: api.meld(HAND, "nope"), "variant = 'nope': not a shipped rules id nor a .toml file"),
        (lambda: api.meld(HAND, overrides=["foo.bar=1"]), "overrides: foo.bar = 1: no such key"),
        (lambda: api.meld(HAND, overrides=["id=auction"]), "give variant the id or file"),
        (lambda: api.odds("nosuch", hands=100), "event 'nosuch' is not known"),
        (lambda: api.simulate(hands=100, policy="nope"), "policy: 'nope' is not a policy"),
        (lambda: api.advise(HAND, seat=9, hands=100), "seat=9: four-hand-150 seats players 0 to 3"),
        (lambda: api.advise(HAND, "partnership", hands=100), "meld() shows the hand's meld"),
        (lambda: api.simulate(hands=100, out="/nonexistent/dir/x.parquet"), "the directory /nonexistent/dir"),
        (lambda: api.meld(HAND, 7), "variant=7: give a rules id"),
        (lambda: api.odds("pinochle", hands=1000, given=123), "given=123: give the conditions as text"),
        (lambda: api.advise(HAND, hands=100, given=[1, 2]), "given=[1, 2]: give the conditions as text"),
    ],
)
def test_bad_input_raises_a_value_error_in_the_apis_own_words(call, message):
    """Each check raises ValueError with one line naming the keyword as the API spells it: no command
    line options (--variant, --set, --policy, --seat) and no pinochle commands."""
    with pytest.raises(ValueError) as e:
        call()
    text = str(e.value)
    assert message in text and "\n" not in text and "--" not in text and "pinochle " not in text, text
