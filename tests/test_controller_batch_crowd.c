// SPDX-License-Identifier: MIT
// kcc_move_and_slide_batch on the crowd scene (bench/crowd_scene.h: characters that block each other, pushable crates,
// a moving platform), top-down and platformer: every frame's positions, returned velocities, flags, floor normals,
// displacements and collision counts, and the crates' positions, are byte for byte those of
// kcc_controller_move_and_slide called on each character in array order, with tasks NULL and on 1, 2, 3 and 8 workers
// (real threads); with no results asked (out_results NULL), the controllers' state after each frame is that of the
// sequential moves too. The scene is checked to be order-sensitive (characters meet each other, crates and the
// platform; in the platformer they stand on each other and ride the platform; the same moves in reverse array order
// give another trajectory), so a batch that moved two neighbours in the wrong order fails here.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "batch_trajectory.h"
#include "crowd_scene.h"

#define CROWD_TEST_CHARACTERS 300
#define CROWD_TEST_FRAMES 40

typedef enum crowd_order
{
	CROWD_SEQUENTIAL, // kcc_controller_move_and_slide in array order
	CROWD_REVERSED,   // the same in reverse array order
	CROWD_BATCH,      // kcc_move_and_slide_batch
} crowd_order;

typedef struct crowd_run_stats
{
	int character_contacts; // collisions with another character's shape
	int platform_contacts;  // collisions with the moving platform
	int on_character;       // moves ending on another character's shape (floor)
	int on_platform;        // moves ending on the moving platform (floor)
	int crates_moved;
	int failed_moves;
} crowd_run_stats;

// t: the records from the moves' results (not filled when with_results is false); g: from the getters.
static bool crowd_run( crowd_mode mode, crowd_order order, const kcc_task_system* tasks, bool with_results,
					   batch_trajectory* t, batch_trajectory* g, crowd_run_stats* stats )
{
	memset( stats, 0, sizeof( *stats ) );
	crowd w;
	if ( crowd_create( &w, mode, CROWD_TEST_CHARACTERS ) == false )
	{
		return false;
	}
	int n = w.character_count;
	kcc_move_result* results = (kcc_move_result*)calloc( (size_t)n, sizeof( kcc_move_result ) );
	size_t frame_size = (size_t)n * sizeof( batch_character_record ) + (size_t)w.crate_count * sizeof( cpVect );
	batch_trajectory_init( t, frame_size, CROWD_TEST_FRAMES );
	batch_trajectory_init( g, frame_size, CROWD_TEST_FRAMES );
	for ( int frame = 0; frame < CROWD_TEST_FRAMES && results != NULL; ++frame )
	{
		if ( order == CROWD_REVERSED )
		{
			crowd_begin_frame( &w );
			for ( int i = n - 1; i >= 0; --i )
			{
				kcc_status status =
					kcc_controller_move_and_slide( w.characters[i], w.input[i], CROWD_DT, &w.velocity[i], &results[i] );
				stats->failed_moves += status == KCC_OK ? 0 : 1;
			}
			w.frame += 1;
		}
		else
		{
			stats->failed_moves += crowd_step( &w, order == CROWD_BATCH, tasks, with_results ? results : NULL );
		}
		for ( int i = 0; i < n && with_results == false; ++i )
		{
			batch_record_getters( g, w.characters[i], w.velocity[i] );
		}
		for ( int i = 0; i < n && with_results; ++i )
		{
			batch_record_character( t, w.velocity[i], &results[i] );
			batch_record_getters( g, w.characters[i], w.velocity[i] );
			if ( ( results[i].flags & KCC_ON_FLOOR ) && results[i].floor_shape != NULL )
			{
				cpShapeFilter floor = cpShapeGetFilter( results[i].floor_shape );
				stats->on_character += ( floor.categories & CROWD_CATEGORY_CHARACTER ) ? 1 : 0;
				stats->on_platform += ( floor.categories & CROWD_CATEGORY_PLATFORM ) ? 1 : 0;
			}
			for ( int k = 0; k < results[i].collision_count; ++k )
			{
				cpShapeFilter filter = cpShapeGetFilter( results[i].collisions[k].shape );
				stats->character_contacts += ( filter.categories & CROWD_CATEGORY_CHARACTER ) ? 1 : 0;
				stats->platform_contacts += ( filter.categories & CROWD_CATEGORY_PLATFORM ) ? 1 : 0;
			}
		}
		for ( int k = 0; k < w.crate_count; ++k )
		{
			cpVect at = cpBodyGetPosition( cpShapeGetBody( w.crates[k].shape ) );
			if ( with_results )
			{
				batch_trajectory_append( t, &at, sizeof( at ) );
			}
			batch_trajectory_append( g, &at, sizeof( at ) );
		}
	}
	stats->crates_moved = crowd_crates_moved( &w );
	free( results );
	crowd_destroy( &w );
	return true;
}

static void check_crowd( crowd_mode mode )
{
	batch_trajectory reference, reference_getters, reversed, reversed_getters;
	crowd_run_stats stats, reversed_stats;
	assert_true( crowd_run( mode, CROWD_SEQUENTIAL, NULL, true, &reference, &reference_getters, &stats ) );
	assert_int_equal( stats.failed_moves, 0 );
	// The scene makes the order matter: characters meet each other, push crates, meet the platform, and in the
	// platformer stand on each other and ride the platform.
	printf( "%s: %d contacts between characters, %d with the platform, %d moves ending on a character, %d on the "
			"platform, %d crates moved\n",
			crowd_mode_name( mode ), stats.character_contacts, stats.platform_contacts, stats.on_character,
			stats.on_platform, stats.crates_moved );
	assert_true( stats.character_contacts > 100 );
	assert_true( stats.platform_contacts > 0 );
	assert_true( stats.crates_moved > 0 );
	if ( mode == CROWD_PLATFORMER )
	{
		assert_true( stats.on_character > 0 );
		assert_true( stats.on_platform > 0 );
	}
	assert_true( crowd_run( mode, CROWD_REVERSED, NULL, true, &reversed, &reversed_getters, &reversed_stats ) );
	assert_int_equal( reversed.size, reference.size );
	assert_true( memcmp( reversed.bytes, reference.bytes, reference.size ) != 0 );
	batch_trajectory_free( &reversed );
	batch_trajectory_free( &reversed_getters );

	for ( int c = 0; c < BATCH_CONFIG_COUNT; ++c )
	{
		char what[128];
		snprintf( what, sizeof( what ), "%s, batch with %s", crowd_mode_name( mode ), batch_configs[c].name );
		bench_tasks tasks = { 0 };
		if ( batch_configs[c].workers > 0 )
		{
			assert_true( bench_tasks_create( &tasks, batch_configs[c].workers, batch_configs[c].kind ) );
		}
		batch_trajectory batched, batched_getters;
		crowd_run_stats batched_stats;
		assert_true( crowd_run( mode, CROWD_BATCH, batch_configs[c].workers > 0 ? &tasks.system : NULL, true, &batched,
								&batched_getters, &batched_stats ) );
		bench_tasks_destroy( &tasks );
		assert_int_equal( batched_stats.failed_moves, 0 );
		bool equal = batch_trajectories_equal( &reference, &batched, what ) &&
					 batch_trajectories_equal( &reference_getters, &batched_getters, what );
		batch_trajectory_free( &batched );
		batch_trajectory_free( &batched_getters );
		assert_true( equal );
	}

	// No results asked: the controllers end each frame as after the sequential moves.
	bench_tasks tasks;
	assert_true( bench_tasks_create( &tasks, 3, BENCH_TASKS_LIBRARY ) );
	batch_trajectory unused, getters;
	crowd_run_stats getters_stats;
	assert_true( crowd_run( mode, CROWD_BATCH, &tasks.system, false, &unused, &getters, &getters_stats ) );
	bench_tasks_destroy( &tasks );
	char what[128];
	snprintf( what, sizeof( what ), "%s, batch on 3 workers with out_results NULL", crowd_mode_name( mode ) );
	bool equal = batch_trajectories_equal( &reference_getters, &getters, what );
	batch_trajectory_free( &unused );
	batch_trajectory_free( &getters );
	assert_true( equal );
	batch_trajectory_free( &reference );
	batch_trajectory_free( &reference_getters );
}

// The task systems the batch runs on here run every item once, on a worker in range, and finish( NULL ) is harmless.
typedef struct task_check
{
	int runs[1000];
	int workers[1000];
} task_check;

static void check_task( int start, int end, int worker, void* context )
{
	task_check* check = (task_check*)context;
	for ( int i = start; i < end; ++i )
	{
		check->runs[i] += 1; // each item is in one range only: no two threads write the same one
		check->workers[i] = worker;
	}
}

static void test_task_systems_run_every_item_once( void** state )
{
	(void)state;
	for ( int c = 0; c < BATCH_CONFIG_COUNT; ++c )
	{
		if ( batch_configs[c].workers == 0 )
		{
			continue;
		}
		bench_tasks tasks;
		assert_true( bench_tasks_create( &tasks, batch_configs[c].workers, batch_configs[c].kind ) );
		static task_check check;
		memset( &check, 0, sizeof( check ) );
		void* handle = tasks.system.enqueue( check_task, 1000, 7, &check, tasks.system.user );
		tasks.system.finish( handle, tasks.system.user );
		tasks.system.finish( NULL, tasks.system.user );
		bench_tasks_destroy( &tasks );
		for ( int i = 0; i < 1000; ++i )
		{
			assert_int_equal( check.runs[i], 1 );
			assert_true( check.workers[i] >= 0 && check.workers[i] < batch_configs[c].workers );
		}
	}
}

static void test_topdown_batch_equals_sequential_moves( void** state )
{
	(void)state;
	check_crowd( CROWD_TOPDOWN );
}

static void test_platformer_batch_equals_sequential_moves( void** state )
{
	(void)state;
	check_crowd( CROWD_PLATFORMER );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_task_systems_run_every_item_once ),
		cmocka_unit_test( test_topdown_batch_equals_sequential_moves ),
		cmocka_unit_test( test_platformer_batch_equals_sequential_moves ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
