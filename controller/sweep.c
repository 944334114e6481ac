// SPDX-License-Identifier: MIT
// The sweep: the character's shape cast along a translation against the move's candidates, stopping where the gap
// along the first blocking surface's normal is the skin.
#include "box_tile.h"
#include "internal.h"
// The geometry core's trusted entry points: the candidates and the character are valid by construction.
#include "../geometry/internal.h"

#include <float.h>
#include <string.h>
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
#include <emmintrin.h>
#endif

// kcc_shape_at, inline in the sweep: it places the character once per sweep that reaches a candidate.
KCC_ALWAYS_INLINE void kcc_shape_placed( const kcc_shape* s, vec2s p, kcc_shape* out )
{
	kcc_shape* r = out;
	r->type = s->type;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			r->circle.center = glms_vec2_add( s->circle.center, p );
			r->circle.radius = s->circle.radius;
			break;
		case KCC_SHAPE_CAPSULE:
			r->capsule.a = glms_vec2_add( s->capsule.a, p );
			r->capsule.b = glms_vec2_add( s->capsule.b, p );
			r->capsule.radius = s->capsule.radius;
			break;
		case KCC_SHAPE_POLYGON:
			r->polygon = s->polygon;
			for ( int i = 0; i < s->polygon.count; ++i )
			{
				r->polygon.vertices[i] = glms_vec2_add( s->polygon.vertices[i], p );
			}
			r->polygon.centroid = glms_vec2_add( s->polygon.centroid, p );
			break;
		default:
			*r = kcc_shape_translate( s, p );
			break;
	}
}

void kcc_shape_at( const kcc_shape* s, vec2s p, kcc_shape* out )
{
	kcc_shape_placed( s, p, out );
}

void kcc_character_at( const kcc_controller* c, vec2s p, kcc_shape* out )
{
	kcc_shape_placed( &c->local_shape, p, out );
}

float kcc_shape_lowest_along( const kcc_shape* s, vec2s d )
{
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			return glms_vec2_dot( s->circle.center, d ) - s->circle.radius;
		case KCC_SHAPE_CAPSULE:
			return kcc_minf( glms_vec2_dot( s->capsule.a, d ), glms_vec2_dot( s->capsule.b, d ) ) - s->capsule.radius;
		case KCC_SHAPE_POLYGON:
		{
			float lowest = glms_vec2_dot( s->polygon.vertices[0], d );
			for ( int i = 1; i < s->polygon.count; ++i )
			{
				lowest = kcc_minf( lowest, glms_vec2_dot( s->polygon.vertices[i], d ) );
			}
			return lowest - s->polygon.radius;
		}
		default:
			return 0.0f;
	}
}

float kcc_shape_height_along( const kcc_shape* s, vec2s up )
{
	return -kcc_shape_lowest_along( s, glms_vec2_negate( up ) ) - kcc_shape_lowest_along( s, up );
}

float kcc_character_lowest_along( const kcc_controller* c, vec2s p, vec2s d )
{
	return kcc_shape_lowest_along( &c->local_shape, d ) + glms_vec2_dot( p, d );
}

kcc_candidate* kcc_candidate_ready( kcc_controller* c, kcc_candidate* candidate )
{
	if ( candidate->converted == false )
	{
		kcc_world_convert( c, candidate );
	}
	return candidate;
}

bool kcc_candidate_before( const kcc_candidate* a, const kcc_candidate* b )
{
	const double ka[4] = { a->bb.l, a->bb.b, a->bb.r, a->bb.t };
	const double kb[4] = { b->bb.l, b->bb.b, b->bb.r, b->bb.t };
	for ( int i = 0; i < 4; ++i )
	{
		if ( ka[i] != kb[i] )
		{
			return ka[i] < kb[i];
		}
	}
	if ( a->piece != b->piece )
	{
		return a->piece < b->piece;
	}
	return a->order < b->order;
}

// A sweep's box: the character's box at the start and at the end, joined and grown by the cull margin. With SSE2 in
// one register (lanes min.x, min.y, max.x, max.y): the same operations and comparisons as the scalar form, lane by
// lane (minps and maxps pick as kcc_minf and kcc_maxf do), for the fraction of the scalar form's instructions.
#if defined( __SSE2__ ) && !defined( KCC_NO_SIMD )
typedef __m128 kcc_sweep_box;

KCC_ALWAYS_INLINE kcc_sweep_box kcc_sweep_box_of( const kcc_controller* c, vec2s from, vec2s translation )
{
	double f, t; // each point's two floats, loaded into both halves of a register
	memcpy( &f, &from, sizeof f );
	memcpy( &t, &translation, sizeof t );
	__m128 start = _mm_add_ps( _mm_loadu_ps( &c->local_bounds.min.x ), _mm_castpd_ps( _mm_set1_pd( f ) ) );
	__m128 end = _mm_add_ps( start, _mm_castpd_ps( _mm_set1_pd( t ) ) );
	__m128 box = _mm_shuffle_ps( _mm_min_ps( start, end ), _mm_max_ps( start, end ), _MM_SHUFFLE( 3, 2, 1, 0 ) );
	return _mm_add_ps( box, _mm_setr_ps( -KCC_CULL_MARGIN, -KCC_CULL_MARGIN, KCC_CULL_MARGIN, KCC_CULL_MARGIN ) );
}

static inline kcc_aabb kcc_sweep_box_aabb( kcc_sweep_box box )
{
	kcc_aabb b;
	_mm_storeu_ps( &b.min.x, box );
	return b;
}

// kcc_world_covers: min >= the region's min and the region's max >= max (NaN: not covered).
static inline bool kcc_sweep_box_covered( const kcc_controller* c, kcc_sweep_box box )
{
	__m128 r = _mm_loadu_ps( &c->move->region.min.x );
	__m128 low = _mm_shuffle_ps( box, r, _MM_SHUFFLE( 3, 2, 1, 0 ) ); // box.min, region.max
	__m128 high = _mm_shuffle_ps( r, box, _MM_SHUFFLE( 3, 2, 1, 0 ) ); // region.min, box.max
	return _mm_movemask_ps( _mm_cmpnge_ps( low, high ) ) == 0;
}

// kcc_aabb_overlaps_aabb: box.min <= bounds.max and bounds.min <= box.max.
static inline bool kcc_sweep_box_meets( kcc_sweep_box box, const kcc_aabb* bounds )
{
	__m128 b = _mm_loadu_ps( &bounds->min.x );
	__m128 low = _mm_shuffle_ps( box, b, _MM_SHUFFLE( 1, 0, 1, 0 ) );  // box.min, bounds.min
	__m128 high = _mm_shuffle_ps( b, box, _MM_SHUFFLE( 3, 2, 3, 2 ) ); // bounds.max, box.max
	return _mm_movemask_ps( _mm_cmpnle_ps( low, high ) ) == 0;
}
#else
typedef kcc_aabb kcc_sweep_box;

static inline kcc_sweep_box kcc_sweep_box_of( const kcc_controller* c, vec2s from, vec2s translation )
{
	float x0 = c->local_bounds.min.x + from.x, y0 = c->local_bounds.min.y + from.y;
	float x1 = c->local_bounds.max.x + from.x, y1 = c->local_bounds.max.y + from.y;
	kcc_aabb box;
	box.min.x = kcc_minf( x0, x0 + translation.x ) - KCC_CULL_MARGIN;
	box.min.y = kcc_minf( y0, y0 + translation.y ) - KCC_CULL_MARGIN;
	box.max.x = kcc_maxf( x1, x1 + translation.x ) + KCC_CULL_MARGIN;
	box.max.y = kcc_maxf( y1, y1 + translation.y ) + KCC_CULL_MARGIN;
	return box;
}

static inline kcc_aabb kcc_sweep_box_aabb( kcc_sweep_box box )
{
	return box;
}

static inline bool kcc_sweep_box_covered( const kcc_controller* c, kcc_sweep_box box )
{
	return kcc_world_covers( c, box );
}

static inline bool kcc_sweep_box_meets( kcc_sweep_box box, const kcc_aabb* bounds )
{
	return kcc_aabb_overlaps_aabb( box, *bounds );
}
#endif

// Whether candidate cand may block a sweep whose box is box.
static inline bool kcc_sweep_reaches( const kcc_candidate* cand, kcc_sweep_box box )
{
	return cand->blocks && kcc_sweep_box_meets( box, &cand->bounds );
}

// One candidate's cast in a sweep (cand reaches the swept box): its contact, when it blocks, joins the result.
// floor_only: the reported contact is the first one with a walkable normal (a steep edge met first does not hide the
// floor the character stands on); the travel still keeps the skin from every hit. *best_allowed: the travel so far.
// point false: the result's point may be zero (the one-way test still has its own). box: kcc_box_cast_applies to the
// character and the translation.
KCC_ALWAYS_INLINE void kcc_sweep_one( kcc_controller* c, kcc_candidate* cand, vec2s from, vec2s translation, vec2s dir,
									  float len, const kcc_proxy* moving_proxies, int moving_proxy_count,
									  const kcc_shape* moving, bool floor_only, bool point, bool box,
									  float* best_allowed, kcc_sweep* result )
{
	kcc_cast_output out;
	vec2s lo, hi;
	// A box tile is cast as a box where that decides (the ground probe on a tile floor, a start near a tile's corner):
	// the same result, without converting it.
	if ( box == false || cand->source == NULL || cand->source->rectangle_in_range == false || cand->one_way ||
		 kcc_local_box( cand, c->move->origin, &lo, &hi ) == false ||
		 kcc_cast_box_trusted( moving_proxies, translation, lo, hi, cand->source->radius, point, &out ) == false )
	{
		kcc_candidate_ready( c, cand );
		out = cand->cast_ready ? kcc_proxies_cast_polygon_trusted( moving_proxies, moving_proxy_count, translation,
																   &cand->core.polygon, point || cand->one_way )
							   : kcc_proxies_cast_trusted( moving_proxies, moving_proxy_count, translation, &cand->core,
														   0.0f );
	}
	if ( out.hit == false )
	{
		return;
	}
	vec2s n = out.normal;
	float distance;
	float allowed;
	if ( out.fraction <= 0.0f && kcc_has_normal( n ) == false )
	{
		// Started touching or overlapping: the penetration normal says which way is out. Moving out (or
		// along) is free; moving in is blocked at once.
		kcc_penetration_output pen = kcc_penetration_trusted( &kcc_candidate_ready( c, cand )->core, moving );
		if ( pen.overlapping == false || kcc_has_normal( pen.normal ) == false )
		{
			return;
		}
		n = pen.normal;
		if ( glms_vec2_dot( dir, n ) >= 0.0f )
		{
			return;
		}
		if ( cand->one_way && kcc_one_way_on_top( c, cand, n, pen.depth ) == false )
		{
			return;
		}
		distance = 0.0f;
		allowed = 0.0f;
	}
	else
	{
		float approach = -glms_vec2_dot( dir, n );
		if ( approach <= 0.0f )
		{
			// Contact while moving along or away from the surface: it does not block.
			return;
		}
		if ( cand->one_way && kcc_one_way_blocks( c, from, n, out.point ) == false )
		{
			return;
		}
		distance = out.fraction * len;
		// Stop where the gap measured along the normal is the skin: a surface moved along at the skin's
		// gap (a coplanar tile seam) is then never reached.
		allowed = distance - kcc_skin_backoff( c->def.skin, approach );
		allowed = allowed > 0.0f ? allowed : 0.0f;
	}
	// The first contact (smallest time of impact, ties by kcc_candidate_before) gives the normal to slide on; the
	// travel keeps the skin from every surface hit on the way. Neither depends on the order the candidates are cast in.
	*best_allowed = kcc_minf( *best_allowed, allowed );
	result->blocked = true;
	if ( floor_only && kcc_classify_normal( n, c->def.up, c->cos_floor, c->def.mode ) != KCC_KIND_FLOOR )
	{
		return;
	}
	if ( result->hit == false || distance < result->distance ||
		 ( distance == result->distance && kcc_candidate_before( cand, result->candidate ) ) )
	{
		result->hit = true;
		result->distance = distance;
		result->normal = n;
		result->point = out.point;
		result->candidate = cand;
	}
}

/// Most candidates a floor sweep puts in order of their distance bounds (more: they are cast in the list's order).
#define KCC_SWEEP_ORDERED 16

/// Relative rounding of a cast's distance: it falls short of the exact one by less than this much times the size of the
/// coordinates involved (the largest of the shapes' and the translation's), over the contact's approach cosine.
#define KCC_CAST_ROUNDING ( 64.0f * FLT_EPSILON )

// Whether converting the candidate can add candidates (the fan pieces of a polygon of more than
// KCC_MAX_POLYGON_VERTICES vertices, which join the list in the order the polygons are converted): only a candidate
// that cannot is cast out of the list's order, or not at all.
static inline bool kcc_candidate_settled( const kcc_candidate* cand )
{
	return cand->converted || cand->piece > 0 ||
		   ( cand->source != NULL &&
			 ( cand->source->type != KCC_SHAPE_POLYGON || cand->source->count <= KCC_MAX_POLYGON_VERTICES ) );
}

// The box of a shape's core (the shape less its rounding radius) and that radius.
static kcc_aabb kcc_core_box( const kcc_shape* s, float* radius )
{
	kcc_aabb box;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			box.min = box.max = s->circle.center;
			*radius = s->circle.radius;
			return box;
		case KCC_SHAPE_CAPSULE:
			box.min = glms_vec2_minv( s->capsule.a, s->capsule.b );
			box.max = glms_vec2_maxv( s->capsule.a, s->capsule.b );
			*radius = s->capsule.radius;
			return box;
		case KCC_SHAPE_POLYGON:
			box.min = box.max = s->polygon.vertices[0];
			for ( int i = 1; i < s->polygon.count; ++i )
			{
				box.min = glms_vec2_minv( box.min, s->polygon.vertices[i] );
				box.max = glms_vec2_maxv( box.max, s->polygon.vertices[i] );
			}
			*radius = s->polygon.radius;
			return box;
		default:
			box.min = kcc_v2( -FLT_MAX, -FLT_MAX ); // no bound
			box.max = kcc_v2( FLT_MAX, FLT_MAX );
			*radius = 0.0f;
			return box;
	}
}

static inline float kcc_box_size( kcc_aabb b )
{
	return kcc_maxf( kcc_maxf( fabsf( b.min.x ), fabsf( b.min.y ) ), kcc_maxf( fabsf( b.max.x ), fabsf( b.max.y ) ) );
}

// The order to cast a floor sweep's candidates in: by a lower bound of their distance, so that the casts can stop once
// none left can change the result. The bound: the character, moved by a distance t along a unit direction, comes t
// closer to a shape at most, so no cast meets the candidate before the distance between the character's core box and
// the candidate's box (grown by the cull margin: the shape lies within it) less the rounding radius, less the cast's
// own rounding. Fills index with the candidates reaching the swept box from first on, and returns their count: with
// two or more, in the order of their bounds (in bound). -1 when they are to be cast in the list's order instead (too
// many, or one that may add fan pieces).
static int kcc_sweep_order( const kcc_controller* c, const kcc_shape* moving, float len, kcc_sweep_box swept,
							int first, int* index, float* bound )
{
	// A floor contact approaches at least this steeply: its distance is as precise as that.
	float approach = c->cos_floor - KCC_CLASSIFY_SLACK;
	int count = 0;
	for ( int i = first; i < c->move->candidate_count; ++i )
	{
		const kcc_candidate* cand = c->move->candidates + i;
		if ( kcc_sweep_reaches( cand, swept ) )
		{
			if ( count == KCC_SWEEP_ORDERED || kcc_candidate_settled( cand ) == false )
			{
				return -1;
			}
			index[count++] = i;
		}
	}
	if ( count < 2 )
	{
		return count;
	}
	if ( !( approach > 0.0f ) )
	{
		return -1;
	}
	float radius;
	kcc_aabb core = kcc_core_box( moving, &radius );
	float size = kcc_box_size( core ) + radius + len;
	float slack = KCC_CAST_ROUNDING / approach;
	for ( int j = 0; j < count; ++j )
	{
		int i = index[j];
		kcc_aabb b = kcc_aabb_inflate( c->move->candidates[i].bounds, KCC_CULL_MARGIN );
		float gx = kcc_maxf( kcc_maxf( b.min.x - core.max.x, core.min.x - b.max.x ), 0.0f );
		float gy = kcc_maxf( kcc_maxf( b.min.y - core.max.y, core.min.y - b.max.y ), 0.0f );
		float lower = sqrtf( gx * gx + gy * gy ) - radius - slack * ( size + kcc_box_size( b ) );
		// Insertion by bound; equal bounds keep the list's order.
		int k = j;
		while ( k > 0 && bound[k - 1] > lower )
		{
			index[k] = index[k - 1];
			bound[k] = bound[k - 1];
			k -= 1;
		}
		index[k] = i;
		bound[k] = lower;
	}
	return count;
}

// The casts of a sweep against the candidates from first on (first reaches the swept box). A floor sweep casts them
// nearest first when it can (kcc_sweep_order): once the result holds a floor and its travel is 0 (the common case: a
// character resting on the floor, within the skin), a candidate whose bound is beyond the floor's distance can change
// neither, nor can those after it.
static void kcc_sweep_cast( kcc_controller* c, vec2s from, vec2s translation, float len, kcc_sweep_box swept,
							int first, bool floor_only, bool point, kcc_sweep* result )
{
	*result = ( kcc_sweep ){ .travel = len, .distance = len };
	vec2s dir = glms_vec2_scale( translation, 1.0f / len );
	kcc_shape moving;
	kcc_shape_placed( &c->local_shape, from, &moving );
	kcc_proxy moving_proxies[KCC_MAX_PROXIES]; // made once for all the candidates' casts
	// The character's capsule is in range: positions and its shape lie within max_coordinate (1e7 at most).
	int moving_proxy_count = 1;
	if ( moving.type == KCC_SHAPE_CAPSULE )
	{
		kcc_proxy_of_capsule( moving_proxies, &moving.capsule );
	}
	else
	{
		moving_proxy_count = kcc_make_proxies( &moving, moving_proxies );
	}
	int index[KCC_SWEEP_ORDERED];
	float bound[KCC_SWEEP_ORDERED];
	int listed = floor_only ? kcc_sweep_order( c, &moving, len, swept, first, index, bound ) : -1;
	bool box = kcc_box_cast_applies( moving_proxies, moving_proxy_count, translation );
	float best_allowed = FLT_MAX;
	for ( int k = 0; k < listed; ++k )
	{
		// NaN bounds never stop the casts.
		if ( listed > 1 && result->hit && best_allowed == 0.0f && bound[k] > result->distance )
		{
			break;
		}
		kcc_sweep_one( c, c->move->candidates + index[k], from, translation, dir, len, moving_proxies,
					   moving_proxy_count, &moving, true, point, box, &best_allowed, result );
	}
	for ( int i = first; i < c->move->candidate_count && listed < 0; ++i )
	{
		kcc_candidate* cand = c->move->candidates + i;
		if ( kcc_sweep_reaches( cand, swept ) )
		{
			kcc_sweep_one( c, cand, from, translation, dir, len, moving_proxies, moving_proxy_count, &moving,
						   floor_only, point, box, &best_allowed, result );
		}
	}
	if ( result->blocked )
	{
		result->travel = best_allowed;
	}
}

// Inlined into each of the two sweeps below: most sweeps reach no candidate, and then the call is most of their cost.
KCC_ALWAYS_INLINE kcc_sweep kcc_sweep_impl( kcc_controller* c, vec2s from, vec2s translation, bool floor_only,
											bool point )
{
	float len = glms_vec2_norm( translation );
	if ( len <= 0.0f )
	{
		return ( kcc_sweep ){ 0 };
	}
	kcc_sweep_box swept = kcc_sweep_box_of( c, from, translation );
	if ( kcc_sweep_box_covered( c, swept ) == false )
	{
		kcc_world_grow( c, kcc_sweep_box_aabb( swept ) );
	}
	// Most sweeps reach no candidate at all: the casts' setup is made only when one does.
	for ( int i = 0; i < c->move->candidate_count; ++i )
	{
		if ( kcc_sweep_reaches( c->move->candidates + i, swept ) )
		{
			kcc_sweep best;
			kcc_sweep_cast( c, from, translation, len, swept, i, floor_only, point, &best );
			return best;
		}
	}
	// Built in the caller's result: a sweep reaching nothing zeroes and copies no result of its own.
	return ( kcc_sweep ){ .travel = len, .distance = len };
}

kcc_sweep kcc_sweep_character( kcc_controller* c, vec2s from, vec2s translation )
{
	return kcc_sweep_impl( c, from, translation, false, true );
}

kcc_sweep kcc_sweep_floor( kcc_controller* c, vec2s from, vec2s translation, bool point )
{
	return kcc_sweep_impl( c, from, translation, true, point );
}
