"""Knights of Valour: the typed state, encounters stored by earlier versions, and what the system declares."""
from __future__ import annotations

import json

from rules.models import Encounter
from rules.systems.knights_of_valour import KovCombatant, KovEncounter
from tests.rules.knights_of_valour.build import SYSTEM, duel, one, run

#: the state as the first version stored it, before the typed models (dict keys of the old module)
OLD_COMBATANT = {"init_set": None, "delayed": False, "moves": 0, "combat": 1, "ft": 20, "used": True,
                 "provoked": ["Grak"], "wield": "longsword"}
OLD_ENCOUNTER = {"acted": ["Borin"], "fresh": False, "ties": ["Borin", "Grak"]}


def old_export() -> dict[str, object]:
    """An `encounter.json` as the earlier version wrote it: untyped state under the old keys, and facings."""
    data = json.loads(duel().model_dump_json())
    data["state"] = dict(OLD_ENCOUNTER)
    borin, grak = data["combatants"]
    borin.update(state=dict(OLD_COMBATANT), facing="E")
    grak.update(state={**OLD_COMBATANT, "moves": 0, "combat": 0, "ft": 0, "used": False, "provoked": [],
                       "wield": "greataxe"}, facing="W")
    return data


def test_an_export_of_the_earlier_version_loads_with_its_state() -> None:
    """An export whose state uses the old keys (moves, combat, ft, used; fresh, ties) reads into the typed models."""
    enc = Encounter.model_validate(old_export())
    borin = enc.get("Borin")
    assert isinstance(borin.state, KovCombatant) and isinstance(enc.state, KovEncounter)
    assert (borin.state.move_actions, borin.state.combat_actions, borin.state.feet_left, borin.state.spent) == (0, 1, 20, True)
    assert (borin.state.provoked, borin.state.wield, borin.facing) == (["Grak"], "longsword", "E")
    assert (enc.state.acted, enc.state.round_start, enc.state.tie_order) == (["Borin"], False, ["Borin", "Grak"])
    again = Encounter.model_validate_json(enc.model_dump_json())
    assert again == enc


def test_an_old_encounter_plays_on() -> None:
    """The loaded encounter resolves the next action (Borin moves on with the 20 ft left) and shows no facing."""
    enc = Encounter.model_validate(old_export())
    res = run(enc, kind="move", actor="Borin", path="N")
    assert res.encounter.get("Borin").position == "C3" and one(res.events, "left").feet_left == 15
    assert SYSTEM.present.status_line(res.encounter, res.encounter.get("Borin"), SYSTEM.facts(res.encounter)).startswith("**Borin** · C3 · 12/12 HP")


def test_terrain_kinds_are_those_the_rules_read() -> None:
    """Knights of Valour reads difficult, rough, obstacle, gap and climb markings, walls and clear squares."""
    assert set(SYSTEM.terrain_kinds) == {"clear", "wall", "difficult", "rough", "obstacle", "gap", "climb"}
    assert not SYSTEM.uses_facing


def test_every_option_is_declared_once_with_its_default() -> None:
    """The options read by the rules are the declared ones, and `delay` defaults to the text's reading."""
    values = SYSTEM.option_values(duel())
    assert set(values) == {o.name for o in SYSTEM.options}
    assert (values.delay, values.split_move, values.obstacle_height, values.height_tall) == ("start", "no", 3, 7)


async def test_combatant_show_lists_the_typed_state() -> None:
    """`/combatant show` of a Knights of Valour combatant shows its state as the board does (the wielded weapon), never the raw fields."""
    from bot.offline.harness import Harness

    h = await Harness.create()
    try:
        await h.run("gm", "/encounter start", system="knights-of-valour", map="12x10")
        await h.run("gm", "/combatant add", name="Borin", side="dwarves", at="C4", sheet="agi=1 hp=12 weapons=longsword:2")
        sent = await h.run("gm", "/combatant show", name="Borin")
        assert "Something went wrong" not in sent[0].text
        assert "12/12 HP · longsword" in sent[0].text
        assert "wield=" not in sent[0].text and "combat_actions" not in sent[0].text
    finally:
        await h.close()
