// SPDX-License-Identifier: MIT
// Quality property 4 (DESIGN.md section 5): no creep while standing on walkable slopes, stays on the floor
// walking down them at speed (snap), cannot climb slopes steeper than max_floor_angle; for all three characters.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define DEG ( SCENE_PI / 180.0f )

static void test_standing_on_walkable_slopes_does_not_drift( void** state )
{
	(void)state;
	static const float angles[] = { 10.0f, 30.0f, 44.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int ai = 0; ai < 3; ++ai )
		{
			float angle = angles[ai] * DEG;
			scene* s = scene_create( 1.0f );
			scene_add_long_slope( s, angle );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 1.5f ) );
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			SCENE_CHECK( test_settle( c, &velocity, GRAVITY, DT, 30 ), "%s on %g deg: never stood on the slope",
						 test_character_name( kind ), (double)angles[ai] );
			vec2s rest = kcc_controller_get_position( c );
			float worst = 0.0f;
			for ( int step = 0; step < 600; ++step )
			{
				kcc_move_result result;
				assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s on %g deg step %d: not on the floor",
							 test_character_name( kind ), (double)angles[ai], step );
				SCENE_CHECK( fabsf( result.floor_normal.x + sinf( angle ) ) <= 1e-4f &&
								 fabsf( result.floor_normal.y - cosf( angle ) ) <= 1e-4f,
							 "%s on %g deg: floor normal (%g, %g)", test_character_name( kind ), (double)angles[ai],
							 (double)result.floor_normal.x, (double)result.floor_normal.y );
				float drift = test_vec2_difference( result.position, rest );
				worst = drift > worst ? drift : worst;
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g",
							 test_character_name( kind ), (double)depth );
			}
			SCENE_CHECK( worst < 1e-4f, "%s on %g deg: drifted %g in 600 steps", test_character_name( kind ),
						 (double)angles[ai], (double)worst );
			float gap = scene_gap( s, &def.shape, rest, 1.0f );
			SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s on %g deg: resting gap %g",
						 test_character_name( kind ), (double)angles[ai], (double)gap );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Walking down (and up) walkable slopes at 6 u/s with gravity: on the floor every step, the gap near skin.
static void test_walking_on_slopes_stays_on_the_floor( void** state )
{
	(void)state;
	static const float angles[] = { 30.0f, 40.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int ai = 0; ai < 2; ++ai )
		{
			for ( int dir = -1; dir <= 1; dir += 2 )
			{
				float angle = angles[ai] * DEG;
				scene* s = scene_create( 1.0f );
				scene_add_long_slope( s, angle );
				float start_x = -30.0f * (float)dir; // walk across the slope through the origin
				kcc_controller_def def =
					test_character_def( kind, kcc_v2( start_x, start_x * tanf( angle ) + 1.5f ) );
				kcc_controller* c = scene_create_controller( s, &def );
				assert_non_null( c );
				vec2s velocity = kcc_v2( 0.0f, 0.0f );
				SCENE_CHECK( test_settle( c, &velocity, GRAVITY, DT, 30 ), "%s: never stood on the slope",
							 test_character_name( kind ) );
				const char* way = dir < 0 ? "down" : "up";
				for ( int step = 0; step < 500; ++step )
				{
					kcc_move_result result;
					vec2s before = kcc_controller_get_position( c );
					assert_int_equal( test_gravity_step( c, &velocity, 6.0f * (float)dir, GRAVITY, DT, &result ), KCC_OK );
					SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s walking %s %g deg, step %d at x %.4f: left the floor",
								 test_character_name( kind ), way, (double)angles[ai], step, (double)before.x );
					SCENE_CHECK( ( result.position.x - before.x ) * (float)dir > 0.0f, "%s walking %s: no progress",
								 test_character_name( kind ), way );
					float gap = scene_gap( s, &def.shape, result.position, 1.0f );
					SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s walking %s %g deg step %d: gap %g",
								 test_character_name( kind ), way, (double)angles[ai], step, (double)gap );
					float depth = scene_overlap( s, &def.shape, result.position );
					SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g",
								 test_character_name( kind ), (double)depth );
				}
				kcc_controller_destroy( c );
				scene_destroy( s );
			}
		}
	}
}

// A 60 degree slope rising from a flat tiled floor: walking into it for 300 steps gains no height.
static void test_cannot_climb_steep_slope( void** state )
{
	(void)state;
	static const float angles[] = { 50.0f, 60.0f, 75.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int ai = 0; ai < 3; ++ai )
		{
			float angle = angles[ai] * DEG;
			float half_height = test_character_half_height( kind );
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 40 );
			scene_add_slope( s, kcc_v2( 5.0f, 0.0f ), angle, 10.0f / tanf( angle ), 1.0f );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 2.0f, half_height + 0.01f ) );
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			float rest_y = 0.0f;
			float highest = -FLT_MAX;
			float x_at_100 = 0.0f;
			for ( int step = 0; step < 300; ++step )
			{
				kcc_move_result result;
				assert_int_equal( test_gravity_step( c, &velocity, 6.0f, GRAVITY, DT, &result ), KCC_OK );
				if ( step == 4 )
				{
					rest_y = result.position.y;
				}
				if ( step > 4 )
				{
					highest = result.position.y > highest ? result.position.y : highest;
					SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s at %g deg step %d: left the floor (y %g)",
								 test_character_name( kind ), (double)angles[ai], step, (double)result.position.y );
				}
				if ( step == 100 )
				{
					x_at_100 = result.position.x;
				}
				if ( step > 100 )
				{
					SCENE_CHECK( fabsf( result.position.x - x_at_100 ) <= 1e-4f, "%s at %g deg: still moving at step %d",
								 test_character_name( kind ), (double)angles[ai], step );
				}
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g",
							 test_character_name( kind ), (double)depth );
			}
			SCENE_CHECK( highest - rest_y <= 1e-3f * test_character_height( kind ),
						 "%s at %g deg: climbed %g (x %g)", test_character_name( kind ), (double)angles[ai],
						 (double)( highest - rest_y ), (double)kcc_controller_get_position( c ).x );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Alone on a steep slope, the character is not on a floor and slides down under gravity.
static void test_steep_slope_is_not_a_floor( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float angle = 60.0f * DEG;
		scene* s = scene_create( 1.0f );
		scene_add_long_slope( s, angle );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 1.5f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		bool touched = false;
		float previous_y = def.position.y;
		for ( int step = 0; step < 120; ++step )
		{
			kcc_move_result result;
			assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &result ), KCC_OK );
			SCENE_CHECK( ( result.flags & KCC_ON_FLOOR ) == 0, "%s step %d: a 60 degree slope reported as floor",
						 test_character_name( kind ), step );
			touched = touched || ( result.flags & KCC_ON_WALL );
			SCENE_CHECK( result.position.y < previous_y, "%s step %d: stopped on a 60 degree slope",
						 test_character_name( kind ), step );
			previous_y = result.position.y;
			float depth = scene_overlap( s, &def.shape, result.position );
			SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", test_character_name( kind ),
						 (double)depth );
		}
		SCENE_CHECK( touched, "%s: never touched the slope", test_character_name( kind ) );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_standing_on_walkable_slopes_does_not_drift ),
		cmocka_unit_test( test_walking_on_slopes_stays_on_the_floor ),
		cmocka_unit_test( test_cannot_climb_steep_slope ),
		cmocka_unit_test( test_steep_slope_is_not_a_floor ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_slopes", tests, NULL, NULL );
}
