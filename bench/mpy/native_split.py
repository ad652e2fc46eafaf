# The split of a step's firmware time into native code and bytecode, for bench/mpy/cpu_worst.py
# in a split run (--emitters; bench/bench_cpu.py, bench/emitters.py). MICROPYPATH: bench/mpy.
#
# The ESP32 runs the firmware's native and viper functions at another ratio than its bytecode
# (the native R), so a split run measures each step's time in them apart. Every native function
# that bytecode calls is wrapped, and so is every bytecode function a native body reaches by
# name (its time goes back to bytecode); a call from native code to native code, or from
# bytecode to bytecode, goes straight through. What the wrappers cost (measured in a warm loop:
# costs()) is taken out of the step and, where it fell inside native code, out of the native
# part. A cold step pays more for them than that, so bench_cpu.py takes only each step's native
# share from a split run and the steps' times from plain runs.
import sys

import micropython

# the wrappers' costs, ns (costs()): native called from native, native called from bytecode (in
# the step; inside its timed part), bytecode from bytecode, bytecode from native (in the step;
# outside its timed part, in native code); bytes a switching call allocates (the clock's
# integers), native and bytecode
_NP, _NS, _NS_IN, _BP, _BS, _BS_OUT, _NS_ALLOC, _BS_ALLOC = range(8)
_C = [0] * 8
_NO = object()   # an argument not given
# bound by cpu_worst.py (bind): its step state, its profiler's holder, its gc, its clock
_EM = None
_PROF = None
_TimedGc = None
clock = None


def bind(em, prof, timed_gc, clock_fn):
    global _EM, _PROF, _TimedGc, clock
    _EM = em
    _PROF = prof
    _TimedGc = timed_gc
    clock = clock_fn


def fake_clock(clock_fn):
    """The leak test's clock; and no wrapper cost is taken out (its readings are no ns)."""
    global clock
    clock = clock_fn
    for i in range(len(_C)):
        _C[i] = 0


@micropython.native
def _args(fn, a, b, c, d, e, f, g):
    if a is _NO:
        return fn()
    if b is _NO:
        return fn(a)
    if c is _NO:
        return fn(a, b)
    if d is _NO:
        return fn(a, b, c)
    if e is _NO:
        return fn(a, b, c, d)
    if f is _NO:
        return fn(a, b, c, d, e)
    if g is _NO:
        return fn(a, b, c, d, e, f)
    return fn(a, b, c, d, e, f, g)


def _outside():
    # the time a step's figure leaves out: the board's, the firmware's own collections
    return _PROF[0].sim_ns + _TimedGc.ns


def _as_native(fn):
    # (native, positional arguments: no frame or tuple taken from the heap)
    @micropython.native
    def w(a=_NO, b=_NO, c=_NO, d=_NO, e=_NO, f=_NO, g=_NO):
        em = _EM
        if em[0]:
            em[1] -= _C[_NP]
            em[2] += _C[_NP]
            return _args(fn, a, b, c, d, e, f, g)
        em[0] = 1
        em[2] += _C[_NS]
        em[3] += _C[_NS_ALLOC]
        x0 = _outside()
        t0 = clock()
        try:
            return _args(fn, a, b, c, d, e, f, g)
        finally:
            em[1] += clock() - t0 - (_outside() - x0) - _C[_NS_IN]
            em[0] = 0

    return w


def _as_bytecode(fn):
    @micropython.native
    def w(a=_NO, b=_NO, c=_NO, d=_NO, e=_NO, f=_NO, g=_NO):
        em = _EM
        if not em[0]:
            em[2] += _C[_BP]
            return _args(fn, a, b, c, d, e, f, g)
        em[0] = 0
        em[1] -= _C[_BS_OUT]
        em[2] += _C[_BS]
        em[3] += _C[_BS_ALLOC]
        x0 = _outside()
        t0 = clock()
        try:
            return _args(fn, a, b, c, d, e, f, g)
        finally:
            em[1] -= clock() - t0 - (_outside() - x0)
            em[0] = 1

    return w


_CODE = ("function", "closure")  # (a closure: the escape test's counter around a function)


def setup(spec):
    """Wrap the native functions the spec names (bench/emitters.py) that bytecode calls, and
    the bytecode functions of the same modules that native bodies reach."""
    # (class or "", name): the firmware's names are unique enough. Only native functions that
    # bytecode calls get a wrapper: one that only native code calls runs inside its caller's
    # (and every wrapper costs the 128 KB heap about 170 bytes)
    entered = set(spec["entered"])
    native = {}  # -> wrapped (bytecode calls it) or not
    for _module, cls, name, _kind in spec["native"]:
        native[(cls, name)] = name in entered
    entered = None
    reached = set(spec["reached"])
    done = set()  # (a class or function imported by another module is wrapped once)
    for module in spec["modules"]:
        mod = sys.modules.get(module) or __import__(module, None, None, ["x"])
        for key in dir(mod):
            obj = getattr(mod, key)
            if id(obj) in done or key.startswith("__"):
                continue
            done.add(id(obj))
            if ("", key) in native:
                if native[("", key)]:
                    done.add(id(_set(mod, key, _as_native(obj))))
            elif key in reached and type(obj).__name__ in _CODE:
                done.add(id(_set(mod, key, _as_bytecode(obj))))
            elif isinstance(obj, type):
                _wrap_class(obj, native, reached)


def _set(owner, key, value):
    setattr(owner, key, value)
    return value


def _wrap_class(cls, native, reached):
    for k, v in list(cls.__dict__.items()):
        if (cls.__name__, k) in native:
            if native[(cls.__name__, k)]:
                setattr(cls, k, _as_native(v))
        elif k in reached and type(v).__name__ in _CODE:
            setattr(cls, k, _as_bytecode(v))
        # (A property native code reads runs in its emitter: a MicroPython property shows no
        # getter to wrap, and keeping the original under a new name makes a qstr, whose new
        # pool takes 16 KB of the 128 KB heap. The firmware's are one line each: STATUS's
        # three counters, 11 times in a throw.)


def costs(prof):
    """What the native and bytecode wrappers cost (into _C), each the least of 25 warm loops."""
    _PROF[0] = prof

    class Noop:
        def g(self, x):
            return x

    Noop.n = _as_native(Noop.g)
    Noop.b = _as_bytecode(Noop.g)
    o = Noop()
    em = _EM
    n = 2000
    for i in range(len(_C)):
        _C[i] = 0
    best = {}

    def keep(name, dt, inside):
        if name not in best or dt < best[name][0]:
            best[name] = (dt, inside)

    for _ in range(25):
        t0 = clock()
        for _ in range(n):
            pass
        keep("empty", clock() - t0, 0)
        t0 = clock()
        for _ in range(n):
            o.g(1)
        keep("bare", clock() - t0, 0)
        for name, now in (("ns", 0), ("np", 1), ("bs", 1), ("bp", 0)):
            em[0] = now
            em[1] = 0
            if name[0] == "n":
                t0 = clock()
                for _ in range(n):
                    o.n(1)
            else:
                t0 = clock()
                for _ in range(n):
                    o.b(1)
            keep(name, clock() - t0, em[1])
    em[0] = 0
    m0 = micropython.mem_total()
    for _ in range(100):
        o.n(1)
    ns_alloc = (micropython.mem_total() - m0) // 100
    em[0] = 1
    m0 = micropython.mem_total()
    for _ in range(100):
        o.b(1)
    bs_alloc = (micropython.mem_total() - m0) // 100
    em[0] = em[1] = em[2] = em[3] = 0
    bare = best["bare"][0]
    body = (bare - best["empty"][0]) / n   # the call itself, which the wrapped function is

    def leak(name):
        return max(0, round((best[name][0] - bare) / n))

    _C[_NP] = leak("np")
    _C[_NS] = leak("ns")
    _C[_NS_IN] = max(0, round(best["ns"][1] / n - body))
    _C[_BP] = leak("bp")
    _C[_BS] = leak("bs")
    _C[_BS_OUT] = max(0, round(_C[_BS] - (-best["bs"][1] / n - body)))
    _C[_NS_ALLOC] = ns_alloc
    _C[_BS_ALLOC] = bs_alloc
    return {"native_wrap_ns": _C[_NS], "native_wrap_inside_ns": _C[_NS_IN],
            "native_pass_ns": _C[_NP], "bytecode_wrap_ns": _C[_BS],
            "bytecode_wrap_outside_ns": _C[_BS_OUT], "bytecode_pass_ns": _C[_BP],
            "wrap_bytes": [ns_alloc, bs_alloc]}
