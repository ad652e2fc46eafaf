# Colour classification on MicroPython.
from shogun_common.colours import UNKNOWN
from shogun_fw.boards.sim import REFLECTANCE
from shogun_fw.colour import DEFAULT_CENTROIDS, Classifier, validate


def test_every_cube_colour_is_recognised():
    c = Classifier()
    for colour, refl in enumerate(REFLECTANCE):
        got, confidence = c.classify(*refl)
        assert got == colour, (colour, got)
        assert confidence > 50


def test_half_seen_cube_keeps_its_chromaticity():
    c = Classifier()
    r, g, b, cl = REFLECTANCE[4]
    # the brightness halves, the chromaticity does not: still blue unless it looks black
    got, _ = c.classify(r * 0.9, g * 0.9, b * 0.9, cl * 0.9)
    assert got == 4


def test_a_mix_of_two_colours_is_unknown_not_guessed():
    c = Classifier()
    # (red and blue would make purple, a real colour: yellow and blue make no cube's colour)
    yellow, blue = REFLECTANCE[2], REFLECTANCE[4]
    mix = [(yellow[i] + blue[i]) / 2 for i in range(4)]
    assert c.classify(*mix)[0] == UNKNOWN


def test_darkness_is_unknown():
    assert Classifier().classify(0, 0, 0, 0) == (UNKNOWN, 0)


def test_white_light_is_unknown():
    assert Classifier().classify(900, 900, 900, 1023)[0] == UNKNOWN


def test_validate_refuses_bad_centroids():
    assert validate(DEFAULT_CENTROIDS) is None
    assert validate([]) is not None
    assert validate([(1, 1, 1, 1, 1), (1, 2, 2, 2, 2)]) is not None
    assert validate([(9, 1, 1, 1, 1)]) is not None
