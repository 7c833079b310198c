"""The layout of the compiled rules the kernels read: the rows of the meld table and the meld flags,
which slot of ``Variant.hand_rules`` and ``Variant.game_rules`` holds which rule, and the integer code of
each choice.

It sits beside the schema so that the rules package defines what the kernels receive and imports no
kernel: ``simcore.kernels.hand`` and ``simcore.kernels.game`` import these names from here. A choice's code is its
index among the schema's allowed values (``schema.code``), so the two cannot drift apart.
"""

from __future__ import annotations

from simcore.variants.schema import MULTIPLICITY_PREFIXES, code

#: Rows of the compiled meld table (``Variant.meld_table``), one per meld, by multiplicity.
RUN, ROYAL, MARRIAGE, ACES, KINGS, QUEENS, JACKS, PINOCHLE, ROUNDHOUSE, RUN_EXTRA_MARRIAGE = range(10)
#: Entries of the compiled meld flags (``Variant.meld_flags``).
F_DIX, F_EXTRA_KING, F_EXTRA_QUEEN, F_RUN_OR_ROYAL, F_RUN_SCORES_ROYAL, F_EXTRA_MARRIAGE_PER_RUN = range(6)
#: Highest multiplicity the tables hold: the most copies a deck may have.
MAX_MULT = len(MULTIPLICITY_PREFIXES)

# compiled hand rules (int64[N_HAND_RULES], Variant.hand_rules)
(H_TEAMS, H_AUCTION, H_MIN_BID, H_STEP, H_STEP_FROM, H_STEP_AFTER, H_ALL_PASS, H_BID_MARRIAGE,
 H_TRUMP_MARRIAGE, H_PASS, H_WIDOW_TO_BIDDER, H_BID_ADDED, H_SAVE, H_SAVE_POINTS, H_DIX_KEPT,
 H_SHORT_BY, H_CONCEDE, H_OPP_CONCEDE, H_LEAD, H_REDEAL_NINES, H_REDEAL_NO_MELD, H_TRICK_TOTAL,
 H_PARTNER_MELD, H_JUMP_STEPS, H_SIMULTANEOUS, H_WIDOW_SHARED, H_MIN_MELD_PLAY, H_MIN_MELD_COUNT,
 H_FORCED_BID, H_CALL, H_SHARE, H_LEAD_TRUMP, H_MAY_GO_ALONE, H_PARTNER_MELD_COUNTS, H_DRAW, H_TRUMP_BROKEN,
 H_DIX_WHEN_SET, H_BEAT_PARTNER, H_STOCK, H_ROUND_TO, H_ROUND_UP_FROM, H_OPENING_FORCED, H_MAX_OPENING,
 H_TRUMP_AFTER_WIDOW, H_CONCEDE_SHORT, H_CONCEDE_BONUS, H_CONCEDE_LOSES_BID, H_BURIED_SAVES,
 H_NO_TRUMP_OPP) = range(49)
N_HAND_RULES = 49

# compiled game rules (int64[N_GAME_RULES], Variant.game_rules)
G_TARGET, G_BIDDER_WINS_TIES, G_PLAY_ON, G_LOSING_LIMIT, G_DECLARE_OUT = range(5)
N_GAME_RULES = 5


# the integer of each choice: its index among the schema's allowed values, looked up by name
AUCTION_OPEN, AUCTION_SINGLE, AUCTION_NONE = (code("auction.kind", c) for c in ("open", "single_round", "none"))
TEAMS_ACROSS, TEAMS_ALONE, TEAMS_CALLED = (code("teams.kind", c) for c in ("partners_across", "bidder_alone",
                                                                            "called_card"))
# teams.call: the bidder's choice, or the top trump rank held
CALL_NAMED, CALL_ACE_OF_TRUMP = (code("teams.call", c) for c in ("named", "ace_of_trump"))
# teams.share: how a called partnership and the others score
SHARE_HALF, SHARE_WHOLE, SHARE_POOLED = (code("teams.share", c) for c in ("half", "whole", "pooled_tricks"))
ALL_PASS_LEFT, ALL_PASS_DEALER, ALL_PASS_REDEAL = (code("auction.all_pass", c) for c in
                                                   ("dealer_left_takes", "dealer_forced", "redeal"))
SAVE_TRICK, SAVE_POINTS, SAVE_NOTHING = (code("scoring.save_meld", c) for c in ("trick", "points", "nothing"))
NO_TRUMP_OPP_NOTHING, NO_TRUMP_OPP_MELD = (code("scoring.opponents_no_trump", c) for c in ("nothing", "meld"))
OPP_MELD, OPP_NOTHING, OPP_MELD_AND_TRICKS = (code("scoring.opponents_on_concede", c) for c in
                                              ("meld", "nothing", "meld_and_tricks"))
