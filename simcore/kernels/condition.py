"""Conditions on the deal (``--given``): what the table has shown, as a rejection filter on the deal.

A condition is a list of clauses, all of which must hold. A clause is a set of seats (the widow counts
as seat ``players``) and tests on one hand; it holds when some hand of the set passes every test of
the clause (one seat: that hand; ``any``: some other player). A test bounds one quantity of a hand,
``lo <= quantity <= hi``:

* ``Q_CARD`` — copies of card type ``param``;
* ``Q_SUIT`` — cards of suit ``param`` (S, H, D, C = 0..3);
* ``Q_RANK`` — cards of rank ``param`` over the suits (A, 10, K, Q, J, 9 = 0..5);
* ``Q_MELD`` — meld points under trump ``param`` (-1: the hand's best trump), on the variant's scale;
* ``Q_TRUMP`` — the length of the suit the heuristic would name trump (0 when it could name none:
  ``v1`` = 1 where trump needs a marriage);
* ``Q_VALUE`` — the heuristic's worth of the hand as bidder, in points (``hand_value`` of
  :mod:`simcore.kernels.policies`, truncated; ``v1`` trick points of a hand, ``v2`` a partner's average
  meld, 0 alone, ``v3`` the cards a partner passes): the model bidder bids up to it plus its margin;
* ``Q_LIMIT`` — the model bidder's limit, as the auction kernel sets it: the value plus ``v4`` /
  ``MARGIN_UNIT`` of ``v1``, truncated; -1 where ``v5`` = 1 (a bid or trump needs a marriage) and the
  hand holds none, so it passes whatever the bid.

The compiled form is int64[tests, ROW] (columns ``C_*``), the rows of one clause together; zero rows
accept every deal. :func:`parse_condition` (plain Python) writes it from the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.cards import N_RANKS, N_SUITS, SUITS, HandError, card_name, parse_card
from simcore.kernels.deal import deal_buffers, deal_given_into, deal_into
from simcore.kernels.leaf import leaf
from simcore.kernels.meld import meld_by_trump
from simcore.kernels.policies import HEURISTIC, any_marriage, choose_trump, hand_value, suit_count

(Q_CARD, Q_SUIT, Q_RANK, Q_MELD, Q_TRUMP, Q_VALUE, Q_LIMIT) = range(7)
#: Columns of a compiled test row.
(C_CLAUSE, C_SEATS, C_QUANTITY, C_PARAM, C_LO, C_HI, C_V1, C_V2, C_V3, C_V4, C_V5) = range(11)
ROW = 11
#: ``Q_LIMIT``'s margin is carried in millionths (``v4``), the rules' margins having fewer decimals.
MARGIN_UNIT = 1_000_000
#: An upper bound no quantity reaches.
NO_LIMIT = np.int64(1) << 40
#: Compiled form of no condition at all.
NO_CONDITION = np.zeros((0, ROW), dtype=np.int64)


class ConditionWork(NamedTuple):
    """A compiled condition with what testing a deal against it reads and writes, as the deal
    kernels take it (:func:`deal_accepted_into`; :func:`condition_work` makes one with scratch of
    its own)."""

    #: int64[tests, ROW]: the condition's test rows (columns ``C_*``; zero rows: every deal).
    rows: np.ndarray
    #: The rules' meld table and flags, which the ``meld``, ``trump``, ``value`` and ``limit`` tests read.
    table: np.ndarray
    flags: np.ndarray
    #: int64[4] and uint64[4]: scratch for the meld by trump and the heuristic's trump choice (a stream
    #: never drawn from: the heuristic draws nothing).
    totals: np.ndarray
    state: np.ndarray


@njit(cache=True)
def condition_work(rows, table, flags):
    """A :class:`ConditionWork` for the condition ``rows`` under the meld ``table`` and ``flags``, with
    scratch of its own."""
    return ConditionWork(rows, table, flags, np.zeros(N_SUITS, dtype=np.int64), np.zeros(4, dtype=np.uint64))


@leaf
def hand_quantity(hand, cond, k, hand_size, table, flags, totals, state):
    """The quantity that test row ``k`` of the condition ``cond`` (int64[tests, ROW]) bounds, of
    ``hand`` (uint8[24]): ``Q_*`` in column ``C_QUANTITY``, with its ``C_PARAM`` and values ``C_V1 ..
    C_V5``; the meld ``table`` and ``flags`` count meld. ``totals`` (int64[4]) and ``state`` (uint64[4],
    never drawn from) are scratch."""
    q, param = cond[k, C_QUANTITY], cond[k, C_PARAM]
    if q == Q_CARD:
        return np.int64(hand[param])
    if q == Q_SUIT:
        return np.int64(suit_count(hand, param))
    if q == Q_RANK:
        n = np.int64(0)
        for s in range(N_SUITS):
            n += hand[s * N_RANKS + param]
        return n
    if q == Q_MELD:
        best = meld_by_trump(hand, table, flags, totals)
        return totals[best] if param < 0 else totals[param]
    v1 = cond[k, C_V1]
    if q == Q_TRUMP:
        s = choose_trump(hand, HEURISTIC, v1 != 0, table, flags, totals, state)
        return np.int64(0) if s < 0 else np.int64(suit_count(hand, s))
    v, _ = hand_value(hand, table, flags, totals, v1, cond[k, C_V2], cond[k, C_V3], hand_size)
    if q == Q_VALUE:
        return np.int64(np.floor(v))
    if cond[k, C_V5] != 0 and not any_marriage(hand):
        return np.int64(-1)
    return np.int64(v + (cond[k, C_V4] / MARGIN_UNIT) * v1)


@leaf
def accepts(hands, widow, hand_size, cond, table, flags, totals, scratch):
    """True when the deal (``hands`` uint8[players, 24], one row a seat, ``widow`` uint8[24]) meets every
    clause of the condition ``cond`` (int64[tests, ROW], see the module docstring), its meld tests
    counted by the meld ``table`` and ``flags``; ``totals`` (int64[4]) and ``scratch`` (uint64[4], never
    drawn from) are scratch."""
    players = hands.shape[0]
    i = 0
    n = cond.shape[0]
    while i < n:
        clause = cond[i, C_CLAUSE]
        end = i
        while end < n and cond[end, C_CLAUSE] == clause:
            end += 1
        seats = cond[i, C_SEATS]
        held = False
        for p in range(players + 1):
            if held or not (seats >> p) & 1:
                continue
            hand = widow if p == players else hands[p]
            ok = True
            for k in range(i, end):
                x = hand_quantity(hand, cond, k, hand_size, table, flags, totals, scratch)
                if x < cond[k, C_LO] or x > cond[k, C_HI]:
                    ok = False
                    break
            held = ok
        if not held:
            return False
        i = end
    return True


@leaf
def deal_accepted_into(state, cards, given, seat, hand_size, cw, hands, widow):
    """Deal into ``hands`` (uint8[players, 24]) and ``widow`` until the deal meets the condition of ``cw``
    (a :class:`ConditionWork`); return the deals tried (1 or more). With ``seat`` >= 0 that seat holds
    ``given`` and ``cards`` is the rest of the deck (:func:`simcore.kernels.deal.deal_given_into`), else
    ``cards`` is the deck (``deal_into``). Every accepted deal is equally likely among the deals that
    meet the condition (rejection sampling). The caller makes sure some deal meets the condition."""
    players = hands.shape[0]
    tries = np.int64(0)
    while True:
        tries += 1
        if seat >= 0:
            deal_given_into(state, cards, players, hand_size, given, seat, hands, widow)
        else:
            deal_into(state, cards, players, hand_size, hands, widow)
        if accepts(hands, widow, hand_size, cw.rows, cw.table, cw.flags, cw.totals, cw.state):
            return tries


class Dealing(NamedTuple):
    """The deals an answer's chunk kernel makes: ``players`` hands of ``hand_size`` cards from ``deck``
    (uint8 card types); with ``seat`` >= 0 that seat holds ``given`` (uint8[24] copy counts) in every
    deal and ``deck`` is the rest of the cards; every deal meets the condition ``cond`` (int64[tests,
    ROW]; zero rows: every deal does). The rules' meld ``table`` and ``flags`` score the hands and feed
    the condition's meld tests. Read-only: each chunk deals in a :class:`DealWork` of its own."""

    deck: np.ndarray
    players: int
    hand_size: int
    given: np.ndarray
    seat: int
    cond: np.ndarray
    table: np.ndarray
    flags: np.ndarray


class DealWork(NamedTuple):
    """A chunk's own arrays to deal a :class:`Dealing` into (:func:`deal_work`): its copy of the deck,
    shuffled in place, the hands (uint8[players, 24]) and the widow (uint8[24]), and the condition's
    scratch (int64[4] ``totals`` and uint64[4] ``scratch``, as in :class:`ConditionWork`)."""

    cards: np.ndarray
    hands: np.ndarray
    widow: np.ndarray
    totals: np.ndarray
    scratch: np.ndarray


@njit(cache=True)
def deal_work(dealing):
    """A fresh :class:`DealWork` for ``dealing`` (a :class:`Dealing`), made once per chunk."""
    cards, hands, widow = deal_buffers(dealing.deck, dealing.players)
    return DealWork(cards, hands, widow, np.zeros(N_SUITS, dtype=np.int64), np.zeros(4, dtype=np.uint64))


# --- the language -----------------------------------------------------------------------------------


class ConditionError(ValueError):
    """A ``--given`` text that cannot be read, or asks for something no deal can meet; one line."""


_SUIT_WORDS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}
_RANK_WORDS = {"aces": 0, "tens": 1, "kings": 2, "queens": 3, "jacks": 4, "nines": 5}
_TEST = re.compile(r"^([a-z0-9♠♥♦♣()]+)\s*(>=|<=|==|=|>|<)\s*(\d{1,7})$")
_MELD_IN = re.compile(r"^meld\(([shdc♠♥♦♣])\)$")
PLACES = ("me", "partner", "left", "right", "seat N", "any", "widow")
QUANTITIES = (
    "meld",
    "meld(S)",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
    "aces",
    "tens",
    "kings",
    "queens",
    "jacks",
    "nines",
    "trump",
    "value",
    "limit",
    "a card, e.g. AS",
)


@dataclass(frozen=True)
class Bound:
    """One bound on one quantity of a hand: ``lo <= quantity <= hi`` (see the module docstring)."""

    quantity: int
    param: int
    lo: int
    hi: int

    @property
    def holding(self) -> bool:
        """A count of cards (a card, a suit or a rank): exact odds are counted for these."""
        return self.quantity in (Q_CARD, Q_SUIT, Q_RANK)

    def cards(self) -> tuple[int, ...]:
        """The card types whose copies a holding test counts."""
        if self.quantity == Q_CARD:
            return (self.param,)
        if self.quantity == Q_SUIT:
            return tuple(self.param * N_RANKS + r for r in range(N_RANKS))
        return tuple(s * N_RANKS + self.param for s in range(N_SUITS))


@dataclass(frozen=True)
class Clause:
    """Tests that one hand among ``seats`` (absolute seats; ``players`` is the widow) must all pass."""

    place: str
    seats: tuple[int, ...]
    tests: tuple[Bound, ...]


@dataclass(frozen=True)
class Condition:
    """A parsed ``--given``: its clauses (all must hold) and the text it was read from."""

    text: str
    clauses: tuple[Clause, ...]
    players: int
    #: How messages name the condition: the option (``--given``) or the API's keyword (``given=``).
    label: str = "--given"

    def rows(
        self,
        trick_total: int = 0,
        partner_meld: int = 0,
        pass_cards: int = 0,
        need_marriage: int = 0,
        margin: float = 0.0,
        bid_needs_marriage: int = 0,
    ) -> np.ndarray:
        """The compiled form, int64[tests, ROW]; the rules' values feed ``value``, ``limit`` and
        ``trump`` tests (``bid_needs_marriage``: a bid, or a trump named before the widow, needs one)."""
        out = []
        for c, clause in enumerate(self.clauses):
            mask = sum(1 << s for s in clause.seats)
            for t in clause.tests:
                v = (
                    (trick_total, partner_meld, pass_cards, 0, 0)
                    if t.quantity == Q_VALUE
                    else (trick_total, partner_meld, pass_cards, round(margin * MARGIN_UNIT), bid_needs_marriage)
                    if t.quantity == Q_LIMIT
                    else (need_marriage, 0, 0, 0, 0)
                    if t.quantity == Q_TRUMP
                    else (0, 0, 0, 0, 0)
                )
                out.append((c, mask, t.quantity, t.param, t.lo, min(t.hi, int(NO_LIMIT)), *v))
        return np.array(out, dtype=np.int64).reshape(-1, ROW)

    @property
    def single_seat(self) -> int | None:
        """The one seat (or ``players``: the widow) every clause is about, None if several or ``any``."""
        seats = {c.seats for c in self.clauses}
        return next(iter(seats))[0] if len(seats) == 1 and len(next(iter(seats))) == 1 else None

    @property
    def holdings_only(self) -> bool:
        return all(t.holding for c in self.clauses for t in c.tests)


def _seats_of(place: str, players: int, me: int, partners_across: bool, widow: bool, where: str) -> tuple[int, ...]:
    """Absolute seats of a place word, seen from seat ``me``."""
    if place == "me":
        return (me,)
    if place == "left":
        return ((me + 1) % players,)
    if place == "right":
        if players < 3:
            raise ConditionError(f"{where}: 'right' is the seat before me; with {players} players say 'left'")
        return ((me - 1) % players,)
    if place == "partner":
        if not partners_across:
            raise ConditionError(
                f"{where}: 'partner': this system has no fixed partners; name a seat ('left', 'right', 'seat N')"
            )
        return tuple((me + k) % players for k in range(2, players, 2))
    if place == "any":
        return tuple(s for s in range(players) if s != me)
    if place == "widow":
        if not widow:
            raise ConditionError(f"{where}: 'widow': this system deals no widow")
        return (players,)
    m = re.fullmatch(r"seat\s*(\d{1,2})", place)
    if m:
        s = int(m.group(1))
        if s >= players:
            raise ConditionError(f"{where}: {place!r}: seats are 0 to {players - 1}, clockwise from the dealer's left")
        return (s,)
    raise ConditionError(f"{where}: place {place!r} is not known; places are {', '.join(PLACES)}")


def _quantity(word: str, where: str) -> tuple[int, int]:
    """(Q_*, param) of a quantity word."""
    if word in _SUIT_WORDS:
        return Q_SUIT, _SUIT_WORDS[word]
    if word in _RANK_WORDS:
        return Q_RANK, _RANK_WORDS[word]
    if word == "meld":
        return Q_MELD, -1
    m = _MELD_IN.match(word)
    if m:
        suit = m.group(1).upper()
        return Q_MELD, SUITS.index({"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(suit, suit))
    if word == "trump":
        return Q_TRUMP, 0
    if word == "value":
        return Q_VALUE, 0
    if word == "limit":
        return Q_LIMIT, 0
    try:
        return Q_CARD, parse_card(word)
    except HandError:
        raise ConditionError(f"{where}: {word!r} is not a quantity; give one of {', '.join(QUANTITIES)}") from None


def _bounds(op: str, x: int, lowest: int = 0) -> tuple[int, int]:
    """(lo, hi) of ``quantity OP x`` for a quantity that is never below ``lowest``."""
    return {
        ">=": (x, int(NO_LIMIT)),
        ">": (x + 1, int(NO_LIMIT)),
        "<=": (lowest, x),
        "<": (lowest, x - 1),
        "=": (x, x),
        "==": (x, x),
    }[op]


def _tests(text: str, where: str) -> list[Bound]:
    """The tests of one clause's right-hand side (tests joined by ',' or 'and')."""
    out = []
    for part in re.split(r",|\band\b", text):
        part = part.strip()
        if not part:
            raise ConditionError(f"{where}: an empty test; write e.g. 'aces>=3' or 'holds AS'")
        words = part.split()
        if words[0] in ("holds", "lacks"):
            if len(words) == 1:
                raise ConditionError(f"{where}: {words[0]!r} needs cards, e.g. '{words[0]} AS JD'")
            counts: dict[int, int] = {}
            for w in words[1:]:
                try:
                    t = parse_card(w)
                except HandError as e:
                    raise ConditionError(f"{where}: {e}") from None
                counts[t] = counts.get(t, 0) + 1
            for t, k in counts.items():
                out.append(Bound(Q_CARD, t, k, int(NO_LIMIT)) if words[0] == "holds" else Bound(Q_CARD, t, 0, 0))
            continue
        m = _TEST.match(part.replace(" ", "").lower())
        if not m:
            raise ConditionError(
                f"{where}: test {part!r} is not understood; write QUANTITY OP NUMBER "
                "(e.g. 'spades<=2', 'meld>=20'; OP one of >= <= = > <) or 'holds CARDS'"
            )
        q, param = _quantity(m.group(1), where)
        lo, hi = _bounds(m.group(2), int(m.group(3)), -1 if q == Q_LIMIT else 0)
        out.append(Bound(q, param, lo, hi))
    return out


def parse_condition(
    texts: str | list[str],
    players: int,
    me: int = 0,
    partners_across: bool = False,
    widow: bool = False,
    label: str = "--given",
) -> Condition:
    """The :class:`Condition` of one or more ``--given`` texts (each may hold clauses separated by
    ';'), places seen from seat ``me``. Raises :class:`ConditionError` (one line naming the clause,
    after ``label``: the option or keyword the text came from)."""
    texts = [texts] if isinstance(texts, str) else list(texts)
    clauses = []
    for text in texts:
        for raw in text.split(";"):
            raw = raw.strip()
            if not raw:
                continue
            where = f"{label} {raw!r}" if len(raw) <= 60 else f"{label} {raw[:57]!r}..."
            if ":" not in raw:
                raise ConditionError(
                    f"{where}: write PLACE: TEST, e.g. 'partner: meld>=20'; places are {', '.join(PLACES)}"
                )
            place, rest = raw.split(":", 1)
            place = " ".join(place.lower().split())
            seats = _seats_of(place, players, me, partners_across, widow, where)
            clauses.append(Clause(place, seats, tuple(_tests(rest, where))))
    if not clauses:
        raise ConditionError(f"{label}: no condition; write PLACE: TEST, e.g. 'partner: meld>=20'")
    return Condition("; ".join(t.strip() for t in texts), tuple(clauses), players, label)


def describe_test(t: Bound) -> str:
    """A test in the language's own words, e.g. ``spades<=2``."""
    names = {Q_SUIT: list(_SUIT_WORDS), Q_RANK: list(_RANK_WORDS)}
    if t.quantity == Q_CARD:
        word = card_name(t.param)
    elif t.quantity in names:
        word = names[t.quantity][t.param]
    elif t.quantity == Q_MELD:
        word = "meld" if t.param < 0 else f"meld({SUITS[t.param]})"
    else:
        word = {Q_TRUMP: "trump", Q_VALUE: "value", Q_LIMIT: "limit"}[t.quantity]
    if t.hi >= NO_LIMIT:
        return f"{word}>={t.lo}"
    lowest = -1 if t.quantity == Q_LIMIT else 0
    return f"{word}={t.lo}" if t.lo == t.hi else f"{word}<={t.hi}" if t.lo <= lowest else f"{t.lo}<={word}<={t.hi}"
