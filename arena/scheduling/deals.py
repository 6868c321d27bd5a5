"""Secret, verifiable deals: every match seed is an HMAC of its deal label under the tournament's key.

A tournament has a random 256-bit *key* (kept in the store, published once the tournament is
over) and a public *label* (``--seed``, an integer the organizer picks). A match is dealt from a
*deal*: a public string naming what is dealt (``group/a|b/0`` = the first deal of the pairing
a-b). Its seed is ``HMAC-SHA256(key, f"{label}\\x1f{deal}")``, first 4 bytes big-endian, top bit
cleared (31 bits: a PostgreSQL integer)::

    >>> deal_seed("00" * 32, 7, "group/a|b/0") == deal_seed("00" * 32, 7, "group/a|b/0")
    True
    >>> deal_seed("00" * 32, 7, "group/a|b/0") != deal_seed("00" * 32, 8, "group/a|b/0")
    True

Without the key a published seed says nothing about any other seed (HMAC is a PRF); with it,
anyone can recompute every seed of a finished tournament (``verify``). Matches that share a deal
form a *deal group* (paired deals: the luck of the deal cancels between the seat orders).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from referee.engine.errors import ArenaError

KEY_BYTES = 32


class BadKey(ArenaError):
    """A deal key that is not 64 hex digits."""

    code = "bad_key"


def new_key() -> str:
    """A fresh random key (hex), from the operating system's CSPRNG."""
    return secrets.token_hex(KEY_BYTES)


def check_key(key: str) -> str:
    """The key normalised to lower-case hex; ``BadKey`` if it is not 32 bytes of hex."""
    k = key.strip().lower()
    try:
        raw = bytes.fromhex(k)
    except ValueError:
        raise BadKey("a deal key is 64 hex digits (32 bytes)") from None
    if len(raw) != KEY_BYTES:
        raise BadKey(f"a deal key is 64 hex digits (32 bytes), not {len(k)} digits")
    return k


def deal_seed(key: str, label: int, deal: str) -> int:
    """The seed of ``deal`` in a tournament with this key and public label."""
    mac = hmac.new(bytes.fromhex(key), f"{label}\x1f{deal}".encode(), hashlib.sha256)
    return int.from_bytes(mac.digest()[:4], "big") & 0x7FFFFFFF


@dataclass(frozen=True)
class Dealer:
    """Seeds for one tournament: its secret key and its public label."""

    key: str
    label: int = 0

    def seed(self, deal: str) -> int:
        return deal_seed(self.key, self.label, deal)

    @classmethod
    def fresh(cls, label: int = 0) -> Dealer:
        return cls(new_key(), label)


@dataclass(frozen=True)
class Mismatch:
    match: str
    deal: str
    stored: int
    expected: int


def verify(key: str, label: int, matches: Iterable[tuple[str, str, int]]) -> list[Mismatch]:
    """Recompute every ``(match id, deal, stored seed)``; the ones that do not match (none = verified)."""
    k = check_key(key)
    out = []
    for mid, deal, seed in matches:
        expected = deal_seed(k, label, deal)
        if expected != seed:
            out.append(Mismatch(mid, deal, seed, expected))
    return out
