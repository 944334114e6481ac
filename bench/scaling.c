// SPDX-License-Identifier: MIT
// The scaling scene: the same crowd (1,000 capsules walking and jumping with the gauntlet's motion, spread over the
// whole level) on levels of 1,000 to 1,000,000 static box tiles (rows of platforms with gaps, about square). Prints,
// for each level: the static index's build time and memory per tile, moves per second, and with --breaks N what a
// game breaking one tile a frame pays (cpSpaceRemoveShape, then kcc_space_static_shape_removed) beside the whole
// index rebuilt (kcc_space_static_changed), and the removal of a static shape the index does not hold.
//
//   scaling [--tiles N]... [--characters N] [--steps N] [--tree] [--cell SIZE] [--breaks N] [--workers N]
//           [--deferred] [--scrambled] [--runs N] [--alternate]
//   scaling --circles N [--tree] [--workers N] [--deferred]   (moves inside N overlapping static circles, timed:
//                                                              10 to and fro, then 10 walking on; a batch of one
//                                                              with --workers 1)
//
// Without --tiles: 1,000, 10,000, 100,000 and 1,000,000. --tree keeps Chipmunk's default bounding box tree instead
// of the spatial hash (cell SIZE, default 1). --workers 0 (the default): one kcc_controller_move_and_slide per
// character; N >= 1: one kcc_move_and_slide_batch per step (tasks NULL for 1, a pool of N workers otherwise).
// --deferred: the batches leave Chipmunk's index to kcc_space_sync (kcc_space_set_deferred_sync), never called here.
// --scrambled adds the tiles with kcc_space_add_static_shapes instead of one by one in rows (the tree needs it).
// --runs N: N - 1 more timed runs on new scenes, and each step's fastest time over the N runs (the batch alone, or the
// step's single calls), the figure to compare between levels on a busy machine.
// --alternate (two --tiles, batches, --runs 2 or more): both levels' scenes live at once in each run, their batches
// alternating every BENCH_BLOCK steps in one process; prints each level's speed (each step's fastest of the runs,
// the first BENCH_SETTLE steps after a switch left out) and the time of the second over the first. A busy machine
// then slows both alike.
// Instructions per move: run under valgrind --tool=callgrind with two step counts and divide the difference by the
// difference in moves (the set-up cancels out).
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11

#include "bench_common.h"
#include "bench_tasks.h"
#include "gauntlet/prng.h"

#include "kcc/controller.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEED 2024u
#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define MAX_SPEED 6.0f
#define JUMP_SPEED 10.0f
#define ROW_SPACING 4
#define MAX_LEVELS 16

#define CATEGORY_TILE ( (cpBitmask)1 << 0 )
#define CATEGORY_CHARACTER ( (cpBitmask)1 << 1 )

// Live bytes allocated through kcc_set_allocator's hooks (each block carries its size in front).
static size_t s_live_bytes;

// --workers: 0, single calls; otherwise one batch per step on s_tasks (NULL for one worker).
static int s_workers;
static bool s_deferred;  // --deferred
static bool s_scrambled; // --scrambled
static const kcc_task_system* s_tasks;

static void* counting_alloc( size_t size, void* user )
{
	(void)user;
	size_t* block = malloc( size + 16 );
	if ( block == NULL )
	{
		return NULL;
	}
	block[0] = size;
	s_live_bytes += size;
	return (char*)block + 16;
}

static void counting_free( void* memory, void* user )
{
	(void)user;
	size_t* block = (size_t*)( (char*)memory - 16 );
	s_live_bytes -= block[0];
	free( block );
}

typedef struct scene
{
	cpSpace* space;
	cpShape** tiles;
	int tile_count;
	int width, rows;
	kcc_controller** characters;
	int character_count;
	vec2s* velocity;
	vec2s* inputs; // the step's velocities, for the batch
	float* vx_desired;
	bool* want_jump;
	bool* on_ground;
} scene;

// Rows of box tiles every ROW_SPACING units, a gap every 8 tiles, about as wide as high, until there are tiles.
static void scene_create( scene* s, int tiles, int characters, bool tree, double cell )
{
	memset( s, 0, sizeof( *s ) );
	s->space = cpSpaceNew();
	if ( tree == false )
	{
		cpSpaceUseSpatialHash( s->space, cell, 4 * tiles + 4 * characters );
	}
	int width = 16;
	while ( (double)width * width * 7.0 / 8.0 < (double)tiles * ROW_SPACING )
	{
		width += 16;
	}
	s->width = width;
	s->tiles = malloc( sizeof( cpShape* ) * (size_t)tiles );
	cpBody* ground = cpSpaceGetStaticBody( s->space );
	cpShapeFilter filter = cpShapeFilterNew( CP_NO_GROUP, CATEGORY_TILE, CP_ALL_CATEGORIES );
	for ( int row = 0; s->tile_count < tiles; ++row )
	{
		for ( int x = 0; x < width && s->tile_count < tiles; ++x )
		{
			if ( x % 8 == 7 )
			{
				continue;
			}
			double y = (double)row * ROW_SPACING;
			cpShape* shape = cpBoxShapeNew2( ground, cpBBNew( x, y, x + 1.0, y + 1.0 ), 0.0 );
			cpShapeSetFilter( shape, filter );
			if ( s_scrambled == false )
			{
				cpSpaceAddShape( s->space, shape ); // in rows, as a game reading a map does
			}
			s->tiles[s->tile_count++] = shape;
		}
		s->rows = row + 1;
	}
	if ( s_scrambled && kcc_space_add_static_shapes( s->space, s->tiles, s->tile_count ) != KCC_OK )
	{
		fprintf( stderr, "scaling: kcc_space_add_static_shapes failed\n" );
		exit( 1 );
	}
	s->character_count = characters;
	s->characters = malloc( sizeof( kcc_controller* ) * (size_t)characters );
	s->velocity = calloc( (size_t)characters, sizeof( vec2s ) );
	s->inputs = calloc( (size_t)characters, sizeof( vec2s ) );
	s->vx_desired = calloc( (size_t)characters, sizeof( float ) );
	s->want_jump = calloc( (size_t)characters, sizeof( bool ) );
	s->on_ground = calloc( (size_t)characters, sizeof( bool ) );
}

static void scene_add_characters( scene* s, int first, int count )
{
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
	def.filter = cpShapeFilterNew( CP_NO_GROUP, CATEGORY_CHARACTER, CP_ALL_CATEGORIES & ~CATEGORY_CHARACTER );
	for ( int i = first; i < first + count; ++i )
	{
		// On a full row (the last may be partial), above a tile.
		uint32_t h = hash3( SEED, (uint32_t)i, 7u );
		int full_rows = s->rows > 1 ? s->rows - 1 : 1;
		int row = (int)( h % (uint32_t)full_rows );
		int x = (int)( ( h >> 8 ) % (uint32_t)s->width );
		x -= x % 8 == 7 ? 1 : 0;
		def.position = kcc_v2( (float)x + 0.5f, (float)( row * ROW_SPACING ) + 1.0f + 0.6f + 0.02f );
		s->characters[i] = kcc_controller_create( s->space, &def );
		if ( s->characters[i] == NULL )
		{
			fprintf( stderr, "scaling: create failed\n" );
			exit( 1 );
		}
	}
	if ( s_deferred && kcc_space_set_deferred_sync( s->space, true ) != KCC_OK )
	{
		fprintf( stderr, "scaling: kcc_space_set_deferred_sync failed\n" );
		exit( 1 );
	}
}

static void scene_destroy( scene* s )
{
	for ( int i = 0; i < s->character_count; ++i )
	{
		kcc_controller_destroy( s->characters[i] );
	}
	for ( int i = 0; i < s->tile_count; ++i )
	{
		if ( s->tiles[i] != NULL )
		{
			cpSpaceRemoveShape( s->space, s->tiles[i] );
			cpShapeFree( s->tiles[i] );
		}
	}
	cpSpaceFree( s->space );
	free( s->tiles );
	free( s->characters );
	free( s->velocity );
	free( s->inputs );
	free( s->vx_desired );
	free( s->want_jump );
	free( s->on_ground );
}

// The gauntlet's motion (SCENE.md): a new run speed every 30 steps, a jump now and then, gravity. With step_seconds,
// each step's time: its batch alone, or its single calls with the inputs worked out between them.
static uint64_t run_steps( scene* s, int first_step, int steps, double* step_seconds )
{
	uint64_t truncated = 0;
	for ( int step = first_step; step < first_step + steps; ++step )
	{
		double step_start = now_seconds();
		for ( int i = 0; i < s->character_count; ++i )
		{
			if ( ( step + i ) % 30 == 0 || step == 0 )
			{
				uint32_t h = hash3( SEED, (uint32_t)i, (uint32_t)( ( step + i ) / 30 ) );
				s->vx_desired[i] = ( (float)( h & 0xFFFFu ) / 65535.0f * 2.0f - 1.0f ) * MAX_SPEED;
				s->want_jump[i] = ( ( h >> 16 ) & 3u ) == 0;
			}
			vec2s v = s->velocity[i];
			v.x = s->vx_desired[i];
			if ( s->on_ground[i] && s->want_jump[i] )
			{
				v.y = JUMP_SPEED;
				s->want_jump[i] = false;
			}
			v.y -= GRAVITY * DT;
			if ( s_workers > 0 )
			{
				s->inputs[i] = v; // moved by the batch below
				continue;
			}
			kcc_move_result result;
			if ( kcc_controller_move_and_slide( s->characters[i], v, DT, &s->velocity[i], &result ) != KCC_OK )
			{
				result.flags = 0;
			}
			s->on_ground[i] = ( result.flags & KCC_ON_FLOOR ) != 0;
			truncated += ( result.flags & KCC_CANDIDATES_TRUNCATED ) ? 1 : 0;
		}
		if ( s_workers > 0 )
		{
			step_start = now_seconds();
			kcc_status status = kcc_move_and_slide_batch( s->characters, s->character_count, s->inputs, DT, s->velocity,
														  NULL, s_tasks );
			if ( step_seconds != NULL )
			{
				step_seconds[step - first_step] = now_seconds() - step_start;
			}
			for ( int i = 0; i < s->character_count; ++i )
			{
				uint32_t flags = status == KCC_OK ? kcc_controller_get_flags( s->characters[i] ) : 0;
				s->on_ground[i] = ( flags & KCC_ON_FLOOR ) != 0;
				truncated += ( flags & KCC_CANDIDATES_TRUNCATED ) ? 1 : 0;
			}
		}
		else if ( step_seconds != NULL )
		{
			step_seconds[step - first_step] = now_seconds() - step_start;
		}
	}
	return truncated;
}

// A timed run on a new scene: each step's time into step_seconds, keeping the least of each step over the runs.
static void run_again( int tiles, int characters, int steps, bool tree, double cell, double* step_best )
{
	scene s;
	scene_create( &s, tiles, characters, tree, cell );
	scene_add_characters( &s, 0, characters );
	run_steps( &s, 0, 10, NULL );
	double* step_seconds = malloc( sizeof( double ) * (size_t)steps );
	run_steps( &s, 10, steps, step_seconds );
	for ( int step = 0; step < steps; ++step )
	{
		step_best[step] = step_seconds[step] < step_best[step] ? step_seconds[step] : step_best[step];
	}
	free( step_seconds );
	scene_destroy( &s );
}

static void run_level( int tiles, int characters, int steps, bool tree, double cell, int breaks, int runs )
{
	scene s;
	scene_create( &s, tiles, characters, tree, cell );
	// The index is built by the first controller on the space: its memory is what that create keeps beyond what the
	// second one keeps.
	size_t live = s_live_bytes;
	double build_start = now_seconds();
	scene_add_characters( &s, 0, 1 );
	double build = now_seconds() - build_start;
	size_t with_first = s_live_bytes;
	scene_add_characters( &s, 1, 1 );
	size_t controller = s_live_bytes - with_first;
	size_t index_bytes = with_first - live - controller;
	scene_add_characters( &s, 2, characters - 2 );
	// Rebuilt once more, timed alone (the first build above includes a controller's creation).
	double rebuild_start = now_seconds();
	double rebuild_cpu_start = cpu_seconds();
	kcc_space_static_changed( s.space );
	double rebuild = now_seconds() - rebuild_start;
	double rebuild_cpu = cpu_seconds() - rebuild_cpu_start;

	run_steps( &s, 0, 10, NULL ); // settle: the first steps fall onto the rows
	double* step_best = malloc( sizeof( double ) * (size_t)steps );
	double start = now_seconds();
	double cpu_start = cpu_seconds();
	uint64_t truncated = run_steps( &s, 10, steps, step_best );
	double seconds = now_seconds() - start;
	double cpu = cpu_seconds() - cpu_start;
	double moves = (double)characters * steps;

	// A game breaking one tile a frame: remove it from the space, tell the controllers, free it. Each call timed.
	double removes[64], tells[64];
	int n_breaks = breaks < 64 ? breaks : 64;
	for ( int b = 0; b < n_breaks; ++b )
	{
		int k = (int)( hash3( SEED, 99u, (uint32_t)b ) % (uint32_t)s.tile_count );
		removes[b] = tells[b] = 0.0;
		if ( s.tiles[k] != NULL )
		{
			double t0 = now_seconds();
			cpSpaceRemoveShape( s.space, s.tiles[k] );
			double t1 = now_seconds();
			kcc_space_static_shape_removed( s.space, s.tiles[k] );
			tells[b] = now_seconds() - t1;
			removes[b] = t1 - t0;
			cpShapeFree( s.tiles[k] );
			s.tiles[k] = NULL;
		}
		run_steps( &s, 10 + steps + b, 1, NULL );
	}
	// A static shape added since the index was built (the game did not tell), then removed: the index looks for it.
	double stray = 0.0;
	if ( n_breaks > 0 )
	{
		cpShape* shape = cpBoxShapeNew2( cpSpaceGetStaticBody( s.space ), cpBBNew( -3.0, -3.0, -2.0, -2.0 ), 0.0 );
		cpSpaceAddShape( s.space, shape );
		cpSpaceRemoveShape( s.space, shape );
		double t0 = now_seconds();
		kcc_space_static_shape_removed( s.space, shape );
		stray = now_seconds() - t0;
		cpShapeFree( shape );
	}
	qsort( removes, (size_t)n_breaks, sizeof( double ), compare_doubles );
	qsort( tells, (size_t)n_breaks, sizeof( double ), compare_doubles );
	printf( "%9d tiles (%5d x %5d): index built in %.1f ms (rebuilt in %.1f ms, CPU %.1f ms), %.1f bytes per tile; "
			"%.3f M moves/s (by CPU time %.3f M, %llu truncated)",
			tiles, s.width, s.rows * ROW_SPACING, build * 1e3, rebuild * 1e3, rebuild_cpu * 1e3,
			(double)index_bytes / tiles, moves / seconds * 1e-6, moves / cpu * 1e-6, (unsigned long long)truncated );
	if ( n_breaks > 0 )
	{
		printf( "; one tile broken (median of %d): cpSpaceRemoveShape %.2f us, kcc_space_static_shape_removed %.2f us "
				"(max %.2f us), a shape not in the index %.2f us",
				n_breaks, removes[n_breaks / 2] * 1e6, tells[n_breaks / 2] * 1e6, tells[n_breaks - 1] * 1e6, stray * 1e6 );
	}
	printf( "\n" );
	scene_destroy( &s );
	// Every run makes the same moves at each step, and a busy machine only adds time: each step's fastest over the
	// runs is the figure least disturbed by other processes (compare it between levels).
	for ( int r = 1; r < runs; ++r )
	{
		run_again( tiles, characters, steps, tree, cell, step_best );
	}
	if ( runs > 1 )
	{
		double best = 0.0;
		for ( int step = 0; step < steps; ++step )
		{
			best += step_best[step];
		}
		printf( "%9d tiles: each step's fastest of %d runs (%s): %.3f M moves/s\n", tiles, runs,
				s_workers > 0 ? "the batch alone" : "its calls", (double)characters * steps / best * 1e-6 );
	}
	free( step_best );
}

// --alternate: each run makes both scenes, settles them, then runs their steps in blocks, level r % 2's block then
// the other's; each settled step's time lowers that level's best.
static void run_alternate( const int tiles[2], int characters, int steps, bool tree, double cell, int runs )
{
	double* best = malloc( sizeof( double ) * 3 * (size_t)steps ); // best[0], best[1], then one run's times
	for ( int i = 0; i < 2 * steps; ++i )
	{
		best[i] = INFINITY;
	}
	double* times = best + 2 * steps;
	for ( int r = 0; r < runs; ++r )
	{
		scene s[2];
		for ( int k = 0; k < 2; ++k )
		{
			scene_create( s + k, tiles[k], characters, tree, cell );
			scene_add_characters( s + k, 0, characters );
			run_steps( s + k, 0, 10, NULL ); // settle: the first steps fall onto the rows
		}
		for ( int first = 0; first < steps; first += BENCH_BLOCK )
		{
			int count = steps - first < BENCH_BLOCK ? steps - first : BENCH_BLOCK;
			for ( int j = 0; j < 2; ++j )
			{
				int k = ( r + j ) % 2;
				run_steps( s + k, 10 + first, count, times + first );
				for ( int step = first; step < first + count; ++step )
				{
					double* b = best + (size_t)k * (size_t)steps + step;
					*b = bench_block_settled( step ) && times[step] < *b ? times[step] : *b;
				}
			}
		}
		scene_destroy( s );
		scene_destroy( s + 1 );
	}
	double total[2] = { 0.0, 0.0 };
	int kept = 0;
	for ( int step = 0; step < steps; ++step )
	{
		if ( bench_block_settled( step ) )
		{
			total[0] += best[step];
			total[1] += best[steps + step];
			kept += 1;
		}
	}
	printf( "alternating every %d steps in one process, each step's fastest of %d runs (the first %d after a switch "
			"left out): %d tiles %.3f M moves/s, %d tiles %.3f M moves/s; time %d / %d tiles: %.3f\n",
			BENCH_BLOCK, runs, BENCH_SETTLE, tiles[0], (double)characters * kept / total[0] * 1e-6, tiles[1],
			(double)characters * kept / total[1] * 1e-6, tiles[1], tiles[0], total[1] / total[0] );
	free( best );
}

// A character inside count overlapping static circles (radius 3, centres within 0.5 of it): the time of its moves.
static void run_circles( int count, bool tree, double cell )
{
	cpSpace* space = cpSpaceNew();
	if ( tree == false )
	{
		cpSpaceUseSpatialHash( space, cell, 1000 ); // every circle in the same few cells: a small table does
	}
	cpShape** circles = malloc( sizeof( cpShape* ) * (size_t)count );
	for ( int i = 0; i < count; ++i )
	{
		uint32_t h = hash3( SEED, (uint32_t)i, 5u );
		double r = 0.5 * sqrt( (double)( h & 0xFFFFu ) / 65535.0 ), a = (double)( h >> 16 ) / 65536.0 * 2.0 * CP_PI;
		circles[i] = cpSpaceAddShape( space, cpCircleShapeNew( cpSpaceGetStaticBody( space ), 3.0, cpv( r * cos( a ), r * sin( a ) ) ) );
	}
	kcc_controller_def def = kcc_default_controller_def();
	double t0 = now_seconds();
	kcc_controller* c = kcc_controller_create( space, &def );
	double create = now_seconds() - t0;
	if ( c == NULL || ( s_deferred && kcc_space_set_deferred_sync( space, true ) != KCC_OK ) )
	{
		fprintf( stderr, "scaling: create failed\n" );
		exit( 1 );
	}
	// To and fro, then a steady walk: the moves that must reinsert the character in Chipmunk's index differ.
	enum { MOVES = 10 };
	double times[2][MOVES];
	uint32_t flags = 0;
	for ( int i = 0; i < 2 * MOVES; ++i )
	{
		kcc_move_result result;
		vec2s v = kcc_v2( i < MOVES && i % 2 == 1 ? -6.0f : 6.0f, 0.0f );
		t0 = now_seconds();
		if ( s_workers > 0 )
		{
			kcc_move_and_slide_batch( &c, 1, &v, DT, NULL, &result, NULL );
		}
		else
		{
			kcc_controller_move_and_slide( c, v, DT, NULL, &result );
		}
		times[i / MOVES][i % MOVES] = now_seconds() - t0;
		flags |= result.flags;
	}
	qsort( times[0], MOVES, sizeof( double ), compare_doubles );
	qsort( times[1], MOVES, sizeof( double ), compare_doubles );
	printf( "%d overlapping circles: create (index built) %.1f ms; a move to and fro %.2f ms (median of %d, slowest "
			"%.2f), then walking on %.2f ms (slowest %.2f); flags 0x%x\n",
			count, create * 1e3, 0.5 * ( times[0][MOVES / 2 - 1] + times[0][MOVES / 2] ) * 1e3, MOVES,
			times[0][MOVES - 1] * 1e3, 0.5 * ( times[1][MOVES / 2 - 1] + times[1][MOVES / 2] ) * 1e3,
			times[1][MOVES - 1] * 1e3, (unsigned)flags );
	kcc_controller_destroy( c );
	for ( int i = 0; i < count; ++i )
	{
		cpSpaceRemoveShape( space, circles[i] );
		cpShapeFree( circles[i] );
	}
	free( circles );
	cpSpaceFree( space );
}

int main( int argc, char** argv )
{
	int levels[MAX_LEVELS];
	int level_count = 0;
	int characters = 1000, steps = 120, breaks = 0, circles = 0, runs = 1;
	bool tree = false, alternate = false;
	double cell = 1.0;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--tiles" ) == 0 && i + 1 < argc && level_count < MAX_LEVELS )
		{
			levels[level_count++] = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--characters" ) == 0 && i + 1 < argc )
		{
			characters = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--steps" ) == 0 && i + 1 < argc )
		{
			steps = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--runs" ) == 0 && i + 1 < argc )
		{
			runs = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--breaks" ) == 0 && i + 1 < argc )
		{
			breaks = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--circles" ) == 0 && i + 1 < argc )
		{
			circles = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--cell" ) == 0 && i + 1 < argc )
		{
			cell = atof( argv[++i] );
		}
		else if ( strcmp( argv[i], "--tree" ) == 0 )
		{
			tree = true;
		}
		else if ( strcmp( argv[i], "--workers" ) == 0 && i + 1 < argc )
		{
			s_workers = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--deferred" ) == 0 )
		{
			s_deferred = true;
		}
		else if ( strcmp( argv[i], "--scrambled" ) == 0 )
		{
			s_scrambled = true;
		}
		else if ( strcmp( argv[i], "--alternate" ) == 0 )
		{
			alternate = true;
		}
		else
		{
			fprintf( stderr,
					 "usage: %s [--tiles N]... [--characters N] [--steps N] [--tree] [--cell SIZE] [--breaks N] "
					 "[--workers N] [--deferred] [--scrambled] [--runs N] [--alternate] [--circles N]\n",
					 argv[0] );
			return 2;
		}
	}
	if ( alternate && ( level_count != 2 || s_workers < 1 || runs < 2 || breaks > 0 || steps <= BENCH_SETTLE ) )
	{
		fprintf( stderr, "scaling: --alternate compares two levels' batches: two --tiles, --workers 1 or more, "
						 "--runs 2 or more, more than %d steps, no --breaks\n",
				 BENCH_SETTLE );
		return 2;
	}
	if ( level_count == 0 )
	{
		int defaults[4] = { 1000, 10000, 100000, 1000000 };
		memcpy( levels, defaults, sizeof( defaults ) );
		level_count = 4;
	}
	if ( s_deferred && s_workers == 0 )
	{
		fprintf( stderr, "scaling: --deferred is for batches (--workers 1 or more)\n" );
		return 2;
	}
	if ( characters < 2 || steps < 1 || breaks < 0 || runs < 1 || !( cell > 0.0 ) || s_workers < 0 ||
		 s_workers > BENCH_POOL_MAX_WORKERS )
	{
		fprintf( stderr, "scaling: characters >= 2, steps >= 1, breaks >= 0, runs >= 1, cell > 0, workers 0..%d\n",
				 BENCH_POOL_MAX_WORKERS );
		return 2;
	}
	for ( int i = 0; i < level_count; ++i )
	{
		if ( levels[i] < 16 )
		{
			fprintf( stderr, "scaling: at least 16 tiles\n" );
			return 2;
		}
	}
	if ( circles > 0 )
	{
		run_circles( circles, tree, cell );
		return 0;
	}
	kcc_set_allocator( counting_alloc, counting_free, NULL );
	// After the hooks: a kcc_thread_pool allocates through them, and frees through them too.
	bench_tasks tasks = { 0 };
	if ( s_workers > 1 && bench_tasks_create( &tasks, s_workers, BENCH_TASKS_LIBRARY ) == false )
	{
		fprintf( stderr, "scaling: cannot start %d workers\n", s_workers );
		return 1;
	}
	s_tasks = s_workers > 1 ? &tasks.system : NULL;
	printf( "scaling: %d characters, %d steps, %s%s, %s%s\n", characters, steps,
			tree ? "Chipmunk's bounding box tree" : "spatial hash", s_scrambled ? " (tiles scrambled)" : "",
			s_workers == 0 ? "one kcc_controller_move_and_slide per character"
						   : ( s_workers == 1 ? "one kcc_move_and_slide_batch per step, tasks NULL"
											  : "one kcc_move_and_slide_batch per step on a pool" ),
			s_deferred ? ", Chipmunk's index deferred" : "" );
	for ( int i = 0; i < level_count && alternate == false; ++i )
	{
		run_level( levels[i], characters, steps, tree, cell, breaks, runs );
	}
	if ( alternate )
	{
		run_alternate( levels, characters, steps, tree, cell, runs );
	}
	bench_tasks_destroy( &tasks );
	kcc_set_allocator( NULL, NULL, NULL );
	return 0;
}
