"""Load a rules file (shipped id or user path), apply ``extends`` and ``--set`` overrides, validate.

Errors are :class:`RulesError` with the file, key, value and what is allowed, ready to print as one line;
a question a valid system has no answer to is :class:`NotForThisSystem`.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from simcore.cards import RANKS
from simcore.variants.margin import Level, margin_origin
from simcore.variants.schema import ALWAYS, BIDDING, KEYS, MAX_POINTS, PLAYING, TABLES
from simcore.variants.variant import DESCRIPTIVE_KEYS, Variant


class RulesError(ValueError):
    """A rules file, key or value that cannot be used; ``str()`` is a one-line message."""

    def __init__(self, where: str, key: str | None, value: Any, allowed: str):
        self.where, self.key, self.value, self.allowed = where, key, value, allowed
        at = f"{where}: " if where else ""  # no where: the key names the input itself
        if key is None:
            super().__init__(f"{at}{allowed}")
        else:
            shown_key = key if len(key) <= 60 else key[:57] + "..."  # a pasted file's key may be any length
            super().__init__(f"{at}{shown_key} = {_shown(value)}: {allowed}")


def _shown(value: Any) -> str:
    """``value`` as written in TOML, cut short when long or deeply nested: a message is one line."""
    if isinstance(value, bool):
        return str(value).lower()
    try:
        text = repr(value)
    except RecursionError:
        return "[[[...]]] (nested too deeply)"
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


class NotForThisSystem(ValueError):
    """A question the rules of this system do not let us answer (such as full hands of a system without
    an auction); ``str()`` is one line naming the rules file, the system and what it lacks."""


def require_full_hands(variant: Variant) -> Variant:
    """``variant``, refused with :class:`NotForThisSystem` when it plays no full hands: without
    ``[auction]`` rules nothing says who bids, so the hand kernel has nothing to play."""
    if variant.get("auction.kind") is None:
        with_them = ", ".join(i for i in shipped_ids() if load_variant(i).get("auction.kind"))
        raise NotForThisSystem(
            f"{variant.where}: full hands are not yet simulated for {variant.id} (it has no "
            f"[auction] rules); systems with them: {with_them}"
        )
    return variant


def require_auction(variant: Variant, so: str) -> Variant:
    """``variant``, refused with :class:`NotForThisSystem` unless someone bids in it (it plays full hands
    and its ``auction.kind`` is not ``"none"``, where trump is turned up). ``so`` completes the refusal
    with what the question then lacks, e.g. ``"no bids to tabulate"``."""
    require_full_hands(variant)
    if variant.get("auction.kind") == "none":
        raise NotForThisSystem(f"{variant.id} has no auction, so {so}")
    return variant


def shipped_ids() -> list[str]:
    """Ids of the rules files shipped in the package, sorted."""
    folder = resources.files("simcore.variants") / "rules"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _closest(word: str, candidates: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _resolve(
    name: str, relative_to: Path | None, asked_by: tuple[str, str], files: bool = True
) -> tuple[str, str, str]:
    """(label for messages, identity, TOML text) of a shipped id or a file path. The identity is the
    resolved path (or ``id:NAME``), so one file named two ways is still one file. ``asked_by`` is the
    (where, key) that named it, for the message when it does not exist. ``files=False``: shipped ids
    only, the file system is never looked at (a name from a web page)."""
    path = Path(name)
    if not files:
        return _shipped(name, asked_by, "not a shipped rules id (here only shipped ids are read, never a file)")
    if relative_to is not None and not path.is_absolute():
        candidate = relative_to.parent / path
        if candidate.exists():
            path = candidate
    if name.endswith(".toml") or path.is_file():
        try:
            identity = str(path.resolve())
            data = path.read_bytes()
        except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop while resolving
            why = getattr(exc, "strerror", None) or str(exc)
            raise RulesError(str(path), None, None, f"cannot read the rules file ({why})")
        try:
            return str(path), identity, data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RulesError(str(path), None, None, f"not UTF-8 text (byte {exc.start}); save the rules file as UTF-8")
    return _shipped(name, asked_by, "not a shipped rules id nor a .toml file")


def _shipped(name: str, asked_by: tuple[str, str], refusal: str) -> tuple[str, str, str]:
    """:func:`_resolve` for a shipped id; ``refusal`` starts the message for any other name."""
    ids = shipped_ids()
    if name not in ids:
        where, key = asked_by
        raise RulesError(where, key, name, f"{refusal}; ids: " + ", ".join(ids) + _closest(name, ids))
    text = (resources.files("simcore.variants") / "rules" / f"{name}.toml").read_text(encoding="utf-8")
    return f"{name}.toml", f"id:{name}", text


def _flatten(where: str, data: Mapping[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            if key not in TABLES:
                raise RulesError(
                    where, key, "{...}", "not a table of rules; tables: " + ", ".join(TABLES) + _closest(key, TABLES)
                )
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
    if float in kinds:
        kinds += (int,)  # TOML writes 0 for 0.0
    # bool is an int in Python; a rules file must not pass true for a number or 1 for a flag
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if isinstance(value, float) and not math.isfinite(value):
        ok = False
    if not ok or (spec.choices is not None and value not in spec.choices):
        raise RulesError(where, key, value, spec.allowed())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if (spec.lo is not None and value < spec.lo) or (spec.hi is not None and value > spec.hi):
            raise RulesError(where, key, value, spec.allowed())


def _read(
    name: str,
    relative_to: Path | None,
    seen: tuple[tuple[str, str], ...],
    asked_by: tuple[str, str] = ("--variant", "variant"),
    files: bool = True,
) -> tuple[str, dict[str, Any], list[Level]]:
    """(label, flat keys, levels) of one rules file with everything it extends merged under it; ``seen``
    holds the (label, identity) of the files that extend it, to catch a loop however each names the
    next. The levels are this file and each it extends, this one first."""
    where, identity, text = _resolve(name, relative_to, asked_by, files)
    return _parsed(where, identity, text, seen, files, name)


def _parsed(
    where: str, identity: str, text: str, seen: tuple[tuple[str, str], ...], files: bool, name: str | None = None
) -> tuple[str, dict[str, Any], list[Level]]:
    """:func:`_read` of the rules ``text``, labelled ``where`` (``name``: as what extends it names it)."""
    if identity in (i for _, i in seen):
        raise RulesError(
            where,
            "extends",
            name,
            "rules files extend each other in a loop: " + " -> ".join([w for w, _ in seen] + [where]),
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(where, None, None, f"not valid TOML: {exc}")
    except RecursionError:
        raise RulesError(where, None, None, "not usable TOML: values nested too deeply")
    flat = _flatten(where, data)
    for key, value in flat.items():
        _check_key(where, key, value)
    own = frozenset(flat)
    levels: list[Level] = []
    if "extends" in flat:
        base_path = Path(where) if files and Path(where).exists() else None
        _, base, levels = _read(flat["extends"], base_path, seen + ((where, identity),), (where, "extends"), files)
        assumptions = list(base.get("assumptions", [])) + list(flat.get("assumptions", []))
        parent = base.get("id")
        base = {k: v for k, v in base.items() if k not in ("id", "extends")}
        base.update(flat)
        if "id" not in flat and isinstance(parent, str):
            base["id"] = extended_id(parent, flat)
        if assumptions:
            base["assumptions"] = assumptions
        flat = base
    name = identity[len("id:") :] if identity.startswith("id:") else where  # a shipped id, else the path
    return where, flat, [Level(name, own, MappingProxyType(dict(flat))), *levels]


#: Characters of the changes an ``extends`` file without an id lists in the id it takes.
MAX_ID_CHANGES = 80


def extended_id(parent: str, own: Mapping[str, Any]) -> str:
    """The id of a rules file that extends ``parent`` and sets no id of its own: the parent's id and the
    rules it changes (``own``: its keys, flat), as ``--set`` overrides name theirs, e.g.
    ``four-hand-150+meld.double_pinochle=50``; the parent's id alone when it changes no rule (names and
    notes do not count); past :data:`MAX_ID_CHANGES` characters, the count of keys and a short hash."""
    changes = [f"{k}={_shown(v)}" for k, v in own.items() if k not in DESCRIPTIVE_KEYS]
    if not changes:
        return parent
    text = ",".join(changes)
    if len(text) > MAX_ID_CHANGES:
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        text = f"{len(changes)}-keys-{digest}"
    return f"{parent}+{text}"


#: How the command line names the rules and the overrides in messages; the API names them its own way.
CLI_NAMES = ("--variant", "--set")


def parse_override(text: str, names: tuple[str, str] = CLI_NAMES) -> tuple[str, Any]:
    """``("meld.double_pinochle", 3000)`` from ``"meld.double_pinochle=3000"``; values are TOML.
    ``names``: what messages call the rules and the overrides (the command line's options by default)."""
    rules, where = names
    if "=" not in text:
        raise RulesError(where, None, None, f"{text!r} is not KEY=VALUE, e.g. meld.double_pinochle=3000")
    if "\n" in text or "\r" in text:  # TOML would read the first line's value and drop the rest unsaid
        each = f"per {where} (repeat {where} for each key)" if where.startswith("--") else f"in each item of {where}"
        raise RulesError(where, None, None, f"{text!r} spans lines; give one KEY=VALUE {each}")
    key, raw = (part.strip() for part in text.split("=", 1))
    if key in ("id", "extends"):
        raise RulesError(
            where,
            key,
            raw,
            f"names the rules, it is not a rule: give {rules or 'variant'} the id or file, or write a rules file that "
            "extends it",
        )
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw  # a bare word is a string: widow_kind=kitty
    except RecursionError:
        raise RulesError(where, key, raw, "values nested too deeply")
    return key, value


def load_variant(
    name: str, overrides: Iterable[str] = (), files: bool = True, names: tuple[str, str] = CLI_NAMES
) -> Variant:
    """The validated :class:`Variant` for a shipped id or a rules-file path, with ``--set`` overrides.
    ``files=False``: a shipped id only, whatever files exist (a name from a web page). ``names``: what
    messages call the rules and the overrides (the command line's ``--variant`` and ``--set`` by default;
    "" for the rules: the message starts ``variant = 'x'``)."""
    return _loaded(*_read(name, None, (), (names[0], "variant"), files), overrides, names)


def load_variant_text(text: str, where: str = "rules text", overrides: Iterable[str] = ()) -> Variant:
    """The validated :class:`Variant` for rules given as TOML text (pasted or uploaded in a web page),
    labelled ``where`` in messages, with ``--set`` overrides. It may extend a shipped id but never
    names a file: nothing in it reaches the file system."""
    return _loaded(*_parsed(where, f"text:{where}", text, (), files=False), overrides, CLI_NAMES)


def _loaded(
    where: str, flat: dict[str, Any], levels: list[Level], overrides: Iterable[str], names: tuple[str, str]
) -> Variant:
    """The Variant of read rules with the ``--set`` overrides applied (its id naming them)."""
    overrides = list(overrides)
    overridden = []
    for text in overrides:
        key, value = parse_override(text, names)
        _check_key(names[1], key, value)
        flat[key] = value
        overridden.append(key)
    if overrides:
        flat["id"] = flat.get("id", Path(where).stem) + "+" + ",".join(overrides)
    variant = _build(where, flat)
    return replace(variant, margin_origin=margin_origin(variant.values, levels, overridden))


def _complete(where: str, flat: dict[str, Any]) -> dict[str, Any]:
    """Every schema key: those the files set, the defaults for the rest. Refuses a missing key that the
    file must set itself (``Key.need``)."""
    bidding = flat.get("auction.kind") in ("open", "single_round")
    why = {
        ALWAYS: "every rules file sets it (or extends a file that does)",
        PLAYING: "a rules file that plays hands (sets auction.kind) sets it",
        BIDDING: f"a rules file with an auction (auction.kind = {flat.get('auction.kind')!r}) sets it",
    }
    out = {}
    for key, spec in KEYS.items():
        if key in flat:
            out[key] = float(flat[key]) if spec.kind is float else flat[key]
            continue
        if (
            spec.need == ALWAYS
            or (spec.need == PLAYING and flat.get("auction.kind") is not None)
            or (spec.need == BIDDING and bidding)
        ):
            if key == "id":
                raise RulesError(
                    where,
                    key,
                    None,
                    "missing; a rules file sets it, or extends another and takes its id (docs/rule-systems.md)",
                )
            raise RulesError(where, key, None, "missing; " + why[spec.need])
        out[key] = list(spec.default) if isinstance(spec.default, list) else spec.default
    return out


def _build(where: str, flat: dict[str, Any]) -> Variant:
    flat = _complete(where, flat)
    if flat["settlement.people"] is None:
        flat["settlement.people"] = flat["deal.players"]
    ranks = flat["deck.ranks"]
    if (
        not ranks
        or any(r not in RANKS for r in ranks)
        or len(set(ranks)) != len(ranks)
        or sorted(ranks, key=RANKS.index) != list(ranks)
    ):
        raise RulesError(where, "deck.ranks", ranks, "distinct ranks in trick order, from " + ", ".join(RANKS))
    for i, text in enumerate(flat["assumptions"]):
        if not isinstance(text, str):
            raise RulesError(where, f"assumptions[{i}]", text, "a string")
    points = flat["tricks.points"]
    if len(points) != 6 or any(
        not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= MAX_POINTS for x in points
    ):
        raise RulesError(
            where,
            "tricks.points",
            points,
            f"six integers from 0 to {MAX_POINTS:,}: points for A, 10, K, Q, J, 9 taken in tricks",
        )
    deck_size = 4 * len(ranks) * flat["deck.copies"]
    widow = flat["deal.widow"]
    dealt = flat["deal.players"] * flat["deal.hand_size"] + widow
    if dealt != deck_size:
        raise RulesError(
            where,
            "deal.hand_size",
            flat["deal.hand_size"],
            f"players × hand_size + widow must equal the deck's {deck_size} cards "
            f"({flat['deal.players']} × {flat['deal.hand_size']} + {widow} = {dealt})",
        )
    if widow and flat["deal.widow_kind"] == "none":
        raise RulesError(
            where, "deal.widow_kind", "none", f"say what the {widow} undealt cards are: widow, kitty or stock"
        )
    if flat["teams.kind"] == "partners_across" and flat["deal.players"] % 2:
        raise RulesError(
            where,
            "teams.kind",
            "partners_across",
            f"partners across the table need an even number of players, not {flat['deal.players']}; use bidder_alone",
        )
    variant = Variant(where=where, values=MappingProxyType(dict(flat)))
    _check_hand_rules(variant)
    return variant


def _check_hand_rules(variant: Variant) -> None:
    """Refuse rules whose keys contradict each other."""
    where, flat = variant.where, variant.values

    def fail(key: str, why: str) -> None:
        raise RulesError(where, key, flat[key], why)

    for check in (_exchange_contradictions, _scoring_contradictions, _play_contradictions):
        check(variant, flat, fail)


def _exchange_contradictions(variant: Variant, flat: dict, fail: Callable[[str, str], None]) -> None:
    """Contradictions among the keys of the cards passed, the widow taken or shared out and the opening
    bid's cap (``fail(key, why)`` refuses)."""
    pass_cards = flat["exchange.pass_cards"]
    if pass_cards:
        if flat["auction.kind"] == "none":
            fail("exchange.pass_cards", "with no auction there is no bidder to pass to; set it to 0")
        if flat["teams.kind"] == "bidder_alone":
            fail("exchange.pass_cards", "a bidder playing alone has no partner to pass with; set it to 0")
        if flat["teams.kind"] == "partners_across" and flat["deal.players"] != 4:
            fail(
                "exchange.pass_cards",
                f"cards pass to the partner across the table, so four players only "
                f"(deal.players = {flat['deal.players']}); set it to 0",
            )
        if pass_cards > flat["deal.hand_size"]:
            fail("exchange.pass_cards", f"at most the {flat['deal.hand_size']} cards of a hand")
    if flat["exchange.widow_to_bidder"] and not flat["deal.widow"]:
        fail("exchange.widow_to_bidder", "the deal leaves no widow to take (deal.widow = 0)")
    if flat["exchange.trump_after_widow"] and not flat["exchange.widow_to_bidder"]:
        fail(
            "exchange.trump_after_widow",
            "only a bidder who takes the widow can take it before naming trump (exchange.widow_to_bidder = true)",
        )
    cap = flat["auction.max_opening"]
    if cap and cap < (flat["auction.min_bid"] or 0):
        fail(
            "auction.max_opening",
            f"the cap on the opening bid must be 0 (none) or at least the minimum bid ({flat['auction.min_bid']})",
        )
    if flat["exchange.widow_shared"]:
        if flat["exchange.widow_to_bidder"]:
            fail(
                "exchange.widow_shared",
                "the widow goes to the bidder (exchange.widow_to_bidder) or is shared out, not both",
            )
        if flat["auction.kind"] == "none":
            fail("exchange.widow_shared", "with no auction there is no bidder to share the widow out")
        if flat["deal.widow"] != flat["deal.players"]:
            fail(
                "exchange.widow_shared",
                f"sharing out needs one widow card per player: deal.widow = {flat['deal.players']}",
            )


def _scoring_contradictions(variant: Variant, flat: dict, fail: Callable[[str, str], None]) -> None:
    """Contradictions among the keys of saving meld, checks and chips, the forfeits and concessions
    (``fail(key, why)`` refuses)."""
    if flat["scoring.save_meld"] == "points":
        need = flat["scoring.save_meld_points"]
        if not 0 < need <= variant.trick_total:
            raise RulesError(
                variant.where,
                "scoring.save_meld_points",
                need,
                f"saving meld by points needs a number from 1 to the {variant.trick_total} trick points of a hand",
            )
    for key, what in (("settlement.values", "chips"), ("checks.contract", "checks")):
        values = flat[key]
        if values is None:
            continue
        pairs = all(
            isinstance(p, list)
            and len(p) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_POINTS for x in p)
            for p in values
        )
        if not values or not pairs or any(a[0] >= b[0] for a, b in zip(values, values[1:])):
            fail(key, f"a list of [lowest bid, {what}] pairs of integers from 0 to {MAX_POINTS:,}, bids rising")
    if flat["checks.contract"] is not None and (
        flat["teams.kind"] != "partners_across" or flat["game.target"] is None or flat["auction.kind"] in (None, "none")
    ):
        fail(
            "checks.contract",
            "checks are paid between two partnerships over a game: needs an auction, "
            'teams.kind = "partners_across" and game.target',
        )
    if flat["settlement.values"] is not None:
        if flat["auction.kind"] in (None, "none") or flat["teams.kind"] != "bidder_alone":
            fail(
                "settlement.values",
                'chips settle a bidder playing alone: needs an auction and teams.kind = "bidder_alone"',
            )
    if flat["settlement.people"] < flat["deal.players"]:
        fail("settlement.people", f"at least the {flat['deal.players']} players dealt a hand")
    if flat["scoring.forfeit_unseen"] and not (
        flat["auction.opening_forced"] and flat["exchange.widow_to_bidder"] and flat["teams.kind"] == "bidder_alone"
    ):
        fail(
            "scoring.forfeit_unseen",
            "the unseen forfeit is of a compulsory opening by a bidder alone who would "
            "take the widow: needs auction.opening_forced, exchange.widow_to_bidder "
            'and teams.kind = "bidder_alone"',
        )
    if flat["scoring.opponents_concede"] and flat["auction.kind"] in (None, "none"):
        fail("scoring.opponents_concede", "with no auction there is no contract to concede")


def _play_contradictions(variant: Variant, flat: dict, fail: Callable[[str, str], None]) -> None:
    """Contradictions among the keys of the called card's pass, the dix, play from a stock, declaring
    out, the auction's steps and runs (``fail(key, why)`` refuses)."""
    if flat["exchange.pass_called_card"] and not (
        flat["teams.kind"] == "called_card" and flat["teams.call"] == "named" and flat["exchange.pass_cards"] == 1
    ):
        fail(
            "exchange.pass_called_card",
            "the partner passes the one card the bidder named: needs teams.kind = "
            '"called_card", teams.call = "named" and exchange.pass_cards = 1',
        )
    if flat["exchange.dix_for_turned"] and (flat["auction.kind"] != "none" or flat["play.stock_play"]):
        fail(
            "exchange.dix_for_turned",
            "the dix is exchanged for a card turned from the dealer's hand: needs "
            'auction.kind = "none" and no play from a stock (play.stock_play '
            "has its own exchange)",
        )
    if flat["play.stock_play"]:
        if flat["deal.widow_kind"] != "stock":
            fail("play.stock_play", 'play from a stock needs one: set deal.widow_kind = "stock"')
        if flat["auction.kind"] not in (None, "none"):
            fail("play.stock_play", 'the stock\'s turned card names trump: set auction.kind = "none"')
        if flat["exchange.draw"]:
            fail("play.stock_play", "the stock is drawn after each trick, not before play: set exchange.draw = false")
        if flat["deal.widow"] % flat["deal.players"] or not flat["deal.widow"]:
            fail(
                "play.stock_play",
                f"every player draws one card after each trick: deal.widow must be a "
                f"multiple of {flat['deal.players']} above 0, not {flat['deal.widow']}",
            )
    if flat["game.declare_out"] and flat["teams.kind"] != "partners_across" and flat["deal.players"] != 2:
        fail(
            "game.declare_out",
            f"declaring out settles a game between two score lines: two players or two "
            f"partnerships, not {flat['deal.players']} players each for himself",
        )
    if flat["auction.kind"] in ("open", "single_round") and flat["auction.min_bid"] < 1:
        fail("auction.min_bid", "an auction's lowest bid is at least 1")
    if flat["meld.run_scores_royal"] and flat["meld.run_or_royal"]:
        fail(
            "meld.run_scores_royal",
            "a run that also scores its royal marriage contradicts meld.run_or_royal "
            "(runs and trump marriages exclude each other); set one of them false",
        )
    if flat["meld.run_scores_royal"] and flat["play.stock_play"]:
        fail(
            "meld.run_scores_royal",
            "with play from a stock each meld is tabled on its own (royal marriage "
            "then run already scores both); set it false",
        )
    step_from = flat["auction.step_from"]
    if step_from and step_from < flat["auction.min_bid"]:
        fail(
            "auction.step_from",
            f"the step changes below the minimum bid {flat['auction.min_bid']}; use 0 for one step throughout",
        )
