// SPDX-License-Identifier: MIT
// kcc_place_on_floor (issue 16, item 6): spawning was arithmetic (spawn->bounds.min.y + 0.6f + def.skin, the
// capsule's half height hard-coded). The helper drops the def's character straight down from a spawn point onto what
// is below: a flat floor, a 30 degree slope (no slide along it), a moving platform (which then carries it), a one-way
// ledge and a crate (not pushed). A character created where it says stands there: on the floor, a skin above it, not
// pushed out. Nothing in the space moves, and its temporary character leaves the space; bad input gets a status.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kcc/controller.h"

#include <math.h>
#include <stdio.h>

#define SKIN 0.01f
#define HALF_HEIGHT 0.6f // the default capsule

static void count_shape( cpShape* shape, void* data )
{
	(void)shape;
	*(int*)data += 1;
}

static void count_body( cpBody* body, void* data )
{
	(void)body;
	*(int*)data += 1;
}

static int space_count( cpSpace* space )
{
	int n = 0;
	cpSpaceEachShape( space, count_shape, &n );
	cpSpaceEachBody( space, count_body, &n );
	return n;
}

static cpShape* add_static_box( cpSpace* space, double l, double b, double r, double t )
{
	return cpSpaceAddShape( space, cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( l, b, r, t ), 0.0 ) );
}

// A character created at p stands there: on the floor, not pushed out, not moved by a still move.
static kcc_move_result stand_at( cpSpace* space, const kcc_controller_def* def, vec2s p, kcc_controller** out )
{
	kcc_controller_def d = *def;
	d.position = p;
	kcc_controller* c = kcc_controller_create( space, &d );
	assert_non_null( c );
	kcc_move_result r;
	assert_int_equal( kcc_controller_move( c, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
	assert_true( r.flags & KCC_ON_FLOOR );
	assert_false( r.flags & ( KCC_DEPENETRATED | KCC_CRUSHED ) );
	// Where it was put, to the last bits of float rounding (on a slope the rest position is found anew).
	assert_float_equal( r.position.x, p.x, 1e-5 );
	assert_float_equal( r.position.y, p.y, 1e-5 );
	if ( out != NULL )
	{
		*out = c;
	}
	else
	{
		kcc_controller_destroy( c );
	}
	return r;
}

static void test_a_flat_floor( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpShape* floor = add_static_box( space, -10.0, -1.0, 10.0, 0.0 );
	kcc_controller_def def = kcc_default_controller_def();
	int before = space_count( space );
	// From above, from a point on the floor, and from a point drawn a little inside it.
	const float heights[] = { 3.0f, 0.0f, -0.05f };
	for ( int i = 0; i < 3; ++i )
	{
		vec2s p = kcc_v2( -7.0f, -7.0f );
		assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 1.0f, heights[i] ), 5.0f, &p ), KCC_OK );
		assert_true( p.x == 1.0f );
		assert_float_equal( p.y, HALF_HEIGHT + SKIN, 1e-4 );
		assert_int_equal( space_count( space ), before ); // its character has left the space
		kcc_move_result r = stand_at( space, &def, p, NULL );
		assert_true( r.floor_shape == floor );
	}
	// A box character and a circle: each its own lowest point.
	def.shape = kcc_make_box( kcc_v2( 0.4f, 0.5f ), 0.05f );
	vec2s p;
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 2.0f, 1.0f ), 5.0f, &p ), KCC_OK );
	assert_float_equal( p.y, 0.55f + SKIN, 1e-4 );
	stand_at( space, &def, p, NULL );
	def.shape = kcc_make_circle( kcc_v2( 0.0f, 0.2f ), 0.25f );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 2.0f, 1.0f ), 5.0f, &p ), KCC_OK );
	assert_float_equal( p.y, 0.05f + SKIN, 1e-4 );
	stand_at( space, &def, p, NULL );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
}

static void test_a_slope( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	// Rising to the right at 30 degrees (walkable: below the default 45).
	double rise = tan( 30.0 * 3.14159265358979 / 180.0 );
	cpVect verts[3] = { cpv( -10.0, 0.0 ), cpv( 10.0, 0.0 ), cpv( 10.0, 20.0 * rise ) };
	cpShape* slope = cpSpaceAddShape( space, cpPolyShapeNewRaw( cpSpaceGetStaticBody( space ), 3, verts, 0.0 ) );
	kcc_controller_def def = kcc_default_controller_def();
	vec2s p;
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 2.0f, 10.0f ), 10.0f, &p ), KCC_OK );
	assert_true( p.x == 2.0f ); // straight down: no slide along the slope
	// The capsule's lower circle (centre 0.3 below the position, radius 0.3) a skin from the slope's surface.
	double cx = p.x, cy = p.y - 0.3;
	double gap = ( cy - ( cx + 10.0 ) * rise ) * cos( 30.0 * 3.14159265358979 / 180.0 ) - 0.3;
	assert_float_equal( gap, SKIN, 1e-3 );
	kcc_move_result r = stand_at( space, &def, p, NULL );
	assert_true( r.floor_shape == slope );
	assert_float_equal( r.floor_normal.x, -0.5f, 1e-3 );
	cpSpaceRemoveShape( space, slope );
	cpShapeFree( slope );
	cpSpaceFree( space );
}

#define ONE_WAY 2u
#define PUSHABLE 4u

static void test_a_platform_a_ledge_and_a_crate( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpShape* floor = add_static_box( space, -20.0, -1.0, 20.0, 0.0 );
	cpShapeSetFilter( floor, cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES ) );
	cpBody* lift = cpSpaceAddBody( space, cpBodyNewKinematic() );
	cpBodySetPosition( lift, cpv( 5.0, 2.0 ) );
	cpShape* lift_shape = cpSpaceAddShape( space, cpBoxShapeNew2( lift, cpBBNew( -2.0, -0.25, 2.0, 0.25 ), 0.0 ) );
	cpShapeSetFilter( lift_shape, cpShapeFilterNew( CP_NO_GROUP, 1u, CP_ALL_CATEGORIES ) );
	cpShape* ledge = add_static_box( space, -8.0, 1.9, -4.0, 2.0 );
	cpShapeSetFilter( ledge, cpShapeFilterNew( CP_NO_GROUP, ONE_WAY, CP_ALL_CATEGORIES ) );
	cpBody* crate = cpSpaceAddBody( space, cpBodyNewKinematic() );
	cpBodySetPosition( crate, cpv( 12.0, 0.5 ) );
	cpShape* crate_shape = cpSpaceAddShape( space, cpBoxShapeNew2( crate, cpBBNew( -0.5, -0.5, 0.5, 0.5 ), 0.0 ) );
	cpShapeSetFilter( crate_shape, cpShapeFilterNew( CP_NO_GROUP, PUSHABLE, CP_ALL_CATEGORIES ) );
	kcc_controller_def def = kcc_default_controller_def();
	def.filter.categories = 1u;
	def.one_way_categories = ONE_WAY;
	def.pushable_categories = PUSHABLE;
	int before = space_count( space );

	// The platform: placed on its top, and carried when it moves.
	vec2s p;
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 5.5f, 6.0f ), 10.0f, &p ), KCC_OK );
	assert_float_equal( p.y, 2.25f + HALF_HEIGHT + SKIN, 1e-4 );
	kcc_controller* rider = NULL;
	kcc_move_result r = stand_at( space, &def, p, &rider );
	assert_true( r.floor_shape == lift_shape );
	cpBodySetPosition( lift, cpv( 6.0, 2.5 ) );
	assert_int_equal( kcc_space_reindex_body( space, lift ), KCC_OK );
	assert_int_equal( kcc_controller_move( rider, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
	assert_true( r.floor_shape == lift_shape );
	assert_float_equal( r.position.x, 6.5f, 1e-4 );
	assert_float_equal( r.position.y, 2.75f + HALF_HEIGHT + SKIN, 1e-3 );
	kcc_controller_destroy( rider );

	// The one-way ledge is landed on from above.
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( -6.0f, 5.0f ), 10.0f, &p ), KCC_OK );
	assert_float_equal( p.y, 2.0f + HALF_HEIGHT + SKIN, 1e-4 );
	r = stand_at( space, &def, p, NULL );
	assert_true( r.floor_shape == ledge );

	// The crate is stood on, not pushed.
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 12.2f, 5.0f ), 10.0f, &p ), KCC_OK );
	assert_float_equal( p.y, 1.0f + HALF_HEIGHT + SKIN, 1e-4 );
	assert_true( cpBodyGetPosition( crate ).x == 12.0 && cpBodyGetPosition( crate ).y == 0.5 );
	assert_int_equal( space_count( space ), before );

	cpShape* shapes[] = { floor, lift_shape, ledge, crate_shape };
	for ( int i = 0; i < 4; ++i )
	{
		cpSpaceRemoveShape( space, shapes[i] );
		cpShapeFree( shapes[i] );
	}
	cpSpaceRemoveBody( space, lift );
	cpSpaceRemoveBody( space, crate );
	cpBodyFree( lift );
	cpBodyFree( crate );
	cpSpaceFree( space );
}

typedef struct locked_place
{
	const kcc_controller_def* def;
	kcc_status status;
	int calls;
} locked_place;

static void place_inside_query( cpShape* shape, void* data )
{
	locked_place* call = data;
	if ( call->calls++ == 0 )
	{
		vec2s p;
		call->status = kcc_place_on_floor( cpShapeGetSpace( shape ), call->def, kcc_v2( 0.0f, 3.0f ), 5.0f, &p );
	}
}

static void test_bad_input( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	cpShape* floor = add_static_box( space, -10.0, -1.0, 10.0, 0.0 );
	kcc_controller_def def = kcc_default_controller_def();
	int before = space_count( space );
	vec2s p = kcc_v2( 7.0f, 7.0f );
	// Nothing below within max_drop: the floor's top is 3 below the point, the drop 2.
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 0.0f, 3.0f ), 2.0f, &p ), KCC_ERROR_BLOCKED );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 30.0f, 3.0f ), 20.0f, &p ), KCC_ERROR_BLOCKED );
	assert_int_equal( kcc_place_on_floor( NULL, &def, kcc_v2( 0.0f, 3.0f ), 5.0f, &p ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_place_on_floor( space, NULL, kcc_v2( 0.0f, 3.0f ), 5.0f, &p ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 0.0f, 3.0f ), 5.0f, NULL ), KCC_ERROR_NULL_ARGUMENT );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( NAN, 3.0f ), 5.0f, &p ), KCC_ERROR_NOT_FINITE );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 0.0f, 3.0f ), INFINITY, &p ), KCC_ERROR_NOT_FINITE );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 0.0f, 3.0f ), -1.0f, &p ), KCC_ERROR_INVALID_ARGUMENT );
	assert_int_equal( kcc_place_on_floor( space, &def, kcc_v2( 0.0f, 3.0f ), 1.0e6f, &p ), KCC_ERROR_TOO_LARGE );
	kcc_controller_def bad = def;
	bad.skin = -1.0f;
	assert_int_equal( kcc_place_on_floor( space, &bad, kcc_v2( 0.0f, 3.0f ), 5.0f, &p ), KCC_ERROR_INVALID_ARGUMENT );
	locked_place call = { &def, KCC_OK, 0 };
	cpSpaceBBQuery( space, cpBBNew( -1.0, -1.0, 1.0, 0.0 ), CP_SHAPE_FILTER_ALL, place_inside_query, &call );
	assert_int_equal( call.calls, 1 );
	assert_int_equal( call.status, KCC_ERROR_SPACE_LOCKED );
	assert_true( p.x == 7.0f && p.y == 7.0f ); // unchanged by every refusal
	assert_int_equal( space_count( space ), before );
	cpSpaceRemoveShape( space, floor );
	cpShapeFree( floor );
	cpSpaceFree( space );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_a_flat_floor ),
		cmocka_unit_test( test_a_slope ),
		cmocka_unit_test( test_a_platform_a_ledge_and_a_crate ),
		cmocka_unit_test( test_bad_input ),
	};
	return cmocka_run_group_tests_name( "place on floor", tests, NULL, NULL );
}
