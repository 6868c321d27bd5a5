"""The forward model for Python bots: the engine's ``ForwardModel`` (in-process, "local mode").

In-process matches (``arena play``, ``arena eval``, the in-process executor) hand a ``SeatSampler``
to every bot that defines ``bind_sampler``; ``ForwardModel(sampler)`` then runs every simulated step in
the bot's process. Through a referee the SDK binds a ``bots.sdk.remote_forward.RemoteSampler``
instead (samples fetched as snapshots, simulated here), so the same bot runs either way; a bot that
wants the referee to simulate (any language) uses ``RemoteForwardModel``, with the same methods.
"""
from __future__ import annotations

from referee.engine.forward import Batch, ForwardModel, ForwardModelError, Limits, Sampler

__all__ = ["Batch", "ForwardModel", "ForwardModelError", "Limits", "Sampler"]
