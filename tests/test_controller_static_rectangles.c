// SPDX-License-Identifier: MIT
// A static box tile converts through the static index's short path (controller/chipmunk_shapes.c: two x and two y
// rounded, the rectangle's normals) to the very core Chipmunk's polygon gives through the general path: for every
// first vertex and winding, sides of every size (sides that round to nothing far from the frame's origin included,
// where the general path makes a capsule or cleans the polygon), signed zeros, near and far from the origin. The casts'
// checks of the core, made once as it is converted, are those kcc_make_proxies makes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../controller/box_tile.h"
#include "../controller/chipmunk_bridge.h"
#include "../controller/internal.h"
#include "../controller/static_index.h"
#include "../geometry/internal.h"

// The core's geometry, bit for bit (a polygon's centroid is no part of it: nothing in a move reads it).
static void assert_same_core( const kcc_shape* a, const kcc_shape* b )
{
	assert_int_equal( a->type, b->type );
	switch ( a->type )
	{
		case KCC_SHAPE_CIRCLE:
			assert_memory_equal( &a->circle, &b->circle, sizeof( a->circle ) );
			break;
		case KCC_SHAPE_CAPSULE:
			assert_memory_equal( &a->capsule, &b->capsule, sizeof( a->capsule ) );
			break;
		case KCC_SHAPE_POLYGON:
			assert_int_equal( a->polygon.count, b->polygon.count );
			assert_memory_equal( &a->polygon.radius, &b->polygon.radius, sizeof( float ) );
			assert_memory_equal( a->polygon.vertices, b->polygon.vertices, (size_t)a->polygon.count * sizeof( vec2s ) );
			assert_memory_equal( a->polygon.normals, b->polygon.normals, (size_t)a->polygon.count * sizeof( vec2s ) );
			break;
		default:
			break;
	}
}

// A core that is the box from lo to hi rounded by radius, bit for bit, with a box tile's normals (kcc_cast_box_trusted
// casts that box as the polygon): each corner's coordinates are lo's or hi's, each side's normal is along an axis, with
// the zero coordinate the difference of its vertices gives (+0 across a side along x, -0 along y).
static void assert_box_core( const kcc_shape* core, vec2s lo, vec2s hi, float radius )
{
	assert_int_equal( core->type, KCC_SHAPE_POLYGON );
	assert_int_equal( core->polygon.count, 4 );
	assert_memory_equal( &core->polygon.radius, &radius, sizeof( float ) );
	for ( int i = 0; i < 4; ++i )
	{
		vec2s v = core->polygon.vertices[i], w = core->polygon.vertices[( i + 1 ) % 4], n = core->polygon.normals[i];
		assert_true( memcmp( &v.x, &lo.x, sizeof( float ) ) == 0 || memcmp( &v.x, &hi.x, sizeof( float ) ) == 0 );
		assert_true( memcmp( &v.y, &lo.y, sizeof( float ) ) == 0 || memcmp( &v.y, &hi.y, sizeof( float ) ) == 0 );
		vec2s expected = v.y == w.y ? kcc_v2( 0.0f, v.y == lo.y ? -1.0f : 1.0f ) : kcc_v2( v.x == lo.x ? -1.0f : 1.0f, -0.0f );
		assert_memory_equal( &n, &expected, sizeof( vec2s ) );
	}
}

// The one candidate of a gather around the shape's box, converted.
static kcc_shape convert_alone( kcc_controller* c, const cpShape* shape )
{
	cpBB bb = cpShapeGetBB( shape );
	kcc_aabb region = { kcc_bridge_relative( cpv( bb.l, bb.b ), c->move->origin ),
						kcc_bridge_relative( cpv( bb.r, bb.t ), c->move->origin ) };
	// Grown by more than float resolves far from the origin.
	float margin = 100.0f + 1.0e-5f * ( fabsf( c->move->origin.x ) + fabsf( c->move->origin.y ) );
	kcc_world_gather( c, kcc_aabb_inflate( region, margin ) );
	assert_int_equal( c->move->candidate_count, 1 );
	return kcc_candidate_ready( c, c->move->candidates )->core;
}

static void test_a_static_box_converts_as_chipmunks_polygon( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 5.0e5f, 5.0e5f ); // out of the way
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	const double sides[7] = { 1.0, 0.5, 3.0e-3, 1.0e-21, 7.0e3, 0.3, 0.0 };
	const double places[4] = { 0.0, -0.5, 1.0e7, -3.0e4 };
	int short_path = 0, polygons = 0, others = 0, out_of_range = 0, boxes = 0;
	for ( int k = 0; k < 7 * 7 * 4 * 4 * 2 * 4 * 2; ++k )
	{
		double w = sides[k % 7], h = sides[( k / 7 ) % 7], x = places[( k / 49 ) % 4];
		int first = ( k / 196 ) % 4;
		bool clockwise = ( k / 784 ) % 2 == 1;
		double z0 = ( k / 1568 ) & 1 ? -0.0 : 0.0, z1 = ( k / 1568 ) & 2 ? -0.0 : 0.0;
		double radius = ( k / 6272 ) % 2 == 1 ? 0.25 : 0.0;
		cpVect corners[4] = { cpv( x + z1, z0 ), cpv( x + w, z1 ), cpv( x + w, h ), cpv( x + z0, h ) };
		cpVect vertices[4];
		for ( int i = 0; i < 4; ++i )
		{
			vertices[i] = corners[clockwise ? ( first + 4 - i ) % 4 : ( first + i ) % 4];
		}
		cpBody* ground = cpSpaceGetStaticBody( space );
		cpShape* shape = cpSpaceAddShape( space, cpPolyShapeNewRaw( ground, 4, vertices, radius ) );
		kcc_space_static_changed( space );
		assert_true( kcc_static_index_ready( c->static_index ) );
		// The frame's origin at the box's first corner, far from it, where the box's sides round to nothing, or beyond
		// the casts' range.
		const vec2s origins[5] = { kcc_v2( (float)x, 0.0f ), kcc_v2( 0.0f, 0.0f ), kcc_v2( -4.0e8f, 3.0e8f ),
								   kcc_v2( -3.0e9f, 0.0f ), kcc_v2( 0.0f, 2.0e9f ) };
		c->move->origin = origins[k % 5];
		kcc_shape from_index = convert_alone( c, shape );
		const kcc_candidate* cand = c->move->candidates;
		assert_non_null( cand->source );
		short_path += cand->source->rectangle;
		// The casts' checks, made once: what kcc_make_proxies would check on each cast.
		kcc_proxy proxies[KCC_MAX_PROXIES];
		bool proxy = from_index.type == KCC_SHAPE_POLYGON && kcc_make_proxies( &from_index, proxies ) > 0;
		assert_true( cand->cast_ready == proxy );
		out_of_range += from_index.type == KCC_SHAPE_POLYGON && cand->cast_ready == false;
		// The box the sweeps cast without converting it (kcc_local_box) is that core: for a box tile in range, in a
		// move's frame (its origin within 1e7, the largest max_coordinate).
		vec2s lo, hi;
		bool frame = fabsf( c->move->origin.x ) <= 1.0e7f && fabsf( c->move->origin.y ) <= 1.0e7f;
		if ( frame && cand->source->rectangle_in_range && kcc_local_box( cand, c->move->origin, &lo, &hi ) )
		{
			assert_box_core( &from_index, lo, hi, cand->source->radius );
			assert_true( cand->cast_ready );
			boxes += 1;
		}
		kcc_static_index* index = c->static_index;
		c->static_index = NULL; // the same shape from Chipmunk, through the general path
		kcc_shape from_chipmunk = convert_alone( c, shape );
		c->static_index = index;
		assert_null( cand->source );
		assert_same_core( &from_index, &from_chipmunk );
		proxy = from_chipmunk.type == KCC_SHAPE_POLYGON && kcc_make_proxies( &from_chipmunk, proxies ) > 0;
		assert_true( cand->cast_ready == proxy );
		polygons += from_index.type == KCC_SHAPE_POLYGON;
		others += from_index.type != KCC_SHAPE_POLYGON;
		cpSpaceRemoveShape( space, shape );
		cpShapeFree( shape );
	}
	print_message( "%d boxes on the short path (%d cast as boxes); %d polygons (%d beyond the casts' range), %d other "
				   "cores\n",
				   short_path, boxes, polygons, out_of_range, others );
	assert_true( short_path > 2500 && boxes > 400 && polygons > 1000 && out_of_range > 200 && others > 500 );
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

// A box tile is cast as a box without checking its values only where every move's frame holds them: its corners
// within KCC_BOX_TILE_RANGE of the world's origin, and a valid radius.
static void test_a_box_tile_in_range_is_flagged( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller_def def = kcc_default_controller_def();
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	const double places[5] = { 0.0, -8.9e8, 8.9e8, 9.1e8, -2.0e9 };
	int flagged = 0;
	const double radii[3] = { 0.0, 0.25, 9.5e8 };
	for ( int k = 0; k < 15; ++k )
	{
		double x = places[k % 5], y = k % 2 == 0 ? 3.0 : -x, radius = radii[k / 5];
		cpVect corners[4] = { cpv( x, y ), cpv( x + 1.0e3, y ), cpv( x + 1.0e3, y + 2.0e3 ), cpv( x, y + 2.0e3 ) };
		cpShape* shape = cpSpaceAddShape( space, cpPolyShapeNewRaw( cpSpaceGetStaticBody( space ), 4, corners, radius ) );
		kcc_space_static_changed( space );
		const kcc_static_index* index = c->static_index;
		assert_true( kcc_static_index_ready( index ) );
		assert_int_equal( index->shape_count, 1 );
		const kcc_static_shape* s = index->shapes;
		assert_ptr_equal( s->shape, shape );
		bool in_range = radius < 1.0;
		for ( int i = 0; i < 4; ++i )
		{
			in_range &= fabs( corners[i].x ) <= KCC_BOX_TILE_RANGE && fabs( corners[i].y ) <= KCC_BOX_TILE_RANGE;
		}
		assert_true( s->rectangle );
		assert_true( s->rectangle_in_range == in_range );
		flagged += in_range;
		cpSpaceRemoveShape( space, shape );
		cpShapeFree( shape );
	}
	assert_int_equal( flagged, 6 ); // the places 0, -8.9e8 and 8.9e8, with the radii 0 and 0.25
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_static_box_converts_as_chipmunks_polygon ),
		cmocka_unit_test( test_a_box_tile_in_range_is_flagged ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
