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

// An entry also holds the shape's box within its cell in whole 64ths of the cell's side (kcc_grid_step: bytes left,
// bottom, right, top, clamped to the cell): the walk rejects most shapes the query misses without reading them.
#define KCC_GRID_STEPS 64

typedef struct kcc_static_entry
{
	uint32_t shape; ///< index into shapes, with the KCC_ENTRY_LATER_* bits of its cell
	uint32_t box;   ///< the bytes left | bottom << 8 | right << 16 | top << 24
} kcc_static_entry;

// A row of the grid: the span of columns that hold entries, small enough to stay cached, so that a query skips the
// empty rows and cells without reading cell_start, which lists only the span's cells (and one to end the last).
typedef struct kcc_grid_row
{
	int first, last; ///< first > last: an empty row
	uint32_t cells;  ///< where column first's start is in cell_start
} kcc_grid_row;

struct kcc_static_index
{
	const cpSpace* space;     ///< identity: the space read
	kcc_static_index* next;   ///< the next index in the list of all indices
	int users;                ///< controllers sharing the index
	bool ready;               ///< false when the last rebuild ran out of memory (moves then read Chipmunk)
	uint64_t build;           ///< bumped by each build (a character's cache of the shapes around it names the one read)
	int shape_count;
	kcc_static_shape* shapes; ///< owned, in the order of their first grid cell (row by row), one cache line each
	cpVect* points;           ///< owned, the shapes' points in the same order
	int point_count;
	cpBB bounds;              ///< of every shape in the grid
	double cell;              ///< cell side
	double inverse_cell;
	int columns, rows;
	kcc_grid_row* grid_rows;  ///< owned, one a row
	uint32_t* cell_start;     ///< owned, the rows' cells (kcc_grid_row): a cell's entries run to the next cell's start
	kcc_static_entry* entries; ///< owned, the cells' shapes, row by row
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

// Coordinate x in whole steps (1 / KCC_GRID_STEPS of a cell) from origin, clamped to lo .. hi. Monotonic in x: boxes
// in steps, the entries' and the query's both from this function, meet wherever the boxes meet (and a little more).
static inline int64_t kcc_grid_step( double x, double origin, double inverse_cell, int64_t lo, int64_t hi )
{
	double v = ( x - origin ) * inverse_cell * (double)KCC_GRID_STEPS;
	if ( !( v > (double)lo ) )
	{
		return lo; // NaN too
	}
	if ( v >= (double)hi )
	{
		return hi;
	}
	return (int64_t)v; // v > lo >= 0: truncation is floor
}

// kcc_grid_step of the query's corners (left, bottom, right, top), clamped to the steps of its cells i0 .. i1, j0 ..
// j1. With SSE2 the same arithmetic, lane by lane (the query is not NaN: it met the bounds).
static inline void kcc_grid_box_steps( const kcc_static_index* index, kcc_grid_box box, int i0, int j0, int i1, int j1,
									   int64_t steps[4] )
{
	int64_t x0 = KCC_GRID_STEPS * (int64_t)i0, x1 = KCC_GRID_STEPS * ( (int64_t)i1 + 1 );
	int64_t y0 = KCC_GRID_STEPS * (int64_t)j0, y1 = KCC_GRID_STEPS * ( (int64_t)j1 + 1 );
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
	__m128d origin = _mm_loadu_pd( &index->bounds.l ), scale = _mm_set1_pd( index->inverse_cell );
	__m128d lo = _mm_setr_pd( (double)x0, (double)y0 ), hi = _mm_setr_pd( (double)x1, (double)y1 );
	__m128d steps_of_cell = _mm_set1_pd( (double)KCC_GRID_STEPS );
	__m128d low = _mm_mul_pd( _mm_mul_pd( _mm_sub_pd( box.low, origin ), scale ), steps_of_cell );
	__m128d high = _mm_mul_pd( _mm_mul_pd( _mm_sub_pd( box.high, origin ), scale ), steps_of_cell );
	low = _mm_min_pd( _mm_max_pd( low, lo ), hi );
	high = _mm_min_pd( _mm_max_pd( high, lo ), hi );
	steps[0] = _mm_cvttsd_si64( low );
	steps[1] = _mm_cvttsd_si64( _mm_unpackhi_pd( low, low ) );
	steps[2] = _mm_cvttsd_si64( high );
	steps[3] = _mm_cvttsd_si64( _mm_unpackhi_pd( high, high ) );
#else
	steps[0] = kcc_grid_step( box.l, index->bounds.l, index->inverse_cell, x0, x1 );
	steps[1] = kcc_grid_step( box.b, index->bounds.b, index->inverse_cell, y0, y1 );
	steps[2] = kcc_grid_step( box.r, index->bounds.l, index->inverse_cell, x0, x1 );
	steps[3] = kcc_grid_step( box.t, index->bounds.b, index->inverse_cell, y0, y1 );
#endif
}

static inline uint32_t kcc_grid_clamp_step( int64_t step )
{
	return step < 0 ? 0u : step > KCC_GRID_STEPS ? (uint32_t)KCC_GRID_STEPS : (uint32_t)step;
}

/// Whether the index answers the static query (it may not when a rebuild ran out of memory).
static inline bool kcc_static_index_ready( const kcc_static_index* index )
{
	return index != NULL && index->ready;
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
	const kcc_static_entry* entries = index->entries;
	const kcc_static_shape* shapes = index->shapes;
	// The query's box in steps (each cell's share of it clamped again to that cell).
	int64_t steps[4];
	kcc_grid_box_steps( index, query, i0, j0, i1, j1, steps );
	int64_t ql = steps[0], qb = steps[1], qr = steps[2], qt = steps[3];
	for ( int j = j0; j <= j1; ++j )
	{
		const kcc_grid_row* row = index->grid_rows + j;
		int first = i0 > row->first ? i0 : row->first, last = i1 < row->last ? i1 : row->last;
		if ( first > last )
		{
			continue;
		}
		// Reported from the first cell of the query that holds it: a shape met in a later column (row) of the query
		// was reported already unless it starts in that column (row). No shape of column first starts before it
		// unless first is i0. A row's cells are one run of entries: the first column's, the middle ones', the last's.
		const uint32_t* cell = start + row->cells + (uint32_t)( first - row->first );
		uint32_t seen = j > j0 ? KCC_ENTRY_LATER_ROW : 0u;
		// The entries' and the query's boxes in steps, byte by byte: entry.right >= query.left, entry.top >=
		// query.bottom, query.right >= entry.left and query.top >= entry.bottom, each byte of high | 0x80 minus low
		// keeping its top bit (no byte borrows). Only the first and last columns' sides limit the x bytes.
		int64_t row_step = KCC_GRID_STEPS * (int64_t)j;
		uint32_t low_y = kcc_grid_clamp_step( qb - row_step ) << 24;
		uint32_t high_y = kcc_grid_clamp_step( qt - row_step ) << 8 | 0x80808080u;
		uint32_t low = low_y | kcc_grid_clamp_step( ql - KCC_GRID_STEPS * (int64_t)first ) << 16;
		uint32_t high_last = high_y | kcc_grid_clamp_step( qr - KCC_GRID_STEPS * (int64_t)last );
		uint32_t high = high_y | KCC_GRID_STEPS;
		uint32_t later = cell[1], final = cell[last - first];
		for ( uint32_t e = cell[0], end = cell[last - first + 1]; e < end; ++e )
		{
			if ( e == later )
			{
				seen |= KCC_ENTRY_LATER_COLUMN;
				low = low_y;
			}
			if ( e == final )
			{
				high = high_last;
			}
			kcc_static_entry entry = entries[e];
			if ( ( entry.shape & seen ) != 0 ||
				 ( ( ( ( entry.box & 0xffff0000u ) | high ) - ( ( entry.box & 0xffffu ) | low ) ) & 0x80808080u ) !=
					 0x80808080u )
			{
				continue;
			}
			const kcc_static_shape* s = shapes + ( entry.shape & KCC_ENTRY_SHAPE );
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
