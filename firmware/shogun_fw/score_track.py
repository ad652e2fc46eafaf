# The LED score track: every player's victory points (0-80, laps above) and optionally rice
# (0-18) on an addressable strip. Renders into a frame buffer in strip order, with gamma
# correction and a current limiter; the board writes the buffer to the strip.
import asyncio

from micropython import const

from shogun_common import protocol as P

VP_SPACES = const(81)
RICE_SPACES = const(19)
_PHASE_MS = const(500)     # players sharing a space take turns on its LED
_MA_PER_CHANNEL = 20.0     # WS2812B: about 20 mA per colour channel at full duty
_MA_IDLE = 1.0             # each LED draws about 1 mA even when dark
_GAMMA = 2.2
DEFAULT_BUDGET_MA = const(370)  # safe on a USB 2.0 port (500 mA) with the ESP32 and sensors:
#                                 123 mA + 370 mA = 493 mA worst case (hardware/README.md)

# Player colours as LED colours (a black cube is shown as dim white: an LED cannot be black).
PLAYER_RGB = (
    (200, 200, 200),  # black
    (255, 0, 0),      # red
    (255, 150, 0),    # yellow
    (150, 0, 255),    # purple
    (0, 40, 255),     # blue
    (0, 255, 0),      # green (farmers: used by animations)
)
_TICK_RGB = (60, 60, 60)  # every tenth space, so players can read the track
_LAP_RGB = (255, 255, 255)


class ScoreTrack:
    def __init__(self, board, vp_len=VP_SPACES, rice_len=0, rice_start=VP_SPACES,
                 budget_ma=DEFAULT_BUDGET_MA, brightness=128):
        self.board = board
        self.scores = []
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.frame_ma = 0
        self.dimmed = False
        self.reversed = False
        self._animation = None
        self.beat = False  # set each round of run(): the watchdog's proof of life
        self._dirty = True
        self._phase = 0
        self._gamma = bytearray(int(255 * (i / 255) ** _GAMMA + 0.5) for i in range(256))
        self._layout(vp_len, rice_len, rice_start)

    def _layout(self, vp_len, rice_len, rice_start):
        self.vp_len = vp_len
        self.rice_len = rice_len
        self.rice_start = rice_start
        n = max(vp_len, rice_start + rice_len if rice_len else 0)
        self.frame = bytearray(3 * n)
        # What each LED shows, reused by every render: a fresh list twice a second would need
        # one free run of 8 bytes an LED, which a fragmented heap may not have.
        self._leds = [None] * n
        self.board.strip_init(n)

    def configure(self, vp_len, rice_len, rice_start, budget_ma, brightness, flags):
        """Returns None, or why the configuration is refused."""
        if not 1 <= vp_len <= VP_SPACES:
            return "vp_len must be 1-81 LEDs"
        if rice_len not in (0, RICE_SPACES):
            return "rice_len must be 0 (no rice track) or 19"
        if rice_len and vp_len > rice_start:
            return "the rice segment overlaps the VP segment"
        if rice_start + rice_len > 300:
            return "strip longer than 300 LEDs"
        if budget_ma < 60:
            return "current budget below 60 mA cannot light the track"
        self.budget_ma = budget_ma
        self.brightness = brightness
        self.reversed = bool(flags & 1)
        self._layout(vp_len, rice_len, rice_start)
        self._dirty = True
        return None

    def set_scores(self, scores):
        self.scores = scores
        # Shown at once, so the host reading the frame back sees what it just sent.
        self.render(self._phase)
        self.board.strip_write(self.frame)

    def animate(self, kind, colour):
        if kind == P.ANIM_BATTLE:
            self._animation = [colour, 6]  # three flashes of the winner's colour
            self._dirty = True

    async def run(self):
        while True:
            self.beat = True
            shared = self.render(self._phase)
            if self._animation is not None or shared or self._dirty:
                self.board.strip_write(self.frame)
                self._dirty = False
            self._phase += 1
            await asyncio.sleep_ms(_PHASE_MS if self._animation is None else 150)

    # ---- rendering ------------------------------------------------------------------------------
    def _index(self, space):
        # The VP segment may run against the strip's direction (flag bit 0).
        return self.vp_len - 1 - space if self.reversed else space

    def render(self, phase):
        """Fill the frame. Returns True when players share a space (the frame changes by phase)."""
        leds = self._leds
        for i in range(len(leds)):
            leds[i] = None
        for i in range(0, self.vp_len, 10):
            leds[self._index(i)] = _TICK_RGB
        shared = False
        by_space = {}
        for colour, vp, rice in self.scores:
            by_space.setdefault(vp % self.vp_len, []).append((colour, vp // self.vp_len))
            if self.rice_len:
                leds[self.rice_start + min(rice, RICE_SPACES - 1)] = PLAYER_RGB[colour]
        for space, players in by_space.items():
            if len(players) > 1:
                shared = True
            colour, laps = players[phase % len(players)]
            rgb = PLAYER_RGB[colour]
            if laps and phase % 4 == 3:
                rgb = _LAP_RGB  # a player past 80 blinks white once every two seconds
            leds[self._index(space)] = rgb
        if self._animation is not None:
            colour, left = self._animation
            if left % 2 == 0:
                for i in range(self.vp_len):
                    leds[i] = PLAYER_RGB[colour]
            self._animation[1] -= 1
            if self._animation[1] <= 0:
                self._animation = None
        self._fill(leds)
        return shared

    def _fill(self, leds):
        g = self._gamma
        scale = self.brightness
        frame = self.frame
        total = 0
        for i, rgb in enumerate(leds):
            if rgb is None:
                frame[3 * i] = frame[3 * i + 1] = frame[3 * i + 2] = 0
                continue
            for k in range(3):
                v = g[rgb[k] * scale // 255]
                frame[3 * i + k] = v
                total += v
        ma = total * _MA_PER_CHANNEL / 255 + _MA_IDLE * len(leds)
        self.dimmed = ma > self.budget_ma
        if self.dimmed:
            # Scale the lit part down so the whole frame fits the budget.
            lit_budget = self.budget_ma - _MA_IDLE * len(leds)
            factor = max(0.0, lit_budget) / (ma - _MA_IDLE * len(leds))
            for i in range(len(frame)):
                frame[i] = int(frame[i] * factor)
            ma = sum(frame) * _MA_PER_CHANNEL / 255 + _MA_IDLE * len(leds)
        self.frame_ma = int(ma + 0.5)
