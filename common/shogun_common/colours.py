# Cube colours, shared by the protocol, the firmware and the host. Index = wire code.
BLACK = 0
RED = 1
YELLOW = 2
PURPLE = 3
BLUE = 4
GREEN = 5  # farmers
UNKNOWN = 255  # a cube whose colour matched no calibrated centroid well enough

PLAYER_COLOURS = ("black", "red", "yellow", "purple", "blue")
CUBE_COLOURS = ("black", "red", "yellow", "purple", "blue", "green")


def colour_name(code):
    if code == UNKNOWN:
        return "unknown"
    return CUBE_COLOURS[code]


def colour_code(name):
    if name == "unknown":
        return UNKNOWN
    return CUBE_COLOURS.index(name)
