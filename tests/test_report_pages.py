"""The report as a player reads it: numbers for people on every page (DESIGN principle 10), a card
per system, and human formatting rules. Reads the committed reports/ (no simulation: fast)."""

import re
from pathlib import Path

import pytest

from analyses import fmt
from analyses.report import MAIN_SYSTEMS

REPORTS = Path(__file__).parent.parent / "reports"
PAGES = sorted(REPORTS.glob("*.md"))
#: An interval whose two ends print the same ("(0.32–0.32", "95% range 32 to 32") says nothing.
EMPTY_INTERVAL = re.compile(r"[\[(](\d[\d.,]*)%?\s*(?:–| to )\s*\1%?[\];)]|range (\d[\d.,]*) to \2(?![\d.,])")
GARBLED = ("name trump record no meld", "[54%, 54%]")


def page_problems(text: str) -> list[str]:
    """Scientific notation, nan/inf, an interval with equal ends, or a known garbled sentence."""
    found = fmt.clean(text)
    found += [m.group(0) for m in EMPTY_INTERVAL.finditer(text)]
    found += [g for g in GARBLED if g in text]
    return found


def test_the_checker_catches_what_the_issue_found():
    for bad in (
        "| 2.8e-05 |",
        "| 3e5 |",
        "1.5E+03 hands",
        "| nan |",
        "0.32 redeals (0.32–0.32; estimated)",
        "95% range 32 to 32",
        "the bidder held no marriage to name trump record no meld",
    ):
        assert page_problems(bad), bad
    for good in (
        "54% [53–55%]",
        "1 in 393",
        "from 1 to 30",
        "2 to 3",
        "A-10-K-Q-J",
        "trick-count-10-10-10",
        "[5–5.5]",
        "−20.5 pp [−20.7 to −20.3]",
        "measured 2026-12-07 at commit c6f47e1 in 18 minutes",
    ):
        assert not page_problems(good), good


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_committed_pages_hold_numbers_for_people(page):
    assert page_problems(page.read_text()) == []


def test_every_default_system_has_a_card_linked_from_the_index():
    index = (REPORTS / "index.md").read_text()
    for vid in MAIN_SYSTEMS:
        for suffix in (".md", ".png", ".pdf"):
            path = REPORTS / f"{vid}-card{suffix}"
            assert path.exists() and path.stat().st_size > 0, path
        assert f"({vid}-card.md)" in index
        card = (REPORTS / f"{vid}-card.md").read_text()
        for part in ("Bidding card", "Meld values", "How rare is each meld?", "**Redeal.**", "**Points.**"):
            assert part in card, (vid, part)
        assert len(re.findall(rb"/Type /Page(?!s)", (REPORTS / f"{vid}-card.pdf").read_bytes())) == 1  # one page


@pytest.mark.parametrize("vid", MAIN_SYSTEMS)
def test_a_card_names_only_the_exchanges_its_system_has(vid):
    from analyses.names import exchange_words
    from simcore.variants import load_variant

    card = (REPORTS / f"{vid}-card.md").read_text()
    before = exchange_words(load_variant(vid))
    assert f"Your meld as dealt{f' (before {before})' if before else ''} → " in card
    if not load_variant(vid).widow:  # four-hand-150 deals no widow: its card says none
        assert "widow" not in card.split("## Meld values")[0]


def test_exact_values_lead():
    index = (REPORTS / "index.md").read_text()
    assert "1 in 38,916" in index  # draw-pinochle's double pinochle, exact
    assert "one hand in 35,714" not in index  # the simulated figure it used to lead with
    assert "3.951% exactly" in (REPORTS / "four-hand-150.md").read_text()


def test_formatting_rules():
    assert fmt.pct(0.536, 0.534, 0.538) == "54% [53–54%]"
    assert fmt.pct(0.54, 0.5399, 0.5401) == "54%"  # an interval narrower than the digits is not printed
    assert fmt.one_in(1 / 393.4) == "1 in 393"
    assert fmt.one_in(1 / 16.6) == "1 in 16.6"
    assert fmt.one_in_interval(1 / 391, 1 / 398, 1 / 383) == "1 in 391 [383–398]"
    assert fmt.number(2.8e-05) == "0.0000280"
    assert fmt.value(0.32, 0.3201, 0.3202, digits=2) == "0.32"
    assert fmt.signed(-0.205, -0.2074, -0.2027) == "−0.205 [−0.207 to −0.203]"
    assert fmt.signed(0.3, -1.7, 2.2, " pp") == "+0.3 pp [−1.7 to +2.2]"
    for x in (float("nan"), None, float("inf")):
        assert fmt.pct(x) == fmt.one_in(x) == fmt.number(x) == "—"


def test_a_value_never_prints_as_the_threshold_it_is_judged_against():
    # 0.99 pp against a threshold of 1 pp: one decimal would print "+1.0", the threshold's own digits
    assert fmt.signed(0.99, 0.51, 1.47, " pp") == "+1.0 pp [+0.5 to +1.5]"
    assert fmt.signed(0.99, 0.51, 1.47, " pp", threshold=1.0) == "+0.99 pp [+0.51 to +1.47]"
    assert fmt.signed(-1.004, -1.5, -0.5, threshold=1.0) == "−1.004 [−1.500 to −0.500]"
    # apart already, or exactly the threshold: the digits stay as they were
    assert fmt.signed(1.3, 0.8, 1.8, " pp", threshold=1.0) == "+1.3 pp [+0.8 to +1.8]"
    assert fmt.signed(1.0, 0.5, 1.5, " pp", threshold=1.0) == "+1.0 pp [+0.5 to +1.5]"
    assert fmt.decimals_apart(0.99, 1.0, 1) == 2 and fmt.decimals_apart(0.99, 1.0, 2) == 2
    assert fmt.decimals_apart(1 + 1e-9, 1.0, 1) == fmt.MOST_DECIMALS  # never more than that
    assert fmt.decimals_apart(float("nan"), 1.0, 1) == 1


def test_two_lines_that_print_alike_are_the_same_line():
    assert fmt.line(26.043276, 0.802497) == "26.0 + 0.80 × your meld"
    assert fmt.line(1500.4, 1.126, "meld") == "1,500 + 1.13 × meld"
    assert fmt.same_line((152.946905, 1.128705), (152.707728, 1.127897))  # partnership-auction's two
    assert not fmt.same_line((26.922433, 0.751082), (26.202024, 0.73658))
    assert not fmt.same_line((153.0, 1.13), (153.0, 1.12))


def test_the_index_links_the_strong_play_page_and_the_page_its_files():
    from analyses.report import STRONG_PLAY_LINE

    assert STRONG_PLAY_LINE in (REPORTS / "index.md").read_text()
    page = (REPORTS / "strong-play.md").read_text()
    linked = re.findall(r"\]\((strong-play-[\w-]+\.(?:png|csv))\)", page)
    assert {p.name for p in REPORTS.glob("strong-play-*")} == set(linked)  # no stale file, none missing
    for part in ("Who played.", "seed 1", "4,000,000 positions", "minutes with", "How this was measured"):
        assert part in page, part


#: Words a card player should not meet unexplained on the pages (the developers' terms).
JARGON = (
    "tuned margin",
    "duels",
    "equilibrium",
    "root mean square",
    "trick starts",
    "percentile bootstrap",
    "gave-up",
    "solves that gave up",
)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_speak_plainly_and_end_with_the_method(page):
    text = page.read_text()
    assert [w for w in JARGON if w in text.lower()] == []
    if page.name != "README.md":
        assert "\n## How this was measured\n" in text
    if "≈ marks a simulated value" in text or "≈ simulated" in text:
        assert re.search(r"\| ≈ ", text), "a legend promises ≈ but no cell has one"


@pytest.mark.parametrize("vid", MAIN_SYSTEMS)
def test_cards_show_every_meld_row_and_never_bid_less_for_more_meld(vid):
    card = (REPORTS / f"{vid}-card.md").read_text()
    rows = re.findall(r"^\| (\d+)(?:–(\d+))? \| ([^|]+) \| ([^|]+) \| [\d,]+ \|$", card, flags=re.M)
    assert len(rows) >= 20
    lows = [int(r[0]) for r in rows]
    width = lows[1] - lows[0]
    assert all(b - a == width for a, b in zip(lows, lows[1:])), "a meld row is missing"

    def bid(cell: str) -> float:
        return -1 if cell.startswith("pass") else float(cell.split()[0].rstrip("*").replace(",", ""))

    for column in (2, 3):
        bids = [bid(r[column]) for r in rows]
        assert bids == sorted(bids), f"{vid}: the card bids less for more meld"
    if any(r[c].strip().endswith("*") for r in rows for c in (2, 3)):
        assert "neighbouring meld rows read together" in card
