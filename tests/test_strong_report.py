"""The strong-play page (``pinochle report --strong-play``, analyses.strong_report) at a tiny size: its
tables, intervals and page, the shared decisions and worker processes that must not change a number."""

import json
from dataclasses import replace

import numpy as np
import pytest
from matplotlib.figure import Figure
from test_report_pages import page_problems

from analyses import dd_make_rate, strong_deals, strong_duel, strong_games, strong_play, worst_decisions
from analyses.report import MAIN_SYSTEMS
from analyses.section import StrongSizes
from analyses.strong_report import PAGE, RUN_LINE, compute, sections, write_page, write_strong_play
from simcore.cli import main
from simcore.state.sampler import SamplingPlayer
from simcore.strong.duel import duel, duel_games
from simcore.variants import load_variant

TINY = StrongSizes.tiny()


@pytest.fixture(scope="module")
def results():
    return compute([load_variant(v) for v in MAIN_SYSTEMS], TINY, seed=1)


def inside(frame, name):
    """Every row's estimate lies in its interval."""
    return bool(((frame[f"{name}_lo"] <= frame[name] + 1e-12) & (frame[name] <= frame[f"{name}_hi"] + 1e-12)).all())


def test_duel_table_holds_each_system_with_its_intervals(results):
    table = strong_duel.duel_table(results.plays)
    assert list(table.columns) == list(strong_duel.COLUMNS)
    assert list(table["variant"]) == list(MAIN_SYSTEMS) and set(table["deals"]) == {TINY.deals}
    for name in ("sampling", "heuristic", "difference"):
        assert inside(table, name), name
    assert np.allclose(table["difference"], table["sampling"] - table["heuristic"])


def test_games_table_holds_each_system_and_is_the_cli_games_duel(results):
    table = strong_games.games_table(results.games)
    assert list(table.columns) == list(strong_games.COLUMNS)
    assert list(table["variant"]) == list(MAIN_SYSTEMS) and set(table["games"]) == {TINY.games}
    assert inside(table, "won") and set(table["even_share"]) == {0.5} and (table["hands_a_game"] >= 1).all()
    # the page's games are those `pinochle duel --policy sampling --games` plays
    v = load_variant("four-hand-150")
    got = duel_games(v, SamplingPlayer(samples=TINY.samples, solve_from=TINY.solve_from), TINY.games, 1, "sampling")
    row = table.set_index("variant").loc["four-hand-150"]
    assert got["games_won"]["mean"] == row["won"] and got["hands_a_game"] == row["hands_a_game"]


def test_make_odds_range_is_ordered_and_adds_up(results):
    by_bid, overall = dd_make_rate.by_bid_table(results.odds), dd_make_rate.overall_table(results.odds)
    assert list(by_bid.columns) == list(dd_make_rate.BY_BID_COLUMNS)
    assert inside(by_bid, "heuristic") and inside(overall, "heuristic")
    for t in (by_bid, overall):
        assert (t["dd_low_lo"] <= t["dd_low"]).all() and (t["dd_low"] <= t["dd_high"]).all()
        assert (t["dd_high"] <= t["dd_high_hi"]).all() and (t["gave_up"] <= t["hands"]).all()
        # a gave-up hand is exactly what separates the two ends
        assert np.allclose((t["dd_high"] - t["dd_low"]) * t["hands"], t["gave_up"])
    per_system = by_bid.groupby("variant")[["hands", "gave_up"]].sum()
    for r in overall.itertuples():
        assert per_system.loc[r.variant, "hands"] == r.hands <= TINY.dd_hands
        assert per_system.loc[r.variant, "gave_up"] == r.gave_up
    assert isinstance(dd_make_rate.plot_make_by_bid(by_bid), Figure)


def test_worst_decisions_tables(results):
    roles, tricks = worst_decisions.per_role_table(results.endings), worst_decisions.by_trick_table(results.endings)
    situations = worst_decisions.situations_table(results.endings)
    assert list(roles.columns) == list(worst_decisions.ROLE_COLUMNS)
    assert list(tricks.columns) == list(worst_decisions.TRICK_COLUMNS)
    for t in (roles, tricks):
        assert inside(t, "heuristic") and inside(t, "random")
        assert (t["heuristic"] >= 0).all() and (t["random"] >= 0).all()  # no card beats the best card
    assert inside(situations.rename(columns={"mean_loss": "m", "mean_loss_lo": "m_lo", "mean_loss_hi": "m_hi"}), "m")
    assert set(tricks["tricks_left"]) == set(range(1, TINY.tricks_left + 1))
    # the decisions by trick are the decisions by role, counted another way
    for r in results.endings:
        assert tricks.loc[tricks["variant"] == r.variant.id, "decisions"].sum() == len(r.decisions)


def test_bidding_card_tables(results):
    card = strong_play.card_table(results.plays[0], TINY.fit_min_hands, TINY.boot)
    assert list(card.columns) == list(strong_play.CARD_COLUMNS)
    assert list(card["play"]) == ["heuristic", "sampling", "difference"] and inside(card, "made")
    shift = strong_play.total_shift_table(results.plays)
    assert list(shift.columns) == list(strong_play.SHIFT_COLUMNS)
    for name in ("heuristic", "sampling", "difference"):
        assert inside(shift, name)
    assert np.allclose(shift["difference"], shift["sampling"] - shift["heuristic"])


def test_bidding_rule_fitted_where_both_play_alike():
    # solving only the last trick, where every card is forced, and with no playouts, the sampling player
    # is the heuristic: the two rules must be one rule, and each fit's interval must hold its estimate
    v = load_variant("four-hand-150")
    plays = strong_deals.play_deals(v, 150, 1, SamplingPlayer(samples=1, solve_from=1, rollout_from=0))
    assert np.array_equal(plays.records(True), plays.records(False))
    card = strong_play.card_table(plays, min_hands=5, boot=30).set_index("play")
    assert card.loc["heuristic", "resamples"] >= 20
    for k in ("a", "b"):
        assert card.loc["heuristic", f"{k}_lo"] <= card.loc["heuristic", k] <= card.loc["heuristic", f"{k}_hi"]
        assert card.loc["sampling", k] == card.loc["heuristic", k]
        assert card.loc["difference", [k, f"{k}_lo", f"{k}_hi"]].tolist() == [0, 0, 0]


def test_shared_decisions_change_no_card():
    # the four plays of a deal share their solved positions: the records and the duel must be those of
    # plain plays, each deciding afresh
    v = load_variant("partnership-auction")
    player = SamplingPlayer(samples=2, solve_from=3)
    plays = strong_deals.play_deals(v, 3, 2, player)
    assert np.array_equal(plays.records(True), strong_play.played_records(v, 3, 2, player))
    mine, theirs = plays.duel_points()
    got = duel(v, player, 3, 2, "sampling")
    assert got["policy_points"]["mean"] == pytest.approx(np.mean(mine))
    assert got["heuristic_points"]["mean"] == pytest.approx(np.mean(theirs))


def test_page_passes_the_page_checks(results, tmp_path):
    files = write_page(tmp_path, results, TINY, 1, MAIN_SYSTEMS, workers=1, seconds=12.0)
    page = files[0].read_text()
    assert files[0].name == PAGE and page_problems(page) == []
    assert "--deals 6 --seed 1" in page and "0.2 minutes with 1 worker process" in page
    for s in sections(results, TINY, 1):
        assert f"## {s.title}" in page
    for f in files[1:]:
        assert f.stat().st_size > 0 and f"({f.name})" in page  # every chart and table is linked
    assert {f.suffix for f in files} == {".md", ".csv", ".png"}


def test_same_seed_same_page_whatever_the_workers(tmp_path):
    sizes = replace(TINY, deals=2, dd_hands=3, endgame_hands=3)
    pages = []
    for workers in (1, 2):
        out = tmp_path / str(workers)
        write_strong_play(out, ["double-deck"], sizes, seed=3, workers=workers)
        pages.append([line for line in (out / PAGE).read_text().splitlines() if not line.startswith(RUN_LINE)])
    assert pages[0] == pages[1]


def test_cli_writes_the_page_and_its_manifest(capsys, tmp_path):
    code = main(
        [
            "report",
            "--strong-play",
            "--variant",
            "four-hand-150",
            "--deals",
            "2",
            "--limit",
            "5000",
            "--workers",
            "1",
            "--seed",
            "4",
            "--out",
            str(tmp_path),
            "--json",
        ]
    )
    manifest = json.loads(capsys.readouterr().out)
    assert code == 0 and manifest["sizes"]["deals"] == 2 and manifest["sizes"]["limit"] == 5000
    assert manifest["index"] == str(tmp_path / PAGE)
    assert (
        "pinochle report --strong-play --deals 2 --seed 4 --limit 5000 --variant four-hand-150"
        in (tmp_path / PAGE).read_text()
    )


def test_who_played_says_what_the_sampling_player_does_before_it_solves(results):
    import dataclasses

    from analyses.strong_report import players, sampling_player

    assert "playing them out" not in players(results, dataclasses.replace(TINY, rollout_from=0))
    assert "before those tricks it weighs each card" in players(results, TINY)  # by default from the first card
    with_playouts = dataclasses.replace(TINY, rollout_from=12)
    assert "from 12 tricks from the end until then it weighs each card" in players(results, with_playouts)
    assert sampling_player(with_playouts).rollout_from == 12


def test_a_stopped_run_resumes_from_its_kept_jobs(tmp_path, monkeypatch):
    import analyses.strong_report as sr

    sizes = replace(TINY, deals=2, games=1, dd_hands=2, endgame_hands=2)
    systems = [load_variant("double-deck")]
    keep = sr.partial_dir(systems, sizes, 3)
    assert keep.is_relative_to(tmp_path)  # the tests' own folder (conftest), never the repository's
    first = compute(systems, sizes, 3, keep=keep)
    (keep / "0.pkl").unlink()  # as if stopped before the first job finished
    run_jobs, ran = sr.run_jobs, []

    def only_the_lost_job(jobs, *args, **kwargs):
        def job(k):
            return lambda *a: ran.append(k) or jobs[k][0](*a)

        return run_jobs([(job(k), a) for k, (_, a) in enumerate(jobs)], *args, **kwargs)

    monkeypatch.setattr(sr, "run_jobs", only_the_lost_job)
    again = compute(systems, sizes, 3, keep=keep)
    assert ran == [0]
    assert [x.text for x in sections(again, sizes, 3)] == [x.text for x in sections(first, sizes, 3)]
    assert sr.partial_dir(systems, replace(sizes, deals=3), 3) != keep
