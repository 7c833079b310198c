"""What a system's page and card are titled with, and the line under the title.

A shipped system is titled with its name. House rules (a rules file of one's own, or shipped rules
changed: an id no shipped file has) that extend a shipped system keep its ``name`` and ``description``
unless they set their own; a page titled "Four-hand partnership pinochle to 150" would then pass the
house off as the system it changes. Such a house is titled with its id, and the line under the title
names the system it extends and the rules it changes.
"""

from __future__ import annotations

from functools import cache

from simcore.variants import Variant, load_variant, rule_differences, shipped_ids

#: The most changed rules the line under a house's title names one by one.
MOST_CHANGES = 4


def is_house(variant: Variant) -> bool:
    """True for rules that are not a shipped system (their id is no shipped file's)."""
    return variant.id not in shipped_ids()


@cache
def _shipped(vid: str) -> Variant:
    return load_variant(vid, files=False)


def _shipped_names() -> set[str]:
    return {_shipped(vid).name for vid in shipped_ids()}


def system_title(variant: Variant) -> str:
    """The rules' own name; for house rules that kept a shipped system's name, their id."""
    if is_house(variant) and variant.name in _shipped_names():
        return variant.id
    return variant.name


def _parent(variant: Variant) -> Variant | None:
    """The shipped system house rules extend directly (None for a shipped system, or a file extended)."""
    parent = variant.values.get("extends")
    return _shipped(parent) if is_house(variant) and parent in shipped_ids() else None


def description_line(variant: Variant) -> str:
    """The line under the title: the rules' description; for house rules on a shipped system, which
    system and which rules they change ("house rules on four-hand-150, changing meld.double_pinochle to
    40"), and the parent's description said to be the parent's where the house kept it."""
    parent = _parent(variant)
    if parent is None:
        return variant.description
    changed = rule_differences(parent, variant)
    named = [f"{k} to {_shown(variant.get(k))}" for k in changed[:MOST_CHANGES]]
    if len(changed) > MOST_CHANGES:
        named.append(f"{len(changed) - MOST_CHANGES} more rules")
    changes = f", changing {', '.join(named)}" if named else ", changing no rule"
    if variant.description == parent.description:
        return f"House rules on {parent.id}{changes}; {parent.id}: {parent.description}"
    return f"House rules on {parent.id}{changes}: {variant.description}"


def _shown(value) -> str:
    """A rule's value as its rules file would write it, short."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."
