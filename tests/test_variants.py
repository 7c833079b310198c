import numpy as np
import pytest

from simcore.variants import RulesError, load_variant, load_variant_text, rule_differences, shipped_ids
from simcore.variants.layout import MAX_MULT
from simcore.variants.variant import multiple_values

IDS_IN_CATALOGUE = {
    "four-hand-150",
    "partnership-auction",
    "partnership",
    "firehouse",
    "check",
    "four-pass",
    "ok-pinochle",
    "double-deck",
    "double-pack",
    "three-hand-double-pack",
    "six-hand-triple-pack",
    "six-eight-partnership",
    "auction",
    "two-hand",
    "five-hand-called-card",
    "five-hand-widow",
    "five-hand-universal",
    "five-hand-ace-partner",
    "five-hand-widow-96",
    "five-hand-cutthroat",
    "draw-pinochle",
}


def test_every_variant_in_the_catalogue_ships_a_rules_file():
    # a new file beyond the catalogue needs no edit here: tests/test_conformance.py covers every shipped id
    assert IDS_IN_CATALOGUE <= set(shipped_ids())


def test_decks_cover_every_deck_type_of_the_documents():
    sizes = {(load_variant(i).deck_size, load_variant(i).copies) for i in shipped_ids()}
    assert {(48, 2), (80, 4), (60, 3), (96, 4), (120, 6)} <= sizes


def test_multiplicities_beyond_the_table_score_as_the_best_split():
    # six-hand triple pack: twenty aces (five around) = triple aces + double aces
    assert multiple_values({1: 100, 2: 1000, 3: 1500}, 5)[5] == 2500
    assert multiple_values({1: 100, 2: 1000, 3: 1500}, 4)[4] == 2000
    assert multiple_values({1: 20}, 4) == [0, 20, 40, 60, 80]
    assert multiple_values({2: 300}, 3) == [0, 0, 300, 300]
    v = load_variant("six-hand-triple-pack")
    assert v.meld_value("aces_around", 5) == 2500
    assert v.meld_value("pinochle", 5) == 4000 and v.meld_value("pinochle", 6) == 5000


def test_set_overrides_any_key_and_renames_the_variant():
    v = load_variant("four-pass", ["meld.double_pinochle=300"])
    assert v.meld_value("pinochle", 2) == 300
    assert v.id == "four-pass+meld.double_pinochle=300"
    assert load_variant("four-pass").meld_value("pinochle", 2) == 3000


def test_user_file_extends_a_shipped_file(tmp_path):
    house = tmp_path / "my-house.toml"
    house.write_text(
        'extends = "four-hand-150"\nid = "my-house"\n'
        'assumptions = ["double pinochle 3000: our table"]\n'
        "[meld]\ndouble_pinochle = 3000\n"
    )
    v = load_variant(str(house))
    assert v.id == "my-house" and v.meld_value("pinochle", 2) == 3000
    assert v.meld_value("run", 1) == 15 and v.players == 4
    assert "double pinochle 3000: our table" in v.get("assumptions")
    assert len(v.get("assumptions")) > 1  # the base file's assumptions still apply


def test_a_file_that_only_extends_takes_the_parents_id_with_its_changes_as_set_names_them(tmp_path):
    only = tmp_path / "only.toml"
    only.write_text('extends = "four-hand-150"\n')
    assert load_variant(str(only)).id == "four-hand-150"  # the same rules: the same id
    assert not rule_differences(load_variant(str(only)), load_variant("four-hand-150"))
    house = tmp_path / "house.toml"
    house.write_text('extends = "four-hand-150"\nname = "Our table"\n[meld]\ndouble_pinochle = 50\n')
    v = load_variant(str(house))
    set_by_option = load_variant("four-hand-150", ["meld.double_pinochle=50"])
    assert v.id == set_by_option.id == "four-hand-150+meld.double_pinochle=50"
    assert v.name == "Our table" and v.meld_value("pinochle", 2) == 50
    # a file extending it, with no id either, takes the derived id in turn
    (tmp_path / "top.toml").write_text('extends = "house.toml"\n[deal]\nwidow_kind = "none"\n')
    assert load_variant(str(tmp_path / "top.toml")).id == "four-hand-150+meld.double_pinochle=50+deal.widow_kind='none'"
    many = "\n".join(f"{k} = 7" for k in ("marriage", "pinochle", "dix", "aces_around", "kings_around", "jacks_around"))
    (tmp_path / "many.toml").write_text(f'extends = "four-hand-150"\n[meld]\n{many}\n')
    long = load_variant(str(tmp_path / "many.toml")).id
    assert long.startswith("four-hand-150+6-keys-") and len(long) < 40
    # text pasted in a page is read the same way
    assert load_variant_text('extends = "four-hand-150"\n[meld]\ndouble_pinochle = 50\n').id == v.id


def test_a_file_without_id_nor_extends_is_refused_saying_either_will_do(tmp_path):
    f = tmp_path / "bare.toml"
    f.write_text('name = "x"\n')
    msg = _error(str(f))
    assert "id" in msg and "missing" in msg and "extends another and takes its id" in msg


def test_user_file_can_extend_another_user_file_relative_to_itself(tmp_path):
    (tmp_path / "base.toml").write_text('extends = "double-deck"\nid = "base"\n[meld]\nrun = 20\n')
    (tmp_path / "top.toml").write_text('extends = "base.toml"\nid = "top"\n[meld]\npinochle = 5\n')
    v = load_variant(str(tmp_path / "top.toml"))
    assert v.meld_value("run", 1) == 20 and v.meld_value("pinochle", 1) == 5 and v.deck_size == 80


def _error(name, overrides=()):
    with pytest.raises(RulesError) as info:
        load_variant(name, overrides)
    return str(info.value)


def test_unknown_key_names_file_key_and_closest(tmp_path):
    f = tmp_path / "typo.toml"
    f.write_text('extends = "four-hand-150"\n[meld]\ndouble_pinochel = 300\n')
    msg = _error(str(f))
    assert str(f) in msg and "meld.double_pinochel" in msg and "meld.double_pinochle" in msg


def test_wrong_types_and_ranges_say_what_is_allowed():
    assert "an integer from 0 to 10,000" in _error("four-hand-150", ["meld.run=-5"])
    assert "an integer" in _error("four-hand-150", ["meld.run=true"])
    assert "true or false" in _error("four-hand-150", ["meld.run_or_royal=1"])
    assert "from 2 to 8" in _error("four-hand-150", ["deal.players=9"])
    assert "one of 'none', 'widow'" in _error("four-hand-150", ["deal.widow_kind=pile"])


def test_deck_that_cannot_be_dealt_is_refused():
    msg = _error("four-hand-150", ["deal.hand_size=13"])
    assert "deal.hand_size = 13" in msg and "48 cards" in msg and "4 × 13 + 0 = 52" in msg
    assert "say what the 4 undealt cards are" in _error("four-hand-150", ["deal.hand_size=11", "deal.widow=4"])
    assert "trick order" in _error("four-hand-150", ['deck.ranks=["K","A"]'])


def test_malformed_toml_and_missing_files(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[meld\nrun = 15\n")
    msg = _error(str(bad))
    assert str(bad) in msg and "not valid TOML" in msg
    assert "cannot read" in _error(str(tmp_path / "missing.toml"))
    msg = _error("four-hand-15")
    assert "four-hand-150" in msg and "not a shipped rules id" in msg


def test_extends_loop_is_refused(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extends = "a.toml"\n')
    assert "loop" in _error(str(tmp_path / "a.toml"))


def test_unknown_table_and_override_syntax():
    msg = _error("four-hand-150", ["play.leader=bidder"])
    assert "no such key" in msg and "play.lead" in msg
    assert "six integers" in _error("four-hand-150", ["tricks.points=[1,1,1]"])
    assert "KEY=VALUE" in _error("four-hand-150", ["meld.run"])


def test_variant_is_immutable_and_hashable_by_content():
    a, b = load_variant("four-hand-150"), load_variant("four-hand-150")
    assert a == b and hash(a) == hash(b) and a.content_hash == b.content_hash
    assert a != load_variant("four-hand-150", ["meld.run=20"])
    with pytest.raises(TypeError):
        a.values["meld.run"] = 1
    with pytest.raises(ValueError):
        a.meld_table[0, 0] = 1
    assert a.meld_table.shape == (10, MAX_MULT + 1) and np.all(a.meld_table[:, 0] == 0)


def test_key_reference_page_is_up_to_date():
    from pathlib import Path

    from simcore.variants.schema import reference_markdown

    page = Path(__file__).resolve().parents[1] / "docs" / "rules-keys.md"
    assert page.read_text(encoding="utf-8") == reference_markdown(), (
        "regenerate docs/rules-keys.md from simcore.variants.schema.reference_markdown()"
    )


@pytest.mark.parametrize(
    "vid, total",
    [
        ("four-hand-150", 25),
        ("double-deck", 50),
        ("auction", 250),
        ("four-pass", 250),
        ("five-hand-called-card", 370),
        ("five-hand-widow-96", 50),
        ("six-hand-triple-pack", 750),
    ],
)
def test_trick_points_add_up_to_the_documents_totals(vid, total):
    # seeds: 25 per hand (000), 50 (003), 250 (001, 002, 004), 370 (000 five-hand), last trick 30 (001)
    assert load_variant(vid).trick_total == total


def test_contradictory_hand_rules_are_refused():
    assert "no bidder to pass to" in _error("partnership", ["exchange.pass_cards=3"])
    assert "no partner to pass with" in _error("auction", ["exchange.pass_cards=3"])
    assert "no widow to take" in _error("four-hand-150", ["exchange.widow_to_bidder=true"])
    assert "from 1 to the 50 trick points" in _error(
        "double-deck", ['scoring.save_meld="points"', "scoring.save_meld_points=60"]
    )
    assert "below the minimum bid" in _error("double-deck", ["auction.step_from=40"])
    assert "one widow card per player: deal.widow = 4" in _error("partnership-auction", ["exchange.widow_shared=true"])
    assert "or is shared out, not both" in _error(
        "auction", ["exchange.widow_shared=true", "exchange.widow_to_bidder=true"]
    )
    load_variant("double-deck", ['scoring.save_meld="points"', "scoring.save_meld_points=20"])


def test_scale_text_says_how_a_system_counts_its_bids_and_its_game():
    from simcore.variants import scale_text

    assert scale_text(load_variant("four-hand-150")) == (
        "four-hand-150 counts in single points: 25 trick points a hand, bids from 20 by 1, a game to 150"
    )
    assert scale_text(load_variant("double-deck")).endswith("bids from 50 by 1, by 5 past 60, a game to 500")
    # no auction, no game: the parts the rules lack are left out
    assert (
        scale_text(load_variant("partnership"))
        == "partnership counts in tens: 250 trick points a hand, a game to 1,000"
    )
    assert scale_text(load_variant("auction")) == "auction counts in tens: 250 trick points a hand, bids from 300 by 10"
