"""The referee of a hand played with a stock (two-hand), written plainly from the rules.

It replays a traced hand (:func:`simcore.kernels.hand.trace_hand`): the turned card, every card played, every
meld, dix and exchange, every card drawn, a declaration out. It checks each against the rules of
seeds/001 "Two-Hand Pinochle" (free play while the stock lasts, then follow, win a trump lead, trump
when void; one meld after a won trick with at least one card from the hand, a tabled card melding
again only in another class, royal marriage then run but not the reverse; one dix shown per turn, the
exchange for a turned card that is not a nine; the winner draws first, the last card drawn is the
turned one) and recomputes the scores.

Each held copy is a set of the classes it has melded in ("run", "marriage", "around", "pinochle",
"dix"); an empty set is a card still in the hand. The copies a meld takes and the copy played to a
trick follow the convention in :mod:`simcore.kernels.stock`: the most used eligible copies, one of them swapped
for a fresh one if none came from the hand.
"""

from __future__ import annotations

from simcore.kernels import hand as h
from simcore.kernels.cards import N_TYPES
from simcore.kernels.stock import STOCK_MELDS
from simcore.reference.play import reference_legal, winning_position
from simcore.variants import Variant

ACE, TEN, KING, QUEEN, JACK, NINE = range(6)
SUIT_NAMES = "SHDC"
QS, JD = 0 * 6 + QUEEN, 2 * 6 + JACK


class RuleBroken(AssertionError):
    """The kernel took a decision the rules do not allow."""


def meld_spec(name: str, trump: int) -> tuple[list[tuple[int, int, set[str]]], str, str, int]:
    """What meld ``name`` takes: [(card, copies, classes a usable copy must not have melded in)], the
    class it melds in, and its (table row, multiplicity) for its points."""
    double = name.startswith("double_")
    base = name.removeprefix("double_")
    n = 2 if double else 1
    if base == "run":
        need = [(trump * 6 + r, n, {"run"} if r in (KING, QUEEN) else {"run", "marriage"})
                for r in (ACE, TEN, KING, QUEEN, JACK)]
        return need, "run", "run", n
    if base == "royal_marriage" or base.startswith("marriage_"):
        s = trump if base == "royal_marriage" else SUIT_NAMES.index(base[-1])
        need = [(s * 6 + KING, 1, {"run", "marriage"}), (s * 6 + QUEEN, 1, {"run", "marriage"})]
        return need, "marriage", "royal_marriage" if s == trump else "marriage", 1
    if base == "pinochle":
        return [(QS, n, {"pinochle"}), (JD, n, {"pinochle"})], "pinochle", "pinochle", n
    rank = {"aces": ACE, "kings": KING, "queens": QUEEN, "jacks": JACK}[base.split("_")[0]]
    return [(s * 6 + rank, n, {"around"}) for s in range(4)], "around", base, n


def _weight(classes: set[str]) -> tuple[int, tuple[str, ...]]:
    """Order of copies, most used first: by number of classes, then by which (as the kernel's bits)."""
    bits = {"run": 1, "marriage": 2, "around": 4, "pinochle": 8, "dix": 16}
    return len(classes), sum(bits[c] for c in classes)


def take_meld(copies: list[list[set[str]]], name: str, trump: int) -> bool:
    """Table meld ``name`` from ``copies`` (per card type, a set per held copy) if the rules allow it;
    return whether they did."""
    need, klass, _, _ = meld_spec(name, trump)
    picks = []
    for card, n, barred in need:
        usable = sorted((i for i, used in enumerate(copies[card]) if not used & barred),
                        key=lambda i: _weight(copies[card][i]), reverse=True)
        if len(usable) < n:
            return False
        picks.append((card, usable[:n], usable[n:]))
    if not any(not copies[card][i] for card, chosen, _ in picks for i in chosen):
        for card, chosen, rest in picks:
            fresh = [i for i in rest if not copies[card][i]]
            if fresh:
                chosen[-1] = fresh[0]
                break
        else:
            return False  # every meld takes at least one card from the hand
    for card, chosen, _ in picks:
        for i in chosen:
            copies[card][i] = copies[card][i] | {klass}
    return True


def meld_points(variant: Variant, name: str, trump: int) -> int:
    """Points of meld ``name`` (0: not a meld here; a marriage in trump is the royal marriage)."""
    if name.startswith("marriage_") and SUIT_NAMES.index(name[-1]) == trump:
        return 0
    _, _, row, n = meld_spec(name, trump)
    return variant.meld_value(row, n)


def referee_stock(variant: Variant, rows: list[tuple[int, int, int, int]], hands: list[list[int]],
                  stock: list[int], rec: dict, need: list[int] | None) -> dict:
    """Finish ``rec`` for a hand with a stock from its trace ``rows``; ``hands`` and ``stock`` are the
    dealt cards. ``need``: what each seat needed to declare out (None: declaring was not allowed)."""
    players = variant.players
    points = [int(p) for p in variant.trick_points]
    dix_value = variant.get("meld.dix")
    unit, up_from = variant.get("tricks.round_to"), variant.get("tricks.round_up_from")

    def counted(pts: int) -> int:
        if not unit:
            return pts
        return (pts // unit + (pts % unit >= up_from)) * unit

    trump_row = next(r for r in rows if r[0] == h.T_TRUMP)
    trump, turned = trump_row[1], trump_row[2]
    if stock[turned] <= 0 or turned // 6 != trump:
        raise RuleBroken(f"turned card {turned} is not in the stock, or trump {trump} is not its suit")
    stock[turned] -= 1
    copies = [[[set() for _ in range(hands[s][t])] for t in range(N_TYPES)] for s in range(players)]
    meld = [0] * players
    double_pinochle = [0] * players
    pts, won = [0] * players, [0] * players
    n_tricks = sum(hands[0]) + (sum(stock) + 1) // players
    stock_tricks = (sum(stock) + 1) // players
    after = rows[rows.index(trump_row) + 1:]
    dealer = players - 1
    if turned % 6 == NINE and dix_value:
        if not after or after[0] != (h.T_MELDED, dealer, STOCK_MELDS.index("dix"), dix_value):
            raise RuleBroken("a turned dix must score for the dealer")
        meld[dealer] += dix_value
        after = after[1:]
    moves = [r for r in after if r[0] in (h.T_PLAY, h.T_MELDED, h.T_EXCHANGE, h.T_DRAW, h.T_OUT)]

    i = 0
    leader, declared = 0, -1
    if moves and moves[0][0] == h.T_OUT:  # the dealer's turned dix took him out before play
        if need is None or moves[0][1] != dealer or meld[dealer] < need[dealer]:
            raise RuleBroken(f"seat {moves[0][1]} declared out before play")
        declared, i = dealer, 1
    for k in range(n_tricks):
        if declared >= 0:
            break
        trick = []
        for j in range(players):
            if i >= len(moves) or moves[i][0] != h.T_PLAY:
                raise RuleBroken(f"trick {k}: expected a card from seat {(leader + j) % players}")
            _, seat, card, _ = moves[i]
            i += 1
            if seat != (leader + j) % players:
                raise RuleBroken(f"seat {seat} played out of turn")
            if k < stock_tricks:
                if hands[seat][card] <= 0:
                    raise RuleBroken(f"seat {seat} played card {card}, which it does not hold")
            elif card not in reference_legal(hands[seat], trick, trump, variant):
                raise RuleBroken(f"seat {seat} played an illegal card {card} to {trick} in the playoff")
            held = copies[seat][card]
            held.remove(max(held, key=_weight))
            hands[seat][card] -= 1
            trick.append(card)
        winner = (leader + winning_position(trick, trump)) % players
        pts[winner] += sum(points[c] for c in trick) + (variant.last_trick if k == n_tricks - 1 else 0)
        won[winner] += 1
        leader = winner
        if k < stock_tricks:  # the winner's turn to meld: one dix, one meld
            dix_shown = tabled = False
            while i < len(moves) and moves[i][0] in (h.T_MELDED, h.T_EXCHANGE):
                code, seat, what, value = moves[i]
                i += 1
                if seat != winner:
                    raise RuleBroken(f"seat {seat} melded after a trick it did not win")
                if code == h.T_EXCHANGE:
                    dixes = [c for c in copies[seat][trump * 6 + NINE] if c == {"dix"}]
                    if not dix_shown or what != turned or turned % 6 == NINE or not dixes:
                        raise RuleBroken(f"seat {seat} exchanged for the turned card without showing a dix")
                    copies[seat][trump * 6 + NINE].remove({"dix"})
                    hands[seat][trump * 6 + NINE] -= 1
                    copies[seat][turned].append(set())
                    hands[seat][turned] += 1
                    turned = trump * 6 + NINE
                    continue
                name = STOCK_MELDS[what]
                if name == "dix":
                    fresh = [c for c in copies[seat][trump * 6 + NINE] if "dix" not in c]
                    if dix_shown or not fresh or value != dix_value:
                        raise RuleBroken(f"seat {seat} showed a dix it could not show")
                    fresh[0].add("dix")
                    dix_shown = True
                else:
                    if tabled:
                        raise RuleBroken(f"seat {seat} made two melds in one turn")
                    if not take_meld(copies[seat], name, trump):
                        raise RuleBroken(f"seat {seat} melded {name}, which the rules do not allow now")
                    if value != meld_points(variant, name, trump) or value <= 0:
                        raise RuleBroken(f"seat {seat} scored {value} for {name}")
                    tabled = True
                    double_pinochle[seat] |= name == "double_pinochle"
                meld[seat] += value
        if i < len(moves) and moves[i][0] == h.T_OUT:
            seat, count = moves[i][1], moves[i][2]
            i += 1
            if need is None or seat != winner or count != meld[seat] + counted(pts[seat]) or count < need[seat]:
                raise RuleBroken(f"seat {seat} declared out with {count}, needing {need and need[seat]}")
            declared = seat
            break
        if need is not None and need[winner] > 0 and meld[winner] + counted(pts[winner]) >= need[winner]:
            raise RuleBroken(f"seat {winner} reached what it needed but did not declare out")
        if k < stock_tricks:
            for j in range(players):
                seat = (winner + j) % players
                if i >= len(moves) or moves[i][0] != h.T_DRAW or moves[i][1] != seat:
                    raise RuleBroken(f"trick {k}: seat {seat} should draw")
                card = moves[i][2]
                i += 1
                if sum(stock) > 0:
                    if stock[card] <= 0:
                        raise RuleBroken(f"seat {seat} drew card {card}, which the stock does not hold")
                    stock[card] -= 1
                elif card != turned:
                    raise RuleBroken(f"seat {seat} must take the turned card last, not {card}")
                hands[seat][card] += 1
                copies[seat][card].append(set())
    if i != len(moves):
        raise RuleBroken(f"moves left after the hand: {moves[i:]}")
    if declared < 0 and any(hands[s][t] for s in range(players) for t in range(N_TYPES)):
        raise RuleBroken("not every card was played")
    pts = [counted(p) for p in pts]
    rec.update(outcome=h.DECLARED_OUT if declared >= 0 else h.PLAYED, made=-1,
               side_meld=meld[0], other_meld=sum(meld[1:]), side_tricks=pts[0], other_tricks=sum(pts[1:]),
               side_score=meld[0] + pts[0], other_score=sum(meld[1:]) + sum(pts[1:]))
    rec.update(_stage="played", _meld=meld, _dix=[0] * players, _pts=pts, _won=won, _out=declared,
               _double_pinochle=[int(x) for x in double_pinochle])
    return rec
