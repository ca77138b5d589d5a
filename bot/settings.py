"""Settings, read once at start from the environment and `.env` (see `.env.example`)."""
from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.maps import DEFAULT_WORKERS
from data.store import StoreError, database_backend
from rules.models import reminder_hours_problem

__all__ = ["Settings", "SettingsError", "TokenError", "check_token", "load_settings"]

_TOKEN_PART = re.compile(r"^[A-Za-z0-9_\-]+$")
_TOKEN_MIN = (20, 4, 20)  # the shortest each dot-separated part of a bot token can be
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_FIX_TOKEN = "copy it again from the Developer Portal (Bot -> Reset Token) into .env"


class TokenError(ValueError):
    """The Discord token is missing or cannot be a token."""


class SettingsError(ValueError):
    """A setting from the environment or `.env` cannot be used; the message is one line."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(None, description="The bot token from the Developer Portal.")
    dev_guild_id: int | None = Field(
        None, description="Sync commands to this one server (instant) instead of globally."
    )
    database_url: str = Field(
        "skirmish.db",
        description="SQLite file path (or sqlite:///path), or postgresql://user:password@host/database.",
    )
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING or ERROR.")
    reminder_check_seconds: float = Field(
        60.0, ge=1, description="How often the bot looks for turns that have waited too long."
    )
    default_reminder_hours: float = Field(
        24.0, description="New encounters nudge a waiting player after this many hours (0: never, else 0.25-720)."
    )
    board_delay_seconds: float = Field(
        1.0, ge=0, description="Status-board edits within this many seconds are merged into one."
    )
    outbound_per_second: float = Field(
        40.0, gt=0, le=50,
        description="Bot-token requests (posts, edits, DMs) a second at most, for the whole process; Discord's limit is 50.",
    )
    discord_api_base: str | None = Field(
        None,
        description="For testing only: the root URL of a stand-in for Discord (http://127.0.0.1:PORT); "
        "its REST API is at /api/v10 and its gateway at /gateway. Empty: Discord itself.",
    )
    map_workers: int = Field(
        DEFAULT_WORKERS, ge=0, le=32,
        description="Processes that draw `/map` pictures (default 2, 1 on a one-core machine; 0: draw in a thread of the bot's own process).",
    )
    encounter_cache_mib: float = Field(
        256.0, ge=1,
        description="The memory the cache of active encounters may hold, in MiB (a cached encounter of the "
        "usual size holds 21-52 KiB; the least recently used go).",
    )
    log_retention_days: float = Field(
        30.0, ge=0, description="Ended encounters lose their undo data after this many days (0: kept forever)."
    )

    shard_count: int | None = Field(
        None, description="How many shards the bot's Discord connection has in all (empty: one process, no sharding)."
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None, description="The shards this process runs, a comma list such as 0,1 (empty: all of SHARD_COUNT)."
    )

    @field_validator("shard_count", mode="before")
    @classmethod
    def _shard_count(cls, v: object) -> object:
        text = "" if v is None else str(v).strip()
        if not text:
            return None
        if not text.isdigit():
            raise ValueError(f"SHARD_COUNT must be a whole number (Discord wants one shard per 2,500 servers at most), not {text!r}")
        if int(text) < 1:
            raise ValueError("SHARD_COUNT must be 1 or more, or left empty")
        return int(text)

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, v: object) -> object:
        if v is None or isinstance(v, tuple):
            return v
        text = str(v).strip()
        if not text:
            return None
        parts = [p.strip() for p in text.split(",")]
        if not all(p.isdigit() for p in parts):
            raise ValueError(f"SHARD_IDS must be a comma list of shard numbers such as 0,1, not {text!r}")
        ids = [int(p) for p in parts]
        if twice := sorted({i for i in ids if ids.count(i) > 1}):
            raise ValueError(f"SHARD_IDS names shard {twice[0]} twice")
        return tuple(sorted(ids))

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all: set both, or neither")
        if self.shard_ids[-1] >= self.shard_count:
            raise ValueError(
                f"SHARD_IDS must be shard numbers from 0 to {self.shard_count - 1} "
                f"(SHARD_COUNT is {self.shard_count}), not {','.join(map(str, self.shard_ids))}"
            )
        return self

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _guild_id(cls, v: object) -> object:
        if v is None or isinstance(v, int):
            return v
        text = str(v).strip()
        if not text:
            return None
        if not text.isdigit():
            raise ValueError(
                f"DEV_GUILD_ID must be your server's id, a number (with Developer Mode on, "
                f"right-click the server -> Copy Server ID), not {text!r}; or leave it empty"
            )
        return int(text)

    @field_validator("default_reminder_hours")
    @classmethod
    def _reminder_range(cls, v: float) -> float:
        problem = reminder_hours_problem(v, "DEFAULT_REMINDER_HOURS")
        if problem:
            raise ValueError(problem)
        return v

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token(cls, v: object) -> object:
        return None if v in ("", None) else v

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level(cls, v: object) -> object:
        level = str(v).strip().upper()
        if level not in _LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, not {str(v)!r}")
        return level

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, v: str) -> str:
        try:
            database_backend(v)
        except StoreError as error:
            raise ValueError(str(error)) from None
        return v


def load_settings(**values: Any) -> Settings:
    """`Settings` from the environment and `.env` (``values`` win), or `SettingsError` with one
    line naming every setting that is wrong and how."""
    try:
        return Settings(**values)
    except ValidationError as error:
        problems = []
        for e in error.errors():
            name = str(e["loc"][0]).upper() if e["loc"] else ""  # none: a check of several, named in it
            message = e["msg"].removeprefix("Value error, ")
            problems.append(message if name in message else f"{name}: {message}")
        raise SettingsError("; ".join(problems)) from None


def check_token(settings: Settings) -> str:
    """Return the token, or raise :class:`TokenError` with one line that says what is wrong
    with it and how to fix it. The message never repeats the token."""
    if settings.discord_token is None:
        raise TokenError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token from "
            "https://discord.com/developers/applications (Bot -> Reset Token)."
        )
    token = settings.discord_token.get_secret_value().strip()
    if token.lower().startswith("bot "):
        token = token[4:].strip()
    problem = _token_problem(token)
    if problem:
        raise TokenError(f"DISCORD_TOKEN {problem}: {_FIX_TOKEN}.")
    return token


def _token_problem(token: str) -> str | None:
    """What keeps ``token`` from being a bot token, said without repeating it; None if nothing."""
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return "is wrapped in quotes (remove them)"
    if any(c.isspace() for c in token):
        return "has spaces in it (paste it as one word)"
    parts = token.split(".")
    if len(parts) == 1 and token.isdigit():
        return "is the application id (a number), not the bot token"
    if len(parts) == 1 and len(token) == 32 and _TOKEN_PART.match(token):
        return "looks like the client secret (OAuth2 page), not the bot token (Bot page)"
    if len(parts) != 3:
        return f"has {len(parts)} part{'s' if len(parts) != 1 else ''} separated by dots; a bot token has 3"
    bad = sorted({c for c in token if c != "." and not _TOKEN_PART.match(c)})
    if bad:
        return f"contains characters a bot token never has ({' '.join(bad)})"
    if any(len(p) < n for p, n in zip(parts, _TOKEN_MIN)):
        return "is too short to be a bot token (only part of it was copied?)"
    return None
