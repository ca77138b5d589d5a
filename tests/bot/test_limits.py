"""The one check before sending: every documented limit of Discord's, on what the bot would send."""
from __future__ import annotations

import io

import discord
import pytest

from bot.limits import LIMITS, OverLimit, checked, choice_problems, problems
from bot.render import NO_MENTIONS


def embed(**parts: object) -> dict:
    return {"title": "t", "description": "d", **parts}


BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "skirmish:x"}

OVER = [
    ("content", {"content": "x" * 2001}),
    ("embeds", {"embeds": [embed()] * 11}),
    ("title", {"embeds": [embed(title="x" * 257)]}),
    ("description", {"embeds": [embed(description="x" * 4097)]}),
    ("fields", {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]}),
    ("field name", {"embeds": [embed(fields=[{"name": "x" * 257, "value": "v"}])]}),
    ("field value", {"embeds": [embed(fields=[{"name": "n", "value": "x" * 1025}])]}),
    ("empty field value", {"embeds": [embed(fields=[{"name": "n", "value": ""}])]}),
    ("footer", {"embeds": [embed(footer={"text": "x" * 2049})]}),
    ("author", {"embeds": [embed(author={"name": "x" * 257})]}),
    ("6,000 in all", {"embeds": [embed(description="x" * 4000), embed(description="x" * 2000)]}),
    ("rows", {"components": [{"type": 1, "components": [BUTTON]}] * 6}),
    ("buttons in a row", {"components": [{"type": 1, "components": [BUTTON] * 6}]}),
    ("custom_id", {"components": [{"type": 1, "components": [{**BUTTON, "custom_id": "x" * 101}]}]}),
    ("empty custom_id", {"components": [{"type": 1, "components": [{**BUTTON, "custom_id": ""}]}]}),
    ("label", {"components": [{"type": 1, "components": [{**BUTTON, "label": "x" * 81}]}]}),
    ("users", {"allowed_mentions": {"parse": [], "users": [str(i) for i in range(101)]}}),
    ("parse and users", {"allowed_mentions": {"parse": ["users"], "users": ["1"]}}),
]


@pytest.mark.parametrize("what,payload", OVER, ids=[w for w, _ in OVER])
def test_each_limit_is_found(what: str, payload: dict) -> None:
    """Each documented limit, one past it, is named as a problem; one short of it is not."""
    assert problems(payload), what


def test_payloads_at_the_limits_pass() -> None:
    """A message exactly at every limit is taken."""
    at = {
        "content": "x" * 2000,
        "embeds": [embed(title="x" * 256, description="x" * 4096, footer={"text": "x" * 998},
                         fields=[{"name": "n", "value": "v" * 25}] * 25)],
        "components": [{"type": 1, "components": [{**BUTTON, "custom_id": "x" * 100, "label": "x" * 80}] * 5}] * 5,
        "allowed_mentions": {"parse": [], "users": [str(i) for i in range(100)]},
    }
    assert problems(at) == []


def test_uploads_and_choices() -> None:
    """Files: 10 at most and 10 MiB together; autocomplete: 25 choices with 1-100 character names."""
    assert problems({}, [LIMITS["upload_bytes"]]) == []
    assert problems({}, [LIMITS["upload_bytes"] // 2 + 1] * 2)
    assert problems({}, [1] * 11)
    assert choice_problems([{"name": "a", "value": "a"}] * 25) == []
    assert choice_problems([{"name": "a", "value": "a"}] * 26)
    assert choice_problems([{"name": "", "value": "a"}])
    assert choice_problems([{"name": "x" * 101, "value": "a"}])


def test_checked_reads_discord_objects_as_they_go_out() -> None:
    """`checked` passes a message Discord takes unchanged and refuses one it would not, saying why."""
    ok = {"embed": discord.Embed(title="Board", description="x" * 4096), "allowed_mentions": NO_MENTIONS}
    assert checked(**ok) == ok
    with pytest.raises(OverLimit, match="title of 257"):
        checked(embed=discord.Embed(title="x" * 257), allowed_mentions=NO_MENTIONS)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x" * 81, custom_id="skirmish:long"))
    with pytest.raises(OverLimit, match="label"):
        checked(content="hi", view=view)
    big = discord.File(io.BytesIO(b"\0" * (LIMITS["upload_bytes"] + 1)), filename="map.png")
    with pytest.raises(OverLimit, match="bytes"):
        checked(file=big)


def test_checked_reads_every_part_of_an_embed_as_to_dict_gives_it() -> None:
    """`checked` finds in an embed's fields, footer and author what `problems` finds in its `to_dict()`."""
    embeds = []
    for name, value, footer, author in (("n" * 257, "v", "f", "a"), ("n", "", "f", "a"), ("n", "v" * 1025, "f", "a"),
                                        ("n", "v", "f" * 2049, "a"), ("n", "v", "f", "a" * 257), ("n", "v" * 1024, "f" * 2048, "a")):
        embed = discord.Embed(title="t" * 256, description="d" * 2700).add_field(name=name, value=value)
        embeds.append(embed.set_footer(text=footer).set_author(name=author))
    for embed in embeds:
        found = problems({"embeds": [embed.to_dict()]})
        assert found
        with pytest.raises(OverLimit) as refused:
            checked(embed=embed)
        assert refused.value.problems == found
    fine = discord.Embed(title="t", description="d").add_field(name="n", value="v").set_footer(text="f").set_author(name="a")
    assert checked(embeds=[fine] * 10) == {"embeds": [fine] * 10}


def _fields(n: int, value: str = "v") -> discord.Embed:
    embed = discord.Embed(title="t")
    for _ in range(n):
        embed.add_field(name="n", value=value)
    return embed


def _buttons(label: str = "Go", custom_id: str = "skirmish:x", end_turn: str = "r1.0a") -> discord.ui.View:
    """A view of the bot's buttons (`bot.tree.SentView`, which `checked` reads at a look): a plain button and the End turn button (a dynamic item) of the turn ``end_turn``."""
    from bot.tree import SentView
    from cogs.buttons import EndTurnButton

    view = SentView(timeout=None)
    view.add_item(discord.ui.Button(label=label, custom_id=custom_id))
    view.add_item(EndTurnButton(1, end_turn))
    return view


#: (what, a message one past a limit, the same message at it), as the bot hands them to `checked`
AT_AND_PAST = [
    ("content", {"content": "x" * 2001}, {"content": "x" * 2000}),
    ("embeds", {"embeds": [discord.Embed(title="t")] * 11}, {"embeds": [discord.Embed(title="t")] * 10}),
    ("title", {"embed": discord.Embed(title="x" * 257)}, {"embed": discord.Embed(title="x" * 256)}),
    ("description", {"embed": discord.Embed(description="x" * 4097)}, {"embed": discord.Embed(description="x" * 4096)}),
    ("fields", {"embed": _fields(26)}, {"embed": _fields(25)}),
    ("6,000 in all", {"embeds": [discord.Embed(description="x" * 4000), discord.Embed(description="x" * 2001)]},
     {"embeds": [discord.Embed(description="x" * 4000), discord.Embed(description="x" * 2000)]}),
    ("fields in all", {"embed": _fields(6, "v" * 1000)}, {"embed": _fields(5, "v" * 1000)}),
    ("users", {"allowed_mentions": discord.AllowedMentions(users=[discord.Object(i + 1) for i in range(101)])},
     {"allowed_mentions": discord.AllowedMentions(users=[discord.Object(i + 1) for i in range(100)])}),
    ("a button's label", {"content": "hi", "view": _buttons(label="x" * 81)}, {"content": "hi", "view": _buttons(label="x" * 80)}),
    ("a button's custom id", {"view": _buttons(custom_id="x" * 101)}, {"view": _buttons(custom_id="x" * 100)}),
    ("a dynamic item's custom id", {"view": _buttons(end_turn="r1." + "a" * 83)}, {"view": _buttons(end_turn="r1." + "a" * 82)}),
    ("content beside buttons", {"content": "x" * 2001, "view": _buttons()}, {"content": "x" * 2000, "view": _buttons()}),
]


@pytest.mark.parametrize("what,past,at", AT_AND_PAST, ids=[w for w, _, _ in AT_AND_PAST])
def test_checked_at_a_look_passes_only_what_problems_would(what: str, past: dict, at: dict) -> None:
    """A message without files (without a view, or with a few buttons), passed at a look at its sizes, is refused one past each limit (as `problems` words it) and taken at it."""
    with pytest.raises(OverLimit) as refused:
        checked(**past, allowed_mentions=NO_MENTIONS) if "allowed_mentions" not in past else checked(**past)
    assert refused.value.problems
    assert checked(**at) == at
