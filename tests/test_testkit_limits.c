// SPDX-License-Identifier: MIT
// Bad input to the test kit and the level's categories gets a clear error in bounded time and memory (issue 15,
// item 8): kcc_testkit_run with a negative count returned KCC_OK, with INT_MAX it ran without bound and grew its
// record; a test kit with dt = 1e30 was created; a level def whose crates share the zones' category bit was accepted.
// Now a run is checked before its first frame, the record holds at most KCC_TESTKIT_MAX_FRAMES frames between
// resets (a script that would pass it runs nothing), dt is in (0, KCC_TESTKIT_MAX_DT], and a level def's four
// categories must not share bits.
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_level_support.h"

static const kcc_input s_still = { { { 0.0f, 0.0f } }, false, false, false };

static void test_a_run_is_checked_before_its_first_frame( void** state )
{
	(void)state;
	kcc_testkit* t = testkit_open( "run.tmj", "start" );
	assert_int_equal( kcc_testkit_run( t, s_still, -1 ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_testkit_run( t, s_still, INT_MIN ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_testkit_run( t, s_still, INT_MAX ), KCC_ERROR_TOO_LARGE );
	assert_int_equal( kcc_testkit_run( t, s_still, KCC_TESTKIT_MAX_FRAMES + 1 ), KCC_ERROR_TOO_LARGE );
	assert_int_equal( kcc_testkit_run( NULL, s_still, 1 ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_testkit_frame_count( t ), 0 ); // nothing ran
	assert_int_equal( kcc_testkit_run( t, s_still, 0 ), KCC_OK );
	assert_int_equal( kcc_testkit_run( t, s_still, 3 ), KCC_OK );
	assert_int_equal( kcc_testkit_frame_count( t ), 3 );
	// The room left counts what is recorded already.
	assert_int_equal( kcc_testkit_run( t, s_still, KCC_TESTKIT_MAX_FRAMES - 2 ), KCC_ERROR_TOO_LARGE );
	assert_int_equal( kcc_testkit_frame_count( t ), 3 );
	kcc_testkit_destroy( t );
}

// The whole record, then a full record refuses every further frame, whichever way it is asked, until a reset.
static void test_the_record_is_bounded( void** state )
{
	(void)state;
	kcc_testkit* t = testkit_open( "run.tmj", "start" );
	assert_int_equal( kcc_testkit_run( t, s_still, KCC_TESTKIT_MAX_FRAMES ), KCC_OK );
	assert_int_equal( kcc_testkit_frame_count( t ), KCC_TESTKIT_MAX_FRAMES );
	vec2s at = kcc_testkit_get_position( t );
	assert_int_equal( kcc_testkit_step( t, s_still ), KCC_ERROR_TOO_LARGE );
	assert_int_equal( kcc_testkit_run( t, s_still, 1 ), KCC_ERROR_TOO_LARGE );
	kcc_testkit_error error;
	assert_false( kcc_testkit_run_script( t, "wait 1f", "full.txt", &error ) );
	assert_non_null( strstr( error.message, "full.txt:1: the record is full" ) );
	assert_false( kcc_testkit_run_script( t, "jump", "full.txt", &error ) ); // its press takes a frame too
	assert_int_equal( kcc_testkit_frame_count( t ), KCC_TESTKIT_MAX_FRAMES );
	vec2s still = kcc_testkit_get_position( t );
	assert_memory_equal( &at, &still, sizeof( at ) );
	kcc_testkit_reset( t );
	assert_int_equal( kcc_testkit_step( t, s_still ), KCC_OK );
	assert_int_equal( kcc_testkit_frame_count( t ), 1 );
	kcc_testkit_destroy( t );
}

static void test_dt_is_checked( void** state )
{
	(void)state;
	const float bad[] = { 1.0e30f, 1.5f, 0.0f, -1.0f / 60.0f, NAN, INFINITY };
	for ( size_t i = 0; i < sizeof( bad ) / sizeof( bad[0] ); ++i )
	{
		kcc_testkit_def def = kcc_default_testkit_def();
		def.map_path = level_path( "run.tmj" );
		def.dt = bad[i];
		kcc_testkit_error error;
		assert_null( kcc_testkit_create( &def, &error ) );
		assert_int_equal( error.status, KCC_LEVEL_ERROR_ARGUMENT );
		assert_non_null( strstr( error.message, "kcc_testkit_create: dt (" ) );
		assert_non_null( strstr( error.message, ") must be in (0, 1] seconds" ) );
	}
	kcc_testkit_def def = kcc_default_testkit_def();
	def.map_path = level_path( "run.tmj" );
	def.dt = KCC_TESTKIT_MAX_DT;
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create( &def, &error );
	assert_non_null( t );
	assert_int_equal( kcc_testkit_step( t, s_still ), KCC_OK );
	kcc_testkit_destroy( t );
}

// Each of the four categories finds a role from a shape's bits: two roles sharing a bit would make a crate a zone.
static void test_level_categories_must_not_share_bits( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	for ( int i = 0; i < 5; ++i )
	{
		kcc_level_def def = kcc_default_level_def();
		switch ( i )
		{
			case 0:
				def.pushable_category = def.zone_category;
				break;
			case 1:
				def.zone_category = def.one_way_category;
				break;
			case 2:
				def.one_way_category = CP_ALL_CATEGORIES;
				break;
			case 3:
				def.zone_category |= def.solid_category;
				break;
			default:
				def.pushable_category = def.one_way_category | ( (cpBitmask)1 << 5 );
				break;
		}
		kcc_level* level = NULL;
		kcc_level_error error;
		assert_int_equal( kcc_level_load_file( space, level_path( "run.tmj" ), &def, &level, &error ),
						  KCC_LEVEL_ERROR_ARGUMENT );
		assert_null( level );
		assert_non_null( strstr( error.message, "must not share bits" ) );
		assert_int_equal( space_shape_count( space ), 0 );
	}
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_run_is_checked_before_its_first_frame ),
		cmocka_unit_test( test_the_record_is_bounded ),
		cmocka_unit_test( test_dt_is_checked ),
		cmocka_unit_test( test_level_categories_must_not_share_bits ),
	};
	return cmocka_run_group_tests_name( "test kit limits", tests, NULL, NULL );
}
