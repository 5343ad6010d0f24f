"""Claude Code's project directory names (SPEC D1).

Expected values were computed with Claude Code's JavaScript on Node:
``name.replace(/[^a-zA-Z0-9]/g, '-')`` and ``Math.abs(djb2Hash(name)).toString(36)``.
"""

from __future__ import annotations

from memsync.memory import MAX_SANITIZED_LENGTH, djb2_hash, sanitize_path

DEEP = "/Users/someone/" + "deep/" * 60


def test_every_character_outside_ascii_letters_and_digits_becomes_a_dash() -> None:
    assert sanitize_path("/Users/foo/my-project") == "-Users-foo-my-project"
    assert sanitize_path("C:\\Users\\dev\\app_v2.0") == "C--Users-dev-app-v2-0"
    assert sanitize_path("/home/zoë/项目") == "-home-zo----"
    assert sanitize_path("plugin:name:server") == "plugin-name-server"


def test_a_character_beyond_the_bmp_is_two_dashes_as_in_javascript() -> None:
    assert sanitize_path("/tmp/a😀b") == "-tmp-a--b"


def test_names_up_to_200_characters_are_kept_whole() -> None:
    assert sanitize_path("/" + "a" * 199) == "-" + "a" * 199


def test_longer_names_are_cut_to_200_plus_claude_codes_hash_in_base_36() -> None:
    assert sanitize_path("/x" * 150) == "-x" * 100 + "-4y6yx2"
    sanitized = sanitize_path(DEEP)
    assert sanitized == ("-Users-someone-" + "deep-" * 60)[:MAX_SANITIZED_LENGTH] + "-ymiikt"
    assert len(sanitized) == MAX_SANITIZED_LENGTH + len("-ymiikt")


def test_djb2_matches_javascripts_signed_32_bit_arithmetic() -> None:
    assert djb2_hash("hello") == 99162322
    assert djb2_hash(DEEP) == -2093665421
    assert djb2_hash("") == 0
