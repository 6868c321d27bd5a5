"""The developer gRPC service (``arena devserver``): registration, uploads, versions, logs.

Every call but RegisterDeveloper is authenticated by a developer token (``authorization: Bearer``
metadata) and sees only that developer's rows: each query is keyed on the developer's id, and an
unknown version and another developer's version get the same NOT_FOUND line.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent import futures
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.store import models as m
from arena.store.db import Store
from referee.client import RefereeClient
from referee.protocol import developer_pb2 as pb
from referee.protocol import developer_pb2_grpc as pb_grpc

from . import developers as devs
from .manifest import MANIFEST, Manifest, ManifestError, parse
from .pipeline import Pipeline
from .settings import DevSettings
from .status import StatusError, set_status
from .unpack import PackageError, UnpackLimits, unpack

log = logging.getLogger(__name__)
CHUNK_LIMIT = 1 << 20
#: match outputs one MatchOutputs call returns at most (each up to ``arena.store.ops.OUTPUT_CAP``)
MAX_OUTPUTS = 50
SERVICE = "arena.v1.DeveloperService"


class Abort(Exception):
    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _ms(when: datetime | None) -> int:
    from datetime import UTC

    return int(when.replace(tzinfo=UTC).timestamp() * 1000) if when else 0


def version_info(v: devs.VersionView, *, with_log: bool = False) -> pb.VersionInfo:
    return pb.VersionInfo(
        name=v.name,
        family=v.family,
        version=v.version,
        status=v.status,
        reason=v.reason,
        runtime=v.runtime,
        games=list(v.games),
        package_sha256=v.package_sha256,
        submitted_unix_ms=_ms(v.submitted_at),
        log=v.log if with_log else "",
    )


class DeveloperServicer(pb_grpc.DeveloperServiceServicer):
    def __init__(self, store: Store, settings: DevSettings, packages: Path, pipeline: Pipeline) -> None:
        self.store = store
        self.settings = settings
        self.packages = packages
        self.pipeline = pipeline

    # -- plumbing ----------------------------------------------------------------------------
    def _developer(self, context: grpc.ServicerContext) -> devs.DeveloperView:
        md = dict(context.invocation_metadata() or ())
        given = md.get("authorization", "")
        given = given.decode("utf-8", "replace") if isinstance(given, bytes) else str(given)
        token = given[7:] if given.startswith("Bearer ") else ""
        dev = devs.authenticate(self.store, token) if token else None
        if dev is None:
            raise Abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing or wrong developer token (metadata 'authorization: Bearer <developer token>')",
            )
        if dev.status == devs.PENDING:
            raise Abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"developer {dev.name} awaits an organizer's approval (arena developer approve {dev.name})",
            )
        if dev.status != devs.APPROVED:
            raise Abort(grpc.StatusCode.PERMISSION_DENIED, f"developer {dev.name} is {dev.status}")
        return dev

    def _own_version(self, dev: devs.DeveloperView, name: str) -> devs.VersionView:
        match = devs.VERSION_RE.match(name or "")
        full = ""
        if match and match["dev"] in (None, dev.name):
            full = f"{dev.name}/{match['bot']}@{int(match['n'])}"
        v = devs.version(self.store, dev.id, full) if full else None
        if v is None:  # the same answer for another developer's version: nothing leaks
            raise Abort(
                grpc.StatusCode.NOT_FOUND, f"no version {name!r} among your bots (names look like mybot@3)"
            )
        return v

    @staticmethod
    def _guard(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(self: DeveloperServicer, request: Any, context: grpc.ServicerContext) -> Any:
            try:
                return fn(self, request, context)
            except Abort as exc:
                _abort(context, exc.code, exc.message)

        wrapped.__name__ = fn.__name__
        return wrapped

    # -- calls -------------------------------------------------------------------------------
    @_guard
    def RegisterDeveloper(
        self, request: pb.RegisterDeveloperRequest, context: grpc.ServicerContext
    ) -> pb.RegisterDeveloperResponse:
        try:
            token, status = devs.register(
                self.store, request.name, approved=self.settings.registration == "open"
            )
        except devs.NameTaken as exc:
            raise Abort(grpc.StatusCode.ALREADY_EXISTS, str(exc)) from None
        except devs.DeveloperError as exc:
            raise Abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        log.info("developer %s registered (%s)", request.name, status)
        return pb.RegisterDeveloperResponse(name=request.name, token=token, status=status)

    @_guard
    def Submit(
        self, request_iterator: Iterator[pb.SubmitChunk], context: grpc.ServicerContext
    ) -> pb.VersionInfo:
        dev = self._developer(context)
        recent = devs.submissions_since(self.store, dev.id, devs.hour_ago())
        if recent >= self.settings.submissions_per_hour:
            raise Abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{recent} submissions in the last hour (limit {self.settings.submissions_per_hour}); "
                "try again later",
            )
        staging = self.packages / ".staging" / secrets.token_hex(8)
        staging.mkdir(parents=True, mode=0o700)
        try:
            with tempfile.TemporaryFile(dir=self.packages / ".staging") as archive:
                sha = self._receive(request_iterator, archive)
                archive.seek(0)
                try:
                    unpack(
                        archive,
                        staging / "pkg",
                        UnpackLimits(self.settings.unpacked_bytes, self.settings.max_files),
                    )
                    manifest = _manifest(staging / "pkg")
                except (PackageError, ManifestError) as exc:
                    raise Abort(grpc.StatusCode.INVALID_ARGUMENT, f"package refused: {exc}") from None
                family_dir = self.packages / dev.name / manifest.name
                v = devs.new_version(self.store, dev, manifest, sha, lambda n: family_dir / str(n))
                family_dir.mkdir(parents=True, exist_ok=True)
                os.replace(staging / "pkg", v.cwd)
                archive.seek(0)
                with open(f"{v.cwd}.tar.gz", "wb") as keep:
                    shutil.copyfileobj(archive, keep)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        log.info("%s submitted (%s, %s)", v.name, manifest.runtime, sha[:12])
        self.pipeline.enqueue(v.name)
        return version_info(v)

    def _receive(self, chunks: Iterator[pb.SubmitChunk], out: Any) -> str:
        """Write the upload to ``out``; refuse as soon as it is over its size or the limit."""
        limit = self.settings.package_bytes
        first = next(chunks, None)
        if first is None or first.WhichOneof("kind") != "header":
            raise Abort(grpc.StatusCode.INVALID_ARGUMENT, "an upload starts with a SubmitHeader")
        size, want = first.header.size, first.header.sha256.lower()
        if size > limit:
            raise Abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the package is {size >> 20} MiB; the limit is {limit >> 20} MiB",
            )
        digest = hashlib.sha256()
        got = 0
        for chunk in chunks:
            if chunk.WhichOneof("kind") != "data":
                raise Abort(grpc.StatusCode.INVALID_ARGUMENT, "only data chunks may follow the header")
            got += len(chunk.data)
            if got > size or got > limit:
                raise Abort(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"the upload sent more than the {min(size, limit)} bytes it announced or allowed",
                )
            digest.update(chunk.data)
            out.write(chunk.data)
        if got != size:
            raise Abort(grpc.StatusCode.INVALID_ARGUMENT, f"the upload ended after {got} of {size} bytes")
        if digest.hexdigest() != want:
            raise Abort(grpc.StatusCode.INVALID_ARGUMENT, "the upload's SHA-256 does not match its header")
        out.flush()
        return want

    @_guard
    def ListVersions(
        self, request: pb.ListVersionsRequest, context: grpc.ServicerContext
    ) -> pb.ListVersionsResponse:
        dev = self._developer(context)
        bot = request.bot.strip()
        if bot.startswith(f"{dev.name}/"):
            bot = bot[len(dev.name) + 1 :]
        rows = devs.versions(self.store, dev.id, f"{dev.name}/{bot}" if bot else None)
        return pb.ListVersionsResponse(
            developer=dev.name, status=dev.status, versions=[version_info(v) for v in rows]
        )

    @_guard
    def GetVersion(self, request: pb.GetVersionRequest, context: grpc.ServicerContext) -> pb.VersionInfo:
        dev = self._developer(context)
        return version_info(self._own_version(dev, request.name), with_log=True)

    @_guard
    def RetireVersion(self, request: pb.GetVersionRequest, context: grpc.ServicerContext) -> pb.VersionInfo:
        dev = self._developer(context)
        v = self._own_version(dev, request.name)
        try:
            set_status(self.store, v.name, m.B_RETIRED, "retired by its developer")
        except StatusError as exc:
            raise Abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc)) from None
        return version_info(self._own_version(dev, v.name), with_log=True)

    @_guard
    def MatchOutputs(
        self, request: pb.MatchOutputsRequest, context: grpc.ServicerContext
    ) -> pb.MatchOutputsResponse:
        from arena.store import health

        dev = self._developer(context)
        v = self._own_version(dev, request.name)   # another developer's version: the same NOT_FOUND
        rows, sealed = health.outputs(self.store, v.name, limit=min(max(request.limit, 1), MAX_OUTPUTS))
        return pb.MatchOutputsResponse(
            outputs=[pb.SeatOutput(match_id=r.match_id, game=r.game, seat=r.seat, rank=r.rank or 0,
                                   forfeit=r.forfeit, finished_unix_ms=_ms(r.finished_at), text=r.text)
                     for r in rows],
            sealed=sealed,
        )


def _manifest(pkg: Path) -> Manifest:
    """The package's manifest (errors name it by its place in the package, never the server's path)."""
    path = pkg / MANIFEST
    if path.is_symlink() or not path.is_file():
        raise ManifestError(f"the package has no {MANIFEST} at its top (arena new-bot writes one)")
    try:
        return parse(path.read_text())
    except UnicodeDecodeError:
        raise ManifestError(f"{MANIFEST} is not UTF-8 text") from None


def _abort(context: grpc.ServicerContext, code: grpc.StatusCode, message: str) -> NoReturn:
    context.abort(code, message)
    raise AssertionError("unreachable")  # abort raises


class LazyReferee:
    """The referee smoke tests play on: a given one, or a private one started at first use."""

    def __init__(self, address: str | None = None, token: str | None = None) -> None:
        self.address, self.token = address, token
        self._client: RefereeClient | None = None
        self._stack = contextlib.ExitStack()
        self._lock = threading.Lock()

    def __call__(self) -> RefereeClient:
        with self._lock:
            if self._client is None:
                if not self.address:
                    from arena.demo import local_referee

                    ref = self._stack.enter_context(local_referee())
                    self.address, self.token = ref.address, ref.token
                self._client = RefereeClient(self.address, self.token or "")
            return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        self._stack.close()


def create_server(
    store: Store, packages: Path, settings: DevSettings, referee: LazyReferee, address: str = "127.0.0.1:0"
) -> tuple[grpc.Server, int, Pipeline]:
    """Start the developer service on ``address`` (port 0 = any free port): (server, port, pipeline)."""
    packages.mkdir(parents=True, exist_ok=True)
    (packages / ".staging").mkdir(mode=0o700, exist_ok=True)
    pipeline = Pipeline(store, settings, referee)
    recovered = pipeline.recover()
    if recovered:
        log.warning("%d version(s) were left building by a stopped devserver: marked failed", recovered)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=16, thread_name_prefix="devsvc"),
        options=[("grpc.max_receive_message_length", CHUNK_LIMIT + (64 << 10))],
    )
    pb_grpc.add_DeveloperServiceServicer_to_server(
        DeveloperServicer(store, settings, packages, pipeline), server
    )
    hs = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(hs, server)
    port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"cannot bind {address}")
    server.start()
    for name in ("", SERVICE):
        hs.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, port, pipeline

