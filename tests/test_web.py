"""``pinochle serve``'s app through FastAPI's test client: every page loads with its assets from the
package, each JSON route gives simcore.api's numbers for the same arguments, bad input is a 4xx with
one line and the field it belongs to, jobs report progress, cancel and stop at the time cap, the queue
is bounded, and no name from the browser reaches the file system."""

import csv
import json
import re
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="pinochle serve needs fastapi (pip install -e .)")
pytest.importorskip("httpx", reason="the test client needs httpx (pip install -e .[dev])")

from fastapi.testclient import TestClient

from simcore import api
from simcore.web.app import PAGES, Warmup, create_app
from simcore.web.jobs import Busy, Job, Jobs

HAND = "AS 10S KS QS JS 9S AH KH QH AD JD QC"


@pytest.fixture(scope="module")
def client():
    """The app without its warm-up, and a time cap long enough for numba's first compile on a cold cache
    (the served app compiles before it starts any job)."""
    with TestClient(create_app(Jobs(seconds=900), warm=False)) as c:
        yield c


def finished(client, response, seconds: float = 120) -> dict:
    """The job a POST started, polled until it ends."""
    assert response.status_code == 202, response.text
    job = response.json()
    end = time.monotonic() + seconds
    while job["status"] in ("queued", "running") and time.monotonic() < end:
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


def as_json(value):
    """``value`` as the server sends it (keys as strings)."""
    return json.loads(json.dumps(value))


def rows_equal(got: list[dict], frame, columns) -> None:
    want = frame[columns].to_dict("records")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        for c in columns:
            assert (
                g[c] == pytest.approx(w[c], rel=1e-12, nan_ok=True)
                if isinstance(w[c], float)
                else g[c] == str(w[c])
                if hasattr(w[c], "value")
                else g[c] == w[c]
            ), (c, g[c], w[c])


def test_every_page_loads_with_assets_from_the_package(client):
    for path, title in PAGES:
        r = client.get(path)
        assert r.status_code == 200 and f"<h1>{title}</h1>" in r.text
        assert "http://" not in r.text.replace("http://www.w3.org", "") and "https://" not in r.text
        for asset in ("/static/style.css", "/static/app.js"):
            assert asset in r.text
    for asset in ("style.css", "app.js", "hand.js", "chart.js", "odds.js", "house.js", "deal.js", "cards.js"):
        r = client.get(f"/static/{asset}")
        assert r.status_code == 200 and len(r.text) > 500
        assert "https://" not in r.text and "cdn" not in r.text.lower()
    assert client.get("/openapi.json").json()["paths"]["/api/advise"]["post"]
    for docs in ("/docs", "/redoc"):  # the API's pages, their scripts and styles from a package: no CDN
        r = client.get(docs)
        assert r.status_code == 200 and "cdn" not in r.text.lower()
        assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css|png))"', r.text)
        assert assets and all(a.startswith("/static-offline-docs/") for a in assets), assets
        for asset in assets:
            got = client.get(asset)
            assert got.status_code == 200 and len(got.content) > 1000, asset


def test_variants_and_meld_are_the_apis(client):
    assert client.get("/api/variants").json() == api.variants().to_dict("records")
    got = client.post("/api/meld", json={"hand": HAND, "variant": "partnership"}).json()
    want = api.meld(HAND, "partnership")
    assert [(r["trump"], r["total"], r["meld"], r["points"]) for r in got] == [
        (r.trump, r.total, r.meld, r.points) for r in want.itertuples()
    ]


def test_deck_lists_the_systems_cards(client):
    d = client.post("/api/deck", json={"variant": "double-deck"}).json()
    assert d["players"] == 4 and d["hand_size"] == 20 and len(d["cards"]) == 20  # no nines
    assert {c["copies"] for c in d["cards"]} == {4} and not any(c["card"].startswith("9") for c in d["cards"])


def test_advise_job_gives_the_apis_curve_and_the_50_75_bids(client):
    job = finished(client, client.post("/api/advise", json={"hand": HAND, "hands": 1000, "seed": 4}))
    frame = api.advise(HAND, hands=1000, seed=4)
    # the progress counts the hands played, then the deals of partner's meld
    assert (
        job["status"] == "done"
        and job["done"] == job["total"] == 1000 + frame.attrs["headline"]["partner_meld"]["deals"]
    )
    assert [(r["bid"], r["made"], r["lo"], r["hi"]) for r in job["result"]["rows"]] == [
        (r.bid, r.made, pytest.approx(r.lo, rel=1e-12), pytest.approx(r.hi, rel=1e-12)) for r in frame.itertuples()
    ]
    assert job["result"]["highest"] == frame.attrs["highest"]


def test_advise_job_with_a_condition_gives_the_apis_partner_meld(client):
    given = "partner: meld>=4"
    job = finished(client, client.post("/api/advise", json={"hand": HAND, "hands": 500, "seed": 2, "given": given}))
    frame = api.advise(HAND, hands=500, seed=2, given=given)
    assert job["status"] == "done", job
    assert job["result"]["headline"]["partner_meld"] == as_json(frame.attrs["headline"]["partner_meld"])
    assert job["result"]["acceptance"] == as_json(frame.attrs["acceptance"])
    assert job["result"]["headline"]["partner_meld"]["mean"]["estimate"] >= 4  # every deal kept meets it
    held = finished(client, client.post("/api/hold-odds", json={"hand": HAND, "hands": 2000, "given": given}))
    want = api.odds(hands=2000, hold=HAND, given=given)
    assert [(r["event"], r["place"], r["estimate"]) for r in held["result"]["rows"]] == [
        (r.event, r.place, pytest.approx(r.estimate, rel=1e-12)) for r in want.itertuples()
    ]


@pytest.mark.parametrize("given, words", [("left: aces>=7", "no deal meets it"), ("left: AS=3", "it places")])
def test_a_condition_refused_once_counted_fails_on_its_field(client, given, words):
    job = finished(client, client.post("/api/advise", json={"hand": HAND, "hands": 500, "given": given}))
    assert job["status"] == "failed" and job["field"] == "given" and words in job["error"], job


WIDOW_HAND = "AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD"


def test_widow_job_is_the_apis_exact_worth(client):
    job = finished(client, client.post("/api/widow", json={"hand": WIDOW_HAND, "variant": "auction"}))
    frame = api.widow(WIDOW_HAND, "auction")
    assert job["status"] == "done", job
    rows_equal(job["result"]["rows"], frame, ["trump", "before", "mean_after", "mean_gain", "widows"])
    for key in ("gain", "best", "likeliest", "trump_after_widow", "distinct_widows"):
        assert job["result"][key] == frame.attrs[key], key
    assert job["done"] == job["total"] == frame.attrs["distinct_widows"]  # progress counts distinct widows
    deck = client.post("/api/deck", json={"variant": "auction"}).json()
    assert deck["widow_worth"] and not client.post("/api/deck", json={}).json()["widow_worth"]


def test_a_widow_count_reports_progress_and_cancels():
    from simcore.run.runner import Execution, Stopped, executing

    seen = []
    with executing(Execution(progress=lambda done, total: seen.append((done, total)))):
        w = api.widow(WIDOW_HAND, "auction")
    n = w.attrs["distinct_widows"]
    assert seen[0] == (0, n) and seen[-1] == (n, n) and len(seen) > 100
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    stop = threading.Event()

    def progress(done, total):
        if done:
            stop.set()  # as a Cancel button pressed while the count runs

    with pytest.raises(Stopped), executing(Execution(stop=stop, progress=progress)):
        api.widow(WIDOW_HAND, "auction")


def test_hold_and_dealt_odds_jobs_are_the_apis(client):
    job = finished(
        client,
        client.post(
            "/api/hold-odds", json={"hand": HAND, "events": ["run", "pinochle"], "hands": 4000, "variant": "auction"}
        ),
    )
    frame = api.hold_odds(HAND, ["run", "pinochle"], "auction", hands=4000)
    assert [(r["event"], r["place"], r["estimate"]) for r in job["result"]["rows"]] == [
        (r.event, r.place, pytest.approx(r.estimate, rel=1e-12)) for r in frame.itertuples()
    ]
    job = finished(client, client.post("/api/odds", json={"events": ["roundhouse"], "hands": 8000, "seed": 5}))
    frame = api.odds("roundhouse", hands=8000, seed=5)
    assert [(r["per"], r["estimate"], r["exact"]) for r in job["result"]["rows"]] == [
        (r.per, pytest.approx(r.estimate, rel=1e-12), pytest.approx(r.exact, rel=1e-12)) for r in frame.itertuples()
    ]


@pytest.mark.parametrize(
    "path, body, field, words",
    [
        ("/api/meld", {"hand": "AS ZZ"}, "hand", "not a card"),
        ("/api/meld", {"hand": "AS AS AS"}, "hand", "AS"),
        ("/api/meld", {"hand": HAND, "variant": "no-such-game"}, "variant", "not a shipped rules id"),
        ("/api/meld", {"hand": HAND, "variant": "../../pyproject.toml"}, "variant", "never a file"),
        ("/api/meld", {"hand": HAND, "rules_text": "id = = 3"}, "rules", "not valid TOML"),
        ("/api/meld", {"hand": HAND, "rules_text": 'id = "x"\nextends = "/etc/hosts.toml"'}, "rules", "never a file"),
        ("/api/meld", {"hand": HAND, "rules_text": "x" * 20_001}, "rules", "20,001 characters; at most 20,000"),
        ("/api/advise", {"hand": HAND, "hands": 10**9}, "hands", "Deals (hands) = 1000000000: at most 200,000"),
        ("/api/advise", {"hand": HAND, "seat": 5}, "seat", "seat"),
        ("/api/advise", {"hand": HAND, "variant": "partnership"}, "variant", "no auction"),
        ("/api/advise", {"hand": HAND, "given": "lefty: aces>=3"}, "given", "lefty"),
        ("/api/hold-odds", {"hand": HAND, "given": "partner: meld>>4"}, "given", "not understood"),
        ("/api/widow", {"hand": WIDOW_HAND}, "variant", "no widow"),
        ("/api/widow", {"hand": "AS 10S KS", "variant": "auction"}, "hand", "3 cards"),
        ("/api/widow", {"hand": WIDOW_HAND, "rules_text": 'id = "x"\nextends = "four-hand-150"'}, "rules", "no widow"),
        ("/api/odds", {"events": ["no-such-meld"]}, "events", "no-such-meld"),
        ("/api/compare", {"question": "nope"}, "question", "not a question"),
        ("/api/deal", {"moves": [5]}, "moves", "move 1"),
        ("/api/deal", {"cards": ["AS"] * 5}, "cards", "deck"),
    ],
)
def test_bad_input_is_a_4xx_with_one_line_for_its_field(client, path, body, field, words):
    r = client.post(path, json=body)
    assert 400 <= r.status_code < 500
    error = r.json()
    assert error["field"] == field and words in error["error"] and "\n" not in error["error"]
    assert "Traceback" not in r.text


def test_rules_pasted_as_text_are_used(client):
    text = 'id = "ours"\nname = "Our table"\nextends = "four-hand-150"\n[meld]\ndouble_pinochle = 50\n'
    hand = "QS QS JD JD AH KH 10C KC QC JC 9C 9D"  # a double pinochle: 30 in four-hand-150, 50 at our table
    got = client.post("/api/meld", json={"hand": hand, "rules_text": text}).json()
    shipped = client.post("/api/meld", json={"hand": hand}).json()
    assert got[0]["variant"] == "ours" and shipped[0]["variant"] == "four-hand-150"
    assert [r["points"] for r in got if r["meld"] == "pinochle"][0] == 50
    assert [r["points"] for r in shipped if r["meld"] == "pinochle"][0] == 30


def test_report_files_are_picked_from_a_list_never_joined_to_a_path(client):
    assert client.get("/reports/pyproject.toml").status_code == 404
    assert client.get("/reports/..%2Fpyproject.toml").status_code == 404
    assert client.get("/reports/%2Fetc%2Fpasswd").status_code == 404
    r = client.get("/reports/four-hand-150-card.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png" and r.content[:4] == b"\x89PNG"


def test_bidding_cards_show_their_tables_as_html_linking_report_files_only(client):
    page = client.get("/cards").text
    assert "<th>bid made 50% of the time</th>" in page and "<td>27 [27–28]</td>" in page
    assert 'href="/reports/four-hand-150-card.pdf"' in page and 'href="four-hand-150' not in page
    assert "the cards below are the committed report's" in page.lower() and "make its card" in page.lower()


def test_house_rules_come_from_the_committed_csv(client):
    rows = client.get("/api/house-rules").json()
    assert {r["question"] for r in rows} == set(client.get("/api/questions").json())
    page = client.get("/house-rules").text
    committed = Path(__file__).parent.parent / "reports" / "house-rules-house_rules.csv"
    with committed.open(newline="", encoding="utf-8") as f:
        diff = next(r["diff"] for r in csv.DictReader(f) if r["question"] == "pass-3-vs-4")
    assert "pass-3-vs-4" in page and diff in page  # the committed CSV's number, as the page prints it


def test_compare_job_asks_a_question_of_another_system(client):
    body = {"question": "pass-3-vs-4", "variant": "partnership-auction", "hands": 2000}
    job = finished(client, client.post("/api/compare", json=body))
    assert job["status"] == "done", job
    want = api.compare("partnership-auction", overrides=["exchange.pass_cards=4"], hands=2000)
    got = {r["measure"]: r["estimate"] for r in job["result"]["rows"]}
    assert got == {r.measure: pytest.approx(r.estimate, rel=1e-12) for r in want.itertuples()}


def test_the_deal_viewer_plays_the_hand_the_state_api_plays():
    from simcore.state.players import kernel_policy

    with TestClient(create_app(warm=False)) as client:
        start = client.post("/api/deal", json={"seed": 1, "values": False}).json()
        assert start["to_act"] is not None and start["legal"] and not start["over"]
        end = client.post("/api/deal", json={"seed": 1, "then": "finish", "values": False}).json()
        state, heuristic = api.new_hand("four-hand-150", seed=1), kernel_policy("heuristic")
        while not state.is_terminal():
            state.apply(heuristic(state))
        assert end["over"] and end["returns"] == state.returns() == [8, 70, 8, 70]
        # a card of the page's choosing, then the rest replayed from the moves the page holds
        first = start["legal"][-1]
        after = client.post(
            "/api/deal", json={"seed": 1, "moves": start["moves"] + [first["code"]], "values": False}
        ).json()
        assert first["card"] in [c for _, c in after["trick"]]
        again = client.post("/api/deal", json={"seed": 1, "moves": after["moves"], "values": False}).json()
        assert again == after


def test_where_did_i_go_wrong_is_the_apis_analysis_of_the_hand_played():
    from simcore.state.players import kernel_policy

    with TestClient(create_app(warm=False)) as client:
        end = client.post("/api/deal", json={"seed": 1, "then": "finish", "values": False}).json()
        job = finished(client, client.post("/api/deal-analysis", json={"seed": 1, "moves": end["moves"]}))
        not_over = client.post("/api/deal-analysis", json={"seed": 1, "moves": end["moves"][:-3]})
    assert not_over.status_code == 400 and not_over.json()["field"] == "moves"
    state, heuristic = api.new_hand("four-hand-150", seed=1), kernel_policy("heuristic")
    while not state.is_terminal():
        state.apply(heuristic(state))
    frame = api.analyse(state.played_record())  # every trick, exact or estimated
    got = job["result"]
    assert job["status"] == "done" and got["tricks_left"] == 12 and got["estimated"] > 0
    assert [(d["trick"], d["seat"], d["card"], d["given_up"], d["exact"]) for d in got["decisions"]] == [
        (r.trick, r.seat, r.card, r.given_up, r.exact) for r in frame.itertuples()
    ]


def test_the_deal_viewer_takes_an_entered_deal(client):
    dealt = api.new_hand("four-hand-150", seed=9)
    hands = [" ".join(dealt.observation(s)["hand"]) for s in range(4)]  # as dealt: no widow in four-hand-150
    view = client.post("/api/deal", json={"cards": hands, "values": False, "then": "finish"}).json()
    assert view["over"] and sum(len(t["cards"]) for t in view["tricks"]) == 48
    played = sorted(c for t in view["tricks"] for c in t["cards"])
    assert played == sorted(" ".join(hands).split())


def test_the_deal_viewer_shows_the_hand_before_the_play_and_points_per_side(client):
    from simcore.state.players import kernel_policy

    # auction: the widow as dealt and the bidder's burial, the cards the state API records
    state, heuristic = api.new_hand("auction", seed=1), kernel_policy("heuristic")
    while state.request().kind != "play":
        state.apply(heuristic(state))
    record = state.played_record()["moves"]
    view = client.post("/api/deal", json={"variant": "auction", "seed": 1, "values": False}).json()
    assert view["before_play"][0] == {
        "move": "widow",
        "kind": "widow",
        "cards": [m["card"] for m in record if m["move"] == "deal" and m["seat"] is None for _ in range(m["count"])],
    }
    buried = [m["card"] for m in view["before_play"] if m["move"] == "bury"]
    assert buried == [m["card"] for m in record if m["move"] == "bury"] and len(buried) == 3
    assert view["bids"] == [list(b) for b in state.observation(0)["bids"]] and view["has_auction"]
    # the sides split the seats; their trick points and meld add up to the seats'
    o = state.observation(0)
    assert sorted(s for side in view["sides"] for s in side["seats"]) == [0, 1, 2]
    assert sum(side["tricks"] for side in view["sides"]) == sum(o["points"])
    assert sum(side["meld"] for side in view["sides"]) == sum(o["meld"])
    assert [side["bidding"] for side in view["sides"]].count(True) == 1
    # four-hand-150: partners across, each pass's giver and taker
    view = client.post("/api/deal", json={"seed": 1, "values": False}).json()
    assert [side["seats"] for side in view["sides"]] == [[0, 2], [1, 3]]
    passes = [(m["seat"], m["to"]) for m in view["before_play"] if m["move"] == "pass"]
    assert passes == [(3, 1)] * 3 + [(1, 3)] * 3
    # two-hand: no auction, so no bid and no bidder (not "0 by seat -1"); each seat its own side
    view = client.post("/api/deal", json={"variant": "two-hand", "seed": 1, "values": False}).json()
    assert not view["has_auction"] and view["bidder"] is None and view["bid"] is None
    assert [side["seats"] for side in view["sides"]] == [[0], [1]]
    assert view["before_play"][0]["kind"] == "stock" and view["turned"]


def test_deal_values_agree_with_the_solver():
    """Late in a hand the best card's double-dummy value is the solve of the position, and every value
    is exact."""
    from simcore.solver.position import VALUES_BUDGET

    with TestClient(create_app(warm=False)) as client:
        view = client.post("/api/deal", json={"seed": 3, "values": False}).json()
        while len(view["hands"][0]) > 4 or view["trick"]:
            view = client.post(
                "/api/deal", json={"seed": 3, "moves": view["moves"], "then": "heuristic", "values": False}
            ).json()
        view = client.post("/api/deal", json={"seed": 3, "moves": view["moves"]}).json()
        # the page asks for the same values as a job, card by card
        job = finished(client, client.post("/api/deal-values", json={"seed": 3, "moves": view["moves"]}))
        assert job["status"] == "done" and job["result"]["values"] == view["values"]
        assert job["done"] == job["total"] == VALUES_BUDGET  # progress in trick starts of the budget
        bad = client.post("/api/deal-values", json={"seed": 3, "moves": view["moves"] + [999]})
        assert bad.status_code == 400 and bad.json()["field"] == "moves"
    seat = view["to_act"]
    solved = api.solve(
        "four-hand-150",
        hands=[" ".join(h) for h in view["hands"]],
        trump=view["trump"],
        leader=seat,
        bidder=view["bidder"],
    ).iloc[0]
    mine = (seat - view["bidder"]) % 2 == 0
    assert max(view["values"].values()) == (solved.bidding_side_points if mine else solved.other_side_points)
    assert view["values_exact"] == dict.fromkeys(view["values"], True)
    assert set(view["values"]) == {a["card"] for a in view["legal"]}


def test_deal_values_report_their_trick_starts_and_stop_between_cards():
    from simcore.run.runner import Execution, Stopped, executing
    from simcore.solver.position import VALUES_BUDGET
    from simcore.web.deal import deal_values

    v = shipped_default()
    moves = deal_view_moves_late(v)
    seen = []
    with executing(Execution(progress=lambda done, total: seen.append((done, total)))):
        found = deal_values(v, 3, None, moves)["values"]
    # one report before each card of each round of the deepening, then the whole budget at the end
    assert len(seen) > len(found) and seen[-1] == (VALUES_BUDGET, VALUES_BUDGET)
    assert all(t == VALUES_BUDGET for _, t in seen) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped), executing(Execution(stop=stop)):
        deal_values(v, 3, None, moves)


def deal_view_moves_late(v) -> list[int]:
    """The moves of seed 3 played by the heuristic to the last four tricks."""
    from simcore.web.deal import deal_view

    view = deal_view(v, 3, None, [], "none", False)
    while len(view["hands"][0]) > 4 or view["trick"]:
        view = deal_view(v, 3, None, view["moves"], "heuristic", False)
    return view["moves"]


def test_a_jobs_progress_sums_its_runs():
    job = Job("j", "advise")
    for done, total in ((400, 1000), (1000, 1000), (30, 50), (50, 50)):
        job.progress(done, total)
        if (done, total) == (30, 50):
            assert (job.done, job.total) == (1030, 1050)  # the second run adds to the first, finished one
    assert (job.done, job.total) == (1050, 1050)


def test_jobs_cancel_stop_at_the_time_cap_and_bound_the_queue():
    def until_stopped(job):
        job.progress(0, 10)
        job.stop.wait(30)
        return {"never": True}

    jobs = Jobs(workers=1, waiting=1, seconds=0.3)
    capped = jobs.submit("test", until_stopped)
    queued = jobs.submit("test", until_stopped)
    with pytest.raises(Busy, match="busy"):
        jobs.submit("test", until_stopped)
    assert jobs.cancel(queued.id).status == "cancelled"
    end = time.monotonic() + 10
    while capped.status == "running" and time.monotonic() < end:
        time.sleep(0.02)
    assert capped.status == "failed" and "time cap of 0.3 s" in capped.error and capped.result is None
    running = Jobs(workers=1, seconds=30).submit("test", until_stopped)
    while running.status != "running":
        time.sleep(0.01)
    running.stop.set()
    while running.status == "running":
        time.sleep(0.01)
    assert running.status == "cancelled" and running.total == 10


def test_jobs_wait_for_the_warm_up_before_their_time_cap_starts():
    jobs = Jobs(workers=1, seconds=0.2)
    jobs.ready.clear()  # as while the kernels compile at start
    job = jobs.submit("test", lambda job: {"answer": 42})
    time.sleep(0.4)
    assert job.status == "queued"
    jobs.ready.set()
    end = time.monotonic() + 10
    while job.status != "done" and time.monotonic() < end:
        time.sleep(0.01)
    assert job.result == {"answer": 42}


def until(done, seconds: float = 10) -> None:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.01)


def test_the_answers_jobs_start_while_the_solver_still_compiles():
    answers, solver = Jobs(workers=1, seconds=5), Jobs(workers=1, seconds=5, prefix="dd")
    gate = threading.Event()
    warmup = Warmup(answers.ready, solver.ready, answers=lambda: None, solver=lambda: gate.wait(10))
    warmup.start()
    hand, values = answers.submit("hand", lambda job: {"answer": 1}), solver.submit("values", lambda job: {"answer": 2})
    until(lambda: hand.status == "done")
    time.sleep(0.2)
    seen = warmup.to_json()
    assert hand.result == {"answer": 1} and values.status == "queued"
    assert seen["state"] == "ready" and seen["solver"]["state"] == "warming" and seen["solver"]["seconds"] is None
    gate.set()
    until(lambda: values.status == "done")
    assert values.result == {"answer": 2} and warmup.to_json()["solver"]["state"] == "ready"


def test_a_failed_warm_up_stage_lets_its_jobs_start_and_says_why():
    answers, solver = Jobs(workers=1, seconds=5), Jobs(workers=1, seconds=5, prefix="dd")

    def broken():
        raise RuntimeError("no compiler")

    warmup = Warmup(answers.ready, solver.ready, answers=broken, solver=lambda: None)
    warmup.start()
    until(lambda: solver.ready.is_set())
    seen = warmup.to_json()
    assert answers.ready.is_set() and seen["state"] == "failed" and seen["error"] == "RuntimeError: no compiler"
    assert seen["solver"] == {"state": "ready", "seconds": seen["solver"]["seconds"], "error": None}


def test_the_status_names_each_warm_up_stage():
    with TestClient(create_app(warm=False)) as client:
        warmup = client.get("/api/status").json()["warmup"]
    assert warmup["state"] == "waiting" and warmup["solver"]["state"] == "waiting"


def test_a_run_reports_progress_and_stops_when_asked():
    from simcore.run.runner import Execution, executing

    seen = []
    with executing(Execution(progress=lambda done, total: seen.append((done, total)))):
        api.odds("run", hands=200_000, seed=1)
    assert seen[0] == (0, 50_000) and seen[-1] == (50_000, 50_000) and all(t == 50_000 for _, t in seen)
    stop = threading.Event()
    stop.set()
    with executing(Execution(stop=stop)):
        frame = api.odds("run", hands=200_000, seed=1)
    assert (frame["deals"] == 0).all()


def test_the_deal_viewers_values_do_not_wait_behind_long_answers():
    jobs = Jobs(workers=1, waiting=0, seconds=30)
    gate = threading.Event()
    jobs.submit("long", lambda job: gate.wait(30) and {})
    try:
        with TestClient(create_app(jobs=jobs, warm=False)) as client:
            assert client.post("/api/odds", json={"hands": 1000}).status_code == 429  # the answers' queue is full
            r = client.post("/api/deal-values", json={"seed": 3, "moves": deal_view_moves_late(shipped_default())})
            job = finished(client, r, 60)
            assert job["status"] == "done" and job["id"].startswith("dd") and job["result"]["values"]
            assert client.get("/api/status").json()["solver_jobs_limit"] == 9
    finally:
        gate.set()


def shipped_default():
    from simcore.web.inputs import shipped

    return shipped(api.DEFAULT_VARIANT)


def test_a_full_queue_is_429_with_one_line():
    jobs = Jobs(workers=1, waiting=0, seconds=5)
    gate = threading.Event()
    jobs.submit("block", lambda job: gate.wait(5) and {})
    with TestClient(create_app(jobs=jobs, warm=False)) as client:
        r = client.post("/api/odds", json={"hands": 1000})
        gate.set()
    assert r.status_code == 429 and "busy" in r.json()["error"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--port", "99999"], "not a port number"),
        (["--time-cap", "0"], "positive number of seconds"),
        (["--jobs", "0"], "invalid choice"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(capsys, argv, words):
    from simcore.cli import main

    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_serve_says_when_the_port_is_taken(capsys):
    import socket

    from simcore.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert main(["serve", "--port", str(taken.getsockname()[1])]) == 2
    err = capsys.readouterr().err
    assert "cannot listen there" in err and err.count("\n") == 1


def test_pinochle_serve_prints_its_address_answers_and_stops_on_ctrl_c():
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-c", "from simcore.cli import main; raise SystemExit(main())", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("pinochle: serving on http://127.0.0.1:") and "/docs" in line
        url = line.split()[3]
        with urllib.request.urlopen(url + "api/variants", timeout=60) as r:
            assert r.status == 200 and "four-hand-150" in r.read().decode()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 0
    finally:
        proc.kill()
        proc.wait()


def test_a_job_that_ends_before_its_answer_is_written_is_still_answered_202():
    """A quick job (a warm solver's few cards) can end on its worker before the POST's answer is
    written; the POST still answers 202, and a poll answers 200 once the job has ended."""
    from simcore.web.app import job_response, submitted

    job = Job("quick", "deal-values", status="done", result={"values": {}})
    assert submitted(job).status_code == 202
    assert job_response(job).status_code == 200
    assert job_response(Job("slow", "advise", status="running")).status_code == 202


def test_the_deck_offers_only_events_a_hand_of_it_can_hold(client):
    nines = client.post("/api/deck", json={}).json()
    none = client.post("/api/deck", json={"variant": "double-deck"}).json()
    assert {"five-nines", "redeal"} <= {e["event"] for e in nines["events"]}
    assert not {"five-nines", "redeal"} & {e["event"] for e in none["events"]}  # no nines, no redeal
    assert {e["event"]: e["name"] for e in none["events"]}["aces-around"] == "aces around"
    assert nines["places"] == ["me", "partner", "left", "right", "any_other", "table"]
    job = finished(client, client.post("/api/hold-odds", json={"variant": "double-deck", "hand": "AS", "hands": 400}))
    assert job["status"] == "done", job
    held = {r["event"] for r in job["result"]["rows"]}
    assert "double-aces" in held and not held & {"five-nines", "redeal"}
    assert {r["name"] for r in job["result"]["rows"] if r["event"] == "double-aces"} == {"double aces around"}


def test_meld_rows_carry_the_players_names(client):
    got = client.post("/api/meld", json={"hand": "AS 10S KS QS JS 9S AH KH QH AD JD QC"}).json()
    names = {r["meld"]: r["name"] for r in got if r["meld"]}
    assert names["royal_marriage"] == "royal marriage" and names["run"] == "run" and names["dix"] == "dix"


def test_questions_say_a_and_b_in_a_players_words(client):
    q = client.get("/api/questions").json()["pass-3-vs-none"]
    assert q["sides"] == {"a": "pass 3 cards", "b": "no pass"}
    assert "exchange.pass_cards" not in client.get("/house-rules").text.split('id="committed-data"')[0]


def test_a_card_made_on_demand_is_the_analyses_card_kept_in_the_store_and_read_back(tmp_path, monkeypatch):
    """A system without a committed card (auction), at a small size: the job counts the hands dealt and
    played, its card is the one analyses.card writes for those sections, and a second request reads it
    back from the results store without making it again."""
    import base64

    from analyses import card
    from analyses.section import Sizes
    from simcore.run.store import Store
    from simcore.variants import load_variant
    from simcore.web.made_cards import made_card

    small = Sizes.small()
    monkeypatch.setattr(card, "ON_DEMAND", small)
    store = tmp_path / "results.duckdb"
    with TestClient(create_app(Jobs(seconds=900), warm=False, store=store)) as client:
        assert "auction" not in client.get("/cards").text.split('data-systems="')[1].split('"')[0].split()
        job = finished(client, client.post("/api/card", json={"variant": "auction"}), 300)
        assert job["status"] == "done", job["error"]
        made = job["result"]
        assert made["system"] == "auction" and not made["cached"]
        assert job["done"] == job["total"] == small.dealt + small.played  # hands dealt for the odds, played for bids
        assert made["sizes"] == {"dealt": small.dealt, "played": small.played, "games": small.games}
        assert f"{small.played:,} played out for the bids" in made["markdown"] and made["note"] in made["markdown"]
        assert "<table>" in made["html"] and "bid made 50% of the time" in made["html"]
        assert base64.b64decode(made["png"].removeprefix("data:image/png;base64,"))[:8] == b"\x89PNG\r\n\x1a\n"
        # the same card as analyses.card makes from the same sections (no store)
        direct = made_card(load_variant("auction"), None, small)
        assert direct["markdown"] == made["markdown"] and not direct["cached"]
        # asked again: read back from the store, nothing made (making one would fail here)
        monkeypatch.setattr(card, "card_analyses", lambda v: (_ for _ in ()).throw(AssertionError("made again")))
        again = finished(client, client.post("/api/card", json={"variant": "auction"}), 30)
        assert again["status"] == "done" and again["result"]["cached"]
        assert {k: v for k, v in again["result"].items() if k != "cached"} == {
            k: v for k, v in made.items() if k != "cached"
        }
        bad = client.post("/api/card", json={"rules_text": 'id = "x"\nextends = "nope"'})
    assert bad.status_code == 400 and bad.json()["field"] == "rules" and "\n" not in bad.json()["error"]
    assert list(Store(store).runs()["kernel"]) == ["player-card"]


def test_deal_makeable_is_the_apis_table_and_refuses_bad_deals(client):
    job = finished(client, client.post("/api/deal-makeable", json={"seed": 7, "limit": 2_000, "budget": 100_000}))
    assert job["status"] == "done" and job["done"] == job["total"] == 100_000  # progress: the budget's trick starts
    frame = api.makeable("four-hand-150", seed=7, limit=2_000, budget=100_000)
    assert [c["text"] for c in job["result"]["cells"]] == list(frame["text"])
    given = finished(
        client,
        client.post(
            "/api/deal-makeable",
            json={"cards": job["result"]["hands"] + [""], "exchange": "given", "limit": 2_000, "budget": 100_000},
        ),
    )
    assert given["status"] == "done" and given["result"]["exchange"] == "given" and given["result"]["seed"] is None
    for body, field in (
        ({"cards": ["AS", "KS", "QS", "JS"]}, "cards"),
        ({"variant": "two-hand"}, "variant"),
        ({"exchange": "swap"}, "exchange"),
        ({"seed": -1}, "seed"),
        ({"budget": -1}, "budget"),
        ({"budget": "lots"}, "budget"),
    ):
        bad = client.post("/api/deal-makeable", json=body)
        assert 400 <= bad.status_code < 500 and bad.json()["field"] == field, bad.text
        assert "\n" not in bad.json()["error"]
