"""Canary answers kept between dreams (`memsync.dream.canaries.CanaryCache`): a cached
answer is exactly the one a fresh run gives, and only the same trees, ages and code
get it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memsync.dream import canaries
from memsync.dream.canaries import CanaryCache, read_tree, run_canaries
from tests.dream.corpus import build_corpus


@pytest.fixture
def trees(tmp_path: Path):
    corpus = build_corpus(tmp_path / "memory", memories=80)
    before = read_tree(corpus.root)
    # A dream tree that loses memories (so some facts are lost) and rewrites another.
    topics = sorted(path for path in before if path != "MEMORY.md")
    after = {path: data for path, data in before.items() if path not in topics[:6]}
    after[topics[10]] = before[topics[10]] + b"\nOne more line on 2026-12-01.\n"
    return corpus, before, after


def _refuse_to_ask(*_args, **_kwargs):
    raise AssertionError("main's canaries were asked again")


def test_a_cached_answer_is_the_fresh_one_and_main_is_not_asked_again(tmp_path, trees, monkeypatch):
    corpus, before, after = trees
    fresh = run_canaries(before, after, corpus.last_changed, corpus.now)
    assert fresh.lost  # the comparison below has something to compare

    first = run_canaries(
        before, after, corpus.last_changed, corpus.now, cache=CanaryCache(tmp_path / "c")
    )
    monkeypatch.setattr(canaries, "_ask_main", _refuse_to_ask)
    again = run_canaries(
        before, after, corpus.last_changed, corpus.now, cache=CanaryCache(tmp_path / "c")
    )
    other_dream = dict(after, **{"MEMORY.md": before["MEMORY.md"] + b"\n"})
    another = run_canaries(
        before, other_dream, corpus.last_changed, corpus.now, cache=CanaryCache(tmp_path / "c")
    )

    assert first.to_dict() == fresh.to_dict() == again.to_dict()
    monkeypatch.undo()
    assert (
        another.to_dict()
        == run_canaries(before, other_dream, corpus.last_changed, corpus.now).to_dict()
    )


def test_another_main_or_other_ages_are_a_miss(tmp_path, trees, monkeypatch):
    corpus, before, after = trees
    run_canaries(before, after, corpus.last_changed, corpus.now, cache=CanaryCache(tmp_path / "c"))
    asked: list[object] = []
    real = canaries._ask_main
    monkeypatch.setattr(canaries, "_ask_main", lambda *a: asked.append(a) or real(*a))

    changed_main = dict(before, **{"MEMORY.md": before["MEMORY.md"] + b"\n"})
    run_canaries(
        changed_main, after, corpus.last_changed, corpus.now, cache=CanaryCache(tmp_path / "c")
    )
    older = {path: moment.replace(year=2020) for path, moment in corpus.last_changed.items()}
    run_canaries(before, after, older, corpus.now, cache=CanaryCache(tmp_path / "c"))

    assert len(asked) == 2


def test_a_damaged_cache_is_a_miss_not_an_error(tmp_path, trees):
    corpus, before, after = trees
    folder = tmp_path / "c"
    fresh = run_canaries(before, after, corpus.last_changed, corpus.now, cache=CanaryCache(folder))
    for path in folder.glob("*.json"):
        path.write_text('{"asked": "many", "canaries": [1], "dreams": []}')

    damaged = run_canaries(
        before, after, corpus.last_changed, corpus.now, cache=CanaryCache(folder)
    )

    assert damaged.to_dict() == fresh.to_dict()


def test_only_the_latest_mains_are_kept(tmp_path, trees):
    corpus, before, after = trees
    folder = tmp_path / "c"
    for extra in range(6):
        main = dict(before, **{"MEMORY.md": before["MEMORY.md"] + b"\n" * (extra + 1)})
        run_canaries(main, after, corpus.last_changed, corpus.now, cache=CanaryCache(folder))

    assert len(list(folder.glob("*.json"))) == canaries._CACHED_MAINS


@pytest.mark.parametrize(
    "module", ["dream/profiles.py", "dream/glossary.py", "memory/topic.py", "recall/rank.py"]
)
def test_a_change_to_a_module_the_answers_come_from_is_a_miss(tmp_path, monkeypatch, module):
    # The facts are read in memsync.dream.profiles and the glossary and word lists it
    # reads (the key once covered dedupe.py and vocabulary.py only). The installed
    # modules cannot be changed from a test: a copy of the package stands in for them.
    package = tmp_path / "memsync"
    ignored = shutil.ignore_patterns("__pycache__")
    shutil.copytree(Path(canaries.__file__).parents[1], package, ignore=ignored)
    monkeypatch.setattr(canaries, "_PACKAGE", package)
    monkeypatch.setattr(canaries, "_code_version", canaries._code_version.__wrapped__)
    before = canaries._code_version()
    with (package / module).open("a") as source:
        source.write("\n# another rule\n")

    assert canaries._code_version() != before
