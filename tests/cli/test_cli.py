"""The ``solitaire`` command reads and writes the engine's notations."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.games.montana import rules as montana


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_deal_montana_prints_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "montana", "1")
    assert code == 0
    assert out == montana.new_game(1).to_text()
    assert out.splitlines()[3] == "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S --"


def test_deal_montana_easy(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "deal", "montana", "7", "--variant", "easy")
    assert "Redeals-left: 4" in out


def test_moves_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal1.txt"
    path.write_text(montana.new_game(1).grid_text())
    code, out, _ = run(capsys, "moves", "montana", str(path))
    assert code == 0
    assert out == "6S A13\nQS B9\n5H C4\n"


def test_moves_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(montana.new_game(1).redeal().to_text()))
    _, out, _ = run(capsys, "moves", "montana", "-")
    assert len(out.splitlines()) == 16


def test_bad_input_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("JD JD\n")
    code, _, err = run(capsys, "moves", "montana", str(path))
    assert code == 2
    assert "expected 4 rows" in err
    code, _, err = run(capsys, "deal", "montana", "0")
    assert code == 2
    assert "deal number" in err


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "solitaire"
    result = subprocess.run(
        [str(script), "deal", "montana", "2"], capture_output=True, text=True, check=True
    )
    assert result.stdout == montana.new_game(2).to_text()


def test_solve_freecell_prints_the_verdict_then_the_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from app.games.freecell import rules as freecell
    from app.games.freecell.solver import replay_wins

    code, out, _ = run(capsys, "solve", "freecell", "1", "--budget-ms", "5000")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "solved"
    assert replay_wins(freecell.new_game(1), lines[1:])


def test_solve_montana_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.games.montana.solver import NEARLY_WON

    path = tmp_path / "nearly.txt"
    path.write_text(NEARLY_WON)
    _, out, _ = run(capsys, "solve", "montana", str(path))
    assert out == "solved\nKS D12\n"


def test_classify_writes_the_proofs_and_skips_deals_proved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.service import proofs

    argv = ["classify", "freecell", "--variant", "standard", "--folder", str(tmp_path)]
    assert main([*argv, "--deals", "11981-11983"]) == 0
    out, err = capsys.readouterr()
    # One line a deal on stdout; a progress bar, the time left and a summary on stderr.
    assert out == "11981 solved\n11982 unsolvable\n11983 solved\n"
    assert "3/3 100%" in err and "[" in err
    assert "freecell standard: 3 deals: 2 solved, 1 unsolvable, 0 unknown" in err
    shipped = proofs.load("freecell", "standard", tmp_path)
    assert shipped.verdict(11982) == "unsolvable" and shipped.verdict(11980) is None
    assert (tmp_path / "freecell-standard.bits").stat().st_size < 3100  # two bits a deal
    assert main([*argv, "--deals", "11982-11984"]) == 0
    out, err = capsys.readouterr()
    assert out == "11984 solved\n"
    assert "1 deals: 1 solved, 0 unsolvable, 0 unknown (2 proved before)" in err
    # Every variant of a game, one file each, with a short budget.
    assert main(["classify", "montana", "--deals", "1", "--budget-ms", "300", "--folder",
                 str(tmp_path)]) == 0  # fmt: skip
    for variant in ("expert", "easy"):
        assert proofs.read(tmp_path / f"montana-{variant}.txt").verdict(1) is not None


def test_classify_fewest_cells(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.service import proofs

    argv = ["classify", "freecell", "--fewest-cells", "--folder", str(tmp_path)]
    assert main([*argv, "--deals", "11982"]) == 0
    out, err = capsys.readouterr()
    assert out == "11982 5\n"
    assert "1/1 100%" in err
    cells = proofs.read_cells(tmp_path / "freecell-standard.cells")
    assert cells is not None and cells.value(11982) == proofs.NOT_EVEN_WITH_FOUR
    assert cells.value(1) == proofs.NOT_COMPUTED


@pytest.mark.parametrize(
    "argv",
    [
        ["classify", "freecell", "--deals", "x"],
        ["classify", "freecell", "--deals", "0-2"],
        ["classify", "freecell", "--deals", "1", "--variant", "nope"],
    ],
)
def test_classify_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    try:
        code = main([*argv, "--folder", str(tmp_path)])
    except SystemExit as exit:  # argparse's own refusal
        code = int(exit.code or 0)
    assert code == 2
    assert not list(tmp_path.glob("*.txt"))


def test_a_freecell_variant_deals_solves_and_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.games.freecell import rules as freecell
    from app.games.freecell.solver import replay_wins

    _, out, _ = run(capsys, "deal", "freecell", "1", "--variant", "seahaven")
    assert out == freecell.new_game(1, "seahaven").to_text()
    assert out.startswith("Variant: seahaven\nFreecells: - 2H 6H -\n")
    board = tmp_path / "seahaven.txt"
    board.write_text(out)
    code, out, _ = run(capsys, "moves", "freecell", str(board))
    assert code == 0 and "0a" in out.split()
    code, out, _ = run(capsys, "solve", "freecell", "3", "--variant", "eight-off")
    lines = out.splitlines()
    assert code == 0 and lines[0] in ("solved", "unknown")
    if lines[0] == "solved":
        assert replay_wins(freecell.new_game(3, "eight-off"), lines[1:])
