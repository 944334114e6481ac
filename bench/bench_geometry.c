// SPDX-License-Identifier: MIT
// Geometry benchmark: ns per test over 1e6 random pairs held in arrays (generated up front with a deterministic
// PRNG), median of 5 timed passes, and the ratio against a reference measured in the same process: cute_c2's formula
// for the same test on the same arrays where it has one, and its circle-circle formula on pairs of its own after
// every pass (the machine's speed right then). A ratio carries from one machine, or one minute of a shared one, to
// another; a raw time does not. Prints figures and a checksum of every result; asserts nothing.
// Build it in a Release tree:  cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
// Run:  ./bench_geometry [pairs] [--cpu] [--only TEXT] [--once]
//   --cpu   thread CPU time instead of wall time (on a shared machine; pin it too: taskset -c 1)
//   --only  time only the rows whose name contains TEXT (the data of every row is still generated)
//   --once  one pass per row: instructions per test under valgrind --tool=callgrind (inclusive cost of the
//           row's kernel_* function divided by the pairs)
#define _POSIX_C_SOURCE 199309L

#include "kcc/geometry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef KCC_BENCH_BUILD_TYPE
#define KCC_BENCH_BUILD_TYPE "unknown"
#endif
#ifndef KCC_BENCH_C_FLAGS
#define KCC_BENCH_C_FLAGS "unknown"
#endif
#ifndef KCC_BENCH_SANITIZE
#define KCC_BENCH_SANITIZE 0
#endif

#define BENCH_RUNS 5
#define BENCH_PI 3.14159265358979f

// ---------------------------------------------------------------------------------------------------------------
// Deterministic PRNG (splitmix64): the same pairs on every machine and every run.

static uint64_t s_rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng_next( void )
{
	uint64_t z = ( s_rng_state += 0x9E3779B97F4A7C15ull );
	z = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

/// Uniform in [lo, hi).
static float rng_range( float lo, float hi )
{
	float unit = (float)( rng_next() >> 40 ) * ( 1.0f / 16777216.0f );
	return lo + ( hi - lo ) * unit;
}

/// Uniform over the disc of the given radius centred on the origin (uniform in area, not in radius).
static vec2s rng_in_disc( float radius )
{
	float r = radius * sqrtf( rng_range( 0.0f, 1.0f ) );
	float theta = rng_range( 0.0f, 2.0f * BENCH_PI );
	return kcc_v2( r * cosf( theta ), r * sinf( theta ) );
}

/// A position somewhere in a 100 x 100 level: away from the origin, as game shapes are.
static vec2s rng_world_position( void )
{
	return kcc_v2( rng_range( -50.0f, 50.0f ), rng_range( -50.0f, 50.0f ) );
}

static vec2s add( vec2s a, vec2s b )
{
	return kcc_v2( a.x + b.x, a.y + b.y );
}

// ---------------------------------------------------------------------------------------------------------------
// Random shapes of game-like sizes (a character is 1 to 2 units tall).

static kcc_circle random_circle( vec2s center )
{
	kcc_circle c = { center, rng_range( 0.2f, 1.0f ) };
	return c;
}

static kcc_shape random_aabb( vec2s center )
{
	vec2s h = kcc_v2( rng_range( 0.25f, 1.5f ), rng_range( 0.25f, 1.5f ) );
	return kcc_make_aabb( kcc_v2( center.x - h.x, center.y - h.y ), kcc_v2( center.x + h.x, center.y + h.y ) );
}

static kcc_shape random_obb( vec2s center )
{
	vec2s h = kcc_v2( rng_range( 0.25f, 1.5f ), rng_range( 0.25f, 1.5f ) );
	return kcc_make_obb( center, h, rng_range( -BENCH_PI, BENCH_PI ) );
}

static kcc_shape random_capsule( vec2s center )
{
	float half_length = rng_range( 0.25f, 1.0f );
	float angle = rng_range( -BENCH_PI, BENCH_PI );
	vec2s axis = kcc_v2( half_length * cosf( angle ), half_length * sinf( angle ) );
	return kcc_make_capsule( kcc_v2( center.x - axis.x, center.y - axis.y ), add( center, axis ),
							 rng_range( 0.2f, 0.6f ) );
}

static kcc_shape random_sector( vec2s apex )
{
	float angle = rng_range( 0.3f, 2.0f * BENCH_PI );
	float aim = rng_range( -BENCH_PI, BENCH_PI );
	return kcc_make_sector( apex, kcc_v2( cosf( aim ), sinf( aim ) ), rng_range( 1.0f, 3.0f ), angle );
}

/// Eight points on a rotated ellipse at jittered angles: always in convex position, so the hull has 8 vertices.
static kcc_shape random_octagon( vec2s center )
{
	float ax = rng_range( 0.5f, 1.5f ), ay = rng_range( 0.5f, 1.5f );
	float spin = rng_range( -BENCH_PI, BENCH_PI );
	float cs = cosf( spin ), sn = sinf( spin );
	vec2s points[8];
	for ( int k = 0; k < 8; ++k )
	{
		float t = (float)k * ( 2.0f * BENCH_PI / 8.0f ) + rng_range( -0.3f, 0.3f );
		float x = ax * cosf( t ), y = ay * sinf( t );
		points[k] = kcc_v2( center.x + cs * x - sn * y, center.y + sn * x + cs * y );
	}
	return kcc_make_polygon( points, 8, 0.0f );
}

/// A level tile or crate: a box of random size and angle (a polygon, as the controller sees Chipmunk boxes).
static kcc_shape random_box( vec2s center )
{
	kcc_shape box = kcc_make_box( kcc_v2( rng_range( 0.25f, 1.5f ), rng_range( 0.25f, 1.5f ) ), 0.0f );
	return kcc_shape_transform( &box, center, rng_range( -BENCH_PI, BENCH_PI ) );
}

// ---------------------------------------------------------------------------------------------------------------
// The data every kernel reads. Kernels load the pointer through a volatile, so the optimiser cannot assume the
// arrays are unchanged between runs and hoist the work out of the timing loop.

typedef struct bench_data
{
	int count;
	kcc_circle* circles;
	kcc_circle* circles_b; ///< the second circle of the circle-circle pairs
	vec2s* points;
	kcc_aabb* aabbs;
	kcc_obb* obbs;
	kcc_capsule* capsules;
	kcc_sector* sectors;
	kcc_polygon* polygons;
	kcc_shape* shapes_a;
	kcc_shape* shapes_b;
	vec2s* translations;
	float* radii;
	int* indices;
} bench_data;

static bench_data s_data;
static bench_data* volatile s_data_pointer = &s_data;

typedef uint64_t bench_kernel( void );

static uint64_t kernel_circle_circle( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_circle_overlaps_circle( d->circles[i], d->circles_b[i] );
	}
	return hits;
}

static uint64_t kernel_circle_aabb( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_circle_overlaps_aabb( d->circles[i], d->aabbs[i] );
	}
	return hits;
}

static uint64_t kernel_circle_obb( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_circle_overlaps_obb( d->circles[i], d->obbs[i] );
	}
	return hits;
}

static uint64_t kernel_circle_capsule( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_circle_overlaps_capsule( d->circles[i], d->capsules[i] );
	}
	return hits;
}

static uint64_t kernel_circle_sector( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_circle_overlaps_sector( d->circles[i], &d->sectors[i] );
	}
	return hits;
}

// ---------------------------------------------------------------------------------------------------------------
// The references: cute_c2's c2CircletoCircle, c2CircletoAABB and c2CircletoCapsule, written here from their published
// definitions (open sets, a clamp by ternary min / max, the capsule's three regions chosen by branches).

static bool reference_circle_circle( kcc_circle a, kcc_circle b )
{
	float dx = b.center.x - a.center.x, dy = b.center.y - a.center.y, r = a.radius + b.radius;
	return dx * dx + dy * dy < r * r;
}

static float reference_min( float a, float b )
{
	return a < b ? a : b;
}

static float reference_max( float a, float b )
{
	return b < a ? a : b;
}

static bool reference_circle_aabb( kcc_circle a, kcc_aabb b )
{
	float lx = reference_min( reference_max( a.center.x, b.min.x ), b.max.x );
	float ly = reference_min( reference_max( a.center.y, b.min.y ), b.max.y );
	float dx = a.center.x - lx, dy = a.center.y - ly;
	return dx * dx + dy * dy < a.radius * a.radius;
}

static bool reference_circle_capsule( kcc_circle a, kcc_capsule b )
{
	float nx = b.b.x - b.a.x, ny = b.b.y - b.a.y;
	float apx = a.center.x - b.a.x, apy = a.center.y - b.a.y;
	float da = apx * nx + apy * ny;
	float d2;
	if ( da < 0.0f )
	{
		d2 = apx * apx + apy * apy;
	}
	else
	{
		float bpx = a.center.x - b.b.x, bpy = a.center.y - b.b.y;
		float db = bpx * nx + bpy * ny;
		if ( db < 0.0f )
		{
			float t = da / ( nx * nx + ny * ny );
			float ex = apx - nx * t, ey = apy - ny * t;
			d2 = ex * ex + ey * ey;
		}
		else
		{
			d2 = bpx * bpx + bpy * bpy;
		}
	}
	float r = a.radius + b.radius;
	return d2 < r * r;
}

// Calibration pairs of their own (the rows reuse the row arrays), read through a volatile pointer like the rows.
typedef struct bench_calibration
{
	int count;
	kcc_circle* a;
	kcc_circle* b;
} bench_calibration;

static bench_calibration s_calibration;
static bench_calibration* volatile s_calibration_pointer = &s_calibration;

static uint64_t kernel_calibration( void )
{
	const bench_calibration* c = s_calibration_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < c->count; ++i )
	{
		hits += reference_circle_circle( c->a[i], c->b[i] );
	}
	return hits;
}

static uint64_t kernel_reference_circle_circle( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += reference_circle_circle( d->circles[i], d->circles_b[i] );
	}
	return hits;
}

static uint64_t kernel_reference_circle_aabb( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += reference_circle_aabb( d->circles[i], d->aabbs[i] );
	}
	return hits;
}

static uint64_t kernel_reference_circle_capsule( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += reference_circle_capsule( d->circles[i], d->capsules[i] );
	}
	return hits;
}

static uint64_t kernel_point_in_sector( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_sector_contains_point( &d->sectors[i], d->points[i] );
	}
	return hits;
}

static uint64_t kernel_circle_polygon( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_circle_overlaps_polygon( d->circles[i], &d->polygons[i] );
	}
	return hits;
}

static uint64_t kernel_generic_overlap( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	return hits;
}

static uint64_t kernel_generic_contains_point( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		hits += kcc_contains_point( &d->shapes_b[i], d->points[i] );
	}
	return hits;
}

static uint64_t kernel_shape_cast( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		kcc_cast_output out = kcc_shape_cast( &d->shapes_a[i], d->translations[i], &d->shapes_b[i] );
		hits += out.hit;
	}
	return hits;
}

static uint64_t kernel_ray_cast( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t hits = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		kcc_cast_output out = kcc_ray_cast( &d->shapes_b[i], d->points[i], d->translations[i] );
		hits += out.hit;
	}
	return hits;
}

static uint64_t kernel_distance( void )
{
	const bench_data* d = s_data_pointer;
	uint64_t separated = 0;
	for ( int i = 0; i < d->count; ++i )
	{
		kcc_distance_output out = kcc_distance( &d->shapes_a[i], &d->shapes_b[i] );
		separated += out.distance > 0.0f;
	}
	return separated;
}

static uint64_t kernel_batch_sector( void )
{
	const bench_data* d = s_data_pointer;
	vec2s* centers = d->points;
	return (uint64_t)kcc_batch_overlap_circles( &d->shapes_a[0], centers, d->radii, d->count, d->indices );
}

// ---------------------------------------------------------------------------------------------------------------
// Timing and the table.

// CLOCK_MONOTONIC (wall time) by default; --cpu switches to this thread's CPU time, which does not count the time
// the thread waits for a core on a loaded machine.
static clockid_t s_clock = CLOCK_MONOTONIC;

static double now_seconds( void )
{
	struct timespec t;
	clock_gettime( s_clock, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

static int compare_doubles( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

static uint64_t s_checksum = 0;
static uint64_t s_untimed_sink = 0; ///< results of untimed passes land here, so their loads are not optimised away
static const char* s_only = NULL; ///< --only TEXT: time only the rows whose name contains TEXT
static bool s_once = false;       ///< --once: one pass per row and reference, no warm-up (for callgrind)
static const char* s_row = "";    ///< the current row; its "via" lines follow it

/// ns per item of one pass of kernel over items; every pass is folded into the checksum (the work of each one is
/// observable) and *hits gets its count.
static double time_pass( bench_kernel* kernel_in, int items, uint64_t* hits )
{
	// Called through a volatile pointer: every kernel stays a function of its own (not inlined into main), so a
	// profiler attributes each row's cost to its kernel_* function.
	bench_kernel* volatile kernel = kernel_in;
	double start = now_seconds();
	uint64_t count = kernel();
	double stop = now_seconds();
	s_checksum = s_checksum * 31u + count;
	*hits = count;
	return ( stop - start ) * 1.0e9 / (double)items;
}

/// An untimed pass over the calibration pairs (24 MB of other data): the next timed pass finds the last level
/// cache as full of other data as every pass does, whatever ran before it.
static void evict_caches( void )
{
	bench_kernel* volatile kernel = kernel_calibration;
	s_untimed_sink += kernel();
}

static double median_of( double* values, int count )
{
	qsort( values, (size_t)count, sizeof( double ), compare_doubles );
	return values[count / 2];
}

/// One row: BENCH_RUNS passes over all the pairs, each followed by a pass of the reference (when the row has one:
/// cute_c2's formula for the same test on the same arrays) and of cute_c2's circle-circle formula on pairs of its
/// own, every pass starting with other data in the cache. Prints the median ns per test and the medians of the
/// per-pass ratios.
static void measure( const char* name, bench_kernel* kernel, bench_kernel* reference )
{
	s_row = name[0] != ' ' ? name : s_row;
	if ( s_only != NULL && strstr( s_row, s_only ) == NULL )
	{
		return;
	}
	int count = s_data.count, runs = s_once ? 1 : BENCH_RUNS;
	uint64_t hits = 0, ignored;
	double ns[BENCH_RUNS], to_reference[BENCH_RUNS], to_circle[BENCH_RUNS];
	if ( s_once == false )
	{
		time_pass( kernel, count, &ignored ); // untimed warm-up pass: page faults, caches
	}
	for ( int run = 0; run < runs; ++run )
	{
		evict_caches();
		ns[run] = time_pass( kernel, count, &hits );
		if ( reference != NULL )
		{
			evict_caches();
			to_reference[run] = ns[run] / time_pass( reference, count, &ignored );
		}
		evict_caches();
		to_circle[run] = ns[run] / time_pass( kernel_calibration, s_calibration.count, &ignored );
	}
	char reference_text[32] = "-";
	if ( reference != NULL )
	{
		snprintf( reference_text, sizeof( reference_text ), "%.2f", median_of( to_reference, runs ) );
	}
	double circle = median_of( to_circle, runs );
	double median = median_of( ns, runs );
	printf( "%-36s %9.2f %9.2f - %-9.2f %6.1f%% %14s %14.2f\n", name, median, ns[0], ns[runs - 1],
			100.0 * (double)hits / (double)count, reference_text, circle );
	fflush( stdout );
}

static void* allocate_array( size_t count, size_t size )
{
	void* memory = calloc( count, size );
	if ( memory == NULL )
	{
		fprintf( stderr, "bench_geometry: out of memory (%zu x %zu bytes)\n", count, size );
		exit( 1 );
	}
	return memory;
}

/// Typed and generic results must agree (they are two routes to one answer); print disagreements, do not abort.
static void report_disagreements( const char* name, const bool* typed, const bool* generic, int count )
{
	int differ = 0;
	for ( int i = 0; i < count; ++i )
	{
		differ += typed[i] != generic[i];
	}
	if ( differ > 0 )
	{
		printf( "  note: %s: typed test and kcc_overlap disagree on %d of %d pairs\n", name, differ, count );
	}
}

int main( int argc, char** argv )
{
	int n = 1000000;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--cpu" ) == 0 )
		{
			s_clock = CLOCK_THREAD_CPUTIME_ID;
		}
		else if ( strcmp( argv[i], "--once" ) == 0 )
		{
			s_once = true;
		}
		else if ( strcmp( argv[i], "--only" ) == 0 && i + 1 < argc )
		{
			s_only = argv[++i];
		}
		else
		{
			n = atoi( argv[i] );
			n = n < 1 ? 1 : n;
		}
	}

	printf( "kcc2d geometry benchmark: %d random pairs per row, %d timed runs (median, min, max), ns per test, %s\n",
			n, BENCH_RUNS, s_clock == CLOCK_MONOTONIC ? "wall time (CLOCK_MONOTONIC)" : "thread CPU time (--cpu)" );
	printf( "build: CMAKE_BUILD_TYPE=%s, flags \"%s\", sanitizer %s, asserts %s, compiler %s\n", KCC_BENCH_BUILD_TYPE,
			KCC_BENCH_C_FLAGS, KCC_BENCH_SANITIZE ? "ON" : "OFF",
#if defined( KCC_ENABLE_ASSERT )
			"ON",
#else
			"OFF",
#endif
#if defined( __VERSION__ )
			__VERSION__
#else
			"unknown"
#endif
	);
	bool checked_build = KCC_BENCH_SANITIZE != 0 || strcmp( KCC_BENCH_BUILD_TYPE, "Debug" ) == 0;
#if defined( KCC_ENABLE_ASSERT )
	checked_build = true;
#endif
	if ( checked_build )
	{
		printf( "WARNING: a Debug, assert or sanitizer build: these figures say nothing about speed\n" );
	}
	bench_data* d = &s_data;
	d->count = n;
	d->circles = allocate_array( (size_t)n, sizeof( kcc_circle ) );
	d->points = allocate_array( (size_t)n, sizeof( vec2s ) );
	d->aabbs = allocate_array( (size_t)n, sizeof( kcc_aabb ) );
	d->obbs = allocate_array( (size_t)n, sizeof( kcc_obb ) );
	d->capsules = allocate_array( (size_t)n, sizeof( kcc_capsule ) );
	d->sectors = allocate_array( (size_t)n, sizeof( kcc_sector ) );
	d->polygons = allocate_array( (size_t)n, sizeof( kcc_polygon ) );
	d->shapes_a = allocate_array( (size_t)n, sizeof( kcc_shape ) );
	d->shapes_b = allocate_array( (size_t)n, sizeof( kcc_shape ) );
	d->translations = allocate_array( (size_t)n, sizeof( vec2s ) );
	d->radii = allocate_array( (size_t)n, sizeof( float ) );
	d->indices = allocate_array( (size_t)n, sizeof( int ) );
	d->circles_b = allocate_array( (size_t)n, sizeof( kcc_circle ) );
	bool* typed = allocate_array( (size_t)n, sizeof( bool ) );
	bool* generic = allocate_array( (size_t)n, sizeof( bool ) );

	// Each offset disc radius below is sized so that about half of the pairs overlap (the "hits" column).

	// circle-circle: radii 0.2 .. 1, centres within 1.76 (E[(ra + rb)^2] / 1.76^2 is about 1/2)
	for ( int i = 0; i < n; ++i )
	{
		d->circles[i] = random_circle( rng_world_position() );
		d->circles_b[i] = random_circle( add( d->circles[i].center, rng_in_disc( 1.76f ) ) );
		d->shapes_a[i] = kcc_make_circle( d->circles[i].center, d->circles[i].radius );
		d->shapes_b[i] = kcc_make_circle( d->circles_b[i].center, d->circles_b[i].radius );
		typed[i] = kcc_circle_overlaps_circle( d->circles[i], d->circles_b[i] );
		generic[i] = kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	// cute_c2's circle-circle formula over pairs of its own: timed after every pass of every row (the machine's speed
	// right then: it swings by tens of percent within seconds on a shared host), and the cache evictor.
	s_calibration.count = n;
	s_calibration.a = allocate_array( (size_t)n, sizeof( kcc_circle ) );
	s_calibration.b = allocate_array( (size_t)n, sizeof( kcc_circle ) );
	for ( int i = 0; i < n; ++i )
	{
		s_calibration.a[i] = random_circle( rng_world_position() );
		s_calibration.b[i] = random_circle( add( s_calibration.a[i].center, rng_in_disc( 1.76f ) ) );
	}
	printf( "ns per test: median (min - max) of %d passes over all the pairs; the ratios are the medians of each pass's\n"
			"time over the reference's timed right after it: cute_c2's formula for the same test on the same arrays\n"
			"(circle-circle, -AABB, -capsule), and its circle-circle formula on pairs of its own (every row)\n\n",
			BENCH_RUNS );
	printf( "%-36s %9s %21s %7s %14s %14s\n", "row", "ns/test", "(min - max)", "hits", "x cute_c2 same", "x c2 circle" );
	measure( "circle-circle", kernel_circle_circle, kernel_reference_circle_circle );
	measure( "  via kcc_overlap", kernel_generic_overlap, kernel_reference_circle_circle );
	report_disagreements( "circle-circle", typed, generic, n );

	// circle-AABB: boxes with half extents 0.25 .. 1.5
	for ( int i = 0; i < n; ++i )
	{
		vec2s center = rng_world_position();
		d->shapes_b[i] = random_aabb( center );
		d->aabbs[i] = d->shapes_b[i].aabb;
		d->circles[i] = random_circle( add( center, rng_in_disc( 2.35f ) ) );
		d->shapes_a[i] = kcc_make_circle( d->circles[i].center, d->circles[i].radius );
		typed[i] = kcc_circle_overlaps_aabb( d->circles[i], d->aabbs[i] );
		generic[i] = kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	measure( "circle-AABB", kernel_circle_aabb, kernel_reference_circle_aabb );
	measure( "  via kcc_overlap", kernel_generic_overlap, kernel_reference_circle_aabb );
	report_disagreements( "circle-AABB", typed, generic, n );

	// circle-OBB: the same boxes at random angles
	for ( int i = 0; i < n; ++i )
	{
		vec2s center = rng_world_position();
		d->shapes_b[i] = random_obb( center );
		d->obbs[i] = d->shapes_b[i].obb;
		d->circles[i] = random_circle( add( center, rng_in_disc( 2.35f ) ) );
		d->shapes_a[i] = kcc_make_circle( d->circles[i].center, d->circles[i].radius );
		typed[i] = kcc_circle_overlaps_obb( d->circles[i], d->obbs[i] );
		generic[i] = kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	measure( "circle-OBB", kernel_circle_obb, NULL );
	measure( "  via kcc_overlap", kernel_generic_overlap, NULL );
	report_disagreements( "circle-OBB", typed, generic, n );

	// circle-capsule: segments 0.5 .. 2 long, radius 0.2 .. 0.6
	for ( int i = 0; i < n; ++i )
	{
		vec2s center = rng_world_position();
		d->shapes_b[i] = random_capsule( center );
		d->capsules[i] = d->shapes_b[i].capsule;
		d->circles[i] = random_circle( add( center, rng_in_disc( 1.95f ) ) );
		d->shapes_a[i] = kcc_make_circle( d->circles[i].center, d->circles[i].radius );
		typed[i] = kcc_circle_overlaps_capsule( d->circles[i], d->capsules[i] );
		generic[i] = kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	measure( "circle-capsule", kernel_circle_capsule, kernel_reference_circle_capsule );
	measure( "  via kcc_overlap", kernel_generic_overlap, kernel_reference_circle_capsule );
	report_disagreements( "circle-capsule", typed, generic, n );

	// circle-sector: radius 1 .. 3, opening 0.3 .. 2*pi (wide, non-convex sectors included)
	for ( int i = 0; i < n; ++i )
	{
		vec2s apex = rng_world_position();
		d->shapes_b[i] = random_sector( apex );
		d->sectors[i] = d->shapes_b[i].sector;
		d->circles[i] = random_circle( add( apex, rng_in_disc( 2.8f ) ) );
		d->shapes_a[i] = kcc_make_circle( d->circles[i].center, d->circles[i].radius );
		typed[i] = kcc_circle_overlaps_sector( d->circles[i], &d->sectors[i] );
		generic[i] = kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	measure( "circle-sector", kernel_circle_sector, NULL );
	measure( "  via kcc_overlap", kernel_generic_overlap, NULL );
	report_disagreements( "circle-sector", typed, generic, n );

	// point-in-sector: the same sectors, points within 1.6 of the apex
	for ( int i = 0; i < n; ++i )
	{
		d->points[i] = add( d->sectors[i].apex, rng_in_disc( 1.6f ) );
		typed[i] = kcc_sector_contains_point( &d->sectors[i], d->points[i] );
		generic[i] = kcc_contains_point( &d->shapes_b[i], d->points[i] );
	}
	measure( "point-in-sector", kernel_point_in_sector, NULL );
	measure( "  via kcc_contains_point", kernel_generic_contains_point, NULL );
	report_disagreements( "point-in-sector", typed, generic, n );

	// circle vs 8-gon: ellipse-inscribed octagons, axes 0.5 .. 1.5
	for ( int i = 0; i < n; ++i )
	{
		vec2s center = rng_world_position();
		d->shapes_b[i] = random_octagon( center );
		d->polygons[i] = d->shapes_b[i].polygon;
		d->circles[i] = random_circle( add( center, rng_in_disc( 2.2f ) ) );
		d->shapes_a[i] = kcc_make_circle( d->circles[i].center, d->circles[i].radius );
		typed[i] = kcc_circle_overlaps_polygon( d->circles[i], &d->polygons[i] );
		generic[i] = kcc_overlap( &d->shapes_a[i], &d->shapes_b[i] );
	}
	measure( "circle vs 8-gon", kernel_circle_polygon, NULL );
	measure( "  via kcc_overlap", kernel_generic_overlap, NULL );
	report_disagreements( "circle vs 8-gon", typed, generic, n );

	// polygon vs polygon and GJK distance: two octagons, centres within 2.75
	for ( int i = 0; i < n; ++i )
	{
		vec2s center = rng_world_position();
		d->shapes_a[i] = random_octagon( center );
		d->shapes_b[i] = random_octagon( add( center, rng_in_disc( 2.75f ) ) );
	}
	measure( "8-gon vs 8-gon (kcc_overlap)", kernel_generic_overlap, NULL );
	measure( "GJK distance 8-gon vs 8-gon", kernel_distance, NULL );

	// capsule cast vs box: a character capsule (0.3 radius, 1.2 tall) dashing 1 .. 4 units in a random direction
	// past a box placed near its start
	for ( int i = 0; i < n; ++i )
	{
		vec2s start = rng_world_position();
		d->shapes_a[i] = kcc_make_capsule( kcc_v2( start.x, start.y - 0.3f ), kcc_v2( start.x, start.y + 0.3f ), 0.3f );
		float dash = rng_range( 1.0f, 4.0f ), aim = rng_range( -BENCH_PI, BENCH_PI );
		d->translations[i] = kcc_v2( dash * cosf( aim ), dash * sinf( aim ) );
		d->shapes_b[i] = random_box( add( start, rng_in_disc( 2.6f ) ) );
	}
	measure( "capsule cast vs box", kernel_shape_cast, NULL );

	// ray cast vs box: rays 1 .. 6 long from points near the box
	for ( int i = 0; i < n; ++i )
	{
		vec2s center = rng_world_position();
		d->shapes_b[i] = random_box( center );
		d->points[i] = add( center, rng_in_disc( 1.7f ) );
		float length = rng_range( 1.0f, 6.0f ), aim = rng_range( -BENCH_PI, BENCH_PI );
		d->translations[i] = kcc_v2( length * cosf( aim ), length * sinf( aim ) );
	}
	measure( "ray cast vs box", kernel_ray_cast, NULL );

	// one sword arc (radius 3, 120 degrees) against n enemies (radius 0.2 .. 0.6) spread around it
	d->shapes_a[0] = kcc_make_sector( kcc_v2( 10.0f, -5.0f ), kcc_v2( 1.0f, 1.0f ), 3.0f, 2.0f * BENCH_PI / 3.0f );
	for ( int i = 0; i < n; ++i )
	{
		d->points[i] = add( kcc_v2( 10.0f, -5.0f ), rng_in_disc( 2.1f ) );
		d->radii[i] = rng_range( 0.2f, 0.6f );
	}
	measure( "sector vs circles (batch, /circle)", kernel_batch_sector, NULL );

	printf( "\nchecksum %llu\n", (unsigned long long)s_checksum );

	free( s_calibration.b );
	free( s_calibration.a );
	free( generic );
	free( typed );
	free( d->circles_b );
	free( d->indices );
	free( d->radii );
	free( d->translations );
	free( d->shapes_b );
	free( d->shapes_a );
	free( d->polygons );
	free( d->sectors );
	free( d->capsules );
	free( d->obbs );
	free( d->aabbs );
	free( d->points );
	free( d->circles );
	return 0;
}
