// SPDX-License-Identifier: MIT
// kcc_penetration: hand-made cases, and randomised properties on overlapping pairs of every convex kind. The
// minimum translation is certified with kcc_distance (itself certified against the reference in
// test_geometry_distance.c): moving b by normal * (depth + 1e-4) separates the shapes, by normal * (depth - 1e-3)
// does not, and along 64 sampled directions u moving b by u * (depth - 1e-3) still overlaps (no shorter way out;
// the set of overlapping translations is convex, so one probe per direction suffices).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include <stdio.h>

#include "test_random_shapes.h"

static float distance_moved( const kcc_shape* a, const kcc_shape* b, vec2s direction, float amount )
{
	kcc_shape moved = kcc_shape_translate( b, kcc_v2( amount * direction.x, amount * direction.y ) );
	return kcc_distance( a, &moved ).distance;
}

// The file's certificate (depth >= 2e-3): moving b by normal * (depth + 1e-4) separates, by normal * (depth - 1e-3)
// does not, nor does moving it by depth - 1e-3 along any of 64 directions. Prints what failed.
static bool certified( const kcc_shape* a, const kcc_shape* b, kcc_penetration_output p )
{
	bool out = distance_moved( a, b, p.normal, p.depth + 1.0e-4f ) > 0.0f;
	bool still_in = distance_moved( a, b, p.normal, p.depth - 1.0e-3f ) == 0.0f;
	bool minimal = true;
	float worst = 0.0f;
	for ( int k = 0; k < 64 && minimal; ++k )
	{
		worst = 2.0f * PI_F * (float)k / 64.0f;
		minimal = distance_moved( a, b, kcc_v2( cosf( worst ), sinf( worst ) ), p.depth - 1.0e-3f ) == 0.0f;
	}
	if ( out == false || still_in == false || minimal == false )
	{
		print_error( "depth %.9g normal (%.6g %.6g): separates %d, still overlapping before %d, minimal %d (direction "
					 "%.3g)\n",
					 p.depth, p.normal.x, p.normal.y, out, still_in, minimal, worst );
		return false;
	}
	return true;
}

static void test_penetration_hand_made( void** state )
{
	(void)state;
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_shape other = kcc_make_circle( kcc_v2( 1.5f, 0.0f ), 1.0f );
	kcc_penetration_output p = kcc_penetration( &circle, &other );
	assert_true( p.overlapping );
	assert_near( p.depth, 0.5f, 1.0e-6f );
	assert_near( p.normal.x, 1.0f, 1.0e-6f );

	// Coincident centres: the documented default normal (0, 1).
	p = kcc_penetration( &circle, &circle );
	assert_true( p.overlapping );
	assert_near( p.depth, 2.0f, 1.0e-6f );
	assert_near( p.normal.y, 1.0f, 0.0f );

	// Box into box: the shallow axis.
	kcc_shape a = kcc_make_aabb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 2.0f, 2.0f ) );
	kcc_shape b = kcc_make_aabb( kcc_v2( 1.8f, 0.5f ), kcc_v2( 4.0f, 1.0f ) );
	p = kcc_penetration( &a, &b );
	assert_true( p.overlapping );
	assert_near( p.depth, 0.2f, 1.0e-6f );
	assert_near( p.normal.x, 1.0f, 1.0e-6f );

	// Capsule character sunk into a floor box: pushed up (b = capsule moves along the normal).
	kcc_shape floor = kcc_make_aabb( kcc_v2( -10.0f, -1.0f ), kcc_v2( 10.0f, 0.0f ) );
	kcc_shape capsule = kcc_make_capsule( kcc_v2( 0.0f, 0.4f ), kcc_v2( 0.0f, 1.4f ), 0.5f );
	p = kcc_penetration( &floor, &capsule );
	assert_true( p.overlapping );
	assert_near( p.depth, 0.1f, 1.0e-6f );
	assert_near( p.normal.y, 1.0f, 1.0e-6f );
	// Core inside the floor (deep): still the shortest way out, up.
	kcc_shape deep = kcc_make_capsule( kcc_v2( 0.0f, -0.6f ), kcc_v2( 0.0f, 0.4f ), 0.5f );
	p = kcc_penetration( &floor, &deep );
	assert_near( p.depth, 1.1f, 1.0e-6f );
	assert_near( p.normal.y, 1.0f, 1.0e-6f );

	// Touching counts (depth 0), separated does not.
	kcc_shape touching = kcc_make_circle( kcc_v2( 2.0f, 0.0f ), 1.0f );
	p = kcc_penetration( &circle, &touching );
	assert_true( p.overlapping );
	assert_near( p.depth, 0.0f, 1.0e-6f );
	kcc_shape apart = kcc_make_circle( kcc_v2( 2.5f, 0.0f ), 1.0f );
	p = kcc_penetration( &circle, &apart );
	assert_true( p.overlapping == false && p.depth == 0.0f && p.normal.x == 0.0f && p.normal.y == 0.0f );

	// Sector (90 degrees, facing +x) and a circle inside near the arc: pushed out through the arc.
	kcc_shape sector = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 2.0f, 90.0f * DEG );
	kcc_shape dot = kcc_make_circle( kcc_v2( 1.8f, 0.0f ), 0.1f );
	p = kcc_penetration( &sector, &dot );
	assert_true( p.overlapping );
	assert_near( p.depth, 0.3f, 1.0e-5f );
	assert_near( p.normal.x, 1.0f, 1.0e-5f );
	// Near an edge: pushed out across the edge.
	kcc_shape edge_dot = kcc_make_circle( kcc_v2( 1.0f, 0.9f ), 0.1f );
	p = kcc_penetration( &sector, &edge_dot );
	assert_true( p.overlapping );
	assert_near( p.depth, 0.1f + 0.1f * sqrtf( 0.5f ), 1.0e-5f );
	assert_near( p.normal.x, -sqrtf( 0.5f ), 1.0e-5f );
	assert_near( p.normal.y, sqrtf( 0.5f ), 1.0e-5f );

	// Wider than pi: overlap only, no depth.
	kcc_shape wide = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 2.0f, 270.0f * DEG );
	p = kcc_penetration( &wide, &dot );
	assert_true( p.overlapping && p.depth == 0.0f && p.normal.x == 0.0f && p.normal.y == 0.0f );
	kcc_shape far = kcc_make_circle( kcc_v2( 5.0f, 0.0f ), 0.1f );
	assert_false( kcc_penetration( &wide, &far ).overlapping );
}

static void test_penetration_bad_input( void** state )
{
	(void)state;
	kcc_set_assert_fcn( record_assert );
	s_assert_count = 0;
	kcc_shape invalid = { 0 };
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_penetration_output p = kcc_penetration( &invalid, &circle );
	assert_true( p.overlapping == false && p.depth == 0.0f && p.normal.x == 0.0f && p.normal.y == 0.0f );
	kcc_shape nan_circle = circle;
	nan_circle.circle.radius = NAN;
	p = kcc_penetration( &circle, &nan_circle );
	assert_true( p.overlapping == false && p.depth == 0.0f );
#if defined( KCC_ENABLE_ASSERT )
	assert_true( s_assert_count >= 2 );
#endif
	kcc_set_assert_fcn( NULL );
}

static void test_penetration_random_pairs( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 515 };
	int checked = 0, separated = 0;
	for ( int ka = 0; ka < K_COUNT; ++ka )
	{
		for ( int kb = 0; kb < K_COUNT; ++kb )
		{
			int found = 0;
			for ( int attempt = 0; attempt < 4000 && found < 150; ++attempt )
			{
				kcc_shape a = random_shape( &rng, ka, kcc_v2( 0.0f, 0.0f ), uniform( &rng, 0.3f, 1.5f ) );
				kcc_shape b = random_shape( &rng, kb, kcc_v2( uniform( &rng, -1.5f, 1.5f ), uniform( &rng, -1.5f, 1.5f ) ),
											uniform( &rng, 0.3f, 1.5f ) );
				if ( is_convex_kind( &a ) == false || is_convex_kind( &b ) == false )
				{
					continue;
				}
				kcc_penetration_output p = kcc_penetration( &a, &b );
				assert_true( kcc_is_valid_float( p.depth ) && kcc_is_valid_vec2( p.normal ) );
				float d0 = kcc_distance( &a, &b ).distance;
				if ( p.overlapping == false )
				{
					assert_true( d0 > 0.0f && p.depth == 0.0f );
					separated += 1;
					continue;
				}
				if ( d0 > 0.0f )
				{
					print_error( "penetration says overlapping (depth %.9g) but distance %.9g\n", p.depth, d0 );
					fail();
				}
				if ( p.depth < 2.0e-3f )
				{
					continue; // too shallow for the depth - 1e-3 probe
				}
				found += 1;
				assert_near( hypotf( p.normal.x, p.normal.y ), 1.0f, 1.0e-5f );
				if ( certified( &a, &b, p ) == false )
				{
					print_error( "kinds %s/%s\n", kind_name( ka ), kind_name( kb ) );
					fail();
				}
				// Symmetry: the same depth, the opposite normal.
				kcc_penetration_output q = kcc_penetration( &b, &a );
				assert_true( q.overlapping );
				assert_near( q.depth, p.depth, 1.0e-4f );
				checked += 1;
			}
			assert_true( found >= 100 || ka == K_SECTOR || kb == K_SECTOR );
		}
	}
	printf( "penetration: %d overlapping pairs certified, %d separated\n", checked, separated );
	assert_true( checked > 7000 );
}

// Flat and point boxes, capsules often one rounding off an axis, boxes turned by multiples of pi/2 (near_parallel_shape):
// overlapping pairs whose cores nearly touch (a box's corner 1e-6 from a long segment) are where the normal, taken
// from the direction to the closest point, was rounding noise: 0.016 off, and moving b out along it by the depth left
// 2 cm of overlap. The same certificate as above: out by depth + 1e-4, in by depth - 1e-3, no shorter way out.
static void test_penetration_near_parallel_edges( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 6061 };
	int checked = 0, touching = 0;
	for ( int n = 0; n < 40000; ++n )
	{
		kcc_shape a = near_parallel_shape( &rng, n % 8, kcc_v2( uniform( &rng, -0.5f, 0.5f ), uniform( &rng, -0.5f, 0.5f ) ) );
		kcc_shape b = near_parallel_shape( &rng, ( n / 8 ) % 8,
										   kcc_v2( uniform( &rng, -0.5f, 0.5f ), uniform( &rng, -0.5f, 0.5f ) ) );
		if ( kcc_shape_is_valid( &a ) == false || kcc_shape_is_valid( &b ) == false )
		{
			continue;
		}
		if ( n % 2 == 1 && b.type == KCC_SHAPE_CAPSULE && b.capsule.radius > 0.0f &&
			 ( a.type == KCC_SHAPE_POLYGON || a.type == KCC_SHAPE_CAPSULE ) )
		{
			// The cores touching: a's first core point moved onto b's core segment.
			vec2s corner = a.type == KCC_SHAPE_POLYGON ? a.polygon.vertices[0] : a.capsule.a;
			float t = uniform( &rng, 0.1f, 0.9f );
			vec2s on = kcc_v2( b.capsule.a.x + t * ( b.capsule.b.x - b.capsule.a.x ),
							   b.capsule.a.y + t * ( b.capsule.b.y - b.capsule.a.y ) );
			a = kcc_shape_translate( &a, kcc_v2( on.x - corner.x, on.y - corner.y ) );
			touching += 1;
		}
		kcc_penetration_output p = kcc_penetration( &a, &b );
		if ( p.overlapping == false || p.depth < 2.0e-3f )
		{
			continue;
		}
		checked += 1;
		if ( certified( &a, &b, p ) == false )
		{
			print_error( "case %d\n", n );
			fail();
		}
	}
	printf( "near-parallel edges: %d overlapping pairs certified, %d with the cores touching\n", checked, touching );
	assert_true( checked > 15000 && touching > 1000 );
}

// Found by the fuzzer: a sector whose apex is 1e-22 from a circle's centre. The candidate axis between them has a
// denormal squared length; the normal must still be unit (it was 0.988 long), and it must separate the shapes.
static void test_penetration_nearly_coincident_centres( void** state )
{
	(void)state;
	float offsets[] = { 1.0e-22f, 1.0e-30f, 1.0e-38f, 1.0e-44f, 1.0e-5f };
	for ( int k = 0; k < 5; ++k )
	{
		kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.375f );
		kcc_shape sector = kcc_make_sector( kcc_v2( 0.3f * offsets[k], offsets[k] ), kcc_v2( 0.94f, 0.34f ), 0.0625f,
											0.039f );
		assert_true( kcc_shape_is_valid( &sector ) );
		for ( int order = 0; order < 2; ++order )
		{
			const kcc_shape* a = order == 0 ? &circle : &sector;
			const kcc_shape* b = order == 0 ? &sector : &circle;
			kcc_penetration_output p = kcc_penetration( a, b );
			assert_true( p.overlapping );
			assert_near( p.normal.x * p.normal.x + p.normal.y * p.normal.y, 1.0f, 1.0e-5f );
			// b moved by the normal times the depth (plus a little) no longer overlaps a
			kcc_shape moved = kcc_shape_translate( b, kcc_v2( p.normal.x * ( p.depth + 1.0e-4f ),
															  p.normal.y * ( p.depth + 1.0e-4f ) ) );
			assert_false( kcc_overlap( a, &moved ) );
		}
	}
}

static void test_penetration_makes_no_allocation( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 3 };
	kcc_shape shapes[K_COUNT];
	for ( int k = 0; k < K_COUNT; ++k )
	{
		shapes[k] = random_shape( &rng, k, kcc_v2( 0.1f * (float)k, 0.0f ), 1.0f );
	}
	uint64_t before = kcc_test_allocation_count();
	float sum = 0.0f;
	for ( int i = 0; i < K_COUNT; ++i )
	{
		for ( int j = 0; j < K_COUNT; ++j )
		{
			sum += kcc_penetration( shapes + i, shapes + j ).depth;
		}
	}
	assert_true( kcc_test_allocation_count() == before );
	assert_true( sum > 0.0f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_penetration_hand_made ),
		cmocka_unit_test( test_penetration_bad_input ),
		cmocka_unit_test( test_penetration_random_pairs ),
		cmocka_unit_test( test_penetration_nearly_coincident_centres ),
		cmocka_unit_test( test_penetration_near_parallel_edges ),
		cmocka_unit_test( test_penetration_makes_no_allocation ),
	};
	return cmocka_run_group_tests_name( "geometry_penetration", tests, NULL, NULL );
}
