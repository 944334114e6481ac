// SPDX-License-Identifier: MIT
// Randomised property tests (deterministic seeds) of the geometry core against the independent reference
// (test_reference.h): overlap for every ordered pair of kinds, symmetry, invariance under rotation and translation,
// tight bounds, point containment. Pairs within the reference's margin of touching are skipped and counted; each
// test asserts the skipped fraction is small so it can not silently test nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "kcc/geometry.h"
#include "test_reference.h"

#include <stdio.h>
#include <stdlib.h>

#define PI_F 3.14159265358979323846f

enum
{
	KIND_CIRCLE,
	KIND_CAPSULE,
	KIND_AABB,
	KIND_OBB,
	KIND_POLYGON,
	KIND_ROUNDED_POLYGON,
	KIND_ROUNDED_BOX,
	KIND_SECTOR,
	KIND_COUNT
};

static const char* s_kind_names[KIND_COUNT] = { "circle",  "capsule",         "aabb",        "obb",
												"polygon", "rounded polygon", "rounded box", "sector" };

/// Pairs per ordered pair of kinds (each reference computation serves both argument orders).
#ifndef PAIRS_PER_KIND_PAIR
#define PAIRS_PER_KIND_PAIR 3000
#endif

typedef struct random_shape
{
	kcc_shape shape;
	kcc_ref_shape ref;
} random_shape;

static int s_polygon_attempts = 0, s_polygon_rejects = 0;

// Valid input must not assert; make_polygon may reject a nearly degenerate random hull (counted, asserted rare).
#include "assert_recorder.h"

static void assert_no_asserts( void )
{
	if ( s_assert_count != 0 )
	{
		fail_msg( "%d library asserts on valid input, last: %s", s_assert_count, s_last_message );
	}
}

static int setup( void** state )
{
	(void)state;
	kcc_set_assert_fcn( record_assert );
	s_assert_count = 0;
	return 0;
}

static vec2s random_point( kcc_ref_rng* rng, float extent )
{
	return kcc_v2( kcc_ref_uniform( rng, -extent, extent ), kcc_ref_uniform( rng, -extent, extent ) );
}

// A random shape of the kind around centre c. Sizes 0.05 .. 1.5.
static random_shape random_kind( kcc_ref_rng* rng, int kind, vec2s c )
{
	random_shape r;
	switch ( kind )
	{
		case KIND_CIRCLE:
		{
			float radius = kcc_ref_int( rng, 0, 19 ) == 0 ? 0.0f : kcc_ref_uniform( rng, 0.05f, 1.5f );
			r.shape = kcc_make_circle( c, radius );
			r.ref = kcc_ref_circle( c.x, c.y, radius );
			break;
		}
		case KIND_CAPSULE:
		{
			float half = kcc_ref_int( rng, 0, 19 ) == 0 ? 0.0f : kcc_ref_uniform( rng, 0.05f, 1.2f );
			float angle = kcc_ref_uniform( rng, -PI_F, PI_F );
			vec2s a = kcc_v2( c.x - half * cosf( angle ), c.y - half * sinf( angle ) );
			vec2s b = kcc_v2( c.x + half * cosf( angle ), c.y + half * sinf( angle ) );
			float radius = kcc_ref_int( rng, 0, 19 ) == 0 ? 0.0f : kcc_ref_uniform( rng, 0.02f, 0.8f );
			r.shape = kcc_make_capsule( a, b, radius );
			r.ref = kcc_ref_capsule( a.x, a.y, b.x, b.y, radius );
			break;
		}
		case KIND_AABB:
		{
			vec2s h = kcc_v2( kcc_ref_uniform( rng, 0.02f, 1.5f ), kcc_ref_uniform( rng, 0.02f, 1.5f ) );
			vec2s lo = kcc_v2( c.x - h.x, c.y - h.y ), hi = kcc_v2( c.x + h.x, c.y + h.y );
			r.shape = kcc_make_aabb( lo, hi );
			r.ref = kcc_ref_aabb( lo.x, lo.y, hi.x, hi.y );
			break;
		}
		case KIND_OBB:
		{
			vec2s h = kcc_v2( kcc_ref_uniform( rng, 0.02f, 1.5f ), kcc_ref_uniform( rng, 0.02f, 1.5f ) );
			float angle = kcc_ref_uniform( rng, -2.0f * PI_F, 2.0f * PI_F );
			r.shape = kcc_make_obb( c, h, angle );
			r.ref = kcc_ref_obb( c.x, c.y, h.x, h.y, angle );
			break;
		}
		case KIND_POLYGON:
		case KIND_ROUNDED_POLYGON:
		{
			float radius = kind == KIND_POLYGON ? 0.0f : kcc_ref_uniform( rng, 0.01f, 0.5f );
			float size = kcc_ref_uniform( rng, 0.1f, 1.5f );
			for ( ;; )
			{
				int count = kcc_ref_int( rng, 3, KCC_MAX_POLYGON_VERTICES );
				vec2s points[KCC_MAX_POLYGON_VERTICES];
				for ( int i = 0; i < count; ++i )
				{
					// points on a random ellipse-ish ring: hulls that are not slivers
					float a = kcc_ref_uniform( rng, 0.0f, 2.0f * PI_F );
					float d = size * kcc_ref_uniform( rng, 0.5f, 1.0f );
					points[i] = kcc_v2( c.x + d * cosf( a ), c.y + 0.7f * d * sinf( a ) );
				}
				r.ref = kcc_ref_polygon( points, count, radius );
				s_polygon_attempts += 1;
				if ( r.ref.count < 3 )
				{
					continue;
				}
				int asserts_before = s_assert_count;
				r.shape = kcc_make_polygon( points, count, radius );
				if ( kcc_shape_is_valid( &r.shape ) == false )
				{
					s_polygon_rejects += 1; // asserted rare below: make_polygon must accept ordinary hulls
					s_assert_count = asserts_before;
					if ( s_polygon_rejects <= 3 )
					{
						printf( "  make_polygon rejected:" );
						for ( int i = 0; i < count; ++i )
						{
							printf( " (%.9g, %.9g)", (double)points[i].x, (double)points[i].y );
						}
						printf( " reference hull %d\n", r.ref.count );
					}
					continue;
				}
				break;
			}
			break;
		}
		case KIND_ROUNDED_BOX:
		{
			vec2s h = kcc_v2( kcc_ref_uniform( rng, 0.02f, 1.2f ), kcc_ref_uniform( rng, 0.02f, 1.2f ) );
			float radius = kcc_ref_uniform( rng, 0.0f, 0.4f );
			float angle = kcc_ref_uniform( rng, -PI_F, PI_F );
			kcc_shape box = kcc_make_box( h, radius );
			r.shape = kcc_shape_transform( &box, c, angle );
			kcc_ref_shape ref = kcc_ref_box( h.x, h.y, radius );
			r.ref = kcc_ref_transform( &ref, c.x, c.y, angle );
			break;
		}
		case KIND_SECTOR:
		default:
		{
			float radius = kcc_ref_uniform( rng, 0.1f, 2.0f );
			float opening = kcc_ref_int( rng, 0, 19 ) == 0 ? 2.0f * PI_F : kcc_ref_uniform( rng, 0.001f, 2.0f * PI_F );
			float angle = kcc_ref_uniform( rng, -PI_F, PI_F );
			float length = kcc_ref_uniform( rng, 0.01f, 10.0f ); // not unit on purpose
			vec2s direction = kcc_v2( length * cosf( angle ), length * sinf( angle ) );
			vec2s apex = kcc_v2( c.x - 0.4f * radius * cosf( angle ), c.y - 0.4f * radius * sinf( angle ) );
			r.shape = kcc_make_sector( apex, direction, radius, opening );
			r.ref = kcc_ref_sector( apex.x, apex.y, direction.x, direction.y, radius, opening );
			break;
		}
	}
	assert_true( kcc_shape_is_valid( &r.shape ) );
	return r;
}

// ---------------------------------------------------------------------------------------------------------------

// The reference checks itself: SDFs (from the definitions) against brute force over dense boundary samples (a
// different construction), and every boundary sample at distance 0.
static void test_reference_is_self_consistent( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 2024 };
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		for ( int i = 0; i < 6; ++i )
		{
			random_shape s = random_kind( &rng, kind, random_point( &rng, 1.0f ) );
			for ( int k = 0; k < 20; ++k )
			{
				vec2s p = random_point( &rng, 3.0f );
				double boundary_error = 0.0;
				double error = kcc_ref_self_check( &s.ref, p.x, p.y, 0.001, &boundary_error );
				if ( error > 0.0006 || boundary_error > 1e-9 )
				{
					fail_msg( "reference %s: SDF vs brute force %g, boundary %g", s_kind_names[kind], error,
							  boundary_error );
				}
			}
		}
	}
}

typedef struct pair_stats
{
	int checked, skipped, overlapping, separated;
} pair_stats;

static void test_overlap_matches_reference_every_ordered_pair_of_kinds( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 0x5eed };
	int total_checked = 0, total_skipped = 0;
	uint64_t allocations = kcc_test_allocation_count();
	for ( int i = 0; i < KIND_COUNT; ++i )
	{
		for ( int j = 0; j < KIND_COUNT; ++j )
		{
			pair_stats stats = { 0, 0, 0, 0 };
			for ( int n = 0; n < PAIRS_PER_KIND_PAIR; ++n )
			{
				random_shape a = random_kind( &rng, i, random_point( &rng, 0.5f ) );
				random_shape b = random_kind( &rng, j, random_point( &rng, n % 2 == 0 ? 1.25f : 3.0f ) );
				bool ab = kcc_overlap( &a.shape, &b.shape );
				bool ba = kcc_overlap( &b.shape, &a.shape );
				// symmetry holds for every pair, touching or not
				if ( ab != ba )
				{
					fail_msg( "asymmetric: %s vs %s (pair %d): a-b %d, b-a %d", s_kind_names[i], s_kind_names[j], n, ab,
							  ba );
				}
				bool decided = false;
				bool expected = kcc_ref_overlap( &a.ref, &b.ref, &decided );
				if ( decided == false )
				{
					stats.skipped += 1;
					continue;
				}
				if ( ab != expected )
				{
					fail_msg( "%s vs %s (pair %d): got %d, reference %d (separation %g)", s_kind_names[i], s_kind_names[j],
							  n, ab, expected, kcc_ref_separation( &a.ref, &b.ref ) );
				}
				// the iterative queries agree with the reference too: distance 0 exactly when overlapping (exact to
				// KCC_LINEAR_SLOP, far below the margin; wide sectors are split in two convex halves), and
				// penetration reports overlapping for every kind (for wide sectors it equals kcc_overlap)
				kcc_distance_output distance = kcc_distance( &a.shape, &b.shape );
				kcc_penetration_output penetration = kcc_penetration( &a.shape, &b.shape );
				if ( ( distance.distance == 0.0f ) != expected || penetration.overlapping != expected )
				{
					fail_msg( "%s vs %s (pair %d): reference %d, kcc_distance %g, kcc_penetration overlapping %d",
							  s_kind_names[i], s_kind_names[j], n, expected, (double)distance.distance,
							  penetration.overlapping );
				}
				// invariance: the same pair rotated about the origin and moved
				float angle = kcc_ref_uniform( &rng, -PI_F, PI_F );
				vec2s offset = random_point( &rng, 20.0f );
				kcc_shape ta = kcc_shape_transform( &a.shape, offset, angle );
				kcc_shape tb = kcc_shape_transform( &b.shape, offset, angle );
				if ( kcc_shape_is_valid( &ta ) == false || kcc_shape_is_valid( &tb ) == false )
				{
					const kcc_shape* bad = kcc_shape_is_valid( &ta ) ? &b.shape : &a.shape;
					if ( bad->type == KCC_SHAPE_POLYGON )
					{
						printf( "  polygon radius %a:", (double)bad->polygon.radius );
						for ( int k = 0; k < bad->polygon.count; ++k )
						{
							printf( " (%a, %a)", (double)bad->polygon.vertices[k].x, (double)bad->polygon.vertices[k].y );
						}
						printf( "\n" );
					}
					fail_msg( "kcc_shape_transform of a valid %s by angle %.9g, offset (%.9g, %.9g) is invalid; "
							  "first floats %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g",
							  s_kind_names[kcc_shape_is_valid( &ta ) ? j : i], (double)angle, (double)offset.x,
							  (double)offset.y, (double)bad->obb.center.x, (double)bad->obb.center.y,
							  (double)bad->obb.half_extents.x, (double)bad->obb.half_extents.y,
							  (double)bad->obb.rotation.x, (double)bad->obb.rotation.y, (double)bad->obb.angle,
							  (double)bad->sector.half_angle.y );
				}
				bool tab = kcc_overlap( &ta, &tb );
				if ( tab != expected || kcc_overlap( &tb, &ta ) != expected )
				{
					fail_msg( "%s vs %s (pair %d) rotated by %g and moved by (%g, %g): got %d, reference %d",
							  s_kind_names[i], s_kind_names[j], n, (double)angle, (double)offset.x, (double)offset.y, tab,
							  expected );
				}
				kcc_shape ma = kcc_shape_translate( &a.shape, offset );
				kcc_shape mb = kcc_shape_translate( &b.shape, offset );
				assert_int_equal( ma.type, a.shape.type );
				if ( kcc_overlap( &ma, &mb ) != expected )
				{
					fail_msg( "%s vs %s (pair %d) translated by (%g, %g): got %d, reference %d", s_kind_names[i],
							  s_kind_names[j], n, (double)offset.x, (double)offset.y, !expected, expected );
				}
				stats.checked += 1;
				stats.overlapping += expected ? 1 : 0;
				stats.separated += expected ? 0 : 1;
			}
			// the test must test something: few skips, and both answers well represented
			if ( stats.skipped * 20 > PAIRS_PER_KIND_PAIR || stats.overlapping * 10 < stats.checked ||
				 stats.separated * 10 < stats.checked )
			{
				fail_msg( "%s vs %s: checked %d, skipped %d, overlapping %d, separated %d", s_kind_names[i],
						  s_kind_names[j], stats.checked, stats.skipped, stats.overlapping, stats.separated );
			}
			total_checked += stats.checked;
			total_skipped += stats.skipped;
		}
	}
	assert_int_equal( kcc_test_allocation_count() - allocations, 0 );
	assert_true( s_polygon_rejects * 100 <= s_polygon_attempts );
	assert_no_asserts();
	printf( "  overlap pairs checked %d (each in both orders, plus rotated and translated), skipped %d (%.2f%%)\n",
			total_checked, total_skipped, 100.0 * total_skipped / ( total_checked + total_skipped ) );
}

// Bounds contain every boundary sample and each side is touched within the sampling step.
static void test_bounds_contain_and_are_tight( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 77 };
	static double xs[KCC_REF_MAX_SAMPLES], ys[KCC_REF_MAX_SAMPLES];
	const double h = 0.005;
	int checked = 0;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		for ( int n = 0; n < 400; ++n )
		{
			random_shape s = random_kind( &rng, kind, random_point( &rng, 5.0f ) );
			if ( n % 2 == 1 )
			{
				// rotated (an AABB becomes an OBB) and moved
				float angle = kcc_ref_uniform( &rng, -PI_F, PI_F );
				vec2s offset = random_point( &rng, 10.0f );
				s.shape = kcc_shape_transform( &s.shape, offset, angle );
				s.ref = kcc_ref_transform( &s.ref, offset.x, offset.y, angle );
			}
			kcc_aabb box = kcc_shape_bounds( &s.shape );
			int count = kcc_ref_sample_boundary( &s.ref, h, xs, ys, KCC_REF_MAX_SAMPLES );
			assert_true( count > 0 );
			double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
			for ( int k = 0; k < count; ++k )
			{
				lo_x = fmin( lo_x, xs[k] );
				lo_y = fmin( lo_y, ys[k] );
				hi_x = fmax( hi_x, xs[k] );
				hi_y = fmax( hi_y, ys[k] );
			}
			// float shapes: allow a few ulps of the coordinates
			double tol = 4e-6 * ( 1.0 + fmax( fmax( fabs( lo_x ), fabs( hi_x ) ), fmax( fabs( lo_y ), fabs( hi_y ) ) ) );
			bool contains = box.min.x <= lo_x + tol && box.min.y <= lo_y + tol && box.max.x >= hi_x - tol &&
							box.max.y >= hi_y - tol;
			bool tight = box.min.x >= lo_x - h - tol && box.min.y >= lo_y - h - tol && box.max.x <= hi_x + h + tol &&
						 box.max.y <= hi_y + h + tol;
			if ( contains == false || tight == false )
			{
				fail_msg( "bounds of %s #%d: [%g %g]x[%g %g], samples span [%g %g]x[%g %g] (contains %d, tight %d)",
						  s_kind_names[kind], n, (double)box.min.x, (double)box.max.x, (double)box.min.y,
						  (double)box.max.y, lo_x, hi_x, lo_y, hi_y, contains, tight );
			}
			checked += 1;
		}
	}
	assert_int_equal( checked, KIND_COUNT * 400 );
	assert_no_asserts();
}

static void test_contains_point_matches_reference( void** state )
{
	(void)state;
	kcc_ref_rng rng = { 31337 };
	int checked = 0, skipped = 0, inside = 0;
	for ( int kind = 0; kind < KIND_COUNT; ++kind )
	{
		for ( int n = 0; n < 500; ++n )
		{
			random_shape s = random_kind( &rng, kind, random_point( &rng, 2.0f ) );
			kcc_aabb box = kcc_shape_bounds( &s.shape );
			for ( int k = 0; k < 40; ++k )
			{
				vec2s p = kcc_v2( kcc_ref_uniform( &rng, box.min.x - 0.2f, box.max.x + 0.2f ),
								  kcc_ref_uniform( &rng, box.min.y - 0.2f, box.max.y + 0.2f ) );
				if ( k == 0 )
				{
					double ix, iy;
					kcc_ref_inner_point( &s.ref, &ix, &iy );
					p = kcc_v2( (float)ix, (float)iy );
				}
				double d = kcc_ref_sdf( &s.ref, p.x, p.y );
				if ( fabs( d ) < 1e-4 )
				{
					skipped += 1;
					continue;
				}
				bool got = kcc_contains_point( &s.shape, p );
				if ( got != ( d <= 0.0 ) )
				{
					fail_msg( "kcc_contains_point %s #%d, point (%.9g, %.9g): got %d, reference distance %g",
							  s_kind_names[kind], n, (double)p.x, (double)p.y, got, d );
				}
				// a point is a zero-radius circle: overlap agrees
				kcc_shape dot = kcc_make_circle( p, 0.0f );
				if ( kcc_overlap( &s.shape, &dot ) != got || kcc_overlap( &dot, &s.shape ) != got )
				{
					fail_msg( "kcc_overlap with a point disagrees with kcc_contains_point: %s #%d (%.9g, %.9g)",
							  s_kind_names[kind], n, (double)p.x, (double)p.y );
				}
				checked += 1;
				inside += got ? 1 : 0;
			}
		}
	}
	assert_true( skipped * 100 < checked );
	assert_true( inside * 5 > checked );
	assert_no_asserts();
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup( test_reference_is_self_consistent, setup ),
		cmocka_unit_test_setup( test_overlap_matches_reference_every_ordered_pair_of_kinds, setup ),
		cmocka_unit_test_setup( test_bounds_contain_and_are_tight, setup ),
		cmocka_unit_test_setup( test_contains_point_matches_reference, setup ),
	};
	return cmocka_run_group_tests_name( "geometry_properties", tests, NULL, NULL );
}
