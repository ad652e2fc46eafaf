"""Derive what the ESP32 port of a MicroPython release accepts, as data, from its own source.

    python firmware/port/derive_contract.py --git-dir MIRROR.git --tag v1.28.0
    python firmware/port/derive_contract.py --checkout ~/src/micropython --release v1.28.0

writes firmware/port/esp32-<release>.json (``--out`` for another file, ``--check`` to compare
with the committed one). The test fakes (tests/firmware/fake_machine) read that file: their
keywords, ranges, pin numbers, constants and refusals are the port's, not anyone's memory of it.

What comes out and from where: the argument tables (``allowed_args``: each argument's name,
MP_ARG_INT/OBJ/BOOL, REQUIRED, KW_ONLY and default), argument counts (``mp_arg_check_num`` and
the ``MP_DEFINE_CONST_FUN_OBJ_*`` of each method), the class constants of each type's locals
dict, the texts the arg parser itself raises (py/argcheck.c), and the checks that raise with a
text of their own. Only data is kept, never MicroPython's code.

Two things cannot come from the MicroPython checkout alone, and are written here by hand:
- RULES: a check whose condition is C logic (a range, a set of values, a pin table). Each rule
  names its file and function and carries an anchor: a pattern that must match that function's
  source at the release read, and whose groups give the rule's numbers and message. A newer
  release that changed the code no longer matches: the script says which rule to look at again
  and exits 1 (the data is written with the rule under "flags" for the record).
- IDF: values of ESP-IDF enums and SoC capabilities (pin modes, UART inversion bits, PCNT
  events, unit counts), which live in ESP-IDF, not in MicroPython. They were read in ESP-IDF's
  own headers (named at each entry) for the version that ports/esp32/README.md recommends at
  the release; the script flags a release that recommends another version.

Target: the ESP32 (not S2/S3/C3/C6), ESP32_GENERIC without SPIRAM, as `make flash` writes it.
"""

from __future__ import annotations

import argparse
import ast
import json
import pathlib
import re
import subprocess
import sys
import warnings

HERE = pathlib.Path(__file__).resolve().parent

# ---- the target -------------------------------------------------------------------------------
# The preprocessor settings of an ESP32_GENERIC build (no SPIRAM) that decide what the parsed
# tables hold; any other macro in a condition counts as 0 (undefined).
CONFIG = {
    "CONFIG_IDF_TARGET_ESP32": 1,
    "CONFIG_SPIRAM": 0,
    "MICROPY_PY_BUILTINS_FLOAT": 1,       # ports/esp32/mpconfigport.h: MICROPY_FLOAT_IMPL_FLOAT
    "MICROPY_ERROR_REPORTING_NONE": 0,
    "MICROPY_ERROR_REPORTING_TERSE": 1,
    "MICROPY_ERROR_REPORTING_NORMAL": 2,
    "MICROPY_ERROR_REPORTING_DETAILED": 3,
    "MICROPY_PY_MACHINE_I2S_MCK": 0,      # extmod default; no ESP32 board turns it on
    "true": 1, "false": 0,
}
IDF_CHECKED = "v5.5.1"  # the ESP-IDF the IDF table below was read in

# ESP-IDF's values (hal/gpio_types.h, hal/uart_types.h, driver/uart.h, hal/pcnt_types.h,
# driver/deprecated/driver/pcnt_types_legacy.h, hal/i2s_types.h, soc/esp32/include/soc/
# soc_caps.h). Names as the C source uses them.
IDF = {
    # hal/gpio_types.h (CONFIG_IDF_TARGET_ESP32)
    "GPIO_MODE_DEF_INPUT": 1, "GPIO_MODE_DEF_OUTPUT": 2, "GPIO_MODE_DEF_OD": 4,
    "GPIO_MODE_INPUT": 1, "GPIO_MODE_INPUT_OUTPUT": 3, "GPIO_MODE_INPUT_OUTPUT_OD": 7,
    "GPIO_INTR_POSEDGE": 1, "GPIO_INTR_NEGEDGE": 2, "GPIO_INTR_LOW_LEVEL": 4,
    "GPIO_INTR_HIGH_LEVEL": 5,
    "GPIO_DRIVE_CAP_0": 0, "GPIO_DRIVE_CAP_1": 1, "GPIO_DRIVE_CAP_2": 2, "GPIO_DRIVE_CAP_3": 3,
    "GPIO_DRIVE_CAP_MAX": 4,
    "GPIO_NUM_MAX": 40,  # gpio_num_t for the ESP32: GPIO 0-39
    "GPIO_NUM_18": 18, "GPIO_NUM_19": 19, "GPIO_NUM_25": 25, "GPIO_NUM_26": 26,
    # hal/uart_types.h
    "UART_SIGNAL_RXD_INV": 1 << 2, "UART_SIGNAL_CTS_INV": 1 << 3, "UART_SIGNAL_TXD_INV": 1 << 5,
    "UART_SIGNAL_RTS_INV": 1 << 6,
    "UART_HW_FLOWCTRL_RTS": 1, "UART_HW_FLOWCTRL_CTS": 2, "UART_HW_FLOWCTRL_CTS_RTS": 3,
    "UART_NUM_0": 0, "UART_NUM_1": 1, "UART_NUM_2": 2,
    # driver/uart.h: uart_event_type_t
    "UART_DATA": 0, "UART_BREAK": 1,
    # hal/pcnt_types.h through driver/deprecated/driver/pcnt_types_legacy.h
    "PCNT_COUNT_DIS": 0, "PCNT_COUNT_INC": 1, "PCNT_COUNT_DEC": 2, "PCNT_COUNT_MAX": 3,
    "PCNT_MODE_KEEP": 0, "PCNT_MODE_REVERSE": 1, "PCNT_MODE_DISABLE": 2, "PCNT_MODE_MAX": 3,
    "PCNT_EVT_THRES_1": 1 << 2, "PCNT_EVT_THRES_0": 1 << 3, "PCNT_EVT_L_LIM": 1 << 4,
    "PCNT_EVT_H_LIM": 1 << 5, "PCNT_EVT_ZERO": 1 << 6,
    "PCNT_UNIT_MAX": 8, "PCNT_CHANNEL_MAX": 2,
    # hal/i2s_types.h
    "I2S_DIR_RX": 1, "I2S_DIR_TX": 2,
    "I2S_DATA_BIT_WIDTH_16BIT": 16, "I2S_DATA_BIT_WIDTH_32BIT": 32,
    # soc/esp32/include/soc/soc_caps.h
    "SOC_UART_NUM": 3, "UART_NUM_MAX": 3, "SOC_UART_HP_NUM": 3, "SOC_UART_LP_NUM": 0,
    "SOC_UART_FIFO_LEN": 128, "SOC_UART_BITRATE_MAX": 5000000,
    "I2C_NUM_0": 0, "I2C_NUM_MAX": 2,
    "SOC_TIMER_GROUP_TOTAL_TIMERS": 4, "SOC_TIMER_GROUP_TIMERS_PER_GROUP": 2,
    "SOC_I2S_NUM": 2, "I2S_NUM_AUTO": 2,
    "SOC_TOUCH_SENSOR_SUPPORTED": 1, "SOC_PM_SUPPORT_EXT0_WAKEUP": 1,
    "SOC_PCNT_SUPPORTED": 1, "SOC_I2S_SUPPORTED": 1, "SOC_ULP_SUPPORTED": 1,
}
# ESP-IDF checks that MicroPython passes on as an OSError (check_esp_err: the negated
# esp_err_t and its name). components/esp_driver_uart/src/uart.c uart_driver_install:
# "uart rx buffer length error" unless rx_buffer_size > UART_HW_FIFO_LEN, "uart tx buffer length
# error" unless tx_buffer_size > UART_HW_FIFO_LEN or 0; both return ESP_FAIL (-1).
IDF_UART_BUFFERS = {"fifo": 128, "errno": 1, "name": "ESP_FAIL"}


class Flagged(Exception):
    pass


# ---- reading the source -----------------------------------------------------------------------
class Source:
    def __init__(self, checkout: pathlib.Path | None = None, git_dir: pathlib.Path | None = None,
                 tag: str | None = None):
        self.checkout, self.git_dir, self.tag = checkout, git_dir, tag

    def read(self, path: str) -> str:
        if self.git_dir is not None:
            return subprocess.run(["git", "--git-dir", str(self.git_dir), "show",
                                   f"{self.tag}:{path}"], check=True, capture_output=True,
                                  text=True).stdout
        return (self.checkout / path).read_text()

    def commit(self) -> str | None:
        cmd = ["git", "rev-parse", f"{self.tag}^{{commit}}"] if self.git_dir else \
            ["git", "-C", str(self.checkout), "rev-parse", "HEAD"]
        if self.git_dir:
            cmd[1:1] = ["--git-dir", str(self.git_dir)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        return proc.stdout.strip() or None


def _strip_comments(text: str) -> str:
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append("\n" * text.count("\n", i, j))
            i = j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _c_value(expr: str, names: dict, depth: int = 0, undefined: int | None = None) -> int | None:
    """An integer C expression over known names (ESP-IDF, the target, the unit's own
    #defines and enums); None when a name is unknown, unless ``undefined`` stands for it (0 in
    a preprocessor condition, as C has it)."""
    e = expr.strip()
    e = re.sub(r"\bESP_IDF_VERSION_VAL\s*\((\d+)\s*,\s*(\d+)\s*,\s*(\d+)\)",
               lambda m: str((int(m[1]) << 16) | (int(m[2]) << 8) | int(m[3])), e)
    e = re.sub(r"\bBIT\s*\((\d+)\)", r"(1 << \1)", e)
    e = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", e)
    e = re.sub(r"\(\s*(?:u?int\d+_t|mp_u?int_t|gpio_num_t)\s*\)", "", e)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    unknown = []

    def name(m: re.Match) -> str:
        word = m[0]
        if word in ("and", "or", "not"):
            return word
        value = names.get(word)
        if isinstance(value, str) and depth < 8:
            value = _c_value(value, names, depth + 1, undefined)
        if isinstance(value, int):
            return str(value)
        if undefined is None:
            unknown.append(word)
        return str(undefined or 0)

    e = re.sub(r"\bdefined\s*\(?\s*(\w+)\s*\)?", lambda m: "1" if m[1] in names else "0", e)
    e = re.sub(r"\b[A-Za-z_]\w*\b", name, e)
    if unknown or not e.strip():
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = eval(e, {"__builtins__": {}})  # noqa: S307 - integers and operators only
    except Exception:  # noqa: BLE001 - not an integer expression
        return None
    return int(value)


def preprocess(text: str, names: dict) -> str:
    """The lines an ESP32_GENERIC build compiles (#if/#ifdef/#elif/#else/#endif evaluated with
    ``names``; an unknown macro is 0); #define lines add to ``names`` when integer."""
    out = []
    stack = []  # (this branch taken, some branch taken, parent active)
    active = True
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        while line.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line.rstrip()[:-1] + "\n" + lines[i]
        i += 1
        s = line.strip()
        m = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif|define)\b(.*)", s, re.S)
        if not m:
            out.append(line if active else "")
            continue
        kind, rest = m[1], m[2].strip()
        if kind in ("if", "ifdef", "ifndef"):
            if kind == "ifdef":
                cond = rest.split()[0] in names
            elif kind == "ifndef":
                cond = rest.split()[0] not in names
            else:
                cond = bool(_c_value(rest, names, undefined=0))
            stack.append((cond, cond, active))
            active = active and cond
        elif kind == "elif":
            _taken, some, parent = stack.pop()
            cond = not some and bool(_c_value(rest, names, undefined=0))
            stack.append((cond, some or cond, parent))
            active = parent and cond
        elif kind == "else":
            _taken, some, parent = stack.pop()
            stack.append((not some, True, parent))
            active = parent and not some
        elif kind == "endif":
            _t, _s, active = stack.pop()
        elif kind == "define" and active:
            dm = re.match(r"(\w+)(\([^)]*\))?\s*(.*)", rest, re.S)
            if dm and not dm[2]:
                value = _c_value(dm[3], names) if dm[3] else 1
                names[dm[1]] = value if value is not None else dm[3]
        out.append("")  # (a directive is no code; the line count stays)
    return "\n".join(out)


_BASE: dict = {}


def base_names(src: Source) -> dict:
    """The macros every unit of the port sees: the target, ESP-IDF's values, the port's
    configuration (ports/esp32/mpconfigport.h, the board's) and py/mpconfig.h's defaults."""
    key = id(src)
    if key not in _BASE:
        names = dict(IDF, **CONFIG)
        for path in ("ports/esp32/boards/ESP32_GENERIC/mpconfigboard.h",
                     "ports/esp32/mpconfigport.h", "py/mpconfig.h"):
            preprocess(_strip_comments(src.read(path)), names)
        _BASE[key] = names
    return dict(_BASE[key])


class Unit:
    """One translation unit as the build compiles it: the files given, concatenated (a port
    file included into an extmod one), comments gone, conditions evaluated."""

    def __init__(self, src: Source, *paths: str, names: dict | None = None):
        self.paths = paths
        self.names = dict(base_names(src), **(names or {}))
        self.text = "\n".join(preprocess(_strip_comments(src.read(p)), self.names)
                              for p in paths)
        # bool MICROPY_WRAP_MP_SCHED_SCHEDULE(mp_sched_schedule)(...): the function's own name
        self.text = re.sub(r"\bMICROPY_WRAP_\w+\((\w+)\)", r"\1", self.text)
        for enum in re.finditer(r"enum\s*\w*\s*\{([^}]*)\}", self.text):
            value = -1
            for item in enum[1].split(","):
                item = item.strip()
                if not re.match(r"[A-Za-z_]\w*", item):
                    continue
                name, _, expr = item.partition("=")
                got = _c_value(expr, self.names) if expr else value + 1
                if got is None:
                    break
                value = got
                self.names.setdefault(name.strip(), value)
        self.functions = {}
        for m in re.finditer(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(([^;{)]*(?:\([^)]*\)[^;{)]*)*)\)"
                             r"\s*\{", self.text, re.M):
            name = m[1]
            if name in ("if", "for", "while", "switch"):
                continue
            depth, j = 0, m.end() - 1
            while j < len(self.text):
                depth += {"{": 1, "}": -1}.get(self.text[j], 0)
                j += 1
                if depth == 0:
                    break
            self.functions.setdefault(name, self.text[m.end():j - 1])

    def where(self) -> str:
        return " + ".join(self.paths)

    def body(self, function: str) -> str:
        if function not in self.functions:
            raise Flagged(f"no function {function} in {self.where()}")
        return self.functions[function]

    def value(self, expr: str):
        v = _c_value(expr, self.names)
        return v if v is not None else expr.strip()


# ---- argument tables and counts ---------------------------------------------------------------
_ABSENT = "<absent>"   # MP_OBJ_NULL: the argument was not given (the port tells it from None)
_KEEP = "<current>"    # a default that is the object's own current setting


def _default(kind: str, expr: str, unit: Unit):
    e = expr.strip()
    if e in ("MP_OBJ_NULL",):
        return _ABSENT
    if e in ("mp_const_none", "MP_ROM_NONE"):
        return None
    if e in ("true", "false"):
        return e == "true"
    if e.startswith("self->"):
        return _KEEP
    m = re.fullmatch(r"MP_OBJ_NEW_SMALL_INT\((.*)\)", e)
    if m:
        e = m[1]
    v = unit.value(e)
    if isinstance(v, int) and kind == "int" and v >= 1 << 31:
        v -= 1 << 32  # an mp_int_t default given as an unsigned literal (0xffffffff)
    return v


def arg_table(unit: Unit, text: str) -> list[dict]:
    m = re.search(r"mp_arg_t\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        return []
    args = []
    for e in re.finditer(r"\{\s*MP_QSTR_(\w+)\s*,\s*([^,]+?)\s*,\s*\{\s*\.u_(\w+)\s*=\s*(.*?)\s*\}"
                         r"\s*\}", m[1], re.S):
        flags = e[2]
        kind = re.search(r"MP_ARG_(INT|OBJ|BOOL)", flags)[1].lower()
        args.append({"name": e[1], "kind": kind, "kw_only": "MP_ARG_KW_ONLY" in flags,
                     "required": "MP_ARG_REQUIRED" in flags,
                     "default": _default(kind, e[4], unit)})
    return args


def _global_table(unit: Unit, name: str) -> list[dict]:
    m = re.search(rf"mp_arg_t\s+{name}\s*\[\s*\]\s*=\s*\{{.*?\}};", unit.text, re.S)
    return arg_table(unit, m[0]) if m else []


def function_args(unit: Unit, function: str, seen: frozenset = frozenset()) -> list[dict]:
    """The argument table a function parses: its own, a shared one it names, or that of the
    helper of this unit it hands its arguments to (an init helper)."""
    body = unit.body(function)
    own = arg_table(unit, body)
    if own:
        return own
    shared = re.search(r"\b(\w+_allowed_args|mp_irq_init_args)\b", body)
    if shared:
        return _global_table(unit, shared[1])
    for call in re.finditer(r"\b(\w+)\s*\(", body):
        callee = call[1]
        if callee in unit.functions and callee not in seen and callee != function:
            got = function_args(unit, callee, seen | {function})
            if got:
                return got
    return []


def check_num(unit: Unit, function: str):
    m = re.search(r"mp_arg_check_num\(\s*\w+\s*,\s*\w+\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*(true|false)"
                  r"\s*\)", unit.body(function))
    if not m:
        return None
    top = None if m[2] == "MP_OBJ_FUN_ARGS_MAX" else int(unit.value(m[2]))
    return {"n_args": [int(unit.value(m[1])), top], "kw": m[3] == "true"}


_FUN = re.compile(r"MP_DEFINE_CONST_FUN_OBJ_(\d|VAR_BETWEEN|VAR|KW)\(\s*(\w+)\s*,\s*([^)]*)\)")


def fun_objects(*units: Unit) -> dict:
    out = {}
    for unit in units:
        for m in _FUN.finditer(unit.text):
            kind, obj, rest = m[1], m[2], [x.strip() for x in m[3].split(",")]
            if kind.isdigit():
                spec = {"n_args": [int(kind), int(kind)], "kw": False, "fn": rest[0]}
            elif kind == "VAR":
                spec = {"n_args": [int(unit.value(rest[0])), None], "kw": False, "fn": rest[1]}
            elif kind == "VAR_BETWEEN":
                spec = {"n_args": [int(unit.value(rest[0])), int(unit.value(rest[1]))],
                        "kw": False, "fn": rest[2]}
            else:
                spec = {"n_args": [int(unit.value(rest[0])), None], "kw": True, "fn": rest[1]}
            spec["unit"] = unit
            out[obj] = spec
    return out


def raises(unit: Unit, function: str, seen: frozenset = frozenset()) -> list[dict]:
    """The exceptions with a text that a function (and the helpers of its unit it calls)
    raises, in source order."""
    body = unit.body(function)
    out = []
    for m in re.finditer(r"mp_raise_(ValueError|TypeError|OSError)\(\s*(?:MP_ERROR_TEXT\(\s*"
                         r"\"((?:[^\"\\]|\\.)*)\"\s*\)|NULL)|mp_raise_msg(?:_varg)?\(\s*&mp_type_"
                         r"(\w+)\s*,\s*MP_ERROR_TEXT\(\s*\"((?:[^\"\\]|\\.)*)\"", body):
        kind = m[1] or m[3]
        text = m[2] if m[1] else m[4]
        item = {"type": kind, "message": text or ""}
        if item not in out:
            out.append(item)
    for call in re.finditer(r"\b(\w+)\s*\(", body):
        callee = call[1]
        if callee in unit.functions and callee not in seen and callee != function:
            for item in raises(unit, callee, seen | {function}):
                if item not in out:
                    out.append(item)
    return out


def locals_table(unit: Unit, dict_name: str) -> list[tuple[str, str, str]]:
    d = re.search(rf"MP_DEFINE_CONST_DICT\(\s*{dict_name}\s*,\s*(\w+)\s*\)", unit.text)
    table = d[1] if d else f"{dict_name}_table"
    m = re.search(rf"mp_rom_map_elem_t\s+{table}\s*\[\s*\]\s*=\s*\{{(.*?)\n\}};",
                  unit.text, re.S)
    if not m:
        raise Flagged(f"no locals dict {dict_name} in {unit.where()}")
    body = m[1]
    # class-constant macros spliced into the table (MICROPY_PY_MACHINE_UART_CLASS_CONSTANTS)
    for macro in re.findall(r"^\s*([A-Z_][A-Z0-9_]+)\s*$", body, re.M):
        d = re.search(rf"#\s*define\s+{macro}\b(.*?)(?:\n(?!.*\\\s*$)|$)", unit.text, re.S)
        expansion = unit.names.get(macro)
        body += "\n" + (expansion if isinstance(expansion, str) else (d[1] if d else ""))
    return re.findall(r"\{\s*MP_ROM_QSTR\(MP_QSTR_(\w+)\)\s*,\s*MP_ROM_(PTR|INT)\((.*?)\)\s*\}",
                      body, re.S)


def a_type(unit: Unit, type_name: str) -> dict:
    m = re.search(rf"MP_DEFINE_CONST_OBJ_TYPE\(\s*{type_name}\s*,(.*?)\);", unit.text, re.S)
    if not m:
        raise Flagged(f"no type {type_name} in {unit.where()}")
    parts = [p.strip() for p in m[1].split(",")]
    slots = dict(zip(parts[2::2], parts[3::2], strict=False))
    return {"name": parts[0].removeprefix("MP_QSTR_"), "slots": slots}


def describe_class(type_name: str, unit: Unit, *more: Unit) -> dict:
    """A class as the port defines it: its constructor's counts and arguments, each method's
    counts and arguments, its constants, and the texts each raises."""
    t = a_type(unit, type_name)
    funs = fun_objects(unit, *more)
    out = {"methods": {}, "constants": {}}
    call = t["slots"].get("call")
    if call and call in unit.functions:
        out["call"] = check_num(unit, call)  # calling an instance (Pin's value)
    make_new = t["slots"].get("make_new")
    if make_new:
        out["make_new"] = {"check": check_num(unit, make_new),
                           "args": function_args(unit, make_new),
                           "raises": raises(unit, make_new)}
    dict_name = t["slots"]["locals_dict"].lstrip("&")
    table = None
    for u in (unit, *more):
        try:
            table = locals_table(u, dict_name)
            break
        except Flagged:
            continue
    if table is None:
        raise Flagged(f"no locals dict {dict_name} in {unit.where()}")
    for name, kind, value in table:
        if kind == "INT":
            out["constants"][name] = unit.value(value)
            continue
        obj = value.lstrip("&")
        if name.startswith("__") or obj not in funs:
            continue
        spec = funs[obj]
        fn_unit = spec["unit"]
        method = {"n_args": spec["n_args"], "kw": spec["kw"]}
        if spec["fn"] in fn_unit.functions:
            if spec["kw"]:
                method["args"] = function_args(fn_unit, spec["fn"])
            method["raises"] = raises(fn_unit, spec["fn"])
        out["methods"][name] = method
    return out


# ---- the rules written by hand, each anchored in the source ----------------------------------
def anchor(unit: Unit, function: str, pattern: str, rule: str) -> re.Match:
    m = re.search(pattern, unit.body(function), re.S)
    if not m:
        raise Flagged(f"{rule}: {unit.where()} {function}() no longer reads as this rule "
                      f"expects; read it again and update the rule in "
                      f"{pathlib.Path(__file__).name}")
    return m


def _msg(m: re.Match, group: str = "msg") -> str:
    return m[group]


_RAISE_VE = r"mp_raise_ValueError\(MP_ERROR_TEXT\(\"(?P<msg>[^\"]*)\"\)\)"


def pin_rules(src: Source) -> dict:
    # ports/esp32/machine_pin.h: the pins of the ESP32's table (MICROPY_HW_ENABLE_GPIOn, with
    # CONFIG_SPIRAM's exceptions); ports/esp32/machine_pin.c machine_pin_find: any other number
    # is "invalid pin"; machine_pin_obj_init_helper: an output mode on GPIO_FIRST_NON_OUTPUT and
    # above is "pin can only be input".
    header = Unit(src, "ports/esp32/machine_pin.h")
    valid = sorted(int(n) for n, v in header.names.items()
                   for n in [n.removeprefix("MICROPY_HW_ENABLE_GPIO")]
                   if n.isdigit() and v == 1)
    if not valid:
        raise Flagged("pins: no MICROPY_HW_ENABLE_GPIOn in ports/esp32/machine_pin.h")
    unit = Unit(src, "ports/esp32/machine_pin.c")
    m = anchor(unit, "machine_pin_find", r"0 <= wanted_pin && wanted_pin < MP_ARRAY_SIZE\("
               r"machine_pin_obj_table\).*?" + _RAISE_VE, "pins")
    first = unit.names.get("GPIO_FIRST_NON_OUTPUT")
    io = anchor(unit, "machine_pin_obj_init_helper", r"index >= GPIO_FIRST_NON_OUTPUT && "
                r"\(pin_io_mode & GPIO_MODE_DEF_OUTPUT\)\)\s*\{\s*" + _RAISE_VE, "input-only")
    wake = anchor(unit, "machine_pin_irq", r"wake < (?P<lo>\d+) \|\| wake > (?P<hi>\d+)\)\s*\{\s*"
                  + _RAISE_VE, "wake")
    soft = anchor(unit, "machine_pin_isr_handler", r"mp_sched_schedule\(handler", "pin irq")
    return {
        "valid": valid, "invalid_message": _msg(m),
        "input_only_from": first, "input_only_message": _msg(io),
        "output_mode_bit": IDF["GPIO_MODE_DEF_OUTPUT"],
        "wake": [int(wake["lo"]), int(wake["hi"])], "wake_message": _msg(wake),
        "irq": "scheduled" if soft else "hard",
        # Not refused by the port, but wired to the module's SPI flash on an ESP32-WROOM-32
        # (ESP32 datasheet, "Pin Description"): taking one stops the chip.
        "flash": [6, 7, 8, 9, 10, 11],
    }


def uart_rules(src: Source, unit: Unit) -> dict:
    ids = anchor(unit, "mp_machine_uart_make_new", r"uart_num < 0 \|\| uart_num >= (?P<n>\w+)\)"
                 r"\s*\{\s*mp_raise_msg_varg\(&mp_type_ValueError, MP_ERROR_TEXT\(\"(?P<msg>"
                 r"[^\"]*)\"\)", "UART ids")
    helper = "mp_machine_uart_init_helper"
    bits = anchor(unit, helper, r"switch \(args\[ARG_bits\]\.u_int\)\s*\{(?P<cases>.*?)default:"
                  r"\s*" + _RAISE_VE, "UART bits")
    stop = anchor(unit, helper, r"switch \(args\[ARG_stop\]\.u_int\)\s*\{(?P<cases>.*?)default:"
                  r"\s*" + _RAISE_VE, "UART stop")
    inv = anchor(unit, helper, r"args\[ARG_invert\]\.u_int & ~(?P<mask>\w+)\)\s*\{\s*"
                 + _RAISE_VE, "UART invert")
    flow = anchor(unit, helper, r"args\[ARG_flow\]\.u_int & ~(?P<mask>\w+)\)\s*\{\s*"
                  + _RAISE_VE, "UART flow")
    pins = anchor(unit, helper, r"case UART_NUM_1:\s*self->rx = (?P<rx>\d+);\s*self->tx = "
                  r"(?P<tx>\d+);\s*break;", "UART default pins")
    repl = anchor(unit, helper, r"uart_is_repl\(self->uart_num\)\)\s*\{\s*" + _RAISE_VE,
                  "UART REPL buffers")
    irq = anchor(unit, "mp_machine_uart_irq", r"args\[MP_IRQ_ARG_INIT_hard\]\.u_bool\)\s*\{\s*"
                 + _RAISE_VE, "UART hard irq")

    def cases(m):
        return [int(x) for x in re.findall(r"case (\d+):", m["cases"])]

    return {
        "ids": list(range(int(unit.value(ids["n"])))), "id_message": ids["msg"],
        "bits": cases(bits), "bits_message": _msg(bits),
        "stop": cases(stop), "stop_message": _msg(stop),
        "invert_mask": unit.value(inv["mask"]), "invert_message": _msg(inv),
        "flow_mask": unit.value(flow["mask"]), "flow_message": _msg(flow),
        # UART 1's pins unless given (no SPIRAM): GPIO 9 and 10, the flash's on a WROOM-32
        "default_pins": {"1": {"rx": int(pins["rx"]), "tx": int(pins["tx"])},
                         "0": "the REPL's (GPIO 3, 1)"},
        "repl_id": 0, "repl_buffer_message": _msg(repl),
        "hard_irq_message": _msg(irq),
        "buffers": dict(IDF_UART_BUFFERS, defaults={"txbuf": 256, "rxbuf": 256}),
        "baudrate_max": IDF["SOC_UART_BITRATE_MAX"],
    }


def timer_rules(unit: Unit) -> dict:
    ids = anchor(unit, "machine_timer_make_new", r"timer_number >= (?P<n>\w+)\)\s*\{\s*"
                 + _RAISE_VE, "Timer ids")
    hard = anchor(unit, "machine_timer_init_helper", r"args\[ARG_hard\]\.u_bool\)\s*\{\s*"
                  + _RAISE_VE, "Timer hard")
    soft = anchor(unit, "machine_timer_isr_handler", r"mp_sched_schedule\(self->callback",
                  "Timer callback")
    return {"ids": list(range(int(unit.value(ids["n"])))), "id_message": _msg(ids),
            "hard_message": _msg(hard), "callback": "scheduled" if soft else "hard"}


def i2c_rules(unit: Unit, extmod: Unit) -> dict:
    ids = anchor(unit, "machine_hw_i2c_make_new", r"I2C_NUM_0 <= i2c_id && i2c_id < (?P<n>\w+)"
                 r"\)\)\s*\{\s*mp_raise_msg_varg\(&mp_type_ValueError, MP_ERROR_TEXT\(\"(?P<msg>"
                 r"[^\"]*)\"\)", "I2C ids")
    size = anchor(extmod, "fill_memaddr_buf", r"\(addrsize & 7\) != 0 \|\| addrsize > "
                  r"(?P<max>\d+)\)\s*\{\s*" + _RAISE_VE, "I2C addrsize")
    probe = anchor(unit, "machine_hw_i2c_transfer", r"err == ESP_FAIL\)\s*\{\s*return "
                   r"-MP_(?P<errno>\w+);", "I2C no device")
    errnos = {"ENODEV": 19, "EIO": 5, "ETIMEDOUT": 110}  # py/mperrno.h (newlib's numbers)
    return {"ids": list(range(int(unit.value(ids["n"])))), "id_message": _msg(ids),
            "addrsize_max": int(size["max"]), "addrsize_message": _msg(size),
            "no_device_errno": errnos[probe["errno"]],
            "default_pins": {"0": {"scl": unit.value("MICROPY_HW_I2C0_SCL"),
                                   "sda": unit.value("MICROPY_HW_I2C0_SDA")},
                             "1": {"scl": unit.value("MICROPY_HW_I2C1_SCL"),
                                   "sda": unit.value("MICROPY_HW_I2C1_SDA")}}}


def wdt_rules(unit: Unit) -> dict:
    ident = anchor(unit, "mp_machine_wdt_make_new_instance", r"id != (?P<id>\d+)\)\s*\{\s*"
                   r"mp_raise_ValueError\(NULL\)", "WDT id")
    short = anchor(unit, "mp_machine_wdt_make_new_instance", r"timeout_ms <= 0\)\s*\{\s*"
                   + _RAISE_VE, "WDT timeout")
    return {"id": int(ident["id"]), "id_message": "", "timeout_message": _msg(short),
            "stops": False}


def pcnt_rules(unit: Unit) -> dict:
    helper = "esp32_pcnt_init_helper"
    rules = {}
    for arg, pattern in (
            ("channel", r"channel >= (?P<max>\w+)\)\s*\{\s*"),
            ("rising", r"rising >= (?P<max>\w+)\)\s*\{\s*"),
            ("falling", r"falling >= (?P<max>\w+)\)\s*\{\s*"),
            ("mode_low", r"mode_low >= (?P<max>\w+)\)\s*\{\s*"),
            ("mode_high", r"mode_high >= (?P<max>\w+)\)\s*\{\s*")):
        m = anchor(unit, helper, pattern + _RAISE_VE, f"PCNT {arg}")
        rules[arg] = {"below": unit.value(m["max"]), "message": _msg(m)}
    m = anchor(unit, helper, r"filter > (?P<max>\d+)\)\s*\{\s*" + _RAISE_VE, "PCNT filter")
    rules["filter"] = {"min": 0, "max": int(m["max"]), "message": _msg(m)}
    m = anchor(unit, helper, r"value != 0\)\s*\{\s*" + _RAISE_VE, "PCNT value")
    rules["value"] = {"min": 0, "max": 0, "message": _msg(m)}
    for arg, var in (("min", "minimum"), ("max", "maximum"), ("threshold0", "threshold0"),
                     ("threshold1", "threshold1")):
        m = anchor(unit, helper, rf"{var} < (?P<lo>-?\d+) \|\| {var} > (?P<hi>-?\d+)\)\s*\{{\s*"
                   + _RAISE_VE, f"PCNT {arg}")
        rules[arg] = {"min": int(m["lo"]), "max": int(m["hi"]), "message": _msg(m)}
    pin = anchor(unit, helper, r"args\[ARG_pin\]\.u_obj == MP_OBJ_NULL\)\s*\{\s*" + _RAISE_VE,
                 "PCNT mode_pin without pin")
    ident = anchor(unit, "esp32_pcnt_make_new", r"n_pos_args < 1\)\s*\{\s*mp_raise_TypeError\("
                   r"MP_ERROR_TEXT\(\"(?P<type_msg>[^\"]*)\"\)\).*?unit >= (?P<n>\w+)\)\s*\{\s*"
                   + _RAISE_VE, "PCNT ids")
    trig = anchor(unit, "esp32_pcnt_irq", r"trigger < (?P<lo>\w+) \|\| trigger >= \((?P<hi>\w+)"
                  r" << 1\)\)\s*\{\s*" + _RAISE_VE, "PCNT trigger")
    value = anchor(unit, "esp32_pcnt_value", r"mp_obj_get_int\(pos_args\[1\]\) != 0\)\s*\{\s*"
                   + _RAISE_VE, "PCNT value(x)")
    flush = anchor(unit, "esp32_pcnt_value", r"self->irq->flags && self->irq->base.handler != "
                   r"mp_const_none\)\s*\{.*?mp_call_function_1", "PCNT value flushes its irq")
    return {"init": rules, "pin_message": _msg(pin), "no_id_message": ident["type_msg"],
            "units": list(range(int(unit.value(ident["n"])))), "id_message": _msg(ident),
            "trigger": [unit.value(trig["lo"]), 2 * unit.value(trig["hi"]) - 1],
            "trigger_message": _msg(trig), "value_message": _msg(value),
            "irq": "scheduled", "value_runs_pending_handler": bool(flush),
            # ESP32 PCNT hardware: a signed 16-bit count that goes back to 0 at either limit
            "counter_bits": 16}


def pwm_rules(unit: Unit) -> dict:
    freq = anchor(unit, "mp_machine_pwm_init_helper", r"check_freq_ranges\(self, freq, "
                  r"(?P<max>\d+)\)", "PWM freq")
    fmsg = anchor(unit, "check_freq_ranges", r"freq <= 0\) \|\| \(freq > upper_freq\)\)\s*\{\s*"
                  r"mp_raise_msg_varg\(&mp_type_ValueError, MP_ERROR_TEXT\(\"(?P<msg>[^\"]*)\"",
                  "PWM freq message")
    u16 = anchor(unit, "check_duty_u16", r"duty > (?P<max>\w+) - 1\)\)\s*\{\s*mp_raise_msg_varg\("
                 r"&mp_type_ValueError, MP_ERROR_TEXT\(\"(?P<msg>[^\"]*)\"\), (?P<shown>[\w ]+)\)",
                 "PWM duty_u16")
    u10 = anchor(unit, "check_duty_u10", r"duty > (?P<max>\w+) - 1\)\)\s*\{\s*mp_raise_msg_varg\("
                 r"&mp_type_ValueError, MP_ERROR_TEXT\(\"(?P<msg>[^\"]*)\"\), (?P<shown>[\w -]+)\)",
                 "PWM duty")
    return {"freq": [1, int(freq["max"])], "freq_message": fmsg["msg"].replace(
                "%d", str(int(freq["max"]) // 1000000)),
            "duty_u16": [0, unit.value(u16["max"]) - 1],
            "duty_u16_message": u16["msg"].replace("%d", str(unit.value(u16["shown"]))),
            "duty": [0, unit.value(u10["max"]) - 1],
            "duty_message": u10["msg"].replace("%u", str(unit.value(u10["max"]) - 1)),
            "channels": 16, "timers": 8}  # soc_caps.h: 8 LEDC channels a speed mode, 2 modes


def i2s_rules(unit: Unit) -> dict:
    ident = anchor(unit, "mp_machine_i2s_make_new_instance", r"i2s_id < 0 \|\| i2s_id >= "
                   r"(?P<n>\w+)\)\s*\{\s*" + _RAISE_VE, "I2S ids")
    helper = "mp_machine_i2s_init_helper"
    mode = anchor(unit, helper, r"\(mode != \((?P<a>\w+)\)\) &&\s*\(mode != \((?P<b>\w+)\)\)\)"
                  r"\s*\{\s*" + _RAISE_VE, "I2S mode")
    bits = anchor(unit, helper, r"\(bits != (?P<a>\w+)\) &&\s*\(bits != (?P<b>\w+)\)\)\s*\{\s*"
                  + _RAISE_VE, "I2S bits")
    fmt = anchor(unit, helper, r"\(format != (?P<a>\w+)\) &&\s*\(format != (?P<b>\w+)\)\)\s*"
                 r"\{\s*" + _RAISE_VE, "I2S format")
    cb = anchor(unit, "machine_i2s_irq", r"!mp_obj_is_callable\(handler\)\)\s*\{\s*"
                + _RAISE_VE, "I2S irq")
    return {"ids": list(range(int(unit.value(ident["n"])))), "id_message": _msg(ident),
            "modes": sorted(unit.value(mode[k]) for k in "ab"), "mode_message": _msg(mode),
            "bits": sorted(unit.value(bits[k]) for k in "ab"), "bits_message": _msg(bits),
            "formats": sorted(unit.value(fmt[k]) for k in "ab"), "format_message": _msg(fmt),
            "callback_message": _msg(cb)}


def machine_rules(unit: Unit) -> dict:
    body = unit.body("mp_machine_set_freq")
    div = re.search(r"mp_obj_get_int\(args\[0\]\) / (\d+);", body)
    m = re.search(r"#?.*?if \((freq != \d+(?: && freq != \d+)*)\s*(?:&& freq != (\d+))?\s*\)\s*\{"
                  r"\s*" + _RAISE_VE, body, re.S)
    if not div or not m:
        raise Flagged("machine.freq: ports/esp32/modmachine.c mp_machine_set_freq no longer reads "
                      "as expected")
    mhz = [int(x) for x in re.findall(r"freq != (\d+)", m[0])]
    reset = {k: unit.value(v) for k, v in (
        (k, f"MP_{k}") for k in ("PWRON_RESET", "HARD_RESET", "WDT_RESET", "DEEPSLEEP_RESET",
                                 "SOFT_RESET"))}
    return {"freq": {"divisor": int(div[1]), "mhz": sorted(mhz), "message": _msg(m)},
            "reset_cause": reset}


def scheduler_rules(src: Source) -> dict:
    port = Unit(src, "ports/esp32/mpconfigport.h")
    unit = Unit(src, "py/scheduler.c")
    once = anchor(unit, "mp_sched_run_pending", r"Run at most one pending Python callback|"
                  r"if \(!mp_sched_empty\(\)\)\s*\{\s*mp_sched_item_t item", "one a point")
    full = anchor(unit, "mp_sched_schedule", r"if \(!mp_sched_full\(\)\)\s*\{.*?ret = true;.*?"
                  r"\}\s*else\s*\{.*?ret = false;", "full queue")
    mod = Unit(src, "py/modmicropython.c")
    msg = anchor(mod, "mp_micropython_schedule", r"mp_raise_msg\(&mp_type_RuntimeError, "
                 r"MP_ERROR_TEXT\(\"(?P<msg>[^\"]*)\"\)", "schedule full")
    depth = port.names.get("MICROPY_SCHEDULER_DEPTH")
    alone = dict(CONFIG)  # py/mpconfig.h's own default, as the unix port has it
    preprocess(_strip_comments(src.read("py/mpconfig.h")), alone)
    default = _c_value("MICROPY_SCHEDULER_DEPTH", alone)
    return {"depth": depth, "default_depth": default, "per_point": 1 if once else None,
            "full": "dropped" if full else None, "schedule_full_message": _msg(msg),
            "schedule": {"n_args": [2, 2], "kw": False}}


def arg_errors(src: Source) -> dict:
    text = _strip_comments(src.read("py/argcheck.c"))

    def after(name: str) -> str:
        # the NORMAL-level text of a check (the #else of its TERSE branch)
        m = re.search(rf"{name}.*?#else\s*.*?MP_ERROR_TEXT\(\"([^\"]*)\"\)", text, re.S)
        if not m:
            raise Flagged(f"argument errors: py/argcheck.c has no '{name}' check")
        return m[1]

    bc = _strip_comments(src.read("py/bc.c"))
    rt = _strip_comments(src.read("py/runtime.c"))
    conv = re.search(r"mp_raise_TypeError_int_conversion.*?#else.*?MP_ERROR_TEXT\(\"([^\"]*)\"\)",
                     rt, re.S)
    unexpected = re.search(r"#else\s*mp_raise_msg_varg\(&mp_type_TypeError,\s*MP_ERROR_TEXT\("
                           r"\"(unexpected keyword argument[^\"]*)\"", bc)
    positional = re.search(r"MICROPY_ERROR_REPORTING_NORMAL.*?MP_ERROR_TEXT\(\"([^\"]*)\"\)", bc,
                           re.S)
    missing = re.search(r"MP_ERROR_TEXT\(\"(function missing required positional[^\"]*)\"\)", bc)
    if not (conv and unexpected and positional and missing):
        raise Flagged("argument errors: py/bc.c or py/runtime.c no longer read as expected")
    return {
        "no_keywords": after(r"if \(n_kw && !takes_kw\)"),
        "exact": after(r"if \(n_args != n_args_min\)"),
        "missing": after(r"if \(n_args < n_args_min\)"),
        "at_most": after(r"else if \(n_args > n_args_max\)"),
        "required": after(r"MP_ARG_REQUIRED\)"),
        "extra_positional": after(r"extra_positional:"),
        "extra_keyword": after(r"if \(kws_found < kws->used\)"),
        "int_conversion": conv[1],
        # a function written in Python (ports/esp32/modules/machine.py), py/bc.c at NORMAL
        "py_unexpected_keyword": unexpected[1],
        "py_positional": positional[1],
        "py_missing": missing[1],
    }


# ---- machine.Counter: Python in the port ------------------------------------------------------
def counter(src: Source, pcnt_constants: dict) -> dict:
    text = src.read("ports/esp32/modules/machine.py")
    tree = ast.parse(text)
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    if "Counter" not in classes or "_CounterBase" not in classes:
        raise Flagged("machine.Counter: ports/esp32/modules/machine.py has no Counter class")

    def method(cls, name):
        for n in cls.body:
            if isinstance(n, ast.FunctionDef) and n.name == name:
                return n
        raise Flagged(f"machine.Counter: no {cls.name}.{name}")

    def value(node: ast.AST | None, consts: dict):
        # a literal, a name of the class, or an esp32.PCNT constant (_PCNT.INCREMENT)
        if node is None:
            return None
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name) and node.id in consts:
            return consts[node.id]
        if isinstance(node, ast.Attribute) and node.attr in pcnt_constants:
            return pcnt_constants[node.attr]
        raise Flagged(f"machine.Counter: cannot read {ast.unparse(node)}")

    def params(fn, consts):
        a = fn.args
        pos = [x.arg for x in a.args[1:]]
        first = len(pos) - len(a.defaults)
        out = [{"name": n, "required": i < first,
                "default": None if i < first else value(a.defaults[i - first], consts)}
               for i, n in enumerate(pos)]
        kw = [{"name": x.arg, "required": d is None, "default": value(d, consts)}
              for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
        return {"positional": out, "kw_only": kw, "varargs": a.vararg is not None,
                "varkw": a.kwarg is not None}

    base, cls = classes["_CounterBase"], classes["Counter"]
    consts = {}
    for n in cls.body:
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name):
            consts[n.targets[0].id] = value(n.value, consts)
    rng = re.search(r"_PCNT_RANGE = const\((\d+)\)", text)
    filt = re.search(r"min\(max\(0, filter_ns \* (\d+) // (\d+)\), (\d+)\)", text)
    in_use = re.search(r"raise ValueError\(['\"]([^'\"]*)['\"]\)",
                       ast.unparse(method(base, "__new__")))
    if not (rng and filt and in_use):
        raise Flagged("machine.Counter: ports/esp32/modules/machine.py no longer reads as expected")
    return {"init": params(method(base, "__init__"), consts),
            "configure": params(method(cls, "_configure"), consts),
            "constants": consts, "range": int(rng[1]),
            "filter_ns": {"mul": int(filt[1]), "div": int(filt[2]), "max": int(filt[3])},
            "in_use_message": in_use[1], "pcnt_unit_min": -int(rng[1]),
            "pcnt_unit_max": int(rng[1])}


# ---- all of it -----------------------------------------------------------------------------------
def _drop_units(o):
    if isinstance(o, dict):
        return {k: _drop_units(v) for k, v in o.items() if k != "unit"}
    if isinstance(o, list):
        return [_drop_units(v) for v in o]
    return o


def derive(src: Source, release: str) -> tuple[dict, list[str]]:
    flags = []

    def safely(what, fn, *a):
        try:
            return fn(*a)
        except Flagged as exc:
            flags.append(str(exc))
            return {"flagged": str(exc)}

    readme = src.read("ports/esp32/README.md")
    idf = re.search(r"recommended version of ESP-IDF for MicroPython is (v\d+(?:\.\d+)*)", readme)
    idf = idf[1] if idf else None
    if idf != IDF_CHECKED:
        flags.append(f"IDF: ports/esp32/README.md recommends ESP-IDF {idf}; the IDF table here "
                     f"was read in {IDF_CHECKED}: check its values in that version")

    pin = Unit(src, "ports/esp32/machine_pin.c")
    uart = Unit(src, "ports/esp32/machine_uart.c", "extmod/machine_uart.c",
                "shared/runtime/mpirq.c")
    i2c_ext = Unit(src, "extmod/machine_i2c.c")
    i2c = Unit(src, "ports/esp32/machine_i2c.h", "ports/esp32/machine_i2c.c")
    timer = Unit(src, "ports/esp32/machine_timer.c")
    wdt = Unit(src, "ports/esp32/machine_wdt.c", "extmod/machine_wdt.c")
    pwm = Unit(src, "ports/esp32/machine_pwm.c", "extmod/machine_pwm.c")
    i2s = Unit(src, "ports/esp32/machine_i2s.c", "extmod/machine_i2s.c",
               names={"MICROPY_PY_MACHINE_I2S_CONSTANT_RX": IDF["I2S_DIR_RX"],
                      "MICROPY_PY_MACHINE_I2S_CONSTANT_TX": IDF["I2S_DIR_TX"]})
    pcnt = Unit(src, "ports/esp32/esp32_pcnt.c")
    ulp = Unit(src, "ports/esp32/esp32_ulp.c",
               names={"CONFIG_ULP_COPROC_RESERVE_MEM": _sdkconfig(src,
                                                                  "CONFIG_ULP_COPROC_RESERVE_MEM")})
    modmachine = Unit(src, "ports/esp32/modmachine.c")
    stream = Unit(src, "py/stream.c")

    classes = {}
    for name, args in (("Pin", ("machine_pin_type", pin)),
                       ("UART", ("machine_uart_type", uart, stream)),
                       ("I2C", ("machine_i2c_type", i2c, i2c_ext)),
                       ("Timer", ("machine_timer_type", timer)),
                       ("WDT", ("machine_wdt_type", wdt)),
                       ("PWM", ("machine_pwm_type", pwm)),
                       ("I2S", ("machine_i2s_type", i2s, stream))):
        classes[name] = safely(name, describe_class, *args)
    if "flagged" not in classes["I2C"]:
        # the generic methods come from extmod/machine_i2c.c's locals dict
        ext = {"methods": {}}
        funs = fun_objects(i2c_ext)
        for meth, kind, value in locals_table(i2c_ext, "mp_machine_i2c_locals_dict"):
            spec = funs.get(value.lstrip("&"))
            if kind == "PTR" and spec:
                entry = {"n_args": spec["n_args"], "kw": spec["kw"]}
                if spec["kw"]:
                    entry["args"] = function_args(i2c_ext, spec["fn"])
                entry["raises"] = raises(i2c_ext, spec["fn"])
                ext["methods"][meth] = entry
        classes["I2C"]["methods"] = ext["methods"]
    rules = {
        "Pin": safely("pins", pin_rules, src),
        "UART": safely("UART", uart_rules, src, uart),
        "I2C": safely("I2C", i2c_rules, i2c, i2c_ext),
        "Timer": safely("Timer", timer_rules, timer),
        "WDT": safely("WDT", wdt_rules, wdt),
        "PWM": safely("PWM", pwm_rules, pwm),
        "I2S": safely("I2S", i2s_rules, i2s),
        "PCNT": safely("PCNT", pcnt_rules, pcnt),
    }
    for name, rule in rules.items():
        target = classes.get(name)
        if target is not None and "flagged" not in target:
            target["rules"] = rule
    esp32 = {"PCNT": safely("PCNT", describe_class, "esp32_pcnt_type", pcnt),
             "ULP": safely("ULP", describe_class, "esp32_ulp_type", ulp)}
    if "flagged" not in esp32["PCNT"]:
        esp32["PCNT"]["rules"] = rules["PCNT"]
    machine_funs = fun_objects(Unit(src, "extmod/modmachine.c"))
    functions = {name: {"n_args": machine_funs[f"machine_{name}_obj"]["n_args"], "kw": False}
                 for name in ("freq", "reset", "reset_cause", "idle", "unique_id")}
    freq_max = Unit(src, "extmod/modmachine.h").names.get("MICROPY_PY_MACHINE_FREQ_NUM_ARGS_MAX")
    if isinstance(freq_max, int):
        functions["freq"]["n_args"][1] = freq_max
    contract = {
        "release": release,
        "commit": src.commit(),
        "target": "ESP32 (ESP32_GENERIC, no SPIRAM), ESP-IDF " + IDF_CHECKED,
        "about": "What the ESP32 port accepts and how it refuses, derived from MicroPython's "
                 "source by firmware/port/derive_contract.py; docs/esp32-port.md",
        "error_reporting": "NORMAL" if modmachine.names.get("MICROPY_ERROR_REPORTING") ==
                           CONFIG["MICROPY_ERROR_REPORTING_NORMAL"] else
                           modmachine.names.get("MICROPY_ERROR_REPORTING"),
        "arg_errors": safely("arg errors", arg_errors, src),
        "scheduler": safely("scheduler", scheduler_rules, src),
        "machine": dict(safely("machine", machine_rules, modmachine), functions=functions,
                        classes=classes,
                        Counter=safely("Counter", counter, src,
                                       esp32["PCNT"].get("constants", {}))),
        "esp32": esp32,
        "flags": flags,
    }
    return _drop_units(contract), flags


def _sdkconfig(src: Source, key: str) -> int | None:
    m = re.search(rf"^{key}=(\d+)", src.read("ports/esp32/boards/sdkconfig.base"), re.M)
    return int(m[1]) if m else None


def render(contract: dict) -> str:
    return json.dumps(contract, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checkout", type=pathlib.Path, help="a MicroPython source tree")
    p.add_argument("--git-dir", type=pathlib.Path, help="a MicroPython git directory (bare)")
    p.add_argument("--tag", help="the release tag to read in --git-dir, e.g. v1.28.0")
    p.add_argument("--release", help="the release's name (default: --tag)")
    p.add_argument("--out", type=pathlib.Path, help="where to write (default: beside this)")
    p.add_argument("--check", action="store_true",
                   help="compare with the file instead of writing it (exit 1 when it differs)")
    a = p.parse_args(argv)
    if bool(a.checkout) == bool(a.git_dir) or (a.git_dir and not a.tag):
        p.error("give --checkout PATH, or --git-dir DIR with --tag TAG")
    release = a.release or a.tag
    if not release:
        p.error("--release NAME is needed with --checkout")
    src = Source(a.checkout, a.git_dir, a.tag)
    contract, flags = derive(src, release)
    out = a.out or HERE / f"esp32-{release}.json"
    text = render(contract)
    for flag in flags:
        print(f"FLAG: {flag}", file=sys.stderr)
    if a.check:
        same = out.exists() and out.read_text() == text
        print(f"{out.name}: {'as derived' if same else 'differs from what the source gives'}")
        return 0 if same and not flags else 1
    out.write_text(text)
    print(f"wrote {out} ({len(text)} bytes{', with flags' if flags else ''})")
    return 1 if flags else 0


if __name__ == "__main__":
    sys.exit(main())
