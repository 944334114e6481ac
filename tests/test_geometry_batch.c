// SPDX-License-Identifier: MIT
// Batch queries: one shape against many circles must equal kcc_overlap per circle, and a slow independent
// reference (dense boundary sampling of the shape's core, in double) wherever the answer is not on a knife edge.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../geometry/internal.h"
#include "alloc_count.h"
#include "kcc/geometry.h"

#define PI_D 3.14159265358979323846
#define CIRCLE_COUNT 10000
#define MAX_SAMPLES 40000

#include "assert_recorder.h"

static uint32_t s_rng = 4242u;

static float random_float( float lo, float hi )
{
	s_rng = s_rng * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( s_rng >> 8 ) / 16777216.0f;
}

static vec2s s_centers[CIRCLE_COUNT];
static float s_radii[CIRCLE_COUNT];
static int s_indices[CIRCLE_COUNT];
static int s_expected[CIRCLE_COUNT];

static void random_circles( int count, float extent, float max_radius )
{
	for ( int i = 0; i < count; ++i )
	{
		s_centers[i] = kcc_v2( random_float( -extent, extent ), random_float( -extent, extent ) );
		s_radii[i] = random_float( 0.0f, max_radius );
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Independent reference: the shape is a core (a point, segment, convex polygon or sector) grown by a radius. The
// distance to the core is 0 inside it, else the distance to the nearest of dense samples of its boundary, which
// overestimates by at most half the sample spacing.

typedef struct reference_shape
{
	double sx[MAX_SAMPLES], sy[MAX_SAMPLES];
	int sample_count;
	double spacing;
	double radius; ///< rounding radius around the core
	int kind;      ///< 0: no interior (point, segment), 1: convex polygon, 2: sector
	double px[KCC_MAX_POLYGON_VERTICES], py[KCC_MAX_POLYGON_VERTICES];
	int polygon_count;
	double apex_x, apex_y, heading, half, sector_radius;
} reference_shape;

static reference_shape s_ref;

static void add_segment_samples( reference_shape* r, double ax, double ay, double bx, double by )
{
	double length = hypot( bx - ax, by - ay );
	int n = (int)ceil( length / r->spacing ) + 1;
	for ( int i = 0; i <= n && r->sample_count < MAX_SAMPLES; ++i )
	{
		double t = (double)i / n;
		r->sx[r->sample_count] = ax + t * ( bx - ax );
		r->sy[r->sample_count] = ay + t * ( by - ay );
		r->sample_count += 1;
	}
}

static void reference_begin( reference_shape* r, double radius, int kind )
{
	r->sample_count = 0;
	r->spacing = 2.0e-3;
	r->radius = radius;
	r->kind = kind;
	r->polygon_count = 0;
}

static void reference_polygon( reference_shape* r, const vec2s* v, int n, double radius )
{
	reference_begin( r, radius, 1 );
	for ( int i = 0; i < n; ++i )
	{
		r->px[i] = v[i].x;
		r->py[i] = v[i].y;
	}
	r->polygon_count = n;
	for ( int i = 0; i < n; ++i )
	{
		int j = ( i + 1 ) % n;
		add_segment_samples( r, r->px[i], r->py[i], r->px[j], r->py[j] );
	}
}

static void reference_sector( reference_shape* r, double ax, double ay, double heading, double angle, double radius )
{
	reference_begin( r, 0.0, 2 );
	r->apex_x = ax;
	r->apex_y = ay;
	r->heading = heading;
	r->half = 0.5 * angle;
	r->sector_radius = radius;
	double a0 = heading - r->half, a1 = heading + r->half;
	add_segment_samples( r, ax, ay, ax + radius * cos( a0 ), ay + radius * sin( a0 ) );
	add_segment_samples( r, ax, ay, ax + radius * cos( a1 ), ay + radius * sin( a1 ) );
	int n = (int)ceil( radius * angle / r->spacing ) + 1;
	for ( int i = 0; i <= n && r->sample_count < MAX_SAMPLES; ++i )
	{
		double a = a0 + angle * i / n;
		r->sx[r->sample_count] = ax + radius * cos( a );
		r->sy[r->sample_count] = ay + radius * sin( a );
		r->sample_count += 1;
	}
}

static bool reference_core_contains( const reference_shape* r, double x, double y )
{
	if ( r->kind == 1 )
	{
		// crossing number: a horizontal ray to +x crosses the boundary an odd number of times
		bool inside = false;
		for ( int i = 0, j = r->polygon_count - 1; i < r->polygon_count; j = i++ )
		{
			if ( ( r->py[i] > y ) != ( r->py[j] > y ) )
			{
				double cross_x = r->px[j] + ( y - r->py[j] ) * ( r->px[i] - r->px[j] ) / ( r->py[i] - r->py[j] );
				inside = x < cross_x ? !inside : inside;
			}
		}
		return inside;
	}
	if ( r->kind == 2 )
	{
		double dx = x - r->apex_x, dy = y - r->apex_y;
		if ( hypot( dx, dy ) > r->sector_radius )
		{
			return false;
		}
		double off = remainder( atan2( dy, dx ) - r->heading, 2.0 * PI_D );
		return fabs( off ) <= r->half;
	}
	return false;
}

static double reference_distance( const reference_shape* r, double x, double y )
{
	if ( reference_core_contains( r, x, y ) )
	{
		return 0.0;
	}
	double best = 1e300;
	for ( int i = 0; i < r->sample_count; ++i )
	{
		double dx = r->sx[i] - x, dy = r->sy[i] - y;
		best = fmin( best, dx * dx + dy * dy );
	}
	return fmax( 0.0, sqrt( best ) - r->radius );
}

// ---------------------------------------------------------------------------------------------------------------

// Runs the batch for s over the current circles; checks it against kcc_overlap per circle (exactly) and against
// the reference away from the boundary. Returns the number of hits.
static int check_batch( const kcc_shape* s, const reference_shape* r, int count )
{
	int expected_count = 0;
	for ( int i = 0; i < count; ++i )
	{
		kcc_shape c;
		memset( &c, 0, sizeof( c ) );
		c.type = KCC_SHAPE_CIRCLE;
		c.circle.center = s_centers[i];
		c.circle.radius = s_radii[i];
		if ( kcc_overlap( s, &c ) )
		{
			s_expected[expected_count++] = i;
		}
	}
	// Every instruction set this machine runs (baseline, AVX, AVX2, AVX-512) gives exactly the same indices.
	int hits = 0;
	for ( int isa = KCC_ISA_BASELINE; isa <= KCC_ISA_AVX512; ++isa )
	{
		kcc_isa previous = kcc_limit_isa( (kcc_isa)isa );
		uint64_t before = kcc_test_allocation_count();
		hits = kcc_batch_overlap_circles( s, s_centers, s_radii, count, s_indices );
		kcc_limit_isa( previous );
		assert_true( kcc_test_allocation_count() == before );
		assert_int_equal( hits, expected_count );
		for ( int i = 0; i < hits; ++i )
		{
			assert_int_equal( s_indices[i], s_expected[i] );
		}
	}

	if ( r != NULL )
	{
		// bounding box prefilter: far circles are certainly outside
		kcc_aabb b = kcc_shape_bounds( s );
		int decided = 0, k = 0;
		for ( int i = 0; i < count; ++i )
		{
			bool got = k < hits && s_indices[k] == i;
			k += got;
			double x = s_centers[i].x, y = s_centers[i].y, cr = s_radii[i];
			if ( x < b.min.x - cr - 0.01 || x > b.max.x + cr + 0.01 || y < b.min.y - cr - 0.01 || y > b.max.y + cr + 0.01 )
			{
				assert_false( got );
				continue;
			}
			double gap = reference_distance( r, x, y ) - cr;
			if ( gap > 0.5 * r->spacing + 1.0e-5 )
			{
				assert_false( got );
				decided += 1;
			}
			else if ( gap < -1.0e-5 )
			{
				assert_true( got );
				decided += 1;
			}
		}
		assert_true( decided > 200 );
	}
	return hits;
}

static void test_batch_circle_aabb_obb_capsule( void** state )
{
	(void)state;
	random_circles( CIRCLE_COUNT, 5.0f, 1.5f );

	kcc_shape circle = kcc_make_circle( kcc_v2( 0.5f, -0.3f ), 2.0f );
	reference_begin( &s_ref, 2.0, 0 );
	add_segment_samples( &s_ref, 0.5f, -0.3f, 0.5f, -0.3f );
	int hits = check_batch( &circle, &s_ref, CIRCLE_COUNT );
	assert_true( hits > 1000 && hits < CIRCLE_COUNT - 1000 );

	kcc_shape capsule = kcc_make_capsule( kcc_v2( -1.0f, -1.0f ), kcc_v2( 2.0f, 1.5f ), 0.7f );
	reference_begin( &s_ref, 0.7, 0 );
	add_segment_samples( &s_ref, -1.0f, -1.0f, 2.0f, 1.5f );
	hits = check_batch( &capsule, &s_ref, CIRCLE_COUNT );
	assert_true( hits > 1000 && hits < CIRCLE_COUNT - 1000 );

	kcc_shape dot = kcc_make_capsule( kcc_v2( 1.0f, 1.0f ), kcc_v2( 1.0f, 1.0f ), 1.2f );
	reference_begin( &s_ref, 1.2, 0 );
	add_segment_samples( &s_ref, 1.0, 1.0, 1.0, 1.0 );
	hits = check_batch( &dot, &s_ref, CIRCLE_COUNT );
	assert_true( hits > 500 );

	kcc_shape aabb = kcc_make_aabb( kcc_v2( -1.5f, -1.0f ), kcc_v2( 2.0f, 1.0f ) );
	vec2s box[4] = { { { -1.5f, -1.0f } }, { { 2.0f, -1.0f } }, { { 2.0f, 1.0f } }, { { -1.5f, 1.0f } } };
	reference_polygon( &s_ref, box, 4, 0.0 );
	hits = check_batch( &aabb, &s_ref, CIRCLE_COUNT );
	assert_true( hits > 1000 && hits < CIRCLE_COUNT - 1000 );

	for ( int k = 0; k < 4; ++k )
	{
		float angle = 0.6f + 1.3f * (float)k;
		kcc_shape obb = kcc_make_obb( kcc_v2( 0.2f, 0.1f ), kcc_v2( 2.0f, 0.8f ), angle );
		double c = cos( angle ), s = sin( angle );
		double lx[4] = { -2.0, 2.0, 2.0, -2.0 }, ly[4] = { -0.8, -0.8, 0.8, 0.8 };
		vec2s corners[4];
		for ( int i = 0; i < 4; ++i )
		{
			corners[i] = kcc_v2( (float)( 0.2 + c * lx[i] - s * ly[i] ), (float)( 0.1 + s * lx[i] + c * ly[i] ) );
		}
		reference_polygon( &s_ref, corners, 4, 0.0 );
		hits = check_batch( &obb, &s_ref, CIRCLE_COUNT );
		assert_true( hits > 1000 && hits < CIRCLE_COUNT - 1000 );
	}
	assert_int_equal( s_assert_count, 0 );
}

static void test_batch_polygon( void** state )
{
	(void)state;
	random_circles( CIRCLE_COUNT, 5.0f, 1.0f );
	for ( int round = 0; round < 4; ++round )
	{
		vec2s pts[7];
		for ( int i = 0; i < 7; ++i )
		{
			double a = 2.0 * PI_D * i / 7.0 + 0.3 * round;
			double rr = 2.0 + 0.5 * sin( 3.0 * i + round );
			pts[i] = kcc_v2( (float)( 0.3 + rr * cos( a ) ), (float)( -0.2 + rr * sin( a ) ) );
		}
		float radius = round % 2 == 0 ? 0.0f : 0.3f;
		kcc_shape p = kcc_make_polygon( pts, 7, radius );
		assert_true( kcc_shape_is_valid( &p ) );
		reference_polygon( &s_ref, p.polygon.vertices, p.polygon.count, radius );
		int hits = check_batch( &p, &s_ref, CIRCLE_COUNT );
		assert_true( hits > 1000 && hits < CIRCLE_COUNT - 1000 );
	}
	kcc_shape box = kcc_make_box( kcc_v2( 1.0f, 0.5f ), 0.25f );
	vec2s corners[4] = { { { -1.0f, -0.5f } }, { { 1.0f, -0.5f } }, { { 1.0f, 0.5f } }, { { -1.0f, 0.5f } } };
	reference_polygon( &s_ref, corners, 4, 0.25 );
	check_batch( &box, &s_ref, CIRCLE_COUNT );
	assert_int_equal( s_assert_count, 0 );
}

// A valid polygon's normals need only be unit and perpendicular to their edges within 1e-3 (kcc_shape_is_valid),
// and the typed test decides on the vertices alone: the batch's pre-filter, which uses the normals, must still
// never drop a circle the typed test reports. Circles placed just outside each edge, by up to 1e-3 of their
// distance to the vertex, with every normal turned by about 0.9e-3 rad either way.
static void test_batch_polygon_with_loose_normals( void** state )
{
	(void)state;
	vec2s pts[6];
	for ( int i = 0; i < 6; ++i )
	{
		double a = 2.0 * PI_D * i / 6.0 + 0.2;
		pts[i] = kcc_v2( (float)( 40.0 + 3.0 * cos( a ) ), (float)( -25.0 + 2.0 * sin( a ) ) );
	}
	for ( int turn = -1; turn <= 1; turn += 2 )
	{
		kcc_shape p = kcc_make_polygon( pts, 6, 0.0f );
		for ( int k = 0; k < p.polygon.count; ++k )
		{
			double angle = turn * 0.9e-3 * ( k % 2 == 0 ? 1.0 : -1.0 );
			vec2s n = p.polygon.normals[k];
			p.polygon.normals[k] = kcc_v2( (float)( cos( angle ) * n.x - sin( angle ) * n.y ),
										   (float)( sin( angle ) * n.x + cos( angle ) * n.y ) );
		}
		assert_true( kcc_shape_is_valid( &p ) );
		int count = 0;
		for ( int k = 0; k < p.polygon.count && count < CIRCLE_COUNT; ++k )
		{
			vec2s v = p.polygon.vertices[k], w = p.polygon.vertices[( k + 1 ) % p.polygon.count];
			double ex = (double)w.x - v.x, ey = (double)w.y - v.y, length = sqrt( ex * ex + ey * ey );
			for ( int j = 0; j < 300 && count < CIRCLE_COUNT; ++j )
			{
				double t = ( j + 0.5 ) / 300.0;
				double out = 1.0e-3 * random_float( 0.0f, 1.0f ) * ( 1.0 + 3.0 * t );
				double r = 0.05;
				// centre at distance r + out from the edge line, outward
				double x = v.x + t * ex + ( ey / length ) * ( r + out );
				double y = v.y + t * ey - ( ex / length ) * ( r + out );
				s_centers[count] = kcc_v2( (float)x, (float)y );
				s_radii[count] = (float)( r + out * random_float( 0.9f, 1.1f ) );
				count += 1;
			}
		}
		check_batch( &p, NULL, count );
	}
	assert_int_equal( s_assert_count, 0 );
}

static void test_batch_sector_every_opening( void** state )
{
	(void)state;
	random_circles( CIRCLE_COUNT, 5.0f, 1.0f );
	double degrees[] = { 10.0, 90.0, 179.0, 181.0, 270.0, 360.0 };
	for ( int d = 0; d < 6; ++d )
	{
		for ( int k = 0; k < 2; ++k )
		{
			double heading = 0.8 + 2.1 * k;
			float angle = degrees[d] == 360.0 ? (float)( 2.0 * PI_D ) : (float)( degrees[d] * PI_D / 180.0 );
			kcc_shape s = kcc_make_sector( kcc_v2( 0.4f, -0.6f ), kcc_v2( (float)cos( heading ), (float)sin( heading ) ),
										   3.0f, angle );
			assert_true( kcc_shape_is_valid( &s ) );
			reference_sector( &s_ref, 0.4f, -0.6f, atan2( s.sector.direction.y, s.sector.direction.x ), angle, 3.0 );
			int hits = check_batch( &s, &s_ref, CIRCLE_COUNT );
			assert_true( hits > 200 && hits < CIRCLE_COUNT - 1000 );
		}
	}
	assert_int_equal( s_assert_count, 0 );
}

static void test_batch_counts_and_bad_circles( void** state )
{
	(void)state;
	random_circles( CIRCLE_COUNT, 3.0f, 1.0f );
	kcc_shape shapes[3] = {
		kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.5f ),
		kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 1.0f ), 2.0f, 2.0f ),
		kcc_make_box( kcc_v2( 1.0f, 1.0f ), 0.0f ),
	};
	int counts[] = { 0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 511, 513, 1000 };
	for ( int k = 0; k < 3; ++k )
	{
		for ( int i = 0; i < (int)( sizeof( counts ) / sizeof( counts[0] ) ); ++i )
		{
			check_batch( &shapes[k], NULL, counts[i] );
		}
	}

	// every circle hits: the output fills exactly, nothing is written past count
	for ( int i = 0; i < 300; ++i )
	{
		s_centers[i] = kcc_v2( 0.0f, 0.5f );
		s_radii[i] = 0.25f;
	}
	s_indices[300] = -7;
	for ( int k = 0; k < 3; ++k )
	{
		assert_int_equal( kcc_batch_overlap_circles( &shapes[k], s_centers, s_radii, 300, s_indices ), 300 );
		assert_int_equal( s_indices[299], 299 );
		assert_int_equal( s_indices[300], -7 );
	}

	// Arrays of exactly count entries on the heap (the sanitizer sees any access past them), every circle hitting,
	// every instruction set: the wide kernels' stores of eight or sixteen indices stay inside the output.
	for ( int count = 1; count <= 70; ++count )
	{
		vec2s* centers = malloc( (size_t)count * sizeof( vec2s ) );
		float* radii = malloc( (size_t)count * sizeof( float ) );
		int* indices = malloc( (size_t)count * sizeof( int ) );
		assert_non_null( centers );
		assert_non_null( radii );
		assert_non_null( indices );
		for ( int i = 0; i < count; ++i )
		{
			centers[i] = kcc_v2( 0.0f, 0.5f );
			radii[i] = 0.25f;
		}
		for ( int k = 0; k < 3; ++k )
		{
			for ( int isa = KCC_ISA_BASELINE; isa <= KCC_ISA_AVX512; ++isa )
			{
				kcc_isa previous = kcc_limit_isa( (kcc_isa)isa );
				int hits = kcc_batch_overlap_circles( &shapes[k], centers, radii, count, indices );
				kcc_limit_isa( previous );
				assert_int_equal( hits, count );
				assert_int_equal( indices[0], 0 );
				assert_int_equal( indices[count - 1], count - 1 );
			}
		}
		free( indices );
		free( radii );
		free( centers );
	}

	assert_int_equal( s_assert_count, 0 );

	// circles with NaN, Inf or negative data are never reported, like kcc_overlap (which asserts on them)
	random_circles( 1000, 1.0f, 1.0f );
	for ( int i = 0; i < 1000; i += 5 )
	{
		switch ( ( i / 5 ) % 5 )
		{
			case 0:
				s_centers[i].x = NAN;
				break;
			case 1:
				// with a radius so large that its square is infinite too: inf <= inf must not make a hit
				s_centers[i].y = INFINITY;
				s_radii[i] = ( i / 25 ) % 2 == 0 ? s_radii[i] : 1.0e20f;
				break;
			case 2:
				s_radii[i] = -0.5f;
				break;
			case 3:
				s_radii[i] = INFINITY;
				break;
			default:
				s_radii[i] = NAN;
				break;
		}
	}
	kcc_shape all[6] = {
		kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.5f ),
		kcc_make_capsule( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 0.5f ),
		kcc_make_aabb( kcc_v2( -1.0f, -1.0f ), kcc_v2( 1.0f, 1.0f ) ),
		kcc_make_obb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.5f ), 0.4f ),
		kcc_make_box( kcc_v2( 1.0f, 1.0f ), 0.2f ),
		kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 1.0f ), 1.0f, 5.0f ),
	};
	for ( int k = 0; k < 6; ++k )
	{
		int hits = check_batch( &all[k], NULL, 1000 );
		assert_true( hits > 100 );
		for ( int i = 0; i < hits; ++i )
		{
			assert_true( s_indices[i] % 5 != 0 );
		}
		// the batch itself takes bad circles silently: they are data, not programmer errors
		s_assert_count = 0;
		assert_int_equal( kcc_batch_overlap_circles( &all[k], s_centers, s_radii, 1000, s_indices ), hits );
		assert_int_equal( s_assert_count, 0 );
	}

	// an invalid shape hits nothing
	kcc_shape invalid = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), -1.0f );
	s_assert_count = 0;
	assert_int_equal( kcc_batch_overlap_circles( &invalid, s_centers, s_radii, 1000, s_indices ), 0 );
#if defined( KCC_ENABLE_ASSERT )
	assert_true( s_assert_count > 0 && strstr( s_last_message, "kcc_batch_overlap_circles" ) != NULL &&
				 strstr( s_last_message, "invalid" ) != NULL );
#endif
	s_assert_count = 0;
	assert_int_equal( kcc_batch_overlap_circles( NULL, s_centers, s_radii, 1000, s_indices ), 0 );
	assert_int_equal( kcc_batch_overlap_circles( &all[0], s_centers, s_radii, -3, s_indices ), 0 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_batch_circle_aabb_obb_capsule ),
		cmocka_unit_test( test_batch_polygon ),
		cmocka_unit_test( test_batch_polygon_with_loose_normals ),
		cmocka_unit_test( test_batch_sector_every_opening ),
		cmocka_unit_test( test_batch_counts_and_bad_circles ),
	};
	return cmocka_run_group_tests_name( "geometry_batch", tests, install_recorder, NULL );
}
