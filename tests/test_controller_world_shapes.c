// SPDX-License-Identifier: MIT
// Chipmunk shapes to core shapes through the public API (controller/chipmunk_shapes.c): circles and segments are
// recognised by their geometry, so a wrong guess would call a polygon getter on them, which aborts. Random shapes of
// every kind (degenerate ones too: points, zero-radius segments, hair-thin capsules, flat and two-vertex polygons,
// polygons over the vertex limit), on the static body and on turned kinematic bodies, near and far from the origin,
// must come out as the geometry they were made with.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../controller/chipmunk_bridge.h"
#include "../controller/internal.h"
#include "controller_scene.h"

typedef struct shape_case
{
	cpShape* shape;
	int kind;          // 0 circle, 1 segment, 2 polygon
	cpVect a, b;       // circle: centre in a; segment: ends
	double radius;
	int count;         // polygon
	cpVect vertices[16];
} shape_case;

static double random_double( uint32_t* state, double lo, double hi )
{
	*state = *state * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (double)( *state >> 8 ) / 16777216.0;
}

// The world position of a local point of the shape's body.
static cpVect world_of( const cpShape* shape, cpVect local )
{
	return cpBodyLocalToWorld( cpShapeGetBody( shape ), local );
}

static shape_case make_case( cpSpace* space, uint32_t* rng, int index )
{
	shape_case sc = { 0 };
	double far = index % 3 == 0 ? 1.0e4 : 1.0;
	cpBody* body = cpSpaceGetStaticBody( space );
	if ( index % 2 == 1 )
	{
		body = cpSpaceAddBody( space, cpBodyNewKinematic() );
		cpBodySetPosition( body, cpv( random_double( rng, -far, far ), random_double( rng, -far, far ) ) );
		cpBodySetAngle( body, random_double( rng, -4.0, 4.0 ) );
	}
	cpVect o = cpv( random_double( rng, -far, far ), random_double( rng, -far, far ) );
	double size = index % 5 == 0 ? 1.0e-3 : random_double( rng, 0.05, 3.0 );
	sc.kind = index % 3;
	sc.radius = index % 4 == 0 ? 0.0 : index % 7 == 0 ? 1.0e-9 * size : random_double( rng, 0.0, size );
	if ( sc.kind == 0 )
	{
		sc.a = o;
		sc.shape = cpCircleShapeNew( body, sc.radius, o );
	}
	else if ( sc.kind == 1 )
	{
		double angle = index % 11 == 0 ? 0.0 : random_double( rng, -4.0, 4.0 );
		double length = index % 13 == 0 ? 0.0 : size;
		sc.a = o;
		sc.b = cpvadd( o, cpvmult( cpvforangle( angle ), length ) );
		sc.shape = cpSegmentShapeNew( body, sc.a, sc.b, sc.radius );
	}
	else
	{
		// Convex: points on an ellipse (2 points: a flat polygon; up to 14: split into fan pieces).
		sc.count = index % 17 == 0 ? 2 : 3 + (int)random_double( rng, 0.0, 12.0 );
		double start = random_double( rng, 0.0, 6.0 );
		double squash = index % 19 == 0 ? 0.0 : random_double( rng, 0.2, 1.0 );
		for ( int i = 0; i < sc.count; ++i )
		{
			double angle = start + 2.0 * CP_PI * i / sc.count;
			sc.vertices[i] = cpvadd( o, cpv( size * cos( angle ), squash * size * sin( angle ) ) );
		}
		sc.shape = cpPolyShapeNewRaw( body, sc.count, sc.vertices, sc.radius );
	}
	cpSpaceAddShape( space, sc.shape );
	kcc_space_static_changed( space ); // static shapes are read by the controllers' static index
	return sc;
}

// The candidate the controller found for shape (fan piece 0), converted.
static kcc_candidate* convert( kcc_controller* c, const shape_case* sc )
{
	cpBB bb = cpShapeGetBB( sc->shape );
	c->move->origin = kcc_v2( (float)( 0.5 * ( bb.l + bb.r ) ), (float)( 0.5 * ( bb.b + bb.t ) ) );
	kcc_aabb region = { kcc_bridge_relative( cpv( bb.l, bb.b ), c->move->origin ), kcc_bridge_relative( cpv( bb.r, bb.t ), c->move->origin ) };
	region.min = glms_vec2_subs( region.min, 1.0e-3f ); // the float frame rounds the box
	region.max = glms_vec2_adds( region.max, 1.0e-3f );
	kcc_world_gather( c, region );
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		if ( c->move->candidates[i].shape == sc->shape && c->move->candidates[i].piece == 0 )
		{
			return kcc_candidate_ready( c, c->move->candidates + i );
		}
	}
	return NULL;
}

static double point_error( vec2s local, vec2s origin, cpVect expected )
{
	cpVect got = kcc_bridge_world( origin, local );
	return cpvdist( got, expected );
}

static void test_every_kind_is_recognised( void** state )
{
	(void)state;
	uint32_t rng = 12345u;
	int counts[3] = { 0 }, as_round = 0, as_polygon = 0, pieces = 0;
	for ( int batch = 0; batch < 20; ++batch )
	{
		cpSpace* space = cpSpaceNew();
		kcc_controller_def def = kcc_default_controller_def();
		def.position = kcc_v2( 5.0e5f, 5.0e5f ); // out of the way
		def.max_candidates = 1024;
		kcc_controller* c = kcc_controller_create( space, &def );
		assert_non_null( c );
		cpShape* made[100];
		for ( int n = 0; n < 100; ++n )
		{
			shape_case sc = make_case( space, &rng, batch * 100 + n );
			made[n] = sc.shape;
			kcc_candidate* cand = convert( c, &sc );
			assert_non_null( cand );
			counts[sc.kind] += 1;
			const kcc_shape* core = &cand->core;
			double scale = 1.0e-6 * ( 1.0 + cpvlength( world_of( sc.shape, sc.kind == 2 ? sc.vertices[0] : sc.a ) ) );
			if ( sc.kind == 0 )
			{
				// A circle: a disc of the same centre and radius.
				assert_int_equal( core->type, KCC_SHAPE_CIRCLE );
				assert_true( point_error( core->circle.center, c->move->origin, world_of( sc.shape, sc.a ) ) <= scale );
				assert_true( fabs( core->circle.radius - sc.radius ) <= scale );
				as_round += 1;
			}
			else if ( sc.kind == 1 )
			{
				// A segment: a capsule with the same ends (either order), or a disc when its ends meet.
				cpVect wa = world_of( sc.shape, sc.a ), wb = world_of( sc.shape, sc.b );
				if ( core->type == KCC_SHAPE_CIRCLE )
				{
					assert_true( cpvdist( wa, wb ) <= scale );
					assert_true( point_error( core->circle.center, c->move->origin, wa ) <= scale );
				}
				else
				{
					assert_int_equal( core->type, KCC_SHAPE_CAPSULE );
					double same = point_error( core->capsule.a, c->move->origin, wa ) + point_error( core->capsule.b, c->move->origin, wb );
					double swapped = point_error( core->capsule.a, c->move->origin, wb ) + point_error( core->capsule.b, c->move->origin, wa );
					assert_true( fmin( same, swapped ) <= 2.0 * scale );
				}
				as_round += 1;
			}
			else
			{
				// A polygon: its vertices (piece 0 of a large one holds vertex 0), or a capsule when it is flat.
				if ( core->type == KCC_SHAPE_POLYGON )
				{
					assert_true( point_error( core->polygon.vertices[0], c->move->origin, world_of( sc.shape, sc.vertices[0] ) ) <=
								 scale );
					as_polygon += 1;
					pieces += sc.count > KCC_MAX_POLYGON_VERTICES;
				}
				else
				{
					assert_true( core->type == KCC_SHAPE_CAPSULE || core->type == KCC_SHAPE_CIRCLE );
					assert_true( sc.count == 2 || sc.radius >= 0.0 );
				}
			}
		}
		kcc_controller_destroy( c );
		for ( int n = 0; n < 100; ++n )
		{
			cpBody* body = cpShapeGetBody( made[n] );
			cpSpaceRemoveShape( space, made[n] );
			cpShapeFree( made[n] );
			if ( body != cpSpaceGetStaticBody( space ) )
			{
				cpSpaceRemoveBody( space, body );
				cpBodyFree( body );
			}
		}
		cpSpaceFree( space );
	}
	print_message( "recognised %d circles, %d segments (%d round in all), %d polygons (%d over the vertex limit)\n",
				   counts[0], counts[1], as_round, as_polygon, pieces );
	assert_true( counts[0] > 500 && counts[1] > 500 && as_polygon > 500 && pieces > 50 );
}

// The shapes that a bounding box alone can not tell apart: a square polygon and a circle of the same box, a box
// thinner than the tolerance (a capsule to within it) and a capsule, a right triangle and the segment along its
// hypotenuse.
static void test_lookalikes( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 100.0f, 100.0f );
	kcc_controller* c = kcc_controller_create( space, &def );
	cpBody* ground = cpSpaceGetStaticBody( space );
	cpVect square[4] = { cpv( -1, -1 ), cpv( 1, -1 ), cpv( 1, 1 ), cpv( -1, 1 ) };
	cpVect thin[4] = { cpv( -1, -1.0e-12 ), cpv( 1, -1.0e-12 ), cpv( 1, 1.0e-12 ), cpv( -1, 1.0e-12 ) };
	cpVect triangle[3] = { cpv( 0, 0 ), cpv( 1, 0 ), cpv( 1, 1 ) };
	shape_case cases[6] = { { .shape = cpPolyShapeNewRaw( ground, 4, square, 0.0 ) },
							{ .shape = cpCircleShapeNew( ground, 1.0, cpvzero ) },
							{ .shape = cpPolyShapeNewRaw( ground, 4, thin, 0.25 ) },
							{ .shape = cpSegmentShapeNew( ground, cpv( -1, 0 ), cpv( 1, 0 ), 0.25 ) },
							{ .shape = cpPolyShapeNewRaw( ground, 3, triangle, 0.0 ) },
							{ .shape = cpSegmentShapeNew( ground, cpv( 0, 0 ), cpv( 1, 1 ), 0.0 ) } };
	const kcc_shape_type expected[6] = { KCC_SHAPE_POLYGON, KCC_SHAPE_CIRCLE, KCC_SHAPE_CAPSULE, KCC_SHAPE_CAPSULE,
										 KCC_SHAPE_POLYGON, KCC_SHAPE_CAPSULE };
	for ( int i = 0; i < 6; ++i )
	{
		cpSpaceAddShape( space, cases[i].shape );
		kcc_space_static_changed( space );
		kcc_candidate* cand = convert( c, cases + i );
		assert_non_null( cand );
		assert_int_equal( cand->core.type, expected[i] );
		cpSpaceRemoveShape( space, cases[i].shape );
		cpShapeFree( cases[i].shape );
		kcc_space_static_changed( space );
	}
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

// A box's normals are those of its float edges, bit for bit: (e.y / |e|, -e.x / |e|) for each edge e of the converted
// vertices, whichever vertex it starts at and wherever it lies from the frame's origin (sides of every size, signed
// zeros at the origin, sides that round to nothing far from it).
static void test_box_normals_are_their_float_edges( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	kcc_controller_def def = kcc_default_controller_def();
	def.position = kcc_v2( 5.0e5f, 5.0e5f ); // out of the way
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	const double sides[6] = { 1.0, 0.5, 3.0e-3, 1.0e-21, 7.0e3, 0.3 };
	const double places[4] = { 0.0, -0.5, 1.0e7, -3.0e4 };
	int boxes = 0, checked = 0;
	for ( int k = 0; k < 6 * 6 * 4 * 4 * 2 * 4; ++k )
	{
		double w = sides[k % 6], h = sides[( k / 6 ) % 6], x = places[( k / 36 ) % 4];
		int first = ( k / 144 ) % 4;
		bool clockwise = ( k / 576 ) % 2 == 1;
		// Zeros of either sign on the bottom side (and on the left one at x = 0): a side's zero may be -0.
		double z0 = ( k / 1152 ) & 1 ? -0.0 : 0.0, z1 = ( k / 1152 ) & 2 ? -0.0 : 0.0;
		cpVect corners[4] = { cpv( x + z1, z0 ), cpv( x + w, z1 ), cpv( x + w, h ), cpv( x + z0, h ) };
		cpVect vertices[4];
		for ( int i = 0; i < 4; ++i )
		{
			vertices[i] = corners[clockwise ? ( first + 4 - i ) % 4 : ( first + i ) % 4];
		}
		cpShape* shape = cpSpaceAddShape( space, cpPolyShapeNewRaw( cpSpaceGetStaticBody( space ), 4, vertices, 0.0 ) );
		kcc_space_static_changed( space );
		// The frame's origin at the box's first corner (local zeros there, -0 included) or far from it.
		c->move->origin = k % 2 == 0 ? kcc_v2( (float)x, 0.0f ) : kcc_v2( 0.0f, 0.0f );
		cpBB bb = cpShapeGetBB( shape );
		kcc_aabb region = { kcc_bridge_relative( cpv( bb.l, bb.b ), c->move->origin ),
							kcc_bridge_relative( cpv( bb.r, bb.t ), c->move->origin ) };
		kcc_world_gather( c, kcc_aabb_inflate( region, 1.0f ) );
		assert_int_equal( c->move->candidate_count, 1 );
		const kcc_shape* core = &kcc_candidate_ready( c, c->move->candidates )->core;
		if ( core->type == KCC_SHAPE_POLYGON )
		{
			boxes += 1;
			const kcc_polygon* p = &core->polygon;
			for ( int i = 0; i < p->count; ++i )
			{
				vec2s a = p->vertices[i], b = p->vertices[( i + 1 ) % p->count];
				vec2s e = kcc_v2( b.x - a.x, b.y - a.y );
				float length = sqrtf( e.x * e.x + e.y * e.y );
				vec2s expected = length > 0.0f ? kcc_v2( e.y / length, -e.x / length ) : kcc_v2( 0.0f, 0.0f );
				assert_memory_equal( &p->normals[i], &expected, sizeof( expected ) );
				checked += 1;
			}
		}
		cpSpaceRemoveShape( space, shape );
		cpShapeFree( shape );
	}
	print_message( "%d boxes, %d normals checked\n", boxes, checked );
	assert_true( boxes > 300 && checked == 4 * boxes );
	kcc_controller_destroy( c );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_every_kind_is_recognised ),
		cmocka_unit_test( test_lookalikes ),
		cmocka_unit_test( test_box_normals_are_their_float_edges ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
