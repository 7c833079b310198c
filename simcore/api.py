"""The Python API for notebooks: one call per question, tidy pandas DataFrames back.

Every function takes the rules as a shipped id (``"double-deck"``), a path to a rules file, or a
:class:`simcore.variants.Variant`, plus keyword options with the command line's defaults (policy
``"heuristic"`` at every seat, seed 1, the same sizes). ``overrides`` are ``--set`` strings
(``["meld.double_pinochle=300"]``) applied when the rules are loaded from an id or a path.

Each returns a DataFrame with one row per observation: ``variant`` and ``seed`` where they apply,
estimates as ``estimate`` with their 95% interval ``lo`` .. ``hi`` and ``one_in`` (1 / estimate, for
shares; NaN for means and where the estimate is 0), and names (pandas categoricals) rather than
integer codes. The numbers are those of the matching command's ``--json`` for the same arguments.

* :func:`variants` — the shipped rule systems;
* :func:`meld` — a hand's meld under each trump, meld by meld (exact);
* :func:`odds` — dealt-hand events per hand and per deal, simulated beside the exact values;
* :func:`hold_odds` — the same events for my partner, each opponent and the widow, given my cards;
* :func:`simulate` — full hands: make, set and outcome rates, mean bid, meld, tricks and scores;
* :func:`hand_records` — the record of every hand played, one row per hand;
* :func:`bid_odds` — P(the bidding side makes) by bid, meld, trump length and aces;
* :func:`advise` — what a hand would make as bidder: P(make B) over random deals of the unseen cards;
* :func:`widow` — my meld after the widow under each trump, exact over every widow the unseen cards allow;
* :func:`games` — whole games: win rates, game length, sets, redeals, final scores;
* :func:`compare` — two rule sets (or a named house-rule question) on the same deals;
* :func:`solve` — double dummy: the trick points each side takes from a position with every hand known;
* :func:`analyse` — where a played hand went wrong: each card of its last tricks against double dummy.

``import simcore`` stays cheap: ``from simcore import
odds`` loads this module (and numpy, numba, pandas) on first use. ``variants`` is the one name not
re-exported from ``simcore``, where ``simcore.variants`` is the rules package: use
``from simcore.api import variants``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from simcore.variants import (
    Variant,
    load_variant,
    require_auction,
    require_full_hands,
    rule_differences,
    shipped_ids,
)

__all__ = [
    "advise",
    "analyse",
    "bid_odds",
    "compare",
    "games",
    "hand_records",
    "hold_odds",
    "makeable",
    "meld",
    "new_hand",
    "odds",
    "simulate",
    "solve",
    "variants",
    "widow",
]

DEFAULT_VARIANT = "four-hand-150"
VariantLike = str | os.PathLike | Variant


def _variant(variant: VariantLike, overrides: Iterable[str] = ()) -> Variant:
    """The :class:`Variant` for an id, a rules-file path or a Variant (``overrides`` need an id or path)."""
    overrides = [overrides] if isinstance(overrides, str) else list(overrides)
    if isinstance(variant, Variant):
        if overrides:
            raise ValueError(
                "overrides apply when rules are loaded: give the id or the rules file with "
                f"overrides={overrides!r}, not a Variant"
            )
        return variant
    if not isinstance(variant, (str, os.PathLike)):
        raise ValueError(f"variant={variant!r}: give a rules id, a rules file's path or a Variant")
    return load_variant(os.fspath(variant), overrides, names=API_NAMES)


#: What the API's messages call the rules and the overrides (``variant = 'x': ...``, ``overrides: ...``).
API_NAMES = ("", "overrides")
#: Where the API's message for an unknown event sends the reader.
API_EVENTS = "the events are in simcore.kernels.events.CATALOGUE, and meld>=X"


def _policies(policy: str | Sequence[str], players: int) -> np.ndarray:
    """int64 policy codes from ``"heuristic"``, ``"heuristic,random,..."`` or a list of names."""
    from simcore.kernels.policies import parse_policies

    return parse_policies(policy if isinstance(policy, str) else ",".join(policy), players, label="policy")


def _events(events: str | Sequence[str] | None, v: Variant) -> list:
    """The parsed events (default: every catalogue event), unknown names refused in the API's words."""
    from simcore.kernels.events import CATALOGUE, parse_event

    names = [events] if isinstance(events, str) else list(events or CATALOGUE)
    return [parse_event(n, v, API_EVENTS) for n in names]


def _category(values: Sequence, categories: Sequence | None = None) -> pd.Categorical:
    """A categorical in the order the values first appear (or ``categories``' order)."""
    values = list(values)
    return pd.Categorical(values, categories=list(dict.fromkeys(values)) if categories is None else list(categories))


def _one_in(estimate: float) -> float:
    return 1.0 / estimate if estimate > 0 else math.nan


def _interval_rows(kind: str, intervals: dict, share: bool) -> list[dict]:
    return [
        {
            "kind": kind,
            "measure": name,
            "estimate": iv.estimate,
            "lo": iv.lo,
            "hi": iv.hi,
            "one_in": _one_in(iv.estimate) if share else math.nan,
        }
        for name, iv in intervals.items()
    ]


def _frame(rows: list[dict], front: dict, categorical: Sequence[str] = ()) -> pd.DataFrame:
    """Rows with the run's ``front`` columns first (the same on every row), ``categorical`` columns as
    categoricals."""
    frame = pd.DataFrame(rows)
    for name in reversed(list(front)):
        frame.insert(0, name, [front[name]] * len(frame))
    for name in categorical:
        frame[name] = _category(frame[name])
    return frame


def variants() -> pd.DataFrame:
    """The shipped rule systems, one row each: ``id``, ``name``, ``description``, ``players``,
    ``cards`` (the deck), ``plays_hands`` (full hands can be simulated) and ``plays_games`` (whole games).

    >>> v = variants()
    >>> v.loc[v.id == "double-deck", ["players", "cards", "plays_games"]].to_dict("records")
    [{'players': 4, 'cards': 80, 'plays_games': True}]
    """
    rows = []
    for i in shipped_ids():
        v = load_variant(i)
        rows.append(
            {
                "id": v.id,
                "name": v.name,
                "description": v.description,
                "players": v.players,
                "cards": v.deck_size,
                "plays_hands": v.get("auction.kind") is not None,
                "plays_games": bool(v.has_game_rules),
            }
        )
    return pd.DataFrame(rows)


def meld(
    hand: str | Sequence[str],
    variant: VariantLike = DEFAULT_VARIANT,
    trump: str | None = None,
    overrides: Iterable[str] = (),
) -> pd.DataFrame:
    """A hand's meld under every trump (or only ``trump``, one of S H D C): one row per named meld
    held, with ``variant``, ``hand``, ``trump``, ``total`` (the hand's meld under that trump), ``best``
    (the trump the hand melds most under), ``meld``, ``count`` and ``points``. A trump under which
    the hand melds nothing has one row with ``meld`` missing and 0 points. As ``pinochle meld``.

    >>> m = meld("AS AS 10S KS QS QS JS JD JD KH QH 9S")
    >>> m.groupby("trump", observed=True)["points"].sum().to_dict()
    {'S': 48, 'H': 36, 'D': 34, 'C': 34}
    >>> list(m.loc[m.best & (m.points > 0), "meld"])
    ['run', 'marriage', 'dix', 'pinochle']
    """
    from simcore.cards import SUITS, check_hand, format_hand, parse_hand
    from simcore.kernels.meld import N_NAMED, NAMED_MELDS, meld_breakdown, meld_by_trump

    v = _variant(variant, overrides)
    counts_in = parse_hand(hand)
    check_hand(counts_in, v.deck_copies, v.hand_size)
    table, flags = v.meld_table, v.meld_flags
    totals = np.zeros(4, dtype=np.int64)
    best = int(meld_by_trump(counts_in, table, flags, totals))
    if trump is not None and str(trump).upper() not in SUITS:
        raise ValueError(f"trump {trump!r} is not a suit; give one of S H D C")
    suits = range(4) if trump is None else [SUITS.index(str(trump).upper())]
    rows = []
    for s in suits:
        counts, points = np.zeros(N_NAMED, dtype=np.int64), np.zeros(N_NAMED, dtype=np.int64)
        total = int(meld_breakdown(counts_in, s, table, flags, counts, points))
        held = [(NAMED_MELDS[i], int(counts[i]), int(points[i])) for i in range(N_NAMED) if counts[i]]
        for name, c, p in held or [(None, 0, 0)]:
            rows.append({"trump": SUITS[s], "total": total, "best": s == best, "meld": name, "count": c, "points": p})
    frame = _frame(rows, {"variant": v.id, "hand": format_hand(counts_in)})
    frame["trump"] = _category(frame["trump"], SUITS)
    frame["meld"] = _category(frame["meld"], NAMED_MELDS)
    return frame


def odds(
    events: str | Sequence[str] | None = None,
    variant: VariantLike = DEFAULT_VARIANT,
    hands: int = 4_000_000,
    seed: int = 1,
    overrides: Iterable[str] = (),
    hold: str | None = None,
    given: str | Sequence[str] | None = None,
    auction: str | None = None,
) -> pd.DataFrame:
    """Dealt-hand events (default: every catalogue event; ``"meld>=30"`` too) over ``hands`` dealt
    hands, as ``pinochle odds``: two rows per event, ``per`` "hand" (the share of dealt hands holding
    it) and "deal" (at least one player holds it), with ``variant``, ``seed``, ``hands``, ``deals``,
    ``event``, ``estimate``, ``lo``, ``hi``, ``one_in`` and ``exact`` (NaN where not known exactly).

    With ``hold`` (cards seat 0 holds) or ``given`` (what the table has shown, in the ``--given``
    language of docs/given.md, e.g. ``"left: holds AS; partner: meld>=20"``), as ``pinochle odds --hold
    --given``: one row per event and ``place`` (me, partner, left, right, any_other, table, widow), the
    deals kept being those that meet ``given``; ``attrs["acceptance"]`` holds the share of deals that
    met it (``tried``, ``accepted``, ``acceptance``). ``auction``: the calls so far in turn order from the
    dealer's left (``"pass 260 270"``), the deals kept being those where the model bidders would have
    made them (docs/given.md), as a condition beside ``given``.

    >>> o = odds("double-pinochle", hands=40_000, seed=3)
    >>> o[["per", "exact"]].round(5).values.tolist()
    [['hand', 0.00254], ['deal', 0.01018]]
    >>> bool(((o.lo <= o.estimate) & (o.estimate <= o.hi)).all())
    True
    """
    from simcore.answers.odds import simulate_odds

    v = _variant(variant, overrides)
    _positive("hands", hands)
    _seed(seed)
    parsed = _events(events, v)
    if hold is not None or given is not None or auction is not None:
        return _odds_given(v, parsed, hands, seed, hold, given, auction)
    result = simulate_odds(v, parsed, hands, seed)
    rows = []
    for o in result.events:
        for per, iv, exact in (("hand", o.per_hand, o.exact_hand), ("deal", o.per_deal, o.exact_deal)):
            rows.append(
                {
                    "event": o.event.name,
                    "per": per,
                    "estimate": iv.estimate,
                    "lo": iv.lo,
                    "hi": iv.hi,
                    "one_in": _one_in(iv.estimate),
                    "exact": float(exact) if exact is not None else math.nan,
                }
            )
    frame = _frame(rows, {"variant": v.id, "seed": seed, "hands": result.hands, "deals": result.deals}, ["event"])
    frame["per"] = _category(frame["per"], ["hand", "deal"])
    return frame


def hold_odds(
    hand: str | Sequence[str],
    events: str | Sequence[str] | None = None,
    variant: VariantLike = DEFAULT_VARIANT,
    hands: int = 4_000_000,
    seed: int = 1,
    overrides: Iterable[str] = (),
) -> pd.DataFrame:
    """Dealt-hand events (default: every catalogue event) given the cards I hold (seat 0, the dealer's
    left; fewer than a hand: the rest of my hand is dealt at random too), as ``pinochle odds --hold``:
    one row per event and place (``me``, ``partner``, ``left``, ``right``, ``any_other``, ``table``,
    ``widow``; those the system has), with ``variant``, ``seed``, ``hand``, ``deals`` (``hands`` //
    players, rounded up), ``event``, ``place``, ``estimate``, ``lo``, ``hi``, ``one_in`` and ``exact``
    (NaN where not known exactly).

    >>> h = hold_odds("AS AS 10S KS QS JS 9S AH KH QH AD JD", "double-pinochle", "four-hand-150", hands=8_000)
    >>> list(h["place"]), float(h.loc[h.place == "me", "exact"].iloc[0])
    (['me', 'partner', 'left', 'right', 'any_other', 'table'], 0.0)
    """
    from simcore.answers.given import given_odds
    from simcore.cards import check_hand, format_hand, parse_hand

    v = _variant(variant, overrides)
    _positive("hands", hands)
    _seed(seed)
    given = parse_hand(hand if isinstance(hand, str) else " ".join(hand))
    check_hand(given, v.deck_copies, v.hand_size, partial=True)
    result = given_odds(v, _events(events, v), given, hands, seed)
    rows = []
    for event, by_place in result.events:
        for place, o in by_place.items():
            rows.append(
                {
                    "event": event.name,
                    "place": place,
                    "estimate": o.estimate.estimate,
                    "lo": o.estimate.lo,
                    "hi": o.estimate.hi,
                    "one_in": _one_in(o.estimate.estimate),
                    "exact": float(o.exact) if o.exact is not None else math.nan,
                }
            )
    return _frame(
        rows, {"variant": v.id, "seed": seed, "hand": format_hand(given), "deals": result.deals}, ["event", "place"]
    )


def _positive(name: str, value: int | None, least: int = 1) -> None:
    """Refuse a number that is not a whole number of at least ``least`` (None passes), in the API's words."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least):
        raise ValueError(f"{name}={value!r}: give a whole number of at least {least}")


def _seed(seed: int | None) -> None:
    """Refuse a seed that is not a whole number of at least 0 (None passes where a seed is optional)."""
    _positive("seed", seed, least=0)


def _condition(v: Variant, given: str | Sequence[str] | None, me: int):
    """The parsed ``given=`` condition (None for none), places seen from seat ``me``."""
    from simcore.answers.conditioned import read_condition

    if given is None:
        return None
    if not isinstance(given, str) and not (
        isinstance(given, Sequence) and all(isinstance(clause, str) for clause in given)
    ):
        raise ValueError(
            f"given={given!r:.40}: give the conditions as text, e.g. 'left: holds AS; partner: meld>=20', "
            "or a list of such clauses"
        )
    return read_condition(v, given if isinstance(given, str) else list(given), me, label="given=")


def _odds_given(
    v: Variant,
    events: list,
    hands: int,
    seed: int,
    hold: str | None,
    given: str | Sequence[str] | None,
    auction: str | None,
) -> pd.DataFrame:
    """:func:`odds` with cards held by seat 0 and a condition: one row per event and place."""
    from simcore.answers.given import given_odds
    from simcore.cards import check_hand, parse_hand
    from simcore.kernels.auction_condition import read_auction, with_auction

    cards = np.zeros(24, dtype=np.uint8) if hold is None else parse_hand(hold)
    check_hand(cards, v.deck_copies, v.hand_size, partial=True)
    calls = None if auction is None else read_auction(v, auction, label="auction=")[1]
    result = given_odds(v, events, cards, hands, seed, condition=with_auction(_condition(v, given, 0), calls))
    rows = [
        {
            "event": e.name,
            "place": place,
            "estimate": o.estimate.estimate,
            "lo": o.estimate.lo,
            "hi": o.estimate.hi,
            "one_in": _one_in(o.estimate.estimate),
            "exact": float(o.exact) if o.exact is not None else math.nan,
        }
        for e, by_place in result.events
        for place, o in by_place.items()
    ]
    frame = _frame(rows, {"variant": v.id, "seed": seed, "deals": result.deals}, ["event", "place"])
    if result.acceptance is not None:
        frame.attrs["acceptance"] = result.acceptance.to_json()
    return frame


def simulate(
    variant: VariantLike = DEFAULT_VARIANT,
    hands: int = 200_000,
    seed: int = 1,
    policy: str | Sequence[str] = "heuristic",
    overrides: Iterable[str] = (),
    out: str | os.PathLike | None = None,
) -> pd.DataFrame:
    """``hands`` full hands, as ``pinochle simulate``: one row per measure, with ``variant``, ``seed``,
    ``hands``, ``policies``, ``kind`` ("rate": a share of hands, of hands with a bidder for made, set
    and boston; "mean": per hand, on the system's scale; side = the bidder's side), ``measure``,
    ``estimate``, ``lo``, ``hi`` and ``one_in``. ``out`` also writes every hand's record to a Parquet
    file whose metadata name the variant, rules hash, seed, policies and code version
    (``pd.read_parquet(out).attrs``).

    >>> s = simulate(hands=2_000).set_index("measure")
    >>> s.loc["made", "kind"], bool(0 < s.loc["made", "estimate"] < 1)
    ('rate', True)
    """
    from simcore.answers.simulate import simulate as run

    v = require_full_hands(_variant(variant, overrides))
    _positive("hands", hands)
    _seed(seed)
    if out is not None and not Path(out).resolve().parent.is_dir():
        raise ValueError(f"out={os.fspath(out)!r}: the directory {Path(out).resolve().parent} does not exist")
    result = run(v, hands, seed, _policies(policy, v.players), out=None if out is None else os.fspath(out))
    rows = _interval_rows("rate", result.rates(), share=True) + _interval_rows("mean", result.means(), share=False)
    return _frame(
        rows,
        {"variant": v.id, "seed": seed, "hands": result.hands, "policies": ",".join(result.policies)},
        ["kind", "measure"],
    )


def records_frame(records: np.ndarray, variant: Variant, seed: int) -> pd.DataFrame:
    """int64 hand records (:data:`simcore.kernels.hand_record.FIELDS`) as a DataFrame: ``variant``, ``seed``,
    ``hand`` (its number in the run), then one column per field, ``trump`` (S H D C, missing when no
    trump was named) and ``outcome`` as categoricals."""
    from simcore.cards import SUITS
    from simcore.kernels import hand_record as h

    frame = pd.DataFrame(np.asarray(records).reshape(-1, h.N_FIELDS), columns=list(h.FIELDS))
    frame["trump"] = pd.Categorical.from_codes(frame["trump"].clip(lower=-1), categories=list(SUITS))
    frame["outcome"] = pd.Categorical.from_codes(frame["outcome"], categories=list(h.OUTCOMES))
    frame.insert(0, "hand", np.arange(len(frame)))
    frame.insert(0, "seed", seed)
    frame.insert(0, "variant", variant.id)
    return frame


def hand_records(
    variant: VariantLike = DEFAULT_VARIANT,
    hands: int = 10_000,
    seed: int = 1,
    policy: str | Sequence[str] = "heuristic",
    overrides: Iterable[str] = (),
) -> pd.DataFrame:
    """The record of every one of ``hands`` full hands, one row per hand (the rows of ``simulate
    --out``): ``variant``, ``seed``, ``hand``, ``redeals``, ``bidder`` (seat, -1 for none), ``bid``,
    ``trump``, ``outcome``, ``made`` (1, 0; -1 without a contract), the bidder's meld before and after
    the exchange, each side's meld, trick points and score, the bidder's trump length and aces.
    Memory grows with ``hands``: keep it to millions.

    >>> r = hand_records(hands=1_000)
    >>> len(r), list(r.columns[:5]), list(r["outcome"].cat.categories[:2])
    (1000, ['variant', 'seed', 'hand', 'redeals', 'bidder'], ['played', 'conceded'])
    """
    from simcore.answers.simulate import hand_records as records

    v = require_full_hands(_variant(variant, overrides))
    _positive("hands", hands)
    _seed(seed)
    return records_frame(records(v, hands, seed, _policies(policy, v.players)), v, seed)


def bid_odds(
    variant: VariantLike = DEFAULT_VARIANT,
    hands: int | None = None,
    seed: int = 1,
    policy: str | Sequence[str] = "heuristic",
    overrides: Iterable[str] = (),
    given: str | Sequence[str] | None = None,
    bid: int | None = None,
    meld: int | None = None,
    basis: str | None = None,
    auction: str | None = None,
    play: str = "heuristic",
    samples: int = 20,
    solve_from: int | None = None,
    limit: int = 5_000_000,
    rollout_from: int | None = None,
    read_auction: bool | None = None,
    budget: int = 1_000_000_000,
) -> pd.DataFrame:
    """P(the bidding side makes), as ``pinochle bid-odds``: one row per table and value seen, with
    ``variant``, ``seed``, ``policies``, ``by`` (bid, bidder_meld, side_meld, trump_length, aces),
    ``value``, ``hands`` (hands with a bidder at that value), ``made``, ``estimate``, ``lo``, ``hi``
    and ``one_in``. ``given``: only deals that meet it (the ``--given`` language, places seen from seat
    0, the dealer's left); ``attrs["acceptance"]`` then holds the share of deals that met it.
    ``auction``: the auction so far (as ``--auction``): only deals where the model bidders would have
    made those calls, the calls made as given and the model bidding on (``policy`` must be the heuristic).

    With ``bid`` and/or ``meld`` (and ``basis``: "dealt" or "after_exchange"), as ``pinochle bid-odds
    --bid B --meld M``: the joint table instead, P(make B | meld M), one row per basis, bid and meld
    bin, with ``basis``, ``bid``, ``meld``, ``meld_bin``, ``n``, ``made``, ``unknown``, ``estimate``,
    ``lo``, ``hi`` and ``one_in``. ``hands``: None for 400,000.

    With ``play`` "strong" or "dd" (as ``--play``, :mod:`simcore.answers.strong`) and ``meld`` (and
    ``bid``): P(make B | meld M) with the cards played by the sampling player at every seat (``samples``
    deals a card over the last ``solve_from`` tricks, and from ``rollout_from`` tricks from the end until
    then by the heuristic's playouts of the deals; None: from the first card; deals fitting the bids with
    ``read_auction``, None: where the system's sampling player reads them) or double dummy from the
    first lead (solves giving up at ``limit`` trick starts, those that gave up solved again at ten times
    the limit a pass within ``budget`` more trick starts, until their band is at most a third of each
    shown rate's 95% half-width), beside the heuristic's on the same ``hands``
    hands (None: 200): one row per play and bid with ``play``, ``bid``, ``made``, ``unknown`` (solves
    given up), ``estimate``, ``lo``, ``hi``, ``low`` and ``high`` (the range with the unknown hands not
    made and made);
    ``attrs["difference"]`` holds the paired difference at ``bid`` (play − heuristic, in shares), and
    ``attrs["passes"]`` the passes that solved again (``limit``, ``solves``, ``gave_up``, ``nodes``).

    >>> b = bid_odds(hands=2_000)
    >>> list(b["by"].cat.categories)
    ['bid', 'bidder_meld', 'side_meld', 'trump_length', 'aces']
    >>> int(b.loc[b.by == "aces", "hands"].sum()) == int(b.loc[b.by == "bid", "hands"].sum())
    True
    """
    from simcore.answers.bidodds import bid_odds as run

    v = require_full_hands(_variant(variant, overrides))
    require_auction(v, "no bids to tabulate")
    _positive("hands", hands)
    _seed(seed)
    strong = _play(v, play, samples, solve_from, limit, rollout_from, read_auction, budget)
    if basis is not None and basis not in ("dealt", "after_exchange"):
        raise ValueError(f"basis={basis!r}: give 'dealt' or 'after_exchange'")
    if bid is not None:
        from simcore.answers.bidodds import highest_bid, is_bid

        if not is_bid(v, bid) or bid > highest_bid(v):
            raise ValueError(
                f"bid={bid!r}: not a bid the table answers in {v.id} (from {v.lowest_contract} by "
                f"the auction's steps, up to {highest_bid(v)})"
            )
    if meld is not None and (isinstance(meld, bool) or not isinstance(meld, (int, np.integer)) or meld < 0):
        raise ValueError(f"meld={meld!r}: give a whole number of points, 0 or more")
    if strong is not None:
        return _bid_odds_strong(v, strong, meld, bid, basis, hands, seed, policy, given, auction)
    from simcore.kernels.auction_condition import require_model_bidders, with_calls

    if auction is not None:
        require_model_bidders(policy, "policy=")
    calls, condition = with_calls(v, _condition(v, given, 0), auction, "auction=")
    hands = 400_000 if hands is None else hands
    result = run(v, hands, seed, _policies(policy, v.players), condition=condition, calls=calls)
    if bid is not None or meld is not None:
        cells = result.joint_table(basis, bid, meld)
        cells["one_in"] = [_one_in(x) for x in cells["estimate"]]
        frame = _frame(
            cells.to_dict("records"), {"variant": v.id, "seed": seed, "policies": ",".join(result.policies)}, ["basis"]
        )
        if result.acceptance is not None:
            frame.attrs["acceptance"] = result.acceptance.to_json()
        return frame
    rows = []
    for name, t in result.tables().items():
        if name not in t.columns:  # a table over two values at once: not one row per value
            continue
        for r in t.to_dict("records"):
            rows.append(
                {
                    "by": name,
                    "value": r[name],
                    "hands": r["hands"],
                    "made": r["made"],
                    "estimate": r["p_make"],
                    "lo": r["lo"],
                    "hi": r["hi"],
                    "one_in": _one_in(r["p_make"]),
                }
            )
    frame = _frame(rows, {"variant": v.id, "seed": seed, "policies": ",".join(result.policies)}, ["by"])
    if result.acceptance is not None:
        frame.attrs["acceptance"] = result.acceptance.to_json()
    return frame


def _play(
    v: Variant,
    play: str,
    samples: int,
    solve_from: int | None,
    limit: int,
    rollout_from: int | None,
    read_auction: bool | None,
    budget: int,
):
    """The :class:`simcore.answers.strong.Play` asked for (None: heuristic play), checked."""
    from simcore.answers.strong import PLAYS, Play, check_play

    if play not in PLAYS:
        raise ValueError(f"play={play!r}: give one of {', '.join(map(repr, PLAYS))}")
    for name, value in (("samples", samples), ("limit", limit)):
        _positive(name, value)
    _positive("budget", budget, least=0)
    if solve_from is not None:  # None: the system's default
        _positive("solve_from", solve_from)
    if play == "heuristic":
        return None
    playouts = {}
    if rollout_from is not None:
        if isinstance(rollout_from, bool) or not isinstance(rollout_from, (int, np.integer)) or rollout_from < 0:
            raise ValueError(
                f"rollout_from={rollout_from!r}: give a whole number of tricks, 0 or more (None: every trick)"
            )
        playouts["rollout_from"] = int(rollout_from)
    if read_auction is not None and not isinstance(read_auction, (bool, np.bool_)):
        raise ValueError(f"read_auction={read_auction!r}: give True, False or None (the system's default)")
    reads = None if read_auction is None else bool(read_auction)
    return check_play(v, Play(play, samples, solve_from, limit, **playouts, read_auction=reads, budget=int(budget)))


def _strong_only(play, **options) -> None:
    """Refuse options strong play does not take yet."""
    for name, value in options.items():
        if value not in (None, "heuristic"):
            raise ValueError(f"{name}={value!r} with play={play.name!r}: not supported yet; give play='heuristic'")


def _curve_rows(name: str, curve) -> list[dict]:
    rows = []
    for i, (b, m, u, x) in enumerate(zip(curve.bids, curve.made, curve.unknown, curve.rate)):
        low, high = curve.range(i)
        rows.append(
            {"play": name, "bid": b, "made": m, "unknown": u, "estimate": x.estimate, "lo": x.lo, "hi": x.hi}
            | {"low": low, "high": high}
        )
    return rows


def _bid_odds_strong(v, play, meld, bid, basis, hands, seed, policy, given, auction) -> pd.DataFrame:
    """:func:`bid_odds` under strong play or double dummy."""
    from simcore.answers.strong import bid_odds_strong

    _strong_only(play, policy=policy, given=given, auction=auction)
    if meld is None:
        raise ValueError(f"play={play.name!r}: give meld= (and bid=): strong play is played hand by hand")
    r = bid_odds_strong(v, meld, bid, basis or "dealt", hands, seed, play)
    frame = _frame(
        _curve_rows("heuristic", r.heuristic) + _curve_rows(play.name, r.played),
        {"variant": v.id, "seed": seed, "basis": r.basis, "meld": r.meld, "hands": r.hands},
    )
    frame.attrs["difference"] = (
        None
        if r.difference is None
        else {"estimate": r.difference.estimate, "lo": r.difference.lo, "hi": r.difference.hi, "hands": r.solved}
    )
    frame.attrs["seconds"] = r.seconds
    frame.attrs["passes"] = [p.to_json() for p in r.passes]
    return frame


def advise(
    hand: str | Sequence[str],
    variant: VariantLike = DEFAULT_VARIANT,
    seat: int | None = None,
    hands: int | None = None,
    seed: int = 1,
    policy: str | Sequence[str] = "heuristic",
    overrides: Iterable[str] = (),
    given: str | Sequence[str] | None = None,
    auction: str | None = None,
    play: str = "heuristic",
    samples: int = 20,
    solve_from: int | None = None,
    limit: int = 5_000_000,
    rollout_from: int | None = None,
    read_auction: bool | None = None,
    budget: int = 1_000_000_000,
    trump: str | None = None,
) -> pd.DataFrame:
    """What the hand would make with ``seat`` (None: 0, the dealer's left) the bidder, as ``pinochle advise``:
    the unseen cards dealt at random ``hands`` times (None: enough for a ±2-point interval on the mean
    side total), each deal played out at the lowest contract. One row per bid around the hand's value,
    with ``variant``, ``seed``, ``seat``, ``hands``, ``named_trump`` (the heuristic's, from the hand
    alone), ``bid``, ``made`` (deals that make it), ``estimate`` (P(make)), ``lo``, ``hi`` and ``one_in``.
    ``attrs["highest"]``: the highest bid the hand makes in at least 50% and 75% of deals, over every
    bid, each a dict of ``share``, ``bid``, ``lo``, ``hi`` (None where no bid is made that often).
    Bids the hand makes in 50% and 75% of deals: :func:`simcore.answers.advise.advise`'s ``highest``.
    ``given``: only deals that meet it (the ``--given`` language, places seen from ``seat``);
    ``attrs["acceptance"]`` then holds the share of deals that met it. ``attrs["headline"]`` holds what
    the command prints first: the highest bids made in 50% and 75% of the deals with their intervals,
    the meld by trump, the mean side total and partner's meld. ``trump`` ("S", "H", "D" or "C"): the
    bidder names it in every deal (``--trump``; not with ``auction`` or ``play``).

    With ``auction`` (the calls so far, as ``--auction``), advice in mid-auction instead
    (:mod:`simcore.answers.mid_auction`): ``hand`` is the whole hand of the seat to call (``seat``, if
    given, must be it) and ``hands`` the deals per call. One row per call it can make now: ``call``
    ("pass" or the bid), ``ours`` (P(my side ends with the contract)) with ``ours_lo``, ``ours_hi``;
    ``made`` (P(made | ours)) with ``made_lo``, ``made_hi``; ``score`` (the mean of what the hand adds
    to my score line) and ``margin`` (that less my opponents' mean line), each with ``_lo``, ``_hi``.
    ``attrs``: ``best_score``, ``best_margin`` (the calls with the highest means), ``model_limit``,
    ``lowest_bid`` and ``acceptance``. Under the model bidders: every seat bids by the heuristic's rule.

    With ``play`` "strong" or "dd" (as ``--play``, :mod:`simcore.answers.strong`; a whole hand): the
    hand's P(make B) with every deal also played by the sampling player at every seat (``samples``
    deals a card over the last ``solve_from`` tricks, by playouts from ``rollout_from`` tricks from the
    end until then; None: from the first card; deals fitting the bids with ``read_auction``, where there
    are bids) or solved double dummy from the first lead
    (``limit`` trick starts a solve; those that gave up solved again within ``budget`` more, as
    :func:`bid_odds`), beside the heuristic's on the same ``hands`` deals (None: 100): one
    row per play and bid with ``play``, ``bid``, ``made``, ``unknown``, ``estimate``, ``lo``, ``hi``,
    ``low`` and ``high``; ``attrs["side_total"]`` holds both mean side totals and their paired
    difference, ``attrs["passes"]`` the passes that solved again.

    >>> a = advise("AS AS 10S KS QS JS 9S AH KH QH AD JD", "auction", hands=1_000)
    >>> a.loc[0, "named_trump"], bool(a["estimate"].is_monotonic_decreasing)
    ('S', True)
    """
    from simcore.answers.advise import advise as run
    from simcore.answers.advise import check_advisable
    from simcore.cards import SUITS, check_hand, parse_hand

    v = require_full_hands(_variant(variant, overrides))
    cards = parse_hand(hand if isinstance(hand, str) else " ".join(hand))
    check_hand(cards, v.deck_copies, v.hand_size, partial=True)  # fewer cards: the rest dealt at random
    _positive("hands", hands)
    _seed(seed)
    check_advisable(v, 0 if seat is None else seat, "seat=", "meld() shows the hand's meld")
    strong = _play(v, play, samples, solve_from, limit, rollout_from, read_auction, budget)
    named = _trump(trump, play, auction)
    if strong is not None:
        return _advise_strong(v, cards, strong, seat, hands, seed, policy, given, auction)
    if auction is not None:
        return _advise_in_auction(v, cards, auction, seat, hands, seed, policy, given)
    seat = 0 if seat is None else seat
    condition = _condition(v, given, seat)
    a = run(v, cards, seat, hands, seed, _policies(policy, v.players), condition=condition, trump=named)
    rows = [
        {"bid": bid, "made": made, "estimate": iv.estimate, "lo": iv.lo, "hi": iv.hi, "one_in": _one_in(iv.estimate)}
        for bid, made, iv in a.bids
    ]
    frame = _frame(
        rows,
        {
            "variant": v.id,
            "seed": seed,
            "seat": seat,
            "hands": a.deals,
            "named_trump": None if a.named is None else SUITS[a.named],
            "given_trump": None if named is None else SUITS[named],
        },
    )
    frame.attrs["highest"] = [{"share": h.share, "bid": h.bid, "lo": h.lo, "hi": h.hi} for h in a.highest]
    frame.attrs["headline"] = {
        "highest_bid": {f"{s.share:.0%}": {"bid": s.bid, "lo": s.lo, "hi": s.hi} for s in a.highest},
        "meld_by_trump": dict(zip(SUITS, a.by_trump)),
        "side_total": {"estimate": a.total.estimate, "lo": a.total.lo, "hi": a.total.hi},
        "partner_meld": None if a.partner_meld is None else a.partner_meld.to_json(),
    }
    if a.acceptance is not None:
        frame.attrs["acceptance"] = a.acceptance.to_json()
    return frame


def _trump(trump: str | None, play: str, auction: str | None) -> int | None:
    """``advise``'s ``trump`` as a suit 0-3 (None: not given); ValueError where it is not a suit or comes
    with ``play`` or ``auction``."""
    from simcore.cards import SUITS

    if trump is None:
        return None
    if not isinstance(trump, str) or trump.strip().upper() not in SUITS:
        raise ValueError(f"trump={trump!r}: give a suit, one of {', '.join(SUITS)}")
    if play != "heuristic" or auction is not None:
        raise ValueError("trump=: not taken with play= or auction= yet")
    return SUITS.index(trump.strip().upper())


def _advise_strong(v, cards, play, seat, hands, seed, policy, given, auction) -> pd.DataFrame:
    """:func:`advise` under strong play or double dummy."""
    from simcore.answers.strong import advise_strong

    _strong_only(play, policy=policy, given=given, auction=auction)
    if int(cards.sum()) != v.hand_size:
        raise ValueError(f"hand: with play={play.name!r}, give the whole hand ({v.hand_size} cards)")
    seat = 0 if seat is None else seat
    a = advise_strong(v, cards, seat, hands, seed, play)
    frame = _frame(
        _curve_rows("heuristic", a.heuristic) + _curve_rows(play.name, a.played),
        {"variant": v.id, "seed": seed, "seat": seat, "hands": a.deals},
    )
    frame.attrs["side_total"] = {
        name: {"estimate": x.estimate, "lo": x.lo, "hi": x.hi}
        for name, x in (("heuristic", a.heuristic_total), (play.name, a.play_total), ("difference", a.difference))
    }
    frame.attrs["highest"] = {
        name: [{"share": h.share, "bid": h.bid, "lo": h.lo, "hi": h.hi} for h in shares]
        for name, shares in a.highest().items()
    }
    frame.attrs["seconds"] = a.seconds
    frame.attrs["passes"] = [p.to_json() for p in a.passes]
    return frame


def _advise_in_auction(
    v: Variant,
    cards: np.ndarray,
    auction: str,
    seat: int | None,
    hands: int | None,
    seed: int,
    policy: str | Sequence[str],
    given: str | Sequence[str] | None,
) -> pd.DataFrame:
    """:func:`advise` with ``auction``: one row per call the seat to call can make."""
    from simcore.answers.mid_auction import advise_in_auction, seat_to_call
    from simcore.kernels.auction_condition import require_model_bidders

    require_model_bidders(policy, "policy=")
    me = seat_to_call(v, auction, "auction=", seat)
    a = advise_in_auction(v, cards, auction, hands, seed, _condition(v, given, me), label="auction=", seat=me)
    rows = []
    for c in a.calls:
        row = {"call": c.name}
        for name, x in (("ours", c.ours), ("made", c.made), ("score", c.score), ("margin", c.margin)):
            row.update({name: x.estimate, f"{name}_lo": x.lo, f"{name}_hi": x.hi})
        rows.append(row)
    frame = _frame(rows, {"variant": v.id, "seed": seed, "seat": me, "hands": a.deals})
    frame.attrs.update(
        best_score=a.calls[a.best_score].name,
        best_margin=a.calls[a.best_margin].name,
        model_limit=a.limit,
        lowest_bid=a.lowest,
    )
    if a.acceptance is not None:
        frame.attrs["acceptance"] = a.acceptance.to_json()
    return frame


def widow(hand: str | Sequence[str], variant: VariantLike = "auction", overrides: Iterable[str] = ()) -> pd.DataFrame:
    """What the widow is worth to ``hand`` (a whole hand), as ``pinochle widow``: every widow the unseen
    cards allow, exactly. One row per trump: ``variant``, ``hand``, ``widows`` (their number),
    ``trump``, ``before`` (my meld before the widow), ``mean_after`` (after it, burying the cards that
    keep the most meld) and ``mean_gain``. ``attrs["gain"]`` holds the headline gain's mean and
    P(gain >= X) for every X taken (:mod:`simcore.answers.widow`); ``attrs["best"]`` and
    ``attrs["likeliest"]`` the three widows that leave the most meld and the three likeliest, each a
    dict of ``cards``, ``p`` (its chance) and ``meld_after`` by trump; ``attrs["trump_after_widow"]``
    whether trump is named after the widow is seen (the gain is then the best trump's after it less
    the best before) and ``attrs["named_trump"]`` the trump the heuristic names from the hand (the
    gain's trump otherwise); ``attrs["distinct_widows"]`` and ``attrs["rule"]``.

    >>> w = widow("AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD")
    >>> int(w.loc[0, "widows"]), w.loc[0, "trump"], int(w.loc[0, "before"])
    (5456, 'S', 180)
    """
    from simcore.answers.widow import widow_worth
    from simcore.cards import SUITS, check_hand, format_hand, parse_hand

    v = _variant(variant, overrides)
    cards = parse_hand(hand if isinstance(hand, str) else " ".join(hand))
    check_hand(cards, v.deck_copies, v.hand_size)
    r = widow_worth(v, cards)
    rows = [
        {
            "trump": SUITS[s],
            "before": r.before[s],
            "mean_after": float(r.mean(r.after[:, s])),
            "mean_gain": float(r.mean(r.after[:, s] - r.before[s])),
        }
        for s in range(4)
    ]
    frame = _frame(rows, {"variant": v.id, "hand": format_hand(cards), "widows": r.total_ways})
    worth = r.to_json()
    for key in ("gain", "best", "likeliest", "trump_after_widow", "named_trump", "distinct_widows", "rule"):
        frame.attrs[key] = worth[key]
    return frame


def games(
    variant: VariantLike = DEFAULT_VARIANT,
    games: int = 20_000,
    seed: int = 1,
    policy: str | Sequence[str] = "heuristic",
    overrides: Iterable[str] = (),
) -> pd.DataFrame:
    """``games`` whole games, as ``pinochle games``: one row per measure, with ``variant``, ``seed``,
    ``games``, ``policies``, ``kind`` ("rate": a share of games; "mean": per game), ``measure``,
    ``estimate``, ``lo``, ``hi`` and ``one_in``. Where every deal is a game settled in chips
    (``auction``), ``games`` counts deals and the means are chips won (+) or paid (−) per deal.

    >>> g = games("double-deck", games=300).set_index("measure")
    >>> g.loc["team 0 (first dealer's left) wins", "kind"], int(g.loc["hands", "estimate"] > 1)
    ('rate', 1)
    """
    from simcore.answers.game_results import play_games
    from simcore.answers.settlement import has_settlement, settle_deals

    v = _variant(variant, overrides)
    _positive("games", games)
    _seed(seed)
    policies = _policies(policy, v.players)
    if not v.has_game_rules and has_settlement(v):
        result = settle_deals(v, games, seed, policies)
        played = result.deals
        rows = _interval_rows("mean", result.means(), share=False) + _interval_rows("rate", result.rates(), True)
    else:
        result = play_games(v, games, seed, policies)
        played = result.games
        rows = _interval_rows("rate", result.rates(), share=True) + _interval_rows("mean", result.means(), False)
    return _frame(
        rows,
        {"variant": v.id, "seed": seed, "games": played, "policies": ",".join(result.policies)},
        ["kind", "measure"],
    )


def compare(
    a: VariantLike | None = None,
    b: VariantLike | None = None,
    overrides: Iterable[str] = (),
    question: str | None = None,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 1,
) -> pd.DataFrame:
    """Two rule sets on the same deals, as ``pinochle compare``: A and B (B defaults to A with
    ``overrides``), or a named ``question`` (``simcore.answers.questions.QUESTIONS``). Whole games
    by default (40,000), or ``hands`` single hands; a question in its own mode and size unless ``games``
    or ``hands`` is given. One row per measure, with
    ``question``, ``variant_a``, ``variant_b``, ``mode`` (games or hands), ``seed``, ``n`` (paired
    games or hands), ``measure``, ``a``, ``a_lo``, ``a_hi``, ``b``, ``b_lo``, ``b_hi``; the paired
    difference B − A as ``estimate``, ``lo``, ``hi``; ``detectable`` (its interval excludes zero),
    ``size`` (negligible, small, large or unsettled against ``threshold``, a difference of practical
    size) and ``narrowing`` (how many times narrower pairing made the interval than two independent
    runs). ``attrs["verdict"]`` is the verdict in words.

    >>> c = compare("four-hand-150", overrides=["exchange.pass_cards=4"], hands=2_000).set_index("measure")
    >>> c.loc["bid", "mode"], bool(c.loc["bid", "detectable"]), c.loc["bid", "size"]
    ('hands', True, 'small')
    """
    from simcore.answers import compare as cmp

    _positive("games", games)
    _positive("hands", hands)
    _seed(seed)
    if question is not None:
        if a is not None or b is not None or list(overrides):
            raise ValueError("give a question or rule sets A and B, not both")
        if question not in cmp.QUESTIONS:
            raise ValueError(f"{question!r} is not a question; choose from {', '.join(cmp.QUESTIONS)}")
        if games is not None and hands is not None:
            raise ValueError("give games or hands, not both")
        mode = "hands" if hands is not None else "games" if games is not None else None
        result = cmp.answer(question, hands if mode == "hands" else games, seed, mode)
    else:
        if a is None:
            raise ValueError("give rule set A (and B, or overrides for B), or a question")
        overrides = [overrides] if isinstance(overrides, str) else list(overrides)
        va = _variant(a)
        vb = _variant(b if b is not None else a, overrides)
        if b is None and not overrides:
            raise ValueError("B is A unchanged; give rule set B or overrides")
        if not rule_differences(va, vb):
            raise ValueError(f"B plays the same game as A ({vb.id} and {va.id} are the same rules)")
        if games is None and hands is None:
            games = 40_000
        result = cmp.compare(va, vb, games=games, hands=hands, seed=seed)
    rows = []
    for r in result.table.to_dict("records"):
        size = result.size(r["measure"])
        rows.append(
            {
                "measure": r["measure"],
                "n": int(r["n"]),
                "a": r["a"],
                "a_lo": r["a_lo"],
                "a_hi": r["a_hi"],
                "b": r["b"],
                "b_lo": r["b_lo"],
                "b_hi": r["b_hi"],
                "estimate": r["diff"],
                "lo": r["diff_lo"],
                "hi": r["diff_hi"],
                "detectable": bool(r["diff_lo"] > 0 or r["diff_hi"] < 0),
                "size": size["size"],
                "threshold": size["threshold"],
                "narrowing": r["unpaired_half"] / r["paired_half"] if r["paired_half"] > 0 else math.inf,
            }
        )
    frame = _frame(
        rows,
        {
            "question": result.question,
            "variant_a": result.a.id,
            "variant_b": result.b.id,
            "mode": result.mode,
            "seed": seed,
        },
        ["measure"],
    )
    frame["size"] = _category(frame["size"], ["negligible", "small", "large", "unsettled"])
    frame.attrs["verdict"] = result.verdict()
    return frame


def solve(
    variant: VariantLike = DEFAULT_VARIANT,
    seed: int | None = 1,
    hands: Sequence[str] | None = None,
    trump: str | None = None,
    leader: int | None = None,
    bidder: int = 0,
    partner: int = -1,
    first_trick: bool = False,
    broken: bool = False,
    at_least: int | None = None,
    policy: str | Sequence[str] = "heuristic",
    overrides: Iterable[str] = (),
) -> pd.DataFrame:
    """Double dummy (``pinochle solve``): the trick points (as taken, last-trick bonus included) the
    bidding side and the others take with every hand known and perfect play. The position is the
    first hand of ``seed`` at its first lead (after the stock with two-hand), or ``hands`` (one string
    of cards per seat, from seat 0) with ``trump`` (``"S"``, ``"H"``, ``"D"``, ``"C"``), ``leader`` and
    ``bidder``/``partner`` for the sides. With ``at_least`` only "can the bidding side take at least
    that many?" is answered (``reaches``; the points columns are then missing).

    One row: variant, seed (None for given hands), trump, leader, tricks, in_play,
    bidding_side_points, other_side_points, target, reaches, seconds, nodes (trick starts searched)."""
    from simcore.cards import SUITS
    from simcore.solver.position import given_position, seeded_position
    from simcore.solver.position import solve as solve_position

    v = _variant(variant, overrides)
    _seed(seed)
    _positive("at_least", at_least, least=0)
    if hands is None:
        position = seeded_position(require_full_hands(v), seed, _policies(policy, v.players))
    else:
        if trump is None or leader is None:
            raise ValueError("hands given as cards need trump and leader")
        suit = str(trump).strip().upper()
        if suit not in SUITS:
            raise ValueError(f"trump {trump!r}: give one of S H D C")
        position = given_position(v, list(hands), SUITS.index(suit), leader, bidder, partner, first_trick, broken)
        seed = None
    r = solve_position(position, at_least)
    return pd.DataFrame(
        [
            {
                "variant": v.id,
                "seed": seed,
                "trump": SUITS[position.trump],
                "leader": position.leader,
                "tricks": position.tricks,
                "in_play": position.in_play,
                "bidding_side_points": r.side_points if r.side_points is not None else math.nan,
                "other_side_points": r.other_points if r.other_points is not None else math.nan,
                "target": at_least,
                "reaches": r.reaches,
                "seconds": r.seconds,
                "nodes": r.nodes,
            }
        ]
    )


def makeable(
    variant: VariantLike = DEFAULT_VARIANT,
    seed: int | None = 1,
    hands: Sequence[str] | None = None,
    exchange: str = "heuristic",
    limit: int = 20_000,
    trumps: str = "SHDC",
    overrides: Iterable[str] = (),
    budget: int = 1_500_000,
) -> pd.DataFrame:
    """The makeable bids of a deal (``pinochle makeable``, :mod:`simcore.answers.makeable`): for each trump
    in ``trumps`` and each seat as the bidder, the highest bid his side makes double dummy (meld plus
    trick points, under the rules on saving meld), bisected by threshold solves, every cell first under
    ``limit`` trick starts a solve, then the cells still open at ten times it, and so on, within
    ``budget`` trick starts the table (0: none; cells that are one problem share their solves). The
    deal is the first hand of ``seed`` as dealt, or ``hands`` (one string
    of cards per seat from seat 0, the whole deal; then ``seed`` is ignored). ``exchange``: "heuristic"
    (the heuristic's passes for each bidder and trump) or "given" (the hands as after the exchange).

    One row per trump and bidder: variant, seed (None for given hands), exchange, trump, bidder, meld (the
    side's), made (the highest bid shown made; NaN: not even the lowest contract), upper (the highest
    not shown unmakeable; made == upper when exact), exact, text ("33", "32–35", "≤ 26", "–"), allowed (False:
    the rules do not let him name that trump), solves, nodes, seconds, answered_by (None, or the bidder
    whose cell's solves answered this one and whether from the other side). ``attrs["exchange_text"]``
    says which exchange the table assumes, ``attrs["passes"]`` the passes run (limit, solves, gave_up,
    nodes), ``attrs["nodes"]`` the trick starts the table searched."""
    from simcore.answers.makeable import makeable as table_of

    v = _variant(variant, overrides)
    if hands is None:
        _seed(seed)
    _positive("limit", limit, least=0)
    _positive("budget", budget, least=0)
    table = table_of(
        v, seed if hands is None else None, None if hands is None else list(hands), exchange, limit, trumps, budget
    )
    rows = [{"variant": v.id, "seed": table.seed, "exchange": table.exchange, **c.to_json()} for c in table.cells]
    frame = pd.DataFrame(rows)
    for col in ("made", "upper"):
        frame[col] = frame[col].astype("float64")
    frame.attrs["exchange_text"] = table.exchange_text()
    frame.attrs["hands"] = list(table.dealt)
    frame.attrs["passes"] = [p.to_json() for p in table.passes]
    frame.attrs["nodes"] = table.nodes
    return frame


def new_hand(
    variant: VariantLike = DEFAULT_VARIANT,
    seed: int | None = 1,
    cards=None,
    overrides: Iterable[str] = (),
    hand: int = 0,
    need=None,
):
    """One hand to play decision by decision: a :class:`simcore.state.HandState` at its first decision
    (``current_player()``, ``legal_actions()``, ``apply(action)``, ``observation(seat)``, ``returns()``).
    ``seed`` deals what ``simulate(variant, seed=seed)`` deals first (``hand``: the first deal of chunk
    ``hand``'s stream instead); ``cards`` gives the deal (one hand per seat, then the widow or stock).

    >>> from simcore.state.players import kernel_policy
    >>> state, heuristic = new_hand("four-hand-150", seed=1), kernel_policy("heuristic")
    >>> while not state.is_terminal():
    ...     state.apply(heuristic(state))
    >>> state.returns()   # what the hand added to each seat's score line
    [8, 70, 8, 70]
    """
    from simcore.state import new_hand as start

    _seed(seed)
    _positive("hand", hand, least=0)
    return start(require_full_hands(_variant(variant, overrides)), seed, cards, hand, need)


def analyse(
    record, tricks_left: int | None = None, limit: int | None = None, budget: int | None = None
) -> pd.DataFrame:
    """Where a played hand went wrong (``pinochle analyse``): ``record`` is the hand's record (a dict as
    ``pinochle playthrough --json`` prints it or :meth:`simcore.state.HandState.played_record` writes
    it, or the path of such a JSON file; see ``docs/analyse.md``). One row per card of the last
    ``tricks_left`` tricks (None: every trick): trick (from 1), place (0 = the lead), seat, role
    (bidder, partner, defender), card, legal (cards it could play), value and best (the points the
    seat's side takes from the trick's start with the card played and with the best card,
    ``best_card``, every hand seen and perfect play after) and given_up = best - value, trick points
    on the variant's scale, and exact (True where the values are proved, False where estimated). By
    default every card is valued: exact where the solver proves it within ``budget`` trick starts a
    decision (None: the command's default), else estimated by its depth-limited search with the
    learned evaluation. ``limit`` (not None) asks for exact solves only: the trick starts each card's
    solve may search (0: no limit); where a solve gives up, value, best, best_card and given_up are
    missing. Raises :class:`simcore.answers.analyse.RecordError` (one line naming the trick and the
    seat) for a malformed or impossible record."""
    from pathlib import Path

    from simcore.answers.analyse import DEFAULT_BUDGET, analyse_hand, load_record, read_record

    if isinstance(record, (str, os.PathLike)):
        played = read_record(load_record(record), str(record), Path(record).parent)
    else:
        played = read_record(record)
    result = analyse_hand(played, tricks_left, limit, DEFAULT_BUDGET if budget is None else budget)
    return result.decisions.assign(variant=result.variant.id)
