"""The deal viewer's state: a hand replayed from its seed (or given cards) and the decisions taken so
far, through the state API (:func:`simcore.api.new_hand`), with every hand face up and each legal card's
double-dummy value.

The page keeps no state on the server: it sends the decisions so far and gets the whole view back.
A decision is an :class:`simcore.state.Action` code, or :data:`HEURISTIC` for "the kernel's heuristic
decides here", so a replay asks the heuristic again at the same point and draws what it drew (its
choices use the hand's random stream). Decisions other than playing a card (bids, trump, passing,
burying, meld) are left to the heuristic.
"""

from __future__ import annotations

import threading

import numpy as np

from simcore.solver.position import VALUES_BUDGET
from simcore.web.errors import short_value
from simcore.web.inputs import InputError

#: A decision left to the heuristic.
HEURISTIC = -1
#: The solver keeps one table per process: one solve at a time.
_SOLVER = threading.Lock()


def deal_view(variant, seed: int, cards: list[str] | None, moves: list[int], then: str, values: bool) -> dict:
    """The view after replaying ``moves`` (see the module), then ``then`` (none, heuristic: the
    heuristic's next card, finish: the heuristic to the end), with each legal card's double-dummy value
    if ``values``. Bad moves raise :class:`InputError`."""
    state, done = _replay(variant, seed, cards, moves, then)
    return _view(state, done, values)


def deal_values(variant, seed: int, cards: list[str] | None, moves: list[int]) -> dict:
    """Only the values of the view after ``moves``: ``moves`` (as the view's), ``values`` ({card:
    points} or None), ``values_exact`` ({card: true where proved, false where estimated} or None) and
    ``values_note``; progress, in cards valued, goes to the run's
    :class:`simcore.run.runner.Execution`, whose ``stop`` ends the solves between cards."""
    state, done = _replay(variant, seed, cards, moves, "none")
    r = state.request()
    if r is None or r.kind != "play":
        return {"moves": done, "values": None, "values_exact": None, "values_note": "no card to play"}
    found, exact, note = _values(state, [state.observation(s) for s in range(variant.players)])
    return {"moves": done, "values": found, "values_exact": exact, "values_note": note}


def deal_analysis(variant, seed: int, cards: list[str] | None, moves: list[int]) -> dict:
    """Where the hand played by ``moves`` (to its end) gave up points against double dummy: the
    :class:`simcore.answers.analyse.Analysis` of every trick as JSON, exact where the solver proves a
    decision's values within the command's budget, else estimated (progress in cards valued; ``stop``
    ends it between cards). A hand not over raises :class:`InputError`."""
    from simcore.answers.analyse import analyse_hand, read_record

    state, _ = _replay(variant, seed, cards, moves, "none")
    if not state.is_terminal():
        raise InputError("moves", "the hand is not over: play it to the end first")
    played = read_record(state.played_record(), "the hand", variant=variant)
    with _SOLVER:
        return analyse_hand(played).to_json()


def makeable_deal(variant, seed: int, cards: list[str] | None) -> list:
    """The deal the makeable table of ``seed`` (or the entered ``cards``, one line a seat, a widow line
    after them ignored) is of, as :mod:`simcore.answers.makeable` takes it; a system or deal it cannot
    take raises :class:`InputError` (on ``variant`` or ``cards``)."""
    from simcore.answers.dd_make import check_variant
    from simcore.answers.makeable import MakeableError, given_deal, seeded_deal
    from simcore.variants import NotForThisSystem

    try:
        check_variant(variant)
    except NotForThisSystem as exc:
        raise InputError("variant", str(exc)) from None
    try:
        if cards is None:
            return seeded_deal(variant, seed)
        return given_deal(variant, list(cards[: variant.players]))
    except MakeableError as exc:
        raise InputError("cards" if cards is not None else "seed", str(exc)) from None


def deal_makeable(variant, deal: list, exchange: str, limit: int, budget: int) -> dict:
    """The makeable table of ``deal`` (:func:`makeable_deal`) as JSON
    (:meth:`simcore.answers.makeable.Makeable.to_json`), its solves escalated from ``limit`` trick starts
    a solve within ``budget`` trick starts; progress in trick starts of the budget."""
    from simcore.answers.makeable import table_of_deal

    with _SOLVER:
        return table_of_deal(variant, deal, None, exchange, limit, budget=budget).to_json()


def _replay(variant, seed: int, cards: list[str] | None, moves: list[int], then: str):
    """(the state after ``moves`` and ``then``, the moves taken, as the page keeps them)."""
    from simcore.api import new_hand
    from simcore.state import MAX_CODE, IllegalAction
    from simcore.state.players import kernel_policy

    if cards is not None:  # an empty line is no cards (a widow-less system's widow), as is a missing widow line
        cards = [c if c.strip() else [] for c in cards] + ([[]] if len(cards) == variant.players else [])
    try:
        state = new_hand(variant, seed=seed, cards=cards)
    except ValueError as exc:
        raise InputError("cards" if cards is not None else "variant", str(exc)) from None
    heuristic = kernel_policy("heuristic")
    done: list[int] = []

    def step(code: int) -> None:
        action = heuristic(state) if code == HEURISTIC else code
        state.apply(action)
        done.append(code)

    def advance() -> None:  # every decision but a card played is the heuristic's
        while not state.is_terminal() and state.request().kind != "play":
            step(HEURISTIC)

    for i, code in enumerate(moves):  # as sent: the heuristic's own steps are in the list as HEURISTIC
        if not HEURISTIC <= code <= MAX_CODE:
            raise InputError(
                "moves",
                f"move {i + 1}: {short_value(code)} is not a decision: an action code from 0 to {MAX_CODE:,}, "
                f"or {HEURISTIC} for the heuristic's",
            )
        if state.is_terminal():
            raise InputError("moves", f"move {i + 1}: the hand is already over")
        try:
            step(int(code))
        except IllegalAction as exc:
            raise InputError("moves", f"move {i + 1}: {exc}") from None
    advance()
    if then == "heuristic" and not state.is_terminal():
        step(HEURISTIC)
        advance()
    while then == "finish" and not state.is_terminal():
        step(HEURISTIC)
    return state, done


def _view(state, moves: list[int], values: bool) -> dict:
    v = state.variant
    observed = [state.observation(s) for s in range(v.players)]
    o = observed[0]
    r = state.request()
    partner = next((x["partner"] for x in observed if x["partner"] is not None), None)
    bidder = o["bidder"] if o["bidder"] is not None and o["bidder"] >= 0 else None
    view = {
        "variant": v.id,
        "players": v.players,
        "hand_size": v.hand_size,
        "has_auction": v.get("auction.kind") not in (None, "none"),
        "moves": moves,
        "over": state.is_terminal(),
        "hands": [x["hand"] for x in observed],
        "to_act": None if r is None else r.seat,
        "bids": o["bids"],
        "bidder": bidder,
        "bid": o["bid"] if bidder is not None else None,
        "trump": o["trump"],
        "turned": o["turned"],
        "called": o["called"],
        "partner": partner,
        "meld": o["meld"],
        "before_play": before_play(state, observed),
        "sides": side_points(v, o, bidder, partner),
        "trick": [[s, c] for s, c in o["trick"]],
        "tricks": [{"leader": lead, "cards": c, "winner": w, "points": p} for lead, c, w, p in o["tricks"]],
        "points": o["points"],
        "stock": o["stock"],
        "returns": state.returns() if state.is_terminal() else None,
        "legal": [],
        "values": None,
        "values_exact": None,
        "values_note": None,
    }
    if r is not None and r.kind == "play":
        view["legal"] = [{"code": a.code, "card": _card(a.value)} for a in state.legal_actions()]
        if values:
            view["values"], view["values_exact"], view["values_note"] = _values(state, observed)
    return view


def before_play(state, observed: list[dict]) -> list[dict]:
    """What happened to the hand besides the bids and the tricks, in order, every card face up: trump
    named (or turned), a partner called, cards passed (``seat`` to ``to``), buried, thrown, drawn,
    shared out of the widow, a dix exchanged, meld laid on the table, a hand not played; each a dict
    of :meth:`simcore.state.HandState.played_record`'s move, with ``to`` added to a pass. The widow's
    cards as dealt come first (``{"move": "widow", "cards": [...]}``) where the system deals one."""
    record = state.played_record()["moves"]
    dealt = [m for m in record if m["move"] == "deal" and m["seat"] is None]
    out = []
    if dealt:
        out.append(
            {"move": "widow", "kind": dealt[0]["to"], "cards": [m["card"] for m in dealt for _ in range(m["count"])]}
        )
    # a pass's receiver, from the table's card moves (each seen by its giver or taker): the n-th pass
    # of the record is the n-th "give" of the observations
    gives = [to for who, kind, _, to in observed[0]["moves"] if kind == "give"]
    passes = iter(gives)
    for m in record:
        if m["move"] in ("deal", "redeals", "bid", "play", "trick"):
            continue
        if m["move"] == "pass":
            m = {**m, "to": next(passes, None)}
        out.append(m)
    return out


def side_points(v, o: dict, bidder: int | None, partner: int | None) -> list[dict]:
    """The points each side holds so far: its seats, the trick points taken and the meld shown (None
    before the meld is shown). The sides are the ones the tricks are played between: partners
    across the table where the rules seat them so; else the bidder (with his partner, once known)
    against the others together; with no bidder, every seat on its own."""
    from simcore.solver.position import sides

    n = v.players
    if v.get("teams.kind") == "partners_across":
        groups = [[s for s in range(n) if s % 2 == k] for k in range(2)]
    elif bidder is not None:
        side = sides(v, bidder, partner if partner is not None else -1)
        groups = [[s for s in range(n) if side[s]], [s for s in range(n) if not side[s]]]
    else:
        groups = [[s] for s in range(n)]
    meld = o["meld"]
    return [
        {
            "seats": g,
            "bidding": bidder in g,
            "tricks": int(sum(o["points"][s] for s in g)),
            "meld": None if meld is None else int(sum(meld[s] for s in g)),
        }
        for g in groups
    ]


def _card(t: int) -> str:
    from simcore.cards import card_name

    return card_name(t)


def _values(state, observed: list[dict]) -> tuple[dict | None, dict | None, str]:
    """({card: points the side to play takes from this trick's start on}, {card: exact?}, a note), or
    (None, None, why not). Exact where the solver proves the value within :data:`VALUES_BUDGET` trick
    starts, else estimated by the depth-limited search with the learned evaluation
    (:func:`simcore.solver.position.searched_card_values`)."""
    from simcore.cards import N_TYPES, parse_card
    from simcore.solver.position import Position, searched_card_values, sides

    v, o = state.variant, observed[0]
    partner = next((x["partner"] for x in observed if x["partner"] is not None), None)
    if o["stock"]:
        return None, None, "no double-dummy values while a stock lasts (its order is hidden)"
    if o["trump"] is None:
        return None, None, "no trump named"
    trump = "SHDC".index(o["trump"])
    seat = state.current_player()
    hands = np.zeros((v.players, N_TYPES), dtype=np.uint8)
    for s, x in enumerate(observed):
        for c in x["hand"]:
            hands[s, parse_card(c)] += 1
    trick = [(s, parse_card(c)) for s, c in o["trick"]]
    for s, c in trick:
        hands[s, c] += 1
    leader = trick[0][0] if trick else seat
    bidder = o["bidder"] if o["bidder"] is not None else -1
    side = sides(v, bidder, partner if partner is not None else -1)
    broken = any(parse_card(c) // 6 == trump for _, cards, _, _ in o["tricks"] for c in cards)
    position = Position(v, hands, trump, leader, side, bidder, not o["tricks"], broken)
    with _SOLVER:
        found = searched_card_values(position, [c for _, c in trick], VALUES_BUDGET)
    mine = side[seat] == 1
    out = {_card(c): (x.points if mine else position.in_play - x.points) for c, x in found.items()}
    exact = {_card(c): x.exact for c, x in found.items()}
    note = "points the side to play takes from this trick on, every hand known and perfect play"
    if not all(exact.values()):
        depth = max(x.depth for x in found.values())
        note += (
            f"; ≈ estimated: {depth} trick{'s' if depth > 1 else ''} searched, then the learned evaluation "
            "(mean error measured in docs/solver.md)"
        )
    return out, exact, note
