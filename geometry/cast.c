// SPDX-License-Identifier: MIT
// Ray casts against every kind, and the shape cast of polytope cores: a ray cast against their Minkowski
// difference, exact, no iterations. Casts involving a sector's curved core advance conservatively (advance.c).
#include "internal.h"

#include <float.h>

static inline vec2s kcc_lerp( vec2s a, vec2s b, float s )
{
	return kcc_v2( a.x + s * ( b.x - a.x ), a.y + s * ( b.y - a.y ) );
}

// ---------------------------------------------------------------------------------------------------------------
// Ray against a rounded polytope

typedef struct kcc_polytope_hit
{
	vec2s normal;
	float fraction;
	int edge;    // a face: core point hit = lerp( vertices[edge], vertices[edge + 1], s ); a corner: its vertex
	float s;
	bool corner;                // the rounded corner (disc) of vertex edge, not a face
	kcc_polytope_closest start; // KCC_RAY_INSIDE: the start's closest core feature
} kcc_polytope_hit;

// Ray p0 + t * d, t in [0, 1], against the disc (center, radius), p0 outside it. A disc of radius 0 is a point
// (a corner where sharp cores meet): it has no normal of its own, and the direction from it to the ray would be
// rounding residue, so point_normal (a normal of the corner, from the caller) is reported.
static bool kcc_ray_disc( vec2s center, float radius, vec2s p0, vec2s d, vec2s point_normal, float* fraction,
						  vec2s* normal )
{
	vec2s m = glms_vec2_sub( p0, center );
	float b = glms_vec2_dot( m, d );
	float c = glms_vec2_dot( m, m ) - radius * radius;
	float a = glms_vec2_dot( d, d );
	if ( b >= 0.0f || a == 0.0f )
	{
		return false;
	}
	// b^2 - a c rewritten (Lagrange's identity) so grazing rays do not cancel two large squares.
	float cross = glms_vec2_cross( m, d );
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
	vec2s toward = glms_vec2_add( m, glms_vec2_scale( d, t ) );
	float largest = fabsf( toward.x ) > fabsf( toward.y ) ? fabsf( toward.x ) : fabsf( toward.y );
	*normal = largest > 0.0f && largest < INFINITY ? kcc_unit_or( toward, d )
												   : kcc_unit_or( glms_vec2_negate( d ), d );
	return true;
}

// The clip's entry point p (at fraction lower) as a hit on face f when it lies within the face's extent.
static bool kcc_ray_entry_on_face( const vec2s* vertices, const vec2s* normals, int count, int f, vec2s p, float lower,
								   kcc_polytope_hit* hit )
{
	int next = f + 1 == count ? 0 : f + 1;
	vec2s e = glms_vec2_sub( vertices[next], vertices[f] );
	float u = glms_vec2_dot( glms_vec2_sub( p, vertices[f] ), e );
	float ee = glms_vec2_dot( e, e );
	if ( u >= 0.0f && u <= ee )
	{
		hit->fraction = lower;
		hit->normal = normals[f];
		hit->edge = f;
		hit->s = ee > 0.0f ? u / ee : 0.0f;
		hit->corner = false;
		return true;
	}
	return false;
}

// The rounding allowed where the ray p0 + t * d, t in [0, 1], meets the edge lines through vertices u and v.
static float kcc_ray_slack( vec2s u, vec2s v, vec2s p0, vec2s d )
{
	float size_u = fabsf( u.x ) + fabsf( u.y ), size_v = fabsf( v.x ) + fabsf( v.y );
	float size = size_u > size_v ? size_u : size_v;
	return KCC_ROUNDING * ( fabsf( p0.x ) + fabsf( p0.y ) + fabsf( d.x ) + fabsf( d.y ) + size );
}

// Whether p lies within every edge line of a sharp polytope, up to the rounding of the lines' offsets.
static bool kcc_ray_within_lines( const vec2s* vertices, const vec2s* normals, int count, vec2s p )
{
	float size = fabsf( p.x ) + fabsf( p.y ), outside = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		float vertex_size = fabsf( vertices[i].x ) + fabsf( vertices[i].y );
		size = vertex_size > size ? vertex_size : size;
		float gap = glms_vec2_dot( normals[i], glms_vec2_sub( p, vertices[i] ) );
		outside = gap > outside || gap != gap ? gap : outside;
	}
	return outside <= KCC_ROUNDING * size; // NaN: false
}

typedef enum kcc_ray_result
{
	KCC_RAY_MISS,
	KCC_RAY_HIT,
	KCC_RAY_INSIDE, // p0 is in the rounded shape: hit->start holds its closest core feature
	KCC_RAY_UNDECIDED, // kcc_ray_faces_of_b only: the ray must be cast against the difference built
} kcc_ray_result;

// Ray p0 + t * d, t in [0, 1], against a polytope core rounded by radius. Clip against the edge lines offset by
// radius (a box with sharp corners); the entry point is the hit unless it lies beyond the entry edge, where the
// rounded corner is the disc at that edge's end: a ray missing that disc leaves the sharp shape without meeting any
// other part of the rounded one. A start within every offset line may be inside the rounded shape, or in the
// corner region of its closest vertex. from_a, from_b: the cores whose difference M is (NULL for a shape's own core):
// the walk allows for the rounding of their coordinates, beyond the vertices' own (M's small vertices carry the
// rounding of far coordinates: a turned box's corners lie off its faces' lines by that much). Only the walk
// along collinear faces allows for it: a face it reports holds the entry point within its extent, a contact whatever
// the slack, while the tolerances of sharp shapes' empty intervals would turn near misses into hits.
static kcc_ray_result kcc_ray_rounded_polytope( const vec2s* vertices, const vec2s* normals, int count, float radius,
												vec2s p0, vec2s d, const kcc_proxy* from_a, const kcc_proxy* from_b,
												kcc_polytope_hit* hit )
{
	kcc_polytope_closest start = { 0 };
	if ( count == 1 )
	{
		start = kcc_polytope_closest_point( vertices, normals, count, p0 );
		if ( start.distance <= radius )
		{
			hit->start = start;
			return KCC_RAY_INSIDE;
		}
		hit->edge = 0;
		hit->s = 0.0f;
		hit->corner = true;
		return kcc_ray_disc( vertices[0], radius, p0, d, kcc_unit_or( glms_vec2_negate( d ), d ), &hit->fraction,
							 &hit->normal ) ? KCC_RAY_HIT : KCC_RAY_MISS;
	}

	float lower = 0.0f, upper = 1.0f, upper_den = 0.0f;
	int enter = -1, leave = 0;
	bool within = true; // p0 within every offset line (NaN: not)
	bool empty = false; // radius 0 only: an empty interval (or a parallel line outside) within rounding
	for ( int i = 0; i < count; ++i )
	{
		// Inside plane i while t * den <= num.
		float num = glms_vec2_dot( normals[i], glms_vec2_sub( vertices[i], p0 ) ) + radius;
		float den = glms_vec2_dot( normals[i], d );
		within = within & ( num >= 0.0f );
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
				return KCC_RAY_MISS; // outside a line it runs along
			}
			empty = true;
		}
		if ( upper < lower )
		{
			// The point at lower lies (lower - upper) * upper_den beyond the line that set upper (0 while upper is 1).
			if ( radius > 0.0f || upper_den == 0.0f ||
				 ( lower - upper ) * upper_den > kcc_ray_slack( vertices[enter < 0 ? leave : enter], vertices[leave], p0, d ) )
			{
				return KCC_RAY_MISS; // an early return only for a p0 outside some line: never inside
			}
			empty = true;
		}
	}
	// Radius 0: the shape may be flat (a segment, as a capsule of radius 0 is), and a ray crossing it enters and
	// leaves through two opposite lines at the same fraction; rounding then gives an empty interval about half the
	// time. The entry point within rounding of every line is a crossing (or a touch), not a miss.
	if ( empty && ( lower > 1.0f || kcc_ray_within_lines( vertices, normals, count,
														   glms_vec2_add( p0, glms_vec2_scale( d, lower ) ) ) == false ) )
	{
		return KCC_RAY_MISS;
	}
	if ( within || enter < 0 )
	{
		// Within every offset line and closest to an edge's inside: within radius of that edge's line, whatever the
		// rounding of the distance says (on the line, moving in: a hit at 0, not a corner's).
		start = kcc_polytope_closest_point( vertices, normals, count, p0 );
		if ( start.distance <= radius || ( within && start.s > 0.0f && start.s < 1.0f ) )
		{
			hit->start = start;
			return KCC_RAY_INSIDE;
		}
	}

	int corner;
	if ( enter < 0 )
	{
		// Starts within every offset line but outside the rounded shape: in the corner region of a vertex.
		int next = start.edge + 1 == count ? 0 : start.edge + 1;
		corner = start.s < 0.5f ? start.edge : next;
	}
	else
	{
		vec2s p = glms_vec2_add( p0, glms_vec2_scale( d, lower ) );
		if ( kcc_ray_entry_on_face( vertices, normals, count, enter, p, lower, hit ) )
		{
			return KCC_RAY_HIT;
		}
		int next = enter + 1 == count ? 0 : enter + 1;
		vec2s edge = glms_vec2_sub( vertices[next], vertices[enter] );
		bool backward = glms_vec2_dot( glms_vec2_sub( p, vertices[enter] ), edge ) < 0.0f;
		corner = backward ? enter : next;
		// Faces of M nearly collinear (boxes turned by multiples of pi/2): rounding may have picked the short one as
		// entered while the point lies on a neighbour whose line passes through it within rounding. The walk follows
		// such faces: the contact is on the one holding the point, or at the disc of the last corner passed. The size
		// of the source coordinates is measured only here, where a cast first needs it.
		float source = from_a != NULL ? kcc_points_size( from_a->points, from_a->count ) +
											kcc_points_size( from_b->points, from_b->count )
									  : 0.0f;
		for ( int walked = 1; walked < count; ++walked )
		{
			int neighbour = backward ? ( corner == 0 ? count - 1 : corner - 1 ) : corner;
			vec2s c = vertices[corner];
			float slack = KCC_ROUNDING * ( fabsf( p.x ) + fabsf( p.y ) + fabsf( c.x ) + fabsf( c.y ) + radius + source );
			float gap = glms_vec2_dot( normals[neighbour], glms_vec2_sub( p, vertices[neighbour] ) ) - radius;
			if ( !( glms_vec2_dot( normals[neighbour], d ) < 0.0f && gap >= -slack ) )
			{
				break;
			}
			if ( kcc_ray_entry_on_face( vertices, normals, count, neighbour, p, lower, hit ) )
			{
				return KCC_RAY_HIT;
			}
			int far = backward ? neighbour : ( neighbour + 1 == count ? 0 : neighbour + 1 );
			// Past the far end: go on from there. Past the shared corner instead (rounding): that corner decides.
			if ( glms_vec2_dot( glms_vec2_sub( p, c ), glms_vec2_sub( vertices[far], c ) ) <= 0.0f )
			{
				break;
			}
			corner = far;
			enter = neighbour;
		}
	}
	hit->edge = corner;
	hit->s = 0.0f;
	hit->corner = true;
	// The entered face (or the start's) ends at the corner: its normal is one of the corner's.
	vec2s corner_normal = normals[enter < 0 ? start.edge : enter];
	if ( radius == 0.0f && enter >= 0 )
	{
		// Sharp: the disc of radius 0 is hit only by a ray through the vertex exactly, but an entry point within
		// rounding of it (off both faces' extents only by rounding) is that contact.
		vec2s p = glms_vec2_add( p0, glms_vec2_scale( d, lower ) ), c = vertices[corner];
		float slack = KCC_ROUNDING * ( fabsf( p.x ) + fabsf( p.y ) + fabsf( c.x ) + fabsf( c.y ) );
		if ( fabsf( p.x - c.x ) + fabsf( p.y - c.y ) <= slack )
		{
			hit->fraction = lower;
			hit->normal = corner_normal;
			return KCC_RAY_HIT;
		}
	}
	return kcc_ray_disc( vertices[corner], radius, p0, d, corner_normal, &hit->fraction, &hit->normal ) ? KCC_RAY_HIT
																										: KCC_RAY_MISS;
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
	out.point = glms_vec2_add( origin, glms_vec2_scale( d, lower ) );
	out.normal = axis == 0 ? kcc_v2( sign, 0.0f ) : kcc_v2( 0.0f, sign );
	return out;
}

// Sector of any opening: the arc within the opening, the two edge segments; inside is a hit at 0.
static kcc_cast_output kcc_ray_cast_sector( const kcc_sector* sector, vec2s origin, vec2s d )
{
	vec2s dir = kcc_unit_or( sector->direction, kcc_v2( 1.0f, 0.0f ) );
	float c = sector->half_angle.x;
	float s = sector->half_angle.y > 0.0f ? sector->half_angle.y : 0.0f; // sin(pi) rounds below zero
	float radius = sector->radius;
	vec2s m = glms_vec2_sub( origin, sector->apex );

	// Within the opening: angle to the axis at most half the opening, i.e. cross((c, s), (x, |y|)) <= 0.
	float x = glms_vec2_dot( dir, m ), y = fabsf( glms_vec2_cross( dir, m ) );
	bool in_opening = c * y - s * x <= 0.0f;
	if ( glms_vec2_dot( m, m ) <= radius * radius && ( in_opening || c <= -1.0f ) )
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
		float t = glms_vec2_dot( m, e );
		if ( t >= 0.0f && t <= radius && fabsf( glms_vec2_cross( e, m ) ) <= KCC_ON_LINE * ( fabsf( t ) + 1.0f ) )
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
	if ( kcc_ray_disc( sector->apex, radius, origin, d, kcc_unit_or( glms_vec2_negate( d ), d ), &t_arc, &n_arc ) )
	{
		vec2s p = glms_vec2_add( m, glms_vec2_scale( d, t_arc ) );
		float px = glms_vec2_dot( dir, p ), py = fabsf( glms_vec2_cross( dir, p ) );
		if ( c * py - s * px <= 0.0f || c <= -1.0f )
		{
			best.hit = true;
			best.fraction = t_arc;
			best.normal = n_arc;
			best.point = glms_vec2_add( origin, glms_vec2_scale( d, t_arc ) );
		}
	}
	for ( int side = 0; side < 2; ++side )
	{
		float sy = side == 0 ? s : -s;
		vec2s unit = kcc_v2( c * dir.x - sy * dir.y, sy * dir.x + c * dir.y );
		vec2s e = glms_vec2_scale( unit, radius );
		// Outward normal: left of the left edge, right of the right edge.
		vec2s normal = side == 0 ? kcc_v2( -unit.y, unit.x ) : kcc_v2( unit.y, -unit.x );
		vec2s w = glms_vec2_sub( sector->apex, origin );
		float den = glms_vec2_cross( d, e );
		float t, u;
		if ( den != 0.0f )
		{
			t = glms_vec2_cross( w, e ) / den;
			u = glms_vec2_cross( w, d ) / den;
		}
		else if ( fabsf( glms_vec2_cross( w, e ) ) <= KCC_ON_LINE * ( glms_vec2_dot( w, w ) + radius * radius ) &&
				  glms_vec2_dot( d, d ) > 0.0f )
		{
			// Along the edge's line: the nearer end of the segment.
			float dd = glms_vec2_dot( d, d );
			float t0 = glms_vec2_dot( w, d ) / dd;
			float t1 = glms_vec2_dot( glms_vec2_add( w, e ), d ) / dd;
			t = t0 < t1 ? t0 : t1;
			u = t0 < t1 ? 0.0f : 1.0f;
			normal = kcc_unit_or( glms_vec2_negate( d ), normal );
		}
		else
		{
			continue;
		}
		if ( t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f && ( best.hit == false || t < best.fraction ) )
		{
			best.hit = true;
			best.fraction = t;
			best.normal = glms_vec2_dot( normal, d ) > 0.0f ? glms_vec2_negate( normal ) : normal;
			best.point = glms_vec2_add( origin, glms_vec2_scale( d, t ) );
		}
	}
	return best;
}

kcc_cast_output kcc_ray_cast( const kcc_shape* s, vec2s origin, vec2s translation )
{
	KCC_ASSERT( kcc_is_valid_vec2( origin ), "kcc_ray_cast: origin is not finite" );
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_ray_cast: translation is not finite" );
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_ray_cast: shape is invalid" );
	if ( valid == false || kcc_is_valid_vec2( origin ) == false || kcc_is_valid_vec2( translation ) == false )
	{
		return kcc_cast_miss();
	}
	kcc_proxy proxies[KCC_MAX_PROXIES];
	int count = kcc_make_proxies( s, proxies );
	if ( count == 0 || kcc_usable_vec2( origin ) == false || kcc_usable_vec2( translation ) == false )
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
		vec2s axis = kcc_unit_or( b->rotation, kcc_v2( 1.0f, 0.0f ) );
		vec2s m = glms_vec2_sub( origin, b->center );
		vec2s local_origin = kcc_v2( axis.x * m.x + axis.y * m.y, -axis.y * m.x + axis.x * m.y );
		vec2s local_d = kcc_v2( axis.x * translation.x + axis.y * translation.y,
								-axis.y * translation.x + axis.x * translation.y );
		kcc_cast_output out = kcc_ray_cast_box( glms_vec2_negate( b->half_extents ), b->half_extents, local_origin,
												local_d );
		vec2s n = out.normal;
		out.normal = kcc_v2( axis.x * n.x - axis.y * n.y, axis.y * n.x + axis.x * n.y );
		out.point = out.hit ? glms_vec2_add( origin, glms_vec2_scale( translation, out.fraction ) ) : kcc_v2( 0.0f, 0.0f );
		return out;
	}
	if ( s->type == KCC_SHAPE_SECTOR )
	{
		return kcc_ray_cast_sector( &s->sector, origin, translation );
	}

	// Circle, capsule, polygon: a rounded polytope.
	const kcc_proxy* p = proxies;
	kcc_cast_output out = kcc_cast_miss();
	kcc_polytope_hit hit;
	kcc_ray_result result =
		kcc_ray_rounded_polytope( p->points, p->normals, p->count, p->radius, origin, translation, NULL, NULL, &hit );
	if ( result != KCC_RAY_MISS )
	{
		out.hit = true;
		out.fraction = result == KCC_RAY_INSIDE ? 0.0f : hit.fraction;
		out.normal = result == KCC_RAY_INSIDE ? kcc_v2( 0.0f, 0.0f ) : hit.normal;
		out.point = glms_vec2_add( origin, glms_vec2_scale( translation, out.fraction ) );
	}
	return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Shape cast of polytope cores
//
// The moving core a + t d touches b's core rounded by R (both radii plus the separation) exactly when t d lies in
// M = core(b) - core(a) rounded by R: a ray cast from the origin against M. An edge of M is an edge of b, an edge
// of a reversed, or both merged (parallel edges).

// A core's support feature along n: its highest vertex (returned) and every vertex within rounding of that height
// (a parallel edge), spread along e from *lo to *hi, at vertices *lo_vertex and *hi_vertex.
static inline int kcc_support_feature( const vec2s* points, int count, vec2s n, vec2s e, float* lo, float* hi,
									   int* lo_vertex, int* hi_vertex )
{
	// Each vertex's height along n, computed once (polytope cores have at most KCC_MAX_POLYGON_VERTICES).
	float height[KCC_MAX_POLYGON_VERTICES];
	int top = 0;
	float top_height = glms_vec2_dot( n, points[0] );
	height[0] = top_height;
	for ( int i = 1; i < count; ++i )
	{
		float h = glms_vec2_dot( n, points[i] );
		height[i] = h;
		top = h > top_height ? i : top;
		top_height = h > top_height ? h : top_height;
	}
	vec2s s = points[top];
	float level = top_height - KCC_ON_LINE * ( fabsf( s.x ) + fabsf( s.y ) );
	int lo_i = top, hi_i = top;
	float l = glms_vec2_dot( e, s ), h = l;
	for ( int i = 0; i < count; ++i )
	{
		if ( i != top && height[i] >= level )
		{
			float c = glms_vec2_dot( e, points[i] );
			lo_i = c < l ? i : lo_i;
			l = c < l ? c : l;
			hi_i = c > h ? i : hi_i;
			h = c > h ? c : h;
		}
	}
	*lo = l;
	*hi = h;
	*lo_vertex = lo_i;
	*hi_vertex = hi_i;
	return top;
}

// The contact on b's core where the cores touch along n (out of b toward a), a moved by q: the middle of the part
// where their support features meet (b's top along n, a's bottom: its top along -n, the same heights negated, which
// is exact). Two boxes landing flat touch along a segment, and its middle is reported.
static vec2s kcc_cast_contact( const kcc_proxy* a, vec2s q, const kcc_proxy* b, vec2s n )
{
	vec2s e = kcc_v2( -n.y, n.x );
	float b_lo, b_hi, a_lo, a_hi;
	int lo, hi, a_lo_vertex, a_hi_vertex;
	int top = kcc_support_feature( b->points, b->count, n, e, &b_lo, &b_hi, &lo, &hi );
	if ( b_hi == b_lo )
	{
		return b->points[top]; // b touches at a vertex: a's feature does not matter
	}
	kcc_support_feature( a->points, a->count, glms_vec2_negate( n ), e, &a_lo, &a_hi, &a_lo_vertex, &a_hi_vertex );
	float shift = glms_vec2_dot( e, q );
	float from = a_lo + shift > b_lo ? a_lo + shift : b_lo;
	float to = a_hi + shift < b_hi ? a_hi + shift : b_hi;
	float mid = 0.5f * ( from + to );
	mid = mid < b_lo ? b_lo : ( mid > b_hi ? b_hi : mid );
	return kcc_lerp( b->points[lo], b->points[hi], ( mid - b_lo ) / ( b_hi - b_lo ) );
}

// A hit at a vertex of M may take any normal between its two edges' normals, and a hit on a face within rounding of
// its end vertex is such a hit when the next face's line passes through the point too. There the target's face is
// reported when one of the two is b's: the surface a character stands on (a flat bottom corner landing on a slope's
// apex gets the slope, not the character's side). p: the hit point, rounded: R.
static vec2s kcc_cast_prefer_target_face( const kcc_proxy* a, const kcc_proxy* b, const kcc_minkowski* m,
										  const kcc_polytope_hit* hit, vec2s p, float rounded )
{
	int n = m->count;
	if ( n < 2 )
	{
		return hit->normal;
	}
	int before, after;
	if ( hit->corner )
	{
		if ( rounded > 0.0f )
		{
			return hit->normal; // the disc's own normal
		}
		before = hit->edge == 0 ? n - 1 : hit->edge - 1;
		after = hit->edge;
	}
	else
	{
		int f = hit->edge;
		if ( m->source[f] & KCC_EDGE_OF_B )
		{
			return hit->normal;
		}
		bool at_end = hit->s >= 0.5f;
		int vertex = at_end ? ( f + 1 == n ? 0 : f + 1 ) : f;
		int neighbour = at_end ? vertex : ( f == 0 ? n - 1 : f - 1 );
		vec2s w = m->vertices[vertex];
		vec2s next = m->vertices[f + 1 == n ? 0 : f + 1];
		vec2s edge = glms_vec2_sub( next, m->vertices[f] );
		float along = sqrtf( glms_vec2_dot( edge, edge ) );
		float size = kcc_points_size( a->points, a->count ) + kcc_points_size( b->points, b->count );
		float slack = KCC_ROUNDING * ( size + rounded );
		float gap = glms_vec2_dot( m->normals[neighbour], glms_vec2_sub( p, w ) ) - rounded;
		if ( ( at_end ? 1.0f - hit->s : hit->s ) * along > slack || fabsf( gap ) > slack )
		{
			return hit->normal;
		}
		before = at_end ? f : neighbour;
		after = at_end ? neighbour : f;
	}
	if ( m->source[after] & KCC_EDGE_OF_B )
	{
		return m->normals[after];
	}
	return ( m->source[before] & KCC_EDGE_OF_B ) ? m->normals[before] : hit->normal;
}

// One offset line of M in the clip of kcc_ray_rounded_polytope (inside while t * den <= num). True when it sets lower.
static inline bool kcc_clip_line( float num, float den, float* lower, float* upper, bool* within, bool* outside )
{
	*within = *within & ( num >= 0.0f );
	if ( den < 0.0f )
	{
		if ( num < *lower * den )
		{
			*lower = num / den;
			return true;
		}
	}
	else if ( den > 0.0f )
	{
		*upper = num < *upper * den ? num / den : *upper;
	}
	else
	{
		*outside = *outside | ( num < 0.0f );
	}
	return false;
}

// Whether kcc_ray_rounded_polytope's walk may go on from corner c along the line through c with normal n, the ray
// entering at p: the line faces the ray and passes within rounding of p (twice the slack: the walk measures from the
// face's other end).
static inline bool kcc_walk_may_follow( vec2s n, vec2s c, vec2s p, vec2s d, float rounded, float slack )
{
	return glms_vec2_dot( n, d ) < 0.0f && glms_vec2_dot( n, glms_vec2_sub( p, c ) ) - rounded >= -2.0f * slack;
}

// The clip of kcc_ray_faces_of_b: where the ray enters and leaves the lines of M offset by the rounding, and the line
// it enters by.
typedef struct kcc_ray_clip
{
	float lower, upper;
	bool within;  ///< the start is within every line
	bool outside; ///< the ray runs outside a line parallel to it
	int enter;    ///< b's face entered at lower, or -1 (none, or an edge of -a)
	vec2s enter_a; ///< a's support point on that face
	vec2s m;      ///< a segment's edge normal, from -a0 to -a1 (else zero)
} kcc_ray_clip;

// The lines of M = core(b) - core(a), for a point or a segment a (a circle's or a capsule's core), without building M:
// b's faces moved by a's support point against their normals and the edges of -a moved by b's support point
// (parallel ones, merged in M, both kept).
KCC_ALWAYS_INLINE void kcc_clip_faces_of_b( const kcc_proxy* a, const kcc_proxy* b, vec2s d, float rounded,
											kcc_ray_clip* clip )
{
	const vec2s *points_b = b->points, *normals_b = b->normals;
	int count_b = b->count;
	vec2s a0 = a->points[0], a1 = a->points[a->count - 1];
	// Support points are picked by differences between a shape's own points: the same choice wherever the shapes lie
	// (dot products of far coordinates would round away the small differences that decide it).
	vec2s axis = glms_vec2_sub( a1, a0 );
	float lower = 0.0f, upper = 1.0f;
	bool within = true, outside = false;
	int enter = -1;
	vec2s enter_a = a0;
	for ( int i = 0; i < count_b; ++i )
	{
		vec2s n = normals_b[i];
		vec2s support = glms_vec2_dot( n, axis ) < 0.0f ? a1 : a0;
		float num = glms_vec2_dot( n, glms_vec2_sub( points_b[i], support ) ) + rounded;
		if ( kcc_clip_line( num, glms_vec2_dot( n, d ), &lower, &upper, &within, &outside ) )
		{
			enter = i;
			enter_a = support;
		}
	}
	vec2s m = kcc_v2( 0.0f, 0.0f );
	if ( a->count == 2 )
	{
		// The edges of -a: normal m from -a0 to -a1, -m back (a segment's normals are opposite); b's support points
		// along m and -m.
		m = glms_vec2_negate( a->normals[0] );
		int highest = 0, lowest = 0;
		float top = 0.0f, bottom = 0.0f;
		for ( int i = 1; i < count_b; ++i )
		{
			float v = glms_vec2_dot( m, glms_vec2_sub( points_b[i], points_b[0] ) );
			highest = v > top ? i : highest;
			top = v > top ? v : top;
			lowest = v < bottom ? i : lowest;
			bottom = v < bottom ? v : bottom;
		}
		float num = glms_vec2_dot( m, glms_vec2_sub( points_b[highest], a0 ) ) + rounded;
		enter = kcc_clip_line( num, glms_vec2_dot( m, d ), &lower, &upper, &within, &outside ) ? -1 : enter;
		vec2s back = glms_vec2_negate( m );
		num = glms_vec2_dot( back, glms_vec2_sub( points_b[lowest], a1 ) ) + rounded;
		enter = kcc_clip_line( num, glms_vec2_dot( back, d ), &lower, &upper, &within, &outside ) ? -1 : enter;
	}
	*clip = ( kcc_ray_clip ){ lower, upper, within, outside, enter, enter_a, m };
}

// kcc_ray_rounded_polytope on M from the origin, from the clip of its lines. Decided here (rounded > 0): a miss, a face
// of b entered strictly within its extent, or past an end of it the rounded corner there when no line beyond that
// corner passes near the entry point. Anything else is KCC_RAY_UNDECIDED. *core: b's vertex in a corner.
KCC_ALWAYS_INLINE kcc_ray_result kcc_ray_enter_faces_of_b( const kcc_proxy* a, const kcc_proxy* b, vec2s d,
														   float rounded, const kcc_ray_clip* clip,
														   kcc_polytope_hit* hit, int* core )
{
	const vec2s *points_b = b->points, *normals_b = b->normals;
	int count_b = b->count;
	float lower = clip->lower;
	int enter = clip->enter;
	vec2s enter_a = clip->enter_a, m = clip->m;
	if ( !( rounded > 0.0f && rounded < INFINITY ) )
	{
		return KCC_RAY_UNDECIDED; // a sharp M: kcc_ray_rounded_polytope's rounding rules apply
	}
	if ( clip->outside || clip->upper < lower )
	{
		return KCC_RAY_MISS;
	}
	if ( clip->within || enter < 0 )
	{
		return KCC_RAY_UNDECIDED; // the start may be inside, or in a corner's region
	}
	// kcc_ray_entry_on_face on that face of M, from start to end.
	int next = enter + 1 == count_b ? 0 : enter + 1;
	vec2s start = glms_vec2_sub( points_b[enter], enter_a );
	vec2s e = glms_vec2_sub( glms_vec2_sub( points_b[next], enter_a ), start );
	vec2s p = glms_vec2_scale( d, lower );
	float u = glms_vec2_dot( glms_vec2_sub( p, start ), e );
	float ee = glms_vec2_dot( e, e );
	if ( u > 0.0f && u < ee )
	{
		hit->fraction = lower;
		hit->normal = normals_b[enter];
		hit->edge = enter;
		hit->s = u / ee;
		hit->corner = false;
		return KCC_RAY_HIT;
	}
	if ( !( u < 0.0f || u > ee ) )
	{
		return KCC_RAY_UNDECIDED; // at an end exactly, or NaN
	}
	// Past the start or the end: the corner there, unless a line beyond it (the neighbouring face of b, or an edge of
	// -a starting or ending there) passes near the entry point, within the rounding of the shapes' own coordinates (as
	// in kcc_ray_rounded_polytope's walk).
	bool backward = u < 0.0f;
	*core = backward ? enter : next;
	vec2s c = backward ? start : glms_vec2_sub( points_b[next], enter_a );
	int beyond = backward ? ( enter == 0 ? count_b - 1 : enter - 1 ) : next;
	// Only a line facing the ray can be followed: the slack (a pass over both shapes' points) is wanted only then. A
	// ray straight down (the ground probe) onto a box's corner faces none.
	bool facing = glms_vec2_dot( normals_b[beyond], d ) < 0.0f ||
				  ( a->count == 2 && ( glms_vec2_dot( m, d ) < 0.0f || glms_vec2_dot( glms_vec2_negate( m ), d ) < 0.0f ) );
	if ( facing )
	{
		float source = kcc_points_size( a->points, a->count ) + kcc_points_size( points_b, count_b );
		float slack = KCC_ROUNDING * ( fabsf( p.x ) + fabsf( p.y ) + fabsf( c.x ) + fabsf( c.y ) + rounded + source );
		if ( kcc_walk_may_follow( normals_b[beyond], c, p, d, rounded, slack ) ||
			 ( a->count == 2 && ( kcc_walk_may_follow( m, c, p, d, rounded, slack ) ||
								  kcc_walk_may_follow( glms_vec2_negate( m ), c, p, d, rounded, slack ) ) ) )
		{
			return KCC_RAY_UNDECIDED;
		}
	}
	hit->corner = true;
	return kcc_ray_disc( c, rounded, kcc_v2( 0.0f, 0.0f ), d, normals_b[enter], &hit->fraction, &hit->normal )
			   ? KCC_RAY_HIT
			   : KCC_RAY_MISS;
}

// kcc_ray_rounded_polytope on M = core(b) - core(a) from the origin, for a point or a segment a, without building M.
static kcc_ray_result kcc_ray_faces_of_b( const kcc_proxy* a, const kcc_proxy* b, vec2s d, float rounded,
										  kcc_polytope_hit* hit, int* core )
{
	kcc_ray_clip clip;
	kcc_clip_faces_of_b( a, b, d, rounded, &clip );
	return kcc_ray_enter_faces_of_b( a, b, d, rounded, &clip, hit, core );
}

// A box with sides on the axes, counter-clockwise from its lowest corner: its bottom, right, top and left faces have
// the normals kcc_local_rectangle's polygon has for them (a zero coordinate as its vertices' differences give it).
static const vec2s kcc_box_normals[4] = { { { 0.0f, -1.0f } }, { { 1.0f, -0.0f } }, { { 0.0f, 1.0f } }, { { -1.0f, -0.0f } } };

// kcc_clip_faces_of_b for such a box (its sides' lines less the rounding: see kcc_cast_box_trusted) and a along d, d
// along an axis, from a start outside some line: the faces across d enter and leave; those along d and the edges of
// -a (along d too, and equal to those faces' lines) only tell whether the ray runs outside.
KCC_ALWAYS_INLINE void kcc_clip_axis_box( float x_high, float x_low, float y_high, float y_low, vec2s d, float rounded,
										  kcc_ray_clip* clip )
{
	bool vertical = d.x == 0.0f;
	float along = vertical ? d.y : d.x;
	float high = ( vertical ? y_high : x_high ) + rounded;
	float low = -( vertical ? y_low : x_low ) + rounded;
	float side_high = ( vertical ? x_high : y_high ) + rounded;
	float side_low = -( vertical ? x_low : y_low ) + rounded;
	// Entering by the face d moves against (its line's denominator negative), leaving by the other.
	bool toward_low = along > 0.0f;
	float enter_num = toward_low ? low : high;
	float leave_num = toward_low ? high : low;
	float enter_den = toward_low ? -along : along;
	float leave_den = -enter_den;
	clip->lower = 0.0f;
	clip->enter = -1;
	if ( enter_num < 0.0f ) // kcc_clip_line: num < lower * den, lower 0 and den negative
	{
		clip->lower = enter_num / enter_den;
		clip->enter = vertical ? ( toward_low ? 0 : 2 ) : ( toward_low ? 3 : 1 );
	}
	clip->upper = leave_num < leave_den ? leave_num / leave_den : 1.0f;
	clip->within = false; // the caller decides a start within every line
	clip->outside = side_high < 0.0f || side_low < 0.0f;
}

bool kcc_cast_box_trusted( const kcc_proxy* moving, vec2s translation, vec2s lo, vec2s hi, float radius, bool point,
						   kcc_cast_output* out )
{
	float rounded = moving->radius + radius + 0.0f; // kcc_cast_polytopes' radii and separation
	vec2s a0 = moving->points[0], a1 = moving->points[moving->count - 1];
	// M = core(b) - core(a) is a box too. Its sides' lines are kcc_clip_faces_of_b's lines of b's faces less the
	// rounding (b's normals are the axes: a face along (0, 1) has the line y, as 0 * x + 1 * y gives it), each from
	// the support point it picks: a1 when it lies further against the face's normal, else a0.
	bool left1 = a1.x < a0.x, right1 = a1.x > a0.x, bottom1 = a1.y < a0.y, top1 = a1.y > a0.y;
	float x_high = hi.x - ( left1 ? a1.x : a0.x ), x_low = lo.x - ( right1 ? a1.x : a0.x );
	float y_high = hi.y - ( bottom1 ? a1.y : a0.y ), y_low = lo.y - ( top1 ? a1.y : a0.y );
	// Within every line offset by the rounding (a's own lines are b's faces along its axis): where the general cast
	// builds the difference.
	bool within = x_high + rounded >= 0.0f && -x_low + rounded >= 0.0f && y_high + rounded >= 0.0f &&
				  -y_low + rounded >= 0.0f;
	bool along = translation.x == 0.0f ? a0.x == a1.x : ( translation.y == 0.0f && a0.y == a1.y );
	if ( !( rounded > 0.0f && rounded < INFINITY ) || ( within == false && along == false ) )
	{
		return false;
	}
	kcc_proxy b; // what kcc_ray_enter_faces_of_b reads of the box's polygon
	b.points = b.own_points;
	b.normals = kcc_box_normals;
	b.count = 4;
	b.own_points[0] = lo;
	b.own_points[1] = kcc_v2( hi.x, lo.y );
	b.own_points[2] = hi;
	b.own_points[3] = kcc_v2( lo.x, hi.y );
	kcc_polytope_hit hit;
	int core = 0;
	kcc_ray_result decided;
	if ( within )
	{
		// Beyond two sides and farther than the rounding from the corner between them, clearly: kcc_ray_rounded_polytope
		// finds that corner closest and casts against its disc, and so does this, with the same corner (b's less the
		// support point both sides share), bit for bit. Anywhere else within, the general cast decides.
		bool at_right = x_high < 0.0f, at_top = y_high < 0.0f;
		if ( !( ( at_right || x_low > 0.0f ) && ( at_top || y_low > 0.0f ) ) )
		{
			return false;
		}
		core = at_top ? ( at_right ? 2 : 3 ) : ( at_right ? 1 : 0 );
		// a lies along an axis: the side across it picks the support point's coordinate along it too.
		bool support1 = a0.x == a1.x ? ( at_top ? bottom1 : top1 ) : ( at_right ? left1 : right1 );
		vec2s v = glms_vec2_sub( b.points[core], support1 ? a1 : a0 );
		if ( glms_vec2_dot( v, v ) <= rounded * rounded * ( 1.0f + 64.0f * FLT_EPSILON ) )
		{
			return false;
		}
		hit.corner = true;
		decided = kcc_ray_disc( v, rounded, kcc_v2( 0.0f, 0.0f ), translation, b.normals[core], &hit.fraction,
								&hit.normal )
					  ? KCC_RAY_HIT
					  : KCC_RAY_MISS;
	}
	else
	{
		kcc_ray_clip clip;
		kcc_clip_axis_box( x_high, x_low, y_high, y_low, translation, rounded, &clip );
		bool vertical = translation.x == 0.0f, toward_low = ( vertical ? translation.y : translation.x ) > 0.0f;
		bool support1 = vertical ? ( toward_low ? top1 : bottom1 ) : ( toward_low ? right1 : left1 );
		clip.enter_a = support1 ? a1 : a0;
		clip.m = moving->count == 2 ? glms_vec2_negate( moving->normals[0] ) : kcc_v2( 0.0f, 0.0f );
		decided = kcc_ray_enter_faces_of_b( moving, &b, translation, rounded, &clip, &hit, &core );
		// A face's contact point comes from kcc_cast_contact on the polygon: left to it.
		if ( decided == KCC_RAY_UNDECIDED || ( point && decided == KCC_RAY_HIT && hit.corner == false ) )
		{
			return false;
		}
	}
	*out = kcc_cast_miss();
	if ( decided == KCC_RAY_HIT )
	{
		out->hit = true;
		out->fraction = hit.fraction;
		out->normal = hit.normal;
		if ( point )
		{
			out->point = glms_vec2_add( b.points[core], glms_vec2_scale( hit.normal, radius ) );
		}
	}
	return true;
}

// point false: out.point is left at zero unless it comes at no cost (the caller reads only the fraction and normal).
static kcc_cast_output kcc_cast_polytopes( const kcc_proxy* a, vec2s d, const kcc_proxy* b, float separation,
										   bool point )
{
	float radii = a->radius + b->radius;
	float rounded = radii + separation;
	kcc_cast_output out = kcc_cast_miss();
	kcc_polytope_hit hit;
	if ( a->count <= 2 && b->count > 1 )
	{
		// A circle's or a capsule's core (the characters'): most casts miss, or land on a face or a corner of b, which
		// the clip decides without building M.
		int core = 0;
		kcc_ray_result decided = kcc_ray_faces_of_b( a, b, d, rounded, &hit, &core );
		if ( decided == KCC_RAY_MISS )
		{
			return out;
		}
		if ( decided == KCC_RAY_HIT )
		{
			// As a hit on M below: b's own face (kcc_cast_prefer_target_face keeps it) or the corner disc's normal.
			out.hit = true;
			out.fraction = hit.fraction;
			out.normal = hit.normal;
			if ( point )
			{
				vec2s core_b = hit.corner ? b->points[core]
										  : kcc_cast_contact( a, glms_vec2_scale( d, hit.fraction ), b, out.normal );
				out.point = glms_vec2_add( core_b, glms_vec2_scale( out.normal, b->radius ) );
			}
			return out;
		}
	}
	kcc_minkowski m;
	kcc_minkowski_difference( a, b, &m );
	vec2s origin = kcc_v2( 0.0f, 0.0f );
	kcc_ray_result result = kcc_ray_rounded_polytope( m.vertices, m.normals, m.count, rounded, origin, d, a, b, &hit );
	if ( result == KCC_RAY_MISS )
	{
		return out;
	}
	if ( result == KCC_RAY_INSIDE )
	{
		kcc_polytope_closest start = hit.start;
		int next = start.edge + 1 == m.count ? 0 : start.edge + 1;
		vec2s core_b = kcc_lerp( b->points[m.index_b[start.edge]], b->points[m.index_b[next]], start.s );
		out.hit = true;
		out.fraction = 0.0f;
		if ( start.distance > radii )
		{
			// Within the separation, not overlapping: the separating normal.
			out.normal = kcc_minkowski_normal( &m, &start );
			out.point = glms_vec2_add( core_b, glms_vec2_scale( out.normal, b->radius ) );
		}
		else if ( start.distance > 0.0f )
		{
			// Only the rounded parts overlap: the middle of the overlap between the cores.
			vec2s normal = kcc_unit_or( glms_vec2_negate( start.point ), kcc_v2( 0.0f, 1.0f ) );
			float middle = 0.5f * ( b->radius + start.distance - a->radius );
			out.point = glms_vec2_add( core_b, glms_vec2_scale( normal, middle ) );
		}
		else
		{
			out.point = core_b;
		}
		return out;
	}
	vec2s q = glms_vec2_scale( d, hit.fraction );
	out.hit = true;
	out.fraction = hit.fraction;
	out.normal = kcc_cast_prefer_target_face( a, b, &m, &hit, q, rounded );
	if ( point )
	{
		vec2s core_b = hit.corner && rounded > 0.0f ? b->points[m.index_b[hit.edge]]
													: kcc_cast_contact( a, q, b, out.normal );
		out.point = glms_vec2_add( core_b, glms_vec2_scale( out.normal, b->radius ) );
	}
	return out;
}

// One piece of each shape (a sector wider than pi is two): polytope cores exactly, curved cores by conservative
// advancement.
static inline kcc_cast_output kcc_cast_proxies( const kcc_proxy* a, vec2s translation, const kcc_proxy* b,
												float separation, bool conservative, bool point )
{
	if ( conservative || a->curved || b->curved )
	{
		return kcc_cast_conservative( a, translation, b, separation );
	}
	return kcc_cast_polytopes( a, translation, b, separation, point );
}

// A sector wider than pi: the first impact over its halves; an overlap anywhere wins; among halves already within the
// separation at the start, the nearest gives the separating normal.
static kcc_cast_output kcc_cast_halves( const kcc_proxy* pa, int na, vec2s translation, const kcc_proxy* pb, int nb,
										float target_separation, bool conservative, bool point )
{
	kcc_cast_output best = kcc_cast_miss();
	float best_start_distance = FLT_MAX;
	for ( int i = 0; i < na; ++i )
	{
		for ( int j = 0; j < nb; ++j )
		{
			kcc_cast_output out =
				kcc_cast_proxies( pa + i, translation, pb + j, target_separation, conservative, point );
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

// The casts of the pieces of two shapes (na, nb >= 1); inline, for most casts are of one piece each.
static inline kcc_cast_output kcc_cast_proxy_sets( const kcc_proxy* pa, int na, vec2s translation, const kcc_proxy* pb,
												   int nb, float target_separation, bool conservative, bool point )
{
	if ( na == 1 && nb == 1 )
	{
		return kcc_cast_proxies( pa, translation, pb, target_separation, conservative, point );
	}
	return kcc_cast_halves( pa, na, translation, pb, nb, target_separation, conservative, point );
}

// The cast of a moving shape given by its proxies (na == 0: not usable) against a target shape.
static kcc_cast_output kcc_cast_from_proxies( const kcc_proxy* pa, int na, vec2s translation, const kcc_shape* target,
											  float target_separation, bool conservative )
{
	// In range implies finite (a NaN fails every compare): one test each, before the target's proxies.
	if ( na == 0 || kcc_usable_vec2( translation ) == false ||
		 !( target_separation >= 0.0f && target_separation <= KCC_MAX_MAGNITUDE ) )
	{
		return kcc_cast_miss();
	}
	kcc_proxy pb[KCC_MAX_PROXIES];
	// Most targets are polygons (tiles): their proxy is made here, without kcc_make_proxies' dispatch.
	int nb = target != NULL && target->type == KCC_SHAPE_POLYGON ? kcc_proxy_set_polygon( pb, &target->polygon )
																 : kcc_make_proxies( target, pb );
	if ( nb == 0 )
	{
		return kcc_cast_miss();
	}
	return kcc_cast_proxy_sets( pa, na, translation, pb, nb, target_separation, conservative, true );
}

// Every shape cast: validate (unless trusted), then the pieces' casts.
static kcc_cast_output kcc_cast_shapes( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										float target_separation, bool validate, bool conservative )
{
	KCC_ASSERT( kcc_is_valid_vec2( translation ), "kcc_shape_cast: translation is not finite" );
	KCC_ASSERT( kcc_is_valid_float( target_separation ) && target_separation >= 0.0f,
				"kcc_shape_cast_separation: target_separation is negative or not finite" );
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
	kcc_proxy pa[KCC_MAX_PROXIES];
	int na = kcc_make_proxies( moving, pa );
	return kcc_cast_from_proxies( pa, na, translation, target, target_separation, conservative );
}

kcc_cast_output kcc_shape_cast( const kcc_shape* moving, vec2s translation, const kcc_shape* target )
{
	return kcc_cast_shapes( moving, translation, target, 0.0f, true, false );
}

kcc_cast_output kcc_shape_cast_separation( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										   float target_separation )
{
	return kcc_cast_shapes( moving, translation, target, target_separation, true, false );
}

kcc_cast_output kcc_shape_cast_trusted( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
										float target_separation )
{
	return kcc_cast_shapes( moving, translation, target, target_separation, false, false );
}

kcc_cast_output kcc_proxies_cast_trusted( const kcc_proxy* moving, int moving_count, vec2s translation,
										 const kcc_shape* target, float target_separation )
{
	return kcc_cast_from_proxies( moving, moving_count, translation, target, target_separation, false );
}

kcc_cast_output kcc_proxies_cast_polygon_trusted( const kcc_proxy* moving, int moving_count, vec2s translation,
												 const kcc_polygon* target, bool point )
{
	// kcc_cast_from_proxies' checks but the target's, which the caller made.
	if ( moving_count == 0 || kcc_usable_vec2( translation ) == false )
	{
		return kcc_cast_miss();
	}
	kcc_proxy pb;
	kcc_proxy_of_polygon( &pb, target );
	return kcc_cast_proxy_sets( moving, moving_count, translation, &pb, 1, 0.0f, false, point );
}

kcc_cast_output kcc_shape_cast_conservative( const kcc_shape* moving, vec2s translation, const kcc_shape* target,
											 float target_separation )
{
	return kcc_cast_shapes( moving, translation, target, target_separation, true, true );
}
