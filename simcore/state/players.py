"""The kernel's built-in players as Python policies: ``policy(state) -> Action``.

:func:`kernel_policy` bridges one :class:`~simcore.state.HandState` decision to the numba decision
functions of :mod:`simcore.kernels.policies` (``hand_value`` for the bid limit, ``choose_trump``,
``call_card``, ``give_cards``, ``play_card``, ...), with arrays built from the state, so a Python
program can play against, or beside, exactly the players the simulations use, without re-typing their
rules. A multi-card decision (a pass, a burial, a widow shared out, discards) is decided once, as the
kernel decides it, and then handed out card by card.

Where the kernel's player draws random numbers (the ``random`` player, chance) it draws them from the
state's own stream, in the kernel's order: a hand played by these policies at every seat is the
kernel's hand for that seed, decision for decision (``tests/test_state.py`` checks it for every shipped
system and both players). In stock play (two-hand) the heuristic's free-play card keeps the cards of
its open melds back (``meld_keepers``), computed here from the reference's copy bookkeeping.

The heuristic reads only its own seat's cards, except the dix exchange of a dealer's partner
(``swaps_dix`` weighs the two partners' meld together, as the kernel does).
"""

from __future__ import annotations

import numpy as np

from simcore.cards import N_TYPES, card_types
from simcore.kernels.card_features import play_context
from simcore.kernels.compiled import hand_rules
from simcore.kernels.learned import play_card
from simcore.kernels.play import held_mask
from simcore.kernels.policies import (
    POLICY_NAMES,
    RANDOM,
    any_marriage,
    call_card,
    choose_trump,
    draw_discards,
    give_cards,
    goes_alone,
    hand_value,
    swaps_dix,
    widow_order,
)
from simcore.kernels.rng import bounded
from simcore.reference.hand import open_melds
from simcore.reference.play import winning_position
from simcore.variants.layout import TEAMS_ACROSS, TEAMS_ALONE


def kernel_policy(name: str = "heuristic", margin: float | None = None):
    """The kernel's ``name`` player ("heuristic", "basic" or "random") as ``policy(state) -> Action``; ``margin``:
    the player's bidding margin (None: the rules' ``policy.margin``)."""
    if name not in POLICY_NAMES:
        raise ValueError(f"{name!r} is not a built-in policy; choose from {', '.join(POLICY_NAMES)}")
    return _KernelPolicy(POLICY_NAMES.index(name), margin)


class CardPlan:
    """A multi-card decision (a pass, a burial, discards) taken whole on its first card, its other cards
    handed out one a request after it: :meth:`start` plays the first and keeps the rest, :meth:`next`
    gives the next while the same seat is asked the same kind at the next move, else None."""

    def __init__(self):
        self._due: tuple | None = None  # (seat, kind, moves so far) of the request the next card answers
        self._cards: list[int] = []

    def next(self, state) -> int | None:
        r = state.request()
        if not self._cards or self._due != (r.seat, r.kind, len(state.history())):
            return None
        self._due = (r.seat, r.kind, len(state.history()) + 1)
        return self._cards.pop(0)

    def start(self, state, cards: list[int]) -> int:
        r = state.request()
        self._due, self._cards = (r.seat, r.kind, len(state.history()) + 1), list(cards[1:])
        return cards[0]


class _KernelPolicy:
    def __init__(self, code: int, margin: float | None):
        self.code, self.margin = code, margin
        self._plan = CardPlan()

    def __repr__(self) -> str:
        return f"kernel_policy({POLICY_NAMES[self.code]!r})"

    def __call__(self, state):
        from simcore.state import Action

        r = state.request()
        if r is None:
            raise ValueError("the hand is over: no decision to take")
        return Action(r.kind, int(self._decide(state, r)))

    # the decision functions of the kernel, one per kind; each gets what play_hand gives it
    def _decide(self, state, r):
        v, t, rules = state.variant, state._table, hand_rules(state.variant)
        seat, kind, policy = r.seat, r.kind, self.code
        hand = np.array(t.hands[seat], dtype=np.uint8)
        table, flags = v.tables.meld_table, v.tables.meld_flags
        totals = np.zeros(4, dtype=np.int64)
        rng = state._rng
        margin = v.get("policy.margin") if self.margin is None else self.margin
        if kind in ("share", "give", "bury", "discard"):
            return self._card_by_card(state, r, hand, rng)
        if kind == "bid":
            return self._bid(v, t, r, hand, table, flags, totals, rng, margin)
        if kind == "forfeit":
            if policy == RANDOM:
                return int(bounded(rng, 2) == 1)
            value, _ = hand_value(hand, table, flags, totals, rules.trick_total, 0, rules.pass_cards, rules.hand_size)
            return int(np.int64(value + margin * rules.trick_total) < t.bid)
        if kind == "trump":
            return int(choose_trump(hand, policy, rules.trump_needs_marriage != 0, table, flags, totals, rng))
        if kind == "alone":
            return int(goes_alone(hand, t.trump, t.bid, policy, table, flags, totals, rng))
        if kind == "call":
            return int(call_card(hand, t.trump, policy, np.asarray(v.deck_copies, dtype=np.uint8), rng))
        if kind == "swap":
            hands = np.array(t.hands, dtype=np.uint8)
            return int(swaps_dix(hands, seat, t.turned, t.trump, policy, rules, v.tables, rng))
        if kind == "throw_in":  # the heuristic throws in nine tenths of the trick points short; random never
            meld = sum(t.meld[s] for s in range(v.players) if t.side[s] == 1)
            meld = meld if meld >= v.get("scoring.min_meld_to_count") else 0
            return int(policy != RANDOM and t.bid - meld > rules.trick_total * 9 // 10)
        if kind == "concede":
            return int(policy != RANDOM)
        if kind in ("dix", "exchange"):
            return 1 if policy != RANDOM else int(bounded(rng, 2) == 1)
        if kind == "meld":
            return self._meld(v, t, r, rng)
        if kind == "play":
            return self._play(v, t, r, hand, rng)
        raise ValueError(f"no kernel decision for {kind!r}")

    def _bid(self, v, t, r, hand, table, flags, totals, rng, margin):
        """``_auction``'s limit and ``_bidding``'s choice for this seat."""
        rules = hand_rules(v)
        bids = [b for b in r.legal if b]
        forced = 0 not in r.legal
        if self.code == RANDOM:  # pass, or the next bid or up to jump_steps steps above it, evenly
            jumps = rules.jump_steps
            choice = int(bounded(rng, 2 + jumps)) if not forced else 1 + int(bounded(rng, 1 + jumps))
            return bids[min(choice - 1, len(bids) - 1)] if bids and choice >= 1 else 0
        partner_meld = rules.partner_meld if rules.teams != TEAMS_ALONE else 0
        value, _ = hand_value(
            hand, table, flags, totals, rules.trick_total, partner_meld, rules.pass_cards, rules.hand_size
        )
        limit = int(np.int64(value + margin * rules.trick_total))
        if rules.trump_needs_marriage != 0 and rules.trump_after_widow == 0 and not any_marriage(hand):
            limit = 0  # he could not name trump: the hand would be set unplayed
        if not bids:
            return 0
        want = bids[0]
        bid_it = forced or want <= limit
        high_seat = next((s for s, b in reversed(t.bids) if b), -1)
        if bid_it and high_seat >= 0 and rules.teams == TEAMS_ACROSS and (r.seat - high_seat) % 2 == 0:
            bid_it = limit - want >= rules.trick_total // 5  # do not outbid partner lightly
        return want if bid_it else 0

    def _card_by_card(self, state, r, hand, rng):
        """A multi-card decision, taken whole on its first card as the kernel takes it, then card by card."""
        card = self._plan.next(state)
        return card if card is not None else self._plan.start(state, self._whole(state, r, hand, rng))

    def _whole(self, state, r, hand, rng) -> list[int]:
        v, t, policy = state.variant, state._table, self.code
        out = np.zeros(N_TYPES, dtype=np.uint8)
        if r.kind == "share":
            return [
                int(c) for c in widow_order(hand, np.array(t.widow, dtype=np.uint8), t.trump, policy, v.tables, rng)
            ]
        if r.kind == "give" and len(r.legal) == 1 and v.get("exchange.pass_called_card") and r.seat == t.partner:
            return [r.legal[0]]  # the card asked for
        if r.kind == "discard":
            most = min(v.hand_size, (sum(t.widow) + sum(1 for m in t.moves if m[1] == "draw")) // v.players)
            draw_discards(hand, most, t.trump, policy, v.tables, rng, out)
            cards = card_types(out)
            return cards + [-1] if len(cards) < most else cards
        n = v.get("exchange.pass_cards") if r.kind == "give" else sum(t.widow)
        give_cards(hand, n, t.trump, policy, r.kind == "give" and r.seat == t.partner, v.tables, rng, out)
        return card_types(out)

    def _meld(self, v, t, r, rng):
        from simcore.kernels.stock import choose_meld

        mask = sum(1 << m for m in r.legal if m >= 0)
        return int(choose_meld(np.int64(mask), t.trump, v.tables.meld_table, self.code, rng))

    def _play(self, v, t, r, hand, rng):
        legal = sum(1 << c for c in r.legal)
        if self.code == RANDOM:
            from simcore.kernels.play import pick_card

            return int(pick_card(np.int64(legal), rng))
        if v.get("play.stock_play") and len(t.tricks) < _stock_tricks(v, t):  # keep open melds' cards back
            keep = _keepers(v, t, r.seat)
            if legal & ~keep:
                legal &= ~keep
        players = v.players
        cards = [c for _, c in t.trick]
        leader = t.trick[0][0] if t.trick else r.seat
        win_at = winning_position(cards, t.trump) if cards else 0
        win, win_seat = (cards[win_at], t.trick[win_at][0]) if cards else (0, leader)
        played = [0] * N_TYPES
        for _, done, _, _ in t.tricks:
            for c in done:
                played[c] += 1
        copies = v.deck_copies
        unseen = sum(1 << c for c in range(N_TYPES) if played[c] + hand[c] < copies[c])
        hands = np.zeros((players, N_TYPES), dtype=np.uint8)
        hands[r.seat] = hand  # its own cards only
        free = _stock_tricks(v, t) if v.get("play.stock_play") else 0  # no duty, so no void shown
        done = [(lead, cs) for lead, cs, _, _ in t.tricks[free:]]
        ctx = play_context(v, t.side, t.trump, done, (leader, cards) if len(t.tricks) >= free else (leader, []))
        return int(
            play_card(
                self.code,
                hands,
                (r.seat, np.int64(legal), len(cards), win, win_seat, players, t.trump, np.int64(unseen)),
                ctx,
                int(sum(hand)),
                held_mask(hands[r.seat]),
            )
        )


def _stock_tricks(v, t) -> int:
    """Tricks played while the stock lasts: the face-down stock and the turned card, a card each."""
    return (v.deck_size - v.players * v.hand_size) // v.players


def _keepers(v, t, seat) -> int:
    """``meld_keepers``: the card types of the melds open to ``seat`` now, and a dix not yet shown."""
    from simcore.kernels.stock import meld_cards

    mine = t.copies[seat]
    dix = t.trump * 6 + 5
    keep = (1 << dix) if any("dix" not in c for c in mine[dix]) else 0
    for m in open_melds(v, mine, t.trump):
        keep |= int(meld_cards(m, t.trump))
    return keep


def first_legal(state):
    """The first legal action: the smallest example of a policy (``pinochle duel --policy
    simcore.state.players:first_legal``)."""
    return state.legal_actions()[0]
