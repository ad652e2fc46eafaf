# What the fakes of `machine` and `esp32` share (tests only, on the MicroPython unix port): the
# ESP32 port's contract as its release's data (firmware/port/esp32-<release>.json, derived from
# MicroPython's own source: docs/esp32-port.md), the port's argument parser with its texts, and
# the port's scheduler as its interrupts meet it.
#
# Interrupts: on the ESP32 every pin and timer interrupt is soft. The ISR only queues the
# Python handler (mp_sched_schedule: a queue of MICROPY_SCHEDULER_DEPTH, 8; a full queue drops
# the call) and the VM runs one queued handler at each of its scheduling points: a jump in
# bytecode, a sleep. `schedule` here is that ISR's half: a queue of the port's depth, dropping
# when full. The running half is the unix port's own scheduler: one `micropython.schedule`d
# pump, which runs one handler and queues itself again while more wait, so a handler runs at
# the VM's real next scheduling point in the firmware under test, one a point, as on the board
# (the unix port's own queue holds 4, not 8: it only ever holds the pump). Viper and native code
# have no scheduling point, on either port.
#
# What is C on the port (a Pin's value, an I2C transfer, ticks_us, the fakes' whole "hardware")
# has no scheduling point either, but the fakes are bytecode: they hold `busy` up while they
# run, and the pump, finding it held, only queues itself again.
import gc
import json
import sys

import micropython

RELEASE = "v1.28.0"


def _load():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    path = here + "/../../../firmware/port/esp32-" + RELEASE + ".json"
    with open(path) as f:
        return json.load(f)


class _Absent:
    def __repr__(self):
        return "<absent>"


ABSENT = _Absent()  # MP_OBJ_NULL: the argument was not given (not the same as None)
_KEEP = "<current>"


def _args(table):
    # (name, kind, kw_only, required, default) a tuple each: the contract's dicts take a heap
    # the tests need for themselves (the whole file parsed is 130 KB on the unix port)
    return tuple((a["name"], a["kind"], a["kw_only"], a["required"],
                  ABSENT if a["default"] == "<absent>" else a["default"]) for a in table)


def _compact(spec):
    out = {"consts": spec.get("constants", {}), "rules": spec.get("rules", {}),
           "call": spec.get("call"), "n_args": {}, "args": {}}
    new = spec.get("make_new")
    if new:
        out["new"] = new["check"]
        out["args"][None] = _args(new["args"])
    for name, m in spec.get("methods", {}).items():
        out["n_args"][name] = tuple(m["n_args"])
        if "args" in m:
            out["args"][name] = _args(m["args"])
    return out


def _read():
    c = _load()
    m = c["machine"]
    classes = {name: _compact(spec) for name, spec in m["classes"].items()}
    for name, spec in c["esp32"].items():
        classes[name] = _compact(spec)
    machine = {"freq": m["freq"], "reset_cause": m["reset_cause"], "Counter": m["Counter"],
               "functions": {k: tuple(v["n_args"]) for k, v in m["functions"].items()}}
    return c["release"], c["arg_errors"], c["scheduler"], machine, classes


CONTRACT_RELEASE, ERR, SCHED, MACHINE, CLASSES = _read()
gc.collect()


def rules(cls):
    return CLASSES[cls]["rules"]


def table(cls, method=None):
    """The argument table of a class's constructor (method None) or method."""
    return CLASSES[cls]["args"][method]


def constants(cls):
    return CLASSES[cls]["consts"]


# ---- the port's argument parser (py/argcheck.c) ----------------------------------------------
def check_num(n_args, n_kw, lo, hi, takes_kw):
    """mp_arg_check_num: counts without self for a constructor, with self for a method."""
    if n_kw and not takes_kw:
        raise TypeError(ERR["no_keywords"])
    if lo == hi:
        if n_args != lo:
            raise TypeError(ERR["exact"] % (lo, n_args))
    elif n_args < lo:
        raise TypeError(ERR["missing"] % (lo - n_args))
    elif hi is not None and n_args > hi:
        raise TypeError(ERR["at_most"] % (hi, n_args))


def method_args(cls, method, n_args):
    """A fixed-count method's counts (self included), as MP_DEFINE_CONST_FUN_OBJ_n checks them.
    (Such a method takes no keyword: the fakes' ones take none either, so a keyword gets the
    unix port's own TypeError - the one text that differs; their heap stays untouched.)"""
    lo, hi = CLASSES[cls]["n_args"][method]
    check_num(n_args, 0, lo, hi, False)


def get_int(v):
    """mp_obj_get_int: an int or a bool, else TypeError("can't convert <type> to int")."""
    if isinstance(v, int):
        return int(v)
    raise TypeError(ERR["int_conversion"] % type(v).__name__)


def parse(spec, pos, kw):
    """mp_arg_parse_all: the values of ``spec``'s arguments, in its order; ABSENT for an
    object argument not given whose default is MP_OBJ_NULL."""
    out = []
    n = len(pos)
    pos_found = 0
    kws_found = 0
    for i in range(len(spec)):
        name, kind, kw_only, required, default = spec[i]
        if i < n:
            if kw_only:
                raise TypeError(ERR["extra_positional"])
            pos_found += 1
            v = pos[i]
        elif name in kw:
            kws_found += 1
            v = kw[name]
        else:
            if required:
                raise TypeError(ERR["required"].replace("%q", name))
            out.append(default)
            continue
        if kind == "int":
            v = get_int(v)
        elif kind == "bool":
            v = bool(v)
        out.append(v)
    if pos_found < n:
        raise TypeError(ERR["extra_positional"])
    if kws_found < len(kw):
        raise TypeError(ERR["extra_keyword"])
    return out


def bind_py(spec, pos, kw):
    """A function written in Python on the port (ports/esp32/modules/machine.py), bound as
    py/bc.c does at the port's error level: {name: value} for its named parameters, plus the
    extra positionals and keywords it takes as *args and **kwargs."""
    params = spec["positional"]
    out = {}
    extra = ()
    if len(pos) > len(params):
        if not spec["varargs"]:
            raise TypeError(ERR["py_positional"] % (len(params), len(pos)))
        extra = tuple(pos[len(params):])
    for i in range(min(len(pos), len(params))):
        out[params[i]["name"]] = pos[i]
    rest = {}
    for name, v in kw.items():
        known = [p for p in params if p["name"] == name] or \
            [p for p in spec["kw_only"] if p["name"] == name]
        if known:
            out[name] = v
        elif spec["varkw"]:
            rest[name] = v
        else:
            raise TypeError(ERR["py_unexpected_keyword"].replace("%q", name))
    for i in range(len(params)):
        p = params[i]
        if p["name"] not in out:
            if p["required"]:
                raise TypeError(ERR["py_missing"] % (len(params) - i))
            out[p["name"]] = p["default"]
    for p in spec["kw_only"]:
        out.setdefault(p["name"], p["default"])
    return out, extra, rest


# ---- the port's scheduler --------------------------------------------------------------------
DEPTH = SCHED["depth"]
_fn = [None] * DEPTH
_arg = [None] * DEPTH
_head = 0
_len = 0
_pending = False
busy = 0      # > 0: inside what is C on the port (no scheduling point)
dropped = 0   # calls a full queue dropped (the port says nothing)
ran = 0       # handlers run


def schedule(fn, arg):
    """mp_sched_schedule as a port's ISR calls it: queued, or False (dropped) when full."""
    global _len, _pending, dropped
    if _len == DEPTH:
        dropped += 1
        return False
    i = (_head + _len) % DEPTH
    _fn[i] = fn
    _arg[i] = arg
    _len += 1
    if not _pending:
        _pending = True
        _wake()
    return True


def _wake():
    global _pending
    try:
        micropython.schedule(_pump, None)
    except RuntimeError:
        _pending = False  # (the unix port's queue is full: the next ISR tries again)


def _pump(_):
    global _head, _len, _pending, ran
    if not _len:
        _pending = False
        return
    if busy:
        _wake()  # C code has no scheduling point: at the next one after it
        return
    i = _head
    fn = _fn[i]
    arg = _arg[i]
    _fn[i] = None
    _arg[i] = None
    _head = (i + 1) % DEPTH
    _len -= 1
    if _len:
        _wake()
    else:
        _pending = False
    ran += 1
    try:
        fn(arg)
    except Exception as exc:  # noqa: BLE001 - as mp_call_function_1_protected: print, go on
        sys.print_exception(exc)


def waiting():
    return _len


def run_pending(limit=1000):
    """Scheduling points (a loop's jumps) until nothing waits: what the VM reaches anyway in
    the firmware's own bytecode; for a test that has just made an edge."""
    n = 0
    while _len and n < limit:
        n += 1


def reset():
    global _head, _len, _pending, busy, dropped, ran
    for i in range(DEPTH):
        _fn[i] = None
        _arg[i] = None
    _head = _len = 0
    busy = dropped = ran = 0
    # (a pump already queued finds nothing and stops)
    _pending = False
