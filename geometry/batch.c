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
// vectoriser can turn into packed instructions (a build may define it already, e.g. -DKCC_NO_INLINE_ASM).
#ifndef KCC_NO_INLINE_ASM
#define KCC_NO_INLINE_ASM
#endif

#include "internal.h"

#include <float.h>
#include <string.h>

#define KCC_BATCH_CHUNK 256

// The kernels are built twice, for AVX2 (eight lanes) and for the baseline (four), and the loader picks one per
// machine (GCC's target_clones: an ifunc). The same IEEE operations in either, so the same answers (no FMA: the
// AVX2 clone may not contract a * b + c).
#if defined( __GNUC__ ) && !defined( __clang__ ) && defined( __x86_64__ ) && defined( __linux__ )
#define KCC_BATCH_CLONES __attribute__( ( target_clones( "avx2", "default" ) ) )
#define KCC_BATCH_AVX2_COMPACT
#include <immintrin.h>
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

#if defined( KCC_BATCH_AVX2_COMPACT )
// Entry m: the positions of the set bits of m in ascending order, four bits each from the lowest nibble up.
static const uint32_t s_kcc_set_bit_positions[256] = {
	0x00000000, 0x00000000, 0x00000001, 0x00000010, 0x00000002, 0x00000020, 0x00000021, 0x00000210,
	0x00000003, 0x00000030, 0x00000031, 0x00000310, 0x00000032, 0x00000320, 0x00000321, 0x00003210,
	0x00000004, 0x00000040, 0x00000041, 0x00000410, 0x00000042, 0x00000420, 0x00000421, 0x00004210,
	0x00000043, 0x00000430, 0x00000431, 0x00004310, 0x00000432, 0x00004320, 0x00004321, 0x00043210,
	0x00000005, 0x00000050, 0x00000051, 0x00000510, 0x00000052, 0x00000520, 0x00000521, 0x00005210,
	0x00000053, 0x00000530, 0x00000531, 0x00005310, 0x00000532, 0x00005320, 0x00005321, 0x00053210,
	0x00000054, 0x00000540, 0x00000541, 0x00005410, 0x00000542, 0x00005420, 0x00005421, 0x00054210,
	0x00000543, 0x00005430, 0x00005431, 0x00054310, 0x00005432, 0x00054320, 0x00054321, 0x00543210,
	0x00000006, 0x00000060, 0x00000061, 0x00000610, 0x00000062, 0x00000620, 0x00000621, 0x00006210,
	0x00000063, 0x00000630, 0x00000631, 0x00006310, 0x00000632, 0x00006320, 0x00006321, 0x00063210,
	0x00000064, 0x00000640, 0x00000641, 0x00006410, 0x00000642, 0x00006420, 0x00006421, 0x00064210,
	0x00000643, 0x00006430, 0x00006431, 0x00064310, 0x00006432, 0x00064320, 0x00064321, 0x00643210,
	0x00000065, 0x00000650, 0x00000651, 0x00006510, 0x00000652, 0x00006520, 0x00006521, 0x00065210,
	0x00000653, 0x00006530, 0x00006531, 0x00065310, 0x00006532, 0x00065320, 0x00065321, 0x00653210,
	0x00000654, 0x00006540, 0x00006541, 0x00065410, 0x00006542, 0x00065420, 0x00065421, 0x00654210,
	0x00006543, 0x00065430, 0x00065431, 0x00654310, 0x00065432, 0x00654320, 0x00654321, 0x06543210,
	0x00000007, 0x00000070, 0x00000071, 0x00000710, 0x00000072, 0x00000720, 0x00000721, 0x00007210,
	0x00000073, 0x00000730, 0x00000731, 0x00007310, 0x00000732, 0x00007320, 0x00007321, 0x00073210,
	0x00000074, 0x00000740, 0x00000741, 0x00007410, 0x00000742, 0x00007420, 0x00007421, 0x00074210,
	0x00000743, 0x00007430, 0x00007431, 0x00074310, 0x00007432, 0x00074320, 0x00074321, 0x00743210,
	0x00000075, 0x00000750, 0x00000751, 0x00007510, 0x00000752, 0x00007520, 0x00007521, 0x00075210,
	0x00000753, 0x00007530, 0x00007531, 0x00075310, 0x00007532, 0x00075320, 0x00075321, 0x00753210,
	0x00000754, 0x00007540, 0x00007541, 0x00075410, 0x00007542, 0x00075420, 0x00075421, 0x00754210,
	0x00007543, 0x00075430, 0x00075431, 0x00754310, 0x00075432, 0x00754320, 0x00754321, 0x07543210,
	0x00000076, 0x00000760, 0x00000761, 0x00007610, 0x00000762, 0x00007620, 0x00007621, 0x00076210,
	0x00000763, 0x00007630, 0x00007631, 0x00076310, 0x00007632, 0x00076320, 0x00076321, 0x00763210,
	0x00000764, 0x00007640, 0x00007641, 0x00076410, 0x00007642, 0x00076420, 0x00076421, 0x00764210,
	0x00007643, 0x00076430, 0x00076431, 0x00764310, 0x00076432, 0x00764320, 0x00764321, 0x07643210,
	0x00000765, 0x00007650, 0x00007651, 0x00076510, 0x00007652, 0x00076520, 0x00076521, 0x00765210,
	0x00007653, 0x00076530, 0x00076531, 0x00765310, 0x00076532, 0x00765320, 0x00765321, 0x07653210,
	0x00007654, 0x00076540, 0x00076541, 0x00765410, 0x00076542, 0x00765420, 0x00765421, 0x07654210,
	0x00076543, 0x00765430, 0x00765431, 0x07654310, 0x00765432, 0x07654320, 0x07654321, 0x76543210,
};

// kcc_batch_compact with AVX2: per eight flags, their bits (one multiply gathers the eight 0/1 bytes into the top
// byte), the positions of the set ones from the table, eight indices stored at once and popcount of them kept.
// The store reaches up to 7 entries past the kept ones: still inside out_indices, which has room for every
// circle up to the group's end.
__attribute__( ( target( "avx2,popcnt" ) ) ) static int kcc_batch_compact_avx2( const uint8_t* flags, int count,
																				  int base, int* out )
{
	const __m256i shifts = _mm256_setr_epi32( 0, 4, 8, 12, 16, 20, 24, 28 );
	const __m256i nibble = _mm256_set1_epi32( 15 );
	int n = 0;
	int groups = count / 8;
	for ( int g = 0; g < groups; ++g )
	{
		uint64_t word;
		memcpy( &word, flags + 8 * g, sizeof( word ) );
		unsigned bits = (unsigned)( ( word * 0x0102040810204080ull ) >> 56 );
		__m256i positions = _mm256_set1_epi32( (int)s_kcc_set_bit_positions[bits] );
		positions = _mm256_and_si256( _mm256_srlv_epi32( positions, shifts ), nibble );
		_mm256_storeu_si256( (__m256i*)( out + n ), _mm256_add_epi32( positions, _mm256_set1_epi32( base + 8 * g ) ) );
		n += __builtin_popcount( bits );
	}
	for ( int k = 8 * groups; k < count; ++k )
	{
		out[n] = base + k;
		n += flags[k];
	}
	return n;
}
#endif

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

	int ( *compact )( const uint8_t* flags, int count, int base, int* out ) = kcc_batch_compact;
#if defined( KCC_BATCH_AVX2_COMPACT )
	if ( __builtin_cpu_supports( "avx2" ) && __builtin_cpu_supports( "popcnt" ) )
	{
		compact = kcc_batch_compact_avx2;
	}
#endif

	uint8_t flags[KCC_BATCH_CHUNK];
	int hits = 0;
	int start = 0;
	for ( ; start + KCC_BATCH_CHUNK <= count; start += KCC_BATCH_CHUNK )
	{
		kernel( s, centers + start, radii + start, flags );
		hits += compact( flags, KCC_BATCH_CHUNK, start, out_indices + hits );
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
		hits += compact( flags, rest, start, out_indices + hits );
	}
	return hits;
}
