"""docs/fairness.md runs as written (threat F4): its reference verifier, written with the
standard library only, and its worked example's numbers agree with cardtable's shuffler."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

from cardtable.core.chance import SCHEME, FairShuffler, fair_message

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def doc_namespace() -> dict[str, Any]:
    """The doc's ```python blocks, run in order."""
    namespace: dict[str, Any] = {}
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        exec(compile(block, str(DOC), "exec"), namespace)
    return namespace


def test_f4_the_fairness_doc_examples_give_the_numbers_it_shows():
    text = DOC.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, doc_namespace(), "fairness.md", str(DOC), 0)
    assert len(test.examples) >= 15
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


def test_f4_the_doc_names_the_scheme_of_the_code():
    text = DOC.read_text(encoding="utf-8")
    assert f"**`{SCHEME}`**" in text and f'SCHEME = b"{SCHEME}"' in text


def test_f4_the_docs_reference_verifier_agrees_with_cardtable_on_many_deals():
    """The doc's standalone code against FairShuffler: several seat counts, labels and deck sizes."""
    ns = doc_namespace()
    for seats in (1, 2, 4, 5):
        seeds = [bytes([17 * s + 3]) * 32 for s in range(seats)]
        server = bytes([seats]) * 32
        for label, size in (("deal:0", 52), ("rebuild:3:1", 17), ("collect:2:1", 30), ("deal:4", 212)):
            ids = list(range(size))
            FairShuffler(server, seeds).shuffle(ids, *label.split(":"))
            assert ns["shuffle"](range(size), server, seeds, label) == ids
        prefix = SCHEME.encode() + b"\x00" + bytes([seats]) + b"".join(seeds) + b"deal:0\x00"
        assert fair_message(seeds, "deal:0") == prefix
