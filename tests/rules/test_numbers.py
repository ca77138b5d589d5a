"""Every number a player types is bounded where it is read, and the refusal names the range."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.sheet import read_int
from tests.rules.test_knights_of_valour import run, three_way


@pytest.mark.parametrize(("text", "expected"), [("0", 0), ("-20", -20), ("40", 40), (" +7 ", 7)])
def test_read_int_accepts_whole_numbers_in_range(text: str, expected: int) -> None:
    """A whole number inside the range reads as itself, signs and spaces allowed."""
    assert read_int(text, "to", -20, 40) == expected


@pytest.mark.parametrize("text", ["-21", "41", "-999999", "9" * 5000, "two", "", "1.5", "1e3", "0x10", "٣"])
def test_read_int_refuses_out_of_range_or_not_a_number(text: str) -> None:
    """Below, above, huge or not a whole number: refused with the key and the range."""
    with pytest.raises(InputError, match=r"^`to` must be a whole number from -20 to 40"):
        read_int(text, "to", -20, 40)


# the Knights of Valour options a player types: each below, above, and not a number
KOV_DELAY = [
    ({"to": "-999999"}, "`to` must be a whole number from -99 to 999"),
    ({"to": "1000"}, "`to` must be a whole number from -99 to 999"),
    ({"to": "soon"}, "`to` must be a whole number from -99 to 999"),
    ({"by": "0"}, "`by` must be a whole number from 1 to 99"),
    ({"by": "100"}, "`by` must be a whole number from 1 to 99"),
    ({"by": "lots"}, "`by` must be a whole number from 1 to 99"),
    ({"999999": ""}, "must be a whole number from 1 to 99"),
]


@pytest.mark.parametrize(("options", "message"), KOV_DELAY)
def test_knights_of_valour_delay_numbers_are_bounded(options: dict[str, str], message: str) -> None:
    """A KoV delay by or to a number outside initiative's range is refused, naming the range."""
    with pytest.raises(InputError, match=message):
        run(three_way(), kind="act", actor="Borin", name="delay", options=options)


@pytest.mark.parametrize("key", ["atk", "def", "dmg"])
@pytest.mark.parametrize("value", ["-21", "21", "x"])
def test_knights_of_valour_attack_modifiers_are_bounded(key: str, value: str) -> None:
    """The buff modifiers atk= def= dmg= are whole numbers from -20 to 20, and the error says so."""
    with pytest.raises(InputError, match=f"`{key}` must be a whole number from -20 to 20"):
        run(three_way(), kind="attack", actor="Borin", target="Grak", options={key: value})
