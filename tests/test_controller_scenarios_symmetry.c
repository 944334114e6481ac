// SPDX-License-Identifier: MIT
// Quality properties 10 and 11 (DESIGN.md section 5): a mirrored world (x -> -x) with mirrored input gives the
// mirrored trajectory (1e-5); identical runs on fresh spaces give bit-identical trajectories, also when the
// level's shapes are inserted in another order or the space uses a spatial hash instead of the tree.
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
#define STEPS 900

// Every kind of feature, asymmetric about x = 0 so that mirroring means something.
static void build_course( scene* s )
{
	scene_add_tile_row( s, -30, -1, 60 );                  // floor, top at 0
	scene_add_tile_column( s, -31, 0, 10 );                // left wall
	scene_add_tile_column( s, 30, 0, 10 );                 // right wall
	scene_add_tile_row( s, -12, 4, 6 );                    // low ceiling block
	scene_add_slope( s, kcc_v2( 2.0f, 0.0f ), 30.0f * DEG, 4.0f, 0.5f );
	scene_add_box( s, 6.0f, 0.0f, 9.0f, 4.0f * tanf( 30.0f * DEG ) ); // plateau after the ramp
	scene_add_slope( s, kcc_v2( 9.0f, 4.0f * tanf( 30.0f * DEG ) ), -20.0f * DEG, 4.0f, 0.4f );
	scene_add_slope( s, kcc_v2( 16.0f, 0.0f ), 60.0f * DEG, 1.5f, 0.5f );
	scene_add_crease( s, kcc_v2( -20.0f, 0.0f ), 100.0f * DEG, 2.5f, 0.3f );
	scene_add_circle( s, kcc_v2( -5.0f, 0.1f ), 0.5f );
	scene_add_segment( s, kcc_v2( 20.0f, 1.5f ), kcc_v2( 24.0f, 2.5f ), 0.0f );
	scene_add_segment( s, kcc_v2( -26.0f, 2.0f ), kcc_v2( -23.0f, 2.0f ), 0.1f );
	scene_add_box( s, 23.0f, 0.0f, 23.02f, 1.2f ); // thin low wall
}

typedef struct trajectory
{
	vec2s positions[STEPS];
	uint32_t flags[STEPS];
} trajectory;

// Runs the scripted input (direction flipped by mirror) in a world built by build_course.
static void run_course( int kind, kcc_motion_mode mode, float mirror, uint32_t insertion_seed, bool spatial_hash,
						trajectory* out )
{
	scene* s = scene_create( mirror );
	if ( spatial_hash )
	{
		cpSpaceUseSpatialHash( s->space, 1.0, 4096 );
	}
	build_course( s );
	scene_commit( s, insertion_seed );
	kcc_controller_def def = test_character_def( kind, kcc_v2( 0.0f, 1.5f ) );
	def.mode = mode;
	def.step_height = mode == KCC_MODE_GROUNDED ? 0.3f : 0.0f;
	kcc_controller* c = kcc_controller_create( s->space, &def );
	assert_non_null( c );
	vec2s velocity = kcc_v2( 0.0f, 0.0f );
	uint32_t rng = 777u + (uint32_t)kind;
	float vx = 0.0f;
	vec2s push = kcc_v2( 0.0f, 0.0f );
	for ( int step = 0; step < STEPS; ++step )
	{
		if ( step % 40 == 0 )
		{
			vx = test_random( &rng, -9.0f, 9.0f );
			push = kcc_v2( test_random( &rng, -0.3f, 0.3f ), test_random( &rng, -0.3f, 0.3f ) );
		}
		bool jump = test_random( &rng, 0.0f, 1.0f ) < 0.04f;
		kcc_move_result result;
		if ( mode == KCC_MODE_GROUNDED )
		{
			if ( jump && kcc_controller_is_on_floor( c ) )
			{
				velocity.y = 9.0f;
			}
			assert_int_equal( test_gravity_step( c, &velocity, mirror * vx, GRAVITY, DT, &result ), KCC_OK );
		}
		else
		{
			assert_int_equal( kcc_controller_move( c, kcc_v2( mirror * push.x, push.y ), &result ), KCC_OK );
		}
		out->positions[step] = result.position;
		out->flags[step] = result.flags;
	}
	kcc_controller_destroy( c );
	scene_destroy( s );
}

static trajectory s_a, s_b;

static void test_mirrored_world_gives_mirrored_trajectory( void** state )
{
	(void)state;
	for ( int mode = 0; mode < 2; ++mode )
	{
		for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
		{
			run_course( kind, (kcc_motion_mode)mode, 1.0f, 0, false, &s_a );
			run_course( kind, (kcc_motion_mode)mode, -1.0f, 0, false, &s_b );
			float worst = 0.0f;
			for ( int step = 0; step < STEPS; ++step )
			{
				vec2s mirrored = kcc_v2( -s_b.positions[step].x, s_b.positions[step].y );
				float difference = test_vec2_difference( s_a.positions[step], mirrored );
				worst = difference > worst ? difference : worst;
				SCENE_CHECK( difference <= 1e-5f, "%s mode %d step %d: (%.7f, %.7f) vs mirrored (%.7f, %.7f)",
							 test_character_name( kind ), mode, step, (double)s_a.positions[step].x,
							 (double)s_a.positions[step].y, (double)mirrored.x, (double)mirrored.y );
				uint32_t contact = KCC_ON_FLOOR | KCC_ON_WALL | KCC_ON_CEILING;
				SCENE_CHECK( ( s_a.flags[step] & contact ) == ( s_b.flags[step] & contact ),
							 "%s mode %d step %d: flags 0x%x vs mirrored 0x%x", test_character_name( kind ), mode, step,
							 (unsigned)s_a.flags[step], (unsigned)s_b.flags[step] );
			}
			print_message( "%s mode %d: largest mirror difference %g\n", test_character_name( kind ), mode,
						   (double)worst );
		}
	}
}

static void test_identical_runs_are_bit_identical( void** state )
{
	(void)state;
	for ( int mode = 0; mode < 2; ++mode )
	{
		for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
		{
			run_course( kind, (kcc_motion_mode)mode, 1.0f, 0, false, &s_a );
			run_course( kind, (kcc_motion_mode)mode, 1.0f, 0, false, &s_b );
			assert_memory_equal( &s_a, &s_b, sizeof( trajectory ) );
			// The character must really have gone places for this to mean anything.
			float span = fabsf( s_a.positions[STEPS - 1].x - s_a.positions[0].x ) +
						 fabsf( s_a.positions[STEPS / 2].x - s_a.positions[0].x );
			SCENE_CHECK( span > 1.0f, "%s: the course run barely moved", test_character_name( kind ) );
		}
	}
}

static void test_insertion_order_does_not_matter( void** state )
{
	(void)state;
	static const uint32_t seeds[] = { 1u, 0xBEEFu, 123456789u };
	for ( int mode = 0; mode < 2; ++mode )
	{
		for ( int kind = 0; kind < TEST_CHARACTER_COUNT; ++kind )
		{
			run_course( kind, (kcc_motion_mode)mode, 1.0f, 0, false, &s_a );
			for ( int si = 0; si < 3; ++si )
			{
				run_course( kind, (kcc_motion_mode)mode, 1.0f, seeds[si], false, &s_b );
				for ( int step = 0; step < STEPS; ++step )
				{
					SCENE_CHECK( memcmp( &s_a.positions[step], &s_b.positions[step], sizeof( vec2s ) ) == 0 &&
									 s_a.flags[step] == s_b.flags[step],
								 "%s mode %d shuffle %u: first difference at step %d: (%.9g, %.9g) vs (%.9g, %.9g)",
								 test_character_name( kind ), mode, (unsigned)seeds[si], step,
								 (double)s_a.positions[step].x, (double)s_a.positions[step].y,
								 (double)s_b.positions[step].x, (double)s_b.positions[step].y );
				}
			}
			// Another spatial index (Chipmunk's spatial hash) returns candidates in yet another order.
			run_course( kind, (kcc_motion_mode)mode, 1.0f, 0, true, &s_b );
			for ( int step = 0; step < STEPS; ++step )
			{
				SCENE_CHECK( memcmp( &s_a.positions[step], &s_b.positions[step], sizeof( vec2s ) ) == 0,
							 "%s mode %d spatial hash: first difference at step %d", test_character_name( kind ), mode,
							 step );
			}
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_mirrored_world_gives_mirrored_trajectory ),
		cmocka_unit_test( test_identical_runs_are_bit_identical ),
		cmocka_unit_test( test_insertion_order_does_not_matter ),
	};
	return cmocka_run_group_tests_name( "controller_scenarios_symmetry", tests, NULL, NULL );
}
