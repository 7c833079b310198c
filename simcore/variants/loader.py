"""Load a rules file (shipped id or user path), apply ``extends`` and ``--set`` overrides, validate.

Errors are :class:`RulesError` with the file, key, value and what is allowed, ready to print as one line.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from simcore.cards import RANKS
from simcore.variants.schema import KEYS, TABLES
from simcore.variants.variant import Variant


class RulesError(ValueError):
    """A rules file, key or value that cannot be used; ``str()`` is a one-line message."""

    def __init__(self, where: str, key: str | None, value: Any, allowed: str):
        self.where, self.key, self.value, self.allowed = where, key, value, allowed
        if key is None:
            super().__init__(f"{where}: {allowed}")
        else:
            shown = str(value).lower() if isinstance(value, bool) else repr(value)  # as written in TOML
            super().__init__(f"{where}: {key} = {shown}: {allowed}")


def shipped_ids() -> list[str]:
    """Ids of the rules files shipped in the package, sorted."""
    folder = resources.files("simcore.variants") / "rules"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _closest(word: str, candidates: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _resolve(name: str, relative_to: Path | None) -> tuple[str, str]:
    """(label for messages, TOML text) of a shipped id or a file path."""
    path = Path(name)
    if relative_to is not None and not path.is_absolute():
        candidate = relative_to.parent / path
        if candidate.exists():
            path = candidate
    if name.endswith(".toml") or path.is_file():
        try:
            return str(path), path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesError(str(path), None, None, f"cannot read the rules file ({exc.strerror})")
    ids = shipped_ids()
    if name not in ids:
        raise RulesError("--variant", "variant", name,
                         "not a shipped rules id nor a .toml file; ids: " + ", ".join(ids)
                         + _closest(name, ids))
    text = (resources.files("simcore.variants") / "rules" / f"{name}.toml").read_text(encoding="utf-8")
    return f"{name}.toml", text


def _flatten(where: str, data: Mapping[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            if key not in TABLES:
                raise RulesError(where, key, "{...}", "not a table of rules; tables: " + ", ".join(TABLES)
                                 + _closest(key, TABLES))
            for sub, subvalue in value.items():
                flat[f"{key}.{sub}"] = subvalue
        else:
            flat[key] = value
    return flat


def _check_key(where: str, key: str, value: Any) -> None:
    spec = KEYS.get(key)
    if spec is None:
        raise RulesError(where, key, value, "no such key" + _closest(key, KEYS))
    kinds = spec.kind if isinstance(spec.kind, tuple) else (spec.kind,)
    # bool is an int in Python; a rules file must not pass true for a number or 1 for a flag
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok or (spec.choices is not None and value not in spec.choices):
        raise RulesError(where, key, value, spec.allowed())
    if isinstance(value, int) and not isinstance(value, bool):
        if (spec.lo is not None and value < spec.lo) or (spec.hi is not None and value > spec.hi):
            raise RulesError(where, key, value, spec.allowed())


def _read(name: str, relative_to: Path | None, seen: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    where, text = _resolve(name, relative_to)
    if where in seen:
        raise RulesError(where, "extends", name, "rules files extend each other in a loop: "
                         + " -> ".join(seen + (where,)))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(where, None, None, f"not valid TOML: {exc}")
    flat = _flatten(where, data)
    for key, value in flat.items():
        _check_key(where, key, value)
    if "extends" in flat:
        base_path = Path(where) if Path(where).exists() else None
        _, base = _read(flat["extends"], base_path, seen + (where,))
        assumptions = list(base.get("assumptions", [])) + list(flat.get("assumptions", []))
        base = {k: v for k, v in base.items() if k not in ("id", "extends")}
        base.update(flat)
        if assumptions:
            base["assumptions"] = assumptions
        flat = base
    return where, flat


def parse_override(text: str) -> tuple[str, Any]:
    """``("meld.double_pinochle", 3000)`` from ``"meld.double_pinochle=3000"``; values are TOML."""
    if "=" not in text:
        raise RulesError("--set", None, None, f"{text!r} is not KEY=VALUE, e.g. meld.double_pinochle=3000")
    key, raw = (part.strip() for part in text.split("=", 1))
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw  # a bare word is a string: widow_kind=kitty
    return key, value


def load_variant(name: str, overrides: Iterable[str] = ()) -> Variant:
    """The validated :class:`Variant` for a shipped id or a rules-file path, with ``--set`` overrides."""
    where, flat = _read(name, None, ())
    for text in overrides:
        key, value = parse_override(text)
        _check_key("--set", key, value)
        flat[key] = value
    if overrides:
        flat["id"] = flat.get("id", Path(where).stem) + "+" + ",".join(overrides)
    return _build(where, flat)


def _require(where: str, flat: Mapping[str, Any], key: str) -> Any:
    if key not in flat:
        raise RulesError(where, key, None, "missing; every rules file sets it (or extends a file that does)")
    return flat[key]


def _build(where: str, flat: dict[str, Any]) -> Variant:
    for key in ("id", "name", "description", "source", "deck.ranks", "deck.copies", "deal.players",
                "deal.hand_size", "play.lead", "play.follow_must_head", "play.head_when_trumped",
                "play.void_must_trump", "play.void_must_overtrump", "tricks.points", "tricks.last_trick"):
        _require(where, flat, key)
    ranks = flat["deck.ranks"]
    if (not ranks or any(r not in RANKS for r in ranks) or len(set(ranks)) != len(ranks)
            or sorted(ranks, key=RANKS.index) != list(ranks)):
        raise RulesError(where, "deck.ranks", ranks,
                         "distinct ranks in trick order, from " + ", ".join(RANKS))
    for i, text in enumerate(flat.get("assumptions", [])):
        if not isinstance(text, str):
            raise RulesError(where, f"assumptions[{i}]", text, "a string")
    points = flat.get("tricks.points")
    if points is not None and (len(points) != 6 or any(
            not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in points)):
        raise RulesError(where, "tricks.points", points,
                         "six integers ≥ 0: points for A, 10, K, Q, J, 9 taken in tricks")
    deck_size = 4 * len(ranks) * flat["deck.copies"]
    widow = flat.get("deal.widow", 0)
    dealt = flat["deal.players"] * flat["deal.hand_size"] + widow
    if dealt != deck_size:
        raise RulesError(where, "deal.hand_size", flat["deal.hand_size"],
                         f"players × hand_size + widow must equal the deck's {deck_size} cards "
                         f"({flat['deal.players']} × {flat['deal.hand_size']} + {widow} = {dealt})")
    if widow and flat.get("deal.widow_kind", "none") == "none":
        raise RulesError(where, "deal.widow_kind", "none", f"say what the {widow} undealt cards are: "
                         "widow, kitty or stock")
    if flat.get("teams.kind") == "partners_across" and flat["deal.players"] % 2:
        raise RulesError(where, "teams.kind", "partners_across",
                         f"partners across the table need an even number of players, not "
                         f"{flat['deal.players']}; use bidder_alone")
    variant = Variant(where=where, values=MappingProxyType(dict(flat)))
    _check_hand_rules(variant)
    return variant


def _check_hand_rules(variant: Variant) -> None:
    """Refuse rules whose duties contradict each other (only for keys the file sets)."""
    where, flat = variant.where, variant.values

    def fail(key: str, why: str) -> None:
        raise RulesError(where, key, flat[key], why)

    pass_cards = flat.get("exchange.pass_cards", 0)
    if pass_cards:
        if flat.get("auction.kind") == "none":
            fail("exchange.pass_cards", "with no auction there is no bidder to pass to; set it to 0")
        if flat.get("teams.kind") == "bidder_alone":
            fail("exchange.pass_cards", "a bidder playing alone has no partner to pass with; set it to 0")
        if flat.get("teams.kind") == "partners_across" and flat["deal.players"] != 4:
            fail("exchange.pass_cards", f"cards pass to the partner across the table, so four players only "
                                        f"(deal.players = {flat['deal.players']}); set it to 0")
        if pass_cards > flat["deal.hand_size"]:
            fail("exchange.pass_cards", f"at most the {flat['deal.hand_size']} cards of a hand")
    if flat.get("exchange.widow_to_bidder") and not flat.get("deal.widow", 0):
        fail("exchange.widow_to_bidder", "the deal leaves no widow to take (deal.widow = 0)")
    if flat.get("exchange.widow_shared"):
        if flat.get("exchange.widow_to_bidder"):
            fail("exchange.widow_shared", "the widow goes to the bidder (exchange.widow_to_bidder) or is "
                                          "shared out, not both")
        if flat.get("auction.kind") == "none":
            fail("exchange.widow_shared", "with no auction there is no bidder to share the widow out")
        if flat.get("deal.widow", 0) != flat["deal.players"]:
            fail("exchange.widow_shared", f"sharing out needs one widow card per player: deal.widow = "
                                          f"{flat['deal.players']}")
    if flat.get("scoring.save_meld") == "points":
        need = flat.get("scoring.save_meld_points", 0)
        if not 0 < need <= variant.trick_total:
            raise RulesError(where, "scoring.save_meld_points", need,
                             f"saving meld by points needs a number from 1 to the {variant.trick_total} "
                             "trick points of a hand")
    values = flat.get("settlement.values")
    if values is not None:
        pairs = all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                and x >= 0 for x in p) for p in values)
        if not values or not pairs or any(a[0] >= b[0] for a, b in zip(values, values[1:])):
            fail("settlement.values", "a list of [lowest bid, chips] pairs of integers ≥ 0, bids rising")
        if flat.get("auction.kind", "none") == "none" or flat.get("teams.kind") != "bidder_alone":
            fail("settlement.values", "chips settle a bidder playing alone: needs an auction and "
                                      "teams.kind = \"bidder_alone\"")
    if flat.get("settlement.people", flat["deal.players"]) < flat["deal.players"]:
        fail("settlement.people", f"at least the {flat['deal.players']} players dealt a hand")
    if flat.get("play.stock_play"):
        if flat.get("deal.widow_kind") != "stock":
            fail("play.stock_play", "play from a stock needs one: set deal.widow_kind = \"stock\"")
        if flat.get("auction.kind", "none") != "none":
            fail("play.stock_play", "the stock's turned card names trump: set auction.kind = \"none\"")
        if flat.get("exchange.draw"):
            fail("play.stock_play", "the stock is drawn after each trick, not before play: set exchange.draw = false")
        if flat.get("deal.widow", 0) % flat["deal.players"] or not flat.get("deal.widow", 0):
            fail("play.stock_play", f"every player draws one card after each trick: deal.widow must be a "
                                    f"multiple of {flat['deal.players']} above 0, not {flat.get('deal.widow', 0)}")
    if flat.get("game.declare_out") and flat.get("teams.kind") != "partners_across" and flat["deal.players"] != 2:
        fail("game.declare_out", f"declaring out settles a game between two score lines: two players or two "
                                 f"partnerships, not {flat['deal.players']} players each for himself")
    step_from = flat.get("auction.step_from", 0)
    if step_from and step_from < flat.get("auction.min_bid", 0):
        fail("auction.step_from", f"the step changes below the minimum bid {flat['auction.min_bid']}; "
                                  "use 0 for one step throughout")
