"""The user's memsync client configuration: which servers they logged in to, as whom,
with which token.

One JSON file, ``$XDG_CONFIG_HOME/memsync/config.json`` (``~/.config/memsync/`` without
it). It holds access tokens, so the directory is created ``0700`` and the file is
written ``0600`` — created with that mode, never widened afterwards — and replaced
atomically, so a crash never leaves half a file and a reader never sees one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CONFIG_VERSION = 1


class ConfigError(Exception):
    """The configuration file exists but cannot be used; the message says why."""


@dataclass(frozen=True)
class Credential:
    server: str  # normalized: scheme://host[:port][/prefix], no trailing slash
    user: str
    token: str


def normalize_server(url: str) -> str:
    """``https://Host:8443/prefix/`` → ``https://host:8443/prefix``; only http(s)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{url!r} is not an http:// or https:// server address")
    if parts.username or parts.password:
        raise ValueError("put the user in --user and the token in the prompt, not in the URL")
    if parts.query or parts.fragment:
        raise ValueError(f"{url!r} has a query or fragment; give the server's base address")
    return f"{parts.scheme}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def config_path(environ: Mapping[str, str], home: Path) -> Path:
    base = environ.get("XDG_CONFIG_HOME")
    # The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
    root = Path(base) if base and Path(base).is_absolute() else Path(home) / ".config"
    return root / "memsync" / "config.json"


class ClientConfig:
    """The servers a user logged in to; :meth:`save` writes it back."""

    def __init__(
        self, path: Path, credentials: Mapping[str, Credential], current: str | None
    ) -> None:
        self.path = path
        self.credentials = dict(credentials)
        self.current = current

    @classmethod
    def load(cls, path: Path) -> ClientConfig:
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path, {}, None)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ConfigError(f"cannot read {path}: {error}") from error
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(servers, dict):
            raise ConfigError(f"{path} has no 'servers' object; log in again to rewrite it")
        credentials = {}
        for server, entry in servers.items():
            if not isinstance(entry, dict):
                continue
            user, token = entry.get("user"), entry.get("token")
            if isinstance(user, str) and isinstance(token, str):
                credentials[server] = Credential(server, user, token)
        current = data.get("current")
        return cls(path, credentials, current if current in credentials else None)

    def remember(self, credential: Credential) -> None:
        """Store ``credential`` (replacing any earlier one for its server) as current."""
        self.credentials[credential.server] = credential
        self.current = credential.server

    def credential(self, server: str | None = None) -> Credential | None:
        """The credential for ``server`` (normalized), or the current one."""
        key = server if server is not None else self.current
        return self.credentials.get(key) if key is not None else None

    def credential_for_url(self, protocol: str, host: str, path: str | None) -> Credential | None:
        """The credential a Git request to ``protocol://host/path`` should use: among the
        servers with that scheme and host, the one whose path is the longest prefix of
        ``path``. Git leaves ``path`` out unless ``credential.useHttpPath`` is set; then
        the current server wins, if it is on that host."""
        matches = []
        for credential in self.credentials.values():
            parts = urlsplit(credential.server)
            if parts.scheme == protocol and parts.netloc == host.lower():
                matches.append((parts.path.rstrip("/"), credential))
        if path is None:
            for _, credential in matches:
                if credential.server == self.current:
                    return credential
            return matches[0][1] if matches else None
        wanted = "/" + path.lstrip("/")
        inside = [
            (prefix, credential)
            for prefix, credential in matches
            if wanted == prefix or wanted.startswith(prefix + "/")
        ]
        return max(inside, key=lambda item: len(item[0]))[1] if inside else None

    def save(self) -> None:
        data = {
            "version": CONFIG_VERSION,
            "current": self.current,
            "servers": {
                server: {"user": c.user, "token": c.token}
                for server, c in sorted(self.credentials.items())
            },
        }
        directory = self.path.parent
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        # mkdir's mode is masked by the umask and does not apply to an existing directory.
        directory.chmod(0o700)
        # mkstemp creates the file 0600, so the token is never readable by others, even
        # for the moment before the rename.
        fd, partial = tempfile.mkstemp(prefix=".config.", suffix=".json", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            Path(partial).chmod(0o600)
            Path(partial).replace(self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                Path(partial).unlink()
            raise
