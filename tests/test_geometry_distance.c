// SPDX-License-Identifier: MIT
// kcc_distance and kcc_gjk_overlap: hand-made cases per kind pair, and randomised properties checked against the
// independent double-precision reference (test_reference.h: exact SDFs, boundary sampling). A distance is
// certified without trusting the library: both witness points lie on their surfaces (SDF ~ 0), they are the
// reported distance apart, and stepping out of each surface along the normal increases the SDF at unit rate
// (the normal lies in both normal cones: the optimality condition of convex distance); a sampled upper bound
// (min of sdf_b over a's boundary samples) closes it from above.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../geometry/internal.h"
#include "alloc_count.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include <stdio.h>

#include "test_random_shapes.h"

// ---------------------------------------------------------------------------------------------------------------
// Certificates

static double sdf( const kcc_ref_shape* r, vec2s p )
{
	return kcc_ref_sdf( r, p.x, p.y );
}

typedef struct check_stats
{
	int pairs;
	int separated;
	int overlapping;
	int undecided;
} check_stats;

// Checks one distance result against the reference; fails the test with a description on a violation.
static void check_distance( const kcc_shape* a, const kcc_shape* b, const kcc_distance_output* out, check_stats* stats,
							bool sampled )
{
	kcc_ref_shape ra = kcc_ref_from_shape( a );
	kcc_ref_shape rb = kcc_ref_from_shape( b );
	stats->pairs += 1;
	assert_true( kcc_is_valid_float( out->distance ) && out->distance >= 0.0f );
	assert_true( kcc_is_valid_vec2( out->point_a ) && kcc_is_valid_vec2( out->point_b ) &&
				 kcc_is_valid_vec2( out->normal ) );
	float scale = 1.0f + fabsf( out->point_a.x ) + fabsf( out->point_a.y );
	float tolerance = 2.0e-5f * scale;

	if ( out->distance > 0.0f )
	{
		stats->separated += 1;
		double da = sdf( &ra, out->point_a ), db = sdf( &rb, out->point_b );
		double gap = hypot( (double)out->point_b.x - out->point_a.x, (double)out->point_b.y - out->point_a.y );
		double normal_length = hypot( out->normal.x, out->normal.y );
		bool ok = fabs( da ) <= tolerance && fabs( db ) <= tolerance && fabs( gap - out->distance ) <= tolerance &&
				  fabs( normal_length - 1.0 ) <= 1.0e-5;
		// Optimality: the normal is in a's normal cone at point_a and -normal in b's at point_b.
		double step = 1.0e-3;
		vec2s n = out->normal;
		double da_out = kcc_ref_sdf( &ra, out->point_a.x + step * n.x, out->point_a.y + step * n.y );
		double db_out = kcc_ref_sdf( &rb, out->point_b.x - step * n.x, out->point_b.y - step * n.y );
		ok = ok && fabs( da_out - da - step ) <= 4.0 * tolerance && fabs( db_out - db - step ) <= 4.0 * tolerance;
		if ( out->distance > 1.0e-3f )
		{
			double nx = ( (double)out->point_b.x - out->point_a.x ) / gap;
			double ny = ( (double)out->point_b.y - out->point_a.y ) / gap;
			ok = ok && fabs( nx - n.x ) <= 1.0e-3 && fabs( ny - n.y ) <= 1.0e-3;
		}
		if ( sampled )
		{
			// The sampled separation is an upper bound of the true distance, at most h / 2 above it.
			double m = kcc_ref_separation( &ra, &rb );
			ok = ok && out->distance <= m + tolerance && out->distance >= m - 0.5 * KCC_REF_COARSE_STEP - tolerance;
		}
		if ( ok == false )
		{
			print_error( "distance %.9g pa (%.9g %.9g) pb (%.9g %.9g) n (%.9g %.9g): sdf_a %.3g sdf_b %.3g gap %.9g "
						 "out_a %.6g out_b %.6g\n",
						 out->distance, out->point_a.x, out->point_a.y, out->point_b.x, out->point_b.y, n.x, n.y, da,
						 db, gap, da_out - da, db_out - db );
			fail();
		}
		// Not overlapping: the reference must not find them overlapping beyond its margin.
		bool decided;
		if ( sampled && kcc_ref_overlap( &ra, &rb, &decided ) && decided )
		{
			print_error( "kcc_distance %.9g but the reference says the shapes overlap\n", out->distance );
			fail();
		}
	}
	else
	{
		stats->overlapping += 1;
		assert_true( out->normal.x == 0.0f && out->normal.y == 0.0f );
		bool decided;
		bool reference = kcc_ref_overlap( &ra, &rb, &decided );
		if ( decided == false )
		{
			stats->undecided += 1;
		}
		else if ( reference == false )
		{
			print_error( "kcc_distance 0 but the reference separation is %.9g\n", kcc_ref_separation( &ra, &rb ) );
			fail();
		}
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Hand-made cases

static void test_distance_hand_made_pairs( void** state )
{
	(void)state;
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_shape box = kcc_make_aabb( kcc_v2( 2.0f, -1.0f ), kcc_v2( 4.0f, 1.0f ) );
	kcc_distance_output d = kcc_distance( &circle, &box );
	assert_near( d.distance, 1.0f, 1.0e-6f );
	assert_near( d.normal.x, 1.0f, 1.0e-6f );
	assert_near( d.point_a.x, 1.0f, 1.0e-6f );
	assert_near( d.point_b.x, 2.0f, 1.0e-6f );

	// Box corner region: nearest to the corner (2, 1).
	kcc_shape far_circle = kcc_make_circle( kcc_v2( 0.0f, 4.0f ), 0.5f );
	d = kcc_distance( &far_circle, &box );
	assert_near( d.distance, sqrtf( 4.0f + 9.0f ) - 0.5f, 1.0e-5f );
	assert_near( d.point_b.x, 2.0f, 1.0e-5f );
	assert_near( d.point_b.y, 1.0f, 1.0e-5f );

	// Capsule parallel to a box face, touching: distance 0.
	kcc_shape capsule = kcc_make_capsule( kcc_v2( 0.0f, -0.5f ), kcc_v2( 0.0f, 0.5f ), 2.0f );
	d = kcc_distance( &capsule, &box );
	assert_near( d.distance, 0.0f, 0.0f );
	assert_true( kcc_gjk_overlap( &capsule, &box ) );

	// Separated by 1e-3: not overlapping, exact.
	capsule = kcc_make_capsule( kcc_v2( 0.0f, -0.5f ), kcc_v2( 0.0f, 0.5f ), 1.999f );
	d = kcc_distance( &capsule, &box );
	assert_near( d.distance, 1.0e-3f, 2.0e-7f );
	assert_false( kcc_gjk_overlap( &capsule, &box ) );

	// Degenerate capsule (a == b) is a circle.
	kcc_shape dot = kcc_make_capsule( kcc_v2( 0.0f, 3.0f ), kcc_v2( 0.0f, 3.0f ), 0.5f );
	d = kcc_distance( &dot, &circle );
	assert_near( d.distance, 1.5f, 1.0e-6f );
	assert_near( d.normal.y, -1.0f, 1.0e-6f );

	// One inside the other.
	kcc_shape small = kcc_make_circle( kcc_v2( 3.0f, 0.0f ), 0.25f );
	d = kcc_distance( &small, &box );
	assert_true( d.distance == 0.0f );
	assert_true( d.normal.x == 0.0f && d.normal.y == 0.0f );
	assert_true( kcc_gjk_overlap( &box, &small ) );

	// OBB rotated 45 degrees: corner toward a circle on the x axis.
	kcc_shape obb = kcc_make_obb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 1.0f ), 45.0f * DEG );
	kcc_shape right = kcc_make_circle( kcc_v2( 3.0f, 0.0f ), 0.5f );
	d = kcc_distance( &obb, &right );
	assert_near( d.distance, 3.0f - sqrtf( 2.0f ) - 0.5f, 2.0e-6f );

	// Rounded polygon against a segment.
	kcc_shape rounded = kcc_make_box( kcc_v2( 1.0f, 1.0f ), 0.25f );
	kcc_shape segment = kcc_make_capsule( kcc_v2( -5.0f, 2.0f ), kcc_v2( 5.0f, 2.0f ), 0.0f );
	d = kcc_distance( &rounded, &segment );
	assert_near( d.distance, 0.75f, 1.0e-6f );
	assert_near( d.normal.y, 1.0f, 1.0e-6f );
	assert_near( d.point_a.y, 1.25f, 1.0e-6f );
}

static void test_distance_sectors_of_every_opening( void** state )
{
	(void)state;
	// Sector at the origin facing +x, radius 2, against a circle straight ahead, behind, and to the side.
	for ( int i = 0; i < 6; ++i )
	{
		float opening = sector_opening_degrees( i ) * DEG;
		kcc_shape sector = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 2.0f, opening );
		assert_true( kcc_shape_is_valid( &sector ) );

		kcc_shape ahead = kcc_make_circle( kcc_v2( 3.0f, 0.0f ), 0.5f );
		kcc_distance_output d = kcc_distance( &sector, &ahead );
		assert_near( d.distance, 0.5f, 2.0e-5f );
		assert_near( d.normal.x, 1.0f, 1.0e-4f );

		// Behind the apex: distance to the apex, unless the opening reaches behind (> 180 degrees).
		kcc_shape behind = kcc_make_circle( kcc_v2( -3.0f, 0.0f ), 0.5f );
		d = kcc_distance( &sector, &behind );
		float expected;
		if ( sector_opening_degrees( i ) >= 360.0f )
		{
			expected = 0.5f; // full disc
		}
		else if ( sector_opening_degrees( i ) > 180.0f )
		{
			// The nearest point is on an edge ray at half-opening from the axis: distance from (-3, 0) to it.
			float half = 0.5f * opening;
			float ex = cosf( half ), ey = sinf( half );
			float t = -3.0f * ex;
			t = t < 0.0f ? 0.0f : ( t > 2.0f ? 2.0f : t );
			expected = sqrtf( ( -3.0f - t * ex ) * ( -3.0f - t * ex ) + ( t * ey ) * ( t * ey ) ) - 0.5f;
		}
		else
		{
			expected = 2.5f;
		}
		assert_near( d.distance, expected, 5.0e-5f );

		kcc_shape inside = kcc_make_circle( kcc_v2( 1.0f, 0.0f ), 0.05f );
		d = kcc_distance( &inside, &sector );
		assert_true( d.distance == 0.0f );
		assert_true( kcc_gjk_overlap( &sector, &inside ) );
	}
}

static void test_distance_invalid_shapes_give_zero_output( void** state )
{
	(void)state;
	kcc_set_assert_fcn( record_assert );
	s_assert_count = 0;
	kcc_shape invalid = { 0 };
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_distance_output d = kcc_distance( &invalid, &circle );
	assert_true( d.distance == 0.0f && d.normal.x == 0.0f && d.normal.y == 0.0f && d.point_a.x == 0.0f &&
				 d.point_b.y == 0.0f );
	assert_false( kcc_gjk_overlap( &circle, &invalid ) );

	// Hand-corrupted: NaN centre, negative radius.
	kcc_shape nan_circle = circle;
	nan_circle.circle.center.x = NAN;
	d = kcc_distance( &circle, &nan_circle );
	assert_true( d.distance == 0.0f && kcc_is_valid_vec2( d.point_a ) );
	kcc_shape negative = circle;
	negative.circle.radius = -1.0f;
	d = kcc_distance( &negative, &circle );
	assert_true( d.distance == 0.0f );
	assert_false( kcc_gjk_overlap( &negative, &circle ) );
#if defined( KCC_ENABLE_ASSERT )
	assert_true( s_assert_count >= 3 );
#endif
	kcc_set_assert_fcn( NULL );
}

static void test_distance_huge_coordinates_terminate( void** state )
{
	(void)state;
	// Far from the origin float spacing is 0.0625: the result must come back finite and roughly right.
	vec2s far = kcc_v2( 1.0e6f, -1.0e6f );
	kcc_shape a = kcc_make_capsule( far, kcc_v2( far.x + 3.0f, far.y + 1.0f ), 0.5f );
	kcc_shape b = kcc_make_obb( kcc_v2( far.x + 1.0f, far.y + 5.0f ), kcc_v2( 2.0f, 1.0f ), 0.3f );
	kcc_distance_output d = kcc_distance( &a, &b );
	assert_true( kcc_is_valid_float( d.distance ) && kcc_is_valid_vec2( d.point_a ) );
	kcc_shape a0 = kcc_shape_translate( &a, kcc_v2( -far.x, -far.y ) );
	kcc_shape b0 = kcc_shape_translate( &b, kcc_v2( -far.x, -far.y ) );
	kcc_distance_output d0 = kcc_distance( &a0, &b0 );
	assert_near( d.distance, d0.distance, 0.5f );

	kcc_shape s = kcc_make_sector( far, kcc_v2( 0.0f, 1.0f ), 2.0f, 300.0f * DEG );
	d = kcc_distance( &s, &b );
	assert_true( kcc_is_valid_float( d.distance ) );
	assert_true( kcc_gjk_overlap( &s, &s ) );
}

// ---------------------------------------------------------------------------------------------------------------
// Randomised properties

// Per kind pair: many random placements. Every pair gets the exact certificate, symmetry and rigid-motion
// invariance; every 8th pair also the sampled upper bound and the sampled overlap verdict.
static void test_distance_random_pairs_against_reference( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 2024 };
	int per_pair = 1000;
	check_stats stats = { 0 };
	for ( int ka = 0; ka < K_COUNT; ++ka )
	{
		for ( int kb = 0; kb < K_COUNT; ++kb )
		{
			for ( int n = 0; n < per_pair; ++n )
			{
				kcc_shape a = random_shape( &rng, ka, kcc_v2( uniform( &rng, -1.0f, 1.0f ), uniform( &rng, -1.0f, 1.0f ) ),
											uniform( &rng, 0.2f, 1.5f ) );
				float spread = n % 3 == 0 ? 1.5f : 4.0f;
				kcc_shape b = random_shape( &rng, kb,
											kcc_v2( uniform( &rng, -spread, spread ), uniform( &rng, -spread, spread ) ),
											uniform( &rng, 0.2f, 1.5f ) );
				assert_true( kcc_shape_is_valid( &a ) && kcc_shape_is_valid( &b ) );
				kcc_distance_output d = kcc_distance( &a, &b );
				check_distance( &a, &b, &d, &stats, n % 8 == 0 );

				// Symmetry.
				kcc_distance_output e = kcc_distance( &b, &a );
				float tolerance = 2.0e-5f * ( 1.0f + d.distance );
				if ( fabsf( d.distance - e.distance ) > tolerance )
				{
					print_error( "%s/%s: distance(a, b) %.9g distance(b, a) %.9g\n", kind_name( ka ),
								 kind_name( kb ), d.distance, e.distance );
					fail();
				}
				if ( d.distance > 1.0e-3f && e.distance > 1.0e-3f && is_convex_kind( &a ) && is_convex_kind( &b ) )
				{
					assert_true( fabsf( d.normal.x + e.normal.x ) < 1.0e-3f && fabsf( d.normal.y + e.normal.y ) < 1.0e-3f );
				}

				// Rigid motion invariance (same motion for both).
				vec2s t = kcc_v2( uniform( &rng, -20.0f, 20.0f ), uniform( &rng, -20.0f, 20.0f ) );
				float angle = uniform( &rng, -PI_F, PI_F );
				kcc_shape ta = kcc_shape_transform( &a, t, angle );
				kcc_shape tb = kcc_shape_transform( &b, t, angle );
				kcc_distance_output f = kcc_distance( &ta, &tb );
				if ( fabsf( d.distance - f.distance ) > 1.0e-4f )
				{
					print_error( "%s/%s: distance %.9g, after a rigid motion %.9g\n", kind_name( ka ),
								 kind_name( kb ), d.distance, f.distance );
					fail();
				}

				// gjk_overlap agrees with the distance (within the slop).
				bool overlap = kcc_gjk_overlap( &a, &b );
				if ( d.distance == 0.0f )
				{
					assert_true( overlap );
				}
				else if ( d.distance > 2.0f * KCC_LINEAR_SLOP )
				{
					assert_false( overlap );
				}
			}
		}
	}
	printf( "distance: %d pairs (%d separated, %d overlapping, %d within the reference margin)\n", stats.pairs,
			stats.separated, stats.overlapping, stats.undecided );
	assert_true( stats.separated > stats.pairs / 4 && stats.overlapping > stats.pairs / 10 );
}

// Touching and nearly touching pairs: shapes placed at a known gap along a random axis via the distance itself,
// then pushed together to exactly touching: gjk_overlap must say true at gap 0 and false at gap 1e-3.
static void test_distance_near_contact_is_exact( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 77 };
	int checked = 0;
	for ( int ka = 0; ka < K_COUNT; ++ka )
	{
		for ( int kb = 0; kb < K_COUNT; ++kb )
		{
			for ( int n = 0; n < 100; ++n )
			{
				kcc_shape a = random_shape( &rng, ka, kcc_v2( 0.0f, 0.0f ), 1.0f );
				float angle = uniform( &rng, -PI_F, PI_F );
				kcc_shape b = random_shape( &rng, kb, kcc_v2( 6.0f * cosf( angle ), 6.0f * sinf( angle ) ), 1.0f );
				kcc_distance_output d = kcc_distance( &a, &b );
				if ( d.distance < 0.1f )
				{
					continue;
				}
				// Move b toward a along -normal until the gap is 1e-3: for convex pairs the new distance is exactly
				// 1e-3 (translating along the normal changes the distance at unit rate).
				float move = d.distance - 1.0e-3f;
				kcc_shape near = kcc_shape_translate( &b, kcc_v2( -move * d.normal.x, -move * d.normal.y ) );
				kcc_distance_output e = kcc_distance( &a, &near );
				if ( is_convex_kind( &a ) && is_convex_kind( &b ) )
				{
					assert_near( e.distance, 1.0e-3f, 1.0e-5f );
					assert_false( kcc_gjk_overlap( &a, &near ) );
				}
				else
				{
					assert_true( e.distance <= 1.0e-3f + 1.0e-5f );
				}
				kcc_shape touching = kcc_shape_translate( &b, kcc_v2( -d.distance * d.normal.x, -d.distance * d.normal.y ) );
				if ( kcc_gjk_overlap( &a, &touching ) == false )
				{
					kcc_distance_output t = kcc_distance( &a, &touching );
					print_error( "%s/%s: moved by the distance %.9g along -normal, gap %.9g\n", kind_name( ka ),
								 kind_name( kb ), d.distance, t.distance );
					print_error( "n %.9g %.9g pa %.9g %.9g pb %.9g %.9g\n", d.normal.x, d.normal.y, d.point_a.x,
								 d.point_a.y, d.point_b.x, d.point_b.y );
					if ( b.type == KCC_SHAPE_SECTOR )
					{
						print_error( "sector apex %.9g %.9g dir %.9g %.9g r %.9g angle %.9g\n", b.sector.apex.x,
									 b.sector.apex.y, b.sector.direction.x, b.sector.direction.y, b.sector.radius,
									 b.sector.angle );
					}
					fail();
				}
				assert_true( kcc_distance( &a, &touching ).distance <= 1.0e-5f );
				checked += 1;
			}
		}
	}
	printf( "near contact: %d pairs\n", checked );
	assert_true( checked > 5000 );
}

// A point (a zero-size box or a radius-0 circle) over a level segment (a zero-height box or a radius-0 capsule),
// projecting just inside one of its ends: the closest point is on the segment, the normal exactly vertical. GJK
// first meets the segment's end vertex; the edge through it gives the same distance to within rounding, and the
// vertex was kept: a normal tilted by (inside / distance), 6.5e-5 rad for a point 2e-4 inside, 3 above.
static void test_distance_point_over_a_segment_end( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 3131 };
	for ( int n = 0; n < 20000; ++n )
	{
		float x0 = uniform( &rng, -1.0f, 1.0f ), length = uniform( &rng, 0.1f, 1.0f ), y = uniform( &rng, -1.0f, 1.0f );
		float inside = uniform( &rng, 1.0e-5f, 1.0e-3f ), height = uniform( &rng, 0.5f, 3.0f ) * ( n % 2 == 0 ? 1.0f : -1.0f );
		float x = n % 4 < 2 ? x0 + inside : x0 + length - inside;
		vec2s p = kcc_v2( x, y + height );
		kcc_shape point = n % 3 == 0 ? kcc_make_circle( p, 0.0f ) : kcc_make_aabb( p, p );
		kcc_shape segment = n % 5 == 0 ? kcc_make_capsule( kcc_v2( x0, y ), kcc_v2( x0 + length, y ), 0.0f )
									   : kcc_make_aabb( kcc_v2( x0, y ), kcc_v2( x0 + length, y ) );
		kcc_distance_output d = kcc_distance( &point, &segment );
		float expected_y = height > 0.0f ? -1.0f : 1.0f;
		if ( d.normal.x != 0.0f || d.normal.y != expected_y || fabsf( d.point_b.x - x ) > 1.0e-6f )
		{
			print_error( "case %d: point (%.9g %.9g) over [%.9g, %.9g] at %.9g: normal (%.9g %.9g), point on the segment "
						 "(%.9g %.9g)\n",
						 n, p.x, p.y, x0, x0 + length, y, d.normal.x, d.normal.y, d.point_b.x, d.point_b.y );
			fail();
		}
		assert_near( d.distance, fabsf( height ), 2.0e-6f );
	}
}

// Found by CI's fuzz run: a valid box-like polygon 3e-22 wide and 3e-36 tall under a circle. Its edge's squared
// length underflows, and the edge GJK ended on had infinite weights: NaN closest points. Finite now, and exact.
static void test_distance_tiny_polygon_is_finite( void** state )
{
	(void)state;
	const float w = 0x1.bb6e3ep-73f, h = 0x1.4ep-120f;
	vec2s corners[4] = { { { -w, -h } }, { { w, -h } }, { { w, h } }, { { -w, h } } };
	kcc_shape box = { .type = KCC_SHAPE_POLYGON };
	box.polygon.count = 4;
	box.polygon.radius = 0x1p-147f;
	vec2s normals[4] = { { { 0.0f, -1.0f } }, { { 1.0f, 0.0f } }, { { 0.0f, 1.0f } }, { { -1.0f, 0.0f } } };
	for ( int i = 0; i < 4; ++i )
	{
		box.polygon.vertices[i] = corners[i];
		box.polygon.normals[i] = normals[i];
	}
	assert_true( kcc_shape_is_valid( &box ) );
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 6.5f ), 2.3125f );
	kcc_distance_output d = kcc_distance( &circle, &box );
	assert_true( kcc_is_valid_vec2( d.point_a ) && kcc_is_valid_vec2( d.point_b ) && kcc_is_valid_vec2( d.normal ) );
	assert_near( d.distance, 4.1875f, 1.0e-6f );
	assert_near( d.normal.y, -1.0f, 1.0e-6f );
}

static void test_distance_makes_no_allocation( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 5 };
	kcc_shape shapes[K_COUNT];
	for ( int k = 0; k < K_COUNT; ++k )
	{
		shapes[k] = random_shape( &rng, k, kcc_v2( (float)k, 0.0f ), 1.0f );
	}
	uint64_t before = kcc_test_allocation_count();
	float sum = 0.0f;
	for ( int i = 0; i < K_COUNT; ++i )
	{
		for ( int j = 0; j < K_COUNT; ++j )
		{
			sum += kcc_distance( shapes + i, shapes + j ).distance;
			sum += kcc_gjk_overlap( shapes + i, shapes + j ) ? 1.0f : 0.0f;
		}
	}
	assert_true( kcc_test_allocation_count() == before );
	assert_true( sum > 0.0f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_distance_hand_made_pairs ),
		cmocka_unit_test( test_distance_sectors_of_every_opening ),
		cmocka_unit_test( test_distance_invalid_shapes_give_zero_output ),
		cmocka_unit_test( test_distance_huge_coordinates_terminate ),
		cmocka_unit_test( test_distance_random_pairs_against_reference ),
		cmocka_unit_test( test_distance_near_contact_is_exact ),
		cmocka_unit_test( test_distance_point_over_a_segment_end ),
		cmocka_unit_test( test_distance_tiny_polygon_is_finite ),
		cmocka_unit_test( test_distance_makes_no_allocation ),
	};
	return cmocka_run_group_tests_name( "geometry_distance", tests, NULL, NULL );
}
