"""The reference rules of a full hand, decision by decision, and the referee that replays a kernel trace.

:func:`hand_steps` plays one hand as the rules are written, phase by phase as
:func:`simcore.kernels.hand.play_hand` plays it (one function of the same name per phase). It is a
generator: it yields a :class:`Request` at every decision (a bid, trump, a card called, passed, buried,
thrown away or played, a dix shown or exchanged, a meld tabled, a throw-in) and at every chance event
(the deal, a card turned for trump, a card drawn), receives the value chosen, checks it (raising
:class:`RuleBroken` for one the rules do not allow) and returns the hand's record at the end. Everything
that is not a choice (melds counted, trick winners, set without play, declaring out, the score) it works
out itself. The same generator serves two drivers:

* :func:`referee` takes the values from a traced hand (:func:`simcore.kernels.hand_drivers.trace_hand`): each
  decision is checked against the rules, the rest recomputed, so for the same decisions the kernel and
  the referee must produce the same record;
* :class:`simcore.state.HandState` takes them from callers: a per-decision game API.

Values are integers: a bid (0 = pass), a suit (-1 = no trump), a card type (``suit * 6 + rank``; -1 =
none, where "none" is allowed), 0/1 for a yes-or-no choice, an index of ``STOCK_MELDS`` for a meld.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from simcore.cards import JACK_OF_DIAMONDS, N_TYPES, QUEEN_OF_SPADES, card_name
from simcore.kernels import hand_record as h
from simcore.kernels.stock import STOCK_MELDS
from simcore.reference.meld import reference_checks, reference_total
from simcore.reference.play import reference_legal, winning_position
from simcore.reference.stock import RuleBroken, copy_weight, meld_points, take_meld
from simcore.variants import Variant

#: The seat of a chance event's request.
CHANCE = -1
#: Decision kinds, in the order a hand meets them (chance kinds: deal, turn, draw).
DECISIONS = (
    "bid",
    "forfeit",
    "trump",
    "alone",
    "call",
    "swap",
    "share",
    "give",
    "bury",
    "discard",
    "throw_in",
    "concede",
    "play",
    "dix",
    "exchange",
    "meld",
)
#: Decisions whose value is 0 (no) or 1 (yes).
YES_NO = ("forfeit", "alone", "swap", "throw_in", "concede", "dix", "exchange")


class Request(NamedTuple):
    """A decision (or chance event) the hand waits for: ``seat`` (CHANCE for chance) chooses one of
    ``legal``. ``to``: the seat a card goes to (share, give, draw), else -1. ``pool``: for a chance
    event, the copies of each ``legal`` value to draw from uniformly (None: certain)."""

    seat: int
    kind: str
    legal: tuple
    to: int = -1
    pool: tuple | None = None


@dataclass
class Table:
    """Everything that has happened in the hand so far, as :func:`hand_steps` keeps it (who may see
    what is :meth:`simcore.state.HandState.observation`'s business). Cards are copy counts per type."""

    players: int
    hands: list = field(default_factory=list)
    widow: list = field(default_factory=list)
    bids: list = field(default_factory=list)  # (seat, bid), 0 = pass
    bidder: int = -1
    bid: int = 0
    trump: int = -1
    turned: int = -1  # the card turned for trump (-1: none)
    called: int = -1
    partner: int = -1
    side: list = field(default_factory=list)  # 1 = the bidder's side
    widow_taken: bool = False  # the bidder has taken the widow into his hand
    moves: list = field(default_factory=list)  # (seat, kind, card, to): swaps, shares, gives, burials, discards, draws
    meld: list = field(default_factory=list)  # meld points by seat (before the minimum that counts)
    tabled: list = field(default_factory=list)  # stock play: (seat, meld name, points)
    melded: list | None = None  # per seat, the cards it held when the meld was counted (copy counts)
    tricks: list = field(default_factory=list)  # (leader, cards in play order, winner, points)
    trick: list = field(default_factory=list)  # the trick in play: (seat, card)
    pts: list = field(default_factory=list)  # trick points by seat
    won: list = field(default_factory=list)  # tricks won by seat
    stock: int = 0  # face-down cards left in a stock
    copies: list | None = None  # stock play: per seat and card type, the classes each held copy melded in
    outcome: int = h.PLAYED
    declared: tuple | None = None  # (seat, total) of a seat that declared itself out
    rec: dict | None = None  # the record, once the hand is over
    seat_scores: list | None = None  # what the hand adds to each seat's score line, once over


def refusal(variant: Variant, request: Request, value) -> str | None:
    """Why ``value`` is not allowed for ``request`` (None: it is), in words a player can act on."""
    if value in request.legal:
        return None
    seat, kind, legal = request.seat, request.kind, request.legal
    if kind == "bid":
        bids = [b for b in legal if b]
        if value == 0:
            return "the player on the dealer's left must open the bidding"
        if not bids:
            return f"seat {seat} may only pass (no marriage to name trump with)"
        return f"seat {seat} bid {value}; the next legal bid was {bids[0]}" + (
            f" (up to {bids[-1]})" if len(bids) > 1 else ""
        )
    if kind == "give" and len(legal) == 1:  # the called card, passed where the rules say so
        return f"seat {seat} gave {value_name(kind, value)}, not the card asked for ({card_name(legal[0])})"
    names = ", ".join(value_name(kind, v) for v in legal)
    return f"seat {seat} may not {kind} {value_name(kind, value)}; allowed: {names}"


def value_name(kind: str, value) -> str:
    """A value of ``kind`` as a player reads it."""
    if not isinstance(value, int) or isinstance(value, bool):
        return repr(value)
    if kind in YES_NO:
        return {0: "no", 1: "yes"}.get(value, str(value))
    if kind == "bid":
        return "pass" if value == 0 else str(value)
    if kind == "trump":
        return {-1: "none", 0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}.get(value, str(value))
    if kind == "meld":
        return "none" if value == -1 else STOCK_MELDS[value] if 0 <= value < len(STOCK_MELDS) else str(value)
    if value == -1:
        return "none" if kind == "call" else "done"
    return card_name(value) if 0 <= value < N_TYPES else str(value)


def _ask(variant: Variant, request: Request):
    """Yield ``request``; return the value sent back, once checked against the rules."""
    value = yield request
    why = refusal(variant, request, value)
    if why:
        raise RuleBroken(why)
    return value


def _held(hand: list[int]) -> tuple[int, ...]:
    return tuple(t for t in range(N_TYPES) if hand[t] > 0)


def _has_marriage(hand: list[int], s: int) -> bool:
    return hand[s * 6 + 2] > 0 and hand[s * 6 + 3] > 0


def _next_bid(high: int, variant: Variant) -> int:
    if high == 0:
        return variant.get("auction.min_bid")
    step_from = variant.get("auction.step_from")
    if step_from and high >= step_from:
        step = variant.get("auction.step_after")
        return (high // step + 1) * step
    return high + variant.get("auction.step")


def hand_steps(variant: Variant, table: Table, need: list[int] | None = None, contract: tuple[int, ...] | None = None):
    """Play one hand into ``table``, yielding a :class:`Request` at each decision and chance event and
    returning the record (``simcore.kernels.hand_record.FIELDS``, with the seat rows ``_side``, ``_meld``,
    ``_dix``, ``_double_pinochle``, ``_checks``, ``_pts``, ``_won`` and the ``_stage`` it was scored at). The first
    request is the deal (CHANCE, "deal"): send (hands, widow, redeals) with the cards as copy-count lists
    and the redeals the dealing rules made before it; an auction that everybody passes where the rules
    redeal asks for another. ``need``: what each seat needs to declare itself out (None: no declaring).
    ``contract``: (seat, bid) set without an auction (``pinochle advise``), or (seat, 0, calls...): the
    auction's first calls given (a bid, or 0 for a pass), and a hand everybody passes after them thrown
    in, not dealt again (``pinochle advise --auction``)."""
    rec = dict.fromkeys(h.FIELDS, 0)
    calls = tuple(contract[2:]) if contract is not None else ()
    while True:
        hands, widow, redeals = yield Request(CHANCE, "deal", ())
        table.hands, table.widow = [list(x) for x in hands], list(widow)
        table.bids, table.moves = [], []
        rec["redeals"] += redeals
        got = yield from _auction(variant, table, contract)
        if got is not None:
            break
        if calls:  # passed out after the given calls: thrown in, nobody scores
            rec["bidder"] = table.bidder = -1
            table.outcome, table.rec, table.seat_scores = rec["outcome"], dict(rec), [0] * variant.players
            return rec
        rec["redeals"] += 1  # everybody passed, and the rules redeal
    bidder, bid, forced = got
    table.bidder, table.bid = rec["bidder"], rec["bid"] = bidder, bid
    table.meld = [0] * variant.players
    table.pts, table.won = [0] * variant.players, [0] * variant.players
    set_contract = contract is not None and contract[1] > 0
    if (yield from _forfeit_unseen(variant, table, bidder, bid, rec, set_contract)):
        return _over(variant, table, rec)
    trump, side, partner, called = yield from _trump_and_partner(variant, table, bidder, rec)
    if variant.get("play.stock_play"):  # melds during play
        yield from _stock_play(variant, table, rec, need)
        return _over(variant, table, rec)
    if trump < 0:
        _score_no_trump(variant, table.hands, side, bid, rec)
        return _over(variant, table, rec)
    buried, swapper = yield from _exchange(variant, table, bidder, partner, trump, called)
    meld, dix = _meld(variant, table.hands, trump, side, partner, bidder, swapper, rec)
    table.meld = list(rec["_meld"])
    table.melded = [list(h) for h in table.hands]
    if (yield from _without_play(variant, table, bidder, bid, forced, meld, rec)):
        return _over(variant, table, rec)
    tricks_pts, tricks_won = yield from _tricks(variant, table, trump, side, bidder, buried, rec, need)
    _score(variant, meld, dix, tricks_pts, tricks_won, bidder, bid, rec)
    return _over(variant, table, rec)


def _over(variant: Variant, table: Table, rec: dict) -> dict:
    """The hand is over: its record and the seats' scores into ``table``."""
    table.outcome = rec["outcome"]
    table.rec = {k: v for k, v in rec.items() if not k.startswith("_")}
    table.seat_scores = _seat_scores(variant, rec)
    return rec


def _auction(variant: Variant, table: Table, contract: tuple[int, ...] | None):
    """Phase 2, auction: (bidder, bid, forced), or None when everybody passed and the rules redeal.
    From the dealer's left round the table until one is left (one round with ``single_round``); each
    bid tops the last by a legal step (up to ``jump_steps`` steps, an opening bid within
    ``max_opening``), nobody bids after passing, the dealer's left must open where ``opening_forced``,
    and a seat without a marriage may only pass where ``bid_needs_marriage``. When everybody passes
    the forced bid goes to the dealer's left or the dealer (forced True). No auction: bidder -1.
    ``contract``: (seat, bid > 0) set without an auction, or (seat, 0, calls...): the first calls given
    (checked by the caller against the rules)."""
    players = variant.players
    if contract is not None and contract[1] > 0:
        return contract[0], contract[1], False
    calls = tuple(contract[2:]) if contract is not None else ()
    kind = variant.get("auction.kind")
    if kind == "none":
        return -1, 0, False
    active = [True] * players
    high, high_seat = 0, -1
    seat = turns = 0
    cap = variant.get("auction.max_opening")
    while True:
        if active[seat] and seat != high_seat:
            forced = turns == 0 and variant.get("auction.opening_forced")
            allowed = (
                forced
                or not variant.get("auction.bid_needs_marriage")
                or any(_has_marriage(table.hands[seat], s) for s in range(4))
            )
            bids = [_next_bid(high, variant)]
            for _ in range(variant.get("auction.jump_steps")):
                if high == 0 and cap and _next_bid(bids[-1], variant) > cap:
                    break  # the opening bid is capped
                bids.append(_next_bid(bids[-1], variant))
            legal = ([] if forced else [0]) + (bids if allowed else [])
            if len(table.bids) < len(calls):
                legal = [calls[len(table.bids)]]
            b = yield from _ask(variant, Request(seat, "bid", tuple(legal)))
            table.bids.append((seat, b))
            if b:
                high, high_seat = b, seat
            else:
                active[seat] = False
        turns += 1
        seat = (seat + 1) % players
        if kind == "single_round" and turns >= players:
            break
        if sum(active) == 0 or (sum(active) == 1 and high_seat >= 0 and active[high_seat]):
            break
    if high_seat >= 0:
        return high_seat, high, False
    all_pass = variant.get("auction.all_pass")
    if all_pass == "redeal":
        return None
    return {"dealer_left_takes": 0, "dealer_forced": players - 1}[all_pass], variant.forced_bid, True


def _forfeit_unseen(variant: Variant, table: Table, bidder: int, bid: int, rec: dict, set_contract: bool):
    """seeds/001 'Auction Pinochle': "If all the players pass on the compulsory 300 bid, the bidder may
    forfeit without looking at the widow, in which case he pays the basic unit value (3 chips) to the
    kitty but nothing to the other players." The bidder of a contract at the minimum (never a set
    contract) chooses; True when he forfeits, scored: the bid lost as on a throw-in
    (``scoring.concede_loses_bid``), nothing to anyone else, no trump named."""
    if not variant.get("scoring.forfeit_unseen") or set_contract or bidder < 0 or bid != variant.get("auction.min_bid"):
        return False
    if not (yield from _ask(variant, Request(bidder, "forfeit", (0, 1)))):
        return False
    rec.update(
        outcome=h.FORFEITED_UNSEEN,
        trump=-1,
        made=0,
        other_score=0,
        side_score=-bid if variant.get("scoring.concede_loses_bid") else 0,
        _side=[int(s == bidder) for s in range(variant.players)],
        _stage="unmelded",
    )
    table.side = rec["_side"]
    return True


def _trump_and_partner(variant: Variant, table: Table, bidder: int, rec: dict):
    """Phase 3: (trump, side, partner, called). side[s] 1 for the bidder's side (with no auction,
    seat 0's); the partner across with partners, the called card's first holder to the bidder's left
    with a called card, else -1. Trump is the bidder's choice (with ``exchange.trump_after_widow`` he
    takes the widow into his hand first; with ``trump_needs_marriage`` only a suit he holds a marriage
    in, none when he holds none), or with no auction the suit of a card turned from the stock or the
    dealer's hand. With a called card the bidder may go alone (``may_play_alone``) or names a card
    he does not hold every copy of (``named``), or the partner holds the highest trump out."""
    players, hands = variant.players, table.hands
    anchor = max(bidder, 0)
    teams = variant.get("teams.kind")
    side = (
        [1 if (s - anchor) % 2 == 0 else 0 for s in range(players)]
        if teams == "partners_across"
        else [int(s == anchor) for s in range(players)]
    )
    partner = (bidder + players // 2) % players if teams == "partners_across" and bidder >= 0 else -1
    table.side, table.partner = side, partner
    rec["_side"], rec["_stage"] = side, "unmelded"
    stock = variant.get("play.stock_play")
    dealt = list(hands[bidder]) if bidder >= 0 else None
    if bidder >= 0 and variant.get("exchange.trump_after_widow") and variant.get("exchange.widow_to_bidder"):
        hands[bidder] = [a + b for a, b in zip(hands[bidder], table.widow)]
        table.widow_taken = True
    if variant.get("auction.kind") == "none":
        pool = table.widow if stock else hands[players - 1]
        held = _held(pool)
        table.turned = yield from _ask(variant, Request(CHANCE, "turn", held, pool=tuple(pool[t] for t in held)))
        trump = table.turned // 6
        if stock:
            table.widow[table.turned] -= 1
    else:
        suits = tuple(
            s for s in range(4) if not variant.get("auction.trump_needs_marriage") or _has_marriage(hands[bidder], s)
        )
        trump = yield from _ask(variant, Request(bidder, "trump", suits or (-1,)))
    table.trump = rec["trump"] = trump
    called = -1
    if stock or trump < 0:
        return trump, side, partner, called
    if bidder >= 0:
        rec["bidder_meld"] = reference_total(dealt, trump, variant)
    if teams == "called_card" and bidder >= 0:

        def first_holder(c: int) -> int:
            return next((s for s in ((bidder + i) % players for i in range(1, players)) if hands[s][c] > 0), -1)

        if variant.get("teams.call") == "named":
            alone = variant.get("teams.may_play_alone") and (yield from _ask(variant, Request(bidder, "alone", (0, 1))))
            if not alone:
                called = yield from _ask(
                    variant,
                    Request(
                        bidder, "call", tuple(c for c in range(N_TYPES) if hands[bidder][c] < variant.deck_copies[c])
                    ),
                )
                partner = first_holder(called)
        else:  # the ace of trump, else the ten, and so on down the trump suit
            for c in (trump * 6 + r for r in range(6) if variant.deck_copies[trump * 6 + r]):
                if partner < 0:
                    called, partner = c, first_holder(c)
        if partner >= 0:
            side[partner] = 1
        table.called, table.partner = called, partner
    return trump, side, partner, called


def _exchange(variant: Variant, table: Table, bidder: int, partner: int, trump: int, called: int):
    """Phase 4: (the cards buried, copy counts; the seat that exchanged a dix for the turned card, -1:
    none), after the dix exchange, the widow shared out, the partners' pass, the widow to the bidder
    and his burial, and discard and draw have changed the hands."""
    swapper = yield from _swap_dix(variant, table, trump)
    yield from _share_widow(variant, table, bidder, partner)
    buried = yield from _pass_and_bury(variant, table, bidder, partner, called)
    yield from _discard_and_draw(variant, table, bidder)
    return buried, swapper


def _swap_dix(variant: Variant, table: Table, trump: int):
    """seeds/001 'Partnership Pinochle': "Each player in turn, beginning with the player on the dealer's
    left, has the right to exchange the dix (nine of trumps) for the trump card. The trump card, or the
    dix exchanged for it, then becomes part of the dealer's hand." Returns who exchanged (-1: nobody)."""
    dix, dealer, hands, turned = trump * 6 + 5, variant.players - 1, table.hands, table.turned
    if not variant.get("exchange.dix_for_turned") or turned < 0 or turned == dix:
        return -1
    for s in range(dealer):
        if hands[s][dix] > 0 and (yield from _ask(variant, Request(s, "swap", (0, 1)))):
            hands[s][dix] -= 1
            hands[s][turned] += 1
            hands[dealer][turned] -= 1
            hands[dealer][dix] += 1
            table.moves.append((s, "swap", turned, dealer))
            return s
    return -1


def _share_widow(variant: Variant, table: Table, bidder: int, partner: int):
    """A shared-out widow (``exchange.widow_shared``): the bidder hands its cards out face down, one to
    each player: the first to himself, the next to his partner (partners across), the rest clockwise
    from his left."""
    if bidder < 0 or not variant.get("exchange.widow_shared"):
        return
    players = variant.players
    order = [bidder] + ([partner] if partner >= 0 else [])
    order += [s for s in ((bidder + i) % players for i in range(1, players)) if s not in order]
    for seat in order[: sum(table.widow)]:
        card = yield from _ask(variant, Request(bidder, "share", _held(table.widow), to=seat))
        table.widow[card] -= 1
        table.hands[seat][card] += 1
        table.moves.append((bidder, "share", card, seat))


def _pass_and_bury(variant: Variant, table: Table, bidder: int, partner: int, called: int):
    """The partners' pass: the partner gives ``pass_cards`` cards (with ``pass_called_card`` the card
    called), the bidder as many back, having seen them unless ``simultaneous``; then the bidder takes
    the widow (unless he took it to name trump) and buries as many cards. Returns the cards buried."""
    hands = table.hands
    buried = [0] * N_TYPES
    n = variant.get("exchange.pass_cards")

    def give(giver: int, taker: int, legal=None):
        card = yield from _ask(variant, Request(giver, "give", legal or _held(hands[giver]), to=taker))
        hands[giver][card] -= 1
        table.moves.append((giver, "give", card, taker))
        return card

    def hand_over(cards: list[int], taker: int) -> None:
        for c in cards:
            hands[taker][c] += 1

    if bidder >= 0 and n > 0 and partner >= 0:
        fed, back = [], []
        if variant.get("exchange.pass_called_card"):  # seeds/000: "The partner gives them the card"
            fed.append((yield from give(partner, bidder, (called,))))
        else:
            for _ in range(n):
                fed.append((yield from give(partner, bidder)))
        if not variant.get("exchange.simultaneous"):  # the bidder sees what he got before returning
            hand_over(fed, bidder)
        for _ in range(n):
            back.append((yield from give(bidder, partner)))
        if variant.get("exchange.simultaneous"):
            hand_over(fed, bidder)
        hand_over(back, partner)
    if bidder >= 0 and variant.get("exchange.widow_to_bidder"):
        if not table.widow_taken:
            hands[bidder] = [a + b for a, b in zip(hands[bidder], table.widow)]
            table.widow_taken = True
        for _ in range(sum(table.widow)):
            card = yield from _ask(variant, Request(bidder, "bury", _held(hands[bidder])))
            hands[bidder][card] -= 1
            buried[card] += 1
            table.moves.append((bidder, "bury", card, -1))
    return buried


def _discard_and_draw(variant: Variant, table: Table, bidder: int):
    """Discard and draw (``exchange.draw``): from the bidder round, each throws away up to his share of
    the stock, min(hand size, stock // players), one card at a time (-1: no more), then draws as many
    at random."""
    if bidder < 0 or not variant.get("exchange.draw"):
        return
    players, hands, stock = variant.players, table.hands, table.widow
    most = min(variant.hand_size, sum(stock) // players)
    for seat in ((bidder + i) % players for i in range(players)):
        thrown = 0
        while thrown < most:
            card = yield from _ask(variant, Request(seat, "discard", (-1,) + _held(hands[seat])))
            if card < 0:
                break
            hands[seat][card] -= 1
            thrown += 1
            table.moves.append((seat, "discard", card, -1))
        for _ in range(thrown):
            yield from _draw(variant, table, seat, stock)


def _draw(variant: Variant, table: Table, seat: int, stock: list[int], certain: int = -1):
    """``seat`` draws a card from ``stock`` at random (or the ``certain`` card, the last turned one)."""
    held = _held(stock)
    request = (
        Request(CHANCE, "draw", (certain,), to=seat)
        if certain >= 0
        else Request(CHANCE, "draw", held, to=seat, pool=tuple(stock[t] for t in held))
    )
    card = yield from _ask(variant, request)
    if certain < 0:
        stock[card] -= 1
    table.hands[seat][card] += 1
    table.moves.append((seat, "draw", card, seat))
    return card


def _meld(
    variant: Variant,
    hands: list[list[int]],
    trump: int,
    side: list[int],
    partner: int,
    bidder: int,
    swapper: int,
    rec: dict,
) -> tuple[list[int], list[int]]:
    """(meld, dix) by side (index 1 = the bidder's), the meld 0 below the minimum that counts; each
    seat's meld, dix and double pinochle into ``rec``. A dix exchanged for the turned card scores the
    ``swapper``, not the dealer: "each original holder of a dix scores 10, whether or not it was
    exchanged" (seeds/001)."""
    players = variant.players
    meld, dix = [0, 0], [0, 0]
    rec["_meld"], rec["_dix"], rec["_double_pinochle"], rec["_checks"] = [], [], [], []
    for s in range(players):
        moved = int(s == swapper) - int(swapper >= 0 and s == players - 1)  # the dix scores its original holder
        m = reference_total(hands[s], trump, variant) + moved * int(variant.meld_flags[0])
        d = (int(hands[s][trump * 6 + 5]) + moved) * int(variant.meld_flags[0])
        two = int(hands[s][QUEEN_OF_SPADES] >= 2 and hands[s][JACK_OF_DIAMONDS] >= 2)  # a double pinochle or more
        if (
            s == partner
            and variant.get("teams.kind") == "called_card"
            and not variant.get("scoring.partner_meld_counts")
        ):
            m = d = two = 0  # only the bidder's meld counts for the partnership
        meld[side[s]] += m
        dix[side[s]] += d
        rec["_meld"].append(m)
        rec["_dix"].append(d)
        rec["_double_pinochle"].append(two)
        # checks are paid for melding, whether or not the meld is saved (check.toml's assumptions)
        rec["_checks"].append(reference_checks(hands[s], trump, variant) if variant.has_checks else 0)
    rec["_stage"] = "not played"
    if bidder >= 0:
        rec["bidder_meld_after"] = reference_total(hands[bidder], trump, variant)
        rec["trump_len"] = sum(hands[bidder][trump * 6 : trump * 6 + 6])
        rec["aces"] = sum(hands[bidder][s * 6] for s in range(4))
    rec["side_meld"], rec["other_meld"] = meld[1], meld[0]
    least = variant.get("scoring.min_meld_to_count")
    return [m if m >= least else 0 for m in meld], dix


def throw_in_refusal(variant: Variant, short: int, forced: bool) -> str | None:
    """Why the bidder, ``short`` of his bid after the meld, may not throw in (None: he may):
    ``scoring.concede``, from ``concede_short_by`` short, with ``concede_only_forced`` only a bidder
    ``forced`` to take the hand when everybody passed."""
    if not variant.get("scoring.concede"):
        return "a throw-in where the rules allow none"
    if variant.get("scoring.concede_only_forced") and not forced:
        return "a throw-in by a bidder who bid; the rules allow one only to a bidder forced to take the hand"
    if short < variant.get("scoring.concede_short_by"):
        return (
            f"a throw-in {short} short of the bid; the rules allow one from "
            f"{variant.get('scoring.concede_short_by')} short"
        )
    return None


def _without_play(variant: Variant, table: Table, bidder: int, bid: int, forced: bool, meld: list[int], rec: dict):
    """True when the hand ends unplayed, scored: set without play when the bidding side's meld is short
    of the bid by more than ``set_if_short_by`` or under the minimum to play; else thrown in by the
    bidder (his choice, where :func:`throw_in_refusal` allows it); else conceded to him by the seat on
    his left where the rules let the opponents concede and his meld alone makes the bid with nothing
    to save. The bidder then scores his bid ("The bidder can never win more than he bid")."""
    if bidder < 0:
        return False
    short, short_by = bid - meld[1], variant.get("scoring.set_if_short_by")
    outcome = h.PLAYED
    if (short_by and short > short_by) or meld[1] < variant.get("scoring.min_meld_to_play"):
        outcome = h.SET_WITHOUT_PLAY
    elif throw_in_refusal(variant, short, forced) is None and (
        yield from _ask(variant, Request(bidder, "throw_in", (0, 1)))
    ):
        outcome = h.CONCEDED
    elif (
        variant.get("scoring.opponents_concede")
        and variant.get("scoring.save_meld") == "nothing"
        and meld[1] >= bid
        and (yield from _ask(variant, Request((bidder + 1) % variant.players, "concede", (0, 1))))
    ):
        outcome = h.CONCEDED_BY_OPPONENTS
    if outcome == h.PLAYED:
        return False
    opp = variant.get("scoring.opponents_on_concede")
    conceded = outcome == h.CONCEDED
    lost = -bid if not conceded or variant.get("scoring.concede_loses_bid") else 0
    rec.update(
        outcome=outcome,
        made=int(outcome == h.CONCEDED_BY_OPPONENTS),
        side_score=bid if outcome == h.CONCEDED_BY_OPPONENTS else lost,
        other_score={"meld": meld[0], "nothing": 0, "meld_and_tricks": meld[0] + variant.trick_total}[opp]
        + (variant.get("scoring.concede_bonus") if conceded else 0),
    )
    return True


def play_legal(
    variant: Variant,
    hand: list[int],
    trick: list[int],
    trump: int,
    partner_winning: bool,
    first_lead_by_bidder: bool,
    broken: bool,
) -> tuple[int, ...]:
    """The cards ``hand`` may play to ``trick`` (:func:`simcore.reference.play.reference_legal`), with
    the bidder's opening lead a trump where ``play.bidder_leads_trump`` and he holds one
    (``first_lead_by_bidder``), and no trump led before one was played (``broken``) where
    ``play.trump_led_once_broken`` and he holds another suit."""
    legal = reference_legal(hand, trick, trump, variant, partner_winning)
    trumps = [c for c in legal if c // 6 == trump]
    if first_lead_by_bidder and variant.get("play.bidder_leads_trump") and trumps:
        legal = trumps
    if not trick and variant.get("play.trump_led_once_broken") and not broken and len(trumps) < len(legal):
        legal = [c for c in legal if c // 6 != trump]
    return tuple(legal)


def _close_trick(variant: Variant, table: Table, leader: int, trump: int, last: bool) -> tuple[int, int]:
    """(winner, points taken) of the trick in play, led by ``leader``; it joins the finished tricks."""
    cards = [c for _, c in table.trick]
    winner = (leader + winning_position(cards, trump)) % variant.players
    taken = sum(int(variant.trick_points[c]) for c in cards) + (variant.last_trick if last else 0)
    table.tricks.append((leader, cards, winner, taken))
    table.trick = []
    return winner, taken


def _tricks(
    variant: Variant,
    table: Table,
    trump: int,
    side: list[int],
    bidder: int,
    buried: list[int],
    rec: dict,
    need: list[int] | None = None,
):
    """(trick points, tricks won) by side: every card played in turn, held and legal (:func:`play_legal`),
    each trick to its winner; buried cards count for the bidder. Each seat's into ``rec``. With ``need``
    (what each seat's score line needs to win the game) the winner of a trick whose line then has that
    much in meld and trick points declares out and play stops (seeds/001 'Partnership Pinochle': "Play
    then stops, and the cards are counted to verify the claim")."""
    players, hands = variant.players, table.hands
    points = [int(p) for p in variant.trick_points]
    tricks_pts = [0, sum(points[t] * buried[t] for t in range(N_TYPES))]
    tricks_won = [0, 0]
    rec["_stage"] = "played"
    rec["_pts"], rec["_won"] = table.pts, table.won
    if bidder >= 0:
        rec["_pts"][bidder] = tricks_pts[1]  # the buried cards
    leader = bidder if (variant.get("play.lead") == "bidder" and bidder >= 0) else 0
    n_tricks = sum(hands[0])
    partners = variant.get("teams.kind") == "partners_across"
    teams = variant.get("teams.kind") != "bidder_alone"
    broken = False
    for k in range(n_tricks):
        trick = table.trick = []
        for i in range(players):
            seat = (leader + i) % players
            cards = [c for _, c in trick]
            ahead = (leader + winning_position(cards, trump)) % players if trick else -1
            legal = play_legal(
                variant,
                hands[seat],
                cards,
                trump,
                teams and ahead >= 0 and side[ahead] == side[seat],
                k == 0 and i == 0 and seat == bidder,
                broken,
            )
            card = yield from _ask(variant, Request(seat, "play", legal))
            broken = broken or card // 6 == trump
            hands[seat][card] -= 1
            trick.append((seat, card))
        winner, taken = _close_trick(variant, table, leader, trump, k == n_tricks - 1)
        tricks_pts[side[winner]] += taken
        tricks_won[side[winner]] += 1
        rec["_pts"][winner] += taken
        rec["_won"][winner] += 1
        leader = winner
        line = [s for s in range(players) if (side[s] == side[winner] if partners else s == winner)]
        meld = sum(rec["_meld"][s] for s in line)
        total = (meld if meld >= variant.get("scoring.min_meld_to_count") else 0) + sum(rec["_pts"][s] for s in line)
        if need is not None and need[winner] > 0 and total >= need[winner]:
            rec["outcome"] = h.DECLARED_OUT
            table.declared = (winner, total)
            break
    rec["side_tricks"], rec["other_tricks"] = tricks_pts[1], tricks_pts[0]
    rec["_buried"] = sum(points[t] * buried[t] for t in range(N_TYPES))
    return tricks_pts, tricks_won


def _score(
    variant: Variant,
    meld: list[int],
    dix: list[int],
    tricks_pts: list[int],
    tricks_won: list[int],
    bidder: int,
    bid: int,
    rec: dict,
) -> dict:
    """The scores of a played hand: a side keeps its meld if it saved it, else its dix where the rules
    keep that; the bidding side makes its bid or is set (with no bidder each side scores its own)."""

    def kept(sd: int) -> int:
        # "The discard counts, but he must still win a trick to score the meld" (scoring.buried_saves_meld)
        own = tricks_pts[sd] - (rec["_buried"] if sd == 1 and not variant.get("scoring.buried_saves_meld") else 0)
        saved = _saved(variant, tricks_won[sd], own)
        return meld[sd] if saved else (dix[sd] if variant.get("scoring.dix_kept") else 0)

    rec["other_score"] = kept(0) + tricks_pts[0]
    if bidder < 0:
        rec.update(made=-1, side_score=kept(1) + tricks_pts[1])
        return rec
    made = kept(1) + tricks_pts[1] >= bid
    rec["made"] = int(made)
    rec["side_score"] = (
        kept(1) + tricks_pts[1] + (bid if variant.get("scoring.bid_added") else 0)
        if made
        else -bid + (dix[1] if variant.get("scoring.dix_kept_when_set") else 0)
    )
    return rec


def _score_no_trump(variant: Variant, hands: list[list[int]], side: list[int], bid: int, rec: dict) -> dict:
    """A hand stopped at trump: the bidder named none, which only a bidder without a marriage may (the
    only value :func:`_trump_and_partner` then allows). The other side scores nothing, or
    (``scoring.opponents_no_trump = "meld"``) its meld under the suit best for it, where that reaches
    the minimum that counts."""
    other = 0
    if variant.get("scoring.opponents_no_trump") == "meld":
        others = [s for s in range(variant.players) if side[s] == 0]
        other = max(sum(reference_total(hands[s], t, variant) for s in others) for t in range(4))
        other = other if other >= variant.get("scoring.min_meld_to_count") else 0
    rec.update(outcome=h.NO_TRUMP_MARRIAGE, made=0, side_score=-bid, other_score=other)
    return rec


def _seat_scores(variant: Variant, rec: dict) -> list[int]:
    side, players = rec["_side"], variant.players
    share = variant.get("teams.share") if variant.get("teams.kind") == "called_card" else None
    alone = variant.get("teams.kind") == "bidder_alone" or share in ("half", "pooled_tricks")
    shares = sum(side) if share == "half" else 1
    others = [s for s in range(players) if side[s] == 0]
    out = []
    for s in range(players):
        if side[s] == 1:
            out.append(rec["side_score"] // shares)
        elif not alone or rec["_stage"] == "unmelded":
            out.append(rec["other_score"])
        else:
            meld = rec["_meld"][s] if rec["_meld"][s] >= variant.get("scoring.min_meld_to_count") else 0
            if rec["_stage"] == "not played":
                opp = variant.get("scoring.opponents_on_concede")
                bonus = variant.get("scoring.concede_bonus") if rec["outcome"] == h.CONCEDED else 0
                out.append(
                    {"meld": meld, "nothing": 0, "meld_and_tricks": meld + variant.trick_total // (players - 1)}[opp]
                    + bonus
                )
            elif share == "pooled_tricks":
                saved = _saved(variant, sum(rec["_won"][o] for o in others), rec["other_tricks"])
                kept = meld if saved else (rec["_dix"][s] if variant.get("scoring.dix_kept") else 0)
                out.append(kept + rec["other_tricks"] // len(others))
            else:
                pts = rec["_pts"][s]
                saved = _saved(variant, rec["_won"][s], pts)
                kept = meld if saved else (rec["_dix"][s] if variant.get("scoring.dix_kept") else 0)
                out.append(kept + pts)
    return out


def _saved(variant: Variant, tricks_won: int, trick_points: int) -> bool:
    """Whether a side (or a seat) that won these tricks keeps its meld."""
    rule = variant.get("scoring.save_meld")
    return (
        rule == "nothing"
        or (rule == "trick" and tricks_won > 0)
        or (rule == "points" and trick_points >= variant.get("scoring.save_meld_points"))
    )


def open_melds(variant: Variant, copies: list[list[set[str]]], trump: int) -> tuple[int, ...]:
    """The ``STOCK_MELDS`` indices of the melds a seat holding ``copies`` (per card type, the classes each
    held copy has melded in) may table now (the dix apart)."""
    return tuple(
        m
        for m, name in enumerate(STOCK_MELDS)
        if name != "dix" and meld_points(variant, name, trump) > 0 and take_meld(copies, name, trump, apply=False)
    )


def _stock_play(variant: Variant, table: Table, rec: dict, need: list[int] | None):
    """Play a hand with a stock (two-hand, seeds/001 "Two-Hand Pinochle"), after the card turned for
    trump: free play while the stock lasts, then follow, win a trump lead, trump when void. The winner
    of a trick while the stock lasts may show one dix (scoring it, and put it under the stock for the
    turned card when that is not a nine) and table one meld (:mod:`simcore.reference.stock`: at least
    one card from the hand, a tabled card melding again only in another class); then each player from
    the winner draws, the last card drawn the turned one. A turned dix scores the dealer. A seat whose
    meld and trick points (as counted) reach what it ``need``\\ s declares out and play stops."""
    players, hands, stock, trump = variant.players, table.hands, table.widow, table.trump
    dix_value = variant.get("meld.dix")
    unit, up_from = variant.get("tricks.round_to"), variant.get("tricks.round_up_from")

    def counted(pts: int) -> int:
        if not unit:
            return pts
        return (pts // unit + (pts % unit >= up_from)) * unit

    def declares(seat: int) -> bool:
        if need is not None and need[seat] > 0 and meld[seat] + counted(pts[seat]) >= need[seat]:
            table.declared = (seat, meld[seat] + counted(pts[seat]))
            return True
        return False

    # each held copy: the set of classes it has melded in ("run", "marriage", ...); empty: in the hand
    copies = table.copies = [[[set() for _ in range(hands[s][t])] for t in range(N_TYPES)] for s in range(players)]
    meld, pts, won, double_pinochle = table.meld, table.pts, table.won, [0] * players
    stock_tricks = (sum(stock) + 1) // players  # the face-down cards and the turned one
    table.stock = sum(stock)
    n_tricks = sum(hands[0]) + stock_tricks
    dealer, dix = players - 1, trump * 6 + 5
    if table.turned % 6 == 5 and dix_value:
        meld[dealer] += dix_value
        table.tabled.append((dealer, "dix", dix_value))
    leader = 0
    over = declares(dealer)  # the dealer's turned dix may take him out before play
    for k in range(n_tricks if not over else 0):
        free = k < stock_tricks
        trick = table.trick = []
        for j in range(players):
            seat = (leader + j) % players
            cards = [c for _, c in trick]
            legal = _held(hands[seat]) if free else tuple(reference_legal(hands[seat], cards, trump, variant))
            card = yield from _ask(variant, Request(seat, "play", legal))
            held = copies[seat][card]
            held.remove(max(held, key=copy_weight))
            hands[seat][card] -= 1
            trick.append((seat, card))
        winner, taken = _close_trick(variant, table, leader, trump, k == n_tricks - 1)
        pts[winner] += taken
        won[winner] += 1
        leader = winner
        if free:  # the winner's turn to meld: one dix, one meld
            mine = copies[winner]
            if (
                dix_value
                and any("dix" not in c for c in mine[dix])
                and (yield from _ask(variant, Request(winner, "dix", (0, 1))))
            ):
                next(c for c in mine[dix] if "dix" not in c).add("dix")
                meld[winner] += dix_value
                table.tabled.append((winner, "dix", dix_value))
                if table.turned % 6 != 5 and (yield from _ask(variant, Request(winner, "exchange", (0, 1)))):
                    mine[dix].remove({"dix"})
                    hands[winner][dix] -= 1
                    mine[table.turned].append(set())
                    hands[winner][table.turned] += 1
                    table.moves.append((winner, "exchange", table.turned, -1))
                    table.turned = dix
            legal = open_melds(variant, mine, trump)
            m = (yield from _ask(variant, Request(winner, "meld", (-1,) + legal))) if legal else -1
            if m >= 0:
                take_meld(mine, STOCK_MELDS[m], trump)
                value = meld_points(variant, STOCK_MELDS[m], trump)
                meld[winner] += value
                table.tabled.append((winner, STOCK_MELDS[m], value))
                double_pinochle[winner] |= STOCK_MELDS[m] == "double_pinochle"
        if declares(winner):
            break
        if free:
            for j in range(players):
                seat = (winner + j) % players
                card = yield from _draw(variant, table, seat, stock, -1 if sum(stock) else table.turned)
                copies[seat][card].append(set())
            table.stock = sum(stock)
    pts[:] = [counted(p) for p in pts]
    declared = table.declared[0] if table.declared else -1
    rec.update(
        outcome=h.DECLARED_OUT if declared >= 0 else h.PLAYED,
        made=-1,
        side_meld=meld[0],
        other_meld=sum(meld[1:]),
        side_tricks=pts[0],
        other_tricks=sum(pts[1:]),
        side_score=meld[0] + pts[0],
        other_score=sum(meld[1:]) + sum(pts[1:]),
    )
    rec.update(
        _stage="played",
        _meld=meld,
        _dix=[0] * players,
        _pts=pts,
        _won=won,
        _out=declared,
        _double_pinochle=[int(x) for x in double_pinochle],
    )


def referee(
    variant: Variant,
    trace: list[list[int]],
    seats: bool = False,
    need: list[int] | None = None,
    contract: tuple[int, ...] | None = None,
    table: Table | None = None,
):
    """The record (``simcore.kernels.hand_record.FIELDS``) of the traced hand, recomputed by :func:`hand_steps`
    with every decision taken from the trace; raises RuleBroken. With ``seats``, (record, what the hand
    adds to each seat's score line): its side's score with partners; with a bidder alone, each
    opponent's own kept meld and trick points. ``need``: what each seat needed to declare itself out
    (None: no declaring). ``contract``: as :func:`hand_steps` takes it, None for a hand
    bid as the rules say. ``table``: a fresh :class:`Table` to play the hand into, for a caller that
    reads what happened (the tricks, the sides), or how far the hand got when a rule broke."""
    table = Table(variant.players) if table is None else table
    feed = _TraceFeed(variant, [tuple(r) for r in trace], table, need)
    steps = hand_steps(variant, table, need, contract)
    try:
        request = next(steps)
        while True:
            request = steps.send(feed.answer(request))
    except StopIteration as done:
        rec = done.value
    feed.finish()
    return (rec, table.seat_scores) if seats else dict(table.rec)


#: Trace rows that carry a decision or a chance outcome; the others (the deal, redeals, contract,
#: meld, trick and score rows) are what the referee recomputes.
_MOVES = (
    h.T_BID,
    h.T_TRUMP,
    h.T_PASS,
    h.T_BURY,
    h.T_OUTCOME,
    h.T_PLAY,
    h.T_SHARE,
    h.T_CALL,
    h.T_DISCARD,
    h.T_DRAW,
    h.T_MELDED,
    h.T_EXCHANGE,
    h.T_OUT,
)
#: The trace row that answers each request kind: its code, whose it is ("seat": the deciding seat's, "to":
#: the seat the card goes to, None: nobody's) and the column holding the value (a yes-or-no choice: 1 when
#: the row is there).
_ROW = {
    "bid": (h.T_BID, "seat", 2),
    "forfeit": (h.T_OUTCOME, None, 1),
    "trump": (h.T_TRUMP, None, 1),
    "turn": (h.T_TRUMP, None, 2),
    "alone": (h.T_CALL, None, 1),
    "call": (h.T_CALL, None, 1),
    "swap": (h.T_EXCHANGE, "seat", 1),
    "share": (h.T_SHARE, "to", 2),
    "give": (h.T_PASS, "seat", 2),
    "bury": (h.T_BURY, "seat", 2),
    "discard": (h.T_DISCARD, "seat", 2),
    "draw": (h.T_DRAW, "to", 2),
    "throw_in": (h.T_OUTCOME, None, 1),
    "concede": (h.T_OUTCOME, None, 1),
    "play": (h.T_PLAY, "seat", 2),
    "dix": (h.T_MELDED, "seat", 1),
    "exchange": (h.T_EXCHANGE, "seat", 1),
    "meld": (h.T_MELDED, "seat", 2),
}
#: What else a row must say to answer a kind: the outcome a T_OUTCOME row carries, a bidder alone's call
#: of no card, a dix (or another meld) in a T_MELDED row.
_FITS = {
    "forfeit": lambda r: r[1] == h.FORFEITED_UNSEEN,
    "throw_in": lambda r: r[1] == h.CONCEDED,
    "concede": lambda r: r[1] == h.CONCEDED_BY_OPPONENTS,
    "alone": lambda r: r[1] == -1,
    "dix": lambda r: r[2] == STOCK_MELDS.index("dix"),
    "meld": lambda r: r[2] != STOCK_MELDS.index("dix"),
}


class _TraceFeed:
    """Answers :func:`hand_steps`' requests from a trace's rows, in order; a row that does not fit the
    request is a broken rule (or a broken trace), said in words."""

    def __init__(self, variant: Variant, rows: list[tuple], table: Table, need: list[int] | None):
        self.variant, self.table, self.need = variant, table, need
        players = variant.players
        self.hands = [[0] * N_TYPES for _ in range(players)]
        self.widow = [0] * N_TYPES
        self.redeals = 0
        for code, a, b, c in rows:
            if code == h.T_DEAL:
                (self.hands[a] if a < players else self.widow)[b] += c
            elif code == h.T_REDEAL:
                self.redeals = a
        named = variant.get("teams.kind") == "called_card" and variant.get("teams.call") == "named"
        self.rows = []
        for code, a, b, c in rows:  # one row per card: a pass, burial or discard of two copies is two
            if (
                code not in _MOVES
                or (code == h.T_CALL and not named)
                or (code == h.T_OUTCOME and a == h.SET_WITHOUT_PLAY)
            ):
                continue
            many = code in (h.T_PASS, h.T_BURY, h.T_DISCARD)
            self.rows += [(code, a, b, 1 if many else c)] * (c if many else 1)
        self.i = 0
        self.dealt = self.melded = False

    def _next(self) -> tuple | None:
        return self.rows[self.i] if self.i < len(self.rows) else None

    def answer(self, request: Request):
        kind, seat, row = request.kind, request.seat, self._next()
        if kind == "deal":
            if self.dealt:
                raise RuleBroken("everybody passed and the rules redeal, but the trace plays on")
            self.dealt = True
            return self.hands, self.widow, self.redeals
        code, whose, column = _ROW[kind]
        fits = row is not None and row[0] == code and _FITS.get(kind, bool)(row)
        who = {"seat": seat, "to": request.to, None: None}[whose]
        if kind in YES_NO:  # "no" leaves no row
            if not fits:
                return 0
            if who is not None and row[1] != who:
                if kind == "swap":
                    return 0  # a later seat exchanged
                raise RuleBroken(self._stray(row, request))
            if kind == "dix" and row[3] != self.variant.get("meld.dix"):
                raise RuleBroken(f"seat {seat} showed a dix it could not show")
            self._take()
            return 1
        if kind in ("discard", "meld") and not (fits and row[1] == who):
            if fits and kind == "meld":
                raise RuleBroken(self._stray(row, request))  # another seat melded
            return -1  # no more cards thrown away; no meld tabled
        if not fits or (who is not None and row[1] != who):
            raise RuleBroken(self._stray(row, request))
        self._take()
        if kind == "play":
            self.melded = False
        if kind == "meld":
            name = STOCK_MELDS[row[2]] if 0 <= row[2] < len(STOCK_MELDS) else str(row[2])
            if row[2] in request.legal and row[3] != meld_points(self.variant, name, self.table.trump):
                raise RuleBroken(f"seat {seat} scored {row[3]} for {name}")
            self.melded = True
        if kind == "turn":
            return self._turned(request, row)
        return row[column]

    def _turned(self, request: Request, row: tuple) -> int:
        """The card turned for trump: the trace names it with a stock or a dix exchange; otherwise only
        its suit matters, and any card of that suit in the pool stands for it."""
        v = self.variant
        if v.get("play.stock_play") or v.get("exchange.dix_for_turned"):
            card = row[2]
        else:
            card = next((c for c in request.legal if c // 6 == row[1]), -1)
        if v.get("play.stock_play") and card % 6 == 5 and v.get("meld.dix"):
            dealer = v.players - 1
            if self._next() != (h.T_MELDED, dealer, STOCK_MELDS.index("dix"), v.get("meld.dix")):
                raise RuleBroken("a turned dix must score for the dealer")
            self._take()
        return card

    def _take(self) -> tuple | None:
        row = self._next()
        self.i += 1
        return row

    def _stray(self, row: tuple | None, request: Request) -> str:
        """Why ``row`` does not answer ``request``."""
        seat, kind = request.seat, request.kind
        if row is None:
            return f"the trace ends where seat {request.to if seat == CHANCE else seat} should {kind}"
        code, a, b, c = row
        if code == h.T_OUT:
            return f"seat {a} declared out with {b}, needing {self.need[a] if self.need else 'nothing (no declaring)'}"
        if code == h.T_EXCHANGE and not self.variant.get("play.stock_play"):
            return f"seat {a} exchanged a dix for the turned card where the rules allow none, or out of turn"
        if code in (h.T_MELDED, h.T_EXCHANGE):
            last = self.table.tricks[-1][2] if self.table.tricks else -1
            if a != last:
                return f"seat {a} melded after a trick it did not win"
            return f"seat {a} made two melds in one turn" if self.melded else f"seat {a} melded out of turn"
        if code == h.T_OUTCOME:
            return f"the hand ends {h.OUTCOMES[a]} where the rules allow none here"
        if code == h.T_PLAY and a != seat:
            return f"seat {a} played out of turn"
        if code == h.T_BID and a != seat:
            return f"seat {a} bid out of turn"
        if kind == "draw":
            return f"seat {request.to} should draw, not the trace's row {row}"
        if kind == "share":
            return "the widow must go one card to each player, the bidder first"
        return f"seat {seat} should {kind}, but the trace has the row {row}"

    def finish(self) -> None:
        """The trace must end with the hand: a declaration out where the hand's was, no moves left."""
        declared = self.table.declared
        row = self._next()
        if declared is not None:
            if row is None or row[0] != h.T_OUT:
                raise RuleBroken(
                    f"seat {declared[0]} reached the {self.need[declared[0]]} it needed with "
                    f"{declared[1]} but did not declare out"
                )
            if row[1:3] != declared:
                raise RuleBroken(
                    f"seat {row[1]} declared out with {row[2]}; the hand says seat {declared[0]} with {declared[1]}"
                )
            self._take()
        if self.i != len(self.rows):
            raise RuleBroken(
                self._stray(self._next(), Request(-2, "end the hand", ()))
                if self._next()[0] in (h.T_OUT, h.T_MELDED, h.T_EXCHANGE)
                else f"moves left after the hand: {self.rows[self.i :]}"
            )
