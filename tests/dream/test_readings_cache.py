"""Memories read once per dream and kept between dreams (`memsync.dream.readings`):
a dream with the kept readings gives exactly what one without them gives, a damaged
file is a miss, and nothing is written through a symbolic link."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from memsync.dream import dedupe, readings, staleness
from memsync.dream.deterministic import DeterministicEngine
from memsync.dream.engine import EngineResult, Scope
from memsync.dream.readings import CACHE_NAME, AnalysisCache, analysis_stamp
from memsync.memory import MemoryDirectory
from tests.dream.corpus import Corpus, RecordingProgress, build_corpus, commit_corpus

Outcome = tuple[str, list[str], list[str], list[str], dict[str, bytes]]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return build_corpus(tmp_path_factory.mktemp("corpus") / "memory", memories=160, team=True)


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.parts
    }


def _outcome(result: EngineResult, root: Path) -> Outcome:
    return result.summary, result.notes, result.stale, result.files_touched, _files(root)


def _dream(corpus: Corpus, workdir: Path, cache: AnalysisCache | None) -> Outcome:
    if not workdir.exists():
        shutil.copytree(corpus.root, workdir)
    context = corpus.context(Scope.PERSONAL, workdir=workdir)
    result = DeterministicEngine(cache=cache).consolidate(context, RecordingProgress())
    return _outcome(result, workdir)


def _without_cache(corpus: Corpus, workdir: Path) -> Outcome:
    """The dream with nowhere to keep readings: each is worked out."""
    return _dream(corpus, workdir, None)


def _cache(tmp_path: Path) -> AnalysisCache:
    """A cache in an empty stand-in for a repository's Git directory."""
    (tmp_path / "git").mkdir(exist_ok=True)
    return AnalysisCache(tmp_path / "git")


def _forbid_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reading and verdict must come from the kept file."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("read again, though the file kept it")

    monkeypatch.setattr(readings, "profile_of", refuse)
    monkeypatch.setattr(readings, "content_words", refuse)
    monkeypatch.setattr(staleness, "claims", refuse)
    monkeypatch.setattr(dedupe, "duplicate_reason", refuse)


def test_kept_readings_give_what_reading_gives(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _without_cache(corpus, tmp_path / "plain")
    cache = _cache(tmp_path)
    assert _dream(corpus, tmp_path / "first", cache) == expected
    assert (tmp_path / "git" / "memsync" / CACHE_NAME).is_file()
    _forbid_reading(monkeypatch)
    assert _dream(corpus, tmp_path / "second", cache) == expected


def test_a_changed_memory_is_read_again(corpus: Corpus, tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    _dream(corpus, tmp_path / "first", cache)
    changed = tmp_path / "changed"
    shutil.copytree(corpus.root, changed)
    path = changed / corpus.topic_files[0]
    path.write_text(path.read_text() + "\nDeploys go out on Thursday from now on.\n")
    fresh = tmp_path / "fresh"
    shutil.copytree(changed, fresh)
    assert _dream(corpus, changed, cache) == _without_cache(corpus, fresh)


@pytest.mark.parametrize(
    "damage",
    [
        "not json at all {",
        "truncated",
        json.dumps({"stamp": "another version", "profiles": {}, "words": {}}),
        json.dumps([1, 2, 3]),
        "wrong shapes",
    ],
)
def test_a_damaged_file_is_a_miss_and_written_again(
    corpus: Corpus, tmp_path: Path, damage: str
) -> None:
    cache = _cache(tmp_path)
    _dream(corpus, tmp_path / "first", cache)
    kept = tmp_path / "git" / "memsync" / CACHE_NAME
    good = kept.read_text(encoding="utf-8")
    if damage == "truncated":
        kept.write_text(good[: len(good) // 2], encoding="utf-8")
    elif damage == "wrong shapes":  # the right stamp, readings of the wrong shape
        data = json.loads(good)
        for table in ("profiles", "words", "claims"):
            data[table] = {key: [None, 3] for key in data[table]}
        data["verdicts"] = dict.fromkeys(data["verdicts"], 7)
        kept.write_text(json.dumps(data), encoding="utf-8")
    else:
        kept.write_text(damage, encoding="utf-8")
    assert _dream(corpus, tmp_path / "second", cache) == _without_cache(corpus, tmp_path / "plain")
    rewritten = json.loads(kept.read_text(encoding="utf-8"))
    assert rewritten["stamp"] == analysis_stamp()
    assert rewritten == json.loads(good)


def test_another_stamp_is_a_miss(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readings kept by other code (another stamp) are never used."""
    cache = _cache(tmp_path)
    _dream(corpus, tmp_path / "first", cache)
    kept = tmp_path / "git" / "memsync" / CACHE_NAME
    data = json.loads(kept.read_text(encoding="utf-8"))
    data["stamp"] = "0" * 32
    kept.write_text(json.dumps(data), encoding="utf-8")
    _forbid_reading(monkeypatch)
    with pytest.raises(AssertionError, match="read again"):
        _dream(corpus, tmp_path / "second", cache)


def test_the_cache_never_follows_a_link(corpus: Corpus, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    git = tmp_path / "git"
    git.mkdir()
    (git / "memsync").symlink_to(outside, target_is_directory=True)
    expected = _without_cache(corpus, tmp_path / "plain")
    assert _dream(corpus, tmp_path / "linked-folder", AnalysisCache(git)) == expected
    assert list(outside.iterdir()) == []

    # The file itself a link (to a file outside, and along a chain of links).
    (git / "memsync").unlink()
    (git / "memsync").mkdir()
    victim = outside / "victim"
    victim.write_text("keep me", encoding="utf-8")
    (git / "hop").symlink_to(outside)
    (git / "memsync" / CACHE_NAME).symlink_to("../hop/victim")
    assert _dream(corpus, tmp_path / "linked-file", AnalysisCache(git)) == expected
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in outside.iterdir()) == ["victim"]


def test_a_worktree_keeps_its_readings_in_the_repository(tmp_path: Path) -> None:
    """By default the readings go to the Git directory of the repository the dream's
    worktree checks out, and the next dream's worktree finds them."""
    corpus = build_corpus(tmp_path / "repo", memories=60)
    commit_corpus(corpus)
    kept = tmp_path / "repo" / ".git" / "memsync" / CACHE_NAME

    def in_worktree(name: str) -> Outcome:
        worktree = tmp_path / name
        git = ["git", "-C", str(corpus.root), "worktree", "add", "-q", "-b", name, str(worktree)]
        subprocess.run(git, check=True)
        return _dream(corpus, worktree, None)

    first = in_worktree("dream-1")
    assert kept.is_file()
    stamp = kept.stat().st_mtime_ns
    assert in_worktree("dream-2") == first
    assert kept.stat().st_mtime_ns == stamp  # nothing new read: not written again


def test_the_file_is_bounded(corpus: Corpus, tmp_path: Path) -> None:
    """Only what the dream read is kept, at most `AnalysisCache.most` of each kind."""
    cache = _cache(tmp_path)
    kept = tmp_path / "git" / "memsync" / CACHE_NAME
    _dream(corpus, tmp_path / "first", cache)
    whole = json.loads(kept.read_text(encoding="utf-8"))
    assert len(whole["profiles"]) > 10

    # Half the memories gone: their readings go with them.
    smaller = tmp_path / "smaller"
    shutil.copytree(corpus.root, smaller)
    for path in corpus.topic_files[::2]:
        (smaller / path).unlink()
    _dream(corpus, smaller, cache)
    after = json.loads(kept.read_text(encoding="utf-8"))
    assert len(after["profiles"]) < len(whole["profiles"])
    assert set(after["profiles"]) < set(whole["profiles"])

    kept.unlink()
    _dream(corpus, tmp_path / "capped", AnalysisCache(tmp_path / "git", most=10))
    capped = json.loads(kept.read_text(encoding="utf-8"))
    assert all(len(capped[table]) <= 10 for table in ("profiles", "words", "claims", "verdicts"))


def test_claims_are_kept_whole(corpus: Corpus) -> None:
    """Every field of a memory's claims comes back from the file as it was read."""
    from memsync.dream.supersession import claims

    memories = MemoryDirectory.read(corpus.root, links=False).files
    assert memories
    for memory in memories.values():
        read = claims(memory)
        kept = json.loads(json.dumps(readings._claims_form(read)))
        assert readings._claims_from(kept) == read, memory.path


def test_a_linked_git_directory_keeps_nothing(tmp_path: Path) -> None:
    """Git makes a worktree's ``.git`` a directory or a file; a link in its place was
    planted, and the readings are not kept through it."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".git").mkdir(parents=True)
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (workdir / ".git").symlink_to(elsewhere / ".git", target_is_directory=True)
    assert AnalysisCache.of_worktree(workdir) is None
    assert AnalysisCache.of_worktree(elsewhere) is not None
