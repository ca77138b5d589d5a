"""The hidden-information model: whose each event value is, the public copy, and marked text per reader."""
from __future__ import annotations

from rules.events import Attacked, Damaged, EffectAdded, Event, Roll, mod
from rules.hidden import SECRET, for_reader, mark, public_copy, secret
from rules.systems.damage_grid.events import GrappleTest
from rules.systems.knights_of_valour.events import KovDamage, KovRound, Ranked
from rules.systems.tote.events import SkillTest, Struck

HIDE = frozenset({"Grak"})


class Unmarked(Event):
    """An event whose number says nobody's: a hidden combatant's, as soon as one is named."""

    other: str
    value: int


def test_the_attackers_roll_stays_and_the_hidden_targets_defence_goes() -> None:
    """Borin's dice, modifiers and total stay; Grak's defence (the roll's ``against``) is hidden."""
    e = Attacked(actor="Borin", target="Grak", roll=Roll(dice=[5], modifiers=[mod("str", 1)], total=6, against=4, success=True))
    shown = public_copy(e, HIDE)
    assert shown.roll.dice == [5] and shown.roll.modifiers[0].value == 1 and shown.roll.total == 6
    assert secret(shown.roll.against) and shown.roll.success is True
    assert e.roll.against == 4  # the event itself is not changed


def test_a_hidden_attackers_roll_goes_and_the_players_defence_stays() -> None:
    """Grak's dice and total are hidden; Borin's defence, which is his own, stays."""
    shown = public_copy(Attacked(actor="Grak", target="Borin", roll=Roll(dice=[3], total=5, against=6, success=False)), HIDE)
    assert secret(shown.roll.dice[0]) and secret(shown.roll.total) and shown.roll.against == 6


def test_damage_follows_whose_each_number_is() -> None:
    """Borin's damage roll on Grak stays; Grak's HP go. Grak's on Borin: the roll goes, Borin's HP stay."""
    roll = Roll(dice=[3], modifiers=[mod("strength", 2)], total=5)
    on_grak = public_copy(KovDamage(actor="Grak", by="Borin", weapon="axe", roll=roll, amount=5, before=9, after=4), HIDE)
    assert on_grak.amount == 5 and on_grak.roll.total == 5 and secret(on_grak.before) and secret(on_grak.after)
    on_borin = public_copy(KovDamage(actor="Borin", by="Grak", weapon="axe", roll=roll, amount=5, before=9, after=4), HIDE)
    assert secret(on_borin.amount) and secret(on_borin.roll.modifiers[0].value) and (on_borin.before, on_borin.after) == (9, 4)


def test_an_unmarked_number_is_hidden_whenever_a_hidden_combatant_is_named() -> None:
    """Failing closed: a number nobody marked is taken for the hidden combatant's; without one named, nothing changes."""
    assert secret(public_copy(Unmarked(actor="Borin", other="Grak", value=7), HIDE).value)
    e = Unmarked(actor="Borin", other="Thrain", value=7)
    assert public_copy(e, HIDE) is e


def test_each_place_in_an_order_is_its_own_combatants() -> None:
    """In a round's order, Grak's initiative is hidden and Borin's stays; the round number is everyone's."""
    shown = public_copy(KovRound(round=2, order=[Ranked(name="Borin", initiative=12), Ranked(name="Grak", initiative=17)]), HIDE)
    assert shown.round == 2 and shown.order[0].initiative == 12 and secret(shown.order[1].initiative)


def test_a_secret_prints_as_a_question_mark_and_absorbs_arithmetic() -> None:
    """`SECRET` formats as ``?`` whatever the format, stays secret through sums, and is never less or greater."""
    assert f"{SECRET} {SECRET:g} {SECRET:>4}" == "? ? ?"
    assert secret(sum([1, SECRET])) and secret(SECRET - 2) and secret(abs(-SECRET))
    assert not (SECRET >= 0) and not (SECRET < 0) and SECRET != 3


def test_marked_text_is_picked_per_reader() -> None:
    """The GM's version where every name it hides is shown to the reader, else the public one; an untouched text stays."""
    line = "Round 2 · " + mark(["Grak"], "**Grak** takes 3 damage (9 → 6)", "**Grak** takes 3 damage (now hurt)") + " · end"
    assert for_reader(line, lambda n: True) == "Round 2 · **Grak** takes 3 damage (9 → 6) · end"
    assert for_reader(line, lambda n: n != "Grak") == "Round 2 · **Grak** takes 3 damage (now hurt) · end"
    assert mark(["Grak"], "same", "same") == "same" and for_reader("plain", lambda n: False) == "plain"


def test_a_mark_cut_short_shows_nothing_of_either_version() -> None:
    """A clipped marked text keeps what comes before the mark and drops the rest."""
    line = "Undid /attack: " + mark(["Grak"], "Grak 9 → 6 HP", "Grak hurt")
    assert for_reader(line[:-5], lambda n: True) == "Undid /attack: …"


def test_a_core_damage_event_hides_the_hidden_targets_health() -> None:
    """`Damaged` without a system's own fields: before and after are the target's."""
    shown = public_copy(Damaged(actor="Grak", amount=2, before=5, after=3), HIDE)
    assert secret(shown.before) and secret(shown.after)


def test_a_hidden_combatants_dice_are_one_secret_not_a_count() -> None:
    """Grak's twelve dice print as one ``?``: how many dice he rolls is his number too; Borin's stay."""
    e = GrappleTest(actor="Borin", target="Grak", dice=[2, 5], best=1, target_dice=[1] * 12, target_best=12, won=False)
    shown = public_copy(e, HIDE)
    assert shown.dice == [2, 5] and len(shown.target_dice) == 1 and secret(shown.target_dice[0])


def test_an_effects_changes_are_its_targets_whoever_times_it() -> None:
    """An effect's changes are its target's numbers: Borin's Bless timed by the hidden Grak's turn ("until the start of
    Grak's turn") shows Borin's +1 to players, as the board does; on Grak they are hidden."""
    on_borin = public_copy(EffectAdded(actor="Borin", name="Bless", ends="turn_start", left=2, of="Grak", mods={"attack": 1}), HIDE)
    assert on_borin.mods == {"attack": 1}
    on_grak = public_copy(EffectAdded(actor="Grak", name="Bless", ends="turn_start", left=2, of="Borin", mods={"attack": 1}), HIDE)
    assert secret(on_grak.mods["attack"])


def test_a_value_also_worked_out_with_a_hidden_combatants_number_is_hidden() -> None:
    """`Also`: a TOTE test's count of successes is its roller's and is counted against the opponent's number, so it is
    hidden where either is hidden: Borin's against hidden Grak, Grak's against Borin; Borin's dice stay."""
    test = SkillTest(skill="strike", dice=[6, 6, 1], paragon=3, kept=6, target=8, total=9, successes=2)
    borin = public_copy(Struck(actor="Borin", target="Grak", weapon="axe", action="strike", test=test), HIDE)
    assert secret(borin.test.successes) and secret(borin.test.target) and borin.test.dice == [6, 6, 1] and borin.test.success
    assert secret(public_copy(Struck(actor="Grak", target="Borin", weapon="club", action="strike", test=test), HIDE).test.successes)
    shown = public_copy(Struck(actor="Borin", target="Thrain", weapon="axe", action="strike", test=test), HIDE)
    assert shown.test.successes == 2
