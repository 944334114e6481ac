// SPDX-License-Identifier: MIT
// kcc2d's own read-only index of a space's static shapes (on static bodies, the space's own included): each shape
// read once (chipmunk_shapes.c's reading, in world coordinates), kept in a flat array ordered by grid cell, and a
// uniform grid of cells listing indices into it (with each shape's box within the cell, coarsely). A move's static
// query reads only this index: no Chipmunk call, no write to anything shared (each shape is reported from the first
// cell of the query box that holds it, not by a stamp), so any number of threads may query one index at once.
//
// One index per space, shared by the space's controllers: the first controller created on the space builds it, the
// last one destroyed frees it, and kcc_space_static_changed rebuilds it. Building allocates; a query never does.
#include "static_index.h"

#include "chipmunk_bridge.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// Grid limits, against the shape count n: at most 2n + 64 cells and 8n + 64 cell entries (the cell doubles in size
// until both hold), so memory stays proportional to the shapes whatever their layout.
#define KCC_STATIC_CELLS_PER_SHAPE 2
#define KCC_STATIC_ENTRIES_PER_SHAPE 8
#define KCC_STATIC_GRID_SLACK 64

// Cell exponents tallied to find the shapes' median size (2^-64 .. 2^63: far beyond any world's units).
#define KCC_STATIC_EXPONENTS 128

static atomic_flag s_lock = ATOMIC_FLAG_INIT;
static kcc_static_index* s_indices; // every live index

static void kcc_lock( void )
{
	while ( atomic_flag_test_and_set_explicit( &s_lock, memory_order_acquire ) )
	{
	}
}

static void kcc_unlock( void )
{
	atomic_flag_clear_explicit( &s_lock, memory_order_release );
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the space

typedef struct kcc_static_reader
{
	kcc_static_shape* shapes;
	int count, capacity;
	cpVect* points;
	int point_count, point_capacity;
	uint32_t* point_first; ///< each shape's first point (points move when the arrays grow)
	int first_capacity;
	bool failed;           ///< out of memory
} kcc_static_reader;

// The area Chipmunk gives a shape made from these points (its cpAreaFor* call), from what the index keeps of it.
static double kcc_points_area( const kcc_static_shape* s )
{
	cpVect corners[4];
	const cpVect* points = kcc_static_shape_points( s, corners );
	switch ( s->type )
	{
		case KCC_SHAPE_POLYGON:
			return cpAreaForPoly( s->count, points, s->radius );
		case KCC_SHAPE_CAPSULE:
			return cpAreaForSegment( points[0], points[1], s->radius );
		case KCC_SHAPE_CIRCLE:
			return cpAreaForCircle( 0.0, s->radius );
		default:
			return 0.0;
	}
}

double kcc_static_shape_area( const kcc_static_shape* shape )
{
	return shape->area_follows ? shape->points[shape->count].x : kcc_points_area( shape );
}

cpVect kcc_static_shape_surface_velocity( const kcc_static_shape* shape )
{
	return shape->velocity_follows ? shape->points[shape->count + ( shape->area_follows ? 1 : 0 )] : cpvzero;
}

// A shape's points and what follows them: its span in the points array (none for a box tile's).
static int kcc_point_span( const kcc_static_shape* s )
{
	return s->corners_in_bb ? 0
							: s->count + ( s->area_follows ? 1 : 0 ) + ( s->velocity_follows ? 1 : 0 ) +
								  ( s->group_follows ? 1 : 0 );
}

// Bit for bit: 0 and -0 differ (each rounds to its own signed zero in the local frame).
static bool kcc_same_double( double a, double b )
{
	return memcmp( &a, &b, sizeof( a ) ) == 0;
}

static void kcc_read_static_shape( cpShape* shape, void* data )
{
	kcc_static_reader* r = data;
	if ( r->failed || cpBodyGetType( cpShapeGetBody( shape ) ) != CP_BODY_TYPE_STATIC )
	{
		return;
	}
	cpBB bb = cpShapeGetBB( shape );
	kcc_shape_reading reading = kcc_read_shape( shape, bb );
	int points = reading.type == KCC_SHAPE_POLYGON	 ? reading.count
				 : reading.type == KCC_SHAPE_CAPSULE ? 2
				 : reading.type == KCC_SHAPE_CIRCLE	 ? 1
													 : 0;
	// Three more places at most: the area, the surface velocity and the filter's group, when kept.
	if ( reading.count > UINT16_MAX ||
		 kcc_reserve( (void**)&r->shapes, &r->capacity, r->count + 1, sizeof( *r->shapes ) ) == false ||
		 kcc_reserve( (void**)&r->point_first, &r->first_capacity, r->count + 1, sizeof( *r->point_first ) ) == false ||
		 kcc_reserve( (void**)&r->points, &r->point_capacity, r->point_count + points + 3, sizeof( *r->points ) ) == false )
	{
		r->failed = true;
		return;
	}
	cpVect* p = r->points + r->point_count;
	if ( reading.type == KCC_SHAPE_POLYGON )
	{
		kcc_read_polygon_vertices( shape, reading.count, p );
	}
	else if ( points > 0 )
	{
		p[0] = reading.a;
		if ( points == 2 )
		{
			p[1] = reading.b;
		}
	}
	kcc_static_shape* s = r->shapes + r->count;
	s->bb = bb;
	s->shape = shape;
	cpShapeFilter filter = cpShapeGetFilter( shape );
	s->filter.categories = filter.categories;
	s->filter.mask = filter.mask;
	s->points = p; // for the area below; set again once the points have their final place
	s->count = (uint16_t)points;
	s->type = (uint8_t)reading.type;
	s->sensor = cpShapeGetSensor( shape ) != cpFalse;
	s->radius = reading.radius;
	// A box tile: its corners repeat two x and two y, which a move then converts once each (chipmunk_shapes.c).
	bool x_first = points == 4 && kcc_same_double( p[0].y, p[1].y ) && kcc_same_double( p[1].x, p[2].x ) &&
				   kcc_same_double( p[2].y, p[3].y ) && kcc_same_double( p[3].x, p[0].x );
	bool y_first = points == 4 && kcc_same_double( p[0].x, p[1].x ) && kcc_same_double( p[1].y, p[2].y ) &&
				   kcc_same_double( p[2].x, p[3].x ) && kcc_same_double( p[3].y, p[0].y );
	s->rectangle = reading.type == KCC_SHAPE_POLYGON && ( x_first || y_first );
	s->rectangle_y_first = x_first == false;
	s->rectangle_in_range = s->rectangle && reading.radius >= 0.0f && reading.radius <= KCC_BOX_TILE_RANGE;
	for ( int k = 0; k < 4 && s->rectangle_in_range; ++k )
	{
		s->rectangle_in_range = fabs( p[k].x ) <= KCC_BOX_TILE_RANGE && fabs( p[k].y ) <= KCC_BOX_TILE_RANGE;
	}
	s->corners_in_bb = false;
	s->corner_right = false;
	s->corner_top = false;
	// Most shapes' area is what Chipmunk computes from the points the index keeps (a box tile's is): it is kept only
	// when it is not, bit for bit (a turned body, a rounded shape's float radius, a polygon read as a circle).
	double area = cpShapeGetArea( shape );
	double computed = kcc_points_area( s );
	s->area_follows = memcmp( &area, &computed, sizeof( area ) ) != 0;
	if ( s->area_follows )
	{
		p[points] = cpv( area, 0.0 );
	}
	cpVect velocity = cpShapeGetSurfaceVelocity( shape );
	s->velocity_follows = !( velocity.x == 0.0 && velocity.y == 0.0 ); // zero: no belt, whatever its sign
	if ( s->velocity_follows )
	{
		p[points + ( s->area_follows ? 1 : 0 )] = velocity;
	}
	s->group_follows = filter.group != CP_NO_GROUP;
	if ( s->group_follows )
	{
		cpVect slot = cpvzero;
		memcpy( &slot, &filter.group, sizeof( filter.group ) );
		p[points + ( s->area_follows ? 1 : 0 ) + ( s->velocity_follows ? 1 : 0 )] = slot;
	}
	// A box tile with nothing after its points, whose corners are its bb's bit for bit (no radius widens it, no
	// signed zero differs): it keeps no points, only which corner of the bb point 0 is.
	if ( s->rectangle && s->radius == 0.0f && s->area_follows == false && s->velocity_follows == false &&
		 s->group_follows == false )
	{
		bool right = kcc_same_double( p[0].x, bb.r ) && kcc_same_double( p[2].x, bb.l );
		bool top = kcc_same_double( p[0].y, bb.t ) && kcc_same_double( p[2].y, bb.b );
		bool left = kcc_same_double( p[0].x, bb.l ) && kcc_same_double( p[2].x, bb.r );
		bool bottom = kcc_same_double( p[0].y, bb.b ) && kcc_same_double( p[2].y, bb.t );
		s->corners_in_bb = ( right || left ) && ( top || bottom );
		s->corner_right = right;
		s->corner_top = top;
	}
	if ( s->corners_in_bb )
	{
		s->points = NULL;
	}
	r->point_first[r->count] = (uint32_t)r->point_count;
	r->count += 1;
	r->point_count += kcc_point_span( s );
}

// ---------------------------------------------------------------------------------------------------------------
// The grid

static bool kcc_bb_finite( cpBB bb )
{
	return isfinite( bb.l ) && isfinite( bb.r ) && isfinite( bb.b ) && isfinite( bb.t ) && bb.l <= bb.r && bb.b <= bb.t;
}

// A power of two between one and two times the median size of the shapes (the larger side of their boxes): most shapes
// then sit in one to four cells, and a query the size of a character meets few cells.
static double kcc_cell_size( const kcc_static_shape* shapes, int count )
{
	int tally[KCC_STATIC_EXPONENTS] = { 0 };
	int finite = 0;
	for ( int i = 0; i < count; ++i )
	{
		cpBB bb = shapes[i].bb;
		if ( kcc_bb_finite( bb ) )
		{
			double size = fmax( bb.r - bb.l, bb.t - bb.b );
			int exponent = 0;
			frexp( size > 0.0 ? size : 1.0, &exponent ); // size in [2^(e-1), 2^e)
			exponent = exponent < -64 ? -64 : exponent > 63 ? 63 : exponent;
			tally[exponent + 64] += 1;
			finite += 1;
		}
	}
	int seen = 0;
	for ( int e = 0; e < KCC_STATIC_EXPONENTS; ++e )
	{
		seen += tally[e];
		if ( 2 * seen >= finite && finite > 0 )
		{
			return ldexp( 1.0, e - 64 ); // the median's exponent: sizes in [2^(e-1), 2^e)
		}
	}
	return 1.0;
}

// The cells of a shape's box (inclusive).
static void kcc_cell_range( const kcc_static_index* index, cpBB bb, int* i0, int* i1, int* j0, int* j1 )
{
	*i0 = kcc_column( index, bb.l );
	*i1 = kcc_column( index, bb.r );
	*j0 = kcc_row( index, bb.b );
	*j1 = kcc_row( index, bb.t );
}

// Chooses the grid for the shapes (finite boxes only): its bounds, cell and size within the limits.
static void kcc_grid_layout( kcc_static_index* index, const kcc_static_shape* shapes, int count )
{
	cpBB bounds = { INFINITY, INFINITY, -INFINITY, -INFINITY };
	int finite = 0;
	for ( int i = 0; i < count; ++i )
	{
		if ( kcc_bb_finite( shapes[i].bb ) )
		{
			bounds = cpBBMerge( bounds, shapes[i].bb );
			finite += 1;
		}
	}
	index->bounds = finite > 0 ? bounds : cpBBNew( 0.0, 0.0, 0.0, 0.0 );
	double cell = kcc_cell_size( shapes, count );
	double max_cells = (double)KCC_STATIC_CELLS_PER_SHAPE * finite + KCC_STATIC_GRID_SLACK;
	double max_entries = (double)KCC_STATIC_ENTRIES_PER_SHAPE * finite + KCC_STATIC_GRID_SLACK;
	for ( ;; )
	{
		double columns = floor( ( index->bounds.r - index->bounds.l ) / cell ) + 1.0;
		double rows = floor( ( index->bounds.t - index->bounds.b ) / cell ) + 1.0;
		if ( columns * rows <= max_cells )
		{
			index->cell = cell;
			index->inverse_cell = 1.0 / cell;
			index->columns = (int)columns;
			index->rows = (int)rows;
			double entries = 0.0;
			for ( int i = 0; i < count && entries <= max_entries; ++i )
			{
				if ( kcc_bb_finite( shapes[i].bb ) )
				{
					int i0, i1, j0, j1;
					kcc_cell_range( index, shapes[i].bb, &i0, &i1, &j0, &j1 );
					entries += (double)( i1 - i0 + 1 ) * (double)( j1 - j0 + 1 );
				}
			}
			if ( entries <= max_entries )
			{
				return;
			}
		}
		cell *= 2.0;
	}
}

// Each row's span of columns with entries and where its cells start in cell_start (each row's cells first .. last,
// then one more, empty, that ends the last). Returns the number of cells in cell_start.
static size_t kcc_grid_rows_layout( kcc_static_index* index, const kcc_static_shape* shapes, int count )
{
	kcc_grid_row* rows = index->grid_rows;
	for ( int j = 0; j < index->rows; ++j )
	{
		rows[j].first = index->columns;
		rows[j].last = -1;
	}
	for ( int i = 0; i < count; ++i )
	{
		if ( kcc_bb_finite( shapes[i].bb ) )
		{
			int i0, i1, j0, j1;
			kcc_cell_range( index, shapes[i].bb, &i0, &i1, &j0, &j1 );
			for ( int j = j0; j <= j1; ++j )
			{
				rows[j].first = i0 < rows[j].first ? i0 : rows[j].first;
				rows[j].last = i1 > rows[j].last ? i1 : rows[j].last;
			}
		}
	}
	size_t cells = 0;
	for ( int j = 0; j < index->rows; ++j )
	{
		rows[j].cells = (uint32_t)cells;
		cells += rows[j].first <= rows[j].last ? (size_t)( rows[j].last - rows[j].first + 2 ) : 0u;
	}
	return cells;
}

// Where cell (x, y) starts in cell_start (the cell is within its row's span).
static uint32_t kcc_grid_cell_of( const kcc_static_index* index, int x, int y )
{
	return index->grid_rows[y].cells + (uint32_t)( x - index->grid_rows[y].first );
}

// A shape's box within cell (x, y) in steps, as an entry keeps it (kcc_static_entry).
static uint32_t kcc_entry_box( const kcc_static_index* index, cpBB bb, int x, int y )
{
	int64_t x0 = KCC_GRID_STEPS * (int64_t)x, y0 = KCC_GRID_STEPS * (int64_t)y;
	int64_t x1 = x0 + KCC_GRID_STEPS, y1 = y0 + KCC_GRID_STEPS;
	double l = index->bounds.l, b = index->bounds.b, inverse = index->inverse_cell;
	return (uint32_t)( kcc_grid_step( bb.l, l, inverse, x0, x1 ) - x0 ) |
		   (uint32_t)( kcc_grid_step( bb.b, b, inverse, y0, y1 ) - y0 ) << 8 |
		   (uint32_t)( kcc_grid_step( bb.r, l, inverse, x0, x1 ) - x0 ) << 16 |
		   (uint32_t)( kcc_grid_step( bb.t, b, inverse, y0, y1 ) - y0 ) << 24;
}

// A shape's place in the build's sort: its box, then the order read (a shape sorts by its first cell, then by box).
typedef struct kcc_sort_key
{
	cpBB bb;
	uint32_t index; ///< in the order read
} kcc_sort_key;

static int kcc_compare_keys( const void* pa, const void* pb )
{
	const kcc_sort_key* a = pa;
	const kcc_sort_key* b = pb;
	if ( a->bb.l != b->bb.l )
	{
		return a->bb.l < b->bb.l ? -1 : 1;
	}
	if ( a->bb.b != b->bb.b )
	{
		return a->bb.b < b->bb.b ? -1 : 1;
	}
	if ( a->bb.r != b->bb.r )
	{
		return a->bb.r < b->bb.r ? -1 : 1;
	}
	if ( a->bb.t != b->bb.t )
	{
		return a->bb.t < b->bb.t ? -1 : 1;
	}
	return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

// Sorts a cell's run of keys: insertion for the usual few, qsort for a crowd (every key differs: a total order).
static void kcc_sort_run( kcc_sort_key* keys, uint32_t count )
{
	if ( count > 16 )
	{
		qsort( keys, count, sizeof( *keys ), kcc_compare_keys );
		return;
	}
	for ( uint32_t a = 1; a < count; ++a )
	{
		kcc_sort_key moving = keys[a];
		uint32_t b = a;
		while ( b > 0 && kcc_compare_keys( &moving, keys + b - 1 ) < 0 )
		{
			keys[b] = keys[b - 1];
			b -= 1;
		}
		keys[b] = moving;
	}
}

static void kcc_index_free_arrays( kcc_static_index* index )
{
	kcc_free( index->shapes );
	kcc_free( index->points );
	kcc_free( index->cell_start );
	kcc_free( index->entries );
	kcc_free( index->grid_rows );
	index->shapes = NULL;
	index->points = NULL;
	index->cell_start = NULL;
	index->entries = NULL;
	index->grid_rows = NULL;
	index->shape_count = 0;
	index->point_count = 0;
}

typedef struct kcc_shape_list
{
	cpShape** shapes;
	int count, capacity;
	bool failed; ///< out of memory
} kcc_shape_list;

// Lists a shape without reading it: Chipmunk lists the shapes in the order they were added, which may be far from
// their order in memory (kcc_space_add_static_shapes scrambles it), and reading each as it comes waits on memory.
static void kcc_list_shape( cpShape* shape, void* data )
{
	kcc_shape_list* list = data;
	if ( list->failed == false &&
		 kcc_reserve( (void**)&list->shapes, &list->capacity, list->count + 1, sizeof( *list->shapes ) ) )
	{
		list->shapes[list->count++] = shape;
	}
	else
	{
		list->failed = true;
	}
}

// How many shapes ahead of the one read the list's are fetched from memory, and how many bytes of each (a polygon
// tile's record, its vertices included): the reads then overlap their waits.
#define KCC_READ_AHEAD 8
#define KCC_READ_AHEAD_BYTES 512

static inline void kcc_prefetch( const void* p )
{
#if defined( __GNUC__ ) || defined( __clang__ )
	for ( int offset = 0; offset < KCC_READ_AHEAD_BYTES; offset += 64 )
	{
		__builtin_prefetch( (const char*)p + offset );
	}
#else
	(void)p;
#endif
}

// Reads the space and builds the index's arrays into index (its space set). False when memory ran out (index then
// holds no arrays).
static bool kcc_index_build( kcc_static_index* index )
{
	index->build += 1;
	// Listed first, so that the reader's arrays are allocated once (room for boxes' four points each, and the three
	// places a shape may need after its points), then read in Chipmunk's order.
	kcc_shape_list list = { 0 };
	cpSpaceEachShape( (cpSpace*)index->space, kcc_list_shape, &list );
	int count = list.count;
	kcc_static_reader r = { 0 };
	r.failed = list.failed ||
			   kcc_reserve( (void**)&r.shapes, &r.capacity, count, sizeof( *r.shapes ) ) == false ||
			   kcc_reserve( (void**)&r.point_first, &r.first_capacity, count, sizeof( *r.point_first ) ) == false ||
			   kcc_reserve( (void**)&r.points, &r.point_capacity, 4 * count + 3, sizeof( *r.points ) ) == false;
	for ( int i = 0; i < count && r.failed == false; ++i )
	{
		if ( i + KCC_READ_AHEAD < count )
		{
			kcc_prefetch( list.shapes[i + KCC_READ_AHEAD] );
		}
		kcc_read_static_shape( list.shapes[i], &r );
	}
	kcc_free( list.shapes );
	bool ok = r.failed == false && r.count <= (int)KCC_ENTRY_SHAPE; // an entry's shape index fits its bits
	kcc_static_shape* shapes = NULL;
	cpVect* points = NULL;
	kcc_sort_key* order = NULL;
	uint32_t* first_cell = NULL;
	size_t cells = 0;
	if ( ok )
	{
		kcc_grid_layout( index, r.shapes, r.count );
		index->grid_rows = kcc_alloc_walked( (size_t)index->rows * sizeof( *index->grid_rows ) );
		cells = index->grid_rows != NULL ? kcc_grid_rows_layout( index, r.shapes, r.count ) : 0;
		index->cell_start = kcc_alloc_walked( ( cells + 1 ) * sizeof( uint32_t ) );
		shapes = kcc_alloc_walked( (size_t)( r.count > 0 ? r.count : 1 ) * sizeof( *shapes ) );
		points = kcc_alloc_walked( (size_t)( r.point_count > 0 ? r.point_count : 1 ) * sizeof( *points ) );
		order = kcc_alloc( (size_t)( r.count > 0 ? r.count : 1 ) * sizeof( *order ) );
		first_cell = kcc_alloc( (size_t)( r.count > 0 ? r.count : 1 ) * sizeof( *first_cell ) );
		ok = index->grid_rows != NULL && index->cell_start != NULL && shapes != NULL && points != NULL &&
			 order != NULL && first_cell != NULL;
	}
	if ( ok )
	{
		// Order the shapes by their first cell (a counting sort, stable), then by box within it: neighbours in space
		// are neighbours in memory, and the order does not depend on how Chipmunk iterates.
		uint32_t* start = index->cell_start;
		memset( start, 0, ( cells + 1 ) * sizeof( uint32_t ) );
		for ( int i = 0; i < r.count; ++i )
		{
			uint32_t k = (uint32_t)cells; // shapes with no finite box go last, in no cell
			if ( kcc_bb_finite( r.shapes[i].bb ) )
			{
				k = kcc_grid_cell_of( index, kcc_column( index, r.shapes[i].bb.l ), kcc_row( index, r.shapes[i].bb.b ) );
			}
			first_cell[i] = k;
			start[k] += 1;
		}
		uint32_t sum = 0;
		for ( size_t k = 0; k <= cells; ++k )
		{
			uint32_t n = start[k];
			start[k] = sum;
			sum += n;
		}
		for ( int i = 0; i < r.count; ++i )
		{
			// Shapes with no finite box (last, in no cell) keep the order read.
			kcc_sort_key key = { first_cell[i] < cells ? r.shapes[i].bb : cpBBNew( 0.0, 0.0, 0.0, 0.0 ), (uint32_t)i };
			order[start[first_cell[i]]++] = key;
		}
		// start[k] is now the end of cell k's run: sort each run by box.
		uint32_t begin = 0;
		for ( size_t k = 0; k <= cells; ++k )
		{
			kcc_sort_run( order + begin, start[k] - begin );
			begin = start[k];
		}
		int point_count = 0;
		for ( int i = 0; i < r.count; ++i )
		{
			const kcc_static_shape* from = r.shapes + order[i].index;
			shapes[i] = *from;
			int span = kcc_point_span( from );
			memcpy( points + point_count, r.points + r.point_first[order[i].index], (size_t)span * sizeof( cpVect ) );
			shapes[i].points = from->corners_in_bb ? NULL : points + point_count;
			point_count += span;
		}
		// The cells' entries: count, prefix sums, fill (row by row, so each cell lists its shapes in array order).
		memset( start, 0, ( cells + 1 ) * sizeof( uint32_t ) );
		for ( int i = 0; i < r.count; ++i )
		{
			if ( kcc_bb_finite( shapes[i].bb ) )
			{
				int i0, i1, j0, j1;
				kcc_cell_range( index, shapes[i].bb, &i0, &i1, &j0, &j1 );
				for ( int j = j0; j <= j1; ++j )
				{
					uint32_t k = kcc_grid_cell_of( index, i0, j );
					for ( int x = i0; x <= i1; ++x )
					{
						start[k++] += 1;
					}
				}
			}
		}
		sum = 0;
		for ( size_t k = 0; k <= cells; ++k )
		{
			uint32_t n = start[k];
			start[k] = sum;
			sum += n;
		}
		index->entries = kcc_alloc_walked( (size_t)( sum > 0 ? sum : 1 ) * sizeof( *index->entries ) );
		ok = index->entries != NULL;
		if ( ok )
		{
			for ( int i = 0; i < r.count; ++i )
			{
				if ( kcc_bb_finite( shapes[i].bb ) )
				{
					int i0, i1, j0, j1;
					kcc_cell_range( index, shapes[i].bb, &i0, &i1, &j0, &j1 );
					for ( int j = j0; j <= j1; ++j )
					{
						uint32_t k = kcc_grid_cell_of( index, i0, j );
						for ( int x = i0; x <= i1; ++x )
						{
							uint32_t later = ( x > i0 ? KCC_ENTRY_LATER_COLUMN : 0u ) | ( j > j0 ? KCC_ENTRY_LATER_ROW : 0u );
							kcc_static_entry* entry = index->entries + start[k++]++;
							entry->shape = (uint32_t)i | later;
							entry->box = kcc_entry_box( index, shapes[i].bb, x, j );
						}
					}
				}
			}
			// start[k] now ends cell k: shift back so that it starts it.
			for ( size_t k = cells; k > 0; --k )
			{
				start[k] = start[k - 1];
			}
			start[0] = 0;
		}
		index->shapes = shapes;
		index->points = points;
		index->shape_count = r.count;
		index->point_count = point_count;
		shapes = NULL;
		points = NULL;
	}
	kcc_free( shapes );
	kcc_free( points );
	kcc_free( order );
	kcc_free( first_cell );
	kcc_free( r.shapes );
	kcc_free( r.points );
	kcc_free( r.point_first );
	if ( ok == false )
	{
		kcc_index_free_arrays( index );
	}
	return ok;
}

// ---------------------------------------------------------------------------------------------------------------
// Sharing

// The index of space, or NULL (the lock held).
static kcc_static_index* kcc_index_of( const cpSpace* space )
{
	kcc_static_index* index = s_indices;
	while ( index != NULL && index->space != space )
	{
		index = index->next;
	}
	return index;
}

kcc_static_index* kcc_static_index_acquire( cpSpace* space )
{
	kcc_lock();
	kcc_static_index* index = kcc_index_of( space );
	if ( index != NULL )
	{
		index->users += 1;
		if ( index->ready == false )
		{
			index->ready = kcc_index_build( index ); // memory may have come back since the last try
		}
	}
	else
	{
		index = kcc_alloc( sizeof( *index ) );
		if ( index != NULL )
		{
			memset( index, 0, sizeof( *index ) );
			index->space = space;
			index->ready = kcc_index_build( index );
			index->users = 1;
			index->next = s_indices;
			s_indices = index;
		}
	}
	kcc_unlock();
	return index;
}

void kcc_static_index_release( kcc_static_index* index )
{
	if ( index == NULL )
	{
		return;
	}
	kcc_lock();
	if ( --index->users == 0 )
	{
		kcc_static_index** link = &s_indices;
		while ( *link != index )
		{
			link = &( *link )->next;
		}
		*link = index->next;
		kcc_index_free_arrays( index );
		kcc_snapshot_free( index->snapshot );
		kcc_move_context_free( &index->context );
		kcc_free( index );
	}
	kcc_unlock();
}

kcc_snapshot** kcc_static_index_snapshot( kcc_static_index* index )
{
	return &index->snapshot;
}

kcc_static_index* kcc_static_index_find( const cpSpace* space )
{
	kcc_lock();
	kcc_static_index* index = kcc_index_of( space );
	kcc_unlock();
	return index;
}

void kcc_space_static_changed( cpSpace* space )
{
	KCC_ASSERT( space != NULL, "kcc_space_static_changed: space is NULL" );
	if ( space == NULL )
	{
		return;
	}
	kcc_lock();
	kcc_static_index* index = kcc_index_of( space );
	if ( index != NULL )
	{
		// Rebuilt in place: the old arrays go first, so a level no larger than before needs no more memory.
		kcc_index_free_arrays( index );
		index->ready = kcc_index_build( index );
	}
	kcc_unlock();
}

// The record of shape in the index, found from the cells of its box (a shape the game did not move), else by a scan.
static kcc_static_shape* kcc_index_find( kcc_static_index* index, const cpShape* shape, cpBB bb )
{
	if ( kcc_bb_finite( bb ) && index->shape_count > 0 )
	{
		int i0, i1, j0, j1;
		kcc_cell_range( index, bb, &i0, &i1, &j0, &j1 );
		uint32_t cell = kcc_grid_cell_of( index, i0, j0 );
		bool held = i0 >= index->grid_rows[j0].first && i0 <= index->grid_rows[j0].last;
		for ( uint32_t e = held ? index->cell_start[cell] : 0u, end = held ? index->cell_start[cell + 1] : 0u; e < end;
			  ++e )
		{
			kcc_static_shape* s = index->shapes + ( index->entries[e].shape & KCC_ENTRY_SHAPE );
			if ( s->shape == shape )
			{
				return s;
			}
		}
	}
	for ( int i = 0; i < index->shape_count; ++i )
	{
		if ( index->shapes[i].shape == shape )
		{
			return index->shapes + i;
		}
	}
	return NULL;
}

void kcc_space_static_shape_removed( cpSpace* space, cpShape* shape )
{
	KCC_ASSERT( space != NULL && shape != NULL, "kcc_space_static_shape_removed: space or shape is NULL" );
	if ( space == NULL || shape == NULL )
	{
		return;
	}
	kcc_lock();
	kcc_static_index* index = kcc_index_of( space );
	kcc_static_shape* s = index != NULL ? kcc_index_find( index, shape, cpShapeGetBB( shape ) ) : NULL;
	if ( s != NULL )
	{
		// Left in its cells, never met again: no box meets a NaN box.
		s->bb = cpBBNew( NAN, NAN, NAN, NAN );
		s->type = KCC_SHAPE_INVALID;
	}
	kcc_unlock();
}

// ---------------------------------------------------------------------------------------------------------------
// The query

void kcc_static_index_query( const kcc_static_index* index, cpBB box, cpShapeFilter filter, kcc_static_visit* visit,
							 void* data )
{
	kcc_static_index_walk( index, box, filter, visit, data );
}
