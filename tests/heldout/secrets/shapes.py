"""Random bodies in the shapes providers document: alphabets, base64, JWTs, key blocks.

Everything is drawn from the `random.Random` the caller passes, so one seed gives one
corpus. Prefixes are joined at run time (`glue`) so that no secret-shaped literal sits in
the repository for a push-protection scanner to stop.
"""

from __future__ import annotations

import base64
import json
import random
import string

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
LETTERS = UPPER + LOWER
ALNUM = LETTERS + DIGITS
HEX = "0123456789abcdef"
HEX_UPPER = HEX.upper()
BASE64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE32 = UPPER + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

WORDS = (
    "kastanie",
    "sommer",
    "bergsee",
    "falcon",
    "harbor",
    "maple",
    "tiger",
    "orbit",
    "lantern",
    "pepper",
    "river",
    "nimbus",
    "quartz",
    "zitrone",
    "dragon",
    "winter",
)
SYMBOLS = "!#$%&*?@^"


def glue(*parts: str) -> str:
    """A prefix written in pieces, so the source never holds it whole."""
    return "".join(parts)


def draw(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def noise(rng: random.Random, length: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(length))


def uuid4(rng: random.Random) -> str:
    h = draw(rng, HEX, 32)
    variant = rng.choice("89ab")
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{variant}{h[17:20]}-{h[20:]}"


def human_password(rng: random.Random) -> str:
    """What people really choose: a word, a year or a number, a symbol."""
    word = rng.choice(WORDS)
    word = word.capitalize() if rng.random() < 0.7 else word
    tail = str(rng.randint(1970, 2030)) if rng.random() < 0.5 else str(rng.randint(1, 999))
    return word + tail + rng.choice(SYMBOLS)


def random_password(rng: random.Random) -> str:
    """What a password manager generates."""
    return draw(rng, ALNUM + "!%*+-_.~", rng.randint(14, 28))


def password(rng: random.Random) -> str:
    return human_password(rng) if rng.random() < 0.4 else random_password(rng)


def url_password(rng: random.Random) -> str:
    # Characters that may stand in a URL's userinfo without percent-encoding.
    if rng.random() < 0.4:
        return human_password(rng).rstrip(SYMBOLS) + rng.choice("!*-_.~")
    return draw(rng, ALNUM + "-_.~", rng.randint(16, 32))


def _der_length(n: int) -> bytes:
    return bytes([0x82, n >> 8, n & 0xFF])


# DER openings of the documented encodings: PKCS#1 RSA, SEC1 EC, PKCS#8, PKCS#8 encrypted.
DER_HEADS = {
    "RSA PRIVATE KEY": b"\x30" + _der_length(1190) + b"\x02\x01\x00\x02\x82\x01\x01\x00",
    "EC PRIVATE KEY": b"\x30\x77\x02\x01\x01\x04\x20",
    "PRIVATE KEY": b"\x30" + _der_length(1214) + b"\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48",
    "ENCRYPTED PRIVATE KEY": b"\x30" + _der_length(1308) + b"\x30\x4e\x06\x09\x2a\x86\x48\x86",
}
DER_SIZES = {
    "RSA PRIVATE KEY": 1190,
    "EC PRIVATE KEY": 110,
    "PRIVATE KEY": 1214,
    "ENCRYPTED PRIVATE KEY": 1308,
}


def wrap(text: str, width: int = 64) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)]


def pem_body(rng: random.Random, label: str) -> list[str]:
    head = DER_HEADS[label]
    return wrap(b64(head + noise(rng, DER_SIZES[label] - len(head))))


def openssh_body(rng: random.Random) -> list[str]:
    blob = b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none" * 2 + noise(rng, 380)
    return wrap(b64(blob), 70)


def pgp_body(rng: random.Random) -> list[str]:
    # A secret-key packet (tag 5, old format) opens "lQ…"; the armour ends in a CRC line.
    return wrap(b64(b"\x95\x07\x46\x04" + noise(rng, 1400)), 64)


def pgp_checksum(rng: random.Random) -> str:
    return "=" + b64(noise(rng, 3))


def jwt(rng: random.Random, claims: int = 6) -> str:
    """A signed JWT: real base64url JSON header and payload, a random signature."""
    alg = rng.choice(["HS256", "RS256", "ES256"])
    header = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        header["kid"] = draw(rng, URLSAFE, 22)
    payload: dict[str, object] = {
        "sub": uuid4(rng),
        "iss": rng.choice(["https://auth.shop.example", "https://login.acme.internal/realms/dev"]),
        "iat": rng.randint(1_700_000_000, 1_760_000_000),
        "exp": rng.randint(1_760_000_000, 1_790_000_000),
    }
    for i in range(claims):
        payload[f"https://acme.example/claims/{i}"] = draw(rng, LOWER + DIGITS, rng.randint(8, 40))
    signature = {"HS256": 32, "RS256": 256, "ES256": 64}[alg]
    parts = (json.dumps(header), json.dumps(payload))
    return ".".join([*(b64url(p.encode()) for p in parts), b64url(noise(rng, signature))])
