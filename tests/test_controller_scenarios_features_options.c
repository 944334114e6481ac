// SPDX-License-Identifier: MIT
// The def's options (docs/controller.md, the definition and the move, steps 4 and 5) on a real cpSpace, for all
// three characters:
// - stop_on_slope = false slides down a 30 degree slope under gravity (along-slope speed gains g sin(angle) dt per
//   step), true stands still;
// - constant_speed_on_slopes: walking with a lateral input of length L moves exactly L along a 30 degree slope,
//   uphill and downhill (1e-4); without it uphill moves L cos(angle) along the slope and downhill L horizontally;
// - slide_on_ceiling: a diagonal jump into a ceiling keeps its whole horizontal motion (true) or stops at the
//   contact, along the input direction (false);
// - max_floor_angle: a 50 degree slope is a floor with a 55 degree limit and a wall with 45;
// - FLOATING mode neither snaps nor climbs steps;
// - up = (0, -1) with gravity pointing up mirrors a platformer run (1e-5, the same flags on every step);
// - min_move: a shorter displacement does not move the character and keeps its ground state.
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

// One gravity step that keeps the velocity move_and_slide returned (no input overwrites it): what a slide needs.
static kcc_status free_gravity_step( kcc_controller* c, vec2s* velocity, kcc_move_result* out )
{
	vec2s v = kcc_v2( velocity->x, velocity->y - GRAVITY * DT );
	return kcc_controller_move_and_slide( c, v, DT, velocity, out );
}

// ---------------------------------------------------------------------------------------------------------------
// stop_on_slope

static void test_stop_on_slope_false_slides_down( void** state )
{
	(void)state;
	const float angle = 30.0f * DEG;
	vec2s downhill = kcc_v2( -cosf( angle ), -sinf( angle ) );
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int stop = 0; stop < 2; ++stop )
		{
			scene* s = scene_create( 1.0f );
			scene_add_long_slope( s, angle );
			// Land with stop_on_slope on, whatever the option: the slide is measured from rest.
			kcc_controller_def def = test_character_def( kind, kcc_v2( 20.0f, 20.0f * tanf( angle ) + 1.0f ) );
			kcc_controller* lander = scene_create_controller( s, &def );
			assert_non_null( lander );
			const char* name = test_character_name( kind );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			SCENE_CHECK( test_settle( lander, &velocity, GRAVITY, DT, 10 ), "%s: never stood on the slope", name );
			def.position = kcc_controller_get_position( lander );
			kcc_controller_destroy( lander );
			def.stop_on_slope = stop != 0;
			kcc_controller* c = kcc_controller_create( s->space, &def );
			assert_non_null( c );
			velocity = kcc_v2( 0.0f, 0.0f );
			vec2s rest = kcc_controller_get_position( c );
			const int steps = 60;
			for ( int step = 1; step <= steps; ++step )
			{
				kcc_move_result result;
				assert_int_equal( free_gravity_step( c, &velocity, &result ), KCC_OK );
				SCENE_CHECK( step == 1 || ( result.flags & KCC_ON_FLOOR ), "%s stop %d step %d: left the floor", name,
							 stop, step );
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
			}
			vec2s end = kcc_controller_get_position( c );
			vec2s moved = glms_vec2_sub( end, rest );
			float along = moved.x * downhill.x + moved.y * downhill.y;
			float across = moved.x * downhill.y - moved.y * downhill.x;
			if ( stop )
			{
				SCENE_CHECK( test_vec2_difference( end, rest ) <= 1e-4f, "%s: crept %g with stop_on_slope", name,
							 (double)test_vec2_difference( end, rest ) );
			}
			else
			{
				// Each step the along-slope speed gains g dt sin(angle) and the step moves speed * dt: after n steps
				// g dt^2 sin(angle) n (n + 1) / 2 (the first step may be spent leaving the resting contact).
				float predicted = GRAVITY * DT * DT * sinf( angle ) * (float)( steps * ( steps + 1 ) ) * 0.5f;
				float one_step_less = GRAVITY * DT * DT * sinf( angle ) * (float)( steps * ( steps - 1 ) ) * 0.5f;
				SCENE_CHECK( along <= predicted * 1.001f && along >= one_step_less * 0.999f,
							 "%s: slid %.5f along the slope in %d steps, expected %.5f (at least %.5f)", name,
							 (double)along, steps, (double)predicted, (double)one_step_less );
				SCENE_CHECK( fabsf( across ) <= 1e-3f, "%s: left the slope's line by %g", name, (double)across );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// constant_speed_on_slopes

static void test_constant_speed_on_slopes( void** state )
{
	(void)state;
	const float angle = 30.0f * DEG;
	const float lateral = 0.1f; // 6 u/s at dt 1/60
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int constant = 0; constant < 2; ++constant )
		{
			for ( int dir = -1; dir <= 1; dir += 2 )
			{
				scene* s = scene_create( 1.0f );
				scene_add_long_slope( s, angle );
				float start_x = -15.0f * (float)dir;
				kcc_controller_def def = test_character_def( kind, kcc_v2( start_x, start_x * tanf( angle ) + 1.0f ) );
				def.constant_speed_on_slopes = constant != 0;
				kcc_controller* c = scene_create_controller( s, &def );
				assert_non_null( c );
				const char* name = test_character_name( kind );
				const char* way = dir > 0 ? "uphill" : "downhill";
				vec2s velocity = kcc_v2( 0.0f, 0.0f );
				SCENE_CHECK( test_settle( c, &velocity, GRAVITY, DT, 10 ), "%s: never stood on the slope", name );
				float expected_along, expected_horizontal;
				if ( constant )
				{
					expected_along = lateral;
					expected_horizontal = lateral * cosf( angle );
				}
				else if ( dir > 0 )
				{
					expected_along = lateral * cosf( angle ); // the input clipped against the slope
					expected_horizontal = expected_along * cosf( angle );
				}
				else
				{
					expected_along = lateral / cosf( angle ); // horizontal, then snapped down
					expected_horizontal = lateral;
				}
				for ( int step = 0; step < 200; ++step )
				{
					kcc_move_result result;
					vec2s before = kcc_controller_get_position( c );
					assert_int_equal( test_gravity_step( c, &velocity, 6.0f * (float)dir, GRAVITY, DT, &result ), KCC_OK );
					SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s %s step %d: left the floor", name, way, step );
					vec2s moved = glms_vec2_sub( result.position, before );
					float length = sqrtf( moved.x * moved.x + moved.y * moved.y );
					if ( step >= 2 ) // the first steps start from rest
					{
						SCENE_CHECK( fabsf( length - expected_along ) <= 1e-4f &&
										 fabsf( fabsf( moved.x ) - expected_horizontal ) <= 1e-4f,
									 "%s %s constant %d step %d: moved %.6f along the slope (%.6f horizontally), "
									 "expected %.6f (%.6f)", name, way, constant, step, (double)length,
									 (double)fabsf( moved.x ), (double)expected_along, (double)expected_horizontal );
						// Along the slope: the motion keeps the slope's direction.
						float across = moved.x * sinf( angle ) - moved.y * cosf( angle );
						SCENE_CHECK( fabsf( across ) <= 1e-4f, "%s %s step %d: off the slope's direction by %g", name,
									 way, step, (double)across );
					}
					float depth = scene_overlap( s, &def.shape, result.position );
					SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
				}
				kcc_controller_destroy( c );
				scene_destroy( s );
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// slide_on_ceiling

// A diagonal jump (0.5, 2) from 1 below a tiled ceiling (bottom at y = 3).
static void test_slide_on_ceiling( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int slide = 0; slide < 2; ++slide )
		{
			for ( int mirror = -1; mirror <= 1; mirror += 2 )
			{
				float m = (float)mirror;
				scene* s = scene_create( m );
				scene_add_tile_row( s, -10, 3, 20 ); // ceiling, bottom at 3
				float half_height = test_character_half_height( kind );
				kcc_controller_def def = test_character_def( kind, kcc_v2( m * 0.3f, 3.0f - half_height - 1.0f ) );
				def.slide_on_ceiling = slide != 0;
				kcc_controller* c = scene_create_controller( s, &def );
				assert_non_null( c );
				const char* name = test_character_name( kind );
				vec2s delta = kcc_v2( m * 0.5f, 2.0f );
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, delta, &result ), KCC_OK );
				SCENE_CHECK( result.flags & KCC_ON_CEILING, "%s slide %d: no ceiling contact (0x%x)", name, slide,
							 (unsigned)result.flags );
				SCENE_CHECK( fabsf( result.position.y - ( 3.0f - half_height - def.skin ) ) <= 1e-4f,
							 "%s slide %d: at y %.6f under the ceiling", name, slide, (double)result.position.y );
				vec2s moved = result.displacement;
				if ( slide )
				{
					SCENE_CHECK( fabsf( moved.x - delta.x ) <= 1e-6f, "%s mirror %d: slid %.7f of %.7f horizontally",
								 name, mirror, (double)moved.x, (double)delta.x );
				}
				else
				{
					// Stopped at the contact: the displacement is along the input, and only the part before it.
					float cross = moved.x * delta.y - moved.y * delta.x;
					SCENE_CHECK( fabsf( cross ) <= 1e-5f, "%s mirror %d: moved (%.6f, %.6f), not along the input", name,
								 mirror, (double)moved.x, (double)moved.y );
					SCENE_CHECK( fabsf( moved.x ) < 0.5f * fabsf( delta.x ) + 1e-4f, "%s: moved %.6f horizontally",
								 name, (double)moved.x );
				}
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
				kcc_controller_destroy( c );
				scene_destroy( s );
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// max_floor_angle

static void test_max_floor_angle_classifies( void** state )
{
	(void)state;
	const float angle = 50.0f * DEG;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int limit = 0; limit < 2; ++limit )
		{
			scene* s = scene_create( 1.0f );
			scene_add_long_slope( s, angle );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 1.5f ) );
			def.max_floor_angle = ( limit == 0 ? 55.0f : 45.0f ) * DEG;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			const char* name = test_character_name( kind );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			int floor_steps = 0, wall_steps = 0;
			vec2s at_60 = kcc_v2( 0.0f, 0.0f );
			for ( int step = 0; step < 120; ++step )
			{
				kcc_move_result result;
				assert_int_equal( free_gravity_step( c, &velocity, &result ), KCC_OK );
				floor_steps += ( result.flags & KCC_ON_FLOOR ) ? 1 : 0;
				wall_steps += ( result.flags & KCC_ON_WALL ) ? 1 : 0;
				if ( step == 60 )
				{
					at_60 = result.position;
				}
				if ( limit == 0 && step > 60 )
				{
					SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s: a 50 degree slope is not a floor at 55 (step %d)",
								 name, step );
					SCENE_CHECK( fabsf( result.floor_normal.x + sinf( angle ) ) <= 1e-4f &&
									 fabsf( result.floor_normal.y - cosf( angle ) ) <= 1e-4f,
								 "%s: floor normal (%g, %g)", name, (double)result.floor_normal.x,
								 (double)result.floor_normal.y );
				}
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
			}
			vec2s end = kcc_controller_get_position( c );
			if ( limit == 0 )
			{
				SCENE_CHECK( test_vec2_difference( end, at_60 ) <= 1e-4f, "%s: crept %g on a walkable 50 degree slope",
							 name, (double)test_vec2_difference( end, at_60 ) );
			}
			else
			{
				SCENE_CHECK( floor_steps == 0, "%s: a 50 degree slope reported as floor %d times at 45", name,
							 floor_steps );
				SCENE_CHECK( wall_steps > 60, "%s: wall contact on only %d steps", name, wall_steps );
				SCENE_CHECK( end.y < at_60.y - 1.0f, "%s: did not slide down the steep slope (%g -> %g)", name,
							 (double)at_60.y, (double)end.y );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// FLOATING mode: no snapping, no steps (both enabled in the def)

static void test_floating_ignores_snap_and_steps( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		float half_height = test_character_half_height( kind );
		const char* name = test_character_name( kind );
		for ( int part = 0; part < 2; ++part )
		{
			scene* s = scene_create( 1.0f );
			float start_y;
			if ( part == 0 )
			{
				scene_add_tile_row( s, -10, -1, 13 );                 // top at 0 up to x = 3
				scene_add_box( s, 3.0f, -1.0f, 10.0f, 0.2f );          // a 0.2 step
				start_y = half_height + 0.01f;
			}
			else
			{
				scene_add_box( s, -10.0f, -1.0f, 3.0f, 0.2f );         // a ledge, top at 0.2
				scene_add_tile_row( s, 3, -1, 10 );                    // 0.2 lower
				start_y = 0.2f + half_height + 0.01f;
			}
			kcc_controller_def def = test_character_def( kind, kcc_v2( 1.0f, start_y ) );
			def.mode = KCC_MODE_FLOATING;
			def.step_height = 0.3f;
			def.snap_distance = 0.3f;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			for ( int step = 0; step < 60; ++step )
			{
				kcc_move_result result;
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.1f, 0.0f ), &result ), KCC_OK );
				SCENE_CHECK( ( result.flags & ( KCC_STEPPED | KCC_SNAPPED | KCC_ON_FLOOR ) ) == 0,
							 "%s part %d step %d: flags 0x%x in FLOATING mode", name, part, step, (unsigned)result.flags );
				// Top-down, a round character meeting the step's corner slides along it (up and over: nothing stops
				// it there); the flat-bottomed box meets the face and keeps its line, and nothing pulls any character
				// down a ledge.
				if ( kind == TEST_BOX || part == 1 )
				{
					SCENE_CHECK( result.position.y == start_y, "%s part %d step %d: y moved to %.7f", name, part, step,
								 (double)result.position.y );
				}
				float depth = scene_overlap( s, &def.shape, result.position );
				SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
			}
			vec2s end = kcc_controller_get_position( c );
			if ( part == 0 && kind == TEST_BOX )
			{
				SCENE_CHECK( end.x < 3.0f && ( kcc_controller_get_flags( c ) & KCC_ON_WALL ), "%s: got past the step to "
							 "x %.4f", name, (double)end.x );
			}
			else
			{
				SCENE_CHECK( end.x > 6.0f, "%s: stopped at x %.4f", name, (double)end.x );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// up = (0, -1)

// A course mirrored in y when flip is -1: floor, a 30 degree ramp, a plateau, a 0.2 step, a ledge.
static void build_flippable_course( scene* s, float flip )
{
	vec2s points[4];
	for ( int x = -10; x < 2; ++x )
	{
		scene_add_box( s, (float)x, flip < 0 ? 0.0f : -1.0f, (float)x + 1.0f, flip < 0 ? 1.0f : 0.0f );
	}
	float rise = 3.0f * tanf( 30.0f * DEG );
	vec2s ramp[4] = { { { 2.0f, 0.0f } }, { { 5.0f, rise } }, { { 5.0f, -1.0f } }, { { 2.0f, -1.0f } } };
	for ( int i = 0; i < 4; ++i )
	{
		points[i] = kcc_v2( ramp[i].x, flip * ramp[i].y );
	}
	scene_add_polygon( s, points, 4, 0.0f );
	float top = rise;
	float boxes[3][3] = { { 5.0f, 8.0f, top }, { 8.0f, 11.0f, top + 0.2f }, { 11.0f, 16.0f, top - 0.5f } };
	for ( int i = 0; i < 3; ++i )
	{
		float lo = -1.0f, hi = boxes[i][2];
		scene_add_box( s, boxes[i][0], flip < 0 ? -hi : lo, boxes[i][1], flip < 0 ? -lo : hi );
	}
}

static void test_up_pointing_down_mirrors_a_platformer( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* normal_scene = scene_create( 1.0f );
		scene* flipped_scene = scene_create( 1.0f );
		build_flippable_course( normal_scene, 1.0f );
		build_flippable_course( flipped_scene, -1.0f );
		float start_y = test_character_half_height( kind ) + 0.5f;
		kcc_controller_def def = test_character_def( kind, kcc_v2( -8.0f, start_y ) );
		def.step_height = 0.3f;
		kcc_controller* normal = scene_create_controller( normal_scene, &def );
		def.position = kcc_v2( -8.0f, -start_y );
		def.up = kcc_v2( 0.0f, -1.0f );
		kcc_controller* flipped = scene_create_controller( flipped_scene, &def );
		assert_non_null( normal );
		assert_non_null( flipped );
		const char* name = test_character_name( kind );
		vec2s v_normal = kcc_v2( 0.0f, 0.0f ), v_flipped = kcc_v2( 0.0f, 0.0f );
		uint32_t seen = 0;
		for ( int step = 0; step < 400; ++step )
		{
			float vx = step < 250 ? 6.0f : -4.0f;
			bool jump = step == 30 || step == 350; // the second once blocked by the 0.7 edge on the way back
			vec2s a = kcc_v2( vx, v_normal.y - GRAVITY * DT );
			vec2s b = kcc_v2( vx, v_flipped.y + GRAVITY * DT );
			if ( jump && kcc_controller_is_on_floor( normal ) )
			{
				a.y = 9.0f;
			}
			if ( jump && kcc_controller_is_on_floor( flipped ) )
			{
				b.y = -9.0f;
			}
			kcc_move_result ra, rb;
			assert_int_equal( kcc_controller_move_and_slide( normal, a, DT, &v_normal, &ra ), KCC_OK );
			assert_int_equal( kcc_controller_move_and_slide( flipped, b, DT, &v_flipped, &rb ), KCC_OK );
			SCENE_CHECK( fabsf( ra.position.x - rb.position.x ) <= 1e-5f && fabsf( ra.position.y + rb.position.y ) <= 1e-5f,
						 "%s step %d: (%.6f, %.6f) with up (0, 1), (%.6f, %.6f) with up (0, -1)", name, step,
						 (double)ra.position.x, (double)ra.position.y, (double)rb.position.x, (double)rb.position.y );
			SCENE_CHECK( ra.flags == rb.flags, "%s step %d: flags 0x%x and 0x%x", name, step, (unsigned)ra.flags,
						 (unsigned)rb.flags );
			if ( ra.flags & KCC_ON_FLOOR )
			{
				SCENE_CHECK( fabsf( ra.floor_normal.x - rb.floor_normal.x ) <= 1e-5f &&
								 fabsf( ra.floor_normal.y + rb.floor_normal.y ) <= 1e-5f,
							 "%s step %d: floor normals (%g, %g) and (%g, %g)", name, step, (double)ra.floor_normal.x,
							 (double)ra.floor_normal.y, (double)rb.floor_normal.x, (double)rb.floor_normal.y );
			}
			float depth = scene_overlap( flipped_scene, &def.shape, rb.position );
			SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
			seen |= rb.flags;
		}
		// The run met what it was built for: floors, a climbed step, a wall (the 0.7 edge on the way back).
		SCENE_CHECK( ( seen & ( KCC_ON_FLOOR | KCC_STEPPED | KCC_ON_WALL ) ) == ( KCC_ON_FLOOR | KCC_STEPPED | KCC_ON_WALL ),
					 "%s: the run saw only flags 0x%x", name, (unsigned)seen );
		kcc_controller_destroy( normal );
		kcc_controller_destroy( flipped );
		scene_destroy( normal_scene );
		scene_destroy( flipped_scene );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// min_move

static void test_min_move_keeps_position_and_ground_state( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int big = 0; big < 2; ++big )
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 20 );
			float half_height = test_character_half_height( kind );
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.5f, half_height + 0.01f ) );
			def.min_move = big ? 0.05f : 1e-4f;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			const char* name = test_character_name( kind );
			kcc_move_result result;
			assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.01f ), &result ), KCC_OK );
			SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s: not standing", name );
			vec2s rest = result.position;
			const vec2s shorts[] = { { { 0.5f, 0.0f } }, { { -0.5f, 0.0f } }, { { 0.0f, -0.5f } }, { { 0.3f, -0.3f } } };
			for ( int i = 0; i < 100; ++i )
			{
				vec2s unit = shorts[i % 4];
				float length = sqrtf( unit.x * unit.x + unit.y * unit.y );
				vec2s d = glms_vec2_scale( unit, 0.9f * def.min_move / length );
				assert_int_equal( kcc_controller_move( c, d, &result ), KCC_OK );
				SCENE_CHECK( result.position.x == rest.x && result.position.y == rest.y, "%s min_move %g: a move of %g "
							 "moved it to (%.7g, %.7g)", name, (double)def.min_move, (double)( 0.9f * def.min_move ),
							 (double)result.position.x, (double)result.position.y );
				SCENE_CHECK( result.displacement.x == 0.0f && result.displacement.y == 0.0f, "%s: displacement", name );
				SCENE_CHECK( result.flags & KCC_ON_FLOOR, "%s min_move %g move %d: lost the floor", name,
							 (double)def.min_move, i );
			}
			// Just above min_move: it moves, exactly.
			assert_int_equal( kcc_controller_move( c, kcc_v2( 1.25f * def.min_move, 0.0f ), &result ), KCC_OK );
			SCENE_CHECK( result.position.x == rest.x + 1.25f * def.min_move && result.position.y == rest.y,
						 "%s min_move %g: a move of 1.25 min_move went to (%.7g, %.7g)", name, (double)def.min_move,
						 (double)result.position.x, (double)result.position.y );
			// In the air the (not) ground state is kept as well.
			assert_int_equal( kcc_controller_set_position( c, kcc_v2( 0.5f, 5.0f ) ), KCC_OK );
			for ( int i = 0; i < 10; ++i )
			{
				assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.9f * def.min_move ), &result ), KCC_OK );
				SCENE_CHECK( ( result.flags & KCC_ON_FLOOR ) == 0 && result.position.y == 5.0f,
							 "%s: in the air, flags 0x%x, y %.7g", name, (unsigned)result.flags, (double)result.position.y );
			}
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_stop_on_slope_false_slides_down ),
		cmocka_unit_test( test_constant_speed_on_slopes ),
		cmocka_unit_test( test_slide_on_ceiling ),
		cmocka_unit_test( test_max_floor_angle_classifies ),
		cmocka_unit_test( test_floating_ignores_snap_and_steps ),
		cmocka_unit_test( test_up_pointing_down_mirrors_a_platformer ),
		cmocka_unit_test( test_min_move_keeps_position_and_ground_state ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_features_options", tests, NULL, NULL );
}
