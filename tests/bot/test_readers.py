"""A command's reply for each reader: players see condition words, the GM also gets the numbers."""
from __future__ import annotations

from bot.service.views import readers
from rules.events import Damaged
from rules.models import Combatant, Encounter
from rules.registry import get_system
from rules.report import Report, events_report


def test_the_gm_gets_the_numbers_only_of_a_report_that_hides_some() -> None:
    """A marked line gives the GM a numbers report and players its condition words; a report without a mark gives none, and each reader's report is a copy of its own."""
    system = get_system("open")
    enc = Encounter(system="open", combatants=[
        Combatant(name="Borin", side="dwarves", owner_id="7", hp=3, sheet={"hp": 3, "max_hp": 3}),
        Combatant(name="Grak", side="orcs", hp=1, sheet={"hp": 3, "max_hp": 3})])
    marked = events_report("Hit", [Damaged(actor="Grak", amount=2, before=3, after=1)], system, enc, enc.hidden_names())
    public, numbers = readers(marked, enc, gm=True)
    assert numbers is not None and "3 → 1" in numbers.lines[0] and "3 → 1" not in public.lines[0]
    assert readers(marked, enc, gm=False)[1] is None
    plain = Report("Moved", ["**Borin** moves to C4"], fields=[("dwarves", "Borin")])
    public, numbers = readers(plain, enc, gm=True)
    assert numbers is None and public == plain and public.lines is not plain.lines
    public.lines.append("typed")
    assert plain.lines == ["**Borin** moves to C4"]
