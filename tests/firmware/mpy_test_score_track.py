# LED score track rendering on MicroPython.
from fakes import FakeBoard, turns_until

from shogun_fw.score_track import PALETTE_RGB, ScoreTrack


def _lit(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


def _rgb(colour):
    return tuple(PALETTE_RGB[3 * colour:3 * colour + 3])


def _scores(*players):
    # SCORES' payload: colour, VP (2 bytes), rice
    return bytes(b for c, vp, rice in players for b in (c, vp & 0xFF, vp >> 8, rice))


def _hue(rgb):
    # which channels are the brightest: enough to tell the player colours apart after gamma
    m = max(rgb)
    return tuple(1 if c * 3 >= m * 2 and m else 0 for c in rgb)


def test_each_player_at_its_space_in_its_colour():
    track = ScoreTrack(FakeBoard())
    track.set_scores(_scores((1, 12, 0), (4, 40, 0)))
    track.render(0)
    assert _hue(_lit(track.frame, 12)) == _hue(_rgb(1))
    assert _hue(_lit(track.frame, 40)) == _hue(_rgb(4))
    assert _lit(track.frame, 13) == (0, 0, 0)


def test_players_on_the_same_space_take_turns():
    track = ScoreTrack(FakeBoard())
    track.set_scores(_scores((1, 7, 0), (4, 7, 0)))
    assert track.render(0) is True
    first = _lit(track.frame, 7)
    track.render(1)
    second = _lit(track.frame, 7)
    assert _hue(first) != _hue(second)


def test_above_80_is_a_lap():
    track = ScoreTrack(FakeBoard())
    track.set_scores(_scores((1, 85, 0)))
    track.render(0)
    assert _hue(_lit(track.frame, 4)) == _hue(_rgb(1))
    track.render(3)
    assert _lit(track.frame, 4)[1] > 0  # the lap blink shows white


def test_rice_segment():
    board = FakeBoard()
    track = ScoreTrack(board)
    assert track.configure(81, 19, 81, 400, 128, 0) is None
    track.set_scores(_scores((2, 3, 5)))
    track.render(0)
    assert len(track.frame) == 3 * 100
    assert _lit(track.frame, 86) != (0, 0, 0)


def test_reversed_strip():
    track = ScoreTrack(FakeBoard())
    assert track.configure(81, 0, 81, 400, 128, 1) is None
    track.set_scores(_scores((1, 0, 0)))
    track.render(0)
    assert _lit(track.frame, 80) != (0, 0, 0)


def test_current_limiter_dims_to_budget():
    track = ScoreTrack(FakeBoard(), budget_ma=200, brightness=255)
    track.animate(1, 0)  # a battle flash lights the whole VP segment
    track.render(0)
    assert track.dimmed
    assert track.frame_ma <= 200


def test_the_viper_scaling_matches_plain_python_on_extreme_frames():
    # viper rule: every intermediate below 2**31 on the ESP32 (here checked for the plain one)
    from shogun_fw.score_track import scale

    frames = [bytes(243), b"\xff" * 243, bytes(range(243)), bytes((255, 0, 1) * 81)]
    for frame in frames:
        for factor in (0, 1, 511, 1023, 1024):
            got = bytearray(frame)
            scale(got, len(got), factor)
            want = bytearray(frame)
            for i in range(len(want)):
                product = want[i] * factor
                assert product < 1 << 31
                want[i] = product >> 10
            assert got == want, factor
    part = bytearray(b"\xff" * 10)
    scale(part, 4, 512)  # only the first n bytes
    assert part == bytearray(b"\x7f" * 4 + b"\xff" * 6)


def test_the_viper_total_matches_sum_on_extreme_frames():
    from shogun_fw.score_track import total

    for frame in (bytes(900), b"\xff" * 900, bytes(range(256)) * 3, b"\x01"):
        assert total(frame, len(frame)) == sum(frame) < 1 << 31
        assert total(frame, 1) == frame[0] and total(frame, 0) == 0


def test_bad_configuration_refused():
    track = ScoreTrack(FakeBoard())
    assert track.configure(90, 0, 81, 400, 128, 0)
    assert track.configure(81, 7, 81, 400, 128, 0)
    assert track.configure(81, 0, 81, 10, 128, 0)


def _beats(track, ms):
    # The track's own task for ``ms`` (it renders and writes at its beats)
    import asyncio

    async def run():
        task = asyncio.create_task(track.run())
        await asyncio.sleep_ms(ms)
        task.cancel()

    asyncio.run(run())


def test_a_command_renders_nothing_the_next_beat_shows_it():
    # a render and a write in the command's step came over the ESP32's 2 ms stall
    # budget; the track's next beat (50 ms) shows the new scores; the host's read-back
    # (shown()) renders them at once
    board = FakeBoard()
    track = ScoreTrack(board)
    renders = track.renders
    track.set_scores(_scores((1, 12, 0)))
    assert track.renders == renders and track.writes == 0
    _beats(track, 30)
    assert track.writes == 1 and _lit(board.strip, 12) == _lit(track.frame, 12) != (0, 0, 0)
    track.set_scores(_scores((1, 13, 0)))
    assert _hue(_lit(track.shown(), 13)) == _hue(_rgb(1))
    assert track.writes == 1 and _lit(board.strip, 13) == (0, 0, 0)
    renders = track.renders
    _beats(track, 30)
    assert track.writes == 2 and _lit(board.strip, 13) != (0, 0, 0)
    assert track.renders == renders  # (rendered once, by shown(); written by the beat)


def test_new_scores_take_three_steps_each_player_part_the_render_and_the_write():
    # the ESP32's 2 ms stall budget; another task sees the loop between each
    import asyncio

    board = FakeBoard()
    track = ScoreTrack(board)
    _beats(track, 30)
    track.set_scores(_scores((1, 12, 0), (2, 12, 0), (3, 40, 0), (4, 77, 0), (0, 5, 0)))
    seen = []

    async def watch():
        while True:
            now = (track._plan is not None, track.renders, track.writes)
            if not seen or seen[-1] != now:
                seen.append(now)
            await asyncio.sleep_ms(0)

    async def run():
        w = asyncio.create_task(watch())
        t = asyncio.create_task(track.run())
        await asyncio.sleep_ms(30)
        t.cancel()
        w.cancel()

    renders, writes = track.renders, track.writes
    asyncio.run(run())
    assert (True, renders, writes) in seen            # the plan, nothing rendered yet
    assert (True, renders + 1, writes) in seen        # rendered, not yet written
    assert seen[-1] == (True, renders + 1, writes + 1)


def _turns_until(done, act):
    """act(), then the loop's turns until done() (the track sleeps out its beat, 50 ms, unless
    woken)."""
    import asyncio

    turns = []

    async def run(track_task):
        await asyncio.sleep_ms(10)  # the track asleep by now
        act()
        turns.append(await turns_until(done))
        track_task.cancel()

    return run, turns


def test_new_scores_woken_are_written_at_once_not_at_the_next_beat():
    # The verdict on the LEDs right after the host's SCORES (bench_assistant's 50 ms), the
    # plan, the render and the write each still in a step of its own
    import asyncio

    board = FakeBoard()
    track = ScoreTrack(board)
    def scores():
        assert not track.news()  # (nothing new yet)
        track.set_scores(_scores((1, 12, 0)))
        assert track.news()
        track.wake()  # (the link, in a step after the command's)

    run, turns = _turns_until(lambda: _lit(board.strip, 12) != (0, 0, 0), scores)

    async def main():
        await run(asyncio.create_task(track.run()))

    asyncio.run(main())
    assert turns[0] <= 10, turns
    # and the battle's flash, the same way
    writes = track.writes
    def battle():
        track.animate(1, 2)
        assert track.news()
        track.wake()

    run, turns = _turns_until(lambda: track.writes > writes, battle)
    asyncio.run(main())
    assert turns[0] <= 10, turns


def test_frames_wait_while_a_throw_goes_on():
    # A strip write costs the loop its encoding, a render costs it too: during a throw
    # the frame is rendered only when the host reads it back, and written only once the
    # detector lets go.
    board = FakeBoard()
    track = ScoreTrack(board)
    throwing = [True]
    track.hold = lambda: throwing[0]
    renders = track.renders
    track.set_scores(_scores((1, 12, 0)))
    _beats(track, 120)
    assert track.renders == renders
    assert _hue(_lit(track.shown(), 12)) == _hue(_rgb(1))
    assert track.renders == renders + 1 and track.shown() is track.frame
    assert track.renders == renders + 1  # (read again: no second render)
    assert track.writes == 0 and _lit(board.strip, 12) == (0, 0, 0)
    assert not track.news()  # (the throw holds it: the link does not wake the track)
    throwing[0] = False
    track.set_scores(_scores((1, 13, 0)))
    _beats(track, 30)
    assert track.writes == 1 and _lit(board.strip, 13) == _lit(track.frame, 13)


def test_a_frame_the_strip_refuses_is_written_a_few_ms_later():
    # The real board's UART takes no frame while the last is on the wire (2.9 ms): the scores
    # that came then are not lost, the track's loop writes them 4 ms later.
    board = FakeBoard()
    track = ScoreTrack(board)
    track.set_scores(_scores((1, 12, 0)))
    _beats(track, 30)
    assert track.writes == 1
    board.strip_busy = 1
    track.set_scores(_scores((1, 13, 0)))
    _beats(track, 30)                         # refused at the beat, written 4 ms later
    assert track.writes == 2 and board.strip_busy == 0
    assert _lit(board.strip, 13) == _lit(track.frame, 13) != (0, 0, 0)


def test_nothing_is_rendered_when_nothing_changes():
    import asyncio

    board = FakeBoard()
    track = ScoreTrack(board)
    track.set_scores(_scores((1, 12, 0), (2, 30, 0)))

    async def two_seconds():
        task = asyncio.create_task(track.run())
        await asyncio.sleep_ms(2100)
        task.cancel()

    before = track.renders
    asyncio.run(two_seconds())
    assert track.renders - before <= 1  # the first round only (the frame was dirty)


def test_a_battle_flashes_three_times_then_shows_the_scores():
    track = ScoreTrack(FakeBoard())
    track.set_scores(_scores((4, 20, 0)))
    track.animate(1, 1)
    lit = []
    for phase in range(6):
        track.render(phase)
        lit.append(_lit(track.frame, 5) != (0, 0, 0))
    assert lit == [True, False, True, False, True, False]
    track.render(6)
    assert _hue(_lit(track.frame, 20)) == _hue(_rgb(4))


def test_a_new_layout_during_a_battle_flash_ends_the_flash():
    # A host that configures the track (a new session, track_config) while a battle still
    # flashes: the board must go on rendering, not reset (no well-framed input resets).
    track = ScoreTrack(FakeBoard())
    track.set_scores(_scores((4, 20, 0)))
    track.animate(1, 1)
    track.render(0)
    assert track.configure(81, 19, 81, 370, 255, 0) is None
    for phase in range(1, 8):
        track.render(phase)
    assert _hue(_lit(track.frame, 20)) == _hue(_rgb(4))


def _runs(*runs):
    out = bytearray()
    for start, count, colour in runs:
        out += bytes((start & 0xFF, start >> 8, count, colour))
    return bytes(out)


def test_segments_light_only_their_runs_then_scores_bring_the_track_back():
    # Samurai's bands: a red run, a gap, a green run, a white run; no tick marks
    track = ScoreTrack(FakeBoard())
    assert track.configure(81, 19, 81, 370, 128, 0) is None
    track.set_segments(_runs((0, 3, 1), (5, 2, 5), (97, 3, 7)))
    frame = track.shown()
    assert [_hue(_lit(frame, i)) for i in (0, 1, 2)] == [_hue(_rgb(1))] * 3
    assert _lit(frame, 3) == (0, 0, 0) and _lit(frame, 10) == (0, 0, 0)  # no tick
    assert _hue(_lit(frame, 5)) == _hue(_rgb(5)) and _lit(frame, 7) == (0, 0, 0)
    assert _lit(frame, 99)[0] == _lit(frame, 99)[1] == _lit(frame, 99)[2] > 0
    assert _lit(frame, 96) == (0, 0, 0) and len(frame) == 3 * 100
    assert track.render(1) is False  # nothing shared, nothing to alternate
    track.set_segments(_runs((0, 100, 4)))  # the whole strip in one run
    assert track.shown() is frame and len(frame) == 3 * 100
    assert all(_lit(frame, i) == _lit(frame, 0) for i in range(100))
    assert _hue(_lit(frame, 50)) == _hue(_rgb(4))
    track.set_segments(_runs((0, 3, 1), (5, 2, 5), (97, 3, 7)))
    track.set_scores(_scores((1, 12, 0)))
    frame = track.shown()
    assert _lit(frame, 10) != (0, 0, 0)  # the tick marks are back with the scores
    assert _lit(frame, 0) != (0, 0, 0) and _lit(frame, 1) == (0, 0, 0)


def test_segments_wait_for_a_throw_and_a_new_layout_clears_them():
    board = FakeBoard()
    track = ScoreTrack(board)
    throwing = [True]
    track.hold = lambda: throwing[0]
    writes = track.writes
    track.set_segments(_runs((4, 2, 2)))
    assert track.writes == writes and track._dirty  # held: run() writes it after the throw
    assert track.configure(40, 0, 81, 370, 128, 0) is None
    track.render(0)
    assert _lit(track.frame, 4) == (0, 0, 0) and _lit(track.frame, 0) != (0, 0, 0)


def _strip_ma(frame):
    # hardware/power.py's model (strip_ma): 20 mA a channel at full duty, 1 mA idle an LED
    return sum(frame) * 20 / 255 + len(frame) // 3


def _supplied_board():
    # The tower senses the 5 V supply on GPIO34 (boards/esp32.py supply_5v; the simulated
    # board's SIM_SUPPLY): here a test says whether it is plugged in
    board = FakeBoard()
    board.supply = False
    board.supply_5v = lambda: board.supply
    return board


def _track_past_the_hand_over():
    # Plugged in at full brightness: the track's first look starts the hand-over, and the
    # clock is then past it, so the track's next look takes the supply's budget
    board = _supplied_board()
    board.supply = True
    track = ScoreTrack(board, brightness=255)
    track.follow_source(False)
    board.now += 600000
    return board, track


def _white(track):
    # the whole VP segment white at full brightness: 81 x 60 mA, far above any budget
    track.set_segments(bytes((0, 0, 81, 7)))


def test_the_budget_follows_the_power_source_the_board_senses():
    # USB's 370 mA without the supply; the supply's 2400 mA once it has fed the strip for the
    # hand-over (520 ms, hardware/power.py); USB's again at once when it goes; never above what
    # the host allows (TRACK_CONFIG)
    board = _supplied_board()
    track = ScoreTrack(board, brightness=255)
    _white(track)
    track.follow_source(False)
    assert track.budget_ma == 370 and track.supply is False
    assert track.shown() and track.dimmed and _strip_ma(track.frame) <= 370
    board.supply = True
    track.follow_source(False)  # plugged in: the hand-over first
    assert track.budget_ma == 370 and track.supply is not True
    board.now += 500000
    track.follow_source(False)
    assert track.budget_ma == 370
    board.now += 30000
    track.follow_source(False)
    assert track.budget_ma == 2400 and track.supply is True
    frame_ma = _strip_ma(track.shown())  # rendered again within the new budget
    assert 370 < frame_ma <= 2400 and track.dimmed
    board.supply = False
    track.follow_source(False)
    assert track.budget_ma == 370 and track.supply is False  # at once
    assert _strip_ma(track.shown()) <= 370
    assert track.configure(81, 0, 81, 600, 255, 0) is None
    board.supply = True
    track.follow_source(False)
    board.now += 600000
    track.follow_source(False)
    assert track.budget_ma == 600 and track.supply is True  # the host's, below the supply's


def test_on_usb_the_hosts_budget_is_held_to_usbs():
    track = ScoreTrack(FakeBoard())  # (its supply_5v: False)
    assert track.configure(81, 0, 81, 2400, 128, 0) is None
    assert track.budget_ma == 370
    assert track.configure(81, 0, 81, 200, 128, 0) is None
    assert track.budget_ma == 200


def test_unplugged_in_a_throw_the_strip_is_lowered_at_once():
    # Frames wait while a throw goes on, but not a frame made for the supply once USB feeds
    # the strip: the track's next look writes one within USB's budget (lower first)
    board, track = _track_past_the_hand_over()
    _beats(track, 30)
    _white(track)
    _beats(track, 30)
    assert track.budget_ma == 2400 and _strip_ma(board.strip) > 2000
    track.hold = lambda: True  # a throw begins
    writes = track.writes
    _white(track)
    _beats(track, 120)
    assert track.writes == writes  # (held)
    board.supply = False
    _beats(track, 120)  # a look at the throw's hold every 100 ms
    assert track.writes == writes + 1 and _strip_ma(board.strip) <= 370
    assert track.budget_ma == 370 and track.dimmed


def test_a_lower_frame_waits_for_no_throw_after_a_command():
    # SIM_SUPPLY (or any command) lowers the budget in the command's step: the link's news()
    # wakes the track, which writes the lower frame even in a throw
    board, track = _track_past_the_hand_over()
    track.follow_source(False)
    track.hold = lambda: True
    track._nap = object()  # (as if asleep in a look at the throw's hold)
    assert not track.news()
    board.supply = False
    track.follow_source(False)
    _white(track)  # a command after it keeps the lower frame's write
    assert track.news()
