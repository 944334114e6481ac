// SPDX-License-Identifier: MIT
// Internal interfaces shared by the geometry files (not installed).
#pragma once

#include "kcc/geometry.h"

#include <float.h>
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
#include <emmintrin.h>
#endif

#include "always_inline.h"

// Overlap of two valid shapes by GJK distance (touching within KCC_LINEAR_SLOP counts). Any kinds, sectors wider
// than pi included (split into two convex halves). Used by kcc_overlap for pairs without an analytic test.
// Defined in gjk.c.
bool kcc_gjk_overlap( const kcc_shape* a, const kcc_shape* b );

// Circle against any valid shape, exact (closest point). Defined in overlap.c; used by the batch queries.
bool kcc_circle_overlaps_shape( kcc_circle c, const kcc_shape* s );

// ---------------------------------------------------------------------------------------------------------------
// Convex proxies, GJK and the Minkowski difference (gjk.c). Every kind is a core plus a rounding radius.

/// Most pieces a shape splits into: a sector wider than pi is two convex halves.
#define KCC_MAX_PROXIES 2

/// A convex piece of a shape: a core plus a rounding radius. A polytope core is 1 point, a 2-point segment
/// (edges there and back) or a counter-clockwise polygon. A curved core (a sector half, opening <= pi) is the
/// convex hull of its apex and its arc: points = apex, right arc end, left arc end.
typedef struct kcc_proxy
{
	const vec2s* points;  ///< polytope vertices, counter-clockwise; curved: apex, arc ends
	const vec2s* normals; ///< outward unit normal of edge i (polytope count >= 2); curved: right edge, left edge
	vec2s own_points[4];  ///< where points lie for kinds that do not store them as such (a polygon's are its own)
	vec2s own_normals[4];
	vec2s direction;      ///< curved: unit axis of the opening
	vec2s half_angle;     ///< curved: (cos, sin) of half the opening, opening <= pi
	vec2s arc_direction;  ///< curved: axis of the whole sector (a half of one wider than pi is part of its arc)
	vec2s arc_half_angle; ///< curved: (cos, sin) of half the whole sector's opening
	float arc_radius;     ///< curved: radius of the arc
	float radius;         ///< rounding radius, >= 0
	int count;            ///< polytope: 1 .. KCC_MAX_POLYGON_VERTICES; curved: 3
	bool curved;
} kcc_proxy;

/// Fills proxies (room for KCC_MAX_PROXIES) and returns how many; they point into s, so use them while s lives. 0
/// when a value is beyond KCC_MAX_MAGNITUDE or the data cannot be indexed or normalised (cheap checks only: finite
/// data, non-negative radii and extents, vertex count in range, unit normals). Validity (kcc_shape_is_valid,
/// convexity included) is the caller's check.
int kcc_make_proxies( const kcc_shape* s, kcc_proxy* proxies );

/// Support point of the core (radius excluded) in direction d (need not be unit).
vec2s kcc_proxy_support( const kcc_proxy* p, vec2s d );

typedef struct kcc_gjk_output
{
	vec2s point_a;  ///< closest point on a's core (offset included)
	vec2s point_b;  ///< closest point on b's core
	float distance; ///< core distance (radii excluded); 0 when the cores overlap
	vec2s normal;   ///< distance > 0: unit, from a's core toward b's (exact on an edge of the difference)
	int iterations;
} kcc_gjk_output;

/// Distance between the cores of a (translated by offset_a) and b. Exact for polytopes; curved cores converge
/// until the duality gap is below a tenth of KCC_LINEAR_SLOP (or the iteration cap).
kcc_gjk_output kcc_gjk_distance( const kcc_proxy* a, vec2s offset_a, const kcc_proxy* b );

/// Distance output of two proxies with radii applied (the semantics of kcc_distance).
kcc_distance_output kcc_proxy_distance( const kcc_proxy* a, const kcc_proxy* b );

#define KCC_MAX_MINKOWSKI_VERTICES ( 2 * KCC_MAX_POLYGON_VERTICES )

/// Minkowski difference b - a of two polytope cores: a convex polygon (1 vertex: a point, 2: a segment).
typedef struct kcc_minkowski
{
	vec2s vertices[KCC_MAX_MINKOWSKI_VERTICES]; ///< counter-clockwise, no repeated edge directions
	vec2s normals[KCC_MAX_MINKOWSKI_VERTICES];  ///< outward unit normal of edge i (count >= 2)
	unsigned char index_b[KCC_MAX_MINKOWSKI_VERTICES]; ///< vertex of b's core in vertex i
	unsigned char source[KCC_MAX_MINKOWSKI_VERTICES];  ///< edge i is an edge of a (KCC_EDGE_OF_A), of b, or both
	int count;
} kcc_minkowski;

/// kcc_minkowski.source: edge i of b - a is an edge of a reversed, of b, or both (parallel edges merge).
#define KCC_EDGE_OF_A 1u
#define KCC_EDGE_OF_B 2u

/// Builds b - a by merging the edges of b and -a in angle order, O(n + m). Both proxies must be polytopes.
void kcc_minkowski_difference( const kcc_proxy* a, const kcc_proxy* b, kcc_minkowski* out );

/// Closest point of a polytope core (vertices, normals, count as in kcc_minkowski) to p.
typedef struct kcc_polytope_closest
{
	vec2s point;    ///< closest point on the core (p itself when inside)
	float distance; ///< 0 when p is inside or on the core
	float depth;    ///< p inside: distance to the nearest edge line (>= 0); outside: 0
	int edge;       ///< closest point = lerp( vertices[edge], vertices[edge + 1], s ); inside: the nearest edge
	float s;        ///< parameter along that edge, [0, 1]
} kcc_polytope_closest;

kcc_polytope_closest kcc_polytope_closest_point( const vec2s* vertices, const vec2s* normals, int count, vec2s p );

/// The outward unit normal of b - a at its closest point to the origin (the origin outside it): the direction from
/// b's core toward a's. An edge's own normal on its interior, at a vertex the closest point's direction kept
/// within the normals of the two edges that meet there.
vec2s kcc_minkowski_normal( const kcc_minkowski* m, const kcc_polytope_closest* closest );

/// kcc_shape_cast_separation by conservative advancement for every kind (kcc_shape_cast uses it for curved cores
/// only; polytope cores take the exact Minkowski path): the independent path the tests cross-check casts with.
kcc_cast_output kcc_shape_cast_conservative( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation );

/// Conservative advancement of proxy a along translation until its distance to b falls to the radii plus
/// separation (advance.c). Any proxies, curved ones included.
kcc_cast_output kcc_cast_conservative( const kcc_proxy* a, vec2s translation, const kcc_proxy* b, float separation );

/// What a cast reports on a miss.
static inline kcc_cast_output kcc_cast_miss( void )
{
	kcc_cast_output out = { 0 };
	out.fraction = 1.0f;
	return out;
}

/// Normals, rotations and directions stored in shapes must be unit; hand-built ones are accepted within this much of
/// |v|^2 = 1 (float normals of long edges computed in float are off by far less; a looser check lets through shapes
/// whose separating axes would misjudge overlaps).
#define KCC_UNIT_TOLERANCE 1.0e-3f

#define KCC_PI_F 3.14159265358979323846f
#define KCC_TWO_PI_F ( 2.0f * KCC_PI_F )

/// (float)( 2 * pi ) is a hair above 2 * pi; a sector angle up to this much above it is still the full disc.
#define KCC_FULL_ANGLE_SLACK 1.0e-6f

/// Relative rounding of a value computed from coordinates: a point within KCC_ON_LINE times its coordinates' size
/// (|x| + |y|) of a line through a feature lies on it (a parallel edge of the other shape).
#define KCC_ON_LINE ( 4.0f * FLT_EPSILON )

/// How far a value computed from coordinates of a given size (|x| + |y|, summed over the points involved) may lie from
/// its exact value, relative to that size: a few roundings. A line of a Minkowski difference carries the rounding
/// of both shapes' coordinates, however small its own.
#define KCC_ROUNDING ( 16.0f * FLT_EPSILON )

/// The largest |x| + |y| over the points.
static inline float kcc_points_size( const vec2s* points, int count )
{
	float size = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		float s = fabsf( points[i].x ) + fabsf( points[i].y );
		size = s > size ? s : size;
	}
	return size;
}

/// v / |v|, or fallback when v is zero. Scaled by its largest component first, so vectors whose squared length
/// underflows (denormal components) still give a unit result.
static inline vec2s kcc_unit_or( vec2s v, vec2s fallback )
{
	float ax = fabsf( v.x ), ay = fabsf( v.y );
	float m = ax > ay ? ax : ay;
	if ( !( m > 0.0f && m < INFINITY ) || ax != ax || ay != ay ) // zero, infinite, or a NaN in either lane
	{
		return fallback;
	}
	vec2s s = kcc_v2( v.x / m, v.y / m );
	float inv = 1.0f / sqrtf( s.x * s.x + s.y * s.y );
	return kcc_v2( s.x * inv, s.y * inv );
}

/// Largest coordinate, extent, radius or translation magnitude the distance, cast and penetration queries accept
/// (kcc_make_proxies, casts): their arithmetic multiplies up to four such values, which stays finite in float
/// below this, so no NaN can come out. Beyond it the queries return their empty result.
#define KCC_MAX_MAGNITUDE 1.0e9f

/// Within KCC_MAX_MAGNITUDE, hence finite (a NaN fails every compare).
static inline bool kcc_usable_float( float x )
{
	return fabsf( x ) <= KCC_MAX_MAGNITUDE;
}

static inline bool kcc_usable_vec2( vec2s v )
{
	return kcc_usable_float( v.x ) && kcc_usable_float( v.y );
}

static inline bool kcc_valid_radius( float r )
{
	return kcc_usable_float( r ) && r >= 0.0f;
}

/// Whether a polygon's count vertices (3 .. KCC_MAX_POLYGON_VERTICES) are within KCC_MAX_MAGNITUDE and its normals
/// unit within KCC_UNIT_TOLERANCE (a NaN fails). With SSE2, two vertices and two normals per register: the same
/// operations and comparisons as the scalar loop, lane by lane.
static inline bool kcc_polygon_in_range( const kcc_polygon* poly )
{
	int count = poly->count;
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
	const __m128 abs_mask = _mm_castsi128_ps( _mm_set1_epi32( 0x7fffffff ) );
	const __m128 limit = _mm_set1_ps( KCC_MAX_MAGNITUDE ), one = _mm_set1_ps( 1.0f );
	const __m128 tolerance = _mm_set1_ps( KCC_UNIT_TOLERANCE );
	unsigned failed = 0u;
	for ( int i = 0; i < count; i += 2 )
	{
		// Lanes x, y of vertex (normal) i, then of i + 1 (inside the arrays for any count: the last pair of an odd
		// count holds one vertex, and the other's lanes are ignored).
		__m128 v = _mm_loadu_ps( &poly->vertices[i].x );
		__m128 n = _mm_loadu_ps( &poly->normals[i].x );
		__m128 squares = _mm_mul_ps( n, n );
		__m128 length = _mm_add_ps( squares, _mm_shuffle_ps( squares, squares, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
		__m128 ok = _mm_and_ps( _mm_cmple_ps( _mm_and_ps( v, abs_mask ), limit ),
								_mm_cmple_ps( _mm_and_ps( _mm_sub_ps( length, one ), abs_mask ), tolerance ) );
		unsigned lanes = (unsigned)_mm_movemask_ps( ok ) ^ 0xfu;
		failed |= i + 1 < count ? lanes : lanes & 0x3u;
	}
	return failed == 0u;
#else
	for ( int i = 0; i < count; ++i )
	{
		vec2s v = poly->vertices[i], n = poly->normals[i];
		if ( !( fabsf( v.x ) <= KCC_MAX_MAGNITUDE && fabsf( v.y ) <= KCC_MAX_MAGNITUDE ) ||
			 !( fabsf( n.x * n.x + n.y * n.y - 1.0f ) <= KCC_UNIT_TOLERANCE ) )
		{
			return false;
		}
	}
	return true;
#endif
}

// Outward normal of a counter-clockwise edge direction: its right-hand perpendicular, unit.
static inline vec2s kcc_segment_normal( vec2s a, vec2s b )
{
	vec2s d = glms_vec2_sub( b, a );
	// Along an axis (a character's upright capsule), kcc_unit_or's result is exact without its divisions and square
	// root: the sign of the non-zero coordinate, and the zero as it is.
	if ( d.x == 0.0f && fabsf( d.y ) > 0.0f && fabsf( d.y ) < INFINITY )
	{
		return kcc_v2( d.y > 0.0f ? 1.0f : -1.0f, -d.x );
	}
	if ( d.y == 0.0f && fabsf( d.x ) > 0.0f && fabsf( d.x ) < INFINITY )
	{
		return kcc_v2( d.y, d.x > 0.0f ? -1.0f : 1.0f );
	}
	// Scaled before normalising: points denormal-apart still give a unit normal.
	vec2s e = kcc_unit_or( d, kcc_v2( 0.0f, 0.0f ) );
	return kcc_v2( e.y, -e.x );
}

/// A segment's proxy from a to b (a point when they are equal), rounded by radius.
static inline void kcc_proxy_set_segment( kcc_proxy* p, vec2s a, vec2s b, float radius )
{
	p->curved = false;
	p->radius = radius;
	if ( a.x == b.x && a.y == b.y )
	{
		p->own_points[0] = a;
		p->own_normals[0] = kcc_v2( 0.0f, 1.0f );
		p->count = 1;
		return;
	}
	p->own_points[0] = a;
	p->own_points[1] = b;
	p->own_normals[0] = kcc_segment_normal( a, b );
	p->own_normals[1] = glms_vec2_negate( p->own_normals[0] );
	p->count = 2;
}

/// The proxy of a capsule whose values are in range (the character's, placed in a move's local frame).
static inline void kcc_proxy_of_capsule( kcc_proxy* p, const kcc_capsule* c )
{
	p->points = p->own_points;
	p->normals = p->own_normals;
	kcc_proxy_set_segment( p, c->a, c->b, c->radius );
}

/// kcc_make_proxies for a capsule. 1, or 0 when a value is out of range.
static inline int kcc_proxy_set_capsule( kcc_proxy* p, const kcc_capsule* c )
{
	if ( kcc_usable_vec2( c->a ) == false || kcc_usable_vec2( c->b ) == false || kcc_valid_radius( c->radius ) == false )
	{
		return 0;
	}
	kcc_proxy_of_capsule( p, c );
	return 1;
}

/// Whether kcc_make_proxies makes a proxy of the polygon (its checks, not kcc_shape_is_valid's).
static inline bool kcc_polygon_proxy_ok( const kcc_polygon* poly )
{
	return poly->count >= 3 && poly->count <= KCC_MAX_POLYGON_VERTICES && poly->radius >= 0.0f &&
		   poly->radius <= KCC_MAX_MAGNITUDE && kcc_polygon_in_range( poly );
}

/// The proxy of a polygon that kcc_polygon_proxy_ok accepts.
static inline void kcc_proxy_of_polygon( kcc_proxy* p, const kcc_polygon* poly )
{
	p->points = poly->vertices;
	p->normals = poly->normals;
	p->curved = false;
	p->count = poly->count;
	p->radius = poly->radius;
}

/// kcc_make_proxies for a polygon, inline: a cast builds one per target. 1, or 0 when a value is out of range.
static inline int kcc_proxy_set_polygon( kcc_proxy* p, const kcc_polygon* poly )
{
	if ( kcc_polygon_proxy_ok( poly ) == false )
	{
		return 0;
	}
	kcc_proxy_of_polygon( p, poly );
	return 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Trusted entry points (gjk.c, cast.c, penetration.c). The public kcc_distance, kcc_shape_cast(_separation) and
// kcc_penetration treat every shape kcc_shape_is_valid rejects as invalid (an O(n) pass over a polygon, convexity
// included). A caller that builds its shapes itself and knows them valid (the controller: candidates converted
// from Chipmunk, the character translated from a valid local shape) calls these instead: the same results for
// valid shapes, without that check. Out-of-range values (KCC_MAX_MAGNITUDE), bad translations and separations are
// still refused as in the public functions; an invalid shape gives an unspecified result (no crash).

/// kcc_distance without the validity check.
kcc_distance_output kcc_distance_trusted( const kcc_shape* a, const kcc_shape* b );

/// kcc_shape_cast_separation without the validity check (target_separation 0: kcc_shape_cast).
kcc_cast_output kcc_shape_cast_trusted( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										float target_separation );

/// kcc_shape_cast_trusted with the moving shape given by its proxies (kcc_make_proxies; moving_count 0: not usable),
/// for a caller that casts one shape against many targets and builds them once.
kcc_cast_output kcc_proxies_cast_trusted( const kcc_proxy* moving, int moving_count, vec2s translation,
										 const kcc_shape* target, float target_separation );

/// kcc_proxies_cast_trusted against a polygon that kcc_polygon_proxy_ok accepts (checked once by a caller that casts
/// against it many times), with no target separation. point false: the contact point may be left at zero (a caller
/// that reads only the fraction and the normal).
kcc_cast_output kcc_proxies_cast_polygon_trusted( const kcc_proxy* moving, int moving_count, vec2s translation,
												 const kcc_polygon* target, bool point );

/// Whether kcc_cast_box_trusted takes this moving shape (its proxies) and translation: one proxy, a point or a segment
/// along an axis (a circle's or an upright capsule's core), and a translation in range.
static inline bool kcc_box_cast_applies( const kcc_proxy* moving, int moving_count, vec2s translation )
{
	if ( moving_count != 1 || moving->curved || moving->count > 2 || kcc_usable_vec2( translation ) == false )
	{
		return false;
	}
	vec2s a0 = moving->points[0], a1 = moving->points[moving->count - 1];
	return a0.x == a1.x || a0.y == a1.y;
}

/// kcc_proxies_cast_polygon_trusted( moving, 1, translation, box, point ) for a box with sides on the axes, from its
/// lowest corner lo to its highest hi (both in range, the sides in the exact range of a rectangle's normals), rounded
/// by radius, when kcc_box_cast_applies: the same result, bit for bit, without the box's polygon. It decides a start
/// in the region of a corner, which the general cast leaves to the difference built, and, along an axis that the
/// moving core lies along (the ground probe), the faces' lines without the general clip. False when it does not
/// decide (the general cast decides then): another direction, an entry at a face's end, a face's contact point.
bool kcc_cast_box_trusted( const kcc_proxy* moving, vec2s translation, vec2s lo, vec2s hi, float radius, bool point,
						   kcc_cast_output* out );

/// kcc_penetration without the validity check.
kcc_penetration_output kcc_penetration_trusted( const kcc_shape* a, const kcc_shape* b );

/// True when a polygon and a circle or a capsule (a and b, either way round) are apart by more than their rounding,
/// with a margin beyond the rounding errors of kcc_penetration_trusted, which then finds no overlap: a face of the
/// polygon, or the axis from one of its vertices to the nearest point of the other's core, separates them. False when
/// it can not tell (closer, other kinds): the penetration decides. Cheaper than it where shapes' boxes meet but not the
/// shapes (a character on a slope, beside a tile's corner).
bool kcc_separated_trusted( const kcc_shape* a, const kcc_shape* b );

// ---------------------------------------------------------------------------------------------------------------
// Instruction sets (base.c): the queries with wider paths (the circle-polygon test, the batch) take the widest the
// machine runs, up to a cap that tests lower to run every path on one machine.

typedef enum kcc_isa
{
	KCC_ISA_BASELINE = 0, ///< what the library was compiled for (SSE2 on x86-64)
	KCC_ISA_AVX,
	KCC_ISA_AVX2,
	KCC_ISA_AVX512,
} kcc_isa;

/// The cap, KCC_ISA_AVX512 unless a test lowered it.
extern kcc_isa kcc_isa_cap;

/// Sets the cap and returns the previous one. For tests; not thread-safe.
kcc_isa kcc_limit_isa( kcc_isa limit );
