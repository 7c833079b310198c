"""The figures README.md states in its prose, checked against the code that produces them (its examples,
the ``$ pinochle`` blocks, are run by tests/test_examples.py)."""

from __future__ import annotations

import re
from pathlib import Path

from analyses import fmt
from analyses.strong_lines import line_table, load
from simcore.commands.common import DEFAULT_VARIANT
from simcore.variants import load_variant, scale_text

#: The README with its line breaks read as spaces, as a reader reads its prose.
README = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8").split())


def test_the_default_system_and_its_scale_are_the_commands_and_the_rules():
    assert f"Without `--variant` a command plays **{DEFAULT_VARIANT}**, which counts in single points: " in README
    for vid in (DEFAULT_VARIANT, "partnership-auction"):
        # "25 trick points a hand, bids from 20 by 1, a game to 150" as the rules file gives it
        assert scale_text(load_variant(vid)).split(": ", 1)[1] in README, vid


def test_the_strong_play_line_quoted_is_the_one_the_card_fits():
    quoted = re.search(
        r"partnership-auction's is (\d+) \+ ([\d.]+) × your meld, the same line as under the heuristic's play", README
    )
    assert quoted, "the README no longer quotes partnership-auction's line under strong play"
    table = line_table(load(load_variant("partnership-auction"))).set_index("play")

    def shown(play: str) -> tuple[str, str]:  # as the card prints it (analyses.strong_lines.card_sentence)
        return fmt.number(table.loc[play, "a"], 3), f"{table.loc[play, 'b']:.2f}"

    assert shown("sampling") == (quoted[1], quoted[2])
    assert shown("heuristic") == shown("sampling"), "the README says the heuristic's line is the same"


def test_the_figures_the_opening_shows_are_printed_by_the_tour():
    # the opening's "as a player reads them" figures are outputs of the tour's examples, which
    # tests/test_examples.py runs
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    opening = text.split("\n## ", 1)[0]
    shown = re.search(r"printed as a player reads them \((.*?)\)\.", " ".join(opening.split()))
    assert shown, "the README's opening no longer shows how figures are printed"
    outputs = "\n".join(re.findall(r"```\n(\$ pinochle .*?)```", text, flags=re.S))
    for figure in re.findall(r'"([^"]+)"', shown[1]):
        assert figure in outputs, figure
