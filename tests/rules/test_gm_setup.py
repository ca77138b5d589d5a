"""The GM's setup of an encounter (rules.setup): settings checked once by the model, GMs,
terrain with the wall-on-an-occupied-cell rule, and revealing numbers; each returns a copy."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError, NotAllowed
from rules.models import REMINDER_HOURS_FLOOR, Combatant, Encounter, Settings
from rules.registry import get_system
from rules.setup import (
    new_encounter,
    setting_problem,
    with_gm,
    with_reveal,
    with_settings,
    with_terrain,
)

CDG = get_system("coup-de-grace")


def fight() -> Encounter:
    """A Coup-De-Grace encounter on its default map, with Grak (the GM's) on B2 and Borin (a player's) on C3."""
    enc = new_encounter(CDG, "Bridge", None, None, "1", 24.0)
    enc.combatants = [
        Combatant(name="Grak", side="orcs", position="B2"),
        Combatant(name="Borin", side="dwarves", owner_id="2", position="C3"),
    ]
    return enc


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"max_nudges": 11}, "`max_nudges` is a whole number from 0 to 10, not 11."),
        ({"max_nudges": -1}, "`max_nudges` is a whole number from 0 to 10, not -1."),
        ({"reminder_hours": 721.0}, "`reminder_hours` is 0 (never) or from 0.25 to 720 hours, not 721."),
        ({"reminder_hours": 0.1}, "`reminder_hours` is 0 (never) or from 0.25 to 720 hours, not 0.1."),
        ({"deadline_hours": 0.5}, "`deadline_hours` is 0 (no deadline) or from 1 to 2160 hours, not 0.5."),
        ({"deadline_hours": -1.0}, "`deadline_hours` is 0 (no deadline) or from 1 to 2160 hours, not -1."),
        ({"deadline_policy": "wait"}, "`deadline_policy` is one of pass, hold, gm, not `wait`."),
    ],
)
def test_a_setting_out_of_the_models_bounds_is_refused_in_its_fields_words(changes: dict[str, object], words: str) -> None:
    """Each bound is the Settings model's own; the refusal says the range and the value given, and changes nothing."""
    enc = fight()
    before = enc.model_dump()
    with pytest.raises(InputError) as refused:
        with_settings(enc, CDG, changes, {})
    assert refused.value.message == words
    assert enc.model_dump() == before


def test_settings_within_the_bounds_come_back_on_a_copy() -> None:
    """Given values are set on a copy (None leaves one as it is); the encounter given is unchanged."""
    enc = fight()
    new = with_settings(enc, CDG, {"max_nudges": 10, "deadline_hours": 1, "player_rolls": None}, {"hidden": "none"})
    assert (new.settings.max_nudges, new.settings.deadline_hours, new.settings.player_rolls) == (10, 1.0, True)
    assert new.settings.reveal is True
    assert (enc.settings.max_nudges, enc.settings.deadline_hours, enc.settings.reveal) == (3, 0.0, False)


def test_a_stored_value_below_the_floor_still_reads_back_raised_to_it() -> None:
    """Only a value given now is refused below the floor; one stored before the floor existed loads raised to it."""
    assert Settings.model_validate({"reminder_hours": 0.01}).reminder_hours == REMINDER_HOURS_FLOOR
    assert setting_problem("reminder_hours", 0.01) is not None
    assert setting_problem("reminder_hours", 0) is None and setting_problem("deadline_hours", 2160) is None


def test_a_wall_cannot_go_on_an_occupied_cell() -> None:
    """A solid terrain on a cell someone stands on is refused, naming who stands there; nothing changes."""
    enc = fight()
    with pytest.raises(IllegalAction, match="B2 holds Grak: a wall cannot go there"):
        with_terrain(enc, CDG, "A1 B2", "wall", None)
    assert enc.map.blocked == []


def test_terrain_marks_a_copy_and_returns_the_kind_and_cells() -> None:
    """Walls go on free cells; clear takes them off; the kind is read in lower case."""
    enc = fight()
    walled, kind, cells, _ = with_terrain(enc, CDG, "A1:A2", " Wall ", None)
    assert (walled.map.blocked, kind, [c.name for c in cells]) == (["A1", "A2"], "wall", ["A1", "A2"])
    assert enc.map.blocked == []
    cleared, _, _, _ = with_terrain(walled, CDG, "A1", "clear", None)
    assert cleared.map.blocked == ["A2"]
    with pytest.raises(InputError, match="`lava` is not a terrain"):
        with_terrain(enc, CDG, "A1", "lava", None)


def test_a_terrain_over_walls_marks_the_rest_and_keeps_the_walls() -> None:
    """docs/commands.md: a `kind` other than `wall` and `clear` "marks the cells around walls and leaves
    the walls standing (the reply names them)": painting rough ground over a room keeps its walls;
    `kind:clear` takes them away and `kind:wall` turns terrain into walls. Marking only walls with
    another kind is refused, saying how to take a wall away, and changes nothing."""
    opn = get_system("open")
    enc = new_encounter(opn, "Crypt", "12x10", None, "1", 24.0)
    walled, _, _, kept = with_terrain(enc, opn, "F2 F3", "wall", None)
    assert kept == []
    swamp, kind, cells, kept = with_terrain(walled, opn, "E1:G4", "difficult", None)
    assert (kind, len(cells), [c.name for c in kept]) == ("difficult", 12, ["F2", "F3"])
    assert swamp.map.blocked == ["F2", "F3"]
    assert sorted(swamp.map.terrain) == sorted(["E1", "F1", "G1", "E2", "G2", "E3", "G3", "E4", "F4", "G4"])
    before = swamp.model_dump()
    with pytest.raises(InputError) as refused:
        with_terrain(swamp, opn, "F2:F3", "rough", None)
    assert refused.value.message == (
        "F2 F3 are walls, and `kind:rough` leaves walls standing: mark them `kind:clear` first to take them away."
    )
    assert swamp.model_dump() == before
    raised, _, _, kept = with_terrain(swamp, opn, "F2", "rough", 10)
    assert (raised.map.blocked, raised.map.heights, [c.name for c in kept]) == (["F2", "F3"], {"F2": 10}, ["F2"])
    cleared, _, _, kept = with_terrain(swamp, opn, "E1:G4", "clear", None)
    assert (cleared.map.blocked, cleared.map.terrain, kept) == ([], {}, [])
    rewalled, _, _, _ = with_terrain(swamp, opn, "E1 F2", "wall", None)
    assert (rewalled.map.blocked, "E1" in rewalled.map.terrain) == (["F2", "F3", "E1"], False)


def test_an_encounter_keeps_at_least_one_gm() -> None:
    """A co-GM is added and removed on a copy; the last GM cannot be removed, nor a GM added twice."""
    enc = fight()
    both = with_gm(enc, "5", remove=False, by="1")
    assert (both.gm_ids, enc.gm_ids) == (["1", "5"], ["1"])
    assert with_gm(both, "1", remove=True, by="1").gm_ids == ["5"]
    with pytest.raises(IllegalAction, match="at least one GM"):
        with_gm(enc, "1", remove=True, by="1")
    with pytest.raises(InputError, match="already a GM"):
        with_gm(both, "5", remove=False, by="1")


def test_a_co_gm_cannot_remove_the_gm_who_started_the_encounter() -> None:
    """docs/commands.md: "`/encounter gm` ... GM: add or remove co-GMs"; the GM who started the
    encounter (the first of its GMs) is removed only by themselves: a co-GM's attempt is refused
    saying so, and nothing changes. A co-GM may still remove another co-GM, and once the starter
    steps down, the next GM is the first and stays only theirs to remove."""
    enc = with_gm(with_gm(fight(), "5", remove=False, by="1"), "6", remove=False, by="1")
    before = enc.model_dump()
    with pytest.raises(NotAllowed) as refused:
        with_gm(enc, "1", remove=True, by="5")
    assert refused.value.message == (
        "Only {user:1} can remove themselves as GM: an encounter's first GM (who started it) stays "
        "until they step down."
    )
    assert enc.model_dump() == before
    assert with_gm(enc, "6", remove=True, by="5").gm_ids == ["1", "5"]
    stepped_down = with_gm(enc, "1", remove=True, by="1")
    assert stepped_down.gm_ids == ["5", "6"]
    with pytest.raises(NotAllowed, match="first GM"):
        with_gm(stepped_down, "5", remove=True, by="6")


def test_reveal_shows_one_gm_combatant_and_refuses_a_players() -> None:
    """Grak's numbers are shown by name (as stored); a player's combatant always shows its numbers."""
    enc = fight()
    new, name = with_reveal(enc, "grak", hide=False)
    assert (name, new.settings.revealed, enc.settings.revealed) == ("Grak", ["Grak"], [])
    hidden, _ = with_reveal(new, "Grak", hide=True)
    assert hidden.settings.revealed == []
    with pytest.raises(InputError, match="Borin is a player's"):
        with_reveal(enc, "Borin", hide=False)
    everyone, none = with_reveal(enc, None, hide=False)
    assert (everyone.settings.reveal, none) == (True, None)


def test_a_height_alone_keeps_each_cells_kind() -> None:
    """`/encounter terrain height:` without `kind` raises the cells and keeps what is there (War & Combat: "Uphill ×2
    ... movement costs are double that of dominant terrain", so rough ground on a rise stays rough); with neither, it is
    refused with what to give, and nothing changes."""
    wac = get_system("war-and-combat")
    enc = new_encounter(wac, "Ford", "16x12 hex", None, "1", 24.0)
    rough, _, _, _ = with_terrain(enc, wac, "D4 D5", "rough", None)
    raised, kind, cells, _ = with_terrain(rough, wac, "D4", None, 6)
    assert (raised.map.terrain, raised.map.heights, kind, [c.name for c in cells]) == (
        {"D4": "rough", "D5": "rough"}, {"D4": 6}, None, ["D4"])
    with pytest.raises(InputError, match="`kind`.*`height`"):
        with_terrain(rough, wac, "D4", None, None)


@pytest.mark.parametrize(("key", "sheet"), [("damage-grid", ""), ("coup-de-grace", "class=light"), ("war-and-combat", "")])
def test_an_edit_that_places_or_turns_a_combatant_says_where_it_is_now(key: str, sheet: str) -> None:
    """`/combatant edit at: facing:` moves and turns: its line says where to and which way (it told only the sheet),
    for everyone, as the board shows it; a hidden combatant's too, without its sheet."""
    from tests.scenario import Scenario

    s = Scenario(key, map="12x12")
    s.add("Meena", sheet, side="crew", at="E8", facing="N", owner="7")
    res = s.run("edit", actor="Meena", at="B7", facing="E")
    line = s.text(res)[0]
    assert "**Meena** updated (at B7, facing E)" in line, line
    hidden = s.system.present.view(s.enc, frozenset({"Meena"}))
    (edited,) = [e for e in res.events if e.kind == "edited"]
    assert hidden.readable(hidden.marked(edited)) == "The GM changed **Meena** (at B7, facing E)"
