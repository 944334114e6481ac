// SPDX-License-Identifier: MIT
// Boolean overlap: analytic tests where they are cheap and exact, GJK (gjk.c) for the rest.
#include "internal.h"

#include <float.h>
#if defined( __SSE2__ )
#include <emmintrin.h>
#endif

// Exact decision for a point against the rounded edge v -> w in double: differences of floats and their products
// are exact there, so a point exactly on an edge of a sharp polygon counts as touching.
static bool kcc_edge_decision_exact( vec2s p, vec2s v, vec2s w, float rr )
{
	double ex = (double)w.x - v.x, ey = (double)w.y - v.y;
	double dx = (double)p.x - v.x, dy = (double)p.y - v.y;
	double r = rr;
	double cross = ex * dy - ey * dx; // >= 0: inside the edge's half plane
	if ( cross >= 0.0 )
	{
		return rr >= 0.0f; // inside the most separated edge: inside the core (a NaN radius still fails)
	}
	double t = ex * dx + ey * dy;
	double ee = ex * ex + ey * ey;
	if ( t <= 0.0 )
	{
		return dx * dx + dy * dy <= r * r;
	}
	if ( t >= ee )
	{
		double fx = (double)p.x - w.x, fy = (double)p.y - w.y;
		return fx * fx + fy * fy <= r * r;
	}
	// distance to the edge's line is -cross / |e|
	return cross * cross <= r * r * ee;
}

// Index of the edge of greatest separation n_i . (p - v_i) over the first count edges, and that separation (the
// first such edge on ties, as a scalar loop in index order picks it).
#if defined( __SSE2__ )
#define KCC_LANE_CAP_ROW( n )                                                                                         \
	{                                                                                                              \
		0 < n ? FLT_MAX : -FLT_MAX, 1 < n ? FLT_MAX : -FLT_MAX, 2 < n ? FLT_MAX : -FLT_MAX, 3 < n ? FLT_MAX : -FLT_MAX, \
			4 < n ? FLT_MAX : -FLT_MAX, 5 < n ? FLT_MAX : -FLT_MAX, 6 < n ? FLT_MAX : -FLT_MAX,                    \
			7 < n ? FLT_MAX : -FLT_MAX                                                                             \
	}
// Row count: +FLT_MAX for the lanes of the first count edges, -FLT_MAX for the rest.
static const float s_kcc_lane_cap[KCC_MAX_POLYGON_VERTICES + 1][8] = {
	KCC_LANE_CAP_ROW( 0 ), KCC_LANE_CAP_ROW( 1 ), KCC_LANE_CAP_ROW( 2 ), KCC_LANE_CAP_ROW( 3 ), KCC_LANE_CAP_ROW( 4 ),
	KCC_LANE_CAP_ROW( 5 ), KCC_LANE_CAP_ROW( 6 ), KCC_LANE_CAP_ROW( 7 ), KCC_LANE_CAP_ROW( 8 ) };
#undef KCC_LANE_CAP_ROW

static int kcc_max_separation_edge( const kcc_polygon* b, float px, float py, float* separation )
{
	// Two edges per vector: (x, y) products of four vectors, deinterleaved into the eight sums (each the same
	// nx * dx + ny * dy as in scalar code). Lanes past count get -FLT_MAX. All eight entries are in the arrays.
	__m128 p = _mm_setr_ps( px, py, px, py );
	__m128 q01 = _mm_mul_ps( _mm_loadu_ps( &b->normals[0].x ), _mm_sub_ps( p, _mm_loadu_ps( &b->vertices[0].x ) ) );
	__m128 q23 = _mm_mul_ps( _mm_loadu_ps( &b->normals[2].x ), _mm_sub_ps( p, _mm_loadu_ps( &b->vertices[2].x ) ) );
	__m128 q45 = _mm_mul_ps( _mm_loadu_ps( &b->normals[4].x ), _mm_sub_ps( p, _mm_loadu_ps( &b->vertices[4].x ) ) );
	__m128 q67 = _mm_mul_ps( _mm_loadu_ps( &b->normals[6].x ), _mm_sub_ps( p, _mm_loadu_ps( &b->vertices[6].x ) ) );
	__m128 s0 = _mm_add_ps( _mm_shuffle_ps( q01, q23, _MM_SHUFFLE( 2, 0, 2, 0 ) ),
							_mm_shuffle_ps( q01, q23, _MM_SHUFFLE( 3, 1, 3, 1 ) ) );
	__m128 s1 = _mm_add_ps( _mm_shuffle_ps( q45, q67, _MM_SHUFFLE( 2, 0, 2, 0 ) ),
							_mm_shuffle_ps( q45, q67, _MM_SHUFFLE( 3, 1, 3, 1 ) ) );
	// Lanes past count take -FLT_MAX: min with +FLT_MAX keeps a lane (a NaN lane becomes FLT_MAX, "separated"),
	// min with -FLT_MAX drops it whatever the unused entries hold.
	const float* cap = s_kcc_lane_cap[b->count];
	s0 = _mm_min_ps( s0, _mm_loadu_ps( cap ) );
	s1 = _mm_min_ps( s1, _mm_loadu_ps( cap + 4 ) );
	__m128 m = _mm_max_ps( s0, s1 );
	m = _mm_max_ps( m, _mm_shuffle_ps( m, m, _MM_SHUFFLE( 2, 3, 0, 1 ) ) );
	m = _mm_max_ps( m, _mm_shuffle_ps( m, m, _MM_SHUFFLE( 1, 0, 3, 2 ) ) );
	unsigned bits = (unsigned)_mm_movemask_ps( _mm_cmpeq_ps( s0, m ) ) |
					( (unsigned)_mm_movemask_ps( _mm_cmpeq_ps( s1, m ) ) << 4 );
	*separation = _mm_cvtss_f32( m );
	// no lane equals a NaN maximum (a NaN point): edge 0, and the caller's finiteness test says no
	return bits != 0 ? __builtin_ctz( bits ) : 0;
}
#else
static int kcc_max_separation_edge( const kcc_polygon* b, float px, float py, float* separation )
{
	float best = -FLT_MAX;
	int best_index = 0;
	for ( int i = 0; i < b->count; ++i )
	{
		float s = b->normals[i].x * ( px - b->vertices[i].x ) + b->normals[i].y * ( py - b->vertices[i].y );
		best_index = s > best ? i : best_index;
		best = s > best ? s : best;
	}
	*separation = best;
	return best_index;
}
#endif

bool kcc_circle_overlaps_polygon( kcc_circle a, const kcc_polygon* b )
{
	int n = b->count;
	if ( n < 3 || n > KCC_MAX_POLYGON_VERTICES )
	{
		return false;
	}
	float px = a.center.x, py = a.center.y;
	float rr = a.radius + b->radius;

	// The edge of greatest separation holds the closest feature: if the closest point is a vertex, the point lies
	// in that vertex's normal cone, and only the two edges at the vertex can be the most separated.
	float best;
	int best_index = kcc_max_separation_edge( b, px, py, &best );

	vec2s v = b->vertices[best_index];
	vec2s w = b->vertices[best_index + 1 < n ? best_index + 1 : 0];
	// Outside the core (best > 0) the distance to that edge's segment is |(best, over / |e|)|, with best the
	// distance to the edge's line and over how far the projection along e = w - v falls outside [0, ee]. So the
	// test distance <= rr is best^2 ee + over^2 <= rr^2 ee: no division, no closest point. Branch-free (random
	// queries would mispredict); only an answer within rounding of the boundary goes to the exact double test,
	// m bounds the float error of the separation and the distance (a few ulps of |p - v| + |w - v|).
	float dx = px - v.x, dy = py - v.y;
	float ex = w.x - v.x, ey = w.y - v.y;
	float ee = ex * ex + ey * ey;
	float along = dx * ex + dy * ey;
	float over = along - kcc_min_ss( kcc_max_ss( along, 0.0f ), ee );
	float gap = ( best * best * ee + over * over ) - rr * rr * ee; // ee (distance^2 - rr^2)
	bool hit = ( best <= 0.0f ) | ( gap <= 0.0f );
	float m = 1.0e-6f * ( fabsf( dx ) + fabsf( dy ) + fabsf( ex ) + fabsf( ey ) ) + FLT_MIN;
	// a NaN gap (the squares overflow for huge shapes) goes to the double test too
	bool near_boundary = ( fabsf( best ) <= m ) | !( fabsf( gap ) > 4.0f * m * ( rr + m ) * ee );
	if ( near_boundary )
	{
		return kcc_edge_decision_exact( a.center, v, w, rr );
	}
	// NaN or Inf in the point or the radius: no hit (x - x is 0 for finite x, NaN otherwise)
	float not_finite = ( px - px ) + ( py - py ) + ( rr - rr );
	return hit & ( not_finite <= 0.0f );
}

bool kcc_circle_overlaps_shape( kcc_circle c, const kcc_shape* s )
{
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			return kcc_circle_overlaps_circle( c, s->circle );
		case KCC_SHAPE_CAPSULE:
			return kcc_circle_overlaps_capsule( c, s->capsule );
		case KCC_SHAPE_AABB:
			return kcc_circle_overlaps_aabb( c, s->aabb );
		case KCC_SHAPE_OBB:
			return kcc_circle_overlaps_obb( c, s->obb );
		case KCC_SHAPE_POLYGON:
			return kcc_circle_overlaps_polygon( c, &s->polygon );
		case KCC_SHAPE_SECTOR:
			return kcc_circle_overlaps_sector( c, &s->sector );
		default:
			return false;
	}
}

static float kcc_cross_f( vec2s o, vec2s a, vec2s b )
{
	return ( a.x - o.x ) * ( b.y - o.y ) - ( a.y - o.y ) * ( b.x - o.x );
}

// Segment against segment within distance r. Symmetric in (a0, a1) <-> (b0, b1) by construction: the same four
// orientations and the same four point-segment distances are computed in either order.
static bool kcc_capsule_overlaps_capsule( const kcc_capsule* a, const kcc_capsule* b )
{
	float r = a->radius + b->radius;
	float o1 = kcc_cross_f( a->a, a->b, b->a ), o2 = kcc_cross_f( a->a, a->b, b->b );
	float o3 = kcc_cross_f( b->a, b->b, a->a ), o4 = kcc_cross_f( b->a, b->b, a->b );
	bool straddle_a = ( o1 <= 0.0f && o2 >= 0.0f ) || ( o1 >= 0.0f && o2 <= 0.0f );
	bool straddle_b = ( o3 <= 0.0f && o4 >= 0.0f ) || ( o3 >= 0.0f && o4 <= 0.0f );
	// Collinear segments straddle trivially; their distance comes from the end points below.
	bool collinear = ( o1 == 0.0f && o2 == 0.0f ) || ( o3 == 0.0f && o4 == 0.0f );
	if ( straddle_a && straddle_b && collinear == false )
	{
		return true; // the segments cross or touch
	}
	float d = kcc_point_segment_distance_squared( a->a, b->a, b->b );
	d = fminf( d, kcc_point_segment_distance_squared( a->b, b->a, b->b ) );
	d = fminf( d, kcc_point_segment_distance_squared( b->a, a->a, a->b ) );
	d = fminf( d, kcc_point_segment_distance_squared( b->b, a->a, a->b ) );
	return d <= r * r;
}

// A sharp-cornered convex polytope (AABB, OBB or radius-0 polygon) as counter-clockwise vertices with normals.
typedef struct kcc_polytope
{
	vec2s vertices[KCC_MAX_POLYGON_VERTICES];
	vec2s normals[KCC_MAX_POLYGON_VERTICES];
	int count;
} kcc_polytope;

static bool kcc_is_sharp( const kcc_shape* s )
{
	return s->type == KCC_SHAPE_AABB || s->type == KCC_SHAPE_OBB ||
		   ( s->type == KCC_SHAPE_POLYGON && s->polygon.radius == 0.0f );
}

static const kcc_polytope* kcc_make_polytope( const kcc_shape* s, kcc_polytope* scratch )
{
	if ( s->type == KCC_SHAPE_POLYGON )
	{
		// same leading layout: vertices, normals; the count is copied
		for ( int i = 0; i < s->polygon.count; ++i )
		{
			scratch->vertices[i] = s->polygon.vertices[i];
			scratch->normals[i] = s->polygon.normals[i];
		}
		scratch->count = s->polygon.count;
		return scratch;
	}
	scratch->count = 4;
	if ( s->type == KCC_SHAPE_AABB )
	{
		vec2s lo = s->aabb.min, hi = s->aabb.max;
		scratch->vertices[0] = lo;
		scratch->vertices[1] = kcc_v2( hi.x, lo.y );
		scratch->vertices[2] = hi;
		scratch->vertices[3] = kcc_v2( lo.x, hi.y );
		scratch->normals[0] = kcc_v2( 0.0f, -1.0f );
		scratch->normals[1] = kcc_v2( 1.0f, 0.0f );
		scratch->normals[2] = kcc_v2( 0.0f, 1.0f );
		scratch->normals[3] = kcc_v2( -1.0f, 0.0f );
		return scratch;
	}
	const kcc_obb* b = &s->obb;
	vec2s ux = b->rotation, uy = kcc_v2( -b->rotation.y, b->rotation.x );
	float hx = b->half_extents.x, hy = b->half_extents.y;
	vec2s ax = kcc_v2( ux.x * hx, ux.y * hx ), ay = kcc_v2( uy.x * hy, uy.y * hy );
	vec2s c = b->center;
	scratch->vertices[0] = kcc_v2( c.x - ax.x - ay.x, c.y - ax.y - ay.y );
	scratch->vertices[1] = kcc_v2( c.x + ax.x - ay.x, c.y + ax.y - ay.y );
	scratch->vertices[2] = kcc_v2( c.x + ax.x + ay.x, c.y + ax.y + ay.y );
	scratch->vertices[3] = kcc_v2( c.x - ax.x + ay.x, c.y - ax.y + ay.y );
	scratch->normals[0] = kcc_v2( -uy.x, -uy.y );
	scratch->normals[1] = ux;
	scratch->normals[2] = uy;
	scratch->normals[3] = kcc_v2( -ux.x, -ux.y );
	return scratch;
}

// True when some edge normal of p separates q from p (strictly: touching is not separated).
static bool kcc_polytope_separates( const kcc_polytope* p, const kcc_polytope* q )
{
	for ( int i = 0; i < p->count; ++i )
	{
		vec2s n = p->normals[i], v = p->vertices[i];
		float lowest = FLT_MAX;
		for ( int j = 0; j < q->count; ++j )
		{
			float s = n.x * ( q->vertices[j].x - v.x ) + n.y * ( q->vertices[j].y - v.y );
			lowest = s < lowest ? s : lowest;
		}
		if ( lowest > 0.0f )
		{
			return true;
		}
	}
	return false;
}

// Separating axis test; symmetric because both directions are tested and or-ed.
static bool kcc_sharp_overlaps_sharp( const kcc_shape* a, const kcc_shape* b )
{
	kcc_polytope scratch_a, scratch_b;
	const kcc_polytope* pa = kcc_make_polytope( a, &scratch_a );
	const kcc_polytope* pb = kcc_make_polytope( b, &scratch_b );
	bool separated_ab = kcc_polytope_separates( pa, pb );
	bool separated_ba = kcc_polytope_separates( pb, pa );
	return ( separated_ab || separated_ba ) == false;
}

bool kcc_overlap( const kcc_shape* a, const kcc_shape* b )
{
	KCC_ASSERT( a != NULL && b != NULL, "kcc_overlap: shape pointer is NULL" );
	if ( a == NULL || b == NULL )
	{
		return false;
	}
	// One notion of validity for every query (distance, casts and penetration use it too): kcc_shape_is_valid,
	// polygon convexity and normals included, so a corrupted struct never overlaps (H3-11).
	bool valid_a = kcc_shape_is_valid( a ), valid_b = kcc_shape_is_valid( b );
	KCC_ASSERT( valid_a, "kcc_overlap: shape a is invalid" );
	KCC_ASSERT( valid_b, "kcc_overlap: shape b is invalid" );
	if ( valid_a == false || valid_b == false )
	{
		return false;
	}

	// Every analytic pair calls one function with its arguments in a fixed role, so overlap(a, b) and
	// overlap(b, a) run the very same arithmetic.
	if ( a->type == KCC_SHAPE_CIRCLE )
	{
		return kcc_circle_overlaps_shape( a->circle, b );
	}
	if ( b->type == KCC_SHAPE_CIRCLE )
	{
		return kcc_circle_overlaps_shape( b->circle, a );
	}
	if ( a->type == KCC_SHAPE_AABB && b->type == KCC_SHAPE_AABB )
	{
		return kcc_aabb_overlaps_aabb( a->aabb, b->aabb );
	}
	if ( a->type == KCC_SHAPE_CAPSULE && b->type == KCC_SHAPE_CAPSULE )
	{
		return kcc_capsule_overlaps_capsule( &a->capsule, &b->capsule );
	}
	if ( kcc_is_sharp( a ) && kcc_is_sharp( b ) )
	{
		return kcc_sharp_overlaps_sharp( a, b );
	}
	return kcc_gjk_overlap( a, b );
}
