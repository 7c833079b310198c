"""How bold should the heuristic bid? Duels on identical deals.

Two duels, by the system's teams:

* **Team duel** (partnerships across, any even number of players): seats 0, 2, ... bid with a
  candidate margin (a share of the hand's trick points added to the heuristic's bidding limit; > 0
  bolder), seats 1, 3, ... with a base margin (the rules' own); then the teams swap seats and replay
  the same deals, which cancels any advantage of position. The measure is team points per hand, the
  candidate team's minus the base team's, averaged over the two seatings, with a 95% interval from the
  per-deal paired differences.
* **Seat duel** (each plays for himself, ``bidder_alone``, or with a partner he calls, ``called_card``):
  one seat bids with the candidate margin and every other seat with the base; the candidate seat is
  rotated through every seat on the same games (common random numbers: hand h of game g is the same
  cards in every run), and a baseline run has every seat at the base. Per game, the candidate seat's
  result minus the same seat's result in the baseline, averaged over the rotations: the gain in games
  won (percentage points), with a 95% interval over games; points per game are reported beside it.
  Systems without game rules that settle every deal in chips (three-hand ``auction``) duel the same
  way on single deals, measured in chips per deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcore.answers.simulate import hand_records
from simcore.kernels import game as g
from simcore.kernels import hand_record as h
from simcore.kernels.policies import parse_policies
from simcore.run.stats import Z95, wilson
from simcore.variants import NotForThisSystem, Variant, require_auction


class DuelError(NotForThisSystem):
    """Rules whose teams no duel covers (a system without an auction is refused before, by
    :func:`~simcore.variants.require_auction`)."""


def duel_kind(variant: Variant) -> str:
    """Which duel tunes the rules: ``"team"`` (points per hand), ``"seat"`` (games won) or ``"chips"``
    (chips per deal); raise :class:`DuelError` with a one-line reason when none can."""
    teams = variant.get("teams.kind")
    require_auction(variant, "there is no bidding margin to tune")
    if teams == "partners_across":
        if variant.players % 2:
            raise DuelError(f"{variant.id}: partnerships across need an even number of players")
        return "team"
    if teams in ("bidder_alone", "called_card"):
        if variant.has_game_rules:
            return "seat"
        from simcore.answers.settlement import has_settlement

        if has_settlement(variant):
            return "chips"
        raise DuelError(
            f"{variant.id}: the seat duel plays whole games or settles deals in chips, and this "
            "system has neither [game] nor [settlement] rules"
        )
    raise DuelError(f"{variant.id}: no duel for teams.kind = {teams!r}")


def check_duel(variant: Variant) -> None:
    """Raise :class:`DuelError` for rules no duel can tune."""
    duel_kind(variant)


def _team_scores(rec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(even seats, odd seats): each hand's score for the two partnerships."""
    even_bids = rec[:, h.F_BIDDER] % 2 == 0
    side, other = rec[:, h.F_SIDE_SCORE], rec[:, h.F_OTHER_SCORE]
    return np.where(even_bids, side, other), np.where(even_bids, other, side)


def _interval(diff: np.ndarray) -> tuple[float, float, float]:
    mean = float(diff.mean())
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(len(diff)) if len(diff) > 1 else math.nan
    return mean, mean - half, mean + half


def margin_duel(
    variant: Variant, margins: Sequence[float], hands: int, seed: int = 1, base: float | None = None
) -> pd.DataFrame:
    """Team duel. One row per margin: ``gain`` (points per hand the margin team scores over the team
    bidding with margin ``base``, by default the rules' ``policy.margin``; with ``gain_lo``/``gain_hi``),
    the share of contracts it wins and its make rate (with intervals). Any even number of players in
    alternating partnerships: margins alternate candidate, base, candidate, base ..."""
    if duel_kind(variant) != "team":
        raise DuelError(f"{variant.id}: the team duel needs two partnerships across (use seat_duel)")
    if base is None:
        base = variant.get("policy.margin")
    n = variant.players
    policies = parse_policies("heuristic", n)
    rows = []
    for m in margins:
        first = hand_records(variant, hands, seed, policies, np.array([m if s % 2 == 0 else base for s in range(n)]))
        second = hand_records(variant, hands, seed, policies, np.array([base if s % 2 == 0 else m for s in range(n)]))
        a1, b1 = _team_scores(first)
        b2, a2 = _team_scores(second)
        gain, lo, hi = _interval(((a1 - b1) + (a2 - b2)) / 2.0)
        bids = np.concatenate(
            [(first[:, h.F_BIDDER] >= 0) & (first[:, h.F_BIDDER] % 2 == 0), second[:, h.F_BIDDER] % 2 == 1]
        )
        made = np.concatenate([first[:, h.F_MADE], second[:, h.F_MADE]])[bids]
        share, rate = wilson(int(bids.sum()), len(bids)), wilson(int((made == 1).sum()), len(made))
        rows.append(
            {
                "margin": m,
                "hands": len(first),
                "gain": gain,
                "gain_lo": lo,
                "gain_hi": hi,
                "contracts": share.estimate,
                "make_rate": rate.estimate,
                "make_lo": rate.lo,
                "make_hi": rate.hi,
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update(kind="team", measure="points a hand")
    return out


def _seat_contracts(variant: Variant, m: float, base: float, hands: int, seed: int) -> dict:
    """The candidate seat's share of contracts and make rate on single hands, the seat rotated."""
    n = variant.players
    policies = parse_policies("heuristic", n)
    won = made = dealt = 0
    for s in range(n):
        margins = np.full(n, base)
        margins[s] = m
        rec = hand_records(variant, hands, seed, policies, margins)
        mine = rec[:, h.F_BIDDER] == s
        won += int(mine.sum())
        made += int((rec[mine, h.F_MADE] == 1).sum())
        dealt += len(rec)
    share, rate = wilson(won, dealt), wilson(made, won)
    return {"contracts": share.estimate, "make_rate": rate.estimate, "make_lo": rate.lo, "make_hi": rate.hi}


def seat_duel(
    variant: Variant,
    margins: Sequence[float],
    games: int,
    seed: int = 1,
    base: float | None = None,
    hands: int | None = None,
) -> pd.DataFrame:
    """Seat duel (each plays alone or with a called partner). One row per margin: ``gain``, the games
    the candidate seat wins over the same seat in the baseline (every seat at ``base``), in percentage
    points, averaged over the candidate's rotation through every seat, with a 95% interval over games
    (``gain_lo``/``gain_hi``); ``points`` (with ``points_lo``/``points_hi``) the same for the seat's
    final score; then the candidate's share of contracts and make rate, measured on ``hands`` single
    hands per rotation (default: ``games``). Systems with chips per deal instead of games (``auction``)
    duel on ``games`` single deals, ``gain`` in chips per deal."""
    kind = duel_kind(variant)
    if kind not in ("seat", "chips"):
        raise DuelError(
            f"{variant.id}: the seat duel is for systems where the bidder plays alone or calls "
            "a partner (use margin_duel)"
        )
    if base is None:
        base = variant.get("policy.margin")
    n = variant.players
    policies = parse_policies("heuristic", n)
    if kind == "chips":
        return _chips_duel(variant, margins, games, seed, base)
    from simcore.answers.game_results import game_records

    def run(margins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rec, _ = game_records(variant, games, seed, policies, margins)
        wins = (rec[:, g.GF_WINNER][:, None] == np.arange(n)[None, :]).astype(np.float64)
        return wins, rec[:, g.GF_SCORE_0 : g.GF_SCORE_0 + n].astype(np.float64)

    base_wins, base_scores = run(np.full(n, base))
    rows = []
    for m in margins:
        wins = np.zeros(len(base_wins))
        points = np.zeros(len(base_wins))
        for s in range(n):
            margins_s = np.full(n, base)
            margins_s[s] = m
            w, sc = run(margins_s)
            wins += w[:, s] - base_wins[:, s]
            points += sc[:, s] - base_scores[:, s]
        gain, lo, hi = _interval(100.0 * wins / n)
        pts, pts_lo, pts_hi = _interval(points / n)
        rows.append(
            {
                "margin": m,
                "games": len(wins),
                "gain": gain,
                "gain_lo": lo,
                "gain_hi": hi,
                "points": pts,
                "points_lo": pts_lo,
                "points_hi": pts_hi,
                **_seat_contracts(variant, m, base, hands or games, seed),
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update(kind="seat", measure="percentage points of games won")
    return out


def _chips_duel(variant: Variant, margins: Sequence[float], deals: int, seed: int, base: float) -> pd.DataFrame:
    from simcore.answers.settlement import settle

    n = variant.players
    policies = parse_policies("heuristic", n)
    base_chips = settle(variant, hand_records(variant, deals, seed, policies, np.full(n, base)))
    rows = []
    for m in margins:
        chips = np.zeros(deals)
        won = made = 0
        for s in range(n):
            margins_s = np.full(n, base)
            margins_s[s] = m
            rec = hand_records(variant, deals, seed, policies, margins_s)
            chips += settle(variant, rec)[:, s] - base_chips[:, s]
            mine = rec[:, h.F_BIDDER] == s
            won += int(mine.sum())
            made += int((mine & (rec[:, h.F_OUTCOME] == h.PLAYED) & (rec[:, h.F_MADE] == 1)).sum())
        gain, lo, hi = _interval(chips / n)
        share, rate = wilson(won, n * deals), wilson(made, won)
        rows.append(
            {
                "margin": m,
                "hands": deals,
                "gain": gain,
                "gain_lo": lo,
                "gain_hi": hi,
                "contracts": share.estimate,
                "make_rate": rate.estimate,
                "make_lo": rate.lo,
                "make_hi": rate.hi,
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update(kind="chips", measure="chips a deal")
    return out


def duel(
    variant: Variant, margins: Sequence[float], size: int, seed: int = 1, base: float | None = None
) -> pd.DataFrame:
    """The duel that applies to the rules (:func:`duel_kind`): ``size`` deals per seating for the team
    and chip duels, games per run for the seat duel."""
    if duel_kind(variant) == "team":
        return margin_duel(variant, margins, size, seed, base)
    return seat_duel(variant, margins, size, seed, base)


def tune_margin(
    variant: Variant,
    hands: int,
    seed: int = 1,
    step: float = 0.05,
    rounds: int = 12,
    start: float | None = None,
    on_duel=None,
) -> pd.DataFrame:
    """Search for a margin no nearby margin beats: from ``start`` (default: the rules' own margin), duel
    ``base ± step`` and ``base ± 2 step`` against ``base`` and move to the best while its whole interval
    is a gain; when the best is a margin that was a base already (the search circles), step once towards
    it instead, and stop unsettled when that step was a base too or does not gain. ``hands`` is the
    duel's size (:func:`duel`: deals, or games for the seat duel). One row
    per duel, with the base it was played against. The answer is in the frame's ``attrs``: ``margin``,
    ``settled`` (False when ``rounds`` ran out while the base still moved), ``kind`` and ``measure``.
    ``on_duel`` is called with each round's rows as they finish (a long search shows its progress)."""
    base = variant.get("policy.margin") if start is None else start
    path = []
    settled = False
    attrs = {}
    visited = {base}
    for _ in range(rounds):
        result = duel(variant, [round(base + k * step, 6) for k in (-2, -1, 1, 2)], hands, seed, base)
        attrs = dict(result.attrs)
        result.insert(0, "base", base)
        path.append(result)
        if on_duel is not None:
            on_duel(result)
        best = result.loc[result["gain"].idxmax()]
        if best["gain_lo"] <= 0:
            settled = True
            break
        nxt = round(float(best["margin"]), 6)
        if nxt in visited:
            # a margin that was a base already beats this one: the search is circling (with more than two
            # players a duel is not antisymmetric), so step once towards it, if that one gains too
            nxt = round(base + step * (1 if nxt > base else -1), 6)
            one = result.loc[(result["margin"] - nxt).abs() < 1e-9]
            if nxt in visited or not len(one) or float(one["gain_lo"].iloc[0]) <= 0:
                break
        visited.add(nxt)
        base = nxt
    out = pd.concat(path, ignore_index=True)
    out.attrs.update(attrs, margin=base, settled=settled)
    return out


#: The size of the quick search before an answer (``--tune-margin``), by duel kind: deals per seating
#: (team and chip duels) or games per run (seat duel). A tenth to a half of ``pinochle tune``'s default:
#: it finds the margin to about a step, not to its last digit.
QUICK_SIZE = {"team": 20_000, "chips": 10_000, "seat": 1_000}
#: The quick search's step: coarser than ``pinochle tune``'s 0.05, so that it settles in a few rounds.
QUICK_STEP = 0.1


def with_tuned_margin(variant: Variant, seed: int = 1, size: int | None = None) -> Variant:
    """The rules with a bidding margin tuned now by a quick :func:`tune_margin` from the rules' own
    margin (``size`` as there, default :data:`QUICK_SIZE`; step :data:`QUICK_STEP`). The result's
    ``margin_origin`` says so, with the search's size and its time in seconds. Raises
    :class:`NotForThisSystem` (:class:`DuelError` among them) for rules no duel can tune."""
    import time
    from dataclasses import replace
    from types import MappingProxyType

    from simcore.variants.margin import MarginOrigin

    kind = duel_kind(variant)
    size = size or QUICK_SIZE[kind]
    start = time.perf_counter()
    path = tune_margin(variant, size, seed, QUICK_STEP)
    seconds = time.perf_counter() - start
    margin = float(path.attrs["margin"])
    unit = "games a run" if kind == "seat" else "deals a seating"
    note = (
        f"from {variant.get('policy.margin'):g} in steps of {QUICK_STEP:g}, {len(path) // 4} rounds of duels "
        f"of {size:,} {unit}, seed {seed}, {seconds:.0f} s"
        + ("" if path.attrs["settled"] else "; still moving when it stopped")
    )
    was = variant.margin_origin
    origin = MarginOrigin(margin, "--tune-margin", was.file if was else variant.where, (), True, note)
    return replace(variant, values=MappingProxyType({**variant.values, "policy.margin": margin}), margin_origin=origin)
