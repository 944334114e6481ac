// SPDX-License-Identifier: MIT
// The gauntlet (bench/gauntlet/SCENE.md): 1,000 capsule characters for 600 steps on a 10,000-tile level, moved
// with kcc_controller_move_and_slide. Prints moves per second (median of the runs, and the spread) and the quality
// figures, measured after the timed loop from the recorded positions, independently of the controller.
//
//   gauntlet [level.txt] [--runs N] [--steps N] [--traj FILE] [--cell SIZE] [--tree] [--workers N] [--deferred]
//            [--sync] [--scrambled] [--alternate]
//
// --tree keeps Chipmunk's default bounding box tree (what a game gets without cpSpaceUseSpatialHash) instead of the
// spatial hash of cell SIZE. --workers 0 (the default): one kcc_controller_move_and_slide per character; N >= 1: one
// kcc_move_and_slide_batch per step over all the characters, on the calling thread alone for 1 (tasks NULL), on a
// pool of N workers otherwise. --deferred: the batches leave Chipmunk's index to kcc_space_sync
// (kcc_space_set_deferred_sync), which --sync calls after each batch, timed (a game that steps its space leaves it to
// cpSpaceStep instead). --scrambled adds the tiles with kcc_space_add_static_shapes instead of one by one in rows
// (what Chipmunk's tree needs; the hash does not care). Batches also print their moves per second inside
// kcc_move_and_slide_batch alone, without the bench's own per-step work (the inputs and reading the results).
// --alternate (with --workers 2 or more) measures what the workers gain in one process: the batches alternate between
// the workers and the calling thread alone (tasks NULL) every BENCH_BLOCK steps, each run starting with the other,
// and the bench prints both speeds and their ratio. A busy machine then slows both alike (the moves and trajectories
// are the same either way).
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11

#include "../bench_common.h"
#include "gauntlet_measure.h"
#include "gauntlet_runs.h"
#include "gauntlet_scene.h"

#include "../bench_tasks.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------------------------------
// World query counter: the controller's Chipmunk queries are wrapped at link time (-Wl,--wrap, see CMakeLists).

void __real_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data );
void __wrap_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data );

static uint64_t s_bb_queries = 0;
static bool s_deferred, s_sync, s_scrambled, s_alternate; // --deferred, --sync, --scrambled, --alternate

void __wrap_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data )
{
	s_bb_queries += 1;
	__real_cpSpaceBBQuery( space, bb, filter, func, data );
}

// ---------------------------------------------------------------------------------------------------------------

typedef struct run_output
{
	double seconds;
	double cpu;
	double batch_seconds; // inside kcc_move_and_slide_batch alone (batches only)
	uint64_t bb_queries;
	int on_ground_at_end;
	uint64_t truncated_moves; // moves that reported KCC_CANDIDATES_TRUNCATED
	uint64_t failed_moves;    // moves that returned an error
} run_output;

// One run: fresh world, the SCENE.md motion, positions recorded into frames ((steps + 1) * n * 2 floats). workers 0:
// one kcc_controller_move_and_slide per character; otherwise one kcc_move_and_slide_batch per step on tasks.
// step_best (batches only): each step's batch time, lowered to this run's where it is faster. With --alternate, the
// steps of every other block (from the second for an even run, the first for an odd one) run on the calling thread
// alone, their times into step_alone; a block's first BENCH_SETTLE steps are kept out of both.
static run_output run_once( const gauntlet_level* lv, int n, int steps, double cell, int workers,
							const kcc_task_system* tasks, float* frames, double* step_best, int run,
							double* step_alone )
{
	gauntlet_world w;
	gauntlet_motion m;
	vec2s* inputs = (vec2s*)calloc( (size_t)n, sizeof( vec2s ) );
	if ( inputs == NULL || gauntlet_world_create( &w, lv, n, cell, s_scrambled ) == false ||
		 gauntlet_motion_create( &m, n ) == false )
	{
		fprintf( stderr, "gauntlet: cannot build the world\n" );
		exit( 1 );
	}
	for ( int i = 0; i < n; ++i )
	{
		vec2s p = kcc_controller_get_position( w.characters[i] );
		frames[2 * i] = p.x;
		frames[2 * i + 1] = p.y;
	}
	if ( s_deferred && kcc_space_set_deferred_sync( w.space, true ) != KCC_OK )
	{
		fprintf( stderr, "gauntlet: kcc_space_set_deferred_sync failed\n" );
		exit( 1 );
	}
	run_output out = { 0 };
	uint64_t queries_before = s_bb_queries;
	double start = now_seconds();
	double cpu_start = cpu_seconds();
	for ( int step = 0; step < steps; ++step )
	{
		float* frame = frames + (size_t)( step + 1 ) * (size_t)n * 2;
		if ( workers == 0 )
		{
			for ( int i = 0; i < n; ++i )
			{
				vec2s v = gauntlet_motion_input( &m, i, step );
				kcc_move_result result;
				kcc_status status =
					kcc_controller_move_and_slide( w.characters[i], v, GAUNTLET_DT, &m.velocity[i], &result );
				if ( status != KCC_OK )
				{
					out.failed_moves += 1;
					result.flags = 0;
					result.position = kcc_controller_get_position( w.characters[i] );
				}
				gauntlet_motion_result( &m, i, m.velocity[i], result.flags );
				out.truncated_moves += ( result.flags & KCC_CANDIDATES_TRUNCATED ) ? 1 : 0;
				frame[2 * i] = result.position.x;
				frame[2 * i + 1] = result.position.y;
			}
			continue;
		}
		// The inputs depend on each character's own state only: all of them first, then one batch.
		for ( int i = 0; i < n; ++i )
		{
			inputs[i] = gauntlet_motion_input( &m, i, step );
		}
		bool alone = s_alternate && ( run + step / BENCH_BLOCK ) % 2 == 1;
		double batch_start = now_seconds();
		kcc_status status =
			kcc_move_and_slide_batch( w.characters, n, inputs, GAUNTLET_DT, m.velocity, NULL, alone ? NULL : tasks );
		double batch_time = now_seconds() - batch_start;
		out.batch_seconds += batch_time;
		double* best = alone ? step_alone + step : step_best + step;
		if ( s_alternate == false || bench_block_settled( step ) )
		{
			*best = batch_time < *best ? batch_time : *best;
		}
		out.failed_moves += status == KCC_OK ? 0 : (uint64_t)n;
		if ( s_sync )
		{
			kcc_space_sync( w.space );
		}
		for ( int i = 0; i < n; ++i )
		{
			uint32_t flags = status == KCC_OK ? kcc_controller_get_flags( w.characters[i] ) : 0;
			gauntlet_motion_result( &m, i, m.velocity[i], flags );
			out.truncated_moves += ( flags & KCC_CANDIDATES_TRUNCATED ) ? 1 : 0;
			vec2s p = kcc_controller_get_position( w.characters[i] );
			frame[2 * i] = p.x;
			frame[2 * i + 1] = p.y;
		}
	}
	out.seconds = now_seconds() - start;
	out.cpu = cpu_seconds() - cpu_start;
	out.bb_queries = s_bb_queries - queries_before;
	for ( int i = 0; i < n; ++i )
	{
		out.on_ground_at_end += m.on_ground[i] ? 1 : 0;
	}
	free( inputs );
	gauntlet_motion_destroy( &m );
	gauntlet_world_destroy( &w );
	return out;
}

int main( int argc, char** argv )
{
	gauntlet_options o = gauntlet_default_options();
	int workers = 0;
	double cell = 1.0;
	bool tree = false;
	for ( int i = 1; i < argc; ++i )
	{
		if ( gauntlet_option( &o, argc, argv, &i ) )
		{
			continue;
		}
		if ( strcmp( argv[i], "--cell" ) == 0 && i + 1 < argc )
		{
			cell = atof( argv[++i] );
		}
		else if ( strcmp( argv[i], "--tree" ) == 0 )
		{
			tree = true;
		}
		else if ( strcmp( argv[i], "--workers" ) == 0 && i + 1 < argc )
		{
			workers = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--deferred" ) == 0 )
		{
			s_deferred = true;
		}
		else if ( strcmp( argv[i], "--sync" ) == 0 )
		{
			s_sync = true;
		}
		else if ( strcmp( argv[i], "--scrambled" ) == 0 )
		{
			s_scrambled = true;
		}
		else if ( strcmp( argv[i], "--alternate" ) == 0 )
		{
			s_alternate = true;
		}
		else
		{
			fprintf( stderr,
					 "usage: %s [level.txt] [--runs N] [--steps N] [--traj FILE] [--cell SIZE] [--tree] "
					 "[--workers N] [--deferred] [--sync] [--scrambled] [--alternate]\n",
					 argv[0] );
			return 2;
		}
	}
	if ( s_alternate && ( workers < 2 || o.runs < 2 || o.steps <= BENCH_SETTLE ) )
	{
		fprintf( stderr, "gauntlet: --alternate compares workers with the calling thread alone: --workers 2 or more, "
						 "--runs 2 or more, more than %d steps\n",
				 BENCH_SETTLE );
		return 2;
	}
	if ( ( s_deferred || s_sync ) && workers == 0 )
	{
		fprintf( stderr, "gauntlet: --deferred and --sync are for batches (--workers 1 or more)\n" );
		return 2;
	}
	if ( o.runs < 1 || o.runs > GAUNTLET_MAX_RUNS || o.steps < 1 || !( cell > 0.0 ) || workers < 0 ||
		 workers > BENCH_POOL_MAX_WORKERS )
	{
		fprintf( stderr, "gauntlet: runs must be 1..%d, steps >= 1, cell > 0, workers 0..%d\n", GAUNTLET_MAX_RUNS,
				 BENCH_POOL_MAX_WORKERS );
		return 2;
	}
	gauntlet_level lv;
	if ( gauntlet_measure_self_check() == false || gauntlet_level_load( o.level_path, &lv ) == false )
	{
		return 1;
	}
	bench_tasks tasks = { 0 };
	if ( workers > 1 && bench_tasks_create( &tasks, workers, BENCH_TASKS_LIBRARY ) == false )
	{
		fprintf( stderr, "gauntlet: cannot start %d workers\n", workers );
		return 1;
	}
	int n = lv.spawn_count, steps = o.steps;
	gauntlet_runs runs;
	if ( gauntlet_runs_create( &runs, n, steps ) == false )
	{
		return 1;
	}
	if ( tree )
	{
		printf( "gauntlet: %s, %d x %d, %d tiles, %d characters, %d steps, %d runs, Chipmunk's bounding box tree\n",
				o.level_path, lv.width, lv.height, lv.tile_count, n, steps, o.runs );
		cell = 0.0;
	}
	else
	{
		printf( "gauntlet: %s, %d x %d, %d tiles, %d characters, %d steps, %d runs, spatial hash cell %g\n",
				o.level_path, lv.width, lv.height, lv.tile_count, n, steps, o.runs, cell );
	}
	if ( workers == 0 )
	{
		printf( "moves: one kcc_controller_move_and_slide per character\n" );
	}
	else if ( workers == 1 )
	{
		printf( "moves: one kcc_move_and_slide_batch per step, tasks NULL (the calling thread)\n" );
	}
	else
	{
		printf( "moves: one kcc_move_and_slide_batch per step, %d workers on %s\n", workers, tasks.name );
		if ( s_alternate )
		{
			printf( "alternating: blocks of %d steps on the workers and on the calling thread alone (tasks NULL), "
					"the first %d steps of each block left out\n",
					BENCH_BLOCK, BENCH_SETTLE );
		}
	}
	printf( "tiles added %s\n", s_scrambled ? "by kcc_space_add_static_shapes" : "one by one in rows" );
	if ( s_deferred )
	{
		printf( "Chipmunk's index: deferred (kcc_space_set_deferred_sync)%s\n",
				s_sync ? ", kcc_space_sync after each batch" : ", never synced" );
	}

	run_output first = { 0 };
	double batch_rates[GAUNTLET_MAX_RUNS];
	double* step_best = (double*)malloc( sizeof( double ) * 2 * (size_t)steps ); // then --alternate's step_alone
	if ( step_best == NULL )
	{
		fprintf( stderr, "gauntlet: out of memory\n" );
		return 1;
	}
	double* step_alone = step_best + steps;
	for ( int step = 0; step < 2 * steps; ++step )
	{
		step_best[step] = INFINITY;
	}
	for ( int r = 0; r < o.runs; ++r )
	{
		run_output out = run_once( &lv, n, steps, cell, workers, workers > 1 ? &tasks.system : NULL,
								   gauntlet_runs_frames( &runs ), step_best, r, step_alone );
		if ( r == 0 )
		{
			first = out;
		}
		gauntlet_runs_add( &runs, out.seconds, out.cpu );
		batch_rates[r] = (double)n * steps / out.batch_seconds;
	}
	gauntlet_quality q = gauntlet_measure_quality( &lv, n, steps, runs.first_frames );

	gauntlet_runs_print_rates( &runs );
	if ( s_alternate )
	{
		// Each kept step ran on both sides over the runs (a run starts each block on the other side than the last).
		double with_workers = 0.0, alone = 0.0;
		int kept = 0;
		for ( int step = 0; step < steps; ++step )
		{
			if ( bench_block_settled( step ) )
			{
				with_workers += step_best[step];
				alone += step_alone[step];
				kept += 1;
			}
		}
		printf( "inside kcc_move_and_slide_batch, each step's fastest of the runs that ran it so: %d workers %.3f M "
				"moves/s, the calling thread alone %.3f M moves/s: %.3fx\n",
				workers, (double)n * kept / with_workers * 1e-6, (double)n * kept / alone * 1e-6,
				alone / with_workers );
	}
	else if ( workers > 0 )
	{
		// The batch's own speed, without the bench's per-step work (the inputs, the results) around it.
		printf( "inside kcc_move_and_slide_batch (median of %d): %.3f M moves/s\n", o.runs,
				gauntlet_median( batch_rates, o.runs ) * 1e-6 );
		// Every run makes the same moves at each step, and a busy machine only adds time: each step's fastest batch
		// over the runs is the figure least disturbed by other processes (compare it between worker counts).
		double best = 0.0;
		for ( int step = 0; step < steps; ++step )
		{
			best += step_best[step];
		}
		printf( "inside kcc_move_and_slide_batch, each step's fastest of %d runs: %.3f M moves/s\n", o.runs,
				(double)n * steps / best * 1e-6 );
	}
	free( step_best );
	printf( "world queries per move: %.3f cpSpaceBBQuery\n", (double)first.bb_queries / ( (double)n * steps ) );
	gauntlet_quality_print( &q );
	printf( "characters on the ground at the end: %d\n", first.on_ground_at_end );
	printf( "moves with an error: %llu, moves with truncated candidates: %llu\n",
			(unsigned long long)first.failed_moves, (unsigned long long)first.truncated_moves );
	gauntlet_runs_print_identical( &runs );
	printf( "reference: Box2D v3 mover 0.6-0.74 M moves/s (largest overlap 5.6 mm); Rapier 0.21 (wasm) 0.18 M moves/s\n" );

	bool written = gauntlet_runs_write_trajectory( &runs, o.traj_path );
	gauntlet_runs_destroy( &runs );
	gauntlet_level_free( &lv );
	bench_tasks_destroy( &tasks );
	return written ? 0 : 1;
}
