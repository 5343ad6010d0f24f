"""What may enter team memory (SPEC T4): one blob, one path, one symlink at a time.

These are the checks a pre-receive hook runs on every new blob of a push. They take
Git paths (always `/`-separated, as stored in a tree) and raw blob bytes, never touch
the disk, and return findings instead of raising: the hook refuses the push when any
check returns one, and prints each finding's `message()`.
"""

from __future__ import annotations

import re
import unicodedata

from memsync.secrets.findings import MAX_BLOB_BYTES, Finding, FindingKind
from memsync.secrets.scan import scan_text

_DRIVE = re.compile(r"^[A-Za-z]:")
# Code points HFS+ ignores in names, so `.g\u200cit` opens `.git` on a Mac.
_HFS_IGNORED = dict.fromkeys(
    map(
        ord,
        "\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\ufeff"
        "\u206a\u206b\u206c\u206d\u206e\u206f",
    )
)
# Bidirectional overrides and isolates let a name display as something it is not.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _folded(path: str) -> str:
    # NFKC first: fullwidth `．．／` and `＼` would otherwise slip past every check
    # below and become `../` and `\` on a client that normalises names.
    return unicodedata.normalize("NFKC", path)


def _unsafe(path: str, rule_id: str, description: str) -> Finding:
    return Finding(path, 0, rule_id, description, FindingKind.UNSAFE_PATH)


def _is_control(char: str) -> bool:
    return unicodedata.category(char) == "Cc" or char in _BIDI_CONTROLS


def check_path(path: str) -> Finding | None:
    """Why `path` may not name a file in a memory repository, or None when it may."""
    folded = _folded(path)
    if "\0" in folded:
        return _unsafe(path, "path-nul", "path contains a NUL byte")
    if any(_is_control(c) for c in folded):
        return _unsafe(path, "path-control-character", "path contains a control character")
    if "\\" in folded:
        return _unsafe(path, "path-backslash", "path contains a backslash")
    if folded.startswith("/") or _DRIVE.match(folded):
        return _unsafe(path, "path-absolute", "path is absolute")
    parts = folded.split("/")
    if ".." in parts:
        return _unsafe(path, "path-parent", "path has a `..` component")
    if "" in parts:
        return _unsafe(path, "path-empty-component", "path is empty or has an empty component")
    if "." in parts:
        return _unsafe(path, "path-dot", "path has a `.` component")
    if any(_opens_git_directory(part) for part in parts):
        return _unsafe(path, "path-git-directory", "path enters a `.git` directory")
    return None


def _opens_git_directory(name: str) -> bool:
    """Whether some client's file system would take `name` for `.git` (as Git's fsck does).

    A checkout would then write into the repository's own metadata: `.GIT` on
    case-insensitive systems, `.g\u200cit` on HFS+, and on NTFS `.git.`, `.git `,
    `.git::$INDEX_ALLOCATION` and the short name `git~1`.
    """
    folded = name.translate(_HFS_IGNORED).casefold()
    ntfs = folded.split(":", 1)[0].rstrip(". ")
    return ".git" in (folded, ntfs) or ntfs == "git~1"


def check_symlink(path: str, target: str) -> Finding | None:
    """Why a symlink at `path` pointing to `target` is refused, or None.

    The target is resolved lexically from the link's directory: it is refused when it
    is absolute or when its `..` components climb above the repository root. A
    backslash counts as a separator, as it does for a Windows client.
    """
    folded = _folded(target)
    leaves = Finding(
        path,
        0,
        "symlink-outside",
        "symlink target leaves the memory directory",
        FindingKind.UNSAFE_PATH,
    )
    if not folded or "\0" in folded:
        return leaves
    if folded.startswith(("/", "\\")) or _DRIVE.match(folded):
        return leaves
    where = _folded(path).split("/")[:-1]
    for part in re.split(r"[/\\]", folded):
        if part in ("", "."):
            continue
        if part == "..":
            if not where:
                return leaves
            where.pop()
        else:
            where.append(part)
    if any(part.casefold() == ".git" for part in where):
        return _unsafe(path, "symlink-git-directory", "symlink target is inside `.git`")
    return None


def _first_bad_line(data: bytes, error: UnicodeDecodeError) -> int:
    return data.count(b"\n", 0, error.start) + 1


def check_blob(path: str, data: bytes) -> list[Finding]:
    """Why the blob `data` stored at `path` may not enter team memory (empty: it may).

    Over `MAX_BLOB_BYTES` it is refused without reading further. A Markdown file must
    be UTF-8 and is scanned for secrets; any other file is scanned too, binary or not: a
    NUL byte does not make a pasted key any less readable (the text between NULs is
    scanned as it decodes).
    """
    if len(data) > MAX_BLOB_BYTES:
        return [
            Finding(
                path,
                0,
                "max-blob-size",
                f"{len(data):,} bytes, over the {MAX_BLOB_BYTES:,}-byte limit",
                FindingKind.TOO_LARGE,
            )
        ]
    if path.lower().endswith(".md"):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = _first_bad_line(data, error)
            return [
                Finding(
                    path, line, "utf-8", "Markdown that is not valid UTF-8", FindingKind.NOT_UTF8
                )
            ]
        return scan_text(path, text)
    text = data.decode("utf-8", errors="replace")
    # The text runs between NULs are what a person pasted: each is read as a line of its
    # own, so a key ends where its run ends, as it would at a line's end.
    return scan_text(path, text.replace("\0", "\n") if "\0" in text else text)
