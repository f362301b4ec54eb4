import numpy as np
import pytest

from bloomviz.unique_ints import index_range, sorted_unique


def test_sorted_unique_of_any_shape():
    assert sorted_unique(np.array([[5, 1], [5, 3]])).tolist() == [1, 3, 5]
    assert sorted_unique([]).dtype == np.int64


@pytest.mark.parametrize("size", [0, 1, 7, 70_000, 3])
def test_index_range_is_zero_to_size_and_read_only(size):
    rows = index_range(size)
    assert rows.dtype == np.int64 and rows.tolist() == list(range(size))
    assert not rows.flags.writeable
    assert index_range(size).tolist() == list(range(size))      # nothing a caller did changed it
