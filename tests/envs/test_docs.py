"""docs/rl.md: its tensor tables are the code's own layouts, and its Python code blocks run as written."""

from __future__ import annotations

import re
from pathlib import Path

import cardtable
from cardtable.envs.encode_spit import SpitEncoder
from cardtable.envs.encode_trash import TrashEncoder
from cardtable.envs.encode_trex import TrexEncoder

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_rl_md_tensor_tables_match_the_encoders():
    text = DOC.read_text()
    for layout in (TrashEncoder(cardtable.load("trash")).layout, TrexEncoder.layout, SpitEncoder.layout):
        assert layout.markdown() in text


def test_rl_md_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 5
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})
