// SPDX-License-Identifier: MIT
// The long soak: random worlds, every character kind and option, random moves, and after every move an overlap
// oracle that uses none of the library's geometry (tests/soak_world.h). Prints the moves, moves per second, the
// unflagged overlaps beyond 1e-3 of the character's height (count and worst depth, per character kind, option and
// action), the flags seen, and a reproduction of the worst case as C with hex floats.
//
//   soak [moves] [seed] [printed reproductions] [world] [crates]    defaults: 1000000 1 3 -1 (all worlds) 12
// Worlds have up to [crates] crates (pushable kinematic ones, piles, dynamic boxes); their pushes are checked too,
// and one move in twenty is replayed from its state with the crates put back (bit-identical).
// The first failure of each class is printed with a shrunk reproduction; with a world index, only that world of the
// seed runs and every failure in it is printed.
//   soak crowd [count]    times one move of a character inside count overlapping circles (default 100000)
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11
#include "../tests/query_count.h"
#include "../tests/soak_world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

// One move (a zero displacement, then a short walk) inside the crowd, timed.
static int crowd( int count )
{
	kcc_controller_def def;
	cpSpace* space = soak_crowd_create( count, &def );
	kcc_controller* c = kcc_controller_create( space, &def );
	for ( int i = 0; i < 2; ++i )
	{
		kcc_move_result result;
		vec2s delta = i == 0 ? kcc_v2( 0.0f, 0.0f ) : kcc_v2( 0.1f, 0.0f );
		query_count_reset( -1 );
		double start = now_seconds();
		kcc_status status = kcc_controller_move( c, delta, &result );
		double seconds = now_seconds() - start;
		printf( "crowd of %d circles: move (%g, %g): %.3f ms, %ld world queries, status %d, flags 0x%x, %.4g of its "
				"height inside a circle\n",
				count, (double)delta.x, (double)delta.y, 1.0e3 * seconds, query_count(), (int)status,
				(unsigned)result.flags, soak_crowd_overlap( space, &def.shape, result.position ) );
	}
	kcc_controller_destroy( c );
	soak_crowd_destroy( space );
	return 0;
}

int main( int argc, char** argv )
{
	if ( argc > 1 && strcmp( argv[1], "crowd" ) == 0 )
	{
		return crowd( argc > 2 ? atoi( argv[2] ) : 100000 );
	}
	soak_run_config config = { 0 };
	config.moves = argc > 1 ? strtoull( argv[1], NULL, 10 ) : 1000000ull;
	config.seed = argc > 2 ? strtoull( argv[2], NULL, 10 ) : 1ull;
	config.print_failures = argc > 3 ? atoi( argv[3] ) : 3;
	config.only_world = argc > 4 ? atoll( argv[4] ) : -1;
	config.frames_per_world = 400;
	config.world.features = 30;
	config.world.platforms = 4;
	config.world.characters = 3;
	config.world.half_size = 10.0;
	config.world.crates = argc > 5 ? atoi( argv[5] ) : 12;
	config.log = stdout;
	config.shrink = true;
	static soak_stats stats;
	double start = now_seconds();
	soak_run( &config, &stats );
	double seconds = now_seconds() - start;
	printf( "soak: seed %llu, %.1f s, %.0f moves/s (the oracle and the world included)\n",
			(unsigned long long)config.seed, seconds, (double)stats.moves / seconds );
	soak_stats_print( stdout, &stats );
	if ( stats.have_worst_case )
	{
		printf( "soak: the worst case (%.4g heights), shrunk:\n{\n", stats.worst_case.expected_heights );
		soak_case_shrink( &stats.worst_case );
		soak_case_print( stdout, &stats.worst_case );
		printf( "}\n" );
	}
	return 0;
}
