"""Record files that cannot be read as a record: a ParseError, never another exception."""

from __future__ import annotations

import pytest

from cardtable.core.errors import ParseError
from cardtable.records import Record


def test_record_load_of_a_file_that_is_not_utf8_is_a_parse_error(tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(ParseError, match=r"cannot read .*bin\.json: not UTF-8 text"):
        Record.load(path)


def test_record_loads_of_json_nested_too_deeply_is_a_parse_error():
    with pytest.raises(ParseError, match="nested too deeply"):
        Record.loads("[" * 100_000)
