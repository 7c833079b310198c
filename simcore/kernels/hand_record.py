"""The layout of what a hand writes: its record (``FIELDS``, one int64 each, ``F_*`` their indices),
its outcome codes (``OUTCOMES``), the per-seat rows of its scratch (``S_*``), the stages at which it is
scored (``STAGE_*``) and the rows of its trace (``T_*``).

Plain Python, no numba: the reference engine, the game state and the answers read records and traces
without loading the hand kernel (:mod:`simcore.kernels.hand`), which writes them.
"""

#: One record per hand.
FIELDS = (
    "redeals",
    "bidder",
    "bid",
    "trump",
    "outcome",
    "made",
    "bidder_meld",
    "bidder_meld_after",
    "side_meld",
    "other_meld",
    "side_tricks",
    "other_tricks",
    "side_score",
    "other_score",
    "trump_len",
    "aces",
)
(
    F_REDEALS,
    F_BIDDER,
    F_BID,
    F_TRUMP,
    F_OUTCOME,
    F_MADE,
    F_BIDDER_MELD,
    F_BIDDER_MELD_AFTER,
    F_SIDE_MELD,
    F_OTHER_MELD,
    F_SIDE_TRICKS,
    F_OTHER_TRICKS,
    F_SIDE_SCORE,
    F_OTHER_SCORE,
    F_TRUMP_LEN,
    F_ACES,
) = range(16)
N_FIELDS = len(FIELDS)
#: Outcomes of a hand.
OUTCOMES = (
    "played",
    "conceded",
    "set_without_play",
    "no_trump_marriage",
    "declared_out",
    "forfeited_unseen",
    "conceded_by_opponents",
)
(PLAYED, CONCEDED, SET_WITHOUT_PLAY, NO_TRUMP_MARRIAGE, DECLARED_OUT, FORFEITED_UNSEEN, CONCEDED_BY_OPPONENTS) = range(
    7
)
MAX_REDEALS = 1000

#: Rows of the per-seat scratch array ``seats`` (int64[N_SEAT_ROWS, players], seats as in play_hand):
#: the seat's side (1 = the bidder's), the points the hand adds to the seat's score line (the
#: output: its side's score with partners, its own with a bidder alone), its meld, dix, trick points
#: (buried cards count for the bidder), tricks won, 1 for a seat that declared itself out, and 1 for
#: a seat that melded a double pinochle or more (counted for its side; the game-decider question), and
#: the checks its meld earns where the rules pay them (``[checks]``; 0 elsewhere).
S_SIDE, S_SCORE, S_MELD, S_DIX, S_PTS, S_WON, S_OUT, S_DOUBLE_PIN, S_CHECKS = range(9)
N_SEAT_ROWS = 9
#: Stages at which a hand is scored: before any meld (no trump marriage), not played (throw-in or set
#: without play), played out.
STAGE_UNMELDED, STAGE_NOT_PLAYED, STAGE_PLAYED = range(3)

#: Trace rows (code, a, b, c) written when a hand is traced (golden playthroughs).
(
    T_DEAL,
    T_REDEAL,
    T_BID,
    T_CONTRACT,
    T_TRUMP,
    T_PASS,
    T_BURY,
    T_MELD,
    T_OUTCOME,
    T_PLAY,
    T_TRICK,
    T_SCORE,
    T_SHARE,
    T_CALL,
    T_DISCARD,
    T_DRAW,
    T_MELDED,
    T_EXCHANGE,
    T_OUT,
) = range(1, 20)
