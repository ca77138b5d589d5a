# The bot in a container: `docker compose up` (compose.yaml) runs it with PostgreSQL.
# Alone: docker build -t skirmish . && docker run --env-file .env -v skirmish-data:/data skirmish
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY data ./data
COPY rules ./rules
RUN pip install . \
    && useradd --create-home --uid 10001 skirmish \
    && mkdir /data && chown skirmish:skirmish /data

# not root; the working folder holds skirmish.db (the default DATABASE_URL) and is a volume
USER skirmish
WORKDIR /data
VOLUME /data
CMD ["python", "-m", "bot"]
