// shogun_capture: the beams' readings taken by a C interrupt handler, in the tower's own build
// (`make firmware-image`). Stock MicroPython takes them in soft pin handlers, run when the
// interpreter gets to them (boards/esp32.py); here a GPIO interrupt handler takes each one a
// few microseconds after its edge, whatever the interpreter is doing, so no reading ever comes
// after the next edge of its beam and every edge's time is exact (docs/firmware.md, Capture).
//
// A reading is what boards/esp32.py's _sample and Capture.put write, in the same ring
// (boards/__init__.py is the one description of it; tests/host/test_shogun_capture.py checks
// the figures below against it): the ticks (time.ticks_us: esp_timer's microseconds mod 2^30)
// in two 16-bit halves, the beam's blocked-microseconds, falls and rises counts (its pulse
// counter units, read from their registers), and the beam; then the write count (status[0],
// mod 2^30) moves on. The handler only writes; Capture.read only reads the slots behind it.
//
//   shogun_capture.start(ring, status, (gpio_upper, gpio_lower), units, wake)
//       ring: _ring (array 'H'), status: status (array 'i') of boards/__init__.py, units: the six
//       PCNT units (falls upper, lower, rises upper, lower, blocked upper, lower), wake: called
//       (soft, scheduled) after each reading, to wake the detector's task.
//   shogun_capture.stop()
#include "py/runtime.h"
#include "py/mphal.h"
#include "driver/gpio.h"
#include "esp_timer.h"
#include "hal/pcnt_ll.h"

#define SHOGUN_CAPTURE_FIELDS (6)           // boards/__init__.py _RF
#define SHOGUN_CAPTURE_STATUS_W (0)         // ... _S_W
#define SHOGUN_CAPTURE_TICKS_MASK (0x3FFFFFFF)  // ... _MASK: time.ticks_us wraps at 2^30
#define SHOGUN_CAPTURE_UNITS (6)

typedef struct {
    uint16_t *ring;
    int32_t *status;
    uint32_t slots;                  // a power of two
    int gpio[2];
    int unit[SHOGUN_CAPTURE_UNITS];  // falls 0, 1; rises 0, 1; blocked 0, 1
    mp_obj_t wake;
    bool on;
} shogun_capture_t;

static shogun_capture_t capture;

// ring, status and wake stay alive while the handler may use them
MP_REGISTER_ROOT_POINTER(mp_obj_t shogun_capture_keep);

static void IRAM_ATTR shogun_capture_isr(void *arg) {
    int b = (int)(intptr_t)arg;
    uint32_t t = (uint32_t)esp_timer_get_time() & SHOGUN_CAPTURE_TICKS_MASK;
    // G first (the ticks and it read together), then F before R, as boards/esp32.py _sample
    uint16_t g = (uint16_t)pcnt_ll_get_count(PCNT_LL_GET_HW(0), capture.unit[4 + b]);
    uint16_t f = (uint16_t)pcnt_ll_get_count(PCNT_LL_GET_HW(0), capture.unit[b]);
    uint16_t r = (uint16_t)pcnt_ll_get_count(PCNT_LL_GET_HW(0), capture.unit[2 + b]);
    int32_t w = capture.status[SHOGUN_CAPTURE_STATUS_W];
    uint16_t *slot = capture.ring + SHOGUN_CAPTURE_FIELDS * ((uint32_t)w & (capture.slots - 1));
    slot[0] = t & 0xFFFF;
    slot[1] = (t >> 16) & 0x3FFF;
    slot[2] = g;
    slot[3] = f;
    slot[4] = r;
    slot[5] = b;
    capture.status[SHOGUN_CAPTURE_STATUS_W] = (w + 1) & SHOGUN_CAPTURE_TICKS_MASK;
    // the detector's wake: soft, as the port's own pin handler (a full queue drops it: the
    // detector wakes on its own deadline, and the reading is in the ring all the same)
    mp_sched_schedule(capture.wake, mp_const_none);
    mp_hal_wake_main_task_from_isr();
}

static mp_obj_t shogun_capture_stop(void) {
    if (capture.on) {
        for (int b = 0; b < 2; ++b) {
            gpio_set_intr_type(capture.gpio[b], GPIO_INTR_DISABLE);
            gpio_isr_handler_remove(capture.gpio[b]);
        }
        capture.on = false;
    }
    MP_STATE_VM(shogun_capture_keep) = MP_OBJ_NULL;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_0(shogun_capture_stop_obj, shogun_capture_stop);

static mp_obj_t shogun_capture_start(size_t n_args, const mp_obj_t *args) {
    shogun_capture_stop();
    mp_buffer_info_t ring, status;
    mp_get_buffer_raise(args[0], &ring, MP_BUFFER_WRITE);
    mp_get_buffer_raise(args[1], &status, MP_BUFFER_WRITE);
    size_t slots = ring.len / (2 * SHOGUN_CAPTURE_FIELDS);
    if (ring.typecode != 'H' || slots == 0 || (slots & (slots - 1)) != 0
        || status.typecode != 'i' || status.len < sizeof(int32_t)) {
        mp_raise_ValueError(MP_ERROR_TEXT("ring: array('H') of 6 x 2^n, status: array('i')"));
    }
    mp_obj_t *gpios, *units;
    mp_obj_get_array_fixed_n(args[2], 2, &gpios);
    mp_obj_get_array_fixed_n(args[3], SHOGUN_CAPTURE_UNITS, &units);
    if (!mp_obj_is_callable(args[4])) {
        mp_raise_TypeError(MP_ERROR_TEXT("wake must be callable"));
    }
    capture.ring = ring.buf;
    capture.status = status.buf;
    capture.slots = slots;
    for (int i = 0; i < SHOGUN_CAPTURE_UNITS; ++i) {
        capture.unit[i] = mp_obj_get_int(units[i]);
    }
    capture.wake = args[4];
    mp_obj_t keep[4] = { args[0], args[1], args[3], args[4] };  // (ring, status, units, wake)
    MP_STATE_VM(shogun_capture_keep) = mp_obj_new_tuple(4, keep);
    for (int b = 0; b < 2; ++b) {
        capture.gpio[b] = mp_obj_get_int(gpios[b]);
        // the port's GPIO interrupt service (machine_pins_init) dispatches per pin: this
        // handler replaces Pin.irq's for the beams' pins, on both edges
        gpio_isr_handler_remove(capture.gpio[b]);
        gpio_set_intr_type(capture.gpio[b], GPIO_INTR_ANYEDGE);
        esp_err_t err = gpio_isr_handler_add(capture.gpio[b], shogun_capture_isr,
            (void *)(intptr_t)b);
        if (err != ESP_OK) {
            shogun_capture_stop();
            mp_raise_OSError(err);
        }
    }
    capture.on = true;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(shogun_capture_start_obj, 5, 5, shogun_capture_start);

static const mp_rom_map_elem_t shogun_capture_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_shogun_capture) },
    { MP_ROM_QSTR(MP_QSTR_start), MP_ROM_PTR(&shogun_capture_start_obj) },
    { MP_ROM_QSTR(MP_QSTR_stop), MP_ROM_PTR(&shogun_capture_stop_obj) },
};
static MP_DEFINE_CONST_DICT(shogun_capture_globals, shogun_capture_globals_table);

const mp_obj_module_t shogun_capture_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&shogun_capture_globals,
};

MP_REGISTER_MODULE(MP_QSTR_shogun_capture, shogun_capture_module);
