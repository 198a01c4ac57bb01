"""Welcome to the Jungle (which took in Otta): "New match: <Title> at <Company>".

From alerts@ (or help@) welcometothejungle.com. Each card is a `<table class="job-item">`
of three cells — the company, the title, "<contract> - <city>" ("CDI - Paris") — each
cell its own link. Every link is a SendGrid click tracker
(`http://t.welcometothejungle.com/ls/click?upn=u001.<token>...`), and the three links of
a card differ: so the card is the box, not the link. When the token decodes (base64,
SendGrid writing `+ / =` as `-2B -2F -3D`) to a job page
`welcometothejungle.com/<lang>/companies/<co>/jobs/<slug>`, that page is the posting's
and `<co>/<slug>` its id (the same job under /en/ and /fr/ is one); whether real
tokens decode is unverified, so otherwise the id is a hash of company, title and
place and the page a search on the site. The tracker itself is never stored.
"""

from __future__ import annotations

import base64
import binascii
import re

from jobtracker.alerts.base import (
    CardText,
    JobLink,
    Sender,
    host_of,
    param,
    pattern,
    posting,
    search_url,
)
from jobtracker.hosts import host_is
from jobtracker.sources.base import NormalizedPosting

_PAGE = re.compile(
    r"https?://(?:www\.)?welcometothejungle\.com/([a-z]{2})/companies/([a-z0-9-]{1,100})"
    r"/jobs/([a-z0-9_-]{1,200})", re.I)
_CONTRACT = re.compile(r"^(?:cdi|cdd|stage|alternance|freelance|full-time|part-time|"
                       r"permanent|temporary|internship|apprenticeship|contract)\b", re.I)


def _decoded(token: str) -> str:
    """What a SendGrid token says, when it is base64 of a page: else ''."""
    body = token.removeprefix("u001.")
    body = body.replace("-2B", "+").replace("-2F", "/").replace("-3D", "=")
    body = re.split(r"[^A-Za-z0-9+/=_-]", body, maxsplit=1)[0][:2000]
    for candidate in (body, body[:len(body) - len(body) % 4]):
        try:
            text = base64.b64decode(candidate + "=" * (-len(candidate) % 4),
                                    altchars=b"-_" if "_" in candidate else None)
        except (binascii.Error, ValueError):
            continue
        found = _PAGE.search(text.decode("latin-1"))
        if found:
            return found.group(0)
    return ""


class WelcomeToTheJungle(Sender):
    name = "wttj"
    label = "Welcome to the Jungle"
    domains = ("welcometothejungle.com",)
    subjects = pattern(r"^new match\b", r"\bnouveau job\b", r"\bnouvelles? offres?\b",
                       r"\bnew jobs?\b", r"\bjobs? for you\b", r"\boffres? pour vous\b")
    markers = ("job-item", "voir l'offre", "see the job", "new match", "nouveau job")
    chrome = pattern(r"^new match\b", r"^nouveau job", r"^(?:see|voir) (?:all|toutes|the job|"
                     r"l'offre)", r"^unsubscribe", r"^se désinscrire", r"^©",
                     r"^gérer mes alertes", r"^manage (?:my )?alerts")
    box = ("table", "job-item")
    text_paragraph = True

    def job_link(self, href: str) -> JobLink | None:
        host = host_of(href)
        if not host_is(host, "welcometothejungle.com"):
            return None
        page = ""
        if "/ls/click" in href:
            token = param(href, "upn")
            page = _decoded(token) if token else ""
            if not page:
                return JobLink(key=token[:64] or href.split("?", 1)[0])
        else:
            found = _PAGE.match(href)
            page = found.group(0) if found else ""
        found = _PAGE.match(page)
        if not found:
            return None
        lang, company, slug = (part.lower() for part in found.groups())
        return JobLink(f"{company}/{slug}", f"wttj:{company}/{slug}",
                       f"https://www.welcometothejungle.com/{lang}/companies/{company}/jobs/{slug}")

    def read(self, card: CardText) -> NormalizedPosting | None:
        lines = card.lines
        if len(lines) < 2:
            return None
        company, title = lines[0], lines[1]
        place = ""
        for line in lines[2:]:
            contract, sep, city = line.partition(" - ")
            if sep and _CONTRACT.match(contract):
                place = city
                break
        return posting(self.name, card, title=title, company=company, location=place,
                       search=search_url("https://www.welcometothejungle.com/en/jobs",
                                         query=f"{title} {company}"))


SENDER = WelcomeToTheJungle()

__all__ = ["SENDER", "WelcomeToTheJungle"]
