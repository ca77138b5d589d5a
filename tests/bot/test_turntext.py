"""A turn's key as text: what its reminder row waits on and what its buttons' tag hashes."""
from __future__ import annotations

import hashlib
import json

from bot.service.clock import turn_reminder
from bot.service.turntext import turn_key_json, turn_tag
from rules.models import Combatant, Encounter
from rules.turns import Turn


def test_a_turns_key_is_written_as_json_dumps_writes_it_for_the_reminder_and_the_tag() -> None:
    """The reminder's ``turn_key`` and the tag's hash read the key as ``json.dumps(list(key), default=str)`` writes it (tuples, other alphabets, values JSON has no type for)."""
    enc = Encounter(system="open", round=3, combatants=[Combatant(name="Þrór", side="dwarves", owner_id="7", hp=3, sheet={"hp": 3})])
    for key in [(), (3, "Þrór"), (2, ("a", 1), None, 1.5), (1, frozenset({"x"}), b"raw")]:
        turn = Turn(actors=("Þrór",), key=key, current="Þrór")
        written = json.dumps(list(key), default=str)
        assert turn_key_json(turn) == written
        reminder = turn_reminder(enc, turn, 1, "2", 1000.0)
        assert reminder is not None and reminder.turn_key == written
        assert turn_tag(enc, turn) == f"r3.{hashlib.sha256(written.encode()).hexdigest()[:8]}"
