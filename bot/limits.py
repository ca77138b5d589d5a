"""Discord's documented limits on what a message may carry, checked in one place.

`problems` reads a message as it goes over the wire (the JSON payload discord.py builds, and
the sizes of its files) and names everything Discord would refuse with an HTTP 400 ("Invalid
Form Body"); `choice_problems` does the same for an autocomplete answer. The bot checks each
message with `checked` before sending it, and the offline harness answers every payload it
receives as Discord would, through the same reading.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # only named in types: the service reads the limits without loading discord.py
    import discord

__all__ = ["LIMITS", "MAX_MESSAGE", "OverLimit", "problems", "choice_problems", "checked", "file_sizes"]

#: the limits of discord-api-docs (messages, embeds, components, interactions, uploads)
LIMITS: dict[str, int] = {
    "content": 2000,
    "embeds": 10,
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field_name": 256,
    "field_value": 1024,
    "footer": 2048,
    "author": 256,
    "total": 6000,  # every embed's title, description, field names and values, footer and author
    "rows": 5,
    "row_items": 5,
    "custom_id": 100,
    "label": 80,
    "select_options": 25,
    "placeholder": 150,
    "choices": 25,
    "choice": 100,
    "mentions": 100,  # users, and roles, named in allowed_mentions
    "files": 10,
    "upload_bytes": 10 * 1024 * 1024,  # all the files of one message together
}
#: the characters of a message's content (a turn ping, a nudge)
MAX_MESSAGE = LIMITS["content"]


class OverLimit(ValueError):
    """A message Discord would refuse; it is not sent (a fault of the bot, logged as one)."""

    def __init__(self, found: list[str]) -> None:
        super().__init__("over Discord's limits: " + "; ".join(found))
        self.problems = found


def _too_long(what: str, text: str, limit: int, *, empty: bool = True) -> list[str]:
    if len(text) > limit:
        return [f"{what} of {len(text)} characters (at most {limit})"]
    if not empty and not text:
        return [f"{what} is empty"]
    return []


_TITLE, _DESCRIPTION, _FOOTER, _AUTHOR = LIMITS["title"], LIMITS["description"], LIMITS["footer"], LIMITS["author"]
_FIELDS, _FIELD_NAME, _FIELD_VALUE = LIMITS["fields"], LIMITS["field_name"], LIMITS["field_value"]


def _embed_problems(embeds: Sequence[dict[str, Any]]) -> list[str]:
    found = [f"{len(embeds)} embeds (at most {LIMITS['embeds']})"] if len(embeds) > LIMITS["embeds"] else []
    total = 0
    for e in embeds:
        title, description = e.get("title") or "", e.get("description") or ""
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        fields = e.get("fields") or []
        if len(title) > _TITLE or len(description) > _DESCRIPTION or len(footer) > _FOOTER or len(author) > _AUTHOR:
            for key, text in (("title", title), ("description", description), ("footer", footer), ("author", author)):
                found += _too_long(f"an embed's {key}", text, LIMITS[key])
        if len(fields) > _FIELDS:
            found.append(f"{len(fields)} fields in an embed (at most {_FIELDS})")
        for f in fields:
            name, value = f.get("name") or "", f.get("value") or ""
            if not 0 < len(name) <= _FIELD_NAME or not 0 < len(value) <= _FIELD_VALUE:
                found += _too_long("a field's name", name, _FIELD_NAME, empty=False)
                found += _too_long("a field's value", value, _FIELD_VALUE, empty=False)
            total += len(name) + len(value)
        total += len(title) + len(description) + len(footer) + len(author)
    if total > LIMITS["total"]:
        found.append(f"embeds of {total} characters in all (at most {LIMITS['total']})")
    return found


def _component_problems(rows: Sequence[dict[str, Any]]) -> list[str]:
    found = [f"{len(rows)} rows of components (at most {LIMITS['rows']})"] if len(rows) > LIMITS["rows"] else []
    for row in rows:
        items = row.get("components") or []
        if not 1 <= len(items) <= LIMITS["row_items"]:
            found.append(f"a row of {len(items)} components (1 to {LIMITS['row_items']})")
        for item in items:
            if "custom_id" in item or item.get("style") != 5:  # a link button has a url instead
                found += _too_long("a custom_id", str(item.get("custom_id") or ""), LIMITS["custom_id"], empty=False)
            found += _too_long("a label", item.get("label") or "", LIMITS["label"])
            found += _too_long("a placeholder", item.get("placeholder") or "", LIMITS["placeholder"])
            if len(item.get("options") or []) > LIMITS["select_options"]:
                found.append(f"a menu of {len(item['options'])} options (at most {LIMITS['select_options']})")
    return found


def _mention_problems(am: dict[str, Any] | None) -> list[str]:
    if am is None:
        return []
    found = []
    parse = am.get("parse") or []
    for kind in ("users", "roles"):
        named = am.get(kind) or []
        if len(named) > LIMITS["mentions"]:
            found.append(f"{len(named)} {kind} in allowed_mentions (at most {LIMITS['mentions']})")
        if named and kind in parse:
            found.append(f"allowed_mentions both parses and lists {kind}")
    return found


def problems(payload: dict[str, Any], file_sizes: Iterable[int] = ()) -> list[str]:
    """What in one message (its JSON payload and its files' sizes) Discord would refuse."""
    sizes = list(file_sizes)
    found = _too_long("content", payload.get("content") or "", LIMITS["content"])
    found += _embed_problems(payload.get("embeds") or [])
    found += _component_problems(payload.get("components") or [])
    found += _mention_problems(payload.get("allowed_mentions"))
    if len(sizes) > LIMITS["files"]:
        found.append(f"{len(sizes)} files (at most {LIMITS['files']})")
    if sum(sizes) > LIMITS["upload_bytes"]:
        found.append(f"files of {sum(sizes):,} bytes (at most {LIMITS['upload_bytes']:,})")
    return found


def choice_problems(choices: Sequence[dict[str, Any]]) -> list[str]:
    """What in an autocomplete answer Discord would refuse (it then shows "Loading options failed")."""
    found = [f"{len(choices)} choices (at most {LIMITS['choices']})"] if len(choices) > LIMITS["choices"] else []
    for c in choices:
        name, value = str(c.get("name") or ""), c.get("value")
        found += _too_long("a choice's name", name, LIMITS["choice"], empty=False)
        if isinstance(value, str):
            found += _too_long("a choice's value", value, LIMITS["choice"])
    return found


def file_sizes(files: Iterable[discord.File] | None) -> list[int]:
    """The size in bytes of each file, its read position left where it was."""
    sizes = []
    for f in files or ():
        pos = f.fp.tell()
        f.fp.seek(0, 2)
        sizes.append(f.fp.tell())
        f.fp.seek(pos)
    return sizes


def _embed_data(embed: discord.Embed) -> dict[str, Any]:
    """What `problems` reads of an embed, as its ``to_dict()`` gives it (its title, description,
    fields, footer and author), without the rest of that dict."""
    return {"title": embed.title, "description": embed.description, "fields": getattr(embed, "_fields", None),
            "footer": getattr(embed, "_footer", None), "author": getattr(embed, "_author", None)}


_CONTENT, _EMBEDS, _TOTAL, _MENTIONS = LIMITS["content"], LIMITS["embeds"], LIMITS["total"], LIMITS["mentions"]


def _within(content: str, embeds: Sequence[discord.Embed], mentions: discord.AllowedMentions | None) -> bool:
    """Whether a message of ``content``, ``embeds`` and ``mentions`` alone is within every limit
    `problems` checks of them, read where discord.py keeps them (no payload built, nothing
    worded); where it is not, `problems` reads the payload and words what Discord would refuse."""
    if len(content) > _CONTENT or len(embeds) > _EMBEDS:
        return False
    total = 0
    for e in embeds:
        title, description = e.title or "", e.description or ""
        footer, author = getattr(e, "_footer", None), getattr(e, "_author", None)
        footer_text = (footer.get("text") or "") if footer else ""
        author_name = (author.get("name") or "") if author else ""
        if len(title) > _TITLE or len(description) > _DESCRIPTION or len(footer_text) > _FOOTER or len(author_name) > _AUTHOR:
            return False
        fields = getattr(e, "_fields", None) or ()
        if len(fields) > _FIELDS:
            return False
        for f in fields:
            name, value = f.get("name") or "", f.get("value") or ""
            if not 0 < len(name) <= _FIELD_NAME or not 0 < len(value) <= _FIELD_VALUE:
                return False
            total += len(name) + len(value)
        total += len(title) + len(description) + len(footer_text) + len(author_name)
    if total > _TOTAL:
        return False
    if mentions is not None:  # users and roles are listed, or parsed or not (a flag), never both
        for named in (mentions.users, mentions.roles):
            if named is not False and isinstance(named, Sequence) and len(named) > _MENTIONS:
                return False
    return True


def _at_a_look(view: Any) -> bool:
    """Whether ``view`` finds its components within every limit `problems` checks of them, read
    where discord.py keeps them (a view of the bot's buttons: `bot.tree.SentView.within_limits`);
    any other view is left to `problems`."""
    look = getattr(view, "within_limits", None)
    return look is not None and look() is True


def checked(**kwargs: Any) -> dict[str, Any]:
    """The keyword arguments of a send or an edit (content, embed(s), view, file(s),
    allowed_mentions), unchanged when Discord would take them; `OverLimit` otherwise. A message
    without files, and without a view or with a view of the bot's buttons (`_at_a_look`), is
    passed at a look at its sizes (`_within`) where it fits."""
    embeds = kwargs.get("embeds") or ([kwargs["embed"]] if kwargs.get("embed") is not None else [])
    view = kwargs.get("view")
    if ((view is None or _at_a_look(view)) and kwargs.get("file") is None and not kwargs.get("files")
            and _within(str(kwargs.get("content") or ""), embeds, kwargs.get("allowed_mentions"))):
        return kwargs
    mentions = kwargs.get("allowed_mentions")
    payload: dict[str, Any] = {
        "content": str(kwargs.get("content") or ""),
        "embeds": [_embed_data(e) for e in embeds],
        "components": view.to_components() if view is not None else [],
        "allowed_mentions": mentions.to_dict() if mentions is not None else None,
    }
    files = kwargs.get("files") or ([kwargs["file"]] if kwargs.get("file") is not None else [])
    found = problems(payload, file_sizes(files))
    if found:
        raise OverLimit(found)
    return kwargs
