// SPDX-License-Identifier: MIT
// One shape against many circles. Each chunk of circles is tested by a branch-free loop of fixed length that the
// compiler vectorises (the same inline tests as kcc_overlap, so the answers are identical), into a flag array;
// the flags are then compacted into ascending indices.

// The kernels' selects (clamps, minimum) sit on multiplications that GCC moves into a branch and then refuses to
// speculate, as they "could trap"; kcc2d never enables floating-point traps, so let it. This changes no result,
// only whether an exception flag could be raised. Set before the includes: GCC inlines the header's tests only
// into functions built with the same options.
#if defined( __GNUC__ ) && !defined( __clang__ )
#pragma GCC optimize( "no-trapping-math" )
#endif
// The header's min / max helpers as plain C selects (the same results as the scalar maxss / minss), which the
// vectoriser can turn into packed instructions.
#define KCC_NO_INLINE_ASM

#include "internal.h"

#include <float.h>
#include <string.h>

#define KCC_BATCH_CHUNK 256

// The kernels are built twice, for AVX2 (eight lanes) and for the baseline (four), and the loader picks one per
// machine (GCC's target_clones: an ifunc). The same IEEE operations in either, so the same answers (no FMA: the
// AVX2 clone may not contract a * b + c).
#if defined( __GNUC__ ) && !defined( __clang__ ) && defined( __x86_64__ ) && defined( __linux__ )
#define KCC_BATCH_CLONES __attribute__( ( target_clones( "avx2", "default" ) ) )
#else
#define KCC_BATCH_CLONES
#endif

// A circle entry takes part only when its centre is finite and its radius finite and >= 0, exactly the circles
// kcc_overlap would accept (x * 0 is 0 for finite x, NaN otherwise).
KCC_INLINE bool kcc_batch_circle_ok( float x, float y, float r )
{
	// bitwise and: no short-circuit branches in the vectorised loops
	return ( x * 0.0f + y * 0.0f == 0.0f ) & ( r >= 0.0f ) & ( r <= FLT_MAX );
}

typedef void kcc_batch_kernel( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
							   uint8_t* restrict flags );

KCC_BATCH_CLONES static void kcc_batch_circle( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
							  uint8_t* restrict flags )
{
	const kcc_circle shape = s->circle;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_circle( shape, c ) );
	}
}

KCC_BATCH_CLONES static void kcc_batch_aabb( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
							uint8_t* restrict flags )
{
	const kcc_aabb box = s->aabb;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_aabb( c, box ) );
	}
}

KCC_BATCH_CLONES static void kcc_batch_obb( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
						   uint8_t* restrict flags )
{
	const kcc_obb box = s->obb;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_obb( c, box ) );
	}
}

KCC_BATCH_CLONES static void kcc_batch_sector( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
							  uint8_t* restrict flags )
{
	const kcc_sector sector = s->sector;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_sector( c, &sector ) );
	}
}

KCC_BATCH_CLONES static void kcc_batch_capsule( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
							   uint8_t* restrict flags )
{
	const kcc_capsule cap = s->capsule;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		kcc_circle c = { centers[i], radii[i] };
		bool ok = kcc_batch_circle_ok( c.center.x, c.center.y, c.radius );
		flags[i] = (uint8_t)( ok & kcc_circle_overlaps_capsule( c, cap ) );
	}
}

// Polygon: a vectorised pass computes the greatest edge separation exactly as kcc_circle_overlaps_polygon does;
// circles beyond it by more than a bound on that test's rounding margin are out there too (the distance to the
// closest feature is at least the separation), and the few others (in an area query) run the full test, so the
// answers are identical.
KCC_BATCH_CLONES static void kcc_batch_polygon( const kcc_shape* s, const vec2s* restrict centers, const float* restrict radii,
							   uint8_t* restrict flags )
{
	const kcc_polygon* p = &s->polygon;
	float best[KCC_BATCH_CHUNK];
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		best[i] = -FLT_MAX;
	}
	// The full test's margin is 1e-6 * (|p.x - v.x| + |p.y - v.y|) for one vertex v; by the triangle inequality
	// 1e-6 * (|p - c|_1 + max_v |v - c|_1) bounds it, and 1% more covers the float rounding of both.
	vec2s c = p->centroid;
	float extent = 0.0f;
	for ( int k = 0; k < p->count; ++k )
	{
		extent = fmaxf( extent, fabsf( p->vertices[k].x - c.x ) + fabsf( p->vertices[k].y - c.y ) );
	}
	for ( int k = 0; k < p->count; ++k )
	{
		vec2s n = p->normals[k], v = p->vertices[k];
		for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
		{
			float sep = n.x * ( centers[i].x - v.x ) + n.y * ( centers[i].y - v.y );
			best[i] = sep > best[i] ? sep : best[i];
		}
	}
	float polygon_radius = p->radius;
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		float px = centers[i].x, py = centers[i].y;
		float bound = 1.01e-6f * ( fabsf( px - c.x ) + fabsf( py - c.y ) + extent ) + 1.0e-30f;
		float rr = radii[i] + polygon_radius;
		bool ok = kcc_batch_circle_ok( px, py, radii[i] );
		flags[i] = (uint8_t)( ok & ( best[i] <= rr + bound ) );
	}
	for ( int i = 0; i < KCC_BATCH_CHUNK; ++i )
	{
		if ( flags[i] )
		{
			kcc_circle circle = { centers[i], radii[i] };
			flags[i] = (uint8_t)kcc_circle_overlaps_polygon( circle, p );
		}
	}
}

// Appends base + i for each set flag among the first count; skips 8 clear flags at a time.
static int kcc_batch_compact( const uint8_t* flags, int count, int base, int* out )
{
	int n = 0;
	int groups = count / 8;
	for ( int g = 0; g < groups; ++g )
	{
		uint64_t word;
		memcpy( &word, flags + 8 * g, sizeof( word ) );
		if ( word == 0 )
		{
			continue;
		}
		for ( int k = 8 * g; k < 8 * g + 8; ++k )
		{
			out[n] = base + k; // n <= k < count: always in bounds; kept only when the flag is set
			n += flags[k];
		}
	}
	for ( int k = 8 * groups; k < count; ++k )
	{
		out[n] = base + k;
		n += flags[k];
	}
	return n;
}

int kcc_batch_overlap_circles( const kcc_shape* s, const vec2s* centers, const float* radii, int count,
							   int* out_indices )
{
	KCC_ASSERT( s != NULL, "kcc_batch_overlap_circles: shape is NULL" );
	if ( s == NULL || count <= 0 )
	{
		return 0;
	}
	KCC_ASSERT( centers != NULL && radii != NULL && out_indices != NULL,
				"kcc_batch_overlap_circles: an array pointer is NULL" );
	bool valid = kcc_shape_is_valid( s );
	KCC_ASSERT( valid, "kcc_batch_overlap_circles: shape is invalid" );
	if ( valid == false || centers == NULL || radii == NULL || out_indices == NULL )
	{
		return 0;
	}

	kcc_batch_kernel* kernel = NULL;
	switch ( s->type )
	{
		case KCC_SHAPE_CIRCLE:
			kernel = kcc_batch_circle;
			break;
		case KCC_SHAPE_CAPSULE:
			kernel = kcc_batch_capsule;
			break;
		case KCC_SHAPE_AABB:
			kernel = kcc_batch_aabb;
			break;
		case KCC_SHAPE_OBB:
			kernel = kcc_batch_obb;
			break;
		case KCC_SHAPE_POLYGON:
			kernel = kcc_batch_polygon;
			break;
		case KCC_SHAPE_SECTOR:
			kernel = kcc_batch_sector;
			break;
		default:
			return 0;
	}

	uint8_t flags[KCC_BATCH_CHUNK];
	int hits = 0;
	int start = 0;
	for ( ; start + KCC_BATCH_CHUNK <= count; start += KCC_BATCH_CHUNK )
	{
		kernel( s, centers + start, radii + start, flags );
		hits += kcc_batch_compact( flags, KCC_BATCH_CHUNK, start, out_indices + hits );
	}
	int rest = count - start;
	if ( rest > 0 )
	{
		// The tail runs through the same fixed-length kernel on a padded copy (padding radius -1 never hits).
		vec2s tail_centers[KCC_BATCH_CHUNK];
		float tail_radii[KCC_BATCH_CHUNK];
		memcpy( tail_centers, centers + start, (size_t)rest * sizeof( vec2s ) );
		memcpy( tail_radii, radii + start, (size_t)rest * sizeof( float ) );
		for ( int i = rest; i < KCC_BATCH_CHUNK; ++i )
		{
			tail_centers[i] = kcc_v2( 0.0f, 0.0f );
			tail_radii[i] = -1.0f;
		}
		kernel( s, tail_centers, tail_radii, flags );
		hits += kcc_batch_compact( flags, rest, start, out_indices + hits );
	}
	return hits;
}
