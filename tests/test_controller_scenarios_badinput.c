// SPDX-License-Identifier: MIT
// Quality property 12 (DESIGN.md section 5): NaN, Inf and huge inputs return an error and change nothing (position,
// flags, the body in the space), Chipmunk never sees them (it would abort), and no NaN ever comes out; for all
// three characters.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "controller_scene.h"

// Bad input on purpose: record the debug assert, let the function take its release path.
#include "assert_recorder.h"

typedef struct snapshot
{
	vec2s position;
	uint32_t flags;
	cpVect body_position;
} snapshot;

static snapshot take( kcc_controller* c )
{
	snapshot s;
	memset( &s, 0, sizeof( s ) );
	s.position = kcc_controller_get_position( c );
	s.flags = kcc_controller_get_flags( c );
	s.body_position = cpBodyGetPosition( kcc_controller_get_body( c ) );
	return s;
}

static void expect_unchanged( kcc_controller* c, const snapshot* before, const char* what, int kind )
{
	snapshot after = take( c );
	SCENE_CHECK( memcmp( &after.position, &before->position, sizeof( vec2s ) ) == 0 && after.flags == before->flags &&
					 after.body_position.x == before->body_position.x &&
					 after.body_position.y == before->body_position.y,
				 "%s %s: state changed: (%g, %g) -> (%g, %g), flags 0x%x -> 0x%x", test_character_name( kind ), what,
				 (double)before->position.x, (double)before->position.y, (double)after.position.x,
				 (double)after.position.y, (unsigned)before->flags, (unsigned)after.flags );
}

// A character standing on a tiled floor next to a wall (so that ground state and contacts exist).
static kcc_controller* standing_character( scene* s, int kind )
{
	scene_add_tile_row( s, -10, -1, 20 );
	scene_add_tile_column( s, 3, 0, 4 );
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, test_character_half_height( kind ) + 0.05f ) );
	kcc_controller* c = scene_create_controller( s, &def );
	assert_non_null( c );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < 30; ++i )
	{
		assert_int_equal( test_gravity_step( c, &velocity, 2.0f, 30.0f, 1.0f / 60.0f, NULL ), KCC_OK );
	}
	assert_true( kcc_controller_is_on_floor( c ) );
	return c;
}

static void test_move_refuses_bad_displacements( void** state )
{
	(void)state;
	const vec2s bad[] = { { { NAN, 0.0f } },       { { 0.0f, NAN } },      { { INFINITY, 0.0f } },
						  { { 0.0f, -INFINITY } }, { { NAN, INFINITY } }, { { 1e30f, 0.0f } },
						  { { 0.0f, -1e30f } },    { { FLT_MAX, FLT_MAX } }, { { 1001.0f, 0.0f } },
						  { { 800.0f, 800.0f } } };
	const kcc_status expected[] = { KCC_ERROR_NOT_FINITE, KCC_ERROR_NOT_FINITE, KCC_ERROR_NOT_FINITE,
									KCC_ERROR_NOT_FINITE, KCC_ERROR_NOT_FINITE, KCC_ERROR_TOO_LARGE,
									KCC_ERROR_TOO_LARGE,  KCC_ERROR_TOO_LARGE,  KCC_ERROR_TOO_LARGE,
									KCC_ERROR_TOO_LARGE };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller* c = standing_character( s, kind );
		for ( int i = 0; i < (int)( sizeof( bad ) / sizeof( bad[0] ) ); ++i )
		{
			snapshot before = take( c );
			kcc_move_result result;
			kcc_status status = kcc_controller_move( c, bad[i], &result );
			SCENE_CHECK( status == expected[i], "%s case %d: status %d (%s), expected %d", test_character_name( kind ),
						 i, (int)status, kcc_status_string( status ), (int)expected[i] );
			expect_unchanged( c, &before, "move", kind );
			status = kcc_controller_move( c, bad[i], NULL );
			SCENE_CHECK( status == expected[i], "%s case %d (out NULL): status %d", test_character_name( kind ), i,
						 (int)status );
			expect_unchanged( c, &before, "move without out", kind );
		}
		// Still works afterwards; the space still steps.
		kcc_move_result result;
		assert_int_equal( kcc_controller_move( c, kcc_v2( -0.5f, -0.1f ), &result ), KCC_OK );
		assert_true( kcc_is_valid_vec2( result.position ) );
		assert_true( result.flags & KCC_ON_FLOOR );
		cpSpaceStep( s->space, 1.0 / 60.0 );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

static void test_move_and_slide_refuses_bad_arguments( void** state )
{
	(void)state;
	// dt == 0 (and -0) is a paused frame, not an error: test_controller_queries.c.
	const float bad_dt[] = { -1.0f / 60.0f, -1.0e-30f, NAN, INFINITY, -INFINITY };
	const vec2s bad_velocity[] = { { { NAN, 0.0f } }, { { 0.0f, INFINITY } }, { { -INFINITY, NAN } },
								   { { 1e7f, 0.0f } } };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller* c = standing_character( s, kind );
		for ( int i = 0; i < (int)( sizeof( bad_dt ) / sizeof( bad_dt[0] ) ); ++i )
		{
			snapshot before = take( c );
			vec2s out = kcc_v2( 123.0f, 456.0f );
			kcc_status status = kcc_controller_move_and_slide( c, kcc_v2( 1.0f, -1.0f ), bad_dt[i], &out, NULL );
			SCENE_CHECK( status < 0, "%s dt %g: status %d", test_character_name( kind ), (double)bad_dt[i], (int)status );
			SCENE_CHECK( kcc_is_valid_vec2( out ), "%s dt %g: NaN velocity out", test_character_name( kind ),
						 (double)bad_dt[i] );
			expect_unchanged( c, &before, "move_and_slide dt", kind );
		}
		for ( int i = 0; i < (int)( sizeof( bad_velocity ) / sizeof( bad_velocity[0] ) ); ++i )
		{
			snapshot before = take( c );
			vec2s out = kcc_v2( 0.0f, 0.0f );
			kcc_move_result result;
			kcc_status status = kcc_controller_move_and_slide( c, bad_velocity[i], 1.0f / 60.0f, &out, &result );
			SCENE_CHECK( status < 0, "%s velocity case %d: status %d", test_character_name( kind ), i, (int)status );
			SCENE_CHECK( kcc_is_valid_vec2( out ), "%s velocity case %d: NaN velocity out", test_character_name( kind ),
						 i );
			expect_unchanged( c, &before, "move_and_slide velocity", kind );
		}
		// velocity * dt overflowing to Inf is caught too.
		snapshot before = take( c );
		vec2s out;
		SCENE_CHECK( kcc_controller_move_and_slide( c, kcc_v2( FLT_MAX, 0.0f ), 1e10f, &out, NULL ) < 0,
					 "%s: FLT_MAX * 1e10 accepted", test_character_name( kind ) );
		expect_unchanged( c, &before, "move_and_slide overflow", kind );
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

static void test_set_position_refuses_bad_positions( void** state )
{
	(void)state;
	const vec2s bad[] = { { { NAN, 0.0f } }, { { 0.0f, NAN } }, { { INFINITY, 1.0f } }, { { 1.0f, -INFINITY } },
						  { { 2e6f, 0.0f } }, { { 0.0f, -1e30f } } };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller* c = standing_character( s, kind );
		for ( int i = 0; i < (int)( sizeof( bad ) / sizeof( bad[0] ) ); ++i )
		{
			snapshot before = take( c );
			kcc_status status = kcc_controller_set_position( c, bad[i] );
			SCENE_CHECK( status < 0, "%s case %d: set_position status %d", test_character_name( kind ), i, (int)status );
			expect_unchanged( c, &before, "set_position", kind );
		}
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

// Random mixes of good and bad input: an error never moves the character, success never yields NaN, and the
// character never overlaps the level.
static void test_random_bad_input_never_breaks_anything( void** state )
{
	(void)state;
	const float specials[] = { NAN, INFINITY, -INFINITY, 1e30f, -1e30f, FLT_MAX, 1e-40f, -0.0f, 5000.0f, 0.0f };
	for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
	{
		scene* s = scene_create( 1.0f );
		kcc_controller* c = standing_character( s, kind );
		kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 0.0f ) );
		uint32_t rng = 99u + (uint32_t)kind;
		for ( int i = 0; i < 3000; ++i )
		{
			vec2s delta = kcc_v2( test_random( &rng, -3.0f, 3.0f ), test_random( &rng, -3.0f, 3.0f ) );
			if ( test_random( &rng, 0.0f, 1.0f ) < 0.3f )
			{
				delta.x = specials[(int)test_random( &rng, 0.0f, 9.99f )];
			}
			if ( test_random( &rng, 0.0f, 1.0f ) < 0.3f )
			{
				delta.y = specials[(int)test_random( &rng, 0.0f, 9.99f )];
			}
			snapshot before = take( c );
			kcc_move_result result;
			kcc_status status;
			if ( i % 2 == 0 )
			{
				status = kcc_controller_move( c, delta, &result );
			}
			else
			{
				float dt = test_random( &rng, 0.0f, 1.0f ) < 0.2f ? specials[(int)test_random( &rng, 0.0f, 9.99f )]
																	: 1.0f / 60.0f;
				vec2s out;
				status = kcc_controller_move_and_slide( c, delta, dt, &out, &result );
				if ( status == KCC_OK )
				{
					SCENE_CHECK( kcc_is_valid_vec2( out ), "%s: NaN velocity out at %d", test_character_name( kind ), i );
				}
			}
			bool finite_input = kcc_is_valid_vec2( delta );
			if ( finite_input == false )
			{
				SCENE_CHECK( status < 0, "%s: non-finite input accepted at %d", test_character_name( kind ), i );
			}
			if ( status < 0 )
			{
				expect_unchanged( c, &before, "random", kind );
			}
			vec2s p = kcc_controller_get_position( c );
			SCENE_CHECK( kcc_is_valid_vec2( p ), "%s: NaN position at %d", test_character_name( kind ), i );
			float depth = scene_overlap( s, &def.shape, p );
			SCENE_CHECK( depth <= 1e-3f * test_character_height( kind ), "%s: overlap %g at %d",
						 test_character_name( kind ), (double)depth, i );
		}
		kcc_controller_destroy( c );
		scene_destroy( s );
	}
}

int main( void )
{
	kcc_set_assert_fcn( record_assert );
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_move_refuses_bad_displacements ),
		cmocka_unit_test( test_move_and_slide_refuses_bad_arguments ),
		cmocka_unit_test( test_set_position_refuses_bad_positions ),
		cmocka_unit_test( test_random_bad_input_never_breaks_anything ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_badinput", tests, NULL, NULL );
}
