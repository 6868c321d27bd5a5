"""MatchSpec / MatchReport <-> protobuf messages (shared by the client and the server)."""
from __future__ import annotations

import json
from typing import Any

from referee.engine.agent import TimeControl
from referee.matchspec import MatchReport, MatchSpec, SeatSpec
from referee.protocol import bot_pb2, organizer_pb2


def spec_to_proto(spec: MatchSpec) -> organizer_pb2.MatchSpec:
    return organizer_pb2.MatchSpec(
        match_id=spec.match_id, game=spec.game, seed=int(spec.seed) & ((1 << 64) - 1),
        options_json=json.dumps(spec.options or {}, sort_keys=True),
        time_control=bot_pb2.TimeControl(per_decision_ms=spec.time_control.per_decision_ms,
                                         bank_ms=spec.time_control.bank_ms),
        seats=[organizer_pb2.SeatSpec(bot=s.bot, command=s.command or "", cwd=s.cwd or "", env=dict(s.env))
               for s in spec.seats], shared_deal=spec.shared_deal)


def spec_from_proto(msg: organizer_pb2.MatchSpec) -> MatchSpec:
    """Raises ``ValueError`` with a readable message on a bad spec."""
    try:
        options: Any = json.loads(msg.options_json) if msg.options_json else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"options_json is not valid JSON: {exc}") from None
    if not isinstance(options, dict):
        raise ValueError("options_json must be a JSON object")  # noqa: TRY004 - maps to INVALID_ARGUMENT
    tc = msg.time_control
    seats = [SeatSpec(s.bot, s.command or None, s.cwd or None, dict(s.env)) for s in msg.seats]
    return MatchSpec(msg.match_id, msg.game, int(msg.seed), seats, options,
                     TimeControl(per_decision_ms=tc.per_decision_ms, bank_ms=tc.bank_ms), msg.shared_deal)


def report_from_proto(msg: organizer_pb2.RunMatchResponse) -> MatchReport:
    return MatchReport(msg.match_id, json.loads(msg.outcome_json), json.loads(msg.replay_json),
                       dict(msg.logs))


def frame_to_dict(f: organizer_pb2.WatchFrame) -> dict[str, Any]:
    """A spectator frame as plain JSON (what ``RefereeClient.watch`` yields)."""
    return {"match_id": f.match_id, "game": f.game, "bots": list(f.bots), "seq": f.seq, "ply": f.ply,
            "view": json.loads(f.view_json) if f.view_json else {},
            "events": json.loads(f.events_json) if f.events_json else [],
            "pending": list(f.pending), "actors": list(f.actors), "done": f.done,
            "outcome": json.loads(f.outcome_json) if f.outcome_json else None, "embargoed": f.embargoed}
