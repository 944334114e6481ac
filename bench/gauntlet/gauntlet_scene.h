// SPDX-License-Identifier: MIT
// The gauntlet's scene (SCENE.md) on kcc2d: its level (gauntlet_level.h) as a world on a cpSpace, and the motion
// rule, shared by the benchmark (gauntlet.c) and the batch's determinism test. Every helper is static inline so that
// each executable takes only what it uses.
//
// One step of the motion: v = gauntlet_motion_input( m, i, step ) for every character, the moves (one
// kcc_controller_move_and_slide each or one batch), then gauntlet_motion_result( m, i, out_velocity, flags ).
#pragma once

#include "gauntlet_level.h"
#include "gauntlet_walker.h"

#include "kcc/controller.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Filter bits: characters are not in their own mask, so they never block each other.
#define GAUNTLET_CATEGORY_TILE ( (cpBitmask)1 << 0 )
#define GAUNTLET_CATEGORY_CHARACTER ( (cpBitmask)1 << 1 )

typedef struct gauntlet_world
{
	cpSpace* space;
	cpShape** tile_shapes;
	kcc_controller** characters;
	int tile_count, character_count;
} gauntlet_world;

static inline void gauntlet_world_destroy( gauntlet_world* w )
{
	for ( int i = 0; i < w->character_count; ++i )
	{
		kcc_controller_destroy( w->characters[i] );
	}
	for ( int i = 0; i < w->tile_count; ++i )
	{
		cpSpaceRemoveShape( w->space, w->tile_shapes[i] );
		cpShapeFree( w->tile_shapes[i] );
	}
	cpSpaceFree( w->space );
	free( w->tile_shapes );
	free( w->characters );
	memset( w, 0, sizeof( *w ) );
}

// The level's tiles and the first `characters` spawns as capsules. cell <= 0: Chipmunk's default bounding box tree,
// otherwise a spatial hash of that cell. False with a message on standard error when a controller cannot be made.
static inline bool gauntlet_world_create( gauntlet_world* w, const gauntlet_level* lv, int characters, double cell,
										  bool scrambled )
{
	memset( w, 0, sizeof( *w ) );
	w->space = cpSpaceNew();
	if ( cell > 0.0 )
	{
		cpSpaceUseSpatialHash( w->space, cell, 4 * lv->tile_count + 4 * characters );
	}
	w->tile_shapes = (cpShape**)malloc( sizeof( cpShape* ) * (size_t)lv->tile_count );
	w->characters = (kcc_controller**)calloc( (size_t)characters, sizeof( kcc_controller* ) );
	if ( w->tile_shapes == NULL || w->characters == NULL )
	{
		gauntlet_world_destroy( w );
		return false;
	}
	cpBody* ground = cpSpaceGetStaticBody( w->space );
	cpShapeFilter tile_filter = cpShapeFilterNew( CP_NO_GROUP, GAUNTLET_CATEGORY_TILE, CP_ALL_CATEGORIES );
	for ( int i = 0; i < lv->tile_count; ++i )
	{
		gauntlet_dvec corners[4];
		int n = gauntlet_tile_vertices( &lv->tiles[i], corners );
		cpVect v[4];
		for ( int k = 0; k < n; ++k )
		{
			v[k] = cpv( corners[k].x, corners[k].y );
		}
		cpShape* shape = cpPolyShapeNewRaw( ground, n, v, 0.0 ); // counter-clockwise already
		cpShapeSetFilter( shape, tile_filter );
		if ( scrambled == false )
		{
			cpSpaceAddShape( w->space, shape ); // in rows, as a game reading a map does
		}
		w->tile_shapes[w->tile_count++] = shape;
	}
	if ( scrambled && kcc_space_add_static_shapes( w->space, w->tile_shapes, w->tile_count ) != KCC_OK )
	{
		gauntlet_world_destroy( w );
		return false;
	}
	kcc_controller_def def = kcc_default_controller_def();
	float half = (float)GAUNTLET_CAPSULE_HALF;
	def.shape = kcc_make_capsule( kcc_v2( 0.0f, -half ), kcc_v2( 0.0f, half ), (float)GAUNTLET_CAPSULE_RADIUS );
	def.filter = cpShapeFilterNew( CP_NO_GROUP, GAUNTLET_CATEGORY_CHARACTER,
								   CP_ALL_CATEGORIES & ~GAUNTLET_CATEGORY_CHARACTER );
	for ( int i = 0; i < characters && i < lv->spawn_count; ++i )
	{
		def.position = kcc_v2( lv->spawns[i].x, lv->spawns[i].y );
		w->characters[i] = kcc_controller_create( w->space, &def );
		if ( w->characters[i] == NULL )
		{
			fprintf( stderr, "gauntlet: create failed: %s\n", kcc_controller_def_problem( &def ) );
			gauntlet_world_destroy( w );
			return false;
		}
		w->character_count = i + 1;
	}
	return true;
}

// The motion's state for kcc2d's moves: the velocities they return, whether they left each character on the ground,
// and each character's walker (gauntlet_walker.h, SCENE.md's motion rule).
typedef struct gauntlet_motion
{
	vec2s* velocity; // returned by the last move (the blocked components removed)
	gauntlet_walker* walkers;
	bool* on_ground;
	int count;
} gauntlet_motion;

static inline void gauntlet_motion_destroy( gauntlet_motion* m )
{
	free( m->velocity );
	free( m->walkers );
	free( m->on_ground );
	memset( m, 0, sizeof( *m ) );
}

static inline bool gauntlet_motion_create( gauntlet_motion* m, int count )
{
	m->count = count;
	m->velocity = (vec2s*)calloc( (size_t)count, sizeof( vec2s ) );
	m->walkers = (gauntlet_walker*)calloc( (size_t)count, sizeof( gauntlet_walker ) );
	m->on_ground = (bool*)calloc( (size_t)count, sizeof( bool ) );
	if ( m->velocity == NULL || m->walkers == NULL || m->on_ground == NULL )
	{
		gauntlet_motion_destroy( m );
		return false;
	}
	return true;
}

// The velocity character i asks for in this step (gauntlet_walker.h).
static inline vec2s gauntlet_motion_input( gauntlet_motion* m, int i, int step )
{
	gauntlet_vec2 last = { m->velocity[i].x, m->velocity[i].y };
	gauntlet_vec2 v = gauntlet_walker_velocity( &m->walkers[i], i, step, last, m->on_ground[i] );
	return kcc_v2( v.x, v.y );
}

// What the move returned for character i: the clipped velocity and the flags.
static inline void gauntlet_motion_result( gauntlet_motion* m, int i, vec2s out_velocity, uint32_t flags )
{
	m->velocity[i] = out_velocity;
	m->on_ground[i] = ( flags & KCC_ON_FLOOR ) != 0;
}
