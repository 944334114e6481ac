// SPDX-License-Identifier: MIT
// Regression tests for the first promise (DESIGN.md section 5, property 1: a move never ends inside a solid by more
// than 1e-3 of the character's height without KCC_CRUSHED) and for a bounded cost per move. Each case is a move the
// soak (tests/test_controller_soak.c, bench/soak.c) or issue 9 found ending inside a solid, written as plain data
// (tests/soak_world.h: shapes with hex floats, the def, the state before the move, the move) and measured with the
// soak's oracle, which uses none of the library's geometry:
// - the slide leaves the region the move queried: constant speed on a slope, and the GROUNDED going-down exception
//   moving against the input;
// - a push out of a solid (depenetration) ends in a shape next to it without KCC_CRUSHED;
// - a character inside 100,000 overlapping circles: the move completes, says so in its flags, and makes a bounded
//   number of cpSpaceBBQuery calls (counted through the linker's --wrap, as bench/gauntlet does);
// - set_shape takes a shape overlapping a solid (a tilted up);
// - minimized cases from the soak (one per kind of failure: one-way slopes under polygons, pushes between shapes, a
//   tilted or flipped up leaving the queried region, a truncated buffer, a polygon with a nearly collinear vertex, a
//   push through the top of a one-way platform, a one-way end entered from the side after a slide).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "query_count.h"
#include "soak_world.h"

// Runs the case (and frees it): the move must end clear of every solid, or report KCC_CRUSHED, and stay finite.
static void check_case( soak_case* k, const char* what )
{
	soak_case_outcome o = soak_case_run( k );
	if ( o.status != KCC_OK || o.fails )
	{
		print_error( "%s: status %d, ends at (%.9g, %.9g) %.4g of its height inside case shape %d, flags 0x%x\n", what,
					 (int)o.status, (double)o.result.position.x, (double)o.result.position.y, o.heights,
					 o.shape_index, (unsigned)o.result.flags );
		free( k );
		fail();
	}
	free( k );
}

// ---------------------------------------------------------------------------------------------------------------
// The slide leaves the region the move queried (issue 9, item 1)

// Constant speed on slopes with stop_on_slope off: a capsule 0.25 tall standing on a 35 degree slope walks downhill
// under gravity, delta (2.5, -1.5) (length 2.92). The lateral part is turned along the slope keeping its length,
// then the hit of the slope adds the vertical part back: it moved 4.18 and ended 0.35 of its height inside a static
// circle 3.7 units away, beyond the half disc of radius |delta| the move queried.
static void test_constant_speed_on_a_slope_stays_in_the_queried_region( void** state )
{
	(void)state;
	double angle = 35.0 * 3.14159265358979323846 / 180.0, t = tan( angle );
	soak_case* k = soak_case_new();
	// a slab whose top is y = -x tan(35 degrees), from x = -6 to x = 8, 2 thick; the circle lies on the way down
	soak_case_add( k, SOAK_POLY, 0.0, 4, (const double[]){ -6.0, 6.0 * t, -6.0, 6.0 * t - 2.0, 8.0, -8.0 * t - 2.0, 8.0, -8.0 * t },
				   SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_CIRCLE, 0.3, 1, (const double[]){ 3.7, -2.15 }, SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	k->spec.maker = 1; // capsule (0, -0.0625)..(0, 0.0625), radius 0.0625: 0.25 tall
	k->spec.p[0] = 0.0f, k->spec.p[1] = -0.0625f, k->spec.p[2] = 0.0f, k->spec.p[3] = 0.0625f;
	k->spec.radius = 0.0625f;
	k->def.constant_speed_on_slopes = true;
	k->def.stop_on_slope = false;
	// standing on the slope at x = 0, its lower end a radius plus the skin from the surface
	k->position = kcc_v2( 0.0f, (float)( 0.0625 + 0.0725 / cos( angle ) ) );
	k->flags = KCC_ON_FLOOR;
	k->floor_normal = kcc_v2( (float)sin( angle ), (float)cos( angle ) );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 2.5f, -1.5f );
	check_case( k, "constant speed downhill" );
}

// The GROUNDED going-down exception lets a slide go against the input: input (-3.48, -0.16) against a steep face
// moved (+0.47, -0.94) into a box to the right, which the move never queried (issue 9's reproduction, exact).
static void test_going_down_against_the_input_stays_in_the_queried_region( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0.0, 4,
				   (const double[]){ -0x1.308ddd3429d94p+1, -0x1.0f212d43faba7p+3, -0x1.2f034abf2914ap+1, -0x1.0f212d43faba7p+3,
									 -0x1.2f034abf2914ap+1, 0x1.762e2ca12a2cap+0, -0x1.308ddd3429d94p+1, 0x1.762e2ca12a2cap+0 },
				   CP_ALL_CATEGORIES, CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_POLY, 0.0, 4,
				   (const double[]){ -0x1.adc8276c814c5p+1, 0x1.4eeb55d3a98ebp+0, -0x1.ad8b22ececec1p+1, 0x1.4dd1e79bf23ccp+0,
									 0x1.bdf2c5733f044p-1, 0x1.91839706c49bap+1, 0x1.bcfeb374ed834p-1, 0x1.92104e22a044ap+1 },
				   CP_ALL_CATEGORIES, CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_POLY, 0.0, 4,
				   (const double[]){ -0x1.5c318c521ee9p+0, -0x1.ad68b652877f4p+1, 0x1.0be5aa4e3eac2p+2, -0x1.ad68b652877f4p+1,
									 0x1.0be5aa4e3eac2p+2, 0x1.941415f8e203p-1, -0x1.5c318c521ee9p+0, 0x1.941415f8e203p-1 },
				   CP_ALL_CATEGORIES, CP_ALL_CATEGORIES );
	k->spec.maker = 5;
	k->spec.count = 5;
	k->spec.points[0] = kcc_v2( -0x1.f02e0cp-3f, 0x1.dc12bap-4f );
	k->spec.points[1] = kcc_v2( 0x1.434062p-7f, -0x1.21a72p-2f );
	k->spec.points[2] = kcc_v2( 0x1.3c00d2p-2f, -0x1.f1b284p-6f );
	k->spec.points[3] = kcc_v2( 0x1.1c08c6p-2f, 0x1.233674p-5f );
	k->spec.points[4] = kcc_v2( -0x1.07762cp-4f, 0x1.117c6cp-2f );
	k->spec.radius = 0x1.592d26p-9f;
	k->def.skin = 0x1.60c578p-8f;
	k->def.min_move = 0x1.a36e2ep-14f;
	k->def.max_slides = 14;
	k->def.max_floor_angle = 0x1.d6d0c4p-1f;
	k->def.snap_distance = 0x1.07924cp-2f;
	k->position = kcc_v2( -0x1.0ef9bcp+1f, 0x1.8996dcp+0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( -0x1.bd722cp+1f, -0x1.41ad6cp-3f );
	check_case( k, "going down against the input" );
}

// ---------------------------------------------------------------------------------------------------------------
// Depenetration ends clear of every solid or reports KCC_CRUSHED (issue 9, item 2)

// A circle of radius 1.089 starts 0.40 inside a rounded polygon (a box with radius 0.1); a segment stands 0.38
// beyond its other side, outside the region queried around the start. The push (the depth plus the skin) ended
// 0.029 inside the segment, reporting only KCC_DEPENETRATED.
static void test_push_out_of_a_rounded_polygon_ends_clear_or_crushed( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0.1, 4, (const double[]){ -3.0, -1.0, 0.0, -1.0, 0.0, 1.0, -3.0, 1.0 }, SOAK_CAT_LEVEL,
				   CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_SEGMENT, 0.0, 2, (const double[]){ 2.259, -2.0, 2.259, 2.0 }, SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	k->spec.maker = 0; // circle at the position
	k->spec.p[0] = 0.0f, k->spec.p[1] = 0.0f;
	k->spec.radius = 1.089f;
	k->position = kcc_v2( 0.1f + 1.089f - 0.40f, 0.0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0.0f, 0.0f );
	check_case( k, "circle pushed out of a rounded polygon" );
}

// The default capsule starts deep inside a static circle of radius 2 (its centre 0.9 from the circle's); the push
// takes it to x = 2.31, where a segment outside the first query crosses its core: it ended there, 0.25 of its height
// inside, reporting only KCC_DEPENETRATED.
static void test_push_out_of_a_circle_ends_clear_or_crushed( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_CIRCLE, 2.0, 1, (const double[]){ 0.0, 0.0 }, SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_SEGMENT, 0.0, 2, (const double[]){ 2.31, -1.0, 2.31, 1.0 }, SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	k->position = kcc_v2( 0.9f, 0.0f ); // the default capsule
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0.0f, 0.0f );
	check_case( k, "capsule pushed out of a circle" );
}

// A circle (radius 0.5) starts half inside a wide box above it and is pushed down out of it by the depth plus the
// skin, out of the region its move queried, onto a small circle 0.11 inside its new place; below that lie 24 pebbles.
// With max_candidates 16 the query that grows the region for the push overflows and the small circle does not fit:
// the region was marked as covered all the same, so the move ended inside it with KCC_DEPENETRATED only (neither
// KCC_CRUSHED nor KCC_CANDIDATES_TRUNCATED).
static void test_push_whose_region_overflows_ends_clear_or_crushed( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0.0, 4, (const double[]){ -3.0, 0.0, 3.0, 0.0, 3.0, 2.0, -3.0, 2.0 }, SOAK_CAT_LEVEL,
				   CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_CIRCLE, 0.2, 1, (const double[]){ 0.0, -1.1 }, SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	for ( int i = 0; i < 24; ++i )
	{
		double x = -2.0 + 4.0 * i / 24.0, y = -1.6 - 0.2 * ( i % 3 );
		soak_case_add( k, SOAK_CIRCLE, 0.05, 1, (const double[]){ x, y }, SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	}
	k->spec.maker = 0;
	k->spec.p[0] = 0.0f, k->spec.p[1] = 0.0f;
	k->spec.radius = 0.5f;
	k->def.max_candidates = 16;
	k->position = kcc_v2( 0.0f, 0.0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0.0f, 0.0f );
	check_case( k, "push whose region overflows" );
}

// ---------------------------------------------------------------------------------------------------------------
// Bounded cost (issue 9, item 4)

// World queries a move may make: one for the move, one after a push out, one or two more for a split or a carry.
// Each query inside the crowd visits all 100,000 circles.
#define CROWD_QUERY_BOUND 8

// A character inside 100,000 overlapping static circles (radius 3, centres within 0.5 of it): it cannot get out. A
// move completes, reports KCC_CRUSHED (or at least KCC_CANDIDATES_TRUNCATED: not every shape was considered), never
// ends inside a circle without KCC_CRUSHED, and makes at most CROWD_QUERY_BOUND world queries. The default def
// (256 candidates) halves the move down to 1/1024 of it and queries each part: thousands of queries, 40 s.
static void test_a_move_inside_100000_circles_is_bounded( void** state )
{
	(void)state;
	kcc_controller_def def;
	cpSpace* space = soak_crowd_create( 100000, &def );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	bool failed = false;
	for ( int i = 0; i < 2; ++i ) // standing still, then a short walk
	{
		vec2s delta = i == 0 ? kcc_v2( 0.0f, 0.0f ) : kcc_v2( 0.1f, 0.0f );
		kcc_move_result result;
		query_count_reset( CROWD_QUERY_BOUND );
		kcc_status status = kcc_controller_move( c, delta, &result );
		long queries = query_count();
		query_count_reset( -1 );
		assert_int_equal( status, KCC_OK );
		double heights = soak_crowd_overlap( space, &def.shape, result.position );
		print_message( "crowd, move %d: %ld world queries, flags 0x%x, %.4g of its height inside a circle\n", i,
					   queries, (unsigned)result.flags, heights );
		if ( queries > CROWD_QUERY_BOUND )
		{
			// The queries past the budget were not made: the rest of this move's result means nothing.
			print_error( "move %d: %ld world queries (at most %d)\n", i, queries, CROWD_QUERY_BOUND );
			failed = true;
			continue;
		}
		if ( ( result.flags & ( KCC_CRUSHED | KCC_CANDIDATES_TRUNCATED ) ) == 0 )
		{
			print_error( "move %d: inside 100,000 circles without KCC_CRUSHED or KCC_CANDIDATES_TRUNCATED (0x%x)\n", i,
						 (unsigned)result.flags );
			failed = true;
		}
		if ( heights > SOAK_TOLERANCE && ( result.flags & KCC_CRUSHED ) == 0 )
		{
			print_error( "move %d: ends %.4g of its height inside a circle without KCC_CRUSHED (0x%x)\n", i, heights,
						 (unsigned)result.flags );
			failed = true;
		}
	}
	kcc_controller_destroy( c );
	soak_crowd_destroy( space );
	assert_false( failed );
}

// ---------------------------------------------------------------------------------------------------------------
// Changing the shape (kcc_controller_set_shape): refused when the new shape overlaps a solid by more than 1e-3 of
// its height

// Found by the soak. A circle of radius 0.5 with up tilted 45 degrees grows to radius 0.6 next to a box that the new
// circle overlaps by 1.2e-3 of its height (1.2): set_shape must refuse it with KCC_ERROR_BLOCKED. It took it: the
// tolerance's height is the shape's bounding box dotted with |up|, 1.41 times the circle's height at 45 degrees.
static void test_set_shape_with_a_tilted_up_refuses_an_overlap( void** state )
{
	(void)state;
	cpSpace* space = cpSpaceNew();
	double face = 0.6 - 1.2e-3 * 1.2;
	cpShape* box = cpBoxShapeNew2( cpSpaceGetStaticBody( space ), cpBBNew( face, -2.0, face + 2.0, 2.0 ), 0.0 );
	cpSpaceAddShape( space, box );
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.5f );
	def.up = kcc_v2( -0.70710678f, 0.70710678f );
	kcc_controller* c = kcc_controller_create( space, &def );
	assert_non_null( c );
	kcc_shape grown = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.6f );
	soak_core character, wall;
	soak_core_from_character( &grown, kcc_controller_get_position( c ), &character );
	soak_core_from_chipmunk( box, SOAK_POLY, &wall );
	double heights = soak_core_contact( &character, &wall ).depth / soak_character_height( &grown, def.up );
	assert_true( heights > 1.1e-3 && heights < 1.3e-3 );
	kcc_status status = kcc_controller_set_shape( c, &grown );
	if ( status != KCC_ERROR_BLOCKED )
	{
		print_error( "set_shape: status %d for a shape %.4g of its height inside a box\n", (int)status, heights );
	}
	kcc_controller_destroy( c );
	cpSpaceRemoveShape( space, box );
	cpShapeFree( box );
	cpSpaceFree( space );
	assert_int_equal( status, KCC_ERROR_BLOCKED );
}

// ---------------------------------------------------------------------------------------------------------------
// Minimized cases from the soak (bench/soak prints them; tests/soak_world.c shrinks them)

// Found by the soak. A rounded polygon above a one-way segment rising at 36 degrees walks into it and sinks 0.19 of its
// height into it instead of climbing it: the one-way test (kcc_one_way_blocks) compares the character's lowest point
// with the contact and allows only rounding * (1 - cos) between them, as for a round bottom; a polygon touches a slope
// with a vertex higher than its lowest point, so the slope is taken for one met from below and ignored.
static void test_polygon_walking_into_a_one_way_slope_climbs_it( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_SEGMENT, 0x1.558512f3a1eccp-6, 2,
				   (const double[]){ 0x1.523220a25a415p+1, -0x1.d3082ab69454p+1, 0x1.c50880601e8bap-2, -0x1.515fbcd3e97a8p+2 },
				   0x2u, 0xffffffffu );
	k->spec.maker = 5; // polygon
	k->spec.count = 4;
	k->spec.points[0] = kcc_v2( 0x1.0f164p-2f, 0x1.14fbap-2f );
	k->spec.points[1] = kcc_v2( -0x1.358ae8p-2f, 0x1.a183p-6f );
	k->spec.points[2] = kcc_v2( -0x1.3598acp-3f, -0x1.0c82eap-2f );
	k->spec.points[3] = kcc_v2( 0x1.15211ep-2f, -0x1.851924p-4f );
	k->spec.radius = 0x1.15b692p-3f;
	k->spec.angle = 0x0p+0f;
	k->def.one_way_categories = 0x2u;
	k->position = kcc_v2( 0x1.7dee46p-3f, -0x1.228ec2p+2f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( 0x0p+0f, 0x1p+0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0x1.75164cp-1f, -0x1.4d4864p-4f );
	check_case( k, "polygon walking into a one-way slope climbs it" );
}

// Found by the soak. A rounded box whose up is tilted 28 degrees falls onto a flat one-way platform: in its frame the
// platform is a 28 degree slope, its flat bottom touches the platform far above its lowest corner along up, and it
// sinks into the platform (the same one-way test as above).
static void test_box_with_a_tilted_up_lands_on_a_one_way_platform( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.2e45db678f37p+3, 0x1.407ffbd75f7ecp+1, 0x1.a6b202659e75ep+3, 0x1.407ffbd75f7ecp+1,
									 0x1.a6b202659e75ep+3, 0x1.42bc341c7b4f8p+1, 0x1.2e45db678f37p+3, 0x1.42bc341c7b4f8p+1 },
				   0x2u, 0xffffffffu );
	k->spec.maker = 2; // box
	k->spec.p[0] = 0x1.86a3acp-2f;
	k->spec.p[1] = 0x1.21d772p-1f;
	k->spec.p[2] = 0x0p+0f;
	k->spec.p[3] = 0x0p+0f;
	k->spec.radius = 0x1.f30e58p-5f;
	k->spec.angle = 0x0p+0f;
	k->def.up = kcc_v2( -0x1.df1992p-2f, 0x1.c48102p-1f );
	k->def.one_way_categories = 0x2u;
	k->position = kcc_v2( 0x1.93d296p+3f, 0x1.983dccp+1f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( -0x1.df1992p-2f, 0x1.c48102p-1f );
	k->call = SOAK_CALL_MOVE_AND_SLIDE;
	k->delta = kcc_v2( 0x1.37d956p+1f, -0x1.6dca74p+2f );
	k->dt = 0x1.111112p-6f;
	check_case( k, "box with a tilted up lands on a one-way platform" );
}

// Found by the soak. A polygon starts overlapping two small boxes; seven push-out rounds (of 13 allowed) go back and
// forth between them (their normals are not opposite: the halving for a squeeze does not apply) and end in a third
// box that the move's query never held: 0.07 of its height inside it, with KCC_DEPENETRATED only.
static void test_pushes_between_two_shapes_end_clear_or_crushed( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.18f71a235603cp+3, -0x1.7cc4a3003ca54p+1, 0x1.18f71a235603cp+3, -0x1.762a3717fbb91p+1,
									 0x1.17507f2945c8bp+3, -0x1.762a3717fbb91p+1, 0x1.17507f2945c8bp+3, -0x1.7cc4a3003ca54p+1 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.10b3453e2842fp+3, -0x1.6a7e2dcd769efp+1, 0x1.10b3453e2842fp+3, -0x1.65f95e178423ap+1,
									 0x1.0f921150aba42p+3, -0x1.65f95e178423ap+1, 0x1.0f921150aba42p+3, -0x1.6a7e2dcd769efp+1 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.56d3e73a6ef35p-4, 1,
				   (const double[]){ 0x1.225d4e59cb9fdp+3, -0x1.83aa6c0a316e6p+1 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.27c7d5b3d4d68p+3, -0x1.615fd68bb1f82p+1, 0x1.27c7d5b3d4d68p+3, -0x1.42645f6eb2419p+1,
									 0x1.2008f7ec94e8ep+3, -0x1.42645f6eb2419p+1, 0x1.2008f7ec94e8ep+3, -0x1.615fd68bb1f82p+1 },
				   0x1u, 0xffffffffu );
	k->spec.maker = 5; // polygon
	k->spec.count = 6;
	k->spec.points[0] = kcc_v2( 0x1.81f7bap-3f, -0x1.0c67ep-2f );
	k->spec.points[1] = kcc_v2( 0x1.35f2d4p-2f, -0x1.2fdf7ap-3f );
	k->spec.points[2] = kcc_v2( 0x1.4c7f8ap-4f, 0x1.55c114p-2f );
	k->spec.points[3] = kcc_v2( -0x1.a57748p-4f, 0x1.50ef62p-2f );
	k->spec.points[4] = kcc_v2( -0x1.f7ed2ep-3f, -0x1.2aa9d6p-3f );
	k->spec.points[5] = kcc_v2( -0x1.81d004p-3f, -0x1.8dc24p-3f );
	k->spec.radius = 0x0p+0f;
	k->spec.angle = 0x0p+0f;
	k->def.max_depenetration_iterations = 13;
	k->position = kcc_v2( 0x1.201ebep+3f, -0x1.79e596p+1f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( 0x0p+0f, 0x1p+0f );
	k->call = SOAK_CALL_MOVE_AND_SLIDE;
	k->delta = kcc_v2( 0x1.f8e28ap+1f, -0x1.cb9584p+0f );
	k->dt = 0x1.111112p-6f;
	check_case( k, "pushes between two shapes end clear or crushed" );
}

// Found by the soak. A rounded box whose up is tilted 54 degrees falls (-0.15, -16.4) onto a surface that is a wall
// for it; the GROUNDED wall clip plus the going-down exception send the rest of the motion up and to the right in the
// world, against the input (it is down along the tilted up), out of the region the move queried, 0.49 of its height
// into a box.
static void test_falling_box_with_a_tilted_up_stays_in_the_queried_region( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0x1.171c21eafa1f2p-8, 4,
				   (const double[]){ -0x1.859ad98754ac7p+2, -0x1.dbdb6a44991p+0, -0x1.f50c4e2ce4338p+1, -0x1.c020bcaff275p+1,
									 -0x1.d3c67f413462ap+1, -0x1.9418ec0f93648p+1, -0x1.74f7f2117cc4p+2, -0x1.83cbc903daefp+0 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ -0x1.c38be75a9564p+1, 0x1.b87410a83f7p-2, -0x1.c38be75a9564p+1, 0x1.e4fcb9c0f982fp+1,
									 -0x1.396c48348f589p+2, 0x1.e4fcb9c0f982fp+1, -0x1.396c48348f589p+2, 0x1.b87410a83f7p-2 },
				   0x1u, 0xffffffffu );
	k->spec.maker = 2; // box
	k->spec.p[0] = 0x1.f7662ap-2f;
	k->spec.p[1] = 0x1.ca781cp-3f;
	k->spec.p[2] = 0x0p+0f;
	k->spec.p[3] = 0x0p+0f;
	k->spec.radius = 0x1.87f47p-3f;
	k->spec.angle = 0x0p+0f;
	k->def.up = kcc_v2( -0x1.a020ep-1f, 0x1.2a4c0cp-1f );
	k->def.max_floor_angle = 0x1.872512p-3f;
	k->position = kcc_v2( -0x1.9b48d4p+2f, -0x1.0976d6p+0f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( -0x1.a020ep-1f, 0x1.2a4c0cp-1f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( -0x1.3cf1dp-3f, -0x1.067b44p+4f );
	check_case( k, "falling box with a tilted up stays in the queried region" );
}

// Found by the soak. A rounded polygon with up (0, -1) and constant speed moves (10, -3.4) and meets a circle that is
// a floor for it while it moves up in its frame: the response keeps the lateral part's length along the circle and
// adds the clipped vertical part, 12.7 of motion where 10.4 remained, and it ends 0.56 of its height inside the ground,
// outside the region the move queried.
static void test_constant_speed_with_a_flipped_up_stays_in_the_queried_region( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.4p+3, -0x1p+3, 0x1.4p+3, -0x1.8p+2,
									 -0x1.4p+3, -0x1.8p+2, -0x1.4p+3, -0x1p+3 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.3c33865871a8bp+0, 1,
				   (const double[]){ -0x1.a07171865f452p+1, 0x1.8573838fe88a3p+2 },
				   0x1u, 0xffffffffu );
	k->spec.maker = 5; // polygon
	k->spec.count = 5;
	k->spec.points[0] = kcc_v2( -0x1.2f0a66p-2f, 0x1.97b128p-2f );
	k->spec.points[1] = kcc_v2( 0x1.69399ap-3f, -0x1.4a531p-2f );
	k->spec.points[2] = kcc_v2( 0x1.4202e2p-2f, -0x1.c70552p-2f );
	k->spec.points[3] = kcc_v2( 0x1.72198p-4f, -0x1.f7ceb8p-5f );
	k->spec.points[4] = kcc_v2( -0x1.10806ap-2f, 0x1.b12de8p-2f );
	k->spec.radius = 0x1.732d72p-4f;
	k->spec.angle = 0x0p+0f;
	k->def.up = kcc_v2( 0x0p+0f, -0x1p+0f );
	k->def.max_floor_angle = 0x1.3b7688p+0f;
	k->def.constant_speed_on_slopes = 1;
	k->position = kcc_v2( -0x1.1fdcccp+2f, 0x1.520598p+2f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( 0x0p+0f, -0x1p+0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0x1.3f6916p+3f, -0x1.b7ef62p+1f );
	check_case( k, "constant speed with a flipped up stays in the queried region" );
}

// Found by the soak. 24 small shapes around a polygon with max_candidates 22, falling: the move's query overflows, the
// move is halved down to 1/1024 and each part is cast against the shapes that fit the buffer. It ends 0.06 of its
// height inside a shape that never fit, with KCC_CANDIDATES_TRUNCATED: a move may miss shapes, but must not end inside
// one without KCC_CRUSHED.
static void test_truncated_candidates_never_leave_the_character_inside( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0x1.fb9222020e916p-8, 4,
				   (const double[]){ 0x1.0d8f7de7d5cb3p+3, 0x1.4a51e20491154p+2, 0x1.0d8f7de7d5cb3p+3, 0x1.4d5bd4a109b4bp+2,
									 0x1.0c0a8499997b8p+3, 0x1.4d5bd4a109b4bp+2, 0x1.0c0a8499997b8p+3, 0x1.4a51e20491154p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.1648528c8f082p+3, 0x1.57169af27c8acp+2, 0x1.1648528c8f082p+3, 0x1.651c30f043d5ep+2,
									 0x1.0f45878dab629p+3, 0x1.651c30f043d5ep+2, 0x1.0f45878dab629p+3, 0x1.57169af27c8acp+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.0885f1a24e9e5p+3, 0x1.525bccf8141bfp+2, 0x1.0885f1a24e9e5p+3, 0x1.531b40a918cd4p+2,
									 0x1.082637c9cc45ap+3, 0x1.531b40a918cd4p+2, 0x1.082637c9cc45ap+3, 0x1.525bccf8141bfp+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.2679ff30ec02cp-6, 1,
				   (const double[]){ 0x1.0d8e3227b21fbp+3, 0x1.5660159fccfc7p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.f43d53cbf55bbp-6, 1,
				   (const double[]){ 0x1.110f7da386b6p+3, 0x1.4687b4d4cd0b7p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x1.75b7dae3cf4e1p-7, 4,
				   (const double[]){ 0x1.0f310791c7384p+3, 0x1.46c48b84e57dcp+2, 0x1.0f310791c7384p+3, 0x1.476b825be5178p+2,
									 0x1.0edd8c26476b6p+3, 0x1.476b825be5178p+2, 0x1.0edd8c26476b6p+3, 0x1.46c48b84e57dcp+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.13a298650b118p+3, 0x1.539b603613915p+2, 0x1.13a298650b118p+3, 0x1.548fec96a5b2cp+2,
									 0x1.13285234c200cp+3, 0x1.548fec96a5b2cp+2, 0x1.13285234c200cp+3, 0x1.539b603613915p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.18d1ed737d8b3p+3, 0x1.54e72f62cc7e3p+2, 0x1.18d1ed737d8b3p+3, 0x1.5c849d6e4005dp+2,
									 0x1.1503366dc3c76p+3, 0x1.5c849d6e4005dp+2, 0x1.1503366dc3c76p+3, 0x1.54e72f62cc7e3p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.db277d844c6d6p-3, 1,
				   (const double[]){ 0x1.09a71b2cb07aap+3, 0x1.4452e362b1a54p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.f661e820f497ep-4, 1,
				   (const double[]){ 0x1.114097dd3b6a7p+3, 0x1.56caf97c8cc88p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.12cebc2b53b9ep+3, 0x1.538cdc63b8064p+2, 0x1.12cebc2b53b9ep+3, 0x1.5ce7cb9213b15p+2,
									 0x1.0e21449425e45p+3, 0x1.5ce7cb9213b15p+2, 0x1.0e21449425e45p+3, 0x1.538cdc63b8064p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.0e767ca2fd315p-2, 1,
				   (const double[]){ 0x1.14ea76a10a86ep+3, 0x1.579da0ed6aa97p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.74b986a1b75c7p-3, 1,
				   (const double[]){ 0x1.0a82c5a873308p+3, 0x1.4944de5c3fd65p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.73842b81cfc0dp-7, 1,
				   (const double[]){ 0x1.0c8b56a904e71p+3, 0x1.506564c7f9a86p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.bd5fe0da333d6p-7, 1,
				   (const double[]){ 0x1.1361a2ea359c7p+3, 0x1.5783ef1cbf636p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.25ef21a89368ap-6, 1,
				   (const double[]){ 0x1.12693eb41e667p+3, 0x1.4dbc3f1920c05p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.18099e209254bp+3, 0x1.495e45ab4952bp+2, 0x1.18099e209254bp+3, 0x1.4fae95a83a22p+2,
									 0x1.14e1762219edp+3, 0x1.4fae95a83a22p+2, 0x1.14e1762219edp+3, 0x1.495e45ab4952bp+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.10b0afeaa1933p+3, 0x1.4acd52ff3a435p+2, 0x1.10b0afeaa1933p+3, 0x1.4ff0a439f9fbfp+2,
									 0x1.0e1f074d41b6ep+3, 0x1.4ff0a439f9fbfp+2, 0x1.0e1f074d41b6ep+3, 0x1.4acd52ff3a435p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.6a640971f57eap-4, 1,
				   (const double[]){ 0x1.0846e272a3ecfp+3, 0x1.57b1b778e4b58p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.3b022ba4dac6ep-6, 1,
				   (const double[]){ 0x1.0ec35c780f052p+3, 0x1.40c4717082f6ap+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x1.242f55d28c3adp-7, 4,
				   (const double[]){ 0x1.13993a34a334cp+3, 0x1.561520d266132p+2, 0x1.13993a34a334cp+3, 0x1.5b956f7825cbp+2,
									 0x1.10d912e1c358dp+3, 0x1.5b956f7825cbp+2, 0x1.10d912e1c358dp+3, 0x1.561520d266132p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 4,
				   (const double[]){ 0x1.17efc0961f581p+3, 0x1.53dcb50bbceb4p+2, 0x1.17efc0961f581p+3, 0x1.5d775f8807f0ep+2,
									 0x1.13226b57f9d54p+3, 0x1.5d775f8807f0ep+2, 0x1.13226b57f9d54p+3, 0x1.53dcb50bbceb4p+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.8b752b7db9309p-7, 1,
				   (const double[]){ 0x1.0d0759f5c1f1ap+3, 0x1.56c138f9e723bp+2 },
				   0x1u, 0xffffffffu );
	soak_case_add( k, SOAK_CIRCLE, 0x1.e3b9f0a3e1e9p-7, 1,
				   (const double[]){ 0x1.08cf85014db37p+3, 0x1.426f7e1feb6b4p+2 },
				   0x1u, 0xffffffffu );
	k->spec.maker = 5; // polygon
	k->spec.count = 3;
	k->spec.points[0] = kcc_v2( -0x1.0df774p-2f, -0x1.979424p-3f );
	k->spec.points[1] = kcc_v2( 0x1.8c9288p-4f, 0x1.a9f7d8p-3f );
	k->spec.points[2] = kcc_v2( -0x1.ff0bbcp-1f, 0x1.ccc02ep-2f );
	k->spec.radius = 0x1.259c78p-2f;
	k->spec.angle = 0x0p+0f;
	k->def.step_height = 0x1.897ddep-3f;
	k->def.max_candidates = 22;
	k->position = kcc_v2( 0x1.26e006p+3f, 0x1.114708p+2f );
	k->flags = 0x100u;
	k->floor_normal = kcc_v2( 0x0p+0f, 0x1p+0f );
	k->call = SOAK_CALL_MOVE_AND_SLIDE;
	k->delta = kcc_v2( 0x0p+0f, -0x1.5ed8c6p+2f );
	k->dt = 0x1.30dbf2p-7f;
	check_case( k, "truncated candidates never leave the character inside" );
}

// Found by the soak. A rounded polygon from cpPolyShapeNew whose hull kept a nearly collinear vertex (its two edges'
// float normals are equal) holds a polygon character (up flipped) 0.47 of its height inside it: the move does not
// push it out, reports nothing and leaves it there, frame after frame. The conversion keeps the vertex (its exact turn
// is positive) and the core's penetration query says the shapes do not overlap.
static void test_polygon_with_a_nearly_collinear_vertex_pushes_out( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_POLY, 0x1.be6a6c28a1789p-7, 5,
				   (const double[]){ 0x1.0826ec0012a21p+3, 0x1.143c6af755f8ap+3, 0x1.f0b99e4b08fe3p+2, 0x1.22ce27a36f432p+3,
									 0x1.ebbfabbaffdacp+2, 0x1.201bd5313b0dap+3, 0x1.e6c5b92af6b76p+2, 0x1.1d6982bf06d82p+3,
									 0x1.032cf970097ebp+3, 0x1.0ed7c612ed8dap+3 },
				   0x1u, 0xffffffffu );
	k->spec.maker = 5; // polygon
	k->spec.count = 4;
	k->spec.points[0] = kcc_v2( 0x1.887cc6p-1f, 0x1.b361eap-4f );
	k->spec.points[1] = kcc_v2( -0x1.3c83c2p-4f, 0x1.1575fcp-2f );
	k->spec.points[2] = kcc_v2( -0x1.a17bd2p-1f, -0x1.672036p-4f );
	k->spec.points[3] = kcc_v2( 0x1.88e0dp-1f, -0x1.121106p-5f );
	k->spec.radius = 0x0p+0f;
	k->spec.angle = 0x0p+0f;
	k->def.up = kcc_v2( 0x0p+0f, -0x1p+0f );
	k->position = kcc_v2( 0x1.f224bp+2f, 0x1.1fc11ap+3f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( 0x0p+0f, -0x1p+0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0x0p+0f, 0x0p+0f );
	check_case( k, "polygon with a nearly collinear vertex" );
}

// Found by the soak. A circle starts inside a polygon (nine vertices: two fan pieces) and is pushed straight down out of
// it, through the top of a one-way segment it was above, and ends 0.17 of its height inside that platform: the push
// out ignores the one-way shapes it moves into (they are only pushed out of from a shallow overlap of their top).
static void test_push_out_never_sinks_into_a_one_way_platform_below( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_SEGMENT, 0x1.0a2227f5cc55dp-4, 2,
				   (const double[]){ -0x1.966c798b3edd6p+2, -0x1.5b53cec82aaf8p+1, -0x1.2f6ab916c87f9p+2, -0x1.5b53cec82aaf8p+1 },
				   0x2u, 0xffffffffu );
	soak_case_add( k, SOAK_POLY, 0x0p+0, 9,
				   (const double[]){ -0x1.8eebaeaf47302p+2, -0x1.2b510ded7ac1p+0, -0x1.8304bdbb1a62dp+2, -0x1.4bee1973917dfp+0,
									 -0x1.7f832c418c5c8p+2, -0x1.532c3196487dfp+0, -0x1.68b98c4182b18p+2, -0x1.80bcd6325749ep+0,
									 -0x1.61e47b1e6c73ap+2, -0x1.7fe5c5c7ea07ep+0, -0x1.6776ee83ff331p+2, -0x1.6e6d0a07aedf5p+0,
									 -0x1.702107f7703c8p+2, -0x1.58e41b2d691d9p+0, -0x1.7e38d0c5f0a4bp+2, -0x1.3c9d28d77cb94p+0,
									 -0x1.8c3229d3bc6cap+2, -0x1.2bd8fcab3b9b5p+0 },
				   0x1u, 0xffffffffu );
	k->spec.maker = 0; // circle
	k->spec.p[0] = 0x0p+0f;
	k->spec.p[1] = 0x0p+0f;
	k->spec.p[2] = 0x0p+0f;
	k->spec.p[3] = 0x0p+0f;
	k->spec.radius = 0x1.5e351cp-1f;
	k->spec.angle = 0x0p+0f;
	k->def.one_way_categories = 0x2u;
	k->position = kcc_v2( -0x1.603d0ep+2f, -0x1.cdac5ep+0f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( 0x0p+0f, 0x1p+0f );
	k->call = SOAK_CALL_MOVE;
	k->delta = kcc_v2( 0x0p+0f, 0x0p+0f );
	check_case( k, "push out never sinks into a one-way platform below" );
}

// Found by fuzz_controller on main. max_floor_angle 0 (only flat floors are walkable): a rounded box falls onto a flat
// one-way segment and through it, 0.27 of its height inside when it stops. The contact normal is (0, 0.99999994),
// just below cos(0) = 1: the one-way test (kcc_one_way_blocks) takes the top for a side, where the classification
// of floors allows 1e-5 for such rounding.
static void test_one_way_platform_with_max_floor_angle_zero_is_landed_on( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	soak_case_add( k, SOAK_SEGMENT, 0x1.ebb55b3b32f49p-9, 2,
				   (const double[]){ -0x1.13ff13ff13ff2p+1, -0x1.4545454545458p+0, -0x1.02c1cf8e9c5c4p-2, -0x1.4545454545458p+0 },
				   0x2u, 0xffffffffu );
	k->spec.maker = 2; // box
	k->spec.p[0] = 0x1.56ca4ep+0f;
	k->spec.p[1] = 0x1.a1fc1p-1f;
	k->spec.p[2] = 0x0p+0f;
	k->spec.p[3] = 0x0p+0f;
	k->spec.radius = 0x1.49ad92p-2f;
	k->spec.angle = 0x0p+0f;
	k->def.max_floor_angle = 0x0p+0f;
	k->def.one_way_categories = 0x2u;
	k->position = kcc_v2( 0x1.0b7b04p-3f, 0x1.a5a32ap-3f );
	k->flags = 0x0u;
	k->floor_normal = kcc_v2( 0x0p+0f, 0x1p+0f );
	k->call = SOAK_CALL_MOVE_AND_SLIDE;
	k->delta = kcc_v2( 0x0p+0f, -0x1.2f83fcp+3f );
	k->dt = 0x1.99838p-4f;
	check_case( k, "one-way platform with max_floor_angle 0" );
}

// Seed 20261201, world 184, shrunk: a rounded box (max_floor_angle 0.15 degrees) above a one-way segment moves down
// and right past its end, down a wall and along a steep edge back under the segment's level, into its end from the
// side (property 9: passed). It ends in the segment where the slide took it: not lifted onto it, not on the floor.
// The oracle judges a one-way shape from the move's start, where the character was above this one: the leg that
// entered it started beside it, where the same rule finds it not above.
static void test_one_way_end_entered_from_the_side_after_a_slide( void** state )
{
	(void)state;
	soak_case* k = soak_case_new();
	const double segment[] = { -0x1.cb3e0050d60bep+2, 0x1.b2a2ff717f4ap+2, -0x1.ac41f39821ea9p+1, 0x1.b2a2ff717f4ap+2 };
	soak_case_add( k, SOAK_SEGMENT, 0.0, 2, segment, SOAK_CAT_ONE_WAY, CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_POLY, 0.0, 10,
				   (const double[]){ -0x1.edff059467fb7p+0, 0x1.2d216e0754af8p+2, -0x1.58c2a74ad5468p+0, 0x1.3eb5bf0d5b9f6p+1,
									 -0x1.a3250a2b4241dp-1, 0x1.afc97f290ca2ap+0, 0x1.4e6df71176fcp-4, 0x1.0caa531f20426p+0,
									 0x1.c4e91fe3999b4p-2, 0x1.5c8c140f15c9p+0, 0x1.8bb79aff743acp-1, 0x1.146aa820c3bc8p+1,
									 0x1.90dff95667a0ep-1, 0x1.d492bc56541cep+1, -0x1.1bf29fb20cdb4p-3, 0x1.68b50c7503caap+2,
									 -0x1.90032b831579ap-1, 0x1.a35a309d3d825p+2, -0x1.c4c9ae89fd306p+0, 0x1.93a39ec5cfb2ep+2 },
				   SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	soak_case_add( k, SOAK_POLY, 0.0, 4,
				   (const double[]){ -0x1.e8da7bff394p-3, 0x1.0be0c644222a2p+1, 0x1.48631817d68f6p-3, 0x1.0be0c644222a2p+1,
									 0x1.48631817d68f6p-3, 0x1.7d7199331883p+3, -0x1.e8da7bff394p-3, 0x1.f5c664cc620cp+1 },
				   SOAK_CAT_LEVEL, CP_ALL_CATEGORIES );
	k->spec.maker = 2; // box
	k->spec.p[0] = 0x1.06d6ccp-1f;
	k->spec.p[1] = 0x1.cacff4p-2f;
	k->spec.p[2] = 0.0f, k->spec.p[3] = 0.0f;
	k->spec.radius = 0x1.85181p-1f;
	k->def.skin = 0x1.a28cdcp-2f;
	k->def.max_floor_angle = 0x1.5ad8cap-9f;
	k->def.one_way_categories = SOAK_CAT_ONE_WAY;
	k->position = kcc_v2( -0x1.8b69ecp+2f, 0x1.40a59p+3f );
	k->delta = kcc_v2( 0x1.2efd6p+5f, -0x1.bb731ap+3f );
	soak_case_outcome o = soak_case_run( k );
	assert_int_equal( o.status, KCC_OK );
	assert_false( o.fails ); // the oracle judges the one-way segment where the path entered it: from the side
	const kcc_move_result* r = &o.result;
	assert_true( ( r->flags & ( KCC_ON_FLOOR | KCC_CRUSHED | KCC_DEPENETRATED ) ) == 0 );
	assert_true( r->path_count >= 2 );
	vec2s leg_start = r->path[r->path_count - 2], leg_end = r->path[r->path_count - 1];
	assert_true( leg_end.x == r->position.x && leg_end.y == r->position.y );
	// The last leg runs along the steep edge it slid down (no lift at the end), toward the segment.
	// (the first polygon's last edge)
	const double edge_x = -0x1.c4c9ae89fd306p+0 - -0x1.90032b831579ap-1;
	const double edge_y = 0x1.93a39ec5cfb2ep+2 - 0x1.a35a309d3d825p+2;
	double leg_x = leg_end.x - leg_start.x, leg_y = leg_end.y - leg_start.y;
	assert_true( leg_x < -1.0 );
	double cross = leg_x * edge_y - leg_y * edge_x;
	assert_true( fabs( cross ) <= 1.0e-4 * hypot( leg_x, leg_y ) * hypot( edge_x, edge_y ) );
	soak_core seg = { 2, 0.0, { segment[0], segment[2] }, { segment[1], segment[3] } };
	soak_core_hull( &seg );
	soak_core me;
	kcc_shape shape = soak_make_character_shape( &k->spec );
	soak_core_from_character( &shape, leg_start, &me );
	double cos_floor = cos( (double)k->def.max_floor_angle );
	assert_true( soak_core_contact( &me, &seg ).depth < 0.0 );
	assert_false( soak_one_way_above( &me, &seg, k->def.up, cos_floor, INFINITY ) );
	soak_core_from_character( &shape, r->position, &me );
	assert_true( soak_core_contact( &me, &seg ).depth > 0.1 );
	free( k );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_constant_speed_on_a_slope_stays_in_the_queried_region ),
		cmocka_unit_test( test_going_down_against_the_input_stays_in_the_queried_region ),
		cmocka_unit_test( test_push_out_of_a_rounded_polygon_ends_clear_or_crushed ),
		cmocka_unit_test( test_push_out_of_a_circle_ends_clear_or_crushed ),
		cmocka_unit_test( test_push_whose_region_overflows_ends_clear_or_crushed ),
		cmocka_unit_test( test_a_move_inside_100000_circles_is_bounded ),
		cmocka_unit_test( test_set_shape_with_a_tilted_up_refuses_an_overlap ),
		cmocka_unit_test( test_polygon_walking_into_a_one_way_slope_climbs_it ),
		cmocka_unit_test( test_box_with_a_tilted_up_lands_on_a_one_way_platform ),
		cmocka_unit_test( test_pushes_between_two_shapes_end_clear_or_crushed ),
		cmocka_unit_test( test_falling_box_with_a_tilted_up_stays_in_the_queried_region ),
		cmocka_unit_test( test_constant_speed_with_a_flipped_up_stays_in_the_queried_region ),
		cmocka_unit_test( test_truncated_candidates_never_leave_the_character_inside ),
		cmocka_unit_test( test_polygon_with_a_nearly_collinear_vertex_pushes_out ),
		cmocka_unit_test( test_push_out_never_sinks_into_a_one_way_platform_below ),
		cmocka_unit_test( test_one_way_platform_with_max_floor_angle_zero_is_landed_on ),
		cmocka_unit_test( test_one_way_end_entered_from_the_side_after_a_slide ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
