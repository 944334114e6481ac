// SPDX-License-Identifier: MIT
// Changing the character's shape at run time (kcc_controller_set_shape), for the circle, the capsule and the rounded
// box, each with a crouching shape of the same bottom and about two thirds of its height:
// - crouch in the open, walk into a tunnel too low to stand in (the standing character is stopped at its mouth),
//   try to stand up: KCC_ERROR_BLOCKED and nothing changes (position, flags, state, the cpShape in the space, the
//   next move); walk out, stand up: KCC_OK, the new shape is the one in the space and blocks;
// - a ceiling within the skin, or a one-way shape overlapping the new shape, does not block standing up;
// - the shape is part of the state: restore + replay across a crouch is bit-identical;
// - bad inputs (NULL, NaN, a sector, a degenerate box, too large): a clear error and nothing changed;
// - KCC_ERROR_BLOCKED has its own status string.
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

#define LEVEL_CATEGORY 1u
#define ONE_WAY_CATEGORY 2u

// The crouching shape: the same bottom, about two thirds of the height.
static kcc_shape crouch_shape( int kind )
{
	switch ( kind )
	{
		case TEST_CIRCLE:
			return kcc_make_circle( kcc_v2( 0.0f, -0.15f ), 0.25f ); // bottom at -0.4, 0.5 tall
		case TEST_CAPSULE:
			return kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, -0.1f ), 0.3f ); // bottom at -0.6, 0.8 tall
		default:
		{
			vec2s points[4] = { { { -0.3f, -0.45f } }, { { 0.3f, -0.45f } }, { { 0.3f, 0.15f } }, { { -0.3f, 0.15f } } };
			return kcc_make_polygon( points, 4, 0.05f ); // bottom at -0.5, 0.7 tall
		}
	}
}

static float crouch_height( int kind )
{
	static const float heights[TEST_CHARACTER_COUNT] = { 0.5f, 0.8f, 0.7f };
	return heights[kind];
}

// A floor (tiles, top at 0) and a tunnel from x = 3 to 8 whose ceiling is 0.1 above the crouching character's top.
static scene* tunnel_level( int kind )
{
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -10, -1, 30 );
	float ceiling = crouch_height( kind ) + 0.01f + 0.1f;
	scene_add_box( s, 3.0f, ceiling, 8.0f, ceiling + 1.0f );
	for ( int i = 0; i < s->count; ++i )
	{
		cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
	}
	return s;
}

static float shape_box_height( const cpShape* shape )
{
	cpBB bb = cpShapeGetBB( shape );
	return (float)( bb.t - bb.b );
}

static bool same_state( const kcc_controller_state* a, const kcc_controller_state* b )
{
	return memcmp( a, b, sizeof( *a ) ) == 0;
}

static void walk( kcc_controller* c, vec2s* velocity, float vx, int frames, kcc_move_result* r )
{
	for ( int i = 0; i < frames; ++i )
	{
		assert_int_equal( test_gravity_step( c, velocity, vx, GRAVITY, DT, r ), KCC_OK );
	}
}

static void test_crouch_then_stand_up_under_a_low_ceiling( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		kcc_shape standing = test_character_shape( kind );
		kcc_shape crouching = crouch_shape( kind );

		// Standing, the tunnel's mouth stops the character.
		scene* s = tunnel_level( kind );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		kcc_move_result r;
		walk( c, &velocity, WALK, 60, &r );
		SCENE_CHECK( r.position.x < 3.0f, "%s: walked into the low tunnel standing (x %g)", name, (double)r.position.x );
		kcc_controller_destroy( c );

		// Crouched: through it.
		c = kcc_controller_create( s->space, &def );
		velocity = kcc_v2( 0.0f, 0.0f );
		walk( c, &velocity, 0.0f, 2, &r );
		cpShape* before_shape = kcc_controller_get_shape( c );
		assert_int_equal( kcc_controller_set_shape( c, &crouching ), KCC_OK );
		SCENE_CHECK( kcc_controller_get_shape( c ) != NULL &&
						 fabsf( shape_box_height( kcc_controller_get_shape( c ) ) - crouch_height( kind ) ) <= 1e-4f,
					 "%s: the space's shape is %g tall after crouching", name,
					 (double)shape_box_height( kcc_controller_get_shape( c ) ) );
		(void)before_shape;
		walk( c, &velocity, WALK, 50, &r ); // to x = 5, in the tunnel
		SCENE_CHECK( r.position.x > 4.5f && r.position.x < 6.0f && ( r.flags & KCC_ON_FLOOR ),
					 "%s: crouched, reached x %g (flags 0x%x)", name, (double)r.position.x, (unsigned)r.flags );
		float depth = scene_overlap( s, &crouching, r.position );
		SCENE_CHECK( depth <= 1e-3f * crouch_height( kind ), "%s: crouched overlap %g", name, (double)depth );

		// Stand up in the tunnel: refused, nothing changes.
		kcc_controller_state snapshot = kcc_controller_get_state( c );
		cpShape* shape = kcc_controller_get_shape( c );
		cpBB bb = cpShapeGetBB( shape );
		vec2s position = kcc_controller_get_position( c );
		uint32_t flags = kcc_controller_get_flags( c );
		assert_int_equal( kcc_controller_set_shape( c, &standing ), KCC_ERROR_BLOCKED );
		kcc_controller_state after = kcc_controller_get_state( c );
		cpBB bb_after = cpShapeGetBB( kcc_controller_get_shape( c ) );
		SCENE_CHECK( same_state( &snapshot, &after ), "%s: a refused stand-up changed the state", name );
		SCENE_CHECK( kcc_controller_get_shape( c ) == shape && memcmp( &bb, &bb_after, sizeof( bb ) ) == 0,
					 "%s: a refused stand-up changed the space's shape", name );
		SCENE_CHECK( memcmp( &position, &after.position, sizeof( position ) ) == 0 && kcc_controller_get_flags( c ) == flags,
					 "%s: a refused stand-up moved the character", name );
		// The next move is the one it makes when it never tried: the move, then the same move from the snapshot.
		vec2s v1 = velocity, v2 = velocity;
		kcc_move_result r1, r2;
		assert_int_equal( test_gravity_step( c, &v1, WALK, GRAVITY, DT, &r1 ), KCC_OK );
		assert_int_equal( kcc_controller_set_state( c, &snapshot ), KCC_OK );
		assert_int_equal( test_gravity_step( c, &v2, WALK, GRAVITY, DT, &r2 ), KCC_OK );
		SCENE_CHECK( memcmp( &r1.position, &r2.position, sizeof( vec2s ) ) == 0 && r1.flags == r2.flags &&
						 memcmp( &v1, &v2, sizeof( vec2s ) ) == 0, "%s: the move after a refused stand-up differs", name );
		velocity = v2;

		// Out of the tunnel: standing up works, and the standing shape is the one the space holds.
		walk( c, &velocity, WALK, 60, &r );
		SCENE_CHECK( r.position.x > 8.5f, "%s: crouched, only reached %g", name, (double)r.position.x );
		assert_int_equal( kcc_controller_set_shape( c, &standing ), KCC_OK );
		SCENE_CHECK( fabsf( shape_box_height( kcc_controller_get_shape( c ) ) - test_character_height( kind ) ) <= 1e-4f,
					 "%s: the space's shape is %g tall after standing up", name,
					 (double)shape_box_height( kcc_controller_get_shape( c ) ) );
		kcc_controller_state stood = kcc_controller_get_state( c );
		SCENE_CHECK( memcmp( &stood.shape, &standing, sizeof( standing ) ) == 0, "%s: the state's shape is not the new one",
					 name );
		// Walking back, standing: stopped at the tunnel's far mouth.
		walk( c, &velocity, -WALK, 60, &r );
		SCENE_CHECK( r.position.x > 8.0f, "%s: walked back into the tunnel standing (x %g)", name, (double)r.position.x );
		depth = scene_overlap( s, &standing, r.position );
		SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: standing overlap %g", name, (double)depth );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// Standing up with a ceiling a skin above the standing top (touching nothing), and under a one-way platform that
// the standing shape overlaps: allowed.
static void test_stand_up_next_to_a_ceiling_or_under_a_one_way( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		for ( int one_way = 0; one_way < 2; ++one_way )
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 20 );
			float top = test_character_height( kind ) + 0.01f; // the standing character's top
			cpShape* ceiling;
			if ( one_way )
			{
				ceiling = scene_add_body_box( s, kcc_v2( 0.0f, top - 0.1f + 0.25f ), kcc_v2( 2.0f, 0.25f ), 0.0f, 0.0f,
											  ONE_WAY_CATEGORY );
			}
			else
			{
				ceiling = scene_add_body_box( s, kcc_v2( 0.0f, top + 0.005f + 0.25f ), kcc_v2( 2.0f, 0.25f ), 0.0f, 0.0f,
											  LEVEL_CATEGORY );
			}
			for ( int i = 0; i < s->count; ++i )
			{
				cpShapeSetFilter( s->shapes[i], cpShapeFilterNew( CP_NO_GROUP, LEVEL_CATEGORY, CP_ALL_CATEGORIES ) );
			}
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
			def.shape = crouch_shape( kind );
			def.one_way_categories = ONE_WAY_CATEGORY;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			kcc_shape standing = test_character_shape( kind );
			kcc_status status = kcc_controller_set_shape( c, &standing );
			SCENE_CHECK( status == KCC_OK, "%s: standing up %s: %s", name,
						 one_way ? "overlapping a one-way platform" : "half a skin under a ceiling",
						 kcc_status_string( status ) );
			(void)ceiling;
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// More solids around the standing shape than max_candidates (16): pebbles in the corners of its box, clear of its
// rounding, and one ceiling into which it would stand. Whatever order the query gives them in, standing up is
// refused: a shape that can not be shown clear of every solid is not taken.
static void test_stand_up_among_more_solids_than_the_buffer_holds( void** state )
{
	(void)state;
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		if ( kind == TEST_BOX )
		{
			continue; // a box fills its corners: no room for pebbles clear of it
		}
		const char* name = test_character_name( kind );
		for ( int ceiling_first = 0; ceiling_first < 2; ++ceiling_first )
		{
			scene* s = scene_create( 1.0f );
			scene_add_tile_row( s, -10, -1, 20 );
			kcc_shape standing = test_character_shape( kind );
			float half_width = test_character_half_width( kind ), top = test_character_height( kind ) + 0.01f;
			if ( ceiling_first )
			{
				scene_add_box( s, -0.05f, top - 0.05f, 0.05f, top + 0.5f );
			}
			for ( int i = 0; i < 24; ++i )
			{
				// Twelve pebbles in each upper corner of the standing shape's box, outside its round top.
				float side = i % 2 ? 1.0f : -1.0f, k = (float)( i / 2 );
				scene_add_circle( s, kcc_v2( side * ( half_width - 0.01f - 0.004f * k ), top - 0.01f - 0.004f * k ), 0.002f );
			}
			if ( ceiling_first == 0 )
			{
				scene_add_box( s, -0.05f, top - 0.05f, 0.05f, top + 0.5f );
			}
			kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
			def.shape = crouch_shape( kind );
			def.max_candidates = 16;
			kcc_controller* c = scene_create_controller( s, &def );
			assert_non_null( c );
			float pebbles_deepest = 0.0f;
			kcc_shape placed = kcc_shape_translate( &standing, kcc_controller_get_position( c ) );
			for ( int i = 0; i < s->count; ++i )
			{
				if ( s->geometry[i].type == KCC_SHAPE_CIRCLE )
				{
					kcc_penetration_output pen = kcc_penetration( &placed, &s->geometry[i] );
					pebbles_deepest = fmaxf( pebbles_deepest, pen.overlapping ? pen.depth : 0.0f );
				}
			}
			SCENE_CHECK( pebbles_deepest <= 1e-3f * test_character_height( kind ), "%s: a pebble is %g inside the standing shape",
						 name, (double)pebbles_deepest );
			kcc_controller_state before = kcc_controller_get_state( c );
			kcc_status status = kcc_controller_set_shape( c, &standing );
			SCENE_CHECK( status == KCC_ERROR_BLOCKED, "%s (ceiling added %s): standing up into the ceiling: %s", name,
						 ceiling_first ? "first" : "last", kcc_status_string( status ) );
			kcc_controller_state after = kcc_controller_get_state( c );
			SCENE_CHECK( same_state( &before, &after ), "%s: a refused shape changed the state", name );
			kcc_controller_destroy( c );
			scene_destroy( s );
		}
	}
}

// The shape is part of the state: crouch at frame 20, stand at frame 50; restored at frames 10, 20, 30 and 50 and
// replayed, every frame is bit-identical.
static void test_rollback_across_a_crouch_is_bit_identical( void** state )
{
	(void)state;
	enum { FRAMES = 80 };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		const char* name = test_character_name( kind );
		scene* s = scene_create( 1.0f );
		scene_add_tile_row( s, -10, -1, 30 );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.01f ) );
		kcc_controller* c = scene_create_controller( s, &def );
		assert_non_null( c );
		kcc_shape shapes[2] = { test_character_shape( kind ), crouch_shape( kind ) };
		static kcc_controller_state states[FRAMES];
		static vec2s velocities[FRAMES], first[FRAMES];
		vec2s velocity = kcc_v2( 0.0f, 0.0f );
		for ( int pass = 0; pass < 5; ++pass )
		{
			static const int from_frames[5] = { 0, 10, 20, 30, 50 };
			int from = from_frames[pass];
			if ( pass > 0 )
			{
				assert_int_equal( kcc_controller_set_state( c, &states[from] ), KCC_OK );
				velocity = velocities[from];
			}
			for ( int i = from; i < FRAMES; ++i )
			{
				if ( i == 20 || i == 50 )
				{
					assert_int_equal( kcc_controller_set_shape( c, &shapes[i == 20 ? 1 : 0] ), KCC_OK );
				}
				if ( pass == 0 )
				{
					states[i] = kcc_controller_get_state( c );
					velocities[i] = velocity;
				}
				kcc_move_result r;
				float vx = i < 40 ? 2.0f : -2.0f;
				if ( i == 5 || i == 60 )
				{
					velocity.y = 8.0f;
				}
				assert_int_equal( test_gravity_step( c, &velocity, vx, GRAVITY, DT, &r ), KCC_OK );
				if ( pass == 0 )
				{
					first[i] = r.position;
				}
				else
				{
					SCENE_CHECK( memcmp( &first[i], &r.position, sizeof( vec2s ) ) == 0,
								 "%s: replay from %d differs at frame %d: (%.9g, %.9g) vs (%.9g, %.9g)", name, from, i,
								 (double)r.position.x, (double)r.position.y, (double)first[i].x, (double)first[i].y );
				}
			}
		}
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

static void test_bad_shapes_are_refused_and_change_nothing( void** state )
{
	(void)state;
	scene* s = scene_create( 1.0f );
	scene_add_tile_row( s, -10, -1, 20 );
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( 0.0f, 0.61f ) );
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	kcc_controller_state before = kcc_controller_get_state( c );
	cpShape* shape = kcc_controller_get_shape( c );

	reset_asserts();
	assert_int_equal( kcc_controller_set_shape( NULL, &def.shape ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_controller_set_shape", "NULL" );
	reset_asserts();
	assert_int_equal( kcc_controller_set_shape( c, NULL ), KCC_ERROR_NULL_ARGUMENT );
	expect_message( "kcc_controller_set_shape", "NULL" );

	kcc_shape bad[6];
	bad[0] = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.4f );
	bad[0].circle.radius = NAN;
	bad[1] = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
	bad[1].capsule.a.x = INFINITY;
	bad[2] = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 1.0f, 1.0f );
	bad[3] = kcc_make_aabb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 1.0f ) ); // zero width
	bad[4] = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 5000.0f );         // larger than max_displacement
	memset( &bad[5], 0, sizeof( bad[5] ) );                             // KCC_SHAPE_INVALID
	static const char* words[6] = { "circle", "capsule", "sector", "box", "size", "shape" };
	for ( int i = 0; i < 6; ++i )
	{
		reset_asserts();
		kcc_status status = kcc_controller_set_shape( c, &bad[i] );
		SCENE_CHECK( status == KCC_ERROR_INVALID_ARGUMENT, "bad shape %d: %s", i, kcc_status_string( status ) );
		expect_message( "shape", words[i] );
		kcc_controller_state after = kcc_controller_get_state( c );
		SCENE_CHECK( same_state( &before, &after ) && kcc_controller_get_shape( c ) == shape,
					 "bad shape %d changed the controller", i );
	}
	kcc_controller_destroy( c );
	scene_destroy( s );
}

static void test_blocked_has_its_own_status_string( void** state )
{
	(void)state;
	const kcc_status all[] = { KCC_OK, KCC_ERROR_NULL_ARGUMENT, KCC_ERROR_NOT_FINITE, KCC_ERROR_TOO_LARGE,
							   KCC_ERROR_INVALID_ARGUMENT, KCC_ERROR_SPACE_LOCKED, KCC_ERROR_BLOCKED };
	const char* blocked = kcc_status_string( KCC_ERROR_BLOCKED );
	assert_string_not_equal( blocked, kcc_status_string( (kcc_status)-99 ) );
	for ( int i = 0; i + 1 < (int)( sizeof( all ) / sizeof( all[0] ) ); ++i )
	{
		assert_string_not_equal( blocked, kcc_status_string( all[i] ) );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_crouch_then_stand_up_under_a_low_ceiling ),
		cmocka_unit_test( test_stand_up_next_to_a_ceiling_or_under_a_one_way ),
		cmocka_unit_test( test_stand_up_among_more_solids_than_the_buffer_holds ),
		cmocka_unit_test( test_rollback_across_a_crouch_is_bit_identical ),
		cmocka_unit_test( test_bad_shapes_are_refused_and_change_nothing ),
		cmocka_unit_test( test_blocked_has_its_own_status_string ),
	};
	return cmocka_run_group_tests_name( "controller_gameplay_shape", tests, install_recorder, NULL );
}
