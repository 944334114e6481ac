// SPDX-License-Identifier: MIT
// kcc_circle_overlaps_polygon: targeted cases for the all-edges float test and its double fallback (exact touching
// on float-exact coordinates, every vertex count, rounded polygons, huge and tiny scales, bad input) and a large
// randomised comparison, near-boundary placements included, against an exact-predicate reference written here.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../geometry/internal.h"
#include "alloc_count.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include "assert_recorder.h"

#define PI_D 3.14159265358979323846

// ----------------------------------------------------------------------------------------------------------------
// Reference: the decision dist( centre, core ) <= rr with rr = circle radius + polygon radius as the float sum the
// library documents, from the definitions: inside the core iff on the inner side of every edge line (closed), else
// the squared distance to each edge segment against rr^2, each compared without division or square root (ee times
// the squared distance to the segment's interior is cross^2). long double (64-bit significands on x86) makes the
// products of the differences of these floats exact for every coordinate the tests use.

typedef long double ref_real;

static bool ref_is_finite( float x )
{
	return x == x && x - x == 0.0f;
}

static bool ref_circle_polygon( vec2s center, float circle_radius, const kcc_polygon* b )
{
	float rr = circle_radius + b->radius;
	if ( b->count < 3 || b->count > KCC_MAX_POLYGON_VERTICES || ref_is_finite( center.x ) == false ||
		 ref_is_finite( center.y ) == false || ref_is_finite( rr ) == false || rr < 0.0f )
	{
		return false;
	}
	int n = b->count;
	ref_real r2 = (ref_real)rr * (ref_real)rr;
	bool inside = true;
	bool within = false;
	for ( int i = 0; i < n; ++i )
	{
		vec2s v = b->vertices[i];
		vec2s w = b->vertices[( i + 1 ) % n];
		if ( ref_is_finite( v.x ) == false || ref_is_finite( v.y ) == false )
		{
			return false;
		}
		ref_real ex = (ref_real)w.x - (ref_real)v.x, ey = (ref_real)w.y - (ref_real)v.y;
		ref_real dx = (ref_real)center.x - (ref_real)v.x, dy = (ref_real)center.y - (ref_real)v.y;
		ref_real cross = ex * dy - ey * dx;
		if ( cross < 0.0L )
		{
			inside = false;
		}
		ref_real t = ex * dx + ey * dy;
		ref_real ee = ex * ex + ey * ey;
		if ( t <= 0.0L )
		{
			within = within || dx * dx + dy * dy <= r2;
		}
		else if ( t >= ee )
		{
			ref_real fx = (ref_real)center.x - (ref_real)w.x, fy = (ref_real)center.y - (ref_real)w.y;
			within = within || fx * fx + fy * fy <= r2;
		}
		else
		{
			within = within || cross * cross <= r2 * ee;
		}
	}
	return inside || within;
}

// Every form the machine runs (SSE2 and AVX here; scalar in the KCC_PORTABLE build) must give the same answer.
static bool overlaps( vec2s center, float radius, const kcc_polygon* b )
{
	kcc_circle c = { center, radius };
	kcc_isa previous = kcc_limit_isa( KCC_ISA_BASELINE );
	bool baseline = kcc_circle_overlaps_polygon( c, b );
	kcc_limit_isa( previous );
	bool widest = kcc_circle_overlaps_polygon( c, b );
	assert_true( baseline == widest );
	return widest;
}

// The library answer must be the reference's; the message names the case.
static void check_against_reference( vec2s center, float radius, const kcc_polygon* b, const char* what )
{
	bool got = overlaps( center, radius, b );
	bool expected = ref_circle_polygon( center, radius, b );
	if ( got != expected )
	{
		fail_msg( "%s: centre (%.9g, %.9g) radius %.9g polygon radius %.9g count %d: got %d, expected %d", what,
				  (double)center.x, (double)center.y, (double)radius, (double)b->radius, b->count, (int)got,
				  (int)expected );
	}
}

static kcc_polygon make_polygon_or_fail( const vec2s* points, int count, float radius )
{
	kcc_shape s = kcc_make_polygon( points, count, radius );
	assert_int_equal( s.type, KCC_SHAPE_POLYGON );
	assert_int_equal( s.polygon.count, count );
	return s.polygon;
}

// Convex lattice polygons with 3 .. 8 vertices, counter-clockwise, coordinates multiples of 8 (so that eighths of
// every edge are float-exact points on it).
static const vec2s s_lattice[KCC_MAX_POLYGON_VERTICES + 1][KCC_MAX_POLYGON_VERTICES] = {
	[3] = { { { 0.0f, 0.0f } }, { { 64.0f, 0.0f } }, { { 16.0f, 48.0f } } },
	[4] = { { { -32.0f, -16.0f } }, { { 40.0f, -24.0f } }, { { 48.0f, 32.0f } }, { { -24.0f, 40.0f } } },
	[5] = { { { 0.0f, -40.0f } }, { { 40.0f, -16.0f } }, { { 32.0f, 32.0f } }, { { -24.0f, 40.0f } }, { { -40.0f, -8.0f } } },
	[6] = { { { -16.0f, -40.0f } },
			{ { 24.0f, -40.0f } },
			{ { 48.0f, 0.0f } },
			{ { 24.0f, 40.0f } },
			{ { -16.0f, 40.0f } },
			{ { -40.0f, 0.0f } } },
	[7] = { { { 0.0f, -48.0f } },
			{ { 32.0f, -40.0f } },
			{ { 48.0f, -8.0f } },
			{ { 40.0f, 24.0f } },
			{ { 8.0f, 48.0f } },
			{ { -32.0f, 32.0f } },
			{ { -40.0f, -16.0f } } },
	[8] = { { { -16.0f, -40.0f } },
			{ { 16.0f, -40.0f } },
			{ { 40.0f, -16.0f } },
			{ { 40.0f, 16.0f } },
			{ { 16.0f, 40.0f } },
			{ { -16.0f, 40.0f } },
			{ { -40.0f, 16.0f } },
			{ { -40.0f, -16.0f } } },
};

static kcc_polygon lattice_polygon( int count, float radius )
{
	kcc_polygon p = make_polygon_or_fail( s_lattice[count], count, radius );
	// the hull keeps the lattice points (any start vertex): every later case uses p.vertices
	return p;
}

// The float one ulp past x away from the origin of direction s (s > 0: up).
static float step_ulp( float x, float s )
{
	return nextafterf( x, s > 0.0f ? INFINITY : -INFINITY );
}

// ----------------------------------------------------------------------------------------------------------------
// Exact touching on sharp polygons

static void test_points_on_edges_and_vertices_touch( void** state )
{
	(void)state;
	int on_edge = 0, off_edge_out = 0, off_edge_in = 0;
	for ( int count = 3; count <= KCC_MAX_POLYGON_VERTICES; ++count )
	{
		kcc_polygon p = lattice_polygon( count, 0.0f );
		for ( int i = 0; i < count; ++i )
		{
			vec2s v = p.vertices[i], w = p.vertices[( i + 1 ) % count];
			// every vertex, and the eighths of every edge: exactly on the boundary, so a point (radius 0) touches
			assert_true( overlaps( v, 0.0f, &p ) );
			for ( int k = 1; k < 8; ++k )
			{
				vec2s q = kcc_v2( v.x + ( w.x - v.x ) * (float)k / 8.0f, v.y + ( w.y - v.y ) * (float)k / 8.0f );
				assert_true( ref_circle_polygon( q, 0.0f, &p ) ); // the construction is exact
				assert_true( overlaps( q, 0.0f, &p ) );
				on_edge += 1;
				// one ulp outward along the normal's larger component: strictly outside, by far less than any
				// float error bound, so it takes the exact path, which must say no
				vec2s n = p.normals[i];
				vec2s out = q, in = q;
				if ( fabsf( n.x ) >= fabsf( n.y ) )
				{
					out.x = step_ulp( q.x, n.x );
					in.x = step_ulp( q.x, -n.x );
				}
				else
				{
					out.y = step_ulp( q.y, n.y );
					in.y = step_ulp( q.y, -n.y );
				}
				assert_false( ref_circle_polygon( out, 0.0f, &p ) );
				assert_false( overlaps( out, 0.0f, &p ) );
				assert_true( overlaps( in, 0.0f, &p ) );
				off_edge_out += 1;
				off_edge_in += 1;
				// a circle of radius one ulp-sized reaching back to the edge touches it
				check_against_reference( out, 1.0e-5f, &p, "ulp outside, small circle" );
			}
			// one ulp outside a vertex, along both axes outward of the vertex's cone
			vec2s n0 = p.normals[( i + count - 1 ) % count], n1 = p.normals[i];
			vec2s corner = kcc_v2( step_ulp( v.x, n0.x + n1.x ), step_ulp( v.y, n0.y + n1.y ) );
			assert_false( overlaps( corner, 0.0f, &p ) );
			check_against_reference( corner, 0.0f, &p, "ulp outside a vertex" );
		}
		// the centroid region and a far point
		assert_true( overlaps( p.centroid, 0.0f, &p ) );
		assert_false( overlaps( kcc_v2( 1000.0f, 1000.0f ), 0.0f, &p ) );
	}
	assert_int_equal( on_edge, 7 * ( 3 + 4 + 5 + 6 + 7 + 8 ) );
	assert_int_equal( off_edge_out, on_edge );
	assert_int_equal( off_edge_in, on_edge );
}

// Circles tangent to axis-aligned edges and to vertices (3-4-5 directions): exactly touching counts, the next
// smaller radius does not.
static void test_tangent_circles_touch_exactly( void** state )
{
	(void)state;
	// a box [-8, 0] x [-8, 0] as a polygon, radius 0 and rounded with radius 2
	vec2s box[4] = { { { -8.0f, -8.0f } }, { { 0.0f, -8.0f } }, { { 0.0f, 0.0f } }, { { -8.0f, 0.0f } } };
	for ( int rounded = 0; rounded < 2; ++rounded )
	{
		float pr = rounded ? 2.0f : 0.0f;
		kcc_polygon p = make_polygon_or_fail( box, 4, pr );
		// edge x = 0: centre (r + pr, -4) with circle radius r touches; sums stay exact (small dyadics)
		for ( float r = 0.25f; r <= 16.0f; r *= 2.0f )
		{
			float d = r + pr;
			assert_true( overlaps( kcc_v2( d, -4.0f ), r, &p ) );
			assert_true( overlaps( kcc_v2( -4.0f, d ), r, &p ) );
			assert_true( overlaps( kcc_v2( -8.0f - d, -4.0f ), r, &p ) );
			assert_true( overlaps( kcc_v2( -4.0f, -8.0f - d ), r, &p ) );
			// at the end of the edge's segment (the vertex's normal cone boundary)
			assert_true( overlaps( kcc_v2( d, 0.0f ), r, &p ) );
			assert_true( overlaps( kcc_v2( d, -8.0f ), r, &p ) );
			// one ulp farther out: separated
			assert_false( overlaps( kcc_v2( step_ulp( d, 1.0f ), -4.0f ), r, &p ) );
			assert_false( overlaps( kcc_v2( -4.0f, step_ulp( d, 1.0f ) ), r, &p ) );
			assert_false( overlaps( kcc_v2( step_ulp( -8.0f - d, -1.0f ), -4.0f ), r, &p ) );
			check_against_reference( kcc_v2( step_ulp( d, 1.0f ), 0.0f ), r, &p, "ulp past the segment end" );
		}
		// vertex (0, 0): directions (3, 4) / 5 and (4, 3) / 5 at distances 5, 10 and 5 / 8
		const float scales[3] = { 1.0f, 2.0f, 0.125f };
		for ( int k = 0; k < 3; ++k )
		{
			float s = scales[k];
			float r = 5.0f * s - pr;
			if ( r < 0.0f )
			{
				continue;
			}
			assert_true( overlaps( kcc_v2( 3.0f * s, 4.0f * s ), r, &p ) );
			assert_true( overlaps( kcc_v2( 4.0f * s, 3.0f * s ), r, &p ) );
			// the next smaller radius (whose sum with pr is exact here, or rounds down) misses
			float smaller = nextafterf( r, 0.0f );
			bool exact_sum = ( smaller + pr ) < 5.0f * s;
			check_against_reference( kcc_v2( 3.0f * s, 4.0f * s ), smaller, &p, "vertex, smaller radius" );
			if ( exact_sum )
			{
				assert_false( overlaps( kcc_v2( 3.0f * s, 4.0f * s ), smaller, &p ) );
			}
			// vertex (-8, 0): direction (-3, 4) / 5; vertex (-8, -8): (-4, -3) / 5
			assert_true( overlaps( kcc_v2( -8.0f - 3.0f * s, 4.0f * s ), r, &p ) );
			assert_true( overlaps( kcc_v2( -8.0f - 4.0f * s, -8.0f - 3.0f * s ), r, &p ) );
			assert_false( overlaps( kcc_v2( step_ulp( -8.0f - 4.0f * s, -1.0f ), -8.0f - 3.0f * s ), r, &p ) );
		}
	}
	// a slanted edge: the triangle (0, 0), (8, 0), (0, 6) has hypotenuse normal (3, 4) / 5 and length 10; the
	// point (4, 3) is its midpoint, so (4, 3) + 5 (3, 4) / 5 = (7, 7) is at distance 5 from it
	vec2s tri[3] = { { { 0.0f, 0.0f } }, { { 8.0f, 0.0f } }, { { 0.0f, 6.0f } } };
	kcc_polygon t = make_polygon_or_fail( tri, 3, 0.0f );
	assert_true( overlaps( kcc_v2( 7.0f, 7.0f ), 5.0f, &t ) );
	assert_false( overlaps( kcc_v2( 7.0f, 7.0f ), nextafterf( 5.0f, 0.0f ), &t ) );
	assert_true( overlaps( kcc_v2( 4.0f, 3.0f ), 0.0f, &t ) ); // on the hypotenuse
	assert_false( overlaps( kcc_v2( 4.0f, step_ulp( 3.0f, 1.0f ) ), 0.0f, &t ) );
	t = make_polygon_or_fail( tri, 3, 1.5f );
	assert_true( overlaps( kcc_v2( 7.0f, 7.0f ), 3.5f, &t ) );
	assert_false( overlaps( kcc_v2( 7.0f, 7.0f ), 3.5f - 0x1p-20f, &t ) ); // the sum 5 - 2^-20 is exact
	check_against_reference( kcc_v2( 7.0f, 7.0f ), nextafterf( 3.5f, 0.0f ), &t, "sum rounding to 5" );
}

// Every vertex count uses lanes 0 .. count - 1 only: the unused entries of the arrays may hold anything.
static void test_unused_entries_do_not_matter( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 31 };
	const float junk[4] = { NAN, INFINITY, -1.0e30f, 0.0f };
	int checked = 0;
	for ( int count = 3; count <= KCC_MAX_POLYGON_VERTICES; ++count )
	{
		kcc_polygon clean = lattice_polygon( count, 0.5f );
		for ( int j = 0; j < 4; ++j )
		{
			kcc_polygon dirty = clean;
			for ( int k = count; k < KCC_MAX_POLYGON_VERTICES; ++k )
			{
				dirty.vertices[k] = kcc_v2( junk[j], -junk[j] );
				dirty.normals[k] = kcc_v2( junk[j], junk[j] );
			}
			for ( int i = 0; i < 2000; ++i )
			{
				vec2s c = kcc_v2( kcc_ref_uniform( &rng, -70.0f, 70.0f ), kcc_ref_uniform( &rng, -70.0f, 70.0f ) );
				float r = kcc_ref_uniform( &rng, 0.0f, 12.0f );
				bool expected = ref_circle_polygon( c, r, &clean );
				assert_int_equal( overlaps( c, r, &clean ), expected );
				assert_int_equal( overlaps( c, r, &dirty ), expected );
				checked += 1;
			}
		}
	}
	assert_int_equal( checked, 6 * 4 * 2000 );
}

// Power-of-two scaling is exact in float: the answers must not change from 2^-120 to 2^115 (squares of the
// coordinates leave float's range at both ends, so these go through the double test).
static void test_huge_and_tiny_scales( void** state )
{
	(void)state;
	const int exponents[] = { -120, -100, -75, -64, -40, -10, 0, 10, 40, 64, 75, 100, 115 };
	kcc_ref_rng rng = { 77 };
	int hits = 0, total = 0;
	for ( int count = 3; count <= KCC_MAX_POLYGON_VERTICES; ++count )
	{
		for ( int rounded = 0; rounded < 2; ++rounded )
		{
			kcc_polygon base = lattice_polygon( count, rounded ? 4.0f : 0.0f );
			for ( int i = 0; i < 300; ++i )
			{
				// centres on a 1/8 grid and radii multiples of 1/8: the scaled values stay exact
				vec2s c = kcc_v2( (float)kcc_ref_int( &rng, -640, 640 ) / 8.0f, (float)kcc_ref_int( &rng, -640, 640 ) / 8.0f );
				float r = (float)kcc_ref_int( &rng, 0, 160 ) / 8.0f;
				bool expected = ref_circle_polygon( c, r, &base );
				assert_int_equal( overlaps( c, r, &base ), expected );
				hits += expected;
				total += 1;
				for ( size_t e = 0; e < sizeof( exponents ) / sizeof( exponents[0] ); ++e )
				{
					kcc_polygon scaled = base;
					for ( int k = 0; k < count; ++k )
					{
						scaled.vertices[k] = kcc_v2( ldexpf( base.vertices[k].x, exponents[e] ),
													 ldexpf( base.vertices[k].y, exponents[e] ) );
					}
					scaled.centroid = kcc_v2( ldexpf( base.centroid.x, exponents[e] ), ldexpf( base.centroid.y, exponents[e] ) );
					scaled.radius = ldexpf( base.radius, exponents[e] );
					vec2s sc = kcc_v2( ldexpf( c.x, exponents[e] ), ldexpf( c.y, exponents[e] ) );
					float sr = ldexpf( r, exponents[e] );
					if ( overlaps( sc, sr, &scaled ) != expected )
					{
						fail_msg( "scale 2^%d count %d centre (%g, %g) r %g: expected %d", exponents[e], count,
								  (double)c.x, (double)c.y, (double)r, (int)expected );
					}
				}
			}
		}
	}
	// both answers occur often
	assert_true( hits > total / 5 );
	assert_true( hits < total * 4 / 5 );
	// a huge circle around a small polygon and a tiny one far away
	kcc_polygon p = lattice_polygon( 8, 0.0f );
	assert_true( overlaps( kcc_v2( 1.0e30f, 0.0f ), 1.0e30f, &p ) );
	assert_false( overlaps( kcc_v2( 1.0e30f, 0.0f ), 9.0e29f, &p ) );
	assert_true( overlaps( kcc_v2( 2.0e38f, 0.0f ), FLT_MAX, &p ) );
	assert_false( overlaps( kcc_v2( 3.0e38f, 3.0e38f ), FLT_MAX, &p ) ); // sqrt( 2 ) 3e38 away
	assert_false( overlaps( kcc_v2( 3.0e38f, 3.0e38f ), 1.0e-30f, &p ) );
	assert_true( overlaps( kcc_v2( 0.0f, 0.0f ), FLT_MAX, &p ) );
	assert_true( overlaps( kcc_v2( 40.0f + 1.0e-30f, 0.0f ), 1.0e-30f, &p ) );
	assert_false( overlaps( kcc_v2( 40.0f + 1.0e-5f, 0.0f ), 1.0e-30f, &p ) );
	// a denormal-sized polygon and circle
	vec2s tiny[3] = { { { 0.0f, 0.0f } }, { { 8.0e-39f, 0.0f } }, { { 0.0f, 8.0e-39f } } };
	kcc_shape t = kcc_make_polygon( tiny, 3, 0.0f );
	if ( t.type == KCC_SHAPE_POLYGON )
	{
		check_against_reference( kcc_v2( 4.0e-39f, 4.0e-39f ), 0.0f, &t.polygon, "denormal triangle, hypotenuse" );
		check_against_reference( kcc_v2( 8.0e-39f, 8.0e-39f ), 0.0f, &t.polygon, "denormal triangle, outside" );
		check_against_reference( kcc_v2( 8.0e-39f, 8.0e-39f ), 6.0e-39f, &t.polygon, "denormal triangle, circle" );
	}
}

static void test_bad_input_is_no_hit( void** state )
{
	(void)state;
	kcc_polygon p = lattice_polygon( 6, 0.0f );
	const float bad[4] = { NAN, INFINITY, -INFINITY, -NAN };
	for ( int i = 0; i < 4; ++i )
	{
		assert_false( overlaps( kcc_v2( bad[i], 0.0f ), 1.0f, &p ) );
		assert_false( overlaps( kcc_v2( 0.0f, bad[i] ), 1.0f, &p ) );
		assert_false( overlaps( kcc_v2( bad[i], bad[i] ), 0.0f, &p ) );
		assert_false( overlaps( kcc_v2( 0.0f, 0.0f ), bad[i], &p ) ); // radius
		kcc_polygon q = p;
		q.radius = bad[i];
		assert_false( overlaps( kcc_v2( 0.0f, 0.0f ), 1.0f, &q ) );
		q = p;
		q.vertices[3].x = bad[i];
		assert_false( overlaps( kcc_v2( 0.0f, 0.0f ), 1.0f, &q ) );
		assert_false( overlaps( kcc_v2( 200.0f, 0.0f ), 1.0f, &q ) );
	}
	// a negative sum of radii is the empty set; -0 is 0
	assert_false( overlaps( kcc_v2( 0.0f, 0.0f ), -1.0f, &p ) );
	assert_false( overlaps( p.vertices[0], -1.0e-30f, &p ) );
	assert_true( overlaps( p.vertices[0], -0.0f, &p ) );
	// the vertex count out of range
	const int counts[5] = { -1, 0, 1, 2, 9 };
	for ( int i = 0; i < 5; ++i )
	{
		kcc_polygon c = p;
		c.count = counts[i];
		assert_false( overlaps( kcc_v2( 0.0f, 0.0f ), 1.0f, &c ) );
	}
	// never allocates
	uint64_t before = kcc_test_allocation_count();
	for ( int i = 0; i < 100; ++i )
	{
		(void)overlaps( kcc_v2( (float)i, 0.0f ), 1.0f, &p );
	}
	assert_int_equal( kcc_test_allocation_count(), before );
}

// ----------------------------------------------------------------------------------------------------------------
// Randomised comparison

// Points on a rotated ellipse at jittered angles: in convex position, so the hull keeps all count vertices.
static bool random_polygon( kcc_ref_rng* rng, int count, float scale, vec2s center, float radius, kcc_polygon* out )
{
	float ax = scale * kcc_ref_uniform( rng, 0.3f, 1.5f ), ay = scale * kcc_ref_uniform( rng, 0.3f, 1.5f );
	double spin = kcc_ref_uniform( rng, -3.14159f, 3.14159f );
	vec2s points[KCC_MAX_POLYGON_VERTICES];
	for ( int k = 0; k < count; ++k )
	{
		double t = k * ( 2.0 * PI_D / count ) + kcc_ref_uniform( rng, -0.25f, 0.25f ) * ( 2.0 * PI_D / count );
		double x = ax * cos( t ), y = ay * sin( t );
		points[k] = kcc_v2( (float)( center.x + cos( spin ) * x - sin( spin ) * y ),
							(float)( center.y + sin( spin ) * x + cos( spin ) * y ) );
	}
	kcc_shape s = kcc_make_polygon( points, count, radius );
	if ( s.type != KCC_SHAPE_POLYGON || s.polygon.count != count )
	{
		return false;
	}
	*out = s.polygon;
	return true;
}

static void test_random_pairs_match_the_reference( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 2024 };
	int pairs = 0, hits = 0, near = 0, near_hits = 0, skipped_polygons = 0, polygons = 0;
	int by_count[KCC_MAX_POLYGON_VERTICES + 1] = { 0 };
	while ( pairs < 240000 )
	{
		int count = kcc_ref_int( &rng, 3, KCC_MAX_POLYGON_VERTICES );
		// world offsets up to 1e4 (larger float rounding), sizes 0.05 .. 20
		float world = kcc_ref_int( &rng, 0, 3 ) == 0 ? 10000.0f : 100.0f;
		vec2s center = kcc_v2( kcc_ref_uniform( &rng, -world, world ), kcc_ref_uniform( &rng, -world, world ) );
		float scale = powf( 10.0f, kcc_ref_uniform( &rng, -1.3f, 1.3f ) );
		float polygon_radius = kcc_ref_int( &rng, 0, 2 ) == 0 ? scale * kcc_ref_uniform( &rng, 0.0f, 0.5f ) : 0.0f;
		kcc_polygon p;
		polygons += 1;
		if ( random_polygon( &rng, count, scale, center, polygon_radius, &p ) == false )
		{
			skipped_polygons += 1;
			continue;
		}
		for ( int j = 0; j < 40; ++j )
		{
			int kind = kcc_ref_int( &rng, 0, 4 );
			float r = kcc_ref_int( &rng, 0, 4 ) == 0 ? 0.0f : scale * kcc_ref_uniform( &rng, 0.0f, 1.0f );
			float rr = r + p.radius;
			vec2s c;
			int i = kcc_ref_int( &rng, 0, count - 1 );
			vec2s v = p.vertices[i], w = p.vertices[( i + 1 ) % count], n = p.normals[i];
			if ( kind == 0 )
			{
				// anywhere near the polygon
				c = kcc_v2( center.x + scale * kcc_ref_uniform( &rng, -3.0f, 3.0f ),
							center.y + scale * kcc_ref_uniform( &rng, -3.0f, 3.0f ) );
			}
			else if ( kind == 1 )
			{
				// at distance rr along the normal of a point of an edge (touching up to the rounding of c)
				float t = kcc_ref_uniform( &rng, 0.0f, 1.0f );
				vec2s q = kcc_v2( v.x + t * ( w.x - v.x ), v.y + t * ( w.y - v.y ) );
				c = kcc_v2( q.x + rr * n.x, q.y + rr * n.y );
				near += 1;
			}
			else if ( kind == 2 )
			{
				// at distance rr from a vertex, in a direction within its normal cone (or a bit beyond it)
				vec2s n0 = p.normals[( i + count - 1 ) % count];
				double a0 = atan2( n0.y, n0.x ), a1 = atan2( n.y, n.x );
				while ( a1 < a0 )
				{
					a1 += 2.0 * PI_D;
				}
				double a = a0 + ( a1 - a0 ) * kcc_ref_uniform( &rng, -0.1f, 1.1f );
				c = kcc_v2( v.x + rr * (float)cos( a ), v.y + rr * (float)sin( a ) );
				near += 1;
			}
			else if ( kind == 3 )
			{
				// a point just inside or outside an edge, by a few ulps of the coordinates or less
				float t = kcc_ref_uniform( &rng, -0.05f, 1.05f );
				float off = kcc_ref_uniform( &rng, -4.0f, 4.0f ) * 1.2e-7f * ( fabsf( v.x ) + fabsf( v.y ) + scale );
				c = kcc_v2( v.x + t * ( w.x - v.x ) + off * n.x, v.y + t * ( w.y - v.y ) + off * n.y );
				r = kcc_ref_int( &rng, 0, 1 ) == 0 ? 0.0f : fabsf( off );
				near += 1;
			}
			else
			{
				// exactly at a vertex or on the vertex line, radius 0 or tiny
				c = kcc_ref_int( &rng, 0, 1 ) == 0 ? v : kcc_v2( v.x + 0.5f * ( w.x - v.x ), v.y + 0.5f * ( w.y - v.y ) );
				r = kcc_ref_int( &rng, 0, 1 ) == 0 ? 0.0f : 1.0e-30f;
				near += 1;
			}
			bool expected = ref_circle_polygon( c, r, &p );
			check_against_reference( c, r, &p, "random pair" );
			hits += expected;
			near_hits += expected && kind != 0;
			pairs += 1;
			by_count[count] += 1;
		}
	}
	printf( "circle vs polygon: %d pairs (%d near the boundary, %d of those overlapping), %d overlapping; %d of %d "
			"polygons lost a vertex to the hull\n",
			pairs, near, near_hits, hits, skipped_polygons, polygons );
	assert_true( pairs >= 200000 );
	assert_true( near > pairs / 2 );
	assert_true( near_hits > near / 5 && near_hits < near * 4 / 5 );
	assert_true( skipped_polygons < polygons / 10 );
	for ( int count = 3; count <= KCC_MAX_POLYGON_VERTICES; ++count )
	{
		assert_true( by_count[count] > pairs / 10 );
	}
}

// kcc_contains_point, kcc_overlap (circle against polygon, either order) and the batch query answer as the typed
// test does, near the boundary too (the batch's pre-filter relies on the typed test's exactness).
static void test_generic_and_batch_queries_agree( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 99 };
	enum
	{
		BATCH = 512
	};
	vec2s centers[BATCH];
	float radii[BATCH];
	int indices[BATCH];
	bool typed[BATCH];
	for ( int round = 0; round < 60; ++round )
	{
		int count = 3 + round % 6;
		float scale = powf( 10.0f, kcc_ref_uniform( &rng, -1.0f, 1.0f ) );
		vec2s center = kcc_v2( kcc_ref_uniform( &rng, -500.0f, 500.0f ), kcc_ref_uniform( &rng, -500.0f, 500.0f ) );
		kcc_polygon p;
		if ( random_polygon( &rng, count, scale, center, round % 3 == 0 ? 0.1f * scale : 0.0f, &p ) == false )
		{
			continue;
		}
		kcc_shape shape = { .type = KCC_SHAPE_POLYGON, .polygon = p };
		assert_true( kcc_shape_is_valid( &shape ) );
		for ( int j = 0; j < BATCH; ++j )
		{
			int i = kcc_ref_int( &rng, 0, count - 1 );
			vec2s v = p.vertices[i], w = p.vertices[( i + 1 ) % count], n = p.normals[i];
			float r = kcc_ref_int( &rng, 0, 3 ) == 0 ? 0.0f : scale * kcc_ref_uniform( &rng, 0.0f, 0.8f );
			float t = kcc_ref_uniform( &rng, -0.2f, 1.2f );
			float rr = r + p.radius;
			float jitter = kcc_ref_int( &rng, 0, 1 ) == 0 ? 0.0f : kcc_ref_uniform( &rng, -1.0f, 1.0f ) * scale;
			centers[j] = kcc_v2( v.x + t * ( w.x - v.x ) + ( rr + jitter ) * n.x, v.y + t * ( w.y - v.y ) + ( rr + jitter ) * n.y );
			radii[j] = r;
			typed[j] = overlaps( centers[j], r, &p );
			assert_int_equal( typed[j], ref_circle_polygon( centers[j], r, &p ) );
			kcc_shape circle = kcc_make_circle( centers[j], r );
			assert_int_equal( kcc_overlap( &circle, &shape ), typed[j] );
			assert_int_equal( kcc_overlap( &shape, &circle ), typed[j] );
			if ( r == 0.0f )
			{
				assert_int_equal( kcc_contains_point( &shape, centers[j] ), typed[j] );
			}
		}
		int found = kcc_batch_overlap_circles( &shape, centers, radii, BATCH, indices );
		int k = 0;
		for ( int j = 0; j < BATCH; ++j )
		{
			if ( typed[j] )
			{
				assert_true( k < found );
				assert_int_equal( indices[k], j );
				k += 1;
			}
		}
		assert_int_equal( k, found );
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_points_on_edges_and_vertices_touch ),
		cmocka_unit_test( test_tangent_circles_touch_exactly ),
		cmocka_unit_test( test_unused_entries_do_not_matter ),
		cmocka_unit_test( test_huge_and_tiny_scales ),
		cmocka_unit_test( test_bad_input_is_no_hit ),
		cmocka_unit_test( test_random_pairs_match_the_reference ),
		cmocka_unit_test( test_generic_and_batch_queries_agree ),
	};
	return cmocka_run_group_tests( tests, install_recorder, NULL );
}
