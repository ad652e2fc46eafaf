"""What the assistant plays with: the tower (simulated, a real board on a port, or the players'
own eyes) and the board page."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import socket
from collections.abc import Iterator
from dataclasses import dataclass

from shogun_tower.device.link import DeviceLink
from shogun_tower.device.tower import DeviceTower, ManualTower
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.table.console import Console
from shogun_tower.table.terminal import counts_text
from shogun_tower.web.server import BoardServer

TOWER_KINDS = ("sim", "device", "manual")


@dataclass
class Equipment:
    tower: DeviceTower | ManualTower
    link: DeviceLink | None
    description: str
    sim: SimulatedTower | None = None  # the simulated board's process, when it is one


PORT_MAX = 65535


def tcp_port(text: str) -> int:
    """A TCP port number, 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a port number (0-{most})").format(
            text=text, most=PORT_MAX)) from None
    if not 0 <= port <= PORT_MAX:
        raise argparse.ArgumentTypeError(_("{port} is not a port number: give 0-{most} (0 "
                                           "picks a free one)").format(port=port, most=PORT_MAX))
    return port


def check_tower(kind: str, port: str | None) -> None:
    """Refuses a tower that cannot be opened, before a command makes files or starts a page."""
    if kind == "device" and not port:
        raise ShogunError(_("--tower device needs --port, e.g. --port /dev/ttyUSB0"))


@contextlib.contextmanager
def open_tower(kind: str, console: Console, port: str | None = None, seed: int = 1,
               quiet_s: float | None = None,
               sim_options: list[str] | None = None) -> Iterator[Equipment]:
    """``kind``: "sim" (the simulated device), "device" (a real board on ``port``) or "manual"
    (the players type the tray counts). ``sim_options``: the simulated board's own options
    (e.g. a fitted tower's --pass-p/--knock-p)."""
    if kind == "manual":
        def typed_at_the_table(cubes_in: dict[str, int]) -> dict[str, int]:
            raise ShogunError(_("a manual tower's tray is typed at the table"))

        yield Equipment(ManualTower(typed_at_the_table), None,
                        _("the players count the tray (--tower manual)"))
        return
    with contextlib.ExitStack() as stack:
        sim = None
        if kind == "sim":
            sim = stack.enter_context(SimulatedTower(seed=seed, options=sim_options))
            port = sim.port
        else:
            check_tower(kind, port)
        link = stack.enter_context(DeviceLink(port))
        info = link.hello()

        def prompt(cubes_in: dict[str, int]) -> None:
            console.say(_("Throw into the tower now: {cubes}").format(
                cubes=counts_text(cubes_in, console.colour)))

        tower = DeviceTower(link, prompt=prompt)
        if quiet_s is not None:
            tower.quiet_s = quiet_s
        words = (_("the simulated tower on {port}: firmware {firmware}, board {board}, "
                   "protocol {protocol}") if tower.simulated else
                 _("the tower on {port}: firmware {firmware}, board {board}, protocol "
                   "{protocol}"))
        yield Equipment(tower, link, words.format(port=port, firmware=info["firmware"],
                                                  board=info["board"],
                                                  protocol=info["protocol"]), sim)


def add_page_arguments(parser: argparse.ArgumentParser) -> None:
    """The board page's options, the same for every command that starts it."""
    parser.add_argument("--page", action=argparse.BooleanOptionalAction, default=None,
                        help=_("serve the live board page (default: on)"))
    parser.add_argument("--host", default=None,
                        help=_("address the page listens on (default: 127.0.0.1, this laptop "
                               "only; with --phones: this laptop's address on the local "
                               "network)"))
    parser.add_argument("--page-port", type=tcp_port, default=None,
                        help=_("port of the page (default: 8765; a busy port falls back to a "
                               "free one)"))


PAGE_DEFAULTS = {"page": True, "page_port": 8765}


def fill_page_defaults(args: argparse.Namespace) -> None:
    """The page options' defaults, filled in after parsing (so --resume can tell a flag
    given from a flag left out)."""
    for name, value in PAGE_DEFAULTS.items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This laptop's address on the local network: the one its route to the outside uses.
    A UDP socket's connect sends nothing; it only asks the kernel for the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address = s.getsockname()[0]
        except OSError:
            address = ""
    if not address or address.startswith("0."):
        raise ShogunError(_("--phones: this laptop has no network address; join the table's "
                            "Wi-Fi (or give --host ADDRESS)"))
    return address


def page_host(host: str | None, phones: bool) -> str:
    """Where the page listens: loopback, unless the phones must reach it (then the network)."""
    if host is None:
        return lan_address() if phones else "127.0.0.1"
    if not phones and not is_loopback(host):
        raise ShogunError(_("--host {host}: the page listens beyond this laptop only with "
                            "--phones (the seats' links are private); drop --host or add "
                            "--phones").format(host=host))
    return host


def start_page(host: str, port: int, console: Console, front: str = "index.html"
               ) -> BoardServer:
    """The board page (``front``: the game's page at "/"); a busy port falls back to a free
    one (said on the terminal)."""
    try:
        return BoardServer(host, port, front).start()
    except ShogunError:
        if port == 0:
            raise
        page = BoardServer(host, 0, front).start()
        console.say(_("port {port} is busy; the board page uses port {other} instead").format(
            port=port, other=page.port))
        return page
