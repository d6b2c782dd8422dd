"""Small numbers for a long run of deals, packed a few bits each: the shipped proofs.

A file is one text header line and the packed values, nothing else::

    solitaire-packed 1 bits=2 first=1 count=1000000\\n<250,000 bytes>

``bits`` (2 or 4) per deal, deals ``first`` … ``first + count - 1`` in order, the first
deal in the lowest bits of the first byte. Deal ``first + i``'s value is
``(byte[i * bits // 8] >> (i * bits % 8)) & mask``. A million deals at 2 bits is 250 kB,
read in one go (:func:`read` refuses a file larger than :data:`MAX_BYTES`, a header it
does not know, a payload of the wrong length, or a value the file's kind does not allow).

:class:`Packed` answers a deal's value in constant time, how many deals have one of a set
of values, and the ``k``-th of them (select, through a directory of counts per block of
:data:`BLOCK` bytes, made on first use): a uniform random pick among, say, every deal
proved winnable without a list of them in memory.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Final

MAGIC: Final = b"solitaire-packed 1"
MAX_BYTES: Final = 1 << 20
"""The largest file read (a header and 4 bits for 2,000,000 deals fit)."""
MAX_HEADER: Final = 128
BLOCK: Final = 1024
"""Bytes per block of the select directory (4,096 deals at 2 bits)."""
WIDTHS: Final = (2, 4)


class MalformedError(ValueError):
    """A packed file that is not what :func:`read` expects."""


class Packed:
    """Values for deals ``first`` … ``last``, ``bits`` each."""

    __slots__ = ("_directories", "_lock", "bits", "count", "data", "first")

    def __init__(self, bits: int, first: int, count: int, data: bytes) -> None:
        if bits not in WIDTHS:
            raise MalformedError(f"{bits} bits a deal: only {WIDTHS} are read")
        if first < 1 or count < 0:
            raise MalformedError(f"deals from {first}, {count} of them")
        if len(data) != _length(bits, count):
            raise MalformedError(
                f"{len(data)} bytes of values for {count} deals at {bits} bits "
                f"({_length(bits, count)} expected)"
            )
        self.bits, self.first, self.count, self.data = bits, first, count, data
        self._directories: dict[frozenset[int], tuple[list[int], bytes]] = {}
        self._lock = threading.Lock()

    @property
    def last(self) -> int:
        return self.first + self.count - 1

    def __contains__(self, deal: int) -> bool:
        return self.first <= deal <= self.last

    def value(self, deal: int) -> int | None:
        """``deal``'s value, or None outside the file's deals."""
        if deal not in self:
            return None
        index = (deal - self.first) * self.bits
        return (self.data[index >> 3] >> (index & 7)) & ((1 << self.bits) - 1)

    def values(self) -> Iterable[int]:
        mask, per_byte = (1 << self.bits) - 1, 8 // self.bits
        for index in range(self.count):
            byte = self.data[index // per_byte]
            yield (byte >> ((index % per_byte) * self.bits)) & mask

    def count_of(self, wanted: Collection[int]) -> int:
        """How many deals have one of the ``wanted`` values."""
        cumulative, _table = self._directory(wanted)
        return cumulative[-1]

    def select(self, wanted: Collection[int], k: int) -> int:
        """The ``k``-th deal (from 0, in order) whose value is one of ``wanted``;
        ``IndexError`` when there are not that many."""
        cumulative, table = self._directory(wanted)
        if not 0 <= k < cumulative[-1]:
            raise IndexError(f"{k} of {cumulative[-1]} deals")
        block = bisect.bisect_right(cumulative, k) - 1
        left = k - cumulative[block]
        start = block * BLOCK
        per_byte, mask = 8 // self.bits, (1 << self.bits) - 1
        for offset in range(start, min(start + BLOCK, len(self.data))):
            byte = self.data[offset]
            here = table[byte]
            if left >= here:
                left -= here
                continue
            for slot in range(per_byte):
                if (byte >> (slot * self.bits)) & mask in wanted:
                    if left == 0:
                        return self.first + offset * per_byte + slot
                    left -= 1
        raise AssertionError("the select directory disagrees with the values")  # pragma: no cover

    def _directory(self, wanted: Collection[int]) -> tuple[list[int], bytes]:
        key = frozenset(wanted)
        with self._lock:
            found = self._directories.get(key)
            if found is None:
                table = self._byte_counts(key)
                cumulative = [0]
                for start in range(0, len(self.data), BLOCK):
                    counted = sum(self.data[start : start + BLOCK].translate(table))
                    cumulative.append(cumulative[-1] + counted)
                if 0 in key:  # the last byte's unused slots hold zeros: not deals
                    cumulative[-1] -= len(self.data) * (8 // self.bits) - self.count
                found = self._directories[key] = (cumulative, table)
            return found

    def _byte_counts(self, wanted: frozenset[int]) -> bytes:
        """How many of each byte's values are wanted."""
        per_byte, mask = 8 // self.bits, (1 << self.bits) - 1
        counts = bytearray(256)
        for byte in range(256):
            counts[byte] = sum(
                1 for slot in range(per_byte) if (byte >> (slot * self.bits)) & mask in wanted
            )
        return bytes(counts)


def _length(bits: int, count: int) -> int:
    return (count * bits + 7) // 8


def pack(bits: int, first: int, values: Iterable[int]) -> Packed:
    """Values (each below ``2 ** bits``) for deals ``first``, ``first + 1``, …"""
    if bits not in WIDTHS:
        raise MalformedError(f"{bits} bits a deal: only {WIDTHS} are written")
    per_byte, limit = 8 // bits, 1 << bits
    data = bytearray()
    count = 0
    for index, value in enumerate(values):
        if not 0 <= value < limit:
            raise ValueError(f"{value} does not fit in {bits} bits")
        if index % per_byte == 0:
            data.append(0)
        data[-1] |= value << ((index % per_byte) * bits)
        count += 1
    return Packed(bits, first, count, bytes(data))


def dumps(packed: Packed) -> bytes:
    header = b"%s bits=%d first=%d count=%d\n" % (
        MAGIC,
        packed.bits,
        packed.first,
        packed.count,
    )
    return header + packed.data


def loads(raw: bytes, allowed: Collection[int] | None = None) -> Packed:
    """A packed file's contents; ``allowed``: the values this kind of file may hold (any
    other is refused). Raises :class:`MalformedError`."""
    if len(raw) > MAX_BYTES:
        raise MalformedError(f"{len(raw)} bytes: more than {MAX_BYTES} are not read")
    newline = raw.find(b"\n", 0, MAX_HEADER)
    if newline < 0:
        raise MalformedError("no header line")
    words = raw[:newline].split(b" ")
    if b" ".join(words[:2]) != MAGIC or len(words) != 5:
        raise MalformedError(f"not a packed file: {raw[:newline][:40]!r}")
    fields: dict[bytes, int] = {}
    for word in words[2:]:
        name, equals, number = word.partition(b"=")
        if not equals or not number.isdigit() or len(number) > 9 or name in fields:
            raise MalformedError(f"not a header field: {word[:20]!r}")
        fields[name] = int(number)
    if set(fields) != {b"bits", b"first", b"count"}:
        raise MalformedError("the header names bits, first and count")
    packed = Packed(fields[b"bits"], fields[b"first"], fields[b"count"], raw[newline + 1 :])
    if allowed is not None:
        mask = (1 << packed.bits) - 1
        bad = {value for value in range(mask + 1) if value not in allowed}
        if bad:
            per_byte = 8 // packed.bits
            flags = bytes(
                int(any((byte >> (slot * packed.bits)) & mask in bad for slot in range(per_byte)))
                for byte in range(256)
            )
            if 1 in raw[newline + 1 :].translate(flags):
                raise MalformedError(f"a value the file may not hold (only {sorted(allowed)})")
    return packed


def read(file: Path, allowed: Collection[int] | None = None) -> Packed:
    """The packed file ``file`` (:func:`loads`), its size checked before it is read."""
    size = file.stat().st_size
    if size > MAX_BYTES:
        raise MalformedError(f"{file}: {size} bytes, more than {MAX_BYTES} are not read")
    return loads(file.read_bytes(), allowed)


def write(file: Path, packed: Packed) -> None:
    """Write ``packed`` to ``file`` whole (a temporary file, then renamed)."""
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_suffix(file.suffix + ".tmp")
    temporary.write_bytes(dumps(packed))
    temporary.replace(file)
