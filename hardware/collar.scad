// Shogun Tower - sensor collar for the tower outlet.
//
// Cubes leave the tower and fall through a square chute past two IR break beams and a
// colour-sensor window, and on into the tray. Two variants, chosen by geometry.json's
// exit_direction:
//   down: the tower lets the cubes out downwards; a funnel under the outlet narrows them into
//         the chute. The collar's flange lies on the stand's top, the tower stands on it.
//   side: the outlet is at the tower's foot; a 45-degree ramp takes the cubes from the outlet
//         over the chute. The collar hangs through a cut-out in the stand's top, its flange on
//         the top, the tower beside it with its outlet against the ramp's mouth.
//
// Every number comes from collar_params.scad, which hardware/collar.py generates from
// hardware/geometry.json (the one source of the outlet's geometry): never set one here.
// Coordinates: z = 0 is the fall start (the outlet lip, or the ramp's lower end); x: across
// the beams (the side ramp comes from -x); y: towards the colour sensor (+y). mm.
// Print upside down (the top face on the bed): every overhang is 45 degrees or steeper.

include <collar_params.scad>

$fn = 32;
eps = 0.01;

outer = chute_width + 2 * wall;
beam_z = [-beam_upper_drop, -(beam_upper_drop + beam_spacing)];
seat_gap = fit_clearance + liner_thickness;          // around a beam body: print fit + foil
seat_w = beam_body_width + 2 * seat_gap;              // along y
seat_h = beam_body_height + 2 * seat_gap;             // along z
lens_d = beam_lens_d + 2 * seat_gap;
beam_boss = beam_aperture_len + beam_lens_len + beam_seat_depth;  // beyond the chute face
board_w = colour_board_w + 2 * fit_clearance;
board_h = colour_board_h + 2 * fit_clearance;
colour_boss = colour_slit_depth + colour_board_recess;            // beyond the chute face
chute_top = exit_side ? 0 : -(flange_thickness + funnel_height);
x_in = -(chute_width / 2 + ramp_run);                 // side: the ramp's mouth at the outlet
rim = exit_side ? ramp_drop + outlet_height : 0;      // top face (on the print bed)

echo(collar_echo = [exit_side, beam_z[0], beam_z[1], -colour_window_drop, colour_window_h,
                    colour_slit_depth, chute_width, -chute_bottom_drop]);

// A thin slab in the plane y of an opening [x0, x1, z0, z1] across the colour wall.
module opening(r, y) {
    translate([r[0], y, r[2]]) cube([r[1] - r[0], eps, r[3] - r[2]]);
}

module slab(w, d, z, h = eps, x = 0) {
    translate([x - w / 2, -d / 2, z]) cube([w, d, h]);
}

// A box standing out of the chute along +x, -x, +y or -y (dir), its top chamfered at 45
// degrees down to the chute, so that printed upside down it needs no support.
module boss(dir, along, across, z0, z1, start = chute_width / 2) {
    rot = dir == "+x" ? 0 : dir == "-x" ? 180 : dir == "+y" ? 90 : 270;
    rotate([0, 0, rot]) hull() {
        translate([start, -across / 2, z0]) cube([along, across, z1 - z0]);
        translate([start, -across / 2, z0]) cube([eps, across, z1 - z0 + along]);
    }
}

module sensing_body() {
    slab(outer, outer, -chute_bottom_drop, chute_bottom_drop + chute_top);
    for (d = ["+x", "-x"])
        boss(d, beam_boss, max(outer, seat_w + 2 * wall),
             beam_z[1] - seat_h / 2 - wall, beam_z[0] + seat_h / 2 + wall);
    boss("+y", colour_boss, board_w + 2 * wall,
         -colour_window_drop - board_h / 2 - wall, -colour_window_drop + board_h / 2 + wall);
    boss("-y", wall + cable_exit_d + 2 * wall, cable_exit_d + 4 * wall,
         -cable_exit_drop - cable_exit_d / 2 - wall, -cable_exit_drop + cable_exit_d / 2 + wall);
}

module sensing_cavities() {
    slab(chute_width, chute_width, -chute_bottom_drop - 1, chute_bottom_drop + chute_top + 1 + eps);
    // beams: aperture at the chute face, lens pocket, then the seat of the body (lined with
    // foil tape: black PLA passes infrared), open to the outside for the leads
    for (z = beam_z) for (s = [-1, 1]) {
        face = s * chute_width / 2;
        translate([face - s, 0, z]) rotate([0, s * 90, 0])
            cylinder(d = beam_aperture_d, h = beam_aperture_len + 1 + eps);
        translate([face + s * beam_aperture_len, 0, z]) rotate([0, s * 90, 0])
            cylinder(d = lens_d, h = beam_lens_len + eps);
        seat_x = face + s * (beam_aperture_len + beam_lens_len);
        translate([s > 0 ? seat_x : seat_x - beam_seat_depth - 1, -seat_w / 2, z - seat_h / 2])
            cube([beam_seat_depth + 1, seat_w, seat_h]);
    }
    // colour: the sensor's channel and the LED's (leaning towards the sensor's view), a
    // divider between them, both ending in one pocket whose mouth opens into the chute and
    // whose floor is chamfered at 45 degrees (hardware/optics.py traces these openings)
    face = chute_width / 2;
    translate([0, 0, -colour_window_drop]) {
        hull() {
            opening(colour_sensor, face + colour_pocket_depth);
            opening(colour_sensor, face + colour_slit_depth + 1);
        }
        hull() {
            opening(colour_led_front, face + colour_pocket_depth);
            opening(colour_led_rear, face + colour_slit_depth);
        }
        hull() {
            opening(colour_led_rear, face + colour_slit_depth);
            opening(colour_led_rear, face + colour_slit_depth + 1);
        }
        hull() {
            opening(colour_pocket_back, face + colour_pocket_depth);
            opening(colour_mouth, face);
        }
        hull() {
            opening(colour_mouth, face);
            opening(colour_mouth, face - 1);
        }
    }
    // the board's recess, outside the slit
    translate([-board_w / 2, chute_width / 2 + colour_slit_depth, -colour_window_drop - board_h / 2])
        cube([board_w, colour_board_recess + 1, board_h]);
    // cable exit: vertical hole through the lug
    translate([0, -chute_width / 2 - wall - wall - cable_exit_d / 2,
               -cable_exit_drop - cable_exit_d / 2 - wall - 1])
        cylinder(d = cable_exit_d, h = cable_exit_d + 2 * wall + 2);
}

// An M3 countersunk screw from above, through the flange (its top at z_top) and the stand.
module screw_hole(x, y, z_top, clear_above = 0) {
    translate([x, y, z_top - flange_thickness - 1])
        cylinder(d = mount_hole_d, h = flange_thickness + 2);
    translate([x, y, z_top - (countersink_d - mount_hole_d) / 2])
        cylinder(d1 = mount_hole_d, d2 = countersink_d, h = (countersink_d - mount_hole_d) / 2 + eps);
    if (clear_above > 0)
        translate([x, y, z_top]) cylinder(d = countersink_d, h = clear_above);
}

// ---- downward outlet: flange and funnel ------------------------------------------------------
// The flange covers the stand's cut-out (stand_hole: everything below it passes through) with
// flange_margin to spare on every side for the screws.
module down_body() {
    translate([stand_hole[0] - flange_margin, stand_hole[2] - flange_margin, -flange_thickness])
        cube([stand_hole[1] - stand_hole[0] + 2 * flange_margin,
              stand_hole[3] - stand_hole[2] + 2 * flange_margin, flange_thickness]);
    hull() {
        slab(outlet_width + 2 * wall, outlet_height + 2 * wall, -flange_thickness);
        slab(outer, outer, chute_top);
    }
}

module down_cavities() {
    hull() {
        slab(outlet_width, outlet_height, 0 + eps, eps);
        slab(outlet_width, outlet_height, -flange_thickness);
        slab(chute_width, chute_width, chute_top);
    }
    for (x = [stand_hole[0] - flange_margin / 2, stand_hole[1] + flange_margin / 2])
        for (y = [stand_hole[2] - flange_margin / 2, stand_hole[3] + flange_margin / 2])
            screw_hole(x, y, 0);
}

// ---- side outlet: ramp, walls, flange on the stand's top -------------------------------------
flange_top = stand_top_z + flange_thickness;
x_far = stand_hole[1] + flange_margin;
y_lo = stand_hole[2] - flange_margin;
y_hi = stand_hole[3] + flange_margin;
// the flange's gusset rises at 45 degrees from its edge to the ramp's walls (printed upside
// down it is an overhang no shallower than 45 degrees): as high as its widest step
gusset = max(x_far - outer / 2, y_hi - (outlet_width / 2 + wall), -(outlet_width / 2 + wall) - y_lo);

module ramp_shell(grow, below) {
    // the ramp's channel (grow = 0: open at the top and at the mouth) or its outside
    // (grow = wall; 'below' lowers its underside so the floor is a wall thick)
    over = grow > 0 ? 0 : 1;
    hull() {
        translate([x_in, -outlet_width / 2 - grow, ramp_drop - below])
            cube([eps, outlet_width + 2 * grow, rim - ramp_drop + below + over]);
        translate([-chute_width / 2 - grow, -chute_width / 2 - grow, -below])
            cube([chute_width + 2 * grow, chute_width + 2 * grow, rim + below + over]);
    }
    if (grow == 0)
        translate([x_in - 1, -outlet_width / 2, ramp_drop])
            cube([1 + eps, outlet_width, rim - ramp_drop + 1]);
}

module side_body() {
    ramp_shell(wall, wall * sqrt(2));
    // the flange on the stand's top: open towards the tower (-x), rising at 45 degrees (or
    // steeper) from its edges up to the walls
    hull() {
        translate([x_in, y_lo, stand_top_z]) cube([x_far - x_in, y_hi - y_lo, flange_thickness]);
        intersection() {  // the walls' own outline, up to the gusset's top: no ledge beside them
            ramp_shell(wall, wall * sqrt(2));
            translate([x_in - 1, y_lo - 1, flange_top]) cube([x_far - x_in + 2, y_hi - y_lo + 2, gusset]);
        }
    }
}

// The exit's guide: above the fall start the far wall curves over, an arc about the ramp's
// lower edge at chute_width from it, into a roof parallel to the ramp at chute_width from it.
// The way from the outlet into the chute is then nowhere wider than the chute: no cube flies
// over the ramp, and two cannot lie side by side where the ramp meets the chute, where two
// touching cubes could wedge between the ramp and a straight far wall (hardware/flow.py).
// Printed upside down the roof hangs at the ramp's angle and the arc less steeply.
module passage2d(r) {  // in the xz plane, about the ramp's lower edge
    n = [sin(ramp_angle), cos(ramp_angle)];           // the ramp's normal, up and on
    up = [-cos(ramp_angle), sin(ramp_angle)];         // up the ramp, towards the outlet
    far = 4 * (ramp_run + outlet_height + chute_width);
    circle(r = r, $fn = 128);
    polygon([[0, 0], r * n, r * n + far * up, far * up]);
}

module guide() {
    intersection() {
        ramp_shell(0, 0);
        translate([-chute_width / 2, 0, 0]) rotate([90, 0, 0])
            linear_extrude(height = 2 * outlet_width + 4 * wall, center = true)
                difference() { passage2d(chute_width + wall); passage2d(chute_width); }
    }
}

module side_cavities() {
    ramp_shell(0, 0);
    for (x = [x_in + flange_margin / 2, x_far - flange_margin / 2])
        for (y = [y_lo + flange_margin / 2, y_hi - flange_margin / 2])
            screw_hole(x, y, flange_top, gusset + 1);
}

module collar() {
    difference() {
        union() {
            sensing_body();
            if (exit_side) side_body(); else down_body();
        }
        sensing_cavities();
        if (exit_side) side_cavities(); else down_cavities();
    }
    if (exit_side) guide();
}

// openscad -D section=true: only the half beyond y = 0, to show the cubes' way through the
// ramp, the guide, the chute and the beams (images/collar_section.png). Never printed.
section = false;
if (section)
    difference() {
        collar();
        translate([-500, -1000, -500]) cube([1000, 1000, 1000]);
    }
else
    collar();
