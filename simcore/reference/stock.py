"""The stock melds of two-hand, written plainly from the rules (seeds/001 "Two-Hand Pinochle").

The stock play itself (free play while the stock lasts, then follow, win a trump lead, trump when void;
one dix shown and one meld after a won trick; the winner draws first, the last card drawn is the turned
one) is a phase of :func:`simcore.reference.hand.hand_steps`; this module holds what it needs about
melds tabled during play: which cards a meld takes (one meld after a won trick with at least one card
from the hand, a tabled card melding again only in another class, royal marriage then run but not the
reverse) and what it scores.

Each held copy is a set of the classes it has melded in ("run", "marriage", "around", "pinochle",
"dix"); an empty set is a card still in the hand. The copies a meld takes and the copy played to a
trick follow the convention in :mod:`simcore.kernels.stock`: the most used eligible copies, one of them swapped
for a fresh one if none came from the hand.
"""

from __future__ import annotations

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
        need = [
            (trump * 6 + r, n, {"run"} if r in (KING, QUEEN) else {"run", "marriage"})
            for r in (ACE, TEN, KING, QUEEN, JACK)
        ]
        return need, "run", "run", n
    if base == "royal_marriage" or base.startswith("marriage_"):
        s = trump if base == "royal_marriage" else SUIT_NAMES.index(base[-1])
        need = [(s * 6 + KING, 1, {"run", "marriage"}), (s * 6 + QUEEN, 1, {"run", "marriage"})]
        return need, "marriage", "royal_marriage" if s == trump else "marriage", 1
    if base == "pinochle":
        return [(QS, n, {"pinochle"}), (JD, n, {"pinochle"})], "pinochle", "pinochle", n
    rank = {"aces": ACE, "kings": KING, "queens": QUEEN, "jacks": JACK}[base.split("_")[0]]
    return [(s * 6 + rank, n, {"around"}) for s in range(4)], "around", base, n


def copy_weight(classes: set[str]) -> tuple[int, int]:
    """Order of copies, most used first: by number of classes, then by which (as the kernel's bits)."""
    bits = {"run": 1, "marriage": 2, "around": 4, "pinochle": 8, "dix": 16}
    return len(classes), sum(bits[c] for c in classes)


def take_meld(copies: list[list[set[str]]], name: str, trump: int, apply: bool = True) -> bool:
    """Table meld ``name`` from ``copies`` (per card type, a set per held copy) if the rules allow it;
    return whether they did (``apply`` False: only whether they would, ``copies`` untouched)."""
    need, klass, _, _ = meld_spec(name, trump)
    picks = []
    for card, n, barred in need:
        usable = sorted(
            (i for i, used in enumerate(copies[card]) if not used & barred),
            key=lambda i: copy_weight(copies[card][i]),
            reverse=True,
        )
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
    if not apply:
        return True
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
