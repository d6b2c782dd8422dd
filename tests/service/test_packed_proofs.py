"""The shipped proofs' packed form: it round-trips, refuses anything malformed, selects the
k-th deal of a value; and a sample of the shipped verdicts re-checked on fc-solve's
library with the settings the site uses."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.games.freecell import fcsolve
from app.games.freecell import proofs as fcproofs
from app.games.freecell.rules import new_game, variant_named
from app.service import packed, proofs


@pytest.mark.parametrize("bits", [2, 4])
@pytest.mark.parametrize("count", [0, 1, 3, 5, 4097, 9000])
def test_values_round_trip(bits: int, count: int, tmp_path: Path) -> None:
    chosen = random.Random(count * bits)
    values = [chosen.randrange(1 << bits) for _ in range(count)]
    file = tmp_path / "x.bits"
    packed.write(file, packed.pack(bits, 7, values))
    back = packed.read(file)
    assert (back.bits, back.first, back.count) == (bits, 7, count)
    assert list(back.values()) == values
    assert [back.value(7 + i) for i in range(count)] == values
    assert back.value(6) is None and back.value(7 + count) is None
    for wanted in ({0}, {1}, {1, 2}, {(1 << bits) - 1}):
        deals = [7 + i for i, value in enumerate(values) if value in wanted]
        assert back.count_of(wanted) == len(deals)
        assert [back.select(wanted, k) for k in range(len(deals))] == deals
        with pytest.raises(IndexError):
            back.select(wanted, len(deals))


def good() -> bytes:
    return packed.dumps(packed.pack(2, 1, [1, 2, 3, 0, 1]))


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"solitaire-packed 1 bits=2 first=1 count=5",  # no end of header
        good()[:-1],  # a byte short
        good() + b"\0",  # a byte over
        good().replace(b"packed 1", b"packed 2"),
        good().replace(b"bits=2", b"bits=3"),
        good().replace(b"first=1", b"first=0"),
        good().replace(b"count=5", b"count=-5"),
        good().replace(b"count=5", b"count=9999999999"),
        good().replace(b"first=1 ", b"first=1 first=1 "),
        good().replace(b"count=5", b"cnt=5"),
        b"x" * (packed.MAX_BYTES + 1),
    ],
)
def test_a_malformed_file_is_refused(raw: bytes) -> None:
    with pytest.raises(packed.MalformedError):
        packed.loads(raw)


def test_a_value_the_file_may_not_hold_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "freecell-standard.cells"
    packed.write(file, packed.pack(4, 1, [2, 3, 9]))
    with pytest.raises(packed.MalformedError):
        proofs.read_cells(file)
    packed.write(file, packed.pack(2, 1, [2, 3]))
    with pytest.raises(packed.MalformedError):  # verdicts' two bits are not cells' four
        proofs.read_cells(file)


def test_the_shipped_files_are_small_and_read() -> None:
    standard = proofs.proofs("freecell", "standard")
    assert standard.packed is not None
    assert proofs.bits_path("freecell", "standard").stat().st_size <= 250_100
    counts = standard.counts()
    assert counts["unsolvable"] >= 1
    assert standard.verdict(11982) == "unsolvable"
    assert standard.winnable_count() == counts["solved"]
    cells = proofs.fewest_cells_file()
    assert cells is not None
    assert proofs.fewest_cells(11982) == proofs.NOT_EVEN_WITH_FOUR


def test_merging_never_replaces_a_proof_by_unknown(tmp_path: Path) -> None:
    file = tmp_path / "freecell-bakers.bits"
    proofs.write_bits(file, {1: "solved", 2: "unsolvable", 4: "unknown"})
    proofs.write_bits(file, {1: "unknown", 3: "solved", 4: "unsolvable"})
    found = proofs.Proofs({}, proofs.read_bits(file))
    assert [found.verdict(d) for d in range(1, 6)] == [
        "solved", "unsolvable", "solved", "unsolvable", None,
    ]  # fmt: skip


def test_fewest_walks_down_and_up() -> None:
    def up_to(least: int) -> object:
        return lambda cells: "solved" if cells >= least else "unsolvable"

    for least in range(6):
        assert fcproofs.fewest(up_to(least)) == least  # type: ignore[arg-type]
    assert fcproofs.fewest(lambda cells: "unknown") is None


needs_library = pytest.mark.skipif(not fcsolve.available(), reason="fc-solve's library")


@needs_library
def test_11982_is_unsolvable_and_needs_more_than_four_cells() -> None:
    assert dict(fcproofs.classify("standard", [11982], 2000)) == {11982: "unsolvable"}
    assert dict(fcproofs.fewest_cells([11982], 2000)) == {11982: proofs.NOT_EVEN_WITH_FOUR}


@needs_library
@pytest.mark.parametrize("variant", ["standard", "eight-off", "cells-2", "cells-1"])
def test_a_sample_of_the_shipped_verdicts_checks_out(variant: str) -> None:
    shipped = proofs.proofs("freecell", variant)
    sure = [(d, v) for d, v in shipped.classified().items() if v != "unknown"]
    sample = random.Random(variant).sample(sure, min(4, len(sure)))
    unsolvable = [(d, v) for d, v in sure if v == "unsolvable"][:1]
    rules = variant_named(variant)
    with fcsolve.Classifier(rules) as classifier:  # lines read and replayed by our rules
        for deal, verdict in sample + unsolvable:
            assert classifier.classify(new_game(deal, variant), fcproofs.budget(5000)).verdict in (
                verdict,
                "unknown",
            ), (variant, deal)


def test_the_fewest_cells_settle_the_fewer_cells_variants() -> None:
    fewest = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: proofs.NOT_EVEN_WITH_FOUR, 7: proofs.INTRACTABLE}
    two = proofs.verdicts_with_cells(fewest, 2)
    assert two == {
        1: "solved",
        2: "solved",
        3: "solved",
        4: "unsolvable",
        5: "unsolvable",
        6: "unsolvable",
    }
    assert proofs.verdicts_with_cells(fewest, 1)[3] == "unsolvable"
    assert 7 not in proofs.verdicts_with_cells(fewest, 3)  # intractable: nothing follows


def test_the_shipped_fewer_cells_files_agree_with_the_fewest_cells() -> None:
    every = proofs.fewest_cells_file()
    assert every is not None
    for variant, cells in proofs.FEWER_CELLS.items():
        shipped = proofs.proofs("freecell", variant)
        for deal in range(1, every.count + 1, 97):
            least = every.value(deal)
            if least is not None and least <= proofs.NOT_EVEN_WITH_FOUR:
                assert shipped.verdict(deal) == ("solved" if least <= cells else "unsolvable")
