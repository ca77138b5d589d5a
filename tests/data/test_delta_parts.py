"""The undo delta worked out from the parts of a state that changed (`data.delta.parts_diff`):
the same operations as diffing the two whole states, and undo exact over a long history."""
from __future__ import annotations

import json
import random

import pytest

from data import Change, Store
from data.delta import Parts, diff, parts_diff, patch, state_parts
from rules.models import Combatant, Encounter
from tests.data.stores import fight, step


def parts(enc: Encounter) -> Parts:
    """``enc``'s JSON in parts, as the service keeps them; joined, they are its JSON exactly."""
    found = state_parts(enc)
    assert found.whole() == enc.model_dump_json()
    return found


def grown_or_cut(enc: Encounter, rng: random.Random) -> Encounter:
    """A combatant added at the end, or one removed from the middle."""
    new = enc.model_copy(deep=True)
    if rng.random() < 0.5 or len(new.combatants) < 3:
        new.combatants.append(Combatant(name=f"N{rng.randrange(10**6)}", side="a", hp=rng.randrange(1, 9)))
    else:
        del new.combatants[rng.randrange(len(new.combatants))]
    return new


def test_parts_give_the_operations_of_the_whole_states() -> None:
    """Over 300 random moves, hits, turn ends, arrivals and removals, the delta from the changed parts rebuilds the state after exactly, as the whole states' diff does."""
    rng = random.Random(5)
    state = fight(20)
    for _ in range(300):
        new = grown_or_cut(state, rng) if rng.random() < 0.2 else step(state, rng)
        before, after = state.model_dump_json(), new.model_dump_json()
        ops = parts_diff(parts(state), parts(new))
        assert ops is not None
        rebuilt = patch(json.loads(before), ops)
        assert json.dumps(rebuilt) == json.dumps(json.loads(after))
        whole = diff(before, after)
        assert sorted(map(json.dumps, ops)) == sorted(map(json.dumps, whole))
        state = new


def test_an_unchanged_state_has_no_operations_and_a_changed_part_one_each() -> None:
    """Equal parts cost no operation; a changed combatant, the map or another field only the operations of what changed in it."""
    enc = fight(5)
    assert parts_diff(parts(enc), parts(enc)) == []
    moved = enc.model_copy(deep=True)
    moved.combatants[2].hp = 3
    assert parts_diff(parts(enc), parts(moved)) == [[["combatants", 2, "hp"], 3]]
    moved.map.blocked = ["C3"]
    moved.round = 4
    assert sorted(map(json.dumps, parts_diff(parts(enc), parts(moved)) or [])) == sorted(map(json.dumps, [
        [["combatants", 2, "hp"], 3], [["map", "blocked", 0], "C3"], [["round"], 4]]))


async def test_undo_is_exact_with_deltas_from_parts(store: Store) -> None:
    """Two hundred changes written with the delta from their parts undo, one by one, back to the first state exactly."""
    rng = random.Random(8)
    start = fight(30)
    created = await store.create_encounter("p", "g", start, 1.0)
    state, history = start, []
    for n in range(200):
        new = grown_or_cut(state, rng) if rng.random() < 0.1 else step(state, rng)
        await store.apply(Change(
            encounter_id=created.id, encounter=new, interaction_id=f"p{n}", user_id="u", command="act", summary="s",
            dice=[], now=10.0 + n, state_before=state.model_dump_json(), state_json=new.model_dump_json(),
            version=n, delta=parts_diff(parts(state), parts(new)),
        ))
        history.append(state)
        state = new
    entries = await store.log(created.id, 200)
    assert len(entries) == 200
    for entry, expected in zip(entries, history):
        assert entry.state_before is not None
        assert json.loads(entry.state_before) == json.loads(expected.model_dump_json())


def test_a_write_is_diffed_without_the_exact_reader_unless_a_number_only_changes_its_type(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move, a hit or a turn end is diffed from orjson's reading alone; a sheet value that
    turns from ``1`` to ``1.0`` or ``true`` (equal in Python) is read exactly instead, and each
    delta rebuilds the state after to the character."""
    import data.delta as delta

    exact = []
    real = delta._read
    monkeypatch.setattr(delta, "_read", lambda text: exact.append(text) or real(text))
    rng = random.Random(3)
    state = fight(12)
    for _ in range(60):
        new = step(state, rng)
        ops = parts_diff(parts(state), parts(new))
        assert ops is not None and patch(json.loads(state.model_dump_json()), ops) == json.loads(new.model_dump_json())
        state = new
    assert exact == []
    state.combatants[4].sheet = {"reach": 1, "mark": 1, "keep": [1, {"n": 2}]}
    for value in (1.0, True, 1):
        new = state.model_copy(deep=True)
        new.combatants[4].sheet = {"reach": 1, "mark": value, "keep": [1, {"n": 2}]}
        ops = parts_diff(parts(state), parts(new))
        assert ops == [[["combatants", 4, "sheet", "mark"], value]]
        assert type(ops[0][1]) is type(value)
        rebuilt = patch(json.loads(state.model_dump_json()), ops)
        assert json.dumps(rebuilt, separators=(",", ":")) == new.model_dump_json()
        state = new
    assert len(exact) == 6  # both texts of the one changed combatant, three times
