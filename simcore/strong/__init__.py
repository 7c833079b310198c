"""The players that stand on the answers, and the duels that measure players: the strong player's
bidding, trump and exchange, each asking an answer of sampled deals (:mod:`simcore.strong.bidder`), and
``pinochle duel`` (:mod:`simcore.strong.duel`). They sit above the answers so that the game state and the
sampling player below them import only downward."""
