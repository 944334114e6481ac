// SPDX-License-Identifier: MIT
// One shape against many circles. Each chunk of circles is tested by a branch-free loop of fixed length that the
// compiler vectorises (the same inline tests as kcc_overlap, so the answers are identical), into a flag array;
// the flags are then compacted into ascending indices. Sectors (sword arcs, the common area attack) have
// hand-written AVX2 and AVX-512 kernels instead that test and compact in one pass.

#include "internal.h"

#include <float.h>
#include <string.h>

#define KCC_BATCH_CHUNK 256

// On x86-64 with GCC or clang (unless KCC_NO_SIMD) the kernels are also built for AVX2 and the sector's for
// AVX-512F, and each call takes the widest the machine runs (checked per call).
#if ( defined( __GNUC__ ) || defined( __clang__ ) ) && defined( __x86_64__ ) && !defined( KCC_NO_SIMD )
#define KCC_BATCH_X86
#include <immintrin.h>
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

// The chunk kernels for the baseline instruction set, and again for AVX2 (eight lanes instead of four; the same
// IEEE operations, so the same answers: no FMA, the AVX2 build may not contract a * b + c).
#define KCC_BATCH_TARGET
#define KCC_BATCH_NAME( name ) name##_baseline
#include "batch_kernels.h"
#undef KCC_BATCH_TARGET
#undef KCC_BATCH_NAME
#if defined( KCC_BATCH_X86 )
#define KCC_BATCH_TARGET __attribute__( ( target( "avx2" ) ) )
#define KCC_BATCH_NAME( name ) name##_avx2
#include "batch_kernels.h"
#undef KCC_BATCH_TARGET
#undef KCC_BATCH_NAME
#endif

// Per shape type (KCC_SHAPE_INVALID has none).
static kcc_batch_kernel* const s_kcc_batch_kernels_baseline[KCC_SHAPE_TYPE_COUNT] = {
	[KCC_SHAPE_CIRCLE] = kcc_batch_circle_baseline,		[KCC_SHAPE_CAPSULE] = kcc_batch_capsule_baseline,
	[KCC_SHAPE_AABB] = kcc_batch_aabb_baseline,			[KCC_SHAPE_OBB] = kcc_batch_obb_baseline,
	[KCC_SHAPE_POLYGON] = kcc_batch_polygon_baseline,	[KCC_SHAPE_SECTOR] = kcc_batch_sector_baseline,
};
#if defined( KCC_BATCH_X86 )
static kcc_batch_kernel* const s_kcc_batch_kernels_avx2[KCC_SHAPE_TYPE_COUNT] = {
	[KCC_SHAPE_CIRCLE] = kcc_batch_circle_avx2,		[KCC_SHAPE_CAPSULE] = kcc_batch_capsule_avx2,
	[KCC_SHAPE_AABB] = kcc_batch_aabb_avx2,			[KCC_SHAPE_OBB] = kcc_batch_obb_avx2,
	[KCC_SHAPE_POLYGON] = kcc_batch_polygon_avx2,	[KCC_SHAPE_SECTOR] = kcc_batch_sector_avx2,
};
#endif

#if defined( KCC_BATCH_X86 )
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

// The circles from start to count one at a time (the wide kernels' last few), appended after n kept ones.
static int kcc_batch_sector_rest( const kcc_sector* s, const vec2s* centers, const float* radii, int start, int count,
								  int* out, int n )
{
	for ( int i = start; i < count; ++i )
	{
		kcc_circle circle = { centers[i], radii[i] };
		out[n] = i;
		n += (int)kcc_batch_circle_ok( circle.center.x, circle.center.y, circle.radius ) &
			 (int)kcc_circle_overlaps_sector( circle, s );
	}
	return n;
}

// The sword arc, the case area attacks use most: eight circles per step in AVX2 registers, fused with the
// compaction (no flag array). Per lane the same IEEE operations in the same order as
// kcc_circle_overlaps_sector and the same finite-circle rule as kcc_batch_circle_ok, so the same answers
// as kcc_overlap; the eight results leave as one movemask, whose set bits index the position table.
__attribute__( ( target( "avx2,popcnt" ) ) ) static int kcc_batch_sector_fused_avx2( const kcc_sector* s,
																				 const vec2s* centers,
																				 const float* radii, int count,
																				 int* out )
{
	const __m256 apex_x = _mm256_set1_ps( s->apex.x ), apex_y = _mm256_set1_ps( s->apex.y );
	const __m256 ux = _mm256_set1_ps( s->direction.x ), uy = _mm256_set1_ps( s->direction.y );
	const __m256 c = _mm256_set1_ps( s->half_angle.x ), sn = _mm256_set1_ps( s->half_angle.y );
	const __m256 radius = _mm256_set1_ps( s->radius );
	const __m256 zero = _mm256_setzero_ps(), largest = _mm256_set1_ps( FLT_MAX );
	const __m256 abs_mask = _mm256_castsi256_ps( _mm256_set1_epi32( 0x7fffffff ) );
	const __m256i shifts = _mm256_setr_epi32( 0, 4, 8, 12, 16, 20, 24, 28 );
	const __m256i nibble = _mm256_set1_epi32( 15 );
	int n = 0;
	int i = 0;
	for ( ; i + 8 <= count; i += 8 )
	{
		// x0 y0 x1 y1 | x2 y2 x3 y3 and x4 y4 x5 y5 | x6 y6 x7 y7: one shuffle each gives the x and the y in lane order
		// 0 1 4 5 | 2 3 6 7. The radii are put in that order too (off the long chain of the centres), and the
		// mask's bits back in circle order at the end.
		__m256 lo = _mm256_loadu_ps( &centers[i].x ), hi = _mm256_loadu_ps( &centers[i + 4].x );
		__m256 px = _mm256_shuffle_ps( lo, hi, _MM_SHUFFLE( 2, 0, 2, 0 ) );
		__m256 py = _mm256_shuffle_ps( lo, hi, _MM_SHUFFLE( 3, 1, 3, 1 ) );
		__m256 r = _mm256_castpd_ps(
			_mm256_permute4x64_pd( _mm256_castps_pd( _mm256_loadu_ps( radii + i ) ), _MM_SHUFFLE( 3, 1, 2, 0 ) ) );

		__m256 dx = _mm256_sub_ps( px, apex_x ), dy = _mm256_sub_ps( py, apex_y );
		__m256 x = _mm256_add_ps( _mm256_mul_ps( ux, dx ), _mm256_mul_ps( uy, dy ) );
		__m256 y = _mm256_and_ps( _mm256_sub_ps( _mm256_mul_ps( ux, dy ), _mm256_mul_ps( uy, dx ) ), abs_mask );
		__m256 across = _mm256_sub_ps( _mm256_mul_ps( c, y ), _mm256_mul_ps( sn, x ) );
		__m256 along = _mm256_add_ps( _mm256_mul_ps( c, x ), _mm256_mul_ps( sn, y ) );
		__m256 over = _mm256_sub_ps( along, _mm256_min_ps( _mm256_max_ps( along, zero ), radius ) );
		__m256 rr = _mm256_add_ps( radius, r );
		__m256 inside_angle = _mm256_cmp_ps( across, zero, _CMP_LE_OQ );
		__m256 near_apex = _mm256_cmp_ps( _mm256_add_ps( _mm256_mul_ps( x, x ), _mm256_mul_ps( y, y ) ),
										  _mm256_mul_ps( rr, rr ), _CMP_LE_OQ );
		__m256 near_edge = _mm256_cmp_ps( _mm256_add_ps( _mm256_mul_ps( across, across ), _mm256_mul_ps( over, over ) ),
										  _mm256_mul_ps( r, r ), _CMP_LE_OQ );
		__m256 hit = _mm256_or_ps( _mm256_and_ps( inside_angle, near_apex ), near_edge );

		__m256 finite_center = _mm256_cmp_ps( _mm256_add_ps( _mm256_mul_ps( px, zero ), _mm256_mul_ps( py, zero ) ),
											  zero, _CMP_EQ_OQ );
		__m256 radius_ok = _mm256_and_ps( _mm256_cmp_ps( r, zero, _CMP_GE_OQ ), _mm256_cmp_ps( r, largest, _CMP_LE_OQ ) );
		unsigned lanes = (unsigned)_mm256_movemask_ps( _mm256_and_ps( _mm256_and_ps( finite_center, radius_ok ), hit ) );
		unsigned bits = ( lanes & 0xc3u ) | ( ( lanes & 0x0cu ) << 2 ) | ( ( lanes & 0x30u ) >> 2 ); // lanes 4 5 <-> 2 3

		// Up to 7 entries past the kept ones are written: still inside out, which has room for count entries.
		__m256i positions = _mm256_set1_epi32( (int)s_kcc_set_bit_positions[bits] );
		positions = _mm256_and_si256( _mm256_srlv_epi32( positions, shifts ), nibble );
		_mm256_storeu_si256( (__m256i*)( out + n ), _mm256_add_epi32( positions, _mm256_set1_epi32( i ) ) );
		n += __builtin_popcount( bits );
	}
	return kcc_batch_sector_rest( s, centers, radii, i, count, out, n );
}
#endif

#if defined( KCC_BATCH_X86 )
// The same per lane with sixteen lanes (AVX-512F): the compares into mask registers, and the compaction one
// vpcompressd of the indices.
__attribute__( ( target( "avx512f,popcnt" ) ) ) static int kcc_batch_sector_fused_avx512( const kcc_sector* s,
																					  const vec2s* centers,
																					  const float* radii, int count,
																					  int* out )
{
	const __m512 apex_x = _mm512_set1_ps( s->apex.x ), apex_y = _mm512_set1_ps( s->apex.y );
	const __m512 ux = _mm512_set1_ps( s->direction.x ), uy = _mm512_set1_ps( s->direction.y );
	const __m512 c = _mm512_set1_ps( s->half_angle.x ), sn = _mm512_set1_ps( s->half_angle.y );
	const __m512 radius = _mm512_set1_ps( s->radius );
	const __m512 zero = _mm512_setzero_ps(), largest = _mm512_set1_ps( FLT_MAX );
	const __m512i even = _mm512_setr_epi32( 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 );
	const __m512i odd = _mm512_setr_epi32( 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 );
	const __m512i iota = _mm512_setr_epi32( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 );
	int n = 0;
	int i = 0;
	for ( ; i + 16 <= count; i += 16 )
	{
		__m512 lo = _mm512_loadu_ps( &centers[i].x ), hi = _mm512_loadu_ps( &centers[i + 8].x );
		__m512 px = _mm512_permutex2var_ps( lo, even, hi );
		__m512 py = _mm512_permutex2var_ps( lo, odd, hi );
		__m512 r = _mm512_loadu_ps( radii + i );

		__m512 dx = _mm512_sub_ps( px, apex_x ), dy = _mm512_sub_ps( py, apex_y );
		__m512 x = _mm512_add_ps( _mm512_mul_ps( ux, dx ), _mm512_mul_ps( uy, dy ) );
		__m512 y = _mm512_abs_ps( _mm512_sub_ps( _mm512_mul_ps( ux, dy ), _mm512_mul_ps( uy, dx ) ) );
		__m512 across = _mm512_sub_ps( _mm512_mul_ps( c, y ), _mm512_mul_ps( sn, x ) );
		__m512 along = _mm512_add_ps( _mm512_mul_ps( c, x ), _mm512_mul_ps( sn, y ) );
		__m512 over = _mm512_sub_ps( along, _mm512_min_ps( _mm512_max_ps( along, zero ), radius ) );
		__m512 rr = _mm512_add_ps( radius, r );
		__mmask16 inside_angle = _mm512_cmp_ps_mask( across, zero, _CMP_LE_OQ );
		__mmask16 near_apex = _mm512_cmp_ps_mask( _mm512_add_ps( _mm512_mul_ps( x, x ), _mm512_mul_ps( y, y ) ),
												  _mm512_mul_ps( rr, rr ), _CMP_LE_OQ );
		__mmask16 near_edge = _mm512_cmp_ps_mask(
			_mm512_add_ps( _mm512_mul_ps( across, across ), _mm512_mul_ps( over, over ) ), _mm512_mul_ps( r, r ),
			_CMP_LE_OQ );
		__mmask16 finite_center = _mm512_cmp_ps_mask(
			_mm512_add_ps( _mm512_mul_ps( px, zero ), _mm512_mul_ps( py, zero ) ), zero, _CMP_EQ_OQ );
		__mmask16 radius_ok = _mm512_cmp_ps_mask( r, zero, _CMP_GE_OQ ) & _mm512_cmp_ps_mask( r, largest, _CMP_LE_OQ );
		__mmask16 bits = ( ( inside_angle & near_apex ) | near_edge ) & finite_center & radius_ok;

		// Up to 15 entries past the kept ones are written: still inside out, which has room for count entries.
		__m512i indices = _mm512_maskz_compress_epi32( bits, _mm512_add_epi32( iota, _mm512_set1_epi32( i ) ) );
		_mm512_storeu_si512( out + n, indices );
		n += __builtin_popcount( (unsigned)bits );
	}
	return kcc_batch_sector_rest( s, centers, radii, i, count, out, n );
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

static kcc_isa kcc_batch_machine_isa( void )
{
	kcc_isa isa = KCC_ISA_BASELINE;
#if defined( KCC_BATCH_X86 )
	if ( __builtin_cpu_supports( "avx2" ) && __builtin_cpu_supports( "popcnt" ) )
	{
		isa = __builtin_cpu_supports( "avx512f" ) ? KCC_ISA_AVX512 : KCC_ISA_AVX2;
	}
#endif
	return isa < kcc_isa_cap ? isa : kcc_isa_cap;
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

	kcc_isa isa = kcc_batch_machine_isa();
	(void)isa; // only the x86 paths read it
	int ( *compact )( const uint8_t* flags, int count, int base, int* out ) = kcc_batch_compact;
	kcc_batch_kernel* const* kernels = s_kcc_batch_kernels_baseline;
#if defined( KCC_BATCH_X86 )
	if ( s->type == KCC_SHAPE_SECTOR && isa == KCC_ISA_AVX512 )
	{
		return kcc_batch_sector_fused_avx512( &s->sector, centers, radii, count, out_indices );
	}
	if ( s->type == KCC_SHAPE_SECTOR && isa == KCC_ISA_AVX2 )
	{
		return kcc_batch_sector_fused_avx2( &s->sector, centers, radii, count, out_indices );
	}
	if ( isa >= KCC_ISA_AVX2 )
	{
		kernels = s_kcc_batch_kernels_avx2;
		compact = kcc_batch_compact_avx2;
	}
#endif
	kcc_batch_kernel* kernel = kernels[s->type];
	if ( kernel == NULL )
	{
		return 0;
	}

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
