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

// Frames averaged around each reported frame (one frame alone is below the clock's resolution on some machines).
#define BENCH_WINDOW 200

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

// Microseconds per kcc_level_step, averaged over BENCH_WINDOW frames ending at each reported frame.
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
	double start = 0.0;
	for ( int frame = 1; frame <= frames; ++frame )
	{
		if ( is_reported( frame + BENCH_WINDOW - 1, frames ) )
		{
			start = now_seconds();
		}
		kcc_level_step( level, 1.0f / 60.0f );
		if ( is_reported( frame, frames ) )
		{
			printf( "kcc_level_step    frame %7d: %8.3f us\n", frame, 1e6 * ( now_seconds() - start ) / BENCH_WINDOW );
		}
	}
	kcc_level_destroy( level );
	cpSpaceFree( space );
	return 0;
}

// Microseconds per test kit frame: a platformer walking right and left, jumping now and then.
static int bench_testkit( const char* map, int frames )
{
	kcc_testkit_error error;
	kcc_testkit* t = kcc_testkit_create_from_file( map, NULL, NULL, &error );
	if ( t == NULL )
	{
		fprintf( stderr, "%s\n", error.message );
		return 1;
	}
	double start = 0.0;
	int airborne = 0, respawns = 0;
	kcc_input input = { { { 1.0f, 0.0f } }, false, false, false };
	for ( int frame = 1; frame <= frames; ++frame )
	{
		if ( is_reported( frame + BENCH_WINDOW - 1, frames ) )
		{
			start = now_seconds();
		}
		input.move.x = ( frame / 120 ) % 2 == 0 ? 1.0f : -1.0f;
		input.jump = frame % 97 == 0;
		airborne = kcc_testkit_on_floor( t ) ? 0 : airborne + 1;
		if ( airborne > 300 )
		{
			kcc_testkit_spawn( t, NULL ); // fell off the map, or wedged between two steep slopes
			respawns += 1;
		}
		kcc_status status = kcc_testkit_step( t, input );
		if ( status != KCC_OK )
		{
			fprintf( stderr, "frame %d: %s\n", frame, kcc_status_string( status ) );
			kcc_testkit_destroy( t );
			return 1;
		}
		if ( is_reported( frame, frames ) )
		{
			printf( "kcc_testkit_step  frame %7d: %8.3f us\n", frame, 1e6 * ( now_seconds() - start ) / BENCH_WINDOW );
		}
	}
	vec2s p = kcc_testkit_position( t );
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
	printf( "bench_level (%s build): %s, %d frames, spatial hash, no cpSpaceStep\n", KCC_BENCH_BUILD_TYPE, map, frames );
	return bench_level_step( map, frames ) != 0 || bench_testkit( map, frames ) != 0;
}
