"""The compiled rules as the kernels receive them: one typed record per rule system, built once by
``Variant.kernel_rules`` and passed to every full-hand and game kernel under these names.

    KernelRules
    ├── tables: Tables      the arrays (deck, meld table and flags, play duties, trick points)
    ├── hand:   HandRules   every integer rule of a hand, one named int64 field each
    └── game:   GameRules   how a game ends

The records are ``typing.NamedTuple``\\ s, which numba takes as arguments and reads by field name
(``rules.min_bid``). ``HandRules`` and ``GameRules`` hold integers only, so numba types them as a tuple
of int64 passed by value: reading a rule costs no memory load and no reference count. Their fields
are plain ints: a rule that is true or false is 0 or 1, a choice its integer code (its index among the
schema's allowed values, ``schema.code``; the names of the codes are in :mod:`simcore.variants.layout`).
Points are on the variant's own scale.

The kernels take ``tables``, ``hand`` and ``game`` as separate arguments rather than the
``KernelRules`` itself, because numba's parallel loops cannot take a tuple nested in a tuple (numba
issue #5703); everywhere else the three travel together. This module imports no kernel and no numba.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Tables(NamedTuple):
    """The arrays of the compiled rules (read-only; a kernel chunk works on its own copies)."""

    #: uint8[deck_size]: the deck as card types, in type order (the unshuffled deck).
    deck: np.ndarray
    #: uint8[24]: copies of each card type in the deck (0 for ranks the deck lacks).
    deck_copies: np.ndarray
    #: int64[10, MAX_MULT + 1]: meld points by meld row and multiplicity (rows in ``layout``).
    meld_table: np.ndarray
    #: int64: the meld flags, entries ``layout.F_*`` (dix, the run's extra king and queen, ...).
    meld_flags: np.ndarray
    #: int64[5]: the play duties :func:`simcore.kernels.play.legal_mask` reads (``play.R_*``).
    play_rules: np.ndarray
    #: int64[24]: points for taking each card type in a trick.
    trick_points: np.ndarray


class HandRules(NamedTuple):
    """Every integer rule of one hand, for :func:`simcore.kernels.hand.play_hand`. Each field is named
    for the schema key it comes from (the key is given where the name differs); "code" marks a choice."""

    players: int  # deal.players
    hand_size: int  # deal.hand_size: cards dealt to each player
    last_trick: int  # tricks.last_trick: points for taking the last trick
    trick_total: int  # derived: all the points taken in tricks in one hand, last trick included
    partner_meld: int  # derived: mean meld of a dealt hand under a fixed trump (what a bidder counts on)
    forced_bid: int  # derived: the contract when all pass (auction.forced_bid, else the minimum bid)
    teams: int  # code of teams.kind
    call: int  # code of teams.call
    share: int  # code of teams.share
    may_play_alone: int  # teams.may_play_alone
    auction: int  # code of auction.kind
    min_bid: int  # auction.min_bid
    step: int  # auction.step
    step_from: int  # auction.step_from
    step_after: int  # auction.step_after
    jump_steps: int  # auction.jump_steps
    opening_forced: int  # auction.opening_forced
    max_opening: int  # auction.max_opening (0: no cap)
    all_pass: int  # code of auction.all_pass
    bid_needs_marriage: int  # auction.bid_needs_marriage
    trump_needs_marriage: int  # auction.trump_needs_marriage
    redeal_min_nines: int  # redeal.min_nines (0: no such rule)
    redeal_no_meld: int  # redeal.require_no_meld
    pass_cards: int  # exchange.pass_cards
    simultaneous: int  # exchange.simultaneous
    widow_to_bidder: int  # exchange.widow_to_bidder
    trump_after_widow: int  # exchange.trump_after_widow
    widow_shared: int  # exchange.widow_shared
    draw: int  # exchange.draw
    lead: int  # code of play.lead
    bidder_leads_trump: int  # play.bidder_leads_trump
    trump_led_once_broken: int  # play.trump_led_once_broken
    beat_partner: int  # play.beat_partner
    stock_play: int  # play.stock_play
    round_to: int  # tricks.round_to (0: trick points as taken)
    round_up_from: int  # tricks.round_up_from
    bid_added: int  # scoring.bid_added
    save_meld: int  # code of scoring.save_meld
    save_meld_points: int  # scoring.save_meld_points
    dix_kept: int  # scoring.dix_kept
    dix_kept_when_set: int  # scoring.dix_kept_when_set
    set_if_short_by: int  # scoring.set_if_short_by (0: never set before play)
    min_meld_to_play: int  # scoring.min_meld_to_play
    min_meld_to_count: int  # scoring.min_meld_to_count
    partner_meld_counts: int  # scoring.partner_meld_counts
    buried_saves_meld: int  # scoring.buried_saves_meld
    opponents_no_trump: int  # code of scoring.opponents_no_trump
    concede: int  # scoring.concede
    concede_short_by: int  # scoring.concede_short_by
    concede_bonus: int  # scoring.concede_bonus
    concede_loses_bid: int  # scoring.concede_loses_bid
    concede_only_forced: int  # scoring.concede_only_forced
    opponents_on_concede: int  # code of scoring.opponents_on_concede


class GameRules(NamedTuple):
    """How a game ends, for :func:`simcore.kernels.game.play_game` (the ``game.*`` keys); all zero when
    the rules file has no ``[game]`` table."""

    target: int  # game.target (0: not set)
    bidder_wins_ties: int  # game.bidder_wins_ties
    play_on: int  # game.play_on (0: no play-on targets)
    losing_limit: int  # game.losing_limit (0: none)
    declare_out: int  # game.declare_out


class KernelRules(NamedTuple):
    """Everything the kernels read from the rules, built once per variant (``Variant.kernel_rules``)."""

    tables: Tables
    hand: HandRules
    game: GameRules
