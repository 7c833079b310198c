"""The validated, immutable rule system and the typed rules record compiled from it for the kernels."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

import numpy as np

from simcore.cards import N_RANKS, N_SUITS, N_TYPES, RANKS
from simcore.variants.layout import (
    MAX_MULT,
    ROUNDHOUSE,
    ROYAL,
    RUN_EXTRA_MARRIAGE,
)
from simcore.variants.margin import MarginOrigin
from simcore.variants.record import CHECK_GAME_KEYS, HAND_RULE_KEYS, GameRules, Tables
from simcore.variants.schema import CHECK_MELDS, KEYS, MULTIPLE_MELDS, MULTIPLICITY_PREFIXES, code


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
    #: Where ``policy.margin`` was set and whether it fits (set by the loader; None when built otherwise).
    margin_origin: MarginOrigin | None = field(default=None, compare=False, repr=False)

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

    @cached_property
    def trick_points(self) -> np.ndarray:
        """int64[24]: points for taking each card type in a trick (by rank, from ``tricks.points``)."""
        pts = np.zeros(N_TYPES, dtype=np.int64)
        for s in range(N_SUITS):
            pts[s * N_RANKS : (s + 1) * N_RANKS] = self.values["tricks.points"]
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
    def hand_rule_values(self) -> dict[str, int]:
        """Every field of :class:`simcore.variants.record.HandRules` but ``partner_meld`` (a value the
        kernels' side simulates: :func:`simcore.kernels.compiled.hand_rules` builds the record), by
        name: choices as their codes, true/false as 1/0."""
        v = self.values
        compiled = {
            field: v[key] if KEYS[key].choices is None else code(key, v[key]) for field, key in HAND_RULE_KEYS.items()
        }
        return {
            **{field: int(value) for field, value in compiled.items()},
            "trick_total": int(self.trick_total),
            "forced_bid": int(self.forced_bid),
            "checks": int(self.has_checks),
            "exempt_partner": int(self.exempt_partner),
        }

    @property
    def exempt_partner(self) -> bool:
        """A seat need not beat his partner's winning card: ``play.beat_partner`` is off and the seats
        play in sides (a bidder alone has no partner to spare). The hand kernel and the solver read it
        from :func:`simcore.kernels.compiled.hand_rules`."""
        return not self.values["play.beat_partner"] and self.values["teams.kind"] != "bidder_alone"

    @cached_property
    def tables(self) -> Tables:
        """The arrays the kernels read (see :class:`simcore.variants.record.Tables`), read-only copies."""
        return Tables(
            *(
                _frozen(a)
                for a in (
                    self.deck_cards,
                    self.deck_copies,
                    self.meld_table,
                    self.meld_flags,
                    self.trick_points,
                    self.check_melds,
                    self.check_contracts,
                )
            )
        )

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
    def game_rules(self) -> GameRules:
        """How a game ends, for :func:`simcore.kernels.game.play_game` (see
        :class:`simcore.variants.record.GameRules`); all zero when the file has no ``[game]`` table."""
        v = self.values
        return GameRules(
            target=int(v["game.target"] or 0),
            bidder_wins_ties=int(v["game.bidder_wins_ties"]),
            play_on=int(v["game.play_on"]),
            losing_limit=int(v["game.losing_limit"]),
            declare_out=int(v["game.declare_out"]),
            **{field: int(v[key]) for field, key in CHECK_GAME_KEYS.items()},
        )

    @property
    def has_checks(self) -> bool:
        """True when the rules pay checks beside the points (``[checks]``, check pinochle)."""
        return self.values["checks.contract"] is not None

    @cached_property
    def check_melds(self) -> np.ndarray:
        """int64[10, MAX_MULT + 1]: checks for melding, by meld row (as :meth:`meld_table`) and multiplicity;
        a multiplicity not listed earns the best split into listed ones, as meld points do."""
        table = np.zeros((10, MAX_MULT + 1), dtype=np.int64)
        for base in CHECK_MELDS:
            listed = {
                i + 1: self.values[f"checks.{p}{base}"]
                for i, p in enumerate(MULTIPLICITY_PREFIXES)
                if self.values[f"checks.{p}{base}"] is not None
            }
            table[ROUNDHOUSE if base == "roundhouse" else MULTIPLE_MELDS.index(base)] = multiple_values(
                listed, MAX_MULT
            )
        return table

    @cached_property
    def check_contracts(self) -> np.ndarray:
        """int64[k, 2]: [lowest bid, checks] for making a contract, bids rising; no rows without checks."""
        return np.array(self.values["checks.contract"] or [], dtype=np.int64).reshape(-1, 2)

    def meld_value(self, base: str, multiplicity: int) -> int:
        """Points for holding meld ``base`` (e.g. ``pinochle``) ``multiplicity`` times."""
        return int(self.meld_table[MULTIPLE_MELDS.index(base), multiplicity])

    @cached_property
    def meld_table(self) -> np.ndarray:
        """int64[10, MAX_MULT + 1]: points by meld row (RUN ... RUN_EXTRA_MARRIAGE) and multiplicity."""
        return self._meld_arrays[0]

    @cached_property
    def meld_flags(self) -> np.ndarray:
        """int64[6]: dix points per nine, extra-king and extra-queen points, run-or-royal (0/1), the run
        scores its royal marriage (0/1), an extra marriage scores once per run (0/1)."""
        return self._meld_arrays[1]

    @cached_property
    def _meld_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        table = np.zeros((10, MAX_MULT + 1), dtype=np.int64)
        for row, base in enumerate(MULTIPLE_MELDS):
            listed = {
                i + 1: self.values[f"meld.{p}{base}"]
                for i, p in enumerate(MULTIPLICITY_PREFIXES)
                if self.values[f"meld.{p}{base}"] is not None
            }
            table[row] = multiple_values(listed, MAX_MULT)
        if self.values["meld.run_extra_marriage"] is not None:
            table[RUN_EXTRA_MARRIAGE] = np.arange(MAX_MULT + 1) * self.values["meld.run_extra_marriage"]
        else:
            table[RUN_EXTRA_MARRIAGE] = table[ROYAL]
        flags = np.array(
            [
                self.values["meld.dix"],
                self.values["meld.run_extra_king"],
                self.values["meld.run_extra_queen"],
                int(self.values["meld.run_or_royal"]),
                int(self.values["meld.run_scores_royal"]),
                int(self.values["meld.run_extra_marriage_per_run"]),
            ],
            dtype=np.int64,
        )
        table.setflags(write=False)
        flags.setflags(write=False)
        return table, flags


#: Keys that describe a rule system without changing how a hand or a game is played: its names, where
#: its rules come from, its notes, the file it extends and its (informative) points scale.
DESCRIPTIVE_KEYS = frozenset({"id", "name", "description", "source", "assumptions", "extends", "scale"})


def rule_differences(a: Variant, b: Variant) -> list[str]:
    """The keys whose values differ between ``a`` and ``b``, in the schema's order, leaving out those that
    only describe a system (:data:`DESCRIPTIVE_KEYS`): empty when the two play the same game."""
    return [k for k in KEYS if k not in DESCRIPTIVE_KEYS and a.values.get(k) != b.values.get(k)]


def scale_text(variant: Variant) -> str:
    """How the system counts, in one phrase: its unit (``scale``), the trick points of a hand, its bids
    and its game, e.g. ``four-hand-150 counts in single points: 25 trick points a hand, bids from 20
    by 1, a game to 150`` (the parts the rules do not have are left out)."""
    unit = {1: "single points", 10: "tens"}.get(variant.get("scale"))
    parts = [f"{variant.trick_total:,} trick points a hand"]
    if variant.get("auction.kind") != "none":
        step_from = variant.get("auction.step_from")
        parts.append(
            f"bids from {variant.lowest_contract:,} by {variant.get('auction.step'):,}"
            + (f", by {variant.get('auction.step_after'):,} past {step_from:,}" if step_from else "")
        )
    if variant.get("game.target"):
        parts.append(f"a game to {variant.get('game.target'):,}")
    return f"{variant.id}{f' counts in {unit}' if unit else ''}: {', '.join(parts)}"


def _frozen(a: np.ndarray) -> np.ndarray:
    """A read-only copy of ``a``."""
    out = np.array(a)
    out.setflags(write=False)
    return out


def _variant_from(where: str, values: dict[str, Any]) -> Variant:
    """A :class:`Variant` rebuilt from its pickled parts (see ``Variant.__reduce__``)."""
    return Variant(where=where, values=MappingProxyType(values))
