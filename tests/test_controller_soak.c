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
	cpBodySetPosition( body, cpv( soak_uniform( src, -spread, spread ), soak_uniform( src, -spread, spread ) ) );
	cpBodySetAngle( body, soak_uniform( src, -3.2, 3.2 ) );
	double radius = soak_chance( src, 0.5 ) ? 0.0 : soak_log_uniform( src, 0.01, 1.0 );
	cpShape* s;
	switch ( soak_int( src, 3 ) )
	{
		case 0:
			*kind = SOAK_CIRCLE;
			s = cpCircleShapeNew( body, soak_log_uniform( src, 0.01, 1.5 ),
								  cpv( soak_uniform( src, -0.5, 0.5 ), soak_uniform( src, -0.5, 0.5 ) ) );
			break;
		case 1:
			*kind = SOAK_SEGMENT;
			s = cpSegmentShapeNew( body, cpv( soak_uniform( src, -1.5, 1.5 ), soak_uniform( src, -1.5, 1.5 ) ),
								   cpv( soak_uniform( src, -1.5, 1.5 ), soak_uniform( src, -1.5, 1.5 ) ), radius );
			break;
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
		cmocka_unit_test( test_soak ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
