"""The kept strong-play runs behind the cards' strong-play line (analyses.strong_lines)."""

from __future__ import annotations

from pathlib import Path

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


def _committed_line(vid: str):
    """The committed strong-line table of ``vid`` and its rule of thumb, as the card reads them."""
    import pandas as pd

    reports = Path(__file__).parent.parent / "reports"
    table = pd.read_csv(reports / f"{vid}-strong_line.csv")
    table.attrs["about"] = {"solve_from": 6, "rollout_from": 100}
    return table, pd.read_csv(reports / f"{vid}-rule_of_thumb.csv").iloc[0]


def test_two_lines_that_print_alike_read_as_the_same_line():
    from analyses.strong_lines import card_sentence

    table, _ = _committed_line("partnership-auction")  # 152.9 + 1.1287 against 152.7 + 1.1279
    said = card_sentence(table)
    assert "bid up to 153 + 1.13 × your meld, the same line as the heuristic's on the same deals" in said
    assert said.count("153 + 1.13") == 1
    table, _ = _committed_line("four-hand-150")
    assert "bid up to 26.9 + 0.75 × your meld, against 26.2 + 0.74 × your meld" in card_sentence(table)


def test_a_heuristic_line_unlike_the_rule_of_thumb_says_why():
    from analyses.strong_lines import card_sentence

    table, rule = _committed_line("four-hand-150")  # the rule 26.0 + 0.80, the kept run's 26.2 + 0.74
    said = card_sentence(table, rule)
    assert (
        "The heuristic's line differs from the rule of thumb (26.0 + 0.80 × your meld) because it is fitted on "
        f"these 2,000 deals only, the rule on {int(rule['hands']):,} hands: a smaller sample, whose 95% range "
        "holds the rule."
    ) in said
    far = rule.copy()
    far["a"] = 40.0  # outside the kept run's interval for a
    assert card_sentence(table, far).endswith("a smaller sample, though its 95% range misses the rule.")
    same = rule.copy()
    same["a"], same["b"] = 26.18, 0.741  # prints as the heuristic's line: nothing to explain
    assert "rule of thumb" not in card_sentence(table, same)
