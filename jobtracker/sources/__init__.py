"""Job-board and feed parsers, one module per source, plus the registry.

Adding an ATS is one module here and one import line below.
"""

from __future__ import annotations

REGISTRY: dict[str, object] = {"greenhouse": None, "lever": None, "ashby": None}
