// SPDX-License-Identifier: MIT
// kcc_space_add_static_shapes: a level's static shapes added to Chipmunk in an order its bounding box tree likes.
// Chipmunk's tree inserts each shape into the tree built so far and never rebalances: shapes added in rows (tiles,
// read from a map) make it deep, and every query and reindex on the space walks much of it. Added in a scrambled
// order, the tree stays shallow.
#include "internal.h"

// Why a shape can not be added, or NULL.
static const char* kcc_static_shape_problem( const cpSpace* space, cpShape* shape )
{
	if ( shape == NULL )
	{
		return "kcc_space_add_static_shapes: a shape is NULL";
	}
	if ( cpShapeGetSpace( shape ) != NULL )
	{
		return "kcc_space_add_static_shapes: a shape is in a space already";
	}
	cpBody* body = cpShapeGetBody( shape );
	if ( body == NULL || cpBodyGetType( body ) != CP_BODY_TYPE_STATIC )
	{
		return "kcc_space_add_static_shapes: a shape is not on a static body";
	}
	if ( body != cpSpaceGetStaticBody( (cpSpace*)space ) && cpBodyGetSpace( body ) != space )
	{
		return "kcc_space_add_static_shapes: a shape's body is not in the space (add it first)";
	}
	return NULL;
}

static inline uint32_t kcc_scramble_next( uint32_t x, uint32_t range )
{
	return ( x * 2891336453u + 12345u ) & ( range - 1u );
}

kcc_status kcc_space_add_static_shapes( cpSpace* space, cpShape* const* shapes, int count )
{
	KCC_ASSERT( space != NULL && ( shapes != NULL || count == 0 ), "kcc_space_add_static_shapes: space or shapes is NULL" );
	if ( space == NULL || ( shapes == NULL && count != 0 ) )
	{
		return KCC_ERROR_NULL_ARGUMENT;
	}
	KCC_ASSERT( count >= 0, "kcc_space_add_static_shapes: count is negative" );
	if ( count < 0 )
	{
		return KCC_ERROR_INVALID_ARGUMENT;
	}
	if ( cpSpaceIsLocked( space ) )
	{
		KCC_ASSERT( false, "kcc_space_add_static_shapes: the space is locked (called from a Chipmunk callback?)" );
		return KCC_ERROR_SPACE_LOCKED;
	}
	for ( int i = 0; i < count; ++i )
	{
		const char* problem = kcc_static_shape_problem( space, shapes[i] );
		KCC_ASSERT( problem == NULL, problem );
		if ( problem != NULL )
		{
			return KCC_ERROR_INVALID_ARGUMENT;
		}
	}
	// Every index once, in a scrambled order: a full-period linear congruential sequence over the next power of two
	// (multiplier 1 mod 4, odd increment), skipping the values past count. No allocation, and the same order each time.
	uint32_t range = 1u;
	while ( range < (uint32_t)count )
	{
		range <<= 1;
	}
	uint32_t x = 0u;
	for ( uint32_t k = 0; k < range; ++k )
	{
		x = kcc_scramble_next( x, range );
		if ( x >= (uint32_t)count )
		{
			continue;
		}
		if ( cpShapeGetSpace( shapes[x] ) == space )
		{
			// Given twice: the shapes this call added go again (no step has seen them), and nothing is changed.
			KCC_ASSERT( false, "kcc_space_add_static_shapes: a shape is given twice" );
			uint32_t y = 0u;
			for ( uint32_t j = 0; j < k; ++j )
			{
				y = kcc_scramble_next( y, range );
				if ( y < (uint32_t)count )
				{
					cpSpaceRemoveShape( space, shapes[y] );
				}
			}
			return KCC_ERROR_INVALID_ARGUMENT;
		}
		cpSpaceAddShape( space, shapes[x] );
	}
	kcc_space_static_changed( space );
	return KCC_OK;
}
