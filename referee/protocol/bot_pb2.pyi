from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_CODE_UNSPECIFIED: _ClassVar[ErrorCode]
    MALFORMED_ANSWER: _ClassVar[ErrorCode]
    ILLEGAL_ACTION: _ClassVar[ErrorCode]
    STALE_DECISION: _ClassVar[ErrorCode]
    UNKNOWN_MATCH: _ClassVar[ErrorCode]
    TIMEOUT: _ClassVar[ErrorCode]
    OVERSIZED: _ClassVar[ErrorCode]
    FLOODING: _ClassVar[ErrorCode]
    PROTOCOL_VIOLATION: _ClassVar[ErrorCode]

class Consequence(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONSEQUENCE_UNSPECIFIED: _ClassVar[Consequence]
    IGNORED: _ClassVar[Consequence]
    REASKED: _ClassVar[Consequence]
    RANDOM_MOVE: _ClassVar[Consequence]
    FORFEIT: _ClassVar[Consequence]
    DISCONNECTED: _ClassVar[Consequence]

class ForwardOpKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FORWARD_OP_UNSPECIFIED: _ClassVar[ForwardOpKind]
    OP_SAMPLE: _ClassVar[ForwardOpKind]
    OP_APPLY: _ClassVar[ForwardOpKind]
    OP_LEGAL: _ClassVar[ForwardOpKind]
    OP_VIEW: _ClassVar[ForwardOpKind]
    OP_OUTCOME: _ClassVar[ForwardOpKind]
    OP_PENDING: _ClassVar[ForwardOpKind]
    OP_CLONE: _ClassVar[ForwardOpKind]
    OP_RELEASE: _ClassVar[ForwardOpKind]
    OP_PLAYOUT: _ClassVar[ForwardOpKind]

class ForwardError(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FORWARD_OK: _ClassVar[ForwardError]
    FORWARD_NO_DECISION: _ClassVar[ForwardError]
    FORWARD_DECISION_OVER: _ClassVar[ForwardError]
    FORWARD_BAD_OP: _ClassVar[ForwardError]
    FORWARD_BAD_HANDLE: _ClassVar[ForwardError]
    FORWARD_ILLEGAL_ACTION: _ClassVar[ForwardError]
    FORWARD_HANDLE_LIMIT: _ClassVar[ForwardError]
    FORWARD_DECISION_LIMIT: _ClassVar[ForwardError]
    FORWARD_MEMORY_LIMIT: _ClassVar[ForwardError]
    FORWARD_TOO_MANY_OPS: _ClassVar[ForwardError]
    FORWARD_DISABLED: _ClassVar[ForwardError]
    FORWARD_ENGINE_ERROR: _ClassVar[ForwardError]
ERROR_CODE_UNSPECIFIED: ErrorCode
MALFORMED_ANSWER: ErrorCode
ILLEGAL_ACTION: ErrorCode
STALE_DECISION: ErrorCode
UNKNOWN_MATCH: ErrorCode
TIMEOUT: ErrorCode
OVERSIZED: ErrorCode
FLOODING: ErrorCode
PROTOCOL_VIOLATION: ErrorCode
CONSEQUENCE_UNSPECIFIED: Consequence
IGNORED: Consequence
REASKED: Consequence
RANDOM_MOVE: Consequence
FORFEIT: Consequence
DISCONNECTED: Consequence
FORWARD_OP_UNSPECIFIED: ForwardOpKind
OP_SAMPLE: ForwardOpKind
OP_APPLY: ForwardOpKind
OP_LEGAL: ForwardOpKind
OP_VIEW: ForwardOpKind
OP_OUTCOME: ForwardOpKind
OP_PENDING: ForwardOpKind
OP_CLONE: ForwardOpKind
OP_RELEASE: ForwardOpKind
OP_PLAYOUT: ForwardOpKind
FORWARD_OK: ForwardError
FORWARD_NO_DECISION: ForwardError
FORWARD_DECISION_OVER: ForwardError
FORWARD_BAD_OP: ForwardError
FORWARD_BAD_HANDLE: ForwardError
FORWARD_ILLEGAL_ACTION: ForwardError
FORWARD_HANDLE_LIMIT: ForwardError
FORWARD_DECISION_LIMIT: ForwardError
FORWARD_MEMORY_LIMIT: ForwardError
FORWARD_TOO_MANY_OPS: ForwardError
FORWARD_DISABLED: ForwardError
FORWARD_ENGINE_ERROR: ForwardError

class BotMessage(_message.Message):
    __slots__ = ("hello", "answer", "ping", "pong", "forward")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    PING_FIELD_NUMBER: _ClassVar[int]
    PONG_FIELD_NUMBER: _ClassVar[int]
    FORWARD_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    answer: Answer
    ping: Ping
    pong: Pong
    forward: ForwardCall
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ..., ping: _Optional[_Union[Ping, _Mapping]] = ..., pong: _Optional[_Union[Pong, _Mapping]] = ..., forward: _Optional[_Union[ForwardCall, _Mapping]] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("welcome", "match_start", "decision", "match_end", "error", "ping", "pong", "goodbye", "forward")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    MATCH_START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PING_FIELD_NUMBER: _ClassVar[int]
    PONG_FIELD_NUMBER: _ClassVar[int]
    GOODBYE_FIELD_NUMBER: _ClassVar[int]
    FORWARD_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    match_start: MatchStart
    decision: DecisionRequest
    match_end: MatchEnd
    error: Error
    ping: Ping
    pong: Pong
    goodbye: Goodbye
    forward: ForwardReply
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., match_start: _Optional[_Union[MatchStart, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ..., ping: _Optional[_Union[Ping, _Mapping]] = ..., pong: _Optional[_Union[Pong, _Mapping]] = ..., goodbye: _Optional[_Union[Goodbye, _Mapping]] = ..., forward: _Optional[_Union[ForwardReply, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "games", "capacity", "client", "view_delta")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    VIEW_DELTA_FIELD_NUMBER: _ClassVar[int]
    token: str
    games: _containers.RepeatedScalarFieldContainer[str]
    capacity: int
    client: str
    view_delta: bool
    def __init__(self, token: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., capacity: _Optional[int] = ..., client: _Optional[str] = ..., view_delta: _Optional[bool] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("bot", "session_id", "capacity", "games", "max_message_bytes", "max_action_bytes", "reconnect_grace_ms", "server_version")
    BOT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_ACTION_BYTES_FIELD_NUMBER: _ClassVar[int]
    RECONNECT_GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    bot: str
    session_id: str
    capacity: int
    games: _containers.RepeatedScalarFieldContainer[str]
    max_message_bytes: int
    max_action_bytes: int
    reconnect_grace_ms: int
    server_version: str
    def __init__(self, bot: _Optional[str] = ..., session_id: _Optional[str] = ..., capacity: _Optional[int] = ..., games: _Optional[_Iterable[str]] = ..., max_message_bytes: _Optional[int] = ..., max_action_bytes: _Optional[int] = ..., reconnect_grace_ms: _Optional[int] = ..., server_version: _Optional[str] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("per_decision_ms", "bank_ms")
    PER_DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    per_decision_ms: int
    bank_ms: int
    def __init__(self, per_decision_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class MatchStart(_message.Message):
    __slots__ = ("match_id", "game", "game_version", "options_json", "seat", "players", "bots", "time_control", "resumed", "bot_seed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAME_VERSION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    BOT_SEED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    game_version: str
    options_json: str
    seat: int
    players: int
    bots: _containers.RepeatedScalarFieldContainer[str]
    time_control: TimeControl
    resumed: bool
    bot_seed: int
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., game_version: _Optional[str] = ..., options_json: _Optional[str] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., bots: _Optional[_Iterable[str]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., resumed: _Optional[bool] = ..., bot_seed: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("match_id", "decision_id", "seat", "view_json", "legal_json", "events_json", "deadline_ms", "time_bank_ms", "legal_count", "attempt", "game", "view_patch_json", "resent")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    LEGAL_JSON_FIELD_NUMBER: _ClassVar[int]
    EVENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_COUNT_FIELD_NUMBER: _ClassVar[int]
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VIEW_PATCH_JSON_FIELD_NUMBER: _ClassVar[int]
    RESENT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    decision_id: int
    seat: int
    view_json: str
    legal_json: str
    events_json: str
    deadline_ms: int
    time_bank_ms: int
    legal_count: int
    attempt: int
    game: str
    view_patch_json: str
    resent: bool
    def __init__(self, match_id: _Optional[str] = ..., decision_id: _Optional[int] = ..., seat: _Optional[int] = ..., view_json: _Optional[str] = ..., legal_json: _Optional[str] = ..., events_json: _Optional[str] = ..., deadline_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., legal_count: _Optional[int] = ..., attempt: _Optional[int] = ..., game: _Optional[str] = ..., view_patch_json: _Optional[str] = ..., resent: _Optional[bool] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("match_id", "decision_id", "index", "action_json")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    decision_id: int
    index: int
    action_json: str
    def __init__(self, match_id: _Optional[str] = ..., decision_id: _Optional[int] = ..., index: _Optional[int] = ..., action_json: _Optional[str] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("match_id", "outcome_json", "seat", "strikes")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    outcome_json: str
    seat: int
    strikes: int
    def __init__(self, match_id: _Optional[str] = ..., outcome_json: _Optional[str] = ..., seat: _Optional[int] = ..., strikes: _Optional[int] = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ("code", "consequence", "message", "match_id", "decision_id", "strikes", "max_strikes")
    CODE_FIELD_NUMBER: _ClassVar[int]
    CONSEQUENCE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    consequence: Consequence
    message: str
    match_id: str
    decision_id: int
    strikes: int
    max_strikes: int
    def __init__(self, code: _Optional[_Union[ErrorCode, str]] = ..., consequence: _Optional[_Union[Consequence, str]] = ..., message: _Optional[str] = ..., match_id: _Optional[str] = ..., decision_id: _Optional[int] = ..., strikes: _Optional[int] = ..., max_strikes: _Optional[int] = ...) -> None: ...

class Ping(_message.Message):
    __slots__ = ("nonce",)
    NONCE_FIELD_NUMBER: _ClassVar[int]
    nonce: int
    def __init__(self, nonce: _Optional[int] = ...) -> None: ...

class Pong(_message.Message):
    __slots__ = ("nonce",)
    NONCE_FIELD_NUMBER: _ClassVar[int]
    nonce: int
    def __init__(self, nonce: _Optional[int] = ...) -> None: ...

class Goodbye(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class ForwardCall(_message.Message):
    __slots__ = ("call_id", "match_id", "decision_id", "ops")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    OPS_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    match_id: str
    decision_id: int
    ops: _containers.RepeatedCompositeFieldContainer[ForwardOp]
    def __init__(self, call_id: _Optional[int] = ..., match_id: _Optional[str] = ..., decision_id: _Optional[int] = ..., ops: _Optional[_Iterable[_Union[ForwardOp, _Mapping]]] = ...) -> None: ...

class ForwardOp(_message.Message):
    __slots__ = ("op", "handle", "seat", "index", "action_json", "k", "seed", "max_decisions", "handles", "all", "snapshots")
    OP_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MAX_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    HANDLES_FIELD_NUMBER: _ClassVar[int]
    ALL_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOTS_FIELD_NUMBER: _ClassVar[int]
    op: ForwardOpKind
    handle: int
    seat: int
    index: int
    action_json: str
    k: int
    seed: str
    max_decisions: int
    handles: _containers.RepeatedScalarFieldContainer[int]
    all: bool
    snapshots: bool
    def __init__(self, op: _Optional[_Union[ForwardOpKind, str]] = ..., handle: _Optional[int] = ..., seat: _Optional[int] = ..., index: _Optional[int] = ..., action_json: _Optional[str] = ..., k: _Optional[int] = ..., seed: _Optional[str] = ..., max_decisions: _Optional[int] = ..., handles: _Optional[_Iterable[int]] = ..., all: _Optional[bool] = ..., snapshots: _Optional[bool] = ...) -> None: ...

class ForwardResult(_message.Message):
    __slots__ = ("error", "message", "handles", "json", "seats", "snapshots_json", "decisions")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    HANDLES_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOTS_JSON_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    error: ForwardError
    message: str
    handles: _containers.RepeatedScalarFieldContainer[int]
    json: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    snapshots_json: _containers.RepeatedScalarFieldContainer[str]
    decisions: int
    def __init__(self, error: _Optional[_Union[ForwardError, str]] = ..., message: _Optional[str] = ..., handles: _Optional[_Iterable[int]] = ..., json: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., snapshots_json: _Optional[_Iterable[str]] = ..., decisions: _Optional[int] = ...) -> None: ...

class ForwardReply(_message.Message):
    __slots__ = ("call_id", "results", "error", "message", "decisions_used", "live_handles")
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_USED_FIELD_NUMBER: _ClassVar[int]
    LIVE_HANDLES_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    results: _containers.RepeatedCompositeFieldContainer[ForwardResult]
    error: ForwardError
    message: str
    decisions_used: int
    live_handles: int
    def __init__(self, call_id: _Optional[int] = ..., results: _Optional[_Iterable[_Union[ForwardResult, _Mapping]]] = ..., error: _Optional[_Union[ForwardError, str]] = ..., message: _Optional[str] = ..., decisions_used: _Optional[int] = ..., live_handles: _Optional[int] = ...) -> None: ...
