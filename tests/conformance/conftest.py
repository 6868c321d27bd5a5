from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    # No shrinking: a seed is already a minimal example, and shrinking long playouts takes minutes.
    "conformance", deadline=None, derandomize=True, print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
