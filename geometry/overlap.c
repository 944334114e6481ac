// SPDX-License-Identifier: MIT
// Boolean overlap: analytic tests where they are cheap and exact, GJK (gjk.c) for the rest.
#include "internal.h"

#include <float.h>
#include <string.h>
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
#define KCC_POLYGON_SSE2
#include <emmintrin.h>
// GCC and clang on x86-64 also build the polygon test for AVX (eight edges in one register, three-operand forms)
// and take it when the machine runs it (checked per call: a load and a branch). The same IEEE operations per lane
// (no FMA), so the same values and answers. KCC_NO_AVX keeps to SSE2 (to test that form on any machine).
#if ( defined( __GNUC__ ) || defined( __clang__ ) ) && defined( __x86_64__ ) && !defined( KCC_NO_AVX )
#define KCC_POLYGON_AVX
#include <immintrin.h>
#endif
#endif

// Circle against polygon, every edge at once. Edge i runs from a = vertex i - 1 (vertex count - 1 for edge 0) to
// b = vertex i; with e = b - a and d = p - a: cross = e x d (>= 0 on the inner side), along = e . d, ee = e . e and
// over = along - clamp( along, 0, ee ), so that ee times the squared distance from p to the edge segment is
// s = cross^2 + over^2 (no division, no closest point, no square root). p is within rr of the core iff it is
// inside (every cross >= 0) or some gap = s - rr^2 ee <= 0. No data-dependent load and no argmax: the float values
// decide when every sign is certain, that is each |value| exceeds a bound on its rounding error (u = 2^-24):
// - cross and along err by at most 3.01u (|ex dy| + |ey dx|) + u |result| <= 4.1u (|along| + |cross|), since
//   |ex dy| + |ey dx| <= |e| |d| and |e|^2 |d|^2 = along^2 + cross^2; ee by 4.01u ee, which matters for over only
//   where along >= ee; over by the errors of along and ee plus u |over| (clamping is 1-Lipschitz). So
//   delta = 1e-6 (|cross| + |along|) + floor (1e-6 = 16.8u) is at least 4 times the error of cross and 1.8 times
//   that of over.
// - gap errs by at most e_c (2 |cross| + e_c) + e_o (2 |over| + e_o) + 3.01u s + 7.03u rr^2 ee (the squares, sums
//   and the product with rr^2), under margin = delta (|cross| + 2 |over| + delta) + 1e-6 rr^2 ee: the part of the
//   first term the error does not use is at least 0.5e-6 s, as delta >= 1e-6 |cross| and >= 1e-6 |over|.
// The floor 2^-60 + 2^-70 rr covers the absolute error of underflowing products (2^-150 each, rr^2 times that in
// rr^2 ee). An edge with either sign uncertain (within rounding of its boundary: touching exactly, in practice),
// and any overflow or NaN (they fail every comparison), send the query to the double test below. So do a sum of
// radii outside [2^-63, 2^63] (its square leaves the normal range), except 0, and a negative or non-finite one.
#define KCC_POLYGON_ERROR_SCALE 1.0e-6f
#define KCC_POLYGON_FLOOR 0x1p-60f
#define KCC_POLYGON_FLOOR_PER_RADIUS 0x1p-70f
#define KCC_POLYGON_RR_MIN_BITS 0x20000000u // 2^-63
#define KCC_POLYGON_RR_MAX_BITS 0x5f000000u // 2^63

// The same predicate in double, where a difference of floats with close exponents and the product of two such
// differences are exact: a point exactly on an edge of a sharp polygon touches it. Non-finite input (the point,
// rr, any vertex) and a negative rr give false. The centre comes as the double holding its two floats (see
// kcc_polygon_center_bits).
static bool kcc_polygon_decision_exact( double center_bits, const kcc_polygon* b, float rr )
{
	vec2s p;
	memcpy( &p, &center_bits, sizeof( p ) );
	if ( !( rr >= 0.0f && rr <= FLT_MAX ) || !isfinite( p.x ) || !isfinite( p.y ) )
	{
		return false;
	}
	int n = b->count;
	double r2 = (double)rr * rr;
	bool finite = true, inside = true, near = false;
	for ( int i = 0; i < n; ++i )
	{
		vec2s v = b->vertices[i], w = b->vertices[i + 1 < n ? i + 1 : 0];
		finite = finite && isfinite( v.x ) && isfinite( v.y );
		double ex = (double)w.x - v.x, ey = (double)w.y - v.y;
		double dx = (double)p.x - v.x, dy = (double)p.y - v.y;
		double cross = ex * dy - ey * dx;
		inside = inside && cross >= 0.0;
		double along = ex * dx + ey * dy, ee = ex * ex + ey * ey;
		if ( along <= 0.0 )
		{
			near = near || dx * dx + dy * dy <= r2;
		}
		else if ( along >= ee )
		{
			double fx = (double)p.x - w.x, fy = (double)p.y - w.y;
			near = near || fx * fx + fy * fy <= r2;
		}
		else
		{
			near = near || cross * cross <= r2 * ee;
		}
	}
	return finite && ( inside || near );
}

// The centre's two floats as one double: the register the centre arrives in, as is. Reading the struct's fields
// instead makes GCC store the argument to the stack and load it back (and realign the stack in the AVX form).
static inline double kcc_polygon_center_bits( vec2s center )
{
	double bits;
	memcpy( &bits, &center, sizeof( bits ) );
	return bits;
}

// True when rr takes the float path: 0, or in [2^-63, 2^63] (an integer compare on the bits: negative, NaN and Inf
// fall outside).
static inline bool kcc_polygon_radius_in_range( float rr )
{
	uint32_t bits;
	memcpy( &bits, &rr, sizeof( bits ) );
	return bits - KCC_POLYGON_RR_MIN_BITS <= KCC_POLYGON_RR_MAX_BITS - KCC_POLYGON_RR_MIN_BITS || bits == 0u;
}

// The answer from the per-edge sign masks: all edges of the polygon certain (else the double test), then inside
// (no edge with p outside its line) or touching some edge.
static inline bool kcc_polygon_answer( unsigned certain, unsigned outside, unsigned touching, unsigned edges,
									   double center_bits, const kcc_polygon* b, float rr )
{
	if ( ( certain & edges ) != edges )
	{
		return kcc_polygon_decision_exact( center_bits, b, rr );
	}
	return ( ( outside & edges ) == 0u ) | ( ( touching & edges ) != 0u );
}

#if defined( KCC_POLYGON_AVX )
// Bit k of the AVX masks is edge (0, 1, 4, 5, 2, 3, 6, 7)[k] (in-lane shuffles); entry n has the bits of edges < n.
#define KCC_AVX_EDGES( n )                                                                                             \
	( ( 0 < n ) | ( 1 < n ) << 1 | ( 4 < n ) << 2 | ( 5 < n ) << 3 | ( 2 < n ) << 4 | ( 3 < n ) << 5 | ( 6 < n ) << 6 |    \
	  ( 7 < n ) << 7 )
static const unsigned char s_kcc_avx_edges[KCC_MAX_POLYGON_VERTICES + 1] = {
	KCC_AVX_EDGES( 0 ), KCC_AVX_EDGES( 1 ), KCC_AVX_EDGES( 2 ), KCC_AVX_EDGES( 3 ), KCC_AVX_EDGES( 4 ),
	KCC_AVX_EDGES( 5 ), KCC_AVX_EDGES( 6 ), KCC_AVX_EDGES( 7 ), KCC_AVX_EDGES( 8 ) };
#undef KCC_AVX_EDGES

// The edges of a polygon with a count in range and a summed radius rr in range (kcc_circle_overlaps_polygon checks).
__attribute__( ( target( "avx" ) ) ) static bool kcc_polygon_edges_avx( double center_bits, const kcc_polygon* b,
																		 float rr )
{
	int n = b->count;
	const __m256 abs_mask = _mm256_castsi256_ps( _mm256_set1_epi32( 0x7fffffff ) );
	const __m256 scale = _mm256_set1_ps( KCC_POLYGON_ERROR_SCALE );
	// the centre's two floats in both halves of each lane, then each coordinate everywhere
	__m128 center = _mm_castpd_ps( _mm_set1_pd( center_bits ) );
	__m256 center2 = _mm256_insertf128_ps( _mm256_castps128_ps256( center ), center, 1 );
	__m256 px = _mm256_permute_ps( center2, 0x00 ), py = _mm256_permute_ps( center2, 0x55 );
	__m128 rr4 = _mm_permute_ps( _mm_set_ss( rr ), 0x00 );
	__m256 rr8 = _mm256_insertf128_ps( _mm256_castps128_ps256( rr4 ), rr4, 1 );
	__m256 rr2 = _mm256_mul_ps( rr8, rr8 );
	__m256 error_floor = _mm256_add_ps( _mm256_mul_ps( rr8, _mm256_set1_ps( KCC_POLYGON_FLOOR_PER_RADIUS ) ),
										_mm256_set1_ps( KCC_POLYGON_FLOOR ) );
	// a = vertices n - 1, 0, 1, 2 | 3, 4, 5, 6 and b = vertices 0 .. 7, deinterleaved in-lane: edges 0 1 4 5 | 2 3 6 7.
	// Edges n .. 7 read unused entries of the arrays and are masked off.
	const float* v = &b->vertices[0].x;
	__m128 a01 = _mm_loadh_pi( _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&b->vertices[n - 1] ) ), (const __m64*)v );
	__m256 a03 = _mm256_insertf128_ps( _mm256_castps128_ps256( a01 ), _mm_loadu_ps( v + 2 ), 1 );
	__m256 a47 = _mm256_loadu_ps( v + 6 );
	__m256 b03 = _mm256_loadu_ps( v ), b47 = _mm256_loadu_ps( v + 8 );
	__m256 ax = _mm256_shuffle_ps( a03, a47, _MM_SHUFFLE( 2, 0, 2, 0 ) );
	__m256 ay = _mm256_shuffle_ps( a03, a47, _MM_SHUFFLE( 3, 1, 3, 1 ) );
	__m256 bx = _mm256_shuffle_ps( b03, b47, _MM_SHUFFLE( 2, 0, 2, 0 ) );
	__m256 by = _mm256_shuffle_ps( b03, b47, _MM_SHUFFLE( 3, 1, 3, 1 ) );
	__m256 ex = _mm256_sub_ps( bx, ax ), ey = _mm256_sub_ps( by, ay );
	__m256 dx = _mm256_sub_ps( px, ax ), dy = _mm256_sub_ps( py, ay );
	__m256 cross = _mm256_sub_ps( _mm256_mul_ps( ex, dy ), _mm256_mul_ps( ey, dx ) );
	__m256 along = _mm256_add_ps( _mm256_mul_ps( ex, dx ), _mm256_mul_ps( ey, dy ) );
	__m256 ee = _mm256_add_ps( _mm256_mul_ps( ex, ex ), _mm256_mul_ps( ey, ey ) );
	__m256 over = _mm256_sub_ps( along, _mm256_min_ps( _mm256_max_ps( along, _mm256_setzero_ps() ), ee ) );
	__m256 r = _mm256_mul_ps( rr2, ee );
	__m256 gap = _mm256_sub_ps( _mm256_add_ps( _mm256_mul_ps( cross, cross ), _mm256_mul_ps( over, over ) ), r );
	__m256 abs_cross = _mm256_and_ps( cross, abs_mask ), abs_over = _mm256_and_ps( over, abs_mask );
	__m256 delta =
		_mm256_add_ps( _mm256_mul_ps( _mm256_add_ps( abs_cross, _mm256_and_ps( along, abs_mask ) ), scale ), error_floor );
	__m256 weight = _mm256_add_ps( _mm256_add_ps( abs_cross, _mm256_add_ps( abs_over, abs_over ) ), delta );
	__m256 margin = _mm256_add_ps( _mm256_mul_ps( delta, weight ), _mm256_mul_ps( r, scale ) );
	__m256 certain = _mm256_and_ps( _mm256_cmp_ps( abs_cross, delta, _CMP_GT_OQ ),
									_mm256_cmp_ps( _mm256_and_ps( gap, abs_mask ), margin, _CMP_GT_OQ ) );
	return kcc_polygon_answer( (unsigned)_mm256_movemask_ps( certain ), (unsigned)_mm256_movemask_ps( cross ),
							   (unsigned)_mm256_movemask_ps( gap ), s_kcc_avx_edges[n], center_bits, b, rr );
}
#endif

#if defined( KCC_POLYGON_SSE2 )
typedef struct kcc_polygon_lanes
{
	__m128 certain; ///< all ones where both signs below are certain
	__m128 cross;   ///< sign bit: p outside the edge's line
	__m128 gap;     ///< sign bit: p within rr of the edge segment
} kcc_polygon_lanes;

// Four edges a -> b (coordinates in lanes) against the point p: the AVX steps four lanes wide.
static inline kcc_polygon_lanes kcc_polygon_edges4( __m128 ax, __m128 ay, __m128 bx, __m128 by, __m128 px, __m128 py,
												   __m128 rr2, __m128 error_floor )
{
	const __m128 abs_mask = _mm_castsi128_ps( _mm_set1_epi32( 0x7fffffff ) );
	const __m128 scale = _mm_set1_ps( KCC_POLYGON_ERROR_SCALE );
	__m128 ex = _mm_sub_ps( bx, ax ), ey = _mm_sub_ps( by, ay );
	__m128 dx = _mm_sub_ps( px, ax ), dy = _mm_sub_ps( py, ay );
	__m128 cross = _mm_sub_ps( _mm_mul_ps( ex, dy ), _mm_mul_ps( ey, dx ) );
	__m128 along = _mm_add_ps( _mm_mul_ps( ex, dx ), _mm_mul_ps( ey, dy ) );
	__m128 ee = _mm_add_ps( _mm_mul_ps( ex, ex ), _mm_mul_ps( ey, ey ) );
	__m128 over = _mm_sub_ps( along, _mm_min_ps( _mm_max_ps( along, _mm_setzero_ps() ), ee ) );
	__m128 r = _mm_mul_ps( rr2, ee );
	__m128 gap = _mm_sub_ps( _mm_add_ps( _mm_mul_ps( cross, cross ), _mm_mul_ps( over, over ) ), r );
	__m128 abs_cross = _mm_and_ps( cross, abs_mask ), abs_over = _mm_and_ps( over, abs_mask );
	__m128 delta = _mm_add_ps( _mm_mul_ps( _mm_add_ps( abs_cross, _mm_and_ps( along, abs_mask ) ), scale ), error_floor );
	__m128 weight = _mm_add_ps( _mm_add_ps( abs_cross, _mm_add_ps( abs_over, abs_over ) ), delta );
	__m128 margin = _mm_add_ps( _mm_mul_ps( delta, weight ), _mm_mul_ps( r, scale ) );
	kcc_polygon_lanes out;
	out.certain = _mm_and_ps( _mm_cmpgt_ps( abs_cross, delta ), _mm_cmpgt_ps( _mm_and_ps( gap, abs_mask ), margin ) );
	out.cross = cross;
	out.gap = gap;
	return out;
}
#endif

// The baseline build: SSE2 (two groups of four edges) or scalar code, the same operations per edge.
static inline bool kcc_polygon_edges_baseline( double center_bits, const kcc_polygon* b, float rr )
{
	int n = b->count;
	float rr2 = rr * rr;
	float error_floor = KCC_POLYGON_FLOOR + KCC_POLYGON_FLOOR_PER_RADIUS * rr;
	unsigned certain = 0u, outside = 0u, touching = 0u;
#if defined( KCC_POLYGON_SSE2 )
	// Lanes as in the AVX form but in order: edges 0 .. 3 and 4 .. 7.
	const float* v = &b->vertices[0].x;
	__m128 b01 = _mm_loadu_ps( v ), b23 = _mm_loadu_ps( v + 4 ), b45 = _mm_loadu_ps( v + 8 ), b67 = _mm_loadu_ps( v + 12 );
	__m128 a01 = _mm_movelh_ps( _mm_castsi128_ps( _mm_loadl_epi64( (const __m128i*)&b->vertices[n - 1] ) ), b01 );
	__m128 a23 = _mm_loadu_ps( v + 2 ), a45 = _mm_loadu_ps( v + 6 ), a67 = _mm_loadu_ps( v + 10 );
	__m128i center = _mm_castpd_si128( _mm_set1_pd( center_bits ) );
	__m128 px = _mm_castsi128_ps( _mm_shuffle_epi32( center, 0x00 ) );
	__m128 py = _mm_castsi128_ps( _mm_shuffle_epi32( center, 0x55 ) );
	__m128 rr2v = _mm_set1_ps( rr2 ), floorv = _mm_set1_ps( error_floor );
#define KCC_EVEN( p, q ) _mm_shuffle_ps( p, q, _MM_SHUFFLE( 2, 0, 2, 0 ) )
#define KCC_ODD( p, q ) _mm_shuffle_ps( p, q, _MM_SHUFFLE( 3, 1, 3, 1 ) )
	kcc_polygon_lanes lo = kcc_polygon_edges4( KCC_EVEN( a01, a23 ), KCC_ODD( a01, a23 ), KCC_EVEN( b01, b23 ),
											   KCC_ODD( b01, b23 ), px, py, rr2v, floorv );
	kcc_polygon_lanes hi = kcc_polygon_edges4( KCC_EVEN( a45, a67 ), KCC_ODD( a45, a67 ), KCC_EVEN( b45, b67 ),
											   KCC_ODD( b45, b67 ), px, py, rr2v, floorv );
#undef KCC_EVEN
#undef KCC_ODD
	// Signed saturation keeps every sign: bytes 0 .. 7 certain, 8 .. 15 outside; then the gaps' signs.
	__m128i certain16 = _mm_packs_epi32( _mm_castps_si128( lo.certain ), _mm_castps_si128( hi.certain ) );
	__m128i cross16 = _mm_packs_epi32( _mm_castps_si128( lo.cross ), _mm_castps_si128( hi.cross ) );
	__m128i gap16 = _mm_packs_epi32( _mm_castps_si128( lo.gap ), _mm_castps_si128( hi.gap ) );
	unsigned bits = (unsigned)_mm_movemask_epi8( _mm_packs_epi16( certain16, cross16 ) );
	certain = bits;
	outside = bits >> 8;
	touching = (unsigned)_mm_movemask_epi8( _mm_packs_epi16( gap16, gap16 ) );
#else
	vec2s center;
	memcpy( &center, &center_bits, sizeof( center ) );
	float px = center.x, py = center.y;
	for ( int i = 0; i < n; ++i )
	{
		vec2s va = b->vertices[i > 0 ? i - 1 : n - 1], vb = b->vertices[i];
		float ex = vb.x - va.x, ey = vb.y - va.y;
		float dx = px - va.x, dy = py - va.y;
		float cross = ex * dy - ey * dx;
		float along = ex * dx + ey * dy;
		float ee = ex * ex + ey * ey;
		float over = along - glm_min( glm_max( along, 0.0f ), ee );
		float r = rr2 * ee;
		float gap = ( cross * cross + over * over ) - r;
		float abs_cross = fabsf( cross ), abs_over = fabsf( over );
		float delta = ( abs_cross + fabsf( along ) ) * KCC_POLYGON_ERROR_SCALE + error_floor;
		float weight = ( abs_cross + ( abs_over + abs_over ) ) + delta;
		float margin = delta * weight + r * KCC_POLYGON_ERROR_SCALE;
		certain |= (unsigned)( ( abs_cross > delta ) & ( fabsf( gap ) > margin ) ) << i;
		outside |= (unsigned)( signbit( cross ) != 0 ) << i;
		touching |= (unsigned)( signbit( gap ) != 0 ) << i;
	}
#endif
	return kcc_polygon_answer( certain, outside, touching, ( 1u << n ) - 1u, center_bits, b, rr );
}

bool kcc_circle_overlaps_polygon( kcc_circle a, const kcc_polygon* b )
{
	if ( b == NULL )
	{
		return false;
	}
	int n = b->count;
	float rr = a.radius + b->radius;
	double center_bits = kcc_polygon_center_bits( a.center );
	if ( n < 3 || n > KCC_MAX_POLYGON_VERTICES )
	{
		return false;
	}
	if ( kcc_polygon_radius_in_range( rr ) == false )
	{
		return kcc_polygon_decision_exact( center_bits, b, rr );
	}
#if defined( KCC_POLYGON_AVX )
	if ( kcc_isa_cap >= KCC_ISA_AVX && __builtin_cpu_supports( "avx" ) )
	{
		return kcc_polygon_edges_avx( center_bits, b, rr );
	}
#endif
	return kcc_polygon_edges_baseline( center_bits, b, rr );
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
	// polygon convexity and normals included, so a corrupted struct never overlaps.
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
