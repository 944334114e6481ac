// SPDX-License-Identifier: MIT
// The soak's overlap oracle (soak_world.h): double precision, none of the library's geometry.
#include "soak_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double soak_cross( double ax, double ay, double bx, double by )
{
	return ax * by - ay * bx;
}

void soak_core_hull( soak_core* core )
{
	int n = core->count;
	double px[SOAK_MAX_CORE], py[SOAK_MAX_CORE];
	for ( int i = 0; i < n; ++i )
	{
		// insertion sort by x, then y
		int j = i;
		while ( j > 0 && ( px[j - 1] > core->x[i] || ( px[j - 1] == core->x[i] && py[j - 1] > core->y[i] ) ) )
		{
			px[j] = px[j - 1];
			py[j] = py[j - 1];
			--j;
		}
		px[j] = core->x[i];
		py[j] = core->y[i];
	}
	int unique = 0;
	for ( int i = 0; i < n; ++i )
	{
		if ( unique == 0 || px[i] != px[unique - 1] || py[i] != py[unique - 1] )
		{
			px[unique] = px[i];
			py[unique] = py[i];
			unique += 1;
		}
	}
	if ( unique <= 1 )
	{
		core->count = unique;
		if ( unique == 1 )
		{
			core->x[0] = px[0];
			core->y[0] = py[0];
		}
		return;
	}
	// Andrew's monotone chain; collinear points are dropped (cross <= 0 pops).
	double hx[2 * SOAK_MAX_CORE + 1], hy[2 * SOAK_MAX_CORE + 1];
	int k = 0;
	for ( int i = 0; i < unique; ++i )
	{
		while ( k >= 2 && soak_cross( hx[k - 1] - hx[k - 2], hy[k - 1] - hy[k - 2], px[i] - hx[k - 2], py[i] - hy[k - 2] ) <= 0.0 )
		{
			--k;
		}
		hx[k] = px[i];
		hy[k] = py[i];
		++k;
	}
	for ( int i = unique - 2, lower = k + 1; i >= 0; --i )
	{
		while ( k >= lower &&
				soak_cross( hx[k - 1] - hx[k - 2], hy[k - 1] - hy[k - 2], px[i] - hx[k - 2], py[i] - hy[k - 2] ) <= 0.0 )
		{
			--k;
		}
		hx[k] = px[i];
		hy[k] = py[i];
		++k;
	}
	k -= 1; // the last point is the first one again
	if ( k < 2 )
	{
		k = 2; // every point collinear: the two extremes
		hx[1] = px[unique - 1];
		hy[1] = py[unique - 1];
	}
	for ( int i = 0; i < k; ++i )
	{
		core->x[i] = hx[i];
		core->y[i] = hy[i];
	}
	core->count = k;
}

// Closest point of segment ab to p; returns the distance.
static double soak_point_segment( double px, double py, double ax, double ay, double bx, double by, double* qx,
								  double* qy )
{
	double dx = bx - ax, dy = by - ay;
	double len2 = dx * dx + dy * dy;
	double t = 0.0;
	if ( len2 > 0.0 )
	{
		t = ( ( px - ax ) * dx + ( py - ay ) * dy ) / len2;
		t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
	}
	*qx = ax + t * dx;
	*qy = ay + t * dy;
	return hypot( px - *qx, py - *qy );
}

// Distance of segments s (s[0..3] = ax, ay, bx, by) and t, with the closest points (pa on s, pb on t).
static double soak_segment_segment( const double* s, const double* t, double* pa, double* pb )
{
	double d1 = soak_cross( s[2] - s[0], s[3] - s[1], t[0] - s[0], t[1] - s[1] );
	double d2 = soak_cross( s[2] - s[0], s[3] - s[1], t[2] - s[0], t[3] - s[1] );
	double d3 = soak_cross( t[2] - t[0], t[3] - t[1], s[0] - t[0], s[1] - t[1] );
	double d4 = soak_cross( t[2] - t[0], t[3] - t[1], s[2] - t[0], s[3] - t[1] );
	if ( ( ( d1 > 0.0 && d2 < 0.0 ) || ( d1 < 0.0 && d2 > 0.0 ) ) && ( ( d3 > 0.0 && d4 < 0.0 ) || ( d3 < 0.0 && d4 > 0.0 ) ) )
	{
		double u = d1 / ( d1 - d2 );
		pa[0] = pb[0] = t[0] + u * ( t[2] - t[0] );
		pa[1] = pb[1] = t[1] + u * ( t[3] - t[1] );
		return 0.0;
	}
	double qx, qy, best;
	best = soak_point_segment( s[0], s[1], t[0], t[1], t[2], t[3], &qx, &qy );
	pa[0] = s[0], pa[1] = s[1], pb[0] = qx, pb[1] = qy;
	double d = soak_point_segment( s[2], s[3], t[0], t[1], t[2], t[3], &qx, &qy );
	if ( d < best )
	{
		best = d;
		pa[0] = s[2], pa[1] = s[3], pb[0] = qx, pb[1] = qy;
	}
	d = soak_point_segment( t[0], t[1], s[0], s[1], s[2], s[3], &qx, &qy );
	if ( d < best )
	{
		best = d;
		pb[0] = t[0], pb[1] = t[1], pa[0] = qx, pa[1] = qy;
	}
	d = soak_point_segment( t[2], t[3], s[0], s[1], s[2], s[3], &qx, &qy );
	if ( d < best )
	{
		best = d;
		pb[0] = t[2], pb[1] = t[3], pa[0] = qx, pa[1] = qy;
	}
	return best;
}

// Closed point-in-polygon test for a counter-clockwise hull of at least 3 points.
static bool soak_polygon_contains( const soak_core* c, double px, double py )
{
	for ( int i = 0; i < c->count; ++i )
	{
		int j = i + 1 < c->count ? i + 1 : 0;
		if ( soak_cross( c->x[j] - c->x[i], c->y[j] - c->y[i], px - c->x[i], py - c->y[i] ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

// Edge e of a core: a point is one zero-length edge, a segment one edge, a polygon count edges.
static int soak_edge_count( const soak_core* c )
{
	return c->count >= 3 ? c->count : 1;
}

static void soak_edge( const soak_core* c, int e, double* out )
{
	int j = c->count >= 3 ? ( e + 1 < c->count ? e + 1 : 0 ) : c->count - 1;
	out[0] = c->x[e];
	out[1] = c->y[e];
	out[2] = c->x[j];
	out[3] = c->y[j];
}

static void soak_support_range( const soak_core* c, double nx, double ny, double* lo, double* hi )
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for ( int i = 0; i < c->count; ++i )
	{
		double d = c->x[i] * nx + c->y[i] * ny;
		*lo = d < *lo ? d : *lo;
		*hi = d > *hi ? d : *hi;
	}
}

soak_contact soak_core_contact( const soak_core* a, const soak_core* b )
{
	soak_contact k = { 0.0, 0.0, 1.0 };
	bool touching = false;
	for ( int i = 0; a->count >= 3 && i < b->count && touching == false; ++i )
	{
		touching = soak_polygon_contains( a, b->x[i], b->y[i] );
	}
	for ( int i = 0; b->count >= 3 && i < a->count && touching == false; ++i )
	{
		touching = soak_polygon_contains( b, a->x[i], a->y[i] );
	}
	double distance = INFINITY, pa[2] = { 0.0, 0.0 }, pb[2] = { 0.0, 0.0 };
	for ( int i = 0; touching == false && i < soak_edge_count( a ); ++i )
	{
		double s[4];
		soak_edge( a, i, s );
		for ( int j = 0; j < soak_edge_count( b ); ++j )
		{
			double t[4], qa[2], qb[2];
			soak_edge( b, j, t );
			double d = soak_segment_segment( s, t, qa, qb );
			if ( d < distance )
			{
				distance = d;
				pa[0] = qa[0], pa[1] = qa[1], pb[0] = qb[0], pb[1] = qb[1];
			}
		}
	}
	if ( touching == false && distance > 0.0 )
	{
		k.depth = a->radius + b->radius - distance;
		k.nx = ( pa[0] - pb[0] ) / distance;
		k.ny = ( pa[1] - pb[1] ) / distance;
		return k;
	}
	// The cores meet: the shortest way out is along a facet normal of their Minkowski difference, which is an edge
	// normal of a or of b. Both signs of every edge normal are tried (any direction bounds the depth from above).
	double best = INFINITY;
	for ( int pass = 0; pass < 2; ++pass )
	{
		const soak_core* c = pass == 0 ? a : b;
		for ( int e = 0; c->count >= 2 && e < soak_edge_count( c ); ++e )
		{
			double s[4];
			soak_edge( c, e, s );
			double ex = s[2] - s[0], ey = s[3] - s[1];
			double len = hypot( ex, ey );
			if ( len <= 0.0 )
			{
				continue;
			}
			for ( int sign = -1; sign <= 1; sign += 2 )
			{
				double nx = sign * ey / len, ny = -sign * ex / len;
				double alo, ahi, blo, bhi;
				soak_support_range( a, nx, ny, &alo, &ahi );
				soak_support_range( b, nx, ny, &blo, &bhi );
				double overlap = bhi - alo; // how far a must move along n to leave b
				if ( overlap < best )
				{
					best = overlap;
					k.nx = nx;
					k.ny = ny;
				}
			}
		}
	}
	double penetration = best == INFINITY || best < 0.0 ? 0.0 : best;
	k.depth = a->radius + b->radius + penetration;
	return k;
}

void soak_core_extent( const soak_core* core, double ux, double uy, double* lo, double* hi )
{
	soak_support_range( core, ux, uy, lo, hi );
	*lo -= core->radius;
	*hi += core->radius;
}

void soak_core_from_chipmunk( const cpShape* shape, soak_shape_kind kind, soak_core* out )
{
	const cpBody* body = cpShapeGetBody( shape );
	out->count = 0;
	switch ( kind )
	{
		case SOAK_CIRCLE:
		{
			cpVect c = cpBodyLocalToWorld( body, cpCircleShapeGetOffset( shape ) );
			out->x[0] = c.x, out->y[0] = c.y, out->count = 1;
			out->radius = cpCircleShapeGetRadius( shape );
			break;
		}
		case SOAK_SEGMENT:
		{
			cpVect a = cpBodyLocalToWorld( body, cpSegmentShapeGetA( shape ) );
			cpVect b = cpBodyLocalToWorld( body, cpSegmentShapeGetB( shape ) );
			out->x[0] = a.x, out->y[0] = a.y, out->x[1] = b.x, out->y[1] = b.y, out->count = 2;
			out->radius = cpSegmentShapeGetRadius( shape );
			break;
		}
		default:
		{
			int n = cpPolyShapeGetCount( shape );
			if ( n > SOAK_MAX_CORE )
			{
				abort(); // the worlds never build such polygons
			}
			for ( int i = 0; i < n; ++i )
			{
				cpVect v = cpBodyLocalToWorld( body, cpPolyShapeGetVert( shape, i ) );
				out->x[i] = v.x, out->y[i] = v.y;
			}
			out->count = n;
			out->radius = cpPolyShapeGetRadius( shape );
			break;
		}
	}
	soak_core_hull( out );
}

void soak_core_from_character( const kcc_shape* s, vec2s position, soak_core* out )
{
	double px = position.x, py = position.y;
	out->count = 0;
	out->radius = 0.0;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			out->x[0] = px + s->circle.center.x, out->y[0] = py + s->circle.center.y, out->count = 1;
			out->radius = s->circle.radius;
			break;
		case KCC_SHAPE_CAPSULE:
			out->x[0] = px + s->capsule.a.x, out->y[0] = py + s->capsule.a.y;
			out->x[1] = px + s->capsule.b.x, out->y[1] = py + s->capsule.b.y, out->count = 2;
			out->radius = s->capsule.radius;
			break;
		case KCC_SHAPE_AABB:
			out->x[0] = px + s->aabb.min.x, out->y[0] = py + s->aabb.min.y;
			out->x[1] = px + s->aabb.max.x, out->y[1] = py + s->aabb.min.y;
			out->x[2] = px + s->aabb.max.x, out->y[2] = py + s->aabb.max.y;
			out->x[3] = px + s->aabb.min.x, out->y[3] = py + s->aabb.max.y, out->count = 4;
			break;
		case KCC_SHAPE_OBB:
		{
			double c = cos( (double)s->obb.angle ), sn = sin( (double)s->obb.angle );
			double hx = s->obb.half_extents.x, hy = s->obb.half_extents.y;
			static const double sx[4] = { -1.0, 1.0, 1.0, -1.0 }, sy[4] = { -1.0, -1.0, 1.0, 1.0 };
			for ( int i = 0; i < 4; ++i )
			{
				out->x[i] = px + s->obb.center.x + c * sx[i] * hx - sn * sy[i] * hy;
				out->y[i] = py + s->obb.center.y + sn * sx[i] * hx + c * sy[i] * hy;
			}
			out->count = 4;
			break;
		}
		case KCC_SHAPE_POLYGON:
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				out->x[i] = px + s->polygon.vertices[i].x, out->y[i] = py + s->polygon.vertices[i].y;
			}
			out->count = s->polygon.count;
			out->radius = s->polygon.radius;
			break;
		default:
			abort(); // characters are never anything else
	}
	soak_core_hull( out );
}

soak_shape_kind soak_kind_of_character( const kcc_shape* shape )
{
	return shape->type == KCC_SHAPE_CIRCLE ? SOAK_CIRCLE : shape->type == KCC_SHAPE_CAPSULE ? SOAK_SEGMENT : SOAK_POLY;
}

double soak_character_height( const kcc_shape* shape, vec2s up )
{
	soak_core core;
	soak_core_from_character( shape, kcc_v2( 0.0f, 0.0f ), &core );
	double lo, hi;
	soak_core_extent( &core, up.x, up.y, &lo, &hi );
	return hi - lo;
}

bool soak_filter_blocks( cpShapeFilter a, cpShapeFilter b )
{
	bool reject = ( a.group != CP_NO_GROUP && a.group == b.group ) || ( a.categories & b.mask ) == 0 ||
				  ( b.categories & a.mask ) == 0;
	return reject == false;
}

bool soak_one_way_above( const soak_core* character, const soak_core* shape, vec2s up, double cos_floor,
						 double tolerance )
{
	double lo, hi, shape_lo, shape_hi;
	soak_core_extent( character, up.x, up.y, &lo, &hi );
	soak_core_extent( shape, up.x, up.y, &shape_lo, &shape_hi );
	double reach = hi - shape_lo; // past this the character is entirely below the shape
	double scale = hi - lo;
	soak_core moving = *character;
	double t = 0.0;
	// Conservative advancement straight down: the gap is a safe step along any direction.
	for ( int i = 0; i < 20000; ++i )
	{
		soak_contact k = soak_core_contact( &moving, shape );
		if ( k.depth > -1.0e-7 * scale )
		{
			if ( t == 0.0 && k.depth > tolerance )
			{
				return false; // already inside it
			}
			return k.nx * up.x + k.ny * up.y >= cos_floor - 1.0e-5;
		}
		t += -k.depth;
		if ( t > reach )
		{
			return false;
		}
		for ( int v = 0; v < moving.count; ++v )
		{
			moving.x[v] = character->x[v] - t * up.x;
			moving.y[v] = character->y[v] - t * up.y;
		}
	}
	return false;
}

