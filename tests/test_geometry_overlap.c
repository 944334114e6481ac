// SPDX-License-Identifier: MIT
// Hand-made overlap cases for every pair of shape kinds, sectors of every opening, the seeds' defects, and the
// typed fast tests; each expectation is also checked against the independent reference (test_reference.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include <stdio.h>

#define DEG ( 3.14159265358979323846f / 180.0f )

enum
{
	KIND_CIRCLE,
	KIND_CAPSULE,
	KIND_AABB,
	KIND_OBB,
	KIND_POLYGON,
	KIND_ROUNDED_POLYGON,
	KIND_ROUNDED_BOX,
	KIND_SECTOR,
	KIND_COUNT
};

static const char* s_kind_names[KIND_COUNT] = { "circle",  "capsule",         "aabb",         "obb",
												"polygon", "rounded polygon", "rounded box", "sector" };

// A hexagon with its leftmost vertex (-1, 0) and rightmost vertex (1, 0).
static const vec2s s_hexagon[6] = { { { -1.0f, 0.0f } }, { { -0.5f, -1.0f } }, { { 0.5f, -1.0f } },
									{ { 1.0f, 0.0f } },  { { 0.5f, 1.0f } },   { { -0.5f, 1.0f } } };

typedef struct placed_shape
{
	kcc_shape shape;
	kcc_ref_shape ref;
	float left, right; ///< x extremes, both reached on the line y = center y (exact in float)
} placed_shape;

// Kind `kind` centred at (cx, cy), scaled by s (a power of two so every coordinate stays exact). Every kind is
// convex, contains the disc of radius 0.35 * s around its centre, and lies within 0.75 * 2 * s of it.
static placed_shape place_kind( int kind, float cx, float cy, float s )
{
	placed_shape p;
	switch ( kind )
	{
		case KIND_CIRCLE:
			p.shape = kcc_make_circle( kcc_v2( cx, cy ), s );
			p.ref = kcc_ref_circle( cx, cy, s );
			p.left = cx - s;
			p.right = cx + s;
			break;
		case KIND_CAPSULE:
			p.shape = kcc_make_capsule( kcc_v2( cx, cy - s ), kcc_v2( cx, cy + s ), 0.5f * s );
			p.ref = kcc_ref_capsule( cx, cy - s, cx, cy + s, 0.5f * s );
			p.left = cx - 0.5f * s;
			p.right = cx + 0.5f * s;
			break;
		case KIND_AABB:
			p.shape = kcc_make_aabb( kcc_v2( cx - s, cy - 0.5f * s ), kcc_v2( cx + s, cy + 0.5f * s ) );
			p.ref = kcc_ref_aabb( cx - s, cy - 0.5f * s, cx + s, cy + 0.5f * s );
			p.left = cx - s;
			p.right = cx + s;
			break;
		case KIND_OBB:
			p.shape = kcc_make_obb( kcc_v2( cx, cy ), kcc_v2( 0.75f * s, s ), 0.0f );
			p.ref = kcc_ref_obb( cx, cy, 0.75f * s, s, 0.0f );
			p.left = cx - 0.75f * s;
			p.right = cx + 0.75f * s;
			break;
		case KIND_POLYGON:
		case KIND_ROUNDED_POLYGON:
		{
			vec2s points[6];
			for ( int i = 0; i < 6; ++i )
			{
				points[i] = kcc_v2( cx + s * s_hexagon[i].x, cy + s * s_hexagon[i].y );
			}
			float radius = kind == KIND_POLYGON ? 0.0f : 0.25f * s;
			p.shape = kcc_make_polygon( points, 6, radius );
			p.ref = kcc_ref_polygon( points, 6, radius );
			p.left = cx - s - radius;
			p.right = cx + s + radius;
			break;
		}
		case KIND_ROUNDED_BOX:
		{
			kcc_shape box = kcc_make_box( kcc_v2( 0.5f * s, 0.5f * s ), 0.25f * s );
			p.shape = kcc_shape_translate( &box, kcc_v2( cx, cy ) );
			kcc_ref_shape ref = kcc_ref_box( 0.5f * s, 0.5f * s, 0.25f * s );
			p.ref = kcc_ref_transform( &ref, cx, cy, 0.0 );
			p.left = cx - 0.75f * s;
			p.right = cx + 0.75f * s;
			break;
		}
		case KIND_SECTOR:
		default:
			// apex half a radius left of the centre, opening a right angle, pointing along +x: the apex is the
			// leftmost point and (apex.x + radius, cy) the rightmost.
			p.shape = kcc_make_sector( kcc_v2( cx - 0.5f * s, cy ), kcc_v2( 1.0f, 0.0f ), s, 90.0f * DEG );
			p.ref = kcc_ref_sector( cx - 0.5f * s, cy, 1.0f, 0.0f, s, 90.0f * DEG );
			p.left = cx - 0.5f * s;
			p.right = cx + 0.5f * s;
			break;
	}
	assert_true( kcc_shape_is_valid( &p.shape ) );
	return p;
}

// B of kind j placed right of A with gap (negative: overlapping by that much along y = 0).
static placed_shape place_right_of( const placed_shape* a, int kind, float gap )
{
	placed_shape probe = place_kind( kind, 0.0f, 0.0f, 1.0f );
	float cx = a->right + gap - probe.left; // probe.left is the offset of the left extreme from the centre
	return place_kind( kind, cx, 0.0f, 1.0f );
}

static void check_pair( const placed_shape* a, const placed_shape* b, bool expected, const char* what, int i, int j,
						bool check_reference )
{
	bool ab = kcc_overlap( &a->shape, &b->shape );
	bool ba = kcc_overlap( &b->shape, &a->shape );
	if ( ab != expected || ba != expected )
	{
		fail_msg( "%s: %s vs %s: expected %d, got a-b %d, b-a %d", what, s_kind_names[i], s_kind_names[j], expected,
				  ab, ba );
	}
	if ( check_reference )
	{
		// the configuration itself is checked against the reference, so a wrong expectation cannot pass
		bool decided = false;
		bool reference = kcc_ref_overlap( &a->ref, &b->ref, &decided );
		if ( decided == false || reference != expected )
		{
			fail_msg( "%s: %s vs %s: reference disagrees with the hand-made expectation", what, s_kind_names[i],
					  s_kind_names[j] );
		}
	}
}

static void test_overlap_every_pair_separated_touching_overlapping_inside( void** state )
{
	(void)state;
	uint64_t allocations = kcc_test_allocation_count();
	for ( int i = 0; i < KIND_COUNT; ++i )
	{
		placed_shape a = place_kind( i, 0.0f, 0.0f, 1.0f );
		for ( int j = 0; j < KIND_COUNT; ++j )
		{
			placed_shape separated = place_right_of( &a, j, 0.25f );
			check_pair( &a, &separated, false, "separated by 0.25", i, j, true );

			// closed sets: the shapes share the point (a.right, 0) and nothing else
			placed_shape touching = place_right_of( &a, j, 0.0f );
			check_pair( &a, &touching, true, "touching exactly", i, j, false );

			placed_shape overlapping = place_right_of( &a, j, -0.25f );
			check_pair( &a, &overlapping, true, "overlapping by 0.25", i, j, true );

			// one inside the other: a small j (scale 1/8, within 0.19 of its centre) at a's centre (0.35 clear)
			placed_shape inside = place_kind( j, 0.0f, 0.0f, 0.125f );
			check_pair( &a, &inside, true, "inside", i, j, true );

			// just separated (1/64) and just overlapping: analytic tests and GJK must agree on the sides
			placed_shape near = place_right_of( &a, j, 1.0f / 64.0f );
			check_pair( &a, &near, false, "separated by 1/64", i, j, true );
			placed_shape deep = place_right_of( &a, j, -1.0f / 64.0f );
			check_pair( &a, &deep, true, "overlapping by 1/64", i, j, true );
		}
	}
	// no query allocates (the reference does not either)
	assert_int_equal( kcc_test_allocation_count() - allocations, 0 );
}

// The same configurations rotated (30 and 90 degrees) and moved far from the origin: same answers.
static void test_overlap_every_pair_rotated_and_translated( void** state )
{
	(void)state;
	const float angles[] = { 30.0f * DEG, 90.0f * DEG, -123.0f * DEG };
	const vec2s offsets[] = { { { 0.0f, 0.0f } }, { { 100.0f, -50.0f } } };
	for ( int i = 0; i < KIND_COUNT; ++i )
	{
		placed_shape a = place_kind( i, 0.0f, 0.0f, 1.0f );
		for ( int j = 0; j < KIND_COUNT; ++j )
		{
			placed_shape cases[4] = { place_right_of( &a, j, 0.25f ), place_right_of( &a, j, -0.25f ),
									  place_kind( j, 0.0f, 0.0f, 0.125f ), place_right_of( &a, j, 0.05f ) };
			bool expected[4] = { false, true, true, false };
			for ( int k = 0; k < 3; ++k )
			{
				for ( int o = 0; o < 2; ++o )
				{
					for ( int c = 0; c < 4; ++c )
					{
						placed_shape ta = a, tb = cases[c];
						ta.shape = kcc_shape_transform( &a.shape, offsets[o], angles[k] );
						tb.shape = kcc_shape_transform( &cases[c].shape, offsets[o], angles[k] );
						ta.ref = kcc_ref_transform( &a.ref, offsets[o].x, offsets[o].y, angles[k] );
						tb.ref = kcc_ref_transform( &cases[c].ref, offsets[o].x, offsets[o].y, angles[k] );
						assert_true( kcc_shape_is_valid( &ta.shape ) );
						assert_true( kcc_shape_is_valid( &tb.shape ) );
						check_pair( &ta, &tb, expected[c], "rotated", i, j, o == 0 && k == 0 );
					}
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Sectors of 10, 90, 179, 181, 270 and 360 degrees against circle, point, box, capsule and polygon targets.

enum
{
	TARGET_CIRCLE,
	TARGET_POINT,
	TARGET_BOX,
	TARGET_CAPSULE,
	TARGET_POLYGON,
	TARGET_COUNT
};

static const char* s_target_names[TARGET_COUNT] = { "circle", "point", "box", "capsule", "polygon" };

// A target of the given kind around p: it contains the disc of radius size / 2 and lies within size of p.
static kcc_shape make_target( int target, vec2s p, float size, float spin )
{
	switch ( target )
	{
		case TARGET_CIRCLE:
			return kcc_make_circle( p, 0.75f * size );
		case TARGET_POINT:
			return kcc_make_circle( p, 0.0f );
		case TARGET_BOX:
			return kcc_make_aabb( kcc_v2( p.x - 0.5f * size, p.y - 0.5f * size ),
								  kcc_v2( p.x + 0.5f * size, p.y + 0.5f * size ) );
		case TARGET_CAPSULE:
		{
			vec2s d = kcc_v2( 0.25f * size * cosf( spin ), 0.25f * size * sinf( spin ) );
			return kcc_make_capsule( kcc_v2( p.x - d.x, p.y - d.y ), kcc_v2( p.x + d.x, p.y + d.y ), 0.5f * size );
		}
		case TARGET_POLYGON:
		default:
		{
			// equilateral triangle of circumradius size: inradius size / 2
			vec2s points[3];
			for ( int i = 0; i < 3; ++i )
			{
				float a = spin + (float)i * 120.0f * DEG;
				points[i] = kcc_v2( p.x + size * cosf( a ), p.y + size * sinf( a ) );
			}
			return kcc_make_polygon( points, 3, 0.0f );
		}
	}
}

typedef struct sector_case
{
	const char* name;
	float angle_deg; ///< target direction relative to the sector direction; < -900: opening / 2 + offset
	float offset_deg;
	float distance;   ///< from the apex
	float size;       ///< target size (see make_target)
	const char* sized;  ///< expected overlap for the sized targets, per opening 10 90 179 181 270 360
	const char* point;  ///< expected containment of the target point itself, per opening
} sector_case;

static const float s_openings_deg[6] = { 10.0f, 90.0f, 179.0f, 181.0f, 270.0f, 360.0f };

static const sector_case s_sector_cases[] = {
	{ "straight ahead", 0.0f, 0.0f, 1.0f, 0.1f, "TTTTTT", "TTTTTT" },
	{ "ahead beyond the radius", 0.0f, 0.0f, 2.3f, 0.2f, "FFFFFF", "FFFFFF" },
	{ "right behind", 180.0f, 0.0f, 1.0f, 0.3f, "FFFFFT", "FFFFFT" },
	{ "in the notch", 180.0f, 0.0f, 0.5f, 0.2f, "FFFFFT", "FFFFFT" },
	{ "at the side", 90.0f, 0.0f, 1.0f, 0.005f, "FFFTTT", "FFFTTT" },
	{ "back diagonal", 130.0f, 0.0f, 1.0f, 0.1f, "FFFFTT", "FFFFTT" },
	{ "just outside an edge", -999.0f, 3.0f, 1.5f, 0.07f, "FFFFFT", "FFFFFT" },
	{ "outside an edge, reaching in", -999.0f, 3.0f, 1.5f, 0.2f, "TTTTTT", "FFFFFT" },
	{ "just inside an edge", -999.0f, -2.0f, 1.5f, 0.01f, "TTTTTT", "TTTTTT" },
	{ "at the apex", 0.0f, 0.0f, 0.0f, 0.05f, "TTTTTT", "TTTTTT" },
	{ "behind, reaching the apex", 180.0f, 0.0f, 0.04f, 0.1f, "TTTTTT", "FFFFFT" },
	{ "inside the opening, past the radius", -999.0f, -999.0f, 2.2f, 0.1f, "FFFFFF", "FFFFFF" },
	{ "outside an edge, far along it", -999.0f, 2.0f, 1.9f, 0.2f, "TTTTTT", "FFFFFT" },
};

static void test_sector_openings_against_every_target( void** state )
{
	(void)state;
	const float radius = 2.0f;
	const vec2s apex = { { 0.5f, -0.25f } };
	const float directions_deg[] = { 0.0f, 37.0f, -150.0f };
	int checked = 0;
	for ( int o = 0; o < 6; ++o )
	{
		float opening = s_openings_deg[o] * DEG;
		if ( o == 5 )
		{
			opening = 2.0f * 3.14159265358979323846f; // (float)2*pi, a valid angle: the full disc
		}
		for ( int d = 0; d < 3; ++d )
		{
			float phi = directions_deg[d] * DEG;
			// not normalised on purpose: make_sector normalises
			vec2s direction = kcc_v2( 3.0f * cosf( phi ), 3.0f * sinf( phi ) );
			if ( d == 0 )
			{
				direction = kcc_v2( 3.0f, 0.0f );
			}
			kcc_shape sector = kcc_make_sector( apex, direction, radius, opening );
			assert_true( kcc_shape_is_valid( &sector ) );
			kcc_ref_shape sector_ref = kcc_ref_sector( apex.x, apex.y, direction.x, direction.y, radius, opening );
			for ( size_t c = 0; c < sizeof( s_sector_cases ) / sizeof( s_sector_cases[0] ); ++c )
			{
				const sector_case* sc = &s_sector_cases[c];
				float rel = sc->angle_deg;
				if ( rel < -900.0f )
				{
					rel = 0.5f * s_openings_deg[o] + ( sc->offset_deg < -900.0f ? -0.25f * s_openings_deg[o] : sc->offset_deg );
				}
				for ( int side = -1; side <= 1; side += 2 )
				{
					float a = phi + (float)side * rel * DEG;
					vec2s p = kcc_v2( apex.x + sc->distance * cosf( a ), apex.y + sc->distance * sinf( a ) );
					if ( d == 0 && ( rel == 0.0f || rel == 180.0f ) )
					{
						// exactly on the axis (y = apex.y): the exact straight-ahead / right-behind case
						p = kcc_v2( apex.x + ( rel == 0.0f ? sc->distance : -sc->distance ), apex.y );
					}
					for ( int t = 0; t < TARGET_COUNT; ++t )
					{
						bool expected = ( t == TARGET_POINT ? sc->point : sc->sized )[o] == 'T';
						kcc_shape target = make_target( t, p, sc->size, 0.3f * (float)c );
						assert_true( kcc_shape_is_valid( &target ) );
						bool st = kcc_overlap( &sector, &target );
						bool ts = kcc_overlap( &target, &sector );
						if ( st != expected || ts != expected )
						{
							fail_msg( "sector %g deg, direction %g deg, %s (%s side %d) vs %s: expected %d, got %d / %d",
									  (double)s_openings_deg[o], (double)directions_deg[d], sc->name,
									  side < 0 ? "minus" : "plus", side, s_target_names[t], expected, st, ts );
						}
						// the table itself against the reference
						kcc_ref_shape target_ref = kcc_ref_from_shape( &target );
						bool decided = false;
						bool reference = kcc_ref_overlap( &sector_ref, &target_ref, &decided );
						if ( t == TARGET_POINT )
						{
							// the apex is on the boundary: closed set, distance 0 counts as inside
							double point_distance = kcc_ref_sdf( &sector_ref, p.x, p.y );
							decided = point_distance <= 1e-6 || point_distance >= KCC_REF_MARGIN;
							reference = point_distance <= 1e-6;
						}
						if ( decided == false || reference != expected )
						{
							fail_msg( "table error: sector %g, %s vs %s (decided %d, reference %d)",
									  (double)s_openings_deg[o], sc->name, s_target_names[t], decided, reference );
						}
						if ( t == TARGET_POINT )
						{
							if ( kcc_contains_point( &sector, p ) != expected )
							{
								fail_msg( "kcc_contains_point: sector %g deg, direction %g deg, %s: expected %d",
										  (double)s_openings_deg[o], (double)directions_deg[d], sc->name, expected );
							}
							if ( kcc_sector_contains_point( &sector.sector, p ) != expected )
							{
								fail_msg( "kcc_sector_contains_point: sector %g deg, direction %g deg, %s: expected %d",
										  (double)s_openings_deg[o], (double)directions_deg[d], sc->name, expected );
							}
						}
						if ( t == TARGET_CIRCLE || t == TARGET_POINT )
						{
							if ( kcc_circle_overlaps_sector( target.circle, &sector.sector ) != expected )
							{
								fail_msg( "kcc_circle_overlaps_sector: sector %g deg, direction %g deg, %s (%s): "
										  "expected %d",
										  (double)s_openings_deg[o], (double)directions_deg[d], sc->name,
										  s_target_names[t], expected );
							}
						}
						checked += 1;
					}
				}
			}
		}
	}
	assert_int_equal( checked, 6 * 3 * (int)( sizeof( s_sector_cases ) / sizeof( s_sector_cases[0] ) ) * 2 * TARGET_COUNT );
}

// ---------------------------------------------------------------------------------------------------------------
// The seeds' defects

// Seed 001 takes acos of dot( direction, unit( p ) ); for points on the direction ray the float dot product can
// come out a hair above 1 and acos gives NaN (the point is then "outside"). Every point on the ray is inside.
static void test_sector_points_on_the_direction_ray_are_inside( void** state )
{
	(void)state;
	const vec2s directions[] = { { { 3.0f, 4.0f } }, { { 1.0f, 1.0f } }, { { 1.0f, 3.0f } }, { { -7.0f, 0.1f } },
								 { { 0.3f, -0.9f } }, { { 1.0f, 1e-4f } } };
	const float openings[] = { 1e-3f, 10.0f * DEG, 181.0f * DEG };
	for ( size_t d = 0; d < sizeof( directions ) / sizeof( directions[0] ); ++d )
	{
		for ( size_t o = 0; o < 3; ++o )
		{
			vec2s apex = kcc_v2( 1.5f, -2.25f );
			kcc_shape sector = kcc_make_sector( apex, directions[d], 10.0f, openings[o] );
			assert_true( kcc_shape_is_valid( &sector ) );
			// the stored direction is unit (make_sector normalises)
			vec2s u = sector.sector.direction;
			assert_float_equal( u.x * u.x + u.y * u.y, 1.0f, 1e-6f );
			for ( int k = 1; k <= 400; ++k )
			{
				float t = 0.0247f * (float)k; // up to 9.88 < radius
				vec2s p = kcc_v2( apex.x + t * u.x, apex.y + t * u.y );
				if ( kcc_contains_point( &sector, p ) == false || kcc_sector_contains_point( &sector.sector, p ) == false )
				{
					fail_msg( "point %d on the direction ray (%g, %g) of a sector of %g rad is not inside", k,
							  (double)directions[d].x, (double)directions[d].y, (double)openings[o] );
				}
				kcc_shape dot = kcc_make_circle( p, 0.0f );
				assert_true( kcc_overlap( &sector, &dot ) );
			}
		}
	}
}

// Seed 001 compares the projection on the segment against |point - start| instead of the segment length, so a
// point beyond the end of a segment seems to be next to it.
static void test_point_segment_distance_clamps_to_the_segment_length( void** state )
{
	(void)state;
	// segment (0,0)-(1,0), point (3, 0.1): nearest is the end (1, 0), distance^2 = 4 + 0.01
	assert_float_equal( kcc_point_segment_distance_squared( kcc_v2( 3.0f, 0.1f ), kcc_v2( 0.0f, 0.0f ),
															kcc_v2( 1.0f, 0.0f ) ),
						4.01f, 1e-5f );
	assert_float_equal( kcc_point_segment_distance_squared( kcc_v2( -2.0f, 0.1f ), kcc_v2( 0.0f, 0.0f ),
															kcc_v2( 1.0f, 0.0f ) ),
						4.01f, 1e-5f );
	assert_float_equal( kcc_point_segment_distance_squared( kcc_v2( 0.5f, 0.25f ), kcc_v2( 0.0f, 0.0f ),
															kcc_v2( 1.0f, 0.0f ) ),
						0.0625f, 1e-7f );
	// degenerate segment: distance to the point
	assert_float_equal( kcc_point_segment_distance_squared( kcc_v2( 3.0f, 4.0f ), kcc_v2( 0.0f, 0.0f ),
															kcc_v2( 0.0f, 0.0f ) ),
						25.0f, 1e-5f );
	// the capsule and the sector edge built on it
	kcc_shape capsule = kcc_make_capsule( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 0.2f );
	kcc_shape far_circle = kcc_make_circle( kcc_v2( 3.0f, 0.1f ), 0.1f );
	assert_false( kcc_overlap( &capsule, &far_circle ) );
	assert_false( kcc_overlap( &far_circle, &capsule ) );
	assert_false( kcc_circle_overlaps_capsule( far_circle.circle, capsule.capsule ) );
	// sector edges are radius long, not unit long (seed 001): a circle just outside the edge, 4 units out
	kcc_shape sector = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 5.0f, 90.0f * DEG );
	float e = 45.0f * DEG, n = 135.0f * DEG;
	vec2s p = kcc_v2( 4.0f * cosf( e ) + 0.1f * cosf( n ), 4.0f * sinf( e ) + 0.1f * sinf( n ) );
	kcc_shape near_edge = kcc_make_circle( p, 0.2f );
	assert_true( kcc_overlap( &sector, &near_edge ) );
	assert_true( kcc_circle_overlaps_sector( near_edge.circle, &sector.sector ) );
	kcc_shape off_edge = kcc_make_circle( p, 0.05f );
	assert_false( kcc_overlap( &sector, &off_edge ) );
	assert_false( kcc_circle_overlaps_sector( off_edge.circle, &sector.sector ) );
}

// Seed 003 reads box extents from world axes, which is wrong once the box turns.
static void test_obb_rotated_30_and_90_degrees( void** state )
{
	(void)state;
	// half extents (2, 0.5) turned 90 degrees: spans x in [-0.5, 0.5], y in [-2, 2]
	kcc_shape obb90 = kcc_make_obb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 2.0f, 0.5f ), 90.0f * DEG );
	assert_true( kcc_contains_point( &obb90, kcc_v2( 0.0f, 1.9f ) ) );
	assert_false( kcc_contains_point( &obb90, kcc_v2( 1.9f, 0.0f ) ) );
	kcc_shape c1 = kcc_make_circle( kcc_v2( 0.0f, 2.05f ), 0.1f );
	kcc_shape c2 = kcc_make_circle( kcc_v2( 1.8f, 0.0f ), 0.1f );
	assert_true( kcc_overlap( &obb90, &c1 ) );
	assert_false( kcc_overlap( &obb90, &c2 ) );
	assert_true( kcc_circle_overlaps_obb( c1.circle, obb90.obb ) );
	assert_false( kcc_circle_overlaps_obb( c2.circle, obb90.obb ) );
	kcc_shape wide = kcc_make_aabb( kcc_v2( 0.7f, -0.1f ), kcc_v2( 3.0f, 0.1f ) );
	assert_false( kcc_overlap( &obb90, &wide ) );
	kcc_shape tall = kcc_make_aabb( kcc_v2( -0.1f, 1.8f ), kcc_v2( 0.1f, 3.0f ) );
	assert_true( kcc_overlap( &obb90, &tall ) );

	// 30 degrees, centre (1, 2): local (1.9, 0.4) is inside, local (0.2, 0.6) is outside
	float c = cosf( 30.0f * DEG ), s = sinf( 30.0f * DEG );
	kcc_shape obb30 = kcc_make_obb( kcc_v2( 1.0f, 2.0f ), kcc_v2( 2.0f, 0.5f ), 30.0f * DEG );
	vec2s inside = kcc_v2( 1.0f + 1.9f * c - 0.4f * s, 2.0f + 1.9f * s + 0.4f * c );
	vec2s outside = kcc_v2( 1.0f + 0.2f * c - 0.6f * s, 2.0f + 0.2f * s + 0.6f * c );
	assert_true( kcc_contains_point( &obb30, inside ) );
	assert_false( kcc_contains_point( &obb30, outside ) );
	// world-axis extents would say the point (2.9, 2.45) is inside: it is not (local (1.87, -0.56))
	assert_false( kcc_contains_point( &obb30, kcc_v2( 1.0f + 1.9f * c + 0.56f * s, 2.0f + 1.9f * s - 0.56f * c ) ) );
	kcc_shape near = kcc_make_circle( outside, 0.05f );
	kcc_shape reach = kcc_make_circle( outside, 0.15f );
	assert_false( kcc_overlap( &obb30, &near ) );
	assert_true( kcc_overlap( &obb30, &reach ) );
	assert_false( kcc_circle_overlaps_obb( near.circle, obb30.obb ) );
	assert_true( kcc_circle_overlaps_obb( reach.circle, obb30.obb ) );
}

// make_sector normalises: a sector built from a long or a tiny direction answers as the unit one.
static void test_sector_direction_normalised_at_make_time( void** state )
{
	(void)state;
	kcc_shape unit = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.6f, 0.8f ), 2.0f, 60.0f * DEG );
	kcc_shape longer = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 60.0f, 80.0f ), 2.0f, 60.0f * DEG );
	kcc_shape tiny = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0006f, 0.0008f ), 2.0f, 60.0f * DEG );
	assert_true( kcc_shape_is_valid( &longer ) );
	assert_true( kcc_shape_is_valid( &tiny ) );
	assert_float_equal( longer.sector.direction.x, 0.6f, 1e-6f );
	assert_float_equal( longer.sector.direction.y, 0.8f, 1e-6f );
	assert_float_equal( tiny.sector.direction.x, 0.6f, 1e-6f );
	assert_float_equal( tiny.sector.direction.y, 0.8f, 1e-6f );
	kcc_ref_rng rng = { 7 };
	kcc_ref_shape ref = kcc_ref_sector( 0.0f, 0.0f, 0.6f, 0.8f, 2.0f, 60.0f * DEG );
	for ( int i = 0; i < 2000; ++i )
	{
		vec2s p = kcc_v2( kcc_ref_uniform( &rng, -2.5f, 2.5f ), kcc_ref_uniform( &rng, -2.5f, 2.5f ) );
		float r = kcc_ref_uniform( &rng, 0.0f, 0.3f );
		kcc_shape c = kcc_make_circle( p, r );
		double d = kcc_ref_sdf( &ref, p.x, p.y ) - r;
		if ( fabs( d ) < 1e-4 )
		{
			continue;
		}
		bool expected = d <= 0.0;
		assert_int_equal( kcc_overlap( &unit, &c ), expected );
		assert_int_equal( kcc_overlap( &longer, &c ), expected );
		assert_int_equal( kcc_overlap( &tiny, &c ), expected );
		assert_int_equal( kcc_circle_overlaps_sector( c.circle, &longer.sector ), expected );
		assert_int_equal( kcc_circle_overlaps_sector( c.circle, &tiny.sector ), expected );
	}
}

// A capsule with a == b is a circle, against every kind.
static void test_degenerate_capsule_behaves_as_a_circle( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 11 };
	for ( int j = 0; j < KIND_COUNT; ++j )
	{
		placed_shape other = place_kind( j, 0.0f, 0.0f, 1.0f );
		for ( int i = 0; i < 300; ++i )
		{
			vec2s p = kcc_v2( kcc_ref_uniform( &rng, -2.5f, 2.5f ), kcc_ref_uniform( &rng, -2.5f, 2.5f ) );
			float r = kcc_ref_uniform( &rng, 0.0f, 0.5f );
			kcc_shape capsule = kcc_make_capsule( p, p, r );
			kcc_shape circle = kcc_make_circle( p, r );
			assert_true( kcc_shape_is_valid( &capsule ) );
			double d = kcc_ref_sdf( &other.ref, p.x, p.y ) - r;
			bool expected = d <= 0.0;
			bool got_circle = kcc_overlap( &circle, &other.shape );
			bool got_capsule = kcc_overlap( &capsule, &other.shape );
			bool got_reverse = kcc_overlap( &other.shape, &capsule );
			if ( fabs( d ) < 1e-4 )
			{
				assert_int_equal( got_capsule, got_circle );
				continue;
			}
			if ( got_capsule != expected || got_reverse != expected || got_circle != expected )
			{
				fail_msg( "point capsule (%g, %g) r %g vs %s: expected %d, capsule %d / %d, circle %d", (double)p.x,
						  (double)p.y, (double)r, s_kind_names[j], expected, got_capsule, got_reverse, got_circle );
			}
			assert_int_equal( kcc_contains_point( &capsule, p ), true );
			assert_int_equal( kcc_circle_overlaps_capsule( kcc_make_circle( kcc_v2( p.x + r + 0.4f, p.y ), 0.5f ).circle,
														   capsule.capsule ),
							  true );
		}
	}
}

// Clockwise input, duplicate and collinear points: the hull is the same polygon, counter-clockwise.
static void test_polygon_clockwise_duplicate_and_collinear_points( void** state )
{
	(void)state;
	// square (0,0)-(2,2) given clockwise with a duplicate corner and collinear mid-edge points
	const vec2s messy[] = { { { 0.0f, 0.0f } }, { { 0.0f, 1.0f } }, { { 0.0f, 2.0f } }, { { 1.0f, 2.0f } },
							{ { 2.0f, 2.0f } }, { { 2.0f, 2.0f } }, { { 2.0f, 0.5f } }, { { 2.0f, 0.0f } },
							{ { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 1.0f, 1.0f } } };
	const vec2s clean[] = { { { 0.0f, 0.0f } }, { { 2.0f, 0.0f } }, { { 2.0f, 2.0f } }, { { 0.0f, 2.0f } } };
	for ( int rounded = 0; rounded < 2; ++rounded )
	{
		float radius = rounded ? 0.25f : 0.0f;
		kcc_shape a = kcc_make_polygon( messy, 11, radius );
		kcc_shape b = kcc_make_polygon( clean, 4, radius );
		assert_true( kcc_shape_is_valid( &a ) );
		assert_int_equal( a.type, KCC_SHAPE_POLYGON );
		assert_int_equal( a.polygon.count, 4 );
		assert_float_equal( a.polygon.radius, radius, 0.0f );
		// counter-clockwise, every input corner present, outward unit normals
		double area2 = 0.0;
		for ( int i = 0; i < 4; ++i )
		{
			vec2s v = a.polygon.vertices[i], w = a.polygon.vertices[( i + 1 ) % 4];
			area2 += (double)v.x * w.y - (double)w.x * v.y;
			bool corner = false;
			for ( int k = 0; k < 4; ++k )
			{
				corner = corner || ( v.x == clean[k].x && v.y == clean[k].y );
			}
			assert_true( corner );
			vec2s n = a.polygon.normals[i];
			assert_float_equal( n.x * n.x + n.y * n.y, 1.0f, 1e-6f );
			assert_float_equal( n.x * ( w.x - v.x ) + n.y * ( w.y - v.y ), 0.0f, 1e-6f );
			assert_true( n.x * ( 1.0f - v.x ) + n.y * ( 1.0f - v.y ) < 0.0f ); // the centre is behind every edge
		}
		assert_true( area2 > 0.0 );
		assert_float_equal( a.polygon.centroid.x, 1.0f, 1e-6f );
		assert_float_equal( a.polygon.centroid.y, 1.0f, 1e-6f );
		kcc_ref_rng rng = { 5 };
		kcc_ref_shape ref = kcc_ref_polygon( clean, 4, radius );
		for ( int i = 0; i < 3000; ++i )
		{
			vec2s p = kcc_v2( kcc_ref_uniform( &rng, -1.0f, 3.0f ), kcc_ref_uniform( &rng, -1.0f, 3.0f ) );
			float r = kcc_ref_uniform( &rng, 0.0f, 0.4f );
			kcc_shape c = kcc_make_circle( p, r );
			double d = kcc_ref_sdf( &ref, p.x, p.y ) - r;
			if ( fabs( d ) < 1e-4 )
			{
				continue;
			}
			assert_int_equal( kcc_overlap( &a, &c ), d <= 0.0 );
			assert_int_equal( kcc_overlap( &c, &a ), d <= 0.0 );
			assert_int_equal( kcc_overlap( &b, &c ), d <= 0.0 );
			assert_int_equal( kcc_circle_overlaps_polygon( c.circle, &a.polygon ), d <= 0.0 );
		}
	}
	// a clockwise hexagon: same hull as the counter-clockwise one
	vec2s reversed[6];
	for ( int i = 0; i < 6; ++i )
	{
		reversed[i] = s_hexagon[5 - i];
	}
	kcc_shape cw = kcc_make_polygon( reversed, 6, 0.0f );
	assert_true( kcc_shape_is_valid( &cw ) );
	assert_int_equal( cw.polygon.count, 6 );
	assert_true( kcc_contains_point( &cw, kcc_v2( 0.0f, 0.0f ) ) );
	assert_true( kcc_contains_point( &cw, kcc_v2( 0.9f, 0.05f ) ) );
	assert_false( kcc_contains_point( &cw, kcc_v2( 0.9f, 0.5f ) ) );
	// 8 points on a circle plus points inside them: a 8-vertex hull (the maximum) is valid
	vec2s cloud[20];
	for ( int i = 0; i < 8; ++i )
	{
		cloud[i] = kcc_v2( 2.0f * cosf( (float)i * 45.0f * DEG ), 2.0f * sinf( (float)i * 45.0f * DEG ) );
	}
	for ( int i = 8; i < 20; ++i )
	{
		cloud[i] = kcc_v2( 0.1f * (float)( i - 14 ), 0.05f * (float)( i % 3 ) );
	}
	kcc_shape octagon = kcc_make_polygon( cloud, 20, 0.0f );
	assert_true( kcc_shape_is_valid( &octagon ) );
	assert_int_equal( octagon.polygon.count, 8 );
}

// ---------------------------------------------------------------------------------------------------------------
// kcc_contains_point per kind, and the typed fast tests, against the reference

static void test_contains_point_every_kind_matches_reference( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 99 };
	int checked = 0, skipped = 0;
	for ( int k = 0; k < KIND_COUNT; ++k )
	{
		placed_shape base = place_kind( k, 0.0f, 0.0f, 1.0f );
		for ( int variant = 0; variant < 4; ++variant )
		{
			float angle = (float)variant * 71.0f * DEG;
			vec2s offset = kcc_v2( (float)variant * 3.5f, -(float)variant * 1.25f );
			kcc_shape s = kcc_shape_transform( &base.shape, offset, angle );
			kcc_ref_shape ref = kcc_ref_transform( &base.ref, offset.x, offset.y, angle );
			assert_true( kcc_shape_is_valid( &s ) );
			for ( int i = 0; i < 2000; ++i )
			{
				vec2s p = kcc_v2( offset.x + kcc_ref_uniform( &rng, -2.0f, 2.0f ),
								  offset.y + kcc_ref_uniform( &rng, -2.0f, 2.0f ) );
				double d = kcc_ref_sdf( &ref, p.x, p.y );
				if ( fabs( d ) < 1e-4 )
				{
					skipped += 1;
					continue;
				}
				if ( kcc_contains_point( &s, p ) != ( d <= 0.0 ) )
				{
					fail_msg( "kcc_contains_point: %s variant %d, point (%g, %g): reference distance %g",
							  s_kind_names[k], variant, (double)p.x, (double)p.y, d );
				}
				checked += 1;
			}
		}
	}
	assert_true( skipped * 100 < checked );
}

static void test_typed_fast_tests_match_reference( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 1234 };
	int checked = 0, skipped = 0;
	for ( int i = 0; i < 20000; ++i )
	{
		vec2s p = kcc_v2( kcc_ref_uniform( &rng, -3.0f, 3.0f ), kcc_ref_uniform( &rng, -3.0f, 3.0f ) );
		float r = i % 5 == 0 ? 0.0f : kcc_ref_uniform( &rng, 0.0f, 1.0f );
		kcc_circle circle = { p, r };
		// a shape of each kind with random parameters
		kcc_ref_shape refs[6];
		bool got[6];
		vec2s c0 = kcc_v2( kcc_ref_uniform( &rng, -1.0f, 1.0f ), kcc_ref_uniform( &rng, -1.0f, 1.0f ) );
		vec2s c1 = kcc_v2( kcc_ref_uniform( &rng, -1.0f, 1.0f ), kcc_ref_uniform( &rng, -1.0f, 1.0f ) );
		float rr = kcc_ref_uniform( &rng, 0.0f, 1.0f );
		float angle = kcc_ref_uniform( &rng, -3.2f, 3.2f );
		float opening = kcc_ref_uniform( &rng, 0.01f, 6.2831855f );
		vec2s h = kcc_v2( kcc_ref_uniform( &rng, 0.0f, 1.5f ), kcc_ref_uniform( &rng, 0.0f, 1.5f ) );

		kcc_circle other = { c0, rr };
		refs[0] = kcc_ref_circle( c0.x, c0.y, rr );
		got[0] = kcc_circle_overlaps_circle( circle, other );

		kcc_capsule capsule = { c0, c1, rr };
		refs[1] = kcc_ref_capsule( c0.x, c0.y, c1.x, c1.y, rr );
		got[1] = kcc_circle_overlaps_capsule( circle, capsule );

		kcc_aabb box = { kcc_v2( c0.x - h.x, c0.y - h.y ), kcc_v2( c0.x + h.x, c0.y + h.y ) };
		refs[2] = kcc_ref_aabb( box.min.x, box.min.y, box.max.x, box.max.y );
		got[2] = kcc_circle_overlaps_aabb( circle, box );

		kcc_shape obb = kcc_make_obb( c0, h, angle );
		refs[3] = kcc_ref_obb( c0.x, c0.y, h.x, h.y, angle );
		got[3] = kcc_circle_overlaps_obb( circle, obb.obb );

		kcc_shape sector = kcc_make_sector( c0, kcc_v2( cosf( angle ), sinf( angle ) ), rr + 0.1f, opening );
		refs[4] = kcc_ref_sector( c0.x, c0.y, cosf( angle ), sinf( angle ), rr + 0.1f, opening );
		got[4] = kcc_circle_overlaps_sector( circle, &sector.sector );

		vec2s points[5];
		for ( int k = 0; k < 5; ++k )
		{
			points[k] = kcc_v2( c0.x + kcc_ref_uniform( &rng, -1.0f, 1.0f ), c0.y + kcc_ref_uniform( &rng, -1.0f, 1.0f ) );
		}
		refs[5] = kcc_ref_polygon( points, 5, rr * 0.3f );
		kcc_shape polygon = kcc_make_polygon( points, 5, rr * 0.3f );
		got[5] = refs[5].count >= 3 && kcc_shape_is_valid( &polygon ) ? kcc_circle_overlaps_polygon( circle, &polygon.polygon )
																	   : false;
		for ( int k = 0; k < 6; ++k )
		{
			if ( k == 5 && ( refs[5].count < 3 || kcc_shape_is_valid( &polygon ) == false ) )
			{
				continue;
			}
			// a circle against a shape: the exact separation is sdf( centre ) - radius
			double d = kcc_ref_sdf( &refs[k], p.x, p.y ) - r;
			if ( fabs( d ) < 1e-4 )
			{
				skipped += 1;
				continue;
			}
			if ( got[k] != ( d <= 0.0 ) )
			{
				fail_msg( "typed test %d: circle (%g, %g) r %g: got %d, reference distance %g", k, (double)p.x,
						  (double)p.y, (double)r, got[k], d );
			}
			checked += 1;
		}
		if ( r == 0.0f && fabs( kcc_ref_sdf( &refs[4], p.x, p.y ) ) >= 1e-4 )
		{
			assert_int_equal( kcc_sector_contains_point( &sector.sector, p ), kcc_ref_sdf( &refs[4], p.x, p.y ) <= 0.0 );
		}
		// point-segment distance against the reference
		double ds = kcc_ref_segment_distance( p.x, p.y, c0.x, c0.y, c1.x, c1.y );
		assert_float_equal( kcc_point_segment_distance_squared( p, c0, c1 ), ds * ds, 1e-5 * ( 1.0 + ds * ds ) );
		// rect vs rect: seed 002's corner + size
		float ax = c0.x, ay = c0.y, aw = h.x, ah = h.y, bx = c1.x, by = c1.y, bw = rr, bh = 2.0f * rr;
		bool rect_expected = ax <= bx + bw && bx <= ax + aw && ay <= by + bh && by <= ay + ah;
		kcc_ref_shape ra = kcc_ref_aabb( ax, ay, ax + aw, ay + ah ), rb = kcc_ref_aabb( bx, by, bx + bw, by + bh );
		bool decided = false;
		bool rect_reference = kcc_ref_overlap( &ra, &rb, &decided );
		if ( decided )
		{
			assert_int_equal( rect_reference, rect_expected );
			assert_int_equal( kcc_rect_overlaps_rect( ax, ay, aw, ah, bx, by, bw, bh ), rect_reference );
			kcc_shape rect_a = kcc_make_rect( ax, ay, aw, ah ), rect_b = kcc_make_rect( bx, by, bw, bh );
			assert_int_equal( kcc_overlap( &rect_a, &rect_b ), rect_reference );
		}
	}
	assert_true( skipped * 100 < checked );
	// exact touching: closed sets
	kcc_circle unit = { kcc_v2( 0.0f, 0.0f ), 1.0f };
	assert_true( kcc_circle_overlaps_circle( unit, ( kcc_circle ){ kcc_v2( 2.0f, 0.0f ), 1.0f } ) );
	assert_true( kcc_circle_overlaps_aabb( unit, ( kcc_aabb ){ kcc_v2( 1.0f, -1.0f ), kcc_v2( 2.0f, 1.0f ) } ) );
	assert_true( kcc_circle_overlaps_capsule( unit, ( kcc_capsule ){ kcc_v2( 1.5f, 3.0f ), kcc_v2( 1.5f, -3.0f ), 0.5f } ) );
	assert_true( kcc_rect_overlaps_rect( 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f ) );
	assert_false( kcc_rect_overlaps_rect( 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.125f, 1.0f, 1.0f ) );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_overlap_every_pair_separated_touching_overlapping_inside ),
		cmocka_unit_test( test_overlap_every_pair_rotated_and_translated ),
		cmocka_unit_test( test_sector_openings_against_every_target ),
		cmocka_unit_test( test_sector_points_on_the_direction_ray_are_inside ),
		cmocka_unit_test( test_point_segment_distance_clamps_to_the_segment_length ),
		cmocka_unit_test( test_obb_rotated_30_and_90_degrees ),
		cmocka_unit_test( test_sector_direction_normalised_at_make_time ),
		cmocka_unit_test( test_degenerate_capsule_behaves_as_a_circle ),
		cmocka_unit_test( test_polygon_clockwise_duplicate_and_collinear_points ),
		cmocka_unit_test( test_contains_point_every_kind_matches_reference ),
		cmocka_unit_test( test_typed_fast_tests_match_reference ),
	};
	return cmocka_run_group_tests_name( "geometry_overlap", tests, NULL, NULL );
}
