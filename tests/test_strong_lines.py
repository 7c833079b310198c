"""The kept strong-play runs behind the cards' strong-play line (analyses.strong_lines)."""

from __future__ import annotations

import pytest

from analyses.section import Sizes
from analyses.strong_deals import play_deal
from analyses.strong_lines import SYSTEMS, load, path_for, section
from simcore.variants import load_variant

#: Deals replayed from each kept run: enough to see any change in the players or the rules.
REPLAYED = 3


@pytest.mark.parametrize("vid", SYSTEMS)
def test_a_kept_run_replays_with_the_current_code(vid):
    # the card reads plays measured once and committed; when the heuristic, the sampling player or the
    # rules change, these first deals no longer come out the same: run `python -m analyses.strong_lines`
    v = load_variant(vid)
    kept = load(v)
    assert kept is not None, f"no kept run for {vid}: python -m analyses.strong_lines {vid}"
    assert len(kept.deals.plays) == kept.about["deals"] >= 2_000
    for i in range(REPLAYED):
        assert play_deal(v, kept.about["seed"], i, kept.deals.player) == kept.deals.plays[i], (
            f"{vid} deal {i} plays differently now: python -m analyses.strong_lines {vid}"
        )


def test_a_run_kept_under_other_rules_is_not_read():
    v = load_variant("four-hand-150", ["tricks.last_trick=0"])
    assert v.content_hash != load_variant("four-hand-150").content_hash
    assert load(v, path_for("four-hand-150")) is None


def test_the_section_states_the_line_and_the_run():
    s = section(load_variant("partnership-auction"), Sizes.small())
    assert s is not None
    assert s.text.startswith("Under strong play") and "2,000 deals (seed 1)" in s.text
    t = s.tables["strong_line"].set_index("play")
    assert list(t.index) == ["heuristic", "sampling", "difference"]
    d = t.loc["difference"]
    assert d["a_lo"] <= d["a"] <= d["a_hi"] and d["total_lo"] <= d["total"] <= d["total_hi"]
    assert section(load_variant("auction"), Sizes.small()) is None


def test_a_run_says_whether_its_sampling_player_played_out_the_tricks_before_it_solved():
    from analyses.strong_lines import run_text

    kept = load(load_variant("double-deck"))
    assert kept.deals.player.rollout_from == kept.about.get("rollout_from", 0)
    about = {**kept.about, "rollout_from": 0}
    assert "played out" not in run_text(about)
    assert "played out by the heuristic from 20 tricks from the end" in run_text({**about, "rollout_from": 20})


def test_a_run_says_what_its_sampled_deals_fit_and_replays_with_it():
    from analyses.strong_lines import run_text

    kept = load(load_variant("double-deck"))
    assert kept.deals.player.read_duties == kept.about.get("read_duties", False)
    about = {**kept.about, "read_auction": False, "read_duties": False}
    assert "fitting" not in run_text(about)
    assert "a card fitting the duties of play," in run_text({**about, "read_duties": True})
    both = run_text({**about, "read_auction": True, "read_duties": True})
    assert "a card fitting the bids and the duties of play," in both
