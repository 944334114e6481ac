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

// ---------------------------------------------------------------------------------------------------------------
// Shape casts of polytope cores without building the Minkowski difference
//
// M = core(b) - core(a) is never built. Its edges are b's edges (normal n, support h_b(n) - min over a of n . a)
// and a's edges reversed (normal -n_a, support max over b of -n_a . b + n_a . a_j). Clipping the ray t * d
// against these lines offset by R gives the entry into the mitered polygon P (M grown by R with sharp corners),
// which contains the rounded difference S = M + disc(R). If the entry point projects onto its face's extent it is
// on S: the exact hit. Otherwise it lies in the Voronoi region of the face's end vertex w, where S is the disc
// (w, R); the ray can only leave that region while inside P by crossing one of its boundary rays w + s n with
// s <= R, i.e. inside the disc, so the first contact with S is the ray's first contact with that disc, and a
// miss of the disc is a miss of S. A start inside P: the face of largest separation holds the closest point of M
// or ends at it (the closest vertex), which decides overlap and, outside S, the vertex whose disc to cast at.

// A polytope core as the clipping reads it: 1 point, a 2-point segment (edges there and back) or a counter-
// clockwise polygon, with the outward unit normal of edge i (vertex i to vertex i + 1). Points into the shape
// where it stores them, else into storage.
typedef struct kcc_cast_core
{
	const vec2s* points;
	const vec2s* normals;
	vec2s storage[8]; // points 0 .. 3, normals 4 .. 7
	float radius;
	int count;
	int faces; // count for a segment or polygon, 0 for a point
} kcc_cast_core;

static inline bool kcc_cast_usable( vec2s v )
{
	return fabsf( v.x ) <= KCC_MAX_MAGNITUDE && fabsf( v.y ) <= KCC_MAX_MAGNITUDE;
}

static inline bool kcc_cast_radius( float r )
{
	return r >= 0.0f && r <= KCC_MAX_MAGNITUDE;
}

static inline bool kcc_cast_unit( vec2s v )
{
	return fabsf( v.x * v.x + v.y * v.y - 1.0f ) <= 1.0e-3f;
}

// The core of a valid, in-range circle, capsule, AABB, OBB or polygon (no zero extents). False for everything else
// (sectors, degenerate boxes, anything kcc_make_proxies rejects): the general path then answers, guards included.
static bool kcc_cast_core_make( const kcc_shape* s, kcc_cast_core* c )
{
	if ( s == NULL )
	{
		return false;
	}
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			c->points = &s->circle.center;
			c->normals = NULL;
			c->radius = s->circle.radius;
			c->count = 1;
			c->faces = 0;
			return kcc_cast_usable( s->circle.center ) && kcc_cast_radius( s->circle.radius );
		case KCC_SHAPE_CAPSULE:
		{
			const kcc_capsule* k = &s->capsule;
			if ( kcc_cast_usable( k->a ) == false || kcc_cast_usable( k->b ) == false ||
				 kcc_cast_radius( k->radius ) == false )
			{
				return false;
			}
			c->points = &k->a; // a and b are adjacent in kcc_capsule
			c->radius = k->radius;
			if ( k->a.x == k->b.x && k->a.y == k->b.y )
			{
				c->normals = NULL;
				c->count = 1;
				c->faces = 0;
				return true;
			}
			vec2s e = kcc_sub( k->b, k->a );
			float inv = 1.0f / sqrtf( kcc_dot( e, e ) );
			c->storage[4] = kcc_v2( e.y * inv, -e.x * inv );
			c->storage[5] = kcc_v2( -e.y * inv, e.x * inv );
			c->normals = c->storage + 4;
			c->count = 2;
			c->faces = 2;
			// Points denormal-apart give no usable normal: the general path handles them.
			return kcc_cast_unit( c->storage[4] );
		}
		case KCC_SHAPE_AABB:
		{
			const kcc_aabb* b = &s->aabb;
			if ( kcc_cast_usable( b->min ) == false || kcc_cast_usable( b->max ) == false || b->min.x >= b->max.x ||
				 b->min.y >= b->max.y )
			{
				return false;
			}
			c->storage[0] = b->min;
			c->storage[1] = kcc_v2( b->max.x, b->min.y );
			c->storage[2] = b->max;
			c->storage[3] = kcc_v2( b->min.x, b->max.y );
			c->storage[4] = kcc_v2( 0.0f, -1.0f );
			c->storage[5] = kcc_v2( 1.0f, 0.0f );
			c->storage[6] = kcc_v2( 0.0f, 1.0f );
			c->storage[7] = kcc_v2( -1.0f, 0.0f );
			c->points = c->storage;
			c->normals = c->storage + 4;
			c->radius = 0.0f;
			c->count = 4;
			c->faces = 4;
			return true;
		}
		case KCC_SHAPE_OBB:
		{
			const kcc_obb* b = &s->obb;
			if ( kcc_cast_usable( b->center ) == false || kcc_cast_usable( b->half_extents ) == false ||
				 kcc_cast_usable( b->rotation ) == false || b->half_extents.x <= 0.0f || b->half_extents.y <= 0.0f ||
				 kcc_cast_unit( b->rotation ) == false )
			{
				return false;
			}
			// The same corners and normals as kcc_make_proxies.
			vec2s axis_x = b->rotation;
			vec2s axis_y = kcc_v2( -axis_x.y, axis_x.x );
			vec2s ex = kcc_scale( axis_x, b->half_extents.x );
			vec2s ey = kcc_scale( axis_y, b->half_extents.y );
			c->storage[0] = kcc_sub( kcc_sub( b->center, ex ), ey );
			c->storage[1] = kcc_sub( kcc_add( b->center, ex ), ey );
			c->storage[2] = kcc_add( kcc_add( b->center, ex ), ey );
			c->storage[3] = kcc_add( kcc_sub( b->center, ex ), ey );
			c->storage[4] = kcc_scale( axis_y, -1.0f );
			c->storage[5] = axis_x;
			c->storage[6] = axis_y;
			c->storage[7] = kcc_scale( axis_x, -1.0f );
			c->points = c->storage;
			c->normals = c->storage + 4;
			c->radius = 0.0f;
			c->count = 4;
			c->faces = 4;
			return true;
		}
		case KCC_SHAPE_POLYGON:
		{
			const kcc_polygon* p = &s->polygon;
			if ( p->count < 3 || p->count > KCC_MAX_POLYGON_VERTICES || kcc_cast_radius( p->radius ) == false )
			{
				return false;
			}
			bool ok = true;
			for ( int i = 0; i < p->count; ++i )
			{
				ok = ok && kcc_cast_usable( p->vertices[i] ) && kcc_cast_unit( p->normals[i] );
			}
			c->points = p->vertices;
			c->normals = p->normals;
			c->radius = p->radius;
			c->count = p->count;
			c->faces = p->count;
			return ok;
		}
		default:
			return false;
	}
}

// Smallest dot( u, p ) over the points, and its index.
static inline float kcc_cast_min_dot( const vec2s* points, int count, vec2s u, int* index )
{
	float best = kcc_dot( u, points[0] );
	int best_index = 0;
	for ( int i = 1; i < count; ++i )
	{
		float value = kcc_dot( u, points[i] );
		best_index = value < best ? i : best_index;
		best = value < best ? value : best;
	}
	*index = best_index;
	return best;
}

// Where a point q of the plane's side stands relative to face f of M: on the face's extent (its tangential
// projection lies on the face), or beyond one end, whose vertex w of M is then the closest feature.
typedef struct kcc_cast_feature
{
	vec2s core_b; // contact point on b's core (on the face: the middle of the touching part)
	vec2s vertex; // off the face: the vertex w = b - a of M at the end passed
	bool on_face;
} kcc_cast_feature;

// Face f < b->faces is b's edge f: its points are b_f .. b_f+1 minus a's support in -n. Otherwise a's edge
// j = f - b->faces reversed: b's support in -n_a minus a_j .. a_j+1. Points of the other core within rounding of
// the support line count too: a parallel edge of it lengthens the face (two boxes landing flat).
static kcc_cast_feature kcc_cast_classify( const kcc_cast_core* a, const kcc_cast_core* b, int f, int support, vec2s q )
{
	bool on_b = f < b->faces;
	const kcc_cast_core* fixed = on_b ? b : a;
	const kcc_cast_core* other = on_b ? a : b;
	int i = on_b ? f : f - b->faces;
	int i1 = i + 1 == fixed->count ? 0 : i + 1;
	vec2s e0 = fixed->points[i], e1 = fixed->points[i1];
	vec2s n = fixed->normals[i];
	vec2s e = kcc_sub( e1, e0 );
	float ee = kcc_dot( e, e );
	// The other core moves by q relative to b's edge, or b moves by -q relative to a's edge.
	vec2s base = on_b ? kcc_sub( q, e0 ) : kcc_sub( kcc_scale( q, -1.0f ), e0 );
	vec2s s = other->points[support];
	float level = kcc_dot( n, s ) + 4.0f * FLT_EPSILON * ( fabsf( s.x ) + fabsf( s.y ) );
	float c_lo = FLT_MAX, c_hi = -FLT_MAX;
	int lo = support, hi = support;
	for ( int k = 0; k < other->count; ++k )
	{
		vec2s o = other->points[k];
		if ( kcc_dot( n, o ) <= level )
		{
			float c = kcc_dot( kcc_add( o, base ), e );
			lo = c < c_lo ? k : lo;
			c_lo = c < c_lo ? c : c_lo;
			hi = c > c_hi ? k : hi;
			c_hi = c > c_hi ? c : c_hi;
		}
	}
	kcc_cast_feature out;
	if ( c_lo <= ee && c_hi >= 0.0f )
	{
		out.on_face = true;
		out.vertex = kcc_v2( 0.0f, 0.0f );
		float from = c_lo > 0.0f ? c_lo : 0.0f;
		float to = c_hi < ee ? c_hi : ee;
		float mid = 0.5f * ( from + to );
		if ( on_b )
		{
			out.core_b = kcc_add( e0, kcc_scale( e, ee > 0.0f ? mid / ee : 0.0f ) );
		}
		else
		{
			float span = c_hi - c_lo;
			out.core_b = span > 0.0f ? kcc_lerp( other->points[lo], other->points[hi], ( mid - c_lo ) / span )
									 : other->points[lo];
		}
		return out;
	}
	out.on_face = false;
	if ( c_lo > ee )
	{
		out.core_b = on_b ? e1 : other->points[lo];
		out.vertex = on_b ? kcc_sub( e1, other->points[lo] ) : kcc_sub( other->points[lo], e1 );
	}
	else
	{
		out.core_b = on_b ? e0 : other->points[hi];
		out.vertex = on_b ? kcc_sub( e0, other->points[hi] ) : kcc_sub( other->points[hi], e0 );
	}
	return out;
}

static inline vec2s kcc_cast_face_normal( const kcc_cast_core* a, const kcc_cast_core* b, int f )
{
	return f < b->faces ? b->normals[f] : kcc_scale( a->normals[f - b->faces], -1.0f );
}

#define KCC_CAST_MAX_FACES ( 2 * KCC_MAX_POLYGON_VERTICES )

static kcc_cast_output kcc_cast_cores( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b, float separation )
{
	float rounded = a->radius + b->radius + separation;
	float nums[KCC_CAST_MAX_FACES];
	int supports[KCC_CAST_MAX_FACES];

	// The clip interval [lower, upper] as fractions with positive denominators: no division in the loop.
	float lower_num = 0.0f, lower_den = 1.0f, upper_num = 1.0f, upper_den = 1.0f;
	int enter = -1;
	bool outside = false;
	int faces = b->faces + a->faces;
	for ( int f = 0; f < faces; ++f )
	{
		// Face line: dot( n, x ) <= num along the ray x = t * d.
		vec2s n;
		float num;
		int support;
		if ( f < b->faces )
		{
			n = b->normals[f];
			num = kcc_dot( n, b->points[f] ) - kcc_cast_min_dot( a->points, a->count, n, &support ) + rounded;
		}
		else
		{
			int j = f - b->faces;
			vec2s na = a->normals[j];
			num = kcc_dot( na, a->points[j] ) - kcc_cast_min_dot( b->points, b->count, na, &support ) + rounded;
			n = kcc_scale( na, -1.0f );
		}
		nums[f] = num;
		supports[f] = support;
		float den = kcc_dot( n, d );
		if ( den < 0.0f )
		{
			// Entering at num / den: later than lower when num * lower_den < lower_num * den.
			if ( num * lower_den < lower_num * den )
			{
				lower_num = -num;
				lower_den = -den;
				enter = f;
			}
		}
		else if ( den > 0.0f )
		{
			if ( num * upper_den < upper_num * den )
			{
				upper_num = num;
				upper_den = den;
			}
		}
		else
		{
			outside = outside || num < 0.0f;
		}
	}
	kcc_cast_output out = kcc_cast_miss();
	if ( outside || lower_num * upper_den > upper_num * lower_den )
	{
		return out;
	}

	vec2s origin = kcc_v2( 0.0f, 0.0f );
	if ( enter >= 0 )
	{
		float t = lower_num / lower_den;
		kcc_cast_feature feature = kcc_cast_classify( a, b, enter, supports[enter], kcc_scale( d, t ) );
		vec2s normal = kcc_cast_face_normal( a, b, enter );
		if ( feature.on_face == false && kcc_ray_disc( feature.vertex, rounded, origin, d, &t, &normal ) == false )
		{
			return out;
		}
		out.hit = true;
		out.fraction = t;
		out.normal = normal;
		out.point = kcc_add( feature.core_b, kcc_scale( normal, b->radius ) );
		return out;
	}

	// The start is within every offset line. The face of largest separation (smallest num) holds the closest
	// point of M or ends at the closest vertex.
	kcc_cast_feature feature;
	float best_separation = 0.0f;
	int best = 0;
	if ( faces == 0 )
	{
		feature.on_face = false;
		feature.core_b = b->points[0];
		feature.vertex = kcc_sub( b->points[0], a->points[0] );
	}
	else
	{
		for ( int f = 1; f < faces; ++f )
		{
			best = nums[f] < nums[best] ? f : best;
		}
		best_separation = rounded - nums[best];
		feature = kcc_cast_classify( a, b, best, supports[best], origin );
	}
	float distance;
	vec2s direction; // out of the target toward the mover
	if ( feature.on_face )
	{
		distance = best_separation > 0.0f ? best_separation : 0.0f;
		direction = kcc_cast_face_normal( a, b, best );
	}
	else
	{
		distance = sqrtf( kcc_dot( feature.vertex, feature.vertex ) );
		direction = distance > 0.0f ? kcc_scale( feature.vertex, -1.0f / distance ) : kcc_v2( 0.0f, 0.0f );
	}
	if ( distance <= rounded )
	{
		float radii = a->radius + b->radius;
		out.hit = true;
		out.fraction = 0.0f;
		if ( distance > radii )
		{
			// Within the separation, not overlapping: the separating normal.
			out.normal = direction;
			out.point = kcc_add( feature.core_b, kcc_scale( direction, b->radius ) );
		}
		else if ( distance > 0.0f )
		{
			// Only the rounded parts overlap: the middle of the overlap between the cores.
			out.point = kcc_add( feature.core_b, kcc_scale( direction, 0.5f * ( b->radius + distance - a->radius ) ) );
		}
		else
		{
			out.point = feature.core_b;
		}
		return out;
	}
	// Beyond the disc of the closest vertex (only a vertex can be farther than rounded while inside P).
	float t;
	vec2s normal;
	if ( feature.on_face == false && kcc_ray_disc( feature.vertex, rounded, origin, d, &t, &normal ) )
	{
		out.hit = true;
		out.fraction = t;
		out.normal = normal;
		out.point = kcc_add( feature.core_b, kcc_scale( normal, b->radius ) );
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
	if ( conservative == false && kcc_in_range( translation ) && target_separation <= KCC_MAX_MAGNITUDE )
	{
		kcc_cast_core ca, cb;
		if ( kcc_cast_core_make( moving, &ca ) && kcc_cast_core_make( target, &cb ) )
		{
			return kcc_cast_cores( &ca, translation, &cb, target_separation );
		}
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
