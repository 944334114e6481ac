// SPDX-License-Identifier: MIT
// kcc2d intersection core: shapes, overlap, distance, casts, penetration, 2.5D volumes, batch queries.
// Never allocates, never includes Chipmunk. Conventions: y up, radians, counter-clockwise polygons,
// shapes are closed sets (touching counts as overlapping). See docs/geometry.md.
#pragma once

#include "kcc/base.h"

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
/// AABB from the corner with the smallest coordinates and a size: [x, x + w] x [y, y + h], closed.
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

/// Sweep moving along translation against a static target. Exact for every kind but the sector (a ray cast against
/// the Minkowski difference of the cores); with a sector, conservative advancement on GJK distance to within
/// KCC_LINEAR_SLOP. Starting overlapped: hit, fraction 0, normal zero, point = a deepest point estimate.
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
// Typed fast tests for gameplay hit tests of known kinds. Inline, branch-light, no validation: pass valid
// shapes (a NaN input still yields false, never a crash). Closed sets: touching counts.

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

KCC_INLINE bool kcc_circle_overlaps_capsule( kcc_circle a, kcc_capsule b )
{
	float ex = b.b.x - b.a.x, ey = b.b.y - b.a.y;
	float px = a.center.x - b.a.x, py = a.center.y - b.a.y;
	float ee = ex * ex + ey * ey;
	// t = clamp(dot(p, e), 0, ee) / ee. A point capsule has n = 0; the divisor's floor (FLT_MIN) keeps 0 / 0 out
	// without a select and differs from ee only for segments shorter than 1e-19.
	float n = glm_min( glm_max( px * ex + py * ey, 0.0f ), ee );
	float t = n / glm_max( ee, FLT_MIN );
	float dx = px - t * ex, dy = py - t * ey;
	float r = a.radius + b.radius;
	return dx * dx + dy * dy <= r * r;
}

KCC_INLINE bool kcc_circle_overlaps_aabb( kcc_circle a, kcc_aabb b )
{
	// Clamp the centre into the box; a NaN in the centre, max or radius reaches the distance, so the test fails.
	// A NaN min is dropped by the clamp (max keeps its second operand), so min - min (0, or NaN) is added in: one
	// comparison, where three combined made a dependency chain that stalls loops streaming their pairs from memory.
	float cx = glm_min( glm_max( a.center.x, b.min.x ), b.max.x );
	float cy = glm_min( glm_max( a.center.y, b.min.y ), b.max.y );
	float dx = a.center.x - cx, dy = a.center.y - cy;
	float nan_min = ( b.min.x - b.min.x ) + ( b.min.y - b.min.y );
	return dx * dx + dy * dy + nan_min <= a.radius * a.radius;
}

KCC_INLINE bool kcc_circle_overlaps_obb( kcc_circle a, kcc_obb b )
{
	// Into the box frame, fold into the first quadrant (the box is symmetric), then as an AABB at the origin: the
	// excess over the half extent is max(0, e) for e = |l| - h, as 0.5 (e + |e|): a NaN stays NaN (the test fails),
	// past 2^127 it is Inf where e is not, but both square to Inf; no select, so loops over it vectorise.
	float dx = a.center.x - b.center.x, dy = a.center.y - b.center.y;
	float ex = fabsf( b.rotation.x * dx + b.rotation.y * dy ) - b.half_extents.x;
	float ey = fabsf( b.rotation.x * dy - b.rotation.y * dx ) - b.half_extents.y;
	float ux = 0.5f * ( ex + fabsf( ex ) ), uy = 0.5f * ( ey + fabsf( ey ) );
	return ux * ux + uy * uy <= a.radius * a.radius;
}

KCC_INLINE bool kcc_aabb_overlaps_aabb( kcc_aabb a, kcc_aabb b )
{
	return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

/// Rect vs rect, each as its corner with the smallest coordinates and a size; closed intervals (touching overlaps).
KCC_INLINE bool kcc_rect_overlaps_rect( float ax, float ay, float aw, float ah, float bx, float by, float bw, float bh )
{
	return ax <= bx + bw && bx <= ax + aw && ay <= by + bh && by <= ay + ah;
}

/// Circle against a sector of any opening: the centre, in the sector's frame and mirrored onto the upper half
/// (x along the direction, y = |across|), is either inside the opening (test the distance to the apex against
/// the summed radii) or nearest to the upper edge segment (test the distance to it against the circle radius).
/// A NULL sector is never hit.
KCC_INLINE bool kcc_circle_overlaps_sector( kcc_circle a, const kcc_sector* s )
{
	if ( s == NULL )
	{
		return false;
	}
	float dx = a.center.x - s->apex.x, dy = a.center.y - s->apex.y;
	float x = s->direction.x * dx + s->direction.y * dy;
	float y = fabsf( s->direction.x * dy - s->direction.y * dx );
	float c = s->half_angle.x, sn = s->half_angle.y;
	// In the frame of the upper edge u = (c, sn): across > 0 beyond it (outside the opening) and along is the
	// projection on it, so the squared distance to the edge segment [0, radius] u is across^2 + over^2 with
	// over = along - clamp(along, 0, radius) (fewer operations than forming the closest point).
	float across = c * y - sn * x;
	float along = c * x + sn * y;
	float over = along - glm_min( glm_max( along, 0.0f ), s->radius );
	float rr = s->radius + a.radius;
	bool inside_angle = across <= 0.0f;
	bool near_apex = x * x + y * y <= rr * rr;
	bool near_edge = across * across + over * over <= a.radius * a.radius;
	// bitwise, not short-circuit: no branches
	return ( inside_angle & near_apex ) | near_edge;
}

KCC_INLINE bool kcc_sector_contains_point( const kcc_sector* s, vec2s p )
{
	kcc_circle point = { p, 0.0f };
	return kcc_circle_overlaps_sector( point, s );
}

/// Circle against a convex polygon with rounding radius: no allocation, no angles. A NULL polygon is never hit.
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

/// An attack volume: a box in front of a character at origin (ground plane) and height z, facing the
/// ground-plane angle facing; it spans length forward, width across (centred), height up from z - drop.
KCC_API kcc_volume kcc_make_attack_volume( vec2s origin, float z, float facing, float width, float length,
										   float height, float drop );

/// Point in a turned box, correct at any rotation: point p (x, y ground, z height) in the box of the given centre,
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
