"""TLS: the organizer client and a hosted bot (given ARENA_TLS_CA) talk to a TLS referee."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from referee.client import RefereeClient
from referee.engine import TimeControl
from referee.matchspec import MatchSpec, RefereeUnavailable, SeatSpec
from referee.service.server import RefereeThread
from referee.service.tokens import TokenStore


@pytest.fixture()
def cert(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    crt, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out",
                    str(crt)],
                   check=True, capture_output=True)
    return str(crt), str(key)


def test_tls_referee(cert, tmp_path, monkeypatch) -> None:
    crt, key = cert
    monkeypatch.setenv("ARENA_EXTRA_GAMES", "sealed_bids=tests.fixtures.sealed_bids:GAME")
    monkeypatch.setenv("PYTHONPATH", str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    with RefereeThread("localhost:0", store=TokenStore(f"sqlite:///{tmp_path / 't.db'}"), tls_cert=crt,
                       tls_key=key) as ref:
        with RefereeClient(ref.address, ref.organizer_token) as plain, pytest.raises(RefereeUnavailable):
            plain.run_match(MatchSpec("x", "sealed_bids", 1, [SeatSpec("a"), SeatSpec("b")]), timeout_s=3)
        with RefereeClient(ref.address, ref.organizer_token, tls_ca=crt) as c:
            assert c.health()
            bot = f"{sys.executable} -m bots.serve random"
            r = c.run_match(MatchSpec("tls-1", "sealed_bids", 1, [SeatSpec("a", bot), SeatSpec("b", bot)],
                                      {"rounds": 2}, TimeControl(per_decision_ms=5000)), timeout_s=60)
            assert r.outcome["reason"] == "normal", r.logs
