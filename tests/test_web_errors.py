"""The JSON API's refusals (``pinochle serve``): no request gets a 500; every refusal is one short line
under a field the page shows (or none, for the body as a whole), quoting at most a short prefix of what
was sent. The fuzz cases are seeded; jobs the fuzz starts are held queued (the warm-up never ends) and
cancelled, so only the answers given in the request are fuzzed here (the jobs' own answers:
tests/test_web.py)."""

import json
import random
import re
import time

import pytest

pytest.importorskip("fastapi", reason="pinochle serve needs fastapi (pip install -e .)")
pytest.importorskip("httpx", reason="the test client needs httpx (pip install -e .[dev])")

from fastapi.testclient import TestClient  # noqa: E402

from simcore.state import MAX_CODE  # noqa: E402
from simcore.web.app import PAGES, create_app  # noqa: E402
from simcore.web.errors import ON_PAGE  # noqa: E402
from simcore.web.jobs import Jobs  # noqa: E402

HAND = "AS 10S KS QS JS 9S AH KH QH AD JD QC"
#: A valid value of each field a request must send.
REQUIRED = {"hand": HAND, "question": "pass-3-vs-4"}
#: The most an error answer may take, in bytes: one line, never the input echoed whole.
MOST_BYTES = 1000


@pytest.fixture(scope="module")
def client():
    """The app with its jobs held queued (as while the kernels compile) and cancelled by the tests that
    start them: a refusal is given in the request, before any job."""
    jobs = Jobs(workers=1, waiting=1000, seconds=5)
    app = create_app(jobs, warm=False)
    with TestClient(app, raise_server_exceptions=False) as c:
        jobs.ready.clear()
        try:
            yield c
        finally:
            for queue in (app.state.jobs, app.state.solver_jobs):
                for job_id in list(queue._jobs):
                    queue.cancel(job_id)
            jobs.ready.set()  # the held workers see their jobs cancelled and end


def bodies(client) -> dict[str, dict]:
    """{POST route: its request model's JSON schema} from the served OpenAPI document."""
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    out = {}
    for path, methods in spec["paths"].items():
        body = methods.get("post", {}).get("requestBody")
        if path.startswith("/api/") and body:
            ref = body["content"]["application/json"]["schema"]["$ref"]
            out[path] = schemas[ref.rsplit("/", 1)[1]]
    return out


def refused(r, status: tuple[int, ...] = (400, 404, 422)) -> dict:
    """The error of a refusal, checked: its status, one line, no more than :data:`MOST_BYTES`."""
    assert r.status_code in status, (r.status_code, r.text[:300])
    assert len(r.content) <= MOST_BYTES, (len(r.content), r.text[:300])
    error = r.json()
    assert set(error) == {"error", "field"} and "\n" not in error["error"] and "Traceback" not in r.text
    return error


def cancel(client, r) -> None:
    if r.status_code == 202:
        client.delete(f"/api/jobs/{r.json()['id']}")


@pytest.mark.parametrize("code", [2147483648, 10**30, -9223372036854775808, -2, MAX_CODE + 1])
@pytest.mark.parametrize("path", ["/api/deal", "/api/deal-values", "/api/deal-analysis"])
def test_a_move_code_out_of_range_is_refused_on_moves_naming_the_range(client, path, code):
    error = refused(client.post(path, json={"moves": [code], "values": False}), (400,))
    assert error["field"] == "moves" and f"0 to {MAX_CODE:,}" in error["error"] and "move 1" in error["error"]
    assert str(code)[:20] in error["error"]


def test_every_string_field_is_bounded_and_a_long_value_is_never_echoed(client):
    long = "x" * 100_000
    seen = 0
    for path, schema in bodies(client).items():
        for key, prop in schema["properties"].items():
            types = {p.get("type") for p in prop.get("anyOf", [prop])}
            items = {p.get("items", {}).get("type") for p in prop.get("anyOf", [prop])}
            if "string" in types:
                value = long
            elif "array" in types and "string" in items:
                value = [long]
            else:
                continue
            r = client.post(path, json={**REQUIRED, key: value})
            error = refused(r, (422,))
            assert error["field"] == ON_PAGE.get(key, key), (path, key, error)
            assert "100,000 characters" in error["error"] and "x" * 50 not in error["error"]
            seen += 1
    assert seen >= 15  # every route's rules, hand, cards, events, given, question, then


def test_a_long_bad_value_is_quoted_by_a_short_prefix_only(client):
    for body in (
        {"hand": "Z" * 400},
        {"hand": HAND, "variant": "y" * 100},
        {"hand": HAND, "rules_text": f"{'k' * 5000} = 1"},
        {"hand": HAND, "rules_text": f'extends = "{"e" * 5000}"'},
    ):
        error = refused(client.post("/api/meld", json=body))
        assert not re.search(r"([A-Za-z])\1{60}", error["error"]), error


@pytest.mark.parametrize(
    "text, line, column",
    [('{"hand": "AS", x}', 1, 16), ('{\n  "hand": "AS",\n  "seat": 0,,\n}', 3, 13), ("{", 1, 2), ("  x", 1, 3)],
)
def test_json_that_does_not_parse_is_told_by_line_and_column(client, text, line, column):
    r = client.post("/api/meld", content=text.encode(), headers={"content-type": "application/json"})
    error = refused(r, (422,))
    assert error["field"] is None
    assert error["error"].startswith(f"the body is not valid JSON (line {line}, column {column})"), error
    with pytest.raises(json.JSONDecodeError) as parsed:  # the place is Python's parser's own
        json.loads(text)
    assert (parsed.value.lineno, parsed.value.colno) == (line, column)


@pytest.mark.parametrize(
    "content, kind, words",
    [
        (b'{"hand": "AS"}', "text/plain", "the body must be JSON (Content-Type: application/json), not text/plain"),
        (b"hand=AS", "application/x-www-form-urlencoded", "must be JSON"),
        (b"[1, 2]", "application/json", "the body must be a JSON object of fields, not a list"),
        (b'"AS"', "application/json", "not a string"),
        (b"", None, "the body is missing"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_told_so(client, content, kind, words):
    headers = {"content-type": kind} if kind else {}
    error = refused(client.post("/api/meld", content=content, headers=headers), (422,))
    assert words in error["error"] and error["field"] is None
    assert "dictionary" not in error["error"]  # pydantic's words, not the API's


@pytest.mark.parametrize(
    "path, body, field, words, not_words",
    [
        ("/api/advise", {"hand": HAND, "seat": 7}, "seat", "seat 7: four-hand-150 seats players 0 to 3", "--seat"),
        ("/api/odds", {"events": ["nope"]}, "events", "GET /api/events", "pinochle odds --list"),
        ("/api/meld", {"hand": HAND, "variant": "nope"}, "variant", "variant = 'nope': not a shipped", "--variant"),
        ("/api/deal", {"then": "later"}, "moves", "then = 'later': one of 'none', 'heuristic' or 'finish'", "pattern"),
        ("/api/odds", {"hands": 10**9}, "hands", "hands = 1000000000: at most 20,000,000", "less than"),
        ("/api/advise", {"hand": HAND, "hands": 5}, "hands", "Deals (hands) = 5: at least 100", "greater"),
        ("/api/compare", {"question": "pass-3-vs-4", "hands": 0}, "hands", "Hands or games (hands) = 0", "greater"),
        ("/api/odds", {"seed": "x"}, "seed", "seed = 'x': should be a valid integer", "Input"),
        ("/api/deal", {"cards": []}, "cards", "cards: 4 hands and the widow", "--"),
        ("/api/meld", {"hand": HAND, "variant": "nope", "rules_text": "  "}, "variant", "not a shipped", "--"),
    ],
)
def test_messages_use_the_webs_words_not_the_command_lines(client, path, body, field, words, not_words):
    error = refused(client.post(path, json=body))
    assert error["field"] == field and words in error["error"] and not_words not in error["error"], error


def page_boxes(client, path: str) -> set[str]:
    return set(re.findall(r'class="error" data-for="([^"]+)"', client.get(path).text))


#: The routes each page calls, and the keys it sends to them (the page's JS: app.js's rules(), hand.js,
#: odds.js, house.js, deal.js's dealBody, cards.js).
PAGE_SENDS = {
    "/": {
        "/api/deck": ["variant", "rules_text"],
        "/api/meld": ["variant", "rules_text", "hand"],
        "/api/advise": ["variant", "rules_text", "hand", "seat", "hands", "seed", "given"],
        "/api/widow": ["variant", "rules_text", "hand"],
        "/api/hold-odds": ["variant", "rules_text", "hand", "hands", "seed", "given"],
    },
    "/odds": {"/api/odds": ["variant", "rules_text", "events", "hands", "seed"]},
    "/house-rules": {"/api/compare": ["question", "variant", "hands"]},
    "/cards": {"/api/deck": ["variant", "rules_text"]},
    "/deal": {
        "/api/deal": ["variant", "rules_text", "seed", "cards", "moves", "values", "then"],
        "/api/deal-values": ["variant", "rules_text", "seed", "cards", "moves"],
        "/api/deal-analysis": ["variant", "rules_text", "seed", "cards", "moves"],
    },
}


def test_the_pages_send_what_their_scripts_send():
    from pathlib import Path

    static = Path(__file__).parent.parent / "simcore" / "web" / "static"
    scripts = "".join(p.read_text(encoding="utf-8") for p in static.glob("*.js"))
    for routes in PAGE_SENDS.values():
        for route, keys in routes.items():
            assert f'"{route}"' in scripts, route
            for key in keys:
                assert re.search(rf"\b{key}\b", scripts), key
    assert {p for p, _ in PAGES} == set(PAGE_SENDS)


def test_every_field_a_page_sends_is_refused_under_a_box_of_that_page(client):
    """A wrong type in each field the page sends: the answer's field is a box on that page."""
    for page, routes in PAGE_SENDS.items():
        boxes = page_boxes(client, page)
        for route, keys in routes.items():
            for key in keys:
                r = client.post(route, json={**REQUIRED, key: {"not": "this"}})
                error = refused(r, (422,))
                assert error["field"] in boxes, (page, route, key, error, boxes)
                assert error["field"] == ON_PAGE.get(key, key)
    # and the refusals given after the fields fit land on boxes too
    assert {"rules", "variant"} <= page_boxes(client, "/")
    r = client.post("/api/meld", json={"hand": HAND, "rules_text": "id = = 3"})
    assert refused(r)["field"] == "rules"


def test_rules_of_extends_alone_are_used_with_the_parents_id(client):
    r = client.post("/api/deck", json={"rules_text": 'extends = "four-hand-150"\n'})
    assert r.status_code == 200, r.text
    assert r.json()["variant"] == "four-hand-150"
    text = 'extends = "four-hand-150"\n[meld]\ndouble_pinochle = 50\n'
    hand = "QS QS JD JD AH KH 10C KC QC JC 9C 9D"  # a double pinochle
    rows = client.post("/api/meld", json={"hand": hand, "rules_text": text}).json()
    assert rows[0]["variant"] == "four-hand-150+meld.double_pinochle=50"
    assert [r["points"] for r in rows if r["meld"] == "pinochle"][0] == 50


def test_a_house_rule_question_that_changes_nothing_in_the_system_is_refused_at_once(client):
    start = time.monotonic()
    r = client.post("/api/compare", json={"question": "five-nines-redeal", "variant": "partnership-auction"})
    seconds = time.monotonic() - start
    error = refused(r, (400,))
    assert seconds < 5 and error["field"] == "variant"
    assert "cannot apply to partnership-auction" in error["error"] and "redeal.min_nines = 0" in error["error"]
    assert "it applies to four-hand-150" in error["error"]
    r = client.post("/api/compare", json={"question": "five-nines-redeal", "variant": "four-hand-150"})
    assert r.status_code == 202  # its own system: asked
    cancel(client, r)


#: Odd values of each JSON type the fuzz puts in a field: out of range, huge, empty, control characters,
#: names of files, codes past the end; :data:`ANY` of any type.
ODD = {
    "string": [
        "",
        " ",
        "x" * 10_000,
        "\x00",
        "AS " * 200,
        "../../pyproject.toml",
        "meld>=99999999",
        "four-hand-150",
        "partnership-auction",
        "two-hand",
        "AS 10S",
        "QX",
        "me: aces>=9",
        "run",
        "heuristic",
        "id = = 3",
        'extends = "four-hand-150"',
        'extends = "two-hand"\n[deal]\nplayers = 3',
    ],
    "integer": [-1, 0, 1, 7, 99, 100, 2**31, 2**62, 2**63, -(2**63), 10**30, MAX_CODE, MAX_CODE + 1, 1_245_000],
    "boolean": [False],  # values: true would solve double dummy in the request, only slow
    "number": [1.5, -0.0, 1e308],
}
ANY = [None, True, [], [None], {"a": 1}, 1.5, "x", -1, [2**40, -5], ["AS"] * 10]


def odd_value(rng: random.Random, prop: dict):
    """An odd value for a property of a request's JSON schema: mostly of its own type (a list of them
    for an array), sometimes of any type."""
    kinds = [p for p in prop.get("anyOf", [prop]) if p.get("type") not in (None, "null")]
    if not kinds or rng.random() < 0.2:
        return rng.choice(ANY)
    kind = rng.choice(kinds)
    if kind.get("type") == "array":
        item = kind.get("items", {}).get("type", "string")
        return [rng.choice(ODD.get(item, ANY)) for _ in range(rng.choice([0, 1, 2, 5, 9, 41]))]
    if "enum" in kind or "const" in kind:
        return rng.choice(kind.get("enum", [kind.get("const")]) + ["later"])
    return rng.choice(ODD.get(kind.get("type"), ANY))


def test_a_seeded_fuzz_of_every_post_route_gets_no_500(client):
    rng = random.Random(52)
    schemas = bodies(client)
    outcomes = {}
    for _ in range(800):
        path = rng.choice(sorted(schemas))
        props = schemas[path]["properties"]
        body = dict(REQUIRED)
        if path.startswith("/api/deal"):
            body["values"] = False  # a solve per request would only make the fuzz slow
        for key in rng.sample(sorted(props), rng.randint(1, min(3, len(props)))):
            body[key] = odd_value(rng, props[key])
        r = client.post(path, json=body)
        assert r.status_code != 500, (path, body, r.text[:300])
        if r.status_code >= 400:
            refused(r, (400, 404, 422, 429))
        cancel(client, r)
        outcomes[r.status_code] = outcomes.get(r.status_code, 0) + 1
    # refusals of both kinds, and answers (at once, or a job accepted): the fuzz reaches past the fields'
    # checks into the rules
    answered = outcomes.get(200, 0) + outcomes.get(202, 0)
    assert min(answered, outcomes.get(400, 0), outcomes.get(422, 0)) >= 20 and outcomes.get(200, 0) > 0, outcomes


def test_every_get_route_refuses_odd_ids_in_one_line(client):
    for job_id in ("x" * 5000, "0", "%00", "dd-1", "..."):
        for method in ("get", "delete"):
            error = refused(getattr(client, method)(f"/api/jobs/{job_id}"), (404,))
            assert error["field"] == "job"
    assert refused(client.get("/reports/" + "y" * 5000), (404,))["field"] == "name"
    assert refused(client.get("/api/nothing-here"), (404,))["field"] is None
    assert refused(client.post("/api/variants"), (405,))["field"] is None


def test_the_openapi_document_gives_the_refusals_shape_not_fastapis(client):
    spec = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in json.dumps(spec)
    assert set(spec["components"]["schemas"]["Refusal"]["properties"]) == {"error", "field"}
    for path in bodies(client):
        for status in ("400", "422", "429"):
            ref = spec["paths"][path]["post"]["responses"][status]["content"]["application/json"]["schema"]["$ref"]
            assert ref.endswith("/Refusal"), (path, status)
