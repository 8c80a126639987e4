"""Suite-wide test settings: hypothesis runs derandomised, so every CI run sees the same cases."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Chroma and friends phone home unless told not to; the fidelity suite must stay offline.
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

settings.register_profile(
    "placeborag",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "placeborag"))
