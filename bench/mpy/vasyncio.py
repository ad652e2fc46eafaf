# A virtual-time stand-in for MicroPython's asyncio, for bench/mpy/cpu_worst.py only (never part
# of the firmware): the firmware's own tasks run unchanged, one step at a time, on a clock that
# only this loop moves (the simulated board's virtual ticks). Each step (a task's run from one
# await to the next) is timed by the profiler the bench installs, and the simulated board's
# own time inside the step is taken out (see cpu_worst.Profiler).
#
# What the firmware uses of asyncio: sleep_ms, sleep, create_task, current_task, run,
# CancelledError, new_event_loop, ThreadSafeFlag (set from an interrupt), Event, and of its core
# module the task queue's remove and push (link.wake: a sleeping task brought forward).


import micropython

# The stand-in's own part of a step, stamped where it ends and where it begins, so that the
# profiler takes all of it out of the step (the ESP32's whole resumption is charged apart, at
# asyncio_rate): [0] when the awaited object handed control back to the task, [1] when the task
# next called sleep_ms or a flag's wait. Measured there rather than in a warm loop: in the run,
# with the caches cold, it costs several times its warm figure. cpu_worst.py sets `clock`.
STAMP = [0, 0]
clock = None


class CancelledError(BaseException):
    pass


class TimeoutError(Exception):  # noqa: A001 - asyncio's own name
    pass


class _Yield:
    # As asyncio's own SingletonGenerator: one object reused, `await` yields it once to the loop;
    # nothing is allocated per await. (Its __next__ native: raised from bytecode, the exception
    # takes a traceback from the heap at every resumption, where a step's count sees it.)
    def __init__(self):
        self.state = 0
        self.exc = StopIteration()

    def __iter__(self):
        self.state = 1
        return self

    @micropython.native
    def __next__(self):
        if self.state:
            self.state = 0
            return self
        self.exc.__traceback__ = None  # as asyncio does: a reused exception must not grow
        STAMP[0] = clock()
        raise self.exc


class _Sleep(_Yield):
    us = 0


class _Wait(_Yield):
    flag = None
    us = -1      # wait_for_ms: give up after this long (-1: never)


class Task:
    data = None  # (asyncio's: what a task waits on or is cancelled with; link.wake reads it)

    def __init__(self, coro, loop):
        self.coro = coro
        self.loop = loop
        self.wake = loop.now
        self.seq = 0
        self.name = getattr(coro, "__name__", "task")
        self.done = False
        self.waiting = None   # the flag it waits on
        self.deadline = -1    # ... until then (wait_for_ms), else -1
        self.timed_out = False
        self.cancelled = False

    def cancel(self):
        self.cancelled = True
        self.loop.wake_now(self)


class ThreadSafeFlag:
    def __init__(self):
        self.state = False
        self.waiter = None
        self._wait = _Wait()
        self._wait.flag = self

    def set(self):
        # From the simulated interrupt: the waiting task runs at the next turn of the loop.
        self.state = True
        w = self.waiter
        if w is not None:
            self.waiter = None
            _loop.wake_now(w)

    def clear(self):
        self.state = False

    def wait(self):
        STAMP[1] = clock()
        return self._wait


class Event(ThreadSafeFlag):
    def is_set(self):
        return self.state


class Loop:
    """Tasks by wake time; `hook(now_us)` runs before each step (the simulation: untimed)."""

    def __init__(self, clock):
        self.clock = clock      # clock() -> virtual microseconds; set_clock(us) moves it
        self.now = 0
        self.tasks = []
        self.seq = 0
        self.current = None
        self.on_step = None     # on_step(task, start_us, wait) after each step
        self.before = None      # before(now) -> the next time it must run, untimed
        self.sleepers = {}

    def set_exception_handler(self, handler):
        # The app hands a task's exception to its link through this; here an exception in a
        # task leaves run_until at once instead (a bench must stop loudly, not carry on).
        self.handler = handler

    def wake_now(self, task):
        task.waiting = None
        task.deadline = -1
        task.wake = self.now
        self.seq += 1
        task.seq = self.seq

    def create(self, coro):
        t = Task(coro, self)
        self.seq += 1
        t.seq = self.seq
        self.tasks.append(t)
        self.sleepers[id(t)] = _Sleep()
        return t

    def _next(self):
        best = None
        for t in self.tasks:
            if t.done:
                continue
            if t.waiting is not None:
                if t.deadline < 0:
                    continue
                t.wake = t.deadline  # runnable then, with a TimeoutError
            if best is None or (t.wake, t.seq) < (best.wake, best.seq):
                best = t
        return best

    def run_until(self, end_us, set_clock):
        while True:
            # (the simulation first: an edge or a timer it fires now wakes a task now, which
            # must be among those to choose from)
            due = self.before(self.now) if self.before else None
            t = self._next()
            if t is None and due is None:
                return
            at = t.wake if t is not None else end_us
            if due is not None and due < at:
                at = due
            if at > end_us:
                self.now = end_us
                set_clock(end_us)
                return
            if at > self.now:
                self.now = at
                set_clock(at)
            if t is None or t.wake > self.now:
                continue  # the simulation's turn first
            self.current = t
            start = self.now
            if t.waiting is not None:  # wait_for_ms ran out
                t.waiting.waiter = None
                t.waiting = None
                t.deadline = -1
                t.timed_out = True
            try:
                if t.cancelled:
                    t.coro.throw(CancelledError())
                    req = None
                elif t.timed_out:
                    t.timed_out = False
                    req = t.coro.throw(TimeoutError())
                else:
                    req = t.coro.send(None)
            except (StopIteration, CancelledError):
                t.done = True
                req = None
            self.current = None
            wait = None
            if isinstance(req, _Sleep):
                self.seq += 1
                t.seq = self.seq
                t.wake = self.now + req.us
            elif isinstance(req, _Wait):
                flag = req.flag
                if flag.state:
                    flag.state = False
                    t.wake = self.now
                    self.seq += 1
                    t.seq = self.seq
                else:
                    flag.waiter = t
                    t.waiting = flag
                    t.deadline = self.now + req.us if req.us >= 0 else -1
                    req.us = -1
                    wait = flag
            elif not t.done:
                raise RuntimeError("vasyncio: a task awaited something it cannot: " + repr(req))
            if self.on_step is not None:
                self.on_step(t, start, wait)


_loop = None


class _TaskQueue:
    # asyncio.core._task_queue as link.wake uses it: a sleeping task taken out and pushed back
    # to run now
    def remove(self, task):
        pass

    def push(self, task):
        _loop.wake_now(task)


class core:  # noqa: N801 - asyncio's module of that name
    _task_queue = _TaskQueue()


def current_task():
    return _loop.current


def _set_loop(loop):
    global _loop
    _loop = loop


def sleep_ms(ms):
    STAMP[1] = clock()
    s = _loop.sleepers[id(_loop.current)]
    s.us = (ms if ms > 0 else 0) * 1000
    return s


def sleep(s):
    return sleep_ms(int(s * 1000))


def wait_for_ms(aw, ms):
    # Only what the firmware waits on with a timeout: a flag.
    if not isinstance(aw, _Wait):
        raise RuntimeError("vasyncio: wait_for_ms on a flag's wait() only")
    aw.us = ms * 1000
    return aw


def create_task(coro):
    return _loop.create(coro)


def new_event_loop():
    return _loop


def get_event_loop():
    return _loop


def run(coro):
    raise RuntimeError("vasyncio: the bench drives the loop (Loop.run_until), not asyncio.run")


