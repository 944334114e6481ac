// SPDX-License-Identifier: MIT
// kcc2d intersection core: shapes, overlap, distance, casts, penetration, 2.5D volumes, batch queries.
// Never allocates, never includes Chipmunk. Conventions: y up, radians, counter-clockwise polygons,
// shapes are closed sets (touching counts as overlapping). See docs/geometry.md.
#pragma once

#include "kcc/base.h"

// The typed circle tests below use packed SSE2 (x and y in two lanes of one register: fewer instructions than the
// scalar form, with identical IEEE operations per lane, so identical results) on x86 with SSE2 unless
// KCC_NO_INLINE_ASM or KCC_NO_SIMD is defined; the scalar forms (*_scalar) are always there and give the same answers.
#if defined( __SSE2__ ) && !defined( KCC_NO_INLINE_ASM ) && !defined( KCC_NO_SIMD )
#define KCC_TYPED_SSE2
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Most vertices a polygon hull may have (input point clouds may be larger while their hull fits).
#define KCC_MAX_POLYGON_VERTICES 8

/// Tolerance used for "touching" in the iterative (GJK based) queries, in world units. Analytic tests are exact
/// in float arithmetic (closed sets).
#define KCC_LINEAR_SLOP 1.0e-5f

typedef enum kcc_shape_type
{
	KCC_SHAPE_INVALID = 0, ///< what a make function returns for bad input; every query treats it as empty
	KCC_SHAPE_CIRCLE,
	KCC_SHAPE_CAPSULE,
	KCC_SHAPE_AABB,
	KCC_SHAPE_OBB,
	KCC_SHAPE_POLYGON, ///< convex, counter-clockwise, with an optional rounding radius; rounded boxes too
	KCC_SHAPE_SECTOR,
	KCC_SHAPE_TYPE_COUNT
} kcc_shape_type;

/// Axis-aligned box, closed: [min.x, max.x] x [min.y, max.y].
typedef struct kcc_aabb
{
	vec2s min, max;
} kcc_aabb;

/// Closed disc.
typedef struct kcc_circle
{
	vec2s center;
	float radius; ///< >= 0; a zero radius is a point
} kcc_circle;

/// Points within radius of the segment ab. a == b is a circle.
typedef struct kcc_capsule
{
	vec2s a, b;
	float radius; ///< >= 0; a zero radius is a segment
} kcc_capsule;

/// Oriented box: local x axis is (cos angle, sin angle).
typedef struct kcc_obb
{
	vec2s center;
	vec2s half_extents; ///< >= 0 on both axes
	vec2s rotation;     ///< (cos angle, sin angle), filled by kcc_make_obb
	float angle;        ///< radians, counter-clockwise
} kcc_obb;

/// Convex polygon, counter-clockwise, no collinear or duplicate vertices, plus a rounding radius around it
/// (a Minkowski sum with a disc, as Chipmunk's cpPolyShapeNew does).
typedef struct kcc_polygon
{
	vec2s vertices[KCC_MAX_POLYGON_VERTICES];
	vec2s normals[KCC_MAX_POLYGON_VERTICES]; ///< outward unit normal of edge i (vertex i to vertex i + 1)
	vec2s centroid;                          ///< area centroid of the core polygon
	float radius;                            ///< rounding radius, >= 0
	int count;                               ///< 3 .. KCC_MAX_POLYGON_VERTICES
} kcc_polygon;

/// Circular sector ("fan"): points within radius of the apex whose direction lies within angle / 2 of direction.
/// angle is the full opening in (0, 2*pi]; wider than pi the sector is not convex; 2*pi is the full disc.
typedef struct kcc_sector
{
	vec2s apex;
	vec2s direction;  ///< unit, normalised by kcc_make_sector
	float radius;     ///< > 0
	float angle;      ///< full opening angle, radians, in (0, 2*pi]
	vec2s half_angle; ///< (cos(angle / 2), sin(angle / 2)), filled by kcc_make_sector; the sine at least FLT_MIN
	                  ///< (below pi; the full disc has (-1, 0))
} kcc_sector;

/// A shape of any kind. Build it with a kcc_make_* function; check it with kcc_shape_is_valid.
typedef struct kcc_shape
{
	kcc_shape_type type;
	union
	{
		kcc_circle circle;
		kcc_capsule capsule;
		kcc_aabb aabb;
		kcc_obb obb;
		kcc_polygon polygon;
		kcc_sector sector;
	};
} kcc_shape;

// ---------------------------------------------------------------------------------------------------------------
// Making shapes. Bad input (NaN/Inf, negative radius or extents, zero direction, fewer than 3 distinct
// non-collinear hull points, a hull with more than KCC_MAX_POLYGON_VERTICES vertices, min > max, sector angle
// outside (0, 2*pi]) gives an invalid shape (type KCC_SHAPE_INVALID); debug builds also assert with a message
// naming the problem.

KCC_API kcc_shape kcc_make_circle( vec2s center, float radius );
KCC_API kcc_shape kcc_make_capsule( vec2s a, vec2s b, float radius );
KCC_API kcc_shape kcc_make_aabb( vec2s min, vec2s max );
/// AABB from the corner with the smallest coordinates and a size (seed 002's rect).
KCC_API kcc_shape kcc_make_rect( float x, float y, float w, float h );
KCC_API kcc_shape kcc_make_obb( vec2s center, vec2s half_extents, float angle );
/// Rounded box centred on the origin: a box of half extents (1, 2) and radius 0.1 spans 2.2 x 4.2.
KCC_API kcc_shape kcc_make_box( vec2s half_extents, float radius );
/// Convex hull of any number of points (collinear and duplicate points removed, any winding), plus radius.
KCC_API kcc_shape kcc_make_polygon( const vec2s* points, int count, float radius );
/// Sector; direction need not be unit (it is normalised; zero gives an invalid shape).
KCC_API kcc_shape kcc_make_sector( vec2s apex, vec2s direction, float radius, float angle );

KCC_API bool kcc_shape_is_valid( const kcc_shape* s );

/// The shape rotated by angle about the origin, then translated. A rotated AABB becomes an OBB.
KCC_API kcc_shape kcc_shape_transform( const kcc_shape* s, vec2s translation, float angle );
/// The shape translated (same kind).
KCC_API kcc_shape kcc_shape_translate( const kcc_shape* s, vec2s translation );

/// True when the shape is convex (every kind but a sector wider than pi).
KCC_API bool kcc_shape_is_convex( const kcc_shape* s );

// ---------------------------------------------------------------------------------------------------------------
// Queries on any valid shapes. An invalid shape never overlaps, is never hit, and yields no NaN.

/// Closed-set overlap: touching counts. Every pair of kinds, sectors (any angle) included, in both orders.
KCC_API bool kcc_overlap( const kcc_shape* a, const kcc_shape* b );
/// Closed-set point containment.
KCC_API bool kcc_contains_point( const kcc_shape* s, vec2s p );
/// Tight bounding box (rounding radius included). An invalid shape gives an empty box (min > max).
KCC_API kcc_aabb kcc_shape_bounds( const kcc_shape* s );

typedef struct kcc_distance_output
{
	float distance; ///< >= 0; 0 when the shapes overlap (or either is invalid, then the rest is zero too)
	vec2s point_a;  ///< closest point on a (on the rounded surface)
	vec2s point_b;  ///< closest point on b
	vec2s normal;   ///< unit, from a toward b; zero when the shapes overlap
} kcc_distance_output;

/// Distance between two shapes. Exact (to KCC_LINEAR_SLOP) for convex kinds; a sector wider than pi is split
/// into two convex halves and the nearer is reported.
KCC_API kcc_distance_output kcc_distance( const kcc_shape* a, const kcc_shape* b );

typedef struct kcc_cast_output
{
	vec2s point;    ///< hit point on the target's surface
	vec2s normal;   ///< unit, out of the target at the hit; zero on initial overlap
	float fraction; ///< fraction of the translation at impact, in [0, 1]; 1 on a miss
	bool hit;
} kcc_cast_output;

/// Ray (segment origin .. origin + translation) against a shape. Starting inside: hit, fraction 0, normal zero.
KCC_API kcc_cast_output kcc_ray_cast( const kcc_shape* s, vec2s origin, vec2s translation );

/// Sweep moving along translation against a static target; exact time of impact by conservative advancement on
/// GJK distance. Starting overlapped: hit, fraction 0, normal zero, point = a deepest point estimate.
KCC_API kcc_cast_output kcc_shape_cast( const kcc_shape* moving, vec2s translation, const kcc_shape* target );

/// As kcc_shape_cast, but the impact is where the distance first falls to target_separation (>= 0): the
/// controller keeps a skin this way. Starting closer than target_separation but not overlapping: hit,
/// fraction 0, normal = the separating normal (out of the target). Overlapping: as kcc_shape_cast.
KCC_API kcc_cast_output kcc_shape_cast_separation( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
												   float target_separation );

typedef struct kcc_penetration_output
{
	vec2s normal;     ///< unit, from a toward b: moving b by normal * depth makes the shapes just touch
	float depth;      ///< >= 0; 0 when they do not overlap
	bool overlapping; ///< false when separated or either shape is invalid (then normal is zero)
} kcc_penetration_output;

/// Penetration (minimum translation) of two overlapping convex shapes. Exact for circle, capsule, AABB, OBB and
/// polygon (separating axes on the cores, plus radii); sectors up to pi are solved iteratively to
/// KCC_LINEAR_SLOP; a sector wider than pi is not convex and gives overlapping = kcc_overlap, depth 0, normal 0.
KCC_API kcc_penetration_output kcc_penetration( const kcc_shape* a, const kcc_shape* b );

// ---------------------------------------------------------------------------------------------------------------
// Typed fast tests (the seeds' gameplay tests, done properly). Inline, branch-light, no validation: pass valid
// shapes (a NaN input still yields false, never a crash). Closed sets: touching counts.

// Branch-free max / min with x86's maxss / minss semantics: a > b ? a : b and a < b ? a : b, that is b when either
// is NaN. GCC turns such selects into conditional jumps in some contexts (mispredicted half the time on random
// input), and the SSE intrinsics drag in lane shuffles; one instruction in inline assembly is exactly right.
// Other compilers and targets (or KCC_NO_INLINE_ASM, for loops that should vectorise) use the same select in C.
#if defined( __GNUC__ ) && ( defined( __x86_64__ ) || defined( __SSE2_MATH__ ) ) && !defined( KCC_NO_INLINE_ASM )
/// a > b ? a : b (b when either is NaN), branch-free: one maxss.
KCC_INLINE float kcc_max_ss( float a, float b )
{
	__asm__( "maxss %1, %0" : "+x"( a ) : "xm"( b ) );
	return a;
}
/// a < b ? a : b (b when either is NaN), branch-free: one minss.
KCC_INLINE float kcc_min_ss( float a, float b )
{
	__asm__( "minss %1, %0" : "+x"( a ) : "xm"( b ) );
	return a;
}
#else
/// a > b ? a : b (b when either is NaN).
KCC_INLINE float kcc_max_ss( float a, float b )
{
	return a > b ? a : b;
}
/// a < b ? a : b (b when either is NaN).
KCC_INLINE float kcc_min_ss( float a, float b )
{
	return a < b ? a : b;
}
#endif

#if defined( KCC_TYPED_SSE2 )
/// Internal: (v.x, v.y, 0, 0), one 8-byte load.
KCC_INLINE __m128 kcc_sse_load2( vec2s v )
{
	return _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&v ) );
}
/// Internal: lane 0 in every lane (pshufd: one instruction, no copy).
KCC_INLINE __m128 kcc_sse_lane0( __m128 v )
{
	return _mm_castsi128_ps( _mm_shuffle_epi32( _mm_castps_si128( v ), 0x00 ) );
}
/// Internal: lane 1 in every lane.
KCC_INLINE __m128 kcc_sse_lane1( __m128 v )
{
	return _mm_castsi128_ps( _mm_shuffle_epi32( _mm_castps_si128( v ), 0x55 ) );
}
/// Internal: lanes (2, 3, 3, 2).
KCC_INLINE __m128 kcc_sse_shuffle_2332( __m128 v )
{
	return _mm_shuffle_ps( v, v, 0xbe );
}
/// Internal: lanes (2, 3, 0, 1).
KCC_INLINE __m128 kcc_sse_swap_halves( __m128 v )
{
	return _mm_shuffle_ps( v, v, 0x4e );
}
/// Internal: lanes (1, 0, 3, 2).
KCC_INLINE __m128 kcc_sse_swap_pairs( __m128 v )
{
	return _mm_shuffle_ps( v, v, 0xb1 );
}
/// Internal: lane 0 + lane 1 in lane 0, the same single addition as x + y in scalar code.
KCC_INLINE __m128 kcc_sse_add01( __m128 v )
{
	return _mm_add_ss( v, kcc_sse_lane1( v ) );
}
/// Internal: lane 0 + lane 1 as a float.
KCC_INLINE float kcc_sse_sum2( __m128 v )
{
	return _mm_cvtss_f32( kcc_sse_add01( v ) );
}
/// Internal: (u . v, u x v) in lanes 0 and 1: ux vx + uy vy and ux vy + uy (-vx), which is ux vy - uy vx exactly.
KCC_INLINE __m128 kcc_sse_into_frame( __m128 u, __m128 v )
{
	const __m128 negate_lane1 = _mm_castsi128_ps( _mm_setr_epi32( 0, (int)0x80000000u, 0, 0 ) );
	__m128 v_turned = _mm_xor_ps( _mm_castsi128_ps( _mm_shuffle_epi32( _mm_castps_si128( v ), 0xe1 ) ), negate_lane1 );
	return _mm_add_ps( _mm_mul_ps( kcc_sse_lane0( u ), v ), _mm_mul_ps( kcc_sse_lane1( u ), v_turned ) );
}
#endif

/// Squared distance from p to the segment ab (a == b allowed).
KCC_INLINE float kcc_point_segment_distance_squared( vec2s p, vec2s a, vec2s b )
{
	float ex = b.x - a.x, ey = b.y - a.y;
	float px = p.x - a.x, py = p.y - a.y;
	float ee = ex * ex + ey * ey;
	// t = clamp(dot(p, e) / ee, 0, 1), clamped on the numerator: 0.5 * (n + |n|) is max(n, 0) exactly (NaN stays
	// NaN) and min(n, ee) / ee is exactly 1 past b. Branch-free: no mispredictions on random input.
	float n = px * ex + py * ey;
	n = 0.5f * ( n + fabsf( n ) );
	n = ee < n ? ee : n;
	float t = n / ( ee > 0.0f ? ee : 1.0f ); // a == b: n is 0 here
	float dx = px - t * ex, dy = py - t * ey;
	return dx * dx + dy * dy;
}

KCC_INLINE bool kcc_circle_overlaps_circle( kcc_circle a, kcc_circle b )
{
	float dx = b.center.x - a.center.x, dy = b.center.y - a.center.y, r = a.radius + b.radius;
	return dx * dx + dy * dy <= r * r;
}

/// kcc_circle_overlaps_capsule in scalar code (the same answer for every input).
KCC_INLINE bool kcc_circle_overlaps_capsule_scalar( kcc_circle a, kcc_capsule b )
{
	float ex = b.b.x - b.a.x, ey = b.b.y - b.a.y;
	float px = a.center.x - b.a.x, py = a.center.y - b.a.y;
	float ee = ex * ex + ey * ey;
	// t = clamp(dot(p, e), 0, ee) / ee. A point capsule has n = 0; the divisor's floor (FLT_MIN) keeps 0 / 0 out
	// without a select and differs from ee only for segments shorter than 1e-19.
	float n = kcc_min_ss( kcc_max_ss( px * ex + py * ey, 0.0f ), ee );
	float t = n / kcc_max_ss( ee, 1.17549435e-38f );
	float dx = px - t * ex, dy = py - t * ey;
	float r = a.radius + b.radius;
	return dx * dx + dy * dy <= r * r;
}

KCC_INLINE bool kcc_circle_overlaps_capsule( kcc_circle a, kcc_capsule b )
{
#if defined( KCC_TYPED_SSE2 )
	// The scalar steps with x and y in two lanes; lanes 2 and 3 carry values that are never read.
	__m128 c = kcc_sse_load2( a.center );
	__m128 ab = _mm_loadu_ps( (const float*)&b ); // a.x, a.y, b.x, b.y
	__m128 e = _mm_sub_ps( _mm_movehl_ps( ab, ab ), ab );
	__m128 p = _mm_sub_ps( c, ab );
	__m128 ee = kcc_sse_add01( _mm_mul_ps( e, e ) );
	__m128 n = kcc_sse_add01( _mm_mul_ps( p, e ) );
	n = _mm_min_ss( _mm_max_ss( n, _mm_setzero_ps() ), ee );
	__m128 t = _mm_div_ss( n, _mm_max_ss( ee, _mm_set_ss( 1.17549435e-38f ) ) );
	__m128 d = _mm_sub_ps( p, _mm_mul_ps( kcc_sse_lane0( t ), e ) );
	float r = a.radius + b.radius;
	return kcc_sse_sum2( _mm_mul_ps( d, d ) ) <= r * r;
#else
	return kcc_circle_overlaps_capsule_scalar( a, b );
#endif
}

/// kcc_circle_overlaps_aabb in scalar code (the same answer for every input).
KCC_INLINE bool kcc_circle_overlaps_aabb_scalar( kcc_circle a, kcc_aabb b )
{
	// Clamp the centre into the box; a NaN in the centre, max or radius reaches the distance, so the test fails.
	// A NaN min is dropped by the clamp (maxss keeps its second operand), so it is tested on its own.
	float cx = kcc_min_ss( kcc_max_ss( a.center.x, b.min.x ), b.max.x );
	float cy = kcc_min_ss( kcc_max_ss( a.center.y, b.min.y ), b.max.y );
	float dx = a.center.x - cx, dy = a.center.y - cy;
	return ( dx * dx + dy * dy <= a.radius * a.radius ) & ( b.min.x == b.min.x ) & ( b.min.y == b.min.y );
}

KCC_INLINE bool kcc_circle_overlaps_aabb( kcc_circle a, kcc_aabb b )
{
#if defined( KCC_TYPED_SSE2 )
	__m128 c = kcc_sse_load2( a.center );
	__m128 box = _mm_loadu_ps( (const float*)&b ); // min.x, min.y, max.x, max.y
	__m128 d = _mm_sub_ps( c, _mm_min_ps( _mm_max_ps( c, box ), _mm_movehl_ps( box, box ) ) );
	d = _mm_or_ps( d, _mm_cmpunord_ps( box, box ) ); // a NaN min makes d NaN (all bits set)
	return kcc_sse_sum2( _mm_mul_ps( d, d ) ) <= a.radius * a.radius;
#else
	return kcc_circle_overlaps_aabb_scalar( a, b );
#endif
}

/// kcc_circle_overlaps_obb in scalar code (the same answer for every input).
KCC_INLINE bool kcc_circle_overlaps_obb_scalar( kcc_circle a, kcc_obb b )
{
	// Into the box frame, fold into the first quadrant (seed 000), then as an AABB at the origin: the excess over
	// the half extent is max(0, |l| - h) (in this order a NaN stays NaN, and the test fails).
	float dx = a.center.x - b.center.x, dy = a.center.y - b.center.y;
	float ux = kcc_max_ss( 0.0f, fabsf( b.rotation.x * dx + b.rotation.y * dy ) - b.half_extents.x );
	float uy = kcc_max_ss( 0.0f, fabsf( b.rotation.x * dy - b.rotation.y * dx ) - b.half_extents.y );
	return ux * ux + uy * uy <= a.radius * a.radius;
}

KCC_INLINE bool kcc_circle_overlaps_obb( kcc_circle a, kcc_obb b )
{
#if defined( KCC_TYPED_SSE2 )
	__m128 box = _mm_loadu_ps( (const float*)&b ); // center.x, center.y, half_extents.x, half_extents.y
	__m128 local = kcc_sse_into_frame( kcc_sse_load2( b.rotation ), _mm_sub_ps( kcc_sse_load2( a.center ), box ) );
	const __m128 abs_mask = _mm_castsi128_ps( _mm_set1_epi32( 0x7fffffff ) );
	__m128 u = _mm_sub_ps( _mm_and_ps( local, abs_mask ), _mm_movehl_ps( box, box ) );
	u = _mm_max_ps( _mm_setzero_ps(), u );
	return kcc_sse_sum2( _mm_mul_ps( u, u ) ) <= a.radius * a.radius;
#else
	return kcc_circle_overlaps_obb_scalar( a, b );
#endif
}

KCC_INLINE bool kcc_aabb_overlaps_aabb( kcc_aabb a, kcc_aabb b )
{
	return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

/// Seed 002's rect vs rect: corner with the smallest coordinates + size.
KCC_INLINE bool kcc_rect_overlaps_rect( float ax, float ay, float aw, float ah, float bx, float by, float bw, float bh )
{
	return ax <= bx + bw && bx <= ax + aw && ay <= by + bh && by <= ay + ah;
}

/// Circle against a sector of any opening: the centre, in the sector's frame and mirrored onto the upper half
/// (x along the direction, y = |across|), is either inside the opening (test the distance to the apex against
/// the summed radii) or nearest to the upper edge segment (test the distance to it against the circle radius).
/// kcc_circle_overlaps_sector in scalar code (the same answer for every input).
KCC_INLINE bool kcc_circle_overlaps_sector_scalar( kcc_circle a, const kcc_sector* s )
{
	float dx = a.center.x - s->apex.x, dy = a.center.y - s->apex.y;
	float x = s->direction.x * dx + s->direction.y * dy;
	float y = fabsf( s->direction.x * dy - s->direction.y * dx );
	float c = s->half_angle.x, sn = s->half_angle.y;
	// In the frame of the upper edge u = (c, sn): across > 0 beyond it (outside the opening) and along is the
	// projection on it, so the squared distance to the edge segment [0, radius] u is across^2 + over^2 with
	// over = along - clamp(along, 0, radius) (fewer operations than forming the closest point).
	float across = c * y - sn * x;
	float along = c * x + sn * y;
	float over = along - kcc_min_ss( kcc_max_ss( along, 0.0f ), s->radius );
	float rr = s->radius + a.radius;
	bool inside_angle = across <= 0.0f;
	bool near_apex = x * x + y * y <= rr * rr;
	bool near_edge = across * across + over * over <= a.radius * a.radius;
	// bitwise, not short-circuit: no branches
	return ( inside_angle & near_apex ) | near_edge;
}

KCC_INLINE bool kcc_circle_overlaps_sector( kcc_circle a, const kcc_sector* s )
{
#if defined( KCC_TYPED_SSE2 )
	// The scalar steps four lanes wide. Each rotation is one multiply (by the frame vector's components, one of them
	// negated, in the order that puts both products of a result in two lanes) and one add of those lanes with a
	// shuffled copy: the same two products and one addition per result as in scalar code, and no shuffle of the
	// point on the way. The three comparisons are one cmpleps of
	// (x^2 + y^2, across^2 + over^2, across, across) against (rr^2, radius^2, 0, 0); its four bits index a truth
	// table of ( inside_angle & near_apex ) | near_edge. Multiplies, min / max and compares share two FP pipes on
	// recent x86 cores: the packed form issues 7 there instead of 22.
	const __m128 negate_lane2 = _mm_castsi128_ps( _mm_setr_epi32( 0, 0, (int)0x80000000u, 0 ) );
	const __m128 negate_lane1 = _mm_castsi128_ps( _mm_setr_epi32( 0, (int)0x80000000u, 0, 0 ) );
	const __m128 abs_lanes23 = _mm_castsi128_ps( _mm_setr_epi32( -1, -1, 0x7fffffff, 0x7fffffff ) );
	const float* f = (const float*)s;
	__m128 apex_direction = _mm_loadu_ps( f );   // apex.x, apex.y, direction.x, direction.y
	__m128 radius_half = _mm_loadu_ps( f + 4 ); // radius, angle, half_angle.x, half_angle.y
	__m128 center = kcc_sse_load2( a.center );
	__m128 d = _mm_sub_ps( _mm_movelh_ps( center, center ), _mm_movelh_ps( apex_direction, apex_direction ) );
	// (dx, dy, dx, dy) (ux, uy, -uy, ux): x = lane 0 + lane 1, across = lane 3 + lane 2
	__m128 u = _mm_xor_ps( kcc_sse_shuffle_2332( apex_direction ), negate_lane2 );
	__m128 p = _mm_mul_ps( d, u );
	__m128 v = _mm_and_ps( _mm_add_ps( p, kcc_sse_swap_pairs( p ) ), abs_lanes23 ); // x, x, y, y
	// (x, x, y, y) (c, -s, s, c): along = lane 0 + lane 2, across = lane 1 + lane 3 (c y + -s x)
	__m128 h = _mm_xor_ps( kcc_sse_shuffle_2332( radius_half ), negate_lane1 );
	__m128 q = _mm_mul_ps( v, h );
	__m128 w = _mm_add_ps( q, kcc_sse_swap_halves( q ) ); // along, across, along, across
	__m128 radius = _mm_load_ss( &s->radius );
	__m128 over = _mm_sub_ss( w, _mm_min_ss( _mm_max_ss( w, _mm_setzero_ps() ), radius ) );
	__m128 e = _mm_shuffle_ps( v, _mm_move_ss( w, over ), _MM_SHUFFLE( 1, 0, 2, 0 ) ); // x, y, over, across
	e = _mm_mul_ps( e, e );
	e = _mm_add_ps( e, kcc_sse_swap_pairs( e ) );                                       // xy2, xy2, e2, e2
	__m128 lhs = _mm_shuffle_ps( e, w, _MM_SHUFFLE( 1, 1, 2, 0 ) );                     // xy2, e2, across, across
	__m128 ra = _mm_load_ss( &a.radius );
	__m128 rhs = _mm_unpacklo_ps( _mm_add_ss( radius, ra ), ra ); // rr, ra, 0, 0
	unsigned bits = (unsigned)_mm_movemask_ps( _mm_cmple_ps( lhs, _mm_mul_ps( rhs, rhs ) ) );
	return ( 0xECECu >> bits ) & 1u; // bit b of 0xECEC is ( b0 & b2 ) | b1
#else
	return kcc_circle_overlaps_sector_scalar( a, s );
#endif
}

KCC_INLINE bool kcc_sector_contains_point( const kcc_sector* s, vec2s p )
{
	kcc_circle point = { p, 0.0f };
	return kcc_circle_overlaps_sector( point, s );
}

/// Circle against a convex polygon with rounding radius: no allocation, no angles.
KCC_API bool kcc_circle_overlaps_polygon( kcc_circle a, const kcc_polygon* b );

// ---------------------------------------------------------------------------------------------------------------
// 2.5D volumes: any shape in the ground plane (x, y) extruded over a closed height interval [z_min, z_max].

typedef struct kcc_volume
{
	kcc_shape shape;
	float z_min, z_max;
} kcc_volume;

/// Invalid (shape type KCC_SHAPE_INVALID) when the shape is invalid or the interval is not finite or z_min > z_max.
KCC_API kcc_volume kcc_make_volume( const kcc_shape* shape, float z_min, float z_max );
KCC_API bool kcc_volume_overlap( const kcc_volume* a, const kcc_volume* b );
/// p.x, p.y in the ground plane, p.z the height.
KCC_API bool kcc_volume_contains_point( const kcc_volume* v, vec3s p );

/// Seed 003's attack volume: a box in front of a character at origin (ground plane) and height z, facing the
/// ground-plane angle facing; it spans length forward, width across (centred), height up from z - drop.
KCC_API kcc_volume kcc_make_attack_volume( vec2s origin, float z, float facing, float width, float length,
										   float height, float drop );

/// Seed 003's test, correct at any rotation: point p (x, y ground, z height) in the box of the given centre,
/// half extents (x, y in the box frame, z = half height) and yaw angle.
KCC_API bool kcc_point_in_oriented_box( vec3s center, vec3s half_extents, float yaw, vec3s p );

// ---------------------------------------------------------------------------------------------------------------
// Batch queries: one shape against many circles (area attacks against many enemies).

/// Writes the indices i (ascending) of the circles (centers[i], radii[i]) that overlap s into out_indices
/// (room for count entries) and returns how many. 0 for an invalid shape. Vectorised inner loops.
KCC_API int kcc_batch_overlap_circles( const kcc_shape* s, const vec2s* centers, const float* radii, int count,
									   int* out_indices );

#ifdef __cplusplus
}
#endif
