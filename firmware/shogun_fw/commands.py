# The app's commands, registered with the link for the component that serves them (one handler
# per component: each function costs heap on the board). Every handler checks the payload's
# length and every field before it changes anything, and answers REFUSED (code, reason)
# otherwise: no well-framed command can reset the board. Lengths are checked here, never left to
# struct.unpack (MicroPython's reads a payload that is too long).
import gc
import struct

import micropython
from micropython import const

from shogun_common import protocol as P
from shogun_fw.link import OK, line, refuse

_LED_CHUNK = const(60)     # LEDs per LED_DATA reply (180 bytes of RGB)
_PLAYERS = const(5)        # player colours 0-4 (black, red, yellow, purple, blue)
_COLOURS = const(6)        # cube colours 0-5 (green: farmers)
# The game's own totals: 62 armies a player, 20 farmers (docs/rules.md C1, C2). The simulated
# tower takes at most _SIM_MAX cubes a throw or a load: it schedules a whole throw at once in a
# heap of 64K (the set-up throw of 5 players is 45 cubes; bot games throw at most 22 and hold at
# most 40).
_ARMIES = const(62)
_FARMERS = const(20)
_SIM_MAX = const(64)
_FALL_MAX = const(128)     # a throw's cubes out at most (boards/sim.py's _ARRIVALS, taken at boot)
_PULSE_MIN_US = const(1000)


@micropython.viper
def led_data(frame, offset: int, count: int) -> int:
    """LED_DATA's payload (first LED, total LEDs, then ``count`` LEDs of ``frame`` from
    ``offset``: the caller keeps them within it) into the protocol's SCRATCH, as P.sealed
    takes a payload; its length. Nothing allocated: a 184-byte reply built in the heap reset a
    64K board whose heap had no run that long."""
    f = ptr8(frame)
    s = ptr8(P.SCRATCH)
    leds = int(len(frame)) // 3
    s[3] = offset & 0xFF
    s[4] = offset >> 8
    s[5] = leds & 0xFF
    s[6] = leds >> 8
    n = 3 * count
    at = 3 * offset
    i = 0
    while i < n:
        s[7 + i] = f[at + i]
        i += 1
    return 4 + n


# Why a command is refused: one string constant, a reason a line (one object in the 64K heap
# instead of one a reason: a string constant's header is heap even when its text stays in a
# ROMFS image), each named by its line's number.
_W_SCORES = const(0)
_W_SCORES_COLOUR = const(1)
_W_SCORES_TWICE = const(2)
_W_ANIMATE = const(3)
_W_ANIMATE_KIND = const(4)
_W_ANIMATE_COLOUR = const(5)
_W_LED_READ = const(6)
_W_TRACK_CONFIG = const(7)
_W_SEGMENTS = const(8)
_W_SEGMENTS_END = const(9)
_W_SEGMENTS_COLOUR = const(10)
_W_CAL_SAMPLE = const(11)
_W_CAL_SAMPLE_COLOUR = const(12)
_W_NO_SENSOR = const(13)
_W_CAL_STORE = const(14)
_W_CAL_GET = const(15)
_W_INJECT = const(16)
_W_NO_INJECT = const(17)
_W_INJECT_US = const(18)
_W_INJECTING = const(19)
_W_REAL = const(20)
_W_SIM_TOWER = const(21)
_W_COUNTS = const(22)
_W_COLOUR_MOST = const(23)
_W_MOST = const(24)
_W_THROW_INJECTING = const(25)
_W_SIM_SUPPLY = const(26)
_W_FALL_MAX = const(27)

_WHY = (
    "scores: 1-5 players of 4 bytes\n"  # _W_SCORES
    "scores: colour %d is not a player (0-4)\n"  # _W_SCORES_COLOUR
    "scores: colour %d twice\n"  # _W_SCORES_TWICE
    "animate: 2 bytes (kind, colour)\n"  # _W_ANIMATE
    "animate: unknown animation %d\n"  # _W_ANIMATE_KIND
    "animate: colour %d is not 0-5\n"  # _W_ANIMATE_COLOUR
    "led_read: 4 bytes (offset, count)\n"  # _W_LED_READ
    "track_config: 10 bytes\n"  # _W_TRACK_CONFIG
    "segments: 0-25 runs of 4 bytes\n"  # _W_SEGMENTS
    "segments: a run ends at LED %d, the strip has %d\n"  # _W_SEGMENTS_END
    "segments: colour %d is not 0-7\n"  # _W_SEGMENTS_COLOUR
    "cal_sample: 1 byte (colour)\n"  # _W_CAL_SAMPLE
    "cal_sample: colour %d is not 0-5 or 255 (off)\n"  # _W_CAL_SAMPLE_COLOUR
    "cal_sample: no colour sensor answers\n"  # _W_NO_SENSOR
    "cal_store: n, then n centroids of 9 bytes\n"  # _W_CAL_STORE
    "cal_get: no payload\n"  # _W_CAL_GET
    "inject: 6 bytes (count, block us, gap us)\n"  # _W_INJECT
    "inject: no inject pin configured\n"  # _W_NO_INJECT
    "inject: blocks and gaps must be >= 1000 us\n"  # _W_INJECT_US
    "inject: the last pulses are still running\n"  # _W_INJECTING
    "sim_throw, sim_tower, sim_load, sim_supply: a real tower\n"  # _W_REAL
    "sim_tower: no payload\n"  # _W_SIM_TOWER
    "0x%02x: 6 counts, one per cube colour\n"  # _W_COUNTS
    "%d cubes of colour %d, at most %d\n"  # _W_COLOUR_MOST
    "%d cubes, at most %d\n"  # _W_MOST
    "sim_throw: injected pulses are still running\n"  # _W_THROW_INJECTING
    "sim_supply: 1 byte, 1 (plugged in) or 0 (unplugged)\n"  # _W_SIM_SUPPLY
    "sim_throw: %d held + %d thrown, at most %d fall out: sim_load fewer\n"  # _W_FALL_MAX
)


def _bad(reason, args=None):
    # ``reason``: a line of _WHY (% ``args`` when given), or a text of its own
    if type(reason) is int:
        reason = line(_WHY, reason)
    return refuse(P.E_BAD_PAYLOAD, reason if args is None else reason % args)


def serve(link, track, detector, classifier):
    """Register every component's commands with the link."""
    link.track = track
    link.detector = detector
    link.classifier = classifier
    for mtype in (P.SCORES, P.TRACK_CONFIG, P.ANIMATE, P.SEGMENTS):
        link.serve(mtype, _track, True)
    link.board.caps |= P.CAP_SEGMENTS  # served here, for every board with a strip
    link.serve(P.LED_READ, _track)
    for mtype in (P.CAL_SAMPLE, P.CAL_STORE):
        link.serve(mtype, _calibration, True)
    link.serve(P.CAL_GET, _calibration)
    for mtype in (P.INJECT, P.SIM_THROW, P.SIM_LOAD, P.SIM_SUPPLY):
        link.serve(mtype, _board, True)
    link.serve(P.SIM_TOWER, _board)


def _track(link, mtype, p):
    """The LED score track: scores, LED frame read-back, configuration, animations."""
    track = link.track
    n = len(p)
    if mtype == P.SCORES:
        if n % 4 or not 4 <= n <= 4 * _PLAYERS:
            return _bad(_W_SCORES)
        seen = 0
        for i in range(0, n, 4):
            colour = p[i]
            if colour >= _PLAYERS:
                return _bad(_W_SCORES_COLOUR, colour)
            if seen & (1 << colour):
                return _bad(_W_SCORES_TWICE, colour)
            seen |= 1 << colour
        track.set_scores(p)  # (kept as it came: its bytes)
        return OK
    if mtype == P.ANIMATE:  # (the other command a throw brings: tested second)
        if n != 2:
            return _bad(_W_ANIMATE)
        if p[0] != P.ANIM_BATTLE:
            return _bad(_W_ANIMATE_KIND, p[0])
        if p[1] >= _COLOURS:
            return _bad(_W_ANIMATE_COLOUR, p[1])
        track.animate(p[0], p[1])
        return OK
    if mtype == P.LED_READ:
        if n != 4:
            return _bad(_W_LED_READ)
        frame = track.shown()
        total = len(frame) // 3
        offset = min(P.le(p, 0, 2), total)
        # (the reply packed in place, its type and length for the link to seal: nothing
        # allocated)
        return P.LED_DATA << 8 | led_data(frame, offset, min(P.le(p, 2, 2), _LED_CHUNK,
                                                             total - offset))
    if mtype == P.TRACK_CONFIG:
        if n != 10:
            return _bad(_W_TRACK_CONFIG)
        error = track.configure(P.le(p, 0, 2), P.le(p, 2, 2), P.le(p, 4, 2), P.le(p, 6, 2),
                                p[8], p[9])
        return _bad(error) if error else OK
    # SEGMENTS
    if n % 4 or n > 4 * P.MAX_SEGMENTS:
        return _bad(_W_SEGMENTS)
    leds = len(track.frame) // 3
    for i in range(0, n, 4):
        end = P.le(p, i, 2) + p[i + 2]
        if end > leds:
            return _bad(_W_SEGMENTS_END, (end, leds))
        if p[i + 3] > P.SEG_WHITE:
            return _bad(_W_SEGMENTS_COLOUR, p[i + 3])
    track.set_segments(bytes(p))
    return OK


def _calibration(link, mtype, p):
    """Colour calibration: the calibration mode, the centroids in flash."""
    classifier = link.classifier
    if mtype == P.CAL_SAMPLE:
        if len(p) != 1:
            return _bad(_W_CAL_SAMPLE)
        if p[0] >= _COLOURS and p[0] != P.CAL_OFF:
            return _bad(_W_CAL_SAMPLE_COLOUR, p[0])
        if not link.board.caps & P.CAP_COLOUR:
            return refuse(P.E_UNSUPPORTED, line(_WHY, _W_NO_SENSOR))
        link.detector.calibration_colour = p[0]
        return OK
    if mtype == P.CAL_STORE:
        if not p or len(p) != 1 + 9 * p[0]:
            return _bad(_W_CAL_STORE)
        return _store(link, classifier, P.unpack_centroids(p))
    # CAL_GET
    if p:
        return _bad(_W_CAL_GET)
    return P.CAL_DATA, P.pack_centroids(classifier.centroids)


_NO_ROOM = (b"\x07cal_store: MemoryError: no room to write it, nothing stored; reset the "
            b"board and send it first")


def _store(link, classifier, centroids):
    # The heap collected first: the calibration's text and the file's buffers need a few
    # hundred bytes, and a 64K board's garbage may hold them (a run kept for it from the
    # start left the board too little to start at all). Written to a new file, then renamed:
    # a MemoryError leaves the old calibration, so it is a refusal, never a reset (the 64-bit
    # unix port's literal 64K heap has no 200-byte run left for it once the app runs).
    gc.collect()
    try:
        error = classifier.store(link.board, centroids)
    except MemoryError:
        gc.collect()
        return P.REFUSED, _NO_ROOM  # (made now, the refusal would need the room it lacks)
    gc.collect()
    return _bad(error) if error else OK


def _board(link, mtype, p):
    """The board's own commands: synthetic beam pulses, and the simulated tower's."""
    board = link.board
    n = len(p)
    if mtype == P.INJECT:
        if n != 6:
            return _bad(_W_INJECT)
        if not board.caps & P.CAP_INJECT:
            return refuse(P.E_UNSUPPORTED, line(_WHY, _W_NO_INJECT))
        if P.le(p, 2, 2) < _PULSE_MIN_US or P.le(p, 4, 2) < _PULSE_MIN_US:
            return _bad(_W_INJECT_US)
        if getattr(board, "injecting", False):
            return refuse(P.E_BUSY, line(_WHY, _W_INJECTING))
        board.inject(P.le(p, 0, 2), P.le(p, 2, 2), P.le(p, 4, 2))
        return OK
    if not board.caps & P.CAP_SIMULATED:
        return refuse(P.E_UNSUPPORTED, line(_WHY, _W_REAL))
    if mtype == P.SIM_SUPPLY:
        if n != 1 or p[0] > 1:
            return _bad(_W_SIM_SUPPLY)
        board.supply_5v(p[0])
        # Unplugged: the frame within USB's budget before the reply (lower first); plugged in:
        # the supply's after the hand-over, as the track's task finds it.
        link.track.follow_source(False)
        return OK
    if mtype == P.SIM_TOWER:
        if n:
            return _bad(_W_SIM_TOWER)
        # (and what its LEDs showed: frames written, ms since the last; the bench times them)
        shown = board.strip_shown
        return P.SIM_TOWER_DATA, board.sim_tower() + struct.pack(
            "<III", board.throws, shown[0], board.ticks_diff(board.ticks_ms(), shown[1]))
    # SIM_THROW, SIM_LOAD: six counts within the game's totals
    if n != _COLOURS:
        return _bad(_W_COUNTS, mtype)
    for colour in range(_COLOURS):
        most = _FARMERS if colour == _COLOURS - 1 else _ARMIES
        if p[colour] > most:
            return _bad(_W_COLOUR_MOST, (p[colour], colour, most))
    if sum(p) > _SIM_MAX:
        return _bad(_W_MOST, (sum(p), _SIM_MAX))
    if mtype == P.SIM_LOAD:
        board.sim_load(p)
        return OK
    if board.injecting:
        return refuse(P.E_BUSY, line(_WHY, _W_THROW_INJECTING))
    n = sum(board.sim_tower())  # (held: a throw's knocks can let all of them out)
    if n + sum(p) > _FALL_MAX:
        return _bad(_W_FALL_MAX, (n, sum(p), _FALL_MAX))
    board.sim_throw(p)
    return OK


del micropython, const  # (the compiler's: two entries less in this module's table, heap)
