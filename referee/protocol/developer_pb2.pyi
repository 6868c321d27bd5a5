from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RegisterDeveloperRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RegisterDeveloperResponse(_message.Message):
    __slots__ = ("name", "token", "status")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    name: str
    token: str
    status: str
    def __init__(self, name: _Optional[str] = ..., token: _Optional[str] = ..., status: _Optional[str] = ...) -> None: ...

class SubmitHeader(_message.Message):
    __slots__ = ("size", "sha256")
    SIZE_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    size: int
    sha256: str
    def __init__(self, size: _Optional[int] = ..., sha256: _Optional[str] = ...) -> None: ...

class SubmitChunk(_message.Message):
    __slots__ = ("header", "data")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    header: SubmitHeader
    data: bytes
    def __init__(self, header: _Optional[_Union[SubmitHeader, _Mapping]] = ..., data: _Optional[bytes] = ...) -> None: ...

class VersionInfo(_message.Message):
    __slots__ = ("name", "family", "version", "status", "reason", "runtime", "games", "package_sha256", "submitted_unix_ms", "log")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RUNTIME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    PACKAGE_SHA256_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    name: str
    family: str
    version: int
    status: str
    reason: str
    runtime: str
    games: _containers.RepeatedScalarFieldContainer[str]
    package_sha256: str
    submitted_unix_ms: int
    log: str
    def __init__(self, name: _Optional[str] = ..., family: _Optional[str] = ..., version: _Optional[int] = ..., status: _Optional[str] = ..., reason: _Optional[str] = ..., runtime: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., package_sha256: _Optional[str] = ..., submitted_unix_ms: _Optional[int] = ..., log: _Optional[str] = ...) -> None: ...

class ListVersionsRequest(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    def __init__(self, bot: _Optional[str] = ...) -> None: ...

class ListVersionsResponse(_message.Message):
    __slots__ = ("developer", "status", "versions")
    DEVELOPER_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    developer: str
    status: str
    versions: _containers.RepeatedCompositeFieldContainer[VersionInfo]
    def __init__(self, developer: _Optional[str] = ..., status: _Optional[str] = ..., versions: _Optional[_Iterable[_Union[VersionInfo, _Mapping]]] = ...) -> None: ...

class GetVersionRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class MatchOutputsRequest(_message.Message):
    __slots__ = ("name", "limit")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    name: str
    limit: int
    def __init__(self, name: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class SeatOutput(_message.Message):
    __slots__ = ("match_id", "game", "seat", "rank", "forfeit", "finished_unix_ms", "text")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    match_id: int
    game: str
    seat: int
    rank: int
    forfeit: str
    finished_unix_ms: int
    text: str
    def __init__(self, match_id: _Optional[int] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., rank: _Optional[int] = ..., forfeit: _Optional[str] = ..., finished_unix_ms: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class MatchOutputsResponse(_message.Message):
    __slots__ = ("outputs", "sealed")
    OUTPUTS_FIELD_NUMBER: _ClassVar[int]
    SEALED_FIELD_NUMBER: _ClassVar[int]
    outputs: _containers.RepeatedCompositeFieldContainer[SeatOutput]
    sealed: int
    def __init__(self, outputs: _Optional[_Iterable[_Union[SeatOutput, _Mapping]]] = ..., sealed: _Optional[int] = ...) -> None: ...
