"""``pinochle serve`` in a real browser (Debian's chromium and chromium-driver through selenium): each
page opens, a hand entered by tapping the card grid shows the API's meld and bids, the odds, house-rule
and deal-viewer pages show the API's numbers, bad input shows its one line next to the field, and
screenshots are taken at desktop and phone (360 px) widths into ``SCREENSHOTS`` (default: pytest's
tmp dir; ``docs/img`` to refresh the documentation's). Without a browser the tests skip, saying why."""

import os
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="pinochle serve needs fastapi (pip install -e .)")
webdriver = pytest.importorskip("selenium.webdriver", reason="browser tests need selenium (pip install -e .[dev])")
if not (shutil.which("chromium") and shutil.which("chromedriver")):
    pytest.skip(
        "browser tests need chromium and chromium-driver (apt-get install chromium chromium-driver)",
        allow_module_level=True,
    )

import uvicorn
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

from analyses import fmt
from simcore import api
from simcore.kernels.events import CATALOGUE
from simcore.kernels.meld import NAMED_MELDS
from simcore.variants.schema import KEYS
from simcore.web.app import create_app

WIDTHS = {"desktop": (1280, 900), "phone": (360, 740)}


@pytest.fixture(scope="module")
def server():
    """The app on a free loopback port, warmed up (so answers come at once), in a thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = create_app()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 600
    while not app.state.warmup.solver_ready.is_set() and time.monotonic() < end:  # the last stage
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium")
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(shutil.which("chromedriver")))
    driver.set_window_size(*WIDTHS["desktop"])
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait(driver, css: str, seconds: float = 120, text: str | None = None):
    cond = (
        ec.text_to_be_present_in_element((By.CSS_SELECTOR, css), text)
        if text
        else ec.visibility_of_element_located((By.CSS_SELECTOR, css))
    )
    WebDriverWait(driver, seconds).until(cond)
    return driver.find_element(By.CSS_SELECTOR, css)


def screenshot(driver, shots: Path, name: str) -> None:
    """The whole page at each width (the window grown to the page's height)."""
    for label, (width, height) in WIDTHS.items():
        driver.set_window_size(width, height)
        time.sleep(0.5)
        full, chrome = driver.execute_script(
            "return [Math.max(document.body.scrollHeight, document.documentElement"
            ".scrollHeight), window.outerHeight - window.innerHeight]"
        )
        driver.set_window_size(width, min(max(height, full + chrome + 10), 4000))
        time.sleep(0.5)
        driver.save_screenshot(str(shots / f"{name}-{label}.png"))
        wide = driver.execute_script("return document.documentElement.scrollWidth")
        assert wide <= width + 1, f"{name} at {width} px scrolls sideways ({wide} px wide)"
        boxes = driver.execute_script(
            "return Array.from(document.querySelectorAll('.scroll')).filter(e => e.scrollWidth > "
            "e.clientWidth + 1).map(e => (e.firstElementChild || e).className)"
        )
        assert not boxes, f"{name} at {width} px: {boxes} scroll sideways inside their box"
    driver.set_window_size(*WIDTHS["desktop"])


#: Words of the code that a player's page never shows: meld code words (``royal_marriage``), event
#: names (``aces-around``) and rules keys (``exchange.pass_cards``), where the card uses a name.
CODE_WORDS = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(w) for w in sorted({*(m for m in NAMED_MELDS if "_" in m), *(e for e in CATALOGUE if "-" in e)})
    )
    + r")\b|(?<![\w.])(?:"
    + "|".join(re.escape(k) for k in sorted((k for k in KEYS if "." in k), key=len, reverse=True))
    + r")(?![\w])"
)


def players_words(driver) -> list[str]:
    """What the page's text shows that a player's card would not: code words, rules keys, scientific
    notation, nan (the report's check, :func:`analyses.fmt.clean`)."""
    text = driver.execute_script("return document.body.innerText")
    return CODE_WORDS.findall(text) + fmt.clean(text)


def in_view(driver, css: str, whole: bool = False) -> bool:
    """Whether the top of the element (with ``whole``: all of it) is on screen, below the sticky header."""
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(),"
        " h = document.querySelector('header').getBoundingClientRect().bottom;"
        " return r.height > 0 && r.top >= h - 1"
        " && (arguments[1] ? r.bottom <= window.innerHeight + 1 : r.top < window.innerHeight - 24)",
        css,
        whole,
    )


def tap_hand(driver, hand: str) -> None:
    for card in hand.split():
        driver.find_element(By.CSS_SELECTOR, f'#grid .card[data-card="{card}"]').click()


def test_my_hand_by_tapping_shows_the_apis_meld_and_bids(server, browser, shots):
    hand = "AS 10S KS QS JS 9S AH KH QH AD JD QC"
    browser.get(server + "/")
    wait(browser, '#grid .card[data-card="AS"]')
    tap_hand(browser, hand)
    assert wait(browser, "#hand-count", text="12 of 12")
    wait(browser, '.trump[data-trump="S"] .total')
    meld = api.meld(hand)
    for trump, total in meld.groupby("trump", observed=True)["total"].first().items():
        shown = browser.find_element(By.CSS_SELECTOR, f'.trump[data-trump="{trump}"] .total').text
        assert int(shown) == total
    browser.find_element(By.ID, "hands").clear()
    browser.find_element(By.ID, "hands").send_keys("4000")
    browser.find_element(By.ID, "go").click()
    wait(browser, "#advise svg.chart")
    wait(browser, ".hold-table", 180)
    advice = api.advise(hand, hands=4000)
    want = advice.attrs["highest"]
    assert browser.find_element(By.ID, "bid50").text.split()[0] == str(want[0]["bid"])
    assert browser.find_element(By.ID, "bid75").text.split()[0] == str(want[1]["bid"])
    partner = advice.attrs["headline"]["partner_meld"]["mean"]["estimate"]
    assert float(browser.find_element(By.ID, "partner-mean").text) == pytest.approx(partner, rel=1e-3)  # 4 digits
    held = api.hold_odds(hand, hands=80_000).set_index(["event", "place"]).loc[("marriage", "partner")]
    first = browser.find_element(By.CSS_SELECTOR, '.hold-table td[data-col="partner"] span').get_attribute("title")
    assert first.startswith(f"simulated {fmt.pct(held.estimate, held.lo, held.hi)}")
    royal = browser.find_element(By.CSS_SELECTOR, '.trump[data-trump="H"] li[data-meld="royal_marriage"]')
    assert royal.text.startswith("royal marriage")
    assert players_words(browser) == []
    screenshot(browser, shots, "hand")


def test_my_hand_shows_the_widows_worth_as_the_api_counts_it(server, browser, shots):
    hand = "AS 10S KS QS JS 9S AH 10H QH JH 9H AD 10D KD QD"
    browser.get(server + "/")
    wait(browser, '#grid .card[data-card="AS"]')
    assert not browser.find_element(By.ID, "widow-section").is_displayed()  # four-hand-150 deals no widow
    Select(browser.find_element(By.ID, "variant")).select_by_value("auction")
    wait(browser, "#widow-section")
    tap_hand(browser, hand)
    assert wait(browser, "#hand-count", text="15 of 15")
    browser.find_element(By.ID, "hands").clear()
    browser.find_element(By.ID, "hands").send_keys("1000")
    browser.find_element(By.ID, "go").click()
    gain = wait(browser, "#widow-gain", 120).text
    worth = api.widow(hand, "auction")
    assert gain == f"{worth.attrs['gain']['mean']:+.2f}"
    shown = {
        int(li.get_attribute("data-x")): li.find_element(By.TAG_NAME, "strong").text
        for li in browser.find_elements(By.CSS_SELECTOR, "#widow-at-least li")
    }
    assert shown[20] == fmt.pct(dict(worth.attrs["gain"]["at_least"])[20])
    best = browser.find_element(By.CSS_SELECTOR, '.widow-list td[data-col="cards"]').text
    assert best.split() == worth.attrs["best"][0]["cards"].split()
    wait(browser, "#advise svg.chart", 180)
    wait(browser, ".hold-table", 180)
    screenshot(browser, shots, "hand-widow")


def test_a_bad_hand_shows_its_line_next_to_the_field(server, browser):
    browser.get(server + "/")
    wait(browser, '#grid .card[data-card="AS"]')
    box = browser.find_element(By.ID, "hand")
    box.send_keys("AS AS AS 10S KS QS JS 9S AH KH QH AD")
    error = wait(browser, '.error[data-for="hand"]', 30, text="AS")
    assert "holds 3" in error.text and "\n" not in error.text


def test_a_bad_condition_shows_its_line_next_to_the_given_field(server, browser):
    browser.get(server + "/")
    wait(browser, '#grid .card[data-card="AS"]')
    tap_hand(browser, "AS 10S KS QS JS 9S AH KH QH AD JD QC")
    wait(browser, '.trump[data-trump="S"] .total')  # the meld laid out and scrolled to: the box stays put
    browser.find_element(By.CSS_SELECTOR, "#given-box summary").click()
    browser.find_element(By.ID, "given").send_keys("lefty: aces>=3")
    browser.find_element(By.ID, "go").click()
    error = wait(browser, '.error[data-for="given"]', 30, text="lefty")
    assert "place 'lefty' is not known" in error.text and "\n" not in error.text


def test_a_bad_seed_shows_its_line_under_the_seed(server, browser, shots):
    browser.get(server + "/")
    wait(browser, '#grid .card[data-card="AS"]')
    tap_hand(browser, "AS 10S KS QS JS 9S AH KH QH AD JD QC")
    browser.find_element(By.ID, "seed").clear()
    browser.find_element(By.ID, "seed").send_keys("-1")
    browser.find_element(By.ID, "go").click()
    error = wait(browser, '.error[data-for="seed"]', 30, text="seed")
    assert error.text == "seed = -1: at least 0"
    assert not browser.find_element(By.CSS_SELECTOR, '.error[data-for="variant"]').text  # not the first box's
    screenshot(browser, shots, "hand-seed-error")


def test_a_question_that_cannot_apply_is_refused_at_once_under_the_system(server, browser, shots):
    browser.get(server + "/house-rules")
    Select(browser.find_element(By.ID, "question")).select_by_value("five-nines-redeal")
    Select(browser.find_element(By.ID, "variant")).select_by_value("partnership-auction")
    start = time.monotonic()
    browser.find_element(By.ID, "go").click()
    error = wait(browser, '.error[data-for="variant"]', 10, text="cannot apply")
    assert time.monotonic() - start < 5 and "it applies to four-hand-150" in error.text
    screenshot(browser, shots, "house-rules-cannot-apply")


def test_malformed_rules_show_their_line_next_to_the_rules(server, browser):
    browser.get(server + "/odds")
    browser.find_element(By.CSS_SELECTOR, ".rules summary").click()
    browser.find_element(By.ID, "rules-text").send_keys('id = "ours"\nextends = "/etc/passwd.toml"\n')
    browser.find_element(By.ID, "go").click()
    error = wait(browser, '.error[data-for="rules"]', 30, text="never a file")
    assert error.text.startswith("pasted rules: extends") and "\n" not in error.text


def test_odds_page_shows_exact_beside_simulated(server, browser, shots):
    browser.get(server + "/odds")
    # the events are the system's once its deck has answered; options picked before would be redrawn
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.events"))
    select = Select(browser.find_element(By.ID, "events"))
    for name in ("double-pinochle", "roundhouse", "aces-around"):
        select.select_by_value(name)
    browser.find_element(By.ID, "hands").clear()
    browser.find_element(By.ID, "hands").send_keys("200000")
    browser.find_element(By.ID, "go").click()
    wait(browser, ".odds-table")
    want = api.odds(["double-pinochle", "roundhouse", "aces-around"], hands=200_000).set_index(["event", "per"])
    rows = browser.find_elements(By.CSS_SELECTOR, ".odds-table tbody tr")
    shown = {r.find_element(By.CSS_SELECTOR, "td").text: r for r in rows}
    names = {"double pinochle": "double-pinochle", "roundhouse": "roundhouse", "aces around": "aces-around"}
    assert set(shown) == set(names)

    def cell(row, col: str) -> str:
        return row.find_element(By.CSS_SELECTOR, f'td[data-col="{col}"]').get_attribute("textContent")

    for name, row in shown.items():
        for per in ("hand", "deal"):
            x = want.loc[(names[name], per)]
            assert cell(row, f"{per}-exact") == fmt.pct(x.exact)
            assert cell(row, per) == fmt.pct(x.estimate, x.lo, x.hi)
            assert cell(row, f"{per}-one-in") == (fmt.one_in(x.exact) if x.exact < 0.5 else "")  # not "1 in 1" for 94%
    assert players_words(browser) == []
    assert "events=double-pinochle" in browser.current_url  # the question asked, in the URL
    screenshot(browser, shots, "odds")


def test_house_rules_shows_the_committed_verdict_and_asks_another_system(server, browser, shots):
    browser.get(server + "/house-rules")
    Select(browser.find_element(By.ID, "question")).select_by_value("pass-3-vs-4")
    assert "0.0193" in wait(browser, "#committed .verdict").text
    Select(browser.find_element(By.ID, "variant")).select_by_value("partnership-auction")
    browser.find_element(By.ID, "hands").clear()
    browser.find_element(By.ID, "hands").send_keys("2000")
    browser.find_element(By.ID, "go").click()
    verdict = wait(browser, "#asked .verdict", 240).text
    want = api.compare("partnership-auction", overrides=["exchange.pass_cards=4"], hands=2000).attrs["verdict"]
    assert verdict == want
    assert "A, pass 3 cards, against B, pass 4 cards" in browser.find_element(By.ID, "asked").text
    assert players_words(browser) == []
    screenshot(browser, shots, "house-rules")


def test_bidding_cards_link_their_png_and_pdf_and_show_their_tables_as_text(server, browser, shots):
    browser.get(server + "/cards")
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".card-sheet a")]
    assert any(h.endswith("four-hand-150-card.pdf") for h in links)
    img = browser.find_element(By.CSS_SELECTOR, "#four-hand-150 img")
    browser.execute_script("arguments[0].scrollIntoView()", img)  # loaded lazily, below the card's text
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img) > 100
    )
    markdown = (Path(__file__).parents[1] / "reports" / "four-hand-150-card.md").read_text(encoding="utf-8")
    first = next(line for line in markdown.splitlines() if line.startswith("| 1 |"))
    cells = [
        c.text
        for c in browser.find_elements(By.CSS_SELECTOR, "#four-hand-150 .card-text tbody tr")[0].find_elements(
            By.TAG_NAME, "td"
        )
    ]
    assert cells == [c.strip() for c in first.strip("|").split("|")]
    Select(browser.find_element(By.ID, "variant")).select_by_value("auction")
    assert "No committed card for auction" in wait(browser, "#card-choice", 10, text="No committed card").text
    browser.find_element(By.ID, "make").click()  # made on demand: its tables as text, then its PNG
    made = wait(browser, "#made .card-text table", 120)
    assert browser.find_element(By.ID, "made").get_attribute("data-system") == "auction"
    assert "Made on demand at a small size" in browser.find_element(By.ID, "made").text
    assert made.find_elements(By.TAG_NAME, "tr")
    assert browser.execute_script("return document.querySelector('#made img').naturalWidth") > 100
    browser.execute_script("window.scrollTo(0, 0)")
    assert players_words(browser) == []
    screenshot(browser, shots, "cards")
    Select(browser.find_element(By.ID, "variant")).select_by_value("double-deck")
    wait(browser, "#card-choice", 10, text="double-deck: its card is below")


def test_deal_viewer_plays_card_by_card_with_double_dummy_values(server, browser, shots):
    def drawn() -> int:
        return int(browser.execute_script("return document.body.dataset.drawn || 0"))

    def after(click_css: str) -> None:
        before = drawn()
        browser.find_element(By.CSS_SELECTOR, click_css).click()
        WebDriverWait(browser, 60).until(lambda d: drawn() > before)

    browser.get(server + "/deal")
    wait(browser, ".seat.to-act .card.legal .dd", 120)  # the opening lead: every card valued, estimated
    first = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".seat.to-act .card.legal .dd")]
    job = browser.execute_script("return view.values_exact")
    assert first and all(v.startswith("≈") and v[1:].isdigit() for v in first), first
    assert job and not any(job.values())
    seat = browser.find_element(By.CSS_SELECTOR, ".seat.to-act").get_attribute("data-seat")
    card = browser.find_element(By.CSS_SELECTOR, ".seat.to-act .card.legal").get_attribute("data-card")
    after(".seat.to-act .card.legal")
    assert f"played {card}" in browser.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"] h3').text
    while len(browser.find_elements(By.CSS_SELECTOR, '.seat[data-seat="0"] .card')) > 4:
        after("#heuristic")  # the heuristic plays on to the last tricks, where values come quickly
    wait(browser, ".seat.to-act .card.legal .dd", 60)  # the values job's answer
    values = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".seat.to-act .card.legal .dd")]
    assert values and all(v.isdigit() for v in values)  # exact: no mark
    screenshot(browser, shots, "deal")
    after("#finish")
    assert "Over" in browser.find_element(By.ID, "status").text
    # where did I go wrong: the page's per-seat table is the analysis of the hand it played
    from simcore.variants import load_variant
    from simcore.web.deal import deal_analysis

    moves = browser.execute_script("return view.moves")
    browser.find_element(By.ID, "analyse").click()
    WebDriverWait(browser, 120).until(lambda d: d.execute_script("return document.body.dataset.analysed"))
    shown = [
        [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        for tr in browser.find_elements(By.CSS_SELECTOR, ".analysis-seats tbody tr")
    ]
    want = deal_analysis(load_variant("four-hand-150"), 1, None, moves)["per_seat"]
    assert shown == [[str(r["seat"]), r["role"], str(r["decisions"]), str(r["given_up"])] for r in want]
    screenshot(browser, shots, "deal-analysis")


def test_on_a_phone_the_meld_and_the_bid_advice_come_into_view(server, browser):
    hand = "AS 10S KS QS JS 9S AH KH QH AD JD QC"
    browser.set_window_size(*WIDTHS["phone"])
    try:
        browser.get(server + "/?deals=1000")
        wait(browser, '#grid .card[data-card="AS"]')
        tap_hand(browser, hand)
        wait(browser, '.trump[data-trump="S"] .total')
        WebDriverWait(browser, 5).until(lambda d: in_view(d, "#meld"))  # after the last card, no scrolling
        assert in_view(browser, "#go") or browser.find_element(By.ID, "go").is_displayed()
        assert browser.find_element(By.CSS_SELECTOR, '#grid .card[data-card="10H"]').get_attribute("disabled")
        browser.find_element(By.ID, "go").click()
        wait(browser, "#advise-headline", 120)
        assert in_view(browser, "#advise-headline")  # the answer, where the thumb is
        font = browser.execute_script(
            "const t = document.querySelector('#advise svg.chart .tick'), s = t.ownerSVGElement;"
            " return parseFloat(getComputedStyle(t).fontSize)"
            " * s.getBoundingClientRect().width / s.viewBox.baseVal.width"
        )
        assert font >= 11, f"chart labels {font:.1f} px on a phone"
        nav = browser.execute_script(
            "const n = document.querySelector('nav'); return [n.scrollHeight, n.querySelector('a').offsetHeight]"
        )
        assert nav[0] < 2 * nav[1], "the navigation wraps onto two lines"
        assert not browser.find_element(By.ID, "hold-box").get_attribute("open")  # folded on a phone
    finally:
        browser.set_window_size(*WIDTHS["desktop"])


def test_a_link_reopens_the_same_hand(server, browser):
    hand = "AS 10S KS QS JS 9S AH KH QH AD JD QC"
    browser.get(server + "/")
    wait(browser, '#grid .card[data-card="AS"]')
    tap_hand(browser, hand)
    wait(browser, '.trump[data-trump="S"] .total')
    link = browser.current_url
    assert "hand=AS+10S" in link
    browser.get(server + "/odds")
    browser.get(link)
    assert wait(browser, "#hand-count", 30, text="12 of 12")
    assert browser.find_element(By.ID, "hand").get_attribute("value") == hand
    assert wait(browser, '.trump[data-trump="S"] .total', 30, text="22").text == "22"
    browser.get(server + "/?variant=auction&hand=AS+AS+KH&seed=7")
    assert wait(browser, "#hand-count", 30, text="3 of 15")
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "auction"
    assert browser.find_element(By.ID, "seed").get_attribute("value") == "7"
    browser.get(server + "/house-rules?question=pass-3-vs-none&variant=auction")
    assert wait(browser, "#changes", 10, text="no pass").text == "A: pass 3 cards; B: no pass."
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "auction"
    browser.get(server + "/odds?variant=auction&events=roundhouse,double-pinochle&seed=3")
    # the page lists the system's events once its deck is in; reading the options before would read a list
    # about to be replaced (a stale element)
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.events"))
    WebDriverWait(browser, 10).until(
        lambda d: (
            {o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#events option:checked")}
            == {"roundhouse", "double-pinochle"}
        )
    )
    assert browser.find_element(By.ID, "seed").get_attribute("value") == "3"
    browser.get(server + "/cards?variant=double-deck")
    wait(browser, "#card-choice", 10, text="double-deck: its card is below")


def test_a_deck_without_nines_lists_no_nines_events(server, browser):
    hand = "AS AS AS AS 10S 10S KS KS QS QS JS JS AH AH KH QH AD AD JD QC"
    browser.get(server + "/?variant=double-deck&deals=100")
    assert wait(browser, "#hand-count", 30, text="0 of 20")
    assert not browser.find_elements(By.CSS_SELECTOR, '#grid .card[data-card="9S"]')
    browser.find_element(By.ID, "hand").send_keys(hand)
    wait(browser, '.trump[data-trump="S"] .total')
    browser.find_element(By.ID, "go").click()
    wait(browser, ".hold-table", 180)
    events = {
        td.get_attribute("textContent")
        for td in browser.find_elements(By.CSS_SELECTOR, '.hold-table td[data-col="event"]')
    }
    assert "kings around" in events and not events & {"five nines", "redeal hand"}
    assert "aces around" not in events  # I hold all four aces of spades: named as out of reach instead
    assert "aces around" in browser.find_element(By.CSS_SELECTOR, "#hold > p:last-child").get_attribute("textContent")
    assert not any(
        v == "0%"
        for v in browser.execute_script(
            "return Array.from(document.querySelectorAll('.hold-table td:not([data-col=event])'))"
            ".map(t => t.textContent)"
        )
        if v
    ), "an event no hand can hold is listed"
    browser.find_element(By.ID, "hand").clear()
    browser.find_element(By.ID, "hand").send_keys("9S")
    assert "not in double-deck's deck" in wait(browser, '.error[data-for="hand"]', 10, text="9S").text
    browser.get(server + "/odds?variant=double-deck")
    # the options are redrawn when the deck answers: read them once the page says they are in
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.events"))
    options = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#events option")]
    assert "five nines" not in options and "aces around" in options


def test_the_pages_format_numbers_by_the_reports_rules(server, browser):
    browser.get(server + "/odds")
    wait(browser, "#events option")
    for p in (0.944, 0.5, 0.0387, 7.5e-5, 0.00183, 0.999, 1.0, 0.0, 0.123456):
        assert browser.execute_script("return fmtPct(arguments[0])", p) == fmt.pct(p), p
        assert browser.execute_script("return fmtOneIn(arguments[0])", p) == fmt.one_in(p), p
    for p, lo, hi in ((0.536, 0.534, 0.538), (0.54, 0.5399, 0.5401), (0.0123, 0.0119, 0.0127)):
        assert browser.execute_script("return fmtPct(...arguments)", p, lo, hi) == fmt.pct(p, lo, hi)
    for x in (0.0193, -0.205, 12345.6, 2.8e-05, 0.5, -3.25):
        assert browser.execute_script("return fmtNumber(arguments[0])", x) == fmt.number(x), x
    for args in (
        (-0.205, -0.2074, -0.2027),
        (0.3, -1.7, 2.2, " pp"),
        (1.9,),
        (-5e-5, -9e-5, -1e-5),
        (123.4, 120.1, 126.0),
    ):
        assert browser.execute_script("return fmtSigned(...arguments)", *args) == fmt.signed(*args), args
    for x, lo, hi, t in (
        (0.99, 0.51, 1.47, 1.0),
        (-1.004, -1.5, -0.5, 1.0),
        (1.3, 0.8, 1.8, 1.0),
        (1.0, 0.5, 1.5, 1.0),
    ):
        shown = browser.execute_script("return fmtSigned(...arguments)", x, lo, hi, " pp", 1, t)
        assert shown == fmt.signed(x, lo, hi, " pp", threshold=t), (x, t)
    assert browser.execute_script("return fmtChance(0.944)") == "94%"  # no "1 in 1"
    assert browser.execute_script("return fmtChance(7.5e-5)") == "0.0075% (1 in 13,333)"


def test_deal_viewer_on_a_phone_keeps_the_seat_to_play_in_view_shows_the_trick_and_links_the_position(
    server, browser, shots
):
    def drawn() -> int:
        return int(browser.execute_script("return document.body.dataset.drawn || 0"))

    browser.set_window_size(*WIDTHS["phone"])
    try:
        browser.get(server + "/deal?variant=four-hand-150&seed=2&values=off")
        wait(browser, ".seat.to-act .card.legal")
        assert in_view(browser, ".seat.to-act", whole=True)
        for _ in range(6):  # a trick and a half: the seat to play moves round the table and down the page
            seat = browser.find_element(By.CSS_SELECTOR, ".seat.to-act").get_attribute("data-seat")
            card = browser.find_element(By.CSS_SELECTOR, ".seat.to-act .card.legal").get_attribute("data-card")
            before = drawn()
            browser.find_element(By.CSS_SELECTOR, ".seat.to-act .card.legal").click()
            WebDriverWait(browser, 60).until(lambda d, before=before: drawn() > before)
            played = browser.find_element(By.CSS_SELECTOR, f'#trick .played-card[data-seat="{seat}"]')
            assert played.get_attribute("data-card") == card  # this trick, or the one it just closed
            assert in_view(browser, ".seat.to-act", whole=True), f"seat to play out of view after {card}"
        screenshot(browser, shots, "deal-phone-play")
        moves = browser.execute_script("return view.moves")
        trick = browser.execute_script("return view.trick")
        link = browser.find_element(By.ID, "permalink").get_attribute("href")
        assert browser.current_url == link and "moves=" in link
    finally:
        browser.set_window_size(*WIDTHS["desktop"])
    # the link opens the same position, which the API gives for the same decisions
    browser.get(link)
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return view && view.moves.length") == len(moves))
    assert browser.execute_script("return view.moves") == moves
    want = client_view(moves, seed=2)
    assert browser.execute_script("return view.trick") == trick == want["trick"]
    assert browser.execute_script("return view.hands") == want["hands"]
    # at a desktop's width the trick lies between the top seats and the bottom ones
    box = browser.execute_script(
        "const y = e => document.querySelector(e).getBoundingClientRect();"
        "return [y('.seat[data-seat=\"0\"]').bottom, y('#trick').top, y('#trick').bottom,"
        " y('.seat[data-seat=\"2\"]').top]"
    )
    assert box == sorted(box)


def client_view(moves: list[int], seed: int) -> dict:
    from simcore.web.deal import deal_view
    from simcore.web.inputs import shipped

    return deal_view(shipped("four-hand-150"), seed, None, moves, "none", False)


def test_deal_viewer_plays_a_deal_entered_by_tapping_cards_into_seats(server, browser):
    dealt = api.new_hand("auction", seed=9)
    hands = [dealt.observation(s)["hand"] for s in range(3)]
    browser.get(server + "/deal?variant=auction&seed=1&values=off")
    wait(browser, ".seat.to-act")
    browser.find_element(By.CSS_SELECTOR, "#enter-box summary").click()
    for hand in hands:  # a seat full moves the taps on to the next seat
        for card in hand:
            browser.find_element(By.CSS_SELECTOR, f'#enter-grid .card[data-card="{card}"]').click()
    used_up = [c for c in set(sum(hands, [])) if sum(h.count(c) for h in hands) == 2]  # a single deck: 2 copies
    assert used_up and all(
        browser.find_element(By.CSS_SELECTOR, f'#enter-grid .card[data-card="{c}"]').get_attribute("disabled")
        for c in used_up
    )
    before = int(browser.execute_script("return document.body.dataset.drawn || 0"))
    browser.find_element(By.ID, "enter-play").click()
    WebDriverWait(browser, 60).until(lambda d: int(d.execute_script("return document.body.dataset.drawn")) > before)
    lines = browser.find_element(By.ID, "cards").get_attribute("value").split("\n")
    assert [line.split() for line in lines[:3]] == hands
    assert sorted(lines[3].split()) == sorted(widow_of(dealt))  # what no seat holds
    from simcore.web.deal import deal_view
    from simcore.web.inputs import shipped

    want = deal_view(shipped("auction"), 1, lines, [], "none", False)
    assert browser.execute_script("return view.hands") == want["hands"]
    assert browser.execute_script("return view.before_play[0].cards") == want["before_play"][0]["cards"]
    assert "cards=" in browser.current_url
    # a card the system's deck lacks is greyed out too (double-deck has no nines)
    browser.get(server + "/deal?variant=double-deck&seed=1&values=off")
    wait(browser, ".seat.to-act")
    browser.find_element(By.CSS_SELECTOR, "#enter-box summary").click()
    nine = wait(browser, '#enter-grid .card[data-card="9S"]', 10)
    assert nine.get_attribute("disabled") and "not in this deck" in nine.get_attribute("title")
    assert not browser.find_element(By.CSS_SELECTOR, '#enter-grid .card[data-card="AS"]').get_attribute("disabled")


def widow_of(state) -> list[str]:
    """The widow as dealt, from the hand's record."""
    return [
        m["card"]
        for m in state.played_record()["moves"]
        if m["move"] == "deal" and m["seat"] is None
        for _ in range(m["count"])
    ]
