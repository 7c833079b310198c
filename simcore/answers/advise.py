"""``pinochle advise HAND``: what a hand is worth to its bidder, by dealing the unseen cards many times.

The hand is given to one seat (seat 0: the dealer's left, who opens; the dealer is the last seat). Its
meld under each trump and the trump the heuristic would name come from the hand alone. Then the other
cards are dealt uniformly at random (:func:`simcore.kernels.deal.deal_given_into`: every deal
consistent with the hand is equally likely; a deal a redeal rule would throw in is dealt again), and
each deal is played out by the full-hand kernel with that seat the bidder at the lowest contract and no
auction: the exchange, widow, meld and play follow the rules file, every seat playing the chosen policy.

A deal's side total (the bidding side's meld as kept plus its trick points as counted) is what the hand
would take at any bid, so the deal makes bid B when its total reaches B, unless the rules (or a bidder
who concedes a hopeless contract) would have stopped it unplayed at B (:data:`METHOD`). P(make B) is
the share of deals that make B, with a 95% Wilson interval. The highest bid made half (three quarters)
of the time is the highest bid whose share is at least 0.5 (0.75); its interval runs from the highest
bid whose interval lies wholly at or above that share to the highest whose interval reaches it.

Points are on the variant's scale (the same as its bids).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np

from simcore.answers.bidodds import bid_grid, is_bid, joint_params, totals_and_stops
from simcore.answers.conditioned import Acceptance, check_condition
from simcore.answers.partner_meld import MeldTally, partner_meld
from simcore.answers.simulate import hand_rows
from simcore.cards import N_TYPES, SUITS, format_hand
from simcore.kernels import hand_record as h
from simcore.kernels.auction_condition import condition_rows
from simcore.kernels.compiled import hand_rules, kernel_rules
from simcore.kernels.condition import NO_CONDITION, Condition
from simcore.kernels.meld import meld_by_trump
from simcore.kernels.policies import HEURISTIC, POLICY_NAMES, choose_trump, has_marriage
from simcore.run.runner import Job, run_job
from simcore.run.stats import Z95, Interval, values_interval, wilson
from simcore.variants import Variant, require_auction
from simcore.variants import layout as lay

#: Deals dealt by default: at least FIRST_DEALS, then as many as bring the 95% half-width of the mean
#: side total to TARGET_POINTS, at most MAX_DEALS.
FIRST_DEALS = 2_000
TARGET_POINTS = 2.0
MAX_DEALS = 200_000
#: Deals per seeded chunk: small, so that a few thousand deals still share the threads.
CHUNK = 1_024
#: Shares whose highest bid is reported.
SHARES = (0.5, 0.75)

METHOD = (
    "Each deal of the unseen cards is played out with this seat the bidder at the lowest contract "
    "(no auction). Its side total (the side's meld as kept plus its trick points as counted) is "
    "what it would take at any bid, so it makes bid B when the total reaches B, unless the rules "
    "(or a bidder conceding a hopeless contract) would stop it unplayed at B. Hands the rules "
    "stop at any bid (no trump marriage, too little meld) make nothing."
)


class AdviseError(ValueError):
    """A hand or seat the advisor cannot take; one-line message."""


@dataclass(frozen=True)
class BidShare:
    """The highest bid made in at least ``share`` of the deals, with its interval (None: no bid is)."""

    share: float
    bid: int | None
    lo: int | None
    hi: int | None


@dataclass(frozen=True)
class Advice:
    """What :func:`advise` found. ``by_trump``: the hand's meld per suit (S, H, D, C); ``named``: the
    heuristic's trump from the hand alone (None: it holds no marriage where trump needs one);
    ``named_share``: how often each suit was trump over the deals played (after the widow, where the
    rules name trump after it); ``total``: the mean side total, a deal not played counting 0;
    ``played``: the share of deals played out; ``bids``: (bid, deals that make it, P(make)) for the bids around the
    hand's value."""

    variant: Variant
    hand: np.ndarray
    seat: int
    seed: int
    deals: int
    policies: tuple[str, ...]
    by_trump: tuple[int, int, int, int]
    named: int | None
    named_share: dict[str, float]
    total: Interval
    played: float
    bids: list[tuple[int, int, Interval]]
    highest: list[BidShare]
    seconds: float
    interrupted: bool = False
    acceptance: Acceptance | None = None
    partner_meld: MeldTally | None = None
    given_trump: int | None = None

    def to_json(self) -> dict:
        def iv(x: Interval) -> dict:
            return {"estimate": x.estimate, "ci95": [x.lo, x.hi]}

        return {
            "variant": self.variant.id,
            "seed": self.seed,
            "hands": self.deals,
            "policies": list(self.policies),
            "seat": self.seat,
            "hand": format_hand(self.hand),
            "meld": {
                "by_trump": dict(zip(SUITS, self.by_trump)),
                "best_trump": SUITS[int(np.argmax(self.by_trump))],
                "named_trump": None if self.named is None else SUITS[self.named],
                "given_trump": None if self.given_trump is None else SUITS[self.given_trump],
            },
            "trump_named": self.named_share,
            "played": self.played,
            "side_total": iv(self.total),
            "bids": [{"bid": b, "make": {**iv(x), "made": m, "n": self.deals}} for b, m, x in self.bids],
            "highest_bid": [{"share": s.share, "bid": s.bid, "ci95": [s.lo, s.hi]} for s in self.highest],
            "condition": None if self.acceptance is None else self.acceptance.to_json(),
            "partner_meld": None if self.partner_meld is None else self.partner_meld.to_json(),
            "method": METHOD,
        }


def seat_name(variant: Variant, seat: int) -> str:
    """'seat 0 (the dealer's left)' and the like, seats clockwise from the dealer's left."""
    where = {0: "the dealer's left, who opens", variant.players - 1: "the dealer"}.get(seat)
    return f"seat {seat}" + (f" ({where})" if where else "")


def check_advisable(
    variant: Variant, seat: int, label: str = "--seat ", meld: str = "`pinochle meld` shows the hand's meld"
) -> None:
    """Raise :class:`AdviseError` unless the variant has an auction and ``seat`` is one of its seats;
    ``label`` names the seat's input and ``meld`` where the hand's meld is shown instead, in messages."""
    require_auction(variant, f"there is no bid to advise; {meld}")
    if not 0 <= seat < variant.players:
        raise AdviseError(f"{label}{seat}: {variant.id} seats players 0 to {variant.players - 1}")


def advise(
    variant: Variant,
    given: np.ndarray,
    seat: int = 0,
    deals: int | None = None,
    seed: int = 1,
    policies: np.ndarray | None = None,
    progress: bool = False,
    condition: Condition | None = None,
    trump: int | None = None,
) -> Advice:
    """Advice for the hand ``given`` (uint8[24] copy counts, already checked against the deck and the
    hand size) held by ``seat``, over ``deals`` deals of the unseen cards (None: enough for a ±2-point
    interval on the mean side total, see :data:`TARGET_POINTS`); ``policies``: each seat's policy code
    (:mod:`simcore.kernels.policies`; None: the heuristic at every seat); ``condition``: what the table
    has shown (``--given``, places seen from ``seat``), every deal meeting it (checked first by
    :func:`simcore.answers.conditioned.check_condition`); ``trump``: the suit (0-3, S H D C) the bidder
    names in every deal (None: the one his policy names; checked by :func:`check_trump`)."""
    check_advisable(variant, seat)
    given = np.asarray(given, dtype=np.uint8)
    if trump is not None:
        check_trump(variant, given, trump)
    acceptance = None if condition is None else check_condition(variant, condition, given, seat, seed)
    policies = (
        np.full(variant.players, HEURISTIC, dtype=np.int64)
        if policies is None
        else np.asarray(policies, dtype=np.int64)
    )
    run, (played, total, stop) = _played_deals(variant, given, seat, deals, seed, policies, progress, condition, trump)
    rec = run.tally
    n = len(rec)
    value = np.where(played, total, 0)
    by_trump, named = trump_choice(variant, given)
    trumps = rec[:, h.F_TRUMP]
    named_share = {SUITS[s]: float(np.mean(trumps == s)) for s in range(4) if np.any(trumps == s)}
    curve = make_curve(variant, played, total, stop)
    highest = [highest_share(curve, s) for s in SHARES]
    mine = my_trump(variant, given) if trump is None else trump
    partners = partner_meld(variant, given, seat, mine, seed=seed, condition=condition, acceptance=acceptance)
    return Advice(
        variant,
        given,
        seat,
        seed,
        n,
        tuple(POLICY_NAMES[p] for p in policies),
        by_trump,
        None if named < 0 else named,
        named_share,
        values_interval(value),
        float(np.mean(played)) if n else math.nan,
        bids_around(curve, keep=tuple(x.bid for x in highest)),
        highest,
        run.seconds,
        run.interrupted,
        acceptance,
        partners,
        trump,
    )


def check_trump(variant: Variant, given: np.ndarray, trump: int, label: str = "--trump ") -> None:
    """Raise :class:`AdviseError` unless the bidder holding ``given`` may name ``trump`` (a suit 0-3)
    whatever the deal: where the rules ask a marriage to name trump, ``given`` must hold one in it."""
    if trump not in range(4):
        raise AdviseError(f"{label}{trump}: give a suit, S, H, D or C")
    if hand_rules(variant).trump_needs_marriage and not has_marriage(given, trump):
        raise AdviseError(
            f"{label}{SUITS[trump]}: {variant.id} names trump only in a suit of which the bidder holds a "
            f"marriage (K and Q), and the hand holds none in {SUITS[trump]}"
        )


def _played_deals(variant, given, seat, deals, seed, policies, progress=False, condition=None, trump=None):
    """(the run, (played, side total, stopped below) per deal): :func:`advise`'s deals of the unseen cards,
    each played with ``seat`` the bidder at the lowest contract, naming ``trump`` where given (``deals``
    None: see :func:`advise`)."""
    accept = NO_CONDITION if condition is None else condition_rows(variant, condition)
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), variant.deck_copies - given)
    named = [] if trump is None else [trump]
    contract = np.array([seat, variant.lowest_contract, *named], dtype=np.int64)
    margins = np.zeros(variant.players)  # bidding limits: unused without an auction
    job = Job(
        partial(hand_rows, kernel_rules(variant), policies, margins, deal=(rest, given, contract, accept)),
        "rows",
        chunk_deals=CHUNK,
        unit="hands",
    )
    params = joint_params(variant, policies)
    if deals is None:
        first = run_job(job, seed, FIRST_DEALS)
        played, total, _ = totals_and_stops(params, first.tally)
        sd = float(np.std(np.where(played, total, 0)))
        deals = int(min(MAX_DEALS, max(FIRST_DEALS, math.ceil((Z95 * sd / TARGET_POINTS) ** 2))))
    run = run_job(job, seed, deals, progress=progress)
    return run, totals_and_stops(params, run.tally)


def bid_limit(variant: Variant, given: np.ndarray, seat: int, share: float, deals: int, seed: int, policy: int) -> int:
    """The highest bid ``given`` (uint8[24] copy counts) at ``seat`` makes in at least ``share`` of
    ``deals`` deals of the unseen cards, every seat playing ``policy`` (a kernel policy code), as
    :func:`advise` deals and plays them; 0 when it makes none. A bidder's limit from the hand's sampled
    value (:class:`simcore.strong.bidder.AdviseBidder`)."""
    check_advisable(variant, seat)
    policies = np.full(variant.players, policy, dtype=np.int64)
    _, (played, total, stop) = _played_deals(variant, np.asarray(given, dtype=np.uint8), seat, deals, seed, policies)
    bid = highest_share(make_curve(variant, played, total, stop), share).bid
    return 0 if bid is None else int(bid)


def my_team(variant: Variant, seat: int) -> list[int]:
    """The seats on ``seat``'s side for the whole hand: its partners where they are fixed across, else itself."""
    if hand_rules(variant).teams == lay.TEAMS_ACROSS:
        return [s for s in range(variant.players) if (s - seat) % 2 == 0]
    return [seat]


def trump_values(
    variant: Variant,
    given: np.ndarray,
    seat: int,
    bid: int,
    trumps: list[int],
    deals: int,
    seed: int,
    policy: int = HEURISTIC,
    condition: Condition | None = None,
    widow: np.ndarray | None = None,
) -> dict[int, float]:
    """Each trump of ``trumps`` (suits 0-3, S H D C) by what naming it is worth to the bidder at ``seat``
    holding ``given`` (uint8[24] copy counts, his cards as dealt) at the contract ``bid``: the mean, over
    ``deals`` deals of the unseen cards, of what the hand adds to his side's score line less what it adds
    to the other side's (the mean of the other seats' lines where each plays alone), the hand played out
    from the trump on by the hand kernel with every seat playing ``policy`` (a kernel policy code). Every
    trump is weighed on the same deals (hand i of the run keyed by ``seed``), so their differences are
    paired; with a ``condition`` every deal meets it (the caller makes sure some deal can, as
    :func:`simcore.answers.conditioned.check_condition` does). Where the bidder names trump after taking
    the widow, ``widow`` (copy counts) is the widow he took, held by the widow in every deal. Points are
    on the variant's scale."""
    contracts = {trump: [seat, bid, trump] for trump in trumps}
    return contract_values(variant, given, seat, contracts, deals, seed, policy, condition, widow)


def pass_values(
    variant: Variant,
    given: np.ndarray,
    seat: int,
    bidder: int,
    bid: int,
    trump: int,
    passes: list[tuple[int, ...]],
    deals: int,
    seed: int,
    policy: int = HEURISTIC,
    condition: Condition | None = None,
) -> dict[tuple[int, ...], float]:
    """Each pass of ``passes`` (card types, ``exchange.pass_cards`` of them, held in ``given``) by what it
    is worth to the bidder's partner at ``seat`` holding ``given`` (his cards as dealt), the bidder at
    ``bidder`` having named ``trump`` at the contract ``bid``: as :func:`trump_values`, the mean over the
    same ``deals`` deals of the unseen cards of what the hand adds to the side's score line less the
    other side's, the bidder's return and the rest of the hand played by ``policy`` at every seat."""
    contracts = {tuple(p): [seat, bid, trump, bidder, *p] for p in passes}
    return contract_values(variant, given, seat, contracts, deals, seed, policy, condition)


def bury_values(
    variant: Variant,
    given: np.ndarray,
    widow: np.ndarray,
    seat: int,
    bid: int,
    trump: int,
    burials: list[tuple[int, ...]],
    deals: int,
    seed: int,
    policy: int = HEURISTIC,
) -> dict[tuple[int, ...], float]:
    """Each burial of ``burials`` (card types, as many as the widow holds) by what it is worth to the
    bidder at ``seat`` who was dealt ``given`` and took the widow ``widow`` (copy counts), in ``trump`` at
    ``bid``: as :func:`trump_values`, on deals in which the widow holds those cards."""
    pass_slots = [-1] * (2 * variant.get("exchange.pass_cards"))
    contracts = {tuple(b): [seat, bid, trump, seat, *pass_slots, *b] for b in burials}
    return contract_values(variant, given, seat, contracts, deals, seed, policy, widow=widow)


def return_values(
    variant: Variant,
    given: np.ndarray,
    seat: int,
    bid: int,
    trump: int,
    passed: list[int],
    returns: list[tuple[int, ...]],
    deals: int,
    seed: int,
    policy: int = HEURISTIC,
) -> dict[tuple[int, ...], float]:
    """Each return of ``returns`` (card types, as many as ``passed``) by what it is worth to the bidder at
    ``seat`` holding ``given`` (his cards as dealt) in ``trump`` at ``bid``, his partner having passed him
    ``passed`` (card types): as :func:`pass_values`, on deals in which the partner holds ``passed`` (and
    the rest is dealt at random: what his choice of them says of his other cards is not read)."""
    from simcore.answers.conditioned import read_condition
    from simcore.cards import card_name

    holds = read_condition(variant, "partner: holds " + " ".join(card_name(t) for t in passed), seat, "the pass")
    contracts = {tuple(r): [seat, bid, trump, seat, *passed, *r] for r in returns}
    return contract_values(variant, given, seat, contracts, deals, seed, policy, holds)


def contract_values(
    variant: Variant,
    given: np.ndarray,
    seat: int,
    contracts: dict,
    deals: int,
    seed: int,
    policy: int = HEURISTIC,
    condition: Condition | None = None,
    widow: np.ndarray | None = None,
) -> dict:
    """{key: worth} of each set contract (``contracts``: key -> [seat, bid, more...], see
    :class:`~simcore.kernels.hand.HandDeal`) to ``seat`` holding ``given``, as :func:`trump_values`
    weighs a trump: every contract on the same deals (hand i of the run keyed by ``seed``). With
    ``widow`` (uint8[24] copy counts) the widow holds those cards in every deal."""
    from simcore.kernels.hand import Deal
    from simcore.kernels.hand_drivers import keyed_hands_batch
    from simcore.kernels.rng import stream_key

    check_advisable(variant, seat)
    given = np.asarray(given, dtype=np.uint8)
    rules, players = kernel_rules(variant), variant.players
    rest = np.repeat(np.arange(N_TYPES, dtype=np.uint8), variant.deck_copies - given - (0 if widow is None else widow))
    if widow is not None:
        given = np.concatenate([given, np.asarray(widow, dtype=np.uint8)])
    policies = np.full(players, policy, dtype=np.int64)
    margins = np.zeros(players)  # bidding limits: unused without an auction
    team = my_team(variant, seat)
    others = [s for s in range(players) if s not in team]
    key, one = stream_key(seed), np.zeros(1, dtype=np.int64)
    accept = NO_CONDITION.copy() if condition is None else condition_rows(variant, condition)
    values = {}
    for name, contract in contracts.items():
        out = np.zeros((deals, h.N_FIELDS + players), dtype=np.int64)
        deal = Deal(rest, given, np.array(contract, dtype=np.int64), accept)
        keyed_hands_batch(key, one, np.array([deals]), one, rules.tables, rules.hand, policies, margins, out, deal)
        lines = out[:, h.N_FIELDS :]
        values[name] = float(np.mean(lines[:, seat] - lines[:, others].mean(axis=1)))
    return values


def trump_choice(variant: Variant, hand: np.ndarray) -> tuple[tuple[int, int, int, int], int]:
    """(``hand``'s meld under each trump S, H, D, C; the trump the heuristic names from it, -1 where it
    holds no marriage to name one with and the rules need one)."""
    table, flags = variant.meld_table, variant.meld_flags
    totals = np.zeros(4, dtype=np.int64)
    meld_by_trump(hand, table, flags, totals)
    by_trump = tuple(int(x) for x in totals)
    named = choose_trump(
        hand,
        HEURISTIC,
        bool(hand_rules(variant).trump_needs_marriage),
        table,
        flags,
        totals,
        np.zeros(4, dtype=np.uint64),
    )
    return by_trump, int(named)


def my_trump(variant: Variant, hand: np.ndarray) -> int:
    """The trump I would name with ``hand``: the heuristic's, or my best meld's where I could name none."""
    by_trump, named = trump_choice(variant, hand)
    return by_trump.index(max(by_trump)) if named < 0 else named


def make_curve(
    variant: Variant, played: np.ndarray, total: np.ndarray, stop: np.ndarray
) -> list[tuple[int, int, Interval]]:
    """(bid, deals that make it, P(make)) for every bid from the lowest contract up to the highest total taken."""
    lo, width = bid_grid(variant)
    top = int(total[played].max()) if played.any() else lo
    bids = [b for b in range(lo, max(top, lo) + width, width) if is_bid(variant, b) or b == lo]
    n = len(played)
    made = [int(np.count_nonzero(played & (total >= b) & (stop > b))) for b in bids]
    return [(b, m, wilson(m, n)) for b, m in zip(bids, made)]


def bids_around(
    curve: list[tuple[int, int, Interval]], most: int = 20, keep: tuple[int | None, ...] = ()
) -> list[tuple[int, int, Interval]]:
    """The bids where the hand's fate is open: from the last one made almost always (>= 0.95) to the
    first made almost never (<= 0.05), thinned evenly to at most ``most`` rows, and the bids ``keep``
    (the headline bids, so that the table holds the bid it advises) wherever they fall."""
    p = [x.estimate for _, _, x in curve]
    first = max([i for i, v in enumerate(p) if v >= 0.95], default=0)
    last = min([i for i, v in enumerate(p) if v <= 0.05], default=len(p) - 1)
    rows = curve[first : last + 1]
    if len(rows) > most:
        even = set(np.linspace(0, len(rows) - 1, most).round().astype(int).tolist())
        rows = [r for i, r in enumerate(rows) if i in even or r[0] in keep]
    return rows


def highest_share(curve: list[tuple[int, int, Interval]], share: float) -> BidShare:
    """The highest bid made in at least ``share`` of the deals; its interval runs from the highest bid
    whose interval lies at or above ``share`` to the highest whose interval reaches it."""

    def last(ok) -> int | None:
        bids = [b for b, _, x in curve if ok(x)]
        return max(bids) if bids else None

    return BidShare(
        share, last(lambda x: x.estimate >= share), last(lambda x: x.lo >= share), last(lambda x: x.hi >= share)
    )
