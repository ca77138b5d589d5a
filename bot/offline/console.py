"""The offline console: type slash commands as users, see what the bot would post.

Each line is ``@user [#channel] /command option:value option:"value with spaces"``.
``# text`` is a comment; blank lines are skipped. Buttons are printed under their message
(``[End turn] [Map]``); ``@user [#channel] !press "End turn"`` presses the button with that
label (or custom id) on the latest message in the channel that has it. Console-only lines
start with ``!``: ``!wait HOURS`` moves the clock on and sends due reminders (and
the status board edit of a deadline that moved the turn on);
``!delete-board [#channel]`` deletes the status board message (the bot posts it again on the
next change).
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import TextIO

from bot.offline.harness import (
    Harness,
    HarnessError,
    Sent,
    buttons_of,
    channel_id_of,
    user_id_of,
)
from data.store import StoreError

__all__ = ["main", "parse_line", "parse_press", "Console", "HELP"]

#: what the console accepts, said when a line is not understood
HELP = (
    'console lines: @user [#channel] /command name:value ..., @user [#channel] !press "Button label", '
    "!wait HOURS, !delete-board [#channel], # comment"
)


def _words(line: str) -> list[str]:
    """A line's words, split as a shell splits them at spaces and quotes, but every backslash
    kept as typed (Discord passes an option's text as it is)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split, lexer.escape, lexer.commenters = True, "", ""
    try:
        return list(lexer)
    except ValueError:
        raise HarnessError("unclosed quote") from None


def parse_line(line: str) -> tuple[str, str, str, dict[str, str]]:
    """``@alice #tavern /move to:D4`` -> ``("alice", "tavern", "/move", {"to": "D4"})``."""
    words = _words(line)
    if not words or not words[0].startswith("@") or len(words[0]) < 2:
        raise HarnessError("a line starts with the user who types it, like @alice /encounter status")
    user = words[0][1:]
    rest = words[1:]
    channel = "general"
    if rest and rest[0].startswith("#"):
        channel = rest[0][1:] or "general"
        rest = rest[1:]
    if not rest or not rest[0].startswith("/"):
        raise HarnessError('after the user comes a slash command, like /encounter status, or !press "End turn"')
    command_words = [rest[0].lstrip("/")]
    i = 1
    while i < len(rest) and ":" not in rest[i]:
        command_words.append(rest[i])
        i += 1
    options: dict[str, str] = {}
    for word in rest[i:]:
        if ":" not in word:
            raise HarnessError(f"{word!r}: options are written name:value")
        key, value = word.split(":", 1)
        options[key] = value
    return user, channel, "/" + " ".join(command_words), options


def parse_press(line: str) -> tuple[str, str, str] | None:
    """``@bob #tavern !press "End turn"`` -> ``("bob", "tavern", "End turn")``; None for other lines."""
    words = _words(line)
    if len(words) < 2 or not words[0].startswith("@") or len(words[0]) < 2:
        return None
    channel, rest = "general", words[1:]
    if rest[0].startswith("#"):
        channel, rest = rest[0][1:] or "general", rest[1:]
    if not rest or rest[0] != "!press":
        return None
    if len(rest) != 2:
        raise HarnessError('!press takes one button label in quotes, like @bob !press "End turn"')
    return words[0][1:], channel, rest[1]


class WallClock:
    """The real time, plus however many hours `!wait` has skipped."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


class Console:
    def __init__(self, harness: Harness, files: Path, out: TextIO, clock: WallClock | None = None) -> None:
        self.h = harness
        self.clock = clock or WallClock()
        self.files = files
        self.out = out
        self.names: dict[str, str] = {}
        self.channels: dict[str, str] = {}
        self._file_no = 0

    def _user(self, name: str) -> None:
        self.names[str(user_id_of(name))] = name

    def _seen(self, user: str, channel: str) -> None:
        self._user(user)
        self.channels[str(channel_id_of(channel))] = channel

    def render(self, sent: Sent) -> str:
        text = sent.text
        for uid, name in self.names.items():
            text = text.replace(f"<@{uid}>", f"@{name}").replace(f"<@!{uid}>", f"@{name}")
        for cid, channel in self.channels.items():  # a channel's mention, as Discord shows it
            text = text.replace(f"<#{cid}>", f"#{channel}")
        dm = self.h.recorder.dm_of.get(sent.channel)
        where = f"DM to @{self.names.get(dm, dm)}" if dm else self.channels.get(sent.channel, sent.channel)
        head = {
            "response": "reply", "followup": "message", "edit": "edited reply", "channel": "message",
            "channel_edit": "status board (edited)", "autocomplete": "suggestions",
        }[sent.kind]
        if sent.kind == "channel" and not dm and sent.embeds and sent.embeds[0].get("title", "").startswith("⚔️"):
            head = "status board (posted)"
        lines = [f"[{where}] {head}:" if dm else f"[#{where}] {head}:"]
        lines += ["  " + ln for ln in text.splitlines()]
        buttons = buttons_of(sent)
        if buttons:
            lines.append("  " + " ".join(f"[{b.get('label') or b.get('custom_id')}]" for b in buttons))
        pinged = [f"@{self.names.get(u, u)}" for u in sent.pinged_users()]
        if pinged:
            lines.append(f"  (pings {' '.join(pinged)})")
        if sent.ephemeral and sent.to_user:
            lines.append(f"  (only @{self.names.get(sent.to_user, sent.to_user)} can see this)")
        for name, data in sent.files:
            self._file_no += 1
            path = self.files / (name if self._file_no == 1 else f"{Path(name).stem}-{self._file_no}{Path(name).suffix}")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            lines.append(f"  📎 {name} written to {path}")
        return "\n".join(lines)

    async def line(self, raw: str) -> None:
        line = raw.strip()
        if not line or line.startswith("#"):
            return
        print(f"> {line}", file=self.out)
        try:
            if line.startswith("!"):
                await self._special(line)
                return
            press = parse_press(line)
            if press is not None:
                user, channel, label = press
                self._seen(user, channel)
                sent = await self.h.press(user, label, channel)
            else:
                user, channel, command, options = parse_line(line)
                self._seen(user, channel)
                for value in options.values():
                    if value.startswith("@"):
                        self._user(value[1:])
                sent = await self.h.run(user, command, channel, **options)
        except HarnessError as exc:
            print(f"  ! {exc}", file=self.out)
            return
        for s in sent:
            print(self.render(s), file=self.out)
        print(file=self.out)

    async def _special(self, line: str) -> None:
        words = line[1:].split()
        if words and words[0] == "wait" and len(words) == 2:
            try:
                hours = float(words[1])
            except ValueError:
                raise HarnessError("!wait takes a number of hours") from None
            self.clock.offset += hours * 3600
            start = len(self.h.recorder.sent)
            await self.h.reminders()
            for s in self.h.recorder.sent[start:]:  # with the board edits a deadline makes
                print(self.render(s), file=self.out)
            print(file=self.out)
            return
        if words and words[0] == "delete-board":
            channel = (words[1] if len(words) > 1 else "#general").lstrip("#")
            mid = await self.h.bot.service.board_message(str(channel_id_of(channel)))
            if mid:
                self.h.recorder.deleted.add(int(mid))
                print(f"  (status board in #{channel} deleted)", file=self.out)
            return
        raise HarnessError(HELP)


async def run_console(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    if args.script:
        try:
            source = Path(args.script).read_text(encoding="utf-8")
        except OSError as exc:
            print(f"cannot read {args.script}: {exc.strerror}", file=sys.stderr)
            return 1
        lines = source.splitlines()
    else:
        lines = None
    clock = WallClock()
    try:
        harness = await Harness.create(args.db, seed=args.seed, clock=clock)
    except StoreError as exc:  # the database cannot be used: one line, like the bot's start-up
        print(f"skirmish console: {exc}", file=sys.stderr)
        return 2
    console = Console(harness, Path(args.files), out, clock)
    try:
        if lines is not None:
            for raw in lines:
                await console.line(raw)
        else:
            for raw in sys.stdin:
                await console.line(raw)
    finally:
        await harness.close()
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot console", description="Run Skirmish commands offline.")
    p.add_argument("--db", default=":memory:", help="SQLite file (default: in memory, gone at exit)")
    p.add_argument("--seed", type=int, default=None, help="make every roll reproducible")
    p.add_argument("--files", default=".", help="folder for attachments such as map.png (default: .)")
    p.add_argument("script", nargs="?", help="a file of commands, one per line (default: standard input)")
    return p


def main(argv: list[str]) -> int:
    import asyncio

    args = parser().parse_args(argv)
    return asyncio.run(run_console(args))
