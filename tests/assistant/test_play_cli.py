"""`shogun-tower play`: a game killed midway resumes to the identical state and plays on."""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

from shogun_tower.games.shogun.journal import Journal

CLI = [sys.executable, "-m", "shogun_tower.cli", "play"]
# `play` as a person starts it at a terminal, where Ctrl-C raises KeyboardInterrupt. Python
# leaves SIGINT ignored when it starts with it ignored, as every job a non-interactive shell
# starts in the background does (`make test &`, a CI runner's): there the test's Ctrl-C would
# never arrive (two clean-clone runs hung 30 s in `input()`, 28 Nov).
CLI_AT_A_TERMINAL = [sys.executable, "-c", "import runpy, signal; signal.signal(signal.SIGINT, "
                     "signal.default_int_handler); runpy.run_module('shogun_tower.cli', "
                     "run_name='__main__')", "play"]


def _lines(path: pathlib.Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def test_a_game_killed_midway_resumes_to_the_identical_state(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "game.jsonl"
    proc = subprocess.Popen([*CLI, "--players", "4", "--bots", "all", "--seed", "9",
                             "--journal", str(journal), "--no-page"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while _lines(journal) < 60 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, ("play ended before the kill: "
                                 + (proc.stderr.read() if proc.stderr else ""))
    os.killpg(proc.pid, signal.SIGKILL)  # the laptop dies: no clean-up of any kind
    proc.wait()
    assert _lines(journal) >= 60, proc.stderr.read() if proc.stderr else ""
    killed_text = journal.read_text()
    at_kill = Journal.load(journal)
    assert at_kill.state.result is None, "the game was still going"

    done = subprocess.run([*CLI, "--bots", "all", "--resume", str(journal), "--no-page"],
                          capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert f"{len(at_kill.commands)} commands replayed" in done.stdout
    # The simulated tower was given back what the rules say was inside it.
    assert "the rules and the simulated tower agree" in done.stdout
    final_text = journal.read_text()
    assert final_text.startswith(killed_text), "the journal is only appended to"
    final = Journal.load(journal)  # every digest checked: the state after each line is the one
    assert final.state.result is not None  # recorded before the kill, then the game's end
    again = Journal(at_kill.game)
    for command in final.commands[: len(at_kill.commands)]:
        again.apply(command)
    assert again.state.to_json() == at_kill.state.to_json()


def test_closing_the_input_stops_cleanly_and_says_how_to_resume(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "people.jsonl"
    proc = subprocess.run([*CLI, "--players", "3", "--seed", "2", "--journal", str(journal),
                           "--no-page", "--tower", "manual", "--no-clear"],
                          input="black 6, red 6, yellow 6, green 9\n", capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"--resume {journal}" in proc.stdout
    state = Journal.load(journal).state
    assert state.setup_thrown and state.pending()["kind"] == "plan"


def test_bad_arguments_and_files_get_one_line_errors(tmp_path: pathlib.Path) -> None:
    existing = tmp_path / "taken.jsonl"
    existing.write_text("x\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"journal": "shogun-tower-journal", "version": 1}\n{"n": 1}\n')
    cases = [
        (["--resume", str(tmp_path / "missing.jsonl")], "no journal file"),
        (["--journal", str(existing)], "already exists"),
        (["--resume", str(bad)], "line 1"),
        (["--players", "2"], "3 to 5 players"),
        (["--players", "red,pink,blue"], "pink is not a player colour"),
        (["--bots", "green"], "--bots"),
        (["--tower", "device"], "--port"),
    ]
    for args, words in cases:
        proc = subprocess.run([*CLI, "--no-page", *args], capture_output=True, text=True,
                              timeout=60, input="", cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        err = proc.stderr.strip().splitlines()
        assert len(err) == 1 and words in err[0], (args, proc.stderr)
    assert existing.read_text() == "x\n", "a refused command loses no data"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["bad.jsonl", "taken.jsonl"], \
        "a refused command leaves no half-made journal behind"


def _play(tmp_path: pathlib.Path, *args: str, typed: str = "quit\n"
          ) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], input=typed, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)


def test_resume_keeps_the_table_and_refuses_flags_that_conflict(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "table.jsonl"
    first = _play(tmp_path, "--players", "3", "--bots", "red", "--tower", "manual", "--seed",
                  "2", "--journal", str(journal), "--no-page", "--no-clear")
    assert first.returncode == 0, first.stderr
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["table"]["bots"] == ["red"] and header["table"]["tower"] == "manual"
    assert header["table"]["page"] is False
    before = journal.read_text()
    cases = [
        (["--tower", "sim"], "--tower sim conflicts with the saved table (--tower manual)"),
        (["--bots", "yellow"], "--bots yellow conflicts with the saved table (--bots red)"),
        (["--page"], "--page on conflicts with the saved table (--page off)"),
        (["--players", "4"], "--players 4 conflicts with the saved game"),
        (["--seed", "5"], "--seed 5 conflicts with the saved game (--seed 2)"),
    ]
    for flags, words in cases:
        proc = _play(tmp_path, "--resume", str(journal), *flags)
        err = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(err) == 1 and words in err[0], (flags, proc.stderr)
        assert proc.stdout == "", "refused before anything starts"
    assert journal.read_text() == before
    # no flag at all: the same table comes back (the manual tower asks for the tray, red is
    # still a bot, and the page stays off)
    again = _play(tmp_path, "--resume", str(journal))
    assert again.returncode == 0, again.stderr
    assert "the players count the tray (--tower manual)" in again.stdout
    assert "red (bot)" in again.stdout and "board page" not in again.stdout
    assert "Throw into your tower:" in again.stdout


def test_no_journal_is_made_before_the_tower_answers(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "never.jsonl"
    proc = _play(tmp_path, "--tower", "device", "--port", str(tmp_path / "ttyNONE"),
                 "--journal", str(journal), "--no-page")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not journal.exists(), "the same command can simply be run again"


def test_every_option_of_play_demo_and_serve_states_its_default() -> None:
    from shogun_tower.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("play", "demo", "serve"):
        sub = commands.choices[name]
        assert sub.description, name
        for action in sub._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            assert action.help and "default" in action.help, (name, action.option_strings)


def test_stopped_with_ctrl_c_says_so_in_words(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "stopped.jsonl"
    # (PYTHONFAULTHANDLER: should it not end, SIGABRT makes it print where each thread is)
    proc = subprocess.Popen([*CLI_AT_A_TERMINAL, "--players", "3", "--tower", "manual", "--journal",
                             str(journal), "--no-page", "--no-clear"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONFAULTHANDLER="1"))
    # Ctrl-C while the game waits at its first question, as a person presses it: a moment
    # after the question is on the screen (a signal between the prompt's flush and the read
    # would only be seen once a line came), and the input kept open until the program has
    # ended (closing it at once raced the signal on a loaded machine: "the input ended").
    out = ""
    deadline = time.monotonic() + 60
    while not out.endswith("? ") and time.monotonic() < deadline:
        chunk = os.read(proc.stdout.fileno(), 4096).decode()
        assert chunk, f"the game ended before its first question: {out!r}"
        out += chunk
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        rest, err = proc.communicate(timeout=30)
        raise AssertionError(f"still running 30 s after Ctrl-C; its threads:\n{err[-6000:]}\n"
                             f"its screen:\n{(out + rest)[-1500:]}") from None
    rest, err = proc.communicate(timeout=30)
    out += rest
    assert proc.returncode == 130, err  # a shell's code for a program stopped by Ctrl-C
    assert journal.exists()
    assert "stopped: Ctrl-C. The game is saved in" in out and "()" not in out


def test_the_simulated_towers_end_is_told_with_the_resume_command(tmp_path: pathlib.Path
                                                                  ) -> None:
    journal = tmp_path / "sim.jsonl"
    proc = subprocess.Popen([*CLI, "--players", "3", "--bots", "all", "--seed", "5",
                             "--journal", str(journal), "--no-page"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _lines(journal) < 15 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    # the simulated board's process (this test's grandchild) dies
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
    for pid in children.stdout.split():
        os.kill(int(pid), signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    lines = err.strip().splitlines()
    assert proc.returncode == 2, out[-2000:] + err
    assert len(lines) == 1, err
    assert "the simulated tower stopped: its program ended" in lines[0]
    assert f"continue with `shogun-tower play --resume {journal}`" in lines[0]
    assert "make deploy" not in err and "sim_" not in err
    Journal.load(journal)  # saved and readable


def test_a_person_types_the_courts_three_extra_plan_spaces(tmp_path: pathlib.Path) -> None:
    """Rule X1.4: with the court, the typed plan offers Convert 3/2/1 after the bid, checks each
    entry with the engine's rule T3 (a card planned twice is refused at once) and sends them."""
    provinces = ["Awa-Shikoku", "Echizen", "Hitachi", "Ise", "Kaga", "Kii", "Shimosa",
                 "Shimotsuke", "Yamato"]  # red's cards in this seeded game
    typed = ["",                     # red alone at the screen: Enter
             "n",                    # type my own plan
             *provinces[:8], "1", "2",  # the ten action spaces
             "0",                    # the bid
             "Yamato",               # Convert 3: a province card
             "tower",                # Convert 2: a cube-tower card
             "Kii",                  # Convert 1: Kii is on Deploy 5 already: refused
             "tow",                  # Convert 1 again: a cube-tower card (unique start)
             ""]                     # Enter: this is my plan
    done = _play(tmp_path, "--players", "3", "--bots", "black,yellow", "--seed", "2",
                 "--expansions", "court", "--journal", "court.jsonl", "--no-page", "--no-clear",
                 typed="\n".join(typed) + "\n")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    out = done.stdout
    assert "3 cube-tower cards" in out and "with a cube-tower card, from the tray" in out
    prompts = out.split("type your own plan (n)?", 1)[1]
    assert prompts.index("Bid (") < prompts.index("Convert 3:") < prompts.index("Convert 2:") \
        < prompts.index("Convert 1:")
    assert "refused: red: card Kii is planned twice" in out
    state = Journal.load(tmp_path / "court.jsonl").state
    plan = state.plans["red"]
    assert plan["extra"] == {"convert3": "Yamato", "convert2": "tower", "convert1": "tower"}
    assert plan["actions"]["battle_b"] == 2 and plan["bid"] == 0


def test_a_resumed_game_keeps_its_page_port_and_may_go_on_without_its_page(
        tmp_path: pathlib.Path) -> None:
    import re
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    journal = tmp_path / "page.jsonl"
    try:
        first = subprocess.run([*CLI, "--players", "3", "--tower", "manual", "--journal",
                                str(journal), "--page-port", str(port)], input="quit\n",
                               capture_output=True, text=True, timeout=120)
    finally:
        busy.close()
    assert first.returncode == 0, first.stdout[-2000:] + first.stderr
    assert f"port {port} is busy" in first.stdout
    got = int(re.search(r"the board page: http://127\.0\.0\.1:(\d+)/", first.stdout).group(1))
    assert got != port
    assert json.loads(journal.read_text().splitlines()[0])["table"]["page_port"] == got
    # resumed: the same address, so an open page or a seat's link still reaches the game
    again = subprocess.run([*CLI, "--resume", str(journal)], input="quit\n",
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr
    assert f"the board page: http://127.0.0.1:{got}/" in again.stdout
    assert "Where the game stands: Set-up" in again.stdout
    # and it may go on without its page
    bare = subprocess.run([*CLI, "--resume", str(journal), "--no-page"], input="quit\n",
                          capture_output=True, text=True, timeout=120)
    assert bare.returncode == 0, bare.stdout[-2000:] + bare.stderr
    assert "the board page" not in bare.stdout and "The game is saved in" in bare.stdout
