"""Conditions on other seats (``--given``): the language, exact acceptance worked by hand (the
hypergeometric), the conditioned deal against brute-force rejection in plain Python on a small deck,
and refusals of impossible or too rare conditions."""

import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from simcore import api
from simcore.answers.advise import advise
from simcore.answers.conditioned import FLOOR, check_condition, exact_acceptance, read_condition
from simcore.answers.given import given_odds
from simcore.answers.partner_meld import partner_meld
from simcore.answers.widow import widows
from simcore.cards import N_TYPES, RANKS, SUITS, parse_hand
from simcore.cli import main
from simcore.kernels import hand_record as h
from simcore.kernels.auction_condition import condition_rows, read_auction
from simcore.kernels.compiled import hand_rules
from simcore.kernels.condition import (
    NO_LIMIT,
    Q_CARD,
    Q_MELD,
    Q_RANK,
    Q_SUIT,
    Q_TRUMP,
    Q_VALUE,
    Bound,
    Clause,
    Condition,
    ConditionError,
    accepts,
    condition_work,
    deal_accepted_into,
    hand_quantity,
    parse_condition,
)
from simcore.kernels.events import CATALOGUE, event_arrays, hand_has_event
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.meld import meld_under
from simcore.kernels.policies import hand_value, parse_policies
from simcore.kernels.rng import chunk_states
from simcore.reference.meld import reference_total
from simcore.variants import load_variant

FOUR = load_variant("four-hand-150")  # 48 cards (A 10 K Q J 9, two copies), four hands of 12, partners across


def _parse(text, variant=FOUR, me=0):
    return parse_condition(
        text,
        variant.players,
        me,
        variant.players == 4,
        bool(variant.get("deal.widow")) and variant.get("deal.widow_kind") != "stock",
    )


def test_the_language_reads_places_and_tests():
    c = _parse("partner: meld>=20; left: holds AS AS JD, spades<=2; right: aces>=3 and meld(H)>=4; seat 3: value>=30")
    assert [cl.seats for cl in c.clauses] == [(2,), (1,), (3,), (3,)]
    assert c.clauses[0].tests == (Bound(Q_MELD, -1, 20, int(NO_LIMIT)),)
    assert c.clauses[1].tests == (
        Bound(Q_CARD, 0, 2, int(NO_LIMIT)),
        Bound(Q_CARD, 16, 1, int(NO_LIMIT)),
        Bound(Q_SUIT, 0, 0, 2),
    )
    assert c.clauses[2].tests == (Bound(Q_RANK, 0, 3, int(NO_LIMIT)), Bound(Q_MELD, 1, 4, int(NO_LIMIT)))
    assert c.clauses[3].tests == (Bound(Q_VALUE, 0, 30, int(NO_LIMIT)),)
    # places are seen from my seat; 'any' is every other player; the widow is seat `players`
    assert _parse("left: trump>5; right: lacks QS; partner: kings=2", me=2).clauses[0].seats == (3,)
    c = _parse("left: trump>5; right: lacks QS; any: tens<2", me=2)
    assert c.clauses[1].seats == (1,) and c.clauses[1].tests == (Bound(Q_CARD, 3, 0, 0),)
    assert c.clauses[2].seats == (0, 1, 3) and c.clauses[2].tests == (Bound(Q_RANK, 1, 0, 1),)
    assert c.clauses[0].tests == (Bound(Q_TRUMP, 0, 6, int(NO_LIMIT)),)
    auction = load_variant("auction")
    assert _parse("widow: holds AS", auction).clauses[0].seats == (3,)
    assert _parse(["left: AS=1", "widow: 10s>=1"], auction).clauses[1].tests == (Bound(Q_CARD, 1, 1, int(NO_LIMIT)),)
    rows = condition_rows(FOUR, _parse("left: holds AS; partner: value>=30"))
    assert rows.shape == (2, 11) and list(rows[:, 1]) == [2, 4]  # seat bit masks


@pytest.mark.parametrize(
    "text, variant, message",
    [
        ("partner meld>=20", FOUR, "write PLACE: TEST"),
        ("north: meld>=20", FOUR, "place 'north' is not known"),
        ("left: meld=>20", FOUR, "is not understood"),
        ("left: holds XS", FOUR, "'XS' is not a card"),
        ("left: holds", FOUR, "'holds' needs cards"),
        ("left: colour>=2", FOUR, "'colour' is not a quantity"),
        ("seat 4: aces>=1", FOUR, "seats are 0 to 3"),
        ("widow: aces>=1", FOUR, "this system deals no widow"),
        ("partner: aces>=1", load_variant("auction"), "no fixed partners"),
        ("left: aces>=1,", FOUR, "an empty test"),
        ("  ;  ", FOUR, "no condition"),
    ],
)
def test_bad_conditions_are_refused_in_one_line(text, variant, message):
    with pytest.raises(ConditionError, match=None) as e:
        _parse(text, variant)
    assert message in str(e.value) and "\n" not in str(e.value)


def _exact(text, variant=FOUR, given=None, seat=-1):
    return exact_acceptance(variant, _parse(text, variant), None if given is None else parse_hand(given), seat)


def test_exact_acceptance_is_the_hypergeometric_worked_by_hand():
    c = math.comb
    # I hold one AS: the other is one of 47 unseen cards, left holds 12 of them
    assert _exact("left: holds AS", given="AS", seat=0) == Fraction(12, 47)
    # nothing held: right holds both AS in C(46, 10) of the C(48, 12) hands
    assert _exact("right: holds AS AS") == Fraction(c(46, 10), c(48, 12)) == Fraction(11, 188)
    # at most two spades of the 12 in 48
    assert _exact("left: spades<=2") == Fraction(sum(c(12, k) * c(36, 12 - k) for k in range(3)), c(48, 12))
    # partner: three aces or more of the eight
    assert _exact("partner: aces>=3") == Fraction(sum(c(8, k) * c(40, 12 - k) for k in range(3, 9)), c(48, 12))
    # my own hand: I hold AS, 11 cards to come from 47 holding 7 aces: at least one more
    assert _exact("me: aces>=2", given="AS", seat=0) == 1 - Fraction(c(40, 11), c(47, 11))
    # two clauses on one hand: no spade ace and exactly 3 spades
    assert _exact("left: lacks AS; left: spades=3") == Fraction(c(10, 3) * c(36, 9), c(48, 12))
    # the widow of auction: 3 cards of 48
    assert _exact("widow: holds AS", load_variant("auction")) == 1 - Fraction(c(46, 3), c(48, 3))
    # no closed form: several hands, meld, or 'any'
    assert _exact("left: holds AS; right: holds AS") is None
    assert _exact("left: meld>=10") is None and _exact("any: holds AS") is None


def test_exact_conditional_odds_at_the_conditioned_hand():
    # P(left holds a pinochle | left holds both QS): 1 - P(no JD among left's other 10 of 46)
    result = given_odds(
        FOUR,
        [CATALOGUE["pinochle"]],
        np.zeros(N_TYPES, dtype=np.uint8),
        200_000,
        3,
        condition=_parse("left: holds QS QS"),
    )
    left = result.events[0][1]["left"]
    assert left.exact == 1 - Fraction(math.comb(44, 10), math.comb(46, 10))
    p = float(left.exact)
    assert abs(left.estimate.estimate - p) < 4.5 * math.sqrt(p * (1 - p) / result.deals)
    assert result.events[0][1]["partner"].exact is None  # another hand: estimated
    accepted = Fraction(math.comb(46, 10), math.comb(48, 12))
    a = result.acceptance
    assert a.exact == accepted and a.accepted == result.deals
    assert abs(a.accepted / a.tried - float(accepted)) < 4.5 * math.sqrt(float(accepted) / a.tried)


# --- the kernel against plain Python ---------------------------------------------------------------

SMALL = load_variant("four-hand-150", ['deck.ranks=["A","K","Q","J"]', "deal.hand_size=8"])  # 32 cards


def _plain_quantity(hand, t, variant):
    """A test's quantity, written plainly from the definitions (meld from the reference engine)."""
    if t.quantity == Q_CARD:
        return hand[t.param]
    if t.quantity == Q_SUIT:
        return sum(hand[t.param * len(RANKS) + r] for r in range(len(RANKS)))
    if t.quantity == Q_RANK:
        return sum(hand[s * len(RANKS) + t.param] for s in range(len(SUITS)))
    if t.quantity == Q_MELD:
        return (
            max(reference_total(hand, s, variant) for s in range(4))
            if t.param < 0
            else reference_total(hand, t.param, variant)
        )
    raise AssertionError("not a plain quantity")


def _plain_meets(hands, condition, variant):
    for clause in condition.clauses:
        if not any(
            all(t.lo <= _plain_quantity(hands[s], t, variant) <= t.hi for t in clause.tests) for s in clause.seats
        ):
            return False
    return True


def test_conditioned_odds_agree_with_brute_force_rejection_in_plain_python():
    condition = _parse("any: holds KH KH; left: spades<=2, meld>=4")
    events = [CATALOGUE[n] for n in ("pinochle", "marriage", "kings-around")]
    kernel = given_odds(SMALL, events, np.zeros(N_TYPES, dtype=np.uint8), 40_000, 5, condition=condition)
    rng = random.Random(7)
    deck = [t for t in range(N_TYPES) for _ in range(int(SMALL.deck_copies[t]))]
    kinds, a, b = event_arrays(events)
    hits, kept, tried = np.zeros((len(events), 3)), 0, 0
    while kept < 6_000:
        rng.shuffle(deck)
        tried += 1
        hands = [np.bincount(deck[8 * p : 8 * p + 8], minlength=N_TYPES).astype(np.uint8) for p in range(4)]
        if not _plain_meets(hands, condition, SMALL):
            continue
        kept += 1
        for e in range(len(events)):
            for j, p in enumerate((1, 2, 3)):  # left, partner, right
                hits[e, j] += hand_has_event(hands[p], kinds[e], a[e], b[e], 0)
    compared = 0
    for e, (event, by_place) in enumerate(kernel.events):
        for j, place in enumerate(("left", "partner", "right")):
            p1, p2 = by_place[place].estimate.estimate, hits[e, j] / kept
            pooled = (p1 * kernel.deals + p2 * kept) / (kernel.deals + kept)
            se = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / kernel.deals + 1 / kept))
            assert abs(p1 - p2) < 4.5 * se, (event.name, place, p1, p2)
            compared += 1
    assert compared == 9
    share = kept / tried
    k = kernel.acceptance
    assert abs(k.accepted / k.tried - share) < 4.5 * math.sqrt(share * (1 - share) * (1 / k.tried + 1 / tried))


def test_every_accepted_deal_meets_the_condition_and_the_quantities_are_the_policys():
    v = FOUR
    condition = _parse("partner: value>=25, trump>=4; left: kings<=1")
    cond = condition_rows(v, condition)
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), v.deck_copies)
    hands, widow = np.zeros((4, N_TYPES), dtype=np.uint8), np.zeros(N_TYPES, dtype=np.uint8)
    table, flags = v.meld_table, v.meld_flags
    work = condition_work(cond, table, flags)
    totals, scratch = work.totals, work.state
    state = chunk_states(9, [0])[0]
    r = hand_rules(v)
    # a hand's value as the heuristic bidder counts it, a partner's meld and pass included
    value_test = Condition("", (Clause("me", (0,), (Bound(Q_VALUE, 0, 0, int(NO_LIMIT)),)),), 4)
    value_rows = value_test.rows(r.trick_total, r.partner_meld, r.pass_cards)
    for _ in range(50):
        tries = deal_accepted_into(state, rest, np.zeros(N_TYPES, dtype=np.uint8), -1, 12, work, hands, widow)
        assert tries >= 1 and accepts(hands, widow, 12, cond, table, flags, totals, scratch)
        worth, best = hand_value(hands[2], table, flags, totals, r.trick_total, r.partner_meld, r.pass_cards, 12)
        assert math.floor(worth) >= 25 and sum(hands[1][s * 6 + 2] for s in range(4)) <= 1
        assert hand_quantity(hands[2], value_rows, 0, 12, table, flags, totals, scratch) == math.floor(worth)


@pytest.mark.parametrize(
    "text, message",
    [
        ("left: aces>=9", "impossible, a hand there holds at most 8"),
        ("left: holds AS AS; right: holds AS", "impossible, it places 3 × AS and the deck has 2"),
        ("left: spades<0", "is an empty range"),
        ("left: spades<2 and spades>3", "impossible, no deal meets it"),  # exact 0
        ("left: aces>=7", "too rare to sample"),  # exact 5,355,454 / C(48, 12): 1 in 13,009
        ("left: meld>=100000", "no deal of 200,000 met it"),
    ],
)
def test_impossible_and_too_rare_conditions_are_refused(text, message):
    with pytest.raises(ConditionError) as e:
        check_condition(FOUR, _parse(text), None, -1, 1)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert FLOOR == 1e-4


def test_holding_cards_myself_counts_against_the_others():
    with pytest.raises(ConditionError, match="places 3 × AS"):
        check_condition(FOUR, _parse("left: holds AS"), parse_hand("AS AS"), 0, 1)


def test_any_other_seat_is_refused_at_once_where_the_cards_are_all_placed_outside_it(monkeypatch):
    """'any: holds QS' with both queens of spades in my hand: impossible, refused before any pilot deal
    (the pilot is made to fail here); with one of them the clause stands and the pilot measures it."""
    import simcore.answers.conditioned as conditioned

    def no_pilot(*args, **kwargs):
        raise AssertionError("a pilot was run")

    with monkeypatch.context() as m:
        m.setattr(conditioned, "run_job", no_pilot)
        with pytest.raises(ConditionError, match="impossible, it places 3 × QS and the deck has 2"):
            check_condition(FOUR, _parse("any: holds QS"), parse_hand("QS QS"), 0, 1)
        with pytest.raises(ConditionError, match="places 3 × QS"):  # my clause counts as my cards do
            check_condition(FOUR, _parse("me: holds QS QS; any: holds QS"), None, 0, 1)
    assert 0.3 < check_condition(FOUR, _parse("any: holds QS"), parse_hand("QS"), 0, 1).estimate.estimate < 1


# --- the full hand under a condition (advise, bid-odds) and the API ---------------------------------


def _traced_deal(trace, players):
    hands = np.zeros((players, N_TYPES), dtype=np.uint8)
    widow = np.zeros(N_TYPES, dtype=np.uint8)
    for code, p, t, k in trace:
        if code == h.T_DEAL:
            (widow if p == players else hands[p])[t] += k
    return hands, widow


@pytest.mark.parametrize(
    "vid, text, seat",
    [
        ("four-hand-150", "partner: meld>=12; left: spades<=2", 0),
        ("auction", "widow: holds AS; right: aces>=2", 1),
        ("four-hand-150", "any: holds QS QS", -1),
    ],
)
def test_every_hand_played_is_dealt_to_meet_the_condition(vid, text, seat):
    v = load_variant(vid)
    condition = read_condition(v, text, max(seat, 0))
    cond = condition_rows(v, condition)
    policies = parse_policies("heuristic", v.players)
    given = parse_hand("AS KH QH") if seat >= 0 else np.zeros(N_TYPES, dtype=np.uint8)
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), v.deck_copies - given)
    contract = np.array([seat, v.lowest_contract], dtype=np.int64)
    totals, scratch = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.uint64)
    for seed in range(1, 7):
        _, trace = trace_hand(v, seed, policies, deal=(rest, given, contract, cond))
        hands, widow = _traced_deal(trace, v.players)
        assert accepts(hands, widow, v.hand_size, cond, v.meld_table, v.meld_flags, totals, scratch)
        if seat >= 0:
            assert (hands[seat] >= given).all()


def test_the_api_takes_given_and_refuses_in_its_own_words():
    frame = api.odds("pinochle", hands=40_000, seed=2, given="left: holds QS QS")
    left = frame.set_index("place").loc["left"]
    assert left["exact"] == pytest.approx(1 - math.comb(44, 10) / math.comb(46, 10))
    assert frame.attrs["acceptance"]["acceptance"]["exact"] == pytest.approx(math.comb(46, 10) / math.comb(48, 12))
    with pytest.raises(ValueError) as e:
        api.odds("pinochle", hands=1_000, given="partner meld>=20")
    assert str(e.value).startswith("given= 'partner meld>=20'") and "--" not in str(e.value)
    with pytest.raises(ValueError, match="given= 'left: aces>=9': impossible"):
        api.bid_odds(hands=1_000, given="left: aces>=9")
    for call in (lambda: api.odds(hands=-5), lambda: api.simulate(hands=0), lambda: api.bid_odds(hands=0)):
        with pytest.raises(ValueError, match="hands=.*: give a whole number of at least 1"):
            call()


def test_advise_given_a_strong_partner_expects_more():
    hand = "AS 10S KS QS JS AH KH QH AD JD 9C 9C"
    plain = advise(FOUR, parse_hand(hand), deals=3_000, seed=4)
    strong = advise(FOUR, parse_hand(hand), deals=3_000, seed=4, condition=read_condition(FOUR, "partner: meld>=10"))
    assert strong.acceptance is not None and 0 < strong.acceptance.accepted < strong.acceptance.tried
    assert strong.total.lo > plain.total.hi  # a partner known to meld 10 or more adds to the side


# --- the command line -------------------------------------------------------------------------------


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_odds_advise_and_bid_odds_take_given(capsys):
    code, out, _ = _cli(
        capsys,
        "odds",
        "pinochle",
        "--given",
        "left: holds QS QS",
        "--given",
        "partner: aces>=3",
        "--hands",
        "40000",
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["condition"]["given"] == "left: QS>=2; partner: aces>=3"
    assert doc["condition"]["accepted"] == doc["deals"] and doc["condition"]["method"] == "rejection"
    code, out, _ = _cli(capsys, "odds", "pinochle", "--hold", "AS", "--given", "left: holds QS QS", "--hands", "20000")
    assert code == 0 and "given left: QS>=2:" in out and "only those are kept (rejection)" in out
    assert "exact" in out and "estimated" in out
    code, out, _ = _cli(
        capsys, "advise", "AS 10S KS QS JS AH KH QH AD JD 9C 9C", "--given", "partner: meld>=10", "--hands", "2000"
    )
    assert code == 0 and "given partner: meld>=10:" in out
    assert "partner's meld under S as dealt, given the table above: mean" in out
    code, out, _ = _cli(capsys, "bid-odds", "--given", "me: aces>=3", "--hands", "4000", "--bid", "30", "--meld", "10")
    assert code == 0 and "deals given me: aces>=3" in out and out.count("\n") == 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["odds", "--given", "north: aces>=1"], "--given 'north: aces>=1': place 'north' is not known"),
        (["odds", "--given", "left aces>=1"], "write PLACE: TEST"),
        (["odds", "--given", "left: aces>=7"], "too rare to sample"),
        (["odds", "--given", "left: holds AS AS", "--hold", "AS"], "impossible, it places 3 × AS"),
        (["odds", "--variant", "auction", "--want", "AS", "--given", "left: aces>=1"], "--want with --given"),
        (["advise", "AS AS", "--given", "partner: aces>=1", "--variant", "auction"], "no fixed partners"),
        (["bid-odds", "--given", "widow: aces>=1"], "this system deals no widow"),
    ],
)
def test_cli_refuses_bad_conditions_in_one_line(capsys, argv, message):
    code, out, err = _cli(capsys, *argv, "--hands", "1000")
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


# --- partner's meld ---------------------------------------------------------------------------------


def _exact_partner_meld(pool, size):
    """(melds under spades, ways) of every draw of ``size`` cards from ``pool``, as weighted multisets."""
    rows, ways = widows(pool, size)
    table, flags = SMALL.meld_table, SMALL.meld_flags
    return np.array([meld_under(r, 0, table, flags) for r in rows]), ways


def _agrees(result, melds, ways):
    total = int(ways.sum())
    exact_mean = float(sum(int(w) * int(m) for w, m in zip(ways, melds))) / total
    m = result.mean
    assert abs(m.estimate - exact_mean) < 4.5 * (m.hi - m.lo) / 3.92
    for level in result.levels():
        p = float(ways[melds >= level].sum()) / total
        assert abs(result.at_least(level).estimate - p) < 4.5 * math.sqrt(p * (1 - p) / result.deals) + 1e-12


def test_partners_meld_agrees_with_an_exact_count_on_a_small_deck():
    # 32 cards, hands of 8: partner's hand is a draw of 8 of the 24 cards I cannot see; every such
    # draw is enumerated as a weighted multiset of card types and melded under my trump (spades)
    mine = parse_hand("AS KS QS JS QH KD JD AC")
    melds, ways = _exact_partner_meld(SMALL.deck_copies - mine, 8)
    assert int(ways.sum()) == math.comb(24, 8)
    _agrees(partner_meld(SMALL, mine, 0, 0, deals=60_000, seed=3), melds, ways)
    # its posterior given the left hand holds both AD: partner's 8 are a draw from the other 22 cards
    posterior = partner_meld(
        SMALL, mine, 0, 0, deals=60_000, seed=3, condition=read_condition(SMALL, "left: holds AD AD")
    )
    _agrees(posterior, *_exact_partner_meld(SMALL.deck_copies - mine - parse_hand("AD AD"), 8))
    assert partner_meld(load_variant("auction"), parse_hand("AS"), 0, 0) is None  # no partners: no line


# --- the auction so far -----------------------------------------------------------------------------

DOUBLE = load_variant("double-deck")  # no redeal rule: the model's first deal is the deal kept


@pytest.mark.parametrize(
    "vid, calls, message",
    [
        ("four-pass", "pass 240", "call 2 '240': below the minimum bid 250"),
        ("four-pass", "pass 265", "call 2 '265': not a bid in four-pass (bids go up by 10)"),
        ("four-pass", "260 250", "call 2 '250': seat 1 must bid at least 270, above the bid of 260"),
        ("four-pass", "pass pass pass pass 300", "call 5 '300': the auction is over after 4 calls"),
        ("four-pass", "pass 260 pass pass 270", "call 5 '270': the auction is over after 4 calls"),
        ("four-pass", "pass 260 two", "call 3 'two': a call is 'pass' or a bid"),
        ("auction", "pass 310", "call 1 'pass': seat 0 (the dealer's left) must open in auction"),
        ("double-deck", "pass 62", "call 2 '62': not a bid in double-deck (bids go up by 1, by 5 from 60)"),
        ("partnership", "pass", "has no auction"),
    ],
)
def test_auctions_the_rules_do_not_allow_are_refused_naming_the_call(vid, calls, message):
    with pytest.raises(ValueError) as e:
        read_auction(load_variant(vid), calls)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_the_calls_become_bounds_on_each_seats_model_limit():
    v = load_variant("four-pass")
    calls, condition = read_auction(v, "pass 260 pass 270 280")
    assert [(c.seat, c.bid) for c in calls] == [(0, 0), (1, 260), (2, 0), (3, 270), (1, 280)]
    bounds = {cl.seats[0]: (cl.tests[0].lo, cl.tests[0].hi) for cl in condition.clauses}
    assert bounds[0] == (-1, 249) and bounds[2] == (-1, 269)  # each passed facing the next bid
    # seats 1 and 3 are partners: each outbid the other, which needs a fifth of the 250 trick points to spare
    assert bounds[1] == (280 + 50, int(NO_LIMIT)) and bounds[3] == (270 + 50, int(NO_LIMIT))
    # outbidding partner needs a fifth of the trick points to spare (the kernel's rule)
    _, condition = read_auction(v, "260 pass 270")
    assert {cl.seats[0]: cl.tests[0].lo for cl in condition.clauses}[2] == 270 + 250 // 5


def test_the_auction_posterior_acceptance_matches_a_direct_simulation_of_the_model_auction():
    calls, condition = read_auction(DOUBLE, "pass 50")
    acceptance = check_condition(DOUBLE, condition, None, -1, 5)
    policies = parse_policies("heuristic", 4)
    n, hits = 3_000, 0
    for seed in range(n):
        _, trace = trace_hand(DOUBLE, seed, policies)
        bids = [(int(p), int(b)) for code, p, b, _ in trace if code == h.T_BID][:2]
        hits += bids == [(0, 0), (1, 50)]
    p1, p2 = acceptance.accepted / acceptance.tried, hits / n
    se = math.sqrt(p2 * (1 - p2) / n + p1 * (1 - p1) / acceptance.tried)
    assert 0.01 < p2 < 0.99 and abs(p1 - p2) < 4.5 * se, (p1, p2)


def test_cli_odds_auction(capsys):
    code, out, _ = _cli(
        capsys, "odds", "pinochle", "--variant", "double-deck", "--auction", "pass 50", "--hands", "8000"
    )
    assert code == 0 and "auction: seat 0 pass  seat 1 50; under the model bidders" in out
    assert "seat 1 meld (best trump) over 2,000 deals: mean" in out
    code, _, err = _cli(capsys, "odds", "--variant", "double-deck", "--auction", "pass 45", "--hands", "800")
    assert code == 2 and "--auction call 2 '45': below the minimum bid 50" in err and err.count("\n") == 1
    frame = api.odds("pinochle", "double-deck", hands=4_000, auction="pass 50")
    assert frame.attrs["acceptance"]["given"] == "seat 0: limit<=49; seat 1: limit>=50"
    with pytest.raises(ValueError, match="^auction= call 1 'pass'"):
        api.odds("pinochle", "auction", hands=4_000, auction="pass")


def test_the_api_answers_what_the_cli_answers(capsys):
    cell = api.bid_odds(hands=4_000, bid=30, meld=10, basis="dealt")
    assert len(cell) == 1 and cell.loc[0, "bid"] == 30 and cell.loc[0, "meld"] == 10
    code, out, _ = _cli(capsys, "bid-odds", "--hands", "4000", "--bid", "30", "--meld", "10", "--json")
    doc = json.loads(out)["cells"][0]
    assert code == 0 and doc["make"]["n"] == cell.loc[0, "n"] and doc["make"]["made"] == cell.loc[0, "made"]
    for bad, message in (
        (dict(bid=31.5), "bid=31.5"),
        (dict(bid=5), "bid=5: not a bid"),
        (dict(meld=-2), "meld=-2"),
        (dict(basis="x", bid=30), "basis='x'"),
    ):
        with pytest.raises(ValueError, match=message) as e:
            api.bid_odds(hands=1_000, **bad)
        assert "--" not in str(e.value)
    frame = api.advise("AS 10S KS QS JS AH KH QH AD JD 9C 9C", hands=2_000)
    head = frame.attrs["headline"]
    assert set(head["highest_bid"]) == {"50%", "75%"} and head["meld_by_trump"]["S"] == 21
    assert head["side_total"]["lo"] < head["side_total"]["estimate"] < head["side_total"]["hi"]
    assert head["partner_meld"]["trump"] == "S"
