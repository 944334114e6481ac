// SPDX-License-Identifier: MIT
// An independent, slow reference for the geometry tests. Header only (every function is static inline), so any
// test file can include it. It never calls the library: it works in double precision from the definitions of the
// shapes, so a bug in geometry/ cannot hide in the reference too.
//
// What it gives:
// - kcc_ref_shape: a shape described in double precision. Build it from the same float parameters that are passed
//   to the kcc_make_* function under test (kcc_ref_circle, kcc_ref_capsule, kcc_ref_aabb, kcc_ref_obb,
//   kcc_ref_box, kcc_ref_polygon, kcc_ref_sector), then move it with kcc_ref_transform (same meaning as
//   kcc_shape_transform: rotate about the origin, then translate). kcc_ref_from_shape reads a kcc_shape's fields
//   (for shapes the test did not build itself, e.g. hand-corrupted structs must not be passed: valid shapes only).
// - kcc_ref_sdf( s, x, y ): exact signed distance from the definition: < 0 inside (minus the distance to the
//   boundary), 0 on it, > 0 outside (the distance to the closed set). Per kind: circle |p - c| - r; capsule
//   segment distance - r; AABB, OBB and rounded box: box distance in the box frame (- radius); polygon: convex
//   polygon distance (inside: minus the nearest edge line) - radius; sector of any opening: the exact distance to
//   the closed set { |q| <= R, angle to the direction <= opening / 2 } (arc and the two edge segments), not the
//   max of a disc and a wedge distance (that is wrong near the corners).
// - kcc_ref_sample_boundary( s, h, xs, ys, capacity ): points on the boundary, at most h apart along it. It uses a
//   different construction from the SDF (offset edges and corner arcs of the core hull; arc plus edges for a
//   sector), so the two check each other (kcc_ref_self_check).
// - kcc_ref_separation( a, b ): a sampled estimate m of the signed separation (> 0: the distance between
//   separated shapes; <= 0: overlapping, minus how deep a boundary point of one lies in the other). It is the
//   minimum of sdf_b over a's boundary samples and sdf_a over b's. The true value m* satisfies
//   m* <= m <= m* + h / 2, so the sign of m is the truth when |m| > h / 2 (the sampling error). Near touching
//   (|m| < a coarse step) it resamples with a fine step.
// - kcc_ref_overlap( a, b, &decided ): the reference overlap. decided is false when |m| < KCC_REF_MARGIN: such
//   pairs are within the margin of touching and property tests must skip them (and count the skips, and assert
//   the skipped fraction is small). Two exact shortcuts save time: bounding discs apart by the margin ->
//   separated; an inner point (kcc_ref_inner_point) deeper than the margin inside the other shape -> overlapping.
// - Float inputs: build the reference from the very floats given to the library. The library rounds (cosf, sinf,
//   normalising in float), the reference does not; KCC_REF_MARGIN (0.003) covers that for coordinates up to ~100.
// - Not thread-safe: kcc_ref_separation and kcc_ref_self_check use static sample buffers.
// - kcc_ref_rng: a small deterministic random generator (splitmix64) for randomised tests.
#pragma once

#include "kcc/geometry.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define KCC_REF_PI 3.14159265358979323846
/// Most core points a reference polygon holds (input clouds up to this size).
#define KCC_REF_MAX_POINTS 64
/// Coarse and fine boundary sampling steps (world units) used by kcc_ref_separation.
#define KCC_REF_COARSE_STEP 0.04
#define KCC_REF_FINE_STEP 0.002
/// Pairs with |separation| below this are "touching" for the reference: undecided (sampling error + float error).
#define KCC_REF_MARGIN 0.003
/// Capacity of the internal sample buffers of kcc_ref_separation (per shape).
#define KCC_REF_MAX_SAMPLES 65536

typedef enum kcc_ref_kind
{
	KCC_REF_CIRCLE,
	KCC_REF_CAPSULE,
	KCC_REF_BOX,     ///< AABB, OBB and rounded box: centre, half extents, rotation, rounding radius
	KCC_REF_POLYGON, ///< convex hull of points, counter-clockwise, plus rounding radius
	KCC_REF_SECTOR,
} kcc_ref_kind;

typedef struct kcc_ref_shape
{
	kcc_ref_kind kind;
	double cx, cy;           ///< circle centre, box centre, sector apex
	double ax, ay, bx, by;   ///< capsule segment
	double hx, hy;           ///< box half extents
	double cosine, sine;     ///< box rotation (local x axis); sector direction (unit)
	double radius;           ///< circle, capsule and rounding radius; sector radius
	double half_opening;     ///< sector: half the full opening angle, radians; >= pi is the full disc
	double half_cos, half_sin; ///< sector: cos and sin of half_opening (cached: the SDF is called millions of times)
	int count;               ///< polygon hull vertices (counter-clockwise)
	double px[KCC_REF_MAX_POINTS], py[KCC_REF_MAX_POINTS];
} kcc_ref_shape;

// ----------------------------------------------------------------------------------------------------------------
// Random numbers

typedef struct kcc_ref_rng
{
	uint64_t state;
} kcc_ref_rng;

static inline uint64_t kcc_ref_next_u64( kcc_ref_rng* rng )
{
	uint64_t z = ( rng->state += 0x9E3779B97F4A7C15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

/// Uniform in [lo, hi), as a float (so the value is exactly what the library sees).
static inline float kcc_ref_uniform( kcc_ref_rng* rng, float lo, float hi )
{
	double u = (double)( kcc_ref_next_u64( rng ) >> 11 ) * ( 1.0 / 9007199254740992.0 );
	return (float)( lo + ( hi - lo ) * u );
}

static inline int kcc_ref_int( kcc_ref_rng* rng, int lo, int hi_inclusive )
{
	return lo + (int)( kcc_ref_next_u64( rng ) % (uint64_t)( hi_inclusive - lo + 1 ) );
}

// ----------------------------------------------------------------------------------------------------------------
// Building reference shapes (from the same float parameters given to the make functions)

static inline kcc_ref_shape kcc_ref_zero( kcc_ref_kind kind )
{
	kcc_ref_shape s;
	memset( &s, 0, sizeof( s ) );
	s.kind = kind;
	s.cosine = 1.0;
	return s;
}

static inline kcc_ref_shape kcc_ref_circle( float cx, float cy, float radius )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_CIRCLE );
	s.cx = cx;
	s.cy = cy;
	s.radius = radius;
	return s;
}

static inline kcc_ref_shape kcc_ref_capsule( float ax, float ay, float bx, float by, float radius )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_CAPSULE );
	s.ax = ax;
	s.ay = ay;
	s.bx = bx;
	s.by = by;
	s.radius = radius;
	return s;
}

static inline kcc_ref_shape kcc_ref_obb( float cx, float cy, float hx, float hy, float angle )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_BOX );
	s.cx = cx;
	s.cy = cy;
	s.hx = hx;
	s.hy = hy;
	s.cosine = cos( (double)angle );
	s.sine = sin( (double)angle );
	return s;
}

static inline kcc_ref_shape kcc_ref_aabb( float min_x, float min_y, float max_x, float max_y )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_BOX );
	s.cx = 0.5 * ( (double)min_x + (double)max_x );
	s.cy = 0.5 * ( (double)min_y + (double)max_y );
	s.hx = 0.5 * ( (double)max_x - (double)min_x );
	s.hy = 0.5 * ( (double)max_y - (double)min_y );
	return s;
}

/// Rounded box centred on the origin (kcc_make_box).
static inline kcc_ref_shape kcc_ref_box( float hx, float hy, float radius )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_BOX );
	s.hx = hx;
	s.hy = hy;
	s.radius = radius;
	return s;
}

static inline double kcc_ref_cross3( double ox, double oy, double ax, double ay, double bx, double by )
{
	return ( ax - ox ) * ( by - oy ) - ( ay - oy ) * ( bx - ox );
}

/// Convex hull (Andrew's monotone chain, counter-clockwise, collinear and duplicate points dropped) of the points,
/// plus the rounding radius. count <= KCC_REF_MAX_POINTS. The hull may have fewer than 3 points (degenerate).
static inline kcc_ref_shape kcc_ref_polygon( const vec2s* points, int count, float radius )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_POLYGON );
	s.radius = radius;
	double x[KCC_REF_MAX_POINTS], y[KCC_REF_MAX_POINTS];
	int n = count < KCC_REF_MAX_POINTS ? count : KCC_REF_MAX_POINTS;
	for ( int i = 0; i < n; ++i )
	{
		x[i] = points[i].x;
		y[i] = points[i].y;
	}
	// insertion sort by (x, y): small n
	for ( int i = 1; i < n; ++i )
	{
		double tx = x[i], ty = y[i];
		int j = i - 1;
		while ( j >= 0 && ( x[j] > tx || ( x[j] == tx && y[j] > ty ) ) )
		{
			x[j + 1] = x[j];
			y[j + 1] = y[j];
			--j;
		}
		x[j + 1] = tx;
		y[j + 1] = ty;
	}
	double hx[2 * KCC_REF_MAX_POINTS + 2], hy[2 * KCC_REF_MAX_POINTS + 2];
	int k = 0;
	for ( int i = 0; i < n; ++i )
	{
		while ( k >= 2 && kcc_ref_cross3( hx[k - 2], hy[k - 2], hx[k - 1], hy[k - 1], x[i], y[i] ) <= 0.0 )
		{
			--k;
		}
		hx[k] = x[i];
		hy[k] = y[i];
		++k;
	}
	for ( int i = n - 2, lower = k + 1; i >= 0; --i )
	{
		while ( k >= lower && kcc_ref_cross3( hx[k - 2], hy[k - 2], hx[k - 1], hy[k - 1], x[i], y[i] ) <= 0.0 )
		{
			--k;
		}
		hx[k] = x[i];
		hy[k] = y[i];
		++k;
	}
	// the last point repeats the first (when n > 1)
	int hull = n > 1 ? k - 1 : n;
	if ( hull > KCC_REF_MAX_POINTS )
	{
		hull = KCC_REF_MAX_POINTS;
	}
	s.count = hull;
	for ( int i = 0; i < hull; ++i )
	{
		s.px[i] = hx[i];
		s.py[i] = hy[i];
	}
	return s;
}

/// Sector: direction need not be unit (normalised here, in double).
static inline kcc_ref_shape kcc_ref_sector( float apex_x, float apex_y, float dir_x, float dir_y, float radius,
											float angle )
{
	kcc_ref_shape s = kcc_ref_zero( KCC_REF_SECTOR );
	s.cx = apex_x;
	s.cy = apex_y;
	double len = sqrt( (double)dir_x * dir_x + (double)dir_y * dir_y );
	s.cosine = dir_x / len;
	s.sine = dir_y / len;
	s.radius = radius;
	s.half_opening = 0.5 * (double)angle;
	s.half_cos = cos( s.half_opening );
	s.half_sin = sin( s.half_opening );
	return s;
}

/// Reference of a valid kcc_shape, from its fields (the polygon's vertices go through the reference hull).
static inline kcc_ref_shape kcc_ref_from_shape( const kcc_shape* shape )
{
	switch ( shape->type )
	{
		case KCC_SHAPE_CIRCLE:
			return kcc_ref_circle( shape->circle.center.x, shape->circle.center.y, shape->circle.radius );
		case KCC_SHAPE_CAPSULE:
			return kcc_ref_capsule( shape->capsule.a.x, shape->capsule.a.y, shape->capsule.b.x, shape->capsule.b.y,
									shape->capsule.radius );
		case KCC_SHAPE_AABB:
			return kcc_ref_aabb( shape->aabb.min.x, shape->aabb.min.y, shape->aabb.max.x, shape->aabb.max.y );
		case KCC_SHAPE_OBB:
			return kcc_ref_obb( shape->obb.center.x, shape->obb.center.y, shape->obb.half_extents.x,
								shape->obb.half_extents.y, shape->obb.angle );
		case KCC_SHAPE_POLYGON:
			return kcc_ref_polygon( shape->polygon.vertices, shape->polygon.count, shape->polygon.radius );
		case KCC_SHAPE_SECTOR:
		default:
			return kcc_ref_sector( shape->sector.apex.x, shape->sector.apex.y, shape->sector.direction.x,
								   shape->sector.direction.y, shape->sector.radius, shape->sector.angle );
	}
}

/// Rotate by angle about the origin, then translate (the meaning of kcc_shape_transform).
static inline kcc_ref_shape kcc_ref_transform( const kcc_ref_shape* s, double tx, double ty, double angle )
{
	double c = cos( angle ), sn = sin( angle );
	kcc_ref_shape r = *s;
#define KCC_REF_MOVE( X, Y )                                                                                       \
	do                                                                                                             \
	{                                                                                                              \
		double x0 = ( X ), y0 = ( Y );                                                                             \
		( X ) = c * x0 - sn * y0 + tx;                                                                             \
		( Y ) = sn * x0 + c * y0 + ty;                                                                             \
	}                                                                                                              \
	while ( 0 )
	KCC_REF_MOVE( r.cx, r.cy );
	KCC_REF_MOVE( r.ax, r.ay );
	KCC_REF_MOVE( r.bx, r.by );
	for ( int i = 0; i < r.count; ++i )
	{
		KCC_REF_MOVE( r.px[i], r.py[i] );
	}
#undef KCC_REF_MOVE
	double rc = c * s->cosine - sn * s->sine, rs = sn * s->cosine + c * s->sine;
	r.cosine = rc;
	r.sine = rs;
	return r;
}

// ----------------------------------------------------------------------------------------------------------------
// Signed distance functions, from the definitions

static inline double kcc_ref_segment_distance( double x, double y, double ax, double ay, double bx, double by )
{
	double ex = bx - ax, ey = by - ay;
	double ee = ex * ex + ey * ey;
	double t = ee > 0.0 ? ( ( x - ax ) * ex + ( y - ay ) * ey ) / ee : 0.0;
	t = t < 0.0 ? 0.0 : ( t > 1.0 ? 1.0 : t );
	return hypot( x - ( ax + t * ex ), y - ( ay + t * ey ) );
}

static inline double kcc_ref_box_sdf( const kcc_ref_shape* s, double x, double y )
{
	double dx = x - s->cx, dy = y - s->cy;
	double lx = fabs( s->cosine * dx + s->sine * dy ) - s->hx;
	double ly = fabs( -s->sine * dx + s->cosine * dy ) - s->hy;
	double outside = hypot( lx > 0.0 ? lx : 0.0, ly > 0.0 ? ly : 0.0 );
	double inside = lx > ly ? lx : ly;
	return ( inside < 0.0 ? inside : 0.0 ) + outside;
}

static inline double kcc_ref_polygon_core_sdf( const kcc_ref_shape* s, double x, double y )
{
	int n = s->count;
	if ( n == 0 )
	{
		return INFINITY;
	}
	if ( n == 1 )
	{
		return hypot( x - s->px[0], y - s->py[0] );
	}
	if ( n == 2 )
	{
		return kcc_ref_segment_distance( x, y, s->px[0], s->py[0], s->px[1], s->py[1] );
	}
	double max_line = -INFINITY, min_segment = INFINITY;
	for ( int i = 0; i < n; ++i )
	{
		int j = i + 1 < n ? i + 1 : 0;
		double ex = s->px[j] - s->px[i], ey = s->py[j] - s->py[i];
		double len = hypot( ex, ey );
		// outward normal of a counter-clockwise edge: right of its direction
		double line = ( ( x - s->px[i] ) * ey - ( y - s->py[i] ) * ex ) / len;
		max_line = line > max_line ? line : max_line;
		double d = kcc_ref_segment_distance( x, y, s->px[i], s->py[i], s->px[j], s->py[j] );
		min_segment = d < min_segment ? d : min_segment;
	}
	// inside a convex polygon the nearest boundary point is the foot on the nearest edge line
	return max_line <= 0.0 ? max_line : min_segment;
}

static inline double kcc_ref_sector_sdf( const kcc_ref_shape* s, double x, double y )
{
	double dx = x - s->cx, dy = y - s->cy;
	double dist = hypot( dx, dy );
	double R = s->radius;
	if ( s->half_opening >= KCC_REF_PI )
	{
		return dist - R; // the full disc: its boundary is the circle alone
	}
	// angle between the direction and p - apex, in [0, pi] (atan2 is exact enough in double; 0 at the apex)
	double along = s->cosine * dx + s->sine * dy;
	double across = s->cosine * dy - s->sine * dx;
	double angle = atan2( fabs( across ), along );
	bool in_angle = angle <= s->half_opening;
	// the two edge segments: apex to apex + R * (direction rotated by +-half_opening)
	double ch = s->half_cos, sh = s->half_sin;
	double lx = s->cosine * ch - s->sine * sh, ly = s->sine * ch + s->cosine * sh;
	double rx = s->cosine * ch + s->sine * sh, ry = s->sine * ch - s->cosine * sh;
	double d_left = kcc_ref_segment_distance( x, y, s->cx, s->cy, s->cx + R * lx, s->cy + R * ly );
	double d_right = kcc_ref_segment_distance( x, y, s->cx, s->cy, s->cx + R * rx, s->cy + R * ry );
	double d_edges = d_left < d_right ? d_left : d_right;
	if ( in_angle && dist <= R )
	{
		double d_arc = R - dist;
		return -( d_arc < d_edges ? d_arc : d_edges );
	}
	// outside: the nearest arc point is radially out when p is within the opening, else an arc end (an edge end)
	if ( in_angle )
	{
		double d_arc = dist - R;
		return d_arc < d_edges ? d_arc : d_edges;
	}
	return d_edges;
}

/// Signed distance from (x, y) to the shape: < 0 inside, > 0 outside.
static inline double kcc_ref_sdf( const kcc_ref_shape* s, double x, double y )
{
	switch ( s->kind )
	{
		case KCC_REF_CIRCLE:
			return hypot( x - s->cx, y - s->cy ) - s->radius;
		case KCC_REF_CAPSULE:
			return kcc_ref_segment_distance( x, y, s->ax, s->ay, s->bx, s->by ) - s->radius;
		case KCC_REF_BOX:
			return kcc_ref_box_sdf( s, x, y ) - s->radius;
		case KCC_REF_POLYGON:
			return kcc_ref_polygon_core_sdf( s, x, y ) - s->radius;
		case KCC_REF_SECTOR:
		default:
			return kcc_ref_sector_sdf( s, x, y );
	}
}

// ----------------------------------------------------------------------------------------------------------------
// Boundary sampling (a different construction from the SDFs)

typedef struct kcc_ref_sampler
{
	double* xs;
	double* ys;
	int count, capacity;
	bool overflow;
} kcc_ref_sampler;

static inline void kcc_ref_emit( kcc_ref_sampler* out, double x, double y )
{
	if ( out->count < out->capacity )
	{
		out->xs[out->count] = x;
		out->ys[out->count] = y;
		out->count += 1;
	}
	else
	{
		out->overflow = true;
	}
}

/// Points on the segment (both ends included), at most h apart.
static inline void kcc_ref_emit_segment( kcc_ref_sampler* out, double ax, double ay, double bx, double by, double h )
{
	double len = hypot( bx - ax, by - ay );
	int steps = (int)ceil( len / h );
	steps = steps < 1 ? 1 : steps;
	for ( int i = 0; i <= steps; ++i )
	{
		double t = (double)i / steps;
		kcc_ref_emit( out, ax + t * ( bx - ax ), ay + t * ( by - ay ) );
	}
}

/// Points on the arc of the circle (cx, cy, r) from angle a0 counter-clockwise by sweep, at most h apart.
static inline void kcc_ref_emit_arc( kcc_ref_sampler* out, double cx, double cy, double r, double a0, double sweep,
									 double h )
{
	int steps = r > 0.0 ? (int)ceil( sweep * r / h ) : 0;
	steps = steps < 1 ? 1 : steps;
	for ( int i = 0; i <= steps; ++i )
	{
		double a = a0 + sweep * i / steps;
		kcc_ref_emit( out, cx + r * cos( a ), cy + r * sin( a ) );
	}
}

/// Boundary of (convex core points, counter-clockwise) + disc of radius r: offset edges and corner arcs.
static inline void kcc_ref_emit_rounded_hull( kcc_ref_sampler* out, const double* px, const double* py, int n,
											  double r, double h )
{
	if ( n == 1 )
	{
		kcc_ref_emit_arc( out, px[0], py[0], r, 0.0, 2.0 * KCC_REF_PI, h );
		return;
	}
	// n == 2 is the segment traversed there and back: edges a->b and b->a, half-circle arcs at both ends.
	for ( int i = 0; i < n; ++i )
	{
		int j = i + 1 < n ? i + 1 : 0;
		int k = j + 1 < n ? j + 1 : 0;
		double ex = px[j] - px[i], ey = py[j] - py[i], len = hypot( ex, ey );
		double nx = ey / len, ny = -ex / len;
		kcc_ref_emit_segment( out, px[i] + r * nx, py[i] + r * ny, px[j] + r * nx, py[j] + r * ny, h );
		// corner arc at vertex j, from this edge's normal to the next edge's normal (counter-clockwise)
		double fx = px[k] - px[j], fy = py[k] - py[j], flen = hypot( fx, fy );
		double mx = fy / flen, my = -fx / flen;
		double a0 = atan2( ny, nx ), a1 = atan2( my, mx );
		double sweep = a1 - a0;
		while ( sweep < 0.0 )
		{
			sweep += 2.0 * KCC_REF_PI;
		}
		if ( n == 2 )
		{
			sweep = KCC_REF_PI;
		}
		if ( r > 0.0 )
		{
			kcc_ref_emit_arc( out, px[j], py[j], r, a0, sweep, h );
		}
	}
}

/// Writes boundary points at most h apart into xs, ys (capacity entries); returns the count, or -1 on overflow.
static inline int kcc_ref_sample_boundary( const kcc_ref_shape* s, double h, double* xs, double* ys, int capacity )
{
	kcc_ref_sampler out = { xs, ys, 0, capacity, false };
	switch ( s->kind )
	{
		case KCC_REF_CIRCLE:
		{
			kcc_ref_emit_rounded_hull( &out, &s->cx, &s->cy, 1, s->radius, h );
			break;
		}
		case KCC_REF_CAPSULE:
		{
			double px[2] = { s->ax, s->bx }, py[2] = { s->ay, s->by };
			bool point = s->ax == s->bx && s->ay == s->by;
			kcc_ref_emit_rounded_hull( &out, px, py, point ? 1 : 2, s->radius, h );
			break;
		}
		case KCC_REF_BOX:
		{
			double ux = s->cosine, uy = s->sine, vx = -s->sine, vy = s->cosine;
			double px[4], py[4];
			double sx[4] = { -1.0, 1.0, 1.0, -1.0 }, sy[4] = { -1.0, -1.0, 1.0, 1.0 };
			for ( int i = 0; i < 4; ++i )
			{
				px[i] = s->cx + sx[i] * s->hx * ux + sy[i] * s->hy * vx;
				py[i] = s->cy + sx[i] * s->hx * uy + sy[i] * s->hy * vy;
			}
			kcc_ref_emit_rounded_hull( &out, px, py, 4, s->radius, h );
			break;
		}
		case KCC_REF_POLYGON:
			kcc_ref_emit_rounded_hull( &out, s->px, s->py, s->count, s->radius, h );
			break;
		case KCC_REF_SECTOR:
		default:
		{
			double dir = atan2( s->sine, s->cosine );
			if ( s->half_opening >= KCC_REF_PI )
			{
				kcc_ref_emit_arc( &out, s->cx, s->cy, s->radius, 0.0, 2.0 * KCC_REF_PI, h );
				break;
			}
			double lo = dir - s->half_opening, hi = dir + s->half_opening;
			kcc_ref_emit_arc( &out, s->cx, s->cy, s->radius, lo, 2.0 * s->half_opening, h );
			kcc_ref_emit_segment( &out, s->cx, s->cy, s->cx + s->radius * cos( lo ), s->cy + s->radius * sin( lo ), h );
			kcc_ref_emit_segment( &out, s->cx, s->cy, s->cx + s->radius * cos( hi ), s->cy + s->radius * sin( hi ), h );
			break;
		}
	}
	return out.overflow ? -1 : out.count;
}

// ----------------------------------------------------------------------------------------------------------------
// Reference overlap

/// Sample buffers (per translation unit): which = 0 .. 3.
static inline double* kcc_ref_buffer( int which )
{
	static double buffers[4][KCC_REF_MAX_SAMPLES];
	return buffers[which];
}

/// Minimum of sdf_b over a's boundary samples and sdf_a over b's, with step h. Returns NAN on sample overflow.
static inline double kcc_ref_separation_step( const kcc_ref_shape* a, const kcc_ref_shape* b, double h )
{
	double *xa = kcc_ref_buffer( 0 ), *ya = kcc_ref_buffer( 1 ), *xb = kcc_ref_buffer( 2 ), *yb = kcc_ref_buffer( 3 );
	int na = kcc_ref_sample_boundary( a, h, xa, ya, KCC_REF_MAX_SAMPLES );
	int nb = kcc_ref_sample_boundary( b, h, xb, yb, KCC_REF_MAX_SAMPLES );
	if ( na < 0 || nb < 0 )
	{
		return NAN;
	}
	double m = INFINITY;
	for ( int i = 0; i < na; ++i )
	{
		double d = kcc_ref_sdf( b, xa[i], ya[i] );
		m = d < m ? d : m;
	}
	for ( int i = 0; i < nb; ++i )
	{
		double d = kcc_ref_sdf( a, xb[i], yb[i] );
		m = d < m ? d : m;
	}
	return m;
}

/// Sampled signed separation (see the top of this file): coarse, then fine near touching.
static inline double kcc_ref_separation( const kcc_ref_shape* a, const kcc_ref_shape* b )
{
	double m = kcc_ref_separation_step( a, b, KCC_REF_COARSE_STEP );
	if ( fabs( m ) < KCC_REF_COARSE_STEP )
	{
		m = kcc_ref_separation_step( a, b, KCC_REF_FINE_STEP );
	}
	return m;
}

/// A point inside the shape (used with the boundary samples: one shape inside the other).
static inline void kcc_ref_inner_point( const kcc_ref_shape* s, double* x, double* y )
{
	switch ( s->kind )
	{
		case KCC_REF_CAPSULE:
			*x = 0.5 * ( s->ax + s->bx );
			*y = 0.5 * ( s->ay + s->by );
			break;
		case KCC_REF_POLYGON:
		{
			double sx = 0.0, sy = 0.0;
			for ( int i = 0; i < s->count; ++i )
			{
				sx += s->px[i];
				sy += s->py[i];
			}
			*x = s->count > 0 ? sx / s->count : 0.0; // the vertex average of a convex polygon is inside it
			*y = s->count > 0 ? sy / s->count : 0.0;
			break;
		}
		case KCC_REF_SECTOR:
			*x = s->cx + 0.5 * s->radius * s->cosine;
			*y = s->cy + 0.5 * s->radius * s->sine;
			break;
		default:
			*x = s->cx; // circle and box centre
			*y = s->cy;
			break;
	}
}

/// A disc (centre, radius) that contains the shape.
static inline void kcc_ref_bounding_disc( const kcc_ref_shape* s, double* x, double* y, double* radius )
{
	switch ( s->kind )
	{
		case KCC_REF_CIRCLE:
			*x = s->cx;
			*y = s->cy;
			*radius = s->radius;
			break;
		case KCC_REF_CAPSULE:
			*x = 0.5 * ( s->ax + s->bx );
			*y = 0.5 * ( s->ay + s->by );
			*radius = 0.5 * hypot( s->bx - s->ax, s->by - s->ay ) + s->radius;
			break;
		case KCC_REF_BOX:
			*x = s->cx;
			*y = s->cy;
			*radius = hypot( s->hx, s->hy ) + s->radius;
			break;
		case KCC_REF_POLYGON:
		{
			kcc_ref_inner_point( s, x, y );
			double r = 0.0;
			for ( int i = 0; i < s->count; ++i )
			{
				double d = hypot( s->px[i] - *x, s->py[i] - *y );
				r = d > r ? d : r;
			}
			*radius = r + s->radius;
			break;
		}
		case KCC_REF_SECTOR:
		default:
			*x = s->cx;
			*y = s->cy;
			*radius = s->radius;
			break;
	}
}

/// Reference overlap: a boundary point of one inside the other, or one's inner point inside the other.
/// *decided is false when the pair is within KCC_REF_MARGIN of touching (the answer is then unreliable).
/// Shortcuts (exact, they only save time): bounding discs apart -> separated; an inner point deep inside the
/// other shape -> overlapping.
static inline bool kcc_ref_overlap( const kcc_ref_shape* a, const kcc_ref_shape* b, bool* decided )
{
	double ax, ay, ar, bx, by, br;
	kcc_ref_bounding_disc( a, &ax, &ay, &ar );
	kcc_ref_bounding_disc( b, &bx, &by, &br );
	if ( hypot( bx - ax, by - ay ) - ar - br >= KCC_REF_MARGIN )
	{
		*decided = true;
		return false;
	}
	double ix, iy;
	kcc_ref_inner_point( a, &ix, &iy );
	double inner = kcc_ref_sdf( b, ix, iy );
	kcc_ref_inner_point( b, &ix, &iy );
	double inner_b = kcc_ref_sdf( a, ix, iy );
	inner = inner < inner_b ? inner : inner_b;
	if ( inner <= -KCC_REF_MARGIN )
	{
		*decided = true;
		return true;
	}
	double m = kcc_ref_separation( a, b );
	m = m < inner ? m : inner;
	*decided = isfinite( m ) && fabs( m ) >= KCC_REF_MARGIN;
	return m <= 0.0;
}

/// Largest |sdf| over the boundary samples and largest error of the SDF against brute force (minimum distance to
/// dense boundary samples, sign from the SDF) at the given probe point. Used by tests to check the reference.
static inline double kcc_ref_self_check( const kcc_ref_shape* s, double probe_x, double probe_y, double h,
										 double* boundary_error )
{
	double *xs = kcc_ref_buffer( 0 ), *ys = kcc_ref_buffer( 1 );
	int n = kcc_ref_sample_boundary( s, h, xs, ys, KCC_REF_MAX_SAMPLES );
	double worst_boundary = n < 0 ? INFINITY : 0.0;
	double nearest = INFINITY;
	for ( int i = 0; i < n; ++i )
	{
		double x = xs[i], y = ys[i];
		double d = fabs( kcc_ref_sdf( s, x, y ) );
		worst_boundary = d > worst_boundary ? d : worst_boundary;
		double e = hypot( x - probe_x, y - probe_y );
		nearest = e < nearest ? e : nearest;
	}
	*boundary_error = worst_boundary;
	return fabs( fabs( kcc_ref_sdf( s, probe_x, probe_y ) ) - nearest );
}
