// SPDX-License-Identifier: MIT
// The static index (controller/static_index.c): the static shapes of a space, read once, answer every move's static
// query without Chipmunk.
// - On random static worlds (circles, segments, polygons over the vertex limit, rounded polygons, a turned static
//   body, sensors, filters with groups, one-way and pushable categories) the index finds exactly the static shapes
//   Chipmunk's cpSpaceBBQuery finds, each once, and a move's gather holds the same candidates, converted to the
//   same core shapes bit for bit, as when every shape comes from Chipmunk.
// - Its order depends only on the shapes: the same with Chipmunk's tree and its spatial hash.
// - kcc_space_static_changed after adding, removing and moving a static shape; until it is called, moves see the
//   old shapes, and a removed and freed shape is only an identity (run under AddressSanitizer: never dereferenced).
//   kcc_space_static_shape_removed takes one shape out at once.
// - It answers each shape's Chipmunk area (bit for bit) and surface velocity, though it keeps an area only where the
//   points do not give it and a velocity only where there is one; a level of box tiles costs at most 80 bytes each.
// - A box tile's record keeps no points (its corners are its bb's, checked bit for bit) and converts to exactly the
//   shape its points give, through the rectangle's path and, where a side rounds to zero, the polygon's. The records
//   are 64 bytes, on cache line boundaries.
// - Inside 100,000 overlapping static circles, the index stops once the move's counting no longer matters; past that
//   count a move asks Chipmunk nothing (cpSpaceBBQuery counted through a wrapper), and still syncs what deferred
//   batches left pending.
// - The query's cells and box tests (SSE2 where the machine has it) give what the build's kcc_column, kcc_row and
//   cpBBIntersects give, at cell edges, outside the grid, and for NaN and infinite coordinates.
// - The grid's rows span exactly the columns their shapes cover, and its cells list exactly the shapes covering them;
//   a query (over empty rows, on and a hair off the entries' box steps) reports what a scan of every shape reports, in
//   the same order.
// - A character's cache of the static shapes around it gives each gather the candidates the walk gives, in the same
//   order, while it drifts, jumps, queries large boxes, in a crowd and with a small candidate buffer; a full buffer
//   keeps the shapes the walk finds first.
// - On Linux its arrays of 4 MiB or more ask for huge pages (madvise, seen through a wrapper), smaller ones do not.
#if defined( __linux__ )
#define _DEFAULT_SOURCE // madvise's advice values under -std=c11
#include <sys/mman.h>
#include <unistd.h>
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../controller/chipmunk_bridge.h"
#include "../controller/internal.h"
#include "../controller/static_index.h"
#include "alloc_hooks.h"
#include "controller_scene.h"
#include "query_count.h"

#define ONE_WAY_CATEGORY ( (cpBitmask)1 << 1 )
#define PUSHABLE_CATEGORY ( (cpBitmask)1 << 2 )
#define ZONE_CATEGORY ( (cpBitmask)1 << 3 )
#define MAX_FOUND 4096

static double random_double( uint32_t* state, double lo, double hi )
{
	*state = *state * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (double)( *state >> 8 ) / 16777216.0;
}

static int random_int( uint32_t* state, int n )
{
	return (int)random_double( state, 0.0, (double)n ) % n;
}

// One random shape on body around o (every kind, degenerate ones too).
static cpShape* random_shape( uint32_t* rng, cpBody* body, cpVect o )
{
	double size = random_double( rng, 0.05, 2.5 );
	double radius = random_int( rng, 3 ) == 0 ? 0.0 : random_double( rng, 0.0, 0.5 );
	switch ( random_int( rng, 4 ) )
	{
		case 0:
			return cpCircleShapeNew( body, radius, o );
		case 1:
		{
			cpVect b = cpvadd( o, cpvmult( cpvforangle( random_double( rng, -4.0, 4.0 ) ), size ) );
			return cpSegmentShapeNew( body, o, b, radius );
		}
		case 2:
			return cpBoxShapeNew2( body, cpBBNew( o.x, o.y, o.x + size, o.y + 0.5 * size ), radius );
		default:
		{
			// Convex: points on an ellipse, up to 14 (fan pieces beyond 8).
			cpVect v[14];
			int count = 3 + random_int( rng, 12 );
			double start = random_double( rng, 0.0, 6.0 ), squash = random_double( rng, 0.2, 1.0 );
			for ( int i = 0; i < count; ++i )
			{
				double a = start + 2.0 * CP_PI * i / count;
				v[i] = cpvadd( o, cpv( size * cos( a ), squash * size * sin( a ) ) );
			}
			return cpPolyShapeNewRaw( body, count, v, radius );
		}
	}
}

typedef struct random_world
{
	cpSpace* space;
	cpBody* turned;   // a second static body, moved and turned
	cpShape* shapes[1024];
	cpBody* bodies[64]; // kinematic and dynamic bodies
	int count, body_count;
} random_world;

static cpShapeFilter random_filter( uint32_t* rng )
{
	static const cpBitmask categories[5] = { 1u, ONE_WAY_CATEGORY, PUSHABLE_CATEGORY, ONE_WAY_CATEGORY | 1u,
											 CP_ALL_CATEGORIES };
	cpBitmask mask = random_int( rng, 4 ) == 0 ? (cpBitmask)random_int( rng, 16 ) : CP_ALL_CATEGORIES;
	cpGroup group = random_int( rng, 6 ) == 0 ? (cpGroup)7 : CP_NO_GROUP;
	return cpShapeFilterNew( group, categories[random_int( rng, 5 )], mask );
}

static void random_world_create( random_world* w, uint32_t seed, bool tree )
{
	memset( w, 0, sizeof( *w ) );
	w->space = cpSpaceNew();
	if ( tree == false )
	{
		cpSpaceUseSpatialHash( w->space, 1.0, 4096 );
	}
	w->turned = cpBodyNewStatic();
	cpBodySetPosition( w->turned, cpv( 3.0, -2.0 ) );
	cpBodySetAngle( w->turned, 0.7 );
	uint32_t rng = seed;
	for ( int i = 0; i < 400; ++i )
	{
		cpVect o = cpv( random_double( &rng, -20.0, 20.0 ), random_double( &rng, -20.0, 20.0 ) );
		int where = random_int( &rng, 10 );
		cpBody* body = where < 6 ? cpSpaceGetStaticBody( w->space ) : w->turned;
		if ( where == 9 && w->body_count < 64 )
		{
			// Not static: Chipmunk answers for these.
			body = random_int( &rng, 2 ) == 0 ? cpBodyNewKinematic() : cpBodyNew( 1.0, 1.0 );
			cpBodySetPosition( body, o );
			cpSpaceAddBody( w->space, body );
			w->bodies[w->body_count++] = body;
			o = cpvzero;
		}
		cpShape* shape = random_shape( &rng, body, o );
		cpShapeSetFilter( shape, random_filter( &rng ) );
		cpShapeSetSensor( shape, random_int( &rng, 10 ) == 0 ? cpTrue : cpFalse );
		if ( i % 9 == 0 )
		{
			// A belt, left or right; every third a zero with a sign (no belt).
			cpVect belt = i % 27 == 0 ? cpv( -0.0, 0.0 ) : cpv( i % 2 == 0 ? 1.5 : -0.25 * i, 0.5 );
			cpShapeSetSurfaceVelocity( shape, belt );
		}
		cpSpaceAddShape( w->space, shape );
		w->shapes[w->count++] = shape;
	}
}

static void random_world_destroy( random_world* w )
{
	for ( int i = 0; i < w->count; ++i )
	{
		cpSpaceRemoveShape( w->space, w->shapes[i] );
		cpShapeFree( w->shapes[i] );
	}
	for ( int i = 0; i < w->body_count; ++i )
	{
		cpSpaceRemoveBody( w->space, w->bodies[i] );
		cpBodyFree( w->bodies[i] );
	}
	cpBodyFree( w->turned );
	cpSpaceFree( w->space );
}

typedef struct found_list
{
	const cpShape* shapes[MAX_FOUND];
	int count;
} found_list;

static bool collect_static( const kcc_static_shape* s, void* data )
{
	found_list* f = data;
	assert_true( f->count < MAX_FOUND );
	f->shapes[f->count++] = s->shape;
	return true;
}

static void collect_chipmunk( cpShape* shape, void* data )
{
	found_list* f = data;
	if ( cpBodyGetType( cpShapeGetBody( shape ) ) == CP_BODY_TYPE_STATIC )
	{
		assert_true( f->count < MAX_FOUND );
		f->shapes[f->count++] = shape;
	}
}

static int compare_pointers( const void* a, const void* b )
{
	uintptr_t x = (uintptr_t)*(const cpShape* const*)a, y = (uintptr_t)*(const cpShape* const*)b;
	return ( x > y ) - ( x < y );
}

// Bitwise equality of two converted shapes, field by field (padding aside).
static bool same_core( const kcc_shape* a, const kcc_shape* b )
{
	if ( a->type != b->type )
	{
		return false;
	}
	switch ( a->type )
	{
		case KCC_SHAPE_CIRCLE:
			return memcmp( &a->circle, &b->circle, sizeof( a->circle ) ) == 0;
		case KCC_SHAPE_CAPSULE:
			return memcmp( &a->capsule, &b->capsule, sizeof( a->capsule ) ) == 0;
		case KCC_SHAPE_POLYGON:
		{
			const kcc_polygon *p = &a->polygon, *q = &b->polygon;
			return p->count == q->count && p->radius == q->radius && p->centroid.x == q->centroid.x &&
				   p->centroid.y == q->centroid.y &&
				   memcmp( p->vertices, q->vertices, (size_t)p->count * sizeof( vec2s ) ) == 0 &&
				   memcmp( p->normals, q->normals, (size_t)p->count * sizeof( vec2s ) ) == 0;
		}
		default:
			return true;
	}
}

// The gather's candidates, all converted (fan pieces added), as a copy.
static int gather_all( kcc_controller* c, kcc_aabb region, kcc_candidate* out )
{
	kcc_world_gather( c, region );
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		kcc_candidate_ready( c, c->move->candidates + i );
	}
	memcpy( out, c->move->candidates, (size_t)c->move->candidate_count * sizeof( kcc_candidate ) );
	return c->move->candidate_count;
}

static const kcc_candidate* find_candidate( const kcc_candidate* list, int n, const cpShape* shape, int piece )
{
	for ( int i = 0; i < n; ++i )
	{
		if ( list[i].shape == shape && list[i].piece == piece )
		{
			return list + i;
		}
	}
	return NULL;
}

static void test_the_index_finds_what_chipmunk_finds( void** state )
{
	(void)state;
	static kcc_candidate with_index[1024], from_chipmunk[1024];
	static found_list a, b;
	int compared = 0, queries = 0, converted = 0;
	for ( uint32_t seed = 1; seed <= 12; ++seed )
	{
		random_world w;
		random_world_create( &w, seed * 7919u, seed % 2 == 0 );
		kcc_controller_def def = kcc_default_controller_def();
		def.position = kcc_v2( 0.0f, 0.0f );
		def.max_candidates = 1024;
		def.one_way_categories = ONE_WAY_CATEGORY;
		def.pushable_categories = PUSHABLE_CATEGORY;
		if ( seed % 3 == 0 )
		{
			def.filter = cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES & ~PUSHABLE_CATEGORY );
			def.sensor_mask = ZONE_CATEGORY | 1u;
		}
		kcc_controller* c = kcc_controller_create( w.space, &def );
		assert_non_null( c );
		assert_true( kcc_static_index_ready( c->static_index ) );
		uint32_t rng = seed;
		for ( int q = 0; q < 150; ++q )
		{
			cpVect lo = cpv( random_double( &rng, -24.0, 22.0 ), random_double( &rng, -24.0, 22.0 ) );
			double w_box = q % 10 == 0 ? random_double( &rng, 10.0, 40.0 ) : random_double( &rng, 0.0, 4.0 );
			double h_box = q % 10 == 0 ? random_double( &rng, 10.0, 40.0 ) : random_double( &rng, 0.0, 4.0 );
			cpBB box = cpBBNew( lo.x, lo.y, lo.x + w_box, lo.y + h_box );
			// The index against Chipmunk, for a filter of every kind.
			cpShapeFilter filter = q % 3 == 0 ? CP_SHAPE_FILTER_ALL : random_filter( &rng );
			a.count = b.count = 0;
			kcc_static_index_query( c->static_index, box, filter, collect_static, &a );
			cpSpaceBBQuery( w.space, box, filter, collect_chipmunk, &b );
			qsort( (void*)a.shapes, (size_t)a.count, sizeof( a.shapes[0] ), compare_pointers );
			qsort( (void*)b.shapes, (size_t)b.count, sizeof( b.shapes[0] ), compare_pointers );
			assert_int_equal( a.count, b.count ); // each shape once, none missed
			assert_memory_equal( a.shapes, b.shapes, (size_t)a.count * sizeof( a.shapes[0] ) );
			compared += a.count;
			queries += 1;
			// A move's gather: the same candidates converted to the same shapes as from Chipmunk alone.
			c->move->origin = kcc_v2( (float)lo.x, (float)lo.y );
			kcc_aabb region = { kcc_v2( 0.0f, 0.0f ), kcc_v2( (float)w_box, (float)h_box ) };
			int n_index = gather_all( c, region, with_index );
			bool overflow = c->move->candidate_overflow;
			kcc_static_index* index = c->static_index;
			c->static_index = NULL; // every shape from Chipmunk, as before the index
			int n_chipmunk = gather_all( c, region, from_chipmunk );
			c->static_index = index;
			assert_false( overflow || c->move->candidate_overflow );
			assert_int_equal( n_index, n_chipmunk );
			for ( int i = 0; i < n_index; ++i )
			{
				const kcc_candidate* x = with_index + i;
				const kcc_candidate* y = find_candidate( from_chipmunk, n_chipmunk, x->shape, x->piece );
				assert_non_null( y );
				assert_true( ( x->source != NULL ) ==
							 ( cpBodyGetType( cpShapeGetBody( x->shape ) ) == CP_BODY_TYPE_STATIC ) );
				assert_true( y->source == NULL );
				assert_memory_equal( &x->bb, &y->bb, sizeof( cpBB ) );
				assert_memory_equal( &x->bounds, &y->bounds, sizeof( kcc_aabb ) );
				assert_true( x->sensor == y->sensor && x->blocks == y->blocks && x->one_way == y->one_way &&
							 x->pushable == y->pushable );
				assert_true( same_core( &x->core, &y->core ) );
				converted += x->source != NULL;
			}
		}
		kcc_controller_destroy( c );
		random_world_destroy( &w );
	}
	print_message( "%d queries, %d static shapes found by both, %d static candidates converted identically\n", queries,
				   compared, converted );
	assert_true( compared > 5000 && converted > 5000 );
}

typedef struct record_list
{
	const kcc_static_shape* records[MAX_FOUND];
	int count;
} record_list;

static bool collect_records( const kcc_static_shape* s, void* data )
{
	record_list* f = data;
	assert_true( f->count < MAX_FOUND );
	f->records[f->count++] = s;
	return true;
}

// The index keeps most shapes' area as the points that give it and a surface velocity only where there is one:
// what it answers is still Chipmunk's area bit for bit (a key of the candidates' sort) and Chipmunk's velocity.
static void test_the_index_keeps_chipmunks_area_and_surface_velocity( void** state )
{
	(void)state;
	static record_list found;
	int computed = 0, kept = 0, belts = 0;
	for ( uint32_t seed = 1; seed <= 6; ++seed )
	{
		random_world w;
		random_world_create( &w, seed * 104729u, seed % 2 == 0 );
		kcc_static_index* index = kcc_static_index_acquire( w.space );
		assert_true( kcc_static_index_ready( index ) );
		found.count = 0;
		kcc_static_index_query( index, cpBBNew( -100.0, -100.0, 100.0, 100.0 ), CP_SHAPE_FILTER_ALL, collect_records,
								&found );
		for ( int i = 0; i < found.count; ++i )
		{
			const kcc_static_shape* s = found.records[i];
			cpShape* shape = s->shape;
			double area = kcc_static_shape_area( s ), expected = cpShapeGetArea( shape );
			assert_memory_equal( &area, &expected, sizeof( area ) );
			cpVect v = kcc_static_shape_surface_velocity( s ), belt = cpShapeGetSurfaceVelocity( shape );
			if ( belt.x == 0.0 && belt.y == 0.0 )
			{
				assert_true( v.x == 0.0 && v.y == 0.0 && s->velocity_follows == false );
			}
			else
			{
				assert_memory_equal( &v, &belt, sizeof( v ) );
				belts += 1;
			}
			kept += s->area_follows;
			computed += s->area_follows == false;
		}
		kcc_static_index_release( index );
		random_world_destroy( &w );
	}
	print_message( "%d areas from the points, %d kept, %d belts\n", computed, kept, belts );
	assert_true( computed > 200 && kept > 200 && belts > 50 );
}

// The static candidates' boxes in the order of a gather.
static int static_order( kcc_controller* c, kcc_aabb region, cpBB* out )
{
	kcc_world_gather( c, region );
	int n = 0;
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		if ( c->move->candidates[i].source != NULL )
		{
			out[n++] = c->move->candidates[i].bb;
		}
	}
	return n;
}

static void test_the_order_does_not_depend_on_chipmunks_index( void** state )
{
	(void)state;
	static cpBB tree_order[1024], hash_order[1024];
	random_world tree, hash;
	random_world_create( &tree, 4242u, true );
	random_world_create( &hash, 4242u, false );
	kcc_controller_def def = kcc_default_controller_def();
	def.max_candidates = 1024;
	kcc_controller* ct = kcc_controller_create( tree.space, &def );
	kcc_controller* ch = kcc_controller_create( hash.space, &def );
	assert_true( ct != NULL && ch != NULL );
	uint32_t rng = 99u;
	int total = 0;
	for ( int q = 0; q < 100; ++q )
	{
		vec2s o = kcc_v2( (float)random_double( &rng, -20.0, 20.0 ), (float)random_double( &rng, -20.0, 20.0 ) );
		float size = (float)random_double( &rng, 0.5, 12.0 );
		kcc_aabb region = { kcc_v2( -size, -size ), kcc_v2( size, size ) };
		ct->move->origin = ch->move->origin = o;
		int nt = static_order( ct, region, tree_order );
		int nh = static_order( ch, region, hash_order );
		assert_int_equal( nt, nh );
		assert_memory_equal( tree_order, hash_order, (size_t)nt * sizeof( cpBB ) );
		total += nt;
	}
	print_message( "%d static candidates in the same order with the tree and the hash\n", total );
	assert_true( total > 1000 );
	kcc_controller_destroy( ct );
	kcc_controller_destroy( ch );
	random_world_destroy( &tree );
	random_world_destroy( &hash );
}

// A floating character on open ground moves right by 3 from x = 0; a wall at x in [1, 1.5] stops it at
// 1 - half width - skin.
static float walk_right( kcc_controller* c, const kcc_controller_def* def, cpShape** hit )
{
	assert_int_equal( kcc_controller_set_position( c, kcc_v2( 0.0f, 0.0f ) ), KCC_OK );
	kcc_move_result r;
	vec2s out;
	assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 180.0f, 0.0f ), 1.0f / 60.0f, &out, &r ), KCC_OK );
	(void)def;
	*hit = r.collision_count > 0 ? r.collisions[0].shape : NULL;
	return r.position.x;
}

static void test_static_changed_sees_added_removed_and_moved_shapes( void** state )
{
	(void)state;
	for ( int tree = 0; tree < 2; ++tree )
	{
		cpSpace* space = cpSpaceNew();
		if ( tree == 0 )
		{
			cpSpaceUseSpatialHash( space, 1.0, 256 );
		}
		kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( 0.0f, 0.0f ) );
		def.mode = KCC_MODE_FLOATING;
		def.mass = 70.0f; // move_and_slide looks at the bodies it met (impulses): never at a static shape's
		def.pushable_categories = PUSHABLE_CATEGORY;
		kcc_controller* c = kcc_controller_create( space, &def );
		assert_non_null( c );
		float blocked_at = 1.0f - test_character_half_width( TEST_CAPSULE ) - def.skin;
		cpShape* hit = NULL;

		// Added: not seen until kcc_space_static_changed.
		cpShape* wall = cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( 1.0, -2.0, 1.5, 2.0 ), 0.0 ) );
		cpShapeSetFilter( wall, cpShapeFilterNew( CP_NO_GROUP, PUSHABLE_CATEGORY, CP_ALL_CATEGORIES ) );
		assert_true( fabsf( walk_right( c, &def, &hit ) - 3.0f ) <= 1e-4f && hit == NULL );
		kcc_space_static_changed( space );
		assert_true( fabsf( walk_right( c, &def, &hit ) - blocked_at ) <= 1e-4f );
		assert_ptr_equal( hit, wall ); // a static shape in pushable_categories blocks like a wall

		// Removed and freed: its copy in the index still blocks, as an identity only (ASan: never read).
		cpShape* removed = wall;
		cpSpaceRemoveShape( space, wall );
		cpShapeFree( wall );
		assert_true( fabsf( walk_right( c, &def, &hit ) - blocked_at ) <= 1e-4f );
		assert_ptr_equal( hit, removed );
		kcc_space_static_changed( space );
		assert_true( fabsf( walk_right( c, &def, &hit ) - 3.0f ) <= 1e-4f && hit == NULL );

		// Removed with the cheap call (before it is freed): gone at once.
		wall = cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( 1.0, -2.0, 1.5, 2.0 ), 0.0 ) );
		kcc_space_static_changed( space );
		assert_true( fabsf( walk_right( c, &def, &hit ) - blocked_at ) <= 1e-4f && hit == wall );
		cpSpaceRemoveShape( space, wall );
		kcc_space_static_shape_removed( space, wall );
		cpShapeFree( wall );
		assert_true( fabsf( walk_right( c, &def, &hit ) - 3.0f ) <= 1e-4f && hit == NULL );
		kcc_space_static_shape_removed( space, c->shape ); // not a static shape: nothing happens

		// Moved (a static body of its own, reindexed as Chipmunk asks): seen where it was until the call.
		cpBody* body = cpBodyNewStatic();
		cpShape* moving = cpSpaceAddShape( space, cpBoxShapeNew2( body, cpBBNew( 1.0, -2.0, 1.5, 2.0 ), 0.0 ) );
		kcc_space_static_changed( space );
		assert_true( fabsf( walk_right( c, &def, &hit ) - blocked_at ) <= 1e-4f && hit == moving );
		cpBodySetPosition( body, cpv( 1.0, 0.0 ) );
		cpSpaceReindexStatic( space );
		assert_true( fabsf( walk_right( c, &def, &hit ) - blocked_at ) <= 1e-4f && hit == moving );
		kcc_space_static_changed( space );
		assert_true( fabsf( walk_right( c, &def, &hit ) - ( blocked_at + 1.0f ) ) <= 1e-4f && hit == moving );
		// Moved without telling, then removed with the cheap call: found where the index has it, and gone.
		cpBodySetPosition( body, cpv( 3.0, 0.0 ) );
		cpSpaceReindexStatic( space );
		cpSpaceRemoveShape( space, moving );
		kcc_space_static_shape_removed( space, moving );
		cpShapeFree( moving );
		cpBodyFree( body );
		assert_true( fabsf( walk_right( c, &def, &hit ) - 3.0f ) <= 1e-4f && hit == NULL );
		kcc_controller_destroy( c );
		cpSpaceFree( space );
	}
}

// Removed and freed before kcc_space_static_changed: a one-way floor the character stands on (then drops through),
// and a zone it walks out of. The moves report their identities and never read them.
static void test_freed_static_shapes_are_identities_only( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller_def def = test_character_def( TEST_CAPSULE, kcc_v2( 0.0f, 0.61f ) );
	def.one_way_categories = ONE_WAY_CATEGORY;
	def.mass = 70.0f;
	cpShape* floor = cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -5.0, -1.0, 5.0, 0.0 ), 0.0 ) );
	cpShapeSetFilter( floor, cpShapeFilterNew( CP_NO_GROUP, ONE_WAY_CATEGORY, CP_ALL_CATEGORIES ) );
	cpShape* zone = cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( -1.0, 0.0, 1.0, 2.0 ), 0.0 ) );
	cpShapeSetSensor( zone, cpTrue );
	cpShapeSetFilter( zone, cpShapeFilterNew( CP_NO_GROUP, ZONE_CATEGORY, CP_ALL_CATEGORIES ) );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	kcc_move_result r;
	vec2s v;
	assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 0.0f, -10.0f ), 1.0f / 60.0f, &v, &r ), KCC_OK );
	assert_true( r.flags & KCC_ON_FLOOR );
	assert_ptr_equal( r.floor_shape, floor );
	assert_int_equal( r.sensor_count, 1 );
	const cpShape* old_floor = floor;
	const cpShape* old_zone = zone;
	cpSpaceRemoveShape( space, floor );
	cpSpaceRemoveShape( space, zone );
	cpShapeFree( floor );
	cpShapeFree( zone );
	// Still there for the moves: standing, walking out of the zone, then dropping through the floor.
	assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 0.0f, -10.0f ), 1.0f / 60.0f, &v, &r ), KCC_OK );
	assert_true( ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == old_floor );
	assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 120.0f, -10.0f ), 1.0f / 60.0f, &v, &r ), KCC_OK );
	assert_true( r.sensor_event_count == 1 && r.sensor_events[0].shape == old_zone &&
				 r.sensor_events[0].type == KCC_SENSOR_END );
	assert_true( ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == old_floor );
	assert_int_equal( kcc_controller_drop_through( c ), KCC_OK );
	for ( int i = 0; i < 10; ++i )
	{
		assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 0.0f, -10.0f ), 1.0f / 60.0f, &v, &r ), KCC_OK );
	}
	assert_true( r.position.y < -0.5f );
	// Gone once the space says so.
	kcc_space_static_changed( space );
	assert_int_equal( kcc_controller_set_position( c, kcc_v2( 0.0f, 0.61f ) ), KCC_OK );
	assert_int_equal( kcc_controller_move_and_slide( c, kcc_v2( 0.0f, -10.0f ), 1.0f / 60.0f, &v, &r ), KCC_OK );
	assert_true( ( r.flags & KCC_ON_FLOOR ) == 0 && r.sensor_count == 0 && r.sensor_event_count == 0 );
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

static void remove_and_free_now( cpSpace* space, void* shape, void* data )
{
	(void)data;
	cpSpaceRemoveShape( space, shape );
	cpShapeFree( shape );
}

// Removal is not allowed while Chipmunk iterates: after the step.
static void remove_and_free( cpShape* shape, void* data )
{
	cpSpaceAddPostStepCallback( data, remove_and_free_now, shape, NULL );
}

// Two spaces: one index each, shared by their controllers, freed with the last one (LeakSanitizer checks).
static void test_one_index_per_space( void** state )
{
	(void)state;
	cpSpace* s1 = cpSpaceNew();
	cpSpace* s2 = cpSpaceNew();
	cpShape* ground = cpSpaceAddShape( s1, cpSegmentShapeNew( cpSpaceGetStaticBody( s1 ), cpv( -5, 0 ), cpv( 5, 0 ), 0.0 ) );
	kcc_controller_def def = kcc_default_controller_def();
	kcc_controller* a = kcc_controller_create( s1, &def );
	kcc_controller* b = kcc_controller_create( s1, &def );
	kcc_controller* d = kcc_controller_create( s2, &def );
	assert_true( a != NULL && b != NULL && d != NULL );
	assert_ptr_equal( a->static_index, b->static_index );
	assert_ptr_not_equal( a->static_index, d->static_index );
	kcc_controller_destroy( a );
	kcc_space_static_changed( s1 ); // b still uses it
	assert_true( kcc_static_index_ready( b->static_index ) );
	kcc_controller_destroy( b );
	kcc_space_static_changed( s1 ); // no controller: nothing to do
	kcc_controller_destroy( d );
	cpSpaceRemoveShape( s1, ground );
	cpShapeFree( ground );
	cpSpaceFree( s1 );
	cpSpaceFree( s2 );
}

// A character inside 100,000 overlapping static circles (radius 3, centres within 0.5 of it): the move is flagged,
// and the index stopped counting once the count could no longer change how the move is split (Chipmunk's query
// visits them all).
static void test_a_move_inside_100000_circles_stops_early( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	uint32_t rng = 100000u;
	for ( int i = 0; i < 100000; ++i )
	{
		double r = 0.5 * sqrt( random_double( &rng, 0.0, 1.0 ) ), a = random_double( &rng, 0.0, 2.0 * CP_PI );
		cpSpaceAddShape( space, cpCircleShapeNew( cpSpaceGetStaticBody( space ), 3.0, cpv( r * cos( a ), r * sin( a ) ) ) );
	}
	kcc_controller_def def = kcc_default_controller_def();
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	kcc_move_result result;
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.1f, 0.0f ), &result ), KCC_OK );
	print_message( "flags 0x%x, %d shapes counted by the last query\n", (unsigned)result.flags,
				   c->move->candidate_found );
	assert_true( result.flags & ( KCC_CANDIDATES_TRUNCATED | KCC_CRUSHED ) );
	assert_true( c->move->candidate_found <= ( def.max_candidates << KCC_MAX_SPLIT_DEPTH ) + 1 );
	kcc_controller_destroy( c );
	cpSpaceEachShape( space, remove_and_free, space );
	cpSpaceFree( space );
}

static void remove_body_shape( cpBody* body, cpShape* shape, void* data )
{
	(void)body;
	cpSpaceRemoveShape( data, shape );
	cpShapeFree( shape );
}

// count static circles of radius 3, their centres within 0.5 of the origin (the same for a seed).
static void add_circle_cluster( cpSpace* space, int count, uint32_t seed )
{
	for ( int i = 0; i < count; ++i )
	{
		double r = 0.5 * sqrt( random_double( &seed, 0.0, 1.0 ) ), a = random_double( &seed, 0.0, 2.0 * CP_PI );
		cpSpaceAddShape( space, cpCircleShapeNew( cpSpaceGetStaticBody( space ), 3.0, cpv( r * cos( a ), r * sin( a ) ) ) );
	}
}

// Inside more static shapes than a move counts (the buffer full, the count past what decides its splitting), no
// other shape could change the move: it asks Chipmunk nothing, whose query would visit every static shape there.
// - Going to and fro, the only Chipmunk queries are those that clear the cells the spatial hash may have left behind,
//   one per KCC_STALE_REINDEXES reindexes at most; and a kinematic body inside the cluster changes nothing.
// - After a deferred batch, such a move still syncs Chipmunk's index first: the game's query finds a character where
//   the batch left it.
static void test_a_move_past_the_count_asks_chipmunk_nothing( void** state )
{
	(void)state;
	enum { MOVES = 16 };
	const float dt = 1.0f / 60.0f;
	long queries = 0;
	cpSpace* spaces[2];
	kcc_controller* c[2];
	kcc_controller_def def = kcc_default_controller_def();
	def.max_candidates = 16; // counts up to 16 << KCC_MAX_SPLIT_DEPTH = 1,024 shapes
	for ( int k = 0; k < 2; ++k )
	{
		spaces[k] = cpSpaceNew();
		add_circle_cluster( spaces[k], 2000, 2000u );
		c[k] = kcc_controller_create( spaces[k], &def );
		assert_non_null( c[k] );
	}
	cpBody* platform = cpSpaceAddBody( spaces[1], cpBodyNewKinematic() );
	cpSpaceAddShape( spaces[1], cpCircleShapeNew( platform, 1.0, cpv( 0.2, 0.0 ) ) );
	for ( int i = 0; i < MOVES; ++i )
	{
		vec2s v = kcc_v2( i % 2 == 0 ? 6.0f : -6.0f, 0.0f ), out[2];
		kcc_move_result r[2];
		query_count_reset( -1 );
		for ( int k = 0; k < 2; ++k )
		{
			assert_int_equal( kcc_controller_move_and_slide( c[k], v, dt, &out[k], &r[k] ), KCC_OK );
			assert_true( c[k]->move->candidate_found <= ( def.max_candidates << KCC_MAX_SPLIT_DEPTH ) + 1 );
		}
		assert_true( r[0].flags & KCC_CANDIDATES_TRUNCATED );
		assert_int_equal( r[0].flags, r[1].flags );
		assert_memory_equal( &out[0], &out[1], sizeof( out[0] ) );
		vec2s p0 = kcc_controller_get_position( c[0] ), p1 = kcc_controller_get_position( c[1] );
		assert_memory_equal( &p0, &p1, sizeof( p0 ) );
		assert_true( query_count() <= 2 ); // a clear in each space at most
		queries += query_count();
	}
	// The dead entries wait, but not without bound.
	assert_true( queries >= 2 * ( MOVES / KCC_STALE_REINDEXES ) && queries <= 2 * ( MOVES / KCC_STALE_REINDEXES + 1 ) );
	print_message( "%ld Chipmunk queries in %d moves of 2 characters\n", queries, MOVES );

	// A deferred batch moves a character 3 units, outside the cluster; then c[0] moves inside it.
	kcc_controller_def far_def = kcc_default_controller_def();
	far_def.position = kcc_v2( 10.0f, 0.0f );
	kcc_controller* far = kcc_controller_create( spaces[0], &far_def );
	assert_non_null( far );
	assert_int_equal( kcc_space_set_deferred_sync( spaces[0], true ), KCC_OK );
	vec2s v = kcc_v2( 3.0f / dt, 0.0f );
	assert_int_equal( kcc_move_and_slide_batch( &far, 1, &v, dt, NULL, NULL, NULL ), KCC_OK );
	assert_int_equal( kcc_controller_move_and_slide( c[0], kcc_v2( 6.0f, 0.0f ), dt, NULL, NULL ), KCC_OK );
	cpPointQueryInfo info;
	assert_ptr_equal( cpSpacePointQueryNearest( spaces[0], cpv( 13.0, 0.0 ), 0.0, CP_SHAPE_FILTER_ALL, &info ),
					  far->shape );
	kcc_controller_destroy( far );
	cpBodyEachShape( platform, remove_body_shape, spaces[1] );
	cpSpaceRemoveBody( spaces[1], platform );
	cpBodyFree( platform );
	for ( int k = 0; k < 2; ++k )
	{
		kcc_controller_destroy( c[k] );
		cpSpaceEachShape( spaces[k], remove_and_free, spaces[k] );
		cpSpaceFree( spaces[k] );
	}
}

// The box tiles of test_a_box_tile_keeps_no_points: what each is.
typedef struct box_case
{
	cpShape* shape;
	bool plain;         ///< radius 0, not turned, no belt: no points kept where the bb and the points say it all
	bool tiny;          ///< a side that rounds to zero in float far from the character
} box_case;

// A rectangle's four corners from corner `first` of (l, b), (r, b), (r, t), (l, t) on, counter-clockwise or not.
static cpShape* raw_box( cpBody* body, cpBB bb, int first, bool clockwise, double radius )
{
	const cpVect ring[4] = { cpv( bb.l, bb.b ), cpv( bb.r, bb.b ), cpv( bb.r, bb.t ), cpv( bb.l, bb.t ) };
	cpVect v[4];
	for ( int i = 0; i < 4; ++i )
	{
		v[i] = ring[( first + ( clockwise ? 4 - i : i ) ) % 4];
	}
	return cpPolyShapeNewRaw( body, 4, v, radius );
}

// A box tile's record keeps no points when its bb gives its corners bit for bit: it converts to exactly the kcc_shape
// the same record with its points gives, and the one Chipmunk's shape gives, near and far from the character (far, a
// tiny box's side rounds to zero: the rectangle's path gives way to the polygon's). A rounded box, a turned one, a
// belt and a box with a filter group keep their points. The records are 64 bytes each (on a 64-bit target), on cache
// line boundaries.
static void test_a_box_tile_keeps_no_points( void** state )
{
	(void)state;
	enum
	{
		MAX_CASES = 64
	};
	static box_case cases[MAX_CASES];
	int n = 0;
	cpSpace* space = cpSpaceNew();
	cpBody* ground = cpSpaceGetStaticBody( space );
	cpBody* moved = cpBodyNewStatic(); // moved, not turned
	cpBodySetPosition( moved, cpv( 0.375, -7.25 ) );
	cpBody* turned = cpBodyNewStatic();
	cpBodySetAngle( turned, 0.3 );
	const cpBB boxes[] = { { 0.0, 0.0, 1.0, 1.0 }, { -3.5, -2.25, -1.0, 4.0 },
						   { 1e6 + 0.1, -1e6, 1e6 + 2.3, -1e6 + 0.7 }, { -0.0, 2.0, 0.5, 3.0 },
						   { -1.3e-7, 5.0, 0.9, 5.1 } };
	for ( int b = 0; b < (int)( sizeof( boxes ) / sizeof( boxes[0] ) ); ++b )
	{
		cases[n++] = ( box_case ){ cpBoxShapeNew2( ground, boxes[b], 0.0 ), true, false };
		for ( int first = 0; first < 4; ++first )
		{
			// Every corner first, both windings: each corner bit and either side first.
			cases[n++] = ( box_case ){ raw_box( ground, boxes[b], first, false, 0.0 ), true, false };
			cases[n++] = ( box_case ){ raw_box( ground, boxes[b], first, true, 0.0 ), true, false };
		}
		cases[n++] = ( box_case ){ cpBoxShapeNew2( moved, boxes[b], 0.0 ), true, false };
		cases[n++] = ( box_case ){ cpBoxShapeNew2( ground, boxes[b], 0.125 ), false, false };
		cases[n++] = ( box_case ){ cpBoxShapeNew2( turned, boxes[b], 0.0 ), false, false };
	}
	cpShape* belt = cpBoxShapeNew2( ground, cpBBNew( 4.0, 4.0, 6.0, 5.0 ), 0.0 );
	cpShapeSetSurfaceVelocity( belt, cpv( 2.0, 0.0 ) );
	cases[n++] = ( box_case ){ belt, false, false };
	cpShape* grouped = cpBoxShapeNew2( ground, cpBBNew( 4.0, 6.0, 6.0, 7.0 ), 0.0 );
	cpShapeSetFilter( grouped, cpShapeFilterNew( (cpGroup)7, 1u, CP_ALL_CATEGORIES ) );
	cases[n++] = ( box_case ){ grouped, false, false };
	cases[n++] = ( box_case ){ cpBoxShapeNew2( ground, cpBBNew( 1000.0, 8.0, 1000.01, 9.0 ), 0.0 ), true, true };
	cases[n++] = ( box_case ){ cpBoxShapeNew2( ground, cpBBNew( 1000.0, 1000.0, 1001.0, 1000.01 ), 0.0 ), true, true };
	assert_true( n <= MAX_CASES );
	for ( int i = 0; i < n; ++i )
	{
		cpSpaceAddShape( space, cases[i].shape );
	}

	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 0.0f, 20.0f );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	const kcc_static_index* index = c->static_index;
	assert_true( kcc_static_index_ready( index ) );
	if ( sizeof( void* ) == 8 )
	{
		assert_int_equal( sizeof( kcc_static_shape ), 64 );
	}
	assert_int_equal( (uintptr_t)index->shapes % 64, 0 );
	assert_int_equal( index->shape_count, n );

	// The character far away, near, and at each tiny box (whose side then rounds to zero in float).
	const vec2s origins[] = { { { 0.0f, 20.0f } }, { { 0.5f, 0.25f } }, { { -1e6f, 3e5f } }, { { 1e7f, 1e7f } } };
	int without_points = 0, fallbacks = 0;
	for ( int i = 0; i < index->shape_count; ++i )
	{
		const kcc_static_shape* s = index->shapes + i;
		cpShape* shape = s->shape;
		const box_case* k = NULL;
		for ( int j = 0; j < n; ++j )
		{
			k = cases[j].shape == shape ? cases + j : k;
		}
		assert_non_null( k );
		// A plain box keeps no points where its bb holds its corners bit for bit (Chipmunk's bb of { -0.0, ... } has
		// its own zero)
		cpVect world[4];
		kcc_read_polygon_vertices( shape, 4, world );
		cpBB bb = cpShapeGetBB( shape );
		bool in_bb = memcmp( &world[0].x, bb.l == world[0].x ? &bb.l : &bb.r, sizeof( double ) ) == 0 &&
					 memcmp( &world[0].y, bb.b == world[0].y ? &bb.b : &bb.t, sizeof( double ) ) == 0 &&
					 memcmp( &world[2].x, bb.l == world[2].x ? &bb.l : &bb.r, sizeof( double ) ) == 0 &&
					 memcmp( &world[2].y, bb.b == world[2].y ? &bb.b : &bb.t, sizeof( double ) ) == 0;
		// and its points give Chipmunk's area (a moved body's may round differently): nothing follows them.
		double area = cpShapeGetArea( shape ), computed = cpAreaForPoly( 4, world, 0.0 );
		bool area_given = memcmp( &area, &computed, sizeof( area ) ) == 0;
		assert_int_equal( s->corners_in_bb, k->plain && in_bb && area_given );
		assert_true( s->corners_in_bb == ( s->points == NULL ) );
		without_points += s->corners_in_bb;
		// Its points and area as if kept.
		double answered = kcc_static_shape_area( s );
		assert_memory_equal( &answered, &area, sizeof( area ) );
		kcc_static_shape with_points = *s;
		if ( s->type == KCC_SHAPE_POLYGON )
		{
			cpVect corners[4];
			assert_memory_equal( kcc_static_shape_points( s, corners ), world, sizeof( world ) );
			for ( int p = 0; p < 4; ++p )
			{
				cpVect point = kcc_static_shape_point( s, p );
				assert_memory_equal( &point, world + p, sizeof( point ) );
			}
			with_points.corners_in_bb = false;
			with_points.points = s->points != NULL ? s->points : world;
		}
		for ( int o = 0; o < (int)( sizeof( origins ) / sizeof( origins[0] ) ); ++o )
		{
			c->move->origin = origins[o];
			kcc_candidate a = { 0 }, b, d;
			a.shape = shape;
			a.bb = s->bb;
			a.source = s;
			a.blocks = true;
			b = a;
			b.source = &with_points;
			d = a;
			d.source = NULL;
			kcc_world_convert( c, &a );
			kcc_world_convert( c, &b );
			kcc_world_convert( c, &d );
			assert_true( same_core( &a.core, &b.core ) && same_core( &a.core, &d.core ) );
			assert_true( a.cast_ready == b.cast_ready && a.cast_ready == d.cast_ready );
			assert_true( a.one_way == d.one_way && a.pushable == d.pushable );
			cpShapeFilter filter = kcc_static_shape_filter( s ), chipmunk = cpShapeGetFilter( shape );
			assert_memory_equal( &filter, &chipmunk, sizeof( filter ) );
			if ( k->tiny && o == 3 )
			{
				// The rectangle's path gave way: no longer four vertices.
				assert_false( a.core.type == KCC_SHAPE_POLYGON && a.core.polygon.count == 4 );
				fallbacks += s->corners_in_bb;
			}
		}
	}
	print_message( "%d of %d records keep no points, %d through the fallback\n", without_points, n, fallbacks );
	assert_true( without_points >= 40 && fallbacks == 2 );
	kcc_controller_destroy( c );
	for ( int i = 0; i < n; ++i )
	{
		cpSpaceRemoveShape( space, cases[i].shape );
		cpShapeFree( cases[i].shape );
	}
	cpBodyFree( moved );
	cpBodyFree( turned );
	cpSpaceFree( space );
}

static void test_the_query_cells_are_the_builds( void** state )
{
	(void)state;
	kcc_static_index index = { 0 };
	index.bounds = cpBBNew( -3.0, 2.0, 29.0, 18.0 );
	index.cell = 4.0;
	index.inverse_cell = 0.25;
	index.columns = 8;
	index.rows = 4;
	const double values[] = { -INFINITY, -1e300, -3.5, -3.0, -1.0, 0.0, 1.0, 2.0, 4.999999, 5.0, 13.0, 17.999, 18.0,
							  21.0, 29.0, 29.5, 1e300, INFINITY, NAN };
	const int n = (int)( sizeof( values ) / sizeof( values[0] ) );
	int checked = 0;
	for ( int a = 0; a < n; ++a )
	{
		for ( int b = 0; b < n; ++b )
		{
			cpBB box = cpBBNew( values[a], values[b], values[( a + 5 ) % n], values[( b + 3 ) % n] );
			kcc_grid_box query = kcc_grid_box_of( box );
			int i0 = -1, j0 = -1, i1 = -1, j1 = -1;
			bool meets = kcc_grid_box_cells( &index, query, &i0, &j0, &i1, &j1 );
			assert_int_equal( meets, cpBBIntersects( box, index.bounds ) );
			if ( meets )
			{
				assert_int_equal( i0, kcc_column( &index, box.l ) );
				assert_int_equal( j0, kcc_row( &index, box.b ) );
				assert_int_equal( i1, kcc_column( &index, box.r ) );
				assert_int_equal( j1, kcc_row( &index, box.t ) );
				checked += 1;
			}
			cpBB shape = cpBBNew( values[b], values[a], values[( b + 7 ) % n], values[( a + 2 ) % n] );
			assert_int_equal( kcc_grid_box_meets( query, &shape ), cpBBIntersects( box, shape ) );
		}
	}
	assert_true( checked > n );
}

// A level of box tiles: rows of 1x1 tiles 4 apart, a gap every 8 tiles, about square, as in bench/scaling.c (rounded
// by radius).
static cpSpace* tile_level( int tiles, double radius )
{
	int width = 8;
	while ( (double)width * width * 7.0 / 8.0 < 4.0 * tiles )
	{
		width += 8;
	}
	cpSpace* space = cpSpaceNew();
	cpShapeFilter filter = cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES );
	for ( int i = 0, row = 0; i < tiles; ++row )
	{
		for ( int x = 0; x < width && i < tiles; ++x )
		{
			if ( x % 8 != 7 )
			{
				double y = 4.0 * row;
				cpBB bb = cpBBNew( x, y, x + 1.0, y + 1.0 );
				cpShape* tile = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), bb, radius );
				cpShapeSetFilter( tile, filter );
				cpSpaceAddShape( space, tile );
				i += 1;
			}
		}
	}
	return space;
}

// Level 0: a level of 3,000 box tiles; the others: a random world of seed level * seed (w keeps it).
static cpSpace* test_level_create( random_world* w, int level, uint32_t seed )
{
	memset( w, 0, sizeof( *w ) );
	if ( level == 0 )
	{
		return tile_level( 3000, 0.0 );
	}
	random_world_create( w, (uint32_t)level * seed, level % 2 == 0 );
	return w->space;
}

static void test_level_destroy( random_world* w, cpSpace* space, int level )
{
	if ( level == 0 )
	{
		cpSpaceEachShape( space, remove_and_free, space );
		cpSpaceFree( space );
	}
	else
	{
		random_world_destroy( w );
	}
}

// The index of space built through the counting allocator hooks (*before: the bytes they held before).
static kcc_static_index* hooked_index( cpSpace* space, int64_t* before )
{
	kcc_set_allocator( hook_alloc, hook_free, NULL );
	*before = s_hook_live;
	kcc_static_index* index = kcc_static_index_acquire( space );
	assert_true( kcc_static_index_ready( index ) );
	return index;
}

// Frees the index through the hooks (every byte back), then the level.
static void release_hooked_index( kcc_static_index* index, int64_t before, cpSpace* space )
{
	kcc_static_index_release( index );
	assert_true( s_hook_live == before );
	kcc_set_allocator( NULL, NULL, NULL );
	cpSpaceEachShape( space, remove_and_free, space );
	cpSpaceFree( space );
}

// The index holds at most 80 bytes per box tile, grid included: a record of one cache line and no points.
static void test_a_box_tile_costs_at_most_80_bytes( void** state )
{
	(void)state;
	enum
	{
		TILES = 20000
	};
	cpSpace* space = tile_level( TILES, 0.0 );
	int64_t before;
	kcc_static_index* index = hooked_index( space, &before );
	assert_int_equal( index->point_count, 0 ); // box tiles keep no points
	double per_tile = (double)( s_hook_live - before ) / TILES;
	release_hooked_index( index, before, space );
	print_message( "%.1f bytes per box tile\n", per_tile );
	assert_true( per_tile <= 80.0 );
}

// The grid's rows and cells against the shapes: each row's span is the columns its shapes cover, and each cell lists
// the shapes covering it in array order, marked where they start in an earlier column or row.
static void check_grid( const kcc_static_index* index )
{
	int entry_count = 0;
	for ( int j = 0; j < index->rows; ++j )
	{
		int first = index->columns, last = -1;
		for ( int k = 0; k < index->shape_count; ++k )
		{
			cpBB bb = index->shapes[k].bb;
			if ( kcc_row( index, bb.b ) <= j && j <= kcc_row( index, bb.t ) )
			{
				first = kcc_column( index, bb.l ) < first ? kcc_column( index, bb.l ) : first;
				last = kcc_column( index, bb.r ) > last ? kcc_column( index, bb.r ) : last;
			}
		}
		const kcc_grid_row* row = index->grid_rows + j;
		assert_int_equal( row->first, first );
		assert_int_equal( row->last, last );
		for ( int i = first; i <= last; ++i )
		{
			const uint32_t* cell = index->cell_start + row->cells + ( i - first );
			uint32_t e = cell[0];
			for ( int k = 0; k < index->shape_count; ++k )
			{
				cpBB bb = index->shapes[k].bb;
				int i0 = kcc_column( index, bb.l ), j0 = kcc_row( index, bb.b );
				if ( i0 <= i && i <= kcc_column( index, bb.r ) && j0 <= j && j <= kcc_row( index, bb.t ) )
				{
					assert_true( e < cell[1] );
					uint32_t later = ( i > i0 ? KCC_ENTRY_LATER_COLUMN : 0u ) | ( j > j0 ? KCC_ENTRY_LATER_ROW : 0u );
					assert_int_equal( index->entries[e].shape, (uint32_t)k | later );
					e += 1;
				}
			}
			assert_int_equal( e, cell[1] );
			entry_count += (int)( cell[1] - cell[0] );
		}
	}
	assert_true( entry_count >= index->shape_count );
}

// What the walk must report for box: the shapes meeting it whose filter passes, each from the first cell of the
// query holding it, row by row, left to right, in array order within a cell (scanned and sorted, not walked).
typedef struct scan_key
{
	int64_t cell; ///< of the first cell of the query holding the shape, row by row
	int shape;
} scan_key;

static int compare_scan_keys( const void* pa, const void* pb )
{
	const scan_key *a = pa, *b = pb;
	return a->cell != b->cell ? ( a->cell < b->cell ? -1 : 1 ) : ( a->shape > b->shape ) - ( a->shape < b->shape );
}

static int scan_in_walk_order( const kcc_static_index* index, cpBB box, cpShapeFilter filter,
							   const kcc_static_shape** out )
{
	static scan_key keys[MAX_FOUND];
	int n = 0;
	int i0 = kcc_column( index, box.l ), j0 = kcc_row( index, box.b );
	for ( int k = 0; k < index->shape_count; ++k )
	{
		const kcc_static_shape* s = index->shapes + k;
		if ( cpBBIntersects( box, s->bb ) && kcc_filter_rejects( kcc_static_shape_filter( s ), filter ) == false )
		{
			int i = kcc_column( index, s->bb.l ), j = kcc_row( index, s->bb.b );
			i = i > i0 ? i : i0;
			j = j > j0 ? j : j0;
			assert_true( n < MAX_FOUND );
			keys[n].cell = (int64_t)j * index->columns + i;
			keys[n].shape = k;
			n += 1;
		}
	}
	qsort( keys, (size_t)n, sizeof( keys[0] ), compare_scan_keys );
	for ( int k = 0; k < n; ++k )
	{
		out[k] = index->shapes + keys[k].shape;
	}
	return n;
}

// A query box near the shapes of bounds: its corners anywhere, on whole units, on the grid's steps (a 64th of a cell)
// or a hair off them; a point or a box up to 6 units; some over the grid's empty rows and beyond its edges.
static cpBB random_query( uint32_t* rng, cpBB bounds, double cell )
{
	double c[4];
	for ( int k = 0; k < 4; ++k )
	{
		double v = random_double( rng, k % 2 == 0 ? bounds.l - 3.0 : bounds.b - 3.0,
								  k % 2 == 0 ? bounds.r + 3.0 : bounds.t + 3.0 );
		double size = random_double( rng, 0.0, 6.0 );
		v = k >= 2 ? c[k - 2] + ( random_int( rng, 8 ) == 0 ? 0.0 : size ) : v;
		double step = cell / 64.0;
		switch ( random_int( rng, 4 ) )
		{
			case 0:
				v = floor( v );
				break;
			case 1:
				v = floor( v / step ) * step;
				break;
			case 2:
				v = nextafter( floor( v / step ) * step, random_int( rng, 2 ) == 0 ? -INFINITY : INFINITY );
				break;
			default:
				break;
		}
		c[k] = k >= 2 && v < c[k - 2] ? c[k - 2] : v;
	}
	return cpBBNew( c[0], c[1], c[2], c[3] );
}

// The walk against a scan: on a level of tiles with empty rows and on random worlds (their filters too), each query
// reports exactly the scan's shapes in the scan's order, though it skips empty rows and cells and rejects most shapes
// from their entries' boxes, unread.
static void test_the_walk_reports_what_a_scan_reports( void** state )
{
	(void)state;
	static const kcc_static_shape *walked[MAX_FOUND], *scanned[MAX_FOUND];
	int reported = 0, queries = 0;
	for ( int level = 0; level < 5; ++level )
	{
		random_world w;
		cpSpace* space = test_level_create( &w, level, 104729u );
		kcc_static_index* index = kcc_static_index_acquire( space );
		assert_true( kcc_static_index_ready( index ) );
		check_grid( index );
		uint32_t rng = (uint32_t)level + 11u;
		for ( int q = 0; q < 3000; ++q )
		{
			cpBB box = random_query( &rng, index->bounds, index->cell );
			cpShapeFilter filter = level == 0 || q % 3 == 0 ? CP_SHAPE_FILTER_ALL : random_filter( &rng );
			record_list found = { .count = 0 };
			kcc_static_index_query( index, box, filter, collect_records, &found );
			int n = scan_in_walk_order( index, box, filter, scanned );
			assert_int_equal( found.count, n );
			memcpy( (void*)walked, (const void*)found.records, (size_t)n * sizeof( walked[0] ) );
			assert_memory_equal( (const void*)walked, (const void*)scanned, (size_t)n * sizeof( walked[0] ) );
			reported += n;
			queries += 1;
		}
		kcc_static_index_release( index );
		test_level_destroy( &w, space, level );
	}
	print_message( "%d queries, %d shapes reported in the scan's order\n", queries, reported );
	assert_true( reported > 10000 );
}

#if defined( KCC_TEST_WRAPS_MADVISE )
// The library's madvise calls (linked with --wrap=madvise): each range, its advice and the kernel's answer.
enum
{
	MAX_ADVICE = 16
};
static struct
{
	int count;
	uintptr_t start[MAX_ADVICE], end[MAX_ADVICE];
	int advice[MAX_ADVICE], result[MAX_ADVICE];
} s_advice;

int __real_madvise( void* address, size_t length, int advice );
int __wrap_madvise( void* address, size_t length, int advice );
int __wrap_madvise( void* address, size_t length, int advice )
{
	int result = __real_madvise( address, length, advice );
	if ( s_advice.count < MAX_ADVICE )
	{
		int k = s_advice.count++;
		s_advice.start[k] = (uintptr_t)address;
		s_advice.end[k] = (uintptr_t)address + length;
		s_advice.advice[k] = advice;
		s_advice.result[k] = result;
	}
	return result;
}

// The advice given on [memory, memory + size): one call, huge pages, on whole pages of the block and all of them; -1
// when there is none. Its index in s_advice otherwise.
static int advice_on( const void* memory, size_t size )
{
	uintptr_t lo = (uintptr_t)memory, hi = lo + size, page = (uintptr_t)sysconf( _SC_PAGESIZE );
	int found = -1;
	for ( int k = 0; k < s_advice.count; ++k )
	{
		if ( s_advice.start[k] < hi && s_advice.end[k] > lo )
		{
			assert_int_equal( found, -1 );
			assert_int_equal( s_advice.advice[k], MADV_HUGEPAGE );
			assert_true( s_advice.start[k] % page == 0 && s_advice.end[k] % page == 0 );
			assert_true( s_advice.start[k] >= lo && s_advice.start[k] - lo < page );
			assert_true( s_advice.end[k] <= hi && hi - s_advice.end[k] < page );
			found = k;
		}
	}
	return found;
}

// Whether the mapping of this process that holds address has the kernel's "hg" flag (huge pages advised).
static bool advised_huge( const void* address )
{
	FILE* f = fopen( "/proc/self/smaps", "r" );
	assert_non_null( f );
	char line[512];
	bool inside = false, huge = false;
	uintptr_t a = (uintptr_t)address;
	while ( fgets( line, sizeof line, f ) != NULL )
	{
		unsigned long lo, hi;
		if ( sscanf( line, "%lx-%lx ", &lo, &hi ) == 2 && strchr( line, ':' ) != NULL && line[0] != 'V' )
		{
			inside = a >= lo && a < hi;
		}
		else if ( inside && strncmp( line, "VmFlags:", 8 ) == 0 )
		{
			huge = strstr( line, " hg" ) != NULL;
			break;
		}
	}
	fclose( f );
	return huge;
}

// The gather of a character drifting through a world (small steps, jumps, large boxes, a crowded tile level, a small
// candidate buffer): with its cache of the shapes around it, the same candidates in the same order as the walk of the
// index gives for each query, and the cache used for most of them.
static void test_the_cache_around_a_character_finds_what_the_walk_finds( void** state )
{
	(void)state;
	static kcc_candidate cached[1024], walked[1024];
	int held = 0, filled = 0, crowded = 0, buffer_small = 0, compared = 0;
	for ( int level = 0; level < 8; ++level )
	{
		random_world w;
		cpSpace* space = test_level_create( &w, level, 7727u );
		kcc_controller_def def = kcc_default_controller_def();
		def.position = kcc_v2( 0.0f, 0.0f );
		def.max_candidates = level % 4 == 3 ? 16 : 1024;
		def.one_way_categories = ONE_WAY_CATEGORY;
		def.pushable_categories = PUSHABLE_CATEGORY;
		if ( level % 3 == 2 )
		{
			def.filter = cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES & ~PUSHABLE_CATEGORY );
			def.sensor_mask = ZONE_CATEGORY | 1u;
		}
		kcc_controller* c = kcc_controller_create( space, &def );
		assert_non_null( c );
		assert_true( kcc_static_index_ready( c->static_index ) );
		uint32_t rng = (uint32_t)level + 5u;
		cpVect at = cpv( 0.0, 0.0 );
		for ( int q = 0; q < 600; ++q )
		{
			// One draw a statement: the same sequence with every compiler (arguments are evaluated in any order).
			if ( q % 60 == 0 )
			{
				at.x = level == 0 ? random_double( &rng, 0.0, 100.0 ) : random_double( &rng, -20.0, 20.0 );
				at.y = level == 0 ? random_double( &rng, 0.0, 100.0 ) : random_double( &rng, -20.0, 20.0 );
			}
			at.x += random_double( &rng, -0.15, 0.15 );
			at.y += random_double( &rng, -0.15, 0.15 );
			// Every 23rd a large box: on the tile level, more shapes around it than the cache holds.
			bool large = q % 23 == 0;
			float width = (float)random_double( &rng, large ? 10.0 : 0.3, large ? 14.0 : 1.5 );
			float height = (float)random_double( &rng, large ? 10.0 : 0.3, large ? 14.0 : 1.5 );
			c->move->origin = kcc_v2( (float)at.x, (float)at.y );
			kcc_aabb region = { kcc_v2( 0.0f, 0.0f ), kcc_v2( width, height ) };
			kcc_static_cache before = c->static_cache;
			int n = gather_all( c, region, cached );
			int found = c->move->candidate_found;
			bool overflow = c->move->candidate_overflow;
			kcc_static_cache after = c->static_cache;
			bool refilled = memcmp( &before.box, &after.box, sizeof( cpBB ) ) != 0 || before.build != after.build;
			held += refilled == false;
			filled += refilled;
			crowded += after.count < 0;
			buffer_small += after.count > def.max_candidates;
			// The walk: the cache holds the box, with nothing listed.
			c->static_cache.count = -1;
			int m = gather_all( c, region, walked );
			assert_int_equal( c->move->candidate_found, found );
			assert_true( c->move->candidate_overflow == overflow );
			c->static_cache = after;
			assert_int_equal( n, m );
			for ( int i = 0; i < n; ++i )
			{
				const kcc_candidate *x = cached + i, *y = walked + i;
				assert_ptr_equal( x->shape, y->shape );
				assert_ptr_equal( x->source, y->source );
				assert_true( x->piece == y->piece && x->order == y->order );
				assert_memory_equal( &x->bb, &y->bb, sizeof( cpBB ) );
				assert_true( same_core( &x->core, &y->core ) );
			}
			compared += n;
		}
		kcc_controller_destroy( c );
		test_level_destroy( &w, space, level );
	}
	print_message( "%d queries within the cache, %d refilling it (%d around more than it holds, %d more than the "
				   "buffer), %d candidates compared\n",
				   held, filled, crowded, buffer_small, compared );
	assert_true( held > 2 * filled && crowded > 0 && buffer_small > 0 && compared > 5000 );
}

// A full candidate buffer keeps the shapes the walk finds first. Tall bars and small boxes between their tops: a walk
// from below (the cache's) finds every bar before the boxes, one over the tops finds them by column, so the cache,
// which holds them all, is not used for a query meeting more than the buffer holds.
static void test_a_full_buffer_keeps_what_the_walk_keeps( void** state )
{
	(void)state;
	static kcc_candidate cached[64], walked[64];
	cpSpace* space = cpSpaceNew();
	for ( int i = 0; i < 12; ++i )
	{
		double x = 0.5 * i;
		cpBody* ground = cpSpaceGetStaticBody( space );
		cpSpaceAddShape( space, cpBoxShapeNew2( ground, cpBBNew( x, 0.0, x + 0.2, 3.0 ), 0.0 ) );
		cpSpaceAddShape( space, cpBoxShapeNew2( ground, cpBBNew( x + 0.25, 2.2, x + 0.4, 2.4 ), 0.0 ) );
	}
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( -5.0f, 0.0f );
	def.max_candidates = 16;
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	c->move->origin = kcc_v2( 0.0f, 2.1f );
	kcc_aabb region = { kcc_v2( 0.0f, 0.0f ), kcc_v2( 5.8f, 0.4f ) };
	int n = gather_all( c, region, cached );
	assert_true( c->move->candidate_overflow && c->move->candidate_found == 24 );
	assert_true( c->static_cache.count == 24 ); // all of them around the query
	kcc_static_cache around = c->static_cache;
	c->static_cache.count = -1;
	int m = gather_all( c, region, walked );
	c->static_cache = around;
	assert_int_equal( n, 16 );
	assert_int_equal( m, 16 );
	for ( int i = 0; i < n; ++i )
	{
		assert_ptr_equal( cached[i].shape, walked[i].shape );
	}
	kcc_controller_destroy( c );
	cpSpaceEachShape( space, remove_and_free, space );
	cpSpaceFree( space );
}

// The arrays a move walks at random ask for huge pages once they are 4 MiB or more (a level of 120,000 rounded tiles:
// about 8 MB of shape records, on cache line boundaries, and 8 MB of points), on the allocator's memory (freed through
// its hooks); a small block is left alone. Where the kernel takes the advice, the mapping says so.
static void test_a_large_index_asks_for_huge_pages( void** state )
{
	(void)state;
	enum
	{
		TILES = 120000
	};
	s_advice.count = 0;
	void* small = kcc_alloc_walked( (size_t)1 << 20 );
	assert_non_null( small );
	assert_int_equal( s_advice.count, 0 );
	kcc_free( small );

	cpSpace* space = tile_level( TILES, 0.0625 ); // rounded: they keep their points
	int64_t before;
	kcc_static_index* index = hooked_index( space, &before );
	size_t shapes = (size_t)index->shape_count * sizeof( *index->shapes );
	size_t points = (size_t)index->point_count * sizeof( *index->points );
	assert_true( shapes >= (size_t)4 << 20 && points >= (size_t)4 << 20 );
	int k = advice_on( index->shapes, shapes );
	assert_true( k >= 0 );
	assert_true( s_advice.result[k] != 0 || advised_huge( index->shapes + index->shape_count / 2 ) );
	k = advice_on( index->points, points );
	assert_true( k >= 0 );
	assert_true( s_advice.result[k] != 0 || advised_huge( index->points + index->point_count / 2 ) );
	print_message( "%d madvise calls, the kernel %s them\n", s_advice.count,
				   s_advice.result[k] == 0 ? "took" : "refused" );
	release_hooked_index( index, before, space );
}
#endif

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_the_index_finds_what_chipmunk_finds ),
		cmocka_unit_test( test_the_index_keeps_chipmunks_area_and_surface_velocity ),
		cmocka_unit_test( test_the_order_does_not_depend_on_chipmunks_index ),
		cmocka_unit_test( test_static_changed_sees_added_removed_and_moved_shapes ),
		cmocka_unit_test( test_freed_static_shapes_are_identities_only ),
		cmocka_unit_test( test_one_index_per_space ),
		cmocka_unit_test( test_a_move_inside_100000_circles_stops_early ),
		cmocka_unit_test( test_a_move_past_the_count_asks_chipmunk_nothing ),
		cmocka_unit_test( test_a_box_tile_costs_at_most_80_bytes ),
		cmocka_unit_test( test_the_query_cells_are_the_builds ),
		cmocka_unit_test( test_the_walk_reports_what_a_scan_reports ),
		cmocka_unit_test( test_the_cache_around_a_character_finds_what_the_walk_finds ),
		cmocka_unit_test( test_a_full_buffer_keeps_what_the_walk_keeps ),
		cmocka_unit_test( test_a_box_tile_keeps_no_points ),
#if defined( KCC_TEST_WRAPS_MADVISE )
		cmocka_unit_test( test_a_large_index_asks_for_huge_pages ),
#endif
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
