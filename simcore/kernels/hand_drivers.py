"""The Python side of the hand kernel: batches of chunks on threads (:func:`hands_batch`,
:func:`keyed_hands_batch`), the deal as the rules make it (:func:`free_deal`), the seats' policies and
margins as the kernel takes them, and one traced hand (:func:`trace_hand`) for the golden playthroughs,
the referee and the game state. They read a :class:`~simcore.variants.Variant` and call
:func:`simcore.kernels.hand.hands_chunk` or :func:`~simcore.kernels.hand.play_hand`.
"""

from __future__ import annotations

import numpy as np

from simcore.cards import N_TYPES
from simcore.kernels.compiled import hand_rules
from simcore.kernels.condition import NO_CONDITION
from simcore.kernels.hand import Deal, Seating, hand_work, hands_chunk, play_hand
from simcore.kernels.hand_record import N_FIELDS, S_SCORE
from simcore.kernels.threads import each_chunk

#: The ``key`` of :func:`hands_chunk` for hands drawn one after another from a chunk's stream.
NO_KEY = np.zeros(0, dtype=np.uint64)


def hands_batch(states, sizes, offsets, tables, rules, policies, margins, rest, given, contract, accept, out):
    """Chunk i plays ``sizes[i]`` hands (:func:`hands_chunk`) into rows ``offsets[i]:offsets[i] + sizes[i]``
    of ``out``, chunks on threads (:func:`simcore.kernels.threads.each_chunk`)."""
    seating, deal = Seating(policies, margins), Deal(rest, given, contract, accept)
    each_chunk(
        lambda ci: hands_chunk(
            states[ci].copy(),
            NO_KEY,
            0,
            tables,
            rules,
            seating,
            deal,
            out[offsets[ci] : offsets[ci] + sizes[ci]],
        ),
        states.shape[0],
    )


def free_deal(tables) -> Deal:
    """The :class:`~simcore.kernels.hand.Deal` (rest, given, contract, accept) of hands dealt and bid as the rules say,
    under no condition. The deck is a writable copy: numba types a read-only array apart, and the rules'
    deck is read-only, so passing it would compile the whole hand a second time beside ``pinochle
    advise``'s deals."""
    return Deal(
        tables.deck.copy(),
        np.zeros(N_TYPES, dtype=np.uint8),
        np.array([-1, 0], dtype=np.int64),
        NO_CONDITION.copy(),
    )


def keyed_hands_batch(key, firsts, sizes, offsets, tables, rules, policies, margins, out, deal=None):
    """Chunk i plays hands ``firsts[i] ..`` of the run keyed ``key`` (:func:`hands_chunk`) into rows
    ``offsets[i]:offsets[i] + sizes[i]`` of ``out``, chunks on threads; ``deal``: a
    :class:`~simcore.kernels.hand.Deal` (None: :func:`free_deal`)."""
    deal, seating = free_deal(tables) if deal is None else deal, Seating(policies, margins)
    each_chunk(
        lambda ci: hands_chunk(
            np.zeros(4, dtype=np.uint64),
            key,
            firsts[ci],
            tables,
            rules,
            seating,
            deal,
            out[offsets[ci] : offsets[ci] + sizes[ci]],
        ),
        firsts.shape[0],
    )


def seat_policies(policies) -> np.ndarray:
    """int64[players]: the seats' policy codes (:mod:`simcore.kernels.policies`) as the kernels take them."""
    return np.asarray(policies, dtype=np.int64)


def seat_margins(variant, margins: np.ndarray | None) -> np.ndarray:
    """float64[players] bidding margins (see :func:`play_hand`); None: the rules' ``policy.margin`` at
    every seat."""
    if margins is None:
        return np.full(variant.players, variant.get("policy.margin"), dtype=np.float64)
    out = np.asarray(margins, dtype=np.float64)
    if out.shape != (variant.players,):
        raise ValueError(f"margins: one per seat ({variant.players}), got {out.shape}")
    return out


def trace_hand(
    variant,
    seed: int,
    policies: np.ndarray,
    rows: int = 4096,
    margins: np.ndarray | None = None,
    with_seats: bool = False,
    need: np.ndarray | None = None,
    seat_row: int = S_SCORE,
    deal: tuple | None = None,
    chunk: int = 0,
) -> tuple[np.ndarray, ...]:
    """(record, trace rows) of the first hand of chunk ``chunk`` for ``seed`` (chunk 0: what a golden
    playthrough records, the first row of ``simulate(variant, n, seed, policies)``; chunk i:
    :func:`simcore.state.new_hand`'s ``hand=i``). With
    ``with_seats``, also what the hand adds to each seat's score line (or another ``seat_row`` of
    ``seats``); ``need`` is what each seat needs to declare out (see :func:`play_hand`); ``deal``:
    (rest, given, contract, accept) as :func:`hands_chunk` takes them (None: :func:`free_deal`)."""
    from simcore.kernels.rng import chunk_states

    state = chunk_states(seed, [chunk])[0]
    need = np.zeros(variant.players, dtype=np.int64) if need is None else np.asarray(need, dtype=np.int64)
    rec = np.zeros(N_FIELDS, dtype=np.int64)
    own = hand_work(variant.tables, variant.players, rows)
    rest, given, contract, accept = free_deal(variant.tables) if deal is None else deal
    work = own._replace(
        deal=own.deal._replace(
            cards=np.array(rest, dtype=np.uint8),
            given=np.asarray(given, dtype=np.uint8),
            contract=np.asarray(contract, dtype=np.int64),
            accept=np.asarray(accept, dtype=np.int64),
        )
    )
    play_hand(state, hand_rules(variant), seat_policies(policies), seat_margins(variant, margins), need, rec, work)
    trace = work.position.trace
    used = int(np.count_nonzero(trace[:, 0]))
    if with_seats:
        return rec, trace[:used], work.position.seats[seat_row].copy()
    return rec, trace[:used]
