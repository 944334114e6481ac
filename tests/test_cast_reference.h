// SPDX-License-Identifier: MIT
// What the cast tests (test_geometry_cast*.c) judge a cast by, written once: the same cast bit for bit, the
// distance after a move, the closest approach along a path, the tolerance on a fraction, a shape's printout, and an
// exact reference cast for polytope cores in double precision that shares no code with the library.
#pragma once

#include "kcc/geometry.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

// Bit for bit, field by field (signed zeros told apart; the structs' padding bytes are not part of the output).
static inline bool same_float( float a, float b )
{
	return memcmp( &a, &b, sizeof( float ) ) == 0;
}

static inline bool same_cast( kcc_cast_output a, kcc_cast_output b )
{
	return a.hit == b.hit && same_float( a.fraction, b.fraction ) && same_float( a.normal.x, b.normal.x ) &&
		   same_float( a.normal.y, b.normal.y ) && same_float( a.point.x, b.point.x ) &&
		   same_float( a.point.y, b.point.y );
}

static inline void print_shape( const kcc_shape* s )
{
	const float* f = (const float*)&s->circle;
	int n = (int)( ( sizeof( kcc_shape ) - offsetof( kcc_shape, circle ) ) / sizeof( float ) );
	print_error( "shape type %d:", s->type );
	for ( int i = 0; i < n && i < 40; ++i )
	{
		print_error( " %.9g", f[i] );
	}
	print_error( "\n" );
}

// The distance between the target and the moving shape moved by offset.
static inline float distance_after( const kcc_shape* moving, vec2s offset, const kcc_shape* target )
{
	kcc_shape moved = kcc_shape_translate( moving, offset );
	return kcc_distance( &moved, target ).distance;
}

// The same at fraction t of translation.
static inline float distance_at( const kcc_shape* moving, vec2s translation, float t, const kcc_shape* target )
{
	return distance_after( moving, kcc_v2( t * translation.x, t * translation.y ), target );
}

// The smallest distance along the path: convex in t for convex shapes, so a ternary search finds it (the ends
// checked too).
static inline float closest_approach( const kcc_shape* a, vec2s d, const kcc_shape* b )
{
	double lo = 0.0, hi = 1.0;
	for ( int k = 0; k < 80; ++k )
	{
		double m1 = lo + ( hi - lo ) / 3.0, m2 = hi - ( hi - lo ) / 3.0;
		if ( distance_at( a, d, (float)m1, b ) <= distance_at( a, d, (float)m2, b ) )
		{
			hi = m2;
		}
		else
		{
			lo = m1;
		}
	}
	float lowest = distance_at( a, d, (float)( 0.5 * ( lo + hi ) ), b );
	lowest = fminf( lowest, distance_at( a, d, 0.0f, b ) );
	return fminf( lowest, distance_at( a, d, 1.0f, b ) );
}

// The same hit, at fractions within 2 tolerance + tolerance / closing speed (the reference's normal against the
// motion, at least 1e-3): a glancing contact's fraction is ill-conditioned.
static inline bool fraction_agrees( vec2s d, kcc_cast_output fast, kcc_cast_output exact, float tolerance )
{
	if ( fast.hit != exact.hit )
	{
		return false;
	}
	float closing = -( exact.normal.x * d.x + exact.normal.y * d.y );
	float allowed = 2.0f * tolerance + tolerance / ( closing > 1.0e-3f ? closing : 1.0e-3f );
	return fast.hit == false || fabsf( fast.fraction - exact.fraction ) <= allowed;
}

// The core points of a shape that has a polytope core (every kind but the sector), counter-clockwise, and its radius.
static inline int core_points( const kcc_shape* s, vec2s* points, float* radius )
{
	*radius = 0.0f;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			points[0] = s->circle.center;
			*radius = s->circle.radius;
			return 1;
		case KCC_SHAPE_CAPSULE:
			points[0] = s->capsule.a;
			points[1] = s->capsule.b;
			*radius = s->capsule.radius;
			return 2;
		case KCC_SHAPE_AABB:
			points[0] = s->aabb.min;
			points[1] = kcc_v2( s->aabb.max.x, s->aabb.min.y );
			points[2] = s->aabb.max;
			points[3] = kcc_v2( s->aabb.min.x, s->aabb.max.y );
			return 4;
		case KCC_SHAPE_OBB:
		{
			vec2s c = s->obb.center, r = s->obb.rotation, h = s->obb.half_extents;
			for ( int i = 0; i < 4; ++i )
			{
				float x = ( i == 1 || i == 2 ) ? h.x : -h.x, y = i >= 2 ? h.y : -h.y;
				points[i] = kcc_v2( c.x + r.x * x - r.y * y, c.y + r.y * x + r.x * y );
			}
			return 4;
		}
		case KCC_SHAPE_POLYGON:
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				points[i] = s->polygon.vertices[i];
			}
			*radius = s->polygon.radius;
			return s->polygon.count;
		default:
			fail_msg( "core_points: kind %d has no polytope core", (int)s->type );
			return 0;
	}
}

// The gap along n (out of the target toward the mover) between target and mover moved by t * d: the smallest n . x
// over the mover minus the largest over the target, radii included. n is a contact normal at a touching contact
// exactly when this is >= 0 (within rounding): the line through the contact with that normal separates them.
static inline double separates_at( const kcc_shape* moving, vec2s d, float t, const kcc_shape* target, vec2s n )
{
	vec2s pa[KCC_MAX_POLYGON_VERTICES], pb[KCC_MAX_POLYGON_VERTICES];
	float ra, rb;
	int na = core_points( moving, pa, &ra ), nb = core_points( target, pb, &rb );
	double lowest = DBL_MAX, highest = -DBL_MAX;
	for ( int i = 0; i < na; ++i )
	{
		double x = (double)pa[i].x + (double)t * d.x, y = (double)pa[i].y + (double)t * d.y;
		lowest = fmin( lowest, (double)n.x * x + (double)n.y * y );
	}
	for ( int j = 0; j < nb; ++j )
	{
		highest = fmax( highest, (double)n.x * pb[j].x + (double)n.y * pb[j].y );
	}
	return ( lowest - ra ) - ( highest + rb );
}

// ---------------------------------------------------------------------------------------------------------------
// Exact reference cast of polytope cores, in double: the moving core a + t d comes within R of the target's core b
// first where a vertex of one meets an edge or a vertex of the other (the first contact of two convex polygons in
// translation is always of that kind), so the earliest of those pair times is the time of impact.

typedef struct ref_hit
{
	double t;      // earliest time in [0, 1] found so far (2 when none)
	double nx, ny; // unit normal out of b toward a at that contact
} ref_hit;

// The point p moving by d against the segment q0 q1 (or the point q0 when q1 == q0), rounded by R; p starts
// farther than R. flip: the roles are swapped (b's vertex moving by -d against a's edge), so the normal is reversed.
static inline void ref_sweep_point( double px, double py, double dx, double dy, double q0x, double q0y, double q1x,
									double q1y, double R, bool flip, ref_hit* best )
{
	double sign = flip ? -1.0 : 1.0;
	// The end discs: |p + t d - q| = R, the smaller root.
	for ( int k = 0; k < 2; ++k )
	{
		double qx = k == 0 ? q0x : q1x, qy = k == 0 ? q0y : q1y;
		double mx = px - qx, my = py - qy;
		double a = dx * dx + dy * dy, b = mx * dx + my * dy, c = mx * mx + my * my - R * R;
		double disc = b * b - a * c;
		if ( a > 0.0 && disc >= 0.0 && b < 0.0 )
		{
			double t = c / ( -b + sqrt( disc ) );
			if ( t >= 0.0 && t < best->t )
			{
				double cx = mx + t * dx, cy = my + t * dy, len = hypot( cx, cy );
				best->t = t;
				best->nx = len > 0.0 ? sign * cx / len : 0.0;
				best->ny = len > 0.0 ? sign * cy / len : 0.0;
			}
		}
	}
	// The flat sides: the lines at distance R from the segment's line, within its extent.
	double ex = q1x - q0x, ey = q1y - q0y, ll = ex * ex + ey * ey;
	if ( ll == 0.0 )
	{
		return;
	}
	// p reaches the side it starts on (within the lines it is past an end: an end disc comes first).
	double len = sqrt( ll ), mx = -ey / len, my = ex / len;
	double s0 = mx * ( px - q0x ) + my * ( py - q0y ), sd = mx * dx + my * dy;
	double side = s0 > 0.0 ? 1.0 : -1.0;
	if ( fabs( s0 ) <= R || sd == 0.0 )
	{
		return;
	}
	double t = ( side * R - s0 ) / sd;
	double cx = px + t * dx - q0x, cy = py + t * dy - q0y;
	double u = ( ex * cx + ey * cy ) / ll;
	if ( t >= 0.0 && t < best->t && u >= 0.0 && u <= 1.0 )
	{
		best->t = t;
		best->nx = sign * side * mx;
		best->ny = sign * side * my;
	}
}

// Squared distance from p to the segment q0 q1, and the closest point.
static inline double ref_point_segment( double px, double py, double q0x, double q0y, double q1x, double q1y,
										double* cx, double* cy )
{
	double ex = q1x - q0x, ey = q1y - q0y, ll = ex * ex + ey * ey;
	double u = ll > 0.0 ? ( ( px - q0x ) * ex + ( py - q0y ) * ey ) / ll : 0.0;
	u = u < 0.0 ? 0.0 : ( u > 1.0 ? 1.0 : u );
	*cx = q0x + u * ex;
	*cy = q0y + u * ey;
	return ( px - *cx ) * ( px - *cx ) + ( py - *cy ) * ( py - *cy );
}

// Whether p lies inside or on the counter-clockwise polygon (n >= 3 points).
static inline bool ref_inside( double px, double py, const vec2s* q, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		vec2s u = q[i], v = q[i + 1 < n ? i + 1 : 0];
		if ( ( (double)v.x - u.x ) * ( py - u.y ) - ( (double)v.y - u.y ) * ( px - u.x ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Distance between the cores a (moved by (ox, oy)) and b: 0 when they overlap; n: unit, out of b toward a.
static inline double ref_core_distance( const vec2s* a, int na, double ox, double oy, const vec2s* b, int nb,
										double* nx, double* ny )
{
	double best = DBL_MAX;
	*nx = 0.0;
	*ny = 0.0;
	for ( int pass = 0; pass < 2; ++pass )
	{
		const vec2s* p = pass == 0 ? a : b;
		const vec2s* q = pass == 0 ? b : a;
		int np = pass == 0 ? na : nb, nq = pass == 0 ? nb : na;
		double shift = pass == 0 ? 1.0 : -1.0; // points of p in b's frame: a's moved by o, or b's moved by -o
		for ( int i = 0; i < np; ++i )
		{
			double px = p[i].x + shift * ox, py = p[i].y + shift * oy;
			if ( nq >= 3 && ref_inside( px, py, q, nq ) )
			{
				return 0.0;
			}
			for ( int j = 0; j < ( nq == 2 ? 1 : nq ); ++j )
			{
				vec2s u = q[j], v = q[nq == 1 ? 0 : ( j + 1 < nq ? j + 1 : 0 )];
				double cx, cy;
				double dd = ref_point_segment( px, py, u.x, u.y, v.x, v.y, &cx, &cy );
				if ( dd < best * best || best == DBL_MAX )
				{
					best = sqrt( dd );
					double len = best > 0.0 ? best : 1.0;
					*nx = shift * ( px - cx ) / len;
					*ny = shift * ( py - cy ) / len;
				}
			}
		}
	}
	// Crossing edges (no vertex inside: two segments, or a segment through a polygon) meet at distance 0 too.
	for ( int i = 0; i < ( na == 2 ? 1 : na ) && na >= 2; ++i )
	{
		double a0x = a[i].x + ox, a0y = a[i].y + oy;
		double a1x = a[( i + 1 ) % na].x + ox, a1y = a[( i + 1 ) % na].y + oy;
		for ( int j = 0; j < ( nb == 2 ? 1 : nb ) && nb >= 2; ++j )
		{
			vec2s b0 = b[j], b1 = b[( j + 1 ) % nb];
			double d1 = ( a1x - a0x ) * ( b0.y - a0y ) - ( a1y - a0y ) * ( b0.x - a0x );
			double d2 = ( a1x - a0x ) * ( b1.y - a0y ) - ( a1y - a0y ) * ( b1.x - a0x );
			double d3 = ( (double)b1.x - b0.x ) * ( a0y - b0.y ) - ( (double)b1.y - b0.y ) * ( a0x - b0.x );
			double d4 = ( (double)b1.x - b0.x ) * ( a1y - b0.y ) - ( (double)b1.y - b0.y ) * ( a1x - b0.x );
			if ( ( ( d1 < 0.0 && d2 > 0.0 ) || ( d1 > 0.0 && d2 < 0.0 ) ) && ( ( d3 < 0.0 && d4 > 0.0 ) || ( d3 > 0.0 && d4 < 0.0 ) ) )
			{
				return 0.0;
			}
		}
	}
	return best;
}

// The cast of a's core (radius ra) along d against b's core (radius rb), stopping at distance radii + separation:
// kcc_shape_cast_separation's answer in exact arithmetic on the given floats (fraction and normal; at the start,
// the separating normal when within the separation but not overlapping, zero when overlapping).
static inline kcc_cast_output ref_cast( const kcc_shape* moving, vec2s d, const kcc_shape* target, float separation )
{
	vec2s a[KCC_MAX_POLYGON_VERTICES], b[KCC_MAX_POLYGON_VERTICES];
	float ra, rb;
	int na = core_points( moving, a, &ra ), nb = core_points( target, b, &rb );
	double radii = (double)ra + rb, R = radii + separation;
	kcc_cast_output out = { .fraction = 1.0f };
	double nx, ny;
	double start = ref_core_distance( a, na, 0.0, 0.0, b, nb, &nx, &ny );
	if ( start <= R )
	{
		out.hit = true;
		out.fraction = 0.0f;
		out.normal = start > radii ? kcc_v2( (float)nx, (float)ny ) : kcc_v2( 0.0f, 0.0f );
		return out;
	}
	ref_hit best = { 2.0, 0.0, 0.0 };
	for ( int i = 0; i < na; ++i )
	{
		for ( int j = 0; j < ( nb <= 2 ? 1 : nb ); ++j )
		{
			vec2s q0 = b[j], q1 = b[nb == 1 ? 0 : ( j + 1 < nb ? j + 1 : 0 )];
			ref_sweep_point( a[i].x, a[i].y, d.x, d.y, q0.x, q0.y, q1.x, q1.y, R, false, &best );
		}
	}
	for ( int j = 0; j < nb; ++j )
	{
		for ( int i = 0; i < ( na <= 2 ? 1 : na ) && na >= 2; ++i )
		{
			vec2s p0 = a[i], p1 = a[i + 1 < na ? i + 1 : 0];
			ref_sweep_point( b[j].x, b[j].y, -(double)d.x, -(double)d.y, p0.x, p0.y, p1.x, p1.y, R, true, &best );
		}
	}
	if ( best.t <= 1.0 )
	{
		out.hit = true;
		out.fraction = (float)best.t;
		out.normal = kcc_v2( (float)best.nx, (float)best.ny );
	}
	return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Exact reference cast of a sector (any opening) against a polytope core, in double. The sector's boundary is its arc
// and two edge segments, the polytope's its edges and vertices rounded by R (its radius plus the separation); the
// first contact is a vertex of one on the other's boundary (a polytope vertex on the arc or an edge, a sector vertex
// on a rounded edge) or the arc tangent to a rounded edge.

typedef struct ref_sector
{
	double ax, ay; // apex
	double ux, uy; // unit direction
	double c, s;   // cos and sin of half the opening
	double r;      // radius
} ref_sector;

static inline ref_sector ref_sector_of( const kcc_sector* k )
{
	ref_sector out;
	double length = hypot( (double)k->direction.x, (double)k->direction.y );
	out.ax = k->apex.x;
	out.ay = k->apex.y;
	out.ux = k->direction.x / length;
	out.uy = k->direction.y / length;
	out.c = cos( 0.5 * (double)k->angle );
	out.s = sin( 0.5 * (double)k->angle );
	out.r = k->radius;
	return out;
}

// Whether direction (x, y) lies within the sector's opening (angle to the axis at most half the opening).
static inline bool ref_in_opening( const ref_sector* k, double x, double y )
{
	double along = k->ux * x + k->uy * y, across = fabs( k->ux * y - k->uy * x );
	return k->c * across - k->s * along <= 0.0; // cross( (c, s), (along, |across|) ) <= 0
}

// Which feature pair gave a reference contact (for the tests' statistics).
enum
{
	REF_ARC_VERTEX,
	REF_ARC_EDGE,
	REF_EDGE_VERTEX,
	REF_VERTEX_EDGE,
	REF_CONTACT_KINDS
};

// The sector moving by d against the polytope core q (nq points, counter-clockwise), rounded by R. Returns the hit
// (normal out of the polytope toward the sector); *kind tells the contact's features. The start must be apart.
static inline kcc_cast_output ref_cast_sector( const kcc_sector* sector, vec2s d, const vec2s* q, int nq, double R,
											   int* kind )
{
	ref_sector k = ref_sector_of( sector );
	double dx = d.x, dy = d.y;
	double lx = k.c * k.ux - k.s * k.uy, ly = k.s * k.ux + k.c * k.uy;  // left edge direction
	double rx = k.c * k.ux + k.s * k.uy, ry = -k.s * k.ux + k.c * k.uy; // right edge direction
	double vx[3] = { k.ax, k.ax + k.r * lx, k.ax + k.r * rx }, vy[3] = { k.ay, k.ay + k.r * ly, k.ay + k.r * ry };
	ref_hit best = { 2.0, 0.0, 0.0 };
	int best_kind = -1;
	for ( int i = 0; i < nq; ++i )
	{
		// The polytope's vertex (moving by -d relative to the sector) against the arc: |q - t d - apex| = r + R, the
		// smaller root first, within the opening.
		double mx = q[i].x - k.ax, my = q[i].y - k.ay, rr = k.r + R;
		double a = dx * dx + dy * dy, b = -( mx * dx + my * dy ), c = mx * mx + my * my - rr * rr;
		double disc = b * b - a * c;
		if ( a > 0.0 && disc >= 0.0 )
		{
			double root = sqrt( disc );
			for ( int sign = -1; sign <= 1; sign += 2 )
			{
				double t = ( -b + sign * root ) / a;
				double px = mx - t * dx, py = my - t * dy;
				if ( t >= 0.0 && t < best.t && ref_in_opening( &k, px, py ) )
				{
					double len = hypot( px, py );
					best.t = t;
					best.nx = -px / len; // from the polytope's vertex toward the apex
					best.ny = -py / len;
					best_kind = REF_ARC_VERTEX;
					break;
				}
			}
		}
		// ... against the sector's two edges.
		for ( int e = 1; e <= 2; ++e )
		{
			double before = best.t;
			ref_sweep_point( q[i].x, q[i].y, -dx, -dy, vx[0], vy[0], vx[e], vy[e], R, true, &best );
			best_kind = best.t < before ? REF_EDGE_VERTEX : best_kind;
		}
	}
	int edges = nq == 1 ? 1 : ( nq == 2 ? 1 : nq );
	for ( int j = 0; j < edges; ++j )
	{
		vec2s q0 = q[j], q1 = q[nq == 1 ? 0 : ( j + 1 < nq ? j + 1 : 0 )];
		// The sector's apex and arc ends against the rounded edge.
		for ( int v = 0; v < 3; ++v )
		{
			double before = best.t;
			ref_sweep_point( vx[v], vy[v], dx, dy, q0.x, q0.y, q1.x, q1.y, R, false, &best );
			best_kind = best.t < before ? REF_VERTEX_EDGE : best_kind;
		}
		// The arc tangent to the edge's offset line (both sides of a segment): the arc's point nearest the line is
		// apex - r m for the edge's outward normal m; it must lie in the opening and over the edge.
		double ex = (double)q1.x - q0.x, ey = (double)q1.y - q0.y, ll = ex * ex + ey * ey;
		if ( ll == 0.0 )
		{
			continue;
		}
		double len = sqrt( ll );
		for ( int side = ( nq == 2 ? -1 : 1 ); side <= 1; side += 2 )
		{
			double mx = side * ey / len, my = -side * ex / len; // outward for counter-clockwise polygons (side 1)
			double gap0 = mx * ( k.ax - q0.x ) + my * ( k.ay - q0.y ), closing = mx * dx + my * dy;
			if ( closing >= 0.0 || ref_in_opening( &k, -mx, -my ) == false )
			{
				continue;
			}
			double t = ( k.r + R - gap0 ) / closing;
			double tx = k.ax + t * dx - k.r * mx - q0.x, ty = k.ay + t * dy - k.r * my - q0.y;
			double u = ( tx * ex + ty * ey ) / ll;
			if ( t >= 0.0 && t < best.t && u >= 0.0 && u <= 1.0 )
			{
				best.t = t;
				best.nx = mx;
				best.ny = my;
				best_kind = REF_ARC_EDGE;
			}
		}
	}
	kcc_cast_output out = { .fraction = 1.0f };
	*kind = best_kind;
	if ( best.t <= 1.0 )
	{
		out.hit = true;
		out.fraction = (float)best.t;
		out.normal = kcc_v2( (float)best.nx, (float)best.ny );
	}
	return out;
}
