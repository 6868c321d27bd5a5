"""``python -S rlimit_exec.py``: start one hosted bot from the plan on its standard input.

The referee launches hosted bots through this tiny program instead of a ``preexec_fn``: running
Python code between ``fork`` and ``exec`` in a process whose gRPC threads are busy can deadlock
(gRPC warns "Other threads are currently calling into gRPC, skipping fork() handlers"). Standard
library only, no site import: it costs a few milliseconds.

Standard input carries two lines: the plan (JSON, written at launch; see ``sandbox.plan``), then
the seat (JSON ``{"token", "match_id", "seat"}``, written when the match starts). Nothing secret
is ever in a command line or in an environment visible outside the sandbox.

* host stage (``rlimit_exec.py``): reads the plan; as root, joins the sandbox's control groups,
  stages the read-only binds in a private mount namespace (so the sandbox's unprivileged user can
  bind them whatever the permissions of their parent directories) and drops to that user; sets
  resource limits; then execs ``bwrap`` (its options on a pipe, ``--args``), which runs
* inside stage (``launch.py inside`` in the sandbox): reads the seat line, puts the token in the
  bot's environment (visible only inside), closes standard input and execs the bot.

In the explicit unsandboxed mode the host stage does both steps itself, without namespaces.
"""
import ctypes
import json
import os
import resource
import sys

try:  # the host stage needs this module (next to us); the inside stage never does
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import sandbox_cgroup
except ImportError:
    sandbox_cgroup = None
finally:
    del sys.path[0]

CLONE_NEWNS = 0x20000
MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18


def read_line(fd: int = 0) -> bytes:
    """One line, byte by byte: nothing after it may be consumed (the next stage reads it)."""
    out = bytearray()
    while True:
        b = os.read(fd, 1)
        if not b or b == b"\n":
            return bytes(out)
        out += b


def fail(msg: str, code: int = 127) -> None:
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()
    os._exit(code)


def set_limits(plan: dict, cgroups: bool) -> None:
    cpu_s, memory_mb, pids = plan["cpu_s"], plan["memory_mb"], plan["pids"]
    if cpu_s:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 2))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not cgroups:
        if memory_mb and plan["mode"] == "sandbox":
            # RLIMIT_AS counts shared mappings too (RLIMIT_DATA does not); a control group is
            # better still (it counts the whole process tree), used whenever this runs as root
            limit = memory_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        elif memory_mb:
            # unsandboxed: V8 and the JVM reserve huge PROT_NONE ranges that RLIMIT_AS would count
            limit = memory_mb << 20
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        if pids and plan["mode"] == "sandbox":
            resource.setrlimit(resource.RLIMIT_NPROC, (pids, pids))


def _mount(libc, src, dst, fstype, flags: int, data) -> None:
    if libc.mount(src, dst, fstype, flags, data) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {src!r} on {dst!r}: {os.strerror(err)}")


def stage(plan: dict) -> tuple:
    """As root: bind every source into a fresh tmpfs over ``stage`` in a private mount namespace
    (the read-only binds, then the writable ones)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNS) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    _mount(libc, b"none", b"/", None, MS_REC | MS_PRIVATE, None)
    root = plan["stage"].encode()
    _mount(libc, b"tmpfs", root, b"tmpfs", 0, b"mode=0755")
    staged: tuple = ([], [])
    n = len(plan["binds"])
    for i, (src, dest) in enumerate([*plan["binds"], *plan.get("rw", [])]):
        if not os.path.exists(src):  # (the referee's socket, when no server listens: unit tests)
            continue
        target = os.path.join(plan["stage"], str(i))
        if os.path.isdir(src):
            os.mkdir(target)
        else:
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
        _mount(libc, src.encode(), target.encode(), None, MS_BIND | MS_REC, None)
        staged[i >= n].append([target, dest])
    return staged


def host(plan: dict) -> None:
    cgroups = bool(plan.get("cgroup"))
    if cgroups:
        sandbox_cgroup.create_and_join(plan["cgroup"], plan["memory_mb"] << 20, plan["pids"])
    if plan["mode"] != "sandbox":
        set_limits(plan, cgroups)
        inside(plan["argv"], plan["env"], plan.get("cwd"))
        return
    binds, rw = stage(plan) if plan.get("stage") else (plan["binds"], plan.get("rw", []))
    args = list(plan["pre"])
    for src, dest in binds:
        args += ["--ro-bind", src, dest]
    args += plan["post"]
    for src, dest in rw:  # (after the read-only binds: one of them may hold it)
        args += ["--bind", src, dest]
    r, w = os.pipe()
    os.write(w, b"".join(a.encode() + b"\0" for a in args))
    os.close(w)
    os.set_inheritable(r, True)
    if plan.get("uid", -1) >= 0:
        os.setgroups([])
        os.setgid(plan["uid"])
        os.setuid(plan["uid"])
    set_limits(plan, cgroups)
    bwrap = plan["bwrap"]
    # the options on a pipe (bwrap reads them from there), the command on the command line
    os.execve(bwrap, [bwrap, "--args", str(r), "--", *plan["inner"], *plan["argv"]], plan["env"])


def python_module(argv: list) -> str:
    """``M`` when the command is ``<this interpreter> -m M ...`` (then it can be pre-loaded)."""
    if len(argv) >= 3 and argv[1] == "-m" and os.path.realpath(argv[0]) == os.path.realpath(sys.executable):
        return argv[2]
    return ""


def inside(argv: list, env: dict, cwd=None) -> None:
    module = python_module(argv) if sys.flags.no_site == 0 else ""
    if module:
        # [design] a zygote in its own sandbox: import the bot's module (and what it imports at
        # its top) while the sandbox waits for its seat, then run it as __main__ in this process
        import importlib

        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - let the real run report it
            module_ok = False
        else:
            module_ok = True
    seat = json.loads(read_line() or b"{}")
    if not seat.get("token"):
        fail("the referee sent no seat credential", 3)
    env = dict(env, ARENA_TOKEN=seat["token"], ARENA_MATCH_ID=str(seat.get("match_id", "")),
               ARENA_SEAT=str(seat.get("seat", "")))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    if cwd:
        os.chdir(cwd)
    if module and module_ok:
        import runpy

        os.environ.clear()
        os.environ.update(env)
        sys.argv = [argv[0], *argv[3:]]
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = exc.code
            sys.stdout.flush()
            sys.exit(code)
        return
    try:
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        fail(f"cannot launch {argv[0]!r}: {exc.strerror}")


# -- the zygote: one warm sandbox, a fresh nested sandbox per match -----------------------------
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWUTS = 0x10000000, 0x20000000, 0x08000000, 0x04000000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 38
#: The SDK modules a zygote loads before any seat (the platform's code, read-only in the sandbox).
PRELOAD = ("bots.sdk.client", "bots.builtin")
STATUS_FD = 3  # replaced by the number the referee passes (``zygote FD ...``)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _status(msg: dict) -> None:
    os.write(STATUS_FD, json.dumps(msg).encode() + b"\n")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def _drop_caps(libc) -> None:
    """No capability left, none to regain: the bot is an ordinary user in its nested namespaces."""
    for cap in range(64):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    if libc.capset(ctypes.byref(_CapHeader(0x20080522, 0)), (_CapData * 2)()) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _mounts_below(top: str) -> list[str]:
    """Mount points strictly below ``top``, outermost first (from /proc/self/mountinfo)."""
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = line.split()[4].encode().decode("unicode_escape")
            if point.startswith(top.rstrip("/") + "/"):
                out.append(point)
    return sorted(set(out), key=len)


def _exit_status(st: int) -> int:
    return os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)


def _seat(seat: dict, argv: list, env: dict, module: str, workdir: str) -> None:
    """In a fork of the zygote: new user, mount, pid, IPC and UTS namespaces and a fresh /tmp; a
    minimal init (pid 1) whose death ends every process of the match; the bot as its child."""
    import runpy
    import traceback

    try:
        os.close(STATUS_FD)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # (the zygote is not) so it may write its own maps
        uid, gid = os.getuid(), os.getgid()
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS) != 0:
            raise OSError(ctypes.get_errno(), "unshare")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
        _mount(libc, b"none", b"/", None, MS_REC | MS_PRIVATE, None)
        # read-only binds below /tmp (a bot directory there) must stay visible on the fresh /tmp
        kept = [(path, os.open(path, os.O_PATH)) for path in _mounts_below("/tmp")]
        _mount(libc, b"tmpfs", b"/tmp", b"tmpfs", 0, b"mode=0700")
        for path, fd in kept:
            os.makedirs(path, exist_ok=True)
            _mount(libc, f"/proc/self/fd/{fd}".encode(), path.encode(), None, MS_BIND | MS_REC, None)
            os.close(fd)
        init = os.fork()
        if init:
            # outside the new pid namespace: report how the match's init ended
            _, st = os.waitpid(init, 0)
            os._exit(_exit_status(st))
        libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)  # the zygote killing us ends the whole match
        if os.getppid() == 1:
            os._exit(137)
        bot = os.fork()
        if bot:
            _drop_caps(libc)
            while True:  # pid 1: reap orphans; end (and so end the namespace) with the bot
                pid, st = os.wait()
                if pid == bot:
                    os._exit(_exit_status(st))
        os.setsid()
        _drop_caps(libc)
        os.chdir(workdir)  # its own directory (read-only), or the fresh /tmp
        os.environ.clear()
        os.environ.update(env, ARENA_TOKEN=seat["token"], ARENA_MATCH_ID=str(seat.get("match_id", "")),
                          ARENA_SEAT=str(seat.get("seat", "")))
        sys.argv = [argv[0], *argv[3:]]
        sys.modules.pop(module, None)  # pre-loaded: run it afresh as __main__ (its imports stay loaded)
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - the bot's own crash: print it like Python would
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def zygote(argv: list, env: dict, platform: list) -> None:
    """Pre-load the bot's module once; then, per seat line on stdin, fork a match in a nested sandbox.

    Status lines on fd 3: ``{"ready"}`` once loaded, ``{"exit": status}`` when a match's bot ended.
    ``{"kill": true}`` on stdin kills the running match; end of stdin ends the zygote.
    """
    import contextlib
    import importlib
    import importlib.util
    import selectors

    module = python_module(argv)
    workdir = os.getcwd()
    libc = ctypes.CDLL(None, use_errno=True)
    # nothing a match's bot runs may read or write this process (its memory is every later match's)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    os.environ.clear()
    os.environ.update(env)
    # what `python -m` would search: the working directory first, then PYTHONPATH (-I dropped both)
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[0:1] = [workdir, *extra]
    # Only the platform's own code runs here, never the bot's: bot code in this process could leave
    # something (a shared mapping, a thread) that every later match inherits. The SDK is always
    # pre-loaded; the bot's module too when it lives in the platform's directories (the SDK, an
    # installed game, the runtime: read-only, the same for everyone, e.g. `bots.serve`).
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):  # the match's own run reports it (a plain import error)
        spec = None
    origin = os.path.realpath(spec.origin) if spec is not None and spec.origin else ""
    if origin and any(origin.startswith(os.path.realpath(d) + os.sep) for d in platform if d):
        importlib.import_module(module)
    _status({"ready": True})
    child = 0
    pidfd = -1
    sel = selectors.DefaultSelector()
    sel.register(0, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            if key.fd == pidfd:
                _, st = os.waitpid(child, 0)
                sel.unregister(pidfd)
                os.close(pidfd)
                child, pidfd = 0, -1
                _status({"exit": _exit_status(st)})
                continue
            line = read_line()
            if not line:
                if child:
                    os.kill(child, 9)
                os._exit(0)
            msg = json.loads(line)
            if msg.get("kill"):
                if child:
                    os.kill(child, 9)
            elif msg.get("token") and not child:
                sys.stdout.flush()
                sys.stderr.flush()
                child = os.fork()
                if child == 0:
                    _seat(msg, argv, env, module, workdir)
                pidfd = os.pidfd_open(child)
                sel.register(pidfd, selectors.EVENT_READ)
                _status({"started": child})


def main() -> None:
    if sys.argv[1:2] == ["inside"]:
        inside(sys.argv[2:], dict(os.environ))
        return
    if sys.argv[1:2] == ["run"]:  # a build: no seat to wait for, nothing on standard input
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        try:
            os.execvpe(sys.argv[2], sys.argv[2:], dict(os.environ))
        except OSError as exc:
            fail(f"cannot run {sys.argv[2]!r}: {exc.strerror}")
        return
    if sys.argv[1:2] == ["zygote"]:
        global STATUS_FD
        STATUS_FD = int(sys.argv[2])
        try:
            zygote(sys.argv[4:], dict(os.environ), sys.argv[3].split(os.pathsep))
        except Exception as exc:  # noqa: BLE001 - the referee sees the sandbox end and reports this
            fail(f"the hosted bot cannot be pre-loaded: {type(exc).__name__}: {exc}")
        return
    try:
        plan = json.loads(read_line())
        host(plan)
    except (OSError, ValueError, KeyError) as exc:
        fail(f"cannot start the hosted bot: {exc}")


if __name__ == "__main__":
    main()
