"""The reference meld scorer: the rules of :mod:`simcore.kernels.meld`, written plainly and slowly.

It lays melds down one at a time from a copy of the hand, the way a player counts them at the table,
instead of taking minima: for each class it removes the cards of one meld while the hand still holds
one, which is what "a card may serve melds of different classes, never two of the same class" means.
Tests compare it with the numba kernel on many random hands.
"""

from __future__ import annotations

from simcore.cards import RANKS, SUITS
from simcore.variants import Variant
from simcore.variants.layout import (
    ACES,
    F_DIX,
    F_EXTRA_KING,
    F_EXTRA_MARRIAGE_PER_RUN,
    F_EXTRA_QUEEN,
    F_RUN_OR_ROYAL,
    F_RUN_SCORES_ROYAL,
    JACKS,
    KINGS,
    MARRIAGE,
    PINOCHLE,
    QUEENS,
    ROUNDHOUSE,
    ROYAL,
    RUN,
    RUN_EXTRA_MARRIAGE,
)

RUN_CARDS = ("A", "10", "K", "Q", "J")


def _card(rank: str, suit: str) -> int:
    """Index of the card (rank, suit) in a copy-count vector."""
    return SUITS.index(suit) * 6 + RANKS.index(rank)


def _lay_down(hand: list[int], cards: list[int]) -> int:
    """Remove one copy of each of ``cards`` from ``hand`` for as long as it can; return how often."""
    times = 0
    while all(hand[c] > 0 for c in cards):
        for c in cards:
            hand[c] -= 1
        times += 1
    return times


def reference_meld(counts, trump: int, variant: Variant) -> dict[str, tuple[int, int]]:
    """``{meld name: (count, points)}`` for the hand ``counts`` with trump suit index ``trump``.

    Names and counts follow :data:`simcore.kernels.meld.NAMED_MELDS`; points are on the variant's scale.
    """
    table, flags = variant.meld_table, variant.meld_flags
    t = SUITS[trump]
    cards = [int(c) for c in counts]
    out: dict[str, tuple[int, int]] = {}

    # Class I in trump: runs first, then K-Q pairs left beside them, then lone kings or queens.
    trump_hand = list(cards)
    runs = _lay_down(trump_hand, [_card(r, t) for r in RUN_CARDS])
    pairs = _lay_down(trump_hand, [_card("K", t), _card("Q", t)])
    lone_k, lone_q = trump_hand[_card("K", t)], trump_hand[_card("Q", t)]
    royal = 0
    if runs and flags[F_RUN_OR_ROYAL]:
        # runs or trump marriages, never both: the runs alone against every K-Q laid as marriages
        royal_alone = _lay_down(list(cards), [_card("K", t), _card("Q", t)])
        if int(table[ROYAL, royal_alone]) > int(table[RUN, runs]):
            runs, royal = 0, royal_alone
        pairs, lone_k, lone_q = 0, 0, 0
    elif not runs:
        royal, pairs, lone_k, lone_q = pairs, 0, 0, 0
    elif flags[F_RUN_SCORES_ROYAL]:
        royal = runs  # the K-Q inside each run is a royal marriage too, scored beside the run
    out["run"] = (runs, int(table[RUN, runs]))
    per_run = runs if flags[F_EXTRA_MARRIAGE_PER_RUN] else 1  # Toby Thomas: 150 + 60 beside a double run
    out["run_extra_marriage"] = (pairs, int(table[RUN_EXTRA_MARRIAGE, pairs]) * per_run if runs else 0)
    out["run_extra_king"] = (lone_k, lone_k * int(flags[F_EXTRA_KING]))
    out["run_extra_queen"] = (lone_q, lone_q * int(flags[F_EXTRA_QUEEN]))
    out["royal_marriage"] = (royal, int(table[ROYAL, royal]))

    # Class I in the plain suits: marriages, each suit scored by how many it holds.
    plain_hand = list(cards)
    n_marriages, marriage_pts = 0, 0
    for suit in SUITS:
        if suit != t:
            m = _lay_down(plain_hand, [_card("K", suit), _card("Q", suit)])
            n_marriages += m
            marriage_pts += int(table[MARRIAGE, m])
    out["marriage"] = (n_marriages, marriage_pts)

    nines = cards[_card("9", t)]
    out["dix"] = (nines, nines * int(flags[F_DIX]))

    # Class II: arounds, each rank laid down once per full set of four suits.
    for name, rank, row in (
        ("aces_around", "A", ACES),
        ("kings_around", "K", KINGS),
        ("queens_around", "Q", QUEENS),
        ("jacks_around", "J", JACKS),
    ):
        n = _lay_down(list(cards), [_card(rank, s) for s in SUITS])
        out[name] = (n, int(table[row, n]))

    # Class III: pinochles.
    n = _lay_down(list(cards), [_card("Q", "S"), _card("J", "D")])
    out["pinochle"] = (n, int(table[PINOCHLE, n]))

    # Roundhouse: a king and a queen of every suit, laid down as a set.
    n = _lay_down(list(cards), [_card(r, s) for s in SUITS for r in ("K", "Q")])
    out["roundhouse"] = (n, int(table[ROUNDHOUSE, n]))
    return out


def reference_total(counts, trump: int, variant: Variant) -> int:
    """Total meld points of the hand under ``trump``."""
    return sum(points for _, points in reference_meld(counts, trump, variant).values())


def reference_checks(counts, trump: int, variant: Variant) -> int:
    """Checks (check pinochle) the hand earns for its meld under ``trump``: each meld of
    ``schema.CHECK_MELDS`` by how many times it is laid down; the kings and queens of a roundhouse (round
    trip) earn nothing as arounds of their own."""
    melds = {name: count for name, (count, _) in reference_meld(counts, trump, variant).items()}
    round_trips = melds["roundhouse"]
    melds["kings_around"] -= round_trips
    melds["queens_around"] -= round_trips
    rows = {
        "run": RUN,
        "aces_around": ACES,
        "kings_around": KINGS,
        "queens_around": QUEENS,
        "jacks_around": JACKS,
        "pinochle": PINOCHLE,
        "roundhouse": ROUNDHOUSE,
    }
    return sum(int(variant.check_melds[row, melds[name]]) for name, row in rows.items())


def shown_cards(counts, trump: int, variant: Variant) -> list[int]:
    """The copies of each card type (a 24-long copy-count list) the hand lays on the table to show its
    meld under ``trump``: only melds that score. A card may serve melds of different classes, so a type
    shows as many copies as the one class that needs most of it; within a class the melds' cards add up.
    Class I is trump's run, royal marriages, extra marriages and lone kings or queens, and every plain
    marriage; the arounds, pinochles, roundhouses and the dix are each a class of their own."""
    melds = reference_meld(counts, trump, variant)
    scores = {name: points > 0 for name, (_, points) in melds.items()}
    shown = [0] * len(counts)

    def need(cards: list[int], times: int, into: list[int]) -> None:
        for c in cards:
            into[c] += times

    t = SUITS[trump]
    class_one = [0] * len(counts)
    runs, royal = melds["run"][0] * scores["run"], melds["royal_marriage"][0] * scores["royal_marriage"]
    need([_card(r, t) for r in ("A", "10", "J")], runs, class_one)
    pairs = max(runs, royal) + melds["run_extra_marriage"][0] * scores["run_extra_marriage"]
    need([_card("K", t)], pairs + melds["run_extra_king"][0] * scores["run_extra_king"], class_one)
    need([_card("Q", t)], pairs + melds["run_extra_queen"][0] * scores["run_extra_queen"], class_one)
    plain = [int(c) for c in counts]
    for suit in SUITS:
        if suit != t:
            m = _lay_down(plain, [_card("K", suit), _card("Q", suit)])
            if int(variant.meld_table[MARRIAGE, m]) > 0:
                need([_card("K", suit), _card("Q", suit)], m, class_one)
    classes = [class_one]
    for name, cards in (
        ("dix", [_card("9", t)]),
        ("aces_around", [_card("A", s) for s in SUITS]),
        ("kings_around", [_card("K", s) for s in SUITS]),
        ("queens_around", [_card("Q", s) for s in SUITS]),
        ("jacks_around", [_card("J", s) for s in SUITS]),
        ("pinochle", [_card("Q", "S"), _card("J", "D")]),
        ("roundhouse", [_card(r, s) for s in SUITS for r in ("K", "Q")]),
    ):
        one = [0] * len(counts)
        need(cards, melds[name][0] * scores[name], one)
        classes.append(one)
    for one in classes:
        shown = [max(a, b) for a, b in zip(shown, one)]
    return shown
