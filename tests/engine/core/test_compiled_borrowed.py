"""Arrays borrowed for one compiled call (``agents/core/field/borrowed.py``): views of a
borrowed array read and write the array itself, and a function compiled ``uncounted``
makes views but may not allocate. (The compiled melee borrows every array it is given:
its battles, played against Python's round by round and whole, are the tests of it.)"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import NumbaError

from fadad_agents.agents.core.field.borrowed import borrowed, uncounted


@njit
def _row_sums_borrowed(a: np.ndarray, out: np.ndarray) -> None:
    b = borrowed(a)
    for i in range(b.shape[0]):
        row = b[i]  # a view: no count of the array's memory
        out[i] = row.sum()
        row[0] += 1  # written through to the array


@uncounted
def _reshaped_total(flat: np.ndarray, columns: int) -> float:
    grid = flat.reshape((flat.shape[0] // columns, columns))
    total = 0.0
    for i in range(grid.shape[0]):
        total += grid[i, columns - 1]
    return total


@uncounted
def _allocates(n: int) -> float:
    return float(np.zeros(n).sum())


def test_views_of_a_borrowed_array_read_and_write_the_array() -> None:
    """Each row's sum as numpy sums it, each row's first cell raised by one in the array
    the caller holds, call after call (nothing freed under it)."""
    a = np.arange(12, dtype=np.int64).reshape(4, 3)
    for call in range(1, 4):
        out = np.zeros(4, dtype=np.int64)
        before = a.copy()
        _row_sums_borrowed(a, out)
        assert out.tolist() == before.sum(axis=1).tolist()
        assert a[:, 0].tolist() == (np.arange(0, 12, 3) + call).tolist()


def test_an_uncounted_function_makes_views() -> None:
    """A view made in a function compiled without reference counts reads the array."""
    flat = np.arange(12, dtype=np.float64)
    assert _reshaped_total(flat, 4) == 3.0 + 7.0 + 11.0


def test_an_uncounted_function_may_not_allocate() -> None:
    """numba refuses to compile an allocation without its reference counts (the array
    made is one no reference counts): the limit ``uncounted`` states."""
    with pytest.raises(NumbaError):
        _allocates(3)
