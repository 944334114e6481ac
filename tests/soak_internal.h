// SPDX-License-Identifier: MIT
// What the soak's files share beyond soak_world.h (not for the tests that use the soak).
#pragma once

#include "soak_world.h"

#define SOAK_PI 3.14159265358979323846

// Cached cores of the world's shapes (static ones never move; platforms are refreshed after they move, characters
// are read at each check). Kept beside the world so the public struct stays plain.
typedef struct soak_cache
{
	soak_core core;
	double lo_x, lo_y, hi_x, hi_y;
	bool valid;
} soak_cache;

typedef struct soak_world_private
{
	soak_world world;
	soak_cache cache[SOAK_MAX_SHAPES];
} soak_world_private;

/// The cached core and bounds of the world's shape i.
soak_cache* soak_cache_of( const soak_world* w, int i );
/// Reads shape i's core again through Chipmunk's getters (after it moved).
void soak_cache_update( const soak_world* w, int i );

/// An empty world: a new cpSpace (default bounding box tree), no shapes.
soak_world* soak_world_new( double half_size );
/// Enters a shape already in the space in the world's table; its index, or -1 when the table is full.
int soak_register( soak_world* w, cpShape* s, soak_shape_kind kind, uint32_t roles, int owner );
cpBody* soak_static( soak_world* w );

/// Whether shape i blocks character ch (sensors never; the filter; its own shape self).
bool soak_blocks( const soak_world* w, const soak_character* ch, int self, int i );

/// The largest and (in *smallest) the smallest extent of a character shape along x and y.
double soak_shape_size( const kcc_shape* shape, double* smallest );
/// A random shape of the kind, about size tall (thin: one side 2% to 10% of the other).
void soak_random_spec( soak_source* src, int kind, double size, bool thin, bool offset, soak_shape_spec* s );
/// A random def into ch (def, spec, kind, options, height); false when the draw made an unusable shape.
bool soak_random_def( soak_source* src, soak_character* ch );
/// A spot where the character is clear of every solid by two skins (or above the level when none is found).
vec2s soak_find_clear_spot( const soak_world* w, soak_source* src, const soak_character* ch, int self );
/// A random character at index, created clear of solids and entered in the world's table.
bool soak_character_create( soak_world* w, soak_source* src, int index );
