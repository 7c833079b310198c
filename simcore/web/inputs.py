"""What a page or a JSON client may send, with its limits, and the rules it names.

Every request names its rules as a shipped id (``variant``) or gives them as TOML text
(``rules_text``, at most :data:`MAX_RULES_CHARS`), read as data: text may extend a shipped id, and no
name from the browser ever reaches the file system. Work is bounded by the ``*_CAP`` hand counts here
and by the job queue's time cap (:mod:`simcore.web.jobs`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Literal

from pydantic import BaseModel, Field

#: Characters of rules text a request may send (the longest shipped rules file is about 5,000).
MAX_RULES_CHARS = 20_000
#: Most hands (or deals) a request may ask for, by answer.
ADVISE_CAP = 200_000
HOLD_CAP = 4_000_000
ODDS_CAP = 20_000_000
COMPARE_CAP = 100_000
#: Most seeds: the kernels' seeds are non-negative 63-bit integers.
MAX_SEED = (1 << 62) - 1
#: Most moves a deal-viewer request may replay (an 80-card four-hand deal takes about 120).
MAX_MOVES = 400
#: Characters of a hand (or a deal's line of cards): 60 cards written "10S," are 240.
MAX_HAND_CHARS = 500
#: Characters of an event's name or expression (the longest in the catalogue is about 20).
MAX_EVENT_CHARS = 100


class InputError(ValueError):
    """Bad input from a page: ``field`` names the form field it belongs to; ``str()`` is one line."""

    def __init__(self, field: str, message: str, status: int = 400):
        super().__init__(message)
        self.field, self.status = field, status


class Rules(BaseModel):
    variant: str = Field("four-hand-150", max_length=100, description="a shipped rules id")
    rules_text: str | None = Field(
        None, max_length=MAX_RULES_CHARS, description="rules as TOML text instead of an id (may extend a shipped id)"
    )


class HandIn(Rules):
    hand: str = Field(..., max_length=MAX_HAND_CHARS, description='cards, e.g. "AS 10S KS QS JS 9S ..."')


class Given(BaseModel):
    given: str | None = Field(
        None,
        max_length=500,
        description="only deals that meet this condition, in pinochle's --given language (docs/given.md), "
        'e.g. "partner: meld>=10; left: aces>=3"',
    )


class AdviseIn(HandIn, Given):
    seat: int = Field(0, ge=0, le=7, description="my seat, clockwise from 0 = the dealer's left")
    hands: int = Field(
        20_000, ge=100, le=ADVISE_CAP, title="Deals", description="deals of the unseen cards to play out"
    )
    seed: int = Field(1, ge=0, le=MAX_SEED)


#: An event's name or expression, bounded.
EventName = Annotated[str, Field(max_length=MAX_EVENT_CHARS)]


class HoldIn(HandIn, Given):
    events: list[EventName] | None = Field(None, max_length=40, description="events (default: every catalogue event)")
    hands: int = Field(400_000, ge=100, le=HOLD_CAP)
    seed: int = Field(1, ge=0, le=MAX_SEED)


class OddsIn(Rules):
    events: list[EventName] | None = Field(None, max_length=40, description="events (default: every catalogue event)")
    hands: int = Field(1_000_000, ge=100, le=ODDS_CAP)
    seed: int = Field(1, ge=0, le=MAX_SEED)


class CompareIn(BaseModel):
    question: str = Field(..., max_length=100)
    variant: str | None = Field(
        None, max_length=100, description="ask it of this shipped system instead of the question's own"
    )
    hands: int = Field(
        20_000, ge=100, le=COMPARE_CAP, title="Hands or games", description="paired hands (or games) on each side"
    )
    seed: int = Field(1, ge=0, le=MAX_SEED)


class DealValuesIn(Rules):
    seed: int = Field(1, ge=0, le=MAX_SEED)
    cards: list[Annotated[str, Field(max_length=MAX_HAND_CHARS)]] | None = Field(
        None, max_length=9, description="the deal: one hand per seat, then the widow"
    )
    moves: list[int] = Field(
        default_factory=list, max_length=MAX_MOVES, description="decisions so far, as Action codes"
    )


class DealMakeableIn(Rules):
    seed: int = Field(1, ge=0, le=MAX_SEED)
    cards: list[Annotated[str, Field(max_length=MAX_HAND_CHARS)]] | None = Field(
        None, max_length=9, description="the deal as dealt: one hand per seat (a widow line after them is ignored)"
    )
    exchange: Literal["heuristic", "given"] = Field(
        "heuristic",
        description="the cards passed after the bid: the heuristic's, or none (the hands as after the exchange)",
    )
    limit: int = Field(
        20_000, ge=1, le=2_000_000, description="trick starts a threshold solve may search in the first pass"
    )
    budget: int = Field(1_500_000, ge=1, le=20_000_000, description="trick starts the whole table's solves may search")


class DealIn(DealValuesIn):
    then: Literal["none", "heuristic", "finish"] = Field(
        "none", description="after the moves: nothing, the heuristic's next card, or play to the end"
    )
    values: bool = Field(True, description="each legal card's double-dummy value")


@lru_cache(maxsize=64)
def shipped(variant_id: str):
    """The shipped rules ``variant_id``; messages name the request's ``variant``, not an option."""
    from simcore.variants import load_variant

    return load_variant(variant_id, files=False, names=WEB_NAMES)


#: What messages call the rules and the overrides here: the request's fields, not the command line's
#: options (the loader's ``names``; "" for the rules: its message starts ``variant = 'x'``).
WEB_NAMES = ("", "overrides")


def rules_of(body: Rules):
    """The :class:`simcore.variants.Variant` a request names; :class:`InputError` on the ``rules``
    field (or ``variant``) when it cannot be used."""
    from simcore.variants import RulesError, load_variant_text

    pasted = bool(body.rules_text and body.rules_text.strip())  # blank text: the variant picked
    try:
        return load_variant_text(body.rules_text, "pasted rules") if pasted else shipped(body.variant)
    except RulesError as exc:
        raise InputError("rules" if pasted else "variant", str(exc)) from None
