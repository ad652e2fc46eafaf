# The shared generator gives the very stream CPython recorded (rng_vectors.json).
import json

from shogun_common.rng import Rng


def test_rng_matches_cpython():
    with open("rng_vectors.json") as f:
        vectors = json.load(f)
    for seed, v in vectors.items():
        rng = Rng(int(seed))
        assert [rng.randbelow(100) for _ in range(8)] == v["randbelow_100"], seed
        assert rng.state == v["state_after"], seed
        got = [rng.random() for _ in range(3)]
        for a, b in zip(got, v["random"]):
            assert abs(a - b) < 1e-9, seed


def test_tower_model_keeps_every_cube():
    from shogun_common.tower_model import TowerModel

    rng = Rng(3)
    tower = TowerModel()
    thrown = 0
    out = 0
    for _ in range(50):
        cubes = [rng.randbelow(6) for _ in range(rng.randint(1, 12))]
        thrown += len(cubes)
        out += len(tower.throw(cubes, rng))
    assert thrown == out + len(tower.inside())
    assert len(tower.inside()) > 0
