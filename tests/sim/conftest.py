import pytest

from cardtable.sim import SimSpec


@pytest.fixture
def spec():
    """Two different bots on a 2-player Trash table: fast, and seats matter."""
    return SimSpec.build("trash", None, {}, ["sensible", "random"], seed=11)
