// SPDX-License-Identifier: MIT
// The static index's layout (static_index.c builds and shares it) and its query, inline for the move's gather.
#pragma once

#include "internal.h"

#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
#include <emmintrin.h>
#endif

// An entry of a cell: the shape's index, and whether the cell is past the first column (row) of the shape's box. The
// query reports a shape from the first cell of the query box that holds it: with these bits it tells the cells where
// it met the shape already without reading the shape.
#define KCC_ENTRY_LATER_COLUMN 0x80000000u
#define KCC_ENTRY_LATER_ROW 0x40000000u
#define KCC_ENTRY_SHAPE 0x3fffffffu

struct kcc_static_index
{
	const cpSpace* space;     ///< identity: the space read
	kcc_static_index* next;   ///< the next index in the list of all indices
	int users;                ///< controllers sharing the index
	bool ready;               ///< false when the last rebuild ran out of memory (moves then read Chipmunk)
	int shape_count;
	kcc_static_shape* shapes; ///< in the order of their first grid cell (row by row), 64-byte aligned in shape_block
	void* shape_block;        ///< owned, the block holding shapes
	cpVect* points;           ///< owned, the shapes' points in the same order
	int point_count;
	cpBB bounds;              ///< of every shape in the grid
	double cell;              ///< cell side
	double inverse_cell;
	int columns, rows;
	uint32_t* cell_start;     ///< owned, columns * rows + 1: cell k holds entries cell_start[k] .. cell_start[k + 1]
	uint32_t* entries;        ///< owned, indices into shapes, each with the KCC_ENTRY_LATER_* bits of its cell
	kcc_snapshot* snapshot;   ///< owned, the batches' snapshot of the space (NULL until the first batch)
	bool deferred_sync;       ///< batches leave Chipmunk's index to kcc_space_sync
	kcc_move_context context; ///< the single calls' scratch
};

/// The move context of the space's single calls (one thread uses a space at a time), grown by each new controller
/// to its max_candidates; freed with the index. Its address never changes.
static inline kcc_move_context* kcc_static_index_context( kcc_static_index* index )
{
	return &index->context;
}

// Grid column (or row) of coordinate x for a grid starting at origin: monotonic in x, clamped to 0 .. last. The
// build and the query call it with the same numbers, so a shape is always found in the cells it was put in.
static inline int kcc_grid_cell( double x, double origin, double inverse_cell, int last )
{
	double v = ( x - origin ) * inverse_cell;
	if ( !( v > 0.0 ) )
	{
		return 0; // NaN too
	}
	return v >= (double)last ? last : (int)v;
}

static inline int kcc_column( const kcc_static_index* index, double x )
{
	return kcc_grid_cell( x, index->bounds.l, index->inverse_cell, index->columns - 1 );
}

static inline int kcc_row( const kcc_static_index* index, double y )
{
	return kcc_grid_cell( y, index->bounds.b, index->inverse_cell, index->rows - 1 );
}

// A query's box as the walk reads it. With SSE2 its corners in two registers, (l, b) and (r, t): the same comparisons
// and arithmetic as cpBBIntersects and kcc_grid_cell, lane by lane (maxpd and minpd clamp as kcc_grid_cell does), for
// a fraction of the scalar forms' instructions. The build places shapes with the scalar form: the two must agree.
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
typedef struct kcc_grid_box
{
	__m128d low, high;
} kcc_grid_box;

static inline kcc_grid_box kcc_grid_box_of( cpBB box )
{
	kcc_grid_box g = { _mm_setr_pd( box.l, box.b ), _mm_setr_pd( box.r, box.t ) };
	return g;
}

// cpBBIntersects( box, *bb ).
static inline bool kcc_grid_box_meets( kcc_grid_box box, const cpBB* bb )
{
	return ( _mm_movemask_pd( _mm_cmpnle_pd( box.low, _mm_loadu_pd( &bb->r ) ) ) |
			 _mm_movemask_pd( _mm_cmpnle_pd( _mm_loadu_pd( &bb->l ), box.high ) ) ) == 0;
}

// Whether the box meets the index's bounds, and then kcc_column and kcc_row of its corners.
static inline bool kcc_grid_box_cells( const kcc_static_index* index, kcc_grid_box box, int* i0, int* j0, int* i1,
									   int* j1 )
{
	__m128d origin = _mm_loadu_pd( &index->bounds.l );
	if ( ( _mm_movemask_pd( _mm_cmpnle_pd( box.low, _mm_loadu_pd( &index->bounds.r ) ) ) |
		   _mm_movemask_pd( _mm_cmpnle_pd( origin, box.high ) ) ) != 0 )
	{
		return false;
	}
	__m128d inverse = _mm_set1_pd( index->inverse_cell ), zero = _mm_setzero_pd();
	__m128d last = _mm_setr_pd( (double)( index->columns - 1 ), (double)( index->rows - 1 ) );
	__m128d low = _mm_min_pd( _mm_max_pd( _mm_mul_pd( _mm_sub_pd( box.low, origin ), inverse ), zero ), last );
	__m128d high = _mm_min_pd( _mm_max_pd( _mm_mul_pd( _mm_sub_pd( box.high, origin ), inverse ), zero ), last );
	__m128i first = _mm_cvttpd_epi32( low ), final = _mm_cvttpd_epi32( high );
	*i0 = _mm_cvtsi128_si32( first );
	*j0 = _mm_cvtsi128_si32( _mm_shuffle_epi32( first, 1 ) );
	*i1 = _mm_cvtsi128_si32( final );
	*j1 = _mm_cvtsi128_si32( _mm_shuffle_epi32( final, 1 ) );
	return true;
}
#else
typedef cpBB kcc_grid_box;

static inline kcc_grid_box kcc_grid_box_of( cpBB box )
{
	return box;
}

static inline bool kcc_grid_box_meets( kcc_grid_box box, const cpBB* bb )
{
	return cpBBIntersects( box, *bb );
}

static inline bool kcc_grid_box_cells( const kcc_static_index* index, kcc_grid_box box, int* i0, int* j0, int* i1,
									   int* j1 )
{
	if ( cpBBIntersects( box, index->bounds ) == false )
	{
		return false;
	}
	*i0 = kcc_column( index, box.l );
	*j0 = kcc_row( index, box.b );
	*i1 = kcc_column( index, box.r );
	*j1 = kcc_row( index, box.t );
	return true;
}
#endif

/// Whether the index answers the static query (it may not when a rebuild ran out of memory).
static inline bool kcc_static_index_ready( const kcc_static_index* index )
{
	return index != NULL && index->ready;
}

// Chipmunk's filter rule: a shared non-zero group never collides; each side's categories must be in the other's mask.
static inline bool kcc_filter_rejects( cpShapeFilter a, cpShapeFilter b )
{
	return ( a.group != 0 && a.group == b.group ) || ( a.categories & b.mask ) == 0 || ( b.categories & a.mask ) == 0;
}

// kcc_static_index_query, inline: the move's gather (world.c) has its visit inlined into the walk.
KCC_ALWAYS_INLINE void kcc_static_index_walk( const kcc_static_index* index, cpBB box, cpShapeFilter filter,
											  kcc_static_visit* visit, void* data )
{
	kcc_grid_box query = kcc_grid_box_of( box );
	int i0, j0, i1, j1;
	if ( index->shape_count == 0 || kcc_grid_box_cells( index, query, &i0, &j0, &i1, &j1 ) == false )
	{
		return;
	}
	const uint32_t* start = index->cell_start;
	const uint32_t* entries = index->entries;
	const kcc_static_shape* shapes = index->shapes;
	for ( int j = j0; j <= j1; ++j )
	{
		// Reported from the first cell of the query that holds it: a shape met in a later column (row) of the query
		// was reported already unless it starts in that column (row). A row's cells are one run of entries: the first
		// column's, then the later columns'.
		size_t row = (size_t)j * (size_t)index->columns;
		uint32_t later = start[row + (size_t)i0 + 1];
		uint32_t seen = j > j0 ? KCC_ENTRY_LATER_ROW : 0u;
		for ( uint32_t e = start[row + (size_t)i0], end = start[row + (size_t)i1 + 1]; e < end; ++e )
		{
			if ( e == later )
			{
				seen |= KCC_ENTRY_LATER_COLUMN;
			}
			uint32_t entry = entries[e];
			if ( ( entry & seen ) != 0 )
			{
				continue;
			}
			const kcc_static_shape* s = shapes + ( entry & KCC_ENTRY_SHAPE );
			if ( kcc_grid_box_meets( query, &s->bb ) == false ||
				 kcc_filter_rejects( kcc_static_shape_filter( s ), filter ) )
			{
				continue;
			}
			if ( visit( s, data ) == false )
			{
				return;
			}
		}
	}
}
