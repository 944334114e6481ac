// SPDX-License-Identifier: MIT
// The static index's layout (static_index.c builds and shares it) and its query, inline for the move's gather.
#pragma once

#include "internal.h"

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
	kcc_static_shape* shapes; ///< owned, in the order of their first grid cell (row by row)
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
	if ( index->shape_count == 0 || cpBBIntersects( box, index->bounds ) == false )
	{
		return;
	}
	int i0 = kcc_column( index, box.l ), i1 = kcc_column( index, box.r );
	int j0 = kcc_row( index, box.b ), j1 = kcc_row( index, box.t );
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
			if ( cpBBIntersects( box, s->bb ) == false || kcc_filter_rejects( s->filter, filter ) )
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
