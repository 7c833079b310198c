"""A Python policy against the built-in heuristic on identical deals, seats swapped (``pinochle duel``):
points a deal (:func:`duel`) or whole games won (:func:`duel_games`).

Deal i is the first deal of chunk i's stream for the seed (:func:`simcore.state.new_hand` with
``hand=i``). The seats are split into sets: the two partnerships where partners sit across, else each seat
alone. Every deal is played once with the policy in each set (the heuristic, :func:`kernel_policy`, in
all other seats) and once by the heuristic everywhere. The policy's points a deal are what its seats'
score lines gained, averaged over the sets it sat in; the heuristic's are what the heuristic gained in
those same seats on the same deal. Their difference, one value per deal (deals are independent), gets a
normal 95% interval (:func:`simcore.run.stats.values_interval`). Points are on the variant's scale.
"""

from __future__ import annotations

import importlib

import numpy as np

from simcore.kernels.policies import HEURISTIC, POLICY_NAMES
from simcore.state import new_hand
from simcore.state.game import PolicyFailed, finish, lines_of, play_game
from simcore.state.players import kernel_policy


class PolicyLoadError(ValueError):
    """A ``module:function`` that does not name a callable, or a policy that broke the rules."""


#: The built-in players that play through the game state in Python, beside the kernel's POLICY_NAMES.
STATE_PLAYERS = ("sampling", "sampled-bids", "sampled-trump", "sampled-exchange", "strong")


def load_policy(
    spec: str,
    samples: int = 20,
    solve_from: int | None = None,
    rollout_from: int | None = None,
    read_auction: bool | None = None,
    read_duties: bool | None = None,
):
    """The callable named ``module:function``, or a built-in: "heuristic", "basic", "random", "sampling" (the
    sampling player with ``samples`` deals a decision over the last ``solve_from`` tricks (None: the
    system's default, :func:`simcore.state.sampler.solves_from`), and playouts
    from ``rollout_from`` tricks from the end until then, None: from the first card; its deals fit the
    bids where ``read_auction``, None: as the player does by default), "sampled-bids"
    (bids from the hand's sampled value, :class:`simcore.strong.bidder.AdviseBidder`, the heuristic
    elsewhere), "sampled-trump" (trump named from sampled deals, :class:`simcore.strong.bidder.AdviseTrump`,
    the heuristic elsewhere), "sampled-exchange" (the pass, return and burial chosen from sampled
    deals, :class:`simcore.strong.bidder.AdviseExchange`, the heuristic elsewhere) or "strong" (those bids,
    trump and cards passed and buried, with the sampling player's card play)."""
    if spec in POLICY_NAMES:
        return kernel_policy(spec)
    if spec in STATE_PLAYERS:
        return _state_player(spec, samples, solve_from, rollout_from, read_auction, read_duties)
    module, _, name = spec.partition(":")
    if not module or not name:
        built_in = ", ".join((*POLICY_NAMES, *STATE_PLAYERS))
        raise PolicyLoadError(f"--policy {spec!r}: give module:function, e.g. mybot:choose, or a built-in: {built_in}")
    try:
        mod = importlib.import_module(module)
    except Exception as exc:  # any failure importing the user's module is his input's fault
        raise PolicyLoadError(f"--policy {spec!r}: cannot import {module!r} ({type(exc).__name__}: {exc})") from None
    fn = getattr(mod, name, None)
    if fn is None:
        raise PolicyLoadError(f"--policy {spec!r}: module {module!r} has no {name!r}")
    if not callable(fn):
        raise PolicyLoadError(f"--policy {spec!r}: {name!r} is a {type(fn).__name__}, not a callable")
    return fn


def _state_player(
    spec: str,
    samples: int,
    solve_from: int | None,
    rollout_from: int | None,
    read_auction: bool | None,
    read_duties: bool | None = None,
):
    """The built-in ``spec`` of :data:`STATE_PLAYERS` (imported only when asked for: they load the solver)."""
    if spec == "sampling":
        from simcore.state.sampler import SamplingPlayer

        return SamplingPlayer(
            samples=samples,
            solve_from=solve_from,
            rollout_from=rollout_from,
            read_auction=read_auction,
            read_duties=read_duties,
        )
    from simcore.strong.bidder import AdviseBidder, AdviseExchange, AdviseTrump, strong_player

    if spec == "strong":
        return strong_player(samples, solve_from, rollout_from=rollout_from, read_auction=read_auction)
    return {"sampled-trump": AdviseTrump, "sampled-exchange": AdviseExchange}.get(spec, AdviseBidder)()


def seat_sets(variant) -> list[list[int]]:
    """The seats a policy takes together: the partnerships across, else each seat alone."""
    if variant.get("teams.kind") == "partners_across":
        return [list(range(side, variant.players, 2)) for side in (0, 1)]
    return [[s] for s in range(variant.players)]


def play_state(variant, seats_policy, policy, seed: int, hand: int, name: str = "policy"):
    """Deal ``hand`` played to its end, ``policy`` in ``seats_policy``, the heuristic elsewhere: the
    terminal :class:`~simcore.state.HandState` (its ``returns()`` and ``record()``)."""
    heuristic = kernel_policy("heuristic")
    state = new_hand(variant, seed, hand=hand)
    try:
        return finish(state, lambda seat: policy if seat in seats_policy else heuristic, lambda seat: name)
    except PolicyFailed as exc:
        raise PolicyLoadError(str(exc)) from None


def play(variant, seats_policy, policy, seed: int, hand: int, name: str = "policy") -> list[int]:
    """What each seat's score line gained in deal ``hand``, ``policy`` in ``seats_policy``, the heuristic
    elsewhere."""
    return play_state(variant, seats_policy, policy, seed, hand, name).returns()


def deal_points(sets: list[list[int]], base: list[int], got: list[list[int]]) -> tuple[float, float]:
    """(the policy's points, the heuristic's in the same seats) for one deal: ``base`` is each seat's
    gain with the heuristic everywhere, ``got[k]`` with the policy in ``sets[k]``; each is a seat set's
    mean over its seats, averaged over the sets."""
    mine = sum(sum(r[s] for s in g) / len(g) for g, r in zip(sets, got)) / len(sets)
    theirs = sum(sum(base[s] for s in g) / len(g) for g in sets) / len(sets)
    return mine, theirs


def kernel_play(variant, seats_policy, code: int, seed: int, hand: int) -> list[int]:
    """:func:`play` with the policy a built-in one (``code``, :data:`simcore.kernels.policies.POLICY_NAMES`)
    played by the hand kernel itself: the same hand as the policy bridged to Python plays, much faster."""
    from simcore.kernels.hand_drivers import trace_hand

    codes = np.full(variant.players, HEURISTIC, dtype=np.int64)
    codes[list(seats_policy)] = code
    return trace_hand(variant, seed, codes, rows=0, with_seats=True, chunk=hand)[2].tolist()


def duel(variant, policy, hands: int, seed: int, name: str = "policy", in_kernel: bool = False) -> dict:
    """The duel's numbers (see the module): per-deal means with 95% intervals, as plain data. With
    ``in_kernel``, ``name`` is a built-in policy and the hand kernel plays it (:func:`kernel_play`)."""
    sets = seat_sets(variant)
    mine, theirs = [], []
    for i in range(hands):
        if in_kernel:
            code = POLICY_NAMES.index(name)
            base = kernel_play(variant, [], code, seed, i)
            got = [kernel_play(variant, g, code, seed, i) for g in sets]
        else:
            base = play(variant, [], None, seed, i)
            got = [play(variant, g, policy, seed, i, name) for g in sets]
        a, b = deal_points(sets, base, got)
        mine.append(a)
        theirs.append(b)
    return summary(variant, name, seed, sets, mine, theirs)


def summary(variant, name: str, seed: int, sets: list[list[int]], mine: list[float], theirs: list[float]) -> dict:
    """The duel's numbers from per-deal points (:func:`deal_points`, one pair a deal): each mean and the
    difference with a normal 95% interval over deals, as plain data."""
    from simcore.run.stats import values_interval

    diff = [a - b for a, b in zip(mine, theirs)]

    def interval(x):
        iv = values_interval(x)
        return {"mean": iv.estimate, "low": iv.lo, "high": iv.hi}

    return {
        "variant": variant.id,
        "policy": name,
        "opponent": "heuristic",
        "hands": len(mine),
        "seed": seed,
        "seat_sets": sets,
        "policy_points": interval(mine),
        "heuristic_points": interval(theirs),
        "difference": interval(diff),
    }


def game_wins(variant, policy, seed: int, game: int, name: str = "policy") -> tuple[int, int]:
    """Game ``game`` of ``seed`` (:func:`simcore.state.game.play_game`, the deals of ``pinochle games
    --seed``) played once with ``policy`` in each seat set and the heuristic elsewhere: (how many of those
    plays the policy's line won, the hands they took together)."""
    line = lines_of(variant)
    heuristic = kernel_policy("heuristic")
    wins = hands = 0
    for group in seat_sets(variant):
        players = [policy if s in group else heuristic for s in range(variant.players)]
        names = [name if s in group else "heuristic" for s in range(variant.players)]
        try:
            result = play_game(variant, seed, game, players, names)
        except PolicyFailed as exc:
            raise PolicyLoadError(str(exc)) from None
        wins += int(result.winner == line[group[0]])
        hands += result.hands
    return wins, hands


def games_summary(variant, name: str, seed: int, wins: list[int], hands: list[int]) -> dict:
    """The games duel's numbers from :func:`game_wins` of games 0, 1, ...: the policy's rate of games won,
    with a Wilson 95% interval widened for the plays of one game going together
    (:func:`simcore.run.stats.clustered_proportion`), against ``even_share = 1 / len(sets)`` for a player
    as strong as the heuristic (the seats take turns on the same deals, so the deal and the seat favour
    neither); ``hands_a_game``, the mean length of a play."""
    from simcore.run.stats import clustered_proportion

    sets = seat_sets(variant)
    iv = clustered_proportion(sum(wins), sum(w * w for w in wins), len(wins), len(sets))
    return {
        "variant": variant.id,
        "policy": name,
        "opponent": "heuristic",
        "games": len(wins),
        "seed": seed,
        "seat_sets": sets,
        "hands_a_game": sum(hands) / (len(wins) * len(sets)) if wins else 0.0,
        "games_won": {"mean": iv.estimate, "low": iv.lo, "high": iv.hi},
        "even_share": 1 / len(sets),
    }


def duel_games(variant, policy, games: int, seed: int, name: str = "policy") -> dict:
    """Whole games 0 .. ``games`` - 1 of ``seed``, each played once with ``policy`` in each seat set
    (:func:`game_wins`), summed up by :func:`games_summary`."""
    played = [game_wins(variant, policy, seed, g, name) for g in range(games)]
    return games_summary(variant, name, seed, [w for w, _ in played], [n for _, n in played])
