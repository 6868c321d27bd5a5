"""The red team: an evil hosted bot attacks a real referee from inside its real sandbox.

Each test plays one Clank match, the evil bot (tests/security/evil_bot.py) in seat 0 and the
honest built-in random bot in seat 1. Every attack must be blocked; the honest seat's match
finishes normally; where the attack breaks a limit, the evil seat forfeits and the reason names it.
"""
from __future__ import annotations

import os
import re
import time
import uuid
from pathlib import Path

import pytest

from .conftest import Played, play


def assert_blocked(p: Played, *names: str) -> None:
    got = p.attacks()
    log = p.logs.get(f"seat{p.evil_seat}", "")
    for name in names:
        assert name in got, f"attack {name} did not report (seat{p.evil_seat} log:\n{log[-2000:]})"
        assert got[name].startswith("blocked"), f"attack {name} {got[name]}"


def assert_honest_finished(p: Played) -> None:
    """The honest seat was never forfeited and played its own decisions (nobody else played them)."""
    seat = 1 - p.evil_seat
    assert p.forfeit(seat) is None, p.replay.get("forfeits")
    mine = sum(1 for a in p.replay["actions"] if a["seat"] == seat)
    assert mine > 0
    assert f"{mine} decisions" in p.logs.get(f"seat{seat}", ""), (mine, p.logs.get(f"seat{seat}"))


def test_other_processes_and_the_opponent_are_invisible(referee, how: str) -> None:
    p = play(referee, "procs", "stop", "ptrace", "steal", "referee_env", how=how, match_id="rt-procs")
    assert_blocked(p, "procs", "stop", "ptrace", "steal", "referee_env")
    assert p.outcome["reason"] == "normal" and p.forfeit(0) is None
    assert_honest_finished(p)


def test_the_store_is_out_of_reach(referee, how: str) -> None:
    # the attacker guesses the right path: it still is not there
    p = play(referee, "store", how=how, match_id="rt-store", env={"EVIL_GUESS_HOME": str(referee.home)})
    assert_blocked(p, "store")
    assert_honest_finished(p)


def test_no_network_and_no_writes_outside(referee, tmp_path: Path, how: str) -> None:
    target = tmp_path / "drop"
    target.mkdir()
    target.chmod(0o777)  # only the sandbox may stop the write, not the permissions
    port = referee.address.rpartition(":")[2]
    p = play(referee, "net", "write", how=how, match_id="rt-net",
             env={"EVIL_REFEREE_TCP_PORT": port, "EVIL_WRITE_TO": str(target)})
    assert_blocked(p, "net_referee_tcp", "net_outside", "write")
    assert "unreachable" in p.attacks()["net_outside"].lower()
    assert list(target.iterdir()) == []
    assert_honest_finished(p)


def test_token_cannot_be_reused(referee, how: str) -> None:
    p = play(referee, "reuse", how=how, match_id="rt-reuse")
    assert_blocked(p, "reuse")
    assert_honest_finished(p)


def test_shared_memory_over_the_limit_forfeits_out_of_memory(referee, how: str) -> None:
    t0 = time.monotonic()
    p = play(referee, "shm", how=how, match_id="rt-shm", env={"EVIL_SHM_MB": "512"})
    assert "succeeded" not in p.attacks().get("shm", "")
    assert "out of memory" in (p.forfeit(0) or ""), p.replay.get("forfeits")
    assert_honest_finished(p)
    assert time.monotonic() - t0 < 30


def test_fork_loop_forfeits_too_many_processes(referee, how: str) -> None:
    p = play(referee, "forks", how=how, match_id="rt-forks", env={"EVIL_FORKS": "200"})
    assert "succeeded" not in p.attacks().get("forks", "")
    assert "too many processes" in (p.forfeit(0) or ""), p.replay.get("forfeits")
    assert_honest_finished(p)


def test_cpu_burner_forfeits_cpu_time(referee, how: str) -> None:
    p = play(referee, "cpu", how=how, match_id="rt-cpu", env={"EVIL_CPU_S": "20"})
    assert "succeeded" not in p.attacks().get("cpu", "")
    assert "cpu time" in (p.forfeit(0) or "").lower(), p.replay.get("forfeits")
    assert_honest_finished(p)


def _alive_named(name: str) -> list[int]:
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                comm = Path(f"/proc/{pid}/comm").read_text().strip()
            except OSError:
                continue
            if comm == name[:15]:
                out.append(int(pid))
    return out


def test_setsid_child_dies_with_the_match(referee, how: str) -> None:
    name = f"surv{uuid.uuid4().hex[:8]}"
    p = play(referee, "setsid", how=how, match_id="rt-setsid", env={"EVIL_SURVIVOR_NAME": name})
    assert p.attacks().get("setsid", "").startswith("succeeded")  # it could start one inside ...
    deadline = time.monotonic() + 5
    while _alive_named(name) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _alive_named(name) == []  # ... which did not outlive the match
    assert_honest_finished(p)


@pytest.mark.parametrize("attack,reason", [("crash", "the bot exited with code 3 during the match"),
                                           ("suicide", "killed by signal SIGKILL")])
def test_a_dead_bot_forfeits_with_a_clear_reason(referee, attack: str, reason: str, how: str) -> None:
    p = play(referee, attack, how=how, match_id=f"rt-{attack}")
    assert reason in (p.forfeit(0) or ""), p.replay.get("forfeits")
    assert_honest_finished(p)


def test_environment_is_an_allow_list(referee, how: str) -> None:
    p = play(referee, "own_env", "zygote_import", "import_roots", how=how, match_id="rt-env")
    assert_blocked(p, "own_env", "zygote_import", "import_roots")


def _descends_from(pid: int, root: int) -> bool:
    for _ in range(64):
        if pid == root:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat.rpartition(")")[2].split()[1])
        if pid <= 1:
            return False
    return False


def _sandboxed_token(seat: int, root: int, deadline_s: float = 10) -> str:
    """What a host-side attacker with root could read: the token in the sandboxed bot's environment
    (only among this referee's descendants: the machine runs other referees too)."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or not _descends_from(int(pid), root):
                continue
            try:
                raw = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            env = dict(x.split(b"=", 1) for x in raw.split(b"\0") if b"=" in x)
            if env.get(b"ARENA_SEAT") == str(seat).encode() and env.get(b"ARENA_TOKEN",
                                                                        b"").startswith(b"hosted_"):
                return env[b"ARENA_TOKEN"].decode()
        time.sleep(0.05)
    raise AssertionError("no sandboxed bot with a token found")


def test_a_hosted_token_is_refused_over_tcp(referee) -> None:
    """Even with the token in hand (read as root while the bot waits), TCP gets nothing."""
    import threading

    from bots.random_bot import RandomBot
    from bots.sdk.client import BotRefused, run

    result: dict[str, Played] = {}
    t = threading.Thread(target=lambda: result.setdefault("p", play(referee, "delay", match_id="rt-tcp",
                                                                     env={"EVIL_DELAY_S": "8"})))
    t.start()
    token = _sandboxed_token(0, referee.proc.pid)
    with pytest.raises(BotRefused, match="accepted only from its sandbox"):
        run(lambda start: RandomBot(1), referee.address, token, reconnect=False, once=True)
    t.join(90)
    p = result["p"]
    assert p.forfeit(0) is None and p.outcome["reason"] == "normal"  # the real bot got its seat
    assert_honest_finished(p)


def test_store_and_log_are_private_and_the_seed_is_never_logged(referee) -> None:
    play(referee, match_id="rt-private")
    db = referee.home / "referee.db"
    assert db.exists() and db.stat().st_mode & 0o077 == 0, oct(db.stat().st_mode)
    assert "4242" not in referee.log()  # the seed every match here is dealt from
    assert "hosted bots: sandboxed" in referee.log()


def test_nothing_survives_into_the_next_match(referee, how: str) -> None:
    """Pre-started sandboxes serve one seat each: the second match's bot starts from a clean slate."""
    first = play(referee, "persist", how=how, match_id="rt-persist-1")
    second = play(referee, "persist", how=how, match_id="rt-persist-2")
    assert_blocked(first, "persist")
    assert_blocked(second, "persist")
    assert_honest_finished(second)
    if how == "zygote":  # the very same warm sandbox served both matches
        launched = [re.search(r"seat 0 \(evil\) launched: pid (\d+)", p.logs["referee"])
                    for p in (first, second)]
        assert launched[0] and launched[1] and launched[0].group(1) == launched[1].group(1)


CARRY_PLACES = ("carry_cwd", "carry_tmp", "carry_home", "carry_shm", "carry_var_tmp", "carry_abstract_socket")


def test_a_bot_cannot_carry_anything_into_the_twin_of_its_deal(referee, how: str) -> None:  # type: ignore[no-untyped-def]
    """The two halves of a paired deal (one seed, seats swapped), played one after the other by the
    same command through the referee's pre-started sandboxes (and its zygote for ``python -m``):
    the first leaves what it knows wherever it can write and in an abstract unix socket held by a
    child that tries to outlive the match; the twin finds none of it."""
    first = play(referee, "carry", how=how, match_id="rt-carry-a", seed=777, evil_seat=0)
    twin = play(referee, "carry", how=how, match_id="rt-carry-b", seed=777, evil_seat=1)
    assert first.replay["seed"] == twin.replay["seed"] == 777
    assert [s["bot"] for s in first.replay["seats"]] == ["evil", "honest"]
    assert [s["bot"] for s in twin.replay["seats"]] == ["honest", "evil"]
    for p in (first, twin):
        got = p.attacks()
        # the search is not blind: each half finds its own marks, and could leave them in the usual
        # places (the working directory is read-only for a zygote-served module)
        assert got.get("carry_selftest", "").startswith("succeeded"), got
        assert {"tmp", "home", "abstract_socket"} <= set(got["carry_left"].split()), got["carry_left"]
        assert_blocked(p, *CARRY_PLACES)
        assert_honest_finished(p)
