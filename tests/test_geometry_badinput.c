// SPDX-License-Identifier: MIT
// Bad input to every public geometry function: NaN, Inf, negative radius, zero direction, 0/1/2 points, a
// 9-vertex hull, min > max, sector angles out of range, hand-corrupted kcc_shape structs. Make functions return
// invalid shapes; queries return no overlap / no hit / zero distance and never NaN; debug builds report an assert
// whose message names the function and the problem. Also: no heap allocation in any geometry query.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "kcc/geometry.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI_F 3.14159265358979323846f

static int s_assert_count = 0;
static char s_first_message[256];

static int record_assert( const char* message, const char* file, int line )
{
	(void)file;
	(void)line;
	if ( s_assert_count == 0 )
	{
		snprintf( s_first_message, sizeof( s_first_message ), "%s", message );
	}
	s_assert_count += 1;
	return 0; // continue: the function takes its safe release path
}

static int setup( void** state )
{
	(void)state;
	kcc_set_assert_fcn( record_assert );
	return 0;
}

static int teardown( void** state )
{
	(void)state;
	kcc_set_assert_fcn( NULL );
	return 0;
}

static void reset_asserts( void )
{
	s_assert_count = 0;
	s_first_message[0] = '\0';
}

// In debug builds the first assert since reset names the function and the problem.
static void check_assert_message( const char* function, const char* problem, const char* what )
{
#if defined( KCC_ENABLE_ASSERT )
	if ( s_assert_count == 0 )
	{
		fail_msg( "%s: no assert reported", what );
	}
	if ( strstr( s_first_message, function ) == NULL || ( problem != NULL && strstr( s_first_message, problem ) == NULL ) )
	{
		fail_msg( "%s: assert message \"%s\" does not name \"%s\" / \"%s\"", what, s_first_message, function,
				  problem != NULL ? problem : "" );
	}
#else
	(void)function;
	(void)problem;
	(void)what;
#endif
	reset_asserts();
}

static void check_no_assert( const char* what )
{
	if ( s_assert_count != 0 )
	{
		fail_msg( "%s: unexpected assert \"%s\"", what, s_first_message );
	}
}

static bool finite2( vec2s v )
{
	return isfinite( v.x ) && isfinite( v.y );
}

static bool unit_or_zero( vec2s n )
{
	float ll = n.x * n.x + n.y * n.y;
	return ll == 0.0f || fabsf( ll - 1.0f ) <= 1e-3f;
}

#define EXPECT_INVALID( call, function, problem )                                                                 \
	do                                                                                                             \
	{                                                                                                              \
		reset_asserts();                                                                                           \
		kcc_shape bad_ = ( call );                                                                                 \
		if ( bad_.type != KCC_SHAPE_INVALID || kcc_shape_is_valid( &bad_ ) )                                       \
		{                                                                                                          \
			fail_msg( "%s gave a valid shape (type %d)", #call, (int)bad_.type );                                  \
		}                                                                                                          \
		check_assert_message( function, problem, #call );                                                          \
	}                                                                                                              \
	while ( 0 )

// ---------------------------------------------------------------------------------------------------------------

static void test_make_functions_reject_bad_input( void** state )
{
	(void)state;
	const float nan = NAN, inf = INFINITY;
	vec2s o = kcc_v2( 0.0f, 0.0f ), one = kcc_v2( 1.0f, 1.0f );

	EXPECT_INVALID( kcc_make_circle( kcc_v2( nan, 0.0f ), 1.0f ), "kcc_make_circle", "not finite" );
	EXPECT_INVALID( kcc_make_circle( kcc_v2( 0.0f, inf ), 1.0f ), "kcc_make_circle", "not finite" );
	EXPECT_INVALID( kcc_make_circle( o, nan ), "kcc_make_circle", "not finite" );
	EXPECT_INVALID( kcc_make_circle( o, inf ), "kcc_make_circle", "not finite" );
	EXPECT_INVALID( kcc_make_circle( o, -1.0f ), "kcc_make_circle", "negative" );
	EXPECT_INVALID( kcc_make_circle( o, -FLT_MIN ), "kcc_make_circle", "negative" );

	EXPECT_INVALID( kcc_make_capsule( kcc_v2( nan, 0.0f ), one, 0.5f ), "kcc_make_capsule", "not finite" );
	EXPECT_INVALID( kcc_make_capsule( o, kcc_v2( -inf, 0.0f ), 0.5f ), "kcc_make_capsule", "not finite" );
	EXPECT_INVALID( kcc_make_capsule( o, one, -0.5f ), "kcc_make_capsule", "negative" );
	EXPECT_INVALID( kcc_make_capsule( o, one, nan ), "kcc_make_capsule", "not finite" );

	EXPECT_INVALID( kcc_make_aabb( kcc_v2( nan, 0.0f ), one ), "kcc_make_aabb", "not finite" );
	EXPECT_INVALID( kcc_make_aabb( o, kcc_v2( inf, 1.0f ) ), "kcc_make_aabb", "not finite" );
	EXPECT_INVALID( kcc_make_aabb( kcc_v2( 2.0f, 0.0f ), one ), "kcc_make_aabb", "min is greater than max" );
	EXPECT_INVALID( kcc_make_aabb( kcc_v2( 0.0f, 2.0f ), one ), "kcc_make_aabb", "min is greater than max" );

	EXPECT_INVALID( kcc_make_rect( nan, 0.0f, 1.0f, 1.0f ), "kcc_make_rect", "not finite" );
	EXPECT_INVALID( kcc_make_rect( 0.0f, 0.0f, -1.0f, 1.0f ), "kcc_make_rect", "negative" );
	EXPECT_INVALID( kcc_make_rect( 0.0f, 0.0f, 1.0f, -1.0f ), "kcc_make_rect", "negative" );
	EXPECT_INVALID( kcc_make_rect( 0.0f, 0.0f, 1.0f, inf ), "kcc_make_rect", "not finite" );

	EXPECT_INVALID( kcc_make_obb( kcc_v2( nan, 0.0f ), one, 0.0f ), "kcc_make_obb", "not finite" );
	EXPECT_INVALID( kcc_make_obb( o, kcc_v2( -1.0f, 1.0f ), 0.0f ), "kcc_make_obb", "negative" );
	EXPECT_INVALID( kcc_make_obb( o, one, inf ), "kcc_make_obb", "not finite" );
	EXPECT_INVALID( kcc_make_obb( o, one, nan ), "kcc_make_obb", "not finite" );

	EXPECT_INVALID( kcc_make_box( kcc_v2( nan, 1.0f ), 0.1f ), "kcc_make_box", "not finite" );
	EXPECT_INVALID( kcc_make_box( kcc_v2( -1.0f, 1.0f ), 0.1f ), "kcc_make_box", NULL );
	EXPECT_INVALID( kcc_make_box( one, -0.1f ), "kcc_make_box", "negative" );
	EXPECT_INVALID( kcc_make_box( one, inf ), "kcc_make_box", "not finite" );

	// polygons: NULL, 0, 1, 2 points, collinear, duplicates, NaN / Inf, too many hull vertices, bad radius
	vec2s square[4] = { { { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 1.0f, 1.0f } }, { { 0.0f, 1.0f } } };
	EXPECT_INVALID( kcc_make_polygon( NULL, 4, 0.0f ), "kcc_make_polygon", "NULL" );
	EXPECT_INVALID( kcc_make_polygon( square, 0, 0.0f ), "kcc_make_polygon", "fewer than 3" );
	EXPECT_INVALID( kcc_make_polygon( square, 1, 0.5f ), "kcc_make_polygon", "fewer than 3" );
	EXPECT_INVALID( kcc_make_polygon( square, 2, 0.5f ), "kcc_make_polygon", "fewer than 3" );
	EXPECT_INVALID( kcc_make_polygon( square, -3, 0.0f ), "kcc_make_polygon", NULL );
	vec2s collinear[5] = { { { 0.0f, 0.0f } }, { { 1.0f, 1.0f } }, { { 2.0f, 2.0f } }, { { 3.0f, 3.0f } }, { { 0.5f, 0.5f } } };
	EXPECT_INVALID( kcc_make_polygon( collinear, 5, 0.0f ), "kcc_make_polygon", "fewer than 3" );
	vec2s same[4] = { { { 2.0f, 3.0f } }, { { 2.0f, 3.0f } }, { { 2.0f, 3.0f } }, { { 2.0f, 3.0f } } };
	EXPECT_INVALID( kcc_make_polygon( same, 4, 1.0f ), "kcc_make_polygon", "fewer than 3" );
	vec2s with_nan[4] = { { { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { nan, 1.0f } }, { { 0.0f, 1.0f } } };
	EXPECT_INVALID( kcc_make_polygon( with_nan, 4, 0.0f ), "kcc_make_polygon", "not finite" );
	vec2s with_inf[4] = { { { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 1.0f, inf } }, { { 0.0f, 1.0f } } };
	EXPECT_INVALID( kcc_make_polygon( with_inf, 4, 0.0f ), "kcc_make_polygon", "not finite" );
	vec2s nonagon[100];
	for ( int i = 0; i < 100; ++i )
	{
		float a = 2.0f * PI_F * (float)i / ( i < 9 ? 9.0f : 100.0f );
		nonagon[i] = kcc_v2( cosf( a ), sinf( a ) );
	}
	EXPECT_INVALID( kcc_make_polygon( nonagon, 9, 0.0f ), "kcc_make_polygon", "more than" );
	EXPECT_INVALID( kcc_make_polygon( nonagon + 9, 91, 0.0f ), "kcc_make_polygon", "more than" );
	EXPECT_INVALID( kcc_make_polygon( square, 4, -0.1f ), "kcc_make_polygon", "negative" );
	EXPECT_INVALID( kcc_make_polygon( square, 4, nan ), "kcc_make_polygon", "not finite" );

	// sectors: zero / NaN direction, bad radius, angle 0, negative, beyond 2*pi, NaN, Inf
	EXPECT_INVALID( kcc_make_sector( kcc_v2( nan, 0.0f ), one, 1.0f, 1.0f ), "kcc_make_sector", "not finite" );
	EXPECT_INVALID( kcc_make_sector( o, o, 1.0f, 1.0f ), "kcc_make_sector", "direction is zero" );
	EXPECT_INVALID( kcc_make_sector( o, kcc_v2( nan, 1.0f ), 1.0f, 1.0f ), "kcc_make_sector", "not finite" );
	EXPECT_INVALID( kcc_make_sector( o, one, 0.0f, 1.0f ), "kcc_make_sector", "radius" );
	EXPECT_INVALID( kcc_make_sector( o, one, -1.0f, 1.0f ), "kcc_make_sector", "radius" );
	EXPECT_INVALID( kcc_make_sector( o, one, inf, 1.0f ), "kcc_make_sector", "not finite" );
	EXPECT_INVALID( kcc_make_sector( o, one, 1.0f, 0.0f ), "kcc_make_sector", "angle" );
	EXPECT_INVALID( kcc_make_sector( o, one, 1.0f, -0.5f ), "kcc_make_sector", "angle" );
	EXPECT_INVALID( kcc_make_sector( o, one, 1.0f, 7.0f ), "kcc_make_sector", "angle" );
	EXPECT_INVALID( kcc_make_sector( o, one, 1.0f, 2.0f * PI_F + 1e-3f ), "kcc_make_sector", "angle" );
	EXPECT_INVALID( kcc_make_sector( o, one, 1.0f, nan ), "kcc_make_sector", "not finite" );
	EXPECT_INVALID( kcc_make_sector( o, one, 1.0f, inf ), "kcc_make_sector", "not finite" );

	// the limits themselves are fine: (float)2*pi, a zero radius circle, a segment capsule, a flat AABB
	reset_asserts();
	kcc_shape full = kcc_make_sector( o, one, 1.0f, 2.0f * PI_F );
	kcc_shape dot = kcc_make_circle( o, 0.0f );
	kcc_shape segment = kcc_make_capsule( o, one, 0.0f );
	kcc_shape flat = kcc_make_aabb( o, kcc_v2( 1.0f, 0.0f ) );
	kcc_shape tiny = kcc_make_sector( o, kcc_v2( 1e-6f, 1e-6f ), 1.0f, 1e-6f );
	assert_true( kcc_shape_is_valid( &full ) );
	assert_true( kcc_shape_is_valid( &dot ) );
	assert_true( kcc_shape_is_valid( &segment ) );
	assert_true( kcc_shape_is_valid( &flat ) );
	assert_true( kcc_shape_is_valid( &tiny ) );
	check_no_assert( "limits" );
}

// ---------------------------------------------------------------------------------------------------------------
// Invalid shapes (made and hand-corrupted) in every query

#define VALID_COUNT 8

static void make_valid_shapes( kcc_shape* out )
{
	vec2s hexagon[6] = { { { -1.0f, 0.0f } }, { { -0.5f, -1.0f } }, { { 0.5f, -1.0f } },
						 { { 1.0f, 0.0f } },  { { 0.5f, 1.0f } },   { { -0.5f, 1.0f } } };
	out[0] = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	out[1] = kcc_make_capsule( kcc_v2( -1.0f, 0.0f ), kcc_v2( 1.0f, 0.5f ), 0.5f );
	out[2] = kcc_make_aabb( kcc_v2( -1.0f, -1.0f ), kcc_v2( 1.0f, 1.0f ) );
	out[3] = kcc_make_obb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.5f ), 0.5f );
	out[4] = kcc_make_polygon( hexagon, 6, 0.0f );
	out[5] = kcc_make_polygon( hexagon, 6, 0.25f );
	out[6] = kcc_make_box( kcc_v2( 1.0f, 0.5f ), 0.1f );
	out[7] = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 2.0f, 4.0f );
	for ( int i = 0; i < VALID_COUNT; ++i )
	{
		assert_true( kcc_shape_is_valid( &out[i] ) );
	}
}

static void check_distance_zero( kcc_distance_output d, const char* what )
{
	if ( d.distance != 0.0f || d.point_a.x != 0.0f || d.point_a.y != 0.0f || d.point_b.x != 0.0f ||
		 d.point_b.y != 0.0f || d.normal.x != 0.0f || d.normal.y != 0.0f )
	{
		fail_msg( "%s: distance output not all zero (%g, (%g %g), (%g %g), (%g %g))", what, (double)d.distance,
				  (double)d.point_a.x, (double)d.point_a.y, (double)d.point_b.x, (double)d.point_b.y,
				  (double)d.normal.x, (double)d.normal.y );
	}
}

static void check_miss( kcc_cast_output c, const char* what )
{
	if ( c.hit || c.fraction != 1.0f || finite2( c.point ) == false || finite2( c.normal ) == false )
	{
		fail_msg( "%s: expected a miss with fraction 1 and finite fields, got hit %d fraction %g point (%g %g) "
				  "normal (%g %g)",
				  what, c.hit, (double)c.fraction, (double)c.point.x, (double)c.point.y, (double)c.normal.x,
				  (double)c.normal.y );
	}
}

static void check_no_penetration( kcc_penetration_output p, const char* what )
{
	if ( p.overlapping || p.depth != 0.0f || p.normal.x != 0.0f || p.normal.y != 0.0f )
	{
		fail_msg( "%s: expected no penetration, got overlapping %d depth %g normal (%g %g)", what, p.overlapping,
				  (double)p.depth, (double)p.normal.x, (double)p.normal.y );
	}
}

// Every query with the invalid shape `bad` (in each argument position) against every valid kind.
#define CHECK( condition )                                                                                        \
	do                                                                                                             \
	{                                                                                                              \
		if ( !( condition ) )                                                                                      \
		{                                                                                                          \
			fail_msg( "%s: failed %s", label, #condition );                                                        \
		}                                                                                                          \
	}                                                                                                              \
	while ( 0 )

static void check_invalid_everywhere( const kcc_shape* bad, const char* label )
{
	kcc_shape valid[VALID_COUNT];
	make_valid_shapes( valid );
	char what[160];
	reset_asserts();
	CHECK( !( kcc_shape_is_valid( bad ) ) );
	check_no_assert( label ); // the validator itself does not assert

	snprintf( what, sizeof( what ), "%s: kcc_overlap self", label );
	CHECK( !( kcc_overlap( bad, bad ) ) );
	check_assert_message( "kcc_overlap", "invalid", what );

	snprintf( what, sizeof( what ), "%s: kcc_contains_point", label );
	CHECK( !( kcc_contains_point( bad, kcc_v2( 0.0f, 0.0f ) ) ) );
	check_assert_message( "kcc_contains_point", "invalid", what );

	snprintf( what, sizeof( what ), "%s: kcc_shape_bounds", label );
	kcc_aabb box = kcc_shape_bounds( bad );
	CHECK( !( isnan( box.min.x ) || isnan( box.min.y ) || isnan( box.max.x ) || isnan( box.max.y ) ) );
	CHECK( box.min.x > box.max.x || box.min.y > box.max.y ); // empty
	check_assert_message( "kcc_shape_bounds", "invalid", what );

	snprintf( what, sizeof( what ), "%s: kcc_ray_cast", label );
	check_miss( kcc_ray_cast( bad, kcc_v2( -5.0f, 0.0f ), kcc_v2( 10.0f, 0.0f ) ), what );
	check_assert_message( "kcc_ray_cast", "invalid", what );

	snprintf( what, sizeof( what ), "%s: kcc_shape_transform", label );
	kcc_shape moved = kcc_shape_transform( bad, kcc_v2( 1.0f, 2.0f ), 0.5f );
	CHECK( !( kcc_shape_is_valid( &moved ) ) );
	check_assert_message( "kcc_shape_transform", "invalid", what );
	snprintf( what, sizeof( what ), "%s: kcc_shape_translate", label );
	moved = kcc_shape_translate( bad, kcc_v2( 1.0f, 2.0f ) );
	CHECK( !( kcc_shape_is_valid( &moved ) ) );
	check_assert_message( "kcc_shape_translate", "invalid", what );

	(void)kcc_shape_is_convex( bad ); // any answer, no crash
	reset_asserts();

	snprintf( what, sizeof( what ), "%s: kcc_make_volume", label );
	kcc_volume volume = kcc_make_volume( bad, 0.0f, 1.0f );
	CHECK( ( volume.shape.type ) == ( KCC_SHAPE_INVALID ) );
	check_assert_message( "kcc_make_volume", "invalid", what );

	int indices[4] = { -1, -1, -1, -1 };
	vec2s centers[4] = { { { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 0.0f, 1.0f } }, { { 5.0f, 5.0f } } };
	float radii[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
	snprintf( what, sizeof( what ), "%s: kcc_batch_overlap_circles", label );
	CHECK( ( kcc_batch_overlap_circles( bad, centers, radii, 4, indices ) ) == ( 0 ) );
	check_assert_message( "kcc_batch_overlap_circles", "invalid", what );

	for ( int i = 0; i < VALID_COUNT; ++i )
	{
		const kcc_shape* v = &valid[i];
		snprintf( what, sizeof( what ), "%s vs valid kind %d: kcc_overlap", label, (int)v->type );
		CHECK( !( kcc_overlap( bad, v ) ) );
		check_assert_message( "kcc_overlap", "invalid", what );
		CHECK( !( kcc_overlap( v, bad ) ) );
		check_assert_message( "kcc_overlap", "invalid", what );

		snprintf( what, sizeof( what ), "%s vs valid kind %d: kcc_distance", label, (int)v->type );
		check_distance_zero( kcc_distance( bad, v ), what );
		check_assert_message( "kcc_distance", "invalid", what );
		check_distance_zero( kcc_distance( v, bad ), what );
		check_assert_message( "kcc_distance", "invalid", what );

		snprintf( what, sizeof( what ), "%s vs valid kind %d: kcc_shape_cast", label, (int)v->type );
		check_miss( kcc_shape_cast( bad, kcc_v2( 3.0f, 0.0f ), v ), what );
		check_assert_message( "kcc_shape_cast", "invalid", what );
		check_miss( kcc_shape_cast( v, kcc_v2( 3.0f, 0.0f ), bad ), what );
		check_assert_message( "kcc_shape_cast", "invalid", what );
		check_miss( kcc_shape_cast_separation( bad, kcc_v2( 3.0f, 0.0f ), v, 0.01f ), what );
		check_assert_message( "kcc_shape_cast", "invalid", what );

		snprintf( what, sizeof( what ), "%s vs valid kind %d: kcc_penetration", label, (int)v->type );
		check_no_penetration( kcc_penetration( bad, v ), what );
		check_assert_message( "kcc_penetration", "invalid", what );
		check_no_penetration( kcc_penetration( v, bad ), what );
		check_assert_message( "kcc_penetration", "invalid", what );
	}
}

static void test_made_invalid_shapes_in_every_query( void** state )
{
	(void)state;
	reset_asserts();
	kcc_shape bad[4] = { kcc_make_circle( kcc_v2( NAN, 0.0f ), 1.0f ), kcc_make_capsule( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), -1.0f ),
						 kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 0.0f ), 1.0f, 1.0f ),
						 kcc_make_polygon( NULL, 0, 0.0f ) };
	reset_asserts();
	for ( int i = 0; i < 4; ++i )
	{
		char label[64];
		snprintf( label, sizeof( label ), "made invalid #%d", i );
		check_invalid_everywhere( &bad[i], label );
	}
	// a zero-initialised struct is the invalid kind
	kcc_shape zero;
	memset( &zero, 0, sizeof( zero ) );
	check_invalid_everywhere( &zero, "zeroed struct" );
}

static void test_corrupted_structs_in_every_query( void** state )
{
	(void)state;
	kcc_shape valid[VALID_COUNT];
	make_valid_shapes( valid );
	kcc_shape c;
	const float nan = NAN, inf = INFINITY;

#define CORRUPT( base, statement, label )                                                                         \
	do                                                                                                             \
	{                                                                                                              \
		c = valid[base];                                                                                           \
		statement;                                                                                                 \
		check_invalid_everywhere( &c, label );                                                                     \
	}                                                                                                              \
	while ( 0 )

	CORRUPT( 0, c.type = (kcc_shape_type)99, "type 99" );
	CORRUPT( 0, c.type = (kcc_shape_type)-1, "type -1" );
	CORRUPT( 4, c.type = KCC_SHAPE_TYPE_COUNT, "type count" );
	CORRUPT( 0, c.circle.radius = nan, "circle radius NaN" );
	CORRUPT( 0, c.circle.radius = -1.0f, "circle radius negative" );
	CORRUPT( 0, c.circle.center.y = inf, "circle centre Inf" );
	CORRUPT( 1, c.capsule.a.x = nan, "capsule end NaN" );
	CORRUPT( 1, c.capsule.radius = -inf, "capsule radius -Inf" );
	CORRUPT( 2, c.aabb.min.x = 5.0f, "aabb min > max" );
	CORRUPT( 2, c.aabb.max.y = nan, "aabb max NaN" );
	CORRUPT( 3, c.obb.rotation = kcc_v2( nan, 0.0f ), "obb rotation NaN" );
	CORRUPT( 3, c.obb.rotation = kcc_v2( 2.0f, 0.0f ), "obb rotation not unit" );
	CORRUPT( 3, c.obb.half_extents.x = -1.0f, "obb negative extent" );
	CORRUPT( 3, c.obb.center.x = inf, "obb centre Inf" );
	CORRUPT( 3, c.obb.angle = nan, "obb angle NaN" );
	CORRUPT( 4, c.polygon.count = 0, "polygon count 0" );
	CORRUPT( 4, c.polygon.count = 2, "polygon count 2" );
	CORRUPT( 4, c.polygon.count = -3, "polygon count -3" );
	CORRUPT( 4, c.polygon.count = KCC_MAX_POLYGON_VERTICES + 1, "polygon count 9" );
	CORRUPT( 4, c.polygon.count = 1000000, "polygon count 1e6" );
	CORRUPT( 4, c.polygon.vertices[2].y = nan, "polygon vertex NaN" );
	CORRUPT( 5, c.polygon.radius = -0.5f, "polygon radius negative" );
	CORRUPT( 5, c.polygon.normals[1] = kcc_v2( nan, nan ), "polygon normal NaN" );
	// finite, unit normals, but vertex 1 pulled inside: not convex (kcc_shape_is_valid rejects it)
	CORRUPT( 4, c.polygon.vertices[1] = kcc_v2( 0.0f, 0.0f ), "polygon not convex" );
	CORRUPT( 7, c.sector.angle = nan, "sector angle NaN" );
	CORRUPT( 7, c.sector.angle = 7.0f, "sector angle 7" );
	CORRUPT( 7, c.sector.angle = 0.0f, "sector angle 0" );
	CORRUPT( 7, c.sector.angle = -1.0f, "sector angle -1" );
	CORRUPT( 7, c.sector.direction = kcc_v2( 0.0f, 0.0f ), "sector direction zero" );
	CORRUPT( 7, c.sector.direction = kcc_v2( 3.0f, 4.0f ), "sector direction not unit" );
	CORRUPT( 7, c.sector.radius = 0.0f, "sector radius 0" );
	CORRUPT( 7, c.sector.radius = inf, "sector radius Inf" );
	CORRUPT( 7, c.sector.half_angle = kcc_v2( nan, 0.0f ), "sector half angle NaN" );
#undef CORRUPT

	// structurally wrong but finite polygons (clockwise vertices): no crash and no NaN, whatever the answer
	c = valid[4];
	for ( int i = 0; i < c.polygon.count / 2; ++i )
	{
		vec2s t = c.polygon.vertices[i];
		c.polygon.vertices[i] = c.polygon.vertices[c.polygon.count - 1 - i];
		c.polygon.vertices[c.polygon.count - 1 - i] = t;
	}
	for ( int i = 0; i < VALID_COUNT; ++i )
	{
		(void)kcc_overlap( &c, &valid[i] );
		kcc_distance_output d = kcc_distance( &c, &valid[i] );
		assert_true( isfinite( d.distance ) && d.distance >= 0.0f && finite2( d.normal ) );
		kcc_cast_output r = kcc_shape_cast( &valid[i], kcc_v2( 4.0f, 1.0f ), &c );
		assert_true( r.fraction >= 0.0f && r.fraction <= 1.0f && finite2( r.normal ) && finite2( r.point ) );
		kcc_penetration_output p = kcc_penetration( &c, &valid[i] );
		assert_true( isfinite( p.depth ) && p.depth >= 0.0f && finite2( p.normal ) );
	}
	reset_asserts();
}

// Bad non-shape arguments to queries on valid shapes: NaN / Inf points, translations, separations, heights.
static void test_queries_reject_bad_arguments( void** state )
{
	(void)state;
	kcc_shape valid[VALID_COUNT];
	make_valid_shapes( valid );
	const float nan = NAN, inf = INFINITY;
	const vec2s bad_vectors[4] = { { { nan, 0.0f } }, { { 0.0f, inf } }, { { -inf, -inf } }, { { nan, nan } } };
	reset_asserts();
	for ( int i = 0; i < VALID_COUNT; ++i )
	{
		const kcc_shape* s = &valid[i];
		for ( int k = 0; k < 4; ++k )
		{
			assert_false( kcc_contains_point( s, bad_vectors[k] ) );
			check_assert_message( "kcc_contains_point", "not finite", "contains NaN point" );

			check_miss( kcc_ray_cast( s, bad_vectors[k], kcc_v2( 1.0f, 0.0f ) ), "ray origin" );
			check_assert_message( "kcc_ray_cast", "origin", "ray origin" );
			check_miss( kcc_ray_cast( s, kcc_v2( -5.0f, 0.0f ), bad_vectors[k] ), "ray translation" );
			check_assert_message( "kcc_ray_cast", "translation", "ray translation" );

			check_miss( kcc_shape_cast( s, bad_vectors[k], &valid[( i + 1 ) % VALID_COUNT] ), "shape cast translation" );
			check_assert_message( "kcc_shape_cast", "translation", "shape cast translation" );

			kcc_shape moved = kcc_shape_transform( s, bad_vectors[k], 0.3f );
			assert_false( kcc_shape_is_valid( &moved ) );
			check_assert_message( "kcc_shape_transform", "not finite", "transform translation" );
			moved = kcc_shape_translate( s, bad_vectors[k] );
			assert_false( kcc_shape_is_valid( &moved ) );
			check_assert_message( "kcc_shape_translate", "not finite", "translate" );

			kcc_circle circle = { bad_vectors[k], 1.0f };
			assert_false( kcc_circle_overlaps_polygon( circle, &valid[4].polygon ) );
			assert_false( kcc_circle_overlaps_circle( circle, valid[0].circle ) );
			assert_false( kcc_circle_overlaps_capsule( circle, valid[1].capsule ) );
			assert_false( kcc_circle_overlaps_aabb( circle, valid[2].aabb ) );
			assert_false( kcc_circle_overlaps_obb( circle, valid[3].obb ) );
			assert_false( kcc_circle_overlaps_sector( circle, &valid[7].sector ) );
			assert_false( kcc_sector_contains_point( &valid[7].sector, bad_vectors[k] ) );
			reset_asserts(); // the typed tests do not validate (documented)
		}
		kcc_shape moved = kcc_shape_transform( s, kcc_v2( 0.0f, 0.0f ), nan );
		assert_false( kcc_shape_is_valid( &moved ) );
		check_assert_message( "kcc_shape_transform", "not finite", "transform angle" );
		check_miss( kcc_shape_cast_separation( s, kcc_v2( 3.0f, 0.0f ), &valid[0], -0.1f ), "negative separation" );
		check_assert_message( "kcc_shape_cast", "separation", "negative separation" );
		check_miss( kcc_shape_cast_separation( s, kcc_v2( 3.0f, 0.0f ), &valid[0], nan ), "NaN separation" );
		check_assert_message( "kcc_shape_cast", "separation", "NaN separation" );
		// a NaN radius circle in the typed tests is never a hit
		kcc_circle nan_radius = { kcc_v2( 0.0f, 0.0f ), nan };
		assert_false( kcc_circle_overlaps_circle( nan_radius, valid[0].circle ) );
		assert_false( kcc_circle_overlaps_aabb( nan_radius, valid[2].aabb ) );
		assert_false( kcc_circle_overlaps_polygon( nan_radius, &valid[4].polygon ) );
		reset_asserts();
	}
	assert_false( kcc_rect_overlaps_rect( nan, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f ) );
	assert_false( kcc_rect_overlaps_rect( 0.0f, 0.0f, 1.0f, nan, 0.0f, 0.0f, 1.0f, 1.0f ) );

	// batch queries: NULL arrays, negative count, NaN circles never hit
	int indices[4] = { -1, -1, -1, -1 };
	vec2s centers[4] = { { { 0.0f, 0.0f } }, { { nan, 0.0f } }, { { 0.5f, 0.0f } }, { { inf, 0.0f } } };
	float radii[4] = { 1.0f, 1.0f, nan, 1.0f };
	assert_int_equal( kcc_batch_overlap_circles( &valid[0], centers, radii, 4, indices ), 1 );
	assert_int_equal( indices[0], 0 );
	reset_asserts();
	assert_int_equal( kcc_batch_overlap_circles( &valid[0], NULL, radii, 4, indices ), 0 );
	check_assert_message( "kcc_batch_overlap_circles", "NULL", "batch NULL centers" );
	assert_int_equal( kcc_batch_overlap_circles( &valid[0], centers, radii, 4, NULL ), 0 );
	check_assert_message( "kcc_batch_overlap_circles", "NULL", "batch NULL output" );
	assert_int_equal( kcc_batch_overlap_circles( NULL, centers, radii, 4, indices ), 0 );
	check_assert_message( "kcc_batch_overlap_circles", "NULL", "batch NULL shape" );
	assert_int_equal( kcc_batch_overlap_circles( &valid[0], centers, radii, -5, indices ), 0 );
	reset_asserts();

	// NULL shape pointers
	assert_false( kcc_overlap( NULL, &valid[0] ) );
	check_assert_message( "kcc_overlap", "NULL", "overlap NULL" );
	assert_false( kcc_shape_is_valid( NULL ) );

	// volumes
	kcc_volume v = kcc_make_volume( &valid[0], nan, 1.0f );
	assert_int_equal( v.shape.type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_make_volume", "not finite", "volume NaN height" );
	v = kcc_make_volume( &valid[0], 2.0f, 1.0f );
	assert_int_equal( v.shape.type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_make_volume", "z_min is greater than z_max", "volume inverted" );
	kcc_volume ok = kcc_make_volume( &valid[0], 0.0f, 1.0f );
	assert_true( kcc_shape_is_valid( &ok.shape ) );
	assert_false( kcc_volume_overlap( &v, &ok ) );
	check_assert_message( "kcc_volume_overlap", "invalid", "volume overlap invalid" );
	assert_false( kcc_volume_contains_point( &v, ( vec3s ){ { 0.0f, 0.0f, 0.5f } } ) );
	check_assert_message( "kcc_volume_contains_point", "invalid", "volume contains invalid" );
	assert_false( kcc_volume_contains_point( &ok, ( vec3s ){ { nan, 0.0f, 0.5f } } ) );
	reset_asserts();
	kcc_volume attack = kcc_make_attack_volume( kcc_v2( 0.0f, 0.0f ), 0.0f, nan, 1.0f, 2.0f, 1.0f, 0.0f );
	assert_int_equal( attack.shape.type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_make_attack_volume", "not finite", "attack NaN facing" );
	attack = kcc_make_attack_volume( kcc_v2( 0.0f, 0.0f ), 0.0f, 0.0f, -1.0f, 2.0f, 1.0f, 0.0f );
	assert_int_equal( attack.shape.type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_make_attack_volume", "negative", "attack negative width" );
	assert_false( kcc_point_in_oriented_box( ( vec3s ){ { 0.0f, 0.0f, 0.0f } }, ( vec3s ){ { 1.0f, 1.0f, 1.0f } }, nan,
											 ( vec3s ){ { 0.0f, 0.0f, 0.0f } } ) );
	check_assert_message( "kcc_point_in_oriented_box", "yaw", "oriented box NaN yaw" );
	assert_false( kcc_point_in_oriented_box( ( vec3s ){ { 0.0f, 0.0f, 0.0f } }, ( vec3s ){ { -1.0f, 1.0f, 1.0f } }, 0.0f,
											 ( vec3s ){ { 0.0f, 0.0f, 0.0f } } ) );
	check_assert_message( "kcc_point_in_oriented_box", "negative", "oriented box negative extent" );
	assert_false( kcc_point_in_oriented_box( ( vec3s ){ { 0.0f, 0.0f, 0.0f } }, ( vec3s ){ { 1.0f, 1.0f, 1.0f } }, 0.0f,
											 ( vec3s ){ { nan, 0.0f, 0.0f } } ) );
	reset_asserts();
}

// NULL for every pointer a public geometry function takes: the safe answer (false, an invalid or empty result, a
// miss), never a crash (kcc_circle_overlaps_polygon( c, NULL ) crashed); debug builds assert naming the function
// (a NULL shape is an invalid one), except the typed tests, which do not validate.
static void test_null_pointers_in_every_function( void** state )
{
	(void)state;
	kcc_shape valid[VALID_COUNT];
	make_valid_shapes( valid );
	const kcc_shape* s = &valid[4];
	vec2s p = kcc_v2( 0.0f, 0.0f ), d = kcc_v2( 1.0f, 0.0f );
	reset_asserts();

	assert_false( kcc_shape_is_valid( NULL ) );
	assert_false( kcc_shape_is_convex( NULL ) );
	check_no_assert( "the predicates with NULL" );
	assert_int_equal( kcc_shape_transform( NULL, p, 0.5f ).type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_shape_transform", NULL, "transform NULL" );
	assert_int_equal( kcc_shape_translate( NULL, p ).type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_shape_translate", NULL, "translate NULL" );
	kcc_aabb bounds = kcc_shape_bounds( NULL );
	assert_true( bounds.min.x > bounds.max.x && bounds.min.y > bounds.max.y );
	check_assert_message( "kcc_shape_bounds", NULL, "bounds NULL" );

	const kcc_shape* pairs[3][2] = { { NULL, s }, { s, NULL }, { NULL, NULL } };
	for ( int k = 0; k < 3; ++k )
	{
		const kcc_shape *a = pairs[k][0], *b = pairs[k][1];
		assert_false( kcc_overlap( a, b ) );
		check_assert_message( "kcc_overlap", NULL, "overlap NULL" );
		kcc_distance_output distance = kcc_distance( a, b );
		assert_true( distance.distance == 0.0f && distance.normal.x == 0.0f && distance.normal.y == 0.0f );
		check_assert_message( "kcc_distance", NULL, "distance NULL" );
		check_miss( kcc_shape_cast( a, d, b ), "shape cast NULL" );
		check_assert_message( "kcc_shape_cast", NULL, "shape cast NULL" );
		check_miss( kcc_shape_cast_separation( a, d, b, 0.1f ), "shape cast separation NULL" );
		check_assert_message( "kcc_shape_cast", NULL, "shape cast separation NULL" );
		kcc_penetration_output penetration = kcc_penetration( a, b );
		assert_true( penetration.overlapping == false && penetration.depth == 0.0f );
		check_assert_message( "kcc_penetration", NULL, "penetration NULL" );
	}
	assert_false( kcc_contains_point( NULL, p ) );
	check_assert_message( "kcc_contains_point", NULL, "contains NULL" );
	check_miss( kcc_ray_cast( NULL, kcc_v2( -5.0f, 0.0f ), kcc_v2( 10.0f, 0.0f ) ), "ray cast NULL" );
	check_assert_message( "kcc_ray_cast", NULL, "ray cast NULL" );

	// The typed tests: false.
	kcc_circle circle = { p, 1.0f };
	assert_false( kcc_circle_overlaps_polygon( circle, NULL ) );
	assert_false( kcc_circle_overlaps_sector( circle, NULL ) );
	assert_false( kcc_sector_contains_point( NULL, p ) );
	check_no_assert( "typed tests with NULL" );

	// Volumes and the batch.
	kcc_volume volume = kcc_make_volume( NULL, 0.0f, 1.0f );
	assert_int_equal( volume.shape.type, KCC_SHAPE_INVALID );
	check_assert_message( "kcc_make_volume", NULL, "make volume NULL" );
	kcc_volume ok = kcc_make_volume( s, 0.0f, 1.0f );
	assert_false( kcc_volume_overlap( NULL, &ok ) );
	check_assert_message( "kcc_volume_overlap", NULL, "volume overlap NULL" );
	assert_false( kcc_volume_overlap( &ok, NULL ) );
	check_assert_message( "kcc_volume_overlap", NULL, "volume overlap NULL b" );
	assert_false( kcc_volume_contains_point( NULL, ( vec3s ){ { 0.0f, 0.0f, 0.5f } } ) );
	check_assert_message( "kcc_volume_contains_point", NULL, "volume contains NULL" );
	vec2s centers[2] = { { { 0.0f, 0.0f } }, { { 0.5f, 0.0f } } };
	int indices[2] = { -1, -1 };
	assert_int_equal( kcc_batch_overlap_circles( s, centers, NULL, 2, indices ), 0 );
	check_assert_message( "kcc_batch_overlap_circles", NULL, "batch NULL radii" );
	reset_asserts();
}

// Huge, tiny and denormal but finite inputs: valid shapes, answers without NaN.
static void test_extreme_finite_values_give_no_nan( void** state )
{
	(void)state;
	const float values[] = { 1e30f, -1e30f, 1e-30f, 1e-40f /* denormal */, FLT_MAX, -FLT_MAX, 0.0f, -0.0f };
	const int count = (int)( sizeof( values ) / sizeof( values[0] ) );
	kcc_shape valid[VALID_COUNT];
	make_valid_shapes( valid );
	reset_asserts();
	for ( int i = 0; i < count; ++i )
	{
		for ( int j = 0; j < count; ++j )
		{
			vec2s p = kcc_v2( values[i], values[j] );
			float r = fabsf( values[j] );
			kcc_shape shapes[4] = { kcc_make_circle( p, r ), kcc_make_capsule( p, kcc_v2( values[j], values[i] ), r ),
									kcc_make_sector( p, kcc_v2( values[j], 1.0f ), r > 0.0f ? r : 1.0f, 3.0f ),
									kcc_make_obb( p, kcc_v2( r, r ), values[i] ) };
			for ( int k = 0; k < 4; ++k )
			{
				for ( int v = 0; v < VALID_COUNT; ++v )
				{
					bool ab = kcc_overlap( &shapes[k], &valid[v] );
					bool ba = kcc_overlap( &valid[v], &shapes[k] );
					(void)ab;
					(void)ba;
					kcc_distance_output d = kcc_distance( &shapes[k], &valid[v] );
					assert_false( isnan( d.distance ) || isnan( d.normal.x ) || isnan( d.normal.y ) );
					assert_false( isnan( d.point_a.x ) || isnan( d.point_b.y ) );
					assert_true( d.distance >= 0.0f );
					assert_true( unit_or_zero( d.normal ) );
					kcc_cast_output c = kcc_shape_cast( &valid[v], kcc_v2( values[i], values[j] ), &shapes[k] );
					if ( !( c.fraction >= 0.0f && c.fraction <= 1.0f ) || isnan( c.point.x ) || isnan( c.point.y ) ||
						 isnan( c.normal.x ) || isnan( c.normal.y ) )
					{
						fail_msg( "kcc_shape_cast( valid kind %d, (%g, %g), extreme shape %d (type %d) at (%g, %g) r %g ): "
								  "hit %d fraction %g point (%g %g) normal (%g %g)",
								  (int)valid[v].type, (double)values[i], (double)values[j], k, (int)shapes[k].type,
								  (double)p.x, (double)p.y, (double)r, c.hit, (double)c.fraction, (double)c.point.x,
								  (double)c.point.y, (double)c.normal.x, (double)c.normal.y );
					}
					assert_true( unit_or_zero( c.normal ) );
					kcc_cast_output ray = kcc_ray_cast( &shapes[k], kcc_v2( 0.0f, 0.0f ), kcc_v2( values[i], values[j] ) );
					assert_true( ray.fraction >= 0.0f && ray.fraction <= 1.0f );
					assert_false( isnan( ray.point.x ) || isnan( ray.point.y ) || isnan( ray.normal.x ) );
					assert_true( unit_or_zero( ray.normal ) );
					kcc_penetration_output pen = kcc_penetration( &shapes[k], &valid[v] );
					assert_false( isnan( pen.depth ) || isnan( pen.normal.x ) || isnan( pen.normal.y ) );
					assert_true( pen.depth >= 0.0f && unit_or_zero( pen.normal ) );
					// overlapping convex shapes have a unit normal (a sector wider than pi reports none)
					bool convex = kcc_shape_is_convex( &shapes[k] ) && kcc_shape_is_convex( &valid[v] );
					if ( pen.overlapping && convex && pen.normal.x * pen.normal.x + pen.normal.y * pen.normal.y < 0.5f )
					{
						fail_msg( "kcc_penetration( extreme shape %d (type %d) at (%g, %g) size %g, valid kind %d ): "
								  "overlapping without a normal, depth %g",
								  k, (int)shapes[k].type, (double)p.x, (double)p.y, (double)r, (int)valid[v].type,
								  (double)pen.depth );
					}
					kcc_aabb box = kcc_shape_bounds( &shapes[k] );
					assert_false( isnan( box.min.x ) || isnan( box.max.y ) );
				}
			}
		}
	}
	reset_asserts(); // make functions may reject non-representable results (e.g. an Inf bound); never NaN out

	// ordinary sizes, centres a denormal apart: the penetration normal must still be unit
	const float tiny[] = { 1e-22f, -1e-30f, 1e-40f, 1e-44f };
	for ( int i = 0; i < 4; ++i )
	{
		kcc_shape a = kcc_make_circle( kcc_v2( tiny[i], 0.0f ), 1.0f );
		kcc_shape b = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.0f );
		kcc_penetration_output pen = kcc_penetration( &a, &b );
		if ( pen.overlapping == false || unit_or_zero( pen.normal ) == false || pen.normal.x * pen.normal.x + pen.normal.y * pen.normal.y == 0.0f )
		{
			fail_msg( "penetration of circles %g apart: overlapping %d depth %g normal (%g %g)", (double)tiny[i],
					  pen.overlapping, (double)pen.depth, (double)pen.normal.x, (double)pen.normal.y );
		}
		kcc_distance_output d = kcc_distance( &a, &b );
		assert_true( d.distance == 0.0f && unit_or_zero( d.normal ) );
	}
	reset_asserts();
}

// Degenerate but valid shapes (FLT_MIN-sized boxes, zero radii, points, flat boxes, hair-thin sectors) in every
// query, including the Minkowski-difference paths. Regression for H3-10: a FLT_MIN-sized OBB turned by FLT_MIN,
// shape-cast with a zero translation against a 1 x 1/32 box, wrote past the 16-vertex Minkowski arrays.
static void test_degenerate_valid_shapes_in_every_query( void** state )
{
	(void)state;
	vec2s tiny_triangle[3] = { { { 0.0f, 0.0f } }, { { 1e-20f, 0.0f } }, { { 0.0f, 1e-20f } } };
	kcc_shape degenerate[] = {
		kcc_make_obb( kcc_v2( 1.6796875f, -5.375f ), kcc_v2( FLT_MIN, FLT_MIN ), FLT_MIN ),
		kcc_make_obb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1e-30f, 1e-30f ), 1e-7f ),
		kcc_make_obb( kcc_v2( 0.25f, 0.0f ), kcc_v2( 0.0f, 0.0f ), 0.3f ),
		kcc_make_obb( kcc_v2( 0.0f, 0.5f ), kcc_v2( 1.0f, 0.0f ), 1e-38f ),
		kcc_make_aabb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ) ),
		kcc_make_aabb( kcc_v2( 0.5f, 0.5f ), kcc_v2( 0.5f, 0.5f ) ),
		kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 0.0f ),
		kcc_make_capsule( kcc_v2( 0.1f, 0.1f ), kcc_v2( 0.1f, 0.1f ), 0.0f ),
		kcc_make_capsule( kcc_v2( 0.0f, 0.0f ), kcc_v2( FLT_MIN, 0.0f ), FLT_MIN ),
		kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), 1.0f, 1e-6f ),
		kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 1.0f ), 1e-30f, 3.0f ),
		kcc_make_polygon( tiny_triangle, 3, 0.0f ),
	};
	const int count = (int)( sizeof( degenerate ) / sizeof( degenerate[0] ) );
	kcc_shape valid[VALID_COUNT + 1];
	make_valid_shapes( valid );
	valid[VALID_COUNT] = kcc_make_box( kcc_v2( 0.5f, 1.0f / 64.0f ), 0.0f );
	const vec2s translations[] = { { { 0.0f, 0.0f } }, { { 3.0f, 0.5f } }, { { -2.0f, -2.0f } }, { { 1e-30f, 0.0f } } };
	reset_asserts();
	for ( int i = 0; i < count; ++i )
	{
		// a make function may refuse a degenerate shape; what it accepts must work everywhere
		if ( kcc_shape_is_valid( &degenerate[i] ) == false )
		{
			continue;
		}
		for ( int v = 0; v <= VALID_COUNT; ++v )
		{
			const kcc_shape* pair[2] = { &degenerate[i], &valid[v] };
			for ( int order = 0; order < 2; ++order )
			{
				const kcc_shape* a = pair[order];
				const kcc_shape* b = pair[1 - order];
				bool ab = kcc_overlap( a, b );
				(void)ab;
				kcc_distance_output d = kcc_distance( a, b );
				kcc_penetration_output pen = kcc_penetration( a, b );
				bool ok = isfinite( d.distance ) && d.distance >= 0.0f && finite2( d.point_a ) && finite2( d.point_b ) &&
						  unit_or_zero( d.normal ) && isfinite( pen.depth ) && pen.depth >= 0.0f && unit_or_zero( pen.normal );
				for ( int t = 0; t < 4; ++t )
				{
					kcc_cast_output c = kcc_shape_cast( a, translations[t], b );
					kcc_cast_output s = kcc_shape_cast_separation( a, translations[t], b, 0.01f );
					kcc_cast_output r = kcc_ray_cast( a, kcc_v2( -1.0f, -1.0f ), translations[t] );
					ok = ok && c.fraction >= 0.0f && c.fraction <= 1.0f && finite2( c.point ) && unit_or_zero( c.normal );
					ok = ok && s.fraction >= 0.0f && s.fraction <= 1.0f && finite2( s.point ) && unit_or_zero( s.normal );
					ok = ok && r.fraction >= 0.0f && r.fraction <= 1.0f && finite2( r.point ) && unit_or_zero( r.normal );
				}
				if ( ok == false )
				{
					fail_msg( "degenerate shape #%d (type %d) with valid kind %d, order %d: a NaN, a fraction outside "
							  "[0, 1] or a non-unit normal",
							  i, (int)degenerate[i].type, (int)valid[v].type, order );
				}
			}
		}
	}
	reset_asserts();
}

// ---------------------------------------------------------------------------------------------------------------

// A mixed batch of every geometry query on every kind: zero heap allocations.
static void test_no_heap_allocation_in_any_query( void** state )
{
	(void)state;
	kcc_shape valid[VALID_COUNT];
	make_valid_shapes( valid );
	vec2s centers[64];
	float radii[64];
	int indices[64];
	for ( int i = 0; i < 64; ++i )
	{
		centers[i] = kcc_v2( (float)( i % 8 ) - 4.0f, (float)( i / 8 ) - 4.0f );
		radii[i] = 0.1f + 0.01f * (float)i;
	}
	kcc_volume va = kcc_make_volume( &valid[1], 0.0f, 2.0f );
	kcc_volume vb = kcc_make_volume( &valid[7], 1.0f, 3.0f );
	kcc_volume attack = kcc_make_attack_volume( kcc_v2( 0.0f, 0.0f ), 1.0f, 0.3f, 1.0f, 2.0f, 1.5f, 0.5f );
	uint64_t before = kcc_test_allocation_count();
	int sink = 0;
	float fsink = 0.0f;
	for ( int round = 0; round < 3; ++round )
	{
		for ( int i = 0; i < VALID_COUNT; ++i )
		{
			kcc_shape a = kcc_shape_transform( &valid[i], kcc_v2( 0.3f * (float)round, -0.2f ), 0.4f * (float)round );
			sink += kcc_contains_point( &a, kcc_v2( 0.1f, 0.2f ) );
			kcc_aabb box = kcc_shape_bounds( &a );
			fsink += box.max.x;
			kcc_cast_output ray = kcc_ray_cast( &a, kcc_v2( -5.0f, 0.1f ), kcc_v2( 10.0f, 0.2f ) );
			fsink += ray.fraction;
			sink += kcc_batch_overlap_circles( &a, centers, radii, 64, indices );
			sink += kcc_shape_is_convex( &a );
			for ( int j = 0; j < VALID_COUNT; ++j )
			{
				kcc_shape b = kcc_shape_translate( &valid[j], kcc_v2( 1.5f, 0.5f * (float)round ) );
				sink += kcc_overlap( &a, &b );
				kcc_distance_output d = kcc_distance( &a, &b );
				kcc_cast_output c = kcc_shape_cast( &a, kcc_v2( 3.0f, 1.0f ), &b );
				kcc_cast_output s = kcc_shape_cast_separation( &a, kcc_v2( -3.0f, 1.0f ), &b, 0.01f );
				kcc_penetration_output p = kcc_penetration( &a, &b );
				fsink += d.distance + c.fraction + s.fraction + p.depth;
			}
		}
		sink += kcc_volume_overlap( &va, &vb ) + kcc_volume_overlap( &attack, &va );
		sink += kcc_volume_contains_point( &vb, ( vec3s ){ { 0.5f, 0.0f, 2.0f } } );
		sink += kcc_point_in_oriented_box( ( vec3s ){ { 0.0f, 0.0f, 1.0f } }, ( vec3s ){ { 1.0f, 0.5f, 1.0f } }, 0.3f,
										   ( vec3s ){ { 0.2f, 0.1f, 1.5f } } );
		sink += kcc_circle_overlaps_polygon( valid[0].circle, &valid[5].polygon );
		vec2s points[5] = { { { 0.0f, 0.0f } }, { { 1.0f, 0.0f } }, { { 1.0f, 1.0f } }, { { 0.0f, 1.0f } }, { { 0.5f, 2.0f } } };
		kcc_shape poly = kcc_make_polygon( points, 5, 0.1f );
		kcc_shape sector = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 2.0f ), 1.0f, 5.0f );
		sink += kcc_overlap( &poly, &sector );
	}
	uint64_t after = kcc_test_allocation_count();
	assert_true( sink > 0 );
	assert_true( isfinite( fsink ) );
	assert_int_equal( after - before, 0 );
	check_no_assert( "allocation batch" );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_make_functions_reject_bad_input ),
		cmocka_unit_test( test_made_invalid_shapes_in_every_query ),
		cmocka_unit_test( test_corrupted_structs_in_every_query ),
		cmocka_unit_test( test_queries_reject_bad_arguments ),
		cmocka_unit_test( test_null_pointers_in_every_function ),
		cmocka_unit_test( test_extreme_finite_values_give_no_nan ),
		cmocka_unit_test( test_no_heap_allocation_in_any_query ),
		// last: a memory error found here (H3-10) aborts the executable under the sanitizers
		cmocka_unit_test( test_degenerate_valid_shapes_in_every_query ),
	};
	return cmocka_run_group_tests_name( "geometry_badinput", tests, setup, teardown );
}
