"""Every knob of the referee, with the documented defaults (docs/protocol.md, "Errors")."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from referee.engine.driver import FaultPolicy

SERVER_VERSION = "arena-referee 1.0 (protocol arena.v1)"


@dataclass
class RefereeConfig:
    """Limits and fault consequences. All times in seconds unless the name says otherwise."""

    #: Strikes a seat may collect; the next one forfeits it (the in-process runner's rule, shared).
    max_strikes: int = FaultPolicy.max_strikes
    #: Re-asks after a malformed or illegal answer before a random move + strike is played.
    reasks: int = FaultPolicy.reasks
    #: After a disconnect, how long the seats stay open for the bot to reconnect.
    reconnect_grace_s: float = 5.0
    #: Largest message the referee accepts from a bot (gRPC limit; larger ends the session).
    max_message_bytes: int = 1 << 20
    #: Largest ``Answer.action_json`` (larger: Error OVERSIZED, handled like a malformed answer).
    max_action_bytes: int = 64 << 10
    #: Flood control: unsolicited messages (anything but an answer to a decision the referee is
    #: waiting for: pings, stale or unknown answers, ...) per second per session, and the burst.
    flood_rate: float = 200.0
    flood_burst: int = 400
    #: Messages dropped for flooding before the session is closed (its seats forfeit).
    flood_disconnect_after: int = 100
    #: Most matches one session may play at once.
    max_capacity: int = 64
    #: Time a new stream has to send its Hello.
    hello_timeout_s: float = 10.0
    #: Default wait for live bots to have a free session (RunMatchRequest.live_wait_ms overrides).
    live_wait_s: float = 10.0
    #: Time a hosted bot has to connect after launch before its seat forfeits.
    hosted_connect_s: float = 30.0
    #: Hosted bots: CPU seconds and address space (MiB) per process (0 = unlimited).
    hosted_cpu_s: int = 600
    hosted_memory_mb: int = 4096
    #: Hosted bots: processes per sandbox, and wall seconds a sandbox may live (0 = unlimited).
    hosted_pids: int = 256
    hosted_wall_s: float = 3600.0
    #: Sandboxes kept started and waiting per hosted command (0 = start each one when its match starts).
    hosted_spares: int = 2
    #: Serve `python -m module` hosted bots from warm zygote sandboxes (a fresh nested sandbox per match).
    hosted_warm: bool = True
    #: Run hosted bots without a sandbox when bwrap / user namespaces are missing (trusted code only).
    allow_unsandboxed_hosted: bool = False
    #: Hosted bots: captured output kept per seat, in bytes.
    hosted_log_bytes: int = 64 << 10
    #: Cap on any single decision (applies when the time control has no limit).
    max_decision_s: float = 300.0
    #: Key for deriving each seat's bot seed (a bot must never learn the game's seed, which fixes
    #: every hidden deck); random per referee process unless set.
    bot_seed_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    #: Finished reports kept in memory, so a retried RunMatch of a finished match gets its report.
    keep_reports: int = 64
    #: The forward model (bot.proto ForwardCall; referee/service/forward.py): served at all, and the
    #: per-seat limits: live handles, simulated decisions per match, memory (live handles x the size
    #: of one state), ops per call, snapshots per call.
    forward_enabled: bool = True
    forward_max_handles: int = 4096
    forward_max_decisions: int = 20_000_000
    forward_memory_mb: int = 256
    forward_max_ops: int = 4096
    forward_max_snapshots: int = 64
    #: Forward work runs on the event loop in slices of this many milliseconds, other matches' messages
    #: and timers in between, so a bot simulating hard slows the others by at most a slice per turn.
    forward_slice_ms: float = 1.0
