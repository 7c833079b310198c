"""A trial of depth-first proof-number search (df-pn, Nagai 2002) for the solver's threshold question ("can
the bidding side take at least T?"), in plain Python over the kernel's own legal cards, move classes and
order, relative-rank keys and bounds, to count the trick starts it evaluates against alpha-beta's on the
same questions (docs/solver.md, "Proof-number search"). Every answer is checked against the kernel's.

    python -m analyses.dfpn_trial VARIANT end8|whole SEEDS [EPS [one|bounds [ORDER [AB_BELOW]]]]

``end8``: the last 8 tricks of each seed's hand, at least its exact value and one more; ``whole``: the
whole deal, at least the contract's need (``pinochle dd-odds``' question). EPS: the 1+eps trick; one|bounds:
a fresh trick start's numbers 1 and 1, or from how far its bounds leave the need; ORDER: the k-th move of
the kernel's order ORDER*k harder; AB_BELOW: trick starts with that many tricks left or fewer are settled
by the kernel's alpha-beta (sharing its table), its trick starts counted."""

from __future__ import annotations

import sys

import numpy as np

from simcore.kernels.play import SUIT_OF, beats
from simcore.solver import kernel as K

INF = 10**9
_NO_TRICK = np.zeros(1, dtype=np.int64)


class DfPn:
    def __init__(self, w, leader, target, eps=0.0, init="one", bounds=True, order=0, ab_below=0):
        self.ab_below = ab_below
        self.w = w
        self.players = w.held.shape[0]
        self.trump = int(w.dyn[K.Y_TRUMP])
        self.last = int(w.rules[K.R_LAST_TRICK])
        self.points = [int(p) for p in w.points]
        self.side = [int(s) for s in w.side]
        self.root_leader = leader
        self.target = target
        self.eps = eps
        self.init = init
        self.use_bounds = bounds
        self.pn: dict = {}  # node key -> (pn, dn)
        self.bound: dict = {}  # position key (no need) -> [lower, upper] on the value from its trick start
        self.evals = 0  # trick-start evaluations (key + table + bounds): alpha-beta's "trick starts"
        self.visits = 0  # calls of mid, every ply
        self.expansions = 0
        self.fresh = None
        self.made = set()
        self.base = {}
        self.order = order

    # --- state -------------------------------------------------------------------------------------
    def play(self, seat, t):
        w = self.w
        c = w.hands[seat, t]
        w.hands[seat, t] = c - 1
        if c == 1:
            w.held[seat] &= ~(np.int64(1) << t)
        w.dyn[K.Y_REMAINING] -= self.points[t]

    def unplay(self, seat, t):
        w = self.w
        w.hands[seat, t] += 1
        w.held[seat] |= np.int64(1) << t
        w.dyn[K.Y_REMAINING] += self.points[t]

    def relative_map(self):
        """Each card type's code by relative rank among the types held now (trick start)."""
        w = self.w
        held = np.bitwise_or.reduce(w.held)
        codes = [-1] * 24
        for s in range(4):
            j = 0
            for r in range(6):
                t = s * 6 + r
                if (held >> t) & 1:
                    codes[t] = s * 6 + j
                    j += 1
        return codes

    # --- evaluation at a trick start ----------------------------------------------------------------
    def evaluate_start(self, leader, need, pkey):
        """(pn, dn) of a trick start from what is known without search, or None to search it."""
        w = self.w
        left = int(w.dyn[K.Y_LEFT])
        if need <= 0:
            return 0, INF
        remaining = int(w.dyn[K.Y_REMAINING])
        if left == 0 or remaining < need:
            return INF, 0
        if left == 1:
            v = int(K._last_trick(w, leader))
            return (0, INF) if v >= need else (INF, 0)
        self.evals += 1
        b = self.bound.get(pkey)
        if b is not None:
            if b[0] >= need:
                return 0, INF
            if b[1] < need:
                return INF, 0
        if left <= self.ab_below:
            # alpha-beta (the kernel, sharing its table) settles the trick starts near the end
            before = int(w.dyn[K.Y_NODES])
            yes = K.threshold_kernel(w, np.int64(leader), _NO_TRICK, 0, np.int64(need))
            self.evals += int(w.dyn[K.Y_NODES]) - before - 1
            self.keep(pkey, need, yes == 1)
            return (0, INF) if yes == 1 else (INF, 0)
        if self.use_bounds:
            lo, up = K._bounds(w, leader)
            if lo >= need:
                return 0, INF
            if up < need:
                return INF, 0
            if self.init == "bounds":
                # a fresh trick start's numbers from how far its bounds leave the need
                self.fresh = (1 + max(0, need - int(lo)), 1 + max(0, int(up) - need + 1))
        return None

    def keep(self, pkey, need, proven):
        b = self.bound.setdefault(pkey, [-1, 1 << 14])
        if proven:
            b[0] = max(b[0], need)
        else:
            b[1] = min(b[1], need - 1)

    # --- df-pn --------------------------------------------------------------------------------------
    def solve(self):
        w = self.w
        leader = self.root_leader
        tkey = K._key(w, leader)
        codes = self.relative_map()
        node = Node(0, leader, self.target, tkey, codes, (), (0, leader, 0, 0, 0, 0, 0, 0))
        r = self.evaluate_start(leader, self.target, (tkey, ()))
        if r is not None:
            return r[0] == 0
        self.mid(node, INF - 1, INF - 1, 0)
        pn, dn = self.pn[node.key]
        assert pn == 0 or dn == 0, (pn, dn)
        return pn == 0

    def children(self, node, ply):
        """The node's moves (one per class of equivalent cards, in the kernel's order)."""
        w = self.w
        i, leader = node.trick[0], node.trick[1]
        seat = (leader + i) % self.players
        legal = K.legal_now(w, seat, tuple(np.int64(x) for x in node.trick))
        w.frames[ply, K.G_KILLER] = 0
        n = K._moves(w, ply, seat, legal, tuple(np.int64(x) for x in node.trick), np.int64(-1))
        return seat, [int(t) for t in w.moves[ply, :n]]

    def enter_child(self, node, seat, t):
        """Play ``t`` and return (child node, undo info, terminal (pn, dn) or None)."""
        w = self.w
        i, leader, led, win, win_seat, top, pts, mask = node.trick
        self.play(seat, t)
        broken = int(w.dyn[K.Y_BROKEN])
        if SUIT_OF[t] == self.trump:
            w.dyn[K.Y_BROKEN] = 1
        if i == 0:
            led, win, win_seat, top = int(SUIT_OF[t]), t, seat, t
        else:
            if beats(t, win, self.trump):
                win, win_seat = t, seat
            if SUIT_OF[t] == led and t < top:
                top = t
        pts += self.points[t]
        undo = (seat, t, broken, int(w.dyn[K.Y_FIRST]), int(w.dyn[K.Y_LEFT]))
        if i == self.players - 1:
            left = int(w.dyn[K.Y_LEFT])
            if left == 1:
                pts += self.last
                w.dyn[K.Y_REMAINING] -= self.last
            ours = pts if self.side[win_seat] == 1 else 0
            w.dyn[K.Y_FIRST] = 0
            w.dyn[K.Y_LEFT] = left - 1
            need = node.need - ours
            tkey = K._key(w, win_seat)
            codes = self.relative_map()
            child = Node(0, win_seat, need, tkey, codes, (), (0, win_seat, 0, 0, 0, 0, 0, 0))
            self.fresh = None
            term = self.evaluate_start(win_seat, need, (tkey, ()))
            if term is None and self.fresh is not None and child.key not in self.pn:
                self.pn[child.key] = self.fresh
                self.made.add(child.key)
        else:
            child = Node(
                i + 1,
                leader,
                node.need,
                node.tkey,
                node.codes,
                node.played + (node.codes[t],),
                (i + 1, leader, led, win, win_seat, top, pts, mask | (1 << t)),
            )
            term = None
            b = self.bound.get(child.pkey)
            if b is not None:
                if b[0] >= child.need:
                    term = (0, INF)
                elif b[1] < child.need:
                    term = (INF, 0)
        return child, undo, term

    def leave_child(self, undo):
        w = self.w
        seat, t, broken, first, left = undo
        if w.dyn[K.Y_LEFT] != left:  # a completed trick
            if left == 1:
                w.dyn[K.Y_REMAINING] += self.last
            w.dyn[K.Y_LEFT] = left
            w.dyn[K.Y_FIRST] = first
        w.dyn[K.Y_BROKEN] = broken
        self.unplay(seat, t)

    def lookup(self, child, term):
        if term is not None:
            return term
        got = self.pn.get(child.key)
        if got is not None:
            return got
        return (1, 1)

    def mid(self, node, thpn, thdn, ply):
        self.visits += 1
        seat, moves = self.children(node, ply)
        is_or = self.side[seat] == 1
        kids = []
        for k, t in enumerate(moves):
            child, undo, term = self.enter_child(node, seat, t)
            if term is None and self.order > 0:
                if child.key not in self.pn:
                    self.pn[child.key] = (1, 1)
                    self.made.add(child.key)
                if child.key in self.made:  # a fresh node: later moves in the kernel's order look harder
                    self.made.discard(child.key)
                    p, d = self.pn[child.key]
                    self.pn[child.key] = (p + self.order * k, d) if is_or else (p, d + self.order * k)
            self.leave_child(undo)
            kids.append([t, child, term])
        self.expansions += 1
        while True:
            pns, dns = [], []
            for k in kids:
                p, d = self.lookup(k[1], k[2])
                pns.append(p)
                dns.append(d)
            if is_or:
                pn = min(pns)
                dn = min(INF, sum(dns))
            else:
                pn = min(INF, sum(pns))
                dn = min(dns)
            if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
                break
            # the child to search and its thresholds
            if is_or:
                order = sorted(range(len(kids)), key=lambda j: pns[j])
                c = order[0]
                second = pns[order[1]] if len(order) > 1 else INF
                cth_pn = min(thpn, int(second * (1 + self.eps)) + 1 if second < INF else INF)
                cth_dn = thdn - dn + dns[c]
            else:
                order = sorted(range(len(kids)), key=lambda j: dns[j])
                c = order[0]
                second = dns[order[1]] if len(order) > 1 else INF
                cth_dn = min(thdn, int(second * (1 + self.eps)) + 1 if second < INF else INF)
                cth_pn = thpn - pn + pns[c]
            t, child, term = kids[c]
            child2, undo, term2 = self.enter_child(node, seat, t)
            if term2 is not None:
                kids[c][2] = term2
            else:
                self.mid(child2, min(cth_pn, INF - 1), min(cth_dn, INF - 1), ply + 1)
            self.leave_child(undo)
        self.pn[node.key] = (pn, dn)
        if pn == 0:
            self.keep(node.pkey, node.need, True)
        elif dn == 0:
            self.keep(node.pkey, node.need, False)


class Node:
    __slots__ = ("i", "leader", "need", "tkey", "codes", "played", "trick", "pkey", "key")

    def __init__(self, i, leader, need, tkey, codes, played, trick):
        self.i, self.leader, self.need, self.tkey, self.codes, self.played, self.trick = (
            i,
            leader,
            need,
            tkey,
            codes,
            played,
            trick,
        )
        self.pkey = (tkey, played)
        self.key = (tkey, played, need)


def main() -> None:
    from simcore.answers.dd_make import contract
    from simcore.kernels.policies import parse_policies
    from simcore.solver.position import _loaded, seeded_position, solve
    from simcore.variants import load_variant

    sys.setrecursionlimit(10000)
    variant_id, mode = sys.argv[1], sys.argv[2]
    seeds = [int(s) for s in sys.argv[3].split(",")]
    eps = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    init = sys.argv[5] if len(sys.argv) > 5 else "one"
    order = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    ab_below = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    v = load_variant(variant_id)
    import time

    for seed in seeds:
        if mode.startswith("end"):
            p = seeded_position(v, seed, tricks_played=v.hand_size - int(mode[3:]))
            exact = solve(p).side_points
            questions = [exact, exact + 1]
        else:
            c = contract(v, seed, parse_policies("heuristic", v.players))
            if c is None or c.need <= 0:
                continue
            p = c.position
            questions = [c.need]
        for target in questions:
            ab = solve(p, target)
            w = _loaded(p)
            d = DfPn(w, p.leader, target, eps=eps, init=init, order=order, ab_below=ab_below)
            t0 = time.perf_counter()
            got = d.solve()
            sec = time.perf_counter() - t0
            assert got == ab.reaches, (seed, target, got, ab.reaches)
            print(
                f"seed {seed} at least {target}: {got!s:5} alpha-beta {ab.nodes:>10,}  "
                f"df-pn evals {d.evals:>10,} visits {d.visits:>10,} expansions {d.expansions:>9,} "
                f"({sec:.1f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
