"""Three simulated hosts follow docs/deploy.md literally.

Each host is a process tree in its own mount namespace (``unshare --mount``): a fresh tmpfs on
/tmp (its own ARENA_HOME, database files, sockets) and its own /etc/hosts naming the others; the
network is the only thing they share, each on its own loopback address. Host 1 (db.internal,
127.0.0.2) runs private PostgreSQL and Redis instances and the organizer; hosts 2 and 3
(ref1.internal / ref2.internal, 127.0.0.3 / .4) run the doc's referee + worker block. The
organizer runs the doc's 40-match tournament; host 3 (worker and referee) is killed mid-way and
restarted. Every match must be recorded exactly once.
"""
from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.store import Store, models, queries

from .tournament_fixtures import ROOT, stop, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DOC = ROOT / "docs" / "deploy.md"
HOSTS = {"db.internal": "127.0.0.2", "ref1.internal": "127.0.0.3", "ref2.internal": "127.0.0.4"}
PG_BIN = Path(shutil.which("postgres") or "/usr/local/bin/postgres").parent


def doc_block(name: str) -> str:
    """The ```sh <name> fenced block of docs/deploy.md, as written."""
    m = re.search(rf"^```sh {re.escape(name)}\n(.*?)^```", DOC.read_text(), re.MULTILINE | re.DOTALL)
    assert m, f"docs/deploy.md has no `sh {name}` block"
    return m.group(1)


def listening(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


class Host:
    """A shell script in a mount namespace of its own (fresh /tmp, own /etc/hosts)."""

    def __init__(self, name: str, tmp: Path) -> None:
        self.name, self.tmp = name, tmp
        self.hosts_file = tmp / f"{name}.hosts"
        self.hosts_file.write_text("127.0.0.1 localhost\n"
                                   + "".join(f"{ip} {h}\n" for h, ip in HOSTS.items()))
        self.log_path = tmp / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.keep_dir: Path | None = None

    def start(self, script: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
        # /etc/hosts first: the fresh /tmp hides the test's directory, and the file with it. A checkout
        # under /tmp (and its .venv) would be hidden too: it is kept through a mount point outside /tmp.
        root = shlex.quote(str(ROOT))
        keep, put_back = "", ""
        if ROOT.is_relative_to("/tmp"):
            self.keep_dir = Path(tempfile.mkdtemp(prefix="arena-root-", dir="/var/tmp"))
            keep = f"mount --bind {root} {self.keep_dir}\n"
            put_back = f"mkdir -p {root}\nmount --bind {self.keep_dir} {root}\n"
        prelude = (f"set -e\nmount --bind {shlex.quote(str(self.hosts_file))} /etc/hosts\n{keep}"
                   f"mount -t tmpfs tmpfs /tmp\n{put_back}"
                   "mkdir -p /tmp/home /tmp/arena\nexport HOME=/tmp/home ARENA_HOME=/tmp/arena\n"
                   f"export PATH={shlex.quote(str(Path(sys.executable).parent))}:{PG_BIN}:$PATH\n"
                   f"cd {shlex.quote(str(ROOT))}\n")
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "bash", "-c",
                                          prelude + script], env=env, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        return self.proc

    def kill(self) -> None:
        if self.proc is not None:
            stop(self.proc, signal.SIGKILL)
        if self.keep_dir is not None:
            with contextlib.suppress(OSError):
                self.keep_dir.rmdir()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""


def host_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env["PYTHONPATH"] = str(ROOT)
    return env


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare")
def test_three_hosts_follow_the_deploy_doc(tmp_path: Path) -> None:
    for ip, port in (("127.0.0.2", 5432), ("127.0.0.2", 6379), ("127.0.0.3", 50051), ("127.0.0.4", 50051)):
        assert not listening(ip, port), f"{ip}:{port} is taken (another run of this test?)"
    db, ref1, ref2 = Host("db", tmp_path), Host("ref1", tmp_path), Host("ref2", tmp_path)
    env = host_env()
    cluster_env = doc_block("cluster-env")
    organizer: Host | None = None
    try:
        # host 1: private PostgreSQL and Redis on db.internal, then the doc's database block
        db.start(f"""
mkdir -p /tmp/pg && chown postgres /tmp/pg
runuser -u postgres -- initdb -D /tmp/pg -A trust -U postgres >/dev/null
runuser -u postgres -- postgres -D /tmp/pg -c listen_addresses=db.internal -p 5432 -k /tmp -c fsync=off &
redis-server --bind db.internal --port 6379 --save "" --appendonly no >/tmp/redis.log 2>&1 &
until pg_isready -q -h db.internal -p 5432; do sleep 0.2; done
{doc_block("cluster-db")}
echo DB-READY
wait
""", env)
        wait_for(lambda: "DB-READY" in db.log(), 120, "the database host (see its log below)", log=db.log)
        assert listening("127.0.0.2", 6379)
        node = cluster_env + doc_block("cluster-node") + "wait\n"
        ref1.start(node, dict(env, THIS_HOST="ref1.internal"))
        ref2.start(node, dict(env, THIS_HOST="ref2.internal"))
        wait_for(lambda: listening("127.0.0.3", 50051) and listening("127.0.0.4", 50051), 120,
                 "both referees (their hosts' logs below)", log=lambda: ref1.log() + ref2.log())
        organizer = Host("organizer", tmp_path)  # the organizer works from the database host's view
        organizer.hosts_file = db.hosts_file
        org = organizer.start(cluster_env + doc_block("cluster-organizer"), env)

        store = Store("postgresql+psycopg://arena:secret@127.0.0.2:5432/arena")

        def done() -> int:
            try:
                page = queries.tournaments(store, limit=1)
                return page.items[0].progress.done if page.items else 0
            except Exception:  # noqa: BLE001 - not created yet
                return 0

        wait_for(lambda: done() >= 15, 600, "15 finished matches:\n" + organizer.log())
        ref2.kill()  # host 3: its worker and its referee (and the hosted bots it launched), mid-match
        time.sleep(3)
        ref2.start(node, dict(env, THIS_HOST="ref2.internal"))
        org.wait(1500)
        out = organizer.log()
        assert org.returncode == 0, out + ref1.log() + ref2.log()
        t = queries.tournaments(store, limit=1).items[0]
        p = t.progress
        games = re.search(r"--games (\d+)", doc_block("cluster-organizer"))
        assert games, "the doc's tournament names its --games"
        total = 2 * int(games.group(1))  # one pairing, both seat orders
        assert (p.total, p.done, p.failed, p.queued, p.running) == (total, total, 0, 0, 0), (p, out)
        assert t.status_text == "done"
        with store.read() as s:
            outcomes = s.scalar(select(func.count(func.distinct(models.Outcome.match_id))))
            rows = s.scalar(select(func.count()).select_from(models.Outcome))
        assert outcomes == rows == total  # every match recorded exactly once
        workers = queries.workers_seen(store, t.id)
        assert len({w.split(":")[0] for w in workers}) >= 1 and sum(workers.values()) == total
        store.engine.dispose()
    finally:
        for h in (organizer, ref2, ref1, db):
            if h is not None:
                h.kill()
