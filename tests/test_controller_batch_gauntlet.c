// SPDX-License-Identifier: MIT
// kcc_move_and_slide_batch on the gauntlet (bench/gauntlet: its 10,000-tile level and 1,000 capsules, the first steps
// of its motion; fewer on the slower tree, to stay short under the sanitizers): every step's positions, returned
// velocities, flags, floor normals, displacements and collision counts are byte for byte those of
// kcc_controller_move_and_slide called on each character in array order, with tasks NULL and on 1, 2, 3 and 8 workers
// (real threads), on the spatial hash and on Chipmunk's default tree. The gauntlet's characters do not block each
// other; the crowd's test covers characters that meet.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "batch_trajectory.h"
#include "gauntlet/gauntlet_scene.h"

#ifndef KCC_LEVEL_DIR
#define KCC_LEVEL_DIR "."
#endif

#define GAUNTLET_TEST_STEPS_HASH 12
#define GAUNTLET_TEST_STEPS_TREE 6

static gauntlet_level s_level;

static int load_level( void** state )
{
	(void)state;
	return gauntlet_level_load( KCC_LEVEL_DIR "/level.txt", &s_level ) && s_level.spawn_count == 1000 ? 0 : -1;
}

static int free_level( void** state )
{
	(void)state;
	gauntlet_level_free( &s_level );
	return 0;
}

// The gauntlet's motion for some steps: one kcc_controller_move_and_slide per character in array order (batch
// false), or one kcc_move_and_slide_batch per step on tasks.
static void gauntlet_run( double cell, int steps, bool batch, const kcc_task_system* tasks, batch_trajectory* t )
{
	gauntlet_world w;
	gauntlet_motion m;
	int n = s_level.spawn_count;
	assert_true( gauntlet_world_create( &w, &s_level, n, cell, false ) );
	assert_true( gauntlet_motion_create( &m, n ) );
	vec2s* inputs = (vec2s*)calloc( (size_t)n, sizeof( vec2s ) );
	kcc_move_result* results = (kcc_move_result*)calloc( (size_t)n, sizeof( kcc_move_result ) );
	assert_non_null( inputs );
	assert_non_null( results );
	batch_trajectory_init( t, (size_t)n * sizeof( batch_character_record ), steps );
	for ( int step = 0; step < steps; ++step )
	{
		for ( int i = 0; i < n; ++i )
		{
			inputs[i] = gauntlet_motion_input( &m, i, step );
		}
		if ( batch )
		{
			kcc_status status =
				kcc_move_and_slide_batch( w.characters, n, inputs, GAUNTLET_DT, m.velocity, results, tasks );
			assert_int_equal( status, KCC_OK );
		}
		else
		{
			for ( int i = 0; i < n; ++i )
			{
				kcc_status status = kcc_controller_move_and_slide( w.characters[i], inputs[i], GAUNTLET_DT,
																   &m.velocity[i], &results[i] );
				assert_int_equal( status, KCC_OK );
			}
		}
		for ( int i = 0; i < n; ++i )
		{
			gauntlet_motion_result( &m, i, m.velocity[i], results[i].flags );
			batch_record_character( t, m.velocity[i], &results[i] );
		}
	}
	free( inputs );
	free( results );
	gauntlet_motion_destroy( &m );
	gauntlet_world_destroy( &w );
}

static void check_gauntlet( double cell, int steps )
{
	batch_trajectory reference;
	gauntlet_run( cell, steps, false, NULL, &reference );
	for ( int c = 0; c < BATCH_CONFIG_COUNT; ++c )
	{
		char what[128];
		snprintf( what, sizeof( what ), "gauntlet (%s), batch with %s", cell > 0.0 ? "spatial hash" : "tree",
				  batch_configs[c].name );
		bench_tasks tasks = { 0 };
		if ( batch_configs[c].workers > 0 )
		{
			assert_true( bench_tasks_create( &tasks, batch_configs[c].workers, batch_configs[c].kind ) );
		}
		batch_trajectory batched;
		gauntlet_run( cell, steps, true, batch_configs[c].workers > 0 ? &tasks.system : NULL, &batched );
		bench_tasks_destroy( &tasks );
		bool equal = batch_trajectories_equal( &reference, &batched, what );
		batch_trajectory_free( &batched );
		assert_true( equal );
	}
	batch_trajectory_free( &reference );
}

static void test_batch_equals_sequential_moves_on_the_hash( void** state )
{
	(void)state;
	check_gauntlet( 1.0, GAUNTLET_TEST_STEPS_HASH );
}

static void test_batch_equals_sequential_moves_on_the_tree( void** state )
{
	(void)state;
	check_gauntlet( 0.0, GAUNTLET_TEST_STEPS_TREE );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_batch_equals_sequential_moves_on_the_hash ),
		cmocka_unit_test( test_batch_equals_sequential_moves_on_the_tree ),
	};
	return cmocka_run_group_tests( tests, load_level, free_level );
}
