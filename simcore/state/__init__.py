"""A per-decision game API, in the spirit of OpenSpiel's ``State``: one hand, one decision at a time.

    >>> from simcore.state import new_hand
    >>> state = new_hand("four-hand-150", seed=1)
    >>> state.current_player(), [str(a) for a in state.legal_actions()]   # the dealer's left bids first
    (0, ['pass', 'bid 20'])
    >>> state.apply(state.legal_actions()[1])
    >>> while not state.is_terminal():      # then the first legal action: the others pass, ...
    ...     state.apply(state.legal_actions()[0])
    >>> state.returns()                     # what the hand added to each seat's score line
    [51, 16, 51, 16]

The rules are those of the plain reference (:func:`simcore.reference.hand.hand_steps`), the same code that
referees the kernel's traces, so a state driven by the kernel's own decisions ends with the kernel's
record. Seats are numbered clockwise from 0 = the dealer's left; the dealer is the last seat. Chance
(the deal, a card turned for trump, a card drawn) is resolved inside the state from the kernel's
xoshiro stream for the seed, in the kernel's order: ``new_hand(v, seed)`` deals what
``simulate(v, seed=seed)`` deals first, and callers only ever see decisions.

Actions are :class:`Action` (kind, value); a multi-card decision (passing four cards, burying three) is
that many single-card actions. Kinds and values:

=========  ================================================  ==========================================
kind       who decides                                       value
=========  ================================================  ==========================================
bid        each seat in turn in the auction                  the bid; 0 = pass
forfeit    the bidder of the compulsory minimum              1 = forfeit unseen, 0 = play
trump      the bidder                                        suit 0-3 (S, H, D, C); -1 = none (no marriage)
alone      a bidder who may play without a partner           1 = alone, 0 = call a card
call       the bidder                                        the card type he calls for a partner
swap       a dix holder, from the dealer's left              1 = give the dix for the turned card
share      the bidder, sharing out the widow                 the card for the seat ``request().to``
give       partner, then bidder, passing cards               a card type
bury       the bidder, after taking the widow                a card type
discard    each seat before drawing                          a card type; -1 = no more
throw_in   the bidder, short after the meld                  1 = throw the hand in
concede    the seat on the bidder's left                     1 = concede the contract
play       each seat in turn                                 a card type
dix        a trick's winner while a stock lasts              1 = show a dix
exchange   after showing it                                  1 = exchange it for the turned card
meld       a trick's winner while a stock lasts              an index of STOCK_MELDS; -1 = none
=========  ================================================  ==========================================

A card type is ``suit * 6 + rank`` with rank 0 = ace ... 5 = nine (``simcore.cards``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.cards import N_TYPES, card_name, parse_hand
from simcore.kernels.compiled import hand_rules
from simcore.reference.hand import CHANCE, DECISIONS, Request, RuleBroken, Table, hand_steps, refusal, value_name
from simcore.reference.meld import shown_cards
from simcore.variants import Variant, load_variant

#: ``current_player()`` once the hand is over (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4
#: Every kind, decisions first, then chance: an action's integer code is its kind's index here.
KINDS = DECISIONS + ("deal", "turn", "draw")
#: The largest action code: the last kind's, with the largest value a code holds (65534).
MAX_CODE = len(KINDS) * 65536 - 1


class IllegalAction(ValueError):
    """An action the rules do not allow now (or not this seat's, or not this decision's)."""


class Action(NamedTuple):
    """A decision: ``kind`` (see the module's table) and ``value`` (an int). ``str(action)`` reads like a
    player's words ("bid 250", "play QS", "trump hearts"); ``code`` is a small integer encoding."""

    kind: str
    value: int

    def __str__(self) -> str:
        if self.kind == "bid" and self.value == 0:
            return "pass"
        return f"{self.kind} {value_name(self.kind, self.value)}"

    @property
    def code(self) -> int:
        """``kind index * 65536 + value + 1``: a non-negative int, unique per action."""
        return KINDS.index(self.kind) * 65536 + self.value + 1

    @classmethod
    def from_code(cls, code: int) -> Action:
        """The action of ``code`` (see :attr:`code`); ValueError for a code outside 0 to
        :data:`MAX_CODE`, naming it and the range."""
        if not 0 <= code <= MAX_CODE:
            shown = str(code) if len(str(code)) <= 24 else str(code)[:20] + "..."
            raise ValueError(f"action code {shown} is out of range: codes are 0 to {MAX_CODE}")
        return cls(KINDS[code // 65536], code % 65536 - 1)


def new_hand(
    variant: Variant | str,
    seed: int | None = None,
    cards=None,
    hand: int = 0,
    need=None,
    chance=None,
    contract: tuple[int, int] | None = None,
    game: int | None = None,
) -> HandState:
    """A hand at its first decision. ``seed`` picks the deal as ``simulate``/``trace_hand`` do (the first
    hand of chunk ``hand``'s stream for ``seed``; None: a fresh random seed), or with ``game`` as
    ``pinochle games --seed`` deals hand ``hand`` of game ``game`` (:mod:`simcore.state.game`); ``cards``
    instead gives the deal: one hand per seat and then the widow or stock (text such as ``"AS 10S KS"``
    or lists of card types), seat 0 the dealer's left. Later chance (a redeal when everybody passes,
    cards drawn) comes from the seed's stream. ``need``: what each seat needs to declare itself out
    (None: no declaring).
    ``chance``: a function deciding chance events instead, ``chance(request) -> value`` (the deal's value
    is (hands, widow, redeals before it); a replay of a recorded hand takes them from the record).
    ``contract``: (seat, bid) set without an auction, as ``pinochle advise`` plays a hand (None: the
    seats bid)."""
    from simcore.kernels.rng import chunk_states, hand_state, stream_key

    v = load_variant(variant) if isinstance(variant, str) else variant
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    if game is None:
        rng = chunk_states(seed, [hand])[0].copy()
    else:
        rng = np.zeros(4, dtype=np.uint64)
        hand_state(stream_key(seed), game, hand, rng)
    given = None
    if cards is not None:
        given = [list(parse_hand(c)) if isinstance(c, str) else _counts(c) for c in cards]
        if len(given) != v.players + 1:
            raise ValueError(
                f"cards: {v.players} hands and the widow or stock (it may be empty), "
                f"{v.players + 1} in all; got {len(given)}"
            )
        total = [sum(x[t] for x in given) for t in range(N_TYPES)]
        if total != [int(c) for c in v.deck_copies] or any(sum(x) != v.hand_size for x in given[:-1]):
            raise ValueError(
                f"cards: every seat holds {v.hand_size} and together with the widow they are the deck of {v.id!r}"
            )
    return HandState(v, rng, given, need, chance=chance, contract=contract)


def _counts(cards) -> list[int]:
    out = [0] * N_TYPES
    for c in cards:
        out[int(c)] += 1
    return out


class HandState:
    """One hand in play (see the module). Not thread-safe; :meth:`clone` for a copy to explore."""

    def __init__(
        self,
        variant: Variant,
        rng: np.ndarray,
        given: list | None,
        need=None,
        _history=None,
        chance=None,
        contract: tuple[int, int] | None = None,
    ):
        self.variant, self._chance_fn = variant, chance
        self._contract = None if contract is None else (int(contract[0]), int(contract[1]))
        self._rng, self._given, self._need = rng, given, None if need is None else [int(x) for x in need]
        self._rng0 = rng.copy()  # for clone(), which replays the history from the start
        self._deck = np.array(variant.tables.deck, dtype=np.uint8)  # shuffled in place, deal after deal
        self._table = Table(variant.players)
        self._steps = hand_steps(variant, self._table, self._need, self._contract)
        self._history: list[tuple[int, Action]] = []
        self._request: Request | None = None
        self._replay = list(_history or [])
        self._shown: list | None = None  # the cards each seat laid down in meld, once asked for
        self._forward(None)

    # --- OpenSpiel-like interface -------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide now; TERMINAL once the hand is over."""
        return TERMINAL if self._request is None else self._request.seat

    def is_terminal(self) -> bool:
        return self._request is None

    def legal_actions(self) -> list[Action]:
        """The actions the seat to decide may take now (none once over)."""
        r = self._request
        return [] if r is None else [Action(r.kind, v) for v in r.legal]

    def request(self) -> Request | None:
        """The decision waited for: seat, kind, legal values, and ``to`` (the seat a card goes to)."""
        return self._request

    def apply(self, action) -> None:
        """Take ``action`` (an :class:`Action`, a (kind, value) pair or an integer code) for the seat
        to decide; raises :class:`IllegalAction` for one the rules do not allow now."""
        r = self._request
        if r is None:
            raise IllegalAction("the hand is over")
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            try:
                action = Action.from_code(int(action))
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        try:
            kind, value = action
        except (TypeError, ValueError):
            raise IllegalAction(f"{action!r} is not an action: give an Action(kind, value)") from None
        if kind != r.kind:
            raise IllegalAction(f"seat {r.seat} is to {r.kind}, not to {kind}")
        why = refusal(self.variant, r, value)
        if why:
            raise IllegalAction(why)
        self._history.append((r.seat, Action(kind, value)))
        self._forward(value)

    def returns(self) -> list[int]:
        """What the hand adds to each seat's score line (its side's score with partners; with a bidder
        alone each opponent's own), on the variant's points; zeros until the hand is over."""
        t = self._table
        return list(t.seat_scores) if t.seat_scores is not None else [0] * self.variant.players

    def record(self) -> dict | None:
        """The hand's record, ``simcore.kernels.hand_record.FIELDS`` -> int (None until the hand is over)."""
        return None if self._table.rec is None else dict(self._table.rec)

    def history(self) -> list[tuple[int, Action]]:
        """Every (seat, action) so far, chance events (seat CHANCE = -1) included."""
        return list(self._history)

    def clone(self) -> HandState:
        """An independent copy, made by replaying the history (a generator cannot be copied)."""
        twin = HandState(
            self.variant,
            self._rng0.copy(),
            self._given,
            self._need,
            _history=self._history,
            chance=self._chance_fn,
            contract=self._contract,
        )
        twin._rng = self._rng.copy()
        return twin

    def hands(self) -> list[list[int]]:
        """Every seat's cards now, copy counts per card type (seat 0 first): the whole table, as a
        double-dummy solver sees it, never a player."""
        return [list(x) for x in self._table.hands]

    def observation(self, seat: int) -> dict:
        """What ``seat`` knows now, as plain data (cards by name): its own hand; the bids; trump and a
        turned card; cards it passed, received, buried, threw away or drew; swaps and exchanges (public);
        every seat's meld once shown (``meld``: points; ``shown``: the cards each seat laid down for it) and
        the tricks; never another seat's hidden cards."""
        return _observe(self, seat)

    def played_record(self) -> dict:
        """The hand so far as a record ``pinochle analyse`` reads (``docs/analyse.md``): the variant's id
        and the moves in the order they happened, in ``pinochle playthrough --json``'s vocabulary (the
        deal and every decision, and each trick's winner). A hand redealt after everybody passed
        starts at its last deal."""
        return _played(self)

    def _shown_cards(self) -> list[list[str]] | None:
        """Each seat's cards laid down for its meld (``reference.meld.shown_cards`` of the hand it melded;
        none for a seat whose meld does not count), worked out when first asked for: most hands played
        through the state are never asked (None: no meld counted)."""
        t = self._table
        if self._shown is None and t.melded is not None:
            self._shown = [
                _names(shown_cards(h, t.trump, self.variant)) if m > 0 else [] for h, m in zip(t.melded, t.meld)
            ]
        return self._shown

    def observation_string(self, seat: int) -> str:
        return "\n".join(f"{k}: {v}" for k, v in self.observation(seat).items())

    def __str__(self) -> str:
        who = "over" if self.is_terminal() else f"seat {self.current_player()} to {self._request.kind}"
        return f"{self.variant.id} hand, {len(self._history)} moves, {who}"

    # --- inside ---------------------------------------------------------------------------------------
    def _forward(self, value) -> None:
        """Send ``value`` (None: start), then resolve chance (and replayed moves) until a decision waits
        or the hand ends."""
        try:
            request = self._steps.send(value)
            while True:
                if self._replay:
                    seat, action = self._replay.pop(0)
                    self._history.append((seat, action))
                    request = self._steps.send(action.value)
                elif request.seat == CHANCE:
                    value = self._chance_fn(request) if self._chance_fn else self._chance(request)
                    self._history.append((CHANCE, Action(request.kind, value)))
                    request = self._steps.send(value)
                else:
                    break
        except StopIteration:
            request = None
        except RuleBroken as e:  # only a replayed history can get here; apply() checks before sending
            raise IllegalAction(str(e)) from None
        self._request = request

    def _chance(self, request: Request):
        """A chance outcome from the stream, as the kernel draws it: the deal (redealt while the rules'
        dealing redeal fires), or one card of ``pool``, uniformly over copies (a certain one drawn
        without a draw)."""
        from simcore.kernels.deal import deal_into
        from simcore.kernels.hand import redeal_dealt
        from simcore.kernels.rng import bounded

        v = self.variant
        if request.kind == "deal":
            if self._given is not None and not self._history:
                return [list(x) for x in self._given[:-1]], list(self._given[-1]), 0
            hands = np.zeros((v.players, N_TYPES), dtype=np.uint8)
            widow = np.zeros(N_TYPES, dtype=np.uint8)
            redeals = 0
            while True:
                deal_into(self._rng, self._deck, v.players, v.hand_size, hands, widow)
                if not redeal_dealt(hands, v.players, hand_rules(v)):
                    break
                redeals += 1
            return hands.astype(int).tolist(), widow.astype(int).tolist(), redeals
        if request.pool is None:
            return request.legal[0]
        k = int(bounded(self._rng, sum(request.pool)))
        for value, n in zip(request.legal, request.pool):
            if k < n:
                return value
            k -= n
        raise AssertionError("unreachable: k < the pool's size")


def _names(counts) -> list[str]:
    return [card_name(t) for t in range(N_TYPES) for _ in range(counts[t])]


def _observe(state: HandState, seat: int) -> dict:
    """:meth:`HandState.observation`."""
    v, t = state.variant, state._table
    players = v.players
    if not 0 <= seat < players:
        raise ValueError(f"seat: 0 to {players - 1}, got {seat}")
    r = state.request()
    public_turn = v.get("play.stock_play") or v.get("exchange.dix_for_turned") or v.get("auction.kind") == "none"
    melded = (
        bool(t.tricks or t.trick) or t.rec is not None or (r is not None and r.kind in ("throw_in", "concede", "play"))
    )
    hidden = ("give", "share", "bury", "discard", "draw")  # seen by the seats that give or take the card

    def seen(who: int, kind: str, to: int) -> bool:
        return kind not in hidden or seat in (who, to)

    obs = {
        "seat": seat,
        "players": players,
        "dealer": players - 1,
        "to_act": state.current_player(),
        "decision": r.kind if r else None,
        "legal": [str(a) for a in state.legal_actions()] if r and r.seat == seat else [],
        "hand": _names(t.hands[seat]) if t.hands else [],
        "bids": list(t.bids),
        "bidder": t.bidder,
        "bid": t.bid,
        "trump": "SHDC"[t.trump] if t.trump >= 0 else None,
        "turned": card_name(t.turned) if t.turned >= 0 and public_turn else None,
        "called": card_name(t.called) if t.called >= 0 else None,
        # a called partner knows himself; the others learn who he is when the hand is over
        "partner": t.partner
        if (t.partner >= 0 and (v.get("teams.kind") != "called_card" or seat == t.partner or state.is_terminal()))
        else None,
        "widow": _names(t.widow) if (t.widow_taken and seat == t.bidder) or state.is_terminal() else None,
        "moves": [(who, kind, card_name(card) if seen(who, kind, to) else None, to) for who, kind, card, to in t.moves],
        "meld": list(t.meld) if melded or v.get("play.stock_play") else None,
        "shown": state._shown_cards() if melded else None,
        "tabled": list(t.tabled),
        "tricks": [(lead, [card_name(c) for c in cards], winner, pts) for lead, cards, winner, pts in t.tricks],
        "trick": [(s, card_name(c)) for s, c in t.trick],
        "points": list(t.pts),
        "tricks_won": list(t.won),
        "stock": t.stock,
        "record": state.record(),
        "returns": state.returns() if state.is_terminal() else None,
    }
    return obs


def _played(state: HandState) -> dict:
    """:meth:`HandState.played_record`."""
    from simcore.cards import SUITS

    v, t = state.variant, state._table
    players = v.players
    history = state.history()
    deals = [i for i, (_, a) in enumerate(history) if a.kind == "deal"]
    history = history[deals[-1] :] if deals else history
    handed = iter(t.moves)  # (seat, kind, card, to) of the swaps, shares, gives, burials, discards, draws
    tabled = iter(t.tabled)  # (seat, meld name, points)
    tricks = iter(t.tricks)
    outcome = {"forfeit": "forfeited_unseen", "throw_in": "conceded", "concede": "conceded_by_opponents"}
    moves: list[dict] = []
    plays = 0

    def card_move(kind: str, seat: int, card: int) -> dict:
        return {"move": kind, "seat": seat, "card": card_name(card), "count": 1}

    for seat, (kind, value) in history:
        if kind == "deal":
            hands, widow, redeals = value
            for s, counts in enumerate([*hands, widow]):
                for c in range(N_TYPES):
                    if counts[c]:
                        to = f"seat {s}" if s < players else v.get("deal.widow_kind")
                        moves.append(
                            {
                                "move": "deal",
                                "to": to,
                                "seat": s if s < players else None,
                                "card": card_name(c),
                                "count": int(counts[c]),
                            }
                        )
            moves.append({"move": "redeals", "count": int(redeals)})
        elif kind == "bid":
            moves.append({"move": "bid", "seat": seat, "bid": value or None, "pass": value == 0})
        elif kind == "trump":
            moves.append({"move": "trump", "suit": SUITS[value] if value >= 0 else None})
        elif kind == "turn":
            moves.append({"move": "trump", "suit": SUITS[value // 6], "turned": card_name(value)})
            if v.get("play.stock_play") and value % 6 == 5 and v.get("meld.dix"):  # the dealer's turned dix
                who, name, points = next(tabled)
                moves.append({"move": "table_meld", "seat": int(who), "meld": name, "points": int(points)})
        elif kind in outcome and value:
            moves.append({"move": "not_played", "outcome": outcome[kind]})
        elif kind == "alone" and value:
            moves.append({"move": "call", "card": None, "partner": None})
        elif kind == "call":
            moves.append({"move": "call", "card": card_name(value), "partner": t.partner if t.partner >= 0 else None})
        elif kind in ("swap", "exchange") and value:
            moves.append({"move": "exchange_dix", "seat": seat, "card": card_name(next(handed)[2])})
        elif kind == "share":
            moves.append({"move": "widow_card", "seat": next(handed)[3], "card": card_name(value)})
        elif kind in ("give", "bury") or (kind == "discard" and value >= 0):
            next(handed)
            moves.append(card_move({"give": "pass", "bury": "bury", "discard": "throw"}[kind], seat, value))
        elif kind == "draw":
            moves.append(card_move("draw", next(handed)[3], value))
        elif kind in ("dix", "meld") and (value if kind == "dix" else value >= 0):
            who, name, points = next(tabled)
            moves.append({"move": "table_meld", "seat": int(who), "meld": name, "points": int(points)})
        elif kind == "play":
            moves.append({"move": "play", "trick": plays // players + 1, "seat": seat, "card": card_name(value)})
            plays += 1
            if plays % players == 0:
                _, _, winner, pts = next(tricks)
                moves.append({"move": "trick", "trick": plays // players, "winner": int(winner), "points": int(pts)})
    return {"variant": v.id, "players": players, "dealer": players - 1, "moves": moves}
