"""config.yaml's `alerts:` section: job-alert mail read by `fetch` (docs/alerts.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jobtracker.yamlfile import Document, checks


@dataclass(frozen=True)
class AlertsConfig:
    """Job-alert mail read by `fetch` from `maildir` and `imap` (docs/alerts.md)."""

    enabled: bool = True          # read alerts whenever a mailbox is configured
    close_after_days: int = 14    # a card not seen in an alert for this long is closed
    probe_companies: int = 5      # alert companies whose boards one fetch looks for (0: none)


def load(doc: Document, value: Any) -> AlertsConfig:
    raw = checks.mapping(doc, value, "alerts", allowed=("enabled", "close_after_days",
                                                  "probe_companies"))
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise doc.error("must be true or false", "alerts", "enabled")
    return AlertsConfig(
        enabled=enabled,
        close_after_days=checks.integer(
            doc, raw.get("close_after_days", AlertsConfig.close_after_days),
            "alerts", "close_after_days", maximum=3650),
        probe_companies=checks.integer(
            doc, raw.get("probe_companies", AlertsConfig.probe_companies),
                             "alerts", "probe_companies", minimum=0, maximum=100))
