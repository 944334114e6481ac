// SPDX-License-Identifier: MIT
// What every gauntlet driver does around its moves, in plain C: the options they share, the positions each run
// records, the moves per second of the runs (median and spread, by wall and CPU time) and the trajectory file.
// Include after defining _POSIX_C_SOURCE 199309L (bench_common.h's clocks).
//
// A driver: options from gauntlet_option, gauntlet_runs_create, then for each run its moves recorded into
// gauntlet_runs_frames and its times given to gauntlet_runs_add; then the figures' lines and the trajectory.
#pragma once

#include "../bench_common.h"
#include "gauntlet_level.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KCC_LEVEL_DIR
#define KCC_LEVEL_DIR "."
#endif

#define GAUNTLET_MAX_RUNS 64

typedef struct gauntlet_options
{
	const char* level_path;
	const char* traj_path; // NULL: no trajectory file
	int runs, steps;
} gauntlet_options;

static inline gauntlet_options gauntlet_default_options( void )
{
	return (gauntlet_options){ KCC_LEVEL_DIR "/level.txt", NULL, 5, 600 };
}

// Reads argv[*i] when it is one of the shared options ([level.txt] [--runs N] [--steps N] [--traj FILE]), moving *i
// past its value; false when it is not one of them.
static inline bool gauntlet_option( gauntlet_options* o, int argc, char** argv, int* i )
{
	const char* arg = argv[*i];
	bool has_value = *i + 1 < argc;
	if ( strcmp( arg, "--runs" ) == 0 && has_value )
	{
		o->runs = atoi( argv[++*i] );
	}
	else if ( strcmp( arg, "--steps" ) == 0 && has_value )
	{
		o->steps = atoi( argv[++*i] );
	}
	else if ( strcmp( arg, "--traj" ) == 0 && has_value )
	{
		o->traj_path = argv[++*i];
	}
	else if ( arg[0] != '-' )
	{
		o->level_path = arg;
	}
	else
	{
		return false;
	}
	return true;
}

typedef struct gauntlet_runs
{
	int n, steps, count; // characters, steps of a run, runs added
	size_t frame_floats;
	float* first_frames; // the first run's positions, (steps + 1) frames of n (x, y), the spawns first
	float* frames;       // each later run's, compared with the first
	bool identical;      // every later run recorded the first run's positions bit for bit
	double rates[GAUNTLET_MAX_RUNS], cpu_rates[GAUNTLET_MAX_RUNS]; // moves per second of each run
} gauntlet_runs;

static inline void gauntlet_runs_destroy( gauntlet_runs* r )
{
	free( r->first_frames );
	free( r->frames );
	memset( r, 0, sizeof( *r ) );
}

static inline bool gauntlet_runs_create( gauntlet_runs* r, int n, int steps )
{
	memset( r, 0, sizeof( *r ) );
	r->n = n;
	r->steps = steps;
	r->identical = true;
	r->frame_floats = (size_t)( steps + 1 ) * (size_t)n * 2;
	r->first_frames = (float*)malloc( sizeof( float ) * r->frame_floats );
	r->frames = (float*)malloc( sizeof( float ) * r->frame_floats );
	if ( r->first_frames == NULL || r->frames == NULL )
	{
		gauntlet_runs_destroy( r );
		return false;
	}
	return true;
}

// Where the next run records its positions.
static inline float* gauntlet_runs_frames( gauntlet_runs* r )
{
	return r->count == 0 ? r->first_frames : r->frames;
}

// The run just recorded took seconds (wall) and cpu (CPU time): its line, and its positions compared with the first.
static inline void gauntlet_runs_add( gauntlet_runs* r, double seconds, double cpu )
{
	double moves = (double)r->n * r->steps;
	r->rates[r->count] = moves / seconds;
	r->cpu_rates[r->count] = moves / cpu;
	if ( r->count > 0 )
	{
		r->identical = r->identical && memcmp( r->frames, r->first_frames, sizeof( float ) * r->frame_floats ) == 0;
	}
	printf( "  run %d: %.3f s, %.3f M moves/s (CPU time %.3f s, %.3f M moves/s)\n", r->count + 1, seconds,
			r->rates[r->count] * 1e-6, cpu, r->cpu_rates[r->count] * 1e-6 );
	r->count += 1;
}

static inline double gauntlet_median( double* values, int count )
{
	qsort( values, (size_t)count, sizeof( double ), compare_doubles );
	return count % 2 ? values[count / 2] : 0.5 * ( values[count / 2 - 1] + values[count / 2] );
}

// The moves per second of the runs: median and spread, by wall and by CPU time (sorts the rates).
static inline void gauntlet_runs_print_rates( gauntlet_runs* r )
{
	double median = gauntlet_median( r->rates, r->count );
	double cpu_median = gauntlet_median( r->cpu_rates, r->count );
	printf( "moves/s (median of %d): %.3f M  (spread %.3f - %.3f M), %.3f us per move\n", r->count, median * 1e-6,
			r->rates[0] * 1e-6, r->rates[r->count - 1] * 1e-6, 1e6 / median );
	printf( "by CPU time (median): %.3f M moves/s (spread %.3f - %.3f M)\n", cpu_median * 1e-6,
			r->cpu_rates[0] * 1e-6, r->cpu_rates[r->count - 1] * 1e-6 );
}

static inline void gauntlet_runs_print_identical( const gauntlet_runs* r )
{
	printf( "runs bit-identical: %s\n", r->count > 1 ? ( r->identical ? "yes" : "NO" ) : "(one run)" );
}

// The first run's positions to path (SCENE.md's layout); nothing when path is NULL. False with a message on
// standard error when the file cannot be written.
static inline bool gauntlet_runs_write_trajectory( const gauntlet_runs* r, const char* path )
{
	if ( path == NULL )
	{
		return true;
	}
	if ( write_trajectory( path, r->n, r->steps, r->first_frames ) == false )
	{
		fprintf( stderr, GAUNTLET_PROGRAM ": cannot write %s\n", path );
		return false;
	}
	printf( "trajectory written to %s\n", path );
	return true;
}
