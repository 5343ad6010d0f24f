"""Ports a compose file publishes on the host, and a memory that names another (issue 15
item 4: a memory "changed after it was written").

"Local Postgres is on localhost port 5432" is stale once the checkout's compose file
publishes the ``db`` service (``image: postgres:16``) as ``"5433:5432"``. A claim counts
only when one sentence names exactly one service of the compose files (by its key, or
by the runtime or service its image runs: ``db``, "Postgres"), says the host side
("localhost", "local", "compose", "on the host") and gives a port ("port 5432",
``localhost:5432``). It is stale when that service publishes host ports and none is the
memory's. When unsure, nothing is flagged: a sentence about the container ("inside the
container", "container port") or about CI ("In CI, Postgres is on localhost port 5432"),
one looking back ("was 5432", "used to"), a service published nowhere, or two services
named at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from memsync.dream.declared_versions import image_tool
from memsync.dream.looking_away import SENTENCE_BREAK, anywhere

_PORT = re.compile(r"\bports?\s+(?:is\s+|of\s+|at\s+)?(\d{2,5})\b|\blocalhost:(\d{2,5})\b",
                   re.IGNORECASE)  # fmt: skip
_HOST_SIDE = re.compile(r"\b(?:localhost|local|locally|compose|docker-compose|on the host)\b",
                        re.IGNORECASE)  # fmt: skip
# A sentence about the container's side, about CI (whose services a workflow publishes,
# not the compose files), or looking back (`memsync.dream.looking_away`).
_NOT_NOW = anywhere("container", "inside", "internal", "used to", "ci", "github actions",
                    "pipeline", "workflow")  # fmt: skip
_WORD = re.compile(r"[a-z][a-z0-9_-]*")


@dataclass(frozen=True)
class Published:
    file: str  # the compose file, relative
    service: str
    names: frozenset[str]  # what a memory may call it: its key, the tool its image runs
    host_ports: frozenset[str]


def published_ports(root: Path, files: Iterable[str]) -> list[Published]:
    """Every service of the compose files among `files` that publishes a host port."""
    found: list[Published] = []
    for relative, services in _services_of(root, files):
        for key, spec in services.items():
            if not isinstance(spec, Mapping):
                continue
            ports = {port for p in spec.get("ports") or [] if (port := _host_port(p))}
            if not ports:
                continue
            names = {str(key).casefold()}
            tool = image_tool(str(spec.get("image") or ""))
            if tool is not None:
                names.add(tool)
            found.append(Published(relative, str(key), frozenset(names), frozenset(ports)))
    return found


def compose_services(root: Path, files: Iterable[str]) -> frozenset[str] | None:
    """Every service the compose files among `files` declare; None when there is none."""
    read = list(_services_of(root, files))
    return frozenset(str(key) for _, services in read for key in services) if read else None


def _services_of(root: Path, files: Iterable[str]) -> Iterator[tuple[str, Mapping[object, object]]]:
    """(compose file, its ``services`` mapping) for each of `files` that has one."""
    import yaml

    for relative in sorted(files):
        try:
            data = yaml.safe_load((root / relative).read_text(encoding="utf-8"))
        except (OSError, ValueError, yaml.YAMLError):
            continue
        services = data.get("services") if isinstance(data, dict) else None
        if isinstance(services, Mapping):
            yield relative, services


def _host_port(port: object) -> str | None:
    """The host side of a ports entry: ``"5433:5432"``, ``127.0.0.1:5433:5432/tcp``, a
    long-form mapping's ``published``; None for a container port alone (``"5432"``)."""
    if isinstance(port, Mapping):
        published = port.get("published")
        return str(published) if published is not None else None
    parts = str(port).split("/", 1)[0].split(":")
    return parts[-2] if len(parts) >= 2 and parts[-2].isdigit() else None


def port_conflict(text: str, published: list[Published]) -> str | None:
    """Why `text` is stale, when a sentence of it gives a host port for one compose
    service that the compose files do not publish it on; else None."""
    if not published:
        return None
    aliases = {"postgresql": "postgres", "mongo": "mongodb"}
    for sentence in SENTENCE_BREAK.split(text):
        ports = [a or b for a, b in _PORT.findall(sentence)]
        if not ports or not _HOST_SIDE.search(sentence) or _NOT_NOW.search(sentence):
            continue
        words = {aliases.get(w, w) for w in _WORD.findall(sentence.casefold())}
        named = {p.service for p in published if p.names & words}
        if len(named) != 1 or len(set(ports)) != 1:
            continue
        service = next(iter(named))
        hosts = [p for p in published if p.service == service]
        if any(ports[0] in p.host_ports for p in hosts):
            continue
        shown = ", ".join(sorted({port for p in hosts for port in p.host_ports}))
        return f"says port {ports[0]} for {service}, where {hosts[0].file} publishes it on {shown}"
    return None
