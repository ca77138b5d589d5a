"""Relative sheet edits (``sheet:"hp-7 str+1"``) on every numeric sheet value of every system,
and `/combatant hp` where a system counts hit points."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError, RulesError, SheetError
from rules.events import HitPointsChanged
from rules.registry import all_systems
from rules.sheet import parse_sheet_edit
from tests.scenario import Scenario

#: valid combatants of each system (from the example fights)
SHEETS = {
    "coup-de-grace": ("8x6", "class=heavy weapons=hammer,shield"),
    "tote": (None, "hawk=2 plan=2 strike=3 shoot=2 weapon=axe:2:slash", "rating=2 tohit=3 weapon=club:2:bash"),
    "knights-of-valour": ("8x6", "str=1 agi=1 hp=14 armor=chain-mail weapons=warhammer:2"),
    "damage-grid": ("8x6", "body=2 weapons=gravity-saber:2:4:3:melee"),
    "war-and-combat": ("8x6 hex", "str=14 agl=13 fighter=6 skills=broadsword:3 weapons=broadsword armor=mail"),
    "open": ("8x6", "hp=24 ac=16 init=+1 con=3 weapons=warhammer:+5:1d8+3:bludgeoning"),
}


def test_parse_sheet_edit_splits_pairs_from_changes() -> None:
    """`hp-7 str+1 name=Tom` is one pair and two changes; `hp-=7` reads as `hp-7`."""
    assert parse_sheet_edit("hp-7 str+1 race=elf") == ({"race": "elf"}, {"hp": -7, "str": 1})
    assert parse_sheet_edit("hp-=7 see-in-dark+2") == ({}, {"hp": -7, "see-in-dark": 2})
    with pytest.raises(SheetError, match="changed twice"):
        parse_sheet_edit("hp-1 hp-2")
    with pytest.raises(SheetError, match="both set and changed"):
        parse_sheet_edit("hp=3 hp-1")
    with pytest.raises(SheetError, match="or changes like `hp-7 str\\+1`"):
        parse_sheet_edit("hp")


def scenario(key: str, which: int = 0) -> Scenario:
    board, *sheets = SHEETS[key]
    at = None if board is None else "C3"
    made = Scenario(key, map=board)
    facing = "N" if made.system.uses_facing else None
    return made.add("Ada", sheets[which], side="a", at=at, facing=facing)


CASES = [(key, which) for key, (_, *sheets) in SHEETS.items() for which in range(len(sheets))]


@pytest.mark.parametrize("key, which", CASES)
def test_every_numeric_sheet_value_changes_relatively(key: str, which: int) -> None:
    """For each number a sheet holds, `key+1`, `key-1` (and ±5) do exactly what `key=<value now ± 1>` does, accepted or refused alike."""
    assert {k for k, _ in CASES} == {s.key for s in all_systems()}
    s = scenario(key, which)
    ada = s.get("Ada")
    numbers = [
        k.name for k in s.system.sheet_keys(s.enc.variant)
        if k.kind == "int" or type(ada.sheet.get(k.name, k.default)) is int
    ]
    assert numbers, f"{key} declares no numbers"
    moved = set()
    for name in numbers:
        try:
            s.system.sheet_number(s.enc, ada, name)
        except InputError:  # a number the rules work out (Knights of Valour's `max_hp` is the most HP it holds)
            assert ada.sheet.get(name, next(k.default for k in s.system.sheet_keys() if k.name == name)) is None
            assert "does not set" in s.refused("edit", actor="Ada", deltas={name: 1}, error=InputError)
            continue
        for step in (1, -1, 5, -5):  # 5: a number in steps of 5 (the open system's `reach`)
            value = s.system.sheet_number(s.enc, ada, name) + step
            try:
                absolute = s.resolve("edit", actor="Ada", raw_sheet={name: str(value)})
            except RulesError as refusal:
                assert s.refused("edit", actor="Ada", deltas={name: step}) == str(refusal), name
                continue
            relative = s.resolve("edit", actor="Ada", deltas={name: step})
            assert relative.encounter == absolute.encounter, name
            assert s.system.sheet_number(relative.encounter, relative.encounter.get("Ada"), name) == value
            moved.add(name)
    held = {n for n in numbers if n in ada.sheet} | ({"max_hp"} if key == "knights-of-valour" else set())
    assert held and held <= moved  # each number this sheet holds moves at least one way


def test_relative_edit_names_the_range_and_what_is_not_a_number() -> None:
    """Past a key's range the edit is refused naming the range; a word key or unknown key says what to do; nothing changes."""
    s = scenario("coup-de-grace")
    assert "1" in s.refused("edit", actor="Ada", deltas={"hp": -5}) and "20" in s.refused("edit", actor="Ada", deltas={"hp": 30})
    assert "`class` is not a number" in s.refused("edit", actor="Ada", deltas={"class": 1}, error=InputError)
    assert "no `luck`" in s.refused("edit", actor="Ada", deltas={"luck": 1}, error=InputError)


def test_knights_of_valour_hp_changes_from_the_current_hit_points() -> None:
    """Knights of Valour: editing `hp` sets the current HP, so `hp-2` and `/combatant hp` count from the HP now; before
    the fight `hp-7` sets the most too, `/combatant hp` the current HP only."""
    s = scenario("knights-of-valour").add("Gob", "agi=1 hp=7 weapons=warhammer:1", side="b", at="E3")
    s.run("edit", actor="Ada", hp_change=-5)
    assert s.get("Ada").hp == 9
    s.run("edit", actor="Ada", deltas={"hp": -2, "str": 1})
    assert (s.get("Ada").hp, s.get("Ada").sheet["str"]) == (7, 2)
    assert "`hp=0` given alone is also the most hit points (`max_hp`), which is 1 to 999" in s.refused(
        "edit", actor="Gob", deltas={"hp": -7}, error=SheetError
    )  # before the fight `hp` is the most too: "refused as the value they give would be" (docs/commands.md)
    s.run("edit", actor="Gob", hp_change=-7)  # `/combatant hp` "changes the current hit points" only
    assert (s.get("Gob").hp, s.get("Gob").sheet["hp"], s.get("Gob").status) == (0, 7, "downed")


def test_coup_de_grace_hp_moves_the_minis_hit_points_not_the_sheet() -> None:
    """Coup-De-Grace: `/combatant hp` moves the current HP (0 downs, -1 out), healing stops at the sheet's hp."""
    s = scenario("coup-de-grace")
    res = s.run("edit", actor="Ada", hp_change=-3)
    assert [e for e in res.events if isinstance(e, HitPointsChanged)] == [
        HitPointsChanged(actor="Ada", change=-3, before=3, after=0)
    ]
    assert (s.get("Ada").hp, s.get("Ada").status, s.get("Ada").sheet.get("hp", 3)) == (0, "downed", 3)
    assert "GM: **Ada** loses 3 HP (3 → 0 HP)" in s.text(res)
    s.run("edit", actor="Ada", hp_change=2)
    assert (s.get("Ada").hp, s.get("Ada").status) == (2, "active")
    assert "not 0" in s.refused("edit", actor="Ada", hp_change=0, error=InputError)


def test_tote_hp_marks_and_clears_injury_track_boxes() -> None:
    """TOTE (the project's default, the text being cut off): "Damage marks boxes on the Injury Track
    ([5][4][3][2][1][U]) ...; filling U means unconscious": `change:-2` marks two boxes, `+1` clears one."""
    s = scenario("tote", 1)
    res = s.run("edit", actor="Ada", hp_change=-2)
    assert (s.get("Ada").hp, s.text(res)) == (4, ["GM: **Ada** marks 2 boxes of the Injury Track (6 → 4 left)"])
    s.run("edit", actor="Ada", hp_change=1)
    assert s.get("Ada").hp == 5
    assert "mark at most 5" in s.refused("edit", actor="Ada", hp_change=-6, error=IllegalAction)
    s.run("edit", actor="Ada", hp_change=-5)
    assert (s.get("Ada").hp, s.get("Ada").status) == (0, "downed")
    assert "unconscious" in s.refused("edit", actor="Ada", hp_change=1, error=IllegalAction)


def test_a_coup_de_grace_heal_past_the_most_stops_at_it() -> None:
    """"healing stops at the most: the sheet's `hp` in Coup-De-Grace" (docs/commands.md): Ada at 1 of 3
    HP healed by 5 has 3, and the reply shows the 2 HP she gained."""
    s = scenario("coup-de-grace")
    s.run("edit", actor="Ada", hp_change=-2)
    res = s.run("edit", actor="Ada", hp_change=5)
    assert (s.get("Ada").hp, s.get("Ada").status) == (3, "active")
    assert s.text(res) == ["GM: **Ada** gains 2 HP (1 → 3 HP; +5 stops at its most)"]


def test_a_coup_de_grace_loss_stops_at_minus_one() -> None:
    """"If a mini is reduced to -1HP or less it is considered to be ''out of action''" (coup-de-grace.txt): no HP
    below -1 means more, so a loss of 50 from 3 HP stops at -1 (not -47), the reply showing the 4 lost."""
    s = scenario("coup-de-grace")
    res = s.run("edit", actor="Ada", hp_change=-50)
    assert (s.get("Ada").hp, s.get("Ada").status) == (-1, "out")
    assert s.text(res)[0] == "GM: **Ada** loses 4 HP (3 → -1 HP; −50 stops at its least)"


def test_a_coup_de_grace_mini_put_out_before_the_fight_is_healed_back() -> None:
    """`/combatant hp` "changes the current hit points in one step, before the fight too" (docs/commands.md):
    before the fight a heal brings back a mini put out, off the board (not deployed) until placed; once the
    fight has started an out mini "takes no further part in the battle" (coup-de-grace.txt): refused."""
    s = scenario("coup-de-grace").add("Gob", "class=light weapons=axe", side="b", at="F3", facing="W")
    s.add("Cid", "class=light weapons=axe", side="a", at="C4", facing="E")
    s.run("edit", actor="Ada", hp_change=-4)
    assert s.refused("edit", actor="Ada", hp_change=-1) == "Ada is already at -1/3 HP; nothing changed."
    res = s.run("edit", actor="Ada", hp_change=3, gm=False)
    assert (s.get("Ada").hp, s.get("Ada").status, s.get("Ada").position) == (2, "active", None)
    assert s.text(res) == ["**Ada** gains 3 HP (-1 → 2 HP), changed by its player",
                           "**Ada** is now **active**: back in the battle, not deployed: place it with `/combatant edit at:`"]
    s.run("edit", actor="Ada", at="C3", facing="N")
    s.run("edit", actor="Ada", hp_change=-3)
    assert s.get("Ada").status == "out"
    s.run("init_roll", [6, 1])
    assert "out of action" in s.refused("edit", actor="Ada", hp_change=3)


def test_a_tote_clear_past_the_track_stops_with_every_box_free() -> None:
    """TOTE, "healing stops at the most" (docs/commands.md) read for the Injury Track: Ada with 4 of 6 boxes
    free clearing 5 has all 6 free, and the reply shows the 2 boxes cleared."""
    s = scenario("tote", 1)
    s.run("edit", actor="Ada", hp_change=-2)
    res = s.run("edit", actor="Ada", hp_change=5)
    assert (s.get("Ada").hp, s.text(res)) == (6, ["GM: **Ada** clears 2 boxes of the Injury Track (4 → 6 left; +5 stops at its most)"])


@pytest.mark.parametrize("key, which, full", [("coup-de-grace", 0, "3/3 HP"), ("knights-of-valour", 0, "14/14 HP"),
                                              ("open", 0, "24/24 HP")])
def test_a_change_of_hit_points_that_changes_nothing_is_refused(key: str, which: int, full: str) -> None:
    """"healing stops at the most" (docs/commands.md): a heal at full moves no hit point, so `/combatant hp` is
    refused saying so, and changes nothing (no "gains 0 HP (9 → 9 HP)" reply, no log row)."""
    s = scenario(key, which)
    assert s.refused("edit", actor="Ada", hp_change=3) == f"Ada is already at {full}; nothing changed."


def test_a_tote_clear_with_every_box_free_is_refused() -> None:
    """TOTE: clearing boxes of a track with every box free clears none: refused, nothing changed."""
    s = scenario("tote", 1)
    assert s.refused("edit", actor="Ada", hp_change=2) == (
        "Ada's Injury Track already has 6 of 6 boxes free; nothing changed."
    )


def test_a_knights_of_valour_loss_at_the_least_hp_is_refused() -> None:
    """Knights of Valour stops a loss at -99 HP ("hp ... -99–999", docs/systems/knights-of-valour.md): a loss
    there moves nothing, and neither does a relative sheet edit (`hp+3`) at the most, mid-fight."""
    s = scenario("knights-of-valour").add("Gob", "agi=1 hp=7 weapons=warhammer:1", side="b", at="E3")
    s.run("init_roll")
    s.run("edit", actor="Gob", hp_change=-200)
    assert s.get("Gob").hp == -99
    assert s.refused("edit", actor="Gob", hp_change=-1) == "Gob is already at -99/7 HP; nothing changed."
    assert s.refused("edit", actor="Ada", deltas={"hp": 3}) == "Ada is already at 14/14 HP; nothing changed."


@pytest.mark.parametrize("key", ["damage-grid", "war-and-combat"])
def test_systems_without_hit_points_refuse_a_change_of_hp(key: str) -> None:
    """Where harm is not a number, `/combatant hp` is refused, saying where to look and what to use."""
    s = scenario(key)
    text = s.refused("edit", actor="Ada", hp_change=-1, error=IllegalAction)
    assert "counts no hit points" in text and "/combatant show" in text
    assert "`/act action:damage target:Ada" in text and "action:heal" in text


@pytest.mark.parametrize("key", ["coup-de-grace", "tote", "knights-of-valour", "open"])
def test_a_players_own_hit_point_change_names_its_player_not_the_gm(key: str) -> None:
    """"`/combatant hp` | ... | GM; owner before the fight" (docs/commands.md): Ada's player taking her to 0 (or out)
    before the fight reads as its player's change, where the GM's reads as the GM's."""
    s = scenario(key)
    full = s.get("Ada").hp or 0
    for gm in (False, True):
        text = s.system.present.report("", s.resolve("edit", actor="Ada", hp_change=-full, gm=gm).events).text()
        assert ("its player" in text, "GM" in text) == (not gm, gm), text
