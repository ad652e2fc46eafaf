// Shogun Tower - sensor collar for the tower outlet.
//
// The collar hangs under the tower's outlet: cubes drop out of the tower into a funnel that
// narrows them into single file, then fall through a square chute past two IR break beams and a
// colour-sensor window, and on into the tray.
//
// Coordinates: z = 0 is the outlet lip (top face of the flange); "drop" values are distances
// BELOW the lip, where a cube's fall starts. x: across the beams, y: towards the colour sensor.
// All lengths in mm. `make hardware` renders build/collar.stl and images/collar.png;
// hardware/design.py reads the parameters below to compute the sensing geometry (README).

/* [Tower outlet] */
outlet_width = 40;        // outlet opening across (x), measure your tower
outlet_depth = 40;        // outlet opening front to back (y)
flange_margin = 8;        // flange beyond the opening on every side
flange_thickness = 3;
mount_hole_d = 3.4;       // M3 screws (or use double-sided tape and leave them empty)

/* [Chute] */
cube_size = 10;           // Shogun cubes: 10 mm
chute_width = 18;         // inner, square: > cube space diagonal (17.3) so nothing wedges,
                          // < 2 cubes (20) so cubes pass in single file
funnel_height = 30;       // from the flange down to the chute
wall = 2;                 // chute wall
chute_bottom_drop = 95;   // where the chute ends (cubes fall on into the tray)

/* [Break beams] */
beam_upper_drop = 60;     // first beam, below the lip
beam_spacing = 20;        // second beam this far below the first
beam_aperture_d = 2;      // hole at the chute face: sets the beam width
beam_pocket_d = 3.2;      // pocket for a 3 mm IR LED / receiver body
beam_boss = 8;            // thickness of the side bosses holding the beam parts
beam_aperture_len = 1.5;  // length of the aperture before the pocket

/* [Colour sensor] */
colour_window_drop = 70;  // centre of the window, below the lip (between the beams)
colour_window_w = 12;     // horizontal: sensor and its white LED side by side behind it
colour_window_h = 2;      // vertical: the slit that limits the viewed band of the cube
colour_tunnel = 8;        // depth of the slit (wall thickness there): collimates the view
colour_board_w = 20.5;    // TCS34725 board (Adafruit 1334: 20.4 x 20.3 mm)
colour_board_h = 20.5;
colour_board_recess = 1;

/* [Cable exit] */
cable_exit_d = 6;         // hole for the 7-core collar cable (strain relief with a cable tie)
cable_exit_drop = 40;     // centre of the cable lug, below the lip

$fn = 32;
eps = 0.01;

chute_top = -(flange_thickness + funnel_height);  // z where the funnel meets the chute
chute_bottom = -chute_bottom_drop;
outer = chute_width + 2 * wall;
beam_z = [-beam_upper_drop, -(beam_upper_drop + beam_spacing)];

module slab(w, d, z, h = eps) {
    translate([-w / 2, -d / 2, z]) cube([w, d, h]);
}

module body() {
    // flange around the outlet
    slab(outlet_width + 2 * flange_margin, outlet_depth + 2 * flange_margin,
         -flange_thickness, flange_thickness);
    // funnel shell
    hull() {
        slab(outlet_width + 2 * wall, outlet_depth + 2 * wall, -flange_thickness);
        slab(outer, outer, chute_top);
    }
    // chute
    slab(outer, outer, chute_bottom, chute_top - chute_bottom);
    // beam bosses on both x sides, spanning both beams
    boss_top = beam_z[0] + 6;
    boss_bot = beam_z[1] - 6;
    for (s = [-1, 1])
        translate([s * (chute_width / 2 + beam_boss / 2) - beam_boss / 2, -outer / 2, boss_bot])
            cube([beam_boss, outer, boss_top - boss_bot]);
    // colour sensor boss on +y: a pad for the board, as thick as the slit is deep
    translate([-colour_board_w / 2 - wall, chute_width / 2,
               -colour_window_drop - colour_board_h / 2 - wall])
        cube([colour_board_w + 2 * wall, colour_tunnel, colour_board_h + 2 * wall]);
    // cable lug on -y
    translate([-(cable_exit_d + 4 * wall) / 2, -chute_width / 2 - wall - cable_exit_d - 2 * wall,
               -cable_exit_drop - cable_exit_d / 2 - wall])
        cube([cable_exit_d + 4 * wall, cable_exit_d + 2 * wall + wall, cable_exit_d + 2 * wall]);
}

module cavities() {
    // the cubes' path: funnel then chute, overshooting both ends
    hull() {
        slab(outlet_width, outlet_depth, 0 + eps, eps);
        slab(outlet_width, outlet_depth, -flange_thickness);
        slab(chute_width, chute_width, chute_top);
    }
    slab(chute_width, chute_width, chute_bottom - 1, chute_top - chute_bottom + 1 + eps);
    // beams: aperture at the chute face, pocket behind it, on both sides
    for (z = beam_z) for (s = [-1, 1]) {
        x_face = s * chute_width / 2;
        translate([x_face - s, 0, z]) rotate([0, s * 90, 0])
            cylinder(d = beam_aperture_d, h = beam_aperture_len + 1 + eps);
        translate([x_face + s * beam_aperture_len, 0, z]) rotate([0, s * 90, 0])
            cylinder(d = beam_pocket_d, h = beam_boss);
    }
    // colour window: slit through the boss
    translate([-colour_window_w / 2, chute_width / 2 - 1, -colour_window_drop - colour_window_h / 2])
        cube([colour_window_w, colour_tunnel + 2, colour_window_h]);
    // recess for the sensor board on the outside of the boss
    translate([-colour_board_w / 2, chute_width / 2 + colour_tunnel - colour_board_recess,
               -colour_window_drop - colour_board_h / 2])
        cube([colour_board_w, colour_board_recess + 1, colour_board_h]);
    // cable exit: vertical hole through the lug
    translate([0, -chute_width / 2 - wall - wall - cable_exit_d / 2,
               -cable_exit_drop - cable_exit_d / 2 - wall - 1])
        cylinder(d = cable_exit_d, h = cable_exit_d + 2 * wall + 2);
    // flange mounting holes
    for (sx = [-1, 1]) for (sy = [-1, 1])
        translate([sx * (outlet_width / 2 + flange_margin / 2),
                   sy * (outlet_depth / 2 + flange_margin / 2), -flange_thickness - 1])
            cylinder(d = mount_hole_d, h = flange_thickness + 2);
}

difference() {
    body();
    cavities();
}
