"""The validated, immutable rule system and the integer tables compiled from it for the kernels."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

import numpy as np

from simcore.kernels.cards import N_RANKS, N_SUITS, N_TYPES, RANKS
from simcore.variants import layout
from simcore.variants.layout import (  # noqa: F401  (the meld table's layout, re-exported for callers)
    ACES,
    F_DIX,
    F_EXTRA_KING,
    F_EXTRA_QUEEN,
    F_RUN_OR_ROYAL,
    F_RUN_SCORES_ROYAL,
    JACKS,
    KINGS,
    MARRIAGE,
    MAX_MULT,
    PINOCHLE,
    QUEENS,
    ROUNDHOUSE,
    ROYAL,
    RUN,
    RUN_EXTRA_MARRIAGE,
)
from simcore.variants.schema import KEYS, MULTIPLE_MELDS, MULTIPLICITY_PREFIXES, code


def multiple_values(listed: Mapping[int, int], top: int) -> list[int]:
    """Points for holding a meld 0..top times, from the values the rules list by multiplicity.

    A multiplicity the rules do not list scores as the best split into listed ones: the six-hand
    triple-pack document values 20 aces (five around) as triple aces plus double aces. With only a
    single value listed this makes the meld linear (double marriage = 2 × marriage).
    """
    best = [0] * (top + 1)
    for k in range(1, top + 1):
        if k in listed:
            best[k] = listed[k]
        else:
            best[k] = max((best[a] + best[k - a] for a in range(1, k)), default=0)
    return best


@dataclass(frozen=True, eq=False)
class Variant:
    """One rule system: every key of the schema, from its rules file (after ``extends`` and overrides)
    or the schema's default, validated.

    ``values`` maps every dotted key (``meld.double_pinochle``) to its value, ``None`` where the key is
    not set and that has a meaning (``Key.unset``); ``where`` names the file it came from, for messages.
    Everything the kernels need is derived from ``values``.
    """

    where: str
    values: Mapping[str, Any]

    @cached_property
    def canonical(self) -> str:
        """The rules as canonical JSON (sorted keys): equal rules give equal text, whatever the file."""
        return json.dumps(dict(self.values), sort_keys=True, separators=(",", ":"))

    @cached_property
    def content_hash(self) -> str:
        """SHA-256 of :attr:`canonical`: identifies results computed under these rules."""
        return hashlib.sha256(self.canonical.encode()).hexdigest()

    def __hash__(self) -> int:
        return hash(self.canonical)

    def __reduce__(self):  # the read-only mapping does not pickle; cluster tasks carry variants
        return _variant_from, (self.where, dict(self.values))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and self.canonical == other.canonical

    def get(self, key: str) -> Any:
        """The value of schema key ``key`` (every key has one: set, defaulted, or ``None`` for not set)."""
        if key not in KEYS:
            raise KeyError(f"{key!r} is not a rules key")
        return self.values[key]

    @property
    def id(self) -> str:
        return self.values["id"]

    @property
    def name(self) -> str:
        return self.values["name"]

    @property
    def description(self) -> str:
        return self.values["description"]

    @property
    def source(self) -> str:
        return self.values["source"]

    @property
    def ranks(self) -> tuple[str, ...]:
        return tuple(self.values["deck.ranks"])

    @property
    def copies(self) -> int:
        return self.values["deck.copies"]

    @property
    def players(self) -> int:
        return self.values["deal.players"]

    @property
    def hand_size(self) -> int:
        return self.values["deal.hand_size"]

    @property
    def widow(self) -> int:
        return self.values["deal.widow"]

    @property
    def deck_size(self) -> int:
        return N_SUITS * len(self.ranks) * self.copies

    @property
    def redeal_min_nines(self) -> int:
        """Nines that let a hand be thrown in; 0 when the system has no such rule."""
        return self.values["redeal.min_nines"]

    @property
    def redeal_require_no_meld(self) -> bool:
        return self.values["redeal.require_no_meld"]

    @cached_property
    def deck_copies(self) -> np.ndarray:
        """uint8[24]: copies of each card type in the deck (0 for ranks the deck lacks)."""
        copies = np.zeros(N_TYPES, dtype=np.uint8)
        for s in range(N_SUITS):
            for r in range(N_RANKS):
                if RANKS[r] in self.ranks:
                    copies[s * N_RANKS + r] = self.copies
        return copies

    @cached_property
    def deck_cards(self) -> np.ndarray:
        """uint8[deck_size]: the deck as a list of card types, in type order (the unshuffled deck)."""
        return np.repeat(np.arange(N_TYPES, dtype=np.uint8), self.deck_copies)

    def play_rules(self) -> np.ndarray:
        """int64[5]: head mode (0 never, 1 always, 2 trump led), head when trumped, void must trump,
        void must overtrump, may trump instead of following — the duties
        :func:`simcore.kernels.play.legal_mask` reads."""
        return np.array([code("play.follow_must_head", self.values["play.follow_must_head"]),
                         int(self.values["play.head_when_trumped"]),
                         int(self.values["play.void_must_trump"]),
                         int(self.values["play.void_must_overtrump"]),
                         int(self.values["play.trump_instead"])], dtype=np.int64)

    @cached_property
    def trick_points(self) -> np.ndarray:
        """int64[24]: points for taking each card type in a trick (by rank, from ``tricks.points``)."""
        pts = np.zeros(N_TYPES, dtype=np.int64)
        for s in range(N_SUITS):
            pts[s * N_RANKS: (s + 1) * N_RANKS] = self.values["tricks.points"]
        pts.setflags(write=False)
        return pts

    @property
    def last_trick(self) -> int:
        return self.values["tricks.last_trick"]

    @property
    def trick_total(self) -> int:
        """All the points to be taken in tricks in one hand, last trick included."""
        return int((self.trick_points * self.deck_copies).sum()) + self.last_trick

    @cached_property
    def hand_rules(self) -> np.ndarray:
        """int64[N_HAND_RULES]: teams, auction, exchange, scoring and lead rules as integers for
        :func:`simcore.kernels.hand.play_hand` (slots ``H_*`` of :mod:`simcore.variants.layout`)."""
        v = self.values
        rules = np.zeros(layout.N_HAND_RULES, dtype=np.int64)
        rules[layout.H_TEAMS] = code("teams.kind", v["teams.kind"])
        rules[layout.H_AUCTION] = code("auction.kind", v["auction.kind"])
        rules[layout.H_MIN_BID] = v["auction.min_bid"]
        rules[layout.H_STEP] = v["auction.step"]
        rules[layout.H_STEP_FROM] = v["auction.step_from"]
        rules[layout.H_STEP_AFTER] = v["auction.step_after"]
        rules[layout.H_ALL_PASS] = code("auction.all_pass", v["auction.all_pass"])
        rules[layout.H_BID_MARRIAGE] = v["auction.bid_needs_marriage"]
        rules[layout.H_TRUMP_MARRIAGE] = v["auction.trump_needs_marriage"]
        rules[layout.H_PASS] = v["exchange.pass_cards"]
        rules[layout.H_WIDOW_TO_BIDDER] = v["exchange.widow_to_bidder"]
        rules[layout.H_BID_ADDED] = v["scoring.bid_added"]
        rules[layout.H_SAVE] = code("scoring.save_meld", v["scoring.save_meld"])
        rules[layout.H_SAVE_POINTS] = v["scoring.save_meld_points"]
        rules[layout.H_DIX_KEPT] = v["scoring.dix_kept"]
        rules[layout.H_SHORT_BY] = v["scoring.set_if_short_by"]
        rules[layout.H_CONCEDE] = v["scoring.concede"]
        rules[layout.H_OPP_CONCEDE] = code("scoring.opponents_on_concede", v["scoring.opponents_on_concede"])
        rules[layout.H_LEAD] = code("play.lead", v["play.lead"])
        rules[layout.H_REDEAL_NINES] = self.redeal_min_nines
        rules[layout.H_REDEAL_NO_MELD] = int(self.redeal_require_no_meld)
        rules[layout.H_TRICK_TOTAL] = self.trick_total
        rules[layout.H_PARTNER_MELD] = self.mean_meld_fixed_trump
        rules[layout.H_JUMP_STEPS] = v["auction.jump_steps"]
        rules[layout.H_SIMULTANEOUS] = v["exchange.simultaneous"]
        rules[layout.H_WIDOW_SHARED] = v["exchange.widow_shared"]
        rules[layout.H_MIN_MELD_PLAY] = v["scoring.min_meld_to_play"]
        rules[layout.H_MIN_MELD_COUNT] = v["scoring.min_meld_to_count"]
        rules[layout.H_FORCED_BID] = self.forced_bid
        rules[layout.H_CALL] = code("teams.call", v["teams.call"])
        rules[layout.H_SHARE] = code("teams.share", v["teams.share"])
        rules[layout.H_LEAD_TRUMP] = v["play.bidder_leads_trump"]
        rules[layout.H_MAY_GO_ALONE] = v["teams.may_play_alone"]
        rules[layout.H_PARTNER_MELD_COUNTS] = v["scoring.partner_meld_counts"]
        rules[layout.H_DRAW] = v["exchange.draw"]
        rules[layout.H_TRUMP_BROKEN] = v["play.trump_led_once_broken"]
        rules[layout.H_DIX_WHEN_SET] = v["scoring.dix_kept_when_set"]
        rules[layout.H_BEAT_PARTNER] = v["play.beat_partner"]
        rules[layout.H_STOCK] = v["play.stock_play"]
        rules[layout.H_ROUND_TO] = v["tricks.round_to"]
        rules[layout.H_ROUND_UP_FROM] = v["tricks.round_up_from"]
        rules[layout.H_OPENING_FORCED] = v["auction.opening_forced"]
        rules[layout.H_MAX_OPENING] = v["auction.max_opening"]
        rules[layout.H_TRUMP_AFTER_WIDOW] = v["exchange.trump_after_widow"]
        rules[layout.H_CONCEDE_SHORT] = v["scoring.concede_short_by"]
        rules[layout.H_CONCEDE_BONUS] = v["scoring.concede_bonus"]
        rules[layout.H_CONCEDE_LOSES_BID] = v["scoring.concede_loses_bid"]
        rules[layout.H_BURIED_SAVES] = v["scoring.buried_saves_meld"]
        rules[layout.H_NO_TRUMP_OPP] = code("scoring.opponents_no_trump", v["scoring.opponents_no_trump"])
        rules.setflags(write=False)
        return rules

    @property
    def forced_bid(self) -> int:
        """The contract of the player who takes the hand when all pass: ``auction.forced_bid``, or the
        minimum bid where it is 0 or absent."""
        return self.values["auction.forced_bid"] or self.values["auction.min_bid"]

    @property
    def lowest_contract(self) -> int:
        """The lowest contract a hand can carry: the minimum bid, or a forced bid below it; the origin of
        every table by bid."""
        return min(self.values["auction.min_bid"], self.forced_bid)

    @property
    def has_game_rules(self) -> bool:
        """True when the rules file says how a game ends (``[game]``)."""
        return self.values["game.target"] is not None

    @cached_property
    def game_rules(self) -> np.ndarray:
        """int64[N_GAME_RULES]: how a game ends, for :func:`simcore.kernels.game.play_game` (slots ``G_*``
        of :mod:`simcore.variants.layout`); all zero when the file has no ``[game]`` table."""
        v = self.values
        rules = np.zeros(layout.N_GAME_RULES, dtype=np.int64)
        rules[layout.G_TARGET] = v["game.target"] or 0
        rules[layout.G_BIDDER_WINS_TIES] = v["game.bidder_wins_ties"]
        rules[layout.G_PLAY_ON] = v["game.play_on"]
        rules[layout.G_LOSING_LIMIT] = v["game.losing_limit"]
        rules[layout.G_DECLARE_OUT] = v["game.declare_out"]
        rules.setflags(write=False)
        return rules

    @cached_property
    def mean_meld_fixed_trump(self) -> int:
        """Average meld of a dealt hand under a fixed trump (rounded; from 20,000 seeded hands): what
        a bidder can count on from his partner before seeing the pass."""
        from simcore.kernels.deal import deal_hands
        from simcore.kernels.meld import meld_sum_first_suit
        from simcore.kernels.rng import chunk_states

        deals = deal_hands(self.deck_cards, self.players, self.hand_size, chunk_states(0, [0])[0],
                           20_000 // self.players)
        hands = np.ascontiguousarray(deals[:, : self.players]).reshape(-1, N_TYPES)
        return round(int(meld_sum_first_suit(hands, self.meld_table(), self.meld_flags())) / len(hands))

    def meld_value(self, base: str, multiplicity: int) -> int:
        """Points for holding meld ``base`` (e.g. ``pinochle``) ``multiplicity`` times."""
        return int(self.meld_table()[MULTIPLE_MELDS.index(base), multiplicity])

    def meld_table(self) -> np.ndarray:
        """int64[10, MAX_MULT + 1]: points by meld row (RUN ... RUN_EXTRA_MARRIAGE) and multiplicity."""
        return self._meld_arrays[0]

    def meld_flags(self) -> np.ndarray:
        """int64[6]: dix points per nine, extra-king and extra-queen points, run-or-royal (0/1), the run
        scores its royal marriage (0/1), an extra marriage scores once per run (0/1)."""
        return self._meld_arrays[1]

    @cached_property
    def _meld_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        table = np.zeros((10, MAX_MULT + 1), dtype=np.int64)
        for row, base in enumerate(MULTIPLE_MELDS):
            listed = {i + 1: self.values[f"meld.{p}{base}"] for i, p in enumerate(MULTIPLICITY_PREFIXES)
                      if self.values[f"meld.{p}{base}"] is not None}
            table[row] = multiple_values(listed, MAX_MULT)
        if self.values["meld.run_extra_marriage"] is not None:
            table[RUN_EXTRA_MARRIAGE] = np.arange(MAX_MULT + 1) * self.values["meld.run_extra_marriage"]
        else:
            table[RUN_EXTRA_MARRIAGE] = table[ROYAL]
        flags = np.array([self.values["meld.dix"], self.values["meld.run_extra_king"],
                          self.values["meld.run_extra_queen"],
                          int(self.values["meld.run_or_royal"]), int(self.values["meld.run_scores_royal"]),
                          int(self.values["meld.run_extra_marriage_per_run"])],
                         dtype=np.int64)
        table.setflags(write=False)
        flags.setflags(write=False)
        return table, flags


def _variant_from(where: str, values: dict[str, Any]) -> Variant:
    """A :class:`Variant` rebuilt from its pickled parts (see ``Variant.__reduce__``)."""
    return Variant(where=where, values=MappingProxyType(values))
