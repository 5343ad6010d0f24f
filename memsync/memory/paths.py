"""Claude Code's project directory names (SPEC D1).

``~/.claude/projects/<sanitized cwd>/`` names a project by its working directory with
every character outside [A-Za-z0-9] replaced by ``-``. Names longer than 200 are
cut to 200 and given ``-<hash>`` so they stay unique.

Claude Code works in JavaScript strings, so "a character" is a UTF-16 code unit: a
character outside the Basic Multilingual Plane (an emoji) becomes two dashes, and
the 200 are counted in code units. We do the same.

The hash is Claude Code's portable one: djb2 over UTF-16 code units as a signed
32-bit integer (``hash = (hash << 5) - hash + unit``, starting at 0), absolute value,
in base 36. Claude Code builds running on Bun hash with ``Bun.hash`` (wyhash)
instead, so for a path over 200 characters the suffix may differ on such a machine;
callers that look for an existing directory should match on the 200-character
prefix when the exact name is absent.
"""

from __future__ import annotations

MAX_SANITIZED_LENGTH = 200
_DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def djb2_hash(text: str) -> int:
    """Claude Code's ``djb2Hash``: a signed 32-bit integer."""
    value = 0
    for unit in _utf16_units(text):
        value = ((value << 5) - value + unit) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _base36(number: int) -> str:
    if number == 0:
        return "0"
    digits = []
    while number:
        number, remainder = divmod(number, 36)
        digits.append(_DIGITS36[remainder])
    return "".join(reversed(digits))


def sanitize_path(path: str) -> str:
    """``/Users/foo/my-project`` → ``-Users-foo-my-project``."""
    sanitized = "".join(
        chr(unit) if unit < 128 and chr(unit).isalnum() else "-" for unit in _utf16_units(path)
    )
    if len(sanitized) <= MAX_SANITIZED_LENGTH:
        return sanitized
    return f"{sanitized[:MAX_SANITIZED_LENGTH]}-{_base36(abs(djb2_hash(path)))}"
