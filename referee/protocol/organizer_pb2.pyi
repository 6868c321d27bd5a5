from referee.protocol import bot_pb2 as _bot_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RegisterBotRequest(_message.Message):
    __slots__ = ("name", "games")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    name: str
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ("name", "token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    token: str
    def __init__(self, name: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class RevokeBotRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RevokeBotResponse(_message.Message):
    __slots__ = ("sessions_closed",)
    SESSIONS_CLOSED_FIELD_NUMBER: _ClassVar[int]
    sessions_closed: int
    def __init__(self, sessions_closed: _Optional[int] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("name", "games", "created_unix_ms", "sessions", "free_capacity", "clients")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    FREE_CAPACITY_FIELD_NUMBER: _ClassVar[int]
    CLIENTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    games: _containers.RepeatedScalarFieldContainer[str]
    created_unix_ms: int
    sessions: int
    free_capacity: int
    clients: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., created_unix_ms: _Optional[int] = ..., sessions: _Optional[int] = ..., free_capacity: _Optional[int] = ..., clients: _Optional[_Iterable[str]] = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class MatchInfo(_message.Message):
    __slots__ = ("match_id", "game", "bots", "ply", "started_unix_ms", "status")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    STARTED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    ply: int
    started_unix_ms: int
    status: str
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., ply: _Optional[int] = ..., started_unix_ms: _Optional[int] = ..., status: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchInfo]
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchInfo, _Mapping]]] = ...) -> None: ...

class SeatSpec(_message.Message):
    __slots__ = ("bot", "command", "cwd", "env")
    class EnvEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    BOT_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    ENV_FIELD_NUMBER: _ClassVar[int]
    bot: str
    command: str
    cwd: str
    env: _containers.ScalarMap[str, str]
    def __init__(self, bot: _Optional[str] = ..., command: _Optional[str] = ..., cwd: _Optional[str] = ..., env: _Optional[_Mapping[str, str]] = ...) -> None: ...

class MatchSpec(_message.Message):
    __slots__ = ("match_id", "game", "seed", "seats", "options_json", "time_control", "shared_deal")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    SHARED_DEAL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seed: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    options_json: str
    time_control: _bot_pb2.TimeControl
    shared_deal: bool
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., options_json: _Optional[str] = ..., time_control: _Optional[_Union[_bot_pb2.TimeControl, _Mapping]] = ..., shared_deal: _Optional[bool] = ...) -> None: ...

class RunMatchRequest(_message.Message):
    __slots__ = ("spec", "live_wait_ms")
    SPEC_FIELD_NUMBER: _ClassVar[int]
    LIVE_WAIT_MS_FIELD_NUMBER: _ClassVar[int]
    spec: MatchSpec
    live_wait_ms: int
    def __init__(self, spec: _Optional[_Union[MatchSpec, _Mapping]] = ..., live_wait_ms: _Optional[int] = ...) -> None: ...

class RunMatchResponse(_message.Message):
    __slots__ = ("match_id", "outcome_json", "replay_json", "logs")
    class LogsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    REPLAY_JSON_FIELD_NUMBER: _ClassVar[int]
    LOGS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    outcome_json: str
    replay_json: str
    logs: _containers.ScalarMap[str, str]
    def __init__(self, match_id: _Optional[str] = ..., outcome_json: _Optional[str] = ..., replay_json: _Optional[str] = ..., logs: _Optional[_Mapping[str, str]] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "delay_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DELAY_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    delay_ms: int
    def __init__(self, match_id: _Optional[str] = ..., delay_ms: _Optional[int] = ...) -> None: ...

class WatchFrame(_message.Message):
    __slots__ = ("match_id", "seq", "ply", "view_json", "events_json", "pending", "done", "outcome_json", "game", "bots", "embargoed", "actors")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    EVENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    EMBARGOED_FIELD_NUMBER: _ClassVar[int]
    ACTORS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seq: int
    ply: int
    view_json: str
    events_json: str
    pending: _containers.RepeatedScalarFieldContainer[int]
    done: bool
    outcome_json: str
    game: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    embargoed: bool
    actors: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, match_id: _Optional[str] = ..., seq: _Optional[int] = ..., ply: _Optional[int] = ..., view_json: _Optional[str] = ..., events_json: _Optional[str] = ..., pending: _Optional[_Iterable[int]] = ..., done: _Optional[bool] = ..., outcome_json: _Optional[str] = ..., game: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., embargoed: _Optional[bool] = ..., actors: _Optional[_Iterable[int]] = ...) -> None: ...

class StatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StatusResponse(_message.Message):
    __slots__ = ("server_version", "games", "matches", "sessions", "uptime_s", "hosted")
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    UPTIME_S_FIELD_NUMBER: _ClassVar[int]
    HOSTED_FIELD_NUMBER: _ClassVar[int]
    server_version: str
    games: _containers.RepeatedScalarFieldContainer[str]
    matches: int
    sessions: int
    uptime_s: float
    hosted: str
    def __init__(self, server_version: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., matches: _Optional[int] = ..., sessions: _Optional[int] = ..., uptime_s: _Optional[float] = ..., hosted: _Optional[str] = ...) -> None: ...
