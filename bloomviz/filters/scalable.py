"""The scalable Bloom filter (Almeida, Baquero, Preguiça & Hutchison 2007): a filter that grows as items
arrive and still keeps its false-positive rate under a bound p chosen in advance.

It is a list of stages. Stage i (i = 0, 1, 2, …) has

    capacity  n_i = initial_capacity · growth^i        (growth s = 2 or 4)
    error     p_i = p_0 · r^i,  with p_0 = p·(1 − r)    (tightening r in [0.5, 0.95])

so the stages' errors sum to at most p_0 / (1 − r) = p: an item that is in no stage passes a lookup with
probability at most Σ p_i < p (the union bound over the stages). Items always go into the newest stage; once it
holds n_i items, the next insert first opens stage i + 1.

Each stage is a standard ``BloomFilter`` (the paper uses partitioned stages; either satisfies the bound, and a
standard stage reads on the grid exactly like the main filter, so its band needs no new explanation). A stage is
sized by ``theory.optimal_params(n_i, p_i)`` (k_i = ceil(log2(1/p_i)), m_i = ceil(n_i·ln(1/p_i)/(ln 2)^2)), and
then m_i is raised to the smallest m for which the exact rate at capacity, (1 − (1 − 1/m)^{k_i·n_i})^{k_i}, is
at most p_i: rounding k up makes the optimal m fall a little short, and the bound only holds if every stage
keeps its own p_i. The raise is well under 1 % of m_i.
(The sizing and the rate of the whole filter are in scalable_stages.py; the stages as one object, stages.py.)

Conventions. ``m`` is the total number of bits of all stages; ``k`` is the k of the newest stage (``stages.ks``
gives every stage's); ``len()`` counts inserts, duplicates included (an item inserted twice counts twice toward a
stage's capacity). Positions are given in the concatenated grid: stage i occupies bits
[``stages.offsets[i]``, ``stages.offsets[i]`` + m_i), and its positions are offset by that start.

Union and intersection are not defined: which stage an item lands in depends on the order of all inserts, so no
stage-wise combination equals the filter of the combined items.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from bloomviz.filters import bitstore
from bloomviz.hashing import schemes as hashing
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.params import GROWTH, INITIAL_CAPACITY, RATE_BOUND, TIGHTENING
from bloomviz.filters.scalable_stages import STAGE_RECORD, StageSpec, scalable_fp, stage_spec
from bloomviz.filters.stages import Stages
from bloomviz.filters.standard import BloomFilter, Insertion, Lookup, one_or_many
from bloomviz.items.encoding import to_bytes, to_bytes_list
from bloomviz.filters.notebook import RichDisplay
from bloomviz.theory.validate import MAX_K, MAX_M, check_k, check_m, check_n, check_p
from bloomviz.filters.common import check_count, check_growth, check_params, check_tightening


@dataclass(frozen=True)
class StageInsertion(Insertion):
    """An insert into the newest stage. ``positions`` are in the concatenated grid (offset by the stage's
    start); ``local_positions`` are the stage's own. ``new_stage`` says this insert opened the stage (the grid
    grew: ``m`` changed)."""
    stage: int = 0
    offset: int = 0
    local_positions: tuple[int, ...] = ()
    new_stage: bool = False


@dataclass(frozen=True)
class ScalableLookup:
    """A lookup in every stage. Duck-compatible with ``Lookup``: ``positions`` and ``bits`` list every stage's
    positions one stage after another, in grid coordinates; ``stage_of`` gives the stage of each. The item is
    maybe present when ALL the positions of ANY one stage are set."""
    item: object
    stages: tuple[Lookup, ...]          # each with the stage's own (local) positions
    offsets: tuple[int, ...]

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(off + p for look, off in zip(self.stages, self.offsets) for p in look.positions)

    @property
    def bits(self) -> tuple[int, ...]:
        return tuple(b for look in self.stages for b in look.bits)

    @property
    def stage_of(self) -> tuple[int, ...]:
        return tuple(i for i, look in enumerate(self.stages) for _ in look.positions)

    def stage_positions(self, index: int) -> tuple[int, ...]:
        off = self.offsets[index]
        return tuple(off + p for p in self.stages[index].positions)

    @property
    def hit_stages(self) -> tuple[int, ...]:
        """The stages in which every position is set."""
        return tuple(i for i, look in enumerate(self.stages) if look.maybe_present)

    @property
    def stage(self) -> int | None:
        """The first stage that says "maybe present", or None."""
        hits = self.hit_stages
        return hits[0] if hits else None

    @property
    def maybe_present(self) -> bool:
        return any(look.maybe_present for look in self.stages)

    @property
    def zero_positions(self) -> tuple[int, ...]:
        return tuple(off + p for look, off in zip(self.stages, self.offsets) for p in look.zero_positions)


class ScalableBloomFilter(RichDisplay):
    """A growing list of standard filters whose errors sum to at most p. See the module docstring."""

    variant = "scalable"
    # --- variant facts (see BloomFilter's) -----------------------------------------------------------------------
    # grows from a capacity (m and k are the stages' outcome), in stages, by its own theory
    capabilities = Capabilities(parameters=(INITIAL_CAPACITY, RATE_BOUND, GROWTH, TIGHTENING), staged=True,
                                plain_bits=False, standard_formulas=False, takes_back_inserts=True,
                                logs_batches=True)
    _stored_params = {"initial_capacity": int, "p": float, "growth": int, "tightening": float, "stages": int}

    @classmethod
    def _payload_size(cls, m: int, params: dict) -> tuple[int, int]:
        # Each stage stores ceil(m_i/8) bytes and the m_i sum to m, so the bit bytes lie in [ceil(m/8),
        # (m+7S)/8]; the stage table (checked by from_state) fixes the exact size.
        stages = params["stages"]
        if not 1 <= stages <= 64:
            raise ValueError(f"stages={stages} is out of range 1..64")
        table = STAGE_RECORD.size * stages
        return table + (m + 7) // 8, table + (m + 7 * stages) // 8

    def __init__(self, initial_capacity: int, p: float, growth: int = 2, tightening: float = 0.9,
                 scheme: str = hashing.DEFAULT_SCHEME):
        self._set_params(initial_capacity, p, growth, tightening, scheme)
        self.clear()

    def _set_params(self, initial_capacity, p, growth, tightening, scheme) -> None:
        self._initial = check_n(initial_capacity, allow_zero=False)
        self._p = check_p(p)
        self._growth = check_growth(growth)
        self._r = check_tightening(tightening)
        self._scheme = hashing.get_scheme(scheme)
        self._specs: list[StageSpec] = []
        self._stages: list[BloomFilter] = []
        self._offsets: list[int] = []
        self._count = 0

    @classmethod
    def _blank(cls, initial_capacity, p, growth, tightening, scheme) -> "ScalableBloomFilter":
        """Validated parameters and no stage at all (for from_state, which checks before it allocates)."""
        out = cls.__new__(cls)
        out._set_params(initial_capacity, p, growth, tightening, scheme)
        return out

    # --- description -------------------------------------------------------------------------------------
    initial_capacity = property(lambda self: self._initial)
    p = property(lambda self: self._p, doc="the compound bound on the false-positive rate")
    growth = property(lambda self: self._growth)
    tightening = property(lambda self: self._r)
    scheme = property(lambda self: self._scheme.id)

    @property
    def stages(self) -> Stages:
        """The stages, oldest first, with their sizes and grid offsets (stages.py; the filters are live: read
        them, do not change them)."""
        return Stages(self._stages, self._specs, self._offsets)

    @property
    def m(self) -> int:
        return self._offsets[-1] + self._stages[-1].m

    @property
    def k(self) -> int:
        """k of the newest stage (the one inserts go to)."""
        return self._stages[-1].k

    def __len__(self) -> int:
        return self._count

    @property
    def bits_set(self) -> int:
        return sum(s.bits_set for s in self._stages)

    @property
    def estimated_count(self) -> float:
        return sum(s.estimated_count for s in self._stages)

    @property
    def expected_fp(self) -> float:
        """The rate for a fresh item given the bits set now: 1 − Π_i (1 − fill_i^{k_i})."""
        return 1.0 - math.prod(1.0 - s.expected_fp for s in self._stages)

    def nbytes(self) -> int:
        return sum(s.nbytes() for s in self._stages)

    def values_for_grid(self) -> np.ndarray:
        """All stages' bits, concatenated, as a uint8 0/1 array of length m."""
        return np.concatenate([bitstore.unpack(s.bits) for s in self._stages])

    def __repr__(self) -> str:
        return (f"ScalableBloomFilter(initial_capacity={self._initial}, p={self._p}, growth={self._growth}, "
                f"tightening={self._r}, scheme={self.scheme!r}, n={self._count}, stages={len(self._stages)}, "
                f"m={self.m})")

    def theory_fp(self, n=None, samples: int = 64):
        """Its theoretical rate after n inserts (default: its insert count), 1 − Π_i (1 − FP_i(n))
        (scalable_stages.scalable_fp): a float for one n, an array for an array of n."""
        return one_or_many(self._theory_curve, len(self) if n is None else n, samples)

    def _theory_curve(self, n: np.ndarray, samples: int) -> np.ndarray:
        return np.atleast_1d(scalable_fp(self._initial, self._p, n, self._growth, self._r))

    # --- growth ------------------------------------------------------------------------------------------
    def _plan(self, inserts: int) -> list[StageSpec]:
        """The stages that ``inserts`` more items will open (raises, changing nothing, if one cannot be made).
        (An exact measurement that follows the stages fills the newest through stages.NewestStage.)"""
        specs = []
        spec = self._specs[-1]
        held = len(self._stages[-1])
        while inserts > 0:
            room = spec.capacity - held
            if room <= 0:
                spec = stage_spec(self._initial, self._p, self._growth, self._r, spec.index + 1)
                specs.append(spec)
                held = 0
                continue
            take = min(room, inserts)
            held += take
            inserts -= take
        return specs

    def _open(self, specs: list[StageSpec]) -> None:
        # every new stage's bits are allocated before any is added: a MemoryError on the second of two left the
        # first added, or, allocated after its offset and spec were appended, a filter whose lists disagreed
        stages = [BloomFilter(spec.m, spec.k, scheme=self._scheme.id) for spec in specs]
        for spec, stage in zip(specs, stages):
            self._offsets.append(self.m)
            self._specs.append(spec)
            self._stages.append(stage)

    def _close(self, opened: int) -> None:
        """Drop the ``opened`` newest stages again (an insert that opened them failed)."""
        if opened > 0:
            self._keep_stages(len(self._stages) - opened)

    def _keep_stages(self, stages: int) -> None:
        """Keep the first ``stages`` stages (each list cut alone: an opening stopped between two appends)."""
        del self._offsets[stages:], self._specs[stages:], self._stages[stages:]

    # --- single items ------------------------------------------------------------------------------------
    def add(self, item: object) -> StageInsertion:
        """Insert one item: all of it or, whatever is raised part way (a Ctrl-C between two writes, a stage that
        cannot be allocated), none of it."""
        data = to_bytes(item)
        opened = self._plan(1)
        stages, count = len(self._stages), self._count
        ins = None
        try:
            self._open(opened)
            i = len(self._stages) - 1
            ins = self._stages[i].add(data)     # (all or nothing itself)
            self._count = count + 1
            off = self._offsets[i]
            out = StageInsertion(item, tuple(off + p for p in ins.positions), ins.newly_set, stage=i, offset=off,
                                 local_positions=ins.positions, new_stage=bool(opened))
        except BaseException:
            if ins is not None:
                self._stages[i]._take_back(ins)
            self._keep_stages(stages)
            self._count = count
            raise
        return out

    def _take_back(self, ins: StageInsertion) -> None:
        """Undo ``ins``, the last insert (capabilities.take_back): its stage takes back its bits, and a stage it
        opened is dropped again."""
        self._stages[ins.stage]._take_back(Insertion(ins.item, ins.local_positions, ins.newly_set))
        if ins.new_stage:
            self._keep_stages(ins.stage)
        self._count -= 1

    def lookup(self, item: object) -> ScalableLookup:
        data = to_bytes(item)
        looks = tuple(s.lookup(data) for s in self._stages)
        looks = tuple(Lookup(item, look.positions, look.bits) for look in looks)
        return ScalableLookup(item, looks, tuple(self._offsets))

    def __contains__(self, item: object) -> bool:
        data = to_bytes(item)
        return any(data in s for s in self._stages)

    def positions(self, item: object) -> tuple[int, ...]:
        """Every stage's positions of the item, stage after stage, in grid coordinates."""
        data = to_bytes(item)
        return tuple(off + p for s, off in zip(self._stages, self._offsets) for p in s.positions(data))

    # --- batches -----------------------------------------------------------------------------------------
    def update(self, items: Iterable[object]) -> int:
        """Insert every item (vectorised per stage), opening stages as they fill. Returns bits newly set."""
        datas = to_bytes_list(items)
        self._open(self._plan(len(datas)))
        newly = 0
        start = 0
        # Stages before the first that has room are full; fill from there on in order.
        for i, (stage, spec) in enumerate(zip(self._stages, self._specs)):
            if start >= len(datas):
                break
            room = spec.capacity - len(stage)
            if room <= 0:
                continue
            chunk = datas[start:start + room]
            newly += stage.update(chunk)
            start += len(chunk)
        self._count += len(datas)
        return newly

    def contains_many(self, items: Iterable[object]) -> np.ndarray:
        datas = to_bytes_list(items)
        out = np.zeros(len(datas), dtype=bool)
        for s in self._stages:
            out |= s.contains_many(datas)
        return out

    def positions_many(self, items: Iterable[object]) -> np.ndarray:
        """n x (Σ k_i) int64: each row holds the item's positions in every stage, in grid coordinates."""
        datas = to_bytes_list(items)
        return np.hstack([s.positions_many(datas) + off for s, off in zip(self._stages, self._offsets)])

    def _test_rows(self, positions: np.ndarray) -> np.ndarray:
        """Bool per row of ``positions_many``: is some stage's group of positions all set?"""
        positions = np.asarray(positions, dtype=np.int64)
        out = np.zeros(positions.shape[0], dtype=bool)
        col = 0
        for s, off in zip(self._stages, self._offsets):
            out |= s._test_rows(positions[:, col:col + s.k] - off)
            col += s.k
        return out

    # --- set algebra and copies --------------------------------------------------------------------------
    def __or__(self, other):
        raise TypeError("union (|) is not defined for scalable filters: which stage an item lands in depends on "
                        "the order of all inserts, so no stage-wise combination equals the filter of the union")

    def __and__(self, other):
        raise TypeError("intersection (&) is not defined for scalable filters: which stage an item lands in "
                        "depends on the order of all inserts")

    def _key(self) -> tuple:
        return (self._initial, self._p, self._growth, self._r, self.scheme, self._count)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key() and self._stages == other._stages

    __hash__ = None

    def copy(self) -> "ScalableBloomFilter":
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._stages = [s.copy() for s in self._stages]
        out._specs = list(self._specs)
        out._offsets = list(self._offsets)
        return out

    def clear(self) -> None:
        """Back to one empty stage 0."""
        spec = self._specs[0] if self._specs else stage_spec(self._initial, self._p, self._growth, self._r, 0)
        self._specs = [spec]
        self._stages = [BloomFilter(spec.m, spec.k, scheme=self._scheme.id)]
        self._offsets = [0]
        self._count = 0

    # --- persistence -------------------------------------------------------------------------------------
    def _state_params(self) -> dict[str, int | float]:
        return {"initial_capacity": self._initial, "p": self._p, "growth": self._growth,
                "tightening": self._r, "stages": len(self._stages)}

    def _state_payload(self) -> bytes:
        """The stages, oldest first, as a table followed by the bits.

        Layout (S = params["stages"]; all integers little-endian):

        - S records of 17 bytes, one per stage: m_i (uint64), k_i (uint8), inserts held by stage i (uint64);
        - then for each stage in order its m_i bits in ceil(m_i/8) bytes, bit j at byte j//8, bit j%8
          (least significant first), unused padding bits 0 — each stage's ``BloomFilter._state_payload``.

        The saved m is Σ m_i and the saved k is the newest stage's k_i. The sizes are stored rather than
        re-derived, so a file keeps loading even if the sizing rule is refined later.
        """
        table = b"".join(STAGE_RECORD.pack(s.m, s.k, len(s)) for s in self._stages)
        return table + b"".join(s._state_payload() for s in self._stages)

    @classmethod
    def _from_state(cls, m, k, scheme, count, params, payload) -> "ScalableBloomFilter":
        check_params(params, ("initial_capacity", "p", "growth", "tightening", "stages"), cls.variant)
        stages = params["stages"]
        if isinstance(stages, bool) or not isinstance(stages, (int, np.integer)) or not 1 <= stages <= 64:
            raise ValueError(f"stages must be an integer from 1 to 64, got {stages!r}")
        m, k, count = check_m(m), check_k(k), check_count(count)
        if not isinstance(payload, (bytes, bytearray, memoryview)):
            raise ValueError(f"payload must be bytes, got {type(payload).__name__}")
        payload = bytes(payload)
        out = cls._blank(params["initial_capacity"], params["p"], params["growth"], params["tightening"], scheme)
        table_len = STAGE_RECORD.size * stages
        if len(payload) < table_len:
            raise ValueError(f"payload is {len(payload)} bytes, too short for the table of {stages} stages "
                             f"({table_len} bytes)")
        records = [STAGE_RECORD.unpack_from(payload, i * STAGE_RECORD.size) for i in range(stages)]
        specs = [stage_spec(out._initial, out._p, out._growth, out._r, i) for i in range(stages)]
        # Every size and count is checked before any stage is allocated.
        for i, ((mi, ki, ni), spec) in enumerate(zip(records, specs)):
            if not 1 <= mi <= MAX_M or not 1 <= ki <= MAX_K:
                raise ValueError(f"stage {i} has m={mi}, k={ki}: out of range")
            last = i == stages - 1
            if ni > spec.capacity or (not last and ni != spec.capacity):
                raise ValueError(f"stage {i} holds {ni} inserts; its capacity is {spec.capacity}"
                                 + ("" if last else " and every stage but the newest must be full"))
        total_m = sum(r[0] for r in records)
        if total_m != m:
            raise ValueError(f"the stages have {total_m} bits in all, not m={m}")
        if records[-1][1] != k:
            raise ValueError(f"k={k} differs from the newest stage's k={records[-1][1]}")
        if sum(r[2] for r in records) != count:
            raise ValueError(f"the stages hold {sum(r[2] for r in records)} inserts, not count={count}")
        expected = table_len + sum((r[0] + 7) // 8 for r in records)
        if len(payload) != expected:
            raise ValueError(f"payload is {len(payload)} bytes; the stage table says {expected}")
        pos, start = table_len, 0
        for (mi, ki, ni), spec in zip(records, specs):
            nbytes = (mi + 7) // 8
            out._stages.append(BloomFilter._from_state(mi, ki, out.scheme, ni, {}, payload[pos:pos + nbytes]))
            out._specs.append(StageSpec(spec.index, spec.capacity, spec.error, mi, ki, spec.start))
            out._offsets.append(start)
            pos += nbytes
            start += mi
        out._count = count
        return out
