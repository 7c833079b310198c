"""The web app of ``pinochle serve``: the pages and the JSON API under ``/api/``, a thin face over
:mod:`simcore.api` (the page, the command line and a notebook give the same numbers for the same rules,
seed and size).

Quick answers (meld, the deal viewer) are answered in the request; the rest run as background jobs
(:mod:`simcore.web.jobs`) that the page polls for progress and may cancel. Numba compiles each kernel
on its first call, so the app warms them up in a background thread at start and the pages say so
until it is done; jobs wait for it, so that their time cap is not spent compiling. The answers' kernels
come first, the double-dummy solver's after, so that the answers' jobs need not wait for the solver.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from simcore.web import inputs as i
from simcore.web import reports as rep
from simcore.web.errors import REFUSALS, body_error, short_value
from simcore.web.jobs import Busy, Job, Jobs

HERE = Path(__file__).parent
log = logging.getLogger("simcore.web")

#: The pages, in the navigation's order: (path, title).
PAGES = (
    ("/", "My hand"),
    ("/odds", "Odds"),
    ("/house-rules", "House rules"),
    ("/cards", "Bidding cards"),
    ("/deal", "Deal viewer"),
)
#: The navigation's words on a phone, where the titles would wrap it onto two lines.
SHORT_TITLES = {"/": "Hand", "/odds": "Odds", "/house-rules": "House", "/cards": "Cards", "/deal": "Deal"}


def records(frame) -> list[dict]:
    """A DataFrame's rows as JSON-ready dicts (NaN as None, categoricals as their names)."""
    return json.loads(frame.to_json(orient="records", double_precision=15))


def _clean(value):
    """``value`` with NaN and infinities as None, for strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def compile_answers() -> None:
    """Compiles the kernels of the answers' jobs (the hand, the odds, the widow) by asking small ones."""
    from simcore import api

    hand = "AS 10S KS QS JS 9S AH KH QH AD JD QC"
    api.meld(hand)
    api.advise(hand, hands=200)
    api.hold_odds(hand, hands=400)
    api.odds(hands=400)
    api.widow("AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD", "auction")


def compile_solver() -> None:
    """Compiles the double-dummy solver's kernels by valuing the cards of a deal's first lead."""
    from simcore import api
    from simcore.web.deal import deal_view

    deal_view(i.shipped(api.DEFAULT_VARIANT), 1, None, [], "none", True)


class Warmup:
    """Numba's first compile of the kernels the pages use, in a background thread, in two stages: the
    answers' kernels (``answers``, default :func:`compile_answers`), after which ``ready`` is set and the
    answers' jobs start; then the double-dummy solver's (``solver``, default :func:`compile_solver`),
    after which ``solver_ready`` is set and the deal viewer's values, analyses and makeable tables start.
    A stage that fails only means slower first answers: its event is set all the same."""

    def __init__(self, ready: threading.Event, solver_ready: threading.Event, answers=None, solver=None):
        self.ready, self.solver_ready = ready, solver_ready
        self._compile = {"answers": answers or compile_answers, "solver": solver or compile_solver}
        self.stages = {"answers": _Stage(), "solver": _Stage()}

    @property
    def state(self) -> str:
        """The answers' stage: waiting, warming, ready or failed."""
        return self.stages["answers"].state

    def start(self) -> None:
        """Compile in the background; ``ready`` and ``solver_ready`` are cleared until their stage is done
        (jobs wait for them)."""
        self.ready.clear()
        self.solver_ready.clear()
        threading.Thread(target=self._run, name="pinochle-warmup", daemon=True).start()

    def _run(self) -> None:
        self.stages["answers"].run(self._compile["answers"], self.ready)
        self.stages["solver"].run(self._compile["solver"], self.solver_ready)

    def to_json(self) -> dict:
        """The answers' stage as ``state``, ``seconds``, ``error``; the solver's under ``solver``."""
        return {**self.stages["answers"].to_json(), "solver": self.stages["solver"].to_json()}


class _Stage:
    """One stage of the warm-up: its state, its seconds once done, and its error if it failed."""

    def __init__(self) -> None:
        self.state, self.seconds, self.error = "waiting", None, None

    def run(self, compile_kernels, done: threading.Event) -> None:
        """Runs ``compile_kernels`` and sets ``done`` after, whether it worked or not."""
        self.state, start = "warming", time.perf_counter()
        try:
            compile_kernels()
            self.state = "ready"
        except Exception as exc:  # a warm-up that fails only means slower first answers
            log.exception("warm-up failed")
            self.state, self.error = "failed", f"{type(exc).__name__}: {exc}"
        self.seconds = round(time.perf_counter() - start, 1)
        done.set()

    def to_json(self) -> dict:
        return {"state": self.state, "seconds": self.seconds, "error": self.error}


def create_app(
    jobs: Jobs | None = None, reports: Path | None = None, warm: bool = True, store: Path | None = None
) -> FastAPI:
    """The app. ``jobs``: the job queue (default: 2 workers, 8 waiting, a 60 s time cap); ``reports``:
    the committed report's folder; ``warm``: compile the kernels in the background at start; ``store``:
    the results store that keeps the bidding cards made on demand (None: none kept)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if warm:
            app.state.warmup.start()
        yield
        app.state.jobs.shutdown()
        app.state.solver_jobs.shutdown()

    # /docs (Swagger UI) and /redoc with their scripts and styles served from fastapi-offline's package
    # under /static-offline-docs, never from a CDN: the pages work with no internet
    app = FastAPIOffline(
        title="pinochle",
        version="1",
        lifespan=lifespan,
        responses=REFUSALS,
        summary="Pinochle meld, bids, odds, house "
        "rules and double dummy for every rule system, as JSON (the pages use the same routes).",
    )
    app.state.jobs = jobs or Jobs()
    # The deal viewer's values have a queue of their own, so that a click's values never wait behind
    # long answers; one worker, since the solver keeps one table and solves one position at a time.
    app.state.solver_jobs = Jobs(workers=1, waiting=8, seconds=app.state.jobs.seconds, prefix="dd")
    app.state.reports = reports or rep.REPORTS
    app.state.store = store
    # the answers' jobs wait for their kernels' warm-up, the solver's for the solver's, compiled after
    app.state.warmup = Warmup(app.state.jobs.ready, app.state.solver_jobs.ready)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    _add_errors(app)
    _add_pages(app, templates)
    _add_quick_answers(app)
    _add_hand_jobs(app)
    _add_odds_and_house_rules(app)
    _add_jobs_and_deals(app)
    _add_made_cards(app)
    return app


def error(status: int, message: str, field: str | None = None) -> JSONResponse:
    """The one-line error body every refusal sends: the message and the field it belongs to."""
    return JSONResponse({"error": message, "field": field}, status_code=status)


def _add_errors(app: FastAPI) -> None:
    """Errors as one line and the field they belong to, never a traceback."""

    @app.exception_handler(i.InputError)
    async def _input_error(request: Request, exc: i.InputError):
        return error(exc.status, str(exc), exc.field)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        titles = _titles(request.scope.get("route"))
        message, field = body_error(first, exc.body, request.headers.get("content-type"), titles)
        return error(422, message, field)

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy):
        return error(429, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        return error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _defect(request: Request, exc: Exception):
        log.exception("request %s failed", request.url.path)
        return error(500, f"internal error ({type(exc).__name__}); see the server's log")


def _titles(route) -> dict[str, str]:
    """{key: the page's label} of the request model's fields that set a ``title`` (e.g. hands: "Deals"),
    for the route a request was refused by (none: a route without a JSON body)."""
    params = getattr(getattr(route, "dependant", None), "body_params", None) or []
    model = getattr(params[0].field_info, "annotation", None) if params else None
    fields = getattr(model, "model_fields", {}) if isinstance(model, type) else {}
    return {k: f.title for k, f in fields.items() if f.title}


def user_error(exc: Exception, field: str) -> i.InputError:
    return i.InputError(field, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def check_hand(hand: str, v, partial: bool = True) -> None:
    """Refuse (on the hand field) cards the system's deck cannot deal as a hand (with ``partial``, or
    part of one)."""
    from simcore.cards import check_hand as check
    from simcore.cards import parse_hand

    try:
        check(parse_hand(hand), v.deck_copies, v.hand_size, partial=partial)
    except ValueError as exc:
        raise user_error(exc, "hand")


#: Where a web answer sends the reader for the events (the command line's says `pinochle odds --list`).
EVENTS_LISTING = "GET /api/events lists them (the Odds page's Events)"


def possible_events(v) -> list[str]:
    """The catalogue's events a hand of ``v`` can hold (none of five nines in a deck without nines, nor a
    redeal where the system has none): what a page lists when no event is asked for."""
    from simcore.kernels.events import CATALOGUE, can_hold, parse_event

    return [e for e in CATALOGUE if can_hold(parse_event(e, v), v)]


def named(rows: list[dict]) -> list[dict]:
    """Event rows with ``name``, the event as players say it ("aces around" for ``aces-around``)."""
    from analyses.names import event_name

    return [{**r, "name": event_name(r["event"])} for r in rows]


def question_sides(key: str) -> dict[str, str]:
    """A house-rule question's A and B in a player's words (the report's), not as rules keys."""
    from analyses.house_rules import SIDES
    from simcore.answers.questions import QUESTIONS

    q = QUESTIONS[key]
    a, b = SIDES.get(key, (", ".join(q.a) or "as shipped", ", ".join(q.b) or "as shipped"))
    return {"a": a, "b": b}


def check_events(events: list[str] | None, v) -> None:
    from simcore.kernels.events import parse_event

    try:
        [parse_event(e, v, listing=EVENTS_LISTING) for e in events or []]
    except ValueError as exc:
        raise user_error(exc, "events")


def check_given(text: str | None, v, seat: int) -> str | None:
    """The ``given`` condition as sent (None for none), refused on its field when it does not parse
    (one impossible or too rare to sample fails its job, on the same field: :func:`given_errors`);
    places are seen from ``seat``."""
    from simcore.answers.conditioned import read_condition

    if not text or not text.strip():
        return None
    try:
        read_condition(v, text, seat, label="given")
    except ValueError as exc:
        raise user_error(exc, "given")
    return text


@contextmanager
def given_errors():
    """A condition refused once the deals are counted (too rare, or no deal meets it), on its field."""
    from simcore.kernels.condition import ConditionError

    try:
        yield
    except ConditionError as exc:
        raise user_error(exc, "given") from None


def playing_rules(body: i.Rules):
    """The rules ``body`` names, refused on its variant field where they play no hands (no ``[auction]``),
    for the deal viewer's routes."""
    v = i.rules_of(body)
    if v.get("auction.kind") is None:
        raise i.InputError("variant", f"{v.id} has no rules for playing hands (no [auction])")
    return v


def job_response(job: Job) -> JSONResponse:
    """A job as ``GET /api/jobs/{id}`` answers it: 202 while it is queued or running, 200 once it ended."""
    return JSONResponse(_clean(job.to_json()), status_code=202 if job.status in ("queued", "running") else 200)


def submitted(job: Job) -> JSONResponse:
    """A job just started, answered 202 whatever its status: a job quick enough to end before the answer
    is written is still one the client asked to start, and polls like any other."""
    return JSONResponse(_clean(job.to_json()), status_code=202)


def _add_pages(app: FastAPI, templates: Jinja2Templates) -> None:
    """The HTML pages and the committed report's files."""

    def page(request: Request, name: str, title: str, **extra) -> HTMLResponse:
        from simcore.variants import shipped_ids

        return templates.TemplateResponse(
            request,
            name,
            {
                "pages": PAGES,
                "short": SHORT_TITLES,
                "title": title,
                "ids": shipped_ids(),
                "here": request.url.path,
                **extra,
            },
        )

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def hand_page(request: Request):
        return page(request, "hand.html", "My hand", caps=i)

    @app.get("/odds", response_class=HTMLResponse, include_in_schema=False)
    def odds_page(request: Request):
        from analyses.names import event_name
        from simcore.kernels.events import CATALOGUE

        events = [(e, event_name(e), c.help) for e, c in CATALOGUE.items()]
        return page(request, "odds.html", "Odds", events=events, caps=i)

    @app.get("/house-rules", response_class=HTMLResponse, include_in_schema=False)
    def house_page(request: Request):
        from simcore.answers.questions import QUESTIONS

        return page(
            request,
            "house.html",
            "House rules",
            questions=QUESTIONS,
            sides={k: question_sides(k) for k in QUESTIONS},
            committed={r["question"]: r for r in rep.house_rules(app.state.reports)},
            caps=i,
        )

    @app.get("/cards", response_class=HTMLResponse, include_in_schema=False)
    def cards_page(request: Request):
        from analyses.card import ON_DEMAND

        found = rep.cards(app.state.reports)
        return page(
            request,
            "cards.html",
            "Bidding cards",
            cards=found,
            html={c.system: rep.card_html(c, app.state.reports) for c in found},
            caps=i,
            on_demand=ON_DEMAND,
        )

    @app.get("/deal", response_class=HTMLResponse, include_in_schema=False)
    def deal_page(request: Request):
        return page(request, "deal.html", "Deal viewer")

    @app.get("/reports/{name}", include_in_schema=False)
    def report_file(name: str):
        files = rep.served(app.state.reports)
        if name not in files:  # the name only picks from the listed files; it is never joined to a path
            raise i.InputError("name", f"{short_value(name)} is not a file of the committed report", 404)
        return FileResponse(files[name], media_type=rep.MEDIA[files[name].suffix])


def _add_quick_answers(app: FastAPI) -> None:
    """The JSON routes answered in the request: status, systems, deck, events, meld."""

    @app.get("/api/status", summary="warm-up and job queue state")
    def status():
        jobs = app.state.jobs
        return {
            "warmup": app.state.warmup.to_json(),
            "jobs_active": jobs.active(),
            "jobs_limit": jobs.workers + jobs.waiting,
            "time_cap_seconds": jobs.seconds,
            "solver_jobs_active": app.state.solver_jobs.active(),
            "solver_jobs_limit": app.state.solver_jobs.workers + app.state.solver_jobs.waiting,
        }

    @app.get("/api/variants", summary="the shipped rule systems (simcore.api.variants)")
    def variants():
        from simcore import api

        return records(api.variants())

    @app.post("/api/deck", summary="the cards of a system's deck, for a card grid")
    def deck(body: i.Rules):
        from analyses.names import event_name, exchange_words
        from simcore.answers.given import places
        from simcore.cards import N_TYPES, card_name
        from simcore.kernels.events import CATALOGUE

        v = i.rules_of(body)
        return {
            "variant": v.id,
            "name": v.name,
            "players": v.players,
            "hand_size": v.hand_size,
            "widow": v.get("deal.widow"),
            "widow_kind": v.get("deal.widow_kind"),
            "plays_hands": v.get("auction.kind") is not None,
            "widow_worth": widow_worth_asked(v),
            "has_auction": v.get("auction.kind") not in (None, "none"),
            "cards": [
                {"card": card_name(t), "copies": int(v.deck_copies[t])} for t in range(N_TYPES) if v.deck_copies[t]
            ],
            "places": list(places(v)),
            "before": exchange_words(v),
            "events": [{"event": e, "name": event_name(e), "help": CATALOGUE[e].help} for e in possible_events(v)],
        }

    def widow_worth_asked(v) -> bool:
        """Whether the bidder takes a widow or kitty into his hand in ``v`` (the widow's worth applies)."""
        from simcore.answers.widow import check_widow
        from simcore.variants import NotForThisSystem

        try:
            check_widow(v)
        except NotForThisSystem:
            return False
        return True

    @app.get("/api/events", summary="the catalogue of dealt-hand events")
    def events():
        from simcore.kernels.events import CATALOGUE

        return list(CATALOGUE)

    @app.post("/api/meld", summary="a hand's meld under every trump (simcore.api.meld)")
    def meld(body: i.HandIn):
        from analyses.names import meld_name
        from simcore import api

        v = i.rules_of(body)
        try:
            rows = records(api.meld(body.hand, v))
        except ValueError as exc:
            raise user_error(exc, "hand")
        return [{**r, "name": meld_name(r["meld"]) if r["meld"] else None} for r in rows]


def _add_hand_jobs(app: FastAPI) -> None:
    """My hand's background answers: the bid advice, the widow's worth, the held odds."""

    @app.post("/api/advise", status_code=202, summary="job: P(make B) by bid for a hand (simcore.api.advise)")
    def advise(body: i.AdviseIn):
        from simcore import api
        from simcore.answers.advise import check_advisable

        v = i.rules_of(body)
        try:
            check_advisable(v, body.seat, label="seat ", meld="the hand's meld is under Meld (POST /api/meld)")
        except ValueError as exc:
            raise user_error(exc, "seat" if "seat" in str(exc) else "variant")
        check_hand(body.hand, v)
        given = check_given(body.given, v, body.seat)

        def work(job: Job) -> dict:
            with given_errors():
                frame = api.advise(body.hand, v, seat=body.seat, hands=body.hands, seed=body.seed, given=given)
            return {
                "rows": records(frame),
                "highest": frame.attrs["highest"],
                "headline": frame.attrs["headline"],
                "acceptance": frame.attrs.get("acceptance"),
            }

        return submitted(app.state.jobs.submit("advise", work))

    @app.post(
        "/api/widow",
        status_code=202,
        summary="job: what the widow is worth to a whole hand, exact over every widow (simcore.api.widow)",
    )
    def widow(body: i.HandIn):
        from simcore import api
        from simcore.answers.widow import check_widow

        v = i.rules_of(body)
        try:
            check_widow(v)
        except ValueError as exc:
            raise user_error(exc, "rules" if body.rules_text and body.rules_text.strip() else "variant")
        check_hand(body.hand, v, partial=False)

        def work(job: Job) -> dict:
            frame = api.widow(body.hand, v)
            return {"rows": records(frame), **frame.attrs}

        return submitted(app.state.jobs.submit("widow", work))

    @app.post(
        "/api/hold-odds",
        status_code=202,
        summary="job: events for partner, opponents and widow given my cards (simcore.api.hold_odds)",
    )
    def hold_odds(body: i.HoldIn):
        from simcore import api

        v = i.rules_of(body)
        check_hand(body.hand, v)
        check_events(body.events, v)
        given = check_given(body.given, v, 0)
        events = body.events or possible_events(v)

        def work(job: Job) -> dict:
            if given is None:
                return {"rows": named(records(api.hold_odds(body.hand, events, v, hands=body.hands, seed=body.seed)))}
            with given_errors():
                frame = api.odds(events, v, hands=body.hands, seed=body.seed, hold=body.hand, given=given)
            return {"rows": named(records(frame)), "acceptance": frame.attrs.get("acceptance")}

        return submitted(app.state.jobs.submit("hold-odds", work))


def _add_odds_and_house_rules(app: FastAPI) -> None:
    """The odds and house-rule answers (the committed verdicts, a question asked again)."""

    @app.post("/api/odds", status_code=202, summary="job: dealt-hand events per hand and per deal (simcore.api.odds)")
    def odds(body: i.OddsIn):
        from simcore import api

        v = i.rules_of(body)
        check_events(body.events, v)
        events = body.events or possible_events(v)
        return submitted(
            app.state.jobs.submit(
                "odds", lambda job: {"rows": named(records(api.odds(events, v, hands=body.hands, seed=body.seed)))}
            )
        )

    @app.get("/api/house-rules", summary="the committed report's house-rule verdicts")
    def house_rules():
        return _clean(rep.house_rules(app.state.reports))

    @app.get("/api/questions", summary="the named house-rule questions")
    def questions():
        from simcore.answers.questions import QUESTIONS

        return {
            k: {
                "title": q.title,
                "variant": q.variant,
                "a": list(q.a),
                "b": list(q.b),
                "mode": q.mode,
                "modes": list(q.modes),
                "headline": q.headline,
                "sides": question_sides(k),
            }
            for k, q in QUESTIONS.items()
        }

    @app.post(
        "/api/compare", status_code=202, summary="job: a house-rule question at a small size (simcore.api.compare)"
    )
    def compare(body: i.CompareIn):
        from simcore import api
        from simcore.answers.compare import question_rules
        from simcore.answers.questions import QUESTIONS

        q = QUESTIONS.get(body.question)
        if q is None:
            raise i.InputError(
                "question", f"{short_value(body.question)} is not a question; choose from " + ", ".join(QUESTIONS)
            )
        size = {"games" if q.mode == "games" else "hands": body.hands}
        try:  # refused at once where the question changes nothing (a full run would answer A = B)
            a, b = question_rules(body.question, body.variant, names=i.WEB_NAMES)
        except ValueError as exc:  # RulesError: its keys contradict the system's; NotForThisSystem
            raise user_error(exc, "variant")
        # the question's own system asks it by name (its title and headline); another applies its A and B
        asked = {"question": body.question} if body.variant in (None, "", q.variant) else {"a": a, "b": b}

        def work(job: Job) -> dict:
            from simcore.answers.compare import MEASURE_KIND

            frame = api.compare(seed=body.seed, **asked, **size)
            rows = [{**r, "kind": MEASURE_KIND.get(r["measure"], "points")} for r in records(frame)]
            return {"rows": rows, "verdict": frame.attrs["verdict"]}

        return submitted(app.state.jobs.submit("compare", work))


def _add_jobs_and_deals(app: FastAPI) -> None:
    """Job progress and cancel; the deal viewer, its values and its analysis."""

    @app.get("/api/jobs/{job_id}", summary="a job's progress, and its answer once done")
    def job(job_id: str):
        found = app.state.jobs.get(job_id) or app.state.solver_jobs.get(job_id)
        if found is None:
            raise i.InputError("job", f"no job {short_value(job_id)} (finished jobs are kept for a while)", 404)
        return job_response(found)

    @app.delete("/api/jobs/{job_id}", summary="cancel a job")
    def cancel(job_id: str):
        found = app.state.jobs.cancel(job_id) or app.state.solver_jobs.cancel(job_id)
        if found is None:
            raise i.InputError("job", f"no job {short_value(job_id)}", 404)
        return job_response(found)

    @app.post("/api/deal", summary="a deal played card by card through the state API, with double-dummy values")
    def deal(body: i.DealIn):
        from simcore.web.deal import deal_view

        v = playing_rules(body)
        return _clean(deal_view(v, body.seed, body.cards, body.moves, body.then, body.values))

    @app.post(
        "/api/deal-values",
        status_code=202,
        summary="job: the double-dummy value of each card the seat to play may play, after the moves sent",
    )
    def deal_values_job(body: i.DealValuesIn):
        from simcore.web.deal import deal_values, deal_view

        v = playing_rules(body)
        deal_view(v, body.seed, body.cards, body.moves, "none", False)  # bad cards or moves: refused here
        return submitted(
            app.state.solver_jobs.submit("deal-values", lambda job: deal_values(v, body.seed, body.cards, body.moves))
        )

    @app.post(
        "/api/deal-analysis",
        status_code=202,
        summary="job: where a hand played to its end gave up points against double dummy (simcore.api.analyse)",
    )
    def deal_analysis_job(body: i.DealValuesIn):
        from simcore.web.deal import deal_analysis, deal_view

        v = playing_rules(body)
        if not deal_view(v, body.seed, body.cards, body.moves, "none", False)["over"]:  # bad moves refused here
            raise i.InputError("moves", "the hand is not over: play it to the end first")
        return submitted(
            app.state.solver_jobs.submit(
                "deal-analysis", lambda job: deal_analysis(v, body.seed, body.cards, body.moves)
            )
        )

    @app.post(
        "/api/deal-makeable",
        status_code=202,
        summary="job: the makeable bids of the deal, each trump and bidder, double dummy (simcore.api.makeable)",
    )
    def deal_makeable_job(body: i.DealMakeableIn):
        from simcore.web.deal import deal_makeable, makeable_deal

        v = playing_rules(body)
        deal = makeable_deal(v, body.seed, body.cards)  # a system or deal the table cannot take: refused here
        return submitted(
            app.state.solver_jobs.submit(
                "deal-makeable", lambda job: deal_makeable(v, deal, body.exchange, body.limit, body.budget)
            )
        )


def _add_made_cards(app: FastAPI) -> None:
    """A player's card for any system or pasted rules, made on demand and kept in the results store."""

    def opened_store():
        """The results store, or None (none given, or it cannot be opened: the card is made, not kept)."""
        from simcore.run.store import Store, StoreError

        if app.state.store is None:
            return None
        try:
            return Store(app.state.store)
        except StoreError:
            log.warning("the results store cannot be opened; the bidding card is not kept", exc_info=True)
            return None

    @app.post(
        "/api/card",
        status_code=202,
        summary="job: a system's player's card made at a small size (analyses.card), kept in the results store",
    )
    def made_card_job(body: i.Rules):
        from simcore.web.made_cards import made_card

        v = i.rules_of(body)
        return submitted(app.state.jobs.submit("card", lambda job: made_card(v, opened_store(), job=job)))
