"""Discord-neutral text: the `Report` a command answers with (title, lines, fields, colour), user
references, and the small wording helpers every presenter uses (`plural`, `signed`, `joined`).
`rules.report` makes a system's reports from these."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.hidden import for_reader, secret

__all__ = [
    "Report", "user_ref", "render_users", "die_text", "TYPED", "signed", "plural", "possessive", "article", "COLOURS", "joined",
]

COLOURS = {
    "info": 0x5865F2,
    "hit": 0xED4245,
    "miss": 0x99AAB5,
    "good": 0x57F287,
    "turn": 0xFEE75C,
    "error": 0xED4245,
}


#: a user named in report text: ``{user:<id>}``. Text for players never holds a platform's
#: mention syntax; the front end renders each reference its own way (`bot.render.discord_text`
#: as a Discord mention that pings nobody, the console as ``@name``).
USER_REF = re.compile(r"\{user:([0-9]{1,20})\}")


def user_ref(user_id: str) -> str:
    """The reference to the user ``user_id`` in report text (``{user:123}``)."""
    return f"{{user:{user_id}}}"


def render_users(text: str, show: Callable[[str], str]) -> str:
    """``text`` with every user reference replaced by ``show(user_id)``."""
    return USER_REF.sub(lambda m: show(m.group(1)), text) if "{user:" in text else text


@dataclass
class Report:
    title: str
    lines: list[str] = field(default_factory=list)
    fields: list[tuple[str, str]] = field(default_factory=list)
    colour: int = COLOURS["info"]
    footer: str | None = None
    #: where a reader finds the lines a message had no room for (after "… and N more lines")
    more: str = ""
    #: every line is shown: the lines one message has no room for go on in more embeds and messages
    #: (a list the docs promise whole, such as `/encounter settings`), instead of "… and N more lines"
    whole: bool = False

    def for_reader(self, shown: Callable[[str], bool]) -> "Report":
        """This report as one reader sees it: each marked part (`rules.hidden.mark`) in the GM's
        version where ``shown`` is true of every name it hides, else in the public version."""
        return Report(
            title=for_reader(self.title, shown),
            lines=[for_reader(line, shown) for line in self.lines],
            fields=[(for_reader(n, shown), for_reader(v, shown)) for n, v in self.fields],
            colour=self.colour,
            footer=for_reader(self.footer, shown) if self.footer else self.footer,
            more=self.more,
            whole=self.whole,
        )

    def text(self) -> str:
        parts = [self.title, *self.lines]
        for name, value in self.fields:
            parts.append(f"{name}: {value}")
        if self.footer:
            parts.append(self.footer)
        return "\n".join(parts)


def joined(items: Sequence[str], limit: int, more: str = "", sep: str = "; ") -> str:
    """``items`` joined by ``sep``, whole, within about ``limit`` characters; those left out
    counted at the end (``… and 3 more`` and ``more``)."""
    text = sep.join(items)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for item in items:
        if len(sep.join([*kept, item])) > limit - 40 - len(more):
            break
        kept.append(item)
    rest = f"… and {len(items) - len(kept)} more" + (f" {more}" if more else "")
    return sep.join(kept) + (" " if kept else "") + rest


def listing(items: Sequence[str]) -> str:
    """``Grak``, ``Grak and Ugluk``, ``Grak, Snaga and Ugluk``."""
    return items[0] if len(items) < 2 else f"{', '.join(items[:-1])} and {items[-1]}"


def signed(n: int) -> str:
    if secret(n):
        return "±?"
    return f"+{n}" if n >= 0 else f"−{abs(n)}"


def plural(n: float, word: str, many: str | None = None) -> str:
    """``1 square``, ``2 squares``, ``3 successes`` (``many``: the plural where it is not ``word + "s"``)."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {word if n == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """``a`` or ``an``, by the first letter of ``word``: ``a wall``, ``an obstacle``, ``an encounter's name``."""
    return "an" if word[:1].lower() in tuple("aeiou") else "a"


def possessive(name: str) -> str:
    """``Grak's``, ``orcs'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


#: follows a die result that the caller typed with `roll:`; a result the bot rolled stands bare
TYPED = "✍"


def die_text(value: int, typed: bool) -> str:
    return f"{value}{TYPED}" if typed else str(value)
