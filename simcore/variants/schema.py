"""The keys a rules file may hold, with their types and allowed values.

This table is the single source of truth for what a rules file means: the loader validates against it
and ``docs/rules-keys.md`` describes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcore.cards import RANKS

#: Multiplicity prefixes for meld keys: ``pinochle`` is the single meld, ``double_pinochle`` two of it.
MULTIPLICITY_PREFIXES = ("", "double_", "triple_", "quadruple_", "quintuple_", "sextuple_", "septuple_", "octuple_")

#: Melds whose value depends on how many times the hand holds them (1, 2, ... copies).
MULTIPLE_MELDS = (
    "run",
    "royal_marriage",
    "marriage",
    "aces_around",
    "kings_around",
    "queens_around",
    "jacks_around",
    "pinochle",
    "roundhouse_bonus",
)

#: Melds that earn checks (``[checks]``, check pinochle), rows of the compiled meld table by name.
CHECK_MELDS = ("run", "aces_around", "kings_around", "queens_around", "jacks_around", "pinochle", "roundhouse")


#: When a rules file must set a key itself (``Key.need``); any other key takes its default.
ALWAYS = "always"  # every rules file, or a file it extends
PLAYING = "playing"  # a file that plays hands, i.e. sets ``auction.kind``
BIDDING = "bidding"  # a file that holds an auction (``auction.kind`` open or single_round)

#: Bounds shared by many keys. They keep every loop that rules data drives short: an auction steps
#: through at most (limit − minimum) / step bids, and a limit is at most a few melds at these values.
MAX_POINTS = 10_000  # one meld, a bid, a threshold in meld or trick points
MAX_SCORE = 1_000_000  # a game target or losing limit


@dataclass(frozen=True)
class Key:
    """One rules-file key: its type, allowed range or choices, default, and what it means.

    ``default`` is what the loader fills in when no file in the ``extends`` chain sets the key; ``None``
    means "not set", whose meaning ``unset`` states (a meld value derived from the others, no game rules
    ...). ``need`` names when a file must set the key itself (:data:`ALWAYS`, :data:`PLAYING`,
    :data:`BIDDING`); such a key's default only stands where it plays no part.
    """

    kind: type | tuple[type, ...]
    help: str
    lo: int | None = None
    hi: int | None = None
    choices: tuple[Any, ...] | None = None
    default: Any = None
    need: str | None = None
    unset: str = ""

    def allowed(self) -> str:
        """Human description of the allowed values, for error messages."""
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        name = {int: "an integer", bool: "true or false", str: "a string", list: "a list", float: "a number"}.get(
            self.kind if isinstance(self.kind, type) else list, "a value"
        )
        if self.lo is not None and self.hi is not None:
            return f"{name} from {self.lo} to {self.hi:,}"
        if self.lo is not None:
            return f"{name} ≥ {self.lo}"
        return name

    def code(self, value: Any) -> int:
        """The integer the kernels read for a choice: its index among the allowed values."""
        assert self.choices is not None, "only keys with choices have codes"
        return self.choices.index(value)

    def default_text(self) -> str:
        """The default as the key reference shows it."""
        if self.need == ALWAYS:
            return "required"
        if self.need == PLAYING:
            return "required to play hands"
        if self.need == BIDDING:
            return "required with an auction"
        if self.default is None:
            return f"not set: {self.unset}" if self.unset else "not set"
        if isinstance(self.default, bool):
            return str(self.default).lower()
        return repr(self.default) if isinstance(self.default, str) else str(self.default)


def code(key: str, value: Any) -> int:
    """The kernels' integer for ``value`` of choice key ``key`` (its index in the schema's choices)."""
    return KEYS[key].code(value)


def _by_multiplicity(table: str, unit: str, what: dict[str, str]) -> dict[str, Key]:
    """``table.base`` (the single meld, default 0) and ``table.double_base`` ... (held 2-8 times over, unset:
    the best split) for each meld ``base`` that ``what`` describes."""
    keys = {}
    for base, text in what.items():
        for i, prefix in enumerate(MULTIPLICITY_PREFIXES):
            if i == 0:
                keys[f"{table}.{base}"] = Key(int, f"{unit} {text}", lo=0, hi=MAX_POINTS, default=0)
            else:
                keys[f"{table}.{prefix}{base}"] = Key(
                    int,
                    f"{unit} {text} held {i + 1} times over",
                    lo=0,
                    hi=MAX_POINTS,
                    unset="the best split into the values set (double = 2 × single with only that)",
                )
    return keys


def _meld_keys() -> dict[str, Key]:
    keys: dict[str, Key] = {}
    what = {
        "run": "A-10-K-Q-J of trump (also called flush or sequence)",
        "royal_marriage": "K-Q of trump",
        "marriage": "K-Q of a plain suit (value per suit)",
        "aces_around": "an ace of every suit",
        "kings_around": "a king of every suit",
        "queens_around": "a queen of every suit",
        "jacks_around": "a jack of every suit",
        "pinochle": "Q♠ + J♦",
        "roundhouse_bonus": "extra points for a K and a Q in every suit, on top of the kings, queens "
        "and marriages it is made of (0 where a roundhouse is just their sum)",
    }
    keys.update(_by_multiplicity("meld", "points for", what))
    keys["meld.dix"] = Key(int, "points for each nine of trump held", lo=0, hi=MAX_POINTS, default=0)
    keys["meld.run_extra_king"] = Key(
        int,
        "points for each trump K beside a run that is not part of it and has no Q to marry",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    )
    keys["meld.run_extra_queen"] = Key(
        int,
        "points for each trump Q beside a run that is not part of it and has no K to marry",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    )
    keys["meld.run_extra_marriage"] = Key(
        int, "points for each trump K-Q beside a run, outside it", lo=0, hi=MAX_POINTS, unset="the royal marriage value"
    )
    keys["meld.run_extra_marriage_per_run"] = Key(
        bool,
        "each K-Q beside a run scores run_extra_marriage once per run it sits beside (Toby Thomas: "
        "A-A-10-10-K-K-K-Q-Q-Q-J-J = 150 + 60 with run_extra_marriage = 30)",
        default=False,
    )
    keys["meld.run_scores_royal"] = Key(
        bool,
        "a run also scores the royal marriage it holds, at the royal marriage value (run 150 + 40); "
        "false: its K-Q count only as part of the run",
        default=False,
    )
    keys["meld.run_or_royal"] = Key(
        bool, "true: runs and trump marriages exclude each other and the better of the two counts", default=False
    )
    return keys


def _check_keys() -> dict[str, Key]:
    """``[checks]``: chips (checks) paid beside the points in check pinochle, per meld and per hand."""
    what = {
        "run": "melding a run (flush)",
        "aces_around": "melding aces around",
        "kings_around": "melding kings around (not those of a roundhouse)",
        "queens_around": "melding queens around (not those of a roundhouse)",
        "jacks_around": "melding jacks around",
        "pinochle": "melding a pinochle",
        "roundhouse": "melding a roundhouse (a K and a Q of every suit, the round trip): its kings and "
        "queens earn no checks of their own",
    }
    keys = {
        "checks.contract": Key(
            list,
            "checks for making a contract: [lowest bid, checks] pairs in rising order "
            "of bid, each bracket running to the next (check: [[200, 2], [250, 4], ...])",
            unset="no checks: hands and games score points only",
        )
    }
    keys.update(_by_multiplicity("checks", "checks for", what))
    keys.update(
        {
            "checks.contract_every": Key(
                int,
                "above the last bracket of checks.contract, a further contract_more "
                "checks for each this many points of bid (0: none)",
                lo=0,
                hi=MAX_POINTS,
                default=0,
            ),
            "checks.contract_more": Key(
                int, "checks for each further checks.contract_every points of bid", lo=0, hi=MAX_POINTS, default=0
            ),
            "checks.defeat_times": Key(
                int, "the side that defeats a contract earns this many times its checks", lo=0, hi=100, default=0
            ),
            "checks.slam": Key(
                int, "checks for a side that wins every trick of a hand", lo=0, hi=MAX_POINTS, default=0
            ),
            "checks.game": Key(int, "checks for winning the game", lo=0, hi=MAX_POINTS, default=0),
            "checks.game_per": Key(
                int,
                "the winners earn checks.game_per_checks more for each this many points (or "
                "fraction) by which their score exceeds the losers' (0: none)",
                lo=0,
                hi=MAX_SCORE,
                default=0,
            ),
            "checks.game_per_checks": Key(
                int, "checks for each checks.game_per points of the winning margin", lo=0, hi=MAX_POINTS, default=0
            ),
            "checks.losers_minus": Key(
                int,
                "checks more for winning the game when the losers' score is below 0",
                lo=0,
                hi=MAX_POINTS,
                default=0,
            ),
        }
    )
    return keys


KEYS: dict[str, Key] = {
    "id": Key(str, "short name of the rule system", need=ALWAYS),
    "name": Key(str, "full name", need=ALWAYS),
    "description": Key(str, "one line on what sets the system apart", need=ALWAYS),
    "source": Key(str, "where the rules come from", need=ALWAYS),
    "assumptions": Key(list, "values not in the source document, each with where it was taken from", default=[]),
    "extends": Key(
        str, "id or path of a rules file whose keys this file starts from", unset="the file holds every rule itself"
    ),
    "scale": Key(
        int,
        "points scale of the system: 1 (run 15) or 10 (run 150)",
        choices=(1, 10),
        unset="informative only, no computation reads it",
    ),
    "deck.ranks": Key(list, "ranks in the deck, in trick order, from " + " ".join(RANKS), need=ALWAYS),
    "deck.copies": Key(int, "copies of each card in the deck", lo=1, hi=8, need=ALWAYS),
    "deal.players": Key(int, "players dealt a hand", lo=2, hi=8, need=ALWAYS),
    "deal.hand_size": Key(int, "cards in each hand", lo=1, hi=60, need=ALWAYS),
    "deal.widow": Key(int, "cards not dealt to a hand (widow, kitty or stock)", lo=0, hi=100, default=0),
    "deal.widow_kind": Key(
        str, "what the undealt cards are", choices=("none", "widow", "kitty", "stock"), default="none"
    ),
    "redeal.min_nines": Key(
        int, "a hand with at least this many nines may be thrown in (0: no such rule)", lo=0, hi=48, default=0
    ),
    "redeal.require_no_meld": Key(
        bool, "the nines redeal also needs a hand with no meld (no marriage, pinochle or around)", default=False
    ),
    **_meld_keys(),
    "play.lead": Key(str, "who leads the first trick", choices=("bidder", "dealer_left"), need=ALWAYS),
    "play.stock_play": Key(
        bool,
        "two-hand's play from a stock: trump is a card turned from the stock; while "
        "the stock lasts a trick carries no duty, its winner may make one meld (and "
        "show a dix, or exchange it for the turned card), then each player draws one "
        "card, the winner first, the turned card last; the playoff follows the "
        "play.* duties. Nothing is melded before play",
        default=False,
    ),
    "play.bidder_leads_trump": Key(bool, "the bidder's opening lead must be a trump when he holds one", default=False),
    "play.beat_partner": Key(
        bool,
        "the duties to beat the winning card (heading, over-trumping) hold "
        "even when it is the player's partner's (false: with partner winning, "
        "a player must still follow suit, or trump when void, but need not beat)",
        default=True,
    ),
    "play.trump_led_once_broken": Key(
        bool,
        "no trump may be led before a trump has been played in the hand, unless the leader holds nothing else",
        default=False,
    ),
    "play.follow_must_head": Key(
        str,
        "when following suit, must a player beat the card winning the trick if able (even partner's)?",
        choices=("never", "always", "trump_led"),
        need=ALWAYS,
    ),
    "play.head_when_trumped": Key(
        bool,
        "once the lead is trumped, must followers of the led suit still "
        "beat the highest card of that suit if able (false: any card "
        "of the suit)",
        need=ALWAYS,
    ),
    "play.trump_instead": Key(
        bool,
        "a player holding the led suit may play a trump instead (five-hand "
        "widow: 'a card with the same suit as the first played card or the "
        "trump suit'); the heading duties bind only the led suit",
        default=False,
    ),
    "play.void_must_trump": Key(bool, "a player with no card of the led suit must play a trump if able", need=ALWAYS),
    "play.void_must_overtrump": Key(
        bool, "a player trumping must beat the highest trump in the trick if able", need=ALWAYS
    ),
    "teams.kind": Key(
        str,
        "who plays with whom: two fixed teams in alternating seats (partners across "
        "at four), the bidder alone against the rest, or the bidder with the first "
        "player to his left holding a card he names after naming trump (each scoring "
        "half; the others each for himself)",
        choices=("partners_across", "bidder_alone", "called_card"),
        need=PLAYING,
    ),
    "teams.call": Key(
        str,
        "with a called partner: the bidder names any card (named), or the partner is the "
        "first player to his left with the ace of trump, else the ten, and so on "
        "(ace_of_trump)",
        choices=("named", "ace_of_trump"),
        default="named",
    ),
    "teams.share": Key(
        str,
        "with a called partner: the two take half of what they make or lose each and "
        "the others score each for himself (half); every player takes his side's "
        "whole score (whole); or the two take their side's score and each other player "
        "his own meld, kept if the others took a trick between them, and an equal share "
        "of their trick points (pooled_tricks)",
        choices=("half", "whole", "pooled_tricks"),
        default="half",
    ),
    "teams.may_play_alone": Key(
        bool, "with a named card: the bidder may name none and play alone against the rest", default=False
    ),
    "auction.kind": Key(
        str,
        "open auction (bid until all but one pass), a single round of bids, or no "
        "auction (the dealer's last card is turned for trump)",
        choices=("open", "single_round", "none"),
        unset="no bidding or play rules: the file answers odds questions only",
    ),
    "auction.min_bid": Key(int, "the lowest bid", lo=0, hi=MAX_POINTS, default=0, need=BIDDING),
    "auction.step": Key(int, "bids go up by multiples of this", lo=1, hi=MAX_POINTS, default=1, need=BIDDING),
    "auction.step_from": Key(
        int,
        "from this bid on, bids go up by auction.step_after instead (0: one step throughout)",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    ),
    "auction.step_after": Key(int, "the step from auction.step_from on", lo=1, hi=MAX_POINTS, default=1),
    "auction.jump_steps": Key(
        int,
        "a bid may go up by up to this many extra steps at once (0: only the "
        "next bid; ok-pinochle's 'raise by 10 or jump by 20' is 1)",
        lo=0,
        hi=20,
        default=0,
    ),
    "auction.opening_forced": Key(
        bool,
        "the player on the dealer's left must open: he may not pass his "
        "first turn (auction: 'must start by bidding at least 300')",
        default=False,
    ),
    "auction.max_opening": Key(int, "the opening bid may be at most this (0: no cap)", lo=0, hi=MAX_POINTS, default=0),
    "auction.all_pass": Key(
        str,
        "when nobody bids: the dealer's left takes it at the minimum, the dealer "
        "is forced to the minimum, or the hand is thrown in and redealt",
        choices=("dealer_left_takes", "dealer_forced", "redeal"),
        default="redeal",
        need=BIDDING,
    ),
    "auction.forced_bid": Key(
        int,
        "the contract of the player who takes the hand when all pass (0: the "
        "minimum bid); five-hand cutthroat's dealer is 'stuck' at 12 below a "
        "minimum of 15",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    ),
    "auction.bid_needs_marriage": Key(
        bool, "a player may bid only holding a marriage (a forced bid at the minimum excepted)", default=False
    ),
    "auction.trump_needs_marriage": Key(
        bool,
        "the bidder must name a suit in which he holds a marriage; "
        "with none the hand is not played and the side is set",
        default=False,
    ),
    "exchange.pass_cards": Key(
        int, "cards the bidder's partner passes him, and he passes back (0: none)", lo=0, hi=8, default=0
    ),
    "exchange.simultaneous": Key(
        bool,
        "bidder and partner pass their cards at the same time, unseen "
        "(false: the partner passes first, the bidder returns)",
        default=False,
    ),
    "exchange.widow_to_bidder": Key(
        bool, "the bidder takes the widow and buries as many cards, which count for him as a trick", default=False
    ),
    "exchange.trump_after_widow": Key(
        bool,
        "with exchange.widow_to_bidder: the bidder takes the widow into "
        "his hand before he names trump (false: he names trump from "
        "the hand he was dealt, then takes the widow)",
        default=False,
    ),
    "exchange.draw": Key(
        bool,
        "after trump is named each player, from the bidder round, throws away cards "
        "and draws as many from the stock (the undealt cards); each at most "
        "min(hand size, stock / players)",
        default=False,
    ),
    "exchange.dix_for_turned": Key(
        bool,
        "with trump turned from the dealer's hand (no auction): each player in "
        "turn from the dealer's left may exchange a dix (nine of trump) for the "
        "turned card, which goes to him, the dix to the dealer; each original "
        "holder of a dix scores it, exchanged or not",
        default=False,
    ),
    "exchange.pass_called_card": Key(
        bool,
        "with a card named for a partner: the partner passes the bidder that "
        "card and the bidder gives one back (exchange.pass_cards = 1; "
        "seeds/000: 'The partner gives them the card and then they must give "
        "one back')",
        default=False,
    ),
    "exchange.widow_shared": Key(
        bool,
        "the bidder keeps one widow card and gives one face down to each "
        "other player (the widow holds one card per player)",
        default=False,
    ),
    "scoring.dix_kept_when_set": Key(
        bool, "a set bidder keeps the points of his nines of trump (minus the bid plus the dix)", default=False
    ),
    "scoring.partner_meld_counts": Key(
        bool, "a called partner's meld counts for the partnership (false: only the bidder's meld counts)", default=True
    ),
    "scoring.min_meld_to_play": Key(
        int,
        "the bidding side is set without play when its meld is below this (0: no such rule)",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    ),
    "scoring.min_meld_to_count": Key(
        int, "a side's meld counts only when it is at least this (0: always)", lo=0, hi=MAX_POINTS, default=0
    ),
    "scoring.bid_added": Key(bool, "a made bid scores the bid on top of meld and trick points", default=False),
    "scoring.save_meld": Key(
        str,
        "what a side must take in tricks to keep its meld: a trick, at least "
        "scoring.save_meld_points trick points, or nothing",
        choices=("trick", "points", "nothing"),
        default="trick",
    ),
    "scoring.save_meld_points": Key(
        int, "trick points needed to keep meld when save_meld = points", lo=0, hi=MAX_POINTS, default=0
    ),
    "scoring.dix_kept": Key(bool, "the dix counts even when the rest of the side's meld is lost", default=False),
    "scoring.set_if_short_by": Key(
        int,
        "the bidding side is set without play when its meld is more than this short of the bid (0: no such rule)",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    ),
    "scoring.concede": Key(
        bool, "the bidder may throw in the hand before play (losing the bid) when it cannot be made", default=False
    ),
    "scoring.opponents_on_concede": Key(
        str,
        "what the other side scores on a throw-in, a set without play or a contract it concedes",
        choices=("meld", "nothing", "meld_and_tricks"),
        default="meld",
    ),
    "scoring.concede_short_by": Key(
        int,
        "with scoring.concede: the bidder may throw in only when his "
        "side's meld is at least this short of the bid (0: whenever)",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    ),
    "scoring.concede_bonus": Key(
        int,
        "on a throw-in each opponent (with partners, the other side) scores "
        "this on top of what scoring.opponents_on_concede gives",
        lo=0,
        hi=MAX_POINTS,
        default=0,
    ),
    "scoring.concede_loses_bid": Key(
        bool, "a bidder who throws in is set back his bid (false: his side scores nothing for the hand)", default=True
    ),
    "scoring.forfeit_unseen": Key(
        bool,
        "a bidder whose contract is the compulsory opening at the minimum bid, "
        "nobody having bid over it, may forfeit before he sees the widow "
        "(auction: 'If all the players pass on the compulsory 300 bid, the "
        "bidder may forfeit without looking at the widow'); he loses the bid "
        "as on a throw-in (scoring.concede_loses_bid), the others score nothing",
        default=False,
    ),
    "scoring.opponents_concede": Key(
        bool,
        "the opponents may concede the contract once the bidder has melded, "
        "before the first lead: he makes it without play and scores his "
        "bid, the others as scoring.opponents_on_concede gives (auction: "
        "'The opponents, by agreement, may concede the bidder's contract')",
        default=False,
    ),
    "scoring.concede_only_forced": Key(
        bool,
        "with scoring.concede: only a bidder who took the hand because "
        "everybody passed may throw it in (five-hand-widow-96's dealer)",
        default=False,
    ),
    "scoring.buried_saves_meld": Key(
        bool,
        "the bidder's buried cards count towards saving his meld "
        "(false: only the tricks he wins do; the burial still counts "
        "towards the bid)",
        default=True,
    ),
    "scoring.opponents_no_trump": Key(
        str,
        "when the bidder holds no marriage to name trump and the hand is "
        "not played: the other side scores nothing, or its meld (with the "
        "suit best for that side as trump, from scoring.min_meld_to_count)",
        choices=("nothing", "meld"),
        default="nothing",
    ),
    "tricks.points": Key(list, "points for each A, 10, K, Q, J, 9 taken in tricks (six integers ≥ 0)", need=ALWAYS),
    "tricks.last_trick": Key(int, "points for winning the last trick", lo=0, hi=MAX_POINTS, need=ALWAYS),
    "tricks.round_to": Key(
        int,
        "each player's or side's trick points are counted to a multiple of this (0: as taken)",
        lo=0,
        hi=100,
        default=0,
    ),
    "tricks.round_up_from": Key(
        int,
        "with tricks.round_to, a remainder of at least this rounds up, a smaller "
        "one down (two-hand: 10 and 7, so 87 counts 90 and 126 counts 120)",
        lo=1,
        hi=100,
        default=1,
    ),
    "game.target": Key(
        int,
        "points a side needs to win the game",
        lo=1,
        hi=MAX_SCORE,
        unset="no game rules: hands are played, not games",
    ),
    "game.bidder_wins_ties": Key(
        bool, "when both sides reach the target in one hand, the bidding side wins (it is counted first)", default=False
    ),
    "game.play_on": Key(
        int,
        "when both sides reach the target and nothing else settles it, the target "
        "rises by this much (1000, 1250, 1500 ...: 250); 0: the higher score wins "
        "and equal scores play another hand",
        lo=0,
        hi=MAX_SCORE,
        default=0,
    ),
    "game.losing_limit": Key(
        int, "a side whose score falls to minus this loses the game (0: no limit)", lo=0, hi=MAX_SCORE, default=0
    ),
    "settlement.values": Key(
        list,
        "chips a contract is worth: [lowest bid, chips] pairs in rising order of bid, "
        "each bracket running to the next (auction: [[300, 3], [350, 5], ...])",
        unset="no chip settlement: hands score points",
    ),
    "settlement.spades_double": Key(bool, "a contract with spades trump is worth twice its chips", default=False),
    "settlement.kitty_from": Key(
        int,
        "from this bid up the kitty (an imaginary extra player) settles like an opponent (0: always)",
        lo=0,
        hi=MAX_SCORE,
        default=0,
    ),
    "settlement.people": Key(
        int,
        "people at the table who settle each deal: the active players and those sitting out (auction: 3, 4 or 5)",
        lo=2,
        hi=8,
        unset="the players dealt a hand",
    ),
    **_check_keys(),
    "policy.margin": Key(
        float,
        "the heuristic players' bidding margin: a share of the hand's trick points "
        "added to the limit their hand valuation gives (> 0 bolder, < 0 more "
        "cautious); `pinochle tune` finds it (docs/policies.md)",
        lo=-1,
        hi=1,
        default=0.0,
    ),
    "game.declare_out": Key(
        bool,
        "a player may declare himself out during play: play stops, and he wins "
        "if his score with this hand's meld and trick points so far reaches the "
        "target, else loses (two score lines only)",
        default=False,
    ),
}

#: Tables a rules file may contain (everything else at top level is a plain key).
TABLES = (
    "deck",
    "deal",
    "redeal",
    "meld",
    "play",
    "tricks",
    "teams",
    "auction",
    "exchange",
    "scoring",
    "settlement",
    "checks",
    "game",
    "policy",
)


def reference_markdown() -> str:
    """The rules-file key reference (``docs/rules-keys.md``), generated from :data:`KEYS`."""
    lines = [
        "# Rules-file keys",
        "",
        "Generated from `simcore/variants/schema.py` (`reference_markdown()`); a test keeps this page",
        "in step with the code. Keys are written in TOML tables (`[meld]` then",
        "`double_pinochle = 300`) or on the command line as `--set meld.double_pinochle=300`.",
        "",
        "Meld values for a multiplicity that a file does not list score as the best split into listed",
        "ones (a single listed value makes the meld linear; 20 aces in a triple pack = triple + double).",
        "",
        'A key no file in the `extends` chain sets takes its default; "required" keys must be set.',
        "",
        "| key | allowed | default | meaning |",
        "|---|---|---|---|",
    ]
    for key, spec in KEYS.items():
        prefix = key.split(".")[-1]
        if any(prefix.startswith(p) for p in MULTIPLICITY_PREFIXES[1:]):
            continue  # listed once, below the single key
        allowed = spec.allowed()
        meaning = spec.help
        if (key.startswith("meld.") and prefix in MULTIPLE_MELDS) or (
            key.startswith("checks.") and prefix in CHECK_MELDS
        ):
            meaning += "; `double_`, `triple_` … `octuple_` prefixes give the value held 2–8 times"
        lines.append(f"| `{key}` | {allowed} | {spec.default_text()} | {meaning} |")
    return "\n".join(lines) + "\n"
