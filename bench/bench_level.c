// SPDX-License-Identifier: MIT
// Level runtime benchmark: the cost of one kcc_level_step, and of one test kit frame (the level step, then a
// character's move), early in a run and after many frames, in the setup the docs and the test kit use (a spatial
// hash, platforms moved by position, no cpSpaceStep). A flat cost means the frame's work does not depend on how long
// the game has run. Prints figures; asserts nothing.
// Build it in a Release tree:  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
// Run:  ./bench_level [map.tmj] [--frames N]   (default: tests/levels/features.tmj, 200000 frames)
#define _POSIX_C_SOURCE 199309L

#include "kcc/testkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef KCC_BENCH_BUILD_TYPE
#define KCC_BENCH_BUILD_TYPE "unknown"
#endif
#ifndef KCC_BENCH_MAP
#define KCC_BENCH_MAP "features.tmj"
#endif

// Frames timed up to each reported frame: their median (robust to a frame preempted on a busy machine) and their
// mean are printed.
#define BENCH_WINDOW 201

static double now_seconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int is_reported( int frame, int frames )
{
	return frame == 1000 || frame == 10000 || frame == 30000 || frame == 100000 || frame == frames;
}

// Whether the frame is timed: one of the BENCH_WINDOW frames that end at a reported frame.
static int is_timed( int frame, int frames )
{
	for ( int last = frame; last < frame + BENCH_WINDOW; ++last )
	{
		if ( is_reported( last, frames ) )
		{
			return 1;
		}
	}
	return 0;
}

static int compare_double( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

// Times the frames of each window ending at a reported frame; prints the window's median and mean.
typedef struct bench_window
{
	const char* what;
	double seconds[BENCH_WINDOW];
	int count;
	double start;
} bench_window;

static void frame_begin( bench_window* w, int frame, int frames )
{
	w->start = is_timed( frame, frames ) ? now_seconds() : 0.0;
}

static void frame_end( bench_window* w, int frame, int frames )
{
	if ( w->start == 0.0 )
	{
		return;
	}
	w->seconds[w->count++] = now_seconds() - w->start;
	if ( is_reported( frame, frames ) )
	{
		double sum = 0.0;
		for ( int i = 0; i < w->count; ++i )
		{
			sum += w->seconds[i];
		}
		double mean = sum / w->count;
		qsort( w->seconds, (size_t)w->count, sizeof( double ), compare_double );
		printf( "%-16s frame %7d: median %7.3f us, mean %7.3f us\n", w->what, frame, 1e6 * w->seconds[w->count / 2],
				1e6 * mean );
		w->count = 0;
	}
}

// One kcc_level_step per frame: the level alone.
static int bench_level_step( const char* map, int frames )
{
	cpSpace* space = cpSpaceNew();
	cpSpaceUseSpatialHash( space, 2.0, 1024 );
	kcc_level* level = NULL;
	kcc_level_error error;
	if ( kcc_level_load_file( space, map, NULL, &level, &error ) != KCC_LEVEL_OK )
	{
		fprintf( stderr, "%s\n", error.message );
		cpSpaceFree( space );
		return 1;
	}
	vec2s tile = kcc_level_get_tile_size( level );
	int shapes = kcc_level_get_info( level ).shape_count;
	cpSpaceUseSpatialHash( space, 2.0 * (double)fmaxf( tile.x, tile.y ), shapes > 256 ? 4 * shapes : 1024 );
	static bench_window w = { "kcc_level_step", { 0.0 }, 0, 0.0 };
	for ( int frame = 1; frame <= frames; ++frame )
	{
		frame_begin( &w, frame, frames );
		kcc_level_step( level, 1.0f / 60.0f );
		frame_end( &w, frame, frames );
	}
	kcc_level_destroy( level );
	cpSpaceFree( space );
	return 0;
}

// One test kit frame (the level step, then the character's move): a platformer walking right and left, jumping now
// and then, put back at its spawn when it has been off the floor for 5 s (fallen off, or wedged in a V of two steep
// slopes, where it stands on nothing walkable).
static int bench_testkit( const char* map, int frames )
{
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create_from_file( map, NULL, NULL, &error );
	if ( t == NULL )
	{
		fprintf( stderr, "%s\n", error.message );
		return 1;
	}
	static bench_window w = { "kcc_testkit_step", { 0.0 }, 0, 0.0 };
	int airborne = 0, respawns = 0;
	kcc_input input = { { { 1.0f, 0.0f } }, false, false, false };
	for ( int frame = 1; frame <= frames; ++frame )
	{
		input.move.x = ( frame / 120 ) % 2 == 0 ? 1.0f : -1.0f;
		input.jump = frame % 97 == 0;
		airborne = kcc_testkit_on_floor( t ) ? 0 : airborne + 1;
		if ( airborne > 300 )
		{
			kcc_testkit_spawn( t, NULL );
			respawns += 1;
		}
		frame_begin( &w, frame, frames );
		kcc_status status = kcc_testkit_step( t, input );
		frame_end( &w, frame, frames );
		if ( status != KCC_OK )
		{
			fprintf( stderr, "frame %d: %s\n", frame, kcc_status_string( status ) );
			kcc_testkit_destroy( t );
			return 1;
		}
	}
	vec2s p = kcc_testkit_get_position( t );
	printf( "the character ends at (%.3f, %.3f) after %d landings and %d respawns\n", (double)p.x, (double)p.y,
			kcc_testkit_count_events( t, KCC_EVENT_LAND, NULL ), respawns );
	kcc_testkit_destroy( t );
	return 0;
}

int main( int argc, char** argv )
{
	const char* map = KCC_BENCH_MAP;
	int frames = 200000;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--frames" ) == 0 && i + 1 < argc )
		{
			frames = atoi( argv[++i] );
		}
		else
		{
			map = argv[i];
		}
	}
	if ( frames < 1000 )
	{
		fprintf( stderr, "--frames must be at least 1000\n" );
		return 1;
	}
	printf( "bench_level (%s build): %s, %d frames, spatial hash, no cpSpaceStep\n", KCC_BENCH_BUILD_TYPE, map,
			frames );
	return bench_level_step( map, frames ) != 0 || bench_testkit( map, frames ) != 0;
}
