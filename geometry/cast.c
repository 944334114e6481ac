// SPDX-License-Identifier: MIT
// Ray casts against every kind, and shape casts: exact Minkowski-difference ray casts for polytope cores, and
// conservative advancement on GJK distance when a sector's curved core is involved.
#include "internal.h"

#include <float.h>

// Conservative advancement: stop when the distance is within this of the target (world units).
#define KCC_CAST_TOLERANCE ( 0.25f * KCC_LINEAR_SLOP )
#define KCC_CAST_MAX_ITERATIONS 40

static inline vec2s kcc_sub( vec2s a, vec2s b )
{
	return kcc_v2( a.x - b.x, a.y - b.y );
}

static inline vec2s kcc_add( vec2s a, vec2s b )
{
	return kcc_v2( a.x + b.x, a.y + b.y );
}

static inline vec2s kcc_scale( vec2s a, float s )
{
	return kcc_v2( a.x * s, a.y * s );
}

static inline float kcc_dot( vec2s a, vec2s b )
{
	return a.x * b.x + a.y * b.y;
}

static inline float kcc_cross( vec2s a, vec2s b )
{
	return a.x * b.y - a.y * b.x;
}

static inline vec2s kcc_lerp( vec2s a, vec2s b, float s )
{
	return kcc_v2( a.x + s * ( b.x - a.x ), a.y + s * ( b.y - a.y ) );
}

static inline vec2s kcc_normalize_or( vec2s v, vec2s fallback )
{
	float length = sqrtf( kcc_dot( v, v ) );
	return length > 0.0f ? kcc_scale( v, 1.0f / length ) : fallback;
}

static inline bool kcc_in_range( vec2s v )
{
	return fabsf( v.x ) <= KCC_MAX_MAGNITUDE && fabsf( v.y ) <= KCC_MAX_MAGNITUDE;
}

static kcc_cast_output kcc_cast_miss( void )
{
	kcc_cast_output out = { 0 };
	out.fraction = 1.0f;
	return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Ray against a rounded polytope

typedef struct kcc_polytope_hit
{
	vec2s normal;
	float fraction;
	int edge; // core point hit = lerp( vertices[edge], vertices[edge + 1], s )
	float s;
} kcc_polytope_hit;

// Ray p0 + t * d, t in [0, 1], against the disc (center, radius), p0 outside it.
static bool kcc_ray_disc( vec2s center, float radius, vec2s p0, vec2s d, float* fraction, vec2s* normal )
{
	vec2s m = kcc_sub( p0, center );
	float b = kcc_dot( m, d );
	float c = kcc_dot( m, m ) - radius * radius;
	float a = kcc_dot( d, d );
	if ( b >= 0.0f || a == 0.0f )
	{
		return false;
	}
	// b^2 - a c rewritten (Lagrange's identity) so grazing rays do not cancel two large squares.
	float cross = kcc_cross( m, d );
	float discriminant = a * radius * radius - cross * cross;
	if ( discriminant < 0.0f )
	{
		return false;
	}
	// c / (-b + sqrt) is the smaller root without cancellation (-b > 0).
	float t = c > 0.0f ? c / ( -b + sqrtf( discriminant ) ) : 0.0f;
	if ( t > 1.0f )
	{
		return false;
	}
	*fraction = t;
	*normal = kcc_normalize_or( kcc_add( m, kcc_scale( d, t ) ), kcc_normalize_or( kcc_scale( d, -1.0f ), d ) );
	return true;
}

// Ray p0 + t * d, t in [0, 1], against a polytope core rounded by radius. p0 must be outside the rounded shape;
// start is p0's closest core feature. Clip against the edge lines offset by radius (a box with sharp corners);
// the entry point is the hit unless it lies beyond the entry edge, where the rounded corner is the disc at that
// edge's end: a ray missing that disc leaves the sharp shape without meeting any other part of the rounded one.
static bool kcc_ray_rounded_polytope( const vec2s* vertices, const vec2s* normals, int count, float radius, vec2s p0,
									  vec2s d, const kcc_polytope_closest* start, kcc_polytope_hit* hit )
{
	if ( count == 1 )
	{
		hit->edge = 0;
		hit->s = 0.0f;
		return kcc_ray_disc( vertices[0], radius, p0, d, &hit->fraction, &hit->normal );
	}

	float lower = 0.0f, upper = 1.0f;
	int enter = -1;
	for ( int i = 0; i < count; ++i )
	{
		// Inside plane i while t * den <= num.
		float num = kcc_dot( normals[i], kcc_sub( vertices[i], p0 ) ) + radius;
		float den = kcc_dot( normals[i], d );
		if ( den < 0.0f )
		{
			if ( num < lower * den )
			{
				lower = num / den;
				enter = i;
			}
		}
		else if ( den > 0.0f )
		{
			if ( num < upper * den )
			{
				upper = num / den;
			}
		}
		else if ( num < 0.0f )
		{
			return false;
		}
		if ( upper < lower )
		{
			return false;
		}
	}

	int corner;
	if ( enter < 0 )
	{
		// Starts within every offset line but outside the rounded shape: in the corner region of a vertex.
		int next = start->edge + 1 == count ? 0 : start->edge + 1;
		corner = start->s < 0.5f ? start->edge : next;
	}
	else
	{
		int next = enter + 1 == count ? 0 : enter + 1;
		vec2s p = kcc_add( p0, kcc_scale( d, lower ) );
		vec2s e = kcc_sub( vertices[next], vertices[enter] );
		float u = kcc_dot( kcc_sub( p, vertices[enter] ), e );
		float ee = kcc_dot( e, e );
		if ( u >= 0.0f && u <= ee )
		{
			hit->fraction = lower;
			hit->normal = normals[enter];
			hit->edge = enter;
			hit->s = ee > 0.0f ? u / ee : 0.0f;
			return true;
		}
		corner = u < 0.0f ? enter : next;
	}
	hit->edge = corner;
	hit->s = 0.0f;
	return kcc_ray_disc( vertices[corner], radius, p0, d, &hit->fraction, &hit->normal );
}

// ---------------------------------------------------------------------------------------------------------------
// Ray casts

static kcc_cast_output kcc_ray_cast_box( vec2s min, vec2s max, vec2s origin, vec2s d )
{
	float lower = 0.0f, upper = 1.0f;
	int axis = -1;
	float sign = 0.0f;
	float o[2] = { origin.x, origin.y };
	float dd[2] = { d.x, d.y };
	float lo[2] = { min.x, min.y };
	float hi[2] = { max.x, max.y };
	for ( int k = 0; k < 2; ++k )
	{
		if ( dd[k] == 0.0f )
		{
			if ( o[k] < lo[k] || o[k] > hi[k] )
			{
				return kcc_cast_miss();
			}
			continue;
		}
		float inv = 1.0f / dd[k];
		float t1 = ( lo[k] - o[k] ) * inv;
		float t2 = ( hi[k] - o[k] ) * inv;
		float near = dd[k] > 0.0f ? t1 : t2;
		float far = dd[k] > 0.0f ? t2 : t1;
		if ( near > lower )
		{
			lower = near;
			axis = k;
			sign = dd[k] > 0.0f ? -1.0f : 1.0f;
		}
		upper = far < upper ? far : upper;
		if ( upper < lower )
		{
			return kcc_cast_miss();
		}
	}
	kcc_cast_output out = { 0 };
	out.hit = true;
	if ( axis < 0 )
	{
		// Inside (closed box): every slab contains the origin.
		out.point = origin;
		return out;
	}
	out.fraction = lower;
	out.point = kcc_add( origin, kcc_scale( d, lower ) );
	out.normal = axis == 0 ? kcc_v2( sign, 0.0f ) : kcc_v2( 0.0f, sign );
	return out;
}

// Sector of any opening: the arc within the opening, the two edge segments; inside is a hit at 0.
static kcc_cast_output kcc_ray_cast_sector( const kcc_sector* sector, vec2s origin, vec2s d )
{
	vec2s dir = kcc_normalize_or( sector->direction, kcc_v2( 1.0f, 0.0f ) );
	float c = sector->half_angle.x;
	float s = sector->half_angle.y > 0.0f ? sector->half_angle.y : 0.0f; // sin(pi) rounds below zero
	float radius = sector->radius;
	vec2s m = kcc_sub( origin, sector->apex );

	// Within the opening: angle to the axis at most half the opening, i.e. cross((c, s), (x, |y|)) <= 0.
	float x = kcc_dot( dir, m ), y = fabsf( kcc_cross( dir, m ) );
	bool in_opening = c * y - s * x <= 0.0f;
	if ( kcc_dot( m, m ) <= radius * radius && ( in_opening || c <= -1.0f ) )
	{
		kcc_cast_output out = { 0 };
		out.hit = true;
		out.point = origin;
		return out;
	}
	// On an edge segment (outside the opening test by rounding) still counts as inside.
	for ( int side = 0; side < 2; ++side )
	{
		float sy = side == 0 ? s : -s;
		vec2s e = kcc_v2( c * dir.x - sy * dir.y, sy * dir.x + c * dir.y );
		float t = kcc_dot( m, e );
		if ( t >= 0.0f && t <= radius && fabsf( kcc_cross( e, m ) ) <= 4.0f * FLT_EPSILON * ( fabsf( t ) + 1.0f ) )
		{
			kcc_cast_output out = { 0 };
			out.hit = true;
			out.point = origin;
			return out;
		}
	}

	kcc_cast_output best = kcc_cast_miss();
	float t_arc;
	vec2s n_arc;
	if ( kcc_ray_disc( sector->apex, radius, origin, d, &t_arc, &n_arc ) )
	{
		vec2s p = kcc_add( m, kcc_scale( d, t_arc ) );
		float px = kcc_dot( dir, p ), py = fabsf( kcc_cross( dir, p ) );
		if ( c * py - s * px <= 0.0f || c <= -1.0f )
		{
			best.hit = true;
			best.fraction = t_arc;
			best.normal = n_arc;
			best.point = kcc_add( origin, kcc_scale( d, t_arc ) );
		}
	}
	for ( int side = 0; side < 2; ++side )
	{
		float sy = side == 0 ? s : -s;
		vec2s unit = kcc_v2( c * dir.x - sy * dir.y, sy * dir.x + c * dir.y );
		vec2s e = kcc_scale( unit, radius );
		// Outward normal: left of the left edge, right of the right edge.
		vec2s normal = side == 0 ? kcc_v2( -unit.y, unit.x ) : kcc_v2( unit.y, -unit.x );
		vec2s w = kcc_sub( sector->apex, origin );
		float den = kcc_cross( d, e );
		float t, u;
		if ( den != 0.0f )
		{
			t = kcc_cross( w, e ) / den;
			u = kcc_cross( w, d ) / den;
		}
		else if ( fabsf( kcc_cross( w, e ) ) <= 4.0f * FLT_EPSILON * ( kcc_dot( w, w ) + radius * radius ) &&
				  kcc_dot( d, d ) > 0.0f )
		{
			// Along the edge's line: the nearer end of the segment.
			float dd = kcc_dot( d, d );
			float t0 = kcc_dot( w, d ) / dd;
			float t1 = kcc_dot( kcc_add( w, e ), d ) / dd;
			t = t0 < t1 ? t0 : t1;
			u = t0 < t1 ? 0.0f : 1.0f;
			normal = kcc_normalize_or( kcc_scale( d, -1.0f ), normal );
		}
		else
		{
			continue;
		}
		if ( t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f && ( best.hit == false || t < best.fraction ) )
		{
			best.hit = true;
			best.fraction = t;
			best.normal = kcc_dot( normal, d ) > 0.0f ? kcc_scale( normal, -1.0f ) : normal;
			best.point = kcc_add( origin, kcc_scale( d, t ) );
		}
	}
	return best;
}

kcc_cast_output kcc_ray_cast( const kcc_shape* s, vec2s origin, vec2s translation )
{
	KCC_ASSERT( kcc_is_valid_vec2( origin ), "kcc_ray_cast: origin is not finite" );
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_ray_cast: translation is not finite" );
	if ( kcc_is_valid_vec2( origin ) == false || kcc_is_valid_vec2( translation ) == false )
	{
		return kcc_cast_miss();
	}

	kcc_proxy proxies[KCC_MAX_PROXIES];
	int count = kcc_make_proxies( s, proxies );
	KCC_ASSERT( count > 0 || kcc_shape_is_valid( s ), "kcc_ray_cast: shape is invalid" );
	if ( count == 0 || kcc_in_range( origin ) == false || kcc_in_range( translation ) == false )
	{
		return kcc_cast_miss();
	}

	if ( s->type == KCC_SHAPE_AABB )
	{
		return kcc_ray_cast_box( s->aabb.min, s->aabb.max, origin, translation );
	}
	if ( s->type == KCC_SHAPE_OBB )
	{
		// Slabs in the box frame.
		const kcc_obb* b = &s->obb;
		vec2s axis = kcc_normalize_or( b->rotation, kcc_v2( 1.0f, 0.0f ) );
		vec2s m = kcc_sub( origin, b->center );
		vec2s local_origin = kcc_v2( axis.x * m.x + axis.y * m.y, -axis.y * m.x + axis.x * m.y );
		vec2s local_d = kcc_v2( axis.x * translation.x + axis.y * translation.y,
								-axis.y * translation.x + axis.x * translation.y );
		kcc_cast_output out = kcc_ray_cast_box( kcc_scale( b->half_extents, -1.0f ), b->half_extents, local_origin,
												local_d );
		vec2s n = out.normal;
		out.normal = kcc_v2( axis.x * n.x - axis.y * n.y, axis.y * n.x + axis.x * n.y );
		out.point = out.hit ? kcc_add( origin, kcc_scale( translation, out.fraction ) ) : kcc_v2( 0.0f, 0.0f );
		return out;
	}
	if ( s->type == KCC_SHAPE_SECTOR )
	{
		return kcc_ray_cast_sector( &s->sector, origin, translation );
	}

	// Circle, capsule, polygon: a rounded polytope.
	const kcc_proxy* p = proxies;
	kcc_polytope_closest start = kcc_polytope_closest_point( p->points, p->normals, p->count, origin );
	kcc_cast_output out = kcc_cast_miss();
	if ( start.distance <= p->radius )
	{
		out.hit = true;
		out.fraction = 0.0f;
		out.point = origin;
		return out;
	}
	kcc_polytope_hit hit;
	if ( kcc_ray_rounded_polytope( p->points, p->normals, p->count, p->radius, origin, translation, &start, &hit ) )
	{
		out.hit = true;
		out.fraction = hit.fraction;
		out.normal = hit.normal;
		out.point = kcc_add( origin, kcc_scale( translation, hit.fraction ) );
	}
	return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Shape casts

// The moving core a + t * translation touches the target's core rounded by R exactly when t * translation lies in
// (b - a) rounded by R: a ray cast from the origin against the Minkowski difference, no iterations.
static kcc_cast_output kcc_cast_polytopes( const kcc_proxy* a, vec2s translation, const kcc_proxy* b,
										   float separation )
{
	kcc_minkowski m;
	kcc_minkowski_difference( a, b, &m );
	float radii = a->radius + b->radius;
	float rounded = radii + separation;
	vec2s origin = kcc_v2( 0.0f, 0.0f );
	kcc_cast_output out = kcc_cast_miss();

	// Usually the start is clearly outside an offset edge line: then it is outside the rounded difference and the
	// closest feature is not needed (the ray clipping never falls back on it).
	kcc_polytope_closest start = { 0 };
	bool clear = false;
	if ( m.count >= 3 )
	{
		for ( int i = 0; i < m.count; ++i )
		{
			clear = clear || -kcc_dot( m.normals[i], m.vertices[i] ) > rounded;
		}
	}
	if ( clear == false )
	{
		start = kcc_polytope_closest_point( m.vertices, m.normals, m.count, origin );
	}
	if ( clear == false && start.distance <= rounded )
	{
		int next = start.edge + 1 == m.count ? 0 : start.edge + 1;
		vec2s core_b = kcc_lerp( b->points[m.index_b[start.edge]], b->points[m.index_b[next]], start.s );
		out.hit = true;
		out.fraction = 0.0f;
		if ( start.distance > radii )
		{
			// Within the separation, not overlapping: the separating normal points from b's core to a's.
			vec2s normal = kcc_scale( start.point, -1.0f / start.distance );
			out.normal = normal;
			out.point = kcc_add( core_b, kcc_scale( normal, b->radius ) );
		}
		else if ( start.distance > 0.0f )
		{
			// Only the rounded parts overlap: the middle of the overlap between the cores.
			vec2s normal = kcc_scale( start.point, -1.0f / start.distance );
			out.point = kcc_add( core_b, kcc_scale( normal, 0.5f * ( b->radius + start.distance - a->radius ) ) );
		}
		else
		{
			out.point = core_b;
		}
		return out;
	}

	kcc_polytope_hit hit;
	if ( kcc_ray_rounded_polytope( m.vertices, m.normals, m.count, rounded, origin, translation, &start, &hit ) )
	{
		int next = hit.edge + 1 == m.count ? 0 : hit.edge + 1;
		vec2s core_b = kcc_lerp( b->points[m.index_b[hit.edge]], b->points[m.index_b[next]], hit.s );
		out.hit = true;
		out.fraction = hit.fraction;
		out.normal = hit.normal;
		out.point = kcc_add( core_b, kcc_scale( hit.normal, b->radius ) );
	}
	return out;
}

// Conservative advancement on GJK distance: a separating line with normal n and gap g cannot close before the
// moving shape advances g along n, so stepping t by (distance - target) / (closing speed) never passes the
// impact. Used whenever a curved (sector) core is involved.
static kcc_cast_output kcc_cast_conservative( const kcc_proxy* a, vec2s translation, const kcc_proxy* b,
											  float separation )
{
	kcc_cast_output out = kcc_cast_miss();
	float radii = a->radius + b->radius;
	float target = radii + separation;
	float t = 0.0f;
	float t_safe = 0.0f;           // latest time known to be farther than the target
	float t_overshoot = FLT_MAX;   // earliest time found closer than the target (float error in a step)
	for ( int iteration = 0; iteration < KCC_CAST_MAX_ITERATIONS; ++iteration )
	{
		kcc_gjk_output g = kcc_gjk_distance( a, kcc_scale( translation, t ), b );
		float distance = g.distance;
		vec2s normal = distance > 0.0f ? kcc_scale( kcc_sub( g.point_a, g.point_b ), 1.0f / distance )
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
		if ( distance < target - KCC_CAST_TOLERANCE || distance == 0.0f )
		{
			// A step went past the contact (the distance it used was a little too large): back off halfway.
			t_overshoot = t;
			t = 0.5f * ( t_safe + t );
			continue;
		}
		float closing = -kcc_dot( translation, normal );
		if ( distance <= target + KCC_CAST_TOLERANCE )
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
					normal = kcc_scale( kcc_sub( earlier.point_a, earlier.point_b ), 1.0f / earlier.distance );
				}
			}
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

static kcc_cast_output kcc_cast_proxies( const kcc_proxy* a, vec2s translation, const kcc_proxy* b, float separation,
										 bool conservative )
{
	if ( conservative || a->curved || b->curved )
	{
		return kcc_cast_conservative( a, translation, b, separation );
	}
	return kcc_cast_polytopes( a, translation, b, separation );
}

static kcc_cast_output kcc_shape_cast_impl( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation, bool conservative );

kcc_cast_output kcc_shape_cast_separation( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										   float target_separation )
{
	return kcc_shape_cast_impl( moving, translation, target, target_separation, false );
}

kcc_cast_output kcc_shape_cast_conservative( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation )
{
	return kcc_shape_cast_impl( moving, translation, target, target_separation, true );
}

static kcc_cast_output kcc_shape_cast_impl( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation, bool conservative )
{
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_shape_cast: translation is not finite" );
	KCC_ASSERT( kcc_is_valid_float( target_separation ) && target_separation >= 0.0f,
				"kcc_shape_cast_separation: target_separation is negative or not finite" );
	if ( kcc_is_valid_vec2( translation ) == false || kcc_is_valid_float( target_separation ) == false ||
		 target_separation < 0.0f )
	{
		return kcc_cast_miss();
	}
	kcc_proxy pa[KCC_MAX_PROXIES], pb[KCC_MAX_PROXIES];
	int na = kcc_make_proxies( moving, pa );
	int nb = kcc_make_proxies( target, pb );
	KCC_ASSERT( na > 0 || kcc_shape_is_valid( moving ), "kcc_shape_cast: moving shape is invalid" );
	KCC_ASSERT( nb > 0 || kcc_shape_is_valid( target ), "kcc_shape_cast: target shape is invalid" );
	if ( na == 0 || nb == 0 || kcc_in_range( translation ) == false || target_separation > KCC_MAX_MAGNITUDE )
	{
		return kcc_cast_miss();
	}
	if ( na == 1 && nb == 1 )
	{
		return kcc_cast_proxies( pa, translation, pb, target_separation, conservative );
	}

	// A sector wider than pi: the first impact over its halves; an overlap anywhere wins; among halves already
	// within the separation at the start, the nearest gives the separating normal.
	kcc_cast_output best = kcc_cast_miss();
	float best_start_distance = FLT_MAX;
	for ( int i = 0; i < na; ++i )
	{
		for ( int j = 0; j < nb; ++j )
		{
			kcc_cast_output out = kcc_cast_proxies( pa + i, translation, pb + j, target_separation, conservative );
			if ( out.hit == false )
			{
				continue;
			}
			if ( out.fraction == 0.0f )
			{
				if ( out.normal.x == 0.0f && out.normal.y == 0.0f )
				{
					return out; // overlapping
				}
				float start = kcc_proxy_distance( pa + i, pb + j ).distance;
				if ( best.hit == false || best.fraction > 0.0f || start < best_start_distance )
				{
					best = out;
					best_start_distance = start;
				}
				continue;
			}
			if ( best.hit == false || out.fraction < best.fraction )
			{
				best = out;
			}
		}
	}
	return best;
}

kcc_cast_output kcc_shape_cast( const kcc_shape* moving, vec2s translation, const kcc_shape* target )
{
	return kcc_shape_cast_separation( moving, translation, target, 0.0f );
}
