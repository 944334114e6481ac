// SPDX-License-Identifier: MIT
// Quality property 5 (DESIGN.md section 5): V creases from 20 to 170 degrees. Pushed into the crease, the
// character converges to rest, does not jitter once settled (position changes < 1e-5 per move) and never moves
// against its input (the Quake rule); for all three characters, in both modes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

#define DEG ( SCENE_PI / 180.0f )
#define STEPS 400
#define SETTLED_FROM 300

static const float s_openings[] = { 20.0f, 35.0f, 45.0f, 60.0f, 90.0f, 120.0f, 150.0f, 170.0f };

// Pushes the character with a constant input into a crease of the given opening; checks every move.
static void push_into_crease( int kind, kcc_motion_mode mode, float opening_degrees, vec2s input, bool use_velocity )
{
	scene* s = scene_create( 1.0f );
	scene_add_crease( s, kcc_v2( 0.0f, 0.0f ), opening_degrees * DEG, 7.0f, 0.5f );
	// Start above the vertex, a little to the side, where the V is wide enough for every character.
	float tilt = 0.5f * ( 180.0f - opening_degrees ) * DEG;
	float top = 7.0f * sinf( tilt );
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.15f, top + 0.2f ) );
	def.mode = mode;
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	const char* name = test_character_name( kind );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	const float dt = 1.0f / 60.0f;
	float largest_settled_change = 0.0f;
	for ( int step = 0; step < STEPS; ++step )
	{
		kcc_move_result result;
		vec2s before = kcc_controller_get_position( c );
		vec2s delta = input;
		if ( use_velocity )
		{
			velocity.x = input.x / dt;
			velocity.y += input.y / dt * 0.2f; // gravity-like: accumulates, clipped by the controller
			delta = kcc_v2( velocity.x * dt, velocity.y * dt );
			assert_int_equal( kcc_controller_move_and_slide( c, velocity, dt, &velocity, &result ), KCC_OK );
		}
		else
		{
			assert_int_equal( kcc_controller_move( c, delta, &result ), KCC_OK );
		}
		vec2s moved = kcc_v2( result.position.x - before.x, result.position.y - before.y );
		float against = moved.x * delta.x + moved.y * delta.y;
		SCENE_CHECK( against >= -1e-6f, "%s mode %d %g deg step %d: moved (%g, %g) against the input (%g, %g)", name,
					 (int)mode, (double)opening_degrees, step, (double)moved.x, (double)moved.y, (double)delta.x,
					 (double)delta.y );
		float depth = scene_overlap( s, &def.shape, result.position );
		SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s mode %d %g deg step %d: overlap %g", name,
					 (int)mode, (double)opening_degrees, step, (double)depth );
		SCENE_CHECK( result.position.y > -0.5f, "%s %g deg: fell through the crease", name, (double)opening_degrees );
		if ( step >= SETTLED_FROM )
		{
			float change = test_vec2_difference( result.position, before );
			largest_settled_change = change > largest_settled_change ? change : largest_settled_change;
		}
	}
	SCENE_CHECK( largest_settled_change < 1e-5f,
				 "%s mode %d %g deg input (%g, %g)%s: still moving %g per step after %d steps (at %.6f, %.6f)", name,
				 (int)mode, (double)opening_degrees, (double)input.x, (double)input.y,
				 use_velocity ? " move_and_slide" : "", (double)largest_settled_change, SETTLED_FROM,
				 (double)kcc_controller_get_position( c ).x, (double)kcc_controller_get_position( c ).y );
	// At rest the character touches the crease (within skin).
	float gap = scene_gap( s, &def.shape, kcc_controller_get_position( c ), 1.0f );
	SCENE_CHECK( gap >= 0.0f && gap <= def.skin + 1e-4f, "%s %g deg: resting gap %g", name, (double)opening_degrees,
				 (double)gap );
	kcc_controller_destroy( c );
	scene_destroy( s );
}

static void test_crease_straight_down( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int oi = 0; oi < (int)( sizeof( s_openings ) / sizeof( s_openings[0] ) ); ++oi )
		{
			push_into_crease( kind, KCC_MODE_GROUNDED, s_openings[oi], kcc_v2( 0.0f, -0.1f ), false );
			push_into_crease( kind, KCC_MODE_FLOATING, s_openings[oi], kcc_v2( 0.0f, -0.1f ), false );
		}
	}
}

// A slanted input (16.7 degrees off vertical) converges where it points inside the crease's normal cone
// (surfaces tilted more than that: openings up to 146 degrees).
static void test_crease_slanted_input( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int oi = 0; oi < (int)( sizeof( s_openings ) / sizeof( s_openings[0] ) ); ++oi )
		{
			if ( s_openings[oi] > 140.0f )
			{
				continue;
			}
			// Platformer: only steep sides (walls) wedge a character that keeps walking.
			if ( s_openings[oi] < 90.0f )
			{
				push_into_crease( kind, KCC_MODE_GROUNDED, s_openings[oi], kcc_v2( 0.03f, -0.1f ), false );
			}
			push_into_crease( kind, KCC_MODE_FLOATING, s_openings[oi], kcc_v2( 0.03f, -0.1f ), false );
			push_into_crease( kind, KCC_MODE_FLOATING, s_openings[oi], kcc_v2( -0.25f, -1.0f ), false );
		}
	}
}

// Velocity level, with gravity accumulating: the clipped velocity must not pump energy into the crease.
static void test_crease_move_and_slide( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		for ( int oi = 0; oi < (int)( sizeof( s_openings ) / sizeof( s_openings[0] ) ); ++oi )
		{
			push_into_crease( kind, KCC_MODE_GROUNDED, s_openings[oi], kcc_v2( 0.0f, -0.05f ), true );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_crease_straight_down ),
		cmocka_unit_test( test_crease_slanted_input ),
		cmocka_unit_test( test_crease_move_and_slide ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_creases", tests, NULL, NULL );
}
