"""``python rlimit_exec.py CPU_S MEMORY_MB COMMAND...``: set resource limits, then exec COMMAND.

The referee launches hosted bots through this tiny program instead of a ``preexec_fn``:
running Python code between ``fork`` and ``exec`` in a process whose gRPC threads are busy
can deadlock or crash the child (gRPC warns "Other threads are currently calling into gRPC,
skipping fork() handlers"). Here the limits are set in a fresh single-threaded process that
then becomes the bot. Standard library only, no site import: it costs a few milliseconds.
"""
import os
import resource
import sys


def main() -> None:
    cpu_s, memory_mb = int(sys.argv[1]), int(sys.argv[2])
    argv = sys.argv[3:]
    if cpu_s:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 5))
    if memory_mb:
        # RLIMIT_DATA, not RLIMIT_AS: V8 and the JVM reserve huge PROT_NONE address ranges that
        # RLIMIT_AS would count; DATA counts memory the process can actually write.
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        sys.stderr.write(f"cannot launch {argv[0]!r}: {exc.strerror}\n")
        os._exit(127)


if __name__ == "__main__":
    main()
