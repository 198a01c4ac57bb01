"""The tracker: applications with their derived dates, one application's timeline,
follow-ups and ghosting, and the funnel. Reads only, except `propose_ghosted`, which
writes proposals (never an application: that waits for the user's yes)."""

from jobtracker.tracker import funnel
from jobtracker.tracker.calibration import stats
from jobtracker.tracker.ghosting import propose_ghosted
from jobtracker.tracker.overview import Row, load_rows
from jobtracker.tracker.timeline import Timeline, load_timeline

__all__ = ["Row", "Timeline", "funnel", "load_rows", "load_timeline", "propose_ghosted", "stats"]
