// SPDX-License-Identifier: MIT
// Conservative advancement on GJK distance: the shape cast when a sector's curved core is involved (cast.c casts
// polytope cores exactly), and the independent cross-check of that exact cast in the tests.
#include "internal.h"

#include <float.h>

// Stop when the distance is within this of the target (world units): well inside the GJK tolerance on curved cores.
#define KCC_ADVANCE_TOLERANCE ( 0.25f * KCC_LINEAR_SLOP )
// Steps before giving up on a grazing approach (each step closes a fixed part of the remaining gap, or more).
#define KCC_ADVANCE_MAX_ITERATIONS 40
// Nearly touching cores have witness points too close for a clean direction: the normal is taken this far back on
// the path instead (a gap where the direction is good to float precision).
#define KCC_ADVANCE_LOOK_BACK 1.0e-3f

// The gap along n (out of b toward a, radii excluded) between a moved by offset and b: n . (closest point of a in
// -n) - n . (farthest point of b in n). It is at most the core distance, with equality for the contact normal.
static float kcc_advance_gap_along( const kcc_proxy* a, vec2s offset, const kcc_proxy* b, vec2s n )
{
	vec2s pa = glms_vec2_add( kcc_proxy_support( a, glms_vec2_negate( n ) ), offset );
	return glms_vec2_dot( n, pa ) - glms_vec2_dot( n, kcc_proxy_support( b, n ) );
}

// Whether direction w (from the apex) lies within the opening of a curved core's whole sector: a half of a sector
// wider than pi touches along the whole arc's radius too, across the split (its arc end there is no corner).
static bool kcc_advance_in_opening( const kcc_proxy* curved, vec2s w )
{
	float x = glms_vec2_dot( curved->arc_direction, w ), y = fabsf( glms_vec2_cross( curved->arc_direction, w ) );
	return curved->arc_half_angle.x * y - curved->arc_half_angle.y * x <= 0.0f;
}

// The normal of a contact between a curved core's arc and a polytope core, pointing from the polytope toward the arc;
// false when the arc is not where they touch (its distance to the polytope above distance + KCC_LINEAR_SLOP: the
// straight edges or the apex are nearer). Along an arc the support gap is flat to second order and GJK's witness on it
// converges only to a tolerance, so neither gives this normal; the arc's distance to each polytope feature facing it
// does: to a vertex v, |v - C| - r along the radius through v; to an edge, from the arc's point facing it (C - r n,
// for the edge's outward normal n), along n.
static bool kcc_advance_arc_normal( const kcc_proxy* curved, vec2s curved_offset, const kcc_proxy* polytope,
									vec2s polytope_offset, float distance, vec2s* normal )
{
	vec2s center = glms_vec2_add( curved->points[0], curved_offset );
	float r = curved->arc_radius, best = FLT_MAX;
	int n = polytope->count;
	for ( int i = 0; i < n; ++i )
	{
		vec2s v = glms_vec2_add( polytope->points[i], polytope_offset );
		vec2s w = glms_vec2_sub( v, center );
		float gap = sqrtf( glms_vec2_dot( w, w ) ) - r;
		if ( gap < best && gap >= -KCC_LINEAR_SLOP && kcc_advance_in_opening( curved, w ) )
		{
			best = gap;
			*normal = kcc_unit_or( glms_vec2_negate( w ), *normal );
		}
	}
	for ( int i = 0; i < n && n >= 2; ++i )
	{
		vec2s face = polytope->normals[i];
		vec2s v0 = glms_vec2_add( polytope->points[i], polytope_offset );
		vec2s v1 = glms_vec2_add( polytope->points[i + 1 < n ? i + 1 : 0], polytope_offset );
		vec2s facing = glms_vec2_sub( center, glms_vec2_scale( face, r ) );
		float along = glms_vec2_dot( glms_vec2_sub( facing, v0 ), glms_vec2_sub( v1, v0 ) );
		float gap = glms_vec2_dot( face, glms_vec2_sub( facing, v0 ) );
		vec2s edge = glms_vec2_sub( v1, v0 );
		if ( gap < best && gap >= -KCC_LINEAR_SLOP && along >= 0.0f && along <= glms_vec2_dot( edge, edge ) &&
			 kcc_advance_in_opening( curved, glms_vec2_negate( face ) ) )
		{
			best = gap;
			*normal = face;
		}
	}
	return best <= distance + KCC_LINEAR_SLOP;
}

// The contact normal at the stop of conservative advancement. The contact normal maximises the gap along n (the
// support gap equals the distance only for it), but around a corner (vertex to vertex, a disc's rounding) the gap is
// flat to second order, below rounding. So GJK's own direction leads: exact on an edge of the difference (a face
// contact) and between two vertices; another candidate replaces it only with a gap larger by more than rounding: the
// look-back normal (taken ~1e-3 earlier on the path), the witness direction and the cores' face normals (b's, and a's
// reversed), for a near-touch where GJK's direction is noise. A contact on an arc has its own rule.
static vec2s kcc_advance_contact_normal( const kcc_proxy* a, vec2s offset, const kcc_proxy* b, vec2s normal,
										 kcc_gjk_output g )
{
	if ( a->curved != b->curved && g.distance > 0.0f )
	{
		const kcc_proxy* curved = a->curved ? a : b;
		const kcc_proxy* polytope = a->curved ? b : a;
		vec2s zero = kcc_v2( 0.0f, 0.0f ), arc = normal;
		if ( kcc_advance_arc_normal( curved, a->curved ? offset : zero, polytope, a->curved ? zero : offset,
									 g.distance, &arc ) )
		{
			return a->curved ? arc : glms_vec2_negate( arc ); // out of b toward a
		}
	}
	float size = kcc_points_size( a->points, a->count ) + fabsf( offset.x ) + fabsf( offset.y ) +
				 kcc_points_size( b->points, b->count );
	float rounding = KCC_ROUNDING * size;
	vec2s best = g.distance > 0.0f ? glms_vec2_negate( g.normal ) : normal;
	float best_gap = kcc_advance_gap_along( a, offset, b, best );
	vec2s candidates[2] = { normal, kcc_unit_or( glms_vec2_sub( g.point_a, g.point_b ), normal ) };
	// Face normals: a polytope's edges (a segment's two sides), a curved core's two straight edges.
	int faces_b = b->curved ? 2 : ( b->count >= 2 ? b->count : 0 );
	int faces_a = a->curved ? 2 : ( a->count >= 2 ? a->count : 0 );
	for ( int k = 0; k < 2 + faces_b + faces_a; ++k )
	{
		int f = k - 2;
		vec2s n = k < 2 ? candidates[k] : ( f < faces_b ? b->normals[f] : glms_vec2_negate( a->normals[f - faces_b] ) );
		float gap = kcc_advance_gap_along( a, offset, b, n );
		if ( gap > best_gap + rounding )
		{
			best = n;
			best_gap = gap;
		}
	}
	return best;
}

// The hit at time t, where the cores are within the tolerance of the target distance (g: their GJK output there).
static kcc_cast_output kcc_advance_contact( const kcc_proxy* a, vec2s translation, const kcc_proxy* b, float t,
											kcc_gjk_output g )
{
	vec2s normal = kcc_unit_or( glms_vec2_sub( g.point_a, g.point_b ), kcc_v2( 0.0f, 1.0f ) ); // out of b toward a
	float closing = -glms_vec2_dot( translation, normal );
	if ( g.distance < KCC_ADVANCE_LOOK_BACK && closing > 0.0f )
	{
		// Cores almost touching: take the normal a little earlier on the path (the same feature pair).
		float back = t - KCC_ADVANCE_LOOK_BACK / closing;
		kcc_gjk_output earlier = kcc_gjk_distance( a, glms_vec2_scale( translation, back > 0.0f ? back : 0.0f ), b );
		if ( earlier.distance > g.distance )
		{
			normal = kcc_unit_or( glms_vec2_sub( earlier.point_a, earlier.point_b ), normal );
		}
	}
	kcc_cast_output out;
	out.hit = true;
	out.fraction = t;
	out.normal = kcc_advance_contact_normal( a, glms_vec2_scale( translation, t ), b, normal, g );
	out.point = glms_vec2_add( g.point_b, glms_vec2_scale( out.normal, b->radius ) );
	return out;
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
	float t_safe = 0.0f;         // latest time known to be farther than the target
	float t_overshoot = FLT_MAX; // earliest time found closer than the target (float error in a step)
	for ( int iteration = 0; iteration < KCC_ADVANCE_MAX_ITERATIONS; ++iteration )
	{
		kcc_gjk_output g = kcc_gjk_distance( a, glms_vec2_scale( translation, t ), b );
		float distance = g.distance;
		vec2s normal = distance > 0.0f ? kcc_unit_or( glms_vec2_sub( g.point_a, g.point_b ), kcc_v2( 0.0f, 1.0f ) )
									   : kcc_v2( 0.0f, 0.0f ); // out of b toward a
		if ( t == 0.0f && distance <= target )
		{
			out.hit = true;
			out.fraction = 0.0f;
			if ( distance > radii )
			{
				out.normal = normal;
				out.point = glms_vec2_add( g.point_b, glms_vec2_scale( normal, b->radius ) );
			}
			else if ( distance > 0.0f )
			{
				float middle = 0.5f * ( b->radius + distance - a->radius );
				out.point = glms_vec2_add( g.point_b, glms_vec2_scale( normal, middle ) );
			}
			else
			{
				out.point = g.point_b;
			}
			return out;
		}
		float closing = -glms_vec2_dot( translation, normal );
		bool at_target = distance >= target - KCC_ADVANCE_TOLERANCE && distance <= target + KCC_ADVANCE_TOLERANCE;
		if ( at_target && distance > 0.0f )
		{
			return closing <= 0.0f && t == 0.0f ? out /* touching the target distance and moving away */
												: kcc_advance_contact( a, translation, b, t, g );
		}
		float next;
		if ( distance < target - KCC_ADVANCE_TOLERANCE || distance == 0.0f )
		{
			// A step went past the contact (the distance it used was a little too large): back off halfway.
			t_overshoot = t;
			next = 0.5f * ( t_safe + t );
		}
		else
		{
			if ( closing <= 0.0f )
			{
				return out;
			}
			t_safe = t;
			next = t + ( distance - target ) / closing;
			if ( next > 1.0f )
			{
				return out;
			}
			next = next >= t_overshoot ? 0.5f * ( t_safe + t_overshoot ) : next;
		}
		if ( next <= t_safe && t_overshoot < FLT_MAX )
		{
			// No float between the last time clear and the first too close (coordinates so large that one step of t
			// moves the distance past the tolerance): the contact is at the former.
			break;
		}
		t = next;
	}
	// The contact within float resolution, or the iteration cap (a grazing approach): the last time known clear.
	kcc_gjk_output at_safe = kcc_gjk_distance( a, glms_vec2_scale( translation, t_safe ), b );
	return kcc_advance_contact( a, translation, b, t_safe, at_safe );
}
