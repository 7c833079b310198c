"""The named house-rule questions of ``pinochle compare --question``: what each sets on sides A and B.

Plain data with no numerical import, so ``pinochle compare --help`` can list every question and the
keys it changes without loading numpy or numba; :mod:`simcore.answers.compare` answers them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The size of a question asked in the mode that is not its own: games or hands played on each side.
DEFAULT_SIZE = {"games": 40_000, "hands": 400_000}


@dataclass(frozen=True)
class Question:
    """A named house-rule question: one system, A and B as overrides of it, the mode it is asked in by
    default (``mode``, at ``size``), the modes that make sense for it (``modes``: a rule that acts only
    at a game's end changes no single hand), and the measure to lead the verdict with."""

    title: str
    variant: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    mode: str = "games"
    size: int = 40_000
    headline: str = "first dealer's left wins"
    modes: tuple[str, ...] = ("games", "hands")

    @property
    def keys(self) -> list[str]:
        """The rules keys A or B sets, in order."""
        return list(dict.fromkeys(o.split("=", 1)[0].strip() for o in self.a + self.b))

    def changes(self) -> str:
        """What the question sets, in words: ``A key=value, B key=value`` (A is the system unchanged when
        it sets nothing)."""

        def side(name: str, overrides: tuple[str, ...]) -> str:
            return f"{name} " + (", ".join(overrides) if overrides else "as shipped")

        return f"{side('A', self.a)}; {side('B', self.b)}"


QUESTIONS: dict[str, Question] = {
    "five-nines-redeal": Question(
        "Five-nines redeal on (A) or off (B), four-hand-150", "four-hand-150", (), ("redeal.min_nines=0",)
    ),
    "pass-3-vs-4": Question(
        "Pass 3 (A) or 4 (B) cards, four-hand-150",
        "four-hand-150",
        (),
        ("exchange.pass_cards=4",),
        mode="hands",
        size=400_000,
        headline="bidding side makes",
    ),
    "pass-3-vs-none": Question(
        "Pass 3 cards (A) or none (B), four-hand-150",
        "four-hand-150",
        (),
        ("exchange.pass_cards=0",),
        mode="hands",
        size=400_000,
        headline="bidding side makes",
    ),
    "double-pinochle-3000": Question(
        "Double pinochle 300 (A, Hoyle) or 3000 (B, the document), four-pass",
        "four-pass",
        ("meld.double_pinochle=300",),
        ("meld.double_pinochle=3000",),
        headline="won by a lone double pinochle side",
    ),
    "run-conventions": Question(
        "Run with an extra king, queen or marriage: +40/+40/+80 (A, the document) or only a royal "
        "marriage for an extra K-Q (B, pagat), four-pass",
        "four-pass",
        (),
        ("meld.run_extra_king=0", "meld.run_extra_queen=0", "meld.run_extra_marriage=40"),
        mode="hands",
        size=400_000,
        headline="bidding side meld",
    ),
    "bidder-wins-ties": Question(
        "Bidding side wins when both pass the target (A) or the higher score wins (B), four-hand-150",
        "four-hand-150",
        (),
        ("game.bidder_wins_ties=false",),
        modes=("games",),
    ),
    "must-head": Question(
        "Must beat the winning card when following, even partner's (A) or no duty to head (B), four-hand-150",
        "four-hand-150",
        (),
        ('play.follow_must_head="never"',),
        mode="hands",
        size=400_000,
        headline="bidding side makes",
    ),
    "must-beat-partner": Question(
        "Must beat the winning card even when it is partner's (A) or not when partner is winning (B), four-hand-150",
        "four-hand-150",
        (),
        ("play.beat_partner=false",),
        mode="hands",
        size=400_000,
        headline="bidding side makes",
    ),
    "save-meld-20": Question(
        "Saving meld needs a trick (A) or 20 trick points (B), double-deck",
        "double-deck",
        ('scoring.save_meld="trick"',),
        ('scoring.save_meld="points"',),
        mode="hands",
        size=400_000,
        headline="other side score",
    ),
    "shore-vs-michigan": Question(
        "Double pinochle 8 (A, Shore rules) or 20 (B, Michigan rules), five-hand-ace-partner",
        "five-hand-ace-partner",
        (),
        ("meld.double_pinochle=20",),
        headline="hands per game",
    ),
    "min-bid-25": Question("Minimum bid 20 (A) or 25 (B), four-hand-150", "four-hand-150", (), ("auction.min_bid=25",)),
    "min-bid-300": Question("Minimum bid 250 (A) or 300 (B), ok-pinochle", "ok-pinochle", (), ("auction.min_bid=300",)),
    "trick-count-10-10-10": Question(
        "Card points 11/10/4/3/2 (A) or 10/10/10 (B), partnership-auction",
        "partnership-auction",
        (),
        ("tricks.points=[10, 10, 10, 0, 0, 0]",),
        mode="hands",
        size=400_000,
        headline="bidding side makes",
    ),
    "trick-count-10-10-5-5": Question(
        "Card points 11/10/4/3/2 (A) or 10/10/5/5 (B), partnership-auction",
        "partnership-auction",
        (),
        ("tricks.points=[10, 10, 5, 5, 0, 0]",),
        mode="hands",
        size=400_000,
        headline="bidding side makes",
    ),
    "declare-out": Question(
        "Declaring out allowed (A) or every hand played to its end (B), two-hand",
        "two-hand",
        (),
        ("game.declare_out=false",),
        modes=("games",),
    ),
}
