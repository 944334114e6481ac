// SPDX-License-Identifier: MIT
// 2.5D volumes: extruded shapes, seed 003's attack volume, the point-in-oriented-box test.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alloc_count.h"
#include "kcc/geometry.h"

#define PI_D 3.14159265358979323846

#include "assert_recorder.h"

// Volume tests check one bad input at a time: forget it after checking.
static void expect_message_once( const char* function, const char* problem )
{
	expect_message( function, problem );
	reset_asserts();
}

static uint32_t s_rng = 777u;

static double random_double( double lo, double hi )
{
	s_rng = s_rng * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (double)( s_rng >> 8 ) / 16777216.0;
}

static vec3s v3( float x, float y, float z )
{
	vec3s v = { { x, y, z } };
	return v;
}

static void test_make_volume_validates( void** state )
{
	(void)state;
	kcc_shape c = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_volume v = kcc_make_volume( &c, 0.0f, 2.0f );
	assert_int_equal( v.shape.type, KCC_SHAPE_CIRCLE );
	assert_float_equal( v.z_min, 0.0f, 0.0f );
	assert_float_equal( v.z_max, 2.0f, 0.0f );
	kcc_volume flat = kcc_make_volume( &c, 1.0f, 1.0f );
	assert_int_equal( flat.shape.type, KCC_SHAPE_CIRCLE );
	assert_int_equal( s_assert_count, 0 );

	kcc_volume bad = kcc_make_volume( &c, 2.0f, 1.0f );
	assert_int_equal( bad.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_volume", "z_min is greater" );
	bad = kcc_make_volume( &c, NAN, 1.0f );
	assert_int_equal( bad.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_volume", "not finite" );
	bad = kcc_make_volume( &c, 0.0f, INFINITY );
	assert_int_equal( bad.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_volume", "not finite" );
	kcc_shape invalid = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), -1.0f );
	reset_asserts();
	bad = kcc_make_volume( &invalid, 0.0f, 1.0f );
	assert_int_equal( bad.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_volume", "shape is invalid" );
	bad = kcc_make_volume( NULL, 0.0f, 1.0f );
	assert_int_equal( bad.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_volume", "shape is invalid" );

	// an invalid volume overlaps nothing and contains nothing
	kcc_volume invalid_volume = kcc_make_volume( &c, 2.0f, 1.0f );
	reset_asserts();
	assert_false( kcc_volume_overlap( &invalid_volume, &v ) );
	expect_message_once( "kcc_volume_overlap", "invalid" );
	assert_false( kcc_volume_overlap( &v, &invalid_volume ) );
	expect_message_once( "kcc_volume_overlap", "invalid" );
	assert_false( kcc_volume_contains_point( &invalid_volume, v3( 0.0f, 0.0f, 1.5f ) ) );
	expect_message_once( "kcc_volume_contains_point", "invalid" );
}

static void test_volume_overlap_closed_heights( void** state )
{
	(void)state;
	kcc_shape a = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_shape b = kcc_make_aabb( kcc_v2( 0.5f, -1.0f ), kcc_v2( 2.0f, 1.0f ) );
	kcc_shape far = kcc_make_aabb( kcc_v2( 1.5f, -1.0f ), kcc_v2( 2.0f, 1.0f ) );
	kcc_volume va = kcc_make_volume( &a, 0.0f, 2.0f );
	kcc_volume on_top = kcc_make_volume( &b, 2.0f, 3.0f ); // resting on va: touching counts
	kcc_volume above = kcc_make_volume( &b, nextafterf( 2.0f, 3.0f ), 3.0f );
	kcc_volume below = kcc_make_volume( &b, -5.0f, 0.0f );
	kcc_volume inside = kcc_make_volume( &b, 0.5f, 1.0f );
	kcc_volume apart = kcc_make_volume( &far, 0.0f, 2.0f );
	assert_true( kcc_volume_overlap( &va, &on_top ) && kcc_volume_overlap( &on_top, &va ) );
	assert_false( kcc_volume_overlap( &va, &above ) || kcc_volume_overlap( &above, &va ) );
	assert_true( kcc_volume_overlap( &va, &below ) && kcc_volume_overlap( &below, &va ) );
	assert_true( kcc_volume_overlap( &va, &inside ) && kcc_volume_overlap( &inside, &va ) );
	assert_false( kcc_volume_overlap( &va, &apart ) || kcc_volume_overlap( &apart, &va ) );

	assert_true( kcc_volume_contains_point( &va, v3( 1.0f, 0.0f, 2.0f ) ) );
	assert_true( kcc_volume_contains_point( &va, v3( 0.0f, -1.0f, 0.0f ) ) );
	assert_false( kcc_volume_contains_point( &va, v3( 0.0f, 0.0f, nextafterf( 2.0f, 3.0f ) ) ) );
	assert_false( kcc_volume_contains_point( &va, v3( 0.0f, 0.0f, -1.0e-6f ) ) );
	assert_false( kcc_volume_contains_point( &va, v3( 1.0f, 0.001f, 1.0f ) ) );
	assert_false( kcc_volume_contains_point( &va, v3( 0.0f, 0.0f, NAN ) ) );
	assert_int_equal( s_assert_count, 0 );
}

// Independent: local (forward, across, height) coordinates of a world point for an attack box, in double.
typedef struct attack_params
{
	double ox, oy, z, facing, width, length, height, drop;
} attack_params;

// Signed margin to the attack box's boundary for a local point: > 0 inside, < 0 outside.
static double attack_margin( const attack_params* a, double u, double v, double h )
{
	double bottom = a->z - a->drop;
	double mu = fmin( u, a->length - u );
	double mv = 0.5 * a->width - fabs( v );
	double mh = fmin( h - bottom, bottom + a->height - h );
	return fmin( mu, fmin( mv, mh ) );
}

static void test_attack_volume_rotates_with_facing( void** state )
{
	(void)state;
	double degrees[] = { 0.0, 30.0, 90.0, 135.0, 270.0 };
	uint64_t before = kcc_test_allocation_count();
	for ( int d = 0; d < 5; ++d )
	{
		attack_params a = { 3.0, -2.0, 1.5, degrees[d] * PI_D / 180.0, 1.0, 4.0, 2.0, 0.5 };
		kcc_volume v = kcc_make_attack_volume( kcc_v2( (float)a.ox, (float)a.oy ), (float)a.z, (float)a.facing,
											   (float)a.width, (float)a.length, (float)a.height, (float)a.drop );
		assert_int_equal( v.shape.type, KCC_SHAPE_OBB );
		assert_float_equal( v.z_min, 1.0f, 0.0f );
		assert_float_equal( v.z_max, 3.0f, 0.0f );
		double c = cos( a.facing ), s = sin( a.facing );
		vec3s center = v3( (float)( a.ox + c * 2.0 ), (float)( a.oy + s * 2.0 ), 2.0f );
		vec3s half = v3( 2.0f, 0.5f, 1.0f );
		int inside_count = 0, outside_count = 0;
		for ( int i = 0; i < 4000; ++i )
		{
			double u = random_double( -1.0, 5.0 ), w = random_double( -1.5, 1.5 ), h = random_double( 0.0, 4.0 );
			double margin = attack_margin( &a, u, w, h );
			if ( fabs( margin ) < 1.0e-3 )
			{
				continue;
			}
			vec3s p = v3( (float)( a.ox + c * u - s * w ), (float)( a.oy + s * u + c * w ), (float)h );
			bool expected = margin > 0.0;
			assert_int_equal( kcc_volume_contains_point( &v, p ), expected );
			assert_int_equal( kcc_point_in_oriented_box( center, half, (float)a.facing, p ), expected );
			inside_count += expected;
			outside_count += !expected;
		}
		assert_true( inside_count > 300 && outside_count > 300 );

		// Seed 003's defect: a point inside the world-axis extents of the box's offset but outside the rotated box
		// (1.5 across, 0.1 forward) must be rejected, and a point 1.9 forward on the axis accepted.
		vec3s across = v3( (float)( a.ox + c * 0.1 - s * 1.5 ), (float)( a.oy + s * 0.1 + c * 1.5 ), 2.0f );
		vec3s ahead = v3( (float)( a.ox + c * 3.9 ), (float)( a.oy + s * 3.9 ), 2.0f );
		assert_false( kcc_point_in_oriented_box( center, half, (float)a.facing, across ) );
		assert_true( kcc_point_in_oriented_box( center, half, (float)a.facing, ahead ) );
		assert_false( kcc_volume_contains_point( &v, across ) );
		assert_true( kcc_volume_contains_point( &v, ahead ) );
	}
	assert_true( kcc_test_allocation_count() == before );
	assert_int_equal( s_assert_count, 0 );
}

static void test_attack_volume_hits_target_volumes( void** state )
{
	(void)state;
	// facing 90 degrees: the box covers x in [-0.5, 0.5], y in [0, 4] (origin at 0, 0), heights [0, 2]
	kcc_volume attack = kcc_make_attack_volume( kcc_v2( 0.0f, 0.0f ), 0.5f, (float)( PI_D / 2.0 ), 1.0f, 4.0f, 2.0f,
												0.5f );
	kcc_shape enemy_ahead = kcc_make_circle( kcc_v2( 0.0f, 3.0f ), 0.3f );
	kcc_shape enemy_side = kcc_make_circle( kcc_v2( 3.0f, 0.5f ), 0.3f ); // inside the unrotated box's extents
	kcc_volume ahead_low = kcc_make_volume( &enemy_ahead, -1.0f, 0.5f );
	kcc_volume ahead_high = kcc_make_volume( &enemy_ahead, 2.5f, 4.0f ); // jumping over the swing
	kcc_volume side = kcc_make_volume( &enemy_side, 0.0f, 1.0f );
	assert_true( kcc_volume_overlap( &attack, &ahead_low ) );
	assert_false( kcc_volume_overlap( &attack, &ahead_high ) );
	assert_false( kcc_volume_overlap( &attack, &side ) );
	assert_int_equal( s_assert_count, 0 );
}

static void test_attack_volume_and_box_bad_input( void** state )
{
	(void)state;
	kcc_volume v = kcc_make_attack_volume( kcc_v2( 0.0f, 0.0f ), 0.0f, 0.0f, -1.0f, 1.0f, 1.0f, 0.0f );
	assert_int_equal( v.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_attack_volume", "negative" );
	v = kcc_make_attack_volume( kcc_v2( 0.0f, 0.0f ), 0.0f, NAN, 1.0f, 1.0f, 1.0f, 0.0f );
	assert_int_equal( v.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_attack_volume", "not finite" );
	v = kcc_make_attack_volume( kcc_v2( INFINITY, 0.0f ), 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f );
	assert_int_equal( v.shape.type, KCC_SHAPE_INVALID );
	expect_message_once( "kcc_make_attack_volume", "not finite" );

	assert_false( kcc_point_in_oriented_box( v3( 0.0f, 0.0f, 0.0f ), v3( 1.0f, -1.0f, 1.0f ), 0.0f,
											 v3( 0.0f, 0.0f, 0.0f ) ) );
	expect_message_once( "kcc_point_in_oriented_box", "negative" );
	assert_false( kcc_point_in_oriented_box( v3( 0.0f, 0.0f, 0.0f ), v3( 1.0f, 1.0f, 1.0f ), NAN,
											 v3( 0.0f, 0.0f, 0.0f ) ) );
	expect_message_once( "kcc_point_in_oriented_box", "not finite" );
	// a NaN point is simply outside (no assert: points come from gameplay data)
	assert_false( kcc_point_in_oriented_box( v3( 0.0f, 0.0f, 0.0f ), v3( 1.0f, 1.0f, 1.0f ), 0.0f,
											 v3( NAN, 0.0f, 0.0f ) ) );
	// closed box: the corner counts
	assert_true( kcc_point_in_oriented_box( v3( 0.0f, 0.0f, 0.0f ), v3( 1.0f, 2.0f, 3.0f ), 0.0f,
											v3( 1.0f, -2.0f, 3.0f ) ) );
	assert_int_equal( s_assert_count, 0 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup( test_make_volume_validates, reset_recorder ),
		cmocka_unit_test_setup( test_volume_overlap_closed_heights, reset_recorder ),
		cmocka_unit_test_setup( test_attack_volume_rotates_with_facing, reset_recorder ),
		cmocka_unit_test_setup( test_attack_volume_hits_target_volumes, reset_recorder ),
		cmocka_unit_test_setup( test_attack_volume_and_box_bad_input, reset_recorder ),
	};
	return cmocka_run_group_tests_name( "geometry_volume", tests, install_recorder, NULL );
}
