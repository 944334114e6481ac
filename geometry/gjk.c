// SPDX-License-Identifier: MIT
// Convex proxies (core + radius), GJK distance on the cores, and the Minkowski difference of two polytope cores.
// GJK follows the approach of Box2D v3's b2ShapeDistance (2D simplex of up to 3 points, Voronoi regions by
// barycentric coordinates, stop on no progress or a repeated support point, iteration cap); our code.
#include "internal.h"

#include <float.h>

// Generous: polytopes finish in a handful of iterations; curved (sector) cores converge linearly.
#define KCC_GJK_MAX_ITERATIONS 48

// ---------------------------------------------------------------------------------------------------------------
// Proxies

// Box from centre, unit axis and half extents; zero extents degrade to a segment or a point so no edge has
// zero length.
static void kcc_proxy_set_box( kcc_proxy* p, vec2s center, vec2s axis_x, vec2s half, float radius )
{
	vec2s axis_y = kcc_v2( -axis_x.y, axis_x.x );
	vec2s ex = glms_vec2_scale( axis_x, half.x );
	vec2s ey = glms_vec2_scale( axis_y, half.y );
	if ( half.x == 0.0f || half.y == 0.0f )
	{
		vec2s e = half.x == 0.0f ? ey : ex;
		kcc_proxy_set_segment( p, glms_vec2_sub( center, e ), glms_vec2_add( center, e ), radius );
		return;
	}
	p->curved = false;
	p->radius = radius;
	p->count = 4;
	p->own_points[0] = glms_vec2_sub( glms_vec2_sub( center, ex ), ey );
	p->own_points[1] = glms_vec2_sub( glms_vec2_add( center, ex ), ey );
	p->own_points[2] = glms_vec2_add( glms_vec2_add( center, ex ), ey );
	p->own_points[3] = glms_vec2_add( glms_vec2_sub( center, ex ), ey );
	p->own_normals[0] = glms_vec2_negate( axis_y );
	p->own_normals[1] = axis_x;
	p->own_normals[2] = axis_y;
	p->own_normals[3] = glms_vec2_negate( axis_x );
}

// Convex sector piece: apex, unit direction, arc radius, (cos, sin) of half its opening (<= pi / 2).
static void kcc_proxy_set_sector( kcc_proxy* p, vec2s apex, vec2s direction, float radius, vec2s half_angle )
{
	float c = half_angle.x, s = half_angle.y;
	vec2s left = kcc_v2( c * direction.x - s * direction.y, s * direction.x + c * direction.y );
	vec2s right = kcc_v2( c * direction.x + s * direction.y, -s * direction.x + c * direction.y );
	p->curved = true;
	p->radius = 0.0f;
	p->count = 3;
	p->direction = direction;
	p->half_angle = half_angle;
	p->arc_radius = radius;
	p->own_points[0] = apex;
	p->own_points[1] = glms_vec2_add( apex, glms_vec2_scale( right, radius ) );
	p->own_points[2] = glms_vec2_add( apex, glms_vec2_scale( left, radius ) );
	p->own_normals[0] = kcc_v2( right.y, -right.x );
	p->own_normals[1] = kcc_v2( -left.y, left.x );
}

static bool kcc_unit( vec2s v )
{
	return fabsf( v.x * v.x + v.y * v.y - 1.0f ) <= KCC_UNIT_TOLERANCE;
}

int kcc_make_proxies( const kcc_shape* s, kcc_proxy* proxies )
{
	if ( s == NULL )
	{
		return 0;
	}
	// The second proxy is set only where there is one (a sector wider than pi).
	proxies[0].points = proxies[0].own_points;
	proxies[0].normals = proxies[0].own_normals;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
		{
			const kcc_circle* c = &s->circle;
			if ( kcc_usable_vec2( c->center ) == false || kcc_valid_radius( c->radius ) == false )
			{
				return 0;
			}
			proxies[0].curved = false;
			proxies[0].own_points[0] = c->center;
			proxies[0].own_normals[0] = kcc_v2( 0.0f, 1.0f );
			proxies[0].count = 1;
			proxies[0].radius = c->radius;
			return 1;
		}
		case KCC_SHAPE_CAPSULE:
		{
			return kcc_proxy_set_capsule( proxies, &s->capsule );
		}
		case KCC_SHAPE_AABB:
		{
			const kcc_aabb* b = &s->aabb;
			if ( kcc_usable_vec2( b->min ) == false || kcc_usable_vec2( b->max ) == false || b->min.x > b->max.x ||
				 b->min.y > b->max.y )
			{
				return 0;
			}
			vec2s half = kcc_v2( 0.5f * ( b->max.x - b->min.x ), 0.5f * ( b->max.y - b->min.y ) );
			if ( half.x > 0.0f && half.y > 0.0f )
			{
				// Exact corners (centre +- half can round off the box).
				kcc_proxy* p = proxies;
				p->curved = false;
				p->radius = 0.0f;
				p->count = 4;
				p->own_points[0] = b->min;
				p->own_points[1] = kcc_v2( b->max.x, b->min.y );
				p->own_points[2] = b->max;
				p->own_points[3] = kcc_v2( b->min.x, b->max.y );
				p->own_normals[0] = kcc_v2( 0.0f, -1.0f );
				p->own_normals[1] = kcc_v2( 1.0f, 0.0f );
				p->own_normals[2] = kcc_v2( 0.0f, 1.0f );
				p->own_normals[3] = kcc_v2( -1.0f, 0.0f );
				return 1;
			}
			if ( half.x > 0.0f )
			{
				kcc_proxy_set_segment( proxies, b->min, kcc_v2( b->max.x, b->min.y ), 0.0f );
			}
			else
			{
				kcc_proxy_set_segment( proxies, b->min, kcc_v2( b->min.x, b->max.y ), 0.0f );
			}
			return 1;
		}
		case KCC_SHAPE_OBB:
		{
			const kcc_obb* b = &s->obb;
			if ( kcc_usable_vec2( b->center ) == false || kcc_usable_vec2( b->half_extents ) == false ||
				 kcc_usable_vec2( b->rotation ) == false || b->half_extents.x < 0.0f || b->half_extents.y < 0.0f ||
				 kcc_usable_float( b->angle ) == false )
			{
				return 0;
			}
			if ( kcc_unit( b->rotation ) == false )
			{
				return 0;
			}
			kcc_proxy_set_box( proxies, b->center, b->rotation, b->half_extents, 0.0f );
			return 1;
		}
		case KCC_SHAPE_POLYGON:
		{
			return kcc_proxy_set_polygon( proxies, &s->polygon );
		}
		case KCC_SHAPE_SECTOR:
		{
			const kcc_sector* sec = &s->sector;
			if ( kcc_usable_vec2( sec->apex ) == false || kcc_usable_vec2( sec->direction ) == false ||
				 kcc_usable_float( sec->radius ) == false || kcc_usable_float( sec->angle ) == false ||
				 sec->radius <= 0.0f || sec->angle <= 0.0f || sec->angle > KCC_TWO_PI_F + KCC_FULL_ANGLE_SLACK )
			{
				return 0;
			}
			if ( kcc_unit( sec->direction ) == false || kcc_unit( sec->half_angle ) == false || sec->half_angle.y < 0.0f )
			{
				return 0;
			}
			vec2s direction = sec->direction;
			float half = 0.5f * sec->angle;
			if ( sec->angle <= KCC_PI_F )
			{
				vec2s half_angle = kcc_v2( cosf( half ), sinf( half ) );
				half_angle.x = half_angle.x < 0.0f ? 0.0f : half_angle.x;
				kcc_proxy_set_sector( proxies, sec->apex, direction, sec->radius, half_angle );
				proxies[0].arc_direction = direction;
				proxies[0].arc_half_angle = half_angle;
				return 1;
			}
			// Wider than pi: two convex halves, each opening angle / 2 (<= pi), axes rotated by +-angle / 4.
			float quarter = 0.25f * sec->angle;
			float qc = cosf( quarter ), qs = sinf( quarter );
			qc = qc < 0.0f ? 0.0f : qc;
			vec2s left = kcc_v2( qc * direction.x - qs * direction.y, qs * direction.x + qc * direction.y );
			vec2s right = kcc_v2( qc * direction.x + qs * direction.y, -qs * direction.x + qc * direction.y );
			proxies[1].points = proxies[1].own_points;
			proxies[1].normals = proxies[1].own_normals;
			kcc_proxy_set_sector( proxies + 0, sec->apex, left, sec->radius, kcc_v2( qc, qs ) );
			kcc_proxy_set_sector( proxies + 1, sec->apex, right, sec->radius, kcc_v2( qc, qs ) );
			for ( int i = 0; i < 2; ++i )
			{
				proxies[i].arc_direction = direction;
				proxies[i].arc_half_angle = sec->half_angle;
			}
			return 2;
		}
		default:
			return 0;
	}
}

vec2s kcc_proxy_support( const kcc_proxy* p, vec2s d )
{
	if ( p->curved )
	{
		// In the sector's frame: x along the axis, y across. Within the opening the arc point in direction d
		// is the support; outside it, the arc end on d's side or the apex, whichever reaches further.
		float x = glms_vec2_dot( p->direction, d );
		float y = glms_vec2_cross( p->direction, d );
		float ay = fabsf( y );
		float c = p->half_angle.x, s = p->half_angle.y;
		if ( c * ay - s * x <= 0.0f )
		{
			float length = sqrtf( d.x * d.x + d.y * d.y );
			if ( length > 0.0f )
			{
				return glms_vec2_add( p->points[0], glms_vec2_scale( d, p->arc_radius / length ) );
			}
			return p->points[0];
		}
		vec2s end = y >= 0.0f ? p->points[2] : p->points[1];
		return c * x + s * ay > 0.0f ? end : p->points[0];
	}
	int best = 0;
	float best_value = glms_vec2_dot( p->points[0], d );
	for ( int i = 1; i < p->count; ++i )
	{
		float value = glms_vec2_dot( p->points[i], d );
		if ( value > best_value )
		{
			best = i;
			best_value = value;
		}
	}
	return p->points[best];
}

// ---------------------------------------------------------------------------------------------------------------
// GJK on the Minkowski difference b - a

typedef struct kcc_simplex_vertex
{
	vec2s wa; // support point on a
	vec2s wb; // support point on b
	vec2s w;  // wb - wa
	float a;  // barycentric weight
} kcc_simplex_vertex;

typedef struct kcc_simplex
{
	kcc_simplex_vertex v[3];
	int count;
} kcc_simplex;

static void kcc_solve2( kcc_simplex* s )
{
	vec2s w1 = s->v[0].w, w2 = s->v[1].w;
	vec2s e12 = glms_vec2_sub( w2, w1 );
	float d12_2 = -glms_vec2_dot( w1, e12 );
	if ( d12_2 <= 0.0f )
	{
		// w1 region
		s->v[0].a = 1.0f;
		s->count = 1;
		return;
	}
	float d12_1 = glms_vec2_dot( w2, e12 );
	if ( d12_1 <= 0.0f )
	{
		// w2 region
		s->v[1].a = 1.0f;
		s->v[0] = s->v[1];
		s->count = 1;
		return;
	}
	float inv = 1.0f / ( d12_1 + d12_2 );
	s->v[0].a = d12_1 * inv;
	s->v[1].a = d12_2 * inv;
	s->count = 2;
}

static void kcc_solve3( kcc_simplex* s )
{
	vec2s w1 = s->v[0].w, w2 = s->v[1].w, w3 = s->v[2].w;

	vec2s e12 = glms_vec2_sub( w2, w1 );
	float d12_1 = glms_vec2_dot( w2, e12 );
	float d12_2 = -glms_vec2_dot( w1, e12 );

	vec2s e13 = glms_vec2_sub( w3, w1 );
	float d13_1 = glms_vec2_dot( w3, e13 );
	float d13_2 = -glms_vec2_dot( w1, e13 );

	vec2s e23 = glms_vec2_sub( w3, w2 );
	float d23_1 = glms_vec2_dot( w3, e23 );
	float d23_2 = -glms_vec2_dot( w2, e23 );

	float n123 = glms_vec2_cross( e12, e13 );
	float d123_1 = n123 * glms_vec2_cross( w2, w3 );
	float d123_2 = n123 * glms_vec2_cross( w3, w1 );
	float d123_3 = n123 * glms_vec2_cross( w1, w2 );

	if ( d12_2 <= 0.0f && d13_2 <= 0.0f )
	{
		s->v[0].a = 1.0f;
		s->count = 1;
		return;
	}
	if ( d12_1 > 0.0f && d12_2 > 0.0f && d123_3 <= 0.0f )
	{
		float inv = 1.0f / ( d12_1 + d12_2 );
		s->v[0].a = d12_1 * inv;
		s->v[1].a = d12_2 * inv;
		s->count = 2;
		return;
	}
	if ( d13_1 > 0.0f && d13_2 > 0.0f && d123_2 <= 0.0f )
	{
		float inv = 1.0f / ( d13_1 + d13_2 );
		s->v[0].a = d13_1 * inv;
		s->v[2].a = d13_2 * inv;
		s->v[1] = s->v[2];
		s->count = 2;
		return;
	}
	if ( d12_1 <= 0.0f && d23_2 <= 0.0f )
	{
		s->v[1].a = 1.0f;
		s->v[0] = s->v[1];
		s->count = 1;
		return;
	}
	if ( d13_1 <= 0.0f && d23_1 <= 0.0f )
	{
		s->v[2].a = 1.0f;
		s->v[0] = s->v[2];
		s->count = 1;
		return;
	}
	if ( d23_1 > 0.0f && d23_2 > 0.0f && d123_1 <= 0.0f )
	{
		float inv = 1.0f / ( d23_1 + d23_2 );
		s->v[1].a = d23_1 * inv;
		s->v[2].a = d23_2 * inv;
		s->v[0] = s->v[2];
		s->count = 2;
		return;
	}
	// Inside the triangle: the origin is in b - a, the cores overlap.
	float inv = 1.0f / ( d123_1 + d123_2 + d123_3 );
	s->v[0].a = d123_1 * inv;
	s->v[1].a = d123_2 * inv;
	s->v[2].a = d123_3 * inv;
	s->count = 3;
}

// An edge simplex whose weights are within [0, 1]: an edge shorter than ~1e-19 underflows its squared length and
// gets infinite weights (its witness points would be NaN).
static bool kcc_simplex_edge_usable( const kcc_simplex* s )
{
	return s->count == 2 && s->v[0].a >= 0.0f && s->v[0].a <= 1.0f && s->v[1].a >= 0.0f && s->v[1].a <= 1.0f;
}

static vec2s kcc_simplex_closest( const kcc_simplex* s )
{
	if ( s->count == 1 )
	{
		return s->v[0].w;
	}
	if ( s->count == 2 )
	{
		// The perpendicular from the origin to the line, not a1 * w1 + a2 * w2: near contact that sum cancels
		// and its direction (the next search direction) would be float noise.
		vec2s e = glms_vec2_sub( s->v[1].w, s->v[0].w );
		float ee = glms_vec2_dot( e, e );
		float c = glms_vec2_cross( e, s->v[0].w ) / ee;
		return kcc_v2( -e.y * c, e.x * c );
	}
	return kcc_v2( 0.0f, 0.0f );
}

static void kcc_simplex_witness( const kcc_simplex* s, vec2s* pa, vec2s* pb )
{
	vec2s a = kcc_v2( 0.0f, 0.0f ), b = kcc_v2( 0.0f, 0.0f );
	for ( int i = 0; i < s->count; ++i )
	{
		a = glms_vec2_add( a, glms_vec2_scale( s->v[i].wa, s->v[i].a ) );
		b = glms_vec2_add( b, glms_vec2_scale( s->v[i].wb, s->v[i].a ) );
	}
	*pa = a;
	*pb = b;
}

kcc_gjk_output kcc_gjk_distance( const kcc_proxy* a, vec2s offset_a, const kcc_proxy* b )
{
	kcc_gjk_output out = { 0 };
	bool curved = a->curved || b->curved;

	kcc_simplex simplex;
	simplex.count = 1;
	simplex.v[0].wa = glms_vec2_add( a->points[0], offset_a );
	simplex.v[0].wb = b->points[0];
	simplex.v[0].w = glms_vec2_sub( simplex.v[0].wb, simplex.v[0].wa );
	simplex.v[0].a = 1.0f;

	// Scale for the tolerances: coordinates near 1e6 carry float error near 0.06 (one ulp).
	float scale = fmaxf( fmaxf( fabsf( simplex.v[0].wa.x ), fabsf( simplex.v[0].wa.y ) ),
						 fmaxf( fabsf( simplex.v[0].wb.x ), fabsf( simplex.v[0].wb.y ) ) ) +
				  1.0f;
	float epsilon = FLT_EPSILON * scale;

	kcc_simplex saved = simplex;
	float previous_distance_squared = FLT_MAX;
	bool overlap = false;
	int iteration = 0;
	while ( iteration < KCC_GJK_MAX_ITERATIONS )
	{
		iteration += 1;
		if ( simplex.count == 2 )
		{
			kcc_solve2( &simplex );
		}
		else if ( simplex.count == 3 )
		{
			kcc_solve3( &simplex );
		}
		if ( simplex.count == 3 )
		{
			overlap = true;
			break;
		}

		vec2s v = kcc_simplex_closest( &simplex );
		float vv = glms_vec2_dot( v, v );
		if ( vv >= previous_distance_squared )
		{
			// No progress (rounding): keep the better simplex from the previous iteration. But from a vertex of M
			// to an edge through it the distance cannot grow (the edge holds the vertex): equal within rounding,
			// the edge is kept, whose direction is exact where the vertex's is off by a hair over the distance.
			bool edge_through_vertex = saved.count == 1 && kcc_simplex_edge_usable( &simplex );
			if ( !( edge_through_vertex && vv <= previous_distance_squared * ( 1.0f + KCC_ROUNDING ) ) )
			{
				simplex = saved;
			}
			break;
		}
		previous_distance_squared = vv;
		saved = simplex;
		if ( vv <= epsilon * epsilon )
		{
			// The origin is on the simplex: the cores touch or overlap.
			overlap = true;
			break;
		}

		// Support of b - a in direction -v.
		vec2s wa = glms_vec2_add( kcc_proxy_support( a, v ), offset_a );
		vec2s wb = kcc_proxy_support( b, kcc_v2( -v.x, -v.y ) );
		vec2s w = glms_vec2_sub( wb, wa );

		// Duality gap: |v| is an upper bound of the distance, dot( v, w ) / |v| a lower bound.
		float gap = vv - glms_vec2_dot( v, w );
		float length = sqrtf( vv );
		float tolerance = curved ? 0.1f * KCC_LINEAR_SLOP * length : 0.0f;
		if ( gap <= tolerance + epsilon * length )
		{
			// Converged on a vertex of M while the closest point may lie a hair inside the edge from it to w: the
			// distance then differs in the second order (below rounding), the direction in the first. The edge's
			// own closest point, when the origin projects inside it, is no farther and has the exact direction.
			if ( simplex.count == 1 && ( w.x != simplex.v[0].w.x || w.y != simplex.v[0].w.y ) )
			{
				kcc_simplex edge = simplex;
				edge.v[1] = ( kcc_simplex_vertex ){ .wa = wa, .wb = wb, .w = w, .a = 0.0f };
				edge.count = 2;
				kcc_solve2( &edge );
				if ( kcc_simplex_edge_usable( &edge ) )
				{
					simplex = edge;
				}
			}
			break;
		}

		bool duplicate = false;
		for ( int i = 0; i < simplex.count; ++i )
		{
			if ( simplex.v[i].w.x == w.x && simplex.v[i].w.y == w.y )
			{
				duplicate = true;
				break;
			}
		}
		if ( duplicate )
		{
			break;
		}

		kcc_simplex_vertex* vertex = simplex.v + simplex.count;
		vertex->wa = wa;
		vertex->wb = wb;
		vertex->w = w;
		vertex->a = 0.0f;
		simplex.count += 1;
	}

	kcc_simplex_witness( &simplex, &out.point_a, &out.point_b );
	out.iterations = iteration;
	if ( overlap )
	{
		out.distance = 0.0f;
		if ( simplex.count == 3 )
		{
			out.point_b = out.point_a;
		}
		return out;
	}
	vec2s v = glms_vec2_sub( out.point_b, out.point_a );
	out.distance = sqrtf( glms_vec2_dot( v, v ) );
	// The direction from the simplex, not from the witness points: on an edge of M it is that edge's perpendicular,
	// exact, where b - a is the difference of two nearly equal points once the cores nearly touch.
	out.normal = kcc_unit_or( kcc_simplex_closest( &simplex ), kcc_unit_or( v, kcc_v2( 0.0f, 1.0f ) ) );
	return out;
}

kcc_distance_output kcc_proxy_distance( const kcc_proxy* a, const kcc_proxy* b )
{
	kcc_distance_output out = { 0 };
	kcc_gjk_output core = kcc_gjk_distance( a, kcc_v2( 0.0f, 0.0f ), b );
	float radii = a->radius + b->radius;
	if ( core.distance > radii && core.distance > 0.0f )
	{
		vec2s normal = core.normal;
		out.distance = core.distance - radii;
		out.normal = normal;
		out.point_a = glms_vec2_add( core.point_a, glms_vec2_scale( normal, a->radius ) );
		out.point_b = glms_vec2_sub( core.point_b, glms_vec2_scale( normal, b->radius ) );
		return out;
	}
	if ( core.distance > 0.0f )
	{
		// Only the rounded parts overlap: report the middle of the overlap on the line between the cores.
		vec2s normal = core.normal;
		vec2s pa = glms_vec2_add( core.point_a, glms_vec2_scale( normal, a->radius ) );
		vec2s pb = glms_vec2_sub( core.point_b, glms_vec2_scale( normal, b->radius ) );
		out.point_a = glms_vec2_scale( glms_vec2_add( pa, pb ), 0.5f );
		out.point_b = out.point_a;
		return out;
	}
	out.point_a = core.point_a;
	out.point_b = core.point_a;
	return out;
}

kcc_distance_output kcc_distance( const kcc_shape* a, const kcc_shape* b )
{
	// One notion of validity for every query: exactly what kcc_shape_is_valid rejects (convexity included).
	bool valid_a = kcc_shape_is_valid( a ), valid_b = kcc_shape_is_valid( b );
	KCC_ASSERT( valid_a, "kcc_distance: shape a is invalid" );
	KCC_ASSERT( valid_b, "kcc_distance: shape b is invalid" );
	if ( valid_a == false || valid_b == false )
	{
		kcc_distance_output empty = { 0 };
		return empty;
	}
	return kcc_distance_trusted( a, b );
}

kcc_distance_output kcc_distance_trusted( const kcc_shape* a, const kcc_shape* b )
{
	kcc_distance_output best = { 0 };
	kcc_proxy pa[KCC_MAX_PROXIES], pb[KCC_MAX_PROXIES];
	int na = kcc_make_proxies( a, pa );
	int nb = kcc_make_proxies( b, pb );
	if ( na == 0 || nb == 0 )
	{
		return best; // out of range (KCC_MAX_MAGNITUDE)
	}
	best.distance = FLT_MAX;
	for ( int i = 0; i < na; ++i )
	{
		for ( int j = 0; j < nb; ++j )
		{
			kcc_distance_output out = kcc_proxy_distance( pa + i, pb + j );
			if ( out.distance < best.distance )
			{
				best = out;
			}
			if ( best.distance == 0.0f )
			{
				return best;
			}
		}
	}
	return best;
}

bool kcc_gjk_overlap( const kcc_shape* a, const kcc_shape* b )
{
	kcc_proxy pa[KCC_MAX_PROXIES], pb[KCC_MAX_PROXIES];
	int na = kcc_make_proxies( a, pa );
	int nb = kcc_make_proxies( b, pb );
	if ( na == 0 || nb == 0 )
	{
		return false;
	}
	for ( int i = 0; i < na; ++i )
	{
		for ( int j = 0; j < nb; ++j )
		{
			kcc_gjk_output core = kcc_gjk_distance( pa + i, kcc_v2( 0.0f, 0.0f ), pb + j );
			if ( core.distance <= pa[i].radius + pb[j].radius + KCC_LINEAR_SLOP )
			{
				return true;
			}
		}
	}
	return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Minkowski difference of polytope cores

// Whether direction n lies in the lower half turn, angles [pi, 2 pi) (a NaN too).
static inline bool kcc_lower_half( vec2s n )
{
	return !( n.y > 0.0f || ( n.y == 0.0f && n.x > 0.0f ) );
}

// The order of directions u and v by angle in [0, 2 pi): negative when u comes first, positive when v does, 0 for
// the same direction (or a NaN: then both advance in the merge below). No division, no trigonometry.
static inline int kcc_angle_order( vec2s u, vec2s v )
{
	bool lower_u = kcc_lower_half( u ), lower_v = kcc_lower_half( v );
	if ( lower_u != lower_v )
	{
		return lower_u ? 1 : -1;
	}
	float c = glms_vec2_cross( u, v ); // exact in sign up to rounding: u and v lie within the same half turn
	return c > 0.0f ? -1 : ( c < 0.0f ? 1 : 0 );
}

// The edge of sign * core whose outward normal comes first in angle order: the one in the upper half turn after
// one in the lower half.
static int kcc_first_edge( const kcc_proxy* p, float sign )
{
	int n = p->count;
	for ( int i = 0; i < n && n > 1; ++i )
	{
		vec2s normal = glms_vec2_scale( p->normals[i], sign );
		vec2s previous = glms_vec2_scale( p->normals[i == 0 ? n - 1 : i - 1], sign );
		if ( kcc_lower_half( normal ) == false && kcc_lower_half( previous ) )
		{
			return i;
		}
	}
	return 0;
}

void kcc_minkowski_difference( const kcc_proxy* a, const kcc_proxy* b, kcc_minkowski* out )
{
	// -a has the vertices of a (negated) in the same counter-clockwise order; its edges point the other way. Both
	// edge lists are merged by the angle of their outward normals, each from its first. (Locals: the stores to out
	// could otherwise alias the proxies' fields, reloaded each step.)
	const vec2s *points_a = a->points, *normals_a = a->normals, *points_b = b->points, *normals_b = b->normals;
	int count_a = a->count, count_b = b->count;
	int edges_a = count_a > 1 ? count_a : 0, edges_b = count_b > 1 ? count_b : 0;
	int ia = kcc_first_edge( a, -1.0f ), ib = kcc_first_edge( b, 1.0f );
	int i = 0, j = 0, k = 0;
	while ( ( i < edges_a || j < edges_b ) && k < KCC_MAX_MINKOWSKI_VERTICES )
	{
		vec2s na = glms_vec2_negate( normals_a[ia] ), nb = normals_b[ib];
		out->vertices[k] = glms_vec2_sub( points_b[ib], points_a[ia] );
		out->index_b[k] = (unsigned char)ib;
		// The edge whose normal comes first; parallel edges of the same direction merge into one. At least one side
		// advances (a NaN orders as a tie), and neither passes its last edge.
		int order = i == edges_a ? 1 : ( j == edges_b ? -1 : kcc_angle_order( na, nb ) );
		bool take_a = order <= 0 && i < edges_a;
		bool take_b = order >= 0 && j < edges_b;
		out->normals[k] = take_a ? na : nb;
		out->source[k] = (unsigned char)( ( take_a ? KCC_EDGE_OF_A : 0u ) | ( take_b ? KCC_EDGE_OF_B : 0u ) );
		if ( take_a )
		{
			i += 1;
			ia = ia + 1 < count_a ? ia + 1 : 0;
		}
		if ( take_b )
		{
			j += 1;
			ib = ib + 1 < count_b ? ib + 1 : 0;
		}
		k += 1;
	}
	if ( k == 0 )
	{
		out->vertices[0] = glms_vec2_sub( points_b[0], points_a[0] );
		out->normals[0] = kcc_v2( 0.0f, 1.0f );
		out->index_b[0] = 0;
		out->source[0] = 0u;
		k = 1;
	}
	out->count = k;
}

kcc_polytope_closest kcc_polytope_closest_point( const vec2s* vertices, const vec2s* normals, int count, vec2s p )
{
	kcc_polytope_closest out = { 0 };
	if ( count == 1 )
	{
		out.point = vertices[0];
		vec2s d = glms_vec2_sub( p, vertices[0] );
		out.distance = sqrtf( glms_vec2_dot( d, d ) );
		return out;
	}

	if ( count == 2 )
	{
		// A segment has no inside: the separation test below would call every point on its line inside.
		vec2s e = glms_vec2_sub( vertices[1], vertices[0] );
		float ee = glms_vec2_dot( e, e );
		float s = ee > 0.0f ? glms_vec2_dot( glms_vec2_sub( p, vertices[0] ), e ) / ee : 0.0f;
		s = s < 0.0f ? 0.0f : ( s > 1.0f ? 1.0f : s );
		out.point = glms_vec2_add( vertices[0], glms_vec2_scale( e, s ) );
		vec2s d = glms_vec2_sub( p, out.point );
		out.distance = sqrtf( glms_vec2_dot( d, d ) );
		out.edge = 0;
		out.s = s;
		if ( out.distance == 0.0f )
		{
			out.point = p;
		}
		return out;
	}

	// The edge of largest separation holds the closest point or ends at it (a point outside a convex polygon
	// is never further from the nearest feature's supporting line than from any other edge line).
	int best = 0;
	float best_separation = -FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		float separation = glms_vec2_dot( normals[i], glms_vec2_sub( p, vertices[i] ) );
		if ( separation > best_separation )
		{
			best_separation = separation;
			best = i;
		}
	}

	if ( best_separation <= 0.0f )
	{
		// Inside: the nearest edge line is the best separation's; the projection lies within that edge.
		int next = best + 1 == count ? 0 : best + 1;
		vec2s e = glms_vec2_sub( vertices[next], vertices[best] );
		float ee = glms_vec2_dot( e, e );
		float s = ee > 0.0f ? glms_vec2_dot( glms_vec2_sub( p, vertices[best] ), e ) / ee : 0.0f;
		out.point = p;
		out.distance = 0.0f;
		out.depth = -best_separation;
		out.edge = best;
		out.s = s < 0.0f ? 0.0f : ( s > 1.0f ? 1.0f : s );
		return out;
	}

	// Outside: clamp onto the best edge and, for ties near a vertex, onto its neighbour on the clamped side.
	float best_distance_squared = FLT_MAX;
	for ( int pass = 0; pass < 2; ++pass )
	{
		int i0 = best;
		if ( pass == 1 )
		{
			if ( out.s > 0.0f && out.s < 1.0f )
			{
				break;
			}
			i0 = out.s <= 0.0f ? ( best == 0 ? count - 1 : best - 1 ) : ( best + 1 == count ? 0 : best + 1 );
		}
		int i1 = i0 + 1 == count ? 0 : i0 + 1;
		vec2s e = glms_vec2_sub( vertices[i1], vertices[i0] );
		float ee = glms_vec2_dot( e, e );
		float s = ee > 0.0f ? glms_vec2_dot( glms_vec2_sub( p, vertices[i0] ), e ) / ee : 0.0f;
		s = s < 0.0f ? 0.0f : ( s > 1.0f ? 1.0f : s );
		vec2s q = glms_vec2_add( vertices[i0], glms_vec2_scale( e, s ) );
		vec2s d = glms_vec2_sub( p, q );
		float dd = glms_vec2_dot( d, d );
		if ( dd < best_distance_squared )
		{
			best_distance_squared = dd;
			out.point = q;
			out.edge = i0;
			out.s = s;
		}
	}
	out.distance = sqrtf( best_distance_squared );
	return out;
}

vec2s kcc_minkowski_normal( const kcc_minkowski* m, const kcc_polytope_closest* closest )
{
	// From the closest point alone the direction is rounding noise once the cores nearly touch, so the edges decide
	// wherever they can.
	vec2s outward = kcc_unit_or( glms_vec2_negate( closest->point ), kcc_v2( 0.0f, -1.0f ) ); // denormal distances too
	if ( m->count < 2 )
	{
		return outward;
	}
	bool interior = closest->s > 0.0f && closest->s < 1.0f;
	if ( m->count == 2 )
	{
		// A segment: on its interior, its normal pointing from it to the origin; at an end, the point's direction.
		vec2s n = m->normals[0];
		n = glms_vec2_dot( n, m->vertices[0] ) > 0.0f ? glms_vec2_negate( n ) : n;
		return interior ? n : outward;
	}
	int edge = closest->edge;
	if ( interior )
	{
		return m->normals[edge];
	}
	// At a vertex (s = 0: the edge's start; s = 1: its end) the outward normals run counter-clockwise from the edge
	// before it to the edge after it.
	int before = closest->s <= 0.0f ? ( edge == 0 ? m->count - 1 : edge - 1 ) : edge;
	int after = closest->s <= 0.0f ? edge : ( edge + 1 == m->count ? 0 : edge + 1 );
	vec2s n0 = m->normals[before], n1 = m->normals[after];
	if ( glms_vec2_cross( n0, outward ) < 0.0f )
	{
		return n0;
	}
	if ( glms_vec2_cross( outward, n1 ) < 0.0f )
	{
		return n1;
	}
	return outward;
}
