// SPDX-License-Identifier: MIT
// The float <-> double bridge (controller/chipmunk_bridge.h). An optimiser that forwarded a double into a float
// struct field without rounding it would break bit-identical replays, so these checks run in every build type,
// Release included, and judge the results through their bits (a double that came from a float has at most 24
// significant bits), never by comparing against another (float) cast the compiler could fold the same way.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../controller/chipmunk_bridge.h"

static uint64_t bits_of( double x )
{
	uint64_t u;
	memcpy( &u, &x, sizeof( u ) );
	return u;
}

// True when x (a normal-range double) has no more significant bits than a float: its 29 low mantissa bits are 0.
static bool fits_in_float( double x )
{
	return ( bits_of( x ) & ( ( (uint64_t)1 << 29 ) - 1 ) ) == 0;
}

// True when f is the float nearest to x (ties to even are not met by the random inputs below).
static bool is_nearest_float( double x, float f )
{
	double err = fabs( x - (double)f );
	double up = fabs( x - (double)nextafterf( f, INFINITY ) );
	double down = fabs( x - (double)nextafterf( f, -INFINITY ) );
	return err <= up && err <= down;
}

typedef struct float_pair
{
	float x, y;
} float_pair;

// A float field filled from a double and read back as double: the rounding must happen at the store.
static float_pair make_pair( double a, double b )
{
	float_pair p = { kcc_bridge_to_float( a ), kcc_bridge_to_float( b ) };
	return p;
}

static uint64_t s_rng = 0x9e3779b97f4a7c15ull;

static double random_double( double scale )
{
	s_rng ^= s_rng << 13;
	s_rng ^= s_rng >> 7;
	s_rng ^= s_rng << 17;
	double unit = (double)( s_rng >> 11 ) * ( 1.0 / 9007199254740992.0 ); // [0, 1)
	return ( 2.0 * unit - 1.0 ) * scale;
}

static void test_to_float_rounds_every_value( void** state )
{
	(void)state;
	static const double scales[] = { 1.0e-3, 1.0, 300.0, 1.0e6 };
	for ( int si = 0; si < 4; ++si )
	{
		for ( int i = 0; i < 20000; ++i )
		{
			double x = random_double( scales[si] );
			if ( x == 0.0 )
			{
				continue;
			}
			float f = kcc_bridge_to_float( x );
			double back = (double)f;
			assert_true( fits_in_float( back ) );
			assert_true( is_nearest_float( x, f ) );
		}
	}
}

static void test_struct_round_trip_keeps_the_rounding( void** state )
{
	(void)state;
	for ( int i = 0; i < 20000; ++i )
	{
		double a = random_double( 500.0 );
		double b = random_double( 100.0 );
		float_pair p = make_pair( a, b );
		double ax = (double)p.x;
		double by = (double)p.y;
		// Read back as double, the fields must be floats (24 bits), not the doubles that were passed in.
		assert_true( fits_in_float( ax ) );
		assert_true( fits_in_float( by ) );
		assert_true( is_nearest_float( a, p.x ) );
		assert_true( is_nearest_float( b, p.y ) );
		// And the round trip through the bridge is exact.
		assert_true( bits_of( kcc_bridge_to_double( p.x ) ) == bits_of( ax ) );
	}
}

static void test_cpv_round_trip( void** state )
{
	(void)state;
	for ( int i = 0; i < 20000; ++i )
	{
		cpVect w = cpv( random_double( 1000.0 ), random_double( 1000.0 ) );
		vec2s v = kcc_bridge_from_cpv( w );
		assert_true( fits_in_float( v.x ) && fits_in_float( v.y ) );
		assert_true( is_nearest_float( w.x, v.x ) && is_nearest_float( w.y, v.y ) );
		// float -> double -> float is the identity.
		cpVect back = kcc_bridge_to_cpv( v );
		assert_true( bits_of( back.x ) == bits_of( (double)v.x ) );
		vec2s again = kcc_bridge_from_cpv( back );
		assert_true( memcmp( &again, &v, sizeof( v ) ) == 0 );
	}
}

static void test_relative_and_offset_round_once( void** state )
{
	(void)state;
	for ( int i = 0; i < 20000; ++i )
	{
		vec2s origin = kcc_bridge_from_cpv( cpv( random_double( 500.0 ), random_double( 100.0 ) ) );
		cpVect world = cpv( (double)origin.x + random_double( 3.0 ), (double)origin.y + random_double( 3.0 ) );
		vec2s local = kcc_bridge_relative( world, origin );
		// The difference is computed in double (exact here) and rounded once.
		assert_true( is_nearest_float( world.x - (double)origin.x, local.x ) );
		assert_true( is_nearest_float( world.y - (double)origin.y, local.y ) );
		vec2s moved = kcc_bridge_offset( origin, local );
		assert_true( fits_in_float( moved.x ) && fits_in_float( moved.y ) );
		assert_true( is_nearest_float( (double)origin.x + (double)local.x, moved.x ) );
		assert_true( is_nearest_float( (double)origin.y + (double)local.y, moved.y ) );
	}
	// Offsetting by zero is exact.
	vec2s o = kcc_v2( 123.456f, -7.25f );
	vec2s same = kcc_bridge_offset( o, kcc_v2( 0.0f, 0.0f ) );
	assert_true( memcmp( &same, &o, sizeof( o ) ) == 0 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_to_float_rounds_every_value ),
		cmocka_unit_test( test_struct_round_trip_keeps_the_rounding ),
		cmocka_unit_test( test_cpv_round_trip ),
		cmocka_unit_test( test_relative_and_offset_round_once ),
	};
	return cmocka_run_group_tests_name( "controller_bridge", tests, NULL, NULL );
}
