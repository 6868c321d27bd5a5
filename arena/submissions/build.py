"""Building a version: the manifest's build step in the hosted bots' sandbox, with no network.

The package directory is the only writable place besides a fresh ``/tmp`` (HOME, TMPDIR); it is
bound read-write at its own path (``sandbox.plan(..., writable=...)``), everything else the
sandbox sees is read-only, and there is no network at all (not even the host's loopback), so a
package must carry its dependencies. As root the build runs as the sandbox's own user with
control-group limits; it is killed at the build time limit, and its output is capped.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import logging
import os
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from referee.service import sandbox, sandbox_cgroup
from referee.service.sandbox import LAUNCHER, SANDBOX_UID, Channel, Limits

from .manifest import RUNTIMES, Manifest, load

log = logging.getLogger("arena.submissions.build")

#: Most bytes of build output kept in the log.
LOG_LIMIT = 64 << 10
BUILD_MEMORY_MB = 2048
BUILD_PIDS = 256
NO_NETWORK_HINT = "the build runs without network: every dependency must be inside the package"


#: Builds running now (``kill_running`` ends them when the service stops).
_RUNNING: set[subprocess.Popen[bytes]] = set()


def kill_running() -> None:
    for proc in list(_RUNNING):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    log: str
    seconds: float


def _chown_tree(root: Path, uid: int, gid: int) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            with contextlib.suppress(OSError):
                os.lchown(os.path.join(dirpath, name), uid, gid)
    os.lchown(root, uid, gid)


def _seal(root: Path) -> None:
    """After the build: owned by the platform, readable by every user, writable by none but it."""
    if os.geteuid() == 0:
        _chown_tree(root, 0, 0)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            p = os.path.join(dirpath, name)
            if os.path.islink(p):
                continue
            mode = os.stat(p).st_mode
            exec_bits = 0o111 if mode & 0o111 or os.path.isdir(p) else 0
            with contextlib.suppress(OSError):
                os.chmod(p, 0o644 | exec_bits)
    os.chmod(root, 0o755)


def _node_needs_modules(pkg: Path) -> str:
    """A Node.js package with dependencies but no ``node_modules``: why it cannot run offline."""
    try:
        data = json.loads((pkg / "package.json").read_text())
    except (OSError, ValueError):
        return ""
    deps = data.get("dependencies") if isinstance(data, dict) else None
    if deps and not (pkg / "node_modules").is_dir():
        return (
            "package.json has dependencies but the package has no node_modules/: run `npm ci` before "
            "`arena submit` (the manifest's vendor step does it), " + NO_NETWORK_HINT
        )
    return ""


def cache_root() -> Path:
    """Where runtimes keep their warm build caches (machine-wide: every devserver of this user)."""
    return Path(os.environ.get("ARENA_BUILD_CACHE") or Path.home() / ".cache" / "arena" / "build")


_WARMING = threading.Lock()  # one warm-up at a time in this process (a file lock across processes)


def warm_cache(runtime: str, time_limit_s: int, channel: Channel) -> Path | None:
    """The runtime's warm build cache (``cache`` in runtimes.toml), made on first use by building the
    platform's own starter kit for that runtime in the sandbox; None when the runtime has none or the
    warm-up failed (builds then start cold, as before)."""
    spec = RUNTIMES[runtime].get("cache")
    if not spec:
        return None
    root = cache_root()
    cache, ready = root / runtime, root / f"{runtime}.ready"
    if ready.is_file():
        return cache
    root.mkdir(parents=True, exist_ok=True)
    with _WARMING, open(root / f"{runtime}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another devserver may be warming it: wait for its result
        if ready.is_file():
            return cache
        from arena import starters

        kit = root / f"{runtime}-kit"
        shutil.rmtree(kit, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()
        try:
            starters.create(str(spec["kit"]), kit, "warm-up")
            if os.geteuid() == 0:
                _chown_tree(cache, SANDBOX_UID, SANDBOX_UID)
            t0 = time.monotonic()
            ok, out = _run_sandboxed(kit, load(kit), time_limit_s, channel,
                                     env={str(spec["env"]): str(cache)}, writable=(str(cache),))
        except Exception as exc:  # noqa: BLE001 - a warm-up failure only costs speed
            ok, out = False, f"{type(exc).__name__}: {exc}"
        finally:
            shutil.rmtree(kit, ignore_errors=True)
        if not ok:
            log.warning("warming the %s build cache failed; builds start cold: %s", runtime,
                        out.strip().splitlines()[-1] if out.strip() else "")
            shutil.rmtree(cache, ignore_errors=True)
            return None
        _seal(cache)
        ready.write_text(f"warmed in {time.monotonic() - t0:.1f}s\n")
        log.info("warmed the %s build cache in %.1f s (%s)", runtime, time.monotonic() - t0, cache)
        return cache


def build(pkg: Path, manifest: Manifest, time_limit_s: int, channel: Channel) -> BuildResult:
    """Build the unpacked package ``pkg`` in place; the log says what ran and how it ended."""
    t0 = time.monotonic()
    lines: list[str] = []
    missing = [t for t in RUNTIMES[manifest.runtime]["tools"] if shutil.which(t) is None]
    if missing:
        return BuildResult(
            False,
            f"build failed: this platform lacks {', '.join(missing)} for runtime {manifest.runtime}\n",
            0.0,
        )
    if manifest.runtime == "node":
        why = _node_needs_modules(pkg)
        if why:
            return BuildResult(False, f"build failed: {why}\n", 0.0)
    if manifest.build:
        env: dict[str, str] = {}
        readonly: tuple[str, ...] = ()
        prepare = ""
        spec = RUNTIMES[manifest.runtime].get("cache")
        warm = warm_cache(manifest.runtime, time_limit_s, channel) if spec else None
        if spec and warm is not None:
            # a private copy in the build's own /tmp: the shared cache stays read-only
            private = "/tmp/arena-build-cache"
            env, readonly = {str(spec["env"]): private}, (str(warm),)
            prepare = f"cp -R {shlex.quote(str(warm))} {private} && "
            lines.append(f"build: starting from the platform's warm {manifest.runtime} build cache\n")
        ok, out = _run_sandboxed(pkg, manifest, time_limit_s, channel, env=env, readonly=readonly,
                                 prepare=prepare)
        lines.append(out)
        if not ok:
            _seal(pkg)
            return BuildResult(False, "".join(lines), time.monotonic() - t0)
    _seal(pkg)
    argv = shlex.split(manifest.command)
    program = argv[0]
    if program != "{python}" and "/" in program and not (pkg / program).is_file():
        lines.append(f"build failed: the command's program {program} is not in the package after the build\n")
        return BuildResult(False, "".join(lines), time.monotonic() - t0)
    if program != "{python}" and "/" not in program and shutil.which(program) is None:
        lines.append(f"build failed: the command's program {program!r} is not on this platform\n")
        return BuildResult(False, "".join(lines), time.monotonic() - t0)
    lines.append(f"build: done in {time.monotonic() - t0:.1f}s\n")
    return BuildResult(True, "".join(lines), time.monotonic() - t0)


def _run_sandboxed(pkg: Path, manifest: Manifest, time_limit_s: int, channel: Channel, *,
                   env: dict[str, str] | None = None, writable: tuple[str, ...] = (),
                   readonly: tuple[str, ...] = (), prepare: str = "") -> tuple[bool, str]:
    sup = sandbox.support(allow_unsandboxed=False)
    if sup.mode != "sandbox":
        return (
            False,
            f"build failed: no sandbox on this platform ({sup.detail}); builds never run outside one\n",
        )
    root = os.geteuid() == 0
    if root:
        _chown_tree(pkg, SANDBOX_UID, SANDBOX_UID)
    cmd = manifest.build.replace("{python}", shlex.quote(sys.executable))
    argv = ["/bin/sh", "-c", prepare + cmd]
    env = {**{str(k): str(v) for k, v in RUNTIMES[manifest.runtime]["build_env"].items()}, **(env or {})}
    limits = Limits(
        cpu_s=time_limit_s, memory_mb=BUILD_MEMORY_MB, pids=BUILD_PIDS, wall_s=float(time_limit_s)
    )
    group = f"b{os.getpid()}-{secrets.token_hex(6)}"
    the_plan = sandbox.plan(argv, str(pkg), env, channel, limits, group, sup,
                            writable=(str(pkg), *writable), readonly=readonly)
    head = f"$ {cmd}   (in the sandbox: no network, limit {time_limit_s}s)\n"
    proc = subprocess.Popen(
        [sys.executable, "-S", LAUNCHER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    _RUNNING.add(proc)
    proc.stdin.write(json.dumps(the_plan).encode() + b"\n")
    proc.stdin.close()
    out = bytearray()
    dropped = [0]

    stdout = proc.stdout
    assert isinstance(stdout, io.BufferedReader)  # a binary pipe with the default buffering

    def pump() -> None:
        for chunk in iter(lambda: stdout.read1(65536), b""):
            room = LOG_LIMIT - len(out)
            out.extend(chunk[: max(room, 0)])
            dropped[0] += max(0, len(chunk) - max(room, 0))

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    timed_out = False
    try:
        proc.wait(timeout=time_limit_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    _RUNNING.discard(proc)
    violation = sandbox_cgroup.violation(group, time_limit_s) if sup.cgroups else ""
    if sup.cgroups:
        sandbox_cgroup.destroy(group)
    reader.join(5)
    text = out.decode("utf-8", "replace")
    if dropped[0]:
        text += f"\n[{dropped[0]} more bytes of output dropped (log limit {LOG_LIMIT >> 10} KiB)]\n"
    if timed_out:
        tail = f"build failed: time limit of {time_limit_s}s exhausted\n"
    elif violation:
        tail = f"build failed: {violation}\n"
    elif proc.returncode != 0:
        tail = f"build failed: exit status {proc.returncode} ({NO_NETWORK_HINT})\n"
    else:
        tail = ""
    if text and not text.endswith("\n"):
        text += "\n"
    return not tail, head + text + tail
