"""The command line's help: each command's own page (its options only, an
example, at most 60 lines), the program's page naming the whole tool."""
import re

import pytest

from pctcodec.cli import main
from pctcodec.cli._help import COMMANDS

# Options that belong to one group of commands: a page shows its own only.
OWN = {
    "--safe": ("quote", "quote-plus"),
    "--encoding": ("quote", "quote-plus", "unquote", "unquote-plus"),
    "--sort-query": ("normalize",),
    "--drop": ("clean-query", "canonicalize"),
    "--tracking": ("clean-query",),
    "--base-column": ("resolve",),
    "--strip-www": ("canonicalize",),
    "--html-amp": ("clean-query", "canonicalize"),
    "--parts": ("split", "domain", "parse-url"),
    "--private": ("domain",),
}


def page(argv, capsys):
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@pytest.mark.parametrize("command", list(COMMANDS))
def test_each_command_has_its_own_page(command, capsys):
    # `pctcodec domain --help` printed the program's 176-line page
    out = page([command, "--help"], capsys)
    lines = out.splitlines()
    assert len(lines) <= 60, len(lines)
    assert lines[0].startswith(f"usage: pctcodec {command} ")
    examples = out.split("\nexamples:\n", 1)[1].split("\n\n")[0].split()
    assert ["pctcodec", command] in [examples[i:i + 2] for i in range(len(examples))]
    assert "--on-error" in out and "--column NAME" in out  # the options every command has
    usage = out.split("\n\n", 1)[0]
    for option, commands in OWN.items():
        assert (option + " " in out or option + "\n" in out) == (command in commands), option
        # and in the usage lines (--html-amp was only further down)
        assert bool(re.search(re.escape(option) + r"[ \]\n]", usage)) == (command in commands), \
            (option, usage)
    assert out == page(["-h", command], capsys)  # either order
    assert out == page([command, "--on-error", "null", "--help", "x.txt"], capsys)


def test_a_value_that_names_a_command_is_no_command(capsys):
    # --column's value is skipped: the command is resolve
    out = page(["--column", "quote", "resolve", "--help"], capsys)
    assert out.startswith("usage: pctcodec resolve ")


def test_program_page_names_the_whole_tool(capsys):
    with pytest.raises(SystemExit) as exited:  # argparse's own help action
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr()[0]
    description = out.split("\n\n")[1]
    assert description.startswith("Percent-encoding and URL cleanup")
    for job in ("quote", "normalize", "canonicalize", "registered", "resolve", "split",
                "clean query"):
        assert job in description, job
    for command in COMMANDS:
        assert f"\n  {command} " in out or f"\n  {command}\n" in out, command
    assert "pctcodec COMMAND --help" in out


def test_rejects_help_names_the_real_columns(capsys):
    # it said "(row, value, reason)"; the file's header is line,row,value,reason
    assert "line,row,value,reason" in page(["normalize", "--help"], capsys).replace("\n", " ")
    from pctcodec.cli import EPILOG
    assert "(line, row, value, reason)" in EPILOG
