// SPDX-License-Identifier: MIT
// The gauntlet's scene (SCENE.md): its level file, the world on a cpSpace and the motion rule, shared by the
// benchmark (gauntlet.c) and the batch's determinism test. Every helper is static inline so that each executable
// takes only what it uses.
//
// One step of the motion: v = gauntlet_motion_input( m, i, step ) for every character, the moves (one
// kcc_controller_move_and_slide each or one batch), then gauntlet_motion_result( m, i, out_velocity, flags ).
#pragma once

#include "prng.h"

#include "kcc/controller.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAUNTLET_SEED 2024u
#define GAUNTLET_DT ( 1.0f / 60.0f )
#define GAUNTLET_GRAVITY 30.0f
#define GAUNTLET_MAX_SPEED 6.0f
#define GAUNTLET_JUMP_SPEED 10.0f

// Filter bits: characters are not in their own mask, so they never block each other.
#define GAUNTLET_CATEGORY_TILE ( (cpBitmask)1 << 0 )
#define GAUNTLET_CATEGORY_CHARACTER ( (cpBitmask)1 << 1 )

typedef enum gauntlet_tile_kind
{
	GAUNTLET_TILE_BOX,
	GAUNTLET_TILE_RAMP_RIGHT, // (x,y), (x+1,y), (x+1,y+1)
	GAUNTLET_TILE_RAMP_LEFT,  // (x,y), (x+1,y), (x,y+1)
} gauntlet_tile_kind;

typedef struct gauntlet_tile
{
	int x, y;
	gauntlet_tile_kind kind;
} gauntlet_tile;

typedef struct gauntlet_level
{
	int width, height;
	gauntlet_tile* tiles;
	int tile_count;
	vec2s* spawns;
	int spawn_count;
	int* grid; // width * height cells: index of the tile in that cell, -1 when empty
} gauntlet_level;

static inline void gauntlet_level_free( gauntlet_level* lv )
{
	free( lv->tiles );
	free( lv->spawns );
	free( lv->grid );
	memset( lv, 0, sizeof( *lv ) );
}

// Reads level.txt (SCENE.md's format); false with a message on standard error when the file is missing or bad.
static inline bool gauntlet_level_load( const char* path, gauntlet_level* out )
{
	memset( out, 0, sizeof( *out ) );
	FILE* file = fopen( path, "r" );
	if ( file == NULL )
	{
		fprintf( stderr, "gauntlet: cannot open %s\n", path );
		return false;
	}
	if ( fscanf( file, "%d %d", &out->width, &out->height ) != 2 || out->width <= 0 || out->height <= 0 )
	{
		fprintf( stderr, "gauntlet: bad header in %s\n", path );
		fclose( file );
		return false;
	}
	int tile_capacity = 16384, spawn_capacity = 2048;
	out->tiles = (gauntlet_tile*)malloc( sizeof( gauntlet_tile ) * (size_t)tile_capacity );
	out->spawns = (vec2s*)malloc( sizeof( vec2s ) * (size_t)spawn_capacity );
	out->grid = (int*)malloc( sizeof( int ) * (size_t)out->width * (size_t)out->height );
	if ( out->tiles == NULL || out->spawns == NULL || out->grid == NULL )
	{
		fclose( file );
		gauntlet_level_free( out );
		return false;
	}
	for ( int i = 0; i < out->width * out->height; ++i )
	{
		out->grid[i] = -1;
	}
	char kind;
	float a, b;
	while ( fscanf( file, " %c %f %f", &kind, &a, &b ) == 3 )
	{
		if ( kind == 'C' )
		{
			if ( out->spawn_count == spawn_capacity )
			{
				spawn_capacity *= 2;
				vec2s* grown = (vec2s*)realloc( out->spawns, sizeof( vec2s ) * (size_t)spawn_capacity );
				if ( grown == NULL )
				{
					fclose( file );
					gauntlet_level_free( out );
					return false;
				}
				out->spawns = grown;
			}
			out->spawns[out->spawn_count++] = kcc_v2( a, b );
			continue;
		}
		int x = (int)a, y = (int)b;
		if ( ( kind != 'B' && kind != 'R' && kind != 'L' ) || x < 0 || y < 0 || x >= out->width || y >= out->height )
		{
			fprintf( stderr, "gauntlet: bad item '%c %g %g' in %s\n", kind, (double)a, (double)b, path );
			fclose( file );
			gauntlet_level_free( out );
			return false;
		}
		if ( out->tile_count == tile_capacity )
		{
			tile_capacity *= 2;
			size_t bytes = sizeof( gauntlet_tile ) * (size_t)tile_capacity;
			gauntlet_tile* grown = (gauntlet_tile*)realloc( out->tiles, bytes );
			if ( grown == NULL )
			{
				fclose( file );
				gauntlet_level_free( out );
				return false;
			}
			out->tiles = grown;
		}
		gauntlet_tile_kind tk =
			kind == 'B' ? GAUNTLET_TILE_BOX : ( kind == 'R' ? GAUNTLET_TILE_RAMP_RIGHT : GAUNTLET_TILE_RAMP_LEFT );
		out->grid[y * out->width + x] = out->tile_count;
		out->tiles[out->tile_count++] = (gauntlet_tile){ x, y, tk };
	}
	fclose( file );
	return true;
}

// The tile's polygon, counter-clockwise; returns its vertex count.
static inline int gauntlet_tile_vertices( const gauntlet_tile* t, cpVect* v )
{
	double x = t->x, y = t->y;
	switch ( t->kind )
	{
		case GAUNTLET_TILE_BOX:
			v[0] = cpv( x, y );
			v[1] = cpv( x + 1.0, y );
			v[2] = cpv( x + 1.0, y + 1.0 );
			v[3] = cpv( x, y + 1.0 );
			return 4;
		case GAUNTLET_TILE_RAMP_RIGHT:
			v[0] = cpv( x, y );
			v[1] = cpv( x + 1.0, y );
			v[2] = cpv( x + 1.0, y + 1.0 );
			return 3;
		default:
			v[0] = cpv( x, y );
			v[1] = cpv( x + 1.0, y );
			v[2] = cpv( x, y + 1.0 );
			return 3;
	}
}

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
		cpVect v[4];
		int n = gauntlet_tile_vertices( &lv->tiles[i], v );
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
	def.shape = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
	def.filter = cpShapeFilterNew( CP_NO_GROUP, GAUNTLET_CATEGORY_CHARACTER,
								   CP_ALL_CATEGORIES & ~GAUNTLET_CATEGORY_CHARACTER );
	for ( int i = 0; i < characters && i < lv->spawn_count; ++i )
	{
		def.position = lv->spawns[i];
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

// SCENE.md's motion rule: each character's own state, nothing shared, so the order of the moves does not change it.
typedef struct gauntlet_motion
{
	vec2s* velocity; // returned by the last move (the blocked components removed)
	float* vx_desired;
	bool* want_jump;
	bool* on_ground;
	int count;
} gauntlet_motion;

static inline void gauntlet_motion_destroy( gauntlet_motion* m )
{
	free( m->velocity );
	free( m->vx_desired );
	free( m->want_jump );
	free( m->on_ground );
	memset( m, 0, sizeof( *m ) );
}

static inline bool gauntlet_motion_create( gauntlet_motion* m, int count )
{
	m->count = count;
	m->velocity = (vec2s*)calloc( (size_t)count, sizeof( vec2s ) );
	m->vx_desired = (float*)calloc( (size_t)count, sizeof( float ) );
	m->want_jump = (bool*)calloc( (size_t)count, sizeof( bool ) );
	m->on_ground = (bool*)calloc( (size_t)count, sizeof( bool ) );
	if ( m->velocity == NULL || m->vx_desired == NULL || m->want_jump == NULL || m->on_ground == NULL )
	{
		gauntlet_motion_destroy( m );
		return false;
	}
	return true;
}

// The velocity character i asks for in this step (walk, jump when on the ground, gravity).
static inline vec2s gauntlet_motion_input( gauntlet_motion* m, int i, int step )
{
	if ( ( step + i ) % 30 == 0 || step == 0 )
	{
		uint32_t h = hash3( GAUNTLET_SEED, (uint32_t)i, (uint32_t)( ( step + i ) / 30 ) );
		m->vx_desired[i] = ( (float)( h & 0xFFFFu ) / 65535.0f * 2.0f - 1.0f ) * GAUNTLET_MAX_SPEED;
		m->want_jump[i] = ( ( h >> 16 ) & 3u ) == 0;
	}
	vec2s v = m->velocity[i];
	v.x = m->vx_desired[i];
	if ( m->on_ground[i] && m->want_jump[i] )
	{
		v.y = GAUNTLET_JUMP_SPEED;
		m->want_jump[i] = false;
	}
	v.y -= GAUNTLET_GRAVITY * GAUNTLET_DT;
	return v;
}

// What the move returned for character i: the clipped velocity and the flags.
static inline void gauntlet_motion_result( gauntlet_motion* m, int i, vec2s out_velocity, uint32_t flags )
{
	m->velocity[i] = out_velocity;
	m->on_ground[i] = ( flags & KCC_ON_FLOOR ) != 0;
}
