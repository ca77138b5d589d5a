"""Nothing is cut silently: `/log` pages (a `page:` option and ◀ ▶ buttons), long lists keep
whole lines and say how many they left out, the end summary keeps its counts and hints."""
from __future__ import annotations

import json
import re
from pathlib import Path

from bot.limits import LIMITS
from bot.offline.harness import Harness, Sent, buttons_of
from rules.registry import get_system
from tests.cogs.fights import BORIN, GRAK, export, setup_fight


def ids(text: str) -> list[int]:
    """The log rows a reply shows, by their number."""
    return [int(n) for n in re.findall(r"`#(\d+)`", text)]


async def long_log(h: Harness, entries: int) -> None:
    """A fight whose log has ``entries`` rows, #1 to #N (two adds, then GM edits)."""
    await setup_fight(h)
    for i in range(entries - 2):
        await h.run("gm", "/combatant edit", name="Grak", sheet=f"hp={10 + i % 5}")


async def test_log_pages_by_option_and_buttons(h: Harness) -> None:
    """`/log page:` shows the older pages; ◀ Older and Newer ▶ move the same message between pages."""
    await long_log(h, 23)
    first = (await h.run("bob", "/log", count=10))[0]
    assert ids(first.text) == list(range(14, 24)) and "Page 1 of 3" in first.text
    assert [b["label"] for b in buttons_of(first)] == ["◀ Older"]
    third = (await h.run("bob", "/log", count=10, page=3))[0]
    assert ids(third.text) == [1, 2, 3] and "Page 3 of 3" in third.text
    assert [b["label"] for b in buttons_of(third)] == ["Newer ▶"]
    refused = (await h.run("bob", "/log", count=10, page=4))[0]
    assert refused.ephemeral and "from 1 to 3" in refused.text

    pressed = await h.press("bob", "◀ Older")  # on the latest message carrying it: page 1
    assert [s.kind for s in pressed] == ["edit"] and pressed[0].message_id == first.message_id
    assert ids(pressed[0].text) == list(range(4, 14)) and "Page 2 of 3" in pressed[0].text
    assert [b["label"] for b in buttons_of(pressed[0])] == ["◀ Older", "Newer ▶"]
    back = await h.press("bob", "Newer ▶")
    assert back[0].message_id == first.message_id and ids(back[0].text) == list(range(14, 24))


async def test_log_page_buttons_survive_a_restart(h: Harness) -> None:
    """The page buttons are persistent: after a restart the ◀ of an old reply still pages."""
    await long_log(h, 12)
    await h.run("bob", "/log", count=5, public="true")
    h2 = await h.restart()
    try:
        pressed = await h2.press("carol", "◀ Older")
        assert ids(pressed[0].text) == [3, 4, 5, 6, 7] and not pressed[0].ephemeral
    finally:
        await h2.close()
        h.store = h2.store


async def test_a_log_too_long_for_one_message_says_what_it_left_out(h: Harness) -> None:
    """25 long entries do not fit one embed: whole lines are kept and the rest is counted, with the way to see them."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Melee", map="30x30")
    await h.run("gm", "/encounter settings", options="hidden=none")  # players read the whole sheets in the log
    for i in range(25):
        await h.run("gm", "/combatant add", name=f"{'Longname' * 4} {i}", sheet=GRAK, side="orcs" + "s" * 30, at=f"A{1 + i}")
    text = (await h.run("bob", "/log", count=25))[0].text
    shown = ids(text)
    assert 0 < len(shown) < 25
    left = re.search(r"… and (\d+) more lines \(a smaller `count:` shows them\)", text)
    assert left and len(shown) + int(left.group(1)) == 25


async def test_a_log_entry_longer_than_a_message_says_what_it_left_out(h: Harness) -> None:
    """docs/commands.md: "**Nothing is cut silently.** A reply longer than a Discord message holds keeps whole
    lines and ends with `… and 12 more lines`; `/log` says so with the way to see them". One entry longer than a
    message (`/init roll` of 100 combatants) is not cut in a name's middle even at `count:1`: it keeps whole parts
    from its start and its end (who acts first, and the round's order where it fits), and counts the parts
    between them, naming where to look."""
    await h.run("gm", "/encounter start", system="open", name="Horde", map="40x40")
    for letter, column in zip("ABCDE", "ABCDE"):
        await h.run("gm", "/combatant add", name=f"Goblin Warrior {letter}", count="20", side=f"side{letter}",
                    at=f"{column}1:{column}20", sheet="hp=7")
    rolled = (await h.run("gm", "/init roll"))[0].text
    # the reply itself, cut to whole lines, says where to see where things stand
    assert re.search(r"… and \d+ more lines \(`/init order` and `/encounter status` show where things stand now\)$", rolled), rolled[-200:]
    first = (await h.run("bob", "/init order"))[0].text.split("\n")[1]
    acting = re.search(r"\*\*(Goblin Warrior [A-E] \d+)\*\*", first)
    assert acting, first
    for user, fact in (("bob", r"\*\*Goblin Warrior [A-E] \d+\*\* has its initiative \(the GM keeps the number\)"),
                       ("gm", r"\*\*Goblin Warrior [A-E] \d+\*\* initiative \*\*\d+\*\* \(🎲 \d+ \(1d20\+0\) = \*\*\d+\*\*\)")):
        text = (await h.run(user, "/log", count=1))[0].text
        row = next(line for line in text.split("\n") if line.startswith("`#6`"))
        parts = row.split(": ", 1)[1].split(" · ")
        noted = next(i for i, part in enumerate(parts) if " … and " in part)
        left = re.fullmatch(rf"({fact}) … and (\d+) more \(this entry is longer than a message holds: `/init order` and "
                            r"`/encounter status` show where things stand now\)", parts[noted])
        assert left, parts[noted]
        order = [part for part in parts if part.startswith("**Round 1** begins: order ")]
        assert all(part.count(", ") == 99 for part in order), order  # the round's order whole, or left out and counted
        rolls = [part for part in parts if part not in order]
        assert all(re.fullmatch(fact, part) for part in rolls[:noted] + rolls[noted + 1:-1]), user
        assert len(rolls) - 1 + len(order) + int(left.group(2)) == 101, user  # every roll and the order shown or counted
        assert parts[-1].startswith(f"**{acting.group(1)}** to act"), parts[-1]
        assert order or user == "gm", user  # the players' order is short enough to be shown (the GM's lists tie rolls)


async def test_board_of_many_sides_lists_each_and_counts_the_rest(h: Harness) -> None:
    """100 combatants in 30 sides: every shown side keeps whole lines with "and N more", the others are named."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Melee", map="40x40")
    for i in range(100):
        await h.run("gm", "/combatant add", name=f"Fighter {i}", sheet=BORIN if i % 2 else GRAK,
                    side=f"band {i % 30}", at=f"{chr(65 + i % 26)}{1 + i // 26}")
    board = [s for s in h.recorder.sent if s.kind in ("channel", "channel_edit")][-1]
    fields = board.embeds[0]["fields"]
    assert len(fields) == 25 and fields[-1]["name"].startswith("… and ")
    hidden = int(fields[-1]["name"].split()[2])
    assert len(fields) - 1 + hidden == 30
    assert all(not line.endswith("…") or line.startswith("… and") for f in fields for line in f["value"].split("\n"))
    status = (await h.run("gm", "/encounter status"))[0]
    assert status.embeds[0]["fields"][-1]["name"] == fields[-1]["name"]


async def test_long_order_and_end_summary_keep_whole_lines_and_counts(h: Harness, tmp_path: Path) -> None:
    """/init order never cuts a line and counts the rest; the end summary keeps its counts and hint with 30 sides fallen."""
    await h.run("gm", "/encounter start", system="coup-de-grace", name="Melee", map="40x40")
    names = [f"Fighter {i} of the long and winding name"[:40] for i in range(100)]
    for i, name in enumerate(names):
        await h.run("gm", "/combatant add", name=name, sheet=GRAK, side=f"band {i % 30}", at=f"{chr(65 + i % 26)}{1 + i // 26}")
    await h.run("gm", "/init roll")
    order = (await h.run("bob", "/init order"))[0].embeds[0]["description"].split("\n")
    assert re.fullmatch(r"… and \d+ more lines", order[-1])
    assert all(line.endswith(("name", "long and winding")) for line in order[1:-1])
    data = await export(h)
    for c in data["combatants"]:
        c.update(status="out", hp=0, facing=None)
    path = tmp_path / "fallen.json"
    path.write_text(json.dumps(data))
    await h.run("gm", "/encounter import", file=str(path), replace="true", confirm="true")
    summary = next(s for s in await h.run("gm", "/encounter end", confirm="true") if "Rounds played" in s.text).text
    assert "Actions logged" in summary and "`/log` and `/encounter export`" in summary
    assert re.search(r"… and \d+ more", summary)


def replies(sent: list[Sent]) -> list[Sent]:
    """The messages that answered the caller (its reply and the follow-ups that go on with it)."""
    return [s for s in sent if s.kind in ("response", "followup")]


async def test_settings_show_every_option_value_even_when_they_fill_more_than_a_message(h: Harness) -> None:
    """docs/commands.md: "The reply lists every option with its value" and "**Nothing is cut silently.**": War &
    Combat's options fill more than an embed holds, and every one of them is shown with its value, to the GM who
    changed one and to a player, in embeds and messages within Discord's limits."""
    await h.run("gm", "/encounter start", system="war-and-combat", map="16x12 hex")
    changed = replies(await h.run("gm", "/encounter settings", options="initiative_open=yes"))
    shown = replies(await h.run("bob", "/encounter settings"))
    keys = list(get_system("war-and-combat").options_help)
    for sent in (changed, shown):
        text = "\n".join(s.text for s in sent)
        assert len(text) > LIMITS["description"] and "more line" not in text
        assert "`initiative_open` = **yes**" in text
        assert all(f"`{key}` = **" in text or f"`{key}` (default)" in text for key in keys), text
        assert text.count("⚙️ Encounter settings") == 1 and "GMs: " in text
    assert all(s.ephemeral for s in shown)


async def test_effect_list_shows_every_effect_the_board_counts(h: Harness) -> None:
    """docs/commands.md: "The effects on the board end with `… and N more (/effect list shows all)`": with 100 long
    effects /effect list shows every one of them, whole, in order, over as many embeds and messages as they need;
    the board's effects line ends with "… and N more"."""
    await setup_fight(h)
    names = [f"Blessing of the long road number {i}" for i in range(100)]
    for i, name in enumerate(names):
        await h.run("gm", "/effect add", name=name, target="Grak", rounds=3 + i, ends="start of Borin's turn")
    for who in ("gm", "bob"):
        sent = replies(await h.run(who, "/effect list"))
        listed = [line for s in sent for e in s.embeds for line in (e.get("description") or "").split("\n")]
        assert [line.split(" on ")[0] for line in listed] == names, who
        assert all(line.endswith(")") for line in listed) and all(s.ephemeral for s in sent)
        assert len(sent) > 1 and sent[0].text.startswith("Effects · Bridge"), who  # one message could not hold them
    board = [s for s in h.recorder.sent if s.kind.startswith("channel")][-1].text
    assert re.search(r"✨ Effects: .*\) … and \d+ more \(`/effect list` shows all\)", board)
