"""What a pushed blob, path or symlink must satisfy to enter team memory (SPEC T4)."""

from __future__ import annotations

import pytest

from memsync.secrets import (
    MAX_BLOB_BYTES,
    FindingKind,
    check_blob,
    check_path,
    check_symlink,
)
from tests.secrets.fakes import fake_secrets, memory_note, sample

AWS = next(f.value for f in fake_secrets() if f.rule_id == "aws-access-token")


@pytest.mark.parametrize(
    ("path", "rule_id"),
    [
        ("notes/a\0b.md", "path-nul"),
        ("../outside.md", "path-parent"),
        ("notes/../../outside.md", "path-parent"),
        ("notes/..", "path-parent"),
        ("notes\\outside.md", "path-backslash"),
        ("C:\\Users\\alice\\memory.md", "path-backslash"),
        ("C:/Users/alice/memory.md", "path-absolute"),
        ("c:memory.md", "path-absolute"),
        ("/etc/passwd", "path-absolute"),
        ("//server/share/memory.md", "path-absolute"),
        ("．．／secrets.md", "path-parent"),  # fullwidth: NFKC folds it to ../secrets.md
        ("notes／．．／．．／x.md", "path-parent"),
        ("／etc/passwd", "path-absolute"),
        ("notes＼x.md", "path-backslash"),
        ("notes/\x1b[31mred.md", "path-control-character"),
        ("notes/tab\there.md", "path-control-character"),
        ("notes/line\nbreak.md", "path-control-character"),
        ("notes/\x7fdel.md", "path-control-character"),
        ("notes/\u202egnp.md", "path-control-character"),
        ("notes//x.md", "path-empty-component"),
        ("notes/", "path-empty-component"),
        ("", "path-empty-component"),
        (".git/config", "path-git-directory"),
        ("team/.GIT/hooks/pre-commit", "path-git-directory"),
    ],
)
def test_it_refuses_unsafe_paths(path: str, rule_id: str) -> None:
    finding = check_path(path)
    assert finding is not None
    assert (finding.kind, finding.rule_id, finding.path, finding.line) == (
        FindingKind.UNSAFE_PATH,
        rule_id,
        path,
        0,
    )


@pytest.mark.parametrize(
    "path",
    [
        "MEMORY.md",
        "feedback_testing.md",
        "team/MEMORY.md",
        "logs/2026/01/2026-01-05.md",
        "notes/ünïcode 笔记.md",
        "notes/..hidden.md",
        "notes/a..b.md",
        ".gitignore",
        "ﬁle.md",  # a ligature: NFKC folds it to file.md, which is fine
    ],
)
def test_it_accepts_ordinary_memory_paths(path: str) -> None:
    assert check_path(path) is None


def test_an_unsafe_path_message_shows_control_characters_escaped() -> None:
    finding = check_path("notes/\x1b[2Jclear.md")
    assert finding is not None
    message = finding.message()
    assert "\x1b" not in message
    assert message == (
        "notes/\\x1b[2Jclear.md: unsafe-path (path-control-character): path contains a control"
        " character — rename it to a plain relative path inside the memory directory"
    )


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("link.md", "../outside.md"),
        ("notes/link.md", "../../outside.md"),
        ("notes/link.md", "a/../../../outside.md"),
        ("link.md", "/etc/passwd"),
        ("link.md", "C:\\Windows\\win.ini"),
        ("link.md", "\\\\server\\share"),
        ("notes/link.md", "..\\..\\outside.md"),
        ("notes/link.md", "．．／．．／outside.md"),
        ("link.md", ""),
        ("link.md", "a\0b"),
    ],
)
def test_it_refuses_symlinks_that_leave_the_tree(path: str, target: str) -> None:
    finding = check_symlink(path, target)
    assert finding is not None
    assert (finding.kind, finding.rule_id, finding.path) == (
        FindingKind.UNSAFE_PATH,
        "symlink-outside",
        path,
    )
    assert finding.message().startswith(f"{path}: unsafe-path (symlink-outside): ")


@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("link.md", "notes/topic.md"),
        ("notes/link.md", "../MEMORY.md"),
        ("notes/deep/link.md", "../../team/MEMORY.md"),
        ("notes/link.md", "./topic.md"),
        ("team/link.md", "a/../b.md"),
    ],
)
def test_it_accepts_symlinks_inside_the_tree(path: str, target: str) -> None:
    assert check_symlink(path, target) is None


def test_it_refuses_a_symlink_into_the_repository_metadata() -> None:
    finding = check_symlink("notes/link.md", "../.git/config")
    assert finding is not None
    assert finding.rule_id == "symlink-git-directory"


def _markdown_of(size: int) -> bytes:
    line = b"- The team agreed that deploys wait for review.\n"
    data = line * (size // len(line) + 1)
    return data[: size - 1] + b"\n"


def test_a_blob_of_exactly_the_limit_is_accepted() -> None:
    data = _markdown_of(MAX_BLOB_BYTES)
    assert len(data) == 250_000
    assert check_blob("notes/long.md", data) == []


def test_a_blob_one_byte_over_the_limit_is_refused_with_its_size() -> None:
    data = _markdown_of(MAX_BLOB_BYTES + 1)
    [finding] = check_blob("notes/long.md", data)
    assert (finding.kind, finding.rule_id, finding.line) == (
        FindingKind.TOO_LARGE,
        "max-blob-size",
        0,
    )
    assert finding.message() == (
        "notes/long.md: too-large (max-blob-size): 250,001 bytes, over the 250,000-byte limit"
        " — memory files are limited to 250,000 bytes; split it"
    )


def test_a_binary_blob_is_judged_by_its_size() -> None:
    assert check_blob("assets/diagram.png", b"\x89PNG\0" * 1000) == []
    [finding] = check_blob("assets/diagram.png", b"\0" * (MAX_BLOB_BYTES + 1))
    assert finding.kind == FindingKind.TOO_LARGE


def test_a_key_between_nul_bytes_is_still_found() -> None:
    # A NUL byte used to make a blob "binary" and unscanned: a key padded with one
    # passed every push.
    [finding] = check_blob("assets/blob.bin", b"\0\0" + AWS.encode() + b"\0")
    assert (finding.rule_id, finding.kind) == ("aws-access-token", FindingKind.SECRET)


def test_a_binary_blob_without_text_secrets_is_accepted() -> None:
    assert check_blob("certs/client.p12", b"\x30\x82\x0a\x00\0\0binary") == []


def test_markdown_that_is_not_utf8_is_refused_at_its_first_bad_line() -> None:
    data = "# Notes\n\nCafé is fine\n".encode() + b"caf\xe9 in Latin-1 is not\n"
    [finding] = check_blob("notes/cafe.md", data)
    assert (finding.kind, finding.line) == (FindingKind.NOT_UTF8, 4)
    assert finding.message() == (
        "notes/cafe.md:4: not-utf8 (utf-8): Markdown that is not valid UTF-8"
        " — save the file as UTF-8"
    )


def test_markdown_is_scanned_for_secrets_with_line_numbers() -> None:
    text = memory_note(AWS)
    [finding] = check_blob("notes/deploy.md", text.encode())
    assert (finding.kind, finding.rule_id, finding.line) == (
        FindingKind.SECRET,
        "aws-access-token",
        9,
    )


def test_markdown_with_a_nul_byte_is_still_scanned() -> None:
    findings = check_blob("notes/odd.md", b"odd\0byte\nkey " + AWS.encode() + b"\n")
    assert [(f.rule_id, f.line) for f in findings] == [("aws-access-token", 2)]


def test_other_text_files_are_scanned_too() -> None:
    script = f"#!/bin/sh\nexport AWS_ACCESS_KEY_ID={AWS}\n".encode()
    assert [(f.rule_id, f.line) for f in check_blob("scripts/deploy.sh", script)] == [
        ("aws-access-token", 2)
    ]


def test_a_real_memory_file_passes_every_check() -> None:
    name = "AnotherSava__agterm__.claude__memory__fork-and-local-install.md"
    assert check_path("fork-and-local-install.md") is None
    assert check_blob("fork-and-local-install.md", sample(name)) == []
