// SPDX-License-Identifier: MIT
// The gauntlet's level (SCENE.md): the level.txt parser, the tiles' geometry and the characters' capsule, in plain C
// (no kcc2d, Chipmunk or Box2D types) so that every driver of the gauntlet reads the same level the same way.
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The parser's messages start with the program's name; a driver other than gauntlet defines it before the include.
#ifndef GAUNTLET_PROGRAM
#define GAUNTLET_PROGRAM "gauntlet"
#endif

// SCENE.md's capsule around a character's position: core from (x, y - HALF) to (x, y + HALF), this radius.
#define GAUNTLET_CAPSULE_HALF 0.3
#define GAUNTLET_CAPSULE_RADIUS 0.3

typedef struct gauntlet_vec2
{
	float x, y;
} gauntlet_vec2;

typedef struct gauntlet_dvec
{
	double x, y;
} gauntlet_dvec;

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
	gauntlet_vec2* spawns;
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

// Room for one more item after count: items itself, or grown to twice *capacity; NULL (items freed) without memory.
static inline void* gauntlet_level_room( void* items, int count, int* capacity, size_t item_size )
{
	if ( count < *capacity )
	{
		return items;
	}
	*capacity *= 2;
	void* grown = realloc( items, item_size * (size_t)*capacity );
	if ( grown == NULL )
	{
		free( items );
	}
	return grown;
}

// Reads level.txt: "W H", then "B|R|L x y" tiles and "C x y" spawns. False with a message on standard error when
// the file is missing or bad.
static inline bool gauntlet_level_load( const char* path, gauntlet_level* out )
{
	memset( out, 0, sizeof( *out ) );
	FILE* file = fopen( path, "r" );
	if ( file == NULL )
	{
		fprintf( stderr, GAUNTLET_PROGRAM ": cannot open %s\n", path );
		return false;
	}
	if ( fscanf( file, "%d %d", &out->width, &out->height ) != 2 || out->width <= 0 || out->height <= 0 )
	{
		fprintf( stderr, GAUNTLET_PROGRAM ": bad header in %s\n", path );
		fclose( file );
		return false;
	}
	int tile_capacity = 16384, spawn_capacity = 2048;
	out->tiles = (gauntlet_tile*)malloc( sizeof( gauntlet_tile ) * (size_t)tile_capacity );
	out->spawns = (gauntlet_vec2*)malloc( sizeof( gauntlet_vec2 ) * (size_t)spawn_capacity );
	out->grid = (int*)malloc( sizeof( int ) * (size_t)out->width * (size_t)out->height );
	bool ok = out->tiles != NULL && out->spawns != NULL && out->grid != NULL;
	for ( int i = 0; ok && i < out->width * out->height; ++i )
	{
		out->grid[i] = -1;
	}
	char kind;
	float a, b;
	while ( ok && fscanf( file, " %c %f %f", &kind, &a, &b ) == 3 )
	{
		if ( kind == 'C' )
		{
			size_t size = sizeof( gauntlet_vec2 );
			out->spawns = gauntlet_level_room( out->spawns, out->spawn_count, &spawn_capacity, size );
			ok = out->spawns != NULL;
			if ( ok )
			{
				out->spawns[out->spawn_count++] = (gauntlet_vec2){ a, b };
			}
			continue;
		}
		int x = (int)a, y = (int)b;
		if ( ( kind != 'B' && kind != 'R' && kind != 'L' ) || x < 0 || y < 0 || x >= out->width || y >= out->height )
		{
			fprintf( stderr, GAUNTLET_PROGRAM ": bad item '%c %g %g' in %s\n", kind, (double)a, (double)b, path );
			ok = false;
			break;
		}
		out->tiles = gauntlet_level_room( out->tiles, out->tile_count, &tile_capacity, sizeof( gauntlet_tile ) );
		ok = out->tiles != NULL;
		if ( ok )
		{
			gauntlet_tile_kind tk =
				kind == 'B' ? GAUNTLET_TILE_BOX : ( kind == 'R' ? GAUNTLET_TILE_RAMP_RIGHT : GAUNTLET_TILE_RAMP_LEFT );
			out->grid[y * out->width + x] = out->tile_count;
			out->tiles[out->tile_count++] = (gauntlet_tile){ x, y, tk };
		}
	}
	fclose( file );
	if ( ok == false )
	{
		gauntlet_level_free( out );
	}
	return ok;
}

// The tile's polygon, counter-clockwise, in double precision; returns its vertex count (3 or 4).
static inline int gauntlet_tile_vertices( const gauntlet_tile* t, gauntlet_dvec v[4] )
{
	double x = t->x, y = t->y;
	v[0] = (gauntlet_dvec){ x, y };
	v[1] = (gauntlet_dvec){ x + 1.0, y };
	switch ( t->kind )
	{
		case GAUNTLET_TILE_BOX:
			v[2] = (gauntlet_dvec){ x + 1.0, y + 1.0 };
			v[3] = (gauntlet_dvec){ x, y + 1.0 };
			return 4;
		case GAUNTLET_TILE_RAMP_RIGHT:
			v[2] = (gauntlet_dvec){ x + 1.0, y + 1.0 };
			return 3;
		default:
			v[2] = (gauntlet_dvec){ x, y + 1.0 };
			return 3;
	}
}
