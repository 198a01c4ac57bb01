"""A labelled set of posting pairs for the same-job measure
(tests/unit/test_postings_samejob.py).

Each pair is two descriptions under one company and title, labelled as the same job
or not. The texts are built the way boards write them: the company's boilerplate
(about us, benefits, an equal-opportunity line) around a role-specific middle.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobtracker.text import html_to_text

ABOUT = ("About Acme. Acme builds the payments infrastructure that thousands of small "
         "businesses across Europe rely on every day. We are a remote-first team of two "
         "hundred people in twelve countries, backed by investors who care about durable "
         "companies, and we ship carefully because our customers' money depends on it.")
BENEFITS = ("What we offer: a competitive salary and equity, thirty days of paid holiday, "
            "a home office budget, a yearly learning allowance, private health insurance, "
            "sixteen weeks of parental leave for every parent, and a company offsite twice "
            "a year somewhere warm.")
EEO = ("Acme is an equal opportunity employer. We welcome applications from people of "
       "every background, and we will make reasonable adjustments to our process for "
       "anyone who needs them; just tell your recruiter.")

ROLES = {
    "ledger": (
        "The role. You will join the Ledger team, which owns the double-entry accounting "
        "core that every payment passes through. You will design schemas that stay correct "
        "under concurrent writes, make reconciliation jobs faster, and pair with finance on "
        "the month-end close. You have written backend services in Python or Go, you know "
        "PostgreSQL well, including its locking and isolation levels, and you have operated "
        "a system where correctness mattered more than speed. Experience with event "
        "sourcing or financial systems is a plus but not required."),
    "mobile": (
        "The role. You will join the Mobile team and build the Acme app that merchants use "
        "to take card payments on their phones. You will own features end to end, from the "
        "first sketch with design to the release on both stores, and you will care about "
        "start-up time, offline behaviour and accessibility. You have shipped apps written "
        "in Kotlin or Swift, you are at home with reactive UI frameworks, and you enjoy "
        "talking to merchants to learn what slows them down at the counter."),
    "platform": (
        "The role. The Platform team runs the Kubernetes clusters, the CI pipelines and the "
        "observability stack the rest of engineering builds on. You will automate our "
        "infrastructure with Terraform, cut our build times, improve alerting so that "
        "on-call engineers are woken only for real problems, and help teams move services "
        "to a new region. You have run production systems on a public cloud, you script "
        "fluently, and you explain trade-offs clearly to people outside your team."),
    "risk": (
        "The role. The Risk team decides in milliseconds whether a payment looks like fraud. "
        "You will build features from transaction streams, train and evaluate models with "
        "the data scientists, and make sure the scoring service stays fast and explainable "
        "to regulators. You have worked on streaming data with Kafka or Flink, you are "
        "comfortable with statistics, and you like tracing a false positive back to the "
        "feature that caused it."),
}


def posting(role: str, *, intro: str = ABOUT, extra: str = "") -> str:
    return "\n\n".join(part for part in (intro, ROLES[role], BENEFITS, EEO, extra) if part)


@dataclass(frozen=True)
class Pair:
    name: str
    a: str
    b: str
    same: bool


def _html(text: str) -> str:
    return "".join(f"<p><strong>{p.split('.')[0]}.</strong>{'.'.join(p.split('.')[1:])}</p>\n"
                   for p in text.split("\n\n"))


def _swap_paragraphs(text: str) -> str:
    parts = text.split("\n\n")
    return "\n\n".join([parts[1], parts[0], *parts[2:]])


def _cut(text: str, share: float) -> str:
    words = text.split()
    return " ".join(words[:int(len(words) * share)])


LEDGER = posting("ledger")

PAIRS = [
    # The same job, reached twice.
    Pair("identical text", LEDGER, LEDGER, True),
    Pair("markup and case differ", LEDGER, html_to_text(_html(LEDGER)).upper(), True),
    Pair("aggregator link back appended", LEDGER,
         LEDGER + "\n\nVia Remote OK: https://remoteok.com/remote-jobs/remote-ledger-1234", True),
    Pair("repost with the date edited", LEDGER + "\n\nPosted on 3 March 2026.",
         LEDGER + "\n\nPosted on 12 May 2026.", True),
    Pair("repost with a sentence rewritten", LEDGER, LEDGER.replace(
        "Experience with event sourcing or financial systems is a plus but not required.",
        "Experience with event sourcing is welcome."), True),
    Pair("paragraphs reordered", LEDGER, _swap_paragraphs(LEDGER), True),
    Pair("a paragraph added", posting("platform"),
         posting("platform", extra="Interview process: a call with the hiring manager, a "
                 "take-home task of two hours at most, a systems conversation and a chat "
                 "with two future colleagues. We answer every application within a week."),
         True),
    Pair("boilerplate dropped by the aggregator", posting("mobile"),
         f"{ROLES['mobile']}\n\n{BENEFITS}", True),
    Pair("aggregator keeps the first 60%", posting("risk"), _cut(posting("risk"), 0.6), True),
    # Two jobs under one title at one company: the boilerplate is shared.
    Pair("ledger vs mobile", posting("ledger"), posting("mobile"), False),
    Pair("ledger vs platform", posting("ledger"), posting("platform"), False),
    Pair("ledger vs risk", posting("ledger"), posting("risk"), False),
    Pair("mobile vs platform", posting("mobile"), posting("platform"), False),
    Pair("mobile vs risk", posting("mobile"), posting("risk"), False),
    Pair("platform vs risk", posting("platform"), posting("risk"), False),
    # Known false merges: when the boilerplate is nearly all of both texts, a few
    # words are all that differ, as with a repost whose date changed.
    Pair("short roles in long boilerplate",
         f"{ABOUT}\n\nYou will build the ledger.\n\n{BENEFITS}\n\n{EEO}",
         f"{ABOUT}\n\nYou will build the mobile app.\n\n{BENEFITS}\n\n{EEO}", False),
    Pair("one role, the other only boilerplate", posting("risk"),
         f"{ABOUT}\n\n{BENEFITS}\n\n{EEO}", False),
]
