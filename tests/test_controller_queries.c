// SPDX-License-Identifier: MIT
// What a game asks the controller besides moving it, on a real scene, for the circle, the capsule and the rounded
// box:
// - test_move ("can I walk there?"): the move's own first contact (same travel, normal and shape as the move that
//   follows), one-way shapes, sensors, the filter and a drop-through as a move sees them, a crate reported and not
//   pushed; the state (get_state, memcmp), the cpBody and the zones unchanged; a cast meeting more shapes than
//   max_candidates done in parts like a move; bad input refused;
// - the getters: floor normal, wall normal, on wall, on ceiling, floor shape on a floor, against a wall, under a
//   ceiling, on a slope and in the air after a jump; restored with a state;
// - move_and_slide with dt == 0, a paused frame: nothing moves, KCC_OK, the velocity handed back unchanged, and a
//   platform that moved during the pause carries its rider afterwards; dt < 0 stays an error.
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
#define SKIN 0.01f

#define LEVEL_CATEGORY 1u
#define ONE_WAY_CATEGORY 2u
#define PUSHABLE_CATEGORY 4u
#define GHOST_CATEGORY 8u // not in the characters' mask

typedef struct room
{
	scene* s;
	cpShape* wall;    // its left face at x = 5
	cpShape* ceiling; // its underside at y = 3, over x in [-6, -3]
	cpShape* slope;   // walkable (SLOPE_ANGLE), rising to the left from (-20, 0) to x = -30
	cpShape* ledge;   // one-way, top at y = 2, x in [1, 3]
	cpShape* ghost;   // a box at x in [-2.5, -2] the character's filter ignores
	cpShape* zone;    // a sensor at x in [2, 3]
} room;

#define SLOPE_ANGLE 0.35f

static void set_category( cpShape* shape, cpBitmask category )
{
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, category, CP_ALL_CATEGORIES ) );
}

// Floor top at y = 0 from x = -20 to 20; a wall at x = 5; a ceiling at y = 3 over [-6, -3]; a slope rising from
// (-20, 0) to the left (mirror of a ramp: it goes up toward -x); a one-way ledge; a ghost box; a sensor.
static room room_create( void )
{
	room r;
	memset( &r, 0, sizeof( r ) );
	r.s = scene_create( 1.0f );
	scene_add_tile_row( r.s, -20, -1, 40 );
	r.wall = scene_add_box( r.s, 5.0f, 0.0f, 6.0f, 6.0f );
	r.ceiling = scene_add_box( r.s, -6.0f, 3.0f, -3.0f, 4.0f );
	r.slope = scene_add_slope( r.s, kcc_v2( -30.0f, 10.0f * tanf( SLOPE_ANGLE ) ), -SLOPE_ANGLE, 10.0f, 1.0f );
	r.ledge = scene_add_box( r.s, 1.0f, 1.8f, 3.0f, 2.0f );
	r.ghost = scene_add_box( r.s, -2.5f, 0.0f, -2.0f, 2.0f );
	for ( int i = 0; i < r.s->count; ++i )
	{
		set_category( r.s->shapes[i], LEVEL_CATEGORY );
	}
	set_category( r.ledge, ONE_WAY_CATEGORY );
	set_category( r.ghost, GHOST_CATEGORY );
	scene_commit( r.s, 0 );
	r.zone = scene_add_sensor_box( r.s, 2.0f, 0.0f, 3.0f, 1.0f, LEVEL_CATEGORY );
	return r;
}

static kcc_controller* room_character( room* r, int kind, vec2s position )
{
	kcc_controller_def def = test_character_def( kind, position );
	def.filter = cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, ~(cpBitmask)GHOST_CATEGORY );
	def.one_way_categories = ONE_WAY_CATEGORY;
	def.pushable_categories = PUSHABLE_CATEGORY;
	kcc_controller* c = kcc_controller_create( r->s->space, &def );
	assert_non_null( c );
	return c;
}

// Standing on the floor at x.
static vec2s on_floor_at( int kind, float x )
{
	return kcc_v2( x, test_character_half_height( kind ) + SKIN );
}

typedef struct snapshot
{
	kcc_controller_state state;
	cpVect body;
} snapshot;

static snapshot take( kcc_controller* c )
{
	snapshot s;
	memset( &s, 0, sizeof( s ) );
	s.state = kcc_controller_get_state( c );
	s.body = cpBodyGetPosition( kcc_controller_get_body( c ) );
	return s;
}

static void assert_unchanged( kcc_controller* c, const snapshot* before, const char* what, int kind )
{
	snapshot after = take( c );
	SCENE_CHECK( memcmp( &before->state, &after.state, sizeof( after.state ) ) == 0, "%s, %s: the state changed", what,
				 test_character_name( kind ) );
	SCENE_CHECK( memcmp( &before->body, &after.body, sizeof( after.body ) ) == 0, "%s, %s: the body moved", what,
				 test_character_name( kind ) );
}

static void assert_vec2_exact( vec2s a, vec2s b )
{
	assert_memory_equal( &a, &b, sizeof( vec2s ) );
}

// Unit normals: within float rounding of the expected direction.
static void assert_normal( vec2s n, vec2s expected )
{
	assert_float_equal( n.x, expected.x, 1.0e-6f );
	assert_float_equal( n.y, expected.y, 1.0e-6f );
}

// ---------------------------------------------------------------------------------------------------------------
// test_move

// Toward the wall: the contact a move would meet first, at the same travel, and nothing changed; the move that
// follows really stops there.
static void test_test_move_finds_the_moves_first_contact( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		room r = room_create();
		kcc_controller* c = room_character( &r, kind, on_floor_at( kind, 3.5f ) );
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.05f ), NULL ), KCC_OK ); // settle, leave the zone
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.6f, 0.0f ), NULL ), KCC_OK );
		snapshot before = take( c );
		vec2s delta = kcc_v2( 4.0f, 0.0f );
		kcc_collision hit;
		memset( &hit, 0xAB, sizeof( hit ) );
		assert_true( kcc_controller_test_move( c, delta, &hit ) );
		assert_unchanged( c, &before, "test_move toward the wall", kind );
		float expected = 5.0f - test_character_half_width( kind ) - SKIN - kcc_controller_get_position( c ).x;
		SCENE_CHECK( fabsf( hit.travel - expected ) < 1.0e-4f, "%s: travel %g, expected %g",
					 test_character_name( kind ), (double)hit.travel, (double)expected );
		assert_normal( hit.normal, kcc_v2( -1.0f, 0.0f ) );
		assert_ptr_equal( hit.shape, r.wall );
		assert_true( hit.flags == KCC_ON_WALL );
		assert_float_equal( hit.point.x, 5.0f, 1.0e-5f );

		// The move along the same delta meets the same contact first, at the same travel.
		kcc_move_result result;
		assert_int_equal( kcc_controller_move( c, delta, &result ), KCC_OK );
		assert_true( result.collision_count >= 1 );
		assert_memory_equal( &result.collisions[0].travel, &hit.travel, sizeof( float ) );
		assert_vec2_exact( result.collisions[0].normal, hit.normal );
		assert_ptr_equal( result.collisions[0].shape, hit.shape );
		assert_float_equal( result.position.x, before.state.position.x + hit.travel, 1.0e-5f );

		// Nothing in the way: false, and *hit zeroed.
		memset( &hit, 0xAB, sizeof( hit ) );
		assert_false( kcc_controller_test_move( c, kcc_v2( -1.0f, 0.0f ), &hit ) );
		kcc_collision zero;
		memset( &zero, 0, sizeof( zero ) );
		assert_memory_equal( &hit, &zero, sizeof( hit ) );
		// hit is optional.
		assert_true( kcc_controller_test_move( c, kcc_v2( 1.0f, 0.0f ), NULL ) );
		kcc_controller_destroy( c );
		scene_destroy( r.s );
	}
}

// The rules of a move: a one-way ledge blocks from above only, a sensor and a shape outside the filter's mask never
// block, a ceiling is classified, a shape being dropped through is ignored.
static void test_test_move_follows_the_rules_of_a_move( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		room r = room_create();
		float half = test_character_half_height( kind );
		kcc_controller* c = room_character( &r, kind, on_floor_at( kind, 2.0f ) ); // under the ledge, in the zone
		kcc_move_result result;
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, -0.05f ), &result ), KCC_OK );
		assert_int_equal( result.sensor_count, 1 );
		snapshot before = take( c );
		kcc_collision hit;
		// Up through the one-way ledge: nothing blocks.
		assert_false( kcc_controller_test_move( c, kcc_v2( 0.0f, 3.0f ), &hit ) );
		// Left through the ghost box (outside the mask) to the ceiling's side: nothing blocks before x = -3.
		assert_false( kcc_controller_test_move( c, kcc_v2( -4.0f, 0.0f ), &hit ) );
		assert_unchanged( c, &before, "test_move through a one-way ledge and a ghost", kind );
		// The zone the character stands in is still reported by the next move (the zones are unchanged).
		assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &result ), KCC_OK );
		assert_int_equal( result.sensor_event_count, 0 );
		assert_int_equal( result.sensor_count, 1 );

		// Under the ceiling: going up meets it.
		assert_int_equal( kcc_controller_set_position( c, on_floor_at( kind, -4.5f ) ), KCC_OK );
		assert_true( kcc_controller_test_move( c, kcc_v2( 0.0f, 5.0f ), &hit ) );
		assert_true( hit.flags == KCC_ON_CEILING );
		assert_ptr_equal( hit.shape, r.ceiling );
		assert_float_equal( hit.travel, 3.0f - SKIN - 2.0f * half - SKIN, 1.0e-4f );

		// Above the ledge: going down lands on it, a floor; dropping through it, the floor below.
		assert_int_equal( kcc_controller_set_position( c, kcc_v2( 2.0f, 2.0f + half + SKIN ) ), KCC_OK );
		assert_true( kcc_controller_is_on_floor( c ) );
		assert_true( kcc_controller_test_move( c, kcc_v2( 0.0f, -5.0f ), &hit ) );
		assert_ptr_equal( hit.shape, r.ledge );
		assert_true( hit.flags == KCC_ON_FLOOR );
		assert_int_equal( kcc_controller_drop_through( c ), KCC_OK );
		before = take( c );
		assert_true( kcc_controller_test_move( c, kcc_v2( 0.0f, -5.0f ), &hit ) );
		assert_true( hit.shape != r.ledge );
		assert_float_equal( hit.travel, 2.0f, 1.0e-4f );
		assert_unchanged( c, &before, "test_move while dropping through", kind );
		kcc_controller_destroy( c );
		scene_destroy( r.s );
	}
}

// A crate in pushable_categories: reported with KCC_PUSHED, never moved.
static void test_test_move_does_not_push( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		room r = room_create();
		cpShape* crate =
			scene_add_body_box( r.s, kcc_v2( 3.5f, 0.5f + SKIN ), kcc_v2( 0.5f, 0.5f ), 0.0f, 0.0f, PUSHABLE_CATEGORY );
		kcc_controller* c = room_character( &r, kind, on_floor_at( kind, 0.0f ) );
		cpVect crate_before = cpBodyGetPosition( cpShapeGetBody( crate ) );
		snapshot before = take( c );
		kcc_collision hit;
		assert_true( kcc_controller_test_move( c, kcc_v2( 6.0f, 0.0f ), &hit ) );
		assert_ptr_equal( hit.shape, crate );
		assert_true( hit.flags == ( KCC_ON_WALL | KCC_PUSHED ) );
		assert_float_equal( hit.travel, 3.0f - test_character_half_width( kind ) - SKIN, 1.0e-4f );
		cpVect crate_after = cpBodyGetPosition( cpShapeGetBody( crate ) );
		assert_memory_equal( &crate_before, &crate_after, sizeof( cpVect ) );
		assert_unchanged( c, &before, "test_move into a crate", kind );
		// A move does push it.
		assert_int_equal( kcc_controller_move( c, kcc_v2( 4.0f, 0.0f ), NULL ), KCC_OK );
		assert_true( cpBodyGetPosition( cpShapeGetBody( crate ) ).x > crate_before.x + 0.5 );
		kcc_controller_destroy( c );
		scene_destroy( r.s );
	}
}

// A cast meeting more shapes than max_candidates holds is done in parts, each with its own query, as a move is: over a
// floor of 1x1 tiles, a controller holding 16 shapes finds the wall 30 units away where one holding 256 does.
static void test_test_move_in_parts_finds_the_same_contact( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		scene_add_tile_row( s, -5, -1, 45 );
		scene_add_tile_row( s, -5, -2, 45 );
		cpShape* wall = scene_add_box( s, 30.0f, 0.0f, 31.0f, 3.0f );
		scene_commit( s, 0 );
		kcc_controller_def def = test_character_def( kind, on_floor_at( kind, 0.0f ) );
		kcc_controller* wide = kcc_controller_create( s->space, &def );
		assert_non_null( wide );
		kcc_collision a, b;
		assert_true( kcc_controller_test_move( wide, kcc_v2( 35.0f, 0.0f ), &a ) );
		kcc_controller_destroy( wide );
		def.max_candidates = 16;
		kcc_controller* narrow = kcc_controller_create( s->space, &def );
		assert_non_null( narrow );
		assert_true( kcc_controller_test_move( narrow, kcc_v2( 35.0f, 0.0f ), &b ) );
		assert_ptr_equal( a.shape, wall );
		assert_ptr_equal( b.shape, wall );
		float expected = 30.0f - test_character_half_width( kind ) - SKIN;
		SCENE_CHECK( fabsf( a.travel - expected ) < 1.0e-4f && fabsf( b.travel - expected ) < 1.0e-4f,
					 "%s: travel %g with 256 candidates, %g with 16, expected %g", test_character_name( kind ),
					 (double)a.travel, (double)b.travel, (double)expected );
		assert_normal( b.normal, kcc_v2( -1.0f, 0.0f ) );
		kcc_controller_destroy( narrow );
		scene_destroy( s );
	}
}

static void test_test_move_refuses_bad_input( void** state )
{
	(void)state;
	room r = room_create();
	kcc_controller* c = room_character( &r, TEST_CAPSULE, on_floor_at( TEST_CAPSULE, 0.0f ) );
	snapshot before = take( c );
	kcc_collision hit, zero;
	memset( &zero, 0, sizeof( zero ) );
	const vec2s bad[] = { kcc_v2( NAN, 0.0f ), kcc_v2( 1.0f, INFINITY ), kcc_v2( 2000.0f, 0.0f ) };
	const char* problems[] = { "not finite", "not finite", "max_displacement" };
	for ( int i = 0; i < 3; ++i )
	{
		reset_asserts();
		memset( &hit, 0xAB, sizeof( hit ) );
		assert_false( kcc_controller_test_move( c, bad[i], &hit ) );
		expect_message( "kcc_controller_test_move", problems[i] );
		assert_memory_equal( &hit, &zero, sizeof( hit ) );
		assert_unchanged( c, &before, "test_move with bad input", TEST_CAPSULE );
	}
	reset_asserts();
	memset( &hit, 0xAB, sizeof( hit ) );
	assert_false( kcc_controller_test_move( NULL, kcc_v2( 1.0f, 0.0f ), &hit ) );
	expect_message( "kcc_controller_test_move", "NULL" );
	assert_memory_equal( &hit, &zero, sizeof( hit ) );
	// A zero delta goes nowhere: nothing to hit.
	assert_false( kcc_controller_test_move( c, kcc_v2( 0.0f, 0.0f ), &hit ) );
	kcc_controller_destroy( c );
	scene_destroy( r.s );
}

// ---------------------------------------------------------------------------------------------------------------
// Getters

static void assert_no_floor( kcc_controller* c )
{
	assert_false( kcc_controller_is_on_floor( c ) );
	assert_vec2_exact( kcc_controller_get_floor_normal( c ), kcc_v2( 0.0f, 0.0f ) );
	assert_null( kcc_controller_get_floor_shape( c ) );
}

static void test_getters_on_a_real_scene( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		room r = room_create();
		kcc_controller* c = room_character( &r, kind, on_floor_at( kind, 0.0f ) );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result result;

		// On the floor.
		assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &result ), KCC_OK );
		assert_true( kcc_controller_is_on_floor( c ) );
		assert_normal( kcc_controller_get_floor_normal( c ), kcc_v2( 0.0f, 1.0f ) );
		assert_non_null( kcc_controller_get_floor_shape( c ) );
		assert_ptr_equal( kcc_controller_get_floor_shape( c ), result.floor_shape );
		assert_false( kcc_controller_is_on_wall( c ) );
		assert_false( kcc_controller_is_on_ceiling( c ) );
		assert_vec2_exact( kcc_controller_get_wall_normal( c ), kcc_v2( 0.0f, 0.0f ) );

		// Walking into the wall: on the floor and on the wall.
		for ( int i = 0; i < 60; ++i )
		{
			assert_int_equal( test_gravity_step( c, &velocity, 6.0f, GRAVITY, DT, &result ), KCC_OK );
		}
		assert_true( kcc_controller_is_on_wall( c ) );
		assert_normal( kcc_controller_get_wall_normal( c ), kcc_v2( -1.0f, 0.0f ) );
		assert_true( kcc_controller_is_on_floor( c ) );
		assert_false( kcc_controller_is_on_ceiling( c ) );
		// The wall normal is restored with the state.
		kcc_controller_state against_wall = kcc_controller_get_state( c );

		// Walking away: no wall any more.
		assert_int_equal( test_gravity_step( c, &velocity, -6.0f, GRAVITY, DT, &result ), KCC_OK );
		assert_false( kcc_controller_is_on_wall( c ) );
		assert_vec2_exact( kcc_controller_get_wall_normal( c ), kcc_v2( 0.0f, 0.0f ) );
		assert_int_equal( kcc_controller_set_state( c, &against_wall ), KCC_OK );
		assert_true( kcc_controller_is_on_wall( c ) );
		assert_normal( kcc_controller_get_wall_normal( c ), kcc_v2( -1.0f, 0.0f ) );

		// A jump: in the air, no floor.
		assert_int_equal( kcc_controller_set_position( c, on_floor_at( kind, -1.0f ) ), KCC_OK );
		velocity = kcc_v2( 0.0f, 8.0f );
		assert_int_equal( kcc_controller_move_and_slide( c, velocity, DT, &velocity, &result ), KCC_OK );
		assert_no_floor( c );
		assert_false( kcc_controller_is_on_wall( c ) );
		assert_false( kcc_controller_is_on_ceiling( c ) );

		// Under the ceiling, a jump meets it.
		assert_int_equal( kcc_controller_set_position( c, on_floor_at( kind, -4.5f ) ), KCC_OK );
		velocity = kcc_v2( 0.0f, 13.0f );
		bool met = false;
		for ( int i = 0; i < 30 && met == false; ++i )
		{
			assert_int_equal( kcc_controller_move_and_slide( c, velocity, DT, &velocity, &result ), KCC_OK );
			met = kcc_controller_is_on_ceiling( c );
		}
		assert_true( met );
		assert_no_floor( c );
		assert_false( kcc_controller_is_on_wall( c ) );

		// On the slope (walkable at 20 degrees): its normal and its shape.
		float x = -25.0f;
		float top = 5.0f * tanf( SLOPE_ANGLE );
		assert_int_equal( kcc_controller_set_position( c, kcc_v2( x, top + 1.5f ) ), KCC_OK );
		velocity = kcc_v2( 0.0f, 0.0f );
		assert_true( test_settle( c, &velocity, GRAVITY, DT, 5 ) );
		vec2s n = kcc_controller_get_floor_normal( c );
		assert_float_equal( n.x, sinf( SLOPE_ANGLE ), 1.0e-5f );
		assert_float_equal( n.y, cosf( SLOPE_ANGLE ), 1.0e-5f );
		assert_ptr_equal( kcc_controller_get_floor_shape( c ), r.slope );
		assert_false( kcc_controller_is_on_wall( c ) );

		// A paused frame keeps them all.
		assert_int_equal( kcc_controller_move_and_slide( c, velocity, 0.0f, &velocity, &result ), KCC_OK );
		assert_ptr_equal( kcc_controller_get_floor_shape( c ), r.slope );
		assert_ptr_equal( result.floor_shape, r.slope );
		kcc_controller_destroy( c );
		scene_destroy( r.s );
	}
	// NULL: zeros, NULL, false.
	reset_asserts();
	assert_false( kcc_controller_is_on_wall( NULL ) );
	assert_false( kcc_controller_is_on_ceiling( NULL ) );
	assert_vec2_exact( kcc_controller_get_floor_normal( NULL ), kcc_v2( 0.0f, 0.0f ) );
	assert_vec2_exact( kcc_controller_get_wall_normal( NULL ), kcc_v2( 0.0f, 0.0f ) );
	assert_null( kcc_controller_get_floor_shape( NULL ) );
	expect_message( "kcc_controller_get_floor_shape", "NULL" );
}

// FLOATING (top-down): every surface met is a wall, with its normal.
static void test_wall_normal_when_floating( void** state )
{
	(void)state;
	room r = room_create();
	kcc_controller* c = room_character( &r, TEST_CIRCLE, kcc_v2( -4.5f, 2.0f ) );
	assert_int_equal( kcc_controller_set_mode( c, KCC_MODE_FLOATING ), KCC_OK );
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 2.0f ), NULL ), KCC_OK );
	assert_true( kcc_controller_is_on_wall( c ) );
	assert_false( kcc_controller_is_on_ceiling( c ) );
	assert_normal( kcc_controller_get_wall_normal( c ), kcc_v2( 0.0f, -1.0f ) );
	assert_no_floor( c );
	kcc_controller_destroy( c );
	scene_destroy( r.s );
}

// ---------------------------------------------------------------------------------------------------------------
// dt == 0

static void test_zero_dt_is_a_paused_frame( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		room r = room_create();
		// A platform moved by position, the character riding it.
		cpShape* platform = scene_add_body_box( r.s, kcc_v2( -10.0f, 5.0f ), kcc_v2( 2.0f, 0.25f ), 0.0f, 0.0f,
												LEVEL_CATEGORY );
		cpBody* body = cpShapeGetBody( platform );
		vec2s spawn = kcc_v2( -10.0f, 5.25f + test_character_half_height( kind ) + SKIN );
		kcc_controller* c = room_character( &r, kind, spawn );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result result;
		assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &result ), KCC_OK );
		assert_true( kcc_controller_is_on_floor( c ) );
		vec2s rider_offset = glms_vec2_sub( kcc_controller_get_position( c ), kcc_v2( -10.0f, 5.0f ) );

		// Paused frames while the platform moves on: nothing moves, the velocity comes back as given.
		snapshot before = take( c );
		const vec2s given = kcc_v2( 3.25f, -7.5f );
		for ( int frame = 1; frame <= 10; ++frame )
		{
			scene_place_body( r.s, body, kcc_v2( -10.0f + 0.05f * (float)frame, 5.0f ) );
			vec2s out = kcc_v2( NAN, NAN );
			memset( &result, 0xAB, sizeof( result ) );
			assert_int_equal( kcc_controller_move_and_slide( c, given, 0.0f, &out, &result ), KCC_OK );
			assert_vec2_exact( out, given );
			assert_unchanged( c, &before, "a paused frame", kind );
			assert_vec2_exact( result.position, before.state.position );
			assert_vec2_exact( result.displacement, kcc_v2( 0.0f, 0.0f ) );
			assert_true( result.flags == before.state.flags );
			assert_int_equal( result.collision_count, 0 );
			assert_int_equal( result.sensor_event_count, 0 );
			assert_ptr_equal( result.floor_shape, platform );
		}
		// Unpaused: carried by the whole motion of the pause, still at the same place on the platform.
		assert_int_equal( test_gravity_step( c, &velocity, 0.0f, GRAVITY, DT, &result ), KCC_OK );
		assert_true( kcc_controller_is_on_floor( c ) );
		vec2s offset = glms_vec2_sub( kcc_controller_get_position( c ), kcc_v2( -9.5f, 5.0f ) );
		assert_float_equal( offset.x, rider_offset.x, 1.0e-4f );
		assert_float_equal( offset.y, rider_offset.y, 1.0e-4f );

		// dt < 0 and a NaN velocity stay errors, changing nothing.
		before = take( c );
		vec2s out = kcc_v2( 0.0f, 0.0f );
		reset_asserts();
		assert_int_equal( kcc_controller_move_and_slide( c, given, -DT, &out, NULL ), KCC_ERROR_INVALID_ARGUMENT );
		assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( NAN, 0.0f ), 0.0f, &out, NULL ),
						  KCC_ERROR_NOT_FINITE );
		assert_unchanged( c, &before, "dt < 0", kind );
		kcc_controller_destroy( c );
		scene_destroy( r.s );
	}
}

int main( void )
{
	kcc_set_assert_fcn( record_assert );
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_test_move_finds_the_moves_first_contact ),
		cmocka_unit_test( test_test_move_follows_the_rules_of_a_move ),
		cmocka_unit_test( test_test_move_does_not_push ),
		cmocka_unit_test( test_test_move_in_parts_finds_the_same_contact ),
		cmocka_unit_test( test_test_move_refuses_bad_input ),
		cmocka_unit_test( test_getters_on_a_real_scene ),
		cmocka_unit_test( test_wall_normal_when_floating ),
		cmocka_unit_test( test_zero_dt_is_a_paused_frame ),
	};
	return cmocka_run_group_tests_name( "controller_queries", tests, NULL, NULL );
}
