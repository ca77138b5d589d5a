"""Settings, read once at start from the environment and `.env` (see `.env.example`)."""
from __future__ import annotations

import re

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from rules.models import reminder_hours_problem

__all__ = ["Settings", "TokenError", "check_token"]

_TOKEN_RE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


class TokenError(ValueError):
    """The Discord token is missing or cannot be a token."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(None, description="The bot token from the Developer Portal.")
    dev_guild_id: int | None = Field(
        None, description="Sync commands to this one server (instant) instead of globally."
    )
    database_url: str = Field("skirmish.db", description="SQLite file path (or sqlite:///path).")
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

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_is_none(cls, v: object) -> object:
        return None if v in ("", None) else v

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


def check_token(settings: Settings) -> str:
    """Return the token, or raise :class:`TokenError` with one line that says how to fix it."""
    if settings.discord_token is None:
        raise TokenError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token from "
            "https://discord.com/developers/applications (Bot -> Reset Token)."
        )
    token = settings.discord_token.get_secret_value().strip()
    if token.lower().startswith("bot "):
        token = token[4:].strip()
    if not _TOKEN_RE.match(token):
        raise TokenError(
            "DISCORD_TOKEN does not look like a bot token (three dot-separated parts): copy it again "
            "from the Developer Portal (Bot -> Reset Token) into .env, without quotes or spaces."
        )
    return token
