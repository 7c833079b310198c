"""The rules record the full-hand and game kernels receive, compiled from a
:class:`~simcore.variants.Variant`: every rule the variant reads from its file
(``Variant.hand_rule_values``), and the one value the kernels' side derives by simulation, the mean
meld of a dealt hand that a heuristic bidder counts on from his partner
(:func:`simcore.kernels.meld_tally.mean_meld_fixed_trump`). Built once per set of rules (its
``content_hash``) and kept.
"""

from __future__ import annotations

from simcore.kernels.meld_tally import mean_meld_fixed_trump
from simcore.variants.record import HandRules, KernelRules

#: The records built so far, by the rules' content hash.
_HAND_RULES: dict[str, HandRules] = {}


def hand_rules(variant) -> HandRules:
    """Every integer rule of a hand, by name, for :func:`simcore.kernels.hand.play_hand` (see
    :class:`simcore.variants.record.HandRules`; choices as their codes, true/false as 1/0)."""
    found = _HAND_RULES.get(variant.content_hash)
    if found is None:
        partner = mean_meld_fixed_trump(
            variant.deck_cards, variant.players, variant.hand_size, variant.meld_table, variant.meld_flags
        )
        found = _HAND_RULES[variant.content_hash] = HandRules(**variant.hand_rule_values, partner_meld=partner)
    return found


def kernel_rules(variant) -> KernelRules:
    """The compiled rules every full-hand and game kernel reads: tables, hand rules and game rules
    (:mod:`simcore.variants.record`)."""
    return KernelRules(variant.tables, hand_rules(variant), variant.game_rules)
