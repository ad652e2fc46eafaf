"""The board as data: provinces, regions, neighbours, 3-player exclusions, fixed set-ups.

A map file is validated when it is loaded so that a typo in a corrected file is refused with the
province and field named, instead of surfacing as a strange ruling mid-game.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Any

from shogun_tower.errors import MapError
from shogun_tower.games.shogun.rules.core.constants import ARMY_GROUPS
from shogun_tower.games.shogun.rules.core.files import json_file, packaged
from shogun_tower.i18n import _

SIDES = ("sun", "moon")


@dataclass(frozen=True)
class Province:
    name: str
    region: str
    tax: int
    rice: int
    building_slots: int
    neighbours: frozenset[str]
    three_player_excluded: bool


@dataclass(frozen=True)
class GameMap:
    side: str
    provinces: dict[str, Province]
    regions: dict[str, tuple[str, ...]]
    sea_routes: frozenset[frozenset[str]]
    fixed_setups: dict[int, tuple[tuple[tuple[str, int], ...], ...]]
    unverified: tuple[str, ...]
    source: dict[str, Any]  # the validated file content, kept so a journal can embed it
    sea_routes_verified: bool = False

    def in_play(self, players: int) -> list[str]:
        """Provinces usable with this many players (rule S1)."""
        return [n for n, p in self.provinces.items()
                if not (players == 3 and p.three_player_excluded)]

    def is_sea_route(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.sea_routes


def _fail(msg: str) -> MapError:
    return MapError(" ".join(msg.split()))


def _int_field(where: str, pdata: dict, field: str, lo: int, hi: int) -> int:
    v = pdata.get(field)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(_("map: province {where}: field '{field}' must be a whole number "
                      "{lo}-{hi}, got {v!r}").format(
            where=where, field=field, lo=lo, hi=hi, v=v))
    return v


def validate_map(data: Any, origin: str = "map") -> GameMap:
    """Check a map document and build the immutable map; MapError names what is wrong."""
    if not isinstance(data, dict):
        raise _fail(_("{origin}: the file must hold a JSON object").format(
            origin=origin))
    side = data.get("side")
    if not isinstance(side, str) or not side:
        raise _fail(_("{origin}: field 'side' must be a name such as \"sun\"").format(
            origin=origin))
    regions = data.get("regions")
    if not isinstance(regions, dict) or not regions:
        raise _fail(_("{origin}: field 'regions' must map region names to province lists").format(
            origin=origin))
    provs = data.get("provinces")
    if not isinstance(provs, dict) or not provs:
        raise _fail(_("{origin}: field 'provinces' must map province names to their "
                      "facts").format(
            origin=origin))
    region_of: dict[str, str] = {}
    for rname, members in regions.items():
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            raise _fail(_("{origin}: region {rname}: must be a list of province names").format(
                origin=origin, rname=rname))
        for m in members:
            if m not in provs:
                raise _fail(_("{origin}: region {rname}: province {m} is not in "
                              "'provinces'").format(
                    origin=origin, rname=rname, m=m))
            if m in region_of:
                raise _fail(_("{origin}: province {m} is listed in regions {region_of} "
                              "and {rname}").format(
                    origin=origin, m=m, region_of=region_of[m], rname=rname))
            region_of[m] = rname
    built: dict[str, Province] = {}
    for name, p in provs.items():
        where = name
        if not isinstance(p, dict):
            raise _fail(_("{origin}: province {where}: must be an object").format(
                origin=origin, where=where))
        if p.get("region") not in regions:
            raise _fail(_("{origin}: province {where}: field 'region' {region!r} is not "
                          "one of {regions}").format(
                origin=origin, where=where, region=p.get('region'), regions=sorted(regions)))
        if region_of.get(name) != p["region"]:
            raise _fail(_("{origin}: province {where}: field 'region' says {region} but "
                          "the regions list puts it in {value}").format(
                origin=origin, where=where, region=p['region'], value=region_of.get(name)))
        tax = _int_field(where, p, "tax", 0, 20)
        rice = _int_field(where, p, "rice", 0, 20)
        slots = _int_field(where, p, "building_slots", 1, 3)  # rule C4
        nb = p.get("neighbours")
        if not isinstance(nb, list) or not nb or not all(isinstance(x, str) for x in nb):
            raise _fail(_("{origin}: province {where}: field 'neighbours' must be a "
                          "non-empty list of province names").format(
                origin=origin, where=where))
        for x in nb:
            if x not in provs:
                raise _fail(_("{origin}: province {where}: neighbour {x} is not a "
                              "province").format(
                    origin=origin, where=where, x=x))
            if x == name:
                raise _fail(_("{origin}: province {where}: lists itself as a neighbour").format(
                    origin=origin, where=where))
        ex = p.get("three_player_excluded")
        if not isinstance(ex, bool):
            raise _fail(_("{origin}: province {where}: field 'three_player_excluded' "
                          "must be true or false").format(
                origin=origin, where=where))
        built[name] = Province(name, p["region"], tax, rice, slots, frozenset(nb), ex)
    for name, p in built.items():
        for x in p.neighbours:
            if name not in built[x].neighbours:
                raise _fail(_("{origin}: province {name}: neighbour {x} does not list "
                              "{name} back; borders must be listed on both sides").format(
                    origin=origin, name=name, x=x))
    excluded = [n for n, p in built.items() if p.three_player_excluded]
    if len(excluded) != 8:  # rule S1
        raise _fail(_("{origin}: field 'three_player_excluded': rule S1 needs exactly 8 "
                      "provinces out of play with 3 players, the file marks {n}").format(
            origin=origin, n=len(excluded)))
    for count in (3, 4, 5):
        _check_connected(built, count, origin)
    sea: set[frozenset[str]] = set()
    for pair in data.get("sea_routes", []) or []:
        if (not isinstance(pair, list) or len(pair) != 2 or pair[0] not in built
                or pair[1] not in built):
            raise _fail(_("{origin}: field 'sea_routes': {pair!r} must be a pair of "
                          "provinces").format(
                origin=origin, pair=pair))
        if pair[1] not in built[pair[0]].neighbours:
            raise _fail(_("{origin}: field 'sea_routes': {pair0}-{pair1} must also be "
                          "listed as neighbours").format(
                origin=origin, pair0=pair[0], pair1=pair[1]))
        sea.add(frozenset(pair))
    setups: dict[int, tuple] = {}
    raw_setups = data.get("fixed_setups", {}) or {}
    if not isinstance(raw_setups, dict):
        raise _fail(_("{origin}: field 'fixed_setups' must map player counts to set-ups").format(
            origin=origin))
    for key, seats in raw_setups.items():
        if key not in ("3", "4", "5"):
            raise _fail(_("{origin}: field 'fixed_setups': key {key!r} must be 3, 4 or 5").format(
                origin=origin, key=key))
        n = int(key)
        if not isinstance(seats, list) or len(seats) != n:
            raise _fail(_("{origin}: fixed_setups {key}: needs one list per player ({n})").format(
                origin=origin, key=key, n=n))
        seen: set[str] = set()
        out = []
        for seat in seats:
            groups = []
            for item in seat:
                if (not isinstance(item, list) or len(item) != 2 or item[0] not in built
                        or not isinstance(item[1], int)):
                    raise _fail(_("{origin}: fixed_setups {key}: {item!r} must be "
                                  "[province, armies]").format(
                        origin=origin, key=key, item=item))
                if item[0] in seen:
                    raise _fail(_("{origin}: fixed_setups {key}: province {item0} is "
                                  "used twice").format(
                        origin=origin, key=key, item0=item[0]))
                if n == 3 and built[item[0]].three_player_excluded:
                    raise _fail(_("{origin}: fixed_setups 3: province {item0} is out of "
                                  "play with 3 players (rule S1)").format(
                        origin=origin, item0=item[0]))
                seen.add(item[0])
                groups.append((item[0], item[1]))
            if sorted((g for _, g in groups), reverse=True) != list(ARMY_GROUPS[n]):
                raise _fail(_("{origin}: fixed_setups {key}: army groups must be "
                              "{ARMY_GROUPS} per player (rule S2)").format(
                    origin=origin, key=key, ARMY_GROUPS=list(ARMY_GROUPS[n])))
            out.append(tuple(groups))
        setups[n] = tuple(out)
    unverified = tuple(str(u) for u in data.get("unverified", []) or [])
    verified = data.get("sea_routes_verified", False)
    if not isinstance(verified, bool):
        raise _fail(_("{origin}: field 'sea_routes_verified' must be true or false").format(
            origin=origin))
    # Decision: where the file's two statements disagree, 'unverified' wins (the cautious
    # one); not refused, because maps embedded in games saved before engine 2 disagree.
    verified = verified and not any(u.startswith("sea_routes") for u in unverified)
    return GameMap(side=side, provinces=built,
                   regions={r: tuple(m) for r, m in regions.items()},
                   sea_routes=frozenset(sea), fixed_setups=setups, unverified=unverified,
                   source=data, sea_routes_verified=verified)


def _check_connected(built: dict[str, Province], players: int, origin: str) -> None:
    nodes = [n for n, p in built.items() if not (players == 3 and p.three_player_excluded)]
    seen = {nodes[0]}
    todo = [nodes[0]]
    while todo:
        for x in built[todo.pop()].neighbours:
            if x in nodes and x not in seen:
                seen.add(x)
                todo.append(x)
    if len(seen) != len(nodes):
        lost = sorted(set(nodes) - seen)[0]
        raise _fail(_("{origin}: province {lost}: cannot be reached from the rest of the"
                      " map with {players} players; check its neighbours").format(
            origin=origin, lost=lost, players=players))


_CACHE: dict[str, GameMap] = {}


def load_map(which: str | pathlib.Path | dict) -> GameMap:
    """Load "sun", "moon", a path to a map JSON file, or an already-parsed map document."""
    if isinstance(which, dict):
        return validate_map(which, "map")
    key = str(which)
    if key in SIDES:
        if key not in _CACHE:
            _CACHE[key] = validate_map(packaged(f"map_{key}.json"), key)
        return _CACHE[key]
    path = pathlib.Path(key)
    if not path.is_file():
        raise MapError(_("map: no file {path}; give 'sun', 'moon' or the path of a map "
                         "JSON file").format(
            path=path))
    return validate_map(json_file(path, MapError, f"map {path}"), str(path))
