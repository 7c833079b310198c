"""Two-hand's play from a stock: melding one combination after a won trick (simcore.kernels.stock) against the
plain rules (simcore.reference.stock), the rounding of trick points, declaring out, and the referee."""

import numpy as np
import pytest

from simcore.answers.game_results import game_records
from simcore.cards import parse_card
from simcore.kernels import game as g
from simcore.kernels import hand
from simcore.kernels import hand_record as h
from simcore.kernels import stock as st
from simcore.kernels.compiled import hand_rules
from simcore.kernels.hand_drivers import free_deal, hands_batch, seat_margins, trace_hand
from simcore.kernels.policies import parse_policies
from simcore.reference import stock as ref
from simcore.reference.game import reference_game
from simcore.reference.hand import referee
from simcore.variants import load_variant

TWO = load_variant("two-hand")
TABLE = TWO.meld_table
HEARTS = 1
NAMES = st.STOCK_MELDS


class Player:
    """One player's held copies, in the kernel's layout and the reference's side by side."""

    def __init__(self, cards: str, trump: int = HEARTS):
        self.trump = trump
        self.hand = np.zeros(24, dtype=np.uint8)
        self.usage = np.zeros((24, st.MAX_COPIES), dtype=np.uint8)
        self.copies = [[] for _ in range(24)]
        self.chosen = np.zeros((5, 2), dtype=np.int64)
        for c in cards.split():
            self.draw(parse_card(c))

    def draw(self, t: int) -> None:
        self.usage[t, self.hand[t]] = 0
        self.hand[t] += 1
        self.copies[t].append(set())

    def open(self) -> set[str]:
        """The melds open now, by the kernel; the reference must agree on each."""
        mask = st.open_melds(self.usage, self.hand, self.trump, TABLE, self.chosen)
        kernel = {NAMES[m] for m in range(st.N_STOCK_MELDS) if (mask >> m) & 1}
        plain = {
            name
            for name in NAMES[: st.N_STOCK_MELDS]
            if ref.meld_points(TWO, name, self.trump) > 0
            and ref.take_meld([[set(u) for u in copies] for copies in self.copies], name, self.trump)
        }
        assert kernel == plain
        return kernel

    def meld(self, name: str) -> int:
        assert name in self.open(), name
        st.table_meld(self.usage, self.hand, NAMES.index(name), self.trump, TABLE, self.chosen)
        assert ref.take_meld(self.copies, name, self.trump)
        self.same_state()
        return int(st.meld_points(NAMES.index(name), self.trump, TABLE))

    def play(self, card: str) -> None:
        t = parse_card(card)
        st.drop_slot(self.usage, self.hand, t, st.most_used(self.usage, self.hand, t))
        self.hand[t] -= 1
        self.copies[t].remove(max(self.copies[t], key=ref.copy_weight))
        self.same_state()

    def same_state(self) -> None:
        bits = {
            "run": st.U_RUN,
            "marriage": st.U_MARRIAGE,
            "around": st.U_AROUND,
            "pinochle": st.U_PINOCHLE,
            "dix": st.U_DIX,
        }
        for t in range(24):
            kernel = sorted(int(u) for u in self.usage[t, : self.hand[t]])
            plain = sorted(sum(bits[c] for c in used) for used in self.copies[t])
            assert kernel == plain, t


def test_royal_marriage_then_the_run_scores_both_but_not_the_reverse():
    p = Player("AH 10H KH QH JH")
    assert {"run", "royal_marriage"} <= p.open()
    assert p.meld("royal_marriage") == 40
    assert p.meld("run") == 150  # seeds/001: K, Q for 40, later A, J, 10 for 150
    assert "royal_marriage" not in p.open()
    q = Player("AH 10H KH QH JH")
    q.meld("run")
    assert "royal_marriage" not in q.open()
    q.draw(parse_card("KH"))  # "even if he adds another K or Q"
    assert "royal_marriage" not in q.open()
    q.draw(parse_card("QH"))  # a K and a Q of their own make a new royal marriage
    assert "royal_marriage" in q.open()


def test_a_second_marriage_needs_a_king_and_a_queen_of_its_own():
    p = Player("KD QD")
    p.meld("marriage_D")
    p.draw(parse_card("KD"))  # seeds/001: not by adding another K or another Q
    assert "marriage_D" not in p.open()
    p.draw(parse_card("QD"))
    assert "marriage_D" in p.open()


def test_pinochle_then_the_king_for_the_marriage_and_one_meld_at_a_time():
    p = Player("QS JD")
    assert p.meld("pinochle") == 40
    assert p.open() == set()
    p.draw(parse_card("KS"))  # seeds/001: Q and J for 40, then add the K for the marriage
    assert p.open() == {"marriage_S"}
    assert p.meld("marriage_S") == 20


def test_every_meld_takes_a_card_from_the_hand_and_played_cards_are_gone():
    p = Player("KS KH KD KC QS QH QD QC")
    p.meld("kings_around")
    p.meld("queens_around")
    assert p.open() == set()  # every marriage would take only tabled cards
    p.draw(parse_card("KD"))
    assert "marriage_D" in p.open()  # a fresh K with a tabled Q
    p.play("KD")  # the tabled king goes first; the fresh one stays in the hand
    assert "marriage_D" in p.open()
    p.play("KD")
    assert "marriage_D" not in p.open()  # a card played can no longer meld


def test_double_pinochle_is_one_meld_and_only_from_unused_copies():
    p = Player("QS QS JD JD")
    assert p.meld("double_pinochle") == 300
    assert "pinochle" not in p.open()
    q = Player("QS QS JD JD")
    q.meld("pinochle")
    assert "double_pinochle" not in q.open() and "pinochle" in q.open()


def test_the_kernel_and_the_plain_rules_agree_on_random_holdings():
    # differential: random hands with random earlier melds, plays and draws, every step compared
    rng = np.random.default_rng(5)
    for _ in range(300):
        trump = int(rng.integers(4))
        p = Player("", trump)
        for t in rng.choice(24, size=12):
            if p.hand[t] < 2:
                p.draw(int(t))
        for _ in range(8):
            open_now = sorted(p.open())
            if open_now and rng.random() < 0.7:
                p.meld(open_now[rng.integers(len(open_now))])
            held = [t for t in range(24) if p.hand[t]]
            if held and rng.random() < 0.5:
                from simcore.cards import card_name

                p.play(card_name(int(rng.choice(held))))
            t = int(rng.integers(24))
            if p.hand[t] < 2:
                p.draw(t)


@pytest.mark.parametrize(
    "taken, counted", [(87, 90), (126, 120), (124, 120), (125, 120), (133, 130), (0, 0), (7, 10), (250, 250)]
)
def test_seven_or_more_counts_as_ten(taken, counted):
    # seeds/001: "87 points count as 90. If one player scores 126 and the other 124, or if each scores
    # 125, they count only 120 each"
    assert hand.counted(taken, hand_rules(TWO)) == counted
    assert hand.counted(taken, hand_rules(load_variant("four-hand-150"))) == taken


def test_a_traced_hand_is_the_simulated_one_and_plays_every_card():
    pol = parse_policies("heuristic", 2)
    rec, trace = trace_hand(TWO, 3, pol)
    out = np.zeros((1, h.N_FIELDS), dtype=np.int64)
    from simcore.kernels.rng import chunk_states

    hands_batch(
        chunk_states(3, [0]),
        np.array([1]),
        np.array([0]),
        TWO.tables,
        hand_rules(TWO),
        pol,
        seat_margins(TWO, None),
        *free_deal(TWO.tables),
        out,
    )
    assert np.array_equal(rec, out[0])
    assert (trace[:, 0] == h.T_PLAY).sum() == 48 and (trace[:, 0] == h.T_DRAW).sum() == 24
    trump_row = trace[trace[:, 0] == h.T_TRUMP][0]
    assert trump_row[2] // 6 == trump_row[1] == rec[h.F_TRUMP]  # trump is the turned card's suit
    assert rec[h.F_SIDE_TRICKS] % 10 == 0 and rec[h.F_OTHER_TRICKS] % 10 == 0


def test_no_duty_while_the_stock_lasts_then_the_playoff_duties():
    # random play breaks suit in the stock tricks (no duty), never in the playoff (the referee checks)
    pol = parse_policies("random", 2)
    reneged = 0
    for seed in range(40):
        _, trace = trace_hand(TWO, seed, pol)
        hands = [[0] * 24, [0] * 24]
        for code, a, b, c in trace.tolist():
            if code in (h.T_DEAL, h.T_DRAW) and a < 2:
                hands[a][b] += c
            elif code == h.T_EXCHANGE:
                hands[a][b] += 1
                hands[a][trace[trace[:, 0] == h.T_TRUMP][0, 1] * 6 + 5] -= 1
        plays = trace[trace[:, 0] == h.T_PLAY][:24]  # the stock tricks
        for lead, follow in zip(plays[0::2], plays[1::2]):
            reneged += lead[2] // 6 != follow[2] // 6  # a suit broken, possibly while holding it
        assert referee(TWO, trace.tolist())
    assert reneged > 100


def test_a_turned_dix_scores_ten_for_the_dealer():
    pol = parse_policies("heuristic", 2)
    for seed in range(200):
        rec, trace = trace_hand(TWO, seed, pol)
        turned = trace[trace[:, 0] == h.T_TRUMP][0, 2]
        melds = trace[trace[:, 0] == h.T_MELDED]
        if turned % 6 == 5:
            assert tuple(melds[0]) == (h.T_MELDED, 1, st.SM_DIX, 10)
            assert not (trace[:, 0] == h.T_EXCHANGE).any()  # a nine is not exchanged for a nine
            return
    pytest.fail("no turned nine in 200 deals")


def test_declaring_out_stops_the_hand_at_the_target_and_the_referee_agrees():
    pol = parse_policies("heuristic", 2)
    need = np.array([60, 60])
    for seed in range(20):
        rec, trace, seats = trace_hand(TWO, seed, pol, need=need, with_seats=True)
        assert rec[h.F_OUTCOME] == h.DECLARED_OUT
        out = trace[trace[:, 0] == h.T_OUT]
        assert len(out) == 1 and out[0, 2] >= 60
        seat = out[0, 1]
        assert seats[seat] == out[0, 2]  # the count it declared on is what the hand adds to its score
        expected = referee(TWO, trace.tolist(), need=need.tolist())
        assert expected == dict(zip(h.FIELDS, rec.tolist()))
        with pytest.raises(AssertionError, match="declared out"):
            referee(TWO, trace.tolist(), need=[int(out[0, 2]) + 10] * 2)
        with pytest.raises(AssertionError, match="declared out"):
            referee(TWO, trace.tolist())  # no target: no declaring


def test_the_referee_catches_broken_stock_play():
    pol = parse_policies("heuristic", 2)
    rows = None
    for seed in range(50):
        _, trace = trace_hand(TWO, seed, pol)
        rows = trace.tolist()
        melds = [i for i, r in enumerate(rows) if r[0] == h.T_MELDED and r[2] != st.SM_DIX and i > 10]
        if melds:
            break
    i = melds[0]
    seat = rows[i][1]
    loser = [r for r in rows[:i] if r[0] == h.T_TRICK][-1]
    assert loser[1] == seat
    cases = {
        "melded after a trick it did not win": rows[:i] + [[h.T_MELDED, 1 - seat, *rows[i][2:]]] + rows[i + 1 :],
        "two melds in one turn": rows[: i + 1] + [rows[i]] + rows[i + 1 :],
        "scored": rows[:i] + [[*rows[i][:3], rows[i][3] + 10]] + rows[i + 1 :],
    }
    draws = [j for j, r in enumerate(rows) if r[0] == h.T_DRAW]
    a, b = draws[0], draws[1]
    cases["should draw"] = rows[:a] + [rows[b], rows[a]] + rows[b + 1 :]
    for message, broken in cases.items():
        with pytest.raises(AssertionError, match=message):
            referee(TWO, broken)


def test_two_hand_games_end_by_declaring_out_and_match_the_reference():
    pol = parse_policies("heuristic", 2)
    records, _ = game_records(TWO, 200, seed=2, policies=pol)
    declared = records[:, g.GF_DECLARED]
    assert np.all(declared == 1)  # the policies declare once they are sure, never too early
    winner = records[:, g.GF_WINNER]
    assert np.all(records[np.arange(200), g.GF_SCORE_0 + winner] >= 1000)
    for game in range(0, 200, 20):
        assert reference_game(TWO, 2, game, pol) == dict(zip(g.GAME_FIELDS, records[game].tolist()))
    # without declaring, games run to the end of a hand and both may pass the target: play on
    plain = load_variant("two-hand", ["game.declare_out=false"])
    records, _ = game_records(plain, 300, seed=2, policies=pol)
    assert np.all(records[:, g.GF_DECLARED] == 0) and np.all(records[:, g.GF_WINNER] >= 0)
    assert (records[:, g.GF_TARGET] > 1000).any()
    for game in range(0, 300, 30):
        assert reference_game(plain, 2, game, pol) == dict(zip(g.GAME_FIELDS, records[game].tolist()))


def test_the_heuristic_outscores_random_play_from_either_seat():
    # the heuristic keeps its meld cards, shows its dixes and melds every time; random play does not
    from simcore.answers.simulate import hand_records

    for policies in ("heuristic,random", "random,heuristic"):
        rec = hand_records(TWO, 4000, 9, parse_policies(policies, 2))
        seat0, seat1 = rec[:, h.F_SIDE_SCORE].mean(), rec[:, h.F_OTHER_SCORE].mean()
        heuristic, random = (seat0, seat1) if policies.startswith("heuristic") else (seat1, seat0)
        assert heuristic > random + 50, (policies, seat0, seat1)


def test_the_copy_played_is_chosen_without_numba_too():
    # most_used compares (bits set, mask) keys; in plain numpy uint8 arithmetic the key overflowed
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np\nfrom simcore.kernels import stock\n"
        "usage = np.zeros((24, 8), dtype=np.uint8); hand = np.zeros(24, dtype=np.uint8)\n"
        "hand[3] = 2; usage[3, 0] = 0b1; usage[3, 1] = 0b111\n"
        "print(stock.most_used(usage, hand, 3))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr[-500:]
