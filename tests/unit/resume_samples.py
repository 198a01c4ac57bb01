"""The resume and posting the resume, grounding and tailoring tests read: a short
Markdown resume with experience and skills, and a posting naming things it does not."""

RESUME = """# Ada Lovelace

## Experience

- Example Corp — Backend Engineer (2020–2024)
  - Built a Python service that processed 2M events a day. Cut costs in half.
  - Ran the on-call rotation for the payments team.
  - Wrote PostgreSQL migrations.

## Skills

Python, PostgreSQL, distributed systems
"""


POSTING = ("We run Kubernetes on AWS. You will own services written in Go.\n"
           "About the Team\nOur team ships weekly.")
