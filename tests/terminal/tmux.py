"""`shogun-tower play` in a real terminal: tmux runs it, keys go in with send-keys and the
screen is read with capture-pane, as a person at the laptop would type and read."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

PLAY = [sys.executable, "-m", "shogun_tower.cli", "play"]


def with_exit_status(command: list[str]) -> list[str]:
    """``command`` run by a shell that prints its exit status when it ends (tmux's own
    pane_dead_status is sometimes left empty, even a minute after the pane closed); the
    shell's trap lets Ctrl-C reach the program and waits for it."""
    return ["sh", "-c", 'trap : INT; "$@"; echo "[exit status $?]"', "sh", *command]


def need_tmux() -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is missing: install Debian's tmux package (`make test` does)")


class Terminal:
    """One tmux session on a private server, 120 columns by 50 lines, running one command."""

    def __init__(self, command: list[str], cwd: str, width: int = 120, height: int = 50) -> None:
        need_tmux()
        self.socket = f"shogun-test-{uuid.uuid4().hex[:8]}"
        self.name = "table"
        env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1")
        env.pop("FORCE_COLOR", None)
        shell = " ".join(_quote(a) for a in command)
        # a whole game's scrollback is kept (tmux keeps 2000 lines unless told before the
        # pane is made)
        self._config = tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False)
        self._config.write("set -g history-limit 100000\n")
        self._config.close()
        self._tmux("-f", self._config.name, "new-session", "-d", "-s", self.name, "-x",
                   str(width), "-y", str(height), "-c", cwd, f"exec env NO_COLOR=1 {shell}",
                   env=env)
        self._tmux("set-option", "-t", self.name, "remain-on-exit", "on")

    def _tmux(self, *args: str, env: dict | None = None) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, env=env, timeout=30)
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def send(self, text: str, enter: bool = True) -> None:
        """Type ``text`` (literally) and press Enter; back once the terminal has echoed it.
        (Otherwise, on a loaded machine, the next wait_prompt could read the question just
        answered, still on the screen as it was, for the next one.)"""
        before = self._cursor()
        if text:
            self._tmux("send-keys", "-t", self.name, "-l", text)
        if enter:
            self._tmux("send-keys", "-t", self.name, "Enter")
        deadline = time.monotonic() + 10
        while self._cursor() == before and time.monotonic() < deadline and not self.dead():
            time.sleep(0.02)

    def _cursor(self) -> str:
        """Where the cursor is, the scrollback's length with it: typing moves it."""
        return self._tmux("display-message", "-p", "-t", self.name,
                          "#{cursor_x} #{cursor_y} #{history_size}").strip()

    def key(self, name: str) -> None:
        self._tmux("send-keys", "-t", self.name, name)

    def screen(self) -> str:
        """What the terminal shows now (wrapped lines joined)."""
        return self._tmux("capture-pane", "-p", "-J", "-t", self.name)

    def history(self, joined: bool = True) -> str:
        """The scrollback and the screen: what a person could scroll back to (``joined``:
        lines the terminal wrapped joined back; else each row as the screen shows it)."""
        return self._tmux("capture-pane", "-p", *(("-J",) if joined else ()), "-S", "-",
                          "-t", self.name)

    def prompt(self) -> str:
        lines = [ln for ln in self.screen().splitlines() if ln.strip()]
        return lines[-1] if lines else ""

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """The screen once it shows ``text``, wherever the console cut it into lines (the
        console wraps at words and indents what follows: spaces and line ends are one)."""
        deadline = time.monotonic() + timeout
        wanted = " ".join(text.split())
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown or wanted in " ".join(shown.split()):
                return shown
            if self.dead():
                break
            time.sleep(0.1)
        raise AssertionError(f"the screen never showed {text!r}; it shows:\n{self.screen()}")

    def wait_gone(self, text: str, timeout: float = 60) -> None:
        """Until neither the screen nor the scrollback shows ``text`` (a screen cleared)."""
        deadline = time.monotonic() + timeout
        while text in self.history():
            if time.monotonic() > deadline or self.dead():
                raise AssertionError(f"{text!r} stays on the screen:\n{self.screen()}")
            time.sleep(0.1)

    def wait_prompt(self, timeout: float = 60) -> str:
        """The last line once it is a question waiting for an answer and stays still."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            line = self.prompt()
            if self.dead():
                raise AssertionError(f"play ended:\n{self.history()[-3000:]}")
            if line.rstrip().endswith((":", "?")) and line == last:
                return line
            last = line
            time.sleep(0.15)
        raise AssertionError(f"no question on the screen:\n{self.screen()}")

    def pid(self) -> int:
        return int(self._tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())

    def dead(self) -> bool:
        return self._tmux("display-message", "-p", "-t", self.name,
                          "#{pane_dead}").strip() == "1"

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=30)
        os.unlink(self._config.name)


def _quote(arg: str) -> str:
    if arg and all(c.isalnum() or c in "-_./=:," for c in arg):
        return arg
    return "'" + arg.replace("'", "'\\''") + "'"
