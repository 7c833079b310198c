"""Where did I go wrong: a played hand read from its record, each card of its tricks valued by the
double-dummy solver (``pinochle analyse FILE``, :func:`simcore.api.analyse`), exact where it proves the
value within a budget and otherwise estimated by its depth-limited search with the learned evaluation.

The record is JSON: ``{"variant": ID or rules file, "moves": [...]}``, the moves in the order they
happened, in the vocabulary of ``pinochle playthrough --json`` (whose output is a record as it stands;
:meth:`simcore.state.HandState.played_record` writes one from the game state). The moves read are the
deal and the decisions; the rest (``contract``, ``meld``, ``trick``, ``score``, ``redeals``) are
worked out again, and a ``trick`` move that disagrees with the rules is an error. Every decision is
checked by the reference referee (:func:`simcore.reference.hand.referee`), so a card not held, a
revoke, a play out of turn or a wrong count is refused in one line naming the trick and the seat.

Each card of the last ``tricks_left`` tricks (every trick by default) is valued as ``pinochle endgame``
values a seeded hand's (:func:`simcore.answers.endgame.trace_decisions`): the points the deciding
seat's side takes from that trick's start with the card played, then perfect play by everybody with
every hand seen; beside it the same with the best card, and the difference, the points *given up*.
Each decision says whether its values are exact or estimated (``exact``). Points are trick points on the
variant's scale, as taken, the last-trick bonus included. Seats are numbered clockwise from 0 = the
dealer's left.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simcore.cards import N_TYPES, SUITS, HandError, card_name, parse_card
from simcore.kernels import hand_record as h
from simcore.kernels.stock import STOCK_MELDS
from simcore.reference.hand import Table, referee
from simcore.reference.stock import RuleBroken
from simcore.solver.position import PositionError
from simcore.variants import NotForThisSystem, RulesError, Variant, load_variant, require_full_hands

#: Trick starts a decision's values may reach before the deepest search finished gives them (exact
#: where it reached the end of the hand, else estimated): about a fifth of a second a decision.
DEFAULT_BUDGET = 150_000
#: Columns of :func:`analyse`'s table, one row per card played.
COLUMNS = (
    "trick",
    "place",
    "seat",
    "role",
    "card",
    "legal",
    "value",
    "best_card",
    "best",
    "given_up",
    "exact",
)


class RecordError(ValueError):
    """A record that cannot be read or is not a possible hand; one line naming where."""


@dataclass(frozen=True)
class PlayedHand:
    """A record read and refereed: the variant, the hand's record (``hand_record.FIELDS`` order) and a
    trace of its plays and tricks (``hand_record.T_*`` rows, with the call that fixed the sides)."""

    variant: Variant
    rec: np.ndarray
    trace: np.ndarray
    tricks: int


def load_record(path: str | Path) -> dict:
    """The JSON object in ``path``; :class:`RecordError` for a file that cannot be read or parsed."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object with 'variant' and 'moves'")
    return data


def _card(value, where: str) -> int:
    if not isinstance(value, str):
        raise RecordError(f"{where}: card {value!r}: give a card as text, e.g. 'QS' or '10H'")
    try:
        return parse_card(value)
    except HandError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _int(move: dict, key: str, where: str, default=None, low: int = 0, high: int | None = None) -> int:
    value = move.get(key, default)
    if value is None and default is None and key not in move:
        raise RecordError(f"{where}: '{key}' is missing")
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        allowed = f"{low} to {high}" if high is not None else f"{low} or more"
        raise RecordError(f"{where}: '{key}' is {value!r}; allowed: an integer {allowed}")
    return value


def _seat(move: dict, where: str, players: int) -> int:
    return _int(move, "seat", where, high=players - 1)


def _row(move: dict, where: str, v: Variant) -> tuple[int, int, int, int] | None:
    """The trace row of one move (None: a move that is worked out again, not read)."""
    players = v.players
    kind = move.get("move")
    if kind == "deal":
        seat = move.get("seat")
        a = players if seat is None else _seat(move, where, players)
        return h.T_DEAL, a, _card(move.get("card"), where), _int(move, "count", where, 1, low=1)
    if kind == "bid":
        passed = move.get("pass") or move.get("bid") is None
        return h.T_BID, _seat(move, where, players), 0 if passed else _int(move, "bid", where), 0
    if kind == "trump":
        suit = move.get("suit")
        if suit is not None and suit not in SUITS:
            raise RecordError(f"{where}: suit {suit!r}; allowed: S, H, D, C or null (no trump)")
        turned = _card(move["turned"], where) if move.get("turned") is not None else -1
        return h.T_TRUMP, -1 if suit is None else SUITS.index(suit), turned, 0
    if kind in ("pass", "bury", "throw"):
        code = {"pass": h.T_PASS, "bury": h.T_BURY, "throw": h.T_DISCARD}[kind]
        return code, _seat(move, where, players), _card(move.get("card"), where), _int(move, "count", where, 1, low=1)
    if kind in ("widow_card", "draw", "play", "exchange_dix"):
        code = {"widow_card": h.T_SHARE, "draw": h.T_DRAW, "play": h.T_PLAY, "exchange_dix": h.T_EXCHANGE}[kind]
        return code, _seat(move, where, players), _card(move.get("card"), where), 0
    if kind == "call":
        card = move.get("card")
        partner = -1 if move.get("partner") is None else _int(move, "partner", where, high=players - 1)
        return h.T_CALL, -1 if card is None else _card(card, where), partner, 0
    if kind == "table_meld":
        meld = move.get("meld")
        if meld not in STOCK_MELDS:
            raise RecordError(f"{where}: meld {meld!r}; allowed: {', '.join(STOCK_MELDS)}")
        return h.T_MELDED, _seat(move, where, players), STOCK_MELDS.index(meld), _int(move, "points", where)
    if kind == "declare_out":
        return h.T_OUT, _seat(move, where, players), _int(move, "total", where), 0
    if kind == "not_played":
        outcome = move.get("outcome")
        if outcome not in h.OUTCOMES:
            raise RecordError(f"{where}: outcome {outcome!r}; allowed: {', '.join(h.OUTCOMES)}")
        return h.T_OUTCOME, h.OUTCOMES.index(outcome), 0, 0
    if kind == "redeals":
        return h.T_REDEAL, _int(move, "count", where), 0, 0
    if kind in ("contract", "meld", "trick", "score"):
        return None
    allowed = "deal, bid, trump, pass, bury, widow_card, call, throw, draw, exchange_dix, table_meld, play, ..."
    raise RecordError(f"{where}: unknown move {kind!r}; allowed: {allowed} (see docs/analyse.md)")


def _check_deal(v: Variant, rows: list[tuple[int, int, int, int]], name: str) -> None:
    """Every seat dealt the hand size and the deal the variant's deck, else :class:`RecordError`."""
    players = v.players
    counts = np.zeros((players + 1, N_TYPES), dtype=np.int64)
    for _, a, b, c in (r for r in rows if r[0] == h.T_DEAL):
        counts[a, b] += c
    if not counts.any():
        raise RecordError(f"{name}: no 'deal' moves: give each seat's cards as dealt")
    for seat in range(players):
        n = int(counts[seat].sum())
        if n != v.hand_size:
            raise RecordError(f"{name}: seat {seat} is dealt {n} cards; a hand of {v.id} holds {v.hand_size}")
    deck = np.asarray(v.deck_copies, dtype=np.int64)
    over = [t for t in range(N_TYPES) if counts[:, t].sum() > deck[t]]
    if over:
        t = over[0]
        raise RecordError(f"{name}: {card_name(t)} is dealt {int(counts[:, t].sum())} times; the deck holds {deck[t]}")
    short = [t for t in range(N_TYPES) if counts[:, t].sum() < deck[t]]
    if short:
        widow = v.get("deal.widow_kind")
        raise RecordError(
            f"{name}: {card_name(short[0])} is missing from the deal: the seats and the {widow} together hold the deck"
        )


def _broken(table: Table, rows: list[tuple[int, int, int, int]], players: int, why: str) -> str:
    """Where a hand stopped on a broken rule and why, in a player's words: the trick (or the phase
    before the play) and the seat."""
    plays = [r for r in rows if r[0] == h.T_PLAY]
    done = len(table.tricks) * players + len(table.trick)  # the plays the rules accepted
    if why.startswith("moves left after the hand"):
        extra = len(plays) - done
        return (
            f"trick {len(table.tricks) + 1}: the hand is over after {len(table.tricks)} tricks, but the record "
            f"has {extra} more play{'s' * (extra != 1)}"
            if extra > 0
            else f"moves after the end of the hand: {why}"
        )
    why = why.replace("the trace", "the record")
    if table.tricks or table.trick:
        where = f"trick {len(table.tricks) + 1}"
        if done < len(plays) and table.hands:
            _, seat, card, _ = plays[done]
            if 0 <= seat < players and table.hands[seat][card] == 0 and "out of turn" not in why:
                held = " ".join(card_name(c) for c in range(N_TYPES) for _ in range(table.hands[seat][c]))
                why = f"seat {seat} plays {card_name(card)}, which it does not hold (it holds {held})"
    else:
        where = "before the first lead" if table.meld else "the auction" if table.bidder < 0 else "after the auction"
    return f"{where}: {why}"


def read_record(
    data: dict, name: str = "record", base: Path | None = None, variant: Variant | None = None
) -> PlayedHand:
    """The played hand of a record (see the module), refereed; :class:`RecordError` in one line for a
    record that is malformed or not a possible hand. ``name`` labels messages; ``base``: the directory
    a rules file named in the record is relative to; ``variant``: the rules already loaded (rules that
    came as text, with no file to name), used instead of the record's ``variant``."""
    variant_name = data.get("variant") if variant is None else variant.id
    if not isinstance(variant_name, str):
        raise RecordError(f"{name}: 'variant' must name a shipped rules id or a rules file")
    if base is not None and variant_name.endswith(".toml") and not Path(variant_name).is_absolute():
        variant_name = str(base / variant_name)
    try:
        v = require_full_hands(load_variant(variant_name) if variant is None else variant)
    except (RulesError, NotForThisSystem) as exc:
        raise RecordError(f"{name}: {exc}") from None
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
        raise RecordError(f"{name}: 'moves' must be a list of moves, each an object with 'move'")
    rows = []
    for i, move in enumerate(moves):
        what = move.get("move")
        if what == "play":
            what = f"play, trick {move.get('trick')}, seat {move.get('seat')}"
        row = _row(move, f"{name}: move {i + 1} ({what})", v)
        if row is not None:
            rows.append(row)
    _check_deal(v, rows, name)
    table = Table(v.players)
    try:
        rec = referee(v, rows, table=table)
    except RuleBroken as exc:
        raise RecordError(f"{name}: {_broken(table, rows, v.players, str(exc))}") from None
    if len(table.tricks) < v.hand_size:
        outcome = h.OUTCOMES[rec[h.FIELDS[h.F_OUTCOME]]].replace("_", " ")
        raise RecordError(f"{name}: the hand was not played to its last trick ({outcome}): nothing to analyse")
    stated = [m for m in moves if m.get("move") == "trick"]
    for i, (move, (_, _, winner, pts)) in enumerate(zip(stated, table.tricks)):
        if move.get("winner") != winner or move.get("points", pts) != pts:
            raise RecordError(
                f"{name}: trick {i + 1}: the record says seat {move.get('winner')} took {move.get('points')}; "
                f"the rules give seat {winner} {pts}"
            )
    trace = [(h.T_CALL, table.called, table.partner, 0)] if table.partner >= 0 else []
    for leader, cards, winner, pts in table.tricks:
        trace += [(h.T_PLAY, (leader + i) % v.players, c, 0) for i, c in enumerate(cards)]
        trace.append((h.T_TRICK, winner, pts, 0))
    return PlayedHand(
        v,
        np.array([rec[f] for f in h.FIELDS], dtype=np.int64),
        np.array(trace, dtype=np.int64).reshape(-1, 4),
        len(table.tricks),
    )


@dataclass(frozen=True)
class Analysis:
    """The cards of a played hand's last ``tricks_left`` tricks valued (see the module)."""

    variant: Variant
    tricks_left: int
    tricks: int  # tricks in the hand
    limit: int  # 0 with a budget: every card valued, exact or estimated
    decisions: pd.DataFrame  # COLUMNS; value, best, best_card, given_up are None where a solve gave up
    in_play: int
    value: int | None  # the bidding side's double-dummy value at the first analysed trick
    taken: int  # what the bidding side took over those tricks
    side: tuple[int, ...]  # 1 for the bidding side's seats
    bidder: int  # -1: nobody bid (seat 0's side stands for the bidding side)
    budget: int = 0  # trick starts a decision's values may reach (0: exact solves within ``limit``)

    @property
    def estimated(self) -> int:
        """Decisions whose values are estimated (the search's evaluation, not a proof)."""
        return int((~self.decisions["exact"].astype(bool)).sum()) if self.budget else 0

    @property
    def unvalued(self) -> int:
        """Decisions where a solve gave up at the limit."""
        return int(self.decisions["given_up"].isna().sum())

    def per_seat(self) -> pd.DataFrame:
        """Per seat: its role, decisions analysed, decisions valued, points given up over them."""
        d = self.decisions
        g = d.groupby("seat")
        return pd.DataFrame(
            {
                "role": g["role"].first(),
                "decisions": g.size(),
                "valued": g["given_up"].count(),
                "given_up": g["given_up"].sum(min_count=0).astype(int),
            }
        ).reset_index()

    def worst(self, top: int = 3) -> pd.DataFrame:
        """The ``top`` valued decisions that gave up most (ties: the earlier first), those giving up
        nothing left out."""
        d = self.decisions[self.decisions["given_up"].fillna(0) > 0]
        return d.sort_values(["given_up", "trick", "place"], ascending=[False, True, True]).head(top)

    def to_json(self) -> dict:
        def plain(x):
            return (
                None if x is None or (isinstance(x, float) and np.isnan(x)) else x.item() if hasattr(x, "item") else x
            )

        def records(frame: pd.DataFrame) -> list[dict]:
            return [{k: plain(v) for k, v in r.items()} for r in frame.astype(object).to_dict("records")]

        return {
            "variant": self.variant.id,
            "tricks": self.tricks,
            "tricks_left": self.tricks_left,
            "limit": self.limit,
            "budget": self.budget,
            "estimated": self.estimated,
            "bidding_side": [s for s, x in enumerate(self.side) if x],
            "in_play": self.in_play,
            "bidding_side_double_dummy": self.value,
            "bidding_side_took": self.taken,
            "unvalued": self.unvalued,
            "decisions": records(self.decisions),
            "per_seat": records(self.per_seat()),
            "worst": records(self.worst()),
        }


def analyse_hand(
    played: PlayedHand, tricks_left: int | None = None, limit: int | None = None, budget: int = DEFAULT_BUDGET
) -> Analysis:
    """Each card of the last ``tricks_left`` tricks of ``played`` (None: every trick) valued for the
    deciding seat's side: ``value`` with the card played, ``best`` with the best card (``best_card``),
    ``given_up`` = best - value, points from the trick's start. By default every card is valued, exact
    where the solver proves it within ``budget`` trick starts a decision, else estimated (``exact``
    False). With ``limit`` (not None) exact solves only: the trick starts each card's solve may search
    (0: no limit); a decision with a card unvalued has None there. Raises :class:`PositionError` for a
    hand not played to its last trick, ``tricks_left`` out of range or a budget below 1."""
    from simcore.answers.endgame import trace_decisions

    v = played.variant
    n = v.hand_size
    tricks_left = n if tricks_left is None else tricks_left
    if not 1 <= tricks_left <= n:
        raise PositionError(f"--tricks-left {tricks_left}: give 1 to {n}, the tricks of a hand of {v.id}")
    if limit is None and budget < 1:
        raise PositionError(f"--budget {budget}: give a number of trick starts of at least 1")
    exact_only = limit is not None
    decisions, totals = trace_decisions(
        v, played.rec, played.trace, tricks_left, limit=limit or 0, budget=0 if exact_only else budget
    )
    in_play = totals["in_play"]
    won = [int(b) for code, a, b, c in played.trace.tolist() if code == h.T_TRICK]
    first = played.tricks - tricks_left
    rows = []
    for d in decisions:
        trick = played.tricks - d["tricks_left"]
        left = in_play - sum(won[first:trick])  # the points still to take at the trick's start
        flip = d["role"] == "defender"  # card_values gives the bidding side's points
        rows.append(
            {
                "trick": trick + 1,
                "place": d["place"],
                "seat": d["seat"],
                "role": d["role"],
                "card": card_name(d["chosen"]),
                "legal": d["legal"],
                "value": _seen_by(d["value"], flip, left),
                # among equally good cards, the one played
                "best_card": None
                if d["best_card"] is None
                else card_name(d["chosen"] if d["loss"] == 0 else d["best_card"]),
                "best": _seen_by(d["best"], flip, left),
                "given_up": d["loss"],
                "exact": d["exact"],
            }
        )
    side_of = _sides(played)
    return Analysis(
        v,
        tricks_left,
        played.tricks,
        limit or 0,
        pd.DataFrame(rows, columns=list(COLUMNS)),
        in_play,
        totals["value"],
        totals["taken"],
        side_of,
        int(played.rec[h.F_BIDDER]),
        0 if exact_only else budget,
    )


def _seen_by(points: int | None, flip: bool, left: int) -> int | None:
    """The bidding side's ``points`` from a trick's start as the other side sees them (``flip``), with
    ``left`` points still to take (None stays None: a solve that gave up)."""
    return None if points is None else left - points if flip else points


def _sides(played: PlayedHand) -> tuple[int, ...]:
    from simcore.solver.position import sides

    calls = [(int(a), int(b)) for code, a, b, c in played.trace.tolist() if code == h.T_CALL]
    return sides(played.variant, int(played.rec[h.F_BIDDER]), calls[0][1] if calls else -1)
