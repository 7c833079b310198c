"""``pinochle serve`` in a real browser (Debian's chromium and chromium-driver through selenium): each
page opens, a hand entered by tapping the card grid shows the API's meld and bids, the odds, house-rule
and deal-viewer pages show the API's numbers, bad input shows its one line next to the field, and
screenshots are taken at desktop and phone (360 px) widths into ``SCREENSHOTS`` (default: pytest's
tmp dir; ``docs/img`` to refresh the documentation's). Without a browser the tests skip, saying why."""

import os
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

from simcore import api
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
    while app.state.warmup.state not in ("ready", "failed") and time.monotonic() < end:
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
    held = api.hold_odds(hand, hands=80_000).set_index(["event", "place"])
    first = browser.find_element(By.CSS_SELECTOR, '.hold-table td[data-col="partner"] span').get_attribute("title")
    assert first.split()[1] == f"{held.loc[('marriage', 'partner'), 'estimate']:.3f}"
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
    assert shown[20] == f"{100 * dict(worth.attrs['gain']['at_least'])[20]:.3g}%"
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
    browser.find_element(By.CSS_SELECTOR, "#given-box summary").click()
    browser.find_element(By.ID, "given").send_keys("lefty: aces>=3")
    browser.find_element(By.ID, "go").click()
    error = wait(browser, '.error[data-for="given"]', 30, text="lefty")
    assert "place 'lefty' is not known" in error.text and "\n" not in error.text


def test_malformed_rules_show_their_line_next_to_the_rules(server, browser):
    browser.get(server + "/odds")
    browser.find_element(By.CSS_SELECTOR, ".rules summary").click()
    browser.find_element(By.ID, "rules-text").send_keys('id = "ours"\nextends = "/etc/passwd.toml"\n')
    browser.find_element(By.ID, "go").click()
    error = wait(browser, '.error[data-for="rules"]', 30, text="never a file")
    assert error.text.startswith("pasted rules: extends") and "\n" not in error.text


def test_odds_page_shows_exact_beside_simulated(server, browser, shots):
    browser.get(server + "/odds")
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
    assert set(shown) == {"double-pinochle", "roundhouse", "aces-around"}
    for event, row in shown.items():
        for per in ("hand", "deal"):
            exact = float(row.find_element(By.CSS_SELECTOR, f'td[data-col="{per}-exact"]').text)
            simulated = float(row.find_element(By.CSS_SELECTOR, f'td[data-col="{per}"]').text.split()[0])
            assert exact == pytest.approx(want.loc[(event, per), "exact"], rel=5e-3)  # three digits shown
            assert simulated == pytest.approx(want.loc[(event, per), "estimate"], rel=5e-3)
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
    wait(browser, ".seat.to-act .card.legal")
    seat = browser.find_element(By.CSS_SELECTOR, ".seat.to-act").get_attribute("data-seat")
    card = browser.find_element(By.CSS_SELECTOR, ".seat.to-act .card.legal").get_attribute("data-card")
    after(".seat.to-act .card.legal")
    assert f"played {card}" in browser.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{seat}"] h3').text
    while len(browser.find_elements(By.CSS_SELECTOR, '.seat[data-seat="0"] .card')) > 4:
        after("#heuristic")  # the heuristic plays on to the last tricks, where values come quickly
    wait(browser, ".seat.to-act .card.legal .dd", 60)  # the values job's answer
    values = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".seat.to-act .card.legal .dd")]
    assert values and all(v.isdigit() for v in values)
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


def in_view(driver, css: str) -> bool:
    """Whether the element is wholly in the window, below the sticky navigation."""
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "const top = document.querySelector('header').getBoundingClientRect().bottom;"
        "return r.top >= top - 1 && r.bottom <= window.innerHeight + 1",
        css,
    )


def test_deal_viewer_on_a_phone_keeps_the_seat_to_play_in_view_shows_the_trick_and_links_the_position(
    server, browser, shots
):
    def drawn() -> int:
        return int(browser.execute_script("return document.body.dataset.drawn || 0"))

    browser.set_window_size(*WIDTHS["phone"])
    try:
        browser.get(server + "/deal?variant=four-hand-150&seed=2&values=off")
        wait(browser, ".seat.to-act .card.legal")
        assert in_view(browser, ".seat.to-act")
        for _ in range(6):  # a trick and a half: the seat to play moves round the table and down the page
            seat = browser.find_element(By.CSS_SELECTOR, ".seat.to-act").get_attribute("data-seat")
            card = browser.find_element(By.CSS_SELECTOR, ".seat.to-act .card.legal").get_attribute("data-card")
            before = drawn()
            browser.find_element(By.CSS_SELECTOR, ".seat.to-act .card.legal").click()
            WebDriverWait(browser, 60).until(lambda d, before=before: drawn() > before)
            played = browser.find_element(By.CSS_SELECTOR, f'#trick .played-card[data-seat="{seat}"]')
            assert played.get_attribute("data-card") == card  # this trick, or the one it just closed
            assert in_view(browser, ".seat.to-act"), f"seat to play out of view after {card}"
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
