"""Rules as data: shipped rules files (``rules/*.toml``), their schema, and the loader."""

from simcore.variants.loader import (
    NotForThisSystem,
    RulesError,
    load_variant,
    load_variant_text,
    parse_override,
    require_auction,
    require_full_hands,
    shipped_ids,
)
from simcore.variants.variant import DESCRIPTIVE_KEYS, Variant, rule_differences, scale_text

__all__ = [
    "DESCRIPTIVE_KEYS",
    "NotForThisSystem",
    "RulesError",
    "Variant",
    "load_variant",
    "load_variant_text",
    "parse_override",
    "require_auction",
    "require_full_hands",
    "rule_differences",
    "scale_text",
    "shipped_ids",
]
