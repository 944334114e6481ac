// SPDX-License-Identifier: MIT
// Changing up at run time (kcc_controller_set_up: gravity flips, walking on walls), for the circle, the capsule and
// the rounded box, in a room of separate 1x1 tiles (floor top at 0, ceiling bottom at 5, walls at x = -8 and 8):
// - flip up to (0, -1) with gravity reversed: the ground state is cleared at once, the character falls to the
//   ceiling, lands on it (KCC_ON_FLOOR, floor normal (0, -1), a ceiling tile as its floor), walks along it over the
//   tile seams without a wall contact at the walking speed, and climbs a step hanging from it; flip back: the same
//   on the floor;
// - up = (1, 0) (the left wall is the floor): it falls left and stands on the wall;
// - the state holds up: restore + replay across a flip is bit-identical;
// - bad inputs (NULL, NaN, infinite, zero, not unit): a clear error and nothing changed.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "assert_recorder.h"
#include "controller_scene.h"

#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define WALK 6.0f

static scene* room( void )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -8, -1, 16 );   // floor, top at 0
	scene_add_tile_row( s, -8, 5, 16 );    // ceiling, bottom at 5
	scene_add_tile_column( s, -9, -1, 7 ); // walls
	scene_add_tile_column( s, 8, -1, 7 );
	scene_add_box( s, 3.0f, 4.8f, 8.0f, 5.0f ); // a step 0.2 high hanging from the ceiling, from x = 3
	return s;
}

// One frame with gravity along -up and a walk of vx along the lateral direction (up rotated clockwise: right
// when up is (0, 1), left when up is (0, -1)).
static kcc_move_result frame( kcc_controller* c, vec2s* velocity, float walk )
{
	vec2s up = kcc_controller_get_up( c );
	vec2s side = kcc_v2( up.y, -up.x );
	float along_up = velocity->x * up.x + velocity->y * up.y - GRAVITY * DT;
	vec2s v = kcc_v2( side.x * walk + up.x * along_up, side.y * walk + up.y * along_up );
	kcc_move_result r;
	assert_int_equal( kcc_controller_move_and_slide( c, v, DT, velocity, &r ), KCC_OK );
	return r;
}

static bool is_ceiling_tile( const scene* s, const cpShape* shape )
{
	for ( int i = 16; i < 32; ++i )
	{
		if ( s->shapes[i] == shape )
		{
			return true;
		}
	}
	return false;
}

static void test_gravity_flip_to_the_ceiling_and_back( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = room();
		float half = test_character_half_height( kind );
		kcc_controller_def def = test_character_def( kind, kcc_v2( -2.0f, half + 0.01f ) );
		def.step_height = 0.3f;
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		frame( c, &velocity, 0.0f );
		SCENE_CHECK( kcc_controller_is_on_floor( c ), "%s: not standing at the start", name );

		assert_int_equal( kcc_controller_set_up( c, kcc_v2( 0.0f, -1.0f ) ), KCC_OK );
		SCENE_CHECK( kcc_controller_is_on_floor( c ) == false, "%s: still on the floor after the flip", name );
		vec2s up = kcc_controller_get_up( c );
		SCENE_CHECK( up.x == 0.0f && up.y == -1.0f, "%s: up is (%g, %g)", name, (double)up.x, (double)up.y );
		// Fall to the ceiling (about 4 units: 0.6 s).
		kcc_move_result r;
		int landed = -1;
		for ( int i = 0; i < 60 && landed < 0; ++i )
		{
			r = frame( c, &velocity, 0.0f );
			if ( r.flags & KCC_ON_FLOOR )
			{
				landed = i;
			}
		}
		SCENE_CHECK( landed >= 0, "%s: never landed on the ceiling", name );
		SCENE_CHECK( fabsf( r.position.y - ( 5.0f - half - 0.01f ) ) <= 1e-4f && r.floor_normal.y == -1.0f &&
						 is_ceiling_tile( s, r.floor_shape ), "%s: landed at y %.6f, floor normal (%g, %g)", name,
					 (double)r.position.y, (double)r.floor_normal.x, (double)r.floor_normal.y );
		SCENE_CHECK( velocity.y == 0.0f, "%s: velocity.y %g after landing on the ceiling", name, (double)velocity.y );
		// Walk along the ceiling toward +x (with up (0, -1) the lateral direction (up.y, -up.x) is -x: walk -6).
		float x0 = r.position.x;
		int climbs = 0;
		for ( int i = 0; i < 60; ++i )
		{
			vec2s before = kcc_controller_get_position( c );
			r = frame( c, &velocity, -WALK );
			SCENE_CHECK( r.flags & KCC_ON_FLOOR, "%s frame %d: off the ceiling while walking on it", name, i );
			climbs += ( r.flags & KCC_STEPPED ) ? 1 : 0;
			if ( r.position.x < 2.5f )
			{
				SCENE_CHECK( ( r.flags & KCC_ON_WALL ) == 0 && fabsf( r.position.x - before.x - 0.1f ) <= 1e-5f,
							 "%s frame %d: walking on the ceiling's tiles moved %g (flags 0x%x)", name, i,
							 (double)( r.position.x - before.x ), (unsigned)r.flags );
			}
			float depth = scene_overlap( s, &def.shape, r.position );
			SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g", name, (double)depth );
		}
		SCENE_CHECK( r.position.x > x0 + 5.5f, "%s: walked only %g along the ceiling", name, (double)( r.position.x - x0 ) );
		SCENE_CHECK( climbs >= 1 && fabsf( r.position.y - ( 4.8f - half - 0.01f ) ) <= 1e-4f,
					 "%s: the step hanging from the ceiling: %d climbing frames, at y %.6f", name, climbs,
					 (double)r.position.y );

		// Flip back: down to the floor.
		assert_int_equal( kcc_controller_set_up( c, kcc_v2( 0.0f, 1.0f ) ), KCC_OK );
		for ( int i = 0; i < 60; ++i )
		{
			r = frame( c, &velocity, 0.0f );
		}
		SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) && fabsf( r.position.y - ( half + 0.01f ) ) <= 1e-4f &&
						 r.floor_normal.y == 1.0f, "%s: back on the floor at y %.6f", name, (double)r.position.y );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// up = (1, 0): the left wall (x = -8) is the floor; the character falls left onto it and stands there.
static void test_walking_on_a_wall( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = room();
		kcc_controller_def def = test_character_def( kind, kcc_v2( -4.0f, 2.5f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		assert_int_equal( kcc_controller_set_up( c, kcc_v2( 1.0f, 0.0f ) ), KCC_OK );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result r;
		for ( int i = 0; i < 60; ++i )
		{
			r = frame( c, &velocity, 0.0f );
		}
		// Its lowest point along up (1, 0) is its left side.
		float expected = -8.0f + test_character_half_width( kind ) + 0.01f;
		SCENE_CHECK( ( r.flags & KCC_ON_FLOOR ) && fabsf( r.position.x - expected ) <= 1e-4f && r.floor_normal.x == 1.0f,
					 "%s: on the wall at x %.6f (expected %.6f), flags 0x%x", name, (double)r.position.x,
					 (double)expected, (unsigned)r.flags );
		// Walking "right" along it (down the world's y: side = (up.y, -up.x) = (0, -1)), 10 frames.
		float y0 = r.position.y;
		for ( int i = 0; i < 10; ++i )
		{
			r = frame( c, &velocity, WALK );
			SCENE_CHECK( r.flags & KCC_ON_FLOOR, "%s frame %d: off the wall", name, i );
		}
		SCENE_CHECK( fabsf( r.position.y - ( y0 - 1.0f ) ) <= 1e-4f, "%s: walked %g along the wall", name,
					 (double)( y0 - r.position.y ) );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// up is part of the state: flip at frame 20, flip back at frame 70, restore at frames 10, 20, 21, 45 and replay.
static void test_rollback_across_a_flip_is_bit_identical( void** state )
{
	(void)state;
	enum { FRAMES = 110 };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = room();
		kcc_controller_def def = test_character_def( kind, kcc_v2( -6.0f, test_character_half_height( kind ) + 0.01f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		static kcc_controller_state states[FRAMES];
		static vec2s velocities[FRAMES], first[FRAMES];
		static const int from_frames[] = { 0, 10, 20, 21, 45 };
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		for ( int pass = 0; pass < 5; ++pass )
		{
			int from = from_frames[pass];
			if ( pass > 0 )
			{
				assert_int_equal( kcc_controller_set_state( c, &states[from] ), KCC_OK );
				velocity = velocities[from];
			}
			for ( int i = from; i < FRAMES; ++i )
			{
				if ( i == 20 || i == 70 )
				{
					assert_int_equal( kcc_controller_set_up( c, kcc_v2( 0.0f, i == 20 ? -1.0f : 1.0f ) ), KCC_OK );
				}
				if ( pass == 0 )
				{
					states[i] = kcc_controller_get_state( c );
					velocities[i] = velocity;
				}
				kcc_move_result r = frame( c, &velocity, 2.0f );
				if ( pass == 0 )
				{
					first[i] = r.position;
				}
				else
				{
					SCENE_CHECK( memcmp( &first[i], &r.position, sizeof( vec2s ) ) == 0,
								 "%s: replay from %d differs at frame %d", name, from, i );
				}
			}
		}
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

static void test_bad_up_is_refused_and_changes_nothing( void** state )
{
	(void)state;
	scene* s = room();
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( 0.0f, 0.61f ) );
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	frame( c, &velocity, 0.0f );
	kcc_controller_state before = kcc_controller_get_state( c );

	reset_asserts();
	assert_int_equal( kcc_controller_set_up( NULL, kcc_v2( 0.0f, 1.0f ) ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_controller_set_up", "NULL" );
	reset_asserts();
	vec2s up = kcc_controller_get_up( NULL );
	expect_message( "kcc_controller_get_up", "NULL" );
	assert_true( up.x == 0.0f && up.y == 1.0f );

	const vec2s not_finite[] = { { { NAN, 1.0f } }, { { 0.0f, INFINITY } }, { { -INFINITY, NAN } } };
	for ( int i = 0; i < 3; ++i )
	{
		assert_int_equal( kcc_controller_set_up( c, not_finite[i] ), KCC_ERROR_NOT_FINITE );
	}
	const vec2s not_unit[] = { { { 0.0f, 0.0f } }, { { 0.0f, 2.0f } }, { { 0.5f, 0.5f } }, { { 1e-30f, 0.0f } } };
	for ( int i = 0; i < 4; ++i )
	{
		reset_asserts();
		assert_int_equal( kcc_controller_set_up( c, not_unit[i] ), KCC_ERROR_INVALID_ARGUMENT );
		expect_message( "kcc_controller_set_up", "unit" );
	}
	kcc_controller_state after = kcc_controller_get_state( c );
	SCENE_CHECK( memcmp( &before, &after, sizeof( before ) ) == 0, "a refused up changed the controller" );
	kcc_controller_destroy( c );
	scene_destroy( s );
}

// A flip forgets the platform ridden: a character on a platform moving sideways at 3 u/s is no longer carried by it
// from the move after the flip (it falls toward the ceiling with its x unchanged).
static void test_a_flip_leaves_the_platform( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = room();
		scene_commit( s, 0 );
		cpShape* platform = scene_add_body_box( s, kcc_v2( -4.0f, 0.25f ), kcc_v2( 2.0f, 0.25f ), 0.0f, 0.0f, 1u );
		cpBody* body = cpShapeGetBody( platform );
		kcc_controller_def def = test_character_def( kind, kcc_v2( -4.0f, 0.5f + test_character_half_height( kind ) + 0.01f ) );
		kcc_controller* c = kcc_controller_create( s->space, &def );
		assert_non_null( c );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result r;
		float x = -4.0f;
		for ( int i = 0; i < 10; ++i )
		{
			x += 0.05f;
			scene_place_body( s, body, kcc_v2( x, 0.25f ) );
			r = frame( c, &velocity, 0.0f );
		}
		SCENE_CHECK( r.floor_shape == platform && fabsf( r.position.x - x ) <= 1e-4f, "%s: not riding the platform", name );
		assert_int_equal( kcc_controller_set_up( c, kcc_v2( 0.0f, -1.0f ) ), KCC_OK );
		float before = kcc_controller_get_position( c ).x;
		x += 0.05f;
		scene_place_body( s, body, kcc_v2( x, 0.25f ) );
		r = frame( c, &velocity, 0.0f );
		SCENE_CHECK( r.position.x == before, "%s: carried %g by the platform after the flip", name,
					 (double)( r.position.x - before ) );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_gravity_flip_to_the_ceiling_and_back ),
		cmocka_unit_test( test_walking_on_a_wall ),
		cmocka_unit_test( test_a_flip_leaves_the_platform ),
		cmocka_unit_test( test_rollback_across_a_flip_is_bit_identical ),
		cmocka_unit_test( test_bad_up_is_refused_and_changes_nothing ),
	};
	return cmocka_run_group_tests_name( "controller_gameplay_up", tests, install_recorder, NULL );
}
