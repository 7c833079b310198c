"""The layout of the compiled rules the kernels read: the rows of the meld table and the meld flags,
and the integer code of each choice (the value of a choice field of :mod:`simcore.variants.record`).

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

# the integer of each choice: its index among the schema's allowed values, looked up by name
AUCTION_OPEN, AUCTION_SINGLE, AUCTION_NONE = (code("auction.kind", c) for c in ("open", "single_round", "none"))
TEAMS_ACROSS, TEAMS_ALONE, TEAMS_CALLED = (
    code("teams.kind", c) for c in ("partners_across", "bidder_alone", "called_card")
)
LEAD_BIDDER, LEAD_DEALER_LEFT = (code("play.lead", c) for c in ("bidder", "dealer_left"))
# teams.call: the bidder's choice, or the top trump rank held
CALL_NAMED, CALL_ACE_OF_TRUMP = (code("teams.call", c) for c in ("named", "ace_of_trump"))
# teams.share: how a called partnership and the others score
SHARE_HALF, SHARE_WHOLE, SHARE_POOLED = (code("teams.share", c) for c in ("half", "whole", "pooled_tricks"))
ALL_PASS_LEFT, ALL_PASS_DEALER, ALL_PASS_REDEAL = (
    code("auction.all_pass", c) for c in ("dealer_left_takes", "dealer_forced", "redeal")
)
SAVE_TRICK, SAVE_POINTS, SAVE_NOTHING = (code("scoring.save_meld", c) for c in ("trick", "points", "nothing"))
NO_TRUMP_OPP_NOTHING, NO_TRUMP_OPP_MELD = (code("scoring.opponents_no_trump", c) for c in ("nothing", "meld"))
OPP_MELD, OPP_NOTHING, OPP_MELD_AND_TRICKS = (
    code("scoring.opponents_on_concede", c) for c in ("meld", "nothing", "meld_and_tricks")
)
