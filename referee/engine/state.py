"""The ``State`` contract every game implements, and the checked/trusted apply split.

A subclass implements the rules (``pending``, ``_legal``, ``_apply``, ``observe``, ``outcome``,
``redraw_hidden``) and declares its data once, as dataclass fields (``record.py`` derives
``snapshot_data``/``from_snapshot``/``clone`` from them); this base gives every game the same
checked ``apply``, the same legal-list cache, the same ``redeterminize`` around the game's re-draw
(legality lives only in ``_legal``), snapshots with a common header, digests, and filtered event
reading.
"""
from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import IllegalAction, MalformedAction, NotYourDecision, SnapshotError
from .events import EventLog
from .jsonutil import canonical, digest_text
from .outcome import Outcome
from .record import codec
from .rng import Rng
from .viewer import ALL, PUBLIC, Viewer

if TYPE_CHECKING:
    from .game import Game


class State(ABC):
    """A game in progress. Everything random comes from ``self.rng``."""

    game: Game
    #: Top-level view keys whose value is the same in every view of a match, for every viewer (a map,
    #: constants). When they are the view's last keys, in this order, the referee encodes them once
    #: per match (Clank: 6 of its ~9 KB). The conformance suite checks they never change.
    STATIC_VIEW_KEYS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # One way to re-draw: a game that overrode redeterminize would skip the engine's reseeding and
        # log filtering, and its copies would carry the truth. Fail at import, not in a search bot.
        if "redeterminize" in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} overrides State.redeterminize: override redraw_hidden "
                            "instead (the engine reseeds the copy's RNG and keeps only the seat's events)")
        # One legal-list cache, here: a game answers ``_legal`` and primes with ``remember_legal``.
        if "legal_actions" in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} overrides State.legal_actions: implement _legal instead "
                            "(the engine caches its answer until the next apply)")

    def __init__(self, game: Game, players: int, options: dict[str, Any], rng: Rng | int,
                 log: EventLog | None = None) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.rng = rng if isinstance(rng, Rng) else Rng(rng)
        self.log = log if log is not None else EventLog()
        if dataclasses.is_dataclass(self):
            codec(type(self)).reset(self)   # the declared fields, at their defaults

    # -- the rules (implemented by each game) ------------------------------------------------
    @abstractmethod
    def pending(self) -> list[int]:
        """Seats that must decide now, ascending. Several = a simultaneous secret choice. Empty = over."""

    @abstractmethod
    def _legal(self, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions as JSON dicts, in a deterministic order; [] if not pending.
        Called through ``legal_actions``, which caches the list until the next apply."""

    @abstractmethod
    def _apply(self, seat: int, action: dict[str, Any]) -> None:
        """Trusted apply: ``action`` is known to be in the legal list."""

    @abstractmethod
    def observe(self, viewer: Viewer) -> dict[str, Any]:
        """The view for a seat, PUBLIC or ALL, built as a whitelist (never copy-and-delete)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    # -- the data (declared once, as dataclass fields: see record.py) -------------------------------
    def snapshot_data(self) -> dict[str, Any]:
        """The game-specific part of the snapshot (JSON): the subclass's dataclass fields."""
        return codec(type(self)).dump(self)

    @classmethod
    def from_snapshot(cls, game: Game, players: int, options: dict[str, Any], rng: Rng, log: EventLog,
                      data: dict[str, Any]) -> State:
        """Inverse of ``snapshot_data``."""
        st = cls.__new__(cls)
        st.game, st.players, st.options, st.rng, st.log = game, players, options, rng, log
        codec(cls).load_into(st, data)
        st.after_restore()
        return st

    def clone(self) -> State:
        """A deep copy, field by field (no JSON in between)."""
        cls = type(self)
        st = cls.__new__(cls)
        st.game, st.players, st.options = self.game, self.players, self.options
        st.rng, st.log = self.rng.copy(), self.log.copy()
        codec(cls).copy_into(self, st)
        st.after_restore()
        return st

    def after_restore(self) -> None:  # noqa: B027  (a hook: most games derive nothing)
        """Set what is derived, not stored (e.g. a reference to the game's content), after
        ``from_snapshot`` and ``clone``."""

    # -- the legal-list cache ------------------------------------------------------------------------
    #: (seat, list) of the last ``_legal`` answer; dropped by every apply
    _legal_cache: tuple[int, list[dict[str, Any]]] | None = None
    #: set while ``_apply`` runs (``legal_actions`` refuses then)
    _applying: bool = False

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions as JSON dicts, in a deterministic order; [] if not pending.
        The list is the caller's (a copy); its dicts are shared and must not be edited."""
        if self._applying:
            raise RuntimeError(f"{type(self).__qualname__}: legal_actions called while an action is "
                               "applied (the cache would keep a list of the middle of the apply): call the "
                               "game's legal builder and hand the final list over with remember_legal")
        cached = self._legal_cache
        if cached is None or cached[0] != seat:
            cached = self._legal_cache = (seat, self._legal(seat))
        return list(cached[1])

    def remember_legal(self, seat: int, legal: list[dict[str, Any]]) -> None:
        """Prime the cache with a list the rules computed anyway (e.g. to find a forced move)."""
        self._legal_cache = (seat, legal)

    def forget_legal(self) -> None:
        """Drop the cache: for code that edits a state outside ``apply`` (tests, scenario set-up)."""
        self._legal_cache = None

    def redraw_hidden(self, seat: int, rng: Rng) -> State:
        """A copy in which everything ``seat`` cannot see is re-drawn with ``rng`` (the game's part of
        ``redeterminize``; see there for the contract). Games with hidden information must override it.

        The result must be a function of what ``seat`` has seen and of ``rng`` only: gather each unknown
        pool in a canonical order (e.g. ``sorted``) before shuffling it, never in the order the truth
        holds it, or two true states the seat cannot tell apart give different copies.
        """
        if self.game.info.hidden_information:
            raise NotImplementedError(f"{self.game.info.id} must implement redraw_hidden")
        return self.clone()

    # -- provided ----------------------------------------------------------------------------
    def redeterminize(self, seat: int, rng: Rng) -> State:
        """A copy where everything ``seat`` cannot see is re-drawn consistently with what it saw.

        The contract (checked by the conformance suite):
        - ``seat``'s view, legal list and event feed, the PUBLIC view and feed and ``pending()`` are
          the same in the copy; the original is untouched;
        - the game re-draws the hidden part of its state (``redraw_hidden``);
        - the copy's RNG is reseeded from ``rng`` (the true RNG state is the future: cards not yet
          drawn, dice not yet rolled);
        - the copy's log keeps only what ``seat`` was shown (``EventLog.seen_by``): other seats'
          private events are dropped, not re-drawn, because they would hold the true hidden values
          and a game cannot, in general, re-tell them consistently with the re-drawn state;
        so two true states that ``seat`` cannot tell apart, redeterminized with equal generators,
        give equal copies, snapshot for snapshot (``tests/conformance``: ``test_redeterminize_*``).
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r} in a {self.players}-seat game")
        copy = self.redraw_hidden(seat, rng)
        copy.rng = Rng(rng.next64())
        copy.log = self.log.seen_by(seat)
        return copy

    # -- provided ----------------------------------------------------------------------------
    def is_over(self) -> bool:
        return not self.pending()

    def apply(self, seat: int, action: Any) -> dict[str, Any]:
        """Checked apply: malformed -> ``MalformedAction``; not pending -> ``NotYourDecision``;
        not legal -> ``IllegalAction``. On any error the state is unchanged."""
        if self.game.actions is not None:
            self.game.actions.validate(action)
        elif not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise MalformedAction("an action must be a JSON object with a string 'type'")
        if seat not in self.pending():
            raise NotYourDecision(f"seat {seat} has no decision to make now")
        key = canonical(dict(action))
        for legal in self.legal_actions(seat):
            if canonical(legal) == key:
                self._run_apply(seat, legal)
                return legal
        raise IllegalAction(f"action of type {action.get('type')!r} is not legal for seat {seat} now")

    def apply_index(self, seat: int, index: int) -> dict[str, Any]:
        """Checked apply by position in the legal list; returns the action taken."""
        if seat not in self.pending():
            raise NotYourDecision(f"seat {seat} has no decision to make now")
        legal = self.legal_actions(seat)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            raise IllegalAction(f"index {index!r} is outside the legal list (0..{len(legal) - 1})")
        action = legal[index]
        self._run_apply(seat, action)
        return action

    def apply_trusted(self, seat: int, action: dict[str, Any]) -> None:
        """Unchecked apply for callers that took ``action`` from the legal list themselves."""
        self._run_apply(seat, action)

    def _run_apply(self, seat: int, action: dict[str, Any]) -> None:
        self._legal_cache = None
        self._applying = True
        try:
            self._apply(seat, action)
        finally:
            self._applying = False

    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON, with a header naming the game and version."""
        return self._snapshot(self.log.to_json())

    def _snapshot(self, log: Any) -> dict[str, Any]:
        return {
            "game": self.game.info.id,
            "version": self.game.info.version,
            "players": self.players,
            "options": self.options,
            "rng": self.rng.to_json(),
            "log": log,
            "data": self.snapshot_data(),
        }

    def digest(self) -> str:
        """Hash of the snapshot: equal digests mean equal states.

        The same value as ``digest_of(self.snapshot())``: the snapshot's canonical JSON is put together
        key by key (sorted, as ``canonical`` writes them), with the log's text from
        ``EventLog.canonical_text``, which encodes each entry once."""
        parts = self._snapshot(None)
        text = ",".join(f"{canonical(k)}:{self.log.canonical_text() if k == 'log' else canonical(parts[k])}"
                        for k in sorted(parts))
        return digest_text("{" + text + "}")

    def events_for(self, viewer: Viewer, cursor: int = 0) -> list[dict[str, Any]]:
        """Events from ``cursor`` that ``viewer`` may see."""
        return self.log.since(viewer, cursor)

    def check_viewer(self, viewer: Viewer) -> None:
        if viewer in (PUBLIC, ALL):
            return
        if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < self.players:
            raise ValueError(f"no seat {viewer!r} in a {self.players}-seat game")


def restore_state(game: Game, snapshot: Mapping[str, Any]) -> State:
    """Generic ``Game.restore``: check the header, then hand over to the state class."""
    try:
        if snapshot["game"] != game.info.id:
            raise SnapshotError(f"snapshot is of game {snapshot['game']!r}, not {game.info.id!r}")
        if snapshot["version"] != game.info.version:
            raise SnapshotError(
                f"snapshot is of {game.info.id} version {snapshot['version']}, engine is {game.info.version}")
        state_class: type[State] = game.state_class
        return state_class.from_snapshot(
            game, int(snapshot["players"]), dict(snapshot["options"]), Rng.from_json(snapshot["rng"]),
            EventLog.from_json(snapshot["log"]), snapshot["data"])
    except (KeyError, TypeError) as exc:
        raise SnapshotError(f"snapshot is missing or mistypes {exc}") from exc
