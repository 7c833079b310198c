"""Rules as data: shipped rules files (``rules/*.toml``), their schema, and the loader."""

from simcore.variants.loader import RulesError, load_variant, load_variant_text, parse_override, shipped_ids
from simcore.variants.variant import Variant

__all__ = ["RulesError", "Variant", "load_variant", "load_variant_text", "parse_override", "shipped_ids"]
