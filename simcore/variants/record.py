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

The kernels take ``tables``, ``hand`` and ``game`` as separate arguments, each only the ones it reads;
everywhere else the three travel together as the ``KernelRules``. This module imports no kernel and no numba.
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
    #: int64[10, MAX_MULT + 1]: checks for melding, rows as ``meld_table`` (only the rows of
    #: ``schema.CHECK_MELDS``, the roundhouse in row ROUNDHOUSE, are ever non-zero).
    check_melds: np.ndarray
    #: int64[k, 2]: [lowest bid, checks] for making a contract, bids rising (no rows: no checks).
    check_contracts: np.ndarray


class HandRules(NamedTuple):
    """Every integer rule of one hand, for :func:`simcore.kernels.hand.play_hand`: one field per schema
    key named in :data:`HAND_RULE_KEYS` (a choice as its code, true/false as 1/0), and four derived
    values."""

    players: int
    hand_size: int
    last_trick: int
    trick_total: int  # derived: all the points taken in tricks in one hand, last trick included
    partner_meld: int  # derived: mean meld of a dealt hand under a fixed trump (what a bidder counts on)
    forced_bid: int  # derived: the contract when all pass (auction.forced_bid, else the minimum bid)
    checks: int  # derived: 1 when the rules pay checks ([checks], check pinochle), else 0
    teams: int
    call: int
    share: int
    may_play_alone: int
    auction: int
    min_bid: int
    step: int
    step_from: int
    step_after: int
    jump_steps: int
    opening_forced: int
    max_opening: int
    all_pass: int
    bid_needs_marriage: int
    trump_needs_marriage: int
    redeal_min_nines: int
    redeal_no_meld: int
    pass_cards: int
    simultaneous: int
    widow_to_bidder: int
    trump_after_widow: int
    widow_shared: int
    draw: int
    dix_for_turned: int
    pass_called_card: int
    lead: int
    bidder_leads_trump: int
    trump_led_once_broken: int
    beat_partner: int
    stock_play: int
    round_to: int
    round_up_from: int
    bid_added: int
    save_meld: int
    save_meld_points: int
    dix_kept: int
    dix_kept_when_set: int
    set_if_short_by: int
    min_meld_to_play: int
    min_meld_to_count: int
    partner_meld_counts: int
    buried_saves_meld: int
    opponents_no_trump: int
    concede: int
    concede_short_by: int
    concede_bonus: int
    concede_loses_bid: int
    concede_only_forced: int
    forfeit_unseen: int
    opponents_concede: int
    opponents_on_concede: int


#: The schema key each field of :class:`HandRules` is read from; ``Variant.hand_rules`` compiles a
#: choice to its code. The fields not listed are derived (``trick_total``, ``partner_meld``, ``forced_bid``,
#: ``checks``).
HAND_RULE_KEYS: dict[str, str] = {
    "players": "deal.players",
    "hand_size": "deal.hand_size",
    "last_trick": "tricks.last_trick",
    "teams": "teams.kind",
    "call": "teams.call",
    "share": "teams.share",
    "may_play_alone": "teams.may_play_alone",
    "auction": "auction.kind",
    "min_bid": "auction.min_bid",
    "step": "auction.step",
    "step_from": "auction.step_from",
    "step_after": "auction.step_after",
    "jump_steps": "auction.jump_steps",
    "opening_forced": "auction.opening_forced",
    "max_opening": "auction.max_opening",
    "all_pass": "auction.all_pass",
    "bid_needs_marriage": "auction.bid_needs_marriage",
    "trump_needs_marriage": "auction.trump_needs_marriage",
    "redeal_min_nines": "redeal.min_nines",
    "redeal_no_meld": "redeal.require_no_meld",
    "pass_cards": "exchange.pass_cards",
    "simultaneous": "exchange.simultaneous",
    "widow_to_bidder": "exchange.widow_to_bidder",
    "trump_after_widow": "exchange.trump_after_widow",
    "widow_shared": "exchange.widow_shared",
    "draw": "exchange.draw",
    "dix_for_turned": "exchange.dix_for_turned",
    "pass_called_card": "exchange.pass_called_card",
    "lead": "play.lead",
    "bidder_leads_trump": "play.bidder_leads_trump",
    "trump_led_once_broken": "play.trump_led_once_broken",
    "beat_partner": "play.beat_partner",
    "stock_play": "play.stock_play",
    "round_to": "tricks.round_to",
    "round_up_from": "tricks.round_up_from",
    "bid_added": "scoring.bid_added",
    "save_meld": "scoring.save_meld",
    "save_meld_points": "scoring.save_meld_points",
    "dix_kept": "scoring.dix_kept",
    "dix_kept_when_set": "scoring.dix_kept_when_set",
    "set_if_short_by": "scoring.set_if_short_by",
    "min_meld_to_play": "scoring.min_meld_to_play",
    "min_meld_to_count": "scoring.min_meld_to_count",
    "partner_meld_counts": "scoring.partner_meld_counts",
    "buried_saves_meld": "scoring.buried_saves_meld",
    "opponents_no_trump": "scoring.opponents_no_trump",
    "concede": "scoring.concede",
    "concede_short_by": "scoring.concede_short_by",
    "concede_bonus": "scoring.concede_bonus",
    "concede_loses_bid": "scoring.concede_loses_bid",
    "concede_only_forced": "scoring.concede_only_forced",
    "forfeit_unseen": "scoring.forfeit_unseen",
    "opponents_concede": "scoring.opponents_concede",
    "opponents_on_concede": "scoring.opponents_on_concede",
}


class GameRules(NamedTuple):
    """How a game ends, for :func:`simcore.kernels.game.play_game` (the ``game.*`` keys); all zero when
    the rules file has no ``[game]`` table."""

    target: int  # game.target (0: not set)
    bidder_wins_ties: int  # game.bidder_wins_ties
    play_on: int  # game.play_on (0: no play-on targets)
    losing_limit: int  # game.losing_limit (0: none)
    declare_out: int  # game.declare_out
    check_every: int  # checks.contract_every (0: no checks beyond the last bracket)
    check_more: int  # checks.contract_more
    check_defeat_times: int  # checks.defeat_times
    check_slam: int  # checks.slam
    check_game: int  # checks.game
    check_game_per: int  # checks.game_per (0: none)
    check_game_per_checks: int  # checks.game_per_checks
    check_losers_minus: int  # checks.losers_minus


class KernelRules(NamedTuple):
    """Everything the kernels read from the rules, built once per variant (``Variant.kernel_rules``)."""

    tables: Tables
    hand: HandRules
    game: GameRules

#: The schema key each check field of :class:`GameRules` is read from.
CHECK_GAME_KEYS: dict[str, str] = {
    "check_every": "checks.contract_every",
    "check_more": "checks.contract_more",
    "check_defeat_times": "checks.defeat_times",
    "check_slam": "checks.slam",
    "check_game": "checks.game",
    "check_game_per": "checks.game_per",
    "check_game_per_checks": "checks.game_per_checks",
    "check_losers_minus": "checks.losers_minus",
}
