// SPDX-License-Identifier: MIT
// Debug drawing of shapes (geometry/debug_draw.c):
// - kcc_shape_outline gives, for every kind (sectors up to 2*pi included), points on the shape's boundary,
//   counter-clockwise, enclosing the shape's area and spanning its bounds to within the arc's sagitta, with no two
//   arc points farther apart than the asked angle; it coarsens its arcs to fit a small buffer and refuses what
//   cannot fit, bad shapes and bad arguments without writing anything;
// - kcc_debug_draw_shape uses the renderer's circle, capsule and arc callbacks when it has them, fills through
//   draw_solid_polygon with points a triangle fan from the first covers (sectors wider than pi too), falls back to
//   segments for everything else, and ignores bad input;
// - none of it allocates.
#include "kcc/debug_draw.h"

#include "alloc_count.h"
#include "debug_draw_recorder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#define PI_F 3.14159265358979323846f
#define DEGREE ( PI_F / 180.0f )
#define MAX_POINTS 8192

typedef struct named_shape
{
	const char* name;
	kcc_shape shape;
	double area;    ///< exact area of the shape
	float rounding; ///< radius of its arcs (0 when it has none): bounds the outline's sagitta
} named_shape;

static double polygon_area( const vec2s* points, int count )
{
	double twice = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		vec2s a = points[i], b = points[( i + 1 ) % count];
		twice += (double)a.x * (double)b.y - (double)b.x * (double)a.y;
	}
	return 0.5 * twice;
}

static double polygon_perimeter( const vec2s* points, int count )
{
	double length = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		length += glms_vec2_distance( points[i], points[( i + 1 ) % count] );
	}
	return length;
}

// Every kind, with its exact area. Sectors from a sliver to the full disc, three of them wider than pi.
static int make_shapes( named_shape* out )
{
	int n = 0;
	const double pi = 3.14159265358979323846;
	out[n++] = ( named_shape ){ "circle", kcc_make_circle( kcc_v2( 1.0f, 2.0f ), 0.5f ), pi * 0.25, 0.5f };
	kcc_shape capsule = kcc_make_capsule( kcc_v2( -1.0f, -1.0f ), kcc_v2( 2.0f, 1.0f ), 0.3f );
	double capsule_length = sqrt( 13.0 );
	out[n++] = ( named_shape ){ "capsule", capsule, 2.0 * 0.3 * capsule_length + pi * 0.09, 0.3f };
	out[n++] = ( named_shape ){ "point capsule", kcc_make_capsule( kcc_v2( 1.0f, 1.0f ), kcc_v2( 1.0f, 1.0f ), 0.4f ),
								pi * 0.16, 0.4f };
	out[n++] = ( named_shape ){ "aabb", kcc_make_aabb( kcc_v2( -1.0f, -2.0f ), kcc_v2( 3.0f, 0.5f ) ), 10.0, 0.0f };
	out[n++] = ( named_shape ){ "obb", kcc_make_obb( kcc_v2( 1.0f, 1.0f ), kcc_v2( 2.0f, 0.5f ), 0.6f ), 4.0, 0.0f };
	vec2s hexagon[6];
	for ( int i = 0; i < 6; ++i )
	{
		float a = (float)i * 60.0f * DEGREE;
		hexagon[i] = kcc_v2( 3.0f + 1.5f * cosf( a ), -1.0f + 1.5f * sinf( a ) );
	}
	kcc_shape hex = kcc_make_polygon( hexagon, 6, 0.0f );
	out[n++] = ( named_shape ){ "hexagon", hex, polygon_area( hex.polygon.vertices, 6 ), 0.0f };
	kcc_shape box = kcc_make_box( kcc_v2( 0.3f, 0.45f ), 0.1f );
	out[n++] = ( named_shape ){ "rounded box", box, 0.6 * 0.9 + 2.0 * ( 0.6 + 0.9 ) * 0.1 + pi * 0.01, 0.1f };
	vec2s triangle[3] = { kcc_v2( 0.0f, 0.0f ), kcc_v2( 2.0f, 0.5f ), kcc_v2( 0.5f, 1.5f ) };
	kcc_shape rounded = kcc_make_polygon( triangle, 3, 0.2f );
	double core_area = polygon_area( rounded.polygon.vertices, 3 );
	double perimeter = polygon_perimeter( rounded.polygon.vertices, 3 );
	out[n++] = ( named_shape ){ "rounded triangle", rounded, core_area + perimeter * 0.2 + pi * 0.04, 0.2f };
	const float angles[] = { 0.3f, 0.5f * PI_F, PI_F, 4.0f, 5.5f, 2.0f * PI_F };
	static char names[6][32];
	for ( int i = 0; i < 6; ++i )
	{
		snprintf( names[i], sizeof( names[i] ), "sector %.2f rad", (double)angles[i] );
		kcc_shape fan = kcc_make_sector( kcc_v2( 0.5f, -0.5f ), kcc_v2( 1.0f, 1.0f ), 2.0f, angles[i] );
		out[n++] = ( named_shape ){ names[i], fan, 0.5 * (double)angles[i] * 4.0, 2.0f };
	}
	return n;
}

static float point_distance_to_shape( const kcc_shape* s, vec2s p )
{
	kcc_shape point = kcc_make_circle( p, 0.0f );
	return kcc_distance( &point, s ).distance;
}

// On the boundary: at most tolerance away from the shape, and some point within 1e-3 of it is outside.
static bool on_boundary( const kcc_shape* s, vec2s p, float tolerance )
{
	if ( point_distance_to_shape( s, p ) > tolerance )
	{
		return false;
	}
	for ( int k = 0; k < 16; ++k )
	{
		float a = (float)k * PI_F / 8.0f;
		if ( kcc_contains_point( s, kcc_v2( p.x + 1.0e-3f * cosf( a ), p.y + 1.0e-3f * sinf( a ) ) ) == false )
		{
			return true;
		}
	}
	return false;
}

static void test_outlines_of_every_kind_are_on_the_boundary_counter_clockwise( void** state )
{
	(void)state;
	named_shape shapes[32];
	int shape_count = make_shapes( shapes );
	static vec2s points[MAX_POINTS];
	const float step = 1.0f * DEGREE;
	for ( int i = 0; i < shape_count; ++i )
	{
		const named_shape* t = shapes + i;
		assert_true( kcc_shape_is_valid( &t->shape ) );
		int count = kcc_shape_outline( &t->shape, step, points, MAX_POINTS );
		assert_int_equal( count, kcc_shape_outline_count( &t->shape, step ) );
		assert_true( count >= 3 );

		// Extent: inside the shape's bounds, and reaching them to within the sagitta of one arc step.
		kcc_aabb bounds = kcc_shape_bounds( &t->shape );
		kcc_aabb box = { points[0], points[0] };
		for ( int k = 0; k < count; ++k )
		{
			box.min = glms_vec2_minv( box.min, points[k] );
			box.max = glms_vec2_maxv( box.max, points[k] );
			if ( on_boundary( &t->shape, points[k], 2.0e-5f ) == false )
			{
				print_error( "%s: point %d (%.7g, %.7g) is not on the boundary\n", t->name, k, (double)points[k].x,
							 (double)points[k].y );
				fail();
			}
		}
		float sagitta = t->rounding * ( 1.0f - cosf( 0.5f * step ) ) + 2.0e-5f;
		assert_true( box.min.x >= bounds.min.x - 2.0e-5f && box.min.y >= bounds.min.y - 2.0e-5f );
		assert_true( box.max.x <= bounds.max.x + 2.0e-5f && box.max.y <= bounds.max.y + 2.0e-5f );
		if ( box.min.x - bounds.min.x > sagitta || box.min.y - bounds.min.y > sagitta ||
			 bounds.max.x - box.max.x > sagitta || bounds.max.y - box.max.y > sagitta )
		{
			print_error( "%s: outline spans (%g %g)..(%g %g), bounds (%g %g)..(%g %g)\n", t->name, (double)box.min.x,
						 (double)box.min.y, (double)box.max.x, (double)box.max.y, (double)bounds.min.x,
						 (double)bounds.min.y, (double)bounds.max.x, (double)bounds.max.y );
			fail();
		}

		// Winding and area: counter-clockwise (positive), enclosing the shape's area less the arcs' segments.
		double area = polygon_area( points, count );
		if ( !( area > 0.0 ) || fabs( area - t->area ) > 2.0e-4 * t->area )
		{
			print_error( "%s: outline area %.7g, shape area %.7g\n", t->name, area, t->area );
			fail();
		}
	}
}

// A triangle fan from the first point covers the shape exactly once: every triangle counter-clockwise (or flat),
// which holds for the sectors wider than pi because their outline starts at the apex.
static void test_outlines_fan_from_their_first_point( void** state )
{
	(void)state;
	named_shape shapes[32];
	int shape_count = make_shapes( shapes );
	static vec2s points[MAX_POINTS];
	for ( int i = 0; i < shape_count; ++i )
	{
		int count = kcc_shape_outline( &shapes[i].shape, 2.0f * DEGREE, points, MAX_POINTS );
		double fan_area = 0.0;
		for ( int k = 1; k + 1 < count; ++k )
		{
			vec2s a = glms_vec2_sub( points[k], points[0] ), b = glms_vec2_sub( points[k + 1], points[0] );
			double cross = (double)a.x * (double)b.y - (double)a.y * (double)b.x;
			if ( cross < -1.0e-6 )
			{
				print_error( "%s: fan triangle %d is clockwise (%g)\n", shapes[i].name, k, cross );
				fail();
			}
			fan_area += 0.5 * cross;
		}
		assert_true( fabs( fan_area - polygon_area( points, count ) ) <= 1.0e-6 * ( 1.0 + fan_area ) + 1.0e-5 );
	}
}

// The arc resolution: no two consecutive points of a circle farther apart than the asked angle, and the point count
// follows it (a 1 degree circle has 360 points, as seed 001 draws its fan).
static void test_outline_arc_resolution( void** state )
{
	(void)state;
	static vec2s points[MAX_POINTS];
	kcc_shape circle = kcc_make_circle( kcc_v2( -2.0f, 3.0f ), 1.5f );
	const float steps[] = { 1.0f * DEGREE, 5.0f * DEGREE, 0.3f, 1.0f };
	for ( size_t i = 0; i < sizeof( steps ) / sizeof( steps[0] ); ++i )
	{
		int count = kcc_shape_outline( &circle, steps[i], points, MAX_POINTS );
		assert_int_equal( count, (int)ceilf( 2.0f * PI_F / steps[i] ) );
		for ( int k = 0; k < count; ++k )
		{
			vec2s a = glms_vec2_sub( points[k], circle.circle.center );
			vec2s b = glms_vec2_sub( points[( k + 1 ) % count], circle.circle.center );
			float angle = atan2f( a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y );
			assert_true( angle > 0.0f && angle <= steps[i] * 1.0001f );
		}
	}
	kcc_shape fan = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 1.0f ), 3.0f, 90.0f * DEGREE );
	assert_int_equal( kcc_shape_outline( &fan, 1.0f * DEGREE, points, MAX_POINTS ), 1 + 91 ); // apex + 91 arc points
	// Below a milliradian the step is a milliradian.
	assert_int_equal( kcc_shape_outline_count( &circle, 1.0e-9f ), (int)ceilf( 2.0f * PI_F / 1.0e-3f ) );
	// Corners without rounding are the corners, whatever the step.
	kcc_shape box = kcc_make_aabb( kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 2.0f ) );
	assert_int_equal( kcc_shape_outline( &box, 1.0f * DEGREE, points, MAX_POINTS ), 4 );
	assert_int_equal( kcc_shape_outline( &box, 2.0f, points, MAX_POINTS ), 4 );
}

// A small buffer gets a coarser outline (still closed, counter-clockwise, on the boundary); one too small for the
// coarsest gets nothing, and nothing is written.
static void test_outline_coarsens_to_fit_and_refuses_what_cannot( void** state )
{
	(void)state;
	named_shape shapes[32];
	int shape_count = make_shapes( shapes );
	vec2s points[64];
	for ( int i = 0; i < shape_count; ++i )
	{
		const named_shape* t = shapes + i;
		int fine = kcc_shape_outline_count( &t->shape, 1.0f * DEGREE );
		int coarsest = kcc_shape_outline_count( &t->shape, 0.5f * PI_F );
		for ( int capacity = 1; capacity <= 64; ++capacity )
		{
			for ( int k = 0; k < 64; ++k )
			{
				points[k] = kcc_v2( 1234.0f, 1234.0f );
			}
			int count = kcc_shape_outline( &t->shape, 1.0f * DEGREE, points, capacity );
			if ( capacity < coarsest )
			{
				assert_int_equal( count, 0 );
				assert_true( points[0].x == 1234.0f );
				continue;
			}
			assert_true( count >= coarsest && count <= capacity && count <= fine );
			assert_true( capacity == 64 || points[capacity].x == 1234.0f ); // never past capacity
			assert_true( count < 3 || polygon_area( points, count ) > 0.0 );
			for ( int k = 0; k < count; ++k )
			{
				assert_true( on_boundary( &t->shape, points[k], 2.0e-5f ) );
			}
		}
	}
}

static void test_outline_bad_input_writes_nothing( void** state )
{
	(void)state;
	vec2s points[16];
	for ( int k = 0; k < 16; ++k )
	{
		points[k] = kcc_v2( 7.0f, 7.0f );
	}
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_shape invalid = { .type = KCC_SHAPE_INVALID };
	kcc_shape nan_circle = circle;
	nan_circle.circle.radius = NAN;
	kcc_shape bad_type = circle;
	bad_type.type = (kcc_shape_type)99;
	assert_int_equal( kcc_shape_outline( NULL, 0.1f, points, 16 ), 0 );
	assert_int_equal( kcc_shape_outline( &invalid, 0.1f, points, 16 ), 0 );
	assert_int_equal( kcc_shape_outline( &nan_circle, 0.1f, points, 16 ), 0 );
	assert_int_equal( kcc_shape_outline( &bad_type, 0.1f, points, 16 ), 0 );
	assert_int_equal( kcc_shape_outline( &circle, 0.1f, NULL, 16 ), 0 );
	assert_int_equal( kcc_shape_outline( &circle, 0.1f, points, 0 ), 0 );
	assert_int_equal( kcc_shape_outline( &circle, 0.1f, points, -5 ), 0 );
	const float bad_steps[] = { 0.0f, -1.0f, NAN, INFINITY, -INFINITY };
	for ( size_t i = 0; i < sizeof( bad_steps ) / sizeof( bad_steps[0] ); ++i )
	{
		assert_int_equal( kcc_shape_outline( &circle, bad_steps[i], points, 16 ), 0 );
		assert_int_equal( kcc_shape_outline_count( &circle, bad_steps[i] ), 0 );
	}
	assert_int_equal( kcc_shape_outline_count( NULL, 0.1f ), 0 );
	assert_int_equal( kcc_shape_outline_count( &invalid, 0.1f ), 0 );
	for ( int k = 0; k < 16; ++k )
	{
		assert_true( points[k].x == 7.0f && points[k].y == 7.0f );
	}
	// Zero radii are a point and a segment.
	kcc_shape dot = kcc_make_circle( kcc_v2( 1.0f, 2.0f ), 0.0f );
	assert_int_equal( kcc_shape_outline( &dot, 0.1f, points, 16 ), 1 );
	assert_true( points[0].x == 1.0f && points[0].y == 2.0f );
	kcc_shape segment = kcc_make_capsule( kcc_v2( 0.0f, 0.0f ), kcc_v2( 3.0f, 0.0f ), 0.0f );
	assert_int_equal( kcc_shape_outline( &segment, 0.1f, points, 16 ), 2 );
	assert_true( points[1].x == 3.0f && points[1].y == 0.0f );
}

// The renderer's own circle, capsule and arc callbacks are used when given; the fill gets the outline.
static void test_draw_shape_uses_the_renderers_primitives( void** state )
{
	(void)state;
	static recorder r;
	kcc_debug_draw draw = recorder_draw( &r );
	kcc_color line = KCC_COLOR( 10, 20, 30, 255 ), fill = KCC_COLOR( 40, 50, 60, 128 );

	kcc_shape circle = kcc_make_circle( kcc_v2( 1.0f, 2.0f ), 0.5f );
	kcc_debug_draw_shape( &draw, &circle, line, fill );
	assert_int_equal( r.counts[REC_CIRCLE], 1 );
	assert_true( r.items[1].kind == REC_CIRCLE && r.items[1].radius == 0.5f );
	assert_true( r.items[1].a.x == 1.0f && r.items[1].a.y == 2.0f );
	assert_true( colors_equal( r.items[1].color, line ) );
	assert_int_equal( r.counts[REC_SOLID_POLYGON], 1 );
	assert_true( colors_equal( r.items[0].color, fill ) );
	assert_int_equal( r.items[0].point_count, kcc_shape_outline_count( &circle, draw.arc_step ) );

	draw = recorder_draw( &r );
	kcc_shape capsule = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
	kcc_debug_draw_shape( &draw, &capsule, line, KCC_COLOR_NONE );
	assert_int_equal( r.item_count, 1 );
	assert_true( r.items[0].kind == REC_CAPSULE && r.items[0].radius == 0.3f && r.items[0].b.y == 0.3f );

	draw = recorder_draw( &r );
	kcc_shape fan = kcc_make_sector( kcc_v2( 0.0f, 0.0f ), kcc_v2( 0.0f, 1.0f ), 2.0f, 300.0f * DEGREE );
	kcc_debug_draw_shape( &draw, &fan, line, fill );
	assert_int_equal( r.counts[REC_ARC], 1 );
	assert_int_equal( r.counts[REC_SEGMENT], 2 );
	const recorder_item* arc = NULL;
	for ( int i = 0; i < r.item_count; ++i )
	{
		arc = r.items[i].kind == REC_ARC ? r.items + i : arc;
	}
	assert_non_null( arc );
	assert_float_equal( arc->radius, 2.0f, 0.0f );
	assert_float_equal( arc->sweep, 300.0f * DEGREE, 1.0e-6f );
	assert_float_equal( arc->start, 0.5f * PI_F - 150.0f * DEGREE, 1.0e-6f );
	// The two edges run from the apex to the arc's ends.
	for ( int i = 0; i < r.item_count; ++i )
	{
		if ( r.items[i].kind == REC_SEGMENT )
		{
			vec2s apex_end = glms_vec2_norm( r.items[i].a ) < 1.0e-6f ? r.items[i].b : r.items[i].a;
			assert_float_equal( glms_vec2_norm( apex_end ), 2.0f, 1.0e-5f );
		}
	}

	// Polygons: the outline through draw_polygon.
	draw = recorder_draw( &r );
	kcc_shape box = kcc_make_box( kcc_v2( 0.5f, 0.5f ), 0.1f );
	kcc_debug_draw_shape( &draw, &box, line, KCC_COLOR_NONE );
	assert_int_equal( r.item_count, 1 );
	assert_int_equal( r.items[0].kind, REC_POLYGON );
	assert_int_equal( r.items[0].point_count, kcc_shape_outline_count( &box, draw.arc_step ) );
}

// With draw_segment only, every shape is drawn as its closed outline: one segment per edge, each starting where the
// last ended, within the shape's bounds.
static void test_draw_shape_falls_back_to_segments( void** state )
{
	(void)state;
	named_shape shapes[32];
	int shape_count = make_shapes( shapes );
	static recorder r;
	for ( int i = 0; i < shape_count; ++i )
	{
		kcc_debug_draw draw = recorder_draw( &r );
		draw.draw_polygon = NULL;
		draw.draw_solid_polygon = NULL;
		draw.draw_circle = NULL;
		draw.draw_capsule = NULL;
		draw.draw_arc = NULL;
		kcc_debug_draw_shape( &draw, &shapes[i].shape, draw.shape_color, KCC_COLOR( 1, 2, 3, 255 ) );
		int expected = kcc_shape_outline_count( &shapes[i].shape, draw.arc_step );
		assert_int_equal( r.item_count, expected );
		kcc_aabb bounds = kcc_shape_bounds( &shapes[i].shape );
		for ( int k = 0; k < r.item_count; ++k )
		{
			const recorder_item* s = r.items + k;
			const recorder_item* next = r.items + ( k + 1 ) % r.item_count;
			assert_int_equal( s->kind, REC_SEGMENT );
			assert_true( s->b.x == next->a.x && s->b.y == next->a.y );
			assert_true( s->a.x >= bounds.min.x - 1.0e-5f && s->a.x <= bounds.max.x + 1.0e-5f );
			assert_true( s->a.y >= bounds.min.y - 1.0e-5f && s->a.y <= bounds.max.y + 1.0e-5f );
		}
	}
	// A point is a small cross, an arrow a shaft and two barbs.
	kcc_debug_draw draw = recorder_draw( &r );
	draw.draw_point = NULL;
	kcc_debug_draw_point( &draw, kcc_v2( 1.0f, 1.0f ), draw.hit_color );
	assert_int_equal( r.counts[REC_SEGMENT], 2 );
	draw = recorder_draw( &r );
	kcc_debug_draw_arrow( &draw, kcc_v2( 0.0f, 0.0f ), kcc_v2( 2.0f, 0.0f ), draw.motion_color );
	assert_int_equal( r.counts[REC_SEGMENT], 3 );
	for ( int k = 1; k < 3; ++k )
	{
		assert_true( r.items[k].a.x == 2.0f );
		assert_true( r.items[k].b.x < 2.0f ); // barbs point back
		assert_float_equal( glms_vec2_distance( r.items[k].a, r.items[k].b ), 0.2f * draw.arrow_length, 1.0e-6f );
	}
}

static void test_draw_bad_input_is_ignored( void** state )
{
	(void)state;
	static recorder r;
	kcc_debug_draw draw = recorder_draw( &r );
	kcc_shape circle = kcc_make_circle( kcc_v2( 0.0f, 0.0f ), 1.0f );
	kcc_shape invalid = { .type = KCC_SHAPE_INVALID };
	kcc_debug_draw_shape( NULL, &circle, draw.shape_color, draw.shape_color );
	kcc_debug_draw_shape( &draw, NULL, draw.shape_color, draw.shape_color );
	kcc_debug_draw_shape( &draw, &invalid, draw.shape_color, draw.shape_color );
	kcc_debug_draw_arrow( NULL, kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), draw.shape_color );
	kcc_debug_draw_arrow( &draw, kcc_v2( NAN, 0.0f ), kcc_v2( 1.0f, 0.0f ), draw.shape_color );
	kcc_debug_draw_point( NULL, kcc_v2( 0.0f, 0.0f ), draw.shape_color );
	kcc_debug_draw_point( &draw, kcc_v2( INFINITY, 0.0f ), draw.shape_color );
	assert_int_equal( r.item_count, 0 );
	// A zero-length arrow is its (empty) shaft only.
	kcc_debug_draw_arrow( &draw, kcc_v2( 1.0f, 1.0f ), kcc_v2( 1.0f, 1.0f ), draw.shape_color );
	assert_int_equal( r.item_count, 1 );
	// No callbacks at all: nothing happens.
	kcc_debug_draw empty = kcc_default_debug_draw();
	kcc_debug_draw_shape( &empty, &circle, empty.shape_color, empty.shape_color );
	kcc_debug_draw_arrow( &empty, kcc_v2( 0.0f, 0.0f ), kcc_v2( 1.0f, 0.0f ), empty.shape_color );
	kcc_debug_draw_point( &empty, kcc_v2( 0.0f, 0.0f ), empty.shape_color );
	// An unusable arc step draws with the default one.
	draw = recorder_draw( &r );
	draw.draw_circle = NULL;
	draw.arc_step = NAN;
	kcc_debug_draw_shape( &draw, &circle, draw.shape_color, KCC_COLOR_NONE );
	assert_int_equal( r.counts[REC_POLYGON], 1 );
	assert_int_equal( r.items[0].point_count, kcc_shape_outline_count( &circle, kcc_default_debug_draw().arc_step ) );
}

// Seed 004's colours, and a default draw that needs only callbacks.
static void test_default_debug_draw( void** state )
{
	(void)state;
	kcc_debug_draw draw = kcc_default_debug_draw();
	assert_null( draw.draw_segment );
	assert_null( draw.draw_text );
	assert_null( draw.context );
	assert_true( colors_equal( draw.hit_color, KCC_COLOR( 255, 255, 255, 255 ) ) );
	assert_true( draw.motion_color.r > 200 && draw.motion_color.g > 200 && draw.motion_color.b < 100 ); // yellow
	assert_true( draw.tangent_color.r > 200 && draw.tangent_color.g < 100 && draw.tangent_color.b > 200 ); // magenta
	assert_float_equal( draw.arc_step, 5.0f * DEGREE, 1.0e-7f );
	assert_true( draw.arrow_length > 0.0f && draw.text_height > 0.0f && draw.point_size > 0.0f );
}

static void test_outline_and_draw_never_allocate( void** state )
{
	(void)state;
	named_shape shapes[32];
	int shape_count = make_shapes( shapes );
	static vec2s points[MAX_POINTS];
	static recorder r;
	kcc_debug_draw draw = recorder_draw( &r );
	uint64_t before = kcc_test_allocation_count();
	for ( int i = 0; i < shape_count; ++i )
	{
		kcc_shape_outline( &shapes[i].shape, 0.5f * DEGREE, points, MAX_POINTS );
		kcc_shape_outline( &shapes[i].shape, 0.5f * DEGREE, points, 20 );
		kcc_debug_draw_shape( &draw, &shapes[i].shape, draw.shape_color, draw.shape_color );
	}
	assert_true( kcc_test_allocation_count() == before );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_outlines_of_every_kind_are_on_the_boundary_counter_clockwise ),
		cmocka_unit_test( test_outlines_fan_from_their_first_point ),
		cmocka_unit_test( test_outline_arc_resolution ),
		cmocka_unit_test( test_outline_coarsens_to_fit_and_refuses_what_cannot ),
		cmocka_unit_test( test_outline_bad_input_writes_nothing ),
		cmocka_unit_test( test_draw_shape_uses_the_renderers_primitives ),
		cmocka_unit_test( test_draw_shape_falls_back_to_segments ),
		cmocka_unit_test( test_draw_bad_input_is_ignored ),
		cmocka_unit_test( test_default_debug_draw ),
		cmocka_unit_test( test_outline_and_draw_never_allocate ),
	};
	return cmocka_run_group_tests_name( "debug_draw", tests, NULL, NULL );
}
