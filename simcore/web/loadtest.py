"""A bounded load test of ``pinochle serve`` on loopback: ``clients`` threads for ``seconds`` seconds,
each sending a mix of requests (pages, the deck, meld, the deal viewer with a late trick's
double-dummy values as a job, and small bid-advice, odds, held-odds and widow's-worth jobs polled to the
end), then a summary: requests, errors, the
queue's "busy" answers (429, retried after a pause, as a page would), and p50/p95 latency by kind.

    python -m simcore.web.loadtest                       # starts its own server on a free port
    python -m simcore.web.loadtest --url http://127.0.0.1:8000 --clients 20 --seconds 30

It stops by itself; it is not part of the test suite (it runs for ``seconds``). Exit status 1 when any
request failed or the server stopped answering.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict

HANDS = [
    "AS 10S KS QS JS 9S AH KH QH AD JD QC",
    "AS AS 10S KS QS QS JS JD JD KH QH 9S",
    "AH AH 10H KH QH JH 9H AS KS QS JD QC",
    "AD 10D KD QD JD 9D AC AC KC QC JS QS",
]

#: Whole auction hands (15 cards) for the widow's worth.
WIDOW_HANDS = [
    "AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD",
    "AS AH AD AC KS KH KD KC QS QH QD QC JD JS 9S",
]


def _call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict | str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            text = r.read().decode()
            status = r.status
    except urllib.error.HTTPError as e:
        text, status = e.read().decode(), e.code
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.busy = 0

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latency[kind].append(seconds)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def _job(base: str, path: str, body: dict, tally: Tally, deadline: float) -> dict | None:
    """Submit a job (again after a pause while the queue is full) and poll it to the end."""
    while True:
        status, job = _call(base + path, "POST", body)
        if status != 429:
            break
        with tally.lock:
            tally.busy += 1
        if time.monotonic() > deadline:
            return None
        time.sleep(0.5)
    if status != 202:
        tally.error(f"{path}: {status} {str(job)[:120]}")
        return None
    while job["status"] in ("queued", "running"):
        time.sleep(0.2)
        status, job = _call(f"{base}/api/jobs/{job['id']}")
        if status != 200 and status != 202:
            tally.error(f"job {path}: {status}")
            return None
    if job["status"] != "done":
        tally.error(f"job {path}: {job['status']} {job['error']}")
    return job


def client(base: str, seed: int, deadline: float, tally: Tally) -> None:
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        hand = rng.choice(HANDS)
        kind = rng.choices(
            ["page", "deck", "meld", "deal", "advise", "odds", "hold", "widow"], [3, 2, 4, 2, 1, 1, 1, 1]
        )[0]
        start = time.monotonic()
        try:
            if kind == "page":
                status, _ = _call(base + rng.choice(["/", "/odds", "/house-rules", "/cards", "/deal"]))
            elif kind == "deck":
                status, _ = _call(base + "/api/deck", "POST", {"variant": rng.choice(["four-hand-150", "double-deck"])})
            elif kind == "meld":
                status, _ = _call(base + "/api/meld", "POST", {"hand": hand})
            elif kind == "deal":
                seed = rng.randrange(1, 50)
                status, view = _call(base + "/api/deal", "POST", {"seed": seed, "then": "finish", "values": False})
                if status == 200:  # then a late trick's view and its values, as the page asks for them
                    moves = view["moves"][: len(view["moves"]) - 4 * rng.randrange(1, 4)]
                    status, _ = _call(base + "/api/deal", "POST", {"seed": seed, "moves": moves, "values": False})
                if status == 200:
                    job = _job(base, "/api/deal-values", {"seed": seed, "moves": moves}, tally, deadline + 60)
                    if job is None or job["status"] != "done":
                        continue  # _job counted the error (or the queue stayed full past the deadline)
            else:
                path, body = {
                    "advise": ("/api/advise", {"hand": hand, "hands": 2000, "seed": rng.randrange(99)}),
                    "odds": ("/api/odds", {"hands": 100_000, "seed": rng.randrange(99)}),
                    "hold": ("/api/hold-odds", {"hand": hand, "hands": 20_000}),
                    "widow": ("/api/widow", {"hand": rng.choice(WIDOW_HANDS), "variant": "auction"}),
                }[kind]
                job = _job(base, path, body, tally, deadline + 60)
                status = 200 if job is not None and job["status"] == "done" else 0
        except OSError as exc:  # the server stopped answering
            tally.error(f"{kind}: {type(exc).__name__}: {exc}")
            continue
        if status not in (200, 202) and kind not in ("advise", "odds", "hold", "widow"):
            tally.error(f"{kind}: status {status}")
        elif status in (200, 202):
            tally.add(kind, time.monotonic() - start)


def _quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1] if len(values) > 1 else values[0]


def run(base: str, clients: int, seconds: float) -> tuple[Tally, float]:
    tally = Tally()
    start = time.monotonic()
    deadline = start + seconds
    threads = [threading.Thread(target=client, args=(base, i, deadline, tally)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return tally, time.monotonic() - start


def _own_server() -> str:
    """The app on a free loopback port in this process, warmed up."""
    import uvicorn

    from simcore.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    app = create_app()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while app.state.warmup.state not in ("ready", "failed"):
        time.sleep(0.2)
    return f"http://127.0.0.1:{sock.getsockname()[1]}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m simcore.web.loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running server (default: start one here)")
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--seconds", type=float, default=30.0)
    args = p.parse_args(argv)
    base = (args.url or _own_server()).rstrip("/")
    tally, took = run(base, args.clients, args.seconds)
    up, _ = _call(base + "/api/status")
    total = sum(len(v) for v in tally.latency.values())
    print(
        f"{args.clients} clients, {took:.1f} s: {total} requests answered ({total / took:.1f}/s), "
        f"{len(tally.errors)} errors, {tally.busy} busy answers (429, retried), server "
        f"{'up' if up == 200 else 'DOWN'} after"
    )
    print(f"{'kind':<8} {'n':>6} {'p50 ms':>9} {'p95 ms':>9}")
    for kind in sorted(tally.latency):
        v = tally.latency[kind]
        print(f"{kind:<8} {len(v):>6} {1000 * _quantile(v, 0.5):>9.0f} {1000 * _quantile(v, 0.95):>9.0f}")
    quick = [x for k in ("page", "deck", "meld") for x in tally.latency.get(k, [])]
    if quick:
        print(
            f"{'quick':<8} {len(quick):>6} {1000 * _quantile(quick, 0.5):>9.0f} {1000 * _quantile(quick, 0.95):>9.0f}"
            "  (pages, deck, meld)"
        )
    for e in tally.errors[:10]:
        print("error:", e)
    return 1 if tally.errors or up != 200 else 0


if __name__ == "__main__":
    raise SystemExit(main())
