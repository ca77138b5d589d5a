"""Coup-De-Grace's typed state: exports written by the first version (plain dict state) still load and play."""
from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from rules.models import Encounter
from rules.systems.coup_de_grace.state import CdgCombatant, CdgEncounter
from tests.rules.coup_de_grace.build import SYSTEM, resolve

#: an `/encounter export` of the first version, mid-round: Borin activating with 2 MP left, Grak downed
OLD_EXPORT = {
    "format": "skirmish-encounter/1",
    "system": "coup-de-grace",
    "variant": None,
    "name": "Bridge",
    "round": 1,
    "phase": None,
    "current": "Borin",
    "order": ["Borin", "Grak", "Thrain"],
    "map": {"kind": "square", "width": 8, "height": 6, "blocked": ["D1"], "terrain": {}, "heights": {}},
    "combatants": [
        {"name": "Borin", "side": "dwarves", "owner_id": "1", "position": "C3", "facing": "E", "status": "active",
         "hp": 3, "initiative": None, "sheet": {"class": "heavy", "hp": 3, "weapons": ["axe", "shield"]},
         "state": {"hp_max": 3, "done": True, "mp": 2, "used": {"axe": 1}, "reroll": False}},
        {"name": "Grak", "side": "orcs", "owner_id": None, "position": "D3", "facing": None, "status": "downed",
         "hp": 0, "initiative": None, "sheet": {"class": "light", "hp": 3, "weapons": ["sword"]},
         "state": {"hp_max": 3, "done": False, "mp": None, "used": {}, "reroll": False, "last_facing": "W"}},
        {"name": "Thrain", "side": "dwarves", "owner_id": "1", "position": "B5", "facing": "N", "status": "active",
         "hp": 3, "initiative": None, "sheet": {"class": "light", "hp": 3, "weapons": ["sword"]},
         "state": {"hp_max": 3, "done": False, "mp": None, "used": {}, "reroll": False}},
    ],
    "settings": {"options": {"tie": "join"}},
    "gm_ids": ["42"],
    "state": {"sides": ["dwarves", "orcs"], "priority": "dwarves", "slot": 1},
}


def test_an_old_export_loads_into_the_typed_state() -> None:
    """An export of the first version (dict state) reads back with every value in the typed models."""
    enc = Encounter.model_validate_json(json.dumps(OLD_EXPORT))
    borin, grak = enc.get("Borin"), enc.get("Grak")
    assert isinstance(enc.state, CdgEncounter) and (enc.state.priority, enc.state.slot) == ("dwarves", 1)
    assert isinstance(borin.state, CdgCombatant) and (borin.state.mp, borin.state.used) == (2, {"axe": 1})
    assert grak.state.last_facing == "W"


def test_an_old_export_plays_on() -> None:
    """The imported encounter plays on: Borin's axe finishes Grak with his activation's MP."""
    enc = Encounter.model_validate_json(json.dumps(OLD_EXPORT))
    res = resolve(enc, "next")
    assert res.encounter.state.priority == "orcs" and SYSTEM.turn(res.encounter).actors == ("Grak",)


def test_an_unknown_state_key_is_refused() -> None:
    """A state key no version wrote is refused when the encounter is read."""
    bad = json.loads(json.dumps(OLD_EXPORT))
    bad["combatants"][0]["state"]["wings"] = 2
    with pytest.raises(ValidationError):
        Encounter.model_validate_json(json.dumps(bad))
