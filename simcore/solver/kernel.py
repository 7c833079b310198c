"""Double-dummy solver for the trick phase: the exact trick points each side takes from a position with
every hand known and every player playing perfectly for his side, under the variant's duties.

A position is the cards each seat still holds (copy counts), the seat to lead and, when it starts the
hand, whether the bidder must open with a trump; with ``play.trump_led_once_broken``, whether trump has
been broken; optionally the cards already played to the trick in progress. Its value is the points the
bidding side (side 1, ``side[seat] == 1``) takes from the start of that trick to the end of the hand:
the trick points of every card it wins, and the last-trick bonus. The other side takes the rest of
the points still in play (an invariant the tests check).

The method is the one that makes bridge solvers fast (DDS: ``ABsearch``, ``Moves``, ``TransTable``),
carried over from trick counts to points:

* alpha-beta over single cards, fail-soft, the bidding side maximising, the other side minimising;
* a transposition table at trick starts, keyed by the cards still held (two independent 64-bit Zobrist
  hashes of (seat, card type, copies held): one addresses, the other verifies), the leader and the
  trump-broken and first-lead flags, holding a lower and an upper bound on the value and the best
  lead found; an entry whose bounds meet is the value of its position, whatever the window;
* equivalent cards as one move: the copies of one card type are one move, and so are two cards of
  a seat's suit worth the same points when no other seat holds (and the trick shows) any card from
  the one to the other, both included — whichever is played, everything afterwards is the same;
* move ordering: the table's best lead first, then each ply's killer (the card that last cut a node
  at that ply off), then winners of high points, cheap discards, points fed to a partner who is winning;
* bounds before searching: a side cannot take more than the points still in play nor fewer than
  none; sure trumps and the tricks they win, the leader's side's best quick trick or cashing run, and
  either side's claim of every trick left (:func:`_bounds`); the last trick is played without search.

The threshold question "can the bidding side take at least T from here?" is one null-window search
(:func:`threshold_kernel`); the exact value is one search with a window holding every value
(:func:`value_kernel`).

Every array is int64; one :class:`SolverWork` per thread carries the position, the rules and the
table (:func:`solver_work`). Seats are numbered clockwise; card types are ``suit * 6 + rank``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import N_RANKS, N_TYPES
from simcore.kernels.leaf import leaf
from simcore.kernels.play import (
    SUIT_BITS,
    SUIT_OF,
    beats,
    cards_above,
    legal,
    lowest_card,
    situation_of,
)
from simcore.kernels.playout import N_FACTS, PlayoutStart, PlayoutWork, play_out
from simcore.kernels.policies import CTX_SIZE, HEURISTIC
from simcore.solver.estimate import N_FEATURES, estimate, position_features
from simcore.solver.estimate_weights import WEIGHTS
from simcore.variants.record import HandRules

if WEIGHTS.shape != (N_FEATURES,):
    raise ImportError(f"estimate_weights: {WEIGHTS.shape} weights for {N_FEATURES} features")

#: The rules: ``SolverWork.rules`` holds the rules record the hand kernel reads
#: (:class:`~simcore.variants.record.HandRules`, one int64 per field, in field order), read by these
#: field positions.
R_LAST_TRICK, R_EXEMPT, R_LEAD_TRUMP, R_WAIT_BROKEN = (
    HandRules._fields.index(f) for f in ("last_trick", "exempt_partner", "bidder_leads_trump", "trump_led_once_broken")
)
R_HEAD, R_HEAD_TRUMPED, R_VOID_TRUMP, R_VOID_OVER, R_TRUMP_INSTEAD = (
    HandRules._fields.index(f)
    for f in ("head", "head_when_trumped", "void_must_trump", "void_must_overtrump", "trump_instead")
)


class PlayRules(NamedTuple):
    """The rules a playout reads (:func:`simcore.kernels.playout.play_out`), by the names of
    :class:`~simcore.variants.record.HandRules`, read from the solver's rules record."""

    last_trick: np.int64
    exempt_partner: np.int64
    bidder_leads_trump: np.int64
    trump_led_once_broken: np.int64
    head: np.int64
    head_when_trumped: np.int64
    void_must_trump: np.int64
    void_must_overtrump: np.int64
    trump_instead: np.int64


#: Entries of the position record, the search state (int64[N_DYN]): trump's suit, the bidder's seat,
#: trump broken (0/1), the first trick of the hand (0/1), tricks left, points still in play (last-trick
#: bonus included), trick starts searched, the table's generation (entries of older solves are
#: ignored), the most trick starts a solve may search (0: no limit; past it the solve gives up and
#: answers GAVE_UP), the frontier (0: none, an exact solve; else a trick start with this many tricks
#: left or fewer is not searched but estimated, :mod:`simcore.solver.estimate`) and the trick starts
#: so estimated (counted in the trick starts too).
Y_TRUMP, Y_BIDDER, Y_BROKEN, Y_FIRST, Y_LEFT, Y_REMAINING, Y_NODES, Y_GEN, Y_LIMIT, Y_FRONTIER, Y_EVALS = range(11)
N_DYN = 11
#: The facts of a position :func:`load_position` writes into the position record, in this order.
FACTS = (Y_TRUMP, Y_BIDDER, Y_BROKEN, Y_FIRST, Y_LIMIT, Y_FRONTIER)
#: A trick in progress as the search passes it, a tuple of int64 with these fields: card i of the
#: trick is to be played (cards 0 .. i-1 are out), the seat that led it, the led suit, the winning card
#: and its seat, the top card of the led suit, the points of its cards and their types (a bitmask).
TRICK = ("i", "leader", "led", "win", "win_seat", "top_led", "points", "mask")
#: A trick start (no card played yet), led by seat ``leader``: ``(0, leader, 0, 0, 0, 0, 0, 0)``.
#: What a solve answers when it reached its limit of trick starts before an answer.
GAVE_UP = -1
#: Most copies of a card type in any deck (six-hand triple pack: 6) and most seats.
MAX_COPIES, MAX_PLAYERS = 6, 6
#: Rows of the flag keys: the leader's seat (0..5), trump broken, first trick.
K_BROKEN, K_FIRST = MAX_PLAYERS, MAX_PLAYERS + 1
#: No bound: a value below or above any trick total.
NO_LOWER, NO_UPPER = -1, 1 << 14

#: Fields of a search frame (one row of ``SolverWork.frames`` per ply): the card of the trick it
#: plays (0 = the lead), the trick so far (leader, led suit, winning card and seat, top card of the led
#: suit, points, card types), the window (current and as entered), the best value and card so far, the
#: next move and the number of moves, the table keys, the flags and tricks left as entered, the seat
#: to play, the card being tried and what its trick gave the bidding side (when it completed one).
(
    G_I,
    G_LEADER,
    G_LED,
    G_WIN,
    G_WSEAT,
    G_TOP,
    G_TPTS,
    G_TMASK,
    G_ALPHA,
    G_BETA,
    G_A0,
    G_B0,
    G_BEST,
    G_CARD_BEST,
    G_K,
    G_N,
    G_KEY,
    G_CHECK,
    G_BROKEN,
    G_FIRST,
    G_LEFT,
    G_SEAT,
    G_CARD,
    G_OURS,
    G_KILLER,
) = range(25)
N_FRAME = 25


class SolverWork(NamedTuple):
    """What one solve works in: the position (changed during the search and restored), the rules, the
    hash keys and the transposition table."""

    #: int64[players, 24]: copies of each card type each seat holds.
    hands: np.ndarray
    #: int64[players]: bitmask of the card types each seat holds (``held_mask``).
    held: np.ndarray
    #: int64[players]: 1 for the bidding side's seats, 0 for the others.
    side: np.ndarray
    #: int64[24]: points for taking each card type.
    points: np.ndarray
    #: int64[fields of HandRules]: the rules record, read by field position (``R_*``).
    rules: np.ndarray
    #: int64[N_DYN]: entries ``Y_*``.
    dyn: np.ndarray
    #: int64[2, MAX_PLAYERS, 24, MAX_COPIES + 1]: the Zobrist keys of (seat, suit * 6 + rank among the
    #: types held, copies held), per hash; int64[2, 24, 6]: of (suit * 6 + rank among those held,
    #: class of the type's points); int64[24]: each type's points class (numbered distinct values).
    zobrist: np.ndarray
    zpoints: np.ndarray
    point_class: np.ndarray
    #: int64[2, MAX_PLAYERS + 2]: the keys of the leader's seat and the flags (rows ``K_*``), per hash.
    zflags: np.ndarray
    #: int64[plies + 1, 24] and int64[plies + 1, 24]: each ply's moves and their ordering scores.
    moves: np.ndarray
    scores: np.ndarray
    #: int64[plies + 1, N_FRAME]: the search's frames, one per ply (fields ``G_*``).
    frames: np.ndarray
    #: The transposition table (2-way buckets): both hashes, lower and upper bound, best lead (-1:
    #: none), tricks left and generation of each entry.
    tt_key: np.ndarray
    tt_check: np.ndarray
    tt_lower: np.ndarray
    tt_upper: np.ndarray
    tt_best: np.ndarray
    tt_left: np.ndarray
    tt_gen: np.ndarray
    #: float64[N_FEATURES]: the evaluation's weights, and the features of the position it estimates.
    weights: np.ndarray
    features: np.ndarray
    #: int64[24]: the deck's copies of each card type; int64[CTX_SIZE]: the card counting of a playout
    #: that starts from nothing shown (the points and the sides, :func:`simcore.kernels.card_features.play_context`).
    copies: np.ndarray
    ctx0: np.ndarray
    #: The evaluation's playouts: where they start (one deal: the hands at the frontier) and their scratch.
    playout: PlayoutStart
    playout_work: PlayoutWork


def solver_work(players: int, tricks: int, table_bits: int = 20, seed: int = 0x5EED) -> SolverWork:
    """A fresh :class:`SolverWork` for ``players`` seats and up to ``tricks`` tricks, with a table of
    2**``table_bits`` entries (about 26 bytes each). The Zobrist keys come from ``seed``."""
    rng = np.random.default_rng(seed)
    size = 1 << table_bits
    plies = tricks * players + 1
    keys = rng.integers(-(1 << 62), 1 << 62, size=(2, MAX_PLAYERS, N_TYPES, MAX_COPIES + 1), dtype=np.int64)
    keys[:, :, :, 0] = 0  # a type not held leaves the hash alone, so any hand's hash is its cards'
    return SolverWork(
        np.zeros((players, N_TYPES), dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.int64),
        np.zeros(len(HandRules._fields), dtype=np.int64),
        np.zeros(N_DYN, dtype=np.int64),
        keys,
        rng.integers(-(1 << 62), 1 << 62, size=(2, N_TYPES, N_RANKS), dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.int64),
        rng.integers(-(1 << 62), 1 << 62, size=(2, MAX_PLAYERS + 2), dtype=np.int64),
        np.zeros((plies, N_TYPES), dtype=np.int64),
        np.zeros((plies, N_TYPES), dtype=np.int64),
        np.zeros((plies, N_FRAME), dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int16),
        np.zeros(size, dtype=np.int16),
        np.zeros(size, dtype=np.int8),
        np.zeros(size, dtype=np.int8),
        np.full(size, -1, dtype=np.int32),
        np.asarray(WEIGHTS, dtype=np.float64).copy(),
        np.zeros(N_FEATURES, dtype=np.float64),
        np.zeros(N_TYPES, dtype=np.int64),
        np.zeros(CTX_SIZE, dtype=np.int64),
        PlayoutStart(
            np.zeros((1, players, N_TYPES), dtype=np.uint8),
            np.zeros(players, dtype=np.int64),
            np.zeros(CTX_SIZE, dtype=np.int64),
            np.zeros(N_TYPES, dtype=np.int64),
            np.zeros(players, dtype=np.int64),
            np.full(players, HEURISTIC, dtype=np.int64),
            np.zeros(N_FACTS, dtype=np.int64),
        ),
        PlayoutWork(
            np.zeros((players, N_TYPES), dtype=np.uint8),
            np.zeros(players, dtype=np.int64),
            np.zeros(players, dtype=np.int64),
            np.zeros(N_TYPES, dtype=np.int64),
            np.zeros(CTX_SIZE, dtype=np.int64),
            np.zeros(players, dtype=np.int64),
        ),
    )


@njit(cache=True, nogil=True)
def load_position(w, hands, side, points, rules, facts, keep_table):
    """Set ``w`` to the position of ``hands`` (copy counts, [players, 24]) at a trick start, with the
    sides, trick points, the rules record (int64, HandRules' fields in order) and the position's
    ``facts``: (trump, bidder, broken, first, limit of trick starts (0: none), frontier (0: none)), as
    :data:`FACTS`. Starts a
    new table generation, unless ``keep_table``: then the table's entries stay valid, which is sound
    when the sides, points and rules are those of the previous load (an entry is the value of the
    position its key names, whichever solve reached it), as for the legal cards of one trick.
    Returns the tricks left, the current one included."""
    players = hands.shape[0]
    w.side[:] = side
    w.points[:] = points
    w.rules[:] = rules
    dyn = w.dyn
    classes = 0  # the trick points' distinct values, numbered: a card's class keys the table
    for t in range(N_TYPES):
        w.point_class[t] = -1
        for u in range(t):
            if w.point_class[t] < 0 and points[u] == points[t]:
                w.point_class[t] = w.point_class[u]
        if w.point_class[t] < 0:
            w.point_class[t] = classes
            classes += 1
    remaining = 0
    for s in range(players):
        m = np.int64(0)
        for t in range(N_TYPES):
            c = np.int64(hands[s, t])
            w.hands[s, t] = c
            if c > 0:
                m |= np.int64(1) << t
                remaining += c * points[t]
        w.held[s] = m
    left = 0  # the tricks left, the current one included: the seats still to play to it hold the most
    for s in range(players):
        n = 0
        for t in range(N_TYPES):
            n += w.hands[s, t]
        left = max(left, n)
    for k in range(len(FACTS)):
        dyn[FACTS[k]] = facts[k]
    dyn[Y_LEFT] = left
    dyn[Y_REMAINING] = remaining + (rules[R_LAST_TRICK] if left > 0 else 0)
    dyn[Y_NODES] = 0
    dyn[Y_EVALS] = 0
    if not keep_table:
        dyn[Y_GEN] += 1
    w.frames[:, G_KILLER] = 0  # a solve's move order (and so its count of trick starts) is its own
    return left


@leaf
def _play(w, seat, t):
    """``seat`` plays a copy of card type ``t``: hands, held bits and points in play follow."""
    c = w.hands[seat, t]
    w.hands[seat, t] = c - 1
    if c == 1:
        w.held[seat] &= ~(np.int64(1) << t)
    w.dyn[Y_REMAINING] -= w.points[t]


@leaf
def _unplay(w, seat, t):
    """Undo :func:`_play`."""
    w.hands[seat, t] += 1
    w.held[seat] |= np.int64(1) << t
    w.dyn[Y_REMAINING] += w.points[t]


@njit(cache=True, inline="always")
def legal_now(w, seat, trick):
    """Bitmask of the card types ``seat`` may play to the trick ``trick`` (:data:`TRICK`: card i of it)
    under the rules and the position's flags (``play.legal``, the hand kernel's play rule)."""
    i, _, led, win, win_seat, top_led, _, _ = trick
    r, dyn = w.rules, w.dyn
    situation = situation_of(
        False,
        r[R_EXEMPT] != 0 and i > 0 and w.side[win_seat] == w.side[seat],
        dyn[Y_FIRST] != 0 and i == 0 and seat == dyn[Y_BIDDER] and r[R_LEAD_TRUMP] != 0,
        r[R_WAIT_BROKEN] != 0 and i == 0 and dyn[Y_BROKEN] == 0,
    )
    duty = (r[R_HEAD], r[R_HEAD_TRUMPED], r[R_VOID_TRUMP], r[R_VOID_OVER], r[R_TRUMP_INSTEAD])
    return legal(w.held[seat], np.int64(0), situation, (i, led, win, top_led), dyn[Y_TRUMP], duty)


@leaf
def _moves(w, ply, seat, legal, trick, best_lead):
    """Fill ``w.moves[ply]`` with one card of each class of equivalent legal cards of ``seat`` as card i of
    the trick ``trick`` (:data:`TRICK`), ``best_lead`` (the table's, -1: none) first, best first; returns
    how many. Two cards of ``seat``'s suit are one class when they are worth the same points and no
    other seat holds, and the trick does not show, a card type from the one to the other (both
    included): they win and lose against the same cards, now and later."""
    i, _, _, win, win_seat, _, _, trick_mask = trick
    players = w.held.shape[0]
    trump = w.dyn[Y_TRUMP]
    points = w.points
    mine = w.side[seat]
    others = trick_mask
    opponents = np.int64(0)
    for s in range(players):
        if s != seat:
            others |= w.held[s]
            if w.side[s] != mine:
                opponents |= w.held[s]
    opp_trumps = opponents & SUIT_BITS[trump] != 0
    moves, scores = w.moves[ply], w.scores[ply]
    killer = w.frames[ply, G_KILLER] - 1
    n = 0
    rep = np.int64(-1)  # the class's card kept (the highest), in the suit now scanned
    m = legal
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        if rep >= 0 and SUIT_OF[rep] == SUIT_OF[t] and points[rep] == points[t]:
            span = (np.int64(1) << (t + 1)) - (np.int64(1) << rep)
            if others & span == 0:
                continue
        rep = t
        suit = SUIT_OF[t]
        if i == 0:
            # lead: a card no opponent can beat in its suit first (by its points), then low cards
            boss = opponents & cards_above(t) == 0 and (
                suit == trump or not opp_trumps or opponents & SUIT_BITS[suit] != 0
            )
            score = (1000 + points[t] * 8 - (t % N_RANKS)) if boss else (-points[t] * 8 + (t % N_RANKS))
            if t == best_lead:
                score = 1 << 20
        else:
            takes = beats(t, win, trump)
            if w.side[win_seat] == mine and not takes:
                score = 500 + points[t] * 8  # partner is winning: feed him points
            elif takes:
                score = 300 + points[t] * 4 - (40 if suit == trump else 0) + (t % N_RANKS) * 2  # cheapest winner
            else:
                score = -points[t] * 8 + (t % N_RANKS)  # cannot win: throw the cheapest card
        if t == killer and score < 1 << 19:
            score = 1 << 19
        # insertion, best first
        k = n
        while k > 0 and scores[k - 1] < score:
            moves[k] = moves[k - 1]
            scores[k] = scores[k - 1]
            k -= 1
        moves[k] = t
        scores[k] = score
        n += 1
    return n


@leaf
def _last_trick(w, leader):
    """The bidding side's points from the last trick, every seat holding one card."""
    players = w.held.shape[0]
    trump = w.dyn[Y_TRUMP]
    win = lowest_card(w.held[leader])
    win_seat = leader
    pts = w.points[win] + w.rules[R_LAST_TRICK]
    for i in range(1, players):
        s = (leader + i) % players
        t = lowest_card(w.held[s])
        pts += w.points[t]
        if beats(t, win, trump):
            win, win_seat = t, s
    return pts if w.side[win_seat] == 1 else 0


@leaf
def _key(w, leader):
    """The two table hashes of the trick start with ``leader`` to lead: of the leader, the flags and,
    suit by suit, each card type still held by its rank among those still held (not its own rank),
    its points' class and the copies each seat holds. Two positions alike in all of these play alike
    (the cards played since matter only through the order and points of those left), so the table
    serves both: the abstraction by relative rank that DDS keys its table with."""
    players = w.held.shape[0]
    z = w.zobrist
    key, check = w.zflags[0, leader], w.zflags[1, leader]
    if w.dyn[Y_BROKEN] != 0:
        key ^= w.zflags[0, K_BROKEN]
        check ^= w.zflags[1, K_BROKEN]
    if w.dyn[Y_FIRST] != 0:
        key ^= w.zflags[0, K_FIRST]
        check ^= w.zflags[1, K_FIRST]
    for s in range(4):
        j = 0
        for r in range(N_RANKS):
            t = s * N_RANKS + r
            held = False
            for p in range(players):
                c = w.hands[p, t]
                if c > 0:
                    key ^= z[0, p, s * N_RANKS + j, c]
                    check ^= z[1, p, s * N_RANKS + j, c]
                    held = True
            if held:
                key ^= w.zpoints[0, s * N_RANKS + j, w.point_class[t]]
                check ^= w.zpoints[1, s * N_RANKS + j, w.point_class[t]]
                j += 1
    return key, check


@leaf
def _relative(w, t):
    """Card type ``t`` as the table keeps a best lead: suit * 6 + its rank among the types still held."""
    if t < 0:
        return t
    suit = SUIT_OF[t]
    j = 0
    for u in range(suit * N_RANKS, t):
        for p in range(w.held.shape[0]):
            if w.hands[p, u] > 0:
                j += 1
                break
    return suit * N_RANKS + j


@leaf
def _absolute(w, code):
    """The card type of a best lead kept by :func:`_relative` (-1: none)."""
    if code < 0:
        return np.int64(-1)
    suit = code // N_RANKS
    j = 0
    for t in range(suit * N_RANKS, suit * N_RANKS + N_RANKS):
        for p in range(w.held.shape[0]):
            if w.hands[p, t] > 0:
                if j == code % N_RANKS:
                    return np.int64(t)
                j += 1
                break
    return np.int64(-1)


@leaf
def _probe(w, key, check):
    """Index of the table entry of (key, check) in this generation, or -1."""
    mask = w.tt_key.shape[0] - 1
    idx = key & mask
    gen = w.dyn[Y_GEN]
    for j in range(2):
        e = idx ^ j
        if w.tt_gen[e] == gen and w.tt_key[e] == key and w.tt_check[e] == check:
            return e
    return np.int64(-1)


@leaf
def _store(w, key, check, lower, upper, best, left):
    """Keep the bounds (``lower``..``upper``) and best lead of (key, check): in its entry if it has
    one (bounds narrowed), else in the bucket's free or least valuable slot (fewest tricks left)."""
    e = _probe(w, key, check)  # the entry read before the search may since have gone to another position
    if e < 0:
        mask = w.tt_key.shape[0] - 1
        idx = key & mask
        gen = w.dyn[Y_GEN]
        e = idx
        other = idx ^ 1
        if w.tt_gen[e] == gen and (w.tt_gen[other] != gen or w.tt_left[other] < w.tt_left[e]):
            e = other
        w.tt_key[e] = key
        w.tt_check[e] = check
        w.tt_gen[e] = gen
        w.tt_lower[e] = NO_LOWER
        w.tt_upper[e] = NO_UPPER
        w.tt_left[e] = left
    if lower > w.tt_lower[e]:
        w.tt_lower[e] = lower
    if upper < w.tt_upper[e]:
        w.tt_upper[e] = upper
    w.tt_best[e] = best


@leaf
def _least(w, seat, cards):
    """The fewest points of a card of ``cards`` (a bitmask) that ``seat`` holds (0 when none)."""
    m = w.held[seat] & cards
    if m == 0:
        return np.int64(0)
    least = np.int64(1) << 14
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        if w.points[t] < least:
            least = w.points[t]
    return least


@leaf
def _bounds(w, leader):
    """(lower, upper) bounds on the bidding side's points from the trick start with ``leader`` to lead,
    from two sure things (a trick start that is not the last trick):

    * a trump that no opponent can beat or tie (he holds no trump of its type or higher) wins the
      trick it falls in for its side, so its points are that side's whatever is played;
    * a quick trick: a lead that no seat of the other side can beat — none holds a higher card of its
      suit, nor (a side suit) a trump he could ruff with, being void or free to trump instead — wins
      the trick for the leader's side. Each opponent adds at least his cheapest card of the led suit
      (of his hand, when he is void: what he plays is one of them). A partner's card is counted as
      nothing, but the side's sure trumps still held after the trick are its own: a sure trump the
      partner plays into the trick is the side's either way, so the leader's side takes at least the
      lead, the opponents' cheapest cards and its sure trumps other than the lead.

    The leader's side takes at least the largest of its quick trick, its cashing run (:func:`_run`) and
    its ruffs (:func:`_ruffs`), or everything when it claims (:func:`_claims`); the other side at least
    its ruffs, or everything when it wins every trick from here (:func:`_defends_all`)."""
    players = w.held.shape[0]
    trump = w.dyn[Y_TRUMP]
    bits = SUIT_BITS[trump]
    held0, held1 = np.int64(0), np.int64(0)  # each side's cards
    for s in range(players):
        if w.side[s] == 1:
            held1 |= w.held[s]
        else:
            held0 |= w.held[s]
    sure0, sure1 = np.int64(0), np.int64(0)  # the points of each side's sure trumps
    most0, most1 = np.int64(0), np.int64(0)  # the most sure trumps one seat of each side holds
    for s in range(players):
        theirs = held0 if w.side[s] == 1 else held1
        m = w.held[s] & bits
        n = np.int64(0)
        while m != 0:
            t = lowest_card(m)
            m &= m - 1
            if theirs & bits & ((np.int64(2) << t) - 1) == 0:
                n += w.hands[s, t]
                if w.side[s] == 1:
                    sure1 += w.hands[s, t] * w.points[t]
                else:
                    sure0 += w.hands[s, t] * w.points[t]
        if w.side[s] == 1:
            most1 = max(most1, n)
        else:
            most0 = max(most0, n)
    x = w.side[leader]
    ours, theirs = (held1, held0) if x == 1 else (held0, held1)
    remaining = w.dyn[Y_REMAINING]
    sure, most = (sure1, most1) if x == 1 else (sure0, most0)
    other, other_most = (sure0, most0) if x == 1 else (sure1, most1)
    leads = legal_now(w, leader, _start(leader))
    if _claims(w, leader, ours, theirs, leads):
        best = remaining
    else:
        best = max(_quick(w, leader, theirs, leads, sure), _run(w, leader, leads, sure), _ruffs(w, 1 - x, sure, most))
    if _defends_all(w, x, ours, theirs, leads):
        held = remaining
    else:
        held = _ruffs(w, x, other, other_most)
    if x == 1:
        return best, remaining - held
    return held, remaining - best


@leaf
def _ruffs(w, losers, sure, most):
    """The points a side surely takes with its sure trumps (worth ``sure``), the most of them one of its
    seats holds being ``most``: each falls in a trick the side wins, one seat's in ``most`` different
    tricks, to which each seat of the other side (``side == losers``) gives at least its ``most``
    cheapest cards. A seat holding nothing but sure trumps wins every trick left: all the points."""
    players = w.held.shape[0]
    if most == 0:
        return sure
    if most >= w.dyn[Y_LEFT]:
        return w.dyn[Y_REMAINING]
    pts = sure
    for s in range(players):
        if w.side[s] == losers:
            pts += _cheapest(w, s, np.int64(-1), most)
    return pts


@leaf
def _defends_all(w, x, ours, theirs, leads):
    """True when the side not on lead (cards ``theirs``) surely takes every trick left against the
    leader's side (``x``, cards ``ours``, the leader's legal leads ``leads``): the leader's side holds no trump,
    in every suit the other side's cards rank at or above all of its cards, and whatever suit is led the
    other side wins the trick — its cards of the suit all rank strictly above the leader's side's (any
    it must play wins), or one of its seats is void in the suit and holds a trump. Then it leads and, as
    in :func:`_claims`, cashes the rest."""
    trump = w.dyn[Y_TRUMP]
    tbits = SUIT_BITS[trump]
    if ours & tbits != 0:
        return False
    players = w.held.shape[0]
    ruffers = np.int64(0)  # suits some seat of the other side is void in while holding a trump
    for s in range(players):
        if w.side[s] != x and w.held[s] & tbits != 0:
            for suit in range(4):
                if w.held[s] & SUIT_BITS[suit] == 0:
                    ruffers |= np.int64(1) << suit
    for suit in range(4):
        a, b = theirs & SUIT_BITS[suit], ours & SUIT_BITS[suit]
        if a != 0 and b != 0 and _highest_type(a) > lowest_card(b):
            return False
        if leads & SUIT_BITS[suit] != 0 and (ruffers >> suit) & 1 == 0:
            if a == 0 or _highest_type(a) >= lowest_card(b):
                return False
    return True


@leaf
def _claims(w, leader, ours, theirs, leads):
    """True when the leader's side surely takes every trick left (cards ``ours``, the other side's
    ``theirs``): in every suit its cards rank at or above all of the others' (a copy of the same type
    played later loses), and the others hold no trump — or the leader is his side's only seat, may
    lead a trump and holds as many trumps as any of them, so he draws theirs first (they must follow
    to trump leads) and then cashes the rest."""
    trump = w.dyn[Y_TRUMP]
    for suit in range(4):
        a, b = ours & SUIT_BITS[suit], theirs & SUIT_BITS[suit]
        if a != 0 and b != 0 and _highest_type(a) > lowest_card(b):
            return False
    bits = SUIT_BITS[trump]
    if theirs & bits == 0:
        return True
    if ours & bits == 0 or leads & bits == 0:
        return False
    players = w.held.shape[0]
    x = w.side[leader]
    mine = np.int64(0)
    for t in range(trump * N_RANKS, trump * N_RANKS + N_RANKS):
        mine += w.hands[leader, t]
    for s in range(players):
        if s == leader:
            continue
        if w.side[s] == x:
            return False
        n = np.int64(0)
        for t in range(trump * N_RANKS, trump * N_RANKS + N_RANKS):
            n += w.hands[s, t]
        if n > mine:
            return False
    return True


@leaf
def _highest_type(mask):
    """The highest card type index (the lowest rank) in a non-empty bitmask."""
    t = lowest_card(mask)
    mask &= mask - 1
    while mask != 0:
        t = lowest_card(mask)
        mask &= mask - 1
    return t


@leaf
def _quick(w, leader, theirs, leads, sure):
    """The points the leader's side surely takes from its best quick trick (:func:`_bounds`), at least
    ``sure`` (its sure trumps); ``theirs``: the other side's cards, ``leads``: the leader's legal leads."""
    players = w.held.shape[0]
    trump = w.dyn[Y_TRUMP]
    bits = SUIT_BITS[trump]
    x = w.side[leader]
    best = sure
    opp_trumps = np.int64(0)  # opponents who could ruff a side-suit lead they are void in
    for s in range(players):
        if w.side[s] != x and w.held[s] & bits != 0:
            opp_trumps |= np.int64(1) << s
    m = leads
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        if theirs & cards_above(t) != 0:
            continue
        suit = SUIT_OF[t]
        suit_bits = SUIT_BITS[suit]
        pts = w.points[t]
        ok = True
        for s in range(players):
            if w.side[s] == x:
                continue
            follows = w.held[s] & suit_bits != 0
            if suit != trump and (opp_trumps >> s) & 1 != 0 and (not follows or w.rules[R_TRUMP_INSTEAD] != 0):
                ok = False
                break
            pts += _least(w, s, suit_bits if follows else np.int64(-1))
        if not ok:
            continue
        if suit == trump:
            pts -= w.points[t]  # the lead is one of the side's sure trumps, counted there
        pts += sure
        if pts > best:
            best = pts
    return best


@leaf
def _cheapest(w, seat, cards, k):
    """The fewest points ``k`` of the cards of ``cards`` (a bitmask) that ``seat`` holds can carry (all of
    them when he holds fewer)."""
    total, level = np.int64(0), np.int64(-1)
    while k > 0:
        p, n = np.int64(1) << 14, np.int64(0)
        m = w.held[seat] & cards
        while m != 0:
            t = lowest_card(m)
            m &= m - 1
            q = w.points[t]
            if level < q < p:
                p, n = q, w.hands[seat, t]
            elif q == p:
                n += w.hands[seat, t]
        if n == 0:
            break
        take = min(n, k)
        total += take * p
        k -= take
        level = p
    return total


@leaf
def _count(w, seat, cards):
    """How many cards of ``cards`` (a bitmask) ``seat`` holds, copies counted."""
    n = np.int64(0)
    m = w.held[seat] & cards
    while m != 0:
        t = lowest_card(m)
        m &= m - 1
        n += w.hands[seat, t]
    return n


@leaf
def _run(w, leader, leads, sure):
    """The points the leader's side surely takes by cashing, from the top, the leader's cards of one suit
    that no other seat can beat (each ranks at or above every other seat's card of the suit), over
    several tricks (DDS ``QuickTricks``); the best suit, at least 0. In a side suit the run stops before
    any other seat holding a trump runs out of the suit (he could ruff; with ``trump_instead`` he may
    ruff at once, so no run); the leader's partner is held to it too, so the lead stays with the
    leader. Each opponent gives his cheapest cards of the suit, or when he runs out his cheapest
    others; the partner's cards count as nothing; the side's sure trumps (``sure``) are added to a
    side-suit run (no one ruffs in it, so none falls in it); a run of every trick left takes the
    last-trick bonus. ``leads``: the leader's legal leads."""
    players = w.held.shape[0]
    r = w.rules
    trump = w.dyn[Y_TRUMP]
    x = w.side[leader]
    left = w.dyn[Y_LEFT]
    best = np.int64(0)
    for suit in range(4):
        bits = SUIT_BITS[suit]
        mine = w.held[leader] & bits
        if leads & mine == 0:
            continue
        others = np.int64(0)
        for s in range(players):
            if s != leader:
                others |= w.held[s] & bits
        tops = mine if others == 0 else mine & ((np.int64(2) << lowest_card(others)) - 1)
        k = _count(w, leader, tops)
        if suit != trump:
            for s in range(players):
                if s != leader and w.held[s] & SUIT_BITS[trump] != 0:
                    k = 0 if r[R_TRUMP_INSTEAD] != 0 else min(k, _count(w, s, bits))
        if k == 0:
            continue
        pts = _cheapest(w, leader, tops, k)
        for s in range(players):
            if w.side[s] == x:
                continue
            n = _count(w, s, bits)
            pts += _cheapest(w, s, bits, k) + (_cheapest(w, s, ~bits, k - n) if n < k else 0)
        if k >= left:
            pts += r[R_LAST_TRICK]
        if suit != trump:
            pts += sure
        best = max(best, pts)
    return best


@leaf
def _enter(w, ply, trick, alpha, beta):
    """Open the node at ``ply``: card i of the trick ``trick`` (:data:`TRICK`), window ``alpha``..``beta``
    on the bidding side's points from the start of this trick. Returns (done, value): done when a bound
    or the table settles the node without search (the value is then fail-soft, as :func:`search`'s),
    else its frame is ready to search."""
    i, leader, led, win, win_seat, top_led, trick_pts, trick_mask = trick
    dyn = w.dyn
    players = w.held.shape[0]
    left = dyn[Y_LEFT]
    key, check, best_lead = np.int64(0), np.int64(0), np.int64(-1)
    if i == 0:
        if left == 0:
            return True, np.int64(0)
        remaining = dyn[Y_REMAINING]
        if remaining <= alpha:
            return True, remaining
        if beta <= 0:
            return True, np.int64(0)
        if left == 1:
            return True, _last_trick(w, leader)
        dyn[Y_NODES] += 1
        if left <= dyn[Y_FRONTIER]:
            dyn[Y_EVALS] += 1
            return True, _evaluate(w, leader)[0]
        # the table first: most trick starts are settled by it, and its probe costs less than the bounds
        key, check = _key(w, leader)
        e = _probe(w, key, check)
        if e >= 0:
            lower, upper = np.int64(w.tt_lower[e]), np.int64(w.tt_upper[e])
            if lower >= beta:
                return True, lower
            if upper <= alpha:
                return True, upper
        lower, upper = _bounds(w, leader)
        if lower >= beta:
            return True, lower
        if upper <= alpha:
            return True, upper
        if e >= 0:
            lower, upper = np.int64(w.tt_lower[e]), np.int64(w.tt_upper[e])
            if lower >= upper:  # an exact value inside a wider window than a null one
                return True, lower
            alpha = max(alpha, lower)
            beta = min(beta, upper)
            best_lead = _absolute(w, w.tt_best[e])
    seat = (leader + i) % players
    legal = legal_now(w, seat, trick)
    f = w.frames[ply]
    f[G_N] = _moves(w, ply, seat, legal, trick, best_lead)
    f[G_I], f[G_LEADER], f[G_LED], f[G_WIN], f[G_WSEAT], f[G_TOP] = i, leader, led, win, win_seat, top_led
    f[G_TPTS], f[G_TMASK], f[G_ALPHA], f[G_BETA], f[G_A0], f[G_B0] = trick_pts, trick_mask, alpha, beta, alpha, beta
    f[G_BEST] = -1 if w.side[seat] == 1 else NO_UPPER
    f[G_CARD_BEST], f[G_K], f[G_KEY], f[G_CHECK] = -1, 0, key, check
    f[G_BROKEN], f[G_FIRST], f[G_LEFT], f[G_SEAT] = dyn[Y_BROKEN], dyn[Y_FIRST], left, seat
    return False, np.int64(0)


@leaf
def _evaluate(w, leader):
    """The learned estimate of the bidding side's points from the trick start with ``leader`` to lead
    (:mod:`simcore.solver.estimate`; its features left in ``w.features``), within the exact bounds:
    (the estimate, the unit of the point features, the lower and the upper bound)."""
    lower, upper = _bounds(w, leader)
    dyn = w.dyn
    playout = _played_out(w, leader)
    unit = position_features(
        w, leader, (dyn[Y_TRUMP], dyn[Y_LEFT], dyn[Y_REMAINING], lower, upper, playout), w.features
    )
    return estimate(w.weights, w.features, unit, lower, upper), unit, lower, upper


@leaf
def _played_out(w, leader):
    """The bidding side's points from the trick start with ``leader`` to lead when he leads the best of
    his legal cards for his side and the heuristic plays every card after it, each seat reading only
    its own hand and the cards shown from here (:func:`simcore.kernels.playout.play_out`). Each
    playout's tricks count as trick starts reached."""
    start, work, r, dyn = w.playout, w.playout_work, w.rules, w.dyn
    players = w.held.shape[0]
    rules = PlayRules(
        r[R_LAST_TRICK],
        r[R_EXEMPT],
        r[R_LEAD_TRUMP],
        r[R_WAIT_BROKEN],
        r[R_HEAD],
        r[R_HEAD_TRUMPED],
        r[R_VOID_TRUMP],
        r[R_VOID_OVER],
        r[R_TRUMP_INSTEAD],
    )
    for t in range(N_TYPES):
        n = np.int64(0)
        for s in range(players):
            start.deals[0, s, t] = w.hands[s, t]
            n += w.hands[s, t]
        start.played[t] = w.copies[t] - n
    for s in range(players):
        start.side[s] = w.side[s]
    start.facts[0], start.facts[1], start.facts[2] = leader, 0, dyn[Y_TRUMP]
    start.facts[3], start.facts[4], start.facts[5] = dyn[Y_BIDDER], dyn[Y_FIRST], dyn[Y_BROKEN]
    mine = w.side[leader] == 1
    best = np.int64(-1) if mine else np.int64(1 << 30)
    leads = legal_now(w, leader, _start(leader))
    while leads != 0:
        t = lowest_card(leads)
        leads &= leads - 1
        for s in range(players):
            for u in range(N_TYPES):
                work.hands[s, u] = start.deals[0, s, u]
        for u in range(N_TYPES):
            work.played[u] = start.played[u]
        for k in range(w.ctx0.shape[0]):
            work.ctx[k] = w.ctx0[k]
        v = play_out(work, np.int64(t), start, rules, w.points, w.copies)
        dyn[Y_NODES] += dyn[Y_LEFT]
        best = max(best, v) if mine else min(best, v)
    return best


@njit(cache=True, nogil=True)
def features_kernel(w, leader):
    """:func:`_evaluate` of the trick start loaded in ``w`` (:func:`load_position`) with ``leader`` to lead."""
    return _evaluate(w, leader)


@njit(cache=True, inline="always")
def _start(leader):
    """The :data:`TRICK` of a trick start led by ``leader``."""
    zero = np.int64(0)
    return (zero, np.int64(leader), zero, zero, zero, zero, zero, zero)


@leaf
def _deliver(w, ply, v):
    """Take back the card tried at ``ply`` and count the value ``v`` its child returned."""
    f = w.frames[ply]
    dyn = w.dyn
    t, seat = f[G_CARD], f[G_SEAT]
    if f[G_I] == w.held.shape[0] - 1:
        dyn[Y_LEFT] = f[G_LEFT]
        dyn[Y_FIRST] = f[G_FIRST]
        if f[G_LEFT] == 1:
            dyn[Y_REMAINING] += w.rules[R_LAST_TRICK]
    dyn[Y_BROKEN] = f[G_BROKEN]
    _unplay(w, seat, t)
    v += f[G_OURS]
    if w.side[seat] == 1:
        if v > f[G_BEST]:
            f[G_BEST], f[G_CARD_BEST] = v, t
            if v > f[G_ALPHA]:
                f[G_ALPHA] = v
    elif v < f[G_BEST]:
        f[G_BEST], f[G_CARD_BEST] = v, t
        if v < f[G_BETA]:
            f[G_BETA] = v
    if f[G_ALPHA] >= f[G_BETA]:
        f[G_KILLER] = t + 1


@leaf
def search(w, trick, alpha, beta):
    """Fail-soft alpha-beta, iterative (numba's cache cannot hold a recursive function): the bidding
    side's points from the start of the trick in progress ``trick`` (:data:`TRICK`) to the end of the
    hand. A result ``<= alpha`` is an upper bound on the value, ``>= beta`` a lower bound, between
    them exact."""
    done, v = _enter(w, 0, trick, alpha, beta)
    if done:
        return v
    dyn, rules, frames = w.dyn, w.rules, w.frames
    players = w.held.shape[0]
    trump, last = dyn[Y_TRUMP], rules[R_LAST_TRICK]
    ply = 0
    limit = dyn[Y_LIMIT]
    while True:
        if limit > 0 and dyn[Y_NODES] > limit:
            return np.int64(GAVE_UP)  # the frames and hands are left as they are: the next solve reloads
        f = frames[ply]
        k = f[G_K]
        if k < f[G_N] and f[G_ALPHA] < f[G_BETA]:
            f[G_K] = k + 1
            t = w.moves[ply, k]
            seat, i = f[G_SEAT], f[G_I]
            f[G_CARD] = t
            _play(w, seat, t)
            if SUIT_OF[t] == trump:
                dyn[Y_BROKEN] = 1
            if i == 0:
                led, win, win_seat, top = SUIT_OF[t], t, seat, t
            else:
                led, win, win_seat, top = f[G_LED], f[G_WIN], f[G_WSEAT], f[G_TOP]
                if beats(t, win, trump):
                    win, win_seat = t, seat
                if SUIT_OF[t] == led and t < top:
                    top = t
            pts = f[G_TPTS] + w.points[t]
            if i == players - 1:  # the trick is complete: its points to its winner's side, then the next
                left = f[G_LEFT]
                if left == 1:
                    pts += last
                    dyn[Y_REMAINING] -= last
                ours = pts if w.side[win_seat] == 1 else 0
                f[G_OURS] = ours
                dyn[Y_FIRST] = 0
                dyn[Y_LEFT] = left - 1
                done, v = _enter(w, ply + 1, _start(win_seat), f[G_ALPHA] - ours, f[G_BETA] - ours)
            else:
                f[G_OURS] = 0
                after = (i + 1, f[G_LEADER], led, win, win_seat, top, pts, f[G_TMASK] | (np.int64(1) << t))
                done, v = _enter(w, ply + 1, after, f[G_ALPHA], f[G_BETA])
            if done:
                _deliver(w, ply, v)
            else:
                ply += 1
        else:
            v = f[G_BEST]
            if f[G_I] == 0:
                if v <= f[G_A0]:
                    _store(w, f[G_KEY], f[G_CHECK], NO_LOWER, v, _relative(w, f[G_CARD_BEST]), f[G_LEFT])
                elif v >= f[G_B0]:
                    _store(w, f[G_KEY], f[G_CHECK], v, NO_UPPER, _relative(w, f[G_CARD_BEST]), f[G_LEFT])
                else:
                    _store(w, f[G_KEY], f[G_CHECK], v, v, _relative(w, f[G_CARD_BEST]), f[G_LEFT])
            if ply == 0:
                return v
            ply -= 1
            _deliver(w, ply, v)


@njit(cache=True, nogil=True)
def threshold_kernel(w, leader, trick, n, target):
    """1 when the bidding side can take at least ``target`` points from the start of the trick whose
    first ``n`` cards are ``trick[:n]`` (led by ``leader``), from the position loaded in ``w``
    (:func:`load_position`, the cards of the trick already out of the hands), else 0; GAVE_UP past
    the limit of trick starts."""
    v = _root(w, leader, trick, n, target - 1, target)
    if v == GAVE_UP:
        return np.int64(GAVE_UP)
    return np.int64(1) if v >= target else np.int64(0)


@leaf
def _root(w, leader, trick, n, alpha, beta):
    """:func:`search` from a trick start or a trick in progress (``trick[:n]``, played from ``leader``)."""
    trump = w.dyn[Y_TRUMP]
    players = w.held.shape[0]
    if n == 0:
        return search(w, _start(leader), alpha, beta)
    led, win, win_seat, top = SUIT_OF[trick[0]], trick[0], leader, trick[0]
    pts, mask = w.points[trick[0]], np.int64(1) << trick[0]
    for i in range(1, n):
        t = trick[i]
        if beats(t, win, trump):
            win, win_seat = t, (leader + i) % players
        if SUIT_OF[t] == led and t < top:
            top = t
        pts += w.points[t]
        mask |= np.int64(1) << t
    if n < players:
        return search(w, (np.int64(n), leader, led, win, win_seat, top, pts, mask), alpha, beta)
    # a complete trick: its points to its winner's side, then the next trick
    if w.dyn[Y_LEFT] == 0:
        pts += w.rules[R_LAST_TRICK]
    ours = pts if w.side[win_seat] == 1 else 0
    w.dyn[Y_FIRST] = 0
    v = search(w, _start(win_seat), alpha - ours, beta - ours)
    if v == GAVE_UP:  # the sentinel is no value: adding the trick's points to it would make one
        return v
    return ours + v


@njit(cache=True, nogil=True)
def value_kernel(w, leader, trick, n):
    """The bidding side's exact points from the start of the trick ``trick[:n]`` (as
    :func:`threshold_kernel`): one search whose window holds every value the side could take, so that
    the fail-soft result is the value itself. (Null windows bisecting the range, each proving "at
    least T?", searched about 11% more trick starts: the searches near the value each repeat most of
    the proof.)"""
    hi = w.dyn[Y_REMAINING]  # the side takes at most the points in play
    for i in range(n):
        hi += w.points[trick[i]]
    return _root(w, leader, trick, n, np.int64(-1), hi + 1)
