"""The model tasks, one pure module each, and the registry in pipeline order."""

from __future__ import annotations

REGISTRY: dict[str, object] = {"level": None, "judge": None, "inbox": None, "tailor": None,
                               "coverletter": None}
