"""The sandbox of a hosted bot: what it may see, how it is started, and what its end means.

Every hosted seat of every match runs in its own ``bwrap`` (bubblewrap) sandbox:

* new user, pid, network, IPC, UTS, cgroup and mount namespaces (``--unshare-all``); no network
  at all, not even the host's loopback; only its own processes in ``/proc``;
* a read-only view of what it needs: ``/usr`` and the loader's files, the Python runtime and the
  SDK packages, the directory of its program (its ``cwd`` and the files its command names);
  a fresh tmpfs at ``/tmp`` (HOME, TMPDIR; the working directory of a bot without one) that is
  gone when the sandbox ends;
* the referee only through a Unix domain socket bound at ``/run/arena/referee.sock``;
* its seat credential on its standard input, read by the launcher inside the sandbox (nothing
  outside the sandbox sees it in an environment or a command line), valid for one connection
  over that socket;
* an environment built from an allow-list (``ENV_ALLOW`` + the seat's own settings);
* as root: a user of its own (``nobody``), memory/pids/cpuacct control groups; otherwise
  RLIMIT_AS / RLIMIT_NPROC; always RLIMIT_CPU, a wall-time cap and a cap on captured output.

When bwrap or user namespaces are missing the referee refuses hosted bots, unless the organizer
chose ``--unsandboxed-hosted-bots`` (trusted code only: same limits, no isolation).
"""
from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from . import sandbox_cgroup

LAUNCHER = str(Path(__file__).with_name("rlimit_exec.py"))
INSIDE_DIR = "/run/arena"
INSIDE_SOCKET = f"{INSIDE_DIR}/referee.sock"
INSIDE_LAUNCHER = f"{INSIDE_DIR}/launch.py"
#: Host variables a hosted bot may inherit (everything else is dropped: store URLs, ARENA_HOME,
#: organizer token, broker URL, referee keys never pass).
ENV_ALLOW = ("LANG", "LC_ALL", "TZ", "PYTHONPATH")
#: Variables a seat's own settings may not override.
RESERVED_PREFIX = "ARENA_"
#: Python packages a Python bot needs from this installation (the SDK and the protocol stubs).
SDK_PACKAGES = ("bots", "referee")
SANDBOX_UID = int(os.environ.get("ARENA_SANDBOX_UID", "65534"))

Mode = Literal["sandbox", "unsandboxed", "refused"]


@dataclass(frozen=True)
class Limits:
    """Per hosted process tree: CPU seconds, memory MiB, processes, wall seconds (0 = unlimited)."""

    cpu_s: int = 600
    memory_mb: int = 4096
    pids: int = 256
    wall_s: float = 3600.0


@dataclass(frozen=True)
class Support:
    """How this referee runs hosted bots, and why."""

    mode: Mode
    detail: str
    cgroups: bool = False

    def describe(self) -> str:
        if self.mode == "sandbox":
            limits = "cgroup memory+pids+cpuacct" if self.cgroups else "RLIMIT_AS/RLIMIT_NPROC"
            return f"hosted bots: sandboxed ({self.detail}; limits: {limits})"
        if self.mode == "unsandboxed":
            return (f"hosted bots: UNSANDBOXED (--unsandboxed-hosted-bots; {self.detail}): hosted bots can "
                    "see other processes, the network and the disk; run trusted code only")
        return (f"hosted bots: refused (no sandbox: {self.detail}); install bubblewrap, or pass "
                "--unsandboxed-hosted-bots to run trusted bots without one")


def bwrap_path() -> str | None:
    return os.environ.get("ARENA_BWRAP") or shutil.which("bwrap")


@lru_cache(maxsize=4)
def _probe(bwrap: str | None) -> tuple[bool, str]:
    if not bwrap or not os.path.isfile(bwrap):
        return False, "bwrap (Debian package bubblewrap) is not installed"
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True,
                                 timeout=10).stdout.strip()
        trial = subprocess.run([bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc",
                                "/proc", "--dev", "/dev", "true"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"{bwrap} does not run: {exc}"
    if trial.returncode != 0:
        why = (trial.stderr.strip().splitlines() or ["no output"])[-1]
        return False, f"{bwrap} cannot create namespaces here (user namespaces disabled?): {why}"
    return True, version or "bwrap"


def support(allow_unsandboxed: bool) -> Support:
    """Probe the host once: the sandbox when it works, else the explicit unsafe mode or a refusal."""
    ok, detail = _probe(bwrap_path())
    if ok:
        return Support("sandbox", detail, cgroups=os.geteuid() == 0 and sandbox_cgroup.writable())
    if allow_unsandboxed:
        return Support("unsandboxed", detail)
    return Support("refused", detail)


class Channel:
    """The referee's private directory: the hosted bots' socket and the launcher's staging point.

    ``base`` (0711: enterable, not listable) holds ``sock/`` (0700, the socket: only the referee's
    user reaches it on the host; sandboxes get it bound in) and ``stage/`` (0755, empty: a root
    launcher mounts a private tmpfs over it in its own mount namespace to stage the binds).
    """

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="arena-ref-"))
        self.base.chmod(0o711)
        (self.base / "sock").mkdir(mode=0o700)
        (self.base / "stage").mkdir(mode=0o755)
        self.socket = str(self.base / "sock" / "referee.sock")

    @property
    def address(self) -> str:
        return f"unix:{self.socket}"

    def opened(self) -> None:
        """Once the server listens: a sandbox user must be allowed to connect (the directory guards it)."""
        with contextlib.suppress(OSError):
            os.chmod(self.socket, 0o666)

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def _plugin_packages() -> list[str]:
    """Top-level packages of installed games (``arena.games`` entry points: a game may ship its bots)."""
    from importlib.metadata import entry_points

    return sorted({ep.value.partition(":")[0].partition(".")[0] for ep in entry_points(group="arena.games")})


def _package_dirs() -> list[str]:
    """The SDK packages, installed game plugins and, beside the SDK, the wire contract (``proto/``:
    the Node.js SDK loads it)."""
    out = []
    for name in (*SDK_PACKAGES, *_plugin_packages()):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # a broken plugin: the referee reports it elsewhere
            continue
        for loc in (spec.submodule_search_locations or []) if spec else []:
            out.append(str(Path(loc).resolve()))
            if (Path(loc).resolve().parent / "proto").is_dir():
                out.append(str(Path(loc).resolve().parent / "proto"))
    return out


def _import_roots() -> list[str]:
    """The directories the bound SDK and plugin packages are imported from (their parents): on the
    bot's PYTHONPATH, so the bot imports the code the referee binds. Without them a venv whose editable
    install points at another checkout than the one the referee runs from finds no ``bots`` inside."""
    roots = [str(Path(d).parent) for d in _package_dirs() if Path(d).name != "proto"]
    return list(dict.fromkeys(roots))


def _runtime_dirs() -> list[str]:
    dirs = [sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))]
    return [str(Path(d).resolve()) for d in dirs]


def _under(path: str, roots: list[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def _command_dirs(argv: list[str], cwd: str | None) -> list[str]:
    """Directories of the program: argv[0] resolved on PATH, absolute files named in argv, cwd."""
    out = []
    exe = argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0]) or ""
    for p in (exe, os.path.realpath(exe) if exe else ""):
        if p:
            out.append(os.path.dirname(p))
    for a in argv[1:]:
        if os.path.isabs(a) and os.path.exists(a):
            out.append(a if os.path.isdir(a) else os.path.dirname(a))
    if "-m" in argv[1:-1]:  # `python -m pkg.mod`: the bot's own package, where this referee finds it
        top = argv[argv.index("-m", 1) + 1].partition(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            out += list(spec.submodule_search_locations or [])
            if spec.origin and not spec.submodule_search_locations:
                out.append(os.path.dirname(spec.origin))
    if cwd:
        out.append(os.path.realpath(cwd))
    return out


def _binds(argv: list[str], cwd: str | None) -> list[str]:
    """Read-only binds at the same path inside, outermost first, each path once."""
    wanted = ["/usr", *_runtime_dirs(), *_package_dirs(), *_command_dirs(argv, cwd)]
    for f in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
              "/etc/localtime"):
        if os.path.exists(f):
            wanted.append(f)
    chosen: list[str] = []
    for p in sorted({os.path.realpath(w) for w in wanted if w and os.path.exists(w)}, key=len):
        if not _under(p, chosen) and p != "/":
            chosen.append(p)
    return chosen


def bot_env(seat_env: dict[str, str]) -> dict[str, str]:
    """The allow-listed environment (the token, match id and seat are added inside the sandbox)."""
    env = {k: os.environ[k] for k in ENV_ALLOW if k in os.environ}
    env.update({k: v for k, v in seat_env.items() if not k.upper().startswith(RESERVED_PREFIX)})
    # after the bot's own path: the SDK the referee binds (``_import_roots``)
    given = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([*given, *_import_roots()]))
    path = [os.path.dirname(sys.executable), os.path.join(sys.base_prefix, "bin"), "/usr/local/bin",
            "/usr/bin", "/bin"]
    env.update({"PATH": ":".join(dict.fromkeys(path)), "HOME": "/tmp", "TMPDIR": "/tmp",
                "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1", "LANG": env.get("LANG", "C.UTF-8")})
    return env


def zygote_module(argv: list[str]) -> str:
    """``M`` when the command is ``<this interpreter> -m M ...``: such a bot can run from a zygote."""
    if len(argv) >= 3 and argv[1] == "-m" and os.path.realpath(argv[0]) == os.path.realpath(sys.executable):
        return argv[2]
    return ""


def plan(argv: list[str], cwd: str | None, seat_env: dict[str, str], channel: Channel, limits: Limits,
         group: str, sup: Support, *, warm: bool = False, status_fd: int = -1,
         writable: tuple[str, ...] = (), readonly: tuple[str, ...] = ()) -> dict[str, Any]:
    """What ``rlimit_exec.py`` needs to start one hosted bot (sent on its stdin, never in argv).

    ``writable`` (a submitted package's build, ``arena.submissions.build``): directories bound
    read-write; the command then runs at once, with no seat credential to wait for. ``readonly``: more
    directories bound read-only at their own paths (a build's warm cache)."""
    env = bot_env(seat_env)
    base: dict[str, Any] = {"cpu_s": limits.cpu_s, "memory_mb": limits.memory_mb, "pids": limits.pids,
                            "argv": argv, "env": env}
    if sup.mode != "sandbox":
        env["ARENA_REFEREE"] = channel.address
        return {**base, "mode": "unsandboxed", "cwd": cwd}
    env["ARENA_REFEREE"] = f"unix:{INSIDE_SOCKET}"
    root = os.geteuid() == 0
    pre = ["--unshare-all", "--die-with-parent", "--new-session", "--hostname", "arena-bot",
           "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", INSIDE_DIR]
    # (the binds come between pre and post) /tmp is then the only writable place
    for link in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(link):
            pre += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            pre += ["--ro-bind", link, link]
    rw = [os.path.realpath(p) for p in writable]
    for p in rw:  # made before `/` turns read-only: a writable bind outside /tmp needs its mount point
        pre += ["--dir", p]
    binds = [[p, p] for p in _binds(argv, cwd) if p not in rw]  # (a writable one is bound once, below)
    binds += [[p, p] for p in map(os.path.realpath, readonly) if p not in rw]
    binds += [[channel.socket, INSIDE_SOCKET], [LAUNCHER, INSIDE_LAUNCHER]]
    post = ["--remount-ro", "/", "--remount-ro", "/dev", "--chdir", os.path.realpath(cwd) if cwd else "/tmp"]
    # a Python bot started as `-m module` is pre-loaded by the launcher (site needed); others exec'd;
    # a warm sandbox is a zygote serving one match at a time, each in nested namespaces
    preload = bool(zygote_module(argv))
    stage_name = "zygote" if warm and preload else "run" if writable else "inside"
    inner = [sys.executable, *([] if preload else ["-S"]), "-I", INSIDE_LAUNCHER, stage_name]
    if stage_name == "zygote":
        # the zygote pre-loads only the platform's code: modules found in these directories
        inner += [str(status_fd), os.pathsep.join([*_package_dirs(), *_runtime_dirs()])]
    else:  # only a zygote makes namespaces (one per match); a one-shot bot may not make any
        pre += ["--unshare-user", "--disable-userns"]
    return {**base, "mode": "sandbox", "bwrap": bwrap_path(), "pre": pre, "binds": binds, "post": post,
            "inner": inner, "stage": str(channel.base / "stage") if root else "",
            "uid": SANDBOX_UID if root else -1, "cgroup": group if sup.cgroups else "",
            "rw": [[p, p] for p in rw]}


def exit_reason(code: int, sandboxed: bool, cpu_s: int) -> str:
    """Why a hosted bot's process ended, from its exit status (bwrap reports 128+N for signal N).

    A plain exit gets the engine's own wording (``driver.exit_reason``), as an in-process agent
    would: a match gives the same replay however it was played."""
    from referee.engine.driver import exit_reason as exited

    sig = -code if code < 0 else (code - 128 if sandboxed and code > 128 else 0)
    if sig == signal.SIGXCPU:
        return f"the bot was stopped: CPU time exhausted (limit {cpu_s}s)"
    if sig:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return f"the bot was killed by signal {name} during the match"
    return exited(code)


def violation_reason(violation: str) -> str:
    """A broken sandbox limit as a forfeit reason (``out of memory (limit 64 MiB)`` ...)."""
    return f"the bot was stopped: {violation}"
