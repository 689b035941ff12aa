"""The library as a newcomer meets it: readable values, exports, forgiving arguments, clear errors."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from rich.console import Console

import libertalia as lt
from libertalia import _paths
from libertalia.cli.display import table_view
from libertalia.loading.examples import edition_of
from libertalia.suggest import lookup

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


# ---------------------------------------------------------------- readable values
def test_repr_of_a_game_is_one_short_line(rules: lt.Rules) -> None:
    """``repr(game)`` names the edition, players, seed, voyage, day, phase and whose decision it is."""
    game = lt.new_game(rules, 4, seed=7)
    later = game.choose("Innkeeper")  # the working copy moves on: ``game`` is rebuilt to be read
    assert repr(game) == ("<Game galecrest, 4 players, seed 7: voyage 1, day 1 (select), "
                          "seat 0 to answer play_character>")
    assert repr(later).startswith("<Game galecrest, 4 players, seed 7: voyage 1, day 1 (select), seat 1")


def test_repr_of_a_finished_and_a_solo_game(rules: lt.Rules) -> None:
    """A finished game's repr gives the scores; a solo game's says solo."""
    final = lt.play(rules, [lt.agents.FirstOptionAgent() for _ in range(3)], seed=2)
    scores = ", ".join(map(str, final.final_scores()))
    assert repr(final) == f"<Game galecrest, 3 players, seed 2: over, scores {scores}>"
    with pytest.warns(lt.UnverifiedSoloWarning):
        solo = lt.new_game(rules, 1, seed=3)
    assert repr(solo).startswith("<Game galecrest, solo, seed 3: voyage 1, day 1 (select)")


def test_repr_leaves_equality_and_hashing_alone(rules: lt.Rules) -> None:
    """Reading a game's repr, str or html changes neither what it equals nor its hash."""
    game = lt.new_game(rules, 3, seed=4)
    twin = lt.new_game(rules, 3, seed=4)
    before = hash(game)
    repr(game), str(game), game._repr_html_()
    assert game == twin and hash(game) == before == hash(twin)


def test_render_is_the_table_the_command_line_shows(rules: lt.Rules) -> None:
    """``str(game)`` and ``game.render()`` are the CLI's table as plain text, seen by the seat asked."""
    game = lt.new_game(rules, 4, seed=7)
    out = io.StringIO()
    Console(file=out, width=100, color_system=None, highlight=False, soft_wrap=True).print(table_view(game, 0))
    expected = "\n".join(line.rstrip() for line in out.getvalue().splitlines())
    assert game.render() == str(game) == expected
    assert "Your hand: Innkeeper, Preacher, Explorer, Smuggler, Brawler, Surgeon" in expected
    assert "\x1b[" not in expected and "┃" not in expected


def test_render_defaults_to_the_seat_asked(rules: lt.Rules) -> None:
    """``render()`` shows the table to the seat being asked; ``render(seat)`` to any other."""
    game = lt.new_game(rules, 4, seed=7).choose("Innkeeper")
    assert game.decision is not None and game.decision.player == 1
    assert "1 (you)" in game.render() and game.render() == game.render(1)
    assert "2 (you)" in game.render(2) and "1 (you)" not in game.render(2)


def test_notebooks_get_the_repr_and_the_picture_as_html(rules: lt.Rules) -> None:
    """``_repr_html_`` is the escaped repr in a <pre> block, then the picture, and no second (text) table."""
    game = lt.new_game(rules, 4, seed=7)
    html = game._repr_html_()
    assert html.startswith("<pre>&lt;Game galecrest") and html.endswith("</svg></div>")
    assert html.count("<svg") == 1 and "Today&#x27;s loot" not in html


def test_observation_has_a_short_repr(rules: lt.Rules) -> None:
    """An observation's repr names its seat, the moment and whose decision it is, and nothing hidden."""
    game = lt.new_game(rules, 4, seed=7)
    assert repr(game.observation(2)) == ("<Observation by seat 2: voyage 1, day 1 (select), "
                                         "seat 0 to answer play_character>")
    seen = []

    class Looker:
        def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
            seen.append(repr(observation))
            return decision.options[0].key

    lt.play(rules, [Looker(), Looker()], seed=1)
    assert seen[0].startswith("<Observation by seat 0: voyage 1, day 1 (select)")


def test_import_stays_light() -> None:
    """``import libertalia``, ``lt.GameRecord`` and ``repr`` of a game import no rich, yaml or lark."""
    code = ("import sys, libertalia as lt; lt.GameRecord; "
            "print(sorted(m for m in ('rich', 'yaml', 'lark') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---------------------------------------------------------------- exports
def test_the_names_the_docs_use_are_exported() -> None:
    """``lt.GameRecord``, ``lt.IllegalChoice``, ``lt.GameNotOver`` and ``game.seed`` are there."""
    from libertalia.records import GameRecord

    assert lt.GameRecord is GameRecord and "GameRecord" in lt.__all__ and "GameRecord" in dir(lt)
    assert lt.GameNotOver is lt.errors.GameNotOver and "GameNotOver" in lt.__all__
    assert lt.new_game(lt.load_rules("classic"), 3, seed=11).seed == 11


def test_illegal_choice_names_the_seat_whose_agent_answered(rules: lt.Rules) -> None:
    """An agent's illegal key raises IllegalChoice with its seat as ``seat``; ``choose`` leaves it None."""
    class Careless:
        def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
            return "Kraken"

    with pytest.raises(lt.IllegalChoice) as info:
        lt.play(rules, [lt.agents.FirstOptionAgent(), Careless()], seed=1)
    assert info.value.seat == 1 and info.value.key == "Kraken" and "seat 1's agent" in str(info.value)
    with pytest.raises(lt.IllegalChoice) as info:
        lt.new_game(rules, 3).choose("Kraken")
    assert info.value.seat is None


# ---------------------------------------------------------------- forgiving arguments, clear errors
def test_extra_cards_takes_one_path_as_well_as_a_list(tmp_path: Path) -> None:
    """``extra_cards="dir/"`` (or a Path) is one folder, as ``["dir/"]`` is, not its letters."""
    (tmp_path / "queen.yaml").write_text("name: Pirate Queen\nrank: 41\ntext: |\n  sun: gain 2 doubloons.\n",
                                         encoding="utf-8")
    listed = lt.load_rules("galecrest", extra_cards=[str(tmp_path)])
    for one in (str(tmp_path), tmp_path, f"{tmp_path}/"):
        rules = lt.load_rules("galecrest", extra_cards=one)
        assert rules.has_card("Pirate Queen")
        assert rules.load_args == listed.load_args and rules.fingerprint == listed.fingerprint


def test_edition_and_loot_names_in_any_case() -> None:
    """``"Classic"``, ``loot="Stormy"`` and ``{"Map": "STORMY"}`` load as their own names, recorded so."""
    classic = lt.load_rules("Classic")
    assert classic.identity == lt.load_rules("classic").identity and classic.load_args["edition"] == "classic"
    stormy = lt.load_rules("GaleCrest", loot="Stormy")
    assert stormy.load_args["loot"] == "stormy" and set(stormy.loot_sides.values()) == {"stormy"}
    one = lt.load_rules("galecrest", loot={"Map": "STORMY"})
    assert one.load_args["loot"] == {"map": "stormy"} and one.loot_sides["map"] == "stormy"
    assert lt.load_rules("galecrest", loot="Uncharted").load_args["loot"] == "uncharted"


def test_misspelt_names_still_get_a_suggestion() -> None:
    """A name that differs by more than case is an error that suggests the name meant."""
    with pytest.raises(lt.RulesError, match='did you mean "classic"'):
        lt.load_rules("Clasic")
    with pytest.raises(lt.RulesError, match='did you mean "stormy"'):
        lt.load_rules("galecrest", loot="Stromy")


@pytest.mark.parametrize("seed", ["abc", 1.5, None, True])
def test_a_seed_that_is_no_whole_number_is_a_setup_error(rules: lt.Rules, seed: object) -> None:
    """``new_game(rules, 4, seed="abc")`` raises SetupError saying a seed is a whole number."""
    with pytest.raises(lt.SetupError, match="a seed is a whole number from 0 to 2"):
        lt.new_game(rules, 4, seed=seed)  # type: ignore[arg-type]


def test_the_api_seed_defaults_to_0(rules: lt.Rules) -> None:
    """``new_game`` and ``play`` without a seed use seed 0, as docs/api.md says."""
    assert lt.new_game(rules, 3).seed == 0
    bots = [lt.agents.RandomAgent(i) for i in range(3)]
    assert lt.play(rules, bots) == lt.play(rules, [lt.agents.RandomAgent(i) for i in range(3)], seed=0)


def test_lookup_matches_case_and_spacing_only() -> None:
    """``lookup`` finds the one name spelt differently only in case or spacing, and nothing else."""
    names = ["Wind Nymph", "Cook", "Cabin Boy"]
    assert lookup("wind nymph", names) == lookup("WindNymph", names) == "Wind Nymph"
    assert lookup("Cook", names) == "Cook"
    assert lookup("wind nimph", names) is None and lookup("", names) is None
    assert lookup("ab", ["A B", "a-b"]) is None  # two candidates: no guess


def test_edition_of_a_file_comes_from_its_folder(tmp_path: Path) -> None:
    """Files under cards/<edition folder>/ (bundled or a copy) belong to that edition; others to none."""
    assert edition_of(next((_paths.cards_dir() / "classic").rglob("*.yaml"))) == "classic"
    assert edition_of(ROOT / "cards" / "galecrest" / "characters" / "x.yaml") == "galecrest"
    assert edition_of(tmp_path / "cards" / "classic" / "characters" / "x.yaml") == "classic"
    assert edition_of(tmp_path / "mod" / "x.yaml") is None


# ---------------------------------------------------------------- packaging
def test_the_package_is_typed() -> None:
    """``libertalia/py.typed`` is in the package (PEP 561)."""
    assert (Path(lt.__file__).parent / "py.typed").is_file()


def test_the_built_wheel_ships_py_typed(tmp_path: Path) -> None:
    """A wheel built from the checkout carries ``libertalia/py.typed``."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True)
    wheel = next(tmp_path.glob("libertalia-*.whl"))
    assert "libertalia/py.typed" in zipfile.ZipFile(wheel).namelist()
