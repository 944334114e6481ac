// SPDX-License-Identifier: MIT
// The soak (tests/soak_world.h): first its overlap oracle, checked against Chipmunk's own cpShapePointQuery on
// random pairs of shapes (circles, segments and polygons, rounded or not, on turned bodies); then a bounded,
// deterministic soak in random worlds: every move of every character is checked, and none may end overlapping a
// solid by more than 1e-3 of the character's height without KCC_CRUSHED (DESIGN.md section 5, property 1), produce
// a NaN, fail on valid input, or change anything on invalid input.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "soak_internal.h" // a world built by hand
#include "soak_world.h"

// ---------------------------------------------------------------------------------------------------------------
// The oracle

static void test_hull_drops_repeated_and_collinear_points( void** state )
{
	(void)state;
	soak_core c = { 0 };
	double pts[][2] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 2, 0 }, { 2, 1 }, { 1, 1 }, { 0, 1 }, { 0, 0.5 }, { 1, 0.5 } };
	c.count = 9;
	for ( int i = 0; i < c.count; ++i )
	{
		c.x[i] = pts[i][0];
		c.y[i] = pts[i][1];
	}
	soak_core_hull( &c );
	assert_int_equal( c.count, 4 );
	double area = 0.0;
	for ( int i = 0; i < c.count; ++i )
	{
		int j = ( i + 1 ) % c.count;
		area += c.x[i] * c.y[j] - c.x[j] * c.y[i];
	}
	assert_true( fabs( 0.5 * area - 2.0 ) < 1e-12 ); // counter-clockwise, the whole rectangle

	// Collinear points: the two ends. One point repeated: a point.
	soak_core s = { 3, 0.0, { 0.0, 2.0, 1.0 }, { 0.0, 2.0, 1.0 } };
	soak_core_hull( &s );
	assert_int_equal( s.count, 2 );
	assert_true( ( s.x[0] == 0.0 && s.x[1] == 2.0 ) || ( s.x[0] == 2.0 && s.x[1] == 0.0 ) );
	soak_core p = { 3, 0.0, { 1.0, 1.0, 1.0 }, { 2.0, 2.0, 2.0 } };
	soak_core_hull( &p );
	assert_int_equal( p.count, 1 );
}

// A random Chipmunk shape on a turned kinematic body (not in a space: cpShapeCacheBB places it).
static cpShape* random_shape( soak_source* src, cpBody* body, soak_shape_kind* kind, double spread )
{
	// One draw per statement: C leaves the order of a call's arguments to the compiler, and every compiler must draw
	// the same shapes (this order is the one gcc chose for the nested calls it replaces).
	double y = soak_uniform( src, -spread, spread );
	double x = soak_uniform( src, -spread, spread );
	cpBodySetPosition( body, cpv( x, y ) );
	cpBodySetAngle( body, soak_uniform( src, -3.2, 3.2 ) );
	double radius = soak_chance( src, 0.5 ) ? 0.0 : soak_log_uniform( src, 0.01, 1.0 );
	cpShape* s;
	switch ( soak_int( src, 3 ) )
	{
		case 0:
		{
			*kind = SOAK_CIRCLE;
			double cy = soak_uniform( src, -0.5, 0.5 );
			double cx = soak_uniform( src, -0.5, 0.5 );
			double r = soak_log_uniform( src, 0.01, 1.5 );
			s = cpCircleShapeNew( body, r, cpv( cx, cy ) );
			break;
		}
		case 1:
		{
			*kind = SOAK_SEGMENT;
			double by = soak_uniform( src, -1.5, 1.5 );
			double bx = soak_uniform( src, -1.5, 1.5 );
			double ay = soak_uniform( src, -1.5, 1.5 );
			double ax = soak_uniform( src, -1.5, 1.5 );
			s = cpSegmentShapeNew( body, cpv( ax, ay ), cpv( bx, by ), radius );
			break;
		}
		default:
		{
			*kind = SOAK_POLY;
			cpVect v[10];
			int n = 3 + soak_int( src, 8 );
			double rx = soak_uniform( src, 0.1, 1.5 ), ry = soak_uniform( src, 0.05, 1.5 );
			for ( int i = 0; i < n; ++i )
			{
				double a = 6.283185307179586 * ( i + soak_uniform( src, 0.0, 0.9 ) ) / n;
				v[i] = cpv( rx * cos( a ) + 0.3, ry * sin( a ) - 0.2 );
			}
			s = cpPolyShapeNew( body, n, v, cpTransformIdentity, radius );
			break;
		}
	}
	cpShapeCacheBB( s );
	return s;
}

#define SAMPLES 512
#define DENSE 20000
#define SPACING 0.002

// Points on the shape's boundary from Chipmunk alone: the closest surface points to far points all around, in
// order around the shape (a convex polygon inscribed in it, within a small sag on the rounded parts: at most 4e-5 here).
static void boundary_samples( const cpShape* s, double* x, double* y )
{
	cpBB bb = cpShapeGetBB( s );
	double cx = 0.5 * ( bb.l + bb.r ), cy = 0.5 * ( bb.b + bb.t );
	double far = 20.0 * ( bb.r - bb.l + bb.t - bb.b ) + 1.0;
	for ( int i = 0; i < SAMPLES; ++i )
	{
		double a = 6.283185307179586 * i / SAMPLES;
		cpPointQueryInfo info;
		cpShapePointQuery( s, cpv( cx + far * cos( a ), cy + far * sin( a ) ), &info );
		x[i] = info.point.x;
		y[i] = info.point.y;
	}
}

// The samples and points on the chords between them, SPACING apart (points of the shape: a zero-width segment
// crossing a circle is found overlapping only by points along it).
static int dense_samples( const double* x, const double* y, double* dx, double* dy )
{
	int n = 0;
	for ( int i = 0; i < SAMPLES; ++i )
	{
		int j = ( i + 1 ) % SAMPLES;
		int steps = (int)( hypot( x[j] - x[i], y[j] - y[i] ) / SPACING ) + 1;
		for ( int k = 0; k < steps && n < DENSE; ++k )
		{
			double t = (double)k / steps;
			dx[n] = x[i] + t * ( x[j] - x[i] );
			dy[n] = y[i] + t * ( y[j] - y[i] );
			n += 1;
		}
	}
	return n;
}

// Signed depth of two convex shapes from Chipmunk's point queries: apart, the smallest signed distance from the
// sampled points of each to the other (exact where a closest feature is a vertex, an arc or a flat edge); overlapping,
// the separating axis overlap of the two inscribed sample polygons over their edge normals.
static double sampled_depth( const cpShape* a, const cpShape* b )
{
	static double ax[SAMPLES], ay[SAMPLES], bx[SAMPLES], by[SAMPLES];
	static double dx[DENSE], dy[DENSE];
	boundary_samples( a, ax, ay );
	boundary_samples( b, bx, by );
	double gap = INFINITY;
	int n = dense_samples( ax, ay, dx, dy );
	for ( int i = 0; i < n; ++i )
	{
		double d = cpShapePointQuery( b, cpv( dx[i], dy[i] ), NULL );
		gap = d < gap ? d : gap;
	}
	n = dense_samples( bx, by, dx, dy );
	for ( int i = 0; i < n; ++i )
	{
		double d = cpShapePointQuery( a, cpv( dx[i], dy[i] ), NULL );
		gap = d < gap ? d : gap;
	}
	if ( gap > 0.0 )
	{
		return -gap;
	}
	double best = INFINITY;
	for ( int pass = 0; pass < 2; ++pass )
	{
		const double* px = pass == 0 ? ax : bx;
		const double* py = pass == 0 ? ay : by;
		for ( int i = 0; i < SAMPLES; ++i )
		{
			int j = ( i + 1 ) % SAMPLES;
			double ex = px[j] - px[i], ey = py[j] - py[i], len = hypot( ex, ey );
			if ( len < 1e-9 )
			{
				continue;
			}
			for ( int sign = -1; sign <= 1; sign += 2 )
			{
				double nx = sign * ey / len, ny = -sign * ex / len;
				double a_lo = INFINITY, b_hi = -INFINITY;
				for ( int k = 0; k < SAMPLES; ++k )
				{
					double d = ax[k] * nx + ay[k] * ny;
					a_lo = d < a_lo ? d : a_lo;
					d = bx[k] * nx + by[k] * ny;
					b_hi = d > b_hi ? d : b_hi;
				}
				best = b_hi - a_lo < best ? b_hi - a_lo : best;
			}
		}
	}
	return best;
}

static void test_oracle_matches_chipmunk_point_queries( void** state )
{
	(void)state;
	soak_source src = soak_source_seeded( 42 );
	cpBody* body_a = cpBodyNewKinematic();
	cpBody* body_b = cpBodyNewKinematic();
	int overlapping = 0, apart = 0;
	for ( int pair = 0; pair < 300; ++pair )
	{
		soak_shape_kind kind_a, kind_b;
		double spread = pair % 3 == 0 ? 0.3 : 2.0; // a third close together: deep overlaps and containment
		cpShape* a = random_shape( &src, body_a, &kind_a, spread );
		cpShape* b = random_shape( &src, body_b, &kind_b, spread );
		soak_core ca, cb;
		soak_core_from_chipmunk( a, kind_a, &ca );
		soak_core_from_chipmunk( b, kind_b, &cb );
		soak_contact k = soak_core_contact( &ca, &cb );
		double sampled = sampled_depth( a, b );
		// The samples lie on the shapes within a sag of about radius * 2e-5; a gap sampled on a flat edge is exact.
		double tolerance = 1e-4;
		if ( fabs( k.depth - sampled ) > tolerance )
		{
			print_error( "pair %d (kinds %d, %d): oracle depth %.9g, Chipmunk point queries %.9g\n", pair, kind_a,
						 kind_b, k.depth, sampled );
			fail();
		}
		// The normal: a moved along it by the depth plus a little is clear of b, by the depth minus a little is not
		// (apart, the second one needs no sharp corners: two sharp tips moved past each other never meet).
		if ( fabs( k.depth ) > 1e-3 )
		{
			cpVect p = cpBodyGetPosition( body_a );
			for ( int side = k.depth > 0.0 ? -1 : 1; side <= 1; side += 2 )
			{
				double t = k.depth + side * 1e-3;
				cpBodySetPosition( body_a, cpvadd( p, cpv( k.nx * t, k.ny * t ) ) );
				cpShapeCacheBB( a );
				double moved = sampled_depth( a, b );
				if ( ( side < 0 && moved <= 0.0 ) || ( side > 0 && moved > 0.0 ) )
				{
					print_error( "pair %d: moved by depth %+g along the normal, sampled depth %.9g\n", pair,
								 side * 1e-3, moved );
					fail();
				}
			}
			cpBodySetPosition( body_a, p );
		}
		// A circle against anything: its centre's signed distance gives the exact depth.
		if ( kind_a == SOAK_CIRCLE )
		{
			cpBodySetPosition( body_a, cpBodyGetPosition( body_a ) );
			cpShapeCacheBB( a );
			cpVect centre = cpBodyLocalToWorld( body_a, cpCircleShapeGetOffset( a ) );
			double exact = cpCircleShapeGetRadius( a ) - cpShapePointQuery( b, centre, NULL );
			if ( fabs( exact - k.depth ) > 1e-9 )
			{
				print_error( "pair %d: circle depth %.12g, centre distance gives %.12g\n", pair, k.depth, exact );
				fail();
			}
		}
		overlapping += k.depth > 0.0;
		apart += k.depth < 0.0;
		cpShapeFree( a );
		cpShapeFree( b );
	}
	cpBodyFree( body_a );
	cpBodyFree( body_b );
	assert_true( overlapping > 50 && apart > 50 );
}

// A rider that skipped a frame: the controller carries it by its platform's motion since its last move (two steps),
// and the oracle must judge a one-way shape of the platform from where that carry puts it, not from one step.
static void test_oracle_carries_a_rider_since_its_last_move( void** state )
{
	(void)state;
	soak_world* w = soak_world_new( 10.0 );
	// A lift going down, position-driven: a one-way floor, and on its right a one-way ledge 0.1 higher.
	soak_platform* lift = &w->platforms[w->platform_count++];
	memset( lift, 0, sizeof( *lift ) );
	lift->body = cpSpaceAddBody( w->space, cpBodyNewKinematic() );
	lift->amp_y = -1.0;
	lift->omega = 30.0; // down 0.48 in the first step, 0.36 in the second
	const cpShapeFilter one_way = cpShapeFilterNew( CP_NO_GROUP, SOAK_CAT_ONE_WAY, CP_ALL_CATEGORIES );
	cpShape* floor = cpSpaceAddShape( w->space, cpBoxShapeNew2( lift->body, cpBBNew( -3.0, -1.0, 3.0, 0.0 ), 0.0 ) );
	cpShape* ledge = cpSpaceAddShape( w->space, cpBoxShapeNew2( lift->body, cpBBNew( 0.0, -1.0, 3.0, 0.1 ), 0.0 ) );
	cpShapeSetFilter( floor, one_way );
	cpShapeSetFilter( ledge, one_way );
	soak_register( w, floor, SOAK_POLY, SOAK_ROLE_PLATFORM | SOAK_ROLE_ONE_WAY, -1 );
	int ledge_index = soak_register( w, ledge, SOAK_POLY, SOAK_ROLE_PLATFORM | SOAK_ROLE_ONE_WAY, -1 );

	soak_character* ch = &w->characters[w->character_count++];
	memset( ch, 0, sizeof( *ch ) );
	ch->def = kcc_default_controller_def();
	ch->def.shape = kcc_make_box( kcc_v2( 0.5f, 0.8f ), 0.0f );
	ch->def.one_way_categories = SOAK_CAT_ONE_WAY;
	ch->def.position = kcc_v2( -1.5f, 0.8f + ch->def.skin );
	ch->c = kcc_controller_create( w->space, &ch->def );
	assert_non_null( ch->c );
	ch->height = soak_character_height( &ch->def.shape, ch->def.up );
	ch->shape_index = soak_register( w, kcc_controller_get_shape( ch->c ), SOAK_POLY, SOAK_ROLE_CHARACTER, 0 );

	// It walks into the ledge from the side (one-way shapes let it through) and stands on the floor, half inside it.
	vec2s start = kcc_controller_get_position( ch->c );
	kcc_move_result r;
	assert_int_equal( kcc_controller_move( ch->c, kcc_v2( 1.5f, 0.0f ), &r ), KCC_OK );
	assert_true( ( r.flags & KCC_ON_FLOOR ) && r.floor_shape == floor );
	assert_false( soak_check_character( w, 0, &start, &r, r.flags ).counted );
	// What the soak keeps after a move.
	ch->floor_shape = floor;
	ch->riding = true;
	ch->ride = ( soak_pose ){ 0.0, 0.0, 0.0 };
	ch->one_way_inside = kcc_controller_get_state( ch->c ).one_way_inside;
	assert_true( ch->one_way_inside );

	// Two steps of the lift, one move: carried down 0.84 with the lift, it is still in the ledge as it was.
	soak_world_step_platforms( w );
	soak_world_step_platforms( w );
	start = kcc_controller_get_position( ch->c );
	assert_int_equal( kcc_controller_move( ch->c, kcc_v2( 0.0f, 0.0f ), &r ), KCC_OK );
	double lift_y = cpBodyGetPosition( lift->body ).y;
	assert_true( lift_y < -0.8 );
	assert_float_equal( r.position.y, start.y + lift_y, 1.0e-5 );
	assert_true( r.floor_shape == floor && ( r.flags & KCC_CRUSHED ) == 0 );
	soak_core me;
	soak_core_from_character( &ch->def.shape, r.position, &me );
	assert_true( soak_core_contact( &me, &soak_cache_of( w, ledge_index )->core ).depth > 0.05 );
	// Passing through the ledge, as before the lift moved: not an overlap.
	soak_check check = soak_check_character( w, 0, &start, &r, r.flags );
	assert_false( check.counted );
	soak_world_destroy( w ); // the character too
}

// A one-way shape blocks only from above: the oracle judges "above" at the start of the leg of the move's reported
// path that entered the shape, so a character that left the top and entered the shape from the side later in the
// move passes, and one that came from the side and sank in from above later in the move is caught. A path not from the start to the end is
// refused; a full path (maybe truncated) is judged at the move's start.
static void test_oracle_judges_one_way_shapes_where_the_path_entered( void** state )
{
	(void)state;
	soak_world* w = soak_world_new( 10.0 );
	cpShape* block = cpSpaceAddShape( w->space, cpBoxShapeNew2( cpSpaceGetStaticBody( w->space ),
															   cpBBNew( -2.0, -1.0, 2.0, 0.0 ), 0.0 ) );
	cpShapeSetFilter( block, cpShapeFilterNew( CP_NO_GROUP, SOAK_CAT_ONE_WAY, CP_ALL_CATEGORIES ) );
	soak_register( w, block, SOAK_POLY, SOAK_ROLE_ONE_WAY, -1 );
	soak_character* ch = &w->characters[w->character_count++];
	memset( ch, 0, sizeof( *ch ) );
	ch->def = kcc_default_controller_def();
	ch->def.shape = kcc_make_box( kcc_v2( 0.5f, 0.5f ), 0.0f );
	ch->def.one_way_categories = SOAK_CAT_ONE_WAY;
	ch->def.position = kcc_v2( 1.5f, 2.0f );
	ch->c = kcc_controller_create( w->space, &ch->def );
	assert_non_null( ch->c );
	ch->height = soak_character_height( &ch->def.shape, ch->def.up );
	ch->shape_index = soak_register( w, kcc_controller_get_shape( ch->c ), SOAK_POLY, SOAK_ROLE_CHARACTER, 0 );

	// It ends 0.2 deep in the block's top corner (a floor-facing overlap).
	assert_int_equal( kcc_controller_set_position( ch->c, kcc_v2( 1.5f, 0.3f ) ), KCC_OK );
	vec2s end = kcc_controller_get_position( ch->c );
	const vec2s above = kcc_v2( 1.5f, 2.0f ), beside = kcc_v2( 3.0f, 0.3f ); // beside: right of it, below its top
	kcc_move_result r;
	memset( &r, 0, sizeof( r ) );
	r.position = end;
	r.path_count = 3;
	vec2s leg;
	bool carried;

	// From above, round to the right and into it from the side in the last leg: passing.
	r.path[0] = above, r.path[1] = beside, r.path[2] = end;
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_LEG );
	assert_true( leg.x == beside.x && leg.y == beside.y && carried == false );
	assert_false( soak_check_character( w, 0, &above, &r, 0 ).counted );
	assert_true( soak_check_character( w, 0, &above, NULL, 0 ).counted ); // judged at the start: above

	// From the side, up above it, then down into it in the last leg: sinking in from above.
	r.path[0] = beside, r.path[1] = above, r.path[2] = end;
	soak_check check = soak_check_character( w, 0, &beside, &r, 0 );
	assert_true( check.counted );
	assert_float_equal( check.heights, 0.2, 1.0e-5 );
	assert_false( soak_check_character( w, 0, &beside, NULL, 0 ).counted );
	assert_false( soak_check_character( w, 0, &beside, &r, KCC_CRUSHED ).counted );

	// From the side into it, then on inside it: judged where it entered, from the side.
	const vec2s entered = kcc_v2( 1.9f, 0.3f );
	r.path_count = 4;
	r.path[0] = above, r.path[1] = beside, r.path[2] = entered, r.path[3] = end;
	assert_false( soak_check_character( w, 0, &above, &r, 0 ).counted );
	// From the side up above it, into it from above, then on inside it: sinking in from above.
	r.path[0] = beside, r.path[1] = above, r.path[2] = entered, r.path[3] = end;
	assert_true( soak_check_character( w, 0, &beside, &r, 0 ).counted );

	// A straight move (two points): its only leg starts at the start.
	r.path_count = 2;
	r.path[0] = above, r.path[1] = end;
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_LEG );
	assert_true( leg.x == above.x && leg.y == above.y && carried );
	assert_true( soak_check_character( w, 0, &above, &r, 0 ).counted );

	// A path that does not start at the start, or does not end at the end: refused, judged at the start.
	r.path_count = 3;
	r.path[0] = kcc_v2( above.x, above.y + 1.0e-3f ), r.path[1] = beside, r.path[2] = end;
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_BROKEN );
	assert_true( soak_check_character( w, 0, &above, &r, 0 ).counted );
	r.path[0] = above, r.path[2] = kcc_v2( end.x, end.y - 1.0e-3f );
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_BROKEN );
	r.path_count = 0;
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_BROKEN );

	// A full path may have lost points: judged at the start, even with a last leg from the side.
	r.path_count = KCC_MAX_PATH_POINTS;
	for ( int i = 0; i < KCC_MAX_PATH_POINTS; ++i )
	{
		r.path[i] = i == 0 ? above : i + 1 < KCC_MAX_PATH_POINTS ? beside : end;
	}
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_TRUNCATED );
	assert_true( soak_check_character( w, 0, &above, &r, 0 ).counted );
	r.path_count = KCC_MAX_PATH_POINTS - 1;
	r.path[KCC_MAX_PATH_POINTS - 2] = end;
	assert_int_equal( soak_path_last_leg( &r, above, end, &leg, &carried ), SOAK_PATH_LEG );
	assert_false( soak_check_character( w, 0, &above, &r, 0 ).counted );
	soak_world_destroy( w ); // the character too
}

// ---------------------------------------------------------------------------------------------------------------
// The bounded soak

static void test_soak( void** state )
{
	(void)state;
	soak_run_config config;
	memset( &config, 0, sizeof( config ) );
	config.seed = 20261124;
	config.moves = 100000;
	config.frames_per_world = 300;
	config.world.features = 30;
	config.world.platforms = 4;
	config.world.characters = 3;
	config.world.half_size = 10.0;
	config.world.crates = 10;
	config.print_failures = 3;
	config.log = stdout;
	config.shrink = true;
	config.only_world = -1;
	static soak_stats stats;
	soak_run( &config, &stats );
	soak_stats_print( stdout, &stats );
	assert_true( stats.moves >= config.moves );
	assert_int_equal( stats.overlaps, 0 );
	assert_int_equal( stats.path_mismatches, 0 );
	assert_true( stats.pushes > 0 && stats.replays > 0 );
	assert_int_equal( stats.crate_overlaps, 0 );
	assert_int_equal( stats.replay_mismatches, 0 );
	assert_int_equal( stats.nan, 0 );
	assert_int_equal( stats.wrong_status, 0 );
	assert_int_equal( stats.moved_on_error, 0 );
	assert_int_equal( stats.shape_overlaps, 0 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_hull_drops_repeated_and_collinear_points ),
		cmocka_unit_test( test_oracle_matches_chipmunk_point_queries ),
		cmocka_unit_test( test_oracle_carries_a_rider_since_its_last_move ),
		cmocka_unit_test( test_oracle_judges_one_way_shapes_where_the_path_entered ),
		cmocka_unit_test( test_soak ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
