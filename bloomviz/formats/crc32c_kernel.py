"""CRC-32C (Castagnoli) of table blocks, compiled with numba: LevelDB and RocksDB check each block with it.

A table's index and filter blocks are tens of KiB each and a database holds thousands of tables; a Python loop
checks ~2 MB/s, the compiled one about 1 GB/s. Imported on first use (sstable.crc32c), not with the package.
Served from the native kernel cache where it is loaded (hashing/native_kernels.py), so a database opened in the
window needs no numba (its import and this loop's compile or cache load: ~0.5-1 s); numba's otherwise.
"""

from __future__ import annotations

import numpy as np
from bloomviz.hashing.lazy_jit import njit


def _crc_table() -> np.ndarray:
    table = np.zeros(256, dtype=np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table[i] = c
    return table


_CRC = _crc_table()


@njit(cache=True, nogil=True)
def _crc_loop(data: np.ndarray, table: np.ndarray) -> int:
    crc = np.uint32(0xFFFFFFFF)
    for b in data:
        crc = table[(crc ^ b) & np.uint32(0xFF)] ^ (crc >> np.uint32(8))
    return crc ^ np.uint32(0xFFFFFFFF)


def crc32c(data: bytes) -> int:
    return int(_crc_loop(np.frombuffer(data, dtype=np.uint8), _CRC))
