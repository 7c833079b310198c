"""The reference double-dummy value: plain exhaustive minimax over every legal card, in Python.

No pruning, no move merging, no bounds: every legal card of every seat is tried (the legal cards from
:func:`simcore.reference.play.reference_legal`, the trick's winner from ``winning_position``), the
bidding side taking the maximum and the other side the minimum of the points the bidding side takes.
Positions met again at a trick start are looked up rather than searched again (that only saves time:
each is still searched in full once). Slow by design; the tests hold the kernel
(:mod:`simcore.solver.kernel`) to it on small endings.
"""

from __future__ import annotations

from simcore.reference.play import reference_legal, suit, winning_position
from simcore.variants import Variant


def reference_moves(
    variant: Variant,
    hands: list[list[int]],
    trick: list[int],
    trump: int,
    leader: int,
    side: list[int],
    bidder: int = -1,
    first: bool = False,
    broken: bool = False,
) -> list[int]:
    """The card types the seat to play next may play to ``trick`` (its cards so far, from ``leader``):
    :func:`reference_legal`, with a partner's winning card exempt where the rules exempt partners,
    and on a lead the bidder's trump opening on the hand's ``first`` trick (it outranks the next rule)
    and no trump led before one has been played (``broken``) by a hand holding another suit."""
    players = len(hands)
    seat = (leader + len(trick)) % players
    hand = hands[seat]
    ahead = (leader + winning_position(trick, trump)) % players if trick else -1
    partner_winning = ahead >= 0 and side[ahead] == side[seat]
    legal = reference_legal(hand, trick, trump, variant, partner_winning)
    if trick:
        return legal
    trumps = [c for c in legal if suit(c) == trump]
    if first and seat == bidder and variant.get("play.bidder_leads_trump") and trumps:
        return trumps  # "the bidder must open with a trump"
    if variant.get("play.trump_led_once_broken") and not broken and len(trumps) < len(legal):
        return [c for c in legal if suit(c) != trump]  # "trump may not be led before it is broken"
    return legal


def reference_value(
    variant: Variant,
    hands: list[list[int]],
    trump: int,
    leader: int,
    side: list[int],
    bidder: int = -1,
    first: bool = False,
    broken: bool = False,
) -> int:
    """The points the bidding side (``side[seat] == 1``) takes from a trick start with ``hands`` (copy
    counts per seat) and ``leader`` to lead, both sides playing perfectly. ``first``: this is the
    hand's first trick (the bidder opens with a trump where ``play.bidder_leads_trump``); ``broken``:
    a trump has been played (``play.trump_led_once_broken``)."""
    points = [int(p) for p in variant.trick_points]
    players = len(hands)
    seen: dict[tuple, int] = {}

    def trick_start(hs: tuple, lead: int, first_trick: bool, is_broken: bool) -> int:
        if sum(hs[0]) == 0:
            return 0
        key = (hs, lead, first_trick, is_broken)
        if key not in seen:
            seen[key] = play([list(h) for h in hs], lead, [], first_trick, is_broken)
        return seen[key]

    def play(hs: list[list[int]], lead: int, trick: list[int], first_trick: bool, is_broken: bool) -> int:
        """The bidding side's points from this trick on, ``trick`` its cards so far."""
        seat = (lead + len(trick)) % players
        legal = reference_moves(variant, hs, trick, trump, lead, side, bidder, first_trick, is_broken)
        values = []
        for card in legal:
            hs[seat][card] -= 1
            now_broken = is_broken or suit(card) == trump
            done = trick + [card]
            if len(done) == players:
                winner = (lead + winning_position(done, trump)) % players
                last = sum(hs[0]) == 0
                taken = sum(points[c] for c in done) + (variant.last_trick if last else 0)
                ours = taken if side[winner] == 1 else 0
                values.append(ours + trick_start(tuple(tuple(h) for h in hs), winner, False, now_broken))
            else:
                values.append(play(hs, lead, done, first_trick, now_broken))
            hs[seat][card] += 1
        return max(values) if side[seat] == 1 else min(values)

    return trick_start(tuple(tuple(int(c) for c in h) for h in hands), leader, first, broken)
