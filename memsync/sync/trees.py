"""Trees only a crafted push can hold, refused with the file and the rule they break.

Git's own fsck (``receive.fsckObjects``) refuses them too, but before the pre-receive
hook runs, naming an object id instead of a file (``hasDotgit: contains '.git'``).
The server turns those particular fsck checks off (``CRAFTED_TREE_CHECKS`` in
``memsync/sync/hooks.py``) and the hook makes each of them here, on every tree the
push brings, reachable or not, so the pusher reads which file, which rule and what to
do. A refused push is deleted with its quarantine: no crafted tree is ever stored.

Names Git would refuse for what they say (``..``, ``.git`` in any spelling, empty) are
judged by ``memsync.secrets.check_path`` on the full path, like every pushed name;
this module judges what only the raw tree shows.
"""

from __future__ import annotations

from memsync.secrets import Finding, FindingKind
from memsync.store.objects import TREE_MODE, PushedTree

# The modes `git` itself writes: file, executable, directory, link, submodule.
STANDARD_MODES = frozenset({"100644", "100755", TREE_MODE, "120000", "160000"})


def tree_findings(tree: PushedTree, shown_prefix: str | None = None) -> list[Finding]:
    """What is wrong with the entries of one pushed tree, each named by its path.

    `shown_prefix` replaces the tree's own path in the names shown (for a tree no
    pushed commit reaches, which has none).
    """
    findings: list[Finding] = []
    seen: set[bytes] = set()
    previous_key: bytes | None = None
    for entry in tree.entries():
        name = entry.path.removeprefix(tree.prefix)
        path = (shown_prefix or tree.prefix.decode("utf-8", "backslashreplace")) + name.decode(
            "utf-8", "backslashreplace"
        )
        key = name + b"/" if entry.mode == TREE_MODE else name
        findings += _entry_findings(path, name, entry.mode, entry.sha)
        if name in seen:
            findings.append(_crafted(path, "tree-duplicate-name", "the name is twice in its tree"))
        elif previous_key is not None and key < previous_key:
            findings.append(_crafted(path, "tree-order", "its tree lists entries out of order"))
        seen.add(name)
        previous_key = key
    return findings


def _entry_findings(path: str, name: bytes, mode: str, sha: str) -> list[Finding]:
    findings = []
    if b"/" in name:
        findings.append(_crafted(path, "tree-name-slash", "one tree entry's name contains `/`"))
    if mode not in STANDARD_MODES:
        findings.append(_crafted(path, "tree-mode", f"file mode {mode} is not one Git writes"))
    if not sha.strip("0"):
        findings.append(_crafted(path, "tree-null-id", "it points at the all-zero object id"))
    return findings


def _crafted(path: str, rule_id: str, description: str) -> Finding:
    # The advice of an unsafe path fits: recommit the file under a plain name with a
    # normal `git commit`, which cannot write any of these trees.
    return Finding(path, 0, rule_id, description, FindingKind.UNSAFE_PATH)
