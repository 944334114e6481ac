// SPDX-License-Identifier: MIT
// What the benchmarks share: clocks, a median's comparison, --alternate's blocks, the gauntlet's trajectory file
// (SCENE.md's layout).
// Include after defining _POSIX_C_SOURCE 199309L (clock_gettime under -std=c11).
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static inline double now_seconds( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// CPU time of this process: the figure to read on a shared machine (printed next to the wall time).
static inline double cpu_seconds( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_PROCESS_CPUTIME_ID, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// For qsort of doubles, ascending.
static inline int compare_doubles( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

// --alternate (gauntlet, scaling): two sides measured in one process take turns every BENCH_BLOCK steps; the first
// BENCH_SETTLE steps after a switch are left out of the figures (memory moving between caches, a worker waking up).
#define BENCH_BLOCK 40
#define BENCH_SETTLE 3

// Whether a step's time counts in an --alternate figure.
static inline bool bench_block_settled( int step )
{
	return step % BENCH_BLOCK >= BENCH_SETTLE;
}

// int32 n, int32 steps, then steps + 1 frames of n (x, y) floats; x86-64 is little-endian, the layout SCENE.md asks for.
static inline bool write_trajectory( const char* path, int n, int steps, const float* frames )
{
	FILE* file = fopen( path, "wb" );
	if ( file == NULL )
	{
		return false;
	}
	int32_t header[2] = { n, steps };
	bool ok = fwrite( header, sizeof( header ), 1, file ) == 1 &&
			  fwrite( frames, sizeof( float ) * 2 * (size_t)n, (size_t)steps + 1, file ) == (size_t)steps + 1;
	return fclose( file ) == 0 && ok;
}
