"""``pinochle report``: a Markdown report (an index and a page per system) with PNG charts and CSV
tables, from every analysis.

Each page states its rules, seed and counts. The index answers the four questions players ask first
(how often is double pinochle dealt, how often do we redeal, how high should I bid, which house rules
matter) in words generated from the numbers, with the charts beside them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from analyses import (
    bid_strategy,
    card,
    house_rules,
    meld_distribution,
    partner,
    rare_melds,
    redeal,
    strong_lines,
    style,
    systems,
)
from analyses.progress import told
from analyses.section import Section, Sizes
from analyses.titles import description_line, is_house, system_title
from simcore.variants import Variant, load_variant

#: The index's line on the strong-play page, which ``pinochle report --strong-play`` writes apart
#: (:mod:`analyses.strong_report`): it solves for minutes, so the default report only links it.
STRONG_PLAY_LINE = (
    "**How far the simulated players are from strong play** (their card play against a stronger "
    "computer player that looks ahead, in points and in games won, their contracts against perfect play "
    "with every card seen, their worst card choices, the bidding card under stronger play): "
    "[strong-play.md](strong-play.md), written by `pinochle report --strong-play` (20 to 40 minutes "
    "of solving on 2 cores, so not part of this command)."
)


def measured_note(sizes: Sizes, seed: int) -> list[str]:
    """The "How this was measured" note that ends every page, in a card player's words."""
    return [
        "## How this was measured",
        "",
        f"Every number comes from cards dealt and played by the computer, from seed {seed}: the same seed "
        "and counts give the same numbers on any machine (`pinochle report`; what is promised: "
        "docs/report.md).",
        "",
        f"- **Odds of a dealt hand** (melds, five nines, redeals): {sizes.dealt:,} hands dealt at random per "
        "system. Where the odds can be counted exactly (by combinatorics), the exact value is printed and "
        "the simulation only checks it.",
        f"- **Bidding and making contracts**: {sizes.played:,} hands bid, passed and played out per system "
        "by simulated players. They follow a fixed strategy (docs/policies.md): they value a hand by its meld "
        "and its likely tricks, and bid as boldly as pays best in that system, found by matching two "
        "partnerships that differ only in boldness over many thousands of hands; they play their cards by "
        "simple rules, except in the last tricks, where each card is scored by a formula fitted on how "
        "perfect play with every hand face up would value it.",
        f"- **Games**: {sizes.games:,} whole games for game lengths and redeals a game.",
        "- **Brackets** after a simulated number give its 95% interval: the range that holds the true value "
        "in 19 runs out of 20. It is left out where it is narrower than the digits shown.",
        "",
    ]


#: What ``pinochle report`` covers with no --variant: the mainstream single deck, the classic 10-point
#: partnership auction, and the double deck.
MAIN_SYSTEMS = ("four-hand-150", "partnership-auction", "double-deck")


def default_out(variants: Sequence[Variant], reports: str | Path = "reports") -> Path:
    """Where a report goes when no folder is given: ``reports`` for shipped systems; for house rules
    (:func:`analyses.titles.is_house`) a folder of their own inside it, named by their ids
    (``reports/my-house``), so the shipped report's files are never written over."""
    houses = [v.id for v in variants if is_house(v)]
    return Path(reports) / "+".join(houses) if houses else Path(reports)


def _plays_full_hands(v: Variant) -> bool:
    return v.get("auction.kind") not in (None, "none")


def system_sections(v: Variant, sizes: Sizes, seed: int, say: Callable[[str], None] = lambda _: None) -> list[Section]:
    """Every analysis that applies to one system, in reading order; ``say`` is told each as it starts."""
    analyses = [("rare melds", rare_melds), ("meld distribution", meld_distribution), ("redeals", redeal)]
    if _plays_full_hands(v):
        analyses += [("how high to bid", bid_strategy), ("what partner's pass is worth", partner)]
    out = []
    for label, module in analyses:
        say(f"{v.id}: {label} ...")
        with told(f"{v.id}: {label}", say):
            out.append(module.section(v, sizes, seed))
    if _plays_full_hands(v):
        strong = strong_lines.section(v, sizes, seed)  # kept plays: only where they were measured
        if strong is not None:
            out.insert(len(out) - 1, strong)
    return out


def write_section(section: Section, prefix: str, out: Path, written: list[Path]) -> list[str]:
    """The section's Markdown lines; its figures and tables written beside the page. A table shows on
    the page in its human form (``section.display``); the CSV beside it keeps the raw values."""
    lines = [f"## {section.title}", "", section.text, ""]
    for key, fig in section.figures.items():
        path = out / f"{prefix}-{key}.png"
        style.save(fig, path)
        written.append(path)
        caption = section.captions.get(key)
        alt = caption or f"{section.title}: {key.replace('_', ' ')}"
        lines += [f"![{alt}]({path.name})", ""] + ([f"*{caption}.*", ""] if caption else [])
    links = []
    for key, table in section.tables.items():
        path = out / f"{prefix}-{key}.csv"
        table.to_csv(path, index=False)
        written.append(path)
        if key in section.display:
            lines += [section.display[key], ""]
        links.append(f"[{path.name}]({path.name})")
    if links:
        lines += ["Raw values with their 95% intervals (CSV): " + ", ".join(links) + ".", ""]
    return lines


def played_by(sizes: Sizes, seed: int) -> str:
    """Who played the hands behind a bidding answer (DESIGN principle 9)."""
    return (
        f"Played by simulated players bidding as boldly as pays best in this system, {sizes.played:,} hands, "
        f"seed {seed}."
    )


def write_card(
    v: Variant, sections: list[Section], page: Path, out: Path, sizes: Sizes, seed: int, written: list[Path]
) -> Path:
    """The player's card of one system: ``<id>-card.md`` with its one-page PNG and PDF."""
    png, pdf, md = out / f"{v.id}-card.png", out / f"{v.id}-card.pdf", out / f"{v.id}-card.md"
    fig = card.plot_card(v, sections, played_by(sizes, seed))
    style.save(fig, png)
    style.save(fig, pdf)  # one page; the PDF is vector, so it prints sharp
    md.write_text(card.card_markdown(v, sections, page.name, png.name, pdf.name, played_by(sizes, seed)))
    written += [md, png, pdf]
    return md


def write_report(
    out: str | Path,
    variants: Sequence[str | Variant] = MAIN_SYSTEMS,
    sizes: Sizes = Sizes(),
    seed: int = 1,
    say: Callable[[str], None] = lambda _: None,
) -> list[Path]:
    """Write the report into ``out`` and return every file written (the file to open first, first).
    ``variants`` are ids, rules files or loaded rules (a margin tuned just now, say).

    A report that covers house rules (:func:`analyses.titles.is_house`) writes only the pages and cards
    of the systems asked for, the first page first: no ``index.md`` (so it never writes over the shipped
    report's, whatever ``out``), and neither the shipped house-rule questions nor the shipped systems
    side by side, which do not depend on the rules asked for."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    loaded = [vid if isinstance(vid, Variant) else load_variant(vid) for vid in variants]
    written: list[Path] = []
    counts = (
        f"seed {seed}; {sizes.dealt:,} hands dealt per dealing analysis, {sizes.played:,} hands "
        f"played in full, {sizes.games:,} whole games"
    )
    answers: dict[str, list[str]] = {"double": [], "redeal": [], "bid": []}
    pages, cards = [], []
    for v in loaded:
        start = time.perf_counter()
        sections = system_sections(v, sizes, seed, say)
        page = out / f"{v.id}.md"
        card_page = write_card(v, sections, page, out, sizes, seed, written)
        lines = [
            f"# {system_title(v)}" + ("" if system_title(v) == v.id else f" (`{v.id}`)"),
            "",
            description_line(v),
            "",
            f"Rules: `{v.where}`; {counts}. **Points:** {card.scale_sentence(v)} "
            f"The player's card: [{card_page.name}]({card_page.name}).",
            "",
        ]
        origin = v.margin_origin
        if origin is not None and origin.bidding and (origin.inherited or origin.set_by in (None, "--tune-margin")):
            lines += [f"**Bidding:** the simulated players bid with {origin.describe()}.", ""]
        for s in sections:
            lines += write_section(s, v.id, out, written)
        page.write_text("\n".join(lines + measured_note(sizes, seed)))
        written.append(page)
        pages.append((v, page))
        cards.append((v, card_page))
        by_title = {s.title: s for s in sections}
        link = f"### [{v.id}]({page.name})"
        answers["double"] += [link, "", by_title["Rare melds"].text, ""]
        answers["redeal"] += [link, "", by_title["How often we redeal"].text, ""]
        if "How high to bid" in by_title:
            answers["bid"] += [
                link,
                "",
                "\n\n".join(by_title["How high to bid"].text.split("\n\n")[:2]),
                "",
                f"The bidding card: [{card_page.name}]({card_page.name}).",
                "",
            ]
        say(f"{v.id}: {len(sections)} sections in {time.perf_counter() - start:.0f} s")
    if any(is_house(v) for v in loaded):
        return [p for _, p in pages] + [f for f in written if f not in {p for _, p in pages}]
    start = time.perf_counter()
    say("house rules (each played both ways on the same deals) ...")
    with told("house rules", say):
        rules = house_rules.section(sizes, seed)
    say("the systems side by side ...")
    with told("the systems side by side", say):
        compared = systems.section(sizes, seed)
    say(f"house rules and systems in {time.perf_counter() - start:.0f} s")
    table = compared.tables["systems"]
    explained = systems.make_rate_explained(table[table["variant"].isin([v.id for v, _ in pages])])
    scales = " ".join(card.scale_sentence(v) for v, _ in pages)
    index = [
        "# Pinochle: the answers",
        "",
        f"Generated by `pinochle report` ({counts}). Exact odds lead wherever they can be counted; "
        "simulated numbers carry a 95% interval in brackets where it is wider than the digits shown. How "
        "this was measured: at the end of the page.",
        "",
        "**Cards to print** (bidding card, meld values, odds, redeal rate on one page): "
        + ", ".join(f"[{system_title(v)}]({c.name})" for v, c in cards)
        + ".",
        "",
        "**Full pages:** " + ", ".join(f"[{system_title(v)}]({p.name})" for v, p in pages) + ".",
        "",
        STRONG_PLAY_LINE,
        "",
        f"**Points scales differ.** {scales} Compare systems by shares of the trick points, not raw points.",
        "",
        "## How often is double pinochle dealt?",
        "",
        *answers["double"],
        "",
        "## How often do we redeal?",
        "",
        *answers["redeal"],
        "",
        "## How high should I bid?",
        "",
        *(answers["bid"] or ["No system here plays full hands."]),
        "",
        explained,
        "",
    ]
    index += write_section(rules, "house-rules", out, written)
    index += write_section(compared, "systems", out, written)
    index += measured_note(sizes, seed)
    index_path = out / "index.md"
    index_path.write_text("\n".join(index))
    return [index_path] + written
