"""Monte Carlo estimates against exact values, with fixed seeds so the tests are deterministic.

Each estimate must lie within 4.5 standard errors of the exact value. The per-hand standard error
takes the design effect of dealing several hands from one deck (never below independent hands).
"""

import math

import numba
import pytest

from simcore.answers.odds import simulate_odds
from simcore.kernels.events import CATALOGUE, parse_event
from simcore.variants import load_variant

Z_MAX = 4.5


def _check(result):
    players = result.variant.players
    n_hands = result.deals * players
    checked = 0
    for o in result.events:
        if o.exact_hand is None:
            continue
        p = float(o.exact_hand)
        est = o.per_hand.estimate
        if p in (0.0, 1.0):
            assert est == p, o.event.name
            checked += 1
            continue
        # design effect from the interval width the estimate reports (clustered by deal)
        half = (o.per_hand.hi - o.per_hand.lo) / 2
        se_indep = math.sqrt(p * (1 - p) / n_hands)
        se = max(se_indep, half / 1.96) if est > 0 else se_indep
        assert abs(est - p) <= Z_MAX * se + 1 / n_hands, (o.event.name, est, p, se)
        checked += 1
        if o.exact_deal is not None:
            q = float(o.exact_deal)
            se_deal = math.sqrt(q * (1 - q) / result.deals)
            assert abs(o.per_deal.estimate - q) <= Z_MAX * se_deal + 1 / result.deals, o.event.name
    return checked


@pytest.mark.slow
def test_four_hand_estimates_agree_with_exact_values():
    v = load_variant("four-hand-150")
    names = list(CATALOGUE) + ["meld>=4", "meld>=10", "meld>=20", "meld>=30"]
    result = simulate_odds(v, [parse_event(n, v) for n in names], 800_000, seed=20261129)
    assert result.hands == 800_000 and not result.interrupted
    assert _check(result) == len(names)  # every event has an exact per-hand value
    # the frequent events are measured tightly enough for the comparison to mean something
    marriage = result.events[0]
    assert marriage.per_hand.hi - marriage.per_hand.lo < 0.005


@pytest.mark.slow
@pytest.mark.parametrize(
    "vid, extra",
    [("double-deck", ["meld>=30", "meld>=60"]), ("five-hand-called-card", ["meld>=200"]), ("auction", ["meld>=300"])],
)
def test_other_decks_agree_with_exact_values(vid, extra):
    v = load_variant(vid)
    names = [n for n in CATALOGUE if n not in ("double-run",)] + extra
    result = simulate_odds(v, [parse_event(n, v) for n in names], 300_000, seed=7)
    assert _check(result) == len(names)


def test_same_seed_same_numbers_whatever_the_thread_count():
    v = load_variant("four-hand-150")
    events = [parse_event(n, v) for n in ("pinochle", "five-nines", "meld>=12")]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_odds(v, events, 300_000, seed=5, exact=False)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = simulate_odds(v, events, 300_000, seed=5, exact=False)
    finally:
        numba.set_num_threads(before)
    assert one.to_json()["events"] == two.to_json()["events"]
    other = simulate_odds(v, events, 300_000, seed=6, exact=False)
    assert other.to_json()["events"] != one.to_json()["events"]


def test_a_longer_run_extends_a_shorter_one_chunk_by_chunk():
    # chunk k draws from (seed, k): the first 32768 deals of a 70000-deal run are a 32768-deal run
    from simcore.run.runner import CHUNK_DEALS

    v = load_variant("four-hand-150")
    events = [parse_event("marriage", v)]
    short = simulate_odds(v, events, CHUNK_DEALS * v.players, seed=3, exact=False)
    longer = simulate_odds(v, events, 70_000 * v.players, seed=3, exact=False)
    assert short.deals == CHUNK_DEALS and longer.deals == 70_000
    assert longer.events[0].per_hand.estimate != short.events[0].per_hand.estimate
    again = simulate_odds(v, events, CHUNK_DEALS * v.players, seed=3, exact=False)
    assert again.to_json() == short.to_json()


def test_wilson_interval_known_values_and_edges():
    from simcore.run.stats import wilson

    iv = wilson(10, 100)
    assert iv.estimate == 0.1 and abs(iv.lo - 0.05523) < 1e-4 and abs(iv.hi - 0.17437) < 1e-4
    assert wilson(0, 50).lo == 0.0 and wilson(50, 50).hi == 1.0
    assert wilson(50, 50).lo < 1.0 and wilson(0, 50).hi > 0.0


@pytest.mark.slow
@pytest.mark.parametrize(
    "vid, names",
    [
        ("five-hand-widow-96", ["meld>=10", "meld>=39", "double-pinochle", "five-nines", "aces-around"]),
        (
            "six-hand-triple-pack",
            ["meld>=180", "meld>=640", "double-pinochle", "double-aces", "aces-around", "no-aces"],
        ),
    ],
)
def test_big_decks_agree_with_exact_values(vid, names):
    # 96 and 120 cards: the exact meld distribution comes from the modular kernels (seconds)
    v = load_variant(vid)
    result = simulate_odds(v, [parse_event(n, v) for n in names], 240_000, seed=11)
    assert _check(result) == len(names)


def test_each_chunk_runs_every_chunk_once_and_raises_a_chunks_error():
    from simcore.kernels.threads import each_chunk

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        seen = []
        each_chunk(seen.append, 7)
        assert sorted(seen) == list(range(7))

        def fails(i: int) -> None:
            if i == 3:
                raise ValueError("chunk 3")

        with pytest.raises(ValueError, match="chunk 3"):
            each_chunk(fails, 5)
    finally:
        numba.set_num_threads(before)
