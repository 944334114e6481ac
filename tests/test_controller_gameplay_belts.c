// SPDX-License-Identifier: MIT
// Conveyor belts: a static or kinematic shape with a Chipmunk surface velocity (cpShapeSetSurfaceVelocity) carries
// a character standing on it in move_and_slide, along the floor, as Chipmunk's friction carries a body resting on it
// and Godot's constant_linear_velocity carries a CharacterBody2D. For the circle, the capsule and the rounded box,
// at 60 Hz with gravity 30:
// - a flat belt of 20 separate tiles at 2 u/s (and a kinematic box at 2 u/s): carried at exactly 2 u/s across the
//   seams, counted in get_platform_velocity, on the floor every frame; stopped by a wall at its end without pushing
//   into it (no overlap, resting within the skin, the velocity untouched); kcc_controller_move (no dt) is not
//   carried;
// - a 20 degree slope with a horizontal surface velocity of 2 u/s: carried by its part along the slope,
//   2 cos(20 deg) u/s up the slope; one along the slope going down: carried down at its speed, on the floor;
// - walking at 6 u/s against a 2 u/s belt covers 4 u/s, at 2 u/s stands still;
// - jumping off a 3 u/s belt with no input: ADD_VELOCITY keeps 3 u/s in the air, ADD_UPWARD_VELOCITY and
//   DO_NOTHING keep x; off a belt going up a slope, ADD_UPWARD_VELOCITY adds its upward part only;
// - restore + replay on a belt is bit-identical.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define JUMP 13.0f
#define SKIN 0.01f
#define SLOPE ( 20.0f * SCENE_PI / 180.0f )

static void set_belt( cpShape* shape, vec2s velocity )
{
	cpShapeSetSurfaceVelocity( shape, cpv( velocity.x, velocity.y ) );
}

// One frame as a game plays it: no input keeps the velocity's x (handed on when leaving a belt), gravity.
static kcc_move_result frame( kcc_controller* c, vec2s* velocity )
{
	kcc_move_result result;
	velocity->y -= GRAVITY * DT;
	assert_int_equal( kcc_controller_move_and_slide( c, *velocity, DT, velocity, &result ), KCC_OK );
	return result;
}

// A flat belt at 2 u/s from x = -10 to 10 (top at y = 0), made of separate tiles or one kinematic box, and a wall
// at x = 6 standing on it.
static scene* flat_belt( bool kinematic, vec2s belt )
{
	scene* s = scene_create( 1.0f );
	scene_add_box( s, 6.0f, 0.0f, 7.0f, 4.0f );
	if ( kinematic == false )
	{
		scene_add_tile_row( s, -10, -1, 20 );
		for ( int i = 1; i < s->count; ++i )
		{
			set_belt( s->shapes[i], belt );
		}
	}
	scene_commit( s, 0 );
	if ( kinematic )
	{
		set_belt( scene_add_body_box( s, kcc_v2( 0.0f, -0.5f ), kcc_v2( 10.0f, 0.5f ), 0.0f, 0.0f, CP_ALL_CATEGORIES ),
				  belt );
	}
	return s;
}

static kcc_controller* stand( scene* s, int kind, vec2s at )
{
	kcc_controller_def def = test_character_def( kind, at );
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	return c;
}

static void test_flat_belt_carries_at_its_speed_and_stops_at_a_wall( void** state )
{
	(void)state;
	for ( int kinematic = 0; kinematic <= 1; ++kinematic )
	{
		for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
		{
			const char* name = test_character_name( kind );
			scene* s = flat_belt( kinematic, kcc_v2( 2.0f, 0.0f ) );
			float half = test_character_half_height( kind );
			kcc_controller* c = stand( s, kind, kcc_v2( -4.0f, half + SKIN ) );
			// Created on the belt: carried from the first frame.
			vec2s pv = kcc_controller_get_platform_velocity( c );
			SCENE_CHECK( fabsf( pv.x - 2.0f ) < 1.0e-6f && fabsf( pv.y ) < 1.0e-6f,
						 "%s: platform velocity (%g, %g) on a 2 u/s belt", name, (double)pv.x, (double)pv.y );
			// A plain move has no time step: not carried.
			assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.001f ), NULL ), KCC_OK );
			assert_float_equal( kcc_controller_get_position( c ).x, -4.0f, 0.0f );

			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			float stop = 6.0f - test_character_half_width( kind ) - SKIN;
			int frames_to_wall = (int)( ( stop + 4.0f ) / ( 2.0f * DT ) ) - 1;
			for ( int i = 0; i < 300; ++i )
			{
				float x = kcc_controller_get_position( c ).x;
				kcc_move_result r = frame( c, &velocity );
				SCENE_CHECK( r.flags & KCC_ON_FLOOR, "%s (%s belt): off the floor at frame %d", name,
							 kinematic ? "kinematic" : "tile", i );
				SCENE_CHECK( ( r.flags & KCC_ON_WALL ) == 0 || i >= frames_to_wall, "%s: a wall at frame %d (x %g)",
							 name, i, (double)r.position.x );
				if ( i < frames_to_wall )
				{
					SCENE_CHECK( fabsf( r.position.x - x - 2.0f * DT ) < 1.0e-5f, "%s: moved %g at frame %d", name,
								 (double)( r.position.x - x ), i );
					vec2s real = kcc_controller_get_real_velocity( c );
					SCENE_CHECK( fabsf( real.x - 2.0f ) < 1.0e-3f && fabsf( real.y ) < 1.0e-3f,
								 "%s: real velocity (%g, %g)", name, (double)real.x, (double)real.y );
				}
				// The character's own velocity is its own: the belt never adds to it while it stands on the belt.
				assert_float_equal( velocity.x, 0.0f, 0.0f );
				kcc_shape shape = test_character_shape( kind );
				float depth = scene_overlap( s, &shape, r.position );
				SCENE_CHECK( depth <= 1.0e-3f * test_character_height( kind ), "%s: overlap %g at frame %d", name,
							 (double)depth, i );
				SCENE_CHECK( r.position.y >= half && r.position.y <= half + SKIN + 1.0e-4f, "%s: y %g at frame %d",
							 name, (double)r.position.y, i );
			}
			float x = kcc_controller_get_position( c ).x;
			// Resting against the wall: between a skin away and touching, as after any move (never into it).
			SCENE_CHECK( x >= stop - 1.0e-4f && x <= stop + SKIN, "%s: stopped at %g, the wall's skin is at %g", name,
						 (double)x, (double)stop );
			pv = kcc_controller_get_platform_velocity( c );
			assert_float_equal( pv.x, 2.0f, 1.0e-6f );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// A 20 degree slope rising to the right through the origin, with a surface velocity.
static scene* sloped_belt( vec2s belt, cpShape** shape )
{
	scene* s = scene_create( 1.0f );
	*shape = scene_add_slope( s, kcc_v2( -40.0f, -40.0f * tanf( SLOPE ) ), SLOPE, 80.0f, 5.0f );
	set_belt( *shape, belt );
	scene_commit( s, 0 );
	return s;
}

// Standing on the slope at x: the shape's lowest point along the slope's normal a skin from the surface.
static vec2s on_slope( int kind, float x )
{
	float cs = cosf( SLOPE ), sn = sinf( SLOPE );
	const float extent[TEST_CHARACTER_COUNT] = { 0.4f, 0.3f * cs + 0.3f, 0.3f * sn + 0.45f * cs + 0.05f };
	return kcc_v2( x, x * tanf( SLOPE ) + ( extent[kind] + SKIN ) / cs );
}

static void run_on_slope( vec2s belt, vec2s expected, const char* what )
{
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		cpShape* shape;
		scene* s = sloped_belt( belt, &shape );
		kcc_controller* c = stand( s, kind, on_slope( kind, 0.0f ) );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		for ( int i = 0; i < 20; ++i )
		{
			frame( c, &velocity ); // settle on the slope and start riding
		}
		vec2s start = kcc_controller_get_position( c );
		vec2s pv = kcc_controller_get_platform_velocity( c );
		SCENE_CHECK( test_vec2_difference( pv, expected ) < 1.0e-5f,
					 "%s, %s: platform velocity (%g, %g), expected (%g, %g)", what, name, (double)pv.x, (double)pv.y,
					 (double)expected.x, (double)expected.y );
		for ( int i = 0; i < 60; ++i )
		{
			kcc_move_result r = frame( c, &velocity );
			SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == shape, "%s, %s: off the belt at frame %d",
						 what, name, i );
		}
		vec2s moved = glms_vec2_sub( kcc_controller_get_position( c ), start );
		SCENE_CHECK( test_vec2_difference( moved, expected ) < 1.0e-3f,
					 "%s, %s: moved (%g, %g) in 1 s, expected (%g, %g)", what, name, (double)moved.x, (double)moved.y,
					 (double)expected.x, (double)expected.y );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

static void test_sloped_belt_carries_along_the_slope( void** state )
{
	(void)state;
	float cs = cosf( SLOPE ), sn = sinf( SLOPE );
	// A horizontal surface velocity: its part along the slope, 2 cos(a) up the slope.
	run_on_slope( kcc_v2( 2.0f, 0.0f ), kcc_v2( 2.0f * cs * cs, 2.0f * cs * sn ), "horizontal 2 u/s" );
	// Along the slope, down it at 1.5 u/s.
	run_on_slope( kcc_v2( -1.5f * cs, -1.5f * sn ), kcc_v2( -1.5f * cs, -1.5f * sn ), "1.5 u/s down the slope" );
}

static void test_walking_against_a_belt( void** state )
{
	(void)state;
	const float walk[] = { -6.0f, -2.0f, 3.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int w = 0; w < 3; ++w )
		{
			scene* s = flat_belt( false, kcc_v2( 2.0f, 0.0f ) );
			kcc_controller* c = stand( s, kind, kcc_v2( 0.0f, test_character_half_height( kind ) + SKIN ) );
			vec2s velocity = kcc_v2( 0.0f, 0.0f );
			kcc_move_result r;
			for ( int i = 0; i < 60; ++i )
			{
				assert_int_equal( test_gravity_step( c, &velocity, walk[w], GRAVITY, DT, &r ), KCC_OK );
				assert_true( r.flags & KCC_ON_FLOOR );
			}
			float x = kcc_controller_get_position( c ).x;
			SCENE_CHECK( fabsf( x - ( walk[w] + 2.0f ) ) < 1.0e-3f, "%s walking at %g on a 2 u/s belt: x %g after 1 s",
						 test_character_name( kind ), (double)walk[w], (double)x );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// Jumps with no input off a belt after standing on it; returns the velocity after the jump's frame and the x
// covered in the 20 frames after it.
static vec2s jump_off( scene* s, int kind, vec2s at, kcc_platform_leave leave, float* air_dx )
{
	kcc_controller_def def = test_character_def( kind, at );
	def.platform_on_leave = leave;
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < 10; ++i )
	{
		assert_true( frame( c, &velocity ).flags & KCC_ON_FLOOR );
	}
	velocity.y = JUMP;
	kcc_move_result r = frame( c, &velocity );
	assert_false( r.flags & KCC_ON_FLOOR );
	vec2s after_jump = velocity;
	vec2s pv = kcc_controller_get_platform_velocity( c );
	assert_true( pv.x == 0.0f && pv.y == 0.0f );
	float x = kcc_controller_get_position( c ).x;
	for ( int i = 0; i < 20; ++i )
	{
		assert_false( frame( c, &velocity ).flags & KCC_ON_FLOOR );
	}
	*air_dx = kcc_controller_get_position( c ).x - x;
	kcc_controller_destroy( c );
	return after_jump;
}

static void test_jumping_off_a_belt( void** state )
{
	(void)state;
	float cs = cosf( SLOPE ), sn = sinf( SLOPE );
	float vy = JUMP - GRAVITY * DT;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		float air_dx;
		vec2s at = kcc_v2( -4.0f, test_character_half_height( kind ) + SKIN );
		scene* s = flat_belt( false, kcc_v2( 3.0f, 0.0f ) );
		vec2s v = jump_off( s, kind, at, KCC_PLATFORM_LEAVE_ADD_VELOCITY, &air_dx );
		SCENE_CHECK( fabsf( v.x - 3.0f ) < 1.0e-5f && fabsf( v.y - vy ) < 1.0e-5f,
					 "%s ADD_VELOCITY: (%g, %g) after the jump", name, (double)v.x, (double)v.y );
		assert_float_equal( air_dx, 3.0f * 20.0f * DT, 1.0e-4f );
		v = jump_off( s, kind, at, KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY, &air_dx );
		SCENE_CHECK( v.x == 0.0f && fabsf( v.y - vy ) < 1.0e-5f, "%s ADD_UPWARD_VELOCITY: (%g, %g) after the jump",
					 name, (double)v.x, (double)v.y );
		assert_float_equal( air_dx, 0.0f, 0.0f );
		v = jump_off( s, kind, at, KCC_PLATFORM_LEAVE_DO_NOTHING, &air_dx );
		SCENE_CHECK( v.x == 0.0f && fabsf( v.y - vy ) < 1.0e-5f, "%s DO_NOTHING: (%g, %g) after the jump", name,
					 (double)v.x, (double)v.y );
		assert_float_equal( air_dx, 0.0f, 0.0f );
		scene_destroy( s );

		// Off a belt going up a slope at 3 u/s: its upward part only, or all of it.
		cpShape* shape;
		s = sloped_belt( kcc_v2( 3.0f * cs, 3.0f * sn ), &shape );
		v = jump_off( s, kind, on_slope( kind, -20.0f ), KCC_PLATFORM_LEAVE_ADD_UPWARD_VELOCITY, &air_dx );
		SCENE_CHECK( v.x == 0.0f && fabsf( v.y - ( vy + 3.0f * sn ) ) < 1.0e-4f,
					 "%s ADD_UPWARD_VELOCITY on a slope: (%g, %g) after the jump", name, (double)v.x, (double)v.y );
		v = jump_off( s, kind, on_slope( kind, -20.0f ), KCC_PLATFORM_LEAVE_ADD_VELOCITY, &air_dx );
		SCENE_CHECK( fabsf( v.x - 3.0f * cs ) < 1.0e-4f && fabsf( v.y - ( vy + 3.0f * sn ) ) < 1.0e-4f,
					 "%s ADD_VELOCITY on a slope: (%g, %g) after the jump", name, (double)v.x, (double)v.y );
		scene_destroy( s );
	}
}

// Scripted input on a belt with a wall: walk both ways, jump; rollback to frame 40 and replay.
static vec2s script( int i, vec2s velocity, bool on_floor )
{
	velocity.x = ( i / 50 ) % 2 == 0 ? -1.5f : 2.5f;
	if ( on_floor && i % 37 == 0 )
	{
		velocity.y = JUMP;
	}
	velocity.y -= GRAVITY * DT;
	return velocity;
}

static void replay( kcc_controller* c, vec2s* velocity, int from, int to, vec2s* positions, vec2s* platform )
{
	for ( int i = from; i < to; ++i )
	{
		vec2s v = script( i, *velocity, kcc_controller_is_on_floor( c ) );
		assert_int_equal( kcc_controller_move_and_slide( c, v, DT, velocity, NULL ), KCC_OK );
		positions[i - from] = kcc_controller_get_position( c );
		platform[i - from] = kcc_controller_get_platform_velocity( c );
	}
}

static void test_rollback_on_a_belt_is_bit_identical( void** state )
{
	(void)state;
	enum
	{
		frames = 240,
		snap_frame = 40
	};
	static vec2s first[frames], second[frames], first_pv[frames], second_pv[frames];
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = flat_belt( false, kcc_v2( 2.0f, 0.0f ) );
		kcc_controller* c = stand( s, kind, kcc_v2( -4.0f, test_character_half_height( kind ) + SKIN ) );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		replay( c, &velocity, 0, snap_frame, first, first_pv );
		kcc_controller_state saved = kcc_controller_get_state( c );
		vec2s saved_velocity = velocity;
		replay( c, &velocity, snap_frame, frames, first, first_pv );
		assert_int_equal( kcc_controller_set_state( c, &saved ), KCC_OK );
		velocity = saved_velocity;
		replay( c, &velocity, snap_frame, frames, second, second_pv );
		assert_memory_equal( first, second, sizeof( vec2s ) * ( frames - snap_frame ) );
		assert_memory_equal( first_pv, second_pv, sizeof( vec2s ) * ( frames - snap_frame ) );
		// The belt really carried the character in the run (it reached the wall, or passed its start).
		bool carried = false;
		for ( int i = 0; i < frames - snap_frame; ++i )
		{
			carried |= fabsf( first_pv[i].x - 2.0f ) < 1.0e-5f;
		}
		assert_true( carried );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_flat_belt_carries_at_its_speed_and_stops_at_a_wall ),
		cmocka_unit_test( test_sloped_belt_carries_along_the_slope ),
		cmocka_unit_test( test_walking_against_a_belt ),
		cmocka_unit_test( test_jumping_off_a_belt ),
		cmocka_unit_test( test_rollback_on_a_belt_is_bit_identical ),
	};
	return cmocka_run_group_tests_name( "controller_belts", tests, NULL, NULL );
}
