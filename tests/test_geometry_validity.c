// SPDX-License-Identifier: MIT
// kcc_shape_is_valid on polygons against the definition, written here again independently in long double (corner
// turns summed with atan2 for the winding): every decision of kcc_shape_is_valid must match it, on valid hulls
// (kcc_make_polygon at many scales, transformed and translated ones) and on broken ones (reflex, collinear, swapped
// or duplicated vertices, clockwise winding, double windings, NaN and Inf in every field, normals just inside and
// just outside the tolerance, bit flips). Where a tolerance comparison is too close to call in the precision of the
// library's float and double arithmetic, the reference abstains (counted, and a small share).
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kcc/geometry.h"

#include "assert_recorder.h"

#define PI_D 3.14159265358979323846

// ---------------------------------------------------------------------------------------------------------------
// The reference: a valid polygon has 3 .. KCC_MAX_POLYGON_VERTICES vertices, a finite radius >= 0, a finite
// centroid, finite vertices and normals; every corner turns strictly left (counter-clockwise, no repeated or
// collinear vertex) and the turns add up to one full turn (convex, not a star); each normal is unit within
// KCC_UNIT_TOLERANCE of |n|^2 = 1 and the outward perpendicular of its edge within that tolerance (|n . e| <= tol |e|,
// n x e > 0).

typedef enum ref_answer
{
	REF_INVALID,
	REF_VALID,
	REF_UNDECIDED, // a tolerance comparison within the library's rounding of its limit
} ref_answer;

static int s_undecided = 0;

static bool ref_finite( vec2s v )
{
	return isfinite( v.x ) && isfinite( v.y );
}

static ref_answer ref_polygon_is_valid( const kcc_polygon* p )
{
	const long double tolerance = (long double)1.0e-3f; // KCC_UNIT_TOLERANCE, as the library's float constant
	int n = p->count;
	if ( n < 3 || n > KCC_MAX_POLYGON_VERTICES || !isfinite( p->radius ) || !( p->radius >= 0.0f ) ||
		 ref_finite( p->centroid ) == false )
	{
		return REF_INVALID;
	}
	bool undecided = false;
	long double turning = 0.0L;
	for ( int i = 0; i < n; ++i )
	{
		vec2s a = p->vertices[i], b = p->vertices[( i + 1 ) % n], c = p->vertices[( i + 2 ) % n], nrm = p->normals[i];
		if ( ref_finite( a ) == false || ref_finite( nrm ) == false )
		{
			return REF_INVALID;
		}
		long double ex = (long double)b.x - a.x, ey = (long double)b.y - a.y;
		long double fx = (long double)c.x - b.x, fy = (long double)c.y - b.y;
		long double cross = ex * fy - ey * fx, ee = ex * ex + ey * ey;
		if ( !( cross > 0.0L ) || !( ee > 0.0L ) )
		{
			return REF_INVALID;
		}
		turning += atan2l( cross, ex * fx + ey * fy );
		// unit: |n|^2 within the tolerance of 1 (the library squares in float: abstain within 3e-7 of the limit)
		long double off = fabsl( (long double)nrm.x * nrm.x + (long double)nrm.y * nrm.y - 1.0L ) - tolerance;
		// perpendicular and outward (the library works in double: abstain within 1e-12 relative of the limit)
		long double along = nrm.x * ex + nrm.y * ey, outward = nrm.x * ey - nrm.y * ex;
		long double excess = along * along - tolerance * tolerance * ee;
		long double band = 1.0e-12L * ( along * along + tolerance * tolerance * ee );
		if ( off > 3.0e-7L || excess > band || !( outward > 0.0L ) )
		{
			return REF_INVALID;
		}
		undecided = undecided || fabsl( off ) <= 3.0e-7L || fabsl( excess ) <= band;
	}
	// every turn is in (0, pi): the sum is 2 pi times the winding number
	if ( !( fabsl( turning - 2.0L * 3.14159265358979323846264338L ) < 1.0L ) )
	{
		return REF_INVALID;
	}
	return undecided ? REF_UNDECIDED : REF_VALID;
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

typedef struct test_rng
{
	uint64_t state;
} test_rng;

static uint64_t rng_next( test_rng* r )
{
	// splitmix64
	uint64_t z = ( r->state += 0x9e3779b97f4a7c15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xbf58476d1ce4e5b9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94d049bb133111ebull;
	return z ^ ( z >> 31 );
}

static double rng_unit( test_rng* r )
{
	return (double)( rng_next( r ) >> 11 ) * ( 1.0 / 9007199254740992.0 );
}

static double rng_range( test_rng* r, double lo, double hi )
{
	return lo + ( hi - lo ) * rng_unit( r );
}

static int rng_int( test_rng* r, int lo, int hi )
{
	return lo + (int)( rng_next( r ) % (uint64_t)( hi - lo + 1 ) );
}

typedef struct tally
{
	int valid, invalid;
} tally;

static void print_polygon( const kcc_polygon* p )
{
	printf( "polygon count %d radius %a centroid (%a, %a)\n", p->count, (double)p->radius, (double)p->centroid.x,
			(double)p->centroid.y );
	for ( int i = 0; i < KCC_MAX_POLYGON_VERTICES; ++i )
	{
		printf( "  v%d (%a, %a) n%d (%a, %a)\n", i, (double)p->vertices[i].x, (double)p->vertices[i].y, i,
				(double)p->normals[i].x, (double)p->normals[i].y );
	}
}

// kcc_shape_is_valid must decide as the reference does, where the reference decides. Returns the decision.
static bool check_same( const kcc_shape* s, tally* t, const char* what )
{
	bool got = kcc_shape_is_valid( s );
	ref_answer answer = s->type == KCC_SHAPE_POLYGON ? ref_polygon_is_valid( &s->polygon ) : REF_INVALID;
	if ( answer == REF_UNDECIDED )
	{
		s_undecided += 1;
		return got;
	}
	bool want = answer == REF_VALID;
	if ( got != want )
	{
		print_polygon( &s->polygon );
		fail_msg( "%s: kcc_shape_is_valid says %d, the reference %d", what, (int)got, (int)want );
	}
	if ( t != NULL )
	{
		t->valid += want ? 1 : 0;
		t->invalid += want ? 0 : 1;
	}
	return want;
}

// Exact outward unit normals of a polygon's edges (double), as kcc_make_polygon computes them.
static void set_normals( kcc_polygon* p )
{
	int n = p->count;
	for ( int i = 0; i < n; ++i )
	{
		vec2s a = p->vertices[i], b = p->vertices[( i + 1 ) % n];
		double ex = (double)b.x - a.x, ey = (double)b.y - a.y, length = sqrt( ex * ex + ey * ey );
		p->normals[i] = length > 0.0 ? kcc_v2( (float)( ey / length ), (float)( -ex / length ) ) : kcc_v2( 1.0f, 0.0f );
	}
}

static float pick_scale( test_rng* r )
{
	static const float scales[] = { 1.0f, 1.0f, 1.0f, 0.01f, 100.0f, 1.0e-3f, 1.0e4f, 1.0e-8f, 1.0e8f, 1.0e-15f,
									1.0e-20f, 1.0e15f, 1.0e20f, 1.0e30f, 1.0e37f };
	return scales[rng_int( r, 0, (int)( sizeof( scales ) / sizeof( scales[0] ) ) - 1 )];
}

// A valid hull of exactly count vertices: points on an ellipse at random sorted angles, scaled and offset. Retries
// until kcc_make_polygon keeps every point (close angles can be dropped as collinear).
static kcc_shape random_hull( test_rng* r, int count, float scale, float offset_scale )
{
	for ( ;; )
	{
		double angles[KCC_MAX_POLYGON_VERTICES];
		for ( int i = 0; i < count; ++i )
		{
			angles[i] = rng_range( r, 0.0, 2.0 * PI_D );
		}
		for ( int i = 1; i < count; ++i ) // insertion sort
		{
			for ( int j = i; j > 0 && angles[j] < angles[j - 1]; --j )
			{
				double t = angles[j];
				angles[j] = angles[j - 1];
				angles[j - 1] = t;
			}
		}
		double ax = rng_range( r, 0.2, 1.0 ), ay = rng_range( r, 0.2, 1.0 ), tilt = rng_range( r, 0.0, PI_D );
		// (an offset beyond 1e36 would put the points at infinity: no hull)
		double reach = offset_scale < 1.0e36f ? offset_scale : 0.0;
		double ox = rng_range( r, -1.0, 1.0 ) * reach, oy = rng_range( r, -1.0, 1.0 ) * reach;
		vec2s points[KCC_MAX_POLYGON_VERTICES];
		for ( int i = 0; i < count; ++i )
		{
			double x = ax * cos( angles[i] ), y = ay * sin( angles[i] );
			double rx = x * cos( tilt ) - y * sin( tilt ), ry = x * sin( tilt ) + y * cos( tilt );
			points[i] = kcc_v2( (float)( ox + scale * rx ), (float)( oy + scale * ry ) );
		}
		float radius = rng_int( r, 0, 2 ) == 0 ? 0.0f : (float)rng_range( r, 0.0, 2.0 ) * scale;
		if ( kcc_is_valid_float( radius ) == false )
		{
			radius = 0.0f;
		}
		kcc_shape s = kcc_make_polygon( points, count, radius );
		if ( s.type == KCC_SHAPE_POLYGON && s.polygon.count == count )
		{
			return s;
		}
	}
}

static void test_setup_handler( void )
{
	reset_asserts();
	kcc_set_assert_fcn( record_assert );
}

// ---------------------------------------------------------------------------------------------------------------
// Tests

// Hand-made cases with known answers, so the reference itself is pinned down too.
static void test_known_cases( void** state )
{
	(void)state;
	test_setup_handler();
	kcc_shape box = kcc_make_box( kcc_v2( 1.0f, 2.0f ), 0.1f );
	assert_true( check_same( &box, NULL, "box" ) );

	kcc_shape s = box;
	s.polygon.radius = -0.0f; // -0 >= 0: a valid radius
	assert_true( check_same( &s, NULL, "radius -0" ) );
	s.polygon.radius = -1.0e-30f;
	assert_false( check_same( &s, NULL, "negative radius" ) );

	// unused slots are never read as data: garbage there changes nothing
	s = box;
	for ( int i = 4; i < KCC_MAX_POLYGON_VERTICES; ++i )
	{
		s.polygon.vertices[i] = kcc_v2( NAN, INFINITY );
		s.polygon.normals[i] = kcc_v2( -INFINITY, NAN );
	}
	assert_true( check_same( &s, NULL, "garbage in unused slots" ) );
	kcc_shape triangle = kcc_make_polygon( box.polygon.vertices, 3, 0.0f );
	assert_int_equal( triangle.polygon.count, 3 );
	for ( int i = 3; i < KCC_MAX_POLYGON_VERTICES; ++i )
	{
		triangle.polygon.vertices[i] = kcc_v2( NAN, NAN );
		triangle.polygon.normals[i] = kcc_v2( NAN, NAN );
	}
	assert_true( check_same( &triangle, NULL, "triangle with garbage in unused slots" ) );

	// clockwise: vertices reversed, normals recomputed as the edges turned clockwise (then they point inward)
	s = box;
	for ( int i = 0; i < 4; ++i )
	{
		s.polygon.vertices[i] = box.polygon.vertices[3 - i];
	}
	set_normals( &s.polygon );
	assert_false( check_same( &s, NULL, "clockwise box" ) );

	// inward normals on a counter-clockwise box
	s = box;
	for ( int i = 0; i < 4; ++i )
	{
		s.polygon.normals[i] = kcc_v2( -box.polygon.normals[i].x, -box.polygon.normals[i].y );
	}
	assert_false( check_same( &s, NULL, "inward normals" ) );

	// normals shifted by one edge
	s = box;
	for ( int i = 0; i < 4; ++i )
	{
		s.polygon.normals[i] = box.polygon.normals[( i + 1 ) % 4];
	}
	assert_false( check_same( &s, NULL, "normals of the wrong edges" ) );

	// pentagram: left turns everywhere, matching outward normals, winds twice
	s = box;
	s.polygon.count = 5;
	for ( int i = 0; i < 5; ++i )
	{
		double angle = 2.0 * PI_D * (double)( ( 2 * i ) % 5 ) / 5.0;
		s.polygon.vertices[i] = kcc_v2( (float)cos( angle ), (float)sin( angle ) );
	}
	set_normals( &s.polygon );
	assert_false( check_same( &s, NULL, "pentagram" ) );

	// counts out of range
	int counts[] = { -2147483647 - 1, -1, 0, 1, 2, 9, 100, 2147483647 };
	for ( size_t i = 0; i < sizeof( counts ) / sizeof( counts[0] ); ++i )
	{
		s = box;
		s.polygon.count = counts[i];
		assert_false( check_same( &s, NULL, "count out of range" ) );
	}
	// NULL and other kinds are unchanged
	assert_false( kcc_shape_is_valid( NULL ) );
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	assert_true( kcc_shape_is_valid( &circle ) );
	kcc_shape invalid = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), -1.0f );
	assert_false( kcc_shape_is_valid( &invalid ) );
}

// Hulls from kcc_make_polygon, 3 .. 8 vertices, at scales from 1e-20 to 1e37 and far from the origin: all valid.
static void test_random_hulls_are_valid( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 1 };
	tally t = { 0, 0 };
	const int hulls = 30000;
	for ( int iteration = 0; iteration < hulls; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		float scale = pick_scale( &r );
		float offset = rng_int( &r, 0, 2 ) == 0 ? 0.0f : scale * (float)pow( 10.0, rng_int( &r, 0, 4 ) );
		if ( !( offset < 1.0e37f ) )
		{
			offset = 0.0f;
		}
		kcc_shape s = random_hull( &r, count, scale, offset );
		assert_true( check_same( &s, &t, "hull" ) );
	}
	assert_int_equal( t.valid, hulls );
	assert_int_equal( s_assert_count, 0 );
}

// Every polygon kcc_shape_transform and kcc_shape_translate return is valid, and the decisions match (the transform
// rebuilds a hull when rounding broke one: that decision is kcc_shape_is_valid's too).
static void test_transformed_hulls_are_valid( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 2 };
	tally t = { 0, 0 };
	int polygons = 0;
	for ( int iteration = 0; iteration < 20000; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		float scale = rng_int( &r, 0, 3 ) == 0 ? pick_scale( &r ) : 1.0f;
		kcc_shape s = random_hull( &r, count, scale, 0.0f );
		if ( rng_int( &r, 0, 4 ) == 0 )
		{
			s = kcc_make_box( kcc_v2( (float)rng_range( &r, 1e-3, 10.0 ), (float)rng_range( &r, 1e-3, 10.0 ) ),
							  (float)rng_range( &r, 0.0, 1.0 ) );
		}
		float reach = (float)pow( 10.0, rng_int( &r, -2, 5 ) );
		vec2s translation = kcc_v2( (float)rng_range( &r, -1.0, 1.0 ) * reach, (float)rng_range( &r, -1.0, 1.0 ) * reach );
		float angle = (float)rng_range( &r, -10.0, 10.0 );
		kcc_shape moved[3] = {
			kcc_shape_transform( &s, translation, angle ),
			kcc_shape_translate( &s, translation ),
			kcc_shape_transform( &s, kcc_v2( 0.0f, 0.0f ), angle ),
		};
		for ( int k = 0; k < 3; ++k )
		{
			if ( moved[k].type == KCC_SHAPE_POLYGON )
			{
				polygons += 1;
				assert_true( check_same( &moved[k], &t, "transformed hull" ) );
			}
		}
		// and again, from the moved shape
		kcc_shape again = kcc_shape_transform( &moved[0], kcc_v2( -translation.x, translation.y ), -0.5f * angle );
		if ( again.type == KCC_SHAPE_POLYGON )
		{
			polygons += 1;
			assert_true( check_same( &again, &t, "transformed twice" ) );
		}
	}
	assert_true( polygons > 59000 );
	assert_int_equal( t.invalid, 0 );
}

// One vertex moved: into a reflex corner, onto the line of its neighbours, onto a neighbour (zero-length edge),
// or slightly outward (still convex, new normals or old ones); two vertices swapped; the order reversed.
static void test_perturbed_polygons_match( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 3 };
	tally kinds[8];
	memset( kinds, 0, sizeof( kinds ) );
	for ( int iteration = 0; iteration < 60000; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		float scale = rng_int( &r, 0, 2 ) == 0 ? pick_scale( &r ) : 1.0f;
		kcc_shape s = random_hull( &r, count, scale, rng_int( &r, 0, 1 ) * scale * 10.0f );
		kcc_polygon* p = &s.polygon;
		int i = rng_int( &r, 0, count - 1 );
		int prev = ( i + count - 1 ) % count, next = ( i + 1 ) % count;
		vec2s a = p->vertices[prev], b = p->vertices[i], c = p->vertices[next];
		int kind = rng_int( &r, 0, 7 );
		bool renormal = rng_int( &r, 0, 3 ) != 0;
		switch ( kind )
		{
			case 0: // toward (and past) the line of the neighbours
			{
				double t = rng_range( &r, 0.0, 1.0 ), u = rng_range( &r, 0.5, 2.0 );
				double mx = a.x + t * ( (double)c.x - a.x ), my = a.y + t * ( (double)c.y - a.y );
				p->vertices[i] = kcc_v2( (float)( b.x + ( mx - b.x ) * u ), (float)( b.y + ( my - b.y ) * u ) );
				break;
			}
			case 1: // onto the line: the midpoint, or another point of the segment
			{
				double t = rng_int( &r, 0, 1 ) == 0 ? 0.5 : rng_range( &r, 0.0, 1.0 );
				p->vertices[i] = kcc_v2( (float)( a.x + t * ( (double)c.x - a.x ) ), (float)( a.y + t * ( (double)c.y - a.y ) ) );
				break;
			}
			case 2: // onto a neighbour: a zero-length edge
				p->vertices[i] = rng_int( &r, 0, 1 ) == 0 ? a : c;
				break;
			case 3: // a tiny push, either way, relative to the scale
			{
				double push = ldexp( rng_range( &r, -1.0, 1.0 ), -rng_int( &r, 0, 30 ) ) * scale;
				double mx = 0.5 * ( (double)a.x + c.x ), my = 0.5 * ( (double)a.y + c.y );
				p->vertices[i] = kcc_v2( (float)( b.x + push * ( b.x - mx ) / scale ),
										 (float)( b.y + push * ( b.y - my ) / scale ) );
				break;
			}
			case 4: // swap two vertices
			{
				int j = rng_int( &r, 0, count - 1 );
				p->vertices[i] = p->vertices[j];
				p->vertices[j] = b;
				break;
			}
			case 5: // reverse the order (clockwise)
				for ( int k = 0; k < count / 2; ++k )
				{
					vec2s tmp = p->vertices[k];
					p->vertices[k] = p->vertices[count - 1 - k];
					p->vertices[count - 1 - k] = tmp;
				}
				break;
			case 6: // one coordinate moved by a few ulps
			{
				float* f = rng_int( &r, 0, 1 ) == 0 ? &p->vertices[i].x : &p->vertices[i].y;
				int steps = rng_int( &r, 1, 8 );
				for ( int k = 0; k < steps; ++k )
				{
					*f = nextafterf( *f, rng_int( &r, 0, 1 ) == 0 ? INFINITY : -INFINITY );
				}
				break;
			}
			default: // a vertex moved anywhere nearby
				p->vertices[i] = kcc_v2( (float)( b.x + rng_range( &r, -1.0, 1.0 ) * scale ),
										 (float)( b.y + rng_range( &r, -1.0, 1.0 ) * scale ) );
				break;
		}
		if ( renormal )
		{
			set_normals( p );
		}
		check_same( &s, &kinds[kind], "perturbed" );
	}
	// every kind must have produced both answers (or, for the broken ones, at least many invalid)
	for ( int kind = 0; kind < 8; ++kind )
	{
		printf( "perturbation %d: %d valid, %d invalid\n", kind, kinds[kind].valid, kinds[kind].invalid );
		assert_true( kinds[kind].invalid > ( kind == 6 ? 0 : 100 ) );
	}
	assert_true( kinds[0].valid > 100 );
	assert_true( kinds[3].valid > 100 );
	assert_true( kinds[6].valid > 100 );
	assert_true( kinds[7].valid > 100 );
}

// Closed polylines turning left at every corner but winding twice or three times (5 .. 8 vertices), with exact
// normals: every one is invalid. Their once-winding siblings are valid.
static void test_multiple_windings_match( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 4 };
	tally once = { 0, 0 }, more = { 0, 0 };
	for ( int iteration = 0; iteration < 20000; ++iteration )
	{
		int count = rng_int( &r, 5, KCC_MAX_POLYGON_VERTICES );
		int windings = count >= 7 && rng_int( &r, 0, 2 ) == 0 ? 3 : rng_int( &r, 1, 2 );
		if ( windings == 3 && count < 7 )
		{
			windings = 2;
		}
		double jitter = rng_int( &r, 0, 1 ) == 0 ? 0.0 : 0.3;
		double scale = pick_scale( &r ), phase = rng_range( &r, 0.0, 2.0 * PI_D );
		kcc_shape s = kcc_make_box( kcc_v2( 1.0f, 1.0f ), 0.0f );
		s.polygon.count = count;
		for ( int i = 0; i < count; ++i )
		{
			double angle = phase + 2.0 * PI_D * windings * ( i + jitter * rng_range( &r, -1.0, 1.0 ) ) / count;
			double radius = scale * ( 1.0 + jitter * rng_range( &r, -0.3, 0.3 ) );
			s.polygon.vertices[i] = kcc_v2( (float)( radius * cos( angle ) ), (float)( radius * sin( angle ) ) );
		}
		set_normals( &s.polygon );
		s.polygon.centroid = kcc_v2( 0.0f, 0.0f );
		check_same( &s, windings == 1 ? &once : &more, "windings" );
	}
	assert_int_equal( more.valid, 0 );
	assert_true( more.invalid > 5000 );
	assert_true( once.valid > 3000 );
}

// NaN and Inf in every field: in a used slot the polygon is invalid, in an unused slot nothing changes.
static void test_special_values_in_every_field( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 5 };
	const float specials[] = { NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1.0e30f, FLT_MIN, 1.0e-45f, 0.0f };
	tally t = { 0, 0 };
	for ( int iteration = 0; iteration < 300; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		kcc_shape base = random_hull( &r, count, rng_int( &r, 0, 1 ) == 0 ? 1.0f : pick_scale( &r ), 0.0f );
		int field_count = (int)( offsetof( kcc_polygon, count ) / sizeof( float ) );
		for ( int f = 0; f < field_count; ++f )
		{
			for ( size_t k = 0; k < sizeof( specials ) / sizeof( specials[0] ); ++k )
			{
				kcc_shape s = base;
				( (float*)&s.polygon )[f] = specials[k];
				bool valid = check_same( &s, &t, "special value" );
				bool nonfinite = !kcc_is_valid_float( specials[k] );
				int slot = f < 2 * KCC_MAX_POLYGON_VERTICES ? f / 2
													 : ( f < 4 * KCC_MAX_POLYGON_VERTICES ? ( f - 16 ) / 2 : -1 );
				bool used = slot < 0 || slot < count;
				if ( nonfinite && used )
				{
					assert_false( valid );
				}
				if ( used == false )
				{
					assert_true( valid );
				}
			}
		}
	}
	assert_true( t.valid > 1000 );
	assert_true( t.invalid > 1000 );
}

// Normals rotated by an angle whose sine is just below or just above the tolerance, and scaled so |n|^2 is just
// inside or just outside 1 +- tolerance: both answers occur, and they match.
static void test_normals_at_the_tolerance( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 6 };
	tally rotated = { 0, 0 }, scaled = { 0, 0 };
	for ( int iteration = 0; iteration < 20000; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		float scale = rng_int( &r, 0, 3 ) == 0 ? pick_scale( &r ) : 1.0f;
		kcc_shape s = random_hull( &r, count, scale, rng_int( &r, 0, 1 ) * scale * 100.0f );
		kcc_polygon* p = &s.polygon;
		int i = rng_int( &r, 0, count - 1 );
		vec2s n = p->normals[i];
		double factor = 1.0 + ldexp( rng_range( &r, -1.0, 1.0 ), -rng_int( &r, 4, 22 ) );
		if ( rng_int( &r, 0, 1 ) == 0 )
		{
			double sine = 1.0e-3 * factor, angle = asin( sine ) * ( rng_int( &r, 0, 1 ) == 0 ? 1.0 : -1.0 );
			p->normals[i] = kcc_v2( (float)( n.x * cos( angle ) - n.y * sin( angle ) ),
									(float)( n.x * sin( angle ) + n.y * cos( angle ) ) );
			check_same( &s, &rotated, "rotated normal" );
		}
		else
		{
			double length = sqrt( 1.0 + ( rng_int( &r, 0, 1 ) == 0 ? 1.0e-3 : -1.0e-3 ) * factor );
			p->normals[i] = kcc_v2( (float)( n.x * length ), (float)( n.y * length ) );
			check_same( &s, &scaled, "scaled normal" );
		}
	}
	printf( "rotated normals: %d valid, %d invalid; scaled: %d valid, %d invalid\n", rotated.valid, rotated.invalid,
			scaled.valid, scaled.invalid );
	assert_true( rotated.valid > 1000 && rotated.invalid > 1000 );
	assert_true( scaled.valid > 1000 && scaled.invalid > 1000 );

	// the unit check at its exact float boundary, both sides
	kcc_shape box = kcc_make_box( kcc_v2( 1.0f, 1.0f ), 0.0f );
	float x = 1.0f;
	while ( fabsf( ( x * x ) - 1.0f ) <= 1.0e-3f )
	{
		x = nextafterf( x, 2.0f );
	}
	kcc_shape s = box;
	s.polygon.normals[1] = kcc_v2( x, 0.0f ); // just outside
	assert_false( kcc_shape_is_valid( &s ) );
	s.polygon.normals[1] = kcc_v2( nextafterf( x, 0.0f ), 0.0f ); // just inside
	assert_true( kcc_shape_is_valid( &s ) );
}

// Tiny, huge and thin polygons, nearly straight corners.
static void test_extreme_polygons_match( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 7 };
	tally t = { 0, 0 };
	for ( int iteration = 0; iteration < 20000; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		vec2s points[KCC_MAX_POLYGON_VERTICES];
		int kind = rng_int( &r, 0, 3 );
		double scale = ldexp( 1.0, rng_int( &r, -140, 125 ) );
		for ( int i = 0; i < count; ++i )
		{
			double angle = 2.0 * PI_D * ( i + rng_range( &r, -0.4, 0.4 ) ) / count;
			double x = cos( angle ), y = sin( angle );
			if ( kind == 1 ) // thin: squashed by up to 1e-7
			{
				y *= ldexp( 1.0, -rng_int( &r, 5, 24 ) );
			}
			else if ( kind == 2 ) // nearly straight corners: a circle of huge radius, short arc
			{
				double arc = ldexp( 1.0, -rng_int( &r, 3, 12 ) );
				x = cos( arc * angle );
				y = sin( arc * angle );
			}
			points[i] = kcc_v2( (float)( scale * x ), (float)( scale * y ) );
		}
		if ( kind == 3 ) // offset far from the origin relative to the size
		{
			double offset = scale * ldexp( 1.0, rng_int( &r, 0, 22 ) );
			for ( int i = 0; i < count; ++i )
			{
				points[i] = kcc_v2( (float)( points[i].x + offset ), (float)( points[i].y - offset ) );
			}
		}
		kcc_shape s = kcc_make_polygon( points, count, 0.0f );
		reset_asserts();
		if ( s.type != KCC_SHAPE_POLYGON )
		{
			continue;
		}
		assert_true( check_same( &s, &t, "extreme hull" ) );
		// and with the normals of the exact edges (the make function's own), transformed by a random angle
		kcc_shape moved = kcc_shape_transform( &s, kcc_v2( 0.0f, 0.0f ), (float)rng_range( &r, -3.0, 3.0 ) );
		reset_asserts();
		if ( moved.type == KCC_SHAPE_POLYGON )
		{
			assert_true( check_same( &moved, &t, "extreme hull transformed" ) );
		}
	}
	assert_true( t.valid > 10000 );
	assert_int_equal( t.invalid, 0 );
}

// Random bit flips in the fields of valid polygons: any decision, but the same one.
static void test_bit_flips_match( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 8 };
	tally t = { 0, 0 };
	for ( int iteration = 0; iteration < 100000; ++iteration )
	{
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		kcc_shape s = random_hull( &r, count, rng_int( &r, 0, 2 ) == 0 ? pick_scale( &r ) : 1.0f, 0.0f );
		int flips = rng_int( &r, 1, 3 );
		for ( int k = 0; k < flips; ++k )
		{
			uint32_t words[sizeof( kcc_polygon ) / sizeof( uint32_t )];
			memcpy( words, &s.polygon, sizeof( words ) );
			// fields of used slots mostly; the count word too, now and then
			int slot = rng_int( &r, 0, count - 1 );
			int choice = rng_int( &r, 0, 9 );
			int word = choice < 4	? 2 * slot + ( choice & 1 )
					   : choice < 8 ? 16 + 2 * slot + ( choice & 1 )
									: rng_int( &r, 32, 35 );
			int bit = word == 35 ? rng_int( &r, 0, 4 ) : rng_int( &r, 0, 31 );
			words[word] ^= 1u << bit;
			memcpy( &s.polygon, words, sizeof( words ) );
		}
		check_same( &s, &t, "bit flips" );
	}
	printf( "bit flips: %d valid, %d invalid\n", t.valid, t.invalid );
	assert_true( t.valid > 5000 && t.invalid > 5000 );
}

// Edge lengths near float's underflow (2^-50) and overflow (2^64, where |e|^2 overflows in float), with normals
// rotated to just inside or just outside the tolerance there.
static void test_edge_lengths_at_the_limits( void** state )
{
	(void)state;
	test_setup_handler();
	test_rng r = { 9 };
	tally t = { 0, 0 };
	for ( int iteration = 0; iteration < 40000; ++iteration )
	{
		int exponent = rng_int( &r, 0, 1 ) == 0 ? rng_int( &r, -56, -44 ) : rng_int( &r, 58, 70 );
		double size = ldexp( rng_range( &r, 1.0, 2.0 ), exponent );
		int count = rng_int( &r, 3, KCC_MAX_POLYGON_VERTICES );
		kcc_shape s;
		if ( rng_int( &r, 0, 1 ) == 0 )
		{
			s = kcc_make_box( kcc_v2( (float)size, (float)( size * rng_range( &r, 0.5, 2.0 ) ) ), 0.0f );
		}
		else
		{
			s = random_hull( &r, count, (float)size, 0.0f );
		}
		if ( rng_int( &r, 0, 2 ) != 0 )
		{
			int i = rng_int( &r, 0, s.polygon.count - 1 );
			vec2s n = s.polygon.normals[i];
			double sine = 1.0e-3 * ( 1.0 + ldexp( rng_range( &r, -1.0, 1.0 ), -rng_int( &r, 2, 16 ) ) );
			double angle = asin( sine ) * ( rng_int( &r, 0, 1 ) == 0 ? 1.0 : -1.0 );
			s.polygon.normals[i] = kcc_v2( (float)( n.x * cos( angle ) - n.y * sin( angle ) ),
										   (float)( n.x * sin( angle ) + n.y * cos( angle ) ) );
		}
		check_same( &s, &t, "edge length at a limit" );
	}
	printf( "edge lengths at the limits: %d valid, %d invalid\n", t.valid, t.invalid );
	assert_true( t.valid > 10000 && t.invalid > 5000 );
}

// The reference abstained on few decisions (those within rounding of a tolerance).
static void test_reference_abstains_rarely( void** state )
{
	(void)state;
	printf( "the reference abstained on %d decisions\n", s_undecided );
	assert_true( s_undecided < 20000 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_known_cases ),
		cmocka_unit_test( test_random_hulls_are_valid ),
		cmocka_unit_test( test_transformed_hulls_are_valid ),
		cmocka_unit_test( test_perturbed_polygons_match ),
		cmocka_unit_test( test_multiple_windings_match ),
		cmocka_unit_test( test_special_values_in_every_field ),
		cmocka_unit_test( test_normals_at_the_tolerance ),
		cmocka_unit_test( test_extreme_polygons_match ),
		cmocka_unit_test( test_bit_flips_match ),
		cmocka_unit_test( test_edge_lengths_at_the_limits ),
		cmocka_unit_test( test_reference_abstains_rarely ),
	};
	return cmocka_run_group_tests_name( "geometry_validity", tests, NULL, NULL );
}
