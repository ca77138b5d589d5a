"""Buttons that survive restarts: End turn and Map on the turn message, the GM's Undo on the board,
Confirm / Cancel before ending or replacing a fight, who is on deck, and turns that end by themselves;
each press delivered through the harness as a real type-3 interaction."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.offline.harness import Harness, Sent, buttons_of, user_id_of
from cogs.buttons import DYNAMIC_ITEMS, QUESTION_SECONDS, board_view, turn_view

SHEET = "hp=10 weapons=club:1"


async def fight(h: Harness) -> list[Sent]:
    """Knights of Valour: Borin (bob) acts first, then Grak (the GM's), then Thrain (tess)."""
    await h.run("gm", "/encounter start", system="knights-of-valour", name="Ford", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", sheet=f"agi=2 {SHEET}")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", sheet=f"agi=1 {SHEET}")
    await h.run("gm", "/combatant add", name="Thrain", owner="@tess", side="dwarves", at="B4", sheet=f"agi=0 {SHEET}")
    return await h.run("gm", "/init roll")


def turn_message(sent: list[Sent]) -> Sent:
    [message] = [s for s in sent if any(b.get("label") == "End turn" for b in buttons_of(s))]
    return message


def refusal(sent: list[Sent]) -> str:
    assert len(sent) == 1 and sent[0].ephemeral and "Not done" in sent[0].text, [s.text for s in sent]
    return sent[0].text


async def current(h: Harness) -> str | None:
    enc = await h.bot.service.encounter(str(h.payload("gm", "/roll", {"dice": "1"})["channel_id"]))
    assert enc is not None
    return enc.current


async def test_turn_message_carries_end_turn_and_map_and_names_who_is_on_deck(h: Harness) -> None:
    """The turn message pings Borin's owner only, names Grak on deck, and carries the two persistent buttons."""
    message = turn_message(await fight(h))
    assert message.pinged_users() == [str(user_id_of("bob"))]
    assert not message.pings_everyone() and message.allowed_mentions["users"] == [user_id_of("bob")]
    assert "On deck: Grak." in message.content
    rows = message.payload["components"]
    assert [[(b["type"], b["label"]) for b in row["components"]] for row in rows] == [[(2, "End turn"), (2, "Map")]]
    end, map_ = buttons_of(message)
    assert re.fullmatch(r"skirmish:end:\d+:r1\.[0-9a-f]{8}", end["custom_id"]) and len(end["custom_id"]) <= 100
    assert re.fullmatch(r"skirmish:map:\d+", map_["custom_id"])


async def test_the_turn_messages_and_boards_buttons_go_out_in_a_view_discord_py_keeps_for_no_message() -> None:
    """The persistent buttons' views are sent stopped: discord.py stores no finished view for its message (a press is answered by the registered dynamic item)."""
    for view in (turn_view(7, "r2.0123abcd", True), turn_view(7, "r2.0123abcd", False), board_view(7)):
        assert view.is_finished() and view.timeout is None and view.children
        assert all(isinstance(item, DYNAMIC_ITEMS) for item in view.children)


async def test_a_released_view_is_made_again_for_the_next_message_with_only_its_own_buttons() -> None:
    """A released board's view is the next board's, a released turn message's view (with its buttons) the next turn message's of its kind, each carrying exactly the components of a new view of that message's items; released twice, a view is kept once."""
    from discord import ui

    from bot.tree import release
    from cogs.buttons import EndTurnButton, MapButton, UndoButton

    def fresh(*items: ui.Item[Any]) -> list[dict[str, Any]]:
        view = ui.View(timeout=None)
        for item in items:
            view.add_item(item)
        return view.to_components()

    board = board_view(7)
    release(view=board)
    release(view=board)
    again, other = board_view(8), board_view(9)
    assert again is board and other is not board
    assert again.to_components() == fresh(UndoButton(8)) and other.to_components() == fresh(UndoButton(9))
    turn = turn_view(7, "r2.0123abcd", True)
    release(view=turn)
    release(view=turn)
    aimed, alone, no_map = turn_view(8, "r3.89abcdef", True), turn_view(9, "r3.89abcdef", True), turn_view(8, "r3.89abcdef", False)
    assert aimed is turn and alone is not turn and no_map is not turn
    assert aimed.to_components() == fresh(EndTurnButton(8, "r3.89abcdef"), MapButton(8))
    assert no_map.to_components() == fresh(EndTurnButton(8, "r3.89abcdef"))
    assert [(getattr(b, "encounter_id", None), getattr(b, "turn", None)) for b in aimed.children] == [(8, "r3.89abcdef"), (8, None)]
    assert all(v.is_finished() and v.timeout is None for v in (again, aimed, no_map))
    for view in (again, other, aimed, alone, no_map):
        release(view=view)


async def test_end_turn_is_init_next_for_the_owner(h: Harness) -> None:
    """Bob's End turn ends Borin's turn as /init next does: logged, a new turn message for Grak, the board updated."""
    await fight(h)
    sent = await h.press("bob", "End turn")
    assert not sent[0].ephemeral and "Borin: init next" in sent[0].text
    assert "On deck: Thrain." in turn_message(sent).content
    assert any(s.kind == "channel_edit" and "Grak to act" in s.text for s in sent)
    assert await current(h) == "Grak"
    log = await h.run("gm", "/log", count=1)
    assert "/init next" in log[0].text


async def test_end_turn_refuses_anyone_else_and_changes_nothing(h: Harness) -> None:
    """Tess may not end Borin's turn: she is told why, only she sees it, and the turn stays."""
    await fight(h)
    text = refusal(await h.press("tess", "End turn"))
    assert "Borin is not yours" in text
    assert await current(h) == "Borin"


async def test_the_gm_may_end_anyones_turn(h: Harness) -> None:
    """The GM's End turn ends Borin's turn."""
    await fight(h)
    await h.press("gm", "End turn")
    assert await current(h) == "Grak"


async def test_a_stale_end_turn_says_the_turn_has_passed(h: Harness) -> None:
    """Borin's old End turn, pressed after his turn passed, says so and ends nobody's turn."""
    old = buttons_of(turn_message(await fight(h)))[0]["custom_id"]
    await h.press("bob", "End turn")
    text = refusal(await h.press("gm", old))
    assert "This turn has passed" in text and "Grak" in text
    assert await current(h) == "Grak"


async def test_buttons_work_after_a_restart(h: Harness) -> None:
    """A new process answers the End turn posted by the old one."""
    await fight(h)
    h2 = await h.restart()
    try:
        sent = await h2.press("bob", "End turn")
        assert not sent[0].ephemeral and "Borin: init next" in sent[0].text
        assert await current(h2) == "Grak"
    finally:
        await h2.close()


async def test_a_press_delivered_twice_is_applied_once(h: Harness) -> None:
    """The same button interaction delivered twice ends one turn."""
    await fight(h)
    payload = h.press_payload("gm", "End turn")
    await h.deliver_press(payload)
    sent = await h.deliver_press(payload)
    assert "already applied" in refusal(sent)
    assert await current(h) == "Grak"


async def test_map_shows_the_map_to_the_presser_only(h: Harness) -> None:
    """Map replies with map.png that only the presser sees."""
    await fight(h)
    sent = await h.press("tess", "Map")
    [reply] = [s for s in sent if s.files]
    assert reply.ephemeral and reply.to_user == str(user_id_of("tess"))
    assert reply.files[0][0] == "map.png" and reply.files[0][1][:4] == b"\x89PNG"


async def test_board_carries_the_gms_undo(h: Harness) -> None:
    """The board's Undo refuses a player, and undoes the last action for the GM."""
    await fight(h)
    await h.press("bob", "End turn")
    board = h.button("Undo")[0]
    assert board.kind in ("channel", "channel_edit") and "Ford" in board.text
    assert "Only the GM" in refusal(await h.press("bob", "Undo"))
    assert await current(h) == "Grak"
    sent = await h.press("gm", "Undo")
    assert "Undone" in sent[0].text and not sent[0].ephemeral
    assert await current(h) == "Borin"


async def test_buttons_of_an_ended_fight_do_nothing(h: Harness) -> None:
    """After the end, the old fight's End turn and Undo say it has ended."""
    await fight(h)
    await h.run("gm", "/encounter end", confirm="true")
    assert "has ended" in refusal(await h.press("gm", "End turn"))
    assert "has ended" in refusal(await h.press("gm", "Undo"))


async def test_end_asks_and_only_the_author_may_answer(h: Harness) -> None:
    """/encounter end asks the GM; another user's Confirm is refused; Cancel keeps the fight; Confirm ends it."""
    await fight(h)
    sent = await h.run("gm", "/encounter end")
    assert sent[0].ephemeral and "End the encounter?" in sent[0].text
    assert [b["label"] for b in buttons_of(sent[0])] == ["Confirm", "Cancel"]
    assert "who ran the command" in refusal(await h.press("bob", "Confirm"))
    sent = await h.press("gm", "Cancel")
    assert sent[0].kind == "edit" and "Nothing was changed" in sent[0].text and buttons_of(sent[0]) == []
    assert await current(h) == "Borin"
    await h.run("gm", "/encounter end")
    sent = await h.press("gm", "Confirm")
    assert sent[0].kind == "edit" and "Confirmed" in sent[0].text and buttons_of(sent[0]) == []
    assert not sent[1].ephemeral and "Ford has ended" in sent[1].text
    assert await h.bot.service.encounter(sent[1].channel) is None


async def test_a_question_expires(h: Harness) -> None:
    """A Confirm pressed after the question expired changes nothing."""
    await fight(h)
    await h.run("gm", "/encounter end")
    h.bot.service.clock.now += QUESTION_SECONDS + 1
    assert "expired" in refusal(await h.press("gm", "Confirm"))
    assert await current(h) == "Borin"


async def test_end_of_a_won_fight_and_confirm_true_ask_nothing(h: Harness) -> None:
    """`confirm:true` ends at once; a player's end is refused before any question."""
    await fight(h)
    assert "Only the GM" in refusal(await h.run("bob", "/encounter end"))
    sent = await h.run("gm", "/encounter end", confirm="true")
    assert not sent[0].ephemeral and "has ended" in sent[0].text


async def test_import_replace_asks_first(h: Harness, tmp_path: Path) -> None:
    """An import with replace:true over a fight asks; Cancel keeps the fight, a bad file is refused at once."""
    await fight(h)
    exported = await h.run("gm", "/encounter export")
    data = json.loads(exported[0].files[0][1])
    data["name"] = "Other ford"
    path = tmp_path / "e.json"
    path.write_text(json.dumps(data))
    sent = await h.run("gm", "/encounter import", file=str(path), replace="true")
    assert [s.kind for s in sent if not s.ephemeral] == [] and "Replace the encounter?" in sent[-1].text
    await h.press("gm", "Cancel")
    enc = await h.bot.service.encounter(sent[-1].channel)
    assert enc is not None and enc.name == "Ford"
    path.write_text("{}")
    assert refusal([s for s in await h.run("gm", "/encounter import", file=str(path), replace="true") if s.kind != "delete"])


async def test_a_spent_turn_ends_by_itself_and_one_undo_takes_both_back(h: Harness) -> None:
    """Borin moves and attacks: his turn ends with the attack, Grak is pinged; one /undo restores Borin's turn."""
    await fight(h)
    await h.run("bob", "/move", to="E3")
    before = (await h.run("gm", "/encounter export"))[0].files[0][1]
    sent = await h.run("bob", "/attack", target="Grak", roll="15,3")
    assert "nothing left to do" in sent[0].text
    assert turn_message(sent).pinged_users() == [str(user_id_of("gm"))]
    log = (await h.run("gm", "/log", count=1))[0].text
    assert "/attack" in log and "nothing left to do" in log
    assert await current(h) == "Grak"
    await h.run("gm", "/undo")
    assert (await h.run("gm", "/encounter export"))[0].files[0][1] == before
    assert await current(h) == "Borin"


async def test_end_turn_of_a_side_with_several_minis_says_how_to_choose(h: Harness) -> None:
    """Coup-De-Grace: with two of bob's minis free to activate, End turn says to name one; once Borin acts, it ends his activation."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Kell", map="8x6")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", side="dwarves", at="B3", facing="E", sheet="class=heavy weapons=hammer")
    await h.run("gm", "/combatant add", name="Thrain", owner="@bob", side="dwarves", at="B5", facing="E", sheet="class=light weapons=axe")
    await h.run("gm", "/combatant add", name="Grak", side="orcs", at="F3", facing="W", sheet="class=light weapons=axe")
    assert "On deck: Grak." in turn_message(await h.run("gm", "/init roll")).content
    assert "/init next combatant:NAME" in refusal(await h.press("bob", "End turn"))
    await h.run("bob", "/move", combatant="Borin", to="C3")
    sent = await h.press("bob", "End turn")
    assert "Borin's activation ends" in sent[0].text and not sent[0].ephemeral


async def test_no_map_no_map_button(h: Harness) -> None:
    """TOTE has no map: its turn message carries End turn only."""
    await h.run("gm", "/encounter start", system="tote", name="Ford")
    await h.run("gm", "/combatant add", name="Borin", owner="@bob", sheet="hawk=2")
    await h.run("gm", "/combatant add", name="Grak", sheet="rating=1")
    message = turn_message(await h.run("gm", "/init roll"))
    assert [b["label"] for b in buttons_of(message)] == ["End turn"]


async def test_every_press_reply_pings_only_whom_a_turn_change_must(h: Harness) -> None:
    """Across presses of every button, mentions stay disabled except the turn message's one ping, and custom ids fit."""
    await fight(h)
    start = len(h.recorder.sent)
    for who, label in (("tess", "End turn"), ("bob", "Map"), ("bob", "End turn"), ("gm", "Undo"), ("bob", "Undo")):
        await h.press(who, label)
    await h.run("gm", "/encounter end")
    await h.press("gm", "Confirm")
    sent = h.recorder.sent[start:]
    assert sent and all(not s.pings_everyone() for s in sent)
    pinging = [s for s in sent if s.pinged_users()]
    assert pinging and all("your turn" in s.content for s in pinging)
    assert all(len(b["custom_id"]) <= 100 and len(b["label"]) <= 80 for s in sent for b in buttons_of(s))


async def test_finished_commands_and_presses_leave_no_cycles_for_the_collector(h: Harness) -> None:
    """A finished command or button press, and a turn message's buttons once sent, are freed at
    once: none is left in a reference cycle for the garbage collector (whose pauses stall every
    channel) to find."""
    import gc

    await fight(h)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        await h.run("bob", "/encounter status")
        await h.run("bob", "/move", to="C3")
        await h.press("bob", "End turn")  # a press, and a new turn message with its buttons
        await h.run("gm", "/init next", confirm="true")
        gc.collect()
        kinds = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not kinds & {"Interaction", "InteractionResponse", "Namespace", "View", "Button", "EndTurnButton"}, kinds
