# ruff: noqa: E501   (a resume has long lines: they are what wrapping is tested on)
"""Resumes for the rendering tests and benchmark: a realistic two-page one, and a
generator for any length."""

from __future__ import annotations

RESUME = """\
# Jane Developer
jane.dev+jobs@example.com · +44 20 7946 0000 · London, UK · [github.com/jane-dev](https://github.com/jane-dev) · [jane.dev](https://jane.dev)

Backend engineer with nine years of Python services, data pipelines and the
on-call work that keeps them running. I like *efficient*, **boring** systems.

## Experience

### Tessellate Payments — Senior Backend Engineer (2020 to now)

- Built the payment ledger service in Python and PostgreSQL, handling two million transactions a day with verification at every step.
- Led the move of twelve services to Kubernetes with zero downtime, one office at a time.
- Designed an event pipeline on Kafka that replaced nightly batch jobs and cut reconciliation from hours to minutes.
- Mentored four engineers and wrote the team's design review guide.
- Introduced property-based tests for the fee calculator; found three rounding defects before launch.
- Ran the quarterly capacity review with finance and infrastructure.

### Harbor Logistics — Backend Engineer (2016 to 2020)

- Wrote route-planning APIs in Python with `asyncio` and Redis.
- Cut the p99 latency of the tracking API from 900 ms to 120 ms:
  - replaced per-request database lookups with a read-through cache;
  - moved geocoding to a batch job with retries and a dead-letter queue;
  - added tracing to every hop, which made the slow paths obvious.
- Ran the on-call rotation and its postmortems for three years.
- Built the internal tool dispatchers use to re-route deliveries during storms.

### Fieldwork Analytics — Software Engineer (2014 to 2016)

- Maintained the ETL jobs that fed the customer dashboards, written in Python and SQL.
- Rewrote the CSV importer to stream files instead of loading them whole; memory fell by 90%.
- Wrote the first on-boarding guide for new engineers.

## Projects

### ledgerlint — an open-source linter for double-entry ledgers

- Checks that every transaction balances and that accounts follow a naming scheme.
- About 400 stars; used by two small accounting firms.

### Trainspotter — a timetable scraper

- Scrapes public timetables nightly and publishes them as a GTFS feed.

## Skills

- **Languages:** Python, SQL, Go (reading), Bash
- **Data:** PostgreSQL, Redis, Kafka, SQLite
- **Operations:** Kubernetes, Docker, Terraform, Prometheus, Grafana, Linux
- **Practice:** code review, design documents, incident response, mentoring

## Education

### University of Leeds — BSc Computer Science (2010 to 2014)

- First-class honours; dissertation on conflict-free replicated data types.
- Teaching assistant for the second-year databases course.

## Talks and writing

1. "Ledgers that do not lie" — PyCon UK 2023
2. "Boring queues" — a blog series on Kafka consumer groups
3. "Your p99 is a story" — London Python meetup 2019

## Languages

- English (native), Spanish (professional working proficiency), French (basic)

## Interests

Long-distance cycling, bread baking, and restoring an old Raleigh frame.
"""

LETTER = """\
Dear Acme team,

I am applying for the Senior Backend Engineer role. For the last four years I have
built and run the payment ledger at Tessellate, in Python and PostgreSQL.

I would bring the same care for correct, boring systems to Acme.

Kind regards,
Jane Developer
"""


def long_resume(pages: int) -> str:
    """A resume of about `pages` pages: the sample's header and many entries."""
    head, _, _ = RESUME.partition("## Experience")
    entries = [f"### Company {n} — Engineer ({1900 + n % 120})\n\n"
               + "".join(f"- Did thing {n}.{k} with care and measured results.\n"
                         for k in range(12))
               for n in range(pages * 3)]
    return head + "## Experience\n\n" + "\n".join(entries)
