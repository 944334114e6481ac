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
