"""A bidder from the hand's sampled value: at its first call of a hand it asks what its hand makes over
many deals of the unseen cards (:func:`simcore.answers.advise.bid_limit`, the ``pinochle advise``
method), and bids while the next bid is one it makes in at least ``share`` of them.

The value is the advise method's: the seat's cards as they are, the other cards dealt at random
(nothing read from the calls so far), each deal played out by the hand kernel with the seat the bidder
at the lowest contract, every seat playing ``rollout`` (a kernel policy name). Its limit is the highest
bid made in at least ``share`` of ``deals`` deals (by default the system's tuned share,
:data:`TUNED_SHARES`). Like the heuristic it opens when the rules force it, and it overcalls its
partner only with a fifth of the trick points to spare. Every other decision goes to ``player`` (the
heuristic by default; the sampling player makes the strong player of :func:`strong_player`). The same
hand at the same seat gets the same limit: the deals come from ``seed``.

:class:`AdviseTrump` names the trump the same way, once the auction is over: each trump the bidder may
name is played out on the same deals at the contract bid (:func:`simcore.answers.advise.trump_values`),
and the one worth most to his side is named. The strong player bids with the one and names trump with
the other.

Points are on the variant's scale; seats are the hand's (0 = the dealer's left).
"""

from __future__ import annotations

from collections.abc import Callable

from simcore.cards import card_types, parse_card, parse_hand
from simcore.kernels.policies import POLICY_NAMES
from simcore.state.players import CardPlan, kernel_policy

#: The share of deals each system's bidder asks its bids to make, tuned by duels against the heuristic
#: on identical deals, by games won (docs/policies.md, "A bidder from the hand's sampled value"); a
#: system not listed takes :data:`DEFAULT_SHARE`, untuned.
TUNED_SHARES = {"partnership-auction": 0.8, "double-deck": 0.8, "four-hand-150": 0.3}
DEFAULT_SHARE = 0.8


def tuned_share(variant) -> float:
    """The share of deals the bidder asks its bids to make in ``variant`` (:data:`TUNED_SHARES`)."""
    return TUNED_SHARES.get(variant.id, DEFAULT_SHARE)


class AdviseBidder:
    """``policy(state) -> Action``: bids from the hand's sampled value (see the module), every other
    decision by ``player``."""

    def __init__(
        self,
        player: Callable | None = None,
        share: float | None = None,
        deals: int = 500,
        rollout: str = "heuristic",
        seed: int = 1,
    ):
        if (share is not None and not 0 < share < 1) or deals < 1 or rollout not in POLICY_NAMES:
            raise ValueError(f"share in (0, 1), deals at least 1, rollout one of {', '.join(POLICY_NAMES)}")
        self.player = player if player is not None else kernel_policy("heuristic")
        self.share, self.deals, self.rollout, self.seed = share, deals, rollout, seed
        self._limits: dict[tuple, int] = {}

    def __repr__(self) -> str:
        return (
            f"AdviseBidder({self.player!r}, share={self.share}, deals={self.deals}, rollout={self.rollout!r}, "
            f"seed={self.seed})"
        )

    def __call__(self, state):
        from simcore.state import Action

        r = state.request()
        if r.kind != "bid":
            return self.player(state)
        bids = [b for b in r.legal if b]
        if not bids:
            return Action("bid", 0)
        forced = 0 not in r.legal
        want = bids[0]
        share = self.share if self.share is not None else tuned_share(state.variant)
        seen = state.observation(r.seat)
        limit = self.limit(state.variant, seen["hand"], r.seat, share)
        bid_it = forced or want <= limit
        high_seat = next((s for s, b in reversed(seen["bids"]) if b), -1)
        partners = state.variant.get("teams.kind") == "partners_across"
        if bid_it and not forced and high_seat >= 0 and partners and (r.seat - high_seat) % 2 == 0:
            bid_it = limit - want >= state.variant.trick_total // 5  # do not outbid partner lightly
        return Action("bid", want if bid_it else 0)

    def limit(self, variant, hand: list[str], seat: int, share: float) -> int:
        """The highest bid the hand (card names) makes at ``seat`` in at least ``share`` of the deals; 0
        when it makes none."""
        from simcore.answers.advise import bid_limit

        key = (variant.id, variant.content_hash, tuple(sorted(hand)), seat, share)
        if key not in self._limits:
            code = POLICY_NAMES.index(self.rollout)
            given = parse_hand(" ".join(hand))
            self._limits[key] = bid_limit(variant, given, seat, share, self.deals, self.seed, code)
        return self._limits[key]


class _Sampled:
    """What the deciders from sampled deals share: the ``player`` they leave other decisions to (the
    heuristic by default), the ``deals`` a decision is weighed on, the ``rollout`` (a kernel policy
    name) that plays every seat of them, and the ``seed`` they are dealt from."""

    def __init__(self, player: Callable | None, deals: int, rollout: str, seed: int):
        if deals < 1 or rollout not in POLICY_NAMES:
            raise ValueError(f"deals at least 1, rollout one of {', '.join(POLICY_NAMES)}")
        self.player = player if player is not None else kernel_policy("heuristic")
        self.deals, self.rollout, self.seed = deals, rollout, seed


class AdviseTrump(_Sampled):
    """``policy(state) -> Action``: names the trump from the hand's sampled value, every other decision by
    ``player``. Each trump it may name is weighed on the same ``deals`` deals of the unseen cards
    (:func:`simcore.answers.advise.trump_values`: the bidder's cards as they are, and the widow where he
    names trump after taking it, the rest dealt at random, nothing read from the calls; each deal played
    out from that trump on by the hand kernel, every seat playing ``rollout``, at the contract the
    auction set), by what the hand adds to the bidder's side's score line less the other side's (with
    a called partner, his own line less the mean of the other seats', the partner's included: whoever
    holds the called card in each deal, each scoring for himself); it names the trump worth most, the
    ``player``'s where that is worth as much. Where trump is named after the widow is taken it names
    ``player``'s trump unless ``after_widow`` (in auction that gained nothing: docs/policies.md). The
    same hand gets the same trump: the deals come from ``seed``."""

    def __init__(
        self,
        player: Callable | None = None,
        deals: int = 1000,
        rollout: str = "heuristic",
        seed: int = 1,
        read_auction: bool = False,
        after_widow: bool = False,
    ):
        super().__init__(player, deals, rollout, seed)
        self.read_auction, self.after_widow = read_auction, after_widow

    def __repr__(self) -> str:
        auction = ", read_auction=True" if self.read_auction else ""
        auction += ", after_widow=True" if self.after_widow else ""
        return f"AdviseTrump({self.player!r}, deals={self.deals}, rollout={self.rollout!r}, seed={self.seed}{auction})"

    def __call__(self, state):
        from simcore.state import Action

        r = state.request()
        chosen = self.player(state)
        trumps = [t for t in r.legal if t >= 0] if r.kind == "trump" else []
        if len(trumps) < 2 or not weighs_trump(state.variant, self.after_widow):
            return chosen
        seen = state.observation(r.seat)
        condition = auction_read(state.variant, seen) if self.read_auction else None
        values = self.values(state.variant, seen["hand"], r.seat, seen["bid"], trumps, condition, seen["widow"])
        best = max(values.values())
        if values.get(chosen.value, best - 1) >= best - 1e-9:
            return chosen
        return Action("trump", max(values, key=lambda t: (values[t], -t)))

    def values(
        self, variant, hand: list[str], seat: int, bid: int, trumps: list[int], condition=None, widow=None
    ) -> dict[int, float]:
        """Each trump's worth to the bidder at ``seat`` holding ``hand`` (card names) at ``bid`` (see the
        class), on deals that meet ``condition`` (None: any); ``widow``: the widow's cards (names) where
        he has taken it, held in ``hand``. Points on the variant's scale."""
        from simcore.answers.advise import trump_values

        code = POLICY_NAMES.index(self.rollout)
        given = parse_hand(" ".join(hand))
        taken = parse_hand(" ".join(widow)) if widow else None
        if taken is not None:
            given = given - taken
        return trump_values(variant, given, seat, bid, trumps, self.deals, self.seed, code, condition, taken)


class AdviseExchange(_Sampled):
    """``policy(state) -> Action``: the cards that change hands before meld chosen by their worth on
    sampled deals, every other decision by ``player``: the bidder's partner's pass and the bidder's
    return (partners across, passing one after the other: :func:`weighs_pass`), and the bidder's burial
    after taking the widow (a bidder alone or with a called partner: :func:`weighs_burial`).

    At the first card of such a decision it weighs the heuristic's cards and every choice one card away
    from them: each on a tenth of ``deals`` deals of the unseen cards, then the :data:`FINALISTS` best
    and the heuristic's on all of them (:func:`simcore.answers.advise.pass_values`, ``return_values``,
    ``bury_values``: the seat's cards as they are, and the cards it has seen where they lie: the
    partner holds what he passed, the widow what the bidder took; the rest dealt at random, nothing read
    from the calls; each deal played out from there by the hand kernel, every seat playing ``rollout``,
    at the contract and trump the hand has). A choice is worth what the hand adds to the side's score
    line less the other side's. It gives the best card by card; where nothing beats the heuristic's
    cards it leaves the decision to ``player``. The same cards get the same choice: the deals come from
    ``seed``. ``decisions``: those it weighs (of pass, return and bury), the others left to ``player``."""

    #: The decisions it can weigh.
    DECISIONS = ("pass", "return", "bury")

    def __init__(
        self,
        player: Callable | None = None,
        deals: int = 1000,
        rollout: str = "heuristic",
        seed: int = 1,
        decisions: tuple[str, ...] = DECISIONS,
    ):
        super().__init__(player, deals, rollout, seed)
        if not set(decisions) <= set(self.DECISIONS):
            raise ValueError(f"decisions of {', '.join(self.DECISIONS)}, got {', '.join(decisions)}")
        self.decisions = tuple(decisions)
        self._plan = CardPlan()

    def __repr__(self) -> str:
        weighed = "" if self.decisions == self.DECISIONS else f", decisions={self.decisions!r}"
        return (
            f"AdviseExchange({self.player!r}, deals={self.deals}, rollout={self.rollout!r}, seed={self.seed}{weighed})"
        )

    def __call__(self, state):
        from simcore.state import Action

        r = state.request()
        card = self._plan.next(state) if r.kind in ("give", "bury") else None
        if card is not None:
            return Action(r.kind, card)
        v = state.variant
        if not (r.kind == "give" and weighs_pass(v) or r.kind == "bury" and weighs_burial(v)):
            return self.player(state)
        seen = state.observation(r.seat)
        if any(who == r.seat and kind == r.kind for who, kind, _, _ in seen["moves"]):
            return self.player(state)  # not his first card: the player's choice, card by card
        what = "bury" if r.kind == "bury" else "return" if r.seat == seen["bidder"] else "pass"
        if what not in self.decisions:
            return self.player(state)
        hand, trump = parse_hand(" ".join(seen["hand"])), "SHDC".index(seen["trump"])
        if what == "bury":
            own = tuple(sorted(heuristic_burial(v, hand, trump)))
            widow = parse_hand(" ".join(seen["widow"]))
            values = self.bury_values(v, hand, widow, r.seat, seen["bid"], trump, list(own))
        elif what == "return":
            passed = [parse_card(c) for who, kind, c, _ in seen["moves"] if kind == "give" and who != r.seat]
            own = tuple(sorted(heuristic_pass(v, hand, trump, feeding=False)))
            values = self.return_values(v, hand, r.seat, seen["bid"], trump, passed, list(own))
        else:
            own = tuple(sorted(heuristic_pass(v, hand, trump)))
            values = self.pass_values(v, hand, r.seat, seen["bidder"], seen["bid"], trump, list(own))
        best = max(values, key=lambda p: (values[p], p == own))
        if values[best] <= values[own] + 1e-9:
            return self.player(state)
        return Action(r.kind, self._plan.start(state, list(best)))

    def pass_values(
        self, variant, hand, seat: int, bidder: int, bid: int, trump: int, own: list[int]
    ) -> dict[tuple[int, ...], float]:
        """The worth (see the class) of the pass ``own`` (card types) and of each pass one card away from
        it, to the partner at ``seat`` holding ``hand`` (copy counts) with the bidder at ``bidder`` in
        ``trump`` (0-3) at ``bid``; points on the variant's scale."""
        from simcore.answers.advise import pass_values

        code = POLICY_NAMES.index(self.rollout)
        return self._screened(
            lambda passes, deals: pass_values(variant, hand, seat, bidder, bid, trump, passes, deals, self.seed, code),
            one_card_away(hand, own),
        )

    def return_values(
        self, variant, hand, seat: int, bid: int, trump: int, passed: list[int], own: list[int]
    ) -> dict[tuple[int, ...], float]:
        """The worth of the return ``own`` and of each return one card away from it, to the bidder at
        ``seat`` holding ``hand`` (copy counts, the pass ``passed`` included) in ``trump`` (0-3) at
        ``bid``; points on the variant's scale."""
        import numpy as np

        from simcore.answers.advise import return_values

        dealt = np.array(hand, dtype=np.uint8)
        for t in passed:
            dealt[t] -= 1
        code = POLICY_NAMES.index(self.rollout)
        return self._screened(
            lambda returns, deals: return_values(
                variant, dealt, seat, bid, trump, passed, returns, deals, self.seed, code
            ),
            one_card_away(hand, own),
        )

    def bury_values(
        self, variant, hand, widow, seat: int, bid: int, trump: int, own: list[int]
    ) -> dict[tuple[int, ...], float]:
        """The worth of the burial ``own`` and of each burial one card away from it, to the bidder at
        ``seat`` holding ``hand`` (copy counts, the widow ``widow`` taken) in ``trump`` (0-3) at ``bid``;
        points on the variant's scale."""
        import numpy as np

        from simcore.answers.advise import bury_values

        dealt = np.array(hand, dtype=np.uint8) - np.array(widow, dtype=np.uint8)
        code = POLICY_NAMES.index(self.rollout)
        return self._screened(
            lambda burials, deals: bury_values(
                variant, dealt, widow, seat, bid, trump, burials, deals, self.seed, code
            ),
            one_card_away(hand, own),
        )

    def _screened(self, weigh: Callable, candidates: list[tuple[int, ...]]) -> dict[tuple[int, ...], float]:
        """The worth on ``deals`` deals (``weigh(candidates, deals)``) of the first candidate and the
        :data:`FINALISTS` best of the others on the first tenth of those deals: weighing every
        candidate on every deal would cost about six times as much."""
        screen = weigh(candidates, max(1, self.deals // 10))
        others = sorted(candidates[1:], key=lambda c: -screen[c])[:FINALISTS]
        return weigh([candidates[0], *others], self.deals)


#: The choices :class:`AdviseExchange` weighs on all its deals, besides the heuristic's: the best on a
#: first tenth of them.
FINALISTS = 5


def weighs_pass(variant) -> bool:
    """Whether :class:`AdviseExchange` weighs the partner's pass and the bidder's return in ``variant``:
    partners across, the partner passing first (not at once, not the called card)."""
    return (
        variant.get("teams.kind") == "partners_across"
        and variant.get("exchange.pass_cards") > 0
        and not variant.get("exchange.simultaneous")
        and not variant.get("exchange.pass_called_card")
    )


def weighs_burial(variant) -> bool:
    """Whether :class:`AdviseExchange` weighs the bidder's burial in ``variant``: he takes the widow and
    passes no cards (alone or with a called partner, whoever holds the called card in each deal weighed;
    not where the partner passes cards too, as in five-hand-asked-card)."""
    return (
        bool(variant.get("exchange.widow_to_bidder"))
        and variant.get("teams.kind") in ("bidder_alone", "called_card")
        and not variant.get("exchange.pass_cards")
    )


def heuristic_pass(variant, hand, trump: int, feeding: bool = True) -> list[int]:
    """The card types (with repeats) the heuristic partner passes from ``hand`` (copy counts) under
    ``trump``; with ``feeding`` False, those the heuristic bidder returns."""
    return _heuristic_gives(variant, hand, trump, variant.get("exchange.pass_cards"), feeding)


def heuristic_burial(variant, hand, trump: int) -> list[int]:
    """The card types (with repeats) the heuristic bidder buries from ``hand`` (copy counts, the widow
    taken) under ``trump``."""
    return _heuristic_gives(variant, hand, trump, variant.get("deal.widow"), False)


def _heuristic_gives(variant, hand, trump: int, n: int, feeding: bool) -> list[int]:
    import numpy as np

    from simcore.kernels.policies import HEURISTIC, give_cards

    out = np.zeros(len(hand), dtype=np.uint8)
    state = np.zeros(4, dtype=np.uint64)  # the heuristic draws nothing
    give_cards(np.array(hand, dtype=np.uint8), n, trump, HEURISTIC, feeding, variant.tables, state, out)
    return card_types(out)


def one_card_away(hand, cards: list[int]) -> list[tuple[int, ...]]:
    """``cards`` (card types with repeats, taken from ``hand``'s copy counts) and every other choice of as
    many cards from ``hand`` that differs from it by one card, each sorted, ``cards`` first."""
    base = tuple(sorted(cards))
    out, seen = [base], {base}
    for i in range(len(base)):
        for t in range(len(hand)):
            if t != base[i] and hand[t] > base.count(t):
                p = tuple(sorted(base[:i] + (t,) + base[i + 1 :]))
                if p not in seen:
                    seen.add(p)
                    out.append(p)
    return out


def auction_read(variant, seen: dict):
    """The condition the other seats' calls put on the deal (``seen``: the bidder's observation) under the
    model bidders (:func:`simcore.kernels.auction_condition.auction_condition`), or None where nothing can be
    read: calls the model cannot make, or a condition too rare to sample."""
    from simcore.answers.conditioned import ConditionError, check_condition
    from simcore.kernels.auction_condition import seen_auction_condition

    seat = seen["seat"]
    condition = seen_auction_condition(variant, seen["bids"], seat)
    if condition is None or not condition.clauses:
        return None
    try:
        check_condition(variant, condition, parse_hand(" ".join(seen["hand"])), seat)
    except ConditionError:
        return None
    return condition


def weighs_trump(variant, after_widow: bool = False) -> bool:
    """Whether :class:`AdviseTrump` weighs the trumps in ``variant``: a bidder names trump; where he names
    it after taking the widow, only ``after_widow``."""
    later = bool(variant.get("exchange.trump_after_widow") and variant.get("exchange.widow_to_bidder"))
    return variant.get("auction.kind") != "none" and (after_widow or not later)


def strong_player(
    samples: int = 20,
    solve_from: int | None = None,
    share: float | None = None,
    rollout_from: int | None = None,
    read_auction: bool | None = None,
    trump_deals: int = 1000,
    exchange_deals: int = 1000,
) -> AdviseBidder:
    """The strong player: bids from the hand's sampled value (:class:`AdviseBidder`), trump named from
    ``trump_deals`` sampled deals (:class:`AdviseTrump`; 0: the heuristic's trump), the pass, return and
    burial from ``exchange_deals`` sampled deals (:class:`AdviseExchange`; 0: the heuristic's), card
    play by the sampling player (:class:`simcore.state.sampler.SamplingPlayer`), the heuristic's meld.
    Its card play reads no bids unless ``read_auction`` (None: not): it reads a bid as the model bidders
    make it, and its partner's are the sampled value's."""
    from simcore.state.sampler import SamplingPlayer

    player = SamplingPlayer(
        samples=samples, solve_from=solve_from, rollout_from=rollout_from, read_auction=bool(read_auction)
    )
    if exchange_deals:
        player = AdviseExchange(player, deals=exchange_deals)
    return AdviseBidder(AdviseTrump(player, deals=trump_deals) if trump_deals else player, share=share)
