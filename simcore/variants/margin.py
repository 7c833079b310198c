"""Where a rule system's bidding margin (``policy.margin``) comes from, and whether it still fits.

The margin is tuned (``pinochle tune``) for one system's rules. A rules file that ``extends`` a system
inherits its margin; when the file changes what the margin depends on (the auction, who leads, how the
play or the scoring goes, the pass or widow, who partners whom) the inherited margin was tuned for other
rules and the simulated players may bid badly: :attr:`MarginOrigin.warning` says so in one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simcore.variants.schema import KEYS

#: Key prefixes the tuned margin depends on: bidding, play, scoring, the exchange and the partnerships.
MARGIN_DEPENDS_ON = ("auction.", "play.", "tricks.", "scoring.", "exchange.", "teams.")
KEY = "policy.margin"


@dataclass(frozen=True)
class Level:
    """One file of an ``extends`` chain: its name (a shipped id, else its path), the keys it sets
    itself, and its keys merged with everything it extends."""

    name: str
    own: frozenset[str]
    merged: Mapping[str, Any]


@dataclass(frozen=True)
class MarginOrigin:
    """The margin in force and where it was set.

    ``set_by`` names the rules file that set ``policy.margin`` (a shipped id or a path; ``"--set"`` for
    an override, ``"--tune-margin"`` for a margin tuned just now, None for the schema's default);
    ``file`` names the file asked for; ``changed`` the keys the margin depends on whose values differ
    from those of the rules it was set for (set by the files above ``set_by`` or by ``--set``);
    ``bidding`` whether the rules have an auction at all.
    """

    margin: float
    set_by: str | None
    file: str
    changed: tuple[str, ...]
    bidding: bool
    note: str = ""  # how a margin tuned now (``set_by == "--tune-margin"``) was found
    by_set: tuple[str, ...] = ()  # the keys of ``changed`` that --set changed (not a file)

    @property
    def inherited(self) -> bool:
        """True when the margin was set by a file the asked-for one extends."""
        return self.set_by is not None and self.set_by not in (self.file, "--set", "--tune-margin")

    def describe(self) -> str:
        """Which margin is used and where it comes from, as a command prints it, e.g. ``margin -0.1,
        inherited from partnership-auction (tuned for its rules, not for auction.min_bid)``."""
        if self.set_by == "--tune-margin":
            return f"margin {self.margin:g}, tuned now for these rules ({self.note})"
        if self.set_by == "--set":
            return f"margin {self.margin:g}, set by --set"
        if self.set_by is None:
            return f"margin {self.margin:g}, the default (never tuned for these rules)"
        if self.inherited:
            text = f"margin {self.margin:g}, inherited from {self.set_by}"
            return text + (f" (tuned for its rules, not for {', '.join(self.changed)})" if self.changed else "")
        if self.changed:
            return f"margin {self.margin:g}, tuned for {self.set_by} before --set {', '.join(self.changed)}"
        return f"margin {self.margin:g}, {'set in' if self.set_by.endswith('.toml') else 'tuned for'} {self.set_by}"

    @property
    def fits(self) -> bool:
        """True when the margin was chosen for exactly these rules (tuned for them, inherited by rules
        that change nothing it depends on, set by --set, or tuned now), or when nobody bids."""
        return not self.bidding or (self.set_by is not None and not self.changed)

    @property
    def warning(self) -> str | None:
        """One line when a file keeps an inherited margin but changes bidding, play or scoring rules
        itself (``--set`` changes are named by :meth:`describe`, not warned about), else None."""
        by_file = [k for k in self.changed if k not in self.by_set]
        if not (self.bidding and self.inherited and by_file):
            return None
        shown = ", ".join(by_file[:6]) + (f" and {len(by_file) - 6} more" if len(by_file) > 6 else "")
        return (
            f"pinochle: warning: {self.file} changes {shown} but keeps the bidding margin "
            f"{self.margin:g} tuned for {self.set_by}; the simulated players may bid badly: "
            f"--tune-margin tunes one for these rules, or set [policy] margin in the file "
            f"(pinochle tune --variant {self.file})"
        )


def margin_origin(values: Mapping[str, Any], levels: Sequence[Level], overridden: Sequence[str]) -> MarginOrigin:
    """The :class:`MarginOrigin` of loaded rules: ``values`` every key in force, ``levels`` the files of
    the ``extends`` chain (the asked-for file first), ``overridden`` the keys given by ``--set``."""
    bidding = values.get("auction.kind") in ("open", "single_round")
    margin = float(values[KEY])
    if KEY in overridden:
        return MarginOrigin(margin, "--set", levels[0].name, (), bidding)
    setter = next((i for i, level in enumerate(levels) if KEY in level.own), None)
    if setter is None:
        return MarginOrigin(margin, None, levels[0].name, (), bidding)
    tuned_for = levels[setter].merged
    above = _set_above(levels, setter, overridden)
    changed = tuple(
        sorted(
            k
            for k in above
            if k.startswith(MARGIN_DEPENDS_ON) and k in values and values[k] != tuned_for.get(k, KEYS[k].default)
        )
    )
    by_set = tuple(k for k in changed if k in overridden)
    return MarginOrigin(margin, levels[setter].name, levels[0].name, changed, bidding, by_set=by_set)


def _set_above(levels: Sequence[Level], setter: int, overridden: Sequence[str]) -> set[str]:
    """Keys set by the files that extend the margin's file (directly or not), or by ``--set``."""
    keys = set(overridden)
    for level in levels[:setter]:
        keys |= level.own
    return keys


def margins_compared(a: MarginOrigin, b: MarginOrigin) -> str:
    """One line for a comparison: whether A and B bid with the same margin or each with its own, where
    each comes from, and the option that tunes each for its own rules when one was not."""
    head = (
        f"bid with the same margin, {a.margin:g}"
        if a.margin == b.margin
        else f"each bid with its own margin, {a.margin:g} and {b.margin:g}"
    )
    text = f"bidding: A and B {head} (A: {a.describe()}; B: {b.describe()})"
    return text + ("" if a.fits and b.fits else "; --tune-margin tunes each for its own rules")
