// SPDX-License-Identifier: MIT
// The batch's snapshot on its own, on a real cpSpace: which pending shapes a read keeps (those whose body is still in
// the space and holds them, whatever their hints say, in their order, hints then pointing where they are found; the
// workers' marking of their bodies, share by share), and
// its grid (each cell lists the shapes whose grid boxes cover it, in snapshot order; the cell size its rule gives),
// the waves of characters that never read one another, and the characters' bodies it knows without reading them, their
// shapes taken from their controllers (and a game's change to them named by builds with asserts).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../controller/internal.h"
#include "assert_recorder.h"
#include "controller_scene.h"

#define BODIES 5

typedef struct space_fixture
{
	cpSpace* space;
	cpBody* bodies[BODIES];
	cpShape* shapes[BODIES + 1]; // one per body, and a second one on body 2
} space_fixture;

static void fixture_build( space_fixture* f )
{
	f->space = cpSpaceNew();
	for ( int i = 0; i < BODIES; ++i )
	{
		f->bodies[i] = cpSpaceAddBody( f->space, cpBodyNewKinematic() );
		cpBodySetPosition( f->bodies[i], cpv( 3.0 * i, 0.0 ) );
		f->shapes[i] = cpSpaceAddShape( f->space, cpBoxShapeNew( f->bodies[i], 1.0, 1.0, 0.0 ) );
	}
	f->shapes[BODIES] = cpSpaceAddShape( f->space, cpCircleShapeNew( f->bodies[2], 0.5, cpvzero ) );
}

static void fixture_remove_body( space_fixture* f, int i )
{
	for ( int k = 0; k <= BODIES; ++k )
	{
		if ( f->shapes[k] != NULL && cpShapeGetBody( f->shapes[k] ) == f->bodies[i] )
		{
			cpSpaceRemoveShape( f->space, f->shapes[k] );
			cpShapeFree( f->shapes[k] );
			f->shapes[k] = NULL;
		}
	}
	cpSpaceRemoveBody( f->space, f->bodies[i] );
	cpBodyFree( f->bodies[i] );
	f->bodies[i] = NULL;
}

static void fixture_destroy( space_fixture* f )
{
	for ( int i = 0; i < BODIES; ++i )
	{
		if ( f->bodies[i] != NULL )
		{
			fixture_remove_body( f, i );
		}
	}
	cpSpaceFree( f->space );
}

static kcc_snapshot* snapshot_new( void )
{
	kcc_snapshot* s = kcc_alloc( sizeof( *s ) );
	assert_non_null( s );
	memset( s, 0, sizeof( *s ) );
	return s;
}

static int shape_index( const kcc_snapshot* s, const cpShape* shape )
{
	for ( int i = 0; i < s->shape_count; ++i )
	{
		if ( s->shapes[i].shape == shape )
		{
			return i;
		}
	}
	return -1;
}

// The pending list holds exactly expected (in order, boxes unchanged), each hint points at its body and shape, and
// the bodies flagged pending are those of the list.
static void check_pending( const kcc_snapshot* s, const kcc_pending_shape* expected, int count )
{
	assert_int_equal( s->pending_count, count );
	for ( int k = 0; k < count; ++k )
	{
		const kcc_pending_shape* p = s->pending + k;
		assert_ptr_equal( p->body, expected[k].body );
		assert_ptr_equal( p->shape, expected[k].shape );
		assert_memory_equal( &p->indexed, &expected[k].indexed, sizeof( cpBB ) );
		assert_true( p->body_hint >= 0 && p->body_hint < s->body_count );
		assert_ptr_equal( s->bodies[p->body_hint].body, p->body );
		assert_true( p->shape_hint >= 0 && p->shape_hint < s->shape_count );
		assert_ptr_equal( s->shapes[p->shape_hint].shape, p->shape );
		assert_int_equal( s->shapes[p->shape_hint].body, p->body_hint );
	}
	for ( int b = 0; b < s->body_count; ++b )
	{
		bool listed = false;
		for ( int k = 0; k < count; ++k )
		{
			listed |= expected[k].body == s->bodies[b].body;
		}
		assert_int_equal( kcc_snapshot_body_pending( s, s->bodies + b ), listed );
	}
}

// Pending shapes with right, wrong, missing and out-of-range hints: a read keeps those still on their bodies in the
// space, in order, and drops a body never in the space and a shape its body does not hold; after a body's removal
// (the space lists its bodies anew) the next read keeps the rest again.
static void test_pending_shapes_kept_whatever_their_hints( void** state )
{
	(void)state;
	space_fixture f;
	fixture_build( &f );
	cpBody* gone = cpBodyNewKinematic(); // never in the space
	cpShape* gone_shape = cpBoxShapeNew( gone, 1.0, 1.0, 0.0 );
	cpShape* stray = cpCircleShapeNew( f.bodies[0], 0.3, cpvzero ); // names body 0, which does not hold it
	kcc_snapshot* s = snapshot_new();
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	assert_int_equal( s->body_count, BODIES );
	int at[BODIES], shape_at[BODIES + 1];
	for ( int i = 0; i < BODIES; ++i )
	{
		at[i] = kcc_snapshot_body_index( s, f.bodies[i] );
		assert_true( at[i] >= 0 );
	}
	for ( int i = 0; i <= BODIES; ++i )
	{
		shape_at[i] = shape_index( s, f.shapes[i] );
		assert_true( shape_at[i] >= 0 );
	}
	kcc_snapshot_spent( s );
	// Hints: right; at the body's other shape; at another body's; none; out of range. Two entries name a body never in
	// the space and a shape its body does not hold.
	kcc_pending_shape list[] = {
		{ f.bodies[1], f.shapes[1], cpBBNew( 1.0, 1.0, 2.0, 2.0 ), at[1], shape_at[1] },
		{ f.bodies[2], f.shapes[BODIES], cpBBNew( 2.0, 2.0, 3.0, 3.0 ), at[2], shape_at[2] },
		{ f.bodies[3], f.shapes[3], cpBBNew( 3.0, 3.0, 4.0, 4.0 ), at[4], shape_at[4] },
		{ gone, gone_shape, cpBBNew( 4.0, 4.0, 5.0, 5.0 ), at[0], shape_at[0] },
		{ f.bodies[4], f.shapes[4], cpBBNew( 5.0, 5.0, 6.0, 6.0 ), -1, -1 },
		{ f.bodies[0], stray, cpBBNew( 6.0, 6.0, 7.0, 7.0 ), at[0], shape_at[0] },
		{ f.bodies[0], f.shapes[0], cpBBNew( 7.0, 7.0, 8.0, 8.0 ), BODIES + 3, BODIES + 9 },
		{ f.bodies[2], f.shapes[2], cpBBNew( 8.0, 8.0, 9.0, 9.0 ), at[2], shape_at[BODIES] },
	};
	int count = (int)( sizeof( list ) / sizeof( list[0] ) );
	assert_true( kcc_reserve( (void**)&s->pending, &s->pending_capacity, count, sizeof( *s->pending ) ) );
	memcpy( s->pending, list, sizeof( list ) );
	s->pending_count = count;
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	kcc_pending_shape kept[] = { list[0], list[1], list[2], list[4], list[6], list[7] };
	check_pending( s, kept, 6 );
	kcc_snapshot_spent( s );
	// Body 1 leaves the space (Chipmunk moves its last body into its place): the rest are found where they now are.
	fixture_remove_body( &f, 1 );
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	check_pending( s, kept + 1, 5 );
	kcc_snapshot_spent( s );
	s->pending_count = 0;
	kcc_snapshot_free( s );
	cpShapeFree( stray );
	cpShapeFree( gone_shape );
	cpBodyFree( gone );
	fixture_destroy( &f );
}

// A read without kcc_snapshot_keep_pending (a batch leaves it to its workers): no body is flagged pending.
static void read_leaving_pending( kcc_snapshot* s, cpSpace* space )
{
	assert_true( kcc_snapshot_read_bodies( s, space, true ) );
	assert_true( kcc_snapshot_read_end( s, true, 0, false ) );
	for ( int b = 0; b < s->body_count; ++b )
	{
		assert_false( kcc_snapshot_body_pending( s, s->bodies + b ) );
	}
}

// The batch's workers mark the pending bodies share by share (kcc_snapshot_mark_pending) when every shape of a share
// is where its hints say, wherever its body is among the bodies: the flags are then those kcc_snapshot_keep_pending
// sets. A stale hint leaves the share to kcc_snapshot_keep_pending (false).
static void test_pending_bodies_marked_by_shares( void** state )
{
	(void)state;
	space_fixture f;
	fixture_build( &f );
	kcc_snapshot* s = snapshot_new();
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	// Bodies 1 .. 4 (body 2 with its second shape), in the order the snapshot lists them.
	kcc_pending_shape list[4];
	int count = 0;
	for ( int b = 0; b < s->body_count; ++b )
	{
		for ( int i = 1; i < BODIES; ++i )
		{
			if ( s->bodies[b].body == f.bodies[i] )
			{
				const cpShape* shape = i == 2 ? f.shapes[BODIES] : f.shapes[i];
				list[count++] = ( kcc_pending_shape ){ f.bodies[i], (cpShape*)shape, cpShapeGetBB( shape ), b,
													   shape_index( s, shape ) };
			}
		}
	}
	assert_int_equal( count, 4 );
	kcc_snapshot_spent( s );
	assert_true( kcc_reserve( (void**)&s->pending, &s->pending_capacity, 4, sizeof( *s->pending ) ) );
	memcpy( s->pending, list, sizeof( list ) );
	s->pending_count = 4;
	read_leaving_pending( s, f.space );
	// Two shares: every hint holds.
	assert_true( kcc_snapshot_mark_pending( s, 0, 2 ) );
	assert_true( kcc_snapshot_mark_pending( s, 2, 4 ) );
	check_pending( s, list, 4 );
	kcc_snapshot_spent( s );
	// Shares that are not the bodies' order (three, then one): the same flags.
	read_leaving_pending( s, f.space );
	assert_true( kcc_snapshot_mark_pending( s, 1, 4 ) );
	assert_true( kcc_snapshot_mark_pending( s, 0, 1 ) );
	check_pending( s, list, 4 );
	kcc_snapshot_spent( s );
	// A stale hint (body 2's circle hinted at its box): left to kcc_snapshot_keep_pending, which finds it.
	for ( int k = 0; k < 4; ++k )
	{
		if ( s->pending[k].shape == f.shapes[BODIES] )
		{
			s->pending[k].shape_hint = shape_index( s, f.shapes[2] );
		}
	}
	read_leaving_pending( s, f.space );
	assert_false( kcc_snapshot_mark_pending( s, 0, 4 ) );
	kcc_snapshot_keep_pending( s );
	check_pending( s, list, 4 );
	kcc_snapshot_spent( s );
	s->pending_count = 0;
	kcc_snapshot_free( s );
	fixture_destroy( &f );
}

// s reads the space as a fresh snapshot does: the same bodies and shapes in the same places, each shape's box, body,
// sensor flag and filter as Chipmunk has them now.
static void assert_read_as_fresh( const kcc_snapshot* s, cpSpace* space )
{
	kcc_snapshot* fresh = snapshot_new();
	assert_true( kcc_snapshot_read( fresh, space, 0 ) );
	assert_int_equal( s->body_count, fresh->body_count );
	assert_int_equal( s->shape_count, fresh->shape_count );
	assert_int_equal( s->dynamic_count, fresh->dynamic_count );
	for ( int b = 0; b < s->body_count; ++b )
	{
		assert_ptr_equal( s->bodies[b].body, fresh->bodies[b].body );
		assert_int_equal( s->bodies[b].first_shape, fresh->bodies[b].first_shape );
		assert_int_equal( s->bodies[b].shape_count, fresh->bodies[b].shape_count );
		assert_int_equal( s->bodies[b].mover, -1 );
	}
	for ( int i = 0; i < s->shape_count; ++i )
	{
		const kcc_snapshot_shape* a = s->shapes + i;
		const kcc_snapshot_shape* b = fresh->shapes + i;
		assert_ptr_equal( a->shape, b->shape );
		cpBB now = cpShapeGetBB( a->shape );
		assert_memory_equal( &a->indexed, &now, sizeof( cpBB ) );
		assert_memory_equal( &a->grid, &now, sizeof( cpBB ) );
		assert_int_equal( a->body, b->body );
		assert_int_equal( a->sensor, cpShapeGetSensor( a->shape ) != cpFalse );
		cpShapeFilter f = cpShapeGetFilter( a->shape );
		assert_memory_equal( &a->filter, &f, sizeof( f ) );
		assert_false( a->writable || a->loose );
	}
	kcc_snapshot_spent( fresh );
	kcc_snapshot_free( fresh );
}

// A read of the same bodies as the last one reads their shapes in the places the last read gave them (so the batch
// reads them on its workers), as Chipmunk has them now: bodies the game moved itself, a sensor flag and a filter
// changed. A body with a shape more or less no longer fits them: the read says so, and the calling thread's read lays
// them out anew.
static void test_read_of_the_same_bodies_sees_every_change( void** state )
{
	(void)state;
	space_fixture f;
	fixture_build( &f );
	kcc_snapshot* s = snapshot_new();
	assert_true( kcc_snapshot_read( s, f.space, 0 ) );
	kcc_snapshot_spent( s );
	for ( int round = 0; round < 4; ++round )
	{
		cpShape* extra = NULL;
		bool fits = round < 2;
		if ( round == 0 )
		{
			// Moved by the game: positions set and the shapes reindexed by Chipmunk, not by kcc.
			cpBodySetPosition( f.bodies[0], cpv( -4.0, 2.0 ) );
			cpSpaceReindexShapesForBody( f.space, f.bodies[0] );
			cpBodySetPosition( f.bodies[2], cpv( 7.0, -3.0 ) );
			cpSpaceReindexShapesForBody( f.space, f.bodies[2] );
		}
		else if ( round == 1 )
		{
			cpShapeSetSensor( f.shapes[3], cpTrue );
			cpShapeSetFilter( f.shapes[BODIES], cpShapeFilterNew( 7, 2, 5 ) );
		}
		else if ( round == 2 )
		{
			extra = cpSpaceAddShape( f.space, cpCircleShapeNew( f.bodies[1], 0.25, cpvzero ) );
		}
		else
		{
			cpSpaceRemoveShape( f.space, f.shapes[BODIES] ); // body 2's second shape
			cpShapeFree( f.shapes[BODIES] );
			f.shapes[BODIES] = NULL;
		}
		assert_true( kcc_snapshot_read_bodies( s, f.space, false ) );
		assert_true( s->same_bodies );
		// Both ranges are read, as two workers would.
		bool front = kcc_snapshot_read_shapes( s, 0, 2 );
		bool back = kcc_snapshot_read_shapes( s, 2, s->body_count );
		bool read = front && back;
		assert_int_equal( read, fits );
		assert_true( kcc_snapshot_read_end( s, read, 0, true ) );
		assert_read_as_fresh( s, f.space );
		kcc_snapshot_spent( s );
		if ( extra != NULL )
		{
			// The same shapes again after it left: the places of the last read, which had it, no longer fit.
			cpSpaceRemoveShape( f.space, extra );
			cpShapeFree( extra );
			assert_true( kcc_snapshot_read( s, f.space, 0 ) );
			assert_read_as_fresh( s, f.space );
			kcc_snapshot_spent( s );
		}
	}
	kcc_snapshot_free( s );
	fixture_destroy( &f );
}

// ---------------------------------------------------------------------------------------------------------------
// The grid

static uint32_t s_seed;

static double random_unit( void )
{
	s_seed = s_seed * 1664525u + 1013904223u;
	return (double)( s_seed >> 8 ) / (double)( 1u << 24 );
}

static bool box_finite( cpBB bb )
{
	return isfinite( bb.l ) && isfinite( bb.r ) && isfinite( bb.b ) && isfinite( bb.t ) && bb.l <= bb.r && bb.b <= bb.t;
}

static int cell_of( double x, double origin, double inverse_cell, int last )
{
	double v = ( x - origin ) * inverse_cell;
	return !( v > 0.0 ) ? 0 : v >= (double)last ? last : (int)v;
}

// Whether the grid of cell side cell over bounds fits the limits for the listed boxes (at most 2 cells and 8 entries
// per listed box, plus 64).
static bool grid_fits( const cpBB* boxes, const bool* listed, int count, cpBB bounds, double cell )
{
	int finite = 0;
	for ( int i = 0; i < count; ++i )
	{
		finite += listed[i];
	}
	double columns = floor( ( bounds.r - bounds.l ) / cell ) + 1.0;
	double rows = floor( ( bounds.t - bounds.b ) / cell ) + 1.0;
	if ( columns * rows > 2.0 * finite + 64.0 )
	{
		return false;
	}
	double entries = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		if ( listed[i] )
		{
			double w = cell_of( boxes[i].r, bounds.l, 1.0 / cell, (int)columns - 1 ) -
					   cell_of( boxes[i].l, bounds.l, 1.0 / cell, (int)columns - 1 ) + 1;
			double h = cell_of( boxes[i].t, bounds.b, 1.0 / cell, (int)rows - 1 ) -
					   cell_of( boxes[i].b, bounds.b, 1.0 / cell, (int)rows - 1 ) + 1;
			entries += w * h;
		}
	}
	return entries <= 8.0 * finite + 64.0;
}

// Puts boxes in the snapshot's shapes as their grid boxes, builds the grid and checks it: the grid lists the shapes
// of finite boxes that the readers may read (readable), and only them: its bounds, a cell of the rule's size (a power
// of two at or above those boxes' mean larger side, the smallest of them that fits the limits), each shape's cells,
// and each cell's list.
static void check_grid( kcc_snapshot* s, const cpBB* boxes, const bool* readable, int count )
{
	assert_int_equal( s->shape_count, count );
	for ( int i = 0; i < count; ++i )
	{
		s->shapes[i].grid = boxes[i];
	}
	assert_true( kcc_snapshot_build_grid( s ) );
	assert_true( s->grid_ready );
	static bool listed[1024];
	assert_true( count <= 1024 );
	cpBB bounds = { INFINITY, INFINITY, -INFINITY, -INFINITY };
	double size = 0.0;
	int finite = 0;
	for ( int i = 0; i < count; ++i )
	{
		listed[i] = box_finite( boxes[i] ) && readable[i];
		if ( listed[i] )
		{
			bounds = cpBBMerge( bounds, boxes[i] );
			size += fmax( boxes[i].r - boxes[i].l, boxes[i].t - boxes[i].b );
			finite += 1;
		}
	}
	assert_true( finite > 0 );
	assert_memory_equal( &s->bounds, &bounds, sizeof( cpBB ) );
	double cell = 1.0 / s->inverse_cell;
	int exponent = 0;
	assert_true( frexp( cell, &exponent ) == 0.5 ); // a power of two
	assert_true( cell >= size / finite || cell == ldexp( 1.0, 60 ) );
	assert_true( grid_fits( boxes, listed, count, bounds, cell ) );
	assert_true( cell / 2.0 < size / finite || grid_fits( boxes, listed, count, bounds, cell / 2.0 ) == false );
	assert_true( s->columns >= 1 && s->rows >= 1 );
	assert_true( s->columns == (int)( floor( ( bounds.r - bounds.l ) / cell ) + 1.0 ) );
	assert_true( s->rows == (int)( floor( ( bounds.t - bounds.b ) / cell ) + 1.0 ) );
	for ( int i = 0; i < count; ++i )
	{
		// Each cell's list below holds the listed shapes only: the others are in no cell.
		assert_int_equal( s->shapes[i].readable, readable[i] );
		const int* c = s->shapes[i].cells;
		if ( listed[i] )
		{
			assert_int_equal( c[0], cell_of( boxes[i].l, bounds.l, s->inverse_cell, s->columns - 1 ) );
			assert_int_equal( c[1], cell_of( boxes[i].r, bounds.l, s->inverse_cell, s->columns - 1 ) );
			assert_int_equal( c[2], cell_of( boxes[i].b, bounds.b, s->inverse_cell, s->rows - 1 ) );
			assert_int_equal( c[3], cell_of( boxes[i].t, bounds.b, s->inverse_cell, s->rows - 1 ) );
		}
	}
	int cells = s->columns * s->rows;
	assert_int_equal( s->cell_start[0], 0 );
	for ( int cell_index = 0; cell_index < cells; ++cell_index )
	{
		int column = cell_index % s->columns, row = cell_index / s->columns;
		uint32_t e = s->cell_start[cell_index], end = s->cell_start[cell_index + 1];
		assert_true( e <= end );
		for ( int i = 0; i < count; ++i )
		{
			const int* c = s->shapes[i].cells;
			if ( listed[i] && column >= c[0] && column <= c[1] && row >= c[2] && row <= c[3] )
			{
				assert_true( e < end );
				assert_int_equal( s->entries[e], i );
				e += 1;
			}
		}
		assert_int_equal( e, end );
	}
	assert_true( s->cell_start[cells] <= 8.0 * finite + 64.0 );
}

// Shapes of every size, points, boxes across the map, boxes not finite or inverted: a grid whose cell is the mean
// size's, one where the entries double it (tiny shapes and boxes across the map), one where the cell count does
// (tiny shapes only); then the first layout again for characters that read only some of the shapes (by their filters'
// categories and masks, and sensors by their sensor masks): the others stay out of the grid.
static void test_grid_lists_each_cells_shapes_in_order( void** state )
{
	(void)state;
	enum { COUNT = 240 };
	cpSpace* space = cpSpaceNew();
	cpBody* bodies[COUNT];
	cpShape* shapes[COUNT];
	static bool readable[COUNT];
	for ( int i = 0; i < COUNT; ++i )
	{
		bodies[i] = cpSpaceAddBody( space, cpBodyNewKinematic() );
		shapes[i] = cpSpaceAddShape( space, cpCircleShapeNew( bodies[i], 0.5, cpvzero ) );
	}
	kcc_snapshot* s = snapshot_new();
	static cpBB boxes[COUNT];
	for ( int layout = 0; layout < 4; ++layout )
	{
		bool filtered = layout == 3;
		s_seed = 17u + (uint32_t)( filtered ? 0 : layout );
		for ( int i = 0; i < COUNT; ++i )
		{
			double span = layout == 0 || filtered ? 400.0 : 10000.0;
			double x = span * ( random_unit() - 0.5 ), y = 0.25 * span * ( random_unit() - 0.5 );
			double size = layout == 0 || filtered ? 4.0 * random_unit() : 0.01 * random_unit();
			boxes[i] = cpBBNew( x, y, x + size, y + 0.5 * size );
			if ( i % 9 == 0 )
			{
				boxes[i] = cpBBNew( x, y, x, y ); // a point
			}
			if ( layout != 2 && i % 23 == 0 )
			{
				boxes[i] = cpBBNew( -0.5 * span, y, 0.5 * span, y + span * random_unit() ); // across the map
			}
			// Filtered: categories 1, 2 and 4 in turn, every fifth shape a sensor, every seventh masking category 8
			// out; the characters are in category 8, see categories 1 and 2 and sense 4.
			cpBitmask category = (cpBitmask)1 << ( i % 3 );
			cpBitmask mask = filtered && i % 7 == 0 ? ~(cpBitmask)8 : CP_ALL_CATEGORIES;
			bool sensor = filtered && i % 5 == 0;
			cpShapeSetFilter( shapes[i], cpShapeFilterNew( CP_NO_GROUP, filtered ? category : 1u, mask ) );
			cpShapeSetSensor( shapes[i], sensor );
			// (A sensor is read by its category alone, whatever the characters' filter.)
			readable[i] = filtered == false || ( sensor ? category == 4u : category != 4u && mask != ~(cpBitmask)8 );
		}
		boxes[5] = cpBBNew( NAN, 0.0, 1.0, 1.0 );
		boxes[6] = cpBBNew( 0.0, 0.0, INFINITY, 1.0 );
		boxes[7] = cpBBNew( 2.0, 0.0, 1.0, 1.0 ); // inverted
		boxes[8] = cpBBNew( 0.0, -INFINITY, 1.0, 1.0 );
		s->shape_count = 0;
		s->body_count = 0;
		assert_true( kcc_snapshot_read( s, space, 0 ) );
		if ( filtered )
		{
			s->readers = cpShapeFilterNew( CP_NO_GROUP, 8u, 3u );
			s->sensor_readers = cpShapeFilterNew( CP_NO_GROUP, CP_ALL_CATEGORIES, 4u );
		}
		check_grid( s, boxes, readable, COUNT );
		kcc_snapshot_spent( s );
	}
	kcc_snapshot_free( s );
	for ( int i = 0; i < COUNT; ++i )
	{
		cpSpaceRemoveShape( space, shapes[i] );
		cpShapeFree( shapes[i] );
		cpSpaceRemoveBody( space, bodies[i] );
		cpBodyFree( bodies[i] );
	}
	cpSpaceFree( space );
}

// ---------------------------------------------------------------------------------------------------------------
// Waves

#define GHOSTS 400
#define GHOST_CATEGORY 8u

static void ghosts_build( scene** s, kcc_controller** c )
{
	*s = scene_create( 1.0f );
	scene_add_tile_row( *s, -20, -1, 40 );
	scene_commit( *s, 3 );
	for ( int i = 0; i < GHOSTS; ++i )
	{
		kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( -1.0f + 0.005f * (float)i, 0.61f ) );
		def.filter = cpShapeFilterNew( CP_NO_GROUP, GHOST_CATEGORY, ~GHOST_CATEGORY );
		c[i] = kcc_controller_create( ( *s )->space, &def );
		assert_non_null( c[i] );
	}
}

static void ghosts_destroy( scene* s, kcc_controller** c )
{
	for ( int i = 0; i < GHOSTS; ++i )
	{
		kcc_controller_destroy( c[i] );
	}
	scene_destroy( s );
}

// Characters packed within one another's reach (400 in 2 units: walking each one's influence box in the grid would
// cost more than the batch allows) that ignore one another: no move reads a shape another moves, so the batch leaves
// their shapes out of its grid, finds their waves without walking it, and runs them all in one wave (as sequential
// calls would move them).
static void test_packed_characters_that_ignore_each_other_move_in_one_wave( void** state )
{
	(void)state;
	static kcc_controller* a[GHOSTS];
	static kcc_controller* b[GHOSTS];
	static vec2s in[GHOSTS];
	scene *sa, *sb;
	ghosts_build( &sa, a );
	ghosts_build( &sb, b );
	kcc_thread_pool* pool = kcc_thread_pool_create( 2 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	for ( int frame = 0; frame < 8; ++frame )
	{
		for ( int i = 0; i < GHOSTS; ++i )
		{
			in[i] = kcc_v2( ( i + frame ) % 3 == 0 ? 6.0f : -6.0f, -3.0f );
		}
		assert_int_equal( kcc_move_and_slide_batch( a, GHOSTS, in, 1.0f / 60.0f, NULL, NULL, &tasks ), KCC_OK );
		const kcc_snapshot* snapshot = *kcc_static_index_snapshot( a[0]->static_index );
		assert_int_equal( snapshot->wave_count, 1 );
		assert_int_equal( snapshot->largest_wave, GHOSTS );
		// No move reads another's shape: the grid the batch built (kept until the next batch) lists none of them.
		assert_int_equal( snapshot->cell_start[snapshot->columns * snapshot->rows], 0 );
		for ( int i = 0; i < GHOSTS; ++i )
		{
			assert_int_equal( kcc_controller_move_and_slide( b[i], in[i], 1.0f / 60.0f, NULL, NULL ), KCC_OK );
			vec2s pa = kcc_controller_get_position( a[i] ), pb = kcc_controller_get_position( b[i] );
			assert_memory_equal( &pa, &pb, sizeof( vec2s ) );
		}
	}
	kcc_thread_pool_destroy( pool );
	ghosts_destroy( sa, a );
	ghosts_destroy( sb, b );
}

// Where the last batch listed body in the snapshot (its bodies stay listed after the batch), or -1.
static int listed_body( const kcc_snapshot* snapshot, const cpBody* body )
{
	for ( int b = 0; b < snapshot->sorted_count; ++b )
	{
		if ( snapshot->bodies[b].body == body )
		{
			return b;
		}
	}
	return -1;
}

// count characters standing 6 apart on a long floor, character i given velocity (1 + spread i, -2).
static scene* characters_on_floor( kcc_controller** c, vec2s* velocities, int count, float spread )
{
	scene* s = scene_create( 1.0f );
	scene_add_box( s, -20.0f, -1.0f, 20.0f, 0.0f );
	kcc_controller_def def = kcc_default_controller_def();
	for ( int i = 0; i < count; ++i )
	{
		def.position = kcc_v2( -6.0f + 6.0f * (float)i, 0.61f );
		c[i] = scene_create_controller( s, &def );
		assert_non_null( c[i] );
		velocities[i] = kcc_v2( 1.0f + spread * (float)i, -2.0f );
	}
	return s;
}

// A batch marks its characters' bodies in the snapshot, and the next read trusts the mark (kinematic, not read again)
// while the same body is listed in the same place. A destroyed character's mark goes with it: a body made later,
// perhaps at the freed body's address and in its place, is read (a dynamic one counted as dynamic).
static void test_character_bodies_are_known_until_destroyed( void** state )
{
	(void)state;
	enum
	{
		CHARACTERS = 3
	};
	kcc_controller* c[CHARACTERS];
	vec2s velocities[CHARACTERS];
	scene* s = characters_on_floor( c, velocities, CHARACTERS, 0.0f );
	cpBody* platform = cpSpaceAddBody( s->space, cpBodyNewKinematic() );
	cpBodySetPosition( platform, cpv( 0.0, 8.0 ) );
	scene_keep_extra( s, cpBoxShapeNew( platform, 2.0, 0.2, 0.0 ) ); // freed with its body by scene_destroy
	const float dt = 1.0f / 60.0f;
	for ( int frame = 0; frame < 2; ++frame )
	{
		assert_int_equal( kcc_move_and_slide_batch( c, CHARACTERS, velocities, dt, NULL, NULL, NULL ), KCC_OK );
		const kcc_snapshot* snapshot = *kcc_static_index_snapshot( c[0]->static_index );
		for ( int i = 0; i < CHARACTERS; ++i )
		{
			int b = c[i]->batch_body;
			assert_int_equal( b, listed_body( snapshot, c[i]->body ) );
			assert_ptr_equal( snapshot->bodies[b].body, c[i]->body );
			assert_ptr_equal( snapshot->bodies[b].controller, c[i] );
		}
		int p = listed_body( snapshot, platform );
		assert_true( p >= 0 && snapshot->bodies[p].controller == NULL );
		assert_int_equal( snapshot->dynamic_count, 0 );
	}
	kcc_snapshot* snapshot = *kcc_static_index_snapshot( c[0]->static_index );
	int freed = c[1]->batch_body;
	kcc_controller_destroy( c[1] );
	assert_null( snapshot->bodies[freed].controller );
	c[1] = c[2];
	cpBody* crate = cpSpaceAddBody( s->space, cpBodyNew( 1.0, cpMomentForBox( 1.0, 0.5, 0.5 ) ) );
	cpBodySetPosition( crate, cpv( 0.0, 4.0 ) );
	scene_keep_extra( s, cpBoxShapeNew( crate, 0.5, 0.5, 0.0 ) );
	assert_int_equal( kcc_move_and_slide_batch( c, CHARACTERS - 1, velocities, dt, NULL, NULL, NULL ), KCC_OK );
	int k = listed_body( snapshot, crate );
	assert_true( k >= 0 && snapshot->bodies[k].controller == NULL );
	assert_int_equal( snapshot->dynamic_count, 1 );
	for ( int i = 0; i < CHARACTERS - 1; ++i )
	{
		kcc_controller_destroy( c[i] );
	}
	scene_destroy( s );
}

// The next batch's read as it runs it (the calling thread, the workers' shapes, then the characters') gives each
// character's shape as Chipmunk holds it: the read takes a character's from its controller, and this says the
// controller kept it right. A character whose shape was replaced (fresh) is read from Chipmunk instead, as a body the
// batch has not met.
static void assert_batch_read_as_fresh( kcc_controller* const* c, int count, const kcc_controller* fresh )
{
	kcc_snapshot* s = *kcc_static_index_snapshot( c[0]->static_index );
	cpSpace* space = c[0]->space;
	assert_true( kcc_snapshot_read_bodies( s, space, false ) );
	bool read = kcc_snapshot_read_shapes( s, 0, s->body_count );
	assert_true( read );
	assert_int_equal( s->character_count, fresh != NULL ? count - 1 : count );
	kcc_snapshot_read_characters( s );
	assert_true( kcc_snapshot_read_end( s, read, 0, true ) );
	assert_read_as_fresh( s, space );
	for ( int i = 0; i < count; ++i )
	{
		int b = c[i]->batch_body;
		assert_true( b >= 0 && b < s->body_count );
		assert_ptr_equal( s->bodies[b].controller, c[i] == fresh ? NULL : c[i] );
		assert_ptr_equal( s->shapes[s->bodies[b].first_shape].shape, kcc_controller_get_shape( c[i] ) );
	}
	kcc_snapshot_spent( s );
}

// Everything that places a character's body or shape in Chipmunk between batches (single moves, set_position,
// set_shape, set_up, set_state, batches with and without deferred sync, kcc_space_sync, cpSpaceStep) leaves the
// controller with the box Chipmunk holds, which the next batch reads instead of Chipmunk's memory.
static void test_character_shapes_read_from_their_controllers( void** state )
{
	(void)state;
	enum
	{
		CHARACTERS = 3
	};
	kcc_controller* c[CHARACTERS];
	vec2s velocities[CHARACTERS];
	scene* s = characters_on_floor( c, velocities, CHARACTERS, 1.0f );
	kcc_thread_pool* pool = kcc_thread_pool_create( 2 );
	assert_non_null( pool );
	kcc_task_system tasks = kcc_thread_pool_task_system( pool );
	const float dt = 1.0f / 60.0f;
	for ( int step = 0; step < 10; ++step )
	{
		assert_int_equal( kcc_move_and_slide_batch( c, CHARACTERS, velocities, dt, NULL, NULL, step % 2 ? &tasks : NULL ),
						  KCC_OK );
		assert_batch_read_as_fresh( c, CHARACTERS, NULL );
		kcc_controller* k = c[step % CHARACTERS];
		switch ( step )
		{
			case 0:
				assert_int_equal( kcc_controller_move_and_slide( k, kcc_v2( -3.0f, -1.0f ), dt, NULL, NULL ), KCC_OK );
				break;
			case 1:
				assert_int_equal( kcc_controller_set_position( k, kcc_v2( 4.5f, 1.25f ) ), KCC_OK );
				break;
			case 2:
			{
				kcc_shape box = kcc_make_box( kcc_v2( 0.4f, 0.5f ), 0.0f );
				assert_int_equal( kcc_controller_set_shape( k, &box ), KCC_OK );
				break;
			}
			case 3:
				assert_int_equal( kcc_controller_set_up( k, glms_vec2_normalize( kcc_v2( 0.3f, 1.0f ) ) ), KCC_OK );
				break;
			case 4:
				assert_int_equal( kcc_space_set_deferred_sync( s->space, true ), KCC_OK );
				break;
			case 5:
				assert_int_equal( kcc_space_sync( s->space ), KCC_OK );
				break;
			case 6:
				cpSpaceStep( s->space, dt );
				break;
			case 7:
			{
				kcc_controller_state saved = kcc_controller_get_state( c[0] );
				saved.position = kcc_v2( -2.0f, 3.0f );
				assert_int_equal( kcc_controller_set_state( k, &saved ), KCC_OK );
				break;
			}
			case 8:
				assert_int_equal( kcc_space_set_deferred_sync( s->space, false ), KCC_OK );
				break;
			default:
				break;
		}
		assert_batch_read_as_fresh( c, CHARACTERS, step == 2 ? k : NULL );
	}
	kcc_thread_pool_destroy( pool );
	for ( int i = 0; i < CHARACTERS; ++i )
	{
		kcc_controller_destroy( c[i] );
	}
	scene_destroy( s );
}

// A character's body and shape are the controller's: a shape added to the body, the shape's sensor flag or its filter
// changed by the game is named by builds with asserts at the next batch (which takes them from the controller).
static void test_changed_character_shapes_are_named( void** state )
{
	(void)state;
	enum
	{
		CHARACTERS = 2
	};
	kcc_controller* c[CHARACTERS];
	vec2s velocities[CHARACTERS];
	scene* s = characters_on_floor( c, velocities, CHARACTERS, 0.0f );
	const float dt = 1.0f / 60.0f;
	kcc_set_assert_fcn( record_assert );
	assert_int_equal( kcc_move_and_slide_batch( c, CHARACTERS, velocities, dt, NULL, NULL, NULL ), KCC_OK );
	cpShape* shape = kcc_controller_get_shape( c[1] );
	cpShapeFilter filter = cpShapeGetFilter( shape );
	for ( int change = 0; change < 3; ++change )
	{
		cpShape* hat = NULL;
		if ( change == 0 )
		{
			hat = cpSpaceAddShape( s->space, cpCircleShapeNew( kcc_controller_get_body( c[1] ), 0.2, cpv( 0.0, 0.8 ) ) );
		}
		else if ( change == 1 )
		{
			cpShapeSetSensor( shape, cpTrue );
		}
		else
		{
			cpShapeSetFilter( shape, cpShapeFilterNew( CP_NO_GROUP, 1, 1 ) );
		}
		reset_asserts();
		assert_int_equal( kcc_move_and_slide_batch( c, CHARACTERS, velocities, dt, NULL, NULL, NULL ), KCC_OK );
		expect_message( "kcc_move_and_slide_batch", "changed outside kcc2d" );
		if ( hat != NULL )
		{
			cpSpaceRemoveShape( s->space, hat );
			cpShapeFree( hat );
		}
		cpShapeSetSensor( shape, cpFalse );
		cpShapeSetFilter( shape, filter );
		reset_asserts();
		assert_int_equal( kcc_move_and_slide_batch( c, CHARACTERS, velocities, dt, NULL, NULL, NULL ), KCC_OK );
		assert_int_equal( s_assert_count, 0 );
	}
	kcc_set_assert_fcn( NULL );
	for ( int i = 0; i < CHARACTERS; ++i )
	{
		kcc_controller_destroy( c[i] );
	}
	scene_destroy( s );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_pending_shapes_kept_whatever_their_hints ),
		cmocka_unit_test( test_pending_bodies_marked_by_shares ),
		cmocka_unit_test( test_read_of_the_same_bodies_sees_every_change ),
		cmocka_unit_test( test_grid_lists_each_cells_shapes_in_order ),
		cmocka_unit_test( test_packed_characters_that_ignore_each_other_move_in_one_wave ),
		cmocka_unit_test( test_character_bodies_are_known_until_destroyed ),
		cmocka_unit_test( test_character_shapes_read_from_their_controllers ),
		cmocka_unit_test( test_changed_character_shapes_are_named ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
