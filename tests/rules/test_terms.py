"""Terms: the rules name a roll's modifiers and what it is against by code; presenters word them."""
from __future__ import annotations

from rules.events import Modifier, Roll, Term, mod
from rules.registry import get_system


def test_a_term_is_worded_by_the_systems_presenter_with_its_args() -> None:
    """A code the presenter knows becomes its words, the term's names filled in."""
    present = get_system("coup-de-grace").present
    roll = Roll(dice=[4], label="d6", modifiers=[mod("said", 1, "Bless")], total=5, against=5,
                versus=Term(code="recovery"), success=True)
    assert present.roll_text(roll) == "🎲 4 (d6) +1 Bless = **5** vs dramatic recovery 5: success"


def test_a_roll_stored_before_terms_were_codes_reads_back_in_its_words() -> None:
    """An old log's roll, its modifiers named in words and its ``against_label``, still shows as it did."""
    old = {"dice": [4], "label": "d6", "modifiers": [{"name": "backstab", "value": 1}], "total": 5,
           "against": 6, "against_label": "DV", "success": False}
    roll = Roll.model_validate(old)
    assert roll.modifiers == [Modifier(code="said", value=1, args=["backstab"])]
    assert roll.versus == Term(code="said", args=["DV"])
    assert get_system("coup-de-grace").present.roll_text(roll) == "🎲 4 (d6) +1 backstab = **5** vs DV 6: failure"
