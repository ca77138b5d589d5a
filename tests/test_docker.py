"""The Dockerfile and compose.yaml agree with each other and with the project (Docker itself
does not run here: `.ci/run` builds the image where a Docker engine answers)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

from data.store import database_backend

ROOT = Path(__file__).resolve().parents[1]


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return [(ln.split(None, 1)[0].upper(), ln.split(None, 1)[1]) for ln in lines]


def last(keyword: str) -> str:
    values = [args for kw, args in dockerfile() if kw == keyword]
    assert values, f"the Dockerfile has no {keyword}"
    return values[-1]


def test_image_is_slim_python_with_every_package_copied() -> None:
    """A slim Python of the project's version; every package pyproject installs is copied in."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    base = last("FROM")
    assert re.fullmatch(r"python:3\.1[1-9]-slim(-\w+)?", base), base
    assert project["project"]["requires-python"] == ">=3.11"
    copied = {Path(src).as_posix() for kw, args in dockerfile() if kw == "COPY" for src in args.split()[:-1]}
    for src in copied:
        assert (ROOT / src).exists(), f"COPY {src}: no such file"
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages | {"pyproject.toml", project["project"]["readme"]} <= copied


def test_runs_as_a_user_with_its_data_folder_as_the_volume() -> None:
    """The bot runs as a non-root user it creates, in the data folder that is the volume, as `python -m bot`."""
    user = last("USER")
    assert user not in ("root", "0") and not user.startswith("0:")
    assert any(kw == "RUN" and "useradd" in args and user in args for kw, args in dockerfile())
    keywords = [kw for kw, _ in dockerfile()]
    assert keywords.index("USER") > max(i for i, kw in enumerate(keywords) if kw == "RUN")
    volume = last("VOLUME")
    assert last("WORKDIR") == volume
    assert any(kw == "RUN" and f"chown {user}" in args and volume in args for kw, args in dockerfile())
    assert last("CMD") == '["python", "-m", "bot"]'


def test_compose_builds_the_dockerfile_and_runs_it_on_postgresql() -> None:
    """compose.yaml builds this Dockerfile, mounts the data volume, and reaches its own PostgreSQL."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    assert bot["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert bot["command"] == "python -m bot"
    named, target = bot["volumes"][0].split(":")
    assert target == last("VOLUME") and named in compose["volumes"]
    url = bot["environment"]["DATABASE_URL"]
    assert database_backend(url)[0] == "postgresql"
    env = db["environment"]
    assert url == (
        f"postgresql://{env['POSTGRES_USER']}:{env['POSTGRES_PASSWORD']}@db:5432/{env['POSTGRES_DB']}"
    )
    assert bot["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in db
    assert bot["env_file"] == ".env" and (ROOT / ".env.example").is_file()


def test_readme_says_how_to_start_it() -> None:
    """The deployment page the README links names `docker compose up` and the files it uses."""
    assert "](docs/deployment.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    deployment = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    assert "docker compose up" in deployment and "compose.yaml" in deployment
