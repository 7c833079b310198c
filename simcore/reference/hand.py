"""The reference referee of a full hand: replays the kernel's decisions and recomputes everything else.

Given a traced hand (:func:`simcore.kernels.hand.trace_hand`), it takes the decisions — bids, trump, cards
passed and buried, cards played — and checks each against the rules as plainly written (a bid must top
the last one by a legal step, a card played must be held and legal), then recomputes the melds with the
reference scorer, the trick winners and points, and the score, and returns the hand's record. For the
same decisions the kernel and the referee must produce the same record.
"""

from __future__ import annotations

from simcore.kernels import hand as h
from simcore.kernels.cards import JACK_OF_DIAMONDS, N_TYPES, QUEEN_OF_SPADES
from simcore.reference.meld import reference_checks, reference_total
from simcore.reference.play import reference_legal, winning_position
from simcore.reference.stock import RuleBroken, referee_stock
from simcore.variants import Variant


def _next_bid(high: int, variant: Variant) -> int:
    if high == 0:
        return variant.get("auction.min_bid")
    step_from = variant.get("auction.step_from")
    if step_from and high >= step_from:
        step = variant.get("auction.step_after")
        return (high // step + 1) * step
    return high + variant.get("auction.step")


def referee(variant: Variant, trace: list[list[int]], seats: bool = False, need: list[int] | None = None,
            contract: tuple[int, int] | None = None):
    """The record (``simcore.kernels.hand.FIELDS``) of the traced hand, recomputed; raises RuleBroken. With
    ``seats``, (record, what the hand adds to each seat's score line): its side's score with partners;
    with a bidder alone, each opponent's own kept meld and trick points. ``need``: what each seat
    needed to declare itself out (None: no declaring). ``contract``: (seat, bid) set without an
    auction (``pinochle advise``), None for a hand bid as the rules say."""
    rec = _referee(variant, trace, need, contract)
    return (rec, _seat_scores(variant, rec)) if seats else {k: v for k, v in rec.items()
                                                           if not k.startswith("_")}


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
                out.append({"meld": meld, "nothing": 0,
                            "meld_and_tricks": meld + variant.trick_total // (players - 1)}[opp] + bonus)
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
    return (rule == "nothing" or (rule == "trick" and tricks_won > 0)
            or (rule == "points" and trick_points >= variant.get("scoring.save_meld_points")))


def _referee(variant: Variant, trace: list[list[int]], need: list[int] | None,
             contract: tuple[int, int] | None = None) -> dict:
    """The record of the traced hand, phase by phase as :func:`simcore.kernels.hand.play_hand` plays it (one
    function of the same name per phase), with the seat rows ``_side``, ``_meld``, ``_dix``,
    ``_double_pinochle``, ``_checks``, ``_pts``, ``_won`` and the ``_stage`` the hand was scored at."""
    rows = [tuple(r) for r in trace]
    rec = dict.fromkeys(h.FIELDS, 0)
    hands, widow = _deal_and_redeal(variant, rows, rec)
    bidder, bid = _auction(variant, rows, rec, contract)
    if _forfeit_unseen(variant, rows, bidder, bid, rec, contract is not None):
        return rec
    trump, side, partner = _trump_and_partner(variant, rows, hands, widow, bidder, rec)
    if variant.get("play.stock_play"):  # melds during play: simcore/reference/stock.py
        return referee_stock(variant, rows, hands, widow, rec, need)
    if trump < 0:
        return _score_no_trump(variant, hands, widow, side, bidder, bid, rec)
    buried, swapper = _exchange(variant, rows, hands, widow, bidder, partner, trump)
    meld, dix = _meld(variant, hands, trump, side, partner, bidder, swapper, rec)
    if _without_play(variant, rows, bidder, bid, meld, rec):
        return rec
    tricks_pts, tricks_won = _tricks(variant, rows, hands, trump, side, bidder, buried, rec, need)
    return _score(variant, meld, dix, tricks_pts, tricks_won, bidder, bid, rec)


def _deal_and_redeal(variant: Variant, rows: list[tuple], rec: dict) -> tuple[list[list[int]], list[int]]:
    """(hands, widow) as dealt (the trace keeps only the deal played); records the redeals."""
    players = variant.players
    hands = [[0] * N_TYPES for _ in range(players)]
    widow = [0] * N_TYPES
    for code, a, b, c in rows:
        if code == h.T_DEAL:
            (hands[a] if a < players else widow)[b] += c
        elif code == h.T_REDEAL:
            rec["redeals"] = a
    return hands, widow


def _auction(variant: Variant, rows: list[tuple], rec: dict, contract: tuple[int, int] | None = None
             ) -> tuple[int, int]:
    """(bidder, bid): each bid tops the last by a legal step, nobody bids after passing, and the
    contract is the last bid's, or with no auction none, or when everybody passed the forced bid
    (a redeal leaves no bids in the trace); a set ``contract`` is the contract, with no bids."""
    high, high_seat, out = 0, -1, set()
    cap = variant.get("auction.max_opening")
    first = True
    for code, a, b, _ in rows:
        if code == h.T_BID:
            if a in out:
                raise RuleBroken(f"seat {a} bid after passing")
            if first and variant.get("auction.opening_forced") and (a != 0 or b == 0):
                raise RuleBroken("the player on the dealer's left must open the bidding")
            first = False
            allowed = [_next_bid(high, variant)]
            for _ in range(variant.get("auction.jump_steps")):
                allowed.append(_next_bid(allowed[-1], variant))
            if high == 0 and cap:
                allowed = [x for x in allowed if x <= cap] or allowed[:1]
            if b == 0:
                out.add(a)
            elif b not in allowed:
                raise RuleBroken(f"seat {a} bid {b}; the next legal bid was {allowed[0]}")
            else:
                high, high_seat = b, a
        elif code == h.T_CONTRACT:
            bidder, bid = a, b
    kind = variant.get("auction.kind")
    if contract is not None:
        if high_seat >= 0 or out:
            raise RuleBroken(f"bids were made on the set contract {contract}")
        expected = tuple(contract)
    elif kind == "none":
        expected = (-1, 0)
    elif high_seat >= 0:
        expected = (high_seat, high)
    else:
        forced = {"dealer_left_takes": 0, "dealer_forced": variant.players - 1}[variant.get("auction.all_pass")]
        expected = (forced, variant.forced_bid)
    if (bidder, bid) != expected:
        raise RuleBroken(f"contract {(bidder, bid)} but the auction gave {expected}")
    rec["bidder"], rec["bid"] = bidder, bid
    return bidder, bid


def _forfeit_unseen(variant: Variant, rows: list[tuple], bidder: int, bid: int, rec: dict, set_contract: bool = False
                    ) -> bool:
    """seeds/001 'Auction Pinochle': "If all the players pass on the compulsory 300 bid, the bidder may
    forfeit without looking at the widow, in which case he pays the basic unit value (3 chips) to the
    kitty but nothing to the other players." True when the hand ended so, scored: the bid lost as on a
    throw-in (``scoring.concede_loses_bid``), nothing to anyone else, no trump named."""
    if not any(code == h.T_OUTCOME and a == h.FORFEITED_UNSEEN for code, a, b, c in rows):
        return False
    if not variant.get("scoring.forfeit_unseen"):
        raise RuleBroken("a forfeit before the widow where the rules allow none")
    if (set_contract or bidder < 0 or bid != variant.get("auction.min_bid")
            or any(code == h.T_TRUMP for code, a, b, c in rows)):
        raise RuleBroken(f"a forfeit unseen of a contract of {bid}: only the compulsory opening at the "
                         f"minimum, before trump, may be forfeited so")
    rec.update(outcome=h.FORFEITED_UNSEEN, trump=-1, made=0, other_score=0,
               side_score=-bid if variant.get("scoring.concede_loses_bid") else 0,
               _side=[int(s == bidder) for s in range(variant.players)], _stage="unmelded")
    return True


def _trump_and_partner(variant: Variant, rows: list[tuple], hands: list[list[int]], widow: list[int], bidder: int,
                       rec: dict) -> tuple[int, list[int], int]:
    """(trump, side, partner): side[s] 1 for the bidder's side (with no auction, seat 0's); the
    partner across with partners, the called card's first holder to the bidder's left with a called
    card, else -1. With a stock or no trump, stops at trump. With ``exchange.trump_after_widow`` the
    bidder names trump and calls holding the widow too."""
    players = variant.players
    anchor = max(bidder, 0)
    if variant.get("teams.kind") == "partners_across":
        side = [1 if (s - anchor) % 2 == 0 else 0 for s in range(players)]
    else:
        side = [1 if s == anchor else 0 for s in range(players)]
    partner = (bidder + players // 2) % players if variant.get("teams.kind") == "partners_across" else -1

    trump = next(a for code, a, b, c in rows if code == h.T_TRUMP)
    rec["trump"] = trump
    rec["_side"], rec["_stage"] = side, "unmelded"
    if variant.get("play.stock_play") or trump < 0:
        return trump, side, partner
    if bidder >= 0:
        rec["bidder_meld"] = reference_total(hands[bidder], trump, variant)
    calls = [(a, b) for code, a, b, c in rows if code == h.T_CALL]
    if variant.get("teams.kind") == "called_card" and bidder >= 0:
        if len(calls) != 1:
            raise RuleBroken("the bidder must name one card to find his partner")
        card, partner = calls[0]

        def first_holder(c: int) -> int:
            return next((s for s in ((bidder + i) % players for i in range(1, players)) if hands[s][c] > 0), -1)

        if variant.get("teams.call") == "named" and card < 0:
            if not variant.get("teams.may_play_alone"):
                raise RuleBroken("the bidder named no card, but the rules do not let him play alone")
            expected = -1
        elif variant.get("teams.call") == "named":
            if _bidder_hand(variant, hands, widow, bidder)[card] >= variant.deck_copies[card]:
                raise RuleBroken("the bidder named a card he holds every copy of")
            expected = first_holder(card)
        else:  # the ace of trump, else the ten, and so on down the trump suit
            ranks = [trump * 6 + r for r in range(6) if variant.deck_copies[trump * 6 + r]]
            expected = next((first_holder(c) for c in ranks if first_holder(c) >= 0), -1)
        if partner != expected:
            raise RuleBroken(f"seat {partner} became partner, but the rules make it seat {expected}")
        if partner >= 0:
            side[partner] = 1
    elif calls:
        raise RuleBroken("a card named for a partner where the rules call none")
    return trump, side, partner


def _bidder_hand(variant: Variant, hands: list[list[int]], widow: list[int], bidder: int) -> list[int]:
    """The bidder's hand when he names trump: as dealt, or with the widow where he takes it first."""
    if variant.get("exchange.trump_after_widow") and variant.get("exchange.widow_to_bidder"):
        return [a + b for a, b in zip(hands[bidder], widow)]
    return hands[bidder]


def _exchange(variant: Variant, rows: list[tuple], hands: list[list[int]], widow: list[int], bidder: int,
              partner: int, trump: int) -> tuple[list[int], int]:
    """(the cards buried, copy counts; the seat that exchanged a dix for the turned card, -1: none), after
    the dix exchange, the widow shared out, the partners' pass, the widow to the bidder and discard and
    draw have changed ``hands``."""
    swapper = _swap_dix(variant, rows, hands, trump)
    _share_widow(variant, rows, hands, widow, bidder)
    buried = _pass_and_bury(variant, rows, hands, widow, bidder, partner)
    _discard_and_draw(variant, rows, hands, widow, bidder)
    return buried, swapper


def _swap_dix(variant: Variant, rows: list[tuple], hands: list[list[int]], trump: int) -> int:
    """seeds/001 'Partnership Pinochle': "Each player in turn, beginning with the player on the dealer's
    left, has the right to exchange the dix (nine of trumps) for the trump card. The trump card, or the
    dix exchanged for it, then becomes part of the dealer's hand." Returns who exchanged (-1: nobody)."""
    swaps = [(a, b) for code, a, b, c in rows if code == h.T_EXCHANGE]
    if not swaps:
        return -1
    if not variant.get("exchange.dix_for_turned") or len(swaps) > 1:
        raise RuleBroken("a dix exchanged for the turned card where the rules allow none, or twice")
    (seat, card), dealer = swaps[0], variant.players - 1
    turned = next(b for code, a, b, c in rows if code == h.T_TRUMP)
    dix = trump * 6 + 5
    if card != turned or card // 6 != trump or card == dix or hands[dealer][card] < 1:
        raise RuleBroken(f"{card} exchanged, but the dealer's turned card was {turned}")
    if seat == dealer or hands[seat][dix] < 1:
        raise RuleBroken(f"seat {seat} exchanged a dix it does not hold for the turned card")
    hands[seat][dix] -= 1
    hands[seat][card] += 1
    hands[dealer][card] -= 1
    hands[dealer][dix] += 1
    return seat


def _share_widow(variant: Variant, rows: list[tuple], hands: list[list[int]], widow: list[int],
                 bidder: int) -> None:
    """A shared-out widow: one card to each player, the bidder's own pick first."""
    players = variant.players
    shares = [(a, b) for code, a, b, c in rows if code == h.T_SHARE]
    if variant.get("exchange.widow_shared") and bidder >= 0:
        if sorted(b for _, b in shares) != [t for t in range(N_TYPES) for _ in range(widow[t])]:
            raise RuleBroken("the cards shared out are not the widow")
        if sorted(a for a, _ in shares) != list(range(players)) or shares[0][0] != bidder:
            raise RuleBroken("the widow must go one card to each player, the bidder first")
        for seat, card in shares:
            hands[seat][card] += 1
    elif shares:
        raise RuleBroken("a widow shared out where the rules share none")


def _pass_and_bury(variant: Variant, rows: list[tuple], hands: list[list[int]], widow: list[int], bidder: int,
                   partner: int) -> list[int]:
    """Passes go partner -> bidder, then bidder -> partner; a burial leaves the bidder, who takes the
    widow (with ``exchange.trump_after_widow`` before naming trump, so before the passes). Returns the
    cards buried."""
    buried = [0] * N_TYPES
    widow_first = variant.get("exchange.trump_after_widow") and variant.get("exchange.widow_to_bidder") and bidder >= 0
    if widow_first:
        hands[bidder] = _bidder_hand(variant, hands, widow, bidder)
    before = [list(hand) for hand in hands]
    if variant.get("exchange.pass_called_card") and partner >= 0:  # seeds/000: "The partner gives them the card"
        called = next(a for code, a, b, c in rows if code == h.T_CALL)
        given = [(b, c) for code, a, b, c in rows if code == h.T_PASS and a == partner]
        if given != [(called, 1)]:
            raise RuleBroken(f"the partner passed {given}, not the card asked for ({called})")
    for code, a, b, c in rows:
        if code == h.T_PASS and variant.get("exchange.simultaneous") and before[a][b] < c:
            raise RuleBroken(f"seat {a} passed back a card it only received in the simultaneous pass")
        if code == h.T_PASS:
            if partner < 0 or a not in (bidder, partner):
                raise RuleBroken(f"seat {a} passed cards but is neither the bidder nor his partner")
            to = bidder if a != bidder else partner
            if hands[a][b] < c:
                raise RuleBroken(f"seat {a} passed a card it does not hold")
            hands[a][b] -= c
            hands[to][b] += c
        elif code == h.T_BURY:
            if a != bidder:
                raise RuleBroken("only the bidder buries")
            buried[b] += c
    if variant.get("exchange.widow_to_bidder") and bidder >= 0:
        for t in range(N_TYPES):
            hands[bidder][t] += (0 if widow_first else widow[t]) - buried[t]
            if hands[bidder][t] < 0:
                raise RuleBroken("the bidder buried a card he does not hold")
    return buried


def _discard_and_draw(variant: Variant, rows: list[tuple], hands: list[list[int]], widow: list[int],
                      bidder: int) -> None:
    """Discard and draw: from the bidder round, each throws at most his share and draws as many."""
    players = variant.players
    moves = [(code, a, b, c) for code, a, b, c in rows if code in (h.T_DISCARD, h.T_DRAW)]
    if moves and not (variant.get("exchange.draw") and bidder >= 0):
        raise RuleBroken("cards drawn where the rules have no draw")
    if variant.get("exchange.draw") and bidder >= 0:
        stock = list(widow)
        most = min(variant.hand_size, sum(stock) // players)
        order = [(bidder + i) % players for i in range(players)]
        thrown = {s: 0 for s in order}
        drawn = {s: 0 for s in order}
        last = -1
        for code, a, b, c in moves:
            if order.index(a) < last:
                raise RuleBroken(f"seat {a} drew out of turn")
            last = order.index(a)
            if code == h.T_DISCARD:
                if drawn[a] or hands[a][b] < c:
                    raise RuleBroken(f"seat {a} threw away a card he does not hold")
                hands[a][b] -= c
                thrown[a] += c
            else:
                if stock[b] < c:
                    raise RuleBroken(f"seat {a} drew a card the stock does not hold")
                stock[b] -= c
                hands[a][b] += c
                drawn[a] += c
        for s in order:
            if thrown[s] > most or drawn[s] != thrown[s]:
                raise RuleBroken(f"seat {s} threw {thrown[s]} and drew {drawn[s]} (at most {most}, as many as thrown)")


def _meld(variant: Variant, hands: list[list[int]], trump: int, side: list[int], partner: int, bidder: int,
          swapper: int, rec: dict) -> tuple[list[int], list[int]]:
    """(meld, dix) by side (index 1 = the bidder's), the meld 0 below the minimum that counts; each
    seat's meld, dix and double pinochle into ``rec``. A dix exchanged for the turned card scores the
    ``swapper``, not the dealer: "each original holder of a dix scores 10, whether or not it was
    exchanged" (seeds/001)."""
    players = variant.players
    meld, dix = [0, 0], [0, 0]
    rec["_meld"], rec["_dix"], rec["_double_pinochle"], rec["_checks"] = [], [], [], []
    for s in range(players):
        moved = int(s == swapper) - int(swapper >= 0 and s == players - 1)  # the dix scores its original holder
        m = reference_total(hands[s], trump, variant) + moved * int(variant.meld_flags()[0])
        d = (int(hands[s][trump * 6 + 5]) + moved) * int(variant.meld_flags()[0])
        two = int(hands[s][QUEEN_OF_SPADES] >= 2 and hands[s][JACK_OF_DIAMONDS] >= 2)  # a double pinochle or more
        if (s == partner and variant.get("teams.kind") == "called_card"
                and not variant.get("scoring.partner_meld_counts")):
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
        rec["trump_len"] = sum(hands[bidder][trump * 6: trump * 6 + 6])
        rec["aces"] = sum(hands[bidder][s * 6] for s in range(4))
    rec["side_meld"], rec["other_meld"] = meld[1], meld[0]
    least = variant.get("scoring.min_meld_to_count")
    return [m if m >= least else 0 for m in meld], dix


def _without_play(variant: Variant, rows: list[tuple], bidder: int, bid: int, meld: list[int], rec: dict) -> bool:
    """True when the hand ended unplayed, set without play, thrown in or conceded to the bidder, and the
    rules allowed that; scores it."""
    outcome = next((a for code, a, b, c in rows if code == h.T_OUTCOME), h.PLAYED)
    if outcome == h.PLAYED and bidder >= 0 and meld[1] < variant.get("scoring.min_meld_to_play"):
        raise RuleBroken("played a hand whose bidding side lacked the meld to play it")
    if outcome == h.PLAYED:
        return False
    short_by = variant.get("scoring.set_if_short_by")
    too_little = meld[1] < variant.get("scoring.min_meld_to_play")
    if outcome == h.SET_WITHOUT_PLAY and not (short_by and bid - meld[1] > short_by) and not too_little:
        raise RuleBroken("set without play although the meld was within reach")
    if outcome == h.CONCEDED and not variant.get("scoring.concede"):
        raise RuleBroken("a throw-in where the rules allow none")
    forced = not any(code == h.T_BID and b > 0 for code, a, b, c in rows)  # everybody passed
    if outcome == h.CONCEDED and variant.get("scoring.concede_only_forced") and not forced:
        raise RuleBroken("a throw-in by a bidder who bid; the rules allow one only to a bidder forced to take the hand")
    if outcome == h.CONCEDED and bid - meld[1] < variant.get("scoring.concede_short_by"):
        raise RuleBroken(f"a throw-in {bid - meld[1]} short of the bid; the rules allow one from "
                         f"{variant.get('scoring.concede_short_by')} short")
    if outcome == h.CONCEDED_BY_OPPONENTS and not variant.get("scoring.opponents_concede"):
        raise RuleBroken("the opponents conceded the contract where the rules do not let them")
    opp = variant.get("scoring.opponents_on_concede")
    conceded = outcome == h.CONCEDED
    lost = -bid if not conceded or variant.get("scoring.concede_loses_bid") else 0
    # "In this event, the bidder collects the value of the bid": he scores his bid, never more
    rec.update(outcome=outcome, made=int(outcome == h.CONCEDED_BY_OPPONENTS),
               side_score=bid if outcome == h.CONCEDED_BY_OPPONENTS else lost,
               other_score={"meld": meld[0], "nothing": 0,
                            "meld_and_tricks": meld[0] + variant.trick_total}[opp]
               + (variant.get("scoring.concede_bonus") if conceded else 0))
    return True


def _tricks(variant: Variant, rows: list[tuple], hands: list[list[int]], trump: int, side: list[int], bidder: int,
            buried: list[int], rec: dict, need: list[int] | None = None) -> tuple[list[int], list[int]]:
    """(trick points, tricks won) by side: every card played in turn, held and legal, each trick to
    its winner; buried cards count for the bidder. Each seat's into ``rec``. With ``need`` (what each
    seat's score line needs to win the game) the winner of a trick whose line then has that much in
    meld and trick points declares out and play stops (seeds/001 'Partnership Pinochle': "Play then
    stops, and the cards are counted to verify the claim")."""
    players = variant.players
    points = [int(p) for p in variant.trick_points]
    plays = [(a, b) for code, a, b, c in rows if code == h.T_PLAY]
    tricks_pts = [0, sum(points[t] * buried[t] for t in range(N_TYPES))]
    tricks_won = [0, 0]
    rec["_stage"] = "played"
    rec["_pts"], rec["_won"] = [0] * players, [0] * players
    if bidder >= 0:
        rec["_pts"][bidder] = tricks_pts[1]  # the buried cards
    leader = bidder if (variant.get("play.lead") == "bidder" and bidder >= 0) else 0
    n_tricks, last = len(plays) // players, sum(hands[0]) - 1  # tricks played; the hand's last trick
    outs = [(a, b) for code, a, b, c in rows if code == h.T_OUT]
    if n_tricks != last + 1 and not outs:
        raise RuleBroken("not every card was played")
    partners = variant.get("teams.kind") == "partners_across"
    broken = False
    for k in range(n_tricks):
        trick = []
        for i in range(players):
            seat, card = plays[k * players + i]
            if seat != (leader + i) % players:
                raise RuleBroken(f"seat {seat} played out of turn")
            ahead = (leader + winning_position(trick, trump)) % players if trick else -1
            teams = variant.get("teams.kind") != "bidder_alone"
            partner_winning = teams and ahead >= 0 and side[ahead] == side[seat]
            if card not in reference_legal(hands[seat], trick, trump, variant, partner_winning):
                raise RuleBroken(f"seat {seat} played an illegal card {card} to {trick}")
            if (k == 0 and i == 0 and seat == bidder and variant.get("play.bidder_leads_trump")
                    and card // 6 != trump and any(hands[seat][trump * 6: trump * 6 + 6])):
                raise RuleBroken("the bidder must open with a trump")
            if (i == 0 and variant.get("play.trump_led_once_broken") and not broken
                    and card // 6 == trump and sum(hands[seat]) > sum(hands[seat][trump * 6: trump * 6 + 6])):
                raise RuleBroken("trump led before it was broken")
            broken = broken or card // 6 == trump
            hands[seat][card] -= 1
            trick.append(card)
        winner = (leader + winning_position(trick, trump)) % players
        taken = sum(points[c] for c in trick) + (variant.last_trick if k == last else 0)
        tricks_pts[side[winner]] += taken
        tricks_won[side[winner]] += 1
        rec["_pts"][winner] += taken
        rec["_won"][winner] += 1
        leader = winner
        line = [s for s in range(players) if (side[s] == side[winner] if partners else s == winner)]
        meld = sum(rec["_meld"][s] for s in line)
        total = (meld if meld >= variant.get("scoring.min_meld_to_count") else 0) + sum(rec["_pts"][s] for s in line)
        if need is not None and need[winner] > 0 and total >= need[winner]:
            if k != n_tricks - 1 or outs != [(winner, total)]:
                raise RuleBroken(f"seat {winner} reached the {need[winner]} it needed with {total} but play went on")
            rec["outcome"] = h.DECLARED_OUT
    if outs and rec["outcome"] != h.DECLARED_OUT:
        raise RuleBroken(f"seat {outs[0][0]} declared out with {outs[0][1]}, needing {need and need[outs[0][0]]}")
    rec["side_tricks"], rec["other_tricks"] = tricks_pts[1], tricks_pts[0]
    rec["_buried"] = sum(points[t] * buried[t] for t in range(N_TYPES))
    return tricks_pts, tricks_won


def _score(variant: Variant, meld: list[int], dix: list[int], tricks_pts: list[int], tricks_won: list[int],
           bidder: int, bid: int, rec: dict) -> dict:
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
    rec["side_score"] = (kept(1) + tricks_pts[1] + (bid if variant.get("scoring.bid_added") else 0)
                         if made else -bid + (dix[1] if variant.get("scoring.dix_kept_when_set") else 0))
    return rec


def _score_no_trump(variant: Variant, hands: list[list[int]], widow: list[int], side: list[int], bidder: int,
                    bid: int, rec: dict) -> dict:
    """A hand stopped at trump: the bidder named none, which only a bidder without a marriage may. The
    other side scores nothing, or (``scoring.opponents_no_trump = "meld"``) its meld under the suit
    best for it, where that reaches the minimum that counts."""
    held = _bidder_hand(variant, hands, widow, bidder)
    if any(held[s * 6 + 2] and held[s * 6 + 3] for s in range(4)):
        raise RuleBroken("the bidder held a marriage but named no trump")
    other = 0
    if variant.get("scoring.opponents_no_trump") == "meld":
        others = [s for s in range(variant.players) if side[s] == 0]
        other = max(sum(reference_total(hands[s], t, variant) for s in others) for t in range(4))
        other = other if other >= variant.get("scoring.min_meld_to_count") else 0
    rec.update(outcome=h.NO_TRUMP_MARRIAGE, made=0, side_score=-bid, other_score=other)
    return rec
