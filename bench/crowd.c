// SPDX-License-Identifier: MIT
// The crowd scene (crowd_scene.h): characters that meet, in a walled room with pillars, pushable crates and a moving
// platform, top-down or platformer. Prints moves per second (median of the runs, and the spread), the overlaps with
// static shapes and crates (measured after every step of the first run, outside the timing) and the crates moved.
//
//   crowd [--mode topdown|platformer] [--characters N] [--steps N] [--runs N] [--workers N] [--traj FILE] [--deferred]
//
// --workers 0 (the default): one kcc_controller_move_and_slide per character; N >= 1: one kcc_move_and_slide_batch
// per step, on the calling thread alone for 1, on a pool of N workers otherwise. --traj writes the first run's
// positions as the gauntlet does: int32 n, int32 steps, then steps + 1 frames of n pairs float x, y. --deferred: the
// batches leave Chipmunk's index to kcc_space_sync (kcc_space_set_deferred_sync), never called here. On workers, it
// prints the waves the batches ran in (read from the library's internals: the batch's snapshot).
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11

#include "bench_common.h"
#include "bench_tasks.h"
#include "crowd_scene.h"

#include "../controller/internal.h"

#include <stdio.h>
#include <time.h>

#define MAX_RUNS 64

static bool s_deferred; // --deferred

typedef struct run_output
{
	double seconds, cpu;
	int failed_moves;
	uint64_t overlapping_steps; // character-steps (first run only)
	float deepest;
	uint64_t crushed_moves; // moves that reported KCC_CRUSHED (first run only)
	int crates_moved, crate_count, static_count, on_floor_at_end;
	float width, height;
	int wave_batches;  // batches that ran in waves (the others in array order on the calling thread)
	int64_t waves;     // their waves, summed
	int largest_wave;  // moves
} run_output;

static void record_positions( const crowd* w, float* frame )
{
	for ( int i = 0; i < w->character_count; ++i )
	{
		vec2s p = kcc_controller_get_position( w->characters[i] );
		frame[2 * i] = p.x;
		frame[2 * i + 1] = p.y;
	}
}

// One run on a fresh scene; positions into frames ((steps + 1) * n * 2 floats); quality measured when asked.
static bool run_once( crowd_mode mode, int n, int steps, int workers, const kcc_task_system* tasks, bool quality,
					  float* frames, run_output* out )
{
	crowd w;
	if ( crowd_create( &w, mode, n ) == false )
	{
		fprintf( stderr, "crowd: cannot build the scene with %d characters\n", n );
		return false;
	}
	if ( s_deferred && kcc_space_set_deferred_sync( w.space, true ) != KCC_OK )
	{
		fprintf( stderr, "crowd: kcc_space_set_deferred_sync failed\n" );
		return false;
	}
	memset( out, 0, sizeof( *out ) );
	out->crate_count = w.crate_count;
	out->static_count = w.static_count;
	out->width = w.width;
	out->height = w.height;
	record_positions( &w, frames );
	for ( int step = 0; step < steps; ++step )
	{
		double start = now_seconds(), cpu_start = cpu_seconds();
		out->failed_moves += crowd_step( &w, workers > 0, tasks, NULL );
		out->seconds += now_seconds() - start;
		out->cpu += cpu_seconds() - cpu_start;
		const kcc_snapshot* snapshot = workers > 0 ? *kcc_static_index_snapshot( w.characters[0]->static_index ) : NULL;
		if ( snapshot != NULL && snapshot->wave_count > 0 )
		{
			out->wave_batches += 1;
			out->waves += snapshot->wave_count;
			out->largest_wave = snapshot->largest_wave > out->largest_wave ? snapshot->largest_wave : out->largest_wave;
		}
		record_positions( &w, frames + (size_t)( step + 1 ) * (size_t)n * 2 );
		if ( quality )
		{
			float deepest;
			out->overlapping_steps += (uint64_t)crowd_overlaps( &w, &deepest );
			out->deepest = deepest > out->deepest ? deepest : out->deepest;
			for ( int i = 0; i < n; ++i )
			{
				out->crushed_moves += ( kcc_controller_get_flags( w.characters[i] ) & KCC_CRUSHED ) ? 1 : 0;
			}
		}
	}
	out->crates_moved = crowd_crates_moved( &w );
	for ( int i = 0; i < n; ++i )
	{
		out->on_floor_at_end += kcc_controller_is_on_floor( w.characters[i] ) ? 1 : 0;
	}
	crowd_destroy( &w );
	return true;
}

int main( int argc, char** argv )
{
	const char* traj_path = NULL;
	crowd_mode mode = CROWD_TOPDOWN;
	int runs = 5, steps = 600, n = 400, workers = 0;
	bool usage = false;
	for ( int i = 1; i < argc && usage == false; ++i )
	{
		bool has_value = i + 1 < argc;
		if ( strcmp( argv[i], "--mode" ) == 0 && has_value )
		{
			const char* name = argv[++i];
			usage = strcmp( name, "topdown" ) != 0 && strcmp( name, "platformer" ) != 0;
			mode = strcmp( name, "platformer" ) == 0 ? CROWD_PLATFORMER : CROWD_TOPDOWN;
		}
		else if ( strcmp( argv[i], "--characters" ) == 0 && has_value )
		{
			n = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--steps" ) == 0 && has_value )
		{
			steps = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--runs" ) == 0 && has_value )
		{
			runs = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--workers" ) == 0 && has_value )
		{
			workers = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--traj" ) == 0 && has_value )
		{
			traj_path = argv[++i];
		}
		else if ( strcmp( argv[i], "--deferred" ) == 0 )
		{
			s_deferred = true;
		}
		else
		{
			usage = true;
		}
	}
	if ( usage )
	{
		fprintf( stderr,
				 "usage: %s [--mode topdown|platformer] [--characters N] [--steps N] [--runs N] [--workers N] "
				 "[--traj FILE] [--deferred]\n",
				 argv[0] );
		return 2;
	}
	if ( s_deferred && workers == 0 )
	{
		fprintf( stderr, "crowd: --deferred is for batches (--workers 1 or more)\n" );
		return 2;
	}
	if ( runs < 1 || runs > MAX_RUNS || steps < 1 || n < 1 || n > 100000 || workers < 0 ||
		 workers > BENCH_POOL_MAX_WORKERS )
	{
		fprintf( stderr, "crowd: runs must be 1..%d, steps >= 1, characters 1..100000, workers 0..%d\n", MAX_RUNS,
				 BENCH_POOL_MAX_WORKERS );
		return 2;
	}
	bench_tasks tasks = { 0 };
	if ( workers > 1 && bench_tasks_create( &tasks, workers, BENCH_TASKS_LIBRARY ) == false )
	{
		fprintf( stderr, "crowd: cannot start %d workers\n", workers );
		return 1;
	}
	size_t frame_floats = (size_t)( steps + 1 ) * (size_t)n * 2;
	float* frames = (float*)malloc( sizeof( float ) * frame_floats );
	float* first_frames = (float*)malloc( sizeof( float ) * frame_floats );
	if ( frames == NULL || first_frames == NULL )
	{
		return 1;
	}

	double rates[MAX_RUNS], cpu_rates[MAX_RUNS];
	run_output first = { 0 };
	bool identical = true;
	for ( int r = 0; r < runs; ++r )
	{
		run_output out;
		if ( run_once( mode, n, steps, workers, workers > 1 ? &tasks.system : NULL, r == 0,
					   r == 0 ? first_frames : frames, &out ) == false )
		{
			return 1;
		}
		if ( r == 0 )
		{
			first = out;
			printf( "crowd: %s, %d characters, room %g x %g, %d static shapes, %d crates, a moving platform, %d steps, "
					"%d runs\n",
					crowd_mode_name( mode ), n, (double)out.width, (double)out.height, out.static_count,
					out.crate_count, steps, runs );
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
			}
		}
		else
		{
			identical = identical && memcmp( frames, first_frames, sizeof( float ) * frame_floats ) == 0;
		}
		rates[r] = (double)n * steps / out.seconds;
		cpu_rates[r] = (double)n * steps / out.cpu;
		printf( "  run %d: %.3f s, %.3f M moves/s (CPU time %.3f s, %.3f M moves/s)\n", r + 1, out.seconds,
				rates[r] * 1e-6, out.cpu, cpu_rates[r] * 1e-6 );
	}
	qsort( rates, (size_t)runs, sizeof( double ), compare_doubles );
	qsort( cpu_rates, (size_t)runs, sizeof( double ), compare_doubles );
	double median = runs % 2 ? rates[runs / 2] : 0.5 * ( rates[runs / 2 - 1] + rates[runs / 2] );
	double cpu_median = runs % 2 ? cpu_rates[runs / 2] : 0.5 * ( cpu_rates[runs / 2 - 1] + cpu_rates[runs / 2] );
	printf( "moves/s (median of %d): %.3f M  (spread %.3f - %.3f M), %.3f us per move\n", runs, median * 1e-6,
			rates[0] * 1e-6, rates[runs - 1] * 1e-6, 1e6 / median );
	printf( "by CPU time (median): %.3f M moves/s (spread %.3f - %.3f M)\n", cpu_median * 1e-6, cpu_rates[0] * 1e-6,
			cpu_rates[runs - 1] * 1e-6 );
	printf( "character-steps overlapping a static shape or a crate by > 1e-3 of the height: %llu (deepest %.6g)\n",
			(unsigned long long)first.overlapping_steps, (double)first.deepest );
	printf( "crates moved: %d of %d\n", first.crates_moved, first.crate_count );
	printf( "moves reporting KCC_CRUSHED: %llu, moves with an error: %d\n", (unsigned long long)first.crushed_moves,
			first.failed_moves );
	if ( mode == CROWD_PLATFORMER )
	{
		printf( "characters on the floor at the end: %d\n", first.on_floor_at_end );
	}
	if ( workers > 1 )
	{
		printf( "waves: %d of %d batches in waves (the others in array order on the calling thread)", first.wave_batches,
				steps );
		if ( first.wave_batches > 0 )
		{
			printf( ", %.1f waves per batch of %d moves on average, the largest %d moves",
					(double)first.waves / first.wave_batches, n, first.largest_wave );
		}
		printf( "\n" );
	}
	printf( "runs bit-identical: %s\n", runs > 1 ? ( identical ? "yes" : "NO" ) : "(one run)" );
	if ( traj_path != NULL )
	{
		if ( write_trajectory( traj_path, n, steps, first_frames ) == false )
		{
			fprintf( stderr, "crowd: cannot write %s\n", traj_path );
			return 1;
		}
		printf( "trajectory written to %s\n", traj_path );
	}
	free( frames );
	free( first_frames );
	bench_tasks_destroy( &tasks );
	return 0;
}
