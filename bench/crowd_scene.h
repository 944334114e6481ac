// SPDX-License-Identifier: MIT
// The crowd scene: characters that meet. A walled room with pillars, pushable crates (kinematic boxes in a pushable
// category) and a moving platform (a kinematic box), and a crowd of characters that block each other (their own
// category is in their mask), in two variants:
// - top-down: KCC_MODE_FLOATING circles, no gravity, each walking toward a target that changes every two seconds,
//   among box and round pillars and crates; the platform slides across the middle of the room;
// - platformer: KCC_MODE_GROUNDED capsules under gravity, walking and jumping with the gauntlet's motion rule, on a
//   tiled floor with hills, pillars, ledges and crates; the platform slides across the room above the floor.
// Shared by the benchmark (crowd.c) and the batch's determinism test. Inputs come from the gauntlet's prng.h hash and
// each character's own state, so that they do not depend on the order of the moves.
//
//   crowd w;
//   crowd_create( &w, CROWD_TOPDOWN, 400 );
//   for each frame: crowd_step( &w, batch, tasks, results );   // the platform, the inputs, the moves
//   crowd_overlaps( &w, &deepest ); crowd_crates_moved( &w ); crowd_destroy( &w );
//
// Every helper is static inline so that each executable takes only what it uses.
#pragma once

#include "gauntlet/prng.h"

#include "kcc/controller.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CROWD_SEED 2024u
#define CROWD_DT ( 1.0f / 60.0f )
#define CROWD_GRAVITY 30.0f
#define CROWD_RUN_SPEED 6.0f    // platformer
#define CROWD_JUMP_SPEED 10.0f  // platformer
#define CROWD_WALK_SPEED 4.0f   // top-down
#define CROWD_TARGET_FRAMES 120 // top-down: a new target every two seconds
#define CROWD_PLATFORM_STEP 0.05f // the platform's travel per frame (3 units per second)

#define CROWD_CATEGORY_LEVEL ( (cpBitmask)1 << 0 )
#define CROWD_CATEGORY_CRATE ( (cpBitmask)1 << 1 )
#define CROWD_CATEGORY_PLATFORM ( (cpBitmask)1 << 2 )
#define CROWD_CATEGORY_CHARACTER ( (cpBitmask)1 << 3 )

typedef enum crowd_mode
{
	CROWD_TOPDOWN = 0,
	CROWD_PLATFORMER = 1,
} crowd_mode;

// A static shape or a crate, with its kcc_shape (in world coordinates for a static, around the body for a crate).
typedef struct crowd_solid
{
	cpShape* shape;
	kcc_shape local;
	kcc_aabb bounds; // world bounds at creation
	cpVect start;    // a crate's body position at creation
} crowd_solid;

typedef struct crowd
{
	crowd_mode mode;
	cpSpace* space;
	float width, height; // the room's inside: [0, width] x [0, height]
	crowd_solid* statics;
	int static_count, static_capacity;
	crowd_solid* crates;
	int crate_count, crate_capacity;
	cpBody* platform;
	cpShape* platform_shape;
	cpVect platform_home;
	float platform_travel;
	int platform_period; // frames of a round trip
	kcc_controller** characters;
	int character_count;
	kcc_shape character_shape;
	float character_height;
	vec2s* input;    // this frame's velocities
	vec2s* velocity; // returned by the last move
	float* vx_desired;
	bool* want_jump;
	vec2s* target;
	int frame;
} crowd;

static inline const char* crowd_mode_name( crowd_mode mode )
{
	return mode == CROWD_TOPDOWN ? "topdown" : "platformer";
}

static inline bool crowd_grow( crowd_solid** array, int* capacity, int count )
{
	if ( count < *capacity )
	{
		return true;
	}
	int grown = *capacity < 64 ? 64 : 2 * *capacity;
	crowd_solid* bigger = (crowd_solid*)realloc( *array, sizeof( crowd_solid ) * (size_t)grown );
	if ( bigger == NULL )
	{
		return false;
	}
	*array = bigger;
	*capacity = grown;
	return true;
}

static inline bool crowd_add_static( crowd* w, cpShape* shape, kcc_shape local )
{
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, CROWD_CATEGORY_LEVEL, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( w->space, shape );
	if ( crowd_grow( &w->statics, &w->static_capacity, w->static_count ) == false )
	{
		cpSpaceRemoveShape( w->space, shape );
		cpShapeFree( shape );
		return false;
	}
	w->statics[w->static_count++] = (crowd_solid){ shape, local, kcc_shape_bounds( &local ), cpvzero };
	return true;
}

// A static box [x0, x1] x [y0, y1].
static inline bool crowd_add_box( crowd* w, double x0, double y0, double x1, double y1 )
{
	cpShape* shape = cpBoxShapeNew2( cpSpaceGetStaticBody( w->space ), cpBBNew( x0, y0, x1, y1 ), 0.0 );
	kcc_shape local = kcc_make_aabb( kcc_v2( (float)x0, (float)y0 ), kcc_v2( (float)x1, (float)y1 ) );
	return crowd_add_static( w, shape, local );
}

static inline bool crowd_add_circle( crowd* w, double x, double y, double radius )
{
	cpShape* shape = cpCircleShapeNew( cpSpaceGetStaticBody( w->space ), radius, cpv( x, y ) );
	return crowd_add_static( w, shape, kcc_make_circle( kcc_v2( (float)x, (float)y ), (float)radius ) );
}

// A 45 degree ramp in the unit cell at (x, y), rising to the right (or to the left).
static inline bool crowd_add_ramp( crowd* w, double x, double y, bool rising_right )
{
	cpVect v[3] = { cpv( x, y ), cpv( x + 1.0, y ), rising_right ? cpv( x + 1.0, y + 1.0 ) : cpv( x, y + 1.0 ) };
	vec2s p[3];
	for ( int i = 0; i < 3; ++i )
	{
		p[i] = kcc_v2( (float)v[i].x, (float)v[i].y );
	}
	cpShape* shape = cpPolyShapeNewRaw( cpSpaceGetStaticBody( w->space ), 3, v, 0.0 );
	return crowd_add_static( w, shape, kcc_make_polygon( p, 3, 0.0f ) );
}

// A pushable crate: a kinematic box of size 0.98 centred at (x, y).
static inline bool crowd_add_crate( crowd* w, double x, double y )
{
	if ( crowd_grow( &w->crates, &w->crate_capacity, w->crate_count ) == false )
	{
		return false;
	}
	cpBody* body = cpSpaceAddBody( w->space, cpBodyNewKinematic() );
	cpBodySetPosition( body, cpv( x, y ) );
	cpShape* shape = cpBoxShapeNew( body, 0.98, 0.98, 0.0 );
	cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, CROWD_CATEGORY_CRATE, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( w->space, shape );
	kcc_shape local = kcc_make_box( kcc_v2( 0.49f, 0.49f ), 0.0f );
	kcc_shape placed = kcc_shape_translate( &local, kcc_v2( (float)x, (float)y ) );
	w->crates[w->crate_count++] = (crowd_solid){ shape, local, kcc_shape_bounds( &placed ), cpv( x, y ) };
	return true;
}

// The platform: a kinematic box of half extents (hx, hy), from home to home + (travel, 0) and back.
static inline void crowd_add_platform( crowd* w, double x, double y, double hx, double hy, float travel )
{
	w->platform = cpSpaceAddBody( w->space, cpBodyNewKinematic() );
	cpBodySetPosition( w->platform, cpv( x, y ) );
	w->platform_shape = cpBoxShapeNew( w->platform, 2.0 * hx, 2.0 * hy, 0.0 );
	cpShapeSetFilter( w->platform_shape, cpShapeFilterNew( CP_NO_GROUP, CROWD_CATEGORY_PLATFORM, CP_ALL_CATEGORIES ) );
	cpSpaceAddShape( w->space, w->platform_shape );
	w->platform_home = cpv( x, y );
	w->platform_travel = travel;
	w->platform_period = 2 * (int)ceilf( travel / CROWD_PLATFORM_STEP );
}

static inline bool crowd_boxes_touch( kcc_aabb a, kcc_aabb b )
{
	return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

// Nothing of the level, no crate and nothing of the platform's whole path within the box.
static inline bool crowd_is_free( const crowd* w, kcc_aabb box )
{
	for ( int i = 0; i < w->static_count; ++i )
	{
		if ( crowd_boxes_touch( box, w->statics[i].bounds ) )
		{
			return false;
		}
	}
	for ( int i = 0; i < w->crate_count; ++i )
	{
		if ( crowd_boxes_touch( box, w->crates[i].bounds ) )
		{
			return false;
		}
	}
	if ( w->platform != NULL )
	{
		cpBB bb = cpShapeGetBB( w->platform_shape );
		kcc_aabb path = { kcc_v2( (float)bb.l, (float)bb.b ), kcc_v2( (float)bb.r + w->platform_travel, (float)bb.t ) };
		return crowd_boxes_touch( box, path ) == false;
	}
	return true;
}

static inline void crowd_destroy( crowd* w )
{
	for ( int i = 0; i < w->character_count; ++i )
	{
		kcc_controller_destroy( w->characters[i] );
	}
	for ( int i = 0; i < w->crate_count; ++i )
	{
		cpBody* body = cpShapeGetBody( w->crates[i].shape );
		cpSpaceRemoveShape( w->space, w->crates[i].shape );
		cpShapeFree( w->crates[i].shape );
		cpSpaceRemoveBody( w->space, body );
		cpBodyFree( body );
	}
	if ( w->platform != NULL )
	{
		cpSpaceRemoveShape( w->space, w->platform_shape );
		cpShapeFree( w->platform_shape );
		cpSpaceRemoveBody( w->space, w->platform );
		cpBodyFree( w->platform );
	}
	for ( int i = 0; i < w->static_count; ++i )
	{
		cpSpaceRemoveShape( w->space, w->statics[i].shape );
		cpShapeFree( w->statics[i].shape );
	}
	if ( w->space != NULL )
	{
		cpSpaceFree( w->space );
	}
	free( w->statics );
	free( w->crates );
	free( w->characters );
	free( w->input );
	free( w->velocity );
	free( w->vx_desired );
	free( w->want_jump );
	free( w->target );
	memset( w, 0, sizeof( *w ) );
}

// The space and the room's walls and ceiling; the bottom wall too top-down (the platformer's floor is of tiles).
static inline bool crowd_room( crowd* w, float width, float height )
{
	w->width = width;
	w->height = height;
	w->space = cpSpaceNew();
	cpSpaceUseSpatialHash( w->space, 2.0, 4096 );
	return crowd_add_box( w, -1.0, -1.0, 0.0, height + 1.0 ) &&
		   crowd_add_box( w, width, -1.0, width + 1.0, height + 1.0 ) &&
		   crowd_add_box( w, 0.0, height, width, height + 1.0 ) &&
		   ( w->mode == CROWD_PLATFORMER || crowd_add_box( w, 0.0, -1.0, width, 0.0 ) );
}

// Top-down: a square room of 2 x 2 cells; pillars (boxes and circles) and crates on a lattice of 4 cells, the
// platform's lane across the middle row. Returns the spawn points found (count of them), NULL on failure.
static inline vec2s* crowd_build_topdown( crowd* w, int cells, int* spawn_count )
{
	float size = 2.0f * (float)cells;
	if ( crowd_room( w, size, size ) == false )
	{
		return NULL;
	}
	int lane = cells / 2;
	for ( int cy = 0; cy < cells; ++cy )
	{
		for ( int cx = 0; cx < cells && cy != lane; ++cx )
		{
			double x = 2.0 * cx + 1.0, y = 2.0 * cy + 1.0;
			bool ok = true;
			if ( cx % 4 == 2 && cy % 4 == 2 )
			{
				ok = ( cx / 4 + cy / 4 ) % 2 == 0 ? crowd_add_box( w, x - 0.5, y - 0.5, x + 0.5, y + 0.5 )
												  : crowd_add_circle( w, x, y, 0.5 );
			}
			else if ( cx % 4 == 0 && cy % 4 == 0 )
			{
				ok = crowd_add_crate( w, x, y );
			}
			if ( ok == false )
			{
				return NULL;
			}
		}
	}
	crowd_add_platform( w, 2.5, 2.0 * lane + 1.0, 1.5, 0.4, size - 5.0f );
	vec2s* spawns = (vec2s*)malloc( sizeof( vec2s ) * (size_t)cells * (size_t)cells );
	*spawn_count = 0;
	for ( int cy = 0; cy < cells && spawns != NULL; ++cy )
	{
		for ( int cx = 0; cx < cells; ++cx )
		{
			vec2s p = kcc_v2( 2.0f * (float)cx + 1.0f, 2.0f * (float)cy + 1.0f );
			kcc_aabb box = { kcc_v2( p.x - 0.45f, p.y - 0.45f ), kcc_v2( p.x + 0.45f, p.y + 0.45f ) };
			if ( crowd_is_free( w, box ) )
			{
				spawns[( *spawn_count )++] = p;
			}
		}
	}
	return spawns;
}

// Platformer: sections of 16 x 24 units side by side, each with a tiled floor, a hill (ramp, box, ramp), a pillar
// three tiles high, ledges of five tiles at three heights and two crates; the platform slides above the floor, under
// the middle ledges. Spawn points on a lattice of 2 x 2 units where a capsule fits.
static inline vec2s* crowd_build_platformer( crowd* w, int sections, int* spawn_count )
{
	float width = 16.0f * (float)sections, height = 24.0f;
	if ( crowd_room( w, width, height ) == false )
	{
		return NULL;
	}
	bool ok = true;
	for ( int s = 0; s < sections && ok; ++s )
	{
		double base = 16.0 * s;
		for ( int x = 0; x < 16 && ok; ++x )
		{
			ok = crowd_add_box( w, base + x, -1.0, base + x + 1.0, 0.0 );
		}
		ok = ok && crowd_add_ramp( w, base + 7.0, 0.0, true ) && crowd_add_box( w, base + 8.0, 0.0, base + 9.0, 1.0 ) &&
			 crowd_add_ramp( w, base + 9.0, 0.0, false );
		for ( int y = 0; y < 3 && ok; ++y )
		{
			ok = crowd_add_box( w, base + 12.0, y, base + 13.0, y + 1.0 );
		}
		for ( int x = 0; x < 5 && ok; ++x )
		{
			ok = crowd_add_box( w, base + 2.0 + x, 5.0, base + 3.0 + x, 6.0 ) &&
				 crowd_add_box( w, base + 9.0 + x, 11.0, base + 10.0 + x, 12.0 ) &&
				 crowd_add_box( w, base + 2.0 + x, 17.0, base + 3.0 + x, 18.0 );
		}
		ok = ok && crowd_add_crate( w, base + 4.5, 0.5 ) && crowd_add_crate( w, base + 3.5, 6.5 );
	}
	if ( ok == false )
	{
		return NULL;
	}
	crowd_add_platform( w, 3.0, 9.0, 2.0, 0.25, width - 6.0f );
	int columns = (int)( width / 2.0f ), rows = 11;
	vec2s* spawns = (vec2s*)malloc( sizeof( vec2s ) * (size_t)columns * (size_t)rows );
	*spawn_count = 0;
	for ( int row = 0; row < rows && spawns != NULL; ++row )
	{
		for ( int column = 0; column < columns; ++column )
		{
			vec2s p = kcc_v2( 2.0f * (float)column + 1.0f, 0.62f + 2.0f * (float)row ); // 0.02 above the floor
			kcc_aabb box = { kcc_v2( p.x - 0.3f, p.y - 0.6f ), kcc_v2( p.x + 0.3f, p.y + 0.6f ) };
			if ( crowd_is_free( w, box ) )
			{
				spawns[( *spawn_count )++] = p;
			}
		}
	}
	return spawns;
}

// The scene with `characters` characters (the room grows until they fit). False on failure (w is then empty).
static inline bool crowd_create( crowd* w, crowd_mode mode, int characters )
{
	vec2s* spawns = NULL;
	int spawn_count = 0;
	// Top-down: size x size cells, from a square that could just hold them; platformer: size sections.
	int size = mode == CROWD_TOPDOWN ? (int)ceil( sqrt( (double)characters ) ) : 1;
	for ( ; characters > 0 && size < 4096; size += 1 )
	{
		memset( w, 0, sizeof( *w ) );
		w->mode = mode;
		spawns = mode == CROWD_TOPDOWN ? crowd_build_topdown( w, size, &spawn_count )
									   : crowd_build_platformer( w, size, &spawn_count );
		if ( spawns != NULL && spawn_count >= characters )
		{
			break;
		}
		free( spawns );
		spawns = NULL;
		crowd_destroy( w );
	}
	if ( spawns == NULL )
	{
		return false;
	}
	w->characters = (kcc_controller**)calloc( (size_t)characters, sizeof( kcc_controller* ) );
	w->input = (vec2s*)calloc( (size_t)characters, sizeof( vec2s ) );
	w->velocity = (vec2s*)calloc( (size_t)characters, sizeof( vec2s ) );
	w->vx_desired = (float*)calloc( (size_t)characters, sizeof( float ) );
	w->want_jump = (bool*)calloc( (size_t)characters, sizeof( bool ) );
	w->target = (vec2s*)calloc( (size_t)characters, sizeof( vec2s ) );
	bool ok = w->characters != NULL && w->input != NULL && w->velocity != NULL && w->vx_desired != NULL &&
			  w->want_jump != NULL && w->target != NULL;
	kcc_controller_def def = kcc_default_controller_def();
	if ( mode == CROWD_TOPDOWN )
	{
		def.shape = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.35f );
		def.mode = KCC_MODE_FLOATING;
		w->character_height = 0.7f;
	}
	else
	{
		def.shape = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
		w->character_height = 1.2f;
	}
	def.filter = cpShapeFilterNew( CP_NO_GROUP, CROWD_CATEGORY_CHARACTER, CP_ALL_CATEGORIES );
	def.pushable_categories = CROWD_CATEGORY_CRATE;
	w->character_shape = def.shape;
	for ( int i = 0; i < characters && ok; ++i )
	{
		def.position = spawns[i];
		w->characters[i] = kcc_controller_create( w->space, &def );
		ok = w->characters[i] != NULL;
		w->character_count = ok ? i + 1 : i;
	}
	free( spawns );
	if ( ok == false )
	{
		crowd_destroy( w );
	}
	return ok;
}

// The frame's first half: the platform moves (a triangle wave of integer frames, set directly: the contract's frame
// order, platforms before characters), then every character's velocity from its own state.
static inline void crowd_begin_frame( crowd* w )
{
	int half = w->platform_period / 2;
	int phase = w->frame % w->platform_period;
	float t = (float)( phase <= half ? phase : w->platform_period - phase ) / (float)half;
	double x = w->platform_home.x + (double)( w->platform_travel * t );
	cpBodySetPosition( w->platform, cpv( x, w->platform_home.y ) );
	cpSpaceReindexShapesForBody( w->space, w->platform );
	for ( int i = 0; i < w->character_count; ++i )
	{
		int key = w->frame + 7 * i; // characters change their minds at different frames
		if ( w->mode == CROWD_TOPDOWN )
		{
			if ( key % CROWD_TARGET_FRAMES == 0 || w->frame == 0 )
			{
				uint32_t h = hash3( CROWD_SEED, (uint32_t)i, (uint32_t)( key / CROWD_TARGET_FRAMES ) );
				w->target[i] = kcc_v2( 1.0f + (float)( h & 0xFFFFu ) / 65535.0f * ( w->width - 2.0f ),
									   1.0f + (float)( h >> 16 ) / 65535.0f * ( w->height - 2.0f ) );
			}
			vec2s to = glms_vec2_sub( w->target[i], kcc_controller_get_position( w->characters[i] ) );
			float distance = sqrtf( glms_vec2_dot( to, to ) );
			// Arrives exactly instead of overshooting; stands still on the target.
			w->input[i] = distance > CROWD_WALK_SPEED * CROWD_DT ? glms_vec2_scale( to, CROWD_WALK_SPEED / distance )
																 : glms_vec2_scale( to, 1.0f / CROWD_DT );
		}
		else
		{
			if ( key % 30 == 0 || w->frame == 0 )
			{
				uint32_t h = hash3( CROWD_SEED, (uint32_t)i, (uint32_t)( key / 30 ) );
				w->vx_desired[i] = ( (float)( h & 0xFFFFu ) / 65535.0f * 2.0f - 1.0f ) * CROWD_RUN_SPEED;
				w->want_jump[i] = ( ( h >> 16 ) & 3u ) == 0;
			}
			vec2s v = w->velocity[i];
			v.x = w->vx_desired[i];
			if ( kcc_controller_is_on_floor( w->characters[i] ) && w->want_jump[i] )
			{
				v.y = CROWD_JUMP_SPEED;
				w->want_jump[i] = false;
			}
			v.y -= CROWD_GRAVITY * CROWD_DT;
			w->input[i] = v;
		}
	}
}

// One frame: crowd_begin_frame, then the moves: one kcc_controller_move_and_slide per character in array order
// (batch false), or one kcc_move_and_slide_batch on tasks (NULL: the calling thread). results: NULL, or one per
// character. Returns the number of moves that failed (all of them when the batch failed).
static inline int crowd_step( crowd* w, bool batch, const kcc_task_system* tasks, kcc_move_result* results )
{
	crowd_begin_frame( w );
	int failed = 0;
	if ( batch )
	{
		kcc_status status = kcc_move_and_slide_batch( w->characters, w->character_count, w->input, CROWD_DT,
													  w->velocity, results, tasks );
		failed = status == KCC_OK ? 0 : w->character_count;
	}
	else
	{
		for ( int i = 0; i < w->character_count; ++i )
		{
			kcc_status status = kcc_controller_move_and_slide( w->characters[i], w->input[i], CROWD_DT, &w->velocity[i],
															   results != NULL ? &results[i] : NULL );
			failed += status == KCC_OK ? 0 : 1;
		}
	}
	w->frame += 1;
	return failed;
}

// Characters overlapping a static shape or a crate by more than 1e-3 of their height (the core's penetration query
// on the shapes where they are now); *deepest: the largest depth seen (0 when none overlaps).
static inline int crowd_overlaps( const crowd* w, float* deepest )
{
	int count = 0;
	*deepest = 0.0f;
	for ( int i = 0; i < w->character_count; ++i )
	{
		kcc_shape me = kcc_shape_translate( &w->character_shape, kcc_controller_get_position( w->characters[i] ) );
		kcc_aabb bounds = kcc_shape_bounds( &me );
		float depth = 0.0f;
		for ( int k = 0; k < w->static_count; ++k )
		{
			if ( crowd_boxes_touch( bounds, w->statics[k].bounds ) )
			{
				kcc_penetration_output p = kcc_penetration( &me, &w->statics[k].local );
				depth = p.overlapping && p.depth > depth ? p.depth : depth;
			}
		}
		for ( int k = 0; k < w->crate_count; ++k )
		{
			cpVect at = cpBodyGetPosition( cpShapeGetBody( w->crates[k].shape ) );
			kcc_shape crate = kcc_shape_translate( &w->crates[k].local, kcc_v2( (float)at.x, (float)at.y ) );
			if ( crowd_boxes_touch( bounds, kcc_shape_bounds( &crate ) ) )
			{
				kcc_penetration_output p = kcc_penetration( &me, &crate );
				depth = p.overlapping && p.depth > depth ? p.depth : depth;
			}
		}
		count += depth > 1e-3f * w->character_height ? 1 : 0;
		*deepest = depth > *deepest ? depth : *deepest;
	}
	return count;
}

// Crates away from where they were created.
static inline int crowd_crates_moved( const crowd* w )
{
	int moved = 0;
	for ( int i = 0; i < w->crate_count; ++i )
	{
		cpVect at = cpBodyGetPosition( cpShapeGetBody( w->crates[i].shape ) );
		moved += at.x != w->crates[i].start.x || at.y != w->crates[i].start.y ? 1 : 0;
	}
	return moved;
}
