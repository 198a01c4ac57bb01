"""Interviews: times read from scheduling mail, accepted into the user's calendar.

- `when`   finding dates, times and zones in a sentence and checking a reading
           against it (pure: no clock, no I/O);
- `store`  the `interviews` table: upcoming ones, one application's, writes;
- `ics`    the per-interview `.ics` files and the `interviews.ics` feed (icalendar).

The `interview` proposal kind (jobtracker/proposals/interview.py) is what writes here,
when the user accepts; nothing an email says becomes an event without that yes.
"""
