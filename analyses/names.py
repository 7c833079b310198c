"""The names players use (DESIGN principle 10): each meld of :data:`simcore.kernels.meld.NAMED_MELDS`
and each dealt-hand event of the catalogue, as the card, the report and the web pages print them. The
code words (``royal_marriage``, ``aces-around``) stay in data: CSV, JSON and the rules keys."""

from __future__ import annotations

#: Each meld a hand's meld is made of (the rows of :func:`simcore.api.meld`), by its code word.
MELD_WORDS = {
    "run": "run",
    "run_extra_marriage": "marriage beside a run",
    "run_extra_king": "king beside a run",
    "run_extra_queen": "queen beside a run",
    "royal_marriage": "royal marriage",
    "marriage": "marriage",
    "dix": "dix",
    "aces_around": "aces around",
    "kings_around": "kings around",
    "queens_around": "queens around",
    "jacks_around": "jacks around",
    "pinochle": "pinochle",
    "roundhouse": "roundhouse",
}

#: What the melds whose cards are not in their name are made of, as the card's meld table says it.
MELD_CARDS = {
    "run": "A-10-K-Q-J of trump",
    "royal_marriage": "K-Q of trump",
    "marriage": "K-Q of another suit",
    "pinochle": "Q♠ J♦",
    "dix": "nine of trump",
}


def meld_name(code: str) -> str:
    """The name of meld ``code`` ("royal_marriage" -> "royal marriage"); an unknown code with its
    underscores read as spaces."""
    return MELD_WORDS.get(code, code.replace("_", " "))


def meld_name_with_cards(code: str) -> str:
    """The name and, where the name does not say them, the cards: "royal marriage (K-Q of trump)"."""
    return f"{meld_name(code)} ({MELD_CARDS[code]})" if code in MELD_CARDS else meld_name(code)


def event_name(event: str) -> str:
    """The name a player uses for a catalogue event: "double pinochle", "aces around", "five nines"."""
    if event == "redeal":
        return "redeal hand"
    if event.startswith("meld>="):
        return f"meld of {event[6:]} or more"
    if event in ("double-aces", "double-kings", "double-queens", "double-jacks"):
        return event.replace("-", " ") + " around"
    return event.replace("-", " ")


def exchange_words(variant) -> str:
    """What changes a hand after the deal in ``variant``, in a player's words, for "as dealt (before
    ...)": "any pass", "the widow", "the kitty", joined by "or"; "" where nothing does (no pass, no
    widow the bidder takes: a stock is drawn from in play, not before it)."""
    words = []
    if variant.get("exchange.pass_cards"):
        words.append("any pass")
    if variant.get("deal.widow") and variant.get("deal.widow_kind") in ("widow", "kitty"):
        words.append(f"the {variant.get('deal.widow_kind')}")
    return " or ".join(words)
