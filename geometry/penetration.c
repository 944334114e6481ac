// SPDX-License-Identifier: MIT
// Penetration (minimum translation) of two overlapping convex shapes.
//
// With D = core(b) - core(a), translating b by v translates D by v; the cores separate once the origin leaves D.
// Origin outside D (cores disjoint): depth = radii - distance, along the closest point. Origin inside D: the
// depth is the distance from the origin to D's boundary, min over unit u of h_D(u) (D's support function), plus
// the radii, and b moves along -u. For polytopes D is built exactly (edges of both cores in angle order). For a
// sector's core (apex and arc) D's boundary has straight edges (normals of either core) and circular arcs (an arc
// swept by a vertex of the other core, or two arcs summed), so the minimum is one of finitely many directions:
// every edge normal, and from each arc centre to the other core's vertices or arc centre. Exact, no iterations.
#include "internal.h"

#include <float.h>

static kcc_penetration_output kcc_penetration_polytopes( const kcc_proxy* a, const kcc_proxy* b )
{
	kcc_penetration_output out = { 0 };
	kcc_minkowski m;
	kcc_minkowski_difference( a, b, &m );
	float radii = a->radius + b->radius;
	kcc_polytope_closest closest = kcc_polytope_closest_point( m.vertices, m.normals, m.count, kcc_v2( 0.0f, 0.0f ) );
	if ( closest.distance > 0.0f )
	{
		if ( closest.distance > radii )
		{
			return out;
		}
		out.overlapping = true;
		out.depth = radii - closest.distance;
		out.normal = glms_vec2_negate( kcc_minkowski_normal( &m, &closest ) ); // b moves away from a
		return out;
	}
	out.overlapping = true;
	out.depth = closest.depth + radii;
	// A single point (coincident point cores) has no edge: the documented default (0, 1) is in normals[0].
	out.normal = m.count == 1 ? m.normals[0] : glms_vec2_negate( m.normals[closest.edge] );
	return out;
}

// h_D(u) for D = core(b) - core(a).
static float kcc_difference_support( const kcc_proxy* a, const kcc_proxy* b, vec2s u )
{
	vec2s sb = kcc_proxy_support( b, u );
	vec2s sa = kcc_proxy_support( a, glms_vec2_negate( u ) );
	return glms_vec2_dot( glms_vec2_sub( sb, sa ), u );
}

typedef struct kcc_axis_search
{
	const kcc_proxy* a;
	const kcc_proxy* b;
	vec2s best_axis;
	float best_value;
} kcc_axis_search;

static void kcc_try_axis( kcc_axis_search* search, vec2s u )
{
	// Scaled before normalising (kcc_unit_or): a difference of nearly coincident points has a denormal squared
	// length, and dividing by its square root gives no unit vector.
	u = kcc_unit_or( u, kcc_v2( 0.0f, 0.0f ) );
	if ( u.x == 0.0f && u.y == 0.0f )
	{
		return;
	}
	float value = kcc_difference_support( search->a, search->b, u );
	if ( value < search->best_value )
	{
		search->best_value = value;
		search->best_axis = u;
	}
}

static int kcc_proxy_edge_count( const kcc_proxy* p )
{
	if ( p->curved )
	{
		return 2;
	}
	return p->count == 1 ? 0 : p->count;
}

static kcc_penetration_output kcc_penetration_curved( const kcc_proxy* a, const kcc_proxy* b )
{
	kcc_penetration_output out = { 0 };
	float radii = a->radius + b->radius;
	kcc_gjk_output g = kcc_gjk_distance( a, kcc_v2( 0.0f, 0.0f ), b );
	if ( g.distance > 0.0f )
	{
		if ( g.distance > radii )
		{
			return out;
		}
		out.overlapping = true;
		out.depth = radii - g.distance;
		out.normal = kcc_unit_or( glms_vec2_sub( g.point_b, g.point_a ), kcc_v2( 0.0f, 1.0f ) ); // denormal distances too
		return out;
	}

	kcc_axis_search search = { a, b, kcc_v2( 0.0f, -1.0f ), FLT_MAX };
	int edges_a = kcc_proxy_edge_count( a );
	for ( int i = 0; i < edges_a; ++i )
	{
		kcc_try_axis( &search, glms_vec2_negate( a->normals[i] ) );
	}
	int edges_b = kcc_proxy_edge_count( b );
	for ( int i = 0; i < edges_b; ++i )
	{
		kcc_try_axis( &search, b->normals[i] );
	}
	if ( b->curved )
	{
		for ( int i = 0; i < a->count; ++i )
		{
			kcc_try_axis( &search, glms_vec2_sub( a->points[i], b->points[0] ) );
		}
	}
	if ( a->curved )
	{
		for ( int i = 0; i < b->count; ++i )
		{
			kcc_try_axis( &search, glms_vec2_sub( a->points[0], b->points[i] ) );
		}
	}
	if ( search.best_value == FLT_MAX )
	{
		search.best_value = 0.0f;
	}
	float depth = search.best_value + radii;
	out.overlapping = depth >= 0.0f;
	out.depth = depth > 0.0f ? depth : 0.0f;
	out.normal = out.overlapping ? glms_vec2_negate( search.best_axis ) : kcc_v2( 0.0f, 0.0f );
	return out;
}

kcc_penetration_output kcc_penetration( const kcc_shape* a, const kcc_shape* b )
{
	// One notion of validity for every query: exactly what kcc_shape_is_valid rejects (convexity included).
	bool valid_a = kcc_shape_is_valid( a ), valid_b = kcc_shape_is_valid( b );
	KCC_ASSERT( valid_a, "kcc_penetration: shape a is invalid" );
	KCC_ASSERT( valid_b, "kcc_penetration: shape b is invalid" );
	if ( valid_a == false || valid_b == false )
	{
		kcc_penetration_output empty = { 0 };
		return empty;
	}
	return kcc_penetration_trusted( a, b );
}

kcc_penetration_output kcc_penetration_trusted( const kcc_shape* a, const kcc_shape* b )
{
	kcc_penetration_output out = { 0 };
	kcc_proxy pa[KCC_MAX_PROXIES], pb[KCC_MAX_PROXIES];
	int na = kcc_make_proxies( a, pa );
	int nb = kcc_make_proxies( b, pb );
	if ( na == 0 || nb == 0 )
	{
		return out; // out of range (KCC_MAX_MAGNITUDE)
	}
	if ( na > 1 || nb > 1 )
	{
		// A sector wider than pi is not convex: no single minimum translation is defined here.
		out.overlapping = kcc_overlap( a, b );
		return out;
	}
	if ( pa->curved || pb->curved )
	{
		return kcc_penetration_curved( pa, pb );
	}
	return kcc_penetration_polytopes( pa, pb );
}

// The separation along the (nearly unit) axis u of the core points from the polygon's vertices, both measured from
// the polygon's vertex v: a lower bound of the distance between them.
static float kcc_separation_along( vec2s u, vec2s v, const kcc_polygon* polygon, const vec2s* points, int count )
{
	float low = FLT_MAX, high = -FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		float d = glms_vec2_dot( u, glms_vec2_sub( points[i], v ) );
		low = d < low ? d : low;
	}
	for ( int i = 0; i < polygon->count; ++i )
	{
		float d = glms_vec2_dot( u, glms_vec2_sub( polygon->vertices[i], v ) );
		high = d > high ? d : high;
	}
	return low - high;
}

bool kcc_separated_trusted( const kcc_shape* a, const kcc_shape* b )
{
	const kcc_shape* round = a->type == KCC_SHAPE_POLYGON ? b : a;
	const kcc_shape* sharp = a->type == KCC_SHAPE_POLYGON ? a : b;
	if ( sharp->type != KCC_SHAPE_POLYGON || ( round->type != KCC_SHAPE_CIRCLE && round->type != KCC_SHAPE_CAPSULE ) )
	{
		return false;
	}
	const kcc_polygon* polygon = &sharp->polygon;
	vec2s points[2];
	int count = 1;
	float radius;
	if ( round->type == KCC_SHAPE_CIRCLE )
	{
		points[0] = round->circle.center;
		radius = round->circle.radius;
	}
	else
	{
		points[0] = round->capsule.a;
		points[1] = round->capsule.b;
		count = 2;
		radius = round->capsule.radius;
	}
	float radii = radius + polygon->radius;
	// The penetration's difference and closest point, and the separations here, each err by a few roundings of the
	// coordinates involved; a margin of several times that keeps any answer here on its side of the radii.
	float size = kcc_points_size( polygon->vertices, polygon->count ) + kcc_points_size( points, count ) + radii;
	float beyond = radii + 4.0f * KCC_ROUNDING * size;
	if ( !( beyond < INFINITY ) )
	{
		return false; // out of range or NaN: the penetration decides
	}
	for ( int i = 0; i < polygon->count; ++i )
	{
		vec2s n = polygon->normals[i], v = polygon->vertices[i];
		float low = glms_vec2_dot( n, glms_vec2_sub( points[0], v ) );
		if ( count == 2 )
		{
			float other = glms_vec2_dot( n, glms_vec2_sub( points[1], v ) );
			low = other < low ? other : low;
		}
		if ( low > beyond )
		{
			return true;
		}
	}
	// Beyond a corner: the axis from the vertex nearest the core to its nearest point there (the closest points of
	// the two are a vertex's and that point, when no face separates them).
	vec2s e = count == 2 ? glms_vec2_sub( points[1], points[0] ) : kcc_v2( 0.0f, 0.0f );
	float ee = glms_vec2_dot( e, e );
	int nearest = -1;
	float nearest_squared = INFINITY;
	vec2s axis = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < polygon->count; ++i )
	{
		vec2s v = polygon->vertices[i];
		float t = ee > 0.0f ? glms_vec2_dot( glms_vec2_sub( v, points[0] ), e ) / ee : 0.0f;
		t = t > 0.0f ? ( t < 1.0f ? t : 1.0f ) : 0.0f; // NaN: 0
		vec2s w = glms_vec2_sub( glms_vec2_muladds( e, t, points[0] ), v );
		float squared = glms_vec2_dot( w, w );
		if ( squared < nearest_squared )
		{
			nearest = i;
			nearest_squared = squared;
			axis = w;
		}
	}
	vec2s u = kcc_unit_or( axis, kcc_v2( 0.0f, 0.0f ) );
	return nearest >= 0 && ( u.x != 0.0f || u.y != 0.0f ) &&
		   kcc_separation_along( u, polygon->vertices[nearest], polygon, points, count ) > beyond;
}
