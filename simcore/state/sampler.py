"""A sampling player: at each card it plays near the end of a hand, it deals the cards
it has not seen to the other seats at random, consistently with what it has seen, solves every legal
card double dummy on each deal, and plays the card best on average. Near the end is the last
``solve_from`` tricks: by default six (a whole 48-card deal takes seconds to solve), and every trick in
two-hand, whose hands after the stock solve in milliseconds (:func:`solves_from`).

What it has seen is :meth:`simcore.state.HandState.observation` of its own seat, nothing more: its hand,
the cards played, the cards it passed and the cards each seat laid down in meld (still in that seat's
hand unless it has played them since), the cards it buried or threw away (out of play), and the suits a
seat has shown void (it did not follow where it had to; and where a void seat must trump, a seat that
neither followed nor trumped is void in trump too). The other duties of play are read where
``read_duties`` (by default in the systems of :data:`READS_DUTIES`): a seat that followed
below the winning card where it had to head holds no higher card of the suit, one that trumped low
where it had to overtrump no higher trump, and so on (:func:`barred_by_duties`). The bidding is where
``read_auction`` (by default in the systems of :data:`READS_BIDS`): a deal is kept only where every
other seat whose hand at the auction the seat can rebuild (the cards it holds now, has played, and
passed or received in its sight) would have made its calls as the model bidders make them
(:mod:`simcore.kernels.auction_condition`: the heuristic's bid rule, the rule every heuristic seat bids by);
other deals are dealt again, up to :data:`AUCTION_TRIES` times a sample, and where no deal of the
decision fits the auction it is not read. Unseen cards beyond what the other seats hold (a widow not
taken, another seat's burial) are left out at random.

The cards it plays before those tricks, from ``rollout_from`` tricks from the end (by default
:data:`EVERY_TRICK`: from the first card), are weighed the same way on the same kind of deals, but by
playing each deal out with the heuristic at every seat (:mod:`simcore.kernels.playout`: microseconds a
deal where a solve from the first lead takes seconds); ``rollout_from=0`` plays the heuristic's card
there. With ``search_budget`` > 0 they are weighed instead by the depth-limited search
(:func:`simcore.solver.position.searched_card_values`, that many trick starts a deal: 1 finishes the
trick in progress and evaluates what follows); in paired duels it did not beat the playouts, which model
the heuristic seats it plays against (docs/policies.md, "Searched values before the solved tricks").
Before that, while a stock lasts, and for every other decision (bids, trump, passing, meld) it plays
as the kernel's heuristic (:func:`simcore.state.players.kernel_policy`), so in a duel against the
heuristic only the card play differs. Among cards of equal mean value it keeps the heuristic's card.
Its draws come from a generator seeded by ``seed`` and what the seat has seen, so the same state gets
the same card.

Double-dummy values are the bidding side's trick points (:func:`simcore.solver.position.card_values`);
seats are the hand's (0 = the dealer's left).
"""

from __future__ import annotations

import hashlib
import json
import time

import numpy as np

from simcore.cards import N_RANKS, N_TYPES, card_types, parse_card, parse_hand
from simcore.kernels.card_features import play_context
from simcore.kernels.compiled import hand_rules
from simcore.kernels.play import beats, duties, legal, situation_of
from simcore.kernels.playout import (
    F_BIDDER,
    F_BROKEN,
    F_FIRST,
    F_LEADER,
    F_PLAYED,
    F_TRUMP,
    N_FACTS,
    PlayoutStart,
    playout_values,
)
from simcore.kernels.policies import HEURISTIC
from simcore.solver.position import Position, card_values, searched_card_values, sides
from simcore.state.players import kernel_policy

#: The ``rollout_from`` that weighs every card before the solved tricks by playouts (the default): more
#: tricks than any hand holds.
EVERY_TRICK = 99
#: With ``read_auction``, the deals drawn a sample at most, looking for one that fits the auction.
AUCTION_TRIES = 50
#: The systems whose sampling player reads the bids unless told otherwise: where reading them was shown
#: to pay in 1,000-deal duels (docs/policies.md, "Deals that fit the bids"). Elsewhere no gain was shown,
#: at three to six times the time a hand.
READS_BIDS = ("partnership-auction",)
#: The systems whose sampling player reads the duties of play into its deals unless told otherwise
#: (:func:`barred_by_duties`): where reading them was shown to pay, paired by deal (docs/policies.md, "The
#: duties of play read into the deals"). double-deck's gain was within its interval of nothing.
READS_DUTIES = ("partnership-auction", "four-hand-150")
#: The tricks from the end the sampling player solves unless told, in most systems: a whole 48-card deal
#: takes seconds to solve (docs/solver.md), the last six milliseconds.
SOLVE_FROM = 6
#: The systems whose sampling player solves every trick it plays unless told: where a whole hand's solve
#: takes milliseconds (two-hand after the stock: 10 ms median, docs/performance.md) and solving every
#: trick was shown to pay (docs/policies.md, "Solving more tricks").
SOLVES_EVERY_TRICK = ("two-hand",)


def reads_auction(variant, read_auction: bool | None) -> bool:
    """Whether the sampling player reads the bids into its deals in ``variant``: ``read_auction``, or
    where None, whether the system is one of :data:`READS_BIDS`."""
    return variant.id in READS_BIDS if read_auction is None else bool(read_auction)


def reads_duties(variant, read_duties: bool | None) -> bool:
    """Whether the sampling player reads the duties of play into its deals in ``variant``:
    ``read_duties``, or where None, whether the system is one of :data:`READS_DUTIES`."""
    return variant.id in READS_DUTIES if read_duties is None else bool(read_duties)


def solves_from(variant, solve_from: int | None) -> int:
    """The tricks from the end the sampling player solves in ``variant``: ``solve_from``, or where None
    every trick of a hand in the systems of :data:`SOLVES_EVERY_TRICK`, else :data:`SOLVE_FROM`."""
    if solve_from is not None:
        return solve_from
    return variant.hand_size if variant.id in SOLVES_EVERY_TRICK else SOLVE_FROM


def playouts_text(rollout_from: int, solve_from: int) -> str:
    """Where the sampling player weighs its cards by playouts, in words: "" (nowhere), "from the first
    card" or "from N tricks from the end" (until the last ``solve_from``, which it solves)."""
    if rollout_from <= solve_from:
        return ""
    return "from the first card" if rollout_from >= EVERY_TRICK else f"from {rollout_from} tricks from the end"


def fits_text(read_auction: bool | None, read_duties: bool | None) -> str:
    """What the sampling player's deals fit beyond the cards seen, in words: "" (nothing more), "the bids",
    "the duties of play" or "the bids and the duties of play"."""
    return " and ".join(w for w, on in (("the bids", read_auction), ("the duties of play", read_duties)) if on)


class SamplingPlayer:
    """``policy(state) -> Action``: ``samples`` deals a decision, double dummy over the last
    ``solve_from`` tricks (None: :func:`solves_from` decides by the system), playouts from
    ``rollout_from`` tricks from the end until then (0: the heuristic's card there; None:
    :data:`EVERY_TRICK`, for callers that pass on a setting not given), the heuristic elsewhere;
    ``read_auction``: deals that fit the auction under the model bidders (None: :func:`reads_auction`
    decides by the system; see the module); ``read_duties``: deals in which every card the other seats
    played was theirs to play under the duties (None: :func:`reads_duties` decides by the system);
    ``search_budget``: the depth-limited search instead of the playouts, within that many trick starts
    a deal (0: the playouts)."""

    def __init__(
        self,
        samples: int = 20,
        solve_from: int | None = None,
        seed: int = 0,
        rollout_from: int | None = EVERY_TRICK,
        read_auction: bool | None = None,
        read_duties: bool | None = None,
        search_budget: int = 0,
    ):
        rollout_from = EVERY_TRICK if rollout_from is None else rollout_from
        self.read_duties = None if read_duties is None else bool(read_duties)
        if samples < 1 or (solve_from is not None and solve_from < 1) or rollout_from < 0 or search_budget < 0:
            raise ValueError("samples and solve_from: at least 1; rollout_from and search_budget: at least 0")
        self.search_budget = int(search_budget)
        self.samples, self.solve_from, self.seed, self.rollout_from = samples, solve_from, seed, rollout_from
        self.read_auction = None if read_auction is None else bool(read_auction)
        self.heuristic = kernel_policy("heuristic")

    def __repr__(self) -> str:
        rollout = f", rollout_from={self.rollout_from}" if self.rollout_from > (self.solve_from or 0) else ""
        auction = "" if self.read_auction is None else f", read_auction={self.read_auction}"
        auction += "" if self.read_duties is None else f", read_duties={self.read_duties}"
        auction += f", search_budget={self.search_budget}" if self.search_budget else ""
        return (
            f"SamplingPlayer(samples={self.samples}, solve_from={self.solve_from}{rollout}{auction}, seed={self.seed})"
        )

    def settings_name(self, variant) -> str:
        """Its settings in ``variant`` as a file name's part, e.g. "s20-f6-r99-auction": the samples, the
        solved tricks, the tricks played out (where more than solved) and whether it reads the bids."""
        solved = self.solved(variant)
        playouts = f"-r{self.rollout_from}" if self.rollout_from > solved else ""
        playouts += f"-search{self.search_budget}" if playouts and self.search_budget else ""
        auction = "-auction" if reads_auction(variant, self.read_auction) else ""
        duties = "-duties" if reads_duties(variant, self.read_duties) else ""
        return f"s{self.samples}-f{solved}{playouts}{auction}{duties}"

    def solved(self, variant) -> int:
        """The tricks from the end it solves in ``variant`` (:func:`solves_from`)."""
        return solves_from(variant, self.solve_from)

    def __call__(self, state):
        from simcore.state import Action

        r = state.request()
        fallback = self.heuristic(state)
        if r.kind != "play" or len(r.legal) == 1:
            return fallback
        v, obs = state.variant, state.observation(r.seat)
        known_sides = v.get("teams.kind") != "called_card" or obs["partner"] is not None or obs["called"] is None
        held = len(obs["hand"])  # cards held = tricks left
        solved = self.solved(v)
        if obs["stock"] or held > max(solved, self.rollout_from) or not known_sides:
            return fallback
        if held <= solved:
            values = self.mean_values(state, r.seat, obs)
        else:
            values = self.rollout_values(state, r.seat, r.legal, obs)
        if values is None:
            return fallback
        sign = 1 if self._side(v, obs)[r.seat] == 1 else -1
        best = max(sign * x for x in values.values())
        if sign * values[fallback.value] >= best - 1e-9:
            return fallback
        return Action("play", max(values, key=lambda c: (sign * values[c], -c)))

    def mean_values(self, state, seat: int, obs: dict | None = None) -> dict[int, float] | None:
        """Each legal card's mean double-dummy value (the bidding side's points from the trick's start)
        over the sampled deals; None when no deal fits what the seat has seen."""
        v = state.variant
        obs = state.observation(seat) if obs is None else obs
        positions, trick = self._positions(v, seat, obs)
        return _mean_over_deals(positions, lambda p: card_values(p, trick)) if positions else None

    def rollout_values(self, state, seat: int, cards: list[int], obs: dict | None = None) -> dict[int, float] | None:
        """Each of ``cards`` (the seat's legal cards) by its mean value over the sampled deals when the
        rest of the hand is played out by the heuristic at every seat (:mod:`simcore.kernels.playout`;
        the bidding side's points from the trick's start, as :meth:`mean_values`); None when no deal fits
        what the seat has seen. The deals are those :meth:`mean_values` would draw."""
        v = state.variant
        obs = state.observation(seat) if obs is None else obs
        positions, trick = self._positions(v, seat, obs)
        if not positions:
            return None
        if self.search_budget:
            budget = self.search_budget
            return _mean_over_deals(
                positions, lambda p: {c: x.points for c, x in searched_card_values(p, trick, budget).items()}
            )
        hands = [p.hands for p in positions]
        start = playout_start(v, obs, np.stack(hands), trick, self._side(v, obs))
        out = np.zeros(len(cards), dtype=np.float64)
        copies = np.asarray(v.deck_copies, dtype=np.int64)
        playout_values(start, np.asarray(cards, dtype=np.int64), hand_rules(v), v.trick_points, copies, out)
        return dict(zip(cards, out.tolist(), strict=True))

    # --- what the seat knows --------------------------------------------------------------------------
    def _positions(self, v, seat, obs) -> tuple[list[Position], list[int]]:
        """(the positions at the trick's start of the deals sampled for this decision, the trick's cards
        so far). Without ``read_auction``: ``samples`` draws, less those where no deal fitted what the seat has
        seen; with it, each sample drawn again until it fits the auction too (see the module)."""
        rng = np.random.default_rng(self._seed_of(obs))
        position_of, trick = self._position_maker(v, seat, obs)
        pool, need, void, pinned = self._unseen(v, seat, obs)
        barred = barred_by_duties(v, seat, obs, self._side(v, obs)) if reads_duties(v, self.read_duties) else None
        fits = auction_fit(v, seat, obs) if reads_auction(v, self.read_auction) else None
        drawn, kept = [], []
        for _ in range(self.samples):
            for _ in range(AUCTION_TRIES if fits is not None else 1):
                deal = deal_unseen(rng, pool, need, void, pinned, barred=barred)
                if deal is None:
                    break
                position = position_of(deal)
                drawn.append(position)
                if fits is None or fits(position.hands):
                    kept.append(position)
                    break
        return (kept or drawn[: self.samples]), trick

    def _seed_of(self, obs: dict) -> int:
        """From ``seed`` and what the seat has seen alone, so that hidden cards cannot sway a draw."""
        seen = {k: obs[k] for k in ("seat", "hand", "bids", "moves", "tricks", "trick")}
        text = f"{self.seed}:{json.dumps(seen, sort_keys=True)}"
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")

    @staticmethod
    def _side(v, obs) -> tuple[int, ...]:
        partner = obs["partner"] if obs["partner"] is not None else -1
        return sides(v, obs["bidder"], partner)

    def _position_maker(self, v, seat, obs):
        """(a function from the other seats' sampled cards to the position at the trick's start, the
        trick's cards so far)."""
        players, trump = v.players, "SHDC".index(obs["trump"])
        mine = parse_hand(" ".join(obs["hand"]))
        played = [(s, int(parse_hand(c).argmax())) for s, c in obs["trick"]]
        leader = played[0][0] if played else seat
        broken = any(parse_hand(c).argmax() // 6 == trump for _, cards, _, _ in obs["tricks"] for c in cards)
        side = self._side(v, obs)

        def position(others: dict[int, list[int]]) -> Position:
            hands = np.zeros((players, N_TYPES), dtype=np.uint8)
            hands[seat] = mine
            for s, cards in others.items():
                for c in cards:
                    hands[s, c] += 1
            for s, c in played:
                hands[s, c] += 1
            return Position(v, hands, trump, leader, side, obs["bidder"], not obs["tricks"], broken)

        return position, [c for _, c in played]

    @staticmethod
    def _unseen(v, seat, obs):
        """(unseen card types, how many each other seat holds beyond its pinned cards, the suits each has
        shown void, cards pinned to a seat)."""
        players, trump = v.players, "SHDC".index(obs["trump"])
        left = np.array(v.deck_copies, dtype=np.int64) - parse_hand(" ".join(obs["hand"]))
        out_of_play = [c for who, kind, c, _ in obs["moves"] if who == seat and kind in ("bury", "discard") and c]
        played: list[tuple[int, int, int]] = []  # (seat, card, led suit; -1 while a stock lasts: no duty)
        free = _free_tricks(v)
        for k, (lead, cards, _, _) in enumerate(obs["tricks"]):
            types = [int(parse_hand(c).argmax()) for c in cards]
            played += [((lead + i) % players, t, types[0] // 6 if k >= free else -1) for i, t in enumerate(types)]
        current = [(s, int(parse_hand(c).argmax())) for s, c in obs["trick"]]
        played += [(s, t, current[0][1] // 6) for s, t in current]
        for c in out_of_play:
            left[int(parse_hand(c).argmax())] -= 1
        for _, t, _ in played:
            left[t] -= 1
        void = {s: set() for s in range(players) if s != seat}
        must_trump = v.get("play.void_must_trump")
        trump_instead = v.get("play.trump_instead")
        for s, t, led in played:
            if s == seat or led < 0 or t // 6 == led or (trump_instead and t // 6 == trump):
                continue
            void[s].add(led)
            if must_trump and t // 6 != trump:
                void[s].add(trump)
        pinned = {s: [] for s in void}
        for s, counts in _held_after_meld(seat, obs, pinned).items():
            for who, t, _ in played:  # the trick in progress too: the position puts its cards back
                if who == s and counts[t] > 0:
                    counts[t] -= 1
            pinned[s] = card_types(counts)
            left -= counts
        n = len(obs["hand"])  # every seat held as many at the trick's start
        in_trick = {s for s, _ in current}
        need = {s: n - (1 if s in in_trick else 0) - len(pinned[s]) for s in void}
        pool = card_types(left)
        return pool, need, void, pinned


def _mean_over_deals(positions: list[Position], values_of) -> dict[int, float]:
    """Each card's mean of ``values_of(position)`` ({card: points}) over ``positions``, a distinct deal
    valued once and weighed by its draws (:func:`distinct_deals`)."""
    total: dict[int, float] = {}
    for position, times in distinct_deals(positions):
        for card, value in values_of(position).items():
            total[card] = total.get(card, 0.0) + value * times
    return {c: x / len(positions) for c, x in total.items()}


def distinct_deals(positions: list[Position]) -> list[tuple[Position, int]]:
    """Each distinct deal of ``positions`` (by the cards each seat holds) with how many times it was
    drawn, in the order first drawn. Late in a hand, or in two-hand once the stock is gone, the unseen
    cards often admit one deal only, and a deal's solve need not be repeated for its copies."""
    drawn: dict[bytes, list] = {}  # in the order first drawn
    for position in positions:
        drawn.setdefault(position.hands.tobytes(), [position, 0])[1] += 1
    return [(position, times) for position, times in drawn.values()]


def auction_fit(v, seat: int, obs: dict):
    """A test of sampled hands (uint8[players, 24], the hands at the trick's start) against the auction
    that ``seat`` saw (``obs``, its observation): True when every other seat whose hand at the auction
    ``seat`` can rebuild would have made its calls as the model bidders do (see the module). None
    where nothing is tested: no auction, calls the model cannot make, or no seat's hand to rebuild."""
    from simcore.kernels.auction_condition import condition_rows, seen_auction_condition
    from simcore.kernels.condition import Condition, accepts

    if v.get("auction.kind") == "none" or not obs["bids"]:
        return None
    condition = seen_auction_condition(v, obs["bids"], seat)
    if condition is None:
        return None
    players = v.players
    # Cards that left or joined a hand since the auction, as far as ``seat`` saw them; a seat that moved
    # a card it did not see (or took the widow) cannot be rebuilt.
    change = np.zeros((players, N_TYPES), dtype=np.int64)
    blind = set()
    if v.get("deal.widow") and obs["bidder"] is not None and obs["bidder"] >= 0:
        blind.add(obs["bidder"])
    for who, kind, card, to in obs["moves"]:
        touched = {x for x in (who, to) if x is not None and 0 <= x < players}
        if kind not in ("give", "share") or card is None:
            blind |= touched
            continue
        t = int(parse_hand(card).argmax())
        change[who, t] += 1
        if to is not None and 0 <= to < players:
            change[to, t] -= 1
    for lead, cards, _, _ in obs["tricks"]:
        for i, c in enumerate(cards):
            change[(lead + i) % players, int(parse_hand(c).argmax())] += 1
    clauses = tuple(c for c in condition.clauses if c.seats[0] not in blind)
    if not clauses:
        return None
    change[sorted(blind)] = 0  # untested; kept from going below zero
    rows = condition_rows(v, Condition(condition.text, clauses, condition.players, condition.label))
    table, flags = v.meld_table, v.meld_flags
    widow = np.zeros(N_TYPES, dtype=np.uint8)
    totals, scratch = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.uint64)

    def fits(hands: np.ndarray) -> bool:
        dealt = (hands + change).astype(np.uint8)
        return bool(accepts(dealt, widow, v.hand_size, rows, table, flags, totals, scratch))

    return fits


def barred_by_duties(v, seat: int, obs: dict, side: tuple[int, ...]) -> dict[int, set[int]]:
    """The card types each other seat cannot hold, read from the duties of play (``play.legal``, the hand
    kernel's play rule): a card he played would not have been his to play had he held one of them (a
    higher card of the led suit he had to head with, a trump he had to lead or to overtrump with). Read
    pair by pair: the card played was not legal from the two cards, the played one and the barred one,
    as the duties rank a hand's cards in classes and a card is legal when no card held ranks in a better
    class; and only from a card that would not have been legal had he held every card, so that some
    card he might hold made it wrong (a trump played instead of following, where the rules allow it, is
    legal so: with the led suit held he need not overtrump, and nothing is read of his trumps). Cards
    leave a hand and none comes back in play, so a card barred then is barred now. Tricks while a stock
    lasts carry no duty; ``side``: each seat's side (1: the bidder's), for a partner's
    exemption from heading him."""
    players, trump = v.players, "SHDC".index(obs["trump"])
    rules = hand_rules(v)
    duty, free, everything = duties(rules), _free_tricks(v), np.int64((1 << N_TYPES) - 1)
    barred: dict[int, set[int]] = {s: set() for s in range(players) if s != seat}
    tricks = [(lead, [parse_card(c) for c in cards]) for lead, cards, _, _ in obs["tricks"]]
    if obs["trick"]:
        tricks.append((obs["trick"][0][0], [parse_card(c) for _, c in obs["trick"]]))
    broken = False
    for k, (leader, types) in enumerate(tricks):
        led, win, win_seat, top = types[0] // N_RANKS, types[0], leader, types[0]
        for i, t in enumerate(types):
            s = (leader + i) % players
            if s != seat and k >= free:
                situation = situation_of(
                    False,
                    rules.exempt_partner != 0 and i > 0 and side[win_seat] == side[s],
                    k == 0 and i == 0 and s == obs["bidder"] and rules.bidder_leads_trump != 0,
                    rules.trump_led_once_broken != 0 and i == 0 and not broken,
                )
                rule = (situation, (np.int64(i), np.int64(led), np.int64(win), np.int64(top)), np.int64(trump), duty)
                if not _may_play(t, everything, rule):
                    barred[s].update(x for x in range(N_TYPES) if not _may_play(t, (1 << t) | (1 << x), rule))
            if i > 0 and beats(t, win, trump):
                win, win_seat = t, s
            if t // N_RANKS == led and t < top:
                top = t
        broken = broken or any(t // N_RANKS == trump for t in types)
    return barred


def _may_play(card: int, held: int, rule: tuple) -> bool:
    """Whether ``card`` is legal from the card types ``held`` (a bitmask) under ``rule``: the situation,
    trick, trump and duties :func:`simcore.kernels.play.legal` takes."""
    situation, trick, trump, duty = rule
    return bool(legal(np.int64(held), np.int64(0), situation, trick, trump, duty) >> card & 1)


def _free_tricks(v) -> int:
    """The tricks played while a stock lasts, which carry no duty (none without a stock)."""
    return v.get("deal.widow") // v.players if v.get("play.stock_play") else 0


def playout_start(v, obs: dict, deals: np.ndarray, trick: list[int], side: tuple[int, ...]) -> PlayoutStart:
    """The :class:`~simcore.kernels.playout.PlayoutStart` of ``deals`` (uint8[deals, players, 24], the
    hands at the trick's start) at the decision ``obs`` (an observation) describes, ``trick`` its cards
    so far: the card counting of the tricks with duties (none while a stock lasted), the copies played,
    the heuristic at every seat."""
    players, trump = v.players, "SHDC".index(obs["trump"])
    tricks = [(lead, [int(parse_hand(c).argmax()) for c in cards]) for lead, cards, _, _ in obs["tricks"]]
    played = np.zeros(N_TYPES, dtype=np.int64)
    for _, cards in tricks:
        for c in cards:
            played[c] += 1
    free = _free_tricks(v)
    leader = obs["trick"][0][0] if obs["trick"] else obs["to_act"]
    ctx = play_context(v, side, trump, tricks[free:], (leader, trick))
    facts = np.zeros(N_FACTS, dtype=np.int64)
    facts[F_LEADER], facts[F_PLAYED], facts[F_TRUMP] = leader, len(trick), trump
    facts[F_BIDDER], facts[F_FIRST] = obs["bidder"], int(not obs["tricks"])
    facts[F_BROKEN] = int(any(c // 6 == trump for _, cards in tricks for c in cards))
    moves = np.zeros(players, dtype=np.int64)
    moves[: len(trick)] = trick
    return PlayoutStart(
        deals.astype(np.uint8),
        moves,
        ctx,
        played,
        np.asarray(side, dtype=np.int64),
        np.full(players, HEURISTIC, dtype=np.int64),
        facts,
    )


def _held_after_meld(seat: int, obs: dict, others) -> dict[int, np.ndarray]:
    """The copies of each card type each of ``others`` surely held once the exchange and the meld were
    over, as ``seat`` saw them: the cards ``seat`` passed it (less those it passed back to ``seat``), and
    the cards it laid down in meld; a type counts as often as the larger of the two says."""
    passed = {s: np.zeros(N_TYPES, dtype=np.int64) for s in others}
    for who, kind, c, to in obs["moves"]:
        if kind not in ("give", "share") or not c:
            continue
        t = int(parse_hand(c).argmax())
        if who == seat and to in passed:
            passed[to][t] += 1
        elif to == seat and who in passed and passed[who][t] > 0:
            passed[who][t] -= 1
    for s, cards in enumerate(obs["shown"] or []):
        if s in passed and cards:
            passed[s] = np.maximum(passed[s], parse_hand(" ".join(cards)).astype(np.int64))
    return passed


class TimedSamplingPlayer(SamplingPlayer):
    """The sampling player, counting the decisions it samples and solves (``decisions``: choices among
    several cards in its tricks) and the seconds they take by ``clock`` (``seconds``; default wall time,
    or ``time.process_time`` for CPU time), and the same for those it weighs by playouts (``rollouts``,
    ``rollout_seconds``). The cards it plays are the sampling player's."""

    def __init__(
        self,
        samples: int = 20,
        solve_from: int | None = None,
        seed: int = 0,
        clock=time.perf_counter,
        rollout_from: int | None = EVERY_TRICK,
        read_auction: bool | None = None,
        read_duties: bool | None = None,
        search_budget: int = 0,
    ):
        super().__init__(samples, solve_from, seed, rollout_from, read_auction, read_duties, search_budget)
        self.clock, self.decisions, self.seconds = clock, 0, 0.0
        self.rollouts, self.rollout_seconds = 0, 0.0

    def mean_values(self, state, seat: int, obs: dict | None = None) -> dict[int, float] | None:
        start = self.clock()
        try:
            return super().mean_values(state, seat, obs)
        finally:
            self.decisions += 1
            self.seconds += self.clock() - start

    def rollout_values(self, state, seat: int, cards: list[int], obs: dict | None = None) -> dict[int, float] | None:
        start = self.clock()
        try:
            return super().rollout_values(state, seat, cards, obs)
        finally:
            self.rollouts += 1
            self.rollout_seconds += self.clock() - start


def deal_unseen(
    rng: np.random.Generator,
    pool: list[int],
    need: dict[int, int],
    void: dict[int, set],
    pinned: dict[int, list[int]],
    tries: int = 200,
    barred: dict[int, set[int]] | None = None,
) -> dict[int, list[int]] | None:
    """One deal of ``pool`` (card types) giving each seat ``need[s]`` cards none of whose suits it has
    shown void, on top of its ``pinned`` cards; the rest of the pool is left out. Cards go one by one,
    the most constrained first, each to a seat (or out) with odds by the room left; None when ``tries``
    attempts all ran into a card no seat could take. ``barred``: card types a seat cannot hold (None: none)."""
    barred = barred or {}
    spare = len(pool) - sum(need.values())
    if spare < 0 or min(need.values(), default=0) < 0:
        return None
    for _ in range(tries):
        cards = list(pool)
        rng.shuffle(cards)
        cards.sort(key=lambda c: -sum(c // 6 in void[s] or c in barred.get(s, ()) for s in need))
        room, out = dict(need), spare
        got = {s: list(pinned[s]) for s in need}
        for c in cards:
            seats = [s for s in need if room[s] > 0 and c // 6 not in void[s] and c not in barred.get(s, ())]
            weights = [room[s] for s in seats] + [out]
            if not any(weights):
                break
            k = index_by_weight(rng, weights)
            if k == len(seats):
                out -= 1
            else:
                got[seats[k]].append(c)
                room[seats[k]] -= 1
        else:
            return got
    return None


def index_by_weight(rng: np.random.Generator, weights: list[int]) -> int:
    """An index drawn with odds by ``weights`` (counts, not all 0): what ``rng.choice(len(weights),
    p=weights / sum(weights))`` draws, from the same one double of ``rng`` by the same arithmetic (its
    shares summed in order, scaled by the last, the first above the draw), without numpy's cost a call,
    which was most of a sampled deal's."""
    total = float(sum(weights))
    cdf, acc = [], 0.0
    for w in weights:
        acc += w / total
        cdf.append(acc)
    u, last = rng.random(), cdf[-1]
    return next(i for i, c in enumerate(cdf) if c / last > u)


def sampling(state):
    """The sampling player with its defaults (20 deals a decision, the last 6 tricks, every trick in
    two-hand): ``pinochle duel
    --policy simcore.state.sampler:sampling``."""
    return _DEFAULT(state)


_DEFAULT = SamplingPlayer()
