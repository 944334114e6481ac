// SPDX-License-Identifier: MIT
// The gauntlet (bench/gauntlet/SCENE.md): 1,000 capsule characters for 600 steps on a 10,000-tile level, moved
// with kcc_controller_move_and_slide. Prints moves per second (median of the runs, and the spread) and the quality
// figures, measured after the timed loop from the recorded positions, independently of the controller.
//
//   gauntlet [level.txt] [--runs N] [--steps N] [--traj FILE] [--cell SIZE] [--tree]
//
// --tree keeps Chipmunk's default bounding box tree (what a game gets without cpSpaceUseSpatialHash) instead of the
// spatial hash of cell SIZE.
#define _POSIX_C_SOURCE 199309L // clock_gettime( CLOCK_MONOTONIC ) under -std=c11

#include "prng.h"

#include "kcc/controller.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef KCC_LEVEL_DIR
#define KCC_LEVEL_DIR "."
#endif

#define SEED 2024u
#define DT ( 1.0f / 60.0f )
#define GRAVITY 30.0f
#define MAX_SPEED 6.0f
#define JUMP_SPEED 10.0f
#define MAX_RUNS 64

// Filter bits: characters are not in their own mask, so they never block each other.
#define CATEGORY_TILE ( (cpBitmask)1 << 0 )
#define CATEGORY_CHARACTER ( (cpBitmask)1 << 1 )

typedef enum tile_kind
{
	TILE_BOX,
	TILE_RAMP_RIGHT, // (x,y), (x+1,y), (x+1,y+1)
	TILE_RAMP_LEFT,  // (x,y), (x+1,y), (x,y+1)
} tile_kind;

typedef struct tile
{
	int x, y;
	tile_kind kind;
} tile;

typedef struct level
{
	int width, height;
	tile* tiles;
	int tile_count;
	vec2s* spawns;
	int spawn_count;
	int* grid; // width * height cells: index of the tile in that cell, -1 when empty
} level;

// ---------------------------------------------------------------------------------------------------------------
// World query counter: the controller's Chipmunk queries are wrapped at link time (-Wl,--wrap, see CMakeLists).

void __real_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data );
void __wrap_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data );

static uint64_t s_bb_queries = 0;

void __wrap_cpSpaceBBQuery( cpSpace* space, cpBB bb, cpShapeFilter filter, cpSpaceBBQueryFunc func, void* data )
{
	s_bb_queries += 1;
	__real_cpSpaceBBQuery( space, bb, filter, func, data );
}

// ---------------------------------------------------------------------------------------------------------------

static bool load_level( const char* path, level* out )
{
	FILE* file = fopen( path, "r" );
	if ( file == NULL )
	{
		fprintf( stderr, "gauntlet: cannot open %s\n", path );
		return false;
	}
	memset( out, 0, sizeof( *out ) );
	if ( fscanf( file, "%d %d", &out->width, &out->height ) != 2 || out->width <= 0 || out->height <= 0 )
	{
		fprintf( stderr, "gauntlet: bad header in %s\n", path );
		fclose( file );
		return false;
	}
	int tile_capacity = 16384, spawn_capacity = 2048;
	out->tiles = (tile*)malloc( sizeof( tile ) * (size_t)tile_capacity );
	out->spawns = (vec2s*)malloc( sizeof( vec2s ) * (size_t)spawn_capacity );
	out->grid = (int*)malloc( sizeof( int ) * (size_t)out->width * (size_t)out->height );
	if ( out->tiles == NULL || out->spawns == NULL || out->grid == NULL )
	{
		fclose( file );
		return false;
	}
	for ( int i = 0; i < out->width * out->height; ++i )
	{
		out->grid[i] = -1;
	}
	char kind;
	float a, b;
	while ( fscanf( file, " %c %f %f", &kind, &a, &b ) == 3 )
	{
		if ( kind == 'C' )
		{
			if ( out->spawn_count == spawn_capacity )
			{
				spawn_capacity *= 2;
				out->spawns = (vec2s*)realloc( out->spawns, sizeof( vec2s ) * (size_t)spawn_capacity );
			}
			out->spawns[out->spawn_count++] = kcc_v2( a, b );
			continue;
		}
		int x = (int)a, y = (int)b;
		if ( ( kind != 'B' && kind != 'R' && kind != 'L' ) || x < 0 || y < 0 || x >= out->width || y >= out->height )
		{
			fprintf( stderr, "gauntlet: bad item '%c %g %g' in %s\n", kind, (double)a, (double)b, path );
			fclose( file );
			return false;
		}
		if ( out->tile_count == tile_capacity )
		{
			tile_capacity *= 2;
			out->tiles = (tile*)realloc( out->tiles, sizeof( tile ) * (size_t)tile_capacity );
		}
		tile_kind tk = kind == 'B' ? TILE_BOX : ( kind == 'R' ? TILE_RAMP_RIGHT : TILE_RAMP_LEFT );
		out->grid[y * out->width + x] = out->tile_count;
		out->tiles[out->tile_count++] = (tile){ x, y, tk };
	}
	fclose( file );
	return true;
}

static int tile_vertices( const tile* t, cpVect* v )
{
	double x = t->x, y = t->y;
	switch ( t->kind )
	{
		case TILE_BOX:
			v[0] = cpv( x, y );
			v[1] = cpv( x + 1.0, y );
			v[2] = cpv( x + 1.0, y + 1.0 );
			v[3] = cpv( x, y + 1.0 );
			return 4;
		case TILE_RAMP_RIGHT:
			v[0] = cpv( x, y );
			v[1] = cpv( x + 1.0, y );
			v[2] = cpv( x + 1.0, y + 1.0 );
			return 3;
		default:
			v[0] = cpv( x, y );
			v[1] = cpv( x + 1.0, y );
			v[2] = cpv( x, y + 1.0 );
			return 3;
	}
}

typedef struct world
{
	cpSpace* space;
	cpShape** tile_shapes;
	kcc_controller** characters;
	int tile_count, character_count;
} world;

// cell <= 0: Chipmunk's default bounding box tree.
static void world_create( world* w, const level* lv, int characters, double cell )
{
	w->space = cpSpaceNew();
	if ( cell > 0.0 )
	{
		cpSpaceUseSpatialHash( w->space, cell, 4 * lv->tile_count + 4 * characters );
	}
	w->tile_count = lv->tile_count;
	w->tile_shapes = (cpShape**)malloc( sizeof( cpShape* ) * (size_t)lv->tile_count );
	cpBody* ground = cpSpaceGetStaticBody( w->space );
	cpShapeFilter tile_filter = cpShapeFilterNew( CP_NO_GROUP, CATEGORY_TILE, CP_ALL_CATEGORIES );
	for ( int i = 0; i < lv->tile_count; ++i )
	{
		cpVect v[4];
		int n = tile_vertices( &lv->tiles[i], v );
		cpShape* shape = cpPolyShapeNewRaw( ground, n, v, 0.0 ); // counter-clockwise already
		cpShapeSetFilter( shape, tile_filter );
		cpSpaceAddShape( w->space, shape );
		w->tile_shapes[i] = shape;
	}
	w->character_count = characters;
	w->characters = (kcc_controller**)malloc( sizeof( kcc_controller* ) * (size_t)characters );
	kcc_controller_def def = kcc_default_controller_def();
	def.shape = kcc_make_capsule( kcc_v2( 0.0f, -0.3f ), kcc_v2( 0.0f, 0.3f ), 0.3f );
	def.filter = cpShapeFilterNew( CP_NO_GROUP, CATEGORY_CHARACTER, CP_ALL_CATEGORIES & ~CATEGORY_CHARACTER );
	for ( int i = 0; i < characters; ++i )
	{
		def.position = lv->spawns[i];
		w->characters[i] = kcc_controller_create( w->space, &def );
		if ( w->characters[i] == NULL )
		{
			fprintf( stderr, "gauntlet: create failed: %s\n", kcc_controller_def_problem( &def ) );
			exit( 1 );
		}
	}
}

static void world_destroy( world* w )
{
	for ( int i = 0; i < w->character_count; ++i )
	{
		kcc_controller_destroy( w->characters[i] );
	}
	for ( int i = 0; i < w->tile_count; ++i )
	{
		cpSpaceRemoveShape( w->space, w->tile_shapes[i] );
		cpShapeFree( w->tile_shapes[i] );
	}
	cpSpaceFree( w->space );
	free( w->tile_shapes );
	free( w->characters );
}

static double now_seconds( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// CPU time of this process: less sensitive than wall time when the machine is shared (printed next to it).
static double cpu_seconds( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_PROCESS_CPUTIME_ID, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct run_output
{
	double seconds;
	double cpu;
	uint64_t bb_queries;
	int on_ground_at_end;
	uint64_t truncated_moves; // moves that reported KCC_CANDIDATES_TRUNCATED
	uint64_t failed_moves;    // moves that returned an error
} run_output;

// One run: fresh world, the SCENE.md motion, positions recorded into frames ((steps + 1) * n * 2 floats).
static run_output run_once( const level* lv, int n, int steps, double cell, float* frames )
{
	world w;
	world_create( &w, lv, n, cell );
	vec2s* velocity = (vec2s*)calloc( (size_t)n, sizeof( vec2s ) );
	float* vx_desired = (float*)calloc( (size_t)n, sizeof( float ) );
	bool* want_jump = (bool*)calloc( (size_t)n, sizeof( bool ) );
	bool* on_ground = (bool*)calloc( (size_t)n, sizeof( bool ) );
	for ( int i = 0; i < n; ++i )
	{
		vec2s p = kcc_controller_get_position( w.characters[i] );
		frames[2 * i] = p.x;
		frames[2 * i + 1] = p.y;
	}
	run_output out = { 0 };
	uint64_t queries_before = s_bb_queries;
	double start = now_seconds();
	double cpu_start = cpu_seconds();
	for ( int step = 0; step < steps; ++step )
	{
		float* frame = frames + (size_t)( step + 1 ) * (size_t)n * 2;
		for ( int i = 0; i < n; ++i )
		{
			if ( ( step + i ) % 30 == 0 || step == 0 )
			{
				uint32_t h = hash3( SEED, (uint32_t)i, (uint32_t)( ( step + i ) / 30 ) );
				vx_desired[i] = ( (float)( h & 0xFFFFu ) / 65535.0f * 2.0f - 1.0f ) * MAX_SPEED;
				want_jump[i] = ( ( h >> 16 ) & 3u ) == 0;
			}
			vec2s v = velocity[i];
			v.x = vx_desired[i];
			if ( on_ground[i] && want_jump[i] )
			{
				v.y = JUMP_SPEED;
				want_jump[i] = false;
			}
			v.y -= GRAVITY * DT;
			kcc_move_result result;
			kcc_status status = kcc_controller_move_and_slide( w.characters[i], v, DT, &velocity[i], &result );
			if ( status != KCC_OK )
			{
				out.failed_moves += 1;
				result.flags = 0;
				result.position = kcc_controller_get_position( w.characters[i] );
			}
			on_ground[i] = ( result.flags & KCC_ON_FLOOR ) != 0;
			out.truncated_moves += ( result.flags & KCC_CANDIDATES_TRUNCATED ) ? 1 : 0;
			frame[2 * i] = result.position.x;
			frame[2 * i + 1] = result.position.y;
		}
	}
	out.seconds = now_seconds() - start;
	out.cpu = cpu_seconds() - cpu_start;
	out.bb_queries = s_bb_queries - queries_before;
	for ( int i = 0; i < n; ++i )
	{
		out.on_ground_at_end += on_ground[i] ? 1 : 0;
	}
	free( velocity );
	free( vx_desired );
	free( want_jump );
	free( on_ground );
	world_destroy( &w );
	return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Independent overlap measure (double precision, no kcc or Chipmunk code): depth of the capsule (core segment
// a-b, radius r) into a convex counter-clockwise polygon = r - distance(core, polygon) when the core is outside,
// r + the core's separating-axis penetration when the core crosses the polygon.

static double cross2( double ax, double ay, double bx, double by )
{
	return ax * by - ay * bx;
}

static double point_segment_distance( double px, double py, double ax, double ay, double bx, double by )
{
	double ex = bx - ax, ey = by - ay;
	double t = ( ( px - ax ) * ex + ( py - ay ) * ey ) / ( ex * ex + ey * ey );
	t = t < 0.0 ? 0.0 : ( t > 1.0 ? 1.0 : t );
	double dx = px - ( ax + t * ex ), dy = py - ( ay + t * ey );
	return sqrt( dx * dx + dy * dy );
}

static bool segments_cross( const double* p, const double* q, const double* r, const double* s )
{
	double d1 = cross2( q[0] - p[0], q[1] - p[1], r[0] - p[0], r[1] - p[1] );
	double d2 = cross2( q[0] - p[0], q[1] - p[1], s[0] - p[0], s[1] - p[1] );
	double d3 = cross2( s[0] - r[0], s[1] - r[1], p[0] - r[0], p[1] - r[1] );
	double d4 = cross2( s[0] - r[0], s[1] - r[1], q[0] - r[0], q[1] - r[1] );
	return ( ( d1 > 0.0 && d2 < 0.0 ) || ( d1 < 0.0 && d2 > 0.0 ) ) && ( ( d3 > 0.0 && d4 < 0.0 ) || ( d3 < 0.0 && d4 > 0.0 ) );
}

static bool point_in_polygon( double px, double py, const cpVect* v, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		const cpVect a = v[i], b = v[( i + 1 ) % n];
		if ( cross2( b.x - a.x, b.y - a.y, px - a.x, py - a.y ) < 0.0 )
		{
			return false;
		}
	}
	return true;
}

static double capsule_polygon_depth( const double* a, const double* b, double radius, const cpVect* v, int n )
{
	bool inside = point_in_polygon( a[0], a[1], v, n ) || point_in_polygon( b[0], b[1], v, n );
	double distance = INFINITY;
	for ( int i = 0; i < n && inside == false; ++i )
	{
		double p[2] = { v[i].x, v[i].y }, q[2] = { v[( i + 1 ) % n].x, v[( i + 1 ) % n].y };
		if ( segments_cross( a, b, p, q ) )
		{
			inside = true;
			break;
		}
		distance = fmin( distance, point_segment_distance( a[0], a[1], p[0], p[1], q[0], q[1] ) );
		distance = fmin( distance, point_segment_distance( b[0], b[1], p[0], p[1], q[0], q[1] ) );
		distance = fmin( distance, point_segment_distance( p[0], p[1], a[0], a[1], b[0], b[1] ) );
	}
	if ( inside == false )
	{
		return radius - distance;
	}
	// The core crosses the polygon: smallest overlap over the polygon's edge normals and the core's normal.
	double smallest = INFINITY;
	for ( int i = 0; i <= n; ++i )
	{
		double nx, ny;
		if ( i < n )
		{
			const cpVect e0 = v[i], e1 = v[( i + 1 ) % n];
			nx = e1.y - e0.y;
			ny = -( e1.x - e0.x );
		}
		else
		{
			nx = -( b[1] - a[1] );
			ny = b[0] - a[0];
		}
		double length = sqrt( nx * nx + ny * ny );
		nx /= length;
		ny /= length;
		double pmin = INFINITY, pmax = -INFINITY;
		for ( int k = 0; k < n; ++k )
		{
			double d = v[k].x * nx + v[k].y * ny;
			pmin = fmin( pmin, d );
			pmax = fmax( pmax, d );
		}
		double s0 = a[0] * nx + a[1] * ny, s1 = b[0] * nx + b[1] * ny;
		double overlap = fmin( pmax - fmin( s0, s1 ), fmax( s0, s1 ) - pmin );
		smallest = fmin( smallest, overlap );
	}
	return radius + smallest;
}

// The measure must see overlaps: a capsule standing 0.1 inside a box, across a ramp's slope, and one just clear.
static bool overlap_measure_self_check( void )
{
	cpVect box[4] = { { 0.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 1.0 }, { 0.0, 1.0 } };
	cpVect ramp[3] = { { 0.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 1.0 } };
	double a[2] = { 0.5, 1.2 }, b[2] = { 0.5, 1.8 };
	double sunk = capsule_polygon_depth( a, b, 0.3, box, 4 ); // bottom at 0.9: 0.1 deep
	double c[2] = { 0.5, 0.2 }, d[2] = { 0.5, 0.8 };
	double crossing = capsule_polygon_depth( c, d, 0.3, ramp, 3 ); // core crosses the slope
	double e[2] = { 2.0, 0.5 }, f[2] = { 2.0, 1.1 };
	double clear = capsule_polygon_depth( e, f, 0.3, box, 4 ); // 0.7 to the right of the box
	return fabs( sunk - 0.1 ) < 1e-12 && crossing > 0.3 && clear < 0.0;
}

typedef struct quality
{
	uint64_t overlapping_steps; // character-steps with an overlap > 0.001
	double largest_overlap;
	double deepest_signed; // largest depth with its sign: negative is the closest approach (about -skin)
	int deepest_character, deepest_step;
	int left_map;
	double mean_path;
} quality;

static quality measure_quality( const level* lv, int n, int steps, const float* frames )
{
	quality q = { 0 };
	q.deepest_signed = -INFINITY;
	bool* left = (bool*)calloc( (size_t)n, sizeof( bool ) );
	double total_path = 0.0;
	for ( int step = 1; step <= steps; ++step )
	{
		const float* frame = frames + (size_t)step * (size_t)n * 2;
		const float* previous = frame - (size_t)n * 2;
		for ( int i = 0; i < n; ++i )
		{
			double x = frame[2 * i], y = frame[2 * i + 1];
			double dx = x - previous[2 * i], dy = y - previous[2 * i + 1];
			total_path += sqrt( dx * dx + dy * dy );
			if ( !( x >= 0.0 && x <= lv->width && y >= 0.0 && y <= lv->height ) )
			{
				left[i] = true;
				continue;
			}
			double a[2] = { x, y - 0.3 }, b[2] = { x, y + 0.3 };
			double deepest = -INFINITY;
			int cx0 = (int)floor( x - 0.3 ), cx1 = (int)floor( x + 0.3 );
			int cy0 = (int)floor( y - 0.6 ), cy1 = (int)floor( y + 0.6 );
			for ( int cy = cy0; cy <= cy1; ++cy )
			{
				for ( int cx = cx0; cx <= cx1; ++cx )
				{
					if ( cx < 0 || cy < 0 || cx >= lv->width || cy >= lv->height )
					{
						continue;
					}
					int index = lv->grid[cy * lv->width + cx];
					if ( index < 0 )
					{
						continue;
					}
					cpVect v[4];
					int count = tile_vertices( &lv->tiles[index], v );
					double depth = capsule_polygon_depth( a, b, 0.3, v, count );
					deepest = fmax( deepest, depth );
				}
			}
			if ( deepest > q.deepest_signed )
			{
				q.deepest_signed = deepest;
				q.deepest_character = i;
				q.deepest_step = step;
			}
			q.largest_overlap = fmax( q.largest_overlap, deepest );
			q.overlapping_steps += deepest > 0.001 ? 1 : 0;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		q.left_map += left[i] ? 1 : 0;
	}
	q.mean_path = total_path / n;
	free( left );
	return q;
}

static int compare_doubles( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

static bool write_trajectory( const char* path, int n, int steps, const float* frames )
{
	FILE* file = fopen( path, "wb" );
	if ( file == NULL )
	{
		return false;
	}
	int32_t header[2] = { n, steps };
	// x86-64 is little-endian, the layout SCENE.md asks for.
	bool ok = fwrite( header, sizeof( header ), 1, file ) == 1 &&
			  fwrite( frames, sizeof( float ) * 2 * (size_t)n, (size_t)steps + 1, file ) == (size_t)steps + 1;
	return fclose( file ) == 0 && ok;
}

int main( int argc, char** argv )
{
	const char* level_path = KCC_LEVEL_DIR "/level.txt";
	const char* traj_path = NULL;
	int runs = 5, steps = 600;
	double cell = 1.0;
	bool tree = false;
	for ( int i = 1; i < argc; ++i )
	{
		if ( strcmp( argv[i], "--runs" ) == 0 && i + 1 < argc )
		{
			runs = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--steps" ) == 0 && i + 1 < argc )
		{
			steps = atoi( argv[++i] );
		}
		else if ( strcmp( argv[i], "--traj" ) == 0 && i + 1 < argc )
		{
			traj_path = argv[++i];
		}
		else if ( strcmp( argv[i], "--cell" ) == 0 && i + 1 < argc )
		{
			cell = atof( argv[++i] );
		}
		else if ( strcmp( argv[i], "--tree" ) == 0 )
		{
			tree = true;
		}
		else if ( argv[i][0] != '-' )
		{
			level_path = argv[i];
		}
		else
		{
			fprintf( stderr, "usage: %s [level.txt] [--runs N] [--steps N] [--traj FILE] [--cell SIZE] [--tree]\n",
					 argv[0] );
			return 2;
		}
	}
	if ( runs < 1 || runs > MAX_RUNS || steps < 1 || !( cell > 0.0 ) )
	{
		fprintf( stderr, "gauntlet: runs must be 1..%d, steps >= 1, cell > 0\n", MAX_RUNS );
		return 2;
	}
	if ( overlap_measure_self_check() == false )
	{
		fprintf( stderr, "gauntlet: the overlap measure failed its self-check\n" );
		return 1;
	}
	level lv;
	if ( load_level( level_path, &lv ) == false )
	{
		return 1;
	}
	int n = lv.spawn_count;
	size_t frame_floats = (size_t)( steps + 1 ) * (size_t)n * 2;
	float* frames = (float*)malloc( sizeof( float ) * frame_floats );
	float* first_frames = (float*)malloc( sizeof( float ) * frame_floats );
	if ( frames == NULL || first_frames == NULL )
	{
		return 1;
	}
	if ( tree )
	{
		printf( "gauntlet: %s, %d x %d, %d tiles, %d characters, %d steps, %d runs, Chipmunk's bounding box tree\n",
				level_path, lv.width, lv.height, lv.tile_count, n, steps, runs );
		cell = 0.0;
	}
	else
	{
		printf( "gauntlet: %s, %d x %d, %d tiles, %d characters, %d steps, %d runs, spatial hash cell %g\n", level_path,
				lv.width, lv.height, lv.tile_count, n, steps, runs, cell );
	}

	double rates[MAX_RUNS], cpu_rates[MAX_RUNS];
	run_output first = { 0 };
	bool identical = true;
	for ( int r = 0; r < runs; ++r )
	{
		run_output out = run_once( &lv, n, steps, cell, r == 0 ? first_frames : frames );
		rates[r] = (double)n * steps / out.seconds;
		cpu_rates[r] = (double)n * steps / out.cpu;
		if ( r == 0 )
		{
			first = out;
		}
		else
		{
			identical = identical && memcmp( frames, first_frames, sizeof( float ) * frame_floats ) == 0;
		}
		printf( "  run %d: %.3f s, %.3f M moves/s (CPU time %.3f s, %.3f M moves/s)\n", r + 1, out.seconds,
				rates[r] * 1e-6, out.cpu, cpu_rates[r] * 1e-6 );
	}
	qsort( rates, (size_t)runs, sizeof( double ), compare_doubles );
	qsort( cpu_rates, (size_t)runs, sizeof( double ), compare_doubles );
	double median = runs % 2 ? rates[runs / 2] : 0.5 * ( rates[runs / 2 - 1] + rates[runs / 2] );
	double cpu_median = runs % 2 ? cpu_rates[runs / 2] : 0.5 * ( cpu_rates[runs / 2 - 1] + cpu_rates[runs / 2] );
	quality q = measure_quality( &lv, n, steps, first_frames );
	double moves = (double)n * steps;

	printf( "moves/s (median of %d): %.3f M  (spread %.3f - %.3f M), %.3f us per move\n", runs, median * 1e-6,
			rates[0] * 1e-6, rates[runs - 1] * 1e-6, 1e6 / median );
	printf( "by CPU time (median): %.3f M moves/s (spread %.3f - %.3f M)\n", cpu_median * 1e-6, cpu_rates[0] * 1e-6,
			cpu_rates[runs - 1] * 1e-6 );
	printf( "world queries per move: %.3f cpSpaceBBQuery\n", (double)first.bb_queries / moves );
	printf( "character-steps with an overlap > 0.001: %llu\n", (unsigned long long)q.overlapping_steps );
	printf( "largest overlap: %.6g (signed: %.6g, character %d after step %d; negative = closest approach)\n",
			q.largest_overlap, q.deepest_signed, q.deepest_character, q.deepest_step - 1 );
	printf( "characters out of the map: %d\n", q.left_map );
	printf( "mean path length per character: %.4f\n", q.mean_path );
	printf( "characters on the ground at the end: %d\n", first.on_ground_at_end );
	printf( "moves with an error: %llu, moves with truncated candidates: %llu\n",
			(unsigned long long)first.failed_moves, (unsigned long long)first.truncated_moves );
	printf( "runs bit-identical: %s\n", runs > 1 ? ( identical ? "yes" : "NO" ) : "(one run)" );
	printf( "reference: Box2D v3 mover 0.6-0.74 M moves/s (largest overlap 5.6 mm); Rapier 0.21 (wasm) 0.18 M moves/s\n" );

	if ( traj_path != NULL )
	{
		if ( write_trajectory( traj_path, n, steps, first_frames ) == false )
		{
			fprintf( stderr, "gauntlet: cannot write %s\n", traj_path );
			return 1;
		}
		printf( "trajectory written to %s\n", traj_path );
	}
	free( frames );
	free( first_frames );
	free( lv.tiles );
	free( lv.spawns );
	free( lv.grid );
	return 0;
}
