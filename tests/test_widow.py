"""``pinochle widow``: the widow enumeration against a plain count, the weights, and the command."""

import itertools
import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from simcore.answers.widow import widow_worth, widows
from simcore.cards import N_TYPES, parse_hand
from simcore.cli import main
from simcore.reference.meld import reference_total
from simcore.variants import NotForThisSystem, load_variant

#: Auction cut to 32 cards (A 10 K Q, two copies): three hands of 10 and a widow of 2.
SMALL = load_variant("auction", ['deck.ranks=["A","10","K","Q"]', "deal.hand_size=10", "deal.widow=2"])


def plain_widow_melds(variant, hand):
    """Every widow as a set of distinct cards (combinations of the unseen cards), every burial likewise,
    meld by the reference engine: {(meld after under each trump): widows}."""
    size = int(variant.get("deal.widow"))
    unseen = [t for t in range(N_TYPES) for _ in range(int(variant.deck_copies[t] - hand[t]))]
    out = {}
    for pick in itertools.combinations(range(len(unseen)), size):
        full = [int(x) for x in hand]
        for i in pick:
            full[unseen[i]] += 1
        cards = [t for t in range(N_TYPES) for _ in range(full[t])]
        best = [-1] * 4
        for burial in set(itertools.combinations(cards, size)):
            kept = list(full)
            for t in burial:
                kept[t] -= 1
            for s in range(4):
                best[s] = max(best[s], reference_total(np.array(kept, dtype=np.uint8), s, variant))
        out[tuple(best)] = out.get(tuple(best), 0) + 1
    return out


@pytest.mark.parametrize("hand", ["AS 10S KS QS AH KH QH AD QD KC", "QS QS KS AD AD KD QD 10C AC AH"])
def test_the_enumeration_matches_a_plain_count(hand):
    cards = parse_hand(hand)
    r = widow_worth(SMALL, cards)
    assert r.total_ways == comb(22, 2)
    counted = {}
    for i in range(len(r.ways)):
        key = tuple(int(x) for x in r.after[i])
        counted[key] = counted.get(key, 0) + int(r.ways[i])
    assert counted == plain_widow_melds(SMALL, cards)


def test_widows_are_weighted_multisets():
    # auction: I hold 15 of 48 cards; 33 unseen, C(33, 3) = 5,456 widows
    v = load_variant("auction")
    hand = parse_hand("AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD")
    rows, ways = widows(v.deck_copies - hand, 3)
    assert int(ways.sum()) == comb(33, 3) == 5456 and (rows.sum(axis=1) == 3).all()
    # both KC unseen and a third card: C(2, 2) ways for the pair
    pair = parse_hand("KC KC AC")
    assert ways[np.all(rows == pair, axis=1)].tolist() == [2]  # KC KC (1 way) × AC (2 copies unseen)
    r = widow_worth(v, hand)
    # the expected gain and P(gain >= X) are exact fractions over the 5,456 widows
    gains = r.gains()
    assert r.mean(gains) == Fraction(sum(int(w) * int(g) for w, g in zip(r.ways, gains)), 5456)
    at_least = dict(r.at_least(gains))
    assert at_least[0] == 1 and all(0 <= p <= 1 for p in at_least.values())
    # the best widow leaves at least the meld I had under every trump
    assert (r.after >= np.array(r.before)).all()


def test_systems_without_a_widow_to_the_bidder_are_refused():
    with pytest.raises(NotForThisSystem, match="takes no widow"):
        widow_worth(load_variant("four-hand-150"), parse_hand("AS 10S KS QS JS 9S AH 10H QH JH 9H AD"))


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_widow(capsys):
    code, out, _ = _cli(capsys, "widow", "AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD", "--variant", "auction")
    assert code == 0 and "5,456 widows" in out and "exact" in out and "best widows:" in out
    code, out, _ = _cli(
        capsys, "widow", "AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD", "--variant", "auction", "--json"
    )
    doc = json.loads(out)
    assert doc["widows"] == 5456 and set(doc["by_trump"]) == {"S", "H", "D", "C"} and doc["rule"]
    assert len(doc["best"]) == len(doc["likeliest"]) == 3
    code, out, _ = _cli(
        capsys,
        "widow",
        "AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD",
        "--variant",
        "auction",
        "--json",
        "--top",
        "7",
    )
    top = json.loads(out)
    assert code == 0 and len(top["best"]) == len(top["likeliest"]) == 7  # --top holds in JSON as in the text
    assert top["best"][:3] == doc["best"] and top["likeliest"][:3] == doc["likeliest"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["AS 10S KS QS JS 9S AH 10H QH JH 9H AD"], "four-hand-150: the bidder takes no widow"),
        (["AS 10S KS", "--variant", "auction"], "give the whole hand (15 cards in auction)"),
        (["AS AS AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D", "--variant", "auction"], "the deck has only 2"),
    ],
)
def test_cli_widow_refuses_bad_input_in_one_line(capsys, argv, message):
    code, _, err = _cli(capsys, "widow", *argv)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err
