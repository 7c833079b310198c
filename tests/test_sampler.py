"""The sampling player (simcore.state.sampler): deals consistent with what the seat saw, double dummy on each."""

import numpy as np
import pytest

from simcore.cards import N_TYPES, parse_hand
from simcore.solver.position import Position, card_values
from simcore.state import new_hand
from simcore.state.players import kernel_policy
from simcore.state.sampler import (
    SamplingPlayer,
    TimedSamplingPlayer,
    auction_fit,
    barred_by_duties,
    deal_unseen,
    distinct_deals,
    index_by_weight,
    solves_from,
)
from simcore.variants import load_variant


def test_a_deal_gives_each_seat_its_count_never_a_void_suit_and_keeps_pinned_cards():
    # cases built from a real deal, so that one always exists: voids are suits a seat really lacks
    rng = np.random.default_rng(5)
    seats = [1, 2, 3]
    for _ in range(300):
        truth = {s: rng.integers(0, N_TYPES, size=int(rng.integers(0, 8))).tolist() for s in seats}
        out = rng.integers(0, N_TYPES, size=int(rng.integers(0, 4))).tolist()
        void = {s: {u for u in range(4) if all(c // 6 != u for c in truth[s]) and rng.random() < 0.7} for s in seats}
        pinned = {s: truth[s][:1] if s == 2 else [] for s in seats}
        need = {s: len(truth[s]) - len(pinned[s]) for s in seats}
        pool = sorted([c for s in seats for c in truth[s][len(pinned[s]) :]] + out)
        got = deal_unseen(rng, pool, need, void, pinned)
        assert got is not None
        left = list(pool)
        for s in seats:
            assert got[s][: len(pinned[s])] == pinned[s]
            extra = got[s][len(pinned[s]) :]
            assert len(extra) == need[s] and all(c // 6 not in void[s] for c in extra)
            for c in extra:
                left.remove(c)  # every card dealt came from the pool, once
        assert len(left) == len(out)


def test_a_seat_is_drawn_as_numpy_choice_draws_it_from_the_same_stream():
    # the deals of kept runs were drawn with rng.choice; the cheaper draw must take the same double to
    # the same index, or those runs would no longer replay
    rng = np.random.default_rng(11)
    for _ in range(3000):
        weights = [int(x) for x in rng.integers(0, 13, size=int(rng.integers(1, 7)))]
        if not any(weights):
            continue
        seed = int(rng.integers(1 << 62))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        p = np.array(weights, dtype=np.float64) / sum(weights)
        assert [int(a.choice(len(weights), p=p)) for _ in range(4)] == [index_by_weight(b, weights) for _ in range(4)]


def _hidden_truth_fits(v, state, sp, seat):
    """What the seat inferred (unseen pool, counts, voids, pinned cards) holds for the real hidden hands."""
    obs = state.observation(seat)
    pool, need, void, pinned = sp._unseen(v, seat, obs)
    t = state._table  # the test may look: the truth the inference must admit
    in_trick = {s for s, _ in t.trick}
    for s in need:
        real = [c for c in range(N_TYPES) for _ in range(t.hands[s][c])]
        assert len(real) == need[s] + len(pinned[s]), s
        for c in pinned[s]:
            real.remove(c)
        assert all(c // 6 not in void[s] for c in real), (s, void[s])
        for c in real:
            pool.remove(c)
        assert (s in in_trick) == any(w == s for w, _ in t.trick)


@pytest.mark.parametrize("vid", ["partnership-auction", "auction", "double-deck", "partnership"])
def test_the_inference_admits_the_real_deal_and_the_player_finishes_hands(vid):
    v = load_variant(vid)
    sp = SamplingPlayer(samples=3, solve_from=4)
    heuristic = kernel_policy("heuristic")
    checked = 0
    for seed in range(40):  # auction forfeits most hands unseen: play on until 20 decisions are checked
        if checked >= 20:
            break
        state = new_hand(v, seed)
        while not state.is_terminal():
            seat, r = state.current_player(), state.request()
            if r.kind == "play" and len(state.observation(seat)["hand"]) <= 4 and not state.observation(seat)["stock"]:
                _hidden_truth_fits(v, state, sp, seat)
                checked += 1
            action = sp(state) if seat % 2 == 0 else heuristic(state)
            assert action.value in r.legal
            state.apply(action)
        assert state.record() is not None
    assert checked >= 20


def _real_position(v, state, sp, seat, obs) -> tuple[Position, list[int]]:
    """(the real position at the start of the trick in progress, every hand as the table holds it, the
    trick's cards so far): what every sampled deal is once no card is hidden from ``seat``."""
    t = state._table
    hands = np.array(t.hands, dtype=np.uint8)
    for s, c in t.trick:
        hands[s, c] += 1
    trump = "SHDC".index(obs["trump"])
    broken = any(c // 6 == trump for _, cards, _, _ in t.tricks for c in cards)
    leader = t.trick[0][0] if t.trick else seat
    return Position(v, hands, trump, leader, sp._side(v, obs), obs["bidder"], False, broken), [c for _, c in t.trick]


def test_with_no_card_hidden_the_mean_values_are_the_exact_double_dummy_values():
    # two-hand once the stock is gone: every unseen card is the opponent's, so each sampled deal is the
    # real one and the mean value of each card is the solver's exact value of the real position
    v = load_variant("two-hand")
    sp = SamplingPlayer(samples=2, solve_from=5)
    heuristic = kernel_policy("heuristic")
    compared = 0
    for seed in range(3):
        state = new_hand(v, seed)
        while not state.is_terminal():
            seat, obs = state.current_player(), None
            r = state.request()
            if r.kind == "play":
                obs = state.observation(seat)
            if obs and not obs["stock"] and len(obs["hand"]) <= 5 and len(r.legal) > 1:
                real, trick = _real_position(v, state, sp, seat, obs)
                exact = card_values(real, trick)
                assert sp.mean_values(state, seat) == {c: float(x) for c, x in exact.items()}
                compared += 1
            state.apply(heuristic(state))
    assert compared >= 5


def test_searched_values_before_the_solved_tricks_are_the_search_of_the_real_position():
    # two-hand once the stock is gone: each sampled deal is the real one, so the searched player's
    # values are searched_card_values of the real position: exact where its budget proves them (then
    # the solver's values), estimated at a budget of one trick start; the card played is a best one
    from simcore.solver.position import searched_card_values

    v = load_variant("two-hand")
    proved = SamplingPlayer(samples=2, solve_from=1, search_budget=10**7)
    shallow = SamplingPlayer(samples=2, solve_from=1, search_budget=1)
    heuristic = kernel_policy("heuristic")
    compared = 0
    for seed in range(2):
        state = new_hand(v, seed)
        while not state.is_terminal():
            seat, r = state.current_player(), state.request()
            obs = state.observation(seat) if r.kind == "play" else None
            if obs and not obs["stock"] and 2 <= len(obs["hand"]) <= 5 and len(r.legal) > 1:
                real, trick = _real_position(v, state, proved, seat, obs)
                exact = card_values(real, trick)
                assert proved.rollout_values(state, seat, r.legal) == {c: float(x) for c, x in exact.items()}
                found = searched_card_values(real, trick, 1)
                values = shallow.rollout_values(state, seat, r.legal)
                assert values == {c: float(x.points) for c, x in found.items()}
                sign = 1 if shallow._side(v, obs)[seat] == 1 else -1
                assert sign * values[shallow(state).value] == max(sign * x for x in values.values())
                compared += 1
            state.apply(heuristic(state))
    assert compared >= 5
    assert "search_budget=1" in repr(shallow) and "-search1" in shallow.settings_name(v)
    with pytest.raises(ValueError):
        SamplingPlayer(search_budget=-1)


def test_a_deal_drawn_again_is_solved_once_and_weighed_by_its_draws(monkeypatch):
    v = load_variant("four-hand-150")
    sp = SamplingPlayer(samples=3, solve_from=4)
    heuristic = kernel_policy("heuristic")
    state = new_hand(v, 5)
    while True:
        r = state.request()
        if r.kind == "play" and len(r.legal) > 1 and len(state.observation(r.seat)["hand"]) <= 4:
            break
        state.apply(heuristic(state))
    obs = state.observation(r.seat)
    drawn, trick = sp._positions(v, r.seat, obs)
    assert len({p.hands.tobytes() for p in drawn}) == 3
    a, b, c = drawn
    repeated = [a, b, a, a, c, b]
    assert [(p is q, n) for (p, n), q in zip(distinct_deals(repeated), (a, b, c), strict=True)] == [
        (True, 3),
        (True, 2),
        (True, 1),
    ]
    plain = {}
    for p in repeated:
        for card, x in card_values(p, trick).items():
            plain[card] = plain.get(card, 0) + x
    monkeypatch.setattr(sp, "_positions", lambda *args: (repeated, trick))
    assert sp.mean_values(state, r.seat, obs) == {card: x / 6 for card, x in plain.items()}


def test_two_hand_solves_every_trick_after_the_stock_and_other_systems_the_last_six_unless_told():
    from simcore.answers.strong import Play, check_play

    two, four = load_variant("two-hand"), load_variant("four-hand-150")
    assert (solves_from(two, None), solves_from(four, None), solves_from(two, 3)) == (12, 6, 3)
    assert check_play(two, Play("strong")).solve_from == 12 and check_play(four, Play("strong")).solve_from == 6
    assert check_play(two, Play("strong", solve_from=2)).solve_from == 2
    # the duties of play: read by default where the system's player reads them, named in the text and params
    dd = load_variant("double-deck")
    four_play, dd_play = check_play(four, Play("strong")), check_play(dd, Play("strong"))
    assert four_play.read_duties is True and dd_play.read_duties is False
    assert "the deals fitting the duties of play," in four_play.text() and "fitting" not in dd_play.text()
    assert check_play(four, Play("strong", read_duties=False)).params()["read_duties"] is False
    player = TimedSamplingPlayer(samples=2)
    state = new_hand(two, 3)
    while not state.is_terminal():
        state.apply(player(state))
    assert player.decisions > 0 and player.rollouts == 0  # every card after the stock solved
    told = TimedSamplingPlayer(samples=2, solve_from=3)
    state = new_hand(two, 3)
    while not state.is_terminal():
        state.apply(told(state))
    assert told.rollouts > 0


@pytest.mark.parametrize("vid", ["four-hand-150", "double-deck", "auction", "five-hand-called-card"])
def test_the_duties_of_play_bar_only_cards_a_seat_does_not_hold(vid):
    # a follower who must head and followed below the winning card holds no card of the suit above it
    from simcore.kernels.play import beats

    v = load_variant(vid)
    sp = SamplingPlayer()
    heuristic = kernel_policy("heuristic")
    headed = barred_cards = 0
    for seed in range(6):
        state = new_hand(v, seed)
        while not state.is_terminal():
            r = state.request()
            if r.kind == "play" and not state.observation(r.seat)["stock"]:
                obs = state.observation(r.seat)
                barred = barred_by_duties(v, r.seat, obs, sp._side(v, obs))
                for s, cards in barred.items():  # the test may look at the hands
                    assert not any(state._table.hands[s][x] for x in cards), (seed, s, sorted(cards))
                    barred_cards += len(cards)
                trick = [(s, int(parse_hand(c).argmax())) for s, c in obs["trick"]]
                trump = "SHDC".index(obs["trump"])
                if len(trick) >= 2 and v.get("play.follow_must_head") == "always":
                    (win_seat, led), side = trick[0], sp._side(v, obs)
                    win = led
                    for s, t in trick[1:]:
                        if (
                            s != r.seat
                            and t // 6 == led // 6 == win // 6
                            and not beats(t, win, trump)
                            and (v.get("play.beat_partner") or side[s] != side[win_seat])
                        ):
                            assert set(range(led // 6 * 6, win)) <= barred[s]
                            headed += 1
                        if beats(t, win, trump):
                            win, win_seat = t, s
            state.apply(heuristic(state))
    assert barred_cards > 0 and (headed > 0 or v.get("play.follow_must_head") != "always")


def test_a_trump_played_instead_of_following_bars_no_trump_and_a_discard_bars_the_suit_and_trumps():
    from simcore.cards import parse_card

    # five-hand-widow lets a player trump instead of following; made to overtrump too, a low trump after
    # a higher one does not show him void in the led suit, so no higher trump is barred
    v = load_variant("five-hand-widow", ["play.void_must_overtrump=true"])
    obs = {"trump": "S", "bidder": 0, "trick": [], "tricks": [(1, ["AH", "KS", "QS", "9H", "JD"], 2, 0)]}
    barred = barred_by_duties(v, 4, obs, (1, 0, 0, 0, 0))
    assert not {parse_card("AS"), parse_card("10S")} & barred[3]
    # seat 0 threw a diamond on a heart lead: no heart, and (void seats must trump) no spade
    assert {parse_card(c) for c in ("AH", "9H", "AS", "9S")} <= barred[0]
    assert parse_card("AD") not in barred[0]


def test_a_barred_card_never_goes_to_the_seat_and_no_bar_draws_as_before():
    rng = np.random.default_rng(3)
    pool = list(range(12))
    void = {1: set(), 2: set()}
    pinned = {1: [], 2: []}
    barred = {1: set(range(6)), 2: set()}
    for _ in range(50):
        deal = deal_unseen(rng, pool, {1: 6, 2: 6}, void, pinned, barred=barred)
        assert sorted(deal[1]) == list(range(6, 12)) and sorted(deal[2]) == list(range(6))
    a, b = np.random.default_rng(5), np.random.default_rng(5)
    need = {1: 4, 2: 4}
    assert deal_unseen(a, pool, need, void, pinned) == deal_unseen(b, pool, need, void, pinned, barred={1: set()})


def test_cli_duel_plays_the_sampling_player(capsys):
    import json

    from simcore.cli import main

    assert (
        main(
            [
                "duel",
                "--variant",
                "partnership-auction",
                "--policy",
                "sampling",
                "--hands",
                "2",
                "--samples",
                "2",
                "--solve-from",
                "3",
                "--json",
            ]
        )
        == 0
    )
    got = json.loads(capsys.readouterr().out)
    assert got["policy"] == "sampling" and got["hands"] == 2 and got["seat_sets"] == [[0, 2], [1, 3]]
    assert main(["duel", "--variant", "partnership-auction", "--policy", "sampling", "--samples", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    from simcore.state.sampler import READS_DUTIES, reads_duties
    from simcore.strong.duel import load_policy

    v, dd = load_variant("partnership-auction"), load_variant("double-deck")
    assert "double-deck" not in READS_DUTIES and not reads_duties(dd, None) and reads_duties(dd, True)
    assert reads_duties(v, None) and not reads_duties(v, False)
    read = load_policy("sampling", samples=2, read_duties=True)
    assert read.read_duties is True and read.settings_name(dd).endswith("-duties")
    assert not load_policy("sampling", samples=2, read_duties=False).settings_name(v).endswith("-duties")
    told = ["duel", "--variant", "four-hand-150", "--policy", "sampling", "--hands", "1", "--samples", "2"]
    assert main([*told, "--read-duties", "--json"]) == 0 and json.loads(capsys.readouterr().out)["hands"] == 1


def test_the_cards_a_seat_laid_down_in_meld_stay_its_own_in_every_sampled_deal():
    # partnership-auction: a defender has passed nothing, so whatever it pins to another seat it read
    # from that seat's meld; each sampled deal gives every seat the cards it showed and has not played
    v = load_variant("partnership-auction")
    sp = SamplingPlayer(samples=3, solve_from=6)
    heuristic = kernel_policy("heuristic")
    pinned_cards = 0
    for seed in range(6):
        state = new_hand(v, seed)
        while not state.is_terminal():
            seat, r = state.current_player(), state.request()
            obs = state.observation(seat) if r.kind == "play" else None
            if obs and len(obs["hand"]) == 6 and obs["bidder"] % 2 != seat % 2:
                pool, need, void, pinned = sp._unseen(v, seat, obs)
                for s in need:
                    left = parse_hand(" ".join(obs["shown"][s])).astype(int) if obs["shown"][s] else np.zeros(24, int)
                    for lead, cards, _, _ in obs["tricks"]:
                        for i, c in enumerate(cards):
                            if (lead + i) % v.players == s:
                                left[parse_hand(c).argmax()] -= 1
                    for w, c in obs["trick"]:
                        if w == s:
                            left[parse_hand(c).argmax()] -= 1
                    left = np.maximum(left, 0)
                    assert np.array_equal(np.bincount(pinned[s], minlength=24), left), (seed, s)
                    pinned_cards += int(left.sum())
                rng = np.random.default_rng(seed)
                for _ in range(5):
                    got = deal_unseen(rng, pool, need, void, pinned)
                    assert got is not None
                    for s in need:
                        assert np.all(np.bincount(got[s], minlength=24) >= np.bincount(pinned[s], minlength=24))
            state.apply(heuristic(state))
    assert pinned_cards > 20  # the meld pinned cards, not only passing


@pytest.mark.parametrize(
    "vid, read",
    [
        ("partnership-auction", True),
        ("four-hand-150", True),
        ("double-deck", True),
        ("auction", True),
        ("five-hand-called-card", True),
        ("two-hand", False),  # the draws from the stock hide both hands as they were bid
    ],
)
def test_the_auction_admits_the_real_deal_and_rejects_others(vid, read):
    # every seat bids by the model here, so the real hands at each trick's start must fit the auction as
    # each seat saw it, passes, widow and all; random deals of the unseen cards must not all fit
    v = load_variant(vid)
    sp = SamplingPlayer(samples=1, read_auction=True)
    heuristic = kernel_policy("heuristic")
    tested = rejected = 0
    for seed in range(12):
        state = new_hand(v, seed)
        while not state.is_terminal():
            seat, r = state.current_player(), state.request()
            obs = state.observation(seat)
            if r.kind == "play" and not obs["stock"]:
                fits = auction_fit(v, seat, obs)
                if fits is not None:
                    truth = np.array(state._table.hands, dtype=np.uint8)  # the test may look
                    for s, c in state._table.trick:
                        truth[s, c] += 1
                    assert fits(truth), (seed, seat, obs["bids"], obs["moves"])
                    tested += 1
                    rng = np.random.default_rng(seed)
                    position_of, _ = sp._position_maker(v, seat, obs)
                    pool, need, void, pinned = sp._unseen(v, seat, obs)
                    rejected += not all(
                        fits(position_of(deal_unseen(rng, pool, need, void, pinned)).hands) for _ in range(20)
                    )
            state.apply(heuristic(state))
    assert (tested > 0 and rejected > 0) if read else tested == 0


def test_the_bids_are_read_where_that_pays_and_can_be_set_everywhere_the_player_plays(capsys):
    import json

    from simcore import api
    from simcore.answers.strong import Play
    from simcore.cli import main
    from simcore.state.sampler import READS_BIDS, reads_auction
    from simcore.strong.duel import load_policy

    pa, four = load_variant("partnership-auction"), load_variant("four-hand-150")
    assert READS_BIDS == ("partnership-auction",)  # the measured default: docs/policies.md
    assert reads_auction(pa, None) and not reads_auction(four, None)
    assert reads_auction(four, True) and not reads_auction(pa, False)
    assert (
        load_policy("sampling").read_auction is None
        and load_policy("sampling", read_auction=False).read_auction is False
    )
    assert load_policy("strong").player.read_auction is False  # its partner bids by the sampled value, not the model
    assert "fitting the bids" in Play("strong", read_auction=True).text() and "fitting" not in Play("strong").text()
    with pytest.raises(ValueError, match="read_auction"):
        api.bid_odds("four-hand-150", hands=2, meld=10, play="strong", read_auction="yes")
    bench = ["bench", "--sampling", "1", "--samples", "2", "--solve-from", "2", "--rollout-from", "0", "--json"]
    assert main(bench) == 0
    assert [(r["variant"], r["read_auction"]) for r in json.loads(capsys.readouterr().out)] == [
        ("partnership-auction", True),
        ("four-hand-150", False),
        ("double-deck", False),
    ]
    assert main([*bench, "--read-auction"]) == 0
    assert all(r["read_auction"] for r in json.loads(capsys.readouterr().out))
