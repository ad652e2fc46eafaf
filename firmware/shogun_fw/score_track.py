# The LED score track: every player's victory points (0-80, laps above) and optionally rice
# (0-18) on an addressable strip. Renders into a frame buffer in strip order, with gamma
# correction and a current limiter; the board writes the buffer to the strip.
#
# CPU: a render is a copy of a prepared background (the tick
# marks) and a few bytes per player from a palette computed once per brightness; the battle
# flash copies a frame prepared when the animation starts. Nothing is allocated per render but
# the slice of a copy, and nothing is rendered when nothing changes. A strip write costs the loop
# the frame's encoding, and its wire time (29 us an LED) the UART's interrupts: while the
# detector says a throw is going on (`hold`), frames wait, so no write delays a beam edge or a
# colour sample. A command renders nothing: the track's task renders the new frame and writes
# it in the step after, woken by the link after the command (or once a throw that held the frame
# ends), else at its next beat (50 ms). A board takes no frame while the last is still going out
# (strip_write says False): the track writes it again 4 ms later.
import array
import asyncio

import micropython
from micropython import const

from shogun_common import protocol as P

from .link import line, wake

VP_SPACES = const(81)
RICE_SPACES = const(19)
_BEAT_MS = const(50)       # how often the track looks for a new frame (the link wakes it after
#                            SCORES and SEGMENTS: rendered and written in a command's step, they
#                            came over the ESP32's 2 ms stall budget)
_PHASE_BEATS = const(10)   # players sharing a space take turns on its LED every 500 ms
_FLASH_BEATS = const(3)    # battle animation: on and off every 150 ms
_RETRY_MS = const(4)       # a refused frame: 100 LEDs take 2.9 ms on the wire, 0.4 ms to latch
_HOLD_MS = const(100)      # how often a held frame looks again whether the throw is over (a
#                            wake costs the ESP32 ~0.5 ms; the throw's quiet window is 448 ms)
DEFAULT_BUDGET_MA = const(370)  # safe on a USB 2.0 port (500 mA) with the ESP32 and sensors:
#                                 110 mA + 370 mA = 480 mA worst case (hardware/README.md)

# The LED colours, 3 bytes (R, G, B) each: the cube colours in wire order (a black cube is shown
# as dim white: an LED cannot be black), then the tick marks and a lap. One bytes constant: a
# module's bytes stay in a ROMFS image, while a tuple of tuples is 7 objects in the 64K heap.
PALETTE_RGB = (b"\xc8\xc8\xc8"  # black (200, 200, 200)
               b"\xff\x00\x00"  # red (255, 0, 0)
               b"\xff\x96\x00"  # yellow (255, 150, 0)
               b"\x96\x00\xff"  # purple (150, 0, 255)
               b"\x00\x28\xff"  # blue (0, 40, 255)
               b"\x00\xff\x00"  # green (0, 255, 0): farmers, for animations
               b"\x3c\x3c\x3c"  # every tenth space, so players can read the track
               b"\xff\xff\xff")  # a lap
_TICK = const(6)          # palette entries after the six cube colours
_LAP = const(7)
_PALETTE = const(8)
# The current model in integers (x255): a channel at v draws v * 20 / 255 mA.
_CH_MA = const(20)
_IDLE_MA = const(1)
_UNRENDERED = const(2)  # _dirty: the frame waits for a render, then a write
_UNWRITTEN = const(3)   # ... rendered (the host read it back, or the strip refused it): a write
_PLAYERS = const(5)
# Why a configuration is refused, a reason a line (link.line: one object in the 64K heap)
_WHY = ("vp_len must be 1-81 LEDs\n"
        "rice_len must be 0 (no rice track) or 19\n"
        "the rice segment overlaps the VP segment\n"
        "strip longer than 300 LEDs\n"
        "current budget below 60 mA cannot light the track\n")
_PART = const(6)        # a player's part of the plan: LED, colour, sharing, rank, lap, rice LED


@micropython.viper
def scale(frame, n: int, factor: int):
    """frame[i] = frame[i] * factor >> 10 for the first n bytes (the current limiter: 243 of
    them in a bytecode loop cost the loop 40 us on the unix port). Viper (32-bit on the ESP32):
    a byte times factor <= 1024 stays below 2**18."""
    f = ptr8(frame)
    i = 0
    while i < n:
        f[i] = (f[i] * factor) >> 10
        i += 1


@micropython.viper
def total(frame, n: int) -> int:
    """sum(frame[:n]) (the builtin iterates: 6 us for a strip of 81 LEDs on the unix port).
    Viper (32-bit on the ESP32): at most 300 LEDs x 3 x 255, below 2**18."""
    f = ptr8(frame)
    t = 0
    i = 0
    while i < n:
        t += f[i]
        i += 1
    return t


@micropython.viper
def fill(frame, led: int, n: int, rgb: int):
    """``n`` LEDs of ``frame`` from ``led`` in one colour (``rgb``: r | g << 8 | b << 16), in
    place: a battle's flash and a segment's run allocate no frame (a 64K board has no run of
    243 bytes to spare)."""
    f = ptr8(frame)
    i = 3 * led
    end = i + 3 * n
    while i < end:
        f[i] = rgb & 0xFF
        f[i + 1] = (rgb >> 8) & 0xFF
        f[i + 2] = rgb >> 16
        i += 3


class ScoreTrack:
    def __init__(self, board, vp_len=VP_SPACES, rice_len=0, rice_start=VP_SPACES,
                 budget_ma=DEFAULT_BUDGET_MA, brightness=128):
        self.board = board
        self.scores = b""  # SCORES' payload: colour, VP (2 bytes), rice, for each player
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.frame_ma = 0
        self.dimmed = False
        self.reversed = False
        self.beat = False  # set each round of run(): the watchdog's proof of life
        self._nap = None   # run()'s task while it sleeps out a beat or a throw's hold (wake)
        self.hold = None   # hold() -> True while a throw is going on: frames wait
        self.renders = 0   # frames rendered (the bench and tests count them)
        self.writes = 0    # frames written to the strip
        self._anim_left = 0
        self._anim = 0     # the battle flash's colour (r | g << 8 | b << 16)
        self._segments = None  # SEGMENTS' payload: runs shown instead of the score track
        self._plan = None      # _parts' length (_make_plan; None: to do)
        self._parts = array.array("h", bytes(2 * _PART * _PLAYERS))  # what render() puts
        self._any_shared = False
        self._dirty = True
        self._phase = 0
        self._beats = 0  # run()'s beats since the phase last moved on
        self._palette = bytearray(3 * _PALETTE)
        self._tune()
        self._layout(vp_len, rice_len, rice_start)

    def _tune(self):
        # Gamma and brightness for every colour the track shows, once per brightness.
        scale = self.brightness
        pal = self._palette
        # 255 * (v / 255) ** 2.2 rounded, as v ** 2.2 * 255 ** -1.2: two floats a channel, not
        # four (each is an object of the heap: 3 KB of garbage a TRACK_CONFIG, 1.5 now)
        for i in range(3 * _PALETTE):
            pal[i] = round((PALETTE_RGB[i] * scale // 255) ** 2.2 * 0.0012946482346687502)

    def _layout(self, vp_len, rice_len, rice_start):
        self.vp_len = vp_len
        self.rice_len = rice_len
        self.rice_start = rice_start
        n = max(vp_len, rice_start + rice_len if rice_len else 0)
        # A battle's flashes were for the old strip: a new layout ends them.
        self._anim_left = 0
        self._segments = None  # checked against the old strip's length
        self._plan = None  # for the new layout
        if getattr(self, "_base", None) is None or len(self._base) != 3 * n:
            # (a strip of the same length keeps its frames: a host sets the track at every
            # session's start, and a 64K board's heap may have no run of their size left)
            self.frame = None
            self._base = None
            self.frame = bytearray(3 * n)
            self._base = bytearray(3 * n)   # the background: tick marks every tenth space
            self.board.strip_init(n)
        self._make_base()

    def _make_base(self):
        base = self._base
        for i in range(len(base)):
            base[i] = 0
        for space in range(0, self.vp_len, 10):
            self._put(base, self._index(space), _TICK)

    def configure(self, vp_len, rice_len, rice_start, budget_ma, brightness, flags):
        """Returns None, or why the configuration is refused."""
        if not 1 <= vp_len <= VP_SPACES:
            return line(_WHY, 0)
        if rice_len and rice_len != RICE_SPACES:
            return line(_WHY, 1)
        if rice_len and vp_len > rice_start:
            return line(_WHY, 2)
        if rice_start + rice_len > 300:
            return line(_WHY, 3)
        if budget_ma < 60:
            return line(_WHY, 4)
        self.budget_ma = budget_ma
        self.brightness = brightness
        self.reversed = bool(flags & 1)
        self._tune()
        self._layout(vp_len, rice_len, rice_start)
        self._dirty = True
        return None

    def set_scores(self, scores):
        """``scores``: the SCORES payload (checked by the command), kept as it came: no list of
        tuples per command (a 64K board's heap)."""
        self.scores = scores
        self._segments = None
        self._plan = None  # worked out at the render, in the track's step, not the command's
        # Rendered when the host reads the frame back (shown()) or when run() writes it: woken
        # now, or as soon as a throw that holds it ends (not in the command's step,
        # which the render and the write took over the ESP32's 2 ms stall budget).
        self._dirty = _UNRENDERED

    def set_segments(self, runs):
        """``runs``: the SEGMENTS payload (checked by the command), kept as it came; shown as
        set_scores's."""
        self._segments = runs
        self._dirty = _UNRENDERED

    def news(self):
        """True when run() sleeps out a beat (or a look at a throw's hold) while a new frame
        waits that no throw holds: a command's, or one a throw held. The link then calls
        wake()."""
        return (self._nap is not None and bool(self._dirty)
                and (self.hold is None or not self.hold()))

    def wake(self):
        """run() looks for a new frame at the loop's next turn, not at its next beat."""
        task = self._nap
        if task is not None:
            self._nap = None
            wake(task)

    def shown(self):
        """The frame the host reads back: what it sent last, even before the strip shows it."""
        if self._dirty == _UNRENDERED:
            self.render(self._phase)
            self._dirty = _UNWRITTEN
        return self.frame

    def animate(self, kind, colour):
        if kind == P.ANIM_BATTLE:
            # Three flashes of the winner's colour over the whole VP segment (its colour taken
            # now: a later brightness changes the palette), each filled in place (viper)
            pal = self._palette
            self._anim = pal[3 * colour] | pal[3 * colour + 1] << 8 | pal[3 * colour + 2] << 16
            self._anim_left = 6
            self._dirty = True

    def _write(self):
        if self.board.strip_write(self.frame):
            self.writes += 1
            self._dirty = False
        else:
            self._dirty = _UNWRITTEN  # the last frame is still on the wire

    async def run(self):
        me = asyncio.current_task()
        try:
            while True:
                self.beat = True
                if self.hold is not None and self.hold():
                    self._nap = me
                    await asyncio.sleep_ms(_HOLD_MS)
                    self._nap = None
                    continue
                self._beats += 1
                if self._beats >= (_FLASH_BEATS if self._anim_left > 0 else _PHASE_BEATS):
                    self._beats = 0
                    self._phase += 1
                    if self._anim_left > 0 or self._shared():
                        self._dirty = True
                if self._dirty == _UNWRITTEN:
                    self._write()
                elif self._dirty:
                    self._beats = 0  # a new frame shows a whole phase (a flash: a whole flash)
                    if self._plan is None and self._segments is None:
                        # new scores: each player's part in a step of its own (with
                        # the render after it, 1.9 ms at R high)
                        self._make_plan()
                        await asyncio.sleep_ms(0)
                        if self._plan is None or self.hold is not None and self.hold():
                            continue  # newer scores came meanwhile, or a throw began
                    self.render(self._phase)
                    self._dirty = _UNWRITTEN
                    # its write in a step of its own (a render after new scores and the
                    # write together came to 2.2 ms at R high); meanwhile a command may have made
                    # a newer frame, or a throw begun
                    await asyncio.sleep_ms(0)
                    if self._dirty == _UNWRITTEN and (self.hold is None or not self.hold()):
                        self._write()
                if self._dirty == _UNWRITTEN:  # refused: the last frame is still going out
                    await asyncio.sleep_ms(_RETRY_MS)
                else:
                    self._nap = me
                    await asyncio.sleep_ms(_BEAT_MS)
                    self._nap = None
        finally:
            self._nap = None  # (cancelled in its sleep: nothing to wake)

    # ---- rendering ------------------------------------------------------------------------------
    def _index(self, space):
        # The VP segment may run against the strip's direction (flag bit 0).
        return self.vp_len - 1 - space if self.reversed else space

    def _put(self, frame, led, colour):
        pal = self._palette
        i = 3 * led
        j = 3 * colour
        frame[i] = pal[j]
        frame[i + 1] = pal[j + 1]
        frame[i + 2] = pal[j + 2]

    def _shared(self):
        if self._segments is not None:
            return False
        if self._plan is None:
            self._make_plan()
        return self._any_shared

    def _make_plan(self):
        # Each player's part of a frame, worked out once per scores or layout (at the first
        # render after them) rather than at every render (a render of five players
        # in bytecode came near the ESP32's 2 ms stall budget): its LED, its colour, how many
        # players share its space and its turn among them, whether it is past 80 (a lap), its
        # rice LED (-1: no rice track). Into _parts, taken at start: nothing allocated.
        scores = self.scores
        n = self.vp_len
        parts = self._parts
        shared = False
        k = 0
        for a in range(0, len(scores), 4):
            vp = scores[a + 1] | scores[a + 2] << 8
            # The players on this space take turns in the order of the scores.
            parts[k + 3] = 0
            parts[k + 2] = 0
            for b in range(0, len(scores), 4):
                if (scores[b + 1] | scores[b + 2] << 8) % n == vp % n:
                    if b < a:
                        parts[k + 3] += 1
                    parts[k + 2] += 1
            if parts[k + 2] > 1:
                shared = True
            parts[k] = self._index(vp % n)
            parts[k + 1] = scores[a]
            parts[k + 4] = vp >= n
            parts[k + 5] = (self.rice_start + min(scores[a + 3], RICE_SPACES - 1)
                            if self.rice_len else -1)
            k += _PART
        self._plan = k
        self._any_shared = shared

    def render(self, phase):
        """Fill the frame. Returns True when players share a space (the frame changes by phase)."""
        self.renders += 1
        frame = self.frame
        if self._anim_left > 0:
            self._anim_left -= 1
            if self._anim_left % 2 == 1:   # 6, 4, 2 left before this one: lit
                frame[:] = self._base
                fill(frame, 0, self.vp_len, self._anim)
                self._limit()
                return self._shared()
        segments = self._segments
        if segments is not None:
            # the dark background in C (a copy of the ticks' one), then the ticks put out
            frame[:] = self._base
            for space in range(0, self.vp_len, 10):
                i = 3 * self._index(space)
                frame[i] = frame[i + 1] = frame[i + 2] = 0
            pal = self._palette
            for i in range(0, len(segments), 4):
                # a run filled in place in viper (LED by LED in bytecode, 81 of them held an
                # ESP32 ~7 ms; a copy made in C took a run of the heap); the command checked
                # that it ends on the strip
                j = 3 * segments[i + 3]
                fill(frame, segments[i] | segments[i + 1] << 8, segments[i + 2],
                     pal[j] | pal[j + 1] << 8 | pal[j + 2] << 16)
            self._limit()
            return False
        frame[:] = self._base
        if self._plan is None:
            self._make_plan()
        parts = self._parts
        for k in range(0, self._plan, _PART):
            if phase % parts[k + 2] == parts[k + 3]:
                # a player past 80 blinks white once every two seconds
                self._put(frame, parts[k], _LAP if parts[k + 4] and phase % 4 == 3
                          else parts[k + 1])
            if parts[k + 5] >= 0:
                self._put(frame, parts[k + 5], parts[k + 1])
        self._limit()
        return self._any_shared

    @micropython.native
    def _limit(self):
        # The current limiter: the frame's draw in integers (mA x 255).
        frame = self.frame
        leds = len(frame) // 3
        lit = total(frame, len(frame))
        idle = 255 * _IDLE_MA * leds
        ma255 = lit * _CH_MA + idle
        budget255 = 255 * self.budget_ma
        self.dimmed = ma255 > budget255
        if self.dimmed:
            # Scale the lit part down so the whole frame fits the budget (x1024 fixed point).
            room = budget255 - idle
            factor = (room << 10) // (lit * _CH_MA) if room > 0 else 0
            scale(frame, len(frame), factor)
            ma255 = total(frame, len(frame)) * _CH_MA + idle
        self.frame_ma = (ma255 + 127) // 255


del micropython, const  # (the compiler's: two entries less in this module's table, heap)
