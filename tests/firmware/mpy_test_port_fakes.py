# The fakes of the ESP32 port (fake_machine/) against the port's contract as its release's
# data (firmware/port/esp32-<release>.json, read here as it is committed): every argument the
# port takes is taken, every other refused with the port's exception and text, every constant,
# id, pin and range is the port's. And, pinned by hand so that neither the data nor the fakes
# can drift from them unseen: the refusals that stopped the tower on v1.28.0.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import json  # noqa: E402

import _port  # noqa: E402
import esp32  # noqa: E402 - the fake
import machine  # noqa: E402 - the fake

with open(_HERE + "/../../firmware/port/esp32-" + _port.RELEASE + ".json") as _f:
    C = json.load(_f)
ERR = C["arg_errors"]
CLASSES = C["machine"]["classes"]


def _raises(fn, kind, text=None, *args, **kw):
    """fn(*args, **kw) raises ``kind``, with ``text`` (an OSError: with these args)."""
    try:
        fn(*args, **kw)
    except kind as exc:
        got = str(exc) if kind is not OSError else exc.args
        assert text is None or got == text, (got, text)
        return exc
    raise AssertionError("no %s (%r)" % (kind.__name__, text))  # noqa: UP031


# How to make each class the port's way, with every argument it needs (keywords added).
def _pin(**kw):
    return machine.Pin(4, **kw)


def _uart(**kw):
    kw.setdefault("tx", 13)
    kw.setdefault("rx", 27)
    return machine.UART(1, **kw)


def _i2c(**kw):
    kw.setdefault("scl", 22)
    kw.setdefault("sda", 21)
    return machine.I2C(0, **kw)


def _timer(**kw):
    return machine.Timer(1, **kw)


def _wdt(**kw):
    return machine.WDT(**kw)


def _pwm(**kw):
    return machine.PWM(machine.Pin(4), **kw)


def _i2s(**kw):
    for k, v in (("sck", 14), ("ws", 15), ("sd", 32), ("mode", machine.I2S.RX), ("bits", 16),
                 ("format", machine.I2S.MONO), ("rate", 8000), ("ibuf", 4000)):
        kw.setdefault(k, v)
    return machine.I2S(0, **kw)


def _pcnt(**kw):
    return esp32.PCNT(0, **kw)


MAKERS = {"Pin": _pin, "UART": _uart, "I2C": _i2c, "Timer": _timer, "WDT": _wdt, "PWM": _pwm,
          "I2S": _i2s, "PCNT": _pcnt}
FAKES = {"Pin": machine.Pin, "UART": machine.UART, "I2C": machine.I2C, "Timer": machine.Timer,
         "WDT": machine.WDT, "PWM": machine.PWM, "I2S": machine.I2S, "PCNT": esp32.PCNT,
         "ULP": esp32.ULP}
# A value each argument accepts, where its default is none (not given, or the object's own)
SAMPLE = {"value": 1, "drive": 2, "hold": False, "parity": None, "rts": 18, "cts": 19,
          "pin": 25, "rising": 1, "falling": 0, "mode_pin": 26, "mode_low": 0, "mode_high": 2,
          "min": -100, "max": 100, "filter": 10, "threshold0": 5, "threshold1": -5, "scl": 22,
          "sda": 21, "invert": False, "lightsleep": False, "sck": 14, "ws": 15, "sd": 32,
          "callback": None, "freq": 1000}


def _spec(name):
    return CLASSES[name] if name in CLASSES else C["esp32"][name]


def _ctor_table(name):
    spec = _spec(name)
    return spec["methods"]["init"]["args"] if name == "Pin" else spec["make_new"]["args"]


def test_every_constant_is_the_ports():
    for name, fake in FAKES.items():
        for const, value in _spec(name)["constants"].items():
            assert getattr(fake, const) == value, (name, const, getattr(fake, const), value)
    for const, value in C["machine"]["reset_cause"].items():
        assert getattr(machine, const) == value, const


def test_every_keyword_the_port_takes_is_taken_and_any_other_refused_with_its_text():
    for name, make in MAKERS.items():
        machine.reset_state()
        for a in _ctor_table(name):
            if (name, a["name"]) == ("I2C", "id"):
                continue  # (_i2c gives it by position: as a keyword too, the port refuses it)
            default = a["default"]
            value = SAMPLE[a["name"]] if default in ("<absent>", "<current>", None) and \
                a["name"] in SAMPLE else default
            if default is None and a["name"] not in SAMPLE:
                value = None
            machine.reset_state()
            try:
                make(**{a["name"]: value})
            except TypeError as exc:
                raise AssertionError((name, a["name"], value, str(exc))) from None
            except ValueError:
                pass  # (taken: only its value refused, e.g. PCNT's mode_pin without a pin)
        machine.reset_state()
        _raises(make, TypeError, ERR["extra_keyword"], bogus=1)


def test_keyword_only_arguments_given_by_position_are_refused_with_the_ports_text():
    machine.reset_state()
    # (the constructors' tables after the id; Pin's init; Timer's are all keyword-only)
    for name, call in (("Pin", lambda n: machine.Pin(4, *([None] * n))),
                       ("UART", lambda n: machine.UART(1, *([0] * n), tx=13, rx=27)),
                       ("Timer", lambda n: machine.Timer(1, *([0] * n))),
                       ("PWM", lambda n: machine.PWM(machine.Pin(4), *([1000] * n)))):
        positional = sum(1 for a in _ctor_table(name) if not a["kw_only"])
        if name == "PWM":
            # (PWM(pin, freq): the port checks the count first, 2 at most)
            _raises(call, TypeError, ERR["at_most"] % (2, 3), positional + 1)
            continue
        _raises(call, TypeError, ERR["extra_positional"], positional + 1)


def test_a_missing_required_argument_is_refused_with_its_name():
    required = [a["name"] for a in _ctor_table("I2S") if a["required"]]
    assert required[0] == "sck"
    _raises(lambda: machine.I2S(0, ws=15), TypeError, ERR["required"].replace("%q", "sck"))
    _raises(lambda: machine.I2C(0, scl=22, sda=21).readfrom_mem_into(0x29), TypeError,
            ERR["required"].replace("%q", "memaddr"))


def test_an_integer_argument_refuses_a_float_with_the_ports_text():
    machine.reset_state()
    _raises(lambda: _uart(baudrate=9600.5), TypeError, ERR["int_conversion"] % "float")
    _raises(lambda: _timer(mode=machine.Timer.PERIODIC, period=1.5, callback=None), TypeError,
            ERR["int_conversion"] % "float")
    _timer(mode=machine.Timer.PERIODIC, freq=416.7, callback=None)  # an object: a float goes


def test_fixed_count_methods_refuse_more_arguments_with_the_ports_text():
    machine.reset_state()
    cases = (("Pin", _pin(mode=machine.Pin.OUT), ("value", "on", "off")),
             ("UART", _uart(), ("write", "txdone")),
             ("Pin", _pin(), ("toggle",)),
             ("I2C", _i2c(), ("writeto",)),
             ("PCNT", _pcnt(), ("value",)),
             ("PWM", _pwm(), ("freq", "duty_u16", "duty")),
             ("ULP", esp32.ULP(), ("set_wakeup_period", "load_binary", "run")))
    for name, obj, methods in cases:
        for method in methods:
            lo, hi = _spec(name)["methods"][method]["n_args"]
            extra = [1] * hi  # self plus hi: one too many
            want = ERR["exact"] % (lo, hi + 1) if lo == hi else ERR["at_most"] % (hi, hi + 1)
            _raises(getattr(obj, method), TypeError, want, *extra)
    lo, hi = CLASSES["Pin"]["call"]["n_args"]
    _raises(lambda: _pin()(1, 2), TypeError, ERR["at_most"] % (hi, 2))


def test_the_pins_are_the_esp32s_and_the_input_only_ones_refuse_output():
    rules = CLASSES["Pin"]["rules"]
    for gpio in range(-1, 41):
        machine.reset_state()
        if gpio in rules["valid"]:
            assert machine.Pin(gpio).id == gpio
            if gpio >= rules["input_only_from"]:
                _raises(machine.Pin, ValueError, rules["input_only_message"], gpio,
                        machine.Pin.OUT)
            elif gpio in rules["flash"]:
                _raises(machine.Pin, machine.ChipPanic, None, gpio, machine.Pin.IN)
            else:
                machine.Pin(gpio, machine.Pin.OUT, value=1)
        else:
            _raises(machine.Pin, ValueError, rules["invalid_message"], gpio)
    assert machine.Pin(25) is machine.Pin(25)  # one object a GPIO, as the port's table


def test_uart_ids_bits_stop_masks_and_buffers_are_the_ports():
    rules = CLASSES["UART"]["rules"]
    n = len(rules["ids"])
    machine.reset_state()
    _raises(lambda: machine.UART(n), ValueError, rules["id_message"] % n)
    for bits in range(0, 10):
        machine.reset_state()
        if bits in rules["bits"]:
            _uart(bits=bits)
        else:
            _raises(_uart, ValueError, rules["bits_message"], bits=bits)
    _raises(lambda: _uart(stop=3), ValueError, rules["stop_message"])
    _uart(invert=rules["invert_mask"])
    _raises(lambda: _uart(invert=rules["invert_mask"] + 1), ValueError, rules["invert_message"])
    _raises(lambda: _uart(flow=rules["flow_mask"] + 4), ValueError, rules["flow_message"])
    machine.reset_state()
    b = rules["buffers"]
    _raises(lambda: _uart(rxbuf=b["fifo"]), OSError, (b["errno"], b["name"]))
    machine.reset_state()
    _uart(txbuf=0)
    _raises(lambda: machine.UART(rules["repl_id"], txbuf=512), ValueError,
            rules["repl_buffer_message"])


def test_timer_wdt_i2c_ids_and_ranges_are_the_ports():
    t = CLASSES["Timer"]["rules"]
    machine.reset_state()
    for ident in t["ids"]:
        machine.Timer(ident)
    for ident in (-1, len(t["ids"])):
        _raises(machine.Timer, ValueError, t["id_message"], ident)
    w = CLASSES["WDT"]["rules"]
    _raises(lambda: machine.WDT(1), ValueError, w["id_message"])
    _raises(lambda: machine.WDT(timeout=0), ValueError, w["timeout_message"])
    i = CLASSES["I2C"]["rules"]
    _raises(lambda: machine.I2C(len(i["ids"])), ValueError, i["id_message"] % len(i["ids"]))
    bus = _i2c()
    _raises(lambda: bus.readfrom_mem_into(0x29, 0, bytearray(1), addrsize=12), ValueError,
            i["addrsize_message"])
    _raises(lambda: bus.readfrom_mem_into(0x29, 0, bytearray(1)), OSError,
            (i["no_device_errno"],))


def test_pcnt_units_and_every_range_are_the_ports():
    r = C["esp32"]["PCNT"]["rules"]
    machine.reset_state()
    _raises(lambda: esp32.PCNT(), TypeError, r["no_id_message"])
    _raises(lambda: esp32.PCNT(len(r["units"])), ValueError, r["id_message"])
    unit = esp32.PCNT(r["units"][-1])
    for name, rule in r["init"].items():
        if "below" in rule:
            unit.init(**{name: rule["below"] - 1})
            _raises(unit.init, ValueError, rule["message"], **{name: rule["below"]})
        else:
            unit.init(**{name: rule["min"]})
            unit.init(**{name: rule["max"]})
            _raises(unit.init, ValueError, rule["message"], **{name: rule["max"] + 1})
            _raises(unit.init, ValueError, rule["message"], **{name: rule["min"] - 1})
    _raises(lambda: unit.init(mode_pin=26), ValueError, r["pin_message"])
    _raises(lambda: unit.irq(lambda p: None, r["trigger"][1] + 1), ValueError,
            r["trigger_message"])
    _raises(lambda: unit.value(1), ValueError, r["value_message"])


def test_pwm_and_i2s_ranges_are_the_ports():
    p = CLASSES["PWM"]["rules"]
    machine.reset_state()
    _pwm(freq=p["freq"][1], duty_u16=p["duty_u16"][1])
    _raises(lambda: _pwm(freq=p["freq"][1] + 1), ValueError, p["freq_message"])
    _raises(lambda: _pwm(duty_u16=p["duty_u16"][1] + 1), ValueError, p["duty_u16_message"])
    _raises(lambda: _pwm(duty=p["duty"][1] + 1), ValueError, p["duty_message"])
    s = CLASSES["I2S"]["rules"]
    _raises(lambda: machine.I2S(len(s["ids"])), ValueError, s["id_message"])
    _raises(lambda: _i2s(mode=3), ValueError, s["mode_message"])
    _raises(lambda: _i2s(bits=24), ValueError, s["bits_message"])
    _raises(lambda: _i2s(format=2), ValueError, s["format_message"])
    _raises(lambda: _i2s().irq(1), ValueError, s["callback_message"])


def test_the_cpu_clock_takes_the_ports_values_only():
    f = C["machine"]["freq"]
    for mhz in f["mhz"]:
        machine.freq(mhz * f["divisor"])
        assert machine.freq() == mhz * f["divisor"]
    _raises(lambda: machine.freq(100000000), ValueError, f["message"])
    _raises(lambda: machine.freq(hz=80000000), TypeError, ERR["no_keywords"])


# ---- pinned by hand: what stopped the tower on v1.28.0 ----------------------------------------
def test_pin_irq_refuses_hard():
    machine.reset_state()
    pin = machine.Pin(25, machine.Pin.IN)
    _raises(lambda: pin.irq(lambda p: None, machine.Pin.IRQ_FALLING, hard=True), TypeError,
            "extra keyword arguments given")
    assert [a["name"] for a in CLASSES["Pin"]["methods"]["irq"]["args"]] == \
        ["handler", "trigger", "wake"]


def test_a_uart_pin_of_minus_1_is_an_invalid_pin():
    machine.reset_state()
    _raises(lambda: machine.UART(1, tx=13, rx=-1), ValueError, "invalid pin")


def test_uart_1_without_its_rx_takes_a_flash_pin_and_the_chip_stops():
    machine.reset_state()
    assert CLASSES["UART"]["rules"]["default_pins"]["1"] == {"rx": 9, "tx": 10}
    _raises(lambda: machine.UART(1, tx=13), machine.ChipPanic)


def test_timer_refuses_hard():
    machine.reset_state()
    _raises(lambda: machine.Timer(1).init(period=10, callback=None, hard=True), ValueError,
            "hard Timers are not implemented")


def test_the_scheduler_holds_8():
    assert C["scheduler"]["depth"] == 8 and _port.DEPTH == 8
