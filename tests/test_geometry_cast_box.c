// SPDX-License-Identifier: MIT
// The box cast (kcc_cast_box_trusted: a circle's or an upright capsule's core against a box with sides on the axes,
// the controller's box tiles) answers as the general cast on the box's polygon, bit for bit, wherever it decides:
// starts near a corner (within every offset line, beyond two sides), and casts along an axis the core lies along
// (the ground probe: resting on a top face, over a corner, beside a side, moving away), near the frame's origin and
// far from it. The polygon is built from each of its four corners in turn, with the normals the controller's
// conversion gives a box tile.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../geometry/internal.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include "test_cast_reference.h"

#include <string.h>

// The box from lo to hi as the controller converts a box tile (counter-clockwise from corner first): its sides'
// normals have the zero coordinate their vertices' differences give (+0 across a side along x, -0 along y).
static kcc_polygon box_polygon( vec2s lo, vec2s hi, float radius, int first )
{
	const vec2s corners[4] = { lo, kcc_v2( hi.x, lo.y ), hi, kcc_v2( lo.x, hi.y ) };
	const vec2s normals[4] = { kcc_v2( 0.0f, -1.0f ), kcc_v2( 1.0f, -0.0f ), kcc_v2( 0.0f, 1.0f ),
							   kcc_v2( -1.0f, -0.0f ) };
	kcc_polygon p = { 0 };
	p.count = 4;
	p.radius = radius;
	for ( int i = 0; i < 4; ++i )
	{
		p.vertices[i] = corners[( first + i ) % 4];
		p.normals[i] = normals[( first + i ) % 4];
	}
	p.centroid = kcc_v2( 0.5f * ( lo.x + hi.x ), 0.5f * ( lo.y + hi.y ) );
	return p;
}

static float uniform( kcc_ref_rng* rng, float lo, float hi )
{
	return kcc_ref_uniform( rng, lo, hi );
}

// A character's core near the box: resting on or over one of its sides at a gap about the skin, near a corner, or
// anywhere around; a circle, an upright capsule or a lying one.
static kcc_shape random_mover( kcc_ref_rng* rng, vec2s lo, vec2s hi, float box_radius )
{
	int kind = kcc_ref_int( rng, 0, 2 );
	float radius = kcc_ref_int( rng, 0, 3 ) == 0 ? uniform( rng, 0.05f, 0.6f ) : 0.3f;
	float half = kind == 0 ? 0.0f : ( kcc_ref_int( rng, 0, 1 ) == 0 ? 0.3f : uniform( rng, 0.05f, 1.0f ) );
	vec2s axis = kind == 1 ? kcc_v2( 0.0f, half ) : kcc_v2( half, 0.0f );
	float reach = radius + box_radius;
	const float gaps[6] = { 0.01f, 0.0017f, 1.0e-4f, 0.0f, 0.3f, -0.002f };
	float gap = kcc_ref_int( rng, 0, 3 ) == 0 ? uniform( rng, -0.05f, 0.5f ) : gaps[kcc_ref_int( rng, 0, 5 )];
	// Along the side: over it, past its end by less than the rounding, or beyond.
	float spread = reach + half + 0.6f;
	vec2s c;
	switch ( kcc_ref_int( rng, 0, 4 ) )
	{
		case 0: // above the top
			c = kcc_v2( uniform( rng, lo.x - spread, hi.x + spread ), hi.y + reach + gap + axis.y );
			break;
		case 1: // below the bottom
			c = kcc_v2( uniform( rng, lo.x - spread, hi.x + spread ), lo.y - reach - gap - axis.y );
			break;
		case 2: // right of it
			c = kcc_v2( hi.x + reach + gap + axis.x, uniform( rng, lo.y - spread, hi.y + spread ) );
			break;
		case 3: // left of it
			c = kcc_v2( lo.x - reach - gap - axis.x, uniform( rng, lo.y - spread, hi.y + spread ) );
			break;
		default: // anywhere around
			c = kcc_v2( uniform( rng, lo.x - spread, hi.x + spread ), uniform( rng, lo.y - spread, hi.y + spread ) );
			break;
	}
	if ( kind == 0 )
	{
		return kcc_make_circle( c, radius );
	}
	return kcc_make_capsule( glms_vec2_sub( c, axis ), glms_vec2_add( c, axis ), radius );
}

// Along an axis (the probe's straight down, a rise, a push sideways), mostly toward the box, or any way (a walk with
// gravity's sink).
static vec2s random_translation( kcc_ref_rng* rng, const kcc_shape* mover, vec2s lo, vec2s hi )
{
	float length = kcc_ref_int( rng, 0, 2 ) == 0 ? uniform( rng, 1.0e-3f, 2.0f ) : uniform( rng, 0.005f, 0.05f );
	vec2s c = mover->type == KCC_SHAPE_CIRCLE ? mover->circle.center
											  : glms_vec2_scale( glms_vec2_add( mover->capsule.a, mover->capsule.b ), 0.5f );
	vec2s toward = glms_vec2_sub( glms_vec2_scale( glms_vec2_add( lo, hi ), 0.5f ), c );
	switch ( kcc_ref_int( rng, 0, 5 ) )
	{
		case 0:
		case 1:
			return fabsf( toward.y ) > fabsf( toward.x ) ? kcc_v2( 0.0f, toward.y > 0.0f ? length : -length )
														 : kcc_v2( toward.x > 0.0f ? length : -length, 0.0f );
		case 2:
			return kcc_ref_int( rng, 0, 1 ) == 0 ? kcc_v2( 0.0f, kcc_ref_int( rng, 0, 1 ) == 0 ? length : -length )
												 : kcc_v2( kcc_ref_int( rng, 0, 1 ) == 0 ? length : -length, 0.0f );
		case 3:
			return kcc_v2( 0.0f, -length ); // the ground probe
		case 4:
			return kcc_v2( uniform( rng, -0.1f, 0.1f ), -0.0083f ); // a walk: gravity's sink
		default:
			return kcc_v2( uniform( rng, -length, length ), uniform( rng, -length, length ) );
	}
}

static void test_the_box_cast_answers_as_the_polygon_cast( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 20261130 };
	int decided = 0, applicable = 0, hits = 0, face_hits = 0, corner_hits = 0, corner_starts, misses = 0;
	int along_axis = 0, points = 0;
	for ( int n = 0; n < 200000; ++n )
	{
		// Tiles on a grid, boxes of any size anywhere, or far from the frame's origin (where float coordinates are
		// coarse); rounded now and then.
		bool grid = n % 2 == 0, far = n % 4 == 3;
		float place = far ? 1.0e6f : 100.0f, largest = far ? 300.0f : 4.0f;
		vec2s lo = grid ? kcc_v2( (float)kcc_ref_int( &rng, -50, 50 ), (float)kcc_ref_int( &rng, -50, 50 ) )
						: kcc_v2( uniform( &rng, -place, place ), uniform( &rng, -place, place ) );
		vec2s size = grid ? kcc_v2( 1.0f, 1.0f )
						  : kcc_v2( uniform( &rng, 0.05f, largest ), uniform( &rng, 0.05f, largest ) );
		vec2s hi = glms_vec2_add( lo, size );
		float box_radius = kcc_ref_int( &rng, 0, 4 ) == 0 ? 0.25f : 0.0f;
		kcc_shape mover = random_mover( &rng, lo, hi, box_radius );
		vec2s d = random_translation( &rng, &mover, lo, hi );
		bool point = kcc_ref_int( &rng, 0, 1 ) == 0;
		kcc_proxy proxies[KCC_MAX_PROXIES];
		int count = kcc_make_proxies( &mover, proxies );
		if ( kcc_box_cast_applies( proxies, count, d ) == false )
		{
			continue;
		}
		applicable += 1;
		kcc_cast_output box;
		if ( kcc_cast_box_trusted( proxies, d, lo, hi, box_radius, point, &box ) == false )
		{
			continue;
		}
		decided += 1;
		along_axis += d.x == 0.0f || d.y == 0.0f;
		points += point;
		for ( int first = 0; first < 4; ++first )
		{
			kcc_polygon polygon = box_polygon( lo, hi, box_radius, first );
			kcc_cast_output general = kcc_proxies_cast_polygon_trusted( proxies, count, d, &polygon, point );
			if ( same_cast( box, general ) == false )
			{
				print_error( "case %d, first corner %d: box hit %d f %.9g n (%.9g %.9g) p (%.9g %.9g); polygon hit %d f "
							 "%.9g n (%.9g %.9g) p (%.9g %.9g)\n",
							 n, first, box.hit, box.fraction, box.normal.x, box.normal.y, box.point.x, box.point.y,
							 general.hit, general.fraction, general.normal.x, general.normal.y, general.point.x,
							 general.point.y );
				fail();
			}
		}
		if ( box.hit == false )
		{
			misses += 1;
			continue;
		}
		hits += 1;
		bool axis_normal = box.normal.x == 0.0f || box.normal.y == 0.0f;
		face_hits += axis_normal;
		corner_hits += axis_normal == false;
	}
	// Off the axes only a start near a corner is decided.
	corner_starts = decided - along_axis;
	print_message( "%d casts the box cast takes, %d decided (%d along an axis, %d with the point): %d hits (%d on a "
				   "face, %d on a corner), %d misses; %d off the axes (starts near a corner)\n",
				   applicable, decided, along_axis, points, hits, face_hits, corner_hits, misses, corner_starts );
	assert_true( decided > 50000 && face_hits > 3000 && corner_hits > 3000 && misses > 30000 && corner_starts > 1000 &&
				 points > 10000 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_the_box_cast_answers_as_the_polygon_cast ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
