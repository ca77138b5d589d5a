"""TOTE: typed state, and encounters stored or exported by the earlier, untyped version still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from rules.models import Encounter
from rules.systems.tote import ToteCombatant, ToteEncounter
from rules.systems.tote.movement import band_of, pair_band
from tests.rules.tote.build import SYSTEM, fight, step, who

HERE = Path(__file__).parent


def _old(name: str) -> Encounter:
    return Encounter.model_validate(json.loads((HERE / name).read_text()))


def test_an_old_distance_round_export_loads_with_bands_as_pair_distances() -> None:
    """An export of the untyped version (one band per combatant) reads back typed; each pair is at the nearer band."""
    enc = _old("old_distance_export.json")
    assert isinstance(enc.state, ToteEncounter) and all(isinstance(c.state, ToteCombatant) for c in enc.combatants)
    borin, thrain, grak = who(enc, "Borin"), who(enc, "Thrain"), who(enc, "Grak")
    assert (borin.state.band, borin.state.filled, borin.state.acted) == ("far", 2, 1)
    assert pair_band(enc, borin, grak) == pair_band(enc, grak, borin) == "close"
    assert band_of(enc, thrain) == "close" and enc.state.distance == "far"
    assert "close" in SYSTEM.present.status_line(enc, borin, SYSTEM.facts(enc))


def test_an_old_melee_export_loads_and_play_goes_on() -> None:
    """An old export in a melee round (engaged pairs as lists) loads, and the next command resolves on it."""
    enc = _old("old_melee_export.json")
    assert enc.state.engaged == [("Borin", "Grak")] and who(enc, "Grak").state.melee_round == 2
    enc = step(enc, "next", actor=enc.current)
    assert enc.current == "Snaga"
    assert Encounter.model_validate_json(enc.model_dump_json()) == enc


def test_old_state_shapes_map_onto_the_models() -> None:
    """Old dict shapes (a pair in any order, a pending return, an empty protect entry, null values) read into the models."""
    data = fight().model_dump(mode="json")
    data["state"] = {
        "distance": "melee",
        "engaged": [["Grak", "Borin"]],
        "pending_return": {"by": "Grak", "against": "Borin"},
        "tiebreak": ["Thrain"],
    }
    data["combatants"][0]["state"] = {"filled": 1, "band": "melee", "defend": None}
    data["combatants"][1]["state"] = {"protect": {}, "disengaged": 1}
    enc = Encounter.model_validate(data)
    assert enc.state.engaged == [("Borin", "Grak")] and enc.state.pending_return.by == "Grak"
    borin, thrain = who(enc, "Borin"), who(enc, "Thrain")
    assert borin.state.filled == 1 and enc.effects == [] and thrain.state.disengaged == 1
    assert SYSTEM.turn(enc).actors == ("Grak",)


def test_an_old_defend_of_this_round_becomes_the_defend_effect() -> None:
    """Stored before Defend was an effect, a combatant's `defend` of the current round reads as the
    Defend effect ending at the round's end; an older round's is dropped."""
    data = fight().model_dump(mode="json")
    data["round"] = 3
    data["combatants"][0]["state"] = {"defend": 3}
    data["combatants"][1]["state"] = {"defend": 2}
    enc = Encounter.model_validate(data)
    [effect] = enc.effects
    assert (effect.name, effect.target, effect.ends, effect.code) == ("Defend", data["combatants"][0]["name"], "round_end", "defend")
    assert Encounter.model_validate_json(enc.model_dump_json()) == enc


def test_an_old_protect_of_this_round_becomes_the_protect_effect() -> None:
    """Stored before Protect was an effect, a combatant's `protect` of the current round ("nominate an ally. If that
    ally is attacked, you are instead the target of the attack") reads as the Protect effect on the ally, put on by
    the protector and ending at the round's end; an older round's is dropped."""
    data = fight().model_dump(mode="json")
    data["round"] = 3
    data["combatants"][0]["state"] = {"protect": {"ally": "Thrain", "round": 3}}
    data["combatants"][1]["state"] = {"protect": {"ally": "Borin", "round": 2}}
    enc = Encounter.model_validate(data)
    [effect] = enc.effects
    protector = data["combatants"][0]["name"]
    assert (effect.name, effect.target, effect.source, effect.ends, effect.code) == (
        f"Protect (by {protector})", "Thrain", protector, "round_end", "protect")
    assert dict(SYSTEM.facts(enc).protecting) == {protector: "Thrain"}


def test_a_stored_protect_effect_is_named_after_its_protector() -> None:
    """Stored before "each Protect on an ally names its protector" (docs/systems/tote.md), a Protect effect reads as
    `Protect (by Thrain)`: two on one ally are told apart; other effects keep their names."""
    data = fight().model_dump(mode="json")
    data["effects"] = [
        {"id": 1, "name": "Protect", "target": "Borin", "ends": "round_end", "code": "protect", "source": "Thrain"},
        {"id": 2, "name": "Protect", "target": "Borin", "ends": "round_end", "code": "protect", "source": "Grak"},
        {"id": 3, "name": "Defend", "target": "Thrain", "ends": "round_end", "code": "defend", "source": "Thrain"},
        {"id": 4, "name": "Protect", "target": "Grak", "ends": "round_end"},
    ]
    enc = Encounter.model_validate(data)
    assert [e.name for e in enc.effects] == ["Protect (by Thrain)", "Protect (by Grak)", "Defend", "Protect"]
    assert Encounter.model_validate_json(enc.model_dump_json()) == enc


@pytest.mark.parametrize("bad", [{"filled": -1}, {"acted": "99999999999999"}, {"band": "near"}, {"colour": "red"}])
def test_state_that_cannot_be_used_does_not_load(bad: dict[str, object]) -> None:
    """A state value the rules cannot use is a validation error when it is read, never later."""
    data = fight().model_dump(mode="json")
    data["combatants"][0]["state"] = bad
    with pytest.raises(ValidationError):
        Encounter.model_validate(data)
