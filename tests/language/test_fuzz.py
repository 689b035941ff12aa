"""Whatever text a modder writes, the library answers with its own error, never a traceback."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import libertalia as lt

_GRAMMAR = (Path(__file__).resolve().parents[2] / "grammar" / "libertalia.lark").read_text(encoding="utf-8")
_WORDS = sorted({w for w in re.findall(r'"([^"]+)"', _GRAMMAR)} | {"map", "Cook", "3", "Wind Nymph", "\n"})


@given(st.lists(st.sampled_from(_WORDS), max_size=25).map(" ".join))
def test_word_salad_parses_or_raises_card_error(text: str) -> None:
    """Random sequences of the language's own words either parse or raise CardError with a position."""
    try:
        abilities = lt.parse(text)
    except lt.CardError as exc:
        assert exc.line >= 1 and exc.column >= 1 and exc.expected
    else:
        assert lt.parse(lt.render(abilities)) == abilities


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_card_error(text: str) -> None:
    """Arbitrary unicode never escapes as a Lark or Python exception."""
    with contextlib.suppress(lt.CardError):
        lt.parse(text)


@given(st.text(max_size=200))
def test_any_yaml_file_loads_or_raises_data_error(tmp_path_factory: object, text: str) -> None:
    """Any card file content is either accepted or reported as a DataError."""
    folder = tmp_path_factory.mktemp("mod")  # type: ignore[attr-defined]
    (folder / "card.yaml").write_text(text, encoding="utf-8")
    with contextlib.suppress(lt.DataError):
        lt.load_rules("galecrest", extra_cards=[folder])
