"""The redeal, house-rule and systems analyses, and `pinochle report` (small, seeded runs)."""

import json
import math
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from analyses import house_rules, redeal, systems
from analyses.section import Sizes
from simcore.variants import load_variant

SMALL = Sizes.small()


def test_redeal_rates_contain_the_exact_values_and_count_per_game():
    table = redeal.redeal_table(["four-hand-150", "partnership", "double-deck"], hands=200_000, games=300)
    assert list(table.columns) == list(redeal.COLUMNS)
    assert list(table["variant"]) == ["four-hand-150", "partnership"]  # double-deck has no nines
    for r in table.itertuples():
        assert r.per_hand_lo <= r.per_hand_exact <= r.per_hand_hi
        assert r.per_deal_lo <= r.per_deal <= r.per_deal_hi
    own, other = table.iloc[0], table.iloc[1]
    assert own.has_rule and own.event == "redeal" and own.per_game_kind == "played"
    assert not other.has_rule and other.event == "five-nines" and other.per_game_kind == "estimated"
    assert 0 < own.per_game_lo <= own.per_game <= own.per_game_hi
    assert isinstance(redeal.plot_redeals(table, 200_000), Figure)


def test_redeal_section_speaks_of_the_system():
    s = redeal.section(load_variant("four-hand-150"), SMALL)
    assert "5+ nines and no meld" in s.text and "redeals a game" in s.text
    assert "without nines" in redeal.section(load_variant("double-deck"), SMALL).text


def test_house_rules_table_has_every_promised_column():
    table = house_rules.house_rules_table(SMALL, names=["pass-3-vs-none", "bidder-wins-ties"])
    assert list(table.columns) == list(house_rules.COLUMNS)
    no_pass = table.set_index("question").loc["pass-3-vs-none"]
    assert no_pass["matters"] and no_pass["diff_hi"] < 0  # without the pass the bidder makes less
    assert all(table["diff_lo"] <= table["diff"]) and all(table["diff"] <= table["diff_hi"])
    assert isinstance(house_rules.plot_house_rules(table), Figure)


def test_systems_table_compares_decks():
    table = systems.systems_table(SMALL, variants=["four-hand-150", "double-deck", "two-hand"])
    rows = table.set_index("variant")
    # twice the cards, more of everything: the double deck deals double pinochle far more often
    assert rows.loc["double-deck", "double-pinochle_lo"] > rows.loc["four-hand-150", "double-pinochle_hi"]
    assert math.isnan(rows.loc["double-deck", "five-nines"])  # no nines in that deck
    assert math.isnan(rows.loc["two-hand", "make_rate"])  # no bidding in two-hand
    assert rows.loc["two-hand", "hands_per_game"] > 1
    assert 0 < rows.loc["four-hand-150", "make_lo"] <= rows.loc["four-hand-150", "make_rate"] <= 1
    assert rows.loc["four-hand-150", "hands_per_game"] > 1


def test_size_verdict_against_a_threshold_of_practical_size():
    from simcore.answers.compare import practical_threshold, size_verdict

    assert size_verdict(-0.00024, -0.0004, -0.0001, 0.01) == "negligible"  # detectable, too small to matter
    assert size_verdict(0.019, 0.017, 0.021, 0.01) == "small"
    assert size_verdict(-0.205, -0.207, -0.203, 0.01) == "large"
    assert size_verdict(0.01, -0.02, 0.04, 0.01) == "unsettled"  # holds zero, reaches past the threshold
    assert size_verdict(0.001, -0.004, 0.006, 0.01) == "negligible"
    assert practical_threshold("bidding side meld", load_variant("partnership-auction"))[0] == 5.0
    assert practical_threshold("hands per game", load_variant("four-hand-150"))[0] == 0.1


def test_house_rule_verdicts_use_compare_words_and_natural_units():
    table = house_rules.house_rules_table(SMALL, names=["must-head", "pass-3-vs-none"])
    rows = table.set_index("question")
    assert set(table["size"]) <= {"negligible", "small", "large", "unsettled"}
    assert rows.loc["pass-3-vs-none", "size"] == "large" and rows.loc["pass-3-vs-none", "kind"] == "rate"
    shown = house_rules.display_table(table)
    assert "pass 3 cards" in shown and "no pass" in shown and " pp [" in shown  # A, B, percentage points
    for r in table.itertuples():
        assert r.size in r.verdict  # the report's word is the one `pinochle compare` prints


@pytest.mark.slow
def test_a_house_report_stands_apart_and_is_titled_with_the_house(capsys, tmp_path, monkeypatch):
    from test_report_pages import page_problems

    from simcore.cli import main

    shipped = tmp_path / "reports"
    shipped.mkdir()
    index = Path(__file__).parent.parent / "reports" / "index.md"
    (shipped / "index.md").write_bytes(index.read_bytes())
    rules = tmp_path / "my-house.toml"
    rules.write_text(
        'extends = "four-hand-150"\nid = "my-house"\n'
        'assumptions = ["double pinochle 50: our table"]\n\n[meld]\ndouble_pinochle = 50\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--variant", str(rules), "--hands", "2000", "--seed", "2"]) == 0
    out, err = capsys.readouterr()
    assert (shipped / "index.md").read_bytes() == index.read_bytes()  # the shipped index untouched
    assert sorted(p.name for p in shipped.iterdir()) == ["index.md", "my-house"]
    house = shipped / "my-house"
    assert out.strip() == f"wrote {len(list(house.iterdir()))} files; open reports/my-house/my-house.md"
    assert "house rules" not in err and "systems side by side" not in err  # only what was asked for
    page, card = (house / "my-house.md").read_text(), (house / "my-house-card.md").read_text()
    assert page.startswith("# my-house\n") and card.startswith("# my-house: a player's card\n")
    assert "Four-hand partnership pinochle to 150" not in page + card  # not the parent system's name
    assert "House rules on four-hand-150, changing meld.double_pinochle to 50; four-hand-150: 48 cards" in card
    assert "| pinochle (Q♠ J♦) | 4 | 50 |" in card  # the house's own double pinochle
    for f in house.iterdir():  # every chart and table is linked from the page or the card
        assert f.stat().st_size > 0 and (f.name in page or f.name in card or f.suffix == ".md"), f.name
        if f.suffix == ".md":
            assert page_problems(f.read_text()) == [], f.name
    assert {f.suffix for f in house.iterdir()} >= {".png", ".csv", ".pdf"}
    # a house asked to write into the shipped folder itself still writes no index there
    assert main(["report", "--variant", str(rules), "--hands", "2000", "--out", str(shipped), "--json"]) == 0
    manifest = json.loads(capsys.readouterr()[0])
    assert manifest["index"] == str(shipped / "my-house.md")
    assert (shipped / "index.md").read_bytes() == index.read_bytes()


def test_a_house_that_names_itself_is_titled_with_its_name():
    from analyses.titles import description_line, is_house, system_title

    named = load_variant("four-hand-150", ["name='Our house'"])
    assert is_house(named) and system_title(named) == "Our house"
    kept = load_variant("four-hand-150", ["meld.double_pinochle=50"])
    assert system_title(kept) == "four-hand-150+meld.double_pinochle=50"
    shipped = load_variant("four-hand-150")
    assert not is_house(shipped) and system_title(shipped) == shipped.name
    assert description_line(shipped) == shipped.description


def test_a_report_of_house_rules_goes_to_a_folder_of_their_own_by_default():
    from analyses.report import default_out

    shipped, house = load_variant("four-hand-150"), load_variant("four-hand-150", ["meld.double_pinochle=50"])
    assert default_out([shipped, load_variant("double-deck")]) == Path("reports")
    assert default_out([shipped, house]) == Path("reports") / "four-hand-150+meld.double_pinochle=50"
