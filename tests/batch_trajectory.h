// SPDX-License-Identifier: MIT
// Trajectories for the batch's determinism tests: every frame, each character's position, returned velocity, flags,
// floor normal, displacement and collision count (from the move's result, or from the controller's getters), then the
// crates' positions, packed into one byte buffer so that two
// runs compare with memcmp. And the task systems the batch is run on: tasks NULL, then 1, 2, 3 and 8 workers with real
// threads (kcc_thread_pool when the library has it, bench_tasks.h's pthread pool otherwise, and that pool too as a
// second scheduler when both exist).
#pragma once

#include "bench_tasks.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Floats only, no padding: records compare byte for byte.
typedef struct batch_character_record
{
	float x, y;        // position after the move
	float vx, vy;      // the velocity the move returned
	float dx, dy;      // displacement of the move
	float fnx, fny;    // floor normal
	uint32_t flags;    // the move's flags
	int32_t collisions; // collisions reported
} batch_character_record;

typedef struct batch_trajectory
{
	unsigned char* bytes;
	size_t size, capacity;
	size_t frame_size; // bytes per frame
} batch_trajectory;

static inline void batch_trajectory_init( batch_trajectory* t, size_t frame_size, int frames )
{
	t->frame_size = frame_size;
	t->capacity = frame_size * (size_t)frames;
	t->bytes = (unsigned char*)calloc( t->capacity, 1 );
	t->size = 0;
}

static inline void batch_trajectory_free( batch_trajectory* t )
{
	free( t->bytes );
	memset( t, 0, sizeof( *t ) );
}

static inline void batch_trajectory_append( batch_trajectory* t, const void* data, size_t size )
{
	if ( t->bytes != NULL && t->size + size <= t->capacity )
	{
		memcpy( t->bytes + t->size, data, size );
	}
	t->size += size;
}

// One character's record from its move (the result, or the controller's getters when there is no result).
static inline void batch_record_character( batch_trajectory* t, vec2s velocity, const kcc_move_result* result )
{
	batch_character_record r;
	memset( &r, 0, sizeof( r ) );
	r.x = result->position.x;
	r.y = result->position.y;
	r.vx = velocity.x;
	r.vy = velocity.y;
	r.dx = result->displacement.x;
	r.dy = result->displacement.y;
	r.fnx = result->floor_normal.x;
	r.fny = result->floor_normal.y;
	r.flags = result->flags;
	r.collisions = result->collision_count;
	batch_trajectory_append( t, &r, sizeof( r ) );
}

// One character's record from the controller's getters after its move (for a batch given no results).
static inline void batch_record_getters( batch_trajectory* t, const kcc_controller* c, vec2s velocity )
{
	batch_character_record r;
	memset( &r, 0, sizeof( r ) );
	vec2s p = kcc_controller_get_position( c ), real = kcc_controller_get_real_velocity( c );
	vec2s floor_normal = kcc_controller_get_floor_normal( c );
	r.x = p.x;
	r.y = p.y;
	r.vx = velocity.x;
	r.vy = velocity.y;
	r.dx = real.x;
	r.dy = real.y;
	r.fnx = floor_normal.x;
	r.fny = floor_normal.y;
	r.flags = kcc_controller_get_flags( c );
	batch_trajectory_append( t, &r, sizeof( r ) );
}

// True when both are complete and equal byte for byte; otherwise prints where they first differ.
static inline bool batch_trajectories_equal( const batch_trajectory* a, const batch_trajectory* b, const char* what )
{
	if ( a->bytes == NULL || b->bytes == NULL || a->size != a->capacity || b->size != b->capacity )
	{
		printf( "%s: a trajectory is incomplete (%zu and %zu of %zu bytes)\n", what, a->size, b->size, a->capacity );
		return false;
	}
	if ( a->size == b->size && memcmp( a->bytes, b->bytes, a->size ) == 0 )
	{
		return true;
	}
	size_t at = 0;
	while ( at < a->size && at < b->size && a->bytes[at] == b->bytes[at] )
	{
		at += 1;
	}
	size_t frame = at / a->frame_size, offset = at % a->frame_size;
	size_t record = offset / sizeof( batch_character_record );
	printf( "%s: differs from the sequential moves at frame %zu, byte %zu of the frame (character %zu's record if it "
			"is one)\n",
			what, frame, offset, record );
	return false;
}

typedef struct batch_config
{
	const char* name;
	int workers; // 0: tasks NULL
	bench_tasks_kind kind;
} batch_config;

static const batch_config batch_configs[] = {
	{ "tasks NULL", 0, BENCH_TASKS_LIBRARY },
	{ "1 worker", 1, BENCH_TASKS_LIBRARY },
	{ "2 workers", 2, BENCH_TASKS_LIBRARY },
	{ "3 workers", 3, BENCH_TASKS_LIBRARY },
	{ "8 workers", 8, BENCH_TASKS_LIBRARY },
#if KCC_HAVE_THREAD_POOL
	{ "2 workers of the bench's pool", 2, BENCH_TASKS_OWN },
	{ "8 workers of the bench's pool", 8, BENCH_TASKS_OWN },
#endif
};
#define BATCH_CONFIG_COUNT ( (int)( sizeof( batch_configs ) / sizeof( batch_configs[0] ) ) )
