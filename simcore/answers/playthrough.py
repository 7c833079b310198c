"""Readable playthroughs of one seeded hand: the deal, bids, exchange, melds, every trick, the score.

``pinochle playthrough --variant ID --seed S`` prints one; the golden files in ``tests/golden/`` are
such texts, and a test replays each and compares, so a change of rules or policies that alters a
hand must update its file on purpose
(``PINOCHLE_UPDATE_GOLDEN=1 pytest tests/test_conformance.py -k golden``).
"""

from __future__ import annotations

import numpy as np

from simcore.cards import SUITS, card_name
from simcore.kernels import hand_record as h
from simcore.kernels.hand_drivers import trace_hand
from simcore.kernels.policies import POLICY_NAMES
from simcore.kernels.stock import STOCK_MELDS
from simcore.variants import Variant


def _cards(rows: list[tuple[int, int]]) -> str:
    return " ".join(" ".join([card_name(t)] * n) for t, n in rows)


def playthrough_text(variant: Variant, seed: int, policies: np.ndarray) -> str:
    """The first hand of ``seed`` under ``policies``, move by move (seats clockwise from the dealer's
    left; the dealer is the last seat)."""
    rec, trace = trace_hand(variant, seed, policies)
    names = ",".join(POLICY_NAMES[p] for p in policies)
    lines = [
        f"{variant.id}: first hand of seed {seed}, policies {names}",
        f"seats 0..{variant.players - 1} clockwise from the dealer's left; the dealer is seat {variant.players - 1}",
    ]
    deal: dict[int, list[tuple[int, int]]] = {}
    bids, passes, buried, melds, trick = [], [], [], [], []
    draws: dict[int, tuple[list, list]] = {}
    stock = variant.get("play.stock_play")
    turned_shown = variant.get("exchange.dix_for_turned")  # the trace then carries the turned card
    stock_draws: list[str] = []  # cards drawn after a stock trick, shown on one line
    n_trick = 0
    for code, a, b, c in trace.tolist():
        if stock_draws and code != h.T_DRAW:
            lines.append("  draw: " + ", ".join(stock_draws))
            stock_draws = []
        if stock and code == h.T_TRUMP:
            lines.append(f"trump: {SUITS[a]} (turned {card_name(b)}; the rest of the stock face down)")
        elif stock and code == h.T_DRAW:
            stock_draws.append(f"seat {a} {card_name(b)}")
        elif code == h.T_MELDED:
            what = "shows the dix" if b == STOCK_MELDS.index("dix") else f"melds {STOCK_MELDS[b].replace('_', ' ')}"
            lines.append(f"  seat {a} {what}: {c}" + (" (turned dix, for the dealer)" if n_trick == 0 else ""))
        elif code == h.T_EXCHANGE:
            lines.append(f"  seat {a} exchanges the dix for the turned {card_name(b)}")
        elif code == h.T_OUT:
            lines.append(f"seat {a} declares himself out with {b}")
        elif code == h.T_DEAL:
            deal.setdefault(a, []).append((b, c))
        elif code == h.T_REDEAL:
            for seat in range(variant.players + 1):
                label = f"seat {seat}" if seat < variant.players else variant.get("deal.widow_kind")
                if seat in deal:
                    lines.append(f"{label:>8}: {_cards(deal[seat])}")
            lines.append(f"redeals before this deal: {a}")
        elif code == h.T_BID:
            bids.append(f"{a}:{b if b else 'pass'}")
        elif code == h.T_CONTRACT:
            if bids:
                lines.append("bids (seat:bid): " + " ".join(bids))
            lines.append("no bid" if a < 0 else f"contract: seat {a} at {b}")
        elif code == h.T_TRUMP and turned_shown:
            lines.append(f"trump: {SUITS[a]} (turned {card_name(b)}, the dealer's)")
        elif code == h.T_TRUMP:
            lines.append("trump: none (no trump marriage)" if a < 0 else f"trump: {SUITS[a]}")
        elif code == h.T_PASS:
            passes.append((a, b, c))
        elif code == h.T_CALL and a < 0:
            lines.append("the bidder calls no partner and plays alone")
        elif code == h.T_CALL:
            named = "names" if variant.get("teams.call") == "named" else "is partnered by the holder of"
            lines.append(
                f"the bidder {named} {card_name(a)}: "
                + (f"seat {b} holds it and is his partner" if b >= 0 else "nobody else holds it, he plays alone")
            )
        elif code == h.T_SHARE:
            lines.append(f"widow card to seat {a}: {card_name(b)}")
        elif code == h.T_BURY:
            buried.append((b, c))
        elif code in (h.T_DISCARD, h.T_DRAW):
            draws.setdefault(a, ([], []))[code == h.T_DRAW].append((b, c))
        elif code == h.T_MELD:
            for seat, (thrown, drawn) in draws.items():
                lines.append(
                    f"seat {seat} throws "
                    + (_cards(thrown) if thrown else "nothing")
                    + (f", draws {_cards(drawn)}" if drawn else "")
                )
            draws = {}
            if passes:
                for giver in dict.fromkeys(p[0] for p in passes):
                    lines.append(f"seat {giver} passes: " + _cards([(t, n) for g, t, n in passes if g == giver]))
                passes = []
            if buried:
                lines.append("buried: " + _cards(buried))
                buried = []
            melds.append(f"{a}:{b}")
            if len(melds) == variant.players:
                lines.append("meld (seat:points): " + " ".join(melds))
        elif code == h.T_OUTCOME:
            lines.append(f"not played: {h.OUTCOMES[a].replace('_', ' ')}")
        elif code == h.T_PLAY:
            trick.append(f"{a}:{card_name(b)}")
        elif code == h.T_TRICK:
            n_trick += 1
            lines.append(f"trick {n_trick:>2}: {' '.join(trick)} -> seat {a} takes {b}")
            trick = []
        elif code == h.T_SCORE and stock:
            lines.append(f"score: seat 0 {a}, seat 1 {b} (meld and counted trick points)")
        elif code == h.T_SCORE:
            made = {1: "made", 0: "not made", -1: "no contract"}[c]
            lines.append(f"score: bidder's side {a}, other side {b} ({made})")
    lines.append("record: " + " ".join(f"{f}={v}" for f, v in zip(h.FIELDS, rec.tolist())))
    return "\n".join(lines) + "\n"


def playthrough_moves(variant: Variant, seed: int, policies: np.ndarray) -> dict:
    """The hand of :func:`playthrough_text` as data (``pinochle playthrough --json``): ``moves`` in the
    order they happened, each a dict with ``move`` and its fields (seats as in the text; cards as
    text, e.g. ``"QS"``; a card dealt ``count`` times is one move), and the hand's ``record``."""
    rec, trace = trace_hand(variant, seed, policies)
    players, stock = variant.players, bool(variant.get("play.stock_play"))
    widow = variant.get("deal.widow_kind")
    moves: list[dict] = []
    n_trick = 0
    for code, a, b, c in trace.tolist():
        if code == h.T_DEAL:
            m = {
                "move": "deal",
                "to": f"seat {a}" if a < players else widow,
                "seat": a if a < players else None,
                "card": card_name(b),
                "count": c,
            }
        elif code == h.T_REDEAL:
            m = {"move": "redeals", "count": a}
        elif code == h.T_BID:
            m = {"move": "bid", "seat": a, "bid": b or None, "pass": b == 0}
        elif code == h.T_CONTRACT:
            m = {"move": "contract", "seat": a if a >= 0 else None, "bid": b if a >= 0 else None}
        elif code == h.T_TRUMP:
            m = {"move": "trump", "suit": SUITS[a] if a >= 0 else None}
            if stock or variant.get("exchange.dix_for_turned"):
                m["turned"] = card_name(b)
        elif code == h.T_PASS:
            m = {"move": "pass", "seat": a, "card": card_name(b), "count": c}
        elif code == h.T_BURY:
            m = {"move": "bury", "seat": a, "card": card_name(b), "count": c}
        elif code == h.T_SHARE:
            m = {"move": "widow_card", "seat": a, "card": card_name(b)}
        elif code == h.T_CALL:
            m = {"move": "call", "card": card_name(a) if a >= 0 else None, "partner": b if a >= 0 and b >= 0 else None}
        elif code in (h.T_DISCARD, h.T_DRAW):
            m = {"move": "throw" if code == h.T_DISCARD else "draw", "seat": a, "card": card_name(b), "count": c}
        elif code == h.T_MELD:
            m = {"move": "meld", "seat": a, "points": b}
        elif code == h.T_MELDED:
            m = {"move": "table_meld", "seat": a, "meld": STOCK_MELDS[b], "points": c}
        elif code == h.T_EXCHANGE:
            m = {"move": "exchange_dix", "seat": a, "card": card_name(b)}
        elif code == h.T_OUT:
            m = {"move": "declare_out", "seat": a, "total": b}
        elif code == h.T_OUTCOME:
            m = {"move": "not_played", "outcome": h.OUTCOMES[a]}
        elif code == h.T_PLAY:
            m = {"move": "play", "trick": n_trick + 1, "seat": a, "card": card_name(b)}
        elif code == h.T_TRICK:
            n_trick += 1
            m = {"move": "trick", "trick": n_trick, "winner": a, "points": b}
        elif code == h.T_SCORE and stock:
            m = {"move": "score", "seat_0": a, "seat_1": b}
        elif code == h.T_SCORE:
            m = {
                "move": "score",
                "side": a,
                "other": b,
                "result": {1: "made", 0: "not made", -1: "no contract"}.get(c, "not made"),
            }
        else:
            m = {"move": f"code {code}", "a": a, "b": b, "c": c}
        moves.append(m)
    return {
        "variant": variant.id,
        "seed": seed,
        "policies": [POLICY_NAMES[p] for p in policies],
        "players": players,
        "dealer": players - 1,
        "moves": moves,
        "record": dict(zip(h.FIELDS, rec.tolist())),
    }
