// SPDX-License-Identifier: MIT
// Ray casts against every kind, and shape casts: exact Minkowski-difference ray casts for polytope cores, and
// conservative advancement on GJK distance when a sector's curved core is involved.
// The shape cast's selects sit on divisions that GCC would otherwise move into a branch and refuse to speculate,
// as they "could trap"; kcc2d never enables floating-point traps. This changes no result (as in batch.c).
#if defined( __GNUC__ ) && !defined( __clang__ )
#pragma GCC optimize( "no-trapping-math" )
#endif

#include "internal.h"
#include "vector_math.h"

#include <float.h>

// Keeps the rare paths out of the shape cast's hot function (GCC otherwise inlines them into one large body).
#if defined( __GNUC__ )
#define KCC_CAST_NOINLINE __attribute__( ( noinline ) )
#else
#define KCC_CAST_NOINLINE
#endif

// The shape cast builds and clips its face lines four at a time with SSE2 where available (every x86-64). The
// scalar code computes the same values; define KCC_NO_SIMD to use it.
#if !defined( KCC_NO_SIMD ) && ( defined( __SSE2__ ) || defined( _M_X64 ) )
#define KCC_CAST_SSE2 1
#include <emmintrin.h>
#endif

// Conservative advancement: stop when the distance is within this of the target (world units).
#define KCC_CAST_TOLERANCE ( 0.25f * KCC_LINEAR_SLOP )
#define KCC_CAST_MAX_ITERATIONS 40


static inline vec2s kcc_lerp( vec2s a, vec2s b, float s )
{
	return kcc_v2( a.x + s * ( b.x - a.x ), a.y + s * ( b.y - a.y ) );
}

static inline vec2s kcc_normalize_or( vec2s v, vec2s fallback )
{
	return kcc_unit_or( v, fallback );
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

// Ray p0 + t * d, t in [0, 1], against the disc (center, radius), p0 outside it. A disc of radius 0 is a point
// (a corner where sharp cores meet): it has no normal of its own, and the direction from it to the ray would be
// rounding residue, so point_normal (a normal of the corner, from the caller) is reported.
static bool kcc_ray_disc( vec2s center, float radius, vec2s p0, vec2s d, vec2s point_normal, float* fraction,
						  vec2s* normal )
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
	if ( radius == 0.0f )
	{
		*normal = point_normal;
		return true;
	}
	// The contact direction; the fallback (against the motion) only when it is zero, computed only then.
	vec2s toward = kcc_add( m, kcc_scale( d, t ) );
	float largest = fabsf( toward.x ) > fabsf( toward.y ) ? fabsf( toward.x ) : fabsf( toward.y );
	*normal = largest > 0.0f && largest < INFINITY ? kcc_unit_or( toward, d )
												   : kcc_normalize_or( kcc_scale( d, -1.0f ), d );
	return true;
}

// The clip's entry point p (at fraction lower) as a hit on face f when it lies within the face's extent.
static bool kcc_ray_entry_on_face( const vec2s* vertices, const vec2s* normals, int count, int f, vec2s p, float lower,
								   kcc_polytope_hit* hit )
{
	int next = f + 1 == count ? 0 : f + 1;
	vec2s e = kcc_sub( vertices[next], vertices[f] );
	float u = kcc_dot( kcc_sub( p, vertices[f] ), e );
	float ee = kcc_dot( e, e );
	if ( u >= 0.0f && u <= ee )
	{
		hit->fraction = lower;
		hit->normal = normals[f];
		hit->edge = f;
		hit->s = ee > 0.0f ? u / ee : 0.0f;
		return true;
	}
	return false;
}

// The rounding allowed where the ray p0 + t * d, t in [0, 1], meets the edge lines through vertices u and v.
static float kcc_ray_slack( vec2s u, vec2s v, vec2s p0, vec2s d )
{
	float size_u = fabsf( u.x ) + fabsf( u.y ), size_v = fabsf( v.x ) + fabsf( v.y );
	return 16.0f * FLT_EPSILON * ( fabsf( p0.x ) + fabsf( p0.y ) + fabsf( d.x ) + fabsf( d.y ) + ( size_u > size_v ? size_u : size_v ) );
}

// Whether p lies within every edge line of a sharp polytope, up to the rounding of the lines' offsets.
static bool kcc_ray_within_lines( const vec2s* vertices, const vec2s* normals, int count, vec2s p )
{
	float size = fabsf( p.x ) + fabsf( p.y ), outside = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		float vertex_size = fabsf( vertices[i].x ) + fabsf( vertices[i].y );
		size = vertex_size > size ? vertex_size : size;
		float gap = kcc_dot( normals[i], kcc_sub( p, vertices[i] ) );
		outside = gap > outside || gap != gap ? gap : outside;
	}
	return outside <= 16.0f * FLT_EPSILON * size; // NaN: false
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
		return kcc_ray_disc( vertices[0], radius, p0, d, kcc_normalize_or( kcc_scale( d, -1.0f ), d ), &hit->fraction,
							 &hit->normal );
	}

	float lower = 0.0f, upper = 1.0f, upper_den = 0.0f;
	int enter = -1, leave = 0;
	bool empty = false; // radius 0 only: an empty interval (or a parallel line outside) within rounding
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
				upper_den = den;
				leave = i;
			}
		}
		else if ( num < 0.0f )
		{
			if ( radius > 0.0f || num < -kcc_ray_slack( vertices[i], vertices[i], p0, d ) )
			{
				return false;
			}
			empty = true;
		}
		if ( upper < lower )
		{
			// The point at lower lies (lower - upper) * upper_den beyond the line that set upper (0 while upper is 1).
			if ( radius > 0.0f || upper_den == 0.0f ||
				 ( lower - upper ) * upper_den > kcc_ray_slack( vertices[enter < 0 ? leave : enter], vertices[leave], p0, d ) )
			{
				return false;
			}
			empty = true;
		}
	}
	// Radius 0: the shape may be flat (a segment, as a capsule of radius 0 is), and a ray crossing it enters and
	// leaves through two opposite lines at the same fraction; rounding then gives an empty interval about half the
	// time. The entry point within rounding of every line is a crossing (or a touch), not a miss.
	if ( empty && ( lower > 1.0f || kcc_ray_within_lines( vertices, normals, count,
														   kcc_add( p0, kcc_scale( d, lower ) ) ) == false ) )
	{
		return false;
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
		vec2s p = kcc_add( p0, kcc_scale( d, lower ) );
		if ( kcc_ray_entry_on_face( vertices, normals, count, enter, p, lower, hit ) )
		{
			return true;
		}
		int next = enter + 1 == count ? 0 : enter + 1;
		bool backward = kcc_dot( kcc_sub( p, vertices[enter] ), kcc_sub( vertices[next], vertices[enter] ) ) < 0.0f;
		corner = backward ? enter : next;
		// Faces of M nearly collinear (a box turned by pi has rotation (-1, 8.7e-8)): rounding may have picked the
		// short one as entered while the entry point lies on a neighbour across the corner, or past that one's far
		// end, each tied neighbour's line passing through the point within rounding. The walk follows such faces:
		// the contact is on the one holding the point, or at the disc of the last corner passed.
		for ( int walked = 1; walked < count; ++walked )
		{
			int neighbour = backward ? ( corner == 0 ? count - 1 : corner - 1 ) : corner;
			vec2s c = vertices[corner];
			float slack = 16.0f * FLT_EPSILON * ( fabsf( p.x ) + fabsf( p.y ) + fabsf( c.x ) + fabsf( c.y ) + radius );
			float gap = kcc_dot( normals[neighbour], kcc_sub( p, vertices[neighbour] ) ) - radius;
			if ( !( kcc_dot( normals[neighbour], d ) < 0.0f && gap >= -slack ) )
			{
				break;
			}
			if ( kcc_ray_entry_on_face( vertices, normals, count, neighbour, p, lower, hit ) )
			{
				return true;
			}
			int far = backward ? neighbour : ( neighbour + 1 == count ? 0 : neighbour + 1 );
			// Past the far end: go on from there. Past the shared corner instead (rounding): that corner decides.
			if ( kcc_dot( kcc_sub( p, c ), kcc_sub( vertices[far], c ) ) <= 0.0f )
			{
				break;
			}
			corner = far;
			enter = neighbour;
		}
	}
	hit->edge = corner;
	hit->s = 0.0f;
	// The entered face (or the start's) ends at the corner: its normal is one of the corner's.
	vec2s corner_normal = normals[enter < 0 ? start->edge : enter];
	return kcc_ray_disc( vertices[corner], radius, p0, d, corner_normal, &hit->fraction, &hit->normal );
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
	if ( kcc_ray_disc( sector->apex, radius, origin, d, kcc_normalize_or( kcc_scale( d, -1.0f ), d ), &t_arc, &n_arc ) )
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

static kcc_cast_output kcc_ray_cast_unchecked( const kcc_shape* s, vec2s origin, vec2s translation );

kcc_cast_output kcc_ray_cast( const kcc_shape* s, vec2s origin, vec2s translation )
{
	KCC_ASSERT( kcc_is_valid_vec2( origin ), "kcc_ray_cast: origin is not finite" );
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_ray_cast: translation is not finite" );
	if ( kcc_is_valid_vec2( origin ) == false || kcc_is_valid_vec2( translation ) == false )
	{
		return kcc_cast_miss();
	}

	// One notion of validity for every query: exactly what kcc_shape_is_valid rejects (convexity included). Debug
	// builds check first so the assert fires; release builds check only a hit (a miss is the answer for an invalid
	// shape too, and the computation indexes nothing kcc_make_proxies has not checked).
#if defined( KCC_ENABLE_ASSERT )
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_ray_cast: shape is invalid" );
	if ( valid == false )
	{
		return kcc_cast_miss();
	}
	return kcc_ray_cast_unchecked( s, origin, translation );
#else
	kcc_cast_output out = kcc_ray_cast_unchecked( s, origin, translation );
	return out.hit == false || kcc_shape_is_valid( s ) ? out : kcc_cast_miss();
#endif
}

// kcc_ray_cast for a shape whose validity is checked by the caller (origin and translation finite).
static kcc_cast_output kcc_ray_cast_unchecked( const kcc_shape* s, vec2s origin, vec2s translation )
{
	kcc_proxy proxies[KCC_MAX_PROXIES];
	int count = kcc_make_proxies( s, proxies );
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
			vec2s normal = kcc_unit_or( kcc_scale( start.point, -1.0f ), kcc_v2( 0.0f, 1.0f ) );
			out.normal = normal;
			out.point = kcc_add( core_b, kcc_scale( normal, b->radius ) );
		}
		else if ( start.distance > 0.0f )
		{
			// Only the rounded parts overlap: the middle of the overlap between the cores.
			vec2s normal = kcc_unit_or( kcc_scale( start.point, -1.0f ), kcc_v2( 0.0f, 1.0f ) );
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
// or ends at the closest vertex, which decides overlap and, outside S, the vertex whose disc to cast at.

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
	return ( fabsf( v.x ) <= KCC_MAX_MAGNITUDE ) & ( fabsf( v.y ) <= KCC_MAX_MAGNITUDE );
}

static inline bool kcc_cast_radius( float r )
{
	return ( r >= 0.0f ) & ( r <= KCC_MAX_MAGNITUDE );
}

static inline bool kcc_cast_unit( vec2s v )
{
	return fabsf( v.x * v.x + v.y * v.y - 1.0f ) <= 1.0e-3f;
}

// The box kinds' corners and normals in storage (no zero extents: flat boxes take the general path).
static bool kcc_cast_core_make_box( const kcc_shape* s, kcc_cast_core* c )
{
	if ( s->type == KCC_SHAPE_AABB )
	{
		const kcc_aabb* b = &s->aabb;
		if ( !( b->min.x < b->max.x && b->min.y < b->max.y ) )
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
	}
	else if ( s->type == KCC_SHAPE_OBB )
	{
		const kcc_obb* b = &s->obb;
		if ( !( b->half_extents.x > 0.0f && b->half_extents.y > 0.0f && fabsf( b->angle ) <= KCC_MAX_MAGNITUDE ) )
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
	}
	else
	{
		return false; // sectors, invalid kinds
	}
	c->points = c->storage;
	c->normals = c->storage + 4;
	c->radius = 0.0f;
	c->count = 4;
	c->faces = 4;
	return true;
}

// Points the core at a circle, capsule, AABB, OBB or polygon (no zero extents), checking only what indexing
// needs. False for everything else (sectors, flat boxes, bad counts): the general path answers those. The common
// kinds inline, the boxes out of line.
static inline bool kcc_cast_core_make( const kcc_shape* s, kcc_cast_core* c )
{
	if ( s->type == KCC_SHAPE_POLYGON )
	{
		c->points = s->polygon.vertices;
		c->normals = s->polygon.normals;
		c->radius = s->polygon.radius;
		c->count = s->polygon.count;
		c->faces = s->polygon.count;
		return s->polygon.count >= 3 && s->polygon.count <= KCC_MAX_POLYGON_VERTICES;
	}
	if ( s->type == KCC_SHAPE_CAPSULE )
	{
		const kcc_capsule* k = &s->capsule;
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
		return true;
	}
	if ( s->type == KCC_SHAPE_CIRCLE )
	{
		c->points = &s->circle.center;
		c->normals = NULL;
		c->radius = s->circle.radius;
		c->count = 1;
		c->faces = 0;
		return true;
	}
	return kcc_cast_core_make_box( s, c );
}

// What kcc_make_proxies accepts (finite, within KCC_MAX_MAGNITUDE, unit normals and rotation, non-negative
// radius), checked through sums: NaN and Inf propagate into them, and a sum within the limit bounds every term.
// A shape refused here only takes the general path, which checks each value. Checked only for a hit in release
// builds: a miss is the answer for an invalid shape too, and no value can make the arithmetic crash.
static bool kcc_cast_core_valid( const kcc_shape* s, const kcc_cast_core* c )
{
	if ( s->type == KCC_SHAPE_OBB )
	{
		const kcc_obb* b = &s->obb;
		return kcc_cast_usable( b->center ) && kcc_cast_usable( b->half_extents ) && kcc_cast_usable( b->rotation ) &&
			   kcc_cast_unit( b->rotation );
	}
	float size = 0.0f, skew = 0.0f;
	for ( int i = 0; i < c->count; ++i )
	{
		size += fabsf( c->points[i].x ) + fabsf( c->points[i].y );
	}
	for ( int i = 0; i < c->faces; ++i )
	{
		// A capsule's points denormal-apart give no unit normal either.
		vec2s n = c->normals[i];
		skew += fabsf( n.x * n.x + n.y * n.y - 1.0f );
	}
	return size <= KCC_MAX_MAGNITUDE && skew <= 1.0e-3f && kcc_cast_radius( c->radius );
}

// Where a point q on the plane's side stands relative to face f of M: on the face's extent (its tangential
// projection lies on the face), or beyond one end, whose vertex w of M is then the closest feature.
typedef struct kcc_cast_feature
{
	vec2s core_b; // contact point on b's core (on the face: the middle of the touching part)
	vec2s vertex; // off the face: the vertex w = b - a of M at the end passed
	float beyond; // off the face: how far past that end, along the face (0 on it)
	bool on_face;
} kcc_cast_feature;

// The middle of the part of [c_lo, c_hi] (the other core's extent along a face) that lies on the face [0, ee].
static inline float kcc_cast_extent_mid( float c_lo, float c_hi, float ee )
{
	float from = c_lo > 0.0f ? c_lo : 0.0f;
	float to = c_hi < ee ? c_hi : ee;
	return 0.5f * ( from + to );
}

// Face f < b->faces is b's edge f: its points are b_f .. b_f+1 minus a's support in -n. Otherwise a's edge
// j = f - b->faces reversed: b's support in -n_a minus a_j .. a_j+1. Points of the other core within rounding of
// the support line count too: a parallel edge of it lengthens the face (two boxes landing flat).
static kcc_cast_feature kcc_cast_classify( const kcc_cast_core* a, const kcc_cast_core* b, int f, vec2s q )
{
	bool on_b = f < b->faces;
	const kcc_cast_core* fixed = on_b ? b : a;
	const kcc_cast_core* other = on_b ? a : b;
	int i = on_b ? f : f - b->faces;
	int i1 = i + 1 == fixed->count ? 0 : i + 1;
	vec2s e0 = fixed->points[i], e1 = fixed->points[i1];
	vec2s n = fixed->normals[i];
	// Positions along the face are measured on its unit tangent (the normal turned left: the edge direction),
	// so an edge of zero length (a degenerate core) has an extent of zero, not an undefined one.
	vec2s e = kcc_v2( -n.y, n.x );
	float ee = kcc_dot( kcc_sub( e1, e0 ), e );
	// The other core moves by q relative to b's edge, or b moves by -q relative to a's edge: c = (o + base) . e.
	vec2s base = on_b ? kcc_sub( q, e0 ) : kcc_sub( kcc_scale( q, -1.0f ), e0 );
	const vec2s* o = other->points;
	// The support (smallest n . o), then any other point within rounding of its line (rare: a parallel edge).
	int lo, hi;
	float c_lo, c_hi;
	if ( other->count <= 2 )
	{
		// A point or a segment (the controller's characters): straight-line.
		vec2s o1 = o[other->count - 1];
		float v0 = kcc_dot( n, o[0] ), v1 = kcc_dot( n, o1 );
		int support = v1 < v0 ? other->count - 1 : 0;
		vec2s s = o[support];
		bool tie = fabsf( v1 - v0 ) <= 4.0f * FLT_EPSILON * ( fabsf( s.x ) + fabsf( s.y ) );
		float c0 = kcc_dot( kcc_add( o[0], base ), e ), c1 = kcc_dot( kcc_add( o1, base ), e );
		float cs = support == 0 ? c0 : c1;
		int last = other->count - 1;
		lo = tie ? ( c1 < c0 ? last : 0 ) : support;
		hi = tie ? ( c1 < c0 ? 0 : last ) : support;
		c_lo = tie ? ( c1 < c0 ? c1 : c0 ) : cs;
		c_hi = tie ? ( c1 < c0 ? c0 : c1 ) : cs;
	}
	else
	{
		float value[KCC_MAX_POLYGON_VERTICES];
		int support = 0;
		value[0] = kcc_dot( n, o[0] );
		for ( int k = 1; k < other->count; ++k )
		{
			value[k] = kcc_dot( n, o[k] );
			support = value[k] < value[support] ? k : support;
		}
		lo = support;
		hi = support;
		c_lo = kcc_dot( kcc_add( o[support], base ), e );
		c_hi = c_lo;
		float level = value[support] + 4.0f * FLT_EPSILON * ( fabsf( o[support].x ) + fabsf( o[support].y ) );
		for ( int k = 0; k < other->count; ++k )
		{
			if ( value[k] <= level && k != support )
			{
				float c = kcc_dot( kcc_add( o[k], base ), e );
				lo = c < c_lo ? k : lo;
				c_lo = c < c_lo ? c : c_lo;
				hi = c > c_hi ? k : hi;
				c_hi = c > c_hi ? c : c_hi;
			}
		}
	}
	kcc_cast_feature out;
	if ( c_lo <= ee && c_hi >= 0.0f )
	{
		out.on_face = true;
		out.beyond = 0.0f;
		out.vertex = kcc_v2( 0.0f, 0.0f );
		float mid = kcc_cast_extent_mid( c_lo, c_hi, ee );
		if ( on_b )
		{
			out.core_b = kcc_add( e0, kcc_scale( e, mid ) );
		}
		else
		{
			float span = c_hi - c_lo;
			out.core_b = span > 0.0f ? kcc_lerp( o[lo], o[hi], ( mid - c_lo ) / span ) : o[lo];
		}
		return out;
	}
	out.on_face = false;
	out.beyond = c_lo > ee ? c_lo - ee : -c_hi;
	if ( c_lo > ee )
	{
		out.core_b = on_b ? e1 : o[lo];
		out.vertex = on_b ? kcc_sub( e1, o[lo] ) : kcc_sub( o[lo], e1 );
	}
	else
	{
		out.core_b = on_b ? e0 : o[hi];
		out.vertex = on_b ? kcc_sub( e0, o[hi] ) : kcc_sub( o[hi], e0 );
	}
	return out;
}

static inline vec2s kcc_cast_face_normal( const kcc_cast_core* a, const kcc_cast_core* b, int f )
{
	return f < b->faces ? b->normals[f] : kcc_scale( a->normals[f - b->faces], -1.0f );
}

// The hit at fraction t on face f (the entry point on its extent, or the contact at its end vertex), with f's normal.
static inline kcc_cast_output kcc_cast_face_hit( const kcc_cast_core* a, const kcc_cast_core* b, int f, float t,
												 vec2s core_b )
{
	kcc_cast_output out;
	out.hit = true;
	out.fraction = t;
	out.normal = kcc_cast_face_normal( a, b, f );
	out.point = kcc_add( core_b, kcc_scale( out.normal, b->radius ) );
	return out;
}

// Whether the point at fraction t lies within every face line of M (t * den <= num) up to slack.
static bool kcc_cast_within_faces( const float* num, const float* den, int faces, float t, float slack )
{
	for ( int f = 0; f < faces; ++f )
	{
		if ( !( t * den[f] - num[f] <= slack ) ) // NaN: not within
		{
			return false;
		}
	}
	return true;
}

// How far a face line of M may lie from its true place: its offset n . b_k - n . a_i + rounded is a few roundings of
// values up to the cores' coordinate sizes.
static float kcc_cast_slack( const kcc_cast_core* a, const kcc_cast_core* b, float rounded )
{
	float size_a = 0.0f, size_b = 0.0f;
	for ( int i = 0; i < a->count; ++i )
	{
		float size = fabsf( a->points[i].x ) + fabsf( a->points[i].y );
		size_a = size > size_a ? size : size_a;
	}
	for ( int i = 0; i < b->count; ++i )
	{
		float size = fabsf( b->points[i].x ) + fabsf( b->points[i].y );
		size_b = size > size_b ? size : size_b;
	}
	return 16.0f * FLT_EPSILON * ( size_a + size_b + rounded );
}

static kcc_cast_output kcc_cast_polytopes( const kcc_proxy* a, vec2s translation, const kcc_proxy* b,
										   float separation );

// The gap along n (out of b toward a) between the cores, a moved by q: the smallest n . a_i + n . q minus the
// largest n . b_j. A contact normal at a contact at distance R gives R.
static float kcc_cast_separates( const kcc_cast_core* a, vec2s q, const kcc_cast_core* b, vec2s n )
{
	float lowest = FLT_MAX, highest = -FLT_MAX;
	for ( int i = 0; i < a->count; ++i )
	{
		float v = kcc_dot( n, a->points[i] );
		lowest = v < lowest ? v : lowest;
	}
	for ( int j = 0; j < b->count; ++j )
	{
		float v = kcc_dot( n, b->points[j] );
		highest = v > highest ? v : highest;
	}
	return lowest + kcc_dot( n, q ) - highest;
}

// The cores as proxies, cast by the general path (M built explicitly, its nearly collinear faces followed).
KCC_CAST_NOINLINE static kcc_cast_output kcc_cast_cores_explicit( const kcc_cast_core* a, vec2s d,
																	const kcc_cast_core* b, float rounded )
{
	kcc_proxy pa, pb;
	const kcc_cast_core* cores[2] = { a, b };
	kcc_proxy* proxies[2] = { &pa, &pb };
	for ( int k = 0; k < 2; ++k )
	{
		kcc_proxy* p = proxies[k];
		*p = ( kcc_proxy ){ 0 };
		p->count = cores[k]->count;
		p->radius = cores[k]->radius;
		for ( int i = 0; i < p->count; ++i )
		{
			p->points[i] = cores[k]->points[i];
			p->normals[i] = cores[k]->faces > 0 ? cores[k]->normals[i] : kcc_v2( 0.0f, 1.0f ); // as kcc_make_proxies
		}
	}
	float separation = rounded - a->radius - b->radius;
	return kcc_cast_polytopes( &pa, d, &pb, separation > 0.0f ? separation : 0.0f );
}

// Two faces of M that meet at a vertex w enter at the same time when the ray passes through w (a corner of one core
// meets a corner of the other, radius 0). Rounding (the face offsets are differences of dot products) then picks
// either, and the one picked may classify as just past its end: the disc of w has radius 0 and a ray a rounding
// error off w misses it, though it enters M through the other face. So every face whose line the entry point lies
// on within rounding is considered; when one of them holds the entry point, the contact is real and is reported with
// a target face if one qualifies (on its face, or past its end within rounding: vertex to vertex), else with the
// mover's face: the target's surface is what a character stands on (a flat bottom corner on a slope's apex gives
// the slope, not the character's side). Otherwise (no tie, or the entry point is off every tied face: a rounded
// corner) the disc of the entered face's end vertex decides, as for any entry past a face's end, unless the path
// misses it or its normal does not keep the cores apart there: then M built explicitly does.
KCC_CAST_NOINLINE static kcc_cast_output kcc_cast_entered_tie( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b,
																float rounded, int enter, float lower,
																kcc_cast_feature entered, const float* entry,
																const float* den, int faces )
{
	vec2s q = kcc_scale( d, lower );
	float slack = kcc_cast_slack( a, b, rounded );
	bool real = entered.on_face;
	int pick = -1, pick_rank = 4;
	kcc_cast_feature picked = entered;
	for ( int k = -1; k < faces; ++k )
	{
		int f = k < 0 ? enter : k;
		kcc_cast_feature feature = entered;
		if ( k >= 0 )
		{
			// Entered too, and the entry point lies on its line within rounding.
			if ( f == enter || !( den[f] < 0.0f ) || ( lower - entry[f] ) * -den[f] > slack )
			{
				continue;
			}
			feature = kcc_cast_classify( a, b, f, q );
			real = real || feature.on_face;
		}
		if ( feature.on_face || feature.beyond <= slack )
		{
			// Target faces first, then faces holding the entry point.
			int rank = ( f < b->faces ? 0 : 2 ) + ( feature.on_face ? 0 : 1 );
			if ( rank < pick_rank )
			{
				pick = f;
				pick_rank = rank;
				picked = feature;
			}
		}
	}
	if ( real && pick >= 0 )
	{
		return kcc_cast_face_hit( a, b, pick, lower, picked.core_b );
	}
	float t = lower;
	vec2s normal;
	if ( entered.on_face )
	{
		return kcc_cast_miss(); // on_face with real: picked above
	}
	if ( kcc_ray_disc( entered.vertex, rounded, kcc_v2( 0.0f, 0.0f ), d, kcc_cast_face_normal( a, b, enter ), &t,
					   &normal ) == false )
	{
		// The path enters the mitered M but misses the disc at the end of the entered face. Across a very sharp
		// corner of M (nearly parallel edges: two level capsules, a box and an upright capsule) the corner's
		// classification rests on rounding, and the disc may be the wrong one: M built explicitly decides.
		return kcc_cast_cores_explicit( a, d, b, rounded );
	}
	if ( kcc_cast_separates( a, kcc_scale( d, t ), b, normal ) < rounded - slack )
	{
		// The disc was hit, but its normal does not keep the cores R apart at that fraction: the cores met
		// earlier, at another corner (the wrong one of a very sharp corner's two, by rounding).
		return kcc_cast_cores_explicit( a, d, b, rounded );
	}
	kcc_cast_output out;
	out.hit = true;
	out.fraction = t;
	out.normal = normal;
	out.point = kcc_add( entered.core_b, kcc_scale( normal, b->radius ) );
	return out;
}

// The ray enters the mitered polygon at fraction lower through face enter: the hit on that face, or on the disc
// of the vertex at the end it passed, or a miss of that disc. entry and den: every face's entry fraction (0 when it
// does not enter) and n . d, in kcc_cast_classify's numbering. The common case, a target face entered on its extent,
// needs nothing else; a mover's face or an entry past the end looks for a tie first (kcc_cast_entered_tie).
static inline kcc_cast_output kcc_cast_entered( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b, float rounded,
												int enter, float lower, const float* entry, const float* den, int faces )
{
	kcc_cast_feature feature = kcc_cast_classify( a, b, enter, kcc_scale( d, lower ) );
	if ( feature.on_face && enter < b->faces )
	{
		return kcc_cast_face_hit( a, b, enter, lower, feature.core_b );
	}
	return kcc_cast_entered_tie( a, d, b, rounded, enter, lower, feature, entry, den, faces );
}

// Starting within every offset line: the answer from the closest feature of M (a face, whose normal is
// face_normal, at best_separation; or the vertex past that face's end). Shared by kcc_cast_start and the round
// kernel's start.
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline kcc_cast_output kcc_cast_start_answer( kcc_cast_feature feature, float best_separation,
													 float inside_margin, vec2s face_normal, float rounded,
													 float radius_a, float radius_b, vec2s d )
{
	vec2s origin = kcc_v2( 0.0f, 0.0f );
	float distance;
	vec2s direction; // out of the target toward the mover
	// Within every face line of M (by more than inside_margin) the cores overlap, whatever the classification says:
	// with faces of M nearly collinear, rounding can put the point past the end of the face found, whose vertex may
	// lie farther than R (boxes turned by pi/2 and 2 pi, one inside the other, were a miss). In exact arithmetic the
	// closest face line of a bounded M holds the closest point within its extent, so only rounding cases change.
	if ( feature.on_face || best_separation < -inside_margin )
	{
		distance = best_separation > 0.0f ? best_separation : 0.0f;
		direction = face_normal;
	}
	else
	{
		distance = sqrtf( kcc_dot( feature.vertex, feature.vertex ) );
		direction = kcc_unit_or( kcc_scale( feature.vertex, -1.0f ), kcc_v2( 0.0f, 0.0f ) );
	}
	kcc_cast_output out = kcc_cast_miss();
	if ( distance <= rounded )
	{
		float radii = radius_a + radius_b;
		out.hit = true;
		out.fraction = 0.0f;
		if ( distance > radii )
		{
			// Within the separation, not overlapping: the separating normal.
			out.normal = direction;
			out.point = kcc_add( feature.core_b, kcc_scale( direction, radius_b ) );
		}
		else if ( distance > 0.0f )
		{
			// Only the rounded parts overlap: the middle of the overlap between the cores.
			out.point = kcc_add( feature.core_b, kcc_scale( direction, 0.5f * ( radius_b + distance - radius_a ) ) );
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
	if ( feature.on_face == false && kcc_ray_disc( feature.vertex, rounded, origin, d, face_normal, &t, &normal ) )
	{
		out.hit = true;
		out.fraction = t;
		out.normal = normal;
		out.point = kcc_add( feature.core_b, kcc_scale( normal, radius_b ) );
	}
	return out;
}

// The start is within every offset line. The face of largest separation (best, -1 when M is a point) holds the
// closest point of M or ends at the closest vertex.
static kcc_cast_output kcc_cast_start( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b, float rounded, int best,
									   float best_separation )
{
	kcc_cast_feature feature;
	if ( best < 0 )
	{
		feature.on_face = false;
		feature.core_b = b->points[0];
		feature.vertex = kcc_sub( b->points[0], a->points[0] );
	}
	else
	{
		feature = kcc_cast_classify( a, b, best, kcc_v2( 0.0f, 0.0f ) );
	}
	// Off the face, its normal is still one of the closest vertex's (it ends there): the corner's normal when the
	// cores are sharp. M a point: against the motion.
	vec2s face_normal = best >= 0 ? kcc_cast_face_normal( a, b, best ) : kcc_normalize_or( kcc_scale( d, -1.0f ), d );
	// Within every offset line but past the end of the closest face, beyond its vertex's disc: the corner region
	// of a vertex of M. With nearly collinear faces of M (boxes turned by multiples of pi/2) the face, and so the
	// vertex, rest on rounding, and the start may really be within R of the neighbouring face: M built explicitly
	// decides.
	if ( best >= 0 && feature.on_face == false && kcc_dot( feature.vertex, feature.vertex ) > rounded * rounded )
	{
		return kcc_cast_cores_explicit( a, d, b, rounded );
	}
	// A flat M (a point or parallel segments against a segment) has no face lines across its ends: being within its
	// two lines is not being in it, and those two give a separation of 0 up to rounding. Every other M is bounded by
	// its face lines.
	return kcc_cast_start_answer( feature, best_separation, kcc_cast_slack( a, b, rounded ), face_normal, rounded,
								  a->radius, b->radius, d );
}

#define KCC_CAST_MAX_FACES ( 2 * KCC_MAX_POLYGON_VERTICES )

// The face lines of M offset by rounded: dot( n_f, x ) <= num[f], and den[f] = dot( n_f, d ). Written per mover
// core size so the common movers (circle, capsule) have no inner loop. Returns the face count.
static inline int kcc_cast_faces( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b, float rounded, float* num,
								  float* den )
{
	const vec2s* pb = b->points;
	const vec2s* nb = b->normals;
	const vec2s* pa = a->points;
	if ( a->count == 1 )
	{
		vec2s a0 = pa[0];
		for ( int k = 0; k < b->faces; ++k )
		{
			num[k] = kcc_dot( nb[k], kcc_sub( pb[k], a0 ) ) + rounded;
			den[k] = kcc_dot( nb[k], d );
		}
		return b->faces;
	}
	if ( a->count == 2 )
	{
		vec2s a0 = pa[0], a1 = pa[1];
		for ( int k = 0; k < b->faces; ++k )
		{
			float s0 = kcc_dot( nb[k], a0 ), s1 = kcc_dot( nb[k], a1 );
			num[k] = kcc_dot( nb[k], pb[k] ) - ( s0 < s1 ? s0 : s1 ) + rounded;
			den[k] = kcc_dot( nb[k], d );
		}
		// The segment's two faces: normal u (a0 to a1) reversed is -u with support max over b of -u . b + u . a0;
		// the other is +u with support max over b of u . b - u . a1.
		vec2s u = a->normals[0];
		float lo = kcc_dot( u, pb[0] ), hi = lo;
		for ( int k = 1; k < b->count; ++k )
		{
			float value = kcc_dot( u, pb[k] );
			lo = value < lo ? value : lo;
			hi = value > hi ? value : hi;
		}
		int f = b->faces;
		float ud = kcc_dot( u, d );
		num[f] = kcc_dot( u, a0 ) - lo + rounded;
		den[f] = -ud;
		num[f + 1] = hi - kcc_dot( u, a1 ) + rounded;
		den[f + 1] = ud;
		return f + 2;
	}
	for ( int k = 0; k < b->faces; ++k )
	{
		float low = kcc_dot( nb[k], pa[0] );
		for ( int i = 1; i < a->count; ++i )
		{
			float value = kcc_dot( nb[k], pa[i] );
			low = value < low ? value : low;
		}
		num[k] = kcc_dot( nb[k], pb[k] ) - low + rounded;
		den[k] = kcc_dot( nb[k], d );
	}
	const vec2s* na = a->normals;
	for ( int j = 0; j < a->faces; ++j )
	{
		float low = kcc_dot( na[j], pb[0] );
		for ( int k = 1; k < b->count; ++k )
		{
			float value = kcc_dot( na[j], pb[k] );
			low = value < low ? value : low;
		}
		num[b->faces + j] = kcc_dot( na[j], pa[j] ) - low + rounded;
		den[b->faces + j] = -kcc_dot( na[j], d );
	}
	return b->faces + a->faces;
}

#if defined( KCC_CAST_SSE2 )
static inline float kcc_cast_hmax( __m128 v )
{
	v = _mm_max_ps( v, _mm_shuffle_ps( v, v, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
	return _mm_cvtss_f32( _mm_max_ss( v, _mm_shuffle_ps( v, v, _MM_SHUFFLE( 2, 3, 0, 1 ) ) ) );
}

static inline float kcc_cast_hmin( __m128 v )
{
	v = _mm_min_ps( v, _mm_shuffle_ps( v, v, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
	return _mm_cvtss_f32( _mm_min_ss( v, _mm_shuffle_ps( v, v, _MM_SHUFFLE( 2, 3, 0, 1 ) ) ) );
}

// Four points of a core with at least four slots (a polygon's arrays, or storage) as x and y lanes.
static inline void kcc_cast_load4( const vec2s* v, __m128* x, __m128* y )
{
	__m128 v01 = _mm_loadu_ps( v[0].raw ), v23 = _mm_loadu_ps( v[2].raw );
	*x = _mm_shuffle_ps( v01, v23, _MM_SHUFFLE( 2, 0, 2, 0 ) );
	*y = _mm_shuffle_ps( v01, v23, _MM_SHUFFLE( 3, 1, 3, 1 ) );
}

// Lanes below count: all bits set.
static inline __m128 kcc_cast_lanes( int count )
{
	return _mm_castsi128_ps( _mm_cmplt_epi32( _mm_set_epi32( 3, 2, 1, 0 ), _mm_set1_epi32( count ) ) );
}

// Per lane n . p for the faces' normals (nx, ny) and one point p.
static inline __m128 kcc_cast_dot_point( __m128 nx, __m128 ny, vec2s p )
{
	return _mm_add_ps( _mm_mul_ps( nx, _mm_set1_ps( p.x ) ), _mm_mul_ps( ny, _mm_set1_ps( p.y ) ) );
}

// Per lane the smallest of low and n . p over the points: the other core's support against each face normal.
static inline __m128 kcc_cast_lowest_dot( __m128 nx, __m128 ny, const vec2s* points, int count, __m128 low )
{
	for ( int i = 0; i < count; ++i )
	{
		low = _mm_min_ps( kcc_cast_dot_point( nx, ny, points[i] ), low );
	}
	return low;
}

static inline __m128 kcc_cast_select( __m128 mask, __m128 a, __m128 b )
{
	return _mm_or_ps( _mm_and_ps( mask, a ), _mm_andnot_ps( mask, b ) );
}

// Lanes of a polygon-like core that kcc_make_proxies would refuse: |x| + |y| above KCC_MAX_MAGNITUDE (a bound on
// each), normals not unit; NaN fails both tests.
static inline int kcc_cast_bad_lanes( __m128 px, __m128 py, __m128 nx, __m128 ny, __m128 lanes )
{
	__m128 sign = _mm_set1_ps( -0.0f );
	__m128 size = _mm_add_ps( _mm_andnot_ps( sign, px ), _mm_andnot_ps( sign, py ) );
	__m128 skew = _mm_sub_ps( _mm_add_ps( _mm_mul_ps( nx, nx ), _mm_mul_ps( ny, ny ) ), _mm_set1_ps( 1.0f ) );
	skew = _mm_andnot_ps( sign, skew );
	__m128 bad = _mm_or_ps( _mm_cmpnle_ps( size, _mm_set1_ps( KCC_MAX_MAGNITUDE ) ),
							_mm_cmpnle_ps( skew, _mm_set1_ps( 1.0e-3f ) ) );
	return _mm_movemask_ps( _mm_and_ps( lanes, bad ) );
}

// What kcc_make_proxies accepts of the small kernel's cores, from the values it loads: b's lanes (and a's for a
// polygon) through kcc_cast_bad_lanes, a segment's ends and normal, a point, both radii.
static inline bool kcc_cast_small_valid( const kcc_cast_core* a, const kcc_cast_core* b, __m128 bx, __m128 by,
										 __m128 nx, __m128 ny, __m128 lanes_b )
{
	int bad = kcc_cast_bad_lanes( bx, by, nx, ny, lanes_b );
	if ( a->faces == 2 )
	{
		bad |= ( kcc_cast_usable( a->points[0] ) && kcc_cast_usable( a->points[1] ) && kcc_cast_unit( a->normals[0] ) ) ? 0 : 1;
	}
	else if ( a->faces > 0 )
	{
		__m128 ax, ay, mx, my;
		kcc_cast_load4( a->points, &ax, &ay );
		kcc_cast_load4( a->normals, &mx, &my );
		bad |= kcc_cast_bad_lanes( ax, ay, mx, my, kcc_cast_lanes( a->faces ) );
	}
	else
	{
		bad |= kcc_cast_usable( a->points[0] ) ? 0 : 1;
	}
	return bad == 0 && kcc_cast_radius( a->radius ) && kcc_cast_radius( b->radius );
}

// kcc_cast_slack with b's points from the loaded lanes (the same value: maxima and single additions are exact).
static inline float kcc_cast_slack_small( const kcc_cast_core* a, __m128 bx, __m128 by, __m128 lanes_b, float rounded )
{
	__m128 sign = _mm_set1_ps( -0.0f );
	__m128 size = _mm_and_ps( lanes_b, _mm_add_ps( _mm_andnot_ps( sign, bx ), _mm_andnot_ps( sign, by ) ) );
	float size_a = 0.0f;
	for ( int i = 0; i < a->count; ++i )
	{
		float value = fabsf( a->points[i].x ) + fabsf( a->points[i].y );
		size_a = value > size_a ? value : size_a;
	}
	return 16.0f * FLT_EPSILON * ( size_a + kcc_cast_hmax( size ) + rounded );
}

// Small cores, the controller's pairs: a circle, capsule or box-sized polygon moving against a core of 3 or 4
// points (a tile). The same lines and arithmetic as kcc_cast_faces and the clip in kcc_cast_cores, straight-line:
// b's faces in one register, a's in another. Validates what it loads (*valid false: take the general path).
KCC_CAST_NOINLINE static kcc_cast_output kcc_cast_small_sse2( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b,
															  float separation, bool* valid )
{
	float rounded = a->radius + b->radius + separation;
	__m128 inf = _mm_set1_ps( INFINITY ), r = _mm_set1_ps( rounded );
	__m128 dx = _mm_set1_ps( d.x ), dy = _mm_set1_ps( d.y );
	__m128 bx, by, nx, ny;
	kcc_cast_load4( b->points, &bx, &by );
	kcc_cast_load4( b->normals, &nx, &ny );
	// A triangle's fourth lane: num +inf, den 0 (no limit, never the face of largest separation).
	__m128 lanes_b = kcc_cast_lanes( b->faces );

	// b's faces: support of a in -n, the smallest n . a over a's points.
	__m128 low = kcc_cast_lowest_dot( nx, ny, a->points, a->count, inf );
	__m128 num_b = _mm_add_ps( _mm_sub_ps( _mm_add_ps( _mm_mul_ps( nx, bx ), _mm_mul_ps( ny, by ) ), low ), r );
	num_b = kcc_cast_select( lanes_b, num_b, inf );
	__m128 den_b = _mm_and_ps( lanes_b, _mm_add_ps( _mm_mul_ps( nx, dx ), _mm_mul_ps( ny, dy ) ) );

	// a's faces (none for a point): normal -n_a, support max over b of -n_a . b + n_a . a_j, i.e.
	// num = n_a . a_j - min over b of n_a . b. A segment's two faces are u (a0 to a1) and -u (a1 to a0).
	__m128 num_a = inf, den_a = _mm_setzero_ps();
	if ( a->faces == 2 )
	{
		// A segment: both faces from the extremes of u . b over b's lanes (min over b of -u . b is -max).
		vec2s a0 = a->points[0], a1 = a->points[1], u = a->normals[0];
		__m128 u_dot_b = _mm_add_ps( _mm_mul_ps( _mm_set1_ps( u.x ), bx ), _mm_mul_ps( _mm_set1_ps( u.y ), by ) );
		float lo = kcc_cast_hmin( kcc_cast_select( lanes_b, u_dot_b, inf ) );
		float hi = kcc_cast_hmax( kcc_cast_select( lanes_b, u_dot_b, _mm_set1_ps( -INFINITY ) ) );
		float ud = kcc_dot( u, d );
		num_a = _mm_setr_ps( kcc_dot( u, a0 ) - lo + rounded, -kcc_dot( u, a1 ) + hi + rounded, INFINITY, INFINITY );
		den_a = _mm_setr_ps( -ud, ud, 0.0f, 0.0f );
	}
	else if ( a->faces > 0 )
	{
		__m128 ax, ay, mx, my;
		kcc_cast_load4( a->points, &ax, &ay );
		kcc_cast_load4( a->normals, &mx, &my );
		__m128 lanes_a = kcc_cast_lanes( a->faces );
		__m128 lo = kcc_cast_lowest_dot( mx, my, b->points, b->count, inf );
		num_a = _mm_add_ps( _mm_sub_ps( _mm_add_ps( _mm_mul_ps( mx, ax ), _mm_mul_ps( my, ay ) ), lo ), r );
		num_a = kcc_cast_select( lanes_a, num_a, inf );
		den_a = _mm_and_ps( lanes_a, _mm_sub_ps( _mm_setzero_ps(), _mm_add_ps( _mm_mul_ps( mx, dx ), _mm_mul_ps( my, dy ) ) ) );
	}

#if defined( KCC_ENABLE_ASSERT )
	// Debug builds check up front so invalid shapes always reach the general path's asserts.
	*valid = kcc_cast_small_valid( a, b, bx, by, nx, ny, lanes_b );
	if ( *valid == false )
	{
		return kcc_cast_miss();
	}
#else
	*valid = true;
#endif

	// The clip, as in kcc_cast_cores.
	__m128 zero = _mm_setzero_ps(), one = _mm_set1_ps( 1.0f );
	den_b = _mm_add_ps( den_b, zero );
	den_a = _mm_add_ps( den_a, zero );
	__m128 t_b = _mm_div_ps( num_b, den_b ), t_a = _mm_div_ps( num_a, den_a );
	__m128 entering_b = _mm_cmplt_ps( den_b, zero ), entering_a = _mm_cmplt_ps( den_a, zero );
	__m128 enters_b = _mm_and_ps( entering_b, t_b ), enters_a = _mm_and_ps( entering_a, t_a );
	__m128 leaves_b = _mm_or_ps( _mm_andnot_ps( entering_b, t_b ), _mm_and_ps( entering_b, one ) );
	__m128 leaves_a = _mm_or_ps( _mm_andnot_ps( entering_a, t_a ), _mm_and_ps( entering_a, one ) );
	// minps / maxps return their second operand when either is NaN: a NaN bound (0 / +0, a face the ray runs along
	// while touching it) must be the first operand so it loses, as in kcc_cast_cores.
	float lower = kcc_cast_hmax( _mm_max_ps( enters_a, _mm_max_ps( enters_b, zero ) ) );
	float upper = kcc_cast_hmin( _mm_min_ps( leaves_a, _mm_min_ps( leaves_b, one ) ) );
	if ( lower > upper )
	{
		return kcc_cast_miss(); // a miss is the answer for an invalid shape too
	}
#if !defined( KCC_ENABLE_ASSERT )
	*valid = kcc_cast_small_valid( a, b, bx, by, nx, ny, lanes_b );
#endif
	if ( lower > 0.0f )
	{
		__m128 at = _mm_set1_ps( lower );
		int mask = _mm_movemask_ps( _mm_cmpeq_ps( enters_b, at ) ) | ( _mm_movemask_ps( _mm_cmpeq_ps( enters_a, at ) ) << 4 );
		int enter = 0;
		while ( ( mask & 1 ) == 0 )
		{
			mask >>= 1;
			enter += 1;
		}
		// Face numbering of kcc_cast_classify: b's faces, then a's.
		int lane_entered = enter;
		enter = enter < 4 ? enter : b->faces + enter - 4;
		kcc_cast_feature feature = kcc_cast_classify( a, b, enter, kcc_scale( d, lower ) );
		if ( feature.on_face && enter < b->faces )
		{
			return kcc_cast_face_hit( a, b, enter, lower, feature.core_b );
		}
		// A mover's face or past the end. Another face entering with its line through the entry point within
		// rounding (kcc_cast_entered_tie) is rare: without one, the entered face or its end vertex's disc decides.
		__m128 slack = _mm_set1_ps( kcc_cast_slack_small( a, bx, by, lanes_b, rounded ) );
		__m128 tied_b = _mm_and_ps( _mm_cmplt_ps( den_b, zero ),
									_mm_cmple_ps( _mm_mul_ps( _mm_sub_ps( at, enters_b ), _mm_sub_ps( zero, den_b ) ), slack ) );
		__m128 tied_a = _mm_and_ps( _mm_cmplt_ps( den_a, zero ),
									_mm_cmple_ps( _mm_mul_ps( _mm_sub_ps( at, enters_a ), _mm_sub_ps( zero, den_a ) ), slack ) );
		int tied = ( _mm_movemask_ps( tied_b ) | ( _mm_movemask_ps( tied_a ) << 4 ) ) & ~( 1 << lane_entered );
		if ( tied == 0 )
		{
			float t = lower;
			vec2s normal;
			if ( feature.on_face )
			{
				return kcc_cast_face_hit( a, b, enter, lower, feature.core_b );
			}
			if ( kcc_ray_disc( feature.vertex, rounded, kcc_v2( 0.0f, 0.0f ), d, kcc_cast_face_normal( a, b, enter ), &t,
							   &normal ) == false )
			{
				return kcc_cast_miss();
			}
			kcc_cast_output out;
			out.hit = true;
			out.fraction = t;
			out.normal = normal;
			out.point = kcc_add( feature.core_b, kcc_scale( normal, b->radius ) );
			return out;
		}
		// The lanes in kcc_cast_classify's numbering for the tie check.
		float lanes[16], entry[8], den[8];
		_mm_storeu_ps( lanes, enters_b );
		_mm_storeu_ps( lanes + 4, enters_a );
		_mm_storeu_ps( lanes + 8, den_b );
		_mm_storeu_ps( lanes + 12, den_a );
		int faces = 0;
		for ( int lane = 0; lane < 8; ++lane )
		{
			if ( lane < 4 ? lane < b->faces : lane - 4 < a->faces )
			{
				entry[faces] = lanes[lane];
				den[faces] = lanes[lane + 8];
				faces += 1;
			}
		}
		return kcc_cast_entered_tie( a, d, b, rounded, enter, lower, feature, entry, den, faces );
	}
	// Starts within every offset line: as in kcc_cast_cores.
	float nums[8];
	_mm_storeu_ps( nums, num_b );
	_mm_storeu_ps( nums + 4, num_a );
	int best = 0;
	for ( int f = 1; f < 8; ++f )
	{
		best = nums[f] < nums[best] ? f : best;
	}
	float best_separation = rounded - nums[best];
	best = best < 4 ? best : b->faces + best - 4;
	return kcc_cast_start( a, d, b, rounded, best, best_separation );
}

// ---------------------------------------------------------------------------------------------------------------
// A round mover (a circle or a capsule: a point or segment core) against a core of 3 or 4 points, the pair of every
// controller cast and of most game casts: kcc_cast_small_sse2's lines, clip and paths for this pair, bit for bit.
// The clip on the target's faces is straight-line SSE2 with the mover's ends in one register, inline in
// kcc_shape_cast_fast (the common miss returns there); the mover's faces, the core checks and the paths after a clip
// that enters are out of line (kcc_cast_round_rest), both kinds of face classified without loops
// (kcc_cast_classify's arithmetic, in the same order). Cross-checked against the general paths in
// tests/test_geometry_cast_fast.c.

// Lane i of v in every lane (pshufd: one instruction, no copy). A macro: the lane must be a constant at -O0 too.
#define KCC_CAST_SPLAT( v, lane ) _mm_castsi128_ps( _mm_shuffle_epi32( _mm_castps_si128( v ), ( lane ) * 0x55 ) )

// What the paths after the clip read.
typedef struct kcc_cast_round
{
	__m128 bx, by, lanes_b; // b's points as lanes, lanes below b's count
	__m128 num_b, num_a, den_b, den_a, enters_b, enters_a;
	const vec2s* pb;
	const vec2s* nb;
	vec2s a0, a1; // the segment a0 .. a1, or a point (a1 is a0, bit for bit)
	__m128 ends;  // a0.x, a0.y, a1.x, a1.y
	vec2s u;      // the segment's face normals: u (a0 to a1 turned right) and -u
	float radius_a, radius_b, rounded, lower;
	int cb;      // b's points (and faces): 3 or 4
} kcc_cast_round;

// kcc_cast_classify for b's face f against the round mover: the other core is a's point or segment (a point is a
// segment of two equal ends here, which changes no value).
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline kcc_cast_feature kcc_cast_round_target_face( const kcc_cast_round* s, int f, vec2s a0, vec2s a1, vec2s q )
{
	int f1 = f + 1 == s->cb ? 0 : f + 1;
	vec2s e0 = s->pb[f], e1 = s->pb[f1];
	vec2s n = s->nb[f];
	vec2s e = kcc_v2( -n.y, n.x );
	float ee = kcc_dot( kcc_sub( e1, e0 ), e );
	// n . a0 and n . a1, (a0 + base) . e and (a1 + base) . e with base = q - e0, in lanes 0 and 2: the ends in one
	// register, each dot as two products and one addition in kcc_dot's order.
	__m128 n2 = _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&s->nb[f] ) );
	n2 = _mm_movelh_ps( n2, n2 );
	__m128 e2 = _mm_xor_ps( _mm_shuffle_ps( n2, n2, _MM_SHUFFLE( 0, 1, 0, 1 ) ),
							_mm_castsi128_ps( _mm_setr_epi32( (int)0x80000000u, 0, (int)0x80000000u, 0 ) ) );
	__m128 q2 = _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&q ) );
	__m128 p2 = _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&s->pb[f] ) );
	__m128 base2 = _mm_sub_ps( _mm_movelh_ps( q2, q2 ), _mm_movelh_ps( p2, p2 ) );
	__m128 v = _mm_mul_ps( n2, s->ends );
	v = _mm_add_ps( v, _mm_shuffle_ps( v, v, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
	__m128 c = _mm_mul_ps( _mm_add_ps( s->ends, base2 ), e2 );
	c = _mm_add_ps( c, _mm_shuffle_ps( c, c, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
	float v0 = _mm_cvtss_f32( v ), v1 = _mm_cvtss_f32( _mm_movehl_ps( v, v ) );
	float c0 = _mm_cvtss_f32( c ), c1 = _mm_cvtss_f32( _mm_movehl_ps( c, c ) );
	bool second = v1 < v0; // the support is a1 (never for a point)
	vec2s support = second ? a1 : a0;
	bool tie = fabsf( v1 - v0 ) <= 4.0f * FLT_EPSILON * ( fabsf( support.x ) + fabsf( support.y ) );
	float cs = second ? c1 : c0;
	bool flip = c1 < c0;
	bool lo_second = tie ? flip : second;
	bool hi_second = tie ? !flip : second;
	float c_lo = tie ? ( flip ? c1 : c0 ) : cs;
	float c_hi = tie ? ( flip ? c0 : c1 ) : cs;
	kcc_cast_feature out;
	if ( c_lo <= ee && c_hi >= 0.0f )
	{
		out.on_face = true;
		out.beyond = 0.0f;
		out.vertex = kcc_v2( 0.0f, 0.0f );
		float mid = kcc_cast_extent_mid( c_lo, c_hi, ee );
		out.core_b = kcc_add( e0, kcc_scale( e, mid ) );
		return out;
	}
	out.on_face = false;
	out.beyond = c_lo > ee ? c_lo - ee : -c_hi;
	if ( c_lo > ee )
	{
		out.core_b = e1;
		out.vertex = kcc_sub( e1, lo_second ? a1 : a0 );
	}
	else
	{
		out.core_b = e0;
		out.vertex = kcc_sub( e0, hi_second ? a1 : a0 );
	}
	return out;
}

// Index of the lowest set bit of a non-zero mask.
static inline int kcc_cast_first_bit( int mask )
{
#if defined( __GNUC__ )
	return __builtin_ctz( (unsigned)mask );
#else
	int index = 0;
	while ( ( mask & 1 ) == 0 )
	{
		mask >>= 1;
		index += 1;
	}
	return index;
#endif
}

// kcc_cast_classify for the mover's face j (0: the edge a0 to a1, normal u; 1: a1 to a0, normal -u) against b's
// points: the support (the first smallest n . b) and any other point within rounding of its line (a parallel edge).
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline kcc_cast_feature kcc_cast_round_mover_face( const kcc_cast_round* s, int j, vec2s a0, vec2s a1, vec2s u,
														   vec2s q )
{
	vec2s n = j == 0 ? u : kcc_v2( -u.x, -u.y );
	vec2s e0 = j == 0 ? a0 : a1, e1 = j == 0 ? a1 : a0;
	vec2s e = kcc_v2( -n.y, n.x );
	float ee = kcc_dot( kcc_sub( e1, e0 ), e );
	vec2s base = kcc_sub( kcc_scale( q, -1.0f ), e0 );
	__m128 value = _mm_add_ps( _mm_mul_ps( _mm_set1_ps( n.x ), s->bx ), _mm_mul_ps( _mm_set1_ps( n.y ), s->by ) );
	value = kcc_cast_select( s->lanes_b, value, _mm_set1_ps( INFINITY ) );
	float v_min = kcc_cast_hmin( value );
	// A NaN (no equal lane: only for values kcc_cast_round_usable refuses) picks lane 0, still an index in range.
	int support = kcc_cast_first_bit( _mm_movemask_ps( _mm_cmpeq_ps( value, _mm_set1_ps( v_min ) ) ) | 0x10 ) & 3;
	vec2s p = s->pb[support];
	float level = v_min + 4.0f * FLT_EPSILON * ( fabsf( p.x ) + fabsf( p.y ) );
	int others = _mm_movemask_ps( _mm_cmple_ps( value, _mm_set1_ps( level ) ) ) & ~( 1 << support );
	float c[4];
	_mm_storeu_ps( c, _mm_add_ps( _mm_mul_ps( _mm_add_ps( s->bx, _mm_set1_ps( base.x ) ), _mm_set1_ps( e.x ) ),
								  _mm_mul_ps( _mm_add_ps( s->by, _mm_set1_ps( base.y ) ), _mm_set1_ps( e.y ) ) ) );
	int lo = support, hi = support;
	float c_lo = c[support], c_hi = c_lo;
	while ( others != 0 )
	{
		int k = kcc_cast_first_bit( others );
		others &= others - 1;
		lo = c[k] < c_lo ? k : lo;
		c_lo = c[k] < c_lo ? c[k] : c_lo;
		hi = c[k] > c_hi ? k : hi;
		c_hi = c[k] > c_hi ? c[k] : c_hi;
	}
	kcc_cast_feature out;
	if ( c_lo <= ee && c_hi >= 0.0f )
	{
		out.on_face = true;
		out.beyond = 0.0f;
		out.vertex = kcc_v2( 0.0f, 0.0f );
		float mid = kcc_cast_extent_mid( c_lo, c_hi, ee );
		float span = c_hi - c_lo;
		out.core_b = span > 0.0f ? kcc_lerp( s->pb[lo], s->pb[hi], ( mid - c_lo ) / span ) : s->pb[lo];
		return out;
	}
	out.on_face = false;
	out.beyond = c_lo > ee ? c_lo - ee : -c_hi;
	if ( c_lo > ee )
	{
		out.core_b = s->pb[lo];
		out.vertex = kcc_sub( s->pb[lo], e1 );
	}
	else
	{
		out.core_b = s->pb[hi];
		out.vertex = kcc_sub( s->pb[hi], e0 );
	}
	return out;
}

// What kcc_cast_small_valid accepts, for the round mover, from the loaded lanes: b's points (|x| + |y|) within
// KCC_MAX_MAGNITUDE and unit normals, the mover's ends (each coordinate) within it and a segment's normal unit, both
// radii in [0, KCC_MAX_MAGNITUDE]. NaN fails every test.
static inline bool kcc_cast_round_usable( __m128 ends, __m128 u, int faces_a, float radius_a, float radius_b,
										  float separation, __m128 d, __m128 bx, __m128 by, __m128 nx, __m128 ny,
										  __m128 lanes_b )
{
	// Every test as lanes of one mask (kcc_cast_bad_lanes's and kcc_cast_small_valid's, same arithmetic).
	__m128 sign = _mm_set1_ps( -0.0f ), limit = _mm_set1_ps( KCC_MAX_MAGNITUDE ), tolerance = _mm_set1_ps( 1.0e-3f );
	__m128 one = _mm_set1_ps( 1.0f );
	__m128 size = _mm_add_ps( _mm_andnot_ps( sign, bx ), _mm_andnot_ps( sign, by ) );
	__m128 skew = _mm_andnot_ps( sign, _mm_sub_ps( _mm_add_ps( _mm_mul_ps( nx, nx ), _mm_mul_ps( ny, ny ) ), one ) );
	__m128 bad = _mm_and_ps( lanes_b, _mm_or_ps( _mm_cmpnle_ps( size, limit ), _mm_cmpnle_ps( skew, tolerance ) ) );
	__m128 uu = _mm_mul_ps( u, u );
	__m128 u_skew = _mm_andnot_ps( sign, _mm_sub_ss( _mm_add_ss( uu, KCC_CAST_SPLAT( uu, 1 ) ), one ) );
	__m128 segment = _mm_castsi128_ps( _mm_cvtsi32_si128( faces_a == 2 ? -1 : 0 ) ); // lane 0
	bad = _mm_or_ps( bad, _mm_and_ps( segment, _mm_cmpnle_ps( u_skew, tolerance ) ) );
	bad = _mm_or_ps( bad, _mm_cmpnle_ps( _mm_andnot_ps( sign, ends ), limit ) );
	bad = _mm_or_ps( bad, _mm_cmpnle_ps( _mm_andnot_ps( sign, d ), limit ) ); // lanes 2 and 3 are zero
	__m128 radii = _mm_movelh_ps( _mm_unpacklo_ps( _mm_set_ss( radius_a ), _mm_set_ss( radius_b ) ), _mm_set_ss( separation ) );
	bad = _mm_or_ps( bad, _mm_or_ps( _mm_cmpnge_ps( radii, _mm_setzero_ps() ), _mm_cmpnle_ps( radii, limit ) ) );
	return _mm_movemask_ps( bad ) == 0;
}

// The rare tie (another face entering through the entry point within rounding): the general resolver, on the cores
// kcc_cast_core_make builds.
KCC_CAST_NOINLINE static kcc_cast_output kcc_cast_round_tie( const kcc_shape* moving, vec2s d, const vec2s* pb,
															 const vec2s* nb, int cb, float radius_b, float rounded,
															 float lower, int enter, kcc_cast_feature feature,
															 __m128 enters_b, __m128 enters_a, __m128 den_b,
															 __m128 den_a )
{
	kcc_cast_core a, b;
	kcc_cast_core_make( moving, &a );
	b.points = pb;
	b.normals = nb;
	b.radius = radius_b;
	b.count = cb;
	b.faces = cb;
	float lanes[16], entry[8], den[8];
	_mm_storeu_ps( lanes, enters_b );
	_mm_storeu_ps( lanes + 4, enters_a );
	_mm_storeu_ps( lanes + 8, den_b );
	_mm_storeu_ps( lanes + 12, den_a );
	int faces = 0;
	for ( int lane = 0; lane < 8; ++lane )
	{
		if ( lane < 4 ? lane < b.faces : lane - 4 < a.faces )
		{
			entry[faces] = lanes[lane];
			den[faces] = lanes[lane + 8];
			faces += 1;
		}
	}
	return kcc_cast_entered_tie( &a, d, &b, rounded, enter, lower, feature, entry, den, faces );
}

// The ray enters the mitered polygon at s->lower > 0: the first lane entering last (b's faces, then a's; lower is one
// of them) on its extent (a target face: the hit), or a tie, or the entered face's end vertex's disc, as in
// kcc_cast_small_sse2.
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline kcc_cast_output kcc_cast_round_entered( const kcc_cast_round* s, const kcc_shape* moving, vec2s d )
{
	vec2s a0 = s->a0, a1 = s->a1, u = s->u;
	float lower = s->lower, rounded = s->rounded;
	__m128 zero = _mm_setzero_ps();
	__m128 at = _mm_set1_ps( lower );
	int lane = kcc_cast_first_bit( _mm_movemask_ps( _mm_cmpeq_ps( s->enters_b, at ) ) |
								   ( _mm_movemask_ps( _mm_cmpeq_ps( s->enters_a, at ) ) << 4 ) | 0x100 ) & 7;
	vec2s q = kcc_scale( d, lower );
	kcc_cast_feature feature;
	vec2s face_normal;
	kcc_cast_output out;
	if ( lane < 4 )
	{
		feature = kcc_cast_round_target_face( s, lane, a0, a1, q );
		face_normal = s->nb[lane];
		if ( feature.on_face )
		{
			out.hit = true;
			out.fraction = lower;
			out.normal = face_normal;
			out.point = kcc_add( feature.core_b, kcc_scale( face_normal, s->radius_b ) );
			return out;
		}
	}
	else
	{
		feature = kcc_cast_round_mover_face( s, lane & 1, a0, a1, u, q );
		face_normal = ( lane & 1 ) == 0 ? kcc_v2( -u.x, -u.y ) : u;
	}
	// A mover's face or past the end: another face entering with its line through the entry point within rounding
	// (kcc_cast_entered_tie) is rare; without one, the entered face or its end vertex's disc decides.
	float size_a = 0.0f;
	float size_a0 = fabsf( a0.x ) + fabsf( a0.y ), size_a1 = fabsf( a1.x ) + fabsf( a1.y );
	size_a = size_a0 > size_a ? size_a0 : size_a;
	size_a = size_a1 > size_a ? size_a1 : size_a; // a point's a1 is a0: no change
	__m128 sign = _mm_set1_ps( -0.0f );
	__m128 size_b = _mm_and_ps( s->lanes_b, _mm_add_ps( _mm_andnot_ps( sign, s->bx ), _mm_andnot_ps( sign, s->by ) ) );
	__m128 slack = _mm_set1_ps( 16.0f * FLT_EPSILON * ( size_a + kcc_cast_hmax( size_b ) + rounded ) );
	__m128 tied_b = _mm_and_ps( _mm_cmplt_ps( s->den_b, zero ),
								_mm_cmple_ps( _mm_mul_ps( _mm_sub_ps( at, s->enters_b ), _mm_sub_ps( zero, s->den_b ) ), slack ) );
	__m128 tied_a = _mm_and_ps( _mm_cmplt_ps( s->den_a, zero ),
								_mm_cmple_ps( _mm_mul_ps( _mm_sub_ps( at, s->enters_a ), _mm_sub_ps( zero, s->den_a ) ), slack ) );
	int tied = ( _mm_movemask_ps( tied_b ) | ( _mm_movemask_ps( tied_a ) << 4 ) ) & ~( 1 << lane );
	if ( tied != 0 )
	{
		int enter = lane < 4 ? lane : s->cb + lane - 4; // kcc_cast_classify's numbering: b's faces, then a's
		return kcc_cast_round_tie( moving, d, s->pb, s->nb, s->cb, s->radius_b, s->rounded, s->lower, enter, feature,
								   s->enters_b, s->enters_a, s->den_b, s->den_a );
	}
	vec2s normal = face_normal;
	float t = lower;
	if ( feature.on_face == false &&
		 kcc_ray_disc( feature.vertex, rounded, kcc_v2( 0.0f, 0.0f ), d, face_normal, &t, &normal ) == false )
	{
		return kcc_cast_miss();
	}
	out.hit = true;
	out.fraction = t;
	out.normal = normal;
	out.point = kcc_add( feature.core_b, kcc_scale( normal, s->radius_b ) );
	return out;
}

// The start is within every offset line (s->lower is 0): the face of largest separation, the first lane of the
// smallest num, holds the closest point of M or ends at the closest vertex (kcc_cast_start).
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline kcc_cast_output kcc_cast_round_start( const kcc_cast_round* s, vec2s d )
{
	vec2s a0 = s->a0, a1 = s->a1, u = s->u;
	float rounded = s->rounded;
	// Only best_separation's clamp at 0 reads the minimum, so the sign of a zero does not matter.
	float best_num = kcc_cast_hmin( _mm_min_ps( s->num_b, s->num_a ) );
	__m128 at = _mm_set1_ps( best_num );
	int lane = kcc_cast_first_bit( _mm_movemask_ps( _mm_cmpeq_ps( s->num_b, at ) ) |
								   ( _mm_movemask_ps( _mm_cmpeq_ps( s->num_a, at ) ) << 4 ) | 0x100 ) & 7;
	vec2s origin = kcc_v2( 0.0f, 0.0f );
	kcc_cast_feature feature;
	vec2s face_normal;
	if ( lane < 4 )
	{
		feature = kcc_cast_round_target_face( s, lane, a0, a1, origin );
		face_normal = s->nb[lane];
	}
	else
	{
		feature = kcc_cast_round_mover_face( s, lane & 1, a0, a1, u, origin );
		face_normal = ( lane & 1 ) == 0 ? kcc_v2( -u.x, -u.y ) : u;
	}
	float best_separation = rounded - best_num;
	// M is bounded here (the target's 3 or 4 faces).
	return kcc_cast_start_answer( feature, best_separation, 0.0f, face_normal, rounded, s->radius_a, s->radius_b, d );
}

// The round mover's core: its ends (a0.x, a0.y, a1.x, a1.y; a point's a1 is a0, bit for bit) and radius, in one load:
// a capsule's a and b, or a circle's centre and radius (and bytes of the union after it: replaced) in the same place.
// Returns the face count: 2 for a segment, 0 for a point.
static inline int kcc_cast_round_ends( const kcc_shape* moving, __m128* ends, float* radius )
{
	__m128 v = _mm_loadu_ps( &moving->capsule.a.x );
	if ( moving->type == KCC_SHAPE_CIRCLE || ( _mm_movemask_ps( _mm_cmpeq_ps( v, _mm_movehl_ps( v, v ) ) ) & 3 ) == 3 )
	{
		*radius = moving->type == KCC_SHAPE_CIRCLE ? moving->circle.radius : moving->capsule.radius;
		*ends = _mm_movelh_ps( v, v );
		return 0;
	}
	*radius = moving->capsule.radius;
	*ends = v;
	return 2;
}

// The round mover against b's faces (b's points pb and normals nb: cb of 3 or 4, at least four slots each; radius
// radius_b), the lines and the clip of kcc_cast_small_sse2 for b's lanes: num = n . b - min( n . a0, n . a1 ) +
// rounded and den = n . d per face (lanes past cb: +inf and 0), the entry and exit bounds per lane (max with 0, min
// with 1). A ray that misses these lines misses the whole mitered polygon: a's lines only raise the entry and lower
// the exit (maxima and minima are exact). Returns true for that miss, the common one, straight-line and inline.
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline bool kcc_cast_round_clip_b( const kcc_shape* moving, vec2s d, const vec2s* pb, const vec2s* nb, int cb,
										  float radius_b, float separation, __m128* num, __m128* den, __m128* enters,
										  __m128* lower, __m128* upper )
{
	const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps( 1.0f );
	__m128 ends;
	float radius_a;
	kcc_cast_round_ends( moving, &ends, &radius_a );
	__m128 r = _mm_set1_ps( radius_a + radius_b + separation );
	__m128 dd = _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&d ) );
	__m128 bx, by, nx, ny;
	kcc_cast_load4( pb, &bx, &by );
	kcc_cast_load4( nb, &nx, &ny );
	// Four points (the common box): no lane to mask, known at compile time where the caller dispatches on it.
	bool full = cb == 4;
	__m128 lanes_b = kcc_cast_lanes( cb );
	// The smaller of n . a0 and n . a1 (equal for a point; which of two equal values the minimum returns, and what it
	// does with NaN, refused by kcc_cast_round_usable, changes nothing).
	__m128 n_a0 = _mm_add_ps( _mm_mul_ps( nx, KCC_CAST_SPLAT( ends, 0 ) ), _mm_mul_ps( ny, KCC_CAST_SPLAT( ends, 1 ) ) );
	__m128 n_a1 = _mm_add_ps( _mm_mul_ps( nx, KCC_CAST_SPLAT( ends, 2 ) ), _mm_mul_ps( ny, KCC_CAST_SPLAT( ends, 3 ) ) );
	__m128 num_b = _mm_add_ps( _mm_sub_ps( _mm_add_ps( _mm_mul_ps( nx, bx ), _mm_mul_ps( ny, by ) ), _mm_min_ps( n_a1, n_a0 ) ), r );
	num_b = full ? num_b : _mm_or_ps( _mm_and_ps( lanes_b, num_b ), _mm_andnot_ps( lanes_b, _mm_set1_ps( INFINITY ) ) );
	__m128 den_b = _mm_add_ps( _mm_mul_ps( nx, KCC_CAST_SPLAT( dd, 0 ) ), _mm_mul_ps( ny, KCC_CAST_SPLAT( dd, 1 ) ) );
	den_b = full ? den_b : _mm_and_ps( lanes_b, den_b );
	den_b = _mm_add_ps( den_b, zero );
	__m128 t_b = _mm_div_ps( num_b, den_b );
	__m128 entering_b = _mm_cmplt_ps( den_b, zero );
	__m128 enters_b = _mm_and_ps( entering_b, t_b );
	__m128 leaves_b = _mm_or_ps( _mm_andnot_ps( entering_b, t_b ), _mm_and_ps( entering_b, one ) );
	*num = num_b;
	*den = den_b;
	*enters = enters_b;
	*lower = _mm_max_ps( enters_b, zero );
	*upper = _mm_min_ps( leaves_b, one );
	return kcc_cast_hmax( *lower ) > kcc_cast_hmin( *upper );
}
#endif

#if defined( KCC_CAST_SSE2 )
// b's faces four at a time (b a polygon or box: its arrays hold at least four points and normals; lanes past
// count are ignored), then a's faces; the same arithmetic as kcc_cast_faces, lane by lane.
static inline int kcc_cast_faces_sse2( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b, float rounded,
									   float* num, float* den )
{
	const float* pb = b->points[0].raw;
	const float* nb = b->normals[0].raw;
	__m128 inf = _mm_set1_ps( INFINITY );
	__m128 dx = _mm_set1_ps( d.x ), dy = _mm_set1_ps( d.y ), r = _mm_set1_ps( rounded );
	bool segment = a->count == 2;
	vec2s u = segment ? a->normals[0] : kcc_v2( 0.0f, 0.0f );
	__m128 ux = _mm_set1_ps( u.x ), uy = _mm_set1_ps( u.y );
	__m128 u_lo = inf, u_hi = _mm_set1_ps( -INFINITY );
	__m128 bxs[2], bys[2], lanes[2];
	int groups = ( b->faces + 3 ) >> 2;
	for ( int g = 0; g < groups; ++g )
	{
		__m128 p01 = _mm_loadu_ps( pb + 8 * g ), p23 = _mm_loadu_ps( pb + 8 * g + 4 );
		__m128 n01 = _mm_loadu_ps( nb + 8 * g ), n23 = _mm_loadu_ps( nb + 8 * g + 4 );
		__m128 bx = _mm_shuffle_ps( p01, p23, _MM_SHUFFLE( 2, 0, 2, 0 ) );
		__m128 by = _mm_shuffle_ps( p01, p23, _MM_SHUFFLE( 3, 1, 3, 1 ) );
		__m128 nx = _mm_shuffle_ps( n01, n23, _MM_SHUFFLE( 2, 0, 2, 0 ) );
		__m128 ny = _mm_shuffle_ps( n01, n23, _MM_SHUFFLE( 3, 1, 3, 1 ) );
		__m128 first = kcc_cast_dot_point( nx, ny, a->points[0] );
		__m128 low = kcc_cast_lowest_dot( nx, ny, a->points + 1, a->count - 1, first );
		__m128 n_dot_b = _mm_add_ps( _mm_mul_ps( nx, bx ), _mm_mul_ps( ny, by ) );
		__m128 num4 = _mm_add_ps( _mm_sub_ps( n_dot_b, low ), r );
		__m128 den4 = _mm_add_ps( _mm_mul_ps( nx, dx ), _mm_mul_ps( ny, dy ) );
		// Lanes past the count: num +inf, den 0 (no limit, never the face of largest separation).
		__m128i index = _mm_add_epi32( _mm_set_epi32( 3, 2, 1, 0 ), _mm_set1_epi32( 4 * g ) );
		__m128 lane = _mm_castsi128_ps( _mm_cmplt_epi32( index, _mm_set1_epi32( b->faces ) ) );
		num4 = _mm_or_ps( _mm_and_ps( lane, num4 ), _mm_andnot_ps( lane, inf ) );
		den4 = _mm_and_ps( lane, den4 );
		_mm_storeu_ps( num + 4 * g, num4 );
		_mm_storeu_ps( den + 4 * g, den4 );
		bxs[g] = bx;
		bys[g] = by;
		lanes[g] = lane;
		if ( segment )
		{
			__m128 value = _mm_add_ps( _mm_mul_ps( ux, bx ), _mm_mul_ps( uy, by ) );
			u_lo = _mm_min_ps( _mm_or_ps( _mm_and_ps( lane, value ), _mm_andnot_ps( lane, inf ) ), u_lo );
			u_hi = _mm_max_ps( _mm_or_ps( _mm_and_ps( lane, value ), _mm_andnot_ps( lane, _mm_set1_ps( -INFINITY ) ) ),
							   u_hi );
		}
	}
	int f = b->faces;
	if ( segment )
	{
		u_lo = _mm_min_ps( u_lo, _mm_shuffle_ps( u_lo, u_lo, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
		u_lo = _mm_min_ss( u_lo, _mm_shuffle_ps( u_lo, u_lo, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
		u_hi = _mm_max_ps( u_hi, _mm_shuffle_ps( u_hi, u_hi, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
		u_hi = _mm_max_ss( u_hi, _mm_shuffle_ps( u_hi, u_hi, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
		float lo = _mm_cvtss_f32( u_lo ), hi = _mm_cvtss_f32( u_hi );
		float ud = kcc_dot( u, d );
		num[f] = kcc_dot( u, a->points[0] ) - lo + rounded;
		den[f] = -ud;
		num[f + 1] = hi - kcc_dot( u, a->points[1] ) + rounded;
		den[f + 1] = ud;
		f += 2;
	}
	else
	{
		for ( int j = 0; j < a->faces; ++j )
		{
			vec2s n = a->normals[j];
			__m128 lo4 = inf;
			for ( int g = 0; g < groups; ++g )
			{
				__m128 value = _mm_add_ps( _mm_mul_ps( _mm_set1_ps( n.x ), bxs[g] ), _mm_mul_ps( _mm_set1_ps( n.y ), bys[g] ) );
				lo4 = _mm_min_ps( _mm_or_ps( _mm_and_ps( lanes[g], value ), _mm_andnot_ps( lanes[g], inf ) ), lo4 );
			}
			lo4 = _mm_min_ps( lo4, _mm_shuffle_ps( lo4, lo4, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
			lo4 = _mm_min_ss( lo4, _mm_shuffle_ps( lo4, lo4, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
			num[f] = kcc_dot( n, a->points[j] ) - _mm_cvtss_f32( lo4 ) + rounded;
			den[f] = -kcc_dot( n, d );
			f += 1;
		}
	}
	return f;
}
#endif

KCC_CAST_NOINLINE static kcc_cast_output kcc_cast_cores( const kcc_cast_core* a, vec2s d, const kcc_cast_core* b,
															 float separation )
{
	float rounded = a->radius + b->radius + separation;
	float num[KCC_CAST_MAX_FACES + 4], den[KCC_CAST_MAX_FACES + 4], entry[KCC_CAST_MAX_FACES + 4];
	kcc_cast_output out = kcc_cast_miss();

	// Entry: the latest num / den over the faces the ray enters (den < 0); exit: the earliest over the faces it
	// leaves (den > 0); a face it runs along (den == 0) must hold at the start. + 0 turns -0 into +0, so such a
	// face counts as left at num / +0: -inf (the start is outside it: a miss), +inf or NaN (inside or on it: no
	// limit; NaN loses the min). The divisions are independent and the selects branch-free (the signs are random
	// for random directions).
	float lower, upper;
#if defined( KCC_CAST_SSE2 )
	int faces = b->count >= 3 ? kcc_cast_faces_sse2( a, d, b, rounded, num, den ) : kcc_cast_faces( a, d, b, rounded, num, den );
	int padded = ( faces + 3 ) & ~3;
	_mm_storeu_ps( num + faces, _mm_set1_ps( INFINITY ) );
	_mm_storeu_ps( den + faces, _mm_setzero_ps() );
	__m128 zero = _mm_setzero_ps(), one = _mm_set1_ps( 1.0f );
	__m128 lower4 = zero, upper4 = one;
	for ( int f = 0; f < padded; f += 4 )
	{
		__m128 den4 = _mm_add_ps( _mm_loadu_ps( den + f ), zero );
		__m128 t = _mm_div_ps( _mm_loadu_ps( num + f ), den4 );
		__m128 entering = _mm_cmplt_ps( den4, zero );
		__m128 enters = _mm_and_ps( entering, t );
		__m128 leaves = _mm_or_ps( _mm_andnot_ps( entering, t ), _mm_and_ps( entering, one ) );
		_mm_storeu_ps( entry + f, enters );
		lower4 = _mm_max_ps( enters, lower4 );
		upper4 = _mm_min_ps( leaves, upper4 );
	}
	lower4 = _mm_max_ps( lower4, _mm_shuffle_ps( lower4, lower4, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
	lower4 = _mm_max_ss( lower4, _mm_shuffle_ps( lower4, lower4, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
	upper4 = _mm_min_ps( upper4, _mm_shuffle_ps( upper4, upper4, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
	upper4 = _mm_min_ss( upper4, _mm_shuffle_ps( upper4, upper4, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
	lower = _mm_cvtss_f32( lower4 );
	upper = _mm_cvtss_f32( upper4 );
#else
	int faces = kcc_cast_faces( a, d, b, rounded, num, den );
	lower = 0.0f;
	upper = 1.0f;
	for ( int f = 0; f < faces; ++f )
	{
		float den_f = den[f] + 0.0f;
		float t = num[f] / den_f;
		float enters = den_f < 0.0f ? t : 0.0f;
		float leaves = den_f >= 0.0f ? t : 1.0f;
		entry[f] = enters;
		lower = enters > lower ? enters : lower;
		upper = leaves < upper ? leaves : upper;
	}
#endif
	// With nothing rounded M can be flat (a point or a segment against a segment, two parallel segments): a path
	// crossing it enters and leaves through two opposite lines at the same fraction, and rounding then empties the
	// interval about half the time. The entry point within rounding of every line is a crossing, not a miss.
	if ( lower > upper &&
		 ( rounded > 0.0f || lower > 1.0f || kcc_cast_within_faces( num, den, faces, lower, kcc_cast_slack( a, b, rounded ) ) == false ) )
	{
		return out;
	}
	int enter = -1;
	for ( int f = 0; f < faces; ++f )
	{
		enter = entry[f] == lower ? f : enter;
	}
	enter = lower > 0.0f ? enter : -1;

	if ( enter >= 0 )
	{
		return kcc_cast_entered( a, d, b, rounded, enter, lower, entry, den, faces );
	}
	// The start is within every offset line: the face of largest separation (smallest num).
	int best = -1;
	if ( faces > 0 )
	{
		best = 0;
		for ( int f = 1; f < faces; ++f )
		{
			best = num[f] < num[best] ? f : best;
		}
	}
	return kcc_cast_start( a, d, b, rounded, best, best >= 0 ? rounded - num[best] : 0.0f );
}

// The gap along n (out of b toward a, radii excluded) between a moved by offset and b: n . (closest point of a in
// -n) - n . (farthest point of b in n). It is at most the core distance, with equality for the contact normal.
static float kcc_cast_gap_along( const kcc_proxy* a, vec2s offset, const kcc_proxy* b, vec2s n )
{
	vec2s pa = kcc_add( kcc_proxy_support( a, kcc_scale( n, -1.0f ) ), offset );
	return kcc_dot( n, pa ) - kcc_dot( n, kcc_proxy_support( b, n ) );
}

// The contact normal at the stop of conservative advancement. The witness direction of nearly touching cores is
// imprecise, and the look-back normal (taken ~1e-3 earlier on the path) belongs to the closest features there,
// which differ near a corner (a vertex landing on a face 1e-3 from its end got the other face's normal). The
// contact normal maximises the gap along n (the support gap equals the distance only for it), so the better of those
// directions and of the cores' face normals (b's, and a's reversed) is taken. Curved arcs keep the witness direction.
static vec2s kcc_cast_contact_normal( const kcc_proxy* a, vec2s offset, const kcc_proxy* b, vec2s normal,
									  kcc_gjk_output g )
{
	vec2s best = normal;
	float best_gap = kcc_cast_gap_along( a, offset, b, normal );
	if ( g.distance > 0.0f )
	{
		vec2s witness = kcc_unit_or( kcc_sub( g.point_a, g.point_b ), normal );
		float gap = kcc_cast_gap_along( a, offset, b, witness );
		best = gap > best_gap ? witness : best;
		best_gap = gap > best_gap ? gap : best_gap;
	}
	// Face normals: a polytope's edges (a segment's two sides), a curved core's two straight edges.
	int faces_b = b->curved ? 2 : ( b->count >= 2 ? b->count : 0 );
	int faces_a = a->curved ? 2 : ( a->count >= 2 ? a->count : 0 );
	for ( int k = 0; k < faces_b + faces_a; ++k )
	{
		vec2s n = k < faces_b ? b->normals[k] : kcc_scale( a->normals[k - faces_b], -1.0f );
		float gap = kcc_cast_gap_along( a, offset, b, n );
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
					normal = kcc_unit_or( kcc_sub( earlier.point_a, earlier.point_b ), normal );
				}
			}
			normal = kcc_cast_contact_normal( a, kcc_scale( translation, t ), b, normal, g );
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
											 float target_separation, bool conservative, bool validate );

// Both shapes pass kcc_shape_is_valid, the one notion of validity (convexity included; cores the kernels cannot
// use, e.g. out of range, are the kernels' own checks). Trusted callers skip it.
static inline bool kcc_cast_shapes_valid( const kcc_shape* moving, const kcc_shape* target, bool validate )
{
	return validate == false || ( kcc_shape_is_valid( moving ) && kcc_shape_is_valid( target ) );
}

#if defined( KCC_CAST_SSE2 )
// A circle or capsule against a polygon of 3 or 4 vertices or a box (its corners) after a clip on b's faces that
// does not miss (num_b .. upper_b from kcc_cast_round_clip_b): a's faces and the whole clip, the cores' checks
// (kcc_cast_small_valid's), then the entered face or the start as kcc_cast_small_sse2 does, with the clipping
// path's validation: debug builds check everything before the clip decides, release builds only a clip that
// enters (the cores) and only a hit (kcc_shape_is_valid): a miss is the answer for an invalid shape too.
KCC_CAST_NOINLINE static kcc_cast_output kcc_cast_round_rest( const kcc_shape* moving, vec2s d, const kcc_shape* target,
															  float separation, bool validate, __m128 num_b,
															  __m128 den_b, __m128 enters_b, __m128 lower_b,
															  __m128 upper_b )
{
	const __m128 inf = _mm_set1_ps( INFINITY ), zero = _mm_setzero_ps(), one = _mm_set1_ps( 1.0f );
	const __m128 negate_lane0 = _mm_castsi128_ps( _mm_setr_epi32( (int)0x80000000u, 0, 0, 0 ) );
	const __m128 negate_lane1 = _mm_castsi128_ps( _mm_setr_epi32( 0, (int)0x80000000u, 0, 0 ) );
	kcc_cast_round s;
	kcc_cast_core box;
	if ( target->type == KCC_SHAPE_POLYGON )
	{
		s.pb = target->polygon.vertices;
		s.nb = target->polygon.normals;
		s.cb = target->polygon.count;
		s.radius_b = target->polygon.radius;
	}
	else
	{
		kcc_cast_core_make_box( target, &box ); // succeeded for the clip on b's faces
		s.pb = box.points;
		s.nb = box.normals;
		s.cb = 4;
		s.radius_b = 0.0f;
	}
	__m128 ends;
	int faces_a = kcc_cast_round_ends( moving, &ends, &s.radius_a );
	s.rounded = s.radius_a + s.radius_b + separation;
	__m128 dd = _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&d ) );
	__m128 nx, ny;
	kcc_cast_load4( s.pb, &s.bx, &s.by );
	kcc_cast_load4( s.nb, &nx, &ny );
	s.lanes_b = kcc_cast_lanes( s.cb );
	float lower = kcc_cast_hmax( lower_b ), upper = kcc_cast_hmin( upper_b );

	// The segment's faces: normal -u with num = u . a0 - min over b of u . b + rounded, den = -u . d, and normal u
	// with num = -u . a1 + max over b of u . b + rounded, den = u . d. A point has none: the clip on b's faces is the
	// whole clip (a's lanes are num +inf, den 0).
	__m128 u = zero, num_a = inf, den_a = zero, enters_a = zero;
	if ( faces_a == 2 )
	{
		// As kcc_cast_core_make: u = (e.y, -e.x) / |e| with e = b - a, as e.y * inv and -e.x * inv.
		__m128 e = _mm_sub_ps( _mm_movehl_ps( ends, ends ), ends );
		__m128 ee = _mm_mul_ps( e, e );
		ee = _mm_add_ss( ee, KCC_CAST_SPLAT( ee, 1 ) );
		__m128 inv = _mm_div_ss( one, _mm_sqrt_ss( ee ) );
		__m128 turned = _mm_xor_ps( _mm_shuffle_ps( e, e, _MM_SHUFFLE( 0, 1, 0, 1 ) ), negate_lane1 ); // e.y, -e.x
		u = _mm_mul_ps( turned, KCC_CAST_SPLAT( inv, 0 ) );
		// min over b of u . b and of -u . b (-max) in one reduction: (lo, -hi) in lanes 0 and 1.
		__m128 inf_past = _mm_andnot_ps( s.lanes_b, inf );
		__m128 u_dot_b = _mm_add_ps( _mm_mul_ps( KCC_CAST_SPLAT( u, 0 ), s.bx ), _mm_mul_ps( KCC_CAST_SPLAT( u, 1 ), s.by ) );
		__m128 low_up = _mm_or_ps( _mm_and_ps( s.lanes_b, u_dot_b ), inf_past );
		__m128 low_down = _mm_or_ps( _mm_and_ps( s.lanes_b, _mm_xor_ps( u_dot_b, _mm_set1_ps( -0.0f ) ) ), inf_past );
		__m128 extremes = _mm_min_ps( _mm_unpacklo_ps( low_up, low_down ), _mm_unpackhi_ps( low_up, low_down ) );
		extremes = _mm_min_ps( extremes, _mm_movehl_ps( extremes, extremes ) );
		extremes = _mm_xor_ps( extremes, _mm_set1_ps( -0.0f ) ); // -lo, hi
		// u . a0 and u . a1 in lanes 0 and 2 (u.x a.x + u.y a.y, in that order), u . d in lane 0.
		__m128 u_a = _mm_mul_ps( _mm_movelh_ps( u, u ), ends );
		u_a = _mm_add_ps( u_a, _mm_shuffle_ps( u_a, u_a, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
		__m128 u_d = _mm_mul_ps( u, dd );
		u_d = _mm_add_ss( u_d, KCC_CAST_SPLAT( u_d, 1 ) );
		// (u . a0 + -lo, -u . a1 + hi) + rounded: the same two additions as the subtraction forms.
		__m128 u_a01 = _mm_xor_ps( _mm_shuffle_ps( u_a, u_a, _MM_SHUFFLE( 2, 2, 2, 0 ) ), negate_lane1 );
		num_a = _mm_movelh_ps( _mm_add_ps( _mm_add_ps( u_a01, extremes ), _mm_set1_ps( s.rounded ) ), inf );
		den_a = _mm_movelh_ps( _mm_xor_ps( _mm_unpacklo_ps( u_d, u_d ), negate_lane0 ), zero );
		den_a = _mm_add_ps( den_a, zero );
		__m128 t_a = _mm_div_ps( num_a, den_a );
		__m128 entering_a = _mm_cmplt_ps( den_a, zero );
		enters_a = _mm_and_ps( entering_a, t_a );
		__m128 leaves_a = _mm_or_ps( _mm_andnot_ps( entering_a, t_a ), _mm_and_ps( entering_a, one ) );
		// As kcc_cast_small_sse2: a NaN bound (0 / +0) is the first operand, so it loses.
		lower = kcc_cast_hmax( _mm_max_ps( enters_a, lower_b ) );
		upper = kcc_cast_hmin( _mm_min_ps( leaves_a, upper_b ) );
	}

	bool usable = kcc_cast_round_usable( ends, u, faces_a, s.radius_a, s.radius_b, separation, dd, s.bx, s.by, nx, ny,
										 s.lanes_b );
#if defined( KCC_ENABLE_ASSERT )
	// Debug builds check up front so invalid shapes always reach the general path's asserts.
	if ( kcc_cast_shapes_valid( moving, target, validate ) == false || usable == false )
	{
		return kcc_shape_cast_impl( moving, d, target, separation, false, validate );
	}
#endif
	if ( lower > upper )
	{
		return kcc_cast_miss();
	}
	if ( usable == false )
	{
		return kcc_shape_cast_impl( moving, d, target, separation, false, validate );
	}
	s.num_b = num_b;
	s.num_a = num_a;
	s.den_b = den_b;
	s.den_a = den_a;
	s.enters_b = enters_b;
	s.enters_a = enters_a;
	s.ends = ends;
	s.a0 = kcc_v2( _mm_cvtss_f32( ends ), _mm_cvtss_f32( KCC_CAST_SPLAT( ends, 1 ) ) );
	s.a1 = kcc_v2( _mm_cvtss_f32( KCC_CAST_SPLAT( ends, 2 ) ), _mm_cvtss_f32( KCC_CAST_SPLAT( ends, 3 ) ) );
	s.u = kcc_v2( _mm_cvtss_f32( u ), _mm_cvtss_f32( KCC_CAST_SPLAT( u, 1 ) ) );
	s.lower = lower;
	kcc_cast_output out = lower > 0.0f ? kcc_cast_round_entered( &s, moving, d ) : kcc_cast_round_start( &s, d );
#if !defined( KCC_ENABLE_ASSERT )
	if ( out.hit && kcc_cast_shapes_valid( moving, target, validate ) == false )
	{
		return kcc_cast_miss();
	}
#endif
	return out;
}

// A circle or capsule against a core of 3 or 4 points (a polygon's arrays or a box's corners): the clip on b's
// faces inline, its common miss returned at once (release builds; debug builds check the shapes first, in
// kcc_cast_round_rest), the rest out of line. The translation and the separation are checked with the cores in
// kcc_cast_round_rest: whatever a bad value makes of the clip, a miss is also what the general path answers.
#if defined( __GNUC__ )
__attribute__( ( always_inline ) )
#endif
static inline kcc_cast_output kcc_shape_cast_round( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
													float target_separation, bool validate, const vec2s* pb,
													const vec2s* nb, int count, float radius )
{
	__m128 num_b, den_b, enters_b, lower_b, upper_b;
	bool missed = kcc_cast_round_clip_b( moving, translation, pb, nb, count, radius, target_separation, &num_b, &den_b,
										 &enters_b, &lower_b, &upper_b );
#if !defined( KCC_ENABLE_ASSERT )
	if ( missed )
	{
		return kcc_cast_miss();
	}
#else
	(void)missed;
#endif
	return kcc_cast_round_rest( moving, translation, target, target_separation, validate, num_b, den_b, enters_b,
								lower_b, upper_b );
}
#endif

// Comparisons that fail for NaN as well: finite, within range, separation >= 0.
static inline bool kcc_cast_arguments_usable( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											  float target_separation )
{
	bool usable = ( fabsf( translation.x ) <= KCC_MAX_MAGNITUDE ) & ( fabsf( translation.y ) <= KCC_MAX_MAGNITUDE ) &
				  ( target_separation >= 0.0f ) & ( target_separation <= KCC_MAX_MAGNITUDE );
	return usable && moving != NULL && target != NULL;
}

// Polytope cores (every kind but the sector) take the clipping path; anything else, and anything invalid or out
// of range, the general path with its asserts and guards. The fast path validates only a hit in release builds:
// a miss is the answer for an invalid shape too.
KCC_CAST_NOINLINE static kcc_cast_output kcc_shape_cast_clipping( const kcc_shape* moving, vec2s translation,
																   const kcc_shape* target, float target_separation,
																   bool validate )
{
	kcc_cast_core ca, cb;
#if defined( KCC_CAST_SSE2 )
	if ( moving != NULL && target != NULL && ( moving->type == KCC_SHAPE_CAPSULE || moving->type == KCC_SHAPE_CIRCLE ) &&
		 ( target->type == KCC_SHAPE_AABB || target->type == KCC_SHAPE_OBB ) && kcc_cast_core_make_box( target, &cb ) )
	{
		return kcc_shape_cast_round( moving, translation, target, target_separation, validate, cb.points, cb.normals, 4,
									 0.0f );
	}
#endif
	if ( kcc_cast_arguments_usable( moving, translation, target, target_separation ) == false )
	{
		return kcc_shape_cast_impl( moving, translation, target, target_separation, false, validate );
	}
	if ( kcc_cast_core_make( moving, &ca ) && kcc_cast_core_make( target, &cb ) )
	{
#if defined( KCC_ENABLE_ASSERT )
		// Debug builds check up front so invalid shapes always reach the general path's asserts.
		if ( kcc_cast_shapes_valid( moving, target, validate ) == false )
		{
			return kcc_shape_cast_impl( moving, translation, target, target_separation, false, validate );
		}
#endif
#if defined( KCC_CAST_SSE2 )
		if ( ca.count <= 4 && cb.count >= 3 && cb.count <= 4 )
		{
			// The kernel's own checks (range, unit normals) in every build, from the values it loads anyway.
			bool usable_cores;
			kcc_cast_output out = kcc_cast_small_sse2( &ca, translation, &cb, target_separation, &usable_cores );
#if !defined( KCC_ENABLE_ASSERT )
			if ( usable_cores && out.hit && kcc_cast_shapes_valid( moving, target, validate ) == false )
			{
				return kcc_cast_miss();
			}
#endif
			return usable_cores ? out : kcc_shape_cast_impl( moving, translation, target, target_separation, false, validate );
		}
#endif
#if defined( KCC_ENABLE_ASSERT )
		if ( kcc_cast_core_valid( moving, &ca ) && kcc_cast_core_valid( target, &cb ) )
		{
			return kcc_cast_cores( &ca, translation, &cb, target_separation );
		}
#else
		kcc_cast_output out = kcc_cast_cores( &ca, translation, &cb, target_separation );
		if ( out.hit == false )
		{
			return out;
		}
		if ( kcc_cast_core_valid( moving, &ca ) && kcc_cast_core_valid( target, &cb ) )
		{
			return kcc_cast_shapes_valid( moving, target, validate ) ? out : kcc_cast_miss();
		}
#endif
	}
	return kcc_shape_cast_impl( moving, translation, target, target_separation, false, validate );
}

// The entry of kcc_shape_cast, kcc_shape_cast_separation and kcc_shape_cast_trusted: a circle or capsule against a
// polygon of 3 or 4 vertices (the controller's casts, most game casts) straight into its kernel, the rest through
// kcc_shape_cast_clipping. One function the entry points jump to.
KCC_CAST_NOINLINE static kcc_cast_output kcc_shape_cast_fast( const kcc_shape* moving, vec2s translation,
															   const kcc_shape* target, float target_separation,
															   bool validate )
{
#if defined( KCC_CAST_SSE2 )
	if ( moving != NULL && target != NULL && ( moving->type == KCC_SHAPE_CAPSULE || moving->type == KCC_SHAPE_CIRCLE ) &&
		 target->type == KCC_SHAPE_POLYGON && target->polygon.count >= 3 && target->polygon.count <= 4 )
	{
		// Four vertices or three: the count a constant in each inlined kernel (no lane masks for four).
		if ( target->polygon.count == 4 )
		{
			return kcc_shape_cast_round( moving, translation, target, target_separation, validate,
										 target->polygon.vertices, target->polygon.normals, 4, target->polygon.radius );
		}
		return kcc_shape_cast_round( moving, translation, target, target_separation, validate, target->polygon.vertices,
									 target->polygon.normals, 3, target->polygon.radius );
	}
#endif
	return kcc_shape_cast_clipping( moving, translation, target, target_separation, validate );
}

kcc_cast_output kcc_shape_cast_separation( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										   float target_separation )
{
	return kcc_shape_cast_fast( moving, translation, target, target_separation, true );
}

kcc_cast_output kcc_shape_cast_trusted( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										float target_separation )
{
	return kcc_shape_cast_fast( moving, translation, target, target_separation, false );
}

kcc_cast_output kcc_shape_cast_minkowski( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										  float target_separation )
{
	return kcc_shape_cast_impl( moving, translation, target, target_separation, false, true );
}

kcc_cast_output kcc_shape_cast_conservative( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation )
{
	return kcc_shape_cast_impl( moving, translation, target, target_separation, true, true );
}

static kcc_cast_output kcc_shape_cast_impl( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation, bool conservative, bool validate )
{
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_shape_cast: translation is not finite" );
	KCC_ASSERT( kcc_is_valid_float( target_separation ) && target_separation >= 0.0f,
				"kcc_shape_cast_separation: target_separation is negative or not finite" );
	if ( kcc_is_valid_vec2( translation ) == false || kcc_is_valid_float( target_separation ) == false ||
		 target_separation < 0.0f )
	{
		return kcc_cast_miss();
	}
	if ( validate )
	{
		bool valid_moving = kcc_shape_is_valid( moving ), valid_target = kcc_shape_is_valid( target );
		KCC_ASSERT( valid_moving, "kcc_shape_cast: moving shape is invalid" );
		KCC_ASSERT( valid_target, "kcc_shape_cast: target shape is invalid" );
		if ( valid_moving == false || valid_target == false )
		{
			return kcc_cast_miss();
		}
	}
	kcc_proxy pa[KCC_MAX_PROXIES], pb[KCC_MAX_PROXIES];
	int na = kcc_make_proxies( moving, pa );
	int nb = kcc_make_proxies( target, pb );
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
	return kcc_shape_cast_fast( moving, translation, target, 0.0f, true );
}
