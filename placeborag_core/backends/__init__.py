"""The backends layer: what each imitated engine does, as data and small functions, one module
per engine.

``PROFILES`` maps a profile name to its :class:`Profile`; the store pipeline and the adapters read
engines only through ``Profile`` and never name one.
"""

from placeborag_core.backends.profiles import (
    PROFILES,
    IdRule,
    KRule,
    MetricVariant,
    Profile,
    point_id_key,
)

__all__ = ["PROFILES", "IdRule", "KRule", "MetricVariant", "Profile", "point_id_key"]
