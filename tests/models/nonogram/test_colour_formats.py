"""Colour nonograms in files: the ``.non`` colour lines and webpbn XML colours, read, written
and refused at their line; and through every command of the command line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from PIL import Image

from cspsolve.errors import InputError, OptionError
from cspsolve.models.nonogram import Nonogram, check, read
from cspsolve.models.nonogram.colour_board import ColourNonogram
from cspsolve.models.nonogram.io.formats import parse, write, write_non
from cspsolve.models.nonogram.io.web import write_xml

from ...conftest import run
from .colour_differential import ColourCase, colour_cases

DATA = Path(__file__).resolve().parents[2] / "data" / "nonogram"
COLOUR = DATA / "colour"
INSTANCES = Path(__file__).resolve().parents[3] / "instances" / "nonogram"

NON = """width 2
height 1
color r red #ff0000
color g green #00ff00

rows
1r,1g

columns
1r
1g
"""

XML = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="black">
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<color name="red" char="r">f00</color>
<clues type="columns"><line><count color="red">1</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count color="red">1</count><count>1</count></line></clues>
</puzzle></puzzleset>
"""


def test_non_and_xml_read_the_same_colour_puzzle() -> None:
    [non] = read(COLOUR / "tricolour.non")
    [xml] = read(COLOUR / "tricolour.xml")
    assert isinstance(non.puzzle, ColourNonogram)
    assert non.puzzle == xml.puzzle  # clues, colours (the XML's '%' keyed by its name: r)
    assert non.puzzle.goal == xml.puzzle.goal == ("bb..rr", "bb..rr", "XXXXXX", "X.XX.X", "b....r")
    assert check(non.puzzle, non.puzzle.goal) == []
    assert [c.rgb for c in xml.puzzle.colours] == ["#ffffff", "#000000", "#dd0000", "#0000cc"]


def test_blocks_without_a_key_have_the_first_colour() -> None:
    [entry] = parse(NON.replace("1r,1g", "1,1g"), "t.non")
    assert entry.puzzle == parse(NON, "t.non")[0].puzzle


def test_black_counts_alone_still_make_a_black_and_white_puzzle() -> None:
    text = XML.replace(' color="red"', "").replace("<count>1</count><count>1", "<count>2")
    text = text.replace('<color name="red" char="r">f00</color>\n', "")
    assert isinstance(parse(text, "t.xml")[0].puzzle, Nonogram)
    assert isinstance(parse(XML, "t.xml")[0].puzzle, ColourNonogram)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(colour_cases())
def test_written_files_read_back_to_the_same_puzzle(case: ColourCase) -> None:
    puzzle = ColourNonogram(
        case.puzzle.rows, case.puzzle.columns, case.puzzle.colours, 'A "title" <&>', case.planted
    )
    for text, name in ((write_non(puzzle), "t.non"), (write_xml(puzzle), "t.xml")):
        [entry] = parse(text, name)
        assert entry.puzzle == puzzle
        assert entry.puzzle.goal == puzzle.goal


def test_black_and_white_xml_round_trip() -> None:
    [smile] = read(DATA / "smile.non")
    [entry] = parse(write_xml(smile.puzzle), "t.xml")
    assert entry.puzzle == smile.puzzle and entry.puzzle.goal == smile.puzzle.goal


def test_formats_without_colours_refuse_a_colour_puzzle(tmp_path: Path) -> None:
    puzzle = read(COLOUR / "tricolour.non")[0].puzzle
    for suffix in (".nin", ".tatham"):
        with pytest.raises(OptionError, match="has no colours"):
            write(puzzle, tmp_path / f"p{suffix}")


@pytest.mark.parametrize(
    ("text", "name", "line", "message"),
    [
        (NON.replace("1r,1g", "1r,1b"), "t.non", 7, "no colour has the key 'b'"),
        (NON.replace("1r,1g", "1r,xg"), "t.non", 7, "block 'xg' is not a run length"),
        (NON.replace("1r,1g", "1r,0g"), "t.non", 7, "block '0g' is not a run length"),
        (NON.replace("1r,1g", "2r,1g"), "t.non", 7, "row 1: clue 2r 1g needs 3 cells"),
        (NON.replace("#00ff00", "green"), "t.non", 4, "'green' is not a hex colour"),
        (NON.replace("color g green", "color 7 green"), "t.non", 4, "not one ASCII letter"),
        (NON.replace("color g green", "color r green"), "t.non", 4, "clashes with 'red'"),
        (NON.replace("color g green #00ff00", "color g"), "t.non", 4, "expected 'color KEY"),
        (NON + "color b blue #0000ff\n", "t.non", 12, "before 'rows' and 'columns'"),
        (NON.replace("width 2", 'goal "rb"\nwidth 2'), "t.non", 1, "has 'b', not a colour"),
        (
            XML.replace(
                'color="red">1</count></line><line>', 'color="pink">1</count></line><line>'
            ),
            "t.xml",
            6,
            "colour 'pink' is not a declared colour",
        ),
        (XML.replace(">f00<", ">red<"), "t.xml", 5, "not a hex colour"),
        (
            XML.replace('"black">', '"black" backgroundcolor="cream">'),
            "t.xml",
            2,
            "background colour 'cream' is not declared",
        ),
    ],
)
def test_bad_colour_files_name_their_line(text: str, name: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse(text, name)
    assert (info.value.line, message in info.value.message) == (line, True), info.value


def test_bad_colour_file_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.non"
    bad.write_text(NON.replace("1r,1g", "1r,1b"), encoding="utf-8")
    proc = run("solve", bad)
    assert proc.returncode == 2
    assert proc.stderr == f"cspsolve: {bad}:7: block '1b': no colour has the key 'b'\n"


@pytest.mark.slow
def test_a_colour_puzzle_goes_through_every_command(tmp_path: Path) -> None:
    mushroom = INSTANCES / "mushroom.non"
    puzzle = read(mushroom)[0].puzzle
    solved = run("solve", mushroom, "--unique", "--format", "json")
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["proof"]["unique"] is True and answer["solution"]["grid"] == list(puzzle.goal)
    text = run("solve", mushroom).stdout  # piped: no colour codes
    assert "4 colours" in text and "\x1b" not in text and "1r 3c 4r 2c 2r" in text
    converted = tmp_path / "mushroom.xml"
    assert run("convert", mushroom, converted).returncode == 0
    assert read(converted)[0].puzzle == puzzle
    verified = json.loads(run("verify", converted, "--format", "json").stdout)
    assert verified["agree"] is True and verified["reference"]["method"] == "cpsat"
    analysis = json.loads(run("analyze", converted, "--format", "json").stdout)["analysis"]
    assert analysis["line_solvable"] is True and analysis["unique"] is True
    for image in ("m.png", "m.svg"):
        assert run("solve", mushroom, "--image", tmp_path / image).returncode == 0
    assert (tmp_path / "m.svg").read_bytes().startswith(b"<?xml")
    with Image.open(tmp_path / "m.png") as picture:
        inks = {rgb for _, rgb in picture.convert("RGB").getcolors(1 << 20) or []}
    assert {(0xD6, 0x27, 0x28), (0x2C, 0xA0, 0x2C)} <= inks  # the mushroom's red and green
    refused = run("solve", mushroom, "--method", "mac")
    assert refused.returncode == 2 and "black-and-white nonograms only" in refused.stderr
    out = tmp_path / "r.sqlite"
    batch = run("batch", COLOUR / "tricolour.non", converted, "--out", out, "--workers", "1")
    assert batch.returncode == 0, batch.stderr
    with sqlite3.connect(out) as db:
        statuses = [status for (status,) in db.execute("SELECT status FROM results")]
    assert statuses == ["solved", "solved"]
