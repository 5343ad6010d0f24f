"""Three-way merge of ``MEMORY.md`` by entry, for the ``memsync merge-index`` driver.

The index is derived data, so its merge must never fail or leave conflict markers.
Entries are keyed by the file they link to. Starting from our side:

* an entry added on either side is kept — theirs goes under the heading where they
  put it, after the entry it followed there when that entry is here too;
* an entry removed on one side and untouched on the other goes; removed on one side
  but changed on the other, it stays (nothing is lost);
* an entry changed on one side takes that change; changed on both, theirs (the
  incoming side) wins;
* every non-entry line of ours stays where it stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from memsync.memory import IndexEntry, MemoryIndex


@dataclass(frozen=True)
class _Shape:
    title: str
    hook: str


def _key(entry: IndexEntry) -> str:
    return entry.file or entry.target


def _by_key(index: MemoryIndex) -> dict[str, IndexEntry]:
    found: dict[str, IndexEntry] = {}
    for entry in index.entries:
        found.setdefault(_key(entry), entry)
    return found


def _shape(entry: IndexEntry | None) -> _Shape | None:
    return None if entry is None else _Shape(entry.title, entry.hook)


def merge_index(base: MemoryIndex, ours: MemoryIndex, theirs: MemoryIndex) -> MemoryIndex:
    base_entries, our_entries, their_entries = _by_key(base), _by_key(ours), _by_key(theirs)
    result = ours

    for key, mine in our_entries.items():
        original = _shape(base_entries.get(key))
        incoming = their_entries.get(key)
        if incoming is None:
            if original is not None and _shape(mine) == original:
                result = result.without_entry(mine.target)  # they removed it, we didn't touch it
            continue
        if _shape(incoming) != original and _shape(incoming) != _shape(mine):
            result = result.with_entry(incoming.title, mine.target, incoming.hook)

    for incoming in theirs.entries:
        key = _key(incoming)
        if key in our_entries or _key_present(result, key):
            continue
        original = _shape(base_entries.get(key))
        if original is not None and _shape(incoming) == original:
            continue  # we removed it and they didn't change it
        ours_only = set(our_entries) - set(base_entries) - set(their_entries)
        result = _insert_like_theirs(result, theirs, incoming, ours_only)
    return result


def _key_present(index: MemoryIndex, key: str) -> bool:
    return any(_key(entry) == key for entry in index.entries)


def _insert_like_theirs(
    result: MemoryIndex, theirs: MemoryIndex, entry: IndexEntry, ours_only: set[str]
) -> MemoryIndex:
    """Put ``entry`` where theirs had it: after the entry it followed under the same
    heading (and after any entries only we added right there, so our additions come
    first, as in a union), else at the end of that heading's section, else at the end."""
    heading = theirs.heading_for(entry)
    previous = _previous_entry_under(theirs, entry, heading)
    if previous is not None:
        anchor = result.entry_for(previous.target)
        if anchor is not None and result.heading_for(anchor) == heading:
            following = {e.line: e for e in result.entries}
            while (nxt := following.get(anchor.line + 1)) is not None and _key(nxt) in ours_only:
                anchor = nxt
            return _insert_after(result, anchor, entry)
    return result.with_entry(entry.title, entry.target, entry.hook, heading=heading)


def _previous_entry_under(
    index: MemoryIndex, entry: IndexEntry, heading: str | None
) -> IndexEntry | None:
    before = [e for e in index.entries if e.line < entry.line and index.heading_for(e) == heading]
    return before[-1] if before else None


def _insert_after(result: MemoryIndex, anchor: IndexEntry, entry: IndexEntry) -> MemoryIndex:
    # Lines split on "\n" only, exactly as MemoryIndex numbers them.
    parts = result.render().split("\n")
    carriage = "\r" if parts[anchor.line - 1].endswith("\r") else ""
    parts.insert(anchor.line, entry.raw + carriage)
    return MemoryIndex.parse("\n".join(parts))


def merge_index_bytes(base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """The driver's whole job on raw file contents; never raises on content."""
    merged = merge_index(
        MemoryIndex.parse_bytes(base),
        MemoryIndex.parse_bytes(ours),
        MemoryIndex.parse_bytes(theirs),
    )
    return merged.render_bytes()
