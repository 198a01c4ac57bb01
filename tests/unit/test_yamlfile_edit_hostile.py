"""The profile editor tells a YAML anchor from an ampersand by the parser's events: `&`
in prose, in a quoted or block string or in a comment never blocks a learned edit;
an anchor or an alias anywhere (a scalar, a list, a mapping, a merge key) does."""

from __future__ import annotations

import pytest
import yaml

from jobtracker.yamlfile.edit import Edit, EditError, apply

EDIT = Edit("append", ("exclude",), "gambling")

AMPERSANDS = [
    "prose: R&D and Q&A teams, &more\n",
    "# at &Partners\n",
    "prose: 'Smith &Sons, Johnson & &Johnson'\n",
    'prose: "&quot; &amp; &x"\n',
    "prose: |\n  Worked at &Partners\n  &then more\n",
    "locations: [Berlin, 'A &B']   # near &HQ\n",
    "prose: >\n  &folded text\n",
    "weights: {remote: 2}  # &weights\n",
]
ANCHORS = [
    "base: &b remote\n",
    "levels: &lv [senior]\n",
    "weights: &w {remote: 2}\nother: *w\n",
    "a: &x 1\nb: *x\n",
    "defaults: &d {remote: 1}\nweights:\n  <<: *d\n",
    "levels:\n  - &s senior\n",
]


@pytest.mark.parametrize("head", AMPERSANDS)
def test_an_ampersand_that_is_text_does_not_block_an_edit(head: str) -> None:
    text = head + "exclude: [crypto]\n"
    edited = apply(text, EDIT)
    assert edited.startswith(head)
    assert yaml.safe_load(edited)["exclude"] == ["crypto", "gambling"]


@pytest.mark.parametrize("head", ANCHORS)
def test_an_anchor_or_alias_anywhere_refuses_the_edit(head: str) -> None:
    with pytest.raises(EditError, match="anchors"):
        apply(head + "exclude: [crypto]\n", EDIT)
