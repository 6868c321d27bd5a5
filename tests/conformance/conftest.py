from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "conformance", deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
