"""The compiled rules as the kernels receive them: one typed record per rule system, built once by
``simcore.kernels.compiled.kernel_rules`` and passed to every full-hand and game kernel under these names.

    KernelRules
    ├── tables: Tables      the arrays (deck, meld table and flags, trick points, checks)
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
    #: int64[24]: points for taking each card type in a trick.
    trick_points: np.ndarray
    #: int64[10, MAX_MULT + 1]: checks for melding, rows as ``meld_table`` (only the rows of
    #: ``schema.CHECK_MELDS``, the roundhouse in row ROUNDHOUSE, are ever non-zero).
    check_melds: np.ndarray
    #: int64[k, 2]: [lowest bid, checks] for making a contract, bids rising (no rows: no checks).
    check_contracts: np.ndarray


#: Every field of :class:`HandRules`, in order, with the schema key it is read from (``Variant.hand_rule_values``
#: compiles a choice to its code, true/false to 1/0), or None for a value derived from the rules. A new
#: rule the kernels read is one line here.
HAND_RULE_FIELDS: tuple[tuple[str, str | None], ...] = (
    ("players", "deal.players"),
    ("hand_size", "deal.hand_size"),
    ("last_trick", "tricks.last_trick"),
    ("trick_total", None),  # all the points taken in tricks in one hand, last trick included
    ("partner_meld", None),  # mean meld of a dealt hand under a fixed trump (what a bidder counts on)
    ("forced_bid", None),  # the contract when all pass (auction.forced_bid, else the minimum bid)
    ("checks", None),  # 1 when the rules pay checks ([checks], check pinochle), else 0
    ("exempt_partner", None),  # 1 when a seat need not beat his partner's winning card, else 0
    ("teams", "teams.kind"),
    ("call", "teams.call"),
    ("share", "teams.share"),
    ("may_play_alone", "teams.may_play_alone"),
    ("auction", "auction.kind"),
    ("min_bid", "auction.min_bid"),
    ("step", "auction.step"),
    ("step_from", "auction.step_from"),
    ("step_after", "auction.step_after"),
    ("jump_steps", "auction.jump_steps"),
    ("opening_forced", "auction.opening_forced"),
    ("max_opening", "auction.max_opening"),
    ("all_pass", "auction.all_pass"),
    ("bid_needs_marriage", "auction.bid_needs_marriage"),
    ("trump_needs_marriage", "auction.trump_needs_marriage"),
    ("redeal_min_nines", "redeal.min_nines"),
    ("redeal_no_meld", "redeal.require_no_meld"),
    ("pass_cards", "exchange.pass_cards"),
    ("simultaneous", "exchange.simultaneous"),
    ("widow_to_bidder", "exchange.widow_to_bidder"),
    ("trump_after_widow", "exchange.trump_after_widow"),
    ("widow_shared", "exchange.widow_shared"),
    ("draw", "exchange.draw"),
    ("dix_for_turned", "exchange.dix_for_turned"),
    ("pass_called_card", "exchange.pass_called_card"),
    ("lead", "play.lead"),
    ("bidder_leads_trump", "play.bidder_leads_trump"),
    ("trump_led_once_broken", "play.trump_led_once_broken"),
    ("beat_partner", "play.beat_partner"),
    ("head", "play.follow_must_head"),  # the heading duty: play.HEAD_NEVER, HEAD_ALWAYS or HEAD_TRUMP_LED
    ("head_when_trumped", "play.head_when_trumped"),
    ("void_must_trump", "play.void_must_trump"),
    ("void_must_overtrump", "play.void_must_overtrump"),
    ("trump_instead", "play.trump_instead"),
    ("stock_play", "play.stock_play"),
    ("round_to", "tricks.round_to"),
    ("round_up_from", "tricks.round_up_from"),
    ("bid_added", "scoring.bid_added"),
    ("save_meld", "scoring.save_meld"),
    ("save_meld_points", "scoring.save_meld_points"),
    ("dix_kept", "scoring.dix_kept"),
    ("dix_kept_when_set", "scoring.dix_kept_when_set"),
    ("set_if_short_by", "scoring.set_if_short_by"),
    ("min_meld_to_play", "scoring.min_meld_to_play"),
    ("min_meld_to_count", "scoring.min_meld_to_count"),
    ("partner_meld_counts", "scoring.partner_meld_counts"),
    ("buried_saves_meld", "scoring.buried_saves_meld"),
    ("opponents_no_trump", "scoring.opponents_no_trump"),
    ("concede", "scoring.concede"),
    ("concede_short_by", "scoring.concede_short_by"),
    ("concede_bonus", "scoring.concede_bonus"),
    ("concede_loses_bid", "scoring.concede_loses_bid"),
    ("concede_only_forced", "scoring.concede_only_forced"),
    ("forfeit_unseen", "scoring.forfeit_unseen"),
    ("opponents_concede", "scoring.opponents_concede"),
    ("opponents_on_concede", "scoring.opponents_on_concede"),
)

#: The schema key each field of :class:`HandRules` read from the rules file comes from; the others
#: (``trick_total``, ``partner_meld``, ``forced_bid``, ``checks``, ``exempt_partner``) are derived.
HAND_RULE_KEYS: dict[str, str] = {field: key for field, key in HAND_RULE_FIELDS if key is not None}

#: Every integer rule of one hand, for :func:`simcore.kernels.hand.play_hand`: one int field per entry of
#: :data:`HAND_RULE_FIELDS`, read by name (``rules.min_bid``).
HandRules = NamedTuple("HandRules", [(field, int) for field, _ in HAND_RULE_FIELDS])


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
    """Everything the kernels read from the rules, built once per variant
    (``simcore.kernels.compiled.kernel_rules``)."""

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
