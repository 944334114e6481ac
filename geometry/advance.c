// SPDX-License-Identifier: MIT
// Conservative advancement on GJK distance: the shape cast when a sector's curved core is involved (cast.c casts
// polytope cores exactly), and the independent cross-check of that exact cast in the tests.
#include "internal.h"
#include "vector_math.h"

#include <float.h>

// Stop when the distance is within this of the target (world units): well inside the GJK tolerance on curved cores.
#define KCC_ADVANCE_TOLERANCE ( 0.25f * KCC_LINEAR_SLOP )
// Steps before giving up on a grazing approach (each step closes a fixed part of the remaining gap, or more).
#define KCC_ADVANCE_MAX_ITERATIONS 40

// The gap along n (out of b toward a, radii excluded) between a moved by offset and b: n . (closest point of a in
// -n) - n . (farthest point of b in n). It is at most the core distance, with equality for the contact normal.
static float kcc_advance_gap_along( const kcc_proxy* a, vec2s offset, const kcc_proxy* b, vec2s n )
{
	vec2s pa = kcc_add( kcc_proxy_support( a, kcc_scale( n, -1.0f ) ), offset );
	return kcc_dot( n, pa ) - kcc_dot( n, kcc_proxy_support( b, n ) );
}

// The contact normal at the stop of conservative advancement. The witness direction of nearly touching cores is
// imprecise, and the look-back normal (taken ~1e-3 earlier on the path) belongs to the closest features there,
// which differ near a corner (a vertex landing on a face 1e-3 from its end got the other face's normal). The
// contact normal maximises the gap along n (the support gap equals the distance only for it), so the better of those
// directions and of the cores' face normals (b's, and a's reversed) is taken. Curved arcs keep the witness direction.
static vec2s kcc_advance_contact_normal( const kcc_proxy* a, vec2s offset, const kcc_proxy* b, vec2s normal,
									  kcc_gjk_output g )
{
	vec2s best = normal;
	float best_gap = kcc_advance_gap_along( a, offset, b, normal );
	if ( g.distance > 0.0f )
	{
		vec2s witness = kcc_unit_or( kcc_sub( g.point_a, g.point_b ), normal );
		float gap = kcc_advance_gap_along( a, offset, b, witness );
		best = gap > best_gap ? witness : best;
		best_gap = gap > best_gap ? gap : best_gap;
	}
	// Face normals: a polytope's edges (a segment's two sides), a curved core's two straight edges.
	int faces_b = b->curved ? 2 : ( b->count >= 2 ? b->count : 0 );
	int faces_a = a->curved ? 2 : ( a->count >= 2 ? a->count : 0 );
	for ( int k = 0; k < faces_b + faces_a; ++k )
	{
		vec2s n = k < faces_b ? b->normals[k] : kcc_scale( a->normals[k - faces_b], -1.0f );
		float gap = kcc_advance_gap_along( a, offset, b, n );
		if ( gap > best_gap )
		{
			best = n;
			best_gap = gap;
		}
	}
	return best;
}

// Conservative advancement on GJK distance: a separating line with normal n and gap g cannot close before the
// moving shape advances g along n, so stepping t by (distance - target) / (closing speed) never passes the
// impact. Used whenever a curved (sector) core is involved.
kcc_cast_output kcc_cast_conservative( const kcc_proxy* a, vec2s translation, const kcc_proxy* b, float separation )
{
	kcc_cast_output out = kcc_cast_miss();
	float radii = a->radius + b->radius;
	float target = radii + separation;
	float t = 0.0f;
	float t_safe = 0.0f;           // latest time known to be farther than the target
	float t_overshoot = FLT_MAX;   // earliest time found closer than the target (float error in a step)
	for ( int iteration = 0; iteration < KCC_ADVANCE_MAX_ITERATIONS; ++iteration )
	{
		kcc_gjk_output g = kcc_gjk_distance( a, kcc_scale( translation, t ), b );
		float distance = g.distance;
		vec2s normal = distance > 0.0f ? kcc_unit_or( kcc_sub( g.point_a, g.point_b ), kcc_v2( 0.0f, 1.0f ) )
									   : kcc_v2( 0.0f, 0.0f ); // out of b toward a
		if ( t == 0.0f && distance <= target )
		{
			out.hit = true;
			out.fraction = 0.0f;
			if ( distance > radii )
			{
				out.normal = normal;
				out.point = kcc_add( g.point_b, kcc_scale( normal, b->radius ) );
			}
			else if ( distance > 0.0f )
			{
				out.point = kcc_add( g.point_b, kcc_scale( normal, 0.5f * ( b->radius + distance - a->radius ) ) );
			}
			else
			{
				out.point = g.point_b;
			}
			return out;
		}
		if ( distance < target - KCC_ADVANCE_TOLERANCE || distance == 0.0f )
		{
			// A step went past the contact (the distance it used was a little too large): back off halfway.
			t_overshoot = t;
			t = 0.5f * ( t_safe + t );
			continue;
		}
		float closing = -kcc_dot( translation, normal );
		if ( distance <= target + KCC_ADVANCE_TOLERANCE )
		{
			if ( closing <= 0.0f && t == 0.0f )
			{
				return out; // touching the target distance and moving away
			}
			out.hit = true;
			out.fraction = t;
			if ( distance < 1.0e-3f && closing > 0.0f )
			{
				// Cores almost touching: the witness points are too close for a clean direction. Take the normal
				// a little earlier on the path, where the gap is about 1e-3 (the same feature pair).
				float back = t - 1.0e-3f / closing;
				kcc_gjk_output earlier = kcc_gjk_distance( a, kcc_scale( translation, back > 0.0f ? back : 0.0f ), b );
				if ( earlier.distance > distance )
				{
					normal = kcc_unit_or( kcc_sub( earlier.point_a, earlier.point_b ), normal );
				}
			}
			normal = kcc_advance_contact_normal( a, kcc_scale( translation, t ), b, normal, g );
			out.normal = normal;
			out.point = kcc_add( g.point_b, kcc_scale( normal, b->radius ) );
			return out;
		}
		if ( closing <= 0.0f )
		{
			return out;
		}
		t_safe = t;
		t += ( distance - target ) / closing;
		if ( t > 1.0f )
		{
			return out;
		}
		if ( t >= t_overshoot )
		{
			t = 0.5f * ( t_safe + t_overshoot );
		}
		out.normal = normal;
		out.point = kcc_add( g.point_b, kcc_scale( normal, b->radius ) );
	}
	// Iteration cap (grazing approach): report the last time known to be clear.
	out.hit = true;
	out.fraction = t_safe;
	return out;
}

