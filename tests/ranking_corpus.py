"""A labelled corpus of job postings for the pre-rank (tests/unit/test_ranking_prerank.py,
tests/perf/bench_prerank.py).

Postings are built from templates, deterministically from a seed, the way boards write
them: a title with a level, the company's blurb, a role-specific middle (what you will
do, what you bring, what is nice to have) drawn from the role's own sentences, and the
boilerplate around it (benefits, an equal-opportunity line, now and then a sponsorship
sentence). Roles borrow each other's words as real postings do: a frontend posting
names the Python backend it talks to, a data analyst's asks for "Python or R", an SRE
posting mentions distributed systems.

Each posting carries the verdict a judge reading `PROSE` would give it, decided from
what the generator put in (the role family and its main language), never from the
words a ranker sees: `strong` for a Python backend or distributed-systems role, `good`
for a backend or data-pipeline role where Python is one of the languages, `partial`
for neighbours (a backend role in another language, SRE, ML, full stack, QA
automation in Python), `poor` for the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

PROSE = ("Senior backend engineer. Python, distributed systems, data pipelines.\n"
         "I want a remote-friendly team that ships carefully and writes things down.\n")
LEVELS = ("senior", "staff")
KEYWORDS = ("python", "postgresql", "kubernetes")
LOCATIONS = ("remote", "berlin")

PROFILE_YAML = ("prose: |\n" + "".join(f"  {line}\n" for line in PROSE.splitlines())
                + f"levels: [{', '.join(LEVELS)}]\nlocations: [{', '.join(LOCATIONS)}]\n")
KEYWORDS_YAML = f"keywords: [{', '.join(KEYWORDS)}]\n"

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Role:
    family: str
    titles: tuple[str, ...]
    duties: tuple[str, ...]
    stacks: tuple[tuple[str, ...], ...]     # the languages/tools one posting is written around
    extras: tuple[str, ...] = ()            # other sentences the role's postings use
    sometimes: tuple[str, ...] = ()         # sentences a quarter of its postings add


ROLES: dict[str, Role] = {
    "backend": Role(
        "backend",
        ("Backend Engineer", "Software Engineer, Backend", "Backend Developer",
         "Software Engineer - Payments API", "Server-Side Engineer",
         "Software Engineer, Core Services"),
        ("design and build the services behind our product",
         "own APIs that thousands of customers call every second",
         "make our {a} services faster, simpler and easier to operate",
         "design database schemas in {b} that stay correct under concurrent writes",
         "break a monolith into services where it helps, and not where it does not",
         "write design documents and review your colleagues' code",
         "be on call for the services your team owns, one week in six",
         "work with product managers to turn fuzzy problems into shipped features"),
        (("Python", "Django", "PostgreSQL", "Celery"), ("Python", "FastAPI", "PostgreSQL", "Kafka"),
         ("Go", "gRPC", "PostgreSQL", "Python"), ("Java", "Spring Boot", "MySQL", "Kafka"),
         ("Kotlin", "Spring", "PostgreSQL", "AWS"), ("Ruby", "Rails", "PostgreSQL", "Sidekiq"),
         ("Node.js", "TypeScript", "MongoDB", "Redis"), ("C#", ".NET", "SQL Server", "Azure"),
         ("Python", "Flask", "MySQL", "RabbitMQ"), ("Elixir", "Phoenix", "PostgreSQL", "Redis")),
        ("You have built backend services that run in production and you know what it takes "
         "to keep them running.",)),
    "platform": Role(
        "platform",
        ("Distributed Systems Engineer", "Platform Engineer", "Infrastructure Engineer",
         "Software Engineer, Distributed Storage", "Software Engineer, Data Infrastructure"),
        ("build the distributed systems every other team deploys on",
         "make our message queues and storage layer survive the loss of a whole zone",
         "design replication and consensus for our {a} storage engine",
         "own the platform that runs thousands of {b} services",
         "measure, profile and remove the bottlenecks of a system at scale",
         "write the runbooks and design documents the rest of us rely on"),
        (("Python", "Kubernetes", "Kafka", "PostgreSQL"), ("Go", "Kubernetes", "etcd", "Python"),
         ("Rust", "Raft", "Linux", "Python"), ("Python", "Cassandra", "Kafka", "Terraform"),
         ("Java", "Kafka", "ZooKeeper", "Kubernetes"), ("Scala", "Akka", "Kafka", "Spark"),
         ("C++", "Linux", "RDMA", "Go")),
        ("You understand distributed systems: consensus, replication, partitions and the "
         "failure modes they bring.",)),
    "data": Role(
        "data",
        ("Data Engineer", "Analytics Engineer", "Data Platform Engineer", "Big Data Engineer"),
        ("build and run the data pipelines that feed our analytics and machine learning",
         "model our warehouse so analysts can answer questions on their own",
         "move batch jobs to streaming where freshness matters",
         "own data quality: tests, contracts and alerts on our {a} pipelines",
         "work with {b} every day and make it faster"),
        (("Python", "Airflow", "Spark", "Snowflake"), ("Python", "dbt", "BigQuery", "Airflow"),
         ("Scala", "Spark", "Kafka", "Hadoop"), ("SQL", "dbt", "Snowflake", "Looker"),
         ("Python", "Kafka", "Flink", "PostgreSQL"), ("Java", "Beam", "Dataflow", "BigQuery")),
        ("Data pipelines are a product to you, with users, tests and an on-call rota.",)),
    "sre": Role(
        "sre",
        ("Site Reliability Engineer", "DevOps Engineer", "Production Engineer", "Cloud Engineer"),
        ("keep our production systems up and our on-call quiet",
         "automate everything that is done twice, in {a}",
         "run Kubernetes clusters across three regions",
         "define service level objectives with product teams and hold us to them",
         "improve our observability: metrics, traces and logs that answer questions"),
        (("Terraform", "Kubernetes", "AWS", "Python"), ("Ansible", "Linux", "Bash", "Prometheus"),
         ("Go", "Kubernetes", "GCP", "Terraform"),
         ("Python", "Kubernetes", "Prometheus", "Grafana")),
        (),
        ("You have run distributed systems in production and debugged them at 3 a.m.",)),
    "ml": Role(
        "ml",
        ("Machine Learning Engineer", "ML Engineer", "Data Scientist", "Applied Scientist"),
        ("train, evaluate and ship models that rank millions of items",
         "build the feature pipelines our models learn from",
         "run experiments and read their results honestly",
         "bring models from a notebook to production with {a}"),
        (("Python", "PyTorch", "Spark", "Kubeflow"), ("Python", "TensorFlow", "SQL", "Airflow"),
         ("Python", "scikit-learn", "pandas", "SQL"), ("R", "Python", "Stan", "SQL")),
        ("You know statistics well enough to distrust a good result.",)),
    "fullstack": Role(
        "fullstack",
        ("Full Stack Engineer", "Full-Stack Developer", "Product Engineer"),
        ("ship features end to end, from the database to the button",
         "build the React front end and the {a} API behind it",
         "work closely with design on the details that users notice"),
        (("TypeScript", "React", "Node.js", "PostgreSQL"),
         ("Python", "Django", "React", "PostgreSQL"),
         ("Ruby", "Rails", "React", "PostgreSQL"), ("PHP", "Laravel", "Vue", "MySQL")),
        ("You are as happy writing CSS as writing SQL.",)),
    "frontend": Role(
        "frontend",
        ("Frontend Engineer", "Front End Developer", "UI Engineer", "Web Engineer"),
        ("build accessible, fast interfaces in {a}",
         "own our design system and its components",
         "make the app load in under a second on a slow phone"),
        (("TypeScript", "React", "CSS", "GraphQL"), ("JavaScript", "Vue", "Sass", "Webpack"),
         ("TypeScript", "Angular", "RxJS", "CSS")),
        ("You care about accessibility and performance as much as about looks.",),
        ("You will work with the backend team on the APIs the app calls (they use Python "
         "and PostgreSQL).",)),
    "mobile": Role(
        "mobile",
        ("iOS Engineer", "Android Engineer", "Mobile Engineer", "Mobile Developer"),
        ("build the app our customers use every day in {a}",
         "own features from the first sketch to the store release",
         "care about start-up time, offline behaviour and battery life"),
        (("Swift", "SwiftUI", "Combine", "Xcode"),
         ("Kotlin", "Jetpack Compose", "Coroutines", "Gradle"),
         ("Dart", "Flutter", "Firebase", "REST")),
        ()),
    "qa": Role(
        "qa",
        ("QA Engineer", "Test Automation Engineer", "Software Engineer in Test"),
        ("build the test automation that lets us release every day",
         "write end-to-end tests in {a} and keep them fast and reliable",
         "find the bugs before our customers do"),
        (("Python", "pytest", "Selenium", "Jenkins"),
         ("Java", "JUnit", "Cypress", "GitHub Actions"),
         ("JavaScript", "Playwright", "Cypress", "CI")),
        ()),
    "security": Role(
        "security",
        ("Security Engineer", "Application Security Engineer", "Cloud Security Engineer"),
        ("find and fix vulnerabilities before attackers do",
         "threat-model new features with the teams building them",
         "run our bug bounty programme and our incident response"),
        (("Python", "AWS", "SAST", "Burp Suite"), ("Go", "Kubernetes", "IAM", "SIEM")),
        ()),
    "embedded": Role(
        "embedded",
        ("Embedded Software Engineer", "Firmware Engineer", "Embedded Linux Engineer"),
        ("write firmware for devices that run for years on one battery",
         "bring up new boards and debug them with an oscilloscope",
         "write drivers in {a}"),
        (("C", "C++", "FreeRTOS", "ARM"), ("C", "Linux", "Yocto", "Python")),
        ()),
    "manager": Role(
        "manager",
        ("Engineering Manager", "Head of Engineering", "Engineering Lead"),
        ("lead a team of six engineers and help each of them grow",
         "hire, coach and give honest feedback",
         "set the team's direction with product and keep its delivery steady"),
        (("Python", "people management", "hiring", "agile"), ("Java", "people management",
                                                           "OKRs", "scrum")),
        ()),
    "product": Role(
        "product",
        ("Product Manager", "Product Owner", "Technical Product Manager"),
        ("own the roadmap of one product area",
         "talk to customers every week and turn what you learn into priorities",
         "write clear specifications and work with engineering and design"),
        (("roadmaps", "discovery", "analytics", "SQL"), ("B2B SaaS", "pricing", "Jira", "OKRs")),
        ()),
    "design": Role(
        "design",
        ("Product Designer", "UX Designer", "UX Researcher"),
        ("design flows that make complicated things feel simple",
         "run user research and usability tests",
         "own the details in Figma and in the shipped product"),
        (("Figma", "prototyping", "user research", "design systems"),),
        ()),
    "sales": Role(
        "sales",
        ("Account Executive", "Solutions Engineer", "Sales Engineer", "Customer Success Manager"),
        ("close deals with mid-market customers",
         "run technical demos and proofs of concept",
         "own a book of accounts and grow it"),
        (("Salesforce", "SaaS", "negotiation", "demos"), ("APIs", "Python", "demos", "CRM")),
        ()),
    "analyst": Role(
        "analyst",
        ("Data Analyst", "Business Analyst", "BI Analyst"),
        ("answer the questions that decide what we build next",
         "build dashboards that people actually read",
         "write SQL every day, and Python or R when SQL is not enough"),
        (("SQL", "Tableau", "Excel", "Python or R"), ("SQL", "Looker", "dbt", "statistics")),
        ()),
    "support": Role(
        "support",
        ("Customer Support Specialist", "Technical Support Engineer", "Support Team Lead"),
        ("help customers solve their problems by mail, chat and phone",
         "write help-centre articles that stop the next ticket",
         "turn what customers tell you into bug reports engineering can act on"),
        (("Zendesk", "SQL", "APIs", "troubleshooting"),),
        ()),
}

LEVEL_WORDS = {"junior": ("Junior",), "mid": ("", "II"), "senior": ("Senior", "Sr."),
               "staff": ("Staff",), "principal": ("Principal",), "intern": ("Intern",)}
LEVEL_SHARE = (("junior", 12), ("mid", 30), ("senior", 35), ("staff", 12), ("principal", 6),
               ("intern", 5))

FAMILY_SHARE = (("backend", 16), ("platform", 6), ("data", 8), ("sre", 7), ("ml", 6),
                ("fullstack", 7), ("frontend", 9), ("mobile", 5), ("qa", 4), ("security", 3),
                ("embedded", 3), ("manager", 4), ("product", 6), ("design", 4), ("sales", 6),
                ("analyst", 5), ("support", 5))

COMPANIES = ("Acme", "Bolt", "Crane", "Dovetail", "Ember", "Fjord", "Granite", "Harbor",
             "Ionic", "Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Orbit", "Pylon",
             "Quarry", "Ridge", "Solace", "Tundra", "Umber", "Vertex", "Willow", "Xylem",
             "Yonder", "Zephyr", "Staffing Co", "TalentBridge Recruiting")
INDUSTRIES = ("payments", "logistics", "healthcare", "developer tools", "energy", "travel",
              "insurance", "e-commerce", "education", "security", "media", "climate")
PLACES = (("Remote", True), ("Remote (EU)", True), ("Berlin, Germany", False),
          ("Berlin or Remote", True), ("London, UK", False), ("New York, NY", False),
          ("Amsterdam, Netherlands", False), ("Paris, France", False), ("Madrid, Spain", False),
          ("Remote (US)", True), ("Munich, Germany", False), ("Toronto, Canada", False))

# What boards put before the role: a longer story about the company, in any order.
ABOUT = (
    "{c} was founded in {y} by a small group of people who were tired of the tools they "
    "had to use every day. Today more than {n} customers in forty countries rely on us, "
    "and we have grown to a team of a few hundred without losing the habits that got us "
    "here.",
    "Our mission is simple to say and hard to do: make {i} work better for everyone who "
    "depends on it. We raised our latest round from investors who care about durable "
    "companies, and we are profitable in two of our three markets.",
    "We believe the best work happens when people have time to think. That is why we "
    "keep meetings short, write things down, and protect focus time for everyone, from "
    "the newest hire to the founders.",
    "Last year we were named one of the best places to work in {i}, and we intend to "
    "keep earning it: our people stay with us for five years on average.",
    "We are proud of a culture built on trust, curiosity and kindness. We celebrate "
    "learning from mistakes, and we share what we learn in public on our blog.",
)
PROCESS = (
    "Our process: a first call with a recruiter (30 minutes), a conversation with the "
    "hiring manager, a take-home exercise or a pairing session, and a final round with "
    "two future colleagues. We answer every application within two weeks.",
    "How to apply: send us your CV and a few lines about why this role. We read every "
    "application ourselves and reply to everyone.",
    "The interview: four conversations over two weeks, all remote, with feedback after "
    "each step.",
)
BENEFITS = (
    "What we offer: a competitive salary and equity, thirty days of paid holiday, a home "
    "office budget and a yearly learning allowance.",
    "Benefits: private health insurance, sixteen weeks of parental leave for every parent, "
    "and a company offsite twice a year.",
    "We pay at the top of the market, publish our salary bands, and give everyone the same "
    "equity terms.",
    "Flexible hours, a four-day week in summer, and a team that respects your evenings.")
EEO = ("{c} is an equal opportunity employer. We welcome applications from people of every "
       "background and will make reasonable adjustments to our process for anyone who "
       "needs them.")
CULTURE = (
    "We are a remote-friendly team that writes things down: decisions, designs and "
    "post-mortems live in documents everyone can read.",
    "We ship small changes many times a day and care about doing it carefully.",
    "Our team is distributed across eight time zones, so most of our work is asynchronous.",
    "We move fast and like to break things, then fix them before lunch.",
    "You will join a small team with a lot of ownership and very few meetings.")
SPONSOR_NO = (
    "Please note that we are unable to sponsor visas for this role.",
    "We do not offer visa sponsorship.",
    "Candidates must be authorized to work in the country; sponsorship is not available.")
SPONSOR_YES = ("We sponsor visas and help with relocation.",
               "Visa sponsorship is available for this role.")

# Postings in other languages, as European boards publish them: the whole text in one
# language, with the job title often left in English.
FOREIGN = {
    "de": ("Über uns: {c} baut Software für {i}. Deine Aufgaben: Du entwickelst und betreibst "
           "unsere Dienste mit {a} und {b}. Dein Profil: mehrere Jahre Erfahrung mit {a}. "
           "Wir bieten: 30 Tage Urlaub, flexible Arbeitszeiten und Homeoffice.",
           "Leider können wir kein Visa-Sponsoring anbieten."),
    "fr": ("À propos: {c} construit des logiciels pour {i}. Vos missions: concevoir et "
           "faire évoluer nos services en {a} et {b}. Votre profil: plusieurs années "
           "d'expérience avec {a}. Nous offrons: télétravail, mutuelle et tickets restaurant.",
           "Nous ne sommes pas en mesure de parrainer de visa pour ce poste."),
    "nl": ("Over ons: {c} bouwt software voor {i}. Wat ga je doen: je bouwt en onderhoudt "
           "onze diensten met {a} en {b}. Wie ben jij: een aantal jaren ervaring met {a}. "
           "Wij bieden: thuiswerken, 25 vakantiedagen en een opleidingsbudget.",
           "Wij bieden geen visumsponsoring aan."),
    "es": ("Sobre nosotros: {c} crea software para {i}. Tus funciones: desarrollar y mantener "
           "nuestros servicios con {a} y {b}. Tu perfil: varios años de experiencia con {a}. "
           "Ofrecemos: teletrabajo, horario flexible y seguro médico.",
           "No ofrecemos patrocinio de visado para este puesto."),
}


def verdict_for(family: str, stack: tuple[str, ...]) -> str:
    """What a judge reading PROSE would answer, from what the posting was made of."""
    python = any(tool.startswith("Python") for tool in stack)
    if family in ("backend", "platform"):
        if stack[0] == "Python":
            return "strong"
        return "good" if python else "partial"
    if family == "data":
        return "good" if python else "partial"
    if family == "sre" or (python and family in ("ml", "fullstack", "qa", "security",
                                                  "manager")):
        return "partial"
    return "poor"


@dataclass(frozen=True)
class CorpusPosting:
    id: int
    company: str
    title: str
    location: str
    remote: bool | None
    description: str
    posted_at: str
    family: str
    level: str
    language: str
    verdict: str                 # what a judge reading PROSE would say
    refuses_sponsorship: bool
    salary_min: float | None = None
    salary_max: float | None = None
    salary_currency: str | None = None

    @property
    def wanted(self) -> bool:
        return self.verdict in ("strong", "good")


def _pick(rng: random.Random, shares: tuple[tuple[str, int], ...]) -> str:
    names = [name for name, _ in shares]
    return rng.choices(names, weights=[weight for _, weight in shares])[0]


def _title(rng: random.Random, role: Role, level: str, stack: tuple[str, ...]) -> str:
    base = rng.choice(role.titles)
    if role.family in ("backend", "platform", "data", "fullstack") and rng.random() < 0.3:
        base = f"{base} ({stack[0]})"     # as many boards title them
    word = rng.choice(LEVEL_WORDS[level])
    if not word:
        return base
    if word == "II":
        return f"{base} II"
    if word == "Intern":
        return f"{base} Intern"
    return f"{word} {base}"


def _english_body(rng: random.Random, role: Role, stack: tuple[str, ...], company: str,
                  industry: str) -> list[str]:
    a, b = stack[0], stack[1 % len(stack)]
    duties = rng.sample(role.duties, k=min(len(role.duties), rng.randint(3, 5)))
    needs = [f"{rng.randint(2, 8)}+ years of experience with {a}",
             f"experience with {b} and {stack[2 % len(stack)]}",
             "clear writing and a habit of explaining your decisions",
             f"familiarity with {stack[3 % len(stack)]}"]
    rng.shuffle(needs)
    nice = rng.sample(["open-source contributions", "experience in " + industry,
                       "startup experience", "a degree in computer science or similar",
                       "experience mentoring others"], k=2)
    about = " ".join(part.format(c=company, i=industry, y=rng.randint(2008, 2021),
                                 n=f"{rng.randint(2, 90)},000")
                     for part in rng.sample(ABOUT, k=rng.randint(1, 4)))
    paragraphs = [
        f"About {company}. {company} builds software for {industry}. {about} "
        f"{rng.choice(CULTURE)}",
        "What you will do: " + "; ".join(d.format(a=a, b=b) for d in duties) + ".",
        "What you bring: " + "; ".join(needs) + ". " + " ".join(
            [*role.extras, *(line for line in role.sometimes if rng.random() < 0.25)]),
        "Nice to have: " + ", ".join(nice) + ".",
        "Our stack: " + ", ".join(stack) + ".",
        rng.choice(BENEFITS),
        rng.choice(PROCESS),
        EEO.format(c=company),
    ]
    return paragraphs


def _borrowed(rng: random.Random, family: str) -> str | None:
    """A sentence from another role's world, as real postings mix them."""
    if rng.random() > 0.35:
        return None
    other = ROLES[rng.choice([f for f in ROLES if f != family])]
    return ("You will work closely with our other teams, who "
            + rng.choice(other.duties).format(a=other.stacks[0][0], b=other.stacks[0][1])
            + ".")


def generate(n: int = 1200, seed: int = 28) -> list[CorpusPosting]:
    """`n` postings, the same ones for the same seed, ids 1..n, posted over 60 days."""
    rng = random.Random(seed)
    out = []
    for index in range(1, n + 1):
        family = _pick(rng, FAMILY_SHARE)
        role = ROLES[family]
        level = _pick(rng, LEVEL_SHARE)
        stack = rng.choice(role.stacks)
        company = rng.choice(COMPANIES)
        industry = rng.choice(INDUSTRIES)
        location, remote = rng.choice(PLACES)
        language = "en" if rng.random() < 0.9 else rng.choice(sorted(FOREIGN))
        refuses = False
        if language == "en":
            paragraphs = _english_body(rng, role, stack, company, industry)
            borrowed = _borrowed(rng, family)
            if borrowed:
                paragraphs.insert(2, borrowed)
            roll = rng.random()
            if roll < 0.08:
                paragraphs.append(rng.choice(SPONSOR_NO))
                refuses = True
            elif roll < 0.14:
                paragraphs.append(rng.choice(SPONSOR_YES))
        else:
            body, no_sponsor = FOREIGN[language]
            paragraphs = [body.format(c=company, i=industry, a=stack[0], b=stack[1])]
            paragraphs.append(" ".join(d.format(a=stack[0], b=stack[1])
                                       for d in role.duties[:2]))
            if rng.random() < 0.2:
                paragraphs.append(no_sponsor)
                refuses = True
        posted = NOW - timedelta(days=rng.uniform(0, 60))
        salary: tuple[float | None, float | None, str | None] = (None, None, None)
        if rng.random() < 0.4:
            low = rng.randrange(50, 200) * 1000
            salary = (float(low), float(low + rng.randrange(10, 60) * 1000),
                      rng.choice(["USD", "EUR", "GBP"]))
        out.append(CorpusPosting(
            id=index, company=company, title=_title(rng, role, level, stack), location=location,
            remote=remote if rng.random() < 0.7 else None,
            description="\n\n".join(paragraphs),
            posted_at=posted.isoformat().replace("+00:00", "Z"), family=family, level=level,
            language=language, verdict=verdict_for(family, stack),
            refuses_sponsorship=refuses, salary_min=salary[0], salary_max=salary[1],
            salary_currency=salary[2]))
    return out


def store_corpus(db: Path, postings: list[CorpusPosting]) -> None:
    """Write `postings` into the workspace database at `db` (made and migrated by
    `jobtracker.store` already) as one board's listing, with their title levels."""
    from jobtracker.postings.levels import title_level
    from tests.db import raw_connect

    with raw_connect(db) as conn:
        conn.execute("INSERT OR IGNORE INTO boards (id, source, token, company) "
                     "VALUES (1, 'greenhouse', 'corpus', 'Corpus')")
        conn.executemany(
            "INSERT INTO postings (id, board_id, external_id, company, title, location, remote, "
            "url, title_level, description, salary_min, salary_max, salary_currency, "
            "posted_at, first_seen, last_seen, job_key) "
            "VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(p.id, f"c{p.id}", p.company, p.title, p.location,
              None if p.remote is None else int(p.remote), f"https://jobs.example/{p.id}",
              title_level(p.title), p.description, p.salary_min, p.salary_max,
              p.salary_currency, p.posted_at, p.posted_at, p.posted_at, f"k{p.id}")
             for p in postings])


def share_found(order: list[int], wanted: set[int], fraction: float) -> float:
    """Of the `wanted` ids, the share among the first `fraction` of `order`."""
    if not wanted:
        return 0.0
    head = order[:max(1, round(len(order) * fraction))]
    return len(wanted.intersection(head)) / len(wanted)
