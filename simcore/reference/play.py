"""The reference play rules: legal cards, trick winner and a random playout, in plain Python.

Written from the rule documents' wording ("follow suit; beat the winning card if able; if void, trump;
beat an earlier trump if able") with lists of cards instead of bitmasks, so tests can hold the kernel to
it. Cards are card types (``suit * 6 + rank``, rank 0 = ace is highest).
"""

from __future__ import annotations

from simcore.reference.deal import Xoshiro256
from simcore.variants import Variant


def suit(card: int) -> int:
    return card // 6


def rank(card: int) -> int:
    """0 for an ace up to 5 for a nine: lower is stronger."""
    return card % 6


def winning_position(trick: list[int], trump: int) -> int:
    """Which card of the trick (0 = the lead) wins: the highest trump if any was played, else the
    highest card of the led suit; of equal cards, the first played."""
    best = 0
    for i, card in enumerate(trick):
        top = trick[best]
        if suit(card) == suit(top) and rank(card) < rank(top):
            best = i
        elif suit(card) == trump and suit(top) != trump:
            best = i
    return best


def reference_legal(
    hand: list[int], trick: list[int], trump: int, variant: Variant, partner_winning: bool = False
) -> list[int]:
    """Sorted card types of ``hand`` (a copy-count list) that may be played to ``trick``;
    ``partner_winning``: the card winning so far is the player's partner's, who need not be beaten
    where the rules exempt partners (``Variant.exempt_partner``)."""
    held = [t for t in range(24) if hand[t] > 0]
    if not trick:
        return held
    led = suit(trick[0])
    winner = trick[winning_position(trick, trump)]
    head = variant.get("play.follow_must_head")
    exempt = partner_winning and variant.exempt_partner
    if exempt:
        head = "never"

    same_suit = [c for c in held if suit(c) == led]
    if same_suit:
        # "a card with the same suit as the first played card or the trump suit" (play.trump_instead)
        instead = [c for c in held if suit(c) == trump] if variant.get("play.trump_instead") and led != trump else []
        must_beat = head == "always" or (head == "trump_led" and led == trump)
        if not must_beat:
            return sorted(same_suit + instead)
        if suit(winner) == led:
            target = winner
        elif variant.get("play.head_when_trumped"):
            target = min((c for c in trick if suit(c) == led), key=rank)
        else:
            return sorted(same_suit + instead)  # trumped: no card of the led suit can win
        better = [c for c in same_suit if rank(c) < rank(target)]
        return sorted((better or same_suit) + instead)

    trumps = [c for c in held if suit(c) == trump]
    if trumps and variant.get("play.void_must_trump"):
        if variant.get("play.void_must_overtrump") and suit(winner) == trump and not exempt:
            better = [c for c in trumps if rank(c) < rank(winner)]
            return better or trumps
        return trumps
    return held


def reference_playout(
    hands: list[list[int]], leader: int, trump: int, variant: Variant, state
) -> tuple[list[int], list[int]]:
    """Play out ``hands`` with uniformly random legal cards drawn from the xoshiro stream ``state``,
    exactly as :func:`simcore.kernels.play.random_playout`: returns (points per seat, cards in play order)."""
    rng = Xoshiro256(state)
    hands = [list(h) for h in hands]
    players = len(hands)
    points = [int(p) for p in variant.trick_points]
    won = [0] * players
    plays: list[int] = []
    tricks = sum(hands[0])
    for done in range(tricks):
        trick: list[int] = []
        for i in range(players):
            seat = (leader + i) % players
            legal = reference_legal(hands[seat], trick, trump, variant)
            card = legal[rng.below(len(legal), rng.next() >> 32)]
            hands[seat][card] -= 1
            trick.append(card)
            plays.append(card)
        winner = (leader + winning_position(trick, trump)) % players
        won[winner] += sum(points[c] for c in trick)
        if done == tricks - 1:
            won[winner] += variant.last_trick
        leader = winner
    return won, plays
