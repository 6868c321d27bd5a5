"""The Celery app over Redis (``ARENA_BROKER_URL``): ``arena.play_match(match_id)``, one task per match, and
``arena.ladder_tick``, the continuous ladder's matchmaker, on a beat schedule (every ``ARENA_LADDER_TICK_S``).

Late acks and ``reject_on_worker_lost`` put a task back when its worker dies; the Redis visibility
timeout (``ARENA_VISIBILITY_S``) redelivers a task whose whole worker vanished; the claim on the
match row (``arena.store.ops.claim``) makes any duplicate delivery harmless. No result backend:
the store is the only record of results, and nothing ever waits on a task.

Run a worker with ``arena worker`` (or ``celery -A arena.celery_app worker -Q arena``); ``arena worker
--beat`` also runs the schedule (one beat per installation; a second one only makes ticks that find
nothing to do, since a tick holds the season's row lock and tops up to a limit).
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from celery import Celery
from celery.signals import worker_process_init
from celery.worker.request import Request

from .config import settings

log = logging.getLogger(__name__)
TASK = "arena.play_match"
LADDER_TASK = "arena.ladder_tick"
#: Message priorities (Redis: 0 is served first). A match sent for the first time waits its turn;
#: one re-sent (its worker died, its message was lost) or retried goes to the front of the queue.
FRONT, NORMAL = 0, 6
PRIORITY_STEPS = [0, 3, 6, 9]  # kombu's Redis lists per queue: "<queue>", "<queue>\x06\x163", ...


def queue_keys(queue: str) -> list[str]:
    """The Redis lists holding ``queue``'s messages, one per priority step (kombu's naming)."""
    return [queue if p == 0 else f"{queue}\x06\x16{p}" for p in PRIORITY_STEPS]


class AckSafeRequest(Request):
    """A request whose ack (or requeue) may fail without wedging the worker.

    A task that ends while Redis is down cannot be acked: kombu logs ``Couldn't ack`` and leaves the
    message counted as in flight, so with ``prefetch = concurrency`` the consumer never asks Redis for
    another message and never notices the broken connection (celery 5.7 / kombu 5.7: the worker sat idle
    with a full queue until restarted). Here a failed ack is settled locally instead: the slot is freed,
    the consumer polls again, meets the dead connection and goes through its normal reconnect. Nothing
    is lost by not acking: the broker either lost the message with its restart, or redelivers it after
    the visibility timeout and the claim on the match row refuses the duplicate.
    """

    def _settle(self, what: str, call: Callable[[], object]) -> None:
        msg = self._message
        try:
            call()
        except (*self._connection_errors, OSError) as exc:
            log.warning("could not %s task %s (broker unreachable: %s); settled locally", what, self.task_id,
                        exc)
            qos = getattr(msg.channel, "qos", None)
            if qos is not None:
                from kombu.transport.virtual.base import QoS

                QoS.ack(qos, msg.delivery_tag)  # the local bookkeeping only: frees the prefetch slot
        self.acknowledged = True

    def acknowledge(self) -> None:
        if not self.acknowledged:
            self._settle("ack", self._message.ack)

    def reject(self, requeue: bool = False) -> None:
        if not self.acknowledged:
            self._settle("reject", lambda: self._message.reject(requeue=requeue))
            self.send_event("task-rejected", requeue=requeue)


def make_app(broker_url: str | None = None, queue: str | None = None) -> Celery:
    cfg = settings()
    app = Celery("arena", broker=broker_url or cfg.broker_url or "redis://127.0.0.1:6379/0")
    app.conf.update(
        task_default_queue=queue or cfg.queue,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        broker_transport_options={"visibility_timeout": cfg.visibility_s, "priority_steps": PRIORITY_STEPS},
        task_default_priority=NORMAL,
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,
        broker_pool_limit=4,
        worker_hijack_root_logger=False,
        worker_cancel_long_running_tasks_on_connection_loss=False,
        worker_enable_remote_control=False,
        worker_send_task_events=False,
        beat_schedule={"ladder": {"task": LADDER_TASK, "schedule": cfg.ladder_tick_s,
                                  "options": {"queue": queue or cfg.queue, "priority": FRONT,
                                              "expires": cfg.ladder_tick_s}}},
    )

    # shared=False: each app (the module's and the worker's, made with its broker) owns its tasks; shared ones
    # would be re-registered across apps (a DuplicateTaskNameWarning in every worker log)
    @app.task(name=TASK, bind=True, max_retries=None, acks_late=True, reject_on_worker_lost=True,
              shared=False, Request=AckSafeRequest)
    def play_match_task(self, match_id: int) -> str:
        from .tasks import outage_text, play_match, store_outage

        try:
            result = play_match(int(match_id))
        except Exception as exc:
            if not store_outage(exc):
                raise
            # the store is down before the match was claimed: nothing spent, try again later
            log.warning("match %s: the store is unreachable before its claim (%s); retrying in 5 s", match_id,
                        outage_text(exc))
            raise self.retry(countdown=5.0, priority=FRONT) from None
        if result.state == "retry":
            raise self.retry(countdown=max(0.1, result.wait_s), priority=FRONT)
        return result.state

    @app.task(name=LADDER_TASK, acks_late=False, ignore_result=True, shared=False)
    def ladder_tick_task() -> dict[str, int]:
        from .scheduling.driver import CeleryDispatch
        from .tasks import ladder_tick

        # A tick lost to a crash is replaced by the next one: no late ack, no retry.
        return ladder_tick(dispatcher=CeleryDispatch(app.conf.broker_url, app.conf.task_default_queue))

    return app


@worker_process_init.connect
def _fresh_connections(**_kw: object) -> None:
    """A forked pool process must not share the parent's database or gRPC connections."""
    from .executor import forget_executors
    from .store import forget_stores

    forget_stores()
    forget_executors()


app = make_app()
